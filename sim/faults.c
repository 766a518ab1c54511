/* faults.c - what goes wrong: nodes that fail and are repaired (MTBF,
 * MTTR) or are out for a scripted while, executors lost with them (their
 * tasks killed, their job told, maybe failed), a model's kill of its
 * job's tasks, and stragglers (a task attempt's slowdown).  Calls
 * retry.c, executors.c, jobs.c, events.c.
 */
#include "kernel.h"

#include <stdint.h>

#include "policy.h"
#include "rng.h"

/* The slowdown of an attempt of task `task` of stage `stage` of job j
 * on node `node`: its group's straggler slowdown with its straggler
 * fraction's probability, else 1.  Keyed by (job, stage) with the task
 * and node as the draw: the same attempt on the same node is as slow
 * under every policy. */
double k_straggle(const struct sim *s, const struct sim_job *j, int stage, int task,
		       int node)
{
	const struct scn_node_group *g = &s->scn->groups[s->clu.nodes[node].group];
	if (!(g->straggler_fraction > 0))
		return 1;
	struct rng_key k = rng_key(s->seed, 0, RNG_STRAGGLE, (uint32_t)j->group,
				   (uint32_t)j->index, (uint32_t)stage);
	double u = rng_u01(k, (uint64_t)task << 24 ^ (uint64_t)node);
	return u < g->straggler_fraction ? g->straggler_slowdown : 1;
}

bool sim_kill_tasks(struct sim *s, struct sim_job *j)
{
	if (k_kill_tasks(s, j, -1, true, true)) {
		k_end_job(s, j, JOB_FAILED, SIM_WHY_TASK_FAILURES, s->now);
		return true;
	}
	queue_dispatch(s, j);
	return false;
}

static void policy_exec_lost(struct sim *s, int job, const struct sim_exec *x, int why)
{
	if (!s->ops->exec_lost)
		return;
	pol_enter(s, "exec_lost");
	s->ops->exec_lost(s->pst, s, job, x, why);
	pol_leave(s);
}

/* Executor slot `id` is lost for reason `why` (SIM_WHY_NODE_FAILED,
 * SIM_WHY_PREEMPTED): its tasks are killed (a failure counts towards
 * spark.task.maxFailures, a preemption does not: Spark's
 * ExecutorLostFailure with exitCausedByApp false), its resources go
 * back, its job no longer counts it as granted (the policy may launch a
 * replacement), and the model, then the policy, are told. */
void k_lose_exec(struct sim *s, int id, int why)
{
	struct sim_exec *x = &s->execs[id];
	struct sim_job *j = &s->pub.jobs[x->job];
	struct sim_live *jr = j->live;
	bool counts = why != SIM_WHY_PREEMPTED;
	bool fail = k_kill_tasks(s, j, id, counts, true);
	int role = x->role;
	bool ready = x->ready_us >= 0;
	jr->execs[x->jpos].free = 0;
	jr->execs[x->jpos].id = -1; /* gone: its node stays, for nodes_used */
	if (role == SIM_ROLE_AM) {
		jr->ams_ready -= ready;
	} else {
		jr->granted[role]--;
		jr->role_ready[role] -= ready;
	}
	struct sim_exec copy = *x; /* for the hooks: the slot goes back */
	k_release_exec(s, id);
	s->tot.execs_lost++;
	s->sched_dirty = true;
	if (fail) {
		k_end_job(s, j, JOB_FAILED, SIM_WHY_TASK_FAILURES, s->now);
	} else {
		if (j->shape->ops->exec_lost && copy.heard)
			j->shape->ops->exec_lost(s, j, &copy, why);
		if (job_active(j))
			queue_dispatch(s, j); /* its other executors take the tasks back */
	}
	if (job_active(j))
		policy_exec_lost(s, j->id, &copy, why);
}

/* ---- node failures ---------------------------------------------------- */

static void push_node_at(struct sim *s, int node, enum node_ev e, double t)
{
	s->node_events++;
	k_push_at(s, t, EV_NODE, (uint32_t)node << 2 | e);
}

static void push_node(struct sim *s, int node, enum node_ev e, double delay_us)
{
	push_node_at(s, node, e, (double)s->now + delay_us);
}

/* Node `id`'s next random up-time (NE_FAIL) or repair time (NE_REPAIR):
 * keyed by (node, cycle), the same under every policy. */
