/* test_calibrate.c - calibration: the fit recovers known coefficients
 * (and picks its clock), the samples CSV and the model file round-trip
 * (through scn_load), word counts match a hand count, the MLP's (float)
 * gradients match finite differences of a double reference and it
 * learns.  (test_calibrate_load.c: --validate and the machine's load.) */
#include "load.h"
#include "test.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cal.h"
#include "fit.h"
#include "harness.h"
#include "scenario.h"

static void push(struct cal_samples *s, const char *k, const char *d, double size, int r,
		 double sec)
{
	struct cal_sample x = {.size = size, .repeat = r, .seconds = sec};
	snprintf(x.kernel, sizeof x.kernel, "%s", k);
	snprintf(x.device, sizeof x.device, "%s", d);
	cal_samples_push(s, &x);
}

/* duration = 2 ms + 0.5 ms x size with 2 % lognormal-ish noise. */
static void synth(struct cal_samples *s, double a, double b, double cv, const char *dev)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 11);
	for (double size = 1; size <= 64; size *= 2)
		for (int k = 0; k < 7; k++)
			push(s, "mnist_step", dev, size, k,
			     (a + b * size) * exp(gsl_ran_gaussian(r, cv)));
	gsl_rng_free(r);
}

static void test_fit_recovers(void)
{
	struct cal_samples s = {0};
	synth(&s, 2e-3, 0.5e-3, 0.0, "cpu");
	synth(&s, 1e-3, 0.01e-3, 0.02, "h200");
	struct fit_line *f;
	char err[256], why[128];
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &f, err, sizeof err), 2);
	CU_ASSERT_STRING_EQUAL(f[0].device, "cpu");
	CU_ASSERT_DOUBLE_EQUAL(f[0].intercept, 2e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f[0].slope, 0.5e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f[0].r2, 1.0, 1e-9);
	CU_ASSERT_EQUAL(f[0].n, 7);
	CU_ASSERT_EQUAL(f[0].samples, 49);
	CU_ASSERT_STRING_EQUAL(f[0].unit, "samples");
	/* noisy: within a few % and the 95 % intervals contain the truth */
	CU_ASSERT_DOUBLE_EQUAL(f[1].intercept, 1e-3, 0.03e-3);
	CU_ASSERT_DOUBLE_EQUAL(f[1].slope, 0.01e-3, 0.001e-3);
	CU_ASSERT(f[1].intercept_ci[0] < 1e-3 && 1e-3 < f[1].intercept_ci[1]);
	CU_ASSERT(f[1].slope_ci[0] < 0.01e-3 && 0.01e-3 < f[1].slope_ci[1]);
	CU_ASSERT(f[1].cv > 0.01 && f[1].cv < 0.03);
	CU_ASSERT_FALSE(fit_poor(&f[1], why, sizeof why));
	free(f);
	cal_samples_free(&s);
}

/* The noise is a robust spread: a slow repeat (a VM stall: one repeat in
 * seven 80 % slower at every size) barely moves it, while noise in every
 * sample sets it.  2 % lognormal noise: cv about 0.02 either way; 20 %:
 * about 0.2, and the fit is flagged. */
static void test_fit_noise_robust(void)
{
	struct cal_samples s = {0};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 5);
	for (double size = 1; size <= 64; size *= 2)
		for (int k = 0; k < 7; k++) {
			double y = (1e-3 + 0.1e-3 * size) * exp(gsl_ran_gaussian(r, 0.02));
			push(&s, "mnist_step", "cpu", size, k, k == 6 ? 1.8 * y : y);
			push(&s, "mnist_step", "gpu", size, k,
			     (1e-3 + 0.1e-3 * size) * exp(gsl_ran_gaussian(r, 0.2)));
		}
	gsl_rng_free(r);
	struct fit_line *f;
	char err[256], why[128];
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &f, err, sizeof err), 2);
	CU_ASSERT_STRING_EQUAL(f[0].device, "cpu");
	CU_ASSERT(f[0].cv > 0.01 && f[0].cv < 0.04);
	CU_ASSERT_FALSE(fit_poor(&f[0], why, sizeof why));
	CU_ASSERT_DOUBLE_EQUAL(f[0].slope, 0.1e-3, 0.005e-3); /* medians ignore the stall */
	CU_ASSERT(f[1].cv > 0.12 && f[1].cv < 0.3);
	CU_ASSERT_TRUE(fit_poor(&f[1], why, sizeof why));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "residual CV"));
	free(f);
	cal_samples_free(&s);
}

