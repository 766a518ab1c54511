/* pods.c - the engine of the FGD study's policies (pods.h).
 *
 * Cost per decision (docs/policies/fgd.md, "Cost"): a node is scored
 * again only when its view changed (the cluster's change log, the job's
 * tentative executors, clustering's tags), once per executor shape asked
 * for since: O(s x (score + log nodes)) per node changed, s the shapes
 * the waiting jobs want (max_cls indexed at most; past them a shape is
 * scanned as below), a score O(GPUs) (fgd's O(GPUs x target shapes x
 * GPUs)).  Then an executor's node costs O(1) under node-order ties and
 * O(log nodes + d) under uniform ties and random, d the draws the scan's
 * reservoir would have made that decide the pick: from the last top node
 * back, half the top nodes on average (random's top is every feasible
 * node, so random is O(feasible nodes) a pod by design: one hash, a
 * multiplication and a rotation a node, the hashes made 32 at a time by
 * rng_u64_run so they overlap, then one pol_top_nth).  A pass over the queue visits only the
 * jobs that may fit (the seqs, below), merging the seqs holding jobs by
 * a heap: O(log seqs) a seq taken from it (once per job tried, once per
 * seq ruled out, once per launch after a failure); shapes and seqs
 * found by hash, O(1) expected; a shape more than any node has free
 * (the caps) ruled out in O(1) before it is scored.  So a pass is at
 * most the scan's one try per waiting job, also on a trace of a shape
 * per pod (k = 1 job per seq).  With
 * clu_plain_scan, the scan the policies' docs describe: every node
 * viewed and scored for every executor, O(nodes x (GPUs + score)), and
 * every waiting job tried at every decision.
 */
#include "pods.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frag.h"
#include "pol_common.h"
#include "pol_heap.h"
#include "pol_top.h"
#include "rng.h"
#include "sim.h"
#include "util.h"

/* Seqs kept at most (each holds a bit per job): past them, the jobs are
 * in one seq tried as the scan does. */
#define POD_MAX_SEQS 256
#define POD_SEQ_BUCKETS 512
/* Draws made at once by ix_choose's walk back (rng_u64_run): past the
 * pick at most this many less one are made and not used. */
#define POD_DRAW_RUN 32
/* Seqs holding jobs past which seq_may_fit consults the caps first. */
#define POD_CAPS_SEQS 16

#define POD_RNG 0x706f6473u   /* "pods": the keyed RNG's x coordinate */
#define POD_ORDER 0xffffffffu /* its y coordinate for the node order (a
				 job's decisions take y = the job) */

/* A tentative executor of the job being decided. */
struct tent {
	int node, role;
	int64_t cpu, mem;
	int k, m, gpu;        /* a share on GPU `gpu`, or k whole GPUs (mask) */
	uint64_t mask;
};

/* What one node offers at most, over the nodes: free CPU, memory, free
 * milli-GPUs of one GPU, idle GPUs (caps_fit). */
enum { CAP_CPU, CAP_MEM, CAP_SHARE, CAP_IDLE, NCAPS };

struct pods {
	const struct pod_rules *rules;
	struct sim *s;
	struct pol_jobset q;  /* waiting, by arrival */
	int64_t max_cpu, max_gpu;
	struct frag_target tw; /* fgd's target workload */
	int *tags;            /* by node: POD_NTAGS counts */
	int *pl_head;         /* by job: its first placement in pl, -1 */
	struct pl { int node, tag, next; } *pl; int npl, cap_pl; /* its executors'
				 nodes and tags, a list per job (tag -1: counted out) */
	struct tent *t; int nt, cap_t;
	struct rng_key key;   /* the decision's, made at its first draw */
	bool keyed;           /* key made for the job being decided */
	int key_job;          /* the job being decided */
	uint64_t draws;
	int64_t *score; int *cand_gpu; int *cand; /* by candidate */
	int *rank;            /* by node: its place in the seed's node order
				 (ties node-order), NULL: ties uniform */
	int *order;           /* by place: the node (with rank) */
	uint64_t *inv, *lim;  /* by t = 1 .. nodes: pods_odd_inverse(t),
				 UINT64_MAX / t (pods_divides; ties
				 uniform, with the index) */
	/* the index (below); ix false with clu_plain_scan */
	bool ix;
	struct cls **cls; int ncls, cap_cls; /* every shape asked for */
	int *cls_head; uint64_t cls_mask; /* hash chains of cls by shape */
	int nix, max_cls;     /* classes indexed, at most */
	int *log; uint64_t log_mask, nlog; /* ring: nodes whose view changed */
	uint64_t clu_seen;    /* cluster changes copied into log */
	/* the waiting jobs by what they still want (below) */
	struct seq **seqs; int nseqs, cap_seqs;
	int seq_head[POD_SEQ_BUCKETS]; /* hash chains of seqs by what they hold */
	int *live, nlive;     /* seqs holding jobs */
	int *spare, nspare;   /* seqs emptied, for reuse */
	int overflow;         /* the seq past POD_MAX_SEQS, -1 */
	struct pol_heap next; /* schedule_ix's seqs by their next job */
	struct pol_top caps[NCAPS]; uint64_t caps_seen; /* (below) */
	int *parked, nparked; /* seqs ruled out until the next launch (2) */
	int *seq_of;          /* by job: its seq while waiting, -1 */
	uint64_t pass, epoch; /* pods_schedule calls; launches and calls */
	int fail_cls, fail_nt; /* place_job's failure: the shape, the job's
				 executors then tentatively placed */
};

struct pods_work pods_work;

static const char *const tie_rules[] = {"node-order", "uniform", NULL};

