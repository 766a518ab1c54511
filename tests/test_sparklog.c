/* test_sparklog.c - the Spark event log reader (input/sparklog.h); its
 * one-line JSON parser (input/json.h) in test_json.c.
 *
 * The three real logs of tests/data/traces/spark (README.md there) are
 * checked against counts taken from the files by jq, grep and awk, the
 * command beside each number; the bad-input rules each against its
 * exact message, on small logs written into a temporary folder.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "sparklog.h"
#include "test.h"

#define SPARK "tests/data/traces/spark/"

static char tmpdir[64];

/* ---- the real logs ------------------------------------------------- */

static struct slog *read_ok(const char *path, bool strict)
{
	char err[512] = "";
	struct slog_opts o = {.strict = strict};
	struct slog *l = slog_read(path, &o, err, sizeof err);
	if (!l)
		fprintf(stderr, "\n  %s\n", err);
	return l;
}

/* "id:tasks id:tasks ..." over the submitted stages, for comparing with
 * what awk counts. */
static const char *stage_tasks(const struct slog *l, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < l->nstages && k < n; i++)
		if (l->stages[i].submitted)
			k += (size_t)snprintf(buf + k, n - k, "%s%d:%d", k ? " " : "", l->stages[i].id,
					      l->stages[i].task_n);
	return buf;
}

static int count_flag(const struct slog *l, unsigned flag)
{
	int n = 0;
	for (int t = 0; t < l->ntasks; t++)
		n += (l->tasks[t].flags & flag) != 0;
	return n;
}

static int removed(const struct slog *l)
{
	int n = 0;
	for (int i = 0; i < l->nexecs; i++)
		n += l->execs[i].removed_ms >= 0;
	return n;
}

static int64_t total_cores(const struct slog *l)
{
	int64_t n = 0;
	for (int i = 0; i < l->nexecs; i++)
		n += l->execs[i].cores;
	return n;
}

static int submitted(const struct slog *l)
{
	int n = 0;
	for (int i = 0; i < l->nstages; i++)
		n += l->stages[i].submitted;
	return n;
}

static int64_t rules_hit(const struct slog *l)
{
	int64_t n = 0;
	for (int k = 0; k < SLOG_NRULES; k++)
		n += l->count[k];
	return n;
}

static int stage_index(const struct slog *l, int id, int attempt)
{
	for (int i = 0; i < l->nstages; i++)
		if (l->stages[i].id == id && l->stages[i].attempt == attempt)
			return i;
	return -1;
}

