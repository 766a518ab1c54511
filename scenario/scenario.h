/* scenario.h - a scenario in memory, parsed and checked (scn_ prefix).
 *
 * The module at the bottom of the layers: types and a few lookups, no
 * include of any other module.  The loader (input/load.h) fills these
 * from a YAML file and checks every key, unit and range, so that every
 * later module may trust what is here.  All amounts are integers in
 * fixed units: times in microseconds (int64_t), memory in MiB.  Doubles
 * appear only where the quantity is naturally real (speed factors,
 * rates, coefficients of variation).  docs/scenario.md is the
 * user-facing description of the format.
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

/* A scripted outage of one node of a group: down at `at_us` for
 * `for_us`. */
struct scn_outage {
	int node;          /* index in the group */
	int64_t at_us, for_us;
};

struct scn_node_group {
	char *name;        /* nodes are named <name>-<i>, i from 0 */
	int count;         /* nodes in the group, >= 1 */
	int cores;         /* physical cores per node, >= 1 */
	int64_t mem_mib;   /* memory per node, MiB, >= 1 */
	int gpus;          /* GPUs per node, >= 0 */
	bool gpu_pool;     /* its GPUs are one pool of milli-GPUs, none known
			      by index (at most SCN_MAX_POOL_GPUS; else
			      SCN_MAX_GPUS, each its own) */
	char *gpu_model;   /* e.g. "v100"; NULL when gpus == 0 */
	double cpu_speed;  /* CPU speed factor, > 0; 1.0 = reference core */
	uint64_t labels;   /* bit i = scn.label_names[i]; after `auto` too */
	/* failures (docs/scenario.md, "Failures") */
	bool fails;        /* each node fails and is repaired at random */
	struct scn_dist mtbf, mttr; /* its up-times and repair times, µs
				       (exponential unless a distribution) */
	struct scn_outage *outages; int noutages; /* scripted; owned */
	/* stragglers: a task attempt started on one of its nodes is slow
	 * with this probability, its work times `straggler_slowdown` */
	double straggler_fraction;  /* 0: none */
	double straggler_slowdown;  /* >= 1 */
	/* YARN's NodeManager on each node (yarn.nodemanager.resource.*):
	 * what it offers the ResourceManager; 0: the whole node */
	int64_t nm_mem_mib;         /* .memory-mb, <= mem_mib */
	int nm_vcores;              /* .cpu-vcores */
	double net_mib_s;           /* network bandwidth per node, MiB/s: a
				       task reading its input from another
				       node does so at this rate (default
				       SCN_NET_MIB_S) */
	/* Contention (docs/model.md, "Costs"): with b of a node's cores kept
	 * busy by running tasks, each task's progress is divided by
	 * busy_slowdown[min(b, nbusy) - 1] (>= 0 entries, [0] = 1; beyond
	 * nbusy the last holds).  nbusy 0: no slowdown, the node's rate as
	 * without it.  Filled by the loader from the cost model's
	 * contention entries; owned. */
	double *busy_slowdown; int nbusy;
	struct scn_pos pos;
};
/* 10 Gigabit Ethernet's line rate, 1.25e9 bytes/s, in MiB/s
 * (docs/model.md, "Data locality"). */
#define SCN_NET_MIB_S (1.25e9 / 1048576.0)

enum scn_arrival_kind {
	SCN_ARR_FIXED,    /* every job at `start_us` */
	SCN_ARR_INTERVAL, /* job i at start_us + i * interval_us */
	SCN_ARR_POISSON,  /* start_us + Poisson process of mean gap mean_gap_us */
	SCN_ARR_LIST,     /* job i at times_us[i]; count == ntimes */
	SCN_ARR_TRACE,    /* job i at its trace row's arrival (scn_job_group.trace) */
};
struct scn_arrival {
	enum scn_arrival_kind kind;
	int64_t start_us;     /* FIXED, INTERVAL, POISSON (default 0) */
	int64_t interval_us;  /* INTERVAL */
	double mean_gap_us;   /* POISSON: 1 / rate, µs */
	int64_t *times_us;    /* LIST, non-decreasing; owned */
	int ntimes;
};

/* The limits the loader enforces (docs/scenario.md, "Limits"), here so
 * that job models' key tables (workloads/model.h) can name them. */
#define SCN_MAX_CORES 10000              /* cores of an executor or a task */
#define SCN_MAX_NODE_CORES 200000        /* cores of a node (a pool of a
					    published simulator's machine) */
#define SCN_MAX_POOL_GPUS 10000          /* GPUs of a node whose GPUs are a pool */
#define SCN_MAX_GPUS 64                  /* GPUs of a node or an executor (a bit
						    each: sim/cluster.h) */
