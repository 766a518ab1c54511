/* yarn_hb.c - yarn's allocation latency (nm_heartbeat > 0): the
 * NodeManagers' heartbeats and the AM's allocate() polls (yarn_int.h;
 * yarn.c's header comment says what is modelled).  Calls yarn_size.c.
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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "yarn_int.h"

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
		if (!yarn_by_master(j->shape, r) && j->live->granted[r] < j->shape->role[r].count)
			n += j->shape->role[r].count - j->live->granted[r];
	return n;
}

/* The allocator's next role: the first of its roles still short. */
static int exec_role(const struct sim_job *j)
{
	for (int r = 0; r < j->shape->nroles; r++)
		if (!yarn_by_master(j->shape, r) && j->live->granted[r] < j->shape->role[r].count)
			return r;
	return 0;
}

/* A master's role still short, or -1. */
static int master_role(const struct sim_job *j)
{
	for (int r = 0; r < j->shape->nroles; r++)
		if (yarn_by_master(j->shape, r) && j->live->granted[r] < j->shape->role[r].count)
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
		*sh = (struct pol_shape){CLU_MILLI, yarn_master_mib(&y->k, j->shape, which), 0, 0};
		return RQ_AM;
	}
	if (!a->registered)
		return RQ_NONE;
	int mr = master_role(j);
	if (mr >= 0) {
		yarn_exec_shape(&y->k, j, mr, &sh->cores, &sh->mem_mib, &sh->gpus);
		return RQ_PS;
	}
	int want = y->k.am_init_us ? a->asked : exec_wanted(j);
	if (want <= 0)
		return RQ_NONE;
	yarn_exec_shape(&y->k, j, j->shape->one_profile ? 0 : exec_role(j), &sh->cores, &sh->mem_mib,
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
	return yarn_fits(y, n, pol_clamp_cores(n->cores_free), n->mem_free, n->gpus_free, &sh);
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
	yarn_exec_shape(&y->k, j, 0, &sh.cores, &sh.mem_mib, &sh.gpus);
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

void yarn_hb_init(struct yarn *y, struct sim *s)
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

void yarn_hb_free(struct yarn *y)
{
	for (int i = 0; i < y->njobs; i++)
		free(y->app[i].promised);
	free(y->phase_us);
	free(y->order);
	free(y->pos);
	free(y->held_gpus);
}

void yarn_hb_schedule(struct yarn *y, struct sim *s)
{
	registered(y, s);
	arm(y, s);
}

void yarn_hb_heartbeat(struct yarn *y, struct sim *s, uint32_t gen)
{
	on_heartbeat(y, s, gen);
}

void yarn_hb_poll(struct yarn *y, struct sim *s, int job)
{
	on_poll(y, s, job);
	arm(y, s);
}

void yarn_hb_finished(struct yarn *y, struct sim *s, int job)
{
	struct yarn_app *a = &y->app[job];
	if (a->npromised) { /* assigned, never taken: back to the RM */
		struct pol_shape sh;
		yarn_exec_shape(&y->k, sim_job(s, job), 0, &sh.cores, &sh.mem_mib, &sh.gpus);
		for (int i = 0; i < a->npromised; i++)
			hold(y, a->promised[i], &sh, -1);
	}
	free(a->promised);
	a->promised = NULL;
	a->npromised = a->cap_promised = 0;
}

void yarn_hb_lost(struct yarn *y, struct sim *s, int job, const struct sim_exec *x)
{
	struct yarn_app *a = &y->app[job];
	if (x->role == SIM_ROLE_AM) {
		/* The allocator dies with its AM: containers assigned
		 * but not yet taken go back (the RM releases an
		 * attempt's unclaimed containers), and nothing polls
		 * until the next AM registers and asks anew. */
		struct pol_shape sh;
		yarn_exec_shape(&y->k, sim_job(s, job), 0, &sh.cores, &sh.mem_mib, &sh.gpus);
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
}
