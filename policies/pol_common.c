/* pol_common.c - job queues, tentative placement, feasibility. */
#include "pol_common.h"
#include "pol_index.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "util.h"

void pol_jobset_init(struct pol_jobset *q, int njobs)
{
	pol_bits_init(&q->b, njobs);
	q->last = -1;
	q->from = 0;
}

void pol_jobset_free(struct pol_jobset *q)
{
	pol_bits_free(&q->b);
}

void pol_jobset_add(struct pol_jobset *q, int job)
{
	if (job <= q->last) {
		fprintf(stderr, "hetsim: policy queue: job %d added after job %d\n", job, q->last);
		abort();
	}
	q->last = job;
	pol_bits_put(&q->b, job, true);
}

bool pol_gpu_aware_always(const struct scn_policy *cfg)
{
	(void)cfg;
	return true;
}

void pol_jobset_return(struct pol_jobset *q, int job)
{
	if (job > q->last) {
		pol_jobset_add(q, job);
		return;
	}
	pol_bits_put(&q->b, job, true);
	if (job < q->from)
		q->from = job; /* first() searches from here again */
}

void pol_queue_init(struct pol_queue *q, int njobs)
{
	q->prev = xmalloc((size_t)(njobs ? njobs : 1) * sizeof *q->prev);
	q->next = xmalloc((size_t)(njobs ? njobs : 1) * sizeof *q->next);
	/* prev and next mean something only while queued (queued says
	 * which), but touching them now faults their pages in here, once,
	 * instead of one fault per 1024 arrivals inside the hooks */
	memset(q->prev, 0xff, (size_t)njobs * sizeof *q->prev);
	memset(q->next, 0xff, (size_t)njobs * sizeof *q->next);
	q->queued = xcalloc((size_t)njobs / 64 + 1, sizeof *q->queued);
	q->head = q->tail = -1;
	q->len = 0;
}

void pol_queue_free(struct pol_queue *q)
{
	free(q->prev);
	free(q->next);
	free(q->queued);
}

void pol_queue_push(struct pol_queue *q, int job)
{
	q->prev[job] = q->tail;
	q->next[job] = -1;
	if (q->tail >= 0)
		q->next[q->tail] = job;
	else
		q->head = job;
	q->tail = job;
	q->queued[job >> 6] |= UINT64_C(1) << (job & 63);
	q->len++;
}

void pol_queue_remove(struct pol_queue *q, int job)
{
	if (!pol_queue_has(q, job))
		return;
	int p = q->prev[job], n = q->next[job];
	if (p >= 0)
		q->next[p] = n;
	else
		q->head = n;
	if (n >= 0)
		q->prev[n] = p;
	else
		q->tail = p;
	q->queued[job >> 6] &= ~(UINT64_C(1) << (job & 63));
	q->len--;
}

void pol_tent_init(struct pol_tent *t, int nnodes)
{
	memset(t, 0, sizeof *t);
	t->cores = xcalloc((size_t)(nnodes ? nnodes : 1), sizeof *t->cores);
	t->gpus = xcalloc((size_t)(nnodes ? nnodes : 1), sizeof *t->gpus);
	t->mem_mib = xcalloc((size_t)(nnodes ? nnodes : 1), sizeof *t->mem_mib);
	t->gmilli = xcalloc((size_t)(nnodes ? nnodes : 1), sizeof *t->gmilli);
}

void pol_tent_reset(struct pol_tent *t)
{
	for (int i = 0; i < t->n; i++) {
		int node = t->e[i].node;
		t->cores[node] = t->gpus[node] = t->gmilli[node] = 0;
		t->mem_mib[node] = 0;
	}
	t->n = 0;
}

void pol_tent_add(struct pol_tent *t, int node, int role, int cores, int64_t mem, int gpus)
{
	xgrow(&t->e, &t->cap, t->n + 1, sizeof *t->e);
	t->e[t->n++] = (struct pol_tent_exec){node, role, cores, mem, gpus, 0, -1};
	t->cores[node] += cores;
	t->mem_mib[node] += mem;
	t->gpus[node] += gpus;
}

/* Node n's GPUs as they will be once the tentative executors on it are
 * launched in order (whole GPUs: the lowest-indexed idle then): each
 * GPU's milli-GPUs free into v, the idle ones returned. */
