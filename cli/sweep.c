/* sweep.c - `hetsim sweep`: every (point, policy, replication) of a
 * scenario's sweep, run in worker processes (and, built with MPI=1, on
 * MPI ranks), gathered in run order into runs.csv, types.csv and
 * summary.csv (docs/output.md, "Outputs of hetsim sweep").
 *
 * Runs are numbered point, then policy, then replication.  Whoever runs
 * one (this process with -j 1, a forked worker, another rank) turns it
 * into its runs.csv row with rows_run(), its timing.csv row and its
 * types.csv rows, and hands the text back; only
 * this process (rank 0) writes files, in run order, so the bytes do not
 * depend on -j or on the number of ranks.  Worker protocol, over two
 * pipes per worker: the parent writes a run index (int64_t); the worker
 * answers a struct msg and `len` bytes (the row, or an error message).
 *
 * Fault injection, for tests: a worker process handed the run whose
 * index is in the environment variable HETSIM_SWEEP_KILL_RUN kills
 * itself (SIGKILL) instead of running it.
 */
#define _DEFAULT_SOURCE /* realpath, truncate */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#ifdef HETSIM_MPI
#include <mpi.h>
#endif

#include "registry.h"
#include "load.h"
#include "cmd.h"
#include "metrics.h"
#include "plot.h"
#include "policy.h"
#include "rows.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"

#define MAX_RUNS 10000000L  /* runs of one sweep: the run table and the row index */
#define MAX_WORKERS 1024
#define MAX_METRICS 64      /* metric columns of runs.csv */

/* The metric columns: ROWS_RUN_HEADER from ROWS_FIRST_METRIC on, set by
 * metrics_init(); first_metric is the first one's field in a row written
 * by rows_run(), which has nfields fields. */
static char metric_name[MAX_METRICS][32];
static int nmetrics, first_metric, nfields;

/* Fields of a row that the table reads (indices into the row). */
enum { F_COUNTED, F_FAILED, F_TIMED_OUT, F_UNPLACEABLE, F_MAKESPAN, NF_READ };
static const char *const read_name[NF_READ] = {"counted", "failed", "timed_out",
					       "unplaceable", "makespan_s"};
static int read_field[NF_READ];

static void metrics_init(void)
{
	const char *h = ROWS_RUN_HEADER;
	nmetrics = first_metric = nfields = 0;
	while (*h && *h != '\n') {
		size_t n = strcspn(h, ",\n");
		if (strncmp(h, ROWS_FIRST_METRIC, n) == 0 && n == strlen(ROWS_FIRST_METRIC))
			first_metric = nfields;
		if (first_metric && nfields >= first_metric && nmetrics < MAX_METRICS)
			snprintf(metric_name[nmetrics++], sizeof metric_name[0], "%.*s", (int)n, h);
		for (int k = 0; k < NF_READ; k++)
			if (strncmp(h, read_name[k], n) == 0 && n == strlen(read_name[k]))
				read_field[k] = nfields;
		nfields++;
		h += n + (h[n] == ',');
	}
}

/* ---- the plan: which runs -------------------------------------------- */

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

static int pick_policies(struct plan *pl, int p, const struct cmd_sweep_opts *o)
{
	const struct scn *s = pl->sw->point[p];
	struct scn_policy *out = pl->pols[p];
	if (!o->npolicies) {
		for (int i = 0; i < s->npolicies && i < 16; i++) /* at most 16: the loader's limit */
			out[i] = s->policies[i];
		pl->npol[p] = s->npolicies < 16 ? s->npolicies : 16;
		return 0;
	}
	for (int k = 0; k < o->npolicies; k++) {
		const char *name = o->policies[k];
		if (cmd_policy_named(s, name, &out[k]) < 0) {
			if (pl->say)
				fprintf(stderr, "hetsim sweep: option '--policy': unknown policy '%s' "
					"(registered: %s)\n", name, pol_names());
			return -1;
		}
	}
	pl->npol[p] = o->npolicies;
	return 0;
}

static void plan_free(struct plan *pl)
{
	free(pl->pols);
	free(pl->npol);
	free(pl->reps);
	free(pl->gfirst);
	free(pl->grun);
	free(pl->runs);
}

/* Group of (point p, policy `name`), or -1. */
static int group_of(const struct plan *pl, int p, const char *name)
{
	for (int k = 0; k < pl->npol[p]; k++)
		if (strcmp(pl->pols[p][k].name, name) == 0)
			return pl->gfirst[p] + k;
	return -1;
}

/* The baseline: --baseline's policy, which must be run at some point,
 * else the first policy listed (point 0's first).  0, or 2 after a
 * message. */
static int pick_baseline(struct plan *pl, const struct cmd_sweep_opts *o)
{
	pl->baseline_named = o->baseline != NULL;
	pl->baseline = o->baseline ? o->baseline : pl->npol[0] ? pl->pols[0][0].name : "";
	for (int p = 0; p < pl->sw->npoints; p++)
		if (group_of(pl, p, pl->baseline) >= 0)
			return 0;
	if (pl->say)
		fprintf(stderr, "hetsim sweep: option '--baseline': policy '%s' is not run (run: "
			"the scenario's policies, or those of --policy)\n", pl->baseline);
	return 2;
}

/* Fill *pl.  Returns 0, or 2 after a message (a bad option value). */
static int plan_build(struct plan *pl, struct scn_sweep *sw, const struct cmd_sweep_opts *o)
{
	int np = sw->npoints;
	long n = 0;
	pl->sw = sw;
	pl->pols = xcalloc((size_t)np, sizeof *pl->pols);
	pl->npol = xcalloc((size_t)np, sizeof *pl->npol);
	pl->reps = xcalloc((size_t)np, sizeof *pl->reps);
	pl->gfirst = xcalloc((size_t)np, sizeof *pl->gfirst);
	for (int p = 0; p < np; p++) {
		if (pick_policies(pl, p, o))
			return 2;
		if (o->seed_set)
			sw->point[p]->seed = o->seed;
		pl->reps[p] = o->replications ? o->replications : sw->point[p]->replications;
		if (pl->reps[p] > pl->maxreps)
			pl->maxreps = pl->reps[p];
		pl->gfirst[p] = pl->ngroups;
		pl->ngroups += pl->npol[p];
		n += (long)pl->npol[p] * pl->reps[p];
		if (n > MAX_RUNS) {
			if (pl->say)
				fprintf(stderr, "hetsim sweep: more than %ld runs (points x policies x "
					"replications); sweep fewer points or replications\n", MAX_RUNS);
			return 2;
		}
	}
	pl->runs = xcalloc((size_t)n, sizeof *pl->runs);
	pl->grun = xcalloc((size_t)pl->ngroups, sizeof *pl->grun);
	for (int p = 0; p < np; p++)
		for (int k = 0; k < pl->npol[p]; k++) {
			pl->grun[pl->gfirst[p] + k] = pl->nruns;
			for (int r = 0; r < pl->reps[p]; r++)
				pl->runs[pl->nruns++] = (struct run){p, k, r};
		}
	return pick_baseline(pl, o);
}

/* ---- one run ------------------------------------------------------- */

static double now_s(void);

/* Run `i` of the plan.  Returns 0 with its lines in *text, each from
 * `replication` on: its runs.csv row, its timing.csv row (wall-clock
 * figures), then its types.csv rows, one per job model; or -1 with an
 * error message there.  *text is malloc'ed either way. */
