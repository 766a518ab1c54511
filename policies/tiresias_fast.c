/* tiresias_fast.c - tiresias's decisions (tiresias.c's header), kept
 * incrementally: every decision equals the full pass's (tiresias.c,
 * decide), which tests/scenarios/hand/index-tiresias.yaml checks against
 * clu_plain_scan.  What the full pass rebuilds at every decision, and
 * what stands for it here:
 *
 * - Service and waiting: counted job by job when read or when the job
 *   changes state (a job's counts change only with its state, so the
 *   sums are the same integers).
 * - The order (queue, then place): a job's place `pos` is (queue, block,
 *   sequence).  The full pass renumbers every job at each decision, a
 *   queue's running jobs before its waiting ones, each in their order;
 *   the blocks keep that order without the renumbering: block 0 the
 *   running jobs as of the last decision, 1 the waiting ones, 2 the
 *   queue's tail (entered since: arrivals, demotions, promotions), and -1
 *   the jobs still being preempted at a decision (the full pass skips
 *   them, so their old numbers come before every renumbered one).  At the
 *   end of a decision only the jobs that changed move: those started and
 *   the tail's running ones to block 0's end, those that stopped to
 *   block 1's front, in the pass's order (`order: arrival`: block 0 the
 *   running, 1 the waiting, by arrival).  Each queue's waiting jobs of
 *   one fit signature (their executors' shapes) are an ordered set
 *   (pol_iset.h).
 * - The projection (every running job's resources free): never built.
 *   At a place c of the pass, node n has free F(n), the cluster's, plus
 *   the executors there of running jobs not yet passed (or left out),
 *   less what jobs taken in this pass packed there.  In queue q's waiting
 *   blocks that is level q: F(n) plus what the later queues' running
 *   jobs hold on n (sums kept by queue and node), except on the special
 *   nodes: packed or freed in this pass, or holding the queue's tail.  A
 *   first-fit index by executor shape of each level (pol_index.h, keyed
 *   by a level's amounts and re-keyed as running jobs come and go) finds
 *   the first node where an executor fits; while a segment of waiting
 *   jobs is scanned, the special nodes are keyed in it by their projected
 *   amounts (cached: within a segment they change only by packing), in
 *   each tree just before it answers (a node packed again and again in
 *   between is keyed there once), and put back at its end.  Elsewhere (a job among running ones) the
 *   special nodes before the index's winner are read one by one.
 * - The pass: only what can decide something is visited.  A running job
 *   can be left out only on a node a waiting job packed in this pass (or
 *   it wants a replacement executor): those are visited, in order; every
 *   other running job is kept.  A waiting job is tried; once one of a
 *   signature does not fit at all (nothing packed), none of that
 *   signature fits in the rest of its run of waiting jobs (there the
 *   projection only shrinks), so the rest are passed over through the
 *   ordered sets.  Waiting jobs among a queue's running
 *   ones (an executor lost, a preemption that took time) are placed
 *   against the projection node by node (rare).
 * - Demotions: running jobs in a heap by the instant their service
 *   reaches their queue's limit (pol_heap.h); the wake-up is the least
 *   of those instants, recomputed by tiresias.c's formula for the few
 *   within microseconds of it.
 *
 * Cost per decision: O(k log n) for the k jobs whose state or place
 * changes, plus O(S x Q) for the S signatures with waiting jobs in the Q
 * queues, plus O((P + 1) x S x e log64 nodes) for the P jobs tried after
 * something packed (e executors each), plus O(shapes x log64 nodes) for
 * each node packed, freed, or whose running jobs change (past
 * POL_IX_MAX_SHAPES shapes, no tree: O(nodes) a try on the segment's
 * cached amounts, after an O(1) check against the most any node had;
 * a signature that missed reads only the nodes moved since its miss
 * (struct tsig.miss, pol_moved.h's list of nodes), left out of a
 * segment at once where none of those fits, a whole scan when more
 * than a quarter moved;
 * 4 000 pods each of its own memory on 20 nodes: 1.5 s, the full pass
 * 1.2 s, 8.6 s when a try read every executor on every node); a waiting job
 * among running ones costs O(nodes x executors on a node).  With
 * `starve` > 0 the guard's promotions and the wake-up read every active
 * job (O(jobs) a decision), and with `demotion: reference` the wake-up
 * reads every running job below the last queue.
 */
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
static int64_t mkpos(int q, int blk, int64_t seq)
{
	return ((int64_t)q << 45) + ((int64_t)(blk + 1) << 42) + seq + SEQ_BIAS;
}
static int blk_of(int64_t pos)
{
	return (int)((pos >> 42) & 7) - 1;
}
/* The first place of block blk of queue q (blk 3: the next queue's). */
static int64_t blk_start(int q, int blk)
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

static void push(struct list *l, int x)
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

/* ---- service, counted job by job ------------------------------------- */

static void sync(struct tj *t, int64_t now)
{
	int64_t dt = now - t->stamp;
	if (t->running && !t->going)
		t->exec_us += dt;
	else if (!t->running && t->exec_us > 0)
		t->lpend_us += dt;
	t->stamp = now;
}

static bool runner(const struct tj *t)
{
	return t->active && t->running && !t->going;
}

/* Its demotion instant in the heap: when w x service first reaches the
 * limit, as tir_over computes it. */
static void dem_update(struct tir *p, int job, int64_t now)
{
	struct tfast *f = p->f;
	struct tj *t = &p->j[job];
	if (!runner(t) || t->q >= p->nq - 1 || !isfinite(p->lim[t->q]) || !(t->w > 0)) {
		pol_heap_remove(&f->dem, job);
		return;
	}
	sync(t, now);
	double L = p->lim[t->q] * 1e6, e = ceil(L / t->w);
	int64_t E = e > 4e18 ? (int64_t)4e18 : e < 0 ? 0 : (int64_t)e;
	while (E > 0 && t->w * (double)(E - 1) >= L)
		E--;
	while (!(t->w * (double)E >= L))
		E++;
	pol_heap_set(&f->dem, job, now + (E - t->exec_us));
}

/* ---- signatures -------------------------------------------------------- */

