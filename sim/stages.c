/* stages.c - a job's stages, built from its model's DAG at its first
 * dispatch: per stage its tasks' work, its parents and children, its
 * release and delay (held as by a parent, a kernel job timer), and its
 * delay scheduling state (loc_build; the rest of delay scheduling is
 * the dispatcher's, locality.h).  Calls events.c.
 */
#include "kernel.h"

#include <string.h>

void sim_build_dag(const struct scn *sc, int g, int idx, uint64_t seed, struct arena *a,
		   struct sim_dag *out)
{
	memset(out, 0, sizeof *out);
	out->task_delay_us = sc->over.task_launch_us;
	if (sc->jobs[g].ops->build)
		sc->jobs[g].ops->build(sc, g, idx, seed, a, out);
}

static void build_dag(struct sim *s, const struct sim_job *j, struct arena *a,
		      struct sim_dag *out)
{
	sim_build_dag(s->scn, j->group, j->index, s->seed, a, out);
}

/* The delay scheduling state of stage w of job j, from arena ar: the
 * preferences checked and the tasks that prefer none listed; the lists
 * per node are made when a node is first asked about (loc_local). */
static struct loc *loc_build(struct sim *s, const struct sim_job *j, struct arena *ar,
			     const struct sim_dag_stage *w)
{
	int n = w->ntasks, r = w->npref;
	if (r < 0 || r > SIM_MAX_PREF)
		sim_die(s, "job %d: a stage's tasks prefer %d nodes each", j->id, r);
	struct loc *l = arena_zalloc(ar, sizeof *l);
	*l = (struct loc){.pref = w->pref, .npref = r, .ntasks = n, .remote_mib = w->remote_mib,
			  .remote_each_mib = w->remote_each_mib, .remote_last_mib = w->remote_last_mib,
			  .ar = ar, .none = {.node = -1}};
	l->taken = arena_zalloc(ar, ((size_t)n + 7) / 8);
	int nn = 0;
	for (int t = 0; t < n; t++) {
		bool some = false;
		for (int i = 0; i < r; i++) {
			int v = w->pref[(size_t)t * (size_t)r + (size_t)i];
			if (v < -1 || v >= s->clu.n)
				sim_die(s, "job %d: task %d prefers node %d, not in the cluster", j->id, t, v);
			some |= v >= 0;
		}
		if (some) {
			l->pending_pref++;
		} else {
			xgrow(&s->loc_buf, &s->cap_loc_buf, nn + 1, sizeof *s->loc_buf);
			s->loc_buf[nn++] = t;
		}
	}
	if (nn) {
		l->none.task = arena_alloc(ar, (size_t)nn * sizeof *l->none.task);
		memcpy(l->none.task, s->loc_buf, (size_t)nn * sizeof *l->none.task);
		l->none.n = nn;
	}
	return l;
}

void k_build_stages(struct sim *s, struct sim_job *j)
{
	struct sim_live *jr = j->live;
	struct sim_dag d;
	uint8_t *have = &s->have_dag[j->group];
	if (*have) { /* one DAG for the whole group, read-only */
		if (*have == 1)
			build_dag(s, j, &s->dag_ar, &s->dags[j->group]);
		*have = 2;
		d = s->dags[j->group];
	} else {
		build_dag(s, j, &jr->ar, &d);
	}
	jr->nstages = d.nstages;
	jr->stages = arena_zalloc(&jr->ar, (size_t)d.nstages * sizeof *jr->stages);
	jr->task_delay_us = d.task_delay_us;
	for (int i = 0; i < d.nstages; i++) {
		struct sim_stage *st = &jr->stages[i];
		const struct sim_dag_stage *w = &d.st[i];
		st->work_us = w->work_us;
		st->ntasks = w->ntasks;
		s->tasks_made += (uint64_t)w->ntasks;
		st->state = sim_recount ? arena_zalloc(&jr->ar, (size_t)w->ntasks) : NULL;
		if (s->scn->spec.enabled)
			st->took_us = arena_alloc(&jr->ar, (size_t)w->ntasks * sizeof *st->took_us);
		st->parents_left = w->nparents;
		st->first_start_us = -1;
		st->delay_us = w->delay_us;
		if (w->release_us > 0 && j->arrival_us + w->release_us > s->now) {
			/* held as by one more parent until its release time */
			st->parents_left++;
			int k = slot_take(&s->jtimers, &s->cap_jtimers, &s->free_jtimer,
					  sizeof *s->jtimers, offsetof(struct jtimer, next));
			s->jtimers[k] = (struct jtimer){.job = j->id, .tag = TAG_STAGE,
							.gen = (uint32_t)i, .next = -1};
			k_push_at(s, (double)(j->arrival_us + w->release_us), EV_JOB_TIMER, (uint32_t)k);
		}
		for (int p = 0; p < w->nparents; p++)
			jr->stages[w->parents[p]].nchildren++;
		if (w->npref > 0 && w->pref) {
			st->loc = loc_build(s, j, &jr->ar, w);
			jr->has_loc = true;
		}
	}
	/* each stage's children, in stage order */
	for (int i = 0; i < d.nstages; i++) {
		struct sim_stage *st = &jr->stages[i];
		st->children = arena_alloc(&jr->ar, (size_t)st->nchildren * sizeof *st->children);
		st->nchildren = 0;
	}
	for (int i = 0; i < d.nstages; i++)
		for (int p = 0; p < d.st[i].nparents; p++) {
			struct sim_stage *ps = &jr->stages[d.st[i].parents[p]];
			ps->children[ps->nchildren++] = i;
		}
	jr->fair = d.fair;
	for (int i = 0; i < d.nstages; i++)
		k_stage_can_start(s, j, i);
}

/* Stage i of job j can start (its parents done, its release come): if
 * its DAG holds it a while more (delay_us), hold it now, once. */
void k_stage_can_start(struct sim *s, struct sim_job *j, int i)
{
	struct sim_stage *st = &j->live->stages[i];
	if (st->parents_left || !st->delay_us)
		return;
	int k = slot_take(&s->jtimers, &s->cap_jtimers, &s->free_jtimer, sizeof *s->jtimers,
			  offsetof(struct jtimer, next));
	s->jtimers[k] = (struct jtimer){.job = j->id, .tag = TAG_STAGE, .gen = (uint32_t)i,
					.next = -1};
	k_push_at(s, (double)(s->now + st->delay_us), EV_JOB_TIMER, (uint32_t)k);
	st->delay_us = 0; /* once */
	st->parents_left = 1;
}
