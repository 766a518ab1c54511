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
 * past that (an estimate too short, where the trace neither caps nor
 * kills at the request: docs/traces.md) at once, as though it were about
 * to.  count: pool and passes: event are EASY as published (below).
 *
 * The projection (shadow and extra) counts, per node, milli-cores,
 * memory and milli-GPUs, a whole GPU 1000: exact for whole GPUs; a share
 * is checked against the node's sum, not GPU by GPU (the placement now
 * is exact: pol_tent).  Labels are ignored, as by fifo.
 *
 * count: pool counts the reservation in amounts of the whole cluster,
 * the processors of one pool of the published EASY (pyss,
 * schedulers/easy_backfill_scheduler.py in dinesh121991/predictsim);
 * passes: event replays an instant's arrivals and ends one by one in
 * pyss's order, a pass after each (schedule_events).
 *
 * Cost per schedule call (count: nodes, passes: instant; docs/policies/
 * easy.md): the head's first fit through pol_ix, O(executors x log64
 * nodes).  With the head blocked and no running job expected to end (no
 * estimates: every job model but trace), no shadow time is computed and
 * the backfill visits only the jobs of the shapes that have not failed
 * since the last launch (pol_fitq): O((launches + 1) x shapes) tries of
 * O(executors x log64 nodes).  Else O(nodes + running x log running +
 * releases x executors x nodes) for the shadow time and the walk of the
 * queue, each job O(executors x log64 nodes) (early) or O(executors x
 * nodes) (on the extra resources: only for a job whose first executor
 * fits some node now, pol_ff_can_start, which past the index's shapes
 * reads only the nodes changed since the job's last miss), stopped once
 * no core is free.  The
 * call returns at once when the cluster and the queue's head are as at
 * the last call that decided nothing.  count: pool and passes: event,
 * and every variant under clu_plain_scan (the tests' reference): the
 * walk of every queued job, O(queue x executors x nodes), plus
 * O(running x log running) for the shadow.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "pol_fitq.h"
#include "registry.h"
#include "sim.h"
#include "util.h"

#define NO_END INT64_MAX

enum { FB_ACTUAL, FB_NONE };
static const char *const fallbacks[] = {"actual", "none", NULL};
static const char *const counts[] = {"nodes", "pool", NULL};
static const char *const passes[] = {"instant", "event", NULL};

/* An amount of each resource: milli-cores, MiB, milli-GPUs (a whole GPU
 * CLU_GPU_MILLI). */
struct amt {
	int64_t c, m, g;
};

struct run {
	int job;
	int64_t end_us;   /* expected end (NO_END: unknown) */
	uint64_t seq;     /* launch order (passes: event orders same-instant ends) */
	struct amt held;  /* count: pool: what its executors hold */
};

struct easy {
	struct pol_jobset q;
	struct pol_fits fits;
	struct pol_tent t;
	int fallback;
	double factor;
	bool pool;                            /* count: pool */
	bool events;                          /* passes: event */
	int64_t startup_us;
	uint64_t nlaunch;                     /* launches so far (run.seq) */
	int *arr; int narr, caparr;           /* passes: event: arrivals of the
						 instant, in order */
	struct run *ends; int nends, capends; /* ... its ends, as they ran */
	struct amt freev;                     /* count: pool: the free amounts
						 as the pass in progress sees them */
	struct run *run; int nrun, caprun;   /* launched jobs, not ended */
	int *run_at;                          /* by job: index in run, -1 */
	int nfin;                             /* of them, those expected to end
						 (end_us not NO_END) */
	bool fast;                            /* count: nodes, passes: instant,
						 not clu_plain_scan: the queue
						 also by shape, first fit through
						 an index (else every pass the
						 reference's) */
	struct pol_fitq fq;
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
	e->pool = strcmp(pol_param_value(&pol_easy, cfg, "count"), "pool") == 0;
	e->events = strcmp(pol_param_value(&pol_easy, cfg, "passes"), "event") == 0;
	e->startup_us = sim_scenario(s)->over.executor_startup_us;
	e->run_at = xmalloc((size_t)(sim_njobs(s) ? sim_njobs(s) : 1) * sizeof *e->run_at);
	for (int i = 0; i < sim_njobs(s); i++)
		e->run_at[i] = -1;
	int64_t **arr[] = {&e->pc, &e->pm, &e->pg, &e->lc, &e->lm, &e->lg};
	for (size_t k = 0; k < ARRAY_LEN(arr); k++)
		*arr[k] = xcalloc((size_t)(n ? n : 1), sizeof **arr[k]);
	e->idle_head = -1;
	e->fast = !clu_plain_scan && !e->pool && !e->events;
	if (e->fast)
		pol_fitq_init(&e->fq, s, &e->t);
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
	if (e->events) { /* queued in its turn (easy_schedule) */
		xgrow(&e->arr, &e->caparr, e->narr + 1, sizeof *e->arr);
		e->arr[e->narr++] = job;
		return;
	}
	pol_jobset_add(&e->q, job);
	if (e->fast)
		pol_fitq_add(&e->fq, sim_job(s, job), job);
	e->nqueued++;
}

static void run_remove(struct easy *e, int job)
{
	int i = e->run_at[job];
	if (i < 0)
		return;
	e->nfin -= e->run[i].end_us != NO_END;
	e->run[i] = e->run[--e->nrun];
	e->run_at[e->run[i].job] = i;
	e->run_at[job] = -1;
}

static void easy_finished(void *st, struct sim *s, int job)
{
	struct easy *e = st;
	pol_jobset_remove(&e->q, job);
	if (e->fast)
		pol_fitq_remove(&e->fq, sim_job(s, job), job);
	if (e->events && e->run_at[job] >= 0) { /* its end comes in its turn */
		xgrow(&e->ends, &e->capends, e->nends + 1, sizeof *e->ends);
		e->ends[e->nends++] = e->run[e->run_at[job]];
	}
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
	if (e->fast && !extra) /* the same first fit, through an index */
		return pol_fitq_fits(&e->fq, s, j);
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
				pol_work.easy_extra_tests += extra;
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

/* count: pool: what job j's executors hold, or what those it still
 * wants would (want). */
static struct amt job_held(struct sim *s, const struct sim_job *j)
{
	struct amt a = {0, 0, 0};
	for (int x = 0; x < sim_job_nexecs(j); x++) {
		const struct sim_exec *ex = sim_job_exec(s, j, x);
		if (!ex || !ex->live)
			continue;
		a.c += ex->cores;
		a.m += ex->mem_mib;
		a.g += ex->gpu_milli ? ex->gpu_milli : (int64_t)ex->gpus * CLU_GPU_MILLI;
	}
	return a;
}

static struct amt job_want(const struct sim_job *j)
{
	struct amt a = {0, 0, 0};
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int64_t k = ro->count - j->live->granted[r];
		a.c += k * (ro->cores ? ro->cores : CLU_MILLI);
		a.m += k * ro->mem_mib;
		a.g += k * (ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli);
	}
	return a;
}

static bool amt_le(struct amt a, struct amt b)
{
	return a.c <= b.c && a.m <= b.m && a.g <= b.g;
}

static void amt_add(struct amt *a, struct amt b, int64_t sign)
{
	a->c += sign * b.c;
	a->m += sign * b.m;
	a->g += sign * b.g;
}

static void launch(struct easy *e, struct sim *s, int job, bool backfill)
{
	const struct sim_job *j = sim_job(s, job);
	if (e->pool)
		amt_add(&e->freev, job_want(j), -1);
	pol_tent_launch(&e->t, s, job);
	pol_jobset_remove(&e->q, job);
	if (e->fast)
		pol_fitq_remove(&e->fq, j, job);
	if (e->run_at[job] < 0) {
		xgrow(&e->run, &e->caprun, e->nrun + 1, sizeof *e->run);
		e->run_at[job] = e->nrun++;
	} else {
		e->nfin -= e->run[e->run_at[job]].end_us != NO_END;
	}
	struct amt held = {0, 0, 0};
	if (e->pool)
		held = job_held(s, j);
	e->run[e->run_at[job]] = (struct run){
		job, add_sat(sim_now(s) + e->startup_us, estimate(e, s, j)), ++e->nlaunch, held};
	e->nfin += e->run[e->run_at[job]].end_us != NO_END;
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
	if (e->fast && !e->nfin)
		return NO_END; /* no running job expected to end: no release */
	pol_proj_free(c, e->pc, e->pm, e->pg);
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

/* count: pool: the cluster's free amounts, summed over its nodes. */
static struct amt cluster_free(const struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	struct amt a = {0, 0, 0};
	for (int i = 0; i < c->n; i++) {
		const struct clu_node *n = &c->nodes[i];
		a.c += n->cores_free > 0 ? n->cores_free : 0;
		a.m += n->mem_free;
		a.g += pol_gpu_milli_free(NULL, n);
	}
	return a;
}

static int cmp_seq(const void *a, const void *b)
{
	const struct run *x = a, *y = b;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* count: pool: the head's shadow time, when the running jobs and the
 * ends of this instant not yet taken (e->ends[from..], passes: event)
 * give back what they hold as their estimates say, and the extra
 * amounts at it into *extra. */
static int64_t shadow_pool(struct easy *e, struct sim *s, struct amt want, int from,
			   struct amt *extra)
{
	int64_t now = sim_now(s);
	struct run *order = xmalloc((size_t)(e->nrun + e->nends + 1) * sizeof *order);
	int n = e->nrun;
	if (n)
		memcpy(order, e->run, (size_t)n * sizeof *order);
	for (int k = from; k < e->nends; k++)
		if (e->ends[k].end_us > now)
			order[n++] = e->ends[k];
	for (int i = 0; i < n; i++)
		if (order[i].end_us < now)
			order[i].end_us = now; /* past its estimate: about to end */
	qsort(order, (size_t)n, sizeof *order, cmp_run);
	struct amt p = e->freev;
	int64_t when = NO_END;
	for (int k = 0; k < n && when == NO_END && order[k].end_us != NO_END; k++) {
		amt_add(&p, order[k].held, +1);
		if (k + 1 < n && order[k + 1].end_us == order[k].end_us)
			continue; /* ends at the same time release together */
		if (amt_le(want, p)) {
			when = order[k].end_us;
			*extra = p;
			amt_add(extra, want, -1);
		}
	}
	free(order);
	return when;
}

/* count: pool: one pass, on the free amounts e->freev: the queue's head
 * and those after it while they fit, then the head's reservation and
 * the backfill, every amount counted over the whole cluster (a job that
 * fits by amount but on no node now stays queued: first fit places it). */
static void pass_pool(struct easy *e, struct sim *s, int from)
{
	int head = pol_jobset_first(&e->q);
	while (head >= 0 && amt_le(job_want(sim_job(s, head)), e->freev) &&
	       place_now(e, s, sim_job(s, head), false)) {
		launch(e, s, head, false);
		head = pol_jobset_first(&e->q);
	}
	if (head < 0)
		return;
	struct amt extra = {0, 0, 0};
	int64_t now = sim_now(s), when = shadow_pool(e, s, job_want(sim_job(s, head)), from, &extra);
	for (int job = pol_jobset_next(&e->q, head); job >= 0;) {
		int next = pol_jobset_next(&e->q, job);
		const struct sim_job *j = sim_job(s, job);
		struct amt w = job_want(j);
		int64_t end = add_sat(now + e->startup_us, estimate(e, s, j));
		bool early = when == NO_END || end <= when;
		if (amt_le(w, e->freev) && (early || amt_le(w, extra)) && place_now(e, s, j, false)) {
			launch(e, s, job, true);
			if (!early)
				amt_add(&extra, w, -1);
		}
		job = next;
	}
}

/* passes: event: the instant's events one by one, as the published
 * simulator takes them (pyss, schedulers/simulator.py and
 * base/prototype.py, JobEvent.EVENTS_ORDER: submissions, then
 * terminations, each in the order it was made): each arrival joins the
 * queue and, if it fits now, a pass follows; then each end, in launch
 * order, gives back what it held (one that ended before its estimate
 * held it until its turn; one that reached its estimate is free from
 * the instant's start, as pyss's CpuSnapshot counts it) and a pass
 * follows. */
static void schedule_events(struct easy *e, struct sim *s)
{
	int64_t now = sim_now(s);
	e->freev = cluster_free(s);
	for (int k = 0; k < e->nends; k++)
		if (e->ends[k].end_us > now)
			amt_add(&e->freev, e->ends[k].held, -1);
	if (e->nends)
		qsort(e->ends, (size_t)e->nends, sizeof *e->ends, cmp_seq);
	bool any = e->narr || e->nends;
	for (int i = 0; i < e->narr; i++) {
		int job = e->arr[i];
		pol_jobset_add(&e->q, job);
		e->nqueued++;
		if (amt_le(job_want(sim_job(s, job)), e->freev))
			pass_pool(e, s, 0);
	}
	for (int k = 0; k < e->nends; k++) {
		if (e->ends[k].end_us > now)
			amt_add(&e->freev, e->ends[k].held, +1);
		pass_pool(e, s, k + 1);
	}
	if (!any) /* a call for another reason: one pass */
		pass_pool(e, s, 0);
	e->narr = e->nends = 0;
}

/* The backfill when the head has no shadow time (no running job is
 * expected to end): every job after the head is early, and starts if it
 * fits now, anywhere; pol_fitq skips the tries that would fail again.
 * Whether any started. */
static bool backfill_now(struct easy *e, struct sim *s, int head)
{
	bool any = false;
	pol_fitq_begin(&e->fq, pol_jobset_next(&e->q, head));
	for (int job; (job = pol_fitq_next(&e->fq)) >= 0;) {
		const struct sim_job *j = sim_job(s, job);
		if (!pol_fitq_fits(&e->fq, s, j)) {
			pol_fitq_failed(&e->fq, j, job);
			continue;
		}
		launch(e, s, job, true);
		pol_fitq_launched(&e->fq);
		any = true;
	}
	return any;
}

static void easy_schedule(void *st, struct sim *s)
{
	struct easy *e = st;
	if (e->events) {
		schedule_events(e, s);
		return;
	}
	if (e->pool) {
		e->freev = cluster_free(s);
		pass_pool(e, s, 0);
		return;
	}
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
	int walk = pol_jobset_next(&e->q, head);
	if (e->fast && when == NO_END) { /* every job early: it starts if it fits now */
		any = backfill_now(e, s, head);
		walk = -1;
	}
	/* fast: once no core is free no job fits now (each asks at least a
	 * milli-core), and a try that fails changes nothing: stop there */
	for (int job = walk; job >= 0 && (!e->fast || c->free_cores > 0);) {
		int next = pol_jobset_next(&e->q, job);
		const struct sim_job *j = sim_job(s, job);
		/* by the shadow time by its estimate, anywhere it fits now; else
		 * only on the extra resources (taken from them) */
		int64_t end = add_sat(now + e->startup_us, estimate(e, s, j));
		bool early = when == NO_END || end <= when;
		pol_work.easy_extra += !early;
		/* fast, on the extra resources: a job whose first executor fits
		 * no node now fails there at once, found without the scan */
		if (!early && e->fast && !pol_ff_can_start(&e->fq.ff, s, j)) {
			job = next;
			continue;
		}
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
	(void)x, (void)why;
	struct easy *e = st;
	pol_jobset_return(&e->q, job);
	if (e->fast)
		pol_fitq_add(&e->fq, sim_job(s, job), job);
	e->nqueued++;
}

static void easy_fini(void *st)
{
	struct easy *e = st;
	pol_jobset_free(&e->q);
	pol_fits_free(&e->fits);
	pol_tent_fini(&e->t);
	if (e->fast)
		pol_fitq_free(&e->fq);
	free(e->run);
	free(e->run_at);
	free(e->arr);
	free(e->ends);
	free(e->pc), free(e->pm), free(e->pg), free(e->lc), free(e->lm), free(e->lg);
	free(e);
}

static const struct pol_param easy_params[] = {
	{.key = "fallback", .type = POL_CHOICE, .choices = fallbacks, .def = "actual",
	 .help = "a job without a requested time: its actual run time x factor, or none "
		 "(unknown: it never ends in the projection)"},
	{.key = "factor", .type = POL_NUM, .def = "1", .lo = 1, .hi = 1000, .def_num = 1,
	 .help = "the fallback's multiple of the actual run time (1: perfect estimates)"},
	{.key = "count", .type = POL_CHOICE, .choices = counts, .def = "nodes",
	 .help = "the reservation counted node by node after a first-fit packing of the head, "
		 "or in amounts of the whole cluster as one pool (EASY as published)"},
	{.key = "passes", .type = POL_CHOICE, .choices = passes, .def = "instant",
	 .with = "count=pool",
	 .help = "one pass after the events of an instant, or one after each arrival that fits "
		 "and each end, in the published simulator's order (pyss)"},
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
