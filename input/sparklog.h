/* sparklog.h - read a Spark event log (slog_ prefix): the application,
 * its configuration, executors, jobs, stages (the DAG) and tasks, for
 * `hetsim replay-log` and `hetsim trace info`.
 *
 * An event log is JSON lines, one SparkListener event a line ("Event"
 * names it), plain or zstd-compressed (Spark's
 * spark.eventLog.compression.codec=zstd).  The reader streams it
 * through zread.h, one line at a time, and keeps only the records
 * below: memory grows with the tasks (struct slog_task, 56 bytes each)
 * and the longest line, not with the file.
 * Spark 2.x and 3.x logs; an event's name is taken short or fully
 * qualified ("org.apache.spark.scheduler.SparkListenerTaskEnd"), and
 * events of other kinds are checked to be JSON and skipped.  Empty
 * (all-whitespace) lines are skipped.
 *
 * Bad input, one rule.  A line that is not JSON, or an event without a
 * field its kind needs (below, "needs"), or with a field of the wrong
 * type or out of its range ("'Attempt' 70000 is out of range [0,
 * 65535]"), is an error: slog_read returns NULL and writes one line
 * "path:line:col: message" (col: the JSON problem's byte column, the
 * offending member's key for a wrong value, 1 for a missing field).
 * A file with no event at all is an error too ("path: no Spark
 * listener events"), and so are a folder (Spark's rolling logs,
 * eventlog_v2_<app>/, are not read) and a name ending in .lz4, .lzf or
 * .snappy (codecs not read) that is not zstd inside.  Which events
 * need what:
 *
 *   every line            Event (a string), the line being an object
 *   LogStart              Spark Version
 *   ApplicationStart      App Name, Timestamp (App ID, User optional)
 *   ApplicationEnd        Timestamp
 *   EnvironmentUpdate     Spark Properties (an object); of the
 *                         properties read (struct slog_env), a value
 *                         that does not parse is an error: cores and
 *                         cpus integers >= 1, GPU amounts decimal
 *                         numbers >= 0, dynamicAllocation.enabled true
 *                         or false (any case)
 *   ResourceProfileAdded  Resource Profile Id
 *   ExecutorAdded         Executor ID, Timestamp, Executor Info {Host,
 *                         Total Cores}
 *   ExecutorRemoved       Executor ID, Timestamp
 *   JobStart              Job ID (no Submission Time in Spark 1.2 logs)
 *   JobEnd                Job ID, Completion Time
 *   StageSubmitted        Stage Info {Stage ID, Number of Tasks}
 *   StageCompleted        Stage Info {Stage ID, Number of Tasks,
 *                         Completion Time}
 *   TaskEnd               Stage ID, Task Info {Task ID, Launch Time,
 *                         Finish Time, Executor ID}
 *
 * Other fields are optional (Stage Attempt ID and Resource Profile Id
 * default to 0; a null is taken as absent, as "Task Metrics": null);
 * where present they must have their type.  Ids,
 * counts and cores are integers in [0, 2^31 - 1] (Task ID: [0, 2^63 -
 * 1], Attempt: [0, 65535]); moments (Timestamp, Launch Time, ...) are
 * epoch ms in [0, SLOG_MAX_MS].
 *
 * The text must be UTF-8 (RFC 8259 §8.1): a byte that is not is an
 * error naming it, at its line and column and its byte offset in the
 * file (in the decompressed text of a zstd log); a string read as text
 * (an id, a name, a property read) may not hold "\u0000".
 *
 * An id that Spark gives once in an application, given twice, is an
 * error naming the line and the id: a second ApplicationStart (one
 * application a log: Spark writes a log per application attempt), an
 * executor, job, resource profile, (stage, attempt) or Task ID added,
 * started, submitted or ended again.  Spark's schedulers number them
 * from counters that only grow (DAGScheduler's job and stage ids, a
 * stage's attempts, TaskSchedulerImpl's task ids, the cluster managers'
 * executor ids, ResourceProfileManager posting a profile once), and its
 * listener bus may drop events under load but never repeats one, so a
 * repeat means a log whose events were written twice or two logs
 * joined.  One exception, Spark's own: a TaskEnd of reason Resubmitted
 * repeats the Task ID of a shuffle map task that ended before
 * (TaskSetManager.executorLost posts it when the task's output is lost
 * with its executor); it is passed over, the task's first end kept.
 *
 * A record that parses but does not fit what came before, the kind of
 * gap a dropped event leaves, is inconsistent: it is skipped or
 * clamped by the rule of its reason (enum slog_rule), and counted per
 * reason (struct slog, count[] and first_line[]; slog_warning says it
 * in one line).  With opts.strict the first one is an error instead,
 * "path:line:col: message" (col: the offending member's key).
 */
