/* sweep.c - figure (b), sweep (plot/sweep.gp): a metric against a
 * sweep axis, one line and 95 % band per policy.
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

/* ---- (b) sweep ------------------------------------------------------ */

/* One (policy, point) of the sweep's slice. */
struct sweep_pt {
	int pol, point;
	const char *xs;  /* the axis value as written */
	double x;
	struct plot_ci v;     /* the metric; NaN when none */
	struct plot_ci chg;   /* makespan_change_pct against the baseline */
	struct plot_counts n;
	int line;        /* the slot's first row */
	bool none;       /* finished no job: labelled, not drawn */
};

static int sweep_cmp(const void *a, const void *b)
{
	const struct sweep_pt *p = a, *q = b;
	if (p->pol != q->pol)
		return p->pol - q->pol;
	return (p->x > q->x) - (p->x < q->x);
}

/* A row of the slice: its policy, point and index. */
struct ent {
	int pol, point, row;
};

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *p = a, *q = b;
	if (p->pol != q->pol)
		return p->pol - q->pol;
	if (p->point != q->point)
		return p->point - q->point;
	return p->row - q->row;
}

/* Sweep axes: the columns between `point` and `replications`. */
static int sweep_axis(const struct plot_csv *c, const struct plot_opts *o, int *first, int *last,
		      int *axis, char *err, size_t errlen)
{
	plot_axis_cols(c, first, last);
	if (*first > *last) {
		snprintf(err, errlen, "%s: no sweep axis (no column between 'point' and "
			 "'replications'; hetsim sweep writes them)", c->path);
		return PLOT_NONE;
	}
	*axis = o->axis ? plot_csv_col(c, o->axis) : *first;
	if (*axis < *first || *axis > *last) {
		char all[1024] = "";
		for (int i = *first; i <= *last; i++)
			snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s",
				 i > *first ? ", " : "", c->hdr[i]);
		snprintf(err, errlen, "%s: no sweep axis '%s' (--axis; axes: %s)", c->path, o->axis,
			 all);
		return -1;
	}
	return 0;
}

/* The first row of sweep point `point`, or -1 and a message. */
int point_row(const struct plot_csv *c, const struct plot_sum_cols *k, int point, char *err,
		     size_t errlen)
{
	for (int r = 0; r < c->nrows; r++)
		if (plot_cell_is_int(c, r, k->point, point))
			return r;
	snprintf(err, errlen, "%s: no sweep point %d (--point)", c->path, point);
	return -1;
}

/* The rows of the slice (the other axes held at their values in row
 * `ref`) that a sweep figure reads: the metric, the counts and the
 * paired changes.  *n into *out (owned), sorted by (policy, point). */
int slice_rows(const struct plot_csv *c, const struct plot_sum_cols *k, const struct plot_names *pol,
		      const char *metric, int first, int last, int axis, int ref, struct ent **out,
		      int *n, char *err, size_t errlen)
{
	int cap = 0;
	*out = NULL;
	*n = 0;
	for (int r = 0; r < c->nrows; r++) {
		const char *m = plot_csv_cell(c, r, k->metric);
		bool keep = !strcmp(m, metric) || plot_count_kind(m) >= 0 ||
			    !strcmp(m, "makespan_change_pct");
		for (int a = first; keep && a <= last; a++)
			keep = a == axis || !strcmp(plot_csv_cell(c, r, a), plot_csv_cell(c, ref, a));
		if (!keep)
			continue;
		double pt;
		if (plot_cell_num(c, r, k->point, &pt, err, errlen) < 0)
			return -1;
		xgrow(out, &cap, *n + 1, sizeof **out);
		(*out)[(*n)++] = (struct ent){plot_names_find(pol, plot_csv_cell(c, r, k->policy)),
					      isnan(pt) ? 0 : (int)pt, r};
	}
	qsort(*out, (size_t)*n, sizeof **out, ent_cmp);
	return 0;
}

