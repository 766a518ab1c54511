/* scn_cost.c - the cost model (docs/scenario.md, "Cost model"): the
 * `cost_model:` key of a scenario, the built-in model, and cost-model
 * files (scn_cost_load, scn_meta_load: kernels, devices, noise,
 * contention, and the meta block of where and how they were measured);
 * the busy curves the kernels' contention makes (scn_busy_curves).
 *
 * It may call the value readers (scn_value.c) and input/scn_yaml.h.
 */
#include "scn_int.h"

#include "model.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const cost_keys[] = {"version", "task_overhead", "meta", "kernels"};
static const char *const kernel_keys[] = {"unit", "noise", "devices", "contention", "fit"};
static const char *const noise_keys[] = {"dist", "cv"};
static const char *const device_keys[] = {"intercept", "slope"};

static int load_noise(struct ld *ld, const struct yn *v, struct scn_cost_kernel *k)
{
	const struct yn *d, *cv;
	if (v->kind == YN_SCALAR && strcmp(v->str, "none") == 0)
		return 0;
	if (v->kind != YN_MAP)
		return scn_fail(ld, v, "expected none or {dist: lognormal, cv: C} for noise, got %s", scn_got(ld, v));
	if (CHECK_MAP(ld, v, "noise", noise_keys) < 0 || !(d = scn_need(ld, v, "dist", "noise", NULL)) ||
	    !(cv = scn_need(ld, v, "cv", "noise", NULL)))
		return -1;
	if (d->kind != YN_SCALAR || strcmp(d->str, "lognormal") != 0)
		return scn_fail(ld, d, "unknown noise distribution %s (known: lognormal)", scn_got(ld, d));
	k->noise = SCN_NOISE_LOGNORMAL;
	return scn_get_cv(ld, cv, &k->noise_cv);
}

static int load_devices(struct ld *ld, const struct yn *m, struct scn_cost_kernel *k)
{
	if (scn_want(ld, m, YN_MAP, "devices") < 0)
		return -1;
	if (m->nkids == 0)
		return scn_fail(ld, m, "expected at least one device in devices of kernel '%s'", k->name);
	k->devs = xcalloc((size_t)m->nkids / 2, sizeof *k->devs);
	k->ndevs = m->nkids / 2;
	for (int i = 0; i < k->ndevs; i++) {
		struct scn_cost_dev *d = &k->devs[i];
		const struct yn *key = m->kids[2 * i], *v = m->kids[2 * i + 1], *a, *b;
		if (scn_get_ident(ld, key, ID_LOWER, "device key", &d->device) < 0 ||
		    CHECK_MAP(ld, v, "device", device_keys) < 0 ||
		    !(a = scn_need(ld, v, "intercept", "device", d->device)) ||
		    !(b = scn_need(ld, v, "slope", "device", d->device)) ||
		    scn_get_time_real(ld, a, &d->intercept_us) < 0 || scn_get_time_real(ld, b, &d->slope_us) < 0)
			return -1;
		d->intercept_at = scn_pos_at(ld, a);
		d->slope_at = scn_pos_at(ld, b);
	}
	return 0;
}

/* ---- contention: slowdown against copies running at once ---------- */

static const char *const contention_keys[] = {"k", "slowdown", "spread", "beyond"};
#define MAX_SLOWDOWN 1000.0 /* a contention factor */

/* A list of n numbers of a contention entry (`what`: "slowdown"), each
 * > 0 (`positive`) or >= 0, into v[0..n). */
static int contention_nums(struct ld *ld, const struct yn *l, const char *what, int n,
			   bool positive, double *v)
{
	if (scn_want_list(ld, l, what, "value") < 0)
		return -1;
	if (l->nkids != n)
		return scn_fail(ld, l, "expected %d values in %s, one per k, got %d", n, what, l->nkids);
	for (int i = 0; i < n; i++) {
		const struct yn *x = l->kids[i];
		if (scn_get_num(ld, x, &v[i]) < 0)
			return -1;
		if (positive ? !(v[i] > 0) : v[i] < 0)
			return scn_fail(ld, x, "expected a %s %s 0, got %s", what, positive ? ">" : ">=",
				    scn_got(ld, x));
		if (v[i] > MAX_SLOWDOWN)
			return scn_fail(ld, x, "%s is above the limit of %g for a %s", scn_got(ld, x),
				    MAX_SLOWDOWN, what);
	}
	return 0;
}

