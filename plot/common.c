/* common.c - what the figures of a summary share: name lists, gnuplot
 * variables, the summary's columns and a metric's values, the jobs done
 * and not done, titles, the baseline and the changes against it (their
 * colours: plot/palette.c).
 *
 * May call: plot/csv.c, plot/stats.c, sim/util.h.
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- names, gnuplot variables --------------------------------------- */

int plot_names_find(const struct plot_names *ns, const char *s)
{
	for (int i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], s) == 0)
			return i;
	return -1;
}

/* Index of s, added if new; -1 when the list is full. */
int plot_names_add(struct plot_names *ns, const char *s)
{
	int i = plot_names_find(ns, s);
	if (i >= 0 || ns->n == PLOT_MAX_NAMES)
		return i;
	ns->v[ns->n] = s;
	return ns->n++;
}

static void names_join(const struct plot_names *ns, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < ns->n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", ns->v[i]);
}

/* Job types in a fixed order (the known ones first), then by appearance. */
void plot_order_types(struct plot_names *t)
{
	static const char *const known[] = {"wordcount", "mnist_spark", "angel", "synthetic"};
	struct plot_names o = {{0}, 0};
	for (int k = 0; k < ARRAY_LEN(known); k++)
		if (plot_names_find(t, known[k]) >= 0)
			o.v[o.n++] = t->v[plot_names_find(t, known[k])];
	for (int i = 0; i < t->n; i++)
		if (plot_names_find(&o, t->v[i]) < 0)
			o.v[o.n++] = t->v[i];
	*t = o;
}

static void var_raw(struct plot_vars *v, const char *s)
{
	size_t n = strlen(s);
	if (v->len + n + 1 > sizeof v->s) {
		v->overflow = 1;
		return;
	}
	memcpy(v->s + v->len, s, n + 1);
	v->len += n;
}

/* name='value' (a ' in the value is written '', gnuplot's escape). */
void plot_var_str(struct plot_vars *v, const char *name, const char *value)
{
	char q[2] = "";
	var_raw(v, name);
	var_raw(v, "='");
	for (const char *p = value; *p; p++) {
		q[0] = *p;
		var_raw(v, *p == '\'' ? "''" : q);
	}
	var_raw(v, "'; ");
}

void plot_var_num(struct plot_vars *v, const char *name, double x)
{
	char b[64];
	snprintf(b, sizeof b, "%s=%.10g; ", name, x);
	var_raw(v, b);
}

/* A list for gnuplot's word(): each item in double quotes (a " in an
 * item becomes '). */
void plot_var_words(struct plot_vars *v, const char *name, const char *const *items, int n)
{
	char buf[8192] = "";
	for (int i = 0; i < n; i++) {
		size_t at = strlen(buf);
		snprintf(buf + at, sizeof buf - at, "%s\"%s\"", i ? " " : "", items[i]);
		for (char *p = buf + at + 1 + (i > 0); *p; p++)
			if (*p == '"' && p[1])
				*p = '\'';
	}
	if (strlen(buf) >= sizeof buf - 1)
		v->overflow = 1;
	plot_var_str(v, name, buf);
}

/* A value in a data file: gnuplot reads NaN as "no point". */
void plot_put_num(FILE *f, const char *sep, double x)
{
	if (isfinite(x))
		fprintf(f, "%s%.9g", sep, x);
	else
		fprintf(f, "%sNaN", sep);
}

/* A y-axis label for a runs.csv metric. */
void plot_metric_label(const char *m, char *buf, size_t len)
{
	static const struct { const char *metric, *label; } known[] = {
		{"makespan_s", "execution time (makespan), s"},
		{"jct_mean_s", "mean job completion time, s"},
		{"jct_p50_s", "median job completion time, s"},
		{"jct_p95_s", "95th percentile of job completion time, s"},
		{"jct_p99_s", "99th percentile of job completion time, s"},
		{"wait_mean_s", "mean wait before start, s"},
		{"slowdown_mean", "mean slowdown (JCT / run time)"},
		{"bsld_mean", "mean bounded slowdown (tau 10 s)"},
		{"cpu_util", "CPU utilisation (busy cores / cores)"},
		{"gpu_util", "GPU utilisation (training GPUs / GPUs)"},
		{"cpu_alloc", "cores held by executors / cores"},
		{"gpu_alloc", "GPUs held / GPUs"},
	};
	for (int i = 0; i < ARRAY_LEN(known); i++)
		if (strcmp(known[i].metric, m) == 0) {
			snprintf(buf, len, "%s", known[i].label);
			return;
		}
	size_t n = strlen(m);
	if (n > 2 && strcmp(m + n - 2, "_s") == 0)
		snprintf(buf, len, "%.*s, s", (int)(n - 2), m);
	else
		snprintf(buf, len, "%s", m);
}

