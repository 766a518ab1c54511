/* policies.c - figure (a), policies (plot/policies.gp): one metric
 * of every policy at a point, with its 95 % interval and its change.
 *
 * May call: plot/common.c, plot/csv.c, plot/palette.c.
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- (a) policies --------------------------------------------------- */

/* The per-bar change labels: chg[p] for each policy with a value but
 * the baseline; returns whether they are paired. */
static bool bar_changes(const char *metric, const struct plot_ci *ci, const struct plot_ci *pc,
			const struct plot_names *pol, int ib, char (*chg)[64])
{
	bool paired = false, is_change = !strcmp(metric, "makespan_change_pct");
	for (int p = 0; p < pol->n; p++)
		paired |= !strcmp(metric, "makespan_s") && !isnan(pc[p].mean);
	for (int p = 0; p < pol->n; p++) {
		chg[p][0] = '\0';
		if (p == ib || ib < 0 || isnan(ci[p].mean) || isnan(ci[ib].mean) || is_change)
			continue;
		if (paired && !isnan(pc[p].mean))
			plot_pct_text(chg[p], sizeof chg[p], pc[p].mean, pc[p].lo, pc[p].hi);
		else if (!paired && ci[ib].mean > 0)
			plot_pct_text(chg[p], sizeof chg[p], 100 * (ci[p].mean / ci[ib].mean - 1), NAN, NAN);
	}
	return paired;
}

int plot_prep_policies(const struct plot_csv *sum, const struct plot_opts *o, FILE *dat,
		       struct plot_vars *v, char *err, size_t errlen)
{
	const char *metric = o->metric ? o->metric : "makespan_s", *why;
	struct plot_sum_cols k;
	struct plot_names pol;
	struct plot_ci ci[PLOT_MAX_NAMES], pc[PLOT_MAX_NAMES];
	struct plot_counts cnt[PLOT_MAX_NAMES];
	bool present[PLOT_MAX_NAMES], none[PLOT_MAX_NAMES];
	int ic, ib;
	if (plot_sum_cols(sum, &k, &pol, err, errlen) ||
	    plot_select_metric(sum, &k, metric, o->point, &pol, ci, err, errlen) ||
	    plot_point_counts(sum, &k, o->point, &pol, cnt, err, errlen) ||
	    plot_pick_baseline(sum, &k, &pol, o, &ib, &why, err, errlen) ||
	    plot_pick_compare(sum, &pol, o, ib, false, &ic, err, errlen) ||
	    plot_change_rows(sum, &k, o->point, &pol, ib, pc, err, errlen))
		return -1;
	int ref = plot_point_present(sum, &k, o->point, &pol, present), nval = 0, nnone = 0;
	for (int p = 0; p < pol.n; p++) {
		if ((none[p] = plot_finished_none(metric, &cnt[p], ci[p].mean)))
			ci[p].mean = ci[p].lo = ci[p].hi = NAN;
		if (plot_finished_none("makespan_change_pct", &cnt[p], pc[p].mean))
			pc[p].mean = NAN;
		nval += !isnan(ci[p].mean);
		nnone += none[p];
	}
	if (nval == 0 && nnone == 0) {
		snprintf(err, errlen, "%s: no value of metric '%s' at point %d", sum->path, metric,
			 o->point);
		return -1;
	}
	char chg[PLOT_MAX_NAMES][64], mark[PLOT_MAX_NAMES][128];
	bool paired = bar_changes(metric, ci, pc, &pol, ib, chg), any_chg = false, any_mark = false;
	const char *col[PLOT_MAX_NAMES];
	if (plot_colours_for(&pol, col, err, errlen))
		return -1;
	fprintf(dat, "# i policy mean ci95_lo ci95_hi top colour label labely change mark "
		"(%s at point %d)\n", metric, o->point);
	int n = 0;
	double ymax = 0;
	for (int p = 0; p < pol.n; p++) {
		if (!present[p])
			continue;
		double top = isnan(ci[p].hi) ? ci[p].mean : fmax(ci[p].hi, ci[p].mean);
		char label[64];
		snprintf(label, sizeof label, "%.4g", ci[p].mean);
		plot_mark_text(&cnt[p], false, mark[p], sizeof mark[p]);
		fprintf(dat, "%d", n++);
		plot_put_str(dat, pol.v[p]);
		plot_put_num(dat, " ", ci[p].mean);
		plot_put_num(dat, " ", ci[p].lo);
		plot_put_num(dat, " ", ci[p].hi);
		plot_put_num(dat, " ", top);
		fprintf(dat, " %ld", strtol(col[p] + 1, NULL, 16));
		if (isnan(top)) /* the baseline has no change against itself */
			snprintf(label, sizeof label, "%s", p == ib && !strcmp(metric, "makespan_change_pct")
				 ? "baseline" : plot_none_label(metric));
		plot_put_str(dat, label);
		plot_put_num(dat, " ", isnan(top) ? 0 : top);
		plot_put_str(dat, chg[p]);
		plot_put_str(dat, mark[p]);
		fputc('\n', dat);
		ymax = isnan(top) ? ymax : fmax(ymax, top);
		any_chg |= *chg[p] != '\0';
		any_mark |= *mark[p] != '\0';
	}
	char what[256], label[256], name[256], pre[1024], extra[512] = "";
	if (ib >= 0 && isnan(ci[ib].mean) && nval > 0)
		snprintf(extra, sizeof extra, "no change shown: the baseline %s (%s) has no value",
			 pol.v[ib], why);
	else if (any_chg)
		snprintf(extra, sizeof extra, "change against %s (%s): %s", pol.v[ib], why,
			 paired ? "mean of paired changes" : "ratio of means");
	snprintf(what, sizeof what, "%s per policy", plot_metric_name(metric, name, sizeof name));
	plot_title_prefix(sum, k.scenario, ref, o->point, -1, pre, sizeof pre);
	plot_sum_titles(v, sum, &k, metric, pre, what, extra);
	plot_metric_label(metric, label, sizeof label);
	plot_var_str(v, "ylabel", label);
	plot_var_num(v, "n", n);
	plot_var_num(v, "ymax", ymax > 0 ? ymax * (1.15 + 0.1 * (1 + any_chg + any_mark)) : 1);
	if (any_mark)
		plot_var_str(v, "footnote", plot_footnote_bars);
	if (ic >= 0 && ib >= 0 && ic != ib && !isnan(ci[ic].mean) && !isnan(ci[ib].mean) &&
	    (paired ? !isnan(pc[ic].mean) : ci[ib].mean > 0)) {
		/* over how many of the replications the paired change is */
		int kp = paired && k.reps >= 0 ? atoi(plot_csv_cell(sum, pc[ic].row, k.reps)) : 0;
		plot_change_note(v, pol.v[ic], paired ? &pc[ic] : NULL, ci[ic].mean, ci[ib].mean,
				 pol.v[ib], kp, plot_point_reps(sum, &k, o->point, pol.v[ic]));
		plot_var_str(v, "notecolour", col[ic]);
	}
	return 0;
}
