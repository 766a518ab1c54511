/* srtf.c - shortest remaining time first, preemptive.
 *
 * Jobs by their remaining time: a waiting job's its estimate
 * (sim_job_estimate: `estimate: actual`, the run time at speed 1, an
 * oracle, or `requested`, SWF field 9), a running job's its estimate
 * less the time since its executors were launched (its work so far).
 * At each decision the waiting jobs, shortest first, get all their
 * executors at once (first fit in node order) while they fit; the first
 * that does not fit may take the place of running jobs whose remaining
 * time is longer than its own: the longest first, as few as let it fit
 * (on a projection of the freed resources), each preempted whole (every
 * executor; the kernel stops its tasks: a job that resumes
 * (sim_job_resumes: a trace job, by default) keeps its work so far, and
 * its remaining time counts every run, while one that restarts loses
 * it, its remaining time its whole estimate again).  It starts once they are gone (at once where the
 * preemption costs nothing); the jobs behind it wait.  A job without an estimate has an infinite remaining time:
 * served last and preempted first (docs/policies/srtf.md).
 *
 * Cost per decision: O(log waiting) per job started (ordered sets,
 * pol_oset.h; executors through a node index, pol_firstfit.h, O(log64
 * nodes) each) plus O(d log d) for the d waiting jobs that still hold
 * executors; a miss that can preempt nothing (none being preempted, no
 * running job longer) O(log running), else O(nodes + running log
 * running).  clu_plain_scan (the reference): O(waiting log waiting +
 * running x nodes).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "pol_firstfit.h"
#include "pol_oset.h"
#include "registry.h"
#include "sim.h"
#include "util.h"

#define NO_END INT64_MAX

struct srtf {
	struct pol_jobset q;            /* waiting (wanting executors), by arrival */
	struct pol_fits fits;
	struct pol_tent t;
	struct pol_ff ff;                /* first fit through a node index */
	bool requested;
	int64_t *since;                 /* by job: when its current executors were
					   launched; -1 while it has none */
	int64_t *done;                  /* by job: its earlier runs' time, a job
					   that resumes (0 for one that restarts) */
	bool *going;                    /* by job: being preempted */
	int *run; int nrun, caprun;     /* jobs holding executors */
	int *runpos;                    /* by job: its place in run, -1 */
	int ngoing;                     /* jobs being preempted */
	/* indexed (not with clu_plain_scan, which sorts every waiting job at
	 * each decision and reads every running one at each miss): */
	bool indexed;
	struct pol_oset wpool;          /* waiting jobs that hold nothing, by
					   (remaining, job): a remaining time
					   that does not move while they wait */
	int wroot;
	int nord;                       /* of them, sorted in order at this
					   decision's start */
	int *dyn, ndyn, capdyn;         /* waiting jobs that hold executors
					   (lost some): their remaining time
					   runs down; few, sorted per decision */
	int8_t *where;                  /* by job: 0 none, 1 wpool, 2 dyn */
	int *dynpos;
	struct pol_oset rpool;          /* running jobs not being preempted, by
					   (estimate - work before + since, job):
					   their remaining time plus now */
	int rroot;
	bool *in_r;
	struct kj { int64_t key; int job; } *order; /* scratch: jobs by remaining time */
	int64_t *pc, *pm, *pg;          /* a projection by node */
};

static int64_t est(const struct srtf *p, const struct sim *s, const struct sim_job *j)
{
	int64_t req, act;
	sim_job_estimate(s, j, &req, &act);
	int64_t e = p->requested ? req : act;
	return e >= 0 ? e : NO_END;
}

static int64_t remaining(const struct srtf *p, const struct sim *s, int job)
{
	int64_t e = est(p, s, sim_job(s, job));
	if (e == NO_END)
		return e;
	int64_t r = e - p->done[job] - (p->since[job] >= 0 ? sim_now(s) - p->since[job] : 0);
	return r > 0 ? r : 0;
}

