/* gavel.c - heterogeneity-aware max-min fairness over a job x GPU-model
 * throughput matrix, solved as a linear program with GLPK, time-shared
 * in rounds through preemption (Narayanan et al., "Heterogeneity-Aware
 * Cluster Scheduling Policies for Deep Learning Workloads", OSDI'20: its
 * max-min fairness policy and round-based mechanism).
 *
 * The allocation X[m][k] is the share of time job m should spend on GPUs
 * of model k.  With T[m][k] the job's rate on one GPU of model k
 * (sim_job_throughput: the scenario's `throughput` entry, else its job
 * model's, e.g. mnist_step per GPU model), c_k the GPUs of model k, s_m
 * the GPUs the job asks for and N_m = sum_k T[m][k] c_k / C its rate on
 * the cluster's mix (C = all GPUs: the equal share's normaliser, up to a
 * factor common to every job), the program is
 *
 *     maximise  t
 *     s.t.      sum_k T[m][k] X[m][k] / N_m >= t   for every job m
 *               sum_k X[m][k] <= 1                  for every job m
 *               sum_m s_m X[m][k] <= c_k            for every model k
 *               X >= 0, X[m][k] = 0 where m cannot run on model k,
 *
 * then, t held at its optimum, the sum of the normalised rates is
 * maximised (what max-min leaves free goes to whoever can use it).
 * Jobs the program cannot tell apart (the same s_m and the same
 * normalised rates T[m][k] / N_m) form a class, and it is solved over
 * the classes (policies/gavel_lp.h): the same optima, the tie among them
 * settled by giving every job of a class the same shares.
 * The program is solved at every `round` and whenever the set of jobs
 * changed since the last solve (at most once per `resolve`); GLPK runs
 * only when a class count changed since it last ran (a job's matrix
 * row is fixed at its arrival, the capacities at the start), cold, and
 * not when the counts are those of one of the last 16 programs solved
 * (their X kept: the same program, the same bytes).
 *
 * The mechanism, at every round: each (job, model) pair's priority is
 * X[m][k] over the share of its time in the system the job has run on
 * model k (infinite before it ran there); in falling priority each job
 * gets the first pair that fits, on a projection where every running GPU
 * job's resources are free: a job granted the model it runs on keeps its
 * executors (Gavel's lease renewal), another is packed first fit on
 * nodes of that model; the running jobs left out, or moved to another
 * model, are preempted.  Between rounds nothing is preempted: free GPUs
 * go to waiting jobs in the same priority order (work-conserving, where
 * Gavel waits for the next round), and CPU-only jobs, which the program
 * does not see, are placed first fit in arrival order after the GPU
 * jobs (docs/policies/gavel.md).
 *
 * Cost per decision (between rounds): the program, when a class count
 * changed, GLPK's simplex on (2 classes + models) rows and (classes x
 * models + 1) columns (the mix of bench/gen-mix: 4 classes, 2 models);
 * then, with resolve = 0 (fill_fast, in gavel_fill.c),
 * O((G + L) x (S + log W) + M log M) for W waiting jobs in G groups
 * (class x shape, 8 on the mix), S <= G x (K + 1) streams, L launches
 * and M pairs of jobs that ran and wait again or lost an executor (0 on
 * the mix: no round comes before its queue drains): a waiting job's
 * pairs that never ran have a priority free of the clock, kept in order
 * per group and model; with resolve > 0, O(W log W), every pair sorted.
 * Per first fit O(executors x log64 nodes) through a pol_index tree per
 * GPU model, O(1) for a job holding nothing whose shape did not fit the
 * unchanged cluster.  Per job change O(K log W) (gav_regroup).  Per
 * round O(pairs log pairs + jobs x executors x nodes) (the projection is
 * scanned).  With clu_plain_scan, the reference: GLPK at every solve,
 * every active job visited and every pair sorted, every node scanned
 * per executor.
 */
#include <glpk.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gavel_int.h"
#include "gavel_lp.h"
#include "pol_common.h"
#include "registry.h"
#include "sim.h"
#include "util.h"

#define TAG_ROUND 1u

static double gpus_asked(const struct sim_job *j)
{
	double g = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		g += ro->count * (ro->gpus ? ro->gpus : ro->gpu_milli / (double)CLU_GPU_MILLI);
	}
	return g;
}

