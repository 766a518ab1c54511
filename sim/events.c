/* events.c - queueing the kernel's events (push_at, an arrival, a
 * node's task end), and a node's load and rate: the kernel's side of
 * processor sharing (share.h), where a change of load hands the node's
 * tasks to its clock.  Calls nothing of the kernel's.
 */
#include "kernel.h"

/* Queue an event at `t` µs (real: rates may make it fractional, rounded
 * to the nearest µs) and return its seq.  Past SIM_TIME_MAX the run
 * stops: sim_run fails. */
uint64_t k_push_at(struct sim *s, double t, enum ev_kind kind, uint32_t obj)
{
	if (!(t <= (double)SIM_TIME_MAX)) {
		s->overflow = true;
		return UINT64_MAX;
	}
	return eq_push(&s->q, (int64_t)round_half_away(t), kind, obj);
}

/* Queue the arrival of job j, as k_push_at, in the queue's side slot: one
 * arrival is pending at a time, and a heap push and pop per job would be
 * a third of a farm run's queue work (eq.h). */
void k_push_arrival(struct sim *s, const struct sim_job *j)
{
	/* a Poisson arrival can fall past SIM_TIME_MAX (the loader bounds
	 * only the mean last arrival) */
	if (j->arrival_us > SIM_TIME_MAX) {
		s->overflow = true;
		return;
	}
	eq_push_aside(&s->q, j->arrival_us, EV_ARRIVE, (uint32_t)j->id);
}

/* Queue the end event of node `id`'s clock (share.h) for the task that
 * ends first there, unless the one queued already is (the same task at
 * the same time); the one it replaces is now stale.  Past SIM_TIME_MAX
 * the run stops. */
void k_push_task_end(struct sim *s, int id)
{
	struct ps_node *pn = &s->ps.nodes[id];
	int64_t t = 0;
	int r = -1;
	if (ps_next(&s->ps, id, s->now, &t, &r) && r == pn->ev_run && t == pn->ev_us)
		return;
	if (pn->ev_run >= 0) {
		s->runs[pn->ev_run].end_seq = UINT64_MAX;
		s->stale_ends++;
	}
	pn->ev_run = -1;
	if (r < 0)
		return; /* no task runs there */
	if (t == PS_NEVER) {
		s->overflow = true;
		return;
	}
	pn->ev_run = r;
	pn->ev_us = t;
	s->runs[r].end_seq = eq_push(&s->q, t, EV_TASK_END, (uint32_t)r);
}

/* The load of node `id` changes by `delta` cores.  If that changes its
 * rate, the tasks with their own end events (pushed at a rate that no
 * longer holds: now stale) join its clock, at the rate they had until
 * now, and the clock takes the new rate: O(tasks with their own events
 * + log k), and each task joins once.  Returns whether the rate changed
 * (the caller then moves the clock's end event, k_push_task_end). */
bool k_change_load(struct sim *s, int id, int delta)
{
	struct clu_node *n = &s->clu.nodes[id];
	s->busy_cores -= n->load < n->cores ? n->load : n->cores;
	n->load += delta;
	s->busy_cores += n->load < n->cores ? n->load : n->cores;
	double rate = node_rate(n);
	if (rate == n->rate)
		return false;
	n->rate = rate; /* the node's copy: no look at its clock without a change */
	for (int r = n->run_head; r >= 0; r = s->runs[r].next) {
		struct run *ru = &s->runs[r];
		ru->own = false;
		if (ru->end_seq != UINT64_MAX)
			s->stale_ends++; /* the end event queued before is now stale */
		ru->end_seq = UINT64_MAX;
		ps_add(&s->ps, id, r, ru->work_us, ru->from_us, s->now); /* its end was
								   in range */
	}
	n->run_head = -1;
	ps_set_rate(&s->ps, id, rate, s->now);
	return true;
}
