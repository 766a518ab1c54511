/* tiresias_fast.c - tiresias's decisions (tiresias.c's header), kept
 * incrementally: every decision equals the full pass's (tiresias.c,
 * decide), which tests/scenarios/hand/index-tiresias.yaml checks against
 * clu_plain_scan.  This file: the events, requeueing and the decision;
 * tiresias_pass.c: the projection and the pass (tiresias_fast.h, what
 * they share).  What the full pass rebuilds at every decision, and
 * what stands for it here:
 *
 * - Service and waiting: counted job by job when read or when the job
 *   changes state (a job's counts change only with its state, so the
 *   sums are the same integers).
 * - The order (queue, then place): a job's place `pos` is (queue, block,
 *   sequence).  The full pass renumbers every job at each decision, a
 *   queue's running jobs before its waiting ones, each in their order;
 *   the blocks keep that order without the renumbering: block 0 the
 *   running jobs as of the last decision, 1 the waiting ones, 2 the
 *   queue's tail (entered since: arrivals, demotions, promotions), and -1
 *   the jobs still being preempted at a decision (the full pass skips
 *   them, so their old numbers come before every renumbered one).  At the
 *   end of a decision only the jobs that changed move: those started and
 *   the tail's running ones to block 0's end, those that stopped to
 *   block 1's front, in the pass's order (`order: arrival`: block 0 the
 *   running, 1 the waiting, by arrival).  Each queue's waiting jobs of
 *   one fit signature (their executors' shapes) are an ordered set
 *   (pol_iset.h).
 * - The projection (every running job's resources free): never built.
 *   At a place c of the pass, node n has free F(n), the cluster's, plus
 *   the executors there of running jobs not yet passed (or left out),
 *   less what jobs taken in this pass packed there.  In queue q's waiting
 *   blocks that is level q: F(n) plus what the later queues' running
 *   jobs hold on n (sums kept by queue and node), except on the special
 *   nodes: packed or freed in this pass, or holding the queue's tail.  A
 *   first-fit index by executor shape of each level (pol_index.h, keyed
 *   by a level's amounts and re-keyed as running jobs come and go) finds
 *   the first node where an executor fits; while a segment of waiting
 *   jobs is scanned, the special nodes are keyed in it by their projected
 *   amounts (cached: within a segment they change only by packing), in
 *   each tree just before it answers (a node packed again and again in
 *   between is keyed there once), and put back at its end.  Elsewhere (a job among running ones) the
 *   special nodes before the index's winner are read one by one.
 * - The pass: only what can decide something is visited.  A running job
 *   can be left out only on a node a waiting job packed in this pass (or
 *   it wants a replacement executor): those are visited, in order; every
 *   other running job is kept.  A waiting job is tried; once one of a
 *   signature does not fit at all (nothing packed), none of that
 *   signature fits in the rest of its run of waiting jobs (there the
 *   projection only shrinks), so the rest are passed over through the
 *   ordered sets.  Waiting jobs among a queue's running
 *   ones (an executor lost, a preemption that took time) are placed
 *   against the projection node by node (rare).
 * - Demotions: running jobs in a heap by the instant their service
 *   reaches their queue's limit (pol_heap.h); the wake-up is the least
 *   of those instants, recomputed by tiresias.c's formula for the few
 *   within microseconds of it.
 *
 * Cost per decision: O(k log n) for the k jobs whose state or place
 * changes, plus O(S x Q) for the S signatures with waiting jobs in the Q
 * queues, plus O((P + 1) x S x e log64 nodes) for the P jobs tried after
 * something packed (e executors each), plus O(shapes x log64 nodes) for
 * each node packed, freed, or whose running jobs change (past
 * POL_IX_MAX_SHAPES shapes, no tree: O(nodes) a try on the segment's
 * cached amounts, after an O(1) check against the most any node had;
 * a signature that missed reads only the nodes moved since its miss
 * (struct tsig.miss, pol_moved.h's list of nodes), left out of a
 * segment at once where none of those fits, a whole scan when more
 * than a quarter moved;
 * 4 000 pods each of its own memory on 20 nodes: 1.5 s, the full pass
 * 1.2 s, 8.6 s when a try read every executor on every node); a waiting job
 * among running ones costs O(nodes x executors on a node).  With
 * `starve` > 0 the guard's promotions and the wake-up read every active
 * job (O(jobs) a decision), and with `demotion: reference` the wake-up
 * reads every running job below the last queue.
 */
