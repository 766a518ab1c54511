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
#include <stdio.h>
#include <stdlib.h>

#include "scenario.h"

#define GOLDEN UINT64_C(0x9e3779b97f4a7c15) /* 2^64 / golden ratio, odd */
#define TWO_PI 6.283185307179586476925286766559 /* M_PI is not C11 */

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

double rng_exponential(struct rng_key k, uint64_t draw, double mean)
{
	return -mean * log(rng_u01(k, draw));
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
	double u1 = rng_u01(kn, 2 * draw), u2 = rng_u01(kn, 2 * draw + 1);
	return sqrt(-2.0 * log(u1)) * cos(TWO_PI * u2);
}

double rng_lognormal(struct rng_key k, uint64_t draw, double mean, double cv)
{
	if (cv == 0)
		return mean;
	double s2 = log1p(cv * cv);
	double mu = log(mean) - s2 / 2;
	return exp(mu + sqrt(s2) * rng_normal(k, draw));
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
