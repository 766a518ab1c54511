/* yarn.c - Spark on YARN under the CapacityScheduler (spark-semantics.md
 * §3, §7(b)): one FIFO leaf queue, the DefaultResourceCalculator.
 *
 *   Containers.  An executor's container is its memory plus Spark's
 *   overhead, max(384 MiB, 10 %), rounded up to a multiple of the minimum
 *   allocation (1024 MiB); a container above the maximum allocation
 *   (8192 MiB, 4 vcores) makes the application fail at submission.
 *   Executor cores default to 1 (spark.executor.cores on YARN).
 *   DefaultResourceCalculator: only memory is compared, so vcores
 *   oversubscribe and tasks on an oversubscribed node share its cores.
 *   GPUs are not a resource type here (no yarn.io/gpu): GPU-blind.
 *
 *   Application masters.  Every application first gets an AM container
 *   (client mode: spark.yarn.am.memory 512 MiB + 384 overhead -> 1024 MiB,
 *   1 vcore) and asks for executors once its AM is up.  A Spark-on-Angel
 *   job is two YARN applications: the Spark one and the Angel PS one with
 *   its own master (spark.angel.master.memory 2 GiB); its parameter
 *   servers are started as a gang.  Applications become active in arrival
 *   order while the AMs of active applications use at most
 *   maximum-am-resource-percent (0.1) of the cluster's memory; the first
 *   application is always let in.
 *
 *   Order and placement.  Active applications are served in arrival
 *   order; one that cannot get a container now does not block the next.
 *   Containers go to nodes in heartbeat order: a round-robin pointer over
 *   the nodes, the first with enough free memory.  No reservations, no
 *   labels (a policy that ignores labels says so).
 *
 * Cost: a container goes to the winner of the nodes from the pointer on
 * (else before it) in a tournament tree per container size whose key is
 * 0 where it fits (pol_index.h): O(log nodes), plus O(sizes × log nodes)
 * per node whose free or tentative memory changed.  Only applications
 * whose turn can do something get one, found in O(log jobs) each:
 * neither those waiting for their AMs to come up nor those holding all
 * their containers are looked at; nor are those not yet let in, beyond
 * the first.  With clu_plain_scan, every active application gets a turn
 * and each container scans the nodes round from the pointer: O(active
 * applications + nodes per container) per decision.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "models.h"
#include "pol_common.h"
#include "pol_index.h"
#include "sim.h"
#include "util.h"

enum {
	SPARK_AM_MIB = 512,       /* spark.yarn.am.memory (client mode) */
	ANGEL_AM_MIB = 2048,      /* spark.angel.master.memory */
};

/* The scheduler's configuration: the policy's switches (yarn_params). */
struct yconf {
	int64_t min_mib;          /* yarn.scheduler.minimum-allocation-mb */
	int64_t max_mib;          /* yarn.scheduler.maximum-allocation-mb */
	int max_vcores;           /* yarn.scheduler.maximum-allocation-vcores */
	double am_percent;        /* yarn.scheduler.capacity.maximum-am-resource-percent */
	bool drc;                 /* gpu_aware: GPUs the yarn.io/gpu resource and the
				     DominantResourceCalculator (vcores, memory,
				     GPUs all fit) */
};

extern const struct policy_ops pol_yarn;

static struct yconf conf_of(const struct scn_policy *cfg)
{
	return (struct yconf){
		.min_mib = (int64_t)pol_param_num(&pol_yarn, cfg, "min_allocation_mb"),
		.max_mib = (int64_t)pol_param_num(&pol_yarn, cfg, "max_allocation_mb"),
		.max_vcores = (int)pol_param_num(&pol_yarn, cfg, "max_allocation_vcores"),
		.am_percent = pol_param_num(&pol_yarn, cfg, "max_am_resource_percent"),
		.drc = pol_param_bool(&pol_yarn, cfg, "gpu_aware")};
}

static bool yarn_gpu_aware(const struct scn_policy *cfg)
{
	return pol_param_bool(&pol_yarn, cfg, "gpu_aware");
}