/* ---- summaries ------------------------------------------------------ */

int plot_sum_cols(const struct plot_csv *c, struct plot_sum_cols *k, struct plot_names *pol, char *err,
		    size_t errlen)
{
	static const char *const need[] = {"policy", "metric", "mean", NULL};
	int idx[3];
	if (plot_need_cols(c, need, idx, err, errlen))
		return -1;
	*k = (struct plot_sum_cols){idx[0], idx[1], idx[2], plot_csv_col(c, "point"),
			       plot_csv_col(c, "ci95_lo"), plot_csv_col(c, "ci95_hi"),
			       plot_csv_col(c, "replications"), plot_csv_col(c, "scenario"),
			       plot_csv_col(c, "baseline")};
	pol->n = 0;
	for (int r = 0; r < c->nrows; r++)
		if (plot_names_add(pol, plot_csv_cell(c, r, k->policy)) < 0) {
			snprintf(err, errlen, "%s:%d: more than %d policies", c->path, c->line[r],
				 PLOT_MAX_NAMES);
			return -1;
		}
	return 0;
}

/* Mean and interval of `metric` at `point` for each policy of pol. */
int plot_select_metric(const struct plot_csv *c, const struct plot_sum_cols *k, const char *metric,
			 int point, const struct plot_names *pol, struct plot_ci *out, char *err,
			 size_t errlen)
{
	for (int p = 0; p < pol->n; p++)
		out[p] = (struct plot_ci){NAN, NAN, NAN, 0, -1};
	for (int r = 0; r < c->nrows; r++) {
		if (strcmp(plot_csv_cell(c, r, k->metric), metric) || !plot_cell_is_int(c, r, k->point, point))
			continue;
		struct plot_ci *o = &out[plot_names_find(pol, plot_csv_cell(c, r, k->policy))];
		if (o->line) {
			snprintf(err, errlen, "%s:%d: a second row for policy '%s', metric '%s', point %d"
				 " (first on line %d)", c->path, c->line[r],
				 plot_csv_cell(c, r, k->policy), metric, point, o->line);
			return -1;
		}
		o->line = c->line[r];
		o->row = r;
		if (plot_cell_num(c, r, k->mean, &o->mean, err, errlen) < 0 ||
		    plot_cell_num(c, r, k->lo, &o->lo, err, errlen) < 0 ||
		    plot_cell_num(c, r, k->hi, &o->hi, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* Which policies have a row at `point` (present[p]); returns the first
 * such row, -1 if none. */
int plot_point_present(const struct plot_csv *c, const struct plot_sum_cols *k, int point,
			 const struct plot_names *pol, bool *present)
{
	int ref = -1;
	for (int p = 0; p < pol->n; p++)
		present[p] = false;
	for (int r = 0; r < c->nrows; r++)
		if (plot_cell_is_int(c, r, k->point, point)) {
			present[plot_names_find(pol, plot_csv_cell(c, r, k->policy))] = true;
			ref = ref < 0 ? r : ref;
		}
	return ref;
}

/* ---- jobs done and not done ----------------------------------------- */

const char *const plot_count_metrics[PLOT_N_KINDS] = {"done", "failed", "timed_out",
						   "unplaceable", "counted"};

int plot_count_kind(const char *metric)
{
	for (int i = 0; i < PLOT_N_KINDS; i++)
		if (!strcmp(metric, plot_count_metrics[i]))
			return i;
	return -1;
}

/* The counts of every policy of pol at `point`. */
int plot_point_counts(const struct plot_csv *c, const struct plot_sum_cols *k, int point,
			const struct plot_names *pol, struct plot_counts *out, char *err, size_t errlen)
{
	struct plot_ci ci[PLOT_MAX_NAMES];
	for (int i = 0; i < PLOT_N_KINDS; i++) {
		if (plot_select_metric(c, k, plot_count_metrics[i], point, pol, ci, err, errlen))
			return -1;
		for (int p = 0; p < pol->n; p++)
			out[p].n[i] = ci[p].mean;
	}
	return 0;
}

/* Jobs not done (failed + timed out + unplaceable; NaN without counts)
 * and, in *of, the counted jobs they are out of (`counted`, else the sum
 * of the four statuses; NaN if unknown). */
static double not_done(const struct plot_counts *n, double *of)
{
	double s = 0, all = n->n[PLOT_N_DONE];
	bool any = false;
	for (int i = PLOT_N_FAILED; i <= PLOT_N_UNPLACEABLE; i++)
		if (!isnan(n->n[i])) {
			s += n->n[i];
			all += n->n[i];
			any = true;
		}
	*of = isnan(n->n[PLOT_N_COUNTED]) ? all : n->n[PLOT_N_COUNTED];
	return any ? s : NAN;
}

/* The mark of a policy that left counted jobs not done: "⚠ 2.5 of 10
 * jobs not done", naming the status when there is one ("⚠ 3 of 10
 * unplaceable"); `brief`: "⚠ 2.5/10".  "" when every counted job is done
 * or the summary has no counts. */
void plot_mark_text(const struct plot_counts *n, bool brief, char *buf, size_t len)
{
	static const char *const word[] = {"", "failed", "timed out", "unplaceable"};
	double of, nd = not_done(n, &of);
	char a[32], b[32] = "";
	buf[0] = '\0';
	if (!(nd > 1e-9))
		return;
	plot_count_text(a, sizeof a, nd);
	if (!isnan(of))
		plot_count_text(b, sizeof b, of);
	if (brief) {
		snprintf(buf, len, PLOT_WARN " %s%s%s", a, *b ? "/" : "", b);
		return;
	}
	int kinds = 0, only = 0;
	for (int i = PLOT_N_FAILED; i <= PLOT_N_UNPLACEABLE; i++)
		if (n->n[i] > 1e-9)
			kinds++, only = i;
	snprintf(buf, len, PLOT_WARN " %s%s%s %s", a, *b ? " of " : "", b,
		 kinds == 1 ? word[only] : "jobs not done");
}

/* Makespan and completion-time metrics (and the change of makespan)
 * measure finished jobs. */
bool plot_needs_done(const char *metric)
{
	return !strcmp(metric, "makespan_s") || !strcmp(metric, "makespan_change_pct") ||
	       !strncmp(metric, "jct_", 4) || !strncmp(metric, "slowdown_", 9) ||
	       !strncmp(metric, "bsld_", 5);
}

/* Did the policy finish no job, so that `metric` has nothing to measure
 * whatever the file says?  Its done count is 0 (older files hold
 * 0.000000 there); without counts, a makespan or JCT mean of exactly 0
 * (no job that ran has either). */
bool plot_finished_none(const char *metric, const struct plot_counts *n, double mean)
{
	if (!plot_needs_done(metric))
		return false;
	if (!isnan(n->n[PLOT_N_DONE]))
		return n->n[PLOT_N_DONE] == 0;
	return mean == 0 && strcmp(metric, "makespan_change_pct") != 0;
}

/* What the empty slot of a policy without a value says. */
const char *plot_none_label(const char *metric)
{
	return plot_needs_done(metric) ? "no job done" : !strcmp(metric, "wait_mean_s") ? "no job started"
										     : "no value";
}

/* ---- titles --------------------------------------------------------- */

/* The sweep axes: the columns between `point` and `replications` (a
 * summary), or `replication` (types.csv); *first > *last when there are
 * none. */
void plot_axis_cols(const struct plot_csv *c, int *first, int *last)
{
	int p = plot_csv_col(c, "point"), r = plot_csv_col(c, "replications");
	if (r < 0)
		r = plot_csv_col(c, "replication");
	*first = p + 1;
	*last = r - 1;
	if (p < 0 || r < 0)
		*first = 1, *last = 0;
}

/* A figure's title prefix "scenario, axis = value, ...: " with every
 * axis but `skip` at its value in row `ref` (-1: none), the scenario
 * from column `scenario`; without axes, "scenario, point K: " for a
 * point K > 0; "" when there is nothing. */
void plot_title_prefix(const struct plot_csv *c, int scenario, int ref, int point, int skip,
			 char *buf, size_t len)
{
	int first, last;
	plot_axis_cols(c, &first, &last);
	snprintf(buf, len, "%s", c->nrows ? plot_csv_cell(c, ref >= 0 ? ref : 0, scenario) : "");
	for (int a = first; ref >= 0 && a <= last; a++)
		if (a != skip)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s = %s", *buf ? ", " : "",
				 c->hdr[a], plot_csv_cell(c, ref, a));
	if (first > last && point > 0)
		snprintf(buf + strlen(buf), len - strlen(buf), "%spoint %d", *buf ? ", " : "", point);
	if (*buf)
		snprintf(buf + strlen(buf), len - strlen(buf), ": ");
}

/* What a metric is called in a title. */
const char *plot_metric_name(const char *metric, char *buf, size_t len)
{
	plot_metric_label(metric, buf, len);
	size_t n = strlen(buf);
	if (!strcmp(metric, "makespan_s"))
		snprintf(buf, len, "execution time");
	else if (n > 3 && !strcmp(buf + n - 3, ", s"))
		buf[n - 3] = '\0';
	return buf;
}

/* subtitle: what a figure's values are, a mean over `reps` replications. */
void plot_reps_subtitle(struct plot_vars *v, int reps)
{
	char sub[128];
	if (reps > 1)
		snprintf(sub, sizeof sub, "mean of %d replications, 95 %% CI", reps);
	else
		snprintf(sub, sizeof sub, "%s",
			 reps == 1 ? "one replication: no interval" : "mean, 95 % CI");
	plot_var_str(v, "subtitle", sub);
}

/* figtitle "PREFIXwhat", subtitle "mean of N replications, 95 % CI" (N
 * from the first row of `metric`) and subtitle2 `extra` (what a change is
 * against), a line of its own, if not NULL or "". */
void plot_sum_titles(struct plot_vars *v, const struct plot_csv *c, const struct plot_sum_cols *k,
		       const char *metric, const char *prefix, const char *what,
		       const char *extra)
{
	char title[1024];
	int reps = 0;
	for (int r = 0; r < c->nrows && !reps; r++)
		if (!strcmp(plot_csv_cell(c, r, k->metric), metric))
			reps = atoi(plot_csv_cell(c, r, k->reps));
	snprintf(title, sizeof title, "%s%s", prefix, what);
	plot_var_str(v, "figtitle", title);
	plot_reps_subtitle(v, reps);
	if (extra && *extra)
		plot_var_str(v, "subtitle2", extra);
}

/* ---- baseline and changes ------------------------------------------- */

static int no_policy(const struct plot_csv *c, const struct plot_names *pol, const char *name,
		     const char *opt, char *err, size_t errlen)
{
	char all[1024];
	names_join(pol, all, sizeof all);
	snprintf(err, errlen, "%s: no policy '%s' (--%s; policies: %s)", c->path, name, opt, all);
	return -1;
}

/* The baseline of every change a figure shows, one rule with hetsim
 * sweep's: --baseline; else the policy the summary's `baseline` column
 * names (hetsim sweep --baseline); else the first policy listed.  *why
 * says which, for the subtitle.  -1 and a message for an unknown name. */
int plot_pick_baseline(const struct plot_csv *c, const struct plot_sum_cols *k,
			 const struct plot_names *pol, const struct plot_opts *o, int *ib,
			 const char **why, char *err, size_t errlen)
{
	*why = "--baseline";
	if (o->baseline) {
		*ib = plot_names_find(pol, o->baseline);
		return *ib < 0 ? no_policy(c, pol, o->baseline, "baseline", err, errlen) : 0;
	}
	*ib = pol->n ? 0 : -1;
	*why = "first policy listed";
	for (int r = 0; k->base >= 0 && r < c->nrows; r++) {
		int b = plot_names_find(pol, plot_csv_cell(c, r, k->base));
		if (b > 0) {
			*ib = b;
			*why = "the sweep's baseline";
		}
		if (b >= 0)
			break;
	}
	return 0;
}

/* The policy compared with the baseline ib: --compare; else, with
 * `fallback`, label-dual, or the first other policy; else none (-1). */
int plot_pick_compare(const struct plot_csv *c, const struct plot_names *pol,
			const struct plot_opts *o, int ib, bool fallback, int *ic, char *err,
			size_t errlen)
{
	if (o->compare) {
		*ic = plot_names_find(pol, o->compare);
		return *ic < 0 ? no_policy(c, pol, o->compare, "compare", err, errlen) : 0;
	}
	*ic = fallback ? plot_names_find(pol, "label-dual") : -1;
	for (int p = 0; fallback && (*ic < 0 || *ic == ib) && p < pol->n; p++)
		*ic = p != ib ? p : -1;
	return 0;
}

/* The paired changes of makespan at `point` against baseline ib (rows
 * makespan_change_pct whose `baseline` names it; a file without that
 * column made them against its first policy). */
int plot_change_rows(const struct plot_csv *c, const struct plot_sum_cols *k, int point,
		       const struct plot_names *pol, int ib, struct plot_ci *out, char *err, size_t errlen)
{
	if (plot_select_metric(c, k, "makespan_change_pct", point, pol, out, err, errlen))
		return -1;
	for (int p = 0; p < pol->n; p++)
		if (out[p].row >= 0 && (k->base >= 0 ? strcmp(plot_csv_cell(c, out[p].row, k->base),
							      ib >= 0 ? pol->v[ib] : "")
						     : ib != 0))
			out[p] = (struct plot_ci){NAN, NAN, NAN, 0, -1};
	return 0;
}

/* "−13.4 %", "+20.0 %", with " ± 2.1" where the interval's half-width
 * is known. */
void plot_pct_text(char *buf, size_t len, double pct, double lo, double hi)
{
	double a = fabs(pct) < 0.05 ? 0 : pct;
	snprintf(buf, len, "%s%.1f %%", a < 0 ? PLOT_MINUS : "+", fabs(a));
	if (!isnan(lo) && !isnan(hi))
		snprintf(buf + strlen(buf), len - strlen(buf), " \xc2\xb1 %.1f", (hi - lo) / 2);
}

/* The replications `policy` ran at `point`: the largest `replications`
 * of its rows there (a count's row has every replication, a metric's
 * those with a value, a change's those paired); 0 without the column. */
int plot_point_reps(const struct plot_csv *c, const struct plot_sum_cols *k, int point,
		    const char *policy)
{
	int n = 0;
	for (int r = 0; k->reps >= 0 && r < c->nrows; r++)
		if (plot_cell_is_int(c, r, k->point, point) &&
		    !strcmp(plot_csv_cell(c, r, k->policy), policy)) {
			int m = atoi(plot_csv_cell(c, r, k->reps));
			n = m > n ? m : n;
		}
	return n;
}

/* The annotation of compare's change against the baseline: paired,
 * "[WHO: ]−X % ± H against BASE (paired)", or "(paired, K of N
 * replications)" where the change is over K of the N replications (the
 * others without a makespan, or with other jobs done: no change); else
 * from the means c and b, "[WHO: ]−X % (to Y % of BASE)". */
void plot_change_note(struct plot_vars *v, const char *who, const struct plot_ci *paired, double c,
			double b, const char *base, int k, int n)
{
	char note[512], pct[64];
	snprintf(note, sizeof note, "%s%s", who ? who : "", who ? ": " : "");
	if (paired) {
		plot_pct_text(pct, sizeof pct, paired->mean, paired->lo, paired->hi);
		snprintf(note + strlen(note), sizeof note - strlen(note), "%s against %s (paired",
			 pct, base);
		if (k > 0 && k < n)
			snprintf(note + strlen(note), sizeof note - strlen(note),
				 ", %d of %d replications", k, n);
		snprintf(note + strlen(note), sizeof note - strlen(note), ")");
	} else {
		double r = c / b;
		snprintf(note + strlen(note), sizeof note - strlen(note), "%s%.1f %% (to %.1f %% of %s)",
			 r <= 1 ? PLOT_MINUS : "+", fabs(1 - r) * 100, r * 100, base);
	}
	plot_var_str(v, "note", note);
}

/* A string field of a data file, in double quotes (a " becomes '). */
void plot_put_str(FILE *f, const char *s)
{
	fputs(" \"", f);
	for (; *s; s++)
		fputc(*s == '"' ? '\'' : *s, f);
	fputc('"', f);
}

const char *const plot_footnote_bars =
	PLOT_WARN " jobs not done (failed, timed out or unplaceable): mean per replication, of the "
	"counted jobs";
