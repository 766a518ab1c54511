/* test_cuda_host.c - hetsim-cuda-cal's kernels, built for the host
 * (calibrate/cuda/kernels.cuh through cuda_host.h), against the CPU
 * kernels that define the simulated tasks' work: the same word counts,
 * exactly, and the same MLP loss, gradients and SGD step within float's
 * precision.  No GPU is needed; on one, only the launch, cuBLAS, device
 * memory and timing are new.
 *
 * Tolerances (float on both sides since the CPU kernel is float32
 * through sgemm, issue 16 item 5; batch of 8 Gaussian-blob samples,
 * seeded He weights): the loss within relative 1e-5; each gradient
 * element within 1e-5 of the largest |gradient| of its block (W1, b1,
 * W2, b2); after each of 5 SGD steps (lr 0.05) every parameter within
 * 1e-6 absolute, of parameters of about 0.05 sd of which some move by
 * more than 1e-3 in the first step.  The bounds are those of the double
 * CPU kernel (measured then 7e-7, 6e-7, 5e-8), kept: two float
 * kernels differ by their summation orders only.  Measured (gcc 12,
 * x86-64): with OpenBLAS 5e-8, 6e-7 and 3e-8 (margins >= 17); with
 * gslcblas 3e-9, 0 and 0 (the same loop order as the host build).
 * HETSIM_TEST_VERBOSE=1 prints them. */
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cal.h"
#include "cuda/cuda_host.h"

/* ---- word count ---------------------------------------------------- */

struct wc_cmp {
	const struct cuda_host_pair *pairs;
	long n;
	size_t missing, wrong; /* CPU words absent from the pairs, or counted differently */
};

static int by_key(const void *k, const void *p)
{
	uint64_t a = *(const uint64_t *)k, b = ((const struct cuda_host_pair *)p)->key;
	return a < b ? -1 : a > b;
}

static void check_word(const char *w, size_t len, uint64_t count, void *arg)
{
	struct wc_cmp *c = arg;
	uint64_t key = cuda_host_wc_key(w, len);
	const struct cuda_host_pair *p = bsearch(&key, c->pairs, (size_t)c->n, sizeof *p, by_key);
	if (!p)
		c->missing++;
	else if (p->count != count)
		c->wrong++;
}

/* The pairs are exactly t's counts: as many, the same total, and every
 * word of t among them with its count (so no two words share a key). */
static void assert_same_counts(const struct cal_wc *t, uint64_t total,
			       const struct cuda_host_pair *pairs, long n)
{
	CU_ASSERT_EQUAL_FATAL(n, (long)cal_wc_distinct(t));
	uint64_t sum = 0;
	for (long i = 0; i < n; i++)
		sum += pairs[i].count;
	CU_ASSERT_EQUAL(sum, total);
	struct wc_cmp c = {pairs, n, 0, 0};
	cal_wc_each(t, check_word, &c);
	CU_ASSERT_EQUAL(c.missing, 0);
	CU_ASSERT_EQUAL(c.wrong, 0);
}

static uint32_t count_of(const struct cuda_host_pair *pairs, long n, const char *w)
{
	uint64_t key = cuda_host_wc_key(w, strlen(w));
	const struct cuda_host_pair *p = bsearch(&key, pairs, (size_t)n, sizeof *p, by_key);
	return p ? p->count : 0;
}

