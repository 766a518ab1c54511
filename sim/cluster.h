/* cluster.h - nodes and their capacity accounting (clu_ prefix).
 *
 * A node has a capacity vector (CPU, memory, GPUs) and what is free of
 * it.  CPU is counted in milli-cores (CLU_MILLI a core), as Kubernetes
 * and the GPU traces request it (openb's cpu_milli: docs/traces.md); a
 * scenario's whole cores are CLU_MILLI each, so its figures are the
 * same, only scaled.  Memory and GPUs are hard limits: clu_take() refuses to drive them
 * below zero.  Cores may go below zero when a policy's calculator allows
 * oversubscription (YARN's memory-only one); the tasks running on such a
 * node then share its cores (processor sharing, see sim/share.h).
 *
 * GPUs have two kinds of users: executors the scheduler gave GPUs to,
 * and executors that take an idle GPU on their node behind a GPU-blind
 * scheduler's back (sim_take_gpu: a job model's processes that pick a
 * GPU by probing the node).  Both take from
 * gpus_free, so it always counts GPUs physically idle.
 *
 * Each GPU of a node is known by its index (0 .. gpus - 1, at most
 * CLU_MAX_GPUS: one bit of a mask each) and has CLU_GPU_MILLI milli-GPUs:
 * an executor holds whole GPUs (all of each, a mask of them) or a share
 * of one GPU (Weng et al., ATC'23: a pod's gpu_milli, docs/traces.md).  A
 * GPU with a share on it is not idle: gpus_free counts the GPUs nothing
 * is on, so a whole-GPU request sees only those, as before shares.
 *
 * A node of a `gpu_pool` group has its GPUs as one pool of milli-GPUs
 * (pool_m), none known by index, as the published single-pool simulators
 * count them (the Alibaba PAI simulator: one node of 6 500 GPUs in
 * hundredths): a whole GPU takes CLU_GPU_MILLI of the pool, a share its
 * milli-GPUs, and gpus_free is the whole GPUs the pool still holds
 * (pool_m / CLU_GPU_MILLI).  Its masks are placeholders, the low bits of
 * as many GPUs as an executor holds (an executor's GPUs carry no index
 * there), so that their bit counts are the counts; the share's GPU is 0.
 */
#ifndef HETSIM_CLUSTER_H
#define HETSIM_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>

struct scn;

/* Milli-cores a core: every CPU amount of the kernel and the policies
 * (node cores, executor cores, task_cpus, cores_max, loads) is in these
 * units; the scenario's, whole cores, times this. */
#define CLU_MILLI 1000

/* Milli-GPUs of one GPU, and the GPUs of a node at most (a bit each). */
#define CLU_GPU_MILLI 1000
#define CLU_MAX_GPUS 64

struct clu_node {
	/* First line: what the event loop reads and writes at every task
	 * start and end (k_change_load, node_rate: load to nbusy, and
	 * run_head), together, so that one cache line is fetched (and
	 * prefetched) for it; the rest of the line holds small fields read
	 * less often.  The records lie on lines (clu_init; the _Alignas),
	 * 192 bytes each. */
	_Alignas(64) int64_t load; /* milli-cores demanded by running tasks
				(task_cpus each) */
	double rate;         /* progress per µs of each task working on it,
				µs of work at speed 1 (kernel.h, node_rate) */
	double cpu_speed;    /* speed factor, 1.0 = reference core */
	const double *busy_slowdown; /* its group's (scenario.h): the
				slowdown at b busy cores, b = 1..nbusy;
				points into the scenario */
	int cores;           /* physical cores, milli-cores (CLU_MILLI a core) */
	int nbusy;           /* 0: no slowdown under load */
	int run_head;        /* first task running on the node with an end
				event of its own (kernel.h, struct run; the
				others: share.h), -1 if none */
	int exec_head;       /* first live executor on the node, -1 if none */
	int nexec;           /* live executors on the node */
	int id;              /* index in the cluster, = node order */
	int group;           /* index of its scenario node group */
	int gpus;            /* GPUs */

	/* Second line: what placing and releasing executors reads and
	 * writes (clu_take, clu_give, the policies' fit tests). */
	_Alignas(64) int64_t cores_free; /* milli-cores not given to executors;
				< 0 = oversubscribed (a memory-only calculator:
				may pass INT_MAX milli-cores, hence 64 bits) */
	int64_t mem_free;    /* MiB not given to executors, >= 0 */
	int64_t mem_mib;     /* memory, MiB */
	uint64_t labels;     /* label bits (scn.label_names) */
	uint64_t gpu_idle;   /* bit g: GPU g idle (gpus_free of them) */
	uint16_t *gpu_free_m;/* per GPU: milli-GPUs free, 0 .. CLU_GPU_MILLI
				(NULL without GPUs or in a pool); points
				into the cluster */
	int64_t pool_m;      /* a pool: milli-GPUs free */
	int gpus_free;       /* GPUs physically idle (nothing on them), >= 0 */
	bool pool;           /* its GPUs are a pool (above) */

	/* Cold: outputs and messages. */
	_Alignas(64) char *name; /* "<group>-<i>"; owned */
	const char *gpu_model; /* NULL without GPUs; points into the scenario */
};

struct clu {
	struct clu_node *nodes; /* owned, in node order */
	int n;
	int64_t total_cores, total_mem_mib, total_gpus; /* cores: milli-cores */
	int64_t free_cores;     /* sum of max(cores_free, 0): milli-cores a new
				   executor could get without oversubscribing */
	int64_t free_mem_mib;   /* sum of mem_free */
	int64_t free_gpus;      /* sum of gpus_free */
	uint16_t *gpu_m;        /* every node's gpu_free_m, one block; owned */

