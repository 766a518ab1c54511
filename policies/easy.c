/* easy.c - EASY backfilling (Lifka 1995; Mu'alem & Feitelson, TPDS 2001).
 *
 * Jobs in arrival order, each given all its executors at once (first fit
 * in node order, as fifo).  When the head does not fit, it gets a
 * reservation: the *shadow time*, the earliest time at which it would
 * fit were the running jobs to end when their estimates say, and the
 * *extra* resources, what would be left at the shadow time once it is
 * placed.  A job behind it may start now (backfill) if it fits now and
 * either ends by the shadow time by its estimate or takes only extra
 * resources, so that the head starts no later than its shadow time when
 * the estimates hold.
 *
 * Estimates (sim_job_estimate): the job's requested time (SWF field 9)
 * where it has one, else by `fallback`: `actual`, the run time at speed 1
 * (perfect estimates) times `factor`, or `none`, unknown; a job with no
 * estimate runs for ever in the projection.  A running job is expected
 * to end at its launch + the executor start-up + its estimate, and one
 * past that (an estimate too short: hetsim does not kill jobs at their
 * requested time) at once, as though it were about to.
 *
 * The projection (shadow and extra) counts, per node, milli-cores,
 * memory and milli-GPUs, a whole GPU 1000: exact for whole GPUs; a share
 * is checked against the node's sum, not GPU by GPU (the placement now
 * is exact: pol_tent).  Labels are ignored, as by fifo.
 *
 * Cost per schedule call: O(queue x executors x nodes) with the head
 * blocked (every queued job is tried), plus O(running x log running)
 * for the shadow; the call returns at once when the cluster and the
 * queue's head are as at the last call that decided nothing
 * (docs/policies/easy.md).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "registry.h"
#include "sim.h"
#include "util.h"

#define NO_END INT64_MAX

enum { FB_ACTUAL, FB_NONE };
static const char *const fallbacks[] = {"actual", "none", NULL};

struct run {
	int job;
	int64_t end_us;   /* expected end (NO_END: unknown) */
};

struct easy {
	struct pol_jobset q;
	struct pol_fits fits;
	struct pol_tent t;
	int fallback;
	double factor;
	int64_t startup_us;
	struct run *run; int nrun, caprun;   /* launched jobs, not ended */
	int *run_at;                          /* by job: index in run, -1 */
	int64_t *pc, *pm, *pg;                /* projection by node: milli-cores,
						 MiB, milli-GPUs */
	int64_t *lc, *lm, *lg;                /* the extra resources by node */
	uint64_t idle_at;                     /* cluster change count of the last
						 call that launched nothing */
	int idle_head, idle_n;                /* its head and queue length */
	int64_t idle_now;
	long long backfilled;                 /* jobs started out of order */
	int nqueued;                          /* arrivals and returns so far */
};

/* A job's estimate, µs: NO_END where there is none. */
static int64_t estimate(const struct easy *e, const struct sim *s, const struct sim_job *j)
{
	int64_t req, act;
	sim_job_estimate(s, j, &req, &act);
	if (req >= 0)
		return req;
	if (e->fallback == FB_ACTUAL && act >= 0)
		return (int64_t)llround((double)act * e->factor);
	return NO_END;
}

static int64_t add_sat(int64_t a, int64_t b)
{
	return a == NO_END || b == NO_END || a > NO_END - b ? NO_END : a + b;
}

static void *easy_init(struct sim *s, const struct scn_policy *cfg)
{
	struct easy *e = xcalloc(1, sizeof *e);
	int n = sim_cluster(s)->n;
	pol_jobset_init(&e->q, sim_njobs(s));
	pol_fits_init(&e->fits, s, pol_whole_verdict, cfg);
	pol_tent_init(&e->t, n);
	e->fallback = strcmp(pol_param_value(&pol_easy, cfg, "fallback"), "none") == 0 ? FB_NONE
										      : FB_ACTUAL;
	e->factor = pol_param_num(&pol_easy, cfg, "factor");
	e->startup_us = sim_scenario(s)->over.executor_startup_us;
	e->run_at = xmalloc((size_t)(sim_njobs(s) ? sim_njobs(s) : 1) * sizeof *e->run_at);
	for (int i = 0; i < sim_njobs(s); i++)
		e->run_at[i] = -1;
	int64_t **arr[] = {&e->pc, &e->pm, &e->pg, &e->lc, &e->lm, &e->lg};
	for (size_t k = 0; k < ARRAY_LEN(arr); k++)
		*arr[k] = xcalloc((size_t)(n ? n : 1), sizeof **arr[k]);
	e->idle_head = -1;
	return e;
}

static void easy_arrived(void *st, struct sim *s, int job)
{
	struct easy *e = st;
	int why = pol_fits_arrived(&e->fits, s, sim_job(s, job));
	if (why) {
		sim_reject_job(s, job, why);
		return;
	}
	pol_jobset_add(&e->q, job);
	e->nqueued++;
}

