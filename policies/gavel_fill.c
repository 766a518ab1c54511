/* gavel_fill.c - gavel's jobs placed between rounds and at them: first
 * fit through an index per GPU model (gav_first_fit, gav_launch), and
 * fill_fast, gavel.c's fill without visiting every waiting job (the
 * groups by (class, shape), kept job by job by gav_regroup, merged as
 * ordered streams).  gavel_int.h says which file holds what; the cost
 * of each step is in gavel.c's header.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "gavel.h"
#include "gavel_int.h"
#include "pol_common.h"
#include "pol_index.h"
#include "pol_oset.h"
#include "sim.h"
#include "util.h"

/* A group of waiting jobs (fill_fast): active, holding nothing, not
 * being preempted, of one class (-1: CPU jobs) and one shape. */
struct ggrp {
	int cls, shape;
	int n;                 /* members */
	int all;               /* pol_oset root (pool pa): members by id */
	int at;                /* its place in glive */
};

/* One ordered stream of fill_fast's walk: a group's members (k >= 0:
 * those that never ran on model k, as pairs on k) from a cursor. */
struct gstream {
	int g, k;
	int head;              /* the next member (pair id or job), -1: done */
	bool parked;           /* its last member failed on an unchanged
				  cluster: the next ones fail too (nofit) */
	struct pol_okey cur;   /* members before it are passed */
};

/* One first-fit index: GPU executors on nodes of model k only (k < 0:
 * anywhere), the others anywhere (pol_first_fit_on's rule). */
struct gav_ix {
	const struct gav *p;
	int k;
	struct pol_ix ix;
};

struct gav_count gav_count;

/* 0 where an executor of shape `sh` fits node n now (after the
 * tentative ones) and may go there, else INFINITY: the tree's first
 * candidate is then pol_first_fit_on's node. */
static double ff_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
		     const struct pol_shape *sh)
{
	const struct gav_ix *x = ctx;
	if (x->k >= 0 && (sh->gpus || sh->gpu_milli) && x->p->node_k[n->id] != x->k)
		return INFINITY;
	if (!(fc >= sh->cores && fm >= sh->mem_mib && fg >= sh->gpus))
		return INFINITY;
	return !sh->gpu_milli || pol_share_pick(&x->p->t, n, sh->gpu_milli) >= 0 ? 0 : INFINITY;
}

void gav_fill_init(struct gav *p, const struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1, K = p->K ? p->K : 1;
	if (!p->plain) {
		p->nofit = xcalloc((size_t)(p->nshapes ? p->nshapes : 1) * (size_t)(p->K + 1),
				   sizeof *p->nofit);
		p->fast = p->resolve_us == 0;
		p->ix = xcalloc((size_t)p->K + 1, sizeof *p->ix);
		for (int k = 0; k <= p->K; k++) {
			p->ix[k].p = p;
			p->ix[k].k = k - 1;
			pol_ix_init(&p->ix[k].ix, c, &p->t, ff_key, &p->ix[k]);
		}
	}
	if (p->fast) {
		pol_oset_init(&p->pa, nj);
		pol_oset_init(&p->pn, nj * K);
		p->jg = xmalloc((size_t)nj * sizeof *p->jg);
		for (int i = 0; i < nj; i++)
			p->jg[i] = -1;
		p->jnr = xcalloc((size_t)nj, sizeof *p->jnr);
		pol_bits_init(&p->ranb, nj);
		pol_bits_init(&p->misb, nj);
	}
}

void gav_fill_fini(struct gav *p)
{
	for (int k = 0; p->ix && k <= p->K; k++)
		pol_ix_free(&p->ix[k].ix);
	free(p->ix);
	free(p->nofit);
	if (p->fast) {
		pol_oset_free(&p->pa);
		pol_oset_free(&p->pn);
		pol_bits_free(&p->ranb);
		pol_bits_free(&p->misb);
	}
	free(p->grp), free(p->gh), free(p->glive), free(p->gnr), free(p->jg), free(p->jnr);
	free(p->st);
}

/* ---- fill_fast's groups ------------------------------------------ */

static uint64_t grp_hash(int cls, int shape)
{
	uint64_t h = ((uint64_t)(uint32_t)(cls + 1) << 32 | (uint32_t)shape) * 0x9e3779b97f4a7c15u;
	return h ^ h >> 31;
}

