/* pol_index.c - tournament trees over nodes, kept current per shape. */
#include "pol_index.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "pol_common.h"
#include "util.h"

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
	pol_bits_init(&t->bits, n);
}

void pol_tree_free(struct pol_tree *t)
{
	free(t->key);
	free(t->win);
	pol_bits_free(&t->bits);
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

/* Turn a bit set into the tournament, from the keys.  O(n). */
static void to_tournament(struct pol_tree *t)
{
	t->win = xmalloc(2 * (size_t)t->size * sizeof *t->win);
	t->win[0] = -1; /* unused */
	for (int i = 0; i < t->size; i++)
		t->win[t->size + i] = i < t->n && t->key[i] < INFINITY ? i : -1;
	for (int s = t->size - 1; s >= 1; s--)
		t->win[s] = match(t, t->win[2 * s], t->win[2 * s + 1]);
	pol_bits_free(&t->bits);
}

void pol_tree_set(struct pol_tree *t, int node, double key)
{
	if (t->key[node] == key)
		return;
	t->key[node] = key;
	if (t->bits.w) {
		if (key == 0 || key == INFINITY) {
			pol_bits_put(&t->bits, node, key == 0);
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
	if (t->bits.w) {
		int i = lo < hi ? pol_bits_next(&t->bits, lo) : -1;
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
	int64_t fc64 = n->cores_free;
	int fg = n->gpus_free;
	int64_t fm = n->mem_free;
	if (ix->t) { /* pol_tent_free, by index: n->id is one more cache line */
		fc64 -= ix->t->cores[node];
		fm -= ix->t->mem_mib[node];
		fg -= ix->t->gpus[node];
	}
	pol_tree_set(&sp->tree, node, ix->key(ix->ctx, n, pol_clamp_cores(fc64), fm, fg, &sp->sh));
}

void pol_ix_rekey(struct pol_ix *ix, int node)
{
	for (int k = 0; k < ix->nshapes; k++)
		key_into(ix, ix->shapes[k], node);
}

void pol_ix_rekey_shape(struct pol_ix *ix, int k, int node)
{
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
	return t && (t->cores[node] || t->mem_mib[node] || t->gpus[node] || t->gmilli[node]);
}

/* Catch up with the cluster's change log, and re-key the nodes whose
 * tentative amounts were reset since they were touched. */
static void sync(struct pol_ix *ix)
{
	struct clu_since it = clu_since(ix->c, ix->seen, UINT64_MAX);
	for (int i; (i = clu_since_next(&it)) >= 0;)
		pol_ix_rekey(ix, i);
	ix->seen = ix->c->changes;
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
		if (pol_shape_eq(&sp->sh, sh))
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
