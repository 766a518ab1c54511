/* trace.c - jobs read from a trace (scenario/scn_trace.h): each job is a
 * row of its trace's table, with a demand (one of the trace's shapes)
 * and a run time of its own.
 *
 * A trace job is rigid, as the batch and GPU jobs of the traces ran: it
 * holds all its executors before any task starts (sim_hold_tasks until
 * every executor is up), then runs one stage of shape.tasks tasks, each
 * for the row's run time at speed 1 (the node's cpu_speed divides it, as
 * any task's).  Each executor's task slots are its role's `slots` (an
 * SWF processor a slot; a pod or an instance one).
 *
 * CPU is the trace's milli-cores, at least 1 (0 would mean "unset" to
 * the policies), and each task demands its executor's share of them
 * (task_cpus = role 0's cores / slots; a second role's executors are
 * assumed to match), so that processor sharing slows a task only when a
 * node's tasks demand more than its cores.
 * A GPU share is a share (sim_role.gpu_milli): fifo and label-dual place
 * it on one GPU with that much free, spark-standalone and yarn ask a whole
 * GPU for it (docs/traces.md, "Units").
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "arena.h"
#include "models.h"
#include "scn_trace.h"
#include "sim.h"
#include "util.h"

static const struct scn_trace_job *row(const struct scn *s, int g, int idx)
{
	return &s->jobs[g].trace->jobs[idx];
}

static int tr_nshapes(const struct scn *s, int g)
{
	return s->jobs[g].trace->nshapes;
}

static void tr_shape_at(const struct scn *s, int g, int k, struct sim_shape *out)
{
	const struct scn_job_group *jg = &s->jobs[g];
	const struct scn_trace_shape *ts = &jg->trace->shapes[k];
	out->nroles = ts->nroles;
	int64_t cmax = 0;
	for (int r = 0; r < ts->nroles; r++) {
		const struct scn_trace_role *tr = &ts->role[r];
		out->role[r] = (struct sim_role){
			.mem_mib = tr->mem_mib, .require = tr->require | jg->require,
			.prefer = jg->prefer, .count = tr->count,
			.cores = tr->cpu_milli > 0 ? tr->cpu_milli : 1,
			.gpus = tr->gpus, .gpu_milli = tr->gpus ? 0 : tr->gpu_milli,
			.slots = tr->slots};
		cmax += (int64_t)tr->count * out->role[r].cores;
	}
	out->cores_max = cmax > INT_MAX ? INT_MAX : (int)cmax;
	out->rigid = true;
	int per = out->role[0].cores / (ts->role[0].slots > 0 ? ts->role[0].slots : 1);
	out->task_cpus = per > 0 ? per : 1;
}

static void tr_shape(const struct scn *s, int g, struct sim_shape *out)
{
	tr_shape_at(s, g, 0, out);
}

static int tr_job_shape(const struct scn *s, int g, int idx)
{
	return row(s, g, idx)->shape;
}

enum { T_KILL = 1 };

/* kill_at_request: the job's executors are up and its tasks start (the
 * first of them opened: sim_release_tasks opens them all at once); a job
 * whose run time passes its requested time gets a timer at it, which
 * ends it timed out, as a batch system kills it at its limit. */
static void tr_exec_ready(struct sim *s, struct sim_job *j, struct sim_exec *x)
{
	const struct scn_trace *t = sim_scenario(s)->jobs[j->group].trace;
	const struct scn_trace_job *tj = &t->jobs[j->index];
	sim_exec_open(s, j, x);
	if (t->kill && !j->mstate && tj->req_us > 0 && tj->run_us > tj->req_us) {
		sim_job_set_state(s, j, 1); /* once: a replacement executor changes nothing */
		sim_job_timer(s, j, (double)tj->req_us, T_KILL);
	}
}

static void tr_timer(struct sim *s, struct sim_job *j, struct sim_exec *x, int tag)
{
	if (!x && tag == T_KILL)
		sim_end_job(s, j, JOB_TIMED_OUT, SIM_WHY_TIME_LIMIT);
}

/* A preempted job resumes from a checkpoint of what its tasks had done
 * (Tiresias's simulator charges nothing: remaining = duration − total
 * executed time), at the trace's resume_cost; or, with `preempted:
 * restart`, runs again from the start. */
static int64_t tr_resume_cost_us(const struct scn *s, int g)
{
	const struct scn_trace *t = s->jobs[g].trace;
	return t->restart ? -1 : t->resume_cost_us;
}

static void tr_arrived(struct sim *s, struct sim_job *j)
{
	int n = 0;
	for (int r = 0; r < j->shape->nroles; r++)
		n += j->shape->role[r].count;
	sim_hold_tasks(s, j->id, n);
}

static void tr_build(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		     struct sim_dag *out)
{
	(void)seed;
	const struct scn_trace_job *tj = row(s, g, idx);
	const struct scn_trace_shape *ts = &s->jobs[g].trace->shapes[tj->shape];
	out->nstages = 1;
	out->st = arena_zalloc(a, sizeof *out->st);
	out->st->ntasks = ts->tasks;
	out->st->work_us = arena_alloc(a, (size_t)ts->tasks * sizeof *out->st->work_us);
	/* offer-only: the job must hold until the last arrival on any node,
	 * so its work is its hold at the fastest node's speed (a slower
	 * node, or contention, only holds it longer) */
	double speed = 1;
	if (s->jobs[g].trace->offer)
		for (int k = 0; k < s->ngroups; k++)
			if (s->groups[k].cpu_speed > speed)
				speed = s->groups[k].cpu_speed;
	for (int t = 0; t < ts->tasks; t++)
		out->st->work_us[t] = (double)tj->run_us * speed;
}

static long long tr_tasks(const struct scn_job_group *jg)
{
	long long n = 0;
	for (int64_t i = 0; i < jg->trace->njobs; i++)
		n += jg->trace->shapes[jg->trace->jobs[i].shape].tasks;
	return jg->count ? (n + jg->count - 1) / jg->count : 0;
}

static int tr_loaded(struct scn_job_group *jg, const struct jm_given *given, char *err,
		     size_t errlen)
{
	if (jg->trace)
		return 0;
	snprintf(err, errlen, "%s:%d:%d: type trace is for jobs read from a trace: write "
		 "`- trace: {format: ..., path: ...}` in the workload", given->group.file,
		 given->group.line, given->group.col);
	return -1;
}

/* The user's requested time (SWF field 9), and the row's run time: every
 * task runs it at once, on executors all up. */
static void tr_estimate(const struct scn *s, int g, int idx, int64_t *requested_us,
			int64_t *actual_us)
{
	const struct scn_trace_job *tj = row(s, g, idx);
	*requested_us = tj->req_us;
	*actual_us = tj->run_us;
}

/* The job's number in its trace (SWF field 1, a CSV's job id, else the
 * record's ordinal). */
static int64_t tr_number(const struct scn *s, int g, int idx)
{
	return row(s, g, idx)->id;
}

static const struct sim_job_ops tr_ops = {
	.estimate = tr_estimate,
	.number = tr_number,
	.shape = tr_shape,
	.nshapes = tr_nshapes,
	.shape_at = tr_shape_at,
	.job_shape = tr_job_shape,
	.arrived = tr_arrived,
	.exec_ready = tr_exec_ready,
	.timer = tr_timer,
	.resume_cost_us = tr_resume_cost_us,
	.build = tr_build,
	.roles = {"executor", "executor2"},
};

const struct job_model jm_trace = {
	.name = "trace",
	.loaded = tr_loaded,
	.tasks = tr_tasks,
	.ops = &tr_ops,
};
