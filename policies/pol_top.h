/* pol_top.h - the highest integer key over positions 0 .. n-1, with the
 * count of positions that hold it and the i-th of them (pol_ prefix).
 *
 * A placement by score picks among the candidates of the top score: the
 * first of them in some order, or one drawn uniformly, which needs how
 * many there are and the i-th in order.  A scan finds all three in O(n);
 * this tree keeps them current: every slot holds the highest key of its
 * subtree and how many leaves below it hold that key, so changing one
 * key costs O(log n), the top key and its count O(1), and the first or
 * the i-th leaf of the top key (in position order, as a scan meets them)
 * O(log n).  Keys are exact integers, so a tie is a tie, as in the scan.
 *
 * The FGD study's policies (pods.c) keep one per executor shape, over
 * their node order.
 */
#ifndef HETSIM_POL_TOP_H
#define HETSIM_POL_TOP_H

#include <stdint.h>

/* The key of a position that is no candidate. */
#define POL_TOP_NONE INT64_MIN

struct pol_top {
	int n, size;       /* positions; leaves, a power of two >= n */
	int64_t *key;      /* by slot 1 .. 2 size - 1: the subtree's highest
			      key, POL_TOP_NONE if none; position i's leaf
			      is slot size + i */
	int *cnt;          /* by slot: leaves below holding that key (0 for
			      POL_TOP_NONE) */
};

/* A tree over n positions, none a candidate.  Free with pol_top_free. */
void pol_top_init(struct pol_top *t, int n);
void pol_top_free(struct pol_top *t);
/* Give position i key k (POL_TOP_NONE: no candidate).  O(log n). */
void pol_top_set(struct pol_top *t, int i, int64_t k);
/* The highest key, POL_TOP_NONE if no position is a candidate. */
static inline int64_t pol_top_key(const struct pol_top *t)
{
	return t->key[1];
}
/* How many positions hold the highest key (0 if none is a candidate). */
static inline int pol_top_count(const struct pol_top *t)
{
	return t->cnt[1];
}
/* The i-th (from 0, in position order) of the positions holding the
 * highest key; 0 <= i < pol_top_count.  O(log n). */
int pol_top_nth(const struct pol_top *t, int i);

#endif
