/* test_timing.c - timing that survives a noisy machine (calibrate/
 * robust.c, timing.c, fit.c): the keyed random order, the adaptive
 * repeats and their cap, the stall rule, the drift summary and the
 * contention slowdown paired in time.  No real timing: a fake kernel
 * advances a fake clock (cal_clock_hook) by planted durations. */
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

/* ---- a fake kernel on a fake clock ---------------------------------- */

#define NSIZES 5
static double clock_now;      /* the fake clock, s */
static int calls[NSIZES];     /* runs of each size so far (warm-up included) */
static int log_size[4096];    /* the size index of every run, in order */
static int nlog;
/* The planted duration of the n-th run (0-based, warm-up included) of
 * size index i. */
static double (*duration)(int i, int n);

static double fake_now(void)
{
	return clock_now;
}

struct fake_state {
	int i;
};

static void *fake_setup(struct cal_ctx *c, double size, char *err, size_t errlen)
{
	(void)c;
	(void)err;
	(void)errlen;
	struct fake_state *s = malloc(sizeof *s);
	s->i = (int)size - 1;
	return s;
}

static void fake_run(void *state)
{
	struct fake_state *s = state;
	clock_now += duration(s->i, calls[s->i]++);
	if (nlog < (int)(sizeof log_size / sizeof log_size[0]))
		log_size[nlog++] = s->i;
}

static const struct cal_kernel fake_kernel = {
	.name = "fake", .unit = "units",
	.sizes = {1, 2, 3, 4, 5}, .nsizes = NSIZES,
	.quick = {1, 2, 3, 4, 5}, .nquick = NSIZES,
	.repeats = 7, .quick_repeats = 7,
	.setup = fake_setup, .run = fake_run, .teardown = free,
};
static const struct cal_backend fake_backend = {
	.name = "fake", .device = "cpu", .kernels = &fake_kernel, .nkernels = 1,
};

/* Time the fake kernel under seed with the default CI target and cap
 * 25; the samples into s, what it took into tm. */
static void time_fake(uint64_t seed, struct cal_samples *s, struct cal_timing *tm)
{
	char err[256];
	clock_now = 0;
	nlog = 0;
	memset(calls, 0, sizeof calls);
	*tm = (struct cal_timing){.seed = seed, .ci_target = CAL_CI_TARGET, .cap = CAL_CAP};
	cal_clock_hook = fake_now;
	CU_ASSERT_EQUAL(cal_time_kernel(&fake_backend, &fake_kernel, NULL, false, 1, tm, s, NULL,
					err, sizeof err), 0);
	cal_clock_hook = NULL;
}

/* 0.3 s x (size index + 1), exactly: a quiet machine. */
static double quiet(int i, int n)
{
	(void)n;
	return 0.3 * (i + 1);
}

/* ---- order ----------------------------------------------------------- */

