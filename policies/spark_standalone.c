/* spark_standalone.c - Spark's standalone Master (spark-semantics.md §2,
 * §7(a); Master.scala startExecutorsOnWorkers / scheduleExecutorsOnWorkers).
 *
 * Applications in arrival order, with no head-of-line blocking: each app
 * that still wants cores gets what the workers can give, then the next.
 * An app wants cores until it holds spark.cores.max (unlimited by
 * default: the first app takes every free core).  For each app:
 *
 *   usable workers: free memory >= executor memory and free cores >=
 *     executor cores (1 if unset), sorted by free cores, most first;
 *     the Master sorts its HashSet of workers by free cores, ascending
 *     and stable, and reverses the result, so workers with equal free
 *     cores come in reverse of the set's iteration order.  That order
 *     is fixed for the Master's life: here a permutation of the
 *     workers drawn once per replication from the keyed RNG
 *     (hash_order), ties taken last-of-it first;
 *   spread out (default): one unit per worker per round-robin pass; a
 *     unit is one executor when executor_cores is set, else one core of
 *     the single executor the app gets on that worker in this pass;
 *     not spread out: fill each worker before the next.
 *
 * GPU-blind by default: executors get no GPUs whatever the job asks; a
 * TF node may still find an idle GPU on its node (its model's probes).
 * With gpu_aware (Spark >= 3.0's resource scheduling, SPARK-27371:
 * spark.worker.resource.gpu.amount, spark.executor.resource.gpu.amount),
 * GPUs are a worker resource: a worker is usable only with the
 * executor's GPUs free, and each executor is granted them; one resource
 * profile per application, so every executor of a TFoS job, its PS
 * included, asks for the GPUs of its largest role.  Labels are ignored.
 * mnist_spark as TFoS users submit it: executors sized for the larger
 * role, spark.cores.max = cluster_size × executor cores, so the app gets
 * exactly cluster_size executors (the job makes the first one up its PS).
 * Spark-on-Angel has no standalone mode: angel jobs are unplaceable.
 *
 * Cost: the usable workers come in order from a tournament tree per
 * executor shape keyed by free cores (pol_index.h), and only as many as
 * the assignment can reach are taken (usable_indexed): O(workers taken ×
 * log nodes) per app, plus O(shapes × log nodes) per node whose free
 * amounts changed.  An app without cores_max reaches every usable worker,
 * as the sort did.  Every app wanting cores is served at each decision;
 * nothing is done when the cluster has no free core, and an app whose
 * executor shape found no usable worker earlier in the same pass is
 * passed over in O(1) (nothing frees up within a pass): O(waiting apps)
 * array reads per decision beside the apps served, k = the distinct
 * shapes asked.  Past the shapes the index keeps trees for, a scan and
 * a sort, O(nodes log nodes), but an app that found no usable worker
 * reads only the nodes changed since (usable_changed), O(changes
 * since).  With clu_plain_scan, a scan and a sort: O(nodes log nodes)
 * per app, every app.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pol_common.h"
#include "pol_index.h"
#include "registry.h"
#include "rng.h"
#include "sim.h"
#include "util.h"

#define SA_MAX_SHAPES 64

struct standalone {
	struct pol_jobset q;   /* apps that may still want cores */
	bool spread_out;
	bool gpu_aware;       /* GPUs as a worker resource (Spark >= 3.0) */
	int default_cores;    /* spark.deploy.defaultCores; 0: unlimited */
	bool indexed;         /* false with clu_plain_scan: scan every node */
	struct pol_ix ix;     /* per (executor cores, memory): usable workers,
				 keyed by sa_key */
	int *hash_pos;        /* by node: its place in the Master's HashSet
				 iteration order (a keyed permutation) */
	struct sa_rank { int64_t key; int node; } *ranks; /* scratch: plain scan */
	int *usable;          /* scratch: node ids */
	int *acores, *aexecs; /* scratch: assigned in this pass, by usable pos */
	int cap;
	/* indexed: a pass skips an app whose executor shape already found no
	   usable worker in it (nothing frees up within a pass, so it would
	   find none either): the shapes asked, and by job its shape's
	   number (-1: not yet looked up, -2: past SA_MAX_SHAPES) */
	struct pol_shape shp[SA_MAX_SHAPES];
	unsigned fail_pass[SA_MAX_SHAPES]; /* the pass a shape last found no
				 worker in */
	int nshp;
	int *sid;
	unsigned pass;
	/* indexed, an executor shape without a tree (a scan): by job, made on
	   first use, clu.changes + 1 when its shape found no usable worker,
	   0 if not known; and by node the last such look that met it */
	uint64_t *miss_at, *met;
	uint64_t looks;
};

