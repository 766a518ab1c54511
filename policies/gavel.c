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
 * then, with resolve = 0 (fill_fast), O((G + L) x (S + log W) + M log M)
 * for W waiting jobs in G groups (class x shape, 8 on the mix), S <=
 * G x (K + 1) streams, L launches and M pairs of jobs that ran and wait
 * again or lost an executor (0 on the mix: no round comes before its
 * queue drains): a waiting job's pairs that never ran have a priority
 * free of the clock, kept in order per group and model; with resolve >
 * 0, O(W log W), every pair sorted.  Per first fit O(executors x log64
 * nodes) through a pol_index tree per GPU model, O(1) for a job holding
 * nothing whose shape did not fit the unchanged cluster.  Per job change
 * O(K log W) (regroup).  Per round O(pairs log pairs + jobs x executors
 * x nodes) (the projection is scanned).  With clu_plain_scan, the
 * reference: GLPK at every solve, every active job visited and every
 * pair sorted, every node scanned per executor.
 */
#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gavel.h"
#include "gavel_lp.h"
#include "pol_common.h"
#include "pol_index.h"
#include "pol_oset.h"
#include "registry.h"
#include "sim.h"
#include "util.h"

#define TAG_ROUND 1u
#define MAX_TYPES 64

struct gj {
	bool active;           /* arrived, not ended */
	bool running;          /* holds executors */
	bool going;            /* being preempted */
	int type;              /* the model it runs on, or -1 */
	int cls;               /* its class in the program (gavel_lp.h), -1: none */
	double gpus;           /* s_m: the GPUs it asks for (0: a CPU job) */
	double norm;           /* N_m */
	int64_t since_us;      /* running on `type` since (type >= 0) */
};

struct pair {
	double prio, x;
	int64_t arrival;
	int job, type;
};

struct gav;

/* A group of waiting jobs (fill_fast): active, holding nothing, not
 * being preempted, of one class (-1: CPU jobs) and one shape. */
struct ggrp {
	int cls, shape;
	int n;                 /* members */
	int all;               /* pol_oset root (pool pa): members by id */
	int at;                /* its place in glive */
};

/* One ordered stream of fill_fast's walk: a group's members (k >= 0:
 * those that never ran on model k, as pairs on k) from a cursor. */
struct gstream {
	int g, k;
	int head;              /* the next member (pair id or job), -1: done */
	bool parked;           /* its last member failed on an unchanged
				  cluster: the next ones fail too (nofit) */
	struct pol_okey cur;   /* members before it are passed */
};

/* One first-fit index: GPU executors on nodes of model k only (k < 0:
 * anywhere), the others anywhere (pol_first_fit_on's rule). */
struct gav_ix {
	const struct gav *p;
	int k;
	struct pol_ix ix;
};

