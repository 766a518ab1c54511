/* sim.h - the engine: one simulated run of one policy (sim_ prefix).
 *
 * sim_new() builds the cluster and the jobs of one replication of a
 * scenario; sim_run() plays it to the end under one policy.  The engine
 * is a kernel of mechanisms: events, executors, Spark's task dispatch,
 * processor sharing, timers, accounting.  It knows no policy and no job
 * type: it calls policies through their ops table (policy.h) and job
 * models through theirs (struct sim_job_ops below; the models are in
 * workloads/).  Policies read nodes, jobs and executors through the
 * const accessors below and act only through sim_launch_executor() and
 * sim_reject_job(); job models act through the requests of "Requests a
 * job model may make".
 *
 * Module: sim/ (this kernel, its event queue, cluster, random streams,
 * arrivals, metrics, utilities).  It includes only scenario/ and itself.
 *
 * Time is an integer count of microseconds.  Events at the same time
 * fire in the order they were scheduled; after all events of a timestamp
 * the policy's schedule hook runs (if anything it cares about changed),
 * then Spark's in-application dispatcher fills free task slots.
 */
#ifndef HETSIM_SIM_H
#define HETSIM_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "eq.h"

#include "cluster.h"
#include "scenario.h"

struct sim;
struct policy_ops;

enum sim_job_status {
	JOB_PENDING,     /* not arrived yet */
	JOB_WAITING,     /* arrived, not all its work started */
	JOB_RUNNING,     /* doing work (a task ran, or training began) */
	JOB_DONE,        /* finished normally */
	JOB_FAILED,      /* failed: its job model ended it so (a TF worker
			    found no idle GPU after its retries, ...) */
	JOB_TIMED_OUT,   /* its job model's time limit passed (a
			    reservation timeout) */
	JOB_UNPLACEABLE, /* the policy can never place it, or the run ended
			    with it still waiting */
};
const char *sim_status_name(enum sim_job_status st);

/* Why a job is not done: jobs.csv's `reason`, one code per job that
 * ended other than JOB_DONE (docs/output.md lists them).  A code is one
 * of these, or SIM_WHY_LABEL(k): no node carries label k (with the
 * other labels the executor requires), k an index of the scenario's
 * label_names.  Codes fit a byte. */
enum sim_why {
	SIM_WHY_NONE,        /* done, or not ended */
	SIM_WHY_CORES,       /* an executor asks for more cores than any node
				that may host it has */
	SIM_WHY_MEMORY,      /* ... more memory */
	SIM_WHY_GPUS,        /* ... more GPUs */
	SIM_WHY_CAPACITY,    /* each executor fits a node, but all that the job
				needs exceed what the nodes that may host
				them hold together */
	SIM_WHY_MAX_ALLOC,   /* a container over the scheduler's maximum
				allocation of memory (yarn.scheduler.maximum-allocation-mb) */
	SIM_WHY_JOB_TYPE,    /* the policy's system cannot run this job type */
	SIM_WHY_TIMEOUT,     /* its executors were not all up within the
				reservation timeout */
	SIM_WHY_GPU_RETRIES, /* an executor found no idle GPU through its
				retries */
	SIM_WHY_NEVER_PLACED,/* the run ended with it waiting, though the policy
				found nothing that rules it out */
	SIM_WHY_TASK_FAILURES,/* a task failed spark.task.maxFailures times
				(its executors were lost with their nodes) */
	SIM_WHY_EXEC_LOST,   /* an executor it cannot do without was lost (its
				model has no recovery) */
	SIM_WHY_MAX_VCORES,  /* a container over the scheduler's maximum
				allocation of vcores (...-allocation-vcores) */
	SIM_WHY_NO_FIT,      /* offer-only (scn.offer): not placed in the
				instant it arrived, and dropped (no queue) */
	SIM_WHY_LABEL0,      /* SIM_WHY_LABEL(0); keep last */
};
/* Why an executor was lost (sim_job_ops.exec_lost, policy_ops.exec_lost);
 * not a job's reason. */
#define SIM_WHY_NODE_FAILED (-2) /* its node failed */
#define SIM_WHY_PREEMPTED (-3)   /* a policy preempted it */
#define SIM_WHY_LABEL(k) (SIM_WHY_LABEL0 + (k))
/* Killed at its requested time, as a batch system kills a job that runs
 * past it (a trace's kill_at_request).  After the labels, which the
 * plugin ABI numbers (HETSIM_WHY_LABEL0); a plugin gives none from here. */
#define SIM_WHY_TIME_LIMIT (SIM_WHY_LABEL0 + SCN_MAX_LABELS)
#define SIM_WHY_CODES (SIM_WHY_TIME_LIMIT + 1) /* codes, all labels */
/* The code's name as jobs.csv writes it ("memory", "label:v100", ...),
 * into buf (at least 128 bytes); returns buf.  Label names come from sc. */
const char *sim_why_name(const struct scn *sc, int why, char *buf, size_t len);

/* Role of an application master container (YARN): it holds resources for
 * the application's lifetime and runs no task; not one of a job's roles. */
#define SIM_ROLE_AM (-1)

/* What one role of a job asks for, as its job model's shape hook says
 * (Spark's executors are one role; a model may have two: parameter
 * servers and workers, ...).  The same for every job of a group. */