/* Executor size and core limit of an app, as the Master sees them. */
struct app_shape {
	int exec_cores;       /* 0 = unset: one executor per worker */
	int64_t mem_mib;
	int cores_max;        /* INT_MAX = unlimited */
	int gpus;             /* GPUs per executor (gpu_aware), else 0 */
};

/* Spark counts whole cores (spark.executor.cores and spark.cores.max
 * are Ints): a request in milli-cores (a trace's) is rounded up to whole
 * ones, the kernel's units kept.  Whole cores are unchanged. */
static int whole_cores(int milli)
{
	int64_t c = ((int64_t)milli + CLU_MILLI - 1) / CLU_MILLI * CLU_MILLI;
	return c > INT_MAX ? INT_MAX : (int)c;
}

/* The Master's view of an app: its executor size, and its cores_max, or
 * spark.deploy.defaultCores when it sets none (default_cores, whole
 * cores; 0: unlimited, the Master's Int.MaxValue); cores in milli-cores,
 * whole ones. */
/* Executors of every role. */
static int all_execs(const struct sim_shape *sh)
{
	int n = 0;
	for (int r = 0; r < sh->nroles; r++)
		n += sh->role[r].count;
	return n;
}

static struct app_shape shape_of(const struct sim_shape *sh, bool gpu_aware, int default_cores)
{
	int64_t dc = (int64_t)default_cores * CLU_MILLI;
	struct app_shape a = {whole_cores(sh->role[0].cores), sh->role[0].mem_mib,
			      sh->cores_max ? (sh->cores_max == INT_MAX ? INT_MAX
								    : whole_cores(sh->cores_max))
			      : default_cores > 0 ? (dc > INT_MAX ? INT_MAX : (int)dc) : INT_MAX,
			      0};
	int c0 = sh->role[0].cores;
	if (sh->cores_max && sh->cores_max != INT_MAX && c0 > 0 && c0 % CLU_MILLI) {
		/* fractional executors (a trace's): cores_max counts them, each
		 * now of whole cores, lest the rounding leave room for fewer */
		int64_t cm = ((int64_t)sh->cores_max + c0 - 1) / c0 * a.exec_cores;
		a.cores_max = cm > INT_MAX ? INT_MAX : (int)cm;
	}
	if (gpu_aware) /* Spark's executor GPU amount is whole: a share asks one */
		a.gpus = pol_whole_gpus(&sh->role[0]);
	if (sh->one_profile) { /* the largest role's size, and cores for them all */
		int c = CLU_MILLI;
		for (int r = 0; r < sh->nroles; r++) {
			if (whole_cores(sh->role[r].cores) > c)
				c = whole_cores(sh->role[r].cores);
			if (sh->role[r].mem_mib > a.mem_mib)
				a.mem_mib = sh->role[r].mem_mib;
			if (gpu_aware && pol_whole_gpus(&sh->role[r]) > a.gpus)
				a.gpus = pol_whole_gpus(&sh->role[r]);
		}
		a.exec_cores = c;
		a.cores_max = c * all_execs(sh);
	}
	return a;
}

static struct app_shape shape(const struct standalone *p, const struct sim_job *j)
{
	return shape_of(j->shape, p->gpu_aware, p->default_cores);
}

