/* test_eq.c - the event queue against a sorted reference.
 *
 * The reference is a plain sorted array (binary search + memmove): slow
 * but obviously right.  Every pop of the heap must return exactly the
 * reference's least event: the earliest time, and among equal times the
 * earliest push.
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "eq.h"
#include "util.h"

/* A small local generator (xorshift64*), so this suite does not depend
 * on rng.c. */
static uint64_t xs_state;
static uint64_t xs(void)
{
	xs_state ^= xs_state >> 12;
	xs_state ^= xs_state << 25;
	xs_state ^= xs_state >> 27;
	return xs_state * UINT64_C(2685821657736338717);
}

/* Payload fields are derived from seq so that the reference need only
 * store (time, seq) and can still check that events come back intact. */
static uint32_t kind_of(uint64_t seq) { return (uint32_t)(seq % EQ_KIND_LIMIT); }
static uint32_t obj_of(uint64_t seq) { return (uint32_t)(seq * 2654435761u); }

static bool key_less(const struct eq_slot *a, const struct eq_slot *b)
{
	return a->hi < b->hi || (a->hi == b->hi && a->lo < b->lo);
}

/* 1 + the highest bit in which a and b differ; 0 if equal. */
static int differ_bit(const struct eq_slot *a, const struct eq_slot *b)
{
	for (int i = 127; i >= 0; i--) {
		uint64_t x = i >= 64 ? (a->hi ^ b->hi) >> (i - 64) : (a->lo ^ b->lo) >> i;
		if (x & 1)
			return i + 1;
	}
	return 0;
}

/* The heap: every event is no earlier, in (time, seq) order, than its
 * parent, and heap + 1 sits on a cache line, so that siblings share one.
 * The two tiers (eq.c): every heap and run event is below limit, the
 * run ascending, every far event at or above the limit, above base and
 * in the bucket of its highest bit apart from base; the counts and the
 * bucket mask agree; and the far tier is empty whenever the run is used
 * up. */
static bool heap_ok(const struct eq *q)
{
	if (q->n > 1 && (uintptr_t)&q->heap[1] % 64 != 0)
		return false;
	for (size_t i = 1; i < q->n; i++) {
		struct eq_event c = eq_unpack(&q->heap[i]), p = eq_unpack(&q->heap[(i - 1) / 4]);
		if (c.time < p.time || (c.time == p.time && c.seq < p.seq))
			return false;
	}
	for (size_t i = 0; i < q->n; i++)
		if (!key_less(&q->heap[i], &q->limit))
			return false;
	for (size_t i = q->run_head; i < q->run_n; i++)
		if (!key_less(&q->run[i], &q->limit) ||
		    (i > q->run_head && !key_less(&q->run[i - 1], &q->run[i])))
			return false;
	size_t far = 0;
	for (int i = 0; q->far && i < EQ_BUCKETS; i++) {
		const struct eq_bucket *b = &q->far[i];
		if (((q->far_mask[i / 64] >> (i % 64)) & 1) != (b->n > 0))
			return false;
		for (size_t k = 0; k < b->n; k++)
			if (key_less(&b->v[k], &q->limit) || key_less(&b->v[k], &q->base) ||
			    differ_bit(&b->v[k], &q->base) != i)
				return false;
		far += b->n;
	}
	return far == q->far_n && (q->run_head < q->run_n || q->far_n == 0);
}

static void test_empty(void)
{
	struct eq q;
	struct eq_event e = {.time = 42, .seq = 7};
	eq_init(&q, 0);
	CU_ASSERT_EQUAL(eq_size(&q), 0);
	CU_ASSERT_FALSE(eq_top(&q, &e));
	CU_ASSERT_FALSE(eq_pop(&q, &e));
	CU_ASSERT_EQUAL(e.time, 42); /* untouched */
	CU_ASSERT_FALSE(eq_pop(&q, NULL));

	CU_ASSERT_EQUAL(eq_push(&q, 5, 1, 2), 0);
	CU_ASSERT_TRUE(eq_top(&q, &e));
	CU_ASSERT(e.time == 5 && e.kind == 1 && e.obj == 2 && e.seq == 0);
	CU_ASSERT_EQUAL(eq_top_time(&q), 5);
	CU_ASSERT_TRUE(eq_pop(&q, NULL)); /* dropped */
	CU_ASSERT_FALSE(eq_pop(&q, &e));
	CU_ASSERT_FALSE(eq_top(&q, &e));
	eq_free(&q);
	eq_free(&q); /* harmless twice */
	CU_ASSERT_PTR_NULL(q.heap);
	CU_ASSERT_PTR_NULL(q.mem);
	CU_ASSERT_EQUAL(q.cap, 0);
}