struct sim_role {
	int64_t mem_mib;   /* memory each, MiB */
	uint64_t require;  /* labels a node must carry */
	uint64_t prefer;   /* labels preferred */
	int count;         /* executors wanted (spark.executor.instances) */
	int cores;         /* milli-cores each (CLU_MILLI a core); 0 = unset
			      (policy decides) */
	int gpus;          /* whole GPUs each */
	int gpu_milli;     /* or a share of one GPU each, milli-GPUs (gpus 0);
			      a policy that holds no shares rounds it up to
			      one GPU */
	int slots;         /* task slots of each executor: -1 = Spark's cores /
			      task_cpus; else this many (0: runs no task) */
	/* What a resource manager learns of the role (sim_master):
	 * who asks it for the role's containers, and what they hold. */
	int asker;         /* 0: the job's first master, the application's
			      executor allocator (Spark's: the executors
			      spark.executor.instances counts), as it
			      needs them; k > 0: its master k, which asks
			      for every one of them at once once all the
			      job's masters are up, before the application's
			      executors (a second application's master,
			      for its parameter servers); a standalone
			      cluster, which runs no master, cannot run
			      such a role */
	bool mem_as_is;    /* mem_mib is its container's memory as is (a
			      framework that sizes its own containers);
			      false: a JVM heap,
			      to which the resource manager adds Spark's
			      memory overhead */
};

/* An application master a resource manager starts for a job before its
 * executors (YARN: the container holds its resources for the job's
 * lifetime and runs no task; SIM_ROLE_AM). */
struct sim_master {
	int64_t mem_mib;   /* its memory, MiB */
	bool mem_as_is;    /* as sim_role.mem_as_is */
};
#define SIM_MAX_MASTERS 2

/* What every job of a scenario job group asks for (its model's shape
 * hook), and the model's hooks. */
struct sim_shape {
	int nroles;
	struct sim_role role[2];
	int cores_max;           /* spark.cores.max, milli-cores, 0 = unlimited */
	int task_cpus;           /* milli-cores per task */
	int gang_role;           /* -1, or a role whose `count` executors must
				    all be up before the job's first task
				    starts (a gang of parameter servers) */
	bool rigid;              /* the job runs only once every executor of
				    every role is up (its model holds its tasks
				    till then, or its work waits for every one
				    of them), so a policy should give all or
				    none */
	/* what a policy learns of the application as a whole (sim_role's
	 * asker and mem_as_is say it of each role) */
	bool one_profile;        /* one resource profile for all its roles: each
				    executor is as large as the largest role asks
				    (cores, memory, GPUs), and every role's
				    executors count against the application's
				    cores (spark.executor.* and spark.cores.max
				    are one per application: a parameter server
				    and its workers alike); false: each role its
				    own size */
	int nmasters;            /* masters a resource manager starts for it, in
				    launch order: master 0 asks for the roles of
				    asker 0, master k for those of asker k; 0:
				    one, of the resource manager's default size
				    (Spark's application master's) */
	struct sim_master master[SIM_MAX_MASTERS];
	const struct sim_job_ops *ops; /* its job model's hooks (the kernel sets) */
	int id;                  /* its index among the run's shapes, 0 ..
				    sim_nshapes - 1 (the kernel sets): what
				    a policy keys a cache of per-shape
				    verdicts by (jobs of one group may have
				    shapes of their own: sim_job_ops.nshapes) */
};

struct sim_stage;      /* engine-private */
struct sim_job_exec;   /* engine-private */

/* What a job holds while it has executors, and the engine's working
 * state for it.  Before its first executor a job points at one shared
 * record of zeros (read-only); from then until the end of the settle
 * round in which it ends (its job_finished hook has run), at its own,
 * taken from a pool and reused.  So a waiting job costs only its 64-byte
 * sim_job: a run of 10^6 jobs holds them all for its whole length, and
 * fresh memory is dear to touch.  Once a job has ended and its record
 * has gone back, j->live reads zeros again: its counts mean nothing
 * then (nor sim_execs_wanted and sim_next_role, which read them). */
struct sim_live {
	int granted[2];          /* executors launched for each role so far */
	int64_t cores_granted;   /* milli-cores of live executors (AMs excluded) */
	int execs_live;          /* live executors (AMs excluded) */
	int ams_live, ams_ready; /* application masters launched / up */
	int role_ready[2];       /* executors of each role that are up */
	/* engine-private below: policies must not rely on these */
	struct sim_job_exec *execs; int nexecs, cap_execs; /* its executors, in
					       launch order */
	struct arena ar;         /* its DAG's arrays (stages and below) */
	struct sim_stage *stages; int nstages, stages_done; /* NULL until its
					       first dispatch */
	int64_t task_delay_us;   /* launch delay of each task (overheads) */
	int tasks_running;
	int busy_gpus;           /* GPUs it keeps busy without tasks
				    (sim_job_busy_gpus: training) */
	bool dispatch_queued;    /* on the engine's dispatch list */
	bool fair;               /* its DAG's FAIR scheduling (sim_dag.fair) */
	bool has_loc;            /* a stage's tasks prefer nodes (delay scheduling) */
	int slot;                /* its place in the pool; -1: the zero record */
	int *spec; int nspec, cap_spec; /* run slots listed for a speculative copy */
	int mword[6];            /* its job model's own: zero at the first
				    executor, never read by the kernel */
	int64_t mtime[3];        /* the same, for times */
};