static void test_fit_poor(void)
{
	struct cal_samples s = {0};
	/* quadratic growth: R^2 below 0.95 */
	for (double size = 1; size <= 64; size *= 2)
		for (int k = 0; k < 3; k++)
			push(&s, "wordcount_map", "cpu", size, k, 1e-3 * size * size);
	struct fit_line *f;
	char err[256], why[128];
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &f, err, sizeof err), 1);
	CU_ASSERT_TRUE(fit_poor(&f[0], why, sizeof why));
	CU_ASSERT(why[0] != 0);
	free(f);
	cal_samples_free(&s);
	/* two sizes cannot be fitted */
	push(&s, "k", "cpu", 1, 0, 1);
	push(&s, "k", "cpu", 2, 0, 2);
	CU_ASSERT_EQUAL(fit_all(&s, &f, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "at least 3"));
	cal_samples_free(&s);
}

/* Contention samples of mnist_step on cpu: n alone at size 64 (and the
 * sweep's line), n per copy count k at slowdown f[k], lognormal noise cv. */
static void synth_contention(struct cal_samples *s, const int *ks, const double *f, int nks,
			     double cv)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 5);
	for (int j = 0; j < nks; j++)
		for (int rep = 0; rep < 9; rep++)
			for (int c = 0; c < ks[j]; c++) { /* one sample per copy per round */
				struct cal_sample x = {.size = 64, .repeat = rep, .k = ks[j],
						       .seconds = 0.034 * f[j] *
								  exp(gsl_ran_gaussian(r, cv))};
				snprintf(x.kernel, sizeof x.kernel, "mnist_step");
				snprintf(x.device, sizeof x.device, "cpu");
				cal_samples_push(s, &x);
			}
	gsl_rng_free(r);
}

/* The slowdown is the median at k over the median alone: exact without
 * noise, within its spread with it; the line is fitted from the samples
 * alone only (k = 1), so contention samples leave it as it was. */
static void test_fit_contention(void)
{
	const int ks[] = {1, 2, 4};
	const double f[] = {1, 1.5, 2.2};
	struct cal_samples s = {0};
	struct fit_line *l;
	char err[256];
	synth(&s, 2e-3, 0.5e-3, 0.0, "cpu");
	synth_contention(&s, ks + 1, f + 1, 2, 0.0);
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &l, err, sizeof err), 1);
	CU_ASSERT_DOUBLE_EQUAL(l[0].intercept, 2e-3, 1e-12); /* the line alone */
	CU_ASSERT_DOUBLE_EQUAL(l[0].slope, 0.5e-3, 1e-12);
	CU_ASSERT_EQUAL(l[0].samples, 49);
	CU_ASSERT_EQUAL_FATAL(l[0].nk, 3);
	for (int j = 0; j < 3; j++) {
		CU_ASSERT_EQUAL(l[0].k[j], ks[j]);
		CU_ASSERT_DOUBLE_EQUAL(l[0].slowdown[j], f[j], 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(l[0].spread[j], 0, 1e-12);
	}
	CU_ASSERT_EQUAL(l[0].ksamples[0], 7);  /* the sweep's, at size 64 */
	CU_ASSERT_EQUAL(l[0].ksamples[1], 18); /* 9 rounds x 2 copies */
	CU_ASSERT_EQUAL(l[0].ksamples[2], 36);
	free(l);
	cal_samples_free(&s);

	/* 3 % noise, the reference timed alone in the same rounds */
	synth(&s, 2e-3, 0.5e-3, 0.0, "cpu");
	synth_contention(&s, ks, f, 3, 0.03);
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &l, err, sizeof err), 1);
	CU_ASSERT_EQUAL_FATAL(l[0].nk, 3);
	CU_ASSERT_DOUBLE_EQUAL(l[0].slowdown[1], 1.5, 0.03);
	CU_ASSERT_DOUBLE_EQUAL(l[0].slowdown[2], 2.2, 0.044);
	CU_ASSERT(l[0].spread[2] > 0.01 && l[0].spread[2] < 0.06);
	free(l);
	cal_samples_free(&s);

	/* k > 1 at a size nobody timed alone: no reference */
	synth(&s, 2e-3, 0.5e-3, 0.0, "cpu");
	struct cal_sample x = {.size = 3, .k = 2, .seconds = 0.01};
	snprintf(x.kernel, sizeof x.kernel, "mnist_step");
	snprintf(x.device, sizeof x.device, "cpu");
	cal_samples_push(&s, &x);
	CU_ASSERT_EQUAL(fit_all(&s, &l, err, sizeof err), -1);
	CU_ASSERT_STRING_EQUAL(err, "mnist_step on cpu: samples with k > 1 but none alone at "
				    "their size, the reference of the slowdown");
	cal_samples_free(&s);
}

