/* pol_common.h - pieces several policies share (pol_ prefix).
 * Not part of the policy interface: policy.h is. */
#ifndef HETSIM_POL_COMMON_H
#define HETSIM_POL_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "policy.h"

struct sim;
struct sim_job;
struct clu_node;

extern const struct policy_ops pol_fifo;
extern const struct policy_ops pol_spark_standalone;
extern const struct policy_ops pol_label_dual;
extern const struct policy_ops pol_yarn;

/* A queue of job ids in arrival order, with O(1) removal of any job.
 * Whether a job is queued is a bit of its own: a policy's job_finished
 * asks that of jobs that mostly left long ago, and a bit array (1/64 of
 * prev or next) stays in the cache where those are misses. */
struct pol_queue {
	int *prev, *next;  /* by job id; meaningful only while it is queued */
	uint64_t *queued;  /* bit per job id */
	int head, tail;    /* -1 when empty */
	int len;
};
void pol_queue_init(struct pol_queue *q, int njobs);
void pol_queue_free(struct pol_queue *q);
void pol_queue_push(struct pol_queue *q, int job);
void pol_queue_remove(struct pol_queue *q, int job); /* no-op if absent */
static inline bool pol_queue_has(const struct pol_queue *q, int job)
{
	return q->queued[job >> 6] >> (job & 63) & 1;
}
/* The job after queued job `job`, or -1. */
static inline int pol_queue_next(const struct pol_queue *q, int job)
{
	return q->next[job];
}

/* Executors placed tentatively in one scheduling decision, so a gang can
 * be checked whole before anything is launched. */
struct pol_tent {
	int n, cap;
	struct pol_tent_exec { int node, role, cores; int64_t mem_mib; int gpus; } *e;
	int *cores, *gpus;    /* by node: tentatively placed there */
	int64_t *mem_mib;
};
void pol_tent_init(struct pol_tent *t, int nnodes);
void pol_tent_reset(struct pol_tent *t);
void pol_tent_add(struct pol_tent *t, int node, int role, int cores, int64_t mem, int gpus);
/* Free amounts of a node less what is tentatively placed on it; O(1). */
void pol_tent_free(const struct pol_tent *t, const struct clu_node *n, int *cores,
		   int64_t *mem, int *gpus);
/* Launch every tentative executor for `job`, in order; then reset. */
void pol_tent_launch(struct pol_tent *t, struct sim *s, int job);
void pol_tent_fini(struct pol_tent *t);

/* Whether each executor of `j` fits, alone, some node of the empty
 * cluster that carries its required labels (when use_labels), checking
 * cores only if check_cores, and the job's total demand fits the
 * eligible capacity.  False means no schedule can ever place it.
 * O(node groups). */
bool pol_feasible(const struct sim *s, const struct sim_job *j, bool use_labels,
		  bool check_cores, bool use_gpus);

#endif
