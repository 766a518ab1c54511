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
 * Cost per decision (docs/policies/conservative.md; segments = the
 * running jobs' ends and the reservations' ends):
 *   - no running job expected to end (no estimates: every job model but
 *     trace): the profile is one segment, now, and is not built; the
 *     jobs that fit now start, the others wait unreserved, each try
 *     O(executors x log64 nodes) through pol_ix, and only the jobs of
 *     the shapes not failed since the last launch are tried (pol_fitq):
 *     O((launches + 1) x shapes) tries;
 *   - one set of amounts (count: pool, or one node): the profile is a
 *     pol_prof treap; O(running x log segments) to build it, and per
 *     waiting job O((1 + k) x log segments), k the breakpoints that rule
 *     out an earlier start (less free than the job wants), plus a first
 *     fit now;
 *   - else: per waiting job, its candidate starts are pruned by the
 *     profile's sums over the nodes (O(segments) a job in all), then by
 *     its first executor (first_gate: O(nodes x segments) a job in all);
 *     a job of one executor is placed by the gate, one of several packed
 *     first fit on the least free over its run, a node's least computed
 *     when first fit reaches it: O(nodes x length + executors x nodes) a
 *     candidate; O(running x segments + nodes) to build the profile.
 *     So O(waiting x nodes x segments) a decision for jobs of one
 *     executor, by the published rule (every waiting job reserved again,
 *     a breakpoint per reservation): measured 13 ms a decision for 4 000
 *     pods each of its own memory size on 20 nodes (about 4 000
 *     segments; docs/policies/conservative.md).
 * Under clu_plain_scan (the tests' reference) every decision is the
 * original one: O(waiting x segments x (segments + executors x nodes)).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "pol_fitq.h"
#include "pol_prof.h"
#include "registry.h"
#include "sim.h"
#include "util.h"

#define NO_END INT64_MAX

struct run {
	int job;
	int64_t end_us;
};

/* A segment of the profile: from t (to the next segment's t); its free
 * amounts by node are AT(p, segment, node). */
struct seg {
	int64_t t;
	int64_t tc, tm, tg;  /* fast: their sums over the nodes */
};

/* Free milli-cores, MiB, milli-GPUs of a node in a segment. */
struct amt {
	int64_t c, m, g;
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
	int nfin;                           /* of them, those expected to end
					       (end_us not NO_END) */
	bool fast;                          /* false with clu_plain_scan: every
					       pass the reference's */
	struct pol_fitq fq;                 /* fast: the queue again, by shape */
	struct pol_prof prof;               /* fast, n 1: the profile (s unused) */
	struct seg *s; int ns, caps;        /* the profile */
	struct amt *nm;                     /* its amounts node by node, caps
					       segments a node: a node's run of
					       segments is read in a row */
	int64_t *mc, *mm, *mg;              /* the least free over an interval */
	int *place;                         /* by executor of the job: its node */
	unsigned *stamp;                    /* fast: by node, the pack whose least
					       free mc, mm, mg hold (lazily) */
	unsigned npack;
	int *lf, *top;                      /* fast: by node, for the job placed:
					       the last segment up to top where its
					       first executor does not fit the node
					       (-1 none) */
	unsigned *fst, nfirst;              /* by node: the job whose lf, top they
					       are (lazily) */
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
	p->fast = !clu_plain_scan;
	if (p->fast)
		pol_fitq_init(&p->fq, s, &p->t);
	p->stamp = xcalloc(nn, sizeof *p->stamp);
	p->lf = xmalloc(nn * sizeof *p->lf);
	p->top = xmalloc(nn * sizeof *p->top);
	p->fst = xcalloc(nn, sizeof *p->fst);
	pol_prof_init(&p->prof);
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
	if (p->fast)
		pol_fitq_add(&p->fq, sim_job(s, job), job);
}

static void cons_finished(void *st, struct sim *s, int job)
{
	struct cons *p = st;
	pol_jobset_remove(&p->q, job);
	if (p->fast)
		pol_fitq_remove(&p->fq, sim_job(s, job), job);
	int i = p->run_at[job];
	if (i >= 0) {
		p->nfin -= p->run[i].end_us != NO_END;
		p->run[i] = p->run[--p->nrun];
		p->run_at[p->run[i].job] = i;
		p->run_at[job] = -1;
	}
}

/* ---- the profile ------------------------------------------------------ */

#define AT(p, q, i) ((p)->nm[(size_t)(i) * (size_t)(p)->caps + (size_t)(q)])

/* Room for caps segments, the first ns kept. */
static void seg_grow(struct cons *p, int caps)
{
	size_t nn = (size_t)(p->n ? p->n : 1);
	struct amt *nm = xmalloc(nn * (size_t)caps * sizeof *nm);
	for (size_t i = 0; p->nm && i < (size_t)p->n; i++)
		memcpy(nm + i * (size_t)caps, p->nm + i * (size_t)p->caps,
		       (size_t)p->ns * sizeof *nm);
	free(p->nm);
	p->nm = nm;
	p->s = xrealloc(p->s, (size_t)caps * sizeof *p->s);
	p->caps = caps;
}

/* A breakpoint at t (> the first segment's): the index of the segment
 * that starts at t, splitting the one it falls in. */
static int split_at(struct cons *p, int64_t t)
{
	int i = 0, hi = p->ns - 1; /* the last segment starting at or before t */
	while (i < hi) {
		int mid = i + (hi - i + 1) / 2;
		if (p->s[mid].t <= t)
			i = mid;
		else
			hi = mid - 1;
	}
	if (p->s[i].t == t)
		return i;
	if (p->ns == p->caps)
		seg_grow(p, 2 * p->caps);
	memmove(p->s + i + 2, p->s + i + 1, (size_t)(p->ns - i - 1) * sizeof *p->s);
	p->s[i + 1] = p->s[i];
	p->s[i + 1].t = t;
	for (int k = 0; k < p->n; k++) {
		struct amt *row = &AT(p, 0, k);
		memmove(row + i + 2, row + i + 1, (size_t)(p->ns - i - 1) * sizeof *row);
		row[i + 1] = row[i];
	}
	p->ns++;
	return i + 1;
}

static int cmp_run(const void *a, const void *b)
{
	const struct run *x = a, *y = b;
	return x->end_us < y->end_us ? -1 : x->end_us > y->end_us;
}

/* The profile from now: the free amounts, and each running job's
 * resources back at its expected end (now if past it); job `fresh`'s (-1
 * none), just started by pass_now, at its end or 1 us from now, as its
 * reservation (cons_schedule) would have split the profile. */
static void build(struct cons *p, struct sim *s, int fresh)
{
	const struct clu *c = sim_cluster(s);
	int64_t now = sim_now(s);
	if (!p->caps)
		seg_grow(p, 16);
	p->ns = 1;
	p->s[0].t = now;
	for (int i = 0; i < p->n; i++)
		AT(p, 0, i) = (struct amt){0, 0, 0};
	for (int i = 0; i < c->n; i++) { /* count: pool: all into 0 */
		const struct clu_node *n = &c->nodes[i];
		int k = p->pool ? 0 : i;
		AT(p, 0, k).c += n->cores_free > 0 ? n->cores_free : 0;
		AT(p, 0, k).m += n->mem_free;
		AT(p, 0, k).g += pol_gpu_milli_free(NULL, n);
	}
	p->s[0].tc = p->s[0].tm = p->s[0].tg = 0;
	for (int i = 0; p->fast && i < p->n; i++)
		p->s[0].tc += AT(p, 0, i).c, p->s[0].tm += AT(p, 0, i).m, p->s[0].tg += AT(p, 0, i).g;
	struct run *order = xmalloc((size_t)(p->nrun ? p->nrun : 1) * sizeof *order);
	if (p->nrun)
		memcpy(order, p->run, (size_t)p->nrun * sizeof *order);
	qsort(order, (size_t)p->nrun, sizeof *order, cmp_run);
	for (int k = 0; k < p->nrun && order[k].end_us != NO_END; k++) {
		int64_t t = order[k].end_us > now ? order[k].end_us : now;
		if (order[k].job == fresh && t == now)
			t = now + 1;
		int from = t > now ? split_at(p, t) : 0;
		const struct sim_job *r = sim_job(s, order[k].job);
		for (int x = 0; x < sim_job_nexecs(r); x++) {
			const struct sim_exec *e = sim_job_exec(s, r, x);
			if (!e || !e->live)
				continue;
			int64_t gm = e->gpu_milli ? e->gpu_milli : (int64_t)e->gpus * CLU_GPU_MILLI;
			int k = p->pool ? 0 : e->node;
			for (int i = from; i < p->ns; i++) {
				AT(p, i, k).c += e->cores;
				AT(p, i, k).m += e->mem_mib;
				AT(p, i, k).g += gm;
				p->s[i].tc += e->cores, p->s[i].tm += e->mem_mib, p->s[i].tg += gm;
			}
		}
	}
	free(order);
}

/* Whether an executor of role ro (a share of milli of one GPU, else
 * whole GPUs) fits node n as it is now, after the tentative ones. */
static bool fits_now(const struct cons *p, const struct clu_node *n, const struct sim_role *ro,
		     int milli)
{
	int fc, fg;
	int64_t fm;
	pol_tent_free(&p->t, n, &fc, &fm, &fg);
	return fc >= (ro->cores ? ro->cores : CLU_MILLI) && fm >= ro->mem_mib && fg >= ro->gpus &&
	       (!milli || pol_share_pick(&p->t, n, milli) >= 0);
}

/* Place it there tentatively (role r). */
static void hold_now(struct cons *p, const struct clu_node *n, int r, const struct sim_role *ro,
		     int milli)
{
	int cores = ro->cores ? ro->cores : CLU_MILLI;
	if (milli)
		pol_tent_add_share(&p->t, n, r, cores, ro->mem_mib, milli);
	else
		pol_tent_add(&p->t, n->id, r, cores, ro->mem_mib, ro->gpus);
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
		p->mc[i] = AT(p, a, i).c, p->mm[i] = AT(p, a, i).m, p->mg[i] = AT(p, a, i).g;
		for (int k = a + 1; k <= b; k++) {
			p->mc[i] = AT(p, k, i).c < p->mc[i] ? AT(p, k, i).c : p->mc[i];
			p->mm[i] = AT(p, k, i).m < p->mm[i] ? AT(p, k, i).m : p->mm[i];
			p->mg[i] = AT(p, k, i).g < p->mg[i] ? AT(p, k, i).g : p->mg[i];
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
				if (now && !p->pool && !fits_now(p, &c->nodes[i], ro, milli))
					continue;
				node = i;
			}
			if (node < 0)
				return false;
			p->mc[node] -= cores, p->mm[node] -= ro->mem_mib, p->mg[node] -= gm;
			p->place[x++] = node;
			if (now && !p->pool)
				hold_now(p, &c->nodes[node], r, ro, milli);
		}
	}
	/* count: pool: it fits by amount; now, first fit places it on the
	 * nodes (or it waits for a later breakpoint) */
	return !p->pool || !now || pol_first_fit(&p->t, s, j, -1);
}

