/* gavel_int.h - the gavel policy's own records, shared by its files
 * (private to policies/gavel*.c; gavel.h: the fast walk's counters,
 * for tests; gavel_lp.h: the program).
 *
 *   gavel.c       the policy (gavel.c's header): jobs and their classes,
 *                 the program solved, the rounds, and fill, the walk
 *                 between rounds over every waiting job: the reference,
 *                 which runs under clu_plain_scan and with resolve > 0
 *   gavel_fill.c  a job placed (first fit through an index per GPU
 *                 model) and fill_fast, the same walk without visiting
 *                 every waiting job: the groups by (class, shape) kept
 *                 at each change of a job (gav_regroup), merged as
 *                 ordered streams
 *
 * gavel.c calls gavel_fill.c, never the reverse (scripts/check-file-cycles).
 */
#ifndef HETSIM_GAVEL_INT_H
#define HETSIM_GAVEL_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "pol_common.h"
#include "pol_oset.h"
#include "sim.h"

#define GAV_MAX_TYPES 64

/* A job, as the policy sees it. */
struct gj {
	bool active;           /* arrived, not ended */
	bool running;          /* holds executors */
	bool going;            /* being preempted */
	int type;              /* the model it runs on, or -1 */
	int cls;               /* its class in the program (gavel_lp.h), -1: none */
	double gpus;           /* s_m: the GPUs it asks for (0: a CPU job) */
	double norm;           /* N_m */
	int64_t since_us;      /* running on `type` since (type >= 0) */
};

/* A (job, model) pair of fill's walk and the rounds, ordered by
 * gav_cmp_pair. */
struct pair {
	double prio, x;
	int64_t arrival;
	int job, type;
};

struct ggrp;    /* gavel_fill.c's */
struct gstream;
struct gav_ix;

struct gav {
	struct pol_fits fits;
	struct pol_tent t;
	int K;                 /* GPU models of the cluster */
	const char *type[GAV_MAX_TYPES];
	double cap[GAV_MAX_TYPES]; /* GPUs of each model */
	double ctot;
	int64_t round_us, resolve_us;
	int64_t solved_us;     /* the last solve, or -1 */
	bool ticking, dirty;
	bool plain;            /* clu_plain_scan: the program solved at every
				  solve, every active job visited, nodes scanned */
	struct gj *j;
	double *tp;            /* by job x model: T */
	int64_t *recv;         /* by job x model: time run there, µs, to since_us */
	/* The active jobs: with resolve > 0 in the order gavel.md states
	 * (sorted at each solve, an ended job's place taken by the last:
	 * act), else in id order, as a set (actb); nact of them. */
	int *act; int nact, capact;
	struct pol_bits actb;
	struct pol_bits want;  /* active jobs that may want executors (a
				  superset, pruned as fill meets them) */
	int next_job;          /* 1 + the last job arrived */
	int seen_below;        /* jobs below it were active at the last solve */
	/* The classes (gavel_lp.h), in order of first arrival, and a hash
	 * of them by (s, a). */
	int C, capc;
	double *ca, *cs, *cx;  /* a (C x K), s, X (C x K) of the last solve */
	int *cn;               /* active jobs of each */
	int *hash; int hcap;   /* class + 1, 0 empty; open addressing */
	bool lp_stale;         /* a class count changed since the program
				  was last solved */
	uint8_t *fm;           /* by shape x model: 0 unknown, 1 + fits_model */
	int nshapes;
	struct pair *pr; int cappr;
	int64_t *pc, *pm, *pg; /* the projection by node */
	bool *done;            /* by job: granted a pair this round */
	bool *moved;           /* ... on a model other than the one it runs on */
	int *node_k;           /* by node: its model's index, -1: none */
	struct gav_ix *ix;     /* K + 1 indexes (ix[0]: k = -1); NULL plain */
	/* By job shape x (K + 1) rules: 1 + the cluster's change count when
	 * a job of that shape holding nothing last did not fit by that rule
	 * (0: none).  A first fit reads only the shape and the nodes' free
	 * amounts, which change only with that count: while it stands, the
	 * next such job does not fit either (fifo's `blocked`, by shape). */
	uint64_t *nofit;
	int64_t solves, lp_solves;
	/* fill_fast (resolve = 0, not plain): the waiting jobs in groups
	 * (struct ggrp), found by a hash of (class, shape); the others that
	 * may want executors in misb; waiting ones that ran in ranb. */
	bool fast;
	struct ggrp *grp; int G, capg;
	int *gh; int ghcap;    /* group + 1, 0 empty; open addressing */
	int *glive; int nlive; /* groups with members */
	int *gnr;              /* by group x model: pol_oset root (pool pn,
				  ids job x K + k), members with no time on k */
	struct pol_oset pa, pn;
	int *jg;               /* by job: its group, -1 */
	uint64_t *jnr;         /* by job: the models of its pn entries */
	struct pol_bits ranb, misb;
	int nran, nmis;
	struct gstream *st; int capst;
	int nwait;             /* jobs in groups */
	/* The last LP_MEMO programs solved: the class counts (C of them)
	 * and the X they gave (C x K); a program is its counts, the rest
	 * being fixed for a class, and a cold solve of it the same bytes. */
	struct gav_memo {
		uint64_t h;
		int C;
		int *cn;
		double *cx;
	} memo[16];
	int memo_next;
};

/* Time job `job` has run on model k, µs, up to now. */
static inline int64_t gav_recv_us(const struct gav *p, int64_t now, int job, int k)
{
	const struct gj *g = &p->j[job];
	int64_t r = p->recv[(size_t)job * (size_t)p->K + (size_t)k];
	return g->running && g->type == k ? r + (now - g->since_us) : r;
}

/* X[job][k] of the last solve: its class's, if it was active then. */
static inline double gav_x_of(const struct gav *p, int job, int k)
{
	int c = p->j[job].cls;
	if (c < 0 || job >= p->seen_below)
		return 0;
	return p->cx[(size_t)c * (size_t)p->K + (size_t)k];
}

/* gavel_fill.c */

/* The indexes and nofit (not plain), fill_fast's groups (fast: resolve
 * = 0, not plain); p->plain, p->resolve_us, p->K, p->nshapes and
 * p->node_k set.  gav_fill_fini frees them. */
void gav_fill_init(struct gav *p, const struct sim *s);
void gav_fill_fini(struct gav *p);
/* Job `job`'s place in fill_fast's groups, from its state now: called
 * whenever its state changes (arrival, launch, preemption, loss, end);
 * nothing unless fast.  O(K log jobs). */
void gav_regroup(struct gav *p, const struct sim *s, int job);
/* qsort's order of pairs: falling priority, then x, arrival, job, model
 * (a total order). */
int gav_cmp_pair(const void *a, const void *b);
/* pol_first_fit_on(&p->t, s, j, -1, model k or NULL for k < 0): whether
 * job j's wanted executors fit, tentatively placed in p->t. */
bool gav_first_fit(struct gav *p, const struct sim *s, const struct sim_job *j, int k);
/* Job `job` launched on model k if it fits (gav_first_fit), and
 * regrouped; its clock there restarted unless it runs there already
 * (a lost executor's replacement). */
bool gav_launch(struct gav *p, struct sim *s, int job, int k);
/* gavel.c's fill, the same launches, where every active job was seen by
 * the last solve (fast). */
void gav_fill_fast(struct gav *p, struct sim *s);

#endif
