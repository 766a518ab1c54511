/* robust.c - timing that survives a noisy machine: the keyed random
 * order of the repeats, the distribution-free CI of a median that
 * decides how many repeats a size needs, the stall rule and the drift
 * summary (cal.h, "robust timing"; calibrate/README.md, "Timing").
 * Pure functions: the harness (timing.c, contention.c) calls them, and
 * the tests check them on planted samples, with no clock. */
#include "cal.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The order and median of samples: pure, and what the rest of this file
 * and the harness (timing.c) both rest on. */
int cal_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double cal_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cal_cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

uint64_t cal_order_key(uint64_t seed, const char *name)
{
	uint64_t h = fnv1a(1469598103934665603ull, name, strlen(name)); /* (util.h) */
	return seed ^ (h * 0x9e3779b97f4a7c15ull);
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void cal_shuffle(uint64_t *state, int *v, int n)
{
	for (int i = n - 1; i > 0; i--) {
		/* (i + 1) divides 2^64 unevenly by at most 64 / 2^64: no bias that matters */
		int j = (int)(splitmix64(state) % (uint64_t)(i + 1));
		int t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}


double cal_median_ci(const double *t, const bool *keep, int n, double *med)
{
	double *v = xmalloc((size_t)(n ? n : 1) * sizeof *v);
	int m = 0;
	for (int i = 0; i < n; i++)
		if (!keep || keep[i])
			v[m++] = t[i];
	*med = m ? cal_median(v, m) : 0;
	int j = 0; /* the largest 1-based j with P(B <= j - 1) <= 0.025 */
	while (j < m / 2 && gsl_cdf_binomial_P((unsigned)j, 0.5, (unsigned)m) <= 0.025)
		j++;
	double half = j == 0 || !(*med > 0) ? INFINITY : (v[m - j] - v[j - 1]) / 2 / *med;
	free(v);
	return half;
}

int cal_stalls(const double *t, int n, bool *drop)
{
	memset(drop, 0, (size_t)n * sizeof *drop);
	if (n < 5)
		return 0;
	double *v = xmalloc((size_t)n * sizeof *v);
	memcpy(v, t, (size_t)n * sizeof *v);
	double med = cal_median(v, n);
	for (int i = 0; i < n; i++)
		v[i] = fabs(t[i] - med);
	double mad = cal_median(v, n);
	free(v);
	double cut = med + fmax(CAL_STALL_MADS * 1.4826 * mad, CAL_STALL_FLOOR * med);
	int most = (int)floor(CAL_STALL_SHARE * n), dropped = 0;
	while (dropped < most) { /* the slowest above the cut, one at a time */
		int at = -1;
		for (int i = 0; i < n; i++)
			if (!drop[i] && t[i] > cut && (at < 0 || t[i] > t[at]))
				at = i;
		if (at < 0)
			break;
		drop[at] = true;
		dropped++;
	}
	return dropped;
}

int cal_enough(const double *t, const bool *drop, int n, int min_repeats, double target, int cap)
{
	int kept = 0;
	bool *keep = xmalloc((size_t)(n ? n : 1) * sizeof *keep);
	for (int i = 0; i < n; i++)
		kept += keep[i] = !drop || !drop[i];
	double med, half = cal_median_ci(t, keep, n, &med);
	free(keep);
	if (kept >= min_repeats && half <= target)
		return 1;
	return n >= cap ? 2 : 0;
}

void cal_drift_sum(const double *speed, int n, struct cal_drift *d)
{
	memset(d, 0, sizeof *d);
	if (n < 1)
		return;
	d->n = n;
	d->first = d->min = d->max = speed[0];
	d->last = speed[n - 1];
	for (int i = 1; i < n; i++) {
		d->min = fmin(d->min, speed[i]);
		d->max = fmax(d->max, speed[i]);
	}
	double *v = xmalloc((size_t)n * sizeof *v);
	memcpy(v, speed, (size_t)n * sizeof *v);
	d->median = cal_median(v, n);
	free(v);
	d->change = d->first > 0 ? d->last / d->first - 1 : 0;
	d->range = d->min > 0 ? d->max / d->min - 1 : 0;
}
