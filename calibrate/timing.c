/* timing.c - the timing harness: set a kernel up at each size of its
 * sweep, warm it up, time each repeat alone on CLOCK_MONOTONIC, with the
 * thread's CPU time (CLOCK_THREAD_CPUTIME_ID) of the same run beside it.
 * One thread: the kernels never spawn any and the BLAS is fixed to one
 * (cal_blas), so a sample is what one Spark task slot (one core) would
 * take, and the thread's CPU time is the kernel's. */
#include "cal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

double (*cal_clock_hook)(void);

double cal_now(void)
{
	if (cal_clock_hook)
		return cal_clock_hook();
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

double (*cal_cpu_clock_hook)(void);

double cal_cpu_now(void)
{
	if (cal_cpu_clock_hook)
		return cal_cpu_clock_hook();
	if (cal_clock_hook)
		return cal_clock_hook();
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

const struct cal_backend *cal_backend_hook;

void cal_samples_push(struct cal_samples *s, const struct cal_sample *x)
{
	xgrow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	s->v[s->n++] = *x;
}

void cal_samples_free(struct cal_samples *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

/* One size's repeats, in time order. */
struct size_runs {
	void *st;              /* the kernel's state */
	double t[CAL_MAX_REPEATS];
	double cpu[CAL_MAX_REPEATS]; /* the thread's CPU time of each */
	long seq[CAL_MAX_REPEATS];
	bool drop[CAL_MAX_REPEATS];
	int n, done;           /* done: cal_enough's 1 (CI) or 2 (cap) */
};

/* The progress line of one size: median, MAD, the CI, the thread's
 * share of the wall time on its core (the median of CPU / wall), repeats. */
static void report_size(FILE *log, const struct cal_kernel *k, double size,
			const struct size_runs *r, int stalls)
{
	double v[CAL_MAX_REPEATS], share[CAL_MAX_REPEATS], med, half;
	bool keep[CAL_MAX_REPEATS];
	int m = 0;
	for (int i = 0; i < r->n; i++)
		if ((keep[i] = !r->drop[i])) {
			share[m] = r->t[i] > 0 ? r->cpu[i] / r->t[i] : 0;
			v[m++] = r->t[i];
		}
	half = cal_median_ci(r->t, keep, r->n, &med);
	for (int i = 0; i < m; i++)
		v[i] = v[i] > med ? v[i] - med : med - v[i];
	double mad = m ? cal_median(v, m) : 0;
	fprintf(log, "  %-17s %8g %-7s median %10.3f ms  MAD %8.3f ms (%4.1f %%)  CI +-%4.1f %%  "
		"cpu %5.1f %%  n=%d%s", k->name, size, k->unit, med * 1e3, mad * 1e3,
		med > 0 ? 100 * mad / med : 0.0, isfinite(half) ? 100 * half : 99.9,
		m ? 100 * cal_median(share, m) : 0.0, r->n, r->done == 2 ? " (cap)" : "");
	if (stalls)
		fprintf(log, ", %d stalled dropped", stalls);
	fprintf(log, "\n");
}

int cal_time_kernel(const struct cal_backend *b, const struct cal_kernel *k,
		    struct cal_ctx *c, bool quick, int warmup, struct cal_timing *tm,
		    struct cal_samples *out, FILE *log, char *err, size_t errlen)
{
	const double *sizes = quick ? k->quick : k->sizes;
	int nsizes = quick ? k->nquick : k->nsizes;
	int min = quick ? k->quick_repeats : k->repeats;
	int cap = tm->cap < CAL_MAX_REPEATS ? tm->cap : CAL_MAX_REPEATS;
	double max = 0;
	for (int i = 0; i < nsizes; i++)
		max = sizes[i] > max ? sizes[i] : max;
	if (k->prepare && k->prepare(c, max, err, errlen))
		return -1;
	/* Every size is set up and warmed up first; then the repeats go in
	 * rounds over the sizes still short of repeats, each round in a
	 * fresh random order (the keyed seed): a slow drift of the machine's
	 * speed spreads over all sizes as noise instead of bending the line,
	 * and no size always follows the same one. */
	nsizes = nsizes < 16 ? nsizes : 16;
	struct size_runs *r = xcalloc((size_t)nsizes, sizeof *r);
	int rc = 0, order[16];
	uint64_t key = cal_order_key(tm->seed, k->name);
	for (int i = 0; i < nsizes && !rc; i++) {
		if (!(r[i].st = k->setup(c, sizes[i], err, errlen))) {
			rc = -1;
			break;
		}
		/* warm-up: at least `warmup` runs and 0.2 s (caches, the
		 * allocator's mmap threshold, the CPU's clock), at most 50 runs */
		double w0 = cal_now();
		for (int w = 0; w < 50 && (w < warmup || cal_now() - w0 < 0.2); w++)
			k->run(r[i].st);
	}
	for (int left = rc ? 0 : nsizes; left > 0;) {
		int m = 0;
		for (int i = 0; i < nsizes; i++)
			if (!r[i].done)
				order[m++] = i;
		cal_shuffle(&key, order, m);
		for (int j = 0; j < m; j++) {
			struct size_runs *x = &r[order[j]];
			/* the CPU clock read inside the wall clock's interval:
			 * CPU <= wall, give or take the clocks' resolution */
			double t0 = cal_now(), c0 = cal_cpu_now();
			k->run(x->st);
			x->cpu[x->n] = cal_cpu_now() - c0;
			x->t[x->n] = cal_now() - t0;
			x->seq[x->n++] = ++tm->seq;
		}
		for (int j = 0; j < m; j++) { /* the stall rule, then the stop rule */
			struct size_runs *x = &r[order[j]];
			cal_stalls(x->t, x->n, x->drop);
			if ((x->done = cal_enough(x->t, x->drop, x->n, min, tm->ci_target, cap)))
				left--;
		}
	}
	for (int i = 0; i < nsizes; i++)
		if (r[i].st)
			k->teardown(r[i].st);
	for (int i = 0; i < nsizes && !rc; i++) {
		int stalls = cal_stalls(r[i].t, r[i].n, r[i].drop);
		for (int j = 0; j < r[i].n; j++) {
			struct cal_sample x = {.size = sizes[i], .repeat = j, .seconds = r[i].t[j],
					       .cpu_seconds = r[i].cpu[j], .k = 1, .seq = r[i].seq[j], .dropped = r[i].drop[j]};
			snprintf(x.kernel, sizeof x.kernel, "%s", k->name);
			snprintf(x.device, sizeof x.device, "%s", b->device);
			cal_samples_push(out, &x);
		}
		tm->sizes++;
		tm->capped += r[i].done == 2;
		tm->stalls += stalls;
		tm->repeats += r[i].n;
		if (log)
			report_size(log, k, sizes[i], &r[i], stalls);
	}
	if (log)
		fflush(log);
	free(r);
	return rc;
}

void (*cal_machine_hook)(char *model, size_t len, int *cores);

void cal_machine(char *model, size_t len, int *cores)
{
	if (cal_machine_hook) {
		cal_machine_hook(model, len, cores);
		return;
	}
	snprintf(model, len, "unknown");
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (f) {
		char line[1024];
		while (fgets(line, sizeof line, f)) {
			char *colon = strchr(line, ':');
			if (strncmp(line, "model name", 10) != 0 || !colon)
				continue;
			colon += 1 + strspn(colon + 1, " \t");
			colon[strcspn(colon, "\n")] = '\0';
			if (*colon)
				snprintf(model, len, "%s", colon);
			break;
		}
		fclose(f);
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	*cores = n > 0 ? (int)n : 1;
}
