/* yarn_int.h - the yarn policy's own records, shared by its files
 * (private to policies/yarn*.c).
 *
 * The files, bottom up, each calling only those before it:
 *   yarn_size.c  what a container is: its memory and vcores, the AMs'
 *   yarn_hb.c    allocation latency (nm_heartbeat > 0): NodeManager
 *                heartbeats, the AM's allocate() polls
 *   yarn.c       the policy: submission, the AM limit, the immediate
 *                mode (nm_heartbeat 0), the ops table and its switches
 * yarn.c's header comment says what is modelled.
 */
#ifndef HETSIM_YARN_INT_H
#define HETSIM_YARN_INT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "cluster.h"
#include "pol_common.h"
#include "pol_index.h"
#include "pol_ring.h"
#include "rng.h"
#include "sim.h"

/* The random stream of the NodeManagers' heartbeat phases (rng.h). */
#define YARN_RNG_HEARTBEAT ((enum rng_stream)(RNG_USER + 3))

enum {
	SPARK_AM_MIB = 512,       /* spark.yarn.am.memory (client mode): the
				     master of a job that names none of its own
				     size (sim_shape.nmasters 0, or a master of
				     mem_mib 0) */
};


/* The scheduler's configuration: the policy's switches (yarn_params). */
struct yconf {
	int64_t min_mib;          /* yarn.scheduler.minimum-allocation-mb */
	int64_t max_mib;          /* yarn.scheduler.maximum-allocation-mb */
	int max_vcores;           /* yarn.scheduler.maximum-allocation-vcores */
	double am_percent;        /* yarn.scheduler.capacity.maximum-am-resource-percent */
	int64_t nm_hb_us;         /* NodeManager heartbeat interval (nm_heartbeat);
				     0: containers assigned at once */
	bool phase_zero;          /* nm_heartbeat_phase zero: every node at 0 */
	bool oob;                 /* oob_heartbeat: a NodeManager heartbeats when
				     a container on it ends, its phase then */
	int64_t nm_mib;           /* nm_memory_mb: every NodeManager's offer,
				     MiB; 0: the node group's (yarn.c nm_mib) */
	int nm_vcores;            /* nm_vcores: the same in vcores; 0: the
				     group's */
	int offswitch;            /* ...per-node-heartbeat.maximum-offswitch-assignments */
	int64_t am_hb_us;         /* spark.yarn.scheduler.heartbeat.interval-ms */
	int64_t am_init_us;       /* spark.yarn.scheduler.initial-allocation.interval;
				     0: the AM takes a container when assigned */
	double min_ratio;         /* spark.scheduler.minRegisteredResourcesRatio */
	int64_t max_wait_us;      /* spark.scheduler.maxRegisteredResourcesWaitingTime */
	bool drc;                 /* gpu_aware: GPUs the yarn.io/gpu resource and the
				     DominantResourceCalculator (vcores, memory,
				     GPUs all fit) */
};

struct yarn_app {
	bool active;              /* its AMs count against the AM limit */
	int ams;                  /* AM containers it needs (its masters) */
	int cls;                  /* its AM class (yarn.cls) */
	int relaunch;             /* which AM (its master k) to launch again
				     after a loss; -1: the next */
	int64_t am_mib;           /* their memory, total */
	/* with nm_heartbeat: what the ResourceManager and the AM know */
	bool registered;          /* its AMs are up and asked (polling began) */
	int asked;                /* executor containers asked of the RM, not
				     yet assigned (initial_allocation_interval > 0) */
	int *promised;            /* nodes of executor containers assigned and
				     not yet taken by its AM; owned */
	int npromised, cap_promised;
	int64_t poll_t_us;        /* its allocator's last poll */
	int64_t poll_iv_us;       /* the sleep after it */
	int64_t next_alloc_us;    /* Spark's nextAllocationInterval */
	int64_t poll_armed_us;    /* its pending poll timer, -1 if none */
	int *cnodes;              /* oob: the node of each container it holds
				     (a node once per container); owned */
	int ncnodes, cap_cnodes;
};

/* Applications whose AMs are alike: as many, as large. */
struct am_class {
	int ams;
	int64_t am_mib;           /* their memory, total */
	struct pol_jobset pend;   /* not yet active, arrival order */
};