static void test_order(void)
{
	/* cal_shuffle: a permutation, the same for the same key */
	int a[50], b[50];
	uint64_t ka = cal_order_key(7, "wordcount_map"), kb = ka;
	for (int i = 0; i < 50; i++)
		a[i] = b[i] = i;
	cal_shuffle(&ka, a, 50);
	cal_shuffle(&kb, b, 50);
	CU_ASSERT_EQUAL(memcmp(a, b, sizeof a), 0);
	int seen[50] = {0}, moved = 0;
	for (int i = 0; i < 50; i++) {
		seen[a[i]]++;
		moved += a[i] != i;
	}
	for (int i = 0; i < 50; i++)
		CU_ASSERT_EQUAL(seen[i], 1);
	CU_ASSERT(moved > 40);
	/* keyed: another kernel's name or another seed, another order */
	CU_ASSERT(cal_order_key(7, "wordcount_map") != cal_order_key(7, "wordcount_reduce"));
	CU_ASSERT(cal_order_key(7, "wordcount_map") != cal_order_key(8, "wordcount_map"));

	/* the harness: after the warm-up (one run per size, in size order),
	 * each round is a permutation of the sizes; same seed, same order */
	struct cal_samples s = {0};
	struct cal_timing tm;
	int first[4096], nfirst;
	duration = quiet;
	time_fake(42, &s, &tm);
	CU_ASSERT_EQUAL(nlog, NSIZES + NSIZES * 7); /* quiet: 7 repeats each (the minimum) */
	for (int i = 0; i < NSIZES; i++)
		CU_ASSERT_EQUAL(log_size[i], i);
	for (int r = 0; r < 7; r++) {
		int in[NSIZES] = {0};
		for (int j = 0; j < NSIZES; j++)
			in[log_size[NSIZES + r * NSIZES + j]]++;
		for (int j = 0; j < NSIZES; j++)
			CU_ASSERT_EQUAL(in[j], 1);
	}
	nfirst = nlog;
	memcpy(first, log_size, sizeof first);
	/* the samples carry their place in the order (seq 1..35) */
	CU_ASSERT_EQUAL_FATAL(s.n, NSIZES * 7);
	bool got[36] = {false};
	for (int i = 0; i < s.n; i++) {
		CU_ASSERT(s.v[i].seq >= 1 && s.v[i].seq <= 35);
		got[s.v[i].seq] = true;
		CU_ASSERT_EQUAL(log_size[NSIZES + s.v[i].seq - 1], (int)s.v[i].size - 1);
	}
	for (int i = 1; i <= 35; i++)
		CU_ASSERT_TRUE(got[i]);
	cal_samples_free(&s);
	time_fake(42, &s, &tm);
	CU_ASSERT_EQUAL(nlog, nfirst);
	CU_ASSERT_EQUAL(memcmp(first, log_size, (size_t)nlog * sizeof *log_size), 0);
	cal_samples_free(&s);
	time_fake(43, &s, &tm);
	CU_ASSERT_NOT_EQUAL(memcmp(first, log_size, (size_t)nlog * sizeof *log_size), 0);
	cal_samples_free(&s);
}

/* ---- adaptive repeats ------------------------------------------------ */

static gsl_rng *noise_rng;
static double noise_sd;
/* 0.3 s x (i + 1) x exp(N(0, noise_sd)) */
static double noisy(int i, int n)
{
	(void)n;
	return 0.3 * (i + 1) * exp(gsl_ran_gaussian(noise_rng, noise_sd));
}

/* The samples of size index i in time order into t (their count). */
static int size_times(const struct cal_samples *s, int i, double *t, bool *drop)
{
	int m = 0;
	for (long q = 1; q <= 4096; q++)
		for (int j = 0; j < s->n; j++)
			if (s->v[j].seq == q && (int)s->v[j].size == i + 1) {
				drop[m] = s->v[j].dropped;
				t[m++] = s->v[j].seconds;
			}
	return m;
}

