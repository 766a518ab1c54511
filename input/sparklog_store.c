/* sparklog_store.c - the Spark event log reader's storage
 * (sparklog_store.h): a pool of strings and arrays that live as long as
 * the log, dropped at once, and small open-addressing hash tables.  It
 * calls sim/util.h only. */
#include "sparklog_store.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- the pool: strings and arrays that live as long as the log ------ */

struct chunk {
	struct chunk *next;
	size_t cap, used;
	_Alignas(8) char mem[];
};

#define CHUNK ((size_t)64 << 10)

void *slog_pool_alloc(struct slog_mem *m, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	struct chunk *c = m->head;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK / 4 ? n : CHUNK; /* a big request gets its own */
		c = xmalloc(sizeof *c + cap);
		c->cap = cap;
		c->used = 0;
		if (m->head && cap != CHUNK) { /* keep filling the current chunk */
			c->next = m->head->next;
			m->head->next = c;
		} else {
			c->next = m->head;
			m->head = c;
		}
	}
	void *p = c->mem + c->used;
	c->used += n;
	return p;
}

const char *slog_pool_str(struct slog_mem *m, const char *s, size_t n)
{
	char *p = slog_pool_alloc(m, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void slog_pool_free(struct slog_mem *m)
{
	if (!m)
		return;
	while (m->head) {
		struct chunk *c = m->head;
		m->head = c->next;
		free(c);
	}
	free(m);
}

/* ---- hash tables --------------------------------------------------- */

static uint64_t mix(uint64_t x) /* splitmix64's finaliser */
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9u;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}


int slog_imap_get(const struct imap *m, int64_t k)
{
	if (!m->cap)
		return -1;
	for (size_t i = mix((uint64_t)k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->val[i] < 0)
			return -1;
		if (m->key[i] == k)
			return m->val[i];
	}
}

static void imap_grow(struct imap *m)
{
	struct imap old = *m;
	m->cap = old.cap ? old.cap * 2 : 64;
	m->n = 0;
	m->key = xmalloc(m->cap * sizeof *m->key);
	m->val = xmalloc(m->cap * sizeof *m->val);
	memset(m->val, 0xff, m->cap * sizeof *m->val);
	for (size_t i = 0; i < old.cap; i++)
		if (old.val[i] >= 0)
			slog_imap_put(m, old.key[i], old.val[i]);
	free(old.key);
	free(old.val);
}

void slog_imap_put(struct imap *m, int64_t k, int v)
{
	if (2 * (m->n + 1) > m->cap)
		imap_grow(m);
	size_t i = mix((uint64_t)k) & (m->cap - 1);
	while (m->val[i] >= 0)
		i = (i + 1) & (m->cap - 1);
	m->key[i] = k;
	m->val[i] = v;
	m->n++;
}

void slog_imap_free(struct imap *m)
{
	free(m->key);
	free(m->val);
}


static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3u;
	return h;
}

int slog_smap_get(const struct smap *m, const char *k)
{
	if (!m->cap)
		return -1;
	uint64_t h = hash_str(k);
	for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->slot[i].val < 0)
			return -1;
		if (m->slot[i].h == h && !strcmp(m->slot[i].key, k))
			return m->slot[i].val;
	}
}

void slog_smap_put(struct smap *m, const char *k, int v) /* k absent */
{
	if (2 * (m->n + 1) > m->cap) {
		struct smap old = *m;
		m->cap = old.cap ? old.cap * 2 : 16;
		m->n = 0;
		m->slot = xmalloc(m->cap * sizeof *m->slot);
		for (size_t i = 0; i < m->cap; i++)
			m->slot[i].val = -1;
		for (size_t i = 0; i < old.cap; i++)
			if (old.slot[i].val >= 0)
				slog_smap_put(m, old.slot[i].key, old.slot[i].val);
		free(old.slot);
	}
	uint64_t h = hash_str(k);
	size_t i = h & (m->cap - 1);
	while (m->slot[i].val >= 0)
		i = (i + 1) & (m->cap - 1);
	m->slot[i] = (struct sslot){k, h, v};
	m->n++;
}

