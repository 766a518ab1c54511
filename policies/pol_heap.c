/* pol_heap.c - an indexed binary min-heap. */
#include "pol_heap.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void pol_heap_init(struct pol_heap *h, int nitems)
{
	size_t n = (size_t)(nitems > 0 ? nitems : 1);
	h->n = 0;
	h->item = xmalloc(n * sizeof *h->item);
	h->key = xmalloc(n * sizeof *h->key);
	h->pos = xmalloc(n * sizeof *h->pos);
	memset(h->pos, 0xff, n * sizeof *h->pos); /* -1: absent */
}

void pol_heap_free(struct pol_heap *h)
{
	free(h->item), free(h->key), free(h->pos);
	memset(h, 0, sizeof *h);
}

static bool less(const struct pol_heap *h, int a, int b)
{
	return h->key[a] != h->key[b] ? h->key[a] < h->key[b] : a < b;
}

static void place(struct pol_heap *h, int i, int it)
{
	h->item[i] = it;
	h->pos[it] = i;
}

static void up(struct pol_heap *h, int i)
{
	int it = h->item[i];
	while (i > 0 && less(h, it, h->item[(i - 1) / 2])) {
		place(h, i, h->item[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	place(h, i, it);
}

static void down(struct pol_heap *h, int i)
{
	int it = h->item[i];
	for (;;) {
		int c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && less(h, h->item[c + 1], h->item[c]))
			c++;
		if (!less(h, h->item[c], it))
			break;
		place(h, i, h->item[c]);
		i = c;
	}
	place(h, i, it);
}

void pol_heap_set(struct pol_heap *h, int it, int64_t key)
{
	if (h->pos[it] < 0) {
		h->key[it] = key;
		place(h, h->n++, it);
		up(h, h->n - 1);
		return;
	}
	int64_t old = h->key[it];
	h->key[it] = key;
	if (key < old)
		up(h, h->pos[it]);
	else
		down(h, h->pos[it]);
}

void pol_heap_remove(struct pol_heap *h, int it)
{
	int i = h->pos[it];
	if (i < 0)
		return;
	h->pos[it] = -1;
	if (i == --h->n)
		return;
	int moved = h->item[h->n]; /* the last item fills the hole */
	place(h, i, moved);
	up(h, i);
	down(h, h->pos[moved]);
}

int pol_heap_pop(struct pol_heap *h)
{
	int it = pol_heap_top(h);
	if (it >= 0)
		pol_heap_remove(h, it);
	return it;
}

void pol_heap_clear(struct pol_heap *h)
{
	for (int i = 0; i < h->n; i++)
		h->pos[h->item[i]] = -1;
	h->n = 0;
}