static bool sig_eq(const struct tsig *a, const struct tsig *b)
{
	if (a->nroles != b->nroles)
		return false;
	for (int r = 0; r < a->nroles; r++)
		if (a->role[r].count != b->role[r].count || a->role[r].cores != b->role[r].cores ||
		    a->role[r].mem != b->role[r].mem || a->role[r].gm != b->role[r].gm)
			return false;
	return true;
}

static uint64_t sig_hash(const struct tsig *g)
{
	uint64_t h = 1469598103934665603u;
	for (int r = 0; r < g->nroles; r++) {
		uint64_t v[4] = {(uint64_t)g->role[r].count, (uint64_t)g->role[r].cores,
				 (uint64_t)g->role[r].mem, (uint64_t)g->role[r].gm};
		for (int k = 0; k < 4; k++)
			h = (h ^ v[k]) * 1099511628211u;
	}
	return h ^ (h >> 29);
}

static void sig_rehash(struct tfast *f)
{
	free(f->hslot);
	f->hcap = f->hcap ? 2 * f->hcap : 64;
	f->hslot = xmalloc((size_t)f->hcap * sizeof *f->hslot);
	memset(f->hslot, 0xff, (size_t)f->hcap * sizeof *f->hslot);
	for (int i = 0; i < f->nsig; i++) {
		uint64_t h = sig_hash(&f->sig[i]);
		while (f->hslot[h & (uint64_t)(f->hcap - 1)] >= 0)
			h++;
		f->hslot[h & (uint64_t)(f->hcap - 1)] = i;
	}
}

/* The signature of a job that holds nothing: its roles' counts and shapes
 * as pol_proj_pack reads them. */
static int sig_of(struct tfast *f, const struct sim_job *j)
{
	int *cached = &f->sig_of_shape[j->shape->id];
	if (*cached >= 0)
		return *cached;
	struct tsig g = {.nroles = j->shape->nroles};
	for (int r = 0; r < g.nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		g.role[r].count = ro->count;
		g.role[r].cores = ro->cores ? ro->cores : CLU_MILLI;
		g.role[r].mem = ro->mem_mib;
		g.role[r].gm = ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli;
	}
	if (2 * (f->nsig + 1) > f->hcap)
		sig_rehash(f);
	uint64_t h = sig_hash(&g);
	for (;; h++) {
		int *slot = &f->hslot[h & (uint64_t)(f->hcap - 1)];
		if (*slot < 0) {
			for (int q = 0; q < TIR_MAX_QUEUES; q++)
				g.root[q] = g.at[q] = -1;
			xgrow(&f->sig, &f->capsig, f->nsig + 1, sizeof *f->sig);
			f->sig[f->nsig] = g;
			*slot = f->nsig++;
			return *cached = *slot;
		}
		if (sig_eq(&f->sig[*slot], &g))
			return *cached = *slot;
	}
}

/* Into or out of its queue's set of waiting jobs. */
static void set_in(struct tir *p, int job)
{
	struct tj *t = &p->j[job];
	struct tsig *g = &p->f->sig[t->sig];
	if (!t->inset) {
		pol_iset_insert(&p->f->os, &g->root[t->q], job, t->pos);
		if (g->at[t->q] < 0) {
			g->at[t->q] = p->f->live[t->q].n;
			push(&p->f->live[t->q], t->sig);
		}
	}
	t->inset = true;
}

static void set_out(struct tir *p, int job)
{
	struct tj *t = &p->j[job];
	struct tsig *g = &p->f->sig[t->sig];
	if (t->inset) {
		pol_iset_erase(&p->f->os, &g->root[t->q], job);
		if (g->root[t->q] < 0) { /* out of live[q]: the last in its slot */
			struct list *l = &p->f->live[t->q];
			int last = l->v[--l->n];
			l->v[g->at[t->q]] = last;
			p->f->sig[last].at[t->q] = g->at[t->q];
			g->at[t->q] = -1;
		}
	}
	t->inset = false;
}

/* A waiting job's new place; in its set if its block is 1 or 2 (in
 * blocks -1 and 0 it waits among running jobs: visited one by one). */
static void wait_at(struct tir *p, int job, int64_t pos)
{
	set_out(p, job);
	p->j[job].pos = pos;
	if (blk_of(pos) >= 1)
		set_in(p, job);
	else
		push(&p->f->rekey, job);
}

/* ---- running jobs' executors by node --------------------------------- */

/* Executor e of a job of queue q on node, counted in (sign +1) or out of
 * the later queues' sums the levels read. */
static void count(struct tir *p, int q, int node, const struct ent *e, int sign)
{
	struct tfast *f = p->f;
	int64_t *r = &f->rs[((size_t)q * (size_t)f->proj.c->n + (size_t)node) * 3];
	r[0] += sign * e->cores, r[1] += sign * e->mem, r[2] += sign * e->gm;
	pol_moved_touch(&f->moved, node);
	for (int k = 0; k < q; k++)
		pol_ix_rekey(&f->lvl[k], node);
}

static void ent_add(struct tir *p, int job, int node, int cores, int64_t mem, int64_t gm)
{
	struct tfast *f = p->f;
	struct tj *t = &p->j[job];
	xgrow(&f->ne[node], &f->capne[node], f->nne[node] + 1, sizeof **f->ne);
	f->ne[node][f->nne[node]++] = (struct ent){job, cores, mem, gm};
	xgrow(&t->en, &t->capen, t->nen + 1, sizeof *t->en);
	t->en[t->nen++] = node;
	count(p, t->q, node, &f->ne[node][f->nne[node] - 1], +1);
}

/* One executor of job on node (any, if cores < 0), out of the lists. */
static void ent_del(struct tir *p, int job, int node, int cores, int64_t mem, int64_t gm)
{
	struct tfast *f = p->f;
	struct tj *t = &p->j[job];
	struct ent *e = f->ne[node];
	for (int i = 0; i < f->nne[node]; i++)
		if (e[i].job == job && (cores < 0 || (e[i].cores == cores && e[i].mem == mem &&
						      e[i].gm == gm))) {
			struct ent gone = e[i];
			e[i] = e[--f->nne[node]];
			count(p, t->q, node, &gone, -1);
			break;
		}
	for (int i = 0; i < t->nen; i++)
		if (t->en[i] == node) {
			t->en[i] = t->en[--t->nen];
			break;
		}
}

