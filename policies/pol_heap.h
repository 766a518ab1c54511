/* pol_heap.h - a binary min-heap of integer items keyed by int64, with
 * each item's place kept so that any item's key can change or the item
 * leave in O(log n) (pol_ prefix).
 *
 * Items are integers in [0, n) (job ids, say), each at most once.  Ties
 * go to the lower item, so the order of pops never depends on the order
 * of pushes.  tiresias keeps its running jobs' demotion instants in one.
 */
#ifndef HETSIM_POL_HEAP_H
#define HETSIM_POL_HEAP_H

#include <stdbool.h>
#include <stdint.h>

struct pol_heap {
	int n;             /* items in the heap */
	int *item;         /* heap order: item[0] the least */
	int64_t *key;      /* by item */
	int *pos;          /* by item: its place in item[], -1 if absent */
};

/* An empty heap of items [0, nitems).  Free with pol_heap_free. */
void pol_heap_init(struct pol_heap *h, int nitems);
void pol_heap_free(struct pol_heap *h);
/* Push `it` with `key`, or move it to `key` if present. */
void pol_heap_set(struct pol_heap *h, int it, int64_t key);
/* Take `it` out; no-op if absent. */
void pol_heap_remove(struct pol_heap *h, int it);
static inline bool pol_heap_has(const struct pol_heap *h, int it)
{
	return h->pos[it] >= 0;
}
/* The least item, or -1. */
static inline int pol_heap_top(const struct pol_heap *h)
{
	return h->n ? h->item[0] : -1;
}
/* Take the least item out and return it, or -1. */
int pol_heap_pop(struct pol_heap *h);
/* Empty the heap: O(items in it). */
void pol_heap_clear(struct pol_heap *h);

#endif
