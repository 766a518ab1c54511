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
 *
 * A decision's walk (pol_wwalk_*) takes the waiting jobs in the
 * policy's order as a k-way merge of the classes: the classes holding a
 * job are kept in an ordered set by their first job's key (`byhead`,
 * kept as jobs come and go), and the walk steps to the class of least
 * head at or past the last job tried, O(log classes) a step, never a
 * pass over every class.  Within a decision the free amounts only
 * shrink (a launch takes, nothing frees), and a class whose jobs want
 * executors of one role only fits on less only if it fit on more (first
 * fit of equal executors: per node as many as fit, each dimension
 * monotone), so once it fails it is passed over for the rest of the
 * decision: its head stays behind the walk.  A class wanting both roles
 * at once is not monotone (the first role's executor, crowded off a
 * node, can leave room there for the second's), so after each launch
 * the walk retries it at its next job, as the scan does (`parked`, then
 * in a small second set, `aux`).  And no class fits once the cluster's
 * free cores or memory, summed over nodes, are below every live class's
 * demand (a whole placement takes its sum from the nodes' free amounts):
 * the walk ends there at once, the usual end on a full cluster.  So a
 * decision visits each class at most once, plus one per launch for the
 * classes that launch touches and the parked ones, and none past a full
 * cluster.
 */
#ifndef HETSIM_POL_WCLASS_H
#define HETSIM_POL_WCLASS_H

#include <stdbool.h>
#include <stdint.h>

#include "pol_index.h"
#include "pol_oset.h"

struct clu;
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
	int64_t need[2];         /* milli-cores, MiB its jobs' wants take */
	/* its place in the current walk, valid while seen is the walk's */
	uint64_t seen;
	int state;               /* POL_WW_* */
};

enum { POL_WW_OUT, POL_WW_DROPPED, POL_WW_PARKED, POL_WW_AUX };

struct pol_wclasses {
	struct pol_wclass *c;
	int n, cap;
	int *slot; int nslot;    /* hash table of class indexes, -1 empty */
	int *live; int nlive, caplive; /* the classes holding a job */
	const struct pol_oset *jobs;   /* the caller's pool of jobs */
	/* ordered sets of class ids: the live classes by their first job's
	 * key, and by need[0] and need[1] (the least of each); the walk's
	 * retried classes by their next job's key */
	struct pol_oset byhead, bycores, bymem, aux;
	int hroot, croot, mroot, aroot;
	int *parked; int nparked, capparked;
	int *dropped; int ndropped, capdropped;
	uint64_t stamp;          /* walks begun */
	uint64_t begun_at;       /* the current walk's change count at its start */
	uint64_t visits;         /* classes a walk looked at (tried or passed
				    over), all walks: a work count for tests */
};

/* Classes of jobs of pool `jobs` (each class's jobs a set of it, by the
 * policy's key), which must outlive them. */
void pol_wclasses_init(struct pol_wclasses *w, const struct pol_oset *jobs);
void pol_wclasses_free(struct pol_wclasses *w);
/* The class of what job j wants now (one: its next executor only),
 * made if new.  Its index stays valid; the array may move. */
int pol_wclass_of(struct pol_wclasses *w, const struct sim_job *j, bool one);
/* A job joined (+1) or left (-1) class k's set: keeps n, the live list
 * and the ordered sets of classes.  Call it after each change of the
 * set. */
void pol_wclass_count(struct pol_wclasses *w, int k, int delta);

/* A walk over the waiting jobs in increasing key from *cur on cluster
 * c.  The caller keeps cur past every job it tried (and at or before any
 * job it wants tried again). */
void pol_wwalk_begin(struct pol_wclasses *w, const struct clu *c);
/* The next job to try: the least key at or past cur among the classes
 * not known to fail, its class in *k; -1 when none can fit. */
int pol_wwalk_next(struct pol_wclasses *w, const struct clu *c, const struct pol_okey *cur,
		   int *k);
/* The job of class k did not fit (cur now past it). */
void pol_wwalk_failed(struct pol_wclasses *w, const struct clu *c, const struct pol_okey *cur,
		      int k);
/* A job of class k launched and left it or moved to class k2 (-1: none,
 * or k): the classes a retry is owed to are back in the walk. */
void pol_wwalk_launched(struct pol_wclasses *w, const struct pol_okey *cur, int k, int k2);
/* The walk ends on cluster c: a class that failed in it fails there too
 * (monotone), remembered for the next decision (pol_wclass.failed_at). */
void pol_wwalk_end(struct pol_wclasses *w, const struct clu *c);

#endif
