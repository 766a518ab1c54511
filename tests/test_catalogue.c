/* test_catalogue.c - docs/errors.md's cases through the commands a user
 * types: for each, the exit status, the exact standard error, and the
 * listing of a scratch folder before and after (h_tree: every file's
 * name, size and bytes), the folder holding the case's inputs and an
 * earlier run's result set that each case names as its output (-o).  So
 * a case that writes anything at all, or touches the old results,
 * fails.  (The bad scenario files of tests/scenarios/bad/ are the
 * same way in test_scenario.c, test_bad_files; the cases that need a
 * signal, a full disk or a changed file are in their own tests, each
 * comparing a listing too: test_commit_undone, test_resume,
 * interrupt_run, figure_whole.) */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "test.h"


/* "@" in s replaced by dir, "#" by num, into buf. */
static void at(char *buf, size_t len, const char *s, const char *dir, const char *num)
{
	size_t n = 0;
	for (; *s && n + 1 < len; s++) {
		if (*s == '@' || *s == '#') {
			n += (size_t)snprintf(buf + n, len - n, "%s", *s == '@' ? dir : num);
			if (n >= len)
				n = len - 1;
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
}

/* Whether s is pattern p, whose "*" stands for any text (an estimate's
 * figures). */
static bool glob(const char *p, const char *s)
{
	for (; *p; p++, s++) {
		if (*p == '*') {
			for (const char *t = s; ; t++) {
				if (glob(p + 1, t))
					return true;
				if (!*t)
					return false;
			}
		}
		if (*s != *p)
			return false;
	}
	return *s == '\0';
}

static void put(const char *dir, const char *name, const char *text, size_t len)
{
	char p[600];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(text, 1, len, f);
	fclose(f);
}
#define PUT(dir, name, text) put(dir, name, text, sizeof text - 1)

static const struct kase {
	const char *args;   /* the command line, @ the scratch folder */
	int rc;
	const char *err;    /* its standard error, exactly */
} cases[] = {
	/* files that are not what they claim */
	{"run @/nope.yaml -q -o @/set", 1, "@/nope.yaml:0:0: cannot open: No such file or directory\n"},
	{"run @/pipe -q -o @/set", 1, "@/pipe:0:0: cannot open: not a regular file (a named pipe)\n"},
	{"run @/cost.yaml -q -o @/set", 1,
	 "@/cost.yaml:3:13: cannot open cost model 'pipe' (from the scenario's folder: @/pipe): "
	 "not a regular file (a named pipe)\n"},
	{"run @/trace.yaml -q -o @/set", 1,
	 "@/trace.yaml:2:36: cannot open trace 'pipe' (from the scenario's folder: @/pipe): not a "
	 "regular file (a named pipe)\n"},
	{"run tests/scenarios/ok/minimal.yaml --plugin @/pipe -q -o @/set", 1,
	 "@/pipe: cannot open the plugin: not a regular file (a named pipe)\n"},
	{"plot all -d @/pipes", 1,
	 "hetsim plot: @/pipes/runs.csv:0:0: cannot open: not a regular file (a named pipe)\n"},
	{"replay-log @/pipe -q -o @/set", 1, "@/pipe:0:0: cannot open: not a regular file (a named "
	 "pipe)\n"},
	{"run @/ctl.yaml -q -o @/set", 1, "@/ctl.yaml:6:18: control characters are not allowed\n"},
	{"run @/utf8.yaml -q -o @/set", 1, "@/utf8.yaml:2:8: invalid leading UTF-8 octet\n"},
	{"run @/dots.yaml -q -o @/set", 1, "@/dots.yaml:1:7: expected a scenario name other than "
	 "'.' and '..' (it names folders), got '..'\n"},
	{"plot all -d @/empty", 1, "hetsim plot: @/empty/runs.csv:1:1: empty file (no header "
	 "line)\n"},
	{"plot all -d @/fields", 1, "hetsim plot: @/fields/runs.csv:3:1: 2 fields, but the header "
	 "has 3\n"},
	{"plot all -d @/dirs", 1, "hetsim plot: @/dirs/runs.csv:0:0: cannot open: Is a directory\n"},
	{"replay-log @/blank.json -q -o @/set", 1, "@/blank.json:1:1: no Spark listener events\n"},
	{"trace info @/nul.swf", 1, "@/nul.swf:2:4: a NUL byte in the text (not a text file?)\n"},
	{"trace info @/allskip.swf", 1, "@/allskip.swf:1:1: no job: 2 records, all left out "
	 "(no-runtime 1, negative-time 1)\n"},
	{"trace info @/hdr.swf", 1, "@/hdr.swf:1:1: no job records\n"},
	{"trace info tests/data/traces/alibaba/pai", 1, "tests/data/traces/alibaba/pai:0:1: no "
	 "pai_task_table.csv (nor pai_task_table.csv.zst) in the directory: a PAI trace's jobs "
	 "are its job and task tables\n"},
	{"run @/nosize.yaml -q -o @/set", 1, "@/nosize.swf:1:1: no usable MaxNodes or MaxProcs in "
	 "the header (0, 0): give the cluster in the scenario\n"},
	{"replay-log tests/data/fuzz/sparklog-no-tasks.json -q -o @/set", 1,
	 "tests/data/fuzz/sparklog-no-tasks.json:1:1: stage 0's parent 0 runs after it in Spark's "
	 "order (job, stage): not a DAG hetsim can replay\n"},
	/* outputs that would not be whole */
	{"plot all -d @/cut", 1, "hetsim plot: @/cut/manifest.csv:3:1: runs.csv has 10 bytes, the "
	 "manifest says #: this result set is not whole (a write cut short?); run the "
	 "command again\n"},
	{"report @/cut --no-plot", 1, "hetsim report: @/cut/manifest.csv:3:1: runs.csv has 10 bytes, "
	 "the manifest says #: this result set is not whole (a write cut short?); run "
	 "the command again\n"},
	{"sweep @/big.yaml --max-memory 256KiB -q -o @/set", 1, "@/big.yaml:54:1: the sweep's 100 "
	 "points would hold about * (each a copy of the scenario, *, most of it its 50 job groups), "
	 "above the 256.0 KiB of --max-memory: fewer points, or --max-memory SIZE\n"},
	{"run @/bigrun.yaml --max-memory 16MiB -q -o @/set", 1, "@/bigrun.yaml:3:5: a run would "
	 "hold about 80.2 MiB (most of it job group 'w': up to 4 of its jobs at once, 524288 tasks "
	 "each), above the 16.0 MiB of --max-memory: fewer or smaller jobs, or --max-memory SIZE\n"},
	{"sweep @/runs2.yaml -j 2 --max-memory 1MiB -q -o @/set", 1, "hetsim sweep: 2 runs at once "
	 "(--workers 2) would hold about 1.3 MiB (each up to 640.6 KiB, a run of sweep point 0: "
	 "s=1), above the 1.0 MiB of --max-memory: fewer workers (-j N), or --max-memory SIZE\n"},
	{"validate @/bigrun.yaml --max-memory 16MiB", 1, "@/bigrun.yaml:3:5: a run would "
	 "hold about 80.2 MiB (most of it job group 'w': up to 4 of its jobs at once, 524288 tasks "
	 "each), above the 16.0 MiB of --max-memory: fewer or smaller jobs, or --max-memory SIZE\n"},
	{"run scenarios/traces/nasa-ipsc.yaml --max-memory 200KiB -q -o @/set", 1,
	 "scenarios/traces/../../tests/data/traces/swf/NASA-iPSC-1993-3.1-cln.swf.zst:4129:1: the "
	 "trace's jobs would hold more than 0.4 MiB (4096 jobs read), above the 0.2 MiB of "
	 "--max-memory: use a window or `first`, or --max-memory SIZE\n"},
	{"sweep @/big.yaml --max-memory lots -q -o @/set", 2, "hetsim sweep: option '--max-memory' "
	 "wants a size such as 8GiB or 512MiB (B, KiB, MiB, GiB, TiB), or none, got 'lots'\n"},
	/* the command line */
	{"run tests/scenarios/ok/minimal.yaml -q --output=", 2,
	 "hetsim run: option '--output' wants a value (DIR), got ''\n"},
	{"run tests/scenarios/ok/minimal.yaml -q -p fifo -p fifo -o @/set", 2,
	 "hetsim run: option '--policy': 'fifo' given twice\n"},
	{"sweep tests/scenarios/ok/minimal.yaml -q -p fifo -p fifo -o @/set", 2,
	 "hetsim sweep: option '--policy': 'fifo' given twice\n"},
	{"compare tests/scenarios/ok/minimal.yaml -q -p fifo -p fifo -o @/set", 2,
	 "hetsim compare: option '--policy': 'fifo' given twice\n"},
	{"run tests/scenarios/ok/minimal.yaml -q --rep 2 -o @/set", 2,
	 "hetsim run: ambiguous option '--rep' (see hetsim run --help)\n"},
	{"run tests/scenarios/ok/minimal.yaml -qx -o @/set", 2,
	 "hetsim run: unknown option '-x' in '-qx' (see hetsim run --help)\n"},
	{"run tests/scenarios/ok/minimal.yaml --colour -o @/set", 2,
	 "hetsim run: unknown option '--colour' (see hetsim run --help)\n"},
	{"run tests/scenarios/ok/minimal.yaml --seed 18446744073709551616 -o @/set", 2,
	 "hetsim run: option '--seed' wants an integer from 0 to 18446744073709551615 (as a "
	 "scenario's seed), got '18446744073709551616'\n"},
	{"run tests/scenarios/ok/minimal.yaml -o @/set --replications", 2,
	 "hetsim run: option '--replications' needs a value (N)\n"},
};

static void catalogue(void)
{
	char s[] = "/tmp/hetsim-cat-XXXXXX", p[700], args[1200], want[1600], *out, *err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(s));
	/* an earlier run's results, the output of every case */
	snprintf(args, sizeof args, "run tests/scenarios/ok/minimal.yaml -q -r 1 -o %s/set", s);
	CU_ASSERT_EQUAL_FATAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	/* and the same set with runs.csv cut to 10 bytes */
	snprintf(args, sizeof args, "run tests/scenarios/ok/minimal.yaml -q -r 1 -o %s/cut", s);
	CU_ASSERT_EQUAL_FATAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	snprintf(p, sizeof p, "%s/cut/runs.csv", s);
	struct stat st;
	CU_ASSERT_EQUAL_FATAL(stat(p, &st), 0);
	char num[32];
	snprintf(num, sizeof num, "%lld", (long long)st.st_size);
	CU_ASSERT_EQUAL_FATAL(truncate(p, 10), 0);
	/* the inputs */
	static const char *const dirs[] = {"pipes", "empty", "fields", "dirs", "dirs/runs.csv"};
	for (int i = 0; i < 5; i++) {
		snprintf(p, sizeof p, "%s/%s", s, dirs[i]);
		CU_ASSERT_EQUAL_FATAL(mkdir(p, 0777), 0);
	}
	snprintf(p, sizeof p, "%s/pipe", s);
	CU_ASSERT_EQUAL_FATAL(mkfifo(p, 0600), 0);
	snprintf(p, sizeof p, "%s/pipes/runs.csv", s);
	CU_ASSERT_EQUAL_FATAL(mkfifo(p, 0600), 0);
	PUT(s, "cost.yaml", "cluster: [{name: n, cores: 1, memory: 1GiB}]\n"
	    "workload: [{name: w, type: wordcount, input: 64MiB}]\ncost_model: pipe\n");
	PUT(s, "trace.yaml", "cluster: [{name: n, cores: 1, memory: 1GiB}]\n"
	    "workload: [{name: t, trace: {path: pipe}}]\n");
	PUT(s, "ctl.yaml", "name: x\ncluster:\n  - name: n\n    cores: 1\n    memory: 1GiB\n"
	    "    gpu_model: \"a\x01" "b\"\n");
	PUT(s, "utf8.yaml", "name: x\n# caf\xc3\xa9 \xff\n");
	PUT(s, "dots.yaml", "name: ..\n");
	PUT(s, "empty/runs.csv", "");
	PUT(s, "fields/runs.csv", "a,b,c\n1,2,3\n1,2\n");
	PUT(s, "blank.json", "\n  \n\t\n");
	PUT(s, "nul.swf", "; Version: 2.2\n; M\0xNodes: 4\n");
	PUT(s, "allskip.swf", "; MaxNodes: 4\n1 0 -1 -1 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
	    "2 -5 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n");
	PUT(s, "hdr.swf", "; MaxNodes: 4\n; MaxProcs: 16\n");
	PUT(s, "nosize.swf", "; Version: 2.2\n; MaxNodes: 0\n"
	    "1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n");
	PUT(s, "nosize.yaml", "cluster: [{name: n, trace: {format: swf, path: nosize.swf}}]\n"
	    "workload: [{name: w, type: wordcount, input: 64MiB}]\n");
	PUT(s, "stdin.yaml", "cluster: [{name: n, cores: 2, memory: 4GiB}]\nworkload: [\n");
	PUT(s, "runs2.yaml", "cluster: [{name: n, cores: 8, memory: 64GiB}]\n"
	    "workload: [{name: w, type: wordcount, input: 1TiB}]\npolicies: [fifo]\n"
	    "replications: 1\nsweep: [{label: s, path: seed, values: [1, 2, 3]}]\n");
	PUT(s, "bigrun.yaml", "cluster: [{name: n, count: 400, cores: 16, memory: 64GiB}]\n"
	    "workload:\n  - {name: w, type: wordcount, count: 4, input: 32TiB}\npolicies: [fifo]\n");
	snprintf(p, sizeof p, "%s/big.yaml", s);
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("cluster: [{name: n, cores: 8, memory: 32GiB}]\nworkload:\n", f);
	for (int i = 0; i < 50; i++)
		fprintf(f, "  - {name: w%d, type: wordcount, input: 1GiB}\n", i);
	fputs("policies: [fifo]\nsweep:\n  - label: s\n    path: seed\n    values: [", f);
	for (int i = 0; i < 100; i++)
		fprintf(f, "%s%d", i ? ", " : "", i);
	fputs("]\n", f);
	fclose(f);

	{ /* the scenario on standard input (`-`), with a syntax error */
		char *before = h_tree(s);
		at(args, sizeof args, "run - -q -o @/set", s, num);
		at(p, sizeof p, "@/stdin.yaml", s, num);
		int rc = h_hetsim_child(args, &(struct h_child){.in = p}, &err);
		char *after = h_tree(s);
		CU_ASSERT_EQUAL(rc, 1);
		CU_ASSERT_STRING_EQUAL(err, "-:3:1: did not find expected node content (while parsing "
					    "a flow node at line 3)\n");
		CU_ASSERT_STRING_EQUAL(after, before);
		free(err), free(before), free(after);
	}
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *before = h_tree(s);
		at(args, sizeof args, cases[i].args, s, num);
		at(want, sizeof want, cases[i].err, s, num);
		int rc = h_hetsim(args, &out, &err);
		char *after = h_tree(s);
		CU_ASSERT_EQUAL(rc, cases[i].rc);
		CU_ASSERT(glob(want, err));
		CU_ASSERT_STRING_EQUAL(after, before);
		if (rc != cases[i].rc || !glob(want, err) || strcmp(after, before))
			fprintf(stderr, "\n  hetsim %s\n  exit %d (want %d)\n  got:  %s  want: %s%s", args,
				rc, cases[i].rc, err, want, strcmp(after, before) ? "  the folder changed\n"
										  : "");
		free(out), free(err), free(before), free(after);
	}
	h_rmtree(s);
}

