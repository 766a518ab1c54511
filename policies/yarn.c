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
 *   servers are started as a gang.  Pending applications are let in in
 *   arrival order while their AMs fit under maximum-am-resource-percent
 *   (0.1) of the cluster's memory, rounded up to the minimum allocation;
 *   one that does not fit is skipped (LeafQueue.activateApplications);
 *   with no AM in use the first is always let in.
 *
 *   Order and placement.  Active applications are served in arrival
 *   order; one that cannot get a container now does not block the next.
 *   With nm_heartbeat (the default) containers are assigned at node
 *   heartbeats, executors taken at the AM's polls, and the first tasks
 *   wait for minRegisteredResourcesRatio (the section "allocation
 *   latency" below); with nm_heartbeat 0 at once, in round-robin order
 *   over the nodes from a pointer, the first with enough free memory.  No reservations, no
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
#include <string.h>

#include "rng.h"
#include "pol_common.h"
#include "pol_index.h"
#include "sim.h"
#include "util.h"

/* The random stream of the NodeManagers' heartbeat phases (rng.h). */
#define YARN_RNG_HEARTBEAT ((enum rng_stream)(RNG_USER + 3))

enum {
	SPARK_AM_MIB = 512,       /* spark.yarn.am.memory (client mode): the
				     master of a job that names none of its own
				     size (sim_shape.nmasters 0, or a master of
				     mem_mib 0) */
};

/* The scheduler's configuration: the policy's switches (yarn_params). */
struct yconf {
	int64_t min_mib;          /* yarn.scheduler.minimum-allocation-mb */
	int64_t max_mib;          /* yarn.scheduler.maximum-allocation-mb */
	int max_vcores;           /* yarn.scheduler.maximum-allocation-vcores */
	double am_percent;        /* yarn.scheduler.capacity.maximum-am-resource-percent */
	int64_t nm_hb_us;         /* NodeManager heartbeat interval (nm_heartbeat);
				     0: containers assigned at once */
	bool phase_zero;          /* nm_heartbeat_phase zero: every node at 0 */
	int offswitch;            /* ...per-node-heartbeat.maximum-offswitch-assignments */
	int64_t am_hb_us;         /* spark.yarn.scheduler.heartbeat.interval-ms */
	int64_t am_init_us;       /* spark.yarn.scheduler.initial-allocation.interval;
				     0: the AM takes a container when assigned */
	double min_ratio;         /* spark.scheduler.minRegisteredResourcesRatio */
	int64_t max_wait_us;      /* spark.scheduler.maxRegisteredResourcesWaitingTime */
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
		.nm_hb_us = (int64_t)pol_param_num(&pol_yarn, cfg, "nm_heartbeat"),
		.phase_zero = strcmp(pol_param_value(&pol_yarn, cfg, "nm_heartbeat_phase"), "zero") == 0,
		.offswitch = (int)pol_param_num(&pol_yarn, cfg, "max_offswitch_assignments"),
		.am_hb_us = (int64_t)pol_param_num(&pol_yarn, cfg, "heartbeat_interval"),
		.am_init_us = (int64_t)pol_param_num(&pol_yarn, cfg, "initial_allocation_interval"),
		.min_ratio = pol_param_num(&pol_yarn, cfg, "min_registered_resources_ratio"),
		.max_wait_us = (int64_t)pol_param_num(&pol_yarn, cfg,
						      "max_registered_resources_waiting_time"),
		.drc = pol_param_bool(&pol_yarn, cfg, "gpu_aware")};
}

static bool yarn_gpu_aware(const struct scn_policy *cfg)
{
	return pol_param_bool(&pol_yarn, cfg, "gpu_aware");
}

struct yarn_app {
	bool active;              /* its AMs count against the AM limit */
	int ams;                  /* AM containers it needs (its masters) */
	int cls;                  /* its AM class (yarn.cls) */
	int relaunch;             /* which AM (its master k) to launch again
				     after a loss; -1: the next */
	int64_t am_mib;           /* their memory, total */
	/* with nm_heartbeat: what the ResourceManager and the AM know */
	bool registered;          /* its AMs are up and asked (polling began) */
	int asked;                /* executor containers asked of the RM, not
				     yet assigned (initial_allocation_interval > 0) */
	int *promised;            /* nodes of executor containers assigned and
				     not yet taken by its AM; owned */
	int npromised, cap_promised;
	int64_t poll_t_us;        /* its allocator's last poll */
	int64_t poll_iv_us;       /* the sleep after it */
	int64_t next_alloc_us;    /* Spark's nextAllocationInterval */
	int64_t poll_armed_us;    /* its pending poll timer, -1 if none */
};

/* Applications whose AMs are alike: as many, as large. */
struct am_class {
	int ams;
	int64_t am_mib;           /* their memory, total */
	struct pol_jobset pend;   /* not yet active, arrival order */
};

