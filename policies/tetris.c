/* tetris.c - multi-resource packing (Grandl et al., "Multi-Resource
 * Packing for Cluster Schedulers", SIGCOMM'14).
 *
 * At each step, among the waiting jobs the fairness knob leaves eligible,
 * the (job, node) pair of the highest score gets the job's next executor
 * (a rigid job: all of them, each on its best node in turn):
 *
 *   score = alignment + srpt x (1 - remaining / the largest remaining)
 *   alignment = sum over cores, memory, GPUs of (asked / R) x (free / R)
 *
 * R the cluster's largest node's amount of the resource; remaining, a
 * job's remaining work by its estimate (sim_job_estimate: the actual run
 * time at speed 1, else the requested time) times the cores it still
 * wants; a job without an estimate has no SRPT credit.  Fairness knob f
 * in [0, 1): only the ceil((1 - f) x J) of the J waiting jobs with the
 * smallest dominant share of the cluster are eligible (f = 0: all, the
 * most efficient packing).  Ties: the earlier job, then the lower node.
 * Labels are ignored, as by fifo (docs/policies/tetris.md).
 *
 * Cost per decision: O(launches x waiting x nodes).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "registry.h"
#include "sim.h"
#include "util.h"

struct tetris {
	struct pol_jobset q;
	struct pol_fits fits;
	struct pol_tent t;
	double srpt, fair;
	double max[3];                  /* the largest node's cores, MiB, milli-GPUs */
	double total[3];                /* the cluster's */
	double (*held)[3];              /* by job */
	bool *tried;                    /* by job: nothing fits it in this decision */
	int *cand; double *share;       /* eligible jobs */
};

static void tetris_can_ever_place(const struct scn_policy *cfg, const struct scn *sc,
				  int group, const struct sim_shape *sh, struct pol_verdict *v)
{
	struct pol_fit_rules rules = {.labels = false, .cores = true, .gpus = true,
				      .whole = (sh->rigid || sh->gang_role >= 0)};
	(void)cfg;
	struct sim_shape one = *sh;
	for (int r = 0; !(sh->rigid || sh->gang_role >= 0) && r < one.nroles; r++)
		one.role[r].count = 1;
	pol_feasible(sc, group, &one, rules, v);
}

static void *tetris_init(struct sim *s, const struct scn_policy *cfg)
{
	struct tetris *t = xcalloc(1, sizeof *t);
	const struct clu *c = sim_cluster(s);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1;
	pol_jobset_init(&t->q, sim_njobs(s));
	pol_fits_init(&t->fits, s, tetris_can_ever_place, cfg);
	pol_tent_init(&t->t, c->n);
	t->srpt = pol_param_num(&pol_tetris, cfg, "srpt");
	t->fair = pol_param_num(&pol_tetris, cfg, "fairness");
	for (int i = 0; i < c->n; i++) {
		t->max[0] = fmax(t->max[0], c->nodes[i].cores);
		t->max[1] = fmax(t->max[1], (double)c->nodes[i].mem_mib);
		t->max[2] = fmax(t->max[2], (double)c->nodes[i].gpus * CLU_GPU_MILLI);
	}
	t->total[0] = (double)c->total_cores;
	t->total[1] = (double)c->total_mem_mib;
	t->total[2] = (double)c->total_gpus * CLU_GPU_MILLI;
	t->held = xcalloc((size_t)nj, sizeof *t->held);
	t->tried = xcalloc((size_t)nj, sizeof *t->tried);
	t->cand = xmalloc((size_t)nj * sizeof *t->cand);
	t->share = xmalloc((size_t)nj * sizeof *t->share);
	return t;
}

static void tetris_arrived(void *st, struct sim *s, int job)
{
	struct tetris *t = st;
	int why = pol_fits_arrived(&t->fits, s, sim_job(s, job));
	if (why) {
		sim_reject_job(s, job, why);
		return;
	}
	pol_jobset_add(&t->q, job);
}

static void tetris_finished(void *st, struct sim *s, int job)
{
	struct tetris *t = st;
	(void)s;
	pol_jobset_remove(&t->q, job);
	memset(t->held[job], 0, sizeof t->held[job]);
}