static bool sa_gpu_aware(const struct scn_policy *cfg)
{
	return pol_param_bool(&pol_spark_standalone, cfg, "gpu_aware");
}

/* A worker's rank in the Master's order, larger first: free cores, then
 * its place in the HashSet (the reversed stable sort puts the set's last
 * worker of a tie first).  Exact in a double: cores × nodes < 2^53. */
static int64_t sa_rank(const struct standalone *p, int nnodes, int node, int fc)
{
	return (int64_t)fc * nnodes + p->hash_pos[node];
}

/* A worker with these free amounts is usable for executors of `sh`
 * (cores: at least one unit) if it has the cores and the memory; usable
 * ones come in the Master's order (sa_rank). */
static double sa_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
		     const struct pol_shape *sh)
{
	const struct standalone *p = ctx;
	if (fc < sh->cores || fm < sh->mem_mib || fg < sh->gpus)
		return INFINITY;
	return -(double)sa_rank(p, p->cap, n->id, fc);
}

/* The Master's HashSet[WorkerInfo] iterates in an order set by the
 * workers' identity hash codes: arbitrary, but fixed once they have
 * registered.  A uniform permutation of the nodes (Fisher-Yates) keyed
 * by the replication's seed alone, so every policy instance of a
 * replication sees the same one and `--replication K` reproduces it. */
#define SA_RNG_HASH_ORDER 0x4d415354u /* "MAST": RNG_USER's x coordinate */
void sa_hash_order(uint64_t seed, int n, int *pos)
{
	struct rng_key k = rng_key(seed, 0, RNG_USER, SA_RNG_HASH_ORDER, 0, 0);
	int *order = xmalloc((size_t)(n ? n : 1) * sizeof *order);
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int r = (int)(rng_u01(k, (uint64_t)i) * (i + 1));
		int t = order[i];
		order[i] = order[r];
		order[r] = t;
	}
	for (int i = 0; i < n; i++)
		pos[order[i]] = i;
	free(order);
}

static void *sa_init(struct sim *s, const struct scn_policy *cfg)
{
	struct standalone *p = xcalloc(1, sizeof *p);
	pol_jobset_init(&p->q, sim_njobs(s));
	p->spread_out = pol_param_bool(&pol_spark_standalone, cfg, "spread_out");
	p->gpu_aware = sa_gpu_aware(cfg);
	p->default_cores = (int)pol_param_num(&pol_spark_standalone, cfg, "default_cores");
	p->indexed = !clu_plain_scan;
	p->cap = sim_cluster(s)->n;
	p->hash_pos = xmalloc((size_t)(p->cap ? p->cap : 1) * sizeof *p->hash_pos);
	sa_hash_order(sim_seed(s), p->cap, p->hash_pos);
	if (p->indexed)
		pol_ix_init(&p->ix, sim_cluster(s), NULL, sa_key, p);
	/* scans happen with an index too, past POL_IX_MAX_SHAPES shapes */
	p->ranks = xmalloc((size_t)(p->cap ? p->cap : 1) * sizeof *p->ranks);
	p->usable = xmalloc((size_t)(p->cap ? p->cap : 1) * sizeof *p->usable);
	p->acores = xmalloc((size_t)(p->cap ? p->cap : 1) * sizeof *p->acores);
	p->aexecs = xmalloc((size_t)(p->cap ? p->cap : 1) * sizeof *p->aexecs);
	p->sid = xmalloc((size_t)(sim_njobs(s) ? sim_njobs(s) : 1) * sizeof *p->sid);
	for (int j = 0; j < sim_njobs(s); j++)
		p->sid[j] = -1;
	return p;
}

/* A role that a master of the job's own asks for (Angel's parameter
 * servers, which deploy on YARN or Kubernetes: spark-semantics.md §5):
 * the standalone Master runs no such master.  -1 if none. */
static int mastered_role(const struct sim_shape *sh)
{
	for (int r = 0; r < sh->nroles; r++)
		if (sh->role[r].asker > 0)
			return r;
	return -1;
}

