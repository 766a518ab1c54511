/* rng.h - keyed (counter-based) random numbers (rng_ prefix).
 *
 * Every random draw in hetsim is a pure function of a key and a draw
 * index, never of the order of drawing: there is no generator state.  A
 * key names what the number is for: the scenario seed, the replication,
 * the stream purpose and up to three integer coordinates (say job, stage,
 * task).  So the size of job 7 is the same whichever policy runs, however
 * many other draws came before it, and results never depend on the order
 * in which the engine happens to ask.
 *
 * Draw indices: for one key, rng_u64, rng_u01, rng_exponential and
 * rng_uniform with draw d all use the same raw number, so one key should
 * serve one purpose (use the coordinates and the draw index to tell
 * numbers apart, e.g. draw = attempt number).  rng_normal and
 * rng_lognormal with draw d are one logical slot too, but they use two
 * raw numbers from a separate sub-stream of the key (see rng_normal), so
 * they never repeat a uniform of the same key.
 *
 * Everything here is pure and thread-safe.
 */
#ifndef HETSIM_RNG_H
#define HETSIM_RNG_H

#include <stdbool.h>
#include <stdint.h>

struct rng_key { uint64_t a, b; };   /* opaque-ish 128-bit key */

enum rng_stream {
	RNG_ARRIVAL = 1, /* job arrival times */
	RNG_SIZE,        /* job sizes / amounts */
	RNG_TASK,        /* task durations */
	RNG_NOISE,       /* run-time noise on durations */
	RNG_STEP,        /* per-step draws (e.g. training iterations) */
	RNG_FAIL,        /* node failures: up-times and repair times */
	RNG_STRAGGLE,    /* stragglers: which task attempts are slow */
	RNG_USER,        /* first value free for other uses */
};

/* The key of (seed, replication, stream, x, y, z).  Tuples that differ
 * in exactly one of these always get different keys; any other two
 * collide with probability about 2^-128.  Unused coordinates should be
 * 0.  Cheap (six 64-bit mixes): make keys where needed, no need to
 * cache them. */
struct rng_key rng_key(uint64_t seed, uint32_t replication, enum rng_stream stream,
                       uint32_t x, uint32_t y, uint32_t z);

/* The same keys in two steps, for many keys that share (seed,
 * replication, stream, x): rng_key_of(rng_key_base(seed, replication,
 * stream, x), y, z) == rng_key(seed, replication, stream, x, y, z), at a
 * third of the cost per key (two mixes instead of six). */
struct rng_base { uint64_t a, b; };  /* the first two words absorbed */
struct rng_base rng_key_base(uint64_t seed, uint32_t replication, enum rng_stream stream,
                             uint32_t x);
struct rng_key rng_key_of(struct rng_base base, uint32_t y, uint32_t z);

/* The draw-th raw 64-bit number of the key.  For one key, distinct draws
 * give distinct numbers (the map draw -> number is a bijection). */
uint64_t rng_u64(struct rng_key k, uint64_t draw);

/* out[i] = rng_u64(k, first + i) for i = 0 .. n - 1: the same numbers
 * without a call each, the draws independent of one another so the CPU
 * overlaps them (about a third of the time of n calls: a reservoir
 * walked back over thousands of draws, policies/pods.c). */
void rng_u64_run(struct rng_key k, uint64_t first, uint64_t *out, int n);
/* Where the CPU has AVX2 (asked at run time) rng_u64_run makes eight
 * numbers at a time in vector lanes, the same numbers; true makes it
 * take the one-at-a-time loop everywhere (tests compare the two). */
extern bool rng_scalar_runs;

/* Uniform in the open interval (0,1): (j + 1/2) / 2^52 for a uniform
 * integer j in [0, 2^52), so never 0 or 1, and symmetric about 1/2. */
double rng_u01(struct rng_key k, uint64_t draw);

/* Exponential with the given mean (> 0), by the ziggurat (rng.c): one
 * raw number, the key's draw-th, 97.8 % of the time, more from keys
 * derived from (k, j) otherwise.  Always > 0. */
double rng_exponential(struct rng_key k, uint64_t draw, double mean);

/* Lognormal whose result has the given mean (> 0) and coefficient of
 * variation cv (>= 0): exp(mu + sigma Z) with sigma^2 = ln(1 + cv^2),
 * mu = ln(mean) - sigma^2/2, Z = rng_normal(k, draw).  cv == 0 -> mean. */
double rng_lognormal(struct rng_key k, uint64_t draw, double mean, double cv);

/* Uniform in (lo, hi) (lo <= hi; rounding may reach an end point when
 * the interval is tiny).  lo == hi -> lo. */
double rng_uniform(struct rng_key k, uint64_t draw, double lo, double hi);

/* Standard normal, by the ziggurat (rng.c) on raw draw `draw` of a
 * sub-stream of k reserved for normals (97.2 % of the time; more numbers
 * of keys derived from it otherwise).  A draw index is one logical slot. */
double rng_normal(struct rng_key k, uint64_t draw);

/* exp(mu + sigma Z), Z = rng_normal(k, draw): rng_lognormal's value for
 * mu and sigma computed once (rng_lognormal_par) rather than per draw. */
struct rng_lognormal_par { double mu, sigma; };
struct rng_lognormal_par rng_lognormal_par(double mean, double cv);
double rng_lognormal_at(struct rng_key k, uint64_t draw, struct rng_lognormal_par p);

/* The ziggurat's layer edges x[0..N] (N = 128 normal, 256 exponential),
 * for the tests: each layer's area must be the same. */
double rng_zig_x(bool normal, int i);

struct scn_dist; /* workloads/scenario.h */

/* A draw from a scenario distribution: CONST a; EXPONENTIAL mean a;
 * LOGNORMAL mean a, cv b; UNIFORM on (a, b).  The distribution is
 * trusted to be valid (scn_load checks it); an unknown kind aborts. */
double rng_dist(const struct scn_dist *d, struct rng_key k, uint64_t draw);

/* The seed of replication r derived from the scenario seed: a bijective
 * mix of seed for each r, and of r for each seed.  rng_key keys every
 * number of replication r through this value alone, and nothing else of
 * other replications enters it, so `--replication K` on its own
 * reproduces replication K of a full run bit for bit. */
uint64_t rng_replication_seed(uint64_t seed, uint32_t replication);

#endif
