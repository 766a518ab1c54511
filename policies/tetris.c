/* tetris.c - multi-resource packing (Grandl et al., "Multi-Resource
 * Packing for Cluster Schedulers", SIGCOMM'14).
 *
 * At each step, among the waiting jobs the fairness knob leaves eligible,
 * the (job, node) pair of the highest score gets the job's next executor
 * (a rigid job: all of them, each on its best node in turn):
 *
 *   score = alignment + srpt x (1 - remaining / the largest remaining)
 *   alignment = sum over cores, memory, GPUs of (asked / R) x (free / R)
 *
 * R the cluster's largest node's amount of the resource; remaining, a
 * job's remaining work by its estimate (sim_job_estimate: the actual run
 * time at speed 1, else the requested time) times the cores it still
 * wants; a job without an estimate has no SRPT credit.  Fairness knob f
 * in [0, 1): only the ceil((1 - f) x J) of the J waiting jobs with the
 * smallest dominant share of the cluster are eligible (f = 0: all, the
 * most efficient packing).  Ties: the earlier job, then the lower node.
 * Labels are ignored, as by fifo (docs/policies/tetris.md).
 *
 * The best node of an executor depends only on its shape (cores, memory,
 * GPUs): an index (pol_index.h) keeps a tournament tree per shape keyed
 * by minus the alignment, whose winner is the node of the highest
 * alignment, ties to the lower node, as the scan in node order picks.
 * With the knobs at 0 (the default) a job's score is its next executor's
 * alignment alone, so the waiting jobs are kept in groups by what their
 * next step places (their next executor; a rigid or gang job's every
 * one), each group sorted by arrival: the best pair is the best of the
 * groups' first jobs.  A gang that does not fit dooms its group until
 * the next launch (its every job would place the same executors on the
 * same cluster, and fail the same way), as the scan would find trying
 * them one by one.
 *
 * Cost, s executor shapes (<= POL_IX_MAX_SHAPES, else a scan of the
 * nodes per shape), g groups of waiting jobs (the distinct next steps:
 * 6 in the bench mix), e the executors of the largest gang: knobs at 0,
 * a step O(g x s) to choose and O(e x s x log nodes) to place, so a
 * decision O(launches x (g + e log nodes) x s), plus O(g x s) per gang
 * that fails and O(log waiting) per group with jobs tried (a binary
 * search), a job that leaves or joins a group O(1) amortised (inside a
 * group, where a job comes back for a lost executor, O(the group)); with
 * `srpt` or `fairness` set, the rule's loop over the waiting jobs with
 * each job's best node from the index: O(launches x (waiting x s +
 * waiting log waiting)).  Every change to a node costs O(s log nodes).
 * Groups are found by hash (O(1) expected) and a step walks only those
 * holding jobs (live); a group whose shape has no tree (past
 * POL_IX_MAX_SHAPES: a trace of a shape per job) is scanned unless it
 * asks for more than any node has free (caps_sync, O(nodes) once per
 * cluster change), and keeps its best nodes (struct tbest: its top 8 and
 * a bound on the rest, as of a cluster change): the next step reads only
 * the nodes changed since, O(changes since x 8), a whole scan when its
 * top is used up.  On such a trace a step is O(waiting + groups that may
 * fit x changes since), never above the plain scan's O(waiting x nodes).
 * With clu_plain_scan (the reference the tests compare against), every
 * node for every waiting job: O(launches x waiting x nodes).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "pol_index.h"
#include "registry.h"
#include "sim.h"
#include "util.h"

/* What a waiting job's next step places: its next executor, or a rigid
 * or gang job's every one still wanted, as runs of one shape in role
 * order.  Two jobs with equal keys are placed alike on the same cluster:
 * the same nodes, or the same failure. */
struct tkey {
	int nrun;
	struct { struct pol_shape sh; int count; } run[2];
};

/* A group's entry: a job, valid while its stamp is the job's (a job that
 * leaves its group gets a new stamp, leaving its old entry stale). */
struct tent_ref { int job; uint32_t stamp; };

/* The waiting jobs of one key, by id: an array sorted by id, with stale
 * entries dropped from the front as met and by compaction.  Jobs join
 * in arrival order, at the end; only one that comes back (an executor
 * lost) or moves on to another role mid-run is inserted inside. */
