/* test_engine.c - the engine: DAG order, node speed, job models. */
#include <math.h>
#include <signal.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "load.h"
#include "arena.h"
#include "harness.h"
#include "rng.h"
#include "scenario.h"
#include "sim.h"
#include "test.h"
#include "util.h"
#include "workload.h"

static void dag_diamond(void)
{
	struct scn *c;
	struct sim *s = h_run("tests/scenarios/hand/dag.yaml", "fifo", 0, &c);
	const struct sim_job *j = h_job(s, "diamond", 0);
	CU_ASSERT_EQUAL(j->status, JOB_DONE);
	CU_ASSERT_EQUAL(j->end_us, S(5));
	/* 5 tasks, each ends once: 5 task-end events, 1 arrival, 1 ready */
	CU_ASSERT_EQUAL(sim_totals(s)->events, 7);
	h_done(s, c);
}

/* Processor sharing, staggered (share-stagger.yaml has the arithmetic):
 * 2 cores, tasks of 6, 6, 3 and 1 s arriving at 0, 1, 2 and 3 s; rates
 * 1, 2/3, 1/2 (a change while oversubscribed), 2/3, 1. */
static void share_stagger(void)
{
	struct scn *c;
	struct sim *s = h_run("tests/scenarios/hand/share-stagger.yaml", "memcalc", 0, &c);
	CU_ASSERT_EQUAL(h_job(s, "d", 0)->end_us, S(5));
	CU_ASSERT_EQUAL(h_job(s, "c", 0)->end_us, S(7));
	CU_ASSERT_EQUAL(h_job(s, "a", 0)->end_us, S(8));
	CU_ASSERT_EQUAL(h_job(s, "b", 0)->end_us, S(9));
	h_done(s, c);
}

/* Processor sharing with a launch delay of 1 s (share-delay.yaml): a
 * task counts in the load from its start, works from 1 s later; the rate
 * changes while c still waits (2.75 s) and d's work starts at 3.75 s. */
static void share_delay(void)
{
	struct scn *c;
	struct sim *s = h_run("tests/scenarios/hand/share-delay.yaml", "memcalc", 0, &c);
	CU_ASSERT_EQUAL(h_job(s, "d", 0)->end_us, S(7.75));
	CU_ASSERT_EQUAL(h_job(s, "c", 0)->end_us, S(8.6875));
	CU_ASSERT_EQUAL(h_job(s, "ab", 0)->end_us, S(10.0625));
	CU_ASSERT_EQUAL(h_job(s, "ab", 1)->end_us, S(10.0625));
	h_done(s, c);
}

/* Re-rating moves one end event per node, not one per task on it
 * (share-pushes-K.yaml): K long tasks on one core, and five short ones
 * whose every start and end changes the rate of all K.  The queue's
 * pushes grow by 3 per long task and 2 per short one, whatever the
 * re-ratings: 29 and 37 for K = 4 and 8, where moving every task's end
 * event pushed 73 and 161. */
static void share_pushes(void)
{
	static const struct {
		const char *path;
		int k;
	} runs[] = {{"tests/scenarios/hand/share-pushes-4.yaml", 4},
		    {"tests/scenarios/hand/share-pushes-8.yaml", 8}};
	for (int i = 0; i < 2; i++) {
		struct scn *c;
		struct sim *s = h_run(runs[i].path, "memcalc", 0, &c);
		int k = runs[i].k;
		CU_ASSERT_EQUAL(h_job(s, "long", 0)->end_us, S(k * 100 + 5));
		for (int j = 0; j < 5; j++)
			CU_ASSERT_EQUAL(h_job(s, "short", j)->end_us, S(10 * (j + 1) + k + 1));
		/* handled: 6 arrivals, 6 ready, k + 5 task ends */
		CU_ASSERT_EQUAL(sim_totals(s)->events, (uint64_t)(12 + k + 5));
		/* queued: 6 + 6; the long tasks' k starts (one end event of
		 * its own, then k - 1 moves of the node's); 2 per short task
		 * (its start and end move the node's); k - 1 as the long ones
		 * end together (each end moves it to the next) */
		CU_ASSERT_EQUAL(sim_queue_pushes(s), (uint64_t)(12 + k + 10 + (k - 1)));
		h_done(s, c);
	}
}

