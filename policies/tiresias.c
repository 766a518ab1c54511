/* tiresias.c - two-dimensional least attained service, discretised
 * (Gu et al., "Tiresias: A GPU Cluster Manager for Distributed Deep
 * Learning", NSDI'19; its 2D-LAS with K queues), as its authors'
 * simulator runs it by default (SymbioticLab/Tiresias 959f9b08,
 * simulator/run_sim.py, dlas_sim_jobs under `--schedule=dlas-gpu`;
 * docs/policies/tiresias-reference.md).
 *
 * A job's attained service: the GPUs it holds times the time it has run
 * (a job without GPUs: its cores), since it arrived or since the
 * starvation guard last promoted it (the reference's executed_time,
 * reset by a promotion).  Queue k holds the jobs whose service is below
 * its limit: 3 250 and 7 200 GPU-s of the reference's three queues
 * (jobs.py, _TFJobs.__init__: queue_limit [3250, 7200, 18000], of which
 * the last is never reached), or `limits: x10`, threshold x 10^k.  A
 * running job is demoted, one queue at a time, once its service reaches
 * its queue's limit: at that instant (`demotion: exact`), or, as the
 * reference, at the first event at which it has, its own wake-up
 * predicted at t + floor((limit - seconds run) / GPUs) (run_sim.py's
 * jump under Python 2's integer division; `demotion: reference`).  A
 * queue is a list in the order jobs entered it (arrival, demotion,
 * promotion: at its tail); after each pass its running jobs move ahead
 * of its waiting ones, in their order (`order: reference`; `arrival`:
 * hetsim's before issue 32, running then waiting by arrival).  The
 * guard (off by default, as under dlas-gpu: solve_starvation 0;
 * `starve: k`): a waiting job of a lower queue that has run, once its
 * waiting since it first ran or was last promoted reaches k times its
 * executed time (truncated to whole seconds), goes to the tail of the
 * first queue with its service reset (`promote: keep`: kept, so it is
 * demoted again once it runs; `guard: last-run`: waited k times its
 * last run, hetsim's before).
 *
 * At every decision (an arrival, an end, a wake-up of its own: no
 * rounds unless `round`), after the events of the instant (ends, then
 * arrivals, then service and demotions, as run_sim.py): the queues are
 * scanned in order, the first queue first, every job that fits taken
 * (one that does not is passed over: smaller ones behind it may run),
 * on a projection where every running job's resources are free.
 * `placement: pool` (the reference's: its GPUs are one counter) counts
 * the cluster's free cores, memory and GPUs as one amount each;
 * `nodes`: a running job keeps its executors where they are if they are
 * still free there, a waiting job is packed first fit.  The running
 * jobs left out are preempted (every executor), the waiting ones taken
 * start, each executor first fit in node order (under `pool` a job the
 * nodes cannot hold after all waits for the next decision).  A trace
 * job resumes with the work it had left (the reference charges nothing;
 * its trace's resume_cost, or `preempted: restart`).  `max_preempt`
 * bounds the preemptions of one job (none by default).  Labels are
 * ignored, as by fifo (docs/policies/tiresias.md).
 *
 * Cost per decision: tiresias_fast.c keeps the decision incrementally
 * (its header: O(k log n) for the k jobs that change, plus O(S x Q) for
 * the S fit signatures waiting in the Q queues, plus O(log64 nodes) a
 * packed executor), the same decisions as the full pass below, which
 * stays the reference under clu_plain_scan and runs `placement: pool`
 * and `max_preempt` >= 0: O(jobs log jobs + jobs x executors x nodes)
 * under nodes, O(jobs log jobs + nodes + executors launched x nodes)
 * under pool.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "registry.h"
#include "sim.h"
#include "tiresias_int.h"
#include "util.h"

#define TAG_ROUND TIR_TAG_ROUND
#define TAG_WAKE TIR_TAG_WAKE
#define MAX_QUEUES TIR_MAX_QUEUES

/* The reference's limits (jobs.py, _TFJobs.__init__, queue_limit), GPU-s. */
static const double ref_limits[] = {3250, 7200, 18000};

