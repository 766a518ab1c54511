/* pol_bits.h - a set of integers in [0, n) that finds the next member
 * after any position in a few word operations (pol_ prefix).
 *
 * Level 0 is a bit per integer; each level above has a bit per word of
 * the level below, set while that word is nonzero; the last level is one
 * word.  Adding or removing a member changes a word, and the words above
 * only when one becomes zero or nonzero; the next member from i climbs
 * to the first level with a set bit after i's and descends taking the
 * lowest set bit of each word: 2 × levels count-trailing-zeros at most,
 * and levels = ceil(log64 n) (3 for a million).  The memory is n / 8
 * bytes and a little, where a linked list by id takes 8n.
 *
 * pol_tree's first-fit bit set and pol_jobset are made of one.
 */
#ifndef HETSIM_POL_BITS_H
#define HETSIM_POL_BITS_H

#include <stdbool.h>
#include <stdint.h>

#define POL_BITS_LEVELS 6  /* 64^6 bits: any int count */

struct pol_bits {
	uint64_t *w;       /* every level's words; level 0 first, at w[0] */
	int n;             /* integers [0, n) */
	int nlevels;       /* the last one is one word */
	int level[POL_BITS_LEVELS]; /* index in w of each level's first word */
};

/* An empty set of [0, n).  Free with pol_bits_free, which leaves w NULL. */
void pol_bits_init(struct pol_bits *b, int n);
void pol_bits_free(struct pol_bits *b);
/* The out-of-line halves of pol_bits_put and pol_bits_next: level-0
 * word k became zero or nonzero (on); the search from i past its word. */
void pol_bits_carry(struct pol_bits *b, int k, bool on);
int pol_bits_next_far(const struct pol_bits *b, int i);

#if defined(__GNUC__) || defined(__clang__)
#define POL_CTZ64(x) __builtin_ctzll(x)
#else
int pol_bits_ctz64(uint64_t x);
#define POL_CTZ64(x) pol_bits_ctz64(x)
#endif

/* Make i a member (on) or not.  Inline, as the common case is one word:
 * the levels above change only when that word becomes zero or not. */
static inline void pol_bits_put(struct pol_bits *b, int i, bool on)
{
	uint64_t *w = &b->w[i >> 6], old = *w, bit = UINT64_C(1) << (i & 63);
	*w = on ? old | bit : old & ~bit;
	if ((*w != 0) != (old != 0))
		pol_bits_carry(b, i >> 6, on);
}
static inline bool pol_bits_has(const struct pol_bits *b, int i)
{
	return b->w[i >> 6] >> (i & 63) & 1;
}
/* The least member >= i, or -1 (i may be anything >= 0).  Inline when it
 * is in i's own word. */
static inline int pol_bits_next(const struct pol_bits *b, int i)
{
	if (i < b->n) {
		uint64_t w = b->w[i >> 6] & (~UINT64_C(0) << (i & 63));
		if (w)
			return (i & ~63) + POL_CTZ64(w);
	}
	return pol_bits_next_far(b, i);
}
/* The least member, or -1. */
int pol_bits_first(const struct pol_bits *b);

#endif