/* NDS q66 on GPUs (Spark 3.1.3, YARN, zstd).  L = zstd -dc nds_q66_gpu.zstd */
static void real_nds(void)
{
	struct slog *l = read_ok(SPARK "nds_q66_gpu.zstd", true);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	char buf[1024];
	CU_ASSERT_TRUE(l->compressed);
	CU_ASSERT_EQUAL(l->lines, 26214);  /* L | wc -l */
	CU_ASSERT_EQUAL(l->events, 26214);
	CU_ASSERT_EQUAL(l->other_events, 71); /* L | jq -r .Event | grep -c '^org\.' (62) + BlockManagerAdded (9) */
	CU_ASSERT_STRING_EQUAL(l->app.spark_version, "3.1.3");
	CU_ASSERT_STRING_EQUAL(l->app.name, "NDS - Power Run");
	CU_ASSERT_STRING_EQUAL(l->app.id, "application_1701368813061_0008");
	CU_ASSERT_STRING_EQUAL(l->app.user, "root");
	/* L | jq 'select(.Event|test("ApplicationStart|ApplicationEnd")) | .Timestamp' */
	CU_ASSERT_EQUAL(l->app.start_ms, 1701371456937);
	CU_ASSERT_EQUAL(l->app.end_ms, 1701371566477);
	/* L | jq 'select(.Event=="SparkListenerEnvironmentUpdate") | ."Spark Properties"' */
	CU_ASSERT_STRING_EQUAL(l->env.master, "yarn");
	CU_ASSERT_EQUAL(l->env.executor_cores, 16);
	CU_ASSERT_EQUAL(l->env.task_cpus, -1); /* not set */
	CU_ASSERT_EQUAL(l->env.executor_gpus, 1.0);
	CU_ASSERT_EQUAL(l->env.task_gpus, 0.0625);
	CU_ASSERT_EQUAL(l->env.dyn_alloc, 0);
	/* L | jq -c 'select(.Event=="SparkListenerResourceProfileAdded")' */
	CU_ASSERT_EQUAL_FATAL(l->nprofiles, 1);
	CU_ASSERT_EQUAL(l->profiles[0].id, 0);
	CU_ASSERT_EQUAL(l->profiles[0].exec_cores, 16);
	CU_ASSERT_EQUAL(l->profiles[0].exec_mem_mib, 16384);
	CU_ASSERT_EQUAL(l->profiles[0].exec_overhead_mib, 16384);
	CU_ASSERT_EQUAL(l->profiles[0].exec_gpus, 1);
	CU_ASSERT_EQUAL(l->profiles[0].task_cpus, 1.0);
	CU_ASSERT_EQUAL(l->profiles[0].task_gpus, 0.0625);
	CU_ASSERT_EQUAL(l->nexecs, 8);   /* L | grep -c '"Event":"SparkListenerExecutorAdded"' */
	CU_ASSERT_EQUAL(removed(l), 0);  /* L | grep -c '"Event":"SparkListenerExecutorRemoved"' */
	CU_ASSERT_EQUAL(l->nhosts, 4);   /* L | jq -r 'select(.Event=="SparkListenerExecutorAdded") | ."Executor Info".Host' | sort -u | wc -l */
	CU_ASSERT_EQUAL(total_cores(l), 128); /* jq -s '[.[] | select(...ExecutorAdded) | ."Executor Info"."Total Cores"] | add' */
	/* the first ExecutorAdded: L | jq -c 'select(.Event=="SparkListenerExecutorAdded")' | head -1 */
	CU_ASSERT_STRING_EQUAL(l->execs[0].id, "1");
	CU_ASSERT_STRING_EQUAL(l->hosts[l->execs[0].host], "eord-dataproc-query-w-3.c.rapids-spark.internal");
	CU_ASSERT_EQUAL(l->execs[0].cores, 16);
	CU_ASSERT_EQUAL(l->execs[0].gpus, 1);
	CU_ASSERT_EQUAL(l->execs[0].added_ms, 1701371471659);
	CU_ASSERT_EQUAL(l->execs[0].removed_ms, -1);
	CU_ASSERT_EQUAL(l->njobs, 37);   /* L | grep -c '"Event":"SparkListenerJobStart"' */
	/* L | jq -c 'select(.Event|test("JobStart|JobEnd")) | [."Job ID", ."Submission Time", ."Completion Time", ."Stage IDs"]' | head -2 */
	CU_ASSERT_EQUAL(l->jobs[0].id, 0);
	CU_ASSERT_EQUAL(l->jobs[0].submit_ms, 1701371474151);
	CU_ASSERT_EQUAL(l->jobs[0].end_ms, 1701371496101);
	CU_ASSERT_EQUAL_FATAL(l->jobs[0].nstages, 1);
	CU_ASSERT_EQUAL(l->jobs[0].stage_ids[0], 0);
	CU_ASSERT_STRING_EQUAL(l->jobs[0].result, "JobSucceeded");
	CU_ASSERT_EQUAL(submitted(l), 41); /* L | grep -c '"Event":"SparkListenerStageSubmitted"' */
	CU_ASSERT_EQUAL(l->nstages, 41);   /* L | jq -s '[.[] | select(.Event=="SparkListenerJobStart") | ."Stage Infos"[]."Stage ID"] | unique | length' */
	CU_ASSERT_EQUAL(l->ntasks, 12987); /* L | grep -c '"Event":"SparkListenerTaskEnd"' */
	CU_ASSERT_EQUAL(l->task_starts, 12987); /* L | grep -c '"Event":"SparkListenerTaskStart"' */
	/* L | jq -s '[.[] | select(.Event=="SparkListenerTaskEnd" and ."Task Info".Failed)] | length' */
	CU_ASSERT_EQUAL(count_flag(l, SLOG_FAILED), 0);
	CU_ASSERT_EQUAL(count_flag(l, SLOG_KILLED), 0);
	CU_ASSERT_EQUAL(count_flag(l, SLOG_SPECULATIVE), 0);
	/* L | jq -r 'select(.Event=="SparkListenerTaskEnd") | ."Stage ID"' | sort -n | uniq -c | awk '{printf "%s:%s ", $2, $1}' */
	CU_ASSERT_STRING_EQUAL(stage_tasks(l, buf, sizeof buf),
		"0:1 1:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1 9:1 10:1 11:1 12:1 13:2004 14:1 15:1 16:1 "
		"17:1 18:1 19:261 20:1 21:2104 22:1 23:2185 24:1 25:1824 26:1 27:1837 28:1 "
		"29:1824 30:1 31:1 32:1 33:1 34:1 35:1 36:159 37:159 38:400 39:200 40:1");
	/* stage 38: L | jq -c 'select(.Event=="SparkListenerStageCompleted" and ."Stage Info"."Stage ID"==38) | ."Stage Info" | [."Parent IDs", ."Submission Time", ."Completion Time"]' */
	int s38 = stage_index(l, 38, 0);
	CU_ASSERT_EQUAL_FATAL(s38, 38);
	CU_ASSERT_EQUAL_FATAL(l->stages[s38].nparents, 2);
	CU_ASSERT_EQUAL(l->stages[s38].parents[0], 37);
	CU_ASSERT_EQUAL(l->stages[s38].parents[1], 36);
	CU_ASSERT_EQUAL(l->stages[s38].submit_ms, 1701371564888);
	CU_ASSERT_EQUAL(l->stages[s38].end_ms, 1701371565705);
	CU_ASSERT_STRING_EQUAL(l->stages[s38].name,
			       "collect at /tmp/ab/spark-rapids-benchmarks/nds/nds_power.py:131");
	CU_ASSERT_PTR_NULL(l->stages[s38].failure);
	/* stage 0's one task: L | jq -c 'select(.Event=="SparkListenerTaskEnd" and ."Stage ID"==0) | ."Task Info", ."Task Metrics"' */
	const struct slog_task *t = &l->tasks[l->stages[0].task_lo];
	CU_ASSERT_EQUAL(t->id, 0);
	CU_ASSERT_EQUAL(t->index, 0);
	CU_ASSERT_STRING_EQUAL(l->execs[t->exec].id, "1");
	CU_ASSERT_STRING_EQUAL(l->hosts[t->host], "eord-dataproc-query-w-3.c.rapids-spark.internal");
	CU_ASSERT_EQUAL(t->launch_ms, 1701371493429);
	CU_ASSERT_EQUAL(t->finish_ms, 1701371496086);
	CU_ASSERT_EQUAL(t->run_ms, 1838);
	CU_ASSERT_EQUAL(t->deser_ms, 724);
	CU_ASSERT_EQUAL(t->result_ms, 0); /* Getting Result Time 0 */
	CU_ASSERT_EQUAL(t->reason, SLOG_R_SUCCESS);
	/* stage 13's task durations: L | jq -r 'select(.Event=="SparkListenerTaskEnd" and ."Stage ID"==13) | ."Task Info" | ."Finish Time" - ."Launch Time"' | sort -n | awk '{d[NR]=$1} END {...type 7 at (NR-1)p}' */
	CU_ASSERT_DOUBLE_EQUAL(slog_stage_task_quantile(l, 13, 0.5), 62.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(slog_stage_task_quantile(l, 13, 0.95), 289.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(slog_stage_task_quantile(l, 13, 1), 2689.0, 1e-9);
	CU_ASSERT_EQUAL(rules_hit(l), 0);
	slog_free(l);
}

/* Dynamic allocation (Spark 3.2.1, YARN).  L = zstd -dc eventlog_4nodes_8cores_dynamic_alloc.zstd */
static void real_dynamic(void)
{
	struct slog *l = read_ok(SPARK "eventlog_4nodes_8cores_dynamic_alloc.zstd", true);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	char buf[1024];
	CU_ASSERT_EQUAL(l->lines, 665);  /* L | wc -l */
	CU_ASSERT_STRING_EQUAL(l->app.spark_version, "3.2.1");
	CU_ASSERT_STRING_EQUAL(l->app.name, "Spark shell");
	CU_ASSERT_STRING_EQUAL(l->app.id, "application_1707709865217_0493");
	CU_ASSERT_EQUAL(l->app.start_ms, 1727965992605); /* jq 'select(.Event|test("Application")) | .Timestamp' */
	CU_ASSERT_EQUAL(l->app.end_ms, 1727966197896);
	CU_ASSERT_EQUAL(l->env.dyn_alloc, 1);   /* "spark.dynamicAllocation.enabled":"true" */
	CU_ASSERT_EQUAL(l->env.executor_cores, 4);
	CU_ASSERT_EQUAL(l->env.task_gpus, 0.25);
	CU_ASSERT_EQUAL(l->profiles[0].exec_mem_mib, 20480);
	CU_ASSERT_EQUAL(l->nexecs, 15);  /* L | grep -c '"Event":"SparkListenerExecutorAdded"' */
	CU_ASSERT_EQUAL(removed(l), 14); /* L | grep -c '"Event":"SparkListenerExecutorRemoved"' */
	CU_ASSERT_EQUAL(l->nhosts, 5);   /* L | jq -r 'select(.Event=="SparkListenerExecutorAdded") | ."Executor Info".Host' | sort -u | wc -l */
	CU_ASSERT_EQUAL(total_cores(l), 60);
	/* L | jq -c 'select(.Event|test("Executor(Added|Removed)")) | [.Timestamp, ."Executor ID", ."Removed Reason"]' | head -3 */
	CU_ASSERT_STRING_EQUAL(l->execs[0].id, "2");
	CU_ASSERT_EQUAL(l->execs[0].added_ms, 1727966013471);
	CU_ASSERT_EQUAL(l->execs[0].removed_ms, 1727966037269);
	CU_ASSERT_STRING_EQUAL(l->execs[0].removed_reason, "Executor killed by driver.");
	CU_ASSERT_EQUAL(l->njobs, 20);     /* L | grep -c '"Event":"SparkListenerJobStart"' */
	CU_ASSERT_EQUAL(submitted(l), 20); /* L | grep -c '"Event":"SparkListenerStageSubmitted"' */
	CU_ASSERT_EQUAL(l->nstages, 45);   /* L | jq -s '[.[] | select(.Event=="SparkListenerJobStart") | ."Stage Infos"[]."Stage ID"] | unique | length' */
	CU_ASSERT_EQUAL(l->ntasks, 235);   /* L | grep -c '"Event":"SparkListenerTaskEnd"' */
	CU_ASSERT_EQUAL(count_flag(l, SLOG_FAILED), 0); /* jq -s '[... select(."Task Info".Failed)] | length' */
	/* L | jq -r 'select(.Event=="SparkListenerTaskEnd") | ."Stage ID"' | sort -n | uniq -c | awk '{printf "%s:%s ", $2, $1}' */
	CU_ASSERT_STRING_EQUAL(stage_tasks(l, buf, sizeof buf),
		"0:6 1:6 4:13 8:1 9:6 10:6 13:17 17:1 18:6 19:6 22:21 26:1 27:24 28:24 31:22 35:1 "
		"36:24 37:24 40:25 44:1");
	/* the DAG: job 2 lists stages 2, 3 and 4; 2 and 3 never ran (skipped), 4's parents
	 * are 2 and 3 (L | jq -c 'select(.Event=="SparkListenerJobStart" and ."Job ID"==2) | ."Stage IDs", [."Stage Infos"[]."Parent IDs"]') */
	CU_ASSERT_EQUAL_FATAL(l->jobs[2].nstages, 3);
	CU_ASSERT_EQUAL(l->jobs[2].stage_ids[2], 4);
	int s2 = stage_index(l, 2, 0), s4 = stage_index(l, 4, 0);
	CU_ASSERT_FATAL(s2 >= 0 && s4 >= 0);
	CU_ASSERT_FALSE(l->stages[s2].submitted);
	CU_ASSERT_EQUAL(l->stages[s2].ntasks, 6);
	CU_ASSERT_EQUAL(l->stages[s2].job, 2);
	CU_ASSERT_EQUAL(l->stages[s2].task_n, 0);
	CU_ASSERT_TRUE(l->stages[s4].submitted);
	CU_ASSERT_EQUAL_FATAL(l->stages[s4].nparents, 2);
	CU_ASSERT_EQUAL(l->stages[s4].parents[0], 2);
	CU_ASSERT_EQUAL(l->stages[s4].parents[1], 3);
	/* stage 9: L | jq -r 'select(.Event=="SparkListenerStageCompleted" and ."Stage Info"."Stage ID"==9) | ."Stage Info" | [."Submission Time", ."Completion Time"]',
	 * its tasks' first launch and last finish (awk min/max over
	 * jq -r 'select(.Event=="SparkListenerTaskEnd" and ."Stage ID"==9) | ."Task Info" | [."Launch Time", ."Finish Time"] | @tsv') */
	int s9 = stage_index(l, 9, 0);
	CU_ASSERT_FATAL(s9 >= 0);
	struct slog_span sp = slog_stage_span(l, s9);
	CU_ASSERT_EQUAL(sp.logged_ms, 1727966121882 - 1727966106094);
	CU_ASSERT_EQUAL(sp.first_launch_ms, 1727966106101);
	CU_ASSERT_EQUAL(sp.last_finish_ms, 1727966121882);
	CU_ASSERT_EQUAL(sp.tasks, 6);
	/* its 6 durations, type 7 (awk as for NDS stage 13) */
	CU_ASSERT_DOUBLE_EQUAL(slog_stage_task_quantile(l, s9, 0.5), 751.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(slog_stage_task_quantile(l, s9, 0.95), 12045.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(slog_stage_task_quantile(l, s9, 1), 15780.0, 1e-9);
	/* a never-run stage has no span */
	sp = slog_stage_span(l, s2);
	CU_ASSERT_EQUAL(sp.logged_ms, -1);
	CU_ASSERT_EQUAL(sp.first_launch_ms, -1);
	CU_ASSERT_EQUAL(sp.tasks, 0);
	CU_ASSERT_EQUAL(slog_stage_task_quantile(l, s2, 0.5), -1);
	CU_ASSERT_EQUAL(rules_hit(l), 0);
	/* the summary: executors over time (an awk sweep over +1/-1 at each
	 * Added/Removed Timestamp, sorted: at most 7 at once) */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(slog_info(f, l), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nspark: 3.2.1\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\ntime: 1727965992605 to 1727966197896 ms (205.291 s)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nexecutors: 15 added (0 implicitly), 14 removed, at most "
				      "7 at once (28 cores); 5 hosts, 60 cores, 15 GPUs in all\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\njobs: 20 (20 succeeded, 0 failed, 0 without an end)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nstages: 20 submitted (20 completed, 0 of them failed), "
				      "25 never submitted (listed by a job, skipped)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\ntasks: 235 ended (235 succeeded, 0 failed, 0 killed, "
				      "0 speculative), 235 started\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n     9       0      6       15788     15781     751.5   "
				      "12045.5     15780  count at <console>:25\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nrecords skipped or clamped: none\n"));
	free(text);
	slog_free(l);
}

/* Spark 2.3 local mode, plain text.  L = cat sparklens_local-1532512550423 */
static void real_sparklens(void)
{
	struct slog *l = read_ok(SPARK "sparklens_local-1532512550423", true);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	char buf[256];
	CU_ASSERT_FALSE(l->compressed);
	CU_ASSERT_EQUAL(l->lines, 30); /* L | wc -l */
	CU_ASSERT_STRING_EQUAL(l->app.spark_version, "2.3.0");
	CU_ASSERT_STRING_EQUAL(l->app.id, "local-1532512550423");
	CU_ASSERT_STRING_EQUAL(l->app.user, "beria");
	CU_ASSERT_EQUAL(l->app.start_ms, 1532512549494);
	CU_ASSERT_EQUAL(l->app.end_ms, 1532512565469);
	CU_ASSERT_STRING_EQUAL(l->env.master, "local[*]");
	CU_ASSERT_EQUAL(l->env.executor_cores, -1);
	CU_ASSERT_EQUAL(l->nprofiles, 0); /* Spark 2.3: none */
	CU_ASSERT_EQUAL_FATAL(l->nexecs, 1);
	CU_ASSERT_STRING_EQUAL(l->execs[0].id, "driver");
	CU_ASSERT_STRING_EQUAL(l->hosts[l->execs[0].host], "localhost");
	CU_ASSERT_EQUAL(l->execs[0].cores, 4);
	CU_ASSERT_EQUAL(l->execs[0].gpus, 0);
	CU_ASSERT_EQUAL(l->execs[0].profile, 0);
	CU_ASSERT_FALSE(l->execs[0].implicit);
	CU_ASSERT_EQUAL(removed(l), 0);
	CU_ASSERT_EQUAL(l->njobs, 2);
	CU_ASSERT_EQUAL(l->nstages, 2);
	CU_ASSERT_EQUAL(l->ntasks, 8);
	CU_ASSERT_EQUAL(count_flag(l, SLOG_FAILED), 0);
	CU_ASSERT_STRING_EQUAL(stage_tasks(l, buf, sizeof buf), "0:4 1:4");
	/* stage 1: grep '"Stage ID":1' | jq '."Stage Info" | ."Completion Time" - ."Submission Time"' */
	struct slog_span sp = slog_stage_span(l, 1);
	CU_ASSERT_EQUAL(sp.logged_ms, 12);
	CU_ASSERT_EQUAL(sp.first_launch_ms, 1532512563452);
	for (int t = 0; t < l->ntasks; t++)
		CU_ASSERT_EQUAL(l->tasks[t].exec, 0);
	/* tasks sorted by stage, launch, id: stage 0's launches 1532512561948, ...968 x2, ...969 */
	CU_ASSERT_EQUAL(l->tasks[0].id, 0);
	CU_ASSERT_EQUAL(l->tasks[1].id, 1);
	CU_ASSERT_EQUAL(l->tasks[2].id, 2);
	CU_ASSERT_EQUAL(l->tasks[3].id, 3);
	CU_ASSERT_EQUAL(l->tasks[4].stage, 1);
	CU_ASSERT_EQUAL(rules_hit(l), 0);
	slog_free(l);
}

/* The largest log in well under a second (the figure is printed, the
 * bound loose enough for a loaded machine or the sanitizers). */
static void real_speed(void)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	struct slog *l = read_ok(SPARK "nds_q66_gpu.zstd", false);
	clock_gettime(CLOCK_MONOTONIC, &b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
	printf("\n  nds_q66_gpu.zstd (40 MB of JSON, 26214 lines): read in %.3f s\n", s);
	CU_ASSERT(s < 5.0);
	slog_free(l);
}

/* ---- small logs: bad records --------------------------------------- */

/* A consistent start: log start, app start, executor 1 on h1 (4 cores),
 * job 0 with stage 0 (2 tasks) submitted at 1210, task 0 on executor 1
 * from 1220 to 1320. */
#define BASE                                                                                   \
	"{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.1.3\"}\n"                       \
	"{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"t\",\"App ID\":\"app-1\","     \
	"\"Timestamp\":1000,\"User\":\"u\"}\n"                                                     \
	"{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":1100,\"Executor ID\":\"1\","      \
	"\"Executor Info\":{\"Host\":\"h1\",\"Total Cores\":4}}\n"                                  \
	"{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0,\"Submission Time\":1200,\"Stage Infos\":" \
	"[{\"Stage ID\":0,\"Stage Attempt ID\":0,\"Stage Name\":\"s0\",\"Number of Tasks\":2,"     \
	"\"Parent IDs\":[]}],\"Stage IDs\":[0]}\n"                                                  \
	"{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":0,"                \
	"\"Stage Attempt ID\":0,\"Stage Name\":\"s0\",\"Number of Tasks\":2,\"Parent IDs\":[],"    \
	"\"Submission Time\":1210}}\n"                                                              \
	"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,"                \
	"\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":{\"Task ID\":0,\"Index\":0,"  \
	"\"Attempt\":0,\"Launch Time\":1220,\"Executor ID\":\"1\",\"Host\":\"h1\","                \
	"\"Finish Time\":1320},\"Task Metrics\":{\"Executor Run Time\":90,"                        \
	"\"Executor Deserialize Time\":5}}\n"

/* Write text into the temporary folder as `name`; its path (static). */
static const char *write_log(const char *name, const char *text)
{
	static char path[256];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Reading path (strict or not) fails with path then `msg`. */
static void expect_error(const char *path, bool strict, const char *msg)
{
	char err[512] = "", want[512];
	struct slog_opts o = {.strict = strict};
	snprintf(want, sizeof want, "%s%s", path, msg);
	struct slog *l = slog_read(path, &o, err, sizeof err);
	CU_ASSERT_PTR_NULL(l);
	CU_ASSERT_STRING_EQUAL(err, want);
	if (strcmp(err, want))
		fprintf(stderr, "\n  want: %s\n  got:  %s\n", want, err);
	slog_free(l);
}

static void base_log(void)
{
	struct slog *l = read_ok(write_log("base", BASE), true);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_EQUAL(l->nexecs, 1);
	CU_ASSERT_EQUAL(l->njobs, 1);
	CU_ASSERT_EQUAL(l->nstages, 1);
	CU_ASSERT_EQUAL_FATAL(l->ntasks, 1);
	CU_ASSERT_EQUAL(l->jobs[0].end_ms, -1);
	CU_ASSERT_EQUAL(l->app.end_ms, -1);
	CU_ASSERT_EQUAL(l->tasks[0].run_ms, 90);
	CU_ASSERT_EQUAL(l->tasks[0].deser_ms, 5);
	CU_ASSERT_EQUAL(l->tasks[0].result_ms, -1); /* no Getting Result Time */
	CU_ASSERT_EQUAL(l->stages[0].job, 0);
	CU_ASSERT_EQUAL(l->stages[0].end_ms, -1);
	struct slog_span sp = slog_stage_span(l, 0);
	CU_ASSERT_EQUAL(sp.logged_ms, -1); /* not completed */
	CU_ASSERT_EQUAL(sp.first_launch_ms, 1220);
	CU_ASSERT_EQUAL(sp.last_finish_ms, 1320);
	CU_ASSERT_EQUAL(rules_hit(l), 0);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	CU_ASSERT_EQUAL(slog_info(f, l), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\napp: t, id app-1, user u\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ntime: 1000 to - ms\n")); /* no ApplicationEnd */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nconfig: master -, executor cores -, task cpus -, "
				      "executor gpus -, task gpus -, dynamic allocation -\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\njobs: 1 (0 succeeded, 0 failed, 1 without an end)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n     0       0      1           -       100     100.0     "
				      "100.0       100  s0\n"));
	const char *tail = "\nrecords skipped or clamped: none\n";
	CU_ASSERT_TRUE(len > strlen(tail) && !strcmp(out + len - strlen(tail), tail));
	free(out);
	slog_free(l);
}

/* Errors: lines that are not JSON, events without what they need,
 * fields of the wrong type or range; strict or not, the same. */
static void bad_records(void)
{
	static const struct {
		const char *lines; /* after BASE (6 lines) */
		const char *msg;
	} cases[] = {
		{"{\"Event\":\"SparkListenerLogStart\",}\n",
		 ":7:34: not JSON: expected a string key, found '}'"},
		{"{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":1",
		 ":7:62: not JSON: expected ',' or '}' after an object member, found the end of the text"},
		{"[1]\n", ":7:1: an array, not a Spark listener event (an object with an 'Event')"},
		{"{\"event\":\"SparkListenerLogStart\"}\n",
		 ":7:1: an object without 'Event': not a Spark listener event"},
		{"{\"Event\":7}\n",
		 ":7:2: 'Event' is an integer, expected a string: not a Spark listener event"},
		{"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0}\n",
		 ":7:1: SparkListenerTaskEnd: missing 'Task Info'"},
		{"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":1,"
		 "\"Executor ID\":\"1\",\"Finish Time\":5}}\n",
		 ":7:1: SparkListenerTaskEnd: missing 'Launch Time' in 'Task Info'"},
		{"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":1,"
		 "\"Executor ID\":\"1\",\"Launch Time\":5}}\n",
		 ":7:1: SparkListenerTaskEnd: missing 'Finish Time' in 'Task Info'"},
		{"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":1,"
		 "\"Executor ID\":\"1\",\"Launch Time\":\"5\",\"Finish Time\":6}}\n",
		 ":7:89: SparkListenerTaskEnd: 'Launch Time' is a string (\"5\"), expected an integer"},
		{"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":1,"
		 "\"Executor ID\":\"1\",\"Launch Time\":null,\"Finish Time\":6}}\n",
		 ":7:89: SparkListenerTaskEnd: 'Launch Time' is null, expected an integer"},
		{"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":1,"
		 "\"Executor ID\":\"1\",\"Launch Time\":-5,\"Finish Time\":6}}\n",
		 ":7:89: SparkListenerTaskEnd: 'Launch Time' -5 is out of range [0, 9007199254740992]"},
		{"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":1,"
		 "\"Executor ID\":\"1\",\"Launch Time\":\"a\\nb\",\"Finish Time\":6}}\n",
		 ":7:89: SparkListenerTaskEnd: 'Launch Time' is a string (\"a?b\"), expected an integer"},
		{"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":1,"
		 "\"Executor ID\":\"1\",\"Launch Time\":5,\"Finish Time\":6,\"Attempt\":70000}}\n",
		 ":7:121: SparkListenerTaskEnd: 'Attempt' 70000 is out of range [0, 65535]"},
		{"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":-1,\"Task Info\":{}}\n",
		 ":7:33: SparkListenerTaskEnd: 'Stage ID' -1 is out of range [0, 2147483647]"},
		{"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":[]}\n",
		 ":7:46: SparkListenerTaskEnd: 'Task Info' is an array, expected an object"},
		{"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":1,"
		 "\"Executor ID\":\"1\",\"Launch Time\":5,\"Finish Time\":6,\"Failed\":\"no\"}}\n",
		 ":7:121: SparkListenerTaskEnd: 'Failed' is a string (\"no\"), expected true or false"},
		{"{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":1,\"Executor Info\":"
		 "{\"Host\":\"h\",\"Total Cores\":1}}\n",
		 ":7:1: SparkListenerExecutorAdded: missing 'Executor ID'"},
		{"{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":1,\"Executor ID\":\"2\","
		 "\"Executor Info\":{\"Host\":\"h\"}}\n",
		 ":7:1: SparkListenerExecutorAdded: missing 'Total Cores' in 'Executor Info'"},
		{"{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":1,\"Executor ID\":\"2\","
		 "\"Executor Info\":{\"Host\":\"h\",\"Total Cores\":3000000}}\n",
		 ":7:99: SparkListenerExecutorAdded: 'Total Cores' 3000000 is out of range [0, 10000]"},
		{"{\"Event\":\"SparkListenerJobStart\",\"Job ID\":1,\"Stage IDs\":[1,\"2\"]}\n",
		 ":7:45: SparkListenerJobStart: 'Stage IDs' holds a string (\"2\"), expected stage ids "
		 "(integers in [0, 2147483647])"},
		{"{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":0,"
		 "\"Number of Tasks\":2}}\n",
		 ":7:1: SparkListenerStageCompleted: missing 'Completion Time' in 'Stage Info'"},
		{"{\"Event\":\"SparkListenerApplicationStart\",\"Timestamp\":5}\n",
		 ":7:1: SparkListenerApplicationStart: missing 'App Name'"},
		{"{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":"
		 "{\"spark.executor.cores\":\"4x\"}}\n",
		 ":7:63: SparkListenerEnvironmentUpdate: spark.executor.cores '4x' is not an integer in "
		 "[1, 10000]"},
		{"{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":"
		 "{\"spark.task.resource.gpu.amount\":\"0x1\"}}\n",
		 ":7:63: SparkListenerEnvironmentUpdate: spark.task.resource.gpu.amount '0x1' is not a "
		 "number >= 0"},
		{"{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":"
		 "{\"spark.dynamicAllocation.enabled\":\"yes\"}}\n",
		 ":7:63: SparkListenerEnvironmentUpdate: spark.dynamicAllocation.enabled 'yes' is not "
		 "true or false"},
		{"{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":"
		 "{\"spark.master\":1}}\n",
		 ":7:63: SparkListenerEnvironmentUpdate: 'spark.master' is an integer, expected a string"},
		{"{\"Event\":\"SparkListenerResourceProfileAdded\",\"Resource Profile Id\":1,"
		 "\"Task Resource Requests\":{\"gpu\":{\"Amount\":\"a\"}}}\n",
		 ":7:103: SparkListenerResourceProfileAdded: 'Amount' is a string (\"a\"), expected a number"},
	};
	char text[2048];
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		snprintf(text, sizeof text, "%s%s", BASE, cases[c].lines);
		const char *path = write_log("bad", text);
		expect_error(path, false, cases[c].msg);
		expect_error(path, true, cases[c].msg);
	}
}

/* Files that hold no log. */
static void bad_files(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s/none", tmpdir);
	expect_error(path, false, ":0:0: cannot open: No such file or directory");
	expect_error(write_log("empty", ""), false, ":1:1: no Spark listener events");
	expect_error(write_log("blank", "\n  \n\t\n"), false, ":1:1: no Spark listener events");
	expect_error(tmpdir, false, ":0:0: cannot open: a folder, not an event log file (rolling logs, eventlog_v2_*, "
		     "are not read: give one events_* file)");
	expect_error(write_log("app-1.lz4", "LZ4Block..."), false,
		     ":0:0: compressed with lz4, by its name: only plain and zstd-compressed event logs "
		     "are read");
	expect_error(write_log("app-1.snappy", "\x82SNAPPY"), false,
		     ":0:0: compressed with snappy, by its name: only plain and zstd-compressed event "
		     "logs are read");
	/* a zstd log named .lz4 is read for what it is */
	snprintf(path, sizeof path, "%s/renamed.lz4", tmpdir);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "cp " SPARK "eventlog_4nodes_8cores_dynamic_alloc.zstd %s", path);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	struct slog *l = read_ok(path, true);
	CU_ASSERT_PTR_NOT_NULL(l);
	CU_ASSERT_EQUAL(l ? l->ntasks : -1, 235);
	slog_free(l);
	/* a named pipe: refused at once, never waited on (it has no writer) */
	snprintf(path, sizeof path, "%s/pipe", tmpdir);
	CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
	expect_error(path, false, ":0:0: cannot open: not a regular file (a named pipe)");
	remove(path);
	/* found by the fuzzer (tests/data/fuzz/sparklog-no-tasks.json): an
	 * application whose stages had no task sorted a NULL array (UBSan) */
	l = read_ok("tests/data/fuzz/sparklog-no-tasks.json", false);
	CU_ASSERT_PTR_NOT_NULL(l);
	CU_ASSERT_EQUAL(l ? l->ntasks : -1, 0);
	slog_free(l);
}

/* Inconsistent records: each rule once, by a log whose last line breaks
 * it.  Not strict: counted once, at that line, and what the rule says
 * done; strict: the message. */
static void chk_app_end_early(const struct slog *l) { CU_ASSERT_EQUAL(l->app.end_ms, 1000); }
static void chk_exec_unknown(const struct slog *l) { CU_ASSERT_EQUAL(l->nexecs, 1); CU_ASSERT_EQUAL(l->execs[0].removed_ms, -1); }
static void chk_exec_removed_twice(const struct slog *l)
{
	CU_ASSERT_EQUAL(l->execs[0].removed_ms, 2000);
	CU_ASSERT_STRING_EQUAL(l->execs[0].removed_reason, "first");
}
static void chk_exec_removed_early(const struct slog *l) { CU_ASSERT_EQUAL(l->execs[0].removed_ms, 1100); CU_ASSERT_PTR_NULL(l->execs[0].removed_reason); }
static void chk_job_unknown(const struct slog *l) { CU_ASSERT_EQUAL(l->njobs, 1); CU_ASSERT_EQUAL(l->jobs[0].end_ms, -1); }
static void chk_job_ended_twice(const struct slog *l)
{
	CU_ASSERT_EQUAL(l->jobs[0].end_ms, 1400);
	CU_ASSERT_STRING_EQUAL(l->jobs[0].result, "JobSucceeded");
}
static void chk_job_end_early(const struct slog *l) { CU_ASSERT_EQUAL(l->jobs[0].end_ms, 1200); CU_ASSERT_PTR_NULL(l->jobs[0].result); }
static void chk_stage_unsubmitted(const struct slog *l) { CU_ASSERT_EQUAL(l->nstages, 1); CU_ASSERT_FALSE(l->stages[0].completed); }
static void chk_stage_completed_twice(const struct slog *l)
{
	CU_ASSERT_EQUAL(l->stages[0].end_ms, 1400);
	CU_ASSERT_PTR_NULL(l->stages[0].failure);
	CU_ASSERT_EQUAL(slog_stage_span(l, 0).logged_ms, 190);
}
static void chk_stage_end_early(const struct slog *l) { CU_ASSERT_EQUAL(l->stages[0].end_ms, 1210); CU_ASSERT_EQUAL(slog_stage_span(l, 0).logged_ms, 0); }
static void chk_task_no_stage(const struct slog *l) { CU_ASSERT_EQUAL(l->ntasks, 1); CU_ASSERT_EQUAL(l->nstages, 1); }
static void chk_task_no_exec(const struct slog *l)
{
	CU_ASSERT_EQUAL_FATAL(l->ntasks, 2);
	CU_ASSERT_EQUAL_FATAL(l->nexecs, 2);
	const struct slog_exec *e = &l->execs[1];
	CU_ASSERT_STRING_EQUAL(e->id, "7");
	CU_ASSERT_TRUE(e->implicit);
	CU_ASSERT_EQUAL(e->cores, 0);
	CU_ASSERT_EQUAL(e->added_ms, 1230);
	CU_ASSERT_STRING_EQUAL(l->hosts[e->host], "h2");
	CU_ASSERT_EQUAL(l->tasks[1].exec, 1);
	CU_ASSERT_EQUAL(l->tasks[1].host, e->host);
}
static void chk_task_finish_early(const struct slog *l)
{
	CU_ASSERT_EQUAL_FATAL(l->ntasks, 2);
	CU_ASSERT_EQUAL(l->tasks[1].launch_ms, 1300);
	CU_ASSERT_EQUAL(l->tasks[1].finish_ms, 1300);
}
static void chk_task_metric(const struct slog *l)
{
	CU_ASSERT_EQUAL_FATAL(l->ntasks, 2);
	CU_ASSERT_EQUAL(l->tasks[1].run_ms, -1);
	CU_ASSERT_EQUAL(l->tasks[1].deser_ms, 7);
}

static void inconsistent_records(void)
{
	static const struct {
		const char *name;
		enum slog_rule rule;
		int line;                           /* where it breaks */
		void (*check)(const struct slog *l); /* the rule applied */
		const char *msg;                    /* strict: after the path */
		const char *lines;                  /* after BASE */
	} cases[] = {
	{"app-end-early", SLOG_APP_END_EARLY, 7, chk_app_end_early,
	 ":7:40: SparkListenerApplicationEnd: 'Timestamp' 900 is before the application's start 1000",
	 "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":900}\n"},
	{"exec-unknown", SLOG_EXEC_UNKNOWN, 7, chk_exec_unknown,
	 ":7:58: SparkListenerExecutorRemoved: executor '9' was never added",
	 "{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":2000,\"Executor ID\":\"9\",\"Removed Reason\":\"lost\"}\n"},
	{"exec-removed-twice", SLOG_EXEC_REMOVED_TWICE, 8, chk_exec_removed_twice,
	 ":8:58: SparkListenerExecutorRemoved: executor '1' was removed already",
	 "{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":2000,\"Executor ID\":\"1\",\"Removed Reason\":\"first\"}\n"
	 "{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":2100,\"Executor ID\":\"1\",\"Removed Reason\":\"second\"}\n"},
	{"exec-removed-early", SLOG_EXEC_REMOVED_EARLY, 7, chk_exec_removed_early,
	 ":7:41: SparkListenerExecutorRemoved: executor '1' 'Timestamp' 1050 is before its add at 1100",
	 "{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":1050,\"Executor ID\":\"1\"}\n"},
	{"job-unknown", SLOG_JOB_UNKNOWN, 7, chk_job_unknown,
	 ":7:32: SparkListenerJobEnd: job 5 was never started",
	 "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":5,\"Completion Time\":1400,\"Job Result\":{\"Result\":\"JobSucceeded\"}}\n"},
	{"job-ended-twice", SLOG_JOB_ENDED_TWICE, 8, chk_job_ended_twice,
	 ":8:32: SparkListenerJobEnd: job 0 ended already",
	 "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":1400,\"Job Result\":{\"Result\":\"JobSucceeded\"}}\n"
	 "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":1500,\"Job Result\":{\"Result\":\"JobFailed\"}}\n"},
	{"job-end-early", SLOG_JOB_END_EARLY, 7, chk_job_end_early,
	 ":7:43: SparkListenerJobEnd: job 0 'Completion Time' 1100 is before its submission at 1200",
	 "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":1100}\n"},
	{"stage-unsubmitted", SLOG_STAGE_UNSUBMITTED, 7, chk_stage_unsubmitted,
	 ":7:54: SparkListenerStageCompleted: stage 1 attempt 0 was never submitted",
	 "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":1,\"Stage Attempt ID\":0,\"Number of Tasks\":1,\"Submission Time\":1300,\"Completion Time\":1400}}\n"},
	{"stage-completed-twice", SLOG_STAGE_COMPLETED_TWICE, 8, chk_stage_completed_twice,
	 ":8:54: SparkListenerStageCompleted: stage 0 attempt 0 completed already",
	 "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":0,\"Stage Attempt ID\":0,\"Number of Tasks\":2,\"Completion Time\":1400}}\n"
	 "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":0,\"Stage Attempt ID\":0,\"Number of Tasks\":2,\"Completion Time\":1500,\"Failure Reason\":\"late\"}}\n"},
	{"stage-end-early", SLOG_STAGE_END_EARLY, 7, chk_stage_end_early,
	 ":7:108: SparkListenerStageCompleted: stage 0 attempt 0 'Completion Time' 1200 is before its submission at 1210",
	 "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":0,\"Stage Attempt ID\":0,\"Number of Tasks\":2,\"Completion Time\":1200}}\n"},
	{"task-no-stage", SLOG_TASK_NO_STAGE, 7, chk_task_no_stage,
	 ":7:33: SparkListenerTaskEnd: task 1 is of stage 0 attempt 1, never submitted",
	 "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":1,\"Task Info\":{\"Task ID\":1,\"Index\":1,\"Attempt\":0,\"Launch Time\":1230,\"Executor ID\":\"1\",\"Host\":\"h1\",\"Finish Time\":1330}}\n"},
	{"task-no-exec", SLOG_TASK_NO_EXEC, 7, chk_task_no_exec,
	 ":7:133: SparkListenerTaskEnd: task 1 ran on executor '7', never added",
	 "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,\"Task Info\":{\"Task ID\":1,\"Index\":1,\"Attempt\":0,\"Launch Time\":1230,\"Executor ID\":\"7\",\"Host\":\"h2\",\"Finish Time\":1330}}\n"},
	{"task-finish-early", SLOG_TASK_FINISH_EARLY, 7, chk_task_finish_early,
	 ":7:163: SparkListenerTaskEnd: task 1 'Finish Time' 1250 is before its 'Launch Time' 1300",
	 "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,\"Task Info\":{\"Task ID\":1,\"Index\":1,\"Attempt\":0,\"Launch Time\":1300,\"Executor ID\":\"1\",\"Host\":\"h1\",\"Finish Time\":1250}}\n"},
	{"task-metric", SLOG_TASK_METRIC, 7, chk_task_metric,
	 ":7:199: SparkListenerTaskEnd: task 1 'Executor Run Time' -5 ms is outside [0, 2147483647]",
	 "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,\"Task Info\":{\"Task ID\":1,\"Index\":1,\"Attempt\":0,\"Launch Time\":1230,\"Executor ID\":\"1\",\"Host\":\"h1\",\"Finish Time\":1330},\"Task Metrics\":{\"Executor Run Time\":-5,\"Executor Deserialize Time\":7}}\n"},
	};
	CU_ASSERT_EQUAL(sizeof cases / sizeof cases[0], SLOG_NRULES); /* every rule */
	char text[4096];
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		snprintf(text, sizeof text, "%s%s", BASE, cases[c].lines);
		const char *path = write_log(cases[c].name, text);
		struct slog *l = read_ok(path, false);
		CU_ASSERT_PTR_NOT_NULL_FATAL(l);
		CU_ASSERT_EQUAL(l->count[cases[c].rule], 1);
		CU_ASSERT_EQUAL(l->first_line[cases[c].rule], cases[c].line);
		CU_ASSERT_EQUAL(rules_hit(l), 1);
		if (l->count[cases[c].rule] != 1 || rules_hit(l) != 1)
			fprintf(stderr, "\n  %s: count %lld of %lld\n", cases[c].name,
				(long long)l->count[cases[c].rule], (long long)rules_hit(l));
		cases[c].check(l);
		slog_free(l);
		expect_error(path, true, cases[c].msg);
	}
}

