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
 * The program is solved at every `round` and whenever the set of jobs
 * changed since the last solve (at most once per `resolve`).
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
 * Cost per solve: GLPK's simplex on (2 jobs + models) rows and (jobs x
 * models + 1) columns; per round O(pairs log pairs + jobs x executors x
 * nodes).
 */
#include <glpk.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
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
	double gpus;           /* s_m: the GPUs it asks for (0: a CPU job) */
	double norm;           /* N_m */
};

struct pair {
	double prio, x;
	int64_t arrival;
	int job, type;
};

struct gav {
	struct pol_fits fits;
	struct pol_tent t;
	int K;                 /* GPU models of the cluster */
	const char *type[MAX_TYPES];
	double cap[MAX_TYPES]; /* GPUs of each model */
	double ctot;
	int64_t round_us, resolve_us;
	int64_t last_us;       /* service counted up to here */
	int64_t solved_us;     /* the last solve, or -1 */
	bool ticking, dirty;
	struct gj *j;
	double *tp, *x, *recv; /* by job x model: T, X, time run there (s) */
	int *act; int nact, capact;
	struct pair *pr; int cappr;
	int64_t *pc, *pm, *pg; /* the projection by node */
	bool *done;            /* by job: granted a pair this round */
	bool *moved;           /* ... on a model other than the one it runs on */
	int64_t solves;
};

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
	for (int i = 0; i < c->n; i++) { /* the GPU models, in node order */
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
		}
	}
	int K = p->K ? p->K : 1;
	p->j = xcalloc((size_t)nj, sizeof *p->j);
	p->tp = xcalloc((size_t)nj * (size_t)K, sizeof *p->tp);
	p->x = xcalloc((size_t)nj * (size_t)K, sizeof *p->x);
	p->recv = xcalloc((size_t)nj * (size_t)K, sizeof *p->recv);
	p->done = xcalloc((size_t)nj, sizeof *p->done);
	p->moved = xcalloc((size_t)nj, sizeof *p->moved);
	p->pc = xmalloc((size_t)n * sizeof *p->pc);
	p->pm = xmalloc((size_t)n * sizeof *p->pm);
	p->pg = xmalloc((size_t)n * sizeof *p->pg);
	p->last_us = sim_now(s);
	p->solved_us = -1;
	glp_term_out(GLP_OFF);
	return p;
}

