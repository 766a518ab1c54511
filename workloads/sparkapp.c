/* sparkapp.c - a Spark application replayed from its event log
 * (scenario/scn_app.h; `hetsim replay-log`, docs/traces.md).
 *
 * One job: its executors are the application's (one role, as many as
 * were up at once, each of the executor's cores, memory and GPUs, with
 * the log's task slots), its DAG the logged stages in Spark's FIFO order
 * (job id, then stage id) with their parents, each task's work its
 * logged run time (Finish - Launch Time of its successful attempt), and
 * each stage held until its job's logged submission (release_us: the
 * driver's own time between jobs is the log's, not the scheduler's).
 * Task durations are replayed as they were, not from a cost model: the
 * run times already hold the node's speed, so the replay's nodes are
 * speed 1 and carry no contention.
 */
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "models.h"
#include "scn_app.h"
#include "sim.h"
#include "util.h"

static void app_shape(const struct scn *s, int g, struct sim_shape *out)
{
	const struct scn_app *a = s->jobs[g].app;
	out->nroles = 1;
	out->role[0] = (struct sim_role){.mem_mib = a->exec_mem_mib, .count = a->max_execs,
					 .cores = a->exec_cores * CLU_MILLI, .gpus = a->exec_gpus,
					 .slots = a->slots};
	out->task_cpus = a->task_cpus * CLU_MILLI;
}

static void app_build(const struct scn *s, int g, int idx, uint64_t seed, struct arena *ar,
		      struct sim_dag *out)
{
	(void)idx, (void)seed;
	const struct scn_app *a = s->jobs[g].app;
	out->nstages = a->nstages;
	out->st = arena_zalloc(ar, (size_t)a->nstages * sizeof *out->st);
	for (int i = 0; i < a->nstages; i++) {
		const struct scn_app_stage *as = &a->stages[i];
		struct sim_dag_stage *st = &out->st[i];
		st->ntasks = as->ntasks;
		st->work_us = as->work_us; /* read-only: the app outlives the run */
		st->parents = as->parents;
		st->nparents = as->nparents;
		st->release_us = as->release_us;
		st->delay_us = as->delay_us;
		if (as->pref && s->loc.enabled) { /* Spark's delay scheduling */
			st->npref = as->npref;
			st->pref = as->pref;
		}
	}
	out->task_delay_us = 0; /* the logged run times hold Spark's own overheads */
	out->fair = a->fair;
}

static bool app_dag_shared(const struct scn *s, int g)
{
	(void)s, (void)g;
	return true;
}

static int app_loaded(struct scn_job_group *jg, const struct jm_given *given, char *err,
		      size_t errlen)
{
	if (jg->app)
		return 0;
	snprintf(err, errlen, "%s:%d:%d: type spark-app is the application hetsim replay-log "
		 "reads from an event log, not a job group of a scenario", given->group.file,
		 given->group.line, given->group.col);
	return -1;
}

static long long app_tasks(const struct scn_job_group *jg)
{
	long long n = 0;
	for (int i = 0; i < jg->app->nstages; i++)
		n += jg->app->stages[i].ntasks;
	return n;
}

static const struct sim_job_ops app_ops = {
	.shape = app_shape,
	.build = app_build,
	.dag_shared = app_dag_shared,
	.roles = {"executor"},
};

const struct job_model jm_spark_app = {
	.name = "spark-app",
	.loaded = app_loaded,
	.tasks = app_tasks,
	.ops = &app_ops,
};