#define SCN_MAX_EXECUTORS 10000          /* executors of one job */
#define SCN_MAX_STAGES 10000             /* stages of a job */
#define SCN_MAX_TASKS 1000000            /* tasks of one stage */
#define SCN_MAX_TIME_S 100000000LL       /* any time, and the last arrival: ~3 years */
#define SCN_MAX_TIME_US (SCN_MAX_TIME_S * 1000000)

/* Job models are numbered by their place in the registry
 * (workloads/models.h); a scenario holds at most this many. */
#define SCN_MAX_MODELS 16

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

struct scn_stage {
	char *name;
	int tasks;            /* >= 1 */
	struct scn_dist dur;  /* task duration at speed 1, µs */
	int *parents;         /* indices of earlier stages; owned */
	int nparents;
};

/* The kernel's hooks of a job model (sim/sim.h) and the whole model
 * (workloads/model.h): opaque here. */
struct sim_job_ops;
struct job_model;
struct scn_trace;  /* scn_trace.h */
struct scn_app;    /* scn_app.h */

struct scn_job_group {
	char *name;
	int count;                 /* jobs in the group, >= 1 */
	int type;                  /* its job model: index in the registry */
	const struct job_model *model;   /* the same model (loader, outputs) */
	const struct sim_job_ops *ops;   /* its hooks, which the kernel calls */
	struct scn_arrival arrival;
	uint64_t require, prefer;  /* node labels for all roles, 0 = none */
	int cores_max;             /* spark.cores.max; 0 = unlimited */
	int task_cpus;             /* spark.task.cpus, default 1 */
	int task_max_failures;     /* spark.task.maxFailures, default 4 */
	/* The model's own settings, a flat struct of its own (no pointers
	 * it owns), filled from its keys by the loader; owned. */
	void *params;
	/* A list of stages, for models whose key table has one (synthetic):
	 * topological order; owned. */
	struct scn_stage *stages;
	int nstages;
	/* The trace its jobs come from (a `- trace:` entry: its model is
	 * `trace`, job i is row i), else NULL; owned by the scenario
	 * (scn.traces). */
	const struct scn_trace *trace;
	/* The Spark application replayed (model spark-app: `hetsim
	 * replay-log`), else NULL; owned by the scenario (scn.app). */
	const struct scn_app *app;
	/* `throughput: {GPU_MODEL: rate, ...}`: the group's work rate on one
	 * GPU of each model, as a throughput matrix's row (gavel; any unit,
	 * the same for every model of the row); a model not listed: 0, the
	 * job cannot run there.  NULL and 0 when not given (the job model's
	 * throughput hook, else 1 on every model: sim_job_throughput). */
	struct scn_tput {
		char *gpu_model;
		double rate;
	} *tput;
	int ntput;

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
	struct scn_pos intercept_at, slope_at; /* where they were written */
	/* Its contention entry (docs/scenario.md, "Cost model"): the
	 * slowdown with k copies running at once, one per core, relative to
	 * one, for k = 1 .. nslowdown (between measured k: linear; beyond
	 * the largest measured, nslowdown: the last factor holds).  NULL and
	 * 0 without an entry; owned. */
	double *slowdown;
	int nslowdown;       /* the largest k measured */
};
struct scn_cost_kernel {
	char *name;          /* the job models name theirs (docs/model.md, "Costs") */
	char *unit;          /* work unit: "MiB", "samples", ... */
	enum scn_noise noise;
	double noise_cv;     /* coefficient of variation of the factor */
	struct scn_cost_dev *devs; /* owned */
	int ndevs;
};
/* A cost model's provenance: its `meta` as version 2 reads it
 * (docs/scenario.md, "Cost model: meta"); version 1 leaves it all
 * zero.  Strings are owned, NULL where absent; numbers 0 where absent. */
