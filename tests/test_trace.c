/* test_trace.c - jobs read from traces (input/trace.h, scn_trace.h,
 * workloads/trace.c): the SWF importer against counts taken from the
 * real file with awk, its bad-record rules with their exact messages,
 * the filters and the time scale, trace workloads and clusters in
 * scenarios, and a hand-computed replay.
 *
 * Files: tests/data/traces/swf/ (the NASA iPSC log, zstd-compressed,
 * and hand.swf), tests/scenarios/hand/trace-rigid.yaml. */
#include "cluster.h"
#include "harness.h"
#include "load.h"
#include "models.h"
#include "pyrandom.h"
#include "scn_trace.h"
#include "sim.h"
#include "test.h"
#include "trace.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NASA "tests/data/traces/swf/NASA-iPSC-1993-3.1-cln.swf.zst"
#define HAND_SWF "tests/data/traces/swf/hand.swf"

static const struct trace_opts plain = {.time_scale = 1, .exec_cores = 1};

static struct scn_trace *read_ok(const char *path, const struct trace_opts *o)
{
	char err[1024] = "";
	struct scn_trace *t = trace_read(path, o, err, sizeof err);
	if (!t)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	return t;
}

/* Reading SWF text under o fails with the file's path then msg. */
static void expect_swf_error(const char *text, const struct trace_opts *o, const char *msg)
{
	char path[64], err[1024], want[1200];
	h_write_tmp(path, sizeof path, text);
	struct trace_opts oo = *o;
	oo.format = "swf";
	struct scn_trace *t = trace_read(path, &oo, err, sizeof err);
	snprintf(want, sizeof want, "%s%s", path, msg);
	CU_ASSERT_PTR_NULL(t);
	if (!t) {
		CU_ASSERT_STRING_EQUAL(err, want);
		if (strcmp(err, want))
			fprintf(stderr, "\n  want %s\n  got  %s\n", want, err);
	}
	scn_trace_free(t);
	remove(path);
}

/* The NASA iPSC log, every record.  The figures come from the file
 * itself, not from hetsim:
 *   zstd -dc NASA...swf.zst | grep -v '^;' | awk '{n++; t += $5; u[$12];
 *     s[$5]; if ($4 > m) m = $4; last = $2} END {print n, t, length(u),
 *     length(s), m, last}'
 * prints 18239 309953 69 8 62643 7948936 (jobs; processors summed, which
 * are the tasks, one a processor; users; distinct processor counts, the
 * distinct demands since memory and requested time are -1 throughout;
 * the longest run; the last submit), and the first job is
 * "1 0 -1 1451 128 ...". */
static void swf_nasa_counts(void)
{
	struct scn_trace *t = read_ok(NASA, &plain);
	CU_ASSERT_STRING_EQUAL(t->format, "swf");
	CU_ASSERT_EQUAL(t->records, 18239);
	CU_ASSERT_EQUAL(t->njobs, 18239);
	CU_ASSERT_EQUAL(t->nshapes, 8);
	CU_ASSERT_EQUAL(t->nusers, 69);
	CU_ASSERT_EQUAL(t->nqueues, 0); /* field 15 is -1 throughout */
	int64_t tasks = 0, longest = 0;
	for (int64_t i = 0; i < t->njobs; i++) {
		tasks += t->shapes[t->jobs[i].shape].tasks;
		if (t->jobs[i].run_us > longest)
			longest = t->jobs[i].run_us;
		CU_ASSERT_EQUAL(t->jobs[i].req_us, -1);
	}
	CU_ASSERT_EQUAL(tasks, 309953);
	CU_ASSERT_EQUAL(longest, S(62643));
	CU_ASSERT_EQUAL(t->jobs[t->njobs - 1].arrival_us, S(7948936));
	const struct scn_trace_job *j = &t->jobs[0];
	CU_ASSERT_EQUAL(j->id, 1);
	CU_ASSERT_EQUAL(j->arrival_us, 0);
	CU_ASSERT_EQUAL(j->run_us, S(1451));
	const struct scn_trace_shape *sh = &t->shapes[j->shape];
	CU_ASSERT_EQUAL(sh->nroles, 1);
	CU_ASSERT_EQUAL(sh->tasks, 128);
	CU_ASSERT_EQUAL(sh->role[0].count, 128);
	CU_ASSERT_EQUAL(sh->role[0].cpu_milli, 1000);
	CU_ASSERT_EQUAL(sh->role[0].slots, 1);
	CU_ASSERT_EQUAL(sh->role[0].mem_mib, 1024); /* no memory field: the default */
	for (int w = 0; w < TRS_NSKIP; w++)
		CU_ASSERT_EQUAL(t->skipped[w], 0);
	char buf[256];
	CU_ASSERT_EQUAL(trace_warning(t, buf, sizeof buf), 0);
	scn_trace_free(t);

	/* its header as a cluster: MaxNodes 128, MaxProcs 128; by default
	 * the archive's machine as one pool of 128 processors (1 GiB each),
	 * with machine: nodes 128 nodes of one */
	static const struct { enum trace_machine m; int count, cores; long long mem; } want[] = {
		{TRM_DEFAULT, 1, 128, 128 * 1024}, {TRM_POOL, 1, 128, 128 * 1024},
		{TRM_NODES, 128, 1, 1024}};
	for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
		struct scn_node_group *g = NULL;
		int n = 0;
		char err[512];
		CU_ASSERT_EQUAL_FATAL(trace_read_nodes(NASA, NULL, "ipsc", want[k].m, &g, &n, err,
						       sizeof err), 0);
		CU_ASSERT_EQUAL(n, 1);
		CU_ASSERT_STRING_EQUAL(g[0].name, "ipsc1");
		CU_ASSERT_EQUAL(g[0].count, want[k].count);
		CU_ASSERT_EQUAL(g[0].cores, want[k].cores);
		CU_ASSERT_EQUAL(g[0].mem_mib, want[k].mem);
		CU_ASSERT_EQUAL(g[0].gpus, 0);
		free(g[0].name);
		free(g);
	}
}

/* Executors of several processors, memory from the record, the
 * requested time, users and queues. */
static void swf_mapping(void)
{
	char path[64];
	/* job 1: 6 processors, 2048 KB each requested (field 10), requested
	 * 100 s; job 2: 4 processors, no requested memory, 1536 KB used
	 * (field 7); job 3: 1 processor */
	h_write_tmp(path, sizeof path,
		  "; MaxNodes: 2\n"
		  "1 0 -1 50 6 -1 -1 6 100 2048 1 7 1 -1 3 -1 -1 -1\n"
		  "2 10 -1 20.5 4 -1 1536 -1 -1 -1 5 8 1 -1 3 -1 -1 -1\n"
		  "3 10 -1 0 1 -1 -1 1 -1 -1 0 7 1 -1 -1 -1 -1 -1\n");
	struct trace_opts o = plain;
	o.exec_cores = 4;
	struct scn_trace *t = read_ok(path, &o);
	CU_ASSERT_EQUAL_FATAL(t->njobs, 3);
	const struct scn_trace_shape *a = &t->shapes[t->jobs[0].shape];
	/* 6 processors, 4 an executor: 2 executors of 4 cores, 6 tasks;
	 * memory 2048 KB x 4 = 8 MiB */
	CU_ASSERT_EQUAL(a->role[0].count, 2);
	CU_ASSERT_EQUAL(a->role[0].cpu_milli, 4000);
	CU_ASSERT_EQUAL(a->role[0].slots, 4);
	CU_ASSERT_EQUAL(a->tasks, 6);
	CU_ASSERT_EQUAL(a->role[0].mem_mib, 8);
	CU_ASSERT_EQUAL(t->jobs[0].req_us, S(100));
	const struct scn_trace_shape *b = &t->shapes[t->jobs[1].shape];
	CU_ASSERT_EQUAL(b->role[0].count, 1);
	CU_ASSERT_EQUAL(b->role[0].mem_mib, 6); /* 1536 KB x 4 */
	CU_ASSERT_EQUAL(t->jobs[1].run_us, 20500000);
	const struct scn_trace_shape *c = &t->shapes[t->jobs[2].shape];
	CU_ASSERT_EQUAL(c->role[0].cpu_milli, 1000); /* 1 processor: a 1-core executor */
	CU_ASSERT_EQUAL(c->role[0].mem_mib, 1024);
	CU_ASSERT_EQUAL(t->jobs[2].run_us, 0);
	CU_ASSERT_EQUAL(t->nusers, 2);
	CU_ASSERT_STRING_EQUAL(t->users[t->jobs[1].user], "8");
	CU_ASSERT_EQUAL(t->nqueues, 1);
	CU_ASSERT_EQUAL(t->jobs[2].queue, -1);
	scn_trace_free(t);
	/* completed_only keeps status 1: job 1 */
	o.completed_only = true;
	t = read_ok(path, &o);
	CU_ASSERT_EQUAL(t->njobs, 1);
	CU_ASSERT_EQUAL(t->skipped[TRS_STATUS], 2);
	char buf[256];
	CU_ASSERT_EQUAL(trace_warning(t, buf, sizeof buf), 0); /* a choice, not a warning */
	scn_trace_free(t);
	remove(path);
}

/* Malformed records are errors naming the line, the column and the
 * value. */
static void swf_malformed(void)
{
	expect_swf_error("; a comment\n1 0 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1\n", &plain,
			 ":2:41: 17 fields, SWF has 18");
	expect_swf_error("1 0 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1 7\n", &plain,
			 ":1:47: a 19th field '7': SWF has 18");
	expect_swf_error("\n\n1 0 x 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n", &plain,
			 ":3:5: field 3 'x' is not a number");
	expect_swf_error("1 0 -1 1e999 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n", &plain,
			 ":1:8: field 4 '1e999' is not a number");
	/* times whose µs would not fit in 64 bits (llround's overflow) */
	expect_swf_error("1 1e15 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n", &plain,
			 ":1:3: field 2 1e+15 s is out of range (10^11 s)");
	expect_swf_error("1 0 -1 1e13 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n", &plain,
			 ":1:8: field 4 10000000000000 s is out of range (10^11 s)");
	expect_swf_error("1e20 0 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n", &plain,
			 ":1:1: field 1 1e+20 is not a job number");
}