struct yarn {
	struct yconf k;            /* its switches */
	int64_t *held_mib;        /* per node: memory its NodeManager does not
				     offer (node - yarn.nodemanager.resource.memory-mb) */
	int *held_cores;          /* per node: cores - .cpu-vcores, milli-cores
				     (< 0: more vcores than cores) */
	struct pol_jobset q;       /* applications not finished, arrival order */
	struct yarn_app *app;     /* by job id */
	struct pol_fits fits;     /* by job group: what submission finds
				     (submission_verdict) */
	int64_t am_limit_mib, am_used_mib; /* the AM limit and what active AMs hold */
	int am_limit_vcores, am_used_vcores; /* the same in vcores (the DRC checks them) */
	int nactive;
	struct am_class *cls;     /* applications not yet active, by AM class
				     (their AMs' count and memory: one Spark AM,
				     a Spark AM and an Angel master, ...), each
				     in arrival order: the first of a class is
				     the one of its size to try; O(classes) of
				     the run's shapes, two with the stock models */
	int ncls, cap_cls;
	int next_node;            /* heartbeat pointer */
	struct pol_tent t;
	bool indexed;             /* false with clu_plain_scan: scan every
				     node and every active application */
	struct pol_ix ix;         /* nm_heartbeat 0: per container size, the
				     nodes with that much memory free (key 0,
				     yarn_key) */
	struct pol_tree asking;   /* by job id: active applications that may
				     get a container now (key 0) */
	struct pol_queue parked;  /* active applications whose AMs are all
				     launched but not all up, in the order
				     their last AM was launched */
	/* NodeManager heartbeats (nm_heartbeat > 0) */
	bool hb;                  /* on */
	int njobs;
	int *held_gpus;           /* per node: GPUs assigned, not yet taken */
	int64_t *phase_us;        /* by node: its heartbeats' phase, [0, nm_heartbeat) */
	struct pol_ring ring;     /* the nodes in heartbeat order: keys (phase,
				     node id) */
	int64_t cur_a, cur_b;     /* the heartbeats at cur_us of nodes whose
				     keys are before (cur_a, cur_b) are done */
	int64_t cur_us;
	int64_t armed_us;         /* the pending heartbeat timer's time, -1 */
	uint32_t hb_gen;          /* its generation: older ones are stale */
	int64_t oob_seq;          /* out-of-band heartbeats so far: a moved
				     node's second key is ring.n + this */
	/* indexed: the applications with a request at the RM, a set per
	   part of a container its calculator compares (yarn_calc_shape),
	   so that the next useful heartbeat and a beat's application look
	   at the few sizes asked for, not at every application asking */
	struct yarn_rq {
		struct pol_shape sh;  /* the compared part */
		struct pol_bits jobs; /* the applications asking for it */
		int n;                /* how many */
	} *rq;
	int nrq;
	int *rq_of;               /* by job: its set in rq, -1 if none */
	bool rq_off;              /* past YARN_MAX_RQ sizes: the scan of
				     `asking` for good (as with clu_plain_scan) */
};

/* Sizes yarn keeps a request set for (struct yarn rq), at most. */
#define YARN_MAX_RQ 64

/* Policy timer tags: the kind in the low 2 bits, then a job or a
 * generation. */
enum { TK_HEARTBEAT, TK_POLL, TK_GATE };

/* Whether a container fits node n's free amounts, as its NodeManager
 * offers them: memory only (the DefaultResourceCalculator), or every
 * dimension (gpu_aware's DRC). */
static inline bool yarn_fits(const struct yarn *y, const struct clu_node *n, int fc, int64_t fm, int fg,
		 const struct pol_shape *sh)
{
	fm -= y->held_mib[n->id];
	if (y->held_gpus)
		fg -= y->held_gpus[n->id];
	if (y->k.drc)
		return fc - y->held_cores[n->id] >= sh->cores && fm >= sh->mem_mib && fg >= sh->gpus;
	return fm >= sh->mem_mib;
}

/* The part of a container's size its calculator compares (yarn_fits):
 * every dimension under gpu_aware's DRC, else its memory; an index keys
 * a shape by it, so that sizes of equal memory share a tree. */
static inline struct pol_shape yarn_calc_shape(const struct yarn *y, const struct pol_shape *want)
{
	return y->k.drc ? *want : (struct pol_shape){.mem_mib = want->mem_mib};
}

/* yarn_fits as the node indexes key it (pol_ix_key_fn, y the context):
 * 0 where the container fits, else INFINITY, so that the winner of a
 * range of nodes is the first one in it with room. */
static inline double yarn_key(const void *y, const struct clu_node *n, int fc, int64_t fm, int fg,
			      const struct pol_shape *sh)
{
	return yarn_fits(y, n, fc, fm, fg, sh) ? 0 : INFINITY;
}

/* ---- yarn_size.c ----------------------------------------------------- */

int64_t yarn_container_mib(const struct yconf *k, int64_t mem, bool overhead);
void yarn_exec_shape_of(const struct yconf *k, const struct sim_shape *sh, int r, int *cores,
			int64_t *mib, int *gpus);
void yarn_exec_shape(const struct yconf *k, const struct sim_job *j, int r, int *cores,
		     int64_t *mib, int *gpus);
int yarn_masters_of(const struct sim_shape *sh);
int64_t yarn_master_mib(const struct yconf *k, const struct sim_shape *sh, int i);
int64_t yarn_am_mib_of(const struct yconf *k, const struct sim_shape *sh, int64_t *largest);
bool yarn_by_master(const struct sim_shape *sh, int r);

/* ---- yarn_hb.c: with nm_heartbeat > 0 --------------------------------- */

/* Nodes in heartbeat order, phases keyed by (seed, node) or all 0. */
void yarn_hb_init(struct yarn *y, struct sim *s);
void yarn_hb_free(struct yarn *y);
/* The schedule hook: applications whose AMs came up register, and the
 * next useful heartbeat is armed. */
void yarn_hb_schedule(struct yarn *y, struct sim *s);
/* The timers: a heartbeat (of generation gen), an AM's poll. */
void yarn_hb_heartbeat(struct yarn *y, struct sim *s, uint32_t gen);
void yarn_hb_poll(struct yarn *y, struct sim *s, int job);
/* Job `job` ended: what was assigned to it and never taken goes back. */
void yarn_hb_finished(struct yarn *y, struct sim *s, int job);
/* Application `job` was let in: it asks for its AM. */
void yarn_hb_activated(struct yarn *y, const struct sim *s, int job);
/* Executor x of job `job` was lost (exec_lost's heartbeat half). */
void yarn_hb_lost(struct yarn *y, struct sim *s, int job, const struct sim_exec *x, int why);

#endif
