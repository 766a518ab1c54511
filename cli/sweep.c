/* sweep.c - `hetsim sweep`: every (point, policy, replication) of a
 * scenario's sweep, run in worker processes (and, built with MPI=1, on
 * MPI ranks), gathered in run order into runs.csv, types.csv and
 * summary.csv (docs/output.md, "Outputs of hetsim sweep").
 *
 * Runs are numbered point, then policy, then replication.  Whoever runs
 * one (this process with -j 1, a forked worker, another rank) turns it
 * into its runs.csv row with rows_run(), its timing.csv row and its
 * types.csv rows, and hands the text back; only this process (rank 0)
 * writes files, in run order, so the bytes do not depend on -j or on
 * the number of ranks.
 *
 * This file: the plan (which runs), one run's rows (sw_run_one), the
 * gathering of rows in run order with each group's summary, the output
 * files and the table.  The bottom of the sweep's three files
 * (sweep.h): sweep_exec.c executes the runs, sweep_cmd.c is the
 * command; this one calls neither.
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
#include "sweep.h"
#include "util.h"

/* The metric columns: ROWS_RUN_HEADER from ROWS_FIRST_METRIC on, set by
 * sw_metrics_init(); first_metric is the first one's field in a row written
 * by rows_run(), which has nfields fields. */
static char metric_name[MAX_METRICS][32];
int sw_nmetrics;
static int first_metric, nfields;

static const char *const read_name[NF_READ] = {"counted", "failed", "timed_out",
					       "unplaceable", "makespan_s"};
static int read_field[NF_READ];
static int set_field; /* done_set's: the jobs done, as a set (met_run.done_set) */

void sw_metrics_init(void)
{
	const char *h = ROWS_RUN_HEADER;
	sw_nmetrics = first_metric = nfields = 0;
	bool past = false; /* past ROWS_LAST_METRIC */
	while (*h && *h != '\n') {
		size_t n = strcspn(h, ",\n");
		if (strncmp(h, ROWS_FIRST_METRIC, n) == 0 && n == strlen(ROWS_FIRST_METRIC))
			first_metric = nfields;
		if (first_metric && nfields >= first_metric && !past && sw_nmetrics < MAX_METRICS)
			snprintf(metric_name[sw_nmetrics++], sizeof metric_name[0], "%.*s", (int)n, h);
		past |= strncmp(h, ROWS_LAST_METRIC, n) == 0 && n == strlen(ROWS_LAST_METRIC);
		for (int k = 0; k < NF_READ; k++)
			if (strncmp(h, read_name[k], n) == 0 && n == strlen(read_name[k]))
				read_field[k] = nfields;
		if (strncmp(h, "done_set", n) == 0 && n == strlen("done_set"))
			set_field = nfields;
		nfields++;
		h += n + (h[n] == ',');
	}
}

/* ---- the plan: which runs -------------------------------------------- */



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

void sw_plan_free(struct plan *pl)
{
	free(pl->pols);
	free(pl->npol);
	free(pl->reps);
	free(pl->gfirst);
	free(pl->grun);
	free(pl->runs);
}

/* Group of (point p, policy `name`), or -1. */
int sw_group_of(const struct plan *pl, int p, const char *name)
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
		if (sw_group_of(pl, p, pl->baseline) >= 0)
			return 0;
	if (pl->say)
		fprintf(stderr, "hetsim sweep: option '--baseline': policy '%s' is not run (run: "
			"the scenario's policies, or those of --policy)\n", pl->baseline);
	return 2;
}

/* Fill *pl.  Returns 0, or 2 after a message (a bad option value). */
int sw_plan_build(struct plan *pl, struct scn_sweep *sw, const struct cmd_sweep_opts *o)
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


/* Run `i` of the plan.  Returns 0 with its lines in *text, each from
 * `replication` on: its runs.csv row, its timing.csv row (wall-clock
 * figures), then its types.csv rows, one per job model; or -1 with an
 * error message there.  *text is malloc'ed either way. */
