/* plot.h - the figures' module (plot_ prefix): the data of every figure
 * and the gnuplot scripts beside it (plot/README.md says which file
 * owns what).
 *
 * Module: plot/, above input/ (and so scenario/, sim/, workloads/,
 * policies/), below calibrate/ and cli/: it may include their headers
 * below it, never cli/'s or calibrate/'s.  The `hetsim plot` figures
 * read runs.csv, summary.csv, types.csv and executors.csv by column
 * name, prepare one gnuplot data file per figure and run the matching
 * plot/<kind>.gp script on it; the commands compare, fgd, replay-log and
 * calibrate draw theirs through plot_gnuplot.  The preparation steps are
 * exposed here so that tests/test_plot.c can check them on hand-made
 * files; plot/README.md describes the figures.
 */
#ifndef HETSIM_PLOT_H
#define HETSIM_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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

/* ---- the figures of a results folder (plot/figures.c) -------------- */

typedef int plot_sum_fn(const struct plot_csv *, const struct plot_opts *, FILE *,
			struct plot_vars *, char *, size_t);
typedef int plot_ex_fn(const struct plot_csv *, const struct plot_nodes *,
		       const struct plot_opts *, FILE *, struct plot_vars *, char *, size_t);

/* The figure kinds: KIND on the command line, plot/<name>.gp, and where
 * its data comes from: the summary, types.csv, or executors.csv (one
 * figure per policy). */
struct plot_kind {
	const char *name;
	plot_sum_fn *from_summary;
	plot_sum_fn *from_types;
	plot_ex_fn *from_executors;
	const char *about;
};
#define PLOT_KINDS 5
extern const struct plot_kind plot_kinds[PLOT_KINDS];

/* What `hetsim plot` draws and has drawn; the caller fills the first
 * fields, zeroes the rest, and frees what the last ones hold. */
struct plot_ctx {
	const char *dir, *out, *scripts; /* results, figures, gnuplot scripts */
	bool fmt[2];                     /* png, svg */
	bool all;                        /* KIND all: skip what the results lack */
	struct plot_opts o;
	struct plot_nodes nodes;         /* n == 0 without --scenario */
	struct plot_csv *sum, *types, *ex; /* loaded on first use */
	int drawn;                       /* figures written */
	char **tmp, **dst; int npend;    /* written under tmp[i], committed to
					    dst[i] together at the end */
};

/* Draw the figures of kind k (one per policy for an executors.csv kind):
 * each KIND.dat and picture written under its .tmp name and added to
 * x's tmp/dst list, for the caller to commit as one set.  In x->all, a
 * figure the results have nothing for is skipped quietly.  0; 1 or 2
 * (a usage error) after a line on stderr naming `hetsim plot`. */
int plot_draw_kind(struct plot_ctx *x, const struct plot_kind *k);

/* ---- gnuplot (plot/gnuplot.c) ------------------------------------- */

/* Whether gnuplot is on $PATH. */
bool plot_gnuplot_on_path(void);
/* plot/: $HETSIM_PLOT_DIR, else next to the binary (bin/../plot), else
 * ./plot, the first holding common.gp, into buf; NULL if none does. */
const char *plot_find_scripts(char *buf, size_t len);
/* gnuplot -e vars script; 0 if it exited 0, else -1. */
int plot_run_gnuplot(const char *script, const char *vars);
/* Render plot/`name` with gnuplot into `out` (through out.tmp, renamed
 * when gnuplot succeeds); `vars` are gnuplot assignments ("a='x'; n=3; "),
 * outfile and plotdir (the scripts' folder) set here.  No gnuplot or no
 * script: a note on stderr naming `who` (the subcommand), and 0.  1 if gnuplot failed (after a line on
 * stderr naming the figure). */
int plot_gnuplot(const char *who, const char *name, const char *vars, const char *out);
/* Why the figure gnuplot wrote at `path` (NAME.svg.tmp, NAME.png.tmp) is
 * not whole: empty, an SVG without its closing tag, a PNG without its
 * IEND chunk (gnuplot exits 0 when a write fails); NULL if it is. */
const char *plot_figure_incomplete(const char *path);
/* plot_gnuplot twice, with fmt='png' and fmt='svg' added to vars, into
 * stem.png and stem.svg (`hetsim report` inlines the svg).  -1 if either
 * failed (each failure said on stderr). */
int plot_gnuplot_both(const char *who, const char *name, const char *vars, const char *stem);
/* gnuplot's '...' string assignment name='val'; appended to v. */
void plot_gp_str(char *v, size_t len, const char *name, const char *val);

