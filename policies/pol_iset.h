/* pol_iset.h - ordered sets of integer items by int64 key, with the
 * least item at or after any key in O(log n) (pol_ prefix).
 *
 * A treap: a binary search tree on (key, item) whose nodes are also a
 * heap on a priority fixed by the item (a hash of it), so its shape, and
 * every answer, depends only on its members.  The nodes live in a pool
 * indexed by item, shared by any number of sets (a set is its root), so
 * an item is in one set of a pool at most.  tiresias keeps each queue's
 * waiting jobs of one shape in one, keyed by their place in the queue.
 */
#ifndef HETSIM_POL_ISET_H
#define HETSIM_POL_ISET_H

#include <stdint.h>

struct pol_iset_pool {
	int64_t *key;      /* by item */
	int *l, *r;        /* children, -1 none */
};

/* A pool for items [0, nitems).  Free with pol_iset_pool_free. */
void pol_iset_pool_init(struct pol_iset_pool *p, int nitems);
void pol_iset_pool_free(struct pol_iset_pool *p);
/* Add `it` (in no set of the pool) with `key` to the set rooted at *root
 * (-1: empty).  O(log n) expected. */
void pol_iset_insert(struct pol_iset_pool *p, int *root, int it, int64_t key);
/* Take `it` (in the set) out, by the key it was given. */
void pol_iset_erase(struct pol_iset_pool *p, int *root, int it);
/* The item of least key >= `key` in the set, or -1. */
int pol_iset_ceil(const struct pol_iset_pool *p, int root, int64_t key);

/* A walk through a set in key order, from a key on; the set must not
 * change while it is walked.  Each step is O(1) amortized where
 * pol_iset_ceil climbs down from the root (a cache miss a level). */
#define POL_ISET_DEPTH 200 /* a treap's depth is O(log n) with high
			      probability: some 60 at 10^7 items */
struct pol_iset_iter {
	int n;
	int stack[POL_ISET_DEPTH]; /* the items left to visit above, nearest
			      last */
};
/* The item of least key >= `key`, or -1; `it` then walks on from it. */
int pol_iset_first(const struct pol_iset_pool *p, int root, int64_t key,
		   struct pol_iset_iter *it);
/* The item after the one `it` returned last, or -1. */
int pol_iset_next(const struct pol_iset_pool *p, struct pol_iset_iter *it);

#endif