struct gav {
	struct pol_fits fits;
	struct pol_tent t;
	int K;                 /* GPU models of the cluster */
	const char *type[MAX_TYPES];
	double cap[MAX_TYPES]; /* GPUs of each model */
	double ctot;
	int64_t round_us, resolve_us;
	int64_t solved_us;     /* the last solve, or -1 */
	bool ticking, dirty;
	bool plain;            /* clu_plain_scan: the program solved at every
				  solve, every active job visited, nodes scanned */
	struct gj *j;
	double *tp;            /* by job x model: T */
	int64_t *recv;         /* by job x model: time run there, µs, to since_us */
	/* The active jobs: with resolve > 0 in the order gavel.md states
	 * (sorted at each solve, an ended job's place taken by the last:
	 * act), else in id order, as a set (actb); nact of them. */
	int *act; int nact, capact;
	struct pol_bits actb;
	struct pol_bits want;  /* active jobs that may want executors (a
				  superset, pruned as fill meets them) */
	int next_job;          /* 1 + the last job arrived */
	int seen_below;        /* jobs below it were active at the last solve */
	/* The classes (gavel_lp.h), in order of first arrival, and a hash
	 * of them by (s, a). */
	int C, capc;
	double *ca, *cs, *cx;  /* a (C x K), s, X (C x K) of the last solve */
	int *cn;               /* active jobs of each */
	int *hash; int hcap;   /* class + 1, 0 empty; open addressing */
	bool lp_stale;         /* a class count changed since the program
				  was last solved */
	uint8_t *fm;           /* by shape x model: 0 unknown, 1 + fits_model */
	int nshapes;
	struct pair *pr; int cappr;
	int64_t *pc, *pm, *pg; /* the projection by node */
	bool *done;            /* by job: granted a pair this round */
	bool *moved;           /* ... on a model other than the one it runs on */
	int *node_k;           /* by node: its model's index, -1: none */
	struct gav_ix *ix;     /* K + 1 indexes (ix[0]: k = -1); NULL plain */
	/* By job shape x (K + 1) rules: 1 + the cluster's change count when
	 * a job of that shape holding nothing last did not fit by that rule
	 * (0: none).  A first fit reads only the shape and the nodes' free
	 * amounts, which change only with that count: while it stands, the
	 * next such job does not fit either (fifo's `blocked`, by shape). */
	uint64_t *nofit;
	int64_t solves, lp_solves;
	/* fill_fast (resolve = 0, not plain): the waiting jobs in groups
	 * (struct ggrp), found by a hash of (class, shape); the others that
	 * may want executors in misb; waiting ones that ran in ranb. */
	bool fast;
	struct ggrp *grp; int G, capg;
	int *gh; int ghcap;    /* group + 1, 0 empty; open addressing */
	int *glive; int nlive; /* groups with members */
	int *gnr;              /* by group x model: pol_oset root (pool pn,
				  ids job x K + k), members with no time on k */
	struct pol_oset pa, pn;
	int *jg;               /* by job: its group, -1 */
	uint64_t *jnr;         /* by job: the models of its pn entries */
	struct pol_bits ranb, misb;
	int nran, nmis;
	struct gstream *st; int capst;
	int nwait;             /* jobs in groups */
	/* The last LP_MEMO programs solved: the class counts (C of them)
	 * and the X they gave (C x K); a program is its counts, the rest
	 * being fixed for a class, and a cold solve of it the same bytes. */
	struct gav_memo {
		uint64_t h;
		int C;
		int *cn;
		double *cx;
	} memo[16];
	int memo_next;
};

struct gav_count gav_count;

static double gpus_asked(const struct sim_job *j)
{
	double g = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		g += ro->count * (ro->gpus ? ro->gpus : ro->gpu_milli / (double)CLU_GPU_MILLI);
	}
	return g;
}

/* 0 where an executor of shape `sh` fits node n now (after the
 * tentative ones) and may go there, else INFINITY: the tree's first
 * candidate is then pol_first_fit_on's node. */
static double ff_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
		     const struct pol_shape *sh)
{
	const struct gav_ix *x = ctx;
	if (x->k >= 0 && (sh->gpus || sh->gpu_milli) && x->p->node_k[n->id] != x->k)
		return INFINITY;
	if (!(fc >= sh->cores && fm >= sh->mem_mib && fg >= sh->gpus))
		return INFINITY;
	return !sh->gpu_milli || pol_share_pick(&x->p->t, n, sh->gpu_milli) >= 0 ? 0 : INFINITY;
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
		if (k == p->K && p->K < MAX_TYPES)
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
	if (!p->plain) {
		p->nofit = xcalloc((size_t)(p->nshapes ? p->nshapes : 1) * (size_t)(p->K + 1),
				   sizeof *p->nofit);
		p->fast = p->resolve_us == 0;
		p->ix = xcalloc((size_t)p->K + 1, sizeof *p->ix);
		for (int k = 0; k <= p->K; k++) {
			p->ix[k].p = p;
			p->ix[k].k = k - 1;
			pol_ix_init(&p->ix[k].ix, c, &p->t, ff_key, &p->ix[k]);
		}
	}
	if (p->fast) {
		pol_oset_init(&p->pa, nj);
		pol_oset_init(&p->pn, nj * K);
		p->jg = xmalloc((size_t)nj * sizeof *p->jg);
		for (int i = 0; i < nj; i++)
			p->jg[i] = -1;
		p->jnr = xcalloc((size_t)nj, sizeof *p->jnr);
		pol_bits_init(&p->ranb, nj);
		pol_bits_init(&p->misb, nj);
	}
	glp_term_out(GLP_OFF);
	return p;
}

