/* pol_wclass.c - classes of waiting jobs by what they want. */
#include "pol_wclass.h"

#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "sim.h"
#include "util.h"

void pol_wclasses_init(struct pol_wclasses *w, const struct pol_oset *jobs)
{
	memset(w, 0, sizeof *w);
	w->jobs = jobs;
	w->hroot = w->croot = w->mroot = w->aroot = -1;
}

void pol_wclasses_free(struct pol_wclasses *w)
{
	free(w->c), free(w->slot), free(w->live);
	pol_oset_free(&w->byhead), pol_oset_free(&w->bycores);
	pol_oset_free(&w->bymem), pol_oset_free(&w->aux);
	free(w->parked), free(w->dropped);
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
	for (int r = 0; r < 2; r++) {
		w->c[w->n].need[0] += (int64_t)key.want[r] * key.sh[r].cores;
		w->c[w->n].need[1] += (int64_t)key.want[r] * key.sh[r].mem_mib;
	}
	pol_oset_reserve(&w->byhead, w->n + 1);
	pol_oset_reserve(&w->bycores, w->n + 1);
	pol_oset_reserve(&w->bymem, w->n + 1);
	pol_oset_reserve(&w->aux, w->n + 1);
	w->slot[i] = w->n;
	return w->n++;
}

void pol_wclass_count(struct pol_wclasses *w, int k, int delta)
{
	struct pol_wclass *c = &w->c[k];
	bool was = c->n > 0;
	c->n += delta;
	int first = pol_oset_first(w->jobs, c->root);
	if (was && (first < 0 || pol_okey_cmp(&w->byhead.key[k], &w->jobs->key[first]) != 0))
		pol_oset_remove(&w->byhead, &w->hroot, k);
	if (first >= 0 && (!was || pol_okey_cmp(&w->byhead.key[k], &w->jobs->key[first]) != 0))
		pol_oset_insert(&w->byhead, &w->hroot, k, w->jobs->key[first]);
	if (c->n > 0 && c->live < 0) {
		xgrow(&w->live, &w->caplive, w->nlive + 1, sizeof *w->live);
		c->live = w->nlive;
		w->live[w->nlive++] = k;
		pol_oset_insert(&w->bycores, &w->croot, k, (struct pol_okey){c->need[0], k, 0});
		pol_oset_insert(&w->bymem, &w->mroot, k, (struct pol_okey){c->need[1], k, 0});
	} else if (c->n == 0 && c->live >= 0) {
		int last = w->live[--w->nlive];
		w->live[c->live] = last;
		w->c[last].live = c->live;
		c->live = -1;
		pol_oset_remove(&w->bycores, &w->croot, k);
		pol_oset_remove(&w->bymem, &w->mroot, k);
	}
}

/* Wants executors of both roles at once: its fit is not monotone in the
 * free amounts (pol_wclass.h). */
static bool two_roles(const struct pol_wclass *c)
{
	return c->key.want[0] > 0 && c->key.want[1] > 0;
}

static int state(const struct pol_wclasses *w, int k)
{
	return w->c[k].seen == w->stamp ? w->c[k].state : POL_WW_OUT;
}

static void set_state(struct pol_wclasses *w, int k, int st)
{
	w->c[k].seen = w->stamp;
	w->c[k].state = st;
}

static void park(struct pol_wclasses *w, int k)
{
	xgrow(&w->parked, &w->capparked, w->nparked + 1, sizeof *w->parked);
	w->parked[w->nparked++] = k;
	set_state(w, k, POL_WW_PARKED);
}

static void drop(struct pol_wclasses *w, int k)
{
	xgrow(&w->dropped, &w->capdropped, w->ndropped + 1, sizeof *w->dropped);
	w->dropped[w->ndropped++] = k;
	set_state(w, k, POL_WW_DROPPED);
}

void pol_wwalk_begin(struct pol_wclasses *w, const struct clu *c)
{
	w->stamp++;
	w->begun_at = c->changes;
	w->aroot = -1;
	w->nparked = w->ndropped = 0;
}

/* Class k, met in byhead at or past cur, is known not to fit now:
 * dropped (monotone, failed since the walk began) or parked. */
