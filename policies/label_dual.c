/* label_dual.c - the paper's label-aware, dual-resource-model policy, as
 * reconstructed in spark-semantics.md §7(c).
 *
 * A node is (labels, capacity vector <cores, memory, GPUs>); an executor
 * request is (required and preferred labels, demand vector, count).
 * Jobs are considered in arrival order; for each executor:
 *
 *   1. label filter (switch `labels`): only nodes carrying every required
 *      label; nodes carrying the preferred labels are tried first, the
 *      others only if none of those fits (so preferences lend idle
 *      capacity, like a non-exclusive YARN partition);
 *   2. fit (switch `calculator`): `dominant` checks every dimension;
 *      `memory` checks memory and GPUs only, so cores may oversubscribe
 *      as under YARN's DefaultResourceCalculator (GPUs are physical and
 *      always checked);
 *   3. best fit: the node whose dominant leftover share after placing,
 *      max over dimensions of (free - demand) / capacity, is least; ties
 *      in node order;
 *   4. gang admission (switch `gang`): all executors the job still wants
 *      are placed, or none; a job that does not fit is skipped and the
 *      ones behind it may start (backfill).  Without gang, a job takes
 *      what fits now and waits for the rest.
 *
 * Executors with cores unset get one core; a job's roles are the ones
 * its executors were launched for (places_roles: a TF PS is the executor
 * placed as one).  A job that cannot fit even
 * the empty cluster is rejected at arrival as unplaceable.
 *
 * Cost: best fit takes, for each node group the labels allow, the winner
 * of the group's nodes in a tournament tree per executor shape keyed by
 * the dominant leftover share (pol_index.h): O(node groups × log nodes)
 * per executor, plus O(shapes × log nodes) per node whose free or
 * tentative amounts changed; every waiting job is tried at each decision.
 * Past the index's 32 shapes a scan, O(nodes), but a job whose first
 * executor missed reads only the nodes changed since (best_fit_changed),
 * O(changes since).
 * With clu_plain_scan, a scan of every node: O(nodes) per executor.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "pol_index.h"
#include "sim.h"
#include "util.h"

struct dual {
	struct pol_jobset q;
	struct pol_fits fits;
	struct pol_tent t;
	bool labels, gang, check_cores;
	bool indexed;         /* false with clu_plain_scan: scan every node */
	struct pol_ix ix;     /* per executor shape: nodes keyed by dual_key */
	int ngroups;
	int *group_first;     /* node group g is nodes group_first[g] ..
				 group_first[g + 1] - 1 (nodes are in group order) */
	uint64_t pass;        /* scheduling passes so far */
	uint64_t *failed_in;  /* by job shape (sim_shape.id): the last pass in
				 which one of its jobs failed its gang (indexed
				 runs only) */
	/* Indexed, past the index's shapes (a scan): by job, made on first
	 * use, when its first executor (of role `role`, nothing tentative)
	 * fitted no node of the pass over preferred nodes (at[1]) or the
	 * others (at[0]): clu.changes + 1 then, 0 if not known to miss. */
	struct dual_miss { uint64_t at[2]; int role; } *miss;
	int njobs;
};

static double leftover(int64_t free, int64_t demand, int64_t cap)
{
	return cap > 0 ? (double)(free - demand) / (double)cap : 0.0;
}

/* An executor of shape `sh` on node `n` with these free amounts (less
 * what is tentatively placed): INFINITY if it does not fit, else the
 * node's dominant leftover share after placing it. */
static double dual_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
		       const struct pol_shape *sh)
{
	const struct dual *d = ctx;
	if (fm < sh->mem_mib || fg < sh->gpus || (d->check_cores && fc < sh->cores))
		return INFINITY;
	double l = leftover(fm, sh->mem_mib, n->mem_mib), g;
	if (sh->gpu_milli) { /* a share: some GPU holds it; leftover in milli-GPUs */
		if (pol_share_pick(&d->t, n, sh->gpu_milli) < 0)
			return INFINITY;
		g = leftover(pol_gpu_milli_free(&d->t, n), sh->gpu_milli,
			     (int64_t)n->gpus * CLU_GPU_MILLI);
	} else {
		g = leftover(fg, sh->gpus, n->gpus);
	}
	if (g > l)
		l = g;
	if (d->check_cores) {
		double k = leftover(fc, sh->cores, n->cores);
		if (k > l)
			l = k;
	}
	return l;
}