/* What job j asks in all, every executor: milli-cores, MiB, milli-GPUs. */
static void demand(const struct sim_job *j, int64_t *c, int64_t *m, int64_t *g)
{
	*c = *m = *g = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		*c += (int64_t)ro->count * (ro->cores ? ro->cores : CLU_MILLI);
		*m += (int64_t)ro->count * ro->mem_mib;
		*g += (int64_t)ro->count * (ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI
						     : ro->gpu_milli);
	}
}

static void *tir_init(struct sim *s, const struct scn_policy *cfg)
{
	const struct policy_ops *ops = &pol_tiresias;
	struct tir *p = xcalloc(1, sizeof *p);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1, n = sim_cluster(s)->n ? sim_cluster(s)->n : 1;
	pol_fits_init(&p->fits, s, pol_whole_verdict, cfg);
	pol_tent_init(&p->t, sim_cluster(s)->n);
	p->nq = (int)pol_param_num(ops, cfg, "queues");
	bool x10 = !strcmp(pol_param_value(ops, cfg, "limits"), "x10");
	double thr = pol_param_num(ops, cfg, "threshold");
	for (int k = 0; k < p->nq - 1; k++) {
		/* past the reference's three limits a queue is never reached */
		p->lim[k] = x10 ? thr * pow(10, k) : k < 3 ? ref_limits[k] : INFINITY;
	}
	p->demote_ref = !strcmp(pol_param_value(ops, cfg, "demotion"), "reference");
	p->guard_ref = !strcmp(pol_param_value(ops, cfg, "guard"), "reference");
	p->reset = !strcmp(pol_param_value(ops, cfg, "promote"), "reset");
	p->order_ref = !strcmp(pol_param_value(ops, cfg, "order"), "reference");
	p->pool = !strcmp(pol_param_value(ops, cfg, "placement"), "pool");
	p->starve = pol_param_num(ops, cfg, "starve");
	p->round_us = (int64_t)pol_param_num(ops, cfg, "round");
	p->max_preempt = (int)pol_param_num(ops, cfg, "max_preempt");
	p->want_us = p->pushed_us = -1;
	p->j = xcalloc((size_t)nj, sizeof *p->j);
	p->last_us = sim_now(s);
	/* the full pass is the reference (clu_plain_scan), and what the
	 * variants tiresias_fast.c does not keep incrementally run */
	if (!clu_plain_scan && !p->pool && p->max_preempt < 0) {
		tfast_init(p, s);
		return p;
	}
	p->ord = xmalloc((size_t)nj * sizeof *p->ord);
	p->keep = xmalloc((size_t)nj * sizeof *p->keep);
	p->start = xmalloc((size_t)nj * sizeof *p->start);
	p->pc = xmalloc((size_t)n * sizeof *p->pc);
	p->pm = xmalloc((size_t)n * sizeof *p->pm);
	p->pg = xmalloc((size_t)n * sizeof *p->pg);
	return p;
}

/* Service and waiting up to now (run_sim.py: each job's time since its
 * last check, as it was at the last pass; waiting counts only once a job
 * has run, L1064-1065: docs/policies/tiresias-reference.md §4 step 3). */
static void account(struct tir *p, struct sim *s)
{
	int64_t dt = sim_now(s) - p->last_us;
	for (int i = 0; dt > 0 && i < p->nact; i++) {
		struct tj *t = &p->j[p->act[i]];
		if (t->running && !t->going)
			t->exec_us += dt;
		else if (!t->running && t->exec_us > 0)
			t->lpend_us += dt;
	}
	p->last_us = sim_now(s);
}

static void tir_arrived(void *st, struct sim *s, int job)
{
	struct tir *p = st;
	int why = pol_fits_arrived(&p->fits, s, sim_job(s, job));
	if (why) {
		sim_reject_job(s, job, why);
		return;
	}
	if (p->f) {
		tfast_arrived(p, s, job);
	} else {
		account(p, s);
		/* at the first queue's tail (reference §4 step 2; preempted
		 * counts from 0: a new job) */
		p->j[job] = (struct tj){.since = -1, .waiting = sim_now(s), .active = true,
					.w = tir_weight(sim_job(s, job)), .key = ++p->key};
		xgrow(&p->act, &p->capact, p->nact + 1, sizeof *p->act);
		p->act[p->nact++] = job;
	}
	if (p->round_us > 0 && !p->ticking) { /* rounds while jobs are active */
		sim_policy_timer(s, (double)p->round_us, TAG_ROUND);
		p->ticking = true;
	}
}

