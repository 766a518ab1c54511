/* loop.c - the event loop and what it inlines: the loop (one timestamp
 * per turn, then the policy and the dispatcher: settle), the dispatch
 * of events to their files' on_ handlers, a task's start and end, and
 * Spark's in-application dispatch (FIFO or FAIR stages, delay
 * scheduling with locality.h, speculative copies); the end of a run.
 * The top of the kernel: calls every other file, none calls it.
 *
 * Work per event is bounded by what the event touches: the job, its
 * executors, one node and the tasks running on it.  Nothing here scans all
 * nodes or all jobs, except the final checks at the end of a run.
 */
#include "kernel.h"

#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "locality.h"

uint64_t sim_compact_min = 4096;
uint64_t sim_compactions;

/* ---- tasks --------------------------------------------------------- */

/* The first task of the first stage (in stage order) whose parents are
 * done, as Spark's FIFO order within an application. */
static bool next_task(struct sim_job *j, int *stage, int *task)
{
	int best = -1;
	for (int i = 0; i < j->live->nstages; i++) {
		struct sim_stage *st = &j->live->stages[i];
		if (st->parents_left == 0 && (st->next < st->ntasks || st->nredo)) {
			if (!j->live->fair) { /* FIFO: the first */
				best = i;
				break;
			}
			/* FAIR (FairSchedulingAlgorithm, minShare 0, weight 1):
			 * the fewest running tasks */
			if (best < 0 || st->running < j->live->stages[best].running)
				best = i;
		}
	}
	if (best < 0)
		return false;
	struct sim_stage *st = &j->live->stages[best];
	*stage = best;
	*task = st->nredo ? st->redo[st->nredo - 1] : st->next;
	return true;
}

/* Start task `task` of stage `stage` of job j on its executor
 * j->live->execs[e]; as a speculative copy of run `orig` if orig >= 0.
 * Inlined by force into its two callers: once per task, the call's
 * saving and restoring of registers was a tenth of its cost. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void start_task(struct sim *s, struct sim_job *j, int e, int stage, int task, int orig)
{
	struct sim_job_exec *x = &j->live->execs[e];
	struct sim_stage *st = &j->live->stages[stage];
	if (orig >= 0) {
		/* the task is running already: a second attempt */
	} else if (st->state) {
		if (st->state[task] != T_PENDING)
			sim_die(s, "task %d of stage %d of job %d started twice", task, stage, j->id);
		st->state[task] = T_RUNNING;
	}
	if (orig >= 0)
		; /* neither pending nor new */
	else if (st->nredo && st->redo[st->nredo - 1] == task)
		st->nredo--; /* a killed task runs again */
	else if (st->loc)
		loc_take(st, task); /* maybe out of index order */
	else
		st->next++;
	x->free--;
	j->live->tasks_running++;
	st->running++;
	if (s->stage_sink && st->first_start_us < 0)
		st->first_start_us = s->now;
	if (j->start_us < 0) {
		j->start_us = s->now;
		j->status = JOB_RUNNING;
	}

	int r = slot_take(&s->runs, &s->cap_runs, &s->free_run, sizeof *s->runs,
			  offsetof(struct run, next));
	struct run *ru = &s->runs[r];
	struct clu_node *n = &s->clu.nodes[x->node];
	/* field by field: a compound literal clears the record first with a
	 * `rep stos`, whose start-up cost more than the stores (one task
	 * start per event) */
	ru->job = j->id;
	ru->stage = stage;
	ru->task = task;
	ru->exec = x->id;
	ru->node = x->node;
	ru->jpos = e;
	ru->jr = j->live;
	ru->st = st;
	ru->je_addr = (uintptr_t)x;
	ru->cpus = j->shape->task_cpus;
	if (st->left_us && st->left_us[task] >= 0) { /* it resumes */
		ru->work_us = st->left_us[task];
	} else {
		ru->work_us = st->work_us[task];
		if (s->stragglers)
			ru->work_us *= k_straggle(s, j, stage, task, x->node);
	}
	ru->from_us = s->now + j->live->task_delay_us; /* its work starts then */
	if (st->loc) /* after it has read its input from another node */
		ru->from_us += loc_read_us(s, st->loc, task, x->node);
	ru->start_us = s->now;
	ru->twin = orig;
	ru->copy = orig >= 0;
	ru->listed = false;
	ru->running = true;
	if (orig >= 0)
		s->runs[orig].twin = r;
	s->runs_live++;
	if (s->spec_on && !s->spec_armed) {
		s->spec_armed = true;
		k_push_at(s, (double)s->now + (double)s->scn->spec.interval_us, EV_SPECULATE, 0);
	}
	ru->end_seq = UINT64_MAX; /* no end event yet */
	ru->prev = -1;
	ru->next = -1;
	integrate(s);
	if (k_change_load(s, x->node, ru->cpus)) { /* the node's clock takes it */
		ru->own = false;
		if (ps_add(&s->ps, x->node, r, ru->work_us, ru->from_us, s->now) == PS_NEVER)
			s->overflow = true;
		k_push_task_end(s, x->node);
		return;
	}
	/* its own end event, at the rate that holds, while it holds */
	ru->own = true;
	ru->next = n->run_head;
	if (n->run_head >= 0)
		s->runs[n->run_head].prev = r;
	n->run_head = r;
	int64_t t = ps_end_at(ru->from_us, ru->work_us, n->rate, SIM_TIME_MAX);
	if (t == PS_NEVER)
		s->overflow = true;
	else
		ru->end_seq = eq_push(&s->q, t, EV_TASK_END, (uint32_t)r);
}