static bool known_to_fail(struct pol_wclasses *w, const struct clu *c, int k)
{
	const struct pol_wclass *cl = &w->c[k];
	int st = state(w, k);
	if (st != POL_WW_OUT)
		return true;
	if (!cl->failed)
		return false;
	if (!two_roles(cl) && cl->failed_at == w->begun_at) {
		drop(w, k);
		return true;
	}
	if (two_roles(cl) && cl->failed_at == c->changes) {
		park(w, k);
		return true;
	}
	return false;
}

/* No live class's cores or memory fit in the cluster's free sum. */
static bool none_fits(const struct pol_wclasses *w, const struct clu *c)
{
	int kc = pol_oset_first(&w->bycores, w->croot);
	int km = pol_oset_first(&w->bymem, w->mroot);
	return kc < 0 || c->free_cores < w->c[kc].need[0] || c->free_mem_mib < w->c[km].need[1];
}

int pol_wwalk_next(struct pol_wclasses *w, const struct clu *c, const struct pol_okey *cur,
		   int *k)
{
	if (none_fits(w, c))
		return -1;
	/* The classes passed over lie before the job chosen, so behind cur
	 * from the next step on: each is passed over once a walk.  Hence the
	 * byhead walk stops at the aux set's first. */
	int b = pol_oset_first(&w->aux, w->aroot);
	struct pol_okey at = *cur;
	int a;
	while ((a = pol_oset_ceil(&w->byhead, w->hroot, &at)) >= 0 &&
	       !(b >= 0 && pol_okey_cmp(&w->byhead.key[a], &w->aux.key[b]) > 0) &&
	       known_to_fail(w, c, a)) {
		w->visits++;
		at = w->byhead.key[a];
		at.c++; /* strictly after it */
	}
	if (a < 0 && b < 0)
		return -1;
	w->visits++;
	if (b >= 0 && (a < 0 || pol_okey_cmp(&w->aux.key[b], &w->byhead.key[a]) < 0)) {
		pol_oset_remove(&w->aux, &w->aroot, b);
		set_state(w, b, POL_WW_OUT);
		*k = b;
		return pol_oset_ceil(w->jobs, w->c[b].root, cur);
	}
	*k = a;
	return pol_oset_first(w->jobs, w->c[a].root);
}

void pol_wwalk_failed(struct pol_wclasses *w, const struct clu *c, const struct pol_okey *cur,
		      int k)
{
	struct pol_wclass *cl = &w->c[k];
	cl->failed = true;
	cl->failed_at = c->changes;
	if (!two_roles(cl))
		drop(w, k);
	else if (pol_oset_ceil(w->jobs, cl->root, cur) >= 0)
		park(w, k);
	/* else nothing to retry: a job joining it later is met by retry() */
}

/* Class k is owed a try at its first job at or past cur, unless dropped:
 * byhead meets it if its first job is there, else the aux set holds it. */
static void retry(struct pol_wclasses *w, const struct pol_okey *cur, int k)
{
	int st = state(w, k);
	if (st == POL_WW_DROPPED)
		return;
	if (st == POL_WW_AUX)
		pol_oset_remove(&w->aux, &w->aroot, k);
	set_state(w, k, POL_WW_OUT);
	int first = pol_oset_first(w->jobs, w->c[k].root);
	if (first < 0 || pol_okey_cmp(&w->jobs->key[first], cur) >= 0)
		return;
	int h = pol_oset_ceil(w->jobs, w->c[k].root, cur);
	if (h >= 0) {
		pol_oset_insert(&w->aux, &w->aroot, k, w->jobs->key[h]);
		set_state(w, k, POL_WW_AUX);
	}
}

void pol_wwalk_launched(struct pol_wclasses *w, const struct pol_okey *cur, int k, int k2)
{
	retry(w, cur, k);
	if (k2 >= 0 && k2 != k)
		retry(w, cur, k2);
	int n = w->nparked;
	w->nparked = 0;
	for (int i = 0; i < n; i++)
		if (state(w, w->parked[i]) == POL_WW_PARKED) /* not retried above */
			retry(w, cur, w->parked[i]);
}

void pol_wwalk_end(struct pol_wclasses *w, const struct clu *c)
{
	for (int i = 0; i < w->ndropped; i++) {
		w->c[w->dropped[i]].failed = true;
		w->c[w->dropped[i]].failed_at = c->changes;
	}
	w->ndropped = w->nparked = 0;
	w->aroot = -1;
}