static void tir_finished(void *st, struct sim *s, int job)
{
	struct tir *p = st;
	if (p->f) {
		tfast_finished(p, s, job);
		return;
	}
	account(p, s);
	p->j[job].active = p->j[job].running = false;
	for (int i = 0; i < p->nact; i++)
		if (p->act[i] == job) { /* the rest keep their arrival order */
			memmove(&p->act[i], &p->act[i + 1], (size_t)(p->nact - i - 1) * sizeof *p->act);
			p->nact--;
			break;
		}
}

static int cmp_ord(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	if (x->q != y->q)
		return x->q < y->q ? -1 : 1;
	if (x->waits != y->waits) /* (order: arrival) a queue's running jobs first */
		return x->waits - y->waits;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

/* Demotions and promotions, in arrival order (the order of the tails
 * they join): a running job's service against its queue's limit
 * (reference §4 step 3, L1045-1054), a starved one to the first queue's
 * tail, its pending time, and with `promote: reset` its service, set to
 * 0 (L1067-1074; §7 quirk 8). */
static void requeue(struct tir *p, int64_t now)
{
	for (int i = 0; i < p->nact; i++) {
		struct tj *t = &p->j[p->act[i]];
		if (t->running && !t->going) {
			while (tir_over(p, t)) {
				t->q++;
				t->key = ++p->key;
				if (p->demote_ref) /* run_sim.py: one queue an event (an if) */
					break;
			}
		} else if (!t->running && p->starve > 0 && t->q > 0 && tir_starved(p, t, now)) {
			t->q = 0;
			t->key = ++p->key;
			t->lpend_us = 0;
			t->waiting = now;
			if (p->reset)
				t->exec_us = 0;
		}
	}
}

/* What each node would have free with every running job of the n
 * ordered ones off it: the projection both scans start from. */
static void project_free(struct tir *p, struct sim *s, int n)
{
	pol_proj_free(sim_cluster(s), p->pc, p->pm, p->pg);
	for (int i = 0; i < n; i++)
		if (p->j[p->ord[i].job].running)
			pol_proj_job(s, p->ord[i].job, +1, p->pc, p->pm, p->pg);
}

/* The scan on one pool of each resource: keep[i] / start[i] for the
 * jobs taken, a job that does not fit passed over (reference §4 step 4,
 * L1094-1118; the reference counts GPUs only, §7 quirk 9: cores and
 * memory are hetsim's, and bind only where a job's cores or memory are
 * scarcer than its GPUs). */
static void scan_pool(struct tir *p, struct sim *s, int n)
{
	const struct clu *c = sim_cluster(s);
	int64_t fc = 0, fm = 0, fg = 0;
	project_free(p, s, n);
	for (int i = 0; i < c->n; i++)
		fc += p->pc[i], fm += p->pm[i], fg += p->pg[i];
	for (int i = 0; i < n; i++) {
		int job = p->ord[i].job;
		const struct sim_job *j = sim_job(s, job);
		int64_t dc, dm, dg;
		demand(j, &dc, &dm, &dg);
		bool fits = dc <= fc && dm <= fm && dg <= fg;
		if (fits)
			fc -= dc, fm -= dm, fg -= dg;
		bool run = p->j[job].running;
		p->keep[i] = fits && run;
		p->start[i] = fits && (!run || sim_execs_wanted(j) > 0);
	}
}

/* The scan node by node: a running job keeps its executors where they
 * are if they are still free, a waiting one is packed first fit. */
static void scan_nodes(struct tir *p, struct sim *s, int n)
{
	const struct clu *c = sim_cluster(s);
	project_free(p, s, n);
	for (int i = 0; i < n; i++) {
		int job = p->ord[i].job;
		p->keep[i] = p->start[i] = false;
		if (p->j[job].running) {
			pol_proj_job(s, job, -1, p->pc, p->pm, p->pg);
			bool ok = true;
			for (int k = 0; k < c->n; k++)
				ok &= p->pc[k] >= 0 && p->pm[k] >= 0 && p->pg[k] >= 0;
			if (ok) {
				p->keep[i] = true;
				/* an executor it lost (its node failed): a replacement */
				if (sim_execs_wanted(sim_job(s, job)) > 0)
					p->start[i] = pol_proj_pack(s, sim_job(s, job), p->pc,
								    p->pm, p->pg, NULL, false);
			} else {
				pol_proj_job(s, job, +1, p->pc, p->pm, p->pg); /* it gives way */
			}
		} else {
			p->start[i] = pol_proj_pack(s, sim_job(s, job), p->pc, p->pm, p->pg,
						    NULL, false);
		}
	}
}

/* The next instant a job's queue can change without an event: a running
 * job's demotion, a waiting one's promotion; a timer for it. */
static void wake(struct tir *p, struct sim *s)
{
	int64_t now = sim_now(s), want = -1;
	for (int i = 0; i < p->nact; i++) {
		int64_t at = tir_wake_at(p, &p->j[p->act[i]], now);
		if (at >= 0 && (want < 0 || at < want))
			want = at;
	}
	tir_want(p, s, want);
}

static void decide(struct tir *p, struct sim *s)
{
	int64_t now = sim_now(s);
	account(p, s);
	requeue(p, now);
	int n = 0;
	for (int i = 0; i < p->nact; i++) {
		int job = p->act[i];
		const struct tj *t = &p->j[job];
		if (t->going)
			continue;
		/* a job preempted max_preempt times keeps what it runs on */
		bool pin = p->max_preempt >= 0 && t->running && t->preempted >= p->max_preempt;
		p->ord[n++] = (struct ord){pin ? -1 : t->q, p->order_ref ? 0 : !t->running,
					   p->order_ref ? t->key : sim_job(s, job)->arrival_us, job};
	}
	qsort(p->ord, (size_t)n, sizeof *p->ord, cmp_ord);
	if (p->pool)
		scan_pool(p, s, n);
	else
		scan_nodes(p, s, n);
	for (int i = 0; i < n; i++) { /* the running ones left out give way */
		int job = p->ord[i].job;
		if (!p->j[job].running || p->keep[i])
			continue;
		p->j[job].going = true;
		p->j[job].preempted++;
		pol_preempt_job(s, job);
	}
	for (int i = 0; i < n; i++) { /* and the ones taken start (or get back what
				       they lost) */
		int job = p->ord[i].job;
		if (!p->start[i] || p->j[job].going || sim_execs_wanted(sim_job(s, job)) == 0)
			continue;
		if (!pol_first_fit(&p->t, s, sim_job(s, job), -1))
			continue; /* the GPUs' granularity, or the pool's: next decision */
		pol_tent_launch(&p->t, s, job);
		if (!p->j[job].running)
			p->j[job].since = now;
		p->j[job].running = true;
	}
	if (p->order_ref) /* run_sim.py: each queue's running jobs, then its
			     waiting ones, each in their order */
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < n; i++) {
				struct tj *t = &p->j[p->ord[i].job];
				if (t->running == !pass && !t->going)
					t->key = ++p->key;
			}
	wake(p, s);
}