/* pack() as the reference does it, with the same answer and placement
 * for less: a node's least free over [a, b] is found when first fit
 * first looks at it, and an executor of a role is looked for from the
 * node its role's last one took (the nodes before it held no executor
 * of that size then, and hold no more now: the profile and the real
 * nodes only lose what is tentatively placed). */
static bool pack_fast(struct cons *p, const struct sim *s, const struct sim_job *j, int a, int b,
		      bool now)
{
	const struct clu *c = sim_cluster(s);
	pol_tent_reset(&p->t);
	if (++p->npack == 0) { /* wrapped: no stamp may look current */
		memset(p->stamp, 0, (size_t)(p->n ? p->n : 1) * sizeof *p->stamp);
		p->npack = 1;
	}
	int x = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int64_t cores = ro->cores ? ro->cores : CLU_MILLI;
		int64_t gm = ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli;
		int milli = ro->gpus ? 0 : ro->gpu_milli;
		int from = 0;
		for (int k = j->live->granted[r]; k < ro->count; k++) {
			int node = -1;
			for (int i = from; i < p->n && node < 0; i++) {
				if (p->stamp[i] != p->npack) {
					p->stamp[i] = p->npack;
					const struct amt *row = &AT(p, 0, i);
					int64_t lc = row[a].c, lm = row[a].m, lg = row[a].g;
					for (int q = a + 1; q <= b; q++) {
						lc = row[q].c < lc ? row[q].c : lc;
						lm = row[q].m < lm ? row[q].m : lm;
						lg = row[q].g < lg ? row[q].g : lg;
					}
					p->mc[i] = lc, p->mm[i] = lm, p->mg[i] = lg;
				}
				if (!(p->mc[i] >= cores && p->mm[i] >= ro->mem_mib && p->mg[i] >= gm))
					continue;
				if (now && !p->pool && !fits_now(p, &c->nodes[i], ro, milli))
					continue;
				node = i;
			}
			if (node < 0)
				return false;
			from = node;
			p->mc[node] -= cores, p->mm[node] -= ro->mem_mib, p->mg[node] -= gm;
			p->place[x++] = node;
			if (now && !p->pool)
				hold_now(p, &c->nodes[node], r, ro, milli);
		}
	}
	return !p->pool || !now || pol_fitq_fits(&p->fq, s, j);
}