/* What the switches make of a placement: the label filter, cores checked
 * by the dominant calculator only, GPUs always, gang all at once. */
static struct pol_fit_rules dual_rules(const struct scn_policy *cfg)
{
	return (struct pol_fit_rules){
		.labels = pol_param_bool(&pol_label_dual, cfg, "labels"),
		.cores = strcmp(pol_param_value(&pol_label_dual, cfg, "calculator"), "dominant") == 0,
		.gpus = true,
		.whole = pol_param_bool(&pol_label_dual, cfg, "gang")};
}

static void dual_can_ever_place(const struct scn_policy *cfg, const struct scn *sc, int group,
				const struct sim_shape *sh, struct pol_verdict *v)
{
	pol_feasible(sc, group, sh, dual_rules(cfg), v);
}

static void *dual_init(struct sim *s, const struct scn_policy *cfg)
{
	struct dual *d = xcalloc(1, sizeof *d);
	const struct clu *c = sim_cluster(s);
	struct pol_fit_rules r = dual_rules(cfg);
	pol_jobset_init(&d->q, sim_njobs(s));
	pol_fits_init(&d->fits, s, dual_can_ever_place, cfg);
	pol_tent_init(&d->t, c->n);
	d->labels = r.labels;
	d->gang = r.whole;
	d->check_cores = r.cores;
	d->indexed = !clu_plain_scan;
	if (d->indexed) {
		pol_ix_init(&d->ix, c, &d->t, dual_key, d);
		d->ngroups = sim_scenario(s)->ngroups;
		d->group_first = xmalloc((size_t)(d->ngroups + 1) * sizeof *d->group_first);
		for (int g = 0, i = 0; g <= d->ngroups; g++) {
			while (i < c->n && c->nodes[i].group < g)
				i++;
			d->group_first[g] = i;
		}
		d->failed_in = xcalloc((size_t)sim_nshapes(s) + 1,
				       sizeof *d->failed_in);
		d->njobs = sim_njobs(s);
	}
	return d;
}

static void dual_arrived(void *st, struct sim *s, int job)
{
	struct dual *d = st;
	int why = pol_fits_arrived(&d->fits, s, sim_job(s, job));
	if (why) {
		sim_reject_job(s, job, why);
		return;
	}
	pol_jobset_add(&d->q, job);
}

static void dual_finished(void *st, struct sim *s, int job)
{
	(void)s;
	pol_jobset_remove(&((struct dual *)st)->q, job);
}

/* Whether node `n` is a candidate for role `ro` in the pass over nodes
 * that do (preferred) or do not carry its preferred labels. */
static bool eligible(const struct dual *d, const struct clu_node *n, const struct sim_role *ro,
		     bool preferred)
{
	if (!d->labels)
		return true;
	if (!clu_has_labels(n, ro->require))
		return false;
	return !ro->prefer || clu_has_labels(n, ro->prefer) == preferred;
}

/* Node n's key for an executor of role ro, shape sh, in the pass over
 * preferred nodes or the others: INFINITY where not eligible or it does
 * not fit. */
static double node_key(const struct dual *d, const struct clu_node *n, const struct sim_role *ro,
		       const struct pol_shape *sh, bool preferred)
{
	if (!eligible(d, n, ro, preferred))
		return INFINITY;
	int fc, fg;
	int64_t fm;
	pol_tent_free(&d->t, n, &fc, &fm, &fg);
	return dual_key(d, n, fc, fm, fg, sh);
}

/* Best node for one executor of shape `sh` among the eligible nodes; -1
 * if none fits.  The reference: every node in order, the first with the
 * least key wins. */
