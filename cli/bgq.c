/* bgq.c - work handed to a second thread, done in the order handed (bgq.h).
 *
 * The two threads share a small ring of items (a block of records, or a
 * call), a stack of free blocks and two flags, all under one mutex:
 *
 *   caller: fills a block without locking; when it is full, locks,
 *           appends it to the ring, takes a free block (or makes one, up
 *           to NBLOCKS; else waits on `done`), unlocks;
 *   worker: waits on `work` for an item, takes it out of the ring,
 *           unlocks, does it, locks, returns the block to the free stack
 *           and wakes the caller if it waits.
 *
 * A block holds BGQ_BLOCK bytes, 3 276 of run.c's 80-byte records: a
 * 10^6-job run hands over about 300 blocks, so the lock is taken a few
 * hundred times in all, never per record.  Signalling a condition nobody waits
 * on costs no system call, so both sides signal unconditionally.
 */
#include "bgq.h"

#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#include "util.h"

#define NBLOCKS 8   /* blocks in flight at most: 512 KiB, which fits the caches */
#define NITEMS 16   /* ring of items: NBLOCKS blocks and a few calls */

struct bgq_block {
	unsigned char *rec;        /* BGQ_BLOCK bytes (malloc's alignment) */
	struct bgq_block *next;    /* on the free stack */
};

struct item {
	struct bgq_block *blk;     /* records: blk, `used` bytes of it; or */
	size_t used;
	void (*fn)(void *arg);     /* a call, when blk is NULL */
	void *arg;
};

struct bgq_shared {
	pthread_mutex_t mu;
	pthread_cond_t work;       /* the worker waits here for items */
	pthread_cond_t done;       /* the caller waits here for a block, room, the end */
	struct item items[NITEMS]; /* ring: head, n */
	size_t head, n;
	struct bgq_block *free;    /* blocks back from the worker */
	struct bgq_block *all[NBLOCKS]; /* every block made, for freeing */
	int nblocks;
	bool busy;                 /* the worker is doing an item */
	bool stop;                 /* the worker ends once the ring is empty */
	bool threaded;
	pthread_t th;
	void (*each)(void *ctx, const void *rec);
	void *ctx;
	size_t rec_size;
};

/* Do one item: each record of a block, in order, or the call. */
static void do_item(struct bgq_shared *sh, const struct item *it)
{
	if (!it->blk) {
		it->fn(it->arg);
		return;
	}
	for (size_t at = 0; at < it->used; at += sh->rec_size)
		sh->each(sh->ctx, it->blk->rec + at);
}

static void *worker(void *arg)
{
	struct bgq_shared *sh = arg;
	pthread_mutex_lock(&sh->mu);
	for (;;) {
		while (!sh->n && !sh->stop)
			pthread_cond_wait(&sh->work, &sh->mu);
		if (!sh->n)
			break; /* stop, and nothing left */
		struct item it = sh->items[sh->head];
		sh->head = (sh->head + 1) % NITEMS;
		sh->n--;
		sh->busy = true;
		pthread_mutex_unlock(&sh->mu);
		do_item(sh, &it);
		pthread_mutex_lock(&sh->mu);
		if (it.blk) {
			it.blk->next = sh->free;
			sh->free = it.blk;
		}
		sh->busy = false;
		pthread_cond_signal(&sh->done);
	}
	pthread_mutex_unlock(&sh->mu);
	return NULL;
}

struct bgq *bgq_start(size_t rec_size, void (*each)(void *ctx, const void *rec), void *ctx,
		      bool thread)
{
	if (!rec_size || rec_size > BGQ_BLOCK) {
		fprintf(stderr, "hetsim: bgq: record size %zu out of range\n", rec_size);
		abort();
	}
	struct bgq *q = xcalloc(1, sizeof *q);
	struct bgq_shared *sh = xcalloc(1, sizeof *sh);
	*sh = (struct bgq_shared){.each = each, .ctx = ctx, .rec_size = rec_size};
	q->sh = sh;
	q->rec_size = rec_size;
	if (thread && !pthread_mutex_init(&sh->mu, NULL)) {
		if (!pthread_cond_init(&sh->work, NULL)) {
			if (!pthread_cond_init(&sh->done, NULL)) {
				if (!pthread_create(&sh->th, NULL, worker, sh)) {
					sh->threaded = true;
					return q;
				}
				pthread_cond_destroy(&sh->done);
			}
			pthread_cond_destroy(&sh->work);
		}
		pthread_mutex_destroy(&sh->mu);
	}
	return q; /* no thread: the work is done in the caller's */
}

