/* pol_prof.c - a profile of free amounts over time (pol_prof.h). */
#include "pol_prof.h"

#include <stdbool.h>
#include <stdlib.h>

#include "util.h"

void pol_prof_init(struct pol_prof *p)
{
	p->s = NULL;
	p->n = p->cap = 0;
	p->root = -1;
}

void pol_prof_free(struct pol_prof *p)
{
	free(p->s);
	pol_prof_init(p);
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* Add d to slot x's subtree: its amounts and least now, its children's
 * when they are next visited. */
static void apply(struct pol_prof *p, int x, const int64_t d[3])
{
	if (x < 0)
		return;
	struct pol_prof_slot *s = &p->s[x];
	for (int k = 0; k < 3; k++)
		s->v[k] += d[k], s->least[k] += d[k], s->add[k] += d[k];
}

static void push(struct pol_prof *p, int x)
{
	struct pol_prof_slot *s = &p->s[x];
	if (!s->add[0] && !s->add[1] && !s->add[2])
		return;
	apply(p, s->l, s->add);
	apply(p, s->r, s->add);
	s->add[0] = s->add[1] = s->add[2] = 0;
}

static void pull(struct pol_prof *p, int x)
{
	struct pol_prof_slot *s = &p->s[x];
	for (int k = 0; k < 3; k++) {
		s->least[k] = s->v[k];
		if (s->l >= 0)
			s->least[k] = min64(s->least[k], p->s[s->l].least[k]);
		if (s->r >= 0)
			s->least[k] = min64(s->least[k], p->s[s->r].least[k]);
	}
}

/* Split x into the slots before t (*a) and from t on (*b). */
static void split(struct pol_prof *p, int x, int64_t t, int *a, int *b)
{
	if (x < 0) {
		*a = *b = -1;
		return;
	}
	push(p, x);
	if (p->s[x].t < t) {
		split(p, p->s[x].r, t, &p->s[x].r, b);
		*a = x;
	} else {
		split(p, p->s[x].l, t, a, &p->s[x].l);
		*b = x;
	}
	pull(p, x);
}

/* Every slot of a before every slot of b. */
static int merge(struct pol_prof *p, int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	if (p->s[a].pri > p->s[b].pri) {
		push(p, a);
		p->s[a].r = merge(p, p->s[a].r, b);
		pull(p, a);
		return a;
	}
	push(p, b);
	p->s[b].l = merge(p, a, p->s[b].l);
	pull(p, b);
	return b;
}

static int make(struct pol_prof *p, int64_t t, const int64_t v[3])
{
	xgrow(&p->s, &p->cap, p->n + 1, sizeof *p->s);
	struct pol_prof_slot *s = &p->s[p->n];
	uint32_t h = (uint32_t)p->n * 2654435761u; /* Knuth's multiplicative hash */
	h ^= h >> 15;
	*s = (struct pol_prof_slot){.t = t, .pri = h * 2246822519u, .l = -1, .r = -1};
	for (int k = 0; k < 3; k++)
		s->v[k] = s->least[k] = v[k];
	return p->n++;
}

void pol_prof_reset(struct pol_prof *p, int64_t t, const int64_t v[3])
{
	p->n = 0;
	p->root = make(p, t, v);
}

/* The amounts in force at t (the last breakpoint at or before it). */
static void at(struct pol_prof *p, int64_t t, int64_t v[3])
{
	int best = -1;
	for (int x = p->root; x >= 0;) {
		push(p, x);
		if (p->s[x].t <= t) {
			best = x;
			x = p->s[x].r;
		} else {
			x = p->s[x].l;
		}
	}
	for (int k = 0; k < 3; k++)
		v[k] = best >= 0 ? p->s[best].v[k] : 0;
}

void pol_prof_split(struct pol_prof *p, int64_t t)
{
	for (int x = p->root; x >= 0; x = t < p->s[x].t ? p->s[x].l : p->s[x].r)
		if (p->s[x].t == t)
			return;
	int64_t v[3];
	at(p, t, v);
	int a, b;
	split(p, p->root, t, &a, &b);
	p->root = merge(p, merge(p, a, make(p, t, v)), b);
}

void pol_prof_add(struct pol_prof *p, int64_t from, int64_t to, const int64_t d[3])
{
	int a, mid, b = -1;
	split(p, p->root, from, &a, &mid);
	if (to != POL_PROF_NONE)
		split(p, mid, to, &mid, &b);
	apply(p, mid, d);
	p->root = merge(p, merge(p, a, mid), b);
}

static bool short_of(const int64_t have[3], const int64_t want[3])
{
	return have[0] < want[0] || have[1] < want[1] || have[2] < want[2];
}

/* The last slot of subtree x that holds less than want, or -1. */
static int last_short(struct pol_prof *p, int x, const int64_t want[3])
{
	while (x >= 0 && short_of(p->s[x].least, want)) {
		push(p, x);
		int r = p->s[x].r;
		if (r >= 0 && short_of(p->s[r].least, want))
			x = r;
		else if (short_of(p->s[x].v, want))
			return x;
		else
			x = p->s[x].l;
	}
	return -1;
}

int64_t pol_prof_next(const struct pol_prof *p, int64_t t)
{
	int64_t best = POL_PROF_NONE;
	for (int x = p->root; x >= 0;) {
		if (p->s[x].t > t) {
			best = p->s[x].t;
			x = p->s[x].l;
		} else {
			x = p->s[x].r;
		}
	}
	return best;
}

/* The last slot of subtree x before t = hi (POL_PROF_NONE: any) that
 * holds less than want, or -1: down the path of hi, and into one whole
 * subtree at most (last_short). */
static int last_short_before(struct pol_prof *p, int x, int64_t hi, const int64_t want[3])
{
	while (x >= 0 && short_of(p->s[x].least, want)) {
		push(p, x);
		if (hi != POL_PROF_NONE && p->s[x].t >= hi) {
			x = p->s[x].l;
			continue;
		}
		int r = last_short_before(p, p->s[x].r, hi, want);
		if (r >= 0)
			return r;
		if (short_of(p->s[x].v, want))
			return x;
		return last_short(p, p->s[x].l, want);
	}
	return -1;
}

int64_t pol_prof_fit(struct pol_prof *p, int64_t from, int64_t len, const int64_t want[3])
{
	int64_t t = pol_prof_next(p, from - 1); /* the first at or after from */
	while (t != POL_PROF_NONE) {
		int64_t end = t > POL_PROF_NONE - len ? POL_PROF_NONE : t + len;
		int k = last_short_before(p, p->root, end, want);
		if (k < 0 || p->s[k].t < t)
			return t; /* none short in [t, end) */
		t = pol_prof_next(p, p->s[k].t);
	}
	return t;
}