/* One device's entry, {k: [1, ...], slowdown: [1, ...], spread: [...],
 * beyond: hold}: k strictly increasing from 1, slowdown 1 at k = 1.
 * Into d->slowdown, every k up to the largest, linear between the
 * measured ones. */
static int load_contention_dev(struct ld *ld, const struct yn *m, struct scn_cost_dev *d)
{
	const struct yn *kl, *sl, *v;
	if (CHECK_MAP(ld, m, "contention entry", contention_keys) < 0 ||
	    !(kl = scn_need(ld, m, "k", "contention entry", d->device)) ||
	    !(sl = scn_need(ld, m, "slowdown", "contention entry", d->device)) ||
	    scn_want_list(ld, kl, "k", "value") < 0)
		return -1;
	if ((v = yn_get(m, "beyond")) && (v->kind != YN_SCALAR || strcmp(v->str, "hold") != 0))
		return scn_fail(ld, v, "unknown rule %s beyond the largest k (known: hold)", scn_got(ld, v));
	int n = kl->nkids, rc = -1;
	int *k = xcalloc((size_t)n, sizeof *k);
	double *f = xcalloc((size_t)n, sizeof *f), *spread = xcalloc((size_t)n, sizeof *spread);
	for (int i = 0; i < n; i++) {
		if (scn_get_lim(ld, kl->kids[i], 1, SCN_MAX_CORES, "copies", &k[i]) < 0)
			goto out;
		if (i == 0 && k[0] != 1) {
			scn_fail(ld, kl->kids[0], "expected k to start at 1 (the reference), got %s",
			     scn_got(ld, kl->kids[0]));
			goto out;
		}
		if (i > 0 && k[i] <= k[i - 1]) {
			scn_fail(ld, kl->kids[i], "expected k in increasing order, got %s after %d",
			     scn_got(ld, kl->kids[i]), k[i - 1]);
			goto out;
		}
	}
	if (contention_nums(ld, sl, "slowdown", n, true, f) < 0 ||
	    ((v = yn_get(m, "spread")) && contention_nums(ld, v, "spread", n, false, spread) < 0))
		goto out;
	if (f[0] != 1) {
		scn_fail(ld, sl->kids[0], "expected slowdown 1 at k = 1 (the reference), got %s",
		     scn_got(ld, sl->kids[0]));
		goto out;
	}
	d->nslowdown = k[n - 1];
	d->slowdown = xcalloc((size_t)d->nslowdown, sizeof *d->slowdown);
	for (int i = 0; i + 1 < n; i++)
		for (int j = k[i]; j < k[i + 1]; j++)
			d->slowdown[j - 1] = f[i] + (f[i + 1] - f[i]) * (j - k[i]) / (k[i + 1] - k[i]);
	d->slowdown[k[n - 1] - 1] = f[n - 1];
	rc = 0;
out:
	free(k);
	free(f);
	free(spread);
	return rc;
}