static void run_remove(struct easy *e, int job)
{
	int i = e->run_at[job];
	if (i < 0)
		return;
	e->run[i] = e->run[--e->nrun];
	e->run_at[e->run[i].job] = i;
	e->run_at[job] = -1;
}

static void easy_finished(void *st, struct sim *s, int job)
{
	struct easy *e = st;
	(void)s;
	pol_jobset_remove(&e->q, job);
	run_remove(e, job);
}

/* Whether node i's extra resources hold an executor of these. */
static bool in_extra(const struct easy *e, int i, int64_t cores, int64_t mem, int64_t gm)
{
	return e->lc[i] >= cores && e->lm[i] >= mem && e->lg[i] >= gm;
}

/* Give back to the extra resources what the tentative placement took
 * from them (a placement within them that failed part way). */
static void extra_undo(struct easy *e)
{
	const struct pol_tent *t = &e->t;
	for (int i = 0; i < t->n; i++) {
		const struct pol_tent_exec *x = &t->e[i];
		e->lc[x->node] += x->cores;
		e->lm[x->node] += x->mem_mib;
		e->lg[x->node] += x->gpu_milli ? x->gpu_milli : (int64_t)x->gpus * CLU_GPU_MILLI;
	}
}

/* Tentatively place every executor j still wants, first fit in node
 * order on what is free now (extra: and within the extra resources, lc,
 * lm, lg); false if one does not fit. */
static bool place_now(struct easy *e, const struct sim *s, const struct sim_job *j, bool extra)
{
	const struct clu *c = sim_cluster(s);
	pol_tent_reset(&e->t);
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int cores = ro->cores ? ro->cores : CLU_MILLI, milli = ro->gpus ? 0 : ro->gpu_milli;
		for (int k = j->live->granted[r]; k < ro->count; k++) {
			int node = -1;
			for (int i = 0; i < c->n && node < 0; i++) {
				int fc, fg;
				int64_t fm;
				pol_tent_free(&e->t, &c->nodes[i], &fc, &fm, &fg);
				if (fc >= cores && fm >= ro->mem_mib && fg >= ro->gpus &&
				    (!milli || pol_share_pick(&e->t, &c->nodes[i], milli) >= 0) &&
				    (!extra || in_extra(e, i, cores, ro->mem_mib,
							milli ? milli : (int64_t)ro->gpus * CLU_GPU_MILLI)))
					node = i;
			}
			if (node < 0)
				return false;
			if (milli)
				pol_tent_add_share(&e->t, &c->nodes[node], r, cores, ro->mem_mib, milli);
			else
				pol_tent_add(&e->t, node, r, cores, ro->mem_mib, ro->gpus);
			if (extra) {
				e->lc[node] -= cores;
				e->lm[node] -= ro->mem_mib;
				e->lg[node] -= milli ? milli : (int64_t)ro->gpus * CLU_GPU_MILLI;
			}
		}
	}
	return true;
}

static void launch(struct easy *e, struct sim *s, int job, bool backfill)
{
	const struct sim_job *j = sim_job(s, job);
	pol_tent_launch(&e->t, s, job);
	pol_jobset_remove(&e->q, job);
	if (e->run_at[job] < 0) {
		xgrow(&e->run, &e->caprun, e->nrun + 1, sizeof *e->run);
		e->run_at[job] = e->nrun++;
	}
	e->run[e->run_at[job]] = (struct run){
		job, add_sat(sim_now(s) + e->startup_us, estimate(e, s, j))};
	e->backfilled += backfill;
}

/* First fit of job j's wanted executors on the projection (pc, pm, pg),
 * taking them from it; false (the projection partly taken) if one does
 * not fit. */
static bool pack_projected(struct easy *e, const struct clu *c, const struct sim_job *j)
{
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int64_t cores = ro->cores ? ro->cores : CLU_MILLI;
		int64_t gm = ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli;
		for (int k = j->live->granted[r]; k < ro->count; k++) {
			int node = -1;
			for (int i = 0; i < c->n && node < 0; i++)
				if (e->pc[i] >= cores && e->pm[i] >= ro->mem_mib && e->pg[i] >= gm)
					node = i;
			if (node < 0)
				return false;
			e->pc[node] -= cores;
			e->pm[node] -= ro->mem_mib;
			e->pg[node] -= gm;
		}
	}
	return true;
}

static int cmp_run(const void *a, const void *b)
{
	const struct run *x = a, *y = b;
	return x->end_us < y->end_us ? -1 : x->end_us > y->end_us ? 1 : x->job - y->job;
}

/* The head's reservation: its shadow time (NO_END: never, by the
 * estimates), the extra resources into lc, lm, lg. */
