/* pol_oset.h - ordered sets of ids by a key of three integers (pol_
 * prefix): treaps whose nodes are ids of one pool (jobs, or any small
 * integers), so a queue ordered by a policy's key costs O(log n) to add
 * to, to take from anywhere, and to find the first entry at or after a
 * key - where a sorted array costs O(n) to add to and a rescan O(n) per
 * decision.  An id is in at most one set of a pool at a time.  The shape
 * of a treap (its priorities: a hash of the id) never shows: only the
 * order of the keys does, ties broken by nothing (keys must differ: put
 * the id in the last field).
 */
#ifndef HETSIM_POL_OSET_H
#define HETSIM_POL_OSET_H

#include <stdbool.h>
#include <stdint.h>

struct pol_okey {
	int64_t a, b, c;   /* compared a, then b, then c */
};

static inline int pol_okey_cmp(const struct pol_okey *x, const struct pol_okey *y)
{
	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return x->c < y->c ? -1 : x->c > y->c;
}

/* The nodes of every set of one pool, by id. */
struct pol_oset {
	int *l, *r;              /* children, -1 none */
	uint32_t *pri;           /* heap priority: a hash of the id */
	struct pol_okey *key;    /* meaningful while the id is in a set */
	int cap;                 /* ids 0 .. cap - 1 */
};

/* A pool for ids 0 .. n - 1; grows with pol_oset_reserve.  A set is an
 * int, its root: -1 when empty. */
void pol_oset_init(struct pol_oset *p, int n);
void pol_oset_reserve(struct pol_oset *p, int n);
void pol_oset_free(struct pol_oset *p);
/* Add id (in no set of the pool) to the set at *root with key k. */
void pol_oset_insert(struct pol_oset *p, int *root, int id, struct pol_okey k);
/* Take id (in the set at *root) out of it. */
void pol_oset_remove(struct pol_oset *p, int *root, int id);
/* The id of the least key, or -1. */
int pol_oset_first(const struct pol_oset *p, int root);
/* The id of the greatest key, or -1. */
int pol_oset_last(const struct pol_oset *p, int root);
/* The id of the least key >= k, or -1. */
int pol_oset_ceil(const struct pol_oset *p, int root, const struct pol_okey *k);

#endif