static int shape_id(struct standalone *p, const struct pol_shape *sh);

/* What one unit of app j asks of a worker: an executor's cores (one core
 * if unset), memory and GPUs. */
static struct pol_shape unit_of(const struct app_shape *a)
{
	return (struct pol_shape){a->exec_cores ? a->exec_cores : CLU_MILLI, a->mem_mib, a->gpus, 0};
}

static void sa_arrived(void *st, struct sim *s, int job)
{
	struct standalone *p = st;
	const struct sim_job *j = sim_job(s, job);
	if (mastered_role(j->shape) >= 0) {
		sim_reject_job(s, job, SIM_WHY_JOB_TYPE);
		return;
	}
	if (p->indexed) {
		struct app_shape a = shape(p, j);
		struct pol_shape u = unit_of(&a);
		p->sid[job] = shape_id(p, &u);
	}
	pol_jobset_add(&p->q, job);
}

static void sa_finished(void *st, struct sim *s, int job)
{
	(void)s;
	pol_jobset_remove(&((struct standalone *)st)->q, job);
}

/* A job that lost an executor: the Master launches a replacement as
 * cores free up (ExecutorRunner's exit: the app's schedule again). */
static void sa_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	(void)s, (void)x, (void)why;
	pol_jobset_return(&((struct standalone *)st)->q, job);
}

/* Larger rank first (ranks are distinct). */
static int by_rank(const void *a, const void *b)
{
	int64_t x = ((const struct sa_rank *)a)->key, y = ((const struct sa_rank *)b)->key;
	return (x < y) - (x > y);
}

/* Master.scheduleExecutorsOnWorkers: may one more unit go to usable[pos]? */
static bool can_launch(const struct standalone *p, const struct clu *c, int pos,
		       const struct app_shape *a, int to_assign)
{
	const struct clu_node *n = &c->nodes[p->usable[pos]];
	int min_cores = a->exec_cores ? a->exec_cores : CLU_MILLI;
	bool one_per_worker = a->exec_cores == 0;
	if (to_assign < min_cores || n->cores_free - p->acores[pos] < min_cores)
		return false;
	bool new_exec = !one_per_worker || p->aexecs[pos] == 0;
	return !new_exec || (n->mem_free - (int64_t)p->aexecs[pos] * a->mem_mib >= a->mem_mib &&
			     n->gpus_free - p->aexecs[pos] * a->gpus >= a->gpus);
}

static void launch_assigned(struct standalone *p, struct sim *s, int job, int nusable,
			    const struct app_shape *a)
{
	for (int pos = 0; pos < nusable; pos++) {
		if (!p->acores[pos])
			continue;
		int node = p->usable[pos];
		int n = a->exec_cores ? p->acores[pos] / a->exec_cores : 1;
		int cores = a->exec_cores ? a->exec_cores : p->acores[pos];
		for (int k = 0; k < n; k++)
			sim_launch_executor(s, job, sim_next_role(sim_job(s, job)), node, cores,
					    a->mem_mib, a->gpus);
	}
}

/* Worker i into the ranks if usable for sh (its free cores summed). */
static void rank_if_usable(struct standalone *p, const struct clu *c, int i,
			   const struct pol_shape *sh, int *nusable, int64_t *free_sum)
{
	const struct clu_node *n = &c->nodes[i];
	if (n->mem_free >= sh->mem_mib && n->cores_free >= sh->cores && n->gpus_free >= sh->gpus) {
		p->ranks[(*nusable)++] = (struct sa_rank){sa_rank(p, p->cap, i, n->cores_free), i};
		*free_sum += n->cores_free;
	}
}

/* The ranked workers, in the Master's order, into usable. */
static int rank_sort(struct standalone *p, int nusable)
{
	qsort(p->ranks, (size_t)nusable, sizeof *p->ranks, by_rank);
	for (int k = 0; k < nusable; k++)
		p->usable[k] = p->ranks[k].node;
	return nusable;
}

