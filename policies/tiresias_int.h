/* tiresias_int.h - the tiresias policy's own records, shared by its files
 * (private to policies/tiresias*.c).
 *
 *   tiresias_rules.c its rules job by job: weight, the guard, wake-ups
 *   tiresias.c       the policy: its rules (tiresias.c's header), the
 *                    switches, and the decision as a full pass over every
 *                    active job: the reference, which runs under
 *                    clu_plain_scan, `placement: pool` and `max_preempt`
 *   tiresias_fast.c  the same decisions kept incrementally (every other
 *                    run): ordered queues, the projection as corrections
 *                    of the cluster's free amounts, a fit index, heaps of
 *                    demotion instants; its events, requeueing, decision
 *   tiresias_pass.c  its projection and pass (tiresias_fast.h: what the
 *                    two share)
 */
#ifndef HETSIM_TIRESIAS_INT_H
#define HETSIM_TIRESIAS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "pol_common.h"
#include "sim.h"

#define TIR_TAG_ROUND 1u
#define TIR_TAG_WAKE 2u
#define TIR_MAX_QUEUES 8

struct tfast;

struct tj {
	int64_t exec_us;       /* time run since arrival or the last promotion
				  that reset it (run_sim.py executed_time) */
	int64_t lpend_us;      /* time waited since it first ran or was last
				  promoted (last_pending_time) */
	int64_t since;         /* the current run's start, or -1 */
	int64_t last_run;      /* the last run's length, µs (guard: last-run) */
	int64_t waiting;       /* since when it waits, µs (guard: last-run) */
	int64_t key;           /* its place in its queue: the larger, the later
				  (the full pass's; tiresias_fast.c keeps pos) */
	double w;              /* its GPUs (without: its cores) */
	int q;                 /* its queue */
	int preempted;         /* times */
	bool active;           /* arrived, not ended */
	bool running;          /* holds executors */
	bool going;            /* being preempted */
	/* tiresias_fast.c's */
	bool inset;            /* in its queue's set of waiting jobs */
	int sig;               /* its fit signature */
	int64_t pos;           /* its place: queue, block, sequence */
	int64_t stamp;         /* service and waiting counted up to here */
	uint32_t rej_at, mark; /* the decision that left it out; a scratch mark */
	int *en; int nen, capen; /* the node of each executor it holds */
	int nseen;             /* its executors (sim_job_exec's) read so far */
};

struct tir {
	struct pol_fits fits;
	struct pol_tent t;
	int nq;
	double lim[TIR_MAX_QUEUES]; /* queue k's limit, GPU-s (or core-s); k < nq - 1 */
	bool demote_ref;       /* demotion: reference */
	bool guard_ref;        /* guard: reference (else last-run) */
	bool reset;            /* promote: reset */
	bool order_ref;        /* order: reference (else arrival) */
	bool pool;             /* placement: pool */
	double starve;         /* 0: no guard */
	int max_preempt;       /* -1: no bound */
	int64_t round_us;      /* 0: no rounds */
	int64_t last_us;       /* service counted up to here (the full pass) */
	int64_t key;           /* the last place given (the full pass) */
	int64_t want_us;       /* the wake-up wanted next, -1: none */
	int64_t pushed_us;     /* the last wake-up timer set */
	bool ticking;          /* a round timer is pending */
	struct tj *j;
	int nact;              /* active jobs */
	struct tfast *f;       /* tiresias_fast.c's, NULL: the full pass */
	/* the full pass's */
	int *act; int capact;  /* active jobs, in arrival order */
	struct ord { int q; int waits; int64_t k; int job; } *ord;
	int64_t *pc, *pm, *pg; /* the projection by node */
	bool *keep, *start;    /* by position in ord */
};

/* A job's weight: its GPUs, or without any its cores. */
double tir_weight(const struct sim_job *j);
/* Whether running job t has reached its queue's limit (reference §4
 * step 3, L1045-1054). */
static inline bool tir_over(const struct tir *p, const struct tj *t)
{
	return t->q < p->nq - 1 && t->w * (double)t->exec_us >= p->lim[t->q] * 1e6;
}
/* The guard's verdict on waiting job t of a lower queue. */
bool tir_starved(const struct tir *p, const struct tj *t, int64_t now);
/* The instant job t's queue may change without an event (its demotion
 * or promotion), -1 if none: tiresias.c's wake, job by job. */
int64_t tir_wake_at(const struct tir *p, const struct tj *t, int64_t now);
/* Set the wake-up timer for `want` (-1: none). */
void tir_want(struct tir *p, struct sim *s, int64_t want);

/* tiresias_fast.c */
void tfast_init(struct tir *p, struct sim *s);
void tfast_fini(struct tir *p);
void tfast_arrived(struct tir *p, struct sim *s, int job);
void tfast_finished(struct tir *p, struct sim *s, int job);
void tfast_decide(struct tir *p, struct sim *s);
void tfast_exec_lost(struct tir *p, struct sim *s, int job, const struct sim_exec *x);

#endif
