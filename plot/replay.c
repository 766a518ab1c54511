/* replay.c - the figure of `hetsim replay-log` (plot/replay.gp): each
 * stage's logged span against its simulated one, from the stages.csv the
 * command wrote.
 *
 * May call: plot/gnuplot.c.
 */
#include "plot.h"

#include <stdio.h>
#include <string.h>

int plot_replay(const char *dir, const char *app, const char *policy, int nstages)
{
	char vars[4096] = "", csvp[1100], png[1100];
	snprintf(csvp, sizeof csvp, "%s/stages.csv", dir);
	snprintf(png, sizeof png, "%s/stages.png", dir);
	plot_gp_str(vars, sizeof vars, "csv", csvp);
	char title[512];
	snprintf(title, sizeof title, "%s: logged and simulated stage spans (%s)", app, policy);
	plot_gp_str(vars, sizeof vars, "figtitle", title);
	snprintf(vars + strlen(vars), sizeof vars - strlen(vars), "nstages=%d; ", nstages);
	return plot_gnuplot("replay-log", "replay.gp", vars, png) ? 1 : 0;
}
