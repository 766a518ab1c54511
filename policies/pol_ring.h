/* pol_ring.h - nodes in an order that changes, with what fits where
 * (pol_ prefix).
 *
 * yarn's NodeManagers heartbeat each at its own phase, and the next
 * heartbeat at which a container fits is the first node round the ring
 * of phases, from now on, that has room for it.  A NodeManager whose
 * container ends heartbeats at once and keeps that new phase (Hadoop's
 * out-of-band heartbeat), so the order of the ring changes while the
 * simulation runs: a node leaves its place and enters another.
 * pol_index's trees rank nodes by a fixed leaf order; this one keeps
 * the order itself in a balanced tree.
 *
 * Each node has a key (a, b), compared a first (yarn: the phase, then a
 * sequence that breaks ties: the node's id, or a number past every id
 * for a node that moved), and a fit bit per shape asked about, from the
 * policy's key function (the node fits when the key is finite, as in
 * pol_ix).  The tree is a treap ordered by key, each slot holding the
 * union of its subtree's fit bits, so the first node at or after a key
 * that fits a shape is found in O(log n), and a node's move or change of
 * free amounts costs O(log n) (and O(shapes) to refit it).  It stays
 * current by reading the cluster's change log, as pol_ix does, and by
 * being told of the policy's own holds (pol_ring_touch).
 *
 * A treap's shape depends only on its keys and the nodes' priorities
 * (here a hash of the node's id), so the same run gives the same tree;
 * no answer depends on the shape anyway: the first node in key order is
 * the first node in key order.
 */
#ifndef HETSIM_POL_RING_H
#define HETSIM_POL_RING_H

#include <stdbool.h>
#include <stdint.h>

#include "pol_index.h"

/* Shapes a ring keeps fit bits for, at most: past this many,
 * pol_ring_shape returns -1 and the policy scans (pol_ring_next). */
#define POL_RING_MAX_SHAPES 64

/* A node's slot: what a walk down the tree reads of it, together (one
 * record per node, not an array per field: a walk visits ~2 ln n slots
 * scattered over the nodes, and each was a cache miss per field read). */
struct pol_ring_slot {
	int64_t ka, kb;       /* its key (a, b) */
	uint64_t own, sub;    /* its fit bits, its subtree's union */
	int l, r, up;         /* children and parent, -1 if none */
	uint32_t prio;        /* heap priority, a hash of its id */
};

struct pol_ring {
	const struct clu *c;
	pol_ix_key_fn *key;   /* fits where finite */
	const void *ctx;      /* for key */
	uint64_t seen;        /* cluster changes caught up with */
	int n, root;          /* nodes; the tree's root, -1 if empty */
	struct pol_ring_slot *s; /* by node */
	struct pol_shape sh[POL_RING_MAX_SHAPES];
	int nsh;
};

/* A ring over cluster `c`, node i at key (a[i], b[i]) (keys distinct),
 * fit bits from `key` (with `ctx`); no shape yet.  O(n log n).  The
 * cluster and ctx must outlive it.  Free with pol_ring_free. */
void pol_ring_init(struct pol_ring *g, const struct clu *c, pol_ix_key_fn *key,
		   const void *ctx, const int64_t *a, const int64_t *b);
void pol_ring_free(struct pol_ring *g);

/* Give node `node` the key (a, b), distinct from every other node's:
 * it leaves its place for that one.  O(log n). */
void pol_ring_move(struct pol_ring *g, int node, int64_t a, int64_t b);

/* The bit of shape `sh` (added on first ask, every node's bits refitted: O(n × shapes)),
 * or -1 when POL_RING_MAX_SHAPES others are kept (scan instead). */
int pol_ring_shape(struct pol_ring *g, const struct pol_shape *sh);

/* The first node whose key is at or after (a, b) that fits the shape of
 * bit `bit`, else the first that fits it from the start of the ring;
 * -1 if none fits.  Catches up with the cluster first.  O(log n) plus
 * O(shapes + log n) per node changed since the last call. */
int pol_ring_first(struct pol_ring *g, int bit, int64_t a, int64_t b);

/* Node `node`'s fit may have changed other than through the cluster
 * (the policy's own holds): refit it now.  O(shapes + log n). */
void pol_ring_touch(struct pol_ring *g, int node);

/* Whether node x's key is before (a, b). */
static inline bool pol_ring_before(const struct pol_ring *g, int x, int64_t a, int64_t b)
{
	const struct pol_ring_slot *t = &g->s[x];
	return t->ka < a || (t->ka == a && t->kb < b);
}

/* For a scan: the first node in key order at or after (a, b), -1 if
 * none; the node after `node`, -1 if it is the last.  O(log n). */
int pol_ring_at(const struct pol_ring *g, int64_t a, int64_t b);
int pol_ring_next(const struct pol_ring *g, int node);

#endif