static uint64_t virt_gpus(const struct pol_tent *t, const struct clu_node *n, uint16_t *v)
{
	for (int g = 0; g < n->gpus; g++)
		v[g] = n->gpu_free_m[g];
	uint64_t idle = n->gpu_idle;
	if (!t || (!t->gpus[n->id] && !t->gmilli[n->id]))
		return idle;
	for (int i = 0; i < t->n; i++) {
		const struct pol_tent_exec *e = &t->e[i];
		if (e->node != n->id)
			continue;
		if (e->gpu_milli) {
			idle &= ~(UINT64_C(1) << e->gpu);
			v[e->gpu] = (uint16_t)(v[e->gpu] - e->gpu_milli);
			continue;
		}
		for (int k = 0; k < e->gpus && idle; k++) {
			v[__builtin_ctzll(idle)] = 0;
			idle &= idle - 1;
		}
	}
	return idle;
}

/* A pool node's milli-GPUs free once its tentative executors are
 * launched. */
static int64_t pool_left(const struct pol_tent *t, const struct clu_node *n)
{
	return n->pool_m - (t ? (int64_t)t->gpus[n->id] * CLU_GPU_MILLI + t->gmilli[n->id] : 0);
}

int pol_share_pick(const struct pol_tent *t, const struct clu_node *n, int milli)
{
	if (!n->gpus)
		return -1;
	if (n->pool)
		return pool_left(t, n) >= milli ? 0 : -1;
	uint16_t v[CLU_MAX_GPUS];
	virt_gpus(t, n, v);
	int best = -1;
	for (int g = 0; g < n->gpus; g++)
		if (v[g] >= milli && (best < 0 || v[g] < v[best]))
			best = g;
	return best;
}

void pol_whole_verdict(const struct scn_policy *cfg, const struct scn *sc, int group,
		       const struct sim_shape *sh, struct pol_verdict *v)
{
	static const struct pol_fit_rules rules = {.labels = false, .cores = true, .gpus = true,
						   .whole = true};
	(void)cfg;
	pol_feasible(sc, group, sh, rules, v);
}

void pol_proj_free(const struct clu *c, int64_t *pc, int64_t *pm, int64_t *pg)
{
	for (int i = 0; i < c->n; i++) {
		const struct clu_node *n = &c->nodes[i];
		pc[i] = n->cores_free > 0 ? n->cores_free : 0;
		pm[i] = n->mem_free;
		pg[i] = pol_gpu_milli_free(NULL, n);
	}
}

void pol_proj_job(struct sim *s, int job, int64_t sign, int64_t *pc, int64_t *pm,
		  int64_t *pg)
{
	const struct sim_job *j = sim_job(s, job);
	for (int x = 0; x < sim_job_nexecs(j); x++) {
		const struct sim_exec *e = sim_job_exec(s, j, x);
		if (!e || !e->live)
			continue;
		pc[e->node] += sign * e->cores;
		pm[e->node] += sign * e->mem_mib;
		pg[e->node] += sign * (e->gpu_milli ? e->gpu_milli : (int64_t)e->gpus * CLU_GPU_MILLI);
	}
}

bool pol_proj_pack(const struct sim *s, const struct sim_job *j, int64_t *pc, int64_t *pm,
		   int64_t *pg, const char *gpu_model, bool all)
{
	const struct clu *c = sim_cluster(s);
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int64_t cores = ro->cores ? ro->cores : CLU_MILLI;
		int64_t gm = ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI : ro->gpu_milli;
		for (int k = all ? 0 : j->live->granted[r]; k < ro->count; k++) {
			int node = -1;
			for (int i = 0; i < c->n && node < 0; i++)
				if (pc[i] >= cores && pm[i] >= ro->mem_mib && pg[i] >= gm &&
				    (!gm || !gpu_model ||
				     !strcmp(pol_gpu_model(&c->nodes[i]), gpu_model)))
					node = i;
			if (node < 0)
				return false;
			pc[node] -= cores, pm[node] -= ro->mem_mib, pg[node] -= gm;
		}
	}
	return true;
}

void pol_preempt_job(struct sim *s, int job)
{
	const struct sim_job *j = sim_job(s, job);
	for (int x = 0; x < sim_job_nexecs(j); x++) {
		struct sim_exec *e = sim_job_exec(s, j, x);
		if (e && e->live)
			sim_preempt_executor(s, e);
	}
}

const char *pol_gpu_model(const struct clu_node *n)
{
	return n->gpu_model ? n->gpu_model : "gpu";
}

struct pol_work pol_work;

bool pol_first_fit(struct pol_tent *t, const struct sim *s, const struct sim_job *j, int most)
{
	return pol_first_fit_on(t, s, j, most, NULL);
}