/* Time job `job` has run on model k, µs, up to now. */
static int64_t recv_us(const struct gav *p, int64_t now, int job, int k)
{
	const struct gj *g = &p->j[job];
	int64_t r = p->recv[(size_t)job * (size_t)p->K + (size_t)k];
	return g->running && g->type == k ? r + (now - g->since_us) : r;
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

/* X[job][k] of the last solve: its class's, if it was active then. */
static double x_of(const struct gav *p, int job, int k)
{
	int c = p->j[job].cls;
	if (c < 0 || job >= p->seen_below)
		return 0;
	return p->cx[(size_t)c * (size_t)p->K + (size_t)k];
}

/* ---- fill_fast's groups ------------------------------------------ */

static uint64_t grp_hash(int cls, int shape)
{
	uint64_t h = ((uint64_t)(uint32_t)(cls + 1) << 32 | (uint32_t)shape) * 0x9e3779b97f4a7c15u;
	return h ^ h >> 31;
}

static void grp_rehash(struct gav *p)
{
	free(p->gh);
	p->ghcap = p->ghcap ? 2 * p->ghcap : 64;
	p->gh = xcalloc((size_t)p->ghcap, sizeof *p->gh);
	for (int g = 0; g < p->G; g++) {
		uint64_t i = grp_hash(p->grp[g].cls, p->grp[g].shape);
		while (p->gh[i & (uint64_t)(p->ghcap - 1)])
			i++;
		p->gh[i & (uint64_t)(p->ghcap - 1)] = g + 1;
	}
}

/* The group of class cls (-1: CPU jobs) and shape `shape`, made if new.
 * O(1) expected. */
static int grp_of(struct gav *p, int cls, int shape)
{
	if (2 * (p->G + 1) > p->ghcap)
		grp_rehash(p);
	uint64_t i = grp_hash(cls, shape);
	for (;; i++) {
		int g = p->gh[i & (uint64_t)(p->ghcap - 1)] - 1;
		if (g < 0)
			break;
		if (p->grp[g].cls == cls && p->grp[g].shape == shape)
			return g;
	}
	size_t K = (size_t)(p->K ? p->K : 1);
	if (p->G == p->capg) {
		p->capg = p->capg ? 2 * p->capg : 16;
		p->grp = xrealloc(p->grp, (size_t)p->capg * sizeof *p->grp);
		p->gnr = xrealloc(p->gnr, (size_t)p->capg * K * sizeof *p->gnr);
		p->glive = xrealloc(p->glive, (size_t)p->capg * sizeof *p->glive);
	}
	int g = p->G++;
	p->grp[g] = (struct ggrp){.cls = cls, .shape = shape, .all = -1, .at = -1};
	for (size_t k = 0; k < K; k++)
		p->gnr[(size_t)g * K + k] = -1;
	p->gh[i & (uint64_t)(p->ghcap - 1)] = g + 1;
	return g;
}

static void set_bit(struct pol_bits *b, int *n, int i, bool on)
{
	if (pol_bits_has(b, i) != on)
		pol_bits_put(b, i, on), *n += on ? 1 : -1;
}

/* Whether job j holds nothing and its shape has a nofit row (first_fit's
 * `fresh`). */
static bool holds_nothing(const struct gav *p, const struct sim_job *j)
{
	bool fresh = j->shape->id >= 0 && j->shape->id < p->nshapes;
	for (int r = 0; r < j->shape->nroles; r++)
		fresh &= j->live->granted[r] == 0;
	return fresh;
}

/* Job `job`'s place in fill_fast's structures, from its state now:
 * called whenever its state changes (arrival, launch, preemption, loss,
 * end).  O(K log jobs). */
static void regroup(struct gav *p, const struct sim *s, int job)
{
	if (!p->fast)
		return;
	struct gj *g = &p->j[job];
	size_t K = (size_t)p->K;
	int gi = p->jg[job];
	if (gi >= 0) {
		struct ggrp *q = &p->grp[gi];
		pol_oset_remove(&p->pa, &q->all, job);
		for (size_t k = 0; k < K; k++)
			if (p->jnr[job] >> k & 1)
				pol_oset_remove(&p->pn, &p->gnr[(size_t)gi * K + k],
						(int)((size_t)job * K + k));
		p->jnr[job] = 0;
		p->jg[job] = -1;
		p->nwait--;
		if (--q->n == 0) { /* out of glive: the last takes its place */
			int last = p->glive[--p->nlive];
			p->glive[q->at] = last;
			p->grp[last].at = q->at;
			q->at = -1;
		}
	}
	set_bit(&p->ranb, &p->nran, job, false);
	set_bit(&p->misb, &p->nmis, job, false);
	if (!g->active || g->going)
		return;
	const struct sim_job *j = sim_job(s, job);
	if (g->running || !holds_nothing(p, j)) {
		if (sim_execs_wanted(j) > 0)
			set_bit(&p->misb, &p->nmis, job, true);
		return;
	}
	gi = grp_of(p, g->gpus > 0 ? g->cls : -1, j->shape->id);
	struct ggrp *q = &p->grp[gi];
	p->jg[job] = gi;
	pol_oset_insert(&p->pa, &q->all, job, (struct pol_okey){job, 0, 0});
	bool ran = false;
	for (size_t k = 0; g->gpus > 0 && k < K; k++) {
		if (p->recv[(size_t)job * K + k] > 0) {
			ran = true;
			continue;
		}
		pol_oset_insert(&p->pn, &p->gnr[(size_t)gi * K + k], (int)((size_t)job * K + k),
				(struct pol_okey){j->arrival_us, job, (int64_t)k});
		p->jnr[job] |= UINT64_C(1) << k;
	}
	if (ran)
		set_bit(&p->ranb, &p->nran, job, true);
	p->nwait++;
	if (q->n++ == 0) {
		q->at = p->nlive;
		p->glive[p->nlive++] = gi;
	}
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
		double a[MAX_TYPES];
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
	regroup(p, s, job);
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
	regroup(p, s, job);
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

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->x != y->x)
		return x->x > y->x ? -1 : 1;
	if (x->arrival != y->arrival)
		return x->arrival < y->arrival ? -1 : 1;
	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return x->type - y->type;
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
			double x = x_of(p, job, k);
			if (!(x > 0))
				continue;
			double got = life > 0 ? (double)recv_us(p, now, job, k) / 1e6 / life : 0;
			xgrow(&p->pr, &p->cappr, n + 1, sizeof *p->pr);
			p->pr[n++] = (struct pair){got > 0 ? x / got : 1e300 * x, x, j->arrival_us,
						   job, k};
		}
	}
	if (n > 1) /* p->pr is NULL before the first pair */
		qsort(p->pr, (size_t)n, sizeof *p->pr, cmp_pair);
	return n;
}

