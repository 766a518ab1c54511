/* pol_common.h - pieces several policies share (pol_ prefix).
 * Not part of the policy interface: policy.h is. */
#ifndef HETSIM_POL_COMMON_H
#define HETSIM_POL_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pol_bits.h"
#include "policy.h"
#include "registry.h"
#include "sim.h"

struct sim;
struct sim_job;
struct clu_node;

extern const struct policy_ops pol_fifo;
extern const struct policy_ops pol_log_replay;
extern const struct policy_ops pol_spark_standalone;
extern const struct policy_ops pol_label_dual;
extern const struct policy_ops pol_yarn;
extern const struct policy_ops pol_easy;
extern const struct policy_ops pol_sjf;
extern const struct policy_ops pol_srtf;
extern const struct policy_ops pol_conservative;
extern const struct policy_ops pol_drf;
extern const struct policy_ops pol_tetris;
extern const struct policy_ops pol_tiresias;
extern const struct policy_ops pol_gavel;
extern const struct policy_ops pol_fgd;
extern const struct policy_ops pol_clustering;
extern const struct policy_ops pol_packing;
extern const struct policy_ops pol_bestfit;
extern const struct policy_ops pol_dotprod;
extern const struct policy_ops pol_random;

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
/* policy_ops.gpu_aware of a policy that always grants GPUs. */
bool pol_gpu_aware_always(const struct scn_policy *cfg);

/* Queue again a job that left the set (it lost an executor and wants a
 * replacement), in its place by id.  No-op if present. */
void pol_jobset_return(struct pol_jobset *q, int job);
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
	struct pol_tent_exec {
		int node, role, cores;
		int64_t mem_mib;
		int gpus;             /* whole GPUs: the lowest-indexed idle at launch */
		int gpu_milli, gpu;   /* or a share of GPU `gpu` (milli > 0) */
	} *e;
	int64_t *cores;       /* by node: milli-cores tentatively placed there */
	int *gpus;            /* by node: idle GPUs tentatively taken, whole
				 ones or by a share */
	int64_t *mem_mib;
	int *gmilli;          /* by node: milli-GPUs of shares placed there */
};
void pol_tent_init(struct pol_tent *t, int nnodes);
void pol_tent_reset(struct pol_tent *t);
void pol_tent_add(struct pol_tent *t, int node, int role, int cores, int64_t mem, int gpus);
/* A share of `milli` of one GPU of node n, on the GPU pol_share_pick
 * chooses (it must fit); returns that GPU. */
int pol_tent_add_share(struct pol_tent *t, const struct clu_node *n, int role, int cores,
		       int64_t mem, int milli);
/* The GPU of node n a share of `milli` would go on after the tentative
 * executors there (t may be NULL): best fit, as clu_share_pick; -1 if
 * none holds it.  O(GPUs + tentative executors). */
int pol_share_pick(const struct pol_tent *t, const struct clu_node *n, int milli);
/* Milli-GPUs free on node n, all its GPUs, after the tentative executors. */
int64_t pol_gpu_milli_free(const struct pol_tent *t, const struct clu_node *n);
/* GPUs a role asks of a policy that gives whole GPUs only (spark-
 * standalone, yarn): its whole ones, or one for a share. */
static inline int pol_whole_gpus(const struct sim_role *ro)
{
	return ro->gpus ? ro->gpus : ro->gpu_milli > 0;
}
/* Free amounts of a node less what is tentatively placed on it; O(1). */
void pol_tent_free(const struct pol_tent *t, const struct clu_node *n, int *cores,
		   int64_t *mem, int *gpus);
/* Launch every tentative executor for `job`, in order; then reset. */
void pol_tent_launch(struct pol_tent *t, struct sim *s, int job);
void pol_tent_fini(struct pol_tent *t);

/* What a feasibility check reads of each executor (pol_feasible). */
struct pol_fit_rules {
	bool labels;       /* only nodes carrying the required labels */
	bool cores;        /* cores checked (false: they may oversubscribe) */
	bool gpus;         /* GPUs checked (false: a GPU-blind policy) */
	bool whole;        /* every executor of every role placed at once (a
			      gang): the roles together must fit too */
};

/* Whether every executor of every role of shape `sh` (job group `group`
 * of sc) fits, alone, some node of the empty cluster by rules `r`
 * (memory always; cores unset count 1), and each role's count fits what
 * those nodes hold together; with r.whole, also whether the roles
 * together ask for no more cores, memory and GPUs than the nodes that
 * may host any of them have in all (a necessary condition only: packing
 * them exactly is bin packing, and a job that passes may still never
 * fit).  Fills v: why not, the first of these that fails for the first
 * role it fails for (a required label no such node carries, then
 * memory, cores, GPUs, capacity; then the whole job's capacity), and a
 * line for people.  Any reason means no schedule can ever place the
 * job.  O(roles × node groups × labels). */
void pol_feasible(const struct scn *sc, int group, const struct sim_shape *sh,
		  struct pol_fit_rules r, struct pol_verdict *v);