/* One job: 64 bytes.  What its group fixes is shared (shape), what it
 * holds while it runs is in its sim_live. */
struct sim_job {
	int64_t arrival_us;      /* submission time */
	int64_t start_us;        /* first task started / training began; -1 */
	int64_t end_us;          /* finished, failed or given up; -1 */
	const struct sim_shape *shape; /* its group's roles, cores_max, task_cpus */
	struct sim_live *live;   /* what it holds (see struct sim_live) */
	int id;                  /* index, in arrival order (ties: group order) */
	int group;               /* scenario job group */
	int index;               /* index of the job within its group */
	int gpus_used;           /* GPUs its executors held or grabbed (max) */
	int nodes_used;          /* distinct nodes that hosted its executors (set at end) */
	uint8_t type;            /* its group's job model (scn_job_group.type) */
	uint8_t status;          /* enum sim_job_status */
	uint8_t spare;           /* free */
	uint8_t mstate;          /* its job model's own state, 0 at arrival,
				    changed only by sim_job_set_state: a job
				    timer fires only while it is unchanged */
};

struct sim_exec {
	int id;                  /* launch number, unique in the run */
	int job, role, node;     /* role: what the policy launched it for */
	int played;              /* the role the application gave it, for
				    outputs (executors.csv): role, unless its
				    model assigns roles itself (sim_exec_plays) */
	int cores;               /* milli-cores held */
	int64_t mem_mib;         /* memory held, MiB */
	int gpus;                /* whole GPUs the scheduler gave it */
	int gpu_milli;           /* or a share of one GPU, milli-GPUs (0: none) */
	int gpu_share;           /* the share's GPU (index on the node); -1 */
	uint64_t gpu_mask;       /* the whole GPUs given (bit i: GPU i) */
	int gpus_grabbed;        /* GPUs it holds behind the scheduler now
				    (sim_take_gpu, until sim_give_gpus or its
				    end) */
	uint64_t grab_mask;      /* which ones */
	int gpus_took;           /* GPUs it took at any time (for outputs) */
	int64_t gpu_from_us, gpu_to_us; /* when it held GPUs (given at launch,
				    or taken); -1 if never */
	int64_t launch_us;       /* granted */
	int64_t ready_us;        /* could run tasks (after start-up); -1 */
	int64_t end_us;          /* released; -1 while live */
	int slots;               /* task slots (its role's slots; 0 for AMs) */
	bool live;
	uint8_t mbyte[4];        /* its job model's own, zero at launch */
	/* engine-private */
	uint8_t timer_tag;       /* its pending timer's tag (sim_exec_timer) */
	bool heard;              /* its model heard it was up (exec_ready) */
	uint64_t ev_seq;         /* seq of its one pending event that counts (eq.h):
				    its ready event, then its model's timers */
	int jpos;                /* its index in its job's execs */
	int node_prev, node_next;/* the node's executor list; next = free list */
};

/* x's place among its job's executors (sim_job_exec's index): its
 * launch order in the job, application masters included. */
static inline int sim_exec_pos(const struct sim_exec *x)
{
	return x->jpos;
}

/* Called once per executor when it is released (end_us set), in release
 * order; the record is gone after the call.  This keeps the engine's
 * memory in proportion to the live executors, whatever the run's length.
 * When it is called, every job whose status is final (JOB_DONE or after)
 * has its public fields final too, live aside: a sink may hand such jobs
 * to another thread to read while the run goes on (`hetsim run` writes
 * their jobs.csv rows so). */
typedef void (*sim_exec_sink)(void *ctx, const struct sim *s, const struct sim_exec *x);

/* Called when a stage of a job ends (its last task done), with the
 * start of its first task and its end, µs: a replay compares these with
 * the logged stage spans (hetsim replay-log). */
typedef void (*sim_stage_sink)(void *ctx, const struct sim *s, const struct sim_job *j,
			       int stage, int64_t first_start_us, int64_t end_us);

/* Called when a task attempt stops: it ended (done true) or was killed
 * (its node failed, its executor was preempted or lost, its twin won, its
 * job failed): its job, stage and task, the executor (sim_exec.id) and
 * node it ran on, its start and stop, µs (timelines: --trace-json). */
typedef void (*sim_task_sink)(void *ctx, const struct sim *s, int job, int stage, int task,
			      int exec, int node, int64_t start_us, int64_t end_us, bool done);