struct yarn {
	struct yconf k;            /* its switches */
	int64_t *held_mib;        /* per node: memory its NodeManager does not
				     offer (node - yarn.nodemanager.resource.memory-mb) */
	int *held_cores;          /* per node: cores - .cpu-vcores, milli-cores
				     (< 0: more vcores than cores) */
	struct pol_jobset q;       /* applications not finished, arrival order */
	struct yarn_app *app;     /* by job id */
	struct pol_fits fits;     /* by job group: what submission finds
				     (submission_verdict) */
	int64_t am_limit_mib, am_used_mib; /* the AM limit and what active AMs hold */
	int am_limit_vcores, am_used_vcores; /* the same in vcores (the DRC checks them) */
	int nactive;
	struct am_class *cls;     /* applications not yet active, by AM class
				     (their AMs' count and memory: one Spark AM,
				     a Spark AM and an Angel master, ...), each
				     in arrival order: the first of a class is
				     the one of its size to try; O(classes) of
				     the run's shapes, two with the stock models */
	int ncls, cap_cls;
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
	/* NodeManager heartbeats (nm_heartbeat > 0) */
	bool hb;                  /* on */
	int njobs;
	int *held_gpus;           /* per node: GPUs assigned, not yet taken */
	int64_t *phase_us;        /* by position: heartbeat phase, ascending */
	int *order;               /* by position: its node */
	int *pos;                 /* by node: its position */
	int cur;                  /* the heartbeats at cur_us of positions below
				     it are done */
	int64_t cur_us;
	int64_t armed_us;         /* the pending heartbeat timer's time, -1 */
	uint32_t hb_gen;          /* its generation: older ones are stale */
};

/* Policy timer tags: the kind in the low 2 bits, then a job or a
 * generation. */
enum { TK_HEARTBEAT, TK_POLL, TK_GATE };

/* 0 where a container of sh->mem_mib fits (memory only), else INFINITY:
 * the winner of a range of nodes is the first one in it with room. */
/* Whether a container fits node n's free amounts, as its NodeManager
 * offers them: memory only (the DefaultResourceCalculator), or every
 * dimension (gpu_aware's DRC). */
