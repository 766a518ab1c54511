/* sim.c - the event loop, executor and task lifecycle, Spark's in-app
 * dispatch, timers and device requests for job models, processor
 * sharing, invariants.
 *
 * Work per event is bounded by what the event touches: the job, its
 * executors, one node and the tasks running on it.  Nothing here scans all
 * nodes or all jobs, except the final checks at the end of a run.
 */
#include "sim.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "arrival.h"
#include "eq.h"
#include "policy.h"
#include "rng.h"
#include "share.h"
#include "util.h"

#ifndef SIM_CHECK_EVERY_EVENT
#define SIM_CHECK_EVERY_EVENT 0 /* 1 in the sanitizer build (make SAN=1) */
#endif

enum ev_kind {
	EV_ARRIVE,     /* obj = job */
	EV_EXEC_READY, /* obj = executor */
	EV_TASK_END,   /* obj = run slot; counts if its seq is the slot's end_seq
			  (its own end event or its node's: struct run) */
	EV_JOB_TIMER,  /* obj = job timer slot (struct jtimer) */
	EV_EXEC_TIMER, /* obj = executor: its model's timer, or its release
			  after a preemption (timer_tag TAG_RELEASE) */
	EV_POLICY_TIMER, /* obj = the policy's tag (sim_policy_timer) */
	EV_NODE,       /* obj = node << 2 | enum node_ev: a failure or repair */
	EV_SPECULATE,  /* Spark's speculation check, every interval while tasks run */
};
static const char *const ev_names[] = {"arrival", "executor-ready", "task-end",
				       "job-timer", "executor-timer", "policy-timer",
				       "node", "speculation"};
_Static_assert(EV_SPECULATE < EQ_KIND_LIMIT, "event kinds fit the queue's bits");

/* Node events: failures and repairs drawn from the group's MTBF and MTTR
 * (one pending per node at a time), and scripted outages. */
enum node_ev { NE_FAIL, NE_REPAIR, NE_OUT, NE_BACK };

/* An executor timer's tag that is the kernel's: a preempted executor's
 * release, once its model's preemption cost is paid. */
#define TAG_RELEASE 255
/* A job timer's tag that is the kernel's: the locality wait of one of
 * the job's stages (its gen: the stage) ends (loc_wake); it counts if
 * it is the stage's wake_us. */
#define TAG_LOC 255
/* Another: a stage's release time (sim_dag_stage.release_us) has come
 * (its gen: the stage). */
#define TAG_STAGE 254

/* A pending job timer (sim_job_timer): its event's obj is its slot,
 * which goes back to the free list when the event is popped or dropped. */
struct jtimer {
	int job;
	int tag;
	uint32_t gen;          /* the job's count of state changes (sim.jgen)
				  when it was set */
	int next;              /* free list */
};

enum task_state { T_PENDING, T_RUNNING, T_DONE };

/* Delay scheduling of a stage whose tasks prefer nodes (Spark's
 * TaskSetManager with two locality levels, NODE_LOCAL and ANY;
 * docs/model.md, "Data locality").  A free slot asks for the pending task
 * of lowest index that prefers its node, and only the nodes of the job's
 * executors are ever asked about: so the pending tasks are listed, in
 * index order, per node asked (loc_local), each list made by one pass
 * over the preferences the first time its node is asked.  A stage whose
 * tasks come to be asked about more than LOC_LAZY nodes (a job with
 * executors on many nodes) indexes them all at once instead: its (node,
 * task) pairs sorted, O(P log P) for P preferences.  Made from the job's
 * arena when the stage is built (loc_build), the lists when they are
 * asked for; a stage whose tasks prefer no node has none. */
#define LOC_LAZY 8
struct loc_list {
	int node;              /* -1: the tasks that prefer none */
	int n, cur;            /* the entries before cur are taken */
	int *task;             /* n tasks preferring node, ascending */
};
struct loc {
	const int *pref;       /* the DAG's: npref node ids per task, -1 none */
	int npref;
	int ntasks;
	const double *remote_mib; /* the DAG's, or NULL */
	struct arena *ar;      /* the job's: where the lists are made */
	uint8_t *taken;        /* a bit per task: dispatched once (no longer
				  pending; a killed one runs again from the
				  stage's redo) */
	struct loc_list none;  /* the tasks that prefer no node */
	struct loc_list lazy[LOC_LAZY]; /* per node asked, until `full` */
	int nlazy;
	bool full;             /* every node indexed: the four arrays below */
	int *task;             /* tasks by preferred node, node by node, each
				  node's in index order: node d's are
				  task[lo[d] .. lo[d + 1]) */
	int *node;             /* the ndist nodes preferred, ascending */
	int *lo;               /* ndist + 1 */
	int *cur;              /* per node: the entries before it are taken */
	int ndist;
	int pending_pref;      /* pending tasks that prefer a node */
	int clear_upto;        /* no pending task prefers the node of the job's
				  execs[0 .. clear_upto): so it stays, as
				  tasks only leave the lists and executors
				  are only appended (loc_none_local) */
	bool started;          /* offered a slot: last_us is set */
	bool any;              /* at level ANY; else NODE_LOCAL */
	int64_t last_us;       /* Spark's lastLaunchTime */
	int64_t wake_us;       /* its wait ends then: a kernel job timer
				  (TAG_LOC) offers its slots again; 0: none */
};

struct sim_stage {
	const double *work_us; /* per task: its work, from the job model
				  (sim_dag_stage; copied here with ntasks, one
				  cache miss less per task start and end) */
	int ntasks;
	int next;              /* next task to dispatch */
	int done;              /* tasks finished */
	int parents_left;      /* parent stages not finished */
	int *children; int nchildren; /* stages waiting on this one; owned */
	uint8_t *state;        /* enum task_state per task, only with sim_recount
				  (a check, and a cache miss per task); owned */
	int *redo; int nredo;  /* tasks killed (their executor was lost), to run
				  again before `next`: a stack; from the job's
				  arena, ntasks long, made at the first kill */
	uint8_t *fails;        /* failed attempts per task (counted losses), from
				  the arena at the first one */
	double *took_us;       /* with speculation: durations of the tasks done,
				  in the order they ended (the median's) */
	double median_us;      /* their median when `median_done` were done */
	int median_done;       /* 0: not taken yet */
	struct loc *loc;       /* its tasks prefer nodes: their delay
				  scheduling; NULL for none (then `next` is the
				  next task, else the first one not taken) */
	int64_t first_start_us;/* its first task's start, for the stage sink
				  (recorded only with one set); -1 before */
	int running;           /* its tasks running (FAIR scheduling) */
	int64_t delay_us;      /* the DAG's delay_us, not yet applied */
};

/* One executor of a job as the in-application dispatcher sees it, kept in
 * the job's own array: finding a free task slot then reads one small
 * array instead of every executor record, which on a large cluster are
 * all cache misses. */
struct sim_job_exec {
	int id;                  /* its executor slot (index of s->execs) */
	int node;
	int free;                /* task slots it can take now; 0 until ready */
};

/* A task running on an executor.  One that started without changing its
 * node's rate has an end event of its own, pushed when it started, and
 * is on its node's list (run_head); the first change of rate hands it
 * to the node's virtual clock (share.h), as one that started with a
 * change is at once.  Those tasks share one end event per node, for the
 * task that ends first, which moves when that changes.  `end_seq`, the
 * seq of the end event of this task that counts (UINT64_MAX: none
 * queued), tells stale ones apart. */
/* start_task sets every field: one added must be set there too. */
struct run {
	int job, stage, task, exec, node;
	int jpos;              /* its executor's index in the job's execs */
	struct sim_live *jr;   /* = jobs[job].live */
	struct sim_stage *st;  /* = &jr->stages[stage], for prefetching */
	uintptr_t je_addr;     /* address of its executor's entry in the job's
				  execs when it started: a prefetch hint only
				  (the array may have moved since), never
				  dereferenced */
	int cpus;              /* milli-cores it demands (task_cpus) */
	bool own;              /* its own end event (on the node's list), or
				  its node's (share.h) */
	bool copy;             /* a speculative copy */
	bool listed;           /* on its job's list of tasks to copy */
	bool running;          /* a live attempt (false: the slot is free) */
	double work_us;        /* its work, µs at rate 1 */
	int64_t from_us;       /* its work starts then (the launch delay) */
	int64_t start_us;      /* when it started (lost work, run time) */
	uint64_t end_seq;
	int prev, next;        /* the node's list of tasks with their own end
				  events; next: the free list, when free */
	int twin;              /* speculation: the other attempt of its task
				  (run slot), -1 if none */
};

struct sim {
	struct sim_pub pub;         /* first: the job array, which sim.h's
				       inline accessors read (jobs, njobs) */
	const struct scn *scn;
	const struct scn_policy *pcfg;
	const struct policy_ops *ops;
	void *pst;                  /* the policy's state */
	uint32_t rep;
	uint64_t seed;              /* this replication's seed */

	struct clu clu;
	struct eq q;
	int64_t now;                /* µs */
	int next_arrival;           /* next job whose arrival is not queued */

	struct sim_shape *shapes;   /* every group's shapes, in group order (its
				       model's shape hooks) */
	int *shape_base;            /* per job group: its first shape's index */
	int nshapes;
	struct sim_dag *dags;       /* per job group: the DAG all its jobs share
				       (dag_shared), once built (have_dag) */
	uint8_t *have_dag;          /* per job group: 0 none shared, 1 shared but
				       not built yet, 2 built into dag_ar */
	struct arena dag_ar;
	/* sim_live records: chunks of LIVE_CHUNK, which never move, so a
	 * record's address holds while its job has it */
	struct sim_live **chunks; int nchunks, cap_chunks;
	int nlive_made;             /* records ever handed out: slots below
				       it were set up, those above are not */
	int *free_live; int nfree, cap_free; /* records given back: a stack,
					       so the last one given back,
					       still in cache, serves next */
	int *ended; int nended, cap_ended; /* jobs ended: their records go
					       back at the end of the settle
					       round they ended in */
	struct sim_exec *execs; int cap_execs; /* slot pool of live executors */
	int free_exec;              /* free slot list (through node_next) */
	int nexecs;                 /* executors launched so far */
	sim_exec_sink exec_sink; void *exec_ctx;
	sim_stage_sink stage_sink; void *stage_ctx;
	sim_task_sink task_sink; void *task_ctx;
	sim_state_sink state_sink; void *state_ctx;
	sim_watch_fn watch; void *watch_ctx;
	uint32_t watch_every, watch_left;
	bool stopped;            /* the watch said stop */
	int64_t *state_since;          /* by job, with a state sink: when its
					  state began; NULL without one */
	struct run *runs; int cap_runs, free_run; /* slot pool, free list */
	struct jtimer *jtimers; int cap_jtimers, free_jtimer; /* job timers */
	struct ps ps;               /* processor sharing, per node (share.h) */

	int *dispatch; int ndispatch, cap_dispatch; /* jobs to dispatch */
	int *loc_buf; int cap_loc_buf; /* scratch: a locality list being made */
	int *order_buf; int cap_order_buf; /* scratch: dispatch_loc's stage order */
	int *offered; int noffered, cap_offered; /* offer-only: jobs arrived in
					       this instant, to drop if not placed */
	bool sched_dirty;           /* run the policy's schedule hook */
	int *notes; int nnotes, cap_notes; /* job_arrived (job) and job_finished
				       (~job) calls waiting for settle (notify) */
	int pol_depth;              /* policy hooks on the stack (a hook's request
				       can call another hook: time the outer one) */
	uint64_t pol_t0;            /* ticks() at the outer hook's entry */
	uint64_t pol_ticks;         /* ticks() inside hooks; policy_ns at the end */

	uint32_t *jgen;             /* per job: its model's state changes
				       (sim_job_set_state; calloc'ed: touched only
				       for jobs whose model changes state) */
	int *hold;                  /* per job: executors up that end its hold
				       (sim_hold_tasks), 0 when none (calloc'ed:
				       touched only for held jobs) */
	uint8_t *why;               /* per job: enum sim_why once it ended other
				       than done (calloc'ed: touched only for
				       those jobs) */

	struct sim_totals tot;
	int64_t integ_at;           /* integrals below are up to here */
	int64_t busy_cores, alloc_cores; /* current, milli-cores */
	int64_t alloc_mem;       /* MiB held by executors, current */
	int64_t alloc_gpus;              /* current, milli-GPUs */
	int train_gpus;                  /* current */

	uint64_t stale_ends;        /* superseded node end events still in the
				       queue (at most: some may have been popped) */
	bool overflow;              /* an event fell past SIM_TIME_MAX */
	enum ev_kind cur_kind;      /* event being handled, for messages */
	uint32_t cur_obj;
	bool in_event;

	/* node failures (docs/model.md, "Failures") */
	uint8_t *down;              /* per node: outages in force (0: up); NULL
				       when no group fails */
	int64_t *up_since;          /* per node: when its up-time began */
	uint32_t *cycles;           /* per node: random failures so far (draws) */
	int nodes_down;
	int64_t down_at;            /* node_down_us holds up to here */
	int node_events;            /* node events in the queue */
	bool gpu_aware;             /* the configured policy's (policy_ops.gpu_aware) */
	bool stragglers;            /* some node group has stragglers */
	bool spec_on;               /* the scenario's speculation is enabled */
	bool spec_armed;            /* a speculation check is queued */
	int64_t runs_live;          /* task attempts running, all jobs */
	int jobs_left;              /* jobs whose status is not final */
};

/* ---- policy hook timing (timing.csv) -------------------------------- */

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A cheap clock for the hooks, which run millions of times: the CPU's
 * time-stamp counter where there is one (x86-64: constant rate on every
 * CPU of the last fifteen years), else mono_ns.  Ticks are converted to
 * ns once per run, against mono_ns over the whole run (sim_run). */
static inline uint64_t ticks(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	return __builtin_ia32_rdtsc();
#else
	return (uint64_t)mono_ns();
#endif
}

/* Around every call of a policy hook.  Only the outermost hook is timed,
 * so that a hook called from inside another (job_finished from a
 * sim_reject_job in job_arrived) is not counted twice.  Wall time only:
 * it never feeds back into the simulation. */
static void pol_enter(struct sim *s)
{
	if (s->pol_depth++ == 0)
		s->pol_t0 = ticks();
}

static void pol_leave(struct sim *s)
{
	if (--s->pol_depth == 0)
		s->pol_ticks += ticks() - s->pol_t0;
}

/* Tell the policy that job `job` arrived (finished: false) or ended.  The
 * engine's own notices wait for the end of the timestamp, where settle
 * makes them, in order, just before schedule and inside the same timed
 * window: reading the clock costs ~12 ns in a virtual machine, four
 * times per job when each hook had its own window, a sixth of a farm
 * run's engine time.  Nothing but hooks reads a policy's state, so it
 * makes no difference when within the timestamp they run.  A notice
 * from inside a hook (a job a policy rejects) is made at once, as that
 * hook's timed window is open anyway. */
static void notify(struct sim *s, int job, bool finished)
{
	if (!(finished ? s->ops->job_finished : s->ops->job_arrived))
		return;
	if (s->pol_depth) {
		if (finished)
			s->ops->job_finished(s->pst, s, job);
		else
			s->ops->job_arrived(s->pst, s, job);
		return;
	}
	xgrow(&s->notes, &s->cap_notes, s->nnotes + 1, sizeof *s->notes);
	s->notes[s->nnotes++] = finished ? ~job : job;
}

/* Make the waiting notices, in order (a policy hook's window is open). */
static void deliver_notes(struct sim *s)
{
	for (int i = 0; i < s->nnotes; i++) {
		int k = s->notes[i];
		if (k >= 0)
			s->ops->job_arrived(s->pst, s, k);
		else
			s->ops->job_finished(s->pst, s, ~k);
	}
	s->nnotes = 0;
}