struct yarn_app {
	bool active;              /* its AMs count against the AM limit */
	int ams;                  /* AM containers it needs (1, or 2 for angel) */
	int relaunch;             /* which AM (0 Spark's, 1 Angel's master) to
				     launch again after a loss; -1: the next */
	int64_t am_mib;           /* their memory, total */
};

struct yarn {
	struct yconf k;            /* its switches */
	int64_t *held_mib;        /* per node: memory its NodeManager does not
				     offer (node - yarn.nodemanager.resource.memory-mb) */
	int *held_cores;          /* per node: cores - .cpu-vcores (< 0: more
				     vcores than cores) */
	struct pol_jobset q;       /* applications not finished, arrival order */
	struct yarn_app *app;     /* by job id */
	struct pol_fits fits;     /* by job group: what submission finds
				     (submission_verdict) */
	int64_t am_limit_mib, am_used_mib; /* the AM limit and what active AMs hold */
	int am_limit_vcores, am_used_vcores; /* the same in vcores (the DRC checks them) */
	int nactive;
	struct pol_jobset pend[2]; /* applications not yet active, by AM class
				     (0: Spark's AM alone, 1: with Angel's
				     master), arrival order: the first of a
				     class is the one of its size to try */
	int next_node;            /* heartbeat pointer */
	struct pol_tent t;
	bool indexed;             /* false with clu_plain_scan: scan every
				     node and every active application */
	struct pol_ix ix;         /* per container size: the nodes with that
				     much memory free (key 0, yarn_key) */
	struct pol_tree asking;   /* by job id: active applications that may
				     get a container now (key 0) */
	struct pol_queue parked;  /* active applications whose AMs are all
				     launched but not all up, in the order
				     their last AM was launched */
};

/* 0 where a container of sh->mem_mib fits (memory only), else INFINITY:
 * the winner of a range of nodes is the first one in it with room. */
/* Whether a container fits node n's free amounts, as its NodeManager
 * offers them: memory only (the DefaultResourceCalculator), or every
 * dimension (gpu_aware's DRC). */
static bool fits(const struct yarn *y, const struct clu_node *n, int fc, int64_t fm, int fg,
		 const struct pol_shape *sh)
{
	fm -= y->held_mib[n->id];
	if (y->k.drc)
		return fc - y->held_cores[n->id] >= sh->cores && fm >= sh->mem_mib && fg >= sh->gpus;
	return fm >= sh->mem_mib;
}

static double yarn_key(const void *ctx, const struct clu_node *n, int fc, int64_t fm, int fg,
		       const struct pol_shape *sh)
{
	return fits(ctx, n, fc, fm, fg, sh) ? 0 : INFINITY;
}

/* What the NodeManagers of node group g offer: memory and vcores. */
static int64_t nm_mib(const struct scn_node_group *g)
{
	return g->nm_mem_mib ? g->nm_mem_mib : g->mem_mib;
}

static int nm_vcores(const struct scn_node_group *g)
{
	return g->nm_vcores ? g->nm_vcores : g->cores;
}

/* Memory of the container for `mem` MiB of JVM heap (with Spark's
 * overhead when `overhead`), normalised up to the minimum allocation. */
static int64_t container_mib(const struct yconf *k, int64_t mem, bool overhead)
{
	int64_t c = mem;
	if (overhead)
		c += mem / 10 > 384 ? (mem + 9) / 10 : 384;
	return (c + k->min_mib - 1) / k->min_mib * k->min_mib;
}

/* Executor container of role r: mnist_spark's executors all have the
 * size of the larger role (one spark.executor.memory per application). */
static void exec_shape_of(const struct yconf *k, const struct sim_shape *sh, int type, int r,
			  int *cores, int64_t *mib, int *gpus)
{
	int c = sh->role[r].cores, g = sh->role[r].gpus;
	int64_t m = sh->role[r].mem_mib;
	if (type == JM_MNIST)
		for (int q = 0; q < sh->nroles; q++) {
			if (sh->role[q].cores > c)
				c = sh->role[q].cores;
			if (sh->role[q].mem_mib > m)
				m = sh->role[q].mem_mib;
			if (sh->role[q].gpus > g)
				g = sh->role[q].gpus; /* one resource profile: the PS's too */
		}
	*cores = c ? c : 1;
	*gpus = k->drc ? g : 0;
	/* Angel's PS containers hold their configured memory as is */
	*mib = container_mib(k, m, !(type == JM_ANGEL && r == 1));
}

