/* eq.h - the event queue (eq_ prefix).
 *
 * A priority queue of events ordered by (time, seq): the earliest time
 * first, and among equal times the one pushed first (libuv's timer start
 * counter).  seq is assigned by eq_push, so the order of events never
 * depends on anything but the order of pushes: same pushes, same pops.
 *
 * Events wait in two tiers split at a key, the limit (eq.c has the
 * details).  The far tier, at or past it, is a radix heap's buckets:
 * events appended unsorted, by the highest bit in which their key
 * differs from a base.  The near tier, below it, is a sorted run (the
 * few thousand least events, moved over from the lowest buckets and
 * sorted when the last run is used up) and a 4-ary min-heap (events
 * pushed below the limit since), both small enough for the cache: with
 * 10^5 events pending, one heap of them all missed it at most levels of
 * every pop.  The run also tells the order of the events ahead
 * (eq_ahead), for prefetching.  Nothing is allocated per event (the
 * arrays grow by doubling).  Two kinds of event skip both tiers, since
 * most of some runs' events are of them:
 *
 *   - events pushed for the time of the last pop (a zero delay: an
 *     executor with no start-up time) wait in a FIFO, the "now" queue,
 *     where they are already in (time, seq) order;
 *   - one event the caller sets aside (eq_push_aside: the next arrival of
 *     a stream the engine feeds one event at a time) waits in a slot.
 *
 * They take their seq from the same counter as the others, and eq_pop
 * returns the least of the run's head, the heap's root, the now queue's
 * head and the slot: the order of pops is exactly that of one heap.
 * Cancelling is lazy: eq_push returns the event's seq, unique in the
 * queue's life; the engine remembers the seq of the one event of an
 * object that still counts and ignores popped events with another.  eq
 * never looks at kind or obj.
 *
 * Each event is packed into 16 bytes, so the four children of a heap
 * node fill exactly one 64-byte cache line (eq.c), and a key is one
 * 128-bit number.  The packing bounds the fields: time in
 * [0, EQ_TIME_LIMIT) µs (about 35.7 years), fewer than EQ_SEQ_LIMIT
 * pushes in a queue's life (8.8 × 10^12), kind below EQ_KIND_LIMIT.  A
 * push outside them is a programming error: it aborts with a message
 * (the engine stops a run before its clock gets there).
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

/* One bucket of the far tier (eq.c): events in one range of keys, in no
 * order. */
struct eq_bucket {
	struct eq_slot *v;
	size_t n, cap;
};

#define EQ_NEAR_MAX 4096
#define EQ_BUCKETS 129 /* by the highest bit in which a key differs from
			  the base: none, or one of 128 */

struct eq {
	/* the near tier: the events keyed below `limit`, in two parts */
	struct eq_slot *run;    /* the last refill's events, ascending:
				   run[run_head .. run_n) still pending */
	size_t run_head, run_n, run_cap;
	struct eq_slot *run_tmp;/* room for sorting a refill */
	struct eq_slot *heap;   /* and a 4-ary min-heap of the others (pushed
				   below the limit since); heap + 1 is 64-byte
				   aligned */
	void *mem;              /* the allocation heap points into */
	size_t n, cap;          /* events in the heap, room */
	struct eq_slot limit;   /* (as a key) every near event is below it, every
				   far one at or above it */
	struct eq_slot base;    /* the far tier's buckets are by key ^ base */
	struct eq_bucket *far;  /* EQ_BUCKETS buckets (NULL until used) */
	uint64_t far_mask[3];   /* bit i: bucket i holds events */
	size_t far_n;           /* events in the far tier; 0 whenever the run
				   is used up */
	size_t near_max;        /* a refill moves at most this many events into
				   the run, but at least one bucket; the heap
				   spills at twice it (EQ_NEAR_MAX; tests make
				   it small) */
	uint64_t refills, splits, spills, rebuilds; /* far-tier work so far
				   (for tests) */
	struct eq_slot *now;    /* ring: the now queue, events of one time in
				   push order (so in (time, seq) order) */
	size_t now_head, now_n, now_cap; /* first, count, room (0 or a power of 2) */
	struct eq_slot aside;   /* the set-aside event, if has_aside */
	bool has_aside;
	int64_t last;           /* µs, time of the last pop; -1 before the first */
	uint64_t next_seq;
};