/* Whether run r is a live attempt of job j that may be copied: not
 * itself a copy, with no copy yet.  A list entry can outlive its run
 * (the task ended, its slot taken by another). */
static bool copyable(const struct sim *s, const struct sim_job *j, int r)
{
	const struct run *ru = &s->runs[r];
	return ru->listed && ru->job == j->id && ru->twin < 0 && !ru->copy;
}

/* A speculative copy on executor e of the job (free slot, no pending
 * task): of the tasks on its list whose attempt runs on another node
 * (Spark never copies a task to the host it runs on), the first by
 * stage and index, as a TaskSetManager offers its speculatable tasks;
 * so the list's order, the order the check met them in, changes
 * nothing.  Entries no longer copyable leave the list. */
static bool start_copy(struct sim *s, struct sim_job *j, int e)
{
	struct sim_live *jr = j->live;
	int node = jr->execs[e].node, k = 0, best = -1;
	for (int i = 0; i < jr->nspec; i++) {
		int r = jr->spec[i];
		if (!copyable(s, j, r))
			continue; /* dropped */
		jr->spec[k++] = r;
		const struct run *ru = &s->runs[r];
		if (ru->node != node &&
		    (best < 0 || ru->stage < s->runs[best].stage ||
		     (ru->stage == s->runs[best].stage && ru->task < s->runs[best].task)))
			best = r;
	}
	jr->nspec = k;
	if (best < 0)
		return false;
	for (int i = 0; i < jr->nspec; i++) /* it leaves the list */
		if (jr->spec[i] == best) {
			jr->spec[i] = jr->spec[--jr->nspec];
			break;
		}
	s->runs[best].listed = false;
	start_task(s, j, e, s->runs[best].stage, s->runs[best].task, best);
	s->tot.spec_launched++;
	return true;
}

/* How one round of offers picks a task for a free slot (offer). */
enum pass {
	PASS_PLAIN, /* a stage without locality: its next task (killed ones first) */
	PASS_LOCAL, /* NODE_LOCAL: a pending task that prefers the slot's node */
	PASS_NOPREF,/* at once: killed tasks, then tasks that prefer no node */
	PASS_ANY,   /* ANY, once delay scheduling allows it: the next pending task */
};