static void *gav_init(struct sim *s, const struct scn_policy *cfg)
{
	struct gav *p = xcalloc(1, sizeof *p);
	const struct clu *c = sim_cluster(s);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1, n = c->n ? c->n : 1;
	pol_fits_init(&p->fits, s, pol_whole_verdict, cfg);
	pol_tent_init(&p->t, c->n);
	p->round_us = (int64_t)pol_param_num(&pol_gavel, cfg, "round");
	p->resolve_us = (int64_t)pol_param_num(&pol_gavel, cfg, "resolve");
	p->plain = clu_plain_scan;
	p->node_k = xmalloc((size_t)n * sizeof *p->node_k);
	for (int i = 0; i < c->n; i++) { /* the GPU models, in node order */
		p->node_k[i] = -1;
		if (!c->nodes[i].gpus)
			continue;
		const char *m = pol_gpu_model(&c->nodes[i]);
		int k = 0;
		while (k < p->K && strcmp(p->type[k], m))
			k++;
		if (k == p->K && p->K < GAV_MAX_TYPES)
			p->type[p->K++] = m;
		if (k < p->K) {
			p->cap[k] += c->nodes[i].gpus;
			p->ctot += c->nodes[i].gpus;
			p->node_k[i] = k;
		}
	}
	int K = p->K ? p->K : 1;
	p->j = xcalloc((size_t)nj, sizeof *p->j);
	p->tp = xcalloc((size_t)nj * (size_t)K, sizeof *p->tp);
	p->recv = xcalloc((size_t)nj * (size_t)K, sizeof *p->recv);
	p->done = xcalloc((size_t)nj, sizeof *p->done);
	p->moved = xcalloc((size_t)nj, sizeof *p->moved);
	p->pc = xmalloc((size_t)n * sizeof *p->pc);
	p->pm = xmalloc((size_t)n * sizeof *p->pm);
	p->pg = xmalloc((size_t)n * sizeof *p->pg);
	pol_bits_init(&p->actb, nj);
	pol_bits_init(&p->want, nj);
	p->nshapes = sim_nshapes(s);
	p->fm = xcalloc((size_t)(p->nshapes ? p->nshapes : 1) * (size_t)K, 1);
	p->solved_us = -1;
	gav_fill_init(p, s);
	glp_term_out(GLP_OFF);
	return p;
}

/* It stops running on its model: its time there counted. */
static void stop_running(struct gav *p, int64_t now, int job)
{
	struct gj *g = &p->j[job];
	if (g->running && g->type >= 0)
		p->recv[(size_t)job * (size_t)p->K + (size_t)g->type] += now - g->since_us;
	g->running = false;
	g->type = -1;
}

/* Whether every GPU executor of j fits some node of model k, empty. */
static bool fits_model(const struct sim *s, const struct sim_job *j, const char *model)
{
	const struct clu *c = sim_cluster(s);
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		if (!ro->gpus && !ro->gpu_milli)
			continue;
		bool ok = false;
		int64_t cores = ro->cores ? ro->cores : CLU_MILLI;
		for (int i = 0; i < c->n && !ok; i++) {
			const struct clu_node *nd = &c->nodes[i];
			ok = nd->gpus >= (ro->gpus ? ro->gpus : 1) &&
			     !strcmp(pol_gpu_model(nd), model) && nd->cores >= cores &&
			     nd->mem_mib >= ro->mem_mib;
		}
		if (!ok)
			return false;
	}
	return true;
}

/* fits_model, asked once per job shape and model (it reads only the
 * shape and the empty cluster). */
static bool fits_model_cached(struct gav *p, const struct sim *s, const struct sim_job *j, int k)
{
	int id = j->shape->id;
	if (id < 0 || id >= p->nshapes)
		return fits_model(s, j, p->type[k]);
	uint8_t *v = &p->fm[(size_t)id * (size_t)p->K + (size_t)k];
	if (!*v)
		*v = (uint8_t)(1 + fits_model(s, j, p->type[k]));
	return *v - 1;
}

static uint64_t class_hash(const struct gav *p, double gpus, const double *a)
{
	uint64_t h = 1469598103934665603u, w;
	memcpy(&w, &gpus, sizeof w);
	h = (h ^ w) * 1099511628211u;
	for (int k = 0; k < p->K; k++) {
		memcpy(&w, &a[k], sizeof w);
		h = (h ^ w) * 1099511628211u;
	}
	return h ^ h >> 29;
}