/* The usable workers, in the Master's order: every node, then qsort.  Returns
 * how many; *free_sum receives their free cores. */
static int usable_scan(struct standalone *p, const struct clu *c, const struct pol_shape *sh,
		       int64_t *free_sum)
{
	int nusable = 0;
	*free_sum = 0;
	for (int i = 0; i < c->n; i++)
		rank_if_usable(p, c, i, sh, &nusable, free_sum);
	return rank_sort(p, nusable);
}

/* usable_scan for an app that found no usable worker at cluster change
 * `from`, the nodes changed fewer times since than there are nodes: a
 * worker unchanged since is still not usable, so the usable ones are the
 * changed ones that are, in the same order (the ranks are distinct).
 * O(changes since + usable log usable). */
static int usable_changed(struct standalone *p, const struct clu *c, const struct pol_shape *sh,
			  uint64_t from, int64_t *free_sum)
{
	int nusable = 0;
	*free_sum = 0;
	p->looks++;
	for (uint64_t q = from; q < c->changes; q++) {
		int i = clu_log_node(c, q);
		if (p->met[i] == p->looks)
			continue; /* changed more than once: looked at */
		p->met[i] = p->looks;
		rank_if_usable(p, c, i, sh, &nusable, free_sum);
	}
	return rank_sort(p, nusable);
}

/* The same list cut where the assignment cannot reach: its first pass
 * gives one unit (>= sh->cores cores) to each worker in turn, so with
 * `left` cores to assign it never goes past worker left / sh->cores,
 * unless the workers' free cores add up to less than `left`, when it may
 * take them all.  So the first workers, by the index, until both are
 * covered: O(workers taken × log nodes). */
static int usable_indexed(struct standalone *p, const struct clu *c, struct pol_tree *t,
			  const struct pol_shape *sh, int left, int64_t *free_sum)
{
	int reach = left / sh->cores, nusable = 0, i;
	*free_sum = 0;
	while ((nusable < reach || *free_sum < left) && (i = pol_tree_top(t)) >= 0) {
		p->usable[nusable++] = i;
		*free_sum += c->nodes[i].cores_free;
		pol_tree_set(t, i, INFINITY); /* taken: the next best is on top */
	}
	for (int k = 0; k < nusable; k++)
		pol_ix_rekey(&p->ix, p->usable[k]);
	return nusable;
}

/* The number of executor shape `sh` in p->shp, added if new; -2 past
 * SA_MAX_SHAPES. */
static int shape_id(struct standalone *p, const struct pol_shape *sh)
{
	for (int k = 0; k < p->nshp; k++)
		if (pol_shape_eq(&p->shp[k], sh))
			return k;
	if (p->nshp == SA_MAX_SHAPES)
		return -2;
	p->shp[p->nshp] = *sh;
	p->fail_pass[p->nshp] = 0;
	return p->nshp++;
}

