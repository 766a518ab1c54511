/* hetsim/policy.h - the policy plugin ABI of hetsim (hetsim_ prefix).
 *
 * A cluster-level scheduling policy built outside hetsim, as a shared
 * object that hetsim loads at run time (docs/writing-a-policy.md):
 *
 *     hetsim run scn.yaml --plugin ./libmine.so -p mine
 *     policies: [{name: mine, plugin: libmine.so, some_switch: 3}]
 *
 * This header is self-contained (the C standard library's stdbool, stddef
 * and stdint only) and is all a plugin may use of hetsim: an ops table
 * the plugin exports, and the functions below, which hetsim's binary
 * exports (it is linked with -rdynamic).  Nothing of the kernel's
 * internals shows: a run, a job shape and their parts are opaque handles
 * and indices.
 *
 * Units, everywhere: CPU in milli-cores (HETSIM_MILLI a core), memory in
 * MiB, GPUs whole or in milli-GPUs of one GPU (HETSIM_GPU_MILLI a GPU),
 * time in integer microseconds of simulated time.
 *
 * Rules a plugin keeps (hetsim checks what it can, and aborts with the
 * simulated time on a broken one, as for a built-in policy):
 *   - Hooks run on hetsim's thread, at the simulated time of hetsim_now_us;
 *     a hook reads the run through the accessors and changes it only
 *     through the requests (hetsim_launch*, hetsim_reject, hetsim_timer).
 *   - Requests are made only from job_arrived, job_finished, schedule,
 *     exec_lost and timer, never from init, fini or can_ever_place.
 *   - Determinism: every random number comes from hetsim_rand_u64 /
 *     hetsim_rand01 (keyed by the replication and the plugin's own
 *     coordinates); no rand(), no clock, no address order, no state kept
 *     between runs (one process may run many replications, in any order,
 *     and sweeps fork).  Same seed, same bytes out.
 *   - Indices (jobs, roles, nodes, GPUs) out of range are a broken
 *     invariant: hetsim aborts naming the plugin.
 *
 * The ABI is HETSIM_POLICY_ABI: a plugin built for another is refused at
 * load.  Any change to this header that is not a pure addition at the end
 * of the function list bumps it.
 */
#ifndef HETSIM_PUBLIC_POLICY_H
#define HETSIM_PUBLIC_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI this header describes; hetsim loads only plugins built for
 * exactly this one. */
#define HETSIM_POLICY_ABI 1
/* The hetsim release this header comes from (reported at load). */
#define HETSIM_POLICY_VERSION "0.1.0"

#define HETSIM_MILLI 1000      /* milli-cores a core */
#define HETSIM_GPU_MILLI 1000  /* milli-GPUs a GPU */
#define HETSIM_MAX_GPUS 64     /* GPUs of one node at most */

/* The run as the policy sees it (opaque); the empty cluster in
 * can_ever_place. */
struct hetsim;
/* What every job of one shape asks for (opaque): its roles. */
struct hetsim_shape;

/* A job's status (hetsim_job_status). */
enum hetsim_job_status {
	HETSIM_JOB_PENDING,     /* not arrived yet */
	HETSIM_JOB_WAITING,     /* arrived, not all its work started */
	HETSIM_JOB_RUNNING,     /* doing work */
	HETSIM_JOB_DONE,
	HETSIM_JOB_FAILED,
	HETSIM_JOB_TIMED_OUT,
	HETSIM_JOB_UNPLACEABLE, /* rejected, or never placed */
};

/* Why a job can never be placed (can_ever_place, hetsim_reject): jobs.csv's
 * `reason` (docs/output.md). */