static void ents_clear(struct tir *p, int job)
{
	struct tj *t = &p->j[job];
	while (t->nen > 0)
		ent_del(p, job, t->en[t->nen - 1], -1, 0, 0);
}

/* Its executors as they are now: those live.  The lists hold its live
 * executors already read (each one lost or stopped is taken out as it
 * goes: tfast_exec_lost, ents_clear), and an executor is launched after
 * every one read, so only those since the last read are added: a restart
 * costs its own executors, not every one the job ever had. */
static void ents_load(struct tir *p, struct sim *s, int job)
{
	const struct sim_job *j = sim_job(s, job);
	int x = p->j[job].nseen;
	p->j[job].nseen = sim_job_nexecs(j);
	for (; x < sim_job_nexecs(j); x++) {
		const struct sim_exec *e = sim_job_exec(s, j, x);
		if (e && e->live)
			ent_add(p, job, e->node, e->cores, e->mem_mib,
				e->gpu_milli ? e->gpu_milli : (int64_t)e->gpus * CLU_GPU_MILLI);
	}
}

/* ---- the projection ---------------------------------------------------- */

/* Node n's free amounts at place `cur` of the pass: the cluster's, its
 * running jobs' not yet passed or left out, less what was packed. */
static void proj_at(const struct tir *p, const struct clu *c, int node, int64_t cur,
		    int64_t *qc, int64_t *qm, int64_t *qg)
{
	const struct tfast *f = p->f;
	const struct clu_node *n = &c->nodes[node];
	*qc = n->cores_free > 0 ? n->cores_free : 0;
	*qm = n->mem_free;
	*qg = pol_gpu_milli_free(NULL, n);
	for (int i = 0; i < f->nne[node]; i++) {
		const struct ent *e = &f->ne[node][i];
		const struct tj *t = &p->j[e->job];
		if (t->pos >= cur || t->rej_at == f->dec)
			*qc += e->cores, *qm += e->mem, *qg += e->gm;
	}
	*qc -= f->pkc[node], *qm -= f->pkm[node], *qg -= f->pkg[node];
}

/* Whether sh fits a node's amounts v (cores, memory, milli-GPUs). */
static inline bool v_fits(const int64_t *v, const struct pol_shape *sh)
{
	return v[0] >= sh->cores && v[1] >= sh->mem_mib && v[2] >= sh->gpu_milli;
}

static bool fits_at(const struct tir *p, const struct clu *c, int node, int64_t cur,
		    const struct pol_shape *sh)
{
	int64_t v[3];
	proj_at(p, c, node, cur, &v[0], &v[1], &v[2]);
	return v_fits(v, sh);
}

/* proj_at in the current segment, through the cache.  A node not
 * special is at its level's amounts there (the header's "projection"):
 * its free amounts plus the later queues' sums, O(queues), where
 * proj_at reads each executor on it. */
static const int64_t *q_seg(const struct tir *p, const struct clu *c, int node)
{
	struct tfast *f = p->f;
	int64_t *v = &f->cq[(size_t)node * 3];
	if (f->cq_at[node] != f->seg) {
		if (f->ov_q >= 0 && !pol_bits_has(&f->spec, node)) {
			const struct clu_node *n = &c->nodes[node];
			v[0] = n->cores_free > 0 ? n->cores_free : 0;
			v[1] = n->mem_free;
			v[2] = pol_gpu_milli_free(NULL, n);
			for (int k = f->ov_q + 1; k < p->nq; k++) {
				const int64_t *r = &f->rs[((size_t)k * (size_t)c->n + (size_t)node) * 3];
				v[0] += r[0], v[1] += r[1], v[2] += r[2];
			}
		} else {
			proj_at(p, c, node, f->ov_cur, &v[0], &v[1], &v[2]);
		}
		f->cq_at[node] = f->seg;
	}
	return v;
}

static struct pol_ix *level(struct tir *p, int q)
{
	return q < p->nq - 1 ? &p->f->lvl[q] : &p->f->proj;
}

/* Node's projected amounts changed in the segment: each of its level's
 * trees is to key it anew before its next answer. */
static void ov_mark(struct tfast *f, int node)
{
	if (f->ov_at[node] == f->seg && f->ov_last[node] >= f->ov_maxr)
		return; /* listed, and no tree has read that entry yet */
	if (f->ov_at[node] != f->seg)
		f->ov_first[node] = f->ovl.n;
	f->ov_at[node] = f->seg;
	f->ov_last[node] = f->ovl.n;
	push(&f->ovl, node);
}

/* Tree k of the segment's level, the special nodes keyed in it by their
 * projected amounts (cached: within a segment they change only by
 * packing, which lists the node again). */
static void ov_flush(struct tir *p, const struct clu *c, int k)
{
	struct tfast *f = p->f;
	struct pol_ix_shape *sp = level(p, f->ov_q)->shapes[k];
	for (int i = f->ovr[k]; i < f->ovl.n; i++) {
		int node = f->ovl.v[i];
		pol_tree_set(&sp->tree, node, v_fits(q_seg(p, c, node), &sp->sh) ? 0 : INFINITY);
	}
	f->ovr[k] = f->ovl.n;
	if (f->ov_maxr < f->ovl.n)
		f->ov_maxr = f->ovl.n;
}

/* A segment of queue q from place cur: its level's trees answer for the
 * special nodes too (ov_flush; ov_end puts them back at its end). */
static void ov_begin(struct tir *p, int q, int64_t cur)
{
	struct tfast *f = p->f;
	f->seg++; /* a fresh cache */
	f->ov_q = q;
	f->ov_cur = cur;
	struct pol_ix *ix = level(p, q);
	if (ix->nshapes) /* caught up with the cluster first: its catching up
			    would key special nodes by their free amounts */
		pol_ix_tree(ix, &ix->shapes[0]->sh);
	f->ovl.n = 0;
	memset(f->ovr, 0, sizeof f->ovr); /* (a tree made in the segment too) */
	f->ov_maxr = 0;
	for (int i = 0; i < f->specl.n; i++)
		ov_mark(f, f->specl.v[i]);
}