struct tgroup {
	struct tkey key;
	struct tent_ref *e; int head, n, cap; /* entries head .. n - 1 */
	int live;          /* valid entries */
	int thr;           /* its jobs below this id were tried in this
			      decision (INT_MAX: all) */
	uint64_t doomed;   /* the epoch its last attempt failed in */
	uint64_t hash;     /* key_hash(&key) */
	int hnext;         /* the next group of its hash chain, -1 */
	int live_at;       /* its place in live, -1 while it has no job */
	bool scan;         /* its first shape has no tree (past
			      POL_IX_MAX_SHAPES: never will) */
	struct tbest *best; /* scan: its best nodes, made on first use */
};

/* A scanned group's best nodes, nothing tentative, as of cluster change
 * at - 1 (0: none known): up to TOP_K nodes where its first executor
 * fits, by alignment (highest first, ties to the lower node), each
 * before `bound` in that order; every other node, unless changed since,
 * is at or after `bound` (bound.node -1: fits nowhere). */
#define TOP_K 8
struct tnode { double a; int node; };
struct tbest {
	uint64_t at;
	int n;
	struct tnode top[TOP_K];
	struct tnode bound;
};

struct tetris {
	struct pol_jobset q;
	struct pol_fits fits;
	struct pol_tent t;
	double srpt, fair;
	double max[3];                  /* the largest node's cores, MiB, milli-GPUs */
	double total[3];                /* the cluster's */
	double (*held)[3];              /* by job */
	bool *tried;                    /* by job: nothing fits it in this decision */
	struct tcand { double share; int job; } *cand; /* eligible jobs */
	bool indexed;                   /* false with clu_plain_scan: scan every node */
	struct pol_ix ix;               /* per executor shape: nodes by -alignment */
	/* grouped (indexed, knobs at 0): the waiting jobs by key */
	bool grouped;
	struct tgroup *grp; int ngrp, capgrp;
	int *ghead; uint64_t gmask;     /* hash chains of groups by key */
	int *live, nlive, caplive;      /* groups with jobs */
	int *thr_set, nthr, capthr;     /* groups given a thr in this decision */
	/* the most free cores, MiB, whole GPUs of any node, nothing
	   tentative (best_group), as of cluster change caps_at */
	int cap_cores, cap_gpus; int64_t cap_mem;
	uint64_t caps_at; bool caps_ok;
	int *gof;                       /* by job: its group, -1 if none */
	uint32_t *stamp;                /* by job */
	uint64_t epoch;                 /* launches (and decisions) so far */
};

static void tetris_can_ever_place(const struct scn_policy *cfg, const struct scn *sc,
				  int group, const struct sim_shape *sh, struct pol_verdict *v)
{
	struct pol_fit_rules rules = {.labels = false, .cores = true, .gpus = true,
				      .whole = (sh->rigid || sh->gang_role >= 0)};
	(void)cfg;
	struct sim_shape one = *sh;
	for (int r = 0; !(sh->rigid || sh->gang_role >= 0) && r < one.nroles; r++)
		one.role[r].count = 1;
	pol_feasible(sc, group, &one, rules, v);
}

/* An executor of role ro as tetris asks for it: cores unset, one. */
static struct pol_shape role_shape(const struct sim_role *ro)
{
	return (struct pol_shape){.cores = ro->cores ? ro->cores : CLU_MILLI,
				  .mem_mib = ro->mem_mib, .gpus = ro->gpus,
				  .gpu_milli = ro->gpus ? 0 : ro->gpu_milli};
}

/* Whether an executor of shape sh fits node n after the tentative
 * executors, and its alignment there into *a.  The scan and the index
 * both call it: the same operations in the same order, the same double. */
static bool fit_align(const struct tetris *t, const struct clu_node *n,
		      const struct pol_shape *sh, double *a)
{
	int fc, fg;
	int64_t fm;
	pol_tent_free(&t->t, n, &fc, &fm, &fg);
	if (fc < sh->cores || fm < sh->mem_mib || fg < sh->gpus ||
	    (sh->gpu_milli && pol_share_pick(&t->t, n, sh->gpu_milli) < 0))
		return false;
	double ask[3] = {sh->cores, (double)sh->mem_mib,
			 sh->gpus ? (double)sh->gpus * CLU_GPU_MILLI : sh->gpu_milli};
	double fr[3] = {fc, (double)fm, (double)pol_gpu_milli_free(&t->t, n)};
	double x = 0;
	for (int k = 0; k < 3; k++)
		if (t->max[k] > 0)
			x += ask[k] / t->max[k] * (fr[k] / t->max[k]);
	*a = x;
	return true;
}

/* Minus the alignment where sh fits (the tree's winner is then the
 * highest, ties to the lower node), else INFINITY.  The free amounts
 * the index passes are read again by pol_tent_free, as the scan reads
 * them (a GPU pool counts its whole GPUs its own way). */
