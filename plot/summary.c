/* summary.c - a summary (summary.csv's long format) computed from
 * runs.csv, for a results folder without summary.csv (a plain `hetsim
 * run`): plot_summarise_runs.
 *
 * May call: plot/csv.c, plot/common.c, plot/stats.c, sim/util.h.
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- runs.csv summarised -------------------------------------------- */

/* One metric of one group of runs: "mean,sd,ci95_half,ci95_lo,ci95_hi"
 * (empty fields when undefined). */
static void put_stats(FILE *m, const double *x, int n)
{
	struct plot_ci95 ci;
	if (n == 0) {
		fputs(",,,,", m);
		return;
	}
	plot_ci95(x, n, &ci); /* the statistics of hetsim sweep's summary.csv */
	fprintf(m, "%.9g,", ci.mean);
	if (n < 2) {
		fputs(",,,", m);
		return;
	}
	fprintf(m, "%.9g,%.9g,%.9g,%.9g", ci.sd, ci.half, ci.mean - ci.half, ci.mean + ci.half);
}

/* The makespan of row r, NaN if empty or if the replication finished no
 * job; -1 and err on a malformed number. */
static int row_makespan(const struct plot_csv *runs, int r, int kmk, int kdone, double *x,
			char *err, size_t errlen)
{
	double d = NAN;
	*x = NAN;
	if (kmk < 0 || !*plot_csv_cell(runs, r, kmk))
		return 0;
	if (plot_cell_num(runs, r, kmk, x, err, errlen) < 0 ||
	    (kdone >= 0 && plot_cell_num(runs, r, kdone, &d, err, errlen) < 0))
		return -1;
	if (d == 0)
		*x = NAN;
	return 0;
}

/* The makespans of policy pol at point pt by replication number into
 * out[0 .. nr) (NaN where it has none), and the jobs each finished
 * (done_set; 0 in a file without the column) into set, marking its rows
 * in seen (if not NULL).  -1 and err on a malformed number. */
static int makespans_by_rep(const struct plot_csv *runs, const char *pol, const char *pt,
			    double *out, uint64_t *set, size_t nr, bool *seen, char *err,
			    size_t errlen)
{
	int kp = plot_csv_col(runs, "policy"), kpt = plot_csv_col(runs, "point"),
	    krep = plot_csv_col(runs, "replication"), kmk = plot_csv_col(runs, "makespan_s"),
	    kdone = plot_csv_col(runs, "done"), kset = plot_csv_col(runs, "done_set");
	for (size_t i = 0; i < nr; i++) {
		out[i] = NAN;
		set[i] = 0;
	}
	for (int r = 0; r < runs->nrows; r++) {
		double rep, y;
		if (strcmp(plot_csv_cell(runs, r, kp), pol) || strcmp(plot_csv_cell(runs, r, kpt), pt))
			continue;
		if (seen)
			seen[r] = true;
		if (plot_cell_num(runs, r, krep, &rep, err, errlen) < 0 ||
		    row_makespan(runs, r, kmk, kdone, &y, err, errlen) < 0)
			return -1;
		if (rep >= 0 && rep < (double)nr) {
			out[(size_t)rep] = y;
			set[(size_t)rep] = kset >= 0 ? strtoull(plot_csv_cell(runs, r, kset), NULL, 16)
						     : 0;
		}
	}
	return 0;
}

/* makespan_change_pct rows, as hetsim sweep writes them: for each
 * policy but the baseline, at each point, the paired changes
 * (plot_paired_changes) against the baseline's replication of the same
 * number at the same point, where both finished the same jobs (the same
 * done_set: a makespan of other jobs is no change). */