#ifndef HETSIM_SPARKLOG_H
#define HETSIM_SPARKLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SLOG_MAX_MS ((int64_t)1 << 53) /* the latest moment read, epoch ms */

struct slog_opts {
	bool strict;                /* the first inconsistent record is an error */
};

/* The inconsistencies, each with its rule.  A record skipped leaves
 * everything as it was before it. */
enum slog_rule {
	SLOG_APP_END_EARLY,         /* ApplicationEnd before the start: clamped to the start */
	SLOG_EXEC_UNKNOWN,          /* ExecutorRemoved of an id never added: skipped */
	SLOG_EXEC_REMOVED_TWICE,    /* ExecutorRemoved of one already removed: skipped */
	SLOG_EXEC_REMOVED_EARLY,    /* removed before it was added: clamped to the add */
	SLOG_JOB_UNKNOWN,           /* JobEnd of a job never started: skipped */
	SLOG_JOB_ENDED_TWICE,       /* a second JobEnd of a job: skipped */
	SLOG_JOB_END_EARLY,         /* completion before submission: clamped to it */
	SLOG_STAGE_UNSUBMITTED,     /* StageCompleted of one never submitted: skipped */
	SLOG_STAGE_COMPLETED_TWICE, /* a second StageCompleted: skipped */
	SLOG_STAGE_END_EARLY,       /* completion before submission: clamped to it */
	SLOG_TASK_NO_STAGE,         /* TaskEnd of a (stage, attempt) never submitted: skipped */
	SLOG_TASK_NO_EXEC,          /* TaskEnd on an executor never added (or removed before the
				     * launch: not checked): an executor is added for it, at the
				     * task's launch, on the task's host, 0 cores (implicit); an
				     * ExecutorAdded of it after that is passed over */
	SLOG_TASK_FINISH_EARLY,     /* Finish Time before Launch Time: clamped to the launch */
	SLOG_TASK_METRIC,           /* a time metric outside [0, 2^31 - 1] ms: dropped (-1) */
	SLOG_NRULES
};

/* What the reader counts a rule's records as ("task ends of a stage
 * never submitted") and does with them ("skipped"), for slog_info. */
const char *slog_rule_what(enum slog_rule r);
const char *slog_rule_action(enum slog_rule r);

/* Why a task ended: Task End Reason's Reason. */
enum slog_reason {
	SLOG_R_SUCCESS,
	SLOG_R_RESUBMITTED,
	SLOG_R_FETCH_FAILED,
	SLOG_R_EXCEPTION,
	SLOG_R_RESULT_LOST,
	SLOG_R_KILLED,
	SLOG_R_COMMIT_DENIED,
	SLOG_R_EXECUTOR_LOST,
	SLOG_R_UNKNOWN,             /* UnknownReason, another name, or no Task End Reason */
	SLOG_NREASONS
};
/* The locality level a task ran at (Task Info's Locality). */
enum slog_locality {
	SLOG_L_PROCESS_LOCAL, SLOG_L_NODE_LOCAL, SLOG_L_NO_PREF, SLOG_L_RACK_LOCAL, SLOG_L_ANY,
	SLOG_L_UNKNOWN              /* absent, or another name */
};

/* Spark's name of a reason ("ExceptionFailure"). */
const char *slog_reason_name(enum slog_reason r);

struct slog_app {
	const char *name;           /* App Name; NULL without ApplicationStart */
	const char *id;             /* App ID; NULL if absent */
	const char *user;           /* User; NULL if absent */
	const char *spark_version;  /* LogStart's Spark Version; NULL if absent */
	int64_t start_ms, end_ms;   /* ApplicationStart / End Timestamp, epoch ms; -1 absent */
};

