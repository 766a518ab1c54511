/* pol_ring.c - a treap of nodes by key, with fit bits per shape. */
#include "pol_ring.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "util.h"

/* Slot t's subtree bits from its own and its children's; the children
 * learn their parent. */
static void pull(struct pol_ring *g, int t)
{
	uint64_t m = g->s[t].own;
	if (g->s[t].l >= 0) {
		m |= g->s[g->s[t].l].sub;
		g->s[g->s[t].l].up = t;
	}
	if (g->s[t].r >= 0) {
		m |= g->s[g->s[t].r].sub;
		g->s[g->s[t].r].up = t;
	}
	g->s[t].sub = m;
}

/* Subtree t into the keys before (a, b), *lo, and the rest, *hi. */
static void split(struct pol_ring *g, int t, int64_t a, int64_t b, int *lo, int *hi)
{
	if (t < 0) {
		*lo = *hi = -1;
		return;
	}
	if (pol_ring_before(g, t, a, b)) {
		int rl, rh;
		split(g, g->s[t].r, a, b, &rl, &rh);
		g->s[t].r = rl;
		pull(g, t);
		*lo = t;
		*hi = rh;
	} else {
		int ll, lh;
		split(g, g->s[t].l, a, b, &ll, &lh);
		g->s[t].l = lh;
		pull(g, t);
		*lo = ll;
		*hi = t;
	}
}

/* Subtrees x and y, every key of x before every key of y, as one. */
static int merge(struct pol_ring *g, int x, int y)
{
	if (x < 0 || y < 0)
		return x < 0 ? y : x;
	if (g->s[x].prio > g->s[y].prio || (g->s[x].prio == g->s[y].prio && x < y)) {
		g->s[x].r = merge(g, g->s[x].r, y);
		pull(g, x);
		return x;
	}
	g->s[y].l = merge(g, x, g->s[y].l);
	pull(g, y);
	return y;
}

static void set_root(struct pol_ring *g, int t)
{
	g->root = t;
	if (t >= 0)
		g->s[t].up = -1;
}

/* Whether slot x is above slot y in the heap (the higher priority, ties
 * to the lower node). */
static bool above(const struct pol_ring *g, int x, int y)
{
	return g->s[x].prio > g->s[y].prio || (g->s[x].prio == g->s[y].prio && x < y);
}

/* Slot t's subtree changed below it: its bits again, and its
 * ancestors' while theirs change. */
static void pull_up(struct pol_ring *g, int t)
{
	if (t < 0)
		return;
	pull(g, t);
	for (t = g->s[t].up; t >= 0; t = g->s[t].up) {
		uint64_t was = g->s[t].sub;
		pull(g, t);
		if (g->s[t].sub == was)
			break; /* nothing above can change */
	}
}

/* Put subtree m where node was under its parent p (-1: the root). */
static void replace_child(struct pol_ring *g, int p, int node, int m)
{
	if (p < 0) {
		set_root(g, m);
		return;
	}
	if (g->s[p].l == node)
		g->s[p].l = m;
	else
		g->s[p].r = m;
	if (m >= 0)
		g->s[m].up = p;
}

/* Node `node` (no children) into the tree at its key: down the path while
 * the slots are above it in the heap, then the rest of that path's
 * subtree split at its key under it.  The tree a treap's keys and
 * priorities make is one, whatever the order of the inserts. */
static void insert(struct pol_ring *g, int node)
{
	struct pol_ring_slot *x = &g->s[node];
	int p = -1, t = g->root;
	while (t >= 0 && above(g, t, node)) {
		p = t;
		t = pol_ring_before(g, t, x->ka, x->kb) ? g->s[t].r : g->s[t].l;
	}
	int lo, hi;
	split(g, t, x->ka, x->kb, &lo, &hi);
	x->l = lo;
	x->r = hi;
	pull(g, node);
	if (p < 0)
		set_root(g, node);
	else if (pol_ring_before(g, p, x->ka, x->kb))
		g->s[p].r = node, x->up = p;
	else
		g->s[p].l = node, x->up = p;
	pull_up(g, p);
}

/* Node `node` out of the tree: its children merged in its place. */
static void erase(struct pol_ring *g, int node)
{
	struct pol_ring_slot *x = &g->s[node];
	int p = x->up;
	replace_child(g, p, node, merge(g, x->l, x->r));
	x->l = x->r = x->up = -1;
	pull_up(g, p);
}

/* Node `node`'s fit bits, from its free amounts now. */
static uint64_t fit_bits(const struct pol_ring *g, int node)
{
	const struct clu_node *n = &g->c->nodes[node];
	uint64_t m = 0;
	for (int k = 0; k < g->nsh; k++)
		if (g->key(g->ctx, n, pol_clamp_cores(n->cores_free), n->mem_free, n->gpus_free,
			   &g->sh[k]) < INFINITY)
			m |= (uint64_t)1 << k;
	return m;
}