static void test_adaptive(void)
{
	double t[64], med;
	bool drop[64];
	/* the order-statistic CI: below 6 values none; 7 values [min, max];
	 * 25 values [x_(8), x_(18)] (P(B <= 7) = 0.0216 for Binomial(25, 1/2)) */
	for (int i = 0; i < 25; i++)
		t[i] = 1.0 + 0.01 * i;
	CU_ASSERT(isinf(cal_median_ci(t, NULL, 5, &med)));
	CU_ASSERT_DOUBLE_EQUAL(cal_median_ci(t, NULL, 7, &med), 0.03 / 1.03, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(med, 1.03, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cal_median_ci(t, NULL, 25, &med), (1.17 - 1.07) / 2 / 1.12, 1e-12);

	struct cal_samples s = {0};
	struct cal_timing tm;
	noise_rng = gsl_rng_alloc(gsl_rng_mt19937);
	duration = noisy;
	/* 0.3 % noise: the CI is within 2 % at the minimum, 7 repeats */
	gsl_rng_set(noise_rng, 1);
	noise_sd = 0.003;
	time_fake(1, &s, &tm);
	CU_ASSERT_EQUAL(s.n, NSIZES * 7);
	CU_ASSERT_EQUAL(tm.sizes, NSIZES);
	CU_ASSERT_EQUAL(tm.capped, 0);
	CU_ASSERT_EQUAL(tm.repeats, NSIZES * 7);
	cal_samples_free(&s);
	/* 1.5 % noise: more than 7 repeats in all (sizes need 7 to 15), fewer
	 * than the cap, and each size
	 * stops at the first repeat whose CI is within 2 % */
	gsl_rng_set(noise_rng, 2);
	noise_sd = 0.015;
	time_fake(1, &s, &tm);
	CU_ASSERT_EQUAL(tm.capped, 0);
	CU_ASSERT(tm.repeats > NSIZES * 7 && tm.repeats < NSIZES * CAL_CAP);
	for (int i = 0; i < NSIZES; i++) {
		int n = size_times(&s, i, t, drop);
		CU_ASSERT(n >= 7 && n < CAL_CAP);
		CU_ASSERT_EQUAL(cal_enough(t, drop, n, 7, CAL_CI_TARGET, CAL_CAP), 1);
		bool d[64];
		cal_stalls(t, n - 1, d);
		CU_ASSERT_EQUAL(cal_enough(t, d, n - 1, 7, CAL_CI_TARGET, CAL_CAP), 0);
	}
	cal_samples_free(&s);
	/* 20 % noise: every size stops at the cap, 25, the CI still wide */
	gsl_rng_set(noise_rng, 3);
	noise_sd = 0.2;
	time_fake(1, &s, &tm);
	CU_ASSERT_EQUAL(s.n, NSIZES * CAL_CAP);
	CU_ASSERT_EQUAL(tm.capped, NSIZES);
	for (int i = 0; i < NSIZES; i++) {
		int n = size_times(&s, i, t, drop);
		CU_ASSERT_EQUAL(n, CAL_CAP);
		CU_ASSERT_EQUAL(cal_enough(t, drop, n, 7, CAL_CI_TARGET, CAL_CAP), 2);
	}
	cal_samples_free(&s);
	gsl_rng_free(noise_rng);
}

/* ---- stalls ---------------------------------------------------------- */

/* quiet(), but the 4th timed run of size index 2 (its 5th run: one
 * warm-up) stalls 3x. */
static double one_stall(int i, int n)
{
	return quiet(i, n) * (i == 2 && n == 4 ? 3 : 1) * (1 + 0.001 * (n % 3));
}

static void test_stalls(void)
{
	double t[25];
	bool drop[25];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 17);
	for (int i = 0; i < 25; i++)
		t[i] = 0.1 * exp(gsl_ran_gaussian(r, 0.02));
	gsl_rng_free(r);
	/* normal samples (2 % lognormal): none dropped */
	CU_ASSERT_EQUAL(cal_stalls(t, 25, drop), 0);
	/* a planted stall (+60 %): that one dropped, no other */
	t[11] *= 1.6;
	CU_ASSERT_EQUAL(cal_stalls(t, 25, drop), 1);
	for (int i = 0; i < 25; i++)
		CU_ASSERT_EQUAL(drop[i], i == 11);
	/* a fast outlier is no stall: a machine does not run faster than it can */
	t[11] /= 1.6 * 1.6;
	CU_ASSERT_EQUAL(cal_stalls(t, 25, drop), 0);
	/* at most 20 % dropped, the slowest first: 10 values, 4 stalls, 2 dropped */
	double u[10] = {1, 1.01, 0.99, 1, 1.02, 2, 3, 2.5, 1.9, 1};
	bool d[10];
	CU_ASSERT_EQUAL(cal_stalls(u, 10, d), 2);
	CU_ASSERT_TRUE(d[6] && d[7]);
	CU_ASSERT_FALSE(d[5] || d[8]);
	/* below 5 values, none */
	CU_ASSERT_EQUAL(cal_stalls(u + 4, 4, d), 0);

	/* through the harness: the stalled repeat is flagged in the samples,
	 * kept there, counted, and left out of the fit */
	struct cal_samples s = {0};
	struct cal_timing tm;
	duration = one_stall;
	time_fake(5, &s, &tm);
	CU_ASSERT_EQUAL(tm.stalls, 1);
	int flagged = 0;
	for (int i = 0; i < s.n; i++)
		if (s.v[i].dropped) {
			flagged++;
			CU_ASSERT_EQUAL(s.v[i].size, 3);
			CU_ASSERT_DOUBLE_EQUAL(s.v[i].seconds, 0.9 * 3 * 1.001, 1e-9);
		}
	CU_ASSERT_EQUAL(flagged, 1);
	struct fit_line *f;
	char err[256];
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &f, err, sizeof err), 1);
	CU_ASSERT_EQUAL(f[0].samples, s.n - 1);
	CU_ASSERT(f[0].cv < 0.002);
	CU_ASSERT_DOUBLE_EQUAL(f[0].slope, 0.3, 0.001);
	free(f);
	/* the flag survives the samples CSV */
	char path[64];
	h_write_tmp(path, sizeof path, "");
	struct cal_samples back = {0};
	CU_ASSERT_EQUAL(fit_write_samples(path, &s, "order seed 5", err, sizeof err), 0);
	char *text = h_slurp(path, NULL);
	CU_ASSERT_EQUAL(strncmp(text, "# order seed 5\nkernel,device,size,repeat,seconds,k,round,"
				"seq,dropped\n", 61), 0);
	free(text);
	CU_ASSERT_EQUAL_FATAL(fit_read_samples(path, &back, err, sizeof err), 0);
	CU_ASSERT_EQUAL_FATAL(back.n, s.n);
	for (int i = 0; i < s.n; i++) {
		CU_ASSERT_EQUAL(back.v[i].dropped, s.v[i].dropped);
		CU_ASSERT_EQUAL(back.v[i].seq, s.v[i].seq);
		CU_ASSERT_EQUAL(back.v[i].round, s.v[i].round);
	}
	cal_samples_free(&back);
	h_write_file(path, "fake,cpu,1,0,0.3,1,0,1,2\n");
	CU_ASSERT_EQUAL(fit_read_samples(path, &back, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1: bad dropped '2' (0 or 1)"));
	cal_samples_free(&back);
	h_write_file(path, "fake,cpu,1,0,0.3,1,x\n");
	CU_ASSERT_EQUAL(fit_read_samples(path, &back, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1: expected 5, 6 or 9 fields"));
	cal_samples_free(&back);
	remove(path);
	cal_samples_free(&s);
}

/* ---- drift ----------------------------------------------------------- */

static void test_drift(void)
{
	const double speed[] = {210, 200, 190, 205, 180, 199.5, 189};
	struct cal_drift d;
	cal_drift_sum(speed, 7, &d);
	CU_ASSERT_EQUAL(d.n, 7);
	CU_ASSERT_DOUBLE_EQUAL(d.first, 210, 0);
	CU_ASSERT_DOUBLE_EQUAL(d.last, 189, 0);
	CU_ASSERT_DOUBLE_EQUAL(d.min, 180, 0);
	CU_ASSERT_DOUBLE_EQUAL(d.max, 210, 0);
	CU_ASSERT_DOUBLE_EQUAL(d.median, 199.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(speed[1], 200, 0); /* not sorted in place */
	CU_ASSERT_DOUBLE_EQUAL(d.change, -0.1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(d.range, 210.0 / 180 - 1, 1e-12);
	cal_drift_sum(speed, 1, &d);
	CU_ASSERT_DOUBLE_EQUAL(d.change, 0, 0);

	/* meta.drift and meta.timing: written, parsed back */
	char dir[] = "/tmp/hetsim-drift-XXXXXX", model[256], err[1024];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(model, sizeof model, "%s/m.yaml", dir);
	struct cal_samples s = {0};
	struct cal_timing tm;
	duration = quiet;
	time_fake(9, &s, &tm);
	struct fit_line *f;
	int n = fit_all(&s, &f, err, sizeof err);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	struct fit_meta meta = {.source = "test", .ref_kernel = CAL_REF_KERNEL, .ref_speed = 210,
				.timing = &tm, .drift = speed, .ndrift = 7};
	CU_ASSERT_EQUAL_FATAL(fit_write_model(model, f, n, &meta, err, sizeof err), 0);
	char *text = h_slurp(model, NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  timing: {seed: 9, ci: 0.020, cap: 25, sizes: 5, "
					    "capped: 0, repeats: 35, stalls: 0}\n"
					    "  drift: {kernel: wordcount-zipf-16MiB, points: 7, "
					    "first: 210.00, last: 189.00, min: 180.00, max: 210.00, "
					    "change: -10.00, speeds: [210.00, 200.00, 190.00, 205.00, "
					    "180.00, 199.50, 189.00]}\n"));
	free(text);
	struct scn *sc = scn_cost_load(model, err, sizeof err);
	if (!sc)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	const struct scn_cost_meta *m = &sc->cost.meta;
	CU_ASSERT_TRUE(m->has_timing);
	CU_ASSERT_EQUAL(m->seed, 9);
	CU_ASSERT_EQUAL(m->cap, 25);
	CU_ASSERT_DOUBLE_EQUAL(m->ci, 0.02, 1e-12);
	CU_ASSERT_EQUAL(m->drift_points, 7);
	CU_ASSERT_DOUBLE_EQUAL(m->drift_first, 210, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->drift_last, 189, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->drift_min, 180, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->drift_max, 210, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->drift_change, -10, 1e-9);
	scn_free(sc);
	free(f);
	cal_samples_free(&s);
	h_rmtree(dir);
}

/* ---- contention, paired in time -------------------------------------- */

/* mnist_step on cpu: the sweep (sizes 16..256, 25 samples each, at the
 * machine's speed 1, 0.034 s at 64), then `rounds` contention rounds at
 * size 64 where the machine runs `slow` x slower, drifting by `drift`
 * per round more, each round k = 1 once and k = 2 twice at a planted
 * slowdown 1.5; lognormal noise cv.  With paired: the rounds carry
 * their numbers; without: round 0, as files before the column. */
static void synth_drift(struct cal_samples *s, double slow, double drift, int rounds, double cv,
			bool paired)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 23);
	for (double size = 16; size <= 256; size *= 2)
		for (int rep = 0; rep < 25; rep++) {
			struct cal_sample x = {.size = size, .repeat = rep, .k = 1,
					       .seconds = 0.034 * size / 64 *
							  exp(gsl_ran_gaussian(r, cv))};
			snprintf(x.kernel, sizeof x.kernel, "mnist_step");
			snprintf(x.device, sizeof x.device, "cpu");
			cal_samples_push(s, &x);
		}
	for (int rep = 0; rep < rounds; rep++) {
		double speed = slow * (1 + drift * rep);
		for (int k = 1; k <= 2; k++)
			for (int c = 0; c < k; c++) {
				struct cal_sample x = {.size = 64, .repeat = rep, .k = k,
						       .round = paired ? rep + 1 : 0,
						       .seconds = 0.034 * speed * (k == 2 ? 1.5 : 1) *
								  exp(gsl_ran_gaussian(r, cv))};
				snprintf(x.kernel, sizeof x.kernel, "mnist_step");
				snprintf(x.device, sizeof x.device, "cpu");
				cal_samples_push(s, &x);
			}
	}
	gsl_rng_free(r);
}

static void test_paired_contention(void)
{
	struct cal_samples s = {0};
	struct fit_line *l;
	char err[256];
	/* the machine 30 % slower in the rounds than in the sweep: the
	 * paired reference recovers 1.5 exactly; the old mixed one (the
	 * sweep's 25 samples at 64 and the 9 rounds') reads 1.95 */
	synth_drift(&s, 1.3, 0, 9, 0, true);
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &l, err, sizeof err), 1);
	CU_ASSERT_EQUAL_FATAL(l[0].nk, 2);
	CU_ASSERT_DOUBLE_EQUAL(l[0].slowdown[1], 1.5, 1e-12);
	CU_ASSERT_EQUAL(l[0].ksamples[0], 9);  /* the rounds' k = 1 only */
	CU_ASSERT_EQUAL(l[0].ksamples[1], 9);  /* one per round: its 2 copies' mean */
	CU_ASSERT_EQUAL(l[0].samples, 125);    /* the line: the sweep only */
	CU_ASSERT_DOUBLE_EQUAL(l[0].slope, 0.034 / 64, 1e-12);
	free(l);
	cal_samples_free(&s);
	synth_drift(&s, 1.3, 0, 9, 0, false);
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &l, err, sizeof err), 1);
	CU_ASSERT_DOUBLE_EQUAL(l[0].slowdown[1], 1.95, 1e-12);
	free(l);
	cal_samples_free(&s);
	/* and drifting by 4 % a round on top, with 3 % noise: within 3 % */
	synth_drift(&s, 1.3, 0.04, 15, 0.03, true);
	CU_ASSERT_EQUAL_FATAL(fit_all(&s, &l, err, sizeof err), 1);
	CU_ASSERT_DOUBLE_EQUAL(l[0].slowdown[1], 1.5, 0.045);
	free(l);
	cal_samples_free(&s);
	/* a dropped k = 1 run pairs nothing; none left: a message */
	synth_drift(&s, 1.3, 0, 1, 0, true);
	for (int i = 0; i < s.n; i++)
		if (s.v[i].round == 1 && s.v[i].k == 1)
			s.v[i].dropped = true;
	CU_ASSERT_EQUAL(fit_all(&s, &l, err, sizeof err), -1);
	CU_ASSERT_STRING_EQUAL(err, "mnist_step on cpu: no k = 1 run left in the contention "
				    "rounds (all dropped), the reference of the slowdown");
	cal_samples_free(&s);
}

