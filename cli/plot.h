/* plot.h - `hetsim plot`: figures from result CSV files (plot_ prefix).
 *
 * cli/plot.c reads runs.csv, summary.csv, types.csv and executors.csv by
 * column name, prepares one gnuplot data file per figure and runs the matching
 * plot/<kind>.gp script on it.  The preparation steps are exposed here so
 * that tests/test_plot.c can check them on hand-made files; plot/README.md
 * describes the figures.
 */
#ifndef HETSIM_PLOT_H
#define HETSIM_PLOT_H

#include <stddef.h>
#include <stdio.h>

struct scn;

/* ---- CSV, by column name ------------------------------------------- */

struct plot_csv; /* a whole CSV file: header plus rows of strings */

/* Read a comma-separated file whose first line names the columns (no
 * quoting: hetsim writes none).  Every row must have as many fields as
 * the header; blank lines are skipped.  On success the caller owns the
 * result (free with plot_csv_free).  On error returns NULL, allocates
 * nothing, and writes one line "path:line:col: what" into err (0:0 for a
 * file that cannot be opened). */
struct plot_csv *plot_csv_read(const char *path, char *err, size_t errlen);
void plot_csv_free(struct plot_csv *c);

const char *plot_csv_path(const struct plot_csv *c);
int plot_csv_rows(const struct plot_csv *c);        /* data rows, header excluded */
int plot_csv_col(const struct plot_csv *c, const char *name); /* index, or -1 */
int plot_csv_ncols(const struct plot_csv *c);       /* the header's fields */
/* Field `col` of data row `row`; "" when col is -1 (a missing column). */
const char *plot_csv_cell(const struct plot_csv *c, int row, int col);
int plot_csv_line(const struct plot_csv *c, int row); /* 1-based line in the file */

/* A summary (long format of summary.csv: policy, point, metric, mean,
 * sd, ci95_half, ci95_lo, ci95_hi, replications, baseline) computed from
 * runs.csv: one row per (policy, point, numeric column), mean and
 * Student-t 95 % interval over the non-empty values; and, as `hetsim
 * sweep` writes them, the makespan_change_pct rows of each policy but
 * `baseline` (NULL: the first policy in the file), paired by replication.
 * Used when a results directory has no summary.csv (a plain `hetsim
 * run`), so that the figures show the change the run's table shows.
 * Owned by the caller; NULL and err on a malformed number. */
struct plot_csv *plot_summarise_runs(const struct plot_csv *runs, const char *baseline,
				     char *err, size_t errlen);

/* ---- nodes of a scenario ------------------------------------------- */

/* Every node of a scenario, in cluster order, with the label it is
 * grouped under in figures: the first of its labels that is `gpu` or
 * `cpu`, else its first label, else "unlabelled". */
struct plot_node {
	char name[112];   /* <group>-<i> */
	char label[112];  /* grouping label */
	char model[112];  /* GPU model; "" without GPUs */
	int cores;        /* physical cores */
	int gpus;
};
struct plot_nodes {
	struct plot_node *v; /* owned */
	int n;
};
/* Fill *out from a scenario; free with plot_nodes_free. */
void plot_nodes_from_scn(const struct scn *s, struct plot_nodes *out);
void plot_nodes_free(struct plot_nodes *n);

/* ---- figure data --------------------------------------------------- */

/* What a figure shows; NULL / defaults as noted. */
struct plot_opts {
	const char *metric;   /* NULL: makespan_s */
	const char *axis;     /* sweep axis; NULL: the first */
	int point;            /* sweep point (policies, jct-by-type; fixes the other axes in sweep) */
	const char *baseline; /* NULL: the summary's baseline column, else the first policy */
	const char *compare;  /* sweep's arrow; NULL: label-dual, else the first other policy.
				 policies: a headline note, none when NULL */
	const char *policy;   /* gantt, utilisation: the policy shown */
	int replication;      /* gantt, utilisation */
	double xmax;          /* gantt, utilisation: time axis to at least this, s (0: the run's) */
};

/* gnuplot variables for one figure, as "name='value'; name=number; ..."
 * (passed to gnuplot with -e). */
struct plot_vars {
	char s[65536];         /* below the kernel's 128 KiB limit on one argument */
	size_t len;
	int overflow;         /* a value did not fit: the figure is not drawn */
};
void plot_var_str(struct plot_vars *v, const char *name, const char *value);
void plot_var_num(struct plot_vars *v, const char *name, double x);

