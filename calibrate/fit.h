/* fit.h - fitting cost models to timing samples, and the files they live
 * in: the samples CSV and the cost-model YAML (fit_ prefix).
 *
 * Each (kernel, device) gets duration = intercept + slope x size by GSL's
 * weighted least squares (gsl_fit_wlinear) over the per-size medians of
 * its samples, weighted 1/median^2: the noise is multiplicative, so a
 * size's spread grows with its duration, and a median with few repeats
 * is a far steadier point than their variance (which can be 0 at timer
 * resolution).  Because these weights are relative, the coefficients'
 * covariance is scaled by the reduced chi-square, chisq / (n - 2).
 *
 * The clock (calibrate/README.md, "Two clocks"): a group is fitted on
 * its wall times unless every sample carries its thread's CPU time and
 * the median share CPU / wall of its sweep's kept samples is below
 * FIT_CPU_SHARE: the thread then waited for its core (other work held
 * it) for more than 5 % of the time, and the group, its contention
 * too, is fitted on the CPU times (the kernels are single-threaded:
 * their CPU time is the thread's).
 */
#ifndef HETSIM_FIT_H
#define HETSIM_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cal.h"

#define FIT_MAX_K 64 /* values of k a contention fit holds */

struct fit_line {
	char kernel[64], device[64];
	const char *unit;          /* static: the kernel's work unit */
	int n;                     /* sizes (points) fitted */
	int samples;               /* samples behind them */
	double intercept, slope;   /* s, s per unit (unclamped) */
	double intercept_ci[2];    /* 95 % Student-t interval, s */
	double slope_ci[2];        /* 95 % Student-t interval, s per unit */
	double r2;                 /* weighted R^2 of the medians */
	double cv;                 /* residual CV of all samples: sqrt(sum
				    * ((y - fit) / fit)^2 / (samples - 2)) */
	bool on_cpu;               /* fitted on the thread's CPU time, not the
				      wall time (FIT_CPU_SHARE) */
	double cpu_share;          /* median over the sweep's kept samples of
				      CPU time / wall time; 0: not measured */
	/* Contention (fit_contention): nk values of k, k[0] = 1; 0: none */
	int nk;
	int k[FIT_MAX_K];          /* copies running at once, increasing */
	double slowdown[FIT_MAX_K];/* median over rounds of the k copies' mean
				      time / the round's k = 1 time */
	double spread[FIT_MAX_K];  /* 1.4826 x MAD / median of the samples at k */
	int ksamples[FIT_MAX_K];   /* samples at k */
};

/* The work unit of a known kernel ("MiB", "samples"), else "units". */
const char *fit_unit(const char *kernel);

/* Below this median share of CPU time in wall time a group is fitted on
 * its CPU times (the clock rule, above). */
#define FIT_CPU_SHARE 0.95

/* Fit every (kernel, device) of the samples, in order of first
 * appearance: the line from the samples timed alone (k <= 1), and where
 * the group has samples with k > 1 its contention (fit_contention), on
 * the clock the rule above picks.  *out is allocated (free() it).
 * Returns the number of lines, or -1 with a message in err (a group
 * with fewer than 3 distinct sizes, or a non-positive duration, or a
 * bad contention group). */
int fit_all(const struct cal_samples *s, struct fit_line **out, char *err, size_t errlen);

/* The contention of one (kernel, device), f->kernel and f->device, from
 * the samples of that group: for each k > 1 present, the median of its
 * samples over the median of the samples timed alone (k <= 1) at the
 * sizes the k > 1 samples have; spread: 1.4826 x the median absolute
 * deviation over the median, of the samples at k (alone: of those
 * reference samples).  Sets f->nk (0 without k > 1 samples).  Returns
 * 0, or -1 with a message (no sample alone at those sizes, more than
 * FIT_MAX_K values of k). */
int fit_contention(const struct cal_samples *s, struct fit_line *f, char *err, size_t errlen);

/* True when the fit is too poor to use as a model, with the reason in
 * why: the duration grows with size (slope's interval above 0) but
 * R^2 < FIT_MIN_R2, or the residual CV exceeds FIT_MAX_CV. */
#define FIT_MIN_R2 0.95
#define FIT_MAX_CV 0.10
bool fit_poor(const struct fit_line *f, char *why, size_t len);

/* What the model's meta records (docs/scenario.md, "meta"); strings may
 * be NULL and numbers 0: left out. */
struct fit_meta {
	const char *source;   /* "hetsim calibrate (cpu backend)" */
	const char *machine;  /* CPU or GPU model */
	int cores;            /* 0 = unknown */
	const char *backend;
	int threads;          /* 0 = unknown */
	const char *data;     /* what the kernels read */
	int64_t memory_mib;   /* the machine's memory, MiB; machine: is
				 written when machine, cores and this are known */
	const char *os, *compiler, *blas; /* struct cal_prov's */
	const char *date;     /* when measured, ISO 8601 UTC */
	const char *ref_kernel; /* CAL_REF_KERNEL */
	double ref_speed;     /* its speed when measured, MiB/s; 0 = none */
	int contention_k[2];  /* the contention entry's k range; 0 = none */
	const struct cal_timing *timing; /* the order's seed, the CI rule and
				 what it took (meta.timing); NULL = none */
	const double *drift;  /* the reference kernel's speed at each drift
				 point, MiB/s, in time order (meta.drift) */
	int ndrift;           /* points; 0 = none */
	const char *gpu;      /* the GPU measured (meta.gpu, from
				 hetsim-cuda-cal's SAMPLES.csv.meta); NULL = none */
	int64_t gpu_memory_mib; /* its memory, MiB (gpu: needs it) */
	const char *gpu_cuda; /* its compute capability, SMs, driver, runtime */
	const struct cal_load_sum *load; /* the run's load checks (meta.load);
				 NULL = none */
};

/* The per-task framework overhead written as task_overhead, µs, and the
 * reasoning recorded with it (calibrate/README.md). */
#define FIT_TASK_OVERHEAD_US 30000
extern const char fit_task_overhead_why[];

/* Write the cost model (docs/scenario.md, "Cost model"), version 2, to
 * path through
 * path.tmp + rename.  A negative fitted coefficient is written as 0 (the
 * format wants >= 0); fit: keeps the raw one.  Each kernel's noise cv is
 * the largest of its devices'.  Returns 0, or -1 with a message. */
int fit_write_model(const char *path, const struct fit_line *f, int n,
		    const struct fit_meta *meta, char *err, size_t errlen);

/* Samples CSV: header "kernel,device,size,repeat,seconds,k,round,seq,
 * dropped,cpu_seconds", one row per sample (seconds: wall time; k:
 * copies at once, 1 alone; round: the contention round, 0 the sweep;
 * seq: the order it was timed in, 0 unknown; dropped: 1 a stall, left
 * out of the fits; cpu_seconds: the thread's CPU time of the same run, 0
 * not measured), after a comment line "# seed_note" when seed_note is
 * not NULL.  Written through path.tmp + rename.  Returns 0 or -1.  The
 * reader also takes the 5 columns without k (k = 1), as hetsim-cuda-cal
 * writes them, the 6 of older files (round 0, seq 0, not dropped) and
 * the 9 of files before cpu_seconds (0). */
int fit_write_samples(const char *path, const struct cal_samples *s, const char *seed_note,
		      char *err, size_t errlen);
/* Read such a file (lines starting with '#' and blank lines are
 * skipped; the header is optional), appending to s.  Returns 0, or -1
 * with "file:line: what" in err. */
int fit_read_samples(const char *path, struct cal_samples *s, char *err, size_t errlen);

#endif