static bool projection_ok(const struct gav *p, int n)
{
	for (int i = 0; i < n; i++)
		if (p->pc[i] < 0 || p->pm[i] < 0 || p->pg[i] < 0)
			return false;
	return true;
}

static bool place(struct gav *p, const struct clu *c, const struct sim_job *j, int k);

/* pol_first_fit_on(&p->t, s, j, -1, model k or NULL for k < 0), each
 * executor's node found through the index of its rule (GPU executors:
 * model k's, the others: any node's) where there is one. */
static bool first_fit(struct gav *p, const struct sim *s, const struct sim_job *j, int k)
{
	if (p->plain)
		return pol_first_fit_on(&p->t, s, j, -1, k >= 0 ? p->type[k] : NULL);
	const struct clu *c = sim_cluster(s);
	uint64_t *nofit = NULL;
	bool fresh = j->shape->id >= 0 && j->shape->id < p->nshapes; /* nothing granted */
	for (int r = 0; r < j->shape->nroles; r++)
		fresh &= j->live->granted[r] == 0;
	if (fresh) {
		nofit = &p->nofit[(size_t)j->shape->id * (size_t)(p->K + 1) + (size_t)(k + 1)];
		if (*nofit == c->changes + 1)
			return false;
	}
	bool ok = place(p, c, j, k);
	if (!ok && nofit)
		*nofit = c->changes + 1;
	return ok;
}