static void test_ties_in_insertion_order(void)
{
	struct eq q;
	struct eq_event e;
	eq_init(&q, 4);
	/* 300 events at one time: they come back in push order. */
	for (uint32_t i = 0; i < 300; i++)
		CU_ASSERT_EQUAL(eq_push(&q, 1000, 7, i), i); /* push returns the seq */
	for (uint32_t i = 0; i < 300; i++) {
		CU_ASSERT_TRUE_FATAL(eq_pop(&q, &e));
		CU_ASSERT_EQUAL(e.time, 1000);
		CU_ASSERT_EQUAL(e.obj, i);
		CU_ASSERT_EQUAL(e.seq, i);
	}
	/* Interleaved times: ties keep push order within each time. */
	static const int64_t t[] = {5, 3, 5, 3, 1, 5, 3, 1};
	static const uint32_t want[] = {4, 7, 1, 3, 6, 0, 2, 5}; /* push numbers */
	for (uint32_t i = 0; i < 8; i++)
		eq_push(&q, t[i], 0, i);
	for (int i = 0; i < 8; i++) {
		CU_ASSERT_TRUE_FATAL(eq_pop(&q, &e));
		CU_ASSERT_EQUAL(e.obj, want[i]);
		CU_ASSERT_EQUAL(e.time, t[want[i]]);
		CU_ASSERT_EQUAL(e.seq, 300 + want[i]); /* seq counts every push */
	}
	CU_ASSERT_FALSE(eq_pop(&q, &e));
	eq_free(&q);
}

/* The packing's bounds (eq.h): every field at its extremes comes back
 * intact, and time and seq still order the events. */
static void test_extreme_times(void)
{
	const int64_t L = EQ_TIME_LIMIT;
	const int64_t t[] = {0, L - 1, 1, L - 2, L - 1, 0, (INT64_C(1) << 36) - 1, INT64_C(1) << 36};
	static const uint32_t want[] = {0, 5, 2, 6, 7, 3, 1, 4};
	static const uint32_t obj[] = {UINT32_MAX, 0, 1, UINT32_MAX - 1, 7, 0x80000000u, 3, 4};
	struct eq q;
	struct eq_event e;
	eq_init(&q, 0);
	for (uint32_t i = 0; i < 8; i++)
		eq_push(&q, t[i], EQ_KIND_LIMIT - 1 - i % EQ_KIND_LIMIT, obj[i]);
	for (int i = 0; i < 8; i++) {
		CU_ASSERT_TRUE_FATAL(eq_pop(&q, &e));
		CU_ASSERT_EQUAL(e.seq, want[i]);
		CU_ASSERT_EQUAL(e.time, t[want[i]]);
		CU_ASSERT_EQUAL(e.obj, obj[want[i]]);
		CU_ASSERT_EQUAL(e.kind, EQ_KIND_LIMIT - 1 - want[i] % EQ_KIND_LIMIT);
	}
	/* seq past 2^29 crosses from lo into hi: order and value survive */
	q.next_seq = (UINT64_C(1) << 29) - 2;
	for (uint32_t i = 0; i < 4; i++)
		eq_push(&q, 10, 0, i);
	eq_push(&q, 9, 0, 9);
	CU_ASSERT_TRUE(eq_pop(&q, &e) && e.obj == 9 && e.seq == (UINT64_C(1) << 29) + 2);
	for (uint32_t i = 0; i < 4; i++) {
		CU_ASSERT_TRUE_FATAL(eq_pop(&q, &e));
		CU_ASSERT_EQUAL(e.obj, i);
		CU_ASSERT_EQUAL(e.seq, (UINT64_C(1) << 29) - 2 + i);
	}
	/* and near the last seq the packing allows */
	q.next_seq = EQ_SEQ_LIMIT - 2;
	eq_push(&q, 5, 3, 1);
	eq_push(&q, 5, 4, 2);
	CU_ASSERT_TRUE(eq_pop(&q, &e) && e.obj == 1 && e.kind == 3 && e.seq == EQ_SEQ_LIMIT - 2);
	CU_ASSERT_TRUE(eq_pop(&q, &e) && e.obj == 2 && e.kind == 4 && e.seq == EQ_SEQ_LIMIT - 1);
	eq_free(&q);
}