static int summarise_changes(FILE *m, const struct plot_csv *runs, const char *base, char *err,
			     size_t errlen)
{
	int kp = plot_csv_col(runs, "policy"), kpt = plot_csv_col(runs, "point"),
	    ksc = plot_csv_col(runs, "scenario"), krep = plot_csv_col(runs, "replication");
	if (plot_csv_col(runs, "makespan_s") < 0 || krep < 0)
		return 0;
	double maxrep = 0; /* replication numbers go up to it */
	for (int r = 0; r < runs->nrows; r++) {
		double rep;
		if (plot_cell_num(runs, r, krep, &rep, err, errlen) < 0)
			return -1;
		if (rep > maxrep && rep < 1e7) /* the loader's limit is 10^6 */
			maxrep = rep;
	}
	size_t nr = (size_t)maxrep + 1;
	double *x = xmalloc(nr * sizeof *x), *av = xmalloc(nr * sizeof *av),
	       *bv = xmalloc(nr * sizeof *bv);
	uint64_t *as = xmalloc(nr * sizeof *as), *bs = xmalloc(nr * sizeof *bs);
	bool *seen = xcalloc((size_t)runs->nrows + 1, sizeof *seen);
	int rc = 0;
	for (int g = 0; g < runs->nrows && !rc; g++) {
		const char *pol = plot_csv_cell(runs, g, kp), *pt = plot_csv_cell(runs, g, kpt);
		if (seen[g] || !strcmp(pol, base))
			continue;
		rc = makespans_by_rep(runs, base, pt, bv, bs, nr, NULL, err, errlen) ||
		     makespans_by_rep(runs, pol, pt, av, as, nr, seen, err, errlen);
		int n = rc ? 0 : plot_paired_changes(av, bv, as, bs, (int)nr, x, NULL);
		if (!n)
			continue;
		fprintf(m, "%s,%s,%s,%d,makespan_change_pct,", plot_csv_cell(runs, g, ksc), pol,
			*pt ? pt : "0", n);
		put_stats(m, x, n);
		fprintf(m, ",%s\n", base);
	}
	free(x);
	free(av);
	free(bv);
	free(as);
	free(bs);
	free(seen);
	return rc ? -1 : 0;
}

/* A replication that finished no job (done 0) has no makespan or JCT,
 * whatever its row holds (older files wrote 0.000000). */
struct plot_csv *plot_summarise_runs(const struct plot_csv *runs, const char *baseline,
				     char *err, size_t errlen)
{
	static const char *const need[] = {"policy", NULL};
	static const char *const not_metrics[] = {"scenario", "policy", "replication", "seed",
						  "point", "done_set"};
	int kp, kpt = plot_csv_col(runs, "point"), ksc = plot_csv_col(runs, "scenario"),
	    kdone = plot_csv_col(runs, "done");
	if (plot_need_cols(runs, need, &kp, err, errlen))
		return NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m) {
		snprintf(err, errlen, "%s: cannot summarise: %s", runs->path, strerror(errno));
		return NULL;
	}
	fputs("scenario,policy,point,replications,metric,mean,sd,ci95_half,ci95_lo,ci95_hi,"
	      "baseline\n", m);
	double *x = xmalloc(((size_t)runs->nrows + 1) * sizeof *x);
	bool *done = xcalloc((size_t)runs->nrows + 1, sizeof *done);
	int rc = 0;
	for (int g = 0; g < runs->nrows && !rc; g++) { /* g: a group's first row */
		if (done[g])
			continue;
		const char *pol = plot_csv_cell(runs, g, kp), *pt = plot_csv_cell(runs, g, kpt);
		int reps = 0;
		for (int r = g; r < runs->nrows; r++)
			if (!strcmp(plot_csv_cell(runs, r, kp), pol) &&
			    !strcmp(plot_csv_cell(runs, r, kpt), pt))
				done[r] = true, reps++;
		for (int c = 0; c < runs->ncols && !rc; c++) {
			bool skip = false;
			for (int i = 0; i < ARRAY_LEN(not_metrics); i++)
				skip |= !strcmp(runs->hdr[c], not_metrics[i]);
			if (skip)
				continue;
			int n = 0;
			for (int r = g; r < runs->nrows && !rc; r++) {
				if (strcmp(plot_csv_cell(runs, r, kp), pol) ||
				    strcmp(plot_csv_cell(runs, r, kpt), pt))
					continue;
				double d = NAN;
				int e = plot_cell_num(runs, r, c, &x[n], err, errlen);
				if (e == 0 && plot_needs_done(runs->hdr[c]) && kdone >= 0)
					e = plot_cell_num(runs, r, kdone, &d, err, errlen) < 0 ? -1 : d == 0;
				rc = e < 0;
				n += e == 0;
			}
			fprintf(m, "%s,%s,%s,%d,%s,", plot_csv_cell(runs, g, ksc), pol, *pt ? pt : "0",
				reps, runs->hdr[c]);
			put_stats(m, x, n);
			fputs(",\n", m);
		}
	}
	if (!rc && runs->nrows)
		rc = summarise_changes(m, runs, baseline ? baseline : plot_csv_cell(runs, 0, kp), err,
				       errlen);
	free(x);
	free(done);
	fclose(m);
	if (rc) {
		free(text);
		return NULL;
	}
	return plot_csv_parse(runs->path, text, err, errlen);
}