/* Each preparation writes the figure's gnuplot data to `dat` and its
 * settings (titles, names, colours, sizes) to `v`.
 *
 * Jobs not done: where the summary has rows `done`, `failed`,
 * `timed_out`, `unplaceable` (and `counted`), a policy that finished no
 * job at a point has no makespan or JCT there, whatever the file holds
 * (older files wrote 0): it gets an empty, labelled slot ("no job done"),
 * never a bar or point at 0; without those rows a makespan or JCT mean of
 * exactly 0 reads the same.  A policy that left counted jobs not done is
 * marked "⚠ n of N ...".  Changes are against one baseline: --baseline,
 * else the summary's `baseline` column, else the first policy listed.
 *
 * Returns 0; or -1 with one line naming the file (and line) in err; or
 * PLOT_NONE when the input is well formed but has nothing this figure
 * shows (no sweep axis), err saying so.  On error part of `dat` may have been
 * written (the caller writes it to a temporary file). */
#define PLOT_NONE (-2)

/* (a) policies: o->metric of every policy at o->point, with its 95 % CI,
 * each non-baseline bar labelled with its change (makespan: the paired
 * makespan_change_pct rows when the summary has them for the baseline,
 * else the ratio of means).  Rows: "i \"policy\" mean lo hi top colour
 * \"label\" labely \"change\" \"mark\"" (mean NaN: an empty slot). */
int plot_prep_policies(const struct plot_csv *sum, const struct plot_opts *o, FILE *dat,
		       struct plot_vars *v, char *err, size_t errlen);
/* (a) jct-by-type, from types.csv (not a summary): for each job model
 * with a row at o->point, the mean over replications of jct_mean_s per
 * policy, with its Student-t 95 % interval; the marks from the counts
 * summed over the models.  One data block per policy, rows "x mean lo
 * hi" with x = model index + bar offset; then the empty slots (no
 * replication with a value), rows "x \"no job done\" colour". */
int plot_prep_jct_by_type(const struct plot_csv *types, const struct plot_opts *o, FILE *dat,
			  struct plot_vars *v, char *err, size_t errlen);
/* (b) sweep: o->metric against o->axis; one block per policy, rows
 * "x mean lo hi", sorted by x (a blank line where a point has no value);
 * then two label blocks "x y \"label\" colour": "POLICY: no job done",
 * and the marks of jobs not done. */
int plot_prep_sweep(const struct plot_csv *sum, const struct plot_opts *o, FILE *dat,
		    struct plot_vars *v, char *err, size_t errlen);
/* (c) gantt of (o->policy, o->replication) from executors.csv.  nodes
 * (may be NULL) gives the rows, idle nodes included; without it, the
 * nodes that hosted an executor, in name order.  Block 0: node shading;
 * then per job type two blocks, start-up (launch..ready) and running
 * (ready..end), rows "x0 x1 y0 y1"; then GPU executors' outlines. */
int plot_prep_gantt(const struct plot_csv *ex, const struct plot_nodes *nodes,
		    const struct plot_opts *o, FILE *dat, struct plot_vars *v, char *err,
		    size_t errlen);
/* (d) utilisation of (o->policy, o->replication): rows "t share..." of a
 * step function (value from t to the next row), one column per label for
 * the cores held / the label's cores, then one per label with GPUs for
 * the GPUs held / the label's GPUs, or, in a cluster with several GPU
 * models, one per model for the GPUs held / the model's GPUs. */
int plot_prep_util(const struct plot_csv *ex, const struct plot_nodes *nodes,
		   const struct plot_opts *o, FILE *dat, struct plot_vars *v, char *err,
		   size_t errlen);

/* The policies of executors.csv (filtered to o's replication), in order
 * of first appearance, written into names[max]; returns their count. */
int plot_policies_of(const struct plot_csv *ex, const struct plot_opts *o, const char **names,
		     int max);
/* The latest launch, ready or end time (s) of an executor of o's
 * replication and point, over every policy (o->policy is ignored): the
 * time axis the gantt and utilisation figures of those policies share.
 * 0 when there is none; malformed cells are left to the preparations. */
double plot_exec_end(const struct plot_csv *ex, const struct plot_opts *o);

#endif