/* The Spark Properties of EnvironmentUpdate read here (the last such
 * event wins); each -1 (NULL) when the property is not set. */
struct slog_env {
	const char *master;         /* spark.master */
	int executor_cores;         /* spark.executor.cores */
	int task_cpus;              /* spark.task.cpus (Spark's default: 1) */
	double executor_gpus;       /* spark.executor.resource.gpu.amount */
	double task_gpus;           /* spark.task.resource.gpu.amount */
	int dyn_alloc;              /* spark.dynamicAllocation.enabled: 0, 1 */
	int64_t idle_timeout_ms;    /* spark.dynamicAllocation.executorIdleTimeout
				     * ("10s", "1min", "500ms"; a bare number is
				     * seconds); -1 absent (Spark's default: 60 s) */
	int fair;                   /* spark.scheduler.mode: 1 FAIR, 0 FIFO (Spark's
				     * default; also when absent) */
	int64_t locality_wait_ms;   /* spark.locality.wait (a bare number: ms as
				     * Spark reads it); -1 absent (default 3 s) */
};

/* A resource profile (ResourceProfileAdded, Spark 3.1+); -1 where the
 * profile does not ask for it. */
struct slog_profile {
	int id;                     /* Resource Profile Id */
	int64_t exec_cores;         /* Executor Resource Requests cores Amount */
	int64_t exec_mem_mib;       /* memory Amount, MiB */
	int64_t exec_overhead_mib;  /* memoryOverhead Amount, MiB */
	int64_t exec_gpus;          /* gpu Amount */
	double task_cpus;           /* Task Resource Requests cpus Amount */
	double task_gpus;           /* gpu Amount (0.0625: 16 tasks share a GPU) */
};

struct slog_exec {
	const char *id;             /* Executor ID ("driver" in local mode) */
	int host;                   /* index into slog.hosts */
	int cores;                  /* Total Cores; 0 if implicit */
	int gpus;                   /* Resources gpu addresses, how many */
	int profile;                /* Resource Profile Id */
	int64_t added_ms;           /* ExecutorAdded Timestamp, epoch ms */
	int64_t removed_ms;         /* ExecutorRemoved Timestamp; -1: never removed */
	const char *removed_reason; /* Removed Reason; NULL if not removed or none given */
	bool implicit;              /* added for a task (SLOG_TASK_NO_EXEC), not by an event */
};

struct slog_job {
	int id;                     /* Job ID */
	int64_t submit_ms;          /* Submission Time; -1 absent */
	int64_t end_ms;             /* JobEnd Completion Time; -1: no JobEnd */
	const char *result;         /* Job Result's Result ("JobSucceeded"); NULL: none */
	const int *stage_ids;       /* Stage IDs */
	int nstages;
};

/* A stage attempt: one StageSubmitted, or a stage that a JobStart's
 * Stage Infos lists but that never ran (skipped: its output existed). */
struct slog_stage {
	int id, attempt;            /* Stage ID, Stage Attempt ID */
	const char *name;           /* Stage Name; "" if absent */
	int ntasks;                 /* Number of Tasks */
	const int *parents;         /* Parent IDs: stage ids (the DAG) */
	int nparents;
	int job;                    /* index into slog.jobs of the first job listing it; -1 */
	int profile;                /* Resource Profile Id */
	bool submitted;             /* a StageSubmitted came */
	bool completed;             /* a StageCompleted came */
	int64_t submit_ms;          /* Submission Time, epoch ms; -1 absent */
	int64_t end_ms;             /* Completion Time; -1 absent */
	const char *failure;        /* Failure Reason; NULL: none */
	int task_lo, task_n;        /* its task ends: slog.tasks[task_lo .. task_lo + task_n) */
};

/* Task flags. */
#define SLOG_SPECULATIVE 1u
#define SLOG_FAILED 2u
#define SLOG_KILLED 4u