static double tetris_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
			 const struct pol_shape *sh)
{
	double a;
	(void)fc, (void)fm, (void)fg;
	return fit_align(ctx, n, sh, &a) ? -a : INFINITY;
}

static void *tetris_init(struct sim *s, const struct scn_policy *cfg)
{
	struct tetris *t = xcalloc(1, sizeof *t);
	const struct clu *c = sim_cluster(s);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1;
	pol_jobset_init(&t->q, sim_njobs(s));
	pol_fits_init(&t->fits, s, tetris_can_ever_place, cfg);
	pol_tent_init(&t->t, c->n);
	t->srpt = pol_param_num(&pol_tetris, cfg, "srpt");
	t->fair = pol_param_num(&pol_tetris, cfg, "fairness");
	for (int i = 0; i < c->n; i++) {
		t->max[0] = fmax(t->max[0], c->nodes[i].cores);
		t->max[1] = fmax(t->max[1], (double)c->nodes[i].mem_mib);
		t->max[2] = fmax(t->max[2], (double)c->nodes[i].gpus * CLU_GPU_MILLI);
	}
	t->total[0] = (double)c->total_cores;
	t->total[1] = (double)c->total_mem_mib;
	t->total[2] = (double)c->total_gpus * CLU_GPU_MILLI;
	t->held = xcalloc((size_t)nj, sizeof *t->held);
	t->indexed = !clu_plain_scan;
	if (t->indexed)
		pol_ix_init(&t->ix, c, &t->t, tetris_key, t);
	t->grouped = t->indexed && t->srpt == 0 && t->fair == 0;
	if (t->grouped) {
		t->gof = xmalloc((size_t)nj * sizeof *t->gof);
		for (int i = 0; i < nj; i++)
			t->gof[i] = -1;
		t->stamp = xcalloc((size_t)nj, sizeof *t->stamp);
	} else {
		t->tried = xcalloc((size_t)nj, sizeof *t->tried);
		t->cand = xmalloc((size_t)nj * sizeof *t->cand);
	}
	t->epoch = 1;
	t->gmask = 15;
	t->ghead = xmalloc((t->gmask + 1) * sizeof *t->ghead);
	for (uint64_t b = 0; b <= t->gmask; b++)
		t->ghead[b] = -1;
	return t;
}

/* The next executor's role of j given k more already placed. */
static int role_after(const struct sim_job *j, int k)
{
	for (int r = 0; r < j->shape->nroles; r++) {
		int left = j->shape->role[r].count - j->live->granted[r];
		if (k < left)
			return r;
		k -= left > 0 ? left : 0;
	}
	return -1;
}

/* The executors job j places at its next step: 1, or a rigid or gang
 * job's every one still wanted. */
static int step_execs(const struct sim_job *j)
{
	return (j->shape->rigid || j->shape->gang_role >= 0) ? sim_execs_wanted(j) : 1;
}

/* ---- the groups (grouped only) ----------------------------------------- */

/* Job `job` into group g, in id order. */
static void group_add(struct tetris *t, struct tgroup *g, struct tent_ref r)
{
	if (g->n - g->head > 2 * g->live + 64) { /* mostly stale: compact */
		int k = 0;
		for (int i = g->head; i < g->n; i++)
			if (t->stamp[g->e[i].job] == g->e[i].stamp)
				g->e[k++] = g->e[i];
		g->n = k;
		g->head = 0;
	}
	if (!g->live) { /* among the live groups again */
		g->live_at = t->nlive;
		xgrow(&t->live, &t->caplive, t->nlive + 1, sizeof *t->live);
		t->live[t->nlive++] = (int)(g - t->grp);
	}
	if (g->head > 0 && g->head == g->n)
		g->head = g->n = 0;
	xgrow(&g->e, &g->cap, g->n + 1, sizeof *g->e);
	int i = g->n;
	while (i > g->head && g->e[i - 1].job > r.job)
		i--; /* rare: arrivals come in id order */
	memmove(&g->e[i + 1], &g->e[i], (size_t)(g->n - i) * sizeof *g->e);
	g->e[i] = r;
	g->n++;
	g->live++;
}

/* Job j's key; false if it wants nothing. */
static bool key_of(const struct sim_job *j, struct tkey *k)
{
	int want = step_execs(j);
	memset(k, 0, sizeof *k); /* compared field by field; zeroed for clarity */
	for (int r = 0; r < j->shape->nroles && want > 0; r++) {
		int left = j->shape->role[r].count - j->live->granted[r];
		if (left <= 0)
			continue;
		int n = left < want ? left : want;
		k->run[k->nrun].sh = role_shape(&j->shape->role[r]);
		k->run[k->nrun++].count = n;
		want -= n;
	}
	return k->nrun > 0;
}

