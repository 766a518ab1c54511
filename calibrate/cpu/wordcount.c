/* wordcount.c - the WordCount kernels: tokenise + count (map) and merge
 * partial counts (reduce) in an open-addressing hash table, and the text
 * they read (Zipf-distributed synthetic words, or files).
 *
 * The table is linear probing over a power-of-two array of slots, grown
 * to twice its size at 70 % load; words live in one byte arena.  Each
 * slot keeps the word's 64-bit hash, so growing and merging never hash
 * again (Spark's map-side combine keeps the same shape of table).
 */
#include "cal.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct slot {
	uint64_t hash;   /* 0 = empty (a real hash of 0 is stored as 1) */
	uint64_t count;
	uint32_t off;    /* word's offset in the arena */
	uint32_t len;    /* word's length, bytes */
};

struct cal_wc {
	struct slot *slots; /* cap entries */
	size_t cap, used;
	char *arena;        /* words, back to back, no terminators */
	size_t alen, acap;
	char *word;         /* tokeniser's scratch */
	size_t wcap;
};

static uint64_t hash_bytes(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 29; /* FNV's low bits are weak for power-of-two tables */
	return h ? h : 1;
}

struct cal_wc *cal_wc_new(void)
{
	struct cal_wc *t = xcalloc(1, sizeof *t);
	t->cap = 1024;
	t->slots = xcalloc(t->cap, sizeof *t->slots);
	return t;
}

void cal_wc_free(struct cal_wc *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t->arena);
	free(t->word);
	free(t);
}

static void grow(struct cal_wc *t)
{
	size_t cap = t->cap * 2;
	struct slot *s = xcalloc(cap, sizeof *s);
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slots[i].hash)
			continue;
		size_t j = t->slots[i].hash & (cap - 1);
		while (s[j].hash)
			j = (j + 1) & (cap - 1);
		s[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = s;
	t->cap = cap;
}

static void add_hashed(struct cal_wc *t, uint64_t h, const char *w, size_t len, uint64_t n)
{
	size_t j = h & (t->cap - 1);
	for (;; j = (j + 1) & (t->cap - 1)) {
		struct slot *s = &t->slots[j];
		if (!s->hash)
			break;
		if (s->hash == h && s->len == len && memcmp(t->arena + s->off, w, len) == 0) {
			s->count += n;
			return;
		}
	}
	if (t->alen + len > t->acap) {
		t->acap = (t->alen + len) * 2 + 4096;
		t->arena = xrealloc(t->arena, t->acap);
	}
	memcpy(t->arena + t->alen, w, len);
	t->slots[j] = (struct slot){h, n, (uint32_t)t->alen, (uint32_t)len};
	t->alen += len;
	if (++t->used * 10 > t->cap * 7)
		grow(t);
}

void cal_wc_add(struct cal_wc *t, const char *w, size_t len, uint64_t n)
{
	add_hashed(t, hash_bytes(w, len), w, len, n);
}

/* ASCII letters and digits only: bytes >= 0x80 separate words. */
static int alnum_lower(unsigned char c)
{
	if (c >= 'a' && c <= 'z')
		return c;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 'a';
	if (c >= '0' && c <= '9')
		return c;
	return 0;
}

uint64_t cal_wc_count_text(struct cal_wc *t, const char *text, size_t len)
{
	uint64_t words = 0;
	size_t n = 0;
	for (size_t i = 0; i <= len; i++) {
		int c = i < len ? alnum_lower((unsigned char)text[i]) : 0;
		if (c) {
			if (n == t->wcap) {
				t->wcap = t->wcap ? 2 * t->wcap : 64;
				t->word = xrealloc(t->word, t->wcap);
			}
			t->word[n++] = (char)c;
		} else if (n) {
			cal_wc_add(t, t->word, n, 1);
			words++;
			n = 0;
		}
	}
	return words;
}

void cal_wc_merge(struct cal_wc *dst, const struct cal_wc *src)
{
	for (size_t i = 0; i < src->cap; i++) {
		const struct slot *s = &src->slots[i];
		if (s->hash)
			add_hashed(dst, s->hash, src->arena + s->off, s->len, s->count);
	}
}