/* ---- invariants ---------------------------------------------------- */

static void die(const struct sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

static void vdie(const struct sim *s, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0), noreturn));

static void die(const struct sim *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdie(s, fmt, ap);
}

void sim_die(const struct sim *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdie(s, fmt, ap);
}

static void vdie(const struct sim *s, const char *fmt, va_list ap)
{
	char t[32], msg[1024];
	int n = snprintf(msg, sizeof msg, "hetsim: broken invariant at t=%s s", fmt_us(s->now, t));
	if (s->in_event)
		n += snprintf(msg + n, sizeof msg - (size_t)n, " (event %" PRIu64 ", %s of %u)",
			      s->tot.events, ev_names[s->cur_kind], s->cur_obj);
	n += snprintf(msg + n, sizeof msg - (size_t)n, ": ");
	vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
	fprintf(stderr, "%s\n", msg); /* one write: the line arrives whole */
	abort();
}

bool sim_recount = SIM_CHECK_EVERY_EVENT;
uint64_t sim_compact_min = 4096;
uint64_t sim_compactions;

/* After a change to node `id`: its load and executor count stay >= 0,
 * always (O(1); the free amounts' bounds are checked by clu_take and
 * clu_give on every change); with sim_recount, also recount the node from
 * its executors and running tasks (O(executors + tasks on the node), a
 * third of the time of a large run, so only in tests and the sanitizer
 * build). */
static void recount_node(const struct sim *s, int id);
static inline void check_node(const struct sim *s, int id)
{
	const struct clu_node *n = &s->clu.nodes[id];
	if (n->load < 0 || n->nexec < 0)
		die(s, "node %s: load %" PRId64 ", %d executors", n->name, n->load, n->nexec);
	if (sim_recount)
		recount_node(s, id);
}

static double node_rate(const struct clu_node *n);

static void recount_node(const struct sim *s, int id)
{
	const struct clu_node *n = &s->clu.nodes[id];
	int gpus = 0, ne = 0;
	int64_t cores = 0, load = 0;
	int64_t mem = 0;
	int gfree[CLU_MAX_GPUS]; /* each GPU's milli-GPUs free, as the executors say */
	for (int g = 0; g < n->gpus; g++)
		gfree[g] = CLU_GPU_MILLI;
	for (int e = n->exec_head; e >= 0; e = s->execs[e].node_next) {
		const struct sim_exec *x = &s->execs[e];
		if (!x->live || x->node != id)
			die(s, "executor %d listed on node %s is not live there", e, n->name);
		cores += x->cores;
		mem += x->mem_mib;
		uint64_t whole = x->gpu_mask | x->grab_mask;
		if (__builtin_popcountll(x->gpu_mask) != x->gpus ||
		    __builtin_popcountll(x->grab_mask) != x->gpus_grabbed ||
		    (x->gpu_mask & x->grab_mask))
			die(s, "executor %d on node %s: %d GPUs and %d grabbed, masks %#llx and %#llx",
			    x->id, n->name, x->gpus, x->gpus_grabbed,
			    (unsigned long long)x->gpu_mask, (unsigned long long)x->grab_mask);
		for (uint64_t b = whole; b; b &= b - 1)
			gfree[__builtin_ctzll(b)] -= CLU_GPU_MILLI;
		if (x->gpu_milli)
			gfree[x->gpu_share] -= x->gpu_milli;
		ne++;
	}
	if (!(s->down && s->down[id]))
		for (int g = 0; g < n->gpus; g++) {
			if (gfree[g] != n->gpu_free_m[g] || gfree[g] < 0)
				die(s, "node %s: GPU %d has %d milli-GPUs free, its executors leave %d",
				    n->name, g, n->gpu_free_m[g], gfree[g]);
			gpus += gfree[g] != CLU_GPU_MILLI;
			if (((n->gpu_idle >> g) & 1) != (gfree[g] == CLU_GPU_MILLI))
				die(s, "node %s: GPU %d idle bit %d with %d milli-GPUs free", n->name, g,
				    (int)((n->gpu_idle >> g) & 1), gfree[g]);
		}
	for (int r = n->run_head; r >= 0; r = s->runs[r].next) {
		const struct run *ru = &s->runs[r];
		if (ru->node != id || !ru->own || (ru->end_seq == UINT64_MAX && !s->overflow))
			die(s, "task of run %d listed on node %s runs on node %d, %s", r, n->name,
			    ru->node, ru->own ? "without its end event" : "on the node's clock");
		load += ru->cpus;
	}
	char why[256];
	if (n->rate != ps_rate(&s->ps, id) || n->rate != node_rate(n))
		die(s, "node %s: rate %.17g, its clock's %.17g, node_rate %.17g", n->name, n->rate,
		    ps_rate(&s->ps, id), node_rate(n));
	if (!ps_check(&s->ps, id, why, sizeof why))
		die(s, "node %s: %s", n->name, why);
	for (int i = 0, k = ps_ntasks(&s->ps, id); i < k; i++) {
		const struct run *ru = &s->runs[ps_task(&s->ps, id, i)];
		if (ru->node != id || ru->own)
			die(s, "task of run %d on node %s's clock runs on node %d%s", ps_task(&s->ps, id, i),
			    n->name, ru->node, ru->own ? " with its own end event" : "");
		load += ru->cpus;
	}
	int ev = s->ps.nodes[id].ev_run;
	if (ps_ntasks(&s->ps, id) && !s->overflow && (ev < 0 || s->runs[ev].end_seq == UINT64_MAX))
		die(s, "node %s runs %d tasks on its clock but has no end event for them", n->name,
		    ps_ntasks(&s->ps, id));
	if (n->mem_free < 0 || n->gpus_free < 0)
		die(s, "node %s has negative free memory (%" PRId64 " MiB) or GPUs (%d)",
		    n->name, n->mem_free, n->gpus_free);
	if (s->down && s->down[id]) { /* down: nothing runs, nothing is free */
		if (ne || load || n->cores_free || n->mem_free || n->gpus_free)
			die(s, "node %s is down but has %d executors, load %" PRId64 ", free %" PRId64
			    " milli-cores, %" PRId64 " MiB, %d GPUs", n->name, ne, load, n->cores_free,
			    n->mem_free, n->gpus_free);
		return;
	}
	if (cores != n->cores - n->cores_free || mem != n->mem_mib - n->mem_free ||
	    gpus != n->gpus - n->gpus_free || ne != n->nexec)
		die(s, "node %s: executors hold %" PRId64 " milli-cores, %" PRId64 " MiB, %d GPUs (not "
		    "idle) in %d executors, but the node has %" PRId64 ", %" PRId64 ", %d in use in %d",
		    n->name, cores, mem, gpus, ne, n->cores - n->cores_free,
		    n->mem_mib - n->mem_free, n->gpus - n->gpus_free, n->nexec);
	if (load != n->load)
		die(s, "node %s: running tasks demand %" PRId64 " milli-cores, load says %" PRId64,
		    n->name, load, n->load);
}

static void check_all(const struct sim *s)
{
	int64_t fc = 0, fm = 0, fg = 0;
	for (int i = 0; i < s->clu.n; i++) {
		const struct clu_node *n = &s->clu.nodes[i];
		check_node(s, i);
		fc += n->cores_free > 0 ? n->cores_free : 0;
		fm += n->mem_free;
		fg += n->gpus_free;
	}
	if (fc != s->clu.free_cores || fm != s->clu.free_mem_mib || fg != s->clu.free_gpus)
		die(s, "cluster free totals (%" PRId64 ", %" PRId64 ", %" PRId64
		    ") differ from the nodes' (%" PRId64 ", %" PRId64 ", %" PRId64 ")",
		    s->clu.free_cores, s->clu.free_mem_mib, s->clu.free_gpus, fc, fm, fg);
}

/* ---- time integrals (utilisation) ---------------------------------- */

/* Bring the integrals up to now; call before changing what they integrate. */
static inline void integrate(struct sim *s)
{
	double dt = (double)(s->now - s->integ_at);
	if (dt > 0) {
		/* in cores: whole ones are the integers they were before
		 * milli-cores, so the sums are bit for bit the same */
		s->tot.core_busy_us += dt * ((double)s->busy_cores / CLU_MILLI);
		s->tot.gpu_busy_us += dt * s->train_gpus;
		s->tot.core_alloc_us += dt * ((double)s->alloc_cores / CLU_MILLI);
		s->tot.gpu_alloc_us += dt * ((double)s->alloc_gpus / CLU_GPU_MILLI);
		s->tot.mem_alloc_us += dt * (double)s->alloc_mem;
	}
	s->integ_at = s->now;
}

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

/* ---- slot pools ---------------------------------------------------- */

/* A slot of a pool of records (an array that grows, never shrinks)
 * whose free records are threaded through an int at next_off, -1 ending
 * the list: the first free one, the array grown (xgrow) when none is,
 * its new records zeros but for their link.
 * Executors, task runs and job timers are pools.  Inlined: size and
 * next_off are constants where it is called. */
static inline int slot_take(void *arrp, int *cap, int *free_head, size_t size, size_t next_off)
{
	char **arr = arrp;
	if (*free_head < 0) {
		int old = *cap;
		xgrow(arr, cap, old + 1, size);
		memset(*arr + (size_t)old * size, 0, (size_t)(*cap - old) * size); /* free: zeros */
		for (int k = *cap - 1; k >= old; k--) {
			*(int *)(void *)(*arr + (size_t)k * size + next_off) = *free_head;
			*free_head = k;
		}
	}
	int k = *free_head;
	*free_head = *(int *)(void *)(*arr + (size_t)k * size + next_off);
	return k;
}

/* ---- what jobs hold (struct sim_live) ------------------------------ */

#define LIVE_CHUNK 256

/* What every job holds before its first executor: nothing.  Read-only
 * (a write would fault): the engine gives a job its own record first. */
static const struct sim_live no_live = {.slot = -1};

static inline bool has_live(const struct sim_job *j)
{
	return j->live != &no_live;
}

/* Job j gets its first executor: a record from the pool. */
static struct sim_live *live_get(struct sim *s, struct sim_job *j)
{
	struct sim_live *r;
	if (s->nfree > 0) { /* one given back: clean, keeping the memory of
			       its last job's arrays */
		int slot = s->free_live[--s->nfree];
		r = &s->chunks[slot / LIVE_CHUNK][slot % LIVE_CHUNK];
		*r = (struct sim_live){.execs = r->execs, .cap_execs = r->cap_execs,
				       .spec = r->spec, .cap_spec = r->cap_spec,
				       .ar = r->ar, .slot = slot};
	} else { /* the next never used; a chunk is set up record by record
		    as they are first taken (a one-job replication takes one) */
		int slot = s->nlive_made++;
		if (slot == s->nchunks * LIVE_CHUNK) {
			xgrow(&s->chunks, &s->cap_chunks, s->nchunks + 1, sizeof *s->chunks);
			s->chunks[s->nchunks++] = xmalloc(LIVE_CHUNK * sizeof **s->chunks);
			xgrow(&s->free_live, &s->cap_free, s->nchunks * LIVE_CHUNK,
			      sizeof *s->free_live);
		}
		r = &s->chunks[slot / LIVE_CHUNK][slot % LIVE_CHUNK];
		*r = (struct sim_live){.slot = slot};
	}
	j->live = r;
	return r;
}

/* The jobs that ended give their records back.  Called at the end of
 * settle(), once the policy's decisions and the dispatches that follow
 * the events are over: until then a policy hook or a queued dispatch may
 * still look at a job that just ended (and find it ended).  Events that
 * come later, at the same time or after, find a released executor's
 * events stale (ev_seq), and a job timer stale by its status. */
static void live_put_ended(struct sim *s)
{
	for (int i = 0; i < s->nended; i++) {
		struct sim_job *j = &s->pub.jobs[s->ended[i]];
		struct sim_live *r = j->live;
		arena_reset(&r->ar);
		s->free_live[s->nfree++] = r->slot; /* room: one per slot made */
		j->live = (struct sim_live *)&no_live;
	}
	s->nended = 0;
}

/* ---- small helpers ------------------------------------------------- */

static inline void queue_dispatch(struct sim *s, struct sim_job *j)
{
	if (j->live->dispatch_queued)
		return;
	j->live->dispatch_queued = true;
	xgrow(&s->dispatch, &s->cap_dispatch, s->ndispatch + 1, sizeof *s->dispatch);
	s->dispatch[s->ndispatch++] = j->id;
}

static bool job_active(const struct sim_job *j)
{
	return j->status == JOB_WAITING || j->status == JOB_RUNNING;
}

int sim_next_role(const struct sim_job *j)
{
	for (int r = 0; r < j->shape->nroles; r++)
		if (j->live->granted[r] < j->shape->role[r].count)
			return r;
	return j->shape->nroles - 1;
}

void sim_job_estimate(const struct sim *s, const struct sim_job *j, int64_t *requested_us,
		      int64_t *actual_us)
{
	*requested_us = *actual_us = -1;
	if (j->shape->ops->estimate)
		j->shape->ops->estimate(s->scn, j->group, j->index, requested_us, actual_us);
}

double sim_job_throughput(const struct sim *s, const struct sim_job *j, const char *gpu_model)
{
	const struct scn_job_group *g = &s->scn->jobs[j->group];
	for (int i = 0; i < g->ntput; i++)
		if (!strcmp(g->tput[i].gpu_model, gpu_model))
			return g->tput[i].rate;
	if (g->ntput)
		return 0;
	return j->shape->ops->throughput ? j->shape->ops->throughput(s->scn, j->group, gpu_model)
					 : 1;
}

int sim_execs_wanted(const struct sim_job *j)
{
	int n = 0;
	for (int r = 0; r < j->shape->nroles; r++)
		if (j->live->granted[r] < j->shape->role[r].count)
			n += j->shape->role[r].count - j->live->granted[r];
	return n;
}

/* ---- processor sharing --------------------------------------------- */

/* Progress rate of each task working on node n, the one place it is
 * decided: its speed, times the share of a core each task gets when
 * running tasks demand more cores than the node has, divided by the
 * node's slowdown at its busy cores (contention: its group's table, set
 * by the loader; none: no division, the rate as before it existed).
 * Whatever it reads must change only where change_load is called
 * (share.h: the rate holds between two calls for a node); the load is
 * all of it. */
static double node_rate(const struct clu_node *n)
{
	double share = n->load > n->cores ? (double)n->cores / n->load : 1.0;
	double rate = n->cpu_speed * share;
	if (n->nbusy && n->load > CLU_MILLI) {
		/* busy cores: a core partly demanded counts as busy */
		int busy = (int)(((n->load < n->cores ? n->load : n->cores) + CLU_MILLI - 1) / CLU_MILLI);
		rate /= n->busy_slowdown[min_int(busy, n->nbusy) - 1];
	}
	return rate;
}

/* Queue an event at `t` µs (real: rates may make it fractional, rounded
 * to the nearest µs) and return its seq.  Past SIM_TIME_MAX the run
 * stops: sim_run fails. */
static uint64_t push_at(struct sim *s, double t, enum ev_kind kind, uint32_t obj)
{
	if (!(t <= (double)SIM_TIME_MAX)) {
		s->overflow = true;
		return UINT64_MAX;
	}
	return eq_push(&s->q, (int64_t)round_half_away(t), kind, obj);
}

/* Queue the arrival of job j, as push_at, in the queue's side slot: one
 * arrival is pending at a time, and a heap push and pop per job would be
 * a third of a farm run's queue work (eq.h). */
