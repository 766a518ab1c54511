/* angel.c - Spark-on-Angel (spark-semantics.md §5, §7(d)).
 *
 * A Spark application whose executors train a model held by a group of
 * Angel parameter servers.  The PS group is started first and as a gang
 * (AngelYarnClient waits for every PS: waitForAllPS), so no task runs
 * until all `ps.count` servers are up; they hold their resources for the
 * application's lifetime and run no Spark task.
 *
 * Training is `iterations` stages in a chain, each of `partitions` tasks;
 * a task computes on its partition and pulls then pushes the model:
 *
 *   compute   kernel angel_compute, work = samples per partition
 *   push/pull kernel angel_pushpull, work = model MiB / PS count
 *             (the model is sharded over the servers, which serve their
 *             shards in parallel)
 *
 * CPU only; no GPU affinity.
 */
#include "arena.h"
#include "rng.h"
#include "scenario.h"
#include "util.h"
#include "workload.h"

void wl_angel_dag(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		  struct wl_dag *out)
{
	const struct scn_job_group *jg = &s->jobs[g];
	int ps = jg->ps.count > 0 ? jg->ps.count : 1;
	out->nstages = jg->iterations;
	out->st = arena_zalloc(a, (size_t)jg->iterations * sizeof *out->st);
	out->task_delay_us += s->cost.task_overhead_us;
	for (int i = 0; i < jg->iterations; i++) {
		struct wl_stage *st = &out->st[i];
		st->ntasks = jg->partitions;
		st->work_us = arena_alloc(a, (size_t)st->ntasks * sizeof *st->work_us);
		struct wl_cost comp, push;
		wl_cost_find(&comp, s, "angel_compute", "cpu", seed, (uint32_t)g, (uint32_t)idx,
			     (uint32_t)(2 * i));
		wl_cost_find(&push, s, "angel_pushpull", "cpu", seed, (uint32_t)g, (uint32_t)idx,
			     (uint32_t)(2 * i + 1));
		for (int t = 0; t < st->ntasks; t++)
			st->work_us[t] = wl_cost_at(&comp, jg->samples, 1.0, (uint64_t)t) +
					 wl_cost_at(&push, jg->model_mib / ps, 1.0, (uint64_t)t);
		st->parents = arena_alloc(a, sizeof *st->parents);
		st->nparents = i > 0;
		st->parents[0] = i - 1;
	}
}

int wl_angel_check(const struct scn *s, int g, char *err, size_t errlen)
{
	if (wl_need_kernel(s, g, "angel_compute", "cpu", err, errlen) ||
	    wl_need_kernel(s, g, "angel_pushpull", "cpu", err, errlen))
		return -1;
	return 0;
}
