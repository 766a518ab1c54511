/* gantt.c - figure (c), gantt (plot/gantt.gp): the executors of one
 * run per node over time, by job type, start-up and running apart.
 *
 * May call: plot/executors.c, plot/common.c, plot/csv.c, plot/palette.c.
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* "policy, replication K[, point P]" for titles. */
void plot_run_name(const struct plot_csv *ex, const struct plot_opts *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s, replication %d", o->policy ? o->policy : "", o->replication);
	if (plot_csv_col(ex, "point") >= 0)
		snprintf(buf + strlen(buf), len - strlen(buf), ", point %d", o->point);
}

static void put_box(FILE *dat, double x0, double x1, double y0, double y1)
{
	plot_put_num(dat, "", x0);
	plot_put_num(dat, " ", x1);
	plot_put_num(dat, " ", y0);
	plot_put_num(dat, " ", y1);
	fputc('\n', dat);
}

/* Sub-rows ("lanes") within each node: greedy interval partitioning, so
 * executors that overlap in time never overlap on the page.  g sorted by
 * (node, launch).  lanes[node] receives the lanes each node needs. */
static void assign_lanes(struct plot_gx *g, int n, int *lanes)
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
	return plot_node_cmp(*(const char *const *)a, *(const char *const *)b);
}

static void sort_rows(struct plot_node_rows *nr, struct plot_gx *g, int n)
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
static void gantt_boxes(FILE *dat, const struct plot_gx *g, int n, const double *y0, int t, int phase)
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
	struct plot_node_rows nr = {NULL, 0, 0};
	struct plot_names types = {{0}, 0};
	struct plot_gx *g;
	int n;
	double tmax;
	if (plot_gather(ex, nodes, o, &nr, &types, &g, &n, &tmax, err, errlen)) {
		free(g);
		free(nr.name);
		return -1;
	}
	if (!nodes)
		sort_rows(&nr, g, n);
	struct plot_names seen = types;
	plot_order_types(&types);
	for (int i = 0; i < n; i++)
		g[i].type = plot_names_find(&types, seen.v[g[i].type]);
	int *lanes = xcalloc((size_t)nr.n, sizeof *lanes);
	qsort(g, (size_t)n, sizeof *g, plot_gx_cmp);
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

	const char *col[PLOT_MAX_NAMES];
	int rc = plot_colours_for(&types, col, err, errlen) ? -1 : 0;
	if (!rc) {
		char title[512], run[256];
		plot_run_name(ex, o, run, sizeof run);
		snprintf(title, sizeof title, "executors per node: %s (%d executors)", run, n);
		plot_var_str(v, "figtitle", title);
		plot_var_words(v, "types", types.v, types.n);
		plot_var_words(v, "colours", col, types.n);
		char tint[PLOT_MAX_NAMES][8];
		const char *tints[PLOT_MAX_NAMES];
		for (int t = 0; t < types.n; t++)
			tints[t] = plot_tint(col[t], 0.35, tint[t]);
		plot_var_words(v, "tints", tints, types.n);
		plot_var_str(v, "ytics", ytics);
		plot_var_num(v, "ymax", y - 0.25);
		plot_var_num(v, "xmax", tmax > 0 ? tmax * 1.02 : 1);
		plot_var_num(v, "ngpu", ngpu);
		plot_var_num(v, "height", fmin(4000, fmax(360, 150 + 15 * y)));
	}
	free(ytics);
	free(y0);
	free(lanes);
	free(g);
	free(nr.name);
	return rc;
}
