/* pol_ring.c - a treap of nodes by key, with fit bits per shape. */
#include "pol_ring.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "util.h"

/* Slot t's subtree bits from its own and its children's; the children
 * learn their parent. */
static void pull(struct pol_ring *g, int t)
{
	uint64_t m = g->own[t];
	if (g->l[t] >= 0) {
		m |= g->sub[g->l[t]];
		g->up[g->l[t]] = t;
	}
	if (g->r[t] >= 0) {
		m |= g->sub[g->r[t]];
		g->up[g->r[t]] = t;
	}
	g->sub[t] = m;
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
		split(g, g->r[t], a, b, &rl, &rh);
		g->r[t] = rl;
		pull(g, t);
		*lo = t;
		*hi = rh;
	} else {
		int ll, lh;
		split(g, g->l[t], a, b, &ll, &lh);
		g->l[t] = lh;
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
	if (g->prio[x] > g->prio[y] || (g->prio[x] == g->prio[y] && x < y)) {
		g->r[x] = merge(g, g->r[x], y);
		pull(g, x);
		return x;
	}
	g->l[y] = merge(g, x, g->l[y]);
	pull(g, y);
	return y;
}

static void set_root(struct pol_ring *g, int t)
{
	g->root = t;
	if (t >= 0)
		g->up[t] = -1;
}

static void insert(struct pol_ring *g, int node)
{
	int lo, hi;
	split(g, g->root, g->ka[node], g->kb[node], &lo, &hi);
	g->l[node] = g->r[node] = -1;
	pull(g, node);
	set_root(g, merge(g, merge(g, lo, node), hi));
}

static void erase(struct pol_ring *g, int node)
{
	int lo, hi, mid, rest;
	split(g, g->root, g->ka[node], g->kb[node], &lo, &hi);
	/* keys are whole numbers: the next key after node's is at least (a, b + 1) */
	split(g, hi, g->ka[node], g->kb[node] + 1, &mid, &rest);
	if (mid != node || g->l[node] >= 0 || g->r[node] >= 0) {
		fprintf(stderr, "hetsim: pol_ring: node %d is not at its key\n", node);
		abort();
	}
	set_root(g, merge(g, lo, rest));
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
	if (m == g->own[node])
		return;
	g->own[node] = m;
	for (int t = node; t >= 0; t = g->up[t]) {
		uint64_t was = g->sub[t];
		pull(g, t);
		if (g->sub[t] == was && t != node)
			break; /* nothing above can change */
	}
}

/* Catch up with the cluster's change log. */
static void sync(struct pol_ring *g)
{
	const struct clu *c = g->c;
	if (!clu_log_holds(c, g->seen))
		for (int i = 0; i < c->n; i++)
			pol_ring_touch(g, i);
	else
		for (uint64_t q = g->seen; q < c->changes; q++)
			pol_ring_touch(g, clu_log_node(c, q));
	g->seen = c->changes;
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
	size_t n = (size_t)(c->n ? c->n : 1);
	g->ka = xmalloc(n * sizeof *g->ka);
	g->kb = xmalloc(n * sizeof *g->kb);
	g->prio = xmalloc(n * sizeof *g->prio);
	g->l = xmalloc(n * sizeof *g->l);
	g->r = xmalloc(n * sizeof *g->r);
	g->up = xmalloc(n * sizeof *g->up);
	g->own = xcalloc(n, sizeof *g->own);
	g->sub = xcalloc(n, sizeof *g->sub);
	for (int i = 0; i < c->n; i++) {
		g->ka[i] = a[i];
		g->kb[i] = b[i];
		g->prio[i] = prio_of(i);
		insert(g, i);
	}
}

void pol_ring_free(struct pol_ring *g)
{
	free(g->ka), free(g->kb), free(g->prio);
	free(g->l), free(g->r), free(g->up);
	free(g->own), free(g->sub);
	memset(g, 0, sizeof *g);
}

void pol_ring_move(struct pol_ring *g, int node, int64_t a, int64_t b)
{
	erase(g, node);
	g->ka[node] = a;
	g->kb[node] = b;
	insert(g, node);
}

/* Every node's bits again, then every subtree's, bottom up. */
static void refit_all(struct pol_ring *g, int t)
{
	if (t < 0)
		return;
	refit_all(g, g->l[t]);
	refit_all(g, g->r[t]);
	g->own[t] = fit_bits(g, t);
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
	if (t < 0 || !(g->sub[t] & m))
		return -1;
	for (;;) {
		if (g->l[t] >= 0 && (g->sub[g->l[t]] & m))
			t = g->l[t];
		else if (g->own[t] & m)
			return t;
		else
			t = g->r[t]; /* the union says it is there */
	}
}

/* The first node of subtree t at or after (a, b) with a bit of m. */
static int first_from(const struct pol_ring *g, int t, int64_t a, int64_t b, uint64_t m)
{
	while (t >= 0 && (g->sub[t] & m)) {
		if (pol_ring_before(g, t, a, b)) {
			t = g->r[t];
			continue;
		}
		int x = first_from(g, g->l[t], a, b, m);
		if (x >= 0)
			return x;
		if (g->own[t] & m)
			return t;
		return leftmost(g, g->r[t], m);
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
			t = g->r[t];
		} else {
			best = t;
			t = g->l[t];
		}
	}
	return best;
}

int pol_ring_next(const struct pol_ring *g, int node)
{
	int t = g->r[node];
	if (t >= 0) {
		while (g->l[t] >= 0)
			t = g->l[t];
		return t;
	}
	for (t = node; g->up[t] >= 0 && g->r[g->up[t]] == t; t = g->up[t])
		;
	return g->up[t];
}
