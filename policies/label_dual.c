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
 * Executors with cores unset get one core.  A job that cannot fit even
 * the empty cluster is rejected at arrival as unplaceable.
 *
 * Cost: O(waiting jobs × nodes) per decision.
 */
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "sim.h"
#include "util.h"

struct dual {
	struct pol_queue q;
	struct pol_tent t;
	bool labels, gang, check_cores;
};

static void *dual_init(struct sim *s, const struct scn_policy *cfg)
{
	struct dual *d = xcalloc(1, sizeof *d);
	pol_queue_init(&d->q, sim_njobs(s));
	pol_tent_init(&d->t, sim_cluster(s)->n);
	d->labels = pol_param_bool(&pol_label_dual, cfg, "labels");
	d->gang = pol_param_bool(&pol_label_dual, cfg, "gang");
	d->check_cores = strcmp(pol_param_value(&pol_label_dual, cfg, "calculator"),
				"dominant") == 0;
	return d;
}

static void dual_arrived(void *st, struct sim *s, int job)
{
	struct dual *d = st;
	if (!pol_feasible(s, sim_job(s, job), d->labels, d->check_cores, true)) {
		sim_reject_job(s, job, JOB_UNPLACEABLE);
		return;
	}
	pol_queue_push(&d->q, job);
}

static void dual_finished(void *st, struct sim *s, int job)
{
	(void)s;
	pol_queue_remove(&((struct dual *)st)->q, job);
}

static double leftover(int64_t free, int64_t demand, int64_t cap)
{
	return cap > 0 ? (double)(free - demand) / (double)cap : 0.0;
}

/* Best node for one executor among nodes that (do or do not) carry the
 * preferred labels; -1 if none fits. */
static int best_fit(const struct dual *d, const struct clu *c, const struct sim_role *ro,
		    int cores, bool preferred)
{
	int best = -1;
	double best_left = 0;
	/* with the dominant calculator a node needs a free core; with the
	 * memory one, any node may take an executor */
	for (int i = d->check_cores ? clu_next_with_cores(c, 0) : 0; i >= 0 && i < c->n;
	     i = d->check_cores ? clu_next_with_cores(c, i + 1) : i + 1) {
		const struct clu_node *n = &c->nodes[i];
		if (d->labels && !clu_has_labels(n, ro->require))
			continue;
		if (d->labels && ro->prefer && clu_has_labels(n, ro->prefer) != preferred)
			continue;
		int fc, fg;
		int64_t fm;
		pol_tent_free(&d->t, n, &fc, &fm, &fg);
		if (fm < ro->mem_mib || fg < ro->gpus || (d->check_cores && fc < cores))
			continue;
		double l = leftover(fm, ro->mem_mib, n->mem_mib);
		double g = leftover(fg, ro->gpus, n->gpus);
		if (g > l)
			l = g;
		if (d->check_cores) {
			double k = leftover(fc, cores, n->cores);
			if (k > l)
				l = k;
		}
		if (best < 0 || l < best_left) {
			best = i;
			best_left = l;
		}
	}
	return best;
}

static int place_one(const struct dual *d, const struct clu *c, const struct sim_role *ro,
		     int cores)
{
	int node = best_fit(d, c, ro, cores, true);
	if (node < 0 && d->labels && ro->prefer)
		node = best_fit(d, c, ro, cores, false);
	return node;
}

/* Place tentatively what job j still wants; true if all of it fits. */
static bool place(struct dual *d, const struct sim *s, const struct sim_job *j)
{
	const struct clu *c = sim_cluster(s);
	bool all = true;
	pol_tent_reset(&d->t);
	for (int r = 0; r < j->nroles; r++) {
		const struct sim_role *ro = &j->role[r];
		int cores = ro->cores ? ro->cores : 1;
		for (int k = ro->granted; k < ro->count; k++) {
			int node = place_one(d, c, ro, cores);
			if (node < 0) {
				all = false;
				break;
			}
			pol_tent_add(&d->t, node, r, cores, ro->mem_mib, ro->gpus);
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
	int job = d->q.head;
	while (job >= 0 && c->free_mem_mib > 0) {
		int next = pol_queue_next(&d->q, job);
		bool all = place(d, s, sim_job(s, job));
		if (all || !d->gang)
			pol_tent_launch(&d->t, s, job);
		if (all)
			pol_queue_remove(&d->q, job);
		job = next;
	}
}

static void dual_fini(void *st)
{
	struct dual *d = st;
	pol_queue_free(&d->q);
	pol_tent_fini(&d->t);
	free(d);
}

static const char *const calculators[] = {"dominant", "memory", NULL};
static const struct pol_param dual_params[] = {
	{"labels", POL_BOOL, NULL, "true", "filter nodes by the jobs' required and preferred labels"},
	{"calculator", POL_CHOICE, calculators, "dominant",
	 "dominant: fit on cores, memory and GPUs; memory: memory and GPUs only (cores oversubscribe)"},
	{"gang", POL_BOOL, NULL, "true", "admit a job's executors all at once or not at all"},
	{NULL, POL_BOOL, NULL, NULL, NULL},
};

const struct policy_ops pol_label_dual = {
	.name = "label-dual",
	.summary = "label filter + multi-resource best fit, gang admission with backfill",
	.params = dual_params,
	.uses_labels = true,
	.init = dual_init,
	.job_arrived = dual_arrived,
	.job_finished = dual_finished,
	.schedule = dual_schedule,
	.fini = dual_fini,
};
