/* sim.h - the engine: one simulated run of one policy (sim_ prefix).
 *
 * sim_new() builds the cluster and the jobs of one replication of a
 * scenario; sim_run() plays it to the end under one policy.  Policies
 * read nodes, jobs and executors through the const accessors below and
 * act only through sim_launch_executor() and sim_reject_job().
 *
 * Time is an integer count of microseconds.  Events at the same time
 * fire in the order they were scheduled; after all events of a timestamp
 * the policy's schedule hook runs (if anything it cares about changed),
 * then Spark's in-application dispatcher fills free task slots.
 */
#ifndef HETSIM_SIM_H
#define HETSIM_SIM_H

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
	JOB_FAILED,      /* failed: a TF worker found no idle GPU after its
			    retries (gpu_busy: retry), or the policy gave up */
	JOB_TIMED_OUT,   /* TFoS reservation timeout */
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
				allocation (yarn.scheduler.maximum-allocation-mb) */
	SIM_WHY_JOB_TYPE,    /* the policy's system cannot run this job type */
	SIM_WHY_TIMEOUT,     /* its executors were not all up within the
				reservation timeout (TFoS) */
	SIM_WHY_GPU_RETRIES, /* a TF node found no idle GPU through its retries */
	SIM_WHY_NEVER_PLACED,/* the run ended with it waiting, though the policy
				found nothing that rules it out */
	SIM_WHY_LABEL0,      /* SIM_WHY_LABEL(0); keep last */
};
#define SIM_WHY_LABEL(k) (SIM_WHY_LABEL0 + (k))
#define SIM_WHY_CODES (SIM_WHY_LABEL0 + SCN_MAX_LABELS) /* codes, all labels */
/* The code's name as jobs.csv writes it ("memory", "label:v100", ...),
 * into buf (at least 128 bytes); returns buf.  Label names come from sc. */
const char *sim_why_name(const struct scn *sc, int why, char *buf, size_t len);

/* Role of an application master container (YARN): it holds resources for
 * the application's lifetime and runs no task; not one of a job's roles. */
#define SIM_ROLE_AM (-1)

/* TFoS phases of an mnist_spark job. */
enum sim_phase { PH_RESERVE, PH_STARTUP, PH_TRAIN, PH_SHUTDOWN, PH_OVER };

/* What one role of a job asks for.  wordcount and synthetic jobs have one
 * role (0 = Spark executors); mnist_spark has two (0 = the TF parameter
 * server, 1 = TF workers); angel has two (0 = Spark executors, 1 = Angel
 * parameter servers, which run no task and must all be up before the
 * first task starts).  The same for every job of a group. */
struct sim_role {
	int64_t mem_mib;   /* memory each, MiB */
	uint64_t require;  /* labels a node must carry */
	uint64_t prefer;   /* labels preferred */
	int count;         /* executors wanted (spark.executor.instances) */
	int cores;         /* cores each; 0 = unset (policy decides) */
	int gpus;          /* GPUs each */
};

/* What every job of a scenario job group asks for (wl_job_shape). */
struct sim_shape {
	int nroles;
	struct sim_role role[2];
	int cores_max;           /* spark.cores.max, 0 = unlimited */
	int task_cpus;           /* cores per task */
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
	int cores_granted;       /* cores of live executors (AMs excluded) */
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
	int execs_ready;         /* executors of its roles that are up */
	int tasks_running;
	int gpu_waits;           /* mnist_spark: TF nodes the reservation ended
				    for that do not have their device yet */
	int gpus_training;       /* mnist_spark: workers training on GPUs */
	bool dispatch_queued;    /* on the engine's dispatch list */
	bool startup_over;       /* mnist_spark: start-up time passed, training
				    waits for a TF node's GPU pick */
	int slot;                /* its place in the pool; -1: the zero record */
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
	uint8_t type;            /* enum scn_job_type */
	uint8_t status;          /* enum sim_job_status */
	uint8_t nroles;          /* = shape->nroles */
	uint8_t phase;           /* engine-private: enum sim_phase (mnist_spark) */
};