static void push_arrival(struct sim *s, const struct sim_job *j)
{
	/* a Poisson arrival can fall past SIM_TIME_MAX (the loader bounds
	 * only the mean last arrival) */
	if (j->arrival_us > SIM_TIME_MAX) {
		s->overflow = true;
		return;
	}
	eq_push_aside(&s->q, j->arrival_us, EV_ARRIVE, (uint32_t)j->id);
}

/* Queue the end event of node `id`'s clock (share.h) for the task that
 * ends first there, unless the one queued already is (the same task at
 * the same time); the one it replaces is now stale.  Past SIM_TIME_MAX
 * the run stops. */
static void push_task_end(struct sim *s, int id)
{
	struct ps_node *pn = &s->ps.nodes[id];
	int64_t t = 0;
	int r = -1;
	if (ps_next(&s->ps, id, s->now, &t, &r) && r == pn->ev_run && t == pn->ev_us)
		return;
	if (pn->ev_run >= 0) {
		s->runs[pn->ev_run].end_seq = UINT64_MAX;
		s->stale_ends++;
	}
	pn->ev_run = -1;
	if (r < 0)
		return; /* no task runs there */
	if (t == PS_NEVER) {
		s->overflow = true;
		return;
	}
	pn->ev_run = r;
	pn->ev_us = t;
	s->runs[r].end_seq = eq_push(&s->q, t, EV_TASK_END, (uint32_t)r);
}

/* The load of node `id` changes by `delta` cores.  If that changes its
 * rate, the tasks with their own end events (pushed at a rate that no
 * longer holds: now stale) join its clock, at the rate they had until
 * now, and the clock takes the new rate: O(tasks with their own events
 * + log k), and each task joins once.  Returns whether the rate changed
 * (the caller then moves the clock's end event, push_task_end). */
static bool change_load(struct sim *s, int id, int delta)
{
	struct clu_node *n = &s->clu.nodes[id];
	s->busy_cores -= n->load < n->cores ? n->load : n->cores;
	n->load += delta;
	s->busy_cores += n->load < n->cores ? n->load : n->cores;
	double rate = node_rate(n);
	if (rate == n->rate)
		return false;
	n->rate = rate; /* the node's copy: no look at its clock without a change */
	for (int r = n->run_head; r >= 0; r = s->runs[r].next) {
		struct run *ru = &s->runs[r];
		ru->own = false;
		if (ru->end_seq != UINT64_MAX)
			s->stale_ends++; /* the end event queued before is now stale */
		ru->end_seq = UINT64_MAX;
		ps_add(&s->ps, id, r, ru->work_us, ru->from_us, s->now); /* its end was
								   in range */
	}
	n->run_head = -1;
	ps_set_rate(&s->ps, id, rate, s->now);
	return true;
}

/* ---- executors ------------------------------------------------------ */

int sim_launch_executor(struct sim *s, int job, int role, int node, int cores,
			int64_t mem_mib, int gpus)
{
	struct sim_gpu_ask g = {.count = gpus, .index = -1};
	return sim_launch_executor_on(s, job, role, node, cores, mem_mib, &g);
}

int sim_launch_executor_on(struct sim *s, int job, int role, int node, int cores,
			   int64_t mem_mib, const struct sim_gpu_ask *ga)
{
	if (job < 0 || job >= s->pub.njobs || node < 0 || node >= s->clu.n)
		die(s, "policy launched an executor for job %d on node %d: no such job or node",
		    job, node);
	struct sim_job *j = &s->pub.jobs[job];
	struct clu_node *n = &s->clu.nodes[node];
	int gpus = ga->milli ? 0 : ga->count, milli = ga->milli, share = -1;
	if (!job_active(j) || role < SIM_ROLE_AM || role >= j->shape->nroles || cores < 0 ||
	    mem_mib < 0 || gpus < 0 || milli < 0 || milli >= CLU_GPU_MILLI ||
	    (ga->mask && __builtin_popcountll(ga->mask) != gpus))
		die(s, "policy launched an invalid executor (job %d, status %s, role %d)", job,
		    sim_status_name(j->status), role);
	if (milli) {
		share = ga->index >= 0 ? ga->index : clu_share_pick(n, milli);
		if (share < 0 || share >= n->gpus || clu_gpu_free(n, share) < milli ||
		    mem_mib > n->mem_free)
			die(s, "policy launched an executor of %" PRId64 " MiB and %d milli-GPUs of GPU "
			    "%d for job %d on node %s, which has %" PRId64 " MiB and no such share free",
			    mem_mib, milli, share, job, n->name, n->mem_free);
	} else if (!clu_fits(n, cores, mem_mib, gpus, false) || (ga->mask & ~n->gpu_idle))
		die(s, "policy launched an executor of %" PRId64 " MiB and %d GPUs for job %d on "
		    "node %s, which has %" PRId64 " MiB and %d GPUs free",
		    mem_mib, gpus, job, n->name, n->mem_free, n->gpus_free);

	integrate(s);
	int id = slot_take(&s->execs, &s->cap_execs, &s->free_exec, sizeof *s->execs,
			   offsetof(struct sim_exec, node_next));
	struct sim_exec *x = &s->execs[id];
	*x = (struct sim_exec){.id = s->nexecs++, .job = job, .role = role, .played = role,
			       .node = node,
			       .cores = cores, .mem_mib = mem_mib, .gpus = gpus,
			       .gpu_milli = milli, .gpu_share = share,
			       .launch_us = s->now, .ready_us = -1, .end_us = -1,
			       .gpu_from_us = gpus > 0 || milli ? s->now : -1, .gpu_to_us = -1,
			       .live = true, .node_prev = -1,
			       .node_next = n->exec_head};
	if (role == SIM_ROLE_AM)
		x->slots = 0; /* runs no task */
	else if (j->shape->role[role].slots >= 0)
		x->slots = j->shape->role[role].slots;
	else
		x->slots = j->shape->task_cpus ? cores / j->shape->task_cpus : cores;
	if (n->exec_head >= 0)
		s->execs[n->exec_head].node_prev = id;
	n->exec_head = id;
	n->nexec++;
	if (milli)
		clu_take_share(&s->clu, node, cores, mem_mib, share, milli);
	else
		x->gpu_mask = clu_take_at(&s->clu, node, cores, mem_mib, gpus, ga->mask);
	s->alloc_cores += cores;
	s->alloc_mem += mem_mib;
	s->alloc_gpus += milli ? milli : (int64_t)gpus * CLU_GPU_MILLI;

	struct sim_live *jr = has_live(j) ? j->live : live_get(s, j);
	xgrow(&jr->execs, &jr->cap_execs, jr->nexecs + 1, sizeof *jr->execs);
	x->jpos = jr->nexecs;
	jr->execs[jr->nexecs++] = (struct sim_job_exec){.id = id, .node = node, .free = 0};
	if (role == SIM_ROLE_AM) {
		j->live->ams_live++;
	} else {
		j->live->granted[role]++;
		j->live->cores_granted += cores;
		j->live->execs_live++;
	}
	j->gpus_used += milli ? 1 : gpus;
	x->ev_seq = push_at(s, (double)s->now + (double)s->scn->over.executor_startup_us,
			       EV_EXEC_READY, (uint32_t)id);
	check_node(s, node);
	return x->id;
}

static void release_exec(struct sim *s, int id)
{
	struct sim_exec *x = &s->execs[id];
	struct clu_node *n = &s->clu.nodes[x->node];
	struct sim_job *j = &s->pub.jobs[x->job];
	if (!x->live)
		die(s, "executor %d released twice", id);
	integrate(s);
	x->live = false;
	x->end_us = s->now;
	if (x->node_prev >= 0)
		s->execs[x->node_prev].node_next = x->node_next;
	else
		n->exec_head = x->node_next;
	if (x->node_next >= 0)
		s->execs[x->node_next].node_prev = x->node_prev;
	n->nexec--;
	if (x->gpus + x->gpus_grabbed > 0 || x->gpu_milli)
		x->gpu_to_us = s->now;
	if (x->gpu_milli) {
		clu_give_share(&s->clu, x->node, x->cores, x->mem_mib, x->gpu_share, x->gpu_milli);
		if (x->grab_mask)
			clu_give(&s->clu, x->node, 0, 0, x->grab_mask);
	} else {
		clu_give(&s->clu, x->node, x->cores, x->mem_mib, x->gpu_mask | x->grab_mask);
	}
	s->alloc_cores -= x->cores;
	s->alloc_mem -= x->mem_mib;
	s->alloc_gpus -= x->gpu_milli + (int64_t)(x->gpus + x->gpus_grabbed) * CLU_GPU_MILLI;
	if (x->role == SIM_ROLE_AM) {
		j->live->ams_live--;
	} else {
		j->live->cores_granted -= x->cores;
		j->live->execs_live--;
	}
	check_node(s, x->node);
	if (s->exec_sink)
		s->exec_sink(s->exec_ctx, s, x);
	x->ev_seq = UINT64_MAX; /* a queued event of this slot is now stale */
	x->node_next = s->free_exec;
	s->free_exec = id;
}

/* ---- jobs ---------------------------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Distinct nodes that hosted the job's executors. */
static int count_nodes(const struct sim_live *jr)
{
	/* Most jobs have a handful of executors: count the distinct nodes by
	 * comparing each with those before it, no allocation; sort above. */
	if (jr->nexecs <= 16) {
		int n = 0;
		for (int i = 0; i < jr->nexecs; i++) {
			int k = 0;
			while (k < i && jr->execs[k].node != jr->execs[i].node)
				k++;
			n += k == i;
		}
		return n;
	}
	int *nodes = xmalloc((size_t)jr->nexecs * sizeof *nodes);
	for (int i = 0; i < jr->nexecs; i++)
		nodes[i] = jr->execs[i].node;
	qsort(nodes, (size_t)jr->nexecs, sizeof *nodes, cmp_int);
	int n = 1;
	for (int i = 1; i < jr->nexecs; i++)
		n += nodes[i] != nodes[i - 1];
	free(nodes);
	return n;
}

/* The job ends now with status `st`, reason `why` (enum sim_why) and
 * end time `end_us` (s->now, or -1 for a job that never ended: a
 * rejected one, or see finish): its executors go back, the policy
 * forgets it.  Tasks still running (a rejected job) are not
 * possible: only jobs without running tasks end other than DONE.  Every
 * field of the job that outputs read is final before its executors go
 * back (sim.h, sim_exec_sink). */
static bool kill_tasks(struct sim *s, struct sim_job *j, int id, bool counts, bool requeue);

static void end_job(struct sim *s, struct sim_job *j, enum sim_job_status st, int why,
		    int64_t end_us)
{
	if (!job_active(j))
		die(s, "job %d ended twice", j->id);
	struct sim_live *jr = j->live;
	if (st == JOB_DONE && !has_live(j))
		die(s, "job %d done without executors", j->id);
	if (jr->tasks_running && st == JOB_DONE)
		die(s, "job %d done with %d tasks running", j->id, jr->tasks_running);
	if (jr->tasks_running) /* it failed: Spark kills the tasks it still runs */
		kill_tasks(s, j, -1, false, false);
	if (st == JOB_DONE && jr->nstages != jr->stages_done)
		die(s, "job %d done with %d of %d stages", j->id, jr->stages_done, jr->nstages);
	if ((st == JOB_DONE) != (why == SIM_WHY_NONE) || why < 0 || why >= SIM_WHY_CODES)
		die(s, "job %d ends %s with reason %d", j->id, sim_status_name(st), why);
	if (why)
		s->why[j->id] = (uint8_t)why; /* before the status: see sim_exec_sink */
	if (s->state_sink) /* the state it ends in */
		s->state_sink(s->state_ctx, s, j, j->mstate, s->state_since[j->id], end_us);
	j->status = st;
	j->end_us = end_us;
	if (j->shape->ops->teardown)
		j->shape->ops->teardown(s, j);
	if (has_live(j)) {
		if (jr->busy_gpus)
			sim_job_busy_gpus(s, j, 0);
		j->nodes_used = count_nodes(jr);
		for (int i = 0; i < jr->nexecs; i++)
			if (jr->execs[i].id >= 0) /* not lost before */
				release_exec(s, jr->execs[i].id);
		jr->nexecs = 0;
		jr->stages = NULL; /* its arena is reset when the record goes back */
		jr->nstages = 0;
		xgrow(&s->ended, &s->cap_ended, s->nended + 1, sizeof *s->ended);
		s->ended[s->nended++] = j->id;
	}
	if (j->end_us > s->tot.last_end_us)
		s->tot.last_end_us = j->end_us;
	s->tot.jobs_done += st == JOB_DONE;
	s->jobs_left--;
	notify(s, j->id, true);
	s->sched_dirty = true;
}

void sim_reject_job(struct sim *s, int job, int why)
{
	struct sim_job *j = &s->pub.jobs[job];
	if (why == SIM_WHY_NONE)
		die(s, "policy rejected job %d without a reason", job);
	end_job(s, j, JOB_UNPLACEABLE, why, -1); /* no end: it never ran to one */
}

void sim_fail_job(struct sim *s, int job, int why)
{
	if (why == SIM_WHY_NONE)
		die(s, "policy failed job %d without a reason", job);
	int64_t last = s->tot.last_end_us;
	end_job(s, &s->pub.jobs[job], JOB_FAILED, why, s->now);
	s->tot.last_end_us = last; /* it never ran: not the end of the batch's work */
}

int sim_job_why(const struct sim *s, int job)
{
	return s->why[job];
}

void sim_build_dag(const struct scn *sc, int g, int idx, uint64_t seed, struct arena *a,
		   struct sim_dag *out)
{
	memset(out, 0, sizeof *out);
	out->task_delay_us = sc->over.task_launch_us;
	if (sc->jobs[g].ops->build)
		sc->jobs[g].ops->build(sc, g, idx, seed, a, out);
}

