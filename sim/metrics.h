/* metrics.h - what one run measured (met_ prefix).
 *
 * met_compute() reads a finished run.  docs/output.md defines every
 * figure: which jobs count, units, the percentile method.
 */
#ifndef HETSIM_METRICS_H
#define HETSIM_METRICS_H

#include <stdint.h>

#include "scenario.h"

struct sim;

struct met_run {
	int jobs;                 /* jobs in the run (warm-up included) */
	int counted;              /* jobs after the warm-up ones */
	int done, failed, timed_out, unplaceable; /* of the counted jobs */
	double makespan_s;        /* last end - first arrival, all jobs that ended */
	double jct_mean_s, jct_p50_s, jct_p95_s, jct_p99_s; /* done, counted jobs */
	double wait_mean_s;       /* start - arrival, counted jobs that started */
	double cpu_util;          /* busy core-time / (cores × span), 0..1 */
	double gpu_util;          /* training GPU-time / (GPUs × span) */
	double cpu_alloc;         /* cores held by executors / (cores × span) */
	double gpu_alloc;         /* GPUs held or grabbed / (GPUs × span) */
	double jct_type_s[SCN_JOB_TYPES]; /* mean JCT of done, counted jobs of a type */
	int done_type[SCN_JOB_TYPES];     /* how many: 0 = no such job, mean undefined */
	uint64_t events;          /* events handled */
	uint64_t decisions;       /* policy schedule calls */
};

void met_compute(const struct sim *s, struct met_run *m);

/* Quantile p (0..1) of n sorted values, linear interpolation between
 * order statistics (GSL's gsl_stats_quantile_from_sorted_data; R type 7). */
double met_quantile(const double *sorted, int n, double p);

#endif
