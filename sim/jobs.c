/* jobs.c - jobs arrive and end: a job's arrival, its end (its tasks
 * killed, its executors released, its record queued to go back), its
 * rejection or failure by a policy or model, and the policy's notices
 * of both (job_arrived, job_finished, delivered at the end of the
 * timestamp); what a policy reads of a job's asks.  Calls retry.c,
 * executors.c, events.c, sim.c (names).
 */
#include "kernel.h"

#include <stdlib.h>
#include <string.h>

#include "policy.h"

/* Tell the policy that job `job` arrived (finished: false) or ended.  The
 * engine's own notices wait for the end of the timestamp, where settle
 * makes them, in order, just before schedule and inside the same timed
 * window: reading the clock costs ~12 ns in a virtual machine, four
 * times per job when each hook had its own window, a sixth of a farm
 * run's engine time.  Nothing but hooks reads a policy's state, so it
 * makes no difference when within the timestamp they run.  A notice
 * from inside a hook (a job a policy rejects) is made at once, as that
 * hook's timed window is open anyway. */
void k_notify(struct sim *s, int job, bool finished)
{
	if (!(finished ? s->ops->job_finished : s->ops->job_arrived))
		return;
	if (s->pol_depth) {
		const char *was = s->pol_hook;
		s->pol_hook = finished ? "job_finished" : "job_arrived";
		if (finished)
			s->ops->job_finished(s->pst, s, job);
		else
			s->ops->job_arrived(s->pst, s, job);
		s->pol_hook = was;
		return;
	}
	xgrow(&s->notes, &s->cap_notes, s->nnotes + 1, sizeof *s->notes);
	s->notes[s->nnotes++] = finished ? ~job : job;
}

/* Make the waiting notices, in order (a policy hook's window is open). */
void k_deliver_notes(struct sim *s)
{
	for (int i = 0; i < s->nnotes; i++) {
		int k = s->notes[i];
		s->pol_hook = k >= 0 ? "job_arrived" : "job_finished";
		if (k >= 0)
			s->ops->job_arrived(s->pst, s, k);
		else
			s->ops->job_finished(s->pst, s, ~k);
	}
	s->nnotes = 0;
}

int sim_next_role(const struct sim_job *j)
{
	for (int r = 0; r < j->shape->nroles; r++)
		if (j->live->granted[r] < j->shape->role[r].count)
			return r;
	return j->shape->nroles - 1;
}

int64_t sim_job_number(const struct sim *s, const struct sim_job *j)
{
	return j->shape->ops->number ? j->shape->ops->number(s->scn, j->group, j->index) : j->id;
}

void sim_job_estimate(const struct sim *s, const struct sim_job *j, int64_t *requested_us,
		      int64_t *actual_us)
{
	*requested_us = *actual_us = -1;
	if (j->shape->ops->estimate)
		j->shape->ops->estimate(s->scn, j->group, j->index, requested_us, actual_us);
}

bool sim_job_resumes(const struct sim *s, const struct sim_job *j)
{
	return j->shape->ops->resume_cost_us && j->shape->ops->resume_cost_us(s->scn, j->group) >= 0;
}

double sim_job_throughput(const struct sim *s, const struct sim_job *j, const char *gpu_model)
{
	const struct scn_job_group *g = &s->scn->jobs[j->group];
	for (int i = 0; i < g->ntput; i++)
		if (!strcmp(g->tput[i].gpu_model, gpu_model))
			return g->tput[i].rate;
	if (g->ntput)
		return 0;
	return j->shape->ops->throughput ? j->shape->ops->throughput(s->scn, j->group, gpu_model)
					 : 1;
}

int sim_execs_wanted(const struct sim_job *j)
{
	int n = 0;
	for (int r = 0; r < j->shape->nroles; r++)
		if (j->live->granted[r] < j->shape->role[r].count)
			n += j->shape->role[r].count - j->live->granted[r];
	return n;
}

/* ---- jobs ---------------------------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Distinct nodes that hosted the job's executors. */
static int count_nodes(const struct sim_live *jr)
{
	/* Most jobs have a handful of executors: count the distinct nodes by
	 * comparing each with those before it, no allocation; sort above. */
	if (jr->nexecs <= 16) {
		int n = 0;
		for (int i = 0; i < jr->nexecs; i++) {
			int k = 0;
			while (k < i && jr->execs[k].node != jr->execs[i].node)
				k++;
			n += k == i;
		}
		return n;
	}
	int *nodes = xmalloc((size_t)jr->nexecs * sizeof *nodes);
	for (int i = 0; i < jr->nexecs; i++)
		nodes[i] = jr->execs[i].node;
	qsort(nodes, (size_t)jr->nexecs, sizeof *nodes, cmp_int);
	int n = 1;
	for (int i = 1; i < jr->nexecs; i++)
		n += nodes[i] != nodes[i - 1];
	free(nodes);
	return n;
}

