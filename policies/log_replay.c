/* log_replay.c - the executors of a replayed Spark application where and
 * when its event log says (`hetsim replay-log`, docs/traces.md).
 *
 * The application's cluster manager already decided: executor k came up
 * on its host at its ExecutorAdded time and went at its ExecutorRemoved
 * time (dynamic allocation gives idle executors back).  This policy
 * launches each at its added time (its start-up is in the log: the
 * replay's executor start-up is 0) and preempts it at its removed time
 * (its running tasks, if the replay still runs any on it, are killed and
 * run again elsewhere, as when Spark loses an executor); it places
 * nothing else.  It runs only a job whose group carries a logged
 * application (scn_job_group.app: the spark-app model's), the first
 * such to arrive; any other job can never be placed (job-type).
 *
 * Under dynamic allocation the removal is Spark's decision, which the
 * replay remakes: as ExecutorAllocationManager does, an executor that
 * has run no task for executorIdleTimeout (in the replay, from its
 * launch or its last task's end) is given back then, or at its logged
 * removal if that comes first.  The logged removal comes later than the
 * decision (the kill takes time to reach the listener), and a replay
 * that gave the idle executor tasks until then would run them on an
 * executor Spark had stopped offering.
 *
 * Timers: tag 4k launches executor k, 4k + 1 removes it at its logged
 * time, 4k + 2 checks whether it has been idle for the timeout.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pol_common.h"
#include "scn_app.h"
#include "sim.h"
#include "util.h"

struct replay {
	const struct scn_app *app;
	int job;          /* the application's job; -1 before it arrives */
	int *pos;         /* per logged executor: its launch position in the job
			     (sim_job_exec), -1 if not launched */
	int *of_pos;      /* per launch position: the logged executor */
	int64_t *idle_since; /* per logged executor: its last task's end, or
			     its launch */
};

static void *rp_init(struct sim *s, const struct scn_policy *cfg)
{
	(void)cfg;
	struct replay *r = xcalloc(1, sizeof *r);
	const struct scn *sc = sim_scenario(s);
	r->job = -1;
	for (int g = 0; g < sc->njobgroups && !r->app; g++)
		r->app = sc->jobs[g].app;
	int n = r->app ? r->app->nexecs : 0;
	r->pos = xmalloc((size_t)(n ? n : 1) * sizeof *r->pos);
	r->of_pos = xmalloc((size_t)(n ? n : 1) * sizeof *r->of_pos);
	r->idle_since = xmalloc((size_t)(n ? n : 1) * sizeof *r->idle_since);
	for (int k = 0; k < n; k++) {
		r->pos[k] = r->of_pos[k] = -1;
		sim_policy_timer(s, (double)r->app->execs[k].added_us, (uint32_t)(4 * k));
		if (r->app->execs[k].removed_us >= 0)
			sim_policy_timer(s, (double)r->app->execs[k].removed_us, (uint32_t)(4 * k + 1));
	}
	return r;
}

static void launch(struct replay *r, struct sim *s, int k);

static void rp_arrived(void *st, struct sim *s, int job)
{
	struct replay *r = st;
	if (!sim_scenario(s)->jobs[sim_job(s, job)->group].app || r->job >= 0) {
		sim_reject_job(s, job, SIM_WHY_JOB_TYPE);
		return;
	}
	r->job = job;
	/* executors added at or before the start (their timers fired before
	 * the application arrived) come up now */
	for (int k = 0; k < r->app->nexecs; k++)
		if (r->pos[k] < 0 && r->app->execs[k].added_us <= sim_now(s) &&
		    (r->app->execs[k].removed_us < 0 || r->app->execs[k].removed_us > sim_now(s)))
			launch(r, s, k);
}

/* Check executor k for idleness at idle_since + the timeout. */
static void idle_check(struct replay *r, struct sim *s, int k)
{
	if (r->app->idle_timeout_us > 0)
		sim_policy_timer(s, (double)(r->idle_since[k] + r->app->idle_timeout_us - sim_now(s)),
				 (uint32_t)(4 * k + 2));
}

static void launch(struct replay *r, struct sim *s, int k)
{
	const struct scn_app_exec *e = &r->app->execs[k];
	const struct clu *c = sim_cluster(s);
	/* a scenario's cluster (log-replay named in its policies) need not be
	 * the log's: an executor whose host is not there, or does not hold
	 * it, is not launched (the kernel would call that a broken invariant) */
	if (e->node < 0 || e->node >= c->n ||
	    !clu_fits(&c->nodes[e->node], e->cores * CLU_MILLI, r->app->exec_mem_mib, e->gpus,
		      false))
		return;
	r->pos[k] = sim_job_nexecs(sim_job(s, r->job));
	r->of_pos[r->pos[k]] = k;
	r->idle_since[k] = sim_now(s);
	sim_launch_executor(s, r->job, 0, e->node, e->cores * CLU_MILLI, r->app->exec_mem_mib,
			    e->gpus);
	idle_check(r, s, k);
}

static void rp_timer(void *st, struct sim *s, uint32_t tag)
{
	struct replay *r = st;
	int k = (int)(tag / 4), what = (int)(tag % 4);
	if (r->job < 0 || sim_job(s, r->job)->status >= JOB_DONE)
		return; /* before the application, or after it */
	const struct sim_job *j = sim_job(s, r->job);
	if (what == 0) {
		if (r->pos[k] < 0)
			launch(r, s, k);
		return;
	}
	struct sim_exec *x = r->pos[k] >= 0 ? sim_job_exec(s, j, r->pos[k]) : NULL;
	if (!x || !x->live)
		return;
	if (what == 2 && (sim_exec_tasks(s, x) > 0 ||
			  r->idle_since[k] + r->app->idle_timeout_us > sim_now(s)))
		return; /* busy, or idle since later: a later check decides */
	sim_preempt_executor(s, x);
}

static void rp_exec_idle(void *st, struct sim *s, struct sim_exec *x)
{
	struct replay *r = st;
	int k = r->of_pos[sim_exec_pos(x)];
	if (k < 0 || r->app->idle_timeout_us <= 0)
		return;
	r->idle_since[k] = sim_now(s);
	idle_check(r, s, k);
}

static void rp_can_ever_place(const struct scn_policy *cfg, const struct scn *sc, int group,
			      const struct sim_shape *sh, struct pol_verdict *v)
{
	(void)cfg, (void)sh;
	v->why = SIM_WHY_NONE;
	v->detail[0] = '\0';
	if (!sc->jobs[group].app) {
		v->why = SIM_WHY_JOB_TYPE;
		snprintf(v->detail, sizeof v->detail, "log-replay places only the application of "
			 "a Spark event log (hetsim replay-log)");
	}
}

static void rp_fini(void *st)
{
	struct replay *r = st;
	free(r->pos);
	free(r->of_pos);
	free(r->idle_since);
	free(r);
}

static const struct pol_param rp_params[] = {{.key = NULL}};

const struct policy_ops pol_log_replay = {
	.name = "log-replay",
	.summary = "a Spark event log's executors, on their hosts, when the log says (replay-log)",
	.params = rp_params,
	.uses_labels = false,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.needs = POL_NEED_EVENT_LOG,
	.init = rp_init,
	.job_arrived = rp_arrived,
	.timer = rp_timer,
	.exec_idle = rp_exec_idle,
	.fini = rp_fini,
	.can_ever_place = rp_can_ever_place,
};
