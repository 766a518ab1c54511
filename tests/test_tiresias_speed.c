/* test_tiresias_speed.c - the structures behind tiresias's incremental
 * decisions (policies/pol_heap.h, pol_iset.h) against brute force.  The
 * decisions themselves are compared with the full pass by
 * index_same_as_scan (test_policies.c) on hand/index-tiresias.yaml. */
#include <stdint.h>
#include <stdlib.h>

#include "pol_heap.h"
#include "pol_iset.h"
#include "test.h"

static uint32_t rnd(uint32_t *x)
{
	*x ^= *x << 13, *x ^= *x >> 17, *x ^= *x << 5;
	return *x;
}

/* Random sets, updates, removals and pops: the top is always the least
 * (key, item) of the items present, and pops come out in that order. */
static void heap_random(void)
{
	enum { N = 300 };
	struct pol_heap h;
	pol_heap_init(&h, N);
	int64_t key[N];
	bool in[N] = {false};
	uint32_t x = 34;
	int bad = 0;
	for (int step = 0; step < 20000; step++) {
		int it = (int)(rnd(&x) % N), op = (int)(rnd(&x) % 4);
		if (op < 2) {
			key[it] = (int64_t)(rnd(&x) % 50) - 25; /* ties galore */
			pol_heap_set(&h, it, key[it]);
			in[it] = true;
		} else if (op == 2) {
			pol_heap_remove(&h, it);
			in[it] = false;
		} else {
			int want = -1;
			for (int i = 0; i < N; i++)
				if (in[i] && (want < 0 || key[i] < key[want]))
					want = i;
			int got = pol_heap_pop(&h);
			bad += got != want;
			if (got >= 0)
				in[got] = false;
		}
		int n = 0;
		for (int i = 0; i < N; i++)
			n += in[i], bad += pol_heap_has(&h, i) != in[i];
		bad += h.n != n;
	}
	CU_ASSERT_EQUAL(bad, 0);
	pol_heap_clear(&h);
	CU_ASSERT_EQUAL(pol_heap_top(&h), -1);
	pol_heap_free(&h);
}

/* Several sets over one pool: the least key at or after any key is the
 * brute-force answer after random inserts and erases. */
static void oset_random(void)
{
	enum { N = 400, SETS = 3 };
	struct pol_iset_pool p;
	pol_iset_pool_init(&p, N);
	int root[SETS] = {-1, -1, -1}, set[N];
	int64_t key[N];
	for (int i = 0; i < N; i++)
		set[i] = -1;
	uint32_t x = 7;
	int bad = 0;
	for (int step = 0; step < 20000; step++) {
		int it = (int)(rnd(&x) % N);
		if (set[it] < 0) {
			set[it] = (int)(rnd(&x) % SETS);
			key[it] = (int64_t)(rnd(&x) % 100000) * N + it; /* distinct */
			pol_iset_insert(&p, &root[set[it]], it, key[it]);
		} else if (rnd(&x) % 2) {
			pol_iset_erase(&p, &root[set[it]], it);
			set[it] = -1;
		}
		int s = (int)(rnd(&x) % SETS);
		int64_t from = (int64_t)(rnd(&x) % 100001) * N;
		int want = -1;
		for (int i = 0; i < N; i++)
			if (set[i] == s && key[i] >= from && (want < 0 || key[i] < key[want]))
				want = i;
		bad += pol_iset_ceil(&p, root[s], from) != want;
		if (step % 97 == 0) { /* a walk from `from`: every later item, in order */
			struct pol_iset_iter it;
			int prev = -1, n = 0, m = 0;
			for (int i = pol_iset_first(&p, root[s], from, &it); i >= 0;
			     i = pol_iset_next(&p, &it), n++) {
				bad += set[i] != s || key[i] < from || (prev >= 0 && key[i] <= key[prev]);
				bad += n == 0 && i != want;
				prev = i;
			}
			for (int i = 0; i < N; i++)
				m += set[i] == s && key[i] >= from;
			bad += n != m;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	pol_iset_pool_free(&p);
}

int test_suite_tiresias_speed(void)
{
	TEST_SUITE("tiresias_speed",
		   {"pol_heap: the least (key, item) first, against brute force", heap_random},
		   {"pol_iset: the least key at or after any key, and walks from it, against "
		    "brute force", oset_random});
	return 0;
}
