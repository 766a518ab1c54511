/* pol_top.c - a max tree with counts (pol_top.h). */
#include "pol_top.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void pol_top_init(struct pol_top *t, int n)
{
	t->n = n;
	t->size = 1;
	while (t->size < n)
		t->size *= 2;
	t->key = xmalloc(2 * (size_t)t->size * sizeof *t->key);
	t->cnt = xcalloc(2 * (size_t)t->size, sizeof *t->cnt);
	for (int s = 0; s < 2 * t->size; s++)
		t->key[s] = POL_TOP_NONE;
}

void pol_top_free(struct pol_top *t)
{
	free(t->key);
	free(t->cnt);
	memset(t, 0, sizeof *t);
}

void pol_top_set(struct pol_top *t, int i, int64_t k)
{
	int s = t->size + i;
	if (t->key[s] == k)
		return;
	t->key[s] = k;
	t->cnt[s] = k != POL_TOP_NONE;
	/* above a slot whose key and count stay, nothing can change */
	for (s /= 2; s >= 1; s /= 2) {
		int64_t a = t->key[2 * s], b = t->key[2 * s + 1];
		int64_t m = a > b ? a : b;
		int c = (a == m ? t->cnt[2 * s] : 0) + (b == m ? t->cnt[2 * s + 1] : 0);
		if (m == POL_TOP_NONE)
			c = 0;
		if (t->key[s] == m && t->cnt[s] == c)
			break;
		t->key[s] = m;
		t->cnt[s] = c;
	}
}

int pol_top_nth(const struct pol_top *t, int i)
{
	int64_t m = t->key[1];
	int s = 1;
	while (s < t->size) {
		if (t->key[2 * s] == m && i < t->cnt[2 * s]) {
			s = 2 * s;
		} else {
			if (t->key[2 * s] == m)
				i -= t->cnt[2 * s];
			s = 2 * s + 1;
		}
	}
	return s - t->size;
}