#include "tiresias_fast.h"

/* ---- service, counted job by job ------------------------------------- */

static void sync(struct tj *t, int64_t now)
{
	int64_t dt = now - t->stamp;
	if (t->running && !t->going)
		t->exec_us += dt;
	else if (!t->running && t->exec_us > 0)
		t->lpend_us += dt;
	t->stamp = now;
}


/* Its demotion instant in the heap: when w x service first reaches the
 * limit, as tir_over computes it. */
static void dem_update(struct tir *p, int job, int64_t now)
{
	struct tfast *f = p->f;
	struct tj *t = &p->j[job];
	if (!runner(t) || t->q >= p->nq - 1 || !isfinite(p->lim[t->q]) || !(t->w > 0)) {
		pol_heap_remove(&f->dem, job);
		return;
	}
	sync(t, now);
	double L = p->lim[t->q] * 1e6, e = ceil(L / t->w);
	int64_t E = e > 4e18 ? (int64_t)4e18 : e < 0 ? 0 : (int64_t)e;
	while (E > 0 && t->w * (double)(E - 1) >= L)
		E--;
	while (!(t->w * (double)E >= L))
		E++;
	pol_heap_set(&f->dem, job, now + (E - t->exec_us));
}

/* ---- signatures -------------------------------------------------------- */

static bool sig_eq(const struct tsig *a, const struct tsig *b)
{
	if (a->nroles != b->nroles)
		return false;
	for (int r = 0; r < a->nroles; r++)
		if (a->role[r].count != b->role[r].count || a->role[r].cores != b->role[r].cores ||
		    a->role[r].mem != b->role[r].mem || a->role[r].gm != b->role[r].gm)
			return false;
	return true;
}

static uint64_t sig_hash(const struct tsig *g)
{
	uint64_t h = 1469598103934665603u;
	for (int r = 0; r < g->nroles; r++) {
		uint64_t v[4] = {(uint64_t)g->role[r].count, (uint64_t)g->role[r].cores,
				 (uint64_t)g->role[r].mem, (uint64_t)g->role[r].gm};
		for (int k = 0; k < 4; k++)
			h = (h ^ v[k]) * 1099511628211u;
	}
	return h ^ (h >> 29);
}

static void sig_rehash(struct tfast *f)
{
	free(f->hslot);
	f->hcap = f->hcap ? 2 * f->hcap : 64;
	f->hslot = xmalloc((size_t)f->hcap * sizeof *f->hslot);
	memset(f->hslot, 0xff, (size_t)f->hcap * sizeof *f->hslot);
	for (int i = 0; i < f->nsig; i++) {
		uint64_t h = sig_hash(&f->sig[i]);
		while (f->hslot[h & (uint64_t)(f->hcap - 1)] >= 0)
			h++;
		f->hslot[h & (uint64_t)(f->hcap - 1)] = i;
	}
}

/* The signature of a job that holds nothing: its roles' counts and shapes
 * as pol_proj_pack reads them. */
static int sig_of(struct tfast *f, const struct sim_job *j)
{
	int *cached = &f->sig_of_shape[j->shape->id];
	if (*cached >= 0)
		return *cached;
	struct tsig g = {.nroles = j->shape->nroles};
	for (int r = 0; r < g.nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		g.role[r].count = ro->count;
		g.role[r].cores = ro->cores ? ro->cores : CLU_MILLI;
		g.role[r].mem = ro->mem_mib;
		g.role[r].gm = ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli;
	}
	if (2 * (f->nsig + 1) > f->hcap)
		sig_rehash(f);
	uint64_t h = sig_hash(&g);
	for (;; h++) {
		int *slot = &f->hslot[h & (uint64_t)(f->hcap - 1)];
		if (*slot < 0) {
			for (int q = 0; q < TIR_MAX_QUEUES; q++)
				g.root[q] = g.at[q] = -1;
			xgrow(&f->sig, &f->capsig, f->nsig + 1, sizeof *f->sig);
			f->sig[f->nsig] = g;
			*slot = f->nsig++;
			return *cached = *slot;
		}
		if (sig_eq(&f->sig[*slot], &g))
			return *cached = *slot;
	}
}