static bool key_eq(const struct tkey *a, const struct tkey *b)
{
	if (a->nrun != b->nrun)
		return false;
	for (int i = 0; i < a->nrun; i++)
		if (a->run[i].count != b->run[i].count || !pol_shape_eq(&a->run[i].sh, &b->run[i].sh))
			return false;
	return true;
}

static uint64_t mix(uint64_t h, uint64_t x)
{
	h = (h ^ x) * UINT64_C(0xff51afd7ed558ccd);
	return h ^ h >> 32;
}

static uint64_t key_hash(const struct tkey *k)
{
	uint64_t h = mix(0, (uint64_t)k->nrun);
	for (int i = 0; i < k->nrun; i++) {
		const struct pol_shape *sh = &k->run[i].sh;
		h = mix(mix(h, (uint64_t)sh->cores << 32 ^ (uint64_t)k->run[i].count),
			(uint64_t)sh->mem_mib);
		h = mix(h, (uint64_t)sh->gpus << 32 ^ (uint64_t)sh->gpu_milli);
	}
	return h;
}

/* The group of key k, made if new: O(1) expected through the hash
 * chains (a search of every group ever made cost O(groups) a job, on a
 * trace of a shape per pod quadratic). */
static int group_of(struct tetris *t, const struct tkey *k)
{
	uint64_t h = key_hash(k);
	for (int g = t->ghead[h & t->gmask]; g >= 0; g = t->grp[g].hnext)
		if (t->grp[g].hash == h && key_eq(&t->grp[g].key, k))
			return g;
	xgrow(&t->grp, &t->capgrp, t->ngrp + 1, sizeof *t->grp);
	t->grp[t->ngrp] = (struct tgroup){.key = *k, .hash = h, .live_at = -1};
	if ((uint64_t)++t->ngrp > t->gmask + 1) { /* double the chains */
		t->gmask = 2 * t->gmask + 1;
		free(t->ghead);
		t->ghead = xmalloc((t->gmask + 1) * sizeof *t->ghead);
		for (uint64_t b = 0; b <= t->gmask; b++)
			t->ghead[b] = -1;
		for (int g = 0; g < t->ngrp - 1; g++) {
			t->grp[g].hnext = t->ghead[t->grp[g].hash & t->gmask];
			t->ghead[t->grp[g].hash & t->gmask] = g;
		}
	}
	t->grp[t->ngrp - 1].hnext = t->ghead[h & t->gmask];
	t->ghead[h & t->gmask] = t->ngrp - 1;
	return t->ngrp - 1;
}

/* Job `job` leaves its group; a group left without jobs leaves live. */
static void ungroup(struct tetris *t, int job)
{
	if (t->gof[job] >= 0) {
		struct tgroup *g = &t->grp[t->gof[job]];
		t->stamp[job]++;
		if (!--g->live) {
			int last = t->live[--t->nlive];
			t->live[g->live_at] = last;
			t->grp[last].live_at = g->live_at;
			g->live_at = -1;
		}
	}
	t->gof[job] = -1;
}

/* Group g gets a thr (reset at the end of the decision). */
static void set_thr(struct tetris *t, struct tgroup *g, int thr)
{
	if (!g->thr) {
		xgrow(&t->thr_set, &t->capthr, t->nthr + 1, sizeof *t->thr_set);
		t->thr_set[t->nthr++] = (int)(g - t->grp);
	}
	g->thr = thr;
}

/* Job `job` into the group of its key now (none if it wants nothing).
 * Never called for a job of a group with a tried prefix past it: only a
 * step of one executor moves a job within a decision (a job placed one
 * at a time, going on to its next), and such a step never fails, so its
 * group's prefix is empty. */
static void regroup(struct tetris *t, const struct sim *s, int job)
{
	struct tkey k;
	if (!key_of(sim_job(s, job), &k)) {
		ungroup(t, job);
		return;
	}
	int g = group_of(t, &k);
	if (t->gof[job] == g)
		return; /* its entry there stands */
	ungroup(t, job);
	t->gof[job] = g;
	group_add(t, &t->grp[g], (struct tent_ref){job, t->stamp[job]});
}

/* Group g's first job not yet tried, or -1: the first valid entry from
 * thr on (a binary search); stale ones at the front dropped. */