/* Offer job j's free slots to stage `stage`, in rounds (each executor
 * with a free slot takes at most one task a round, as each offer of
 * Spark's resourceOfferSingleTaskSet) until a round launches none.  A
 * stage at NODE_LOCAL whose wait is not over keeps its slots idle until
 * the wait ends (loc_wake). */
static void offer(struct sim *s, struct sim_job *j, int stage, enum pass p)
{
	struct sim_live *jr = j->live;
	struct sim_stage *st = &jr->stages[stage];
	struct loc *l = st->loc;
	bool launched = true;
	while (launched) {
		launched = false;
		for (int i = 0; i < jr->nexecs; i++) {
			if (jr->execs[i].free <= 0)
				continue;
			int t = -1;
			switch (p) {
			case PASS_PLAIN:
				t = st->nredo ? st->redo[st->nredo - 1] : st->next < st->ntasks ? st->next : -1;
				break;
			case PASS_LOCAL:
				t = loc_local(s, l, jr->execs[i].node);
				break;
			case PASS_NOPREF:
				t = st->nredo ? st->redo[st->nredo - 1]
				    : l->none.n ? loc_first(l, &l->none) : -1;
				break;
			case PASS_ANY:
				if (!loc_any_allowed(s, j, l)) {
					loc_wake(s, j, stage, l->last_us + s->scn->loc.wait_us);
					return;
				}
				t = st->next < st->ntasks ? st->next : -1;
				break;
			}
			if (t < 0) {
				if (p == PASS_LOCAL)
					continue; /* another executor's node may have one */
				return;       /* none of its kind left */
			}
			start_task(s, j, i, stage, t, -1);
			if (p == PASS_LOCAL || p == PASS_ANY) { /* the level of this launch */
				l->any = p == PASS_ANY;
				l->last_us = s->now;
			}
			launched = true;
		}
	}
}

static bool has_free_slot(const struct sim_live *jr)
{
	for (int i = 0; i < jr->nexecs; i++)
		if (jr->execs[i].free > 0)
			return true;
	return false;
}

/* The dispatcher of a job with a stage whose tasks prefer nodes: Spark's
 * resourceOffers with delay scheduling.  The runnable stages in order
 * (its task sets in FIFO order) are each offered the free slots at each
 * level in turn: NODE_LOCAL, then at once the tasks without preferences
 * (NO_PREF), then ANY if the stage's wait allows it; a slot a stage
 * leaves idle goes to the next stage.  Speculative copies come last,
 * once no stage has a pending task. */
static void dispatch_loc(struct sim *s, struct sim_job *j)
{
	struct sim_live *jr = j->live;
	bool pending = false;
	/* the runnable stages in order: stage order (FIFO), or with FAIR the
	 * fewest running tasks first (sorted once, as Spark sorts its task
	 * sets once per round of offers) */
	xgrow(&s->order_buf, &s->cap_order_buf, jr->nstages, sizeof *s->order_buf);
	int n = 0;
	for (int i = 0; i < jr->nstages; i++) {
		const struct sim_stage *st = &jr->stages[i];
		if (st->parents_left || !(st->next < st->ntasks || st->nredo))
			continue;
		int k = n++;
		if (jr->fair) /* insertion: stable on the stage index */
			for (; k > 0 && jr->stages[s->order_buf[k - 1]].running > st->running; k--)
				s->order_buf[k] = s->order_buf[k - 1];
		s->order_buf[k] = i;
	}
	for (int o = 0; o < n; o++) {
		int i = s->order_buf[o];
		struct sim_stage *st = &jr->stages[i];
		pending = true;
		if (!has_free_slot(jr))
			return;
		if (!st->loc) {
			offer(s, j, i, PASS_PLAIN);
			continue;
		}
		if (!st->loc->started) { /* its TaskSetManager is made: the wait starts */
			st->loc->started = true;
			st->loc->last_us = s->now;
		}
		struct loc *l = st->loc;
		if (!loc_none_local(s, jr, l)) /* else no slot finds a local task */
			offer(s, j, i, PASS_LOCAL);
		if (st->nredo || loc_first(l, &l->none) >= 0) /* else none to take */
			offer(s, j, i, PASS_NOPREF);
		offer(s, j, i, PASS_ANY);
	}
	for (bool launched = !pending && jr->nspec; launched;) {
		launched = false;
		for (int i = 0; i < jr->nexecs; i++)
			if (jr->execs[i].free > 0 && start_copy(s, j, i))
				launched = true;
	}
}