static void build_dag(struct sim *s, const struct sim_job *j, struct arena *a,
		      struct sim_dag *out)
{
	sim_build_dag(s->scn, j->group, j->index, s->seed, a, out);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The delay scheduling state of stage w of job j, from arena ar: the
 * preferences checked and the tasks that prefer none listed; the lists
 * per node are made when a node is first asked about (loc_local). */
static struct loc *loc_build(struct sim *s, const struct sim_job *j, struct arena *ar,
			     const struct sim_dag_stage *w)
{
	int n = w->ntasks, r = w->npref;
	if (r < 0 || r > SIM_MAX_PREF)
		die(s, "job %d: a stage's tasks prefer %d nodes each", j->id, r);
	struct loc *l = arena_zalloc(ar, sizeof *l);
	*l = (struct loc){.pref = w->pref, .npref = r, .ntasks = n, .remote_mib = w->remote_mib,
			  .ar = ar, .none = {.node = -1}};
	l->taken = arena_zalloc(ar, ((size_t)n + 7) / 8);
	int nn = 0;
	for (int t = 0; t < n; t++) {
		bool some = false;
		for (int i = 0; i < r; i++) {
			int v = w->pref[(size_t)t * (size_t)r + (size_t)i];
			if (v < -1 || v >= s->clu.n)
				die(s, "job %d: task %d prefers node %d, not in the cluster", j->id, t, v);
			some |= v >= 0;
		}
		if (some) {
			l->pending_pref++;
		} else {
			xgrow(&s->loc_buf, &s->cap_loc_buf, nn + 1, sizeof *s->loc_buf);
			s->loc_buf[nn++] = t;
		}
	}
	if (nn) {
		l->none.task = arena_alloc(ar, (size_t)nn * sizeof *l->none.task);
		memcpy(l->none.task, s->loc_buf, (size_t)nn * sizeof *l->none.task);
		l->none.n = nn;
	}
	return l;
}

static void stage_can_start(struct sim *s, struct sim_job *j, int i);

static void build_stages(struct sim *s, struct sim_job *j)
{
	struct sim_live *jr = j->live;
	struct sim_dag d;
	uint8_t *have = &s->have_dag[j->group];
	if (*have) { /* one DAG for the whole group, read-only */
		if (*have == 1)
			build_dag(s, j, &s->dag_ar, &s->dags[j->group]);
		*have = 2;
		d = s->dags[j->group];
	} else {
		build_dag(s, j, &jr->ar, &d);
	}
	jr->nstages = d.nstages;
	jr->stages = arena_zalloc(&jr->ar, (size_t)d.nstages * sizeof *jr->stages);
	jr->task_delay_us = d.task_delay_us;
	for (int i = 0; i < d.nstages; i++) {
		struct sim_stage *st = &jr->stages[i];
		const struct sim_dag_stage *w = &d.st[i];
		st->work_us = w->work_us;
		st->ntasks = w->ntasks;
		st->state = sim_recount ? arena_zalloc(&jr->ar, (size_t)w->ntasks) : NULL;
		if (s->scn->spec.enabled)
			st->took_us = arena_alloc(&jr->ar, (size_t)w->ntasks * sizeof *st->took_us);
		st->parents_left = w->nparents;
		st->first_start_us = -1;
		st->delay_us = w->delay_us;
		if (w->release_us > 0 && j->arrival_us + w->release_us > s->now) {
			/* held as by one more parent until its release time */
			st->parents_left++;
			int k = slot_take(&s->jtimers, &s->cap_jtimers, &s->free_jtimer,
					  sizeof *s->jtimers, offsetof(struct jtimer, next));
			s->jtimers[k] = (struct jtimer){.job = j->id, .tag = TAG_STAGE,
							.gen = (uint32_t)i, .next = -1};
			push_at(s, (double)(j->arrival_us + w->release_us), EV_JOB_TIMER, (uint32_t)k);
		}
		for (int p = 0; p < w->nparents; p++)
			jr->stages[w->parents[p]].nchildren++;
		if (w->npref > 0 && w->pref) {
			st->loc = loc_build(s, j, &jr->ar, w);
			jr->has_loc = true;
		}
	}
	/* each stage's children, in stage order */
	for (int i = 0; i < d.nstages; i++) {
		struct sim_stage *st = &jr->stages[i];
		st->children = arena_alloc(&jr->ar, (size_t)st->nchildren * sizeof *st->children);
		st->nchildren = 0;
	}
	for (int i = 0; i < d.nstages; i++)
		for (int p = 0; p < d.st[i].nparents; p++) {
			struct sim_stage *ps = &jr->stages[d.st[i].parents[p]];
			ps->children[ps->nchildren++] = i;
		}
	jr->fair = d.fair;
	for (int i = 0; i < d.nstages; i++)
		stage_can_start(s, j, i);
}

static void on_arrive(struct sim *s, struct sim_job *j)
{
	/* queue the next arrival: one pending arrival at a time keeps the
	 * event queue small whatever the number of jobs */
	if (s->next_arrival < s->pub.njobs)
		push_arrival(s, &s->pub.jobs[s->next_arrival++]);
	j->status = JOB_WAITING;
	if (s->scn->offer) {
		xgrow(&s->offered, &s->cap_offered, s->noffered + 1, sizeof *s->offered);
		s->offered[s->noffered++] = j->id;
	}
	if (j->shape->ops->arrived)
		j->shape->ops->arrived(s, j);
	/* the stages are built at the first dispatch (dispatch_job): memory
	 * then follows the running jobs, not the queue; their draws are keyed,
	 * so when they are made changes nothing */
	notify(s, j->id, false);
	s->sched_dirty = true;
}

/* ---- tasks --------------------------------------------------------- */

/* The first task of the first stage (in stage order) whose parents are
 * done, as Spark's FIFO order within an application. */
static bool next_task(struct sim_job *j, int *stage, int *task)
{
	int best = -1;
	for (int i = 0; i < j->live->nstages; i++) {
		struct sim_stage *st = &j->live->stages[i];
		if (st->parents_left == 0 && (st->next < st->ntasks || st->nredo)) {
			if (!j->live->fair) { /* FIFO: the first */
				best = i;
				break;
			}
			/* FAIR (FairSchedulingAlgorithm, minShare 0, weight 1):
			 * the fewest running tasks */
			if (best < 0 || st->running < j->live->stages[best].running)
				best = i;
		}
	}
	if (best < 0)
		return false;
	struct sim_stage *st = &j->live->stages[best];
	*stage = best;
	*task = st->nredo ? st->redo[st->nredo - 1] : st->next;
	return true;
}

/* Stage i of job j can start (its parents done, its release come): if
 * its DAG holds it a while more (delay_us), hold it now, once. */
static void stage_can_start(struct sim *s, struct sim_job *j, int i)
{
	struct sim_stage *st = &j->live->stages[i];
	if (st->parents_left || !st->delay_us)
		return;
	int k = slot_take(&s->jtimers, &s->cap_jtimers, &s->free_jtimer, sizeof *s->jtimers,
			  offsetof(struct jtimer, next));
	s->jtimers[k] = (struct jtimer){.job = j->id, .tag = TAG_STAGE, .gen = (uint32_t)i,
					.next = -1};
	push_at(s, (double)(s->now + st->delay_us), EV_JOB_TIMER, (uint32_t)k);
	st->delay_us = 0; /* once */
	st->parents_left = 1;
}

/* Start task `task` of stage `stage` of job j on its executor j->live->execs[e]. */
/* The slowdown of an attempt of task `task` of stage `stage` of job j
 * on node `node`: its group's straggler slowdown with its straggler
 * fraction's probability, else 1.  Keyed by (job, stage) with the task
 * and node as the draw: the same attempt on the same node is as slow
 * under every policy. */
static double straggle(const struct sim *s, const struct sim_job *j, int stage, int task,
		       int node)
{
	const struct scn_node_group *g = &s->scn->groups[s->clu.nodes[node].group];
	if (!(g->straggler_fraction > 0))
		return 1;
	struct rng_key k = rng_key(s->seed, 0, RNG_STRAGGLE, (uint32_t)j->group,
				   (uint32_t)j->index, (uint32_t)stage);
	double u = rng_u01(k, (uint64_t)task << 24 ^ (uint64_t)node);
	return u < g->straggler_fraction ? g->straggler_slowdown : 1;
}

/* ---- data locality: delay scheduling ------------------------------ */

/* Whether task t of a stage with locality prefers some node. */
static inline bool loc_prefers(const struct loc *l, int t)
{
	const int *p = l->pref + (size_t)t * (size_t)l->npref;
	for (int i = 0; i < l->npref; i++)
		if (p[i] >= 0)
			return true;
	return false;
}

static inline bool loc_taken(const struct loc *l, int t)
{
	return l->taken[t >> 3] >> (t & 7) & 1;
}

/* Task t of the stage is dispatched: no longer pending; `next` moves on
 * to the first task not taken. */
static inline void loc_take(struct sim_stage *st, int t)
{
	struct loc *l = st->loc;
	l->taken[t >> 3] |= (uint8_t)(1u << (t & 7));
	l->pending_pref -= loc_prefers(l, t);
	while (st->next < st->ntasks && loc_taken(l, st->next))
		st->next++;
}

/* The time task t, starting on `node`, first spends reading its input
 * over the network: 0 on a node it prefers (or if it prefers none), else
 * its remote MiB at the node's bandwidth; the launch counted local or
 * remote. */
static int64_t loc_read_us(struct sim *s, const struct loc *l, int t, int node)
{
	const int *p = l->pref + (size_t)t * (size_t)l->npref;
	bool some = false;
	for (int i = 0; i < l->npref; i++) {
		if (p[i] == node) {
			s->tot.tasks_local++;
			return 0;
		}
		some |= p[i] >= 0;
	}
	if (!some)
		return 0;
	s->tot.tasks_remote++;
	double bw = s->scn->groups[s->clu.nodes[node].group].net_mib_s;
	if (!l->remote_mib || !(bw > 0))
		return 0;
	double us = round_half_away(l->remote_mib[t] / bw * 1e6);
	return us < (double)SIM_TIME_MAX ? (int64_t)us : SIM_TIME_MAX;
}

/* The pending task of list d of lowest index, or -1: the entries before
 * the cursor are taken, so each is passed once. */
static int loc_first(const struct loc *l, struct loc_list *d)
{
	while (d->cur < d->n && loc_taken(l, d->task[d->cur]))
		d->cur++;
	return d->cur < d->n ? d->task[d->cur] : -1;
}

/* Every node's list at once (a stage asked about more than LOC_LAZY
 * nodes): the (node, task) pairs of the pending tasks sorted, O(P log P)
 * for P preferences; the lazy lists are dropped (they stay in the
 * arena until the job ends). */
static void loc_index_all(struct loc *l)
{
	int n = l->ntasks, r = l->npref;
	uint64_t *k = xmalloc(((size_t)n * (size_t)r + 1) * sizeof *k);
	size_t nk = 0;
	for (int t = 0; t < n; t++) {
		if (loc_taken(l, t))
			continue;
		for (int i = 0; i < r; i++) {
			int v = l->pref[(size_t)t * (size_t)r + (size_t)i];
			if (v >= 0)
				k[nk++] = (uint64_t)v << 32 | (uint32_t)t;
		}
	}
	qsort(k, nk, sizeof *k, cmp_u64);
	size_t m = 0; /* a node listed twice for a task counts once */
	for (size_t i = 0; i < nk; i++)
		if (m == 0 || k[i] != k[m - 1])
			k[m++] = k[i];
	int nd = 0;
	for (size_t i = 0; i < m; i++)
		nd += i == 0 || k[i] >> 32 != k[i - 1] >> 32;
	l->ndist = nd;
	l->task = arena_alloc(l->ar, (m ? m : 1) * sizeof *l->task);
	l->node = arena_alloc(l->ar, ((size_t)nd + 1) * sizeof *l->node);
	l->lo = arena_alloc(l->ar, ((size_t)nd + 1) * sizeof *l->lo);
	l->cur = arena_alloc(l->ar, ((size_t)nd + 1) * sizeof *l->cur);
	for (size_t i = 0, d = 0; i < m; i++) {
		if (i == 0 || k[i] >> 32 != k[i - 1] >> 32) {
			l->node[d] = (int)(k[i] >> 32);
			l->lo[d] = l->cur[d] = (int)i;
			d++;
		}
		l->task[i] = (int)(uint32_t)k[i];
	}
	l->lo[nd] = (int)m;
	free(k);
	l->full = true;
	l->nlazy = 0;
}

/* The list of the pending tasks that prefer node `node`, made now: one
 * pass over the preferences. */
static struct loc_list *loc_list_make(struct sim *s, struct loc *l, int node)
{
	int n = l->ntasks, r = l->npref, m = 0;
	const int *p = l->pref;
	for (int t = 0; t < n; t++, p += r) {
		if (loc_taken(l, t))
			continue;
		for (int i = 0; i < r; i++)
			if (p[i] == node) {
				xgrow(&s->loc_buf, &s->cap_loc_buf, m + 1, sizeof *s->loc_buf);
				s->loc_buf[m++] = t;
				break;
			}
	}
	struct loc_list *d = &l->lazy[l->nlazy++];
	*d = (struct loc_list){.node = node, .n = m};
	if (m) {
		d->task = arena_alloc(l->ar, (size_t)m * sizeof *d->task);
		memcpy(d->task, s->loc_buf, (size_t)m * sizeof *d->task);
	}
	return d;
}

/* The pending task of lowest index that prefers node `node`, or -1:
 * O(lists made) (or O(log nodes preferred) once all are indexed), plus
 * the entries passed for good; a node first asked about costs one pass
 * over the preferences. */
static int loc_local(struct sim *s, struct loc *l, int node)
{
	if (!l->pending_pref)
		return -1;
	if (!l->full) {
		for (int i = 0; i < l->nlazy; i++)
			if (l->lazy[i].node == node)
				return loc_first(l, &l->lazy[i]);
		if (l->nlazy < LOC_LAZY)
			return loc_first(l, loc_list_make(s, l, node));
		loc_index_all(l);
	}
	int a = 0, b = l->ndist;
	while (a < b) {
		int mid = (a + b) / 2;
		if (l->node[mid] < node)
			a = mid + 1;
		else
			b = mid;
	}
	if (a == l->ndist || l->node[a] != node)
		return -1;
	struct loc_list d = {.node = node, .n = l->lo[a + 1], .cur = l->cur[a], .task = l->task};
	int t = loc_first(l, &d);
	l->cur[a] = d.cur;
	return t;
}

/* Whether no pending task prefers the node of any executor of the job
 * (lost, busy or not up yet included): then no slot of the job can take
 * a local task until it has another executor.  Amortised O(1): the
 * executors found clear are not looked at again. */
static bool loc_none_local(struct sim *s, const struct sim_live *jr, struct loc *l)
{
	for (; l->clear_upto < jr->nexecs; l->clear_upto++)
		if (loc_local(s, l, jr->execs[l->clear_upto].node) >= 0)
			return false;
	return true;
}

/* Whether a pending task prefers the node of a live executor of the job
 * that is up (busy or not: its slot may free): O(executors) lookups. */
static bool loc_could_wait(struct sim *s, const struct sim_job *j, struct loc *l)
{
	const struct sim_live *jr = j->live;
	if (loc_none_local(s, jr, l))
		return false;
	for (int i = 0; i < jr->nexecs; i++) {
		int id = jr->execs[i].id;
		if (id >= 0 && s->execs[id].ready_us >= 0 && s->execs[id].slots > 0 &&
		    loc_local(s, l, jr->execs[i].node) >= 0)
			return true;
	}
	return false;
}

/* Spark's getAllowedLocalityLevel with NODE_LOCAL and ANY: whether the
 * stage may now launch a task on a node it does not prefer.  At
 * NODE_LOCAL, the level moves to ANY when no pending task could run
 * locally on the job's executors (SPARK-4939; Spark's valid levels), the
 * wait starting again from now, or when spark.locality.wait has passed
 * since the stage's last launch at NODE_LOCAL (or its first offer), the
 * wait then counted on from its end, as Spark's lastLaunchTime +=
 * localityWait. */
static bool loc_any_allowed(struct sim *s, const struct sim_job *j, struct loc *l)
{
	if (l->any)
		return true;
	if (!l->pending_pref || !loc_could_wait(s, j, l)) {
		l->any = true;
		l->last_us = s->now;
		return true;
	}
	if (s->now - l->last_us >= s->scn->loc.wait_us) {
		l->any = true;
		l->last_us += s->scn->loc.wait_us;
		return true;
	}
	return false;
}

/* Wake job j's dispatcher at `t`, when the locality wait of its stage
 * `stage` ends, unless a wake is queued for it no later. */
static void loc_wake(struct sim *s, struct sim_job *j, int stage, int64_t t)
{
	struct loc *l = j->live->stages[stage].loc;
	if (l->wake_us > s->now && l->wake_us <= t)
		return;
	l->wake_us = t;
	int k = slot_take(&s->jtimers, &s->cap_jtimers, &s->free_jtimer, sizeof *s->jtimers,
			  offsetof(struct jtimer, next));
	s->jtimers[k] = (struct jtimer){.job = j->id, .tag = TAG_LOC, .gen = (uint32_t)stage,
					.next = -1};
	push_at(s, (double)t, EV_JOB_TIMER, (uint32_t)k);
}

/* Start task `task` of stage `stage` of job j on its executor
 * j->live->execs[e]; as a speculative copy of run `orig` if orig >= 0.
 * Inlined by force into its two callers: once per task, the call's
 * saving and restoring of registers was a tenth of its cost. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void start_task(struct sim *s, struct sim_job *j, int e, int stage, int task, int orig)
{
	struct sim_job_exec *x = &j->live->execs[e];
	struct sim_stage *st = &j->live->stages[stage];
	if (orig >= 0) {
		/* the task is running already: a second attempt */
	} else if (st->state) {
		if (st->state[task] != T_PENDING)
			die(s, "task %d of stage %d of job %d started twice", task, stage, j->id);
		st->state[task] = T_RUNNING;
	}
	if (orig >= 0)
		; /* neither pending nor new */
	else if (st->nredo && st->redo[st->nredo - 1] == task)
		st->nredo--; /* a killed task runs again */
	else if (st->loc)
		loc_take(st, task); /* maybe out of index order */
	else
		st->next++;
	x->free--;
	j->live->tasks_running++;
	st->running++;
	if (s->stage_sink && st->first_start_us < 0)
		st->first_start_us = s->now;
	if (j->start_us < 0) {
		j->start_us = s->now;
		j->status = JOB_RUNNING;
	}

	int r = slot_take(&s->runs, &s->cap_runs, &s->free_run, sizeof *s->runs,
			  offsetof(struct run, next));
	struct run *ru = &s->runs[r];
	struct clu_node *n = &s->clu.nodes[x->node];
	/* field by field: a compound literal clears the record first with a
	 * `rep stos`, whose start-up cost more than the stores (one task
	 * start per event) */
	ru->job = j->id;
	ru->stage = stage;
	ru->task = task;
	ru->exec = x->id;
	ru->node = x->node;
	ru->jpos = e;
	ru->jr = j->live;
	ru->st = st;
	ru->je_addr = (uintptr_t)x;
	ru->cpus = j->shape->task_cpus;
	ru->work_us = st->work_us[task];
	if (s->stragglers)
		ru->work_us *= straggle(s, j, stage, task, x->node);
	ru->from_us = s->now + j->live->task_delay_us; /* its work starts then */
	if (st->loc) /* after it has read its input from another node */
		ru->from_us += loc_read_us(s, st->loc, task, x->node);
	ru->start_us = s->now;
	ru->twin = orig;
	ru->copy = orig >= 0;
	ru->listed = false;
	ru->running = true;
	if (orig >= 0)
		s->runs[orig].twin = r;
	s->runs_live++;
	if (s->spec_on && !s->spec_armed) {
		s->spec_armed = true;
		push_at(s, (double)s->now + (double)s->scn->spec.interval_us, EV_SPECULATE, 0);
	}
	ru->end_seq = UINT64_MAX; /* no end event yet */
	ru->prev = -1;
	ru->next = -1;
	integrate(s);
	if (change_load(s, x->node, ru->cpus)) { /* the node's clock takes it */
		ru->own = false;
		if (ps_add(&s->ps, x->node, r, ru->work_us, ru->from_us, s->now) == PS_NEVER)
			s->overflow = true;
		push_task_end(s, x->node);
		return;
	}
	/* its own end event, at the rate that holds, while it holds */
	ru->own = true;
	ru->next = n->run_head;
	if (n->run_head >= 0)
		s->runs[n->run_head].prev = r;
	n->run_head = r;
	int64_t t = ps_end_at(ru->from_us, ru->work_us, n->rate, SIM_TIME_MAX);
	if (t == PS_NEVER)
		s->overflow = true;
	else
		ru->end_seq = eq_push(&s->q, t, EV_TASK_END, (uint32_t)r);
}

