/* plot.c - `hetsim plot`: its options, then the figures of plot/
 * (plot/figures.c, plot_draw_kind) committed as one set.
 *
 * May call: plot/plot.h, input/ (the scenario of -s), cli/cmd.h,
 * cli/rows.h (the result set: its manifest, its commit).
 */
#include "load.h"
#include "plot.h"
#include "rows.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cmd.h"
#include "scenario.h"
#include "util.h"

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

static void plot_help(void)
{
	char about[2048] = "Render paper-style figures (PNG and SVG, with gnuplot) from the CSV files\n"
			   "of hetsim run / hetsim sweep.  KIND is one of:\n\n";
	for (int i = 0; i < PLOT_KINDS; i++)
		snprintf(about + strlen(about), sizeof about - strlen(about), "  %-12s %s\n",
			 plot_kinds[i].name, plot_kinds[i].about);
	strcat(about, "  all          every figure the results directory has data for\n"
		      "  colours NAME...  draws nothing: the colour each NAME gets in a figure of\n"
		      "               those names (NAME #rrggbb slot), for a figure of your own;\n"
		      "               no NAME: every name of the palette's table\n\n"
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

/* `hetsim plot colours [NAME...]`: each name's colour in a figure of
 * those names (plot/palette.c), or the table's names each alone. */
static int plot_colours(const struct cmd_args *a)
{
	struct plot_palette pal;
	char err[1200];
	if (plot_palette_load(&pal, err, sizeof err)) {
		fprintf(stderr, "hetsim plot: %s\n", err);
		return 1;
	}
	const char *const *names = a->pos + 1;
	int n = a->npos - 1, slot[256];
	if (n == 0)
		for (int i = 0; i < pal.nnames; i++) {
			const char *one = pal.name[i].name;
			plot_palette_assign(&pal, &one, 1, &slot[0]);
			printf("%s %s %d\n", one, pal.rgb[slot[0] - 1], slot[0]);
		}
	plot_palette_assign(&pal, names, n, slot);
	for (int i = 0; i < n; i++)
		printf("%s %s %d\n", names[i], pal.rgb[slot[i] - 1], slot[i]);
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
	if (a.npos >= 1 && !strcmp(a.pos[0], "colours"))
		return plot_colours(&a);
	if (a.npos != 1) {
		fprintf(stderr, "hetsim plot: expected one KIND, got %d arguments (see hetsim plot "
			"--help)\n", a.npos);
		return 2;
	}
	const char *names[PLOT_KINDS + 2];
	int kind = -1;
	for (int i = 0; i < PLOT_KINDS; i++)
		if (!strcmp(a.pos[0], names[i] = plot_kinds[i].name))
			kind = i;
	names[PLOT_KINDS] = "all";
	names[PLOT_KINDS + 1] = "colours";
	if (kind < 0 && strcmp(a.pos[0], "all")) {
		const char *near = suggest(a.pos[0], names, ARRAY_LEN(names));
		fprintf(stderr, "hetsim plot: unknown figure kind '%s'%s%s%s (known: policies, "
			"jct-by-type, sweep, gantt, utilisation, all, colours)\n", a.pos[0],
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
	if (!rc && !plot_gnuplot_on_path()) {
		fprintf(stderr, "hetsim plot: gnuplot not found; install gnuplot-nox "
			"(scripts/install-deps does)\n");
		rc = 1;
	}
	if (!rc && !(x.scripts = plot_find_scripts(scripts, sizeof scripts))) {
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
	for (int i = 0; !rc && i < PLOT_KINDS; i++)
		if (x.all || i == kind)
			rc = plot_draw_kind(&x, &plot_kinds[i]);
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