static void dispatch_job(struct sim *s, struct sim_job *j)
{
	const struct sim_shape *sh = j->shape;
	j->live->dispatch_queued = false;
	if (!job_active(j) || !sh->ops->build)
		return;
	if (sh->gang_role >= 0 && j->live->role_ready[sh->gang_role] < sh->role[sh->gang_role].count)
		return; /* the gang starts together */
	if (!j->live->stages)
		k_build_stages(s, j);
	if (j->live->has_loc) {
		dispatch_loc(s, j);
		return;
	}
	/* Spark's resourceOffers: each pass gives every executor with a free
	 * slot at most one task, from the first runnable stage. */
	bool launched = true;
	while (launched) {
		launched = false;
		for (int i = 0; i < j->live->nexecs; i++) {
			int stage, task;
			if (j->live->execs[i].free <= 0)
				continue;
			if (next_task(j, &stage, &task)) {
				start_task(s, j, i, stage, task, -1);
				launched = true;
			} else if (!j->live->nspec) {
				return; /* nothing to run, nothing to copy */
			} else if (start_copy(s, j, i)) {
				launched = true;
			}
		}
	}
}

static void on_task_end(struct sim *s, int r)
{
	struct run *ru = &s->runs[r];
	struct sim_job *j = &s->pub.jobs[ru->job];
	struct sim_live *jr = ru->jr;
	struct sim_stage *st = ru->st;
	if (st->state) {
		if (st->state[ru->task] != T_RUNNING)
			sim_die(s, "task %d of stage %d of job %d ended but was not running", ru->task,
			    ru->stage, j->id);
		st->state[ru->task] = T_DONE;
	}
	if (st->took_us)
		st->took_us[st->done] = (double)(s->now - ru->start_us);
	if (s->task_sink)
		s->task_sink(s->task_ctx, s, j->id, ru->stage, ru->task,
			     s->execs[jr->execs[ru->jpos].id].id, ru->node, ru->start_us, s->now,
			     true);
	st->done++;
	st->running--;
	jr->tasks_running--;
	jr->execs[ru->jpos].free++;
	int idle_exec = -1; /* its last task: the executor runs none now (told below) */
	if (s->ops->exec_idle && jr->execs[ru->jpos].free == s->execs[jr->execs[ru->jpos].id].slots)
		idle_exec = jr->execs[ru->jpos].id;
	s->runs_live--;
	int twin = ru->twin;
	ru->listed = false; /* a list entry of its slot means nothing now */
	ru->running = false;

	int node = ru->node, cpus = ru->cpus, stage = ru->stage, task = ru->task;
	bool own = ru->own;
	if (own) { /* off the node's list */
		struct clu_node *n = &s->clu.nodes[node];
		if (ru->prev >= 0)
			s->runs[ru->prev].next = ru->next;
		else
			n->run_head = ru->next;
		if (ru->next >= 0)
			s->runs[ru->next].prev = ru->prev;
	} else { /* off the node's clock: its end event was the node's */
		if (ps_pop(&s->ps, node, s->now) != r)
			sim_die(s, "task of run %d ended, but another ends first on node %s", r,
			    s->clu.nodes[node].name);
		s->ps.nodes[node].ev_run = -1;
	}
	ru->end_seq = UINT64_MAX; /* no end event counts for the free slot */
	ru->next = s->free_run;
	s->free_run = r;
	integrate(s);
	if (k_change_load(s, node, -cpus) || !own)
		k_push_task_end(s, node); /* for the task of its clock that ends next */
	check_node(s, node);

	if (idle_exec >= 0 && s->execs[idle_exec].live) { /* the run is retired: the
							   policy may preempt */
		pol_enter(s, "exec_idle");
		s->ops->exec_idle(s->pst, s, &s->execs[idle_exec]);
		pol_leave(s);
	}
	if (twin >= 0) { /* the first attempt to end wins: the other is killed */
		s->tot.spec_won += ru->copy;
		s->runs[twin].twin = -1;
		k_kill_run(s, twin, false, false);
	}
	const struct sim_job_ops *ops = j->shape->ops;
	if (ops->task_end)
		ops->task_end(s, j, stage, task);
	if (st->done == st->ntasks) {
		jr->stages_done++;
		for (int c = 0; c < st->nchildren; c++)
			if (--jr->stages[st->children[c]].parents_left == 0)
				k_stage_can_start(s, j, st->children[c]);
		if (s->stage_sink)
			s->stage_sink(s->stage_ctx, s, j, stage, st->first_start_us, s->now);
		if (ops->stage_end)
			ops->stage_end(s, j, stage);
		if (jr->stages_done == jr->nstages) {
			k_end_job(s, j, JOB_DONE, SIM_WHY_NONE, s->now);
			return;
		}
	}
	queue_dispatch(s, j);
}

