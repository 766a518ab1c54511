/* ref.c - provenance: the machine a model was measured on, and the
 * reference kernel that tells whether this machine still runs at that
 * speed (`hetsim calibrate --check MODEL`, and the warning of
 * `--validate`).  See calibrate/README.md, "Provenance". */
#include "load.h"
#include "cal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "scenario.h"
#include "util.h"

#define MIB (1024 * 1024)

double (*cal_ref_hook)(void);


double cal_ref_speed(int repeats)
{
	if (cal_ref_hook)
		return cal_ref_hook();
	if (repeats < 1)
		repeats = 1;
	size_t bytes = (size_t)CAL_REF_MIB * MIB;
	char *text = cal_text_zipf(bytes, CAL_REF_SEED);
	double *t = xmalloc((size_t)repeats * sizeof *t);
	for (int i = -CAL_REF_WARMUP; i < repeats; i++) {
		double t0 = cal_now();
		struct cal_wc *wc = cal_wc_new();
		cal_wc_count_text(wc, text, bytes);
		cal_wc_free(wc);
		if (i >= 0)
			t[i] = cal_now() - t0;
	}
	qsort(t, (size_t)repeats, sizeof *t, cal_cmp_double);
	double med = repeats % 2 ? t[repeats / 2] : 0.5 * (t[repeats / 2 - 1] + t[repeats / 2]);
	free(t);
	free(text);
	return CAL_REF_MIB / med;
}

/* This machine's reading, taken as a calibration's drift points are (one
 * reading before it, discarded: the first in a process read 5-10 % low
 * on the calibration VM, calibrate/README.md "Provenance"), then the
 * median of CAL_REF_RUNS. */
static double ref_here(void)
{
	(void)cal_ref_speed(CAL_DRIFT_RUNS);
	return cal_ref_speed(CAL_REF_RUNS);
}

bool cal_ref_compare(double model, double here, char *line, size_t len)
{
	double d = here / model - 1;
	bool match = fabs(d) <= CAL_REF_TOLERANCE + 1e-9; /* 220 / 200 - 1 is 0.1000...09 */
	snprintf(line, len, "this machine's reference speed %.1f MiB/s is %.1f %% %s the model's "
		 "%.1f MiB/s (%s %.0f %%)", here, 100 * fabs(d), d < 0 ? "below" : "above", model,
		 match ? "within" : "more than", 100 * CAL_REF_TOLERANCE);
	return match;
}

/* "<sep>N cores" ("1 core") into buf, or "" where n is not known (<= 0);
 * buf returned. */
static const char *cores_text(const char *sep, int n, char *buf, size_t len)
{
	buf[0] = 0;
	if (n > 0)
		snprintf(buf, len, "%s%d core%s", sep, n, n == 1 ? "" : "s");
	return buf;
}

bool cal_machine_same(const struct scn_cost_meta *m, const char *cpu, int cores, char *line,
		      size_t len)
{
	bool known = m->cpu && *m->cpu && strcmp(m->cpu, "unknown") != 0;
	if (!known || (strcmp(m->cpu, cpu) == 0 && (m->cores <= 0 || m->cores == cores)))
		return true;
	char theirs[64], ours[64];
	snprintf(line, len, "the model was measured on %s%s, this machine is %s%s", m->cpu,
		 cores_text(" with ", m->cores, theirs, sizeof theirs), cpu,
		 cores_text(" with ", cores, ours, sizeof ours));
	return false;
}

/* Where this machine's reading lies within the range the model's own
 * drift points spanned (meta.drift: the reference between the
 * calibration's blocks), a note saying so ("" otherwise): a machine
 * that drifted as far during the calibration may be the same machine. */
static void drift_note(const struct scn_cost_meta *m, double here, char *buf, size_t len)
{
	buf[0] = 0;
	if (m->drift_points > 1 && here >= m->drift_min && here <= m->drift_max)
		snprintf(buf, len, "within the %.1f-%.1f MiB/s the reference read during the "
			 "calibration (%d points): it drifted as far by itself", m->drift_min,
			 m->drift_max, m->drift_points);
}

/* The model's reference, or -1 with a message: none recorded, or
 * another kernel's (its speed is not comparable). */
static int model_ref(const char *path, const struct scn_cost_meta *m, double *speed, char *err,
		     size_t errlen)
{
	if (!m->ref_kernel) {
		snprintf(err, errlen, "%s: no meta.reference to compare with (a version 2 model "
			 "written by hetsim calibrate records one; refit this one)", path);
		return -1;
	}
	if (strcmp(m->ref_kernel, CAL_REF_KERNEL) != 0) {
		snprintf(err, errlen, "%s: meta.reference is of kernel '%s', not this hetsim's '%s': "
			 "the speeds are not comparable", path, m->ref_kernel, CAL_REF_KERNEL);
		return -1;
	}
	*speed = m->ref_speed;
	return 0;
}