/* ---- the palette (plot/palette.c) --------------------------------- */

/* Every figure's colours come from one palette of PLOT_PALETTE_SLOTS
 * colours and a table giving names (policies, job types, node labels)
 * their slots: the datablocks $palette and $colour_of of
 * plot/common.gp, which says where the colours come from. */
#define PLOT_PALETTE_SLOTS 20
#define PLOT_PALETTE_NAMES 128 /* names in the table, at most */

struct plot_palette {
	char rgb[PLOT_PALETTE_SLOTS][8]; /* slot i + 1: "#rrggbb" */
	struct {
		char name[64];
		int slot;                /* 1 .. PLOT_PALETTE_SLOTS */
	} name[PLOT_PALETTE_NAMES];      /* the table, in its order */
	int nnames;
};

/* Read the palette and the table from the common.gp at path into *p.
 * 0; or -1 with one line "path:line:col: what" in err (a missing or
 * repeated datablock, a slot out of order, a colour that is not
 * #RRGGBB, a name listed twice). */
int plot_palette_read(const char *path, struct plot_palette *p, char *err, size_t errlen);
/* The same from the common.gp of the figures' scripts (plot_find_scripts),
 * read once a process: a copy of what was read. */
int plot_palette_load(struct plot_palette *p, char *err, size_t errlen);
/* The slots (1-based) of the n names of one figure into slot[n]: each
 * name of the table its own slot, in the table's order, unless a name
 * above it took that slot; then the rest (names not in the table, and
 * table names whose slot was taken: table names first, in its order,
 * then the others by byte order) each the first slot no name of the
 * figure has.  So a figure's names are distinct up to
 * PLOT_PALETTE_SLOTS (beyond, slots repeat from the first), the result
 * does not depend on the names' order, and a repeated name gets one
 * slot. */
void plot_palette_assign(const struct plot_palette *p, const char *const *names, int n,
			 int *slot);
/* The space-separated names of list their colours (plot_palette_assign
 * over the scripts' palette), as a space-separated list in its order
 * into buf: 0; PLOT_NONE and err where the scripts are not found (the
 * figures are skipped: plot_gnuplot says so); -1 and err for a bad
 * palette or more than PLOT_MAX_NAMES names. */
int plot_colour_words(const char *list, char *buf, size_t len, char *err, size_t errlen);

/* ---- the other commands' figures ---------------------------------- */

/* Each draws from CSV files its command has written and committed, as
 * .png and .svg beside them (replay: .png), through plot_gnuplot: 0, or 1
 * when a figure failed (said on stderr; the CSV files stand). */

/* A policy's jobs over a workload's replications (compare's figures). */
struct plot_jobs {
	int64_t done, counted; /* done, and counted (warm-up jobs left out) */
};
/* compare (plot/compare.c): workload w's (0-based) JCT CDF from the JCT
 * CSV at `path` and its slowdown by job size from OUT/sizes.csv, into
 * OUT/jct-cdf-W+1 and OUT/slowdown-size-W+1; `policies`, its policies
 * separated by spaces, jobs[p] the jobs of the p-th (NULL: unknown; the
 * CDF's key says "(k of N done)" where a policy left jobs not done). */
int plot_compare_workload(const char *out, const char *path, int w, const char *workload,
			  const char *policies, const struct plot_jobs *jobs);
/* compare: the makespans of OUT/leaderboard.csv into OUT/makespan, a
 * policy with jobs not done (its not_done column) marked over its bar. */
int plot_compare_makespan(const char *out);
/* fgd (plot/fgd.c): OUT/alloc, OUT/frag and OUT/frag_ratio from OUT/curves.csv, over
 * nseeds seeds; `policies` separated by spaces. */
int plot_fgd(const char *out, const char *policies, int nseeds);
/* replay-log (plot/replay.c): DIR/stages.png from DIR/stages.csv, the
 * logged and simulated spans of app's nstages stages under `policy`. */
int plot_replay(const char *dir, const char *app, const char *policy, int nstages);

/* calibrate (plot/calibration.c): a fitted line, as plain data
 * (calibrate/ is above plot/). */
struct plot_cal_line {
	const char *kernel, *device; /* not owned */
	const char *unit;            /* the kernel's work unit; not owned */
	double intercept, slope;     /* s, s per unit */
};
/* The samples of csv and the n fitted lines l, into png. */
int plot_calibration(const char *png, const char *csv, const struct plot_cal_line *l, int n);
/* A validation's runs (csv) into csv.png; a note when gnuplot is missing. */
void plot_validation(const char *csv);

/* ---- statistics (plot/stats.c) ------------------------------------ */

