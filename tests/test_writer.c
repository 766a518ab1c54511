/* test_writer.c - `hetsim run`'s writer thread: the queue that feeds it
 * (cli/bgq.h) keeps the order of what it is handed, with a thread and
 * without; the files written with the thread are byte for byte those
 * written without; metrics taken job by job equal met_compute's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models.h"
#include "bgq.h"
#include "cmd.h"
#include "harness.h"
#include "metrics.h"
#include "scenario.h"
#include "sim.h"
#include "test.h"

#define SCENARIO "tests/scenarios/writer/mixed-10k.yaml"

/* ---- the queue ------------------------------------------------------- */

struct rec {
	int64_t i, thrice, flipped;
};

/* What the consumer saw, in order: record i as i, the k-th call as -(k+1). */
struct log {
	int64_t *v;
	size_t n, cap;
	int bad;               /* records whose fields disagree */
};

static void log_add(struct log *l, int64_t x)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = x;
}

static void each(void *ctx, const void *r)
{
	struct log *l = ctx;
	const struct rec *x = r;
	l->bad += x->thrice != 3 * x->i || x->flipped != ~x->i;
	log_add(l, x->i);
}

struct mark {
	struct log *l;
	int64_t k;
};

static void call(void *arg)
{
	struct mark *m = arg;
	log_add(m->l, -(m->k + 1));
}

#define NREC 200000 /* 4.8 MB of records: 19 blocks, more than are in flight */
#define EVERY 997   /* a call after every EVERY records */

static void fill(bool thread)
{
	struct log l = {0};
	static struct mark marks[NREC / EVERY + 1];
	struct bgq *q = bgq_start(sizeof(struct rec), each, &l, thread);
	CU_ASSERT_EQUAL(bgq_threaded(q), thread);
	int64_t k = 0;
	for (int64_t i = 0; i < NREC; i++) {
		struct rec *r = bgq_put(q);
		*r = (struct rec){i, 3 * i, ~i};
		if (i % EVERY == EVERY - 1) {
			marks[k] = (struct mark){&l, k};
			bgq_call(q, call, &marks[k]);
			k++;
		}
		if (i == NREC / 2) {
			/* everything handed over so far is done, the record in
			 * the block being filled included */
			bgq_wait(q);
			CU_ASSERT_EQUAL(l.n, (size_t)(i + 1 + k));
			CU_ASSERT_EQUAL(l.v[l.n - 1], i);
		}
	}
	bgq_stop(q);
	CU_ASSERT_EQUAL(l.bad, 0);
	CU_ASSERT_EQUAL_FATAL(l.n, (size_t)(NREC + k));
	size_t at = 0;
	int wrong = 0;
	int64_t calls = 0;
	for (int64_t i = 0; i < NREC; i++) {
		wrong += l.v[at++] != i;
		if (i % EVERY == EVERY - 1)
			wrong += l.v[at++] != -(++calls);
	}
	CU_ASSERT_EQUAL(wrong, 0);
	free(l.v);
}

static void queue_keeps_order(void)
{
	fill(true);
	fill(false);
}

/* An empty queue stops at once, whichever way it runs. */
static void queue_empty(void)
{
	struct log l = {0};
	struct bgq *q = bgq_start(sizeof(struct rec), each, &l, true);
	bgq_wait(q);
	bgq_stop(q);
	CU_ASSERT_EQUAL(l.n, 0);
	bgq_stop(NULL);
}

/* ---- hetsim run, with the thread and without ------------------------- */

static char tmpdir[64];