enum hetsim_why {
	HETSIM_WHY_NONE = 0,      /* it can be placed */
	HETSIM_WHY_CORES = 1,     /* an executor asks more cores than a node has */
	HETSIM_WHY_MEMORY = 2,    /* ... more memory */
	HETSIM_WHY_GPUS = 3,      /* ... more GPUs */
	HETSIM_WHY_CAPACITY = 4,  /* the job as a whole exceeds the cluster */
	HETSIM_WHY_JOB_TYPE = 6,  /* the policy cannot run this job type */
	HETSIM_WHY_NEVER_PLACED = 9, /* nothing rules it out, but it is given up */
	HETSIM_WHY_LABEL0 = 14,   /* HETSIM_WHY_LABEL(k): no node carries label k */
};
#define HETSIM_WHY_LABEL(k) (HETSIM_WHY_LABEL0 + (k))
/* Why an executor was lost (exec_lost). */
#define HETSIM_LOST_NODE_FAILED (-2) /* its node failed */
#define HETSIM_LOST_PREEMPTED (-3)   /* it was preempted */

/* A switch of the policy, set in a scenario's policy entry
 * (`{name: x, plugin: lib.so, key: value}`) and checked by hetsim's
 * loader against this declaration (type, range: file:line:col errors). */
enum hetsim_param_type {
	HETSIM_BOOL,   /* true | false */
	HETSIM_CHOICE, /* one of `choices` */
	HETSIM_INT,    /* an integer in [lo, hi] */
	HETSIM_NUM,    /* a real number in [lo, hi] */
	HETSIM_TIME,   /* a time with a unit (10ms, 3s); lo, hi and the value in µs */
	HETSIM_SIZE,   /* a size with a unit (512MiB, 8GiB); lo, hi and the value in MiB */
};

struct hetsim_param {
	const char *key;            /* an identifier; NULL ends the list */
	enum hetsim_param_type type;
	const char *const *choices; /* HETSIM_CHOICE: NULL-terminated */
	const char *def;            /* the default, as a scenario writes it ("3s") */
	const char *help;           /* one line for `hetsim policies` */
	double lo, hi;              /* numeric types: the range, in the base unit */
	const char *unit;           /* HETSIM_INT, HETSIM_NUM: the unit's name, or NULL */
};

/* hetsim_policy.flags */
#define HETSIM_USES_LABELS 1u     /* it reads node labels (else hetsim notes it ignores them) */
#define HETSIM_GPU_BLIND 2u       /* executors see every GPU of their node (Spark 2);
				     default: they see only the GPUs granted */
#define HETSIM_ROLES_UNPLACED 4u  /* the executors are interchangeable to the job,
				     which assigns its roles itself; default: the
				     role an executor is launched for is its role */
/* hetsim_policy.needs: what it needs of a workload */
#define HETSIM_NEEDS_ESTIMATES 1u       /* run-time estimates (hetsim_job_estimate) */
#define HETSIM_NEEDS_FRACTIONAL_GPUS 2u /* GPU shares */
#define HETSIM_NEEDS_THROUGHPUT 4u      /* a job x GPU-model throughput matrix */
#define HETSIM_NEEDS_PREEMPTION 8u      /* it preempts executors */

/* The plugin's ops table.  Hooks are called by hetsim at the current
 * simulated time; a hook left NULL does nothing (schedule is required). */
struct hetsim_policy {
	/* These two come first in every ABI, so that hetsim can read them
	 * from a plugin built for any. */
	int abi;                    /* HETSIM_POLICY_ABI (HETSIM_POLICY_HEADER sets both) */
	const char *hetsim_version; /* HETSIM_POLICY_VERSION */
	const char *name;           /* the policy's name: letters, digits, '-', '_';
				       not a built-in policy's */
	const char *summary;        /* one line */
	const struct hetsim_param *params; /* ended by a {NULL} entry; NULL: none */
	unsigned flags;             /* HETSIM_USES_LABELS, ... */
	unsigned needs;             /* HETSIM_NEEDS_* */

