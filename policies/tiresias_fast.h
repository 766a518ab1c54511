/* tiresias_fast.h - what tiresias_fast.c (the events, requeueing, the
 * decision) and tiresias_pass.c (the projection and the pass) share:
 * places, fit signatures, struct tfast.  Private to the two; the
 * header comment of tiresias_fast.c says how the decisions are kept.
 */
#ifndef HETSIM_TIRESIAS_FAST_H
#define HETSIM_TIRESIAS_FAST_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "pol_bits.h"
#include "pol_common.h"
#include "pol_firstfit.h"
#include "pol_heap.h"
#include "pol_index.h"
#include "pol_iset.h"
#include "pol_moved.h"
#include "sim.h"
#include "tiresias_int.h"
#include "util.h"

/* pos: queue << 45 | (block + 1) << 42 | (sequence + 2^41) */
#define SEQ_BIAS ((int64_t)1 << 41)
static inline int64_t mkpos(int q, int blk, int64_t seq)
{
	return ((int64_t)q << 45) + ((int64_t)(blk + 1) << 42) + seq + SEQ_BIAS;
}
static inline int blk_of(int64_t pos)
{
	return (int)((pos >> 42) & 7) - 1;
}
/* The first place of block blk of queue q (blk 3: the next queue's). */
static inline int64_t blk_start(int q, int blk)
{
	return mkpos(q, blk, -SEQ_BIAS);
}

/* A fit signature: what pol_proj_pack reads of a waiting job. */
struct tsig {
	int nroles;
	struct { int count, cores; int64_t mem, gm; } role[2];
	int root[TIR_MAX_QUEUES]; /* its waiting jobs by queue (pol_iset) */
	int at[TIR_MAX_QUEUES];   /* its index in live[q], -1: root[q] empty */
	int next;                 /* its candidate in the segment scanned */
	struct pol_iset_iter it;  /* and the walk that found it */
	/* Past the trees: where its first executor last fitted no node in a
	 * segment of queue q, tfast.moved's stamp then + 1 (0: not known
	 * to miss). */
	uint64_t miss[TIR_MAX_QUEUES];
};

struct ent { int job, cores; int64_t mem, gm; }; /* a running job's executor */

struct list { int *v; int n, cap; };

static inline void push(struct list *l, int x)
{
	xgrow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = x;
}

struct tfast {
	struct pol_ix proj;      /* by executor shape: nodes whose free amounts
				    hold it (pol_proj_free's) */
	struct pol_ff start;     /* pol_first_fit's, with the tentative ones */
	struct pol_bits active;  /* active jobs, by id (arrival order) */
	struct pol_iset_pool os;
	struct pol_heap dem;     /* running jobs by the instant they are over */
	struct pol_heap chk;     /* this pass: jobs to visit, by pos */
	struct pol_heap sh;      /* this segment: signatures by their next job */
	int64_t hi, lo, lo0;     /* the sequences given last: up, and down in
				    blocks 1 and 0 */
	uint32_t dec;            /* decisions */
	int nj;                  /* jobs */
	struct tsig *sig; int nsig, capsig;
	struct list live[TIR_MAX_QUEUES]; /* by queue: the signatures with
				    waiting jobs there, in no order (a pass
				    walks these, not every signature ever
				    made: on a trace whose jobs have shapes
				    of their own that is every job ever) */
	int *sig_of_shape;       /* by sim_shape id, -1: not seen */
	int *hslot; int hcap;    /* signatures by a hash of their content */
	struct ent **ne; int *nne, *capne; /* by node: running jobs' executors */
	int64_t *rs;             /* by queue x node x 3: their milli-cores, MiB,
				    milli-GPUs */
	struct pol_ix lvl[TIR_MAX_QUEUES]; /* q < nq - 1: by executor shape,
				    nodes whose free amounts plus the later
				    queues' running jobs' hold it */
	struct lvctx { const struct tir *p; int q; } lctx[TIR_MAX_QUEUES];
	struct pol_bits spec;    /* this pass: nodes packed or freed, tail's */
	struct list specl;       /* those nodes */
	int64_t *pkc, *pkm, *pkg;/* by node: packed in this pass */
	int64_t *cq;             /* by node x 3: proj_at's amounts in the
				    segment seg (a segment passes no running
				    job: they change only by take) */
	uint32_t *cq_at, seg;
	int64_t ub[3];           /* in segment ub_at: at least the most any
				    node has of each amount there (the most
				    seen by first_fit's last scan of every
				    node; amounts only shrink in a segment) */
	uint32_t ub_at;
	int ov_q;                /* the level whose trees hold the special
				    nodes' amounts in this segment, -1 none */
	int64_t ov_cur;          /* the segment's first place */
	/* Its trees take those amounts lazily: the special nodes in the order
	 * their amounts changed in the segment (ovl), and per tree (by shape)
	 * how much of that list it has read (ovr); a tree reads the rest just
	 * before it answers (ov_flush), so a node packed again and again
	 * between two questions to a tree is keyed there once, and a tree
	 * asked nothing in the segment not at all.  A node is listed again
	 * only once some tree has read its last entry (ov_last, valid where
	 * ov_at is the segment); ov_first: its first entry. */
	/* take()'s walk over a node's running jobs, last made in pass
	 * tk_at at place tk_cur: a pass goes forward (no job at or after a
	 * place is visited before the pass reaches it), so a take there at or
	 * after tk_cur would push again only jobs chk holds already, at the
	 * same keys: it skips the walk. */
	uint32_t *tk_at, npass;
	int64_t *tk_cur;
	struct list ovl;
	int ovr[POL_IX_MAX_SHAPES], ov_maxr;
	int *ov_first, *ov_last;
	uint32_t *ov_at;
	int ntail[TIR_MAX_QUEUES];
	struct list tail;        /* demoted this decision (block 2, running) */
	struct list rekey;       /* waiting since the last decision in blocks <= 0 */
	struct list want;        /* running jobs that lost an executor */
	struct list started, rejected, tmp;
	/* The nodes by when their level amounts may last have moved: in the
	 * cluster, by a later queue's running executors counted in or out
	 * (count), or as a pass's special node (at its end). */
	struct pol_moved moved;
	struct list missl;       /* segment: the signatures that missed before */
	bool scanned;            /* first_fit's last try with a signature
				    went the scan's way, past the trees */
};

static inline bool runner(const struct tj *t)
{
	return t->active && t->running && !t->going;
}

/* tiresias_pass.c */
/* The pass of a decision (tiresias.c's decide): every job that can decide
 * something visited, in place order. */
void tfast_scan(struct tir *p, struct sim *s);
/* The projection's key (proj), and a level's (lvl, ctx a struct lvctx). */
double tfast_proj_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
		      const struct pol_shape *sh);
double tfast_lvl_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
		     const struct pol_shape *sh);

#endif
