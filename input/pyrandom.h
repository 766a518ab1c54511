/* pyrandom.h - Python's `random` module as far as a published
 * simulator's job sample needs it (pyr_ prefix): the Mersenne Twister
 * MT19937 (Matsumoto & Nishimura, 1998) seeded as `random.seed(n)` seeds
 * it for an integer n, and `random.shuffle`.
 *
 * The Alibaba PAI simulator (alibaba/clusterdata,
 * cluster-trace-gpu-v2020/simulator/simulator.py, Simulator.init_go)
 * draws its jobs with `random.seed(42)` then `random.shuffle(job_list)`
 * and keeps the first N: with these, hetsim keeps the same N.  The
 * rules, as CPython 3 documents and implements them
 * (Modules/_randommodule.c, Lib/random.py):
 *   - seed(n), n an int: init_by_array over |n|'s 32-bit words, least
 *     significant first (one word 0 for n = 0);
 *   - getrandbits(k), 0 < k <= 32: the next 32-bit output >> (32 - k);
 *   - _randbelow(n): k = n's bit length; r = getrandbits(k) until r < n;
 *   - shuffle(x): for i from len - 1 down to 1, swap x[i] and
 *     x[_randbelow(i + 1)].
 * tests/test_trace.c checks outputs of CPython 3.11.
 */
#ifndef HETSIM_PYRANDOM_H
#define HETSIM_PYRANDOM_H

#include <stddef.h>
#include <stdint.h>

struct pyr {
	uint32_t mt[624];
	int i;
};

/* random.seed(seed) for a non-negative integer seed. */
void pyr_seed(struct pyr *r, uint64_t seed);

/* The next 32-bit output (getrandbits(32)). */
uint32_t pyr_u32(struct pyr *r);

/* random.shuffle of n items of `size` bytes each, in place. */
void pyr_shuffle(struct pyr *r, void *items, size_t n, size_t size);

#endif