const struct pol_param pods_tie_params[] = {
	{.key = "ties", .type = POL_CHOICE, .choices = tie_rules, .def = "node-order",
	 .help = "among nodes of the top score: node-order, the first in a node order drawn once "
		 "per seed (the FGD artifact's kube-scheduler fork), or uniform, a fresh draw at "
		 "each pod (upstream kube-scheduler)"},
	{.key = NULL},
};

const struct pol_param pods_no_params[] = {{.key = NULL}};

int64_t pods_max_cpu(const struct pods *p)
{
	return p->max_cpu;
}

int64_t pods_max_gpu(const struct pods *p)
{
	return p->max_gpu;
}

/* The decision's key: the job's, made when first drawn from (node-order
 * ties never draw). */
static struct rng_key key_of(struct pods *p)
{
	if (!p->keyed) {
		const struct sim_job *j = sim_job(p->s, p->key_job);
		p->key = rng_key(sim_seed(p->s), 0, RNG_USER, POD_RNG, (uint32_t)p->key_job,
				 (uint32_t)j->live->execs_live);
		p->keyed = true;
	}
	return p->key;
}

uint64_t pods_draw(struct pods *p, uint64_t n)
{
	return n ? rng_u64(key_of(p), p->draws++) % n : 0;
}

const int *pods_tags(const struct pods *p, int node)
{
	return p->tags + (size_t)node * POD_NTAGS;
}

static void req_of(const struct sim_role *ro, struct pod_req *r)
{
	r->cpu = ro->cores ? ro->cores : CLU_MILLI;
	r->mem = ro->mem_mib;
	r->k = ro->gpus ? ro->gpus : ro->gpu_milli > 0;
	r->m = ro->gpus ? CLU_GPU_MILLI : ro->gpu_milli;
	r->require = ro->require;
	r->tag = !r->k ? 0 : r->m < CLU_GPU_MILLI ? 1 : 1 + r->k;
}

/* ---- the target workload and the fragmentation (fgd.md §2) ----------- */

double pods_frag(const struct pods *p, const struct pod_node *v)
{
	return frag_node(&p->tw, v->n->labels, v->cpu, v->g, v->free, v->gfree);
}

/* ---- views, feasibility, GPU choice ----------------------------------- */

static void view(const struct pods *p, int node, struct pod_node *v)
{
	const struct clu_node *n = &sim_cluster(p->s)->nodes[node];
	v->n = n;
	v->cpu = n->cores_free;
	v->mem = n->mem_free;
	v->g = n->pool ? 0 : n->gpus; /* a pool's GPUs have no index to score */
	for (int g = 0; g < v->g; g++)
		v->free[g] = n->gpu_free_m[g];
	for (int i = 0; i < p->nt; i++) {
		const struct tent *t = &p->t[i];
		if (t->node != node)
			continue;
		v->cpu -= t->cpu;
		v->mem -= t->mem;
		if (t->m < CLU_GPU_MILLI && t->k && t->gpu < v->g)
			v->free[t->gpu] = (uint16_t)(v->free[t->gpu] - t->m);
		for (int g = 0; g < v->g; g++)
			if (t->mask >> g & 1)
				v->free[g] = 0;
	}
	v->gfree = 0;
	for (int g = 0; g < v->g; g++)
		v->gfree += v->free[g];
}

static bool feasible(const struct pod_node *v, const struct pod_req *r)
{
	if (v->cpu < r->cpu || v->mem < r->mem)
		return false;
	if ((v->n->labels & r->require) != r->require)
		return false;
	if (!r->k)
		return true;
	int fit = 0;
	for (int g = 0; g < v->g; g++)
		fit += v->free[g] >= r->m;
	return fit >= r->k;
}

/* A share's GPU by best fit: the least free that fits, lowest index on
 * ties. */
static int best_fit_gpu(const struct pod_node *v, int m)
{
	int best = -1;
	for (int g = 0; g < v->g; g++)
		if (v->free[g] >= m && (best < 0 || v->free[g] < v->free[best]))
			best = g;
	return best;
}

/* ---- the index ------------------------------------------------------- */

/* Every candidate of an executor shape: its score where it is feasible
 * (else POL_TOP_NONE) in a pol_top over the seed's node order (ties
 * node-order) or the node ids (uniform), and the GPU a share would take
 * there; current up to log entry `seen`.  A node's score depends only on
 * its view (its free amounts less the job's tentative executors; for
 * clustering its tags) and the shape, so a node is scored again only
 * after its view changed: the cluster's change log, copied into the
 * engine's own log with the tentative placements and the tags. */
struct cls {
	struct pod_req r;
	struct pol_top top;   /* (indexed: gpu not NULL) */
	int *gpu;             /* by node: the share's GPU, -1; NULL until the
				 class is first asked for, and past max_cls */
	int64_t *room;        /* by node: executors of the shape its view
				 holds one after the other (room_of) */
	int64_t slots;        /* their sum */
	uint64_t seen;        /* log entries caught up with */
	uint64_t hash;        /* req_hash(&r) */
	int hnext;            /* the next class of its hash chain, -1 */
	uint64_t dead;        /* pass in which it fit no node (schedule_ix) */
};

static bool req_eq(const struct pod_req *a, const struct pod_req *b)
{
	return a->cpu == b->cpu && a->mem == b->mem && a->k == b->k && a->m == b->m &&
	       a->require == b->require && a->tag == b->tag;
}

/* Node `node`'s view changed. */
static void note(struct pods *p, int node)
{
	if (p->ix)
		p->log[p->nlog++ & p->log_mask] = node;
}

/* Copy the cluster's changes since the last call into the log (every
 * node once when they are more than the nodes, or the cluster's log no
 * longer holds them). */