/* ---- every reader, one rule ------------------------------------------ */

/* What a bad trace or event log gives: the same standard error, exactly,
 * and the same exit status from `trace info` and from the commands that
 * use the file (run, with the file as a scenario's trace; replay-log for
 * an event log), and the scratch folder untouched (issue 33: trace info
 * printed an SWF header's nodes and exited 0 where run said
 * file:line:col; PAI folders said "note: no jobs read", exit 0; a log
 * with every event twice, or not UTF-8, replayed). */
static const struct agree {
	const char *file;   /* in the scratch folder */
	int rc;
	const char *err;    /* the whole standard error of each command, @ the folder */
	bool strict;        /* trace info --strict; the scenario's strict: true */
	bool norun;         /* not run: a scenario's event log is read without its
			       warning (scenario/ keeps no place for it: not yet) */
} agree[] = {
	/* SWF: a header, a good record at line 3, the bad one at line 4 */
	{"trunc.swf", 1, "@/trunc.swf:4:11: 5 fields, SWF has 18\n", false, false},
	{"f19.swf", 1, "@/f19.swf:4:48: a 19th field '5': SWF has 18\n", false, false},
	{"big.swf", 1, "@/big.swf:4:1: field 1 2147483648 is not a job number\n", false, false},
	{"huge.swf", 1, "@/huge.swf:4:3: field 2 1e+23 s is out of range (10^11 s)\n", false,
	 false},
	{"nan.swf", 1, "@/nan.swf:4:3: field 2 'nan' is not a number\n", false, false},
	{"inf.swf", 1, "@/inf.swf:4:8: field 4 'inf' is not a number\n", false, false},
	{"latin1.swf", 1, "@/latin1.swf:4:8: field 4 '1\\xe9' is not a number\n", false, false},
	{"nul.swf", 1, "@/nul.swf:4:9: a NUL byte in the text (not a text file?)\n", false, false},
	/* skipped and said the same way; with strict an error */
	{"skip.swf", 0, "warning: @/skip.swf: 1 of 2 records skipped (negative-time 1)\n", false,
	 false},
	{"skip.swf", 1, "@/skip.swf:4:3: submit time -5 s is negative (strict: not skipped)\n",
	 true, false},
	/* PAI folders: no task table; a task row of 7 fields */
	{"pai-notask", 1, "@/pai-notask:0:1: no pai_task_table.csv (nor pai_task_table.csv.zst) "
	 "in the directory: a PAI trace's jobs are its job and task tables\n", false, false},
	{"pai-cols", 1, "@/pai-cols:1:35: pai_task_table.csv: 7 fields, the table has 10 "
	 "(job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,"
	 "gpu_type)\n", false, false},
	/* Spark event logs: every event twice, a task's end twice, not UTF-8 */
	{"twice.json", 1, "@/twice.json:20:42: SparkListenerApplicationStart: a second "
	 "application start ('hand'; the first: 'hand'): an event log holds one application "
	 "(events repeated, or two logs joined?)\n", false, false},
	{"task-twice.json", 1, "@/task-twice.json:8:148: SparkListenerTaskEnd: task 0 ended twice: "
	 "Spark gives each task attempt its own Task ID (events repeated, or two logs joined?)\n",
	 false, false},
	{"latin1.json", 1, "@/latin1.json:3:55: not UTF-8: byte 0xe9 (a character cut short), at "
	 "byte 399 of the file\n", false, false},
	/* a gap (an executor removed, never added): skipped and said */
	{"gap.json", 0, "warning: @/gap.json: 1 inconsistent record (1 removals of executors "
	 "never added: skipped), the first at line 18\n", false, true},
};

