/* eq.c - the event queue: a sorted run and a 4-ary min-heap for the
 * events below a limit, radix buckets for the rest, on (time, seq).
 *
 * The heap.  heap[0] is the least event.  The children of heap[i] are
 * heap[4i+1] .. heap[4i+4] (those below n), so its parent is
 * heap[(i-1)/4]; every event is no later, in (time, seq) order, than its
 * children.  An event is packed into 16 bytes (eq.h) and the array is
 * placed so that heap + 1 is 64-byte aligned: the four children of any
 * node, heap[4i+1 .. 4i+4], are then exactly one cache line.
 *
 * The tiers.  A heap of every pending event (10^5 on a 10^4-node run)
 * missed the cache at most of its levels on every pop, and its lines
 * pushed the engine's records out.  So only the events keyed below
 * `limit` are near: the run, the sorted events of the last refill, and
 * the heap, for events pushed below the limit since.  The others wait
 * in the far tier's buckets, appended in any order ("the far tier"
 * below); when the run is used up, the least of them (at most near_max,
 * at least one bucket) become the next run.  The run's order also tells
 * the engine which events come next (eq_ahead), to prefetch their
 * records.
 *
 * Beside the tiers (eq.h): the now queue, a ring of the events pushed for
 * the time of the last pop, and the one set-aside slot.  The now queue
 * only ever holds events of one time, appended with increasing seqs, so
 * its head is its least; the slot holds one event.  The least of the
 * queue is then the least of at most four candidates: the run's head,
 * the heap's root, the ring's head and the slot, compared in full (time,
 * seq).  That makes the order of pops that of a single heap whatever was
 * pushed where, even an event pushed earlier than the last pop.
 *
 * Both sifts use the "hole" technique: rather than swapping the moving
 * event level by level, they shift parents (or children) into a hole and
 * write the moving event once, where the hole stops.
 *
 * Speed.  A pop is a chain of "which of these four children is least?"
 * decisions whose outcomes are random, so branches there are mispredicted
 * about half the time.  least_of_4() therefore computes the index with
 * arithmetic on comparison results (no branches), and before() compares
 * the packed (time, seq) as one 128-bit unsigned number where the
 * compiler has one (cmp, sbb).
 */
#include "eq.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define ARITY 4

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE __attribute__((always_inline)) /* the hot pop keeps it inline */
#else
#define ALWAYS_INLINE
#endif

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 key128; /* GCC, Clang; quiet under -pedantic */
#endif

/* (time, seq) order: earlier time first, then earlier push.  seq is
 * unique, so this is a strict total order. */
static inline bool before(const struct eq_slot *x, const struct eq_slot *y)
{
#ifdef __SIZEOF_INT128__
	return ((key128)x->hi << 64 | x->lo) < ((key128)y->hi << 64 | y->lo);
#else
	return (x->hi < y->hi) | ((x->hi == y->hi) & (x->lo < y->lo));
#endif
}

/* The greatest key, which no event has (times are below 2^50). */
static const struct eq_slot top_key = {UINT64_MAX, UINT64_MAX};

static void eq_reserve(struct eq *q, size_t cap);
static void tier_push(struct eq *q, struct eq_slot e);

void eq_init(struct eq *q, size_t cap_hint)
{
	/* limit at the top: one heap, until it spills (ONE_HEAP) */
	*q = (struct eq){.last = -1, .near_max = EQ_NEAR_MAX, .limit = top_key};
	if (cap_hint)
		eq_reserve(q, cap_hint);
}

void eq_free(struct eq *q)
{
	free(q->mem);
	free(q->now);
	for (int i = 0; q->far && i < EQ_BUCKETS; i++)
		free(q->far[i].v);
	free(q->far);
	free(q->run);
	free(q->run_tmp);
	eq_init(q, 0);
}

/* Room for cap events, heap + 1 on a 64-byte boundary (4 slots of slack
 * cover the shift).  A fresh block and a copy, since realloc keeps no
 * alignment; doubling keeps this amortised O(1) per push. */