/* An id Spark gives once, given twice: an error naming the line and the
 * id, strict or not (it was a record skipped and counted); and the one
 * repeat Spark writes itself, a Resubmitted task end, passed over. */
static void duplicate_ids(void)
{
#define AGAIN " (events repeated, or two logs joined?)"
	static const struct {
		const char *name, *msg, *lines; /* msg after the path; lines after BASE */
	} cases[] = {
	{"app-dup", ":7:42: SparkListenerApplicationStart: a second application start ('t2'; the "
	 "first: 't'): an event log holds one application" AGAIN,
	 "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"t2\",\"Timestamp\":1001}\n"},
	{"profile-dup", ":8:46: SparkListenerResourceProfileAdded: resource profile 0 added "
	 "twice: Spark adds each profile once" AGAIN,
	 "{\"Event\":\"SparkListenerResourceProfileAdded\",\"Resource Profile Id\":0,\"Executor Resource Requests\":{\"cores\":{\"Resource Name\":\"cores\",\"Amount\":4}},\"Task Resource Requests\":{\"cpus\":{\"Resource Name\":\"cpus\",\"Amount\":1.0}}}\n"
	 "{\"Event\":\"SparkListenerResourceProfileAdded\",\"Resource Profile Id\":0,\"Executor Resource Requests\":{\"cores\":{\"Resource Name\":\"cores\",\"Amount\":8}}}\n"},
	{"exec-dup", ":7:56: SparkListenerExecutorAdded: executor '1' added twice: Spark gives "
	 "each executor of an application its own id" AGAIN,
	 "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":1150,\"Executor ID\":\"1\",\"Executor Info\":{\"Host\":\"h2\",\"Total Cores\":8}}\n"},
	{"exec-dup-removed", ":8:56: SparkListenerExecutorAdded: executor '1' added twice: Spark "
	 "gives each executor of an application its own id" AGAIN,
	 "{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":2000,\"Executor ID\":\"1\"}\n"
	 "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":2100,\"Executor ID\":\"1\",\"Executor Info\":{\"Host\":\"h1\",\"Total Cores\":4}}\n"},
	{"job-dup", ":7:34: SparkListenerJobStart: job 0 started twice: Spark numbers each job of "
	 "an application once" AGAIN,
	 "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0,\"Submission Time\":1250,\"Stage IDs\":[]}\n"},
	{"stage-dup", ":7:54: SparkListenerStageSubmitted: stage 0 attempt 0 submitted twice: "
	 "Spark numbers each attempt of a stage once" AGAIN,
	 "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":0,\"Stage Attempt ID\":0,\"Stage Name\":\"again\",\"Number of Tasks\":3,\"Parent IDs\":[]}}\n"},
	{"task-dup", ":7:80: SparkListenerTaskEnd: task 0 ended twice: Spark gives each task "
	 "attempt its own Task ID" AGAIN,
	 "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,\"Task Info\":{\"Task ID\":0,\"Index\":1,\"Attempt\":0,\"Launch Time\":1230,\"Executor ID\":\"1\",\"Host\":\"h1\",\"Finish Time\":1330}}\n"},
	{"task-dup-failed", ":7:80: SparkListenerTaskEnd: task 0 ended twice: Spark gives each "
	 "task attempt its own Task ID" AGAIN,
	 "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,\"Task Info\":{\"Task ID\":0,\"Index\":0,\"Attempt\":0,\"Launch Time\":1220,\"Executor ID\":\"1\",\"Host\":\"h1\",\"Finish Time\":1320},\"Task End Reason\":{\"Reason\":\"ExceptionFailure\"}}\n"},
	};
#undef AGAIN
	char text[4096];
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		snprintf(text, sizeof text, "%s%s", BASE, cases[c].lines);
		const char *path = write_log(cases[c].name, text);
		expect_error(path, false, cases[c].msg);
		expect_error(path, true, cases[c].msg);
	}
	/* an executor a task end added (never added before it): its late add
	 * passed over, not a duplicate */
	snprintf(text, sizeof text, "%s%s", BASE,
		 "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":1,"
		 "\"Launch Time\":1230,\"Executor ID\":\"7\",\"Host\":\"h2\",\"Finish Time\":1330}}\n"
		 "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":1400,\"Executor ID\":\"7\","
		 "\"Executor Info\":{\"Host\":\"h2\",\"Total Cores\":8}}\n");
	struct slog *l = read_ok(write_log("late-add", text), false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_EQUAL(l->nexecs, 2);
	CU_ASSERT_TRUE(l->execs[1].implicit);
	CU_ASSERT_EQUAL(l->execs[1].cores, 0);
	CU_ASSERT_EQUAL(l->count[SLOG_TASK_NO_EXEC], 1);
	CU_ASSERT_EQUAL(rules_hit(l), 1);
	slog_free(l);
	/* TaskSetManager.executorLost's notice: task 0's output lost with its
	 * executor, its end posted again as Resubmitted; the first end kept */
	snprintf(text, sizeof text, "%s%s", BASE,
		 "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,"
		 "\"Task End Reason\":{\"Reason\":\"Resubmitted\"},\"Task Info\":{\"Task ID\":0,"
		 "\"Index\":0,\"Attempt\":0,\"Launch Time\":1220,\"Executor ID\":\"1\","
		 "\"Host\":\"h1\",\"Finish Time\":1320}}\n");
	for (int strict = 0; strict < 2; strict++) {
		struct slog *l = read_ok(write_log("resubmitted", text), strict);
		CU_ASSERT_PTR_NOT_NULL_FATAL(l);
		CU_ASSERT_EQUAL(l->ntasks, 1);
		CU_ASSERT_EQUAL(l->tasks[0].reason, SLOG_R_SUCCESS);
		CU_ASSERT_EQUAL(l->tasks[0].finish_ms, 1320);
		CU_ASSERT_EQUAL(rules_hit(l), 0);
		CU_ASSERT_EQUAL(l->events, 7);
		slog_free(l);
	}
}

