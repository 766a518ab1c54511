/* arena.h - a bump allocator for arrays that live and die together
 * (arena_ prefix).
 *
 * A job's DAG (its stages, their task durations, parents and children)
 * is built when the job first runs and dropped when it ends: five or six
 * small arrays per job, a malloc and a free each, which on a run of a
 * million jobs cost more than the scheduling did.  An arena hands them
 * out of one block and drops them all at once (arena_reset), keeping a
 * block of this round's size for the next job: a job no bigger than the
 * last, and not much smaller, allocates nothing; another costs a free and
 * a malloc at its reset.
 *
 * Memory handed out never moves until the next reset: when the block is
 * full, further requests come from extra blocks, which the reset frees
 * after sizing the main block to hold them all next time.
 */
#ifndef HETSIM_ARENA_H
#define HETSIM_ARENA_H

#include <stddef.h>

struct arena_extra; /* arena.c */

struct arena {
	char *base;              /* the main block */
	size_t used, cap;        /* bytes handed out of it, its size */
	struct arena_extra *extra; /* blocks taken since the reset, newest first */
	size_t extra_bytes;      /* their total size */
};

/* An empty arena (allocates on the first request); a zeroed struct is
 * one too. */
void arena_init(struct arena *a);

/* n bytes, aligned for any type, uninitialised (zeroed: arena_zalloc).
 * Out of memory aborts, as xmalloc. */
void *arena_alloc(struct arena *a, size_t n);
void *arena_zalloc(struct arena *a, size_t n);

/* Drop everything handed out; keep the main block, resized to this
 * round's demand (rounded up to 256 bytes) where that passed it or used
 * less than three quarters of it. */
void arena_reset(struct arena *a);

/* Free every block; *a is then an empty arena again. */
void arena_free(struct arena *a);

#endif