/* Inconsistent records are skipped (or clamped) and counted, with one
 * warning line; under strict the first is an error. */
static void swf_inconsistent(void)
{
	const char *text = "1 0 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n"
			   "2 -5 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n"
			   "3 5 -1 -1 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n"
			   "4 6 -1 10 0 -1 -1 -1 20 -1 1 1 1 -1 1 -1 -1 -1\n"
			   "5 7 -1 10 2.5 -1 -1 -1 20 -1 1 1 1 -1 1 -1 -1 -1\n";
	char path[64], buf[512], want[600];
	h_write_tmp(path, sizeof path, text);
	struct trace_opts o = plain;
	o.format = "swf";
	struct scn_trace *t = read_ok(path, &o);
	CU_ASSERT_EQUAL(t->records, 5);
	CU_ASSERT_EQUAL(t->njobs, 2); /* jobs 1 and 5 */
	CU_ASSERT_EQUAL(t->skipped[TRS_NEG_TIME], 1);
	CU_ASSERT_EQUAL(t->skipped[TRS_NO_RUNTIME], 1);
	CU_ASSERT_EQUAL(t->skipped[TRS_NO_DEMAND], 1);
	CU_ASSERT_EQUAL(t->clamped, 1);
	CU_ASSERT_EQUAL(t->shapes[t->jobs[1].shape].tasks, 3); /* 2.5 processors: 3 */
	CU_ASSERT_EQUAL(trace_warning(t, buf, sizeof buf), 1);
	snprintf(want, sizeof want, "%s: 3 of 5 records skipped (no-runtime 1, negative-time 1, "
		 "no-demand 1), 1 clamped", path);
	CU_ASSERT_STRING_EQUAL(buf, want);
	scn_trace_free(t);
	remove(path);
	o = plain;
	o.strict = true;
	expect_swf_error("1 0 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n"
			 "2 -5 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n", &o,
			 ":2:3: submit time -5 s is negative (strict: not skipped)");
	expect_swf_error("3 5 -1 -1 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n", &o,
			 ":1:8: run time -1: unknown (strict: not skipped)");
	expect_swf_error("4 6 -1 10 0 -1 -1 -1 20 -1 1 1 1 -1 1 -1 -1 -1\n", &o,
			 ":1:11: no processors (fields 5 and 8: 0, -1) (strict: not skipped)");
	expect_swf_error("5 7 -1 10 2.5 -1 -1 -1 20 -1 1 1 1 -1 1 -1 -1 -1\n", &o,
			 ":1:11: 2.5 processors: not a whole number (strict: not clamped)");
}

/* The window and first N (in the trace's own time from its first
 * record), users, queues and the time scale.  NASA's first jobs (zstd
 * -dc ... | grep -v '^;' | head): submits 0, 1460, 5198, 6269, ... */
static void trace_filters(void)
{
	struct trace_opts o = plain;
	o.from_us = S(1000);
	o.to_us = S(6000);
	struct scn_trace *t = read_ok(NASA, &o);
	/* submits in [1000, 6000): 1460 and 5198, shifted to the window */
	CU_ASSERT_EQUAL_FATAL(t->njobs, 2);
	CU_ASSERT_EQUAL(t->jobs[0].id, 2);
	CU_ASSERT_EQUAL(t->jobs[0].arrival_us, S(460));
	CU_ASSERT_EQUAL(t->jobs[1].arrival_us, S(4198));
	CU_ASSERT_EQUAL(t->skipped[TRS_FILTER], 2); /* job 1, and job 4 stops the reading */
	scn_trace_free(t);

	o = plain;
	o.first = 3;
	o.time_scale = 0.5;
	t = read_ok(NASA, &o);
	CU_ASSERT_EQUAL_FATAL(t->njobs, 3);
	CU_ASSERT_EQUAL(t->jobs[2].arrival_us, S(2599));      /* 5198 / 2 */
	CU_ASSERT_EQUAL(t->jobs[0].run_us, S(725.5));         /* 1451 / 2 */
	scn_trace_free(t);

	/* users: awk '$12 == 1' counts 216 jobs of user 1 and
	 * awk '$12 == 1 || $12 == 2' 378 */
	const char *users[] = {"1", "2"};
	o = plain;
	o.users = users;
	o.nusers = 1;
	t = read_ok(NASA, &o);
	CU_ASSERT_EQUAL(t->njobs, 216);
	scn_trace_free(t);
	o.nusers = 2;
	t = read_ok(NASA, &o);
	CU_ASSERT_EQUAL(t->njobs, 378);
	CU_ASSERT_EQUAL(t->skipped[TRS_FILTER], 18239 - 378);
	scn_trace_free(t);
	/* a queue no job has */
	const char *queues[] = {"0"};
	o = plain;
	o.queues = queues;
	o.nqueues = 1;
	t = read_ok(NASA, &o);
	CU_ASSERT_EQUAL(t->njobs, 0);
	scn_trace_free(t);
	/* all but user 1: 18239 - 216; the clock is the trace's: user 2's
	 * first job (awk '$12 == 2 {print $2; exit}': 6269 s) arrives at
	 * 6269 s, not at 0 */
	o = plain;
	o.users = users;
	o.nusers = 1;
	o.users_not = true;
	t = read_ok(NASA, &o);
	CU_ASSERT_EQUAL(t->njobs, 18239 - 216);
	scn_trace_free(t);
	o = plain;
	o.users = users + 1;
	o.nusers = 1;
	t = read_ok(NASA, &o);
	CU_ASSERT_EQUAL_FATAL(t->njobs, 378 - 216);
	CU_ASSERT_EQUAL(t->jobs[0].arrival_us, S(6269));
	scn_trace_free(t);
	/* kinds, SWF field 14: awk '$14 == 4' counts 1088 jobs, '$14 == 4 ||
	 * $14 == 3' 1989; all but those: 18239 - 1989, the 1044 of field 14
	 * -1 among them */
	const char *kinds[] = {"4", "3"};
	o = plain;
	o.kinds = kinds;
	o.nkinds = 1;
	t = read_ok(NASA, &o);
	CU_ASSERT_EQUAL(t->njobs, 1088);
	CU_ASSERT_EQUAL_FATAL(t->nkinds, 1);
	CU_ASSERT_STRING_EQUAL(t->kinds[t->jobs[0].kind], "4");
	scn_trace_free(t);
	o.nkinds = 2;
	o.kinds_not = true;
	t = read_ok(NASA, &o);
	CU_ASSERT_EQUAL(t->njobs, 18239 - 1989);
	int64_t none = 0;
	for (int64_t i = 0; i < t->njobs; i++)
		none += t->jobs[i].kind < 0;
	CU_ASSERT_EQUAL(none, 1044);
	scn_trace_free(t);
	/* a sorted format's clock is its first record's, even out of order
	 * (ooo.swf: 100, 0, 150, 200 s): the window [50, 160) of it keeps
	 * jobs 3 and 4, at 0 and 50; with completed_only the first record
	 * (status 0) is left out but still starts the clock */
	for (int c = 0; c < 2; c++) {
		o = plain;
		o.from_us = S(50);
		o.to_us = S(160);
		o.completed_only = c;
		t = read_ok("tests/data/traces/swf/ooo.swf", &o);
		CU_ASSERT_EQUAL_FATAL(t->njobs, 2);
		CU_ASSERT_EQUAL(t->jobs[0].id, 3);
		CU_ASSERT_EQUAL(t->jobs[0].arrival_us, 0);
		CU_ASSERT_EQUAL(t->jobs[1].arrival_us, S(50));
		scn_trace_free(t);
	}
}

/* PAI's kinds: a job's distinct task names, sorted, '+' between (the
 * sample's task table by hand: j1 tensorflow; j2 ps, worker; j3 ps,
 * worker, evaluator; j4 worker, chief; j8 worker; j10 tensorflow). */
static void pai_kinds(void)
{
	struct scn_trace *t = read_ok("tests/data/traces/alibaba/pai-sample", &plain);
	static const char *const want[] = {"tensorflow", "ps+worker", "evaluator+ps+worker",
					   "chief+worker", "worker", "tensorflow"};
	static const int ids[] = {1, 2, 3, 4, 8, 9}; /* job rows' ordinals: j10 is the 9th */
	CU_ASSERT_EQUAL_FATAL(t->njobs, 6);
	for (int i = 0; i < 6; i++) {
		CU_ASSERT_EQUAL(t->jobs[i].id, ids[i]);
		CU_ASSERT_FATAL(t->jobs[i].kind >= 0);
		CU_ASSERT_STRING_EQUAL(t->kinds[t->jobs[i].kind], want[i]);
	}
	CU_ASSERT_EQUAL(t->nkinds, 5);
	scn_trace_free(t);
	const char *k[] = {"tensorflow"};
	struct trace_opts o = plain;
	o.kinds = k;
	o.nkinds = 1;
	t = read_ok("tests/data/traces/alibaba/pai-sample", &o);
	CU_ASSERT_EQUAL(t->njobs, 2);
	CU_ASSERT_EQUAL(t->jobs[1].arrival_us, S(900)); /* j10 at 1000 s, j1 at 100 s */
	scn_trace_free(t);
	/* a format not sorted: the clock is the earliest record's, kept or
	 * not: j8 (worker only, at 800 s) arrives at 700 s, after j1 at 100 */
	k[0] = "worker";
	t = read_ok("tests/data/traces/alibaba/pai-sample", &o);
	CU_ASSERT_EQUAL_FATAL(t->njobs, 1);
	CU_ASSERT_EQUAL(t->jobs[0].arrival_us, S(700));
	scn_trace_free(t);
}