bool pol_first_fit_on(struct pol_tent *t, const struct sim *s, const struct sim_job *j, int most,
		      const char *gpu_model)
{
	const struct clu *c = sim_cluster(s);
	pol_tent_reset(t);
	int placed = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int cores = ro->cores ? ro->cores : CLU_MILLI, milli = ro->gpus ? 0 : ro->gpu_milli;
		for (int k = j->live->granted[r]; k < ro->count && (most < 0 || placed < most); k++) {
			int node = -1;
			for (int i = 0; i < c->n && node < 0; i++) {
				int fc, fg;
				int64_t fm;
				if (gpu_model && (ro->gpus || milli) &&
				    (!c->nodes[i].gpus || strcmp(pol_gpu_model(&c->nodes[i]), gpu_model)))
					continue;
				pol_tent_free(t, &c->nodes[i], &fc, &fm, &fg);
				if (fc >= cores && fm >= ro->mem_mib && fg >= ro->gpus &&
				    (!milli || pol_share_pick(t, &c->nodes[i], milli) >= 0))
					node = i;
			}
			if (node < 0)
				return false;
			if (milli)
				pol_tent_add_share(t, &c->nodes[node], r, cores, ro->mem_mib, milli);
			else
				pol_tent_add(t, node, r, cores, ro->mem_mib, ro->gpus);
			placed++;
		}
	}
	return true;
}

int64_t pol_gpu_milli_free(const struct pol_tent *t, const struct clu_node *n)
{
	if (n->pool)
		return pool_left(t, n);
	uint16_t v[CLU_MAX_GPUS];
	virt_gpus(t, n, v);
	int64_t sum = 0;
	for (int g = 0; g < n->gpus; g++)
		sum += v[g];
	return sum;
}

int pol_tent_add_share(struct pol_tent *t, const struct clu_node *n, int role, int cores,
		       int64_t mem, int milli)
{
	uint16_t v[CLU_MAX_GPUS];
	uint64_t idle = n->gpus && !n->pool ? virt_gpus(t, n, v) : 0;
	int g = pol_share_pick(t, n, milli);
	if (g < 0) {
		fprintf(stderr, "hetsim: a share of %d milli-GPUs placed on node %s, which holds "
			"none\n", milli, n->name);
		abort();
	}
	xgrow(&t->e, &t->cap, t->n + 1, sizeof *t->e);
	t->e[t->n++] = (struct pol_tent_exec){n->id, role, cores, mem, 0, milli, g};
	t->cores[n->id] += cores;
	t->mem_mib[n->id] += mem;
	t->gpus[n->id] += (int)((idle >> g) & 1); /* an idle GPU is idle no more */
	t->gmilli[n->id] += milli;
	return g;
}

void pol_tent_free(const struct pol_tent *t, const struct clu_node *n, int *cores,
		   int64_t *mem, int *gpus)
{
	*cores = pol_clamp_cores(n->cores_free - t->cores[n->id]);
	*mem = n->mem_free - t->mem_mib[n->id];
	*gpus = n->pool ? (int)(pool_left(t, n) / CLU_GPU_MILLI) : n->gpus_free - t->gpus[n->id];
}

void pol_tent_launch(struct pol_tent *t, struct sim *s, int job)
{
	for (int i = 0; i < t->n; i++) {
		const struct pol_tent_exec *e = &t->e[i];
		struct sim_gpu_ask g = {.count = e->gpus, .milli = e->gpu_milli, .index = e->gpu};
		sim_launch_executor_on(s, job, e->role, e->node, e->cores, e->mem_mib, &g);
	}
	pol_tent_reset(t);
}

void pol_tent_fini(struct pol_tent *t)
{
	free(t->e);
	free(t->cores);
	free(t->gpus);
	free(t->gmilli);
	free(t->mem_mib);
	memset(t, 0, sizeof *t);
}

const char *pol_fmt_mib(int64_t mib, char *buf, size_t len)
{
	if (mib >= 1024 && mib % 1024 == 0)
		snprintf(buf, len, "%" PRId64 " GiB", mib / 1024);
	else
		snprintf(buf, len, "%" PRId64 " MiB", mib);
	return buf;
}

const char *pol_fmt_cores(int64_t milli, char *buf, size_t len)
{
	if (milli % CLU_MILLI == 0) {
		snprintf(buf, len, "%" PRId64, milli / CLU_MILLI);
		return buf;
	}
	int n = snprintf(buf, len, "%" PRId64 ".%03d", milli / CLU_MILLI,
			 (int)(milli % CLU_MILLI));
	while (n > 0 && (size_t)n < len && buf[n - 1] == '0') /* 0.250 -> 0.25 */
		buf[--n] = 0;
	return buf;
}

