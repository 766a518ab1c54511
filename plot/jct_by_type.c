/* jct_by_type.c - figure (a), jct-by-type (plot/jct-by-type.gp):
 * the mean JCT of each job model per policy, from types.csv.
 *
 * May call: plot/common.c, plot/csv.c, plot/stats.c, plot/palette.c.
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- (a) jct-by-type ------------------------------------------------ */

/* The columns of types.csv the figure reads: policy, model and
 * jct_mean_s, required; the point (absent in a hetsim run's: point 0),
 * the scenario and the counts, -1 where absent. */
struct type_cols {
	int policy, model, jct;
	int point, scenario;
	int n[PLOT_N_KINDS];          /* by plot_count_metrics */
};

/* Column `name` after column `from` (-1: anywhere), or -1.  A sweep
 * axis may be labelled as a column of the run's (`model`, `jobs`): the
 * run's own come after `replication`. */
static int col_after(const struct plot_csv *c, const char *name, int from)
{
	for (int i = from + 1; i < c->ncols; i++)
		if (!strcmp(c->hdr[i], name))
			return i;
	return -1;
}

static int type_cols(const struct plot_csv *c, struct type_cols *k, char *err, size_t errlen)
{
	static const char *const need[] = {"policy", "model", "jct_mean_s"};
	int rep = plot_csv_col(c, "replication"), idx[3];
	for (int i = 0; i < 3; i++)
		if ((idx[i] = i ? col_after(c, need[i], rep) : plot_csv_col(c, need[i])) < 0) {
			snprintf(err, errlen, "%s: no column '%s' in the header", c->path, need[i]);
			return -1;
		}
	*k = (struct type_cols){idx[0], idx[1], idx[2], plot_csv_col(c, "point"),
				plot_csv_col(c, "scenario"), {0}};
	for (int i = 0; i < PLOT_N_KINDS; i++)
		k->n[i] = col_after(c, plot_count_metrics[i], rep);
	return 0;
}

/* One (policy, model) at the point: the mean and interval of its
 * replications' jct_mean_s (a replication with done 0 has none, whatever
 * its row holds), and its jobs by status summed over them (NaN without
 * the column). */
struct type_slot {
	int reps;                /* its rows */
	struct plot_ci ci;            /* NaN without a value */
	double n[PLOT_N_KINDS];
};

static int type_slot(const struct plot_csv *c, const struct type_cols *k, int point,
		     const char *pol, const char *model, double *x, struct type_slot *out,
		     char *err, size_t errlen)
{
	int nx = 0;
	*out = (struct type_slot){0, {NAN, NAN, NAN, 0, -1}, {0}};
	for (int i = 0; i < PLOT_N_KINDS; i++)
		out->n[i] = k->n[i] < 0 ? NAN : 0;
	for (int r = 0; r < c->nrows; r++) {
		if (!plot_cell_is_int(c, r, k->point, point) || strcmp(plot_csv_cell(c, r, k->policy), pol) ||
		    strcmp(plot_csv_cell(c, r, k->model), model))
			continue;
		double v, n[PLOT_N_KINDS];
		int e = plot_cell_num(c, r, k->jct, &v, err, errlen);
		for (int i = 0; i < PLOT_N_KINDS && e >= 0; i++)
			if (k->n[i] >= 0 && plot_cell_num(c, r, k->n[i], &n[i], err, errlen) < 0)
				e = -1;
		if (e < 0)
			return -1;
		for (int i = 0; i < PLOT_N_KINDS; i++)
			out->n[i] += k->n[i] >= 0 && !isnan(n[i]) ? n[i] : 0;
		if (e == 0 && !(k->n[PLOT_N_DONE] >= 0 && n[PLOT_N_DONE] == 0))
			x[nx++] = v;
		out->reps++;
	}
	struct plot_ci95 ci;
	plot_ci95(x, nx, &ci);
	out->ci = (struct plot_ci){ci.mean, nx > 1 ? ci.mean - ci.half : NAN,
			      nx > 1 ? ci.mean + ci.half : NAN, 0, -1};
	return 0;
}

/* The policies of types.csv (all rows, in order of first appearance),
 * those with a row at `point` (present), and the models at `point`, in
 * the fixed order; the row of the first, -1 if none. */
static int type_names(const struct plot_csv *c, const struct type_cols *k, int point,
		      struct plot_names *pol, bool *present, struct plot_names *models, char *err,
		      size_t errlen)
{
	int ref = -1;
	pol->n = models->n = 0;
	for (int p = 0; p < PLOT_MAX_NAMES; p++)
		present[p] = false;
	for (int r = 0; r < c->nrows; r++) {
		int p = plot_names_add(pol, plot_csv_cell(c, r, k->policy));
		bool here = plot_cell_is_int(c, r, k->point, point);
		if (p < 0 || (here && plot_names_add(models, plot_csv_cell(c, r, k->model)) < 0)) {
			snprintf(err, errlen, "%s:%d: more than %d %s", c->path, c->line[r], PLOT_MAX_NAMES,
				 p < 0 ? "policies" : "job models");
			return -2;
		}
		if (here) {
			present[p] = true;
			ref = ref < 0 ? r : ref;
		}
	}
	plot_order_types(models);
	return ref;
}

