/* policy.h - the ops table every cluster-level policy implements (pol_).
 *
 * The kernel's interface to policies: it calls a policy only through
 * this table, so it lives with the kernel (sim/), the policies (and
 * their registry, policies/registry.h) above it.
 *
 * A policy decides which application gets which executors on which
 * nodes.  It reads the cluster and the jobs through the const accessors
 * of sim.h and changes the simulation only through sim_launch_executor()
 * and sim_reject_job().  Tasks inside an application are dispatched by
 * the engine (Spark's FIFO order), never by the policy.
 *
 * Lifecycle, all hooks called by the engine at the current simulated time:
 *   init          once per run, before any event; returns the policy's
 *                 private state (NULL allowed when it has none).
 *   job_arrived   a job was submitted.  The policy queues it.  Called
 *                 in arrival order (ties in job id order).
 *   job_finished  a job ended (done, failed, timed out, rejected); its
 *                 executors are already released.  The policy drops it.
 *   schedule      after all events of one timestamp were applied, when
 *                 something that can change a decision happened (arrival,
 *                 release of resources).  May launch executors.
 *   fini          end of run; frees the state.
 * A hook left NULL does nothing.
 *
 * One hook needs no run:
 *   can_ever_place  whether a job of one job group fits the empty
 *                 cluster under this policy's sizing rules (executor
 *                 sizes as the policy sees them, the labels and the
 *                 dimensions it checks, a container maximum, the job
 *                 types its system runs).  Fills a verdict: why not
 *                 (enum sim_why, SIM_WHY_NONE if some schedule can place
 *                 it) and one line for people.  `hetsim validate` asks
 *                 it for every job group; the engine asks it why a job
 *                 still waiting at the end of a run was never placed; a
 *                 policy that rejects jobs at arrival decides with it,
 *                 so that the three agree.  It reads only its arguments
 *                 and must not keep state.  NULL: every job can be
 *                 placed (SIM_WHY_NONE).
 *
 * The engine makes the job_arrived and job_finished calls for the events
 * of a timestamp at its end, in the order the jobs arrived and ended,
 * right before schedule (so all three are timed as one); a job rejected
 * from inside a hook is reported to job_finished at once.  A policy's
 * state is read only by its hooks, so this is the same as calling each
 * hook when its event is applied, as long as a hook reads nothing of the
 * engine's state that a later event of the same timestamp can change:
 * the jobs' and cluster's static figures are fine.
 */
#ifndef HETSIM_POLICY_H
#define HETSIM_POLICY_H

#include <stdbool.h>
#include <stdint.h>

struct sim;
struct sim_exec;
struct scn;
struct scn_policy;
struct sim_shape;

/* What can_ever_place finds for a job group. */
struct pol_verdict {
	int why;             /* enum sim_why; SIM_WHY_NONE: it can be placed */
	char detail[320];    /* why not, for people: what it asks against what
				the cluster has (no newline); "" if placeable */
};

/* A verdict on job group `group` (shape sh) of sc under the policy
 * configured as cfg: the type of can_ever_place. */
typedef void pol_verdict_fn(const struct scn_policy *cfg, const struct scn *sc, int group,
			    const struct sim_shape *sh, struct pol_verdict *v);

enum pol_param_type {
	POL_BOOL,   /* true | false */
	POL_CHOICE, /* one of `choices` */
	POL_INT,    /* an integer in [lo, hi] (its unit, if any, in `unit`) */
	POL_NUM,    /* a real number in [lo, hi] */
	POL_TIME,   /* a time with a unit (10ms, 3s); lo, hi and the value in µs */
	POL_SIZE,   /* a size with a unit (512MiB, 8GiB); lo, hi and the value in MiB */
};

struct pol_param {
	const char *key;
	enum pol_param_type type;
	const char *const *choices; /* POL_CHOICE: NULL-terminated list */
	const char *def;            /* default value, as written in YAML */
	const char *help;           /* one line for `hetsim policies` */
	double lo, hi;              /* numeric types: the range, in the base unit */
	double def_num;             /* numeric types: the default, in the base unit */
	const char *unit;           /* POL_INT, POL_NUM: the unit's name ("MiB"), or NULL */
	const char *with;           /* "KEY=VALUE" or NULL: a value other than def
				       goes only with switch KEY at VALUE (the
				       loader refuses it otherwise) */
	bool period;                /* POL_TIME: the policy sets a timer every
				       this often while jobs are active, so
				       `validate` warns of a value that gives
				       more than POL_PERIOD_RATE events a
				       simulated second */
};

