/* util.c - allocation that cannot fail silently, typo suggestions, CSV
 * writers, a radix sort. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * UINT64_C(1099511628211);
	return h;
}

FILE *fopen_regular(const char *path, const char **why)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		*why = strerror(e);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		*why = S_ISDIR(st.st_mode)    ? strerror(EISDIR)
		       : S_ISFIFO(st.st_mode) ? "not a regular file (a named pipe)"
		       : S_ISSOCK(st.st_mode) ? "not a regular file (a socket)"
					      : "not a regular file (a device)";
		return NULL;
	}
	int fl = fcntl(fd, F_GETFL);
	FILE *f = fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ? NULL : fdopen(fd, "rb");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
		*why = strerror(e);
	}
	return f;
}

static void oom(size_t n)
{
	fprintf(stderr, "hetsim: out of memory allocating %zu bytes\n", n);
	abort();
}

/* Large arrays (a million jobs, the event heap) are mapped afresh by
 * malloc, and touching them page by page costs a fault per 4 KiB: a third
 * of a 10^6-job run in a virtual machine.  Asking for transparent huge
 * pages (2 MiB) before the first touch cuts that 512-fold where the kernel
 * allows it ("madvise" mode); elsewhere the call fails harmlessly. */
#define HUGE_MIN ((size_t)4 << 20)
static void *hint_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	if (n >= HUGE_MIN) {
		uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
		uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)4095;
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
	}
#else
	(void)n;
#endif
	return p;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return hint_huge(p, n);
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		oom(count * size);
	return hint_huge(p, count * size);
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return hint_huge(q, n);
}

void *xmalloc_lines(size_t n)
{
	size_t m = (n ? n + CACHE_LINE - 1 : CACHE_LINE) / CACHE_LINE * CACHE_LINE;
	void *p = aligned_alloc(CACHE_LINE, m);
	if (!p)
		oom(m);
	return hint_huge(p, m);
}

void *xcalloc_lines(size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		oom(SIZE_MAX);
	return memset(xmalloc_lines(count * size), 0, count * size);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

void xgrow_to(void *arr, int *cap, int need, size_t size)
{
	void **a = arr;
	if (need <= *cap)
		return;
	int c = *cap ? *cap : 8;
	while (c < need)
		c *= 2;
	*a = xrealloc(*a, (size_t)c * size);
	*cap = c;
}

/* Levenshtein distance, two rows; strings here are short keys. */
static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *prev = xmalloc((lb + 1) * sizeof *prev);
	int *cur = xmalloc((lb + 1) * sizeof *cur);
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int del = prev[j] + 1, ins = cur[j - 1] + 1;
			int m = sub < del ? sub : del;
			cur[j] = m < ins ? m : ins;
		}
		int *t = prev;
		prev = cur;
		cur = t;
	}
	int d = prev[lb];
	free(prev);
	free(cur);
	return d;
}

const char *suggest(const char *word, const char *const *known, int n)
{
	const char *best = NULL;
	int bestd = 1 << 30;
	for (int i = 0; i < n; i++) {
		int d = edit_distance(word, known[i]);
		if (d < bestd) {
			bestd = d;
			best = known[i];
		}
	}
	int len = (int)strlen(word), limit = len / 3 > 1 ? len / 3 : 1;
	return bestd <= limit ? best : NULL;
}

char *wr_str(char *p, const char *s)
{
	size_t n = strlen(s);
	memcpy(p, s, n);
	return p + n;
}

/* "00" "01" .. "99": the two digits of each number below 100, so that
 * digits are made two at a time (half the divisions) and each pair is
 * stored with one 2-byte copy. */
static const char pairs[] = "00010203040506070809101112131415161718192021222324"
			    "25262728293031323334353637383940414243444546474849"
			    "50515253545556575859606162636465666768697071727374"
			    "75767778798081828384858687888990919293949596979899";

/* The writers below split a number into parts of 8, 4 and 2 digits so
 * that all the arithmetic on digits is 32-bit (a 64-bit division, even
 * by a constant, costs more), and they find how many digits a number has
 * from its size, without a loop.  They are inline so that wr_i64 and
 * wr_us are each one function without calls (a tenth fewer
 * instructions). */