/* The special nodes back at their level's amounts in the trees that read
 * them (once each, however often listed); the others never left them. */
static void ov_end(struct tir *p)
{
	struct tfast *f = p->f;
	if (f->ov_q < 0)
		return;
	struct pol_ix *ix = level(p, f->ov_q);
	for (int i = 0; i < f->specl.n; i++) {
		int node = f->specl.v[i];
		if (f->ov_at[node] != f->seg)
			continue; /* (special after the segment's end: none) */
		for (int k = 0; k < ix->nshapes; k++)
			if (f->ov_first[node] < f->ovr[k])
				pol_ix_rekey_shape(ix, k, node);
	}
	f->ov_q = -1;
}

static void special(struct tfast *f, int node)
{
	if (!pol_bits_has(&f->spec, node)) {
		pol_bits_put(&f->spec, node, true);
		push(&f->specl, node);
	}
}

/* pol_proj_free's amounts hold shape sh (gpu_milli: all its milli-GPUs). */
static double proj_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
		       const struct pol_shape *sh)
{
	(void)ctx, (void)fg;
	return (fc > 0 ? fc : 0) >= sh->cores && fm >= sh->mem_mib &&
			       pol_gpu_milli_free(NULL, n) >= sh->gpu_milli
		       ? 0
		       : INFINITY;
}

/* A level's key: proj_key on the node's free amounts plus what the
 * running jobs of the queues after q hold there. */
static double lvl_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
		      const struct pol_shape *sh)
{
	const struct lvctx *l = ctx;
	const struct tfast *f = l->p->f;
	int64_t c = fc > 0 ? fc : 0, m = fm, g = pol_gpu_milli_free(NULL, n);
	(void)fg;
	for (int k = l->q + 1; k < l->p->nq; k++) {
		const int64_t *r = &f->rs[((size_t)k * (size_t)f->proj.c->n + (size_t)n->id) * 3];
		c += r[0], m += r[1], g += r[2];
	}
	return c >= sh->cores && m >= sh->mem_mib && g >= sh->gpu_milli ? 0 : INFINITY;
}

/* A segment's try of signature g's first executor past the trees, whose
 * last try in a segment of queue q fitted no node: the first node that
 * fits now, looking only at the nodes whose level amounts may have moved
 * since (the list's head down to that stamp) and the special ones; any
 * other is at the level's amounts it had then, where it did not fit.
 * -2 where more than a quarter of the nodes (and 8) moved since (a scan
 * then). */
static int fit_since(struct tir *p, const struct clu *c, const struct pol_shape *sh, int g, int q)
{
	struct tfast *f = p->f;
	uint64_t at = f->sig[g].miss[q] - 1;
	int best = -1, seen = 0;
	const struct pol_moved *m = &f->moved;
	for (int i = m->head; i >= 0 && m->at[i] > at; i = m->next[i]) {
		if (++seen > c->n / 4 + 8)
			return -2;
		if (best >= 0 && i >= best)
			continue;
		if (v_fits(q_seg(p, c, i), sh))
			best = i;
	}
	for (int k = 0; k < f->specl.n; k++) {
		int i = f->specl.v[k];
		if (best >= 0 && i >= best)
			continue;
		if (v_fits(q_seg(p, c, i), sh))
			best = i;
	}
	return best;
}

/* The first node where sh fits the projection at `cur`, of queue q's
 * blocks 1 and 2 (`fast`: every running job of q but the tail's is
 * passed, so a node not special is as level q has it; in a segment the
 * level's trees answer for the special ones too), or any place (node by
 * node). */
static int first_fit(struct tir *p, const struct clu *c, const struct pol_shape *sh, int64_t cur,
		     bool fast, int g)
{
	int q = (int)(cur >> 45);
	struct tfast *f = p->f;
	/* a miss is of a shape its level had no tree for, and never will */
	bool missed = g >= 0 && f->sig[g].miss[q];
	f->scanned = false;
	const struct pol_tree *tr = !fast || missed
		? NULL : pol_ix_tree(q < p->nq - 1 ? &f->lvl[q] : &f->proj, sh);
	if (tr && f->ov_q >= 0) { /* its special nodes first */
		struct pol_ix *ix = level(p, q);
		int k = 0;
		while (&ix->shapes[k]->tree != tr)
			k++;
		ov_flush(p, c, k);
		return pol_tree_min(tr, 0, c->n);
	}
	if (!tr && f->ov_q == q) { /* no tree (past POL_IX_MAX_SHAPES shapes:
				      jobs of shapes of their own): in a
				      segment every node's amounts are
				      q_seg's, O(1) a node where proj_at
				      reads its executors */
		if (f->ub_at != f->seg) {
			f->ub[0] = f->ub[1] = f->ub[2] = INT64_MAX;
			f->ub_at = f->seg;
		}
		if (sh->cores > f->ub[0] || sh->mem_mib > f->ub[1] || sh->gpu_milli > f->ub[2])
			return -1; /* no node has that much */
		int got = missed ? fit_since(p, c, sh, g, q) : -2;
		if (got != -2)
			return got;
		f->scanned = g >= 0; /* a miss of g's is one past the trees */
		pol_work.tir_scans++;
		int64_t mx[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
		for (int i = 0; i < c->n; i++) {
			const int64_t *v = q_seg(p, c, i);
			if (v_fits(v, sh))
				return i;
			for (int d = 0; d < 3; d++)
				mx[d] = v[d] > mx[d] ? v[d] : mx[d];
		}
		memcpy(f->ub, mx, sizeof mx);
		return -1;
	}
	if (!tr) {
		for (int i = 0; i < c->n; i++)
			if (fits_at(p, c, i, cur, sh))
				return i;
		return -1;
	}
	int a = pol_tree_min(tr, 0, c->n);
	while (a >= 0 && pol_bits_has(&f->spec, a))
		a = pol_tree_min(tr, a + 1, c->n);
	for (int i = pol_bits_next(&f->spec, 0); i >= 0 && (a < 0 || i < a);
	     i = pol_bits_next(&f->spec, i + 1))
		if (fits_at(p, c, i, cur, sh))
			return i;
	return a;
}

/* Take an executor's amounts at node from the projection at `cur`: the
 * node is special now, and the running jobs after `cur` there are to be
 * visited (they may not fit any more). */
static void take(struct tir *p, int node, int64_t cur, const struct pol_shape *sh)
{
	struct tfast *f = p->f;
	f->pkc[node] += sh->cores, f->pkm[node] += sh->mem_mib, f->pkg[node] += sh->gpu_milli;
	if (f->cq_at[node] == f->seg) {
		int64_t *v = &f->cq[(size_t)node * 3];
		v[0] -= sh->cores, v[1] -= sh->mem_mib, v[2] -= sh->gpu_milli;
	}
	special(f, node);
	if (f->ov_q >= 0)
		ov_mark(f, node);
	if (f->tk_at[node] == f->npass && f->tk_cur[node] <= cur)
		return;
	f->tk_at[node] = f->npass;
	f->tk_cur[node] = cur;
	for (int i = 0; i < f->nne[node]; i++) {
		int job = f->ne[node][i].job;
		if (p->j[job].pos >= cur)
			pol_heap_set(&f->chk, job, p->j[job].pos);
	}
}

/* pol_proj_pack at `cur`: 2 all placed, 1 some, 0 none (the projection
 * keeps what was placed, as pol_proj_pack's). */
static int pack(struct tir *p, struct sim *s, int job, int64_t cur, bool fast, int g)
{
	const struct clu *c = sim_cluster(s);
	const struct sim_job *j = sim_job(s, job);
	int placed = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		struct pol_shape sh = {ro->cores ? ro->cores : CLU_MILLI, ro->mem_mib, 0,
				       ro->gpus ? ro->gpus * CLU_GPU_MILLI : ro->gpu_milli};
		for (int k = j->live->granted[r]; k < ro->count; k++) {
			int node = first_fit(p, c, &sh, cur, fast, placed ? -1 : g);
			if (node < 0)
				return placed ? 1 : 0;
			take(p, node, cur, &sh);
			placed++;
		}
	}
	return 2;
}