struct scn_cost_meta {
	char *source;        /* what wrote the model */
	char *cpu;           /* machine.cpu: the CPU (or GPU) model */
	int cores;           /* machine.cores: online cores */
	int64_t memory_mib;  /* machine.memory, MiB */
	char *os;            /* "Linux 6.1.0 x86_64" */
	char *compiler;      /* "gcc 12.2.0" */
	char *blas;          /* "gslcblas", "OpenBLAS 0.3.21 ..." */
	char *date;          /* ISO 8601 UTC, "2025-06-01T12:00:00Z" */
	char *ref_kernel;    /* reference.kernel: which reference kernel */
	double ref_speed;    /* reference.speed, its work units per second */
	int contention_k[2]; /* contention_k: [min, max] cores busy; 0 = none */
	bool has_timing;     /* timing: given */
	uint64_t seed;       /* timing.seed: the order's seed */
	double ci;           /* timing.ci: CI half-width / median aimed at; 0 = absent */
	int cap, capped;     /* timing.cap, .capped: repeats at most; sizes that hit it */
	int drift_points;    /* drift.points; 0 = no drift entry */
	double drift_first, drift_last, drift_min, drift_max; /* drift: MiB/s */
	double drift_change; /* drift.change, % (last / first - 1) */
	int threads;         /* threads: each kernel's threads; 0 = absent */
	char *backend, *data; /* backend, data: texts */
	char *gpu;           /* gpu.name: the GPU measured (hetsim-cuda-cal) */
	int64_t gpu_memory_mib; /* gpu.memory, MiB */
	char *gpu_cuda;      /* gpu.cuda: capability, SMs, driver, runtime */
};
/* Free a meta's strings (not m itself) and zero it. */
void scn_cost_meta_free(struct scn_cost_meta *m);

struct scn_cost_model {
	int version;         /* format version, 1 or 2 */
	struct scn_cost_meta meta; /* version 2's parsed meta */
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
	double num;           /* a numeric switch's value in its base unit
				 (µs for times, MiB for sizes) */
	struct scn_pos pos;
};
struct policy_ops;     /* sim/policy.h: opaque here */
struct scn_policy {
	char *name;           /* shown in tables; unique in the scenario */
	char *kind;           /* registry name, e.g. "label-dual" */
	const struct policy_ops *ops; /* the policy's, found by the loader */
	struct scn_param *params; /* owned */
	int nparams;
	struct scn_pos pos;
};

/* Spark's speculative execution (spark.speculation.*), for every job
 * whose tasks the kernel dispatches. */
struct scn_speculation {
	struct scn_pos pos;    /* its interval's, else the block's (validate) */
	bool enabled;          /* spark.speculation, default false */
	int64_t interval_us;   /* .interval, default 100 ms */
	double multiplier;     /* .multiplier, default 1.5 */
	double quantile;       /* .quantile, default 0.75 */
	int64_t min_runtime_us;/* .minTaskRuntime, default 100 ms */
};

/* Data locality (docs/model.md, "Data locality"), for every job. */
struct scn_locality {
	bool enabled;          /* modelled: input blocks have replicas, tasks
				  prefer their nodes and pay a remote read
				  elsewhere; default true.  false: none of it */
	int64_t wait_us;       /* spark.locality.wait, default 3 s; 0: no
				  wait (tasks still prefer, and pay, as above) */
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
	struct scn_trace **traces;     int ntraces; /* the workload's traces; owned */
	int64_t run_bytes;  /* what a run of it holds, bytes: the loader's upper
			       estimate (input/load.h, the run memory guard);
			       0 = not made */
	char **inputs;      int ninputs; /* every trace file or folder the loader
					  read (workload, arrivals, cluster, event
					  logs), resolved, in order; owned */
	struct scn_app **apps;         /* Spark applications from event logs (a
					  spark-eventlog trace, replay-log); owned */
	int napps;
	bool offer;                    /* offer-only (a trace's `offer: true`,
					  docs/traces.md): a job the policy has not
					  placed by the end of the instant it
					  arrived in is dropped, reason no-fit */
	struct scn_cost_model cost;    /* nkernels == 0 when none given */
	struct scn_policy *policies;   int npolicies;
	struct scn_overheads over;
	bool over_batch;    /* overheads not given, and every job comes from a
			       trace (a batch log's, not Spark's): both 0
			       (run says so) */
	struct scn_speculation spec;
	struct scn_locality loc;
};

/* Free a scenario (NULL is fine); its job groups' params with free(). */
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

void scn_sweep_free(struct scn_sweep *sw);

/* Index of axis a's value at point p (0 <= p < npoints). */
int scn_sweep_at(const struct scn_sweep *sw, int p, int a);
/* The text of axis a's value at point p, as written in CSV files. */
const char *scn_sweep_shown(const struct scn_sweep *sw, int p, int a);
/* Point p's values as messages name a point, " s=1, t=2" (each axis's
 * label=value after a space, commas between), into buf; buf returned. */
const char *scn_sweep_point_text(const struct scn_sweep *sw, int p, char *buf, size_t len);

/* Index of a label name, or -1. */
int scn_label_index(const struct scn *s, const char *name);

/* The kernel named `name` in the cost model, or NULL. */
const struct scn_cost_kernel *scn_cost_kernel(const struct scn *s, const char *name);
/* The device entry of a kernel for `device`, or NULL. */
const struct scn_cost_dev *scn_cost_device(const struct scn_cost_kernel *k, const char *device);

#endif
