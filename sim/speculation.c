/* speculation.c - Spark's speculation check (checkSpeculatableTasks):
 * running attempts listed for a copy, which the dispatcher starts on a
 * free slot (loop.c, start_copy).  Calls events.c.
 */
#include "kernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- speculation ------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of the durations of a stage's tasks done, as Spark takes it
 * (TaskSetManager: the sorted durations' entry at round(0.5 n), at most
 * n - 1); sorted again only when more are done than last time, not for
 * every running task of the stage at every check. */
static double stage_median(struct sim_stage *st)
{
	if (st->median_done == st->done)
		return st->median_us;
	int n = st->done;
	double *d = xmalloc((size_t)n * sizeof *d);
	memcpy(d, st->took_us, (size_t)n * sizeof *d);
	qsort(d, (size_t)n, sizeof *d, cmp_double);
	int k = (int)llround(0.5 * n);
	st->median_us = d[k < n - 1 ? k : n - 1];
	st->median_done = n;
	free(d);
	return st->median_us;
}

/* Spark's checkSpeculatableTasks, every spark.speculation.interval while
 * tasks run, over the running attempts (the pool of run slots: O(most
 * attempts ever running at once), whatever the number of nodes): in a stage with at least max(floor(quantile x tasks), 1)
 * tasks done, a task running longer than max(multiplier x their median,
 * minTaskRuntime), with no copy, is listed for a copy; its job's free
 * slots on other nodes take the copies (start_copy). */
void k_on_speculate(struct sim *s)
{
	const struct scn_speculation *sp = &s->scn->spec;
	s->spec_armed = false;
	for (int r = 0; r < s->cap_runs; r++) {
		struct run *ru = &s->runs[r];
		if (!ru->running)
			continue;
		struct sim_stage *st = ru->st;
		int need = (int)floor(sp->quantile * st->ntasks);
		if (ru->twin >= 0 || ru->copy || ru->listed || st->done < (need > 1 ? need : 1))
			continue;
		double limit = sp->multiplier * stage_median(st);
		if (limit < (double)sp->min_runtime_us)
			limit = (double)sp->min_runtime_us;
		if (!((double)(s->now - ru->start_us) > limit))
			continue;
		struct sim_live *jr = ru->jr;
		xgrow(&jr->spec, &jr->cap_spec, jr->nspec + 1, sizeof *jr->spec);
		jr->spec[jr->nspec++] = r;
		ru->listed = true;
		queue_dispatch(s, &s->pub.jobs[ru->job]);
	}
	if (s->runs_live) {
		s->spec_armed = true;
		k_push_at(s, (double)s->now + (double)sp->interval_us, EV_SPECULATE, 0);
	}
}