/* The role of j's first executor wanted (nroles: none). */
static int first_role(const struct sim_job *j)
{
	int r = 0;
	while (r < j->shape->nroles && j->live->granted[r] >= j->shape->role[r].count)
		r++;
	return r;
}

/* Whether j's first executor fits some node on the least free over
 * segments [a, b] of the profile; if none, *skip the first segment past
 * which it might: the least over the nodes of the last segment in [a, b]
 * where it does not fit the node.  A later candidate start a' <= *skip
 * has a run [a', b'] with b' >= b, so holds that segment of every node:
 * pack() fails there too.  Each node's segments are read once a job
 * (p->lf, p->top kept from candidate to candidate; the profile does not
 * change while one job's starts are tried), where pack() reads a node's
 * whole run at every candidate. */
static bool first_gate(struct cons *p, const struct sim *s, const struct sim_job *j, int a, int b,
		       bool now, int *skip, int *node)
{
	const struct clu *c = sim_cluster(s);
	int r = first_role(j);
	if (r == j->shape->nroles)
		return *node = -1, true;
	const struct sim_role *ro = &j->shape->role[r];
	int64_t cores = ro->cores ? ro->cores : CLU_MILLI;
	int64_t gm = ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli;
	int milli = ro->gpus ? 0 : ro->gpu_milli;
	*skip = INT32_MAX;
	if (now)
		pol_tent_reset(&p->t);
	for (int i = 0; i < p->n; i++) {
		if (p->fst[i] != p->nfirst)
			p->fst[i] = p->nfirst, p->lf[i] = p->top[i] = -1;
		/* the last not fitting in the segments not read yet, read down
		 * from b: the first found is the one wanted */
		const struct amt *row = &AT(p, 0, i);
		int lo = p->top[i] + 1 > a ? p->top[i] + 1 : a, q = b;
		int64_t mem = ro->mem_mib;
		while (q >= lo && row[q].c >= cores && row[q].m >= mem && row[q].g >= gm)
			q--;
		if (q >= lo)
			p->lf[i] = q;
		if (b > p->top[i])
			p->top[i] = b;
		if (p->lf[i] < a && (!now || fits_now(p, &c->nodes[i], ro, milli))) {
			*node = i;
			return true;
		}
		/* (failing only the nodes as they are: a, the only start now) */
		int f = p->lf[i] < a ? a : p->lf[i];
		*skip = f < *skip ? f : *skip;
	}
	return false;
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
				AT(p, i, node).c -= cores;
				AT(p, i, node).m -= ro->mem_mib;
				AT(p, i, node).g -= gm;
				p->s[i].tc -= cores, p->s[i].tm -= ro->mem_mib, p->s[i].tg -= gm;
			}
		}
	}
}

