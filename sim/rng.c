/* rng.c - keyed (counter-based) random numbers.
 *
 * Design.  A number is a hash of (key, draw index); there is no state.
 * The building blocks are two well-studied 64-bit finalisers, splitmix64's
 * (Stafford's "variant 13") and MurmurHash3's fmix64.  Each is a
 * bijection of 64-bit words (xor-shift-right and multiplication by an odd
 * constant are both invertible) with full avalanche: flipping any input
 * bit flips each output bit with probability close to 1/2.
 *
 *   rng_u64(k, d) = fmix64(split13(k.a + d * GOLDEN) ^ k.b)
 *
 * The inner part is exactly splitmix64's d-th output for the seed k.a
 * (a Weyl sequence through split13), a generator that passes BigCrush.
 * For a fixed key every step is a bijection of d, so distinct draws of
 * one key never repeat a number.  The outer round, keyed by the other
 * 64 bits, separates keys: two keys whose Weyl sequences overlap
 * (k'.a = k.a + t * GOLDEN) would otherwise give the same numbers
 * shifted by t, and with a different k.b they give unrelated ones.
 *
 * Keys come from absorbing three words, (replication seed),
 * (stream, x), (y, z), into two chains with different starting values:
 *
 *   h = fmix64(h ^ split13(w + C))   per word, for each chain
 *
 * For a fixed h this is a bijection of w, and for a fixed w a bijection
 * of h, so tuples that differ in one word only always get different
 * keys; others collide in both 64-bit halves with probability ~2^-128.
 *
 * Why this is sound enough for simulation: outputs are bijective mixes
 * of distinct inputs through at least two full-avalanche rounds, so
 * there is no short period, no correlation between neighbouring draws
 * or neighbouring coordinates that a simulation could notice, and the
 * tests check moments, bucket uniformity and lag correlations.  It is
 * not cryptographic, and need not be.
 */
#include "rng.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "scenario.h"

#define GOLDEN UINT64_C(0x9e3779b97f4a7c15) /* 2^64 / golden ratio, odd */

/* splitmix64's finaliser (Stafford variant 13).  A bijection. */
static inline uint64_t split13(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* MurmurHash3's fmix64.  A bijection. */
static inline uint64_t fmix64(uint64_t z)
{
	z = (z ^ (z >> 33)) * UINT64_C(0xff51afd7ed558ccd);
	z = (z ^ (z >> 33)) * UINT64_C(0xc4ceb9fe1a85ec53);
	return z ^ (z >> 33);
}

/* One word into a hash chain: bijective in h for fixed w, and in w for
 * fixed h. */
static inline uint64_t absorb(uint64_t h, uint64_t w, uint64_t c)
{
	return fmix64(h ^ split13(w + c));
}

uint64_t rng_replication_seed(uint64_t seed, uint32_t replication)
{
	return fmix64(seed ^ split13((uint64_t)replication + GOLDEN));
}

/* Two chains with unrelated starting values and constants (digits of pi
 * and e), so the halves of the key are unrelated hashes. */
#define CHAIN_A UINT64_C(0x13198a2e03707344)
#define CHAIN_B UINT64_C(0xbf7158809cf4f3c7)

struct rng_base rng_key_base(uint64_t seed, uint32_t replication, enum rng_stream stream,
                             uint32_t x)
{
	uint64_t w[2] = {
		rng_replication_seed(seed, replication),
		(uint64_t)(uint32_t)stream << 32 | x,
	};
	uint64_t a = UINT64_C(0x243f6a8885a308d3), b = UINT64_C(0xb7e151628aed2a6a);
	for (int i = 0; i < 2; i++) {
		a = absorb(a, w[i], CHAIN_A);
		b = absorb(b, w[i], CHAIN_B);
	}
	return (struct rng_base){a, b};
}

struct rng_key rng_key_of(struct rng_base base, uint32_t y, uint32_t z)
{
	uint64_t w = (uint64_t)y << 32 | z;
	return (struct rng_key){absorb(base.a, w, CHAIN_A), absorb(base.b, w, CHAIN_B)};
}

struct rng_key rng_key(uint64_t seed, uint32_t replication, enum rng_stream stream,
                       uint32_t x, uint32_t y, uint32_t z)
{
	return rng_key_of(rng_key_base(seed, replication, stream, x), y, z);
}

uint64_t rng_u64(struct rng_key k, uint64_t draw)
{
	return fmix64(split13(k.a + draw * GOLDEN) ^ k.b);
}

bool rng_scalar_runs;

/* The run one number at a time. */
static void run_scalar(struct rng_key k, uint64_t first, uint64_t *out, int n)
{
	uint64_t w = k.a + first * GOLDEN; /* the Weyl sequence, by additions */
	for (int i = 0; i < n; i++, w += GOLDEN)
		out[i] = fmix64(split13(w) ^ k.b);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define RUN_AVX2 1
#include <immintrin.h>

/* x c mod 2^64 in each 64-bit lane: AVX2 multiplies 32 x 32 -> 64 bits
 * only, so lo(x) lo(c) + (hi(x) lo(c) + lo(x) hi(c)) 2^32, the product
 * hi hi 2^64 and the carries past bit 63 being lost as in C's uint64_t. */
__attribute__((target("avx2"))) static inline __m256i mul64(__m256i x, __m256i clo, __m256i chi)
{
	__m256i lo = _mm256_mul_epu32(x, clo);
	__m256i mid = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(x, 32), clo),
				       _mm256_mul_epu32(x, chi));
	return _mm256_add_epi64(lo, _mm256_slli_epi64(mid, 32));
}