/* ---- the pass ---------------------------------------------------------- */

/* A job visited one by one: a running job kept if its executors still fit
 * where they are (then a replacement packed if it lost one), else left
 * out; a waiting one packed. */
static void visit(struct tir *p, struct sim *s, int job)
{
	struct tfast *f = p->f;
	struct tj *t = &p->j[job];
	const struct clu *c = sim_cluster(s);
	if (!t->running) {
		if (pack(p, s, job, t->pos, blk_of(t->pos) >= 1, -1) == 2)
			push(&f->started, job);
		return;
	}
	for (int i = 0; i < t->nen; i++) {
		int64_t qc, qm, qg;
		proj_at(p, c, t->en[i], t->pos + 1, &qc, &qm, &qg); /* itself passed */
		if (qc < 0 || qm < 0 || qg < 0) {
			t->rej_at = f->dec;
			push(&f->rejected, job);
			for (int k = 0; k < t->nen; k++)
				special(f, t->en[k]);
			return;
		}
	}
	if (sim_execs_wanted(sim_job(s, job)) > 0 && pack(p, s, job, t->pos + 1, false, -1) == 2)
		push(&f->started, job);
}

static void drain(struct tir *p, struct sim *s, int64_t below)
{
	struct tfast *f = p->f;
	int job;
	while ((job = pol_heap_top(&f->chk)) >= 0 && f->chk.key[job] < below) {
		pol_heap_pop(&f->chk);
		visit(p, s, job);
	}
}

/* Signature g's next waiting job in the segment (below `below`): the
 * first from `from` (first), or the one after its last. */
static void sig_cand(struct tir *p, int g, int q, int64_t from, int64_t below, bool first)
{
	struct tfast *f = p->f;
	struct tsig *sg = &f->sig[g];
	int job = first ? pol_iset_first(&f->os, sg->root[q], from, &sg->it)
			: pol_iset_next(&f->os, &sg->it);
	if (job >= 0 && p->j[job].pos < below) {
		sg->next = job;
		pol_heap_set(&f->sh, g, p->j[job].pos);
	}
}

/* fit_since for signature g's first executor, which missed in queue q,
 * on the segment's projection now: a node, -1 none, -2 not known. */
static int sig_may_fit(struct tir *p, const struct clu *c, int g, int q)
{
	const struct tsig *sg = &p->f->sig[g];
	int r = sg->role[0].count > 0 ? 0 : 1;
	struct pol_shape sh = {sg->role[r].cores, sg->role[r].mem, 0, sg->role[r].gm};
	return fit_since(p, c, &sh, g, q);
}

/* Block blk of queue q, waiting jobs only: each signature's jobs in turn,
 * merged by place.  A segment passes no running job and frees nothing, so
 * the projection only shrinks in it: an executor that fits no node still
 * fits none later, and a signature whose job packed nothing (its first
 * executor fits nowhere) is done for the segment. */
static void segment(struct tir *p, struct sim *s, int q, int blk)
{
	struct tfast *f = p->f;
	const struct clu *c = sim_cluster(s);
	int64_t lo = blk_start(q, blk), hi = blk_start(q, blk + 1);
	pol_heap_clear(&f->sh);
	f->missl.n = 0;
	for (int i = 0; i < f->live[q].n; i++) { /* (the heap orders them) */
		int g = f->live[q].v[i];
		if (f->sig[g].miss[q])
			push(&f->missl, g); /* missed before: below */
		else
			sig_cand(p, g, q, lo, hi, true);
	}
	if (!f->sh.n && !f->missl.n)
		return;
	pol_moved_sync(&f->moved);
	ov_begin(p, q, lo);
	pol_work.tir_missed += (uint64_t)f->missl.n;
	for (int i = 0; i < f->missl.n; i++) {
		int g = f->missl.v[i];
		/* one that missed, and fits no node now, packs nothing in the
		 * segment (its amounts only shrink): left out, its miss now */
		if (sig_may_fit(p, c, g, q) == -1) {
			f->sig[g].miss[q] = f->moved.stamp + 1;
			pol_work.tir_left_out++;
		} else
			sig_cand(p, g, q, lo, hi, true);
	}
	int g;
	while ((g = pol_heap_pop(&f->sh)) >= 0) {
		int job = f->sig[g].next;
		int64_t cur = p->j[job].pos;
		/* past the trees, a signature's misses are kept (fit_since) */
		f->scanned = false;
		int r = pack(p, s, job, cur, true, g);
		if (r == 0 && (f->scanned || f->sig[g].miss[q]))
			f->sig[g].miss[q] = f->moved.stamp + 1;
		if (r == 2)
			push(&f->started, job);
		if (r > 0)
			sig_cand(p, g, q, cur + 1, hi, false);
	}
	ov_end(p);
}