uint64_t cal_wc_get(const struct cal_wc *t, const char *word)
{
	size_t len = strlen(word);
	uint64_t h = hash_bytes(word, len);
	for (size_t j = h & (t->cap - 1); t->slots[j].hash; j = (j + 1) & (t->cap - 1)) {
		const struct slot *s = &t->slots[j];
		if (s->hash == h && s->len == len && memcmp(t->arena + s->off, word, len) == 0)
			return s->count;
	}
	return 0;
}

size_t cal_wc_distinct(const struct cal_wc *t)
{
	return t->used;
}

size_t cal_wc_bytes(const struct cal_wc *t)
{
	return t->alen + t->used * 9;
}

void cal_wc_each(const struct cal_wc *t,
		 void (*fn)(const char *word, size_t len, uint64_t count, void *arg), void *arg)
{
	for (size_t i = 0; i < t->cap; i++) {
		const struct slot *s = &t->slots[i];
		if (s->hash)
			fn(t->arena + s->off, s->len, s->count, arg);
	}
}

/* ---- text ---------------------------------------------------------- */

char *cal_text_zipf(size_t bytes, uint64_t seed)
{
	return cal_text_zipf_law(bytes, seed, 50000, 1.0);
}

char *cal_text_zipf_law(size_t bytes, uint64_t seed, int vocab_words, double s)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, (unsigned long)seed);
	/* Vocabulary: distinct words of up to 7 random letters followed by
	 * the word's index in base 26 (so no two collide), Zipf weights
	 * rank^-s. */
	char (*vocab)[16] = xmalloc((size_t)vocab_words * sizeof *vocab);
	double *w = xmalloc((size_t)vocab_words * sizeof *w);
	for (int i = 0; i < vocab_words; i++) {
		int len = 0, extra = (int)gsl_rng_uniform_int(r, 8);
		for (int k = 0; k < extra; k++)
			vocab[i][len++] = (char)('a' + gsl_rng_uniform_int(r, 26));
		int x = i;
		do {
			vocab[i][len++] = (char)('a' + x % 26);
			x /= 26;
		} while (x && len < 15);
		vocab[i][len] = '\0';
		w[i] = pow(i + 1, -s);
	}
	gsl_ran_discrete_t *z = gsl_ran_discrete_preproc((size_t)vocab_words, w);
	char *text = xmalloc(bytes + 1);
	size_t n = 0;
	while (n < bytes) {
		const char *v = vocab[gsl_ran_discrete(r, z)];
		double u = gsl_rng_uniform(r);
		char word[20];
		snprintf(word, sizeof word, "%s", v);
		if (u < 0.05)
			word[0] = (char)(word[0] - 'a' + 'A');
		const char *sep = u < 0.9 ? " " : u < 0.95 ? ", " : u < 0.98 ? ".\n" : "; ";
		for (const char *p = word; *p && n < bytes; p++)
			text[n++] = *p;
		for (const char *p = sep; *p && n < bytes; p++)
			text[n++] = *p;
	}
	text[n] = '\0';
	gsl_ran_discrete_free(z);
	free(w);
	free(vocab);
	gsl_rng_free(r);
	return text;
}

char *cal_text_files(const char *const *paths, int n, size_t bytes, char *err, size_t errlen)
{
	char *all = NULL;
	size_t len = 0;
	for (int i = 0; i < n; i++) {
		FILE *f = fopen(paths[i], "rb");
		if (!f) {
			snprintf(err, errlen, "cannot read input '%s': %s", paths[i], strerror(errno));
			free(all);
			return NULL;
		}
		char buf[65536];
		size_t got;
		while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
			all = xrealloc(all, len + got + 1);
			memcpy(all + len, buf, got);
			len += got;
		}
		int bad = ferror(f);
		fclose(f);
		if (bad) {
			snprintf(err, errlen, "cannot read input '%s': read error", paths[i]);
			free(all);
			return NULL;
		}
		all = xrealloc(all, len + 1);
		all[len++] = '\n';
	}
	if (len <= (size_t)n) {
		snprintf(err, errlen, "the input files hold no text");
		free(all);
		return NULL;
	}
	char *text = xmalloc(bytes + 1);
	for (size_t k = 0; k < bytes; k += len)
		memcpy(text + k, all, bytes - k < len ? bytes - k : len);
	text[bytes] = '\0';
	free(all);
	return text;
}
