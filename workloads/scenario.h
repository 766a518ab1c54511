/* scenario.h - a scenario file, parsed and checked (scn_ prefix).
 *
 * scn_load() reads one YAML scenario (cluster, workload, cost model,
 * policies, seed, replications, metric options) and returns it fully
 * validated: every later module may trust what is here.  All amounts are
 * integers in fixed units: times in microseconds (int64_t), memory in MiB.
 * Doubles appear only where the quantity is naturally real (speed factors,
 * rates, coefficients of variation).  docs/scenario.md is the user-facing
 * description of the format.
 */
#ifndef HETSIM_SCENARIO_H
#define HETSIM_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SCN_MAX_LABELS 64 /* labels are bits of a uint64_t */

struct scn_pos {       /* where a value was written, for messages */
	const char *file; /* points into struct scn; not owned */
	int line, col;    /* 1-based */
};

/* A distribution of a duration (µs) or of an amount (its own unit). */
enum scn_dist_kind {
	SCN_DIST_CONST,       /* a = value */
	SCN_DIST_EXPONENTIAL, /* a = mean */
	SCN_DIST_LOGNORMAL,   /* a = mean, b = coefficient of variation */
	SCN_DIST_UNIFORM,     /* a = min, b = max */
};
struct scn_dist {
	enum scn_dist_kind kind;
	double a, b; /* see the kind; same unit as the value drawn */
};

struct scn_node_group {
	char *name;        /* nodes are named <name>-<i>, i from 0 */
	int count;         /* nodes in the group, >= 1 */
	int cores;         /* physical cores per node, >= 1 */
	int64_t mem_mib;   /* memory per node, MiB, >= 1 */
	int gpus;          /* GPUs per node, >= 0 */
	char *gpu_model;   /* e.g. "v100"; NULL when gpus == 0 */
	double cpu_speed;  /* CPU speed factor, > 0; 1.0 = reference core */
	uint64_t labels;   /* bit i = scn.label_names[i]; after `auto` too */
	struct scn_pos pos;
};

enum scn_arrival_kind {
	SCN_ARR_FIXED,    /* every job at `start_us` */
	SCN_ARR_INTERVAL, /* job i at start_us + i * interval_us */
	SCN_ARR_POISSON,  /* start_us + Poisson process of mean gap mean_gap_us */
	SCN_ARR_LIST,     /* job i at times_us[i]; count == ntimes */
};
struct scn_arrival {
	enum scn_arrival_kind kind;
	int64_t start_us;     /* FIXED, INTERVAL, POISSON (default 0) */
	int64_t interval_us;  /* INTERVAL */
	double mean_gap_us;   /* POISSON: 1 / rate, µs */
	int64_t *times_us;    /* LIST, non-decreasing; owned */
	int ntimes;
};

enum scn_job_type {
	SCN_JOB_WORDCOUNT,
	SCN_JOB_MNIST,
	SCN_JOB_SYNTHETIC,
	SCN_JOB_ANGEL,
	SCN_JOB_TYPES /* count */
};

/* Executor demand of one role of a job.  Fields at 0 mean "not given":
 * the job model or the policy applies its documented default. */
struct scn_exec {
	int count;         /* executors of this role; 0 = model default */
	int cores;         /* cores per executor; 0 = unset (see policies) */
	int64_t mem_mib;   /* memory per executor, MiB; 0 = default 1 GiB */
	int gpus;          /* GPUs per executor, >= 0 */
	uint64_t require;  /* labels every node must carry (0 = none) */
	uint64_t prefer;   /* labels preferred, not required */
	bool has_labels;   /* role gave its own labels: overrides the job's */
};

/* What a TensorFlowOnSpark worker does when its executor got no GPU from
 * the scheduler and every GPU of its node is busy (docs/model.md). */
enum scn_gpu_busy {
	SCN_GPU_BUSY_RETRY, /* TFoS 1.x: probe again at +30 s, +90 s; fail at +180 s */
	SCN_GPU_BUSY_CPU,   /* train on the CPU at once */
};