/* Two digits of v < 100, zero-padded. */
static inline char *wr2(char *p, uint32_t v)
{
	memcpy(p, &pairs[2 * v], 2);
	return p + 2;
}

/* Four digits of v < 10^4, zero-padded. */
static inline char *wr4(char *p, uint32_t v)
{
	return wr2(wr2(p, v / 100), v % 100);
}

/* Eight digits of v < 10^8, zero-padded. */
static inline char *wr8(char *p, uint32_t v)
{
	return wr4(wr4(p, v / 10000), v % 10000);
}

/* The digits of v < 10^4, without leading zeros. */
static inline char *wr_upto4(char *p, uint32_t v)
{
	if (v < 100) {
		if (v < 10) {
			*p = (char)('0' + v);
			return p + 1;
		}
		return wr2(p, v);
	}
	if (v < 1000) {
		*p = (char)('0' + v / 100);
		return wr2(p + 1, v % 100);
	}
	return wr4(p, v);
}

/* The digits of v < 10^8, without leading zeros. */
static inline char *wr_upto8(char *p, uint32_t v)
{
	if (v < 10000)
		return wr_upto4(p, v);
	return wr4(wr_upto4(p, v / 10000), v % 10000);
}

/* The digits of v, without leading zeros: up to 20, as parts of at most
 * 8. */
static inline char *u64_digits(char *p, uint64_t v)
{
	const uint32_t e8 = 100000000;
	if (v < e8)
		return wr_upto8(p, (uint32_t)v);
	uint64_t hi = v / e8;
	uint32_t lo = (uint32_t)(v - hi * e8);
	if (hi < e8) {
		p = wr_upto8(p, (uint32_t)hi);
	} else {
		uint64_t top = hi / e8; /* at most 1844 */
		p = wr8(wr_upto4(p, (uint32_t)top), (uint32_t)(hi - top * e8));
	}
	return wr8(p, lo);
}

/* |v| as uint64 without overflow at INT64_MIN. */
static uint64_t magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
}

char *wr_u64(char *p, uint64_t v)
{
	return u64_digits(p, v);
}

char *wr_i64(char *p, int64_t v)
{
	if (v < 0)
		*p++ = '-';
	return u64_digits(p, magnitude(v));
}

char *wr_us(char *p, int64_t us)
{
	uint64_t a = magnitude(us), s = a / 1000000u;
	uint32_t frac = (uint32_t)(a - s * 1000000u);
	if (us < 0)
		*p++ = '-';
	p = u64_digits(p, s);
	*p++ = '.';
	return wr4(wr2(p, frac / 10000), frac % 10000);
}

const char *fmt_us(int64_t us, char *buf)
{
	*wr_us(buf, us) = '\0';
	return buf;
}

/* y = |x| 10^d is rounded once, so the exact |x| 10^d lies within
 * y 2^-53 of it.  Unless y's fraction is closer than twice that to 1/2,
 * the exact value is on the same side of the half as y, and rounding y
 * to the nearest integer is what printf does with the exact value (near
 * an integer both round to it).  Otherwise (a tie, or nearly one: printf
 * breaks exact ties to even), a value past 2^50, an infinity or a NaN:
 * snprintf. */
char *wr_fixed(char *p, double x, int decimals)
{
	static const double scale[10] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
	static const uint32_t uscale[10] = {1, 10, 100, 1000, 10000, 100000, 1000000,
					    10000000, 100000000, 1000000000};
	double y = fabs(x) * scale[decimals];
	uint64_t n = 0;
	double f = 0;
	if (y < 0x1p50) { /* false for an infinity or a NaN */
		n = (uint64_t)y;
		f = y - (double)n; /* exact */
	}
	if (!(y < 0x1p50) || fabs(f - 0.5) <= y * 0x1p-52) {
		char b[WR_FIXED_MAX + 1];
		int len = snprintf(b, sizeof b, "%.*f", decimals, x);
		memcpy(p, b, (size_t)len);
		return p + len;
	}
	n += f > 0.5;
	if (signbit(x))
		*p++ = '-'; /* as printf: "-0.000000" for -1e-9 and -0.0 */
	uint64_t ip = n / uscale[decimals];
	uint32_t fp = (uint32_t)(n - ip * uscale[decimals]);
	p = u64_digits(p, ip);
	if (decimals == 0)
		return p;
	*p++ = '.';
	for (int k = decimals - 1; k >= 0; k--) {
		p[k] = (char)('0' + fp % 10);
		fp /= 10;
	}
	return p + decimals;
}

