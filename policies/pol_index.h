/* pol_index.h - node indexes behind the policies' placements (pol_ prefix).
 *
 * Placing an executor means ranking the nodes that can take it: fifo and
 * yarn take the first in node order (yarn from a round-robin pointer),
 * label-dual the best fit, spark-standalone the workers with the most free
 * cores.  A scan does that in O(nodes) per executor; these indexes keep
 * the ranking current instead, so one placement costs O(log nodes).
 *
 * pol_tree: a tournament (winner) tree over the nodes.  Every node has a
 * key, INFINITY when it is no candidate; every inner slot holds the winner
 * of its two children, the smaller key, ties to the lower node.  The root
 * is then the node a scan in node order keeping the first strict minimum
 * would pick, and any range of nodes (a node group) has its winner in
 * O(log n) — so an index can never break a tie differently than the scan.
 * While its keys are only 0 and INFINITY (a first fit), it is a bit set
 * instead, with the same answers (below).
 * (Nothing ties it to nodes: yarn keeps its applications in one, by job
 * id, key 0 for those to visit, to find the next one in arrival order.)
 *
 * pol_ix: one tree per executor shape (cores, memory, GPUs) a policy asks
 * about, keyed by the policy's function of a node's free amounts less
 * what is tentatively placed on it.  It stays current by reading the
 * cluster's change log (sim/cluster.h) and by being told of tentative
 * placements.  Shapes are fixed per job group and role, so there are a
 * few; every change to a node costs O(shapes × log n) (a bit set's:
 * O(shapes × log64 n)).
 *
 * With clu_plain_scan the policies build no index and scan every node:
 * the reference the tests compare against.
 */
#ifndef HETSIM_POL_INDEX_H
#define HETSIM_POL_INDEX_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "pol_bits.h"

struct clu;
struct clu_node;
struct pol_tent;

/* While every key a tree was given is 0 or INFINITY (a first fit:
 * fifo's and yarn's keys), the winner is simply the first node with key
 * 0, and the tree keeps the nodes with key 0 as a bit set instead: a bit
 * per node, a bit per nonzero word above them, and so on up to one word.
 * A change then costs a word or two and the first candidate from any node
 * a few count-trailing-zeros, where replaying a match per level costs
 * ten times that on a thousand nodes.  The first other key turns the
 * tree into the tournament for good, O(n) once. */
struct pol_tree {
	int n, size;   /* nodes; leaves, a power of two >= n */
	double *key;   /* by node; INFINITY = no candidate */
	int *win;      /* tournament: by slot 1 .. 2 size - 1: winning node
			  of the slot's subtree, -1 if none; node i's leaf is
			  slot size + i; NULL while a bit set */
	struct pol_bits bits; /* bit set: the nodes with key 0; bits.w NULL
			  once a tournament */
};

/* A tree over n nodes, none a candidate.  Free with pol_tree_free. */
void pol_tree_init(struct pol_tree *t, int n);
void pol_tree_free(struct pol_tree *t);
/* Give `node` key `key` (INFINITY: no candidate).  O(log n). */
void pol_tree_set(struct pol_tree *t, int node, double key);
/* The winner among nodes lo .. hi - 1, or -1 if none is a candidate.
 * O(log n). */
int pol_tree_min(const struct pol_tree *t, int lo, int hi);
/* The first node of a bit set, or -1: pol_tree_top's other half. */
static inline int pol_tree_first(const struct pol_tree *t)
{
	return pol_bits_first(&t->bits);
}
/* The winner among all nodes, or -1.  O(1) (a bit set: O(log64 n)). */
static inline int pol_tree_top(const struct pol_tree *t)
{
	return t->win ? t->win[1] : pol_tree_first(t);
}

/* An executor's demand as an index sees it. */
struct pol_shape {
	int cores;         /* milli-cores */
	int64_t mem_mib;
	int gpus;          /* whole GPUs */
	int gpu_milli;     /* or a share of one GPU (gpus 0), milli-GPUs */
};

/* Field by field (memcmp would read the padding after cores). */
static inline bool pol_shape_eq(const struct pol_shape *a, const struct pol_shape *b)
{
	return a->cores == b->cores && a->mem_mib == b->mem_mib && a->gpus == b->gpus &&
	       a->gpu_milli == b->gpu_milli;
}

/* Key of node `n` for shape `sh`, given its free amounts less what is
 * tentatively placed on it: INFINITY when `sh` may not go there, else the
 * rank (lower is better; ties go to the lower node). */
/* Milli-cores free, for a key function's int: a node oversubscribed past
 * INT_MIN reads INT_MIN, which no demand fits either. */
static inline int pol_clamp_cores(int64_t c)
{
	return c < INT_MIN ? INT_MIN : c > INT_MAX ? INT_MAX : (int)c;
}

typedef double pol_ix_key_fn(const void *ctx, const struct clu_node *n, int cores_free,
			     int64_t mem_free, int gpus_free, const struct pol_shape *sh);

struct pol_ix {
	const struct clu *c;
	const struct pol_tent *t;    /* counted as taken; NULL if none */
	pol_ix_key_fn *key;
	const void *ctx;             /* for key */
	uint64_t seen;               /* cluster changes caught up with */
	struct pol_ix_shape { struct pol_shape sh; struct pol_tree tree; } **shapes;
	int nshapes, cap_shapes;
	int *tent;                   /* nodes keyed with tentative amounts */
	int ntent, cap_tent;
};

/* An index over cluster `c` ranking nodes by `key`, counting what `t`
 * holds (may be NULL) as taken.  The cluster, `t` and `ctx` must outlive
 * it.  No tree is built until a shape is asked for.  Free with
 * pol_ix_free. */
void pol_ix_init(struct pol_ix *ix, const struct clu *c, const struct pol_tent *t,
		 pol_ix_key_fn *key, const void *ctx);
void pol_ix_free(struct pol_ix *ix);

/* Trees an index keeps at most.  Every cluster change re-keys every tree
 * (O(shapes × log n)) and each holds ~20 bytes per node, so a scenario
 * with many executor shapes (job groups of distinct sizes) would pay more
 * for the trees than the scans they save; past this many shapes a policy
 * scans (pol_ix_tree returns NULL). */
#define POL_IX_MAX_SHAPES 32

/* The tree of shape `sh`, current with the cluster and the tentative
 * placements, or NULL when the index already holds POL_IX_MAX_SHAPES
 * other shapes: the caller then scans, as with clu_plain_scan.  The first
 * time a shape is asked for its tree is built, O(n log n); then each call
 * costs O(log n) per node changed since the last call, per shape.  The tree stays owned by the index; a caller may
 * hide a node (pol_tree_set INFINITY) as long as it calls pol_ix_rekey
 * for it before the next placement. */
struct pol_tree *pol_ix_tree(struct pol_ix *ix, const struct pol_shape *sh);

/* Call after every pol_tent_add on `node` (tentative amounts changed):
 * re-keys it now, and again at the next pol_ix_tree once its tentative
 * amounts are reset. */
void pol_ix_touch(struct pol_ix *ix, int node);

/* Recompute the keys of `node` in every tree from its amounts now. */
void pol_ix_rekey(struct pol_ix *ix, int node);
/* The same in tree k (ix->shapes[k]) only: for a caller that hid or
 * re-keyed the node in that tree alone. */
void pol_ix_rekey_shape(struct pol_ix *ix, int k, int node);

#endif
