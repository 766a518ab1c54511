/* locality.h - data locality: Spark's delay scheduling, the dispatcher's
 * side (a stage's state is built in stages.c, loc_build).  Its functions
 * are static: included by loop.c only, so that they inline into the
 * dispatcher as they did when they were one file with it.  Calls
 * events.c, timers of its own (TAG_LOC job timers).
 */
#ifndef HETSIM_LOCALITY_H
#define HETSIM_LOCALITY_H

#include <stdlib.h>
#include <string.h>

#include "kernel.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* ---- data locality: delay scheduling ------------------------------ */

/* Whether task t of a stage with locality prefers some node. */
static inline bool loc_prefers(const struct loc *l, int t)
{
	const int *p = l->pref + (size_t)t * (size_t)l->npref;
	for (int i = 0; i < l->npref; i++)
		if (p[i] >= 0)
			return true;
	return false;
}

static inline bool loc_taken(const struct loc *l, int t)
{
	return l->taken[t >> 3] >> (t & 7) & 1;
}

/* Task t of the stage is dispatched: no longer pending; `next` moves on
 * to the first task not taken. */
static inline void loc_take(struct sim_stage *st, int t)
{
	struct loc *l = st->loc;
	l->taken[t >> 3] |= (uint8_t)(1u << (t & 7));
	l->pending_pref -= loc_prefers(l, t);
	while (st->next < st->ntasks && loc_taken(l, st->next))
		st->next++;
}

/* The time task t, starting on `node`, first spends reading its input
 * over the network: 0 on a node it prefers (or if it prefers none), else
 * its remote MiB at the node's bandwidth; the launch counted local or
 * remote. */
static int64_t loc_read_us(struct sim *s, const struct loc *l, int t, int node)
{
	const int *p = l->pref + (size_t)t * (size_t)l->npref;
	bool some = false;
	for (int i = 0; i < l->npref; i++) {
		if (p[i] == node) {
			s->tot.tasks_local++;
			return 0;
		}
		some |= p[i] >= 0;
	}
	if (!some)
		return 0;
	s->tot.tasks_remote++;
	double bw = s->scn->groups[s->clu.nodes[node].group].net_mib_s;
	double mib = l->remote_mib ? l->remote_mib[t]
		     : t == l->ntasks - 1 ? l->remote_last_mib : l->remote_each_mib;
	if (!(mib > 0) || !(bw > 0))
		return 0;
	double us = round_half_away(mib / bw * 1e6);
	return us < (double)SIM_TIME_MAX ? (int64_t)us : SIM_TIME_MAX;
}

/* The pending task of list d of lowest index, or -1: the entries before
 * the cursor are taken, so each is passed once. */
static int loc_first(const struct loc *l, struct loc_list *d)
{
	while (d->cur < d->n && loc_taken(l, d->task[d->cur]))
		d->cur++;
	return d->cur < d->n ? d->task[d->cur] : -1;
}

/* Every node's list at once (a stage asked about more than LOC_LAZY
 * nodes): the (node, task) pairs of the pending tasks sorted, O(P log P)
 * for P preferences; the lazy lists are dropped (they stay in the
 * arena until the job ends). */
static void loc_index_all(struct loc *l)
{
	int n = l->ntasks, r = l->npref;
	uint64_t *k = xmalloc(((size_t)n * (size_t)r + 1) * sizeof *k);
	size_t nk = 0;
	for (int t = 0; t < n; t++) {
		if (loc_taken(l, t))
			continue;
		for (int i = 0; i < r; i++) {
			int v = l->pref[(size_t)t * (size_t)r + (size_t)i];
			if (v >= 0)
				k[nk++] = (uint64_t)v << 32 | (uint32_t)t;
		}
	}
	qsort(k, nk, sizeof *k, cmp_u64);
	size_t m = 0; /* a node listed twice for a task counts once */
	for (size_t i = 0; i < nk; i++)
		if (m == 0 || k[i] != k[m - 1])
			k[m++] = k[i];
	int nd = 0;
	for (size_t i = 0; i < m; i++)
		nd += i == 0 || k[i] >> 32 != k[i - 1] >> 32;
	l->ndist = nd;
	l->task = arena_alloc(l->ar, (m ? m : 1) * sizeof *l->task);
	l->node = arena_alloc(l->ar, ((size_t)nd + 1) * sizeof *l->node);
	l->lo = arena_alloc(l->ar, ((size_t)nd + 1) * sizeof *l->lo);
	l->cur = arena_alloc(l->ar, ((size_t)nd + 1) * sizeof *l->cur);
	for (size_t i = 0, d = 0; i < m; i++) {
		if (i == 0 || k[i] >> 32 != k[i - 1] >> 32) {
			l->node[d] = (int)(k[i] >> 32);
			l->lo[d] = l->cur[d] = (int)i;
			d++;
		}
		l->task[i] = (int)(uint32_t)k[i];
	}
	l->lo[nd] = (int)m;
	free(k);
	l->full = true;
	l->nlazy = 0;
}