static double node_draw(const struct sim *s, int id, enum node_ev e)
{
	const struct scn_node_group *g = &s->scn->groups[s->clu.nodes[id].group];
	const struct scn_dist *d = e == NE_FAIL ? &g->mtbf : &g->mttr;
	struct rng_key k = rng_key(s->seed, 0, RNG_FAIL, (uint32_t)id, e, 0);
	double t = rng_dist(d, k, s->cycles[id]);
	return t > 1 ? t : 1; /* at least a µs: a cycle always moves time */
}

/* Bring ∫ nodes down dt up to now; before nodes_down changes, and at the
 * end of the run (apart from integrate(): it changes only with failures). */
void k_integrate_down(struct sim *s)
{
	s->tot.node_down_us += (double)(s->now - s->down_at) * s->nodes_down;
	s->down_at = s->now;
}

/* The node goes down (one more outage) or comes back up (one fewer). */
static void node_down(struct sim *s, int id)
{
	struct clu_node *n = &s->clu.nodes[id];
	if (s->down[id]) {
		s->down[id]++; /* already down */
		return;
	}
	while (n->exec_head >= 0)
		k_lose_exec(s, n->exec_head, SIM_WHY_NODE_FAILED);
	integrate(s);
	k_integrate_down(s);
	s->nodes_down++;
	double up = (double)(s->now - s->up_since[id]);
	s->tot.fail_cycles++;
	s->tot.up_sum_us += up;
	s->tot.up_sumsq_us2 += up * up;
	clu_take(&s->clu, id, n->cores_free, n->mem_free, n->gpus_free); /* nothing fits (a
									    pool: all free) */
	s->down[id] = 1;
	check_node(s, id);
}

void k_node_up(struct sim *s, int id)
{
	if (--s->down[id])
		return; /* another outage holds it down */
	integrate(s);
	k_integrate_down(s);
	s->nodes_down--;
	s->up_since[id] = s->now;
	/* all of it: the node went down with nothing in use (its executors
	 * were lost first) */
	clu_give_node(&s->clu, id);
	check_node(s, id);
	s->sched_dirty = true;
}

void k_on_node(struct sim *s, uint32_t obj)
{
	int id = (int)(obj >> 2);
	s->node_events--;
	switch ((enum node_ev)(obj & 3)) {
	case NE_FAIL:
		/* Only failures left to happen (the jobs still waiting wait for
		 * nothing else): this node's failures stop, its repairs and the
		 * others' bring the cluster back up for a last chance */
		if (eq_size(&s->q) == (size_t)s->node_events)
			break;
		node_down(s, id);
		push_node(s, id, NE_REPAIR, node_draw(s, id, NE_REPAIR));
		break;
	case NE_REPAIR:
		k_node_up(s, id);
		s->cycles[id]++;
		if (s->jobs_left) /* failures stop with the last job */
			push_node(s, id, NE_FAIL, node_draw(s, id, NE_FAIL));
		break;
	case NE_OUT:
		node_down(s, id);
		break;
	case NE_BACK:
		k_node_up(s, id);
		break;
	}
}

/* At the start of a run: every failing node's first failure, every
 * scripted outage. */
void k_start_failures(struct sim *s)
{
	bool any = false;
	for (int g = 0; g < s->scn->ngroups; g++)
		any |= s->scn->groups[g].fails || s->scn->groups[g].noutages;
	if (!any)
		return;
	s->down = xcalloc((size_t)s->clu.n, 1);
	s->down_at = s->now;
	s->up_since = xcalloc((size_t)s->clu.n, sizeof *s->up_since);
	s->cycles = xcalloc((size_t)s->clu.n, sizeof *s->cycles);
	for (int i = 0; i < s->clu.n; i++) {
		const struct scn_node_group *g = &s->scn->groups[s->clu.nodes[i].group];
		s->up_since[i] = s->now;
		if (g->fails)
			push_node(s, i, NE_FAIL, node_draw(s, i, NE_FAIL));
	}
	for (int i = 0, first = 0; i < s->scn->ngroups; first += s->scn->groups[i++].count)
		for (int k = 0; k < s->scn->groups[i].noutages; k++) {
			const struct scn_outage *o = &s->scn->groups[i].outages[k];
			int id = first + o->node;
			int64_t from = o->at_us, to = o->at_us + o->for_us;
			if (to <= s->now)
				continue; /* over before the run begins (its first arrival) */
			push_node_at(s, id, NE_OUT, (double)(from > s->now ? from : s->now));
			push_node_at(s, id, NE_BACK, (double)to);
		}
}