static bool class_is(const struct gav *p, int c, double gpus, const double *a)
{
	if (p->cs[c] != gpus)
		return false;
	for (int k = 0; k < p->K; k++)
		if (p->ca[(size_t)c * (size_t)p->K + (size_t)k] != a[k])
			return false;
	return true;
}

static void class_rehash(struct gav *p)
{
	free(p->hash);
	p->hcap = p->hcap ? 2 * p->hcap : 64;
	p->hash = xcalloc((size_t)p->hcap, sizeof *p->hash);
	for (int c = 0; c < p->C; c++) {
		uint64_t i = class_hash(p, p->cs[c], &p->ca[(size_t)c * (size_t)p->K]);
		while (p->hash[i & (uint64_t)(p->hcap - 1)])
			i++;
		p->hash[i & (uint64_t)(p->hcap - 1)] = c + 1;
	}
}

/* The class of a job asking `gpus` GPUs with normalised rates a, made
 * if new.  O(K) expected. */
static int class_of(struct gav *p, double gpus, const double *a)
{
	size_t K = (size_t)p->K;
	if (2 * (p->C + 1) > p->hcap)
		class_rehash(p);
	uint64_t i = class_hash(p, gpus, a);
	for (;; i++) {
		int c = p->hash[i & (uint64_t)(p->hcap - 1)] - 1;
		if (c < 0)
			break;
		if (class_is(p, c, gpus, a))
			return c;
	}
	if (p->C == p->capc) {
		p->capc = p->capc ? 2 * p->capc : 16;
		p->ca = xrealloc(p->ca, (size_t)p->capc * K * sizeof *p->ca);
		p->cx = xrealloc(p->cx, (size_t)p->capc * K * sizeof *p->cx);
		p->cs = xrealloc(p->cs, (size_t)p->capc * sizeof *p->cs);
		p->cn = xrealloc(p->cn, (size_t)p->capc * sizeof *p->cn);
	}
	int c = p->C++;
	memcpy(&p->ca[(size_t)c * K], a, K * sizeof *a);
	memset(&p->cx[(size_t)c * K], 0, K * sizeof *p->cx);
	p->cs[c] = gpus;
	p->cn[c] = 0;
	p->hash[i & (uint64_t)(p->hcap - 1)] = c + 1;
	return c;
}

static void gav_arrived(void *st, struct sim *s, int job)
{
	struct gav *p = st;
	const struct sim_job *j = sim_job(s, job);
	int why = pol_fits_arrived(&p->fits, s, j);
	struct gj *g = &p->j[job];
	*g = (struct gj){.active = true, .type = -1, .cls = -1, .gpus = gpus_asked(j)};
	p->next_job = job + 1;
	if (!why && g->gpus > 0) { /* its row of the matrix */
		double *tp = &p->tp[(size_t)job * (size_t)p->K];
		for (int k = 0; k < p->K; k++) {
			tp[k] = fits_model_cached(p, s, j, k) ? sim_job_throughput(s, j, p->type[k]) : 0;
			g->norm += tp[k] * p->cap[k] / p->ctot;
		}
		if (!(g->norm > 0))
			why = SIM_WHY_GPUS; /* no model it fits has a rate */
	}
	if (why) {
		g->active = false;
		sim_reject_job(s, job, why);
		return;
	}
	if (g->gpus > 0) {
		double a[GAV_MAX_TYPES];
		for (int k = 0; k < p->K; k++)
			a[k] = p->tp[(size_t)job * (size_t)p->K + (size_t)k] / g->norm;
		g->cls = class_of(p, g->gpus, a);
		p->cn[g->cls]++;
		p->lp_stale = true;
	}
	if (p->resolve_us > 0) {
		xgrow(&p->act, &p->capact, p->nact + 1, sizeof *p->act);
		p->act[p->nact] = job;
	}
	p->nact++;
	pol_bits_put(&p->actb, job, true);
	pol_bits_put(&p->want, job, true);
	gav_regroup(p, s, job);
	p->dirty = true;
	if (!p->ticking) { /* rounds while jobs are active */
		sim_policy_timer(s, (double)p->round_us, TAG_ROUND);
		p->ticking = true;
	}
}