/* a (na bytes) then b (nb bytes) into buf; na + nb. */
static size_t cat(char *buf, const char *a, size_t na, const char *b, size_t nb)
{
	memcpy(buf, a, na);
	memcpy(buf + na, b, nb);
	return na + nb;
}

/* The bad files of agree[] into folder d. */
static void agree_files(const char *d)
{
	static const char *const swf[][2] = {
		{"trunc.swf", "2 0 -1 10 1"},
		{"f19.swf", "2 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1 5"},
		{"big.swf", "2147483648 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1"},
		{"huge.swf", "2 99999999999999999999999 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1"},
		{"nan.swf", "2 nan -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1"},
		{"inf.swf", "2 0 -1 inf 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1"},
		{"latin1.swf", "2 0 -1 1\xe9 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1"},
		{"skip.swf", "2 -5 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1"},
	};
	char text[512], p[700];
	for (size_t i = 0; i < sizeof swf / sizeof swf[0]; i++) {
		int n = snprintf(text, sizeof text, "; MaxNodes: 4\n; MaxProcs: 16\n1 0 -1 10 1 -1 -1 1 "
				 "10 -1 1 1 1 -1 -1 -1 -1 -1\n%s\n", swf[i][1]);
		put(d, swf[i][0], text, (size_t)n);
	}
	PUT(d, "nul.swf", "; MaxNodes: 4\n; MaxProcs: 16\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 "
	    "-1 -1\n2 0 -1 1\0 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n");
	static const char *const dirs[] = {"pai-notask", "pai-cols"};
	for (int i = 0; i < 2; i++) {
		snprintf(p, sizeof p, "%s/%s", d, dirs[i]);
		CU_ASSERT_EQUAL_FATAL(mkdir(p, 0777), 0);
		PUT(p, "pai_machine_spec.csv", "m1,CPU,8,64,0\n");
		PUT(p, "pai_job_table.csv", "j1,i1,u1,Terminated,0.0,100.0\n");
	}
	snprintf(p, sizeof p, "%s/pai-cols", d);
	PUT(p, "pai_task_table.csv", "j1,worker,2.0,Terminated,0.0,10.0,50.0\n");
	/* the hand log (17 lines; its first task end at line 7) twice over;
	 * with its first task end twice; with a Latin-1 App Name */
	long n;
	char *log = h_slurp("tests/data/traces/spark/hand-2stages.json", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	static const char gap[] = "{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":"
				  "2000000,\"Executor ID\":\"9\"}\n";
	char *two = malloc(2 * (size_t)n + sizeof gap); /* the files of two parts below */
	CU_ASSERT_PTR_NOT_NULL_FATAL(two);
	put(d, "twice.json", two, cat(two, log, (size_t)n, log, (size_t)n));
	char *t = strstr(log, "{\"Event\":\"SparkListenerTaskEnd\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	size_t tl = (size_t)(strchr(t, '\n') + 1 - t);
	put(d, "task-twice.json", two,
	    cat(two, log, (size_t)(t - log) + tl, t, (size_t)n - (size_t)(t - log)));
	char *a = strstr(log, "\"App Name\":\"hand\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	a[13] = '\xe9'; /* "h\xe9nd" */
	put(d, "latin1.json", log, (size_t)n);
	a[13] = 'a';
	put(d, "gap.json", two, cat(two, log, (size_t)n, gap, sizeof gap - 1));
	free(two);
	free(log);
}

static void readers_agree(void)
{
	char s[] = "/tmp/hetsim-agree-XXXXXX", args[1200], want[1600], y[900], *out, *err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(s));
	agree_files(s);
	for (size_t i = 0; i < sizeof agree / sizeof agree[0]; i++) {
		const struct agree *c = &agree[i];
		bool log = strstr(c->file, ".json") != NULL;
		/* the scenario that runs it: its own cluster, the file as a trace */
		/* (its overheads given: run's note of a batch log's none would
		 * stand beside the warning) */
		int n = snprintf(y, sizeof y, "cluster: [{name: n, cores: 16, memory: 64GiB}]\n"
				 "overheads: {executor_startup: 0s, task_launch: 0s}\n"
				 "workload: [{name: t, trace: {path: %s%s}}]\npolicies: [fifo]\n",
				 c->file, c->strict ? ", strict: true" : "");
		char yname[64];
		snprintf(yname, sizeof yname, "s%zu.yaml", i);
		put(s, yname, y, (size_t)n);
		char cmds[3][400];
		int ncmd = 0;
		snprintf(cmds[ncmd++], sizeof cmds[0], "trace info %s/%s%s", s, c->file,
			 c->strict ? " --strict" : "");
		/* -q hides run's warnings: without it where a warning is the case */
		if (!c->norun)
			snprintf(cmds[ncmd++], sizeof cmds[0], "run %s/%s%s -o %s/out", s, yname,
				 c->rc ? " -q" : "", s);
		if (log)
			snprintf(cmds[ncmd++], sizeof cmds[0], "replay-log %s/%s -q -o %s/out", s,
				 c->file, s);
		at(want, sizeof want, c->err, s, "");
		for (int k = 0; k < ncmd; k++) {
			char *before = h_tree(s);
			snprintf(args, sizeof args, "%s", cmds[k]);
			int rc = h_hetsim(args, &out, &err);
			char *after = h_tree(s);
			bool same = c->rc == 0 || !strcmp(after, before);
			CU_ASSERT_EQUAL(rc, c->rc);
			CU_ASSERT_STRING_EQUAL(err, want);
			CU_ASSERT(same);
			if (rc != c->rc || strcmp(err, want) || !same)
				fprintf(stderr, "\n  hetsim %s\n  exit %d (want %d)\n  got:  %s  want: %s%s",
					args, rc, c->rc, err, want, same ? "" : "  the folder changed\n");
			free(out), free(err), free(before), free(after);
		}
		if (c->rc == 0) { /* the results: not the next case's business */
			snprintf(args, sizeof args, "%s/out", s);
			h_rmtree(args);
		}
	}
	h_rmtree(s);
}

/* A write past the file size limit (ulimit -f: EFBIG; hetsim ignores
 * SIGXFSZ, which killed it between the files of a set): the writer says
 * so with the right errno ("File too large", not a stale one), exit 1,
 * and the folder it writes to, which holds an earlier result set, keeps
 * every file, byte for byte (the set's commit never starts); a new
 * folder is not left behind. */
static void file_too_large(void)
{
	char s[] = "/tmp/hetsim-efbig-XXXXXX", args[1200], want[1600], *out, *err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(s));
	snprintf(args, sizeof args, "run tests/scenarios/ok/minimal.yaml -q -r 1 -o %s/set", s);
	CU_ASSERT_EQUAL_FATAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	static const struct kase big[] = {
		{"run tests/scenarios/hand/fifo-firstfit.yaml -q -r 20 -o @/set", 1,
		 "hetsim run: cannot write @/set/runs.csv: File too large\n"},
		{"run tests/scenarios/hand/fifo-firstfit.yaml -q --trace-json @/t.json -o @/set", 1,
		 "hetsim run: option '--trace-json': cannot write @/t.json.tmp: File too large\n"},
		{"compare tests/scenarios/ok/minimal.yaml -q -o @/cmp", 1,
		 "hetsim compare: cannot write in @/cmp: File too large\n"},
		{"report @/set --no-plot -o @/set/report.html", 1,
		 "hetsim report: cannot write @/set/report.html.tmp: File too large\n"},
	};
	for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
		char *before = h_tree(s);
		at(args, sizeof args, big[i].args, s, "");
		at(want, sizeof want, big[i].err, s, "");
		/* its files may not pass 1024 bytes (as `ulimit -f`) */
		int rc = h_hetsim_child(args, &(struct h_child){.fsize = 1024}, &err);
		char *after = h_tree(s);
		CU_ASSERT_EQUAL(rc, big[i].rc);
		CU_ASSERT_STRING_EQUAL(err, want);
		CU_ASSERT_STRING_EQUAL(after, before);
		if (rc != big[i].rc || strcmp(err, want) || strcmp(after, before))
			fprintf(stderr, "\n  hetsim %s\n  exit %d (want %d)\n  got:  %s  want: %s%s", args,
				rc, big[i].rc, err, want, strcmp(after, before) ? "  the folder changed\n"
										  : "");
		free(err), free(before), free(after);
	}
	h_rmtree(s);
}

