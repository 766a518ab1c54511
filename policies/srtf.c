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
 * Cost per decision: O(waiting log waiting + running x nodes).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "pol_firstfit.h"
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
	return p;
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
}

static void run_remove(struct srtf *p, int job)
{
	for (int i = 0; i < p->nrun; i++)
		if (p->run[i] == job) {
			p->run[i] = p->run[--p->nrun];
			return;
		}
}

static void srtf_finished(void *st, struct sim *s, int job)
{
	struct srtf *p = st;
	(void)s;
	pol_jobset_remove(&p->q, job);
	run_remove(p, job);
	p->since[job] = -1;
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
	p->since[job] = sim_now(s);
	for (int k = 0; k < p->nrun; k++)
		if (p->run[k] == job)
			return;
	xgrow(&p->run, &p->caprun, p->nrun + 1, sizeof *p->run);
	p->run[p->nrun++] = job;
}

static void srtf_schedule(void *st, struct sim *s)
{
	struct srtf *p = st;
	const struct clu *c = sim_cluster(s);
	int n = 0;
	for (int job = pol_jobset_first(&p->q); job >= 0; job = pol_jobset_next(&p->q, job))
		p->order[n++] = (struct kj){remaining(p, s, job), job};
	qsort(p->order, (size_t)n, sizeof *p->order, cmp_kj);
	for (int i = 0; i < n; i++) {
		int job = p->order[i].job;
		const struct sim_job *j = sim_job(s, job);
		if (pol_ff_place(&p->ff, s, j, -1)) {
			start(p, s, job);
			continue;
		}
		/* the shortest that does not fit: victims longer than it, the
		 * longest first, until it would fit */
		int64_t mine = p->order[i].key;
		pol_proj_free(c, p->pc, p->pm, p->pg);
		/* what jobs already being preempted will give back counts first */
		for (int k = 0; k < p->nrun; k++)
			if (p->going[p->run[k]])
				pol_proj_job(s, p->run[k], +1, p->pc, p->pm, p->pg);
		if (packs(p, s, j))
			break; /* it fits once they are gone: it waits for them */
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
				pol_preempt_job(s, vict[k].job);
			}
		free(vict);
		/* a preemption that costs nothing gives the resources back at
		 * once (sim_preempt_executor); one that costs, at its end, when
		 * the kernel decides again */
		if (fits && pol_ff_place(&p->ff, s, j, -1))
			start(p, s, job);
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
		run_remove(p, job);
		p->since[job] = -1;
		p->going[job] = false;
	}
	pol_jobset_return(&p->q, job);
}

static void srtf_fini(void *st)
{
	struct srtf *p = st;
	pol_jobset_free(&p->q);
	pol_fits_free(&p->fits);
	pol_ff_free(&p->ff);
	pol_tent_fini(&p->t);
	free(p->since), free(p->done), free(p->going), free(p->run), free(p->order);
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