	/* Change log: the node of every clu_take/clu_give, in order, so that
	 * an index kept outside the cluster (a policy's node index,
	 * policies/pol_index.h) can catch up with what changed since it last
	 * looked, as a replica reads a replication backlog. */
	uint64_t changes;       /* clu_take/clu_give calls since clu_init */
	int *log;               /* ring: node of change k at log[k & log_mask] */
	uint64_t log_mask;      /* ring size - 1; the ring holds >= n changes */
};

/* Debug switch: when true, the policies build no node index
 * (policies/pol_index.h): every placement
 * scans every node, the plain loop each policy's doc describes.  Decisions
 * must not change (tests/test_policies.c compares both). */
extern bool clu_plain_scan;

/* The node of change `seq` (0 <= seq < c->changes), if the log still holds
 * it: a reader whose last seen change is more than log_mask + 1 behind
 * c->changes must rebuild from the nodes instead, which costs O(nodes),
 * no more than reading those changes would have. */
static inline int clu_log_node(const struct clu *c, uint64_t seq)
{
	return c->log[seq & c->log_mask];
}

/* Whether the log still holds every change from `seq` on. */
static inline bool clu_log_holds(const struct clu *c, uint64_t seq)
{
	return c->changes - seq <= c->log_mask + 1;
}

/* Whether reading the changes from `seq` on costs less than a look at
 * every node: the log holds them and they are fewer than the nodes (a
 * policy that remembers where something fitted no node reads only those
 * nodes again). */
static inline bool clu_log_short(const struct clu *c, uint64_t seq)
{
	return clu_log_holds(c, seq) && c->changes - seq < (uint64_t)c->n;
}

/* A reader catching up with the changes since `seen`: the node of each
 * change the log holds, in order, or every node once, in id order, where
 * the log no longer holds them or they are more than `most` (a reader
 * for whom a node twice costs twice):
 *
 *	struct clu_since it = clu_since(c, seen, UINT64_MAX);
 *	for (int i; (i = clu_since_next(&it)) >= 0;)
 *		touch(i);
 *	seen = c->changes;
 */
struct clu_since {
	const struct clu *c;
	uint64_t q, end;        /* the next change, and the count at the start */
	int i;                  /* the next node, reading every node */
	bool all;
};

static inline struct clu_since clu_since(const struct clu *c, uint64_t seen, uint64_t most)
{
	bool all = !clu_log_holds(c, seen) || c->changes - seen > most;
	return (struct clu_since){c, seen, c->changes, 0, all};
}

/* The next node changed, -1 once there is none. */
static inline int clu_since_next(struct clu_since *it)
{
	if (it->all)
		return it->i < it->c->n ? it->i++ : -1;
	return it->q < it->end ? clu_log_node(it->c, it->q++) : -1;
}

/* Build the nodes of a scenario's node groups, in group order.
 * Owned by the caller; free with clu_free. */
void clu_init(struct clu *c, const struct scn *s);
void clu_free(struct clu *c);

/* Take a demand (cores in milli-cores) on node `node`: `gpus` whole
 * GPUs, the lowest-indexed idle ones (the rule of the FGD artifact's
 * baselines for whole-GPU pods, fgd.md §4), or those of `want` (its bit
 * count is gpus; each must be idle) when not 0.  Returns the mask of the
 * GPUs taken.  Taking more memory or GPUs than free is a broken
 * invariant: the caller must have checked (clu_fits).  Cores may go
 * negative. */
uint64_t clu_take(struct clu *c, int node, int cores, int64_t mem_mib, int gpus);
uint64_t clu_take_at(struct clu *c, int node, int cores, int64_t mem_mib, int gpus,
		     uint64_t want);
/* Give back cores, memory and the whole GPUs of gpu_mask. */
void clu_give(struct clu *c, int node, int cores, int64_t mem_mib, uint64_t gpu_mask);
/* Give back the whole of node `node`, all of which was taken (a node
 * coming back up: sim/faults.c). */
void clu_give_node(struct clu *c, int node);

/* A share of `milli` (1 .. CLU_GPU_MILLI - 1) of GPU `gpu` of the node,
 * taken or given back with cores and memory; the GPU must have the
 * milli-GPUs free (clu_share_pick). */
void clu_take_share(struct clu *c, int node, int cores, int64_t mem_mib, int gpu, int milli);
void clu_give_share(struct clu *c, int node, int cores, int64_t mem_mib, int gpu, int milli);
/* The GPU a share of `milli` goes on, by best fit: the GPU with the
 * least milli-GPUs free that still holds it, the lowest index on ties
 * (the FGD artifact's rule for sharing pods under its baselines, fgd.md
 * §4); -1 if none holds it. */
int clu_share_pick(const struct clu_node *n, int milli);
/* Milli-GPUs free on GPU g of node n (a pool: the pool's, at most
 * INT_MAX, for g 0). */
static inline int clu_gpu_free(const struct clu_node *n, int g)
{
	if (n->pool)
		return g ? 0 : n->pool_m > 2147483647 ? 2147483647 : (int)n->pool_m;
	return n->gpu_free_m[g];
}

/* Whether a demand fits node `n` now.  check_cores false: cores are not
 * checked (memory-only calculators).  Memory and GPUs always are. */
bool clu_fits(const struct clu_node *n, int cores, int64_t mem_mib, int gpus,
	      bool check_cores);
/* The same for a share of `milli` of one GPU (clu_share_pick finds one). */
bool clu_fits_share(const struct clu_node *n, int cores, int64_t mem_mib, int milli,
		    bool check_cores);

/* Whether node `n` carries every label of `require`. */
static inline bool clu_has_labels(const struct clu_node *n, uint64_t require)
{
	return (n->labels & require) == require;
}

#endif