/* A kernel's `contention`: a mapping of its devices to entries. */
static int load_contention(struct ld *ld, const struct yn *m, struct scn_cost_kernel *k)
{
	if (scn_want(ld, m, YN_MAP, "contention") < 0)
		return -1;
	for (int i = 0; i < m->nkids / 2; i++) {
		const struct yn *key = m->kids[2 * i];
		struct scn_cost_dev *d = NULL;
		for (int j = 0; j < k->ndevs && !d; j++)
			if (key->kind == YN_SCALAR && strcmp(k->devs[j].device, key->str) == 0)
				d = &k->devs[j];
		if (!d) {
			const char *names[64];
			int nn = k->ndevs < 64 ? k->ndevs : 64;
			char list[512];
			for (int j = 0; j < nn; j++)
				names[j] = k->devs[j].device;
			return scn_fail(ld, key, "contention for device %s, which kernel '%s' has not "
				    "under devices (known: %s)", scn_got(ld, key), k->name,
				    scn_join(names, nn, list, sizeof list));
		}
		if (d->slowdown)
			return scn_fail(ld, key, "contention for device '%s' given twice", d->device);
		if (load_contention_dev(ld, m->kids[2 * i + 1], d) < 0)
			return -1;
	}
	return 0;
}

/* Whether kernel `name` is one the workload's tasks run on a node's
 * clock (a job model's clock_kernels), or one of `only` where given. */
static bool clock_kernel(const struct scn *s, const char *const *only, const char *name)
{
	for (const char *const *k = only; k && *k; k++)
		if (strcmp(*k, name) == 0)
			return true;
	for (int g = 0; !only && g < s->njobgroups; g++) {
		const char *const *k = s->jobs[g].model->clock_kernels;
		for (; k && *k; k++)
			if (strcmp(*k, name) == 0)
				return true;
	}
	return false;
}

void scn_busy_curves(struct scn *s, const char *const *only)
{
	for (int g = 0; g < s->ngroups; g++) {
		free(s->groups[g].busy_slowdown);
		s->groups[g].busy_slowdown = NULL;
		s->groups[g].nbusy = 0;
	}
	const struct scn_cost_model *c = &s->cost;
	bool any = false;
	for (int i = 0; i < c->nkernels && !any; i++)
		any = scn_cost_device(&c->kernels[i], "cpu") &&
		      clock_kernel(s, only, c->kernels[i].name);
	bool *use = xmalloc((size_t)(c->nkernels ? c->nkernels : 1) * sizeof *use);
	int n = 0;
	for (int i = 0; i < c->nkernels; i++) {
		const struct scn_cost_dev *d = scn_cost_device(&c->kernels[i], "cpu");
		use[i] = d && (!any || clock_kernel(s, only, c->kernels[i].name));
		if (use[i] && d->nslowdown > n)
			n = d->nslowdown;
	}
	if (n == 0) {
		free(use);
		return;
	}
	/* From 1: a node is not faster busy than idle.  A slowdown below 1
	 * in a model is the measurement's noise (the reference round ran
	 * slow), kept in the file as measured but never applied as a
	 * speed-up (docs/model.md, "Contention"). */
	double *t = xmalloc((size_t)n * sizeof *t);
	for (int b = 0; b < n; b++)
		t[b] = 1.0;
	for (int i = 0; i < c->nkernels; i++) {
		const struct scn_cost_dev *d = scn_cost_device(&c->kernels[i], "cpu");
		for (int b = 0; use[i] && d->nslowdown && b < n; b++) {
			double f = d->slowdown[b < d->nslowdown ? b : d->nslowdown - 1];
			t[b] = f > t[b] ? f : t[b];
		}
	}
	for (int g = 0; g < s->ngroups; g++) {
		s->groups[g].busy_slowdown = xmalloc((size_t)n * sizeof *t);
		memcpy(s->groups[g].busy_slowdown, t, (size_t)n * sizeof *t);
		s->groups[g].nbusy = n;
	}
	free(t);
	free(use);
}

static int load_kernel(struct ld *ld, const struct yn *key, const struct yn *m,
		       struct scn_cost_kernel *k)
{
	const struct yn *v;
	if (scn_get_ident(ld, key, ID_NAME, "kernel name", &k->name) < 0 ||
	    CHECK_MAP(ld, m, "kernel", kernel_keys) < 0 ||
	    !(v = scn_need(ld, m, "unit", "kernel", k->name)) ||
	    scn_get_ident(ld, v, ID_NAME, "work unit", &k->unit) < 0 ||
	    ((v = yn_get(m, "noise")) && load_noise(ld, v, k) < 0) ||
	    !(v = scn_need(ld, m, "devices", "kernel", k->name)) || load_devices(ld, v, k) < 0)
		return -1;
	return (v = yn_get(m, "contention")) ? load_contention(ld, v, k) : 0;
}

