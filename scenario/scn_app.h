/* scn_app.h - a Spark application replayed from its event log
 * (`hetsim replay-log`, docs/traces.md "Replaying a Spark event log"):
 * its stages with their DAG and their tasks' logged run times, and its
 * executors as they came and went.  Built by cli/replay.c from
 * input/sparklog.h, run by the `spark-app` job model
 * (workloads/sparkapp.c), its executors placed as logged by the
 * `log-replay` policy (policies/log_replay.c).
 *
 * Times are µs from the application's start (ApplicationStart).
 *
 * Module: scenario/ (types only).
 */
#ifndef HETSIM_SCN_APP_H
#define HETSIM_SCN_APP_H

#include <stdint.h>

struct scn_app_stage {
	int id;               /* Spark's Stage ID */
	int job;              /* Spark's Job ID of the first job listing it */
	char *name;           /* Stage Name; owned */
	int ntasks;           /* its tasks replayed: one per index that succeeded */
	double *work_us;      /* per task, in index order: its successful attempt's
				 Finish - Launch Time, µs; owned */
	int *pref;            /* per task, npref nodes it prefers (-1: none;
				 input/spark_app.h: its host, or its executor,
				 or its host's executors, where its successful
				 attempt ran at PROCESS_LOCAL or NODE_LOCAL
				 locality); owned (NULL if none prefers one) */
	int npref;
	int *parents;         /* indices in scn_app.stages (the DAG); owned */
	int nparents;
	int64_t release_us;   /* not submitted before: its own Submission Time
				 for a stage with no parent replayed (the
				 driver's decision), else its job's */
	int64_t delay_us;     /* its driver's time before its first task could
				 launch: its first launch less its Submission
				 Time, less the wait for a free slot the log
				 shows (cli/replay.c, driver_delay) */
	int64_t log_submit_us, log_end_us; /* Submission, Completion Time; -1 */
	int attempts_left_out;/* task ends not replayed: failed, killed,
				 speculative copies, a second success */
};

struct scn_app_exec {
	int node;             /* its host's node (cluster order) */
	int cores;            /* Total Cores */
	int gpus;             /* GPU addresses */
	int64_t added_us;     /* ExecutorAdded, clamped to >= 0 */
	int64_t removed_us;   /* ExecutorRemoved; -1: never */
};

struct scn_app {
	char *name;                     /* App Name (or the log's file name); owned */
	struct scn_app_stage *stages;   /* Spark's FIFO order: job id, then stage id */
	int nstages;
	struct scn_app_exec *execs;     /* in the order they were added */
	int nexecs;
	int max_execs;                  /* executors up at once, at most */
	int exec_cores, exec_gpus;      /* an executor's (the most common) */
	int64_t exec_mem_mib;           /* memory each (the log's, or 1 GiB) */
	int slots;                      /* task slots of an executor of exec_cores:
					   cores / spark.task.cpus, and no more than
					   its GPUs / spark.task.resource.gpu.amount */
	int task_cpus;                  /* spark.task.cpus, 1 unless set */
	double task_gpus;               /* spark.task.resource.gpu.amount; 0 */
	bool fair;                      /* spark.scheduler.mode FAIR */
	int nodes;                      /* enum spapp_nodes: the cluster's nodes are
					   the hosts, or one per executor */
	int64_t locality_wait_us;       /* spark.locality.wait (3 s unless set) */
	int64_t idle_timeout_us;        /* dynamic allocation: an executor idle this
					   long is given back (executorIdleTimeout);
					   0: no dynamic allocation */
	int64_t log_span_us;            /* ApplicationEnd - Start; -1 */
	int64_t log_jobs_end_us;        /* the last JobEnd; -1 */
};

/* Free an app (NULL is fine). */
void scn_app_free(struct scn_app *a);

#endif