/* offer_pad (FGD's volume rule): grown by sampling to at most pad x the
 * GPU capacity (2000 milli-GPUs here: 1500 offered), or shrunk; the
 * list as read counted per shape; the offer's times again; errors. */
static void offer_pad(void)
{
	char root[1024], y[4096];
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(root, sizeof root));
	static const double pads[] = {1.0, 3.0, 0.5};
	for (int k = 0; k < 3; k++) {
		char path[64];
		snprintf(y, sizeof y, "cluster:\n  - name: n\n    trace: {format: alibaba-openb-2023, "
			 "path: %s/tests/data/traces/alibaba/fgdx-nodes.csv}\nworkload:\n  - name: p\n"
			 "    trace: {format: alibaba-openb-2023, path: %s/tests/data/traces/alibaba/"
			 "fgdx-pods.csv, offer: true, offer_pad: %g}\npolicies: [fifo]\n", root, root,
			 pads[k]);
		h_write_tmp(path, sizeof path, y);
		char err[1024];
		struct scn *sc = scn_load(path, err, sizeof err);
		remove(path);
		if (!sc)
			fprintf(stderr, "\n%s\n", err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
		const struct scn_trace *t = sc->traces[0];
		int64_t gpu = 0;
		for (int64_t i = 0; i < t->njobs; i++) {
			const struct scn_trace_role *r = &t->shapes[t->jobs[i].shape].role[0];
			gpu += r->gpus ? 1000 * r->gpus : r->gpu_milli;
			CU_ASSERT_EQUAL(t->jobs[i].arrival_us, 2 * i);
			CU_ASSERT_EQUAL(t->jobs[i].run_us, 2 * t->njobs + 1 - 2 * i);
		}
		CU_ASSERT(gpu <= pads[k] * 2000);
		/* seed 1's draws, pinned: at 1.0 one copy of the 500 (2000 in all,
		 * the next draw passes it), at 3.0 seven copies, at 0.5 one job
		 * left */
		static const int64_t want[] = {3, 9, 1};
		CU_ASSERT_EQUAL(t->njobs, want[k]);
		if (k == 0)
			CU_ASSERT_EQUAL(gpu, 2000);
		CU_ASSERT_PTR_NOT_NULL_FATAL(t->orig_count);
		CU_ASSERT_EQUAL(t->orig_count[0] + (t->nshapes > 1 ? t->orig_count[1] : 0), 2);
		CU_ASSERT_EQUAL(sc->jobs[0].count, t->njobs);
		scn_free(sc);
	}
	const char *head = "cluster: [{name: n, count: 1, cores: 4, memory: 8GiB, gpus: 2, gpu_model: t4}]\n"
			   "policies: [fifo]\nworkload:\n  - name: p\n";
	snprintf(y, sizeof y, "%s    trace: {path: %s/tests/data/traces/alibaba/fgdx-pods.csv, "
		 "format: alibaba-openb-2023, offer_pad: 1.3}\n", head, root);
	char msg[256];
	snprintf(msg, sizeof msg, ":5:%d: offer_pad goes with offer: true",
		 (int)(strstr(y + strlen(head), "1.3") - (y + strlen(head))) + 1);
	h_expect_load_error(y, msg);
	snprintf(y, sizeof y, "%s    trace: {path: %s/tests/data/traces/alibaba/fgdx-pods.csv, "
		 "format: alibaba-openb-2023, offer: true, offer_pad: 0}\n", head, root);
	snprintf(msg, sizeof msg, ":5:%d: offer_pad '0' is outside (0, 100] (a multiple of the "
		 "cluster's GPU capacity)",
		 (int)(strstr(y + strlen(head), "0}") - (y + strlen(head))) + 1);
	h_expect_load_error(y, msg);
}

/* A trace's kinds to job models (trace-kinds.yaml explains it): kind 7
 * as WordCount jobs at the trace's times, the rest rigid trace jobs, on
 * the trace's one clock. */
static void trace_kinds(void)
{
	static const char *const pols[] = {"fifo", "label-dual"};
	for (int p = 0; p < 2; p++) {
		struct scn *sc;
		struct sim *s = h_run("tests/scenarios/hand/trace-kinds.yaml", pols[p], 0, &sc);
		CU_ASSERT_EQUAL(sc->jobs[0].count, 2);
		CU_ASSERT_EQUAL(sc->jobs[1].count, 2);
		CU_ASSERT_EQUAL(sc->jobs[0].type, JM_WORDCOUNT);
		CU_ASSERT_EQUAL(h_makespan(s), S(32));
		static const char *const grp[] = {"wc", "rest", "rest", "wc"};
		static const int idx[] = {0, 0, 1, 1};
		static const int64_t arr[] = {0, 10, 20, 30}, end[] = {2, 14, 25, 32};
		for (int i = 0; i < 4; i++) {
			const struct sim_job *j = h_job(s, grp[i], idx[i]);
			CU_ASSERT_PTR_NOT_NULL_FATAL(j);
			CU_ASSERT_EQUAL(j->arrival_us, S(arr[i]));
			h_expect_end(s, j, JOB_DONE, S(end[i]), "");
		}
		h_done(s, sc);
	}
	/* arrivals from a trace: its errors, at the key or value */
	char hand[1024], y[4096], msg[2048];
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(hand, sizeof hand - sizeof HAND_SWF - 1));
	strcat(hand, "/" HAND_SWF);
	const char *head = "cluster: [{name: n, count: 4, cores: 1, memory: 1GiB}]\n"
			   "policies: [{name: f, policy: fifo}]\n"
			   "workload:\n  - name: t\n    type: synthetic\n"
			   "    stages: [{name: a, tasks: 1, duration: 1s}]\n";
	snprintf(y, sizeof y, "%s    arrival: {trace: {path: %s}, at: 0s}\n", head, hand);
	h_expect_load_error(y, ":7:14: arrival from a trace takes no other key (got 2 keys)");
	snprintf(y, sizeof y, "%s    count: 3\n    arrival: {trace: {path: %s}}\n", head, hand);
	h_expect_load_error(y, ":7:12: count comes from the trace's jobs when the arrival is a "
			    "trace: leave it out");
	snprintf(y, sizeof y, "%s    arrival: {trace: {path: %s, offer: true}}\n", head, hand);
	snprintf(msg, sizeof msg, ":7:%d: offer does not go with an arrival from a trace "
		 "(offer-only places the trace's own jobs)", (int)(strstr(y + strlen(head), "true") -
							    (y + strlen(head))) + 1);
	h_expect_load_error(y, msg);
	char root[1024];
	snprintf(root, sizeof root, "%.*s", (int)(strlen(hand) - strlen("/" HAND_SWF)), hand);
	snprintf(y, sizeof y, "%s    arrival: {trace: {path: %s/tests/data/traces/spark/"
		 "hand-2stages.json}}\n", head, root);
	h_expect_load_error(y, ":7:22: a Spark event log is one application, not a list of "
			    "arrivals: write `- name: N, trace: {...}` in the workload for it");
	snprintf(y, sizeof y, "%s    arrival: {trace: {path: %s, kinds: {nope: [1]}}}\n", head,
		 hand);
	snprintf(msg, sizeof msg, ":7:%d: unknown key 'nope' in kinds (known: not)",
		 (int)(strstr(y + strlen(head), "nope") - (y + strlen(head))) + 1);
	h_expect_load_error(y, msg);
	snprintf(y, sizeof y, "cluster: [{name: n, count: 4, cores: 1, memory: 1GiB}]\n"
		 "policies: [{name: f, policy: fifo}]\nworkload:\n  - name: t\n    type: trace\n"
		 "    arrival: {trace: {path: %s}}\n", hand);
	h_expect_load_error(y, ":6:14: a job group of type trace is a workload entry `- name: N, "
			    "trace: {...}`; arrival from a trace is for the other job models");
	snprintf(y, sizeof y, "%s    arrival: {trace: {format: philly, path: %s/tests/data/traces/"
		 "philly/cluster_job_log-sample.json, kinds: [x]}}\n", head, root);
	snprintf(msg, sizeof msg, ":7:%d: format 'philly' has no job kinds (swf and "
		 "alibaba-pai-2020 have: docs/traces.md, \"Job kinds\")",
		 (int)(strstr(y + strlen(head), "[x]") - (y + strlen(head))) + 1);
	h_expect_load_error(y, msg);
	/* a last arrival past the limit of times (10^8 s), at load */
	char far[64];
	h_write_tmp(far, sizeof far, "; MaxNodes: 1\n; MaxProcs: 1\n"
		    "1 0 -1 1 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
		    "2 90000000000 -1 1 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n");
	snprintf(y, sizeof y, "%s    arrival: {trace: {format: swf, path: %s}}\n", head, far);
	snprintf(msg, sizeof msg, ":7:22: trace '%s': its last job arrives at 90000000000s, past "
		 "the limit of 100000000s", far);
	h_expect_load_error(y, msg);
	remove(far);
	snprintf(y, sizeof y, "%s    arrival: {trace: {path: %s, kinds: [\"42\"]}}\n", head, hand);
	snprintf(msg, sizeof msg, ":7:22: trace '%s' leaves no job (4 records read, 4 filtered, "
		 "0 skipped)", hand);
	h_expect_load_error(y, msg);
}

/* The hand-computed replay (trace-rigid.yaml explains it): every policy
 * gives makespan 16 s, job 4 waits 12 s. */