/* Launch job `job`, tentatively placed, expected to end at `end`. */
static void launch(struct cons *p, struct sim *s, int job, int64_t end)
{
	pol_tent_launch(&p->t, s, job);
	pol_jobset_remove(&p->q, job);
	if (p->fast)
		pol_fitq_remove(&p->fq, sim_job(s, job), job);
	if (p->run_at[job] < 0) {
		xgrow(&p->run, &p->caprun, p->nrun + 1, sizeof *p->run);
		p->run_at[job] = p->nrun++;
	} else {
		p->nfin -= p->run[p->run_at[job]].end_us != NO_END;
	}
	p->run[p->run_at[job]] = (struct run){job, end};
	p->nfin += end != NO_END;
}

/* The pass while the profile is one segment, the free amounts now (no
 * running job expected to end): a job's only candidate is now, for
 * whatever length, and pack() there is the first fit on the nodes as
 * they are (node by node the profile then holds at least what they
 * have free, so the real nodes decide; count: pool, the amounts summed,
 * then first fit).  So every job that fits now starts, in arrival order,
 * the others get no reservation, and pol_fitq skips the tries that would
 * fail again.  Returns -1 when every job has been tried, or, once a job
 * expected to end has started (a breakpoint in the profile from then
 * on), that job: cons_schedule goes on after it with the profile. */