/* ---- the loop ------------------------------------------------------ */

static void handle(struct sim *s, const struct eq_event *ev)
{
	s->cur_kind = (enum ev_kind)ev->kind;
	s->cur_obj = ev->obj;
	s->in_event = true;
	switch ((enum ev_kind)ev->kind) {
	case EV_ARRIVE:
		k_on_arrive(s, &s->pub.jobs[ev->obj]);
		break;
	case EV_EXEC_READY:
		k_on_exec_ready(s, &s->execs[ev->obj]);
		break;
	case EV_TASK_END:
		on_task_end(s, (int)ev->obj);
		break;
	case EV_JOB_TIMER:
		k_on_job_timer(s, ev->obj);
		break;
	case EV_EXEC_TIMER:
		k_on_exec_timer(s, &s->execs[ev->obj]);
		break;
	case EV_POLICY_TIMER:
		if (s->ops->timer) {
			pol_enter(s, "timer");
			s->ops->timer(s->pst, s, ev->obj);
			pol_leave(s);
		}
		break;
	case EV_NODE:
		k_on_node(s, ev->obj);
		break;
	case EV_SPECULATE:
		k_on_speculate(s);
		break;
	}
	s->tot.events++;
	s->stall_n++;
	s->stall_kind[ev->kind]++;
	s->in_event = false;
	if (SIM_CHECK_EVERY_EVENT)
		k_check_all(s);
}

/* An event that no longer means anything: a task end superseded by a
 * rescheduled one, the start-up end or model timer of an executor
 * already released (its job ended; the slot may hold another executor
 * by then), a job timer of a job that ended or changed state since it
 * was set (sim_job_timer), a locality wake of a job that ended or whose
 * wake moved (each wake pushes an event of its own, so dropping an old
 * one loses nothing).  Dropped without advancing the clock (drop_event). */
static inline bool stale(const struct sim *s, const struct eq_event *ev)
{
	if (ev->kind == EV_TASK_END)
		return s->runs[ev->obj].end_seq != ev->seq;
	if (ev->kind == EV_EXEC_READY || ev->kind == EV_EXEC_TIMER)
		return s->execs[ev->obj].ev_seq != ev->seq; /* released: its job ended */
	if (ev->kind == EV_JOB_TIMER) {
		const struct jtimer *t = &s->jtimers[ev->obj];
		const struct sim_job *j = &s->pub.jobs[t->job];
		if (t->tag == TAG_LOC) /* its job ended, or a wake replaced it */
			return !job_active(j) || !has_live(j) || !j->live->stages ||
			       j->live->stages[t->gen].loc->wake_us != ev->time;
		if (t->tag == TAG_STAGE) /* its job ended */
			return !job_active(j) || !has_live(j) || !j->live->stages;
		return !job_active(j) || s->jgen[t->job] != t->gen;
	}
	return false;
}