/* One app's turn: Master.startExecutorsOnWorkers for it. */
static void schedule_app(struct standalone *p, struct sim *s, int job)
{
	const struct clu *c = sim_cluster(s);
	const struct sim_job *j = sim_job(s, job);
	struct app_shape a = shape(p, j);
	int min_cores = a.exec_cores ? a.exec_cores : CLU_MILLI;
	int64_t left64 = a.cores_max == INT_MAX ? INT_MAX : a.cores_max - j->live->cores_granted;
	int left = left64 < 0 ? -1 : (int)left64; /* past cores_max: wants none */
	if (left < min_cores) {
		pol_jobset_remove(&p->q, job); /* it wants more only if it loses one */
		return;
	}
	struct pol_shape sh = unit_of(&a);
	int64_t free_sum;
	struct pol_tree *t = p->indexed ? pol_ix_tree(&p->ix, &sh) : NULL;
	int nusable;
	if (t) {
		nusable = usable_indexed(p, c, t, &sh, left, &free_sum);
	} else if (!p->indexed) {
		nusable = usable_scan(p, c, &sh, &free_sum);
	} else { /* past the trees: after a miss, only the nodes changed since */
		if (!p->miss_at) {
			p->miss_at = xcalloc((size_t)sim_njobs(s), sizeof *p->miss_at);
			p->met = xcalloc((size_t)(c->n ? c->n : 1), sizeof *p->met);
		}
		uint64_t at = p->miss_at[job];
		pol_work.sa_scans++;
		if (at && clu_log_short(c, at - 1)) {
			pol_work.sa_tests += c->changes - (at - 1);
			nusable = usable_changed(p, c, &sh, at - 1, &free_sum);
		} else {
			pol_work.sa_tests += (uint64_t)c->n;
			nusable = usable_scan(p, c, &sh, &free_sum);
		}
		p->miss_at[job] = nusable ? 0 : c->changes + 1;
	}
	if (!nusable) {
		if (p->indexed && p->sid[job] >= 0)
			p->fail_pass[p->sid[job]] = p->pass;
		return;
	}
	for (int pos = 0; pos < nusable; pos++)
		p->acores[pos] = p->aexecs[pos] = 0;
	int to_assign = left < free_sum ? left : (int)free_sum;
	bool any = true;
	while (any) {
		any = false;
		for (int pos = 0; pos < nusable; pos++) {
			bool keep = true;
			while (keep && can_launch(p, c, pos, &a, to_assign)) {
				to_assign -= min_cores;
				p->acores[pos] += min_cores;
				p->aexecs[pos] = a.exec_cores ? p->aexecs[pos] + 1 : 1;
				any = true;
				if (p->spread_out)
					keep = false;
			}
		}
	}
	launch_assigned(p, s, job, nusable, &a);
}

static void sa_schedule(void *st, struct sim *s)
{
	struct standalone *p = st;
	int job = pol_jobset_first(&p->q);
	p->pass++;
	while (job >= 0 && sim_cluster(s)->free_cores > 0) {
		int next = pol_jobset_next(&p->q, job); /* schedule_app may remove job */
		int k = p->sid[job];
		/* its shape found no worker in this pass: neither would it
		   (skipping it leaves an app past its cores_max queued until a
		   later turn removes it; it launches nothing either way) */
		if (k < 0 || p->fail_pass[k] != p->pass)
			schedule_app(p, s, job);
		job = next;
	}
}

/* The Master never rejects an application: one whose executors fit no
 * worker waits for ever (the driver logs "Initial job has not accepted
 * any resources"), and the engine asks here why at the end of the run.
 * A usable worker has the executor's memory and cores (one if unset);
 * spark.cores.max below one executor's cores launches none; a TFoS job
 * needs all its cluster_size executors up at once, or it times out. */
