/* pol_index.c - tournament trees over nodes, kept current per shape. */
#include "pol_index.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "pol_common.h"
#include "util.h"

#if defined(__GNUC__) || defined(__clang__)
#define CTZ64(x) __builtin_ctzll(x)
#else
static int CTZ64(uint64_t x) /* x != 0 */
{
	int n = 0;
	for (; !(x & 1); x >>= 1)
		n++;
	return n;
}
#endif

void pol_tree_init(struct pol_tree *t, int n)
{
	t->n = n;
	t->size = 1;
	while (t->size < n)
		t->size *= 2;
	t->key = xmalloc((size_t)(n ? n : 1) * sizeof *t->key);
	for (int i = 0; i < n; i++)
		t->key[i] = INFINITY;
	t->win = NULL;
	/* the bit set's levels: words of 64 bits, down to one word */
	int words = (n + 63) / 64, total = 0;
	t->nlevels = 0;
	do {
		words = words ? words : 1;
		t->level[t->nlevels++] = total;
		total += words;
		words = words > 1 ? (words + 63) / 64 : 0;
	} while (words);
	t->bits = xcalloc((size_t)total, sizeof *t->bits);
}

void pol_tree_free(struct pol_tree *t)
{
	free(t->key);
	free(t->win);
	free(t->bits);
	memset(t, 0, sizeof *t);
}

/* The winner of a match between nodes a and b (-1: absent). */
static int match(const struct pol_tree *t, int a, int b)
{
	if (a < 0 || b < 0)
		return a < 0 ? b : a;
	if (t->key[a] != t->key[b])
		return t->key[a] < t->key[b] ? a : b;
	return a < b ? a : b;
}

/* Bit set: make bit i of level 0 `on`, and the levels above agree. */
static void bits_put(struct pol_tree *t, int i, bool on)
{
	for (int l = 0; l < t->nlevels; l++, i >>= 6) {
		uint64_t *w = &t->bits[t->level[l] + (i >> 6)], b = UINT64_C(1) << (i & 63);
		bool was = *w != 0;
		*w = on ? *w | b : *w & ~b;
		if ((*w != 0) == was)
			break; /* the word's bit one level up stays right */
	}
}

/* Bit set: words of level l. */
static int level_words(const struct pol_tree *t, int l)
{
	return l + 1 < t->nlevels ? t->level[l + 1] - t->level[l] : 1;
}

/* Bit set: the first node >= i with key 0, or -1. */
static int bits_next(const struct pol_tree *t, int i)
{
	if (i >= t->n)
		return -1;
	/* up: the first level whose word holding position i has a set bit at
	 * or after it (the positions before it are all empty words below) */
	int l = 0;
	for (;;) {
		uint64_t w = t->bits[t->level[l] + (i >> 6)] & (~UINT64_C(0) << (i & 63));
		if (w) {
			i = (i & ~63) + CTZ64(w);
			break;
		}
		i = (i >> 6) + 1; /* the next word, as a position one level up */
		if (++l == t->nlevels || i >> 6 >= level_words(t, l))
			return -1;
	}
	/* down: the first set bit of each nonzero word below */
	while (l-- > 0)
		i = i * 64 + CTZ64(t->bits[t->level[l] + i]);
	return i;
}

int pol_tree_first(const struct pol_tree *t)
{
	/* down from the top word, which is zero when nothing is a candidate */
	int l = t->nlevels - 1, i = 0;
	if (!t->bits[t->level[l]])
		return -1;
	for (; l >= 0; l--)
		i = i * 64 + CTZ64(t->bits[t->level[l] + i]);
	return i;
}

/* Turn a bit set into the tournament, from the keys.  O(n). */
static void to_tournament(struct pol_tree *t)
{
	t->win = xmalloc(2 * (size_t)t->size * sizeof *t->win);
	t->win[0] = -1; /* unused */
	for (int i = 0; i < t->size; i++)
		t->win[t->size + i] = i < t->n && t->key[i] < INFINITY ? i : -1;
	for (int s = t->size - 1; s >= 1; s--)
		t->win[s] = match(t, t->win[2 * s], t->win[2 * s + 1]);
	free(t->bits);
	t->bits = NULL;
}

void pol_tree_set(struct pol_tree *t, int node, double key)
{
	if (t->key[node] == key)
		return;
	t->key[node] = key;
	if (t->bits) {
		if (key == 0 || key == INFINITY) {
			bits_put(t, node, key == 0);
			return;
		}
		to_tournament(t);
		return;
	}
	int s = t->size + node;
	t->win[s] = key < INFINITY ? node : -1;
	/* replay the matches up to the root; above a slot whose winner is
	 * another node and stays so, nothing can change */
	for (s /= 2; s >= 1; s /= 2) {
		int w = match(t, t->win[2 * s], t->win[2 * s + 1]);
		if (w == t->win[s] && w != node)
			break;
		t->win[s] = w;
	}
}

