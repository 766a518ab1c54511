/* gavel.h - what tests read of gavel's fill (gav_ prefix): counters of
 * its fast walk (gav_fill_fast, policies/gavel_fill.c), over the
 * process, so that a test can assert the work it does per decision, not
 * a time.  The policy's own records: gavel_int.h. */
#ifndef HETSIM_GAVEL_H
#define HETSIM_GAVEL_H

#include <stdint.h>

struct gav_count {
	int64_t fills;         /* fill_fast walks */
	int64_t visits;        /* pairs and jobs they visited */
	int64_t waiting;       /* jobs waiting in groups, summed over walks:
				  what a walk visiting every waiting job
				  (fill, the reference) visits at least */
	int64_t bound;         /* streams x (launches + 1) + launches + the
				  pairs made and sorted, summed over walks */
};

extern struct gav_count gav_count;

#endif