struct scn_stage {
	char *name;
	int tasks;            /* >= 1 */
	struct scn_dist dur;  /* task duration at speed 1, µs */
	int *parents;         /* indices of earlier stages; owned */
	int nparents;
};

struct scn_job_group {
	char *name;
	int count;                 /* jobs in the group, >= 1 */
	enum scn_job_type type;
	struct scn_arrival arrival;
	uint64_t require, prefer;  /* node labels for all roles, 0 = none */
	struct scn_exec exec;      /* wordcount/synthetic executors */
	int cores_max;             /* spark.cores.max; 0 = unlimited */
	int task_cpus;             /* spark.task.cpus, default 1 */

	/* wordcount */
	struct scn_dist input_mib; /* input size per job, MiB */
	int parallelism;           /* reduce tasks; 0 = as many as map tasks */
	double shuffle_ratio;      /* shuffle bytes / input bytes, default 0.1 */
	int64_t split_mib;         /* HDFS block size, default 128 */

	/* mnist_spark (TensorFlowOnSpark, InputMode.SPARK, 1 PS) */
	int cluster_size;          /* executors, 1 PS + (cluster_size-1) workers, >= 2 */
	struct scn_exec ps, worker;/* per-role demands (count ignored) */
	int steps;                 /* global training steps, default 1000 */
	int batch_size;            /* samples per step, default 100 */
	int epochs;                /* default 1 */
	int partitions;            /* training RDD partitions, default 10 */
	int64_t feed_task_us;      /* feeding one partition for one epoch */
	int64_t startup_us;        /* TF start-up after all executors up */
	int64_t shutdown_us;       /* shutdown phase */
	int64_t reservation_timeout_us; /* default 600 s */
	enum scn_gpu_busy gpu_busy;  /* no idle GPU on a GPU node; default retry */

	/* synthetic */
	struct scn_stage *stages;  /* owned; topological order */
	int nstages;

	/* angel (Spark-on-Angel): Spark executors in `exec`; the parameter
	 * servers in `ps` (count = spark.ps.instances, default 1; cores 1,
	 * memory 4 GiB); `partitions` tasks per iteration */
	int iterations;            /* training iterations, default 10 */
	double samples;            /* samples per partition per iteration */
	double model_mib;          /* model size pulled and pushed per task, MiB */

	struct scn_pos pos;
};

/* Cost model: duration(kernel, device, work) =
 *     (intercept_us + slope_us * work) / speed  *  noise
 * where speed is the node's cpu_speed for device "cpu" and 1 otherwise,
 * and noise is a multiplicative factor of mean 1 (see noise_cv). */
enum scn_noise { SCN_NOISE_NONE, SCN_NOISE_LOGNORMAL };
struct scn_cost_dev {
	char *device;        /* "cpu", "gpu" (any GPU), or a GPU model name */
	double intercept_us; /* >= 0 */
	double slope_us;     /* per work unit, >= 0 */
};
struct scn_cost_kernel {
	char *name;          /* wordcount_map, wordcount_reduce, mnist_step, ... */
	char *unit;          /* work unit: "MiB", "samples", ... */
	enum scn_noise noise;
	double noise_cv;     /* coefficient of variation of the factor */
	struct scn_cost_dev *devs; /* owned */
	int ndevs;
};
struct scn_cost_model {
	int version;         /* format version, 1 */
	char *path;          /* file it came from, NULL if inline or built in */
	bool builtin;        /* the built-in default (SCN_DEFAULT_MODEL): the
				scenario names no cost_model and its jobs need
				one */
	int64_t task_overhead_us;  /* framework overhead added to each task */
	struct scn_cost_kernel *kernels; /* owned */
	int nkernels;
};

struct scn_param {      /* one policy switch, checked against the policy */
	char *key, *value;
	struct scn_pos pos;
};
struct scn_policy {
	char *name;           /* shown in tables; unique in the scenario */
	char *kind;           /* registry name, e.g. "label-dual" */
	struct scn_param *params; /* owned */
	int nparams;
	struct scn_pos pos;
};

struct scn_overheads {
	int64_t executor_startup_us; /* launch -> executor can run tasks, default 2 s */
	int64_t task_launch_us;      /* dispatch -> task starts working, default 10 ms */
};

