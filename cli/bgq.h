/* bgq.h - work handed to a second thread, done in the order handed.
 *
 * `hetsim run` spends a sixth of a large run turning records into CSV
 * text (2 million rows for 10^6 jobs).  None of that decides anything, so
 * it can go to the machine's other core: the simulating thread copies
 * each executor's figures into a fixed-size record (a few stores) and
 * goes on, while a worker thread formats and writes the rows.
 *
 * A bgq is one worker thread and a FIFO of two kinds of work:
 *
 *   - records of rec_size bytes, filled in place by the caller
 *     (bgq_put returns room for one); the worker calls each(ctx, rec)
 *     on every record, in the order they were put;
 *   - calls, fn(arg), made by the worker after everything queued before
 *     them (bgq_call): the end of a file, or a whole job to overlap with
 *     the caller's own.
 *
 * So the worker does exactly what the caller would have done, in the
 * same order, and what it writes is byte for byte the same: only when it
 * runs changes.  Records travel in blocks of BGQ_BLOCK bytes, a few of
 * them in flight; a caller that gets that far ahead of the worker waits
 * for a block to come back.  Blocks are reused, never freed in between:
 * fresh memory costs far more to touch than to copy into (first-touch
 * page faults).
 *
 * What the worker reads besides the records (parts of the simulation,
 * for a call or a record that points there) the caller must not change
 * until bgq_wait or bgq_stop returns; it may go on changing other parts
 * (run.c relies on sim.h's rule for sim_exec_sink: a job with a final
 * status has final fields).  Handing work over and waiting are the only
 * synchronisation points, and everything the caller wrote before
 * handing work over is visible to the worker (the queue's mutex orders
 * them).
 *
 * Without a thread (bgq_start's `thread` false, or pthread_create
 * failing) the same calls do the work at once in the caller's thread:
 * a full block is processed when it fills, a call is made when handed
 * over.  Tests compare the two.
 */
#ifndef HETSIM_BGQ_H
#define HETSIM_BGQ_H

#include <stdbool.h>
#include <stddef.h>

#define BGQ_BLOCK ((size_t)256 << 10)  /* bytes of records per block */

struct bgq_block;
struct bgq_shared;

struct bgq {
	/* the caller's side, read by the inline bgq_put */
	unsigned char *cur;       /* the block being filled: its records */
	size_t used, room;        /* bytes filled in it; its capacity (whole records) */
	size_t rec_size;
	struct bgq_block *blk;    /* the block `cur` belongs to */
	struct bgq_shared *sh;    /* what both threads touch, under a mutex */
};

/* Start a queue of records of rec_size bytes (1 .. BGQ_BLOCK) that
 * each(ctx, rec) consumes, with a worker thread if `thread` (else the
 * work is done in the caller's thread: see above).  Out of memory
 * aborts, as xmalloc does. */
struct bgq *bgq_start(size_t rec_size, void (*each)(void *ctx, const void *rec), void *ctx,
		      bool thread);

/* Hand the filled part of the current block over and get an empty one
 * (bgq_put's slow path). */
void bgq_next_block(struct bgq *q);

/* Fetch the line at p for writing: x86's PREFETCHW, which asks for the
 * line exclusive (GCC emits only a read prefetch for
 * __builtin_prefetch(p, 1) unless built for a CPU model that has it;
 * processors without it take it for a no-op). */
static inline void bgq_prefetchw(const void *p)
{
#if defined(__x86_64__) && defined(__GNUC__)
	__asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
#else
	__builtin_prefetch(p, 1);
#endif
}

/* Room for the next record: the caller fills all rec_size bytes before
 * its next call on q.  Usually a few instructions; when the block is
 * full, it is handed over first. */
static inline void *bgq_put(struct bgq *q)
{
	if (q->used == q->room)
		bgq_next_block(q);
	unsigned char *r = q->cur + q->used;
	q->used += q->rec_size;
	/* Ask now for the lines of the next record, for writing.  They
	 * were last read by the worker on the other core; an ordinary
	 * store into them would wait for that core to give them up, and
	 * hold up every store after it until then.  Fetched ahead, they
	 * arrive while the caller does its own work.  (The last record of
	 * a block has none after it in the block.) */
	if (q->used < q->room) {
		bgq_prefetchw(q->cur + q->used);
		bgq_prefetchw(q->cur + q->used + q->rec_size - 1);
	}
	return r;
}

/* Queue fn(arg), made after every record and call queued before it. */
void bgq_call(struct bgq *q, void (*fn)(void *arg), void *arg);

/* Return once everything queued so far is done. */
void bgq_wait(struct bgq *q);

/* bgq_wait, then end the thread and free q.  NULL is ignored. */
void bgq_stop(struct bgq *q);

/* Whether q has a worker thread (false: bgq_start was asked for none, or
 * could not start one). */
bool bgq_threaded(const struct bgq *q);

#endif