static void test_growth(void)
{
	struct eq q;
	struct eq_event e;
	eq_init(&q, 0);
	CU_ASSERT_PTR_NULL(q.heap);
	CU_ASSERT_EQUAL(q.cap, 0);
	/* Decreasing times: every push sifts to the root. */
	int grew = 0;
	bool fits = true;
	for (uint32_t i = 0; i < 100000; i++) {
		size_t cap = q.cap;
		eq_push(&q, 100000 - (int64_t)i, 0, i);
		grew += q.cap != cap;
		fits &= q.cap >= q.n;
	}
	CU_ASSERT_TRUE(fits);
	CU_ASSERT_EQUAL(eq_size(&q), 100000);
	/* Geometric growth: a few reallocations, not one per event, and
	 * no more than twice the room needed. */
	CU_ASSERT(grew >= 1 && grew <= 20);
	CU_ASSERT(q.cap < 2 * 100000 + 64);
	CU_ASSERT_TRUE(heap_ok(&q));
	for (int64_t t = 1; t <= 100000; t++) {
		CU_ASSERT_TRUE_FATAL(eq_pop(&q, &e));
		CU_ASSERT_EQUAL_FATAL(e.time, t);
	}
	CU_ASSERT_FALSE(eq_pop(&q, &e));
	eq_free(&q);

	/* A hint is honoured and then outgrown (a queue this small is one
	 * heap). */
	eq_init(&q, 5);
	CU_ASSERT_EQUAL(q.cap, 5);
	for (int i = 0; i < 6; i++)
		eq_push(&q, i, 0, 0);
	CU_ASSERT(q.cap >= 6);
	CU_ASSERT_EQUAL(q.n, 6);
	for (int64_t t = 0; t < 6; t++) {
		CU_ASSERT_TRUE_FATAL(eq_pop(&q, &e));
		CU_ASSERT_EQUAL(e.time, t);
	}
	eq_free(&q);
}

/* The reference: (time, seq) sorted in decreasing order, so that the
 * least is at the end. */
struct ref_ev {
	int64_t time;
	uint64_t seq;
};
struct ref {
	struct ref_ev *v;
	size_t n;
};

static void ref_push(struct ref *r, int64_t time, uint64_t seq)
{
	/* seq is larger than any present, so among equal times the new
	 * event pops last: it goes before every event with time <= its own. */
	size_t lo = 0, hi = r->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->v[mid].time > time)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&r->v[lo + 1], &r->v[lo], (r->n - lo) * sizeof *r->v);
	r->v[lo] = (struct ref_ev){time, seq};
	r->n++;
}

/* A random time: mostly from small ranges (many exact ties), some near
 * the last popped time (as in a simulation), a few anywhere. */
static int64_t random_time(int64_t now)
{
	uint64_t u = xs();
	switch (u % 10) {
	case 0: case 1: case 2: case 3:
		return (int64_t)(xs() % 16);
	case 4: case 5:
		return now + (int64_t)(xs() % 64);
	case 6: case 7: case 8:
		return now + (int64_t)(xs() % 1000000);
	default:
		return (int64_t)(xs() % (uint64_t)EQ_TIME_LIMIT); /* anywhere in range */
	}
}

#define REF_OPS 1000000
#define REF_MAX 4096 /* bound on pending events: keeps the memmove cheap */