/* Totals of one run, for metrics. */
struct sim_totals {
	int64_t first_arrival_us;
	int64_t last_end_us;     /* the last end of a job that ended (done,
				    failed, timed out); -1 if none did */
	int64_t jobs_done;       /* jobs that ended done, warm-up included */
	uint64_t events;         /* events handled (stale ones not counted) */
	uint64_t decisions;      /* schedule hook calls */
	uint64_t policy_ns;      /* wall ns inside the policy's job_arrived,
				    job_finished and schedule hooks
				    (CLOCK_MONOTONIC); varies run to run, so
				    only timing.csv shows it */
	double core_busy_us;     /* ∫ busy cores dt (capped at each node's cores) */
	double gpu_busy_us;      /* ∫ GPUs kept busy dt (sim_job_busy_gpus) */
	double core_alloc_us;    /* ∫ cores held by executors dt */
	double gpu_alloc_us;     /* ∫ GPUs held or grabbed dt */
	double mem_alloc_us;     /* ∫ MiB held by executors dt */
	/* failures and preemption */
	double node_down_us;     /* ∫ nodes down dt */
	double lost_core_us;     /* work lost: killed tasks' cores × time run */
	double lost_gpu_us;      /* work lost on GPUs (a model's, sim_add_lost_work) */
	int64_t tasks_retried;   /* task attempts killed, run again */
	int64_t execs_lost;      /* executors lost (failures and preemptions) */
	int64_t preemptions;     /* sim_preempt_executor calls that took one */
	int64_t fail_cycles;     /* node failures (up-times ended) */
	int64_t spec_launched;   /* speculative copies started */
	int64_t spec_won;        /* copies that ended before their original */
	double up_sum_us, up_sumsq_us2; /* their up-times: sum, sum of squares */
	/* data locality: launches of tasks that prefer nodes (tests) */
	int64_t tasks_local;     /* on a node they prefer */
	int64_t tasks_remote;    /* elsewhere: their input read over the network */
};

/* Build run `replication` of scenario `s` under policy configuration
 * `pol` (an entry of s->policies, its ops resolved by the loader).  The
 * scenario must outlive the sim.  Returns NULL with a message in err
 * only if the policy has no ops. */
struct sim *sim_new(const struct scn *s, const struct scn_policy *pol,
		    uint32_t replication, char *err, size_t errlen);
void sim_free(struct sim *s);

/* What every job of group g of sc asks for: its model's shape hook
 * (ops set), as sim_new gives it to the group's jobs; for a group of
 * several shapes (sim_job_ops.nshapes), its first. */
void sim_group_shape(const struct scn *sc, int g, struct sim_shape *out);
/* The shapes of group g: how many (1 unless its model lists several),
 * and shape k of them as sim_new gives it (id not set). */
int sim_group_nshapes(const struct scn *sc, int g);
void sim_group_shape_at(const struct scn *sc, int g, int k, struct sim_shape *out);
/* The run's distinct shapes (every group's, in group order): how many,
 * and shape k. */
int sim_nshapes(const struct sim *s);
const struct sim_shape *sim_shape_at(const struct sim *s, int k);

/* Simulated time never goes past this, the event queue's last time
 * (2^50 - 1 µs, about 35.7 years; eq.h). */
#define SIM_TIME_MAX (EQ_TIME_LIMIT - 1)

/* Play the run to its end.  Returns 0, or -1 if an event would fall past
 * SIM_TIME_MAX (absurd durations or speeds), SIM_STOPPED when its
 * watch (sim_set_watch) stopped it, or SIM_STALLED when its clock stood
 * still for more events than any model needs at one instant
 * (sim_set_max_stall); the run's results are then meaningless and must
 * not be written.  sim_stop_why says why in words. */
int sim_run(struct sim *s);
#define SIM_STALLED (-3)

/* The no-progress watchdog: sim_run stops (SIM_STALLED) when more than
 * this many events are handled at one simulated instant; runs made after
 * it is set take it (--max-stall).  0 (the default): 10 x (jobs + tasks
 * built so far + nodes) + 1000, more than any model needs (each job,
 * task and node a few events at an instant: a batch of 10^6 jobs
 * arriving at once makes about 5 x 10^6). */
extern uint64_t sim_max_stall;

/* Why sim_run returned `rc` (nonzero), in words, into buf: "simulated
 * time passes 292471 years" (-1), or the watchdog's "no progress: N
 * events at simulated time T s without the clock moving (more than the
 * bound B: ...); most of them K events, ..." naming the policy or
 * mechanism that kept firing.  Returns buf. */
const char *sim_stop_why(const struct sim *s, int rc, char *buf, size_t len);

/* Where this thread's simulation is, for a line written from a signal
 * handler (SIGSEGV in a plugin, ...): "policy 'NAME' (a plugin: FILE),
 * its hook HOOK, at simulated time T s", or the event the kernel was
 * handling.  Async-signal-safe (no allocation, no stdio).  Writes at most
 * len - 1 bytes and a NUL; returns the length, 0 when no simulation runs
 * in this thread (none is between sim_new and sim_free's end). */
size_t sim_fault_where(char *buf, size_t len);

/* Set when sim_die has written its line, just before it aborts: a
 * SIGABRT handler then need not write another. */
extern volatile sig_atomic_t sim_died;

/* Checking switch: when true, every change to a node recounts its
 * executors and running tasks against its free amounts (and a broken
 * invariant aborts with the simulated time).  Off by default (it costs a
 * third of a large run); on in the tests and in the sanitizer build. */
extern bool sim_recount;

/* The engine drops stale events from its queue once superseded task ends
 * are at least this many and half the queue (loop.c, maybe_compact); it
 * never changes what happens.  Tests lower it to compact at once. */
extern uint64_t sim_compact_min;
extern uint64_t sim_compactions; /* compactions made so far, all runs (tests) */