static bool fits(const struct yarn *y, const struct clu_node *n, int fc, int64_t fm, int fg,
		 const struct pol_shape *sh)
{
	fm -= y->held_mib[n->id];
	if (y->held_gpus)
		fg -= y->held_gpus[n->id];
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

/* The same in the kernel's milli-cores. */
static int64_t nm_vcores_m(const struct scn_node_group *g)
{
	return (int64_t)nm_vcores(g) * CLU_MILLI;
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

/* Executor container of role r: an application of one resource profile
 * (sim_shape.one_profile: TFoS's ps and workers) has every executor of
 * the larger role's size (one spark.executor.memory per application).
 * Its vcores are whole (a Resource's virtualCores is an int, normalised
 * up to minimum-allocation-vcores, 1): a request in milli-cores (a
 * trace's) is rounded up, in the kernel's milli-cores. */
static void exec_shape_of(const struct yconf *k, const struct sim_shape *sh, int r, int *cores,
			  int64_t *mib, int *gpus)
{
	/* yarn.io/gpu is a countable resource: a share asks one GPU */
	int c = sh->role[r].cores, g = pol_whole_gpus(&sh->role[r]);
	int64_t m = sh->role[r].mem_mib;
	if (sh->one_profile)
		for (int q = 0; q < sh->nroles; q++) {
			if (sh->role[q].cores > c)
				c = sh->role[q].cores;
			if (sh->role[q].mem_mib > m)
				m = sh->role[q].mem_mib;
			if (pol_whole_gpus(&sh->role[q]) > g)
				g = pol_whole_gpus(&sh->role[q]); /* one resource profile: the PS's too */
		}
	*cores = c ? (int)(((int64_t)c + CLU_MILLI - 1) / CLU_MILLI * CLU_MILLI) : CLU_MILLI;
	*gpus = k->drc ? g : 0;
	/* a container that holds its memory as is (Angel's PS) gets no
	 * Spark overhead */
	*mib = container_mib(k, m, !sh->role[r].mem_as_is);
}

static void exec_shape(const struct yconf *k, const struct sim_job *j, int r, int *cores,
		       int64_t *mib, int *gpus)
{
	exec_shape_of(k, j->shape, r, cores, mib, gpus);
}

/* The AM containers a job of shape sh needs: its masters, or one. */
static int masters_of(const struct sim_shape *sh)
{
	return sh->nmasters > 0 ? sh->nmasters : 1;
}

/* The container of its AM i: the master's memory (plus Spark's overhead
 * unless it holds it as is), or Spark's AM for a master of no size of
 * its own. */
static int64_t master_mib(const struct yconf *k, const struct sim_shape *sh, int i)
{
	if (sh->nmasters <= 0 || sh->master[i].mem_mib <= 0)
		return container_mib(k, SPARK_AM_MIB, true);
	return container_mib(k, sh->master[i].mem_mib, !sh->master[i].mem_as_is);
}

/* Its AM containers' memory: total, and the largest. */
static int64_t am_mib_of(const struct yconf *k, const struct sim_shape *sh, int64_t *largest)
{
	int64_t sum = 0, big = 0;
	for (int i = 0; i < masters_of(sh); i++) {
		int64_t m = master_mib(k, sh, i);
		sum += m;
		if (m > big)
			big = m;
	}
	if (largest)
		*largest = big;
	return sum;
}

/* Whether role r's containers are asked by a master of the job's own
 * (Angel's, for its parameter servers) rather than by the application's
 * executor allocator. */
static bool by_master(const struct sim_shape *sh, int r)
{
	return sh->role[r].asker > 0;
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
	(void)group;
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
		exec_shape_of(k, sh, r, &cores, &mib, &gpus);
		const char *rn = sim_role_name(sh, r);
		pol_fmt_mib(mib, a, sizeof a);
		if (mib > k->max_mib) {
			v->why = SIM_WHY_MAX_ALLOC;
			snprintf(v->detail, sizeof v->detail, "%s container of %s (memory and overhead, "
				 "in %s steps) is over yarn.scheduler.maximum-allocation-mb %" PRId64,
				 rn, a, pol_fmt_mib(k->min_mib, st, sizeof st), k->max_mib);
			return;
		}
		if (cores > (int64_t)k->max_vcores * CLU_MILLI) { /* the RM validates every
						request's vcores, whatever its calculator */
			v->why = SIM_WHY_MAX_VCORES;
			snprintf(v->detail, sizeof v->detail, "%s container of %d vcores is over "
				 "yarn.scheduler.maximum-allocation-vcores %d", rn, cores / CLU_MILLI,
				 k->max_vcores);
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
				one |= nm_mib(ng) >= mib && nm_vcores_m(ng) >= cores && ng->gpus >= gpus;
				if (ng->gpus > most_gpus)
					most_gpus = ng->gpus;
			}
			if (!one) {
				v->why = most_gpus < gpus ? SIM_WHY_GPUS : SIM_WHY_CORES;
				snprintf(v->detail, sizeof v->detail, "%s container of %d vcores, %s and "
					 "%d GPUs fits no node (DominantResourceCalculator)", rn,
					 cores / CLU_MILLI, a, gpus);
				return;
			}
		}
		/* the roles that must be up at once: all of a rigid one's, its
		 * gang's */
		if (!(sh->rigid || r == sh->gang_role))
			continue;
		int64_t holds = 0;
		for (int g = 0; g < sc->ngroups; g++) {
			const struct scn_node_group *ng = &sc->groups[g];
			int64_t per = mib ? nm_mib(ng) / mib : (int64_t)1 << 32;
			if (k->drc && nm_vcores_m(ng) / cores < per)
				per = nm_vcores_m(ng) / cores;
			if (k->drc && gpus && ng->gpus / gpus < per)
				per = ng->gpus / gpus;
			holds += per * ng->count;
		}
		int want = sh->role[r].count; /* one profile: every role's in this size */
		if (sh->one_profile)
			for (int q = 0; q < sh->nroles; q++)
				want += q != r ? sh->role[q].count : 0;
		if (holds < want) {
			v->why = SIM_WHY_CAPACITY;
			snprintf(v->detail, sizeof v->detail, "%d %s containers of %s needed at once; "
				 "the empty cluster holds %" PRId64, want,
				 sh->one_profile ? "executor" : rn, a, holds);
			return;
		}
	}
	int64_t am;
	am_mib_of(k, sh, &am); /* the largest */
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
/* LeafQueue's AM limit: the cluster times maximum-am-resource-percent,
 * multiplyAndNormalizeUp'd to the minimum allocation.  The two
 * calculators round differently before that: the DefaultResourceCalculator
 * to the nearest MiB ((long)(mem * by + 0.5)), the DominantResourceCalculator
 * up (ceil, each resource). */
static void am_limits(struct yarn *y, int64_t offered_mib, int64_t offered_vcores)
{
	double prod = y->k.am_percent * (double)offered_mib;
	int64_t m = y->k.drc ? (int64_t)ceil(prod) : (int64_t)(prod + 0.5);
	y->am_limit_mib = (m + y->k.min_mib - 1) / y->k.min_mib * y->k.min_mib;
	y->am_limit_vcores = (int)ceil(y->k.am_percent * (double)offered_vcores);
}

static void hb_init(struct yarn *y, struct sim *s);

static void *yarn_init(struct sim *s, const struct scn_policy *cfg)
{
	struct yarn *y = xcalloc(1, sizeof *y);
	pol_fits_init(&y->fits, s, submission_verdict, cfg);
	pol_jobset_init(&y->q, sim_njobs(s));
	pol_tent_init(&y->t, sim_cluster(s)->n);
	y->app = xcalloc((size_t)(sim_njobs(s) ? sim_njobs(s) : 1), sizeof *y->app);
	y->k = conf_of(cfg);
	y->njobs = sim_njobs(s);
	const struct clu *c = sim_cluster(s);
	const struct scn *sc = sim_scenario(s);
	y->held_mib = xcalloc((size_t)(c->n ? c->n : 1), sizeof *y->held_mib);
	y->held_cores = xcalloc((size_t)(c->n ? c->n : 1), sizeof *y->held_cores);
	int64_t offered = 0, offered_vcores = 0; /* the cluster, as the ResourceManager has it */
	for (int i = 0; i < c->n; i++) {
		const struct scn_node_group *g = &sc->groups[c->nodes[i].group];
		y->held_mib[i] = g->mem_mib - nm_mib(g);
		y->held_cores[i] = (int)((int64_t)g->cores * CLU_MILLI - nm_vcores_m(g));
		offered += nm_mib(g);
		offered_vcores += nm_vcores(g);
	}
	am_limits(y, offered, offered_vcores);
	y->indexed = !clu_plain_scan;
	if (y->k.nm_hb_us > 0)
		hb_init(y, s);
	if (y->indexed) {
		pol_ix_init(&y->ix, sim_cluster(s), &y->t, yarn_key, y);
		if (y->hb)
			pol_ix_order(&y->ix, y->pos);
	}
	if (y->indexed || y->hb) {
		pol_tree_init(&y->asking, sim_njobs(s));
		pol_queue_init(&y->parked, sim_njobs(s));
	}
	return y;
}

/* spark.scheduler.minRegisteredResourcesRatio: the driver's first job
 * waits (TaskSchedulerImpl.waitBackendReady) until that share of
 * spark.executor.instances has registered (YarnSchedulerBackend.
 * sufficientResourcesRegistered) or maxRegisteredResourcesWaitingTime
 * has passed since the backend was made (at submission).  Roles a master
 * of the job's own asks for (Angel's parameter servers) come up first,
 * as a gang: they count on top. */
static void gate(struct yarn *y, struct sim *s, const struct sim_job *j)
{
	const struct sim_shape *sh = j->shape;
	if (y->k.min_ratio <= 0 || y->k.max_wait_us <= 0)
		return;
	int expected = 0, own = 0; /* the allocator's executors; the masters' roles */
	for (int r = 0; r < sh->nroles; r++)
		*(by_master(sh, r) ? &own : &expected) += sh->role[r].count;
	int n = (int)ceil(y->k.min_ratio * expected - 1e-9);
	if (n <= 0)
		return;
	n += own;
	sim_hold_tasks(s, j->id, n);
	sim_policy_timer(s, (double)y->k.max_wait_us, (uint32_t)j->id << 2 | TK_GATE);
}

/* The AM class of application a (its AMs' count and memory), made on
 * first use: O(classes). */
static int am_class(struct yarn *y, const struct yarn_app *a)
{
	for (int c = 0; c < y->ncls; c++)
		if (y->cls[c].ams == a->ams && y->cls[c].am_mib == a->am_mib)
			return c;
	xgrow(&y->cls, &y->cap_cls, y->ncls + 1, sizeof *y->cls);
	struct am_class *c = &y->cls[y->ncls];
	*c = (struct am_class){.ams = a->ams, .am_mib = a->am_mib};
	pol_jobset_init(&c->pend, y->njobs);
	return y->ncls++;
}

static void yarn_arrived(void *st, struct sim *s, int job)
{
	struct yarn *y = st;
	const struct sim_job *j = sim_job(s, job);
	struct yarn_app *a = &y->app[job];
	a->ams = masters_of(j->shape);
	a->relaunch = -1;
	a->am_mib = am_mib_of(&y->k, j->shape, NULL);
	a->cls = am_class(y, a);
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
	pol_jobset_add(&y->cls[a->cls].pend, job);
	a->poll_armed_us = -1;
	gate(y, s, j);
}

static void hold(struct yarn *y, int node, const struct pol_shape *sh, int sign);

static void yarn_finished(void *st, struct sim *s, int job)
{
	struct yarn *y = st;
	if (y->app[job].active) {
		y->app[job].active = false;
		y->am_used_mib -= y->app[job].am_mib;
		y->am_used_vcores -= y->app[job].ams;
		y->nactive--;
	}
	if (y->app[job].ams) /* arrived, and maybe not let in: a job may time out first */
		pol_jobset_remove(&y->cls[y->app[job].cls].pend, job);
	pol_jobset_remove(&y->q, job);
	if (y->indexed || y->hb) {
		pol_tree_set(&y->asking, job, INFINITY);
		pol_queue_remove(&y->parked, job);
	}
	struct yarn_app *a = &y->app[job];
	if (a->npromised) { /* assigned, never taken: back to the RM */
		struct pol_shape sh;
		exec_shape(&y->k, sim_job(s, job), 0, &sh.cores, &sh.mem_mib, &sh.gpus);
		for (int i = 0; i < a->npromised; i++)
			hold(y, a->promised[i], &sh, -1);
	}
	free(a->promised);
	a->promised = NULL;
	a->npromised = a->cap_promised = 0;
}

/* Next node in heartbeat order with `mib` free (memory-only fit),
 * counting what is tentatively placed; -1 if none.  The reference scan
 * walks the nodes from the pointer round; the index takes the winner of
 * the nodes from the pointer on, else of those before it: O(log nodes). */
static int heartbeat_fit(struct yarn *y, const struct clu *c, const struct pol_shape *want)
{
	int i = -1;
	struct pol_shape sh = y->k.drc ? *want : (struct pol_shape){0, want->mem_mib, 0, 0};
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
	struct pol_shape sh = {cores, mib, gpus, 0};
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
		for (int c = 0; c < y->ncls; c++) {
			int job = pol_jobset_first(&y->cls[c].pend);
			if (job >= 0 && (best < 0 || job < best) &&
			    (y->nactive == 0 || am_fits(y, &y->app[job])))
				best = job;
		}
		if (best < 0)
			return;
		struct yarn_app *a = &y->app[best];
		pol_jobset_remove(&y->cls[a->cls].pend, best);
		a->active = true;
		y->am_used_mib += a->am_mib;
		y->am_used_vcores += a->ams;
		y->nactive++;
		if (y->indexed || y->hb)
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
		int which = a->relaunch >= 0 ? a->relaunch : j->live->ams_live;
		int got = place(y, c, 1, SIM_ROLE_AM, CLU_MILLI, master_mib(&y->k, j->shape, which), 0);
		if (got)
			a->relaunch = -1;
		pol_tent_launch(&y->t, s, job);
		if (got && j->live->ams_live < a->ams)
			serve(y, s, job); /* its next master (Angel's) */
		return;
	}
	if (j->live->ams_ready < a->ams)
		return; /* the AM asks for containers once it is up */
	int cores, gpus;
	int64_t mib;
	const struct sim_shape *sh = j->shape;
	for (int r = 0; r < sh->nroles; r++) { /* a master's roles: each a gang, first */
		if (!by_master(sh, r) || j->live->granted[r] >= sh->role[r].count)
			continue;
		exec_shape(&y->k, j, r, &cores, &mib, &gpus);
		int want = sh->role[r].count - j->live->granted[r];
		if (place(y, c, want, r, cores, mib, gpus) == want)
			pol_tent_launch(&y->t, s, job);
		pol_tent_reset(&y->t);
		if (j->live->granted[r] < sh->role[r].count)
			return;
	}
	if (sh->one_profile) { /* one executor size, roles in launch order */
		exec_shape(&y->k, j, 0, &cores, &mib, &gpus);
		while (sim_execs_wanted(j) > 0 && place(y, c, 1, sim_next_role(j), cores, mib, gpus))
			pol_tent_launch(&y->t, s, job);
		return;
	}
	for (int r = 0; r < sh->nroles; r++) { /* the allocator's, role by role */
		if (by_master(sh, r))
			continue;
		exec_shape(&y->k, j, r, &cores, &mib, &gpus);
		int want = sh->role[r].count - j->live->granted[r];
		place(y, c, want, r, cores, mib, gpus);
		pol_tent_launch(&y->t, s, job);
	}
}

