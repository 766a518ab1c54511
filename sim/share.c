/* share.c - processor sharing: a virtual clock and a heap of tasks per
 * node (share.h). */
#include "share.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "util.h"

void ps_init(struct ps *p, int n, int64_t limit)
{
	p->n = n;
	p->limit = limit;
	p->nodes = xcalloc((size_t)(n ? n : 1), sizeof *p->nodes);
	for (int i = 0; i < n; i++)
		p->nodes[i].ev_run = -1;
}

void ps_free(struct ps *p)
{
	for (int i = 0; i < p->n; i++) {
		free(p->nodes[i].heap);
		free(p->nodes[i].wait);
	}
	free(p->nodes);
	*p = (struct ps){0};
}

/* base + round(left / rate), left below 0 taken as 0 (rounding may leave
 * a task a hair of work when it is due), as the engine always rounded a
 * task's end: halves up, in integers after the one division.  PS_NEVER
 * past the limit, or for a NaN. */
int64_t ps_end_at(int64_t base, double left, double rate, int64_t limit)
{
	double d = (left > 0 ? left : 0) / rate; /* >= 0, or NaN */
	if (!(d <= (double)limit))
		return PS_NEVER;
	int64_t us = (int64_t)d;
	us += d - (double)us >= 0.5;
	return base + us > limit ? PS_NEVER : base + us;
}

/* The order of the heap: finish, then run slot (a total order, so that
 * the task ps_next names is the one ps_pop finds). */
static inline bool ent_less(double va, int ra, double vb, int rb)
{
	return va < vb || (va == vb && ra < rb);
}

/* The virtual finish of a waiting task, were it to join now: the clock
 * at its from_us, the rate holding since v_at, plus its work. */
static inline double wait_vfin(const struct ps_node *pn, const struct ps_wait *w)
{
	return pn->v + (double)(w->from_us - pn->v_at) * pn->rate + w->work_us;
}

/* Entry e goes into the hole at i, moving up past larger parents; returns
 * where it lands. */
static int sift_up(struct ps_node *pn, int i, struct ps_ent e)
{
	while (i > 0) {
		int up = (i - 1) / 2;
		if (!ent_less(e.vfin, e.run, pn->heap[up].vfin, pn->heap[up].run))
			break;
		pn->heap[i] = pn->heap[up];
		i = up;
	}
	pn->heap[i] = e;
	return i;
}

/* Entry e goes into the hole at i of a heap of nheap entries, moving
 * down past smaller children. */
static void sift_down(struct ps_node *pn, int i, struct ps_ent e)
{
	int n = pn->nheap;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && ent_less(pn->heap[c + 1].vfin, pn->heap[c + 1].run,
					  pn->heap[c].vfin, pn->heap[c].run))
			c++;
		if (!ent_less(pn->heap[c].vfin, pn->heap[c].run, e.vfin, e.run))
			break;
		pn->heap[i] = pn->heap[c];
		i = c;
	}
	pn->heap[i] = e;
}

static void heap_push(struct ps_node *pn, struct ps_ent e)
{
	xgrow(&pn->heap, &pn->cap_heap, pn->nheap + 1, sizeof *pn->heap);
	sift_up(pn, pn->nheap++, e);
}

static void heap_pop(struct ps_node *pn)
{
	struct ps_ent e = pn->heap[--pn->nheap];
	if (pn->nheap)
		sift_down(pn, 0, e);
}

/* Waiting task k starts working: it joins the clock at its from_us. */
static void join(const struct ps *p, struct ps_node *pn, int k)
{
	const struct ps_wait *w = &pn->wait[k];
	heap_push(pn, (struct ps_ent){.vfin = wait_vfin(pn, w),
				      .end_us = ps_end_at(w->from_us, w->work_us, pn->rate, p->limit),
				      .epoch = pn->epoch, .run = w->run});
	pn->wait[k] = pn->wait[--pn->nwait];
}

/* Tasks whose delay ended before now join the clock, while the rate they
 * started working at still holds.  One whose delay ends just now waits
 * on: a change of rate now then leaves its work whole, and its end is
 * from_us + round(work / the new rate), exactly. */
static void catch_up(const struct ps *p, struct ps_node *pn, int64_t now)
{
	for (int k = 0; k < pn->nwait;)
		if (pn->wait[k].from_us < now)
			join(p, pn, k); /* the last one moves into k */
		else
			k++;
}

/* No task on node pn's clock: it starts over at 0 now, so that its
 * readings stay small (their rounding is relative to them). */
static inline void restart(struct ps_node *pn, int64_t now)
{
	if (!pn->nheap && !pn->nwait) {
		pn->v = 0;
		pn->v_at = now;
	}
}

void ps_set_rate(struct ps *p, int id, double rate, int64_t now)
{
	struct ps_node *pn = &p->nodes[id];
	if (rate == pn->rate)
		return;
	catch_up(p, pn, now);
	pn->v += (double)(now - pn->v_at) * pn->rate;
	pn->v_at = now;
	restart(pn, now);
	pn->rate = rate;
	pn->epoch++;
}