static void catch_up(struct pods *p)
{
	const struct clu *c = sim_cluster(p->s);
	struct clu_since it = clu_since(c, p->clu_seen, (uint64_t)c->n);
	for (int i; (i = clu_since_next(&it)) >= 0;)
		note(p, i);
	p->clu_seen = c->changes;
}

static bool is_share(const struct pod_req *r)
{
	return r->k == 1 && r->m < CLU_GPU_MILLI;
}

/* How many executors of shape r a feasible node's view holds one after
 * the other: the least of its CPU, memory and GPUs over the shape's.
 * Placing one there, on any GPU that fits, takes exactly one from it
 * (a share: one of floor(free / m) on its GPU; whole GPUs: k of the idle
 * ones), and placing any executor takes none back, so a job wanting
 * more executors of a shape than the nodes' sum cannot be placed. */
static int64_t room_of(const struct pod_node *v, const struct pod_req *r)
{
	int64_t n = v->cpu / r->cpu;
	if (r->mem > 0 && v->mem / r->mem < n)
		n = v->mem / r->mem;
	if (r->k) {
		int64_t g = 0;
		for (int i = 0; i < v->g; i++)
			g += r->m < CLU_GPU_MILLI ? v->free[i] / r->m : v->free[i] == CLU_GPU_MILLI;
		g = r->m < CLU_GPU_MILLI ? g : g / r->k;
		n = g < n ? g : n;
	}
	return n;
}

/* Score node `node` for class `c` from its view now. */
static void rekey(struct pods *p, struct cls *c, int node)
{
	struct pod_node v;
	view(p, node, &v);
	int64_t key = POL_TOP_NONE, room = 0;
	int gpu = -1;
	if (feasible(&v, &c->r)) {
		room = room_of(&v, &c->r);
		key = p->rules->score(p, &v, &c->r, &gpu);
		if (is_share(&c->r) && gpu < 0 && !p->rules->random_gpu)
			gpu = best_fit_gpu(&v, c->r.m);
	}
	c->gpu[node] = gpu;
	c->slots += room - c->room[node];
	c->room[node] = room;
	pol_top_set(&c->top, p->rank ? p->rank[node] : node, key);
}

static void cls_sync(struct pods *p, struct cls *c);

static uint64_t mix(uint64_t h, uint64_t x)
{
	h = (h ^ x) * UINT64_C(0xff51afd7ed558ccd);
	return h ^ h >> 32;
}

static uint64_t req_hash(const struct pod_req *r)
{
	uint64_t h = mix(mix(mix(0, (uint64_t)r->cpu), (uint64_t)r->mem), r->require);
	return mix(h, (uint64_t)r->k << 40 ^ (uint64_t)r->m << 20 ^ (uint64_t)r->tag);
}

/* Shape r's class (interned: every shape ever asked for has one), found
 * through hash chains: O(1) expected, where a search of every class ever
 * made cost O(shapes) per executor (a trace of a shape per pod made that
 * quadratic: 55 s for fgd on 4 000 such pods). */
static int intern(struct pods *p, const struct pod_req *r)
{
	uint64_t h = req_hash(r);
	pods_work.lookups++;
	for (int i = p->cls_head[h & p->cls_mask]; i >= 0; i = p->cls[i]->hnext)
		if (pods_work.probes++, p->cls[i]->hash == h && req_eq(&p->cls[i]->r, r))
			return i;
	struct cls *c = xcalloc(1, sizeof *c);
	c->r = *r;
	c->hash = h;
	xgrow(&p->cls, &p->cap_cls, p->ncls + 1, sizeof *p->cls);
	p->cls[p->ncls++] = c;
	if ((uint64_t)p->ncls > p->cls_mask + 1) { /* double the chains */
		p->cls_mask = 2 * p->cls_mask + 1;
		free(p->cls_head);
		p->cls_head = xmalloc((p->cls_mask + 1) * sizeof *p->cls_head);
		for (uint64_t b = 0; b <= p->cls_mask; b++)
			p->cls_head[b] = -1;
		for (int i = 0; i < p->ncls - 1; i++) {
			struct cls *d = p->cls[i];
			d->hnext = p->cls_head[d->hash & p->cls_mask];
			p->cls_head[d->hash & p->cls_mask] = i;
		}
	}
	c->hnext = p->cls_head[h & p->cls_mask];
	p->cls_head[h & p->cls_mask] = p->ncls - 1;
	return p->ncls - 1;
}

/* The class of shape r, its scores current; NULL when the engine already
 * indexes max_cls others (the caller then scans).  Its first call scores
 * every node, O(nodes); then each call costs a score and O(log nodes)
 * per log entry since its last call, or a full scoring when the ring no
 * longer holds them all. */
static struct cls *cls_of(struct pods *p, const struct pod_req *r)
{
	const struct clu *cl = sim_cluster(p->s);
	struct cls *c = p->cls[intern(p, r)];
	if (!c->gpu) {
		if (p->nix >= p->max_cls)
			return NULL;
		p->nix++;
		pol_top_init(&c->top, cl->n);
		c->gpu = xmalloc((size_t)(cl->n ? cl->n : 1) * sizeof *c->gpu);
		c->room = xcalloc((size_t)(cl->n ? cl->n : 1), sizeof *c->room);
		c->seen = p->nlog - p->log_mask - 2; /* behind the ring: score all */
	}
	cls_sync(p, c);
	return c;
}

/* Bring indexed class c up to the log. */
static void cls_sync(struct pods *p, struct cls *c)
{
	const struct clu *cl = sim_cluster(p->s);
	catch_up(p);
	if (p->nlog - c->seen > p->log_mask + 1)
		for (int i = 0; i < cl->n; i++)
			rekey(p, c, i);
	else
		for (uint64_t q = c->seen; q < p->nlog; q++)
			rekey(p, c, p->log[q & p->log_mask]);
	c->seen = p->nlog;
}