/* A stale event leaves the queue: a job timer's slot goes back. */
static void drop_event(struct sim *s, const struct eq_event *ev)
{
	if (ev->kind == EV_JOB_TIMER) {
		s->jtimers[ev->obj].next = s->free_jtimer;
		s->free_jtimer = (int)ev->obj;
	}
}

/* After the events of one timestamp: the policy, then the dispatcher.
 * Both may queue events at the same time; the loop then comes back. */
static void settle(struct sim *s)
{
	if (s->nnotes || s->sched_dirty) {
		pol_enter(s, "schedule");
		k_deliver_notes(s);
		if (s->sched_dirty) {
			s->sched_dirty = false;
			s->tot.decisions++;
			s->pol_hook = "schedule";
			if (s->ops->schedule)
				s->ops->schedule(s->pst, s);
		}
		pol_leave(s);
	}
	for (int i = 0; i < s->ndispatch; i++)
		dispatch_job(s, &s->pub.jobs[s->dispatch[i]]);
	s->ndispatch = 0;
	if (s->noffered) { /* offer-only: what the policy did not place now, it never will */
		for (int i = 0; i < s->noffered; i++) {
			struct sim_job *j = &s->pub.jobs[s->offered[i]];
			if (job_active(j) && j->status == JOB_WAITING && sim_execs_wanted(j) > 0)
				sim_reject_job(s, j->id, SIM_WHY_NO_FIT);
		}
		s->noffered = 0;
		if (s->nnotes) {
			pol_enter(s, "job_finished");
			k_deliver_notes(s);
			pol_leave(s);
		}
	}
	k_live_put_ended(s);
}

/* Why the policy never placed job j: what its can_ever_place hook finds
 * for j's shape, else SIM_WHY_NEVER_PLACED.  Asked once per shape
 * (why_shape caches it, 0 = not asked). */
static int never_placed_why(struct sim *s, const struct sim_job *j, uint8_t *why_shape)
{
	uint8_t *w = &why_shape[j->shape->id];
	if (!*w) {
		struct pol_verdict v = {.why = SIM_WHY_NONE};
		if (s->ops->can_ever_place)
			s->ops->can_ever_place(s->pcfg, s->scn, j->group, j->shape, &v);
		*w = (uint8_t)(v.why != SIM_WHY_NONE ? v.why : SIM_WHY_NEVER_PLACED);
	}
	return *w;
}

/* Jobs still waiting when nothing more can happen were never placed. */
static void finish(struct sim *s)
{
	uint8_t *why_shape = NULL;
	for (int i = 0; i < s->pub.njobs; i++) {
		struct sim_job *j = &s->pub.jobs[i];
		if (!job_active(j))
			continue;
		if (j->live->tasks_running)
			sim_die(s, "job %d has running tasks but no events", j->id);
		if (!why_shape)
			why_shape = xcalloc((size_t)s->nshapes, 1);
		/* it never ended: no end time, no makespan */
		k_end_job(s, j, JOB_UNPLACEABLE, never_placed_why(s, j, why_shape), -1);
	}
	free(why_shape);
	if (s->nnotes) { /* the notices of the jobs ended here */
		pol_enter(s, "job_finished");
		k_deliver_notes(s);
		pol_leave(s);
	}
	k_live_put_ended(s);
	for (int i = 0; s->down && i < s->clu.n; i++)
		while (s->down[i]) /* the run is over: outages end with it */
			k_node_up(s, i);
	k_check_all(s);
	for (int i = 0; i < s->clu.n; i++) {
		const struct clu_node *n = &s->clu.nodes[i];
		if (n->cores_free != n->cores || n->mem_free != n->mem_mib ||
		    n->gpus_free != n->gpus || n->load)
			sim_die(s, "node %s not back to its capacity at the end", n->name);
	}
}