/* fifo's verdict, for policies that place whole jobs first fit on every
 * dimension and ignore labels (easy, conservative, sjf, srtf, tiresias):
 * pol_feasible with labels off, cores and GPUs checked, whole jobs. */
void pol_whole_verdict(const struct scn_policy *cfg, const struct scn *sc, int group,
		       const struct sim_shape *sh, struct pol_verdict *v);

/* Tentatively place (t reset first) up to `most` of the executors job j
 * still wants (-1: all), in role order, each on the first node in node
 * order where it fits on every dimension after the ones placed before
 * it (a GPU share on one GPU that holds it: pol_share_pick); labels
 * ignored.  False, the placement partial, if one does not fit. */
bool pol_first_fit(struct pol_tent *t, const struct sim *s, const struct sim_job *j, int most);
/* The same with every executor that asks for GPUs (whole or a share) on
 * a node whose GPUs are of model `gpu_model` (pol_gpu_model); the
 * others anywhere.  NULL: pol_first_fit. */
bool pol_first_fit_on(struct pol_tent *t, const struct sim *s, const struct sim_job *j, int most,
		      const char *gpu_model);
/* A node's GPU model as throughput matrices name it: its gpu_model, or
 * "gpu" where it names none. */
const char *pol_gpu_model(const struct clu_node *n);

/* A projection of what each node of c has free now: milli-cores pc
 * (a node over-committed: 0), MiB pm, milli-GPUs pg (whole and shares),
 * by node. */
void pol_proj_free(const struct clu *c, int64_t *pc, int64_t *pm, int64_t *pg);
/* Job `job`'s live executors added to (sign +1) or taken from (-1) a
 * projection of what each node has free: milli-cores pc, MiB pm,
 * milli-GPUs pg, by node (the preemptive policies plan on one where the
 * running jobs' resources are free). */
void pol_proj_job(struct sim *s, int job, int64_t sign, int64_t *pc, int64_t *pm,
		  int64_t *pg);
/* Job j's executors packed first fit, in role then node order, on such a
 * projection (taken from it): those it still wants, or with `all` every
 * one (a job that runs elsewhere, whose own are in the projection); with
 * `gpu_model`, one that asks for GPUs only on a node of that model
 * (pol_gpu_model).  False, the projection partly taken, if one does not
 * fit. */
bool pol_proj_pack(const struct sim *s, const struct sim_job *j, int64_t *pc, int64_t *pm,
		   int64_t *pg, const char *gpu_model, bool all);
/* Preempt every live executor of job `job` (sim_preempt_executor). */
void pol_preempt_job(struct sim *s, int job);

/* A policy's verdict (its can_ever_place, or what it decides arrivals
 * with) for jobs that have just arrived, asked once per job shape: a job
 * that holds nothing yet has the answer of its shape (its group's, or
 * its own among a trace's; the empty cluster is fixed). */
struct pol_fits {
	uint8_t *by_shape; /* by job shape (sim_shape.id): 0 not asked yet, else
			      1 + the reason (enum sim_why) */
	pol_verdict_fn *fn;
	const struct scn_policy *cfg; /* the run's policy entry; outlives it */
};
void pol_fits_init(struct pol_fits *f, const struct sim *s, pol_verdict_fn *fn,
		   const struct scn_policy *cfg);
void pol_fits_free(struct pol_fits *f);
/* fn's reason for job j, just arrived (no executor yet): SIM_WHY_NONE if
 * it can be placed. */
int pol_fits_arrived(struct pol_fits *f, const struct sim *s, const struct sim_job *j);

/* "4 GiB" when a whole number of GiB, else "1536 MiB", into buf. */
const char *pol_fmt_mib(int64_t mib, char *buf, size_t len);
/* Milli-cores as cores, for messages: "3", "0.5", "1.25". */
const char *pol_fmt_cores(int64_t milli, char *buf, size_t len);

/* Work some policies count for the tests' bounds (issue 34), since the
 * process began or a test zeroed it: first fit's tries past its index's
 * shapes (pol_firstfit.c: the first executors scanned, the nodes they
 * tested, the tries answered from the change log), tetris's best nodes
 * of scanned groups (tetris.c, group_node: asked, nodes whose alignment
 * it took), easy's tries on
 * the extra resources (easy.c: tries, and the nodes they tested), and
 * the scans of label-dual's best fit and spark-standalone's usable
 * workers past their indexes' shapes (label_dual.c, best_fit;
 * spark_standalone.c, schedule_app: looks, nodes read), and tiresias's
 * (below). */
struct pol_work {
	uint64_t ff_scans, ff_tests, ff_by_log;
	uint64_t tetris_best, tetris_evals;
	uint64_t easy_extra, easy_extra_tests;
	uint64_t dual_scans, dual_tests;
	uint64_t sa_scans, sa_tests;
	/* tiresias (tiresias_fast.c) past its trees: a segment's signatures
	 * that missed before, those left out at once (nothing fits now),
	 * and the scans of every node its tries made */
	uint64_t tir_missed, tir_left_out, tir_scans;
};
extern struct pol_work pol_work;

#endif