/* Whether run r is a live attempt of job j that may be copied: not
 * itself a copy, with no copy yet.  A list entry can outlive its run
 * (the task ended, its slot taken by another). */
static bool copyable(const struct sim *s, const struct sim_job *j, int r)
{
	const struct run *ru = &s->runs[r];
	return ru->listed && ru->job == j->id && ru->twin < 0 && !ru->copy;
}

/* A speculative copy on executor e of the job (free slot, no pending
 * task): of the tasks on its list whose attempt runs on another node
 * (Spark never copies a task to the host it runs on), the first by
 * stage and index, as a TaskSetManager offers its speculatable tasks;
 * so the list's order, the order the check met them in, changes
 * nothing.  Entries no longer copyable leave the list. */
static bool start_copy(struct sim *s, struct sim_job *j, int e)
{
	struct sim_live *jr = j->live;
	int node = jr->execs[e].node, k = 0, best = -1;
	for (int i = 0; i < jr->nspec; i++) {
		int r = jr->spec[i];
		if (!copyable(s, j, r))
			continue; /* dropped */
		jr->spec[k++] = r;
		const struct run *ru = &s->runs[r];
		if (ru->node != node &&
		    (best < 0 || ru->stage < s->runs[best].stage ||
		     (ru->stage == s->runs[best].stage && ru->task < s->runs[best].task)))
			best = r;
	}
	jr->nspec = k;
	if (best < 0)
		return false;
	for (int i = 0; i < jr->nspec; i++) /* it leaves the list */
		if (jr->spec[i] == best) {
			jr->spec[i] = jr->spec[--jr->nspec];
			break;
		}
	s->runs[best].listed = false;
	start_task(s, j, e, s->runs[best].stage, s->runs[best].task, best);
	s->tot.spec_launched++;
	return true;
}

/* How one round of offers picks a task for a free slot (offer). */
enum pass {
	PASS_PLAIN, /* a stage without locality: its next task (killed ones first) */
	PASS_LOCAL, /* NODE_LOCAL: a pending task that prefers the slot's node */
	PASS_NOPREF,/* at once: killed tasks, then tasks that prefer no node */
	PASS_ANY,   /* ANY, once delay scheduling allows it: the next pending task */
};

/* Offer job j's free slots to stage `stage`, in rounds (each executor
 * with a free slot takes at most one task a round, as each offer of
 * Spark's resourceOfferSingleTaskSet) until a round launches none.  A
 * stage at NODE_LOCAL whose wait is not over keeps its slots idle until
 * the wait ends (loc_wake). */
static void offer(struct sim *s, struct sim_job *j, int stage, enum pass p)
{
	struct sim_live *jr = j->live;
	struct sim_stage *st = &jr->stages[stage];
	struct loc *l = st->loc;
	bool launched = true;
	while (launched) {
		launched = false;
		for (int i = 0; i < jr->nexecs; i++) {
			if (jr->execs[i].free <= 0)
				continue;
			int t = -1;
			switch (p) {
			case PASS_PLAIN:
				t = st->nredo ? st->redo[st->nredo - 1] : st->next < st->ntasks ? st->next : -1;
				break;
			case PASS_LOCAL:
				t = loc_local(s, l, jr->execs[i].node);
				break;
			case PASS_NOPREF:
				t = st->nredo ? st->redo[st->nredo - 1]
				    : l->none.n ? loc_first(l, &l->none) : -1;
				break;
			case PASS_ANY:
				if (!loc_any_allowed(s, j, l)) {
					loc_wake(s, j, stage, l->last_us + s->scn->loc.wait_us);
					return;
				}
				t = st->next < st->ntasks ? st->next : -1;
				break;
			}
			if (t < 0) {
				if (p == PASS_LOCAL)
					continue; /* another executor's node may have one */
				return;       /* none of its kind left */
			}
			start_task(s, j, i, stage, t, -1);
			if (p == PASS_LOCAL || p == PASS_ANY) { /* the level of this launch */
				l->any = p == PASS_ANY;
				l->last_us = s->now;
			}
			launched = true;
		}
	}
}

static bool has_free_slot(const struct sim_live *jr)
{
	for (int i = 0; i < jr->nexecs; i++)
		if (jr->execs[i].free > 0)
			return true;
	return false;
}

/* The dispatcher of a job with a stage whose tasks prefer nodes: Spark's
 * resourceOffers with delay scheduling.  The runnable stages in order
 * (its task sets in FIFO order) are each offered the free slots at each
 * level in turn: NODE_LOCAL, then at once the tasks without preferences
 * (NO_PREF), then ANY if the stage's wait allows it; a slot a stage
 * leaves idle goes to the next stage.  Speculative copies come last,
 * once no stage has a pending task. */
static void dispatch_loc(struct sim *s, struct sim_job *j)
{
	struct sim_live *jr = j->live;
	bool pending = false;
	/* the runnable stages in order: stage order (FIFO), or with FAIR the
	 * fewest running tasks first (sorted once, as Spark sorts its task
	 * sets once per round of offers) */
	xgrow(&s->order_buf, &s->cap_order_buf, jr->nstages, sizeof *s->order_buf);
	int n = 0;
	for (int i = 0; i < jr->nstages; i++) {
		const struct sim_stage *st = &jr->stages[i];
		if (st->parents_left || !(st->next < st->ntasks || st->nredo))
			continue;
		int k = n++;
		if (jr->fair) /* insertion: stable on the stage index */
			for (; k > 0 && jr->stages[s->order_buf[k - 1]].running > st->running; k--)
				s->order_buf[k] = s->order_buf[k - 1];
		s->order_buf[k] = i;
	}
	for (int o = 0; o < n; o++) {
		int i = s->order_buf[o];
		struct sim_stage *st = &jr->stages[i];
		pending = true;
		if (!has_free_slot(jr))
			return;
		if (!st->loc) {
			offer(s, j, i, PASS_PLAIN);
			continue;
		}
		if (!st->loc->started) { /* its TaskSetManager is made: the wait starts */
			st->loc->started = true;
			st->loc->last_us = s->now;
		}
		struct loc *l = st->loc;
		if (!loc_none_local(s, jr, l)) /* else no slot finds a local task */
			offer(s, j, i, PASS_LOCAL);
		if (st->nredo || loc_first(l, &l->none) >= 0) /* else none to take */
			offer(s, j, i, PASS_NOPREF);
		offer(s, j, i, PASS_ANY);
	}
	for (bool launched = !pending && jr->nspec; launched;) {
		launched = false;
		for (int i = 0; i < jr->nexecs; i++)
			if (jr->execs[i].free > 0 && start_copy(s, j, i))
				launched = true;
	}
}

static void dispatch_job(struct sim *s, struct sim_job *j)
{
	const struct sim_shape *sh = j->shape;
	j->live->dispatch_queued = false;
	if (!job_active(j) || !sh->ops->build)
		return;
	if (sh->gang_role >= 0 && j->live->role_ready[sh->gang_role] < sh->role[sh->gang_role].count)
		return; /* the gang starts together */
	if (!j->live->stages)
		build_stages(s, j);
	if (j->live->has_loc) {
		dispatch_loc(s, j);
		return;
	}
	/* Spark's resourceOffers: each pass gives every executor with a free
	 * slot at most one task, from the first runnable stage. */
	bool launched = true;
	while (launched) {
		launched = false;
		for (int i = 0; i < j->live->nexecs; i++) {
			int stage, task;
			if (j->live->execs[i].free <= 0)
				continue;
			if (next_task(j, &stage, &task)) {
				start_task(s, j, i, stage, task, -1);
				launched = true;
			} else if (!j->live->nspec) {
				return; /* nothing to run, nothing to copy */
			} else if (start_copy(s, j, i)) {
				launched = true;
			}
		}
	}
}

static bool kill_run(struct sim *s, int r, bool counts, bool requeue);

static void on_task_end(struct sim *s, int r)
{
	struct run *ru = &s->runs[r];
	struct sim_job *j = &s->pub.jobs[ru->job];
	struct sim_live *jr = ru->jr;
	struct sim_stage *st = ru->st;
	if (st->state) {
		if (st->state[ru->task] != T_RUNNING)
			die(s, "task %d of stage %d of job %d ended but was not running", ru->task,
			    ru->stage, j->id);
		st->state[ru->task] = T_DONE;
	}
	if (st->took_us)
		st->took_us[st->done] = (double)(s->now - ru->start_us);
	if (s->task_sink)
		s->task_sink(s->task_ctx, s, j->id, ru->stage, ru->task,
			     s->execs[jr->execs[ru->jpos].id].id, ru->node, ru->start_us, s->now,
			     true);
	st->done++;
	st->running--;
	jr->tasks_running--;
	jr->execs[ru->jpos].free++;
	int idle_exec = -1; /* its last task: the executor runs none now (told below) */
	if (s->ops->exec_idle && jr->execs[ru->jpos].free == s->execs[jr->execs[ru->jpos].id].slots)
		idle_exec = jr->execs[ru->jpos].id;
	s->runs_live--;
	int twin = ru->twin;
	ru->listed = false; /* a list entry of its slot means nothing now */
	ru->running = false;

	int node = ru->node, cpus = ru->cpus, stage = ru->stage, task = ru->task;
	bool own = ru->own;
	if (own) { /* off the node's list */
		struct clu_node *n = &s->clu.nodes[node];
		if (ru->prev >= 0)
			s->runs[ru->prev].next = ru->next;
		else
			n->run_head = ru->next;
		if (ru->next >= 0)
			s->runs[ru->next].prev = ru->prev;
	} else { /* off the node's clock: its end event was the node's */
		if (ps_pop(&s->ps, node, s->now) != r)
			die(s, "task of run %d ended, but another ends first on node %s", r,
			    s->clu.nodes[node].name);
		s->ps.nodes[node].ev_run = -1;
	}
	ru->end_seq = UINT64_MAX; /* no end event counts for the free slot */
	ru->next = s->free_run;
	s->free_run = r;
	integrate(s);
	if (change_load(s, node, -cpus) || !own)
		push_task_end(s, node); /* for the task of its clock that ends next */
	check_node(s, node);

	if (idle_exec >= 0 && s->execs[idle_exec].live) { /* the run is retired: the
							   policy may preempt */
		pol_enter(s);
		s->ops->exec_idle(s->pst, s, &s->execs[idle_exec]);
		pol_leave(s);
	}
	if (twin >= 0) { /* the first attempt to end wins: the other is killed */
		s->tot.spec_won += ru->copy;
		s->runs[twin].twin = -1;
		kill_run(s, twin, false, false);
	}
	const struct sim_job_ops *ops = j->shape->ops;
	if (ops->task_end)
		ops->task_end(s, j, stage, task);
	if (st->done == st->ntasks) {
		jr->stages_done++;
		for (int c = 0; c < st->nchildren; c++)
			if (--jr->stages[st->children[c]].parents_left == 0)
				stage_can_start(s, j, st->children[c]);
		if (s->stage_sink)
			s->stage_sink(s->stage_ctx, s, j, stage, st->first_start_us, s->now);
		if (ops->stage_end)
			ops->stage_end(s, j, stage);
		if (jr->stages_done == jr->nstages) {
			end_job(s, j, JOB_DONE, SIM_WHY_NONE, s->now);
			return;
		}
	}
	queue_dispatch(s, j);
}

/* ---- executors coming up, and the requests of job models ---------- */

static bool kill_tasks(struct sim *s, struct sim_job *j, int id, bool counts, bool requeue);

void sim_exec_open(struct sim *s, struct sim_job *j, struct sim_exec *x)
{
	j->live->execs[x->jpos].free = x->slots;
	queue_dispatch(s, j);
}

static void exec_ready_hook(struct sim *s, struct sim_job *j, struct sim_exec *x)
{
	x->heard = true;
	if (j->shape->ops->exec_ready)
		j->shape->ops->exec_ready(s, j, x);
	else
		sim_exec_open(s, j, x);
}

static void on_exec_ready(struct sim *s, struct sim_exec *x)
{
	struct sim_job *j = &s->pub.jobs[x->job];
	x->ready_us = s->now;
	if (x->role == SIM_ROLE_AM) {
		j->live->ams_ready++;
		s->sched_dirty = true; /* the AM now asks for its containers */
		return;
	}
	j->live->role_ready[x->role]++;
	if (!s->hold[j->id]) {
		exec_ready_hook(s, j, x);
		return;
	}
	int up = 0;
	for (int r = 0; r < j->shape->nroles; r++)
		up += j->live->role_ready[r];
	if (up >= s->hold[j->id])
		sim_release_tasks(s, j->id); /* x among them */
}