/* Bring the caps up to the log (nothing tentative: their views are the
 * cluster's), as cls_sync does a class. */
static void caps_sync(struct pods *p)
{
	const struct clu *cl = sim_cluster(p->s);
	catch_up(p);
	bool all = p->nlog - p->caps_seen > p->log_mask + 1;
	for (uint64_t q = all ? 0 : p->caps_seen; q < (all ? (uint64_t)cl->n : p->nlog); q++) {
		int node = all ? (int)q : p->log[q & p->log_mask];
		struct pod_node v;
		view(p, node, &v);
		int64_t share = 0, idle = 0;
		for (int g = 0; g < v.g; g++) {
			share = v.free[g] > share ? v.free[g] : share;
			idle += v.free[g] == CLU_GPU_MILLI;
		}
		pol_top_set(&p->caps[CAP_CPU], node, v.cpu);
		pol_top_set(&p->caps[CAP_MEM], node, v.mem);
		pol_top_set(&p->caps[CAP_SHARE], node, share);
		pol_top_set(&p->caps[CAP_IDLE], node, idle);
	}
	p->caps_seen = p->nlog;
}

/* Whether an executor of shape r may be feasible on some node (nothing
 * tentative): no node is feasible where one of its amounts exceeds the
 * most any node has free.  A test in O(1) once caps_sync is done, where
 * trying a job the index cannot rule out otherwise (past POD_MAX_SEQS,
 * on a trace of a shape per pod) scores its shape on every node changed
 * since it was last tried, up to O(nodes). */
static bool caps_fit(const struct pods *p, const struct pod_req *r)
{
	if (r->cpu > pol_top_key(&p->caps[CAP_CPU]) || r->mem > pol_top_key(&p->caps[CAP_MEM]))
		return false;
	if (!r->k)
		return true;
	return r->m < CLU_GPU_MILLI ? r->m <= pol_top_key(&p->caps[CAP_SHARE])
				    : r->k <= pol_top_key(&p->caps[CAP_IDLE]);
}

/* Whether every executor job `job` still wants may be feasible
 * (caps_fit). */
static bool job_caps_fit(struct pods *p, int job)
{
	const struct sim_job *j = sim_job(p->s, job);
	caps_sync(p);
	for (int r = 0; r < j->shape->nroles; r++) {
		struct pod_req q;
		req_of(&j->shape->role[r], &q);
		if (j->live->granted[r] < j->shape->role[r].count && !caps_fit(p, &q))
			return false;
	}
	return true;
}

/* ---- the decision ------------------------------------------------------ */

/* The scan (clu_plain_scan, or a shape past max_cls): view and score
 * every node.  The node and a share's GPU into *node, *gpu; false if
 * none is feasible. */
static bool scan_choose(struct pods *p, const struct pod_req *r, int *node, int *gpu_out)
{
	const struct clu *c = sim_cluster(p->s);
	int nc = 0;
	struct pod_node v;
	for (int i = 0; i < c->n; i++) {
		view(p, i, &v);
		if (!feasible(&v, r))
			continue;
		int gpu = -1;
		p->score[nc] = p->rules->score(p, &v, r, &gpu);
		if (is_share(r) && gpu < 0) {
			if (p->rules->random_gpu) {
				int fit[CLU_MAX_GPUS], nf = 0;
				for (int g = 0; g < v.g; g++)
					if (v.free[g] >= r->m)
						fit[nf++] = g;
				gpu = fit[pods_draw(p, (uint64_t)nf)];
			} else {
				gpu = best_fit_gpu(&v, r->m);
			}
		}
		p->cand_gpu[nc] = gpu;
		p->cand[nc++] = i;
	}
	if (!nc)
		return false;
	if (p->rules->normalize) { /* integer min-max rescale to 0..100 */
		int64_t lo = p->score[0], hi = p->score[0];
		for (int i = 1; i < nc; i++) {
			lo = p->score[i] < lo ? p->score[i] : lo;
			hi = p->score[i] > hi ? p->score[i] : hi;
		}
		for (int i = 0; i < nc; i++)
			p->score[i] = hi > lo ? (p->score[i] - lo) * 100 / (hi - lo) : 100;
	}
	int64_t top = p->score[0];
	for (int i = 1; i < nc; i++)
		top = p->score[i] > top ? p->score[i] : top;
	int ntop = 0, pick = -1;
	if (p->rank) { /* the first of the top in the seed's node order */
		for (int i = 0; i < nc; i++)
			if (p->score[i] == top && (pick < 0 || p->rank[p->cand[i]] < p->rank[p->cand[pick]]))
				pick = i;
	} else {
		for (int i = 0; i < nc; i++) /* uniform among the top: reservoir */
			if (p->score[i] == top && pods_draw(p, (uint64_t)++ntop) == 0)
				pick = i;
	}
	*node = p->cand[pick];
	*gpu_out = p->cand_gpu[pick];
	return true;
}

uint64_t pods_odd_inverse(uint64_t t)
{
	uint64_t o = t >> __builtin_ctzll(t), inv = o;
	for (int i = 0; i < 5; i++) /* o o = 1 mod 8; each step doubles the bits */
		inv *= 2 - o * inv;
	return inv;
}

