/* pyrandom.c - Python's MT19937 seeding and shuffle (pyrandom.h). */
#include "pyrandom.h"

#include <string.h>

enum { N = 624, M = 397 };

static void init_genrand(struct pyr *r, uint32_t s)
{
	r->mt[0] = s;
	for (int i = 1; i < N; i++)
		r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
	r->i = N;
}

void pyr_seed(struct pyr *r, uint64_t seed)
{
	uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
	int len = key[1] ? 2 : 1;
	init_genrand(r, 19650218u);
	int i = 1, j = 0;
	for (int k = N > len ? N : len; k; k--) {
		r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525u)) + key[j] +
			   (uint32_t)j;
		i++, j++;
		if (i >= N) {
			r->mt[0] = r->mt[N - 1];
			i = 1;
		}
		if (j >= len)
			j = 0;
	}
	for (int k = N - 1; k; k--) {
		r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941u)) -
			   (uint32_t)i;
		if (++i >= N) {
			r->mt[0] = r->mt[N - 1];
			i = 1;
		}
	}
	r->mt[0] = 0x80000000u; /* a non-zero initial state */
	r->i = N;
}

uint32_t pyr_u32(struct pyr *r)
{
	if (r->i >= N) {
		for (int k = 0; k < N; k++) {
			uint32_t y = (r->mt[k] & 0x80000000u) | (r->mt[(k + 1) % N] & 0x7fffffffu);
			r->mt[k] = r->mt[(k + M) % N] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0);
		}
		r->i = 0;
	}
	uint32_t y = r->mt[r->i++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680u;
	y ^= (y << 15) & 0xefc60000u;
	y ^= y >> 18;
	return y;
}

/* _randbelow(n), n >= 1, n < 2^32: getrandbits(bit length of n) until
 * below n. */
static uint32_t below(struct pyr *r, uint64_t n)
{
	int k = 0;
	while (k < 32 && (n >> k) > 1)
		k++;
	k++; /* n's bit length */
	uint32_t v;
	do
		v = pyr_u32(r) >> (32 - k);
	while (v >= n);
	return v;
}

void pyr_shuffle(struct pyr *r, void *items, size_t n, size_t size)
{
	unsigned char *a = items, tmp[256];
	if (size > sizeof tmp)
		return; /* the callers' records are small */
	for (size_t i = n > 0 ? n - 1 : 0; i >= 1; i--) {
		size_t j = below(r, (uint64_t)i + 1);
		if (j != i) {
			memcpy(tmp, a + i * size, size);
			memcpy(a + i * size, a + j * size, size);
			memcpy(a + j * size, tmp, size);
		}
	}
}