/* Read-only views, for policies, metrics and outputs. */
int64_t sim_now(const struct sim *s);
const struct scn *sim_scenario(const struct sim *s);
const struct clu *sim_cluster(const struct sim *s);
/* The first member of struct sim (kernel.h), public so that these two are
 * inline: policies and outputs ask for jobs millions of times a run. */
struct sim_pub {
	struct sim_job *jobs;
	int njobs;
};
static inline int sim_njobs(const struct sim *s)
{
	return ((const struct sim_pub *)(const void *)s)->njobs;
}
static inline const struct sim_job *sim_job(const struct sim *s, int id)
{
	return &((const struct sim_pub *)(const void *)s)->jobs[id];
}
int sim_nexecs(const struct sim *s);   /* executors launched so far */
/* Events queued so far, stale ones and the ones handled included: the
 * queue's work (tests). */
uint64_t sim_queue_pushes(const struct sim *s);
/* Where released executors go (none by default).  Set before sim_run. */
void sim_set_exec_sink(struct sim *s, sim_exec_sink fn, void *ctx);
/* Called when a job model changes a job's state (sim_job_set_state), and
 * once with state -1 when the job ends: the state it leaves, since when,
 * and now (timelines: a job's phases). */
typedef void (*sim_state_sink)(void *ctx, const struct sim *s, const struct sim_job *j,
			       int state, int64_t from_us, int64_t to_us);
void sim_set_state_sink(struct sim *s, sim_state_sink fn, void *ctx);
/* Where stopped task attempts go (none by default).  Set before sim_run. */
void sim_set_task_sink(struct sim *s, sim_task_sink fn, void *ctx);
/* Called every `every` turns (timestamps) of sim_run, a driver's look at
 * a long run: progress, an interrupt.  A non-zero return stops the run:
 * sim_run then returns SIM_STOPPED, its results unfinished (not to be
 * written).  Set before sim_run; none by default. */
typedef int (*sim_watch_fn)(void *ctx, const struct sim *s);
void sim_set_watch(struct sim *s, sim_watch_fn fn, void *ctx, uint32_t every);
#define SIM_STOPPED (-2)
/* Where ended stages go (none by default).  Set before sim_run. */
void sim_set_stage_sink(struct sim *s, sim_stage_sink fn, void *ctx);
const struct sim_totals *sim_totals(const struct sim *s);
const struct scn_job_group *sim_job_group(const struct sim *s, int job);

/* Requests a policy may make during its hooks. */

/* What an executor takes of its node's GPUs: `count` whole ones, on the
 * GPUs of `mask` (each idle), or when mask is 0 the lowest-indexed idle
 * ones; or (milli > 0) a share of one GPU, on GPU `index`, or when index
 * is -1 the GPU clu_share_pick chooses (best fit: docs/model.md,
 * "Cluster").  A policy that chooses the GPU (FGD) names it. */
struct sim_gpu_ask {
	int count;        /* whole GPUs (milli 0) */
	int milli;        /* a share of one GPU, 1 .. CLU_GPU_MILLI - 1; 0: whole GPUs */
	int index;        /* the share's GPU; -1: best fit */
	uint64_t mask;    /* the whole GPUs; 0: the lowest-indexed idle */
};

/* Give job `job` one executor of role `role` (or an application master,
 * role SIM_ROLE_AM) on node `node` holding (cores, mem_mib, gpus), cores
 * in milli-cores, gpus whole ones (the lowest-indexed idle).
 * Memory and GPUs must fit (clu_fits); cores may oversubscribe.  The
 * executor can run tasks after the executor start-up overhead; an AM
 * coming up makes the policy's schedule hook run.  Returns the executor
 * id. */
int sim_launch_executor(struct sim *s, int job, int role, int node,
			int cores, int64_t mem_mib, int gpus);
/* The same with the GPUs of `g` (whole ones where it names them, or a
 * share of one, which must fit: clu_fits_share). */
int sim_launch_executor_on(struct sim *s, int job, int role, int node, int cores,
			   int64_t mem_mib, const struct sim_gpu_ask *g);

/* Give up on a job that has no task running: it becomes
 * JOB_UNPLACEABLE for reason `why` (enum sim_why), releasing any
 * executors it holds.  Like a job still waiting when the run ends, it
 * has no end time and does not count in the makespan, whenever it is
 * rejected. */
void sim_reject_job(struct sim *s, int job, int why);

/* End job `job`, which has no task running, now as JOB_FAILED for
 * reason `why` (not SIM_WHY_NONE), releasing any executors it holds:
 * its application failed before it ran (its cluster manager refused a
 * request at submission, ...).  Unlike a rejected job it has an end
 * time, now; like one, that end leaves the makespan as it was. */
void sim_fail_job(struct sim *s, int job, int why);

/* Why job `job` is not done (enum sim_why), once its status is final:
 * SIM_WHY_NONE for a done job. */
int sim_job_why(const struct sim *s, int job);

/* Preempt executor x (live, of any job): its running tasks are killed
 * (their work lost; they run again, not counted as failures), its slots
 * take no more, and after its model's preempt_cost_us its resources go
 * back; then its model and the policy are told (exec_lost, why
 * SIM_WHY_PREEMPTED).  Returns the cost, µs, or -1 if x is already
 * being preempted. */