/* The same choice through class c, drawing the same numbers.  The
 * min-max rescale (bestfit) keeps the top: (s - lo) 100 / (hi - lo) is
 * 100 exactly when s = hi.  Uniform ties: the scan's reservoir keeps the
 * t-th top node when draw t - 1 (from the first) modulo t is 0, the last
 * such t winning, so the pick is found from the last top node back,
 * drawing only those numbers (half the top nodes on average: random's
 * top is every feasible node, which bounds its cost), and the draw
 * counter moves on by the top's count as the scan's did.  Random draws a
 * share's GPU at every candidate first (every feasible node scores alike
 * there: pod_rules.random_gpu), the pick's being draw pick. */
static bool ix_choose(struct pods *p, struct cls *c, const struct pod_req *r, int *node,
		      int *gpu)
{
	if (pol_top_key(&c->top) == POL_TOP_NONE)
		return false;
	if (p->rank) {
		*node = p->order[pol_top_nth(&c->top, 0)];
		*gpu = c->gpu[*node];
		return true;
	}
	int ntop = pol_top_count(&c->top);
	uint64_t base = p->draws;
	bool gpu_draws = p->rules->random_gpu && is_share(r);
	if (gpu_draws)
		p->draws += (uint64_t)ntop;
	int pick = ntop - 1;
	struct rng_key key = key_of(p);
	uint64_t d[POD_DRAW_RUN];
	while (pick > 0) { /* draws lo .. pick by a run, tested from pick down */
		int lo = pick >= POD_DRAW_RUN ? pick - POD_DRAW_RUN + 1 : 1, i = pick - lo;
		rng_u64_run(key, p->draws + (uint64_t)lo, d, i + 1);
		while (i >= 0 && !pods_divides(d[i], (uint64_t)(lo + i) + 1, p->inv[lo + i + 1],
					       p->lim[lo + i + 1]))
			i--;
		pick = i >= 0 ? lo + i : lo - 1;
		if (i >= 0)
			break;
	}
	p->draws += (uint64_t)ntop;
	*node = pol_top_nth(&c->top, pick);
	*gpu = c->gpu[*node];
	if (gpu_draws) {
		struct pod_node v;
		int fit[CLU_MAX_GPUS], nf = 0;
		view(p, *node, &v);
		for (int g = 0; g < v.g; g++)
			if (v.free[g] >= r->m)
				fit[nf++] = g;
		*gpu = fit[rng_u64(key, base + (uint64_t)pick) % (uint64_t)nf];
	}
	return true;
}

/* Place one executor of role r tentatively: the best node (ties by the
 * `ties` rule; random's a uniform draw, every node scoring alike); false
 * if none is feasible. */
static bool place_one(struct pods *p, int role, const struct pod_req *r)
{
	int node, gpu;
	struct cls *c = p->ix ? cls_of(p, r) : NULL;
	if (!(c ? ix_choose(p, c, r, &node, &gpu) : scan_choose(p, r, &node, &gpu)))
		return false;
	struct pod_node v;
	view(p, node, &v);
	struct tent t = {.node = node, .role = role, .cpu = r->cpu, .mem = r->mem, .k = r->k,
			 .m = r->m, .gpu = -1};
	if (is_share(r)) {
		t.gpu = gpu;
	} else {
		for (int g = 0, got = 0; g < v.g && got < r->k; g++) /* lowest-indexed free */
			if (v.free[g] == CLU_GPU_MILLI) {
				t.mask |= UINT64_C(1) << g;
				got++;
			}
	}
	xgrow(&p->t, &p->cap_t, p->nt + 1, sizeof *p->t);
	p->t[p->nt++] = t;
	note(p, node);
	return true;
}

/* The job's tentative executors are gone: their nodes' views change. */
static void untent(struct pods *p)
{
	for (int i = 0; i < p->nt; i++)
		note(p, p->t[i].node);
	p->nt = 0;
}

/* Every executor job still wants, or none. */
static bool place_job(struct pods *p, int job)
{
	const struct sim_job *j = sim_job(p->s, job);
	p->nt = 0;
	p->key_job = job;
	p->keyed = false;
	p->draws = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		struct pod_req q;
		req_of(&j->shape->role[r], &q);
		for (int k = j->live->granted[r]; k < j->shape->role[r].count; k++)
			if (!place_one(p, r, &q)) {
				p->fail_cls = p->ix ? intern(p, &q) : -1;
				p->fail_nt = p->nt;
				untent(p);
				return false;
			}
	}
	for (int i = 0; i < p->nt; i++) {
		const struct tent *t = &p->t[i];
		struct sim_gpu_ask ask = {.index = -1};
		if (t->k && t->m < CLU_GPU_MILLI) {
			ask.milli = t->m;
			ask.index = t->gpu;
		} else {
			ask.count = t->k;
			ask.mask = t->mask;
		}
		sim_launch_executor_on(p->s, job, t->role, t->node, (int)t->cpu, t->mem, &ask);
		int tag = !t->k ? 0 : t->m < CLU_GPU_MILLI ? 1 : 1 + t->k;
		p->tags[(size_t)t->node * POD_NTAGS + tag]++;
		xgrow(&p->pl, &p->cap_pl, p->npl + 1, sizeof *p->pl);
		p->pl[p->npl] = (struct pl){t->node, tag, p->pl_head[job]};
		p->pl_head[job] = p->npl++;
	}
	untent(p);
	return true;
}

/* ---- the waiting jobs ------------------------------------------------- */

/* A pass tries every waiting job in arrival order; most fail when the
 * queue is long, and two facts let the index skip them without changing
 * a decision.  Within a pass resources are only taken (launches), and a
 * job that fails has no effect (its key and draws are its own, its
 * tentative executors go).  (1) A shape that fits no node with nothing
 * tentative will fit none for the rest of the pass: every job still
 * wanting it fails.  (2) Under node-order ties a decision draws nothing,
 * so a job's outcome depends only on the cluster, the tags and what it
 * wants: after one fails, every job wanting the same executors fails
 * until the next launch.  (3) A job wanting more executors of a shape
 * than the nodes have room for fails (seq_may_fit), under any tie rule.
 * So the waiting jobs are kept by what they want (a seq: the shapes and
 * counts, role by role) and a pass visits, in arrival order, only the
 * jobs of the seqs not ruled out. */