/* Version 2's meta: the provenance of a measured model.  Known keys are
 * checked and kept (struct scn_cost_meta); unknown keys, at any depth,
 * are accepted and ignored, so that a model written by a later hetsim
 * that records more still loads: meta never changes a simulation. */

#define MAX_META_TEXT 4000   /* characters of a meta text */

/* A non-empty scalar of at most MAX_META_TEXT characters; kept in *out
 * when out is not NULL. */
static int meta_text(struct ld *ld, const struct yn *v, const char *what, char **out)
{
	if (scn_want(ld, v, YN_SCALAR, what) < 0)
		return -1;
	if (!*v->str)
		return scn_fail(ld, v, "expected a text for %s, got nothing", what);
	if (strlen(v->str) > MAX_META_TEXT)
		return scn_fail(ld, v, "expected a text of at most %d characters for %s",
			    MAX_META_TEXT, what);
	if (out)
		*out = xstrdup(v->str);
	return 0;
}

static int days_in(int y, int mo)
{
	static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return mo == 2 && leap ? 29 : d[mo - 1];
}

/* ISO 8601 in UTC, to the second: YYYY-MM-DDTHH:MM:SSZ. */
static int meta_date(struct ld *ld, const struct yn *v, char **out)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	const char *p = v->kind == YN_SCALAR ? v->str : "";
	bool ok = strlen(p) == sizeof shape - 1;
	for (int i = 0; ok && shape[i]; i++)
		ok = shape[i] == 'd' ? p[i] >= '0' && p[i] <= '9' : p[i] == shape[i];
	if (ok) {
		int y = atoi(p), mo = atoi(p + 5), d = atoi(p + 8), h = atoi(p + 11),
		    mi = atoi(p + 14), se = atoi(p + 17);
		ok = y >= 1970 && mo >= 1 && mo <= 12 && d >= 1 && d <= days_in(y, mo) && h <= 23 &&
		     mi <= 59 && se <= 59;
	}
	if (!ok)
		return scn_fail(ld, v, "expected a date in ISO 8601 UTC such as 2025-06-01T12:00:00Z "
			    "for meta.date, got %s", scn_got(ld, v));
	*out = xstrdup(p);
	return 0;
}

static int meta_machine(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	const struct yn *a, *b, *c;
	if (scn_want(ld, m, YN_MAP, "meta.machine") < 0 ||
	    !(a = scn_need(ld, m, "cpu", "meta.machine", NULL)) ||
	    !(b = scn_need(ld, m, "cores", "meta.machine", NULL)) ||
	    !(c = scn_need(ld, m, "memory", "meta.machine", NULL)) ||
	    meta_text(ld, a, "meta.machine.cpu", &o->cpu) < 0 ||
	    scn_get_lim(ld, b, 1, MAX_CORES, "cores", &o->cores) < 0)
		return -1;
	return scn_get_size(ld, c, 1, &o->memory_mib);
}

static int meta_reference(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	const struct yn *k, *v;
	if (scn_want(ld, m, YN_MAP, "meta.reference") < 0 ||
	    !(k = scn_need(ld, m, "kernel", "meta.reference", NULL)) ||
	    !(v = scn_need(ld, m, "speed", "meta.reference", NULL)) ||
	    scn_get_ident(ld, k, ID_NAME, "reference kernel name", &o->ref_kernel) < 0 ||
	    scn_get_num(ld, v, &o->ref_speed) < 0)
		return -1;
	if (!(o->ref_speed > 0))
		return scn_fail(ld, v, "expected a speed > 0 for meta.reference.speed, got %s", scn_got(ld, v));
	return 0;
}

