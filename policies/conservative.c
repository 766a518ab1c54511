/* conservative.c - conservative backfilling (Mu'alem & Feitelson, TPDS
 * 2001, after Lifka's EASY).
 *
 * Every waiting job gets a reservation, in arrival order: the earliest
 * time at which it fits, for its whole estimated run, in a profile of the
 * cluster's free resources over time (the running jobs ending when their
 * estimates say, the earlier waiting jobs' reservations taken out).  A
 * job whose reservation is now starts now.  So no job is delayed by one
 * behind it, when the estimates hold.  The reservations are made again
 * at every decision, from the jobs still waiting (a job ending before its
 * estimate moves the later ones forward: the "compression" of the
 * sources, done by recomputing).
 *
 * Estimates as `easy`'s (docs/policies/easy.md: the requested time, else
 * `fallback` actual x `factor` or none).  The profile counts, per node,
 * milli-cores, memory and milli-GPUs (a whole GPU 1000); a job is packed
 * on the profile first fit in node order, each node offering the least it
 * has free over the job's interval, and one starting now also on the
 * real nodes as they are (pol_tent, GPU by GPU).
 *
 * Cost per decision: O(waiting x segments x (segments + executors x
 * nodes)), segments = the running jobs' ends and the reservations' ends
 * (docs/policies/conservative.md).
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

struct run {
	int job;
	int64_t end_us;
};

/* A segment of the profile: from t (to the next segment's t), the free
 * amounts by node. */
struct seg {
	int64_t t;
	int64_t *c, *m, *g;
};

struct cons {
	struct pol_jobset q;
	struct pol_fits fits;
	struct pol_tent t;
	bool fb_none;
	double factor;
	bool pool;                          /* count: pool: the profile in amounts
					       of the whole cluster (n 1) */
	int64_t startup_us;
	int n;                              /* nodes */
	struct run *run; int nrun, caprun;  /* launched, not ended */
	int *run_at;                        /* by job: index in run, -1 */
	struct seg *s; int ns, caps;        /* the profile */
	int64_t *mc, *mm, *mg;              /* the least free over an interval */
	int *place;                         /* by executor of the job: its node */
};

static int64_t estimate(const struct cons *p, const struct sim *s, const struct sim_job *j)
{
	int64_t req, act;
	sim_job_estimate(s, j, &req, &act);
	if (req >= 0)
		return req;
	if (!p->fb_none && act >= 0)
		return (int64_t)llround((double)act * p->factor);
	return NO_END;
}

static int64_t add_sat(int64_t a, int64_t b)
{
	return a == NO_END || b == NO_END || a > NO_END - b ? NO_END : a + b;
}

static void *cons_init(struct sim *s, const struct scn_policy *cfg)
{
	struct cons *p = xcalloc(1, sizeof *p);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1;
	p->pool = strcmp(pol_param_value(&pol_conservative, cfg, "count"), "pool") == 0;
	p->n = p->pool ? 1 : sim_cluster(s)->n;
	pol_jobset_init(&p->q, sim_njobs(s));
	pol_fits_init(&p->fits, s, pol_whole_verdict, cfg);
	pol_tent_init(&p->t, sim_cluster(s)->n); /* by real node, pool or not */
	p->fb_none = strcmp(pol_param_value(&pol_conservative, cfg, "fallback"), "none") == 0;
	p->factor = pol_param_num(&pol_conservative, cfg, "factor");
	p->startup_us = sim_scenario(s)->over.executor_startup_us;
	p->run_at = xmalloc((size_t)nj * sizeof *p->run_at);
	for (int i = 0; i < nj; i++)
		p->run_at[i] = -1;
	size_t nn = (size_t)(p->n ? p->n : 1);
	p->mc = xmalloc(nn * sizeof *p->mc);
	p->mm = xmalloc(nn * sizeof *p->mm);
	p->mg = xmalloc(nn * sizeof *p->mg);
	return p;
}