static void exec_shape(const struct yconf *k, const struct sim_job *j, int r, int *cores,
		       int64_t *mib, int *gpus)
{
	exec_shape_of(k, j->shape, j->type, r, cores, mib, gpus);
}

/* AM containers of a job of this type: their memory, total. */
static int64_t am_mib_of(const struct yconf *k, int type)
{
	return container_mib(k, SPARK_AM_MIB, true) +
	       (type == JM_ANGEL ? container_mib(k, ANGEL_AM_MIB, false) : 0);
}

/* Whether a job of group `group` (shape sh) fits the empty cluster
 * under the memory-only calculator: every container under the maximum
 * allocation and on some node; a TFoS job needs all its executors up at
 * once and an Angel job its parameter servers (a gang), so their counts
 * must fit the cluster's memory too (AM containers aside).  The AM
 * containers are checked only `with_am`: an application whose executor
 * container is over the maximum allocation or larger than every node is
 * refused at submission (arrival, below), one whose AM fits no node
 * waits for ever. */
static void verdict(const struct yconf *k, const struct scn *sc, int group,
		    const struct sim_shape *sh, bool with_am, struct pol_verdict *v)
{
	int type = sc->jobs[group].type;
	int64_t biggest = 0;
	char a[32], b[32], st[32];
	v->why = SIM_WHY_NONE;
	v->detail[0] = '\0';
	for (int g = 0; g < sc->ngroups; g++) /* O(node groups) */
		if (nm_mib(&sc->groups[g]) > biggest)
			biggest = nm_mib(&sc->groups[g]);
	for (int r = 0; r < sh->nroles; r++) {
		int cores, gpus;
		int64_t mib;
		exec_shape_of(k, sh, type, r, &cores, &mib, &gpus);
		const char *rn = jm_role_name(type, r);
		pol_fmt_mib(mib, a, sizeof a);
		if (mib > k->max_mib) {
			v->why = SIM_WHY_MAX_ALLOC;
			snprintf(v->detail, sizeof v->detail, "%s container of %s (memory and overhead, "
				 "in %s steps) is over yarn.scheduler.maximum-allocation-mb %" PRId64,
				 rn, a, pol_fmt_mib(k->min_mib, st, sizeof st), k->max_mib);
			return;
		}
		if (cores > k->max_vcores) { /* the RM validates every request's vcores,
						whatever its calculator */
			v->why = SIM_WHY_MAX_VCORES;
			snprintf(v->detail, sizeof v->detail, "%s container of %d vcores is over "
				 "yarn.scheduler.maximum-allocation-vcores %d", rn, cores, k->max_vcores);
			return;
		}
		if (mib > biggest) {
			v->why = SIM_WHY_MEMORY;
			snprintf(v->detail, sizeof v->detail, "%s container of %s; the nodes have at "
				 "most %s", rn, a, pol_fmt_mib(biggest, b, sizeof b));
			return;
		}
		if (k->drc) { /* the DRC fits every dimension on one node */
			bool one = false;
			int most_gpus = 0;
			for (int g = 0; g < sc->ngroups; g++) {
				const struct scn_node_group *ng = &sc->groups[g];
				one |= nm_mib(ng) >= mib && nm_vcores(ng) >= cores && ng->gpus >= gpus;
				if (ng->gpus > most_gpus)
					most_gpus = ng->gpus;
			}
			if (!one) {
				v->why = most_gpus < gpus ? SIM_WHY_GPUS : SIM_WHY_CORES;
				snprintf(v->detail, sizeof v->detail, "%s container of %d vcores, %s and "
					 "%d GPUs fits no node (DominantResourceCalculator)", rn, cores,
					 a, gpus);
				return;
			}
		}
		if (!(type == JM_MNIST || (type == JM_ANGEL && r == 1)))
			continue;
		int64_t holds = 0;
		for (int g = 0; g < sc->ngroups; g++) {
			const struct scn_node_group *ng = &sc->groups[g];
			int64_t per = nm_mib(ng) / mib;
			if (k->drc && nm_vcores(ng) / cores < per)
				per = nm_vcores(ng) / cores;
			if (k->drc && gpus && ng->gpus / gpus < per)
				per = ng->gpus / gpus;
			holds += per * ng->count;
		}
		int want = type == JM_MNIST ? sh->role[0].count + sh->role[1].count
						 : sh->role[r].count;
		if (holds < want) {
			v->why = SIM_WHY_CAPACITY;
			snprintf(v->detail, sizeof v->detail, "%d %s containers of %s needed at once; "
				 "the empty cluster holds %" PRId64, want,
				 type == JM_MNIST ? "executor" : rn, a, holds);
			return;
		}
	}
	int64_t am = type == JM_ANGEL ? container_mib(k, ANGEL_AM_MIB, false)
				      : container_mib(k, SPARK_AM_MIB, true); /* the larger */
	if (with_am && am > biggest) { /* after the executors: what submission finds first */
		v->why = SIM_WHY_MEMORY;
		snprintf(v->detail, sizeof v->detail, "its application master's container of %s "
			 "fits no node (at most %s)", pol_fmt_mib(am, a, sizeof a),
			 pol_fmt_mib(biggest, b, sizeof b));
	}
}