/* Into or out of its queue's set of waiting jobs. */
static void set_in(struct tir *p, int job)
{
	struct tj *t = &p->j[job];
	struct tsig *g = &p->f->sig[t->sig];
	if (!t->inset) {
		pol_iset_insert(&p->f->os, &g->root[t->q], job, t->pos);
		if (g->at[t->q] < 0) {
			g->at[t->q] = p->f->live[t->q].n;
			push(&p->f->live[t->q], t->sig);
		}
	}
	t->inset = true;
}

static void set_out(struct tir *p, int job)
{
	struct tj *t = &p->j[job];
	struct tsig *g = &p->f->sig[t->sig];
	if (t->inset) {
		pol_iset_erase(&p->f->os, &g->root[t->q], job);
		if (g->root[t->q] < 0) { /* out of live[q]: the last in its slot */
			struct list *l = &p->f->live[t->q];
			int last = l->v[--l->n];
			l->v[g->at[t->q]] = last;
			p->f->sig[last].at[t->q] = g->at[t->q];
			g->at[t->q] = -1;
		}
	}
	t->inset = false;
}

/* A waiting job's new place; in its set if its block is 1 or 2 (in
 * blocks -1 and 0 it waits among running jobs: visited one by one). */
static void wait_at(struct tir *p, int job, int64_t pos)
{
	set_out(p, job);
	p->j[job].pos = pos;
	if (blk_of(pos) >= 1)
		set_in(p, job);
	else
		push(&p->f->rekey, job);
}

/* ---- running jobs' executors by node --------------------------------- */

/* Executor e of a job of queue q on node, counted in (sign +1) or out of
 * the later queues' sums the levels read. */
static void count(struct tir *p, int q, int node, const struct ent *e, int sign)
{
	struct tfast *f = p->f;
	int64_t *r = &f->rs[((size_t)q * (size_t)f->proj.c->n + (size_t)node) * 3];
	r[0] += sign * e->cores, r[1] += sign * e->mem, r[2] += sign * e->gm;
	pol_moved_touch(&f->moved, node);
	for (int k = 0; k < q; k++)
		pol_ix_rekey(&f->lvl[k], node);
}

static void ent_add(struct tir *p, int job, int node, int cores, int64_t mem, int64_t gm)
{
	struct tfast *f = p->f;
	struct tj *t = &p->j[job];
	xgrow(&f->ne[node], &f->capne[node], f->nne[node] + 1, sizeof **f->ne);
	f->ne[node][f->nne[node]++] = (struct ent){job, cores, mem, gm};
	xgrow(&t->en, &t->capen, t->nen + 1, sizeof *t->en);
	t->en[t->nen++] = node;
	count(p, t->q, node, &f->ne[node][f->nne[node] - 1], +1);
}

/* One executor of job on node (any, if cores < 0), out of the lists. */
static void ent_del(struct tir *p, int job, int node, int cores, int64_t mem, int64_t gm)
{
	struct tfast *f = p->f;
	struct tj *t = &p->j[job];
	struct ent *e = f->ne[node];
	for (int i = 0; i < f->nne[node]; i++)
		if (e[i].job == job && (cores < 0 || (e[i].cores == cores && e[i].mem == mem &&
						      e[i].gm == gm))) {
			struct ent gone = e[i];
			e[i] = e[--f->nne[node]];
			count(p, t->q, node, &gone, -1);
			break;
		}
	for (int i = 0; i < t->nen; i++)
		if (t->en[i] == node) {
			t->en[i] = t->en[--t->nen];
			break;
		}
}

static void ents_clear(struct tir *p, int job)
{
	struct tj *t = &p->j[job];
	while (t->nen > 0)
		ent_del(p, job, t->en[t->nen - 1], -1, 0, 0);
}

