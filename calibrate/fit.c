/* fit.c - weighted least-squares cost models (GSL), the samples CSV and
 * the cost-model YAML.  See fit.h for the method. */
#include "fit.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char fit_task_overhead_why[] =
	"Spark's per-task framework cost outside the kernel: task "
	"deserialisation, result serialisation and reporting to the driver "
	"(the Spark UI's per-task Task Deserialization, Result Serialization "
	"and Getting Result times). A few tens of ms for small tasks; tasks "
	"of hundreds of ms are viable in Spark (Ousterhout et al., The Case "
	"for Tiny Tasks in Compute Clusters, HotOS 2013), so it is well under "
	"100 ms. 30 ms is an order-of-magnitude choice, not measured here; "
	"dispatch is the scenario's overheads.task_launch. See calibrate/README.md";

const char *fit_unit(const char *kernel)
{
	static const char *const known[][2] = {
		{"wordcount_map", "MiB"}, {"wordcount_reduce", "MiB"}, {"mnist_step", "samples"},
		{"angel_compute", "samples"}, {"angel_pushpull", "MiB"},
	};
	for (int i = 0; i < ARRAY_LEN(known); i++)
		if (strcmp(kernel, known[i][0]) == 0)
			return known[i][1];
	return "units";
}


static bool same_group(const struct cal_sample *x, const struct fit_line *f)
{
	return strcmp(x->kernel, f->kernel) == 0 && strcmp(x->device, f->device) == 0;
}

/* Fit one group: idx[0..m) index its samples in s. */
static int fit_group(const struct cal_samples *s, const int *idx, int m, struct fit_line *f,
		     char *err, size_t errlen)
{
	double *sz = xmalloc((size_t)m * sizeof *sz), *x = xmalloc((size_t)m * sizeof *x),
	       *y = xmalloc((size_t)m * sizeof *y), *w = xmalloc((size_t)m * sizeof *w),
	       *tmp = xmalloc((size_t)m * sizeof *tmp);
	int n = 0, rc = -1;
	for (int i = 0; i < m; i++)
		sz[i] = s->v[idx[i]].size;
	qsort(sz, (size_t)m, sizeof *sz, cal_cmp_double);
	for (int i = 0; i < m; i++)  /* distinct sizes */
		if (i == 0 || sz[i] != sz[i - 1])
			x[n++] = sz[i];
	if (n < 3) {
		snprintf(err, errlen, "%s on %s: %d distinct sizes, at least 3 needed to fit", f->kernel,
			 f->device, n);
		goto out;
	}
	for (int k = 0; k < n; k++) { /* per-size median, weight 1/median^2 */
		int c = 0;
		for (int i = 0; i < m; i++)
			if (s->v[idx[i]].size == x[k])
				tmp[c++] = s->v[idx[i]].seconds;
		qsort(tmp, (size_t)c, sizeof *tmp, cal_cmp_double);
		y[k] = c % 2 ? tmp[c / 2] : 0.5 * (tmp[c / 2 - 1] + tmp[c / 2]);
		if (!(y[k] > 0)) {
			snprintf(err, errlen, "%s on %s: median duration %g s at size %g, must be > 0",
				 f->kernel, f->device, y[k], x[k]);
			goto out;
		}
		w[k] = 1.0 / (y[k] * y[k]);
	}
	double c0, c1, cov00, cov01, cov11, chisq;
	gsl_fit_wlinear(x, 1, w, 1, y, 1, (size_t)n, &c0, &c1, &cov00, &cov01, &cov11, &chisq);
	(void)cov01;
	double scale = n > 2 ? chisq / (n - 2) : 0, t = gsl_cdf_tdist_Pinv(0.975, n - 2);
	double h0 = t * sqrt(cov00 * scale), h1 = t * sqrt(cov11 * scale);
	double sw = 0, swy = 0, sst = 0;
	for (int k = 0; k < n; k++) {
		sw += w[k];
		swy += w[k] * y[k];
	}
	for (int k = 0; k < n; k++)
		sst += w[k] * (y[k] - swy / sw) * (y[k] - swy / sw);
	/* The noise: the relative residual of every sample, its spread
	 * estimated robustly, 1.4826 x the median absolute deviation (the
	 * standard deviation for normal residuals).  A shared VM now and then
	 * slows a whole repeat by tens of per cent; the root mean square let
	 * those few samples set the noise of every task (a fit here once
	 * showed 26 % from one slow repeat in seven, against 2-4 % otherwise),
	 * and such machine-wide stalls are not a task's own variation. */
	double *rel = xmalloc((size_t)m * sizeof *rel);
	for (int i = 0; i < m; i++) {
		const struct cal_sample *p = &s->v[idx[i]];
		double yh = c0 + c1 * p->size;
		if (!(yh > 0))
			yh = p->seconds;
		rel[i] = (p->seconds - yh) / yh;
	}
	qsort(rel, (size_t)m, sizeof *rel, cal_cmp_double);
	double med = m % 2 ? rel[m / 2] : 0.5 * (rel[m / 2 - 1] + rel[m / 2]);
	for (int i = 0; i < m; i++)
		rel[i] = fabs(rel[i] - med);
	qsort(rel, (size_t)m, sizeof *rel, cal_cmp_double);
	double mad = m % 2 ? rel[m / 2] : 0.5 * (rel[m / 2 - 1] + rel[m / 2]);
	free(rel);
	f->unit = fit_unit(f->kernel);
	f->n = n;
	f->samples = m;
	f->intercept = c0;
	f->slope = c1;
	f->intercept_ci[0] = c0 - h0;
	f->intercept_ci[1] = c0 + h0;
	f->slope_ci[0] = c1 - h1;
	f->slope_ci[1] = c1 + h1;
	f->r2 = sst > 0 ? 1 - chisq / sst : 1;
	f->cv = m > 2 ? 1.4826 * mad : 0;
	rc = 0;
out:
	free(sz);
	free(x);
	free(y);
	free(w);
	free(tmp);
	return rc;
}