static void test_model_roundtrip(void)
{
	char dir[] = "/tmp/hetsim-cal-XXXXXX", model[256], scn_path[256], csv[256], err[1024];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	struct cal_samples s = {0}, back = {0};
	synth(&s, 2e-3, 0.5e-3, 0.0, "cpu");
	synth(&s, 1e-3, 0.01e-3, 0.02, "gpu");
	for (double size = 1; size <= 8; size *= 2) /* wordcount kernels, cpu only */
		for (int k = 0; k < 2; k++) {
			push(&s, "wordcount_map", "cpu", size, k, 0.1 + 0.03 * size);
			push(&s, "wordcount_reduce", "cpu", size, k, 0.05 + 0.02 * size);
		}
	const int ks[] = {2};
	const double f2[] = {1.25};
	synth_contention(&s, ks, f2, 1, 0.0);
	snprintf(csv, sizeof csv, "%s/m.yaml.samples.csv", dir);
	CU_ASSERT_EQUAL_FATAL(fit_write_samples(csv, &s, NULL, err, sizeof err), 0);
	CU_ASSERT_EQUAL_FATAL(fit_read_samples(csv, &back, err, sizeof err), 0);
	CU_ASSERT_EQUAL(back.n, s.n);
	struct fit_line *f;
	int n = fit_all(&back, &f, err, sizeof err);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	snprintf(model, sizeof model, "%s/m.yaml", dir);
	struct fit_meta meta = {
		.source = "test", .machine = "Some CPU @ 2.0GHz \"quoted\"", .cores = 2,
		.backend = "cpu", .threads = 1, .data = "synthetic", .memory_mib = 8192,
		.os = "Linux 6.1.0 x86_64", .compiler = "gcc 12.2.0", .blas = "gslcblas",
		.date = "2025-06-01T12:00:00Z", .ref_kernel = CAL_REF_KERNEL, .ref_speed = 209.126,
		.contention_k = {1, 2},
	};
	CU_ASSERT_EQUAL_FATAL(fit_write_model(model, f, n, &meta, err, sizeof err), 0);
	snprintf(scn_path, sizeof scn_path, "%s/s.yaml", dir);
	h_write_file(scn_path, "cluster:\n- {name: node, cores: 4, memory: 8GiB}\n"
			       "workload:\n- {name: wc, type: wordcount, input: 1GiB}\n"
			       "- {name: tf, type: mnist_spark}\n"
			       "cost_model: m.yaml\npolicies: [fifo]\n");
	struct scn *sc = scn_load(scn_path, err, sizeof err);
	if (!sc)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(sc->cost.task_overhead_us, FIT_TASK_OVERHEAD_US);
	const struct scn_cost_meta *mt = &sc->cost.meta; /* the provenance, parsed back */
	CU_ASSERT_EQUAL(sc->cost.version, 2);
	CU_ASSERT_STRING_EQUAL(mt->source, "test");
	CU_ASSERT_STRING_EQUAL(mt->cpu, "Some CPU @ 2.0GHz \"quoted\"");
	CU_ASSERT_EQUAL(mt->cores, 2);
	CU_ASSERT_EQUAL(mt->memory_mib, 8192);
	CU_ASSERT_STRING_EQUAL(mt->os, "Linux 6.1.0 x86_64");
	CU_ASSERT_STRING_EQUAL(mt->compiler, "gcc 12.2.0");
	CU_ASSERT_STRING_EQUAL(mt->blas, "gslcblas");
	CU_ASSERT_STRING_EQUAL(mt->date, "2025-06-01T12:00:00Z");
	CU_ASSERT_STRING_EQUAL(mt->ref_kernel, CAL_REF_KERNEL);
	CU_ASSERT_DOUBLE_EQUAL(mt->ref_speed, 209.13, 1e-9); /* written with 2 decimals */
	CU_ASSERT_EQUAL(mt->contention_k[0], 1);
	CU_ASSERT_EQUAL(mt->contention_k[1], 2);
	for (int i = 0; i < n; i++) {
		const struct scn_cost_kernel *k = scn_cost_kernel(sc, f[i].kernel);
		CU_ASSERT_PTR_NOT_NULL_FATAL(k);
		const struct scn_cost_dev *d = scn_cost_device(k, f[i].device);
		CU_ASSERT_PTR_NOT_NULL_FATAL(d);
		CU_ASSERT_DOUBLE_EQUAL(d->intercept_us, fmax(f[i].intercept, 0) * 1e6, 0.0005);
		CU_ASSERT_DOUBLE_EQUAL(d->slope_us, fmax(f[i].slope, 0) * 1e6, 0.0005);
		CU_ASSERT_EQUAL(k->noise, SCN_NOISE_LOGNORMAL);
		CU_ASSERT_STRING_EQUAL(k->unit, f[i].unit);
	}
	/* the contention entry: mnist_step on cpu, 1.25 at k = 2, read
	 * back; not the nodes' curve here: the workload's tasks on a node's
	 * clock are the word count's, whose kernels have no entry (mnist's
	 * steps are timed phases of its executors) */
	const struct scn_cost_dev *d = scn_cost_device(scn_cost_kernel(sc, "mnist_step"), "cpu");
	CU_ASSERT_EQUAL_FATAL(d->nslowdown, 2);
	CU_ASSERT_DOUBLE_EQUAL(d->slowdown[1], 1.25, 1e-4);
	CU_ASSERT_PTR_NULL(scn_cost_device(scn_cost_kernel(sc, "mnist_step"), "gpu")->slowdown);
	CU_ASSERT_EQUAL(sc->groups[0].nbusy, 0);
	CU_ASSERT_PTR_NULL(sc->groups[0].busy_slowdown);
	/* mnist_step's noise is its noisier device's */
	CU_ASSERT_DOUBLE_EQUAL(scn_cost_kernel(sc, "mnist_step")->noise_cv, fmax(f[0].cv, f[1].cv),
			       0.00005);
	scn_free(sc);
	/* a workload of given durations only runs none of the model's
	 * kernels: every cpu entry makes the curve, mnist_step's 1.25 */
	h_write_file(scn_path, "cluster:\n- {name: node, cores: 4, memory: 8GiB}\n"
			       "workload:\n- {name: s, type: synthetic, stages: [{name: a, tasks: 4, "
			       "duration: 1s}]}\ncost_model: m.yaml\npolicies: [fifo]\n");
	sc = scn_load(scn_path, err, sizeof err);
	if (!sc)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL_FATAL(sc->groups[0].nbusy, 2);
	CU_ASSERT_DOUBLE_EQUAL(sc->groups[0].busy_slowdown[1], 1.25, 1e-4);
	scn_free(sc);
	free(f);
	cal_samples_free(&s);
	cal_samples_free(&back);
	remove(scn_path);
	remove(model);
	remove(csv);
	rmdir(dir);
}