bool bgq_threaded(const struct bgq *q) { return q->sh->threaded; }

static struct bgq_block *new_block(struct bgq_shared *sh)
{
	struct bgq_block *b = xmalloc(sizeof *b);
	b->rec = xmalloc(BGQ_BLOCK);
	b->next = NULL;
	sh->all[sh->nblocks++] = b;
	return b;
}

/* Append it to the ring, waiting for room (threaded; mutex held). */
static void enqueue_locked(struct bgq_shared *sh, struct item it)
{
	while (sh->n == NITEMS)
		pthread_cond_wait(&sh->done, &sh->mu);
	sh->items[(sh->head + sh->n) % NITEMS] = it;
	sh->n++;
	pthread_cond_signal(&sh->work);
}

/* Hand over the block being filled, if it holds anything, and leave the
 * caller without one (threaded), or do its records now (not). */
static void hand_over(struct bgq *q)
{
	struct bgq_shared *sh = q->sh;
	if (!q->blk || !q->used)
		return;
	struct item it = {.blk = q->blk, .used = q->used};
	q->used = 0;
	if (!sh->threaded) {
		do_item(sh, &it); /* the block stays the caller's */
		return;
	}
	q->blk = NULL;
	q->cur = NULL;
	q->room = 0;
	pthread_mutex_lock(&sh->mu);
	enqueue_locked(sh, it);
	pthread_mutex_unlock(&sh->mu);
}

void bgq_next_block(struct bgq *q)
{
	struct bgq_shared *sh = q->sh;
	hand_over(q);
	if (q->blk)
		return; /* not threaded: the same block again, emptied */
	if (!sh->threaded) {
		q->blk = new_block(sh);
	} else {
		pthread_mutex_lock(&sh->mu);
		while (!sh->free && sh->nblocks == NBLOCKS)
			pthread_cond_wait(&sh->done, &sh->mu);
		if (sh->free) {
			q->blk = sh->free;
			sh->free = q->blk->next;
		} else {
			q->blk = new_block(sh);
		}
		pthread_mutex_unlock(&sh->mu);
	}
	q->cur = q->blk->rec;
	q->used = 0;
	q->room = BGQ_BLOCK / q->rec_size * q->rec_size;
}

void bgq_call(struct bgq *q, void (*fn)(void *arg), void *arg)
{
	struct bgq_shared *sh = q->sh;
	hand_over(q);
	if (!sh->threaded) {
		fn(arg);
		return;
	}
	pthread_mutex_lock(&sh->mu);
	enqueue_locked(sh, (struct item){.fn = fn, .arg = arg});
	pthread_mutex_unlock(&sh->mu);
}

void bgq_wait(struct bgq *q)
{
	struct bgq_shared *sh = q->sh;
	hand_over(q);
	if (!sh->threaded)
		return;
	pthread_mutex_lock(&sh->mu);
	while (sh->n || sh->busy)
		pthread_cond_wait(&sh->done, &sh->mu);
	pthread_mutex_unlock(&sh->mu);
}

void bgq_stop(struct bgq *q)
{
	if (!q)
		return;
	struct bgq_shared *sh = q->sh;
	bgq_wait(q);
	if (sh->threaded) {
		pthread_mutex_lock(&sh->mu);
		sh->stop = true;
		pthread_cond_signal(&sh->work);
		pthread_mutex_unlock(&sh->mu);
		pthread_join(sh->th, NULL);
		pthread_cond_destroy(&sh->done);
		pthread_cond_destroy(&sh->work);
		pthread_mutex_destroy(&sh->mu);
	}
	for (int i = 0; i < sh->nblocks; i++) {
		free(sh->all[i]->rec);
		free(sh->all[i]);
	}
	free(sh);
	free(q);
}
