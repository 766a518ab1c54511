/* pol_fitq.c - the waiting jobs split by shape (pol_fitq.h). */
#include "pol_fitq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "sim.h"
#include "util.h"

/* 0 where an executor of shape `sh` fits on every dimension, else
 * INFINITY (fifo's key): a tree's winner is the first node that fits. */
static double fit_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
		      const struct pol_shape *sh)
{
	const struct pol_fitq *q = ctx;
	if (!(fc >= sh->cores && fm >= sh->mem_mib && fg >= sh->gpus))
		return INFINITY;
	return !sh->gpu_milli || pol_share_pick(q->t, n, sh->gpu_milli) >= 0 ? 0 : INFINITY;
}

void pol_fitq_init(struct pol_fitq *q, const struct sim *s, struct pol_tent *t)
{
	memset(q, 0, sizeof *q);
	q->t = t;
	q->njobs = sim_njobs(s);
	pol_ix_init(&q->ix, sim_cluster(s), t, fit_key, q);
	pol_bits_init(&q->apart, q->njobs);
}

void pol_fitq_free(struct pol_fitq *q)
{
	pol_ix_free(&q->ix);
	for (int k = 0; k < q->nc; k++)
		pol_bits_free(&q->c[k].b);
	free(q->c);
	free(q->cls);
	pol_bits_free(&q->apart);
}

static bool whole(const struct sim_job *j)
{
	for (int r = 0; r < j->shape->nroles; r++)
		if (j->live->granted[r])
			return false;
	return true;
}

/* Job j's class, made if need be; -1: kept apart. */
static int class_of(struct pol_fitq *q, const struct sim_job *j, bool make)
{
	int id = j->shape->id;
	if (id >= q->capcls) {
		if (!make)
			return -1;
		int old = q->capcls;
		xgrow(&q->cls, &q->capcls, id + 1, sizeof *q->cls);
		memset(q->cls + old, 0, (size_t)(q->capcls - old) * sizeof *q->cls);
	}
	if (!q->cls[id] && make && q->nc < POL_FITQ_MAX_SHAPES) {
		q->c = xrealloc(q->c, (size_t)(q->nc + 1) * sizeof *q->c);
		struct pol_fitq_cls *c = &q->c[q->nc];
		memset(c, 0, sizeof *c);
		pol_bits_init(&c->b, q->njobs);
		c->next = -2;
		q->cls[id] = ++q->nc;
	}
	return q->cls[id] - 1;
}

void pol_fitq_add(struct pol_fitq *q, const struct sim_job *j, int job)
{
	int k = whole(j) ? class_of(q, j, true) : -1;
	pol_bits_put(k >= 0 ? &q->c[k].b : &q->apart, job, true);
}

void pol_fitq_remove(struct pol_fitq *q, const struct sim_job *j, int job)
{
	int k = class_of(q, j, false);
	if (k >= 0)
		pol_bits_put(&q->c[k].b, job, false);
	pol_bits_put(&q->apart, job, false);
}

/* The first node where an executor of `sh` fits after the tentative
 * ones: the index's winner, or a scan in node order. */
static int first_fit(struct pol_fitq *q, const struct clu *c, const struct pol_shape *sh)
{
	const struct pol_tree *t = pol_ix_tree(&q->ix, sh);
	if (t)
		return pol_tree_top(t);
	for (int i = 0; i < c->n; i++) {
		int fc, fg;
		int64_t fm;
		pol_tent_free(q->t, &c->nodes[i], &fc, &fm, &fg);
		if (fit_key(q, &c->nodes[i], fc, fm, fg, sh) == 0)
			return i;
	}
	return -1;
}

bool pol_fitq_fits(struct pol_fitq *q, const struct sim *s, const struct sim_job *j)
{
	const struct clu *c = sim_cluster(s);
	pol_tent_reset(q->t);
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		struct pol_shape sh = {ro->cores ? ro->cores : CLU_MILLI, ro->mem_mib, ro->gpus,
				       ro->gpus ? 0 : ro->gpu_milli};
		for (int k = j->live->granted[r]; k < ro->count; k++) {
			int node = first_fit(q, c, &sh);
			if (node < 0)
				return false;
			if (sh.gpu_milli)
				pol_tent_add_share(q->t, &c->nodes[node], r, sh.cores, sh.mem_mib,
						   sh.gpu_milli);
			else
				pol_tent_add(q->t, node, r, sh.cores, sh.mem_mib, sh.gpus);
			pol_ix_touch(&q->ix, node);
		}
	}
	return true;
}

void pol_fitq_begin(struct pol_fitq *q, int from)
{
	q->cursor = from < 0 ? q->njobs : from;
	for (int k = 0; k < q->nc; k++)
		q->c[k].next = -2, q->c[k].failed = false;
}

int pol_fitq_next(struct pol_fitq *q)
{
	int best = pol_bits_next(&q->apart, q->cursor);
	for (int k = 0; k < q->nc; k++) {
		struct pol_fitq_cls *c = &q->c[k];
		if (c->failed)
			continue;
		/* -2: not looked for yet; below the cursor: tried already */
		if (c->next == -2 || (c->next >= 0 && c->next < q->cursor))
			c->next = pol_bits_next(&c->b, q->cursor);
		if (c->next >= 0 && (best < 0 || c->next < best))
			best = c->next;
	}
	if (best >= 0)
		q->cursor = best + 1;
	return best;
}

void pol_fitq_failed(struct pol_fitq *q, const struct sim_job *j, int job)
{
	if (pol_bits_has(&q->apart, job))
		return;
	int k = class_of(q, j, false);
	if (k >= 0)
		q->c[k].failed = true;
}

void pol_fitq_launched(struct pol_fitq *q)
{
	for (int k = 0; k < q->nc; k++)
		q->c[k].failed = false;
}