static int first_job(const struct tetris *t, struct tgroup *g)
{
	if (g->thr == INT_MAX)
		return -1;
	int i = g->head;
	if (g->thr > 0) {
		int hi = g->n;
		while (i < hi) {
			int mid = i + (hi - i) / 2;
			if (g->e[mid].job < g->thr)
				i = mid + 1;
			else
				hi = mid;
		}
	}
	for (; i < g->n; i++) {
		if (t->stamp[g->e[i].job] == g->e[i].stamp)
			return g->e[i].job;
		if (i == g->head)
			g->head++;
	}
	return -1;
}

/* ---- placing ---------------------------------------------------------- */

/* The best node for an executor of shape sh on the tentative state: -1
 * if none fits; its alignment into *a.  The scan keeps the first node of
 * the highest alignment. */
static int scan_node(const struct tetris *t, const struct clu *c, const struct pol_shape *sh,
		     double *a)
{
	int best = -1;
	for (int i = 0; i < c->n; i++) {
		double x;
		if (!fit_align(t, &c->nodes[i], sh, &x))
			continue;
		if (best < 0 || x > *a) {
			best = i;
			*a = x;
		}
	}
	return best;
}

/* The same through the index: the winner of the shape's tree. */
static int best_node(struct tetris *t, const struct sim *s, const struct pol_shape *sh, double *a)
{
	const struct pol_tree *tr = t->indexed ? pol_ix_tree(&t->ix, sh) : NULL;
	if (!tr)
		return scan_node(t, sim_cluster(s), sh, a);
	int node = pol_tree_top(tr);
	if (node >= 0)
		*a = -tr->key[node];
	return node;
}

static void add(struct tetris *t, const struct sim *s, const struct sim_job *j, int r, int node)
{
	const struct sim_role *ro = &j->shape->role[r];
	int cores = ro->cores ? ro->cores : CLU_MILLI, milli = ro->gpus ? 0 : ro->gpu_milli;
	if (milli)
		pol_tent_add_share(&t->t, &sim_cluster(s)->nodes[node], r, cores, ro->mem_mib, milli);
	else
		pol_tent_add(&t->t, node, r, cores, ro->mem_mib, ro->gpus);
	if (t->indexed)
		pol_ix_touch(&t->ix, node);
}

/* Place job j's next step tentatively, its first executor on `node`,
 * the others (a rigid or gang job's) each on its best node in turn.
 * False, the placement partial, if one does not fit. */
static bool place(struct tetris *t, const struct sim *s, const struct sim_job *j, int node)
{
	pol_tent_reset(&t->t);
	add(t, s, j, role_after(j, 0), node);
	int want = step_execs(j);
	for (int k = 1; k < want; k++) {
		double a = 0;
		int r = role_after(j, k);
		struct pol_shape sh = role_shape(&j->shape->role[r]);
		int n = best_node(t, s, &sh, &a);
		if (n < 0)
			return false;
		add(t, s, j, r, n);
	}
	return true;
}

/* Launch what is placed for job `job`, counting it as held. */
static void launch(struct tetris *t, struct sim *s, int job)
{
	for (int i = 0; i < t->t.n; i++) {
		const struct pol_tent_exec *x = &t->t.e[i];
		t->held[job][0] += x->cores;
		t->held[job][1] += (double)x->mem_mib;
		t->held[job][2] += x->gpu_milli ? x->gpu_milli : (double)x->gpus * CLU_GPU_MILLI;
	}
	pol_tent_launch(&t->t, s, job);
	t->epoch++;
}

static double dominant(const struct tetris *t, int job)
{
	double m = 0;
	for (int r = 0; r < 3; r++)
		if (t->total[r] > 0)
			m = fmax(m, t->held[job][r] / t->total[r]);
	return m;
}

/* A job's remaining work: its estimate x the cores it still wants; -1
 * without an estimate. */
static double remaining(const struct sim *s, const struct sim_job *j)
{
	int64_t req, act;
	sim_job_estimate(s, j, &req, &act);
	int64_t e = act >= 0 ? act : req;
	if (e < 0)
		return -1;
	double cores = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int left = ro->count - j->live->granted[r];
		cores += (left > 0 ? left : 0) * (double)(ro->cores ? ro->cores : CLU_MILLI);
	}
	return (double)e * cores;
}

/* ---- the decision ---------------------------------------------------- */

/* By share, then arrival: the order of a stable sort by share of jobs
 * listed in arrival order. */