static void tir_schedule(void *st, struct sim *s)
{
	struct tir *p = st;
	if (p->f)
		tfast_decide(p, s);
	else
		decide(p, s);
}

/* A round or a wake-up: a decision once the instant's events are in. */
static void tir_timer(void *st, struct sim *s, uint32_t tag)
{
	struct tir *p = st;
	if (tag == TAG_WAKE) {
		if (sim_now(s) == p->want_us)
			sim_policy_reschedule(s);
		return;
	}
	if (tag != TAG_ROUND)
		return;
	sim_policy_reschedule(s);
	p->ticking = p->nact > 0;
	if (p->ticking)
		sim_policy_timer(s, (double)p->round_us, TAG_ROUND);
}

/* A preempted or lost executor: the job, once it holds none, waits. */
static void tir_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	struct tir *p = st;
	(void)why;
	if (p->f) {
		tfast_exec_lost(p, s, job, x);
		return;
	}
	const struct sim_job *j = sim_job(s, job);
	if (j->live->execs_live == 0 && p->j[job].active) {
		account(p, s);
		struct tj *t = &p->j[job];
		t->last_run = t->since >= 0 ? sim_now(s) - t->since : 0;
		t->since = -1;
		t->running = t->going = false;
		t->waiting = sim_now(s);
	}
}

