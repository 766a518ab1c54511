/* test_fgd_speed.c - the pieces behind the FGD study's node index
 * (policies/pods.c): pol_top against a scan, pods_divides against the %
 * operator, and rng_u64_run (random's reservoir walk, in AVX2's lanes
 * where the CPU has them and one at a time) against rng_u64.
 * The index as a whole is compared with the plain scan by
 * tests/scenarios/hand/index-fgd.yaml (test_policies.c,
 * index_same_as_scan). */
#include "test.h"

#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "pods.h"
#include "pol_top.h"
#include "rng.h"

/* After every change, the top key, its count and each of its positions
 * in order equal a scan's; keys from a small range, so ties are many. */
static void top_same_as_scan(void)
{
	static const int sizes[] = {1, 2, 3, 7, 64, 100, 1000};
	struct rng_key k = rng_key(7, 0, RNG_USER, 0x746f70, 0, 0);
	uint64_t d = 0;
	for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
		int n = sizes[z];
		struct pol_top t;
		pol_top_init(&t, n);
		int64_t *key = malloc((size_t)n * sizeof *key);
		for (int i = 0; i < n; i++)
			key[i] = POL_TOP_NONE;
		CU_ASSERT_EQUAL(pol_top_key(&t), POL_TOP_NONE);
		CU_ASSERT_EQUAL(pol_top_count(&t), 0);
		for (int step = 0; step < 4 * n + 20; step++) {
			int i = (int)(rng_u64(k, d++) % (uint64_t)n);
			uint64_t r = rng_u64(k, d++) % 6;
			key[i] = r == 0 ? POL_TOP_NONE : (int64_t)r - 3; /* -2 .. 2 */
			pol_top_set(&t, i, key[i]);
			int64_t top = POL_TOP_NONE;
			int cnt = 0;
			for (int j = 0; j < n; j++)
				top = key[j] > top ? key[j] : top;
			for (int j = 0; j < n; j++)
				cnt += top != POL_TOP_NONE && key[j] == top;
			CU_ASSERT_EQUAL_FATAL(pol_top_key(&t), top);
			CU_ASSERT_EQUAL_FATAL(pol_top_count(&t), cnt);
			for (int j = 0, nth = 0; j < n; j++)
				if (top != POL_TOP_NONE && key[j] == top)
					CU_ASSERT_EQUAL_FATAL(pol_top_nth(&t, nth++), j);
		}
		free(key);
		pol_top_free(&t);
	}
}

static void divides_same_as_mod(void)
{
	static const uint64_t xs[] = {0, 1, 2, 3, 6, 12, 1000, 4096, 999999, UINT64_MAX,
				      UINT64_MAX - 1, UINT64_C(1) << 63, 3 * (UINT64_C(1) << 62)};
	for (uint64_t t = 1; t <= 5000; t++) {
		uint64_t inv = pods_odd_inverse(t), lim = UINT64_MAX / t;
		for (size_t i = 0; i < sizeof xs / sizeof *xs; i++)
			CU_ASSERT_EQUAL_FATAL(pods_divides(xs[i], t, inv, lim), xs[i] % t == 0);
		for (uint64_t m = 0; m < 50; m++) { /* multiples, and one off */
			uint64_t x = m * t * 977;
			CU_ASSERT_FATAL(pods_divides(x, t, inv, lim));
			CU_ASSERT_EQUAL_FATAL(pods_divides(x + 1, t, inv, lim), (x + 1) % t == 0);
		}
	}
	struct rng_key k = rng_key(9, 0, RNG_USER, 0x646976, 0, 0);
	int yes = 0;
	for (uint64_t d = 0; d < 400000; d++) {
		uint64_t x = rng_u64(k, 2 * d), t = 1 + rng_u64(k, 2 * d + 1) % 100000;
		bool want = x % t == 0;
		yes += want;
		CU_ASSERT_EQUAL_FATAL(pods_divides(x, t, pods_odd_inverse(t), UINT64_MAX / t), want);
	}
	CU_ASSERT(yes > 0); /* the random half met divisible cases too */
}

/* rng_u64_run gives rng_u64's numbers, for runs of every length up to
 * pods.c's and from first draws near 0 and near 2^64 (the Weyl sum
 * wraps), and writes nothing past n. */
static void run_same_as_u64(void)
{
	struct rng_key k = rng_key(11, 0, RNG_USER, 0x72756e, 0, 0);
	static const uint64_t firsts[] = {0, 1, 3500, UINT64_MAX - 40, UINT64_C(1) << 63};
	uint64_t out[66];
	for (int scalar = 0; scalar < 2; scalar++) { /* the vector lanes (where AVX2 is), then not */
		rng_scalar_runs = scalar;
		for (size_t f = 0; f < sizeof firsts / sizeof *firsts; f++)
			for (int n = 0; n <= 64; n++) {
				out[n] = 0x5a5a;
				rng_u64_run(k, firsts[f], out, n);
				for (int i = 0; i < n; i++)
					CU_ASSERT_EQUAL_FATAL(out[i], rng_u64(k, firsts[f] + (uint64_t)i));
				CU_ASSERT_EQUAL_FATAL(out[n], 0x5a5a);
			}
	}
	rng_scalar_runs = false;
}

/* 400 pods each of its own shape (index-distinct.yaml) under fgd: a
 * shape or seq is found in about one comparison (the search of every
 * shape ever made that this replaced compared ~200 a lookup, quadratic
 * over the trace); a pass tries at most the jobs it takes from the
 * merge, each seq or job at most once per pass and launch; and the caps
 * leave untried most of the jobs (the build before tried every job of
 * the overflow seq at every pass). */
static void distinct_work(void)
{
	struct scn *scn;
	struct pods_work w0 = pods_work;
	struct sim *s = h_run("tests/scenarios/hand/index-distinct.yaml", "fgd", 0, &scn);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	uint64_t passes = pods_work.passes - w0.passes, pops = pods_work.pops - w0.pops;
	uint64_t tries = pods_work.tries - w0.tries, lookups = pods_work.lookups - w0.lookups;
	uint64_t probes = pods_work.probes - w0.probes;
	CU_ASSERT(passes > 100);
	CU_ASSERT(lookups > 1000);
	CU_ASSERT(probes <= 2 * lookups);
	CU_ASSERT(tries <= pops);
	CU_ASSERT(pops <= passes * 400);
	CU_ASSERT(tries * 20 <= pops); /* 488 of 29 828 */
	h_done(s, scn);
}

int test_suite_fgd_speed(void)
{
	TEST_SUITE("fgd_speed",
		   {"pol_top: top key, count and n-th equal a scan's", top_same_as_scan},
		   {"pods_divides equals x % t == 0", divides_same_as_mod},
		   {"rng_u64_run equals rng_u64 draw by draw", run_same_as_u64},
		   {"distinct shapes: lookups, pops, tries bounded", distinct_work});
	return 0;
}
