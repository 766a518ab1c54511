/* models.h - the registry of job models, and each model's params.
 *
 * A scenario's job group names its model by `type:`; the loader finds
 * it here (jm_find) and stores its index (scn_job_group.type), its
 * table (model) and its hooks (ops).  Adding a model: its file in
 * workloads/, its entry below and in models.c, its page in docs
 * (docs/writing-a-job-model.md); or, without a build of hetsim's own
 * (a test's model), jm_add.
 */
#ifndef HETSIM_MODELS_H
#define HETSIM_MODELS_H

#include <stdint.h>

#include "model.h"
#include "scenario.h"

/* Registry order: the index a group's `type` holds, and the order of
 * per-model columns and lists. */
enum jm_id {
	JM_WORDCOUNT,
	JM_MNIST,
	JM_SYNTHETIC,
	JM_ANGEL,
	JM_TRACE,
	JM_SPARK_APP,
	JM_MODELS /* count */
};
_Static_assert(JM_MODELS <= SCN_MAX_MODELS, "scenario.h holds every model");

extern const struct job_model jm_wordcount, jm_mnist_spark, jm_synthetic, jm_angel, jm_trace,
	jm_spark_app;
extern const struct job_model *const jm_registry[JM_MODELS];

/* Models past the built-in ones, added while the program runs (a
 * test's example model, tests/model_gang.c): jm_add registers m after
 * the others and returns its index, or -1 when the table is full
 * (SCN_MAX_MODELS) or the name taken.  jm_count is how many models
 * there are, jm_at(t) model t (NULL past them): what every list of the
 * models reads, so that an added one is known wherever a built-in is. */
int jm_add(const struct job_model *m);
int jm_count(void);
const struct job_model *jm_at(int t);
/* The model named `name`, or NULL; its index into *id. */
const struct job_model *jm_find(const char *name, int *id);
/* Model t's name ("wordcount", ...), "?" past the registry. */
const char *jm_name(int t);
/* The name of role `role` of a job of model t, as executors.csv writes
 * it ("executor", "ps", "worker"); "am" for a negative role (an
 * application master, SIM_ROLE_AM). */
const char *jm_role_name(int t, int role);
/* Where key `key` of group `given` was written, else the group. */
const struct scn_pos *jm_pos(const struct job_model *m, const struct jm_given *given,
			     const char *key);

/* ---- params of each model (jg->params) ------------------------------ */

/* wordcount (wordcount.c) */
struct jm_wordcount {
	struct scn_exec exec;      /* Spark executors */
	struct scn_dist input_mib; /* input size per job, MiB */
	int parallelism;           /* reduce tasks; 0 = as many as map tasks */
	double shuffle_ratio;      /* shuffle bytes / input bytes, default 0.1 */
	int64_t split_mib;         /* HDFS block size, default 128 */
	int hdfs_replicas;         /* replicas of each block (dfs.replication),
				      default 3: with locality, each map task
				      prefers their nodes */
};

/* What a TensorFlowOnSpark worker does when its executor got no GPU from
 * the scheduler and every GPU of its node is busy (docs/model.md). */
enum jm_gpu_busy {
	JM_GPU_BUSY_RETRY, /* TFoS 1.x: probe again at +30 s, +90 s; fail at +180 s */
	JM_GPU_BUSY_CPU,   /* train on the CPU at once */
};

/* mnist_spark (mnist_spark.c: TensorFlowOnSpark, InputMode.SPARK, 1 PS) */
struct jm_mnist {
	int cluster_size;          /* executors, 1 PS + (cluster_size-1) workers, >= 2 */
	struct scn_exec ps, worker;/* per-role demands (worker.count = cluster_size - 1) */
	int steps;                 /* global training steps, default 1000 */
	int batch_size;            /* samples per step, default 100 */
	int epochs;                /* passes over the samples, default 1 */
	int samples;               /* training samples, default 60 000 (MNIST's) */
	int train_steps;           /* derived: min(steps, ceil(samples × epochs /
				      batch_size)), the steps training runs */
	int partitions;            /* training RDD partitions, default 10 */
	int64_t feed_task_us;      /* feeding one partition for one epoch */
	int64_t startup_us;        /* TF start-up after all executors up */
	int64_t shutdown_us;       /* shutdown phase */
	int64_t reservation_timeout_us; /* default 600 s */
	int gpu_busy;              /* enum jm_gpu_busy; default retry */
	int64_t checkpoint_every_us;   /* 0: no checkpoints (a lost node fails the job) */
	int64_t checkpoint_save_us;    /* saving one (a preempted node pays it) */
	int64_t checkpoint_restore_us; /* loading the last one after a loss */
};

/* synthetic (synthetic.c): stages in jg->stages */
struct jm_synthetic {
	struct scn_exec exec;
};

/* angel (angel.c: Spark-on-Angel): Spark executors in `exec`; the
 * parameter servers in `ps` (count = spark.ps.instances, default 1;
 * cores 1, memory 4 GiB); `partitions` tasks per iteration */
struct jm_angel {
	struct scn_exec exec, ps;
	int iterations;            /* training iterations, default 10 */
	int partitions;            /* tasks per iteration, default 10 */
	double samples;            /* samples per partition per iteration */
	int64_t model_mib;         /* model size pulled and pushed per task, MiB */
};

#endif
