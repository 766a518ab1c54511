/* yarn_hb.c - yarn's allocation latency (nm_heartbeat > 0): the
 * NodeManagers' heartbeats and the AM's allocate() polls (yarn_int.h;
 * yarn.c's header comment says what is modelled).  Calls yarn_size.c.
 *
 * The ResourceManager assigns containers only when a node heartbeats:
 * node n at phase(n) + k nm_heartbeat, its phase keyed by (seed, node),
 * until a container on it ends: then it beats at once, out of band, and
 * that instant is its phase (oob_heartbeat; oob_beat below);
 * at most max_offswitch_assignments per heartbeat (Spark's requests name
 * no node: every assignment is off-switch), to the first active
 * applications in arrival order whose request fits.  An AM container
 * (and an Angel parameter server, asked by Angel's master) is launched
 * when assigned; an executor container waits in the RM until the Spark
 * AM's next allocate() poll takes it (initial_allocation_interval > 0).
 *
 * No event per node per heartbeat: nodes are kept in heartbeat order on
 * a ring (pol_ring.h: keys (phase, node id), or (phase, a sequence past
 * every id) for a node that beat out of band), and one timer stands for
 * the next heartbeat at which some request fits (the first node from
 * the cursor round the ring where it fits, through the ring's fit bits
 * per container size: O(log nodes)).  The applications asking are kept
 * in a set per container size (struct yarn rq), so that finding that
 * heartbeat, and a beat's application, looks at the sizes asked for,
 * not at every application: O(sizes × log nodes) per assignment.
 * Heartbeats that could assign nothing cost nothing; an out-of-band beat
 * moves its node on the ring, O(log nodes). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "yarn_int.h"

/* Node `node`'s first heartbeat at or after t. */
static int64_t next_beat(const struct yarn *y, int node, int64_t t)
{
	int64_t ph = y->phase_us[node], per = y->k.nm_hb_us;
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
	*sh = (struct pol_shape){0};
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

/* The request set of calculator shape `cs`, added if new; -1 past
 * YARN_MAX_RQ of them. */
static int rq_set(struct yarn *y, const struct pol_shape *cs)
{
	for (int k = 0; k < y->nrq; k++)
		if (pol_shape_eq(&y->rq[k].sh, cs))
			return k;
	if (y->nrq == YARN_MAX_RQ)
		return -1;
	struct yarn_rq *q = &y->rq[y->nrq];
	q->sh = *cs;
	q->n = 0;
	pol_bits_init(&q->jobs, y->njobs);
	return y->nrq++;
}

/* Keep `asking` to the applications with a request at the RM, and the
 * request sets to what each asks for.  Called wherever what request()
 * reads may have changed: a container assigned, launched or lost, an AM
 * up, a poll, a job let in or ended. */
static void note(struct yarn *y, const struct sim *s, int job)
{
	struct pol_shape sh;
	bool asks = request(y, s, job, &sh) != RQ_NONE;
	pol_tree_set(&y->asking, job, asks ? 0 : INFINITY);
	if (y->rq_off)
		return;
	int was = y->rq_of[job], now = -1;
	if (asks) {
		struct pol_shape cs = yarn_calc_shape(y, &sh);
		now = was >= 0 && pol_shape_eq(&y->rq[was].sh, &cs) ? was : rq_set(y, &cs);
		if (now < 0) { /* too many sizes: the scan from now on */
			y->rq_off = true;
			return;
		}
	}
	if (was == now)
		return;
	if (was >= 0) {
		pol_bits_put(&y->rq[was].jobs, job, false);
		y->rq[was].n--;
	}
	if (now >= 0) {
		pol_bits_put(&y->rq[now].jobs, job, true);
		y->rq[now].n++;
	}
	y->rq_of[job] = now;
}

/* Whether the request sets stand for `asking` (else scan it). */
static bool by_sets(const struct yarn *y)
{
	return y->indexed && !y->rq_off;
}

static bool fits_node(const struct yarn *y, const struct clu *c, int node,
		      const struct pol_shape *want)
{
	const struct clu_node *n = &c->nodes[node];
	return yarn_fits(y, n, pol_clamp_cores(n->cores_free), n->mem_free, n->gpus_free, want);
}

/* A key of the ring (pol_ring.h): (phase, sequence). */
struct hkey {
	int64_t a, b;
};

static bool key_before(const struct yarn *y, int node, struct hkey k)
{
	return pol_ring_before(&y->ring, node, k.a, k.b);
}

/* The first node from key `start` round the ring whose node fits
 * `want`, -1 if none: through the ring's fit bits, or (clu_plain_scan,
 * or past the shapes it keeps) a walk round the ring, O(nodes log nodes). */
static int first_fit(struct yarn *y, const struct clu *c, struct hkey start,
		     const struct pol_shape *want)
{
	struct pol_shape sh = yarn_calc_shape(y, want);
	int bit = y->indexed ? pol_ring_shape(&y->ring, &sh) : -1;
	if (bit >= 0)
		return pol_ring_first(&y->ring, bit, start.a, start.b);
	for (int x = pol_ring_at(&y->ring, start.a, start.b); x >= 0; x = pol_ring_next(&y->ring, x))
		if (fits_node(y, c, x, want))
			return x;
	for (int x = pol_ring_at(&y->ring, INT64_MIN, INT64_MIN); x >= 0 && key_before(y, x, start);
	     x = pol_ring_next(&y->ring, x))
		if (fits_node(y, c, x, want))
			return x;
	return -1;
}

/* Where heartbeats not yet done begin now: nodes from this key on beat
 * at or after now, those before it after now. */
static struct hkey beat_start(const struct yarn *y, const struct sim *s)
{
	int64_t now = sim_now(s);
	if (y->cur_us == now)
		return (struct hkey){y->cur_a, y->cur_b};
	return (struct hkey){now % y->k.nm_hb_us, INT64_MIN};
}

/* Whether node x, found round the ring from `start` (wraps: before
 * it), comes before the best so far (best -1: none). */
static bool sooner(const struct yarn *y, struct hkey start, int x, int best, bool best_wraps,
		   bool *wraps)
{
	*wraps = key_before(y, x, start);
	return best < 0 || *wraps < best_wraps ||
	       (*wraps == best_wraps &&
		key_before(y, x, (struct hkey){y->ring.s[best].ka, y->ring.s[best].kb}));
}

/* The first application of request set q that still asks, -1 if none.
 * An application that ended at this instant stays in its set until its
 * job_finished notice, which comes after the instant's events (a
 * heartbeat among them): it asks for nothing, and the reference scan
 * passes over it (request() says RQ_NONE), so the sets must too.  Every
 * other member's request is its set's (note() at each change). */
static int set_first(const struct yarn *y, const struct sim *s, int q)
{
	for (int job = pol_bits_next(&y->rq[q].jobs, 0); job >= 0;
	     job = pol_bits_next(&y->rq[q].jobs, job + 1))
		if (sim_job(s, job)->status < JOB_DONE)
			return job;
	return -1;
}

/* The next heartbeat at which some request fits: its node and time;
 * false if none.  Whether a node fits a request depends only on the part
 * of its container the calculator compares, so the answer is the first
 * of the nodes each size asked for fits first: O(sizes × log nodes)
 * through the request sets.  The reference (clu_plain_scan) looks at
 * every application asking, the first of each container size (ties go
 * to the earlier): O(asking applications + sizes × log nodes). */
static bool next_useful(struct yarn *y, struct sim *s, int *node, int64_t *at)
{
	const struct clu *c = sim_cluster(s);
	struct hkey start = beat_start(y, s);
	int best = -1, njobs = sim_njobs(s), nseen = 0;
	bool best_wraps = false, wraps;
	if (by_sets(y)) {
		for (int k = 0; k < y->nrq; k++) {
			if (!y->rq[k].n || set_first(y, s, k) < 0)
				continue;
			int x = first_fit(y, c, start, &y->rq[k].sh);
			if (x >= 0 && sooner(y, start, x, best, best_wraps, &wraps)) {
				best = x;
				best_wraps = wraps;
			}
		}
	} else {
		/* the node that beats next: no other can come before it */
		int head = pol_ring_at(&y->ring, start.a, start.b);
		if (head < 0)
			head = pol_ring_at(&y->ring, INT64_MIN, INT64_MIN);
		struct pol_shape seen[8];
		for (int job = pol_tree_min(&y->asking, 0, njobs);
		     job >= 0 && (best < 0 || best != head);
		     job = pol_tree_min(&y->asking, job + 1, njobs)) {
			struct pol_shape sh;
			if (request(y, s, job, &sh) == RQ_NONE)
				continue;
			bool dup = false;
			for (int k = 0; k < nseen && !dup; k++)
				dup = pol_shape_eq(&seen[k], &sh);
			if (dup)
				continue;
			if (nseen < 8)
				seen[nseen++] = sh;
			int x = first_fit(y, c, start, &sh);
			/* round the ring from start: those at or after it first */
			if (x >= 0 && sooner(y, start, x, best, best_wraps, &wraps)) {
				best = x;
				best_wraps = wraps;
			}
		}
	}
	if (best < 0)
		return false;
	*node = best;
	*at = next_beat(y, best, best_wraps ? sim_now(s) + 1 : sim_now(s));
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
		pol_ring_touch(&y->ring, node);
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

/* A container of application `job` launched on `node`: where it
 * ends, that NodeManager heartbeats out of band (yarn_hb_finished). */
static void launched(struct yarn *y, int job, int node)
{
	struct yarn_app *a = &y->app[job];
	if (!y->k.oob)
		return;
	xgrow(&a->cnodes, &a->cap_cnodes, a->ncnodes + 1, sizeof *a->cnodes);
	a->cnodes[a->ncnodes++] = node;
}

static void launch_exec(struct yarn *y, struct sim *s, int job, int node,
			const struct pol_shape *sh)
{
	const struct sim_job *j = sim_job(s, job);
	int role = j->shape->one_profile ? sim_next_role(j) : exec_role(j);
	sim_launch_executor(s, job, role, node, sh->cores, sh->mem_mib, sh->gpus);
	launched(y, job, node);
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
	struct pol_shape sh = {0};
	yarn_exec_shape(&y->k, j, 0, &sh.cores, &sh.mem_mib, &sh.gpus);
	for (int i = 0; i < a->npromised; i++) {
		int node = a->promised[i];
		hold(y, node, &sh, -1);
		if (exec_wanted(j) > 0 && clu_fits(&sim_cluster(s)->nodes[node], sh.cores,
						   sh.mem_mib, sh.gpus, false))
			launch_exec(y, s, job, node, &sh);
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
		launched(y, job, node);
		a->relaunch = -1;
		if (j->live->ams_live == a->ams)
			pol_queue_push(&y->parked, job);
	} else if (rq == RQ_PS) {
		sim_launch_executor(s, job, master_role(j), node, sh->cores, sh->mem_mib, sh->gpus);
		launched(y, job, node);
	} else if (!y->k.am_init_us) {
		launch_exec(y, s, job, node, sh);
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
 * each to the first application in arrival order whose request fits:
 * the first of each request set whose size fits the node, the earliest
 * of those (O(sizes)); the reference scans every application asking. */
static void beat(struct yarn *y, struct sim *s, int node)
{
	const struct clu *c = sim_cluster(s);
	int njobs = sim_njobs(s);
	for (int k = 0; k < y->k.offswitch; k++) {
		int job = -1;
		struct pol_shape sh;
		enum req rq = RQ_NONE;
		if (by_sets(y)) {
			for (int q = 0; q < y->nrq; q++)
				if (y->rq[q].n && fits_node(y, c, node, &y->rq[q].sh)) {
					int first = set_first(y, s, q);
					if (first >= 0 && (job < 0 || first < job))
						job = first;
				}
			if (job >= 0)
				rq = request(y, s, job, &sh);
		} else {
			for (job = pol_tree_min(&y->asking, 0, njobs); job >= 0;
			     job = pol_tree_min(&y->asking, job + 1, njobs)) {
				rq = request(y, s, job, &sh);
				if (rq != RQ_NONE && fits_node(y, c, node, &sh))
					break;
			}
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
	int x;
	int64_t at;
	while (next_useful(y, s, &x, &at) && at == sim_now(s)) {
		beat(y, s, x);
		y->cur_a = y->ring.s[x].ka;
		y->cur_b = y->ring.s[x].kb + 1;
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

/* A container on `node` ended (oob): its NodeManager heartbeats now, out
 * of band, and then every nm_heartbeat from this beat (Hadoop 3.3.6:
 * ContainerImpl.ContainerDoneTransition calls NodeStatusUpdater.
 * sendOutofBandHeartBeat, whose notify wakes StatusUpdaterRunnable's
 * heartbeatMonitor.wait(nextHeartBeatInterval) at once; the wait after
 * that beat is the whole interval).  Its new place on the ring is its
 * new phase, after every node of that phase (a sequence past every node
 * id), so that it beats now even where this instant's beats of its
 * phase are done: the next useful heartbeat is armed by the schedule
 * hook that follows. */
static void oob_beat(struct yarn *y, struct sim *s, int node)
{
	int64_t ph = sim_now(s) % y->k.nm_hb_us;
	y->phase_us[node] = ph;
	pol_ring_move(&y->ring, node, ph, (int64_t)y->ring.n + y->oob_seq++);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

void yarn_hb_init(struct yarn *y, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	size_t n = (size_t)(c->n ? c->n : 1);
	y->phase_us = xcalloc(n, sizeof *y->phase_us);
	int64_t *seq = xcalloc(n, sizeof *seq);
	for (int i = 0; i < c->n; i++) {
		struct rng_key k = rng_key(sim_seed(s), 0, YARN_RNG_HEARTBEAT, (uint32_t)i, 0, 0);
		y->phase_us[i] = y->k.phase_zero ? 0 : (int64_t)(rng_u01(k, 0) * (double)y->k.nm_hb_us);
		seq[i] = i; /* ties of phase in node order */
	}
	pol_ring_init(&y->ring, c, yarn_key, y, y->phase_us, seq);
	free(seq);
	y->held_gpus = xcalloc(n, sizeof *y->held_gpus);
	y->rq = xcalloc(YARN_MAX_RQ, sizeof *y->rq);
	y->rq_of = xmalloc((size_t)(y->njobs ? y->njobs : 1) * sizeof *y->rq_of);
	for (int j = 0; j < y->njobs; j++)
		y->rq_of[j] = -1;
	y->cur_us = -1;
	y->armed_us = -1;
	y->hb = true;
}

void yarn_hb_free(struct yarn *y)
{
	for (int i = 0; i < y->njobs; i++) {
		free(y->app[i].promised);
		free(y->app[i].cnodes);
	}
	free(y->phase_us);
	pol_ring_free(&y->ring);
	free(y->held_gpus);
	for (int k = 0; k < y->nrq; k++)
		pol_bits_free(&y->rq[k].jobs);
	free(y->rq);
	free(y->rq_of);
}

void yarn_hb_activated(struct yarn *y, const struct sim *s, int job)
{
	note(y, s, job);
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

/* The containers assigned to `job` and not yet taken given back to the
 * RM: their holds released, none left promised. */
static void unpromise(struct yarn *y, const struct sim *s, int job)
{
	struct yarn_app *a = &y->app[job];
	struct pol_shape sh = {0};
	yarn_exec_shape(&y->k, sim_job(s, job), 0, &sh.cores, &sh.mem_mib, &sh.gpus);
	for (int i = 0; i < a->npromised; i++)
		hold(y, a->promised[i], &sh, -1);
	a->npromised = 0;
}

void yarn_hb_poll(struct yarn *y, struct sim *s, int job)
{
	on_poll(y, s, job);
	arm(y, s);
}

void yarn_hb_finished(struct yarn *y, struct sim *s, int job)
{
	struct yarn_app *a = &y->app[job];
	unpromise(y, s, job); /* assigned, never taken: back to the RM */
	free(a->promised);
	a->promised = NULL;
	a->npromised = a->cap_promised = 0;
	/* its containers ended: each of their nodes heartbeats once, in
	 * node order */
	if (a->ncnodes > 1)
		qsort(a->cnodes, (size_t)a->ncnodes, sizeof *a->cnodes, cmp_int);
	for (int i = 0; i < a->ncnodes; i++)
		if (i == 0 || a->cnodes[i] != a->cnodes[i - 1])
			oob_beat(y, s, a->cnodes[i]);
	free(a->cnodes);
	a->cnodes = NULL;
	a->ncnodes = a->cap_cnodes = 0;
	note(y, s, job); /* it asks for nothing more */
}

void yarn_hb_lost(struct yarn *y, struct sim *s, int job, const struct sim_exec *x, int why)
{
	struct yarn_app *a = &y->app[job];
	for (int i = 0; i < a->ncnodes; i++)
		if (a->cnodes[i] == x->node) { /* the container is no more */
			a->cnodes[i] = a->cnodes[--a->ncnodes];
			/* a node that failed does not heartbeat; one that
			 * lost a container (preempted) does */
			if (why != SIM_WHY_NODE_FAILED)
				oob_beat(y, s, x->node);
			break;
		}
	if (x->role == SIM_ROLE_AM) {
		/* The allocator dies with its AM: containers assigned
		 * but not yet taken go back (the RM releases an
		 * attempt's unclaimed containers), and nothing polls
		 * until the next AM registers and asks anew. */
		unpromise(y, s, job);
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
