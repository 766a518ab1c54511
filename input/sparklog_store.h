/* sparklog_store.h - the Spark event log reader's storage (sparklog.c
 * only): the pool its strings and arrays live in, and its hash tables
 * by id (int64 -> index) and by name (string -> index). */
#ifndef HETSIM_SPARKLOG_STORE_H
#define HETSIM_SPARKLOG_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "sparklog.h"

/* The pool (struct slog.mem): its chunks, newest first. */
struct chunk;
struct slog_mem {
	struct chunk *head;
};

/* int64 -> index (>= 0) */
struct imap {
	int64_t *key;
	int *val;                  /* -1: empty slot */
	size_t cap, n;             /* cap: a power of two, or 0 */
};

/* string -> index; keys borrowed (pool strings) */
struct smap {
	struct sslot {
		const char *key;
		uint64_t h;
		int val;           /* -1: empty */
	} *slot;
	size_t cap, n;
};

void *slog_pool_alloc(struct slog_mem *m, size_t n);
const char *slog_pool_str(struct slog_mem *m, const char *s, size_t n);
void slog_pool_free(struct slog_mem *m);
int slog_imap_get(const struct imap *m, int64_t k);
void slog_imap_put(struct imap *m, int64_t k, int v);
void slog_imap_free(struct imap *m);
int slog_smap_get(const struct smap *m, const char *k);
void slog_smap_put(struct smap *m, const char *k, int v);

#endif