/* The clock rule (fit.h) for the group of line l, whose sweep's kept
 * samples are idx[0..m) of s: sets l->cpu_share and l->on_cpu.  When on
 * the CPU clock, returns a copy of s whose samples of the group have
 * their CPU time as `seconds` (free its v); else NULL. */
static struct cal_sample *pick_clock(const struct cal_samples *s, const int *idx, int m,
				     struct fit_line *l)
{
	double *share = xmalloc((size_t)(m ? m : 1) * sizeof *share);
	int n = 0;
	for (int i = 0; i < m; i++) {
		const struct cal_sample *x = &s->v[idx[i]];
		if (x->cpu_seconds > 0 && x->seconds > 0)
			share[n++] = x->cpu_seconds / x->seconds;
	}
	l->cpu_share = n && n == m ? cal_median(share, n) : 0;
	free(share);
	bool all = l->cpu_share > 0; /* the contention samples need it too */
	for (int i = 0; i < s->n && all; i++)
		all = !same_group(&s->v[i], l) || s->v[i].dropped || s->v[i].cpu_seconds > 0;
	l->on_cpu = all && l->cpu_share < FIT_CPU_SHARE;
	if (!l->on_cpu)
		return NULL;
	struct cal_sample *v = xmalloc((size_t)s->n * sizeof *v);
	memcpy(v, s->v, (size_t)s->n * sizeof *v);
	for (int i = 0; i < s->n; i++)
		if (same_group(&v[i], l) && v[i].cpu_seconds > 0)
			v[i].seconds = v[i].cpu_seconds;
	return v;
}