static void test_samples_bad(void)
{
	char path[64], err[512];
	struct cal_samples s = {0};
	h_write_tmp(path, sizeof path, "kernel,device,size,repeat,seconds\n# a comment\n"
		    "mnist_step,h200,16,0,0.001\nmnist_step,H200,16,1,0.001\n");
	CU_ASSERT_EQUAL(fit_read_samples(path, &s, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":4: bad device key 'H200'"));
	cal_samples_free(&s);
	h_write_file(path, "mnist_step,h200,16,0,-1\n");
	CU_ASSERT_EQUAL(fit_read_samples(path, &s, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1: bad seconds '-1'"));
	cal_samples_free(&s);
	/* k: the 6th column, optional (5 columns: alone) */
	h_write_file(path, "mnist_step,h200,16,0,0.001\nmnist_step,h200,16,0,0.002,2\n"
			   "mnist_step,h200,16,0,0.002,0\n");
	CU_ASSERT_EQUAL(fit_read_samples(path, &s, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":3: bad k '0' (copies at once: an integer >= 1)"));
	CU_ASSERT_EQUAL_FATAL(s.n, 2);
	CU_ASSERT_EQUAL(s.v[0].k, 1);
	CU_ASSERT_EQUAL(s.v[1].k, 2);
	cal_samples_free(&s);
	remove(path);
}

static void test_wordcount(void)
{
	const char *text = "The cat, the CAT and the hat.\nA cat's hat: 2 hats; the-end 2";
	/* hand count: the 4, cat 3, and 1, hat 2, a 1, s 1, 2 2, hats 1, end 1 */
	struct cal_wc *t = cal_wc_new();
	CU_ASSERT_EQUAL(cal_wc_count_text(t, text, strlen(text)), 16);
	CU_ASSERT_EQUAL(cal_wc_get(t, "the"), 4);
	CU_ASSERT_EQUAL(cal_wc_get(t, "cat"), 3);
	CU_ASSERT_EQUAL(cal_wc_get(t, "and"), 1);
	CU_ASSERT_EQUAL(cal_wc_get(t, "hat"), 2);
	CU_ASSERT_EQUAL(cal_wc_get(t, "a"), 1);
	CU_ASSERT_EQUAL(cal_wc_get(t, "s"), 1);
	CU_ASSERT_EQUAL(cal_wc_get(t, "2"), 2);
	CU_ASSERT_EQUAL(cal_wc_get(t, "hats"), 1);
	CU_ASSERT_EQUAL(cal_wc_get(t, "end"), 1);
	CU_ASSERT_EQUAL(cal_wc_get(t, "The"), 0);
	CU_ASSERT_EQUAL(cal_wc_distinct(t), 9);
	/* reduce: merging two halves equals counting the whole */
	struct cal_wc *a = cal_wc_new(), *b = cal_wc_new(), *m = cal_wc_new();
	cal_wc_count_text(a, text, 20); /* "The cat, the CAT and": no word cut */
	cal_wc_count_text(b, text + 20, strlen(text) - 20);
	cal_wc_merge(m, a);
	cal_wc_merge(m, b);
	CU_ASSERT_EQUAL(cal_wc_get(m, "the"), 4);
	CU_ASSERT_EQUAL(cal_wc_get(m, "cat"), 3);
	CU_ASSERT_EQUAL(cal_wc_get(m, "hat"), 2);
	CU_ASSERT_EQUAL(cal_wc_distinct(m), 9);
	cal_wc_free(a);
	cal_wc_free(b);
	cal_wc_free(m);
	cal_wc_free(t);
}

static void test_wordcount_zipf(void)
{
	/* growth past many table doublings; the text is deterministic and Zipf:
	 * the most frequent word about twice as frequent as the second */
	char *x = cal_text_zipf(1 << 20, 3), *y = cal_text_zipf(1 << 20, 3);
	CU_ASSERT_EQUAL(memcmp(x, y, 1 << 20), 0);
	struct cal_wc *t = cal_wc_new(), *u = cal_wc_new();
	uint64_t words = cal_wc_count_text(t, x, 1 << 20);
	CU_ASSERT(words > 100000);
	CU_ASSERT(cal_wc_distinct(t) > 10000);
	/* counting twice = merging a table into itself's copy */
	cal_wc_merge(u, t);
	cal_wc_merge(u, t);
	CU_ASSERT_EQUAL(cal_wc_distinct(u), cal_wc_distinct(t));
	CU_ASSERT_EQUAL(cal_wc_bytes(u), cal_wc_bytes(t));
	cal_wc_free(t);
	cal_wc_free(u);
	free(x);
	free(y);
}

/* The MLP's mean loss in double with plain loops: the reference the
 * float kernel's arithmetic is checked against (whichever BLAS it runs
 * on), p in cal_mlp_params' layout. */
static double ref_loss(const double *p, const float *x, const int *y, int b)
{
	enum { IN = CAL_MLP_IN, HID = CAL_MLP_HID, OUT = CAL_MLP_OUT };
	const double *w1 = p, *b1 = p + HID * IN, *w2 = b1 + HID, *b2 = w2 + OUT * HID;
	double loss = 0, h[HID], z[OUT];
	for (int i = 0; i < b; i++) {
		for (int j = 0; j < HID; j++) {
			double a = b1[j];
			for (int k = 0; k < IN; k++)
				a += w1[j * IN + k] * x[(size_t)i * IN + k];
			h[j] = a > 0 ? a : 0;
		}
		double mx = -INFINITY, sum = 0;
		for (int o = 0; o < OUT; o++) {
			z[o] = b2[o];
			for (int j = 0; j < HID; j++)
				z[o] += w2[o * HID + j] * h[j];
			mx = fmax(mx, z[o]);
		}
		for (int o = 0; o < OUT; o++)
			sum += exp(z[o] - mx);
		loss -= z[y[i]] - mx - log(sum);
	}
	return loss / b;
}

/* The float kernel's loss and gradients against the double reference:
 * the loss within relative 1e-5, each checked gradient element against
 * central differences of ref_loss (h = 1e-5, in double) within 1e-3 of
 * the larger of the two plus 1e-4 of its block's largest |gradient|.
 * float's epsilon is 6e-8.  Measured (gcc 12, x86-64): loss 2e-8
 * (OpenBLAS) and 3e-8 (gslcblas) relative; gradient errors at most
 * 3e-7 and 5e-7 of max(|numeric|, |analytic|) + 0.1 x the block's
 * largest: margins above 100 with either BLAS. */
static void test_mlp_gradients(void)
{
	struct cal_data d;
	cal_data_synthetic(&d, 8, 5, 0);
	struct cal_mlp *m = cal_mlp_new(3);
	double loss = cal_mlp_grad(m, d.x, d.y, d.n);
	size_t np = cal_mlp_nparams();
	const float *g = cal_mlp_grads(m), *pf = cal_mlp_params(m);
	double *p = malloc(np * sizeof *p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	for (size_t i = 0; i < np; i++)
		p[i] = pf[i];
	double want = ref_loss(p, d.x, d.y, d.n);
	CU_ASSERT(fabs(loss - want) <= 1e-5 * want);
	const size_t nw1 = CAL_MLP_HID * CAL_MLP_IN, nw2 = CAL_MLP_OUT * CAL_MLP_HID;
	const size_t at[5] = {0, nw1, nw1 + CAL_MLP_HID, nw1 + CAL_MLP_HID + nw2, np};
	double big[4] = {0};
	for (int b = 0; b < 4; b++)
		for (size_t i = at[b]; i < at[b + 1]; i++)
			big[b] = fmax(big[b], fabs(g[i]));
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 9);
	/* random weights of every block, plus both biases' first entries */
	size_t pick[24];
	for (int i = 0; i < 20; i++)
		pick[i] = gsl_rng_uniform_int(r, np);
	pick[20] = nw1;                           /* b1[0] */
	pick[21] = np - CAL_MLP_OUT;              /* b2[0] */
	pick[22] = np - CAL_MLP_OUT - 1;          /* W2 last */
	pick[23] = nw1 + CAL_MLP_HID + 5;         /* W2 */
	int checked = 0;
	double worst = 0;
	for (int i = 0; i < 24; i++) {
		size_t k = pick[i];
		int b = 0;
		while (k >= at[b + 1])
			b++;
		double h = 1e-5, keep = p[k];
		p[k] = keep + h;
		double up = ref_loss(p, d.x, d.y, d.n);
		p[k] = keep - h;
		double down = ref_loss(p, d.x, d.y, d.n);
		p[k] = keep;
		double num = (up - down) / (2 * h);
		if (fabs(g[k]) < 1e-7 && fabs(num) < 1e-7)
			continue; /* a dead ReLU's weight: both zero */
		checked++;
		double e = fabs(num - g[k]), bound = 1e-3 * fmax(fabs(num), fabs(g[k])) + 1e-4 * big[b];
		worst = fmax(worst, e / (fmax(fabs(num), fabs(g[k])) + 0.1 * big[b]));
		if (e > bound)
			fprintf(stderr, "\nparam %zu: analytic %g numeric %g\n", k, g[k], num);
		CU_ASSERT(e <= bound);
	}
	if (getenv("HETSIM_TEST_VERBOSE"))
		fprintf(stderr, "\nmlp: loss %.9g ref %.9g, worst gradient error %.3g\n", loss, want,
			worst);
	CU_ASSERT(checked >= 12);
	gsl_rng_free(r);
	free(p);
	cal_mlp_free(m);
	cal_data_free(&d);
}

static void test_mlp_learns(void)
{
	struct cal_data tr, te;
	cal_data_synthetic(&tr, 1000, 21, 0);
	cal_data_synthetic(&te, 500, 21, 1);
	struct cal_mlp *m = cal_mlp_new(4);
	double before = cal_mlp_accuracy(m, te.x, te.y, te.n);
	for (int epoch = 0; epoch < 2; epoch++)
		for (int at = 0; at + 50 <= tr.n; at += 50)
			cal_mlp_step(m, tr.x + (size_t)at * CAL_MLP_IN, tr.y + at, 50, 0.05);
	double after = cal_mlp_accuracy(m, te.x, te.y, te.n);
	CU_ASSERT(before < 0.3);
	CU_ASSERT(after > 0.8); /* the floor: 80 % on held-out synthetic samples */
	if (after <= 0.8)
		fprintf(stderr, "\naccuracy %.3f\n", after);
	cal_mlp_free(m);
	cal_data_free(&tr);
	cal_data_free(&te);
}

/* ---- two clocks: the samples' CPU time and the fit's rule ----------- */

/* The clock rule (fit.h): a thread on its core 99 % of the wall time is
 * fitted on wall time; one at 80 % (the wall times waiting for the core
 * at random, the CPU times exact) on its CPU time, the contention too;
 * a sample without CPU time keeps the wall clock. */
static void test_fit_clock(void)
{
	struct cal_samples s = {0};
	struct fit_line *f;
	char err[256];
	synth(&s, 2e-3, 0.5e-3, 0.0, "cpu");
	for (int i = 0; i < s.n; i++)
		s.v[i].cpu_seconds = 0.99 * s.v[i].seconds;
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &f, err, sizeof err), 1);
	CU_ASSERT_FALSE(f[0].on_cpu);
	CU_ASSERT_DOUBLE_EQUAL(f[0].cpu_share, 0.99, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f[0].slope, 0.5e-3, 1e-12);
	free(f);
	/* 95 % exactly is still wall: below it is CPU */
	for (int i = 0; i < s.n; i++)
		s.v[i].cpu_seconds = 0.95 * s.v[i].seconds;
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &f, err, sizeof err), 1);
	CU_ASSERT_FALSE(f[0].on_cpu);
	free(f);
	const double u[7] = {0.7, 0.75, 0.8, 0.85, 0.9, 0.8, 0.8}; /* CPU / wall, median 0.8 */
	for (int i = 0; i < s.n; i++) {
		s.v[i].cpu_seconds = 0.8 * s.v[i].seconds;
		s.v[i].seconds = s.v[i].cpu_seconds / u[s.v[i].repeat];
	}
	const int ks[] = {2};
	const double f2[] = {1.5};
	int first = s.n;
	synth_contention(&s, ks, f2, 1, 0.0);
	for (int i = first; i < s.n; i++) { /* CPU 1.5 x alone's, wall anything */
		s.v[i].cpu_seconds = 0.8 * s.v[i].seconds;
		s.v[i].seconds *= 1.1 + 0.01 * i;
	}
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &f, err, sizeof err), 1);
	CU_ASSERT_TRUE(f[0].on_cpu);
	CU_ASSERT_DOUBLE_EQUAL(f[0].cpu_share, 0.8, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f[0].intercept, 0.8 * 2e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f[0].slope, 0.8 * 0.5e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f[0].cv, 0, 1e-9);
	CU_ASSERT_EQUAL_FATAL(f[0].nk, 2);
	CU_ASSERT_DOUBLE_EQUAL(f[0].slowdown[1], 1.5, 1e-12);
	free(f);
	s.v[3].cpu_seconds = 0; /* one not measured: wall, share unknown */
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &f, err, sizeof err), 1);
	CU_ASSERT_FALSE(f[0].on_cpu);
	CU_ASSERT_DOUBLE_EQUAL(f[0].cpu_share, 0, 0);
	free(f);
	cal_samples_free(&s);
}