/* Events a simulated second a periodic timer or check may make before
 * `validate` warns (the speculation check, a policy's rounds). */
#define POL_PERIOD_RATE 1000

/* What a policy needs of a workload (policy_ops.needs), so that tools
 * can tell where it applies. */
enum pol_need {
	POL_NEED_ESTIMATES = 1,      /* run-time estimates (sim_job_estimate) */
	POL_NEED_FRACTIONAL_GPUS = 2,/* GPU shares (sim_role.gpu_milli) */
	POL_NEED_THROUGHPUT = 4,     /* a job x GPU-model throughput matrix */
	POL_NEED_PREEMPTION = 8,     /* it preempts executors */
	POL_NEED_EVENT_LOG = 16,     /* a Spark event log's application
					(replay-log's log-replay) */
};

struct policy_ops {
	const char *name;              /* registry name, e.g. "label-dual" */
	const char *file;              /* a plugin's shared object as given (its
					  loader sets it), NULL built in: for
					  messages that name the policy */
	const char *summary;           /* one line */
	const struct pol_param *params;/* terminated by a {NULL} entry */
	bool uses_labels;              /* false: says so once if labels exist */
	/* Whether the policy configured as cfg (NULL: with every switch at
	 * its default) is GPU-aware: GPUs are a resource it grants, and an
	 * executor sees only the GPUs it was granted (CUDA_VISIBLE_DEVICES,
	 * as Spark 3's resource scheduling and YARN 3's GPU isolation set
	 * it); false: GPU-blind, executors see all the node's GPUs
	 * (sim_gpus_isolated).  A property of each configured instance, so
	 * one policy can be listed twice, GPU-blind and GPU-aware.  NULL:
	 * GPU-blind. */
	bool (*gpu_aware)(const struct scn_policy *cfg);
	/* Whether the policy places each role of a job on purpose and tells
	 * the application which executor plays which role, so that a job's
	 * roles are the ones its executors were launched for (a platform
	 * such as the paper's, which puts a TF parameter server on a CPU
	 * node); false: the executors are interchangeable to the job, which
	 * assigns its roles itself, as stock Spark and YARN leave it
	 * (say, by the order its executors register).  sim_roles_placed. */
	bool places_roles;
	unsigned needs;                /* enum pol_need bits; 0: none */

	void *(*init)(struct sim *s, const struct scn_policy *cfg);
	void (*job_arrived)(void *st, struct sim *s, int job);
	void (*job_finished)(void *st, struct sim *s, int job);
	void (*schedule)(void *st, struct sim *s);
	void (*fini)(void *st);
	/* Executor x (role SIM_ROLE_AM for an AM; a copy: it is released)
	 * of job `job`, still active, was lost: its node failed or it was
	 * preempted (why: SIM_WHY_NODE_FAILED, SIM_WHY_PREEMPTED); its
	 * resources are back and the job no longer counts it as granted,
	 * so it wants a replacement, as a Spark application asks its
	 * cluster manager for one.  The policy queues the job again.  NULL:
	 * the job goes on with what it has left. */
	void (*exec_lost)(void *st, struct sim *s, int job, const struct sim_exec *x, int why);
	/* A timer the policy set (sim_policy_timer) fired with its tag.
	 * May launch and preempt executors.  NULL: none is ever set. */
	void (*timer)(void *st, struct sim *s, uint32_t tag);
	/* Executor x's last running task ended (and is retired: the hook may
	 * preempt x): it runs none now (though the dispatcher may give it one
	 * in the same instant: sim_exec_tasks tells later).  Spark's dynamic allocation gives back an executor
	 * idle for executorIdleTimeout (log-replay).  NULL: not called. */
	void (*exec_idle)(void *st, struct sim *s, struct sim_exec *x);

	pol_verdict_fn *can_ever_place;
};

#endif
