/* arena.c - a bump allocator (arena.h). */
#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A block taken while the main one was full; its bytes follow. */
struct arena_extra {
	struct arena_extra *next;
	alignas(max_align_t) char mem[];
};

#define ALIGN ((size_t)alignof(max_align_t))
#define FIRST_CAP ((size_t)256) /* the main block's first size: a small DAG */

void arena_init(struct arena *a)
{
	memset(a, 0, sizeof *a);
}

void *arena_alloc(struct arena *a, size_t n)
{
	if (n > SIZE_MAX - ALIGN) { /* would wrap when rounded up */
		fprintf(stderr, "hetsim: out of memory allocating %zu bytes\n", n);
		abort();
	}
	n = (n + ALIGN - 1) & ~(ALIGN - 1);
	if (n == 0)
		n = ALIGN; /* distinct pointers, as malloc's */
	if (a->cap - a->used >= n) {
		void *p = a->base + a->used;
		a->used += n;
		return p;
	}
	if (!a->base) { /* the first request: make the main block */
		a->cap = n > FIRST_CAP ? n : FIRST_CAP;
		a->base = xmalloc(a->cap);
		a->used = n;
		return a->base;
	}
	struct arena_extra *e = xmalloc(sizeof *e + n);
	e->next = a->extra;
	a->extra = e;
	a->extra_bytes += n;
	return e->mem;
}

void *arena_zalloc(struct arena *a, size_t n)
{
	return memset(arena_alloc(a, n), 0, n);
}

static void free_extras(struct arena *a)
{
	while (a->extra) {
		struct arena_extra *e = a->extra;
		a->extra = e->next;
		free(e);
	}
	a->extra_bytes = 0;
}

/* The main block is the size of this round's demand, rounded up to
 * ROUND bytes, whenever the demand passed it or used less than three
 * quarters of it: a slot keeps about what its last job used, not the
 * most any of its jobs did.  A pool of live jobs' arenas (sim/live.c)
 * holds the DAGs of the jobs running at once: on the 10^4-node mix
 * (bench/gen-mix) about 20 000 of them, 1.8 KB each on average, where
 * blocks in powers of two kept while any round used a quarter of them
 * held 4 KB each (docs/model.md is unmoved: where memory comes from
 * changes no figure).  One free and one malloc per job that ends, at
 * most. */
#define ROUND ((size_t)256)

void arena_reset(struct arena *a)
{
	size_t want = a->used + a->extra_bytes; /* this round's demand */
	free_extras(a);
	if (want > a->cap || want < a->cap / 4 * 3) {
		size_t cap = want > SIZE_MAX - ROUND ? want : (want + ROUND - 1) & ~(ROUND - 1);
		if (cap < FIRST_CAP)
			cap = FIRST_CAP;
		free(a->base);
		a->base = xmalloc(cap);
		a->cap = cap;
	}
	a->used = 0;
}

void arena_free(struct arena *a)
{
	free_extras(a);
	free(a->base);
	memset(a, 0, sizeof *a);
}