	/* Once per run, before any event: the policy's private state for the
	 * run (NULL allowed).  Reads only (no request). */
	void *(*init)(struct hetsim *h);
	/* Job `job` was submitted; called in arrival order (ties by id: jobs
	 * are numbered in arrival order).  The policy queues it, or rejects
	 * it (hetsim_reject). */
	void (*job_arrived)(void *st, struct hetsim *h, int job);
	/* Job `job` ended (done, failed, timed out, rejected); its executors
	 * are already released.  The policy drops it. */
	void (*job_finished)(void *st, struct hetsim *h, int job);
	/* After all events of one timestamp, when something that can change a
	 * decision happened (arrival, release of resources).  Launches
	 * executors.  Required. */
	void (*schedule)(void *st, struct hetsim *h);
	/* End of run: free the state. */
	void (*fini)(void *st);
	/* An executor of role `role` of job `job` on node `node` was lost
	 * (why: HETSIM_LOST_*); its resources are back and the job wants a
	 * replacement.  NULL: the job goes on with what it has left. */
	void (*exec_lost)(void *st, struct hetsim *h, int job, int role, int node, int why);
	/* A timer the policy set (hetsim_timer) fired with its tag. */
	void (*timer)(void *st, struct hetsim *h, uint32_t tag);
	/* Whether a job of shape `sh` can ever be placed on the empty cluster
	 * (h's nodes, all free) under this policy's rules: HETSIM_WHY_NONE, or
	 * why not, with one line for people in detail (len bytes).  Asked
	 * once per shape by `hetsim validate`, by hetsim_can_ever_place, and
	 * for a job still waiting at the end of a run.  Reads only its
	 * arguments (no job, no clock, no request); keeps no state.  NULL:
	 * hetsim's rule for a policy that places a whole job at once
	 * (fifo's): every executor of every role must fit some node on every
	 * dimension, labels ignored, and the job the cluster's total. */
	int (*can_ever_place)(const struct hetsim *h, const struct hetsim_shape *sh,
			      char *detail, size_t len);
};

/* The first two fields of a table: `static const struct hetsim_policy
 * mine = {HETSIM_POLICY_HEADER, .name = "mine", ...};` */
#define HETSIM_POLICY_HEADER .abi = HETSIM_POLICY_ABI, .hetsim_version = HETSIM_POLICY_VERSION

/* The plugin's one entry point, which hetsim looks up by this name. */
#define HETSIM_POLICY_ENTRY "hetsim_policy_entry"
/* Define it: HETSIM_POLICY_EXPORT(mine) at file scope. */
#ifdef __cplusplus
#define HETSIM_EXTERN_C extern "C"
#else
#define HETSIM_EXTERN_C
#endif
#define HETSIM_POLICY_EXPORT(table)                                                    \
	HETSIM_EXTERN_C __attribute__((visibility("default"))) const struct hetsim_policy * \
	hetsim_policy_entry(void);                                                         \
	HETSIM_EXTERN_C const struct hetsim_policy *hetsim_policy_entry(void) { return &(table); }

/* ---- the run ------------------------------------------------------ */

/* Simulated time now, µs (0 in can_ever_place). */
int64_t hetsim_now_us(const struct hetsim *h);
/* This replication's seed. */
uint64_t hetsim_seed(const struct hetsim *h);
/* The draw-th random number of key (a, b) of this replication and
 * policy: a pure function of (seed, policy name, a, b, draw), the same
 * whatever was drawn before.  Use a and b for what it is for (a job, a
 * decision count); draw to tell numbers of one key apart.  u64: uniform
 * over 64 bits; rand01: uniform in (0, 1), never 0 or 1. */
uint64_t hetsim_rand_u64(const struct hetsim *h, uint32_t a, uint32_t b, uint64_t draw);
double hetsim_rand01(const struct hetsim *h, uint32_t a, uint32_t b, uint64_t draw);

/* ---- switches ----------------------------------------------------- */

/* Switch `key` (declared in params) as the scenario sets it, else its
 * default: as written ("true", "3s"), or NULL if not declared. */
const char *hetsim_switch(const struct hetsim *h, const char *key);
/* A numeric switch in its base unit (µs for times, MiB for sizes); NaN if
 * not a declared numeric switch. */
double hetsim_switch_num(const struct hetsim *h, const char *key);
/* A boolean switch: true when "true". */
bool hetsim_switch_bool(const struct hetsim *h, const char *key);

