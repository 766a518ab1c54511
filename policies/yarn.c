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
 *   heartbeats (a node beating out of band, at once, when a container
 *   on it ends: oob_heartbeat), executors taken at the AM's polls, and
 *   the first tasks wait for minRegisteredResourcesRatio (yarn_hb.c);
 *   with nm_heartbeat 0 at once, in round-robin order over the nodes
 *   from a pointer, the first with enough free memory.  No
 *   reservations, no labels (a policy that ignores labels says so).
 *
 *   NodeManagers offer what nm_memory_mb and nm_vcores say (8192 MB
 *   and 8 vcores in yarn-default.xml), else what their node group's
 *   nodemanager key says, else the whole node.
 *
 * Cost (nm_heartbeat 0; yarn_hb.c says the heartbeats'): a container
 * goes to the winner of the nodes from the pointer on (else before it)
 * in a tournament tree per container size whose key is 0 where it fits
 * (pol_index.h): O(log nodes), plus O(sizes × log nodes) per node whose
 * free or tentative memory changed.  Only applications
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

#include "util.h"
#include "yarn_int.h"
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
		.oob = pol_param_bool(&pol_yarn, cfg, "oob_heartbeat"),
		.nm_mib = (int64_t)pol_param_num(&pol_yarn, cfg, "nm_memory_mb"),
		.nm_vcores = (int)pol_param_num(&pol_yarn, cfg, "nm_vcores"),
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

/* What the NodeManagers of node group g offer: memory and vcores: the
 * switches' (yarn.nodemanager.resource.memory-mb, .cpu-vcores, for every
 * node; memory at most the node's, which the kernel holds to), else
 * the group's `nodemanager` key, else the whole node. */
static int64_t nm_mib(const struct yconf *k, const struct scn_node_group *g)
{
	if (k->nm_mib)
		return k->nm_mib < g->mem_mib ? k->nm_mib : g->mem_mib;
	return g->nm_mem_mib ? g->nm_mem_mib : g->mem_mib;
}

static int nm_vcores(const struct yconf *k, const struct scn_node_group *g)
{
	if (k->nm_vcores)
		return k->nm_vcores;
	return g->nm_vcores ? g->nm_vcores : g->cores;
}

/* The same in the kernel's milli-cores. */
static int64_t nm_vcores_m(const struct yconf *k, const struct scn_node_group *g)
{
	return (int64_t)nm_vcores(k, g) * CLU_MILLI;
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
		if (nm_mib(k, &sc->groups[g]) > biggest)
			biggest = nm_mib(k, &sc->groups[g]);
	for (int r = 0; r < sh->nroles; r++) {
		int cores, gpus;
		int64_t mib;
		yarn_exec_shape_of(k, sh, r, &cores, &mib, &gpus);
		const char *rn = sim_role_name(sh, r);
		pol_fmt_mib(mib, a, sizeof a);
		if (mib > k->max_mib) {
			/* where the size comes from: the role's memory, or under one
			 * resource profile (one spark.executor.memory for the whole
			 * application) its largest role's */
			int src = r;
			for (int q = 0; sh->one_profile && q < sh->nroles; q++)
				if (sh->role[q].mem_mib > sh->role[src].mem_mib)
					src = q;
			char m[32], from[96];
			pol_fmt_mib(sh->role[src].mem_mib, m, sizeof m);
			if (src != r)
				snprintf(from, sizeof from, "the application's one executor size, its "
					 "%s's %s", sim_role_name(sh, src), m);
			else
				snprintf(from, sizeof from, "its %s", m);
			v->why = SIM_WHY_MAX_ALLOC;
			snprintf(v->detail, sizeof v->detail, "%s container of %s (%s%s, in %s steps) "
				 "is over yarn.scheduler.maximum-allocation-mb %" PRId64, rn, a, from,
				 sh->role[r].mem_as_is ? "" : " plus Spark's overhead",
				 pol_fmt_mib(k->min_mib, st, sizeof st), k->max_mib);
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
				one |= nm_mib(k, ng) >= mib && nm_vcores_m(k, ng) >= cores && ng->gpus >= gpus;
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
			int64_t per = mib ? nm_mib(k, ng) / mib : (int64_t)1 << 32;
			if (k->drc && nm_vcores_m(k, ng) / cores < per)
				per = nm_vcores_m(k, ng) / cores;
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
	yarn_am_mib_of(k, sh, &am); /* the largest */
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
		y->held_mib[i] = g->mem_mib - nm_mib(&y->k, g);
		y->held_cores[i] = (int)((int64_t)g->cores * CLU_MILLI - nm_vcores_m(&y->k, g));
		offered += nm_mib(&y->k, g);
		offered_vcores += nm_vcores(&y->k, g);
	}
	am_limits(y, offered, offered_vcores);
	y->indexed = !clu_plain_scan;
	if (y->k.nm_hb_us > 0)
		yarn_hb_init(y, s);
	if (y->indexed) {
		pol_ix_init(&y->ix, sim_cluster(s), &y->t, yarn_key, y);
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
		*(yarn_by_master(sh, r) ? &own : &expected) += sh->role[r].count;
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
	a->ams = yarn_masters_of(j->shape);
	a->relaunch = -1;
	a->am_mib = yarn_am_mib_of(&y->k, j->shape, NULL);
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
	if (y->hb)
		yarn_hb_finished(y, s, job);
}

/* Next node in heartbeat order with `mib` free (memory-only fit),
 * counting what is tentatively placed; -1 if none.  The reference scan
 * walks the nodes from the pointer round; the index takes the winner of
 * the nodes from the pointer on, else of those before it: O(log nodes). */
static int heartbeat_fit(struct yarn *y, const struct clu *c, const struct pol_shape *want)
{
	int i = -1;
	struct pol_shape sh = yarn_calc_shape(y, want);
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
			if (yarn_fits(y, &c->nodes[n], fc, fm, fg, &sh))
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
static void activate(struct yarn *y, const struct sim *s)
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
		if (y->hb)
			yarn_hb_activated(y, s, best);
		else if (y->indexed)
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
		int got = place(y, c, 1, SIM_ROLE_AM, CLU_MILLI, yarn_master_mib(&y->k, j->shape, which), 0);
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
		if (!yarn_by_master(sh, r) || j->live->granted[r] >= sh->role[r].count)
			continue;
		yarn_exec_shape(&y->k, j, r, &cores, &mib, &gpus);
		int want = sh->role[r].count - j->live->granted[r];
		if (place(y, c, want, r, cores, mib, gpus) == want)
			pol_tent_launch(&y->t, s, job);
		pol_tent_reset(&y->t);
		if (j->live->granted[r] < sh->role[r].count)
			return;
	}
	if (sh->one_profile) { /* one executor size, roles in launch order */
		yarn_exec_shape(&y->k, j, 0, &cores, &mib, &gpus);
		while (sim_execs_wanted(j) > 0 && place(y, c, 1, sim_next_role(j), cores, mib, gpus))
			pol_tent_launch(&y->t, s, job);
		return;
	}
	for (int r = 0; r < sh->nroles; r++) { /* the allocator's, role by role */
		if (yarn_by_master(sh, r))
			continue;
		yarn_exec_shape(&y->k, j, r, &cores, &mib, &gpus);
		int want = sh->role[r].count - j->live->granted[r];
		place(y, c, want, r, cores, mib, gpus);
		pol_tent_launch(&y->t, s, job);
	}
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
	activate(y, s);
	if (y->hb) {
		yarn_hb_schedule(y, s);
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
	struct yarn *y = st;
	if (x->role == SIM_ROLE_AM) { /* which master, by its size (the first of it) */
		const struct sim_shape *sh = sim_job(s, job)->shape;
		int k = 0;
		while (k + 1 < yarn_masters_of(sh) && yarn_master_mib(&y->k, sh, k) != x->mem_mib)
			k++;
		y->app[job].relaunch = k;
	}
	if (y->hb) {
		yarn_hb_lost(y, s, job, x, why);
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
		yarn_hb_heartbeat(y, s, tag >> 2);
		break;
	case TK_POLL:
		yarn_hb_poll(y, s, (int)(tag >> 2));
		break;
	default:
		sim_release_tasks(s, (int)(tag >> 2));
	}
}

static void yarn_fini(void *st)
{
	struct yarn *y = st;
	if (y->hb)
		yarn_hb_free(y);
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
	{.key = "nm_memory_mb", .type = POL_INT, .def = "0", .def_num = 0, .lo = 0,
	 .hi = 1073741824, .unit = "MiB",
	 .help = "yarn.nodemanager.resource.memory-mb of every NodeManager (yarn-default.xml: "
	 "8192; at most the node's memory); 0: the node group's nodemanager key, else the "
	 "whole node"},
	{.key = "nm_vcores", .type = POL_INT, .def = "0", .def_num = 0, .lo = 0, .hi = 1048576,
	 .unit = "vcores", .help = "yarn.nodemanager.resource.cpu-vcores of every NodeManager "
	 "(yarn-default.xml: 8); 0: the node group's nodemanager key, else the node's cores"},
	{.key = "max_am_resource_percent", .type = POL_NUM, .def = "0.1", .def_num = 0.1, .lo = 0,
	 .hi = 1, .help = "yarn.scheduler.capacity.maximum-am-resource-percent: the share of "
	 "the cluster's memory AMs may hold"},
	{.key = "nm_heartbeat", .type = POL_TIME, .def = "1s", .def_num = 1e6, .lo = 0, .hi = 3600e6,
	 .help = "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms: containers are assigned "
	 "on a node only when it heartbeats; 0: at once"},
	{.key = "nm_heartbeat_phase", .type = POL_CHOICE, .choices = phase_choices, .def = "random",
	 .help = "each node's heartbeat phase: random (keyed by seed and node) or zero (all at 0)"},
	{.key = "oob_heartbeat", .type = POL_BOOL, .def = "true",
	 .help = "a NodeManager heartbeats at once when a container on it ends, and every "
	 "nm_heartbeat from then (Hadoop's out-of-band heartbeat); false: fixed phases"},
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