static void eq_reserve(struct eq *q, size_t cap)
{
	void *mem = xmalloc((cap + 4) * sizeof(struct eq_slot));
	uintptr_t line = ((uintptr_t)mem + sizeof(struct eq_slot) + 63) & ~(uintptr_t)63;
	struct eq_slot *heap = (struct eq_slot *)(line - sizeof(struct eq_slot));
	if (q->n)
		memcpy(heap, q->heap, q->n * sizeof *heap);
	free(q->mem);
	q->mem = mem;
	q->heap = heap;
	q->cap = cap;
}

static void grow(struct eq *q)
{
	eq_reserve(q, q->cap ? 2 * q->cap : 64);
}

static _Noreturn void bad_event(const char *what, uint64_t v)
{
	fprintf(stderr, "hetsim: event queue: %s %" PRIu64 " out of range\n", what, v);
	abort();
}

/* Check the packing's bounds (eq.h), draw the next seq, pack. */
static struct eq_slot pack(struct eq *q, int64_t time, uint32_t kind, uint32_t obj)
{
	if (time < 0 || time >= EQ_TIME_LIMIT)
		bad_event("time", (uint64_t)time);
	if (kind >= EQ_KIND_LIMIT)
		bad_event("kind", kind);
	if (q->next_seq >= EQ_SEQ_LIMIT)
		bad_event("push number", q->next_seq);
	uint64_t seq = q->next_seq++;
	return (struct eq_slot){.hi = (uint64_t)time << 14 | seq >> 29,
				.lo = (seq & ((UINT64_C(1) << 29) - 1)) << 35 |
				      (uint64_t)obj << 3 | kind};
}

static inline int64_t slot_time(const struct eq_slot *e) { return (int64_t)(e->hi >> 14); }

