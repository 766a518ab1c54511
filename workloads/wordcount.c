/* wordcount.c - Spark's WordCount: textFile -> flatMap -> map ->
 * reduceByKey -> save, i.e. two stages (spark-semantics.md §6):
 *
 *   map    one task per input split.  Hadoop's FileInputFormat with
 *          minPartitions 2: split = min(input / 2, block size); splits are
 *          cut while what is left exceeds 1.1 splits (the "slop"), the
 *          rest is the last split.  Cost: kernel wordcount_map, MiB read.
 *   reduce `parallelism` tasks (default: as many as map tasks), each
 *          merging input × shuffle_ratio / reducers MiB of partial
 *          counts.  Cost: kernel wordcount_reduce.
 *
 * CPU only; durations are at speed 1 and the engine divides by the
 * node's speed and core share.  Each task also waits the task-launch
 * overhead plus the cost model's per-task framework overhead.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "arena.h"
#include "rng.h"
#include "scenario.h"
#include "util.h"
#include "workload.h"

/* Hadoop's splits of an input of `in` MiB into blocks of `block`: the
 * first split's size, and their number (the last split holds what is
 * left: see split_mib). */
static double split_size(double in, double block)
{
	return in / 2 < block ? in / 2 : block;
}

static int nsplits(double in, double block)
{
	double size = split_size(in, block), left = in;
	int n = 1;
	for (; left / size > 1.1; left -= size)
		n++;
	return n;
}

/* Size of split t of n: the same arithmetic as nsplits, so that the last
 * split is exactly what its loop leaves. */
static double split_mib(double in, double block, int t, int n)
{
	double size = split_size(in, block), left = in;
	if (t < n - 1)
		return size;
	for (int k = 0; k < n - 1; k++)
		left -= size;
	return left;
}

void wl_wordcount_dag(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		      struct wl_dag *out)
{
	const struct scn_job_group *jg = &s->jobs[g];
	double in = rng_dist(&jg->input_mib, rng_key(seed, 0, RNG_SIZE, (uint32_t)g,
						     (uint32_t)idx, 0), 0);
	/* an unbounded size distribution may draw absurd inputs: at least
	 * 1 MiB, at most 10^6 splits (the loader's limit of tasks per stage) */
	if (in < 1)
		in = 1;
	if (in > 1e6 * (double)jg->split_mib)
		in = 1e6 * (double)jg->split_mib;
	double block = (double)jg->split_mib;
	int m = nsplits(in, block);
	int r = jg->parallelism > 0 ? jg->parallelism : m;
	double per_reduce = in * jg->shuffle_ratio / r;

	out->nstages = 2;
	out->st = arena_zalloc(a, 2 * sizeof *out->st);
	out->task_delay_us += s->cost.task_overhead_us;
	struct wl_stage *map = &out->st[0], *red = &out->st[1];
	map->ntasks = m;
	map->work_us = arena_alloc(a, (size_t)m * sizeof *map->work_us);
	struct wl_cost c;
	wl_cost_find(&c, s, "wordcount_map", "cpu", seed, (uint32_t)g, (uint32_t)idx, 0);
	for (int t = 0; t < m; t++)
		map->work_us[t] = wl_cost_at(&c, split_mib(in, block, t, m), 1.0, (uint64_t)t);
	red->ntasks = r;
	red->work_us = arena_alloc(a, (size_t)r * sizeof *red->work_us);
	wl_cost_find(&c, s, "wordcount_reduce", "cpu", seed, (uint32_t)g, (uint32_t)idx, 1);
	for (int t = 0; t < r; t++)
		red->work_us[t] = wl_cost_at(&c, per_reduce, 1.0, (uint64_t)t);
	red->parents = arena_alloc(a, sizeof *red->parents);
	red->parents[0] = 0;
	red->nparents = 1;
}

int wl_need_kernel(const struct scn *s, int g, const char *kernel, const char *dev,
		       char *err, size_t errlen)
{
	const struct scn_job_group *jg = &s->jobs[g];
	const struct scn_cost_kernel *k = scn_cost_kernel(s, kernel);
	if (k && scn_cost_device(k, dev))
		return 0;
	snprintf(err, errlen, "%s:%d:%d: job group '%s' needs kernel '%s' for device '%s' "
		 "in the cost model%s", jg->pos.file, jg->pos.line, jg->pos.col, jg->name,
		 kernel, dev, s->cost.nkernels ? "" : " (the scenario has no cost_model)");
	return -1;
}

int wl_wordcount_check(const struct scn *s, int g, char *err, size_t errlen)
{
	if (wl_need_kernel(s, g, "wordcount_map", "cpu", err, errlen) ||
	    wl_need_kernel(s, g, "wordcount_reduce", "cpu", err, errlen))
		return -1;
	return 0;
}

/* mnist_spark checks live here too: both need the same helper. */
int wl_mnist_check(const struct scn *s, int g, char *err, size_t errlen)
{
	if (wl_need_kernel(s, g, "mnist_step", "cpu", err, errlen))
		return -1;
	const struct scn_cost_kernel *k = scn_cost_kernel(s, "mnist_step");
	for (int n = 0; n < s->ngroups; n++) {
		const struct scn_node_group *ng = &s->groups[n];
		if (ng->gpus > 0 && !scn_cost_device(k, ng->gpu_model) &&
		    wl_need_kernel(s, g, "mnist_step", "gpu", err, errlen))
			return -1;
	}
	return 0;
}