static void trace_rigid(void)
{
	static const char *const pols[] = {"fifo", "label-dual", "standalone"};
	for (int p = 0; p < 3; p++) {
		struct scn *sc;
		struct sim *s = h_run("tests/scenarios/hand/trace-rigid.yaml", pols[p], 0, &sc);
		CU_ASSERT_EQUAL(h_makespan(s), S(16));
		static const int64_t start[] = {0, 10, 10, 15}, end[] = {10, 15, 15, 16};
		for (int i = 0; i < 4; i++) {
			const struct sim_job *j = h_job(s, "swf", i);
			CU_ASSERT_PTR_NOT_NULL_FATAL(j);
			CU_ASSERT_EQUAL(j->start_us, S(start[i]));
			h_expect_end(s, j, JOB_DONE, S(end[i]), "");
		}
		CU_ASSERT_EQUAL(sim_nshapes(s), 3); /* 4, 2 and 1 processors */
		h_done(s, sc);
	}
}

/* Offer-only (trace-offer.yaml explains it): the hand log's jobs in the
 * order seed 1 shuffles them, one every 2 µs, each placed at once or
 * dropped; the placed ones hold until 9 µs. */
static void trace_offer(void)
{
	static const char *const pols[] = {"fifo", "label-dual", "standalone"};
	struct scn *sc = h_load("tests/scenarios/hand/trace-offer.yaml");
	CU_ASSERT(sc->offer);
	const struct scn_trace *t = sc->traces[0];
	CU_ASSERT_EQUAL_FATAL(t->njobs, 4);
	static const int order[] = {3, 4, 1, 2};
	for (int i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(t->jobs[i].id, order[i]);
		CU_ASSERT_EQUAL(t->jobs[i].arrival_us, 2 * i);
		CU_ASSERT_EQUAL(t->jobs[i].run_us, 9 - 2 * i);
	}
	if (t->jobs[0].id != 3 || t->jobs[1].id != 4 || t->jobs[2].id != 1)
		fprintf(stderr, "\n  offer order: %d %d %d %d\n", t->jobs[0].id, t->jobs[1].id,
			t->jobs[2].id, t->jobs[3].id);
	scn_free(sc);
	for (int p = 0; p < 6; p++) { /* then on nodes of speed 4: the same */
		struct sim *s = h_run(p < 3 ? "tests/scenarios/hand/trace-offer.yaml"
				      : "tests/scenarios/hand/trace-offer-fast.yaml",
				      pols[p % 3], 0, &sc);
		h_expect_end(s, h_job(s, "swf", 0), JOB_DONE, 9, "");
		h_expect_end(s, h_job(s, "swf", 1), JOB_DONE, 9, "");
		h_expect_end(s, h_job(s, "swf", 2), JOB_UNPLACEABLE, -1, "no-fit");
		h_expect_end(s, h_job(s, "swf", 3), JOB_UNPLACEABLE, -1, "no-fit");
		CU_ASSERT_EQUAL(h_job(s, "swf", 0)->nodes_used, 2);
		CU_ASSERT_EQUAL(h_job(s, "swf", 1)->nodes_used, 1);
		h_done(s, sc);
	}
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* Offer-only replications: replication 0 sees the load's order,
 * replication r > 0 that order shuffled again, keyed by (seed, r), and
 * each replication's order is the same whatever order the trace was in.
 * Pinned on the hand log (4 jobs; seed 1: replication 0 3 4 1 2, 1
 * 1 4 3 2, 2 3 1 4 2, each the code's draw), asked in the order 0 1 2
 * and then 2 1 0; on the openb default pod list (8152
 * pods) replications 1-3 differ from 0 and from one another, each a
 * permutation of the same pods. */
static void trace_offer_reps(void)
{
	struct scn *sc = h_load("tests/scenarios/hand/trace-offer.yaml");
	struct scn_trace *t = sc->traces[0];
	static const int order[3][4] = {{3, 4, 1, 2}, {1, 4, 3, 2}, {3, 1, 4, 2}};
	for (int pass = 0; pass < 2; pass++)
		for (int r = pass ? 2 : 0; pass ? r >= 0 : r < 3; r += pass ? -1 : 1) {
			scn_offer_order(sc, (uint32_t)r);
			for (int i = 0; i < 4; i++) {
				CU_ASSERT_EQUAL(t->jobs[i].id, order[r][i]);
				CU_ASSERT_EQUAL(t->jobs[i].arrival_us, 2 * i);
				CU_ASSERT_EQUAL(t->jobs[i].run_us, 9 - 2 * i);
			}
		}
	scn_free(sc);

	sc = h_load("scenarios/traces/openb-offer.yaml");
	t = sc->traces[0];
	int64_t n = t->njobs;
	CU_ASSERT_EQUAL_FATAL(n, 8152);
	int32_t *ids[4];
	for (int r = 0; r < 4; r++) {
		scn_offer_order(sc, (uint32_t)r);
		ids[r] = xmalloc((size_t)n * sizeof *ids[r]);
		for (int64_t i = 0; i < n; i++)
			ids[r][i] = t->jobs[i].id;
	}
	scn_offer_order(sc, 0);
	for (int64_t i = 0; i < n; i++)
		CU_ASSERT_EQUAL(t->jobs[i].id, ids[0][i]);
	for (int a = 0; a < 4; a++)
		for (int b = a + 1; b < 4; b++) {
			int64_t same = 0;
			for (int64_t i = 0; i < n; i++)
				same += ids[a][i] == ids[b][i];
			CU_ASSERT(same < n / 100); /* about 1 in n by chance */
		}
	for (int r = 0; r < 4; r++) /* the same pods: sorted, the same ids */
		qsort(ids[r], (size_t)n, sizeof *ids[r], cmp_i32);
	for (int r = 1; r < 4; r++)
		CU_ASSERT(memcmp(ids[0], ids[r], (size_t)n * sizeof *ids[r]) == 0);
	for (int r = 0; r < 4; r++)
		free(ids[r]);
	scn_free(sc);
}

/* Fractional executors under whole-core spark-standalone
 * (pai-fractional.yaml explains it). */
static void pai_fractional(void)
{
	static const char *const pols[] = {"fifo", "standalone"};
	static const int cores[] = {500, CLU_MILLI};
	for (int p = 0; p < 2; p++) {
		struct scn *sc;
		struct sim *s = h_run("tests/scenarios/hand/pai-fractional.yaml", pols[p], 0, &sc);
		const struct sim_job *j = h_job(s, "pai", 0);
		CU_ASSERT_EQUAL(j->start_us, 0);
		h_expect_end(s, j, JOB_DONE, S(10), "");
		CU_ASSERT_EQUAL(sim_nexecs(s), 2);
		CU_ASSERT_EQUAL(h_exec(0)->cores, cores[p]);
		CU_ASSERT_EQUAL(h_exec(1)->cores, cores[p]);
		h_done(s, sc);
	}
}

/* GPU shares and milli-cores (openb-shares.yaml explains it). */
static void openb_shares(void)
{
	static const struct {
		const char *pol;
		int64_t start[5], end[5];
	} want[] = {
		{"fifo", {0, 1, 2, 3, 10}, {10, 10, 10, 5, 14}},
		{"label-dual", {0, 1, 2, 3, 10}, {10, 10, 10, 5, 14}},
		{"standalone", {0, 1, 10, 10, 10}, {10, 10, 18, 12, 14}},
	};
	for (int p = 0; p < 3; p++) {
		struct scn *sc;
		struct sim *s = h_run("tests/scenarios/hand/openb-shares.yaml", want[p].pol, 0, &sc);
		for (int i = 0; i < 5; i++) {
			const struct sim_job *j = h_job(s, "pods", i);
			CU_ASSERT_EQUAL(j->start_us, S(want[p].start[i]));
			h_expect_end(s, j, JOB_DONE, S(want[p].end[i]), "");
		}
		if (p < 2) { /* the shares: executors in launch order p1 p2 p3 p4 p5 */
			CU_ASSERT_EQUAL(h_exec(0)->gpu_milli, 600);
			CU_ASSERT_EQUAL(h_exec(0)->gpu_share, 0);
			CU_ASSERT_EQUAL(h_exec(1)->gpu_milli, 500);
			CU_ASSERT_EQUAL(h_exec(1)->gpu_share, 1);
			CU_ASSERT_EQUAL(h_exec(2)->gpu_milli, 400);
			CU_ASSERT_EQUAL(h_exec(2)->gpu_share, 0); /* best fit: 400 left exactly */
			CU_ASSERT_EQUAL(h_exec(3)->cores, 100);   /* milli-cores */
			CU_ASSERT_EQUAL(h_exec(3)->gpus + h_exec(3)->gpu_milli, 0);
			CU_ASSERT_EQUAL(h_exec(4)->gpus, 1);
			CU_ASSERT_EQUAL(h_exec(4)->gpu_mask, 1); /* GPU 0, the lowest idle */
		} else { /* whole cores and GPUs */
			CU_ASSERT_EQUAL(h_exec(0)->cores, 2 * CLU_MILLI);
			CU_ASSERT_EQUAL(h_exec(0)->gpus, 1);
			CU_ASSERT_EQUAL(h_exec(0)->gpu_milli, 0);
			CU_ASSERT_EQUAL(h_exec(1)->gpu_mask, 2);
		}
		h_done(s, sc);
	}
}

/* Milli-cores past INT_MAX, oversubscribed by a memory-only calculator
 * (edge/milli-oversubscribed.yaml): no overflow, the run as before. */
static void milli_oversubscribed(void)
{
	struct scn *sc;
	struct sim *s = h_run("tests/scenarios/edge/milli-oversubscribed.yaml", "ps", 0, &sc);
	CU_ASSERT_EQUAL(h_makespan(s), S(1));
	CU_ASSERT_EQUAL(h_nexecs(), 300);
	CU_ASSERT_EQUAL(sim_cluster(s)->nodes[0].cores_free, 10000LL * CLU_MILLI);
	h_done(s, sc);
}

/* Scenario keys of trace entries, and their errors. */
static void trace_scenario(void)
{
	struct scn *sc = h_load("scenarios/traces/nasa-ipsc.yaml");
	CU_ASSERT_EQUAL(sc->ngroups, 1); /* the archive's machine: one pool of 128 */
	CU_ASSERT_EQUAL(sc->groups[0].count, 1);
	CU_ASSERT_EQUAL(sc->groups[0].cores, 128);
	CU_ASSERT_STRING_EQUAL(sc->groups[0].name, "ipsc1");
	CU_ASSERT_EQUAL(sc->njobgroups, 1);
	CU_ASSERT_EQUAL(sc->jobs[0].count, 18239);
	CU_ASSERT_EQUAL(sc->ntraces, 1);
	CU_ASSERT_PTR_EQUAL(sc->jobs[0].trace, sc->traces[0]);
	scn_free(sc);

	/* trace paths are relative to the scenario file, in /tmp here */
	char hand[1024], y[4096], msg[2048];
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(hand, sizeof hand - sizeof HAND_SWF - 1));
	strcat(hand, "/" HAND_SWF);
	const char *head = "cluster: [{name: n, count: 4, cores: 1, memory: 1GiB}]\n"
			   "policies: [{name: f, policy: fifo}]\n"
			   "workload:\n  - name: t\n";
	snprintf(y, sizeof y, "%s    trace: {format: swff, path: x}\n", head);
	h_expect_load_error(y, ":5:21: unknown trace format 'swff' (did you mean 'swf'?)");
	snprintf(y, sizeof y, "%s    trace: {format: swf}\n", head);
	h_expect_load_error(y, ":5:12: missing key 'path' in trace");
	snprintf(y, sizeof y, "%s    trace: {path: /nonexistent.swf}\n", head);
	h_expect_load_error(y, ":5:19: cannot open trace '/nonexistent.swf': No such file or "
			    "directory");
	/* the column of `at` in the trace line */
#define COL(at) ((int)(strstr(y + strlen(head), at) - (y + strlen(head))) + 1)
	snprintf(y, sizeof y, "%s    trace: {path: %s, window: {from: 10s, to: 5s}}\n", head, hand);
	snprintf(msg, sizeof msg, ":5:%d: window's to must come after its from", COL("5s}"));
	h_expect_load_error(y, msg);
	snprintf(y, sizeof y, "%s    trace: {path: %s, colour: red}\n", head, hand);
	snprintf(msg, sizeof msg, ":5:%d: unknown key 'colour' in trace (known: format, path, "
		 "window, first, users, queues, kinds, time_scale, executor, completed_only, strict, offer, offer_pad, "
		 "drop_nonpositive, cap_at_request, kill_at_request, sample, arrivals, estimate, "
		 "preempted, resume_cost)",
		 COL("colour"));
	h_expect_load_error(y, msg);
	snprintf(y, sizeof y, "%s    trace: {path: %s, preempted: pause}\n", head, hand);
	snprintf(msg, sizeof msg, ":5:%d: expected one of resume, restart for preempted, got "
		 "'pause'", COL("pause"));
	h_expect_load_error(y, msg);
	snprintf(y, sizeof y, "%s    trace: {path: %s, preempted: restart, resume_cost: 5s}\n", head,
		 hand);
	snprintf(msg, sizeof msg, ":5:%d: resume_cost does not go with preempted: restart (a job "
		 "that restarts resumes nothing)", COL("5s}"));
	h_expect_load_error(y, msg);
	snprintf(y, sizeof y, "%s    trace: {path: %s, cap_at_request: true, kill_at_request: true}\n",
		 head, hand);
	snprintf(msg, sizeof msg, ":5:%d: kill_at_request does not go with cap_at_request: a job "
		 "over its request is either cut to it (and completes) or killed at it",
		 COL("true}"));
	h_expect_load_error(y, msg);
	snprintf(y, sizeof y, "%s    trace: {path: %s, offer: true, kill_at_request: true}\n",
		 head, hand);
	snprintf(msg, sizeof msg, ":5:%d: kill_at_request does not go with offer: offer-only "
		 "reads no times", COL("true}"));
	h_expect_load_error(y, msg);
	snprintf(y, sizeof y, "%s    trace: {path: %s, cap_at_request: maybe}\n", head, hand);
	snprintf(msg, sizeof msg, ":5:%d: expected true or false, got 'maybe'", COL("maybe"));
	h_expect_load_error(y, msg);
	snprintf(y, sizeof y, "%s    trace: {path: %s, offer: true, drop_nonpositive: true}\n", head,
		 hand);
	snprintf(msg, sizeof msg, ":5:%d: drop_nonpositive does not go with offer: offer-only reads "
		 "no times", COL("true}"));
	h_expect_load_error(y, msg);
	snprintf(y, sizeof y, "%s    trace: {path: %s, offer: true, window: {to: 1h}}\n", head, hand);
	snprintf(msg, sizeof msg, ":5:%d: window does not go with offer: offer-only reads no times "
		 "(first N takes the first records instead)", COL("{to"));
	h_expect_load_error(y, msg);
	/* a reader's message without a line of its file: at the trace entry */
	char junk[64];
	h_write_tmp(junk, sizeof junk, "nothing a reader knows\n");
	snprintf(y, sizeof y, "%s    trace: {path: %s}\n", head, junk);
	snprintf(msg, sizeof msg, ":5:12: %s: cannot tell the trace's format from its content: "
		 "name it (format:, --format)", junk);
	h_expect_load_error(y, msg);
	remove(junk);
	snprintf(y, sizeof y, "%s    type: trace\n", head);
	h_expect_load_error(y, ":4:5: type trace is for jobs read from a trace: write `- trace: "
			    "{format: ..., path: ...}` in the workload");
	snprintf(y, sizeof y, "%s    trace: {path: %s, window: {from: 1h}}\n", head, hand);
	snprintf(msg, sizeof msg, ":5:12: trace '%s' leaves no job (4 records read, 4 filtered, "
		 "0 skipped)", hand);
	h_expect_load_error(y, msg);
	/* jobs larger than the cluster: 4 processors as one 4-core executor
	 * on 1-core nodes (jobs 1, 2, 3: 4, 2, 2 cores) are left out */
	snprintf(y, sizeof y, "%s    trace: {path: %s, executor: {cores: 4}}\n", head, hand);
	char path[64], err[512];
	h_write_tmp(path, sizeof path, y);
	sc = scn_load(path, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(sc->jobs[0].count, 1);
	CU_ASSERT_EQUAL(sc->traces[0]->skipped[TRS_TOO_BIG], 3);
	char w[1500], want[1600];
	CU_ASSERT_EQUAL(trace_warning(sc->traces[0], w, sizeof w), 1);
	snprintf(want, sizeof want, "%s: 3 of 4 records skipped (too-big 3)", hand);
	CU_ASSERT_STRING_EQUAL(w, want);
	scn_free(sc);
	remove(path);
	snprintf(y, sizeof y, "%s    trace: {path: %s, executor: {cores: 4}, strict: true}\n", head,
		 hand);
	snprintf(msg, sizeof msg, ":5:12: %s: job 1 asks for an executor of 4 cores, 1024 MiB, 0 "
		 "GPUs: no node holds one (too-big; strict: not skipped)", hand);
	h_expect_load_error(y, msg);
#undef COL
}

/* hetsim trace info: what it prints for the hand log (its four jobs:
 * runs 10, 5, 5, 1 s; 4, 2, 2, 1 processors). */
static void trace_info_cli(void)
{
	char *out = NULL, *err = NULL;
	int rc = h_hetsim("trace info " HAND_SWF, &out, &err);
	CU_ASSERT_EQUAL(rc, 0);
	const char *want = "trace " HAND_SWF "\n"
			   "  format                 swf\n"
			   "  records                4\n"
			   "  jobs                   4\n"
			   "  distinct demands       3\n"
			   "  users                  3\n"
			   "  queues                 2\n"
			   "  submissions            0 .. 3 s (span 3 s)\n"
			   "  run time               p50 5  p90 10  p99 10  max 10 s\n"
			   "  cores per job          p50 2  p90 4  p99 4  max 4 cores\n"
			   "  tasks                  9\n"
			   "  jobs with GPUs         0\n"
			   "  with requested time    2\n"
			   "  kinds                  0: 4 jobs without one\n"
			   "  left out               none\n"
			   "  clamped                0\n";
	CU_ASSERT_STRING_EQUAL(out, want);
	if (strcmp(out, want))
		fprintf(stderr, "\n%s", out);
	free(out);
	free(err);
	rc = h_hetsim("trace info " HAND_SWF " --format nope", &out, &err);
	CU_ASSERT_EQUAL(rc, 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim trace: option '--format': unknown format 'nope' "
			       "(hetsim trace formats lists them)\n");
	free(out);
	free(err);
	rc = h_hetsim("trace info /nonexistent", &out, &err);
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT_STRING_EQUAL(err, "/nonexistent:0:0: cannot open: No such file or directory\n");
	free(out);
	free(err);
}

/* Which way trace info reads a file, decided before reading it (it read
 * the jobs and, when they failed, the node list: an SWF file's broken
 * job section gave its header's nodes and exit 0): a node list by what
 * the file says it is, else the jobs, whose failure is the command's. */
static void trace_info_kinds(void)
{
	static const struct {
		const char *path, *format;
		bool nodes;
	} cases[] = {
		{"tests/data/traces/alibaba/hand-nodes.csv", "alibaba-openb-2023", true},
		{"tests/data/traces/alibaba/hand-pods.csv", "alibaba-openb-2023", false},
		{"tests/data/traces/philly/cluster_machine_list.csv", "philly", true},
		{"tests/data/traces/philly/cluster_job_log-sample.json", "philly", false},
		{"tests/data/traces/alibaba/pai", "alibaba-pai-2020", false}, /* a folder: its jobs */
		{"tests/data/traces/alibaba/pai/pai_machine_spec.csv", "alibaba-pai-2020", true},
		{HAND_SWF, "swf", false},            /* its header's nodes are for a cluster entry */
		{"/nonexistent", "swf", false},      /* trace_read says why */
		{"/nonexistent", "alibaba-openb-2023", false},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		CU_ASSERT_EQUAL(trace_node_list(cases[c].path, cases[c].format), cases[c].nodes);
		if (trace_node_list(cases[c].path, cases[c].format) != cases[c].nodes)
			fprintf(stderr, "\n  %s as %s\n", cases[c].path, cases[c].format);
	}
	char *out = NULL, *err = NULL;
	CU_ASSERT_EQUAL(h_hetsim("trace info tests/data/traces/alibaba/pai/pai_machine_spec.csv "
				 "--format alibaba-pai-2020", &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "nodes                  1897\n"));
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out), free(err);
	CU_ASSERT_EQUAL(h_hetsim("trace info tests/data/traces/philly/cluster_machine_list.csv",
				 &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "nodes                  552\n"));
	free(out), free(err);
	/* a pod list's skips: the warning run prints, on standard error */
	CU_ASSERT_EQUAL(h_hetsim("trace info tests/data/traces/alibaba/pai-sample", &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(err, "warning: tests/data/traces/alibaba/pai-sample: 4 of 10 "
			       "records skipped (no-runtime 2, negative-time 1, no-demand 1), 2 "
			       "clamped\n");
	CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "  jobs                   6\n"));
	free(out), free(err);
}

/* jobs.csv carries each trace job's own number (trace-ids.yaml: a window
 * and first 3 of the NASA log; the numbers by awk there); a job of a
 * hand-written group has none. */
static void trace_ids(void)
{
	char dir[] = "/tmp/hetsim-tid-XXXXXX", args[300], path[300], *out, *err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(args, sizeof args, "run tests/scenarios/hand/trace-ids.yaml -q -o %s", dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	snprintf(path, sizeof path, "%s/jobs.csv", dir);
	char *jobs = h_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jobs);
	CU_ASSERT_PTR_NOT_NULL(strstr(jobs, ",gpus,reason,trace_id\n"));
	static const char *const ids[] = {"0,nasa,0", "1,nasa,1", "2,nasa,2"};
	static const char *const want[] = {",,417\n", ",,501\n", ",,507\n"};
	for (int i = 0; i < 3; i++) {
		const char *row = strstr(jobs, ids[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(row);
		const char *end = strchr(row, '\n');
		CU_ASSERT(end && !strncmp(end + 1 - strlen(want[i]), want[i], strlen(want[i])));
	}
	free(jobs);
	h_rmtree(dir);
}

/* `run -r 3` on an offer-only scenario: each replication in its own
 * order (trace_offer_reps pins them: 3 4 1 2, 1 4 3 2, 3 1 4 2 on the
 * 4 cores).  Replication 0 places 3 and 4 and drops 1 and 2; 1 places
 * job 1 (4 cores) and drops the other three; 2 places 3 and 4.  runs.csv's
 * done and unplaceable per replication, by hand: 2 2, 1 3, 2 2. */
static void trace_offer_run(void)
{
	char dir[] = "/tmp/hetsim-offer-XXXXXX", args[300], path[300], *out, *err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(args, sizeof args, "run tests/scenarios/hand/trace-offer.yaml -r 3 -p fifo -q -o %s",
		 dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	snprintf(path, sizeof path, "%s/runs.csv", dir);
	char *runs = h_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	/* scenario,policy,replication,seed,jobs,counted,done,failed,timed_out,unplaceable */
	static const char *const want[] = {"trace-offer,fifo,0,1,4,4,2,0,0,2,",
					   "trace-offer,fifo,1,1,4,4,1,0,0,3,",
					   "trace-offer,fifo,2,1,4,4,2,0,0,2,"};
	for (int r = 0; r < 3; r++)
		CU_ASSERT_PTR_NOT_NULL(strstr(runs, want[r]));
	free(runs);
	h_rmtree(dir);
}

/* The batch logs' input filter by hand (swf-filter.yaml works out both):
 * drop_nonpositive leaves out jobs 2, 4 and 5 (run time 0, no request,
 * request 0: counted as nonpositive, not as a warning), cap_at_request
 * cuts job 3's 30 s to its 20 s; the trace read through trace_read and
 * run under fifo, against the same file unfiltered; a bad value and the
 * offer-only combination refused with file, line and column. */
static void trace_batch_filter(void)
{
	const char *path = "tests/data/traces/swf/filter.swf";
	struct trace_opts o = {.time_scale = 1, .exec_cores = 1, .drop_nonpositive = true,
			       .cap_at_request = true};
	char err[512], w[512];
	struct scn_trace *t = trace_read(path, &o, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(t->njobs, 2);
	CU_ASSERT_EQUAL(t->skipped[TRS_NONPOSITIVE], 3);
	CU_ASSERT_EQUAL(t->capped, 1);
	CU_ASSERT_EQUAL(t->jobs[0].id, 1);
	CU_ASSERT_EQUAL(t->jobs[0].run_us, S(10));
	CU_ASSERT_EQUAL(t->jobs[1].id, 3);
	CU_ASSERT_EQUAL(t->jobs[1].run_us, S(20));
	CU_ASSERT_EQUAL(trace_warning(t, w, sizeof w), 0); /* chosen, not a warning */
	scn_trace_free(t);
	o.drop_nonpositive = o.cap_at_request = false;
	t = trace_read(path, &o, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(t->njobs, 5);
	CU_ASSERT_EQUAL(t->skipped[TRS_NONPOSITIVE], 0);
	CU_ASSERT_EQUAL(t->capped, -1);
	CU_ASSERT_EQUAL(t->jobs[2].run_us, S(30));
	scn_trace_free(t);

	struct scn *sc;
	struct sim *s = h_run("tests/scenarios/hand/swf-filter.yaml", "fifo", 0, &sc);
	CU_ASSERT_EQUAL(sim_njobs(s), 2);
	CU_ASSERT_EQUAL(h_makespan(s), S(22));
	h_done(s, sc);
	s = h_run("tests/scenarios/hand/swf-filter-off.yaml", "fifo", 0, &sc);
	CU_ASSERT_EQUAL(sim_njobs(s), 5);
	CU_ASSERT_EQUAL(h_makespan(s), S(32));
	h_done(s, sc);

	char *out = NULL, *e = NULL;
	CU_ASSERT_EQUAL(h_hetsim("trace info tests/data/traces/swf/filter.swf --drop-nonpositive "
				 "--cap-at-request", &out, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "left out               nonpositive 3\n"));
	CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "capped at request      1\n"));
	free(out), free(e);
}

/* kill_at_request by hand (swf-kill.yaml works it out): job 1, over its
 * request, is killed at it (timed out, time-limit) and job 3 starts then;
 * counted by trace info; refused beside cap_at_request or offer. */
static void trace_kill_at_request(void)
{
	struct scn *sc;
	struct sim *s = h_run("tests/scenarios/hand/swf-kill.yaml", "fifo", 0, &sc);
	CU_ASSERT_EQUAL(sc->traces[0]->killed, 1);
	h_expect_end(s, h_job(s, "swf", 0), JOB_TIMED_OUT, S(5), "time-limit");
	h_expect_end(s, h_job(s, "swf", 1), JOB_DONE, S(4), "");
	CU_ASSERT_EQUAL(h_job(s, "swf", 2)->start_us, S(5));
	h_expect_end(s, h_job(s, "swf", 2), JOB_DONE, S(11), "");
	CU_ASSERT_EQUAL(h_makespan(s), S(11));
	h_done(s, sc);
	char *out = NULL, *e = NULL;
	CU_ASSERT_EQUAL(h_hetsim("trace info tests/data/traces/swf/kill.swf --kill-at-request",
				 &out, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "killed at request      1\n"));
	free(out), free(e);
	CU_ASSERT_EQUAL(h_hetsim("trace info tests/data/traces/swf/kill.swf --kill-at-request "
				 "--cap-at-request", &out, &e), 2);
	CU_ASSERT_PTR_NOT_NULL(e && strstr(e, "option '--kill-at-request' does not go with "
					  "'--cap-at-request'"));
	free(out), free(e);
}

/* Python's random as the PAI simulator draws with it (input/pyrandom.h):
 * outputs of CPython 3.11's random.Random(n).getrandbits(32) and
 * .shuffle(list(range(k))). */
static void pyrandom_cpython(void)
{
	struct pyr r;
	pyr_seed(&r, 42);
	CU_ASSERT_EQUAL(pyr_u32(&r), 2746317213u);
	CU_ASSERT_EQUAL(pyr_u32(&r), 478163327u);
	CU_ASSERT_EQUAL(pyr_u32(&r), 107420369u);
	int x[10], want[10] = {7, 3, 2, 8, 5, 6, 9, 4, 0, 1};
	for (int i = 0; i < 10; i++)
		x[i] = i;
	pyr_seed(&r, 42);
	pyr_shuffle(&r, x, 10, sizeof *x);
	CU_ASSERT_EQUAL(memcmp(x, want, sizeof x), 0);
	static int y[2000];
	int want_y[10] = {161, 562, 1877, 1034, 1575, 48, 655, 1873, 992, 9};
	for (int i = 0; i < 2000; i++)
		y[i] = i;
	pyr_seed(&r, 7);
	pyr_shuffle(&r, y, 2000, sizeof *y);
	CU_ASSERT_EQUAL(memcmp(y, want_y, sizeof want_y), 0);
	int z[5], want_z[5] = {1, 0, 3, 2, 4}; /* a seed of two 32-bit words */
	for (int i = 0; i < 5; i++)
		z[i] = i;
	pyr_seed(&r, (1ULL << 40) + 5);
	pyr_shuffle(&r, z, 5, sizeof *z);
	CU_ASSERT_EQUAL(memcmp(z, want_z, sizeof z), 0);
}

/* The PAI set-up's trace keys by hand (tests/scenarios/hand/pai-sim.yaml
 * works them out): sample, arrivals and estimate as read, then sjf, the
 * scanning fifo and fifo on them. */
static void pai_sim_hand(void)
{
	const char *path = "tests/data/traces/alibaba/pai-sim/hand-10.csv";
	char err[512];
	/* sample {jobs: 3, seed: 42}: CPython's shuffle of rows 0..9 begins 7
	 * 3 2: ids 4 (15 s), 1 (7 s), 9 (4 s), then by submission */
	struct trace_opts o = {.time_scale = 1, .exec_cores = 1, .sample_jobs = 3,
			       .sample_seed = 42};
	struct scn_trace *t = trace_read(path, &o, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL_FATAL(t->njobs, 3);
	static const int sid[3] = {9, 1, 4}, sat[3] = {4, 7, 15};
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(t->jobs[i].id, sid[i]);
		CU_ASSERT_EQUAL(t->jobs[i].arrival_us, S(sat[i]));
	}
	CU_ASSERT_EQUAL(t->skipped[TRS_FILTER], 7);
	scn_trace_free(t);
	/* arrivals {batch: 2, every: 10 s}, estimate user_dur */
	o = (struct trace_opts){.time_scale = 1, .exec_cores = 1, .batch = 2,
				.batch_every_us = S(10), .estimate = "user_dur"};
	t = trace_read(path, &o, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL_FATAL(t->njobs, 10);
	static const int bid[10] = {3, 5, 1, 9, 2, 7, 4, 8, 6, 10};
	static const double req[10] = {10, 30, 40, 5, -1, 2.5, -1, -1, -1, -1};
	for (int i = 0; i < 10; i++) {
		CU_ASSERT_EQUAL(t->jobs[i].id, bid[i]);
		CU_ASSERT_EQUAL(t->jobs[i].arrival_us, S(10 * (i / 2)));
		CU_ASSERT_EQUAL(t->jobs[i].req_us, req[i] < 0 ? -1 : S(req[i]));
	}
	scn_trace_free(t);

	static const char *const pols[] = {"sjf", "fifo-scan", "fifo"};
	static const int start[3][11] = { /* by job id 1..10 */
		{0, 26, 20, 0, 34, 0, 40, 20, 34, 10, 40},
		{0, 20, 28, 0, 31, 0, 40, 28, 33, 10, 40},
		{0, 20, 28, 0, 34, 0, 40, 33, 36, 28, 40}};
	for (int p = 0; p < 3; p++) {
		struct scn *sc;
		struct sim *s = h_run("tests/scenarios/hand/pai-sim.yaml", pols[p], 0, &sc);
		CU_ASSERT_EQUAL(h_makespan(s), S(49));
		for (int i = 0; i < sim_njobs(s); i++) {
			const struct sim_job *j = sim_job(s, i);
			int id = sc->traces[0]->jobs[j->index].id;
			CU_ASSERT_EQUAL(j->start_us, S(start[p][id]));
			CU_ASSERT_EQUAL(j->status, JOB_DONE);
		}
		h_done(s, sc);
	}
}

/* A node's GPUs as a pool, by hand (gpu-pool.yaml works it out): three
 * shares of 0.6 GPU on 2 GPUs fit the pool, not GPU by GPU; a whole GPU
 * then waits either way; the node's outage takes and gives back all of
 * the pool; a pool of 10 000 GPUs loads, 65 GPUs without it do not. */
static void gpu_pool_hand(void)
{
	static const int start[2][6] = {{0, 0, 0, 0, 10, 26}, {0, 0, 0, 10, 10, 26}};
	static const char *const file[2] = {"tests/scenarios/hand/gpu-pool.yaml",
					    "tests/scenarios/hand/gpu-pool-off.yaml"};
	for (int p = 0; p < 2; p++) {
		struct scn *sc;
		struct sim *s = h_run(file[p], "fifo-scan", 0, &sc);
		CU_ASSERT_EQUAL(sim_cluster(s)->nodes[0].pool, p == 0);
		CU_ASSERT_EQUAL(h_makespan(s), S(29));
		for (int i = 0; i < sim_njobs(s); i++) {
			const struct sim_job *j = sim_job(s, i);
			int id = sc->traces[0]->jobs[j->index].id;
			CU_ASSERT_EQUAL(j->start_us, S(start[p][id]));
			h_expect_end(s, j, JOB_DONE, S(start[p][id] + (id == 5 ? 3 : 10)), "");
		}
		const struct clu_node *n = &sim_cluster(s)->nodes[0]; /* all given back */
		CU_ASSERT_EQUAL(n->gpus_free, 2);
		if (p == 0)
			CU_ASSERT_EQUAL(n->pool_m, 2 * CLU_GPU_MILLI);
		h_done(s, sc);
	}
	char path[64], err[512];
	h_write_tmp(path, sizeof path,
		    "cluster: [{name: n, cores: 200000, memory: 1GiB, gpus: 10000, gpu_model: g, "
		    "gpu_pool: true}]\nworkload: [{name: w, type: wordcount, input: 64MiB}]\n"
		    "policies: [fifo]\n");
	struct scn *sc = scn_load(path, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL(sc);
	if (sc) {
		CU_ASSERT(sc->groups[0].gpu_pool);
		CU_ASSERT_EQUAL(sc->groups[0].gpus, 10000);
		CU_ASSERT_EQUAL(sc->groups[0].cores, 200000);
	} else {
		fprintf(stderr, "\n  %s\n", err);
	}
	scn_free(sc);
	remove(path);
	h_expect_load_error("cluster: [{name: n, cores: 8, memory: 1GiB, gpus: 65, gpu_model: g}]\n"
			    "workload: [{name: w, type: wordcount, input: 64MiB}]\n",
			    ":1:51: '65' is above the limit of 64 GPUs per node (gpu_pool: true for "
			    "more)");
}

/* The PAI simulator's set-up on the made-up table (scenarios/pai/,
 * tests/data/traces/README.md): every job's JCT as the simulator gave it
 * (alibaba/clusterdata 7a6c496e, its pai-sim-jobs.csv), and its summary:
 * avg_jct and wait_time, means over instances (the simulator counts
 * each instance of a job), and its makespan, one second after the last
 * end (its loop steps past it). */
static void pai_sim_published(void)
{
	/* whole GPUs on 64 GPUs, then shares too on a pool of 64 */
	static const struct { const char *scn, *pol, *out; } runs[] = {
		{"scenarios/pai/gen-2000.yaml", "SJF", ""},
		{"scenarios/pai/gen-2000.yaml", "FIFO", ""},
		{"scenarios/pai/gen-2000-user.yaml", "SJU", ""},
		{"scenarios/pai/gen-2000-group.yaml", "SJG", ""},
		{"scenarios/pai/gen-2000-group-gpu.yaml", "SJGG", ""},
		{"scenarios/pai/gen-2000-shares.yaml", "SJF", "shares-"},
		{"scenarios/pai/gen-2000-shares.yaml", "FIFO", "shares-"},
		{"scenarios/pai/gen-2000-shares-user.yaml", "SJU", "shares-"},
		{"scenarios/pai/gen-2000-shares-group.yaml", "SJG", "shares-"},
		{"scenarios/pai/gen-2000-shares-group-gpu.yaml", "SJGG", "shares-"}};
	const char *dir = "tests/data/traces/alibaba/pai-sim/";
	char path[256], line[256];
	for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
		/* the simulator's: jct by job id (instances alike), its summary */
		static int64_t jct[10008];
		for (int i = 0; i < 10008; i++)
			jct[i] = -1;
		snprintf(path, sizeof path, "%s%spai-sim-jobs.csv", dir, runs[r].out);
		FILE *f = fopen(path, "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		char pol[16];
		int id, sub, dur, j;
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "%15[^,],%d,%d,%d,%d", pol, &id, &sub, &dur, &j) == 5 &&
			    !strcmp(pol, runs[r].pol) && id >= 0 && id < 10008)
				jct[id] = j;
		fclose(f);
		snprintf(path, sizeof path, "%s%spai-sim-summary.csv", dir, runs[r].out);
		f = fopen(path, "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		double avg = -1, wait = -1, span = -1;
		int done = -1;
		while (fgets(line, sizeof line, f)) {
			double a, w, m;
			int d;
			if (sscanf(line, "%15[^,],%lf,%lf,%lf,%d", pol, &a, &w, &m, &d) == 5 &&
			    !strcmp(pol, runs[r].pol))
				avg = a, wait = w, span = m, done = d;
		}
		fclose(f);
		CU_ASSERT_FATAL(done > 0);

		struct scn *sc;
		struct sim *s = h_run(runs[r].scn, runs[r].pol, 0, &sc);
		CU_ASSERT_EQUAL(sim_njobs(s), 1000);
		const struct scn_trace *t = sc->traces[0];
		int same = 0, inst = 0;
		double sum_jct = 0, sum_wait = 0;
		for (int i = 0; i < sim_njobs(s); i++) {
			const struct sim_job *jb = sim_job(s, i);
			const struct scn_trace_job *tj = &t->jobs[jb->index];
			int64_t mine = (jb->end_us - jb->arrival_us) / 1000000;
			same += jb->status == JOB_DONE && tj->id >= 0 && tj->id < 10008 &&
				jct[tj->id] == mine;
			int n = t->shapes[tj->shape].role[0].count;
			inst += n;
			sum_jct += (double)n * (double)mine;
			sum_wait += (double)n * (double)(mine - tj->run_us / 1000000);
		}
		CU_ASSERT_EQUAL(same, 1000);
		CU_ASSERT_EQUAL(inst, done);
		CU_ASSERT_DOUBLE_EQUAL(sum_jct / inst, avg, 0.005);
		CU_ASSERT_DOUBLE_EQUAL(sum_wait / inst, wait, 0.005);
		CU_ASSERT_EQUAL(h_makespan(s) + S(1), S(span));
		if (same != 1000)
			fprintf(stderr, "\n  %s %s: %d of 1000 JCTs as the simulator's\n", runs[r].scn,
				runs[r].pol, same);
		h_done(s, sc);
	}
}

/* The tiresias-sim table read by hand: num_gpu executors of 1 GPU, a
 * task each; duration truncated; num_gpu 0 and a negative duration
 * skipped and counted; a fraction in submit_time, a missing column, a
 * value that is not a number: errors with line and column.  (The trace
 * keys preempted and resume_cost, with their errors: trace_scenario.) */
static void tiresias_sim_read(void)
{
	char path[64], err[512];
	h_write_tmp(path, sizeof path,
		    "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"
		    "4,2,0,10,vgg19,10.9,3\n7,0,5,1,x,10,3\n2,1,3,1,x,-1,3\n9,8,3,1,x,7,3\n");
	struct trace_opts o = {.time_scale = 1, .exec_cores = 1};
	struct scn_trace *t = trace_read(path, &o, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL_FATAL(t->njobs, 2);
	static const int id[2] = {4, 9}, at[2] = {0, 3}, gpus[2] = {2, 8}, run[2] = {10, 7};
	for (int i = 0; i < 2; i++) {
		const struct scn_trace_job *j = &t->jobs[i];
		const struct scn_trace_role *r = &t->shapes[j->shape].role[0];
		CU_ASSERT_EQUAL(j->id, id[i]);
		CU_ASSERT_EQUAL(j->arrival_us, S(at[i]));
		CU_ASSERT_EQUAL(j->run_us, S(run[i]));
		CU_ASSERT_EQUAL(r->count, gpus[i]);
		CU_ASSERT_EQUAL(r->gpus, 1);
		CU_ASSERT_EQUAL(r->cpu_milli, CLU_MILLI);
		CU_ASSERT_EQUAL(r->mem_mib, 1024);
	}
	CU_ASSERT_EQUAL(t->skipped[TRS_NO_DEMAND], 1);
	CU_ASSERT_EQUAL(t->skipped[TRS_NEG_TIME], 1);
	scn_trace_free(t);
	static const struct { const char *text, *want; } bad[] = {
		{"job_id,num_gpu,submit_time,duration\n1,2,2.5,10\n",
		 ":2:5: submit_time '2.5' is not a whole number of at most 10 digits"},
		{"job_id,num_gpu,duration\n1,2,10\n", ":1:1: no column 'submit_time' in the header"},
		{"job_id,num_gpu,submit_time,duration\n1,x,0,10\n",
		 ":2:3: num_gpu 'x' is not a whole number of at most 10 digits"}};
	remove(path);
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		h_write_tmp(path, sizeof path, bad[k].text);
		o = (struct trace_opts){.time_scale = 1, .exec_cores = 1, .format = "tiresias-sim"};
		t = trace_read(path, &o, err, sizeof err);
		CU_ASSERT_PTR_NULL(t);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[k].want));
		if (!strstr(err, bad[k].want))
			fprintf(stderr, "\n  got: %s\n", err);
		scn_trace_free(t);
		remove(path);
	}
}

/* Tiresias's simulator on its own trace (SymbioticLab/Tiresias 959f9b08,
 * simulator/run_sim.py under Python 2.7.18, dlas-gpu, count placement;
 * tests/data/published/tiresias/): every job's JCT, whole seconds, as the
 * reference's job.csv has it, on the 60-job trace at three cluster sizes
 * and on its x10 version (demotions, preemptions, resumes; once with the
 * guard at 2, promotions), and its preemptions (of jobs; hetsim counts
 * the executors, one a GPU). */
static void tiresias_published(void)
{
	static const struct { const char *scn, *pol, *ref; int preempt; } runs[] = {
		{"scenarios/tiresias/60-job-n32g4.yaml", "dlas-gpu", "60_job-n32g4", 0},
		{"scenarios/tiresias/60-job-n4g4.yaml", "dlas-gpu", "60_job-n4g4", 0},
		{"scenarios/tiresias/60-job-n2g4.yaml", "dlas-gpu", "60_job-n2g4", 0},
		{"scenarios/tiresias/x10-n4g4.yaml", "dlas-gpu", "60_job_x10-n4g4", 33},
		{"scenarios/tiresias/x10-n2g4.yaml", "dlas-gpu", "60_job_x10-n2g4", 24},
		{"scenarios/tiresias/x10-n2g4-starve2.yaml", "dlas-gpu-2", "60_job_x10-n2g4-starve2",
		 32}};
	char path[256], line[512];
	for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
		/* job.csv: time,job_id,num_gpu,submit_time,start_time,end_time,
		 * executed_time,JCT,duration,pending_time,preempt,resume,promote */
		int64_t jct[60];
		int n = 0, preempt = 0, pexecs = 0; /* each GPU of a job is an executor */
		for (int i = 0; i < 60; i++)
			jct[i] = -1;
		snprintf(path, sizeof path, "tests/data/published/tiresias/%s.job.csv", runs[r].ref);
		FILE *f = fopen(path, "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		while (fgets(line, sizeof line, f)) {
			long t, id, g, sub, st, end, ex, j, dur, pend, pre;
			if (sscanf(line, "%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld", &t, &id, &g, &sub,
				   &st, &end, &ex, &j, &dur, &pend, &pre) == 11 && id >= 0 && id < 60) {
				jct[id] = j;
				preempt += (int)pre;
				pexecs += (int)(pre * g);
				n++;
			}
		}
		fclose(f);
		CU_ASSERT_EQUAL_FATAL(n, 60);
		CU_ASSERT_EQUAL(preempt, runs[r].preempt);
		struct scn *sc;
		struct sim *s = h_run(runs[r].scn, runs[r].pol, 0, &sc);
		CU_ASSERT_EQUAL(sim_njobs(s), 60);
		const struct scn_trace *t = sc->traces[0];
		int same = 0;
		for (int i = 0; i < sim_njobs(s); i++) {
			const struct sim_job *jb = sim_job(s, i);
			int id = t->jobs[jb->index].id;
			int64_t mine = jb->end_us - jb->arrival_us;
			bool ok = jb->status == JOB_DONE && id >= 0 && id < 60 && S(jct[id]) == mine;
			same += ok;
			if (!ok)
				fprintf(stderr, "\n  %s: job %d: JCT %.6f s, the reference's %ld s\n",
					runs[r].scn, id, (double)mine / 1e6, (long)jct[id >= 0 && id < 60 ? id : 0]);
		}
		CU_ASSERT_EQUAL(same, 60);
		CU_ASSERT_EQUAL(sim_totals(s)->preemptions, pexecs);
		h_done(s, sc);
	}
}

int test_suite_trace(void)
{
	TEST_SUITE("trace",
		   {"jobs.csv: a trace job's own number (trace_id)", trace_ids},
		   {"swf: the NASA iPSC log's counts (awk) and its header's machine", swf_nasa_counts},
		   {"swf: executors, memory, requested time, users, queues, status", swf_mapping},
		   {"swf: malformed records are errors with line and column", swf_malformed},
		   {"swf: inconsistent records skipped, clamped, counted; strict", swf_inconsistent},
		   {"trace: window, first N, users, queues, time scale", trace_filters},
		   {"trace: hand-computed rigid replay under three policies", trace_rigid},
		   {"pai: job kinds from task names", pai_kinds},
		   {"trace: kinds to job models, arrivals on the trace's clock", trace_kinds},
		   {"trace: offer_pad grows or shrinks the offered jobs by sampling", offer_pad},
		   {"trace: offer-only, shuffled, placed at once or dropped", trace_offer},
		   {"trace: offer-only replications, each its own order", trace_offer_reps},
		   {"trace: run -r 3 on an offer-only scenario, by hand", trace_offer_run},
		   {"trace: drop_nonpositive and cap_at_request, by hand", trace_batch_filter},
		   {"trace: kill_at_request, by hand", trace_kill_at_request},
		   {"pai-sim: the PAI simulator's set-up, its five policies' results", pai_sim_published},
		   {"pai-sim: sample, arrivals, estimate, scanning fifo, by hand", pai_sim_hand},
		   {"tiresias-sim: the table read by hand, its errors", tiresias_sim_read},
		   {"tiresias-sim: the reference simulator's per-job JCTs, six runs",
		    tiresias_published},
		   {"pyrandom: CPython's MT19937 seeding and shuffle", pyrandom_cpython},
		   {"cluster: a node's GPUs as a pool, by hand", gpu_pool_hand},
		   {"trace: openb pods, GPU shares by best fit, a milli-core fit", openb_shares},
		   {"kernel: milli-cores oversubscribed past INT_MAX", milli_oversubscribed},
		   {"trace: fractional executors under spark-standalone's whole cores",
		    pai_fractional},
		   {"trace: scenario entries and their errors; jobs too big skipped", trace_scenario},
		   {"trace: hetsim trace info", trace_info_cli},
		   {"trace: trace info reads a node list or the jobs, never one for the other",
		    trace_info_kinds});
	return 0;
}
