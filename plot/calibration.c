/* calibration.c - the figures of `hetsim calibrate` (plot/calibration.gp,
 * plot/validation.gp): the samples and the fitted lines, drawn beside
 * the samples CSV; a validation's runs beside theirs.  The fitted lines
 * come in as plain data (struct plot_cal_line): calibrate/ is above plot/.
 *
 * May call: plot/gnuplot.c, sim/util.h.
 */
#include "plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Render plot/`name` with gnuplot into png (through png.tmp, renamed when
 * gnuplot succeeds); `vars` are gnuplot assignments, outfile excluded.
 * No gnuplot or no script: a note, and 0 (the figure is a convenience). */
static int gnuplot_run(const char *name, const char *vars, const char *png)
{
	return plot_gnuplot("calibrate", name, vars, png);
}

/* Columns of the samples CSV's header (its first line not a # comment):
 * 5 to 9 as the file's version has them; 5 if it cannot be read. */
static int csv_columns(const char *csv)
{
	FILE *f = fopen(csv, "r");
	char line[1024];
	int cols = 5;
	while (f && fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		cols = 1;
		for (const char *p = line; *p; p++)
			cols += *p == ',';
		break;
	}
	if (f)
		fclose(f);
	return cols;
}

int plot_calibration(const char *png, const char *csv, const struct plot_cal_line *l, int n)
{
	size_t cap = 8192 + strlen(csv) + (size_t)n * 256;
	char *v = xcalloc(1, cap), num[64];
	char *ks = xcalloc(1, (size_t)n * 65 + 1), *ds = xcalloc(1, (size_t)n * 65 + 1);
	char *us = xcalloc(1, (size_t)n * 12 + 1);
	char *aw = xcalloc(1, (size_t)n * 32 + 1), *bw = xcalloc(1, (size_t)n * 32 + 1);
	for (int i = 0; i < n; i++) {
		snprintf(ks + strlen(ks), 65, "%s%s", i ? " " : "", l[i].kernel);
		snprintf(ds + strlen(ds), 65, "%s%s", i ? " " : "", l[i].device);
		snprintf(us + strlen(us), 12, "%s%.10s", i ? " " : "", l[i].unit);
		snprintf(num, sizeof num, "%s%.6g", i ? " " : "", l[i].intercept);
		strcat(aw, num);
		snprintf(num, sizeof num, "%s%.6g", i ? " " : "", l[i].slope);
		strcat(bw, num);
	}
	snprintf(v, cap, "n=%d; ncol=%d; ", n, csv_columns(csv));
	plot_gp_str(v, cap, "csv", csv);
	plot_gp_str(v, cap, "kernels", ks);
	plot_gp_str(v, cap, "devices", ds);
	plot_gp_str(v, cap, "units", us);
	plot_gp_str(v, cap, "intercepts", aw);
	plot_gp_str(v, cap, "slopes", bw);
	int rc = gnuplot_run("calibration.gp", v, png);
	free(v);
	free(ks);
	free(ds);
	free(us);
	free(aw);
	free(bw);
	return rc;
}

/* The validation's figure beside its CSV (a note when gnuplot is missing). */
void plot_validation(const char *csv)
{
	char png[4200], v[4400] = "";
	snprintf(png, sizeof png, "%s.png", csv);
	plot_gp_str(v, sizeof v, "csv", csv);
	gnuplot_run("validation.gp", v, png);
}
