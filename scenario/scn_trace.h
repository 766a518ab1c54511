/* scn_trace.h - jobs read from a trace, as a compact table (scn_trace).
 *
 * A trace workload (docs/traces.md) holds one row per job, not one job
 * group per shape: a row is 48 bytes, and the few distinct demands of a
 * trace are listed once (shapes), each row naming its own.  A 10^6-job
 * SWF log is then 48 MB of rows and a few hundred shapes, where job
 * groups would be one per job.  The rows are read by the importers
 * (input/trace.h) and run by the `trace` job model (workloads/trace.c).
 *
 * Units as in scenario.h: times in µs, memory in MiB; CPU in milli-cores
 * (1000 = one core: openb's cpu_milli, PAI's plan_cpu × 10) and a GPU
 * share in milli-GPUs (1000 = one whole GPU), so that a trace's
 * fractions survive import whatever the kernel makes of them.
 *
 * Module: scenario/ (types only).
 */
#ifndef HETSIM_SCN_TRACE_H
#define HETSIM_SCN_TRACE_H

#include <stdbool.h>
#include <stdint.h>

/* What each executor of one role of a trace job asks for. */
struct scn_trace_role {
	int count;          /* executors of the role (instances, pods,
			       machines of a job), >= 1 */
	int slots;          /* task slots of each: the tasks it runs at once */
	int cpu_milli;      /* CPU each, milli-cores, >= 0 */
	int64_t mem_mib;    /* memory each, MiB, >= 0 */
	int gpus;           /* whole GPUs each, >= 0 (0 with gpu_milli) */
	int gpu_milli;      /* a share of one GPU, 1..999 milli-GPUs; 0: none
			       (then `gpus` whole ones, maybe 0) */
	int constraint;     /* the GPU models it may run on: 1 + an index in
			       the trace's constraints ("V100M16|V100M32"),
			       0: any node */
	uint64_t require;   /* labels each node must carry: the loader sets
			       it from `constraint` (a label per constraint,
			       carried by the node groups of its models:
			       docs/traces.md) */
};

/* The demand of a trace job: its roles.  Every task of the job runs for
 * the row's run_us at speed 1, one per slot; the job's tasks start once
 * all its executors are up (a trace job is rigid: it ran with all its
 * processors, pods or instances at once). */
struct scn_trace_shape {
	int nroles;                   /* 1 or 2 */
	int tasks;                    /* tasks of the job, 1 .. the slots of
					 all its executors */
	struct scn_trace_role role[2];
};

/* One job: 48 bytes (44 used). */
struct scn_trace_job {
	int64_t arrival_us;  /* submission, relative to the trace's start
				after the window and the time scale */
	int64_t run_us;      /* how long each of its tasks ran, µs at speed 1
				(the time scale applied); >= 0, or -1 in an
				offer-only trace: it never leaves */
	int64_t req_us;      /* the time its user asked for (SWF field 9:
				backfilling's estimate), -1 if none */
	int32_t shape;       /* index in the trace's shapes */
	int32_t user;        /* index in the trace's users, -1 if none */
	int32_t queue;       /* the trace's queue (SWF field 15, Philly's vc,
				PAI's group) as an index in its queues, -1 */
	int32_t id;          /* the job's number in its trace (SWF field 1, or
				the record's 1-based ordinal) */
	int32_t kind;        /* the job's kind as the trace names it (SWF's
				executable number, field 14; PAI's task
				names), an index in its kinds, -1 if none */
};

/* Records of a trace left out of its table, by the reason (the importers'
 * rules, docs/traces.md), for warnings and `hetsim trace info`. */
enum scn_trace_skip {
	TRS_FILTER,      /* outside the scenario's filters (window, first N,
			    users, queues): not a warning */
	TRS_NO_RUNTIME,  /* no run time (missing, or still running) */
	TRS_NEG_TIME,    /* a negative time or a negative duration */
	TRS_NO_DEMAND,   /* asks for nothing (no processors, no CPU) */
	TRS_TOO_BIG,     /* larger than the cluster can ever hold */
	TRS_GPU_MODEL,   /* asks for a GPU model the cluster has none of */
	TRS_STATUS,      /* a status the mapping leaves out (failed, ...) */
	TRS_NONPOSITIVE, /* a run time or a requested time of 0 or none, left
			    out at the trace's drop_nonpositive: not a warning */
	TRS_NSKIP
};

struct scn_trace {
	char *path;                    /* the file read; owned */
	char *format;                  /* its format's name; owned */
	struct scn_trace_job *jobs;    /* owned, in the trace's order (arrivals
					  non-decreasing after the import's
					  stable sort) */
	int64_t njobs;
	struct scn_trace_shape *shapes; int nshapes; /* owned */
	char **users; int nusers;      /* owned: names, by index */
	char **queues; int nqueues;    /* owned */
	char **kinds; int nkinds;      /* owned: job kinds, by index */
	char **constraints; int nconstraints; /* owned: GPU model constraints as
					  written ("T4", "P100|T4"), by index */
	int64_t records;               /* data records read, kept or not */
	int64_t skipped[TRS_NSKIP];    /* records left out, by reason */
	int64_t capped;                /* jobs whose run time was cut to their
					  requested time (cap_at_request); -1:
					  the option is off */
	int64_t killed;                /* jobs to be killed at their requested
					  time (kill_at_request: run time above
					  it); -1: the option is off */
	bool kill;                     /* kill_at_request: the trace model ends
					  such a job at its request */
	bool restart;                  /* preempted: restart (trace_opts) */
	int64_t resume_cost_us;        /* else: what a resume costs, µs */
	int64_t clamped;               /* records kept with a value clamped (the
					  importer's rule says which) */
	int64_t t0_us;                 /* the trace time that became 0 */
	bool strict;                   /* imported under `strict` (the loader's
					  later checks follow it too) */
	int64_t *orig_count;           /* by shape: the jobs of the list as read,
					  before offer_pad sampled it (FGD's
					  target workload is the original
					  list's); NULL: the rows as they are;
					  owned */
	bool offer;                    /* offer-only: arrivals 2 µs apart in a
					  shuffled order, each job holding until
					  all have come (input/trace.h) */
	uint64_t offer_seed;           /* offer-only: the seed of the load's
					  order (the scenario's) */
	uint32_t offer_rep;            /* offer-only: the replication whose
					  order `jobs` is in (0: the load's) */
	struct scn_trace_job *offer_base; /* offer-only, once a replication
					  other than 0 was asked for: the
					  load's order; owned (NULL: jobs is) */
};

/* Free a trace (NULL is fine). */
void scn_trace_free(struct scn_trace *t);

/* The reason's name as warnings and `trace info` print it. */
const char *scn_trace_skip_name(enum scn_trace_skip why);

#endif