int64_t sim_preempt_executor(struct sim *s, struct sim_exec *x);

/* The policy's timer hook runs `delay_us` from now with `tag`
 * (heartbeats, scheduling rounds); any number may be pending. */
void sim_policy_timer(struct sim *s, double delay_us, uint32_t tag);

/* From a policy's timer hook: its schedule hook runs once this
 * timestamp's events are all applied (with the arrivals' and ends'
 * notes of that instant), rather than the decision being made inside the
 * timer, before events of the same instant still queued. */
void sim_policy_reschedule(struct sim *s);

/* Hold job `job`'s tasks until `n_ready` of its executors (AMs
 * excluded, every role) are up, or sim_release_tasks, whichever comes
 * first: while held, an executor that comes up is counted but not
 * opened (its model's exec_ready hook waits); at the release the model
 * hears of every executor up by then, in launch order.  Call it before
 * the job's first executor is up (at its arrival).  What Spark's
 * scheduler backend does until enough executors have registered. */
void sim_hold_tasks(struct sim *s, int job, int n_ready);
/* End the hold now (no-op if none). */
void sim_release_tasks(struct sim *s, int job);

/* Tasks running on executor x now (0 for one not up yet, or an AM). */
int sim_exec_tasks(const struct sim *s, const struct sim_exec *x);

/* Role of the next executor a role-blind policy launches for `job`:
 * the first role still short of its count, else the last role. */
int sim_next_role(const struct sim_job *j);

/* Executors job `job` still wants over all roles (count - granted).
 * Both read j->live: meaningless for a job that has ended. */
int sim_execs_wanted(const struct sim_job *j);
/* Job j's run-time estimates (its model's estimate hook): the requested
 * time and the actual run time at speed 1, µs, each -1 where unknown. */
/* Job j's number in its source (sim_job_ops.number): a trace's job
 * number, else j's id. */
int64_t sim_job_number(const struct sim *s, const struct sim_job *j);
void sim_job_estimate(const struct sim *s, const struct sim_job *j, int64_t *requested_us,
		      int64_t *actual_us);
/* Whether job j's tasks resume after a preemption with the work they
 * had left (sim_job_ops.resume_cost_us), rather than from the start. */
bool sim_job_resumes(const struct sim *s, const struct sim_job *j);
/* Job j's work rate on one GPU of model `gpu_model` ("gpu" for a node
 * that names none): its group's `throughput` entry if the scenario gives
 * one (0 for a model it does not list), else its model's throughput
 * hook, else 1.  A throughput matrix's entry (gavel). */
double sim_job_throughput(const struct sim *s, const struct sim_job *j, const char *gpu_model);

/* ---- job models ------------------------------------------------------
 *
 * A job model (workloads/model.h, one file per model) gives
 * the kernel these hooks, one const table per model, the same for every
 * job of its groups.  They are the model's part of a run; its part of
 * the scenario file (keys, checks) is in workloads/model.h.  A hook
 * left NULL does what its comment says.  Hooks run inside events, at
 * the simulated time of the event (sim_now), and act on the run only
 * through the requests below and the fields the structs mark as the
 * model's own (sim_job.mstate, sim_live.mword, sim_exec.mbyte).
 */

/* One stage of a job's DAG, as a job model builds it. */
struct sim_dag_stage {
	int ntasks;
	double *work_us;   /* per task: duration at speed 1, µs */
	int *parents;      /* indices of earlier stages */
	int nparents;
	/* Data locality (docs/model.md, "Data locality"): the nodes each task
	 * prefers, `npref` a task (task t's are pref[t * npref ...], node ids
	 * of the cluster, -1 for none), and the MiB a task that prefers some
	 * node reads over the network when it runs on none of them, at its
	 * node's network bandwidth: remote_mib[t], or where that is NULL
	 * remote_each_mib for every task but the last, which reads
	 * remote_last_mib (a file cut into equal splits and what is left: no
	 * array per task); all 0: nothing.  npref 0 (pref NULL): no
	 * task prefers a node; the stage then costs nothing more, and its
	 * slots are filled as if locality did not exist. */
	int npref;         /* preferred nodes per task, 0..SIM_MAX_PREF */
	int *pref;
	double *remote_mib;
	double remote_each_mib, remote_last_mib;
	/* Not before: its tasks start no sooner than the job's arrival plus
	 * this, µs, whatever its parents (a replayed Spark job's submission by
	 * its driver: workloads/sparkapp.c); 0: no such wait. */
	int64_t release_us;
	/* Once it could start (parents done, released), held this long more:
	 * its driver's own time before its first task could launch (a
	 * replayed stage's computing of partitions, serializing of its
	 * tasks); 0: none. */
	int64_t delay_us;
};
#define SIM_MAX_PREF 512   /* preferred nodes of one task, at most */
struct sim_dag {
	int nstages;
	struct sim_dag_stage *st;
	int64_t task_delay_us; /* per-task launch delay (overheads) */
	bool fair;             /* Spark's FAIR scheduling between the job's
				  runnable stages (spark.scheduler.mode FAIR,
				  one pool): a free slot goes to the stage
				  running the fewest tasks, ties in stage
				  order; false: FIFO, the first in stage order */
};