/* The list of the pending tasks that prefer node `node`, made now: one
 * pass over the preferences. */
static struct loc_list *loc_list_make(struct sim *s, struct loc *l, int node)
{
	int n = l->ntasks, r = l->npref, m = 0;
	const int *p = l->pref;
	for (int t = 0; t < n; t++, p += r) {
		if (loc_taken(l, t))
			continue;
		for (int i = 0; i < r; i++)
			if (p[i] == node) {
				xgrow(&s->loc_buf, &s->cap_loc_buf, m + 1, sizeof *s->loc_buf);
				s->loc_buf[m++] = t;
				break;
			}
	}
	struct loc_list *d = &l->lazy[l->nlazy++];
	*d = (struct loc_list){.node = node, .n = m};
	if (m) {
		d->task = arena_alloc(l->ar, (size_t)m * sizeof *d->task);
		memcpy(d->task, s->loc_buf, (size_t)m * sizeof *d->task);
	}
	return d;
}

/* The pending task of lowest index that prefers node `node`, or -1:
 * O(lists made) (or O(log nodes preferred) once all are indexed), plus
 * the entries passed for good; a node first asked about costs one pass
 * over the preferences. */
static int loc_local(struct sim *s, struct loc *l, int node)
{
	if (!l->pending_pref)
		return -1;
	if (!l->full) {
		for (int i = 0; i < l->nlazy; i++)
			if (l->lazy[i].node == node)
				return loc_first(l, &l->lazy[i]);
		if (l->nlazy < LOC_LAZY)
			return loc_first(l, loc_list_make(s, l, node));
		loc_index_all(l);
	}
	int a = 0, b = l->ndist;
	while (a < b) {
		int mid = (a + b) / 2;
		if (l->node[mid] < node)
			a = mid + 1;
		else
			b = mid;
	}
	if (a == l->ndist || l->node[a] != node)
		return -1;
	struct loc_list d = {.node = node, .n = l->lo[a + 1], .cur = l->cur[a], .task = l->task};
	int t = loc_first(l, &d);
	l->cur[a] = d.cur;
	return t;
}

/* Whether no pending task prefers the node of any executor of the job
 * (lost, busy or not up yet included): then no slot of the job can take
 * a local task until it has another executor.  Amortised O(1): the
 * executors found clear are not looked at again. */
static bool loc_none_local(struct sim *s, const struct sim_live *jr, struct loc *l)
{
	for (; l->clear_upto < jr->nexecs; l->clear_upto++)
		if (loc_local(s, l, jr->execs[l->clear_upto].node) >= 0)
			return false;
	return true;
}

/* Whether a pending task prefers the node of a live executor of the job
 * that is up (busy or not: its slot may free): O(executors) lookups. */
static bool loc_could_wait(struct sim *s, const struct sim_job *j, struct loc *l)
{
	const struct sim_live *jr = j->live;
	if (loc_none_local(s, jr, l))
		return false;
	for (int i = 0; i < jr->nexecs; i++) {
		int id = jr->execs[i].id;
		if (id >= 0 && s->execs[id].ready_us >= 0 && s->execs[id].slots > 0 &&
		    loc_local(s, l, jr->execs[i].node) >= 0)
			return true;
	}
	return false;
}

/* Spark's getAllowedLocalityLevel with NODE_LOCAL and ANY: whether the
 * stage may now launch a task on a node it does not prefer.  At
 * NODE_LOCAL, the level moves to ANY when no pending task could run
 * locally on the job's executors (SPARK-4939; Spark's valid levels), the
 * wait starting again from now, or when spark.locality.wait has passed
 * since the stage's last launch at NODE_LOCAL (or its first offer), the
 * wait then counted on from its end, as Spark's lastLaunchTime +=
 * localityWait. */
static bool loc_any_allowed(struct sim *s, const struct sim_job *j, struct loc *l)
{
	if (l->any)
		return true;
	if (!l->pending_pref || !loc_could_wait(s, j, l)) {
		l->any = true;
		l->last_us = s->now;
		return true;
	}
	if (s->now - l->last_us >= s->scn->loc.wait_us) {
		l->any = true;
		l->last_us += s->scn->loc.wait_us;
		return true;
	}
	return false;
}

/* Wake job j's dispatcher at `t`, when the locality wait of its stage
 * `stage` ends, unless a wake is queued for it no later. */
static void loc_wake(struct sim *s, struct sim_job *j, int stage, int64_t t)
{
	struct loc *l = j->live->stages[stage].loc;
	if (l->wake_us > s->now && l->wake_us <= t)
		return;
	l->wake_us = t;
	int k = slot_take(&s->jtimers, &s->cap_jtimers, &s->free_jtimer, sizeof *s->jtimers,
			  offsetof(struct jtimer, next));
	s->jtimers[k] = (struct jtimer){.job = j->id, .tag = TAG_LOC, .gen = (uint32_t)stage,
					.next = -1};
	k_push_at(s, (double)t, EV_JOB_TIMER, (uint32_t)k);
}

#endif
