/* pol_wclass.h - waiting jobs sorted into classes by what they ask for
 * next (pol_ prefix), each class an ordered set (pol_oset.h).
 *
 * A first fit (pol_first_fit) of a job reads only the executors it
 * still wants - per role its cores, memory, GPUs and how many - and the
 * nodes' free amounts, which change only with the cluster's change
 * count (clu.changes).  So two jobs of one class placed on the same
 * cluster fare alike: once one does not fit, none of its class fits
 * until the cluster changes, and a policy that walks its queue in order
 * can pass a whole class over at once - O(classes) a step, where a scan
 * tries every waiting job.  A class is either a whole job's wants (every
 * executor at once) or its next executor's alone (`one`, a policy that
 * gives one at a time).
 */
#ifndef HETSIM_POL_WCLASS_H
#define HETSIM_POL_WCLASS_H

#include <stdbool.h>
#include <stdint.h>

#include "pol_index.h"

struct sim_job;

struct pol_wkey {
	struct pol_shape sh[2];  /* per role: one executor (cores unset: 1) */
	int want[2];             /* per role: executors wanted (one: 1 for the
				    first role that wants any, 0 for the rest) */
};

struct pol_wclass {
	struct pol_wkey key;
	int root;                /* its jobs: a set of the caller's pool */
	int n;                   /* jobs in it */
	int live;                /* its place in pol_wclasses.live; -1 if empty */
	uint64_t failed_at;      /* a job of it did not fit at this change count */
	bool failed;             /* failed_at is set */
};

struct pol_wclasses {
	struct pol_wclass *c;
	int n, cap;
	int *slot; int nslot;    /* hash table of class indexes, -1 empty */
	int *live; int nlive;    /* the classes holding a job */
};

void pol_wclasses_init(struct pol_wclasses *w);
void pol_wclasses_free(struct pol_wclasses *w);
/* The class of what job j wants now (one: its next executor only),
 * made if new.  Its index stays valid; the array may move. */
int pol_wclass_of(struct pol_wclasses *w, const struct sim_job *j, bool one);
/* A job joined (+1) or left (-1) class k: keeps n and the live list. */
void pol_wclass_count(struct pol_wclasses *w, int k, int delta);

#endif