struct sim_job_ops {
	/* What every job of group g asks for.  Called once per group by
	 * sim_new.  Required.  Fills out's roles (out comes zeroed, with
	 * gang_role -1 and the group's cores_max and task_cpus). */
	void (*shape)(const struct scn *sc, int g, struct sim_shape *out);
	/* Jobs of one group that ask for different things (a trace's): the
	 * group's distinct shapes are nshapes(sc, g), shape k filled by
	 * shape_at as `shape` fills one (shape is then not called), and
	 * job_shape(sc, g, idx) names job idx's.  All three or none; NULL:
	 * the group's one shape. */
	int (*nshapes)(const struct scn *sc, int g);
	void (*shape_at)(const struct scn *sc, int g, int k, struct sim_shape *out);
	int (*job_shape)(const struct scn *sc, int g, int idx);
	/* The DAG of job (g, idx): its stages, their tasks' work at speed 1
	 * and the per-task launch delay (preset to the scenario's
	 * task_launch overhead).  Arrays come from arena a (live until the
	 * job's record goes back).  Called once per job, at its first
	 * dispatch.  NULL: the job runs no task (its model ends it). */
	void (*build)(const struct scn *sc, int g, int idx, uint64_t seed, struct arena *a,
		      struct sim_dag *out);
	/* Whether build gives every job of group g the same DAG (it draws
	 * nothing), so that one copy, built once, can serve them all.  NULL:
	 * no. */
	bool (*dag_shared)(const struct scn *sc, int g);
	/* Job j arrived (status JOB_WAITING), before the policy hears of
	 * it.  May set timers.  NULL: nothing. */
	void (*arrived)(struct sim *s, struct sim_job *j);
	/* Executor x of job j (not an AM) is up: its start-up is over and
	 * its role's role_ready counts it.  NULL: sim_exec_open (its task
	 * slots take tasks). */
	void (*exec_ready)(struct sim *s, struct sim_job *j, struct sim_exec *x);
	/* A timer the model set fired: a job timer (x NULL) or executor x's.
	 * tag is the model's, as given when set. */
	void (*timer)(struct sim *s, struct sim_job *j, struct sim_exec *x, int tag);
	/* Task `task` of stage `stage` ended; then, if it was the stage's
	 * last, stage_end.  Both before the kernel ends a job whose last
	 * stage is done.  NULL: nothing. */
	void (*task_end)(struct sim *s, struct sim_job *j, int stage, int task);
	void (*stage_end)(struct sim *s, struct sim_job *j, int stage);
	/* Executor x of job j was lost (its node failed, it was preempted)
	 * with reason `why` (enum sim_why), after the model heard it was up
	 * (exec_ready); its running tasks are back in their stages.  It is
	 * still listed in j's executors, no longer live.  One lost before
	 * (starting, or up but held by sim_hold_tasks) ran nothing of the
	 * job's: the model does not hear of it, the policy does.  NULL: the
	 * job goes on with the executors it has left. */
	void (*exec_lost)(struct sim *s, struct sim_job *j, struct sim_exec *x, int why);
	/* Job j ends (status final, executors not yet given back).  NULL:
	 * nothing. */
	void (*teardown)(struct sim *s, struct sim_job *j);
	/* What preempting executor x costs before its resources go back,
	 * µs (a checkpoint to save, ...); its tasks stop at once.  NULL: 0
	 * (a Spark executor holds no state worth saving). */
	int64_t (*preempt_cost_us)(struct sim *s, struct sim_job *j, struct sim_exec *x);
	/* Whether a task of job j that a preemption stops resumes from a
	 * checkpoint: -1 no, it runs again from the start (a Spark task
	 * keeps nothing); else what resuming costs, µs of work at speed 1
	 * added to the work it had left when stopped (a checkpoint to
	 * restore), paid at each resume.  Only preemptions: a task killed by
	 * a node's failure runs from its last checkpoint, if it has one, or
	 * from the start.  NULL: -1.  The same for every job of group g. */
	int64_t (*resume_cost_us)(const struct scn *sc, int g);
	/* Job (g, idx)'s run time as policies that need one read it
	 * (backfilling, shortest job first; sim_job_estimate): *requested_us
	 * the time its user asked for (SWF field 9: a backfilling
	 * scheduler's estimate), *actual_us how long it runs at speed 1 with
	 * all its executors up (an oracle), each -1 where the model cannot
	 * say.  NULL: -1 and -1. */
	void (*estimate)(const struct scn *sc, int g, int idx, int64_t *requested_us,
			 int64_t *actual_us);
	/* Job (g, idx)'s number in its source (a trace's job number), for
	 * the ties a published simulator breaks by it (sim_job_number).
	 * NULL: the job's id. */
	int64_t (*number)(const struct scn *sc, int g, int idx);
	/* The names of its states (sim_job_set_state), by number, for
	 * timelines: NULL-terminated; NULL: the model has none to show. */
	const char *const *state_names;
	/* Its roles' names, by role ("executor", "ps"), for executors.csv
	 * and messages; and what a message calls a role's executors, in
	 * full and plural ("parameter servers"; NULL: the name). */
	const char *roles[2];
	const char *roles_what[2];
	/* What a policy's message calls the application (its framework's
	 * name); NULL: "the application". */
	const char *app_name;
	/* Job group g's work rate on one GPU of model `gpu_model` (a
	 * throughput matrix's entry, gavel: sim_job_throughput), in units of
	 * its own, the same for every model; 0: it cannot run there.  NULL:
	 * 1 on every model (the job's speed does not depend on it). */
	double (*throughput)(const struct scn *sc, int g, const char *gpu_model);
};