/* Text a reader cannot take for what it says: bytes that are not UTF-8
 * (at their byte offset in the file, or in the decompressed text of a
 * zstd log), a string read as text holding "\u0000" (it ended a C
 * string early: "1\u0000x" was executor '1'), half a surrogate pair. */
static void text_errors(void)
{
	static const struct {
		const char *name, *msg, *line; /* msg after the path; line after BASE */
	} cases[] = {
	{"latin1", ":7:74: not UTF-8: byte 0xe9 (a character cut short), at byte 1001 of the file",
	 "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":1150,\"Executor ID\":\"caf\xe9\","
	 "\"Executor Info\":{\"Host\":\"h2\",\"Total Cores\":8}}\n"},
	{"nul-id", ":7:56: SparkListenerExecutorAdded: 'Executor ID' holds a NUL character "
	 "('\\u0000'): not text hetsim reads",
	 "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":1150,\"Executor ID\":\"1\\u0000x\","
	 "\"Executor Info\":{\"Host\":\"h2\",\"Total Cores\":8}}\n"},
	{"nul-event", ":7:2: 'Event' holds a NUL character ('\\u0000'): not a Spark listener "
	 "event", "{\"Event\":\"SparkListenerJobEnd\\u0000\",\"Job ID\":0}\n"},
	{"nul-prop", ":7:63: SparkListenerEnvironmentUpdate: 'spark.task.cpus' holds a NUL "
	 "character ('\\u0000'): not text hetsim reads",
	 "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":"
	 "{\"spark.task.cpus\":\"1\\u00002\"}}\n"},
	{"half-pair", ":7:45: not JSON: '\\uDC00' is half a surrogate pair, not a character",
	 "{\"Event\":\"SparkListenerApplicationEnd\",\"x\":\"\\uDC00\",\"Timestamp\":2000}\n"},
	};
	char text[4096];
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		snprintf(text, sizeof text, "%s%s", BASE, cases[c].line);
		const char *path = write_log(cases[c].name, text);
		expect_error(path, false, cases[c].msg);
	}
	/* past the reader's first buffer (128 KiB): the offset counts every
	 * byte before the line, plain and zstd */
	size_t big = 300000, len = strlen(BASE);
	char *bigtext = malloc(big + 512);
	CU_ASSERT_PTR_NOT_NULL_FATAL(bigtext);
	memcpy(bigtext, BASE, len);
	int64_t lines = 6;
	while (len < big) {
		len += (size_t)sprintf(bigtext + len, "{\"Event\":\"SparkListenerOther\",\"n\":%lld}\n",
				       (long long)lines);
		lines++;
	}
	size_t at = len + 73; /* the byte, 0-based: column 74 of the next line */
	sprintf(bigtext + len, "%s", cases[0].line);
	char want[256];
	snprintf(want, sizeof want, ":%lld:74: not UTF-8: byte 0xe9 (a character cut short), at byte "
		 "%zu of the file", (long long)lines + 1, at);
	CU_ASSERT_EQUAL_FATAL((unsigned char)bigtext[at], 0xe9);
	expect_error(write_log("latin1-far", bigtext), false, want);
	free(bigtext);
	/* the same byte in a zstd log: its offset in the decompressed text */
	snprintf(text, sizeof text, "%s%s", BASE, cases[0].line);
	char path[300];
	snprintf(path, sizeof path, "%s/latin1.json.zst", tmpdir);
	h_put_zst(path, text);
	expect_error(path, false, ":7:74: not UTF-8: byte 0xe9 (a character cut short), at byte "
		     "1001 of the decompressed text");
}

