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
 */
#ifndef HETSIM_POL_FIRSTFIT_H
#define HETSIM_POL_FIRSTFIT_H

#include <stdbool.h>

#include "pol_index.h"

struct pol_tent;
struct sim;
struct sim_job;

struct pol_ff {
	struct pol_tent *t;   /* the caller's tentative placements */
	bool indexed;         /* false with clu_plain_scan */
	struct pol_ix ix;
};

/* An index over sim s's cluster placing into t; both must outlive it. */
void pol_ff_init(struct pol_ff *f, const struct sim *s, struct pol_tent *t);
void pol_ff_free(struct pol_ff *f);
/* pol_first_fit(f->t, s, j, most), the same placement and answer. */
bool pol_ff_place(struct pol_ff *f, const struct sim *s, const struct sim_job *j, int most);

#endif