static void *srtf_init(struct sim *s, const struct scn_policy *cfg)
{
	struct srtf *p = xcalloc(1, sizeof *p);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1, n = sim_cluster(s)->n ? sim_cluster(s)->n : 1;
	pol_jobset_init(&p->q, sim_njobs(s));
	pol_fits_init(&p->fits, s, pol_whole_verdict, cfg);
	pol_tent_init(&p->t, sim_cluster(s)->n);
	pol_ff_init(&p->ff, s, &p->t);
	p->requested = strcmp(pol_param_value(&pol_srtf, cfg, "estimate"), "requested") == 0;
	p->since = xmalloc((size_t)nj * sizeof *p->since);
	for (int i = 0; i < nj; i++)
		p->since[i] = -1;
	p->done = xcalloc((size_t)nj, sizeof *p->done);
	p->going = xcalloc((size_t)nj, sizeof *p->going);
	p->order = xmalloc((size_t)nj * sizeof *p->order);
	p->pc = xmalloc((size_t)n * sizeof *p->pc);
	p->pm = xmalloc((size_t)n * sizeof *p->pm);
	p->pg = xmalloc((size_t)n * sizeof *p->pg);
	p->runpos = xmalloc((size_t)nj * sizeof *p->runpos);
	for (int i = 0; i < nj; i++)
		p->runpos[i] = -1;
	p->indexed = !clu_plain_scan;
	if (p->indexed) {
		pol_oset_init(&p->wpool, nj);
		pol_oset_init(&p->rpool, nj);
		p->wroot = p->rroot = -1;
		p->where = xcalloc((size_t)nj, sizeof *p->where);
		p->dynpos = xmalloc((size_t)nj * sizeof *p->dynpos);
		p->in_r = xcalloc((size_t)nj, sizeof *p->in_r);
	}
	return p;
}

/* Job `job`, queued, into the waiting structures by whether it holds
 * executors (indexed only). */
static void w_put(struct srtf *p, const struct sim *s, int job)
{
	if (!p->indexed || p->where[job])
		return;
	if (p->since[job] >= 0) {
		xgrow(&p->dyn, &p->capdyn, p->ndyn + 1, sizeof *p->dyn);
		p->dynpos[job] = p->ndyn;
		p->dyn[p->ndyn++] = job;
		p->where[job] = 2;
		return;
	}
	pol_oset_insert(&p->wpool, &p->wroot, job, (struct pol_okey){remaining(p, s, job), job, 0});
	p->where[job] = 1;
}

static void w_take(struct srtf *p, int job)
{
	if (!p->indexed || !p->where[job])
		return;
	if (p->where[job] == 1) {
		pol_oset_remove(&p->wpool, &p->wroot, job);
	} else {
		int last = p->dyn[--p->ndyn];
		p->dyn[p->dynpos[job]] = last;
		p->dynpos[last] = p->dynpos[job];
	}
	p->where[job] = 0;
}

/* The running set holds `job` iff it holds executors and is not being
 * preempted, keyed by its remaining time plus now (indexed only). */
static void r_sync(struct srtf *p, const struct sim *s, int job)
{
	if (!p->indexed)
		return;
	if (p->in_r[job]) {
		pol_oset_remove(&p->rpool, &p->rroot, job);
		p->in_r[job] = false;
	}
	if (p->runpos[job] < 0 || p->going[job])
		return;
	int64_t e = est(p, s, sim_job(s, job));
	int64_t k = e == NO_END ? INT64_MAX : e - p->done[job] + p->since[job];
	pol_oset_insert(&p->rpool, &p->rroot, job, (struct pol_okey){k, job, 0});
	p->in_r[job] = true;
}

static void srtf_arrived(void *st, struct sim *s, int job)
{
	struct srtf *p = st;
	int why = pol_fits_arrived(&p->fits, s, sim_job(s, job));
	if (why) {
		sim_reject_job(s, job, why);
		return;
	}
	pol_jobset_add(&p->q, job);
	w_put(p, s, job);
}

/* The last job into the removed one's place, as the scan of the list
 * did (the list's order counts nowhere: victims are sorted). */
static void run_remove(struct srtf *p, int job)
{
	int i = p->runpos[job];
	if (i < 0)
		return;
	int last = p->run[--p->nrun];
	p->run[i] = last;
	p->runpos[last] = i;
	p->runpos[job] = -1;
}

static void srtf_finished(void *st, struct sim *s, int job)
{
	struct srtf *p = st;
	pol_jobset_remove(&p->q, job);
	w_take(p, job);
	run_remove(p, job);
	p->since[job] = -1;
	if (p->going[job])
		p->going[job] = false, p->ngoing--;
	r_sync(p, s, job);
}