/* ---- jobs --------------------------------------------------------- */

/* Jobs of the run (ids 0 .. n-1, in arrival order; 0 in can_ever_place). */
int hetsim_njobs(const struct hetsim *h);
int64_t hetsim_job_arrival_us(const struct hetsim *h, int job);
int hetsim_job_status(const struct hetsim *h, int job); /* enum hetsim_job_status */
/* The scenario job group of the job (index), and the group's name. */
int hetsim_job_group(const struct hetsim *h, int job);
const char *hetsim_group_name(const struct hetsim *h, int group);
/* What the job asks for; valid for the run. */
const struct hetsim_shape *hetsim_job_shape(const struct hetsim *h, int job);
/* Executors launched for role r of the job so far, and those it still
 * wants (count - granted, >= 0).  Meaningful while it waits or runs. */
int hetsim_job_granted(const struct hetsim *h, int job, int role);
int hetsim_job_wanted(const struct hetsim *h, int job, int role);
/* The job's run-time estimates, µs: the time its user asked for and the
 * actual run time at speed 1 with all its executors, each -1 where the
 * workload does not say. */
void hetsim_job_estimate(const struct hetsim *h, int job, int64_t *requested_us,
			 int64_t *actual_us);
/* The job's work rate on one GPU of model `gpu_model` (as
 * hetsim_node_gpu_model names them): its row of a throughput matrix
 * (HETSIM_NEEDS_THROUGHPUT; docs/policies/gavel.md says where it comes
 * from); 0 where it cannot run. */
double hetsim_job_throughput(const struct hetsim *h, int job, const char *gpu_model);
/* This policy's verdict on the job's shape (its can_ever_place, or the
 * default rule), asked once per shape: HETSIM_WHY_NONE if it can be
 * placed.  What a policy that rejects at arrival decides with. */
int hetsim_can_ever_place(const struct hetsim *h, int job);

/* ---- a shape's roles ---------------------------------------------- */

int hetsim_shape_id(const struct hetsim_shape *sh);  /* 0 .. shapes of the run - 1 */
int hetsim_nroles(const struct hetsim_shape *sh);    /* 1 or 2 */
int hetsim_role_count(const struct hetsim_shape *sh, int r);       /* executors wanted */
int hetsim_role_milli_cores(const struct hetsim_shape *sh, int r); /* each; 0: unset (the
							      policy decides: one core is usual) */
int64_t hetsim_role_mem_mib(const struct hetsim_shape *sh, int r); /* each */
int hetsim_role_gpus(const struct hetsim_shape *sh, int r);        /* whole GPUs each */
int hetsim_role_gpu_milli(const struct hetsim_shape *sh, int r);   /* or a share of one GPU
							      each (gpus 0), milli-GPUs */
uint64_t hetsim_role_labels(const struct hetsim_shape *sh, int r); /* labels required
							      (bit k: label k) */
/* The role whose executors must all be up before the job starts (a
 * gang), or -1. */
int hetsim_shape_gang_role(const struct hetsim_shape *sh);
/* Whether the job runs only once every executor of every role is up
 * (a TFoS cluster, a trace job): give it all or none. */
bool hetsim_shape_rigid(const struct hetsim_shape *sh);

/* What a resource manager learns of the job, from its model (the same
 * data yarn and spark-standalone read; docs/writing-a-job-model.md,
 * "What policies see").  A policy names a job's parts by these, never
 * by its model. */
/* One resource profile for all its roles: every executor as large as
 * the largest role asks, and all of them the application's (TFoS). */
bool hetsim_shape_one_profile(const struct hetsim_shape *sh);
/* Application masters a resource manager starts for it before its
 * executors, in launch order; 0: one, of the manager's default size. */
int hetsim_shape_masters(const struct hetsim_shape *sh);
/* Master k's memory, MiB (0: the manager's default, Spark's AM), and
 * whether that is its container's as is (no Spark overhead added). */
