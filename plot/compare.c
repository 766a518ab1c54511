/* compare.c - the figures of `hetsim compare` (plot/compare-cdf.gp,
 * plot/compare-size.gp, plot/compare-makespan.gp), drawn from the CSV
 * files the command wrote into its folder: per workload the JCT CDF and
 * the slowdown by job size, and the makespans of the leaderboard.
 *
 * May call: plot/gnuplot.c.
 */
#include "plot.h"

#include <stdio.h>
#include <string.h>

int plot_compare_workload(const char *out, const char *path, int w, const char *workload,
			  const char *list)
{
	int rc = 0;
	char vars[8192] = "", stem[4300];
	snprintf(stem, sizeof stem, "%s/jct-cdf-%d", out, w + 1);
	plot_gp_str(vars, sizeof vars, "csv", path);
	plot_gp_str(vars, sizeof vars, "workload", workload);
	plot_gp_str(vars, sizeof vars, "policies", list);
	if (plot_gnuplot_both("compare", "compare-cdf.gp", vars, stem))
		rc = 1;
	char v2[8192] = "", sz[4300];
	snprintf(sz, sizeof sz, "%s/sizes.csv", out);
	snprintf(stem, sizeof stem, "%s/slowdown-size-%d", out, w + 1);
	plot_gp_str(v2, sizeof v2, "csv", sz);
	plot_gp_str(v2, sizeof v2, "workload", workload);
	plot_gp_str(v2, sizeof v2, "policies", list);
	if (plot_gnuplot_both("compare", "compare-size.gp", v2, stem))
		rc = 1;
	return rc;
}

int plot_compare_makespan(const char *out)
{
	char vars[8192] = "", stem[4300], lb[4300];
	snprintf(stem, sizeof stem, "%s/makespan", out);
	snprintf(lb, sizeof lb, "%s/leaderboard.csv", out);
	plot_gp_str(vars, sizeof vars, "csv", lb);
	return plot_gnuplot_both("compare", "compare-makespan.gp", vars, stem) ? 1 : 0;
}
