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
#include <stddef.h>

#include "arena.h"
#include "models.h"
#include "rng.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"
#include "workload.h"

static void angel_build(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
			struct sim_dag *out)
{
	const struct jm_angel *jg = s->jobs[g].params;
	int ps = jg->ps.count > 0 ? jg->ps.count : 1;
	out->nstages = jg->iterations;
	out->st = arena_zalloc(a, (size_t)jg->iterations * sizeof *out->st);
	out->task_delay_us += s->cost.task_overhead_us;
	for (int i = 0; i < jg->iterations; i++) {
		struct sim_dag_stage *st = &out->st[i];
		st->ntasks = jg->partitions;
		st->work_us = arena_alloc(a, (size_t)st->ntasks * sizeof *st->work_us);
		struct wl_cost comp, push;
		wl_cost_find(&comp, s, "angel_compute", "cpu", seed, (uint32_t)g, (uint32_t)idx,
			     (uint32_t)(2 * i));
		wl_cost_find(&push, s, "angel_pushpull", "cpu", seed, (uint32_t)g, (uint32_t)idx,
			     (uint32_t)(2 * i + 1));
		for (int t = 0; t < st->ntasks; t++)
			st->work_us[t] = wl_cost_at(&comp, jg->samples, 1.0, (uint64_t)t) +
					 wl_cost_at(&push, (double)jg->model_mib / ps, 1.0, (uint64_t)t);
		st->parents = arena_alloc(a, sizeof *st->parents);
		st->nparents = i > 0;
		st->parents[0] = i - 1;
	}
}

#define ANGEL_MASTER_MIB 2048 /* spark.angel.master.memory */

/* Role 0: the Spark executors; role 1: the parameter servers, which run
 * no task and start as a gang before the first task (waitForAllPS). */
static void angel_shape(const struct scn *s, int g, struct sim_shape *out)
{
	const struct scn_job_group *grp = &s->jobs[g];
	const struct jm_angel *p = grp->params;
	wl_spark_shape(grp, &p->exec, out);
	out->nroles = 2;
	wl_set_role(&out->role[1], &p->ps, p->ps.count > 0 ? p->ps.count : 1, grp);
	out->role[1].slots = 0;
	out->gang_role = 1;
	/* Two applications on a resource manager: the Spark one, whose AM
	 * (of the manager's default size) asks for the executors, and
	 * Angel's, whose master (spark.angel.master.memory) asks for the
	 * parameter servers; their containers hold the memory configured,
	 * no Spark overhead on top */
	out->nmasters = 2;
	out->master[1] = (struct sim_master){.mem_mib = ANGEL_MASTER_MIB, .mem_as_is = true};
	out->role[1].asker = 1;
	out->role[1].mem_as_is = true;
}

static int angel_check(const struct scn *s, int g, char *err, size_t errlen)
{
	if (wl_need_kernel(s, g, "angel_compute", "cpu", err, errlen) ||
	    wl_need_kernel(s, g, "angel_pushpull", "cpu", err, errlen))
		return -1;
	return 0;
}

static long long angel_tasks(const struct scn_job_group *jg)
{
	const struct jm_angel *p = jg->params;
	return (long long)p->iterations * p->partitions;
}

#define AN(f) offsetof(struct jm_angel, f)
static const struct jm_key angel_keys[] = {
	SPARK_EXEC_KEYS(struct jm_angel),
	{.key = "ps", .kind = JM_ROLE, .off = AN(ps), .lo = 1,
	 .help = "the parameter servers: count, cores, memory, gpus, require, prefer"},
	{.key = "partitions", .kind = JM_INT, .off = AN(partitions), .lo = 1, .hi = SCN_MAX_TASKS,
	 .what = "tasks per stage", .help = "tasks per iteration (default 10)"},
	{.key = "iterations", .kind = JM_INT, .off = AN(iterations), .lo = 1, .hi = SCN_MAX_STAGES,
	 .what = "iterations", .help = "training iterations (default 10)"},
	{.key = "samples", .kind = JM_NUM, .off = AN(samples), .flo = 0, .fhi = 1e12,
	 .what = "a number of samples from 0 to 1e12",
	 .help = "samples per partition per iteration (default 10000)"},
	{.key = "model", .kind = JM_SIZE, .off = AN(model_mib), .lo = 0,
	 .help = "model size pulled and pushed per task (default 64MiB)"},
};

/* Defaults from the Angel quick start (executors of 2 cores and 2 GiB)
 * and AngelPSContext (1 PS of 1 core and 4 GiB). */
static const struct jm_angel angel_defaults = {
	.exec = {.count = 2, .cores = 2, .mem_mib = 2048},
	.ps = {.count = 1, .cores = 1, .mem_mib = 4096},
	.iterations = 10,
	.partitions = 10,
	.samples = 10000,
	.model_mib = 64,
};

/* A parameter server was lost: the tasks pulling from it fail and run
 * again once a replacement is up (the gang's gate closes until then:
 * gang_role); the replacement loads the model from the PS's last
 * checkpoint (angel.ps.checkpoint), so the iterations done are kept.  A
 * lost Spark executor is Spark's business (the kernel's default). */
static void angel_exec_lost(struct sim *s, struct sim_job *j, struct sim_exec *x, int why)
{
	(void)why;
	if (x->role == 1)
		sim_kill_tasks(s, j); /* may fail the job */
}

static const struct sim_job_ops angel_ops = {
	.shape = angel_shape,
	.build = angel_build,
	.exec_lost = angel_exec_lost,
	.roles = {"executor", "ps"},
	.roles_what = {NULL, "parameter servers"},
	.app_name = "Spark-on-Angel",
};

static const char *const angel_clock_kernels[] = {"angel_compute", "angel_pushpull", NULL};

const struct job_model jm_angel = {
	.name = "angel",
	.keys = angel_keys,
	.nkeys = ARRAY_LEN(angel_keys),
	.params_size = sizeof(struct jm_angel),
	.defaults = &angel_defaults,
	.check = angel_check,
	.tasks = angel_tasks,
	.clock_kernels = angel_clock_kernels,
	.ops = &angel_ops,
};