/* ---- allocation latency (nm_heartbeat > 0) ---------------------------
 *
 * The ResourceManager assigns containers only when a node heartbeats:
 * node n at phase(n) + k nm_heartbeat, its phase keyed by (seed, node);
 * at most max_offswitch_assignments per heartbeat (Spark's requests name
 * no node: every assignment is off-switch), to the first active
 * applications in arrival order whose request fits.  An AM container
 * (and an Angel parameter server, asked by Angel's master) is launched
 * when assigned; an executor container waits in the RM until the Spark
 * AM's next allocate() poll takes it (initial_allocation_interval > 0).
 *
 * No event per node per heartbeat: nodes are kept in heartbeat order,
 * and one timer stands for the next heartbeat at which some request
 * fits (the first position from the cursor round where it fits: an
 * index per container size, as the pointer of the immediate mode).
 * Heartbeats that could assign nothing cost nothing. */

static int64_t next_beat(const struct yarn *y, int p, int64_t t)
{
	int64_t ph = y->phase_us[p], per = y->k.nm_hb_us;
	return t <= ph ? ph : ph + (t - ph + per - 1) / per * per;
}

/* Executor containers job j still wants of its AM's allocator (a
 * master's roles aside: Angel's asks for its parameter servers). */
static int exec_wanted(const struct sim_job *j)
{
	int n = 0;
	for (int r = 0; r < j->shape->nroles; r++)
		if (!by_master(j->shape, r) && j->live->granted[r] < j->shape->role[r].count)
			n += j->shape->role[r].count - j->live->granted[r];
	return n;
}

