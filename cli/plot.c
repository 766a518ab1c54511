/* plot.c - `hetsim plot`: paper-style figures from result CSV files.
 *
 * Each figure kind has a preparation function (plot_prep_*) that reads
 * CSV files by column name and writes a gnuplot data file plus gnuplot
 * variables; plot/<kind>.gp draws it.  gnuplot runs once per output
 * format and writes to a temporary name, renamed only when it succeeded,
 * so a failed figure leaves nothing behind.  plot/README.md tells what
 * each figure shows.
 */
#include "load.h"
#include "plot.h"
#include "rows.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>


#include "cmd.h"
#include "scenario.h"
#include "util.h"

#define MAX_NAMES 64         /* policies, job types or labels in one figure */
#define MINUS "\xe2\x88\x92" /* U+2212, the typographic minus */
#define WARN "\xe2\x9a\xa0"  /* U+26A0, the warning sign */

/* ---- CSV ------------------------------------------------------------ */

struct plot_csv {
	char *path;   /* as given; owned */
	char *buf;    /* the file, fields cut in place; owned */
	char **hdr;   /* ncols column names, into buf */
	int ncols;
	char **cell;  /* nrows * ncols fields, into buf */
	int *line;    /* 1-based file line of each row */
	int nrows;
};

void plot_csv_free(struct plot_csv *c)
{
	if (!c)
		return;
	free(c->path);
	free(c->buf);
	free(c->hdr);
	free(c->cell);
	free(c->line);
	free(c);
}

static char *read_all(const char *path, char *err, size_t errlen)
{
	const char *why;
	FILE *f = fopen_regular(path, &why);
	if (!f) {
		snprintf(err, errlen, "%s:0:0: cannot open: %s", path, why);
		return NULL;
	}
	size_t len = 0, cap = 4096, got;
	char *buf = xmalloc(cap);
	while ((got = fread(buf + len, 1, cap - 1 - len, f)) > 0)
		if ((len += got) == cap - 1)
			buf = xrealloc(buf, cap *= 2);
	int bad = ferror(f), e = errno;
	fclose(f);
	buf[len] = '\0';
	if (bad || strlen(buf) != len) {
		/* where: the NUL's line and column */
		int line = 1, col = 1;
		for (size_t i = 0; !bad && buf[i]; i++, col++)
			if (buf[i] == '\n')
				line++, col = 0;
		snprintf(err, errlen, "%s:%d:%d: cannot read: %s", path, bad ? 0 : line,
			 bad ? 0 : col, bad ? strerror(e) : "a NUL byte");
		free(buf);
		return NULL;
	}
	return buf;
}

static int count_fields(const char *s)
{
	int n = 1;
	for (; *s; s++)
		n += *s == ',';
	return n;
}

static void split(char *s, char **out)
{
	*out++ = s;
	for (; *s; s++)
		if (*s == ',') {
			*s = '\0';
			*out++ = s + 1;
		}
}

/* Cut `buf` (owned from here on) into rows; see plot_csv_read. */
static struct plot_csv *csv_parse(const char *path, char *buf, char *err, size_t errlen)
{
	struct plot_csv *c = xcalloc(1, sizeof *c);
	c->path = xstrdup(path);
	c->buf = buf;
	int cap_cell = 0, cap_line = 0, lineno = 0;
	for (char *p = buf, *next; *p; p = next) {
		char *eol = strchr(p, '\n');
		next = eol ? eol + 1 : p + strlen(p);
		if (eol)
			*eol = '\0';
		lineno++;
		size_t n = strlen(p);
		if (n && p[n - 1] == '\r')
			p[--n] = '\0';
		if (n == 0)
			continue;
		int nf = count_fields(p);
		if (!c->hdr) {
			c->ncols = nf;
			c->hdr = xmalloc((size_t)nf * sizeof *c->hdr);
			split(p, c->hdr);
			continue;
		}
		if (nf != c->ncols) {
			snprintf(err, errlen, "%s:%d:1: %d fields, but the header has %d", path, lineno,
				 nf, c->ncols);
			plot_csv_free(c);
			return NULL;
		}
		xgrow(&c->cell, &cap_cell, (c->nrows + 1) * c->ncols, sizeof *c->cell);
		xgrow(&c->line, &cap_line, c->nrows + 1, sizeof *c->line);
		split(p, c->cell + (size_t)c->nrows * c->ncols);
		c->line[c->nrows++] = lineno;
	}
	if (!c->hdr) {
		snprintf(err, errlen, "%s:1:1: empty file (no header line)", path);
		plot_csv_free(c);
		return NULL;
	}
	return c;
}

struct plot_csv *plot_csv_read(const char *path, char *err, size_t errlen)
{
	char *buf = read_all(path, err, errlen);
	return buf ? csv_parse(path, buf, err, errlen) : NULL;
}

const char *plot_csv_path(const struct plot_csv *c) { return c->path; }
int plot_csv_rows(const struct plot_csv *c) { return c->nrows; }
int plot_csv_line(const struct plot_csv *c, int row) { return c->line[row]; }

int plot_csv_col(const struct plot_csv *c, const char *name)
{
	for (int i = 0; i < c->ncols; i++)
		if (strcmp(c->hdr[i], name) == 0)
			return i;
	return -1;
}

int plot_csv_ncols(const struct plot_csv *c)
{
	return c->ncols;
}

const char *plot_csv_cell(const struct plot_csv *c, int row, int col)
{
	return col < 0 ? "" : c->cell[(size_t)row * c->ncols + col];
}

/* Columns a figure cannot do without: -1 and a message naming the first
 * missing one.  Names are given as a NULL-terminated list, indices out. */
static int need_cols(const struct plot_csv *c, const char *const *names, int *idx, char *err,
		     size_t errlen)
{
	for (int i = 0; names[i]; i++)
		if ((idx[i] = plot_csv_col(c, names[i])) < 0) {
			snprintf(err, errlen, "%s: no column '%s' in the header", c->path, names[i]);
			return -1;
		}
	return 0;
}

/* A number in a cell: 0, or 1 when the cell is empty, not finite or its
 * column absent (*x = NaN), or -1 with a message when it is not a number. */
static int cell_num(const struct plot_csv *c, int row, int col, double *x, char *err,
		    size_t errlen)
{
	const char *s = plot_csv_cell(c, row, col);
	*x = NAN;
	if (!*s)
		return 1;
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end) {
		snprintf(err, errlen, "%s:%d: column '%s': '%s' is not a number", c->path,
			 c->line[row], c->hdr[col], s);
		return -1;
	}
	if (!isfinite(v))
		return 1;
	*x = v;
	return 0;
}

/* Does a row belong to (policy, replication or point)?  Integers compare
 * as hetsim writes them; an absent column matches 0. */
static bool cell_is_int(const struct plot_csv *c, int row, int col, int want)
{
	char w[16];
	snprintf(w, sizeof w, "%d", want);
	return strcmp(col < 0 ? "0" : plot_csv_cell(c, row, col), w) == 0;
}

/* ---- names, colours, gnuplot variables ------------------------------ */

struct names {
	const char *v[MAX_NAMES]; /* not owned */
	int n;
};

static int names_find(const struct names *ns, const char *s)
{
	for (int i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], s) == 0)
			return i;
	return -1;
}

/* Index of s, added if new; -1 when the list is full. */
static int names_add(struct names *ns, const char *s)
{
	int i = names_find(ns, s);
	if (i >= 0 || ns->n == MAX_NAMES)
		return i;
	ns->v[ns->n] = s;
	return ns->n++;
}

static void names_join(const struct names *ns, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < ns->n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", ns->v[i]);
}

/* Colours (Okabe-Ito, safe for colour-blind readers): the same policy,
 * job type or label always gets the same colour; other names take the
 * first spare colour no earlier name of the figure has. */
struct colour_map {
	const char *name, *rgb;
};
static const struct colour_map policy_colours[] = {
	{"spark-standalone", "#0072b2"}, {"label-dual", "#d55e00"},
	{"fifo", "#009e73"}, {"yarn", "#cc79a7"}, {NULL, NULL},
};
static const struct colour_map type_colours[] = {
	{"wordcount", "#e69f00"}, {"mnist_spark", "#009e73"},
	{"angel", "#cc79a7"}, {"synthetic", "#56b4e9"}, {NULL, NULL},
};
static const struct colour_map label_colours[] = {
	{"cpu", "#0072b2"}, {"gpu", "#009e73"}, {NULL, NULL},
};
static const char *const spare_colours[] = {
	"#e69f00", "#56b4e9", "#882255", "#999999", "#44aa99", "#332288", "#117733",
	"#aa4499", "#000000",
};

static void colours_for(const struct colour_map *known, const struct names *ns, const char **out)
{
	for (int i = 0; i < ns->n; i++) {
		out[i] = NULL;
		for (const struct colour_map *k = known; k->name; k++)
			if (strcmp(k->name, ns->v[i]) == 0)
				out[i] = k->rgb;
	}
	for (int i = 0, s = 0; i < ns->n; i++) {
		for (; !out[i] && s < ARRAY_LEN(spare_colours); s++) {
			bool used = false;
			for (int j = 0; j < ns->n; j++)
				used |= out[j] && strcmp(out[j], spare_colours[s]) == 0;
			if (!used)
				out[i] = spare_colours[s];
		}
		if (!out[i])
			out[i] = spare_colours[i % ARRAY_LEN(spare_colours)];
	}
}