/* Fewer events than this pending, and so fewer tasks running: their
 * records are in the cache already, and prefetching them only costs
 * (a tenth of a small DAG's time). */
enum { PF_MIN_QUEUED = 1024 };

/* A run on 10^4 nodes keeps ~10^5 tasks running; the records a task end
 * touches (its run slot, job, executor, node) are then rarely in cache,
 * and waiting for them one after another was most of the time.  The
 * event queue knows the order of the events ahead (its sorted run,
 * eq_ahead; the few others are recent pushes, whose records are fresh):
 * ask for the run record of the event PF_FAR ahead, and for what the
 * one PF_NEAR ahead points to, its record having come meanwhile. */
enum { PF_FAR = 4, PF_NEAR = 1 }; /* the best of 1-16 on the 10^4-node mix */
enum { PF_JOB = 3, PF_STAGE = 2 };  /* the next task's stage, then its arrays */

/* The stage of run ru's task if its job still has it (NULL if not):
 * read through the job's record, whose memory stays; its arrays are the
 * job's now (another job's if the record changed hands: a hint only). */
static inline const struct sim_stage *next_stage(const struct run *ru)
{
	const struct sim_live *jr = ru->jr;
	return jr->stages && ru->stage < jr->nstages ? &jr->stages[ru->stage] : NULL;
}
#if defined(__GNUC__) || defined(__clang__)
/* inline by force: as a function of its own that only reads and
 * prefetches, GCC finds it free of side effects and drops the calls */
__attribute__((always_inline))
#endif
static inline void prefetch_next(struct sim *s)
{
	const struct eq *q = &s->q;
	if (eq_size(q) < PF_MIN_QUEUED)
		return;
	const struct eq_slot *e = eq_ahead(q, PF_FAR);
	if (e && eq_slot_kind(e) == EV_TASK_END) {
		const char *r = (const char *)&s->runs[eq_slot_obj(e)];
		PREFETCH(r); /* 96 bytes: two lines, whatever its place */
		PREFETCH(r + sizeof(struct run) - 1);
	}
	/* the task its job starts next, most likely in the same stage: its
	 * stage is read through the job's record, which never moves (ru->st
	 * may be gone with its job), and its arrays are asked for one level
	 * per event: the stage's at PF_STAGE, its locality's at PF_NEAR */
	e = eq_ahead(q, PF_JOB);
	if (e && eq_slot_kind(e) == EV_TASK_END) {
		const struct run *rj = &s->runs[eq_slot_obj(e)];
		PREFETCH(rj->jr);
		PREFETCH(rj->st);
	}
	e = eq_ahead(q, PF_STAGE);
	if (e && eq_slot_kind(e) == EV_TASK_END) {
		const struct sim_stage *st = next_stage(&s->runs[eq_slot_obj(e)]);
		if (st && st->next < st->ntasks) {
			PREFETCH(&st->work_us[st->next]);
			if (st->loc)
				PREFETCH(st->loc);
		}
	}
	e = eq_ahead(q, PF_NEAR);
	if (!e || eq_slot_kind(e) != EV_TASK_END)
		return;
	const struct run *ru = &s->runs[eq_slot_obj(e)];
	const struct sim_stage *st = next_stage(ru);
	if (st && st->loc && st->next < st->ntasks) {
		const struct loc *l = st->loc;
		PREFETCH(&l->taken[st->next >> 3]);
		PREFETCH(&l->pref[(size_t)st->next * (size_t)l->npref]);
		if (l->remote_mib)
			PREFETCH(&l->remote_mib[st->next]);
	}
	PREFETCH(&s->pub.jobs[ru->job]);
	PREFETCH(ru->jr);
	PREFETCH(ru->st);
	PREFETCH((const void *)ru->je_addr); /* a hint: prefetching never faults */
	PREFETCH(&s->clu.nodes[ru->node]);
	const char *x = (const char *)&s->execs[ru->exec]; /* released if its job ends */
	PREFETCH(x);
	PREFETCH(x + sizeof(struct sim_exec) - 1);
	if (!ru->own) {
		PREFETCH(&s->ps.nodes[ru->node]); /* its clock */
		return;
	}
	if (ru->prev >= 0) /* the node's list is unlinked around it */
		PREFETCH(&s->runs[ru->prev]);
	if (ru->next >= 0)
		PREFETCH(&s->runs[ru->next]);
}