static void yarn_can_ever_place(const struct scn_policy *cfg, const struct scn *sc, int group,
				const struct sim_shape *sh, struct pol_verdict *v)
{
	struct yconf k = conf_of(cfg);
	verdict(&k, sc, group, sh, true, v);
}

/* What the ResourceManager finds at submission: the executor containers
 * only (arrival fails a job over a maximum allocation, and rejects one
 * larger than every node). */
static void submission_verdict(const struct scn_policy *cfg, const struct scn *sc, int group,
			       const struct sim_shape *sh, struct pol_verdict *v)
{
	struct yconf k = conf_of(cfg);
	verdict(&k, sc, group, sh, false, v);
}

/* The queue's AM limit: maximum-am-resource-percent of what the cluster
 * offers, rounded up to the minimum allocation (AbstractLeafQueue.
 * getAMResourceLimitPerPartition: Resources.multiplyAndNormalizeUp with
 * the minimum allocation as step; vcores in steps of
 * minimum-allocation-vcores, 1). */
static void am_limits(struct yarn *y, int64_t offered_mib, int64_t offered_vcores)
{
	double m = ceil(y->k.am_percent * (double)offered_mib);
	y->am_limit_mib = ((int64_t)m + y->k.min_mib - 1) / y->k.min_mib * y->k.min_mib;
	y->am_limit_vcores = (int)ceil(y->k.am_percent * (double)offered_vcores);
}

static void *yarn_init(struct sim *s, const struct scn_policy *cfg)
{
	struct yarn *y = xcalloc(1, sizeof *y);
	pol_fits_init(&y->fits, s, submission_verdict, cfg);
	pol_jobset_init(&y->q, sim_njobs(s));
	pol_tent_init(&y->t, sim_cluster(s)->n);
	y->app = xcalloc((size_t)(sim_njobs(s) ? sim_njobs(s) : 1), sizeof *y->app);
	y->k = conf_of(cfg);
	const struct clu *c = sim_cluster(s);
	const struct scn *sc = sim_scenario(s);
	y->held_mib = xcalloc((size_t)(c->n ? c->n : 1), sizeof *y->held_mib);
	y->held_cores = xcalloc((size_t)(c->n ? c->n : 1), sizeof *y->held_cores);
	int64_t offered = 0, offered_vcores = 0; /* the cluster, as the ResourceManager has it */
	for (int i = 0; i < c->n; i++) {
		const struct scn_node_group *g = &sc->groups[c->nodes[i].group];
		y->held_mib[i] = g->mem_mib - nm_mib(g);
		y->held_cores[i] = g->cores - nm_vcores(g);
		offered += nm_mib(g);
		offered_vcores += nm_vcores(g);
	}
	am_limits(y, offered, offered_vcores);
	pol_jobset_init(&y->pend[0], sim_njobs(s));
	pol_jobset_init(&y->pend[1], sim_njobs(s));
	y->indexed = !clu_plain_scan;
	if (y->indexed) {
		pol_ix_init(&y->ix, sim_cluster(s), &y->t, yarn_key, y);
		pol_tree_init(&y->asking, sim_njobs(s));
		pol_queue_init(&y->parked, sim_njobs(s));
	}
	return y;
}

