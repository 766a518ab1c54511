/* tiresias.c - two-dimensional least attained service, discretised
 * (Gu et al., "Tiresias: A GPU Cluster Manager for Distributed Deep
 * Learning", NSDI'19; its 2D-LAS with K queues).
 *
 * A job's attained service: the GPUs it holds times the time it has held
 * them (a job without GPUs: its cores, in cores x s), summed over its
 * runs.  Queue k of K holds the jobs whose service is below threshold_k
 * = threshold x 10^k (the last queue the rest).  Jobs are ordered by
 * queue, then running before waiting (a job is preempted only for one of
 * a higher queue), then by arrival (FIFO); a job waiting longer than
 * `starve` times its last run (or than `starve` x the first threshold's
 * time on one GPU, if it never ran) goes to the first queue.  At every
 * decision, and every `round`, the cluster is given out in that order on
 * a projection where every running job's resources are free: a running
 * job keeps its executors where they are if they are still free there,
 * a waiting job is packed first fit; the running jobs left out are
 * preempted (every executor: the kernel kills their tasks and their work
 * is lost; their service so far is kept, as Tiresias's), and the waiting
 * ones packed start.  Since a preempted job restarts, one preempted
 * `max_preempt` times keeps its executors once it runs (a queue above
 * the first).  Labels are ignored, as by fifo
 * (docs/policies/tiresias.md).
 *
 * Cost per decision: O(jobs log jobs + jobs x executors x nodes).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "registry.h"
#include "sim.h"
#include "util.h"

#define TAG_ROUND 1u

struct tj {
	double service;        /* GPU-s (or core-s) attained */
	int64_t since;         /* the current run's start, or -1 */
	int64_t last_run;      /* the last run's length, µs */
	int64_t waiting;       /* since when it waits, µs */
	bool active;           /* arrived, not ended */
	bool running;          /* holds executors */
	bool going;            /* being preempted */
	int preempted;         /* times */
};

struct tir {
	struct pol_fits fits;
	struct pol_tent t;
	int nq;
	double thr;            /* the first threshold, service units */
	double starve;
	int max_preempt;
	int64_t round_us;
	int64_t last_us;       /* service counted up to here */
	bool ticking;          /* a round timer is pending */
	struct tj *j;
	int *act; int nact, capact; /* active jobs */
	struct ord { int q; int waits; int64_t arrival; int job; } *ord;
	int64_t *pc, *pm, *pg; /* the projection by node */
	bool *keep, *start;    /* by position in ord */
};

static double weight(const struct sim_job *j)
{
	double g = 0, c = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		g += ro->count * (ro->gpus ? ro->gpus : ro->gpu_milli / (double)CLU_GPU_MILLI);
		c += ro->count * (ro->cores ? ro->cores : CLU_MILLI) / (double)CLU_MILLI;
	}
	return g > 0 ? g : c;
}

static void *tir_init(struct sim *s, const struct scn_policy *cfg)
{
	struct tir *p = xcalloc(1, sizeof *p);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1, n = sim_cluster(s)->n ? sim_cluster(s)->n : 1;
	pol_fits_init(&p->fits, s, pol_whole_verdict, cfg);
	pol_tent_init(&p->t, sim_cluster(s)->n);
	p->nq = (int)pol_param_num(&pol_tiresias, cfg, "queues");
	p->thr = pol_param_num(&pol_tiresias, cfg, "threshold");
	p->starve = pol_param_num(&pol_tiresias, cfg, "starve");
	p->round_us = (int64_t)pol_param_num(&pol_tiresias, cfg, "round");
	p->max_preempt = (int)pol_param_num(&pol_tiresias, cfg, "max_preempt");
	p->j = xcalloc((size_t)nj, sizeof *p->j);
	p->ord = xmalloc((size_t)nj * sizeof *p->ord);
	p->keep = xmalloc((size_t)nj * sizeof *p->keep);
	p->start = xmalloc((size_t)nj * sizeof *p->start);
	p->pc = xmalloc((size_t)n * sizeof *p->pc);
	p->pm = xmalloc((size_t)n * sizeof *p->pm);
	p->pg = xmalloc((size_t)n * sizeof *p->pg);
	p->last_us = sim_now(s);
	return p;
}

/* Service attained up to now. */
static void account(struct tir *p, struct sim *s)
{
	int64_t now = sim_now(s);
	double dt = (double)(now - p->last_us) / 1e6;
	for (int i = 0; dt > 0 && i < p->nact; i++) {
		struct tj *t = &p->j[p->act[i]];
		if (t->running)
			t->service += weight(sim_job(s, p->act[i])) * dt;
	}
	p->last_us = now;
}

static void tir_arrived(void *st, struct sim *s, int job)
{
	struct tir *p = st;
	int why = pol_fits_arrived(&p->fits, s, sim_job(s, job));
	if (why) {
		sim_reject_job(s, job, why);
		return;
	}
	account(p, s);
	p->j[job] = (struct tj){.since = -1, .waiting = sim_now(s), .active = true};
	/* (preempted counts from 0: a new job) */
	xgrow(&p->act, &p->capact, p->nact + 1, sizeof *p->act);
	p->act[p->nact++] = job;
	if (!p->ticking) { /* rounds while jobs are active */
		sim_policy_timer(s, (double)p->round_us, TAG_ROUND);
		p->ticking = true;
	}
}