int64_t hetsim_master_mem_mib(const struct hetsim_shape *sh, int k);
bool hetsim_master_mem_as_is(const struct hetsim_shape *sh, int k);
/* Who asks for role r's containers: 0 the application's executor
 * allocator (its master 0), as it needs them; k > 0 its master k, all
 * at once, once every master is up (Angel's parameter servers). */
int hetsim_role_asker(const struct hetsim_shape *sh, int r);
/* Whether role r's memory is its container's as is (no Spark overhead). */
bool hetsim_role_mem_as_is(const struct hetsim_shape *sh, int r);
/* Role r's name ("executor", "ps"; "am" for -1, an application master), what a
 * message calls its executors ("parameter servers"), and what it calls
 * the application ("TFoS"; "the application" where its model names it
 * not).  Static strings. */
const char *hetsim_role_name(const struct hetsim_shape *sh, int r);
const char *hetsim_role_what(const struct hetsim_shape *sh, int r);
const char *hetsim_shape_app_name(const struct hetsim_shape *sh);

/* ---- the cluster -------------------------------------------------- */

int hetsim_nnodes(const struct hetsim *h);                        /* nodes, in node order */
const char *hetsim_node_name(const struct hetsim *h, int node);
int64_t hetsim_node_milli_cores(const struct hetsim *h, int node); /* capacity */
int64_t hetsim_node_mem_mib(const struct hetsim *h, int node);
int hetsim_node_gpus(const struct hetsim *h, int node);
/* Its GPUs' model: the node group's gpu_model, or "gpu" where it names
 * none; NULL for a node without GPUs. */
const char *hetsim_node_gpu_model(const struct hetsim *h, int node);
/* Free now: milli-cores (< 0 when oversubscribed), MiB, idle GPUs (no
 * executor and no share on them). */
int64_t hetsim_node_free_milli_cores(const struct hetsim *h, int node);
int64_t hetsim_node_free_mem_mib(const struct hetsim *h, int node);
int hetsim_node_free_gpus(const struct hetsim *h, int node);
/* GPU g of the node: milli-GPUs free (0 .. HETSIM_GPU_MILLI), and idle. */
int hetsim_node_gpu_free_milli(const struct hetsim *h, int node, int g);
bool hetsim_node_gpu_idle(const struct hetsim *h, int node, int g);
/* Labels the node carries (bit k: label k); the scenario's labels. */
uint64_t hetsim_node_labels(const struct hetsim *h, int node);
int hetsim_nlabels(const struct hetsim *h);
const char *hetsim_label_name(const struct hetsim *h, int k);

/* ---- requests ----------------------------------------------------- */

/* Launch an executor of role `role` for job `job` on node `node`, holding
 * milli_cores (cores may oversubscribe), mem_mib and `gpus` whole GPUs
 * (the lowest-indexed idle ones).  Returns the executor's id, or -1 with
 * nothing launched when its memory or GPUs do not fit the node now. */
int hetsim_launch(struct hetsim *h, int job, int role, int node, int milli_cores,
		  int64_t mem_mib, int gpus);
/* The same with a share of `milli` (1 .. HETSIM_GPU_MILLI - 1) of GPU `gpu`
 * of the node (-1 when that GPU lacks the milli-GPUs or memory). */
int hetsim_launch_share(struct hetsim *h, int job, int role, int node, int milli_cores,
			int64_t mem_mib, int gpu, int milli);
/* Give up on a job that runs no task: it ends unplaceable for reason
 * `why` (enum hetsim_why, not HETSIM_WHY_NONE); its executors are
 * released and job_finished is called at once. */
void hetsim_reject(struct hetsim *h, int job, int why);
/* The timer hook runs delay_us from now with `tag`; any number pending. */
void hetsim_timer(struct hetsim *h, int64_t delay_us, uint32_t tag);

/* ---- versions ----------------------------------------------------- */

/* The running hetsim's version and ABI. */
const char *hetsim_version(void);
int hetsim_abi(void);

#ifdef __cplusplus
}
#endif

#endif
