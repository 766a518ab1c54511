/* util.c - allocation that cannot fail silently, typo suggestions. */
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t n)
{
	fprintf(stderr, "hetsim: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		oom(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

void xgrow(void *arr, int *cap, int need, size_t size)
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

const char *fmt_us(int64_t us, char *buf)
{
	const char *sign = us < 0 ? "-" : "";
	uint64_t a = us < 0 ? (uint64_t)(-(us + 1)) + 1 : (uint64_t)us;
	snprintf(buf, 32, "%s%" PRIu64 ".%06" PRIu64, sign, a / 1000000u, a % 1000000u);
	return buf;
}