/* Mean, sample standard deviation and half-width of the Student-t 95 %
 * confidence interval of n values:  t(0.975, n-1) * sd / sqrt(n).
 * n = 1: sd 0, half NaN (no interval); n = 0: all NaN. */
struct plot_ci95 {
	int n;
	double mean, sd, half;
};
void plot_ci95(const double *x, int n, struct plot_ci95 *out);

/* The paired changes of x against base, replication by replication
 * (every policy sees the same jobs in a replication): 100 (x[r] -
 * base[r]) / base[r] into out, in order, for each r < n where both are
 * numbers, base[r] > 0 and the two finished the same jobs (xset[r] ==
 * bset[r]: runs.csv's done_set; a makespan of other jobs is no change;
 * NULL sets: every r); returns how many.  *left (if not NULL): the
 * replications where both had a makespan but other jobs done, left out.
 * The one rule of the change in `run`'s table, `sweep`'s
 * makespan_change_pct and the figures. */
int plot_paired_changes(const double *x, const double *base, const uint64_t *xset,
			const uint64_t *bset, int n, double *out, int *left);

/* A mean count per replication as people write it, into buf: "3",
 * "2.5", "0.33". */
void plot_count_text(char *buf, size_t len, double x);

/* ---- shared by the files of plot/ (not for other modules) ---------- */

#define PLOT_MAX_NAMES 64         /* policies, job types or labels in one figure */
#define PLOT_MINUS "\xe2\x88\x92" /* U+2212, the typographic minus */
#define PLOT_WARN "\xe2\x9a\xa0"  /* U+26A0, the warning sign */

struct plot_csv {
	char *path;   /* as given; owned */
	char *buf;    /* the file, fields cut in place; owned */
	char **hdr;   /* ncols column names, into buf */
	int ncols;
	char **cell;  /* nrows * ncols fields, into buf */
	int *line;    /* 1-based file line of each row */
	int nrows;
};

struct plot_names {
	const char *v[PLOT_MAX_NAMES]; /* not owned */
	int n;
};

struct plot_ci {
	double mean, lo, hi; /* NaN when absent */
	int line;            /* the row's line, 0 if none */
	int row;             /* the row, -1 if none */
};

struct plot_sum_cols {
	int policy, metric, mean;                /* required */
	int point, lo, hi, reps, scenario, base; /* -1 if absent */
};

/* The jobs of a (policy, point) by final status: the mean count per
 * replication of the summary rows `done`, `failed`, `timed_out`,
 * `unplaceable` (hetsim sweep writes them) and `counted` (a summary of
 * runs.csv has it).  NaN where the row is absent: older files. */
enum {
	PLOT_N_DONE, PLOT_N_FAILED, PLOT_N_TIMED_OUT, PLOT_N_UNPLACEABLE, PLOT_N_COUNTED,
	PLOT_N_KINDS
};

struct plot_counts {
	double n[PLOT_N_KINDS]; /* jobs, mean per replication */
};

/* One executor of the figure. */
struct plot_gx {
	int node, type, gpus, id, lane;
	double cores;   /* executors.csv's: whole, or a trace's fractions */
	double l, r, e; /* launch, ready, end: s; r NaN if never ready */
	double gf, gt;  /* held GPUs from, to: s (launch..end in files
			   without gpu_from_s, gpu_to_s) */
	int line;
};

/* The figure's node rows: the scenario's, or the nodes that appear. */
struct plot_node_rows {
	const char **name; /* into nodes or the CSV */
	int n, cap;
};

/* plot/csv.c */
struct plot_csv *plot_csv_parse(const char *path, char *buf, char *err, size_t errlen);
int plot_need_cols(const struct plot_csv *c, const char *const *names, int *idx, char *err,
	size_t errlen);
int plot_cell_num(const struct plot_csv *c, int row, int col, double *x, char *err, size_t errlen);
bool plot_cell_is_int(const struct plot_csv *c, int row, int col, int want);

/* plot/common.c */
int plot_names_find(const struct plot_names *ns, const char *s);
int plot_names_add(struct plot_names *ns, const char *s);
void plot_order_types(struct plot_names *t);
void plot_var_words(struct plot_vars *v, const char *name, const char *const *items, int n);
void plot_put_num(FILE *f, const char *sep, double x);
void plot_metric_label(const char *m, char *buf, size_t len);
int plot_sum_cols(const struct plot_csv *c, struct plot_sum_cols *k, struct plot_names *pol,
	char *err, size_t errlen);
int plot_select_metric(const struct plot_csv *c, const struct plot_sum_cols *k,
	const char *metric, int point, const struct plot_names *pol, struct plot_ci *out, char *err,
	size_t errlen);
