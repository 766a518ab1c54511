/* pol_moved.c - nodes by when they last moved (pol_moved.h). */
#include "pol_moved.h"

#include <stdlib.h>

#include "cluster.h"
#include "util.h"

void pol_moved_init(struct pol_moved *m, const struct clu *c)
{
	int n = c->n ? c->n : 1;
	*m = (struct pol_moved){.c = c, .head = c->n ? 0 : -1, .seen = c->changes};
	m->next = xmalloc((size_t)n * sizeof *m->next);
	m->prev = xmalloc((size_t)n * sizeof *m->prev);
	m->at = xcalloc((size_t)n, sizeof *m->at);
	for (int i = 0; i < c->n; i++) { /* in id order, none moved */
		m->next[i] = i + 1 < c->n ? i + 1 : -1;
		m->prev[i] = i - 1;
	}
}

void pol_moved_free(struct pol_moved *m)
{
	free(m->next), free(m->prev), free(m->at);
	*m = (struct pol_moved){0};
}

void pol_moved_touch(struct pol_moved *m, int node)
{
	m->at[node] = ++m->stamp;
	if (m->head == node)
		return;
	int p = m->prev[node], n = m->next[node];
	if (p >= 0)
		m->next[p] = n;
	if (n >= 0)
		m->prev[n] = p;
	m->prev[node] = -1;
	m->next[node] = m->head;
	if (m->head >= 0)
		m->prev[m->head] = node;
	m->head = node;
}

void pol_moved_sync(struct pol_moved *m)
{
	struct clu_since it = clu_since(m->c, m->seen, UINT64_MAX);
	for (int i; (i = clu_since_next(&it)) >= 0;)
		pol_moved_touch(m, i);
	m->seen = m->c->changes;
}