struct sim_exec {
	int id;                  /* launch number, unique in the run */
	int job, role, node;
	int cores;               /* cores held */
	int64_t mem_mib;         /* memory held, MiB */
	int gpus;                /* GPUs the scheduler gave it */
	int gpus_grabbed;        /* GPUs a TF node holds behind the scheduler now
				    (from its pick until a worker's training
				    ends, a PS's executor ends) */
	int gpus_took;           /* GPUs it took at any time (for outputs) */
	int64_t gpu_from_us, gpu_to_us; /* when it held GPUs (given at launch,
				    or taken by a TF node); -1 if never */
	int64_t launch_us;       /* granted */
	int64_t ready_us;        /* could run tasks (after start-up); -1 */
	int64_t end_us;          /* released; -1 while live */
	int slots;               /* task slots: cores / task_cpus; 1 for a TF
				    node; 0 for AMs and Angel servers */
	bool live;
	/* engine-private */
	uint8_t gpu_state;       /* TF node: where it is in TFoS's GPU calls (sim.c) */
	uint8_t gpu_tries;       /* TF node: failed probes of its current get_gpus */
	uint8_t gpu_calls;       /* TF PS: failed get_gpus calls of start_cluster_server */
	uint8_t gpu_attempts;    /* TF node: Spark attempts of its reservation task */
	uint64_t ev_seq;         /* seq of its one pending event that counts (eq.h):
				    its ready event, then its GPU probes */
	int jpos;                /* its index in its job's execs */
	int node_prev, node_next;/* the node's executor list; next = free list */
};

/* Called once per executor when it is released (end_us set), in release
 * order; the record is gone after the call.  This keeps the engine's
 * memory in proportion to the live executors, whatever the run's length.
 * When it is called, every job whose status is final (JOB_DONE or after)
 * has its public fields final too, live aside: a sink may hand such jobs
 * to another thread to read while the run goes on (`hetsim run` writes
 * their jobs.csv rows so). */
typedef void (*sim_exec_sink)(void *ctx, const struct sim *s, const struct sim_exec *x);

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
	double gpu_busy_us;      /* ∫ GPUs training dt */
	double core_alloc_us;    /* ∫ cores held by executors dt */
	double gpu_alloc_us;     /* ∫ GPUs held or grabbed dt */
};

/* Build run `replication` of scenario `s` under policy configuration
 * `pol` (an entry of s->policies).  The scenario must outlive the sim.
 * Returns NULL with a message in err only if the policy is unknown. */
struct sim *sim_new(const struct scn *s, const struct scn_policy *pol,
		    uint32_t replication, char *err, size_t errlen);
void sim_free(struct sim *s);

/* Simulated time never goes past this, the event queue's last time
 * (2^50 - 1 µs, about 35.7 years; eq.h). */
#define SIM_TIME_MAX (EQ_TIME_LIMIT - 1)

/* Play the run to its end.  Returns 0, or -1 if an event would fall past
 * SIM_TIME_MAX (absurd durations or speeds); the run's results are then
 * meaningless and must not be written. */
int sim_run(struct sim *s);

/* Checking switch: when true, every change to a node recounts its
 * executors and running tasks against its free amounts (and a broken
 * invariant aborts with the simulated time).  Off by default (it costs a
 * third of a large run); on in the tests and in the sanitizer build. */
extern bool sim_recount;

/* The engine drops stale events from its queue once superseded task ends
 * are at least this many and half the queue (sim.c, maybe_compact); it
 * never changes what happens.  Tests lower it to compact at once. */
extern uint64_t sim_compact_min;
extern uint64_t sim_compactions; /* compactions made so far, all runs (tests) */

/* Read-only views, for policies, metrics and outputs. */
int64_t sim_now(const struct sim *s);
const struct scn *sim_scenario(const struct sim *s);
const struct clu *sim_cluster(const struct sim *s);
/* The first member of struct sim (sim.c), public so that these two are
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
const struct sim_totals *sim_totals(const struct sim *s);
const struct scn_job_group *sim_job_group(const struct sim *s, int job);

/* Requests a policy may make during its hooks. */

/* Give job `job` one executor of role `role` (or an application master,
 * role SIM_ROLE_AM) on node `node` holding (cores, mem_mib, gpus).
 * Memory and GPUs must fit (clu_fits); cores may oversubscribe.  The
 * executor can run tasks after the executor start-up overhead; an AM
 * coming up makes the policy's schedule hook run.  Returns the executor
 * id. */
int sim_launch_executor(struct sim *s, int job, int role, int node,
			int cores, int64_t mem_mib, int gpus);

/* Give up on a job that has no task running: it becomes
 * JOB_UNPLACEABLE for reason `why` (enum sim_why), releasing any
 * executors it holds.  Like a job still waiting when the run ends, it
 * has no end time and does not count in the makespan, whenever it is
 * rejected. */
void sim_reject_job(struct sim *s, int job, int why);

/* Why job `job` is not done (enum sim_why), once its status is final:
 * SIM_WHY_NONE for a done job. */
int sim_job_why(const struct sim *s, int job);

/* Role of the next executor a role-blind policy launches for `job`:
 * the first role still short of its count, else the last role. */
int sim_next_role(const struct sim_job *j);

/* Executors job `job` still wants over all roles (count - granted).
 * Both read j->live: meaningless for a job that has ended. */
int sim_execs_wanted(const struct sim_job *j);

#endif