/* contention_k: [MIN, MAX], the numbers of busy cores the contention
 * entry was measured at. */
static int meta_k(struct ld *ld, const struct yn *v, int k[2])
{
	if (v->kind != YN_SEQ || v->nkids != 2)
		return scn_fail(ld, v, "expected a list [MIN, MAX] of 2 integers for meta.contention_k, "
			    "got %s", v->kind == YN_SEQ ? "a list of another length" : scn_got(ld, v));
	for (int i = 0; i < 2; i++)
		if (scn_get_lim(ld, v->kids[i], 1, MAX_CORES, "cores", &k[i]) < 0)
			return -1;
	if (k[1] < k[0])
		return scn_fail(ld, v->kids[1], "expected the largest k >= the smallest (%d) in "
			    "meta.contention_k, got %s", k[0], scn_got(ld, v->kids[1]));
	return 0;
}

/* timing: {seed: N, ci: X, cap: N, sizes, capped, repeats, stalls}: the
 * order's seed (required) and what the adaptive repeats took. */
static int meta_timing(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	static const char *const counts[] = {"sizes", "capped", "repeats", "stalls"};
	const struct yn *v;
	int n;
	if (scn_want(ld, m, YN_MAP, "meta.timing") < 0 ||
	    !(v = scn_need(ld, m, "seed", "meta.timing", NULL)) || scn_get_seed(ld, v, &o->seed) < 0 ||
	    scn_opt_int(ld, m, "cap", 1, &o->cap) < 0)
		return -1;
	for (int i = 0; i < ARRAY_LEN(counts); i++)
		if (scn_opt_int(ld, m, counts[i], 0, i == 1 ? &o->capped : &n) < 0)
			return -1;
	if ((v = yn_get(m, "ci")) && scn_get_num(ld, v, &o->ci) < 0)
		return -1;
	if (v && !(o->ci > 0 && o->ci < 1))
		return scn_fail(ld, v, "expected a fraction between 0 and 1 for meta.timing.ci, got %s",
			    scn_got(ld, v));
	o->has_timing = true;
	return 0;
}

/* A speed in MiB/s > 0 for meta.drift.`what`. */
static int drift_speed(struct ld *ld, const struct yn *v, const char *what, double *out)
{
	if (scn_get_num(ld, v, out) < 0)
		return -1;
	if (!(*out > 0))
		return scn_fail(ld, v, "expected a speed > 0 for meta.drift.%s, got %s", what, scn_got(ld, v));
	return 0;
}

/* drift: {kernel, points, first, last, min, max, change[, speeds]}: the
 * reference kernel's speed over the run (calibrate/README.md, "Timing"). */
static int meta_drift(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	static const char *const speeds[] = {"first", "last", "min", "max"};
	double *to[] = {&o->drift_first, &o->drift_last, &o->drift_min, &o->drift_max};
	const struct yn *v;
	char *kernel = NULL;
	if (scn_want(ld, m, YN_MAP, "meta.drift") < 0 ||
	    !(v = scn_need(ld, m, "kernel", "meta.drift", NULL)) ||
	    scn_get_ident(ld, v, ID_NAME, "reference kernel name", &kernel) < 0)
		return -1;
	free(kernel);
	if (!(v = scn_need(ld, m, "points", "meta.drift", NULL)) ||
	    scn_get_int(ld, v, 1, &o->drift_points) < 0)
		return -1;
	for (int i = 0; i < ARRAY_LEN(speeds); i++)
		if (!(v = scn_need(ld, m, speeds[i], "meta.drift", NULL)) ||
		    drift_speed(ld, v, speeds[i], to[i]) < 0)
			return -1;
	/* first and last lie between min and max: the four are one series */
	for (int i = 0; i < 2; i++)
		if (*to[i] < o->drift_min || *to[i] > o->drift_max)
			return scn_fail(ld, yn_get(m, speeds[i]), "meta.drift.%s %g is outside min %g .. "
				    "max %g", speeds[i], *to[i], o->drift_min, o->drift_max);
	if (!(v = scn_need(ld, m, "change", "meta.drift", NULL)) || scn_get_num(ld, v, &o->drift_change) < 0)
		return -1;
	if (!(v = yn_get(m, "speeds")))
		return 0;
	if (v->kind != YN_SEQ || v->nkids != o->drift_points)
		return scn_fail(ld, v, "expected a list of %d speeds (points) for meta.drift.speeds, got %s",
			    o->drift_points, v->kind == YN_SEQ ? "a list of another length" : scn_got(ld, v));
	for (int i = 0; i < v->nkids; i++) {
		double x;
		if (drift_speed(ld, v->kids[i], "speeds", &x) < 0)
			return -1;
	}
	return 0;
}