int plot_prep_jct_by_type(const struct plot_csv *types, const struct plot_opts *o, FILE *dat,
			  struct plot_vars *v, char *err, size_t errlen)
{
	struct type_cols k;
	struct plot_names pol, models = {{0}, 0};
	bool present[PLOT_MAX_NAMES];
	if (type_cols(types, &k, err, errlen))
		return -1;
	int ref = type_names(types, &k, o->point, &pol, present, &models, err, errlen);
	if (ref == -2)
		return -1;
	if (ref < 0) {
		snprintf(err, errlen, "%s: no row at point %d", types->path, o->point);
		return -1;
	}
	/* slot[t][p]: model t, policy p; cnt[p]: the policy's jobs over all
	 * models, mean per replication, for its mark */
	static struct type_slot slot[PLOT_MAX_NAMES][PLOT_MAX_NAMES];
	struct plot_counts cnt[PLOT_MAX_NAMES];
	double *x = xmalloc(((size_t)plot_csv_rows(types) + 1) * sizeof *x);
	int reps = 0;
	for (int p = 0; p < pol.n; p++) {
		int rp = 0;
		double sum[PLOT_N_KINDS] = {0};
		for (int t = 0; t < models.n && present[p]; t++) {
			if (type_slot(types, &k, o->point, pol.v[p], models.v[t], x, &slot[t][p], err,
				      errlen)) {
				free(x);
				return -1;
			}
			rp = slot[t][p].reps > rp ? slot[t][p].reps : rp;
			for (int i = 0; i < PLOT_N_KINDS; i++)
				sum[i] += slot[t][p].n[i];
		}
		for (int i = 0; i < PLOT_N_KINDS; i++)
			cnt[p].n[i] = rp ? sum[i] / rp : NAN;
		reps = reps ? reps : rp;
	}
	free(x);
	const char *col[PLOT_MAX_NAMES], *shown_col[PLOT_MAX_NAMES], *keys[PLOT_MAX_NAMES];
	char kbuf[PLOT_MAX_NAMES][256];
	struct plot_names shown_p = {{0}, 0};
	bool any_mark = false;
	if (plot_colours_for(&pol, col, err, errlen))
		return -1;
	for (int p = 0; p < pol.n; p++)
		if (present[p]) {
			char mark[128];
			plot_mark_text(&cnt[p], false, mark, sizeof mark);
			snprintf(kbuf[shown_p.n], sizeof kbuf[0], "%s%s%s", pol.v[p], *mark ? "  " : "",
				 mark);
			any_mark |= *mark != '\0';
			keys[shown_p.n] = kbuf[shown_p.n];
			shown_col[shown_p.n] = col[p];
			plot_names_add(&shown_p, pol.v[p]);
		}
	double w = 0.8 / shown_p.n, ymax = 0;
	for (int i = 0; i < shown_p.n; i++) {
		int p = plot_names_find(&pol, shown_p.v[i]), rows = 0;
		fprintf(dat, "%s# %s: x mean ci95_lo ci95_hi\n", i ? "\n\n" : "", pol.v[p]);
		for (int t = 0; t < models.n; t++) {
			const struct plot_ci *c = &slot[t][p].ci;
			if (isnan(c->mean))
				continue;
			plot_put_num(dat, "", t + (i - (shown_p.n - 1) / 2.0) * w);
			plot_put_num(dat, " ", c->mean);
			plot_put_num(dat, " ", c->lo);
			plot_put_num(dat, " ", c->hi);
			fputc('\n', dat);
			ymax = fmax(ymax, isnan(c->hi) ? c->mean : c->hi);
			rows++;
		}
		if (!rows) /* every block has a row: gnuplot stops on a missing one */
			fputs("NaN NaN NaN NaN\n", dat);
	}
	int nempty = 0;
	fprintf(dat, "\n\n# slots without a value: x label colour\n");
	for (int i = 0; i < shown_p.n; i++)
		for (int t = 0, p = plot_names_find(&pol, shown_p.v[i]); t < models.n; t++)
			if (isnan(slot[t][p].ci.mean)) {
				plot_put_num(dat, "", t + (i - (shown_p.n - 1) / 2.0) * w);
				plot_put_str(dat, "no job done");
				fprintf(dat, " %ld\n", strtol(col[p] + 1, NULL, 16));
				nempty++;
			}
	if (!nempty) /* a row gnuplot can place: a labels block without one crashes it (5.4) */
		fputs("0 \"\" 0\n", dat);
	char title[1200], pre[1024];
	plot_title_prefix(types, k.scenario, ref, o->point, -1, pre, sizeof pre);
	snprintf(title, sizeof title, "%smean job completion time by job type", pre);
	plot_var_str(v, "figtitle", title);
	plot_reps_subtitle(v, reps);
	plot_var_str(v, "ylabel", "mean job completion time, s");
	plot_var_words(v, "policies", shown_p.v, shown_p.n);
	plot_var_words(v, "keys", keys, shown_p.n);
	plot_var_words(v, "colours", shown_col, shown_p.n);
	plot_var_words(v, "types", models.v, models.n);
	plot_var_num(v, "boxw", w * 0.9);
	plot_var_num(v, "ymax", ymax > 0 ? ymax * 1.15 : 1);
	if (any_mark)
		plot_var_str(v, "footnote", plot_footnote_bars);
	return 0;
}