/* Whether node group ng may host an executor of role ro under r. */
static bool eligible(const struct scn_node_group *ng, const struct sim_role *ro,
		     struct pol_fit_rules r)
{
	return !r.labels || (ng->labels & ro->require) == ro->require;
}

/* The label of ro->require that no node carries together with the ones
 * before it (label order), as a reason code; ro's labels are carried by
 * no node together. */
static int missing_label(const struct scn *sc, const struct sim_role *ro)
{
	uint64_t have = 0;
	for (int k = 0; k < SCN_MAX_LABELS; k++) {
		uint64_t bit = UINT64_C(1) << k;
		if (!(ro->require & bit))
			continue;
		bool any = false;
		for (int g = 0; g < sc->ngroups && !any; g++)
			any = (sc->groups[g].labels & (have | bit)) == (have | bit);
		if (!any)
			return SIM_WHY_LABEL(k);
		have |= bit;
	}
	return SIM_WHY_LABEL(0); /* not reached: the labels are carried together */
}

/* What one executor of ro asks for, for messages: "3 cores, 4 GiB, 1 GPU". */
static void ask_text(const struct sim_role *ro, struct pol_fit_rules r, char *buf, size_t len)
{
	char m[32], c[32];
	int cores = ro->cores ? ro->cores : CLU_MILLI, gpus = r.gpus ? pol_whole_gpus(ro) : 0;
	snprintf(buf, len, "%s core%s%s, %s", pol_fmt_cores(cores, c, sizeof c),
		 cores == CLU_MILLI ? "" : "s", ro->cores ? "" : " (unset)",
		 pol_fmt_mib(ro->mem_mib, m, sizeof m));
	if (gpus)
		snprintf(buf + strlen(buf), len - strlen(buf), ", %d GPU%s", gpus,
			 gpus == 1 ? "" : "s");
}

/* Role `r` of shape sh fits by rules: SIM_WHY_NONE, or fills v. */
static int role_feasible(const struct scn *sc, const struct sim_shape *sh, int role,
			 struct pol_fit_rules r, struct pol_verdict *v)
{
	const struct sim_role *ro = &sh->role[role];
	/* "executor", "ps executor", "worker executor" */
	char rname[32];
	const char *rn = sim_role_name(sh, role);
	snprintf(rname, sizeof rname, "%s%s", strcmp(rn, "executor") ? rn : "",
		 strcmp(rn, "executor") ? " executor" : "executor");
	/* milli-cores; the scenario's node groups count whole cores */
	int cores = ro->cores ? ro->cores : CLU_MILLI, gpus = r.gpus ? pol_whole_gpus(ro) : 0;
	int64_t most_mem = 0, fit = 0; /* fit: executors the empty cluster holds */
	int most_cores = 0, most_gpus = 0, nelig = 0;
	bool mem_ok = false, mc_ok = false, all_ok = false;
	for (int g = 0; g < sc->ngroups; g++) {
		const struct scn_node_group *ng = &sc->groups[g];
		if (!eligible(ng, ro, r))
			continue;
		nelig++;
		int64_t ncores = (int64_t)ng->cores * CLU_MILLI;
		bool m = ng->mem_mib >= ro->mem_mib, c = !r.cores || ncores >= cores;
		mem_ok |= m;
		mc_ok |= m && c;
		all_ok |= m && c && ng->gpus >= gpus;
		if (ng->mem_mib > most_mem)
			most_mem = ng->mem_mib;
		if (m && ng->cores > most_cores)
			most_cores = ng->cores;
		if (m && c && ng->gpus > most_gpus)
			most_gpus = ng->gpus;
		/* a trace's executor may ask no memory: then memory bounds nothing */
		int64_t k = ro->mem_mib ? ng->mem_mib / ro->mem_mib : (int64_t)1 << 32;
		if (r.cores && ncores / cores < k)
			k = ncores / cores;
		if (gpus && ng->gpus / gpus < k)
			k = ng->gpus / gpus;
		fit += k * ng->count;
	}
	char ask[96], have[32];
	ask_text(ro, r, ask, sizeof ask);
	const char *hosts = r.labels && ro->require ? "the nodes with its labels have" :
			    "the nodes have";
	if (!nelig) {
		v->why = missing_label(sc, ro);
		snprintf(v->detail, sizeof v->detail, "%s requires label '%s', which no "
			 "node carries%s", rname, sc->label_names[v->why - SIM_WHY_LABEL0],
			 __builtin_popcountll(ro->require) > 1 ? " with the others it requires" : "");
	} else if (!mem_ok) {
		v->why = SIM_WHY_MEMORY;
		snprintf(v->detail, sizeof v->detail, "%s asks %s; %s at most %s memory",
			 rname, ask, hosts, pol_fmt_mib(most_mem, have, sizeof have));
	} else if (!mc_ok) {
		v->why = SIM_WHY_CORES;
		snprintf(v->detail, sizeof v->detail, "%s asks %s; %s at most %d cores "
			 "with that memory", rname, ask, hosts, most_cores);
	} else if (!all_ok) {
		v->why = SIM_WHY_GPUS;
		snprintf(v->detail, sizeof v->detail, "%s asks %s; %s at most %d GPUs "
			 "with those cores and memory", rname, ask, hosts, most_gpus);
	} else if (fit < ro->count) {
		v->why = SIM_WHY_CAPACITY;
		snprintf(v->detail, sizeof v->detail, "%d %ss of %s; the empty cluster holds %"
			 PRId64 " of them", ro->count, rname, ask, fit);
	}
	return v->why;
}