static void yarn_arrived(void *st, struct sim *s, int job)
{
	struct yarn *y = st;
	const struct sim_job *j = sim_job(s, job);
	struct yarn_app *a = &y->app[job];
	a->ams = j->type == JM_ANGEL ? 2 : 1;
	a->relaunch = -1;
	a->am_mib = am_mib_of(&y->k, j->type);
	int why = pol_fits_arrived(&y->fits, s, j);
	if (why == SIM_WHY_MAX_ALLOC || why == SIM_WHY_MAX_VCORES) {
		sim_fail_job(s, job, why); /* the application fails: now, its arrival */
		return;
	}
	if (why == SIM_WHY_MEMORY) {
		sim_reject_job(s, job, why);
		return;
	}
	pol_jobset_add(&y->q, job);
	pol_jobset_add(&y->pend[a->ams - 1], job);
}

static void yarn_finished(void *st, struct sim *s, int job)
{
	(void)s;
	struct yarn *y = st;
	if (y->app[job].active) {
		y->app[job].active = false;
		y->am_used_mib -= y->app[job].am_mib;
		y->am_used_vcores -= y->app[job].ams;
		y->nactive--;
	}
	pol_jobset_remove(&y->pend[y->app[job].ams - 1], job); /* a TFoS job may
						time out before it is let in */
	pol_jobset_remove(&y->q, job);
	if (y->indexed) {
		pol_tree_set(&y->asking, job, INFINITY);
		pol_queue_remove(&y->parked, job);
	}
}

/* Next node in heartbeat order with `mib` free (memory-only fit),
 * counting what is tentatively placed; -1 if none.  The reference scan
 * walks the nodes from the pointer round; the index takes the winner of
 * the nodes from the pointer on, else of those before it: O(log nodes). */
static int heartbeat_fit(struct yarn *y, const struct clu *c, const struct pol_shape *want)
{
	int i = -1;
	struct pol_shape sh = y->k.drc ? *want : (struct pol_shape){0, want->mem_mib, 0};
	const struct pol_tree *t = y->indexed ? pol_ix_tree(&y->ix, &sh) : NULL;
	if (t) {
		i = pol_tree_min(t, y->next_node, c->n);
		if (i < 0)
			i = pol_tree_min(t, 0, y->next_node);
	} else {
		for (int k = 0; k < c->n && i < 0; k++) {
			int n = (y->next_node + k) % c->n, fc, fg;
			int64_t fm;
			pol_tent_free(&y->t, &c->nodes[n], &fc, &fm, &fg);
			if (fits(y, &c->nodes[n], fc, fm, fg, &sh))
				i = n;
		}
	}
	if (i >= 0)
		y->next_node = (i + 1) % c->n;
	return i;
}

/* Place (tentatively) n containers of role `role`; returns how many fit. */
static int place(struct yarn *y, const struct clu *c, int n, int role, int cores, int64_t mib,
		 int gpus)
{
	int k;
	struct pol_shape sh = {cores, mib, gpus};
	for (k = 0; k < n; k++) {
		int node = heartbeat_fit(y, c, &sh);
		if (node < 0)
			break;
		pol_tent_add(&y->t, node, role, cores, mib, gpus);
		if (y->indexed)
			pol_ix_touch(&y->ix, node);
	}
	return k;
}

/* Whether application a's AMs fit under the AM limit (fitsIn of its
 * calculator: memory, and with the DRC vcores too; one vcore per AM). */
static bool am_fits(const struct yarn *y, const struct yarn_app *a)
{
	if (y->am_used_mib + a->am_mib > y->am_limit_mib)
		return false;
	return !y->k.drc || y->am_used_vcores + a->ams <= y->am_limit_vcores;
}

/* LeafQueue.activateApplications: the pending applications in arrival
 * order, each let in if its AMs fit under the AM limit, else skipped
 * and the next one tried; with no AM in use the first is let in
 * whatever its size.  Applications of one AM class have one size, so
 * only the first of each class is tried: O(classes) per activation. */