/* The job ends now with status `st`, reason `why` (enum sim_why) and
 * end time `end_us` (s->now, or -1 for a job that never ended: a
 * rejected one, or see finish): its executors go back, the policy
 * forgets it.  Tasks still running (a rejected job) are not
 * possible: only jobs without running tasks end other than DONE.  Every
 * field of the job that outputs read is final before its executors go
 * back (sim.h, sim_exec_sink). */

void k_end_job(struct sim *s, struct sim_job *j, enum sim_job_status st, int why,
		    int64_t end_us)
{
	if (!job_active(j))
		sim_die(s, "job %d ended twice", j->id);
	struct sim_live *jr = j->live;
	if (st == JOB_DONE && !has_live(j))
		sim_die(s, "job %d done without executors", j->id);
	if (jr->tasks_running && st == JOB_DONE)
		sim_die(s, "job %d done with %d tasks running", j->id, jr->tasks_running);
	if (jr->tasks_running) /* it failed: Spark kills the tasks it still runs */
		k_kill_tasks(s, j, -1, false, false);
	if (st == JOB_DONE && jr->nstages != jr->stages_done)
		sim_die(s, "job %d done with %d of %d stages", j->id, jr->stages_done, jr->nstages);
	if ((st == JOB_DONE) != (why == SIM_WHY_NONE) || why < 0 || why >= SIM_WHY_CODES)
		sim_die(s, "job %d ends %s with reason %d", j->id, sim_status_name(st), why);
	if (why)
		s->why[j->id] = (uint8_t)why; /* before the status: see sim_exec_sink */
	if (s->state_sink) /* the state it ends in */
		s->state_sink(s->state_ctx, s, j, j->mstate, s->state_since[j->id], end_us);
	j->status = st;
	j->end_us = end_us;
	if (j->shape->ops->teardown)
		j->shape->ops->teardown(s, j);
	if (has_live(j)) {
		if (jr->busy_gpus)
			sim_job_busy_gpus(s, j, 0);
		j->nodes_used = count_nodes(jr);
		for (int i = 0; i < jr->nexecs; i++)
			if (jr->execs[i].id >= 0) /* not lost before */
				k_release_exec(s, jr->execs[i].id);
		jr->nexecs = 0;
		jr->stages = NULL; /* its arena is reset when the record goes back */
		jr->nstages = 0;
		xgrow(&s->ended, &s->cap_ended, s->nended + 1, sizeof *s->ended);
		s->ended[s->nended++] = j->id;
	}
	if (j->end_us > s->tot.last_end_us)
		s->tot.last_end_us = j->end_us;
	s->tot.jobs_done += st == JOB_DONE;
	s->jobs_left--;
	k_notify(s, j->id, true);
	s->sched_dirty = true;
}

void sim_reject_job(struct sim *s, int job, int why)
{
	struct sim_job *j = &s->pub.jobs[job];
	if (why == SIM_WHY_NONE)
		sim_die(s, "policy rejected job %d without a reason", job);
	k_end_job(s, j, JOB_UNPLACEABLE, why, -1); /* no end: it never ran to one */
}

void sim_fail_job(struct sim *s, int job, int why)
{
	if (why == SIM_WHY_NONE)
		sim_die(s, "policy failed job %d without a reason", job);
	int64_t last = s->tot.last_end_us;
	k_end_job(s, &s->pub.jobs[job], JOB_FAILED, why, s->now);
	s->tot.last_end_us = last; /* it never ran: not the end of the batch's work */
}

int sim_job_why(const struct sim *s, int job)
{
	return s->why[job];
}

void k_on_arrive(struct sim *s, struct sim_job *j)
{
	/* queue the next arrival: one pending arrival at a time keeps the
	 * event queue small whatever the number of jobs */
	if (s->next_arrival < s->pub.njobs)
		k_push_arrival(s, &s->pub.jobs[s->next_arrival++]);
	j->status = JOB_WAITING;
	if (s->scn->offer) {
		xgrow(&s->offered, &s->cap_offered, s->noffered + 1, sizeof *s->offered);
		s->offered[s->noffered++] = j->id;
	}
	if (j->shape->ops->arrived)
		j->shape->ops->arrived(s, j);
	/* the stages are built at the first dispatch (dispatch_job): memory
	 * then follows the running jobs, not the queue; their draws are keyed,
	 * so when they are made changes nothing */
	k_notify(s, j->id, false);
	s->sched_dirty = true;
}

void sim_job_started(struct sim *s, struct sim_job *j)
{
	j->status = JOB_RUNNING;
	j->start_us = s->now;
}

void sim_end_job(struct sim *s, struct sim_job *j, enum sim_job_status st, int why)
{
	if (st == JOB_UNPLACEABLE)
		sim_die(s, "job %d: a model ended it unplaceable", j->id);
	k_end_job(s, j, st, why, s->now);
}