int sw_run_one(const struct plan *pl, long i, char **text, size_t *len)
{
	const struct run *r = &pl->runs[i];
	struct scn *s = pl->sw->point[r->point];
	const struct scn_policy *pol = &pl->pols[r->point][r->pol];
	char buf[ROWS_RUN_MAX + ROWS_TIMING_MAX + ROWS_TYPES_MAX]; /* also room for a message */
	size_t n = 0;
	int rc = 0;
	double t0 = sw_now_s();
	scn_offer_order(s, (uint32_t)r->rep);
	struct sim *sim = sim_new(s, pol, (uint32_t)r->rep, buf, sizeof buf);
	if (!sim) {
		n = strlen(buf);
		rc = -1;
	} else if ((rc = sim_run(sim)) != 0) {
		char why[2048];
		snprintf(buf, sizeof buf, "%s: point %d, policy %s, replication %d: %s; no results "
			 "written", s->path, r->point, pol->name, r->rep,
			 sim_stop_why(sim, rc, why, sizeof why));
		n = strlen(buf);
		rc = -1;
	} else {
		double wall = sw_now_s() - t0;
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


double sw_now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

void sw_progress(struct gather *g, bool clear)
{
	if (!g->bar)
		return;
	if (clear) {
		fputs("\r\033[K", stderr);
		return;
	}
	double t = sw_now_s(), el = t - g->t0;
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
	for (int m = 0; m < sw_nmetrics; m++) {
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
	/* only the replications where both finished the same jobs: a
	 * makespan of other jobs is no change */
	plot_ci95(x, plot_paired_changes(g->mkrun + pl->grun[gid], g->mkrun + pl->grun[bg],
					      g->setrun + pl->grun[gid], g->setrun + pl->grun[bg],
					      reps, x, NULL), out);
	free(x);
}

/* Write run i's rows (its turn has come) and take its metrics. */
static void write_row(struct gather *g, long i, const char *row)
{
	const struct plan *pl = g->pl;
	const struct run *r = &pl->runs[i];
	/* sw_run_one's lines: runs.csv's, timing.csv's, then types.csv's */
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
		if (m >= 0 && m < sw_nmetrics && n > 0)
			g->vals[(size_t)m * pl->maxreps + g->nvals[m]++] = strtod(p, NULL);
		if (k == read_field[F_MAKESPAN] && n > 0)
			g->mkrun[i] = strtod(p, NULL);
		if (k == set_field)
			g->setrun[i] = strtoull(p, NULL, 16);
		for (int c = 0; c < F_MAKESPAN; c++)
			if (k == read_field[c])
				g->counts[gid][c] += strtod(p, NULL);
		p += n + (p[n] == ',');
	}
	if (r->rep == pl->reps[r->point] - 1)
		group_done(g, r);
}

/* Run i's row arrived (text is taken over). */
void sw_gather_row(struct gather *g, long i, char *text)
{
	g->pending[i] = text;
	g->arrived++;
	while (g->next < g->pl->nruns && g->pending[g->next]) {
		write_row(g, g->next, g->pending[g->next]);
		free(g->pending[g->next]);
		g->pending[g->next++] = NULL;
	}
	sw_progress(g, false);
}

void sw_gather_free(struct gather *g)
{
	for (long i = 0; g->pending && i < g->pl->nruns; i++)
		free(g->pending[i]);
	free(g->pending);
	for (int k = 0; g->sum && k < g->pl->ngroups; k++)
		free(g->sum[k]);
	free(g->sum);
	free(g->mk);
	free(g->mkrun);
	free(g->setrun);
	free(g->counts);
	free(g->vals);
}

/* ---- output files -------------------------------------------------- */

/* timing.csv holds wall-clock figures: unlike the others it differs
 * from run to run (and with -j: runs share the cores). */
const char *const sw_out_names[NOUT] = {"runs.csv", "summary.csv", "timing.csv",
					    "types.csv"};
static const char *const out_tails[NOUT] = {
	"," ROWS_RUN_HEADER,
	",replications,metric,mean,sd,ci95_half,ci95_lo,ci95_hi,baseline\n",
	"," ROWS_TIMING_HEADER,
	"," ROWS_TYPES_HEADER,
};

/* The files as NAME.tmp, with their headers. */
int sw_open_outputs(struct rows_files *out, const struct scn_sweep *sw)
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
int sw_policy_order(const struct plan *pl, const char **names)
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
void sw_write_summary(const struct gather *g, FILE *f)
{
	const struct plan *pl = g->pl;
	cmd_trace_warnings(pl->sw->point[0], stderr);
	const char **names = xcalloc((size_t)pl->ngroups, sizeof *names);
	int n = sw_policy_order(pl, names);
	for (int i = 0; i < n; i++)
		for (int p = 0; p < pl->sw->npoints; p++) {
			int gid = sw_group_of(pl, p, names[i]);
			if (gid < 0)
				continue;
			if (g->sum[gid])
				fputs(g->sum[gid], f);
			int bg = sw_group_of(pl, p, pl->baseline);
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

void sw_print_table(const struct gather *g, const char *dir)
{
	const struct plan *pl = g->pl;
	const struct scn_sweep *sw = pl->sw;
	const char **names = xcalloc((size_t)pl->ngroups, sizeof *names);
	int w[64], n = sw_policy_order(pl, names);
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
			int gid = sw_group_of(pl, p, names[i]), bg = sw_group_of(pl, p, pl->baseline);
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
			int gid = sw_group_of(pl, p, names[i]);
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