static double one_second(int i, int n)
{
	(void)i, (void)n;
	return 1.0;
}

/* The contention harness itself (forked copies, pipes, rounds) on the
 * fake clock: each copy's clock is its own after the fork, and every run
 * takes 1 s, so the slowdown is exactly 1 at every k.  Every sample
 * carries its round; a round has one k = 1 run and k runs at k; the fit
 * counts one value per round, and meta.timing's repeats every run. */
static void test_contention_rounds(void)
{
	char err[256];
	struct cal_samples s = {0};
	const int ks[] = {1, 2};
	clock_now = 0;
	nlog = 0;
	memset(calls, 0, sizeof calls);
	duration = one_second;
	cal_clock_hook = fake_now;
	struct cal_timing tm = {.seed = 1, .ci_target = CAL_CI_TARGET, .cap = CAL_CAP};
	CU_ASSERT_EQUAL_FATAL(cal_time_contention(&fake_backend, &fake_kernel, NULL, false, 1, ks,
						  2, &tm, &s, NULL, err, sizeof err), 0);
	cal_clock_hook = NULL;
	int rounds = 0, at1[64] = {0}, at2[64] = {0};
	for (int i = 0; i < s.n; i++) {
		CU_ASSERT(s.v[i].round >= 1 && s.v[i].round < 64);
		if (s.v[i].round < 1 || s.v[i].round >= 64)
			continue;
		if (s.v[i].round > rounds)
			rounds = s.v[i].round;
		CU_ASSERT_DOUBLE_EQUAL(s.v[i].seconds, 1.0, 0);
		(s.v[i].k == 1 ? at1 : at2)[s.v[i].round]++;
	}
	CU_ASSERT(rounds >= fake_kernel.repeats);
	for (int r = 1; r <= rounds; r++)
		CU_ASSERT(at1[r] == 1 && at2[r] == 2);
	CU_ASSERT_EQUAL(tm.repeats, rounds * 3);
	struct fit_line f = {0};
	snprintf(f.kernel, sizeof f.kernel, "fake");
	snprintf(f.device, sizeof f.device, "cpu");
	CU_ASSERT_EQUAL_FATAL(fit_contention(&s, &f, err, sizeof err), 0);
	CU_ASSERT_EQUAL(f.nk, 2);
	CU_ASSERT_DOUBLE_EQUAL(f.slowdown[1], 1.0, 0);
	CU_ASSERT_EQUAL(f.ksamples[1], rounds);
	cal_samples_free(&s);
}

int test_suite_timing(void)
{
	TEST_SUITE("timing",
		   {"random order: a permutation per round, same seed same order", test_order},
		   {"adaptive repeats stop at the CI target, or at the cap", test_adaptive},
		   {"stalls: a planted one dropped and flagged, normal ones kept", test_stalls},
		   {"drift figures from a planted reference sequence, in meta", test_drift},
		   {"contention slowdown paired in time survives drift", test_paired_contention},
		   {"the contention rounds: forked copies on the fake clock", test_contention_rounds});
	return 0;
}
