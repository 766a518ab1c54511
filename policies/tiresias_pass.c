/* tiresias_pass.c - tiresias_fast.c's pass: the projection (each node's
 * free amounts at a place of the pass, through the levels' trees), the
 * packing of a job's executors, and the pass itself (the segments of
 * waiting jobs, the running jobs visited in place order).  The header
 * comment of tiresias_fast.c says what stands for what.
 */
#include <string.h>

#include "tiresias_fast.h"

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
double tfast_proj_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
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
double tfast_lvl_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
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

void tfast_scan(struct tir *p, struct sim *s)
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