void sim_hold_tasks(struct sim *s, int job, int n_ready)
{
	s->hold[job] = n_ready > 0 ? n_ready : 0;
}

void sim_release_tasks(struct sim *s, int job)
{
	struct sim_job *j = &s->pub.jobs[job];
	if (!s->hold[job])
		return;
	s->hold[job] = 0;
	if (!job_active(j) || !has_live(j))
		return;
	for (int i = 0; i < j->live->nexecs; i++) { /* launch order */
		int id = j->live->execs[i].id;
		struct sim_exec *x = id >= 0 ? &s->execs[id] : NULL;
		if (x && x->live && x->ready_us >= 0 && x->role != SIM_ROLE_AM && job_active(j))
			exec_ready_hook(s, j, x);
	}
}

void sim_job_timer(struct sim *s, struct sim_job *j, double delay_us, int tag)
{
	if (tag < 0 || tag >= TAG_STAGE) /* 254 and 255 are the kernel's own */
		die(s, "job %d: a job timer's tag %d is not in 0-253", j->id, tag);
	int t = slot_take(&s->jtimers, &s->cap_jtimers, &s->free_jtimer, sizeof *s->jtimers,
			  offsetof(struct jtimer, next));
	s->jtimers[t] = (struct jtimer){.job = j->id, .tag = tag, .gen = s->jgen[j->id], .next = -1};
	push_at(s, (double)s->now + delay_us, EV_JOB_TIMER, (uint32_t)t);
}

void sim_exec_timer(struct sim *s, struct sim_exec *x, double delay_us, int tag)
{
	if (!x->live)
		die(s, "a timer for executor %d, released", x->id);
	if (x->timer_tag == TAG_RELEASE)
		return; /* preempted: it only waits for its release */
	x->timer_tag = (uint8_t)tag;
	x->ev_seq = push_at(s, (double)s->now + delay_us, EV_EXEC_TIMER,
			    (uint32_t)(x - s->execs)); /* its slot */
}

void sim_job_set_state(struct sim *s, struct sim_job *j, int st)
{
	if (s->state_sink) {
		s->state_sink(s->state_ctx, s, j, j->mstate, s->state_since[j->id], s->now);
		s->state_since[j->id] = s->now;
	}
	j->mstate = (uint8_t)st;
	s->jgen[j->id]++; /* 32 bits: never back to a pending timer's */
}

void sim_job_started(struct sim *s, struct sim_job *j)
{
	j->status = JOB_RUNNING;
	j->start_us = s->now;
}

void sim_end_job(struct sim *s, struct sim_job *j, enum sim_job_status st, int why)
{
	if (st == JOB_UNPLACEABLE)
		die(s, "job %d: a model ended it unplaceable", j->id);
	end_job(s, j, st, why, s->now);
}

void sim_take_gpu(struct sim *s, struct sim_exec *x)
{
	if (s->clu.nodes[x->node].gpus_free < 1)
		die(s, "executor %d took a GPU on node %s, which has none free", x->id,
		    s->clu.nodes[x->node].name);
	integrate(s);
	x->grab_mask = clu_take(&s->clu, x->node, 0, 0, 1);
	x->gpus_grabbed = x->gpus_took = 1;
	x->gpu_from_us = s->now;
	s->pub.jobs[x->job].gpus_used++;
	s->alloc_gpus += CLU_GPU_MILLI;
	check_node(s, x->node);
}

void sim_give_gpus(struct sim *s, struct sim_exec *x)
{
	if (!x->gpus_grabbed)
		return;
	integrate(s);
	clu_give(&s->clu, x->node, 0, 0, x->grab_mask);
	s->alloc_gpus -= (int64_t)x->gpus_grabbed * CLU_GPU_MILLI;
	x->gpus_grabbed = 0;
	x->grab_mask = 0;
	x->gpu_to_us = s->now;
	check_node(s, x->node);
}

void sim_job_busy_gpus(struct sim *s, struct sim_job *j, int n)
{
	integrate(s);
	s->train_gpus += n - j->live->busy_gpus;
	j->live->busy_gpus = n;
}

int sim_job_nexecs(const struct sim_job *j)
{
	return j->live->nexecs;
}

struct sim_exec *sim_job_exec(struct sim *s, const struct sim_job *j, int i)
{
	int id = j->live->execs[i].id;
	return id >= 0 ? &s->execs[id] : NULL;
}

bool sim_kill_tasks(struct sim *s, struct sim_job *j)
{
	if (kill_tasks(s, j, -1, true, true)) {
		end_job(s, j, JOB_FAILED, SIM_WHY_TASK_FAILURES, s->now);
		return true;
	}
	queue_dispatch(s, j);
	return false;
}

uint64_t sim_seed(const struct sim *s)
{
	return s->seed;
}

bool sim_gpus_isolated(const struct sim *s)
{
	return s->gpu_aware;
}

void sim_exec_plays(struct sim_exec *x, int role)
{
	x->played = role;
}

bool sim_roles_placed(const struct sim *s)
{
	return s->ops->places_roles;
}

/* A job timer's event: its slot goes back; the model hears of it unless
 * the job ended or changed state since (stale). */
static void on_job_timer(struct sim *s, uint32_t t)
{
	struct jtimer jt = s->jtimers[t];
	s->jtimers[t].next = s->free_jtimer;
	s->free_jtimer = (int)t;
	struct sim_job *j = &s->pub.jobs[jt.job];
	if (jt.tag == TAG_LOC) { /* a stage's locality wait is over: offer its slots again */
		j->live->stages[jt.gen].loc->wake_us = 0;
		queue_dispatch(s, j);
		return;
	}
	if (jt.tag == TAG_STAGE) { /* a stage's release time: one "parent" less */
		if (--j->live->stages[jt.gen].parents_left == 0)
			stage_can_start(s, j, (int)jt.gen);
		queue_dispatch(s, j);
		return;
	}
	j->shape->ops->timer(s, j, NULL, jt.tag);
}

static void lose_exec(struct sim *s, int id, int why);

static void on_exec_timer(struct sim *s, struct sim_exec *x)
{
	struct sim_job *j = &s->pub.jobs[x->job];
	x->ev_seq = UINT64_MAX; /* fired: none pending */
	if (x->timer_tag == TAG_RELEASE) /* preempted: its cost is paid */
		lose_exec(s, (int)(x - s->execs), SIM_WHY_PREEMPTED);
	else
		j->shape->ops->timer(s, j, x, x->timer_tag);
}

/* ---- losing executors: node failures, preemption ------------------- */

/* Take run r off its node without finishing it: its task goes back to
 * its stage, to run again.  A counted loss (a failure, not a preemption)
 * adds a failed attempt; returns whether the task has now failed
 * spark.task.maxFailures times (its job must fail). */
static bool kill_run(struct sim *s, int r, bool counts, bool requeue)
{
	struct run *ru = &s->runs[r];
	struct sim_job *j = &s->pub.jobs[ru->job];
	struct sim_live *jr = ru->jr;
	struct sim_stage *st = ru->st;
	struct clu_node *n = &s->clu.nodes[ru->node];
	int task = ru->task, node = ru->node, cpus = ru->cpus;
	bool own = ru->own;
	if (s->task_sink)
		s->task_sink(s->task_ctx, s, j->id, ru->stage, task,
			     s->execs[jr->execs[ru->jpos].id].id, node, ru->start_us, s->now, false);
	if (ru->twin >= 0) { /* its other attempt goes on: the task is running */
		s->runs[ru->twin].twin = -1;
		ru->twin = -1;
		requeue = counts = false;
	}
	if (st->state && requeue) {
		if (st->state[task] != T_RUNNING)
			die(s, "task %d of stage %d of job %d killed but not running", task,
			    ru->stage, j->id);
		st->state[task] = T_PENDING;
	}
	jr->tasks_running--;
	st->running--;
	jr->execs[ru->jpos].free++; /* its executor, if it stays, may take another */
	s->runs_live--;
	ru->listed = false;
	ru->running = false;
	if (requeue)
		s->tot.lost_core_us += (double)(s->now - ru->start_us) * ((double)cpus / CLU_MILLI);
	if (own) { /* off the node's list */
		if (ru->prev >= 0)
			s->runs[ru->prev].next = ru->next;
		else
			n->run_head = ru->next;
		if (ru->next >= 0)
			s->runs[ru->next].prev = ru->prev;
	} else { /* off the node's clock */
		if (!ps_remove(&s->ps, node, r, s->now))
			die(s, "killed run %d is not on node %s's clock", r, n->name);
		if (s->ps.nodes[node].ev_run == r)
			s->ps.nodes[node].ev_run = -1; /* the node's event was for it */
	}
	if (ru->end_seq != UINT64_MAX)
		s->stale_ends++; /* its end event is now stale */
	ru->end_seq = UINT64_MAX;
	ru->next = s->free_run;
	s->free_run = r;
	integrate(s);
	if (change_load(s, node, -cpus) || !own)
		push_task_end(s, node); /* the node's next end */
	check_node(s, node);
	if (!requeue)
		return false;
	if (!st->redo)
		st->redo = arena_alloc(&jr->ar, (size_t)st->ntasks * sizeof *st->redo);
	st->redo[st->nredo++] = task;
	if (counts) {
		if (!st->fails)
			st->fails = arena_zalloc(&jr->ar, (size_t)st->ntasks);
		int max = s->scn->jobs[j->group].task_max_failures;
		if (++st->fails[task] >= (max > 0 ? max : 4))
			return true; /* its job fails: this attempt is not run again */
	}
	s->tot.tasks_retried++;
	return false;
}

/* Kill the tasks job j runs on executor slot `id` (all its tasks: -1). */
/* The run slots of every task on node `id` (own end events and clock)
 * into *buf (grown), their number. */
static int node_runs(const struct sim *s, int id, int **buf, int *cap)
{
	int n = 0, k = ps_ntasks(&s->ps, id);
	for (int r = s->clu.nodes[id].run_head; r >= 0; r = s->runs[r].next) {
		xgrow(buf, cap, n + 1, sizeof **buf);
		(*buf)[n++] = r;
	}
	xgrow(buf, cap, n + k + 1, sizeof **buf);
	for (int i = 0; i < k; i++)
		(*buf)[n++] = ps_task(&s->ps, id, i);
	return n;
}

/* Kill the tasks job j runs on executor slot `id` (all its tasks: -1),
 * to run again (requeue: their executor or parameter server was lost;
 * counts: as a failed attempt), or for good (its job fails).  Returns
 * whether a task has now failed its last attempt. */
static bool kill_tasks(struct sim *s, struct sim_job *j, int id, bool counts, bool requeue)
{
	bool fail = false;
	struct sim_live *jr = j->live;
	int *rs = NULL, cap = 0;
	for (int i = 0; i < jr->nexecs && jr->tasks_running; i++) {
		const struct sim_job_exec *je = &jr->execs[i];
		if (je->id < 0 || (id >= 0 && je->id != id))
			continue;
		int n = node_runs(s, s->execs[je->id].node, &rs, &cap);
		for (int k = 0; k < n; k++)
			if (s->runs[rs[k]].exec == je->id && s->runs[rs[k]].job == j->id)
				fail |= kill_run(s, rs[k], counts, requeue);
	}
	free(rs);
	return fail;
}

static void policy_exec_lost(struct sim *s, int job, const struct sim_exec *x, int why)
{
	if (!s->ops->exec_lost)
		return;
	pol_enter(s);
	s->ops->exec_lost(s->pst, s, job, x, why);
	pol_leave(s);
}

/* Executor slot `id` is lost for reason `why` (SIM_WHY_NODE_FAILED,
 * SIM_WHY_PREEMPTED): its tasks are killed (a failure counts towards
 * spark.task.maxFailures, a preemption does not: Spark's
 * ExecutorLostFailure with exitCausedByApp false), its resources go
 * back, its job no longer counts it as granted (the policy may launch a
 * replacement), and the model, then the policy, are told. */
static void lose_exec(struct sim *s, int id, int why)
{
	struct sim_exec *x = &s->execs[id];
	struct sim_job *j = &s->pub.jobs[x->job];
	struct sim_live *jr = j->live;
	bool counts = why != SIM_WHY_PREEMPTED;
	bool fail = kill_tasks(s, j, id, counts, true);
	int role = x->role;
	bool ready = x->ready_us >= 0;
	jr->execs[x->jpos].free = 0;
	jr->execs[x->jpos].id = -1; /* gone: its node stays, for nodes_used */
	if (role == SIM_ROLE_AM) {
		jr->ams_ready -= ready;
	} else {
		jr->granted[role]--;
		jr->role_ready[role] -= ready;
	}
	struct sim_exec copy = *x; /* for the hooks: the slot goes back */
	release_exec(s, id);
	s->tot.execs_lost++;
	s->sched_dirty = true;
	if (fail) {
		end_job(s, j, JOB_FAILED, SIM_WHY_TASK_FAILURES, s->now);
	} else {
		if (j->shape->ops->exec_lost && copy.heard)
			j->shape->ops->exec_lost(s, j, &copy, why);
		if (job_active(j))
			queue_dispatch(s, j); /* its other executors take the tasks back */
	}
	if (job_active(j))
		policy_exec_lost(s, j->id, &copy, why);
}

int64_t sim_preempt_executor(struct sim *s, struct sim_exec *x)
{
	int id = (int)(x - s->execs);
	if (id < 0 || id >= s->cap_execs || !x->live)
		die(s, "preemption of executor %d, not live", x->id);
	if (x->timer_tag == TAG_RELEASE)
		return -1; /* already on its way out */
	struct sim_job *j = &s->pub.jobs[x->job];
	s->tot.preemptions++;
	int64_t cost = j->shape->ops->preempt_cost_us ? j->shape->ops->preempt_cost_us(s, j, x) : 0;
	if (cost <= 0) {
		lose_exec(s, id, SIM_WHY_PREEMPTED);
		return 0;
	}
	kill_tasks(s, j, id, false, true); /* its slots take no more tasks */
	j->live->execs[x->jpos].free = 0;
	queue_dispatch(s, j); /* the job's other free slots take them */
	x->slots = 0;
	x->timer_tag = TAG_RELEASE;
	x->ev_seq = push_at(s, (double)s->now + (double)cost, EV_EXEC_TIMER, (uint32_t)id);
	return cost;
}

void sim_policy_timer(struct sim *s, double delay_us, uint32_t tag)
{
	push_at(s, (double)s->now + delay_us, EV_POLICY_TIMER, tag);
}

void sim_add_lost_work(struct sim *s, double core_us, double gpu_us)
{
	s->tot.lost_core_us += core_us;
	s->tot.lost_gpu_us += gpu_us;
}

/* ---- speculation ------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of the durations of a stage's tasks done, as Spark takes it
 * (TaskSetManager: the sorted durations' entry at round(0.5 n), at most
 * n - 1); sorted again only when more are done than last time, not for
 * every running task of the stage at every check. */
static double stage_median(struct sim_stage *st)
{
	if (st->median_done == st->done)
		return st->median_us;
	int n = st->done;
	double *d = xmalloc((size_t)n * sizeof *d);
	memcpy(d, st->took_us, (size_t)n * sizeof *d);
	qsort(d, (size_t)n, sizeof *d, cmp_double);
	int k = (int)llround(0.5 * n);
	st->median_us = d[k < n - 1 ? k : n - 1];
	st->median_done = n;
	free(d);
	return st->median_us;
}

/* Spark's checkSpeculatableTasks, every spark.speculation.interval while
 * tasks run, over the running attempts (the pool of run slots: O(most
 * attempts ever running at once), whatever the number of nodes): in a stage with at least max(floor(quantile x tasks), 1)
 * tasks done, a task running longer than max(multiplier x their median,
 * minTaskRuntime), with no copy, is listed for a copy; its job's free
 * slots on other nodes take the copies (start_copy). */