int plot_point_present(const struct plot_csv *c, const struct plot_sum_cols *k, int point,
	const struct plot_names *pol, bool *present);
int plot_count_kind(const char *metric);
int plot_point_counts(const struct plot_csv *c, const struct plot_sum_cols *k, int point,
	const struct plot_names *pol, struct plot_counts *out, char *err, size_t errlen);
void plot_mark_text(const struct plot_counts *n, bool brief, char *buf, size_t len);
bool plot_needs_done(const char *metric);
bool plot_finished_none(const char *metric, const struct plot_counts *n, double mean);
const char *plot_none_label(const char *metric);
void plot_axis_cols(const struct plot_csv *c, int *first, int *last);
void plot_title_prefix(const struct plot_csv *c, int scenario, int ref, int point, int skip,
	char *buf, size_t len);
const char *plot_metric_name(const char *metric, char *buf, size_t len);
void plot_reps_subtitle(struct plot_vars *v, int reps);
void plot_sum_titles(struct plot_vars *v, const struct plot_csv *c, const struct plot_sum_cols *k,
	const char *metric, const char *prefix, const char *what, const char *extra);
int plot_pick_baseline(const struct plot_csv *c, const struct plot_sum_cols *k,
	const struct plot_names *pol, const struct plot_opts *o, int *ib, const char **why, char *err,
	size_t errlen);
int plot_pick_compare(const struct plot_csv *c, const struct plot_names *pol,
	const struct plot_opts *o, int ib, bool fallback, int *ic, char *err, size_t errlen);
int plot_change_rows(const struct plot_csv *c, const struct plot_sum_cols *k, int point,
	const struct plot_names *pol, int ib, struct plot_ci *out, char *err, size_t errlen);
void plot_pct_text(char *buf, size_t len, double pct, double lo, double hi);
int plot_point_reps(const struct plot_csv *c, const struct plot_sum_cols *k, int point,
	const char *policy);
void plot_change_note(struct plot_vars *v, const char *who, const struct plot_ci *paired,
	double c, double b, const char *base, int k, int n);
void plot_put_str(FILE *f, const char *s);
extern const char *const plot_count_metrics[PLOT_N_KINDS];
extern const char *const plot_footnote_bars;

/* plot/compare.c: the JCT CDFs of workload wl's policies (pol) from the
 * JCT file at path (columns workload, policy, jct_s by name; a row of
 * another workload or policy, or with no finite JCT, left out), into
 * dat a block per policy, "# POLICY: jct F" then rows "jct F" (F: the
 * share of its n done jobs with a JCT up to jct): a row "x 0" at its
 * first JCT, then one at each distinct JCT with the share up to its last
 * equal one; past 2000 done jobs, thinned: a row only n / 2000 jobs or
 * more after the last one written (its last JCT always written).  A
 * JCT under xmin, the smallest positive one of the workload's policies
 * (1 where there is none), is drawn at xmin; a policy with no done job
 * has the one row "xmin 0".  0, or -1 and err (the file, a column
 * missing, a cell not a number, out of memory). */
struct plot_cdf {
	double zero_at;             /* xmin where a JCT is 0 (or less), else 0 */
	double xlo, xhi;            /* the smallest and largest JCT drawn, s */
	int done[PLOT_MAX_NAMES];   /* each policy's done jobs (rows of the file) */
};
int plot_compare_cdf_data(const char *path, const char *wl, const struct plot_names *pol,
			  FILE *dat, struct plot_cdf *out, char *err, size_t errlen);

/* plot/palette.c: the colours of a figure's names (plot_palette_assign)
 * into out[i], which point into the palette kept for the process (good
 * until it is read again, from another scripts folder): 0; PLOT_NONE or
 * -1 and err as plot_colour_words.  plot_tint: "#rrggbb" as
 * it looks at opacity a on white, into buf[8]; returns buf. */
int plot_colours_for(const struct plot_names *ns, const char **out, char *err, size_t errlen);
const char *plot_tint(const char *rgb, double a, char *buf);

/* plot/executors.c */
int plot_node_cmp(const char *a, const char *b);
int plot_gx_cmp(const void *a, const void *b);
int plot_gather(const struct plot_csv *ex, const struct plot_nodes *nodes,
	const struct plot_opts *o, struct plot_node_rows *nr, struct plot_names *types,
	struct plot_gx **out, int *n, double *tmax, char *err, size_t errlen);

/* plot/gantt.c */
void plot_run_name(const struct plot_csv *ex, const struct plot_opts *o, char *buf, size_t len);

#endif
