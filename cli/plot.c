/* plot.c - `hetsim plot`: paper-style figures from result CSV files.
 *
 * Each figure kind has a preparation function (plot_prep_*) that reads
 * CSV files by column name and writes a gnuplot data file plus gnuplot
 * variables; plot/<kind>.gp draws it.  gnuplot runs once per output
 * format and writes to a temporary name, renamed only when it succeeded,
 * so a failed figure leaves nothing behind.  plot/README.md tells what
 * each figure shows.
 */
#include "plot.h"

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

#include <gsl/gsl_cdf.h>

#include "cmd.h"
#include "scenario.h"
#include "util.h"

#define MAX_NAMES 64         /* policies, job types or labels in one figure */
#define PLOT_NONE (-2)       /* a prep found nothing to draw (see below) */
#define MINUS "\xe2\x88\x92" /* U+2212, the typographic minus */

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
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
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
		snprintf(err, errlen, "%s: cannot read: %s", path, bad ? strerror(e) : "a NUL byte");
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
			snprintf(err, errlen, "%s:%d: %d fields, but the header has %d", path, lineno,
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
		snprintf(err, errlen, "%s: empty file (no header line)", path);
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
	if (strncmp(m, "jct_mean_", 9) == 0 && n > 11 && strcmp(m + n - 2, "_s") == 0)
		snprintf(buf, len, "mean completion time of %.*s jobs, s", (int)(n - 11), m + 9);
	else if (n > 2 && strcmp(m + n - 2, "_s") == 0)
		snprintf(buf, len, "%.*s, s", (int)(n - 2), m);
	else
		snprintf(buf, len, "%s", m);
}

/* ---- summaries ------------------------------------------------------ */

struct ci {
	double mean, lo, hi; /* NaN when absent */
	int line;            /* the row's line, 0 if none */
};