/* Below this many elements an insertion sort beats the radix sort's
 * fixed cost (clearing and summing 6 x 2048 counts): a one-job run sorts
 * one JCT, a DAG replication one arrival. */
enum { SMALL_SORT = 64 };

/* Stable insertion sort of n elements of `size` bytes (at most 16) by
 * their leading int64_t key. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void insertion_sort(void *a, size_t n, size_t size)
{
	char *b = a;
	for (size_t i = 1; i < n; i++) {
		unsigned char e[16];
		int64_t key, k;
		memcpy(e, b + i * size, size);
		memcpy(&key, e, sizeof key);
		size_t j = i;
		for (; j > 0; j--) {
			memcpy(&k, b + (j - 1) * size, sizeof k);
			if (k <= key)
				break;
			memcpy(b + j * size, b + (j - 1) * size, size);
		}
		memcpy(b + j * size, e, size);
	}
}

/* LSD radix sort: one counting pass over all digits, then one stable
 * scatter per 11-bit digit from the least significant, skipping a digit
 * every key shares (µs counts of up to hours need three of the six).
 * The sign bit is flipped so that negative keys come first.  11 bits
 * keep a pass's counts (16 KiB) in the L1 cache.  Elements are `size`
 * bytes, their first 8 the int64_t key; forced inline into the two
 * wrappers below, the copies are of a constant size. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void radix_sort(void *a, void *tmp, size_t n, size_t size)
{
	enum { BITS = 11, DIGITS = 1 << BITS, PASSES = (64 + BITS - 1) / BITS };
	const uint64_t flip = UINT64_C(1) << 63;
	if (n <= SMALL_SORT) {
		insertion_sort(a, n, size);
		return;
	}
	size_t (*count)[DIGITS] = xcalloc(PASSES, sizeof *count);
	for (size_t i = 0; i < n; i++) {
		int64_t key;
		memcpy(&key, (char *)a + i * size, sizeof key);
		uint64_t k = (uint64_t)key ^ flip;
		for (int p = 0; p < PASSES; p++)
			count[p][(k >> (p * BITS)) & (DIGITS - 1)]++;
	}
	char *from = a, *to = tmp;
	for (int p = 0; p < PASSES && n; p++) {
		int shift = p * BITS;
		size_t *c = count[p];
		int64_t key;
		memcpy(&key, from, sizeof key);
		if (c[(((uint64_t)key ^ flip) >> shift) & (DIGITS - 1)] == n)
			continue; /* one digit everywhere: nothing moves */
		size_t sum = 0;
		for (int d = 0; d < DIGITS; d++) { /* counts become start positions */
			size_t k = c[d];
			c[d] = sum;
			sum += k;
		}
		for (size_t i = 0; i < n; i++) {
			memcpy(&key, from + i * size, sizeof key);
			size_t at = c[(((uint64_t)key ^ flip) >> shift) & (DIGITS - 1)]++;
			memcpy(to + at * size, from + i * size, size);
		}
		char *t = from;
		from = to;
		to = t;
	}
	if (from != (char *)a)
		memcpy(a, from, n * size);
	free(count);
}

void sort_kv(struct kv *a, struct kv *tmp, size_t n)
{
	radix_sort(a, tmp, n, sizeof *a);
}

void sort_i64(int64_t *a, int64_t *tmp, size_t n)
{
	radix_sort(a, tmp, n, sizeof *a);
}