/* gpu: {name: TEXT, memory: SIZE[, cuda: TEXT]}: the GPU a model was
 * measured on (hetsim-cuda-cal); machine is then the host it sits in. */
static int meta_gpu(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	const struct yn *a, *b, *c;
	if (scn_want(ld, m, YN_MAP, "meta.gpu") < 0 || !(a = scn_need(ld, m, "name", "meta.gpu", NULL)) ||
	    !(b = scn_need(ld, m, "memory", "meta.gpu", NULL)) ||
	    meta_text(ld, a, "meta.gpu.name", &o->gpu) < 0 ||
	    scn_get_size(ld, b, 1, &o->gpu_memory_mib) < 0)
		return -1;
	if ((c = yn_get(m, "cuda")) && meta_text(ld, c, "meta.gpu.cuda", &o->gpu_cuda) < 0)
		return -1;
	return 0;
}

static int load_meta(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	static const char *const texts[] = {"backend", "data", "fit", "task_overhead"};
	char **to[] = {&o->backend, &o->data, NULL, NULL};
	const struct yn *v;
	if (scn_want(ld, m, YN_MAP, "meta") < 0)
		return -1;
	for (int i = 0; i < ARRAY_LEN(texts); i++) {
		char what[64];
		snprintf(what, sizeof what, "meta.%s", texts[i]);
		if ((v = yn_get(m, texts[i])) && meta_text(ld, v, what, to[i]) < 0)
			return -1;
	}
	if (((v = yn_get(m, "source")) && meta_text(ld, v, "meta.source", &o->source) < 0) ||
	    ((v = yn_get(m, "machine")) && meta_machine(ld, v, o) < 0) ||
	    ((v = yn_get(m, "os")) && meta_text(ld, v, "meta.os", &o->os) < 0) ||
	    ((v = yn_get(m, "compiler")) && meta_text(ld, v, "meta.compiler", &o->compiler) < 0) ||
	    ((v = yn_get(m, "blas")) && meta_text(ld, v, "meta.blas", &o->blas) < 0) ||
	    ((v = yn_get(m, "date")) && meta_date(ld, v, &o->date) < 0) ||
	    ((v = yn_get(m, "threads")) && scn_get_int(ld, v, 1, &o->threads) < 0) ||
	    ((v = yn_get(m, "gpu")) && meta_gpu(ld, v, o) < 0) ||
	    ((v = yn_get(m, "reference")) && meta_reference(ld, v, o) < 0) ||
	    ((v = yn_get(m, "contention_k")) && meta_k(ld, v, o->contention_k) < 0) ||
	    ((v = yn_get(m, "timing")) && meta_timing(ld, v, o) < 0) ||
	    ((v = yn_get(m, "drift")) && meta_drift(ld, v, o) < 0))
		return -1;
	return 0;
}