static int run_one(const struct plan *pl, long i, char **text, size_t *len)
{
	const struct run *r = &pl->runs[i];
	struct scn *s = pl->sw->point[r->point];
	const struct scn_policy *pol = &pl->pols[r->point][r->pol];
	char buf[ROWS_RUN_MAX + ROWS_TIMING_MAX + ROWS_TYPES_MAX]; /* also room for a message */
	size_t n = 0;
	int rc = 0;
	double t0 = now_s();
	scn_offer_order(s, (uint32_t)r->rep);
	struct sim *sim = sim_new(s, pol, (uint32_t)r->rep, buf, sizeof buf);
	if (!sim) {
		n = strlen(buf);
		rc = -1;
	} else if (sim_run(sim)) {
		snprintf(buf, sizeof buf, "%s: point %d, policy %s, replication %d: simulated "
			 "time passes %lld years; no results written", s->path, r->point,
			 pol->name, r->rep, (long long)(SIM_TIME_MAX / US_PER_S / 31557600));
		n = strlen(buf);
		rc = -1;
	} else {
		double wall = now_s() - t0;
		struct met_run m;
		met_compute(sim, &m);
		n = rows_run_buf(buf, s, r->rep, &m);
		n += rows_timing_buf(buf + n, r->rep, wall, sim_totals(sim));
		n += rows_types_buf(buf + n, r->rep, &m);
	}
	sim_free(sim);
	*text = xmalloc(n + 1);
	memcpy(*text, buf, n);
	(*text)[n] = '\0';
	*len = n;
	return rc;
}

/* ---- gathering rows (rank 0) ----------------------------------------- */

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
	double (*counts)[NF_READ - 1]; /* per group: sums over its replications of
			       counted, failed, timed_out, unplaceable */
	bool bar;             /* draw a progress bar on stderr */
	double t0, drawn;     /* start; last drawing (seconds) */
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void progress(struct gather *g, bool clear)
{
	if (!g->bar)
		return;
	if (clear) {
		fputs("\r\033[K", stderr);
		return;
	}
	double t = now_s(), el = t - g->t0;
	if (t - g->drawn < 0.1 && g->arrived < g->pl->nruns)
		return;
	g->drawn = t;
	double rate = el > 0 ? g->arrived / el : 0;
	char left[32] = "?";
	if (rate > 0) {
		long s = (long)((g->pl->nruns - g->arrived) / rate + 0.5);
		snprintf(left, sizeof left, "%ld:%02ld", s / 60, s % 60);
	}
	int fill = (int)(30 * g->arrived / g->pl->nruns);
	fprintf(stderr, "\r[%.*s%*s] %ld/%ld runs, %.1f runs/s, %s left\033[K", fill,
		"##############################", 30 - fill, "", g->arrived, g->pl->nruns, rate,
		left);
}

/* The leading columns of a row of run r: runs.csv's, types.csv's,
 * timing.csv's or summary.csv's. */
static void lead(FILE *f, const struct plan *pl, const struct run *r)
{
	const struct scn_sweep *sw = pl->sw;
	fprintf(f, "%s,%s,%d", sw->point[r->point]->name, pl->pols[r->point][r->pol].name,
		r->point);
	for (int a = 0; a < sw->naxes; a++)
		fprintf(f, ",%s", scn_sweep_shown(sw, r->point, a));
}

/* The rest of a summary.csv row after its leading columns:
 * ",replications,metric,mean,sd,ci95_half,ci95_lo,ci95_hi,baseline\n". */
static void ci_row(FILE *f, const char *metric, const struct plot_ci95 *ci, const char *baseline)
{
	fprintf(f, ",%d,%s,%.6f,%.6f,", ci->n, metric, ci->mean, ci->sd);
	if (ci->n > 1)
		fprintf(f, "%.6f,%.6f,%.6f,%s\n", ci->half, ci->mean - ci->half,
			ci->mean + ci->half, baseline);
	else
		fprintf(f, ",,,%s\n", baseline);
}

/* The group of run r is complete: its summary rows. */
static void group_done(struct gather *g, const struct run *r)
{
	const struct plan *pl = g->pl;
	int gid = pl->gfirst[r->point] + r->pol;
	size_t len;
	FILE *f = open_memstream(&g->sum[gid], &len);
	if (!f) {
		fprintf(stderr, "hetsim: out of memory (open_memstream)\n");
		abort();
	}
	for (int m = 0; m < nmetrics; m++) {
		struct plot_ci95 ci;
		plot_ci95(g->vals + (size_t)m * pl->maxreps, g->nvals[m], &ci);
		if (!strcmp(metric_name[m], "makespan_s"))
			g->mk[gid] = ci;
		if (!ci.n)
			continue; /* empty in every replication */
		lead(f, pl, r);
		ci_row(f, metric_name[m], &ci, "");
		g->nvals[m] = 0;
	}
	fclose(f);
}

/* The paired change of makespan of group gid against the baseline's
 * group bg at the same point (plot_paired_changes; a group's runs are
 * consecutive, replication by replication). */
static void change_ci(const struct gather *g, int gid, int bg, struct plot_ci95 *out)
{
	const struct plan *pl = g->pl;
	int reps = pl->reps[pl->runs[pl->grun[gid]].point];
	double *x = xmalloc((size_t)(reps ? reps : 1) * sizeof *x);
	plot_ci95(x, plot_paired_changes(g->mkrun + pl->grun[gid], g->mkrun + pl->grun[bg], reps, x),
		 out);
	free(x);
}

/* Write run i's rows (its turn has come) and take its metrics. */
static void write_row(struct gather *g, long i, const char *row)
{
	const struct plan *pl = g->pl;
	const struct run *r = &pl->runs[i];
	/* run_one's lines: runs.csv's, timing.csv's, then types.csv's */
	const char *timing = strchr(row, '\n') + 1, *types = strchr(timing, '\n') + 1;
	lead(g->runs, pl, r);
	fprintf(g->runs, ",%.*s", (int)(timing - row), row);
	lead(g->timing, pl, r);
	fprintf(g->timing, ",%.*s", (int)(types - timing), timing);
	for (const char *l = types, *end; *l; l = end) {
		end = strchr(l, '\n') + 1;
		lead(g->types, pl, r);
		fprintf(g->types, ",%.*s", (int)(end - l), l);
	}
	const char *p = row;
	int gid = pl->gfirst[r->point] + r->pol;
	g->mkrun[i] = NAN;
	for (int k = 0; k < nfields; k++) {
		size_t n = strcspn(p, ",\n");
		int m = k - first_metric;
		if (m >= 0 && m < nmetrics && n > 0)
			g->vals[(size_t)m * pl->maxreps + g->nvals[m]++] = strtod(p, NULL);
		if (k == read_field[F_MAKESPAN] && n > 0)
			g->mkrun[i] = strtod(p, NULL);
		for (int c = 0; c < F_MAKESPAN; c++)
			if (k == read_field[c])
				g->counts[gid][c] += strtod(p, NULL);
		p += n + (p[n] == ',');
	}
	if (r->rep == pl->reps[r->point] - 1)
		group_done(g, r);
}

