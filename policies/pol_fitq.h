/* pol_fitq.h - the waiting jobs split by shape, for a pass that starts
 * every job that fits now, in arrival order (pol_ prefix).
 *
 * easy's backfill when its head has no shadow time, and conservative's
 * pass while its profile is one segment (no running job expected to
 * end), try every waiting job in arrival order and start each that fits
 * now, first fit in node order on every dimension (pol_first_fit).  On a
 * long queue most tries fail, and a try reads only what the job wants
 * (its shape, nothing granted yet) and the nodes' free amounts, which
 * only a launch changes within a pass: once a job of a shape fails, every
 * later job of that shape fails until the next launch.  So the queue is
 * kept a second time, split by shape (a set of job ids per shape,
 * pol_bits), and a pass visits, in arrival order, only the jobs of the
 * shapes that have not failed since the last launch: O((launches + 1) x
 * shapes) tries a pass, where a walk of the queue is O(queue).  A job
 * with executors granted already (back after losing one) wants less
 * than its shape: it is kept apart and tried every time.  Past
 * POL_FITQ_MAX_SHAPES shapes (a trace whose jobs have shapes of their
 * own) the jobs of the others are kept apart too: the pass is then a
 * walk, as before.
 *
 * A try is the first fit of pol_first_fit through its index
 * (pol_firstfit.h), O(executors x log64 nodes), or a scan where the
 * index declines a shape.  The decisions
 * are those of trying every job: only failures are skipped, each one
 * that the try would repeat.
 */
#ifndef HETSIM_POL_FITQ_H
#define HETSIM_POL_FITQ_H

#include <stdbool.h>

#include "pol_bits.h"
#include "pol_firstfit.h"

struct sim;
struct sim_job;
struct pol_tent;

/* Shapes kept apart at most (each set is n / 8 bytes). */
#define POL_FITQ_MAX_SHAPES 32

struct pol_fitq {
	struct pol_tent *t;      /* the caller's tentative placement */
	struct pol_ff ff;        /* the first fit, through its index */
	int njobs;
	int *cls;                /* by shape id: its class + 1, 0 none yet */
	int capcls;
	struct pol_fitq_cls {
		struct pol_bits b;   /* its waiting jobs */
		int next;            /* the pass's next job of it (-1 none), valid
					from `from` */
		int from;
		bool failed;         /* failed since the last launch */
	} *c;
	int nc;
	struct pol_bits apart;   /* the jobs tried every time */
	int cursor;              /* the pass: the next job id to consider */
};

/* A queue for the jobs of sim s; tries place into t (pol_tent). */
void pol_fitq_init(struct pol_fitq *q, const struct sim *s, struct pol_tent *t);
void pol_fitq_free(struct pol_fitq *q);
/* Job j (id job) waits: by its shape if it wants its whole shape. */
void pol_fitq_add(struct pol_fitq *q, const struct sim_job *j, int job);
/* No-op if absent. */
void pol_fitq_remove(struct pol_fitq *q, const struct sim_job *j, int job);

/* Tentatively place (q->t reset first) every executor job j still wants,
 * first fit in node order on every dimension, as pol_first_fit; false,
 * the placement partial, if one does not fit. */
bool pol_fitq_fits(struct pol_fitq *q, const struct sim *s, const struct sim_job *j);

/* A pass over the jobs from id `from` on: pol_fitq_next gives each in
 * arrival order but those of a shape failed since the last launch, -1
 * after the last; tell it what came of each: pol_fitq_failed (it did not
 * fit) or pol_fitq_launched (it was launched, or anything else changed
 * the nodes). */
void pol_fitq_begin(struct pol_fitq *q, int from);
int pol_fitq_next(struct pol_fitq *q);
void pol_fitq_failed(struct pol_fitq *q, const struct sim_job *j, int job);
void pol_fitq_launched(struct pol_fitq *q);

#endif