static void tir_finished(void *st, struct sim *s, int job)
{
	struct tir *p = st;
	account(p, s);
	p->j[job].active = p->j[job].running = false;
	for (int i = 0; i < p->nact; i++)
		if (p->act[i] == job) {
			p->act[i] = p->act[--p->nact];
			break;
		}
}

static int cmp_ord(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	if (x->q != y->q)
		return x->q < y->q ? -1 : 1;
	if (x->waits != y->waits) /* a queue's running jobs before its waiting ones */
		return x->waits - y->waits;
	if (x->arrival != y->arrival)
		return x->arrival < y->arrival ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

static int queue_of(const struct tir *p, const struct tj *t, int64_t now)
{
	/* the starvation guard: waited `starve` times its last run */
	int64_t base = t->last_run > 0 ? t->last_run : (int64_t)(p->thr * 1e6);
	if (!t->running && (double)(now - t->waiting) > p->starve * (double)base)
		return 0;
	double lim = p->thr;
	for (int q = 0; q < p->nq - 1; q++, lim *= 10)
		if (t->service < lim)
			return q;
	return p->nq - 1;
}

static void decide(struct tir *p, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	int64_t now = sim_now(s);
	account(p, s);
	int n = 0;
	for (int i = 0; i < p->nact; i++) {
		int job = p->act[i];
		const struct tj *t = &p->j[job];
		if (t->going)
			continue;
		/* a job preempted max_preempt times keeps what it runs on (the
		 * kernel's preemption loses a job's work: without a bound a
		 * long job could be preempted for ever) */
		int q = t->running && t->preempted >= p->max_preempt ? -1 : queue_of(p, t, now);
		p->ord[n++] = (struct ord){q, !t->running, sim_job(s, job)->arrival_us, job};
	}
	qsort(p->ord, (size_t)n, sizeof *p->ord, cmp_ord);
	for (int i = 0; i < c->n; i++) {
		p->pc[i] = c->nodes[i].cores_free > 0 ? c->nodes[i].cores_free : 0;
		p->pm[i] = c->nodes[i].mem_free;
		p->pg[i] = pol_gpu_milli_free(NULL, &c->nodes[i]);
	}
	for (int i = 0; i < n; i++)
		if (p->j[p->ord[i].job].running)
			pol_proj_job(s, p->ord[i].job, +1, p->pc, p->pm, p->pg);
	/* in order: a running job keeps its place if it is still free, a
	 * waiting one is packed */
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
	for (int i = 0; i < n; i++) { /* the running ones left out give way */
		int job = p->ord[i].job;
		if (!p->j[job].running || p->keep[i])
			continue;
		p->j[job].going = true;
		p->j[job].preempted++;
		pol_preempt_job(s, job);
	}
	for (int i = 0; i < n; i++) { /* and the ones packed start (or get back what
				       they lost) */
		int job = p->ord[i].job;
		if (!p->start[i] || p->j[job].going || sim_execs_wanted(sim_job(s, job)) == 0)
			continue;
		if (!pol_first_fit(&p->t, s, sim_job(s, job), -1))
			continue; /* the GPUs' granularity: next decision */
		pol_tent_launch(&p->t, s, job);
		if (!p->j[job].running)
			p->j[job].since = now;
		p->j[job].running = true;
	}
}

static void tir_schedule(void *st, struct sim *s)
{
	decide(st, s);
}

static void tir_timer(void *st, struct sim *s, uint32_t tag)
{
	struct tir *p = st;
	if (tag != TAG_ROUND)
		return;
	decide(p, s);
	p->ticking = p->nact > 0;
	if (p->ticking)
		sim_policy_timer(s, (double)p->round_us, TAG_ROUND);
}

/* A preempted or lost executor: the job, once it holds none, waits. */
static void tir_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	struct tir *p = st;
	(void)x, (void)why;
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
	free(p->j), free(p->act), free(p->ord), free(p->keep), free(p->start);
	free(p->pc), free(p->pm), free(p->pg);
	free(p);
}

static const struct pol_param tir_params[] = {
	{.key = "queues", .type = POL_INT, .def = "2", .lo = 1, .hi = 8, .def_num = 2,
	 .help = "K, the priority queues"},
	{.key = "threshold", .type = POL_NUM, .def = "3600", .lo = 0.001, .hi = 1e12,
	 .def_num = 3600, .unit = "GPU-s", .help = "the first queue's limit of attained service "
						   "(GPU-s, or core-s without GPUs); x10 each next"},
	{.key = "starve", .type = POL_NUM, .def = "10", .lo = 1, .hi = 1e6, .def_num = 10,
	 .help = "a job waiting this many times its last run goes to the first queue"},
	{.key = "max_preempt", .type = POL_INT, .def = "3", .lo = 0, .hi = 1000, .def_num = 3,
	 .help = "a job preempted this many times is not preempted again (its work is lost at "
		 "each)"},
	{.key = "round", .type = POL_TIME, .def = "60s", .lo = 1000, .hi = 86400e6,
	 .def_num = 60e6, .help = "how often the queues are recomputed besides events"},
	{.key = NULL},
};

const struct policy_ops pol_tiresias = {
	.name = "tiresias",
	.summary = "Tiresias: discretised 2D least attained service, starvation guard, "
		   "preemption",
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