static char *slurp(const char *sub, const char *name)
{
	char p[192];
	snprintf(p, sizeof p, "%s/%s/%s", tmpdir, sub, name);
	char *t = h_slurp(p, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	return t;
}

static void thread_same_bytes(void)
{
	struct scn *s = h_load(SCENARIO);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	char dir[128];
	struct cmd_run_opts o = {.only_replication = -1, .quiet = true};
	snprintf(dir, sizeof dir, "%s/thread", tmpdir);
	CU_ASSERT_EQUAL(cmd_run_scenario(s, &o, dir), 0);
	o.rows_inline = true;
	snprintf(dir, sizeof dir, "%s/inline", tmpdir);
	CU_ASSERT_EQUAL(cmd_run_scenario(s, &o, dir), 0);
	scn_free(s);
	static const char *const files[] = {"runs.csv", "jobs.csv", "executors.csv", "types.csv"};
	for (int i = 0; i < 4; i++) {
		char *a = slurp("thread", files[i]), *b = slurp("inline", files[i]);
		CU_ASSERT_STRING_EQUAL(a, b);
		if (i == 1) {
			/* 2 replications x 3 policies x 10 029 jobs: many batches;
			 * and jobs that ended by waiting to the end (no end time) */
			size_t rows = 0;
			for (const char *p = a; *p; p++)
				rows += *p == '\n';
			CU_ASSERT_EQUAL(rows, 1 + 6 * 10029);
			CU_ASSERT_PTR_NOT_NULL(strstr(a, ",toobig,0,synthetic,unplaceable,2.000000,,,,0,0,memory,\n"));
			CU_ASSERT_PTR_NOT_NULL(strstr(a, ",toobig,0,synthetic,failed,2.000000,,2.000000,"
							    "0.000000,0,0,max-allocation,\n"));
		}
		free(a);
		free(b);
	}
}

/* Whether DIR/SUB/NAME exists. */
static bool exists(const char *sub, const char *name)
{
	char p[192];
	snprintf(p, sizeof p, "%s/%s/%s", tmpdir, sub, name);
	return access(p, F_OK) == 0;
}

/* --no-rows: runs.csv, types.csv and table.md the bytes of a run with
 * the rows; no jobs.csv, no executors.csv, not even those an earlier
 * run left in the folder (the set's commit removes what the folder's
 * last manifest listed and this set does not), and the manifest names
 * neither. */
static void no_rows_same_bytes(void)
{
	struct scn *s = h_load(SCENARIO);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	char dir[128];
	struct cmd_run_opts o = {.only_replication = -1, .quiet = true};
	snprintf(dir, sizeof dir, "%s/rows", tmpdir);
	CU_ASSERT_EQUAL(cmd_run_scenario(s, &o, dir), 0);
	snprintf(dir, sizeof dir, "%s/norows", tmpdir);
	CU_ASSERT_EQUAL(cmd_run_scenario(s, &o, dir), 0);
	CU_ASSERT_TRUE(exists("norows", "jobs.csv") && exists("norows", "executors.csv"));
	o.no_rows = true;
	CU_ASSERT_EQUAL(cmd_run_scenario(s, &o, dir), 0);
	scn_free(s);
	static const char *const same[] = {"runs.csv", "types.csv", "table.md"};
	for (int i = 0; i < 3; i++) {
		char *a = slurp("rows", same[i]), *b = slurp("norows", same[i]);
		CU_ASSERT_STRING_EQUAL(a, b);
		free(a);
		free(b);
	}
	CU_ASSERT_FALSE(exists("norows", "jobs.csv"));
	CU_ASSERT_FALSE(exists("norows", "executors.csv"));
	CU_ASSERT_TRUE(exists("norows", "timing.csv"));
	char *m = slurp("norows", "manifest.csv");
	CU_ASSERT_PTR_NULL(strstr(m, "jobs.csv"));
	CU_ASSERT_PTR_NULL(strstr(m, "executors.csv"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "\nruns.csv,"));
	free(m);
}

/* ---- metrics, job by job --------------------------------------------- */

#define SAME(f) CU_ASSERT_EQUAL(a.f, b.f)
#define SAME_D(f) CU_ASSERT(memcmp(&a.f, &b.f, sizeof a.f) == 0) /* same bits */

/* met_acc fed in batches, growing (1, 2, 3, ... jobs) or shrinking
 * (150, 149, ...: runs of sorted JCTs each shorter than the one before),
 * some of them below the warm-up: what met_compute gives, bit for bit. */
static void acc_by_batches(const struct sim *s, bool growing, struct met_run *out)
{
	struct met_acc acc;
	met_acc_init(&acc, s);
	int to = 0, step = growing ? 1 : 150;
	while (to < sim_njobs(s) - 50) {
		to += step;
		step = growing ? step + 1 : step > 1 ? step - 1 : 150;
		met_acc_jobs(&acc, s, to);
		CU_ASSERT(acc.nruns <= 32);
	}
	met_acc_jobs(&acc, s, to - 5); /* behind: nothing */
	met_acc_finish(&acc, s, out);  /* takes the last 50 itself */
}

static void metrics_by_batches(void)
{
	struct scn *scn;
	struct sim *s = h_run(SCENARIO, "spark-standalone", 1, &scn);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct met_run a, b;
	met_compute(s, &a);
	for (int growing = 0; growing < 2; growing++) {
		acc_by_batches(s, growing, &b);
		SAME(jobs);
		SAME(counted);
		SAME(done);
		SAME(failed);
		SAME(timed_out);
		SAME(unplaceable);
		SAME_D(makespan_s);
		SAME_D(jct_mean_s);
		SAME_D(jct_p50_s);
		SAME_D(jct_p95_s);
		SAME_D(jct_p99_s);
		SAME_D(wait_mean_s);
		SAME_D(cpu_util);
		SAME_D(gpu_util);
		SAME_D(cpu_alloc);
		SAME_D(gpu_alloc);
		for (int t = 0; t < SCN_MAX_MODELS; t++) {
			SAME(type[t].jobs);
			SAME(type[t].counted);
			SAME(type[t].done);
			SAME(type[t].failed);
			SAME(type[t].timed_out);
			SAME(type[t].unplaceable);
			SAME_D(type[t].jct_mean_s);
			SAME_D(type[t].jct_p50_s);
			SAME_D(type[t].jct_p95_s);
			SAME_D(type[t].jct_p99_s);
			SAME_D(type[t].wait_mean_s);
		}
		SAME(events);
		SAME(decisions);
	}
	CU_ASSERT_EQUAL(a.counted, 10029 - 300);
	/* huge at 1 s and toobig at 2 s are among the 300 warm-up jobs */
	CU_ASSERT(a.unplaceable == 3 && a.done == a.counted - 3);
	h_done(s, scn);
}

static int setup(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/hetsim-test-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void)
{
	return h_rmtree(tmpdir);
}

int test_suite_writer(void)
{
	CU_pSuite s = CU_add_suite("writer", setup, teardown);
	if (!s ||
	    !CU_add_test(s, "bgq: records and calls done in the order handed, thread or not",
			 queue_keeps_order) ||
	    !CU_add_test(s, "bgq: an empty queue stops", queue_empty) ||
	    !CU_add_test(s, "run: the writer thread writes the bytes the engine's thread would",
			 thread_same_bytes) ||
	    !CU_add_test(s, "run --no-rows: the other files' bytes, no rows, old rows removed",
			 no_rows_same_bytes) ||
	    !CU_add_test(s, "metrics taken job by job, in batches, equal met_compute's",
			 metrics_by_batches))
		return -1;
	return 0;
}
