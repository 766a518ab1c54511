/* contention.c - timing a kernel with k copies running at once, one per
 * core: what a task costs when its node's other cores are as busy as in
 * the simulation (cal.h, cal_time_contention; calibrate/README.md,
 * "Contention").
 *
 * The copies are forked processes, not threads: each has its own heap
 * and allocator, as Spark's tasks in one executor nearly do (their JVM
 * heap is shared, but a task's tables are its own), and nothing of the
 * parent is shared but the read-only input, copy-on-write.  The parent
 * sets the size up once (not timed) and forks the largest k copies;
 * copy i is pinned to the i-th core the process may run on.  A round
 * writes one byte into the go pipe of each of the first k copies; each
 * runs the kernel once, timed on its own CLOCK_MONOTONIC (and its
 * thread's CPU time beside it), and answers on one shared pipe (a
 * record under PIPE_BUF: whole).  Idle copies block in read(), costing
 * nothing. */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include "cal.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

#define MAX_COPIES 64

struct answer {    /* a copy's record on the shared pipe */
	int copy;      /* its index */
	double seconds;/* < 0: ready (after its warm-up) */
	double cpu;    /* its thread's CPU time over the same run */
};

/* Whole reads and writes, retried on EINTR.  0, or -1 (EOF, error). */
static int put(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int get(int fd, void *p, size_t n)
{
	char *c = p;
	while (n) {
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

/* A copy: pin, warm up, then one timed run per byte read from `go`,
 * until EOF.  Never returns. */
static void copy_main(const struct cal_kernel *k, void *st, int copy, int core, int go,
		      int ans, int warmup)
{
	if (core >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(core, &set);
		(void)sched_setaffinity(0, sizeof set, &set); /* refused: runs unpinned */
	}
	double w0 = cal_now();
	for (int w = 0; w < 50 && (w < warmup || cal_now() - w0 < 0.2); w++)
		k->run(st);
	struct answer a = {copy, -1, 0};
	if (put(ans, &a, sizeof a))
		_exit(1);
	char b;
	while (get(go, &b, 1) == 0) {
		double t0 = cal_now(), c0 = cal_cpu_now();
		k->run(st);
		a.cpu = cal_cpu_now() - c0;
		a.seconds = cal_now() - t0;
		if (put(ans, &a, sizeof a))
			_exit(1);
	}
	_exit(0);
}

/* Whether pinning works here: the parent tries it on itself (and puts
 * its mask back). */
static bool can_pin(int core)
{
	cpu_set_t old, set;
	if (core < 0 || sched_getaffinity(0, sizeof old, &old) != 0)
		return false;
	CPU_ZERO(&set);
	CPU_SET(core, &set);
	bool ok = sched_setaffinity(0, sizeof set, &set) == 0;
	(void)sched_setaffinity(0, sizeof old, &old);
	return ok;
}

/* The values behind ks[j]'s median, from this kernel's samples s[0..n)
 * not dropped: k = 1 each round's time; k > 1 one value per round, its
 * copies' mean time over the same round's k = 1 time (the paired
 * reference; a round whose k = 1 sample is dropped pairs nothing).  One
 * per round, not per copy: the copies share the reference, and pooled
 * as independent values they would make the CI of the median too narrow
 * (its coverage fell to about 75 % at k = 8 in a simulation).  Into v
 * (n long); their count. */
static int paired(const struct cal_sample *s, int n, int k, double *v)
{
	int m = 0;
	for (int i = 0; i < n; i++) {
		if (s[i].k != k || s[i].dropped)
			continue;
		if (k == 1) {
			v[m++] = s[i].seconds;
			continue;
		}
		bool seen = false;
		for (int q = 0; q < i && !seen; q++)
			seen = s[q].k == k && s[q].round == s[i].round && !s[q].dropped;
		if (seen)
			continue; /* its round is counted */
		for (int j = 0; j < n; j++)
			if (s[j].k == 1 && s[j].round == s[i].round && !s[j].dropped) {
				double sum = 0;
				int cnt = 0;
				for (int q = i; q < n; q++)
					if (s[q].k == k && s[q].round == s[i].round && !s[q].dropped)
						sum += s[q].seconds, cnt++;
				v[m++] = sum / cnt / s[j].seconds;
				break;
			}
	}
	return m;
}

/* After a round: the stall rule over each k's times (all rounds so
 * far), then whether every k's median (cal.h, "robust timing") is
 * within the CI target: 0 not yet, 1 yes, 2 the cap is reached first.
 * *wide gets the ks still wider.  s[0..n): this kernel's samples. */
static int rounds_enough(struct cal_sample *s, int n, const int *ks, int nks, int rounds,
			 int min, int cap, double target, int *wide, int *stalls)
{
	double *t = xmalloc((size_t)n * sizeof *t), *v = xmalloc((size_t)n * sizeof *v);
	bool *drop = xmalloc((size_t)n * sizeof *drop);
	int *at = xmalloc((size_t)n * sizeof *at);
	*wide = *stalls = 0;
	for (int j = 0; j < nks; j++) {
		int m = 0;
		for (int i = 0; i < n; i++)
			if (s[i].k == ks[j]) {
				at[m] = i;
				t[m++] = s[i].seconds;
			}
		*stalls += cal_stalls(t, m, drop);
		for (int i = 0; i < m; i++)
			s[at[i]].dropped = drop[i];
	}
	for (int j = 0; j < nks; j++) {
		double med;
		int m = paired(s, n, ks[j], v);
		*wide += !(cal_median_ci(v, NULL, m, &med) <= target);
	}
	free(t);
	free(v);
	free(drop);
	free(at);
	if (rounds >= min && *wide == 0)
		return 1;
	return rounds >= cap ? 2 : 0;
}


/* Per k, the median, its MAD and the slowdown against the paired k = 1
 * rounds (the median of paired()): the progress lines.  s[0..n) are
 * this kernel's samples. */
static void report(FILE *log, const struct cal_kernel *k, double size,
		   const struct cal_sample *s, int n, const int *ks, int nks, int rounds,
		   int done, int stalls)
{
	double *v = xmalloc((size_t)n * sizeof *v);
	for (int j = 0; j < nks; j++) {
		int m = 0;
		for (int i = 0; i < n; i++)
			if (s[i].k == ks[j] && !s[i].dropped)
				v[m++] = s[i].seconds;
		double med = m ? cal_median(v, m) : 0;
		for (int i = 0; i < m; i++)
			v[i] = v[i] > med ? v[i] - med : med - v[i];
		double mad = m ? cal_median(v, m) : 0, cmed;
		int p = paired(s, n, ks[j], v);
		double half = cal_median_ci(v, NULL, p, &cmed);
		fprintf(log, "  %-17s %8g %-7s k=%-3d median %10.3f ms  MAD %8.3f ms (%4.1f %%)  "
			"slowdown %.3f (CI +-%.1f %%)  n=%d\n", k->name, size, k->unit, ks[j],
			med * 1e3, mad * 1e3, med > 0 ? 100 * mad / med : 0.0, j ? cmed : 1.0,
			isfinite(half) ? 100 * half : 99.9, m);
	}
	fprintf(log, "  %-17s %d rounds%s%s", k->name, rounds, done == 2 ? " (cap)" : "",
		stalls ? ", " : "\n");
	if (stalls)
		fprintf(log, "%d stalled dropped\n", stalls);
	fflush(log);
	free(v);
}

int cal_time_contention(const struct cal_backend *b, const struct cal_kernel *k,
			struct cal_ctx *c, bool quick, int warmup, const int *ks, int nks,
			struct cal_timing *tm, struct cal_samples *out, FILE *log, char *err,
			size_t errlen)
{
	const double *sizes = quick ? k->quick : k->sizes;
	int nsizes = quick ? k->nquick : k->nsizes;
	int min = quick ? k->quick_repeats : k->repeats;
	int cap = tm->cap < CAL_MAX_REPEATS ? tm->cap : CAL_MAX_REPEATS;
	double size = sizes[nsizes / 2];
	int ncopies = nks > 0 ? ks[nks - 1] : 0;
	if (nks < 1 || ks[0] != 1 || ncopies > MAX_COPIES) {
		snprintf(err, errlen, "contention: k must start at 1 and stay below %d", MAX_COPIES + 1);
		return -1;
	}
	if (k->prepare && k->prepare(c, size, err, errlen))
		return -1;
	void *st = k->setup(c, size, err, errlen);
	if (!st)
		return -1;
	int cpu[MAX_COPIES], ncpu = cal_allowed_cpus(cpu, MAX_COPIES);
	bool pinned = ncpu > 0 && can_pin(cpu[0]);
	if (log && (!pinned || ncpu < ncopies))
		fprintf(log, "  note: %s\n", !pinned ? "the OS refuses sched_setaffinity: copies run "
			"unpinned" : "fewer allowed cores than copies: some share a core");
	int go[MAX_COPIES], ans[2];
	pid_t pid[MAX_COPIES];
	int started = 0, rc = -1, first = out->n, rounds = 0, done = 0;
	int wide = 0, stalls = 0;
	if (pipe(ans)) {
		snprintf(err, errlen, "contention: pipe: %s", strerror(errno));
		k->teardown(st);
		return -1;
	}
	fflush(NULL);
	for (; started < ncopies; started++) {
		int p[2];
		if (pipe(p)) {
			snprintf(err, errlen, "contention: pipe: %s", strerror(errno));
			goto out;
		}
		pid_t f = fork();
		if (f < 0) {
			snprintf(err, errlen, "contention: fork: %s", strerror(errno));
			close(p[0]);
			close(p[1]);
			goto out;
		}
		if (f == 0) {
			close(p[1]);
			close(ans[0]);
			for (int i = 0; i < started; i++)
				close(go[i]);
			copy_main(k, st, started, pinned ? cpu[started % ncpu] : -1, p[0], ans[1],
				  warmup);
		}
		close(p[0]);
		go[started] = p[1];
		pid[started] = f;
	}
	close(ans[1]);
	ans[1] = -1;
	struct answer a;
	for (int i = 0; i < ncopies; i++) /* every copy warmed up */
		if (get(ans[0], &a, sizeof a)) {
			snprintf(err, errlen, "contention: a copy of %s ended before its warm-up was "
				 "over", k->name);
			goto out;
		}
	/* Rounds: each runs every k once, the ks in a fresh random order
	 * (the keyed seed), until every k's median is within the CI target
	 * or the cap; a round's k = 1 run is the reference of its k > 1 runs
	 * (paired in time: a drift between rounds cancels). */
	uint64_t key = cal_order_key(tm->seed ^ 0x6b636f70696573ull, k->name); /* "kcopies" */
	int order[MAX_COPIES];
	for (int r = 0; !done; r++) {
		for (int j = 0; j < nks; j++)
			order[j] = j;
		cal_shuffle(&key, order, nks);
		for (int o = 0; o < nks; o++) {
			int j = order[o];
			for (int i = 0; i < ks[j]; i++)
				if (put(go[i], "g", 1)) {
					snprintf(err, errlen, "contention: copy %d of %s is gone", i,
						 k->name);
					goto out;
				}
			for (int i = 0; i < ks[j]; i++) {
				if (get(ans[0], &a, sizeof a) || a.copy < 0 || a.copy >= ks[j]) {
					snprintf(err, errlen, "contention: a copy of %s ended during "
						 "a round", k->name);
					goto out;
				}
				struct cal_sample x = {.size = size, .repeat = r, .seconds = a.seconds,
						       .cpu_seconds = a.cpu, .k = ks[j], .round = r + 1, .seq = ++tm->seq};
				snprintf(x.kernel, sizeof x.kernel, "%s", k->name);
				snprintf(x.device, sizeof x.device, "%s", b->device);
				cal_samples_push(out, &x);
			}
		}
		rounds = r + 1;
		done = rounds_enough(out->v + first, out->n - first, ks, nks, rounds, min, cap,
				     tm->ci_target, &wide, &stalls);
	}
	tm->sizes += nks;
	tm->capped += done == 2 ? wide : 0;
	tm->stalls += stalls;
	int per_round = 0; /* runs timed per round: every k's copies */
	for (int j = 0; j < nks; j++)
		per_round += ks[j];
	tm->repeats += rounds * per_round;
	rc = 0;
out:
	for (int i = 0; i < started; i++)
		close(go[i]); /* EOF: the copy exits */
	for (int i = 0; i < started; i++) {
		int status;
		if (rc)
			kill(pid[i], SIGKILL);
		while (waitpid(pid[i], &status, 0) < 0 && errno == EINTR)
			;
	}
	close(ans[0]);
	if (ans[1] >= 0)
		close(ans[1]);
	k->teardown(st);
	if (rc == 0 && log)
		report(log, k, size, out->v + first, out->n - first, ks, nks, rounds, done, stalls);
	return rc;
}