static void grp_rehash(struct gav *p)
{
	free(p->gh);
	p->ghcap = p->ghcap ? 2 * p->ghcap : 64;
	p->gh = xcalloc((size_t)p->ghcap, sizeof *p->gh);
	for (int g = 0; g < p->G; g++) {
		uint64_t i = grp_hash(p->grp[g].cls, p->grp[g].shape);
		while (p->gh[i & (uint64_t)(p->ghcap - 1)])
			i++;
		p->gh[i & (uint64_t)(p->ghcap - 1)] = g + 1;
	}
}

/* The group of class cls (-1: CPU jobs) and shape `shape`, made if new.
 * O(1) expected. */
static int grp_of(struct gav *p, int cls, int shape)
{
	if (2 * (p->G + 1) > p->ghcap)
		grp_rehash(p);
	uint64_t i = grp_hash(cls, shape);
	for (;; i++) {
		int g = p->gh[i & (uint64_t)(p->ghcap - 1)] - 1;
		if (g < 0)
			break;
		if (p->grp[g].cls == cls && p->grp[g].shape == shape)
			return g;
	}
	size_t K = (size_t)(p->K ? p->K : 1);
	if (p->G == p->capg) {
		p->capg = p->capg ? 2 * p->capg : 16;
		p->grp = xrealloc(p->grp, (size_t)p->capg * sizeof *p->grp);
		p->gnr = xrealloc(p->gnr, (size_t)p->capg * K * sizeof *p->gnr);
		p->glive = xrealloc(p->glive, (size_t)p->capg * sizeof *p->glive);
	}
	int g = p->G++;
	p->grp[g] = (struct ggrp){.cls = cls, .shape = shape, .all = -1, .at = -1};
	for (size_t k = 0; k < K; k++)
		p->gnr[(size_t)g * K + k] = -1;
	p->gh[i & (uint64_t)(p->ghcap - 1)] = g + 1;
	return g;
}

static void set_bit(struct pol_bits *b, int *n, int i, bool on)
{
	if (pol_bits_has(b, i) != on)
		pol_bits_put(b, i, on), *n += on ? 1 : -1;
}

/* Whether job j holds nothing and its shape has a nofit row (first_fit's
 * `fresh`). */
static bool holds_nothing(const struct gav *p, const struct sim_job *j)
{
	bool fresh = j->shape->id >= 0 && j->shape->id < p->nshapes;
	for (int r = 0; r < j->shape->nroles; r++)
		fresh &= j->live->granted[r] == 0;
	return fresh;
}

/* Job `job`'s place in fill_fast's structures, from its state now:
 * called whenever its state changes (arrival, launch, preemption, loss,
 * end).  O(K log jobs). */
void gav_regroup(struct gav *p, const struct sim *s, int job)
{
	if (!p->fast)
		return;
	struct gj *g = &p->j[job];
	size_t K = (size_t)p->K;
	int gi = p->jg[job];
	if (gi >= 0) {
		struct ggrp *q = &p->grp[gi];
		pol_oset_remove(&p->pa, &q->all, job);
		for (size_t k = 0; k < K; k++)
			if (p->jnr[job] >> k & 1)
				pol_oset_remove(&p->pn, &p->gnr[(size_t)gi * K + k],
						(int)((size_t)job * K + k));
		p->jnr[job] = 0;
		p->jg[job] = -1;
		p->nwait--;
		if (--q->n == 0) { /* out of glive: the last takes its place */
			int last = p->glive[--p->nlive];
			p->glive[q->at] = last;
			p->grp[last].at = q->at;
			q->at = -1;
		}
	}
	set_bit(&p->ranb, &p->nran, job, false);
	set_bit(&p->misb, &p->nmis, job, false);
	if (!g->active || g->going)
		return;
	const struct sim_job *j = sim_job(s, job);
	if (g->running || !holds_nothing(p, j)) {
		if (sim_execs_wanted(j) > 0)
			set_bit(&p->misb, &p->nmis, job, true);
		return;
	}
	gi = grp_of(p, g->gpus > 0 ? g->cls : -1, j->shape->id);
	struct ggrp *q = &p->grp[gi];
	p->jg[job] = gi;
	pol_oset_insert(&p->pa, &q->all, job, (struct pol_okey){job, 0, 0});
	bool ran = false;
	for (size_t k = 0; g->gpus > 0 && k < K; k++) {
		if (p->recv[(size_t)job * K + k] > 0) {
			ran = true;
			continue;
		}
		pol_oset_insert(&p->pn, &p->gnr[(size_t)gi * K + k], (int)((size_t)job * K + k),
				(struct pol_okey){j->arrival_us, job, (int64_t)k});
		p->jnr[job] |= UINT64_C(1) << k;
	}
	if (ran)
		set_bit(&p->ranb, &p->nran, job, true);
	p->nwait++;
	if (q->n++ == 0) {
		q->at = p->nlive;
		p->glive[p->nlive++] = gi;
	}
}

