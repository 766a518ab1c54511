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
#include "rng.h"
#include "scenario.h"
#include "sim.h"
#include "test.h"

#define YARN_DIR "tests/scenarios/yarn/"


/* Loading a scenario with one yarn entry carrying switch `sw` fails at
 * the switch's value with `msg`. */
static void expect_switch_error(const char *sw, const char *msg)
{
	char yaml[512];
	snprintf(yaml, sizeof yaml,
		 "cluster: [{name: n, cores: 1, memory: 1GiB}]\n"
		 "policies: [{name: y, policy: yarn, %s}]\n"
		 "workload: [{name: j, type: synthetic, stages: [{name: s, tasks: 1, "
		 "duration: 1s}]}]\n", sw);
	h_expect_load_error(yaml, msg);
}

/* A 5-vcore executor over maximum-allocation-vcores 4 fails its
 * application at submission under either calculator (max-vcores.yaml). */
static void max_vcores(void)
{
	static const char *const pols[] = {"mem", "drc"};
	for (int p = 0; p < 2; p++) {
		struct scn *c;
		struct sim *s = h_run(YARN_DIR "max-vcores.yaml", pols[p], 0, &c);
		h_expect_end(s, h_job(s, "four", 0), JOB_DONE, S(10), "");
		h_expect_end(s, h_job(s, "five", 0), JOB_FAILED, S(3), "max-allocation-vcores");
		CU_ASSERT_EQUAL(h_job(s, "five", 0)->start_us, -1);
		CU_ASSERT_EQUAL(h_makespan(s), S(10));
		h_done(s, c);
	}
	struct scn *c;
	struct sim *s = h_run(YARN_DIR "max-vcores.yaml", "vmax", 0, &c);
	h_expect_end(s, h_job(s, "five", 0), JOB_DONE, S(13), "");
	h_done(s, c);
}

/* An application whose AMs would pass the AM limit is skipped, the next
 * one let in (am-skip.yaml). */