/* 20 jobs of 10^6 synthetic tasks each (about 3.8 GB before the DAGs
 * were streamed: 19 GB for 100) run in little memory: the child's peak
 * resident set, a fork of this test process, stays under 200 MiB (not
 * under the sanitizers, whose shadow memory is counted too). */
static void many_tasks(void)
{
	char s[] = "/tmp/hetsim-tasks-XXXXXX", args[600], *err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(s));
	PUT(s, "t.yaml", "cluster: [{name: n, count: 100, cores: 16, memory: 64GiB}]\n"
	    "workload:\n  - {name: s, type: synthetic, count: 20, stages: [{name: a, tasks: "
	    "1000000, duration: 1s}]}\npolicies: [fifo]\n");
	snprintf(args, sizeof args, "run %s/t.yaml -q -o %s/out", s, s);
	/* no alarm (h_hetsim_child's 60 s): 2.4 s of CPU optimised, but 3
	 * min under the sanitizers (the engine's invariants checked at every
	 * event), 10 min of wall time on a busy 2-core machine */
	struct h_child child = {.alarm_s = -1};
	CU_ASSERT_EQUAL(h_hetsim_child(args, &child, &err), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	free(err);
#if !defined(__SANITIZE_ADDRESS__)
	CU_ASSERT(child.maxrss_kib > 0 && child.maxrss_kib < 200 * 1024);
	if (child.maxrss_kib >= 200 * 1024)
		fprintf(stderr, "\n  20 jobs of 10^6 tasks: peak %ld KiB\n", child.maxrss_kib);
#endif
	h_rmtree(s);
}

int test_suite_catalogue(void)
{
	TEST_SUITE("catalogue",
		   {"docs/errors.md's cases as commands: exit, message, the folder untouched",
		    catalogue},
		   {"a write past the file size limit: EFBIG said, the old set untouched",
		    file_too_large},
		   {"20 jobs of 10^6 synthetic tasks in under 200 MiB", many_tasks},
		   {"bad traces and logs: trace info says what run and replay-log say",
		    readers_agree});
	return 0;
}