static void activate(struct yarn *y)
{
	for (;;) {
		int best = -1;
		for (int c = 0; c < 2; c++) {
			int job = pol_jobset_first(&y->pend[c]);
			if (job >= 0 && (best < 0 || job < best) &&
			    (y->nactive == 0 || am_fits(y, &y->app[job])))
				best = job;
		}
		if (best < 0)
			return;
		struct yarn_app *a = &y->app[best];
		pol_jobset_remove(&y->pend[a->ams - 1], best);
		a->active = true;
		y->am_used_mib += a->am_mib;
		y->am_used_vcores += a->ams;
		y->nactive++;
		if (y->indexed)
			pol_tree_set(&y->asking, best, 0);
	}
}

/* One application's turn: AMs, then (its AMs up) the Angel PS gang, then
 * executors as they fit. */
static void serve(struct yarn *y, struct sim *s, int job)
{
	const struct clu *c = sim_cluster(s);
	const struct sim_job *j = sim_job(s, job);
	struct yarn_app *a = &y->app[job];
	pol_tent_reset(&y->t);
	if (j->live->ams_live < a->ams) {
		int64_t mib[2] = {container_mib(&y->k, SPARK_AM_MIB, true),
				  container_mib(&y->k, ANGEL_AM_MIB, false)};
		int which = a->relaunch >= 0 ? a->relaunch : j->live->ams_live;
		int got = place(y, c, 1, SIM_ROLE_AM, 1, mib[which], 0);
		if (got)
			a->relaunch = -1;
		pol_tent_launch(&y->t, s, job);
		if (got && j->live->ams_live < a->ams)
			serve(y, s, job); /* the second AM of an angel job */
		return;
	}
	if (j->live->ams_ready < a->ams)
		return; /* the AM asks for containers once it is up */
	int cores, gpus;
	int64_t mib;
	if (j->type == JM_ANGEL && j->live->granted[1] < j->shape->role[1].count) {
		exec_shape(&y->k, j, 1, &cores, &mib, &gpus);
		int want = j->shape->role[1].count - j->live->granted[1];
		if (place(y, c, want, 1, cores, mib, gpus) == want)
			pol_tent_launch(&y->t, s, job);
		pol_tent_reset(&y->t);
		if (j->live->granted[1] < j->shape->role[1].count)
			return;
	}
	if (j->type == JM_MNIST) { /* one executor size, roles in launch order */
		exec_shape(&y->k, j, 0, &cores, &mib, &gpus);
		while (sim_execs_wanted(j) > 0 && place(y, c, 1, sim_next_role(j), cores, mib, gpus))
			pol_tent_launch(&y->t, s, job);
		return;
	}
	exec_shape(&y->k, j, 0, &cores, &mib, &gpus);
	int want = j->shape->role[0].count - j->live->granted[0];
	place(y, c, want, 0, cores, mib, gpus);
	pol_tent_launch(&y->t, s, job);
}

/* The reference: every active application in arrival order. */
static void schedule_scan(struct yarn *y, struct sim *s)
{
	for (int job = pol_jobset_first(&y->q); job >= 0; job = pol_jobset_next(&y->q, job)) {
		if (!y->app[job].active)
			continue; /* not let in yet */
		if (sim_cluster(s)->free_mem_mib < y->k.min_mib)
			break;
		serve(y, s, job);
	}
}

/* After its turn, an application that has all its AMs either wants
 * nothing more, ever (it leaves `asking`), or waits for them to come up
 * (parked: its turns would do nothing until then). */
static void settle(struct yarn *y, const struct sim *s, int job)
{
	const struct sim_job *j = sim_job(s, job);
	const struct yarn_app *a = &y->app[job];
	if (j->live->ams_live < a->ams)
		return; /* it still asks for an AM */
	bool wants = sim_execs_wanted(j) > 0;
	if (wants && j->live->ams_ready == a->ams)
		return; /* its AMs ask for containers */
	pol_tree_set(&y->asking, job, INFINITY);
	if (wants)
		pol_queue_push(&y->parked, job);
}

/* The same turns, given only to the applications whose turn can do
 * something: those in `asking`, in arrival order.  An AM comes up the
 * executor start-up overhead after its launch (docs/model.md), so parked
 * applications come up in the order they were parked: only the first
 * ones are looked at.  O(log jobs) per application served. */