/* first_fit's placement through the indexes. */
static bool place(struct gav *p, const struct clu *c, const struct sim_job *j, int k)
{
	pol_tent_reset(&p->t);
	int left = sim_execs_wanted(j);
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		struct pol_shape sh = {ro->cores ? ro->cores : CLU_MILLI, ro->mem_mib, ro->gpus,
				       ro->gpus ? 0 : ro->gpu_milli};
		struct gav_ix *x = &p->ix[(sh.gpus || sh.gpu_milli) && k >= 0 ? k + 1 : 0];
		for (int e = j->live->granted[r]; e < ro->count; e++) {
			const struct pol_tree *tr = pol_ix_tree(&x->ix, &sh);
			int node = -1;
			if (tr)
				node = pol_tree_top(tr);
			else /* past the index's shapes: the scan */
				for (int i = 0; i < c->n && node < 0; i++) {
					int fc, fg;
					int64_t fm;
					pol_tent_free(&p->t, &c->nodes[i], &fc, &fm, &fg);
					if (ff_key(x, &c->nodes[i], fc, fm, fg, &sh) == 0)
						node = i;
				}
			if (node < 0)
				return false;
			if (sh.gpu_milli)
				pol_tent_add_share(&p->t, &c->nodes[node], r, sh.cores, sh.mem_mib,
						   sh.gpu_milli);
			else
				pol_tent_add(&p->t, node, r, sh.cores, sh.mem_mib, sh.gpus);
			if (--left > 0)
				for (int i = 0; i <= p->K; i++)
					pol_ix_touch(&p->ix[i].ix, node);
		}
	}
	return true;
}

static bool launch(struct gav *p, struct sim *s, int job, int k)
{
	if (!first_fit(p, s, sim_job(s, job), k))
		return false;
	pol_tent_launch(&p->t, s, job);
	struct gj *g = &p->j[job];
	if (!g->running || g->type != k) /* a replacement: its clock runs on */
		g->since_us = sim_now(s);
	g->running = true;
	g->type = k;
	regroup(p, s, job);
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
		launch(p, s, job, p->pr[i].type);
	}
	/* jobs the last solve did not see (resolve), and CPU jobs */
	int pos = 0;
	for (int job; (job = want_next(p, s, &pos)) >= 0;) {
		struct gj *g = &p->j[job];
		if (g->going || sim_execs_wanted(sim_job(s, job)) == 0)
			continue;
		if (!(g->gpus > 0)) {
			if (first_fit(p, s, sim_job(s, job), -1)) {
				pol_tent_launch(&p->t, s, job);
				g->running = true;
				regroup(p, s, job);
			}
			continue;
		}
		bool seen = false;
		for (int k = 0; k < p->K; k++)
			seen |= x_of(p, job, k) > 0;
		for (int k = 0; !seen && !g->running && k < p->K; k++)
			if (p->tp[(size_t)job * (size_t)p->K + (size_t)k] > 0)
				launch(p, s, job, k);
	}
}

/* ---- fill_fast: fill's walk without visiting every waiting job ----- */

/* The waiting jobs of one group that never ran on model k all have the
 * priority 1e300 X[class][k] (got = 0) and the same x: their pairs come
 * in (arrival, job) order, the order of their pn keys.  The others that
 * may want executors (misb: running with an executor lost, or holding
 * some; ranb: waiting, with time on some model) are few: their pairs are
 * made and sorted as pairs() does.  fill's walk is then a merge of these
 * streams by cmp_pair, a total order, so it visits the pairs in the same
 * order.  A group's members hold nothing and share shape and model:
 * once one failed, the next ones fail through first_fit's nofit until
 * the cluster changes, so the stream is parked, and only a launch (a
 * change) wakes it, past the pair launched (the members it skipped were
 * no-ops in fill's walk). */
static struct pair nr_pair(const struct gav *p, const struct gstream *t)
{
	const struct pol_okey *key = &p->pn.key[t->head];
	double x = p->cx[(size_t)p->grp[t->g].cls * (size_t)p->K + (size_t)t->k];
	return (struct pair){1e300 * x, x, key->a, (int)key->b, t->k};
}

static void stream_head(struct gav *p, struct gstream *t)
{
	t->head = t->k >= 0 ? pol_oset_ceil(&p->pn, p->gnr[(size_t)t->g * (size_t)p->K + (size_t)t->k],
					    &t->cur)
			    : pol_oset_ceil(&p->pa, p->grp[t->g].all, &t->cur);
}