/* One TaskEnd, compact: a log can hold 10^6 of them. */
struct slog_task {
	int64_t id;                 /* Task ID */
	int64_t launch_ms;          /* Launch Time, epoch ms */
	int64_t finish_ms;          /* Finish Time, >= launch_ms (SLOG_TASK_FINISH_EARLY) */
	int32_t stage;              /* index into slog.stages */
	int32_t index;              /* Index: the partition; -1 absent */
	int32_t exec;               /* index into slog.execs */
	int32_t host;               /* index into slog.hosts: Host, or the executor's if absent */
	int32_t run_ms;             /* Task Metrics' Executor Run Time, ms; -1 absent */
	int32_t deser_ms;           /* Executor Deserialize Time, ms; -1 absent */
	int32_t result_ms;          /* fetching the result: Finish Time - Getting Result Time
				     * (a moment, 0 when the result came with the end: then
				     * 0 ms), as Spark's UI; -1 absent */
	uint16_t attempt;           /* Attempt */
	uint8_t flags;              /* SLOG_SPECULATIVE | SLOG_FAILED | SLOG_KILLED, and
				     * in the high 4 bits its locality (slog_locality) */
	uint8_t reason;             /* enum slog_reason */
};
/* Task t's Task Info Locality (enum slog_locality). */
#define slog_locality(t) ((enum slog_locality)((t)->flags >> 4))

struct slog_mem;                    /* the strings and arrays (sparklog.c) */

/* What a log holds.  Executors and jobs are in the order they were
 * added or started; stages by (id, attempt); tasks by (stage, launch,
 * Task ID), each stage's together. */
struct slog {
	const char *path;
	bool compressed;            /* zstd */
	int64_t lines;              /* lines read */
	int64_t events;             /* events (non-empty lines) */
	int64_t other_events;       /* of them, of kinds not read here */
	int64_t task_starts;        /* TaskStart events (tasks: their ends) */
	struct slog_app app;
	struct slog_env env;
	struct slog_profile *profiles;
	int nprofiles;
	struct slog_exec *execs;
	int nexecs;
	const char **hosts;         /* distinct hosts of executors and tasks, as first seen */
	int nhosts;
	struct slog_job *jobs;
	int njobs;
	struct slog_stage *stages;
	int nstages;
	struct slog_task *tasks;
	int ntasks;
	int64_t count[SLOG_NRULES];      /* inconsistent records, per rule */
	int64_t first_line[SLOG_NRULES]; /* the line of the first; 0: none */
	struct slog_mem *mem;
};

/* Read the event log at path (opts NULL: defaults).  On success returns
 * the log, owned by the caller (free with slog_free).  On error returns
 * NULL, allocates nothing, and writes one line "path:line:col: message"
 * (no newline) into err (at most errlen bytes). */
struct slog *slog_read(const char *path, const struct slog_opts *opts, char *err,
		       size_t errlen);
void slog_free(struct slog *l);

/* A stage's logged duration beside the span of its tasks, for checking
 * a replay against the log. */
struct slog_span {
	int64_t logged_ms;          /* Completion - Submission Time; -1 if either is absent */
	int64_t first_launch_ms;    /* its earliest task launch; -1 without task ends */
	int64_t last_finish_ms;     /* its latest task finish; -1 without task ends */
	int tasks;                  /* its task ends (failed, killed ones too) */
};
struct slog_span slog_stage_span(const struct slog *l, int stage);

/* The p-quantile (0 <= p <= 1) of the finish - launch of a stage's
 * tasks, ms: linear interpolation between order statistics at (n - 1)p
 * (R's type 7, as docs/output.md's percentiles); -1 without tasks. */
double slog_stage_task_quantile(const struct slog *l, int stage, double p);

/* The warning line for a log's inconsistent records, as trace_warning's
 * for a trace ("log.json: 3 inconsistent records (2 removals of
 * executors never added: skipped; 1 task ends finishing before their
 * launch: clamped), the first at line 7"; hetsim trace info lists them
 * by reason): 1, or 0 when there is none. */
int slog_warning(const struct slog *l, char *buf, size_t len);

/* A summary for people (`hetsim trace info`): the format, Spark
 * version, application, time span, configuration, executors, jobs,
 * stages, tasks, each stage's task durations (p50, p95, max), and the
 * records skipped or clamped by reason.  Returns 0, or -1 if writing
 * failed. */
int slog_info(FILE *out, const struct slog *l);

#endif