static double dominant(const struct tetris *t, int job)
{
	double m = 0;
	for (int r = 0; r < 3; r++)
		if (t->total[r] > 0)
			m = fmax(m, t->held[job][r] / t->total[r]);
	return m;
}

/* The next executor's role of j given k more already placed. */
static int role_after(const struct sim_job *j, int k)
{
	for (int r = 0; r < j->shape->nroles; r++) {
		int left = j->shape->role[r].count - j->live->granted[r];
		if (k < left)
			return r;
		k -= left > 0 ? left : 0;
	}
	return -1;
}

/* The best node for role r of j on the tentative state: -1 if none fits;
 * its alignment into *a. */
static int best_node(struct tetris *t, const struct sim *s, const struct sim_job *j, int r,
		     double *a)
{
	const struct clu *c = sim_cluster(s);
	const struct sim_role *ro = &j->shape->role[r];
	int cores = ro->cores ? ro->cores : CLU_MILLI, milli = ro->gpus ? 0 : ro->gpu_milli;
	double ask[3] = {cores, (double)ro->mem_mib,
			 ro->gpus ? (double)ro->gpus * CLU_GPU_MILLI : milli};
	int best = -1;
	for (int i = 0; i < c->n; i++) {
		int fc, fg;
		int64_t fm;
		pol_tent_free(&t->t, &c->nodes[i], &fc, &fm, &fg);
		if (fc < cores || fm < ro->mem_mib || fg < ro->gpus ||
		    (milli && pol_share_pick(&t->t, &c->nodes[i], milli) < 0))
			continue;
		double fr[3] = {fc, (double)fm, (double)pol_gpu_milli_free(&t->t, &c->nodes[i])};
		double x = 0;
		for (int k = 0; k < 3; k++)
			if (t->max[k] > 0)
				x += ask[k] / t->max[k] * (fr[k] / t->max[k]);
		if (best < 0 || x > *a) {
			best = i;
			*a = x;
		}
	}
	return best;
}

static void add(struct tetris *t, const struct sim *s, const struct sim_job *j, int r, int node)
{
	const struct sim_role *ro = &j->shape->role[r];
	int cores = ro->cores ? ro->cores : CLU_MILLI, milli = ro->gpus ? 0 : ro->gpu_milli;
	if (milli)
		pol_tent_add_share(&t->t, &sim_cluster(s)->nodes[node], r, cores, ro->mem_mib, milli);
	else
		pol_tent_add(&t->t, node, r, cores, ro->mem_mib, ro->gpus);
}

/* A job's remaining work: its estimate x the cores it still wants; -1
 * without an estimate. */
static double remaining(const struct sim *s, const struct sim_job *j)
{
	int64_t req, act;
	sim_job_estimate(s, j, &req, &act);
	int64_t e = act >= 0 ? act : req;
	if (e < 0)
		return -1;
	double cores = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int left = ro->count - j->live->granted[r];
		cores += (left > 0 ? left : 0) * (double)(ro->cores ? ro->cores : CLU_MILLI);
	}
	return (double)e * cores;
}