static void cons_arrived(void *st, struct sim *s, int job)
{
	struct cons *p = st;
	int why = pol_fits_arrived(&p->fits, s, sim_job(s, job));
	if (why) {
		sim_reject_job(s, job, why);
		return;
	}
	pol_jobset_add(&p->q, job);
}

static void cons_finished(void *st, struct sim *s, int job)
{
	struct cons *p = st;
	(void)s;
	pol_jobset_remove(&p->q, job);
	int i = p->run_at[job];
	if (i >= 0) {
		p->run[i] = p->run[--p->nrun];
		p->run_at[p->run[i].job] = i;
		p->run_at[job] = -1;
	}
}

/* ---- the profile ------------------------------------------------------ */

static void seg_alloc(struct cons *p, struct seg *g)
{
	size_t nn = (size_t)(p->n ? p->n : 1);
	g->c = xmalloc(nn * sizeof *g->c);
	g->m = xmalloc(nn * sizeof *g->m);
	g->g = xmalloc(nn * sizeof *g->g);
}

static void seg_copy(struct cons *p, struct seg *to, const struct seg *from)
{
	memcpy(to->c, from->c, (size_t)p->n * sizeof *to->c);
	memcpy(to->m, from->m, (size_t)p->n * sizeof *to->m);
	memcpy(to->g, from->g, (size_t)p->n * sizeof *to->g);
}

/* A breakpoint at t (> the first segment's): the index of the segment
 * that starts at t, splitting the one it falls in. */
static int split_at(struct cons *p, int64_t t)
{
	int i = 0;
	while (i + 1 < p->ns && p->s[i + 1].t <= t)
		i++;
	if (p->s[i].t == t)
		return i;
	if (p->ns == p->caps) {
		int old = p->caps;
		p->caps = p->caps ? 2 * p->caps : 16;
		p->s = xrealloc(p->s, (size_t)p->caps * sizeof *p->s);
		for (int k = old; k < p->caps; k++)
			seg_alloc(p, &p->s[k]);
	}
	struct seg spare = p->s[p->ns]; /* its arrays, reused */
	memmove(p->s + i + 2, p->s + i + 1, (size_t)(p->ns - i - 1) * sizeof *p->s);
	p->s[i + 1] = spare;
	p->s[i + 1].t = t;
	seg_copy(p, &p->s[i + 1], &p->s[i]);
	p->ns++;
	return i + 1;
}

static int cmp_run(const void *a, const void *b)
{
	const struct run *x = a, *y = b;
	return x->end_us < y->end_us ? -1 : x->end_us > y->end_us;
}

/* The profile from now: the free amounts, and each running job's
 * resources back at its expected end (now if past it). */
static void build(struct cons *p, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	int64_t now = sim_now(s);
	if (!p->caps) {
		p->caps = 16;
		p->s = xcalloc((size_t)p->caps, sizeof *p->s);
		for (int k = 0; k < p->caps; k++)
			seg_alloc(p, &p->s[k]);
	}
	p->ns = 1;
	p->s[0].t = now;
	for (int i = 0; i < p->n; i++)
		p->s[0].c[i] = p->s[0].m[i] = p->s[0].g[i] = 0;
	for (int i = 0; i < c->n; i++) { /* count: pool: all into 0 */
		const struct clu_node *n = &c->nodes[i];
		int k = p->pool ? 0 : i;
		p->s[0].c[k] += n->cores_free > 0 ? n->cores_free : 0;
		p->s[0].m[k] += n->mem_free;
		p->s[0].g[k] += pol_gpu_milli_free(NULL, n);
	}
	struct run *order = xmalloc((size_t)(p->nrun ? p->nrun : 1) * sizeof *order);
	if (p->nrun)
		memcpy(order, p->run, (size_t)p->nrun * sizeof *order);
	qsort(order, (size_t)p->nrun, sizeof *order, cmp_run);
	for (int k = 0; k < p->nrun && order[k].end_us != NO_END; k++) {
		int64_t t = order[k].end_us > now ? order[k].end_us : now;
		int from = t > now ? split_at(p, t) : 0;
		const struct sim_job *r = sim_job(s, order[k].job);
		for (int x = 0; x < sim_job_nexecs(r); x++) {
			const struct sim_exec *e = sim_job_exec(s, r, x);
			if (!e || !e->live)
				continue;
			int64_t gm = e->gpu_milli ? e->gpu_milli : (int64_t)e->gpus * CLU_GPU_MILLI;
			int k = p->pool ? 0 : e->node;
			for (int i = from; i < p->ns; i++) {
				p->s[i].c[k] += e->cores;
				p->s[i].m[k] += e->mem_mib;
				p->s[i].g[k] += gm;
			}
		}
	}
	free(order);
}

