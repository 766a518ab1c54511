/* test_yarn.c - stock YARN as configured (issue 15, item 3): the
 * maximum allocation of vcores, AM activation past a large AM, and the
 * allocation latency of heartbeats and the AM's polling.  Expected
 * values are hand-computed in each scenario's comment
 * (tests/scenarios/yarn/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "load.h"
#include "scenario.h"
#include "sim.h"
#include "test.h"

#define YARN_DIR "tests/scenarios/yarn/"

/* Job j ended with status st at end_us, for reason `why`. */
static void expect_end(const struct sim *s, const struct sim_job *j, enum sim_job_status st,
		       int64_t end_us, const char *why)
{
	char b[128];
	CU_ASSERT_EQUAL(j->status, st);
	CU_ASSERT_EQUAL(j->end_us, end_us);
	CU_ASSERT_STRING_EQUAL(sim_why_name(sim_scenario(s), sim_job_why(s, j->id), b, sizeof b),
			       why);
}

/* Loading a scenario with one yarn entry carrying switch `sw` fails at
 * the switch's value with `msg`. */
static void expect_switch_error(const char *sw, const char *msg)
{
	const char *path = "/tmp/hetsim-bad-yarn.yaml";
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "cluster: [{name: n, cores: 1, memory: 1GiB}]\n"
		   "policies: [{name: y, policy: yarn, %s}]\n"
		   "workload: [{name: j, type: synthetic, stages: [{name: s, tasks: 1, "
		   "duration: 1s}]}]\n", sw);
	fclose(f);
	char err[512], want[600];
	struct scn *sc = scn_load(path, err, sizeof err);
	snprintf(want, sizeof want, "%s%s", path, msg);
	CU_ASSERT_PTR_NULL(sc);
	CU_ASSERT_STRING_EQUAL(err, want);
	if (sc || strcmp(err, want) != 0)
		fprintf(stderr, "\n  %s: %s\n", msg, sc ? "loaded" : err);
	scn_free(sc);
	remove(path);
}

/* A 5-vcore executor over maximum-allocation-vcores 4 fails its
 * application at submission under either calculator (max-vcores.yaml). */
static void max_vcores(void)
{
	static const char *const pols[] = {"mem", "drc"};
	for (int p = 0; p < 2; p++) {
		struct scn *c;
		struct sim *s = h_run(YARN_DIR "max-vcores.yaml", pols[p], 0, &c);
		expect_end(s, h_job(s, "four", 0), JOB_DONE, S(10), "");
		expect_end(s, h_job(s, "five", 0), JOB_FAILED, S(3), "max-allocation-vcores");
		CU_ASSERT_EQUAL(h_job(s, "five", 0)->start_us, -1);
		CU_ASSERT_EQUAL(h_makespan(s), S(10));
		h_done(s, c);
	}
	struct scn *c;
	struct sim *s = h_run(YARN_DIR "max-vcores.yaml", "vmax", 0, &c);
	expect_end(s, h_job(s, "five", 0), JOB_DONE, S(13), "");
	h_done(s, c);
}

/* An application whose AMs would pass the AM limit is skipped, the next
 * one let in (am-skip.yaml). */
static void am_skip(void)
{
	struct scn *c;
	struct sim *s = h_run(YARN_DIR "am-skip.yaml", "yarn", 0, &c);
	expect_end(s, h_job(s, "a", 0), JOB_DONE, S(10), "");
	CU_ASSERT_EQUAL(h_job(s, "b", 0)->start_us, S(2));
	expect_end(s, h_job(s, "b", 0), JOB_DONE, S(7), "");
	const struct sim_job *g = h_job(s, "g", 0);
	CU_ASSERT_EQUAL(g->status, JOB_DONE);
	int ams = 0;
	for (int i = 0; i < h_nexecs(); i++)
		if (h_exec(i)->job == g->id && h_exec(i)->role == SIM_ROLE_AM) {
			CU_ASSERT_EQUAL(h_exec(i)->launch_us, S(10));
			ams++;
		}
	CU_ASSERT_EQUAL(ams, 2);
	h_done(s, c);
}

/* Bad values of the new switches name their file, line and column. */
static void bad_switches(void)
{
	expect_switch_error("max_allocation_vcores: 0", ":2:59: expected [1, 1048576] vcores for "
			    "switch 'max_allocation_vcores' of policy yarn, got '0'");
}

int test_suite_yarn(void)
{
	TEST_SUITE("yarn",
		   {"a 5-vcore executor fails at submission, either calculator", max_vcores},
		   {"AM activation skips an AM over the limit, lets the next in", am_skip},
		   {"bad yarn switch values: file:line:col", bad_switches});
	return 0;
}
