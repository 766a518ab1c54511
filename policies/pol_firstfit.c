/* pol_firstfit.c - first fit in node order through a node index. */
#include "pol_firstfit.h"

#include <math.h>
#include <stdlib.h>

#include "cluster.h"
#include "pol_common.h"
#include "sim.h"
#include "util.h"

/* pol_first_fit's test, as a key: 0 where an executor of shape sh fits
 * node n after the tentative executors, else INFINITY.  It reads the
 * node's amounts through pol_tent_free itself, as the scan does (a GPU
 * pool's free GPUs are its milli-GPUs left), not the index's own. */
static double ff_key(const void *ctx, const struct clu_node *n, int cores_free,
		     int64_t mem_free, int gpus_free, const struct pol_shape *sh)
{
	const struct pol_tent *t = ctx;
	int fc, fg;
	int64_t fm;
	(void)cores_free, (void)mem_free, (void)gpus_free;
	pol_tent_free(t, n, &fc, &fm, &fg);
	if (!(fc >= sh->cores && fm >= sh->mem_mib && fg >= sh->gpus))
		return INFINITY;
	return !sh->gpu_milli || pol_share_pick(t, n, sh->gpu_milli) >= 0 ? 0 : INFINITY;
}

void pol_ff_init(struct pol_ff *f, const struct sim *s, struct pol_tent *t)
{
	*f = (struct pol_ff){.t = t, .njobs = sim_njobs(s)};
	f->indexed = !clu_plain_scan;
	if (f->indexed)
		pol_ix_init(&f->ix, sim_cluster(s), t, ff_key, t);
}

void pol_ff_free(struct pol_ff *f)
{
	if (f->indexed)
		pol_ix_free(&f->ix);
	free(f->miss);
	f->miss = NULL;
}

/* The first node in order an executor of shape sh fits, or -1.  job,
 * role: the try's first executor with no tentative one before it (the
 * misses are remembered and read, past the index's shapes), else job
 * -1. */
static int first(struct pol_ff *f, const struct clu *c, const struct pol_shape *sh, int job,
		 int role)
{
	struct pol_ff_miss *m = f->miss && job >= 0 ? &f->miss[job] : NULL;
	/* a miss is of a shape the index had no tree for, and a shape it
	 * has none for it never gets (pol_ix_tree adds, never evicts): no
	 * need to ask it again */
	bool missed = m && m->at && m->role == role;
	const struct pol_tree *tr = f->indexed && !missed ? pol_ix_tree(&f->ix, sh) : NULL;
	if (tr)
		return pol_tree_top(tr);
	if (f->indexed && job >= 0 && !m) {
		f->miss = xcalloc((size_t)(f->njobs ? f->njobs : 1), sizeof *f->miss);
		m = &f->miss[job];
	}
	if (m)
		pol_work.ff_scans++;
	if (missed && clu_log_short(c, m->at - 1)) {
		pol_work.ff_by_log++;
		/* only the nodes changed since it fitted none can take it now */
		int best = -1;
		for (uint64_t q = m->at - 1; q < c->changes; q++) {
			int i = clu_log_node(c, q);
			if (best >= 0 && i >= best)
				continue;
			pol_work.ff_tests++;
			if (ff_key(f->t, &c->nodes[i], 0, 0, 0, sh) == 0)
				best = i;
		}
		m->at = best < 0 ? c->changes + 1 : 0;
		return best;
	}
	for (int i = 0; i < c->n; i++) {
		pol_work.ff_tests++;
		if (ff_key(f->t, &c->nodes[i], 0, 0, 0, sh) == 0) {
			if (m)
				m->at = 0;
			return i;
		}
	}
	if (m)
		*m = (struct pol_ff_miss){c->changes + 1, role};
	return -1;
}

bool pol_ff_place(struct pol_ff *f, const struct sim *s, const struct sim_job *j, int most)
{
	if (!f->indexed)
		return pol_first_fit(f->t, s, j, most);
	const struct clu *c = sim_cluster(s);
	pol_tent_reset(f->t);
	int placed = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		struct pol_shape sh = {ro->cores ? ro->cores : CLU_MILLI, ro->mem_mib, ro->gpus,
				       ro->gpus ? 0 : ro->gpu_milli};
		for (int k = j->live->granted[r]; k < ro->count && (most < 0 || placed < most); k++) {
			int node = first(f, c, &sh, placed == 0 && f->t->n == 0 ? j->id : -1, r);
			if (node < 0)
				return false;
			if (sh.gpu_milli)
				pol_tent_add_share(f->t, &c->nodes[node], r, sh.cores, sh.mem_mib,
						   sh.gpu_milli);
			else
				pol_tent_add(f->t, node, r, sh.cores, sh.mem_mib, sh.gpus);
			pol_ix_touch(&f->ix, node);
			placed++;
		}
	}
	return true;
}

bool pol_ff_can_start(struct pol_ff *f, const struct sim *s, const struct sim_job *j)
{
	pol_tent_reset(f->t);
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		if (j->live->granted[r] >= ro->count)
			continue;
		struct pol_shape sh = {ro->cores ? ro->cores : CLU_MILLI, ro->mem_mib, ro->gpus,
				       ro->gpus ? 0 : ro->gpu_milli};
		return first(f, sim_cluster(s), &sh, j->id, r) >= 0; /* (plain scan: no miss kept) */
	}
	return true;
}