static void tir_fini(void *st)
{
	struct tir *p = st;
	pol_fits_free(&p->fits);
	pol_tent_fini(&p->t);
	if (p->f)
		tfast_fini(p);
	free(p->j), free(p->act), free(p->ord), free(p->keep), free(p->start);
	free(p->pc), free(p->pm), free(p->pg);
	free(p);
}

static const char *const limit_choices[] = {"reference", "x10", NULL};
static const char *const demotion_choices[] = {"exact", "reference", NULL};
static const char *const guard_choices[] = {"reference", "last-run", NULL};
static const char *const promote_choices[] = {"reset", "keep", NULL};
static const char *const order_choices[] = {"reference", "arrival", NULL};
static const char *const placement_choices[] = {"nodes", "pool", NULL};

static const struct pol_param tir_params[] = {
	{.key = "queues", .type = POL_INT, .def = "3", .lo = 1, .hi = MAX_QUEUES, .def_num = 3,
	 .help = "K, the priority queues (the reference's 3)"},
	{.key = "limits", .type = POL_CHOICE, .choices = limit_choices, .def = "reference",
	 .help = "the queues' limits of attained service: the reference's 3250, 7200 GPU-s "
		 "(jobs.py queue_limit), or threshold x10 each next"},
	{.key = "threshold", .type = POL_NUM, .def = "3600", .lo = 0.001, .hi = 1e12,
	 .def_num = 3600, .unit = "GPU-s", .with = "limits=x10",
	 .help = "with limits: x10, the first queue's limit (GPU-s, or core-s without GPUs)"},
	{.key = "demotion", .type = POL_CHOICE, .choices = demotion_choices, .def = "exact",
	 .help = "a job demoted when its service reaches its limit, or at the first event "
		 "after, at the reference's predicted instants (Python 2's floor division)"},
	{.key = "starve", .type = POL_NUM, .def = "0", .lo = 0, .hi = 1e6, .def_num = 0,
	 .help = "the starvation guard's multiple; 0: no guard (dlas-gpu's solve_starvation)"},
	{.key = "guard", .type = POL_CHOICE, .choices = guard_choices, .def = "reference",
	 .help = "what the guard measures: waiting since it first ran or was promoted against "
		 "its executed time (the reference), or waiting against its last run"},
	{.key = "promote", .type = POL_CHOICE, .choices = promote_choices, .def = "reset",
	 .help = "a promoted job's attained service reset (the reference) or kept"},
	{.key = "order", .type = POL_CHOICE, .choices = order_choices, .def = "reference",
	 .help = "within a queue: the order jobs entered it, running first (the reference), "
		 "or running first then arrival"},
	{.key = "placement", .type = POL_CHOICE, .choices = placement_choices, .def = "nodes",
	 .help = "the scan's fit node by node, or on the cluster's resources as one pool (the "
		 "reference's GPU count)"},
	{.key = "max_preempt", .type = POL_INT, .def = "-1", .lo = -1, .hi = 1000, .def_num = -1,
	 .help = "a job preempted this many times is not preempted again; -1: no bound"},
	{.key = "round", .type = POL_TIME, .def = "0s", .lo = 0, .hi = 86400e6, .def_num = 0,
	 .period = true,
	 .help = "how often the queues are recomputed besides events and wake-ups; 0: never"},
	{.key = NULL},
};

const struct policy_ops pol_tiresias = {
	.name = "tiresias",
	.summary = "Tiresias: discretised 2D least attained service as its authors' simulator "
		   "runs dlas-gpu, preemption",
	.params = tir_params,
	.uses_labels = false,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.needs = POL_NEED_PREEMPTION,
	.init = tir_init,
	.job_arrived = tir_arrived,
	.job_finished = tir_finished,
	.schedule = tir_schedule,
	.fini = tir_fini,
	.exec_lost = tir_exec_lost,
	.timer = tir_timer,
	.can_ever_place = pol_whole_verdict,
};

