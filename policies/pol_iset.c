/* pol_iset.c - treaps over a pool of nodes by item. */
#include "pol_iset.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void pol_iset_pool_init(struct pol_iset_pool *p, int nitems)
{
	size_t n = (size_t)(nitems > 0 ? nitems : 1);
	p->key = xmalloc(n * sizeof *p->key);
	p->l = xmalloc(n * sizeof *p->l);
	p->r = xmalloc(n * sizeof *p->r);
}

void pol_iset_pool_free(struct pol_iset_pool *p)
{
	free(p->key), free(p->l), free(p->r);
	memset(p, 0, sizeof *p);
}

/* The heap priority of an item: a fixed mix of its bits. */
static uint32_t prio(int it)
{
	uint32_t x = (uint32_t)it * 2654435761u;
	x ^= x >> 15;
	x *= 2246822519u;
	return x ^ (x >> 13);
}

static bool before(const struct pol_iset_pool *p, int a, int b)
{
	return p->key[a] != p->key[b] ? p->key[a] < p->key[b] : a < b;
}

/* Split t into the items before `it` (*a) and the rest (*b). */
static void split(struct pol_iset_pool *p, int t, int it, int *a, int *b)
{
	if (t < 0) {
		*a = *b = -1;
		return;
	}
	if (before(p, t, it)) {
		split(p, p->r[t], it, &p->r[t], b);
		*a = t;
	} else {
		split(p, p->l[t], it, a, &p->l[t]);
		*b = t;
	}
}

/* Join a and b, every item of a before every item of b. */
static int merge(struct pol_iset_pool *p, int a, int b)
{
	if (a < 0 || b < 0)
		return a < 0 ? b : a;
	if (prio(a) > prio(b)) {
		p->r[a] = merge(p, p->r[a], b);
		return a;
	}
	p->l[b] = merge(p, a, p->l[b]);
	return b;
}

void pol_iset_insert(struct pol_iset_pool *p, int *root, int it, int64_t key)
{
	p->key[it] = key;
	p->l[it] = p->r[it] = -1;
	int *t = root;
	while (*t >= 0 && prio(*t) > prio(it)) /* down to where it is the top */
		t = before(p, it, *t) ? &p->l[*t] : &p->r[*t];
	split(p, *t, it, &p->l[it], &p->r[it]);
	*t = it;
}

void pol_iset_erase(struct pol_iset_pool *p, int *root, int it)
{
	int *t = root;
	while (*t != it)
		t = before(p, it, *t) ? &p->l[*t] : &p->r[*t];
	*t = merge(p, p->l[it], p->r[it]);
}

int pol_iset_ceil(const struct pol_iset_pool *p, int root, int64_t key)
{
	int best = -1;
	for (int t = root; t >= 0;)
		if (p->key[t] >= key) {
			best = t;
			t = p->l[t];
		} else {
			t = p->r[t];
		}
	return best;
}

/* The walk keeps the ancestors whose left subtree it is in (visited next
 * after that subtree), and the right subtree of the item it returned is
 * pushed, leftmost path, at the next step. */
static void push(struct pol_iset_iter *it, int t)
{
	if (it->n == POL_ISET_DEPTH) {
		fprintf(stderr, "hetsim: an ordered set deeper than %d\n", POL_ISET_DEPTH);
		abort();
	}
	it->stack[it->n++] = t;
}

static void push_left(const struct pol_iset_pool *p, int t, struct pol_iset_iter *it)
{
	for (; t >= 0; t = p->l[t])
		push(it, t);
}

int pol_iset_first(const struct pol_iset_pool *p, int root, int64_t key,
		   struct pol_iset_iter *it)
{
	it->n = 0;
	for (int t = root; t >= 0;)
		if (p->key[t] >= key) {
			push(it, t);
			t = p->l[t];
		} else {
			t = p->r[t];
		}
	return pol_iset_next(p, it);
}

int pol_iset_next(const struct pol_iset_pool *p, struct pol_iset_iter *it)
{
	if (!it->n)
		return -1;
	int t = it->stack[--it->n];
	push_left(p, p->r[t], it);
	return t;
}