static void stream_past(struct gstream *t, struct pol_okey after)
{
	t->cur = pol_okey_cmp(&after, &t->cur) > 0 ? after : t->cur;
}

/* Pairs of the jobs in ranb and misb, sorted, into p->pr. */
static int misc_pairs(struct gav *p, struct sim *s)
{
	int64_t now = sim_now(s);
	size_t K = (size_t)p->K;
	int n = 0;
	for (int pass = 0; pass < 2; pass++) {
		struct pol_bits *b = pass ? &p->misb : &p->ranb;
		if (!(pass ? p->nmis : p->nran))
			continue;
		for (int job, pos = 0; (job = pol_bits_next(b, pos)) >= 0; pos = job + 1) {
			const struct gj *g = &p->j[job];
			const struct sim_job *j = sim_job(s, job);
			if (pass && sim_execs_wanted(j) == 0) { /* back at exec_lost */
				set_bit(&p->misb, &p->nmis, job, false);
				continue;
			}
			if (!(g->gpus > 0) || g->going)
				continue;
			double life = (double)(now - j->arrival_us) / 1e6;
			for (size_t k = 0; k < K; k++) {
				double x = x_of(p, job, (int)k);
				if (!(x > 0) || (!pass && p->jnr[job] >> k & 1))
					continue; /* ranb: pairs with no time there are in pn */
				int64_t r = recv_us(p, now, job, (int)k);
				double got = life > 0 ? (double)r / 1e6 / life : 0;
				xgrow(&p->pr, &p->cappr, n + 1, sizeof *p->pr);
				p->pr[n++] = (struct pair){got > 0 ? x / got : 1e300 * x, x,
							   j->arrival_us, job, (int)k};
			}
		}
	}
	if (n > 1)
		qsort(p->pr, (size_t)n, sizeof *p->pr, cmp_pair);
	return n;
}