static void scan(struct tir *p, struct sim *s)
{
	struct tfast *f = p->f;
	f->npass++; /* (take's walks) */
	for (int i = 0; i < f->want.n; i++) {
		int job = f->want.v[i];
		if (runner(&p->j[job]) && sim_execs_wanted(sim_job(s, job)) > 0)
			pol_heap_set(&f->chk, job, p->j[job].pos);
	}
	for (int i = 0; i < f->rekey.n; i++) {
		struct tj *t = &p->j[f->rekey.v[i]];
		if (t->active && !t->running && blk_of(t->pos) <= 0)
			pol_heap_set(&f->chk, f->rekey.v[i], t->pos);
	}
	memset(f->ntail, 0, sizeof f->ntail);
	for (int i = 0; i < f->tail.n; i++) {
		struct tj *t = &p->j[f->tail.v[i]];
		if (runner(t) && blk_of(t->pos) == 2) {
			f->ntail[t->q]++;
			for (int k = 0; k < t->nen; k++)
				special(f, t->en[k]);
		}
	}
	for (int q = 0; q < p->nq; q++) {
		drain(p, s, blk_start(q, 1));
		segment(p, s, q, 1);
		if (!f->ntail[q]) {
			if (p->order_ref) /* (order: arrival has no tail) */
				segment(p, s, q, 2);
		} else { /* the tail's running jobs among its waiting ones */
			for (int i = 0; i < f->live[q].n; i++)
				for (int g = f->live[q].v[i], job = pol_iset_ceil(&f->os, f->sig[g].root[q], blk_start(q, 2));
				     job >= 0 && p->j[job].pos < blk_start(q, 3);
				     job = pol_iset_ceil(&f->os, f->sig[g].root[q], p->j[job].pos + 1))
					pol_heap_set(&f->chk, job, p->j[job].pos);
		}
		drain(p, s, blk_start(q + 1, -1));
	}
	for (int i = 0; i < f->specl.n; i++) {
		int node = f->specl.v[i];
		pol_moved_touch(&f->moved, node); /* its amounts back from this pass's */
		pol_bits_put(&f->spec, node, false);
		f->pkc[node] = f->pkm[node] = f->pkg[node] = 0;
	}
	f->specl.n = 0;
}

/* ---- requeueing -------------------------------------------------------- */

static void demote(struct tir *p, int job)
{
	struct tfast *f = p->f;
	struct tj *t = &p->j[job];
	for (int i = 0; i < t->nen; i++) {
		int node = t->en[i], k = 0;
		while (k < i && t->en[k] != node)
			k++;
		if (k < i)
			continue; /* its node's executors moved already */
		for (int x = 0; x < f->nne[node]; x++)
			if (f->ne[node][x].job == job) {
				count(p, t->q, node, &f->ne[node][x], -1);
				count(p, t->q + 1, node, &f->ne[node][x], +1);
			}
	}
	t->q++;
	if (p->order_ref) { /* at its new queue's tail */
		t->pos = mkpos(t->q, 2, ++f->hi);
		push(&f->tail, job);
	} else {
		t->pos = mkpos(t->q, 0, job);
	}
}

