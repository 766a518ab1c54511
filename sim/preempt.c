/* preempt.c - preemption: a policy takes an executor back, at once or
 * once its model's preemption cost is paid (its release then a kernel
 * executor timer, timers.c); lost work a model reports.  Calls
 * faults.c (the executor lost), retry.c, events.c.
 */
#include "kernel.h"

int64_t sim_preempt_executor(struct sim *s, struct sim_exec *x)
{
	int id = (int)(x - s->execs);
	if (id < 0 || id >= s->cap_execs || !x->live)
		sim_die(s, "preemption of executor %d, not live", x->id);
	if (x->timer_tag == TAG_RELEASE)
		return -1; /* already on its way out */
	struct sim_job *j = &s->pub.jobs[x->job];
	s->tot.preemptions++;
	int64_t cost = j->shape->ops->preempt_cost_us ? j->shape->ops->preempt_cost_us(s, j, x) : 0;
	if (cost <= 0) {
		k_lose_exec(s, id, SIM_WHY_PREEMPTED);
		return 0;
	}
	k_kill_tasks(s, j, id, false, true); /* its slots take no more tasks */
	j->live->execs[x->jpos].free = 0;
	queue_dispatch(s, j); /* the job's other free slots take them */
	x->slots = 0;
	x->timer_tag = TAG_RELEASE;
	x->ev_seq = k_push_at(s, (double)s->now + (double)cost, EV_EXEC_TIMER, (uint32_t)id);
	return cost;
}

void sim_add_lost_work(struct sim *s, double core_us, double gpu_us)
{
	s->tot.lost_core_us += core_us;
	s->tot.lost_gpu_us += gpu_us;
}
