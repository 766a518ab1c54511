/* compare.c - the figures of `hetsim compare` (plot/compare-cdf.gp,
 * plot/compare-size.gp, plot/compare-makespan.gp), drawn from the CSV
 * files the command wrote into its folder: per workload the JCT CDF and
 * the slowdown by job size, and the makespans of the leaderboard, one
 * panel per workload (workloads differ by orders of magnitude: one
 * axis for all would flatten all but the longest).
 *
 * May call: plot/gnuplot.c, plot/csv.c, plot/common.c, plot/palette.c
 * (colours).
 */
#include "plot.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* At most this many points of a policy's JCT CDF (a batch log has tens of
 * thousands of jobs: the figure would weigh megabytes, and look the
 * same). */
#define CDF_POINTS 2000

/* A panel's bars span more than this ratio (largest to smallest
 * makespan): its axis is logarithmic, so that no bar is flattened. */
#define LOG_SPAN 100.0

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* One policy's JCT CDF, rows "jct F" at each distinct JCT (F: the share
 * of its n done jobs with a JCT up to it), at most about CDF_POINTS,
 * after a row at 0; a JCT under xmin drawn at xmin.  A policy without a
 * done job: that row alone.  The JCTs drawn widen [*lo, *hi]. */
static void cdf_block(FILE *dat, double *v, int n, double xmin, double *lo, double *hi)
{
	qsort(v, (size_t)n, sizeof *v, dbl_cmp);
	double step = n > CDF_POINTS ? (double)n / CDF_POINTS : 0, last = -1;
	double first = n ? fmax(v[0], xmin) : xmin;
	fprintf(dat, "%.9g 0\n", first); /* from 0 at the first */
	*lo = fmin(*lo, first);
	*hi = fmax(*hi, n ? fmax(v[n - 1], xmin) : xmin);
	for (int j = 0; j < n; j++) {
		if (j + 1 < n && v[j + 1] == v[j])
			continue; /* the last of equal JCTs carries their share */
		if (j + 1 < n && last >= 0 && j - last < step)
			continue;
		fprintf(dat, "%.9g %.9g\n", fmax(v[j], xmin), (j + 1.0) / n);
		last = j;
	}
}