static int by_share(const void *a, const void *b)
{
	const struct tcand *x = a, *y = b;
	if (x->share != y->share)
		return x->share < y->share ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

/* The rule as written: every step scores every eligible waiting job (its
 * best node through the index, or with clu_plain_scan a scan). */
static void schedule_all(struct tetris *t, struct sim *s)
{
	for (int job = pol_jobset_first(&t->q); job >= 0; job = pol_jobset_next(&t->q, job))
		t->tried[job] = false;
	for (;;) {
		/* the eligible jobs: by dominant share, the (1 - f) fraction of
		 * the smallest (ties in arrival order: a stable selection) */
		int n = 0;
		double rmax = 0;
		for (int job = pol_jobset_first(&t->q); job >= 0; job = pol_jobset_next(&t->q, job)) {
			if (t->tried[job])
				continue;
			t->cand[n].job = job;
			t->cand[n++].share = dominant(t, job);
			rmax = fmax(rmax, remaining(s, sim_job(s, job)));
		}
		if (!n)
			return;
		int keep = (int)ceil((1 - t->fair) * n - 1e-9);
		keep = keep < 1 ? 1 : keep > n ? n : keep;
		if (keep < n && t->indexed) /* all kept: their order is no matter */
			qsort(t->cand, (size_t)n, sizeof *t->cand, by_share);
		else if (keep < n) /* the reference: insertion sort, stable */
			for (int a = 1; a < n; a++)
				for (int b = a; b > 0 && t->cand[b].share < t->cand[b - 1].share; b--) {
					struct tcand x = t->cand[b];
					t->cand[b] = t->cand[b - 1], t->cand[b - 1] = x;
				}
		/* the best pair among them */
		int bj = -1, bn = -1;
		double bs = 0;
		for (int i = 0; i < keep; i++) {
			int job = t->cand[i].job;
			const struct sim_job *j = sim_job(s, job);
			pol_tent_reset(&t->t);
			double a = 0;
			struct pol_shape sh = role_shape(&j->shape->role[role_after(j, 0)]);
			int node = best_node(t, s, &sh, &a);
			if (node < 0) {
				t->tried[job] = true;
				continue;
			}
			double rem = remaining(s, j);
			double score = a + (rem >= 0 && rmax > 0 ? t->srpt * (1 - rem / rmax) : 0);
			if (bj < 0 || score > bs || (score == bs && job < bj)) {
				bj = job;
				bn = node;
				bs = score;
			}
		}
		if (bj < 0)
			return; /* no eligible job fits: the knob keeps the others out */
		const struct sim_job *j = sim_job(s, bj);
		if (!place(t, s, j, bn)) {
			t->tried[bj] = true;
			continue;
		}
		launch(t, s, bj);
		if (sim_execs_wanted(j) == 0)
			pol_jobset_remove(&t->q, bj);
	}
}

/* The most any node has free (nothing tentative), recomputed when the
 * cluster changed: O(nodes), no more than one scan_node. */
static void caps_sync(struct tetris *t, const struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	if (t->caps_ok && t->caps_at == c->changes)
		return;
	t->cap_cores = t->cap_gpus = 0;
	t->cap_mem = 0;
	for (int i = 0; i < c->n; i++) {
		int fc, fg;
		int64_t fm;
		pol_tent_free(&t->t, &c->nodes[i], &fc, &fm, &fg);
		t->cap_cores = fc > t->cap_cores ? fc : t->cap_cores;
		t->cap_mem = fm > t->cap_mem ? fm : t->cap_mem;
		t->cap_gpus = fg > t->cap_gpus ? fg : t->cap_gpus;
	}
	t->caps_at = c->changes;
	t->caps_ok = true;
}

/* Whether x comes before y: the higher alignment, ties to the lower node
 * (the scan's order); a node -1 (nowhere) after every other. */
static bool tn_before(struct tnode x, struct tnode y)
{
	if (y.node < 0)
		return x.node >= 0;
	return x.node >= 0 && (x.a > y.a || (x.a == y.a && x.node < y.node));
}

/* x (before the bound) into b's top, in order.  Where the top is full,
 * x or the last, whichever comes later, stays out and is the bound
 * (every node outside the top is at or after it). */
static void top_insert(struct tbest *b, struct tnode x)
{
	int k = b->n;
	if (k == TOP_K) {
		if (!tn_before(x, b->top[TOP_K - 1])) {
			b->bound = x;
			return;
		}
		b->bound = b->top[TOP_K - 1];
		k = TOP_K - 1;
	}
	while (k > 0 && tn_before(x, b->top[k - 1])) {
		b->top[k] = b->top[k - 1];
		k--;
	}
	b->top[k] = x;
	if (b->n < TOP_K)
		b->n++;
}

/* b from every node (nothing tentative): O(nodes x TOP_K). */
static void top_scan(const struct tetris *t, const struct clu *c, const struct pol_shape *sh,
		     struct tbest *b)
{
	b->n = 0;
	b->bound = (struct tnode){0, -1};
	pol_work.tetris_evals += (uint64_t)c->n;
	for (int i = 0; i < c->n; i++) {
		struct tnode x = {0, i};
		if (fit_align(t, &c->nodes[i], sh, &x.a) && tn_before(x, b->bound))
			top_insert(b, x);
	}
}

/* Node i changed: out of b's top, and back in where it comes before the
 * bound now. */
static void top_update(const struct tetris *t, const struct clu *c, const struct pol_shape *sh,
		       struct tbest *b, int i)
{
	for (int k = 0; k < b->n; k++)
		if (b->top[k].node == i) {
			memmove(&b->top[k], &b->top[k + 1], (size_t)(b->n - k - 1) * sizeof *b->top);
			b->n--;
			break;
		}
	struct tnode x = {0, i};
	pol_work.tetris_evals++;
	if (fit_align(t, &c->nodes[i], sh, &x.a) && tn_before(x, b->bound))
		top_insert(b, x);
}

/* best_node for group g's first executor, nothing tentative.  A shape
 * without a tree is scanned, unless it asks for more cores, memory or
 * whole GPUs than any node has free: it fits nowhere (fit_align's first
 * test fails on every node), found in O(1) once the caps are current. */
static int group_node(struct tetris *t, const struct sim *s, struct tgroup *g, double *a)
{
	const struct pol_shape *sh = &g->key.run[0].sh;
	if (!g->scan) {
		const struct pol_tree *tr = t->indexed ? pol_ix_tree(&t->ix, sh) : NULL;
		if (tr) {
			int node = pol_tree_top(tr);
			if (node >= 0)
				*a = -tr->key[node];
			return node;
		}
		g->scan = true;
	}
	caps_sync(t, s);
	if (sh->cores > t->cap_cores || sh->mem_mib > t->cap_mem || sh->gpus > t->cap_gpus)
		return -1;
	const struct clu *c = sim_cluster(s);
	if (!g->best)
		g->best = xcalloc(1, sizeof *g->best);
	struct tbest *b = g->best;
	uint64_t from = b->at - 1;
	pol_work.tetris_best++;
	if (!b->at || !clu_log_short(c, from)) {
		top_scan(t, c, sh, b);
	} else {
		/* a node unchanged since has the alignment it had: only the
		 * changed ones move, in or out of the top */
		for (uint64_t q = from; q < c->changes; q++)
			top_update(t, c, sh, b, clu_log_node(c, q));
		if (!b->n && b->bound.node >= 0)
			top_scan(t, c, sh, b); /* the top used up: the rest unknown */
	}
	b->at = c->changes + 1;
	if (!b->n)
		return -1;
	*a = b->top[0].a;
	return b->top[0].node;
}

/* The best (group, job, node, alignment) over the groups' first jobs, -1
 * if none fits; with `live`, of the groups not doomed now. */
static int best_group(struct tetris *t, const struct sim *s, bool live, int *bj, int *bn,
		      double *ba)
{
	int bg = -1;
	for (int i = 0; i < t->nlive; i++) {
		int g = t->live[i];
		struct tgroup *gr = &t->grp[g];
		if (live && gr->doomed == t->epoch)
			continue;
		int job = first_job(t, gr);
		double a = 0;
		int node = job < 0 ? -1 : group_node(t, s, gr, &a);
		if (node < 0)
			continue; /* its first executor fits nowhere: nor later in
				     this decision, which only takes */
		if (bg < 0 || a > *ba || (a == *ba && job < *bj)) {
			bg = g;
			*bj = job;
			*bn = node;
			*ba = a;
		}
	}
	return bg;
}

/* The best pair is of a doomed group (its gang failed since the last
 * launch): the scan would try its jobs one by one, each failing as the
 * first, and those of every other doomed group, until the best job of a
 * group not doomed.  Mark them all tried at once. */
static void settle_doomed(struct tetris *t, const struct sim *s)
{
	int j2 = -1, n2;
	double a2 = 0;
	int g2 = best_group(t, s, true, &j2, &n2, &a2);
	for (int i = 0; i < t->nlive; i++) {
		struct tgroup *gr = &t->grp[t->live[i]];
		if (gr->doomed != t->epoch)
			continue;
		int job = first_job(t, gr);
		double a = 0;
		if (job < 0 || group_node(t, s, gr, &a) < 0)
			continue;
		if (g2 < 0 || a > a2)
			set_thr(t, gr, INT_MAX);
		else if (a == a2 && job < j2)
			set_thr(t, gr, j2);
	}
}

/* Knobs at 0: a job's score is its alignment, and the best pair is the
 * best of the groups' first jobs (the lower job on a tie, as the scan). */
static void schedule_groups(struct tetris *t, struct sim *s)
{
	t->epoch++; /* no group is doomed by an earlier decision */
	t->caps_ok = false; /* nodes may have come or gone since */
	for (;;) {
		pol_tent_reset(&t->t);
		int bj = -1, bn = -1;
		double ba = 0;
		int bg = best_group(t, s, false, &bj, &bn, &ba);
		if (bg < 0)
			break;
		if (t->grp[bg].doomed == t->epoch) {
			settle_doomed(t, s);
			continue;
		}
		const struct sim_job *j = sim_job(s, bj);
		if (!place(t, s, j, bn)) {
			t->grp[bg].doomed = t->epoch;
			set_thr(t, &t->grp[bg], bj + 1);
			continue;
		}
		launch(t, s, bj);
		if (sim_execs_wanted(j) == 0) {
			pol_jobset_remove(&t->q, bj);
			ungroup(t, bj);
		} else {
			regroup(t, s, bj);
		}
	}
	pol_tent_reset(&t->t);
	for (int i = 0; i < t->nthr; i++) /* none tried in the next decision */
		t->grp[t->thr_set[i]].thr = 0;
	t->nthr = 0;
}

static void tetris_schedule(void *st, struct sim *s)
{
	struct tetris *t = st;
	if (t->grouped)
		schedule_groups(t, s);
	else
		schedule_all(t, s);
}

static void tetris_arrived(void *st, struct sim *s, int job)
{
	struct tetris *t = st;
	int why = pol_fits_arrived(&t->fits, s, sim_job(s, job));
	if (why) {
		sim_reject_job(s, job, why);
		return;
	}
	pol_jobset_add(&t->q, job);
	if (t->grouped)
		regroup(t, s, job);
}

static void tetris_finished(void *st, struct sim *s, int job)
{
	struct tetris *t = st;
	(void)s;
	pol_jobset_remove(&t->q, job);
	memset(t->held[job], 0, sizeof t->held[job]);
	if (t->grouped)
		ungroup(t, job);
}

static void tetris_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	struct tetris *t = st;
	(void)why;
	if (x->role >= 0) {
		t->held[job][0] -= x->cores;
		t->held[job][1] -= (double)x->mem_mib;
		t->held[job][2] -= x->gpu_milli ? x->gpu_milli : (double)x->gpus * CLU_GPU_MILLI;
	}
	pol_jobset_return(&t->q, job);
	if (t->grouped)
		regroup(t, s, job);
}