static void on_speculate(struct sim *s)
{
	const struct scn_speculation *sp = &s->scn->spec;
	s->spec_armed = false;
	for (int r = 0; r < s->cap_runs; r++) {
		struct run *ru = &s->runs[r];
		if (!ru->running)
			continue;
		struct sim_stage *st = ru->st;
		int need = (int)floor(sp->quantile * st->ntasks);
		if (ru->twin >= 0 || ru->copy || ru->listed || st->done < (need > 1 ? need : 1))
			continue;
		double limit = sp->multiplier * stage_median(st);
		if (limit < (double)sp->min_runtime_us)
			limit = (double)sp->min_runtime_us;
		if (!((double)(s->now - ru->start_us) > limit))
			continue;
		struct sim_live *jr = ru->jr;
		xgrow(&jr->spec, &jr->cap_spec, jr->nspec + 1, sizeof *jr->spec);
		jr->spec[jr->nspec++] = r;
		ru->listed = true;
		queue_dispatch(s, &s->pub.jobs[ru->job]);
	}
	if (s->runs_live) {
		s->spec_armed = true;
		push_at(s, (double)s->now + (double)sp->interval_us, EV_SPECULATE, 0);
	}
}

/* ---- node failures ---------------------------------------------------- */

static void push_node_at(struct sim *s, int node, enum node_ev e, double t)
{
	s->node_events++;
	push_at(s, t, EV_NODE, (uint32_t)node << 2 | e);
}

static void push_node(struct sim *s, int node, enum node_ev e, double delay_us)
{
	push_node_at(s, node, e, (double)s->now + delay_us);
}

/* Node `id`'s next random up-time (NE_FAIL) or repair time (NE_REPAIR):
 * keyed by (node, cycle), the same under every policy. */
static double node_draw(const struct sim *s, int id, enum node_ev e)
{
	const struct scn_node_group *g = &s->scn->groups[s->clu.nodes[id].group];
	const struct scn_dist *d = e == NE_FAIL ? &g->mtbf : &g->mttr;
	struct rng_key k = rng_key(s->seed, 0, RNG_FAIL, (uint32_t)id, e, 0);
	double t = rng_dist(d, k, s->cycles[id]);
	return t > 1 ? t : 1; /* at least a µs: a cycle always moves time */
}

/* Bring ∫ nodes down dt up to now; before nodes_down changes, and at the
 * end of the run (apart from integrate(): it changes only with failures). */
static void integrate_down(struct sim *s)
{
	s->tot.node_down_us += (double)(s->now - s->down_at) * s->nodes_down;
	s->down_at = s->now;
}

/* The node goes down (one more outage) or comes back up (one fewer). */
static void node_down(struct sim *s, int id)
{
	struct clu_node *n = &s->clu.nodes[id];
	if (s->down[id]) {
		s->down[id]++; /* already down */
		return;
	}
	while (n->exec_head >= 0)
		lose_exec(s, n->exec_head, SIM_WHY_NODE_FAILED);
	integrate(s);
	integrate_down(s);
	s->nodes_down++;
	double up = (double)(s->now - s->up_since[id]);
	s->tot.fail_cycles++;
	s->tot.up_sum_us += up;
	s->tot.up_sumsq_us2 += up * up;
	clu_take(&s->clu, id, n->cores_free, n->mem_free, n->gpus_free); /* nothing fits */
	s->down[id] = 1;
	check_node(s, id);
}

static void node_up(struct sim *s, int id)
{
	struct clu_node *n = &s->clu.nodes[id];
	if (--s->down[id])
		return; /* another outage holds it down */
	integrate(s);
	integrate_down(s);
	s->nodes_down--;
	s->up_since[id] = s->now;
	/* every GPU: the node went down with none in use (its executors were
	 * lost first) */
	clu_give(&s->clu, id, n->cores, n->mem_mib,
		 n->gpus == 64 ? UINT64_MAX : (UINT64_C(1) << n->gpus) - 1);
	check_node(s, id);
	s->sched_dirty = true;
}

static void on_node(struct sim *s, uint32_t obj)
{
	int id = (int)(obj >> 2);
	s->node_events--;
	switch ((enum node_ev)(obj & 3)) {
	case NE_FAIL:
		/* Only failures left to happen (the jobs still waiting wait for
		 * nothing else): this node's failures stop, its repairs and the
		 * others' bring the cluster back up for a last chance */
		if (eq_size(&s->q) == (size_t)s->node_events)
			break;
		node_down(s, id);
		push_node(s, id, NE_REPAIR, node_draw(s, id, NE_REPAIR));
		break;
	case NE_REPAIR:
		node_up(s, id);
		s->cycles[id]++;
		if (s->jobs_left) /* failures stop with the last job */
			push_node(s, id, NE_FAIL, node_draw(s, id, NE_FAIL));
		break;
	case NE_OUT:
		node_down(s, id);
		break;
	case NE_BACK:
		node_up(s, id);
		break;
	}
}

/* At the start of a run: every failing node's first failure, every
 * scripted outage. */
static void start_failures(struct sim *s)
{
	bool any = false;
	for (int g = 0; g < s->scn->ngroups; g++)
		any |= s->scn->groups[g].fails || s->scn->groups[g].noutages;
	if (!any)
		return;
	s->down = xcalloc((size_t)s->clu.n, 1);
	s->down_at = s->now;
	s->up_since = xcalloc((size_t)s->clu.n, sizeof *s->up_since);
	s->cycles = xcalloc((size_t)s->clu.n, sizeof *s->cycles);
	for (int i = 0; i < s->clu.n; i++) {
		const struct scn_node_group *g = &s->scn->groups[s->clu.nodes[i].group];
		s->up_since[i] = s->now;
		if (g->fails)
			push_node(s, i, NE_FAIL, node_draw(s, i, NE_FAIL));
	}
	for (int i = 0, first = 0; i < s->scn->ngroups; first += s->scn->groups[i++].count)
		for (int k = 0; k < s->scn->groups[i].noutages; k++) {
			const struct scn_outage *o = &s->scn->groups[i].outages[k];
			int id = first + o->node;
			int64_t from = o->at_us, to = o->at_us + o->for_us;
			if (to <= s->now)
				continue; /* over before the run begins (its first arrival) */
			push_node_at(s, id, NE_OUT, (double)(from > s->now ? from : s->now));
			push_node_at(s, id, NE_BACK, (double)to);
		}
}

/* ---- the loop ------------------------------------------------------ */

static void handle(struct sim *s, const struct eq_event *ev)
{
	s->cur_kind = (enum ev_kind)ev->kind;
	s->cur_obj = ev->obj;
	s->in_event = true;
	switch ((enum ev_kind)ev->kind) {
	case EV_ARRIVE:
		on_arrive(s, &s->pub.jobs[ev->obj]);
		break;
	case EV_EXEC_READY:
		on_exec_ready(s, &s->execs[ev->obj]);
		break;
	case EV_TASK_END:
		on_task_end(s, (int)ev->obj);
		break;
	case EV_JOB_TIMER:
		on_job_timer(s, ev->obj);
		break;
	case EV_EXEC_TIMER:
		on_exec_timer(s, &s->execs[ev->obj]);
		break;
	case EV_POLICY_TIMER:
		if (s->ops->timer) {
			pol_enter(s);
			s->ops->timer(s->pst, s, ev->obj);
			pol_leave(s);
		}
		break;
	case EV_NODE:
		on_node(s, ev->obj);
		break;
	case EV_SPECULATE:
		on_speculate(s);
		break;
	}
	s->tot.events++;
	s->in_event = false;
	if (SIM_CHECK_EVERY_EVENT)
		check_all(s);
}

/* An event that no longer means anything: a task end superseded by a
 * rescheduled one, the start-up end or model timer of an executor
 * already released (its job ended; the slot may hold another executor
 * by then), a job timer of a job that ended or changed state since it
 * was set (sim_job_timer), a locality wake of a job that ended or whose
 * wake moved (each wake pushes an event of its own, so dropping an old
 * one loses nothing).  Dropped without advancing the clock (drop_event). */
static inline bool stale(const struct sim *s, const struct eq_event *ev)
{
	if (ev->kind == EV_TASK_END)
		return s->runs[ev->obj].end_seq != ev->seq;
	if (ev->kind == EV_EXEC_READY || ev->kind == EV_EXEC_TIMER)
		return s->execs[ev->obj].ev_seq != ev->seq; /* released: its job ended */
	if (ev->kind == EV_JOB_TIMER) {
		const struct jtimer *t = &s->jtimers[ev->obj];
		const struct sim_job *j = &s->pub.jobs[t->job];
		if (t->tag == TAG_LOC) /* its job ended, or a wake replaced it */
			return !job_active(j) || !has_live(j) || !j->live->stages ||
			       j->live->stages[t->gen].loc->wake_us != ev->time;
		if (t->tag == TAG_STAGE) /* its job ended */
			return !job_active(j) || !has_live(j) || !j->live->stages;
		return !job_active(j) || s->jgen[t->job] != t->gen;
	}
	return false;
}

/* A stale event leaves the queue: a job timer's slot goes back. */
static void drop_event(struct sim *s, const struct eq_event *ev)
{
	if (ev->kind == EV_JOB_TIMER) {
		s->jtimers[ev->obj].next = s->free_jtimer;
		s->free_jtimer = (int)ev->obj;
	}
}

/* After the events of one timestamp: the policy, then the dispatcher.
 * Both may queue events at the same time; the loop then comes back. */
static void settle(struct sim *s)
{
	if (s->nnotes || s->sched_dirty) {
		pol_enter(s);
		deliver_notes(s);
		if (s->sched_dirty) {
			s->sched_dirty = false;
			s->tot.decisions++;
			if (s->ops->schedule)
				s->ops->schedule(s->pst, s);
		}
		pol_leave(s);
	}
	for (int i = 0; i < s->ndispatch; i++)
		dispatch_job(s, &s->pub.jobs[s->dispatch[i]]);
	s->ndispatch = 0;
	if (s->noffered) { /* offer-only: what the policy did not place now, it never will */
		for (int i = 0; i < s->noffered; i++) {
			struct sim_job *j = &s->pub.jobs[s->offered[i]];
			if (job_active(j) && j->status == JOB_WAITING && sim_execs_wanted(j) > 0)
				sim_reject_job(s, j->id, SIM_WHY_NO_FIT);
		}
		s->noffered = 0;
		if (s->nnotes) {
			pol_enter(s);
			deliver_notes(s);
			pol_leave(s);
		}
	}
	live_put_ended(s);
}

/* Why the policy never placed job j: what its can_ever_place hook finds
 * for j's shape, else SIM_WHY_NEVER_PLACED.  Asked once per shape
 * (why_shape caches it, 0 = not asked). */
static int never_placed_why(struct sim *s, const struct sim_job *j, uint8_t *why_shape)
{
	uint8_t *w = &why_shape[j->shape->id];
	if (!*w) {
		struct pol_verdict v = {.why = SIM_WHY_NONE};
		if (s->ops->can_ever_place)
			s->ops->can_ever_place(s->pcfg, s->scn, j->group, j->shape, &v);
		*w = (uint8_t)(v.why != SIM_WHY_NONE ? v.why : SIM_WHY_NEVER_PLACED);
	}
	return *w;
}

/* Jobs still waiting when nothing more can happen were never placed. */
static void finish(struct sim *s)
{
	uint8_t *why_shape = NULL;
	for (int i = 0; i < s->pub.njobs; i++) {
		struct sim_job *j = &s->pub.jobs[i];
		if (!job_active(j))
			continue;
		if (j->live->tasks_running)
			die(s, "job %d has running tasks but no events", j->id);
		if (!why_shape)
			why_shape = xcalloc((size_t)s->nshapes, 1);
		/* it never ended: no end time, no makespan */
		end_job(s, j, JOB_UNPLACEABLE, never_placed_why(s, j, why_shape), -1);
	}
	free(why_shape);
	if (s->nnotes) { /* the notices of the jobs ended here */
		pol_enter(s);
		deliver_notes(s);
		pol_leave(s);
	}
	live_put_ended(s);
	for (int i = 0; s->down && i < s->clu.n; i++)
		while (s->down[i]) /* the run is over: outages end with it */
			node_up(s, i);
	check_all(s);
	for (int i = 0; i < s->clu.n; i++) {
		const struct clu_node *n = &s->clu.nodes[i];
		if (n->cores_free != n->cores || n->mem_free != n->mem_mib ||
		    n->gpus_free != n->gpus || n->load)
			die(s, "node %s not back to its capacity at the end", n->name);
	}
}

/* Fewer events than this pending, and so fewer tasks running: their
 * records are in the cache already, and prefetching them only costs
 * (a tenth of a small DAG's time). */
enum { PF_MIN_QUEUED = 1024 };

/* A run on 10^4 nodes keeps ~10^5 tasks running; the records a task end
 * touches (its run slot, job, executor, node) are then rarely in cache,
 * and waiting for them one after another was most of the time.  The
 * event queue knows the order of the events ahead (its sorted run,
 * eq_ahead; the few others are recent pushes, whose records are fresh):
 * ask for the run record of the event PF_FAR ahead, and for what the
 * one PF_NEAR ahead points to, its record having come meanwhile. */
enum { PF_FAR = 4, PF_NEAR = 1 }; /* the best of 1-16 on the 10^4-node mix */
enum { PF_JOB = 3, PF_STAGE = 2 };  /* the next task's stage, then its arrays */

/* The stage of run ru's task if its job still has it (NULL if not):
 * read through the job's record, whose memory stays; its arrays are the
 * job's now (another job's if the record changed hands: a hint only). */
static inline const struct sim_stage *next_stage(const struct run *ru)
{
	const struct sim_live *jr = ru->jr;
	return jr->stages && ru->stage < jr->nstages ? &jr->stages[ru->stage] : NULL;
}
#if defined(__GNUC__) || defined(__clang__)
/* inline by force: as a function of its own that only reads and
 * prefetches, GCC finds it free of side effects and drops the calls */
__attribute__((always_inline))
#endif
static inline void prefetch_next(struct sim *s)
{
	const struct eq *q = &s->q;
	if (eq_size(q) < PF_MIN_QUEUED)
		return;
	const struct eq_slot *e = eq_ahead(q, PF_FAR);
	if (e && eq_slot_kind(e) == EV_TASK_END) {
		const char *r = (const char *)&s->runs[eq_slot_obj(e)];
		PREFETCH(r); /* 96 bytes: two lines, whatever its place */
		PREFETCH(r + sizeof(struct run) - 1);
	}
	/* the task its job starts next, most likely in the same stage: its
	 * stage is read through the job's record, which never moves (ru->st
	 * may be gone with its job), and its arrays are asked for one level
	 * per event: the stage's at PF_STAGE, its locality's at PF_NEAR */
	e = eq_ahead(q, PF_JOB);
	if (e && eq_slot_kind(e) == EV_TASK_END) {
		const struct run *rj = &s->runs[eq_slot_obj(e)];
		PREFETCH(rj->jr);
		PREFETCH(rj->st);
	}
	e = eq_ahead(q, PF_STAGE);
	if (e && eq_slot_kind(e) == EV_TASK_END) {
		const struct sim_stage *st = next_stage(&s->runs[eq_slot_obj(e)]);
		if (st && st->next < st->ntasks) {
			PREFETCH(&st->work_us[st->next]);
			if (st->loc)
				PREFETCH(st->loc);
		}
	}
	e = eq_ahead(q, PF_NEAR);
	if (!e || eq_slot_kind(e) != EV_TASK_END)
		return;
	const struct run *ru = &s->runs[eq_slot_obj(e)];
	const struct sim_stage *st = next_stage(ru);
	if (st && st->loc && st->next < st->ntasks) {
		const struct loc *l = st->loc;
		PREFETCH(&l->taken[st->next >> 3]);
		PREFETCH(&l->pref[(size_t)st->next * (size_t)l->npref]);
		if (l->remote_mib)
			PREFETCH(&l->remote_mib[st->next]);
	}
	PREFETCH(&s->pub.jobs[ru->job]);
	PREFETCH(ru->jr);
	PREFETCH(ru->st);
	PREFETCH((const void *)ru->je_addr); /* a hint: prefetching never faults */
	PREFETCH(&s->clu.nodes[ru->node]);
	const char *x = (const char *)&s->execs[ru->exec]; /* released if its job ends */
	PREFETCH(x);
	PREFETCH(x + sizeof(struct sim_exec) - 1);
	if (!ru->own) {
		PREFETCH(&s->ps.nodes[ru->node]); /* its clock */
		return;
	}
	if (ru->prev >= 0) /* the node's list is unlinked around it */
		PREFETCH(&s->runs[ru->prev]);
	if (ru->next >= 0)
		PREFETCH(&s->runs[ru->next]);
}