int fit_all(const struct cal_samples *s, struct fit_line **out, char *err, size_t errlen)
{
	struct fit_line *f = NULL;
	int n = 0, cap = 0, *idx = xmalloc((size_t)(s->n ? s->n : 1) * sizeof *idx);
	for (int i = 0; i < s->n; i++) {
		bool seen = false;
		for (int j = 0; j < n && !seen; j++)
			seen = same_group(&s->v[i], &f[j]);
		if (seen)
			continue;
		xgrow(&f, &cap, n + 1, sizeof *f);
		struct fit_line *l = &f[n];
		memset(l, 0, sizeof *l);
		snprintf(l->kernel, sizeof l->kernel, "%s", s->v[i].kernel);
		snprintf(l->device, sizeof l->device, "%s", s->v[i].device);
		int m = 0;
		for (int k = i; k < s->n; k++)
			if (s->v[k].k <= 1 && !s->v[k].round && !s->v[k].dropped &&
			    same_group(&s->v[k], l))
				idx[m++] = k;
		struct cal_sample *cpu = pick_clock(s, idx, m, l);
		struct cal_samples on = {cpu ? cpu : s->v, s->n, s->n};
		int bad = fit_group(&on, idx, m, l, err, errlen) ||
			  fit_contention(&on, l, err, errlen);
		free(cpu);
		if (bad) {
			free(f);
			free(idx);
			return -1;
		}
		n++;
	}
	free(idx);
	if (n == 0) {
		snprintf(err, errlen, "no samples to fit");
		free(f);
		return -1;
	}
	*out = f;
	return n;
}

/* Median of v[0..n) (sorted in place), and into *spread 1.4826 x its
 * median absolute deviation over it (v is overwritten). */
static double median_spread(double *v, int n, double *spread)
{
	qsort(v, (size_t)n, sizeof *v, cal_cmp_double);
	double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
	for (int i = 0; i < n; i++)
		v[i] = fabs(v[i] - med);
	qsort(v, (size_t)n, sizeof *v, cal_cmp_double);
	double mad = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
	*spread = med > 0 ? 1.4826 * mad / med : 0;
	return med;
}

/* Whether some sample of the group with k > 1 has this size. */
static bool contended_size(const struct cal_samples *s, const struct fit_line *f, double size)
{
	for (int i = 0; i < s->n; i++)
		if (s->v[i].k > 1 && s->v[i].size == size && same_group(&s->v[i], f))
			return true;
	return false;
}

/* The k = 1 sample of the group's contention round `round` at `size`,
 * not dropped; NULL if none. */
static const struct cal_sample *round_ref(const struct cal_samples *s, const struct fit_line *f,
					  int round, double size)
{
	for (int i = 0; i < s->n; i++) {
		const struct cal_sample *x = &s->v[i];
		if (x->k <= 1 && x->round == round && x->size == size && !x->dropped &&
		    same_group(x, f))
			return x;
	}
	return NULL;
}

/* Whether y is a kept sample of group f at k = want in x's round and
 * size (one of that round's copies). */
static bool same_round(const struct cal_sample *y, const struct fit_line *f, int want,
		       const struct cal_sample *x)
{
	return !y->dropped && same_group(y, f) && y->k == want && y->round == x->round &&
	       y->size == x->size;
}

/* Whether sample i (k = want) has an earlier copy of its round: its
 * round was counted there. */
static bool first_of_round(const struct cal_samples *s, const struct fit_line *f, int i, int want)
{
	for (int q = 0; q < i; q++)
		if (same_round(&s->v[q], f, want, &s->v[i]))
			return true;
	return false;
}

/* fit_contention where the samples carry their rounds (round > 0): the
 * slowdown at k is the median, over every copy's sample at k of every
 * round, of its time over the same round's k = 1 time; its spread that
 * of these ratios.  k = 1: 1, and the spread of the rounds' k = 1
 * times.  Dropped samples (stalls) pair nothing. */
