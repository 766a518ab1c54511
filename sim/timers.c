/* timers.c - timers: a job model's job and executor timers, the
 * policy's, and the kernel's own job timers (a stage's locality wait,
 * its release) and executor timers (a preempted executor's release);
 * a model's state changes, which make its pending job timers stale.
 * Calls stages.c, faults.c, events.c.
 */
#include "kernel.h"

void sim_job_timer(struct sim *s, struct sim_job *j, double delay_us, int tag)
{
	if (tag < 0 || tag >= TAG_STAGE) /* 254 and 255 are the kernel's own */
		sim_die(s, "job %d: a job timer's tag %d is not in 0-253", j->id, tag);
	int t = slot_take(&s->jtimers, &s->cap_jtimers, &s->free_jtimer, sizeof *s->jtimers,
			  offsetof(struct jtimer, next));
	s->jtimers[t] = (struct jtimer){.job = j->id, .tag = tag, .gen = s->jgen[j->id], .next = -1};
	k_push_at(s, (double)s->now + delay_us, EV_JOB_TIMER, (uint32_t)t);
}

void sim_exec_timer(struct sim *s, struct sim_exec *x, double delay_us, int tag)
{
	if (!x->live)
		sim_die(s, "a timer for executor %d, released", x->id);
	if (x->timer_tag == TAG_RELEASE)
		return; /* preempted: it only waits for its release */
	x->timer_tag = (uint8_t)tag;
	x->ev_seq = k_push_at(s, (double)s->now + delay_us, EV_EXEC_TIMER,
			    (uint32_t)(x - s->execs)); /* its slot */
}

void sim_job_set_state(struct sim *s, struct sim_job *j, int st)
{
	if (s->state_sink) {
		s->state_sink(s->state_ctx, s, j, j->mstate, s->state_since[j->id], s->now);
		s->state_since[j->id] = s->now;
	}
	j->mstate = (uint8_t)st;
	s->jgen[j->id]++; /* 32 bits: never back to a pending timer's */
}

/* A job timer's event: its slot goes back; the model hears of it unless
 * the job ended or changed state since (stale). */
void k_on_job_timer(struct sim *s, uint32_t t)
{
	struct jtimer jt = s->jtimers[t];
	s->jtimers[t].next = s->free_jtimer;
	s->free_jtimer = (int)t;
	struct sim_job *j = &s->pub.jobs[jt.job];
	if (jt.tag == TAG_LOC) { /* a stage's locality wait is over: offer its slots again */
		j->live->stages[jt.gen].loc->wake_us = 0;
		queue_dispatch(s, j);
		return;
	}
	if (jt.tag == TAG_STAGE) { /* a stage's release time: one "parent" less */
		if (--j->live->stages[jt.gen].parents_left == 0)
			k_stage_can_start(s, j, (int)jt.gen);
		queue_dispatch(s, j);
		return;
	}
	j->shape->ops->timer(s, j, NULL, jt.tag);
}

void k_on_exec_timer(struct sim *s, struct sim_exec *x)
{
	struct sim_job *j = &s->pub.jobs[x->job];
	x->ev_seq = UINT64_MAX; /* fired: none pending */
	if (x->timer_tag == TAG_RELEASE) /* preempted: its cost is paid */
		k_lose_exec(s, (int)(x - s->execs), SIM_WHY_PREEMPTED);
	else
		j->shape->ops->timer(s, j, x, x->timer_tag);
}

void sim_policy_timer(struct sim *s, double delay_us, uint32_t tag)
{
	k_push_at(s, (double)s->now + delay_us, EV_POLICY_TIMER, tag);
}

void sim_policy_reschedule(struct sim *s)
{
	s->sched_dirty = true;
}