static void schedule_indexed(struct yarn *y, struct sim *s)
{
	int njobs = sim_njobs(s), job;
	while ((job = y->parked.head) >= 0 && sim_job(s, job)->live->ams_ready == y->app[job].ams) {
		pol_queue_remove(&y->parked, job);
		pol_tree_set(&y->asking, job, 0);
	}
	for (job = pol_tree_min(&y->asking, 0, njobs); job >= 0;
	     job = pol_tree_min(&y->asking, job + 1, njobs)) {
		if (sim_cluster(s)->free_mem_mib < y->k.min_mib)
			break;
		serve(y, s, job);
		settle(y, s, job);
	}
}

static void yarn_schedule(void *st, struct sim *s)
{
	struct yarn *y = st;
	activate(y);
	if (y->indexed)
		schedule_indexed(y, s);
	else
		schedule_scan(y, s);
}

/* A container of an application was lost: its AM asks the
 * ResourceManager for a replacement (a lost AM is launched again: the
 * shortcut of a new attempt that keeps the work done, docs/policies/yarn.md). */
static void yarn_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	(void)s, (void)why;
	struct yarn *y = st;
	if (x->role == SIM_ROLE_AM) /* by its size: Spark's AM, or Angel's master */
		y->app[job].relaunch = x->mem_mib == container_mib(&y->k, SPARK_AM_MIB, true) ? 0 : 1;
	if (!y->app[job].active || !y->indexed)
		return; /* it asks at its next turn anyway */
	pol_queue_remove(&y->parked, job);
	pol_tree_set(&y->asking, job, 0);
}

static void yarn_fini(void *st)
{
	struct yarn *y = st;
	free(y->held_mib);
	free(y->held_cores);
	pol_jobset_free(&y->q);
	pol_jobset_free(&y->pend[0]);
	pol_jobset_free(&y->pend[1]);
	pol_tent_fini(&y->t);
	if (y->indexed) {
		pol_ix_free(&y->ix);
		pol_tree_free(&y->asking);
		pol_queue_free(&y->parked);
	}
	free(y->app);
	pol_fits_free(&y->fits);
	free(y);
}

static const struct pol_param yarn_params[] = {
	{.key = "min_allocation_mb", .type = POL_INT, .def = "1024", .def_num = 1024, .lo = 1,
	 .hi = 1048576, .unit = "MiB",
	 .help = "yarn.scheduler.minimum-allocation-mb: containers are rounded up to its multiples"},
	{.key = "max_allocation_mb", .type = POL_INT, .def = "8192", .def_num = 8192, .lo = 1,
	 .hi = 1073741824, .unit = "MiB",
	 .help = "yarn.scheduler.maximum-allocation-mb: a larger container fails its application "
	 "at submission"},
	{.key = "max_allocation_vcores", .type = POL_INT, .def = "4", .def_num = 4, .lo = 1,
	 .hi = 1048576, .unit = "vcores",
	 .help = "yarn.scheduler.maximum-allocation-vcores: a container of more vcores fails its "
	 "application at submission (every calculator)"},
	{.key = "gpu_aware", .type = POL_BOOL, .def = "false",
	 .help = "YARN >= 3.1: GPUs the yarn.io/gpu resource, DominantResourceCalculator, isolated"},
	{.key = "max_am_resource_percent", .type = POL_NUM, .def = "0.1", .def_num = 0.1, .lo = 0,
	 .hi = 1, .help = "yarn.scheduler.capacity.maximum-am-resource-percent: the share of "
	 "the cluster's memory AMs may hold"},
	{.key = NULL},
};

const struct policy_ops pol_yarn = {
	.name = "yarn",
	.summary = "YARN CapacityScheduler: one FIFO queue, memory-only calculator, AM per app",
	.params = yarn_params,
	.uses_labels = false,
	.gpu_aware = yarn_gpu_aware,
	.init = yarn_init,
	.job_arrived = yarn_arrived,
	.job_finished = yarn_finished,
	.exec_lost = yarn_exec_lost,
	.schedule = yarn_schedule,
	.fini = yarn_fini,
	.can_ever_place = yarn_can_ever_place,
};
