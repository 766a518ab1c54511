/* eq_bench.c - the event queue alone, under the classic hold model.
 *
 *   bench/eq_bench N M
 *
 * Fills a queue (sim/eq.c) with N events at exponential times (mean 1 s),
 * then times M hold operations: pop the least event and push it back at
 * its time plus an exponential increment (mean 1 s, in whole µs, as the
 * engine's clock).  The increments come from a precomputed table of 2^16
 * draws, cycled, so that the figure is the queue's and not libm's log().
 * Prints one CSV line:
 *
 *   n,pairs,wall_s,pairs_per_s,peak_rss_mib
 *
 * Built by `make bench` against sim/eq.c and sim/util.c only.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "eq.h"

#define TABLE 65536

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

/* splitmix64: a fixed stream, so every run does the same pushes. */
static uint64_t next64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Exponential of mean 1 s, in µs. */
static int64_t exp_us(void)
{
	double u = ((double)(next64() >> 11) + 0.5) / 9007199254740992.0;
	return (int64_t)(-log(u) * 1e6);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: eq_bench N M\n");
		return 2;
	}
	long long n = atoll(argv[1]), m = atoll(argv[2]);
	if (n < 1 || m < 1) {
		fprintf(stderr, "eq_bench: N and M must be >= 1\n");
		return 2;
	}
	static int64_t inc[TABLE];
	for (int i = 0; i < TABLE; i++)
		inc[i] = exp_us();

	struct eq q;
	eq_init(&q, (size_t)n);
	for (long long i = 0; i < n; i++)
		eq_push(&q, exp_us(), 0, (uint32_t)i);

	double t0 = now_s();
	struct eq_event e;
	int64_t check = 0;
	for (long long i = 0; i < m; i++) {
		eq_pop(&q, &e);
		check += e.time;
		eq_push(&q, e.time + inc[i & (TABLE - 1)], e.kind, e.obj);
	}
	double wall = now_s() - t0;

	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("%lld,%lld,%.6f,%.0f,%.1f\n", n, m, wall, (double)m / wall,
	       (double)ru.ru_maxrss / 1024.0);
	fprintf(stderr, "eq_bench: checksum %lld, queue size %zu\n", (long long)check,
		eq_size(&q));
	eq_free(&q);
	return 0;
}