static int best_fit_scan(const struct dual *d, const struct clu *c, const struct sim_role *ro,
			 const struct pol_shape *sh, bool preferred)
{
	int best = -1;
	double best_left = 0;
	for (int i = 0; i < c->n; i++) {
		double l = node_key(d, &c->nodes[i], ro, sh, preferred);
		if (l < INFINITY && (best < 0 || l < best_left)) {
			best = i;
			best_left = l;
		}
	}
	return best;
}

/* best_fit_scan for a try that missed at cluster change `from` and
 * whose nodes have changed fewer times since than there are nodes: a node
 * unchanged since still fits nowhere, so the best is the best of the
 * changed ones, in the same order (the least key, ties to the lower
 * node).  O(changes since). */
static int best_fit_changed(const struct dual *d, const struct clu *c, const struct sim_role *ro,
			    const struct pol_shape *sh, bool preferred, uint64_t from)
{
	int best = -1;
	double best_left = 0;
	for (uint64_t q = from; q < c->changes; q++) {
		int i = clu_log_node(c, q);
		double l = node_key(d, &c->nodes[i], ro, sh, preferred);
		if (l < INFINITY && (best < 0 || l < best_left || (l == best_left && i < best))) {
			best = i;
			best_left = l;
		}
	}
	return best;
}

/* The same from the index: the winner of each eligible node group's
 * range, the least of those (groups are in node order, so a strict < keeps
 * the lower node on ties).  O(node groups × log nodes). */
static int best_fit_indexed(struct dual *d, const struct clu *c, const struct sim_role *ro,
			    const struct pol_tree *t, bool preferred)
{
	int best = -1;
	for (int g = 0; g < d->ngroups; g++) {
		int lo = d->group_first[g], hi = d->group_first[g + 1];
		if (lo == hi || !eligible(d, &c->nodes[lo], ro, preferred))
			continue;
		int i = pol_tree_min(t, lo, hi);
		if (i >= 0 && (best < 0 || t->key[i] < t->key[best]))
			best = i;
	}
	return best;
}

/* Best fit; job, role: a job's first executor with nothing tentative
 * (its misses remembered and read, on the scan), else job -1. */
static int best_fit(struct dual *d, const struct clu *c, const struct sim_role *ro,
		    const struct pol_shape *sh, bool preferred, int job, int role)
{
	const struct pol_tree *t = d->indexed ? pol_ix_tree(&d->ix, sh) : NULL;
	if (t)
		return best_fit_indexed(d, c, ro, t, preferred);
	if (!d->indexed || job < 0)
		return best_fit_scan(d, c, ro, sh, preferred);
	if (!d->miss)
		d->miss = xcalloc((size_t)(d->njobs ? d->njobs : 1), sizeof *d->miss);
	struct dual_miss *m = &d->miss[job];
	uint64_t *at = &m->at[preferred];
	int node;
	pol_work.dual_scans++;
	if (*at && m->role == role && clu_log_short(c, *at - 1)) {
		pol_work.dual_tests += c->changes - (*at - 1);
		node = best_fit_changed(d, c, ro, sh, preferred, *at - 1);
	} else {
		pol_work.dual_tests += (uint64_t)c->n;
		node = best_fit_scan(d, c, ro, sh, preferred);
	}
	if (node < 0 && m->role != role) { /* another role's misses are not its */
		m->at[0] = m->at[1] = 0;
		m->role = role;
	}
	*at = node < 0 ? c->changes + 1 : 0;
	return node;
}

static int place_one(struct dual *d, const struct clu *c, const struct sim_role *ro,
		     const struct pol_shape *sh, int job, int role)
{
	int node = best_fit(d, c, ro, sh, true, job, role);
	if (node < 0 && d->labels && ro->prefer)
		node = best_fit(d, c, ro, sh, false, job, role);
	return node;
}