static struct cuda_host_pair *pairs_new(void)
{
	struct cuda_host_pair *p = calloc(CUDA_HOST_WC_SLOTS, sizeof *p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	return p;
}

/* The CPU tokenizer's edge cases: case folded, punctuation, tabs, CR,
 * bytes >= 0x80 and digits; a word cut at both ends of the buffer. */
static void test_wc_map_hand(void)
{
	const char *text = "Hello, WORLD! h\xc3\xa9llo 42abc x\tY\r\nhello world42 hello";
	size_t len = strlen(text);
	struct cuda_host_pair *out = pairs_new();
	long n = cuda_host_wc_map(text, len, 1, out);
	struct cal_wc *t = cal_wc_new();
	uint64_t total = cal_wc_count_text(t, text, len);
	CU_ASSERT_EQUAL(total, 10);
	assert_same_counts(t, total, out, n);
	CU_ASSERT_EQUAL(count_of(out, n, "hello"), 3);
	CU_ASSERT_EQUAL(count_of(out, n, "h"), 1);
	CU_ASSERT_EQUAL(count_of(out, n, "llo"), 1);
	CU_ASSERT_EQUAL(count_of(out, n, "world"), 1);
	CU_ASSERT_EQUAL(count_of(out, n, "42abc"), 1);
	CU_ASSERT_EQUAL(count_of(out, n, "HELLO"), 0); /* keys are of lowercased words */
	/* from inside "Hello" to inside the last "hello" */
	n = cuda_host_wc_map(text + 2, len - 4, 3, out);
	cal_wc_free(t);
	t = cal_wc_new();
	total = cal_wc_count_text(t, text + 2, len - 4);
	assert_same_counts(t, total, out, n);
	CU_ASSERT_EQUAL(count_of(out, n, "llo"), 2);
	CU_ASSERT_EQUAL(count_of(out, n, "hel"), 1);
	cal_wc_free(t);
	free(out);
}

/* Seeded Zipf text (the calibration's): 1 MiB, and an odd slice starting
 * inside a word, with grids of 1, 7 and 64 blocks (grid-stride loops). */
static void test_wc_map_zipf(void)
{
	size_t bytes = (size_t)1 << 20;
	char *text = cal_text_zipf(bytes, 12345);
	struct cuda_host_pair *out = pairs_new();
	const size_t slice[][2] = {{0, bytes}, {3, 100003}};
	const int grids[] = {1, 7, 64};
	for (int s = 0; s < 2; s++) {
		struct cal_wc *t = cal_wc_new();
		uint64_t total = cal_wc_count_text(t, text + slice[s][0], slice[s][1]);
		CU_ASSERT(cal_wc_distinct(t) > 1000);
		for (int g = 0; g < 3; g++) {
			long n = cuda_host_wc_map(text + slice[s][0], slice[s][1], grids[g], out);
			assert_same_counts(t, total, out, n);
		}
		cal_wc_free(t);
	}
	free(text);
	free(out);
}

/* Reduce: the pairs of two map outputs merged on the host build equal
 * cal_wc_merge of the two CPU tables. */
static void test_wc_reduce(void)
{
	size_t half = (size_t)1 << 19;
	char *text = cal_text_zipf(2 * half, 777);
	struct cuda_host_pair *a = pairs_new(), *out = pairs_new();
	long na = cuda_host_wc_map(text, half, 8, a);
	long nb = cuda_host_wc_map(text + half, half, 8, out);
	CU_ASSERT_FATAL(na > 0 && nb > 0 && na + nb <= CUDA_HOST_WC_SLOTS);
	struct cuda_host_pair *recs = malloc((size_t)(na + nb) * sizeof *recs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(recs);
	memcpy(recs, a, (size_t)na * sizeof *recs);
	memcpy(recs + na, out, (size_t)nb * sizeof *recs);
	long n = cuda_host_wc_reduce(recs, (size_t)(na + nb), 5, out);

	struct cal_wc *ta = cal_wc_new(), *tb = cal_wc_new(), *sum = cal_wc_new();
	uint64_t total = cal_wc_count_text(ta, text, half) + cal_wc_count_text(tb, text + half, half);
	cal_wc_merge(sum, ta);
	cal_wc_merge(sum, tb);
	assert_same_counts(sum, total, out, n);
	cal_wc_free(ta);
	cal_wc_free(tb);
	cal_wc_free(sum);
	free(recs);
	free(a);
	free(out);
	free(text);
}

/* ---- mnist_step ---------------------------------------------------- */

enum { NB = 8, NP = CUDA_HOST_MLP_NPARAMS };

struct mlp_pair {
	struct cal_mlp *cpu;
	float *p, *g, *x; /* the host build's parameters, gradients, batch */
	struct cal_data d;
};

static void mlp_pair_new(struct mlp_pair *m)
{
	CU_ASSERT_EQUAL_FATAL(cal_mlp_nparams(), NP);
	m->cpu = cal_mlp_new(2024);
	cal_data_synthetic(&m->d, NB, 99, 0);
	m->p = malloc(NP * sizeof *m->p);
	m->g = calloc(NP, sizeof *m->g);
	m->x = malloc((size_t)NB * CAL_MLP_IN * sizeof *m->x);
	CU_ASSERT_FATAL(m->p && m->g && m->x);
	memcpy(m->p, cal_mlp_params(m->cpu), NP * sizeof *m->p);
	memcpy(m->x, m->d.x, (size_t)NB * CAL_MLP_IN * sizeof *m->x);
}

static void mlp_pair_free(struct mlp_pair *m)
{
	cal_mlp_free(m->cpu);
	cal_data_free(&m->d);
	free(m->p);
	free(m->g);
	free(m->x);
}

/* Largest |a - b| over [from, to) relative to the largest |b| there. */
static double rel_err(const float *a, const float *b, int from, int to)
{
	double err = 0, big = 0;
	for (int i = from; i < to; i++) {
		err = fmax(err, fabs(a[i] - b[i]));
		big = fmax(big, fabs(b[i]));
	}
	return big > 0 ? err / big : err;
}

static double abs_err(const float *a, const float *b, int n)
{
	double err = 0;
	for (int i = 0; i < n; i++)
		err = fmax(err, fabs(a[i] - b[i]));
	return err;
}

static void test_mlp_grad(void)
{
	struct mlp_pair m;
	mlp_pair_new(&m);
	double want = cal_mlp_grad(m.cpu, m.d.x, m.d.y, NB);
	double got = cuda_host_mlp_grad(m.p, m.g, m.x, m.d.y, NB);
	CU_ASSERT(want > 0.1);
	CU_ASSERT_DOUBLE_EQUAL(got, want, 1e-5 * want);
	const float *g = cal_mlp_grads(m.cpu);
	const int nw1 = CAL_MLP_HID * CAL_MLP_IN, nw2 = CAL_MLP_OUT * CAL_MLP_HID;
	const int at[5] = {0, nw1, nw1 + CAL_MLP_HID, nw1 + CAL_MLP_HID + nw2, NP};
	double worst = 0;
	for (int k = 0; k < 4; k++) {
		double e = rel_err(m.g, g, at[k], at[k + 1]);
		worst = fmax(worst, e);
		CU_ASSERT(e <= 1e-5);
	}
	if (getenv("HETSIM_TEST_VERBOSE"))
		fprintf(stderr, "\ncuda_host mlp: loss %.3g relative, gradients %.3g of a block's "
			"largest\n", fabs(got - want) / want, worst);
	/* the gradient pass leaves the parameters alone */
	const float *p = cal_mlp_params(m.cpu);
	int changed = 0;
	for (int i = 0; i < NP; i++)
		changed += m.p[i] != p[i];
	CU_ASSERT_EQUAL(changed, 0);
	mlp_pair_free(&m);
}

static void test_mlp_step(void)
{
	struct mlp_pair m;
	mlp_pair_new(&m);
	const double lr = 0.05;
	float *before = malloc(NP * sizeof *before);
	CU_ASSERT_PTR_NOT_NULL_FATAL(before);
	memcpy(before, m.p, NP * sizeof *before);
	for (int s = 0; s < 5; s++) {
		double want = cal_mlp_step(m.cpu, m.d.x, m.d.y, NB, lr);
		double got = cuda_host_mlp_step(m.p, m.g, m.x, m.d.y, NB, (float)lr);
		CU_ASSERT_DOUBLE_EQUAL(got, want, 1e-5 * want);
		double e = abs_err(m.p, cal_mlp_params(m.cpu), NP);
		CU_ASSERT(e <= 1e-6);
		if (s == 4 && getenv("HETSIM_TEST_VERBOSE"))
			fprintf(stderr, "\ncuda_host mlp: parameters after 5 steps within %.3g\n", e);
		if (s == 0) { /* the step moved the weights well beyond the bound */
			double moved = 0;
			for (int i = 0; i < NP; i++)
				moved = fmax(moved, fabs(m.p[i] - before[i]));
			CU_ASSERT(moved > 1e-3);
		}
	}
	free(before);
	mlp_pair_free(&m);
}

int test_suite_cuda_host(void)
{
	TEST_SUITE("cuda_host",
		   {"wordcount map: hand text, the CPU tokenizer's edge cases", test_wc_map_hand},
		   {"wordcount map: Zipf text, same counts as the CPU kernel", test_wc_map_zipf},
		   {"wordcount reduce: same counts as cal_wc_merge", test_wc_reduce},
		   {"mnist_step: loss and gradients as the CPU kernel (float)", test_mlp_grad},
		   {"mnist_step: 5 SGD steps give the CPU kernel's weights", test_mlp_step});
	return 0;
}