/* z ^ (z >> s) in each lane. */
#define XSHIFT(z, s) _mm256_xor_si256((z), _mm256_srli_epi64((z), (s)))

/* The constants of split13 and fmix64, halves in lanes. */
struct mul_consts { __m256i lo[4], hi[4]; };

__attribute__((target("avx2"))) static inline __m256i mix4(__m256i z, __m256i b,
							   const struct mul_consts *m)
{
	z = mul64(XSHIFT(z, 30), m->lo[0], m->hi[0]); /* split13 */
	z = mul64(XSHIFT(z, 27), m->lo[1], m->hi[1]);
	z = _mm256_xor_si256(XSHIFT(z, 31), b);
	z = mul64(XSHIFT(z, 33), m->lo[2], m->hi[2]); /* fmix64 */
	z = mul64(XSHIFT(z, 33), m->lo[3], m->hi[3]);
	return XSHIFT(z, 33);
}

/* The run eight numbers at a time, in two vectors of four lanes (two
 * chains in flight), the rest one by one: rng_u64's numbers bit for bit,
 * integer arithmetic mod 2^64 being the same in lanes.  About 1.6 times
 * the scalar loop's speed on an AMD EPYC VM (AVX2 has no 64-bit
 * multiply; the scalar loop is bound by its four multiplies a number). */
__attribute__((target("avx2"))) static void run_avx2(struct rng_key k, uint64_t first,
						     uint64_t *out, int n)
{
	static const uint64_t c[4] = {UINT64_C(0xbf58476d1ce4e5b9), UINT64_C(0x94d049bb133111eb),
				      UINT64_C(0xff51afd7ed558ccd), UINT64_C(0xc4ceb9fe1a85ec53)};
	struct mul_consts m;
	for (int i = 0; i < 4; i++) {
		m.lo[i] = _mm256_set1_epi64x((long long)(c[i] & 0xffffffffu));
		m.hi[i] = _mm256_set1_epi64x((long long)(c[i] >> 32));
	}
	uint64_t w = k.a + first * GOLDEN;
	__m256i x = _mm256_set_epi64x((long long)(w + 3 * GOLDEN), (long long)(w + 2 * GOLDEN),
				      (long long)(w + GOLDEN), (long long)w);
	__m256i four = _mm256_set1_epi64x((long long)(4 * GOLDEN));
	__m256i eight = _mm256_set1_epi64x((long long)(8 * GOLDEN));
	__m256i b = _mm256_set1_epi64x((long long)k.b);
	int i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256i y = _mm256_add_epi64(x, four);
		_mm256_storeu_si256((__m256i *)(void *)(out + i), mix4(x, b, &m));
		_mm256_storeu_si256((__m256i *)(void *)(out + i + 4), mix4(y, b, &m));
		x = _mm256_add_epi64(x, eight);
	}
	run_scalar(k, first + (uint64_t)i, out + i, n - i);
}
#endif