/* Its executors as they are now: those live.  The lists hold its live
 * executors already read (each one lost or stopped is taken out as it
 * goes: tfast_exec_lost, ents_clear), and an executor is launched after
 * every one read, so only those since the last read are added: a restart
 * costs its own executors, not every one the job ever had. */
static void ents_load(struct tir *p, struct sim *s, int job)
{
	const struct sim_job *j = sim_job(s, job);
	int x = p->j[job].nseen;
	p->j[job].nseen = sim_job_nexecs(j);
	for (; x < sim_job_nexecs(j); x++) {
		const struct sim_exec *e = sim_job_exec(s, j, x);
		if (e && e->live)
			ent_add(p, job, e->node, e->cores, e->mem_mib,
				e->gpu_milli ? e->gpu_milli : (int64_t)e->gpus * CLU_GPU_MILLI);
	}
}

/* ---- requeueing -------------------------------------------------------- */

static void demote(struct tir *p, int job)
{
	struct tfast *f = p->f;
	struct tj *t = &p->j[job];
	for (int i = 0; i < t->nen; i++) {
		int node = t->en[i], k = 0;
		while (k < i && t->en[k] != node)
			k++;
		if (k < i)
			continue; /* its node's executors moved already */
		for (int x = 0; x < f->nne[node]; x++)
			if (f->ne[node][x].job == job) {
				count(p, t->q, node, &f->ne[node][x], -1);
				count(p, t->q + 1, node, &f->ne[node][x], +1);
			}
	}
	t->q++;
	if (p->order_ref) { /* at its new queue's tail */
		t->pos = mkpos(t->q, 2, ++f->hi);
		push(&f->tail, job);
	} else {
		t->pos = mkpos(t->q, 0, job);
	}
}