static void promote(struct tir *p, int job, int64_t now)
{
	struct tj *t = &p->j[job];
	set_out(p, job);
	t->q = 0;
	t->lpend_us = 0;
	t->waiting = now;
	if (p->reset)
		t->exec_us = 0;
	wait_at(p, job, p->order_ref ? mkpos(0, 2, ++p->f->hi) : mkpos(0, 1, job));
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* tiresias.c's requeue: demotions (and with the guard, promotions) in
 * arrival order.  Without the guard only the running jobs the heap has
 * due by now can change. */
static void requeue(struct tir *p, int64_t now)
{
	struct tfast *f = p->f;
	struct list *l = &f->tmp;
	l->n = 0;
	if (p->starve > 0) {
		for (int job = pol_bits_next(&f->active, 0); job >= 0;
		     job = pol_bits_next(&f->active, job + 1))
			push(l, job);
	} else {
		while (f->dem.n && f->dem.key[pol_heap_top(&f->dem)] <= now)
			push(l, pol_heap_pop(&f->dem));
		if (l->n > 1) /* l->v is NULL while nothing was pushed */
			qsort(l->v, (size_t)l->n, sizeof *l->v, cmp_int);
	}
	for (int i = 0; i < l->n; i++) {
		int job = l->v[i];
		struct tj *t = &p->j[job];
		sync(t, now);
		if (runner(t)) {
			bool moved = false;
			while (tir_over(p, t)) {
				demote(p, job);
				moved = true;
				if (p->demote_ref) /* run_sim.py: one queue an event (an if) */
					break;
			}
			if (moved || !pol_heap_has(&f->dem, job))
				dem_update(p, job, now);
		} else if (!t->running && p->starve > 0 && t->q > 0 && tir_starved(p, t, now)) {
			promote(p, job, now);
		}
	}
}

/* ---- the decision ------------------------------------------------------ */

/* pol_first_fit(&p->t, s, j, -1), each executor's node the index's
 * winner (pol_firstfit.h). */
static bool place(struct tir *p, struct sim *s, const struct sim_job *j)
{
	return pol_ff_place(&p->f->start, s, j, -1);
}

struct pj { int64_t pos; int job; };

static int cmp_pj(const void *a, const void *b)
{
	const struct pj *x = a, *y = b;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* l's jobs in the order of their places (distinct). */
static void sort_pos(struct tir *p, struct list *l)
{
	struct pj *v = xmalloc((size_t)(l->n ? l->n : 1) * sizeof *v);
	for (int i = 0; i < l->n; i++)
		v[i] = (struct pj){p->j[l->v[i]].pos, l->v[i]};
	qsort(v, (size_t)l->n, sizeof *v, cmp_pj);
	for (int i = 0; i < l->n; i++)
		l->v[i] = v[i].job;
	free(v);
}

/* tiresias.c's renumbering at the end of a decision (order: reference),
 * moving only the jobs that changed (the header). */
static void renumber(struct tir *p, struct list *newrun)
{
	struct tfast *f = p->f;
	struct list *l = &f->tmp;
	l->n = 0;
	f->dec++; /* fresh marks */
	for (int i = 0; i < newrun->n; i++) {
		struct tj *t = &p->j[newrun->v[i]];
		if (!runner(t) || t->mark == f->dec || blk_of(t->pos) == 0)
			continue; /* one among running ones keeps its place */
		t->mark = f->dec;
		if (blk_of(t->pos) < 0)
			push(l, newrun->v[i]);
	}
	/* those that were being preempted come before the running ones: block
	 * 0's front, in their order */
	sort_pos(p, l);
	f->lo0 -= l->n;
	for (int i = 0; i < l->n; i++)
		p->j[l->v[i]].pos = mkpos(p->j[l->v[i]].q, 0, f->lo0 + i);
	l->n = 0;
	for (int i = 0; i < newrun->n; i++) {
		struct tj *t = &p->j[newrun->v[i]];
		if (runner(t) && t->mark == f->dec && blk_of(t->pos) >= 1)
			push(l, newrun->v[i]);
	}
	for (int i = 0; i < f->tail.n; i++) {
		struct tj *t = &p->j[f->tail.v[i]];
		if (runner(t) && blk_of(t->pos) == 2 && t->mark != f->dec) {
			t->mark = f->dec;
			push(l, f->tail.v[i]);
		}
	}
	sort_pos(p, l);
	for (int i = 0; i < l->n; i++) /* running: block 0's end */
		p->j[l->v[i]].pos = mkpos(p->j[l->v[i]].q, 0, ++f->hi);
	for (int i = 0; i < f->rejected.n; i++) { /* still being preempted */
		struct tj *t = &p->j[f->rejected.v[i]];
		if (t->active && t->going)
			t->pos = mkpos(t->q, -1, ++f->hi);
	}
	l->n = 0;
	for (int i = 0; i < f->rekey.n; i++) {
		struct tj *t = &p->j[f->rekey.v[i]];
		if (t->active && !t->running && blk_of(t->pos) <= 0 && t->mark != f->dec) {
			t->mark = f->dec;
			push(l, f->rekey.v[i]);
		}
	}
	f->rekey.n = 0;
	sort_pos(p, l);
	f->lo -= l->n; /* waiting: block 1's front, in their order */
	for (int i = 0; i < l->n; i++)
		wait_at(p, l->v[i], mkpos(p->j[l->v[i]].q, 1, f->lo + i));
	f->tail.n = 0;
}

/* The least wake-up among the running jobs whose demotion instant is
 * within `slack` of the heap's least (tir_wake_at's rounding moves it by
 * a microsecond or two); or, reading every one, all of them. */
static void wake_heap(struct tir *p, int64_t now, int i, int64_t bound, int64_t *want)
{
	struct tfast *f = p->f;
	if (i >= f->dem.n)
		return;
	int job = f->dem.item[i];
	if (bound >= 0 && f->dem.key[job] > bound)
		return;
	struct tj *t = &p->j[job];
	sync(t, now);
	int64_t at = tir_wake_at(p, t, now);
	if (at >= 0 && (*want < 0 || at < *want))
		*want = at;
	wake_heap(p, now, 2 * i + 1, bound, want);
	wake_heap(p, now, 2 * i + 2, bound, want);
}

static void wake(struct tir *p, struct sim *s)
{
	struct tfast *f = p->f;
	int64_t now = sim_now(s), want = -1;
	if (p->starve > 0) {
		for (int job = pol_bits_next(&f->active, 0); job >= 0;
		     job = pol_bits_next(&f->active, job + 1)) {
			sync(&p->j[job], now);
			int64_t at = tir_wake_at(p, &p->j[job], now);
			if (at >= 0 && (want < 0 || at < want))
				want = at;
		}
	} else if (f->dem.n) {
		int64_t least = f->dem.key[pol_heap_top(&f->dem)];
		wake_heap(p, now, 0, p->demote_ref ? -1 : least + 8, &want);
	}
	tir_want(p, s, want);
}

void tfast_decide(struct tir *p, struct sim *s)
{
	struct tfast *f = p->f;
	int64_t now = sim_now(s);
	f->dec++;
	requeue(p, now);
	f->started.n = f->rejected.n = 0;
	scan(p, s);
	for (int i = 0; i < f->rejected.n; i++) { /* the running ones left out give way */
		int job = f->rejected.v[i];
		struct tj *t = &p->j[job];
		sync(t, now);
		t->going = true;
		t->preempted++;
		ents_clear(p, job);
		pol_heap_remove(&f->dem, job);
		pol_preempt_job(s, job);
	}
	struct list newrun = {0};
	for (int i = 0; i < f->started.n; i++) { /* and the ones taken start */
		int job = f->started.v[i];
		struct tj *t = &p->j[job];
		const struct sim_job *j = sim_job(s, job);
		if (t->going || !t->active || sim_execs_wanted(j) == 0 || !place(p, s, j))
			continue;
		pol_tent_launch(&p->t, s, job);
		if (!t->running) {
			sync(t, now);
			t->since = now;
			t->running = true;
			set_out(p, job);
			if (p->order_ref)
				push(&newrun, job);
			else
				t->pos = mkpos(t->q, 0, job);
		}
		ents_load(p, s, job);
		dem_update(p, job, now);
	}
	int kept = 0; /* those still short of an executor ask again */
	for (int i = 0; i < f->want.n; i++) {
		int job = f->want.v[i];
		if (runner(&p->j[job]) && sim_execs_wanted(sim_job(s, job)) > 0 &&
		    p->j[job].mark != f->dec) {
			p->j[job].mark = f->dec;
			f->want.v[kept++] = job;
		}
	}
	f->want.n = kept;
	if (p->order_ref)
		renumber(p, &newrun);
	else
		f->rekey.n = f->tail.n = 0;
	free(newrun.v);
	wake(p, s);
}

/* ---- events ------------------------------------------------------------ */

void tfast_arrived(struct tir *p, struct sim *s, int job)
{
	struct tfast *f = p->f;
	int64_t now = sim_now(s);
	p->j[job] = (struct tj){.since = -1, .waiting = now, .active = true,
				.w = tir_weight(sim_job(s, job)), .stamp = now,
				.sig = sig_of(f, sim_job(s, job))};
	pol_bits_put(&f->active, job, true);
	p->nact++;
	/* at the first queue's tail (reference §4 step 2) */
	wait_at(p, job, p->order_ref ? mkpos(0, 2, ++f->hi) : mkpos(0, 1, job));
}

void tfast_finished(struct tir *p, struct sim *s, int job)
{
	struct tfast *f = p->f;
	(void)s;
	struct tj *t = &p->j[job];
	if (!t->active)
		return; /* rejected at its arrival */
	set_out(p, job);
	ents_clear(p, job);
	pol_heap_remove(&f->dem, job);
	t->active = t->running = false;
	free(t->en);
	t->en = NULL;
	t->capen = 0;
	pol_bits_put(&f->active, job, false);
	p->nact--;
}

void tfast_exec_lost(struct tir *p, struct sim *s, int job, const struct sim_exec *x)
{
	struct tfast *f = p->f;
	struct tj *t = &p->j[job];
	if (!t->active)
		return;
	if (runner(t))
		ent_del(p, job, x->node, x->cores, x->mem_mib,
			x->gpu_milli ? x->gpu_milli : (int64_t)x->gpus * CLU_GPU_MILLI);
	if (sim_job(s, job)->live->execs_live > 0) {
		if (runner(t))
			push(&f->want, job); /* a replacement, at the next decision */
		return;
	}
	int64_t now = sim_now(s);
	sync(t, now);
	t->last_run = t->since >= 0 ? now - t->since : 0;
	t->since = -1;
	t->running = t->going = false;
	t->waiting = now;
	ents_clear(p, job);
	pol_heap_remove(&f->dem, job);
	wait_at(p, job, p->order_ref ? t->pos : mkpos(t->q, 1, job));
}

void tfast_init(struct tir *p, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1, n = c->n ? c->n : 1;
	struct tfast *f = p->f = xcalloc(1, sizeof *f);
	f->nj = nj;
	pol_ix_init(&f->proj, c, NULL, proj_key, NULL);
	pol_ff_init(&f->start, s, &p->t);
	pol_bits_init(&f->active, nj);
	pol_iset_pool_init(&f->os, nj);
	pol_heap_init(&f->dem, nj);
	pol_heap_init(&f->chk, nj);
	int ns = sim_nshapes(s) ? sim_nshapes(s) : 1;
	pol_heap_init(&f->sh, ns); /* signatures: at most one a shape */
	f->sig_of_shape = xmalloc((size_t)ns * sizeof *f->sig_of_shape);
	memset(f->sig_of_shape, 0xff, (size_t)ns * sizeof *f->sig_of_shape);
	f->ne = xcalloc((size_t)n, sizeof *f->ne);
	f->nne = xcalloc((size_t)n, sizeof *f->nne);
	f->capne = xcalloc((size_t)n, sizeof *f->capne);
	f->rs = xcalloc((size_t)n * (size_t)p->nq * 3, sizeof *f->rs);
	for (int q = 0; q < p->nq - 1; q++) {
		f->lctx[q] = (struct lvctx){p, q};
		pol_ix_init(&f->lvl[q], c, NULL, lvl_key, &f->lctx[q]);
	}
	pol_bits_init(&f->spec, n);
	f->pkc = xcalloc((size_t)n, sizeof *f->pkc);
	f->pkm = xcalloc((size_t)n, sizeof *f->pkm);
	f->pkg = xcalloc((size_t)n, sizeof *f->pkg);
	f->cq = xmalloc((size_t)n * 3 * sizeof *f->cq);
	f->cq_at = xcalloc((size_t)n, sizeof *f->cq_at);
	f->tk_at = xcalloc((size_t)n, sizeof *f->tk_at);
	f->tk_cur = xmalloc((size_t)n * sizeof *f->tk_cur);
	f->ov_first = xmalloc((size_t)n * sizeof *f->ov_first);
	f->ov_last = xmalloc((size_t)n * sizeof *f->ov_last);
	f->ov_at = xcalloc((size_t)n, sizeof *f->ov_at);
	f->ov_q = -1;
	pol_moved_init(&f->moved, c);
}

void tfast_fini(struct tir *p)
{
	struct tfast *f = p->f;
	int n = f->proj.c->n;
	pol_ix_free(&f->proj);
	pol_ff_free(&f->start);
	pol_bits_free(&f->active);
	pol_iset_pool_free(&f->os);
	pol_heap_free(&f->dem), pol_heap_free(&f->chk), pol_heap_free(&f->sh);
	free(f->sig), free(f->sig_of_shape), free(f->hslot);
	for (int q = 0; q < TIR_MAX_QUEUES; q++)
		free(f->live[q].v);
	for (int i = 0; i < n; i++)
		free(f->ne[i]);
	free(f->ne), free(f->nne), free(f->capne), free(f->rs);
	for (int q = 0; q < p->nq - 1; q++)
		pol_ix_free(&f->lvl[q]);
	pol_bits_free(&f->spec);
	free(f->pkc), free(f->pkm), free(f->pkg), free(f->cq), free(f->cq_at);
	free(f->ovl.v), free(f->ov_first), free(f->ov_last), free(f->ov_at);
	free(f->tk_at), free(f->tk_cur);
	free(f->specl.v), free(f->tail.v), free(f->rekey.v), free(f->want.v);
	free(f->started.v), free(f->rejected.v), free(f->tmp.v);
	pol_moved_free(&f->moved);
	free(f->missl.v);
	for (int j = 0; j < f->nj; j++)
		free(p->j[j].en);
	free(f);
	p->f = NULL;
}