void rng_u64_run(struct rng_key k, uint64_t first, uint64_t *out, int n)
{
#ifdef RUN_AVX2
	if (n >= 8 && !rng_scalar_runs && __builtin_cpu_supports("avx2")) { /* a load, libgcc's */
		run_avx2(k, first, out, n);
		return;
	}
#endif
	run_scalar(k, first, out, n);
}

double rng_u01(struct rng_key k, uint64_t draw)
{
	/* 52 bits so that j + 0.5 is exact and the largest value,
	 * 1 - 2^-53, is a double below 1 (with 53 bits it would round to 1). */
	return ((double)(rng_u64(k, draw) >> 12) + 0.5) * 0x1p-52;
}

/* ---- the ziggurat ----------------------------------------------------
 *
 * Normal and exponential draws by Marsaglia and Tsang's ziggurat ("The
 * Ziggurat Method for Generating Random Variables", J. Stat. Softw. 5(8),
 * 2000): the area under the density's decreasing half f (f(x) =
 * exp(-x^2/2), exp(-x), unnormalised) is cut into N layers of equal area
 * v: a base strip (the rectangle [0, r] x [0, f(r)] and the tail beyond r)
 * and N - 1 rectangles stacked above it, layer i of width x[i] from
 * height f(x[i]) to f(x[i+1]), x[1] = r > x[2] > ... > x[N] = 0.  A draw
 * picks a layer i and a point x uniform in [0, x[i]) (x[0] = v / f(r), the
 * base strip's width were it a rectangle of area v).  Where x < x[i+1] the
 * point lies under f whatever its height: accepted, with one raw number,
 * 97.2 % (normal) and 97.8 % (exponential) of the time.  Else, in layer
 * 0, the tail; in the others a uniform height in the layer decides
 * (y < f(x): accepted; else a new try).  The tail beyond r: for the
 * exponential r plus a new exponential (it has no memory); for the normal
 * Marsaglia's method (a = -ln U1 / r, b = -ln U2 until 2b > a^2: r + a).
 * Exact: each accepted x has f's density, as with the inversion and
 * Box-Muller methods this replaced (docs/model.md, "Changes").
 *
 * Bits of one raw number: the layer from its low bits (7 for the normal's
 * 128 layers, 8 for the exponential's 256), the normal's sign from bit
 * 7, the uniform from the top 53 bits, so no bit serves twice (Doornik's
 * remark on the original, which took the layer from the uniform's own
 * bits: "An Improved Ziggurat Method to Generate Normal Random Samples",
 * 2005).  r and v for each N are the paper's (section 2). */
#define ZIG_NN 128
#define ZIG_NE 256
#define ZIG_RN 3.442619855899
#define ZIG_VN 9.91256303526217e-3
#define ZIG_RE 7.697117470131487
#define ZIG_VE 3.949659822581572e-3

struct zig { double x[ZIG_NE + 1], f[ZIG_NE + 1]; };
static struct zig zig_n, zig_e;
static pthread_once_t zig_once = PTHREAD_ONCE_INIT;

static double f_normal(double x) { return exp(-0.5 * x * x); }
static double finv_normal(double y) { return sqrt(-2.0 * log(y)); }
static double f_expo(double x) { return exp(-x); }
static double finv_expo(double y) { return -log(y); }

/* x[i+1] from layer i's area: x[i] (f(x[i+1]) - f(x[i])) = v. */
static void zig_build(struct zig *z, int n, double r, double v, double (*f)(double),
		      double (*finv)(double))
{
	z->x[0] = v / f(r);
	z->x[1] = r;
	for (int i = 1; i < n - 1; i++)
		z->x[i + 1] = finv(v / z->x[i] + f(z->x[i]));
	z->x[n] = 0;
	for (int i = 0; i <= n; i++)
		z->f[i] = f(z->x[i]);
}

static void zig_build_all(void)
{
	zig_build(&zig_n, ZIG_NN, ZIG_RN, ZIG_VN, f_normal, finv_normal);
	zig_build(&zig_e, ZIG_NE, ZIG_RE, ZIG_VE, f_expo, finv_expo);
}

/* The j-th raw number of slot `draw`: the key's own number for j = 0 (the
 * one a uniform of that slot would take), then numbers of keys derived
 * from (k, j), rarely asked for (wedges, tails). */