/* Run i's row arrived (text is taken over). */
static void gather_row(struct gather *g, long i, char *text)
{
	g->pending[i] = text;
	g->arrived++;
	while (g->next < g->pl->nruns && g->pending[g->next]) {
		write_row(g, g->next, g->pending[g->next]);
		free(g->pending[g->next]);
		g->pending[g->next++] = NULL;
	}
	progress(g, false);
}

static void gather_free(struct gather *g)
{
	for (long i = 0; g->pending && i < g->pl->nruns; i++)
		free(g->pending[i]);
	free(g->pending);
	for (int k = 0; g->sum && k < g->pl->ngroups; k++)
		free(g->sum[k]);
	free(g->sum);
	free(g->mk);
	free(g->mkrun);
	free(g->counts);
	free(g->vals);
}

/* ---- output files -------------------------------------------------- */

/* timing.csv holds wall-clock figures: unlike the others it differs
 * from run to run (and with -j: runs share the cores). */
enum { OUT_RUNS, OUT_SUMMARY, OUT_TIMING, OUT_TYPES, NOUT };
static const char *const out_names[NOUT] = {"runs.csv", "summary.csv", "timing.csv",
					    "types.csv"};
static const char *const out_tails[NOUT] = {
	"," ROWS_RUN_HEADER,
	",replications,metric,mean,sd,ci95_half,ci95_lo,ci95_hi,baseline\n",
	"," ROWS_TIMING_HEADER,
	"," ROWS_TYPES_HEADER,
};

/* The files as NAME.tmp, with their headers. */
static int open_outputs(struct rows_files *out, const struct scn_sweep *sw)
{
	if (rows_files_open(out))
		return -1;
	for (int i = 0; i < NOUT; i++) {
		fputs("scenario,policy,point", out->f[i]);
		for (int a = 0; a < sw->naxes; a++)
			fprintf(out->f[i], ",%s", sw->axes[a].label);
		fputs(out_tails[i], out->f[i]);
	}
	return 0;
}

/* Policy names in order of first appearance (point 0's first), into
 * names (room for pl->ngroups). */
static int policy_order(const struct plan *pl, const char **names)
{
	int n = 0;
	for (int p = 0; p < pl->sw->npoints; p++)
		for (int k = 0; k < pl->npol[p]; k++) {
			int i = 0;
			while (i < n && strcmp(names[i], pl->pols[p][k].name) != 0)
				i++;
			if (i == n)
				names[n++] = pl->pols[p][k].name;
		}
	return n;
}

/* summary.csv's rows: policy by policy, point by point; after a
 * group's rows, its change against the baseline at that point. */
static void write_summary(const struct gather *g, FILE *f)
{
	const struct plan *pl = g->pl;
	cmd_trace_warnings(pl->sw->point[0], stderr);
	const char **names = xcalloc((size_t)pl->ngroups, sizeof *names);
	int n = policy_order(pl, names);
	for (int i = 0; i < n; i++)
		for (int p = 0; p < pl->sw->npoints; p++) {
			int gid = group_of(pl, p, names[i]);
			if (gid < 0)
				continue;
			if (g->sum[gid])
				fputs(g->sum[gid], f);
			int bg = group_of(pl, p, pl->baseline);
			struct plot_ci95 ci;
			if (bg < 0 || bg == gid)
				continue;
			change_ci(g, gid, bg, &ci);
			if (!ci.n)
				continue;
			lead(f, pl, &pl->runs[pl->grun[gid]]);
			ci_row(f, "makespan_change_pct", &ci, pl->baseline);
		}
	free(names);
}

/* Jobs per replication of group gid not done, and counted: means. */
static void not_done(const struct gather *g, int gid, double *nd, double *counted)
{
	const struct plan *pl = g->pl;
	int reps = pl->reps[pl->runs[pl->grun[gid]].point];
	const double *c = g->counts[gid];
	*nd = (c[F_FAILED] + c[F_TIMED_OUT] + c[F_UNPLACEABLE]) / reps;
	*counted = c[F_COUNTED] / reps;
}

static void print_table(const struct gather *g, const char *dir)
{
	const struct plan *pl = g->pl;
	const struct scn_sweep *sw = pl->sw;
	const char **names = xcalloc((size_t)pl->ngroups, sizeof *names);
	int w[64], n = policy_order(pl, names);
	printf("%s: %d point%s, %ld runs; means over each point's replications (reps), "
	       "± the half-width of the 95%% CI; change: makespan against %s (%s), paired; "
	       "files in %s/\n", sw->point[0]->name, sw->npoints, sw->npoints == 1 ? "" : "s",
	       pl->nruns, pl->baseline, pl->baseline_named ? "--baseline" : "the first policy listed",
	       dir);
	printf("%-18s %5s", "policy", "point");
	for (int a = 0; a < sw->naxes && a < 64; a++) {
		w[a] = (int)strlen(sw->axes[a].label);
		for (int v = 0; v < sw->axes[a].nvalues; v++)
			if ((int)strlen(sw->axes[a].shown[v]) > w[a])
				w[a] = (int)strlen(sw->axes[a].shown[v]);
		w[a] = w[a] > 24 ? 24 : w[a];
		printf(" %-*s", w[a], sw->axes[a].label);
	}
	printf(" %12s %12s %9s %14s %5s\n", "makespan_s", "ci95_half", "change_%", "not_done",
	       "reps");
	int warned = 0, unwarned = 0;
	for (int i = 0; i < n; i++)
		for (int p = 0; p < sw->npoints; p++) {
			int gid = group_of(pl, p, names[i]), bg = group_of(pl, p, pl->baseline);
			if (gid < 0)
				continue;
			const struct plot_ci95 *c = &g->mk[gid];
			char mk[32] = "-", half[32] = "-", ch[32] = "-", nd[64];
			if (c->n > 0)
				snprintf(mk, sizeof mk, "%.3f", c->mean);
			if (c->n > 1)
				snprintf(half, sizeof half, "%.3f", c->half);
			if (bg == gid)
				snprintf(ch, sizeof ch, "baseline");
			if (bg >= 0 && bg != gid) {
				struct plot_ci95 cc;
				change_ci(g, gid, bg, &cc);
				if (cc.n > 0)
					snprintf(ch, sizeof ch, "%+.1f", cc.mean);
			}
			double notd, counted;
			not_done(g, gid, &notd, &counted);
			char a[24], b[24];
			plot_count_text(a, sizeof a, notd);
			plot_count_text(b, sizeof b, counted);
			snprintf(nd, sizeof nd, "%s of %s", a, b);
			printf("%-18s %5d", names[i], p);
			for (int a = 0; a < sw->naxes && a < 64; a++)
				printf(" %-*.*s", w[a], w[a], scn_sweep_shown(sw, p, a));
			printf(" %12s %12s %9s %14s %5d\n", mk, half, ch, notd > 0 ? nd : "0",
			       pl->reps[p]);
		}
	for (int i = 0; i < n; i++)
		for (int p = 0; p < sw->npoints; p++) {
			int gid = group_of(pl, p, names[i]);
			double notd, counted;
			if (gid < 0 || (not_done(g, gid, &notd, &counted), notd == 0))
				continue;
			if (warned == 10) {
				unwarned++;
				continue;
			}
			const double *c = g->counts[gid];
			int reps = pl->reps[p];
			const double x[5] = {notd, counted, c[F_FAILED] / reps, c[F_TIMED_OUT] / reps,
					     c[F_UNPLACEABLE] / reps};
			char t[5][24];
			for (int k = 0; k < 5; k++)
				plot_count_text(t[k], sizeof t[k], x[k]);
			printf("warning: %s at point %d: %s of %s jobs per replication not done "
			       "(%s failed, %s timed out, %s unplaceable)%s\n", names[i], p, t[0], t[1],
			       t[2], t[3], t[4],
			       c[F_UNPLACEABLE] + c[F_FAILED] + c[F_TIMED_OUT] >= reps * counted
				       ? "; no job done" : "");
			warned++;
		}
	if (unwarned)
		printf("warning: and %d more (policy, point) pairs with jobs not done\n", unwarned);
	if (warned)
		printf("(each job's reason: jobs.csv of hetsim run on that point's scenario)\n");
	free(names);
}

