/* pol_firstfit.h - pol_first_fit through a node index (pol_ prefix).
 *
 * pol_first_fit places each executor on the first node in node order
 * where it fits, scanning every node: O(nodes) per executor.  A pol_ff
 * gives the same placement from a pol_ix (pol_index.h) whose key is 0
 * where the executor fits on every dimension, INFINITY elsewhere: the
 * tree's winner is then the first such node, O(log64 nodes) per
 * executor, plus O(shapes x log64 nodes) per node changed.  The fit
 * test is pol_first_fit's own (pol_tent_free, pol_share_pick), so the
 * index can never choose another node.  With clu_plain_scan, or past
 * POL_IX_MAX_SHAPES executor shapes, it scans as pol_first_fit does.
 *
 * Past those shapes (a trace where every pod asks its own amounts), a
 * job whose first executor fitted no node is remembered with the
 * cluster's change count then (clu.changes).  Its next try looks only
 * at the nodes changed since (the change log, cluster.h): every other
 * node has the free amounts it had, where the executor did not fit, so
 * the first node in order that fits is the first of the changed ones
 * that does: O(changes since) per try instead of O(nodes), the scan
 * once more where those are as many as the nodes or the log no longer
 * holds them.  Only a try with no tentative executor of its own is
 * remembered or answered so (the fit then is the node's alone).
 */
#ifndef HETSIM_POL_FIRSTFIT_H
#define HETSIM_POL_FIRSTFIT_H

#include <stdbool.h>

#include "pol_index.h"

struct pol_tent;
struct sim;
struct sim_job;

struct pol_ff_miss {
	uint64_t at;          /* clu.changes + 1 when its first executor fitted
			       * no node; 0: not known to fail */
	int role;             /* that executor's role */
};

struct pol_ff {
	struct pol_tent *t;   /* the caller's tentative placements */
	bool indexed;         /* false with clu_plain_scan */
	struct pol_ix ix;
	struct pol_ff_miss *miss; /* by job, made on the first scan; NULL */
	int njobs;
};

/* An index over sim s's cluster placing into t; both must outlive it. */
void pol_ff_init(struct pol_ff *f, const struct sim *s, struct pol_tent *t);
void pol_ff_free(struct pol_ff *f);
/* pol_first_fit(f->t, s, j, most), the same placement and answer. */
bool pol_ff_place(struct pol_ff *f, const struct sim *s, const struct sim_job *j, int most);
/* Whether the next executor j wants fits some node now (no tentative
 * one: f->t is reset), through the index or the misses: a placement of
 * j's executors that must also fit elsewhere (easy's extra resources)
 * cannot start where this is false.  True if j wants none. */
bool pol_ff_can_start(struct pol_ff *f, const struct sim *s, const struct sim_job *j);

#endif