static void heap_push(struct eq *q, struct eq_slot e)
{
	if (q->n == q->cap)
		grow(q);
	struct eq_slot *h = q->heap;
	size_t i = q->n++;
	/* Sift up.  The new event has the largest seq in the queue, so it
	 * belongs above a parent only if its time is strictly earlier:
	 * comparing times alone is the full (time, seq) comparison here. */
	uint64_t t = e.hi >> 14;
	while (i > 0) {
		size_t p = (i - 1) / ARITY;
		if (!(t < h[p].hi >> 14))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
}

/* Append to the now queue's ring; when full, double it, unrolling the
 * events into the new block from its head. */
static void now_append(struct eq *q, struct eq_slot e)
{
	if (q->now_n == q->now_cap) {
		size_t cap = q->now_cap ? 2 * q->now_cap : 64;
		struct eq_slot *r = xmalloc(cap * sizeof *r);
		for (size_t k = 0; k < q->now_n; k++)
			r[k] = q->now[(q->now_head + k) & (q->now_cap - 1)];
		free(q->now);
		q->now = r;
		q->now_head = 0;
		q->now_cap = cap;
	}
	q->now[(q->now_head + q->now_n++) & (q->now_cap - 1)] = e;
}

uint64_t eq_push(struct eq *q, int64_t time, uint32_t kind, uint32_t obj)
{
	struct eq_slot e = pack(q, time, kind, obj);
	/* the ring stays one time, in push order: sorted */
	if (q->now_n ? time == slot_time(&q->now[q->now_head]) : time == q->last)
		now_append(q, e);
	else
		tier_push(q, e);
	return q->next_seq - 1;
}

uint64_t eq_push_aside(struct eq *q, int64_t time, uint32_t kind, uint32_t obj)
{
	if (q->has_aside) {
		fprintf(stderr, "hetsim: event queue: side slot already taken\n");
		abort();
	}
	q->aside = pack(q, time, kind, obj);
	q->has_aside = true;
	return q->next_seq - 1;
}

/* Index of the least of h[c] .. h[c+3], without branches: a tournament
 * of two pairs, then the two winners. */
static inline size_t least_of_4(const struct eq_slot *h, size_t c)
{
	size_t a = c + (size_t)before(&h[c + 1], &h[c]);
	size_t b = c + 2 + (size_t)before(&h[c + 3], &h[c + 2]);
	return a ^ ((a ^ b) & -(size_t)before(&h[b], &h[a]));
}

/* Index of the least of h[c] .. h[c+k-1], 1 <= k < 4 (the last, partial
 * family; at most once per pop). */
static size_t least_of_few(const struct eq_slot *h, size_t c, size_t k)
{
	size_t m = c;
	for (size_t j = c + 1; j < c + k; j++)
		if (before(&h[j], &h[m]))
			m = j;
	return m;
}

/* Sift e down from the hole at i in a heap of n events. */
ALWAYS_INLINE static inline void sift_down(struct eq_slot *h, size_t n, size_t i, struct eq_slot e)
{
	size_t c;
	while ((c = ARITY * i + 1) < n) {
		/* The next level's line is one of four: ask for all of them
		 * while this level is compared (the loads then overlap). */
		size_t g = ARITY * c + 1;
		if (g + 3 * ARITY < n) { /* the usual case, unrolled */
			PREFETCH(&h[g]);
			PREFETCH(&h[g + ARITY]);
			PREFETCH(&h[g + 2 * ARITY]);
			PREFETCH(&h[g + 3 * ARITY]);
		} else {
			for (size_t k = 0; g + k * ARITY < n; k++)
				PREFETCH(&h[g + k * ARITY]);
		}
		size_t m = c + ARITY <= n ? least_of_4(h, c) : least_of_few(h, c, n - c);
		if (!before(&h[m], &e))
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = e;
}

/* Remove the heap's root.  The last event, which fills the hole, is
 * among the latest in the heap and nearly always sinks to the bottom:
 * so the hole goes down to a leaf taking the least child at each level,
 * with no comparison against the moving event ("bottom-up" heapsort's
 * pop), and the event then climbs from there, mostly not at all. */
static void heap_pop(struct eq *q)
{
	size_t n = --q->n;
	if (n == 0)
		return;
	struct eq_slot *h = q->heap, e = h[n];
	size_t i = 0, c;
	while ((c = ARITY * i + 1) + ARITY <= n) { /* full families */
		size_t g = ARITY * c + 1;
		if (g + 3 * ARITY < n) {
			PREFETCH(&h[g]);
			PREFETCH(&h[g + ARITY]);
			PREFETCH(&h[g + 2 * ARITY]);
			PREFETCH(&h[g + 3 * ARITY]);
		}
		size_t m = least_of_4(h, c);
		h[i] = h[m];
		i = m;
	}
	if (c < n) { /* a last, partial family */
		size_t m = least_of_few(h, c, n - c);
		h[i] = h[m];
		i = m;
	}
	/* the hole is at a leaf: e goes up from it to its place */
	while (i > 0) {
		size_t p = (i - 1) / ARITY;
		if (!before(&e, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
}

/* Make h[0..n) a heap: Floyd's build, every parent sifted down, the last
 * first; O(n). */
static void heapify(struct eq_slot *h, size_t n)
{
	for (size_t p = n > 1 ? (n - 2) / ARITY + 1 : 0; p-- > 0;)
		sift_down(h, n, p, h[p]);
}

/* Keep the events of v[0..n) that keep() keeps, in their order, at the
 * front; returns how many. */
static size_t filter(struct eq_slot *v, size_t n,
		     bool (*keep)(void *ctx, const struct eq_event *ev), void *ctx)
{
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		struct eq_event ev = eq_unpack(&v[i]);
		if (keep(ctx, &ev))
			v[kept++] = v[i];
	}
	return kept;
}

/* ---- the far tier ---------------------------------------------------
 *
 * Keys (time, seq) as 128-bit numbers.  A far event waits, unsorted, in
 * the bucket of the highest bit in which its key differs from `base` (a
 * radix heap's buckets): bucket i > 0 holds the keys that agree with
 * base above bit i - 1 and have that bit set where base has it clear,
 * one contiguous range of keys, every range above base and below the
 * next bucket's.  So the least far events are in the lowest bucket that
 * holds any.  When the run is used up, a refill moves the lowest buckets
 * into it, as many as fit in near_max events (at least one bucket), and
 * sorts them; a bucket over near_max is split first: its least key
 * becomes the base, and its events go into the (lower) buckets of their
 * new distances.  An event is thus appended to a bucket, moved down a
 * few times in sequential passes, and sorted once among a few thousand.
 *
 * Invariants (tests/test_eq.c checks them): run and heap events are
 * below the limit, far events at or past it and above the base; the far
 * tier is empty whenever the run is used up.  Every push of a simulation
 * is later than the last pop, so the base, which is at most the last pop
 * or the least far event, stays below what comes; an event pushed into
 * the past is below the limit and goes into the heap.
 */

/* 1 + the index of the highest set bit of x != 0. */
static inline int bit_len(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return 64 - __builtin_clzll(x);
#else
	int n = 0;
	while (x) {
		x >>= 1;
		n++;
	}
	return n;
#endif
}

/* Bucket of key e against base b: 0 if equal, else 1 + the highest bit
 * in which they differ. */
static inline int bucket_of(const struct eq_slot *b, const struct eq_slot *e)
{
	uint64_t x = e->hi ^ b->hi;
	if (x)
		return 64 + bit_len(x);
	x = e->lo ^ b->lo;
	return x ? bit_len(x) : 0;
}

/* The key just after b (b + 1 as a 128-bit number): a limit that lets
 * b in and nothing past it. */
static struct eq_slot key_after(struct eq_slot b)
{
	if (++b.lo == 0 && ++b.hi == 0)
		return top_key; /* no event has the greatest key */
	return b;
}

static void far_append(struct eq *q, int i, struct eq_slot e)
{
	struct eq_bucket *b = &q->far[i];
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->v = xrealloc(b->v, b->cap * sizeof *b->v);
	}
	b->v[b->n++] = e;
	q->far_mask[i >> 6] |= UINT64_C(1) << (i & 63);
}

static inline int lowest_bucket(const struct eq *q)
{
	for (int w = 0; w < 3; w++)
		if (q->far_mask[w])
			return 64 * w + bit_len(q->far_mask[w] & -q->far_mask[w]) - 1;
	return -1;
}

/* Bucket i emptied (moved to the run, or split).  An array past 4 096
 * events goes back: a bucket's array would otherwise keep the most it
 * ever held, and over a long run the 129 buckets' peaks added up to
 * several times the events pending (on the 10^6-job mix, 12 MiB of the
 * peak RSS); regrowing it from 64 costs a few reallocs a refill. */
#define FAR_KEEP 4096

static void far_clear(struct eq *q, int i)
{
	if (q->far[i].cap > FAR_KEEP) {
		free(q->far[i].v);
		q->far[i].v = NULL;
		q->far[i].cap = 0;
	}
	q->far[i].n = 0;
	q->far_mask[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}

/* Bucket i (> 0) against its least key as the new base: every event
 * moves to a lower bucket. */
static void split(struct eq *q, int i)
{
	struct eq_bucket *b = &q->far[i];
	struct eq_slot m = b->v[0];
	for (size_t k = 1; k < b->n; k++)
		if (before(&b->v[k], &m))
			m = b->v[k];
	q->base = m;
	for (size_t k = 0; k < b->n; k++) /* b->v stays put: nothing lands in i */
		far_append(q, bucket_of(&m, &b->v[k]), b->v[k]);
	far_clear(q, i);
	q->splits++;
}

/* Sort a[0..n) by key (unique): LSD radix sort on the bits of hi in
 * which they differ (11 at a time, a pass skipped where all agree), then
 * each run of equal hi (same time, pushes within 2^29 of each other) in
 * order of lo, which a stable sort left as it found them.  Below
 * SMALL_RUN events, where clearing and summing the counts would cost
 * more than the sort, by insertion. */
enum { SMALL_RUN = 64 };
static void sort_slots(struct eq_slot *a, size_t n, struct eq_slot *tmp)
{
	enum { BITS = 11, DIGITS = 1 << BITS };
	if (n <= SMALL_RUN) {
		for (size_t i = 1; i < n; i++) {
			struct eq_slot e = a[i];
			size_t j = i;
			for (; j > 0 && before(&e, &a[j - 1]); j--)
				a[j] = a[j - 1];
			a[j] = e;
		}
		return;
	}
	uint64_t diff = 0;
	for (size_t i = 1; i < n; i++)
		diff |= a[i].hi ^ a[0].hi;
	struct eq_slot *from = a, *to = tmp;
	for (int shift = 0; shift < 64 && diff >> shift; shift += BITS) {
		if (!((diff >> shift) & (DIGITS - 1)))
			continue; /* one digit everywhere */
		uint32_t count[DIGITS] = {0};
		for (size_t i = 0; i < n; i++)
			count[(from[i].hi >> shift) & (DIGITS - 1)]++;
		uint32_t sum = 0;
		for (int d = 0; d < DIGITS; d++) {
			uint32_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			to[count[(from[i].hi >> shift) & (DIGITS - 1)]++] = from[i];
		struct eq_slot *t = from;
		from = to;
		to = t;
	}
	if (from != a)
		memcpy(a, from, n * sizeof *a);
	for (size_t i = 1; i < n; i++) { /* insertion: only equal hi move */
		struct eq_slot e = a[i];
		size_t j = i;
		while (j > 0 && a[j - 1].hi == e.hi && a[j - 1].lo > e.lo) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = e;
	}
}

/* The run is used up and the far tier is not: move the far tier's least
 * events into the run, sorted, and raise the limit past them. */
static void refill(struct eq *q)
{
	int i;
	while (q->far[i = lowest_bucket(q)].n > q->near_max && i > 0)
		split(q, i);
	size_t k = 0;
	do {
		struct eq_bucket *b = &q->far[i];
		if (k + b->n > q->run_cap) {
			size_t cap = 2 * q->run_cap > k + b->n ? 2 * q->run_cap : k + b->n;
			q->run = xrealloc(q->run, cap * sizeof *q->run);
			free(q->run_tmp);
			q->run_tmp = xmalloc(cap * sizeof *q->run_tmp);
			q->run_cap = cap;
		}
		memcpy(&q->run[k], b->v, b->n * sizeof *b->v);
		k += b->n;
		q->far_n -= b->n;
		far_clear(q, i);
		i = lowest_bucket(q);
	} while (i >= 0 && k + q->far[i].n <= q->near_max);
	sort_slots(q->run, k, q->run_tmp);
	q->run_head = 0;
	q->run_n = k;
	/* The far tier now starts past the last bucket taken; the limit
	 * goes just past the greatest event taken, which may be far below:
	 * events that come later between the two wait in the far tier too
	 * (in the buckets just emptied), and a few events scattered over a
	 * wide range do not make it wide for all that follow. */
	q->limit = key_after(q->run[k - 1]);
	q->refills++;
}

/* Rearrange h[0..n) so that h[k] is the one that would be there sorted,
 * those before it less and those after it greater (quickselect, median
 * of three: O(n) expected; the pivots depend on the keys alone). */
static void select_kth(struct eq_slot *h, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (hi > lo) {
		size_t mid = lo + (hi - lo) / 2;
		/* the median of h[lo], h[mid], h[hi] to h[hi] as the pivot */
		if (before(&h[mid], &h[lo])) {
			struct eq_slot t = h[mid]; h[mid] = h[lo]; h[lo] = t;
		}
		if (before(&h[hi], &h[lo])) {
			struct eq_slot t = h[hi]; h[hi] = h[lo]; h[lo] = t;
		}
		if (before(&h[mid], &h[hi])) {
			struct eq_slot t = h[mid]; h[mid] = h[hi]; h[hi] = t;
		}
		struct eq_slot p = h[hi];
		size_t i = lo;
		for (size_t j = lo; j < hi; j++)
			if (before(&h[j], &p)) {
				struct eq_slot t = h[i]; h[i] = h[j]; h[j] = t;
				i++;
			}
		h[hi] = h[i];
		h[i] = p;
		if (i == k)
			return;
		if (k < i)
			hi = i - 1;
		else
			lo = i + 1;
	}
}

/* Every event of both tiers into the far tier's buckets against the
 * least of them as the new base, then a refill: O(events), for a heap
 * that cannot spill (below). */
static void rebuild(struct eq *q)
{
	size_t all = q->n + q->far_n;
	if (all > q->cap)
		eq_reserve(q, all);
	struct eq_slot *h = q->heap;
	size_t k = q->n;
	for (int i = 0; q->far_n && i < EQ_BUCKETS; i++) {
		struct eq_bucket *b = &q->far[i];
		if (!b->n)
			continue;
		memcpy(&h[k], b->v, b->n * sizeof *b->v);
		k += b->n;
		far_clear(q, i);
	}
	struct eq_slot m = h[0];
	for (size_t j = 1; j < all; j++)
		if (before(&h[j], &m))
			m = h[j];
	q->base = m;
	if (!q->far)
		q->far = xcalloc(EQ_BUCKETS, sizeof *q->far);
	for (size_t j = 0; j < all; j++)
		far_append(q, bucket_of(&m, &h[j]), h[j]);
	q->far_n = all;
	q->n = 0;
	q->rebuilds++;
	refill(q);
}

/* The heap outgrew the cache it is meant for (events keep coming below
 * a limit that only a refill set): of the near tier, keep the near_max
 * least events in the heap, move the others to the far tier and lower
 * the limit to the least of them; then refill the run.  O(events in the
 * near tier); it takes near_max pushes to come back.  The others must
 * lie above the base; if not (pushes later than the last pop but below
 * a base that a split raised, or pushes into the past), everything is
 * bucketed anew. */
static void spill(struct eq *q)
{
	size_t left = q->run_n - q->run_head, all = q->n + left;
	if (all > q->cap)
		eq_reserve(q, all);
	if (left) /* its events join the heap's array */
		memcpy(&q->heap[q->n], &q->run[q->run_head], left * sizeof *q->run);
	q->run_head = q->run_n = 0;
	q->n = all;
	struct eq_slot *h = q->heap;
	size_t keep = q->near_max < all / 2 ? q->near_max : all / 2;
	select_kth(h, all, keep);
	if (!before(&q->base, &h[keep])) {
		rebuild(q);
		return;
	}
	if (!q->far)
		q->far = xcalloc(EQ_BUCKETS, sizeof *q->far);
	for (size_t k = keep; k < all; k++)
		far_append(q, bucket_of(&q->base, &h[k]), h[k]);
	q->far_n += all - keep;
	q->limit = h[keep];
	q->n = keep;
	heapify(h, keep);
	q->spills++;
	refill(q);
}

/* A queue of up to ONE_HEAP events is one heap (limit at the top: the
 * tiers cost more than they save while everything is in the cache);
 * past that, the heap spills at twice near_max. */
enum { ONE_HEAP = 1024 };

static size_t spill_at(const struct eq *q)
{
	bool one = q->limit.hi == top_key.hi && q->limit.lo == top_key.lo;
	return one && ONE_HEAP < 2 * q->near_max ? ONE_HEAP : 2 * q->near_max;
}

/* Into the heap if below limit, else into the far tier; an event that
 * finds the run used up (and so the far tier empty) starts a run of one
 * and moves the limit just past itself. */
static void tier_push(struct eq *q, struct eq_slot e)
{
	if (before(&e, &q->limit)) {
		heap_push(q, e);
		if (q->n >= spill_at(q))
			spill(q);
	} else if (q->run_head == q->run_n && q->n < ONE_HEAP / 2) {
		/* the far tier is empty, and what is left is small: one heap
		 * again */
		q->limit = top_key;
		heap_push(q, e);
	} else if (q->run_head == q->run_n) {
		/* the buckets start again from the time of the last pop
		 * (every later push of a simulation is at or after it), or
		 * from e if that is earlier */
		struct eq_slot t = {(uint64_t)(q->last > 0 ? q->last : 0) << 14, 0};
		q->base = before(&e, &t) ? e : t;
		q->limit = key_after(e);
		if (!q->run_cap) {
			q->run_cap = 64;
			q->run = xmalloc(q->run_cap * sizeof *q->run);
			q->run_tmp = xmalloc(q->run_cap * sizeof *q->run_tmp);
		}
		q->run[0] = e;
		q->run_head = 0;
		q->run_n = 1;
	} else {
		if (!q->far)
			q->far = xcalloc(EQ_BUCKETS, sizeof *q->far);
		far_append(q, bucket_of(&q->base, &e), e);
		q->far_n++;
	}
}

size_t eq_compact(struct eq *q, bool (*keep)(void *ctx, const struct eq_event *ev), void *ctx)
{
	size_t n = filter(q->heap, q->n, keep, ctx);
	size_t dropped = q->n - n;
	q->n = n;
	heapify(q->heap, n);
	/* far events stay in their buckets (their keys did not change) */
	for (int i = 0; q->far_n && i < EQ_BUCKETS; i++) {
		struct eq_bucket *b = &q->far[i];
		size_t kept = filter(b->v, b->n, keep, ctx);
		dropped += b->n - kept;
		q->far_n -= b->n - kept;
		if (b->n && !kept)
			far_clear(q, i);
		b->n = kept;
	}
	/* the run keeps its order */
	size_t kept = filter(&q->run[q->run_head], q->run_n - q->run_head, keep, ctx);
	dropped += q->run_n - q->run_head - kept;
	q->run_n = q->run_head + kept;
	if (q->run_head == q->run_n && q->far_n)
		refill(q);
	/* the now queue keeps its order: the events kept move up behind its
	 * head (logical place m <= i: never over an entry not yet read) */
	size_t m = 0, mask = q->now_cap - 1;
	for (size_t i = 0; i < q->now_n; i++) {
		struct eq_slot s = q->now[(q->now_head + i) & mask];
		struct eq_event ev = eq_unpack(&s);
		if (keep(ctx, &ev))
			q->now[(q->now_head + m++) & mask] = s;
		else
			dropped++;
	}
	q->now_n = m;
	if (q->has_aside) {
		struct eq_event ev = eq_unpack(&q->aside);
		if (!keep(ctx, &ev)) {
			q->has_aside = false;
			dropped++;
		}
	}
	return dropped;
}

/* Where the least event of the queue is. */
enum where { NOWHERE, IN_RUN, IN_HEAP, IN_NOW, ASIDE };

static inline enum where least(const struct eq *q, const struct eq_slot **m)
{
	enum where w = NOWHERE;
	if (q->run_head < q->run_n) {
		*m = &q->run[q->run_head];
		w = IN_RUN;
	}
	if (q->n && (w == NOWHERE || before(&q->heap[0], *m))) {
		*m = &q->heap[0];
		w = IN_HEAP;
	}
	if (q->now_n && (w == NOWHERE || before(&q->now[q->now_head], *m))) {
		*m = &q->now[q->now_head];
		w = IN_NOW;
	}
	if (q->has_aside && (w == NOWHERE || before(&q->aside, *m))) {
		*m = &q->aside;
		w = ASIDE;
	}
	return w;
}

bool eq_pop(struct eq *q, struct eq_event *out)
{
	const struct eq_slot *m = NULL;
	enum where w = least(q, &m);
	if (w == NOWHERE)
		return false;
	struct eq_slot e = *m;
	switch (w) {
	case IN_RUN:
		if (++q->run_head == q->run_n && q->far_n)
			refill(q);
		break;
	case IN_HEAP:
		heap_pop(q);
		break;
	case IN_NOW:
		q->now_head = (q->now_head + 1) & (q->now_cap - 1);
		q->now_n--;
		break;
	case ASIDE:
		q->has_aside = false;
		break;
	case NOWHERE:
		break;
	}
	q->last = slot_time(&e);
	if (out)
		*out = eq_unpack(&e);
	return true;
}

const struct eq_slot *eq_peek(const struct eq *q)
{
	const struct eq_slot *m = NULL;
	least(q, &m);
	return m;
}

bool eq_top(const struct eq *q, struct eq_event *out)
{
	const struct eq_slot *m = eq_peek(q);
	if (!m)
		return false;
	*out = eq_unpack(m);
	return true;
}