static int paired_contention(const struct cal_samples *s, struct fit_line *f, const int *ks,
			     int nk, char *err, size_t errlen)
{
	double *v = xmalloc((size_t)s->n * sizeof *v);
	for (int j = 0; j <= nk; j++) {
		int want = j ? ks[j - 1] : 1, m = 0;
		for (int i = 0; i < s->n; i++) {
			const struct cal_sample *x = &s->v[i], *r;
			if (x->dropped || !same_group(x, f) || x->round <= 0 ||
			    (j ? x->k != want : x->k > 1))
				continue;
			if (!j) {
				v[m++] = x->seconds;
				continue;
			}
			/* one value per round: its k copies' mean time over the
			 * round's k = 1 time.  The copies share that reference, so
			 * pooling them as independent values would make the spread
			 * (and contention.c's CI) too narrow. */
			if (!(r = round_ref(s, f, x->round, x->size)) ||
			    first_of_round(s, f, i, want))
				continue;
			double sum = 0;
			int cnt = 0;
			for (int q = i; q < s->n; q++)
				if (same_round(&s->v[q], f, want, x))
					sum += s->v[q].seconds, cnt++;
			v[m++] = sum / cnt / r->seconds;
		}
		if (m == 0 && !j) {
			snprintf(err, errlen, "%s on %s: no k = 1 run left in the contention rounds "
				 "(all dropped), the reference of the slowdown", f->kernel, f->device);
			free(v);
			return -1;
		}
		if (m == 0) {
			snprintf(err, errlen, "%s on %s: no round with k = %d pairs with a k = 1 run "
				 "of the same round, the reference of the slowdown", f->kernel,
				 f->device, want);
			free(v);
			return -1;
		}
		double med = median_spread(v, m, &f->spread[j]);
		f->k[j] = want;
		f->slowdown[j] = j ? med : 1.0;
		f->ksamples[j] = m;
	}
	free(v);
	f->nk = nk + 1;
	return 0;
}

int fit_contention(const struct cal_samples *s, struct fit_line *f, char *err, size_t errlen)
{
	int ks[FIT_MAX_K], nk = 0;
	f->nk = 0;
	for (int i = 0; i < s->n; i++) { /* the values of k > 1, increasing */
		const struct cal_sample *x = &s->v[i];
		if (x->k <= 1 || !same_group(x, f))
			continue;
		int at = 0;
		while (at < nk && ks[at] < x->k)
			at++;
		if (at < nk && ks[at] == x->k)
			continue;
		if (nk == FIT_MAX_K - 1) {
			snprintf(err, errlen, "%s on %s: more than %d values of k", f->kernel, f->device,
				 FIT_MAX_K - 1);
			return -1;
		}
		memmove(ks + at + 1, ks + at, (size_t)(nk - at) * sizeof *ks);
		ks[at] = x->k;
		nk++;
	}
	if (nk == 0)
		return 0;
	for (int i = 0; i < s->n; i++)
		if (s->v[i].k <= 1 && s->v[i].round > 0 && same_group(&s->v[i], f))
			return paired_contention(s, f, ks, nk, err, errlen);
	double *v = xmalloc((size_t)s->n * sizeof *v), ref = 0;
	for (int j = 0; j <= nk; j++) {
		int want = j ? ks[j - 1] : 1, m = 0;
		for (int i = 0; i < s->n; i++) {
			const struct cal_sample *x = &s->v[i];
			if (!same_group(x, f))
				continue;
			if (x->dropped)
				continue;
			if (j ? x->k == want : x->k <= 1 && contended_size(s, f, x->size))
				v[m++] = x->seconds;
		}
		if (m == 0) {
			snprintf(err, errlen, "%s on %s: samples with k > 1 but none alone at their "
				 "size, the reference of the slowdown", f->kernel, f->device);
			free(v);
			return -1;
		}
		double med = median_spread(v, m, &f->spread[j]);
		if (j == 0)
			ref = med;
		f->k[j] = want;
		f->slowdown[j] = j ? med / ref : 1.0;
		f->ksamples[j] = m;
	}
	free(v);
	f->nk = nk + 1;
	return 0;
}