static bool keep_event(void *ctx, const struct eq_event *ev)
{
	if (!stale(ctx, ev))
		return true;
	drop_event(ctx, ev);
	return false;
}

/* A node's end event moves when the task that ends first there changes
 * or its rate does, leaving the old one behind as stale: one per change
 * on the node (share.h), where moving every task's end left one per task
 * running there.  On oversubscribed nodes (yarn's memory-only
 * calculator, label-dual's memory calculator) they can still outnumber
 * the live events, and every push and pop pays for the bigger heap.
 * When the superseded ends exceed the live events, drop the stale events
 * at once: O(n), and the order of the others is unchanged (eq_compact),
 * so nothing that happens changes. */
static void maybe_compact(struct sim *s)
{
	size_t n = eq_size(&s->q);
	if (s->stale_ends < sim_compact_min || s->stale_ends < n / 2 || !s->stale_ends)
		return;
	eq_compact(&s->q, keep_event, s);
	s->stale_ends = 0;
	sim_compactions++;
}

int sim_run(struct sim *s)
{
	struct eq_event ev;
	int64_t ns0 = mono_ns();
	uint64_t t0 = ticks();
	if (s->pub.njobs > 0) {
		push_arrival(s, &s->pub.jobs[0]);
		s->next_arrival = 1;
		s->tot.first_arrival_us = s->pub.jobs[0].arrival_us;
		s->now = s->integ_at = s->pub.jobs[0].arrival_us;
	}
	start_failures(s);
	/* One timestamp per turn: its first live event sets the clock (stale
	 * ones are dropped without moving it), then every event of that
	 * time, then the policy and the dispatcher (settle). */
	while (!s->overflow && eq_pop(&s->q, &ev)) {
		if (stale(s, &ev)) {
			drop_event(s, &ev);
			continue;
		}
		s->now = ev.time;
		prefetch_next(s);
		handle(s, &ev);
		while (eq_size(&s->q) && eq_top_time(&s->q) == s->now) {
			eq_pop(&s->q, &ev);
			prefetch_next(s);
			if (!stale(s, &ev))
				handle(s, &ev);
			else
				drop_event(s, &ev);
		}
		settle(s);
		maybe_compact(s);
		if (!s->jobs_left)
			break; /* what is left (failures, a policy's timers) changes
				  nothing any job does */
		if (s->watch && !--s->watch_left) {
			s->watch_left = s->watch_every;
			if (s->watch(s->watch_ctx, s)) {
				s->stopped = true;
				break;
			}
		}
	}
	uint64_t dt = ticks() - t0;
	double ns = (double)(mono_ns() - ns0);
	s->tot.policy_ns = dt ? (uint64_t)((double)s->pol_ticks * ns / (double)dt) : 0;
	if (s->overflow)
		return -1;
	if (s->stopped)
		return SIM_STOPPED;
	integrate(s);
	if (s->down)
		integrate_down(s);
	finish(s);
	return 0;
}

/* ---- construction -------------------------------------------------- */

/* Jobs are numbered in arrival order, ties by group, then by index in
 * the group: the jobs, listed by group and then by index, are sorted by
 * arrival with a stable sort (sort_kv, O(jobs)) of 16-byte pairs
 * (arrival; group, index).
 *
 * The sort's arrays (pairs, scratch, one group's arrivals: 40 bytes a
 * job) live in the job array itself before it is filled, rather than in
 * 40 MB of fresh memory for 10^6 jobs, which a virtual machine makes
 * dear to touch.  The records are then written from the last to the
 * first: with R = sizeof(struct sim_job) >= 40, record i covers bytes
 * [R i, R i + R) and pair i lies at [16 i, 16 i + 16), so a record only
 * ever covers pairs already read. */
_Static_assert(sizeof(struct sim_job) >= 2 * sizeof(struct kv) + sizeof(int64_t),
	       "a job record holds the numbering's scratch");

static void number_jobs(struct sim *s)
{
	const struct scn *scn = s->scn;
	size_t n = (size_t)s->pub.njobs;
	struct kv *key = (struct kv *)(void *)s->pub.jobs, *tmp = key + n;
	int64_t *t = (int64_t *)(void *)(tmp + n);
	int id = 0;
	for (int g = 0; g < scn->njobgroups; g++) {
		arrival_times(scn, g, s->seed, t);
		for (int i = 0; i < scn->jobs[g].count; i++, id++)
			key[id] = (struct kv){t[i], (uint64_t)g << 32 | (uint32_t)i};
	}
	sort_kv(key, tmp, n);
	for (int i = s->pub.njobs - 1; i >= 0; i--) {
		struct kv k = key[i];
		int g = (int)(k.val >> 32);
		const struct sim_job_ops *jo = scn->jobs[g].ops;
		const struct sim_shape *sh =
			&s->shapes[s->shape_base[g] +
				   (jo->job_shape ? jo->job_shape(scn, g, (int)(uint32_t)k.val) : 0)];
		s->pub.jobs[i] = (struct sim_job){
			.arrival_us = k.key, .start_us = -1, .end_us = -1,
			.shape = sh, .live = (struct sim_live *)&no_live, .id = i, .group = g,
			.index = (int)(uint32_t)k.val,
			.type = (uint8_t)scn->jobs[g].type, .status = JOB_PENDING,
			.mstate = 0};
	}
}

int sim_group_nshapes(const struct scn *sc, int g)
{
	const struct sim_job_ops *jo = sc->jobs[g].ops;
	return jo->nshapes ? jo->nshapes(sc, g) : 1;
}

void sim_group_shape_at(const struct scn *sc, int g, int k, struct sim_shape *out)
{
	const struct sim_job_ops *jo = sc->jobs[g].ops;
	/* the group's generic keys; the model gives its roles */
	/* in milli-cores; a cores_max past INT_MAX milli-cores (2.1 million
	 * cores) is as good as none */
	int64_t cmax = (int64_t)sc->jobs[g].cores_max * CLU_MILLI;
	*out = (struct sim_shape){.gang_role = -1, .cores_max = cmax > INT_MAX ? INT_MAX : (int)cmax,
				  .task_cpus = (sc->jobs[g].task_cpus > 0 ? sc->jobs[g].task_cpus : 1) *
					       CLU_MILLI};
	if (jo->nshapes)
		jo->shape_at(sc, g, k, out);
	else
		jo->shape(sc, g, out);
	out->ops = jo;
}

void sim_group_shape(const struct scn *sc, int g, struct sim_shape *out)
{
	sim_group_shape_at(sc, g, 0, out);
}

int sim_nshapes(const struct sim *s)
{
	return s->nshapes;
}

const struct sim_shape *sim_shape_at(const struct sim *s, int k)
{
	return &s->shapes[k];
}

struct sim *sim_new(const struct scn *scn, const struct scn_policy *pol,
		    uint32_t replication, char *err, size_t errlen)
{
	const struct policy_ops *ops = pol->ops;
	if (!ops) {
		snprintf(err, errlen, "policy '%s' (%s) has no ops: not loaded by scn_load", pol->name,
			 pol->kind);
		return NULL;
	}
	struct sim *s = xcalloc(1, sizeof *s);
	s->scn = scn;
	s->pcfg = pol;
	s->ops = ops;
	s->rep = replication;
	s->seed = rng_replication_seed(scn->seed, replication);
	s->free_run = -1;
	s->free_exec = -1;
	s->free_jtimer = -1;
	s->tot.last_end_us = -1; /* no job ended yet */
	clu_init(&s->clu, scn);
	eq_init(&s->q, 1024);
	ps_init(&s->ps, s->clu.n, SIM_TIME_MAX);
	for (int i = 0; i < s->clu.n; i++) {
		s->clu.nodes[i].rate = node_rate(&s->clu.nodes[i]);
		ps_set_rate(&s->ps, i, s->clu.nodes[i].rate, 0);
	}

	for (int g = 0; g < scn->njobgroups; g++)
		s->pub.njobs += scn->jobs[g].count;
	s->shape_base = xcalloc((size_t)scn->njobgroups + 1, sizeof *s->shape_base);
	for (int g = 0; g < scn->njobgroups; g++)
		s->shape_base[g + 1] = s->shape_base[g] + sim_group_nshapes(scn, g);
	s->nshapes = s->shape_base[scn->njobgroups];
	s->shapes = xcalloc((size_t)(s->nshapes ? s->nshapes : 1), sizeof *s->shapes);
	for (int g = 0; g < scn->njobgroups; g++)
		for (int k = 0; k < s->shape_base[g + 1] - s->shape_base[g]; k++) {
			struct sim_shape *sh = &s->shapes[s->shape_base[g] + k];
			sim_group_shape_at(scn, g, k, sh);
			sh->id = s->shape_base[g] + k;
		}
	s->dags = xcalloc((size_t)(scn->njobgroups ? scn->njobgroups : 1), sizeof *s->dags);
	s->have_dag = xcalloc((size_t)(scn->njobgroups ? scn->njobgroups : 1), 1);
	for (int g = 0; g < scn->njobgroups; g++)
		s->have_dag[g] = scn->jobs[g].ops->dag_shared &&
				 scn->jobs[g].ops->dag_shared(scn, g);
	arena_init(&s->dag_ar);
	s->pub.jobs = xmalloc((size_t)(s->pub.njobs ? s->pub.njobs : 1) * sizeof *s->pub.jobs);
	s->why = xcalloc((size_t)(s->pub.njobs ? s->pub.njobs : 1), 1);
	s->hold = xcalloc((size_t)(s->pub.njobs ? s->pub.njobs : 1), sizeof *s->hold);
	s->jgen = xcalloc((size_t)(s->pub.njobs ? s->pub.njobs : 1), sizeof *s->jgen);
	number_jobs(s); /* sets every field of every job */
	s->jobs_left = s->pub.njobs;
	for (int g = 0; g < scn->ngroups; g++)
		s->stragglers |= scn->groups[g].straggler_fraction > 0;
	s->spec_on = scn->spec.enabled;
	s->gpu_aware = ops->gpu_aware && ops->gpu_aware(pol);
	s->pst = ops->init ? ops->init(s, pol) : NULL;
	return s;
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	free(s->state_since);
	if (s->ops->fini)
		s->ops->fini(s->pst);
	for (int slot = 0; slot < s->nlive_made; slot++) {
		struct sim_live *r = &s->chunks[slot / LIVE_CHUNK][slot % LIVE_CHUNK];
		free(r->execs);
		free(r->spec);
		arena_free(&r->ar);
	}
	for (int c = 0; c < s->nchunks; c++)
		free(s->chunks[c]);
	free(s->chunks);
	free(s->free_live);
	free(s->ended);
	free(s->loc_buf);
	free(s->order_buf);
	free(s->offered);
	free(s->shapes);
	free(s->shape_base);
	free(s->dags);
	free(s->have_dag);
	arena_free(&s->dag_ar);
	free(s->pub.jobs);
	free(s->why);
	free(s->hold);
	free(s->jgen);
	free(s->execs);
	free(s->runs);
	free(s->jtimers);
	free(s->down);
	free(s->up_since);
	free(s->cycles);
	ps_free(&s->ps);
	free(s->dispatch);
	free(s->notes);
	eq_free(&s->q);
	clu_free(&s->clu);
	free(s);
}

/* ---- accessors ----------------------------------------------------- */

int64_t sim_now(const struct sim *s) { return s->now; }
const struct scn *sim_scenario(const struct sim *s) { return s->scn; }
const struct clu *sim_cluster(const struct sim *s) { return &s->clu; }
int sim_nexecs(const struct sim *s) { return s->nexecs; }
uint64_t sim_queue_pushes(const struct sim *s) { return s->q.next_seq; }
void sim_set_exec_sink(struct sim *s, sim_exec_sink fn, void *ctx)
{
	s->exec_sink = fn;
	s->exec_ctx = ctx;
}

int sim_exec_tasks(const struct sim *s, const struct sim_exec *x)
{
	const struct sim_job *j = &s->pub.jobs[x->job];
	if (!x->live || !has_live(j) || x->jpos >= j->live->nexecs)
		return 0;
	const struct sim_job_exec *je = &j->live->execs[x->jpos];
	return x->ready_us >= 0 && je->free >= 0 ? x->slots - je->free : 0;
}

void sim_set_watch(struct sim *s, sim_watch_fn fn, void *ctx, uint32_t every)
{
	s->watch = fn;
	s->watch_ctx = ctx;
	s->watch_every = s->watch_left = every ? every : 1;
}

void sim_set_state_sink(struct sim *s, sim_state_sink fn, void *ctx)
{
	s->state_sink = fn;
	s->state_ctx = ctx;
	free(s->state_since);
	s->state_since = NULL;
	if (fn) {
		s->state_since = xmalloc((size_t)(s->pub.njobs ? s->pub.njobs : 1) *
					 sizeof *s->state_since);
		for (int i = 0; i < s->pub.njobs; i++)
			s->state_since[i] = s->pub.jobs[i].arrival_us;
	}
}

void sim_set_task_sink(struct sim *s, sim_task_sink fn, void *ctx)
{
	s->task_sink = fn;
	s->task_ctx = ctx;
}

void sim_set_stage_sink(struct sim *s, sim_stage_sink fn, void *ctx)
{
	s->stage_sink = fn;
	s->stage_ctx = ctx;
}
const struct sim_totals *sim_totals(const struct sim *s) { return &s->tot; }
const struct scn_job_group *sim_job_group(const struct sim *s, int job)
{
	return &s->scn->jobs[s->pub.jobs[job].group];
}

const char *sim_why_name(const struct scn *sc, int why, char *buf, size_t len)
{
	static const char *const names[] = {
		"", "cores", "memory", "gpus", "capacity", "max-allocation", "job-type",
		"reservation-timeout", "gpu-retries", "never-placed", "task-failures",
		"executor-lost", "max-allocation-vcores", "no-fit"};
	_Static_assert(ARRAY_LEN(names) == SIM_WHY_LABEL0, "a name for every reason");
	if (why >= SIM_WHY_LABEL0 && why < SIM_WHY_CODES && why - SIM_WHY_LABEL0 < sc->nlabels)
		snprintf(buf, len, "label:%s", sc->label_names[why - SIM_WHY_LABEL0]);
	else
		snprintf(buf, len, "%s", why >= 0 && why < SIM_WHY_LABEL0 ? names[why] : "?");
	return buf;
}

const char *sim_status_name(enum sim_job_status st)
{
	static const char *const names[] = {"pending", "waiting", "running", "done",
					    "failed", "timed-out", "unplaceable"};
	return names[st];
}
