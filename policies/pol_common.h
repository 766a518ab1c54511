/* pol_common.h - pieces several policies share (pol_ prefix).
 * Not part of the policy interface: policy.h is. */
#ifndef HETSIM_POL_COMMON_H
#define HETSIM_POL_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "pol_bits.h"
#include "policy.h"

struct sim;
struct sim_job;
struct clu_node;

extern const struct policy_ops pol_fifo;
extern const struct policy_ops pol_spark_standalone;
extern const struct policy_ops pol_label_dual;
extern const struct policy_ops pol_yarn;

/* The jobs a policy has waiting, in arrival order.  Jobs arrive in id
 * order (the engine numbers them so) and a policy adds each when it
 * arrives, so arrival order is id order, and the queue is a set of ids
 * (pol_bits.h): n / 8 bytes, where links by id take 8n (8 MB to touch at
 * the start of a run of 10^6 jobs; a virtual machine makes that dear).
 * Removal, membership and the next job are a few word operations.
 * Adding a job below the last one added is a programming error (abort). */
struct pol_jobset {
	struct pol_bits b;
	int last;          /* the last job added, -1 before the first */
	int from;          /* no job below it is queued, now or later: the
			      first job found last (jobs are added above it) */
};
void pol_jobset_init(struct pol_jobset *q, int njobs);
void pol_jobset_free(struct pol_jobset *q);
void pol_jobset_add(struct pol_jobset *q, int job);
/* No-op if absent. */
static inline void pol_jobset_remove(struct pol_jobset *q, int job)
{
	pol_bits_put(&q->b, job, false);
}
static inline bool pol_jobset_has(const struct pol_jobset *q, int job)
{
	return pol_bits_has(&q->b, job);
}
/* The first job, or -1.  Usually in the word where the last one was
 * found. */
static inline int pol_jobset_first(struct pol_jobset *q)
{
	int job = pol_bits_next(&q->b, q->from);
	if (job >= 0)
		q->from = job;
	return job;
}
/* The first job after `job` (queued or not), or -1. */
static inline int pol_jobset_next(const struct pol_jobset *q, int job)
{
	return pol_bits_next(&q->b, job + 1);
}

/* A queue of job ids in the order pushed, any order, with O(1) removal
 * of any job (yarn's parked applications).  Whether a job is queued is a
 * bit of its own: a bit array (1/64 of prev or next) stays in the cache
 * where those are misses. */
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

/* pol_feasible for jobs that have just arrived, asked once per job group:
 * a job that holds nothing yet has the answer of its group (its shape and
 * labels are the group's, the empty cluster is fixed).  A policy keeps
 * one, with the same flags for every call. */
struct pol_fits {
	int8_t *by_group;  /* -1 not asked yet, else the answer */
};
void pol_fits_init(struct pol_fits *f, const struct sim *s);
void pol_fits_free(struct pol_fits *f);
/* pol_feasible(s, j, ...) for job j on its arrival (no executor yet). */
bool pol_fits_arrived(struct pol_fits *f, const struct sim *s, const struct sim_job *j,
		      bool use_labels, bool check_cores, bool use_gpus);

#endif