/* ---- executing the runs -------------------------------------------- */

enum { TAG_ROW = 1, TAG_DONE, TAG_ERR }; /* MPI messages to rank 0 */

struct exec {
	const struct plan *pl;
	int rank, nranks;
	struct gather *g;      /* rank 0: rows go here; other ranks send them */
	int ranks_left;        /* rank 0: other ranks not done yet */
	char err[1024];        /* why it failed */
	FILE *state;           /* rank 0: DIR/sweep.state, appended to; or NULL */
	char **done;           /* runs a resumed state held, or NULL */
};

static int failf(struct exec *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int failf(struct exec *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->err, sizeof x->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* Run i is done: its row (taken over) goes to rank 0. */
static int deliver(struct exec *x, long i, char *text, size_t len)
{
	if (x->g) {
		/* kept before it is used: a run in the state is done for good */
		if (x->state && (fprintf(x->state, "R %ld %zu\n", i, len) < 0 ||
				 fwrite(text, 1, len, x->state) != len || fflush(x->state))) {
			free(text);
			return failf(x, "cannot write the sweep's state: %s", strerror(errno));
		}
		gather_row(x->g, i, text);
		return 0;
	}
#ifdef HETSIM_MPI
	char *buf = xmalloc(len + 8);
	int64_t i64 = i;
	memcpy(buf, &i64, 8);
	memcpy(buf + 8, text, len);
	MPI_Send(buf, (int)(len + 8), MPI_CHAR, 0, TAG_ROW, MPI_COMM_WORLD);
	free(buf);
#else
	(void)len;
#endif
	free(text);
	return 0;
}

/* Rank 0: take the other ranks' messages (wait for one if `block`). */
static int poll_ranks(struct exec *x, bool block)
{
#ifdef HETSIM_MPI
	while (x->ranks_left > 0) {
		MPI_Status st;
		int flag = 1, n;
		if (block)
			MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		else
			MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		if (!flag)
			return 0;
		MPI_Get_count(&st, MPI_CHAR, &n);
		char *buf = xmalloc((size_t)n + 1);
		MPI_Recv(buf, n, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		buf[n] = '\0';
		int64_t i = -1;
		if (st.MPI_TAG == TAG_ROW && n >= 8)
			memcpy(&i, buf, 8);
		if (st.MPI_TAG == TAG_DONE) {
			x->ranks_left--;
		} else if (st.MPI_TAG == TAG_ERR) {
			failf(x, "%s", buf);
		} else if (i < 0 || i >= x->pl->nruns || i % x->nranks != st.MPI_SOURCE ||
			   x->g->pending[i] || i < x->g->next) {
			failf(x, "rank %d sent a row for run %" PRId64 ", not one of its own",
			      st.MPI_SOURCE, i);
		} else {
			memmove(buf, buf + 8, (size_t)n - 8 + 1);
			gather_row(x->g, (long)i, buf);
			buf = NULL;
		}
		free(buf);
		if (x->err[0])
			return -1;
		if (block)
			return 0;
	}
#else
	(void)x;
	(void)block;
#endif
	return 0;
}

/* This process runs its runs one by one (-j 1). */
static int run_here(struct exec *x, const long *mine, long n)
{
	for (long k = 0; k < n; k++) {
		if (cmd_stopped) /* SIGINT, SIGTERM: the state stays for --resume */
			return failf(x, "interrupted");
		char *text;
		size_t len;
		if (run_one(x->pl, mine[k], &text, &len)) {
			failf(x, "%s", text);
			free(text);
			return -1;
		}
		if (deliver(x, mine[k], text, len) || poll_ranks(x, false))
			return -1;
	}
	return 0;
}

struct msg {          /* a worker's answer, then `len` bytes */
	int64_t run;
	int32_t failed;   /* 0: a row; 1: an error message */
	uint32_t len;
};

/* Runs handed to a worker ahead of its answers: a short queue keeps it
 * busy while the parent takes its last answer (a run can take 100 µs). */
#define QUEUE 4

struct worker {
	pid_t pid;        /* 0 once reaped */
	int to, from;     /* pipes: run indices out, answers in; -1 when closed */
	long q[QUEUE];    /* runs handed out, oldest first */
	int nq;
};

/* 1 when all n bytes were read, 0 at end of file before any, -1 else. */
static int read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return got == 0 && r == 0 ? 0 : -1;
		got += (size_t)r;
	}
	return 1;
}

static int write_full(int fd, const void *buf, size_t n)
{
	size_t put = 0;
	while (put < n) {
		ssize_t r = write(fd, (const char *)buf + put, n - put);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		put += (size_t)r;
	}
	return 0;
}

/* A worker: run what the parent sends until it closes the pipe. */
static void worker_main(const struct plan *pl, int in, int out)
{
	int64_t i;
	const char *k = getenv("HETSIM_SWEEP_KILL_RUN");
	long kill_at = k && *k ? strtol(k, NULL, 10) : -1;
	signal(SIGPIPE, SIG_DFL);
	while (read_full(in, &i, sizeof i) == 1) {
		if (i == kill_at)
			kill(getpid(), SIGKILL);
		char *text;
		size_t len;
		struct msg m = {i, 0, 0};
		if (i < 0 || i >= pl->nruns)
			_exit(3);
		m.failed = run_one(pl, (long)i, &text, &len) != 0;
		m.len = (uint32_t)len;
		if (write_full(out, &m, sizeof m) || write_full(out, text, len))
			_exit(2);
		free(text);
	}
	_exit(0);
}

static int spawn(struct exec *x, struct worker *w, int k)
{
	int a[2], b[2];
	if (pipe(a))
		return failf(x, "cannot create a pipe: %s", strerror(errno));
	if (pipe(b)) {
		close(a[0]);
		close(a[1]);
		return failf(x, "cannot create a pipe: %s", strerror(errno));
	}
	fflush(NULL); /* nothing buffered is written twice */
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(a[0]), close(a[1]), close(b[0]), close(b[1]);
		return failf(x, "cannot start a worker process: %s", strerror(e));
	}
	if (pid == 0) {
		for (int j = 0; j < k; j++) { /* the other workers' pipes: theirs alone */
			if (w[j].to >= 0)
				close(w[j].to);
			if (w[j].from >= 0)
				close(w[j].from);
		}
		close(a[1]);
		close(b[0]);
		free(w); /* the parent's, which a worker never reads (valgrind
			  * --trace-children: nothing inherited is lost) */
		worker_main(x->pl, a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	w[k] = (struct worker){.pid = pid, .to = a[1], .from = b[0]};
	return 0;
}

/* Fill worker w's queue; close its pipe when no run is left.  A worker
 * that cannot be written to has died: its queue stops growing, and
 * reading its answers says so. */
static void hand_out(struct worker *w, const long *mine, long n, long *next)
{
	while (w->to >= 0 && w->nq < QUEUE && *next < n) {
		int64_t i = mine[*next];
		if (write_full(w->to, &i, sizeof i)) {
			close(w->to);
			w->to = -1;
			break;
		}
		w->q[w->nq++] = mine[(*next)++];
	}
	if (*next >= n && w->to >= 0) {
		close(w->to);
		w->to = -1;
	}
}

static void describe_status(int st, char *buf, size_t len)
{
	if (WIFSIGNALED(st))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(st));
	else
		snprintf(buf, len, "status %d", st);
}

/* Worker w's answer is ready. */
static int take_answer(struct exec *x, struct worker *w)
{
	long run = w->q[0];
	const struct run *r = &x->pl->runs[run];
	struct msg m;
	int got = read_full(w->from, &m, sizeof m);
	char *text = NULL;
	if (got == 1) {
		text = xmalloc((size_t)m.len + 1);
		if (read_full(w->from, text, m.len) != 1 && m.len > 0)
			got = -1;
		text[m.len] = '\0';
	}
	if (got != 1 || m.run != run) {
		int st = 0;
		char how[128] = "it stopped answering";
		free(text);
		if (waitpid(w->pid, &st, 0) == w->pid) {
			w->pid = 0;
			describe_status(st, how, sizeof how);
		}
		return failf(x, "a worker process died running run %ld (point %d, policy %s, "
			     "replication %d): %s; no results written", run, r->point,
			     x->pl->pols[r->point][r->pol].name, r->rep, how);
	}
	memmove(w->q, w->q + 1, (size_t)--w->nq * sizeof *w->q);
	if (m.failed) {
		failf(x, "%s", text);
		free(text);
		return -1;
	}
	return deliver(x, run, text, m.len);
}

/* Stop the workers: close their pipes, kill them on failure, reap them. */
static int stop_workers(struct exec *x, struct worker *w, int n, bool failed)
{
	for (int k = 0; k < n; k++) {
		if (w[k].to >= 0)
			close(w[k].to);
		if (failed && w[k].pid > 0)
			kill(w[k].pid, SIGKILL);
	}
	int rc = 0;
	for (int k = 0; k < n; k++) {
		int st;
		if (w[k].pid > 0 && waitpid(w[k].pid, &st, 0) == w[k].pid && !failed &&
		    !(WIFEXITED(st) && WEXITSTATUS(st) == 0) && !rc) {
			char how[128];
			describe_status(st, how, sizeof how);
			rc = failf(x, "worker process %d ended badly: %s", (int)w[k].pid, how);
		}
		if (w[k].from >= 0)
			close(w[k].from);
	}
	return rc;
}

/* The runs `mine` (n of them) on `nw` worker processes. */
static int run_workers(struct exec *x, const long *mine, long n, int nw)
{
	struct worker *w = xcalloc((size_t)nw, sizeof *w);
	long next = 0;
	int started = 0, rc = 0;
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old); /* a dead worker's pipe: an error, not a signal */
	while (started < nw && rc == 0)
		if ((rc = spawn(x, w, started)) == 0)
			started++;
	/* (after the forks: the workers inherit none of these) */
	struct pollfd *pf = xcalloc((size_t)nw, sizeof *pf);
	int *who = xcalloc((size_t)nw, sizeof *who);
	for (int k = 0; k < started && rc == 0; k++)
		hand_out(&w[k], mine, n, &next);
	while (rc == 0) {
		int np = 0;
		for (int k = 0; k < started; k++)
			if (w[k].nq > 0) {
				pf[np] = (struct pollfd){.fd = w[k].from, .events = POLLIN};
				who[np++] = k;
			}
		if (np == 0)
			break;
		int r = poll(pf, (nfds_t)np, x->ranks_left ? 10 : -1);
		if (cmd_stopped) {
			rc = failf(x, "interrupted");
			break;
		}
		if (r < 0 && errno != EINTR)
			rc = failf(x, "poll: %s", strerror(errno));
		for (int i = 0; r > 0 && i < np && rc == 0; i++)
			if (pf[i].revents) {
				struct worker *wk = &w[who[i]];
				if ((rc = take_answer(x, wk)) == 0)
					hand_out(wk, mine, n, &next);
			}
		if (rc == 0)
			rc = poll_ranks(x, false);
	}
	if (stop_workers(x, w, started, rc != 0) && rc == 0)
		rc = -1;
	sigaction(SIGPIPE, &old, NULL);
	free(who);
	free(pf);
	free(w);
	return rc;
}