/* Time run on each model, up to now. */
static void account(struct gav *p, struct sim *s)
{
	int64_t now = sim_now(s);
	double dt = (double)(now - p->last_us) / 1e6;
	for (int i = 0; dt > 0 && i < p->nact; i++) {
		const struct gj *g = &p->j[p->act[i]];
		if (g->running && g->type >= 0)
			p->recv[(size_t)p->act[i] * (size_t)p->K + (size_t)g->type] += dt;
	}
	p->last_us = now;
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

static void gav_arrived(void *st, struct sim *s, int job)
{
	struct gav *p = st;
	const struct sim_job *j = sim_job(s, job);
	int why = pol_fits_arrived(&p->fits, s, j);
	struct gj *g = &p->j[job];
	*g = (struct gj){.active = true, .type = -1, .gpus = gpus_asked(j)};
	if (!why && g->gpus > 0) { /* its row of the matrix */
		double *tp = &p->tp[(size_t)job * (size_t)p->K];
		for (int k = 0; k < p->K; k++) {
			tp[k] = fits_model(s, j, p->type[k]) ? sim_job_throughput(s, j, p->type[k]) : 0;
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
	account(p, s);
	xgrow(&p->act, &p->capact, p->nact + 1, sizeof *p->act);
	p->act[p->nact++] = job;
	p->dirty = true;
	if (!p->ticking) { /* rounds while jobs are active */
		sim_policy_timer(s, (double)p->round_us, TAG_ROUND);
		p->ticking = true;
	}
}

static void gav_finished(void *st, struct sim *s, int job)
{
	struct gav *p = st;
	account(p, s);
	p->j[job].active = p->j[job].running = false;
	for (int i = 0; i < p->nact; i++)
		if (p->act[i] == job) {
			p->act[i] = p->act[--p->nact];
			break;
		}
	p->dirty = true;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The program over the active GPU jobs, X into p->x (0 for the others). */
static void solve(struct gav *p, struct sim *s)
{
	size_t K = (size_t)p->K;
	p->dirty = false;
	p->solved_us = sim_now(s);
	/* the jobs in id order, so that the program (and so its optimum
	 * among ties) does not depend on the order of events */
	qsort(p->act, (size_t)p->nact, sizeof *p->act, cmp_int);
	int M = 0;
	for (int i = 0; i < p->nact; i++) {
		int job = p->act[i];
		memset(&p->x[(size_t)job * K], 0, K * sizeof *p->x);
		M += p->j[job].gpus > 0;
	}
	if (!M || !p->K)
		return;
	glp_prob *lp = glp_create_prob();
	glp_set_obj_dir(lp, GLP_MAX);
	/* rows: 1..M fairness, M+1..2M a job's time, 2M+1..2M+K capacity */
	glp_add_rows(lp, 2 * M + p->K);
	for (int m = 1; m <= M; m++) {
		glp_set_row_bnds(lp, m, GLP_LO, 0, 0);
		glp_set_row_bnds(lp, M + m, GLP_UP, 0, 1);
	}
	for (int k = 0; k < p->K; k++)
		glp_set_row_bnds(lp, 2 * M + k + 1, GLP_UP, 0, p->cap[k]);
	/* columns: X[m][k] where T > 0, then t */
	int ncols = 0, cap = 64, nz = 0;
	int *ia = xmalloc((size_t)(3 * M * p->K + M + 2) * sizeof *ia);
	int *ja = xmalloc((size_t)(3 * M * p->K + M + 2) * sizeof *ja);
	double *ar = xmalloc((size_t)(3 * M * p->K + M + 2) * sizeof *ar);
	int *col_job = xmalloc((size_t)cap * sizeof *col_job), *col_k = NULL;
	col_k = xmalloc((size_t)cap * sizeof *col_k);
	int m = 0;
	for (int i = 0; i < p->nact; i++) {
		int job = p->act[i];
		const struct gj *g = &p->j[job];
		if (!(g->gpus > 0))
			continue;
		m++;
		for (int k = 0; k < p->K; k++) {
			double tp = p->tp[(size_t)job * K + (size_t)k];
			if (!(tp > 0))
				continue;
			if (ncols == cap) {
				cap *= 2;
				col_job = xrealloc(col_job, (size_t)cap * sizeof *col_job);
				col_k = xrealloc(col_k, (size_t)cap * sizeof *col_k);
			}
			col_job[ncols] = job, col_k[ncols] = k;
			int c = ++ncols;
			glp_add_cols(lp, 1);
			glp_set_col_bnds(lp, c, GLP_DB, 0, 1);
			ia[++nz] = m, ja[nz] = c, ar[nz] = tp / g->norm;
			ia[++nz] = M + m, ja[nz] = c, ar[nz] = 1;
			ia[++nz] = 2 * M + k + 1, ja[nz] = c, ar[nz] = g->gpus;
		}
	}
	int tc = ncols + 1;
	glp_add_cols(lp, 1);
	glp_set_col_bnds(lp, tc, GLP_LO, 0, 0);
	glp_set_obj_coef(lp, tc, 1);
	for (int r = 1; r <= M; r++)
		ia[++nz] = r, ja[nz] = tc, ar[nz] = -1;
	glp_load_matrix(lp, nz, ia, ja, ar);
	glp_smcp parm;
	glp_init_smcp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	int ok = glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT;
	if (ok) { /* then the rates, the min held */
		double t = glp_get_col_prim(lp, tc);
		glp_set_col_bnds(lp, tc, GLP_LO, t * (1 - 1e-9), 0);
		glp_set_obj_coef(lp, tc, 0);
		for (int c = 1; c <= ncols; c++)
			glp_set_obj_coef(lp, c, p->tp[(size_t)col_job[c - 1] * K + (size_t)col_k[c - 1]] /
						 p->j[col_job[c - 1]].norm);
		ok = glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT;
	}
	for (int c = 1; ok && c <= ncols; c++) {
		/* on a grid of 1e-9, so that the simplex's last bits do not
		 * break ties between equal shares */
		double v = round(glp_get_col_prim(lp, c) * 1e9) / 1e9;
		p->x[(size_t)col_job[c - 1] * K + (size_t)col_k[c - 1]] = v > 0 ? v : 0;
	}
	p->solves++;
	glp_delete_prob(lp);
	free(ia), free(ja), free(ar), free(col_job), free(col_k);
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

/* The (job, model) pairs with X > 0, in falling priority. */
static int pairs(struct gav *p, struct sim *s)
{
	size_t K = (size_t)p->K;
	int64_t now = sim_now(s);
	int n = 0;
	for (int i = 0; i < p->nact; i++) {
		int job = p->act[i];
		const struct gj *g = &p->j[job];
		if (!(g->gpus > 0) || g->going)
			continue;
		const struct sim_job *j = sim_job(s, job);
		double life = (double)(now - j->arrival_us) / 1e6;
		for (int k = 0; k < p->K; k++) {
			double x = p->x[(size_t)job * K + (size_t)k];
			if (!(x > 0))
				continue;
			double got = life > 0 ? p->recv[(size_t)job * K + (size_t)k] / life : 0;
			xgrow(&p->pr, &p->cappr, n + 1, sizeof *p->pr);
			p->pr[n++] = (struct pair){got > 0 ? x / got : 1e300 * x, x, j->arrival_us,
						   job, k};
		}
	}
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

static bool launch(struct gav *p, struct sim *s, int job, int k)
{
	if (!pol_first_fit_on(&p->t, s, sim_job(s, job), -1, p->type[k]))
		return false;
	pol_tent_launch(&p->t, s, job);
	p->j[job].running = true;
	p->j[job].type = k;
	return true;
}

/* Between rounds: waiting GPU jobs by priority, a lost executor's
 * replacement on its job's model, then CPU jobs by arrival; nothing
 * preempted. */
static void fill(struct gav *p, struct sim *s)
{
	int n = pairs(p, s);
	for (int i = 0; i < n; i++) {
		int job = p->pr[i].job;
		struct gj *g = &p->j[job];
		if (g->going || (g->running && g->type != p->pr[i].type) ||
		    sim_execs_wanted(sim_job(s, job)) == 0)
			continue;
		launch(p, s, job, p->pr[i].type);
	}
	/* jobs the last solve did not see (resolve), and CPU jobs */
	for (int i = 0; i < p->nact; i++) {
		int job = p->act[i];
		struct gj *g = &p->j[job];
		if (g->going || sim_execs_wanted(sim_job(s, job)) == 0)
			continue;
		if (!(g->gpus > 0)) {
			if (pol_first_fit(&p->t, s, sim_job(s, job), -1)) {
				pol_tent_launch(&p->t, s, job);
				g->running = true;
			}
			continue;
		}
		bool seen = false;
		for (int k = 0; k < p->K; k++)
			seen |= p->x[(size_t)job * (size_t)p->K + (size_t)k] > 0;
		for (int k = 0; !seen && !g->running && k < p->K; k++)
			if (p->tp[(size_t)job * (size_t)p->K + (size_t)k] > 0)
				launch(p, s, job, k);
	}
}

/* A round: the allocation's pairs given out on the projection, the
 * running jobs left out preempted. */
static void round_assign(struct gav *p, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	pol_proj_free(c, p->pc, p->pm, p->pg);
	for (int i = 0; i < p->nact; i++) {
		int job = p->act[i];
		p->done[job] = p->moved[job] = false;
		if (p->j[job].running && p->j[job].gpus > 0 && !p->j[job].going)
			pol_proj_job(s, job, +1, p->pc, p->pm, p->pg);
	}
	int n = pairs(p, s);
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
	for (int i = 0; i < p->nact; i++) { /* the running ones left out or moved give way */
		int job = p->act[i];
		struct gj *g = &p->j[job];
		if (!g->running || !(g->gpus > 0) || g->going || (p->done[job] && !p->moved[job]))
			continue;
		g->going = true;
		pol_preempt_job(s, job);
	}
}

static void gav_schedule(void *st, struct sim *s)
{
	struct gav *p = st;
	account(p, s);
	if (p->dirty && (p->solved_us < 0 || sim_now(s) - p->solved_us >= p->resolve_us))
		solve(p, s);
	fill(p, s);
}

static void gav_timer(void *st, struct sim *s, uint32_t tag)
{
	struct gav *p = st;
	if (tag != TAG_ROUND)
		return;
	account(p, s);
	solve(p, s);
	round_assign(p, s);
	fill(p, s);
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
	if (j->live->execs_live == 0 && p->j[job].active) {
		account(p, s);
		p->j[job].running = p->j[job].going = false;
		p->j[job].type = -1;
	}
}

static void gav_fini(void *st)
{
	struct gav *p = st;
	pol_fits_free(&p->fits);
	pol_tent_fini(&p->t);
	free(p->j), free(p->tp), free(p->x), free(p->recv), free(p->act), free(p->pr);
	free(p->pc), free(p->pm), free(p->pg), free(p->done), free(p->moved);
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