/* WordCount's map tasks follow Hadoop's split rule with the 1.1 slop. */
static void wordcount_splits(void)
{
	struct scn *s = h_load("tests/scenarios/hand/wordcount.yaml");
	static const struct {
		int group;
		int maps, reduces;
		double first_split, last_split; /* MiB */
	} want[] = {
		{0, 8, 8, 128, 128},   /* 1 GiB: 8 blocks */
		{1, 3, 3, 128, 44},    /* 300 MiB: 128, 128, 44 */
		{2, 2, 4, 50, 50},     /* 100 MiB: two halves; parallelism 4 */
		{3, 8, 8, 128, 134},   /* 1030 MiB: 7 x 128 + 134 (within slop) */
	};
	struct arena ar = {0};
	for (int k = 0; k < 4; k++) {
		struct sim_dag d;
		sim_build_dag(s, want[k].group, 0, 1, &ar, &d);
		CU_ASSERT_EQUAL(d.nstages, 2);
		CU_ASSERT_EQUAL(d.st[0].ntasks, want[k].maps);
		CU_ASSERT_EQUAL(d.st[1].ntasks, want[k].reduces);
		CU_ASSERT_EQUAL(d.st[1].nparents, 1);
		/* cost: 1 s + 10 ms per MiB, no noise */
		CU_ASSERT_DOUBLE_EQUAL(d.st[0].work_us[0], 1e6 + 1e4 * want[k].first_split, 1e-6);
		CU_ASSERT_DOUBLE_EQUAL(d.st[0].work_us[d.st[0].ntasks - 1],
				       1e6 + 1e4 * want[k].last_split, 1e-6);
		/* task delay: launch 0 + framework overhead 40 ms */
		CU_ASSERT_EQUAL(d.task_delay_us, 40000);
		arena_reset(&ar);
	}
	/* reduce: 1 GiB x 0.1 shuffle over 8 reducers = 12.8 MiB each;
	 * cost 0.5 s + 20 ms per MiB = 756 ms */
	struct sim_dag d;
	sim_build_dag(s, 0, 0, 1, &ar, &d);
	CU_ASSERT_DOUBLE_EQUAL(d.st[1].work_us[0], 756000.0, 1e-6);
	arena_free(&ar);
	scn_free(s);
}

/* A wordcount job end to end: 1 GiB, 2 executors x 2 cores (4 slots),
 * overheads 0 + 40 ms framework: maps of 2.28 s + 40 ms in two waves
 * (8 tasks, 4 slots) = 4.64 s; reduces of 756 ms + 40 ms in two waves
 * = 1.592 s; total 6.232 s. */
static void wordcount_run(void)
{
	struct scn *c;
	struct sim *s = h_run("tests/scenarios/hand/wordcount.yaml", "label-dual", 0, &c);
	const struct sim_job *j = h_job(s, "gib", 0);
	CU_ASSERT_EQUAL(j->status, JOB_DONE);
	CU_ASSERT_EQUAL(j->end_us - j->arrival_us, 6232000);
	h_done(s, c);
}

/* Keyed draws: a job's task durations do not depend on the policy or
 * on which other jobs exist. */
static void keyed_durations(void)
{
	struct scn *s = h_load("tests/scenarios/hand/keyed.yaml");
	struct arena aa = {0}, ab = {0};
	struct sim_dag a, b;
	sim_build_dag(s, 1, 3, 77, &aa, &a);
	sim_build_dag(s, 1, 3, 77, &ab, &b);
	CU_ASSERT_EQUAL(a.st[0].ntasks, b.st[0].ntasks);
	CU_ASSERT_EQUAL(memcmp(a.st[0].work_us, b.st[0].work_us,
			       (size_t)a.st[0].ntasks * sizeof *a.st[0].work_us), 0);
	arena_reset(&ab);
	sim_build_dag(s, 1, 3, 78, &ab, &b); /* another seed: other durations */
	CU_ASSERT_NOT_EQUAL(a.st[0].work_us[0], b.st[0].work_us[0]);
	arena_free(&aa);
	arena_free(&ab);
	scn_free(s);
}

