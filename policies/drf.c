/* drf.c - Dominant Resource Fairness (Ghodsi et al., "Dominant Resource
 * Fairness: Fair Allocation of Multiple Resource Types", NSDI'11).
 *
 * Progressive filling over cores, memory and GPUs: at each step the
 * entity (an application, or a user where the workload's jobs have users:
 * a trace's) with the smallest dominant share - the largest of its
 * allocated cores, memory and GPUs, each over the cluster's total - gets
 * its next executor, first fit in node order, until no waiting executor
 * fits.  A job that must have all its executors before it runs (a rigid
 * trace job: sim_shape.rigid) gets them all at once or none.  Within an
 * entity its jobs in arrival order; ties between entities in order of
 * their first job's arrival.  Labels are ignored, as by fifo
 * (docs/policies/drf.md).
 *
 * Cost per decision: each executor placed first fit through a node
 * index (pol_firstfit.h), O(log64 nodes); past its 32 shapes (a trace of
 * pods each of its own demand) a scan, but a job that missed looks again
 * only at the nodes changed since (O(changes since), never above the
 * scan's O(nodes)).  Every job its own entity (no
 * users): a k-way merge of the classes of what waiting jobs want next
 * (pol_wclass.h, pol_wwalk_*; 6 in bench/gen-mix's mix), O((t + l +
 * p x l) log waiting) a decision, t the classes tried, l the launches,
 * p the classes of two roles that failed and still hold a job (0 where
 * every job is its own demand); O(log waiting) once the cluster's free
 * sums fit no class.  With users, or clu_plain_scan (the reference),
 * O(waiting) per launch: a scan.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "pol_firstfit.h"
#include "pol_oset.h"
#include "pol_wclass.h"
#include "scenario.h"
#include "scn_trace.h"
#include "sim.h"
#include "util.h"

struct drf {
	struct pol_jobset q;          /* jobs wanting executors, by arrival */
	struct pol_fits fits;
	struct pol_tent t;
	struct pol_ff ff;             /* first fit through a node index */
	int *ent;                     /* by job: its entity */
	int nent;
	double (*alloc)[3];           /* by entity: cores (milli), MiB, milli-GPUs held */
	double (*held)[3];            /* by job: the same */
	double total[3];
	bool *tried;                  /* by job: failed in this decision */
	/* Indexed (every job its own entity, and not clu_plain_scan): the
	 * waiting jobs in classes by what they want next (pol_wclass.h), each
	 * an ordered set by (dominant share, job); the plain scan reads every
	 * waiting job per launch. */
	bool indexed;
	struct pol_oset pool;         /* by job: its key */
	struct pol_wclasses cls;
	int *cls_of;                  /* by job: its class while queued, -1 */
};

static void drf_can_ever_place(const struct scn_policy *cfg, const struct scn *sc, int group,
			       const struct sim_shape *sh, struct pol_verdict *v)
{
	/* progressive filling: a job runs with what it gets, so each executor
	 * need only fit a node; a rigid job's must all fit at once */
	struct pol_fit_rules rules = {.labels = false, .cores = true, .gpus = true,
				      .whole = (sh->rigid || sh->gang_role >= 0)};
	(void)cfg;
	struct sim_shape one = *sh;
	for (int r = 0; !(sh->rigid || sh->gang_role >= 0) && r < one.nroles; r++)
		one.role[r].count = 1; /* one executor of each role is a start */
	pol_feasible(sc, group, &one, rules, v);
}

/* Entities: a trace job's user (one entity per group and user), else
 * the job itself. */
static void entities(struct drf *d, const struct sim *s)
{
	const struct scn *sc = sim_scenario(s);
	int nj = sim_njobs(s);
	int *base = xcalloc((size_t)(sc->njobgroups ? sc->njobgroups : 1), sizeof *base);
	int next = 0;
	for (int g = 0; g < sc->njobgroups; g++) {
		const struct scn_trace *t = sc->jobs[g].trace;
		base[g] = next;
		next += t && t->nusers ? t->nusers : 0;
	}
	for (int i = 0; i < nj; i++) {
		const struct sim_job *j = sim_job(s, i);
		const struct scn_trace *t = sc->jobs[j->group].trace;
		int u = t && t->nusers ? t->jobs[j->index].user : -1;
		d->ent[i] = u >= 0 ? base[j->group] + u : next++;
	}
	d->nent = next;
	free(base);
}

