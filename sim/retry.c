/* retry.c - task attempts killed without finishing: off their node and
 * its clock, their task back to its stage to run again (requeue) or
 * for good, a counted loss towards spark.task.maxFailures.  Calls
 * events.c (the node's load and end event).
 */
#include "kernel.h"

#include <stdlib.h>

/* Take run r off its node without finishing it: its task goes back to
 * its stage, to run again.  A counted loss (a failure, not a preemption)
 * adds a failed attempt; returns whether the task has now failed
 * spark.task.maxFailures times (its job must fail). */
bool k_kill_run(struct sim *s, int r, bool counts, bool requeue)
{
	struct run *ru = &s->runs[r];
	struct sim_job *j = &s->pub.jobs[ru->job];
	struct sim_live *jr = ru->jr;
	struct sim_stage *st = ru->st;
	struct clu_node *n = &s->clu.nodes[ru->node];
	int task = ru->task, node = ru->node, cpus = ru->cpus;
	bool own = ru->own;
	if (s->task_sink)
		s->task_sink(s->task_ctx, s, j->id, ru->stage, task,
			     s->execs[jr->execs[ru->jpos].id].id, node, ru->start_us, s->now, false);
	if (ru->twin >= 0) { /* its other attempt goes on: the task is running */
		s->runs[ru->twin].twin = -1;
		ru->twin = -1;
		requeue = counts = false;
	}
	if (st->state && requeue) {
		if (st->state[task] != T_RUNNING)
			sim_die(s, "task %d of stage %d of job %d killed but not running", task,
			    ru->stage, j->id);
		st->state[task] = T_PENDING;
	}
	/* a preemption (requeued, not counted) of a task that resumes: what
	 * it had left, from its node's clock or its own rate since its work
	 * began (a task with its own end event ran at one rate throughout) */
	int64_t resume = requeue && !counts && j->shape->ops->resume_cost_us
			 ? j->shape->ops->resume_cost_us(s->scn, j->group) : -1;
	double left = ru->work_us;
	if (resume >= 0 && own && s->now > ru->from_us)
		left -= (double)(s->now - ru->from_us) * n->rate;
	jr->tasks_running--;
	st->running--;
	jr->execs[ru->jpos].free++; /* its executor, if it stays, may take another */
	s->runs_live--;
	ru->listed = false;
	ru->running = false;
	if (requeue && resume < 0) /* a resumed task's work is kept */
		s->tot.lost_core_us += (double)(s->now - ru->start_us) * ((double)cpus / CLU_MILLI);
	if (own) { /* off the node's list */
		if (ru->prev >= 0)
			s->runs[ru->prev].next = ru->next;
		else
			n->run_head = ru->next;
		if (ru->next >= 0)
			s->runs[ru->next].prev = ru->prev;
	} else { /* off the node's clock */
		if (!ps_remove(&s->ps, node, r, s->now, resume >= 0 ? &left : NULL))
			sim_die(s, "killed run %d is not on node %s's clock", r, n->name);
		if (s->ps.nodes[node].ev_run == r)
			s->ps.nodes[node].ev_run = -1; /* the node's event was for it */
	}
	if (ru->end_seq != UINT64_MAX)
		s->stale_ends++; /* its end event is now stale */
	ru->end_seq = UINT64_MAX;
	ru->next = s->free_run;
	s->free_run = r;
	integrate(s);
	if (k_change_load(s, node, -cpus) || !own)
		k_push_task_end(s, node); /* the node's next end */
	check_node(s, node);
	if (!requeue)
		return false;
	if (resume >= 0) {
		if (!st->left_us) {
			st->left_us = arena_alloc(&jr->ar, (size_t)st->ntasks * sizeof *st->left_us);
			for (int k = 0; k < st->ntasks; k++)
				st->left_us[k] = -1;
		}
		st->left_us[task] = (left > 0 ? left : 0) + (double)resume;
	}
	if (!st->redo)
		st->redo = arena_alloc(&jr->ar, (size_t)st->ntasks * sizeof *st->redo);
	st->redo[st->nredo++] = task;
	if (counts) {
		if (!st->fails)
			st->fails = arena_zalloc(&jr->ar, (size_t)st->ntasks);
		int max = s->scn->jobs[j->group].task_max_failures;
		if (++st->fails[task] >= (max > 0 ? max : 4))
			return true; /* its job fails: this attempt is not run again */
	}
	s->tot.tasks_retried++;
	return false;
}

/* Kill the tasks job j runs on executor slot `id` (all its tasks: -1). */
/* The run slots of every task on node `id` (own end events and clock)
 * into *buf (grown), their number. */
static int node_runs(const struct sim *s, int id, int **buf, int *cap)
{
	int n = 0, k = ps_ntasks(&s->ps, id);
	for (int r = s->clu.nodes[id].run_head; r >= 0; r = s->runs[r].next) {
		xgrow(buf, cap, n + 1, sizeof **buf);
		(*buf)[n++] = r;
	}
	xgrow(buf, cap, n + k + 1, sizeof **buf);
	for (int i = 0; i < k; i++)
		(*buf)[n++] = ps_task(&s->ps, id, i);
	return n;
}

/* Kill the tasks job j runs on executor slot `id` (all its tasks: -1),
 * to run again (requeue: their executor or parameter server was lost;
 * counts: as a failed attempt), or for good (its job fails).  Returns
 * whether a task has now failed its last attempt. */
bool k_kill_tasks(struct sim *s, struct sim_job *j, int id, bool counts, bool requeue)
{
	bool fail = false;
	struct sim_live *jr = j->live;
	int *rs = NULL, cap = 0;
	for (int i = 0; i < jr->nexecs && jr->tasks_running; i++) {
		const struct sim_job_exec *je = &jr->execs[i];
		if (je->id < 0 || (id >= 0 && je->id != id))
			continue;
		int n = node_runs(s, s->execs[je->id].node, &rs, &cap);
		for (int k = 0; k < n; k++)
			if (s->runs[rs[k]].exec == je->id && s->runs[rs[k]].job == j->id)
				fail |= k_kill_run(s, rs[k], counts, requeue);
	}
	free(rs);
	return fail;
}