/* ---- a job placed ---------------------------------------------- */

int gav_cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->x != y->x)
		return x->x > y->x ? -1 : 1;
	if (x->arrival != y->arrival)
		return x->arrival < y->arrival ? -1 : 1;
	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return x->type - y->type;
}

static bool place(struct gav *p, const struct clu *c, const struct sim_job *j, int k);

/* pol_first_fit_on(&p->t, s, j, -1, model k or NULL for k < 0), each
 * executor's node found through the index of its rule (GPU executors:
 * model k's, the others: any node's) where there is one. */
bool gav_first_fit(struct gav *p, const struct sim *s, const struct sim_job *j, int k)
{
	if (p->plain)
		return pol_first_fit_on(&p->t, s, j, -1, k >= 0 ? p->type[k] : NULL);
	const struct clu *c = sim_cluster(s);
	uint64_t *nofit = NULL;
	bool fresh = j->shape->id >= 0 && j->shape->id < p->nshapes; /* nothing granted */
	for (int r = 0; r < j->shape->nroles; r++)
		fresh &= j->live->granted[r] == 0;
	if (fresh) {
		nofit = &p->nofit[(size_t)j->shape->id * (size_t)(p->K + 1) + (size_t)(k + 1)];
		if (*nofit == c->changes + 1)
			return false;
	}
	bool ok = place(p, c, j, k);
	if (!ok && nofit)
		*nofit = c->changes + 1;
	return ok;
}

/* first_fit's placement through the indexes. */
static bool place(struct gav *p, const struct clu *c, const struct sim_job *j, int k)
{
	pol_tent_reset(&p->t);
	int left = sim_execs_wanted(j);
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		struct pol_shape sh = {ro->cores ? ro->cores : CLU_MILLI, ro->mem_mib, ro->gpus,
				       ro->gpus ? 0 : ro->gpu_milli};
		struct gav_ix *x = &p->ix[(sh.gpus || sh.gpu_milli) && k >= 0 ? k + 1 : 0];
		for (int e = j->live->granted[r]; e < ro->count; e++) {
			const struct pol_tree *tr = pol_ix_tree(&x->ix, &sh);
			int node = -1;
			if (tr)
				node = pol_tree_top(tr);
			else /* past the index's shapes: the scan */
				for (int i = 0; i < c->n && node < 0; i++) {
					int fc, fg;
					int64_t fm;
					pol_tent_free(&p->t, &c->nodes[i], &fc, &fm, &fg);
					if (ff_key(x, &c->nodes[i], fc, fm, fg, &sh) == 0)
						node = i;
				}
			if (node < 0)
				return false;
			if (sh.gpu_milli)
				pol_tent_add_share(&p->t, &c->nodes[node], r, sh.cores, sh.mem_mib,
						   sh.gpu_milli);
			else
				pol_tent_add(&p->t, node, r, sh.cores, sh.mem_mib, sh.gpus);
			if (--left > 0)
				for (int i = 0; i <= p->K; i++)
					pol_ix_touch(&p->ix[i].ix, node);
		}
	}
	return true;
}

bool gav_launch(struct gav *p, struct sim *s, int job, int k)
{
	if (!gav_first_fit(p, s, sim_job(s, job), k))
		return false;
	pol_tent_launch(&p->t, s, job);
	struct gj *g = &p->j[job];
	if (!g->running || g->type != k) /* a replacement: its clock runs on */
		g->since_us = sim_now(s);
	g->running = true;
	g->type = k;
	gav_regroup(p, s, job);
	return true;
}

/* ---- fill_fast: fill's walk without visiting every waiting job ----- */