static void test_against_reference(void)
{
	struct eq q;
	struct ref r = {xmalloc(REF_MAX * sizeof *r.v), 0};
	struct eq_event e;
	uint64_t pushes = 0, pops = 0, empty_pops = 0, mismatches = 0;
	int64_t now = 0;
	unsigned push_pct = 50;
	xs_state = UINT64_C(0x9e3779b97f4a7c15);
	eq_init(&q, 0);
	for (long op = 0; op < REF_OPS; op++) {
		if (op % 2000 == 0) /* phases that grow, drain or hold */
			push_pct = (unsigned[]){20, 50, 50, 80}[xs() % 4];
		bool push = xs() % 100 < push_pct;
		if (r.n == REF_MAX)
			push = false;
		if (push) {
			int64_t t = random_time(now);
			CU_ASSERT_EQUAL(eq_push(&q, t, kind_of(pushes), obj_of(pushes)), pushes);
			ref_push(&r, t, pushes);
			pushes++;
		} else if (r.n == 0) {
			if (eq_pop(&q, &e))
				mismatches++;
			empty_pops++;
		} else {
			struct ref_ev want = r.v[--r.n];
			if (!eq_pop(&q, &e) || e.time != want.time || e.seq != want.seq ||
			    e.kind != kind_of(want.seq) || e.obj != obj_of(want.seq))
				mismatches++;
			now = want.time;
			pops++;
		}
		struct eq_event top;
		if (eq_size(&q) != r.n || (r.n && (!eq_top(&q, &top) || top.seq != r.v[r.n - 1].seq)))
			mismatches++;
		if (op % 16384 == 0 && !heap_ok(&q))
			mismatches++;
	}
	CU_ASSERT_EQUAL(mismatches, 0);
	/* The mix really exercised what it claims to. */
	CU_ASSERT(pushes > REF_OPS / 3);
	CU_ASSERT(pops > REF_OPS / 3);
	CU_ASSERT(empty_pops > 100);
	CU_ASSERT_EQUAL(q.next_seq, pushes);
	eq_free(&q);
	free(r.v);
}

/* The far tier (eq.c) against the reference, as a simulation uses it:
 * a hold model (pop the least, push events at that time plus a random
 * delay of 1 µs to ~17 min, in bursts and droughts so that the queue
 * grows to 4000 events and drains), a few events in the past, at the
 * time of the last pop and tied at one of three later times, with a
 * near tier of 16 events, so that buckets are split, runs sorted and the
 * heap spilled (or, below the base, rebuilt) all the time; eq_ahead names
 * the events to come. */
static void test_far_tier(void)
{
	struct eq q;
	struct ref r = {xmalloc(REF_MAX * sizeof *r.v), 0};
	struct eq_event e;
	uint64_t pushes = 0, mismatches = 0, checks = 0, ahead = 0;
	int64_t now = 0;
	unsigned push_pct = 50;
	xs_state = UINT64_C(0x853c49e6748fea9b);
	eq_init(&q, 0);
	q.near_max = 16;
	for (long op = 0; op < REF_OPS / 2; op++) {
		if (op % 3000 == 0)
			push_pct = (unsigned[]){30, 50, 52, 70}[xs() % 4];
		if (r.n < REF_MAX && (r.n == 0 || xs() % 100 < push_pct)) {
			uint64_t u = xs() % 100;
			int64_t t = u < 2    ? (now > 10 ? now - 1 - (int64_t)(xs() % 10) : now)
				    : u < 5  ? now
				    : u < 15 ? now + 100000 + (int64_t)(xs() % 3) /* ties */
				    : u < 60 ? now + 1 + (int64_t)(xs() % 5000000)
					     : now + 1 + (int64_t)(xs() >> (24 + xs() % 30));
			if (t >= EQ_TIME_LIMIT)
				t = EQ_TIME_LIMIT - 1;
			eq_push(&q, t, kind_of(pushes), obj_of(pushes));
			ref_push(&r, t, pushes);
			pushes++;
		} else {
			struct ref_ev want = r.v[--r.n];
			if (!eq_pop(&q, &e) || e.time != want.time || e.seq != want.seq ||
			    e.kind != kind_of(want.seq) || e.obj != obj_of(want.seq))
				mismatches++;
			now = want.time;
		}
		if (eq_size(&q) != r.n)
			mismatches++;
		if (!q.n && !q.now_n && !eq_has_aside(&q) && q.run_n - q.run_head >= 2) {
			/* the next two in the run: eq_ahead tells them exactly */
			const struct eq_slot *a = eq_ahead(&q, 0), *b = eq_ahead(&q, 1);
			if (!a || !b || eq_unpack(a).seq != r.v[r.n - 1].seq ||
			    eq_unpack(b).seq != r.v[r.n - 2].seq)
				mismatches++;
			ahead++;
		}
		if (op % 4099 == 0) {
			mismatches += !heap_ok(&q);
			checks++;
		}
	}
	while (r.n) {
		struct ref_ev want = r.v[--r.n];
		if (!eq_pop(&q, &e) || e.time != want.time || e.seq != want.seq)
			mismatches++;
	}
	CU_ASSERT_FALSE(eq_pop(&q, &e));
	CU_ASSERT_EQUAL(mismatches, 0);
	CU_ASSERT(checks > 100);
	CU_ASSERT(ahead > 10000);
	CU_ASSERT(q.refills > 5000);
	CU_ASSERT(q.splits > 2000);
	CU_ASSERT(q.spills > 20 && q.rebuilds > 5);
	eq_free(&q);
	free(r.v);
}