/* The model's cost part, or NULL with the message printed. */
static struct scn *load_model(const char *path)
{
	char err[1024];
	const char *why;
	FILE *f = fopen_regular(path, &why);
	if (!f) {
		fprintf(stderr, "hetsim calibrate: cannot read model '%s': %s\n", path, why);
		return NULL;
	}
	fclose(f);
	struct scn *s = scn_cost_load(path, err, sizeof err);
	if (!s)
		fprintf(stderr, "hetsim calibrate: %s\n", err);
	return s;
}

int cal_ref_check(const char *path)
{
	char err[1024], line[512];
	double model;
	struct scn *s = load_model(path);
	if (!s)
		return 1;
	const struct scn_cost_meta *m = &s->cost.meta;
	if (model_ref(path, m, &model, err, sizeof err)) {
		fprintf(stderr, "hetsim calibrate: %s\n", err);
		scn_free(s);
		return 1;
	}
	printf("hetsim calibrate --check %s: reference kernel %s (a word count of %d MiB of Zipf "
	       "text, seed %u; median of %d runs)\n", path, CAL_REF_KERNEL, CAL_REF_MIB,
	       CAL_REF_SEED, CAL_REF_RUNS);
	char cn[64];
	printf("model:        %.1f MiB/s (%s%s, %s)\n", model, m->cpu ? m->cpu : "machine unknown",
	       cores_text(", ", m->cores, cn, sizeof cn), m->date ? m->date : "date unknown");
	fflush(stdout);
	char cpu[256], other[768];
	int cores;
	cal_machine(cpu, sizeof cpu, &cores);
	char busy[512]; /* read before the reading: other work, not ours */
	cal_load_busy(cal_ref_hook != NULL, busy, sizeof busy);
	double here = ref_here();
	printf("this machine: %.1f MiB/s (%s%s)\n", here, cpu,
	       cores_text(", ", cores, cn, sizeof cn));
	bool match = cal_ref_compare(model, here, line, sizeof line);
	printf("%s: %s\n", match ? "MATCH" : "MISMATCH", line);
	char note[256];
	drift_note(m, here, note, sizeof note);
	if (!match && *note)
		printf("note: %s\n", note);
	if (!cal_machine_same(m, cpu, cores, other, sizeof other))
		printf("note: %s; the verdict rests on the reference kernel's speed alone, and the "
		       "model's other kernels may differ more\n", other);
	if (*busy)
		printf("note: the machine is busy (%s): the reading measures that work too, not "
		       "this machine's speed alone\n", busy);
	scn_free(s);
	return match ? 0 : CAL_REF_MISMATCH;
}

int cal_ref_warn(const struct scn_cost_meta *m, const char *path, double speed[2])
{
	char err[1024], line[512], cpu[256], other[768];
	double model;
	int cores;
	speed[0] = speed[1] = 0;
	cal_machine(cpu, sizeof cpu, &cores);
	if (!cal_machine_same(m, cpu, cores, other, sizeof other))
		fprintf(stderr, "hetsim calibrate: warning: %s\n", other);
	if (model_ref(path, m, &model, err, sizeof err)) {
		fprintf(stderr, "hetsim calibrate: note: %s; this machine not compared\n", err);
		return 0;
	}
	double here = ref_here();
	bool match = cal_ref_compare(model, here, line, sizeof line);
	speed[0] = model;
	speed[1] = here;
	char note[256];
	drift_note(m, here, note, sizeof note);
	if (match)
		printf("machine: %s\n", line);
	else
		fprintf(stderr, "hetsim calibrate: warning: %s: the model may not describe this "
			"machine%s%s%s\n", line, *note ? " (though " : "", note, *note ? ")" : "");
	return match ? 0 : 1;
}

/* ---- provenance ------------------------------------------------------ */

static int64_t memory_mib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long long kb = 0;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemTotal: %lld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb > 0 ? kb / 1024 : 0;
}

void cal_provenance(struct cal_prov *p)
{
	memset(p, 0, sizeof *p);
	cal_machine(p->cpu, sizeof p->cpu, &p->cores);
	p->memory_mib = memory_mib();
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(p->os, sizeof p->os, "%s %s %s", u.sysname, u.release, u.machine);
	else
		snprintf(p->os, sizeof p->os, "unknown");
#if defined(__clang__)
	snprintf(p->compiler, sizeof p->compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
	snprintf(p->compiler, sizeof p->compiler, "gcc %s", __VERSION__);
#else
	snprintf(p->compiler, sizeof p->compiler, "unknown");
#endif
	cal_blas(p->blas, sizeof p->blas); /* the MLP's BLAS, one thread */
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(p->date, sizeof p->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
