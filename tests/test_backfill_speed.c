/* test_backfill_speed.c - the structures behind easy's and conservative's
 * fast passes against plain arrays (the policies themselves are compared
 * with their reference in test_policies.c, index_same_as_scan, on
 * tests/scenarios/hand/index-backfill.yaml). */
#include <stdint.h>
#include <stdlib.h>

#include "pol_prof.h"
#include "test.h"

#define MAXB 400

/* The same profile as plain arrays, sorted by time. */
struct plain {
	int n;
	int64_t t[MAXB], v[MAXB][3];
};

static uint32_t next_rand(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void plain_split(struct plain *p, int64_t t)
{
	int i = 0;
	while (i + 1 < p->n && p->t[i + 1] <= t)
		i++;
	if (p->t[i] == t)
		return;
	for (int k = p->n; k > i + 1; k--) {
		p->t[k] = p->t[k - 1];
		for (int d = 0; d < 3; d++)
			p->v[k][d] = p->v[k - 1][d];
	}
	p->t[i + 1] = t;
	for (int d = 0; d < 3; d++)
		p->v[i + 1][d] = p->v[i][d];
	p->n++;
}

static void plain_add(struct plain *p, int64_t from, int64_t to, const int64_t d[3])
{
	for (int i = 0; i < p->n; i++)
		if (p->t[i] >= from && (to == POL_PROF_NONE || p->t[i] < to))
			for (int k = 0; k < 3; k++)
				p->v[i][k] += d[k];
}

/* conservative's reference search: every breakpoint from `from` on, the
 * least over [t, t + len) of each amount. */
static int64_t plain_fit(const struct plain *p, int64_t from, int64_t len, const int64_t w[3])
{
	for (int a = 0; a < p->n; a++) {
		if (p->t[a] < from)
			continue;
		int64_t end = p->t[a] > POL_PROF_NONE - len ? POL_PROF_NONE : p->t[a] + len;
		int ok = 1;
		for (int b = a; b < p->n && p->t[b] < end && ok; b++)
			for (int k = 0; k < 3; k++)
				ok &= p->v[b][k] >= w[k];
		if (ok)
			return p->t[a];
	}
	return POL_PROF_NONE;
}

/* Random breakpoints, additions (reservations taken, releases) and
 * searches: every search gives the plain one's answer, and the next
 * breakpoint after any time is the plain one's. */
static void prof_as_arrays(void)
{
	uint32_t x = 34;
	int bad = 0, found = 0;
	for (int round = 0; round < 40; round++) {
		struct pol_prof pr;
		struct plain pl = {.n = 1, .t = {100}};
		int64_t v0[3] = {next_rand(&x) % 50, next_rand(&x) % 50, next_rand(&x) % 50};
		for (int d = 0; d < 3; d++)
			pl.v[0][d] = v0[d];
		pol_prof_init(&pr);
		pol_prof_reset(&pr, 100, v0);
		for (int step = 0; step < 300 && pl.n < MAXB - 2; step++) {
			uint32_t r = next_rand(&x);
			int64_t t = 100 + (int64_t)(next_rand(&x) % 1000);
			int64_t len = 1 + (int64_t)(next_rand(&x) % 200);
			int64_t w[3] = {next_rand(&x) % 40, next_rand(&x) % 40, next_rand(&x) % 40};
			if (r % 4 == 0) { /* a release from t on */
				pol_prof_split(&pr, t);
				plain_split(&pl, t);
				pol_prof_add(&pr, t, POL_PROF_NONE, w);
				plain_add(&pl, t, POL_PROF_NONE, w);
				continue;
			}
			if (r % 16 == 1)
				len = POL_PROF_NONE; /* for ever */
			int64_t a = pol_prof_fit(&pr, 100, len, w), b = plain_fit(&pl, 100, len, w);
			bad += a != b;
			int64_t t2 = 100 + (int64_t)(next_rand(&x) % 1000);
			bad += pol_prof_fit(&pr, t2, len, w) != plain_fit(&pl, t2, len, w);
			if (a == POL_PROF_NONE)
				continue;
			found++;
			int64_t end = a > POL_PROF_NONE - len ? POL_PROF_NONE : a + len;
			int64_t neg[3] = {-w[0], -w[1], -w[2]};
			if (end != POL_PROF_NONE) {
				pol_prof_split(&pr, end);
				plain_split(&pl, end);
			}
			pol_prof_add(&pr, a, end, neg);
			plain_add(&pl, a, end, neg);
			int64_t q = 100 + (int64_t)(next_rand(&x) % 1300), want = POL_PROF_NONE;
			for (int i = 0; i < pl.n && want == POL_PROF_NONE; i++)
				if (pl.t[i] > q)
					want = pl.t[i];
			bad += pol_prof_next(&pr, q) != want;
		}
		pol_prof_free(&pr);
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(found > 1000); /* the searches did find starts */
}

int test_suite_backfill_speed(void)
{
	TEST_SUITE("backfill_speed",
		   {"pol_prof: earliest fit, breakpoints and additions as plain arrays",
		    prof_as_arrays});
	return 0;
}