struct sum_cols {
	int policy, metric, mean;          /* required */
	int point, lo, hi, reps, scenario; /* -1 if absent */
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
			       plot_csv_col(c, "replications"), plot_csv_col(c, "scenario")};
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
		out[p] = (struct ci){NAN, NAN, NAN, 0};
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
		if (cell_num(c, r, k->mean, &o->mean, err, errlen) < 0 ||
		    cell_num(c, r, k->lo, &o->lo, err, errlen) < 0 ||
		    cell_num(c, r, k->hi, &o->hi, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* "scenario: " from the first row, or "". */
static void scenario_prefix(const struct plot_csv *c, int col, char *buf, size_t len)
{
	const char *s = c->nrows ? plot_csv_cell(c, 0, col) : "";
	snprintf(buf, len, "%s%s", s, *s ? ": " : "");
}

/* The compared and the baseline policy: indices in pol, -1 each when a
 * default name is absent; -1 and a message when a name the user gave is. */
static int pick_pair(const struct plot_csv *c, const struct names *pol, const struct plot_opts *o,
		     int *ic, int *ib, char *err, size_t errlen)
{
	const char *given[2] = {o->compare, o->baseline}, *opt[2] = {"compare", "baseline"};
	const char *def[2] = {"label-dual", "spark-standalone"};
	int *out[2] = {ic, ib};
	for (int i = 0; i < 2; i++) {
		*out[i] = names_find(pol, given[i] ? given[i] : def[i]);
		if (*out[i] < 0 && given[i]) {
			char all[1024];
			names_join(pol, all, sizeof all);
			snprintf(err, errlen, "%s: no policy '%s' (--%s; policies: %s)", c->path,
				 given[i], opt[i], all);
			return -1;
		}
	}
	return 0;
}

/* The annotation "−X % (to Y % of BASE)": compare's value c against the
 * baseline's b. */
static void reduction_note(struct plot_vars *v, double c, double b, const char *base)
{
	char note[256];
	double r = c / b;
	snprintf(note, sizeof note, "%s%.1f %% (to %.1f %% of %s)", r <= 1 ? MINUS : "+",
		 fabs(1 - r) * 100, r * 100, base);
	plot_var_str(v, "note", note);
}

int plot_prep_policies(const struct plot_csv *sum, const struct plot_opts *o, FILE *dat,
		       struct plot_vars *v, char *err, size_t errlen)
{
	const char *metric = o->metric ? o->metric : "makespan_s";
	struct sum_cols k;
	struct names pol;
	struct ci ci[MAX_NAMES];
	int ic, ib;
	if (sum_cols(sum, &k, &pol, err, errlen) ||
	    select_metric(sum, &k, metric, o->point, &pol, ci, err, errlen) ||
	    pick_pair(sum, &pol, o, &ic, &ib, err, errlen))
		return -1;
	const char *col[MAX_NAMES];
	colours_for(policy_colours, &pol, col);
	fprintf(dat, "# i policy mean ci95_lo ci95_hi top colour (%s at point %d)\n", metric,
		o->point);
	int n = 0, reps = 0, nx_c = -1;
	double ymax = 0;
	for (int p = 0; p < pol.n; p++) {
		if (isnan(ci[p].mean))
			continue;
		double top = isnan(ci[p].hi) ? ci[p].mean : fmax(ci[p].hi, ci[p].mean);
		fprintf(dat, "%d \"%s\"", n, pol.v[p]);
		put_num(dat, " ", ci[p].mean);
		put_num(dat, " ", ci[p].lo);
		put_num(dat, " ", ci[p].hi);
		put_num(dat, " ", top);
		fprintf(dat, " %ld\n", strtol(col[p] + 1, NULL, 16));
		ymax = fmax(ymax, top);
		if (p == ic)
			nx_c = n;
		n++;
	}
	if (n == 0) {
		snprintf(err, errlen, "%s: no value of metric '%s' at point %d", sum->path, metric,
			 o->point);
		return -1;
	}
	for (int r = 0; r < sum->nrows && !reps; r++)
		if (!strcmp(plot_csv_cell(sum, r, k.metric), metric))
			reps = atoi(plot_csv_cell(sum, r, k.reps));
	char title[512], label[256], pre[128];
	scenario_prefix(sum, k.scenario, pre, sizeof pre);
	metric_label(metric, label, sizeof label);
	snprintf(title, sizeof title, "%s%s per policy (mean of %d replication%s%s)", pre,
		 strcmp(metric, "makespan_s") ? metric : "execution time", reps, reps == 1 ? "" : "s",
		 reps > 1 ? ", 95 % CI" : "");
	plot_var_str(v, "figtitle", title);
	plot_var_str(v, "ylabel", label);
	plot_var_num(v, "n", n);
	plot_var_num(v, "ymax", ymax > 0 ? ymax * 1.25 : 1);
	if (nx_c >= 0 && ib >= 0 && ic != ib && !isnan(ci[ib].mean) && ci[ib].mean > 0) {
		reduction_note(v, ci[ic].mean, ci[ib].mean, pol.v[ib]);
		plot_var_num(v, "notex", nx_c);
		plot_var_num(v, "notey", isnan(ci[ic].hi) ? ci[ic].mean : ci[ic].hi);
		plot_var_str(v, "notecolour", col[ic]);
	}
	return 0;
}

int plot_prep_jct_by_type(const struct plot_csv *sum, const struct plot_opts *o, FILE *dat,
			  struct plot_vars *v, char *err, size_t errlen)
{
	struct sum_cols k;
	struct names pol, types = {{0}, 0};
	if (sum_cols(sum, &k, &pol, err, errlen))
		return -1;
	char tbuf[MAX_NAMES][112];
	for (int r = 0; r < sum->nrows; r++) {
		const char *m = plot_csv_cell(sum, r, k.metric);
		size_t n = strlen(m);
		if (strncmp(m, "jct_mean_", 9) || n < 12 || n - 11 >= sizeof tbuf[0] ||
		    strcmp(m + n - 2, "_s") || types.n == MAX_NAMES)
			continue;
		snprintf(tbuf[types.n], sizeof tbuf[0], "%.*s", (int)(n - 11), m + 9);
		if (names_find(&types, tbuf[types.n]) < 0)
			names_add(&types, tbuf[types.n]);
	}
	order_types(&types);
	/* ci[t][p]: type t, policy p; types and policies without a value go. */
	static struct ci ci[MAX_NAMES][MAX_NAMES];
	struct names shown_t = {{0}, 0}, shown_p = {{0}, 0};
	bool has_p[MAX_NAMES] = {false};
	int tix[MAX_NAMES];
	for (int t = 0; t < types.n; t++) {
		char metric[128];
		snprintf(metric, sizeof metric, "jct_mean_%s_s", types.v[t]);
		if (select_metric(sum, &k, metric, o->point, &pol, ci[t], err, errlen))
			return -1;
		bool any = false;
		for (int p = 0; p < pol.n; p++)
			if (!isnan(ci[t][p].mean))
				any = has_p[p] = true;
		if (any) {
			tix[shown_t.n] = t;
			names_add(&shown_t, types.v[t]);
		}
	}
	if (shown_t.n == 0) {
		snprintf(err, errlen, "%s: no per-type metric jct_mean_<type>_s at point %d",
			 sum->path, o->point);
		return PLOT_NONE;
	}
	const char *col[MAX_NAMES], *shown_col[MAX_NAMES];
	colours_for(policy_colours, &pol, col);
	for (int p = 0; p < pol.n; p++)
		if (has_p[p])
			shown_col[shown_p.n] = col[p], names_add(&shown_p, pol.v[p]);
	double w = 0.8 / shown_p.n, ymax = 0;
	for (int i = 0; i < shown_p.n; i++) {
		int p = names_find(&pol, shown_p.v[i]);
		fprintf(dat, "%s# %s: x mean ci95_lo ci95_hi\n", i ? "\n\n" : "", pol.v[p]);
		for (int j = 0; j < shown_t.n; j++) {
			const struct ci *c = &ci[tix[j]][p];
			if (isnan(c->mean))
				continue;
			put_num(dat, "", j + (i - (shown_p.n - 1) / 2.0) * w);
			put_num(dat, " ", c->mean);
			put_num(dat, " ", c->lo);
			put_num(dat, " ", c->hi);
			fputc('\n', dat);
			ymax = fmax(ymax, isnan(c->hi) ? c->mean : c->hi);
		}
	}
	char title[512], pre[128];
	scenario_prefix(sum, k.scenario, pre, sizeof pre);
	snprintf(title, sizeof title, "%smean job completion time by job type (95 %% CI)", pre);
	plot_var_str(v, "figtitle", title);
	plot_var_str(v, "ylabel", "mean job completion time, s");
	var_words(v, "policies", shown_p.v, shown_p.n);
	var_words(v, "colours", shown_col, shown_p.n);
	var_words(v, "types", shown_t.v, shown_t.n);
	plot_var_num(v, "boxw", w * 0.9);
	plot_var_num(v, "ymax", ymax > 0 ? ymax * 1.15 : 1);
	return 0;
}

/* ---- sweep ---------------------------------------------------------- */

struct sweep_pt {
	int pol, point;
	const char *xs; /* the axis value as written */
	double x, mean, lo, hi;
	int line;
};

static int sweep_cmp(const void *a, const void *b)
{
	const struct sweep_pt *p = a, *q = b;
	if (p->pol != q->pol)
		return p->pol - q->pol;
	return (p->x > q->x) - (p->x < q->x);
}

/* Sweep axes: the columns between `point` and `replications`. */
static int sweep_axis(const struct plot_csv *c, const struct plot_opts *o, int *first, int *last,
		      int *axis, char *err, size_t errlen)
{
	int p = plot_csv_col(c, "point"), r = plot_csv_col(c, "replications");
	if (p < 0 || r < 0 || r <= p + 1) {
		snprintf(err, errlen, "%s: no sweep axis (no column between 'point' and "
			 "'replications'; hetsim sweep writes them)", c->path);
		return PLOT_NONE;
	}
	*first = p + 1;
	*last = r - 1;
	*axis = o->axis ? plot_csv_col(c, o->axis) : p + 1;
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

/* Collect the points of the metric along the axis, the other axes held
 * at their values at sweep point o->point.  *n points into *out (owned). */
static int sweep_points(const struct plot_csv *c, const struct sum_cols *k, const struct names *pol,
			const char *metric, int first, int last, int axis,
			const struct plot_opts *o, struct sweep_pt **out, int *n, char *err,
			size_t errlen)
{
	int ref = -1;
	for (int r = 0; r < c->nrows && ref < 0; r++)
		if (cell_is_int(c, r, k->point, o->point))
			ref = r;
	if (ref < 0) {
		snprintf(err, errlen, "%s: no sweep point %d (--point)", c->path, o->point);
		return -1;
	}
	int cap = 0;
	*out = NULL;
	*n = 0;
	for (int r = 0; r < c->nrows; r++) {
		bool keep = strcmp(plot_csv_cell(c, r, k->metric), metric) == 0;
		for (int a = first; keep && a <= last; a++)
			keep = a == axis || !strcmp(plot_csv_cell(c, r, a), plot_csv_cell(c, ref, a));
		if (!keep)
			continue;
		xgrow(out, &cap, *n + 1, sizeof **out);
		struct sweep_pt *s = &(*out)[(*n)++];
		double pt;
		*s = (struct sweep_pt){names_find(pol, plot_csv_cell(c, r, k->policy)), 0,
				       plot_csv_cell(c, r, axis), NAN, NAN, NAN, NAN, c->line[r]};
		if (cell_num(c, r, k->point, &pt, err, errlen) < 0 ||
		    cell_num(c, r, k->mean, &s->mean, err, errlen) < 0 ||
		    cell_num(c, r, k->lo, &s->lo, err, errlen) < 0 ||
		    cell_num(c, r, k->hi, &s->hi, err, errlen) < 0)
			return -1;
		s->point = isnan(pt) ? 0 : (int)pt;
		char *end;
		s->x = strtod(s->xs, &end);
		if (end == s->xs || *end || !isfinite(s->x))
			s->x = NAN;
	}
	if (*n == 0) {
		snprintf(err, errlen, "%s: no value of metric '%s' along axis '%s'", c->path, metric,
			 c->hdr[axis]);
		return -1;
	}
	return 0;
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

int plot_prep_sweep(const struct plot_csv *sum, const struct plot_opts *o, FILE *dat,
		    struct plot_vars *v, char *err, size_t errlen)
{
	const char *metric = o->metric ? o->metric : "makespan_s";
	struct sum_cols k;
	struct names pol, shown = {{0}, 0};
	struct sweep_pt *s = NULL;
	int first, last, axis, n, ic, ib, rc;
	if ((rc = sum_cols(sum, &k, &pol, err, errlen)) ||
	    (rc = sweep_axis(sum, o, &first, &last, &axis, err, errlen)) ||
	    (rc = pick_pair(sum, &pol, o, &ic, &ib, err, errlen)) ||
	    (rc = sweep_points(sum, &k, &pol, metric, first, last, axis, o, &s, &n, err, errlen))) {
		free(s);
		return rc;
	}
	sweep_categories(s, n, v);
	qsort(s, (size_t)n, sizeof *s, sweep_cmp);
	const char *col[MAX_NAMES], *shown_col[MAX_NAMES];
	colours_for(policy_colours, &pol, col);
	double xmax_c = NAN, yc = NAN, yb = NAN;
	for (int i = 0; i < n; i++) {
		if (i && s[i].pol == s[i - 1].pol && s[i].x == s[i - 1].x) {
			snprintf(err, errlen, "%s:%d: a second row for policy '%s' at %s %s (first on "
				 "line %d)", sum->path, s[i].line, pol.v[s[i].pol], sum->hdr[axis],
				 s[i].xs, s[i - 1].line);
			free(s);
			return -1;
		}
		if (!i || s[i].pol != s[i - 1].pol) {
			fprintf(dat, "%s# %s: %s mean ci95_lo ci95_hi\n", i ? "\n\n" : "",
				pol.v[s[i].pol], sum->hdr[axis]);
			shown_col[shown.n] = col[s[i].pol];
			names_add(&shown, pol.v[s[i].pol]);
		}
		put_num(dat, "", s[i].x);
		put_num(dat, " ", s[i].mean);
		put_num(dat, " ", isnan(s[i].lo) ? s[i].mean : s[i].lo);
		put_num(dat, " ", isnan(s[i].hi) ? s[i].mean : s[i].hi);
		fputc('\n', dat);
	}
	/* the annotation: at the largest x where both policies have a mean */
	for (int i = 0; ic >= 0 && ib >= 0 && ic != ib && i < n; i++)
		for (int j = 0; j < n; j++)
			if (s[i].pol == ic && s[j].pol == ib && s[i].x == s[j].x &&
			    !isnan(s[i].mean) && !isnan(s[j].mean) && s[j].mean > 0 &&
			    !(s[i].x <= xmax_c))
				xmax_c = s[i].x, yc = s[i].mean, yb = s[j].mean;
	if (!isnan(xmax_c)) {
		reduction_note(v, yc, yb, pol.v[ib]);
		plot_var_num(v, "notex", xmax_c);
		plot_var_num(v, "notey", yc);
		plot_var_num(v, "basey", yb);
		plot_var_str(v, "notecolour", col[ic]);
	}
	char title[512], label[256], pre[128];
	scenario_prefix(sum, k.scenario, pre, sizeof pre);
	metric_label(metric, label, sizeof label);
	snprintf(title, sizeof title, "%s%s against %s (mean, 95 %% CI)", pre,
		 strcmp(metric, "makespan_s") ? metric : "execution time", sum->hdr[axis]);
	plot_var_str(v, "figtitle", title);
	plot_var_str(v, "ylabel", label);
	plot_var_str(v, "xlabel", sum->hdr[axis]);
	var_words(v, "policies", shown.v, shown.n);
	var_words(v, "colours", shown_col, shown.n);
	free(s);
	return 0;
}

/* ---- runs.csv summarised -------------------------------------------- */

/* One metric of one group of runs: "mean,sd,ci95_half,ci95_lo,ci95_hi"
 * (empty fields when undefined). */
static void put_stats(FILE *m, const double *x, int n)
{
	if (n == 0) {
		fputs(",,,,", m);
		return;
	}
	double mean = 0, ss = 0;
	for (int i = 0; i < n; i++)
		mean += x[i] / n;
	fprintf(m, "%.9g,", mean);
	if (n < 2) {
		fputs(",,,", m);
		return;
	}
	for (int i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	double sd = sqrt(ss / (n - 1)), half = gsl_cdf_tdist_Pinv(0.975, n - 1) * sd / sqrt(n);
	fprintf(m, "%.9g,%.9g,%.9g,%.9g", sd, half, mean - half, mean + half);
}

struct plot_csv *plot_summarise_runs(const struct plot_csv *runs, char *err, size_t errlen)
{
	static const char *const need[] = {"policy", NULL};
	static const char *const not_metrics[] = {"scenario", "policy", "replication", "seed",
						  "point"};
	int kp, kpt = plot_csv_col(runs, "point"), ksc = plot_csv_col(runs, "scenario");
	if (need_cols(runs, need, &kp, err, errlen))
		return NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m) {
		snprintf(err, errlen, "%s: cannot summarise: %s", runs->path, strerror(errno));
		return NULL;
	}
	fputs("scenario,policy,point,replications,metric,mean,sd,ci95_half,ci95_lo,ci95_hi\n", m);
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
				int e = cell_num(runs, r, c, &x[n], err, errlen);
				rc = e < 0;
				n += e == 0;
			}
			fprintf(m, "%s,%s,%s,%d,%s,", plot_csv_cell(runs, g, ksc), pol, *pt ? pt : "0",
				reps, runs->hdr[c]);
			put_stats(m, x, n);
			fputc('\n', m);
		}
	}
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
	int id, gpus, cores, point;                     /* -1 if absent */
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
				plot_csv_col(c, "point")};
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

/* One executor of the figure. */
struct gx {
	int node, type, gpus, cores, id, lane;
	double l, r, e; /* launch, ready, end: s; r NaN if never ready */
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
		g->cores = (int)cores;
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
	/* rows in order: scenario order, else by name */
	int *rank = xmalloc((size_t)nr.n * sizeof *rank), *lanes = xcalloc((size_t)nr.n, sizeof *lanes);
	for (int i = 0; i < nr.n; i++) {
		rank[i] = 0;
		for (int j = 0; j < nr.n; j++)
			rank[i] += !nodes && node_cmp(nr.name[j], nr.name[i]) < 0;
		if (nodes)
			rank[i] = i;
	}
	const char **byrank = xmalloc((size_t)nr.n * sizeof *byrank);
	for (int i = 0; i < n; i++)
		g[i].node = rank[g[i].node];
	for (int i = 0; i < nr.n; i++)
		byrank[rank[i]] = nr.name[i];
	qsort(g, (size_t)n, sizeof *g, gx_cmp);
	assign_lanes(g, n, lanes);

	/* y: node i spans [y0[i], y0[i] + max(1, lanes)], 0.5 apart; y grows downwards */
	double *y0 = xmalloc(((size_t)nr.n + 1) * sizeof *y0), y = 0;
	char *ytics = xmalloc((size_t)nr.n * 128 + 4);
	strcpy(ytics, "(");
	fprintf(dat, "# node shading: x0 x1 y0 y1\n");
	for (int i = 0; i < nr.n; i++) {
		int h = lanes[i] > 0 ? lanes[i] : 1;
		y0[i] = y;
		if (i % 2)
			put_box(dat, 0, tmax * 1.02, y - 0.25, y + h + 0.25);
		sprintf(ytics + strlen(ytics), "%s\"%.100s\" %.2f", i ? ", " : "", byrank[i], y + h / 2.0);
		y += h + 0.5;
	}
	if (nr.n < 2)
		put_box(dat, NAN, NAN, NAN, NAN);
	strcat(ytics, ")");
	struct names seen = types;
	order_types(&types);
	for (int i = 0; i < n; i++)
		g[i].type = names_find(&types, seen.v[g[i].type]);
	int ngpu = 0;
	for (int t = 0; t < types.n; t++)
		for (int phase = 0; phase < 2; phase++) {
			fprintf(dat, "\n\n# %s %s: x0 x1 y0 y1\n", types.v[t],
				phase ? "running (ready..end)" : "start-up (launch..ready)");
			for (int i = 0; i < n; i++) {
				if (g[i].type != t)
					continue;
				double yl = y0[g[i].node] + g[i].lane, r = isnan(g[i].r) ? g[i].e : g[i].r;
				put_box(dat, phase ? r : g[i].l, phase ? g[i].e : r, yl + 0.08, yl + 0.92);
			}
		}
	fprintf(dat, "\n\n# executors holding GPUs: x0 x1 y0 y1\n");
	for (int i = 0; i < n; i++)
		if (g[i].gpus > 0) {
			double yl = y0[g[i].node] + g[i].lane;
			put_box(dat, g[i].l, g[i].e, yl + 0.08, yl + 0.92);
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
	free(byrank);
	free(rank);
	free(lanes);
	free(g);
	free(nr.name);
	return 0;
}