/* Events as Spark writes them besides: names fully qualified, kinds not
 * read, empty lines, a task's flags, reason, metrics and result fetch. */
static void event_forms(void)
{
	const char *text = BASE
		"\n"
		"{\"Event\":\"org.apache.spark.scheduler.SparkListenerExecutorRemoved\",\"Timestamp\":1900,"
		"\"Executor ID\":\"1\",\"Removed Reason\":\"Container killed\"}\n"
		"{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\","
		"\"executionId\":0,\"sparkPlanInfo\":{\"nodeName\":\"x\",\"children\":[]}}\n"
		"{\"Event\":\"SparkListenerSomethingNew\",\"Stage ID\":\"whatever\"}\n"
		"   \n"
		"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task End Reason\":{\"Reason\":"
		"\"ExceptionFailure\",\"Class Name\":\"java.lang.RuntimeException\"},\"Task Info\":"
		"{\"Task ID\":5,\"Index\":1,\"Attempt\":2,\"Launch Time\":1250,\"Executor ID\":\"1\","
		"\"Speculative\":true,\"Getting Result Time\":1290,\"Finish Time\":1300,\"Failed\":true,"
		"\"Killed\":false,\"Accumulables\":[{\"ID\":1,\"Update\":\"2\"}]},\"Task Metrics\":null}\n"
		"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task End Reason\":{\"Reason\":"
		"\"TaskKilled\"},\"Task Info\":{\"Task ID\":6,\"Launch Time\":1250,\"Executor ID\":\"1\","
		"\"Host\":\"h9\",\"Finish Time\":1260,\"Failed\":false,\"Killed\":true}}\n"
		"{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":0,"
		"\"Number of Tasks\":2,\"Completion Time\":1350,\"Failure Reason\":\"Job aborted\"}}\n"
		"{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":1360,"
		"\"Job Result\":{\"Result\":\"JobFailed\"}}\n"
		"{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":2000}";  /* no final newline */
	struct slog *l = read_ok(write_log("forms", text), true);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_EQUAL(l->lines, 16); /* 6 + 10, the last without a newline */
	CU_ASSERT_EQUAL(l->events, 14); /* less lines 7 and 11, blank */
	CU_ASSERT_EQUAL(l->other_events, 2);
	CU_ASSERT_EQUAL(l->execs[0].removed_ms, 1900);
	CU_ASSERT_STRING_EQUAL(l->execs[0].removed_reason, "Container killed");
	CU_ASSERT_EQUAL_FATAL(l->ntasks, 3);
	/* by launch: task 0 (1220), then 5 and 6 (1250, by id) */
	const struct slog_task *t5 = &l->tasks[1], *t6 = &l->tasks[2];
	CU_ASSERT_EQUAL(t5->id, 5);
	CU_ASSERT_EQUAL(t5->attempt, 2);
	CU_ASSERT_EQUAL(t5->index, 1);
	CU_ASSERT_EQUAL(t5->flags & 0xf, SLOG_SPECULATIVE | SLOG_FAILED); /* the low bits: the high ones are its locality */
	CU_ASSERT_EQUAL(t5->reason, SLOG_R_EXCEPTION);
	CU_ASSERT_EQUAL(t5->run_ms, -1);
	CU_ASSERT_EQUAL(t5->deser_ms, -1);
	CU_ASSERT_EQUAL(t5->result_ms, 10);
	CU_ASSERT_STRING_EQUAL(l->hosts[t5->host], "h1"); /* the executor's */
	CU_ASSERT_EQUAL(t6->id, 6);
	CU_ASSERT_EQUAL(t6->index, -1);
	CU_ASSERT_EQUAL(t6->flags & 0xf, SLOG_KILLED);
	CU_ASSERT_EQUAL(t6->reason, SLOG_R_KILLED);
	CU_ASSERT_STRING_EQUAL(l->hosts[t6->host], "h9");
	CU_ASSERT_EQUAL(l->nhosts, 2);
	CU_ASSERT_STRING_EQUAL(l->stages[0].failure, "Job aborted");
	CU_ASSERT_EQUAL(l->stages[0].task_n, 3);
	CU_ASSERT_STRING_EQUAL(l->jobs[0].result, "JobFailed");
	CU_ASSERT_EQUAL(l->app.end_ms, 2000);
	struct slog_span sp = slog_stage_span(l, 0);
	CU_ASSERT_EQUAL(sp.logged_ms, 140);
	CU_ASSERT_EQUAL(sp.first_launch_ms, 1220);
	CU_ASSERT_EQUAL(sp.last_finish_ms, 1320);
	/* durations 100, 50, 10: type 7 */
	CU_ASSERT_DOUBLE_EQUAL(slog_stage_task_quantile(l, 0, 0.5), 50.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(slog_stage_task_quantile(l, 0, 0.95), 95.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(slog_stage_task_quantile(l, 0, 0), 10.0, 1e-9);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	CU_ASSERT_EQUAL(slog_info(f, l), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\njobs: 1 (0 succeeded, 1 failed, 0 without an end)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nstages: 1 submitted (1 completed, 1 of them failed), 0 never "
				      "submitted (listed by a job, skipped)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ntasks: 3 ended (1 succeeded, 1 failed, 1 killed, 1 "
				      "speculative), 0 started\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n     0       0      3         140       100      50.0      "
				      "95.0       100  s0\n"));
	free(out);
	slog_free(l);
}