/* Whether j's wanted executors pack, first fit, on the projection. */
static bool packs(struct srtf *p, const struct sim *s, const struct sim_job *j)
{
	int n = sim_cluster(s)->n;
	int64_t *c = xmalloc((size_t)(n ? n : 1) * 3 * sizeof *c), *m = c + n, *g = m + n;
	memcpy(c, p->pc, (size_t)n * sizeof *c);
	memcpy(m, p->pm, (size_t)n * sizeof *m);
	memcpy(g, p->pg, (size_t)n * sizeof *g);
	bool ok = pol_proj_pack(s, j, c, m, g, NULL, false); /* on the copy */
	free(c);
	return ok;
}

/* Shorter remaining first; ties in arrival order. */
static int cmp_kj(const void *a, const void *b)
{
	const struct kj *x = a, *y = b;
	return x->key != y->key ? (x->key < y->key ? -1 : 1) : (x->job > y->job) - (x->job < y->job);
}

/* Launch the tentative executors of job. */
static void start(struct srtf *p, struct sim *s, int job)
{
	pol_tent_launch(&p->t, s, job);
	pol_jobset_remove(&p->q, job);
	w_take(p, job);
	p->since[job] = sim_now(s);
	if (p->runpos[job] < 0) {
		xgrow(&p->run, &p->caprun, p->nrun + 1, sizeof *p->run);
		p->runpos[job] = p->nrun;
		p->run[p->nrun++] = job;
	}
	r_sync(p, s, job);
}

/* The shortest waiting job `job` (remaining `mine`) does not fit:
 * victims longer than it, the longest first, until it would fit. */
static void miss(struct srtf *p, struct sim *s, int job, int64_t mine)
{
	const struct clu *c = sim_cluster(s);
	const struct sim_job *j = sim_job(s, job);
	if (p->indexed && p->ngoing == 0) {
		/* nothing given back yet, and no running job longer than it:
		 * the plan below would preempt nothing and start nothing */
		int top = pol_oset_last(&p->rpool, p->rroot);
		int64_t k = top >= 0 ? p->rpool.key[top].a : 0;
		if (top < 0 || (k == INT64_MAX ? mine == NO_END : k - sim_now(s) <= mine))
			return;
	}
	pol_proj_free(c, p->pc, p->pm, p->pg);
	/* what jobs already being preempted will give back counts first */
	for (int k = 0; k < p->nrun; k++)
		if (p->going[p->run[k]])
			pol_proj_job(s, p->run[k], +1, p->pc, p->pm, p->pg);
	if (packs(p, s, j))
		return; /* it fits once they are gone: it waits for them */
	int nv = 0;
	struct kj *vict = xmalloc((size_t)(p->nrun ? p->nrun : 1) * sizeof *vict);
	for (int k = 0; k < p->nrun; k++) {
		int r = p->run[k];
		int64_t rem = remaining(p, s, r);
		if (!p->going[r] && rem > mine)
			vict[nv++] = (struct kj){rem, r};
	}
	qsort(vict, (size_t)nv, sizeof *vict, cmp_kj); /* shortest first */
	int take = 0;
	bool fits = false;
	for (int k = nv - 1; k >= 0 && !fits; k--) { /* the longest first */
		pol_proj_job(s, vict[k].job, +1, p->pc, p->pm, p->pg);
		take++;
		fits = packs(p, s, j);
	}
	if (fits)
		for (int k = nv - 1; k >= nv - take; k--) {
			p->going[vict[k].job] = true;
			p->ngoing++;
			r_sync(p, s, vict[k].job);
			pol_preempt_job(s, vict[k].job);
		}
	free(vict);
	/* a preemption that costs nothing gives the resources back at
	 * once (sim_preempt_executor); one that costs, at its end, when
	 * the kernel decides again */
	if (fits && pol_ff_place(&p->ff, s, j, -1))
		start(p, s, job);
}

/* The waiting jobs in order through the sets: the next of the static
 * set at or after `cur`, or of the sorted running-down ones from *d. */