/* First fit of j's wanted executors on the least free over segments
 * [a, b] (mc, mm, mg), their nodes into p->place; with `now` each also
 * on the real node as it is (pol_tent, GPU by GPU: a share needs one GPU
 * with that much free, which the profile's sums cannot tell), placed
 * tentatively.  False if one does not fit. */
static bool pack(struct cons *p, const struct sim *s, const struct sim_job *j, int a, int b,
		 bool now)
{
	const struct clu *c = sim_cluster(s);
	pol_tent_reset(&p->t);
	for (int i = 0; i < p->n; i++) {
		p->mc[i] = p->s[a].c[i], p->mm[i] = p->s[a].m[i], p->mg[i] = p->s[a].g[i];
		for (int k = a + 1; k <= b; k++) {
			p->mc[i] = p->s[k].c[i] < p->mc[i] ? p->s[k].c[i] : p->mc[i];
			p->mm[i] = p->s[k].m[i] < p->mm[i] ? p->s[k].m[i] : p->mm[i];
			p->mg[i] = p->s[k].g[i] < p->mg[i] ? p->s[k].g[i] : p->mg[i];
		}
	}
	int x = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int64_t cores = ro->cores ? ro->cores : CLU_MILLI;
		int64_t gm = ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli;
		int milli = ro->gpus ? 0 : ro->gpu_milli;
		for (int k = j->live->granted[r]; k < ro->count; k++) {
			int node = -1;
			for (int i = 0; i < p->n && node < 0; i++) {
				if (!(p->mc[i] >= cores && p->mm[i] >= ro->mem_mib && p->mg[i] >= gm))
					continue;
				if (now && !p->pool) {
					int fc, fg;
					int64_t fm;
					pol_tent_free(&p->t, &c->nodes[i], &fc, &fm, &fg);
					if (fc < cores || fm < ro->mem_mib || fg < ro->gpus ||
					    (milli && pol_share_pick(&p->t, &c->nodes[i], milli) < 0))
						continue;
				}
				node = i;
			}
			if (node < 0)
				return false;
			p->mc[node] -= cores, p->mm[node] -= ro->mem_mib, p->mg[node] -= gm;
			p->place[x++] = node;
			if (p->pool)
				continue;
			if (now && milli)
				pol_tent_add_share(&p->t, &c->nodes[node], r, (int)cores, ro->mem_mib,
						   milli);
			else if (now)
				pol_tent_add(&p->t, node, r, (int)cores, ro->mem_mib, ro->gpus);
		}
	}
	/* count: pool: it fits by amount; now, first fit places it on the
	 * nodes (or it waits for a later breakpoint) */
	return !p->pool || !now || pol_first_fit(&p->t, s, j, -1);
}

/* Take j's packed executors out of segments [a, b]. */
static void reserve(struct cons *p, const struct sim_job *j, int a, int b)
{
	int x = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int64_t cores = ro->cores ? ro->cores : CLU_MILLI;
		int64_t gm = ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli;
		for (int k = j->live->granted[r]; k < ro->count; k++) {
			int node = p->place[x++];
			for (int i = a; i <= b; i++) {
				p->s[i].c[node] -= cores;
				p->s[i].m[node] -= ro->mem_mib;
				p->s[i].g[node] -= gm;
			}
		}
	}
}