/* The allocator's next role: the first of its roles still short. */
static int exec_role(const struct sim_job *j)
{
	for (int r = 0; r < j->shape->nroles; r++)
		if (!by_master(j->shape, r) && j->live->granted[r] < j->shape->role[r].count)
			return r;
	return 0;
}

/* A master's role still short, or -1. */
static int master_role(const struct sim_job *j)
{
	for (int r = 0; r < j->shape->nroles; r++)
		if (by_master(j->shape, r) && j->live->granted[r] < j->shape->role[r].count)
			return r;
	return -1;
}

/* A request: an AM, a container of a role a master asks for (Angel's
 * parameter servers), an executor of the allocator's. */
enum req { RQ_NONE, RQ_AM, RQ_PS, RQ_EXEC };

/* What application `job` asks of the RM now, and its container. */
static enum req request(const struct yarn *y, const struct sim *s, int job, struct pol_shape *sh)
{
	const struct sim_job *j = sim_job(s, job);
	const struct yarn_app *a = &y->app[job];
	if (!a->active || j->status >= JOB_DONE)
		return RQ_NONE;
	if (j->live->ams_live < a->ams) {
		int which = a->relaunch >= 0 ? a->relaunch : j->live->ams_live;
		*sh = (struct pol_shape){CLU_MILLI, master_mib(&y->k, j->shape, which), 0, 0};
		return RQ_AM;
	}
	if (!a->registered)
		return RQ_NONE;
	int mr = master_role(j);
	if (mr >= 0) {
		exec_shape(&y->k, j, mr, &sh->cores, &sh->mem_mib, &sh->gpus);
		return RQ_PS;
	}
	int want = y->k.am_init_us ? a->asked : exec_wanted(j);
	if (want <= 0)
		return RQ_NONE;
	exec_shape(&y->k, j, j->shape->one_profile ? 0 : exec_role(j), &sh->cores, &sh->mem_mib,
		   &sh->gpus);
	return RQ_EXEC;
}

/* Keep `asking` to the applications with a request at the RM. */
static void note(struct yarn *y, const struct sim *s, int job)
{
	struct pol_shape sh;
	pol_tree_set(&y->asking, job, request(y, s, job, &sh) != RQ_NONE ? 0 : INFINITY);
}

static bool fits_node(const struct yarn *y, const struct clu *c, int node,
		      const struct pol_shape *want)
{
	struct pol_shape sh = y->k.drc ? *want : (struct pol_shape){0, want->mem_mib, 0, 0};
	const struct clu_node *n = &c->nodes[node];
	return fits(y, n, pol_clamp_cores(n->cores_free), n->mem_free, n->gpus_free, &sh);
}