/* The waiting jobs of one group that never ran on model k all have the
 * priority 1e300 X[class][k] (got = 0) and the same x: their pairs come
 * in (arrival, job) order, the order of their pn keys.  The others that
 * may want executors (misb: running with an executor lost, or holding
 * some; ranb: waiting, with time on some model) are few: their pairs are
 * made and sorted as pairs() does.  fill's walk is then a merge of these
 * streams by gav_cmp_pair, a total order, so it visits the pairs in the same
 * order.  A group's members hold nothing and share shape and model:
 * once one failed, the next ones fail through first_fit's nofit until
 * the cluster changes, so the stream is parked, and only a launch (a
 * change) wakes it, past the pair launched (the members it skipped were
 * no-ops in fill's walk). */
static struct pair nr_pair(const struct gav *p, const struct gstream *t)
{
	const struct pol_okey *key = &p->pn.key[t->head];
	double x = p->cx[(size_t)p->grp[t->g].cls * (size_t)p->K + (size_t)t->k];
	return (struct pair){1e300 * x, x, key->a, (int)key->b, t->k};
}

static void stream_head(struct gav *p, struct gstream *t)
{
	t->head = t->k >= 0 ? pol_oset_ceil(&p->pn, p->gnr[(size_t)t->g * (size_t)p->K + (size_t)t->k],
					    &t->cur)
			    : pol_oset_ceil(&p->pa, p->grp[t->g].all, &t->cur);
}

static void stream_past(struct gstream *t, struct pol_okey after)
{
	t->cur = pol_okey_cmp(&after, &t->cur) > 0 ? after : t->cur;
}

/* Pairs of the jobs in ranb and misb, sorted, into p->pr. */
static int misc_pairs(struct gav *p, struct sim *s)
{
	int64_t now = sim_now(s);
	size_t K = (size_t)p->K;
	int n = 0;
	for (int pass = 0; pass < 2; pass++) {
		struct pol_bits *b = pass ? &p->misb : &p->ranb;
		if (!(pass ? p->nmis : p->nran))
			continue;
		for (int job, pos = 0; (job = pol_bits_next(b, pos)) >= 0; pos = job + 1) {
			const struct gj *g = &p->j[job];
			const struct sim_job *j = sim_job(s, job);
			if (pass && sim_execs_wanted(j) == 0) { /* back at exec_lost */
				set_bit(&p->misb, &p->nmis, job, false);
				continue;
			}
			if (!(g->gpus > 0) || g->going)
				continue;
			double life = (double)(now - j->arrival_us) / 1e6;
			for (size_t k = 0; k < K; k++) {
				double x = gav_x_of(p, job, (int)k);
				if (!(x > 0) || (!pass && p->jnr[job] >> k & 1))
					continue; /* ranb: pairs with no time there are in pn */
				int64_t r = gav_recv_us(p, now, job, (int)k);
				double got = life > 0 ? (double)r / 1e6 / life : 0;
				xgrow(&p->pr, &p->cappr, n + 1, sizeof *p->pr);
				p->pr[n++] = (struct pair){got > 0 ? x / got : 1e300 * x, x,
							   j->arrival_us, job, (int)k};
			}
		}
	}
	if (n > 1)
		qsort(p->pr, (size_t)n, sizeof *p->pr, gav_cmp_pair);
	return n;
}