/* Run this rank's share of the plan, then (rank 0) wait for the others. */
static int execute(struct exec *x, int nworkers)
{
	const struct plan *pl = x->pl;
	long n = 0;
	long *mine = xcalloc((size_t)(pl->nruns / x->nranks + 1), sizeof *mine);
	for (long i = x->rank; i < pl->nruns; i += x->nranks)
		if (!x->done || !x->done[i]) /* (a resumed sweep: the runs not done) */
			mine[n++] = i;
	if (nworkers > n)
		nworkers = (int)(n > 0 ? n : 1);
	int rc = nworkers <= 1 ? run_here(x, mine, n) : run_workers(x, mine, n, nworkers);
	free(mine);
	while (rc == 0 && x->ranks_left > 0)
		rc = poll_ranks(x, true);
#ifdef HETSIM_MPI
	if (x->nranks > 1 && x->rank > 0) {
		if (rc == 0) {
			MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_DONE, MPI_COMM_WORLD);
		} else { /* rank 0 says it and ends every rank */
			char m[sizeof x->err + 32];
			snprintf(m, sizeof m, "rank %d: %s", x->rank, x->err);
			MPI_Send(m, (int)strlen(m), MPI_CHAR, 0, TAG_ERR, MPI_COMM_WORLD);
			MPI_Recv(NULL, 0, MPI_CHAR, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
#endif
	return rc;
}

/* ---- MPI ----------------------------------------------------------- */

static void ranks(int *rank, int *n)
{
	*rank = 0;
	*n = 1;
#ifdef HETSIM_MPI
	int up = 0;
	MPI_Initialized(&up);
	if (up) {
		MPI_Comm_rank(MPI_COMM_WORLD, rank);
		MPI_Comm_size(MPI_COMM_WORLD, n);
	}
#endif
}

/* Every rank's rc, the worst of them (ranks that set up the same files
 * the same way agree; this keeps one that did not from waiting). */
static int agree(int rc)
{
#ifdef HETSIM_MPI
	int r, n, worst = rc;
	ranks(&r, &n);
	if (n > 1)
		MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (worst && !rc && r == 0)
		fprintf(stderr, "hetsim sweep: another MPI rank could not set up the sweep (run it "
			"on one machine to see why)\n");
	return worst;
#else
	return rc;
#endif
}

/* On a failure that only this rank knows of: end every rank. */
static void abort_ranks(void)
{
#ifdef HETSIM_MPI
	int r, n;
	ranks(&r, &n);
	if (n > 1)
		MPI_Abort(MPI_COMM_WORLD, 1);
#endif
}

/* Worker processes by default: the online CPUs, shared by this node's ranks. */
static int default_workers(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int local = 1;
#ifdef HETSIM_MPI
	int r, n;
	ranks(&r, &n);
	if (n > 1) {
		MPI_Comm c;
		MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
		MPI_Comm_size(c, &local);
		MPI_Comm_free(&c);
	}
#endif
	cpus /= local;
	return cpus < 1 ? 1 : cpus > MAX_WORKERS ? MAX_WORKERS : (int)cpus;
}

/* ---- the command --------------------------------------------------- */

/* "note: policy X ignores the scenario's node labels", once a policy;
 * the built-in cost model, once. */
static void notes(const struct plan *pl)
{
	for (int p = 0; p < pl->sw->npoints; p++)
		if (pl->sw->point[p]->cost.builtin) {
			fprintf(stderr, "note: %s names no cost_model: using the built-in default, "
				"the assumed figures of " SCN_DEFAULT_MODEL "\n", pl->sw->point[p]->path);
			break;
		}
	const char **names = xcalloc((size_t)pl->ngroups, sizeof *names);
	int n = policy_order(pl, names);
	for (int i = 0; i < n; i++)
		for (int p = 0; p < pl->sw->npoints; p++) {
			int gid = group_of(pl, p, names[i]);
			if (gid < 0)
				continue;
			const struct scn_policy *pol = &pl->pols[p][gid - pl->gfirst[p]];
			const struct policy_ops *ops = pol->ops;
			if (!ops || ops->uses_labels || !rows_scenario_has_labels(pl->sw->point[p]))
				continue;
			bool alias = strcmp(pol->name, ops->name) != 0;
			fprintf(stderr, "note: policy '%s'%s%s%s ignores the scenario's node labels\n",
				pol->name, alias ? " (" : "", alias ? ops->name : "", alias ? ")" : "");
			break;
		}
	free(names);
}

/* The runs a sweep has at once, each in its own worker process, must fit
 * together in the memory a load may plan for: the loader checked each
 * point's run alone (scn.run_bytes); here the largest of them times the
 * runs at once (the workers, at most the runs left).  0, or -1 with the
 * message said (rank 0). */
static int check_runs_at_once(const struct plan *pl, const struct cmd_sweep_opts *o,
			      int workers)
{
	long left = pl->nruns - o->nresumed;
	long at_once = workers < left ? workers : left;
	const char *whose;
	int64_t limit = scn_memory_limit(&whose);
	if (at_once <= 1 || limit < 0)
		return 0;
	int top = 0;
	for (int p = 1; p < pl->sw->npoints; p++)
		if (pl->sw->point[p]->run_bytes > pl->sw->point[top]->run_bytes)
			top = p;
	double one = (double)pl->sw->point[top]->run_bytes, all = one * (double)at_once;
	if (all <= (double)limit)
		return 0;
	char a[32], b[32], l[32], at[512];
	if (pl->say)
		fprintf(stderr, "hetsim sweep: %ld runs at once (--workers %d) would hold about %s "
			"(each up to %s, a run of sweep point %d:%s), above the %s %s: fewer workers "
			"(-j N), or --max-memory SIZE\n", at_once, workers, scn_mem_text(all, a),
			scn_mem_text(one, b), top, scn_sweep_point_text(pl->sw, top, at, sizeof at),
			scn_mem_text((double)limit, l), whose);
	return -1;
}

int cmd_sweep_scenario(struct scn_sweep *sw, const struct cmd_sweep_opts *o, const char *dir)
{
	struct plan pl = {0};
	struct exec x = {.pl = &pl};
	struct gather g = {.pl = &pl};
	struct rows_files out = {.cmd = "sweep", .dir = dir, .names = out_names, .n = NOUT};
	FILE **f = out.f;
	ranks(&x.rank, &x.nranks);
	pl.say = x.rank == 0;
	metrics_init();
	int workers = o->workers > 0 ? o->workers : default_workers();
	int rc = plan_build(&pl, sw, o);
	rc = agree(rc ? rc : check_runs_at_once(&pl, o, workers) ? 1 : 0);
	if (rc) {
		plan_free(&pl);
		return rc;
	}
	if (x.rank == 0) {
		rc = open_outputs(&out, sw) ? 1 : 0;
		g.runs = f[OUT_RUNS];
		g.timing = f[OUT_TIMING];
		g.types = f[OUT_TYPES];
		g.pending = xcalloc((size_t)pl.nruns, sizeof *g.pending);
		g.sum = xcalloc((size_t)pl.ngroups, sizeof *g.sum);
		g.mk = xcalloc((size_t)pl.ngroups, sizeof *g.mk);
		g.mkrun = xcalloc((size_t)pl.nruns, sizeof *g.mkrun);
		g.counts = xcalloc((size_t)pl.ngroups, sizeof *g.counts);
		g.vals = xcalloc((size_t)nmetrics * pl.maxreps, sizeof *g.vals);
		g.bar = !o->quiet && isatty(STDERR_FILENO);
		g.t0 = now_s();
		x.g = &g;
		x.ranks_left = x.nranks - 1;
		if (!o->quiet && rc == 0)
			notes(&pl);
	}
	rc = agree(rc);
	char state_path[4200];
	snprintf(state_path, sizeof state_path, "%s/sweep.state", dir);
	if (rc == 0 && x.rank == 0 && o->state_head && x.nranks == 1) {
		if (o->resume && o->state_runs != pl.nruns) {
			fprintf(stderr, "hetsim sweep: %s: made for %ld runs, the sweep has %ld: run "
				"it again without --resume\n", state_path, o->state_runs, pl.nruns);
			rc = 1;
		} else if (!(x.state = fopen(state_path, o->resume ? "a" : "w")) ||
			   (!o->resume && (fprintf(x.state, "%sruns %ld\nend\n", o->state_head,
						   pl.nruns) < 0 || fflush(x.state)))) {
			fprintf(stderr, "hetsim sweep: %s: %s\n", state_path, strerror(errno));
			rc = 1;
		}
	}
	if (rc == 0 && x.rank == 0 && o->resume) { /* the runs done before, as they came */
		x.done = o->resume;
		if (!o->quiet)
			fprintf(stderr, "hetsim sweep: resuming %s: %ld of %ld runs were done; running "
				"the other %ld\n", dir, o->nresumed, pl.nruns, pl.nruns - o->nresumed);
		for (long i = 0; i < pl.nruns; i++)
			if (o->resume[i])
				gather_row(&g, i, xstrdup(o->resume[i]));
	}
	struct cmd_stop stop;
	cmd_stop_catch(&stop);
	bool lonely = false; /* failed where the other ranks do not know */
	if (rc == 0 && execute(&x, workers))
		rc = 1, lonely = true;
	cmd_stop_release(&stop);
	if (cmd_stopped && x.rank == 0) {
		fprintf(stderr, "hetsim sweep: interrupted (%s): %ld of %ld runs done%s%s; no file "
			"written\n", cmd_stop_name(cmd_stopped), g.arrived, pl.nruns,
			x.state ? "; hetsim sweep --resume " : "", x.state ? dir : "");
		x.err[0] = 0;
		rc = 128 + cmd_stopped;
	}
	if (x.rank == 0) {
		progress(&g, true);
		if (rc && x.err[0])
			fprintf(stderr, "hetsim sweep: %s\n", x.err);
		if (rc == 0 && g.next != pl.nruns) {
			fprintf(stderr, "hetsim sweep: %ld of %ld runs came back\n", g.next, pl.nruns);
			rc = 1;
		}
		if (rc == 0 && f[OUT_SUMMARY])
			write_summary(&g, f[OUT_SUMMARY]);
		if (rows_files_close(&out, rc == 0))
			rc = rc ? rc : 1;
		if (x.state) { /* a sweep done has nothing to resume */
			fclose(x.state);
			if (rc == 0)
				remove(state_path);
		}
		if (rc == 0 && !o->quiet)
			print_table(&g, dir);
		gather_free(&g);
	}
	if (lonely)
		abort_ranks();
	plan_free(&pl);
	return rc;
}

static const struct cmd_opt sweep_opts[] = {
	{"output", 'o', "DIR", "write the CSV files here (default results/<scenario>/)"},
	{"workers", 'j', "N", "run N simulations at a time, in worker processes (default: the "
			      "online CPUs; 1: in this process)"},
	{"replications", 'r', "N", "override the number of replications of every point"},
	{"seed", 0, "N", "override the scenario's seed"},
	{"policy", 'p', "NAME", "run only this policy (a scenario entry's name, or a "
				"registered policy with its defaults); repeatable"},
	{"baseline", 0, "NAME", "the policy changes are against (default: the first policy listed)"},
	{"plugin", 0, "FILE", "load a policy plugin (a shared object: docs/writing-a-policy.md) "
			      "and register its policy; repeatable"},
	CMD_MAXMEM_OPT,
	{"resume", 0, "DIR", "finish the interrupted sweep of DIR (its scenario and options "
			     "from DIR/sweep.state; the runs it holds are not run again)"},
	{"quiet", 'q', NULL, "print no table, no notes and no progress"},
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

/* ---- the resumable state (DIR/sweep.state) ---------------------------
 *
 *     hetsim-sweep-state 1
 *     hash HEX              FNV-1a of the arguments below and the bytes
 *                           of the scenario file, its cost model and the
 *                           traces and logs it reads (scn.inputs; a
 *                           folder: each entry's name and bytes)
 *     arg TEXT              the scenario (an absolute path), then each
 *     ...                   option that shapes the results, as --name=value
 *     runs N
 *     end
 *     R INDEX LEN           a run back, then its LEN bytes of rows
 *
 * A record cut short (the sweep was killed as it wrote) is dropped at
 * --resume and the file cut back to the last whole one. */

#define STATE_MAX_ARGS 64

struct state {
	char *args[STATE_MAX_ARGS]; int nargs;
	uint64_t hash;
	long runs;
	char **rec; long nrec;
};

static int not_dots(const struct dirent *e)
{
	return strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
}

/* The bytes of a file, or of a folder (a trace format of tables: PAI)
 * every entry's name and bytes in name order, its folders to a depth
 * of 4; then a NUL. */
static uint64_t fnv_path(uint64_t h, const char *path, int depth)
{
	struct stat st;
	if (path && depth < 4 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		struct dirent **e;
		int n = scandir(path, &e, not_dots, alphasort);
		for (int i = 0; i < n; i++) {
			size_t len = strlen(path) + strlen(e[i]->d_name) + 2;
			char *p = xmalloc(len);
			snprintf(p, len, "%s/%s", path, e[i]->d_name);
			h = fnv1a(h, e[i]->d_name, strlen(e[i]->d_name) + 1);
			h = fnv_path(h, p, depth + 1);
			free(p);
			free(e[i]);
		}
		if (n >= 0)
			free(e);
		return fnv1a(h, "\0", 1);
	}
	FILE *f = path ? fopen(path, "rb") : NULL;
	char buf[65536];
	size_t n;
	while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
		h = fnv1a(h, buf, n);
	if (f)
		fclose(f);
	return fnv1a(h, "\0", 1);
}

static uint64_t fnv_file(uint64_t h, const char *path)
{
	return fnv_path(h, path, 0);
}

/* The options of a that shape the results, as --name=value (not where
 * they go, how many workers, or how much is printed). */
static int state_args(const struct cmd_args *a, const char *scenario, struct state *st)
{
	char *abs = realpath(scenario, NULL);
	st->args[st->nargs++] = abs ? abs : xstrdup(scenario);
	for (int i = 0; i < a->n && st->nargs < STATE_MAX_ARGS; i++) {
		const char *name = sweep_opts[a->opt[i]].name;
		if (!strcmp(name, "output") || !strcmp(name, "workers") || !strcmp(name, "quiet") ||
		    !strcmp(name, "resume"))
			continue;
		if (strchr(a->val[i], '\n'))
			return -1; /* (not kept: it would not read back) */
		size_t n = strlen(name) + strlen(a->val[i]) + 4;
		st->args[st->nargs] = xmalloc(n);
		snprintf(st->args[st->nargs++], n, "--%s=%s", name, a->val[i]);
	}
	return 0;
}

static uint64_t state_hash(const struct state *st, const struct scn_sweep *sw)
{
	uint64_t h = FNV1A_BASIS;
	for (int i = 0; i < st->nargs; i++)
		h = fnv1a(h, st->args[i], strlen(st->args[i]) + 1);
	h = fnv_file(h, st->args[0]);
	h = fnv_file(h, sw->point[0]->cost.path);
	for (int i = 0; i < sw->point[0]->ninputs; i++) /* its traces and logs */
		h = fnv_file(h, sw->point[0]->inputs[i]);
	return h;
}

static char *state_head(const struct state *st, uint64_t hash)
{
	size_t n = 64;
	for (int i = 0; i < st->nargs; i++)
		n += strlen(st->args[i]) + 8;
	char *h = xmalloc(n);
	int k = snprintf(h, n, "hetsim-sweep-state 1\nhash %016" PRIx64 "\n", hash);
	for (int i = 0; i < st->nargs; i++)
		k += snprintf(h + k, n - (size_t)k, "arg %s\n", st->args[i]);
	return h;
}

static void state_free(struct state *st)
{
	for (int i = 0; i < st->nargs; i++)
		free(st->args[i]);
	for (long i = 0; st->rec && i < st->runs; i++) /* by run index: nrec of them set */
		free(st->rec[i]);
	free(st->rec);
	memset(st, 0, sizeof *st);
}

/* Read DIR/sweep.state into st, cutting off a record cut short; 0, or 1
 * with one line said. */
static int state_read(const char *dir, struct state *st)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/sweep.state", dir);
	const char *why;
	FILE *f = fopen_regular(path, &why);
	if (!f) {
		fprintf(stderr, "hetsim sweep: option '--resume': %s: %s (nothing to resume)\n",
			path, why);
		return 1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, rc = 0;
	bool ended = false;
	while (!ended && (n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = 0;
		if (lineno == 1 && strcmp(line, "hetsim-sweep-state 1"))
			rc = 1;
		else if (!strncmp(line, "hash ", 5))
			st->hash = strtoull(line + 5, NULL, 16);
		else if (!strncmp(line, "arg ", 4) && st->nargs < STATE_MAX_ARGS)
			st->args[st->nargs++] = xstrdup(line + 4);
		else if (!strncmp(line, "runs ", 5))
			st->runs = strtol(line + 5, NULL, 10);
		else if (!strcmp(line, "end"))
			ended = true;
		else if (lineno > 1)
			rc = 1;
		if (rc) {
			fprintf(stderr, "hetsim sweep: %s:%d:1: not a sweep state (line %d)\n", path,
				lineno, lineno);
			break;
		}
	}
	if (!rc && (!ended || st->nargs < 1 || st->runs < 1 || st->runs > MAX_RUNS)) {
		fprintf(stderr, "hetsim sweep: %s:%d:1: not a whole sweep state header\n", path,
			lineno);
		rc = 1;
	}
	long good = ftell(f);
	if (!rc) {
		st->rec = xcalloc((size_t)st->runs, sizeof *st->rec);
		long i;
		size_t len;
		while (fscanf(f, "R %ld %zu", &i, &len) == 2 && getc(f) == '\n' && i >= 0 &&
		       i < st->runs && len < (1u << 30)) {
			char *t = xmalloc(len + 1);
			if (fread(t, 1, len, f) != len) {
				free(t);
				break;
			}
			t[len] = 0;
			if (!st->rec[i])
				st->nrec++;
			free(st->rec[i]);
			st->rec[i] = t;
			good = ftell(f);
		}
		if (truncate(path, good)) { /* the record cut short, if any, goes */
			fprintf(stderr, "hetsim sweep: %s: %s\n", path, strerror(errno));
			rc = 1;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

static int sweep_options(const struct cmd_args *a, struct cmd_sweep_opts *o)
{
	const char *v;
	int64_t x;
	if ((v = cmd_get(sweep_opts, a, "seed"))) {
		if (cmd_seed("sweep", v, &o->seed))
			return 2;
		o->seed_set = true;
		scn_seed_at_load = o->seed; /* an offer-only trace's order follows it */
		scn_seed_at_load_set = true;
	}
	if ((v = cmd_get(sweep_opts, a, "replications"))) {
		if ((x = cmd_int("sweep", "replications", v, 1000000)) < 1) {
			if (x == 0)
				fprintf(stderr, "hetsim sweep: option '--replications' must be at least 1\n");
			return 2;
		}
		o->replications = (int)x;
	}
	if ((v = cmd_get(sweep_opts, a, "workers"))) {
		if ((x = cmd_int("sweep", "workers", v, MAX_WORKERS)) < 1) {
			if (x == 0)
				fprintf(stderr, "hetsim sweep: option '--workers' must be at least 1\n");
			return 2;
		}
		o->workers = (int)x;
	}
	o->quiet = cmd_get(sweep_opts, a, "quiet") != NULL;
	o->baseline = cmd_get(sweep_opts, a, "baseline");
	for (int i = 0; i < a->n; i++)
		if (strcmp(sweep_opts[a->opt[i]].name, "policy") == 0) {
			if (o->npolicies == ARRAY_LEN(o->policies)) {
				fprintf(stderr, "hetsim sweep: too many '--policy' options\n");
				return 2;
			}
			o->policies[o->npolicies++] = a->val[i];
		}
	return 0;
}

static int sweep_main(int argc, char **argv, struct state *resumed)
{
	struct cmd_args a;
	struct cmd_sweep_opts o = {0};
	if (cmd_parse("sweep", sweep_opts, argc, argv, &a) ||
	    cmd_unique("sweep", sweep_opts, &a, "policy"))
		return 2;
	if (cmd_get(sweep_opts, &a, "help")) {
		cmd_help("sweep", "SCENARIO [options]",
			 "Run every point of a scenario's sweep block under its policies, with\n"
			 "replications; write runs.csv, types.csv (per job model) and summary.csv\n"
			 "(mean, sd and 95% confidence interval of each metric per policy and\n"
			 "point) and print makespans.",
			 sweep_opts);
		return 0;
	}
	const char *rdir = cmd_get(sweep_opts, &a, "resume");
	if (rdir && !resumed) { /* the scenario and options from the state */
		if (a.npos || cmd_get(sweep_opts, &a, "output")) {
			fprintf(stderr, "hetsim sweep: option '--resume' takes the scenario, its options "
				"and the folder from %s/sweep.state: give no SCENARIO or --output\n",
				rdir);
			return 2;
		}
		struct state st = {0};
		if (state_read(rdir, &st)) {
			state_free(&st);
			return 1;
		}
		char *av[STATE_MAX_ARGS + 8];
		int ac = 0;
		for (int i = 0; i < st.nargs; i++)
			av[ac++] = st.args[i];
		av[ac++] = "-o";
		av[ac++] = (char *)rdir;
		char jv[32];
		if (cmd_get(sweep_opts, &a, "workers")) {
			snprintf(jv, sizeof jv, "--workers=%s", cmd_get(sweep_opts, &a, "workers"));
			av[ac++] = jv;
		}
		if (cmd_get(sweep_opts, &a, "quiet"))
			av[ac++] = "-q";
		int rc = sweep_main(ac, av, &st);
		state_free(&st);
		return rc;
	}
	if (a.npos != 1) {
		fprintf(stderr, "hetsim sweep: expected one SCENARIO file, got %d arguments\n", a.npos);
		return 2;
	}
	if (sweep_options(&a, &o) || cmd_max_memory("sweep", sweep_opts, &a))
		return 2;
	char err[1024];
	struct scn_sweep *sw = NULL;
	if (cmd_load_plugins(sweep_opts, &a) == 0 &&
	    !(sw = scn_sweep_load(a.pos[0], err, sizeof err)))
		fprintf(stderr, "%s\n", err);
	scn_seed_at_load_set = false; /* this command's loads only */
	int rc = agree(sw ? 0 : 1);
	if (rc) {
		scn_sweep_free(sw);
		return rc;
	}
	char dir[4096];
	const char *out = cmd_get(sweep_opts, &a, "output");
	if (!out) {
		snprintf(dir, sizeof dir, "results/%s", sw->point[0]->name);
		out = dir;
	}
	/* the resumable state, where one process writes the files */
	struct state st = {0};
	char *head = NULL;
	int nranks = 1, rank = 0;
	ranks(&rank, &nranks);
	/* (a scenario on standard input cannot be read again: no state) */
	if (nranks == 1 && strcmp(a.pos[0], "-") && state_args(&a, a.pos[0], &st) == 0) {
		uint64_t h = state_hash(&st, sw);
		if (resumed && h != resumed->hash) {
			fprintf(stderr, "hetsim sweep: %s/sweep.state: the scenario, its cost model or "
				"its options changed since the sweep began: run it again without "
				"--resume\n", out);
			state_free(&st);
			scn_sweep_free(sw);
			return 1;
		}
		o.state_head = head = state_head(&st, h);
		if (resumed) {
			o.resume = resumed->rec;
			o.state_runs = resumed->runs;
			o.nresumed = resumed->nrec;
		}
	}
	rc = cmd_sweep_scenario(sw, &o, out);
	free(head);
	state_free(&st);
	scn_sweep_free(sw);
	return rc;
}

int cmd_sweep(int argc, char **argv)
{
#ifdef HETSIM_MPI
	int rank;
	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank > 0) { /* rank 0 speaks for all */
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			MPI_Abort(MPI_COMM_WORLD, 1);
	}
	int rc = sweep_main(argc, argv, NULL);
	MPI_Finalize();
	return rc;
#else
	return sweep_main(argc, argv, NULL);
#endif
}