static void gav_finished(void *st, struct sim *s, int job)
{
	struct gav *p = st;
	struct gj *g = &p->j[job];
	bool was = g->active;
	stop_running(p, sim_now(s), job);
	g->active = false;
	p->dirty = true;
	if (!was)
		return;
	gav_regroup(p, s, job);
	if (g->cls >= 0) {
		p->cn[g->cls]--;
		p->lp_stale = true;
	}
	pol_bits_put(&p->actb, job, false);
	pol_bits_put(&p->want, job, false);
	if (p->resolve_us > 0) { /* the last job takes its place */
		for (int i = 0; i < p->nact; i++)
			if (p->act[i] == job) {
				p->act[i] = p->act[--p->nact];
				break;
			}
	} else {
		p->nact--;
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The program over the classes with active jobs, solved cold: a class
 * count is all that changes it (the matrix of a job is fixed at its
 * arrival, the capacities with the cluster), so while none has changed
 * the last solution stands (a cold solve of the same program gives the
 * same bytes); with clu_plain_scan, solved every time, the reference. */
static void solve_lp(struct gav *p)
{
	size_t K = (size_t)p->K;
	int live = 0;
	for (int c = 0; c < p->C; c++)
		live += p->cn[c] > 0;
	p->lp_stale = false;
	uint64_t h = (uint64_t)p->C;
	for (int c = 0; c < p->C; c++)
		h = (h ^ (uint64_t)p->cn[c]) * 1099511628211u;
	for (int m = 0; !p->plain && m < 16; m++) {
		struct gav_memo *e = &p->memo[m];
		if (e->cn && e->h == h && e->C == p->C &&
		    !memcmp(e->cn, p->cn, (size_t)p->C * sizeof *p->cn)) {
			memcpy(p->cx, e->cx, (size_t)p->C * K * sizeof *p->cx);
			return;
		}
	}
	if (p->C) /* p->cx is NULL before the first class */
		memset(p->cx, 0, (size_t)p->C * K * sizeof *p->cx);
	if (!live || !p->K)
		return;
	double *a = xmalloc((size_t)live * K * sizeof *a), *x = xmalloc((size_t)live * K * sizeof *x);
	double *sz = xmalloc((size_t)live * sizeof *sz);
	int *n = xmalloc((size_t)live * sizeof *n), *which = xmalloc((size_t)live * sizeof *which);
	int L = 0;
	for (int c = 0; c < p->C; c++)
		if (p->cn[c] > 0) {
			memcpy(&a[(size_t)L * K], &p->ca[(size_t)c * K], K * sizeof *a);
			sz[L] = p->cs[c], n[L] = p->cn[c], which[L++] = c;
		}
	if (gav_lp_solve(L, p->K, a, n, sz, p->cap, x, NULL, NULL))
		for (int l = 0; l < L; l++)
			memcpy(&p->cx[(size_t)which[l] * K], &x[(size_t)l * K], K * sizeof *x);
	p->lp_solves++;
	free(a), free(x), free(sz), free(n), free(which);
	struct gav_memo *e = &p->memo[p->memo_next++ % 16];
	e->h = h, e->C = p->C;
	e->cn = xrealloc(e->cn, (size_t)p->C * sizeof *e->cn);
	e->cx = xrealloc(e->cx, (size_t)p->C * K * sizeof *e->cx);
	memcpy(e->cn, p->cn, (size_t)p->C * sizeof *e->cn);
	memcpy(e->cx, p->cx, (size_t)p->C * K * sizeof *e->cx);
}

/* A solve: the program over the active GPU jobs (by class), and every
 * job active now seen by it. */
static void solve(struct gav *p, struct sim *s)
{
	p->dirty = false;
	p->solved_us = sim_now(s);
	/* the jobs in id order (resolve > 0: see gav_finished) */
	if (p->resolve_us > 0 && p->nact > 1)
		qsort(p->act, (size_t)p->nact, sizeof *p->act, cmp_int);
	p->seen_below = p->next_job;
	if (p->lp_stale || p->plain)
		solve_lp(p);
	p->solves++;
}

/* The active jobs in the order gavel.md states: start with *pos = 0;
 * -1 at the end. */
static int act_next(const struct gav *p, int *pos)
{
	if (p->resolve_us > 0)
		return *pos < p->nact ? p->act[(*pos)++] : -1;
	if (*pos < 0)
		return -1;
	int job = pol_bits_next(&p->actb, *pos);
	*pos = job < 0 ? -1 : job + 1;
	return job;
}

/* Active jobs that may want executors, in the same order: with
 * resolve = 0 the `want` set (a job leaves it when met wanting none);
 * else, or with clu_plain_scan, every active job. */
static int want_next(struct gav *p, const struct sim *s, int *pos)
{
	if (p->resolve_us > 0 || p->plain)
		return act_next(p, pos);
	while (*pos >= 0) {
		int job = pol_bits_next(&p->want, *pos);
		*pos = job < 0 ? -1 : job + 1;
		if (job < 0 || sim_execs_wanted(sim_job(s, job)) > 0 || p->j[job].going)
			return job;
		pol_bits_put(&p->want, job, false); /* back at exec_lost */
	}
	return -1;
}

/* The (job, model) pairs with X > 0 of the active GPU jobs not being
 * preempted, in falling priority; `wanting`: only those of jobs that
 * want executors (fill passes over the others: the order of the rest is
 * the same, the comparison being a total order). */
static int pairs(struct gav *p, struct sim *s, bool wanting)
{
	int64_t now = sim_now(s);
	int n = 0, pos = 0;
	for (int job; (job = wanting ? want_next(p, s, &pos) : act_next(p, &pos)) >= 0;) {
		const struct gj *g = &p->j[job];
		if (!(g->gpus > 0) || g->going)
			continue;
		const struct sim_job *j = sim_job(s, job);
		if (wanting && sim_execs_wanted(j) == 0)
			continue;
		double life = (double)(now - j->arrival_us) / 1e6;
		for (int k = 0; k < p->K; k++) {
			double x = gav_x_of(p, job, k);
			if (!(x > 0))
				continue;
			double got = life > 0 ? (double)gav_recv_us(p, now, job, k) / 1e6 / life : 0;
			xgrow(&p->pr, &p->cappr, n + 1, sizeof *p->pr);
			p->pr[n++] = (struct pair){got > 0 ? x / got : 1e300 * x, x, j->arrival_us,
						   job, k};
		}
	}
	if (n > 1) /* p->pr is NULL before the first pair */
		qsort(p->pr, (size_t)n, sizeof *p->pr, gav_cmp_pair);
	return n;
}

static bool projection_ok(const struct gav *p, int n)
{
	for (int i = 0; i < n; i++)
		if (p->pc[i] < 0 || p->pm[i] < 0 || p->pg[i] < 0)
			return false;
	return true;
}

/* Between rounds: waiting GPU jobs by priority, a lost executor's
 * replacement on its job's model, then CPU jobs by arrival; nothing
 * preempted. */
static void fill(struct gav *p, struct sim *s)
{
	int n = pairs(p, s, !p->plain);
	for (int i = 0; i < n; i++) {
		int job = p->pr[i].job;
		struct gj *g = &p->j[job];
		if (g->going || (g->running && g->type != p->pr[i].type) ||
		    sim_execs_wanted(sim_job(s, job)) == 0)
			continue;
		gav_launch(p, s, job, p->pr[i].type);
	}
	/* jobs the last solve did not see (resolve), and CPU jobs */
	int pos = 0;
	for (int job; (job = want_next(p, s, &pos)) >= 0;) {
		struct gj *g = &p->j[job];
		if (g->going || sim_execs_wanted(sim_job(s, job)) == 0)
			continue;
		if (!(g->gpus > 0)) {
			if (gav_first_fit(p, s, sim_job(s, job), -1)) {
				pol_tent_launch(&p->t, s, job);
				g->running = true;
				gav_regroup(p, s, job);
			}
			continue;
		}
		bool seen = false;
		for (int k = 0; k < p->K; k++)
			seen |= gav_x_of(p, job, k) > 0;
		for (int k = 0; !seen && !g->running && k < p->K; k++)
			if (p->tp[(size_t)job * (size_t)p->K + (size_t)k] > 0)
				gav_launch(p, s, job, k);
	}
}

/* A round: the allocation's pairs given out on the projection, the
 * running jobs left out preempted. */
static void round_assign(struct gav *p, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	pol_proj_free(c, p->pc, p->pm, p->pg);
	int pos = 0;
	for (int job; (job = act_next(p, &pos)) >= 0;) {
		p->done[job] = p->moved[job] = false;
		if (p->j[job].running && p->j[job].gpus > 0 && !p->j[job].going)
			pol_proj_job(s, job, +1, p->pc, p->pm, p->pg);
	}
	int n = pairs(p, s, false);
	for (int i = 0; i < n; i++) {
		int job = p->pr[i].job, k = p->pr[i].type;
		struct gj *g = &p->j[job];
		if (p->done[job])
			continue;
		if (g->running && g->type == k) { /* the lease renewed */
			pol_proj_job(s, job, -1, p->pc, p->pm, p->pg);
			if (projection_ok(p, c->n)) {
				p->done[job] = true;
				if (sim_execs_wanted(sim_job(s, job)) > 0) /* it lost one */
					pol_proj_pack(s, sim_job(s, job), p->pc, p->pm, p->pg, p->type[k],
						      false);
			} else {
				pol_proj_job(s, job, +1, p->pc, p->pm, p->pg);
			}
		} else if (pol_proj_pack(s, sim_job(s, job), p->pc, p->pm, p->pg, p->type[k],
					  g->running)) {
			/* waiting, or moved from another model (preempted below;
			 * it starts on this one once its executors are gone) */
			p->done[job] = true;
			p->moved[job] = g->running;
		}
	}
	pos = 0;
	for (int job; (job = act_next(p, &pos)) >= 0;) { /* the running ones left out or moved give way */
		struct gj *g = &p->j[job];
		if (!g->running || !(g->gpus > 0) || g->going || (p->done[job] && !p->moved[job]))
			continue;
		g->going = true;
		pol_preempt_job(s, job);
		gav_regroup(p, s, job);
	}
}

/* fill_fast where it applies (resolve = 0, not plain, every active job
 * seen by the last solve), else fill. */
static void fill_any(struct gav *p, struct sim *s)
{
	if (p->fast && p->seen_below == p->next_job)
		gav_fill_fast(p, s);
	else
		fill(p, s);
}

static void gav_schedule(void *st, struct sim *s)
{
	struct gav *p = st;
	if (p->dirty && (p->solved_us < 0 || sim_now(s) - p->solved_us >= p->resolve_us))
		solve(p, s);
	fill_any(p, s);
}

static void gav_timer(void *st, struct sim *s, uint32_t tag)
{
	struct gav *p = st;
	if (tag != TAG_ROUND)
		return;
	solve(p, s);
	round_assign(p, s);
	fill_any(p, s);
	p->ticking = p->nact > 0;
	if (p->ticking)
		sim_policy_timer(s, (double)p->round_us, TAG_ROUND);
}

/* A preempted or lost executor: the job, once it holds none, waits. */
static void gav_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	struct gav *p = st;
	(void)x, (void)why;
	const struct sim_job *j = sim_job(s, job);
	if (!p->j[job].active)
		return;
	pol_bits_put(&p->want, job, true);
	if (j->live->execs_live == 0) {
		stop_running(p, sim_now(s), job);
		p->j[job].going = false;
	}
	gav_regroup(p, s, job);
}

static void gav_fini(void *st)
{
	struct gav *p = st;
	pol_fits_free(&p->fits);
	pol_tent_fini(&p->t);
	free(p->j), free(p->tp), free(p->recv), free(p->act), free(p->pr);
	free(p->pc), free(p->pm), free(p->pg), free(p->done), free(p->moved);
	pol_bits_free(&p->actb);
	pol_bits_free(&p->want);
	free(p->ca), free(p->cs), free(p->cx), free(p->cn), free(p->hash), free(p->fm);
	free(p->node_k);
	gav_fill_fini(p);
	for (int m = 0; m < 16; m++)
		free(p->memo[m].cn), free(p->memo[m].cx);
	free(p);
	glp_free_env();
}

static const struct pol_param gav_params[] = {
	{.key = "round", .type = POL_TIME, .def = "6min", .lo = 1000, .hi = 86400e6, .period = true,
	 .def_num = 360e6, .help = "a scheduling round: the allocation re-solved and given out, "
				  "preempting"},
	{.key = "resolve", .type = POL_TIME, .def = "0s", .lo = 0, .hi = 86400e6, .def_num = 0,
	 .help = "between rounds, the program is solved again when the jobs changed, at most "
		 "this often (0: at every change)"},
	{.key = NULL},
};

const struct policy_ops pol_gavel = {
	.name = "gavel",
	.summary = "Gavel: heterogeneity-aware max-min fairness (an LP, GLPK) over a job x "
		   "GPU-model throughput matrix, rounds, preemption",
	.params = gav_params,
	.uses_labels = false,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.needs = POL_NEED_THROUGHPUT | POL_NEED_PREEMPTION,
	.init = gav_init,
	.job_arrived = gav_arrived,
	.job_finished = gav_finished,
	.schedule = gav_schedule,
	.fini = gav_fini,
	.exec_lost = gav_exec_lost,
	.timer = gav_timer,
	.can_ever_place = pol_whole_verdict,
};