static int64_t shadow(struct easy *e, struct sim *s, const struct sim_job *head)
{
	const struct clu *c = sim_cluster(s);
	int64_t now = sim_now(s);
	for (int i = 0; i < c->n; i++) {
		const struct clu_node *n = &c->nodes[i];
		e->pc[i] = n->cores_free > 0 ? n->cores_free : 0;
		e->pm[i] = n->mem_free;
		e->pg[i] = pol_gpu_milli_free(NULL, n);
	}
	struct run *order = xmalloc((size_t)(e->nrun ? e->nrun : 1) * sizeof *order);
	if (e->nrun)
		memcpy(order, e->run, (size_t)e->nrun * sizeof *order);
	for (int i = 0; i < e->nrun; i++)
		if (order[i].end_us < now)
			order[i].end_us = now; /* past its estimate: about to end */
	qsort(order, (size_t)e->nrun, sizeof *order, cmp_run);
	int64_t when = NO_END;
	int64_t *sc = e->lc, *sm = e->lm, *sg = e->lg; /* the projection before a try */
	for (int k = 0; k < e->nrun && when == NO_END; k++) {
		if (order[k].end_us == NO_END)
			break;
		pol_proj_job(s, order[k].job, +1, e->pc, e->pm, e->pg);
		/* ends at the same time release together */
		if (k + 1 < e->nrun && order[k + 1].end_us == order[k].end_us)
			continue;
		memcpy(sc, e->pc, (size_t)c->n * sizeof *sc);
		memcpy(sm, e->pm, (size_t)c->n * sizeof *sm);
		memcpy(sg, e->pg, (size_t)c->n * sizeof *sg);
		if (pack_projected(e, c, head)) {
			when = order[k].end_us;
			memcpy(e->lc, e->pc, (size_t)c->n * sizeof *sc);
			memcpy(e->lm, e->pm, (size_t)c->n * sizeof *sm);
			memcpy(e->lg, e->pg, (size_t)c->n * sizeof *sg);
		} else {
			memcpy(e->pc, sc, (size_t)c->n * sizeof *sc);
			memcpy(e->pm, sm, (size_t)c->n * sizeof *sm);
			memcpy(e->pg, sg, (size_t)c->n * sizeof *sg);
		}
	}
	free(order);
	return when;
}

static void easy_schedule(void *st, struct sim *s)
{
	struct easy *e = st;
	const struct clu *c = sim_cluster(s);
	int head = pol_jobset_first(&e->q);
	while (head >= 0 && place_now(e, s, sim_job(s, head), false)) {
		launch(e, s, head, false);
		head = pol_jobset_first(&e->q);
	}
	if (head < 0)
		return;
	/* nothing new since the last call that decided nothing: the same
	 * free amounts, head, queue and time give the same answer */
	if (c->changes == e->idle_at && head == e->idle_head && e->nqueued == e->idle_n &&
	    sim_now(s) == e->idle_now)
		return;
	int64_t now = sim_now(s), when = shadow(e, s, sim_job(s, head));
	bool any = false;
	for (int job = pol_jobset_next(&e->q, head); job >= 0;) {
		int next = pol_jobset_next(&e->q, job);
		const struct sim_job *j = sim_job(s, job);
		/* by the shadow time by its estimate, anywhere it fits now; else
		 * only on the extra resources (taken from them) */
		int64_t end = add_sat(now + e->startup_us, estimate(e, s, j));
		bool early = when == NO_END || end <= when;
		if (place_now(e, s, j, !early)) {
			launch(e, s, job, true);
			any = true;
		} else if (!early) {
			extra_undo(e);
		}
		job = next;
	}
	if (!any) {
		e->idle_at = c->changes;
		e->idle_head = head;
		e->idle_n = e->nqueued;
		e->idle_now = now;
	}
}

/* A job that lost an executor asks for a replacement: back in the queue
 * by arrival (its other executors stay, expected to end as before). */
static void easy_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	(void)s, (void)x, (void)why;
	struct easy *e = st;
	pol_jobset_return(&e->q, job);
	e->nqueued++;
}

static void easy_fini(void *st)
{
	struct easy *e = st;
	pol_jobset_free(&e->q);
	pol_fits_free(&e->fits);
	pol_tent_fini(&e->t);
	free(e->run);
	free(e->run_at);
	free(e->pc), free(e->pm), free(e->pg), free(e->lc), free(e->lm), free(e->lg);
	free(e);
}

static const struct pol_param easy_params[] = {
	{.key = "fallback", .type = POL_CHOICE, .choices = fallbacks, .def = "actual",
	 .help = "a job without a requested time: its actual run time x factor, or none "
		 "(unknown: it never ends in the projection)"},
	{.key = "factor", .type = POL_NUM, .def = "1", .lo = 1, .hi = 1000, .def_num = 1,
	 .help = "the fallback's multiple of the actual run time (1: perfect estimates)"},
	{.key = NULL},
};

const struct policy_ops pol_easy = {
	.name = "easy",
	.summary = "EASY backfilling: arrival order, the head reserved at its shadow time, "
		   "later jobs backfill around it",
	.params = easy_params,
	.uses_labels = false,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.needs = POL_NEED_ESTIMATES,
	.init = easy_init,
	.job_arrived = easy_arrived,
	.job_finished = easy_finished,
	.schedule = easy_schedule,
	.fini = easy_fini,
	.exec_lost = easy_exec_lost,
	.can_ever_place = pol_whole_verdict,
};
