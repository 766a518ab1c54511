/* pol_wclass.c - classes of waiting jobs by what they want. */
#include "pol_wclass.h"

#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "sim.h"
#include "util.h"

void pol_wclasses_init(struct pol_wclasses *w)
{
	memset(w, 0, sizeof *w);
}

void pol_wclasses_free(struct pol_wclasses *w)
{
	free(w->c), free(w->slot), free(w->live);
	memset(w, 0, sizeof *w);
}

static bool key_eq(const struct pol_wkey *a, const struct pol_wkey *b)
{
	for (int r = 0; r < 2; r++)
		if (a->want[r] != b->want[r] || !pol_shape_eq(&a->sh[r], &b->sh[r]))
			return false;
	return true;
}

static uint64_t key_hash(const struct pol_wkey *k)
{
	uint64_t h = 1469598103934665603ULL;
	for (int r = 0; r < 2; r++) {
		int64_t f[5] = {k->sh[r].cores, k->sh[r].mem_mib, k->sh[r].gpus, k->sh[r].gpu_milli,
				k->want[r]};
		for (int i = 0; i < 5; i++)
			h = (h ^ (uint64_t)f[i]) * 1099511628211ULL;
	}
	return h ^ (h >> 29);
}

static void rehash(struct pol_wclasses *w)
{
	free(w->slot);
	w->nslot = w->nslot ? w->nslot * 2 : 64;
	w->slot = xmalloc((size_t)w->nslot * sizeof *w->slot);
	for (int i = 0; i < w->nslot; i++)
		w->slot[i] = -1;
	for (int k = 0; k < w->n; k++) {
		size_t i = key_hash(&w->c[k].key) & (size_t)(w->nslot - 1);
		while (w->slot[i] >= 0)
			i = (i + 1) & (size_t)(w->nslot - 1);
		w->slot[i] = k;
	}
}

int pol_wclass_of(struct pol_wclasses *w, const struct sim_job *j, bool one)
{
	struct pol_wkey key;
	memset(&key, 0, sizeof key); /* a role the job lacks: all zero */
	bool first = true;
	for (int r = 0; r < j->shape->nroles && r < 2; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int want = ro->count - j->live->granted[r];
		if (want < 0)
			want = 0;
		key.sh[r] = (struct pol_shape){ro->cores ? ro->cores : CLU_MILLI, ro->mem_mib, ro->gpus,
					       ro->gpus ? 0 : ro->gpu_milli};
		if (one) {
			want = first && want > 0 ? 1 : 0;
			if (want)
				first = false;
			else
				key.sh[r] = (struct pol_shape){0};
		}
		key.want[r] = want;
	}
	if (2 * (w->n + 1) > w->nslot)
		rehash(w);
	size_t i = key_hash(&key) & (size_t)(w->nslot - 1);
	for (; w->slot[i] >= 0; i = (i + 1) & (size_t)(w->nslot - 1))
		if (key_eq(&w->c[w->slot[i]].key, &key))
			return w->slot[i];
	xgrow(&w->c, &w->cap, w->n + 1, sizeof *w->c);
	w->c[w->n] = (struct pol_wclass){.key = key, .root = -1, .live = -1};
	w->slot[i] = w->n;
	return w->n++;
}

void pol_wclass_count(struct pol_wclasses *w, int k, int delta)
{
	struct pol_wclass *c = &w->c[k];
	c->n += delta;
	if (c->n > 0 && c->live < 0) {
		w->live = xrealloc(w->live, (size_t)w->n * sizeof *w->live);
		c->live = w->nlive;
		w->live[w->nlive++] = k;
	} else if (c->n == 0 && c->live >= 0) {
		int last = w->live[--w->nlive];
		w->live[c->live] = last;
		w->c[last].live = c->live;
		c->live = -1;
	}
}