static void am_skip(void)
{
	struct scn *c;
	struct sim *s = h_run(YARN_DIR "am-skip.yaml", "yarn", 0, &c);
	h_expect_end(s, h_job(s, "a", 0), JOB_DONE, S(10), "");
	CU_ASSERT_EQUAL(h_job(s, "b", 0)->start_us, S(2));
	h_expect_end(s, h_job(s, "b", 0), JOB_DONE, S(7), "");
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

/* Executor `i` of the last run launched at `launch` s on node `node`. */
static void expect_exec(int i, double launch, const char *node, const struct scn *c,
			const struct sim *s)
{
	const struct sim_exec *x = h_exec(i);
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_EQUAL(x->launch_us, S(launch));
	CU_ASSERT_STRING_EQUAL(sim_cluster(s)->nodes[x->node].name, node);
	(void)c;
}

/* NodeManager heartbeats at phase 0, one container per node per
 * heartbeat, the AM polling 200 ms, 400, 800, 1600 ms, and the
 * min-registered gate (heartbeat.yaml, hand-computed there). */
static void heartbeats(void)
{
	struct scn *c;
	struct sim *s = h_run(YARN_DIR "heartbeat.yaml", "zero", 0, &c);
	CU_ASSERT_EQUAL(h_nexecs(), 4);
	CU_ASSERT_EQUAL(h_exec(0)->role, SIM_ROLE_AM);
	expect_exec(0, 1.0, "n-0", c, s);
	expect_exec(1, 2.1, "n-0", c, s);
	expect_exec(2, 2.1, "n-1", c, s);
	expect_exec(3, 4.5, "n-0", c, s);
	CU_ASSERT_EQUAL(sim_job(s, 0)->start_us, S(5));
	h_expect_end(s, sim_job(s, 0), JOB_DONE, S(15), "");
	h_done(s, c);
	s = h_run(YARN_DIR "heartbeat.yaml", "off2", 0, &c);
	expect_exec(1, 2.1, "n-0", c, s);
	expect_exec(2, 2.1, "n-0", c, s); /* two on n-0's heartbeat at 2 */
	expect_exec(3, 2.1, "n-1", c, s);
	CU_ASSERT_EQUAL(sim_job(s, 0)->start_us, S(2.6));
	h_expect_end(s, sim_job(s, 0), JOB_DONE, S(12.6), "");
	h_done(s, c);
}

/* Out-of-band heartbeats (oob.yaml, hand-computed there): a container
 * ending at 0.3 s makes its node beat at 0.3, then 1.3, 2.3 s; with the
 * switch off the node keeps its beats at 1.0, 2.0, 3.0 s; the AM takes
 * what the beats assign at its own polls. */
static void oob_heartbeats(void)
{
	static const struct {
		const char *pol;
		double am, x1, x2, end;
	} want[] = {
		{"oob", 0.3, 1.3, 2.3, 3.3},
		{"fixed", 1.0, 2.0, 3.0, 4.0},
		{"polls", 0.3, 1.7, 3.3, 3.7},
	};
	for (int k = 0; k < 3; k++) {
		struct scn *c;
		struct sim *s = h_run(YARN_DIR "oob.yaml", want[k].pol, 0, &c);
		CU_ASSERT_EQUAL(h_nexecs(), 4);
		expect_exec(0, 0.0, "n-0", c, s); /* a's AM */
		h_expect_end(s, h_job(s, "a", 0), JOB_TIMED_OUT, S(0.3), "reservation-timeout");
		CU_ASSERT_EQUAL(h_exec(0)->end_us, S(0.3));
		CU_ASSERT_EQUAL(h_exec(1)->role, SIM_ROLE_AM);
		expect_exec(1, want[k].am, "n-0", c, s);
		expect_exec(2, want[k].x1, "n-0", c, s);
		expect_exec(3, want[k].x2, "n-0", c, s);
		h_expect_end(s, h_job(s, "b", 0), JOB_DONE, S(want[k].end), "");
		h_done(s, c);
	}
}

/* minRegisteredResourcesRatio 0.6 lets the first tasks start with 2 of
 * 3 executors up; maxRegisteredResourcesWaitingTime 3 s ends the wait
 * at 0.5 + 3 s (heartbeat.yaml). */
static void min_registered(void)
{
	struct scn *c;
	struct sim *s = h_run(YARN_DIR "heartbeat.yaml", "r06", 0, &c);
	CU_ASSERT_EQUAL(sim_job(s, 0)->start_us, S(2.6));
	h_expect_end(s, sim_job(s, 0), JOB_DONE, S(15), "");
	h_done(s, c);
	s = h_run(YARN_DIR "heartbeat.yaml", "wait3", 0, &c);
	CU_ASSERT_EQUAL(sim_job(s, 0)->start_us, S(3.5));
	h_expect_end(s, sim_job(s, 0), JOB_DONE, S(15), "");
	h_done(s, c);
}

/* An executor up but held by the gate and lost before it opens: the job
 * model never heard of it (no TF task ran there), so the job only waits
 * for its replacement; the same end as without the gate
 * (held-loss.yaml). */
static void held_loss(void)
{
	static const char *const pols[] = {"y", "nogate"};
	for (int p = 0; p < 2; p++) {
		struct scn *c;
		struct sim *s = h_run(YARN_DIR "held-loss.yaml", pols[p], 0, &c);
		const struct sim_job *j = sim_job(s, 0);
		h_expect_end(s, j, JOB_DONE, S(8.5), "");
		CU_ASSERT_EQUAL(j->start_us, S(7));
		CU_ASSERT_EQUAL(h_exec(2)->end_us, S(3)); /* the one lost with n-1 */
		CU_ASSERT_EQUAL(h_exec(4)->launch_us, S(6)); /* its replacement */
		h_done(s, c);
	}
	/* Behind the gate the three TF nodes are offered at once (7 s), in
	 * Spark's shuffled order: the PS is drawn among them, replication by
	 * replication (seed 1: executor 3 in replication 0), never the lost
	 * one; 12 replications give each of the three at least once. */
	int ps_count[5] = {0};
	for (int r = 0; r < 12; r++) {
		struct scn *c;
		struct sim *s = h_run(YARN_DIR "held-loss.yaml", "y", r, &c);
		int ps = -1, nps = 0;
		for (int i = 0; i < h_nexecs(); i++)
			if (h_exec(i)->role != SIM_ROLE_AM && h_exec(i)->played == 0)
				ps = i, nps++;
		CU_ASSERT_EQUAL(nps, 1);
		CU_ASSERT(ps == 1 || ps == 3 || ps == 4);
		if (r == 0)
			CU_ASSERT_EQUAL(ps, 3);
		if (ps >= 0)
			ps_count[ps]++;
		h_done(s, c);
	}
	CU_ASSERT(ps_count[1] > 0 && ps_count[3] > 0 && ps_count[4] > 0);
}

/* The AM is lost with two containers assigned and not yet taken: they go
 * back, and nothing is launched until the next AM registers
 * (am-lost.yaml has the hand computation). */
static void am_lost(void)
{
	struct scn *c;
	struct sim *s = h_run(YARN_DIR "am-lost.yaml", "y", 0, &c);
	CU_ASSERT_EQUAL(h_nexecs(), 4);
	CU_ASSERT_EQUAL(h_exec(0)->end_us, S(1.1));   /* the AM, with n-0 */
	CU_ASSERT_EQUAL(h_exec(1)->launch_us, S(2));  /* the next, on n-1 */
	CU_ASSERT_EQUAL(h_exec(2)->launch_us, S(3.2));
	CU_ASSERT_EQUAL(h_exec(3)->launch_us, S(4.4));
	CU_ASSERT_EQUAL(sim_job(s, 0)->start_us, S(5.4));
	h_expect_end(s, sim_job(s, 0), JOB_DONE, S(15.4), "");
	h_done(s, c);
}

/* The AM limit rounds as each calculator does: to the nearest MiB, then
 * up to the minimum allocation, under the DefaultResourceCalculator (one
 * AM of 1 GiB in 0.1 of 10242 MiB); up, per resource, under the DRC (two)
 * (am-round.yaml). */
static void am_round(void)
{
	struct scn *c;
	struct sim *s = h_run(YARN_DIR "am-round.yaml", "mem", 0, &c);
	h_expect_end(s, h_job(s, "s", 0), JOB_DONE, S(12), "");
	h_expect_end(s, h_job(s, "s", 1), JOB_DONE, S(24), "");
	h_done(s, c);
	s = h_run(YARN_DIR "am-round.yaml", "drc", 0, &c);
	h_expect_end(s, h_job(s, "s", 0), JOB_DONE, S(12), "");
	h_expect_end(s, h_job(s, "s", 1), JOB_DONE, S(13), "");
	h_done(s, c);
}

/* The default phases are keyed by (seed, node): the AM container goes
 * to the node that beats first after the arrival at 0.5 s, then one
 * container per node per heartbeat. */
static void keyed_phases(void)
{
	struct scn *c;
	struct sim *s = h_run(YARN_DIR "heartbeat.yaml", "random", 0, &c);
	int64_t first = -1;
	int node = -1;
	for (int i = 0; i < sim_cluster(s)->n; i++) {
		struct rng_key k = rng_key(sim_seed(s), 0, (enum rng_stream)(RNG_USER + 3),
					   (uint32_t)i, 0, 0);
		int64_t ph = (int64_t)(rng_u01(k, 0) * 1e6), at = ph >= S(0.5) ? ph : ph + S(1);
		if (first < 0 || at < first) {
			first = at;
			node = i;
		}
	}
	CU_ASSERT(first != S(1)); /* not both at 0 */
	CU_ASSERT_EQUAL(h_exec(0)->launch_us, first);
	CU_ASSERT_EQUAL(h_exec(0)->node, node);
	CU_ASSERT_EQUAL(sim_job(s, 0)->status, JOB_DONE);
	h_done(s, c);
}

/* Bad values of the new switches name their file, line and column. */
static void bad_switches(void)
{
	expect_switch_error("max_allocation_vcores: 0", ":2:59: expected [1, 1048576] vcores for "
			    "switch 'max_allocation_vcores' of policy yarn, got '0'");
	expect_switch_error("nm_heartbeat: 2h", ":2:50: expected [0s, 3600s] for switch "
			    "'nm_heartbeat' of policy yarn, got '2h'");
	expect_switch_error("min_registered_resources_ratio: 1.5", ":2:68: expected [0, 1] for "
			    "switch 'min_registered_resources_ratio' of policy yarn, got '1.5'");
	expect_switch_error("nm_heartbeat_phase: late", ":2:56: expected one of random, zero for "
			    "switch 'nm_heartbeat_phase' of policy yarn, got 'late'");
}

int test_suite_yarn(void)
{
	TEST_SUITE("yarn",
		   {"a 5-vcore executor fails at submission, either calculator", max_vcores},
		   {"AM activation skips an AM over the limit, lets the next in", am_skip},
		   {"heartbeats: one container per node per beat, AM polls", heartbeats},
		   {"out-of-band heartbeats: a container's end, its node's new phase", oob_heartbeats},
		   {"minRegisteredResourcesRatio and its waiting time", min_registered},
		   {"an executor held by the gate and lost: the job waits for its replacement", held_loss},
		   {"an AM lost with containers not yet taken: none launched without it", am_lost},
		   {"the AM limit rounds as each resource calculator does", am_round},
		   {"heartbeat phases keyed by seed and node", keyed_phases},
		   {"bad yarn switch values: file:line:col", bad_switches});
	return 0;
}