static void *drf_init(struct sim *s, const struct scn_policy *cfg)
{
	struct drf *d = xcalloc(1, sizeof *d);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1;
	const struct clu *c = sim_cluster(s);
	pol_jobset_init(&d->q, sim_njobs(s));
	pol_fits_init(&d->fits, s, drf_can_ever_place, cfg);
	pol_tent_init(&d->t, c->n);
	pol_ff_init(&d->ff, s, &d->t);
	d->ent = xmalloc((size_t)nj * sizeof *d->ent);
	d->tried = xcalloc((size_t)nj, sizeof *d->tried);
	entities(d, s);
	d->alloc = xcalloc((size_t)(d->nent ? d->nent : 1), sizeof *d->alloc);
	d->held = xcalloc((size_t)nj, sizeof *d->held);
	d->total[0] = (double)c->total_cores;
	d->total[1] = (double)c->total_mem_mib;
	d->total[2] = (double)c->total_gpus * CLU_GPU_MILLI;
	d->indexed = !clu_plain_scan;
	int *per = xcalloc((size_t)(d->nent ? d->nent : 1), sizeof *per);
	for (int i = 0; i < sim_njobs(s); i++)
		if (++per[d->ent[i]] > 1)
			d->indexed = false; /* users share shares: the scan (a shortcut) */
	free(per);
	if (d->indexed) {
		pol_oset_init(&d->pool, nj);
		pol_wclasses_init(&d->cls, &d->pool);
		d->cls_of = xmalloc((size_t)nj * sizeof *d->cls_of);
		for (int i = 0; i < nj; i++)
			d->cls_of[i] = -1;
	}
	return d;
}

static double dominant(const struct drf *d, int e)
{
	double m = 0;
	for (int r = 0; r < 3; r++)
		if (d->total[r] > 0)
			m = fmax(m, d->alloc[e][r] / d->total[r]);
	return m;
}

/* Job j gets one executor at a time, or (rigid, a gang) all at once. */
static bool whole(const struct sim_job *j)
{
	return j->shape->rigid || j->shape->gang_role >= 0;
}

/* Job `job`, queued, into its class's set by (its share, job); out
 * first if in one (indexed only). */
static void unset(struct drf *d, int job)
{
	int k = d->indexed ? d->cls_of[job] : -1;
	if (k < 0)
		return;
	pol_oset_remove(&d->pool, &d->cls.c[k].root, job);
	pol_wclass_count(&d->cls, k, -1);
	d->cls_of[job] = -1;
}

static void reset(struct drf *d, const struct sim *s, int job)
{
	if (!d->indexed)
		return;
	unset(d, job);
	const struct sim_job *j = sim_job(s, job);
	int k = pol_wclass_of(&d->cls, j, !whole(j));
	double ds = dominant(d, d->ent[job]);
	int64_t bits;
	if (ds == 0)
		ds = 0; /* -0 reads as +0: the bits of a share >= 0 order as it does */
	memcpy(&bits, &ds, sizeof bits);
	pol_oset_insert(&d->pool, &d->cls.c[k].root, job, (struct pol_okey){bits, job, 0});
	pol_wclass_count(&d->cls, k, +1);
	d->cls_of[job] = k;
}

static void drf_arrived(void *st, struct sim *s, int job)
{
	struct drf *d = st;
	int why = pol_fits_arrived(&d->fits, s, sim_job(s, job));
	if (why) {
		sim_reject_job(s, job, why);
		return;
	}
	pol_jobset_add(&d->q, job);
	reset(d, s, job);
}

/* cores (milli), MiB, milli-GPUs into (sign 1) or out of (-1) job's and
 * its entity's shares. */
static void account(struct drf *d, int job, double cores, double mem, double gm, double sign)
{
	double *a = d->alloc[d->ent[job]], *h = d->held[job];
	a[0] += sign * cores, a[1] += sign * mem, a[2] += sign * gm;
	h[0] += sign * cores, h[1] += sign * mem, h[2] += sign * gm;
}

static void drf_finished(void *st, struct sim *s, int job)
{
	struct drf *d = st;
	(void)s;
	pol_jobset_remove(&d->q, job);
	unset(d, job);
	/* its executors are released: what it held leaves its entity's share */
	account(d, job, d->held[job][0], d->held[job][1], d->held[job][2], -1);
}