int plot_compare_cdf_data(const char *path, const char *wl, const struct plot_names *pol,
			  FILE *dat, struct plot_cdf *out, char *err, size_t errlen)
{
	int *cnt = out->done;
	*out = (struct plot_cdf){0, INFINITY, -INFINITY, {0}};
	static const char *const need[] = {"workload", "policy", "jct_s", NULL};
	int k[3], rc = 0;
	struct plot_csv *c = plot_csv_read(path, err, errlen);
	if (!c || plot_need_cols(c, need, k, err, errlen)) {
		plot_csv_free(c);
		return -1;
	}
	double **v = calloc((size_t)pol->n + 1, sizeof *v), xmin = INFINITY;
	if (!v)
		rc = -1;
	for (int p = 0; v && p < pol->n && !rc; p++) {
		cnt[p] = 0;
		if (!(v[p] = malloc(((size_t)c->nrows + 1) * sizeof **v)))
			rc = -1;
	}
	bool zero = false;
	for (int r = 0; !rc && r < c->nrows; r++) {
		int p = plot_names_find(pol, plot_csv_cell(c, r, k[1]));
		double x;
		if (p < 0 || strcmp(plot_csv_cell(c, r, k[0]), wl))
			continue;
		if (plot_cell_num(c, r, k[2], &x, err, errlen) < 0)
			rc = -1;
		else if (isfinite(x)) {
			v[p][cnt[p]++] = x;
			zero |= x <= 0;
			if (x > 0)
				xmin = fmin(xmin, x);
		}
	}
	xmin = isfinite(xmin) ? xmin : 1;
	out->zero_at = zero ? xmin : 0;
	for (int p = 0; !rc && p < pol->n; p++) {
		fprintf(dat, "%s# %s: jct F\n", p ? "\n\n" : "", pol->v[p]);
		cdf_block(dat, v[p], cnt[p], xmin, &out->xlo, &out->xhi);
	}
	for (int p = 0; v && p < pol->n; p++)
		free(v[p]);
	free(v);
	plot_csv_free(c);
	if (rc && !*err)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* The key of policy p of the JCT CDF into buf: its name, and where it
 * left jobs not done "(k of N done)" (jobs: done and counted over the
 * replications; NULL: unknown), "(no job done)" where k is 0 (cnt: the
 * done jobs of the JCT file). */
static void cdf_key(const char *name, int cnt, const struct plot_jobs *jobs, char *buf,
		    size_t len)
{
	int64_t done = jobs ? jobs->done : cnt;
	if (done == 0)
		snprintf(buf, len, "%s (no job done)", name);
	else if (jobs && jobs->done < jobs->counted)
		snprintf(buf, len, "%s (%" PRId64 " of %" PRId64 " done)", name, jobs->done,
			 jobs->counted);
	else
		snprintf(buf, len, "%s", name);
}

/* The JCT CDF of workload w into OUT/jct-cdf-W+1: its data in a
 * temporary file, removed after.  *done: the workload's done jobs (of
 * the JCT file), -1 when it could not be read. */
static int cdf_figure(const char *out, const char *path, int w, const char *workload,
		      const char *list, const struct plot_jobs *jobs, const char *colours,
		      int *done)
{
	char names[4096], tmp[] = "/tmp/hetsim-cdf-XXXXXX", err[1024] = "";
	struct plot_names pol = {{0}, 0};
	struct plot_cdf cdf;
	*done = -1;
	snprintf(names, sizeof names, "%s", list);
	for (char *save, *t = strtok_r(names, " ", &save); t; t = strtok_r(NULL, " ", &save))
		plot_names_add(&pol, t);
	int fd = mkstemp(tmp);
	FILE *dat = fd >= 0 ? fdopen(fd, "w") : NULL;
	int rc = !dat || plot_compare_cdf_data(path, workload, &pol, dat, &cdf, err, sizeof err);
	if (dat && fclose(dat) && !rc) {
		snprintf(err, sizeof err, "%s: %s", tmp, strerror(errno));
		rc = 1;
	}
	if (rc) {
		fprintf(stderr, "hetsim compare: figure %s/jct-cdf-%d not drawn: %s\n", out, w + 1,
			!dat ? "cannot write its data in /tmp" : err);
	} else {
		char vars[8192] = "", stem[4300], keys[4096] = "";
		*done = 0;
		for (int p = 0; p < pol.n; p++) { /* a word each, in double quotes */
			char key[256];
			*done += cdf.done[p];
			cdf_key(pol.v[p], cdf.done[p], jobs ? &jobs[p] : NULL, key, sizeof key);
			for (char *q = key; (q = strchr(q, '"'));)
				*q = '\''; /* word() reads a " as the item's end */
			snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s\"%s\"",
				 p ? " " : "", key);
		}
		snprintf(stem, sizeof stem, "%s/jct-cdf-%d", out, w + 1);
		plot_gp_str(vars, sizeof vars, "datafile", tmp);
		plot_gp_str(vars, sizeof vars, "workload", workload);
		plot_gp_str(vars, sizeof vars, "policies", list);
		plot_gp_str(vars, sizeof vars, "colours", colours);
		plot_gp_str(vars, sizeof vars, "keys", keys);
		snprintf(vars + strlen(vars), sizeof vars - strlen(vars),
			 "zero_at=%.9g; xlo=%.9g; xhi=%.9g; ", cdf.zero_at,
			 isfinite(cdf.xlo) ? cdf.xlo : 1, isfinite(cdf.xhi) ? cdf.xhi : 1);
		/* (no policy: nothing drawn, the range around 1) */
		rc = plot_gnuplot_both("compare", "compare-cdf.gp", vars, stem) ? 1 : 0;
	}
	if (fd >= 0)
		remove(tmp);
	return rc;
}

