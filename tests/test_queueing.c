/* test_queueing.c - the engine against queueing theory
 * (../shared/reference/queueing.md), through scenario files: 4
 * replications x 100 000 jobs each, 10 % warm-up left out.  Mean response
 * time within 3 % of the exact value (the reference measured <= 1.5 %
 * per seed at these loads with 3e5 jobs); utilisation within 2 % of rho. */
#include <math.h>
#include <stdio.h>

#include "harness.h"
#include "metrics.h"
#include "scenario.h"
#include "sim.h"
#include "test.h"

static void check(const char *file, double want_w, double rho)
{
	char path[256];
	snprintf(path, sizeof path, "tests/scenarios/queueing/%s", file);
	struct scn *scn = h_load(path);
	double w = 0, util = 0;
	int counted = 0;
	for (int r = 0; r < scn->replications; r++) {
		char err[256];
		struct sim *s = sim_new(scn, &scn->policies[0], (uint32_t)r, err, sizeof err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		sim_run(s);
		struct met_run m;
		met_compute(s, &m);
		CU_ASSERT_EQUAL(m.done, m.counted);
		w += m.jct_mean_s * m.counted;
		counted += m.counted;
		util += m.cpu_util;
		sim_free(s);
	}
	w /= counted;
	util /= scn->replications;
	double err = fabs(w - want_w) / want_w;
	if (err >= 0.03)
		fprintf(stderr, "\n%s: mean response %.4f, exact %.4f (%.2f %%)\n", file, w, want_w,
			100 * err);
	CU_ASSERT(counted >= 300000);
	CU_ASSERT(err < 0.03);
	/* busy core-time / (cores x span) estimates rho */
	if (fabs(util - rho) / rho >= 0.02)
		fprintf(stderr, "\n%s: utilisation %.4f, rho %.2f\n", file, util, rho);
	CU_ASSERT(fabs(util - rho) / rho < 0.02);
	scn_free(scn);
}

/* Exact values: data/queueing_reference.csv (mu = 1). */
static void mm1_05(void) { check("mm1-05.yaml", 2.0, 0.5); }
static void mm1_08(void) { check("mm1-08.yaml", 5.0, 0.8); }
static void mm4_08(void) { check("mm4-08.yaml", 1.7455405897, 0.8); }
static void md1_08(void) { check("md1-08.yaml", 3.0, 0.8); }
/* M/G/1-PS: E[T] = E[S] / (1 - rho) = 1 / 0.2, for any service law */
static void ps_08(void) { check("ps-08.yaml", 5.0, 0.8); }

int test_suite_queueing(void)
{
	TEST_SUITE("queueing",
		   {"M/M/1, rho 0.5, fifo: W = 2", mm1_05},
		   {"M/M/1, rho 0.8, fifo: W = 5", mm1_08},
		   {"M/M/4, rho 0.8, fifo: W = 1.7455", mm4_08},
		   {"M/D/1, rho 0.8, fifo: W = 3", md1_08},
		   {"M/G/1-PS, rho 0.8, uniform service: W = 5", ps_08});
	return 0;
}