/* Job types in a fixed order (the known ones first), then by appearance. */
static void order_types(struct names *t)
{
	struct names o = {{0}, 0};
	for (const struct colour_map *k = type_colours; k->name; k++)
		if (names_find(t, k->name) >= 0)
			o.v[o.n++] = t->v[names_find(t, k->name)];
	for (int i = 0; i < t->n; i++)
		if (names_find(&o, t->v[i]) < 0)
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
static void var_words(struct plot_vars *v, const char *name, const char *const *items, int n)
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
static void put_num(FILE *f, const char *sep, double x)
{
	if (isfinite(x))
		fprintf(f, "%s%.9g", sep, x);
	else
		fprintf(f, "%sNaN", sep);
}

/* A y-axis label for a runs.csv metric. */
static void metric_label(const char *m, char *buf, size_t len)
{
	static const struct { const char *metric, *label; } known[] = {
		{"makespan_s", "execution time (makespan), s"},
		{"jct_mean_s", "mean job completion time, s"},
		{"jct_p50_s", "median job completion time, s"},
		{"jct_p95_s", "95th percentile of job completion time, s"},
		{"jct_p99_s", "99th percentile of job completion time, s"},
		{"wait_mean_s", "mean wait before start, s"},
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

struct ci {
	double mean, lo, hi; /* NaN when absent */
	int line;            /* the row's line, 0 if none */
	int row;             /* the row, -1 if none */
};

struct sum_cols {
	int policy, metric, mean;                /* required */
	int point, lo, hi, reps, scenario, base; /* -1 if absent */
};

static int sum_cols(const struct plot_csv *c, struct sum_cols *k, struct names *pol, char *err,
		    size_t errlen)
{
	static const char *const need[] = {"policy", "metric", "mean", NULL};
	int idx[3];
	if (need_cols(c, need, idx, err, errlen))
		return -1;
	*k = (struct sum_cols){idx[0], idx[1], idx[2], plot_csv_col(c, "point"),
			       plot_csv_col(c, "ci95_lo"), plot_csv_col(c, "ci95_hi"),
			       plot_csv_col(c, "replications"), plot_csv_col(c, "scenario"),
			       plot_csv_col(c, "baseline")};
	pol->n = 0;
	for (int r = 0; r < c->nrows; r++)
		if (names_add(pol, plot_csv_cell(c, r, k->policy)) < 0) {
			snprintf(err, errlen, "%s:%d: more than %d policies", c->path, c->line[r],
				 MAX_NAMES);
			return -1;
		}
	return 0;
}

/* Mean and interval of `metric` at `point` for each policy of pol. */
static int select_metric(const struct plot_csv *c, const struct sum_cols *k, const char *metric,
			 int point, const struct names *pol, struct ci *out, char *err,
			 size_t errlen)
{
	for (int p = 0; p < pol->n; p++)
		out[p] = (struct ci){NAN, NAN, NAN, 0, -1};
	for (int r = 0; r < c->nrows; r++) {
		if (strcmp(plot_csv_cell(c, r, k->metric), metric) || !cell_is_int(c, r, k->point, point))
			continue;
		struct ci *o = &out[names_find(pol, plot_csv_cell(c, r, k->policy))];
		if (o->line) {
			snprintf(err, errlen, "%s:%d: a second row for policy '%s', metric '%s', point %d"
				 " (first on line %d)", c->path, c->line[r],
				 plot_csv_cell(c, r, k->policy), metric, point, o->line);
			return -1;
		}
		o->line = c->line[r];
		o->row = r;
		if (cell_num(c, r, k->mean, &o->mean, err, errlen) < 0 ||
		    cell_num(c, r, k->lo, &o->lo, err, errlen) < 0 ||
		    cell_num(c, r, k->hi, &o->hi, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* Which policies have a row at `point` (present[p]); returns the first
 * such row, -1 if none. */
static int point_present(const struct plot_csv *c, const struct sum_cols *k, int point,
			 const struct names *pol, bool *present)
{
	int ref = -1;
	for (int p = 0; p < pol->n; p++)
		present[p] = false;
	for (int r = 0; r < c->nrows; r++)
		if (cell_is_int(c, r, k->point, point)) {
			present[names_find(pol, plot_csv_cell(c, r, k->policy))] = true;
			ref = ref < 0 ? r : ref;
		}
	return ref;
}

/* ---- jobs done and not done ----------------------------------------- */

/* The jobs of a (policy, point) by final status: the mean count per
 * replication of the summary rows `done`, `failed`, `timed_out`,
 * `unplaceable` (hetsim sweep writes them) and `counted` (a summary of
 * runs.csv has it).  NaN where the row is absent: older files. */
enum { N_DONE, N_FAILED, N_TIMED_OUT, N_UNPLACEABLE, N_COUNTED, N_KINDS };
static const char *const count_metrics[N_KINDS] = {"done", "failed", "timed_out",
						   "unplaceable", "counted"};
struct counts {
	double n[N_KINDS]; /* jobs, mean per replication */
};

static int count_kind(const char *metric)
{
	for (int i = 0; i < N_KINDS; i++)
		if (!strcmp(metric, count_metrics[i]))
			return i;
	return -1;
}

/* The counts of every policy of pol at `point`. */
static int point_counts(const struct plot_csv *c, const struct sum_cols *k, int point,
			const struct names *pol, struct counts *out, char *err, size_t errlen)
{
	struct ci ci[MAX_NAMES];
	for (int i = 0; i < N_KINDS; i++) {
		if (select_metric(c, k, count_metrics[i], point, pol, ci, err, errlen))
			return -1;
		for (int p = 0; p < pol->n; p++)
			out[p].n[i] = ci[p].mean;
	}
	return 0;
}

/* Jobs not done (failed + timed out + unplaceable; NaN without counts)
 * and, in *of, the counted jobs they are out of (`counted`, else the sum
 * of the four statuses; NaN if unknown). */
static double not_done(const struct counts *n, double *of)
{
	double s = 0, all = n->n[N_DONE];
	bool any = false;
	for (int i = N_FAILED; i <= N_UNPLACEABLE; i++)
		if (!isnan(n->n[i])) {
			s += n->n[i];
			all += n->n[i];
			any = true;
		}
	*of = isnan(n->n[N_COUNTED]) ? all : n->n[N_COUNTED];
	return any ? s : NAN;
}

/* The mark of a policy that left counted jobs not done: "⚠ 2.5 of 10
 * jobs not done", naming the status when there is one ("⚠ 3 of 10
 * unplaceable"); `brief`: "⚠ 2.5/10".  "" when every counted job is done
 * or the summary has no counts. */
static void mark_text(const struct counts *n, bool brief, char *buf, size_t len)
{
	static const char *const word[] = {"", "failed", "timed out", "unplaceable"};
	double of, nd = not_done(n, &of);
	char a[32], b[32] = "";
	buf[0] = '\0';
	if (!(nd > 1e-9))
		return;
	cmd_count_text(a, sizeof a, nd);
	if (!isnan(of))
		cmd_count_text(b, sizeof b, of);
	if (brief) {
		snprintf(buf, len, WARN " %s%s%s", a, *b ? "/" : "", b);
		return;
	}
	int kinds = 0, only = 0;
	for (int i = N_FAILED; i <= N_UNPLACEABLE; i++)
		if (n->n[i] > 1e-9)
			kinds++, only = i;
	snprintf(buf, len, WARN " %s%s%s %s", a, *b ? " of " : "", b,
		 kinds == 1 ? word[only] : "jobs not done");
}

/* Makespan and completion-time metrics (and the change of makespan)
 * measure finished jobs. */
static bool needs_done(const char *metric)
{
	return !strcmp(metric, "makespan_s") || !strcmp(metric, "makespan_change_pct") ||
	       !strncmp(metric, "jct_", 4);
}

/* Did the policy finish no job, so that `metric` has nothing to measure
 * whatever the file says?  Its done count is 0 (older files hold
 * 0.000000 there); without counts, a makespan or JCT mean of exactly 0
 * (no job that ran has either). */
static bool finished_none(const char *metric, const struct counts *n, double mean)
{
	if (!needs_done(metric))
		return false;
	if (!isnan(n->n[N_DONE]))
		return n->n[N_DONE] == 0;
	return mean == 0 && strcmp(metric, "makespan_change_pct") != 0;
}

/* What the empty slot of a policy without a value says. */
static const char *none_label(const char *metric)
{
	return needs_done(metric) ? "no job done" : !strcmp(metric, "wait_mean_s") ? "no job started"
										     : "no value";
}

/* ---- titles --------------------------------------------------------- */

/* The sweep axes: the columns between `point` and `replications` (a
 * summary), or `replication` (types.csv); *first > *last when there are
 * none. */
static void axis_cols(const struct plot_csv *c, int *first, int *last)
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
static void title_prefix(const struct plot_csv *c, int scenario, int ref, int point, int skip,
			 char *buf, size_t len)
{
	int first, last;
	axis_cols(c, &first, &last);
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
static const char *metric_name(const char *metric, char *buf, size_t len)
{
	metric_label(metric, buf, len);
	size_t n = strlen(buf);
	if (!strcmp(metric, "makespan_s"))
		snprintf(buf, len, "execution time");
	else if (n > 3 && !strcmp(buf + n - 3, ", s"))
		buf[n - 3] = '\0';
	return buf;
}

/* subtitle: what a figure's values are, a mean over `reps` replications. */
static void reps_subtitle(struct plot_vars *v, int reps)
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
static void sum_titles(struct plot_vars *v, const struct plot_csv *c, const struct sum_cols *k,
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
	reps_subtitle(v, reps);
	if (extra && *extra)
		plot_var_str(v, "subtitle2", extra);
}

/* ---- baseline and changes ------------------------------------------- */

static int no_policy(const struct plot_csv *c, const struct names *pol, const char *name,
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
static int pick_baseline(const struct plot_csv *c, const struct sum_cols *k,
			 const struct names *pol, const struct plot_opts *o, int *ib,
			 const char **why, char *err, size_t errlen)
{
	*why = "--baseline";
	if (o->baseline) {
		*ib = names_find(pol, o->baseline);
		return *ib < 0 ? no_policy(c, pol, o->baseline, "baseline", err, errlen) : 0;
	}
	*ib = pol->n ? 0 : -1;
	*why = "first policy listed";
	for (int r = 0; k->base >= 0 && r < c->nrows; r++) {
		int b = names_find(pol, plot_csv_cell(c, r, k->base));
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
static int pick_compare(const struct plot_csv *c, const struct names *pol,
			const struct plot_opts *o, int ib, bool fallback, int *ic, char *err,
			size_t errlen)
{
	if (o->compare) {
		*ic = names_find(pol, o->compare);
		return *ic < 0 ? no_policy(c, pol, o->compare, "compare", err, errlen) : 0;
	}
	*ic = fallback ? names_find(pol, "label-dual") : -1;
	for (int p = 0; fallback && (*ic < 0 || *ic == ib) && p < pol->n; p++)
		*ic = p != ib ? p : -1;
	return 0;
}

/* The paired changes of makespan at `point` against baseline ib (rows
 * makespan_change_pct whose `baseline` names it; a file without that
 * column made them against its first policy). */
static int change_rows(const struct plot_csv *c, const struct sum_cols *k, int point,
		       const struct names *pol, int ib, struct ci *out, char *err, size_t errlen)
{
	if (select_metric(c, k, "makespan_change_pct", point, pol, out, err, errlen))
		return -1;
	for (int p = 0; p < pol->n; p++)
		if (out[p].row >= 0 && (k->base >= 0 ? strcmp(plot_csv_cell(c, out[p].row, k->base),
							      ib >= 0 ? pol->v[ib] : "")
						     : ib != 0))
			out[p] = (struct ci){NAN, NAN, NAN, 0, -1};
	return 0;
}

/* "−13.4 %", "+20.0 %", with " ± 2.1" where the interval's half-width
 * is known. */
static void pct_text(char *buf, size_t len, double pct, double lo, double hi)
{
	double a = fabs(pct) < 0.05 ? 0 : pct;
	snprintf(buf, len, "%s%.1f %%", a < 0 ? MINUS : "+", fabs(a));
	if (!isnan(lo) && !isnan(hi))
		snprintf(buf + strlen(buf), len - strlen(buf), " \xc2\xb1 %.1f", (hi - lo) / 2);
}

/* The annotation of compare's change against the baseline: paired,
 * "[WHO: ]−X % ± H against BASE (paired)"; else from the means c and b,
 * "[WHO: ]−X % (to Y % of BASE)". */
static void change_note(struct plot_vars *v, const char *who, const struct ci *paired, double c,
			double b, const char *base)
{
	char note[512], pct[64];
	snprintf(note, sizeof note, "%s%s", who ? who : "", who ? ": " : "");
	if (paired) {
		pct_text(pct, sizeof pct, paired->mean, paired->lo, paired->hi);
		snprintf(note + strlen(note), sizeof note - strlen(note), "%s against %s (paired)",
			 pct, base);
	} else {
		double r = c / b;
		snprintf(note + strlen(note), sizeof note - strlen(note), "%s%.1f %% (to %.1f %% of %s)",
			 r <= 1 ? MINUS : "+", fabs(1 - r) * 100, r * 100, base);
	}
	plot_var_str(v, "note", note);
}

/* A string field of a data file, in double quotes (a " becomes '). */
static void put_str(FILE *f, const char *s)
{
	fputs(" \"", f);
	for (; *s; s++)
		fputc(*s == '"' ? '\'' : *s, f);
	fputc('"', f);
}

static const char *const footnote_bars =
	WARN " jobs not done (failed, timed out or unplaceable): mean per replication, of the "
	"counted jobs";

/* ---- (a) policies --------------------------------------------------- */

/* The per-bar change labels: chg[p] for each policy with a value but
 * the baseline; returns whether they are paired. */
static bool bar_changes(const char *metric, const struct ci *ci, const struct ci *pc,
			const struct names *pol, int ib, char (*chg)[64])
{
	bool paired = false, is_change = !strcmp(metric, "makespan_change_pct");
	for (int p = 0; p < pol->n; p++)
		paired |= !strcmp(metric, "makespan_s") && !isnan(pc[p].mean);
	for (int p = 0; p < pol->n; p++) {
		chg[p][0] = '\0';
		if (p == ib || ib < 0 || isnan(ci[p].mean) || isnan(ci[ib].mean) || is_change)
			continue;
		if (paired && !isnan(pc[p].mean))
			pct_text(chg[p], sizeof chg[p], pc[p].mean, pc[p].lo, pc[p].hi);
		else if (!paired && ci[ib].mean > 0)
			pct_text(chg[p], sizeof chg[p], 100 * (ci[p].mean / ci[ib].mean - 1), NAN, NAN);
	}
	return paired;
}

int plot_prep_policies(const struct plot_csv *sum, const struct plot_opts *o, FILE *dat,
		       struct plot_vars *v, char *err, size_t errlen)
{
	const char *metric = o->metric ? o->metric : "makespan_s", *why;
	struct sum_cols k;
	struct names pol;
	struct ci ci[MAX_NAMES], pc[MAX_NAMES];
	struct counts cnt[MAX_NAMES];
	bool present[MAX_NAMES], none[MAX_NAMES];
	int ic, ib;
	if (sum_cols(sum, &k, &pol, err, errlen) ||
	    select_metric(sum, &k, metric, o->point, &pol, ci, err, errlen) ||
	    point_counts(sum, &k, o->point, &pol, cnt, err, errlen) ||
	    pick_baseline(sum, &k, &pol, o, &ib, &why, err, errlen) ||
	    pick_compare(sum, &pol, o, ib, false, &ic, err, errlen) ||
	    change_rows(sum, &k, o->point, &pol, ib, pc, err, errlen))
		return -1;
	int ref = point_present(sum, &k, o->point, &pol, present), nval = 0, nnone = 0;
	for (int p = 0; p < pol.n; p++) {
		if ((none[p] = finished_none(metric, &cnt[p], ci[p].mean)))
			ci[p].mean = ci[p].lo = ci[p].hi = NAN;
		if (finished_none("makespan_change_pct", &cnt[p], pc[p].mean))
			pc[p].mean = NAN;
		nval += !isnan(ci[p].mean);
		nnone += none[p];
	}
	if (nval == 0 && nnone == 0) {
		snprintf(err, errlen, "%s: no value of metric '%s' at point %d", sum->path, metric,
			 o->point);
		return -1;
	}
	char chg[MAX_NAMES][64], mark[MAX_NAMES][128];
	bool paired = bar_changes(metric, ci, pc, &pol, ib, chg), any_chg = false, any_mark = false;
	const char *col[MAX_NAMES];
	colours_for(policy_colours, &pol, col);
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
		mark_text(&cnt[p], false, mark[p], sizeof mark[p]);
		fprintf(dat, "%d", n++);
		put_str(dat, pol.v[p]);
		put_num(dat, " ", ci[p].mean);
		put_num(dat, " ", ci[p].lo);
		put_num(dat, " ", ci[p].hi);
		put_num(dat, " ", top);
		fprintf(dat, " %ld", strtol(col[p] + 1, NULL, 16));
		if (isnan(top)) /* the baseline has no change against itself */
			snprintf(label, sizeof label, "%s", p == ib && !strcmp(metric, "makespan_change_pct")
				 ? "baseline" : none_label(metric));
		put_str(dat, label);
		put_num(dat, " ", isnan(top) ? 0 : top);
		put_str(dat, chg[p]);
		put_str(dat, mark[p]);
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
	snprintf(what, sizeof what, "%s per policy", metric_name(metric, name, sizeof name));
	title_prefix(sum, k.scenario, ref, o->point, -1, pre, sizeof pre);
	sum_titles(v, sum, &k, metric, pre, what, extra);
	metric_label(metric, label, sizeof label);
	plot_var_str(v, "ylabel", label);
	plot_var_num(v, "n", n);
	plot_var_num(v, "ymax", ymax > 0 ? ymax * (1.15 + 0.1 * (1 + any_chg + any_mark)) : 1);
	if (any_mark)
		plot_var_str(v, "footnote", footnote_bars);
	if (ic >= 0 && ib >= 0 && ic != ib && !isnan(ci[ic].mean) && !isnan(ci[ib].mean) &&
	    (paired ? !isnan(pc[ic].mean) : ci[ib].mean > 0)) {
		change_note(v, pol.v[ic], paired ? &pc[ic] : NULL, ci[ic].mean, ci[ib].mean,
			    pol.v[ib]);
		plot_var_str(v, "notecolour", col[ic]);
	}
	return 0;
}

/* ---- (a) jct-by-type ------------------------------------------------ */

/* The columns of types.csv the figure reads: policy, model and
 * jct_mean_s, required; the point (absent in a hetsim run's: point 0),
 * the scenario and the counts, -1 where absent. */
struct type_cols {
	int policy, model, jct;
	int point, scenario;
	int n[N_KINDS];          /* by count_metrics */
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
	for (int i = 0; i < N_KINDS; i++)
		k->n[i] = col_after(c, count_metrics[i], rep);
	return 0;
}

/* One (policy, model) at the point: the mean and interval of its
 * replications' jct_mean_s (a replication with done 0 has none, whatever
 * its row holds), and its jobs by status summed over them (NaN without
 * the column). */
struct type_slot {
	int reps;                /* its rows */
	struct ci ci;            /* NaN without a value */
	double n[N_KINDS];
};

static int type_slot(const struct plot_csv *c, const struct type_cols *k, int point,
		     const char *pol, const char *model, double *x, struct type_slot *out,
		     char *err, size_t errlen)
{
	int nx = 0;
	*out = (struct type_slot){0, {NAN, NAN, NAN, 0, -1}, {0}};
	for (int i = 0; i < N_KINDS; i++)
		out->n[i] = k->n[i] < 0 ? NAN : 0;
	for (int r = 0; r < c->nrows; r++) {
		if (!cell_is_int(c, r, k->point, point) || strcmp(plot_csv_cell(c, r, k->policy), pol) ||
		    strcmp(plot_csv_cell(c, r, k->model), model))
			continue;
		double v, n[N_KINDS];
		int e = cell_num(c, r, k->jct, &v, err, errlen);
		for (int i = 0; i < N_KINDS && e >= 0; i++)
			if (k->n[i] >= 0 && cell_num(c, r, k->n[i], &n[i], err, errlen) < 0)
				e = -1;
		if (e < 0)
			return -1;
		for (int i = 0; i < N_KINDS; i++)
			out->n[i] += k->n[i] >= 0 && !isnan(n[i]) ? n[i] : 0;
		if (e == 0 && !(k->n[N_DONE] >= 0 && n[N_DONE] == 0))
			x[nx++] = v;
		out->reps++;
	}
	struct cmd_ci ci;
	cmd_ci95(x, nx, &ci);
	out->ci = (struct ci){ci.mean, nx > 1 ? ci.mean - ci.half : NAN,
			      nx > 1 ? ci.mean + ci.half : NAN, 0, -1};
	return 0;
}

/* The policies of types.csv (all rows, in order of first appearance),
 * those with a row at `point` (present), and the models at `point`, in
 * the fixed order; the row of the first, -1 if none. */
static int type_names(const struct plot_csv *c, const struct type_cols *k, int point,
		      struct names *pol, bool *present, struct names *models, char *err,
		      size_t errlen)
{
	int ref = -1;
	pol->n = models->n = 0;
	for (int p = 0; p < MAX_NAMES; p++)
		present[p] = false;
	for (int r = 0; r < c->nrows; r++) {
		int p = names_add(pol, plot_csv_cell(c, r, k->policy));
		bool here = cell_is_int(c, r, k->point, point);
		if (p < 0 || (here && names_add(models, plot_csv_cell(c, r, k->model)) < 0)) {
			snprintf(err, errlen, "%s:%d: more than %d %s", c->path, c->line[r], MAX_NAMES,
				 p < 0 ? "policies" : "job models");
			return -2;
		}
		if (here) {
			present[p] = true;
			ref = ref < 0 ? r : ref;
		}
	}
	order_types(models);
	return ref;
}

int plot_prep_jct_by_type(const struct plot_csv *types, const struct plot_opts *o, FILE *dat,
			  struct plot_vars *v, char *err, size_t errlen)
{
	struct type_cols k;
	struct names pol, models = {{0}, 0};
	bool present[MAX_NAMES];
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
	static struct type_slot slot[MAX_NAMES][MAX_NAMES];
	struct counts cnt[MAX_NAMES];
	double *x = xmalloc(((size_t)plot_csv_rows(types) + 1) * sizeof *x);
	int reps = 0;
	for (int p = 0; p < pol.n; p++) {
		int rp = 0;
		double sum[N_KINDS] = {0};
		for (int t = 0; t < models.n && present[p]; t++) {
			if (type_slot(types, &k, o->point, pol.v[p], models.v[t], x, &slot[t][p], err,
				      errlen)) {
				free(x);
				return -1;
			}
			rp = slot[t][p].reps > rp ? slot[t][p].reps : rp;
			for (int i = 0; i < N_KINDS; i++)
				sum[i] += slot[t][p].n[i];
		}
		for (int i = 0; i < N_KINDS; i++)
			cnt[p].n[i] = rp ? sum[i] / rp : NAN;
		reps = reps ? reps : rp;
	}
	free(x);
	const char *col[MAX_NAMES], *shown_col[MAX_NAMES], *keys[MAX_NAMES];
	char kbuf[MAX_NAMES][256];
	struct names shown_p = {{0}, 0};
	bool any_mark = false;
	colours_for(policy_colours, &pol, col);
	for (int p = 0; p < pol.n; p++)
		if (present[p]) {
			char mark[128];
			mark_text(&cnt[p], false, mark, sizeof mark);
			snprintf(kbuf[shown_p.n], sizeof kbuf[0], "%s%s%s", pol.v[p], *mark ? "  " : "",
				 mark);
			any_mark |= *mark != '\0';
			keys[shown_p.n] = kbuf[shown_p.n];
			shown_col[shown_p.n] = col[p];
			names_add(&shown_p, pol.v[p]);
		}
	double w = 0.8 / shown_p.n, ymax = 0;
	for (int i = 0; i < shown_p.n; i++) {
		int p = names_find(&pol, shown_p.v[i]), rows = 0;
		fprintf(dat, "%s# %s: x mean ci95_lo ci95_hi\n", i ? "\n\n" : "", pol.v[p]);
		for (int t = 0; t < models.n; t++) {
			const struct ci *c = &slot[t][p].ci;
			if (isnan(c->mean))
				continue;
			put_num(dat, "", t + (i - (shown_p.n - 1) / 2.0) * w);
			put_num(dat, " ", c->mean);
			put_num(dat, " ", c->lo);
			put_num(dat, " ", c->hi);
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
		for (int t = 0, p = names_find(&pol, shown_p.v[i]); t < models.n; t++)
			if (isnan(slot[t][p].ci.mean)) {
				put_num(dat, "", t + (i - (shown_p.n - 1) / 2.0) * w);
				put_str(dat, "no job done");
				fprintf(dat, " %ld\n", strtol(col[p] + 1, NULL, 16));
				nempty++;
			}
	if (!nempty) /* a row gnuplot can place: a labels block without one crashes it (5.4) */
		fputs("0 \"\" 0\n", dat);
	char title[1200], pre[1024];
	title_prefix(types, k.scenario, ref, o->point, -1, pre, sizeof pre);
	snprintf(title, sizeof title, "%smean job completion time by job type", pre);
	plot_var_str(v, "figtitle", title);
	reps_subtitle(v, reps);
	plot_var_str(v, "ylabel", "mean job completion time, s");
	var_words(v, "policies", shown_p.v, shown_p.n);
	var_words(v, "keys", keys, shown_p.n);
	var_words(v, "colours", shown_col, shown_p.n);
	var_words(v, "types", models.v, models.n);
	plot_var_num(v, "boxw", w * 0.9);
	plot_var_num(v, "ymax", ymax > 0 ? ymax * 1.15 : 1);
	if (any_mark)
		plot_var_str(v, "footnote", footnote_bars);
	return 0;
}

/* ---- (b) sweep ------------------------------------------------------ */

/* One (policy, point) of the sweep's slice. */
struct sweep_pt {
	int pol, point;
	const char *xs;  /* the axis value as written */
	double x;
	struct ci v;     /* the metric; NaN when none */
	struct ci chg;   /* makespan_change_pct against the baseline */
	struct counts n;
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
	axis_cols(c, first, last);
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
static int point_row(const struct plot_csv *c, const struct sum_cols *k, int point, char *err,
		     size_t errlen)
{
	for (int r = 0; r < c->nrows; r++)
		if (cell_is_int(c, r, k->point, point))
			return r;
	snprintf(err, errlen, "%s: no sweep point %d (--point)", c->path, point);
	return -1;
}

/* The rows of the slice (the other axes held at their values in row
 * `ref`) that a sweep figure reads: the metric, the counts and the
 * paired changes.  *n into *out (owned), sorted by (policy, point). */
static int slice_rows(const struct plot_csv *c, const struct sum_cols *k, const struct names *pol,
		      const char *metric, int first, int last, int axis, int ref, struct ent **out,
		      int *n, char *err, size_t errlen)
{
	int cap = 0;
	*out = NULL;
	*n = 0;
	for (int r = 0; r < c->nrows; r++) {
		const char *m = plot_csv_cell(c, r, k->metric);
		bool keep = !strcmp(m, metric) || count_kind(m) >= 0 ||
			    !strcmp(m, "makespan_change_pct");
		for (int a = first; keep && a <= last; a++)
			keep = a == axis || !strcmp(plot_csv_cell(c, r, a), plot_csv_cell(c, ref, a));
		if (!keep)
			continue;
		double pt;
		if (cell_num(c, r, k->point, &pt, err, errlen) < 0)
			return -1;
		xgrow(out, &cap, *n + 1, sizeof **out);
		(*out)[(*n)++] = (struct ent){names_find(pol, plot_csv_cell(c, r, k->policy)),
					      isnan(pt) ? 0 : (int)pt, r};
	}
	qsort(*out, (size_t)*n, sizeof **out, ent_cmp);
	return 0;
}

/* Read one row into its slot s. */
static int slot_row(const struct plot_csv *c, const struct sum_cols *k, const struct names *pol,
		    const char *metric, int ib, int r, struct sweep_pt *s, char *err, size_t errlen)
{
	const char *m = plot_csv_cell(c, r, k->metric);
	int kind = count_kind(m);
	if (!strcmp(m, metric)) {
		if (s->v.line) {
			snprintf(err, errlen, "%s:%d: a second row for policy '%s', metric '%s', point %d"
				 " (first on line %d)", c->path, c->line[r], pol->v[s->pol], metric,
				 s->point, s->v.line);
			return -1;
		}
		s->v.line = c->line[r];
		s->v.row = r;
		if (cell_num(c, r, k->mean, &s->v.mean, err, errlen) < 0 ||
		    cell_num(c, r, k->lo, &s->v.lo, err, errlen) < 0 ||
		    cell_num(c, r, k->hi, &s->v.hi, err, errlen) < 0)
			return -1;
	}
	if (kind >= 0 && cell_num(c, r, k->mean, &s->n.n[kind], err, errlen) < 0)
		return -1;
	if (!strcmp(m, "makespan_change_pct") &&
	    (k->base >= 0 ? ib >= 0 && !strcmp(plot_csv_cell(c, r, k->base), pol->v[ib]) : ib == 0)) {
		s->chg.line = c->line[r];
		if (cell_num(c, r, k->mean, &s->chg.mean, err, errlen) < 0 ||
		    cell_num(c, r, k->lo, &s->chg.lo, err, errlen) < 0 ||
		    cell_num(c, r, k->hi, &s->chg.hi, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The slots (policy, point) of the slice along the axis, *n into *out
 * (owned); a policy that finished no job at a point has none set and no
 * value. */
static int sweep_slots(const struct plot_csv *c, const struct sum_cols *k, const struct names *pol,
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
		if ((s->none = finished_none(metric, &s->n, s->v.mean)))
			s->v.mean = s->v.lo = s->v.hi = NAN;
		if (finished_none("makespan_change_pct", &s->n, s->chg.mean))
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
			const struct names *pol, int axis, const char **col, struct names *shown,
			const char **shown_col)
{
	for (int i = 0, rows = 0, gap = 0; i < n; i++) {
		if (!i || s[i].pol != s[i - 1].pol) {
			fprintf(dat, "%s# %s: %s mean ci95_lo ci95_hi\n", i ? "\n\n" : "",
				pol->v[s[i].pol], sum->hdr[axis]);
			shown_col[shown->n] = col[s[i].pol];
			names_add(shown, pol->v[s[i].pol]);
			rows = gap = 0;
		}
		if (isnan(s[i].v.mean)) {
			gap = rows > 0;
		} else {
			if (gap)
				fputc('\n', dat);
			put_num(dat, "", s[i].x);
			put_num(dat, " ", s[i].v.mean);
			put_num(dat, " ", isnan(s[i].v.lo) ? s[i].v.mean : s[i].v.lo);
			put_num(dat, " ", isnan(s[i].v.hi) ? s[i].v.mean : s[i].v.hi);
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
static bool sweep_labels(FILE *dat, const struct sweep_pt *s, int n, const struct names *pol,
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
		put_num(dat, "", s[i].x + (k - (all - 1) / 2.0) * dx);
		fputs(" 0", dat);
		put_str(dat, label);
		fprintf(dat, " %ld\n", strtol(col[s[i].pol] + 1, NULL, 16));
		rows++;
	}
	if (!rows) /* a row gnuplot can place: a labels block without one crashes it (5.4) */
		fprintf(dat, "%.9g 0 \"\" 0\n", s[0].x);
	int marks = 0;
	fprintf(dat, "\n\n# jobs not done: x y label colour\n");
	for (int i = 0; i < n; i++) {
		char mark[128];
		mark_text(&s[i].n, true, mark, sizeof mark);
		if (isnan(s[i].v.mean) || !*mark)
			continue;
		put_num(dat, "", s[i].x);
		put_num(dat, " ", s[i].v.mean);
		put_str(dat, mark);
		fprintf(dat, " %ld\n", strtol(col[s[i].pol] + 1, NULL, 16));
		marks++;
	}
	if (!marks)
		fprintf(dat, "%.9g 0 \"\" 0\n", s[0].x);
	return marks > 0;
}

/* The arrow: compare ic against baseline ib at the largest x where both
 * have a value; returns whether it was set (and if paired). */
static bool sweep_note(struct plot_vars *v, const struct sweep_pt *s, int n, const char *metric,
		       const struct names *pol, int ic, int ib, const char **col, bool *paired)
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
	change_note(v, pol->v[ic], *paired ? &s[bi].chg : NULL, s[bi].v.mean, s[bj].v.mean,
		    pol->v[ib]);
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
	struct sum_cols k;
	struct names pol, shown = {{0}, 0};
	struct sweep_pt *s = NULL;
	int first, last, axis, n, ic, ib, ref = 0, rc;
	if ((rc = sum_cols(sum, &k, &pol, err, errlen)) ||
	    (rc = sweep_axis(sum, o, &first, &last, &axis, err, errlen)) ||
	    (rc = pick_baseline(sum, &k, &pol, o, &ib, &why, err, errlen)) ||
	    (rc = pick_compare(sum, &pol, o, ib, true, &ic, err, errlen)) ||
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
	const char *col[MAX_NAMES], *shown_col[MAX_NAMES];
	colours_for(policy_colours, &pol, col);
	sweep_lines(dat, s, n, sum, &pol, axis, col, &shown, shown_col);
	bool marks = sweep_labels(dat, s, n, &pol, col), paired = false;
	char what[512], label[256], name[256], pre[1024], extra[512] = "";
	if (sweep_note(v, s, n, metric, &pol, ic, ib, col, &paired))
		snprintf(extra, sizeof extra, "change of %s against %s (%s): %s", pol.v[ic],
			 pol.v[ib], why, paired ? "mean of paired changes" : "ratio of means");
	snprintf(what, sizeof what, "%s against %s", metric_name(metric, name, sizeof name),
		 sum->hdr[axis]);
	title_prefix(sum, k.scenario, ref, o->point, axis, pre, sizeof pre);
	sum_titles(v, sum, &k, metric, pre, what, extra);
	metric_label(metric, label, sizeof label);
	plot_var_str(v, "ylabel", label);
	plot_var_str(v, "xlabel", sum->hdr[axis]);
	var_words(v, "policies", shown.v, shown.n);
	var_words(v, "colours", shown_col, shown.n);
	if (marks)
		plot_var_str(v, "footnote", WARN " n/N: jobs not done (failed, timed out or "
			     "unplaceable) of the N counted, mean per replication");
	free(s);
	return 0;
}

/* ---- runs.csv summarised -------------------------------------------- */

/* One metric of one group of runs: "mean,sd,ci95_half,ci95_lo,ci95_hi"
 * (empty fields when undefined). */
static void put_stats(FILE *m, const double *x, int n)
{
	struct cmd_ci ci;
	if (n == 0) {
		fputs(",,,,", m);
		return;
	}
	cmd_ci95(x, n, &ci); /* the statistics of hetsim sweep's summary.csv */
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
	if (cell_num(runs, r, kmk, x, err, errlen) < 0 ||
	    (kdone >= 0 && cell_num(runs, r, kdone, &d, err, errlen) < 0))
		return -1;
	if (d == 0)
		*x = NAN;
	return 0;
}

/* The makespans of policy pol at point pt by replication number into
 * out[0 .. nr) (NaN where it has none), marking its rows in seen (if
 * not NULL).  -1 and err on a malformed number. */
static int makespans_by_rep(const struct plot_csv *runs, const char *pol, const char *pt,
			    double *out, size_t nr, bool *seen, char *err, size_t errlen)
{
	int kp = plot_csv_col(runs, "policy"), kpt = plot_csv_col(runs, "point"),
	    krep = plot_csv_col(runs, "replication"), kmk = plot_csv_col(runs, "makespan_s"),
	    kdone = plot_csv_col(runs, "done");
	for (size_t i = 0; i < nr; i++)
		out[i] = NAN;
	for (int r = 0; r < runs->nrows; r++) {
		double rep, y;
		if (strcmp(plot_csv_cell(runs, r, kp), pol) || strcmp(plot_csv_cell(runs, r, kpt), pt))
			continue;
		if (seen)
			seen[r] = true;
		if (cell_num(runs, r, krep, &rep, err, errlen) < 0 ||
		    row_makespan(runs, r, kmk, kdone, &y, err, errlen) < 0)
			return -1;
		if (rep >= 0 && rep < (double)nr)
			out[(size_t)rep] = y;
	}
	return 0;
}

/* makespan_change_pct rows, as hetsim sweep writes them: for each
 * policy but the baseline, at each point, the paired changes
 * (cmd_paired_changes) against the baseline's replication of the same
 * number at the same point. */
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
		if (cell_num(runs, r, krep, &rep, err, errlen) < 0)
			return -1;
		if (rep > maxrep && rep < 1e7) /* the loader's limit is 10^6 */
			maxrep = rep;
	}
	size_t nr = (size_t)maxrep + 1;
	double *x = xmalloc(nr * sizeof *x), *av = xmalloc(nr * sizeof *av),
	       *bv = xmalloc(nr * sizeof *bv);
	bool *seen = xcalloc((size_t)runs->nrows + 1, sizeof *seen);
	int rc = 0;
	for (int g = 0; g < runs->nrows && !rc; g++) {
		const char *pol = plot_csv_cell(runs, g, kp), *pt = plot_csv_cell(runs, g, kpt);
		if (seen[g] || !strcmp(pol, base))
			continue;
		rc = makespans_by_rep(runs, base, pt, bv, nr, NULL, err, errlen) ||
		     makespans_by_rep(runs, pol, pt, av, nr, seen, err, errlen);
		int n = rc ? 0 : cmd_paired_changes(av, bv, (int)nr, x);
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
						  "point"};
	int kp, kpt = plot_csv_col(runs, "point"), ksc = plot_csv_col(runs, "scenario"),
	    kdone = plot_csv_col(runs, "done");
	if (need_cols(runs, need, &kp, err, errlen))
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
				int e = cell_num(runs, r, c, &x[n], err, errlen);
				if (e == 0 && needs_done(runs->hdr[c]) && kdone >= 0)
					e = cell_num(runs, r, kdone, &d, err, errlen) < 0 ? -1 : d == 0;
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
	return csv_parse(runs->path, text, err, errlen);
}

/* ---- nodes ---------------------------------------------------------- */

void plot_nodes_from_scn(const struct scn *s, struct plot_nodes *out)
{
	out->n = 0;
	for (int g = 0; g < s->ngroups; g++)
		out->n += s->groups[g].count;
	out->v = xcalloc((size_t)out->n + 1, sizeof *out->v);
	struct plot_node *p = out->v;
	for (int g = 0; g < s->ngroups; g++) {
		const struct scn_node_group *ng = &s->groups[g];
		const char *label = "unlabelled";
		for (int b = 0; b < s->nlabels; b++)
			if (ng->labels >> b & 1 &&
			    (!strcmp(s->label_names[b], "gpu") || !strcmp(s->label_names[b], "cpu"))) {
				label = s->label_names[b];
				break;
			}
		for (int b = 0; b < s->nlabels && !strcmp(label, "unlabelled"); b++)
			if (ng->labels >> b & 1)
				label = s->label_names[b];
		for (int i = 0; i < ng->count; i++, p++) {
			snprintf(p->name, sizeof p->name, "%s-%d", ng->name, i);
			snprintf(p->label, sizeof p->label, "%s", label);
			snprintf(p->model, sizeof p->model, "%s",
				 ng->gpus > 0 && ng->gpu_model ? ng->gpu_model : "");
			p->cores = ng->cores;
			p->gpus = ng->gpus;
		}
	}
}

void plot_nodes_free(struct plot_nodes *n)
{
	free(n->v);
	n->v = NULL;
	n->n = 0;
}

/* ---- executors.csv -------------------------------------------------- */

struct exec_cols {
	int policy, rep, node, type, launch, ready, end; /* required */
	int id, gpus, cores, point, gfrom, gto;         /* -1 if absent */
};

static int exec_cols(const struct plot_csv *c, struct exec_cols *k, char *err, size_t errlen)
{
	static const char *const need[] = {"policy", "replication", "node", "type", "launch_s",
					   "ready_s", "end_s", "cores", NULL};
	int i[8];
	if (need_cols(c, need, i, err, errlen))
		return -1;
	*k = (struct exec_cols){i[0], i[1], i[2], i[3], i[4], i[5], i[6],
				plot_csv_col(c, "executor"), plot_csv_col(c, "gpus"), i[7],
				plot_csv_col(c, "point"), plot_csv_col(c, "gpu_from_s"),
				plot_csv_col(c, "gpu_to_s")};
	return 0;
}

static bool exec_row_in(const struct plot_csv *c, const struct exec_cols *k, int r,
			const struct plot_opts *o)
{
	return cell_is_int(c, r, k->rep, o->replication) && cell_is_int(c, r, k->point, o->point) &&
	       (!o->policy || !strcmp(plot_csv_cell(c, r, k->policy), o->policy));
}

int plot_policies_of(const struct plot_csv *ex, const struct plot_opts *o, const char **names,
		     int max)
{
	struct exec_cols k;
	char err[8];
	struct plot_opts any = *o;
	any.policy = NULL;
	int n = 0;
	if (exec_cols(ex, &k, err, sizeof err))
		return 0;
	for (int r = 0; r < ex->nrows; r++) {
		const char *p = plot_csv_cell(ex, r, k.policy);
		bool seen = false;
		for (int i = 0; i < n; i++)
			seen |= !strcmp(names[i], p);
		if (!seen && n < max && exec_row_in(ex, &k, r, &any))
			names[n++] = p;
	}
	return n;
}

double plot_exec_end(const struct plot_csv *ex, const struct plot_opts *o)
{
	struct exec_cols k;
	char err[8];
	struct plot_opts any = *o;
	any.policy = NULL;
	double end = 0;
	if (exec_cols(ex, &k, err, sizeof err))
		return 0;
	for (int r = 0; r < ex->nrows; r++) {
		if (!exec_row_in(ex, &k, r, &any))
			continue;
		int col[3] = {k.launch, k.ready, k.end};
		for (int i = 0; i < 3; i++) {
			double t;
			if (cell_num(ex, r, col[i], &t, err, sizeof err) == 0)
				end = fmax(end, t);
		}
	}
	return end;
}

/* One executor of the figure. */
struct gx {
	int node, type, gpus, id, lane;
	double cores;   /* executors.csv's: whole, or a trace's fractions */
	double l, r, e; /* launch, ready, end: s; r NaN if never ready */
	double gf, gt;  /* held GPUs from, to: s (launch..end in files
			   without gpu_from_s, gpu_to_s) */
	int line;
};

/* Node names "group-i" in group then index order. */
static int node_cmp(const char *a, const char *b)
{
	const char *da = strrchr(a, '-'), *db = strrchr(b, '-');
	if (da && db && da - a == db - b && !strncmp(a, b, (size_t)(da - a)) &&
	    strspn(da + 1, "0123456789") == strlen(da + 1) && strspn(db + 1, "0123456789") ==
	    strlen(db + 1) && da[1] && db[1]) {
		long x = atol(da + 1), y = atol(db + 1);
		return (x > y) - (x < y);
	}
	return strcmp(a, b);
}

static int gx_cmp(const void *a, const void *b)
{
	const struct gx *p = a, *q = b;
	if (p->node != q->node)
		return p->node - q->node;
	if (p->l != q->l)
		return (p->l > q->l) - (p->l < q->l);
	return p->id - q->id;
}

/* The figure's node rows: the scenario's, or the nodes that appear. */
struct node_rows {
	const char **name; /* into nodes or the CSV */
	int n, cap;
};

static int row_of(struct node_rows *nr, const struct plot_nodes *nodes, const char *name)
{
	for (int i = 0; i < nr->n; i++) /* O(nodes) scan: fine for lab-sized clusters */
		if (!strcmp(nr->name[i], name))
			return i;
	if (nodes)
		return -1;
	xgrow(&nr->name, &nr->cap, nr->n + 1, sizeof *nr->name);
	nr->name[nr->n] = name;
	return nr->n++;
}

/* The executors of (o->policy, o->replication), times checked.  Node
 * rows: nodes' in cluster order if given, else sorted by name. */
static int gather(const struct plot_csv *ex, const struct plot_nodes *nodes,
		  const struct plot_opts *o, struct node_rows *nr, struct names *types,
		  struct gx **out, int *n, double *tmax, char *err, size_t errlen)
{
	struct exec_cols k;
	int cap = 0;
	*out = NULL;
	*n = 0;
	*tmax = 0;
	if (exec_cols(ex, &k, err, errlen))
		return -1;
	for (int i = 0; nodes && i < nodes->n; i++)
		row_of(nr, NULL, nodes->v[i].name);
	for (int r = 0; r < ex->nrows; r++) {
		if (!exec_row_in(ex, &k, r, o))
			continue;
		xgrow(out, &cap, *n + 1, sizeof **out);
		struct gx *g = &(*out)[(*n)++];
		double id = 0, gpus = 0, cores;
		g->line = ex->line[r];
		g->node = row_of(nr, nodes, plot_csv_cell(ex, r, k.node));
		if (g->node < 0) {
			snprintf(err, errlen, "%s:%d: node '%s' is not in the scenario", ex->path,
				 ex->line[r], plot_csv_cell(ex, r, k.node));
			return -1;
		}
		g->type = names_add(types, plot_csv_cell(ex, r, k.type));
		if (g->type < 0) {
			snprintf(err, errlen, "%s:%d: more than %d job types", ex->path, ex->line[r],
				 MAX_NAMES);
			return -1;
		}
		int el = cell_num(ex, r, k.launch, &g->l, err, errlen),
		    ec = cell_num(ex, r, k.cores, &cores, err, errlen);
		if (el < 0 || ec < 0 || cell_num(ex, r, k.ready, &g->r, err, errlen) < 0 ||
		    cell_num(ex, r, k.end, &g->e, err, errlen) < 0 ||
		    cell_num(ex, r, k.id, &id, err, errlen) < 0 ||
		    cell_num(ex, r, k.gpus, &gpus, err, errlen) < 0)
			return -1;
		if (el || ec) {
			snprintf(err, errlen, "%s:%d: an executor without %s", ex->path, ex->line[r],
				 el ? "launch_s" : "cores");
			return -1;
		}
		if (g->r < g->l || g->e < fmax(g->l, isnan(g->r) ? g->l : g->r)) {
			snprintf(err, errlen, "%s:%d: times out of order (launch_s <= ready_s <= "
				 "end_s)", ex->path, ex->line[r]);
			return -1;
		}
		g->id = isnan(id) ? r : (int)id;
		g->gpus = isnan(gpus) ? 0 : (int)gpus;
		g->gf = g->l;
		g->gt = g->e;
		if (cell_num(ex, r, k.gfrom, &g->gf, err, errlen) < 0 ||
		    cell_num(ex, r, k.gto, &g->gt, err, errlen) < 0)
			return -1;
		if (isnan(g->gf) || isnan(g->gt)) { /* never held, or an old file */
			g->gf = g->l;
			g->gt = g->e;
		}
		if (g->gpus > 0 && (g->gf < g->l || g->gt < g->gf || g->gt > g->e)) {
			snprintf(err, errlen, "%s:%d: GPU times out of order (launch_s <= "
				 "gpu_from_s <= gpu_to_s <= end_s)", ex->path, ex->line[r]);
			return -1;
		}
		g->cores = cores;
		*tmax = fmax(*tmax, fmax(g->l, fmax(isnan(g->r) ? 0 : g->r, isnan(g->e) ? 0 : g->e)));
	}
	if (*n == 0) {
		const char *pols[MAX_NAMES];
		char all[1024] = "";
		int np = plot_policies_of(ex, o, pols, MAX_NAMES);
		for (int i = 0; i < np; i++)
			snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? ", " : "",
				 pols[i]);
		snprintf(err, errlen, "%s: no executor of policy '%s' in replication %d (policies "
			 "there: %s)", ex->path, o->policy ? o->policy : "", o->replication,
			 np ? all : "none");
		return -1;
	}
	for (int i = 0; i < *n; i++) /* never released: shown to the end */
		if (isnan((*out)[i].e))
			(*out)[i].e = *tmax;
	return 0;
}

/* "policy, replication K[, point P]" for titles. */
static void run_name(const struct plot_csv *ex, const struct plot_opts *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s, replication %d", o->policy ? o->policy : "", o->replication);
	if (plot_csv_col(ex, "point") >= 0)
		snprintf(buf + strlen(buf), len - strlen(buf), ", point %d", o->point);
}

static void put_box(FILE *dat, double x0, double x1, double y0, double y1)
{
	put_num(dat, "", x0);
	put_num(dat, " ", x1);
	put_num(dat, " ", y0);
	put_num(dat, " ", y1);
	fputc('\n', dat);
}

/* Sub-rows ("lanes") within each node: greedy interval partitioning, so
 * executors that overlap in time never overlap on the page.  g sorted by
 * (node, launch).  lanes[node] receives the lanes each node needs. */
static void assign_lanes(struct gx *g, int n, int *lanes)
{
	double *end = xmalloc(((size_t)n + 1) * sizeof *end);
	for (int i = 0, nl = 0; i < n; i++) {
		if (i == 0 || g[i].node != g[i - 1].node)
			nl = 0;
		int k = 0;
		while (k < nl && end[k] > g[i].l)
			k++;
		if (k == nl)
			nl++;
		end[k] = g[i].e;
		g[i].lane = k;
		lanes[g[i].node] = nl;
	}
	free(end);
}

/* Without a scenario, node rows go in name order (group, then index). */
static int row_cmp(const void *a, const void *b)
{
	return node_cmp(*(const char *const *)a, *(const char *const *)b);
}

static void sort_rows(struct node_rows *nr, struct gx *g, int n)
{
	const char **old = xmalloc(((size_t)nr->n + 1) * sizeof *old);
	int *to = xmalloc(((size_t)nr->n + 1) * sizeof *to);
	memcpy(old, nr->name, (size_t)nr->n * sizeof *old);
	qsort(nr->name, (size_t)nr->n, sizeof *nr->name, row_cmp);
	for (int i = 0; i < nr->n; i++)
		for (int j = 0; j < nr->n; j++) /* O(nodes^2): fine for lab-sized clusters */
			if (old[i] == nr->name[j])
				to[i] = j;
	for (int i = 0; i < n; i++)
		g[i].node = to[g[i].node];
	free(old);
	free(to);
}

/* A box per executor of type t: its start-up (phase 0) or its run. */
static void gantt_boxes(FILE *dat, const struct gx *g, int n, const double *y0, int t, int phase)
{
	for (int i = 0; i < n; i++) {
		if (g[i].type != t)
			continue;
		double y = y0[g[i].node] + g[i].lane, r = isnan(g[i].r) ? g[i].e : g[i].r;
		put_box(dat, phase ? r : g[i].l, phase ? g[i].e : r, y + 0.08, y + 0.92);
	}
}

int plot_prep_gantt(const struct plot_csv *ex, const struct plot_nodes *nodes,
		    const struct plot_opts *o, FILE *dat, struct plot_vars *v, char *err,
		    size_t errlen)
{
	struct node_rows nr = {NULL, 0, 0};
	struct names types = {{0}, 0};
	struct gx *g;
	int n;
	double tmax;
	if (gather(ex, nodes, o, &nr, &types, &g, &n, &tmax, err, errlen)) {
		free(g);
		free(nr.name);
		return -1;
	}
	if (!nodes)
		sort_rows(&nr, g, n);
	struct names seen = types;
	order_types(&types);
	for (int i = 0; i < n; i++)
		g[i].type = names_find(&types, seen.v[g[i].type]);
	int *lanes = xcalloc((size_t)nr.n, sizeof *lanes);
	qsort(g, (size_t)n, sizeof *g, gx_cmp);
	assign_lanes(g, n, lanes);

	/* the time axis: this run's, or the one shared by every figure drawn */
	tmax = fmax(tmax, o->xmax);

	/* node i spans [y0[i], y0[i] + max(1, lanes)], 0.5 apart; y grows downwards */
	double *y0 = xmalloc(((size_t)nr.n + 1) * sizeof *y0), y = 0;
	char *ytics = xmalloc((size_t)nr.n * 128 + 4);
	strcpy(ytics, "(");
	fprintf(dat, "# node shading: x0 x1 y0 y1\n");
	for (int i = 0; i < nr.n; i++) {
		int h = lanes[i] > 0 ? lanes[i] : 1;
		y0[i] = y;
		if (i % 2)
			put_box(dat, 0, tmax * 1.02, y - 0.25, y + h + 0.25);
		sprintf(ytics + strlen(ytics), "%s\"%.100s\" %.2f", i ? ", " : "", nr.name[i],
			y + h / 2.0);
		y += h + 0.5;
	}
	if (nr.n < 2) /* every block has a row: gnuplot stops on a missing one */
		put_box(dat, NAN, NAN, NAN, NAN);
	strcat(ytics, ")");
	for (int t = 0; t < types.n; t++)
		for (int phase = 0; phase < 2; phase++) {
			fprintf(dat, "\n\n# %s %s: x0 x1 y0 y1\n", types.v[t],
				phase ? "running (ready..end)" : "start-up (launch..ready)");
			gantt_boxes(dat, g, n, y0, t, phase);
		}
	int ngpu = 0;
	fprintf(dat, "\n\n# executors holding GPUs: x0 x1 y0 y1\n");
	for (int i = 0; i < n; i++)
		if (g[i].gpus > 0) {
			double yl = y0[g[i].node] + g[i].lane;
			put_box(dat, g[i].gf, g[i].gt, yl + 0.08, yl + 0.92);
			ngpu++;
		}
	if (!ngpu)
		put_box(dat, NAN, NAN, NAN, NAN);

	const char *col[MAX_NAMES];
	colours_for(type_colours, &types, col);
	char title[512], run[256];
	run_name(ex, o, run, sizeof run);
	snprintf(title, sizeof title, "executors per node: %s (%d executors)", run, n);
	plot_var_str(v, "figtitle", title);
	var_words(v, "types", types.v, types.n);
	var_words(v, "colours", col, types.n);
	plot_var_str(v, "ytics", ytics);
	plot_var_num(v, "ymax", y - 0.25);
	plot_var_num(v, "xmax", tmax > 0 ? tmax * 1.02 : 1);
	plot_var_num(v, "ngpu", ngpu);
	plot_var_num(v, "height", fmin(4000, fmax(360, 150 + 15 * y)));
	free(ytics);
	free(y0);
	free(lanes);
	free(g);
	free(nr.name);
	return 0;
}

/* One change of what a label's executors hold. */
struct step {
	double t;          /* s */
	int label;         /* index in the figure's labels (cores) */
	int series;        /* index in its GPU series */
	double cores;      /* + when taken (launch, gpu_from), - when given back */
	int gpus;
};

static int step_cmp(const void *a, const void *b)
{
	const struct step *p = a, *q = b;
	return (p->t > q->t) - (p->t < q->t);
}

static void util_row(FILE *dat, double t, int nl, const double *held, const double *cap, int ng,
		     const double *gheld, const double *gcap)
{
	put_num(dat, "", t);
	for (int i = 0; i < nl; i++)
		put_num(dat, " ", held[i] / cap[i]);
	for (int j = 0; j < ng; j++)
		put_num(dat, " ", gheld[j] / gcap[j]);
	fputc('\n', dat);
}

/* The GPU series of the nodes: one per node label, or one per GPU model
 * where the cluster has several (a v100 and a gtx1080ti are not the same
 * resource); ser[node] is -1 without GPUs.  Returns whether by model. */
static bool gpu_series(const struct plot_nodes *nodes, struct names *ser, int *sidx,
		       double *gcap)
{
	struct names models = {{0}, 0};
	for (int i = 0; i < nodes->n; i++)
		if (nodes->v[i].gpus > 0)
			names_add(&models, nodes->v[i].model);
	bool by_model = models.n > 1;
	for (int i = 0; i < nodes->n; i++) {
		sidx[i] = -1;
		if (nodes->v[i].gpus <= 0)
			continue;
		sidx[i] = names_add(ser, by_model ? nodes->v[i].model : nodes->v[i].label);
		if (sidx[i] < 0)
			sidx[i] = ser->n - 1; /* more than MAX_NAMES: the last takes the rest */
		gcap[sidx[i]] += nodes->v[i].gpus;
	}
	return by_model;
}

/* The steps of what executors hold: cores from launch to end, GPUs from
 * gpu_from to gpu_to (a TF node behind a GPU-blind policy takes its GPU
 * later and may give it back earlier).  Sorted by time; *ns out. */
static struct step *util_steps(const struct gx *g, int n, const int *lab, const int *sidx,
			       int *ns)
{
	struct step *st = xmalloc((4 * (size_t)n + 1) * sizeof *st);
	*ns = 0;
	for (int i = 0; i < n; i++) {
		int l = lab[g[i].node], s = sidx[g[i].node];
		st[(*ns)++] = (struct step){g[i].l, l, s, g[i].cores, 0};
		st[(*ns)++] = (struct step){g[i].e, l, s, -g[i].cores, 0};
		if (g[i].gpus > 0 && s >= 0) {
			st[(*ns)++] = (struct step){g[i].gf, l, s, 0, g[i].gpus};
			st[(*ns)++] = (struct step){g[i].gt, l, s, 0, -g[i].gpus};
		}
	}
	qsort(st, (size_t)*ns, sizeof *st, step_cmp);
	return st;
}

int plot_prep_util(const struct plot_csv *ex, const struct plot_nodes *nodes,
		   const struct plot_opts *o, FILE *dat, struct plot_vars *v, char *err,
		   size_t errlen)
{
	struct node_rows nr = {NULL, 0, 0};
	struct names types = {{0}, 0}, labels = {{0}, 0}, ser = {{0}, 0};
	struct gx *g = NULL;
	int n, ns;
	double tmax, cap[MAX_NAMES] = {0}, gcap[MAX_NAMES] = {0};
	if (!nodes) {
		snprintf(err, errlen, "%s: utilisation needs the scenario's nodes (-s FILE)", ex->path);
		return -1;
	}
	if (gather(ex, nodes, o, &nr, &types, &g, &n, &tmax, err, errlen)) {
		free(g);
		free(nr.name);
		return -1;
	}
	int *lab = xmalloc(((size_t)nodes->n + 1) * sizeof *lab);
	int *sidx = xmalloc(((size_t)nodes->n + 1) * sizeof *sidx);
	for (int i = 0; i < nodes->n; i++) {
		lab[i] = names_add(&labels, nodes->v[i].label);
		if (lab[i] < 0)
			lab[i] = labels.n - 1; /* more than MAX_NAMES labels: the last takes the rest */
		cap[lab[i]] += nodes->v[i].cores;
	}
	bool by_model = gpu_series(nodes, &ser, sidx, gcap);
	struct step *st = util_steps(g, n, lab, sidx, &ns);
	tmax = fmax(tmax, o->xmax);
	double held[MAX_NAMES] = {0}, gheld[MAX_NAMES] = {0};
	fprintf(dat, "# t");
	for (int i = 0; i < labels.n; i++)
		fprintf(dat, " cores:%s", labels.v[i]);
	for (int j = 0; j < ser.n; j++)
		fprintf(dat, " gpus:%s", ser.v[j]);
	fprintf(dat, "  (share held by executors, from t to the next row)\n");
	if (st[0].t > 0)
		util_row(dat, 0, labels.n, held, cap, ser.n, gheld, gcap);
	for (int i = 0; i < ns; i++) {
		held[st[i].label] += st[i].cores;
		if (st[i].series >= 0)
			gheld[st[i].series] += st[i].gpus;
		if (i + 1 == ns || st[i + 1].t != st[i].t)
			util_row(dat, st[i].t, labels.n, held, cap, ser.n, gheld, gcap);
	}

	const char *col[MAX_NAMES], *gcol[MAX_NAMES], *keys[MAX_NAMES], *gkeys[MAX_NAMES];
	char kbuf[2 * MAX_NAMES][160];
	colours_for(label_colours, &labels, col);
	if (by_model)
		colours_for(label_colours, &ser, gcol);
	else
		for (int j = 0, l; j < ser.n; j++)
			gcol[j] = (l = names_find(&labels, ser.v[j])) >= 0 ? col[l] : "#000000";
	for (int i = 0; i < labels.n; i++) {
		snprintf(kbuf[i], sizeof kbuf[i], "%s (%.0f cores)", labels.v[i], cap[i]);
		keys[i] = kbuf[i];
	}
	for (int j = 0; j < ser.n; j++) {
		snprintf(kbuf[MAX_NAMES + j], sizeof kbuf[0], "%s (%.0f GPUs)", ser.v[j], gcap[j]);
		gkeys[j] = kbuf[MAX_NAMES + j];
	}
	char title[512], run[256];
	run_name(ex, o, run, sizeof run);
	snprintf(title, sizeof title, "held by executors, by node label%s: %s",
		 by_model ? " and GPU model" : "", run);
	plot_var_str(v, "figtitle", title);
	var_words(v, "labels", keys, labels.n);
	var_words(v, "colours", col, labels.n);
	var_words(v, "gpulabels", gkeys, ser.n);
	var_words(v, "gpucolours", gcol, ser.n);
	plot_var_str(v, "gpuby", by_model ? "GPU model" : "label");
	plot_var_num(v, "xmax", tmax > 0 ? tmax * 1.02 : 1);
	free(st);
	free(lab);
	free(sidx);
	free(g);
	free(nr.name);
	return 0;
}

/* ---- the command ---------------------------------------------------- */

static const struct cmd_opt plot_opts[] = {
	{"dir", 'd', "DIR", "results directory (default results/<scenario> with --scenario)"},
	{"scenario", 's', "FILE", "the scenario: node labels and cores (needed by utilisation)"},
	{"output", 'o', "DIR", "write figures here (default DIR/figures)"},
	{"policy", 0, "NAME", "gantt, utilisation: this policy only (default: one figure each)"},
	{"replication", 0, "K", "gantt, utilisation: replication K (default 0)"},
	{"metric", 0, "NAME", "policies, sweep: a runs.csv column (default makespan_s)"},
	{"axis", 0, "NAME", "sweep: the sweep axis on x (default: the first)"},
	{"baseline", 0, "NAME", "policies, sweep: the baseline of the changes shown (default: "
				"the summary's baseline column, else the first policy listed)"},
	{"compare", 0, "NAME", "sweep: the policy whose change the arrow shows (default label-dual, "
			       "else the first other policy); policies: a headline for it"},
	{"point", 0, "K", "the sweep point shown by policies, jct-by-type, gantt, utilisation; "
			  "sweep holds the other axes there (default 0)"},
	{"format", 0, "FMT", "png, svg or both (default both)"},
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

typedef int plot_sum_fn(const struct plot_csv *, const struct plot_opts *, FILE *,
			struct plot_vars *, char *, size_t);
typedef int plot_ex_fn(const struct plot_csv *, const struct plot_nodes *,
		       const struct plot_opts *, FILE *, struct plot_vars *, char *, size_t);

/* The figure kinds: KIND on the command line, plot/<name>.gp, and where
 * its data comes from: the summary, types.csv, or executors.csv (one
 * figure per policy). */
static const struct plot_kind {
	const char *name;
	plot_sum_fn *from_summary;
	plot_sum_fn *from_types;
	plot_ex_fn *from_executors;
	const char *about;
} kinds[] = {
	{"policies", .from_summary = plot_prep_policies,
	 .about = "execution time per policy, 95 % CI"},
	{"jct-by-type", .from_types = plot_prep_jct_by_type,
	 .about = "mean JCT per job type and policy (types.csv)"},
	{"sweep", .from_summary = plot_prep_sweep,
	 .about = "a metric against a sweep axis, 95 % CI bands"},
	{"gantt", .from_executors = plot_prep_gantt,
	 .about = "executors per node over time, by job type"},
	{"utilisation", .from_executors = plot_prep_util,
	 .about = "cores and GPUs held per node label over time"},
};

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

/* File tmp, whole, to become dst when every figure is drawn. */
static void pend(struct plot_ctx *x, const char *tmp, const char *dst)
{
	x->tmp = xrealloc(x->tmp, (size_t)(x->npend + 1) * sizeof *x->tmp);
	x->dst = xrealloc(x->dst, (size_t)(x->npend + 1) * sizeof *x->dst);
	x->tmp[x->npend] = xstrdup(tmp);
	x->dst[x->npend++] = xstrdup(dst);
}

static const char *const formats[2] = {"png", "svg"};

static bool gnuplot_on_path(void)
{
	const char *p = getenv("PATH");
	for (p = p ? p : "/usr/bin:/bin";; p++) {
		size_t n = strcspn(p, ":");
		char f[4200];
		snprintf(f, sizeof f, "%.*s/gnuplot", (int)n, n ? p : ".");
		if (access(f, X_OK) == 0)
			return true;
		if (!p[n])
			return false;
		p += n;
	}
}

/* plot/: $HETSIM_PLOT_DIR, else next to the binary (bin/../plot), else ./plot. */
static const char *find_scripts(char *buf, size_t len)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	const char *env = getenv("HETSIM_PLOT_DIR");
	char at_exe[4200];
	snprintf(at_exe, sizeof at_exe, "%s/../plot", exe);
	const char *cand[3] = {env, slash ? at_exe : NULL, "plot"};
	for (int i = 0; i < 3; i++) {
		char f[4300];
		snprintf(f, sizeof f, "%s/common.gp", cand[i] ? cand[i] : "");
		if (cand[i] && access(f, R_OK) == 0) {
			snprintf(buf, len, "%s", cand[i]);
			return buf;
		}
	}
	return NULL;
}

static int run_gnuplot(const char *script, const char *vars)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", "-e", vars, script, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Render base.<fmt> from its data file, through base.<fmt>.tmp. */
static int render(struct plot_ctx *x, const char *kind, const char *base, const char *dat,
		  struct plot_vars *v, const char *fmt)
{
	char script[4200], out[4200], tmp[4300];
	snprintf(script, sizeof script, "%s/%s.gp", x->scripts, kind);
	snprintf(out, sizeof out, "%s/%s.%s", x->out, base, fmt);
	snprintf(tmp, sizeof tmp, "%s.tmp", out);
	size_t mark = v->len;
	plot_var_str(v, "datafile", dat);
	plot_var_str(v, "outfile", tmp);
	plot_var_str(v, "fmt", fmt);
	plot_var_str(v, "plotdir", x->scripts);
	int rc = v->overflow ? -1 : run_gnuplot(script, v->s);
	v->len = mark;
	v->s[mark] = '\0';
	/* gnuplot exits 0 when its write failed (a full disk): the file must
	 * be whole before it takes its name */
	const char *bad = rc ? NULL : cmd_figure_incomplete(tmp);
	if (rc || bad) {
		remove(tmp);
		fprintf(stderr, "hetsim plot: %s not written: %s\n", out,
			v->overflow ? "too many names to label" : rc ? "gnuplot failed" : bad);
		return 1;
	}
	pend(x, tmp, out);
	return 0;
}

/* A file name part from a policy name. */
static void safe_name(char *s)
{
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", *s))
			*s = '_';
}

/* Prepare base.dat and render it.  In `all`, a figure the results have
 * nothing for (PLOT_NONE) is skipped quietly: it does not apply. */
static int draw(struct plot_ctx *x, const struct plot_kind *k, const char *base,
		const struct plot_opts *o)
{
	char dat[4200], tmp[4300], err[9000] = "";
	snprintf(dat, sizeof dat, "%s/%s.dat", x->out, base);
	snprintf(tmp, sizeof tmp, "%s.tmp", dat);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "hetsim plot: cannot write %s: %s\n", tmp, strerror(errno));
		return 1;
	}
	struct plot_vars *v = xcalloc(1, sizeof *v);
	const struct plot_nodes *nodes = x->nodes.n ? &x->nodes : NULL;
	int rc = k->from_summary ? k->from_summary(x->sum, o, f, v, err, sizeof err)
		 : k->from_types ? k->from_types(x->types, o, f, v, err, sizeof err)
				 : k->from_executors(x->ex, nodes, o, f, v, err, sizeof err);
	bool bad = ferror(f) != 0;
	if (fclose(f) || bad) {
		if (!rc)
			snprintf(err, sizeof err, "cannot write %s: %s", tmp, strerror(errno));
		rc = rc ? rc : -1;
	}
	if (rc) {
		remove(tmp);
		free(v);
		if (rc == PLOT_NONE && x->all)
			return 0;
		fprintf(stderr, "hetsim plot: %s\n", err);
		return 1;
	}
	pend(x, tmp, dat); /* gnuplot reads it under its .tmp name */
	for (int i = 0; i < 2 && !rc; i++)
		if (x->fmt[i])
			rc = render(x, k->name, base, tmp, v, formats[i]);
	free(v);
	x->drawn += !rc;
	return rc;
}

/* Load DIR/name (once).  Absent: in `all` a note and PLOT_NONE. */
static int load(struct plot_ctx *x, const char *name, struct plot_csv **c)
{
	char path[4200], err[1024];
	if (*c)
		return 0;
	snprintf(path, sizeof path, "%s/%s", x->dir, name);
	if (!(*c = plot_csv_read(path, err, sizeof err))) {
		if (x->all && access(path, F_OK) != 0)
			return PLOT_NONE;
		fprintf(stderr, "hetsim plot: %s\n", err);
		return 1;
	}
	return 0;
}

/* The summary: summary.csv, else runs.csv summarised. */
static int load_summary(struct plot_ctx *x)
{
	char path[4200], err[1024];
	snprintf(path, sizeof path, "%s/summary.csv", x->dir);
	if (x->sum || access(path, F_OK) == 0)
		return load(x, "summary.csv", &x->sum);
	struct plot_csv *runs = NULL;
	snprintf(path, sizeof path, "%s/runs.csv", x->dir);
	if (access(path, F_OK) != 0) {
		if (x->all)
			return PLOT_NONE;
		fprintf(stderr, "hetsim plot: no summary.csv or runs.csv in %s\n", x->dir);
		return 1;
	}
	int rc = load(x, "runs.csv", &runs);
	if (!rc && !(x->sum = plot_summarise_runs(runs, x->o.baseline, err, sizeof err))) {
		fprintf(stderr, "hetsim plot: %s\n", err);
		rc = 1;
	}
	plot_csv_free(runs);
	return rc;
}

/* types.csv; absent, a message (older results have none), or in `all`
 * PLOT_NONE. */
static int load_types(struct plot_ctx *x)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/types.csv", x->dir);
	if (!x->types && access(path, F_OK) != 0) {
		if (x->all)
			return PLOT_NONE;
		fprintf(stderr, "hetsim plot: no types.csv in %s (hetsim run and hetsim sweep write "
			"it; results of an older hetsim lack it)\n", x->dir);
		return 1;
	}
	return load(x, "types.csv", &x->types);
}

static int draw_kind(struct plot_ctx *x, const struct plot_kind *k)
{
	if (k->from_summary || k->from_types) {
		int rc = k->from_summary ? load_summary(x) : load_types(x);
		return rc == PLOT_NONE ? 0 : rc ? rc : draw(x, k, k->name, &x->o);
	}
	if (k->from_executors == plot_prep_util && !x->nodes.n) {
		if (x->all)
			return 0;
		fprintf(stderr, "hetsim plot: utilisation needs the scenario's node labels: "
			"give -s FILE\n");
		return 2;
	}
	int rc = load(x, "executors.csv", &x->ex);
	if (rc)
		return rc == PLOT_NONE ? 0 : rc;
	const char *pols[MAX_NAMES];
	int np = x->o.policy ? 1 : plot_policies_of(x->ex, &x->o, pols, MAX_NAMES);
	if (x->o.policy)
		pols[0] = x->o.policy;
	if (np == 0) /* let the prep say what is missing */
		return draw(x, k, k->name, &x->o);
	struct plot_opts shared = x->o; /* one time axis for the figures side by side */
	shared.xmax = np > 1 ? plot_exec_end(x->ex, &x->o) : 0;
	for (int i = 0; i < np && !rc; i++) {
		struct plot_opts o = shared;
		char base[256];
		o.policy = pols[i];
		snprintf(base, sizeof base, "%s-%s", k->name, pols[i]);
		safe_name(base);
		rc = draw(x, k, base, &o);
	}
	return rc;
}

static void plot_help(void)
{
	char about[2048] = "Render paper-style figures (PNG and SVG, with gnuplot) from the CSV files\n"
			   "of hetsim run / hetsim sweep.  KIND is one of:\n\n";
	for (int i = 0; i < ARRAY_LEN(kinds); i++)
		snprintf(about + strlen(about), sizeof about - strlen(about), "  %-12s %s\n",
			 kinds[i].name, kinds[i].about);
	strcat(about, "  all          every figure the results directory has data for\n\n"
		      "Without summary.csv, the means and intervals come from runs.csv;\n"
		      "jct-by-type reads types.csv.\n"
		      "Figures go to DIR/figures/KIND.png and .svg (gantt-POLICY.png, ...),\n"
		      "next to the gnuplot data KIND.dat.  See plot/README.md.");
	cmd_help("plot", "KIND [options]", about, plot_opts);
}

/* Options into x; 2 on a bad command line. */
static int plot_args(struct plot_ctx *x, const struct cmd_args *a, struct scn **s)
{
	const char *v;
	int64_t n;
	if ((v = cmd_get(plot_opts, a, "replication"))) {
		if ((n = cmd_int("plot", "replication", v, 1000000)) < 0)
			return 2;
		x->o.replication = (int)n;
	}
	if ((v = cmd_get(plot_opts, a, "point"))) {
		if ((n = cmd_int("plot", "point", v, 1000000)) < 0)
			return 2;
		x->o.point = (int)n;
	}
	v = cmd_get(plot_opts, a, "format");
	x->fmt[0] = !v || !strcmp(v, "png") || !strcmp(v, "both");
	x->fmt[1] = !v || !strcmp(v, "svg") || !strcmp(v, "both");
	if (!x->fmt[0] && !x->fmt[1]) {
		fprintf(stderr, "hetsim plot: option '--format' wants png, svg or both, got '%s'\n", v);
		return 2;
	}
	x->o.metric = cmd_get(plot_opts, a, "metric");
	x->o.axis = cmd_get(plot_opts, a, "axis");
	x->o.baseline = cmd_get(plot_opts, a, "baseline");
	x->o.compare = cmd_get(plot_opts, a, "compare");
	x->o.policy = cmd_get(plot_opts, a, "policy");
	x->dir = cmd_get(plot_opts, a, "dir");
	x->out = cmd_get(plot_opts, a, "output");
	if ((v = cmd_get(plot_opts, a, "scenario"))) {
		char err[1024];
		if (!(*s = scn_load(v, err, sizeof err))) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		plot_nodes_from_scn(*s, &x->nodes);
	}
	if (!x->dir && !*s) {
		fprintf(stderr, "hetsim plot: no results directory: give -d DIR or -s SCENARIO\n");
		return 2;
	}
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	struct cmd_args a;
	if (cmd_parse("plot", plot_opts, argc, argv, &a))
		return 2;
	if (cmd_get(plot_opts, &a, "help")) {
		plot_help();
		return 0;
	}
	if (a.npos != 1) {
		fprintf(stderr, "hetsim plot: expected one KIND, got %d arguments (see hetsim plot "
			"--help)\n", a.npos);
		return 2;
	}
	const char *names[ARRAY_LEN(kinds) + 1];
	int kind = -1;
	for (int i = 0; i < ARRAY_LEN(kinds); i++)
		if (!strcmp(a.pos[0], names[i] = kinds[i].name))
			kind = i;
	names[ARRAY_LEN(kinds)] = "all";
	if (kind < 0 && strcmp(a.pos[0], "all")) {
		const char *near = suggest(a.pos[0], names, ARRAY_LEN(names));
		fprintf(stderr, "hetsim plot: unknown figure kind '%s'%s%s%s (known: policies, "
			"jct-by-type, sweep, gantt, utilisation, all)\n", a.pos[0],
			near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		return 2;
	}
	struct plot_ctx x = {.all = kind < 0};
	struct scn *s = NULL;
	char dir[4200], out[4300], scripts[4200];
	int rc = plot_args(&x, &a, &s);
	if (!rc && !x.dir) {
		snprintf(dir, sizeof dir, "results/%s", s->name);
		x.dir = dir;
	}
	if (!rc && !x.out) {
		snprintf(out, sizeof out, "%s/figures", x.dir);
		x.out = out;
	}
	char serr[1200];
	if (!rc && rows_check_set(x.dir, serr, sizeof serr)) { /* a set cut short */
		fprintf(stderr, "hetsim plot: %s\n", serr);
		rc = 1;
	}
	if (!rc && !gnuplot_on_path()) {
		fprintf(stderr, "hetsim plot: gnuplot not found; install gnuplot-nox "
			"(scripts/install-deps does)\n");
		rc = 1;
	}
	if (!rc && !(x.scripts = find_scripts(scripts, sizeof scripts))) {
		fprintf(stderr, "hetsim plot: cannot find the gnuplot scripts (plot/common.gp); "
			"set HETSIM_PLOT_DIR\n");
		rc = 1;
	}
	struct stat st;
	if (!rc && (stat(x.dir, &st) || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "hetsim plot: %s: no such results directory\n", x.dir);
		rc = 1;
	}
	bool made = !rc && stat(x.out, &st) != 0;
	if (!rc && rows_mkdirs(x.out)) {
		fprintf(stderr, "hetsim plot: cannot create %s: %s\n", x.out, strerror(errno));
		rc = 1;
	}
	for (int i = 0; !rc && i < ARRAY_LEN(kinds); i++)
		if (x.all || i == kind)
			rc = draw_kind(&x, &kinds[i]);
	if (!rc && x.all && !x.drawn) {
		fprintf(stderr, "hetsim plot: nothing to plot in %s (no summary.csv, runs.csv, "
			"types.csv or executors.csv)\n", x.dir);
		rc = 1;
	}
	/* the figures and their data as one set: all of them, or none and the
	 * old ones as they were (rows_commit) */
	if (!rc && rows_commit("plot", x.tmp, x.dst, x.npend))
		rc = 1;
	for (int i = 0; i < x.npend; i++) {
		if (rc)
			remove(x.tmp[i]);
		else if (strcmp(x.dst[i] + strlen(x.dst[i]) - 4, ".dat"))
			printf("%s\n", x.dst[i]);
		free(x.tmp[i]);
		free(x.dst[i]);
	}
	free(x.tmp);
	free(x.dst);
	if (rc && made)
		rmdir(x.out); /* the folder it made, empty again */
	plot_csv_free(x.sum);
	plot_csv_free(x.types);
	plot_csv_free(x.ex);
	plot_nodes_free(&x.nodes);
	if (s)
		scn_free(s);
	return rc;
}