static int pass_now(struct cons *p, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	int64_t now = sim_now(s), tc = 0, tm = 0, tg = 0;
	for (int i = 0; p->pool && i < c->n; i++) { /* as build() sums them */
		const struct clu_node *n = &c->nodes[i];
		tc += n->cores_free > 0 ? n->cores_free : 0;
		tm += n->mem_free;
		tg += pol_gpu_milli_free(NULL, n);
	}
	pol_fitq_begin(&p->fq, pol_jobset_first(&p->q));
	for (int job; (job = pol_fitq_next(&p->fq)) >= 0;) {
		const struct sim_job *j = sim_job(s, job);
		int64_t wc = 0, wm = 0, wg = 0;
		for (int r = 0; p->pool && r < j->shape->nroles; r++) {
			const struct sim_role *ro = &j->shape->role[r];
			int64_t k = ro->count - j->live->granted[r];
			wc += k * (ro->cores ? ro->cores : CLU_MILLI);
			wm += k * ro->mem_mib;
			wg += k * (ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli);
		}
		if ((p->pool && (wc > tc || wm > tm || wg > tg)) || !pol_fitq_fits(&p->fq, s, j)) {
			pol_fitq_failed(&p->fq, j, job);
			continue;
		}
		tc -= wc, tm -= wm, tg -= wg;
		int64_t end = add_sat(now, add_sat(p->startup_us, estimate(p, s, j)));
		launch(p, s, job, end);
		pol_fitq_launched(&p->fq);
		if (end != NO_END)
			return job;
	}
	return -1;
}