struct scn {
	char *path;         /* the file read; owned */
	char *name;         /* basename without .yaml */
	uint64_t seed;      /* default 1 */
	int replications;   /* default 1 */
	int warmup_jobs;    /* first N jobs by arrival left out of metrics */
	int sweep_points;   /* scn_load() of a file with a sweep block: its
			       number of points (this is point 0); else 0 */

	char *label_names[SCN_MAX_LABELS];
	int nlabels;

	struct scn_node_group *groups; int ngroups;
	struct scn_job_group *jobs;    int njobgroups;
	struct scn_cost_model cost;    /* nkernels == 0 when none given */
	struct scn_policy *policies;   int npolicies;
	struct scn_overheads over;
};

/* The built-in cost model: the text of calibrate/models/default.yaml
 * (assumed figures, docs/model.md "Costs"), compiled in by the Makefile
 * from that file, so that the two never differ.  A scenario whose job
 * groups need a cost model and that names none is loaded with it
 * (cost.builtin); `hetsim run`, `sweep` and `validate` say so. */
#define SCN_DEFAULT_MODEL "calibrate/models/default.yaml"
extern const char scn_default_model_yaml[];

/* Read and check a scenario.  On success returns the scenario, owned by
 * the caller (free with scn_free).  On error returns NULL, allocates
 * nothing, and writes one line "file:line:col: message" (no newline) into
 * err (at most errlen bytes).  A file with a sweep block is loaded as by
 * scn_sweep_load(), every point checked, and its point 0 is returned. */
struct scn *scn_load(const char *path, char *err, size_t errlen);
void scn_free(struct scn *s);

/* ---- sweeps (docs/scenario.md, "sweep") ------------------------------
 *
 * A scenario with a `sweep:` block stands for several: one point per
 * combination of its axes' values (the cartesian product, first axis
 * varying slowest), each the file with that point's values written in
 * at the axes' paths.  Without a block, a file has one point and no axes.
 */
#define SCN_MAX_POINTS 10000

struct scn_axis {
	char *label;     /* column name in CSV files; owned */
	int nvalues;     /* >= 1 */
	char **shown;    /* nvalues texts written in CSV cells for each value
			  * (`show`, else the first path's value); owned */
};

struct scn_sweep {
	int npoints;          /* product of the axes' nvalues, 1..SCN_MAX_POINTS */
	struct scn **point;   /* npoints scenarios, each fully checked; owned */
	int naxes;            /* 0 without a sweep block */
	struct scn_axis *axes;/* owned */
};

/* Read a scenario file and every point of its sweep block.  On success
 * returns the sweep, owned by the caller (free with scn_sweep_free).  On
 * error returns NULL, allocates nothing, and writes one line into err as
 * scn_load() does; an error of a point that is not at one of its values
 * ends with " (sweep point P: label=value, ...)". */
struct scn_sweep *scn_sweep_load(const char *path, char *err, size_t errlen);
void scn_sweep_free(struct scn_sweep *sw);

/* Index of axis a's value at point p (0 <= p < npoints). */
int scn_sweep_at(const struct scn_sweep *sw, int p, int a);
/* The text of axis a's value at point p, as written in CSV files. */
const char *scn_sweep_shown(const struct scn_sweep *sw, int p, int a);

/* The name of a job type as scenario files write it ("wordcount", ...). */
const char *scn_type_name(enum scn_job_type t);

/* The name of role `role` of a job of type t, as executors.csv writes
 * it: "executor" (Spark), "ps" or "worker" (mnist_spark), "ps" (angel's
 * parameter servers, role 1), "am" for a negative role (an application
 * master, SIM_ROLE_AM). */
const char *scn_role_name(enum scn_job_type t, int role);

/* Index of a label name, or -1. */
int scn_label_index(const struct scn *s, const char *name);

/* The kernel named `name` in the cost model, or NULL. */
const struct scn_cost_kernel *scn_cost_kernel(const struct scn *s, const char *name);
/* The device entry of a kernel for `device`, or NULL. */
const struct scn_cost_dev *scn_cost_device(const struct scn_cost_kernel *k, const char *device);

#endif
