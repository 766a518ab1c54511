/* pol_oset.c - treaps over a pool of ids. */
#include "pol_oset.h"

#include <stdlib.h>

#include "util.h"

static uint32_t hash(uint32_t x)
{
	x ^= x >> 16, x *= 0x7feb352dU;
	x ^= x >> 15, x *= 0x846ca68bU;
	return x ^ (x >> 16);
}

void pol_oset_init(struct pol_oset *p, int n)
{
	*p = (struct pol_oset){0};
	pol_oset_reserve(p, n);
}

void pol_oset_reserve(struct pol_oset *p, int n)
{
	if (n <= p->cap)
		return;
	int cap = p->cap ? p->cap : 16;
	while (cap < n)
		cap *= 2;
	p->l = xrealloc(p->l, (size_t)cap * sizeof *p->l);
	p->r = xrealloc(p->r, (size_t)cap * sizeof *p->r);
	p->pri = xrealloc(p->pri, (size_t)cap * sizeof *p->pri);
	p->key = xrealloc(p->key, (size_t)cap * sizeof *p->key);
	for (int i = p->cap; i < cap; i++)
		p->pri[i] = hash((uint32_t)i);
	p->cap = cap;
}

void pol_oset_free(struct pol_oset *p)
{
	free(p->l), free(p->r), free(p->pri), free(p->key);
	*p = (struct pol_oset){0};
}

/* Split t into the keys below k (*lo) and the rest (*hi). */
static void split(struct pol_oset *p, int t, const struct pol_okey *k, int *lo, int *hi)
{
	if (t < 0) {
		*lo = *hi = -1;
		return;
	}
	if (pol_okey_cmp(&p->key[t], k) < 0) {
		split(p, p->r[t], k, &p->r[t], hi);
		*lo = t;
	} else {
		split(p, p->l[t], k, lo, &p->l[t]);
		*hi = t;
	}
}

/* Every key of a below every key of b. */
static int merge(struct pol_oset *p, int a, int b)
{
	if (a < 0 || b < 0)
		return a < 0 ? b : a;
	if (p->pri[a] > p->pri[b]) {
		p->r[a] = merge(p, p->r[a], b);
		return a;
	}
	p->l[b] = merge(p, a, p->l[b]);
	return b;
}

void pol_oset_insert(struct pol_oset *p, int *root, int id, struct pol_okey k)
{
	int lo, hi;
	p->key[id] = k;
	p->l[id] = p->r[id] = -1;
	split(p, *root, &k, &lo, &hi);
	*root = merge(p, merge(p, lo, id), hi);
}

void pol_oset_remove(struct pol_oset *p, int *root, int id)
{
	int *at = root;
	while (*at != id) {
		if (*at < 0) /* not in the set: a programming error */
			abort();
		at = pol_okey_cmp(&p->key[id], &p->key[*at]) < 0 ? &p->l[*at] : &p->r[*at];
	}
	*at = merge(p, p->l[id], p->r[id]);
}

int pol_oset_first(const struct pol_oset *p, int root)
{
	if (root < 0)
		return -1;
	while (p->l[root] >= 0)
		root = p->l[root];
	return root;
}

int pol_oset_last(const struct pol_oset *p, int root)
{
	if (root < 0)
		return -1;
	while (p->r[root] >= 0)
		root = p->r[root];
	return root;
}

int pol_oset_ceil(const struct pol_oset *p, int root, const struct pol_okey *k)
{
	int best = -1;
	while (root >= 0) {
		if (pol_okey_cmp(&p->key[root], k) >= 0) {
			best = root;
			root = p->l[root];
		} else {
			root = p->r[root];
		}
	}
	return best;
}