/* What job j still wants in all: milli-cores, MiB, milli-GPUs. */
static void wants(const struct sim_job *j, int64_t w[3])
{
	w[0] = w[1] = w[2] = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int64_t k = ro->count - j->live->granted[r];
		w[0] += k * (ro->cores ? ro->cores : CLU_MILLI);
		w[1] += k * ro->mem_mib;
		w[2] += k * (ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli);
	}
}

/* The pass where the profile counts one set of amounts (count: pool, or
 * one node) and is a pol_prof: build()'s profile, and each job reserved
 * where cons_schedule's pack() would put it.  With one set of amounts,
 * pack() on the least free over a run holds the job where the least of
 * each sum holds what it wants in all (its executors taken one by one
 * from one amount), and one starting now must also fit the nodes as they
 * are, first fit (pol_first_fit; one node: pack()'s check of each
 * executor on it).  O(log breakpoints) a job, and per breakpoint that
 * rules out an earlier start; build's O(running x log breakpoints). */
static void pass_prof(struct cons *p, struct sim *s, int from, int fresh)
{
	const struct clu *c = sim_cluster(s);
	int64_t now = sim_now(s), v[3] = {0, 0, 0};
	for (int i = 0; i < c->n; i++) { /* as build() sums them */
		const struct clu_node *n = &c->nodes[i];
		v[0] += n->cores_free > 0 ? n->cores_free : 0;
		v[1] += n->mem_free;
		v[2] += pol_gpu_milli_free(NULL, n);
	}
	pol_prof_reset(&p->prof, now, v);
	for (int k = 0; k < p->nrun; k++) { /* in any order: additions commute */
		if (p->run[k].end_us == NO_END)
			continue;
		int64_t t = p->run[k].end_us > now ? p->run[k].end_us : now;
		if (p->run[k].job == fresh && t == now)
			t = now + 1;
		int64_t d[3] = {0, 0, 0};
		const struct sim_job *r = sim_job(s, p->run[k].job);
		for (int x = 0; x < sim_job_nexecs(r); x++) {
			const struct sim_exec *e = sim_job_exec(s, r, x);
			if (!e || !e->live)
				continue;
			d[0] += e->cores, d[1] += e->mem_mib;
			d[2] += e->gpu_milli ? e->gpu_milli : (int64_t)e->gpus * CLU_GPU_MILLI;
		}
		if (t > now)
			pol_prof_split(&p->prof, t);
		pol_prof_add(&p->prof, t, POL_PROF_NONE, d);
	}
	for (int job = from; job >= 0;) {
		int next = pol_jobset_next(&p->q, job);
		const struct sim_job *j = sim_job(s, job);
		int64_t est = add_sat(p->startup_us, estimate(p, s, j)), len = est > 0 ? est : 1;
		int64_t w[3];
		wants(j, w);
		int64_t t = now;
		while ((t = pol_prof_fit(&p->prof, t, len, w)) != POL_PROF_NONE && t == now &&
		       !pol_fitq_fits(&p->fq, s, j))
			t = pol_prof_next(&p->prof, now); /* fits the sums, not the nodes */
		if (t != POL_PROF_NONE) {
			int64_t end = add_sat(t, len), neg[3] = {-w[0], -w[1], -w[2]};
			if (end != NO_END)
				pol_prof_split(&p->prof, end);
			pol_prof_add(&p->prof, t, end, neg);
			if (t == now)
				launch(p, s, job, add_sat(now, est));
		}
		job = next;
	}
}