/* The samples CSV carries both clocks (column 10, cpu_seconds) and
 * still reads the files before it (9 columns: 0, not measured). */
static void test_samples_cpu(void)
{
	char path[64], err[512];
	h_write_tmp(path, sizeof path, "");
	struct cal_samples s = {0}, back = {0};
	push(&s, "mnist_step", "cpu", 16, 0, 0.002);
	s.v[0].cpu_seconds = 0.0015;
	CU_ASSERT_EQUAL_FATAL(fit_write_samples(path, &s, NULL, err, sizeof err), 0);
	char *text = h_slurp(path, NULL);
	CU_ASSERT_STRING_EQUAL(text, "kernel,device,size,repeat,seconds,k,round,seq,dropped,"
				     "cpu_seconds\nmnist_step,cpu,16,0,0.002000000,1,0,0,0,"
				     "0.001500000\n");
	free(text);
	CU_ASSERT_EQUAL_FATAL(fit_read_samples(path, &back, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(back.v[0].cpu_seconds, 0.0015, 1e-12);
	cal_samples_free(&back);
	h_write_file(path, "mnist_step,cpu,16,0,0.002,1,0,3,0\n");
	CU_ASSERT_EQUAL_FATAL(fit_read_samples(path, &back, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(back.v[0].cpu_seconds, 0, 0);
	cal_samples_free(&back);
	h_write_file(path, "mnist_step,cpu,16,0,0.002,1,0,3,0,-1\n");
	CU_ASSERT_EQUAL(fit_read_samples(path, &back, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1: bad cpu_seconds '-1' (a number >= 0; 0: not "
					   "measured)"));
	cal_samples_free(&back);
	h_write_file(path, "mnist_step,cpu,16,0,0.002,1,0,3,0,0.001,7\n");
	CU_ASSERT_EQUAL(fit_read_samples(path, &back, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1: expected 5, 6 or 9 fields (kernel,device,size,"
					   "repeat,seconds[,k[,round,seq,dropped]]), or 10 with "
					   "cpu_seconds, got 11"));
	cal_samples_free(&back);
	cal_samples_free(&s);
	remove(path);
}

/* OpenBLAS's fallback: a core without AVX2 on a CPU with it is the
 * fallback (Prescott on the 2026-12-02 Xeon); a wide core, or a CPU
 * without AVX2, is not; names compared without case. */
static void test_blas_fallback(void)
{
	CU_ASSERT_TRUE(cal_blas_generic("Prescott", true));
	CU_ASSERT_TRUE(cal_blas_generic("Core2", true));
	CU_ASSERT_TRUE(cal_blas_generic("Sandybridge", true)); /* AVX, not AVX2 */
	CU_ASSERT_FALSE(cal_blas_generic("Prescott", false));
	CU_ASSERT_FALSE(cal_blas_generic("Haswell", true));
	CU_ASSERT_FALSE(cal_blas_generic("Cooperlake", true));
	CU_ASSERT_FALSE(cal_blas_generic("skylakex", true));
	CU_ASSERT_FALSE(cal_blas_generic("Zen", true));
	CU_ASSERT_FALSE(cal_blas_generic(NULL, true));
}

int test_suite_calibrate(void)
{
	TEST_SUITE("calibrate",
		   {"fit recovers known coefficients", test_fit_recovers},
		   {"contention fit recovers known slowdowns", test_fit_contention},
		   {"poor fits are flagged", test_fit_poor},
		   {"noise: a robust spread, stalls aside", test_fit_noise_robust},
		   {"model file round-trips through scn_load", test_model_roundtrip},
		   {"bad samples CSV names file:line", test_samples_bad},
		   {"word counts match a hand count", test_wordcount},
		   {"Zipf text, table growth and merge", test_wordcount_zipf},
		   {"MLP gradients match finite differences", test_mlp_gradients},
		   {"MLP learns the synthetic set", test_mlp_learns},
		   {"OpenBLAS's fallback kernel on a CPU it does not know", test_blas_fallback},
		   {"the fit's clock: wall time, or CPU time when the core was held",
		    test_fit_clock},
		   {"the samples CSV carries both clocks", test_samples_cpu});
	return 0;
}
