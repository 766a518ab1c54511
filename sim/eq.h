/* eq.h - the event queue (eq_ prefix).
 *
 * A priority queue of events ordered by (time, seq): the earliest time
 * first, and among equal times the one pushed first (libuv's timer start
 * counter).  seq is assigned by eq_push, so the order of events never
 * depends on anything but the order of pushes: same pushes, same pops.
 *
 * The queue is an array-based 4-ary min-heap with the key inline; it
 * allocates nothing per event (the array grows by doubling).  Cancelling
 * is lazy: the engine bumps its own version counter and ignores popped
 * events whose `ver` is stale; eq never looks at ver, kind or obj.
 */
#ifndef HETSIM_EQ_H
#define HETSIM_EQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct eq_event {
	int64_t time;   /* µs */
	uint64_t seq;   /* insertion number, assigned by eq_push */
	uint32_t obj;   /* meaning depends on kind (job, executor, task run) */
	uint32_t ver;   /* version for lazy cancellation; opaque to eq */
	uint32_t kind;  /* event kind; opaque to eq */
};
struct eq {
	struct eq_event *heap;  /* 4-ary min-heap on (time, seq), key inline */
	size_t n, cap;
	uint64_t next_seq;
};

/* Make an empty queue with room for cap_hint events (0: allocate on the
 * first push).  The queue owns its array; release it with eq_free. */
void eq_init(struct eq *q, size_t cap_hint);

/* Free the array and leave *q empty (as after eq_init(q, 0)), so that a
 * second eq_free is harmless.  Pending events are dropped. */
void eq_free(struct eq *q);

/* Add an event.  Its seq is the number of pushes made before it on this
 * queue (the first push gets 0).  Amortised O(1) allocation: the array
 * doubles when full; out of memory aborts (xrealloc).  O(log n). */
void eq_push(struct eq *q, int64_t time, uint32_t kind, uint32_t obj, uint32_t ver);

/* Removes the least event into *out; false when empty.  out may be NULL
 * to drop the event.  O(log n). */
bool eq_pop(struct eq *q, struct eq_event *out);

/* The least event, left in place; NULL when empty.  Valid until the next
 * push or pop. */
static inline const struct eq_event *eq_top(const struct eq *q) { return q->n ? &q->heap[0] : NULL; }
static inline size_t eq_size(const struct eq *q) { return q->n; }

#endif