/* eq_compact drops the events its predicate refuses (here: seq a
 * multiple of 3, about a third) and leaves the order of the others: a
 * queue compacted every few thousand operations pops exactly like the
 * reference without the dropped events, and the heap stays a heap. */
static bool keep_not3(void *ctx, const struct eq_event *ev)
{
	(void)ctx;
	return ev->seq % 3 != 0;
}

static void test_compact(void)
{
	struct eq q;
	struct ref r = {xmalloc(REF_MAX * sizeof *r.v), 0};
	struct eq_event e;
	uint64_t pushes = 0, mismatches = 0, dropped = 0, ring = 0, far = 0;
	int64_t now = 0;
	xs_state = UINT64_C(0x2545f4914f6cdd1d);
	eq_init(&q, 0);
	q.near_max = 32; /* compactions meet events in both tiers */
	for (long op = 0; op < 200000; op++) {
		bool push = r.n < REF_MAX && (r.n == 0 || xs() % 100 < 55);
		if (push) { /* half of them later than now, as in a simulation */
			int64_t t = xs() % 2 ? random_time(now) : now + 1 + (int64_t)(xs() % 5000000);
			eq_push(&q, t, kind_of(pushes), obj_of(pushes));
			ref_push(&r, t, pushes);
			pushes++;
		} else {
			struct ref_ev want = r.v[--r.n];
			if (!eq_pop(&q, &e) || e.time != want.time || e.seq != want.seq)
				mismatches++;
			now = want.time;
		}
		if (op % 3001 == 3000) {
			/* events in the now queue and the slot too */
			for (int k = 0; k < 5 && r.n + 1 < REF_MAX; k++) { /* room for the slot's */
				eq_push(&q, now, kind_of(pushes), obj_of(pushes));
				ref_push(&r, now, pushes++);
			}
			if (!eq_has_aside(&q) && r.n < REF_MAX) {
				int64_t at = now + (int64_t)(xs() % 100);
				eq_push_aside(&q, at, kind_of(pushes), obj_of(pushes));
				ref_push(&r, at, pushes++);
			}
			ring += q.now_n > 0;
			far += q.far_n > 0;
			size_t before = eq_size(&q), m = 0;
			dropped += eq_compact(&q, keep_not3, NULL);
			for (size_t i = 0; i < r.n; i++) /* the reference drops the same */
				if (r.v[i].seq % 3 != 0)
					r.v[m++] = r.v[i];
			r.n = m;
			if (eq_size(&q) != r.n || before < r.n || !heap_ok(&q))
				mismatches++;
		}
	}
	while (r.n) {
		struct ref_ev want = r.v[--r.n];
		if (!eq_pop(&q, &e) || e.time != want.time || e.seq != want.seq)
			mismatches++;
	}
	CU_ASSERT_EQUAL(mismatches, 0);
	CU_ASSERT(dropped > 1000);
	CU_ASSERT(ring > 10); /* compactions met events in the now queue */
	CU_ASSERT(far > 10);  /* and in the far tier */
	CU_ASSERT_EQUAL(eq_size(&q), 0);
	eq_free(&q);
	free(r.v);
}

/* The now queue and the side slot (eq.h) against the same reference: a
 * mix like the engine's (events at the time of the last pop, one pending
 * arrival at a time, later events) plus what the engine never does
 * (events earlier than the last pop, at a time other than the now
 * queue's), so that the order is checked whatever was pushed where. */