int plot_compare_workload(const char *out, const char *path, int w, const char *workload,
			  const char *list, const struct plot_jobs *jobs)
{
	int rc = 0;
	char stem[4300], colours[2048] = "", err[1024];
	/* without the scripts (PLOT_NONE), plot_gnuplot says the figures
	 * are skipped */
	if (plot_colour_words(list, colours, sizeof colours, err, sizeof err) == -1) {
		fprintf(stderr, "hetsim compare: the figures of %s not drawn: %s\n", workload, err);
		return 1;
	}
	int done;
	if (cdf_figure(out, path, w, workload, list, jobs, colours, &done))
		rc = 1;
	char v2[8192] = "", sz[4300];
	snprintf(sz, sizeof sz, "%s/sizes.csv", out);
	snprintf(stem, sizeof stem, "%s/slowdown-size-%d", out, w + 1);
	plot_gp_str(v2, sizeof v2, "csv", sz);
	plot_gp_str(v2, sizeof v2, "workload", workload);
	plot_gp_str(v2, sizeof v2, "policies", list);
	plot_gp_str(v2, sizeof v2, "colours", colours);
	/* no job done: sizes.csv has no row of the workload (the JCT file
	 * unread: try) */
	snprintf(v2 + strlen(v2), sizeof v2 - strlen(v2), "done=%d; ", done);
	if (plot_gnuplot_both("compare", "compare-size.gp", v2, stem))
		rc = 1;
	return rc;
}

/* One workload's panel: its policies in the leaderboard's order, the
 * span of its bars, whether its axis is logarithmic, and each policy's
 * mark of jobs not done. */
struct panel {
	struct plot_names pol;
	double lo, hi;  /* the smallest and largest mean makespans, s */
	double top;     /* the largest mean + half-interval, s */
	bool log;
	char mark[PLOT_MAX_NAMES][48]; /* pol.v[i]'s: "⚠ 2.5 not done", or "" */
	char marky[PLOT_MAX_NAMES][32]; /* where: its mean + half-interval, s */
	bool marked;    /* a policy of the panel has a mark */
};

/* A makespan or interval cell: NaN for "", "nan" or "-" (no value);
 * -1 and err when it is not a number. */
static int cell(const struct plot_csv *c, int r, int col, double *x, char *err, size_t errlen)
{
	const char *s = plot_csv_cell(c, r, col);
	*x = NAN;
	if (!strcmp(s, "-"))
		return 0;
	return plot_cell_num(c, r, col, x, err, errlen) < 0 ? -1 : 0;
}

/* The panels of leaderboard.csv, workloads in order of appearance; k[4]
 * its columns workload, policy, makespan_s, makespan_s_ci95.  A policy
 * whose not_done (jobs not done, mean per replication; a file without
 * the column: none) is above 0 has a mark. */
static int panels(const struct plot_csv *c, int *k, struct plot_names *wl, struct panel *pn,
		  struct plot_names *all, char *err, size_t errlen)
{
	static const char *const need[] = {"workload", "policy", "makespan_s", "makespan_s_ci95",
					   NULL};
	if (plot_need_cols(c, need, k, err, errlen))
		return -1;
	int knd = plot_csv_col(c, "not_done");
	for (int r = 0; r < c->nrows; r++) {
		int w = plot_names_add(wl, plot_csv_cell(c, r, k[0]));
		if (w < 0 || plot_names_add(all, plot_csv_cell(c, r, k[1])) < 0) {
			snprintf(err, errlen, "%s:%d: more than %d workloads or policies", c->path,
				 c->line[r], PLOT_MAX_NAMES);
			return -1;
		}
		int i = plot_names_add(&pn[w].pol, plot_csv_cell(c, r, k[1]));
		double m, h, nd = NAN;
		if (cell(c, r, k[2], &m, err, errlen) || cell(c, r, k[3], &h, err, errlen) ||
		    (knd >= 0 && cell(c, r, knd, &nd, err, errlen)))
			return -1;
		if (nd > 0 && isfinite(m)) { /* no makespan: its slot says so */
			char n[32];
			plot_count_text(n, sizeof n, nd);
			snprintf(pn[w].mark[i], sizeof pn[w].mark[i], PLOT_WARN " %s not done", n);
			snprintf(pn[w].marky[i], sizeof pn[w].marky[i], "%.9g",
				 m + (isfinite(h) ? h : 0));
			pn[w].marked = true;
		}
		if (isfinite(m) && m > 0) {
			pn[w].lo = fmin(pn[w].lo, m);
			pn[w].top = fmax(pn[w].top, m + (isfinite(h) ? h : 0));
			pn[w].hi = fmax(pn[w].hi, m);
		}
	}
	for (int w = 0; w < wl->n; w++)
		pn[w].log = pn[w].hi > 0 && pn[w].hi / pn[w].lo > LOG_SPAN;
	return 0;
}