static void tetris_schedule(void *st, struct sim *s)
{
	struct tetris *t = st;
	for (int job = pol_jobset_first(&t->q); job >= 0; job = pol_jobset_next(&t->q, job))
		t->tried[job] = false;
	for (;;) {
		/* the eligible jobs: by dominant share, the (1 - f) fraction of
		 * the smallest (ties in arrival order: a stable selection) */
		int n = 0;
		double rmax = 0;
		for (int job = pol_jobset_first(&t->q); job >= 0; job = pol_jobset_next(&t->q, job)) {
			if (t->tried[job])
				continue;
			t->cand[n] = job;
			t->share[n++] = dominant(t, job);
			rmax = fmax(rmax, remaining(s, sim_job(s, job)));
		}
		if (!n)
			return;
		int keep = (int)ceil((1 - t->fair) * n - 1e-9);
		keep = keep < 1 ? 1 : keep > n ? n : keep;
		for (int a = 1; a < n; a++) /* insertion sort by share, stable */
			for (int b = a; b > 0 && t->share[b] < t->share[b - 1]; b--) {
				double x = t->share[b];
				t->share[b] = t->share[b - 1], t->share[b - 1] = x;
				int y = t->cand[b];
				t->cand[b] = t->cand[b - 1], t->cand[b - 1] = y;
			}
		/* the best pair among them */
		int bj = -1, bn = -1;
		double bs = 0;
		for (int i = 0; i < keep; i++) {
			const struct sim_job *j = sim_job(s, t->cand[i]);
			pol_tent_reset(&t->t);
			double a = 0;
			int node = best_node(t, s, j, role_after(j, 0), &a);
			if (node < 0) {
				t->tried[t->cand[i]] = true;
				continue;
			}
			double rem = remaining(s, j);
			double score = a + (rem >= 0 && rmax > 0 ? t->srpt * (1 - rem / rmax) : 0);
			if (bj < 0 || score > bs || (score == bs && t->cand[i] < bj)) {
				bj = t->cand[i];
				bn = node;
				bs = score;
			}
		}
		if (bj < 0)
			return; /* no eligible job fits: the knob keeps the others out */
		const struct sim_job *j = sim_job(s, bj);
		pol_tent_reset(&t->t);
		add(t, s, j, role_after(j, 0), bn);
		bool ok = true;
		int want = (j->shape->rigid || j->shape->gang_role >= 0) ? sim_execs_wanted(j) : 1;
		for (int k = 1; k < want && ok; k++) { /* a rigid job's others, best node each */
			double a = 0;
			int r = role_after(j, k), node = best_node(t, s, j, r, &a);
			if (node < 0)
				ok = false;
			else
				add(t, s, j, r, node);
		}
		if (!ok) {
			t->tried[bj] = true;
			continue;
		}
		for (int i = 0; i < t->t.n; i++) {
			const struct pol_tent_exec *x = &t->t.e[i];
			t->held[bj][0] += x->cores;
			t->held[bj][1] += (double)x->mem_mib;
			t->held[bj][2] += x->gpu_milli ? x->gpu_milli : (double)x->gpus * CLU_GPU_MILLI;
		}
		pol_tent_launch(&t->t, s, bj);
		if (sim_execs_wanted(j) == 0)
			pol_jobset_remove(&t->q, bj);
	}
}

static void tetris_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	struct tetris *t = st;
	(void)s, (void)why;
	if (x->role >= 0) {
		t->held[job][0] -= x->cores;
		t->held[job][1] -= (double)x->mem_mib;
		t->held[job][2] -= x->gpu_milli ? x->gpu_milli : (double)x->gpus * CLU_GPU_MILLI;
	}
	pol_jobset_return(&t->q, job);
}

static void tetris_fini(void *st)
{
	struct tetris *t = st;
	pol_jobset_free(&t->q);
	pol_fits_free(&t->fits);
	pol_tent_fini(&t->t);
	free(t->held), free(t->tried), free(t->cand), free(t->share);
	free(t);
}

static const struct pol_param tetris_params[] = {
	{.key = "srpt", .type = POL_NUM, .def = "0", .lo = 0, .hi = 100, .def_num = 0,
	 .help = "weight of the SRPT credit, 1 - remaining / the largest remaining, added to "
		 "the alignment (0: packing alone)"},
	{.key = "fairness", .type = POL_NUM, .def = "0", .lo = 0, .hi = 0.99, .def_num = 0,
	 .help = "knob f: only the (1 - f) fraction of the waiting jobs of smallest dominant "
		 "share are eligible (0: all)"},
	{.key = NULL},
};

const struct policy_ops pol_tetris = {
	.name = "tetris",
	.summary = "Tetris: multi-resource packing by alignment score, with SRPT and fairness "
		   "knobs",
	.params = tetris_params,
	.uses_labels = false,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.init = tetris_init,
	.job_arrived = tetris_arrived,
	.job_finished = tetris_finished,
	.schedule = tetris_schedule,
	.fini = tetris_fini,
	.exec_lost = tetris_exec_lost,
	.can_ever_place = tetris_can_ever_place,
};