int64_t ps_add(struct ps *p, int id, int run, double work_us, int64_t from_us, int64_t now)
{
	struct ps_node *pn = &p->nodes[id];
	catch_up(p, pn, now);
	restart(pn, now);
	xgrow(&pn->wait, &pn->cap_wait, pn->nwait + 1, sizeof *pn->wait);
	pn->wait[pn->nwait++] = (struct ps_wait){.from_us = from_us, .work_us = work_us, .run = run};
	int64_t end = ps_end_at(from_us, work_us, pn->rate, p->limit);
	if (from_us < now || end == PS_NEVER) /* working already; past the
						 limit: no NaN waits */
		join(p, pn, pn->nwait - 1);
	return end;
}

/* Where the task that ends first is: the heap's top (-1) or wait[k]. */
static int least(const struct ps_node *pn, double *vfin)
{
	int at = -1, run = -1;
	double best = 0;
	if (pn->nheap) {
		best = pn->heap[0].vfin;
		run = pn->heap[0].run;
	}
	for (int k = 0; k < pn->nwait; k++) {
		double vf = wait_vfin(pn, &pn->wait[k]);
		if (run < 0 || ent_less(vf, pn->wait[k].run, best, run)) {
			best = vf;
			run = pn->wait[k].run;
			at = k;
		}
	}
	*vfin = best;
	return at;
}

bool ps_next(const struct ps *p, int id, int64_t now, int64_t *end_us, int *run)
{
	const struct ps_node *pn = &p->nodes[id];
	if (!pn->nheap && !pn->nwait)
		return false;
	double vfin;
	int at = least(pn, &vfin);
	int64_t t;
	if (at >= 0) { /* not working yet: at the rate that holds */
		const struct ps_wait *w = &pn->wait[at];
		t = ps_end_at(w->from_us, w->work_us, pn->rate, p->limit);
		*run = w->run;
	} else if (pn->heap[0].epoch == pn->epoch) { /* at the rate it joined at */
		t = pn->heap[0].end_us;
		*run = pn->heap[0].run;
	} else { /* from the last change on, what is left of its finish */
		t = ps_end_at(pn->v_at, vfin - pn->v, pn->rate, p->limit);
		*run = pn->heap[0].run;
	}
	*end_us = t < now ? now : t;
	return true;
}

int ps_pop(struct ps *p, int id, int64_t now)
{
	struct ps_node *pn = &p->nodes[id];
	catch_up(p, pn, now);
	double vfin;
	int at = least(pn, &vfin), run;
	if (at >= 0) { /* ends as its delay does: no work */
		run = pn->wait[at].run;
		pn->wait[at] = pn->wait[--pn->nwait];
	} else {
		run = pn->heap[0].run;
		heap_pop(pn);
	}
	restart(pn, now);
	return run;
}

bool ps_remove(struct ps *p, int id, int run, int64_t now, double *left_us)
{
	struct ps_node *pn = &p->nodes[id];
	catch_up(p, pn, now);
	for (int k = 0; k < pn->nwait; k++)
		if (pn->wait[k].run == run) {
			if (left_us) /* not started: all of it */
				*left_us = pn->wait[k].work_us;
			pn->wait[k] = pn->wait[--pn->nwait];
			restart(pn, now);
			return true;
		}
	int k = 0;
	while (k < pn->nheap && pn->heap[k].run != run)
		k++;
	if (k == pn->nheap)
		return false;
	if (left_us) { /* its finish less the clock's reading now */
		double v = pn->v + (double)(now - pn->v_at) * pn->rate;
		*left_us = pn->heap[k].vfin > v ? pn->heap[k].vfin - v : 0;
	}
	/* the last entry takes its place, then moves up or down to its own */
	struct ps_ent e = pn->heap[--pn->nheap];
	if (k < pn->nheap)
		sift_down(pn, sift_up(pn, k, e), e);
	restart(pn, now);
	return true;
}

int ps_ntasks(const struct ps *p, int id)
{
	return p->nodes[id].nheap + p->nodes[id].nwait;
}

int ps_task(const struct ps *p, int id, int i)
{
	const struct ps_node *pn = &p->nodes[id];
	return i < pn->nheap ? pn->heap[i].run : pn->wait[i - pn->nheap].run;
}

bool ps_check(const struct ps *p, int id, char *buf, size_t len)
{
	const struct ps_node *pn = &p->nodes[id];
	for (int i = 1; i < pn->nheap; i++) {
		const struct ps_ent *e = &pn->heap[i], *up = &pn->heap[(i - 1) / 2];
		if (ent_less(e->vfin, e->run, up->vfin, up->run)) {
			snprintf(buf, len, "heap entry %d (run %d, finish %.17g) before its parent "
				 "(run %d, finish %.17g)", i, e->run, e->vfin, up->run, up->vfin);
			return false;
		}
	}
	for (int k = 0; k < pn->nwait; k++)
		if (pn->wait[k].from_us < pn->v_at) {
			snprintf(buf, len, "task of run %d waits until %" PRId64 " µs, before the "
				 "last change of rate at %" PRId64 " µs", pn->wait[k].run,
				 pn->wait[k].from_us, pn->v_at);
			return false;
		}
	if (pn->nheap + pn->nwait > 0 && !(pn->rate > 0)) {
		snprintf(buf, len, "rate %g with tasks running", pn->rate);
		return false;
	}
	return true;
}