/* Launch what is tentatively placed for `job`, its entity charged. */
static void launch(struct drf *d, struct sim *s, int job)
{
	for (int i = 0; i < d->t.n; i++) {
		const struct pol_tent_exec *x = &d->t.e[i];
		account(d, job, x->cores, (double)x->mem_mib,
			x->gpu_milli ? x->gpu_milli : (double)x->gpus * CLU_GPU_MILLI, +1);
	}
	pol_tent_launch(&d->t, s, job);
}

/* The scan's choices through the classes.  Between two launches the
 * scan tries jobs in increasing (share, job) and a launch only raises
 * the winner's share, so its choices climb: every job below the last
 * one chosen was tried, and the next choice is the least job at or
 * after it, a k-way merge of the classes by their next job
 * (pol_wwalk_*), a class known not to fit passed over whole
 * (pol_wclass.h).  O(log waiting) a choice, plus O(c log waiting) a
 * decision, c the classes holding a job. */
static void choose_classes(struct drf *d, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	struct pol_okey cur = {INT64_MIN, INT64_MIN, 0};
	int best, bk;
	pol_wwalk_begin(&d->cls, c);
	while ((best = pol_wwalk_next(&d->cls, c, &cur, &bk)) >= 0) {
		cur = d->pool.key[best];
		const struct sim_job *j = sim_job(s, best);
		if (!pol_ff_place(&d->ff, s, j, whole(j) ? -1 : 1)) {
			cur.b++; /* past it: tried */
			pol_wwalk_failed(&d->cls, c, &cur, bk);
			continue;
		}
		launch(d, s, best);
		if (sim_execs_wanted(j) == 0) {
			pol_jobset_remove(&d->q, best);
			unset(d, best);
		} else {
			reset(d, s, best); /* its share rose: at or after cur */
		}
		pol_wwalk_launched(&d->cls, &cur, bk, d->cls_of[best]);
	}
	pol_wwalk_end(&d->cls, c);
}

static void drf_schedule(void *st, struct sim *s)
{
	struct drf *d = st;
	if (d->indexed) {
		choose_classes(d, s);
		return;
	}
	for (int job = pol_jobset_first(&d->q); job >= 0; job = pol_jobset_next(&d->q, job))
		d->tried[job] = false;
	for (;;) {
		/* the entity of the smallest dominant share with a job to try:
		 * its first such job (arrival order breaks ties) */
		int best = -1;
		double bs = 0;
		for (int job = pol_jobset_first(&d->q); job >= 0; job = pol_jobset_next(&d->q, job)) {
			if (d->tried[job])
				continue;
			double ds = dominant(d, d->ent[job]);
			if (best < 0 || ds < bs) {
				best = job;
				bs = ds;
			}
		}
		if (best < 0)
			return;
		const struct sim_job *j = sim_job(s, best);
		if (!pol_ff_place(&d->ff, s, j, whole(j) ? -1 : 1)) {
			d->tried[best] = true;
			continue;
		}
		launch(d, s, best);
		if (sim_execs_wanted(j) == 0)
			pol_jobset_remove(&d->q, best);
	}
}

/* A lost executor leaves its entity's share; its job wants a replacement. */
static void drf_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	struct drf *d = st;
	(void)s, (void)why;
	if (x->role >= 0) /* an AM is none of this policy's */
		account(d, job, x->cores, (double)x->mem_mib,
			x->gpu_milli ? x->gpu_milli : (double)x->gpus * CLU_GPU_MILLI, -1);
	pol_jobset_return(&d->q, job);
	reset(d, s, job); /* its share and its wants moved */
}

static void drf_fini(void *st)
{
	struct drf *d = st;
	pol_jobset_free(&d->q);
	pol_fits_free(&d->fits);
	pol_ff_free(&d->ff);
	pol_tent_fini(&d->t);
	free(d->ent), free(d->alloc), free(d->held), free(d->tried);
	if (d->indexed) {
		pol_oset_free(&d->pool);
		pol_wclasses_free(&d->cls);
		free(d->cls_of);
	}
	free(d);
}

static const struct pol_param drf_params[] = {{.key = NULL}};

const struct policy_ops pol_drf = {
	.name = "drf",
	.summary = "Dominant Resource Fairness: progressive filling by the smallest dominant "
		   "share (per application, or per user)",
	.params = drf_params,
	.uses_labels = false,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.init = drf_init,
	.job_arrived = drf_arrived,
	.job_finished = drf_finished,
	.schedule = drf_schedule,
	.fini = drf_fini,
	.exec_lost = drf_exec_lost,
	.can_ever_place = drf_can_ever_place,
};