static void test_side_paths(void)
{
	struct eq q;
	struct ref r = {xmalloc(REF_MAX * sizeof *r.v), 0};
	struct eq_event e;
	uint64_t pushes = 0, mismatches = 0, to_now = 0, aside = 0, from_aside = 0, max_now = 0,
		 wrapped = 0;
	int64_t now = 0;
	xs_state = UINT64_C(0x2545f4914f6cdd1d);
	eq_init(&q, 0);
	q.near_max = 64; /* and the far tier's splits */
	for (long op = 0; op < REF_OPS / 2; op++) {
		uint64_t u = xs() % 100;
		bool burst = op % 5000 < 400; /* fill the now queue past its first room */
		bool was_aside = eq_has_aside(&q);
		if ((u < 45 || (burst && u < 80)) && r.n < REF_MAX) {
			int64_t t;
			switch (burst ? 0 : xs() % 8) {
			case 0: case 1: case 2: case 3:
				t = now; /* zero delay: the now queue */
				break;
			case 4: case 5:
				t = now + (int64_t)(xs() % 8);
				break;
			case 6:
				t = now + (int64_t)(xs() % 100000);
				break;
			default:
				t = now > 4 ? now - 1 - (int64_t)(xs() % 4) : now + 3; /* the past */
				break;
			}
			size_t before_now = q.now_n;
			CU_ASSERT_EQUAL(eq_push(&q, t, kind_of(pushes), obj_of(pushes)), pushes);
			to_now += q.now_n > before_now;
			ref_push(&r, t, pushes);
			pushes++;
		} else if (u < 60 && !was_aside && r.n < REF_MAX) {
			/* the next "arrival": at or after now, sometimes tied with
			 * the now queue, sometimes anywhere */
			int64_t t = xs() % 4 ? now + (int64_t)(xs() % 16) : (int64_t)(xs() % 1000);
			CU_ASSERT_EQUAL(eq_push_aside(&q, t, kind_of(pushes), obj_of(pushes)), pushes);
			CU_ASSERT_TRUE(eq_has_aside(&q));
			ref_push(&r, t, pushes);
			pushes++;
			aside++;
		} else if (r.n == 0) {
			if (eq_pop(&q, &e))
				mismatches++;
		} else {
			struct ref_ev want = r.v[--r.n];
			if (eq_top_time(&q) != want.time)
				mismatches++;
			if (!eq_pop(&q, &e) || e.time != want.time || e.seq != want.seq ||
			    e.kind != kind_of(want.seq) || e.obj != obj_of(want.seq))
				mismatches++;
			from_aside += was_aside && !eq_has_aside(&q);
			now = want.time;
		}
		if (q.now_n > max_now)
			max_now = q.now_n;
		wrapped += q.now_n && q.now_head + q.now_n > q.now_cap;
		struct eq_event top;
		if (eq_size(&q) != r.n || (r.n && (!eq_top(&q, &top) || top.seq != r.v[r.n - 1].seq)))
			mismatches++;
		if (op % 65536 == 0 && !heap_ok(&q))
			mismatches++;
	}
	/* drain */
	while (r.n) {
		struct ref_ev want = r.v[--r.n];
		if (!eq_pop(&q, &e) || e.time != want.time || e.seq != want.seq)
			mismatches++;
	}
	CU_ASSERT_FALSE(eq_pop(&q, &e));
	CU_ASSERT_EQUAL(mismatches, 0);
	/* every path was taken, and the ring wrapped and grew */
	CU_ASSERT(to_now > pushes / 10);
	CU_ASSERT(aside > 1000 && from_aside > 1000);
	CU_ASSERT(max_now > 64 && wrapped > 1000);
	CU_ASSERT(q.refills > 100 && q.splits > 50 && q.rebuilds > 5);
	eq_free(&q);
	CU_ASSERT_PTR_NULL(q.now);
	free(r.v);
}

int test_suite_eq(void)
{
	TEST_SUITE("eq",
		   {"empty queue", test_empty},
		   {"equal times pop in push order", test_ties_in_insertion_order},
		   {"extreme times", test_extreme_times},
		   {"growth from cap_hint 0", test_growth},
		   {"1e6 random ops against a sorted reference", test_against_reference},
		   {"a hold model against the reference: the far tier at work",
		    test_far_tier},
		   {"now queue and side slot against the reference", test_side_paths},
		   {"compaction drops what it is told, keeps the order", test_compact});
	return 0;
}
