/* synthetic.c - jobs whose stages and task durations the scenario gives
 * directly: any DAG of stages, each task's duration drawn from the
 * stage's distribution (at speed 1; the engine divides by node speed). */
#include <stddef.h>
#include <string.h>

#include "arena.h"
#include "models.h"
#include "rng.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"
#include "workload.h"

static void syn_build(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		      struct sim_dag *out)
{
	const struct scn_job_group *jg = &s->jobs[g];
	out->nstages = jg->nstages;
	out->st = arena_zalloc(a, (size_t)jg->nstages * sizeof *out->st);
	for (int i = 0; i < jg->nstages; i++) {
		const struct scn_stage *ss = &jg->stages[i];
		struct sim_dag_stage *st = &out->st[i];
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

/* Every job of the group has the same DAG when no duration is drawn. */
static bool syn_dag_shared(const struct scn *s, int g)
{
	const struct scn_job_group *jg = &s->jobs[g];
	for (int i = 0; i < jg->nstages; i++)
		if (jg->stages[i].dur.kind != SCN_DIST_CONST)
			return false;
	return true;
}

static void syn_shape(const struct scn *s, int g, struct sim_shape *out)
{
	const struct jm_synthetic *p = s->jobs[g].params;
	wl_spark_shape(&s->jobs[g], &p->exec, out);
}

static const struct jm_key syn_keys[] = {
	SPARK_EXEC_KEYS(struct jm_synthetic),
	{.key = "stages", .kind = JM_STAGES, .required = true,
	 .help = "the job's stages: name, tasks, duration, parents"},
};

static const struct jm_synthetic syn_defaults = {.exec = {.count = 2, .mem_mib = 1024}};

static const struct sim_job_ops syn_ops = {
	.shape = syn_shape,
	.build = syn_build,
	.dag_shared = syn_dag_shared,
	.roles = {"executor"},
};

const struct job_model jm_synthetic = {
	.name = "synthetic",
	.keys = syn_keys,
	.nkeys = ARRAY_LEN(syn_keys),
	.params_size = sizeof(struct jm_synthetic),
	.defaults = &syn_defaults,
	.ops = &syn_ops,
};