static void tetris_fini(void *st)
{
	struct tetris *t = st;
	pol_jobset_free(&t->q);
	pol_fits_free(&t->fits);
	pol_tent_fini(&t->t);
	if (t->indexed)
		pol_ix_free(&t->ix);
	for (int g = 0; g < t->ngrp; g++)
		free(t->grp[g].e), free(t->grp[g].best);
	free(t->grp), free(t->gof), free(t->stamp);
	free(t->ghead), free(t->live), free(t->thr_set);
	free(t->held), free(t->tried), free(t->cand);
	free(t);
}

static const struct pol_param tetris_params[] = {
	{.key = "srpt", .type = POL_NUM, .def = "0", .lo = 0, .hi = 100, .def_num = 0,
	 .help = "weight of the SRPT credit, 1 - remaining / the largest remaining, added to "
		 "the alignment (0: packing alone)"},
	{.key = "fairness", .type = POL_NUM, .def = "0", .lo = 0, .hi = 0.99, .def_num = 0,
	 .help = "knob f: only the (1 - f) fraction of the waiting jobs of smallest dominant "
		 "share are eligible (0: all)"},
	{.key = NULL},
};

const struct policy_ops pol_tetris = {
	.name = "tetris",
	.summary = "Tetris: multi-resource packing by alignment score, with SRPT and fairness "
		   "knobs",
	.params = tetris_params,
	.uses_labels = false,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.init = tetris_init,
	.job_arrived = tetris_arrived,
	.job_finished = tetris_finished,
	.schedule = tetris_schedule,
	.fini = tetris_fini,
	.exec_lost = tetris_exec_lost,
	.can_ever_place = tetris_can_ever_place,
};