struct seq {
	int n;                /* roles wanting executors; -1: the seq of jobs
				 past POD_MAX_SEQS, never ruled out */
	int *cls, *cnt;       /* by one: the class, executors wanted */
	struct pol_jobset q;  /* its waiting jobs */
	int len;              /* how many */
	int live_at;          /* its place in live, -1 */
	uint64_t hash;        /* seq_hash of cls, cnt */
	int hnext;            /* the next seq of its hash chain, -1 */
};

static uint64_t seq_hash(int n, const int *cls, const int *cnt)
{
	uint64_t h = mix(0, (uint64_t)n);
	for (int i = 0; i < n; i++)
		h = mix(h, (uint64_t)cls[i] << 32 ^ (uint64_t)cnt[i]);
	return h;
}

/* A seq for n classes: an emptied one again, or a new one. */
static int seq_new(struct pods *p, int n)
{
	struct seq *q;
	int at;
	if (p->nspare) {
		at = p->spare[--p->nspare];
		q = p->seqs[at];
		free(q->cls), free(q->cnt);
	} else {
		q = xcalloc(1, sizeof *q);
		pol_jobset_init(&q->q, sim_njobs(p->s));
		xgrow(&p->seqs, &p->cap_seqs, p->nseqs + 1, sizeof *p->seqs);
		at = p->nseqs;
		p->seqs[p->nseqs++] = q;
	}
	q->n = n;
	q->cls = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *q->cls);
	q->cnt = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *q->cnt);
	q->live_at = -1;
	q->hnext = -1;
	return at;
}

/* Queue waiting job `job` in the seq of what it wants now: O(roles)
 * expected (the seqs' hash chains). */
static void seq_add(struct pods *p, int job)
{
	const struct sim_job *j = sim_job(p->s, job);
	enum { ROLES = sizeof j->shape->role / sizeof j->shape->role[0] };
	int n = 0, cls[ROLES], cnt[ROLES];
	for (int r = 0; r < j->shape->nroles; r++) {
		int want = j->shape->role[r].count - j->live->granted[r];
		if (want <= 0)
			continue;
		struct pod_req q;
		req_of(&j->shape->role[r], &q);
		cls[n] = intern(p, &q);
		cnt[n++] = want;
	}
	uint64_t h = seq_hash(n, cls, cnt);
	int *chain = &p->seq_head[h % POD_SEQ_BUCKETS], at = -1;
	pods_work.lookups++;
	for (int i = *chain; i >= 0 && at < 0; i = p->seqs[i]->hnext) {
		const struct seq *q = p->seqs[i];
		pods_work.probes++;
		if (q->hash == h && q->n == n && !memcmp(q->cls, cls, (size_t)n * sizeof *cls) &&
		    !memcmp(q->cnt, cnt, (size_t)n * sizeof *cnt))
			at = i;
	}
	if (at < 0 && (p->nspare || p->nseqs < POD_MAX_SEQS - 1)) {
		at = seq_new(p, n);
		struct seq *q = p->seqs[at];
		memcpy(q->cls, cls, (size_t)n * sizeof *cls);
		memcpy(q->cnt, cnt, (size_t)n * sizeof *cnt);
		q->hash = h;
		q->hnext = *chain;
		*chain = at;
	}
	if (at < 0) {
		if (p->overflow < 0)
			p->overflow = seq_new(p, -1);
		at = p->overflow;
	}
	struct seq *q = p->seqs[at];
	pol_jobset_return(&q->q, job);
	if (!q->len++) {
		q->live_at = p->nlive;
		p->live[p->nlive++] = at;
	}
	p->seq_of[job] = at;
}

/* Job `job` leaves its seq; a seq left empty (but the overflow) goes to
 * the spares, out of its hash chain, so that seqs are made for the
 * shapes waiting now, not the first ones ever seen. */
static void seq_remove(struct pods *p, int job)
{
	int at = p->seq_of[job];
	if (at < 0)
		return;
	p->seq_of[job] = -1;
	struct seq *q = p->seqs[at];
	pol_jobset_remove(&q->q, job);
	if (--q->len)
		return;
	int last = p->live[--p->nlive];
	p->live[q->live_at] = last;
	p->seqs[last]->live_at = q->live_at;
	q->live_at = -1;
	if (at == p->overflow)
		return;
	int *link = &p->seq_head[q->hash % POD_SEQ_BUCKETS];
	while (*link != at)
		link = &p->seqs[*link]->hnext;
	*link = q->hnext;
	p->spare[p->nspare++] = at;
}

/* (1) and (3): whether seq q may fit.  (1) none of its shapes fit no
 * node in this pass; (3) no indexed shape of it is wanted more times
 * than the nodes have room for (room_of; at the start of a job, nothing
 * tentative).  Room only shrinks within a pass, so a seq that may not
 * fit stays out of it, and checking it only when its next job comes up
 * rules out what checking it at every job did. */
