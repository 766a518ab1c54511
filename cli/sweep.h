/* sweep.h - what the files of `hetsim sweep` share, private to them:
 * the plan of runs and the gathering of their rows (sweep.c), their
 * execution in this process, worker processes or MPI ranks
 * (sweep_exec.c), and the command with its resumable state
 * (sweep_cmd.c), which calls the other two. */
#ifndef HETSIM_SWEEP_H
#define HETSIM_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd.h"
#include "plot.h"
#include "scenario.h"

#define MAX_RUNS 10000000L  /* runs of one sweep: the run table and the row index */
#define MAX_WORKERS 1024
#define MAX_METRICS 64      /* metric columns of runs.csv */

/* Fields of a row that the table reads (indices into the row). */
enum { F_COUNTED, F_FAILED, F_TIMED_OUT, F_UNPLACEABLE, F_MAKESPAN, NF_READ };

struct run {
	int point, pol, rep;
};

struct plan {
	struct scn_sweep *sw;
	struct scn_policy (*pols)[16]; /* per point: the policies run; owned */
	int *npol;                     /* per point */
	int *reps;                     /* per point: replications */
	int *gfirst;                   /* per point: its first (point, policy) group */
	long *grun;                    /* per group: its first run (its runs follow) */
	int ngroups, maxreps;
	const char *baseline;          /* the policy changes are against (its name) */
	bool baseline_named;           /* by --baseline, not the first listed */
	struct run *runs;              /* the run table, in run order; owned */
	long nruns;
	bool say;                      /* this process prints messages (rank 0) */
};

struct gather {
	const struct plan *pl;
	FILE *runs;           /* runs.csv.tmp */
	FILE *timing;         /* timing.csv.tmp */
	FILE *types;          /* types.csv.tmp */
	char **pending;       /* rows arrived ahead of their turn, by run index */
	long next;            /* the next run to write */
	long arrived;
	double *vals;         /* the group being written: metric m's values at
			       * vals[m * pl->maxreps ...], nvals[m] of them */
	int nvals[MAX_METRICS];
	char **sum;           /* per group: its summary.csv rows; owned */
	struct plot_ci95 *mk; /* per group: makespan, for the table */
	double *mkrun;        /* per run: its makespan as written, NaN if empty */
	uint64_t *setrun;     /* per run: the jobs it finished (done_set) */
	double (*counts)[NF_READ - 1]; /* per group: sums over its replications of
			       counted, failed, timed_out, unplaceable */
	bool bar;             /* draw a progress bar on stderr */
	double t0, drawn;     /* start; last drawing (seconds) */
};

struct exec {
	const struct plan *pl;
	int rank, nranks;
	struct gather *g;      /* rank 0: rows go here; other ranks send them */
	int ranks_left;        /* rank 0: other ranks not done yet */
	char err[1024];        /* why it failed */
	FILE *state;           /* rank 0: DIR/sweep.state, appended to; or NULL */
	char **done;           /* runs a resumed state held, or NULL */
};

/* The output files (sweep.c): timing.csv holds wall-clock figures,
 * unlike the others different from run to run. */
enum { OUT_RUNS, OUT_SUMMARY, OUT_TIMING, OUT_TYPES, NOUT };
extern const char *const sw_out_names[NOUT];

/* runs.csv's metric columns (sw_metrics_init counts them). */
extern int sw_nmetrics;

/* sweep.c: the metric columns, the plan, one run, the rows gathered,
 * the files and the table. */
void sw_write_summary(const struct gather *g, FILE *f);
int sw_run_one(const struct plan *pl, long i, char **text, size_t *len);
void sw_print_table(const struct gather *g, const char *dir);
void sw_plan_free(struct plan *pl);
int sw_plan_build(struct plan *pl, struct scn_sweep *sw, const struct cmd_sweep_opts *o);
int sw_open_outputs(struct rows_files *out, const struct scn_sweep *sw);
void sw_metrics_init(void);
void sw_gather_row(struct gather *g, long i, char *text);
void sw_gather_free(struct gather *g);

void sw_progress(struct gather *g, bool clear);
int sw_policy_order(const struct plan *pl, const char **names);
double sw_now_s(void);
int sw_group_of(const struct plan *pl, int p, const char *name);

/* sweep_exec.c: the runs executed here, in workers or on MPI ranks. */
void sw_ranks(int *rank, int *n);
int sw_execute(struct exec *x, int nworkers);
int sw_default_workers(void);
int sw_agree(int rc);
void sw_abort_ranks(void);

#endif
