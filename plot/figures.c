/* figures.c - `hetsim plot`'s figures of a results folder: the figure
 * kinds (plot_kinds: the name, plot/<name>.gp, where the data comes
 * from), each kind's data file prepared and drawn (plot_draw_kind) in
 * every format asked, the CSV files loaded once, the summary computed
 * from runs.csv where there is no summary.csv.  Every file is written
 * under a temporary name and left for the caller to commit as one set.
 *
 * May call: every preparation of plot/, plot/gnuplot.c, sim/util.h.
 */
#include "plot.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

const struct plot_kind plot_kinds[PLOT_KINDS] = {
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

/* File tmp, whole, to become dst when every figure is drawn. */
static void pend(struct plot_ctx *x, const char *tmp, const char *dst)
{
	x->tmp = xrealloc(x->tmp, (size_t)(x->npend + 1) * sizeof *x->tmp);
	x->dst = xrealloc(x->dst, (size_t)(x->npend + 1) * sizeof *x->dst);
	x->tmp[x->npend] = xstrdup(tmp);
	x->dst[x->npend++] = xstrdup(dst);
}

static const char *const formats[2] = {"png", "svg"};

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
	int rc = v->overflow ? -1 : plot_run_gnuplot(script, v->s);
	v->len = mark;
	v->s[mark] = '\0';
	/* gnuplot exits 0 when its write failed (a full disk): the file must
	 * be whole before it takes its name */
	const char *bad = rc ? NULL : plot_figure_incomplete(tmp);
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

int plot_draw_kind(struct plot_ctx *x, const struct plot_kind *k)
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
	const char *pols[PLOT_MAX_NAMES];
	int np = x->o.policy ? 1 : plot_policies_of(x->ex, &x->o, pols, PLOT_MAX_NAMES);
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
