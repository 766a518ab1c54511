/* pol_prof.h - a profile of free amounts over time, as a balanced tree
 * (pol_ prefix).
 *
 * A step function of time: from each breakpoint t (up to the next) the
 * amounts free, three of them (milli-cores, MiB, milli-GPUs).  The
 * breakpoints are a treap ordered by time, each slot holding its amounts,
 * the least of each over its subtree and an addition pending for its
 * subtree (so that adding to every breakpoint of a time range costs
 * O(log breakpoints), not one per breakpoint).  conservative keeps its
 * profile in one where it counts one set of amounts (count: pool, or a
 * cluster of one node): making a breakpoint, taking a reservation out
 * and finding the earliest breakpoint where a job fits for its length
 * are O(log breakpoints) each (the last: per breakpoint that blocks an
 * earlier start, below).
 *
 * A treap's shape depends only on its keys and the slots' priorities (a
 * hash of the order they were made in), so a run gives the same tree
 * every time; no answer depends on the shape anyway.
 */
#ifndef HETSIM_POL_PROF_H
#define HETSIM_POL_PROF_H

#include <stdint.h>

#define POL_PROF_NONE INT64_MAX /* no such time; a range's open end */

struct pol_prof {
	struct pol_prof_slot {
		int64_t t;
		int64_t v[3];      /* its amounts, once pending additions above
				      it are done */
		int64_t least[3];  /* the least of each over its subtree */
		int64_t add[3];    /* pending for its children's subtrees */
		uint32_t pri;
		int l, r;          /* children, -1 none */
	} *s;
	int n, cap;            /* slots in use (none is ever freed but by
				  pol_prof_reset) */
	int root;              /* -1: empty */
};

void pol_prof_init(struct pol_prof *p);
void pol_prof_free(struct pol_prof *p);
/* One breakpoint: from t, amounts v. */
void pol_prof_reset(struct pol_prof *p, int64_t t, const int64_t v[3]);
/* A breakpoint at t (after the first), with the amounts in force there;
 * no-op where one is. */
void pol_prof_split(struct pol_prof *p, int64_t t);
/* Add d to the amounts of every breakpoint in [from, to) (to
 * POL_PROF_NONE: all from `from` on). */
void pol_prof_add(struct pol_prof *p, int64_t from, int64_t to, const int64_t d[3]);
/* The earliest breakpoint t >= from such that every breakpoint in
 * [t, t + len) (len >= 1, saturating) holds at least `want` of each
 * amount, or POL_PROF_NONE (from > INT64_MIN).  One that holds less at breakpoint k rules
 * out every start up to k, so the search moves past k: O(log
 * breakpoints) per such k. */
int64_t pol_prof_fit(struct pol_prof *p, int64_t from, int64_t len, const int64_t want[3]);
/* The first breakpoint after t, or POL_PROF_NONE. */
int64_t pol_prof_next(const struct pol_prof *p, int64_t t);

#endif
