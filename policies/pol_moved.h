/* pol_moved.h - nodes by when what a policy reads of them last moved
 * (pol_ prefix).
 *
 * A policy that remembers where something fitted no node need look
 * again only at the nodes whose amounts moved since.  Where those amounts
 * are the cluster's alone, its change log says which (cluster.h,
 * clu_log_short); where the policy adds its own (tiresias's projection:
 * what later queues' running jobs hold), it keeps this list instead:
 * every node, the last moved first, each with the stamp of its last
 * move.  A move (pol_moved_touch) is O(1); pol_moved_sync reads the
 * cluster's changes since its last call into it; the nodes moved after
 * stamp s are the list's head down to the first node stamped s or
 * before, each once.
 */
#ifndef HETSIM_POL_MOVED_H
#define HETSIM_POL_MOVED_H

#include <stdint.h>

struct clu;

struct pol_moved {
	const struct clu *c;
	int *next, *prev, head; /* the list, -1 ends it */
	uint64_t *at;           /* by node: the stamp of its last move, 0 never */
	uint64_t stamp;         /* moves so far */
	uint64_t seen;          /* cluster changes read */
};

/* Every node of c, none moved yet.  Free with pol_moved_free. */
void pol_moved_init(struct pol_moved *m, const struct clu *c);
void pol_moved_free(struct pol_moved *m);
/* Node `node` moved now. */
void pol_moved_touch(struct pol_moved *m, int node);
/* The cluster's changes since the last call (every node, where its log
 * no longer holds them). */
void pol_moved_sync(struct pol_moved *m);

#endif
