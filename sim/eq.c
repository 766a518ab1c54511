/* eq.c - the event queue: an array-based 4-ary min-heap on (time, seq).
 *
 * Layout.  heap[0] is the least event.  The children of heap[i] are
 * heap[4i+1] .. heap[4i+4] (those below n), so its parent is
 * heap[(i-1)/4]; every event is no later, in (time, seq) order, than its
 * children.  Level k holds 4^k events, so 10^5 events fill 10 levels (a
 * binary heap needs 17), and the four children of a node are adjacent
 * (4 x 32 bytes): a pop walks half as many levels as a binary heap's,
 * each a compact block, which is what matters once the heap outgrows
 * the caches.
 *
 * Both sifts use the "hole" technique: rather than swapping the moving
 * event level by level, they shift parents (or children) into a hole and
 * write the moving event once, where the hole stops.
 *
 * Speed.  A pop is a chain of "which of these four children is least?"
 * decisions whose outcomes are random, so branches there are mispredicted
 * about half the time.  least_of_4() therefore computes the index with
 * arithmetic on comparison results (no branches), and before() compares
 * (time, seq) as one 128-bit unsigned number where the compiler has one
 * (cmp, sbb).  In a hold model this is ~1.5x the branchy version at
 * 10^3 pending events and ~1.2x at 10^5, where a pop is mostly bound by
 * cache misses on the lower levels.
 */
#include "eq.h"

#include <stdlib.h>

#include "util.h"

#define ARITY 4

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 key128; /* GCC, Clang; quiet under -pedantic */
#endif

/* (time, seq) order: earlier time first, then earlier push.  seq is
 * unique, so this is a strict total order. */
static inline bool before(const struct eq_event *x, const struct eq_event *y)
{
#ifdef __SIZEOF_INT128__
	/* Flipping the sign bit maps int64 order onto uint64 order; time is
	 * the high half, so one unsigned comparison does both keys. */
	const uint64_t flip = UINT64_C(1) << 63;
	key128 kx = (key128)((uint64_t)x->time ^ flip) << 64 | x->seq;
	key128 ky = (key128)((uint64_t)y->time ^ flip) << 64 | y->seq;
	return kx < ky;
#else
	return (x->time < y->time) | ((x->time == y->time) & (x->seq < y->seq));
#endif
}

void eq_init(struct eq *q, size_t cap_hint)
{
	q->heap = cap_hint ? xmalloc(cap_hint * sizeof *q->heap) : NULL;
	q->n = 0;
	q->cap = cap_hint;
	q->next_seq = 0;
}

void eq_free(struct eq *q)
{
	free(q->heap);
	eq_init(q, 0);
}

static void grow(struct eq *q)
{
	size_t cap = q->cap ? 2 * q->cap : 64;
	q->heap = xrealloc(q->heap, cap * sizeof *q->heap);
	q->cap = cap;
}

void eq_push(struct eq *q, int64_t time, uint32_t kind, uint32_t obj, uint32_t ver)
{
	if (q->n == q->cap)
		grow(q);
	struct eq_event e = {.time = time, .seq = q->next_seq++, .obj = obj, .ver = ver, .kind = kind};
	struct eq_event *h = q->heap;
	size_t i = q->n++;
	/* Sift up.  The new event has the largest seq in the heap, so it
	 * belongs above a parent only if its time is strictly earlier:
	 * comparing times alone is the full (time, seq) comparison here. */
	while (i > 0) {
		size_t p = (i - 1) / ARITY;
		if (!(e.time < h[p].time))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
}

/* Index of the least of h[c] .. h[c+3], without branches: a tournament
 * of two pairs, then the two winners. */
static inline size_t least_of_4(const struct eq_event *h, size_t c)
{
	size_t a = c + (size_t)before(&h[c + 1], &h[c]);
	size_t b = c + 2 + (size_t)before(&h[c + 3], &h[c + 2]);
	return a ^ ((a ^ b) & -(size_t)before(&h[b], &h[a]));
}

/* Index of the least of h[c] .. h[c+k-1], 1 <= k < 4 (the last, partial
 * family; at most once per pop). */
static size_t least_of_few(const struct eq_event *h, size_t c, size_t k)
{
	size_t m = c;
	for (size_t j = c + 1; j < c + k; j++)
		if (before(&h[j], &h[m]))
			m = j;
	return m;
}

bool eq_pop(struct eq *q, struct eq_event *out)
{
	if (q->n == 0)
		return false;
	struct eq_event *h = q->heap;
	if (out)
		*out = h[0];
	size_t n = --q->n;
	if (n == 0)
		return true;
	/* Sift the last event down from a hole at the root. */
	struct eq_event e = h[n];
	size_t i = 0, c;
	while ((c = ARITY * i + 1) < n) {
		size_t m = c + ARITY <= n ? least_of_4(h, c) : least_of_few(h, c, n - c);
		if (!before(&h[m], &e))
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = e;
	return true;
}