/* SLOG_TASK_METRIC for the result fetch: Getting Result Time after the
 * finish. */
static void fetch_after_finish(void)
{
	const char *path = write_log("fetch", BASE
		"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":1,"
		"\"Launch Time\":1230,\"Executor ID\":\"1\",\"Getting Result Time\":1400,"
		"\"Finish Time\":1330}}\n");
	struct slog *l = read_ok(path, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_EQUAL(l->count[SLOG_TASK_METRIC], 1);
	CU_ASSERT_EQUAL_FATAL(l->ntasks, 2);
	CU_ASSERT_EQUAL(l->tasks[1].result_ms, -1);
	CU_ASSERT_EQUAL(l->tasks[1].run_ms, -1); /* no Task Metrics */
	slog_free(l);
	expect_error(path, true, ":7:108: SparkListenerTaskEnd: task 1 'Finish Time' - 'Getting "
		     "Result Time' -70 ms is outside [0, 2147483647]");
}

/* The summary's last lines count what the rules did, by reason. */
static void info_rules(void)
{
	const char *text = BASE
		"{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":2000,\"Executor ID\":\"9\"}\n"
		"{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":2000,\"Executor ID\":\"8\"}\n"
		"{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":3,"
		"\"Launch Time\":1300,\"Executor ID\":\"1\",\"Finish Time\":1299}}\n";
	struct slog *l = read_ok(write_log("rules", text), false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	CU_ASSERT_EQUAL(slog_info(f, l), 0);
	fclose(f);
	const char *tail = "records skipped or clamped:\n"
			   "  2 removals of executors never added: skipped (first at line 7)\n"
			   "  1 task ends finishing before their launch: clamped (first at line 9)\n";
	CU_ASSERT_TRUE(len >= strlen(tail) && !strcmp(out + len - strlen(tail), tail));
	if (len < strlen(tail) || strcmp(out + len - strlen(tail), tail))
		fprintf(stderr, "\n%s", out);
	free(out);
	/* and in one line, the warning replay-log and trace info print */
	char w[512], want[512];
	CU_ASSERT_EQUAL(slog_warning(l, w, sizeof w), 1);
	snprintf(want, sizeof want, "%s: 3 inconsistent records (2 removals of executors never "
		 "added: skipped; 1 task ends finishing before their launch: clamped), the first at "
		 "line 7", l->path);
	CU_ASSERT_STRING_EQUAL(w, want);
	slog_free(l);
	l = read_ok(write_log("clean", BASE), false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_EQUAL(slog_warning(l, w, sizeof w), 0);
	slog_free(l);
}

static int setup(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/hetsim-slog-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void)
{
	return h_rmtree(tmpdir);
}

int test_suite_sparklog(void)
{
	CU_pSuite s = CU_add_suite("sparklog", setup, teardown);
	if (!s)
		return -1;
	static const struct {
		const char *name;
		CU_TestFunc fn;
	} tests[] = {
		{"real log: NDS q66 on GPUs (Spark 3.1.3, zstd)", real_nds},
		{"real log: dynamic allocation (Spark 3.2.1)", real_dynamic},
		{"real log: sparklens local (Spark 2.3)", real_sparklens},
		{"real log: the largest read in well under a second", real_speed},
		{"small log: the consistent base", base_log},
		{"bad records: exact messages", bad_records},
		{"bad files: missing, empty, blank, a folder, other codecs", bad_files},
		{"inconsistent records: each rule, counted or strict", inconsistent_records},
		{"duplicate ids: an error at the line, naming the id; Resubmitted passed over",
		 duplicate_ids},
		{"text: not UTF-8 at its byte offset, NUL in a string, half a surrogate pair",
		 text_errors},
		{"events: qualified names, other kinds, flags, metrics", event_forms},
		{"inconsistent records: a result fetched after the finish", fetch_after_finish},
		{"info: the records skipped or clamped, by reason", info_rules},
	};
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
		if (!CU_add_test(s, tests[i].name, tests[i].fn))
			return -1;
	return 0;
}
