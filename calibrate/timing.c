/* timing.c - the timing harness: set a kernel up at each size of its
 * sweep, warm it up, time each repeat alone on CLOCK_MONOTONIC.  One
 * thread: the kernels never spawn any and gslcblas is single-threaded,
 * so a sample is what one Spark task slot (one core) would take. */
#include "cal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

double cal_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median of n values (sorted in place). */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int cal_time_kernel(const struct cal_backend *b, const struct cal_kernel *k,
		    struct cal_ctx *c, bool quick, int warmup, struct cal_samples *out,
		    FILE *log, char *err, size_t errlen)
{
	const double *sizes = quick ? k->quick : k->sizes;
	int nsizes = quick ? k->nquick : k->nsizes;
	int reps = quick ? k->quick_repeats : k->repeats;
	double max = 0;
	for (int i = 0; i < nsizes; i++)
		max = sizes[i] > max ? sizes[i] : max;
	if (k->prepare && k->prepare(c, max, err, errlen))
		return -1;
	/* Every size is set up and warmed up first, then the repeats go
	 * round-robin over the sizes: a slow drift of the machine's speed
	 * (clock, a neighbour) then spreads over all sizes as noise instead
	 * of bending the line. */
	void *st[16] = {NULL};
	double t[16][64];
	int rc = 0;
	nsizes = nsizes < 16 ? nsizes : 16;
	reps = reps < 64 ? reps : 64;
	for (int i = 0; i < nsizes && !rc; i++) {
		if (!(st[i] = k->setup(c, sizes[i], err, errlen))) {
			rc = -1;
			break;
		}
		/* warm-up: at least `warmup` runs and 0.2 s (caches, the
		 * allocator's mmap threshold, the CPU's clock), at most 50 runs */
		double w0 = cal_now();
		for (int w = 0; w < 50 && (w < warmup || cal_now() - w0 < 0.2); w++)
			k->run(st[i]);
	}
	for (int r = 0; r < reps && !rc; r++)
		for (int i = 0; i < nsizes; i++) {
			double t0 = cal_now();
			k->run(st[i]);
			t[i][r] = cal_now() - t0;
		}
	for (int i = 0; i < nsizes; i++)
		if (st[i])
			k->teardown(st[i]);
	if (rc)
		return -1;
	for (int i = 0; i < nsizes; i++) {
		for (int r = 0; r < reps; r++) {
			struct cal_sample x = {.size = sizes[i], .repeat = r, .seconds = t[i][r],
					       .k = 1};
			snprintf(x.kernel, sizeof x.kernel, "%s", k->name);
			snprintf(x.device, sizeof x.device, "%s", b->device);
			cal_samples_push(out, &x);
		}
		if (log) {
			/* median and median absolute deviation of the repeats */
			double *v = t[i], med = median(v, reps);
			for (int r = 0; r < reps; r++)
				v[r] = v[r] > med ? v[r] - med : med - v[r];
			double mad = median(v, reps);
			fprintf(log, "  %-17s %8g %-7s median %10.3f ms  MAD %8.3f ms (%4.1f %%)  n=%d\n",
				k->name, sizes[i], k->unit, med * 1e3, mad * 1e3,
				med > 0 ? 100 * mad / med : 0.0, reps);
			fflush(log);
		}
	}
	return 0;
}

void cal_machine(char *model, size_t len, int *cores)
{
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
