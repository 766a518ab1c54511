/* model_gang.c - "gang", the example job model of
 * docs/writing-a-job-model.md: a two-role gang, as a Horovod-on-Spark or
 * MPI-style allreduce job runs, written outside workloads/ and added
 * while the program runs (jm_add), to show that a new model runs under
 * the stock policies with no edit to them: yarn, spark-standalone and
 * label-dual learn what it needs from its shape alone.
 *
 *   Role 0, "coordinator": one executor; it runs no task (slots 0).
 *   Role 1, "worker": `workers` executors, one task slot each.
 *   Rigid: no task runs before every executor of both roles is up (its
 *   arrived hook holds them: sim_hold_tasks).  Then one stage of one
 *   task per worker, each `task_time` long at speed 1.
 *   Its master, for a resource manager: `master_memory`, held as is (a
 *   launcher asks for what it uses; no Spark overhead on top).  Each role
 *   its own size (one_profile false): the workers are the big ones.
 *
 * Included by the tests only (tests/test_gang.c registers it); it may
 * call what any model calls: sim.h's requests, workload.h's helpers.
 */
#include <stddef.h>

#include "arena.h"
#include "model_gang.h"
#include "models.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"
#include "workload.h"

struct gang {
	struct scn_exec coordinator, worker;
	int workers;        /* worker executors (tasks) */
	int64_t task_us;    /* each task's work at speed 1 */
	int64_t master_mib; /* its master's memory, as is */
};

static void gang_shape(const struct scn *s, int g, struct sim_shape *out)
{
	const struct scn_job_group *grp = &s->jobs[g];
	const struct gang *p = grp->params;
	out->nroles = 2;
	wl_set_role(&out->role[0], &p->coordinator, 1, grp);
	wl_set_role(&out->role[1], &p->worker, p->workers, grp);
	out->role[0].slots = 0;
	out->role[1].slots = 1;
	out->rigid = true;
	out->nmasters = 1;
	out->master[0] = (struct sim_master){.mem_mib = p->master_mib, .mem_as_is = true};
}

static void gang_arrived(struct sim *s, struct sim_job *j)
{
	sim_hold_tasks(s, j->id, j->shape->role[0].count + j->shape->role[1].count);
}

static void gang_build(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		       struct sim_dag *out)
{
	(void)idx, (void)seed;
	const struct gang *p = s->jobs[g].params;
	out->nstages = 1;
	out->st = arena_zalloc(a, sizeof *out->st);
	out->st->ntasks = p->workers;
	out->st->work_us = arena_alloc(a, (size_t)p->workers * sizeof *out->st->work_us);
	for (int t = 0; t < p->workers; t++)
		out->st->work_us[t] = (double)p->task_us;
}

static bool gang_dag_shared(const struct scn *s, int g)
{
	(void)s, (void)g;
	return true; /* it draws nothing */
}

#define GK(f) offsetof(struct gang, f)
static const struct jm_key gang_keys[] = {
	{.key = "workers", .kind = JM_INT, .off = GK(workers), .lo = 1, .hi = SCN_MAX_EXECUTORS,
	 .what = "workers per job", .help = "worker executors, one task each (default 2)"},
	{.key = "coordinator", .kind = JM_ROLE, .off = GK(coordinator),
	 .help = "the coordinator's executor: cores, memory, gpus, require, prefer"},
	{.key = "worker", .kind = JM_ROLE, .off = GK(worker),
	 .help = "each worker's executor: cores, memory, gpus, require, prefer"},
	{.key = "task_time", .kind = JM_TIME, .off = GK(task_us), .lo = 1,
	 .help = "each worker's task at speed 1 (default 10s)"},
	{.key = "master_memory", .kind = JM_SIZE, .off = GK(master_mib), .lo = 1,
	 .help = "its master's memory on a resource manager, as is (default 1536MiB)"},
};

static const struct gang gang_defaults = {
	.coordinator = {.count = 1, .cores = 1, .mem_mib = 1024},
	.worker = {.count = 1, .cores = 2, .mem_mib = 2048},
	.workers = 2,
	.task_us = 10000000,
	.master_mib = 1536,
};

static const struct sim_job_ops gang_ops = {
	.shape = gang_shape,
	.arrived = gang_arrived,
	.build = gang_build,
	.dag_shared = gang_dag_shared,
	.roles = {"coordinator", "worker"},
	.app_name = "the gang job",
};

const struct job_model jm_gang = {
	.name = "gang",
	.keys = gang_keys,
	.nkeys = ARRAY_LEN(gang_keys),
	.params_size = sizeof(struct gang),
	.defaults = &gang_defaults,
	.ops = &gang_ops,
};