static int load_cost(struct ld *ld, const struct yn *m)
{
	struct scn_cost_model *c = &ld->s->cost;
	const struct yn *v;
	long long version;
	if (CHECK_MAP(ld, m, "cost model", cost_keys) < 0 ||
	    !(v = scn_need(ld, m, "version", "cost model", NULL)) ||
	    scn_get_ll(ld, v, LLONG_MIN, LLONG_MAX, &version) < 0)
		return -1;
	if (version != 1 && version != 2)
		return scn_fail(ld, v, "unsupported cost model version %s (this hetsim reads versions 1 "
			    "and 2)", scn_got(ld, v));
	c->version = (int)version;
	if (version >= 2 && (v = yn_get(m, "meta")) && load_meta(ld, v, &c->meta) < 0)
		return -1;
	if (scn_opt_time(ld, m, "task_overhead", NONNEG, &c->task_overhead_us) < 0 ||
	    !(v = scn_need(ld, m, "kernels", "cost model", NULL)) || scn_want(ld, v, YN_MAP, "kernels") < 0)
		return -1;
	if (v->nkids == 0)
		return scn_fail(ld, v, "expected at least one kernel in kernels");
	c->kernels = xcalloc((size_t)v->nkids / 2, sizeof *c->kernels);
	c->nkernels = v->nkids / 2;
	for (int i = 0; i < c->nkernels; i++)
		if (load_kernel(ld, v->kids[2 * i], v->kids[2 * i + 1], &c->kernels[i]) < 0)
			return -1;
	return 0;
}

/* cost_model: a path to a cost-model file, or the model inline. */
int scn_load_cost_ref(struct ld *ld, const struct yn *v)
{
	struct scn *s = ld->s;
	if (v->kind == YN_MAP)
		return load_cost(ld, v);
	if (v->kind != YN_SCALAR || !*v->str)
		return scn_fail(ld, v, "expected a path or a mapping for cost_model, got %s", scn_got(ld, v));
	s->cost.path = scn_resolve(s->path, v->str);
	const char *why;
	FILE *f = fopen_regular(s->cost.path, &why);
	if (!f) {
		char note[4200];
		return scn_fail(ld, v, "cannot open cost model '%s'%s: %s", v->str,
				scn_path_note(s->path, v->str, s->cost.path, note, sizeof note), why);
	}
	fclose(f);
	struct yn *root = yn_load(s->cost.path, ld->err, ld->errlen);
	if (!root)
		return -1;
	ld->file = s->cost.path;
	int r = load_cost(ld, root);
	ld->file = s->path;
	yn_free(root);
	return r;
}

/* The built-in default model (SCN_DEFAULT_MODEL), for a scenario that
 * names none. */
int scn_load_builtin_cost(struct ld *ld)
{
	struct yn *root = yn_load_text("(built-in) " SCN_DEFAULT_MODEL, scn_default_model_yaml,
				       ld->err, ld->errlen);
	if (!root)
		return -1;
	ld->file = "(built-in) " SCN_DEFAULT_MODEL;
	int r = load_cost(ld, root);
	ld->file = ld->s->path;
	yn_free(root);
	ld->s->cost.builtin = r == 0;
	return r;
}

struct scn *scn_cost_load(const char *path, char *err, size_t errlen)
{
	struct yn *root = yn_load(path, err, errlen);
	if (!root)
		return NULL;
	struct scn *s = xcalloc(1, sizeof *s);
	s->path = xstrdup(path);
	s->cost.path = xstrdup(path);
	struct ld ld = {.s = s, .file = s->path, .err = err, .errlen = errlen};
	int rc = load_cost(&ld, root);
	yn_free(root);
	if (rc == 0)
		return s;
	scn_one_line(err, errlen);
	scn_free(s);
	return NULL;
}

int scn_meta_load(const char *path, struct scn_cost_meta *m, char *err, size_t errlen)
{
	memset(m, 0, sizeof *m);
	struct yn *root = yn_load(path, err, errlen);
	if (!root)
		return -1;
	struct ld ld = {.file = path, .err = err, .errlen = errlen};
	int rc = load_meta(&ld, root, m);
	yn_free(root);
	if (rc == 0)
		return 0;
	scn_one_line(err, errlen);
	scn_cost_meta_free(m);
	return -1;
}