bool fit_poor(const struct fit_line *f, char *why, size_t len)
{
	if (f->slope_ci[0] > 0 && f->r2 < FIT_MIN_R2) {
		snprintf(why, len, "R^2 %.4f < %.2f although the duration grows with size", f->r2,
			 FIT_MIN_R2);
		return true;
	}
	if (f->cv > FIT_MAX_CV) {
		snprintf(why, len, "residual CV %.1f %% > %.0f %%", 100 * f->cv, 100 * FIT_MAX_CV);
		return true;
	}
	why[0] = '\0';
	return false;
}

/* ---- files --------------------------------------------------------- */

/* A YAML double-quoted scalar. */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* µs with 3 decimals, no "-0.000". */
static void put_us(FILE *f, double seconds)
{
	char b[64];
	snprintf(b, sizeof b, "%.3f", seconds * 1e6);
	fprintf(f, "%sus", strcmp(b, "-0.000") == 0 ? "0.000" : b);
}

static int finish(FILE *f, const char *tmp, const char *path, char *err, size_t errlen)
{
	bool bad = ferror(f) != 0;
	if (fclose(f) || bad || rename(tmp, path)) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno ? errno : EIO));
		remove(tmp);
		return -1;
	}
	return 0;
}

static FILE *open_tmp(const char *path, char *tmp, size_t len, char *err, size_t errlen)
{
	snprintf(tmp, len, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
	return f;
}

static void put_kernel(FILE *f, const struct fit_line *l, int n, int first)
{
	double cv = 0;
	for (int j = first; j < n; j++)
		if (strcmp(l[j].kernel, l[first].kernel) == 0 && l[j].cv > cv)
			cv = l[j].cv;
	fprintf(f, "  %s:\n    unit: %s\n    noise: {dist: lognormal, cv: %.4f}\n    devices:\n",
		l[first].kernel, l[first].unit, cv);
	for (int j = first; j < n; j++) {
		if (strcmp(l[j].kernel, l[first].kernel) != 0)
			continue;
		fprintf(f, "      %s: {intercept: ", l[j].device);
		put_us(f, l[j].intercept > 0 ? l[j].intercept : 0);
		fprintf(f, ", slope: ");
		put_us(f, l[j].slope > 0 ? l[j].slope : 0);
		fprintf(f, "}\n");
	}
	bool any = false;
	for (int j = first; j < n; j++)
		any = any || (strcmp(l[j].kernel, l[first].kernel) == 0 && l[j].nk > 1);
	if (any)
		fprintf(f, "    contention:\n");
	for (int j = first; j < n && any; j++) {
		if (strcmp(l[j].kernel, l[first].kernel) != 0 || l[j].nk < 2)
			continue;
		fprintf(f, "      %s: {k: [", l[j].device);
		for (int i = 0; i < l[j].nk; i++)
			fprintf(f, "%s%d", i ? ", " : "", l[j].k[i]);
		fprintf(f, "], slowdown: [");
		for (int i = 0; i < l[j].nk; i++)
			fprintf(f, i ? ", %.4f" : "1", l[j].slowdown[i]);
		fprintf(f, "], spread: [");
		for (int i = 0; i < l[j].nk; i++)
			fprintf(f, "%s%.4f", i ? ", " : "", l[j].spread[i]);
		fprintf(f, "], beyond: hold}\n");
	}
	fprintf(f, "    fit:\n");
	for (int j = first; j < n; j++) {
		if (strcmp(l[j].kernel, l[first].kernel) != 0)
			continue;
		fprintf(f, "      %s: {r2: %.5f, cv: %.4f, intercept: ", l[j].device, l[j].r2, l[j].cv);
		put_us(f, l[j].intercept);
		fprintf(f, ", intercept_ci: [");
		put_us(f, l[j].intercept_ci[0]);
		fprintf(f, ", ");
		put_us(f, l[j].intercept_ci[1]);
		fprintf(f, "], slope: ");
		put_us(f, l[j].slope);
		fprintf(f, ", slope_ci: [");
		put_us(f, l[j].slope_ci[0]);
		fprintf(f, ", ");
		put_us(f, l[j].slope_ci[1]);
		fprintf(f, "], n: %d, samples: %d, clock: %s", l[j].n, l[j].samples,
			l[j].on_cpu ? "cpu" : "wall");
		if (l[j].cpu_share > 0)
			fprintf(f, ", cpu_share: %.4f", l[j].cpu_share);
		fprintf(f, "}\n");
	}
}

/* "  key: "text"", when text is not NULL. */
static void put_text(FILE *f, const char *key, const char *text)
{
	if (!text)
		return;
	fprintf(f, "  %s: ", key);
	put_str(f, text);
	fputc('\n', f);
}

/* meta, version 2 (docs/scenario.md, "meta"): provenance first. */
static void put_meta(FILE *f, const struct fit_meta *m)
{
	fprintf(f, "meta:\n");
	put_text(f, "source", m->source);
	if (m->machine && m->cores > 0 && m->memory_mib > 0) {
		fprintf(f, "  machine: {cpu: ");
		put_str(f, m->machine);
		fprintf(f, ", cores: %d, memory: %lldMiB}\n", m->cores, (long long)m->memory_mib);
	}
	if (m->gpu && m->gpu_memory_mib > 0) {
		fprintf(f, "  gpu: {name: ");
		put_str(f, m->gpu);
		fprintf(f, ", memory: %lldMiB", (long long)m->gpu_memory_mib);
		if (m->gpu_cuda) {
			fprintf(f, ", cuda: ");
			put_str(f, m->gpu_cuda);
		}
		fprintf(f, "}\n");
	}
	put_text(f, "os", m->os);
	put_text(f, "compiler", m->compiler);
	put_text(f, "blas", m->blas);
	put_text(f, "date", m->date);
	if (m->ref_kernel && m->ref_speed > 0)
		fprintf(f, "  reference: {kernel: %s, speed: %.2f}\n", m->ref_kernel, m->ref_speed);
	if (m->timing)
		fprintf(f, "  timing: {seed: %llu, ci: %.3f, cap: %d, sizes: %d, capped: %d, "
			"repeats: %d, stalls: %d}\n", (unsigned long long)m->timing->seed,
			m->timing->ci_target, m->timing->cap, m->timing->sizes, m->timing->capped,
			m->timing->repeats, m->timing->stalls);
	if (m->ref_kernel && m->ndrift > 0) {
		struct cal_drift d;
		cal_drift_sum(m->drift, m->ndrift, &d);
		fprintf(f, "  drift: {kernel: %s, points: %d, first: %.2f, last: %.2f, min: %.2f, "
			"max: %.2f, change: %.2f, speeds: [", m->ref_kernel, d.n, d.first, d.last,
			d.min, d.max, 100 * d.change);
		for (int i = 0; i < m->ndrift; i++)
			fprintf(f, "%s%.2f", i ? ", " : "", m->drift[i]);
		fprintf(f, "]}\n");
	}
	if (m->load) {
		const struct cal_load_sum *l = m->load;
		fprintf(f, "  load: {checks: %d, busy: %d", l->checks, l->busy);
		if (l->unread)
			fprintf(f, ", unread: %d", l->unread);
		if (l->checks)
			fprintf(f, ", cores: %d, window: %.2f, other_cores_max: %.2f, steal_pct_max: "
				"%.1f, load1_max: %.2f", l->cores, CAL_BUSY_WINDOW, l->other_max,
				100 * l->steal_max, l->load1_max);
		fprintf(f, "}\n");
	}
	if (m->contention_k[0] > 0 && m->contention_k[1] >= m->contention_k[0])
		fprintf(f, "  contention_k: [%d, %d]\n", m->contention_k[0], m->contention_k[1]);
	put_text(f, "backend", m->backend);
	if (m->threads)
		fprintf(f, "  threads: %d\n", m->threads);
	put_text(f, "data", m->data);
	fprintf(f, "  fit: \"gsl_fit_wlinear on per-size medians, weights 1/median^2\"\n");
	fprintf(f, "  clock: \"wall time (CLOCK_MONOTONIC); a (kernel, device) whose thread ran "
		"under %.0f %% of it (CLOCK_THREAD_CPUTIME_ID, the median over its sweep) is fitted "
		"on that CPU time; each fit entry's clock says which\"\n", 100 * FIT_CPU_SHARE);
	put_text(f, "task_overhead", fit_task_overhead_why);
}

int fit_write_model(const char *path, const struct fit_line *l, int n,
		    const struct fit_meta *meta, char *err, size_t errlen)
{
	char tmp[4200];
	FILE *f = open_tmp(path, tmp, sizeof tmp, err, errlen);
	if (!f)
		return -1;
	fprintf(f, "# Cost model measured by `hetsim calibrate` (calibrate/README.md).\n"
		   "# duration = intercept + slope x work per (kernel, device): GSL weighted\n"
		   "# least squares over per-size medians, weights 1/median^2; 95 %% Student-t\n"
		   "# intervals; noise cv = 1.4826 x the median absolute deviation of all\n"
		   "# samples' relative residuals.  Negative fitted coefficients are written\n"
		   "# as 0 under devices (fit: keeps them).\n"
		   "# contention (where measured): per device, the slowdown with k copies\n"
		   "# running at once, one per core (median over rounds of the copies' mean\n"
		   "# time / the round's single copy) and its\n"
		   "# spread (1.4826 x MAD / median); linear between measured k, and beyond\n"
		   "# the largest measured k the last factor holds (beyond: hold).\n"
		   "# durations are wall times, or the thread's CPU times where fit: says\n"
		   "# clock: cpu (its thread ran under %.0f %% of the wall time: meta.clock).\n"
		   "version: 2\ntask_overhead: %dms\n", 100 * FIT_CPU_SHARE,
		   FIT_TASK_OVERHEAD_US / 1000);
	put_meta(f, meta);
	fprintf(f, "kernels:\n");
	for (int i = 0; i < n; i++) {
		bool done = false;
		for (int j = 0; j < i && !done; j++)
			done = strcmp(l[j].kernel, l[i].kernel) == 0;
		if (!done)
			put_kernel(f, l, n, i);
	}
	return finish(f, tmp, path, err, errlen);
}

int fit_write_samples(const char *path, const struct cal_samples *s, const char *seed_note,
		      char *err, size_t errlen)
{
	char tmp[4200];
	FILE *f = open_tmp(path, tmp, sizeof tmp, err, errlen);
	if (!f)
		return -1;
	if (seed_note)
		fprintf(f, "# %s\n", seed_note);
	fprintf(f, "kernel,device,size,repeat,seconds,k,round,seq,dropped,cpu_seconds\n");
	for (int i = 0; i < s->n; i++)
		fprintf(f, "%s,%s,%.17g,%d,%.9f,%d,%d,%ld,%d,%.9f\n", s->v[i].kernel,
			s->v[i].device, s->v[i].size, s->v[i].repeat, s->v[i].seconds,
			s->v[i].k > 1 ? s->v[i].k : 1, s->v[i].round, s->v[i].seq,
			s->v[i].dropped ? 1 : 0, s->v[i].cpu_seconds);
	return finish(f, tmp, path, err, errlen);
}

/* Letters, digits, '_', '-', '.' (and only lowercase when lower). */
static bool good_name(const char *s, bool lower)
{
	if (!*s || strlen(s) > 63)
		return false;
	for (; *s; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
			  (!lower && ((c >= 'A' && c <= 'Z') || c == '.'));
		if (!ok)
			return false;
	}
	return true;
}

static bool num(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return end != s && !*end && !errno && isfinite(*v);
}

static int parse_row(char *line, struct cal_sample *x, char *what, size_t len)
{
	char *fld[11];
	int nf = 0;
	for (char *p = line; nf < 11;) {
		fld[nf++] = p;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	double size, rep, sec, k = 1, round = 0, seq = 0, drop = 0, cpu = 0;
	if (nf != 5 && nf != 6 && nf != 9 && nf != 10)
		snprintf(what, len, "expected 5, 6 or 9 fields (kernel,device,size,repeat,seconds"
			 "[,k[,round,seq,dropped]]), or 10 with cpu_seconds, got %d", nf);
	else if (!good_name(fld[0], false))
		snprintf(what, len, "bad kernel name '%s'", fld[0]);
	else if (!good_name(fld[1], true))
		snprintf(what, len, "bad device key '%s' (lowercase letters, digits, _ and -)", fld[1]);
	else if (!num(fld[2], &size) || size < 0)
		snprintf(what, len, "bad size '%s' (a number >= 0)", fld[2]);
	else if (!num(fld[3], &rep) || rep < 0 || rep != floor(rep) || rep > 1e9)
		snprintf(what, len, "bad repeat '%s' (an integer >= 0)", fld[3]);
	else if (!num(fld[4], &sec) || !(sec > 0))
		snprintf(what, len, "bad seconds '%s' (a number > 0)", fld[4]);
	else if (nf >= 6 && (!num(fld[5], &k) || k < 1 || k != floor(k) || k > 1e6))
		snprintf(what, len, "bad k '%s' (copies at once: an integer >= 1)", fld[5]);
	else if (nf >= 9 && (!num(fld[6], &round) || round < 0 || round != floor(round) ||
			     round > 1e9))
		snprintf(what, len, "bad round '%s' (an integer >= 0)", fld[6]);
	else if (nf >= 9 && (!num(fld[7], &seq) || seq < 0 || seq != floor(seq) || seq > 1e15))
		snprintf(what, len, "bad seq '%s' (an integer >= 0)", fld[7]);
	else if (nf >= 9 && (!num(fld[8], &drop) || (drop != 0 && drop != 1)))
		snprintf(what, len, "bad dropped '%s' (0 or 1)", fld[8]);
	else if (nf == 10 && (!num(fld[9], &cpu) || cpu < 0))
		snprintf(what, len, "bad cpu_seconds '%s' (a number >= 0; 0: not measured)", fld[9]);
	else {
		x->cpu_seconds = cpu;
		x->k = (int)k;
		x->round = (int)round;
		x->seq = (long)seq;
		x->dropped = drop == 1;
		snprintf(x->kernel, sizeof x->kernel, "%s", fld[0]);
		snprintf(x->device, sizeof x->device, "%s", fld[1]);
		x->size = size;
		x->repeat = (int)rep;
		x->seconds = sec;
		return 0;
	}
	return -1;
}

int fit_read_samples(const char *path, struct cal_samples *s, char *err, size_t errlen)
{
	const char *why;
	FILE *f = fopen_regular(path, &why);
	if (!f) {
		snprintf(err, errlen, "cannot read '%s': %s", path, why);
		return -1;
	}
	char line[1024];
	int lineno = 0, rc = 0;
	bool data = false;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		size_t l = strlen(line);
		if (l == sizeof line - 1 && line[l - 1] != '\n') {
			snprintf(err, errlen, "%s:%d: line too long", path, lineno);
			rc = -1;
			break;
		}
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (!data && strncmp(line, "kernel,", 7) == 0) { /* the header */
			data = true;
			continue;
		}
		data = true;
		struct cal_sample x;
		char what[256];
		if (parse_row(line, &x, what, sizeof what)) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, what);
			rc = -1;
			break;
		}
		cal_samples_push(s, &x);
	}
	fclose(f);
	if (!rc && s->n == 0) {
		snprintf(err, errlen, "%s: no samples", path);
		rc = -1;
	}
	return rc;
}
