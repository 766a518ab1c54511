/* pol_bits.c - a hierarchical bit set (pol_bits.h). */
#include "pol_bits.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#if !defined(__GNUC__) && !defined(__clang__)
int pol_bits_ctz64(uint64_t x) /* x != 0 */
{
	int n = 0;
	for (; !(x & 1); x >>= 1)
		n++;
	return n;
}
#endif
#define CTZ64(x) POL_CTZ64(x)

void pol_bits_init(struct pol_bits *b, int n)
{
	b->n = n;
	int words = (n + 63) / 64, total = 0;
	b->nlevels = 0;
	do {
		words = words ? words : 1;
		b->level[b->nlevels++] = total;
		total += words;
		words = words > 1 ? (words + 63) / 64 : 0;
	} while (words);
	b->w = xcalloc((size_t)total, sizeof *b->w);
}

void pol_bits_free(struct pol_bits *b)
{
	free(b->w);
	memset(b, 0, sizeof *b);
}

void pol_bits_carry(struct pol_bits *b, int k, bool on)
{
	/* word k of level 0 became nonzero (on) or zero: so does its bit,
	 * bit k of level 1, and so on up while words change between zero
	 * and nonzero */
	for (int l = 1; l < b->nlevels; l++, k >>= 6) {
		uint64_t *w = &b->w[b->level[l] + (k >> 6)], bit = UINT64_C(1) << (k & 63);
		bool was = *w != 0;
		*w = on ? *w | bit : *w & ~bit;
		if ((*w != 0) == was)
			break; /* the word's bit one level up stays right */
	}
}

/* Words of level l. */
static int level_words(const struct pol_bits *b, int l)
{
	return l + 1 < b->nlevels ? b->level[l + 1] - b->level[l] : 1;
}

int pol_bits_next_far(const struct pol_bits *b, int i)
{
	if (i >= b->n)
		return -1;
	/* up: the first level whose word holding position i has a set bit at
	 * or after it (the positions before it are all empty words below) */
	int l = 0;
	for (;;) {
		uint64_t w = b->w[b->level[l] + (i >> 6)] & (~UINT64_C(0) << (i & 63));
		if (w) {
			i = (i & ~63) + CTZ64(w);
			break;
		}
		i = (i >> 6) + 1; /* the next word, as a position one level up */
		if (++l == b->nlevels || i >> 6 >= level_words(b, l))
			return -1;
	}
	/* down: the first set bit of each nonzero word below */
	while (l-- > 0)
		i = i * 64 + CTZ64(b->w[b->level[l] + i]);
	return i;
}

int pol_bits_first(const struct pol_bits *b)
{
	/* down from the top word, which is zero when the set is empty */
	int l = b->nlevels - 1, i = 0;
	if (!b->w[b->level[l]])
		return -1;
	for (; l >= 0; l--)
		i = i * 64 + CTZ64(b->w[b->level[l] + i]);
	return i;
}