int plot_compare_makespan(const char *out)
{
	char lb[4300], stem[4300], err[1024];
	snprintf(stem, sizeof stem, "%s/makespan", out);
	snprintf(lb, sizeof lb, "%s/leaderboard.csv", out);
	struct plot_csv *c = plot_csv_read(lb, err, sizeof err);
	struct panel *pn = calloc(PLOT_MAX_NAMES, sizeof *pn);
	struct plot_names wl = {{0}, 0}, all = {{0}, 0};
	struct plot_vars *v = calloc(1, sizeof *v);
	const char *col[PLOT_MAX_NAMES];
	for (int w = 0; pn && w < PLOT_MAX_NAMES; w++)
		pn[w].lo = INFINITY;
	for (int i = 0; i < PLOT_MAX_NAMES; i++)
		col[i] = "#000000";
	int k[4];
	/* without the scripts (PLOT_NONE), plot_gnuplot says it skips */
	int rc = !c || !v || !pn || panels(c, k, &wl, pn, &all, err, sizeof err) ||
		 plot_colours_for(&all, col, err, sizeof err) == -1;
	if (!rc) {
		bool marked = false;
		plot_var_words(v, "workloads", wl.v, wl.n);
		plot_var_words(v, "policies", all.v, all.n);
		plot_var_words(v, "colours", col, all.n);
		for (int w = 0; w < wl.n; w++) {
			char name[32];
			snprintf(name, sizeof name, "pw%d", w + 1);
			plot_var_words(v, name, pn[w].pol.v, pn[w].pol.n);
			const char *mk[PLOT_MAX_NAMES], *my[PLOT_MAX_NAMES];
			for (int i = 0; i < pn[w].pol.n; i++)
				mk[i] = pn[w].mark[i], my[i] = pn[w].marky[i];
			snprintf(name, sizeof name, "mk%d", w + 1);
			plot_var_words(v, name, mk, pn[w].pol.n);
			snprintf(name, sizeof name, "mky%d", w + 1);
			plot_var_words(v, name, my, pn[w].pol.n);
			marked |= pn[w].marked;
			snprintf(name, sizeof name, "log%d", w + 1);
			plot_var_num(v, name, pn[w].log);
			/* the axis: from 0, or around the bars on a log axis */
			snprintf(name, sizeof name, "ylo%d", w + 1);
			plot_var_num(v, name, pn[w].log ? pn[w].lo / 2 : 0);
			snprintf(name, sizeof name, "yhi%d", w + 1);
			/* room above the whiskers for a mark */
			plot_var_num(v, name, pn[w].top > 0 ? pn[w].top * (pn[w].log ? 2 :
								  pn[w].marked ? 1.25 : 1.12) : 1);
		}
		if (marked)
			plot_var_str(v, "footnote", PLOT_WARN " jobs not done (failed, timed out or "
				     "unplaceable), mean per replication: its makespan is not of every job");
		plot_var_str(v, "csv", lb);
		static const char *const kn[4] = {"cw", "cp", "cm", "cc"};
		for (int i = 0; i < 4; i++)
			plot_var_num(v, kn[i], k[i] + 1);
		if (v->overflow) {
			snprintf(err, sizeof err, "%.900s: too many workloads and policies for one "
				 "figure", lb);
			rc = 1;
		}
	}
	if (rc)
		fprintf(stderr, "hetsim compare: figure %s not drawn: %s\n", stem,
			!v || !pn ? "out of memory" : err);
	else
		rc = plot_gnuplot_both("compare", "compare-makespan.gp", v->s, stem) ? 1 : 0;
	plot_csv_free(c);
	free(pn);
	free(v);
	return rc;
}
