/* util.h - small helpers shared by every module (no prefix: tiny and
 * ubiquitous, like git's xmalloc family).
 *
 * Allocation never returns NULL: out of memory prints the size asked for
 * and aborts (STYLE.md, "Errors a person can act on").
 */
#ifndef HETSIM_UTIL_H
#define HETSIM_UTIL_H

#include <stddef.h>
#include <stdint.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Grow *arr (element size `size`) so that it holds at least `need`
 * elements; *cap is updated.  Amortised doubling. */
void xgrow(void *arr, int *cap, int need, size_t size);

/* The entry of `known` (n strings) closest to `word` by edit distance,
 * if it is close enough to be a likely typo (distance <= max(1, len/3)),
 * else NULL. */
const char *suggest(const char *word, const char *const *known, int n);

/* Format µs as seconds with 6 decimals ("12.500000"). buf >= 32 bytes. */
const char *fmt_us(int64_t us, char *buf);

#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define US_PER_S 1000000LL

#endif