int pol_tree_min(const struct pol_tree *t, int lo, int hi)
{
	if (t->bits) {
		int i = lo < hi ? bits_next(t, lo) : -1;
		return i < hi ? i : -1;
	}
	int best = -1;
	/* the slots covering [lo, hi) exactly, bottom up */
	for (int l = lo + t->size, r = hi + t->size; l < r; l /= 2, r /= 2) {
		if (l & 1)
			best = match(t, best, t->win[l++]);
		if (r & 1)
			best = match(t, best, t->win[--r]);
	}
	return best;
}

void pol_ix_init(struct pol_ix *ix, const struct clu *c, const struct pol_tent *t,
		 pol_ix_key_fn *key, const void *ctx)
{
	memset(ix, 0, sizeof *ix);
	ix->c = c;
	ix->t = t;
	ix->key = key;
	ix->ctx = ctx;
	ix->seen = c->changes;
}

void pol_ix_free(struct pol_ix *ix)
{
	for (int k = 0; k < ix->nshapes; k++) {
		pol_tree_free(&ix->shapes[k]->tree);
		free(ix->shapes[k]);
	}
	free(ix->shapes);
	free(ix->tent);
	memset(ix, 0, sizeof *ix);
}

static void key_into(struct pol_ix *ix, struct pol_ix_shape *sp, int node)
{
	const struct clu_node *n = &ix->c->nodes[node];
	int fc = n->cores_free, fg = n->gpus_free;
	int64_t fm = n->mem_free;
	if (ix->t) { /* pol_tent_free, by index: n->id is one more cache line */
		fc -= ix->t->cores[node];
		fm -= ix->t->mem_mib[node];
		fg -= ix->t->gpus[node];
	}
	pol_tree_set(&sp->tree, node, ix->key(ix->ctx, n, fc, fm, fg, &sp->sh));
}

void pol_ix_rekey(struct pol_ix *ix, int node)
{
	for (int k = 0; k < ix->nshapes; k++)
		key_into(ix, ix->shapes[k], node);
}

void pol_ix_touch(struct pol_ix *ix, int node)
{
	pol_ix_rekey(ix, node);
	xgrow(&ix->tent, &ix->cap_tent, ix->ntent + 1, sizeof *ix->tent);
	ix->tent[ix->ntent++] = node;
}

static bool tentative(const struct pol_tent *t, int node)
{
	return t && (t->cores[node] || t->mem_mib[node] || t->gpus[node]);
}

/* Catch up with the cluster's change log, and re-key the nodes whose
 * tentative amounts were reset since they were touched. */
static void sync(struct pol_ix *ix)
{
	const struct clu *c = ix->c;
	if (!clu_log_holds(c, ix->seen))
		for (int i = 0; i < c->n; i++)
			pol_ix_rekey(ix, i);
	else
		for (uint64_t q = ix->seen; q < c->changes; q++)
			pol_ix_rekey(ix, clu_log_node(c, q));
	ix->seen = c->changes;
	for (int i = 0; i < ix->ntent;) {
		int node = ix->tent[i];
		if (tentative(ix->t, node)) {
			i++;
			continue;
		}
		pol_ix_rekey(ix, node);
		ix->tent[i] = ix->tent[--ix->ntent];
	}
}

struct pol_tree *pol_ix_tree(struct pol_ix *ix, const struct pol_shape *sh)
{
	sync(ix);
	for (int k = 0; k < ix->nshapes; k++) {
		struct pol_ix_shape *sp = ix->shapes[k];
		if (sp->sh.cores == sh->cores && sp->sh.mem_mib == sh->mem_mib &&
		    sp->sh.gpus == sh->gpus)
			return &sp->tree;
	}
	if (ix->nshapes >= POL_IX_MAX_SHAPES)
		return NULL;
	struct pol_ix_shape *sp = xmalloc(sizeof *sp);
	sp->sh = *sh;
	pol_tree_init(&sp->tree, ix->c->n);
	for (int i = 0; i < ix->c->n; i++)
		key_into(ix, sp, i);
	xgrow(&ix->shapes, &ix->cap_shapes, ix->nshapes + 1, sizeof *ix->shapes);
	ix->shapes[ix->nshapes++] = sp;
	return &sp->tree;
}