void pol_ring_touch(struct pol_ring *g, int node)
{
	uint64_t m = fit_bits(g, node);
	if (m == g->s[node].own)
		return;
	g->s[node].own = m;
	for (int t = node; t >= 0; t = g->s[t].up) {
		uint64_t was = g->s[t].sub;
		pull(g, t);
		if (g->s[t].sub == was && t != node)
			break; /* nothing above can change */
	}
}

/* Catch up with the cluster's change log. */
static void sync(struct pol_ring *g)
{
	struct clu_since it = clu_since(g->c, g->seen, UINT64_MAX);
	for (int i; (i = clu_since_next(&it)) >= 0;)
		pol_ring_touch(g, i);
	g->seen = g->c->changes;
}

/* A hash of a node's id, its heap priority (splitmix32's finaliser). */
static uint32_t prio_of(int node)
{
	uint32_t z = (uint32_t)node * 0x9e3779b9u + 0x7f4a7c15u;
	z = (z ^ (z >> 16)) * 0x85ebca6bu;
	z = (z ^ (z >> 13)) * 0xc2b2ae35u;
	return z ^ (z >> 16);
}

void pol_ring_init(struct pol_ring *g, const struct clu *c, pol_ix_key_fn *key,
		   const void *ctx, const int64_t *a, const int64_t *b)
{
	memset(g, 0, sizeof *g);
	g->c = c;
	g->key = key;
	g->ctx = ctx;
	g->seen = c->changes;
	g->n = c->n;
	g->root = -1;
	g->s = xcalloc((size_t)(c->n ? c->n : 1), sizeof *g->s);
	for (int i = 0; i < c->n; i++) {
		g->s[i].ka = a[i];
		g->s[i].kb = b[i];
		g->s[i].prio = prio_of(i);
		insert(g, i);
	}
}

void pol_ring_free(struct pol_ring *g)
{
	free(g->s);
	memset(g, 0, sizeof *g);
}

void pol_ring_move(struct pol_ring *g, int node, int64_t a, int64_t b)
{
	erase(g, node);
	g->s[node].ka = a;
	g->s[node].kb = b;
	insert(g, node);
}

/* Every node's bits again, then every subtree's, bottom up. */
static void refit_all(struct pol_ring *g, int t)
{
	if (t < 0)
		return;
	refit_all(g, g->s[t].l);
	refit_all(g, g->s[t].r);
	g->s[t].own = fit_bits(g, t);
	pull(g, t);
}

int pol_ring_shape(struct pol_ring *g, const struct pol_shape *sh)
{
	sync(g);
	for (int k = 0; k < g->nsh; k++)
		if (pol_shape_eq(&g->sh[k], sh))
			return k;
	if (g->nsh >= POL_RING_MAX_SHAPES)
		return -1;
	g->sh[g->nsh++] = *sh;
	refit_all(g, g->root);
	return g->nsh - 1;
}

/* The first node of subtree t, in key order, with a bit of m. */
static int leftmost(const struct pol_ring *g, int t, uint64_t m)
{
	if (t < 0 || !(g->s[t].sub & m))
		return -1;
	for (;;) {
		if (g->s[t].l >= 0 && (g->s[g->s[t].l].sub & m))
			t = g->s[t].l;
		else if (g->s[t].own & m)
			return t;
		else
			t = g->s[t].r; /* the union says it is there */
	}
}

/* The first node of subtree t at or after (a, b) with a bit of m. */
static int first_from(const struct pol_ring *g, int t, int64_t a, int64_t b, uint64_t m)
{
	while (t >= 0 && (g->s[t].sub & m)) {
		if (pol_ring_before(g, t, a, b)) {
			t = g->s[t].r;
			continue;
		}
		int x = first_from(g, g->s[t].l, a, b, m);
		if (x >= 0)
			return x;
		if (g->s[t].own & m)
			return t;
		return leftmost(g, g->s[t].r, m);
	}
	return -1;
}

int pol_ring_first(struct pol_ring *g, int bit, int64_t a, int64_t b)
{
	sync(g);
	uint64_t m = (uint64_t)1 << bit;
	int x = first_from(g, g->root, a, b, m);
	return x >= 0 ? x : leftmost(g, g->root, m);
}

int pol_ring_at(const struct pol_ring *g, int64_t a, int64_t b)
{
	int t = g->root, best = -1;
	while (t >= 0) {
		if (pol_ring_before(g, t, a, b)) {
			t = g->s[t].r;
		} else {
			best = t;
			t = g->s[t].l;
		}
	}
	return best;
}

int pol_ring_next(const struct pol_ring *g, int node)
{
	int t = g->s[node].r;
	if (t >= 0) {
		while (g->s[t].l >= 0)
			t = g->s[t].l;
		return t;
	}
	for (t = node; g->s[t].up >= 0 && g->s[g->s[t].up].r == t; t = g->s[t].up)
		;
	return g->s[t].up;
}