/* A broken invariant aborts with the simulated time: an executor asked
 * for a job that has not arrived, in a child process. */
static void invariant_aborts(void)
{
	int fd[2];
	CU_ASSERT_FATAL(pipe(fd) == 0);
	fflush(NULL);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		char err[256];
		struct scn *s = scn_load("tests/scenarios/hand/dag.yaml", err, sizeof err);
		struct sim *m = s ? sim_new(s, &s->policies[0], 0, err, sizeof err) : NULL;
		if (m)
			sim_launch_executor(m, 0, 0, 0, 1, 1024, 0);
		_exit(0); /* not reached if the engine caught it */
	}
	close(fd[1]);
	char buf[512] = "";
	size_t len = 0;
	ssize_t n;
	while (len < sizeof buf - 1 && (n = read(fd[0], buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)n;
	close(fd[0]);
	int st;
	waitpid(pid, &st, 0);
	buf[len] = '\0';
	if (!(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT))
		fprintf(stderr, "\nchild status %#x, said: %s\n", st, buf);
	CU_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	CU_ASSERT_STRING_EQUAL(buf, "hetsim: broken invariant at t=0.000000 s: policy launched an "
				    "invalid executor (job 0, status pending, role 0)\n");
}

/* An arrival past the engine's clock stops the run cleanly (far-arrival.yaml). */
static void far_arrival(void)
{
	char err[256];
	struct scn *s = scn_load("tests/scenarios/edge/far-arrival.yaml", err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct sim *m = sim_new(s, &s->policies[0], 7509, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT(sim_job(m, 0)->arrival_us > SIM_TIME_MAX);
	CU_ASSERT_EQUAL(sim_run(m), -1);
	sim_free(m);
	m = sim_new(s, &s->policies[0], 7508, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT(sim_job(m, 0)->arrival_us < SIM_TIME_MAX);
	CU_ASSERT_EQUAL(sim_run(m), 0);
	CU_ASSERT_EQUAL(sim_job(m, 0)->status, JOB_DONE);
	sim_free(m);
	scn_free(s);
}

/* The CSV writers (util.h) against printf, on edge values and a sweep
 * of magnitudes: every digit count, both signs, the extremes. */
static void csv_writers(void)
{
	int64_t v[200];
	int n = 0;
	static const int64_t edge[] = {0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 999999, 1000000,
				       1000001, 123456789, INT64_MAX, INT64_MIN, INT64_MIN + 1};
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
		v[n++] = edge[i];
		v[n++] = edge[i] == INT64_MIN ? INT64_MAX : -edge[i];
	}
	for (int64_t p = 1; p < INT64_MAX / 10 && n + 4 <= 200; p *= 10) {
		v[n++] = p - 1;
		v[n++] = p;
		v[n++] = -(p + 7);
		v[n++] = p * 7 + 3;
	}
	int bad = 0;
	for (int i = 0; i < n; i++) {
		char got[64], want[64];
		*wr_i64(got, v[i]) = '\0';
		snprintf(want, sizeof want, "%" PRId64, v[i]);
		bad += strcmp(got, want) != 0;
		*wr_us(got, v[i]) = '\0';
		uint64_t a = v[i] < 0 ? (uint64_t)(-(v[i] + 1)) + 1 : (uint64_t)v[i];
		snprintf(want, sizeof want, "%s%" PRIu64 ".%06" PRIu64, v[i] < 0 ? "-" : "",
			 a / 1000000u, a % 1000000u);
		bad += strcmp(got, want) != 0;
	}
	CU_ASSERT_EQUAL(bad, 0);
	char b[32];
	CU_ASSERT_STRING_EQUAL(fmt_us(1500000, b), "1.500000");
	CU_ASSERT_STRING_EQUAL(fmt_us(-1, b), "-0.000001");
	*wr_str(b, "ab") = '\0';
	CU_ASSERT_STRING_EQUAL(b, "ab");
}

/* The writers' exact output at every place where they change how they
 * split a number (4, 8 and 16 digits, 32 bits) and at the ends of the
 * range, and that they write nothing past what they return. */
static void csv_writers_exact(void)
{
	static const struct {
		int64_t v;
		const char *i64, *us;
	} cases[] = {
		{0, "0", "0.000000"},
		{1, "1", "0.000001"},
		{-1, "-1", "-0.000001"},
		{9, "9", "0.000009"},
		{10, "10", "0.000010"},
		{99, "99", "0.000099"},
		{100, "100", "0.000100"},
		{999, "999", "0.000999"},
		{1000, "1000", "0.001000"},
		{9999, "9999", "0.009999"},
		{10000, "10000", "0.010000"},
		{999999, "999999", "0.999999"},
		{-999999, "-999999", "-0.999999"},
		{1000000, "1000000", "1.000000"},
		{1000001, "1000001", "1.000001"},
		{10000000, "10000000", "10.000000"},
		{99999999, "99999999", "99.999999"},
		{100000000, "100000000", "100.000000"},
		{100000001, "100000001", "100.000001"},
		{4294967295, "4294967295", "4294.967295"},
		{4294967296, "4294967296", "4294.967296"},
		{9999999999999999, "9999999999999999", "9999999999.999999"},
		{10000000000000000, "10000000000000000", "10000000000.000000"},
		{99999999000000000, "99999999000000000", "99999999000.000000"},
		{100000000000000000, "100000000000000000", "100000000000.000000"},
		{123456789012345678, "123456789012345678", "123456789012.345678"},
		{-123456789012345678, "-123456789012345678", "-123456789012.345678"},
		{INT64_MAX, "9223372036854775807", "9223372036854.775807"},
		{INT64_MIN + 1, "-9223372036854775807", "-9223372036854.775807"},
		{INT64_MIN, "-9223372036854775808", "-9223372036854.775808"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char b[64];
		memset(b, '#', sizeof b);
		char *end = wr_i64(b, cases[i].v);
		CU_ASSERT_EQUAL(end - b, (long)strlen(cases[i].i64));
		CU_ASSERT_EQUAL(*end, '#');
		*end = '\0';
		CU_ASSERT_STRING_EQUAL(b, cases[i].i64);
		memset(b, '#', sizeof b);
		end = wr_us(b, cases[i].v);
		CU_ASSERT_EQUAL(end - b, (long)strlen(cases[i].us));
		CU_ASSERT_EQUAL(*end, '#');
		*end = '\0';
		CU_ASSERT_STRING_EQUAL(b, cases[i].us);
	}
	char b[32];
	memset(b, '#', sizeof b);
	CU_ASSERT_PTR_EQUAL(wr_str(b, ""), b);
	CU_ASSERT_EQUAL(b[0], '#');
}

/* The writers against printf on a million numbers of every size: a
 * random 64-bit value shifted right by a random 0..63 bits. */
static void csv_writers_random(void)
{
	uint64_t x = 88172645463325252u;
	int bad = 0;
	for (int i = 0; i < 1000000; i++) {
		x ^= x << 13; /* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t m = x >> (x >> 58);
		int64_t v = (int64_t)m;
		if (i & 1)
			v = v == INT64_MIN ? v : -v;
		char got[64], want[64];
		*wr_i64(got, v) = '\0';
		snprintf(want, sizeof want, "%" PRId64, v);
		bad += strcmp(got, want) != 0;
		*wr_us(got, v) = '\0';
		uint64_t a = v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
		snprintf(want, sizeof want, "%s%" PRIu64 ".%06" PRIu64, v < 0 ? "-" : "",
			 a / 1000000u, a % 1000000u);
		bad += strcmp(got, want) != 0;
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* wr_fixed against printf's "%.*f": exact ties (odd multiples of 2^-7
 * at 6 decimals: printf breaks them to even), values a hair either side
 * of a tie, signed zeros, tiny negatives, 2^50 and past, infinities and
 * NaN, and 300 000 random doubles of every magnitude from 2^-40 to 2^60
 * at 0-9 decimals. */
static int fixed_mismatch(double x, int d)
{
	char got[WR_FIXED_MAX + 8], want[WR_FIXED_MAX + 8];
	memset(got, '#', sizeof got);
	char *end = wr_fixed(got, x, d);
	int bad = *end != '#';
	*end = '\0';
	snprintf(want, sizeof want, "%.*f", d, x);
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "wr_fixed(%.17g, %d): %s, printf %s\n", x, d, got, want);
		bad = 1;
	}
	return bad;
}

static void csv_fixed(void)
{
	int bad = 0;
	const double edge[] = {0.0, -0.0, 1e-9, -1e-9, 0.5, 1.5, 2.5, -2.5, 1.0 / 128,
			       3.0 / 128, 0.0000005, 0.0000015, 0.9999995, 0x1p50 / 1e6,
			       0x1p50, 0x1p53 + 2, 1e300, -1e300, 1.7976931348623157e308,
			       INFINITY, -INFINITY, NAN, 4.9e-324, 15.896609, 1344.8695};
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		for (int d = 0; d <= 9; d++) {
			bad += fixed_mismatch(edge[i], d);
			bad += fixed_mismatch(nextafter(edge[i], INFINITY), d);
			bad += fixed_mismatch(nextafter(edge[i], -INFINITY), d);
		}
	for (int k = -2001; k <= 2001; k += 2) /* ties at 6 decimals and their neighbours */
		for (int s = -1; s <= 1; s++) {
			double x = k / 128.0;
			x = s < 0 ? nextafter(x, -INFINITY) : s > 0 ? nextafter(x, INFINITY) : x;
			bad += fixed_mismatch(x, 6);
		}
	uint64_t st = UINT64_C(88172645463325252);
	for (int i = 0; i < 300000; i++) {
		st ^= st << 13;
		st ^= st >> 7;
		st ^= st << 17;
		double m = (double)(st >> 11) * 0x1p-53; /* [0, 1) */
		double x = ldexp(m, (int)(st % 101) - 40) * (st & 1 ? -1 : 1);
		bad += fixed_mismatch(x, (int)((st >> 7) % 10));
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* round_half_away against libm's round, bit for bit, on the same kind of
 * values. */
static void round_away(void)
{
	int bad = 0;
	const double edge[] = {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994,
			       0x1p52 - 0.5, 0x1p52, 0x1p52 + 1, 0x1p53, 1e300, INFINITY,
			       -INFINITY, NAN, 4.9e-324};
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
		double a = round_half_away(edge[i]), b = round(edge[i]);
		bad += memcmp(&a, &b, sizeof a) != 0;
	}
	uint64_t st = UINT64_C(1181783497276652981);
	for (int i = 0; i < 300000; i++) {
		st ^= st << 13;
		st ^= st >> 7;
		st ^= st << 17;
		double m = (double)(st >> 11) * 0x1p-53;
		double x = ldexp(m, (int)(st % 71) - 10) * (st & 1 ? -1 : 1);
		if (i % 3 == 0) /* halves */
			x = floor(x) + 0.5;
		double a = round_half_away(x), b = round(x);
		bad += memcmp(&a, &b, sizeof a) != 0;
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* sort_kv (util.h) against qsort on (key, position): equal keys must
 * keep their order (the job numbering relies on it), negative keys come
 * first, and keys that share digits skip passes.  Sizes 0-69 cover the
 * insertion sort of small inputs and the switch to the radix sort. */
static int cmp_kv(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->val > y->val) - (x->val < y->val);
}

static void radix_sort(void)
{
	uint64_t st = UINT64_C(88172645463325252);
	int bad = 0, badk = 0;
	for (int t = 0; t < 270; t++) {
		size_t n = t < 70 ? (size_t)t : (size_t)t * 37 % 3001;
		struct kv *a = xmalloc((n + 1) * sizeof *a), *b = xmalloc((n + 1) * sizeof *b);
		struct kv *tmp = xmalloc((n + 1) * sizeof *tmp);
		for (size_t i = 0; i < n; i++) {
			st ^= st << 13;
			st ^= st >> 7;
			st ^= st << 17;
			int64_t k = (int64_t[]){(int64_t)st, (int64_t)(st % 1000), (int64_t)(st % 2001) - 1000,
						7, (int64_t)(st >> 20) * (st & 1 ? 1 : -1)}[t % 5];
			a[i] = b[i] = (struct kv){k, i};
		}
		int64_t *k = xmalloc((n + 1) * sizeof *k), *ktmp = xmalloc((n + 1) * sizeof *ktmp);
		for (size_t i = 0; i < n; i++)
			k[i] = a[i].key;
		sort_kv(a, tmp, n);
		qsort(b, n, sizeof *b, cmp_kv);
		bad += n && memcmp(a, b, n * sizeof *a) != 0;
		sort_i64(k, ktmp, n); /* the keys alone: the same order */
		for (size_t i = 0; i < n; i++)
			badk += k[i] != b[i].key;
		free(a);
		free(b);
		free(tmp);
		free(k);
		free(ktmp);
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(badk, 0);
}

/* The arena: blocks of every size come back distinct, aligned and
 * intact while the main block overflows into extras; after a reset the
 * main block holds the whole of the last round, so the same requests
 * take no extra block; a round far smaller than a large main block
 * gives it back. */
static void arena_rounds(void)
{
	struct arena a = {0};
	for (int round = 0; round < 3; round++) {
		unsigned char *p[200];
		size_t total = 0;
		for (int i = 0; i < 200; i++) {
			size_t n = (size_t)(i * 37 % 1001); /* 0 .. 1000 bytes */
			p[i] = arena_alloc(&a, n);
			CU_ASSERT_EQUAL((uintptr_t)p[i] % alignof(max_align_t), 0);
			memset(p[i], i, n);
			total += n;
		}
		for (int i = 0; i < 200; i++) {
			size_t n = (size_t)(i * 37 % 1001);
			int ok = 1;
			for (size_t k = 0; k < n; k++)
				ok &= p[i][k] == (unsigned char)i;
			CU_ASSERT(ok);
			for (int k = 0; k < i; k++)
				CU_ASSERT(p[k] != p[i]);
		}
		CU_ASSERT(a.used + a.extra_bytes >= total);
		/* the first round overflows the first block; later ones fit */
		CU_ASSERT_EQUAL(a.extra != NULL, round == 0);
		arena_reset(&a);
		CU_ASSERT_EQUAL(a.used, 0);
		CU_ASSERT(a.extra == NULL);
	}
	size_t big = a.cap;
	CU_ASSERT(big >= 64 << 10); /* 200 requests of up to 1000 bytes */
	CU_ASSERT_EQUAL(((unsigned char *)arena_zalloc(&a, 100))[99], 0);
	arena_reset(&a); /* a round of 100 bytes: the big block goes back */
	CU_ASSERT(a.cap < big);
	CU_ASSERT_EQUAL(a.cap, 256); /* the smallest block */
	/* the block is the last round's demand rounded up to 256 bytes, kept
	 * while a round uses three quarters of it (requests round to 16) */
	arena_alloc(&a, 1000);
	arena_reset(&a);
	CU_ASSERT_EQUAL(a.cap, 1024);
	arena_alloc(&a, 800); /* 800 >= 768: kept */
	arena_reset(&a);
	CU_ASSERT_EQUAL(a.cap, 1024);
	arena_alloc(&a, 700); /* 704 < 768: shrunk */
	arena_reset(&a);
	CU_ASSERT_EQUAL(a.cap, 768);
	arena_free(&a);
	CU_ASSERT(a.base == NULL && a.cap == 0);
}

/* Contention (contention-2.yaml has the arithmetic): 2 tasks of 1 s
 * at slowdown 1.5 both end at 1.5 s, a third queued runs alone 1.5..2.5;
 * a 1 s and a 3 s task share until 4, the long one alone to 6.  The same
 * scenario with its curve dropped, and the file without the entry, both
 * give the uncontended 5 s, event for event. */
static void contention_hand(void)
{
	struct scn *c;
	struct sim *s = h_run("tests/scenarios/hand/contention-2.yaml", "fifo", 0, &c);
	CU_ASSERT_EQUAL(c->groups[0].nbusy, 2);
	CU_ASSERT_DOUBLE_EQUAL(c->groups[0].busy_slowdown[1], 1.5, 0);
	const struct sim_job *j = h_job(s, "j", 0);
	CU_ASSERT_EQUAL(j->status, JOB_DONE);
	CU_ASSERT_EQUAL(j->end_us, S(6));
	h_done(s, c);

	struct scn *none;
	s = h_run("tests/scenarios/hand/contention-none.yaml", "fifo", 0, &none);
	CU_ASSERT_EQUAL(none->groups[0].nbusy, 0);
	int64_t end = h_job(s, "j", 0)->end_us;
	uint64_t events = sim_totals(s)->events;
	CU_ASSERT_EQUAL(end, S(5));
	h_done(s, none);

	c = h_load("tests/scenarios/hand/contention-2.yaml");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	c->groups[0].nbusy = 0; /* no curve: the rate as without the entry */
	s = h_run_loaded(c, 0, 0);
	CU_ASSERT_EQUAL(h_job(s, "j", 0)->end_us, end);
	CU_ASSERT_EQUAL(sim_totals(s)->events, events);
	h_done(s, c);
}

/* The committed measured model (calibrate/models/epyc-2core-v2.yaml) in
 * a hand case (contention-model.yaml): its largest cpu slowdown at k = 2,
 * wordcount_reduce's 1.0044, held beyond; 10 s tasks end at 10, 10.044
 * with 2 or 4 busy, and a fifth after four at 10.044 + 10. */
static void contention_model(void)
{
	struct scn *c;
	struct sim *s = h_run("tests/scenarios/hand/contention-model.yaml", "fifo", 0, &c);
	CU_ASSERT_EQUAL(c->groups[0].nbusy, 2);
	CU_ASSERT_DOUBLE_EQUAL(c->groups[0].busy_slowdown[1], 1.0044, 0);
	CU_ASSERT_EQUAL(h_job(s, "a", 0)->end_us, S(10));
	CU_ASSERT_EQUAL(h_job(s, "b", 0)->end_us, S(30.044));
	CU_ASSERT_EQUAL(h_job(s, "c", 0)->end_us, S(50.044));
	CU_ASSERT_EQUAL(h_job(s, "d", 0)->end_us, S(80.044));
	h_done(s, c);
}

/* The curve comes from the kernels the workload's tasks run: a
 * WordCount's (1.2 at k = 2), not mnist_step's 2.0 (contention-kinds
 * .yaml: 2 maps and 2 reduces of 1 s, two at a time, end at 2.4 s). */
static void contention_kinds(void)
{
	struct scn *c;
	struct sim *s = h_run("tests/scenarios/hand/contention-kinds.yaml", "fifo", 0, &c);
	CU_ASSERT_EQUAL_FATAL(c->groups[0].nbusy, 2);
	CU_ASSERT_DOUBLE_EQUAL(c->groups[0].busy_slowdown[1], 1.2, 0);
	CU_ASSERT_EQUAL(h_job(s, "wc", 0)->status, JOB_DONE);
	CU_ASSERT_EQUAL(h_job(s, "wc", 0)->end_us, S(2.4));
	h_done(s, c);
}

/* A slowdown below 1 is not a speed-up: the curve starts from 1
 * (contention-below1.yaml: two 1 s tasks end at 1 s, not 0.8). */
static void contention_below1(void)
{
	struct scn *c;
	struct sim *s = h_run("tests/scenarios/hand/contention-below1.yaml", "fifo", 0, &c);
	CU_ASSERT_DOUBLE_EQUAL(c->groups[0].busy_slowdown[1], 1.0, 0);
	CU_ASSERT_EQUAL(h_job(s, "j", 0)->end_us, S(1));
	h_done(s, c);
}

/* Two kernels' entries: the node's curve is their largest slowdown at
 * each busy core count, linear between measured k, the last held beyond
 * (1, 1.8, 2, 2 on 4 cores; a gpu entry plays no part); contention-hold
 * .yaml: 4 tasks end at 2, 2 at 3.8, the last at 4.8. */
static void contention_hold(void)
{
	struct scn *c;
	struct sim *s = h_run("tests/scenarios/hand/contention-hold.yaml", "fifo", 0, &c);
	const double want[] = {1, 1.8, 2};
	CU_ASSERT_EQUAL_FATAL(c->groups[0].nbusy, 3);
	for (int b = 0; b < 3; b++)
		CU_ASSERT_DOUBLE_EQUAL(c->groups[0].busy_slowdown[b], want[b], 1e-15);
	const struct scn_cost_dev *d = scn_cost_device(scn_cost_kernel(c, "wordcount_map"), "cpu");
	CU_ASSERT_EQUAL(d->nslowdown, 3);
	CU_ASSERT_DOUBLE_EQUAL(d->slowdown[1], 1.5, 1e-15); /* between k = 1 and 3 */
	CU_ASSERT_EQUAL(h_job(s, "j", 0)->end_us, S(4.8));
	h_done(s, c);
}

/* The no-progress watchdog: a batch of 10^5 jobs arriving at one
 * instant, each a task of no time (3 events a job at t = 0: arrival,
 * executor up, task end), is far inside its bound of 10 x (jobs +
 * tasks + nodes) + 1000 and runs to its end; with the bound set at 1000
 * (--max-stall) the same run stops at its 1001st event of the instant,
 * naming what kept firing.  (By hand: 10^6 such jobs, 3 x 10^6 events at
 * t = 0, run to their end too.) */
static void stall_watchdog(void)
{
	char path[64];
	h_write_tmp(path, sizeof path,
		    "cluster: [{name: n, count: 100, cores: 16, memory: 64GiB}]\n"
		    "overheads: {executor_startup: 0s, task_launch: 0s}\n"
		    "workload:\n"
		    "  - {name: j, type: synthetic, count: 100000, arrival: {at: 0s}, executors: 1,\n"
		    "     executor_cores: 1, executor_memory: 1GiB,\n"
		    "     stages: [{name: s, tasks: 1, duration: 0s}]}\n"
		    "policies: [fifo]\n");
	struct scn *c = h_load(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	struct sim *s = h_run_loaded(c, 0, 0);
	CU_ASSERT_EQUAL(sim_totals(s)->jobs_done, 100000);
	CU_ASSERT_EQUAL(sim_totals(s)->events, 300000);
	CU_ASSERT_EQUAL(h_makespan(s), 0);
	sim_free(s);
	char err[256], why[1024];
	sim_max_stall = 1000;
	s = sim_new(c, &c->policies[0], 0, err, sizeof err);
	int rc = sim_run(s);
	sim_max_stall = 0;
	CU_ASSERT_EQUAL(rc, SIM_STALLED);
	CU_ASSERT_EQUAL(sim_totals(s)->events, 1001);
	CU_ASSERT_STRING_EQUAL(sim_stop_why(s, rc, why, sizeof why),
			       "no progress: 1001 events at simulated time 0.000000 s without the "
			       "clock moving, more than the bound of 1000, set by --max-stall; 1001 "
			       "of them arrival events, from job arrivals");
	sim_free(s);
	scn_free(c);
	remove(path);
}

int test_suite_engine(void)
{
	TEST_SUITE("engine",
		   {"DAG of stages with node speed 2", dag_diamond},
		   {"processor sharing: staggered arrivals, exact ends", share_stagger},
		   {"processor sharing: a launch delay across a change of rate", share_delay},
		   {"processor sharing: one end event per node moves per re-rating", share_pushes},
		   {"wordcount: split rule, task counts, costs", wordcount_splits},
		   {"wordcount: a whole job, exact", wordcount_run},
		   {"durations keyed by (seed, job, stage, task)", keyed_durations},
		   {"a broken invariant aborts with the simulated time", invariant_aborts},
		   {"the no-progress watchdog: a batch at one instant, the bound", stall_watchdog},
		   {"CSV number writers match printf", csv_writers},
		   {"CSV number writers: exact output at the edges", csv_writers_exact},
		   {"CSV number writers match printf at random", csv_writers_random},
		   {"wr_fixed writes what printf's %.*f writes", csv_fixed},
		   {"round_half_away is libm's round", round_away},
		   {"radix sorts: stable, and match qsort", radix_sort},
		   {"arena: distinct aligned blocks, one block after a reset", arena_rounds},
		   {"an arrival past the clock stops the run cleanly", far_arrival},
		   {"contention: the slowdown at busy cores, by hand", contention_hand},
		   {"contention: kernels' largest slowdown, held beyond k", contention_hold},
		   {"contention: the committed measured model, by hand", contention_model},
		   {"contention: the workload's kernels make the curve", contention_kinds},
		   {"contention: a slowdown below 1 is not a speed-up", contention_below1});
	return 0;
}