/* Role `role` of shape sh by name ("am" for SIM_ROLE_AM, "?" for one
 * its model names not), what messages call its executors, and what
 * they call the application (sim_job_ops.roles, roles_what, app_name):
 * a policy names a job's parts by these, never by its model. */
static inline const char *sim_role_name(const struct sim_shape *sh, int role)
{
	if (role < 0)
		return "am";
	return role < 2 && sh->ops->roles[role] ? sh->ops->roles[role] : "?";
}
static inline const char *sim_role_what(const struct sim_shape *sh, int role)
{
	return role >= 0 && role < 2 && sh->ops->roles_what[role] ? sh->ops->roles_what[role]
								  : sim_role_name(sh, role);
}
static inline const char *sim_app_name(const struct sim_shape *sh)
{
	return sh->ops->app_name ? sh->ops->app_name : "the application";
}

/* The DAG the kernel builds for job (g, idx) of sc with seed `seed`
 * (the task_launch overhead preset, then the model's build hook; no
 * stage without one), arrays from arena a. */
void sim_build_dag(const struct scn *sc, int g, int idx, uint64_t seed, struct arena *a,
		   struct sim_dag *out);

/* Requests a job model may make from its hooks. */

/* Job timer: the model's timer hook runs for job j (x NULL) `delay_us`
 * after now (rounded to the µs), with `tag` (0-253), unless before then
 * the job ended or its state changed (sim_job_set_state, even back to
 * the same value): a model cancels its pending job timers by moving to
 * another state. */
void sim_job_timer(struct sim *s, struct sim_job *j, double delay_us, int tag);
/* Executor timer: the model's timer hook runs for executor x after
 * `delay_us`, with `tag`, unless x is released first.  An executor has
 * one pending timer (its start-up counts as one): setting one replaces
 * the last. */
void sim_exec_timer(struct sim *s, struct sim_exec *x, double delay_us, int tag);
/* Job j's model moves it to state st (sim_job.mstate): its pending job
 * timers are off. */
void sim_job_set_state(struct sim *s, struct sim_job *j, int st);
/* x's task slots take tasks from now on (the default exec_ready). */
void sim_exec_open(struct sim *s, struct sim_job *j, struct sim_exec *x);
/* The job is running from now (its start time), with or without tasks. */
void sim_job_started(struct sim *s, struct sim_job *j);
/* End job j now with status st (not JOB_UNPLACEABLE) and reason why
 * (SIM_WHY_NONE for JOB_DONE only); it must have no task running. */
void sim_end_job(struct sim *s, struct sim_job *j, enum sim_job_status st, int why);
/* Executor x takes one idle GPU of its node behind the scheduler (one
 * must be free), until sim_give_gpus or its release. */
void sim_take_gpu(struct sim *s, struct sim_exec *x);
void sim_give_gpus(struct sim *s, struct sim_exec *x);
/* Job j keeps n GPUs busy from now without tasks (training): they count
 * in gpu_busy_us.  Back to 0 at the latest when it ends. */
void sim_job_busy_gpus(struct sim *s, struct sim_job *j, int n);
/* Job j's executors, in launch order; NULL for one lost (its node
 * failed, it was preempted). */
int sim_job_nexecs(const struct sim_job *j);
struct sim_exec *sim_job_exec(struct sim *s, const struct sim_job *j, int i);
/* Kill every task job j runs, to run again, each a failed attempt (a
 * parameter server it pulls from is gone: Spark counts the task's
 * failure); its work so far is lost.  A task past task_max_failures
 * fails the job (reason task-failures): returns true then. */
bool sim_kill_tasks(struct sim *s, struct sim_job *j);
/* This replication's seed (rng.h keys). */
uint64_t sim_seed(const struct sim *s);
/* Whether the policy's cluster manager isolates GPUs (an executor sees
 * only the GPUs it was given; policy_ops.gpu_aware of its configuration). */
bool sim_gpus_isolated(const struct sim *s);
/* Executor x plays `role` in its application (outputs only; the kernel
 * and the policies go on counting it under the role it was launched
 * for): a model whose application assigns roles itself, behind a
 * policy that does not place them (sim_roles_placed), says so here. */
void sim_exec_plays(struct sim_exec *x, int role);
/* Whether the policy decides which executor plays which role of a job
 * (policy_ops.places_roles): a job's roles are then the roles its
 * executors were launched for; else a model whose application assigns
 * roles itself may ignore the launch role. */
bool sim_roles_placed(const struct sim *s);
/* Work the model lost (training since its last checkpoint, ...), for
 * runs.csv's lost_core_s and lost_gpu_s. */
void sim_add_lost_work(struct sim *s, double core_us, double gpu_us);
/* A broken invariant: print it with the simulated time, and abort. */
void sim_die(const struct sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

#endif
