/* pol_fitq.c - the waiting jobs split by shape (pol_fitq.h). */
#include "pol_fitq.h"

#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "sim.h"
#include "util.h"

void pol_fitq_init(struct pol_fitq *q, const struct sim *s, struct pol_tent *t)
{
	memset(q, 0, sizeof *q);
	q->t = t;
	q->njobs = sim_njobs(s);
	pol_ff_init(&q->ff, s, t);
	pol_bits_init(&q->apart, q->njobs);
}

void pol_fitq_free(struct pol_fitq *q)
{
	pol_ff_free(&q->ff);
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

bool pol_fitq_fits(struct pol_fitq *q, const struct sim *s, const struct sim_job *j)
{
	return pol_ff_place(&q->ff, s, j, -1);
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
