/* fgd.c - the figures of `hetsim fgd` (plot/fgd.gp): the allocation,
 * fragmentation and fragmentation-ratio curves of curves.csv, which the
 * command wrote, against the arrived GPU demand, one line per policy
 * (the paper's Figs. 9a and 7).
 *
 * May call: plot/gnuplot.c, plot/palette.c (colours).
 */
#include "plot.h"

#include <stdio.h>
#include <string.h>

int plot_fgd(const char *out, const char *list, int nseeds)
{
	int rc = 0;
	static const char *const figs[] = {"alloc", "frag", "frag_ratio"};
	char colours[2048] = "", err[1024];
	/* without the scripts (PLOT_NONE), plot_gnuplot says the figures
	 * are skipped */
	if (plot_colour_words(list, colours, sizeof colours, err, sizeof err) == -1) {
		fprintf(stderr, "hetsim fgd: figures of %s not drawn: %s\n", out, err);
		return 1;
	}
	for (int i = 0; i < 3; i++) {
		char vars[8192] = "", csvp[4200], stem[4200];
		snprintf(csvp, sizeof csvp, "%s/curves.csv", out);
		snprintf(stem, sizeof stem, "%s/%s", out, figs[i]);
		plot_gp_str(vars, sizeof vars, "csv", csvp);
		plot_gp_str(vars, sizeof vars, "metric", figs[i]);
		plot_gp_str(vars, sizeof vars, "policies", list);
		plot_gp_str(vars, sizeof vars, "colours", colours);
		snprintf(vars + strlen(vars), sizeof vars - strlen(vars), "nseeds=%d; ", nseeds);
		if (plot_gnuplot_both("fgd", "fgd.gp", vars, stem))
			rc = 1;
	}
	return rc;
}