/* Place tentatively what job j still wants; true if all of it fits. */
static bool place(struct dual *d, const struct sim *s, const struct sim_job *j)
{
	const struct clu *c = sim_cluster(s);
	bool all = true;
	pol_tent_reset(&d->t);
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		struct pol_shape sh = {ro->cores ? ro->cores : CLU_MILLI, ro->mem_mib, ro->gpus,
				       ro->gpus ? 0 : ro->gpu_milli};
		for (int k = j->live->granted[r]; k < ro->count; k++) {
			int node = place_one(d, c, ro, &sh, d->t.n == 0 ? j->id : -1, r);
			if (node < 0) {
				all = false;
				break;
			}
			if (sh.gpu_milli)
				pol_tent_add_share(&d->t, &c->nodes[node], r, sh.cores, sh.mem_mib,
						   sh.gpu_milli);
			else
				pol_tent_add(&d->t, node, r, sh.cores, sh.mem_mib, sh.gpus);
			if (d->indexed)
				pol_ix_touch(&d->ix, node);
		}
		if (!all && d->gang)
			break;
	}
	return all;
}

static void dual_schedule(void *st, struct sim *s)
{
	struct dual *d = st;
	const struct clu *c = sim_cluster(s);
	int job = pol_jobset_first(&d->q);
	/* Every executor holds memory and, when the calculator checks cores,
	 * at least one core: with none free anywhere nothing can be placed,
	 * so the pass stops (a saturated cluster would otherwise try every
	 * waiting job at every decision).  Only launched executors count in
	 * the cluster's totals, so this never stops a pass that could place;
	 * the plain scan, the reference, does without it. */
	bool no_cores = d->indexed && d->check_cores;
	d->pass++;
	while (job >= 0 && c->free_mem_mib > 0 && !(no_cores && c->free_cores <= 0)) {
		int next = pol_jobset_next(&d->q, job);
		const struct sim_job *j = sim_job(s, job);
		int g = j->shape->id;
		/* A gang that did not fit earlier in this pass means no job of
		 * its shape with nothing granted fits for the rest of it: they
		 * ask for the same executors with the same labels, and a pass
		 * only takes capacity.  So those are skipped (with the plain
		 * scan, the reference, they are all tried).  A job back for
		 * executors it lost asks for fewer: it is tried. */
		bool fresh = j->live->granted[0] + j->live->granted[1] == 0;
		if (d->indexed && d->gang && fresh && d->failed_in[g] == d->pass) {
			job = next;
			continue;
		}
		bool all = place(d, s, sim_job(s, job));
		if (!all && d->gang && d->indexed)
			d->failed_in[g] = d->pass;
		if (all || !d->gang)
			pol_tent_launch(&d->t, s, job);
		if (all)
			pol_jobset_remove(&d->q, job);
		job = next;
	}
}

/* A job that lost an executor asks for a replacement, in arrival order. */
static void dual_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	(void)s, (void)x, (void)why;
	pol_jobset_return(&((struct dual *)st)->q, job);
}

static void dual_fini(void *st)
{
	struct dual *d = st;
	pol_jobset_free(&d->q);
	pol_fits_free(&d->fits);
	pol_tent_fini(&d->t);
	if (d->indexed)
		pol_ix_free(&d->ix);
	free(d->group_first);
	free(d->failed_in);
	free(d->miss);
	free(d);
}

static const char *const calculators[] = {"dominant", "memory", NULL};
static const struct pol_param dual_params[] = {
	{.key = "labels", .type = POL_BOOL, .def = "true",
	 .help = "filter nodes by the jobs' required and preferred labels"},
	{.key = "calculator", .type = POL_CHOICE, .choices = calculators, .def = "dominant",
	 .help = "dominant: fit on cores, memory and GPUs; memory: memory and GPUs only (cores oversubscribe)"},
	{.key = "gang", .type = POL_BOOL, .def = "true",
	 .help = "admit a job's executors all at once or not at all"},
	{.key = NULL},
};

const struct policy_ops pol_label_dual = {
	.name = "label-dual",
	.summary = "label filter + multi-resource best fit, gang admission with backfill",
	.params = dual_params,
	.uses_labels = true,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.init = dual_init,
	.job_arrived = dual_arrived,
	.job_finished = dual_finished,
	.exec_lost = dual_exec_lost,
	.schedule = dual_schedule,
	.fini = dual_fini,
	.can_ever_place = dual_can_ever_place,
};
