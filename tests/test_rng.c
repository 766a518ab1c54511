/* test_rng.c - keyed random numbers: purity, key separation, and the
 * distributions' moments.
 *
 * Statistical checks use N = 10^6 draws and accept a sample mean or
 * variance within 5 standard errors of the exact value.  The standard
 * errors come from the distribution's own moments: sigma / sqrt(N) for a
 * mean, sqrt((mu4 - sigma^4) / N) for a variance (mu4 the fourth central
 * moment).  The draws are deterministic, so each check always passes or
 * always fails: 5 standard errors is wide enough for a correct generator
 * with any seed and narrow enough to catch a wrong formula (a 1% bias in
 * an exponential's mean is 10 standard errors).
 */
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "scenario.h"
#include "util.h"

#define N 1000000
#define SE_TOL 5.0

static double xs[N], ys[N]; /* samples; static: 16 MB is too much stack */

static double mean_of(const double *x, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

static double var_of(const double *x, size_t n)
{
	double m = mean_of(x, n), s = 0;
	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return s / (double)(n - 1);
}

/* Pearson correlation of x and y. */
static double corr_of(const double *x, const double *y, size_t n)
{
	double mx = mean_of(x, n), my = mean_of(y, n), sxy = 0, sxx = 0, syy = 0;
	for (size_t i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	return sxy / sqrt(sxx * syy);
}

/* Sample mean and variance of xs[0..N) within SE_TOL standard errors of
 * a distribution with this mean, variance and fourth central moment. */
static void check_moments(const char *what, double mean, double var, double mu4)
{
	double m = mean_of(xs, N), v = var_of(xs, N);
	double se_m = sqrt(var / N), se_v = sqrt((mu4 - var * var) / N);
	if (fabs(m - mean) > SE_TOL * se_m || fabs(v - var) > SE_TOL * se_v)
		fprintf(stderr, "\n%s: mean %.6g (want %.6g, se %.3g), var %.6g (want %.6g, se %.3g)\n",
			what, m, mean, se_m, v, var, se_v);
	CU_ASSERT(fabs(m - mean) <= SE_TOL * se_m);
	CU_ASSERT(fabs(v - var) <= SE_TOL * se_v);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static bool all_distinct(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_u64);
	for (size_t i = 1; i < n; i++)
		if (v[i] == v[i - 1])
			return false;
	return true;
}

static bool key_eq(struct rng_key x, struct rng_key y) { return x.a == y.a && x.b == y.b; }

static void test_pure(void)
{
	struct rng_key k = rng_key(42, 3, RNG_TASK, 7, 1, 99);
	CU_ASSERT_TRUE(key_eq(k, rng_key(42, 3, RNG_TASK, 7, 1, 99)));
	/* Draw order does not matter: backwards gives the same numbers. */
	static uint64_t fwd[1000];
	for (uint64_t d = 0; d < 1000; d++)
		fwd[d] = rng_u64(k, d);
	bool same = true;
	for (uint64_t d = 1000; d-- > 0;)
		same &= rng_u64(k, d) == fwd[d];
	CU_ASSERT_TRUE(same);
	CU_ASSERT_EQUAL(rng_u01(k, 5), rng_u01(k, 5));
	CU_ASSERT_EQUAL(rng_normal(k, 5), rng_normal(k, 5));
	CU_ASSERT_EQUAL(rng_lognormal(k, 5, 3, 0.5), rng_lognormal(k, 5, 3, 0.5));
	CU_ASSERT_EQUAL(rng_exponential(k, 5, 3), rng_exponential(k, 5, 3));
}

/* Pinned outputs: the numbers every golden log depends on.  If these
 * change, every result changes; update them only on purpose. */
static void test_pinned_values(void)
{
	struct rng_key k = rng_key(1, 0, RNG_ARRIVAL, 0, 0, 0);
	CU_ASSERT_EQUAL(rng_replication_seed(1, 0), UINT64_C(0x329d2532f4872b1b));
	CU_ASSERT_EQUAL(rng_u64(k, 0), UINT64_C(0xc2b1020a6d5cd5f6));
	CU_ASSERT_EQUAL(rng_u64(k, 1), UINT64_C(0xb7d4621e50e51cbc));
	CU_ASSERT_EQUAL(rng_u64(rng_key(2024, 3, RNG_TASK, 5, 6, 7), 1000), UINT64_C(0x374e13098c69649e));
}

/* A key made in two steps (rng_key_base, rng_key_of) is rng_key's. */
static void test_key_in_two_steps(void)
{
	static const uint64_t seeds[] = {0, 1, 2024, UINT64_C(1) << 63};
	static const uint32_t v[] = {0, 1, 7, UINT32_MAX};
	for (int a = 0; a < 4; a++)
		for (int x = 0; x < 4; x++)
			for (int y = 0; y < 4; y++)
				for (int z = 0; z < 4; z++) {
					struct rng_key k = rng_key(seeds[a], v[x], RNG_USER, v[x], v[y], v[z]);
					struct rng_key m = rng_key_of(
						rng_key_base(seeds[a], v[x], RNG_USER, v[x]), v[y], v[z]);
					CU_ASSERT_EQUAL(k.a, m.a);
					CU_ASSERT_EQUAL(k.b, m.b);
				}
}

/* Changing any one of seed, replication, stream, x, y, z changes the
 * key and the numbers; so does changing the draw. */
static void test_keys_separate(void)
{
	static const uint64_t seeds[] = {0, 1, UINT64_C(1) << 63};
	static const uint32_t small[] = {0, 1, 7};
	enum { NK = 3 * 3 * (RNG_USER - RNG_ARRIVAL + 1) * 3 * 3 * 3 };
	static uint64_t a[NK], b[NK], u[NK];
	size_t n = 0;
	for (int s = 0; s < 3; s++)
		for (int r = 0; r < 3; r++)
			for (int st = RNG_ARRIVAL; st <= RNG_USER; st++)
				for (int x = 0; x < 3; x++)
					for (int y = 0; y < 3; y++)
						for (int z = 0; z < 3; z++) {
							struct rng_key k = rng_key(seeds[s], small[r], (enum rng_stream)st,
										   small[x], small[y], small[z]);
							a[n] = k.a;
							b[n] = k.b;
							u[n++] = rng_u64(k, 0);
						}
	CU_ASSERT_EQUAL_FATAL(n, NK);
	CU_ASSERT_TRUE(all_distinct(a, NK));
	CU_ASSERT_TRUE(all_distinct(b, NK));
	CU_ASSERT_TRUE(all_distinct(u, NK));

	/* Neighbouring coordinates, one at a time, far from zero too. */
	struct rng_key k0 = rng_key(12345, 2, RNG_SIZE, 100000, 3, 4);
	struct rng_key kk[] = {
		rng_key(12346, 2, RNG_SIZE, 100000, 3, 4), rng_key(12345, 3, RNG_SIZE, 100000, 3, 4),
		rng_key(12345, 2, RNG_TASK, 100000, 3, 4), rng_key(12345, 2, RNG_SIZE, 100001, 3, 4),
		rng_key(12345, 2, RNG_SIZE, 100000, 4, 4), rng_key(12345, 2, RNG_SIZE, 100000, 3, 5),
		/* swapped coordinates are different tuples */
		rng_key(12345, 2, RNG_SIZE, 3, 100000, 4), rng_key(12345, 2, RNG_SIZE, 100000, 4, 3),
	};
	for (size_t i = 0; i < sizeof kk / sizeof kk[0]; i++) {
		CU_ASSERT_FALSE(key_eq(k0, kk[i]));
		CU_ASSERT_NOT_EQUAL(rng_u64(k0, 0), rng_u64(kk[i], 0));
		CU_ASSERT_NOT_EQUAL(rng_u01(k0, 9), rng_u01(kk[i], 9));
	}

	/* One key: distinct draws give distinct numbers. */
	static uint64_t d[100000];
	for (uint64_t i = 0; i < 100000; i++)
		d[i] = rng_u64(k0, i);
	CU_ASSERT_TRUE(all_distinct(d, 100000));

	/* Replication seeds of one scenario seed are distinct. */
	for (uint32_t r = 0; r < 100000; r++)
		d[r] = rng_replication_seed(7, r);
	CU_ASSERT_TRUE(all_distinct(d, 100000));
}

static void test_u01_range_and_buckets(void)
{
	struct rng_key k = rng_key(1, 0, RNG_USER, 0, 0, 0);
	double lo = 1, hi = 0;
	long count[100] = {0};
	for (uint64_t i = 0; i < N; i++) {
		double u = rng_u01(k, i);
		xs[i] = u;
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
		if (u > 0 && u < 1)
			count[(int)(u * 100)]++;
	}
	CU_ASSERT(lo > 0);
	CU_ASSERT(hi < 1);
	CU_ASSERT(lo < 1e-5 && hi > 1 - 1e-5); /* and it does spread out */
	check_moments("u01", 0.5, 1.0 / 12, 1.0 / 80);

	/* Pearson chi-square over 100 equal buckets, 99 degrees of freedom:
	 * accept 61.14 < X^2 < 148.23 (the 0.1% and 99.9% quantiles), so
	 * both a bad fit and a suspiciously perfect one fail. */
	double chi2 = 0, e = N / 100.0;
	for (int j = 0; j < 100; j++)
		chi2 += (count[j] - e) * (count[j] - e) / e;
	CU_ASSERT(chi2 > 61.14 && chi2 < 148.23);
}

/* Correlations that a counter-based design could get wrong: between
 * neighbouring draws, neighbouring coordinates, and a key's uniforms and
 * normals.  Under independence a sample correlation has standard error
 * about 1/sqrt(N) = 0.001; accept |r| < 5/sqrt(N). */
static void test_no_correlation(void)
{
	const double tol = SE_TOL / sqrt(N);
	struct rng_key k = rng_key(9, 1, RNG_NOISE, 0, 0, 0);
	for (uint64_t i = 0; i < N; i++)
		xs[i] = rng_u01(k, i);
	CU_ASSERT(fabs(corr_of(xs, xs + 1, N - 1)) < tol);

	for (uint32_t x = 0; x < N; x++)
		xs[x] = rng_u01(rng_key(9, 1, RNG_TASK, x, 0, 0), 0);
	CU_ASSERT(fabs(corr_of(xs, xs + 1, N - 1)) < tol);

	for (uint32_t r = 0; r < N; r++)
		xs[r] = rng_u01(rng_key(9, r, RNG_TASK, 0, 0, 0), 0);
	CU_ASSERT(fabs(corr_of(xs, xs + 1, N - 1)) < tol);

	for (uint64_t i = 0; i < N; i++) {
		xs[i] = rng_u01(k, i);
		ys[i] = rng_normal(k, i);
	}
	CU_ASSERT(fabs(corr_of(xs, ys, N)) < tol);
	CU_ASSERT(fabs(corr_of(ys, ys + 1, N - 1)) < tol);
	/* Squares too: normals d and d+1 sharing a raw number would show
	 * here (the normal's sign symmetry hides it from the plain r). */
	for (uint64_t i = 0; i < N; i++)
		ys[i] *= ys[i];
	CU_ASSERT(fabs(corr_of(ys, ys + 1, N - 1)) < tol);
}

static void test_exponential(void)
{
	struct rng_key k = rng_key(3, 0, RNG_ARRIVAL, 0, 0, 0);
	const double m = 250.0;
	bool pos = true;
	for (uint64_t i = 0; i < N; i++) {
		xs[i] = rng_exponential(k, i, m);
		pos &= xs[i] > 0;
	}
	CU_ASSERT_TRUE(pos);
	check_moments("exponential", m, m * m, 9 * m * m * m * m);
}

static void test_uniform(void)
{
	struct rng_key k = rng_key(3, 0, RNG_SIZE, 0, 0, 0);
	const double lo = -2, hi = 5, w = hi - lo;
	bool in = true;
	for (uint64_t i = 0; i < N; i++) {
		xs[i] = rng_uniform(k, i, lo, hi);
		in &= xs[i] > lo && xs[i] < hi;
	}
	CU_ASSERT_TRUE(in);
	check_moments("uniform", (lo + hi) / 2, w * w / 12, w * w * w * w / 80);
	CU_ASSERT_EQUAL(rng_uniform(k, 1, 4.5, 4.5), 4.5);
}

static void test_normal(void)
{
	struct rng_key k = rng_key(3, 0, RNG_STEP, 0, 0, 0);
	for (uint64_t i = 0; i < N; i++)
		xs[i] = rng_normal(k, i);
	check_moments("normal", 0, 1, 3);
	/* Tails: P(|Z| > 3) = 0.0026998; binomial se = sqrt(p(1-p)/N). */
	long tail = 0;
	for (size_t i = 0; i < N; i++)
		tail += fabs(xs[i]) > 3;
	double p = 0.0026998, se = sqrt(p * (1 - p) / N);
	CU_ASSERT(fabs((double)tail / N - p) < SE_TOL * se);
}

/* The ziggurat's tables (sim/rng.c): every layer of the same area v,
 * the base strip (rectangle [0, r] x [0, f(r)] and the tail beyond r)
 * included, and the top layer closing at x = 0.  This checks the
 * paper's r and v for each N: a wrong digit leaves the top layer's area
 * off.  Within 1e-8: the paper gives r to 13 digits, and 127 steps of
 * the recursion leave the normal's top layer 1.2e-9 off (its share of
 * the law is off by as much, relative: far below what a simulation
 * could see). */
static void check_layers(bool normal, int n)
{
	double r = rng_zig_x(normal, 1), x0 = rng_zig_x(normal, 0);
	double fr = normal ? exp(-r * r / 2) : exp(-r);
	double tail = normal ? 1.2533141373155002512 /* sqrt(pi / 2) */ * erfc(r / sqrt(2.0)) : exp(-r);
	double v = r * fr + tail;
	CU_ASSERT(fabs(x0 * fr - v) < 1e-8 * v);
	for (int i = 1; i < n; i++) {
		double a = rng_zig_x(normal, i), b = rng_zig_x(normal, i + 1);
		double fa = normal ? exp(-a * a / 2) : exp(-a), fb = normal ? exp(-b * b / 2) : exp(-b);
		CU_ASSERT(a > b);
		if (fabs(a * (fb - fa) - v) >= 1e-8 * v)
			fprintf(stderr, "\n  %s layer %d: area %.12g, v %.12g\n", normal ? "normal" : "exponential",
				i, a * (fb - fa), v);
		CU_ASSERT(fabs(a * (fb - fa) - v) < 1e-8 * v);
	}
	CU_ASSERT_EQUAL(rng_zig_x(normal, n), 0);
}

/* xs[0..N) against a distribution through its CDF: F(x) is uniform on
 * (0, 1) where x has F's law, so Pearson's chi-square over 1 000 equal
 * buckets of F(x), 999 degrees of freedom, accepted between the 0.1 %
 * and 99.9 % quantiles (866.5, 1 142.9; Wilson-Hilferty); and the count
 * beyond `far` (the tail a ziggurat draws by its own method) within
 * SE_TOL binomial standard errors of N (1 - F(far)). */
static void check_law(const char *what, double (*cdf)(double), double far)
{
	static long count[1000];
	memset(count, 0, sizeof count);
	long beyond = 0;
	for (size_t i = 0; i < N; i++) {
		double u = cdf(xs[i]);
		int b = (int)(u * 1000);
		count[b < 0 ? 0 : b > 999 ? 999 : b]++;
		beyond += xs[i] > far;
	}
	double chi2 = 0, e = N / 1000.0;
	for (int j = 0; j < 1000; j++)
		chi2 += (count[j] - e) * (count[j] - e) / e;
	if (!(chi2 > 866.5 && chi2 < 1142.9))
		fprintf(stderr, "\n  %s: chi-square %.1f over 1 000 buckets\n", what, chi2);
	CU_ASSERT(chi2 > 866.5 && chi2 < 1142.9);
	double p = 1 - cdf(far), se = sqrt(p * (1 - p) / N);
	if (!(fabs((double)beyond / N - p) < SE_TOL * se))
		fprintf(stderr, "\n  %s: %ld beyond %g, %.1f expected\n", what, beyond, far, p * N);
	CU_ASSERT(fabs((double)beyond / N - p) < SE_TOL * se);
}

/* The tail a ziggurat draws by its own method, beyond r = x[1]: over M =
 * 10^7 draws (about 5 800 normals beyond +-r, 4 500 exponentials), the
 * count within SE_TOL binomial standard errors of M p, and the mean
 * excess over r within SE_TOL standard errors of its exact value: for
 * the exponential 1 (it has no memory), for the normal lambda - r with
 * lambda = phi(r) / Q(r) the inverse Mills ratio, variance 1 + r lambda -
 * lambda^2 (the truncated normal's). */
#define M_TAIL 10000000
static void check_tail(bool normal)
{
	struct rng_key k = rng_key(12, 0, RNG_NOISE, 0, 0, 0);
	double r = rng_zig_x(normal, 1);
	double p, mean, var;
	if (normal) {
		double q = 0.5 * erfc(r / sqrt(2.0)), phi = exp(-r * r / 2) / 2.5066282746310002;
		double lam = phi / q;
		p = 2 * q; /* either side */
		mean = lam - r;
		var = 1 + r * lam - lam * lam;
	} else {
		p = exp(-r);
		mean = var = 1;
	}
	long n = 0;
	double sum = 0;
	for (uint64_t i = 0; i < M_TAIL; i++) {
		double x = normal ? fabs(rng_normal(k, i)) : rng_exponential(k, i, 1.0);
		if (x > r) {
			n++;
			sum += x - r;
		}
	}
	double se_n = sqrt(p * (1 - p) * M_TAIL), got = n ? sum / (double)n : 0;
	double se_m = n ? sqrt(var / (double)n) : 1;
	if (!(fabs((double)n - p * M_TAIL) < SE_TOL * se_n && fabs(got - mean) < SE_TOL * se_m))
		fprintf(stderr, "\n  %s tail: %ld beyond %g (%.1f expected), mean excess %.4f (%.4f)\n",
			normal ? "normal" : "exponential", n, r, p * M_TAIL, got, mean);
	CU_ASSERT(fabs((double)n - p * M_TAIL) < SE_TOL * se_n);
	CU_ASSERT(fabs(got - mean) < SE_TOL * se_m);
}

static double cdf_normal(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }
static double cdf_expo(double x) { return -expm1(-x); }

static void test_ziggurat(void)
{
	check_layers(true, 128);
	check_layers(false, 256);
	/* the tail starts at x[1] = r: 3.4426 (normal), 7.6971 (exponential) */
	struct rng_key k = rng_key(11, 0, RNG_NOISE, 0, 0, 0);
	for (uint64_t i = 0; i < N; i++)
		xs[i] = rng_normal(k, i);
	check_law("normal", cdf_normal, rng_zig_x(true, 1));
	for (uint64_t i = 0; i < N; i++)
		xs[i] = -xs[i]; /* the other side's tail */
	check_law("normal, negated", cdf_normal, rng_zig_x(true, 1));
	for (uint64_t i = 0; i < N; i++)
		xs[i] = rng_exponential(k, i, 1.0);
	check_law("exponential", cdf_expo, rng_zig_x(false, 1));
	check_tail(true);
	check_tail(false);
	/* a mean scales the draw, and nothing else */
	bool same = true;
	for (uint64_t i = 0; i < 1000; i++)
		same &= rng_exponential(k, i, 4.0) == 4.0 * rng_exponential(k, i, 1.0);
	CU_ASSERT_TRUE(same);
}

/* Lognormal with mean m and cv c: with w = 1 + c^2, E[X^k] = m^k w^(k(k-1)/2),
 * so var = m^2 (w - 1) and mu4 = m^4 (w^6 - 4 w^3 + 6 w - 3). */
static void check_lognormal(double m, double c, bool check_var)
{
	struct rng_key k = rng_key(3, 0, RNG_TASK, (uint32_t)(c * 100), 0, 0);
	bool pos = true;
	for (uint64_t i = 0; i < N; i++) {
		xs[i] = rng_lognormal(k, i, m, c);
		pos &= xs[i] > 0;
	}
	CU_ASSERT_TRUE(pos);
	double w = 1 + c * c, var = m * m * (w - 1);
	double mu4 = m * m * m * m * (w * w * w * w * w * w - 4 * w * w * w + 6 * w - 3);
	double se_m = sqrt(var / N);
	CU_ASSERT(fabs(mean_of(xs, N) - m) <= SE_TOL * se_m);
	if (check_var) /* for large cv the variance estimate is too heavy-tailed */
		check_moments("lognormal", m, var, mu4);
	/* ln X is normal with mu = ln m - s2/2, s2 = ln w: pins the parameters. */
	double s2 = log(w), mu = log(m) - s2 / 2;
	for (size_t i = 0; i < N; i++)
		xs[i] = log(xs[i]);
	check_moments("ln lognormal", mu, s2, 3 * s2 * s2);
}

static void test_lognormal(void)
{
	check_lognormal(1000.0, 0.5, true);
	check_lognormal(7.0, 2.0, false);
	struct rng_key k = rng_key(3, 0, RNG_TASK, 0, 0, 0);
	CU_ASSERT_EQUAL(rng_lognormal(k, 0, 42.5, 0), 42.5);
	CU_ASSERT_EQUAL(rng_lognormal(k, 1, 42.5, 0), 42.5);
}

static void test_dist(void)
{
	struct rng_key k = rng_key(5, 1, RNG_USER, 1, 2, 3);
	struct scn_dist c = {SCN_DIST_CONST, 123.5, 0};
	struct scn_dist e = {SCN_DIST_EXPONENTIAL, 80, 0};
	struct scn_dist l = {SCN_DIST_LOGNORMAL, 80, 0.7};
	struct scn_dist l0 = {SCN_DIST_LOGNORMAL, 80, 0};
	struct scn_dist u = {SCN_DIST_UNIFORM, 10, 20};
	bool ok = true;
	for (uint64_t d = 0; d < 1000; d++) {
		ok &= rng_dist(&c, k, d) == 123.5;
		ok &= rng_dist(&e, k, d) == rng_exponential(k, d, 80);
		ok &= rng_dist(&l, k, d) == rng_lognormal(k, d, 80, 0.7);
		ok &= rng_dist(&l0, k, d) == 80;
		ok &= rng_dist(&u, k, d) == rng_uniform(k, d, 10, 20);
		ok &= rng_dist(&u, k, d) > 10 && rng_dist(&u, k, d) < 20;
	}
	CU_ASSERT_TRUE(ok);
	/* And the means come out (N/10 draws each; 5 standard errors). */
	const size_t n = N / 10;
	double se = 1 / sqrt((double)n);
	for (uint64_t d = 0; d < n; d++)
		xs[d] = rng_dist(&e, k, d);
	CU_ASSERT(fabs(mean_of(xs, n) - 80) < SE_TOL * 80 * se);
	for (uint64_t d = 0; d < n; d++)
		xs[d] = rng_dist(&l, k, d);
	CU_ASSERT(fabs(mean_of(xs, n) - 80) < SE_TOL * 80 * 0.7 * se);
	for (uint64_t d = 0; d < n; d++)
		xs[d] = rng_dist(&u, k, d);
	CU_ASSERT(fabs(mean_of(xs, n) - 15) < SE_TOL * (10 / sqrt(12)) * se);
}

int test_suite_rng(void)
{
	TEST_SUITE("rng",
		   {"same key and draw, same number", test_pure},
		   {"pinned values", test_pinned_values},
		   {"key in two steps", test_key_in_two_steps},
		   {"keys separate every coordinate", test_keys_separate},
		   {"u01 open interval, moments, chi-square", test_u01_range_and_buckets},
		   {"no correlation across draws, coordinates, kinds", test_no_correlation},
		   {"exponential moments", test_exponential},
		   {"uniform moments", test_uniform},
		   {"normal moments and tails", test_normal},
		   {"lognormal mean, cv, parameters", test_lognormal},
		   {"ziggurat: layers of equal area, normal and exponential laws", test_ziggurat},
		   {"rng_dist for each kind", test_dist});
	return 0;
}