static bool keep_event(void *ctx, const struct eq_event *ev)
{
	if (!stale(ctx, ev))
		return true;
	drop_event(ctx, ev);
	return false;
}

/* A node's end event moves when the task that ends first there changes
 * or its rate does, leaving the old one behind as stale: one per change
 * on the node (share.h), where moving every task's end left one per task
 * running there.  On oversubscribed nodes (a policy whose calculator
 * counts memory only) they can still outnumber the live events, and
 * every push and pop pays for the bigger heap.
 * When the superseded ends exceed the live events, drop the stale events
 * at once: O(n), and the order of the others is unchanged (eq_compact),
 * so nothing that happens changes. */
static void maybe_compact(struct sim *s)
{
	size_t n = eq_size(&s->q);
	if (s->stale_ends < sim_compact_min || s->stale_ends < n / 2 || !s->stale_ends)
		return;
	eq_compact(&s->q, keep_event, s);
	s->stale_ends = 0;
	sim_compactions++;
}

int sim_run(struct sim *s)
{
	struct eq_event ev;
	int64_t ns0 = mono_ns();
	uint64_t t0 = ticks();
	k_set_running(s); /* for a fault's message (sim_fault_where) */
	if (s->pub.njobs > 0) {
		k_push_arrival(s, &s->pub.jobs[0]);
		s->next_arrival = 1;
		s->tot.first_arrival_us = s->pub.jobs[0].arrival_us;
		s->now = s->integ_at = s->pub.jobs[0].arrival_us;
	}
	k_start_failures(s);
	/* One timestamp per turn: its first live event sets the clock (stale
	 * ones are dropped without moving it), then every event of that
	 * time, then the policy and the dispatcher (settle). */
	while (!s->overflow && eq_pop(&s->q, &ev)) {
		if (stale(s, &ev)) {
			drop_event(s, &ev);
			continue;
		}
		s->now = ev.time;
		if (s->now != s->stall_t) { /* the clock moved: count anew */
			s->stall_t = s->now;
			s->stall_n = 0;
			memset(s->stall_kind, 0, sizeof s->stall_kind);
		}
		prefetch_next(s);
		handle(s, &ev);
		while (eq_size(&s->q) && eq_top_time(&s->q) == s->now &&
		       s->stall_n <= k_stall_limit(s)) {
			eq_pop(&s->q, &ev);
			prefetch_next(s);
			if (!stale(s, &ev))
				handle(s, &ev);
			else
				drop_event(s, &ev);
		}
		if (s->stall_n > k_stall_limit(s)) {
			s->stalled = true; /* something fires without end at one instant */
			break;
		}
		settle(s);
		maybe_compact(s);
		if (!s->jobs_left)
			break; /* what is left (failures, a policy's timers) changes
				  nothing any job does */
		if (s->watch && !--s->watch_left) {
			s->watch_left = s->watch_every;
			if (s->watch(s->watch_ctx, s)) {
				s->stopped = true;
				break;
			}
		}
	}
	uint64_t dt = ticks() - t0;
	double ns = (double)(mono_ns() - ns0);
	s->tot.policy_ns = dt ? (uint64_t)((double)s->pol_ticks * ns / (double)dt) : 0;
	if (s->overflow || s->stopped || s->stalled) {
		k_set_running(NULL);
		return s->overflow ? -1 : s->stopped ? SIM_STOPPED : SIM_STALLED;
	}
	integrate(s);
	if (s->down)
		k_integrate_down(s);
	finish(s);
	k_set_running(NULL);
	return 0;
}