static bool seq_may_fit(struct pods *p, const struct seq *q)
{
	/* the caps cost a sync of their own: worth it only where the seqs
	   are many (a shape per job), not on a few busy shapes */
	bool caps = p->nlive > POD_CAPS_SEQS;
	if (caps)
		caps_sync(p);
	for (int k = 0; k < q->n; k++)
		if (p->cls[q->cls[k]]->dead == p->pass || (caps && !caps_fit(p, &p->cls[q->cls[k]]->r)))
			return false;
	for (int k = 0; k < q->n; k++) {
		struct cls *c = p->cls[q->cls[k]];
		if (!c->gpu)
			continue;
		int64_t want = 0;
		for (int i = 0; i < q->n; i++)
			want += q->cls[i] == q->cls[k] ? q->cnt[i] : 0;
		cls_sync(p, c);
		if (c->slots < want)
			return false;
	}
	return true;
}

/* Seq `at` into the merge by its first job after pos, if any. */
static void seq_push(struct pods *p, int at, int pos)
{
	int k = pol_jobset_next(&p->seqs[at]->q, pos);
	if (k >= 0)
		pol_heap_set(&p->next, at, k);
}

/* A pass through the seqs: the waiting jobs of the seqs not ruled out,
 * in arrival order, by a merge of the seqs (a heap keyed by each one's
 * next job).  A seq is taken from the heap once per job of it tried,
 * once when ruled out for the pass, and once per launch after it was
 * ruled out until one (2): O(log seqs) each, so a pass costs O(live
 * seqs + (jobs tried + launches x seqs failed) x log seqs), where
 * checking every seq at every job tried cost O(seqs) a job. */
static void schedule_ix(struct pods *p)
{
	p->pass++;
	p->epoch++;
	pods_work.passes++;
	pol_heap_clear(&p->next);
	p->nparked = 0;
	for (int i = 0; i < p->nlive; i++)
		seq_push(p, p->live[i], -1);
	for (int at; (at = pol_heap_top(&p->next)) >= 0;) {
		struct seq *q = p->seqs[at];
		int job = (int)p->next.key[at];
		pol_heap_pop(&p->next);
		pods_work.pops++;
		if (!seq_may_fit(p, q))
			continue; /* out for the pass */
		if (q->n < 0 && !job_caps_fit(p, job)) {
			seq_push(p, at, job);
			continue;
		}
		pods_work.tries++;
		if (place_job(p, job)) {
			pol_jobset_remove(&p->q, job);
			seq_remove(p, job);
			p->epoch++;
			for (int i = 0; i < p->nparked; i++)
				seq_push(p, p->parked[i], job);
			p->nparked = 0;
			if (q->len)
				seq_push(p, at, job);
		} else {
			if (!p->fail_nt) /* (1): its seq, and any wanting the shape */
				p->cls[p->fail_cls]->dead = p->pass;
			if (q->n < 0)
				seq_push(p, at, job);
			else if (p->fail_nt && p->rank) /* (2) */
				p->parked[p->nparked++] = at;
			else if (p->fail_nt)
				seq_push(p, at, job);
		}
	}
}

/* ---- hooks ------------------------------------------------------------ */

void pods_can_ever_place(const struct scn_policy *cfg, const struct scn *sc, int group,
			 const struct sim_shape *sh, struct pol_verdict *v)
{
	static const struct pol_fit_rules rules = {.labels = true, .cores = true, .gpus = true,
						   .whole = true};
	(void)cfg;
	pol_feasible(sc, group, sh, rules, v);
}

/* The seed's node order (ties node-order): a uniform permutation by
 * Fisher-Yates from the keyed RNG, rank[node] its place.  The artifact
 * prefixes each node's name with its entry of one rand.Perm per seed and
 * its fork's selectHost keeps, among the top scores, the smallest name
 * (docs/policies/fgd-artifact.md §1-2): the same rule, a node order drawn
 * once, though not Go's stream draw for draw. */
static int *node_order(const struct sim *s, int n, int **order_out)
{
	int *order = xmalloc((size_t)(n ? n : 1) * sizeof *order);
	int *rank = xmalloc((size_t)(n ? n : 1) * sizeof *rank);
	struct rng_key key = rng_key(sim_seed(s), 0, RNG_USER, POD_RNG, POD_ORDER, 0);
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(rng_u64(key, (uint64_t)i) % (uint64_t)(i + 1));
		int t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (int i = 0; i < n; i++)
		rank[order[i]] = i;
	*order_out = order;
	return rank;
}

