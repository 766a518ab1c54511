/* kernel.h - the kernel's own records, private to sim/ (included by
 * the kernel's own files only; sim.h is the API): the event kinds and the kernel's
 * timer tags, the records of stages, delay scheduling, task runs and
 * struct sim itself, the small helpers that inline into every file of
 * the kernel (policy hook timing, time integrals, slot pools, node
 * rates), and the functions the kernel's files call in one another.
 *
 * The files of the kernel, from the bottom up (each may call those
 * below it, never one above):
 *   invariants.c  broken invariants, node recounts
 *   live.c        the pool of jobs' live records
 *   events.c      queueing events; a node's load and rate (processor
 *                 sharing's side in the kernel)
 *   retry.c       task attempts killed, to run again or for good
 *   sim.c         a run made and freed; sim.h's accessors
 *   executors.c   executors launched, up, released; task holds; GPUs
 *   jobs.c        jobs arrive and end; the policy's notices
 *   stages.c      a job's stages built from its DAG
 *   faults.c      node failures and outages, executors lost, stragglers
 *   preempt.c     preemption
 *   timers.c      job, executor and policy timers
 *   speculation.c Spark's speculation check
 *   loop.c        the loop, task starts and ends, in-app dispatch (with
 *                 locality.h, delay scheduling): one translation unit,
 *                 so that what the loop inlines stays inlined
 */
#ifndef HETSIM_KERNEL_H
#define HETSIM_KERNEL_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "cluster.h"
#include "eq.h"
#include "share.h"
#include "sim.h"
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
	const double *remote_mib; /* the DAG's, or NULL: then each task's is */
	double remote_each_mib, remote_last_mib; /* the DAG's (the last task's) */
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
	double *left_us;       /* a job whose tasks resume after a preemption
				  (sim_job_ops.resume_cost_us): per task, the
				  work its next attempt runs (what was left,
				  plus the cost), < 0 if it was never
				  stopped; from the arena at the first
				  preemption */
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
				       (~job) calls waiting for settle (k_notify) */
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
	const char *pol_hook;       /* the policy hook running (pol_depth > 0,
				       or setup_hook), for messages
				       (sim_fault_where, sim_die) */
	bool setup_hook;            /* in the policy's init or fini hook */

	/* the no-progress watchdog (sim_set_max_stall, loop.c) */
	int64_t stall_t;            /* the instant events are counted at */
	uint64_t stall_n;           /* events handled at stall_t so far */
	uint64_t stall_kind[EV_SPECULATE + 1]; /* the same, by kind */
	uint64_t max_stall;         /* the bound (sim_max_stall); 0: 10 (jobs +
				       tasks + nodes) + 1000 */
	uint64_t tasks_made;        /* tasks of the stages built so far */
	bool stalled;               /* the watchdog stopped the run */

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

#define LIVE_CHUNK 256

/* ---- the kernel's functions, by file (their contracts: there) ----- */

/* invariants.c */
void k_recount_node(const struct sim *s, int id);
void k_check_all(const struct sim *s);
void k_set_running(const struct sim *s);
const char *k_ev_name(int kind);

/* live.c */
struct sim_live *k_live_get(struct sim *s, struct sim_job *j);
void k_live_put_ended(struct sim *s);

/* events.c */
uint64_t k_push_at(struct sim *s, double t, enum ev_kind kind, uint32_t obj);
void k_push_arrival(struct sim *s, const struct sim_job *j);
void k_push_task_end(struct sim *s, int id);
bool k_change_load(struct sim *s, int id, int delta);

/* retry.c */
bool k_kill_run(struct sim *s, int r, bool counts, bool requeue);
bool k_kill_tasks(struct sim *s, struct sim_job *j, int id, bool counts, bool requeue);

/* executors.c */
void k_release_exec(struct sim *s, int id);
void k_on_exec_ready(struct sim *s, struct sim_exec *x);

/* jobs.c */
void k_notify(struct sim *s, int job, bool finished);
void k_deliver_notes(struct sim *s);
void k_end_job(struct sim *s, struct sim_job *j, enum sim_job_status st, int why,
	       int64_t end_us);
void k_on_arrive(struct sim *s, struct sim_job *j);

/* stages.c */
void k_build_stages(struct sim *s, struct sim_job *j);
void k_stage_can_start(struct sim *s, struct sim_job *j, int i);

/* faults.c */
double k_straggle(const struct sim *s, const struct sim_job *j, int stage, int task,
		  int node);
void k_lose_exec(struct sim *s, int id, int why);
void k_integrate_down(struct sim *s);
void k_node_up(struct sim *s, int id);
void k_on_node(struct sim *s, uint32_t obj);
void k_start_failures(struct sim *s);

/* timers.c */
void k_on_job_timer(struct sim *s, uint32_t t);
void k_on_exec_timer(struct sim *s, struct sim_exec *x);

/* speculation.c */
void k_on_speculate(struct sim *s);

/* ---- policy hook timing (timing.csv) -------------------------------- */

static inline int64_t mono_ns(void)
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
/* Around a policy's hook `hook` (its name, for a fault's message). */
static inline void pol_enter(struct sim *s, const char *hook)
{
	if (s->pol_depth++ == 0) {
		s->pol_t0 = ticks();
		s->pol_hook = hook;
	}
}

static inline void pol_leave(struct sim *s)
{
	if (--s->pol_depth == 0)
		s->pol_ticks += ticks() - s->pol_t0;
}

/* ---- the no-progress watchdog (loop.c) ----------------------------- */

/* Events one instant may take before the run is stopped as stalled
 * (sim_set_max_stall). */
static inline uint64_t k_stall_limit(const struct sim *s)
{
	if (s->max_stall)
		return s->max_stall;
	return 10 * ((uint64_t)s->pub.njobs + s->tasks_made + (uint64_t)s->clu.n) + 1000;
}

/* ---- invariants (invariants.c) ------------------------------------- */

/* After a change to node `id`: its load and executor count stay >= 0,
 * always (O(1); the free amounts' bounds are checked by clu_take and
 * clu_give on every change); with sim_recount, also recount the node from
 * its executors and running tasks (O(executors + tasks on the node), a
 * third of the time of a large run, so only in tests and the sanitizer
 * build). */
static inline void check_node(const struct sim *s, int id)
{
	const struct clu_node *n = &s->clu.nodes[id];
	if (n->load < 0 || n->nexec < 0)
		sim_die(s, "node %s: load %" PRId64 ", %d executors", n->name, n->load, n->nexec);
	if (sim_recount)
		k_recount_node(s, id);
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

static inline int min_int(int a, int b)
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

/* What every job holds before its first executor: nothing.  Read-only
 * (a write would fault): the engine gives a job its own record first. */
extern const struct sim_live k_no_live; /* live.c */

static inline bool has_live(const struct sim_job *j)
{
	return j->live != &k_no_live;
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

static inline bool job_active(const struct sim_job *j)
{
	return j->status == JOB_WAITING || j->status == JOB_RUNNING;
}

/* ---- processor sharing --------------------------------------------- */

/* Progress rate of each task working on node n, the one place it is
 * decided: its speed, times the share of a core each task gets when
 * running tasks demand more cores than the node has, divided by the
 * node's slowdown at its busy cores (contention: its group's table, set
 * by the loader; none: no division, the rate as before it existed).
 * Whatever it reads must change only where k_change_load is called
 * (share.h: the rate holds between two calls for a node); the load is
 * all of it. */
static inline double node_rate(const struct clu_node *n)
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

#endif
