/* model.h - a job model: one kind of job, as one const table (jm_).
 *
 * A job model says what its jobs are: the scenario keys of its job
 * groups, the checks of a group, the roles and DAG of its jobs and how
 * they react while they run.  Like policy.h's ops table (and Linux's
 * sched_class), every model is one const `struct job_model`, listed in
 * the registry (models.h, models.c); nothing else names it.
 *
 * Two parts, used by two layers:
 *
 *   - the scenario part (this header): the loader (input/) applies the
 *     key table to a job group's YAML mapping, so it holds no per-model
 *     code, then calls `loaded` and, once the cost model is known,
 *     `check`;
 *   - the run part, `ops` (struct sim_job_ops, sim/sim.h): the hooks the
 *     kernel calls, documented there with what they may touch.  They are
 *     defined by the kernel, not here, so that the kernel includes no
 *     model: the kernel is below the models in the layers.
 *
 * docs/writing-a-job-model.md walks through adding one.
 *
 * Module: workloads/ (the job models, their registry and their cost
 * evaluation).  It includes scenario/ and sim/ (the kernel's requests),
 * never input/, policies/ or cli/.
 */
#ifndef HETSIM_MODEL_H
#define HETSIM_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenario.h"

struct sim_job_ops;

/* The kinds of value a key takes, and what the loader writes at the
 * key's offset in the group's params. */
enum jm_key_kind {
	JM_INT,        /* int, in [lo, hi]; `what` names the unit of the
			  limit ("executors per job") */
	JM_SIZE,       /* int64_t MiB, a size with a unit (512MiB, 2GiB), >= lo */
	JM_TIME,       /* int64_t µs, a time with a unit; lo 0: >= 0, 1: > 0 */
	JM_NUM,        /* double in [flo, fhi] ((flo, fhi] with lo_open);
			  `what` says what is expected ("a number in (0, 10]") */
	JM_DIST_SIZE,  /* struct scn_dist of a size (MiB): a value or a
			  distribution */
	JM_ENUM,       /* int: the index of the value in names */
	JM_ROLE,       /* struct scn_exec: a mapping of cores, memory, gpus,
			  require, prefer (and count with lo = 1) */
	JM_STAGES,     /* the group's `stages` (not in params): a list of
			  stages with tasks, duration and parents */
};

struct jm_key {
	const char *key;
	enum jm_key_kind kind;
	size_t off;              /* where in the model's params (offsetof) */
	long long lo, hi;        /* bounds: see the kinds */
	double flo, fhi;         /* JM_NUM bounds */
	bool lo_open;            /* JM_NUM: flo excluded */
	bool required;           /* the group must give it */
	const char *what;        /* JM_INT: unit of the limit; JM_NUM: expected */
	const char *const *names; int nnames; /* JM_ENUM */
	const char *help;        /* one line, for docs and `validate` */
};

/* Where each key of a group was written (line 0: not given), by the
 * index of the key in the model's table; `group` is the mapping's. */
struct jm_given {
	struct scn_pos group;
	const struct scn_pos *at; /* nkeys entries */
};

struct job_model {
	const char *name;          /* `type:` in scenario files */
	const struct jm_key *keys; /* its keys beyond the generic ones
				      (name, type, count, arrival, require,
				      prefer, cores_max, task_cpus) */
	int nkeys;
	size_t params_size;        /* its params struct (flat: owns nothing) */
	const void *defaults;      /* params before any key: every default */
	/* After its keys were read into jg->params: derived settings and
	 * checks across keys.  Returns 0, or -1 with "file:line:col:
	 * message" in err.  NULL: nothing to do. */
	int (*loaded)(struct scn_job_group *jg, const struct jm_given *given, char *err,
		      size_t errlen);
	/* Checks that need the whole scenario (a cost-model kernel group g
	 * needs, ...).  The loader calls it last, and loads the built-in
	 * cost model when the scenario names none and a check fails.
	 * Returns 0 or -1 with the message in err.  NULL: none. */
	int (*check)(const struct scn *s, int g, char *err, size_t errlen);
	/* Tasks of each job of the group, where the scenario fixes it (for
	 * the workload's limit of tasks).  NULL: the group's stages'. */
	long long (*tasks)(const struct scn_job_group *jg);
	/* The cost-model kernels (device cpu) whose times its tasks take on
	 * a node's processor-sharing clock, NULL-terminated: their
	 * contention entries make the nodes' busy curve (docs/model.md,
	 * "Contention").  NULL: none (durations given, or timed phases). */
	const char *const *clock_kernels;
	/* A lower bound of the longest timed phase (not a DAG task) of a
	 * job of group g, µs, however it is placed, priced through
	 * wl_cost_us (so that a wl_cost_watch sees the coefficient behind
	 * it): the loader refuses a scenario where even it passes the
	 * simulated clock, as it does a task too long.  NULL: the model's
	 * times are its DAG's tasks. */
	double (*longest_us)(const struct scn *s, int g);
	/* What longest_us bounds, for the loader's message ("its training,
	 * ... would take"). */
	const char *longest_what;
	const struct sim_job_ops *ops; /* the run part (sim/sim.h) */
};

#endif