void *pods_init(struct sim *s, const struct scn_policy *cfg, const struct pod_rules *rules,
		const struct policy_ops *ops)
{
	struct pods *p = xcalloc(1, sizeof *p);
	const struct clu *c = sim_cluster(s);
	int nj = sim_njobs(s) ? sim_njobs(s) : 1, nn = c->n ? c->n : 1;
	p->rules = rules;
	p->s = s;
	pol_jobset_init(&p->q, sim_njobs(s));
	for (int i = 0; i < c->n; i++) {
		p->max_cpu = c->nodes[i].cores > p->max_cpu ? c->nodes[i].cores : p->max_cpu;
		int64_t g = (int64_t)c->nodes[i].gpus * CLU_GPU_MILLI;
		p->max_gpu = g > p->max_gpu ? g : p->max_gpu;
	}
	p->max_cpu = p->max_cpu ? p->max_cpu : 1;
	p->max_gpu = p->max_gpu ? p->max_gpu : 1;
	p->tags = xcalloc((size_t)nn * POD_NTAGS, sizeof *p->tags);
	p->pl_head = xmalloc((size_t)nj * sizeof *p->pl_head);
	for (int i = 0; i < nj; i++)
		p->pl_head[i] = -1;
	p->score = xmalloc((size_t)nn * sizeof *p->score);
	p->cand_gpu = xmalloc((size_t)nn * sizeof *p->cand_gpu);
	p->cand = xmalloc((size_t)nn * sizeof *p->cand);
	/* random has no `ties` (pods_no_params): its ties stay uniform */
	const char *ties = pol_param_spec(ops, "ties") ? pol_param_value(ops, cfg, "ties") : NULL;
	if (ties && strcmp(ties, "node-order") == 0)
		p->rank = node_order(s, c->n, &p->order);
	p->ix = !clu_plain_scan;
	p->seq_of = xmalloc((size_t)nj * sizeof *p->seq_of);
	for (int i = 0; i < nj; i++)
		p->seq_of[i] = -1;
	p->log_mask = 63;
	while (p->log_mask + 1 < 4 * (uint64_t)c->n)
		p->log_mask = 2 * p->log_mask + 1;
	p->log = xmalloc((p->log_mask + 1) * sizeof *p->log);
	p->clu_seen = c->changes;
	p->cls_mask = 15;
	p->cls_head = xmalloc((p->cls_mask + 1) * sizeof *p->cls_head);
	for (uint64_t b = 0; b <= p->cls_mask; b++)
		p->cls_head[b] = -1;
	for (int b = 0; b < POD_SEQ_BUCKETS; b++)
		p->seq_head[b] = -1;
	p->live = xmalloc(POD_MAX_SEQS * sizeof *p->live);
	p->spare = xmalloc(POD_MAX_SEQS * sizeof *p->spare);
	p->parked = xmalloc(POD_MAX_SEQS * sizeof *p->parked);
	p->overflow = -1;
	pol_heap_init(&p->next, POD_MAX_SEQS);
	for (int k = 0; k < NCAPS; k++)
		pol_top_init(&p->caps[k], c->n);
	p->caps_seen = p->nlog - p->log_mask - 2; /* behind the ring: all */
	/* a class holds ~28 bytes a node: 64 MiB of them at most, 32 always */
	p->max_cls = (1 << 21) / nn > 32 ? (1 << 21) / nn : 32;
	if (!p->rank) {
		p->inv = xmalloc((size_t)(nn + 1) * sizeof *p->inv);
		p->lim = xmalloc((size_t)(nn + 1) * sizeof *p->lim);
		for (int t = 1; t <= nn; t++) {
			p->inv[t] = pods_odd_inverse((uint64_t)t);
			p->lim[t] = UINT64_MAX / (uint64_t)t;
		}
	}
	if (rules->frag) /* fgd.md: the original pod list's */
		frag_of_scenario(sim_scenario(s), &p->tw);
	return p;
}

void pods_arrived(void *st, struct sim *s, int job)
{
	struct pods *p = st;
	struct pol_verdict v;
	const struct sim_job *j = sim_job(s, job);
	pods_can_ever_place(NULL, sim_scenario(s), j->group, j->shape, &v);
	if (v.why) {
		sim_reject_job(s, job, v.why);
		return;
	}
	pol_jobset_add(&p->q, job);
	if (p->ix)
		seq_add(p, job);
}

void pods_finished(void *st, struct sim *s, int job)
{
	struct pods *p = st;
	(void)s;
	pol_jobset_remove(&p->q, job);
	if (p->ix)
		seq_remove(p, job);
	for (int i = p->pl_head[job]; i >= 0; i = p->pl[i].next)
		if (p->pl[i].tag >= 0) {
			p->tags[(size_t)p->pl[i].node * POD_NTAGS + p->pl[i].tag]--;
			note(p, p->pl[i].node);
		}
	p->pl_head[job] = -1; /* its entries stay in pl, unreferenced */
}

void pods_schedule(void *st, struct sim *s)
{
	struct pods *p = st;
	(void)s;
	if (p->ix) {
		schedule_ix(p);
		return;
	}
	for (int job = pol_jobset_first(&p->q); job >= 0;) {
		int next = pol_jobset_next(&p->q, job);
		if (place_job(p, job))
			pol_jobset_remove(&p->q, job);
		job = next;
	}
}

void pods_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	struct pods *p = st;
	(void)s, (void)why;
	/* its tag leaves the node (one of the job's placements there) */
	int tag = x->gpu_milli ? 1 : x->gpus ? 1 + x->gpus : 0;
	for (int i = p->pl_head[job]; i >= 0; i = p->pl[i].next)
		if (p->pl[i].node == x->node && p->pl[i].tag == tag) {
			p->tags[(size_t)x->node * POD_NTAGS + p->pl[i].tag]--;
			p->pl[i].tag = -1;
			note(p, x->node);
			break;
		}
	pol_jobset_return(&p->q, job);
	if (p->ix) { /* it wants more than it did */
		seq_remove(p, job);
		seq_add(p, job);
	}
}

void pods_fini(void *st)
{
	struct pods *p = st;
	pol_jobset_free(&p->q);
	frag_free(&p->tw);
	free(p->tags);
	free(p->pl_head), free(p->pl);
	free(p->t);
	free(p->score), free(p->cand_gpu), free(p->cand);
	free(p->rank), free(p->order), free(p->inv), free(p->lim);
	for (int i = 0; i < p->ncls; i++) {
		if (p->cls[i]->gpu)
			pol_top_free(&p->cls[i]->top);
		free(p->cls[i]->gpu), free(p->cls[i]->room);
		free(p->cls[i]);
	}
	free(p->cls), free(p->cls_head);
	free(p->live), free(p->spare), free(p->parked);
	pol_heap_free(&p->next);
	for (int k = 0; k < NCAPS; k++)
		pol_top_free(&p->caps[k]);
	for (int i = 0; i < p->nseqs; i++) {
		pol_jobset_free(&p->seqs[i]->q);
		free(p->seqs[i]->cls), free(p->seqs[i]->cnt);
		free(p->seqs[i]);
	}
	free(p->seqs), free(p->seq_of);
	free(p->log);
	free(p);
}