static void sa_can_ever_place(const struct scn_policy *cfg, const struct scn *sc, int group,
			      const struct sim_shape *sh, struct pol_verdict *v)
{
	(void)group;
	v->why = SIM_WHY_NONE;
	v->detail[0] = '\0';
	int mr = mastered_role(sh);
	if (mr >= 0) {
		v->why = SIM_WHY_JOB_TYPE;
		snprintf(v->detail, sizeof v->detail, "%s has no standalone mode (its %s deploy on "
			 "YARN or Kubernetes)", sim_app_name(sh), sim_role_what(sh, mr));
		return;
	}
	struct app_shape a = shape_of(sh, sa_gpu_aware(cfg),
				      (int)pol_param_num(&pol_spark_standalone, cfg, "default_cores"));
	int min_cores = a.exec_cores ? a.exec_cores : CLU_MILLI;
	char m[32], most[32];
	pol_fmt_mib(a.mem_mib, m, sizeof m);
	if (a.cores_max < min_cores) {
		v->why = SIM_WHY_CORES;
		snprintf(v->detail, sizeof v->detail, "spark.cores.max %d is below the %d cores of "
			 "one executor: the Master launches none", a.cores_max / CLU_MILLI,
			 min_cores / CLU_MILLI);
		return;
	}
	int64_t most_mem = 0, holds = 0;
	int most_cores = 0, most_gpus = 0;
	for (int g = 0; g < sc->ngroups; g++) {
		const struct scn_node_group *ng = &sc->groups[g];
		if (ng->mem_mib > most_mem)
			most_mem = ng->mem_mib;
		if (ng->gpus > most_gpus)
			most_gpus = ng->gpus;
		if (ng->mem_mib < a.mem_mib || ng->gpus < a.gpus)
			continue;
		if (ng->cores > most_cores)
			most_cores = ng->cores;
		int64_t ncores = (int64_t)ng->cores * CLU_MILLI; /* a node group's: whole cores */
		if (ncores < min_cores)
			continue;
		int64_t k = 1; /* cores unset: one executor per worker */
		if (a.exec_cores) {
			k = a.mem_mib ? ng->mem_mib / a.mem_mib : (int64_t)1 << 32;
			if (ncores / a.exec_cores < k)
				k = ncores / a.exec_cores;
			if (a.gpus && ng->gpus / a.gpus < k)
				k = ng->gpus / a.gpus;
		}
		holds += k * ng->count;
	}
	if (most_gpus < a.gpus) {
		v->why = SIM_WHY_GPUS;
		snprintf(v->detail, sizeof v->detail, "executors of %d GPUs (gpu_aware); the workers "
			 "have at most %d", a.gpus, most_gpus);
	} else if (most_mem < a.mem_mib) {
		v->why = SIM_WHY_MEMORY;
		snprintf(v->detail, sizeof v->detail, "executors of %s; the workers have at most %s",
			 m, pol_fmt_mib(most_mem, most, sizeof most));
	} else if (!holds) {
		v->why = SIM_WHY_CORES;
		snprintf(v->detail, sizeof v->detail, "executors of %d cores and %s; the workers with "
			 "that memory have at most %d cores", min_cores / CLU_MILLI, m, most_cores);
	} else if (sh->one_profile && sh->rigid && holds < all_execs(sh)) {
		v->why = SIM_WHY_CAPACITY;
		snprintf(v->detail, sizeof v->detail, "%s needs its %d executors (%d cores, %s "
			 "each) up at once; the empty cluster holds %" PRId64, sim_app_name(sh),
			 all_execs(sh), a.exec_cores / CLU_MILLI, m, holds);
	}
}

static void sa_fini(void *st)
{
	struct standalone *p = st;
	pol_jobset_free(&p->q);
	if (p->indexed)
		pol_ix_free(&p->ix);
	free(p->hash_pos);
	free(p->ranks);
	free(p->usable);
	free(p->acores);
	free(p->aexecs);
	free(p->sid);
	free(p->miss_at);
	free(p->met);
	free(p);
}

static const struct pol_param sa_params[] = {
	{.key = "gpu_aware", .type = POL_BOOL, .def = "false",
	 .help = "Spark >= 3.0 resource scheduling: GPUs a worker resource, granted to executors"},
	{.key = "default_cores", .type = POL_INT, .def = "0", .def_num = 0, .lo = 0, .hi = 1e9,
	 .unit = "cores", .help = "spark.deploy.defaultCores: the cores_max of an app that sets "
	 "none; 0: unlimited (Int.MaxValue)"},
	{.key = "spread_out", .type = POL_BOOL, .def = "true",
	 .help = "spark.deploy.spreadOut: spread each app over workers (true) or fill workers in turn"},
	{.key = NULL},
};

const struct policy_ops pol_spark_standalone = {
	.name = "spark-standalone",
	.summary = "stock Spark Master: apps FIFO without blocking, spread out, GPU-blind",
	.params = sa_params,
	.uses_labels = false,
	.gpu_aware = sa_gpu_aware,
	.init = sa_init,
	.job_arrived = sa_arrived,
	.job_finished = sa_finished,
	.exec_lost = sa_exec_lost,
	.schedule = sa_schedule,
	.fini = sa_fini,
	.can_ever_place = sa_can_ever_place,
};
