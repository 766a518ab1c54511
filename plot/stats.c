/* stats.c - the statistics the figures and the commands' tables share:
 * mean and Student-t 95 % interval (plot_ci95), the paired changes
 * against a baseline (plot_paired_changes), a mean count as people
 * write it (plot_count_text).
 *
 * May call: GSL.
 */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

void plot_ci95(const double *x, int n, struct plot_ci95 *out)
{
	out->n = n;
	out->mean = n > 0 ? gsl_stats_mean(x, 1, (size_t)n) : NAN;
	out->sd = n > 1 ? gsl_stats_sd(x, 1, (size_t)n) : n == 1 ? 0 : NAN;
	out->half = n > 1 ? gsl_cdf_tdist_Pinv(0.975, n - 1) * out->sd / sqrt(n) : NAN;
}

int plot_paired_changes(const double *x, const double *base, const uint64_t *xset,
			const uint64_t *bset, int n, double *out, int *left)
{
	int k = 0, l = 0;
	for (int r = 0; r < n; r++) {
		if (isnan(x[r]) || isnan(base[r]) || !(base[r] > 0))
			continue;
		if (xset && bset && xset[r] != bset[r]) {
			l++;
			continue;
		}
		out[k++] = 100 * (x[r] - base[r]) / base[r];
	}
	if (left)
		*left = l;
	return k;
}

void plot_count_text(char *buf, size_t len, double x)
{
	if (fabs(x - round(x)) < 0.005) {
		snprintf(buf, len, "%.0f", x);
		return;
	}
	snprintf(buf, len, "%.2f", x);
	size_t n = strlen(buf);
	if (buf[n - 1] == '0')
		buf[n - 1] = '\0';
}