static void fill_fast(struct gav *p, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	size_t K = (size_t)p->K;
	const struct pol_okey lo = {INT64_MIN, INT64_MIN, INT64_MIN};
	int n = misc_pairs(p, s), mi = 0, ns = 0, launches = 0;
	gav_count.fills++;
	gav_count.waiting += p->nwait;
	gav_count.bound += n;
	xgrow(&p->st, &p->capst, p->nlive * (p->K + 1) + 1, sizeof *p->st);
	for (int i = 0; i < p->nlive; i++) {
		int g = p->glive[i], cls = p->grp[g].cls;
		for (size_t k = 0; cls >= 0 && k < K; k++)
			if (p->cx[(size_t)cls * K + k] > 0 && p->gnr[(size_t)g * K + k] >= 0) {
				p->st[ns] = (struct gstream){g, (int)k, -1, false, lo};
				stream_head(p, &p->st[ns++]);
			}
	}
	for (;;) { /* GPU jobs in falling priority */
		int best = -1;
		struct pair bp = {0};
		for (int t = 0; t < ns; t++) {
			if (p->st[t].head < 0 || p->st[t].parked)
				continue;
			struct pair q = nr_pair(p, &p->st[t]);
			if (best < 0 || cmp_pair(&q, &bp) < 0)
				best = t, bp = q;
		}
		bool misc = mi < n && (best < 0 || cmp_pair(&p->pr[mi], &bp) < 0);
		if (!misc && best < 0)
			break;
		struct pair P = misc ? p->pr[mi++] : bp;
		struct gj *g = &p->j[P.job];
		uint64_t ch = c->changes;
		bool tried = false;
		gav_count.visits++;
		if (!(g->going || (g->running && g->type != P.type) ||
		      sim_execs_wanted(sim_job(s, P.job)) == 0)) {
			tried = true;
			launch(p, s, P.job, P.type);
		}
		if (!misc) {
			p->st[best].cur = (struct pol_okey){P.arrival, P.job, P.type + 1};
			p->st[best].parked = tried && c->changes == ch;
			stream_head(p, &p->st[best]);
		}
		if (c->changes == ch)
			continue;
		launches++;
		for (int t = 0; t < ns; t++) { /* a change: the parked wake past P */
			struct gstream *u = &p->st[t];
			if (u->parked) {
				double x = p->cx[(size_t)p->grp[u->g].cls * K + (size_t)u->k];
				struct pair h = {1e300 * x, x, INT64_MAX, INT_MAX, INT_MAX};
				if (h.prio != P.prio || h.x != P.x) {
					if (cmp_pair(&h, &P) < 0) /* all of it before P */
						u->cur = (struct pol_okey){INT64_MAX, INT64_MAX, INT64_MAX};
				} else {
					stream_past(u, (struct pol_okey){P.arrival, P.job, P.type + 1});
				}
				u->parked = false;
			}
			stream_head(p, u); /* P's job left its groups */
		}
	}
	gav_count.bound += (int64_t)ns * (launches + 1) + launches;
	/* jobs the last solve gave no share, and CPU jobs, by id */
	ns = 0, launches = 0;
	int64_t nmis = p->nmis;
	for (int i = 0; i < p->nlive; i++) {
		int g = p->glive[i], cls = p->grp[g].cls;
		bool seen = false;
		for (size_t k = 0; cls >= 0 && k < K; k++)
			seen |= p->cx[(size_t)cls * K + k] > 0;
		if (!seen) {
			p->st[ns] = (struct gstream){g, -1, -1, false, lo};
			stream_head(p, &p->st[ns++]);
		}
	}
	for (int mpos = 0;;) {
		int best = -1, bj = INT_MAX;
		for (int t = 0; t < ns; t++)
			if (p->st[t].head >= 0 && !p->st[t].parked && p->st[t].head < bj)
				best = t, bj = p->st[t].head;
		int mj = p->nmis ? pol_bits_next(&p->misb, mpos) : -1;
		bool misc = mj >= 0 && mj < bj;
		if (!misc && best < 0)
			break;
		int job = misc ? mj : bj;
		struct gj *g = &p->j[job];
		const struct sim_job *j = sim_job(s, job);
		uint64_t ch = c->changes;
		bool tried = false;
		gav_count.visits++;
		if (misc)
			mpos = job + 1;
		if (!g->going && sim_execs_wanted(j) == 0) {
			if (misc) /* back at exec_lost */
				set_bit(&p->misb, &p->nmis, job, false);
		} else if (!g->going && !(g->gpus > 0)) {
			tried = true;
			if (first_fit(p, s, j, -1)) {
				pol_tent_launch(&p->t, s, job);
				g->running = true;
				regroup(p, s, job);
			}
		} else if (!g->going) {
			bool seen = false;
			for (int k = 0; k < p->K; k++)
				seen |= x_of(p, job, k) > 0;
			tried = !seen && !g->running;
			for (int k = 0; !seen && !g->running && k < p->K; k++)
				if (p->tp[(size_t)job * K + (size_t)k] > 0)
					launch(p, s, job, k);
		}
		if (!misc) {
			struct gstream *t = &p->st[best];
			t->cur = (struct pol_okey){job, 0, 1};
			t->parked = tried && c->changes == ch;
			stream_head(p, t);
		}
		if (c->changes == ch)
			continue;
		launches++;
		for (int t = 0; t < ns; t++) {
			struct gstream *u = &p->st[t];
			if (u->parked)
				stream_past(u, (struct pol_okey){job, 0, 1});
			u->parked = false;
			stream_head(p, u);
		}
	}
	gav_count.bound += (int64_t)ns * (launches + 1) + launches + nmis;
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
		regroup(p, s, job);
	}
}

/* fill_fast where it applies (resolve = 0, not plain, every active job
 * seen by the last solve), else fill. */
static void fill_any(struct gav *p, struct sim *s)
{
	if (p->fast && p->seen_below == p->next_job)
		fill_fast(p, s);
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
	regroup(p, s, job);
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
	for (int k = 0; p->ix && k <= p->K; k++)
		pol_ix_free(&p->ix[k].ix);
	free(p->ix);
	free(p->nofit);
	if (p->fast) {
		pol_oset_free(&p->pa);
		pol_oset_free(&p->pn);
		pol_bits_free(&p->ranb);
		pol_bits_free(&p->misb);
	}
	free(p->grp), free(p->gh), free(p->glive), free(p->gnr), free(p->jg), free(p->jnr);
	free(p->st);
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
