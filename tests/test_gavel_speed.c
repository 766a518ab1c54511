/* test_gavel_speed.c - gavel's program over classes of jobs
 * (policies/gavel_lp.h): its optima are the job program's, and it
 * gives the jobs of a class equal shares.  That gavel's fast paths (a
 * solve skipped while no class count changed, the jobs that want
 * executors visited, first fits through its indexes) decide as its
 * reference does is index_same_as_scan's, in tests/test_policies.c, on
 * tests/scenarios/hand/index-gavel.yaml and index-gavel-queue.yaml;
 * here, the work fill_fast does on the long queue of the latter. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gavel.h"
#include "gavel_lp.h"
#include "harness.h"
#include "test.h"

/* A small deterministic generator (xorshift64*), so that the instances
 * are the same on every machine. */
static uint64_t rnd_state = 88172645463325252u;
static double rnd(void)
{
	rnd_state ^= rnd_state >> 12, rnd_state ^= rnd_state << 25, rnd_state ^= rnd_state >> 27;
	return (double)((rnd_state * 2685821657736338717u) >> 11) / 9007199254740992.0;
}

/* By hand: gavel.yaml's program (two jobs, rates 1.6 and 0.4 on a v100
 * and a k80 of one GPU each) as one class of two: half of each model
 * each, t = 1, rates 2 in all. */
static void gavel_lp_hand(void)
{
	double a[] = {1.6, 0.4}, s[] = {1}, cap[] = {1, 1}, x[2], t, eff;
	int n[] = {2};
	CU_ASSERT_TRUE(gav_lp_solve(1, 2, a, n, s, cap, x, &t, &eff));
	CU_ASSERT_EQUAL(x[0], 0.5);
	CU_ASSERT_EQUAL(x[1], 0.5);
	CU_ASSERT(fabs(t - 1) < 1e-12);
	CU_ASSERT(fabs(eff - 2) < 1e-8);
	/* three jobs of one GPU, equal rates on two models of one GPU:
	 * any split of 2/3 each is optimal for the job program; the class
	 * program gives each 1/3 of each model */
	double a3[] = {1, 1}, x3[2];
	int n3[] = {3};
	CU_ASSERT_TRUE(gav_lp_solve(1, 2, a3, n3, s, cap, x3, &t, &eff));
	CU_ASSERT_EQUAL(x3[0], 0.333333333);
	CU_ASSERT_EQUAL(x3[1], 0.333333333);
	CU_ASSERT(fabs(t - 2.0 / 3) < 1e-12);
	/* a rate of 0: no column, X 0 there */
	double a0[] = {0, 2}, x0[2];
	int n0[] = {1};
	CU_ASSERT_TRUE(gav_lp_solve(1, 2, a0, n0, s, cap, x0, &t, NULL));
	CU_ASSERT_EQUAL(x0[0], 0);
	CU_ASSERT_EQUAL(x0[1], 1);
	CU_ASSERT(fabs(t - 2) < 1e-12);
	/* nothing to solve */
	CU_ASSERT_FALSE(gav_lp_solve(0, 2, a0, n0, s, cap, x0, &t, NULL));
}

/* Random programs, classes of 1 to 4 jobs, rows often equal between
 * classes (the ties a class program settles): solved over the classes
 * and over the jobs (every job a class of its own, as gavel solved it
 * before classes), the two optima t and rates agree, and the class
 * solution, given to every job of its class, is feasible for the job
 * program. */
static void gavel_lp_classes_optimal(void)
{
	for (int it = 0; it < 300; it++) {
		int K = 1 + (int)(rnd() * 3), C = 1 + (int)(rnd() * 5);
		double a[5 * 3], s[5], cap[3];
		int n[5], M = 0;
		for (int k = 0; k < K; k++)
			cap[k] = 1 + (int)(rnd() * 8);
		for (int c = 0; c < C; c++) {
			n[c] = 1 + (int)(rnd() * 4);
			s[c] = 1 + (int)(rnd() * 3);
			M += n[c];
			bool same = c > 0 && rnd() < 0.5; /* the row of the class before */
			for (int k = 0; k < K; k++) {
				double v = rnd() < 0.2 ? 0 : 0.25 * (1 + (int)(rnd() * 8));
				a[c * K + k] = same ? a[(c - 1) * K + k] : v;
			}
			bool any = false;
			for (int k = 0; k < K; k++)
				any |= a[c * K + k] > 0;
			if (!any)
				a[c * K] = 1;
		}
		double aj[20 * 3], sj[20], xc[5 * 3], xj[20 * 3], tc, tj, ec, ej;
		int nj[20], m = 0, cls[20];
		for (int c = 0; c < C; c++)
			for (int i = 0; i < n[c]; i++, m++) {
				memcpy(&aj[m * K], &a[c * K], (size_t)K * sizeof *a);
				sj[m] = s[c], nj[m] = 1, cls[m] = c;
			}
		CU_ASSERT_TRUE_FATAL(gav_lp_solve(C, K, a, n, s, cap, xc, &tc, &ec));
		CU_ASSERT_TRUE_FATAL(gav_lp_solve(M, K, aj, nj, sj, cap, xj, &tj, &ej));
		CU_ASSERT(fabs(tc - tj) <= 1e-7 * fmax(1, tj));
		CU_ASSERT(fabs(ec - ej) <= 1e-6 * fmax(1, ej));
		double used[3] = {0};
		for (int j = 0; j < M; j++) {
			const double *x = &xc[cls[j] * K];
			double rate = 0, time = 0;
			for (int k = 0; k < K; k++) {
				rate += aj[j * K + k] * x[k], time += x[k];
				used[k] += sj[j] * x[k];
				CU_ASSERT(x[k] >= 0 && (x[k] == 0 || aj[j * K + k] > 0));
			}
			CU_ASSERT(rate >= tj * (1 - 1e-9) - 1e-8);
			CU_ASSERT(time <= 1 + 1e-8);
		}
		for (int k = 0; k < K; k++)
			CU_ASSERT(used[k] <= cap[k] + 1e-7);
	}
}

/* On a queue of ~100 GPU jobs and more CPU jobs, fill_fast's walk
 * visits each stream once per launch, plus a pair per launch and each
 * pair of a job that ran (gav_count.bound), not every waiting job at
 * every decision as fill (the reference) does: under a quarter of them
 * (measured: 6 118 visits against 96 887 waiting, 15 460 against 96 660
 * with 20 s rounds). */
static void gavel_fill_visits(void)
{
	static const char *const pol[] = {"gavel", "gavel-round"};
	for (int i = 0; i < 2; i++) {
		struct scn *c;
		gav_count = (struct gav_count){0};
		struct sim *s = h_run("tests/scenarios/hand/index-gavel-queue.yaml", pol[i], 0, &c);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		CU_ASSERT(gav_count.fills > 500);
		CU_ASSERT(gav_count.waiting > 20 * gav_count.fills); /* a long queue */
		CU_ASSERT(gav_count.visits <= gav_count.bound);
		CU_ASSERT(4 * gav_count.visits < gav_count.waiting); /* 15x, 6x measured */
		h_done(s, c);
	}
}

int test_suite_gavel_speed(void)
{
	TEST_SUITE("gavel_speed",
		   {"gavel's class program by hand: equal shares within a class", gavel_lp_hand},
		   {"gavel's class program: the job program's optima, feasible for every job",
		    gavel_lp_classes_optimal},
		   {"gavel's fast fill: visits per walk bounded by streams and launches, "
		    "not the queue",
		    gavel_fill_visits});
	return 0;
}