void gav_fill_fast(struct gav *p, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	size_t K = (size_t)p->K;
	const struct pol_okey lo = {INT64_MIN, INT64_MIN, INT64_MIN};
	int n = misc_pairs(p, s), mi = 0, ns = 0, launches = 0;
	gav_count.fills++;
	gav_count.waiting += p->nwait;
	gav_count.bound += n;
	xgrow(&p->st, &p->capst, p->nlive * (p->K + 1) + 1, sizeof *p->st);
	for (int i = 0; i < p->nlive; i++) {
		int g = p->glive[i], cls = p->grp[g].cls;
		for (size_t k = 0; cls >= 0 && k < K; k++)
			if (p->cx[(size_t)cls * K + k] > 0 && p->gnr[(size_t)g * K + k] >= 0) {
				p->st[ns] = (struct gstream){g, (int)k, -1, false, lo};
				stream_head(p, &p->st[ns++]);
			}
	}
	for (;;) { /* GPU jobs in falling priority */
		int best = -1;
		struct pair bp = {0};
		for (int t = 0; t < ns; t++) {
			if (p->st[t].head < 0 || p->st[t].parked)
				continue;
			struct pair q = nr_pair(p, &p->st[t]);
			if (best < 0 || gav_cmp_pair(&q, &bp) < 0)
				best = t, bp = q;
		}
		bool misc = mi < n && (best < 0 || gav_cmp_pair(&p->pr[mi], &bp) < 0);
		if (!misc && best < 0)
			break;
		struct pair P = misc ? p->pr[mi++] : bp;
		struct gj *g = &p->j[P.job];
		uint64_t ch = c->changes;
		bool tried = false;
		gav_count.visits++;
		if (!(g->going || (g->running && g->type != P.type) ||
		      sim_execs_wanted(sim_job(s, P.job)) == 0)) {
			tried = true;
			gav_launch(p, s, P.job, P.type);
		}
		if (!misc) {
			p->st[best].cur = (struct pol_okey){P.arrival, P.job, P.type + 1};
			p->st[best].parked = tried && c->changes == ch;
			stream_head(p, &p->st[best]);
		}
		if (c->changes == ch)
			continue;
		launches++;
		for (int t = 0; t < ns; t++) { /* a change: the parked wake past P */
			struct gstream *u = &p->st[t];
			if (u->parked) {
				double x = p->cx[(size_t)p->grp[u->g].cls * K + (size_t)u->k];
				struct pair h = {1e300 * x, x, INT64_MAX, INT_MAX, INT_MAX};
				if (h.prio != P.prio || h.x != P.x) {
					if (gav_cmp_pair(&h, &P) < 0) /* all of it before P */
						u->cur = (struct pol_okey){INT64_MAX, INT64_MAX, INT64_MAX};
				} else {
					stream_past(u, (struct pol_okey){P.arrival, P.job, P.type + 1});
				}
				u->parked = false;
			}
			stream_head(p, u); /* P's job left its groups */
		}
	}
	gav_count.bound += (int64_t)ns * (launches + 1) + launches;
	/* jobs the last solve gave no share, and CPU jobs, by id */
	ns = 0, launches = 0;
	int64_t nmis = p->nmis;
	for (int i = 0; i < p->nlive; i++) {
		int g = p->glive[i], cls = p->grp[g].cls;
		bool seen = false;
		for (size_t k = 0; cls >= 0 && k < K; k++)
			seen |= p->cx[(size_t)cls * K + k] > 0;
		if (!seen) {
			p->st[ns] = (struct gstream){g, -1, -1, false, lo};
			stream_head(p, &p->st[ns++]);
		}
	}
	for (int mpos = 0;;) {
		int best = -1, bj = INT_MAX;
		for (int t = 0; t < ns; t++)
			if (p->st[t].head >= 0 && !p->st[t].parked && p->st[t].head < bj)
				best = t, bj = p->st[t].head;
		int mj = p->nmis ? pol_bits_next(&p->misb, mpos) : -1;
		bool misc = mj >= 0 && mj < bj;
		if (!misc && best < 0)
			break;
		int job = misc ? mj : bj;
		struct gj *g = &p->j[job];
		const struct sim_job *j = sim_job(s, job);
		uint64_t ch = c->changes;
		bool tried = false;
		gav_count.visits++;
		if (misc)
			mpos = job + 1;
		if (!g->going && sim_execs_wanted(j) == 0) {
			if (misc) /* back at exec_lost */
				set_bit(&p->misb, &p->nmis, job, false);
		} else if (!g->going && !(g->gpus > 0)) {
			tried = true;
			if (gav_first_fit(p, s, j, -1)) {
				pol_tent_launch(&p->t, s, job);
				g->running = true;
				gav_regroup(p, s, job);
			}
		} else if (!g->going) {
			bool seen = false;
			for (int k = 0; k < p->K; k++)
				seen |= gav_x_of(p, job, k) > 0;
			tried = !seen && !g->running;
			for (int k = 0; !seen && !g->running && k < p->K; k++)
				if (p->tp[(size_t)job * K + (size_t)k] > 0)
					gav_launch(p, s, job, k);
		}
		if (!misc) {
			struct gstream *t = &p->st[best];
			t->cur = (struct pol_okey){job, 0, 1};
			t->parked = tried && c->changes == ch;
			stream_head(p, t);
		}
		if (c->changes == ch)
			continue;
		launches++;
		for (int t = 0; t < ns; t++) {
			struct gstream *u = &p->st[t];
			if (u->parked)
				stream_past(u, (struct pol_okey){job, 0, 1});
			u->parked = false;
			stream_head(p, u);
		}
	}
	gav_count.bound += (int64_t)ns * (launches + 1) + launches + nmis;
}