/* Read one row into its slot s. */
int slot_row(const struct plot_csv *c, const struct plot_sum_cols *k, const struct plot_names *pol,
		    const char *metric, int ib, int r, struct sweep_pt *s, char *err, size_t errlen)
{
	const char *m = plot_csv_cell(c, r, k->metric);
	int kind = plot_count_kind(m);
	if (!strcmp(m, metric)) {
		if (s->v.line) {
			snprintf(err, errlen, "%s:%d: a second row for policy '%s', metric '%s', point %d"
				 " (first on line %d)", c->path, c->line[r], pol->v[s->pol], metric,
				 s->point, s->v.line);
			return -1;
		}
		s->v.line = c->line[r];
		s->v.row = r;
		if (plot_cell_num(c, r, k->mean, &s->v.mean, err, errlen) < 0 ||
		    plot_cell_num(c, r, k->lo, &s->v.lo, err, errlen) < 0 ||
		    plot_cell_num(c, r, k->hi, &s->v.hi, err, errlen) < 0)
			return -1;
	}
	if (kind >= 0 && plot_cell_num(c, r, k->mean, &s->n.n[kind], err, errlen) < 0)
		return -1;
	if (!strcmp(m, "makespan_change_pct") &&
	    (k->base >= 0 ? ib >= 0 && !strcmp(plot_csv_cell(c, r, k->base), pol->v[ib]) : ib == 0)) {
		s->chg.line = c->line[r];
		s->chg.row = r;
		if (plot_cell_num(c, r, k->mean, &s->chg.mean, err, errlen) < 0 ||
		    plot_cell_num(c, r, k->lo, &s->chg.lo, err, errlen) < 0 ||
		    plot_cell_num(c, r, k->hi, &s->chg.hi, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The slots (policy, point) of the slice along the axis, *n into *out
 * (owned); a policy that finished no job at a point has none set and no
 * value. */
int sweep_slots(const struct plot_csv *c, const struct plot_sum_cols *k, const struct plot_names *pol,
		       const char *metric, int first, int last, int axis, int ref, int ib,
		       struct sweep_pt **out, int *n, char *err, size_t errlen)
{
	struct ent *e;
	int ne, cap = 0, nval = 0, rc = 0;
	*out = NULL;
	*n = 0;
	if (slice_rows(c, k, pol, metric, first, last, axis, ref, &e, &ne, err, errlen)) {
		free(e);
		return -1;
	}
	for (int i = 0; i < ne && !rc; i++) {
		if (i == 0 || e[i].pol != e[i - 1].pol || e[i].point != e[i - 1].point) {
			xgrow(out, &cap, *n + 1, sizeof **out);
			struct sweep_pt *s = &(*out)[(*n)++];
			*s = (struct sweep_pt){e[i].pol, e[i].point, plot_csv_cell(c, e[i].row, axis),
					       NAN, {NAN, NAN, NAN, 0, -1}, {NAN, NAN, NAN, 0, -1},
					       {{NAN, NAN, NAN, NAN, NAN}}, c->line[e[i].row], false};
			char *end;
			s->x = strtod(s->xs, &end);
			if (end == s->xs || *end || !isfinite(s->x))
				s->x = NAN;
		}
		rc = slot_row(c, k, pol, metric, ib, e[i].row, &(*out)[*n - 1], err, errlen);
	}
	free(e);
	for (int i = 0; i < *n && !rc; i++) {
		struct sweep_pt *s = &(*out)[i];
		if ((s->none = plot_finished_none(metric, &s->n, s->v.mean)))
			s->v.mean = s->v.lo = s->v.hi = NAN;
		if (plot_finished_none("makespan_change_pct", &s->n, s->chg.mean))
			s->chg.mean = NAN;
		nval += !isnan(s->v.mean) || s->none;
	}
	if (!rc && nval == 0) {
		snprintf(err, errlen, "%s: no value of metric '%s' along axis '%s'", c->path, metric,
			 c->hdr[axis]);
		rc = -1;
	}
	return rc;
}

/* Non-numeric axis values: x becomes the rank of the value's first sweep
 * point, and xtics name them. */
static void sweep_categories(struct sweep_pt *s, int n, struct plot_vars *v)
{
	bool numeric = true;
	for (int i = 0; i < n; i++)
		numeric &= !isnan(s[i].x);
	if (numeric)
		return;
	char tics[8192] = "(";
	int rank = 0;
	for (int pt = 0, more = 1; more; pt++) { /* values in sweep point order */
		more = 0;
		for (int i = 0; i < n; i++) {
			more |= s[i].point > pt;
			if (s[i].point != pt || !isnan(s[i].x))
				continue;
			for (int j = 0; j < n; j++)
				if (!strcmp(s[j].xs, s[i].xs))
					s[j].x = rank;
			snprintf(tics + strlen(tics), sizeof tics - strlen(tics), "%s\"%s\" %d",
				 rank ? ", " : "", s[i].xs, rank);
			rank++;
		}
	}
	strcat(tics, ")");
	plot_var_str(v, "xticsdef", tics);
}

/* One block per policy, rows "x mean lo hi" sorted by x; a point without
 * a value between two with one breaks the line (a blank line). */
static void sweep_lines(FILE *dat, const struct sweep_pt *s, int n, const struct plot_csv *sum,
			const struct plot_names *pol, int axis, const char **col, struct plot_names *shown,
			const char **shown_col)
{
	for (int i = 0, rows = 0, gap = 0; i < n; i++) {
		if (!i || s[i].pol != s[i - 1].pol) {
			fprintf(dat, "%s# %s: %s mean ci95_lo ci95_hi\n", i ? "\n\n" : "",
				pol->v[s[i].pol], sum->hdr[axis]);
			shown_col[shown->n] = col[s[i].pol];
			plot_names_add(shown, pol->v[s[i].pol]);
			rows = gap = 0;
		}
		if (isnan(s[i].v.mean)) {
			gap = rows > 0;
		} else {
			if (gap)
				fputc('\n', dat);
			plot_put_num(dat, "", s[i].x);
			plot_put_num(dat, " ", s[i].v.mean);
			plot_put_num(dat, " ", isnan(s[i].v.lo) ? s[i].v.mean : s[i].v.lo);
			plot_put_num(dat, " ", isnan(s[i].v.hi) ? s[i].v.mean : s[i].v.hi);
			fputc('\n', dat);
			rows++;
			gap = 0;
		}
		if (rows == 0 && (i + 1 == n || s[i + 1].pol != s[i].pol))
			fputs("NaN NaN NaN NaN\n", dat); /* every block has a row */
	}
}

/* Two label blocks, rows "x y label colour": "POLICY: no job done" at
 * the foot of each point where a policy finished nothing (side by side
 * where several did), then "⚠ n/N" over each point whose policy left
 * jobs not done.  Returns whether any mark was written. */
static bool sweep_labels(FILE *dat, const struct sweep_pt *s, int n, const struct plot_names *pol,
			 const char **col)
{
	double x0 = INFINITY, x1 = -INFINITY;
	for (int i = 0; i < n; i++)
		x0 = fmin(x0, s[i].x), x1 = fmax(x1, s[i].x);
	double dx = x1 > x0 ? (x1 - x0) * 0.015 : 0.05;
	int rows = 0;
	fprintf(dat, "\n\n# no job done: x y label colour\n");
	for (int i = 0; i < n; i++) {
		if (!s[i].none)
			continue;
		int k = 0, all = 0; /* O(n^2): few such points */
		for (int j = 0; j < n; j++)
			if (s[j].none && s[j].x == s[i].x)
				k += j < i, all++;
		char label[256];
		snprintf(label, sizeof label, "%s: no job done", pol->v[s[i].pol]);
		plot_put_num(dat, "", s[i].x + (k - (all - 1) / 2.0) * dx);
		fputs(" 0", dat);
		plot_put_str(dat, label);
		fprintf(dat, " %ld\n", strtol(col[s[i].pol] + 1, NULL, 16));
		rows++;
	}
	if (!rows) /* a row gnuplot can place: a labels block without one crashes it (5.4) */
		fprintf(dat, "%.9g 0 \"\" 0\n", s[0].x);
	int marks = 0;
	fprintf(dat, "\n\n# jobs not done: x y label colour\n");
	for (int i = 0; i < n; i++) {
		char mark[128];
		plot_mark_text(&s[i].n, true, mark, sizeof mark);
		if (isnan(s[i].v.mean) || !*mark)
			continue;
		plot_put_num(dat, "", s[i].x);
		plot_put_num(dat, " ", s[i].v.mean);
		plot_put_str(dat, mark);
		fprintf(dat, " %ld\n", strtol(col[s[i].pol] + 1, NULL, 16));
		marks++;
	}
	if (!marks)
		fprintf(dat, "%.9g 0 \"\" 0\n", s[0].x);
	return marks > 0;
}

/* The arrow: compare ic against baseline ib at the largest x where both
 * have a value; returns whether it was set (and if paired).  c, k: the
 * summary, for the replications a paired change is over. */
static bool sweep_note(struct plot_vars *v, const struct plot_csv *c, const struct plot_sum_cols *k,
		       const struct sweep_pt *s, int n, const char *metric,
		       const struct plot_names *pol, int ic, int ib, const char **col, bool *paired)
{
	int bi = -1, bj = -1;
	for (int i = 0; ic >= 0 && ib >= 0 && ic != ib && i < n; i++)
		for (int j = 0; j < n; j++)
			if (s[i].pol == ic && s[j].pol == ib && s[i].x == s[j].x &&
			    !isnan(s[i].v.mean) && !isnan(s[j].v.mean) &&
			    (bi < 0 || s[i].x > s[bi].x) &&
			    (s[j].v.mean > 0 || (!strcmp(metric, "makespan_s") && !isnan(s[i].chg.mean))))
				bi = i, bj = j;
	if (bi < 0)
		return false;
	*paired = !strcmp(metric, "makespan_s") && !isnan(s[bi].chg.mean);
	/* named: the note stands beside the key, away from the arrow */
	int kp = *paired && k->reps >= 0 && s[bi].chg.row >= 0
			 ? atoi(plot_csv_cell(c, s[bi].chg.row, k->reps)) : 0;
	plot_change_note(v, pol->v[ic], *paired ? &s[bi].chg : NULL, s[bi].v.mean, s[bj].v.mean,
			 pol->v[ib], kp, plot_point_reps(c, k, s[bi].point, pol->v[ic]));
	plot_var_num(v, "notex", s[bi].x);
	plot_var_num(v, "notey", s[bi].v.mean);
	plot_var_num(v, "basey", s[bj].v.mean);
	plot_var_str(v, "notecolour", col[ic]);
	return true;
}

int plot_prep_sweep(const struct plot_csv *sum, const struct plot_opts *o, FILE *dat,
		    struct plot_vars *v, char *err, size_t errlen)
{
	const char *metric = o->metric ? o->metric : "makespan_s", *why;
	struct plot_sum_cols k;
	struct plot_names pol, shown = {{0}, 0};
	struct sweep_pt *s = NULL;
	int first, last, axis, n, ic, ib, ref = 0, rc;
	if ((rc = plot_sum_cols(sum, &k, &pol, err, errlen)) ||
	    (rc = sweep_axis(sum, o, &first, &last, &axis, err, errlen)) ||
	    (rc = plot_pick_baseline(sum, &k, &pol, o, &ib, &why, err, errlen)) ||
	    (rc = plot_pick_compare(sum, &pol, o, ib, true, &ic, err, errlen)) ||
	    (rc = (ref = point_row(sum, &k, o->point, err, errlen)) < 0 ? -1 : 0) ||
	    (rc = sweep_slots(sum, &k, &pol, metric, first, last, axis, ref, ib, &s, &n, err,
			      errlen))) {
		free(s);
		return rc;
	}
	sweep_categories(s, n, v);
	qsort(s, (size_t)n, sizeof *s, sweep_cmp);
	for (int i = 1; i < n; i++)
		if (s[i].pol == s[i - 1].pol && s[i].x == s[i - 1].x) {
			snprintf(err, errlen, "%s:%d: a second row for policy '%s' at %s %s (first on "
				 "line %d)", sum->path, s[i].v.line ? s[i].v.line : s[i].line,
				 pol.v[s[i].pol], sum->hdr[axis], s[i].xs,
				 s[i - 1].v.line ? s[i - 1].v.line : s[i - 1].line);
			free(s);
			return -1;
		}
	const char *col[PLOT_MAX_NAMES], *shown_col[PLOT_MAX_NAMES];
	if (plot_colours_for(&pol, col, err, errlen)) {
		free(s);
		return -1;
	}
	sweep_lines(dat, s, n, sum, &pol, axis, col, &shown, shown_col);
	bool marks = sweep_labels(dat, s, n, &pol, col), paired = false;
	char what[512], label[256], name[256], pre[1024], extra[512] = "";
	if (sweep_note(v, sum, &k, s, n, metric, &pol, ic, ib, col, &paired))
		snprintf(extra, sizeof extra, "change of %s against %s (%s): %s", pol.v[ic],
			 pol.v[ib], why, paired ? "mean of paired changes" : "ratio of means");
	snprintf(what, sizeof what, "%s against %s", plot_metric_name(metric, name, sizeof name),
		 sum->hdr[axis]);
	plot_title_prefix(sum, k.scenario, ref, o->point, axis, pre, sizeof pre);
	plot_sum_titles(v, sum, &k, metric, pre, what, extra);
	plot_metric_label(metric, label, sizeof label);
	plot_var_str(v, "ylabel", label);
	plot_var_str(v, "xlabel", sum->hdr[axis]);
	plot_var_words(v, "policies", shown.v, shown.n);
	plot_var_words(v, "colours", shown_col, shown.n);
	if (marks)
		plot_var_str(v, "footnote", PLOT_WARN " n/N: jobs not done (failed, timed out or "
			     "unplaceable) of the N counted, mean per replication");
	free(s);
	return 0;
}