static void promote(struct tir *p, int job, int64_t now)
{
	struct tj *t = &p->j[job];
	set_out(p, job);
	t->q = 0;
	t->lpend_us = 0;
	t->waiting = now;
	if (p->reset)
		t->exec_us = 0;
	wait_at(p, job, p->order_ref ? mkpos(0, 2, ++p->f->hi) : mkpos(0, 1, job));
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* tiresias.c's requeue: demotions (and with the guard, promotions) in
 * arrival order.  Without the guard only the running jobs the heap has
 * due by now can change. */
static void requeue(struct tir *p, int64_t now)
{
	struct tfast *f = p->f;
	struct list *l = &f->tmp;
	l->n = 0;
	if (p->starve > 0) {
		for (int job = pol_bits_next(&f->active, 0); job >= 0;
		     job = pol_bits_next(&f->active, job + 1))
			push(l, job);
	} else {
		while (f->dem.n && f->dem.key[pol_heap_top(&f->dem)] <= now)
			push(l, pol_heap_pop(&f->dem));
		if (l->n > 1) /* l->v is NULL while nothing was pushed */
			qsort(l->v, (size_t)l->n, sizeof *l->v, cmp_int);
	}
	for (int i = 0; i < l->n; i++) {
		int job = l->v[i];
		struct tj *t = &p->j[job];
		sync(t, now);
		if (runner(t)) {
			bool moved = false;
			while (tir_over(p, t)) {
				demote(p, job);
				moved = true;
				if (p->demote_ref) /* run_sim.py: one queue an event (an if) */
					break;
			}
			if (moved || !pol_heap_has(&f->dem, job))
				dem_update(p, job, now);
		} else if (!t->running && p->starve > 0 && t->q > 0 && tir_starved(p, t, now)) {
			promote(p, job, now);
		}
	}
}

/* ---- the decision ------------------------------------------------------ */

/* pol_first_fit(&p->t, s, j, -1), each executor's node the index's
 * winner (pol_firstfit.h). */
static bool place(struct tir *p, struct sim *s, const struct sim_job *j)
{
	return pol_ff_place(&p->f->start, s, j, -1);
}

struct pj { int64_t pos; int job; };

static int cmp_pj(const void *a, const void *b)
{
	const struct pj *x = a, *y = b;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* l's jobs in the order of their places (distinct). */
static void sort_pos(struct tir *p, struct list *l)
{
	struct pj *v = xmalloc((size_t)(l->n ? l->n : 1) * sizeof *v);
	for (int i = 0; i < l->n; i++)
		v[i] = (struct pj){p->j[l->v[i]].pos, l->v[i]};
	qsort(v, (size_t)l->n, sizeof *v, cmp_pj);
	for (int i = 0; i < l->n; i++)
		l->v[i] = v[i].job;
	free(v);
}

/* tiresias.c's renumbering at the end of a decision (order: reference),
 * moving only the jobs that changed (the header). */
static void renumber(struct tir *p, struct list *newrun)
{
	struct tfast *f = p->f;
	struct list *l = &f->tmp;
	l->n = 0;
	f->dec++; /* fresh marks */
	for (int i = 0; i < newrun->n; i++) {
		struct tj *t = &p->j[newrun->v[i]];
		if (!runner(t) || t->mark == f->dec || blk_of(t->pos) == 0)
			continue; /* one among running ones keeps its place */
		t->mark = f->dec;
		if (blk_of(t->pos) < 0)
			push(l, newrun->v[i]);
	}
	/* those that were being preempted come before the running ones: block
	 * 0's front, in their order */
	sort_pos(p, l);
	f->lo0 -= l->n;
	for (int i = 0; i < l->n; i++)
		p->j[l->v[i]].pos = mkpos(p->j[l->v[i]].q, 0, f->lo0 + i);
	l->n = 0;
	for (int i = 0; i < newrun->n; i++) {
		struct tj *t = &p->j[newrun->v[i]];
		if (runner(t) && t->mark == f->dec && blk_of(t->pos) >= 1)
			push(l, newrun->v[i]);
	}
	for (int i = 0; i < f->tail.n; i++) {
		struct tj *t = &p->j[f->tail.v[i]];
		if (runner(t) && blk_of(t->pos) == 2 && t->mark != f->dec) {
			t->mark = f->dec;
			push(l, f->tail.v[i]);
		}
	}
	sort_pos(p, l);
	for (int i = 0; i < l->n; i++) /* running: block 0's end */
		p->j[l->v[i]].pos = mkpos(p->j[l->v[i]].q, 0, ++f->hi);
	for (int i = 0; i < f->rejected.n; i++) { /* still being preempted */
		struct tj *t = &p->j[f->rejected.v[i]];
		if (t->active && t->going)
			t->pos = mkpos(t->q, -1, ++f->hi);
	}
	l->n = 0;
	for (int i = 0; i < f->rekey.n; i++) {
		struct tj *t = &p->j[f->rekey.v[i]];
		if (t->active && !t->running && blk_of(t->pos) <= 0 && t->mark != f->dec) {
			t->mark = f->dec;
			push(l, f->rekey.v[i]);
		}
	}
	f->rekey.n = 0;
	sort_pos(p, l);
	f->lo -= l->n; /* waiting: block 1's front, in their order */
	for (int i = 0; i < l->n; i++)
		wait_at(p, l->v[i], mkpos(p->j[l->v[i]].q, 1, f->lo + i));
	f->tail.n = 0;
}

/* The least wake-up among the running jobs whose demotion instant is
 * within `slack` of the heap's least (tir_wake_at's rounding moves it by
 * a microsecond or two); or, reading every one, all of them. */
static void wake_heap(struct tir *p, int64_t now, int i, int64_t bound, int64_t *want)
{
	struct tfast *f = p->f;
	if (i >= f->dem.n)
		return;
	int job = f->dem.item[i];
	if (bound >= 0 && f->dem.key[job] > bound)
		return;
	struct tj *t = &p->j[job];
	sync(t, now);
	int64_t at = tir_wake_at(p, t, now);
	if (at >= 0 && (*want < 0 || at < *want))
		*want = at;
	wake_heap(p, now, 2 * i + 1, bound, want);
	wake_heap(p, now, 2 * i + 2, bound, want);
}

static void wake(struct tir *p, struct sim *s)
{
	struct tfast *f = p->f;
	int64_t now = sim_now(s), want = -1;
	if (p->starve > 0) {
		for (int job = pol_bits_next(&f->active, 0); job >= 0;
		     job = pol_bits_next(&f->active, job + 1)) {
			sync(&p->j[job], now);
			int64_t at = tir_wake_at(p, &p->j[job], now);
			if (at >= 0 && (want < 0 || at < want))
				want = at;
		}
	} else if (f->dem.n) {
		int64_t least = f->dem.key[pol_heap_top(&f->dem)];
		wake_heap(p, now, 0, p->demote_ref ? -1 : least + 8, &want);
	}
	tir_want(p, s, want);
}

void tfast_decide(struct tir *p, struct sim *s)
{
	struct tfast *f = p->f;
	int64_t now = sim_now(s);
	f->dec++;
	requeue(p, now);
	f->started.n = f->rejected.n = 0;
	tfast_scan(p, s);
	for (int i = 0; i < f->rejected.n; i++) { /* the running ones left out give way */
		int job = f->rejected.v[i];
		struct tj *t = &p->j[job];
		sync(t, now);
		t->going = true;
		t->preempted++;
		ents_clear(p, job);
		pol_heap_remove(&f->dem, job);
		pol_preempt_job(s, job);
	}
	struct list newrun = {0};
	for (int i = 0; i < f->started.n; i++) { /* and the ones taken start */
		int job = f->started.v[i];
		struct tj *t = &p->j[job];
		const struct sim_job *j = sim_job(s, job);
		if (t->going || !t->active || sim_execs_wanted(j) == 0 || !place(p, s, j))
			continue;
		pol_tent_launch(&p->t, s, job);
		if (!t->running) {
			sync(t, now);
			t->since = now;
			t->running = true;
			set_out(p, job);
			if (p->order_ref)
				push(&newrun, job);
			else
				t->pos = mkpos(t->q, 0, job);
		}
		ents_load(p, s, job);
		dem_update(p, job, now);
	}
	int kept = 0; /* those still short of an executor ask again */
	for (int i = 0; i < f->want.n; i++) {
		int job = f->want.v[i];
		if (runner(&p->j[job]) && sim_execs_wanted(sim_job(s, job)) > 0 &&
		    p->j[job].mark != f->dec) {
			p->j[job].mark = f->dec;
			f->want.v[kept++] = job;
		}
	}
	f->want.n = kept;
	if (p->order_ref)
		renumber(p, &newrun);
	else
		f->rekey.n = f->tail.n = 0;
	free(newrun.v);
	wake(p, s);
}

/* ---- events ------------------------------------------------------------ */

void tfast_arrived(struct tir *p, struct sim *s, int job)
{
	struct tfast *f = p->f;
	int64_t now = sim_now(s);
	p->j[job] = (struct tj){.since = -1, .waiting = now, .active = true,
				.w = tir_weight(sim_job(s, job)), .stamp = now,
				.sig = sig_of(f, sim_job(s, job))};
	pol_bits_put(&f->active, job, true);
	p->nact++;
	/* at the first queue's tail (reference §4 step 2) */
	wait_at(p, job, p->order_ref ? mkpos(0, 2, ++f->hi) : mkpos(0, 1, job));
}

void tfast_finished(struct tir *p, struct sim *s, int job)
{
	struct tfast *f = p->f;
	(void)s;
	struct tj *t = &p->j[job];
	if (!t->active)
		return; /* rejected at its arrival */
	set_out(p, job);
	ents_clear(p, job);
	pol_heap_remove(&f->dem, job);
	t->active = t->running = false;
	free(t->en);
	t->en = NULL;
	t->capen = 0;
	pol_bits_put(&f->active, job, false);
	p->nact--;
}

void tfast_exec_lost(struct tir *p, struct sim *s, int job, const struct sim_exec *x)
{
	struct tfast *f = p->f;
	struct tj *t = &p->j[job];
	if (!t->active)
		return;
	if (runner(t))
		ent_del(p, job, x->node, x->cores, x->mem_mib,
			x->gpu_milli ? x->gpu_milli : (int64_t)x->gpus * CLU_GPU_MILLI);
	if (sim_job(s, job)->live->execs_live > 0) {
		if (runner(t))
			push(&f->want, job); /* a replacement, at the next decision */
		return;
	}
	int64_t now = sim_now(s);
	sync(t, now);
	t->last_run = t->since >= 0 ? now - t->since : 0;
	t->since = -1;
	t->running = t->going = false;
	t->waiting = now;
	ents_clear(p, job);
	pol_heap_remove(&f->dem, job);
	wait_at(p, job, p->order_ref ? t->pos : mkpos(t->q, 1, job));
}

void tfast_init(struct tir *p, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1, n = c->n ? c->n : 1;
	struct tfast *f = p->f = xcalloc(1, sizeof *f);
	f->nj = nj;
	pol_ix_init(&f->proj, c, NULL, tfast_proj_key, NULL);
	pol_ff_init(&f->start, s, &p->t);
	pol_bits_init(&f->active, nj);
	pol_iset_pool_init(&f->os, nj);
	pol_heap_init(&f->dem, nj);
	pol_heap_init(&f->chk, nj);
	int ns = sim_nshapes(s) ? sim_nshapes(s) : 1;
	pol_heap_init(&f->sh, ns); /* signatures: at most one a shape */
	f->sig_of_shape = xmalloc((size_t)ns * sizeof *f->sig_of_shape);
	memset(f->sig_of_shape, 0xff, (size_t)ns * sizeof *f->sig_of_shape);
	f->ne = xcalloc((size_t)n, sizeof *f->ne);
	f->nne = xcalloc((size_t)n, sizeof *f->nne);
	f->capne = xcalloc((size_t)n, sizeof *f->capne);
	f->rs = xcalloc((size_t)n * (size_t)p->nq * 3, sizeof *f->rs);
	for (int q = 0; q < p->nq - 1; q++) {
		f->lctx[q] = (struct lvctx){p, q};
		pol_ix_init(&f->lvl[q], c, NULL, tfast_lvl_key, &f->lctx[q]);
	}
	pol_bits_init(&f->spec, n);
	f->pkc = xcalloc((size_t)n, sizeof *f->pkc);
	f->pkm = xcalloc((size_t)n, sizeof *f->pkm);
	f->pkg = xcalloc((size_t)n, sizeof *f->pkg);
	f->cq = xmalloc((size_t)n * 3 * sizeof *f->cq);
	f->cq_at = xcalloc((size_t)n, sizeof *f->cq_at);
	f->tk_at = xcalloc((size_t)n, sizeof *f->tk_at);
	f->tk_cur = xmalloc((size_t)n * sizeof *f->tk_cur);
	f->ov_first = xmalloc((size_t)n * sizeof *f->ov_first);
	f->ov_last = xmalloc((size_t)n * sizeof *f->ov_last);
	f->ov_at = xcalloc((size_t)n, sizeof *f->ov_at);
	f->ov_q = -1;
	pol_moved_init(&f->moved, c);
}

void tfast_fini(struct tir *p)
{
	struct tfast *f = p->f;
	int n = f->proj.c->n;
	pol_ix_free(&f->proj);
	pol_ff_free(&f->start);
	pol_bits_free(&f->active);
	pol_iset_pool_free(&f->os);
	pol_heap_free(&f->dem), pol_heap_free(&f->chk), pol_heap_free(&f->sh);
	free(f->sig), free(f->sig_of_shape), free(f->hslot);
	for (int q = 0; q < TIR_MAX_QUEUES; q++)
		free(f->live[q].v);
	for (int i = 0; i < n; i++)
		free(f->ne[i]);
	free(f->ne), free(f->nne), free(f->capne), free(f->rs);
	for (int q = 0; q < p->nq - 1; q++)
		pol_ix_free(&f->lvl[q]);
	pol_bits_free(&f->spec);
	free(f->pkc), free(f->pkm), free(f->pkg), free(f->cq), free(f->cq_at);
	free(f->ovl.v), free(f->ov_first), free(f->ov_last), free(f->ov_at);
	free(f->tk_at), free(f->tk_cur);
	free(f->specl.v), free(f->tail.v), free(f->rekey.v), free(f->want.v);
	free(f->started.v), free(f->rejected.v), free(f->tmp.v);
	pol_moved_free(&f->moved);
	free(f->missl.v);
	for (int j = 0; j < f->nj; j++)
		free(p->j[j].en);
	free(f);
	p->f = NULL;
}