/* The first position from `start` round whose node fits `want`, -1. */
static int first_fit(struct yarn *y, const struct clu *c, int start, const struct pol_shape *want)
{
	struct pol_shape sh = y->k.drc ? *want : (struct pol_shape){0, want->mem_mib, 0, 0};
	const struct pol_tree *t = y->indexed ? pol_ix_tree(&y->ix, &sh) : NULL;
	if (t) {
		int p = pol_tree_min(t, start, c->n);
		return p >= 0 ? p : pol_tree_min(t, 0, start);
	}
	for (int k = 0; k < c->n; k++) { /* O(nodes): the reference */
		int p = (start + k) % c->n;
		if (fits_node(y, c, y->order[p], want))
			return p;
	}
	return -1;
}

/* Where heartbeats not yet done begin now: positions from it beat at or
 * after now, those before it after now. */
static int beat_start(const struct yarn *y, const struct sim *s)
{
	int64_t now = sim_now(s);
	if (y->cur_us == now)
		return y->cur;
	int64_t m = now % y->k.nm_hb_us;
	int lo = 0, hi = sim_cluster(s)->n; /* the first phase >= m */
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (y->phase_us[mid] < m)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The next heartbeat at which some request fits: its position and time;
 * false if none.  Only the first application of each container size can
 * come first (ties go to the earlier). O(asking applications + sizes ×
 * log nodes). */
static bool next_useful(struct yarn *y, struct sim *s, int *pos, int64_t *at)
{
	const struct clu *c = sim_cluster(s);
	int n = c->n, start = beat_start(y, s), best = -1, njobs = sim_njobs(s), nseen = 0;
	struct pol_shape seen[8];
	for (int job = pol_tree_min(&y->asking, 0, njobs); job >= 0 && best != 0;
	     job = pol_tree_min(&y->asking, job + 1, njobs)) {
		struct pol_shape sh;
		if (request(y, s, job, &sh) == RQ_NONE)
			continue;
		bool dup = false;
		for (int k = 0; k < nseen && !dup; k++)
			dup = !memcmp(&seen[k], &sh, sizeof sh);
		if (dup)
			continue;
		if (nseen < 8)
			seen[nseen++] = sh;
		int p = first_fit(y, c, start, &sh);
		if (p >= 0 && (best < 0 || (p - start + n) % n < best))
			best = (p - start + n) % n;
	}
	if (best < 0)
		return false;
	*pos = (start + best) % n;
	*at = next_beat(y, *pos, *pos >= start ? sim_now(s) : sim_now(s) + 1);
	return true;
}

static void arm(struct yarn *y, struct sim *s)
{
	int p;
	int64_t at;
	if (!next_useful(y, s, &p, &at) || (y->armed_us >= 0 && y->armed_us <= at))
		return;
	y->armed_us = at;
	y->hb_gen++;
	sim_policy_timer(s, (double)(at - sim_now(s)), (y->hb_gen & 0x3fffffffu) << 2 | TK_HEARTBEAT);
}

static void hold(struct yarn *y, int node, const struct pol_shape *sh, int sign)
{
	y->held_mib[node] += sign * sh->mem_mib;
	y->held_cores[node] += sign * sh->cores;
	y->held_gpus[node] += sign * sh->gpus;
	if (y->indexed)
		pol_ix_rekey(&y->ix, node);
}

/* Application a's first allocator poll at or after h (after its last
 * one), the polls before it finding nothing: while `pending` each sleep
 * doubles from the initial interval up to the heartbeat interval
 * (ApplicationMaster.allocationThreadImpl), else it is the heartbeat
 * interval.  Moves its schedule to the last of those polls. */
static int64_t next_poll(const struct yarn *y, struct yarn_app *a, int64_t h, bool pending)
{
	int64_t t = a->poll_t_us + a->poll_iv_us;
	while (t < h) {
		int64_t iv = y->k.am_hb_us;
		if (pending && a->next_alloc_us < iv)
			iv = a->next_alloc_us;
		a->next_alloc_us = pending ? 2 * iv : y->k.am_init_us;
		if (iv == y->k.am_hb_us && t + iv < h) /* steady: skip to the last before h */
			t += (h - t - 1) / iv * iv;
		a->poll_t_us = t;
		a->poll_iv_us = iv;
		t += iv;
	}
	return t;
}

static void arm_poll(struct yarn *y, struct sim *s, int job, bool pending)
{
	struct yarn_app *a = &y->app[job];
	if (a->poll_armed_us >= 0)
		return;
	a->poll_armed_us = next_poll(y, a, sim_now(s), pending);
	sim_policy_timer(s, (double)(a->poll_armed_us - sim_now(s)), (uint32_t)job << 2 | TK_POLL);
}

/* After a poll at now: the allocator sleeps (pending: its requests not
 * all assigned) min(heartbeat, nextAllocationInterval), doubling it; else
 * the heartbeat interval, the next one reset to the initial. */
static void polled(const struct yarn *y, struct yarn_app *a, int64_t now)
{
	bool pending = a->asked > 0;
	int64_t iv = y->k.am_hb_us;
	if (pending && a->next_alloc_us < iv)
		iv = a->next_alloc_us;
	a->next_alloc_us = pending ? 2 * iv : y->k.am_init_us;
	a->poll_t_us = now;
	a->poll_iv_us = iv;
}

static void launch_exec(struct sim *s, int job, int node, const struct pol_shape *sh)
{
	const struct sim_job *j = sim_job(s, job);
	int role = j->shape->one_profile ? sim_next_role(j) : exec_role(j);
	sim_launch_executor(s, job, role, node, sh->cores, sh->mem_mib, sh->gpus);
}

/* The AM's poll: it takes the containers assigned since, and asks for
 * what it still lacks (executors lost included). */
static void on_poll(struct yarn *y, struct sim *s, int job)
{
	struct yarn_app *a = &y->app[job];
	const struct sim_job *j = sim_job(s, job);
	if (a->poll_armed_us != sim_now(s) || j->status >= JOB_DONE || !a->registered)
		return; /* stale: it ended, or its AM was lost */
	a->poll_armed_us = -1;
	struct pol_shape sh;
	exec_shape(&y->k, j, 0, &sh.cores, &sh.mem_mib, &sh.gpus);
	for (int i = 0; i < a->npromised; i++) {
		int node = a->promised[i];
		hold(y, node, &sh, -1);
		if (exec_wanted(j) > 0 && clu_fits(&sim_cluster(s)->nodes[node], sh.cores,
						   sh.mem_mib, sh.gpus, false))
			launch_exec(s, job, node, &sh);
	}
	a->npromised = 0;
	a->asked = exec_wanted(j);
	polled(y, a, sim_now(s));
	note(y, s, job);
}

/* Assign one container of `job`'s request on `node`. */
static void assign(struct yarn *y, struct sim *s, int job, int node, enum req rq,
		   const struct pol_shape *sh)
{
	struct yarn_app *a = &y->app[job];
	const struct sim_job *j = sim_job(s, job);
	if (rq == RQ_AM) {
		sim_launch_executor(s, job, SIM_ROLE_AM, node, CLU_MILLI, sh->mem_mib, 0);
		a->relaunch = -1;
		if (j->live->ams_live == a->ams)
			pol_queue_push(&y->parked, job);
	} else if (rq == RQ_PS) {
		sim_launch_executor(s, job, master_role(j), node, sh->cores, sh->mem_mib, sh->gpus);
	} else if (!y->k.am_init_us) {
		launch_exec(s, job, node, sh);
	} else {
		xgrow(&a->promised, &a->cap_promised, a->npromised + 1, sizeof *a->promised);
		a->promised[a->npromised++] = node;
		hold(y, node, sh, +1);
		a->asked--;
		arm_poll(y, s, job, true);
	}
	note(y, s, job);
}

/* Node `node` heartbeats: up to max_offswitch_assignments containers,
 * each to the first application in arrival order whose request fits. */
static void beat(struct yarn *y, struct sim *s, int node)
{
	const struct clu *c = sim_cluster(s);
	int njobs = sim_njobs(s);
	for (int k = 0; k < y->k.offswitch; k++) {
		int job;
		struct pol_shape sh;
		enum req rq = RQ_NONE;
		for (job = pol_tree_min(&y->asking, 0, njobs); job >= 0;
		     job = pol_tree_min(&y->asking, job + 1, njobs)) {
			rq = request(y, s, job, &sh);
			if (rq != RQ_NONE && fits_node(y, c, node, &sh))
				break;
		}
		if (job < 0)
			return;
		assign(y, s, job, node, rq, &sh);
	}
}

static void on_heartbeat(struct yarn *y, struct sim *s, uint32_t gen)
{
	if (gen != (y->hb_gen & 0x3fffffffu))
		return; /* superseded by an earlier one */
	y->armed_us = -1;
	int p;
	int64_t at;
	while (next_useful(y, s, &p, &at) && at == sim_now(s)) {
		beat(y, s, y->order[p]);
		y->cur = p + 1;
		y->cur_us = at;
	}
	arm(y, s);
}

/* Applications whose AMs came up register: the first allocate() asks
 * for every executor, and the allocator starts polling. */
static void registered(struct yarn *y, struct sim *s)
{
	int job;
	while ((job = y->parked.head) >= 0 && sim_job(s, job)->live->ams_ready == y->app[job].ams) {
		struct yarn_app *a = &y->app[job];
		pol_queue_remove(&y->parked, job);
		a->registered = true;
		a->asked = exec_wanted(sim_job(s, job));
		a->next_alloc_us = y->k.am_init_us;
		polled(y, a, sim_now(s));
		note(y, s, job);
	}
}

struct beat_at {
	int64_t ph;
	int node;
};

static int cmp_beat(const void *pa, const void *pb) /* by phase, then node */
{
	const struct beat_at *a = pa, *b = pb;
	if (a->ph != b->ph)
		return a->ph < b->ph ? -1 : 1;
	return (a->node > b->node) - (a->node < b->node);
}

/* Nodes in heartbeat order: phases keyed by (seed, node), or all 0. */
static void hb_init(struct yarn *y, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	size_t n = (size_t)(c->n ? c->n : 1);
	struct beat_at *v = xcalloc(n, sizeof *v);
	for (int i = 0; i < c->n; i++) {
		struct rng_key k = rng_key(sim_seed(s), 0, YARN_RNG_HEARTBEAT, (uint32_t)i, 0, 0);
		v[i].node = i;
		v[i].ph = y->k.phase_zero ? 0 : (int64_t)(rng_u01(k, 0) * (double)y->k.nm_hb_us);
	}
	qsort(v, (size_t)c->n, sizeof *v, cmp_beat);
	y->phase_us = xcalloc(n, sizeof *y->phase_us);
	y->order = xcalloc(n, sizeof *y->order);
	y->pos = xcalloc(n, sizeof *y->pos);
	for (int i = 0; i < c->n; i++) {
		y->phase_us[i] = v[i].ph;
		y->order[i] = v[i].node;
		y->pos[v[i].node] = i;
	}
	free(v);
	y->held_gpus = xcalloc(n, sizeof *y->held_gpus);
	y->cur_us = -1;
	y->armed_us = -1;
	y->hb = true;
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
	if (y->hb) {
		registered(y, s);
		arm(y, s);
		return;
	}
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
	(void)why;
	struct yarn *y = st;
	if (x->role == SIM_ROLE_AM) { /* which master, by its size (the first of it) */
		const struct sim_shape *sh = sim_job(s, job)->shape;
		int k = 0;
		while (k + 1 < masters_of(sh) && master_mib(&y->k, sh, k) != x->mem_mib)
			k++;
		y->app[job].relaunch = k;
	}
	if (y->hb) {
		struct yarn_app *a = &y->app[job];
		if (x->role == SIM_ROLE_AM) {
			/* The allocator dies with its AM: containers assigned
			 * but not yet taken go back (the RM releases an
			 * attempt's unclaimed containers), and nothing polls
			 * until the next AM registers and asks anew. */
			struct pol_shape sh;
			exec_shape(&y->k, sim_job(s, job), 0, &sh.cores, &sh.mem_mib, &sh.gpus);
			for (int i = 0; i < a->npromised; i++)
				hold(y, a->promised[i], &sh, -1);
			a->npromised = 0;
			a->asked = 0;
			a->poll_armed_us = -1; /* its pending poll is stale */
			a->registered = false; /* the next AM registers anew */
			pol_queue_remove(&y->parked, job);
		} else if (y->k.am_init_us && a->registered) {
			arm_poll(y, s, job, a->asked + a->npromised > 0); /* it asks at its next poll */
		}
		if (a->active)
			note(y, s, job);
		return;
	}
	if (!y->app[job].active || !y->indexed)
		return; /* it asks at its next turn anyway */
	if (x->role != SIM_ROLE_AM && pol_queue_has(&y->parked, job))
		return; /* parked in the order its AMs come up: it asks then (a
			   turn now would park it again behind later AMs) */
	pol_queue_remove(&y->parked, job);
	pol_tree_set(&y->asking, job, 0);
}

static void yarn_timer(void *st, struct sim *s, uint32_t tag)
{
	struct yarn *y = st;
	switch (tag & 3) {
	case TK_HEARTBEAT:
		on_heartbeat(y, s, tag >> 2);
		break;
	case TK_POLL:
		on_poll(y, s, (int)(tag >> 2));
		arm(y, s);
		break;
	default:
		sim_release_tasks(s, (int)(tag >> 2));
	}
}

static void yarn_fini(void *st)
{
	struct yarn *y = st;
	for (int i = 0; y->hb && i < y->njobs; i++)
		free(y->app[i].promised);
	free(y->phase_us);
	free(y->order);
	free(y->pos);
	free(y->held_gpus);
	free(y->held_mib);
	free(y->held_cores);
	pol_jobset_free(&y->q);
	for (int c = 0; c < y->ncls; c++)
		pol_jobset_free(&y->cls[c].pend);
	free(y->cls);
	pol_tent_fini(&y->t);
	if (y->indexed)
		pol_ix_free(&y->ix);
	if (y->indexed || y->hb) {
		pol_tree_free(&y->asking);
		pol_queue_free(&y->parked);
	}
	free(y->app);
	pol_fits_free(&y->fits);
	free(y);
}

static const char *const phase_choices[] = {"random", "zero", NULL};

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
	{.key = "nm_heartbeat", .type = POL_TIME, .def = "1s", .def_num = 1e6, .lo = 0, .hi = 3600e6,
	 .help = "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms: containers are assigned "
	 "on a node only when it heartbeats; 0: at once"},
	{.key = "nm_heartbeat_phase", .type = POL_CHOICE, .choices = phase_choices, .def = "random",
	 .help = "each node's heartbeat phase: random (keyed by seed and node) or zero (all at 0)"},
	{.key = "max_offswitch_assignments", .type = POL_INT, .def = "1", .def_num = 1, .lo = 1,
	 .hi = 1048576, .unit = "containers",
	 .help = "yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments"},
	{.key = "heartbeat_interval", .type = POL_TIME, .def = "3s", .def_num = 3e6, .lo = 1e3,
	 .hi = 3600e6, .help = "spark.yarn.scheduler.heartbeat.interval-ms: the AM's allocate() "
	 "poll with nothing pending"},
	{.key = "initial_allocation_interval", .type = POL_TIME, .def = "200ms", .def_num = 2e5,
	 .lo = 0, .hi = 3600e6, .help = "spark.yarn.scheduler.initial-allocation.interval: the "
	 "first poll's sleep while requests are pending, doubling; 0: containers taken at once"},
	{.key = "min_registered_resources_ratio", .type = POL_NUM, .def = "0.8", .def_num = 0.8,
	 .lo = 0, .hi = 1, .help = "spark.scheduler.minRegisteredResourcesRatio: the share of "
	 "executors up before the first task; 0: none waits"},
	{.key = "max_registered_resources_waiting_time", .type = POL_TIME, .def = "30s",
	 .def_num = 30e6, .lo = 0, .hi = 3600e6,
	 .help = "spark.scheduler.maxRegisteredResourcesWaitingTime: the first task waits at most "
	 "this from submission"},
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
	.timer = yarn_timer,
	.schedule = yarn_schedule,
	.fini = yarn_fini,
	.can_ever_place = yarn_can_ever_place,
};
