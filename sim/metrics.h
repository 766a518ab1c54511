/* metrics.h - what one run measured (met_ prefix).
 *
 * met_compute() reads a finished run.  docs/output.md defines every
 * figure: which jobs count, units, the percentile method.
 */
#ifndef HETSIM_METRICS_H
#define HETSIM_METRICS_H

#include <stdint.h>

#include "scenario.h"
#include "sim.h"          /* SIM_WHY_CODES */

/* The jobs of one job model in a run: met_run.type[t], t being the
 * model's index in the registry (a job's `type`; the metrics never name
 * a model).  jobs == 0: the run has no job of it, and the rest is 0 and
 * NaN. */
struct met_type {
	int jobs;                 /* jobs of this model in the run (warm-up included) */
	int counted;              /* of them, jobs after the warm-up ones */
	int done, failed, timed_out, unplaceable; /* of its counted jobs */
	double jct_mean_s, jct_p50_s, jct_p95_s, jct_p99_s; /* its done, counted
				     jobs; NaN without one */
	double wait_mean_s;       /* its counted jobs that started; NaN without one */
};

/* A figure with nothing to measure is NaN ("empty" in the CSV files,
 * docs/output.md), never 0: a policy that placed nothing must not look
 * best. */
struct met_run {
	int jobs;                 /* jobs in the run (warm-up included) */
	int counted;              /* jobs after the warm-up ones */
	int done, failed, timed_out, unplaceable; /* of the counted jobs */
	int why[SIM_WHY_CODES];   /* counted jobs not done, by reason (enum sim_why) */
	uint64_t done_set;        /* the counted jobs done, as a set: the sum of a
				     hash of each one's index; two runs that
				     finished the same jobs have the same, so
				     a change of makespan compares like with
				     like (runs.csv's done_set) */
	double makespan_s;        /* last end - first arrival, all jobs that
				     ended; NaN if no job (warm-up included) is
				     done */
	double jct_mean_s, jct_p50_s, jct_p95_s, jct_p99_s; /* done, counted jobs;
				     NaN without one */
	double wait_mean_s;       /* start - arrival, counted jobs that started;
				     NaN without one */
	/* Batch metrics of the done, counted jobs (NaN without one), with
	 * run = end - start and flow = end - arrival (the JCT): the slowdown
	 * (stretch) flow / run, 1 for a run of 0; the bounded slowdown
	 * max(1, flow / max(run, MET_BSLD_TAU_S)) */
	double slowdown_mean, slowdown_p50, slowdown_p95, slowdown_p99;
	double bsld_mean, bsld_p50, bsld_p95, bsld_p99;
	double cpu_util;          /* busy core-time / (cores × span), 0..1; NaN
				     when the span is 0 */
	double gpu_util;          /* training GPU-time / (GPUs × span); NaN
				     without GPUs or span */
	double cpu_alloc;         /* cores held by executors / (cores × span) */
	double gpu_alloc;         /* GPUs held or grabbed / (GPUs × span) */
	double mem_alloc;         /* MiB held by executors / (MiB × span) */
	struct met_type type[SCN_MAX_MODELS]; /* the same figures, model by model */
	uint64_t events;          /* events handled */
	uint64_t decisions;       /* policy schedule calls */
	/* failures, speculation, preemption (sim_totals) */
	double lost_core_s;       /* killed tasks' cores × time they had run */
	double lost_gpu_s;        /* GPU-time a model lost (training since a checkpoint) */
	int64_t tasks_retried;    /* task attempts killed and run again */
	int64_t execs_lost;       /* executors lost with their node or preempted */
	int64_t preemptions;
	double node_availability; /* 1 - node-time down / (nodes × span); NaN
				     when the span is 0 */
	int64_t spec_launched, spec_won; /* speculative copies started, won */
};

#define MET_BSLD_TAU_S 10.0 /* the bounded slowdown's threshold, s (Feitelson
				  et al.'s usual 10 s; compare's) */

void met_compute(const struct sim *s, struct met_run *m);

/* The same, job by job: met_acc_init, then met_acc_jobs for jobs in id
 * order (a run's jobs below `to` whose status is final; see
 * sim_exec_sink), then met_acc_finish after the run, which fills *m with
 * exactly what met_compute gives (the sums are taken in the same order)
 * and frees what init took.  `hetsim run` feeds it on its writer thread
 * while the run goes on, so that little is left to do at the end. */
union met_jct {
	int64_t key;              /* while collected: the JCT in µs, times
				     2^MET_TYPE_BITS, plus the job's type */
	double s;                 /* once sorted: the JCT, s */
};
#define MET_TYPE_BITS 4       /* room for SCN_MAX_MODELS types in a key */
struct met_acc {
	struct met_run m;         /* counts so far */
	union met_jct *jct;       /* JCTs of done, counted jobs */
	union met_jct *tmp;       /* the sort's scratch, as many; then each
				     model's JCTs, model by model */
	int njct;
	int run[64];              /* jct[run[k] .. run[k + 1]) is sorted, the
				     last run ending at njct (metrics.c) */
	int nruns;
	double wait;              /* sum of waits, s */
	int nwait;
	double type_wait[SCN_MAX_MODELS]; /* the same, model by model */
	int type_nwait[SCN_MAX_MODELS];
	int next;                 /* the next job to take */
};
void met_acc_init(struct met_acc *a, const struct sim *s);
void met_acc_jobs(struct met_acc *a, const struct sim *s, int to);
void met_acc_finish(struct met_acc *a, const struct sim *s, struct met_run *m);
/* Free what met_acc_init took, without finishing (a run given up). */
void met_acc_free(struct met_acc *a);

/* Quantile p (0..1) of n sorted values, linear interpolation between
 * order statistics (GSL's gsl_stats_quantile_from_sorted_data; R type 7);
 * NaN for n = 0. */
double met_quantile(const double *sorted, int n, double p);

#endif
