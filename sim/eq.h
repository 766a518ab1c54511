/* eq.h - the event queue (eq_ prefix).
 *
 * A priority queue of events ordered by (time, seq): the earliest time
 * first, and among equal times the one pushed first (libuv's timer start
 * counter).  seq is assigned by eq_push, so the order of events never
 * depends on anything but the order of pushes: same pushes, same pops.
 *
 * The queue is an array-based 4-ary min-heap with the key inline; it
 * allocates nothing per event (the array grows by doubling).  Cancelling
 * is lazy: eq_push returns the event's seq, unique in the queue's life;
 * the engine remembers the seq of the one event of an object that still
 * counts and ignores popped events with another.  eq never looks at kind
 * or obj.
 *
 * Each event is packed into 16 bytes, so the four children of a heap
 * node fill exactly one 64-byte cache line (eq.c).  The packing bounds the
 * fields: time in [0, EQ_TIME_LIMIT) µs (about 35.7 years), fewer than
 * EQ_SEQ_LIMIT pushes in a queue's life (8.8 × 10^12), kind below
 * EQ_KIND_LIMIT.  A push outside them is a programming error: it aborts
 * with a message (the engine stops a run before its clock gets there).
 */
#ifndef HETSIM_EQ_H
#define HETSIM_EQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EQ_TIME_LIMIT (INT64_C(1) << 50)
#define EQ_SEQ_LIMIT (UINT64_C(1) << 43)
#define EQ_KIND_LIMIT 8u

struct eq_event {
	int64_t time;   /* µs, 0 <= time < EQ_TIME_LIMIT */
	uint64_t seq;   /* insertion number, assigned by eq_push */
	uint32_t obj;   /* meaning depends on kind (job, executor, task run) */
	uint32_t kind;  /* event kind, < EQ_KIND_LIMIT; opaque to eq */
};

/* One packed event: hi = time << 14 | seq >> 29,
 * lo = (seq mod 2^29) << 35 | obj << 3 | kind.  Comparing (hi, lo) as one
 * unsigned 128-bit number compares (time, seq), seq being unique. */
struct eq_slot {
	uint64_t hi, lo;
};

struct eq {
	struct eq_slot *heap;   /* 4-ary min-heap; heap + 1 is 64-byte aligned */
	void *mem;              /* the allocation heap points into */
	size_t n, cap;
	uint64_t next_seq;
};

/* Make an empty queue with room for cap_hint events (0: allocate on the
 * first push).  The queue owns its array; release it with eq_free. */
void eq_init(struct eq *q, size_t cap_hint);

/* Free the array and leave *q empty (as after eq_init(q, 0)), so that a
 * second eq_free is harmless.  Pending events are dropped. */
void eq_free(struct eq *q);

/* Add an event and return its seq: the number of pushes made before it
 * on this queue (the first push gets 0).  Amortised O(1) allocation: the
 * array doubles when full; out of memory aborts.  O(log n). */
uint64_t eq_push(struct eq *q, int64_t time, uint32_t kind, uint32_t obj);

/* Removes the least event into *out; false when empty.  out may be NULL
 * to drop the event.  O(log n). */
bool eq_pop(struct eq *q, struct eq_event *out);

/* The least event, left in place, into *out; false when empty. */
bool eq_top(const struct eq *q, struct eq_event *out);

/* The time of the least event; the queue must not be empty. */
static inline int64_t eq_top_time(const struct eq *q) { return (int64_t)(q->heap[0].hi >> 14); }
static inline size_t eq_size(const struct eq *q) { return q->n; }

/* Unpack one slot (for tests and eq_pop/eq_top). */
static inline struct eq_event eq_unpack(const struct eq_slot *s)
{
	return (struct eq_event){.time = (int64_t)(s->hi >> 14),
				 .seq = (s->hi & 0x3fff) << 29 | s->lo >> 35,
				 .obj = (uint32_t)(s->lo >> 3),
				 .kind = (uint32_t)(s->lo & 7)};
}

#endif
