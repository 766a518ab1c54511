/* pods.c - the engine of the FGD study's policies (pods.h).
 *
 * Cost per decision: O(nodes x GPUs) to view and score every node, the
 * score's own cost aside (fgd's is O(GPUs x shapes x GPUs) a node); a
 * waiting job is tried again at every decision (docs/policies/fgd.md).
 */
#include "pods.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frag.h"
#include "pol_common.h"
#include "rng.h"
#include "sim.h"
#include "util.h"

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
	struct rng_key key;   /* the decision's */
	uint64_t draws;
	int64_t *score; int *cand_gpu; int *cand; /* by candidate */
	int *rank;            /* by node: its place in the seed's node order
				 (ties node-order), NULL: ties uniform */
};

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

uint64_t pods_draw(struct pods *p, uint64_t n)
{
	return n ? rng_u64(p->key, p->draws++) % n : 0;
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

/* ---- the decision ------------------------------------------------------ */

/* Place one executor of role r of job `job` tentatively: the best node
 * (ties by the `ties` rule; random's a uniform draw, every node scoring
 * alike); false if none is feasible. */
static bool place_one(struct pods *p, int job, int role, const struct pod_req *r)
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
		if (r->k == 1 && r->m < CLU_GPU_MILLI && gpu < 0) {
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
	int node = p->cand[pick];
	view(p, node, &v);
	struct tent t = {.node = node, .role = role, .cpu = r->cpu, .mem = r->mem, .k = r->k,
			 .m = r->m, .gpu = -1};
	if (r->k == 1 && r->m < CLU_GPU_MILLI) {
		t.gpu = p->cand_gpu[pick];
	} else {
		for (int g = 0, got = 0; g < v.g && got < r->k; g++) /* lowest-indexed free */
			if (v.free[g] == CLU_GPU_MILLI) {
				t.mask |= UINT64_C(1) << g;
				got++;
			}
	}
	(void)job;
	xgrow(&p->t, &p->cap_t, p->nt + 1, sizeof *p->t);
	p->t[p->nt++] = t;
	return true;
}

/* Every executor job still wants, or none. */
static bool place_job(struct pods *p, int job)
{
	const struct sim_job *j = sim_job(p->s, job);
	p->nt = 0;
	p->key = rng_key(sim_seed(p->s), 0, RNG_USER, POD_RNG, (uint32_t)job,
			 (uint32_t)j->live->execs_live);
	p->draws = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		struct pod_req q;
		req_of(&j->shape->role[r], &q);
		for (int k = j->live->granted[r]; k < j->shape->role[r].count; k++)
			if (!place_one(p, job, r, &q))
				return false;
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
	p->nt = 0;
	return true;
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
static int *node_order(const struct sim *s, int n)
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
	free(order);
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
		p->rank = node_order(s, c->n);
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
}

void pods_finished(void *st, struct sim *s, int job)
{
	struct pods *p = st;
	(void)s;
	pol_jobset_remove(&p->q, job);
	for (int i = p->pl_head[job]; i >= 0; i = p->pl[i].next)
		if (p->pl[i].tag >= 0)
			p->tags[(size_t)p->pl[i].node * POD_NTAGS + p->pl[i].tag]--;
	p->pl_head[job] = -1; /* its entries stay in pl, unreferenced */
}

void pods_schedule(void *st, struct sim *s)
{
	struct pods *p = st;
	(void)s;
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
			break;
		}
	pol_jobset_return(&p->q, job);
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
	free(p->rank);
	free(p);
}
