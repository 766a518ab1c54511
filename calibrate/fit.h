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
 */
#ifndef HETSIM_FIT_H
#define HETSIM_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cal.h"

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
};

/* The work unit of a known kernel ("MiB", "samples"), else "units". */
const char *fit_unit(const char *kernel);

/* Fit every (kernel, device) of the samples, in order of first
 * appearance.  *out is allocated (free() it).  Returns the number of
 * lines, or -1 with a message in err (a group with fewer than 3 distinct
 * sizes, or a non-positive duration). */
int fit_all(const struct cal_samples *s, struct fit_line **out, char *err, size_t errlen);

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

/* Samples CSV: header "kernel,device,size,repeat,seconds", one row per
 * sample.  Written through path.tmp + rename.  Returns 0 or -1. */
int fit_write_samples(const char *path, const struct cal_samples *s, char *err, size_t errlen);
/* Read such a file (lines starting with '#' and blank lines are
 * skipped; the header is optional), appending to s.  Returns 0, or -1
 * with "file:line: what" in err. */
int fit_read_samples(const char *path, struct cal_samples *s, char *err, size_t errlen);

#endif
