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
 *
 * Data locality (the scenario's `locality`, on by default): each split
 * is an HDFS block with `hdfs_replicas` replicas on distinct nodes,
 * uniform over the cluster (place_replicas); its map task prefers them,
 * and reads its split over the network on any other node.  Reduce tasks
 * read shuffle output: no preference.
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "arena.h"
#include "models.h"
#include "rng.h"
#include "scenario.h"
#include "sim.h"
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

/* The stream of replica placements: (group, job, split) as coordinates,
 * the replica's draws as the draw index. */
#define RNG_REPLICAS ((enum rng_stream)(RNG_USER + 0))

/* The nodes of the replicas of split t of job (g, idx): r distinct nodes
 * of the n of the cluster (r <= n), each uniform over the nodes not yet
 * chosen (a draw that falls on a chosen node is drawn again), into
 * out[0..r).  HDFS's default placement puts the first replica on the
 * writer's node and the others on another rack; with no racks and
 * writers outside the cluster this is the simplification.  A pure
 * function of (seed, g, idx, t, n, r): the same under every policy.
 * base: rng_key_base(seed, 0, RNG_REPLICAS, g), made once per job. */
static void place_replicas(struct rng_base base, int idx, int t, int n, int r, int *out)
{
	struct rng_key k = rng_key_of(base, (uint32_t)idx, (uint32_t)t);
	uint64_t d = 0;
	for (int i = 0; i < r; i++) {
		bool dup = true;
		while (dup) {
			int v = (int)(rng_u01(k, d++) * n);
			out[i] = v < n ? v : n - 1;
			dup = false;
			for (int q = 0; q < i; q++)
				dup |= out[q] == out[i];
		}
	}
}

static void wc_build(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		     struct sim_dag *out)
{
	const struct scn_job_group *grp = &s->jobs[g];
	const struct jm_wordcount *jg = grp->params;
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
	struct sim_dag_stage *map = &out->st[0], *red = &out->st[1];
	map->ntasks = m;
	map->work_us = arena_alloc(a, (size_t)m * sizeof *map->work_us);
	struct wl_cost c;
	wl_cost_find(&c, s, "wordcount_map", "cpu", seed, (uint32_t)g, (uint32_t)idx, 0);
	for (int t = 0; t < m; t++)
		map->work_us[t] = wl_cost_at(&c, split_mib(in, block, t, m), 1.0, (uint64_t)t);
	if (s->loc.enabled) { /* HDFS replicas: the map tasks' preferred nodes */
		int n = 0;
		for (int k = 0; k < s->ngroups; k++)
			n += s->groups[k].count;
		int rep = jg->hdfs_replicas < n ? jg->hdfs_replicas : n;
		map->npref = rep;
		map->pref = arena_alloc(a, (size_t)m * (size_t)rep * sizeof *map->pref);
		/* a task away from its replicas reads its split: every one
		 * split_size but the last, what is left */
		map->remote_each_mib = split_mib(in, block, 0, m > 1 ? m : 2);
		map->remote_last_mib = split_mib(in, block, m - 1, m);
		struct rng_base base = rng_key_base(seed, 0, RNG_REPLICAS, (uint32_t)g);
		for (int t = 0; t < m; t++)
			place_replicas(base, idx, t, n, rep, map->pref + (size_t)t * (size_t)rep);
	}
	red->ntasks = r;
	red->work_us = arena_alloc(a, (size_t)r * sizeof *red->work_us);
	wl_cost_find(&c, s, "wordcount_reduce", "cpu", seed, (uint32_t)g, (uint32_t)idx, 1);
	for (int t = 0; t < r; t++)
		red->work_us[t] = wl_cost_at(&c, per_reduce, 1.0, (uint64_t)t);
	red->parents = arena_alloc(a, sizeof *red->parents);
	red->parents[0] = 0;
	red->nparents = 1;
}

static void wc_shape(const struct scn *s, int g, struct sim_shape *out)
{
	const struct jm_wordcount *p = s->jobs[g].params;
	wl_spark_shape(&s->jobs[g], &p->exec, out);
}

/* one map task per split: the largest input (the mean of an unbounded
   distribution) over the split size */
static int wc_loaded(struct scn_job_group *grp, const struct jm_given *given, char *err,
		     size_t errlen)
{
	const struct jm_wordcount *j = grp->params;
	enum scn_dist_kind k = j->input_mib.kind;
	double most = k == SCN_DIST_UNIFORM ? j->input_mib.b : j->input_mib.a;
	if (most / (double)j->split_mib > SCN_MAX_TASKS) {
		const struct scn_pos *at = jm_pos(&jm_wordcount, given, "input");
		snprintf(err, errlen, "%s:%d:%d: %s input of %.0fMiB in splits of %" PRId64 "MiB "
			 "makes more than %d map tasks (the limit of tasks per stage)",
			 at->file, at->line, at->col,
			 k == SCN_DIST_CONST ? "the" : k == SCN_DIST_UNIFORM ? "the largest" : "the mean",
			 most, j->split_mib, SCN_MAX_TASKS);
		return -1;
	}
	return 0;
}

static int wc_check(const struct scn *s, int g, char *err, size_t errlen)
{
	if (wl_need_kernel(s, g, "wordcount_map", "cpu", err, errlen) ||
	    wl_need_kernel(s, g, "wordcount_reduce", "cpu", err, errlen))
		return -1;
	return 0;
}

#define WC(f) offsetof(struct jm_wordcount, f)
static const struct jm_key wc_keys[] = {
	SPARK_EXEC_KEYS(struct jm_wordcount),
	{.key = "input", .kind = JM_DIST_SIZE, .off = WC(input_mib), .required = true,
	 .help = "input size per job: a size or a distribution of sizes"},
	{.key = "parallelism", .kind = JM_INT, .off = WC(parallelism), .lo = 1,
	 .hi = SCN_MAX_TASKS, .what = "tasks per stage",
	 .help = "reduce tasks (default: as many as map tasks)"},
	{.key = "shuffle_ratio", .kind = JM_NUM, .off = WC(shuffle_ratio), .flo = 0, .fhi = 10,
	 .lo_open = true, .what = "a number in (0, 10]",
	 .help = "shuffle bytes over input bytes (default 0.1)"},
	{.key = "split", .kind = JM_SIZE, .off = WC(split_mib), .lo = 1,
	 .help = "HDFS block size (default 128MiB)"},
	{.key = "hdfs_replicas", .kind = JM_INT, .off = WC(hdfs_replicas), .lo = 1,
	 .hi = SIM_MAX_PREF, .what = "replicas of a block",
	 .help = "HDFS replicas of each input block, on distinct nodes (default 3)"},
};

static const struct jm_wordcount wc_defaults = {
	.exec = {.count = 2, .mem_mib = 1024},
	.input_mib = {.kind = SCN_DIST_CONST},
	.shuffle_ratio = 0.1,
	.split_mib = 128,
	.hdfs_replicas = 3,
};

static const struct sim_job_ops wc_ops = {
	.shape = wc_shape,
	.build = wc_build,
	.roles = {"executor"},
};

static const char *const wc_clock_kernels[] = {"wordcount_map", "wordcount_reduce", NULL};

const struct job_model jm_wordcount = {
	.name = "wordcount",
	.keys = wc_keys,
	.nkeys = ARRAY_LEN(wc_keys),
	.params_size = sizeof(struct jm_wordcount),
	.defaults = &wc_defaults,
	.loaded = wc_loaded,
	.check = wc_check,
	.clock_kernels = wc_clock_kernels,
	.ops = &wc_ops,
};