static void cons_schedule(void *st, struct sim *s)
{
	struct cons *p = st;
	int64_t now = sim_now(s);
	int from = pol_jobset_first(&p->q);
	if (from < 0)
		return;
	int fresh = -1;
	if (p->fast && p->nfin == 0) {
		if ((fresh = pass_now(p, s)) < 0)
			return;
		from = pol_jobset_next(&p->q, fresh);
	}
	if (p->fast && p->n == 1) {
		pass_prof(p, s, from, fresh);
		return;
	}
	build(p, s, fresh);
	for (int job = from; job >= 0;) {
		int next = pol_jobset_next(&p->q, job);
		const struct sim_job *j = sim_job(s, job);
		int nx = sim_execs_wanted(j);
		p->place = xrealloc(p->place, (size_t)(nx ? nx : 1) * sizeof *p->place);
		int64_t est = add_sat(p->startup_us, estimate(p, s, j));
		int64_t wc = 0, wm = 0, wg = 0; /* fast: what it wants in all */
		for (int r = 0; p->fast && r < j->shape->nroles; r++) {
			const struct sim_role *ro = &j->shape->role[r];
			int64_t k = ro->count - j->live->granted[r];
			wc += k * (ro->cores ? ro->cores : CLU_MILLI);
			wm += k * ro->mem_mib;
			wg += k * (ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli);
		}
		int good = -1; /* fast: segments [a, good] hold wc, wm, wg in all */
		if (p->fast && ++p->nfirst == 0) { /* wrapped */
			memset(p->fst, 0, (size_t)(p->n ? p->n : 1) * sizeof *p->fst);
			p->nfirst = 1;
		}
		for (int a = 0, b = 0; a < p->ns; a++) {
			int64_t start = p->s[a].t, end = add_sat(start, est > 0 ? est : 1); /* at
				 least 1 us: a reservation must end after it starts */
			if (!p->fast || b < a)
				b = a; /* b only grows with a: end does */
			while (b + 1 < p->ns && p->s[b + 1].t < end)
				b++;
			if (p->fast) {
				/* pack() needs the sums over the nodes of the least
				 * free over [a, b] to hold the job, so each segment's
				 * sums must: past one that does not, no start before
				 * it can be the job's */
				int bad = -1;
				for (int k = good >= a ? good + 1 : a; k <= b; k++)
					if (p->s[k].tc < wc || p->s[k].tm < wm || p->s[k].tg < wg)
						bad = k;
				good = b;
				if (bad >= 0) {
					a = bad; /* then bad + 1 */
					continue;
				}
				int skip, node = -1;
				if (!first_gate(p, s, j, a, b, start == now, &skip, &node)) {
					a = skip; /* then skip + 1 */
					continue;
				}
				if (nx == 1 && node >= 0) { /* its one executor: placed as
							       pack() would */
					p->place[0] = node;
					if (start == now)
						hold_now(p, &sim_cluster(s)->nodes[node],
							 first_role(j), &j->shape->role[first_role(j)],
							 j->shape->role[first_role(j)].gpus
								 ? 0
								 : j->shape->role[first_role(j)].gpu_milli);
				} else if (!pack_fast(p, s, j, a, b, start == now)) {
					continue;
				}
			} else if (!pack(p, s, j, a, b, start == now)) {
				continue;
			}
			/* the reservation: [start, end), the profile split at end */
			if (end != NO_END && (b + 1 >= p->ns || p->s[b + 1].t != end))
				split_at(p, end);
			reserve(p, j, a, b);
			if (start == now)
				launch(p, s, job, add_sat(now, est));
			break;
		}
		job = next;
	}
}

static void cons_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	(void)x, (void)why;
	struct cons *p = st;
	pol_jobset_return(&p->q, job);
	if (p->fast)
		pol_fitq_add(&p->fq, sim_job(s, job), job);
}

static void cons_fini(void *st)
{
	struct cons *p = st;
	pol_jobset_free(&p->q);
	pol_fits_free(&p->fits);
	pol_tent_fini(&p->t);
	if (p->fast)
		pol_fitq_free(&p->fq);
	free(p->s), free(p->nm);
	free(p->run), free(p->run_at);
	free(p->mc), free(p->mm), free(p->mg);
	free(p->place);
	free(p->stamp);
	free(p->lf), free(p->top), free(p->fst);
	pol_prof_free(&p->prof);
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
