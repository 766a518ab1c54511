/* util.h - small helpers shared by every module (no prefix: tiny and
 * ubiquitous, like git's xmalloc family).
 *
 * Allocation never returns NULL: out of memory prints the size asked for
 * and aborts (STYLE.md, "Errors a person can act on").
 */
#ifndef HETSIM_UTIL_H
#define HETSIM_UTIL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Records the event loop reads at random (the jobs, the nodes) are laid
 * on cache lines: the array starts on a line, so that a
 * record of 64 bytes is one line and not two (malloc aligns to 16 only:
 * a large block is mapped, and its first 16 bytes are malloc's), and a
 * prefetch of a record's first byte brings the record.  Freed by free(). */
#define CACHE_LINE 64
void *xmalloc_lines(size_t n);
void *xcalloc_lines(size_t count, size_t size);

/* FNV-1a over p[0 .. n), from h: FNV1A_BASIS to begin, a hash so far to
 * go on.  (Some tables of the importers and calibrate begin from
 * 1469598103934665603, a digit short of the basis: kept, so that their
 * orders do not change.) */
#define FNV1A_BASIS UINT64_C(14695981039346656037)
uint64_t fnv1a(uint64_t h, const void *p, size_t n);

/* fopen(path, "rb"), for a regular file only: a folder, named pipe,
 * socket or device is refused at once (a pipe is never waited on: it is
 * opened without blocking, then looked at).  NULL with *why saying what
 * went wrong ("No such file or directory", "Is a directory", "not a
 * regular file (a named pipe)"); errno as the failing call left it. */
FILE *fopen_regular(const char *path, const char **why);

/* Grow *arr (element size `size`) so that it holds at least `need`
 * elements; *cap is updated.  Amortised doubling.  Inline, as it is
 * mostly asked on every append and there is mostly room. */
void xgrow_to(void *arr, int *cap, int need, size_t size);
static inline void xgrow(void *arr, int *cap, int need, size_t size)
{
	if (need > *cap)
		xgrow_to(arr, cap, need, size);
}

/* The entry of `known` (n strings) closest to `word` by edit distance,
 * if it is close enough to be a likely typo (distance <= max(1, len/3)),
 * else NULL. */
const char *suggest(const char *word, const char *const *known, int n);

/* Format µs as seconds with 6 decimals ("12.500000"). buf >= 32 bytes. */
const char *fmt_us(int64_t us, char *buf);

/* Writers for CSV rows, faster than printf for millions of rows: each
 * writes its value at p and returns the end of what it wrote (no NUL).
 * The caller makes the room: at most 20 characters for wr_i64 and
 * wr_u64, 28 for wr_us, strlen(s) for wr_str.  wr_us writes what fmt_us
 * writes. */
char *wr_str(char *p, const char *s);
char *wr_i64(char *p, int64_t v);
char *wr_u64(char *p, uint64_t v);
char *wr_us(char *p, int64_t us);
/* x as printf's "%.*f" writes it, with 0-9 decimals, byte for byte (a
 * few hundred instructions less a value; printf itself for ties, huge
 * values, infinities and NaNs).  Room: WR_FIXED_MAX characters (DBL_MAX
 * has 309 digits). */
#define WR_FIXED_MAX 330
char *wr_fixed(char *p, double x, int decimals);

/* A key and what travels with it, for sort_kv. */
struct kv {
	int64_t key;           /* what the pairs are sorted by */
	uint64_t val;          /* carried along, never looked at */
};

/* Sort n pairs by key, ascending and stable (pairs with equal keys keep
 * their order), with tmp (room for n pairs) as scratch.  O(n): a radix
 * sort, for millions of jobs (gsl_sort and qsort took a tenth of a
 * 10^6-job run). */
void sort_kv(struct kv *a, struct kv *tmp, size_t n);
/* The same for keys alone. */
void sort_i64(int64_t *a, int64_t *tmp, size_t n);

/* Ask for the cache line holding p (a hint: it never faults, so p may
 * be stale), where the compiler can.  GCC counts a prefetch as no side
 * effect: a function that only reads and prefetches looks pure to it and
 * its calls are dropped, so such a function must be inlined by force
 * (loop.c, prefetch_next). */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* round(x), half away from zero, bit for bit, without the call into libm
 * that round() is on x86-64 (the engine rounds every task's end time).
 * Below 2^52 the cast truncates a magnitude exactly and a - t, in
 * [0, 1), is exact; at or above it every double is an integer. */
static inline double round_half_away(double x)
{
	double a = fabs(x);
	if (!(a < 0x1p52))
		return x; /* an integer, an infinity or a NaN: round returns it */
	double t = (double)(int64_t)a;
	t += a - t >= 0.5;
	return copysign(t, x);
}

#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define US_PER_S 1000000LL

#endif