static inline uint64_t zig_raw(struct rng_key k, uint64_t draw, uint32_t j)
{
	if (j)
		k = (struct rng_key){absorb(k.a, j, CHAIN_A), absorb(k.b, j, CHAIN_B)};
	return rng_u64(k, draw);
}

/* Uniform in (0, 1) from a 53-bit integer. */
static inline double u53(uint64_t m)
{
	return ((double)m + 0.5) * 0x1p-53;
}

/* The uniform of slot draw's j-th raw number (its top 53 bits). */
static inline double zig_u(struct rng_key k, uint64_t draw, uint32_t j)
{
	return u53(zig_raw(k, draw, j) >> 11);
}

double rng_zig_x(bool normal, int i)
{
	pthread_once(&zig_once, zig_build_all);
	return (normal ? &zig_n : &zig_e)->x[i];
}

double rng_exponential(struct rng_key k, uint64_t draw, double mean)
{
	pthread_once(&zig_once, zig_build_all);
	const struct zig *z = &zig_e;
	double off = 0; /* r for each tail passed */
	for (uint32_t j = 0;; j++) {
		uint64_t u = zig_raw(k, draw, j);
		int i = (int)(u & (ZIG_NE - 1));
		double x = u53(u >> 11) * z->x[i];
		if (x < z->x[i + 1])
			return mean * (off + x);
		if (i == 0) {
			off += ZIG_RE;
			continue;
		}
		double y = z->f[i] + zig_u(k, draw, ++j) * (z->f[i + 1] - z->f[i]);
		if (y < f_expo(x))
			return mean * (off + x);
	}
}

double rng_uniform(struct rng_key k, uint64_t draw, double lo, double hi)
{
	return lo + (hi - lo) * rng_u01(k, draw);
}

double rng_normal(struct rng_key k, uint64_t draw)
{
	/* The normals' sub-stream: k with b tweaked, so its raw numbers are
	 * unrelated to the uniforms of k. */
	struct rng_key kn = {k.a, k.b ^ UINT64_C(0x452821e638d01377)};
	pthread_once(&zig_once, zig_build_all);
	const struct zig *z = &zig_n;
	for (uint32_t j = 0;; j++) {
		uint64_t u = zig_raw(kn, draw, j);
		int i = (int)(u & (ZIG_NN - 1));
		double sign = u >> 7 & 1 ? -1.0 : 1.0;
		double x = u53(u >> 11) * z->x[i];
		if (x < z->x[i + 1])
			return sign * x;
		if (i == 0) { /* the tail beyond r */
			double a, b;
			do {
				a = -log(zig_u(kn, draw, ++j)) / ZIG_RN;
				b = -log(zig_u(kn, draw, ++j));
			} while (b + b < a * a);
			return sign * (ZIG_RN + a);
		}
		double y = z->f[i] + zig_u(kn, draw, ++j) * (z->f[i + 1] - z->f[i]);
		if (y < f_normal(x))
			return sign * x;
	}
}

struct rng_lognormal_par rng_lognormal_par(double mean, double cv)
{
	double s2 = log1p(cv * cv);
	return (struct rng_lognormal_par){log(mean) - s2 / 2, sqrt(s2)};
}

double rng_lognormal_at(struct rng_key k, uint64_t draw, struct rng_lognormal_par p)
{
	return exp(p.mu + p.sigma * rng_normal(k, draw));
}

double rng_lognormal(struct rng_key k, uint64_t draw, double mean, double cv)
{
	if (cv == 0)
		return mean;
	return rng_lognormal_at(k, draw, rng_lognormal_par(mean, cv));
}

double rng_dist(const struct scn_dist *d, struct rng_key k, uint64_t draw)
{
	switch (d->kind) {
	case SCN_DIST_CONST:
		return d->a;
	case SCN_DIST_EXPONENTIAL:
		return rng_exponential(k, draw, d->a);
	case SCN_DIST_LOGNORMAL:
		return rng_lognormal(k, draw, d->a, d->b);
	case SCN_DIST_UNIFORM:
		return rng_uniform(k, draw, d->a, d->b);
	}
	fprintf(stderr, "hetsim: rng_dist: unknown distribution kind %d\n", (int)d->kind);
	abort();
}