static int next_waiting(struct srtf *p, const struct pol_okey *cur, int *d, int64_t *key)
{
	int a = pol_oset_ceil(&p->wpool, p->wroot, cur);
	while (*d < p->nord && p->where[p->order[*d].job] != 2)
		(*d)++; /* started since: gone */
	if (*d < p->nord) {
		const struct kj *o = &p->order[*d];
		if (a < 0 || o->key < p->wpool.key[a].a ||
		    (o->key == p->wpool.key[a].a && o->job < a)) {
			(*d)++;
			*key = o->key;
			return o->job;
		}
	}
	if (a >= 0)
		*key = p->wpool.key[a].a;
	return a;
}

static void srtf_schedule(void *st, struct sim *s)
{
	struct srtf *p = st;
	if (p->indexed) {
		/* the running-down waiting jobs, by their remaining time now */
		int nd = p->ndyn;
		for (int i = 0; i < nd; i++)
			p->order[i] = (struct kj){remaining(p, s, p->dyn[i]), p->dyn[i]};
		qsort(p->order, (size_t)nd, sizeof *p->order, cmp_kj);
		p->nord = nd;
		struct pol_okey cur = {INT64_MIN, INT64_MIN, 0};
		int d = 0;
		for (;;) {
			int64_t mine;
			int job = next_waiting(p, &cur, &d, &mine);
			if (job < 0)
				return;
			cur = (struct pol_okey){mine, job + 1, 0};
			if (pol_ff_place(&p->ff, s, sim_job(s, job), -1)) {
				start(p, s, job);
				continue;
			}
			miss(p, s, job, mine);
			return; /* the rest wait behind it */
		}
	}
	int n = 0;
	for (int job = pol_jobset_first(&p->q); job >= 0; job = pol_jobset_next(&p->q, job))
		p->order[n++] = (struct kj){remaining(p, s, job), job};
	qsort(p->order, (size_t)n, sizeof *p->order, cmp_kj);
	for (int i = 0; i < n; i++) {
		int job = p->order[i].job;
		if (pol_ff_place(&p->ff, s, sim_job(s, job), -1)) {
			start(p, s, job);
			continue;
		}
		miss(p, s, job, p->order[i].key);
		break; /* the rest wait behind it */
	}
}

/* A preempted (or lost) executor: its job waits again, its work kept if
 * it resumes, else lost. */
static void srtf_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	struct srtf *p = st;
	(void)x;
	const struct sim_job *j = sim_job(s, job);
	if (j->live->execs_live == 0) {
		if (p->since[job] >= 0 && why == SIM_WHY_PREEMPTED && sim_job_resumes(s, j))
			p->done[job] += sim_now(s) - p->since[job];
		w_take(p, job); /* it holds nothing now: its key stops */
		run_remove(p, job);
		p->since[job] = -1;
		if (p->going[job])
			p->going[job] = false, p->ngoing--;
		r_sync(p, s, job);
	}
	pol_jobset_return(&p->q, job);
	w_put(p, s, job);
}

static void srtf_fini(void *st)
{
	struct srtf *p = st;
	pol_jobset_free(&p->q);
	pol_fits_free(&p->fits);
	pol_ff_free(&p->ff);
	pol_tent_fini(&p->t);
	free(p->since), free(p->done), free(p->going), free(p->run), free(p->order);
	free(p->runpos);
	if (p->indexed) {
		pol_oset_free(&p->wpool);
		pol_oset_free(&p->rpool);
		free(p->where), free(p->dynpos), free(p->dyn), free(p->in_r);
	}
	free(p->pc), free(p->pm), free(p->pg);
	free(p);
}

static const char *const estimates[] = {"actual", "requested", NULL};

static const struct pol_param srtf_params[] = {
	{.key = "estimate", .type = POL_CHOICE, .choices = estimates, .def = "actual",
	 .help = "the run time: actual (an oracle) or requested (SWF field 9); none: "
		 "infinite"},
	{.key = NULL},
};

const struct policy_ops pol_srtf = {
	.name = "srtf",
	.summary = "shortest remaining time first, preemptive: a shorter job takes the place "
		   "of longer running ones",
	.params = srtf_params,
	.uses_labels = false,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.needs = POL_NEED_ESTIMATES | POL_NEED_PREEMPTION,
	.init = srtf_init,
	.job_arrived = srtf_arrived,
	.job_finished = srtf_finished,
	.schedule = srtf_schedule,
	.fini = srtf_fini,
	.exec_lost = srtf_exec_lost,
	.can_ever_place = pol_whole_verdict,
};