/* The roles of sh together against the nodes that may host any of
 * them: their summed demand per dimension within the summed capacity. */
static void whole_feasible(const struct scn *sc, const struct sim_shape *sh,
			   struct pol_fit_rules r, struct pol_verdict *v)
{
	int64_t want[3] = {0}, have[3] = {0}; /* cores, MiB, GPUs */
	for (int role = 0; role < sh->nroles; role++) {
		const struct sim_role *ro = &sh->role[role];
		want[0] += (int64_t)ro->count * (ro->cores ? ro->cores : CLU_MILLI);
		want[1] += (int64_t)ro->count * ro->mem_mib;
		want[2] += (int64_t)ro->count * (r.gpus ? pol_whole_gpus(ro) : 0);
	}
	for (int g = 0; g < sc->ngroups; g++) {
		const struct scn_node_group *ng = &sc->groups[g];
		bool any = false;
		for (int role = 0; role < sh->nroles && !any; role++)
			any = sh->role[role].count > 0 && eligible(ng, &sh->role[role], r);
		if (!any)
			continue;
		have[0] += (int64_t)ng->count * ng->cores * CLU_MILLI;
		have[1] += (int64_t)ng->count * ng->mem_mib;
		have[2] += (int64_t)ng->count * ng->gpus;
	}
	static const char *const dim[3] = {"cores", "MiB of memory", "GPUs"};
	for (int d = 0; d < 3; d++)
		if ((d != 0 || r.cores) && want[d] > have[d]) {
			char w[32], h[32];
			v->why = SIM_WHY_CAPACITY;
			if (d == 0) {
				pol_fmt_cores(want[0], w, sizeof w);
				pol_fmt_cores(have[0], h, sizeof h);
			} else {
				snprintf(w, sizeof w, "%" PRId64, want[d]);
				snprintf(h, sizeof h, "%" PRId64, have[d]);
			}
			snprintf(v->detail, sizeof v->detail, "its executors, placed all at once, ask "
				 "%s %s; the nodes that may host them have %s", w, dim[d], h);
			return;
		}
}

void pol_feasible(const struct scn *sc, int group, const struct sim_shape *sh,
		  struct pol_fit_rules r, struct pol_verdict *v)
{
	(void)group; /* the shape says all it needs */
	v->why = SIM_WHY_NONE;
	v->detail[0] = '\0';
	for (int role = 0; role < sh->nroles; role++)
		if (sh->role[role].count > 0 && role_feasible(sc, sh, role, r, v))
			return;
	if (r.whole && sh->nroles > 1)
		whole_feasible(sc, sh, r, v);
}

void pol_fits_init(struct pol_fits *f, const struct sim *s, pol_verdict_fn *fn,
		   const struct scn_policy *cfg)
{
	int n = sim_nshapes(s);
	*f = (struct pol_fits){.by_shape = xcalloc((size_t)(n ? n : 1), 1), .fn = fn, .cfg = cfg};
}

void pol_fits_free(struct pol_fits *f)
{
	free(f->by_shape);
	f->by_shape = NULL;
}

int pol_fits_arrived(struct pol_fits *f, const struct sim *s, const struct sim_job *j)
{
	uint8_t *v = &f->by_shape[j->shape->id];
	if (!*v) {
		struct pol_verdict pv;
		f->fn(f->cfg, sim_scenario(s), j->group, j->shape, &pv);
		*v = (uint8_t)(1 + pv.why);
	}
	return *v - 1;
}