static void cons_schedule(void *st, struct sim *s)
{
	struct cons *p = st;
	int64_t now = sim_now(s);
	if (pol_jobset_first(&p->q) < 0)
		return;
	build(p, s);
	for (int job = pol_jobset_first(&p->q); job >= 0;) {
		int next = pol_jobset_next(&p->q, job);
		const struct sim_job *j = sim_job(s, job);
		int nx = sim_execs_wanted(j);
		p->place = xrealloc(p->place, (size_t)(nx ? nx : 1) * sizeof *p->place);
		int64_t est = add_sat(p->startup_us, estimate(p, s, j));
		for (int a = 0; a < p->ns; a++) {
			int64_t start = p->s[a].t, end = add_sat(start, est > 0 ? est : 1); /* at
				 least 1 us: a reservation must end after it starts */
			int b = a;
			while (b + 1 < p->ns && p->s[b + 1].t < end)
				b++;
			if (!pack(p, s, j, a, b, start == now))
				continue;
			/* the reservation: [start, end), the profile split at end */
			if (end != NO_END && (b + 1 >= p->ns || p->s[b + 1].t != end))
				split_at(p, end);
			reserve(p, j, a, b);
			if (start == now) {
				pol_tent_launch(&p->t, s, job);
				pol_jobset_remove(&p->q, job);
				if (p->run_at[job] < 0) {
					xgrow(&p->run, &p->caprun, p->nrun + 1, sizeof *p->run);
					p->run_at[job] = p->nrun++;
				}
				p->run[p->run_at[job]] = (struct run){job, add_sat(now, est)};
			}
			break;
		}
		job = next;
	}
}

static void cons_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	(void)s, (void)x, (void)why;
	pol_jobset_return(&((struct cons *)st)->q, job);
}

static void cons_fini(void *st)
{
	struct cons *p = st;
	pol_jobset_free(&p->q);
	pol_fits_free(&p->fits);
	pol_tent_fini(&p->t);
	for (int k = 0; k < p->caps; k++)
		free(p->s[k].c), free(p->s[k].m), free(p->s[k].g);
	free(p->s);
	free(p->run), free(p->run_at);
	free(p->mc), free(p->mm), free(p->mg);
	free(p->place);
	free(p);
}

static const char *const fallbacks[] = {"actual", "none", NULL};
static const char *const counts[] = {"nodes", "pool", NULL};

static const struct pol_param cons_params[] = {
	{.key = "fallback", .type = POL_CHOICE, .choices = fallbacks, .def = "actual",
	 .help = "a job without a requested time: its actual run time x factor, or none "
		 "(reserved for ever)"},
	{.key = "factor", .type = POL_NUM, .def = "1", .lo = 1, .hi = 1000, .def_num = 1,
	 .help = "the fallback's multiple of the actual run time (1: perfect estimates)"},
	{.key = "count", .type = POL_CHOICE, .choices = counts, .def = "nodes",
	 .help = "the profile node by node, or in amounts of the whole cluster as one pool "
		 "(the processors of the published simulators)"},
	{.key = NULL},
};

const struct policy_ops pol_conservative = {
	.name = "conservative",
	.summary = "conservative backfilling: every waiting job reserved in arrival order, "
		   "a job starts now where its reservation is now",
	.params = cons_params,
	.uses_labels = false,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.needs = POL_NEED_ESTIMATES,
	.init = cons_init,
	.job_arrived = cons_arrived,
	.job_finished = cons_finished,
	.schedule = cons_schedule,
	.fini = cons_fini,
	.exec_lost = cons_exec_lost,
	.can_ever_place = pol_whole_verdict,
};
