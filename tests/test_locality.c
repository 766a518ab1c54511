/* test_locality.c - data locality: Spark's delay scheduling in the
 * kernel's dispatcher (NODE_LOCAL, then ANY after spark.locality.wait)
 * and WordCount's HDFS replicas.  Expected times are hand-computed in
 * each scenario's comment (tests/scenarios/locality/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "harness.h"
#include "load.h"
#include "scenario.h"
#include "sim.h"
#include "test.h"

#define LOC_DIR "tests/scenarios/locality/"

/* How a run is changed from its file: as written, wait 0, locality off. */
enum variant { AS_WRITTEN, WAIT_0, OFF };

static struct sim *run_variant(const char *file, enum variant v, struct scn **sc)
{
	*sc = h_load(file);
	if (v == WAIT_0)
		(*sc)->loc.wait_us = 0;
	if (v == OFF)
		(*sc)->loc.enabled = false;
	return h_run_loaded(*sc, 0, 0);
}

/* Job 0's map tasks (stage 0) prefer these nodes, one each (replicas 1). */
static void expect_placement(const struct sim *s, const int *nodes, int n)
{
	struct arena a;
	struct sim_dag d;
	arena_init(&a);
	sim_build_dag(sim_scenario(s), 0, 0, sim_seed(s), &a, &d);
	CU_ASSERT_EQUAL_FATAL(d.st[0].ntasks, n);
	CU_ASSERT_EQUAL(d.st[0].npref, 1);
	for (int t = 0; t < n; t++)
		CU_ASSERT_EQUAL(d.st[0].pref[t], nodes[t]);
	/* every split 128 MiB, the last too: no array per task */
	CU_ASSERT_PTR_NULL(d.st[0].remote_mib);
	CU_ASSERT_DOUBLE_EQUAL(d.st[0].remote_each_mib, 128, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(d.st[0].remote_last_mib, 128, 1e-9);
	CU_ASSERT_EQUAL(d.st[1].npref, 0); /* reduce tasks read shuffle output */
	CU_ASSERT_PTR_NULL(d.st[1].pref);
	arena_free(&a);
}

static void expect_run(const struct sim *s, double makespan_s, int local, int remote)
{
	CU_ASSERT_EQUAL(sim_job(s, 0)->status, JOB_DONE);
	CU_ASSERT_EQUAL(h_makespan(s), S(makespan_s));
	CU_ASSERT_EQUAL(sim_totals(s)->tasks_local, local);
	CU_ASSERT_EQUAL(sim_totals(s)->tasks_remote, remote);
}

static void local_task(void)
{
	struct scn *c;
	struct sim *s = run_variant(LOC_DIR "local.yaml", AS_WRITTEN, &c);
	expect_placement(s, (const int[]){1, 0}, 2);
	expect_run(s, 3, 2, 0);
	h_done(s, c);
	s = run_variant(LOC_DIR "local.yaml", WAIT_0, &c); /* local first all the same */
	expect_run(s, 3, 2, 0);
	h_done(s, c);
}

static void waits_runs_local(void)
{
	struct scn *c;
	struct sim *s = run_variant(LOC_DIR "wait-local.yaml", AS_WRITTEN, &c);
	expect_placement(s, (const int[]){0, 0, 0}, 3);
	expect_run(s, 4, 3, 0);
	CU_ASSERT_EQUAL(h_nexecs(), 2);
	h_done(s, c);
	s = run_variant(LOC_DIR "wait-local.yaml", WAIT_0, &c);
	expect_run(s, 3, 2, 1);
	h_done(s, c);
	s = run_variant(LOC_DIR "wait-local.yaml", OFF, &c);
	expect_run(s, 3, 0, 0);
	h_done(s, c);
}

static void waits_runs_remote(void)
{
	struct scn *c;
	struct sim *s = run_variant(LOC_DIR "wait-remote.yaml", AS_WRITTEN, &c);
	expect_placement(s, (const int[]){0, 0}, 2);
	expect_run(s, 9, 1, 1);
	h_done(s, c);
	s = run_variant(LOC_DIR "wait-remote.yaml", WAIT_0, &c); /* remote, at once */
	expect_run(s, 6, 1, 1);
	h_done(s, c);
	s = run_variant(LOC_DIR "wait-remote.yaml", OFF, &c); /* no replicas, no read */
	expect_run(s, 5, 0, 0);
	h_done(s, c);
}

/* Every job's replicas (its map stage's preferred nodes) under policy p
 * and replication rep, flattened into buf; their number. */
static int placements(const char *file, int p, int rep, int *buf, int cap)
{
	struct scn *c = h_load(file);
	struct sim *s = h_run_loaded(c, p, rep);
	int n = 0;
	for (int i = 0; i < sim_njobs(s); i++) {
		const struct sim_job *j = sim_job(s, i);
		CU_ASSERT_EQUAL(j->status, JOB_DONE);
		struct arena a;
		struct sim_dag d;
		arena_init(&a);
		sim_build_dag(c, j->group, j->index, sim_seed(s), &a, &d);
		const struct sim_dag_stage *m = &d.st[0];
		CU_ASSERT_EQUAL(m->npref, 3);
		for (int t = 0; t < m->ntasks; t++) {
			const int *r = m->pref + t * 3;
			CU_ASSERT(r[0] != r[1] && r[0] != r[2] && r[1] != r[2]); /* distinct */
			for (int k = 0; k < 3 && n < cap; k++) {
				CU_ASSERT(r[k] >= 0 && r[k] < 6);
				buf[n++] = r[k];
			}
		}
		arena_free(&a);
	}
	/* every map task launched once, local or not (no failures) */
	CU_ASSERT_EQUAL(sim_totals(s)->tasks_local + sim_totals(s)->tasks_remote, 3 * 8 + 2 * 16);
	h_done(s, c);
	return n;
}

static void same_replicas_every_policy(void)
{
	enum { CAP = 512 };
	static int first[2][CAP], other[CAP];
	int n[2];
	for (int rep = 0; rep < 2; rep++)
		n[rep] = placements(LOC_DIR "placement.yaml", 0, rep, first[rep], CAP);
	CU_ASSERT_EQUAL(n[0], 3 * (3 * 8 + 2 * 16));
	/* job 0 (wc 0), replication 0: its first two splits' replicas, pinned */
	static const int pinned[] = {4, 1, 2, 2, 0, 3};
	CU_ASSERT_EQUAL(memcmp(first[0], pinned, sizeof pinned), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(first[0], first[1], (size_t)n[0] * sizeof(int)), 0);
	for (int p = 1; p < 4; p++)
		for (int rep = 0; rep < 2; rep++) {
			CU_ASSERT_EQUAL(placements(LOC_DIR "placement.yaml", p, rep, other, CAP), n[rep]);
			CU_ASSERT_EQUAL(memcmp(first[rep], other, (size_t)n[rep] * sizeof(int)), 0);
		}
}


#define WC_GROUP "workload: [{name: w, type: wordcount, input: 1GiB"
#define REST "policies: [fifo]\n"
#define NODE "cluster: [{name: n, cores: 4, memory: 8GiB"

static void keys_and_defaults(void)
{
	struct scn *c = h_load(LOC_DIR "local.yaml");
	CU_ASSERT(c->loc.enabled);
	CU_ASSERT_EQUAL(c->loc.wait_us, S(3)); /* spark.locality.wait */
	CU_ASSERT_DOUBLE_EQUAL(c->groups[0].net_mib_s, 128, 1e-12);
	scn_free(c);
	c = h_load(LOC_DIR "placement.yaml");
	CU_ASSERT_DOUBLE_EQUAL(c->groups[0].net_mib_s, 1.25e9 / 1048576, 1e-9); /* 10 GbE */
	CU_ASSERT_DOUBLE_EQUAL(c->groups[1].net_mib_s, SCN_NET_MIB_S, 0);
	/* more replicas than nodes: one on each node */
	struct arena a;
	struct sim_dag d;
	arena_init(&a);
	const char *yaml = "locality: {enabled: true, wait: 1.5s}\n"
			   "cluster: [{name: n, count: 2, cores: 4, memory: 8GiB, network: 1.25GiB/s}]\n"
			   "workload: [{name: w, type: wordcount, input: 1GiB, hdfs_replicas: 5}]\n"
			   "policies: [fifo]\n";
	FILE *f = fopen("/tmp/hetsim-locality.yaml", "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(yaml, f);
	fclose(f);
	struct scn *c2 = h_load("/tmp/hetsim-locality.yaml");
	remove("/tmp/hetsim-locality.yaml");
	CU_ASSERT_EQUAL(c2->loc.wait_us, 1500000);
	CU_ASSERT_DOUBLE_EQUAL(c2->groups[0].net_mib_s, 1280, 1e-12);
	sim_build_dag(c2, 0, 0, 1, &a, &d);
	CU_ASSERT_EQUAL(d.st[0].npref, 2);
	for (int t = 0; t < d.st[0].ntasks; t++)
		CU_ASSERT_EQUAL(d.st[0].pref[2 * t] + d.st[0].pref[2 * t + 1], 1); /* 0 and 1 */
	arena_free(&a);
	c2->loc.enabled = false; /* modelling off: no preferences at all */
	arena_init(&a);
	sim_build_dag(c2, 0, 0, 1, &a, &d);
	CU_ASSERT_EQUAL(d.st[0].npref, 0);
	CU_ASSERT_PTR_NULL(d.st[0].pref);
	CU_ASSERT_PTR_NULL(d.st[0].remote_mib);
	CU_ASSERT_EQUAL(d.st[0].remote_each_mib, 0);
	CU_ASSERT_EQUAL(d.st[0].remote_last_mib, 0);
	arena_free(&a);
	scn_free(c2);
	scn_free(c);
}

static void bad_keys(void)
{
	h_expect_load_error("locality: {wait: 5}\n" NODE "}]\n" WC_GROUP "}]\n" REST,
			  ":1:18: expected a time with a unit (us, ms, s, min, h), got '5'");
	h_expect_load_error("locality: {wait: -1s}\n" NODE "}]\n" WC_GROUP "}]\n" REST,
			  ":1:18: expected a time >= 0, got '-1s'");
	h_expect_load_error("locality: {enabled: yes}\n" NODE "}]\n" WC_GROUP "}]\n" REST,
			  ":1:21: expected true or false for enabled, got 'yes'");
	h_expect_load_error("locality: {wiat: 3s}\n" NODE "}]\n" WC_GROUP "}]\n" REST,
			  ":1:12: unknown key 'wiat' in locality (known: enabled, wait)");
	h_expect_load_error(NODE ", network: 10}]\n" WC_GROUP "}]\n" REST,
			  ":1:54: expected a bandwidth such as 1192MiB/s or 1.25GiB/s, got '10'");
	h_expect_load_error(NODE ", network: 0.5MiB/s}]\n" WC_GROUP "}]\n" REST,
			  ":1:54: expected a bandwidth >= 1MiB/s, got '0.5MiB/s'");
	h_expect_load_error(NODE "}]\n" WC_GROUP ", hdfs_replicas: 0}]\n" REST,
			  ":2:67: expected an integer >= 1, got '0'");
}

int test_suite_locality(void)
{
	TEST_SUITE("locality",
		   {"a task on a node that holds its split", local_task},
		   {"tasks wait for their node's slot and get it within the wait",
		    waits_runs_local},
		   {"a task waits 3 s, then runs remotely and reads its split",
		    waits_runs_remote},
		   {"HDFS replicas: the same under every policy, pinned", same_replicas_every_policy},
		   {"locality keys, their defaults, replicas past the nodes", keys_and_defaults},
		   {"bad locality, network and hdfs_replicas values", bad_keys});
	return 0;
}