/* Make an empty queue with room for cap_hint events in the heap (0:
 * allocate on the first push).  The queue owns its arrays; release them
 * with eq_free. */
void eq_init(struct eq *q, size_t cap_hint);

/* Free the arrays and leave *q empty (as after eq_init(q, 0)), so that a
 * second eq_free is harmless.  Pending events are dropped. */
void eq_free(struct eq *q);

/* Add an event and return its seq: the number of pushes made before it
 * on this queue (the first push gets 0).  An event at the time of the
 * last pop joins the now queue (O(1)) unless that holds events of
 * another time; any other event joins the heap (O(log n)).  Amortised
 * O(1) allocation: the arrays double when full; out of memory aborts. */
uint64_t eq_push(struct eq *q, int64_t time, uint32_t kind, uint32_t obj);

/* Add an event, as eq_push, into the queue's one side slot, which must be
 * empty (else abort: a programming error): for the next event of a
 * stream the caller feeds one at a time, earliest first.  It draws its
 * seq from the same counter and pops in the same place as if eq_push had
 * queued it.  O(1).  eq_has_aside tells whether the slot is taken. */
uint64_t eq_push_aside(struct eq *q, int64_t time, uint32_t kind, uint32_t obj);
static inline bool eq_has_aside(const struct eq *q) { return q->has_aside; }

/* Removes the least event into *out; false when empty.  out may be NULL
 * to drop the event.  O(log n) from the heap, O(1) from the now queue
 * or the slot. */
bool eq_pop(struct eq *q, struct eq_event *out);

/* Drop every event for which keep(ctx, ev) is false (events the caller
 * knows are stale), wherever it waits, and rebuild the heap in O(n).  The
 * events kept pop in the same order as before: their (time, seq) keys
 * decide, not the heap's shape.  Returns the number of events dropped. */
size_t eq_compact(struct eq *q, bool (*keep)(void *ctx, const struct eq_event *ev), void *ctx);

/* The least event, left in place, into *out; false when empty. */
bool eq_top(const struct eq *q, struct eq_event *out);

/* Events held: in the two tiers, the now queue and the slot together. */
static inline size_t eq_size(const struct eq *q)
{
	return q->run_n - q->run_head + q->n + q->far_n + q->now_n + q->has_aside;
}

/* The k-th event after the least of the near tier's sorted part, or NULL
 * past its end: events in its heap, the now queue and the slot may pop
 * between them.  A hint, for prefetching what events ahead will touch. */
static inline const struct eq_slot *eq_ahead(const struct eq *q, size_t k)
{
	size_t i = q->run_head + k;
	return i < q->run_n ? &q->run[i] : NULL;
}

/* The time of the least event; the queue must not be empty. */
static inline int64_t eq_top_time(const struct eq *q)
{
	uint64_t t = q->n ? q->heap[0].hi >> 14 : UINT64_MAX;
	if (q->run_head < q->run_n && q->run[q->run_head].hi >> 14 < t)
		t = q->run[q->run_head].hi >> 14;
	if (q->now_n && q->now[q->now_head].hi >> 14 < t)
		t = q->now[q->now_head].hi >> 14;
	if (q->has_aside && q->aside.hi >> 14 < t)
		t = q->aside.hi >> 14;
	return (int64_t)t;
}

/* The least event, left in place, as its packed slot; NULL when empty.
 * With eq_slot_kind and eq_slot_obj, for a look that needs no more (the
 * engine's prefetching, on every event). */
const struct eq_slot *eq_peek(const struct eq *q);
static inline uint32_t eq_slot_kind(const struct eq_slot *s) { return (uint32_t)(s->lo & 7); }
static inline uint32_t eq_slot_obj(const struct eq_slot *s) { return (uint32_t)(s->lo >> 3); }

/* Unpack one slot (for tests and eq_pop/eq_top). */
static inline struct eq_event eq_unpack(const struct eq_slot *s)
{
	return (struct eq_event){.time = (int64_t)(s->hi >> 14),
				 .seq = (s->hi & 0x3fff) << 29 | s->lo >> 35,
				 .obj = (uint32_t)(s->lo >> 3),
				 .kind = (uint32_t)(s->lo & 7)};
}

#endif
