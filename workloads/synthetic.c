/* synthetic.c - jobs whose stages and task durations the scenario gives
 * directly: any DAG of stages, each task's duration drawn from the
 * stage's distribution (at speed 1; the engine divides by node speed). */
#include <string.h>

#include "arena.h"
#include "rng.h"
#include "scenario.h"
#include "util.h"
#include "workload.h"

void wl_synthetic_dag(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		      struct wl_dag *out)
{
	const struct scn_job_group *jg = &s->jobs[g];
	out->nstages = jg->nstages;
	out->st = arena_zalloc(a, (size_t)jg->nstages * sizeof *out->st);
	for (int i = 0; i < jg->nstages; i++) {
		const struct scn_stage *ss = &jg->stages[i];
		struct wl_stage *st = &out->st[i];
		st->ntasks = ss->tasks;
		st->work_us = arena_alloc(a, (size_t)ss->tasks * sizeof *st->work_us);
		if (ss->dur.kind == SCN_DIST_CONST) { /* no draw: no key to hash */
			for (int t = 0; t < ss->tasks; t++)
				st->work_us[t] = ss->dur.a;
		} else {
			struct rng_key k = rng_key(seed, 0, RNG_TASK, (uint32_t)g, (uint32_t)idx,
						   (uint32_t)i);
			for (int t = 0; t < ss->tasks; t++)
				st->work_us[t] = rng_dist(&ss->dur, k, (uint64_t)t);
		}
		st->nparents = ss->nparents;
		st->parents = arena_alloc(a, (size_t)ss->nparents * sizeof *st->parents);
		if (ss->nparents)
			memcpy(st->parents, ss->parents, (size_t)ss->nparents * sizeof *st->parents);
	}
}
