/* share.h - processor sharing of a node by its running tasks (ps_ prefix).
 *
 * Every task working on a node progresses at the node's one rate (kernel.h,
 * node_rate: its speed times each task's share of the cores, a function
 * of what runs there).  So the node keeps a virtual clock, the work each
 * task working throughout has done, and each task its virtual finish:
 * the clock's reading when its work is done.  A change of rate moves the
 * clock's speed, never a task's finish, so it costs O(1) here, and the
 * task that ends first is the least finish of a heap, O(log k) per task
 * on a node running k tasks.  The engine queues one end event per node
 * for the tasks on its clock, for the earliest (ps_next), where it used
 * to move the end event of every task at every change of rate.  (A task
 * that starts without changing its node's rate keeps an end event of
 * its own until the node's next change, when it joins the clock: kernel.h,
 * struct run.  A node whose rate never changes never uses its clock.)
 *
 * A task's work starts after its launch delay (from_us): until then it
 * waits outside the clock, and joins it with the clock's reading at
 * from_us.  The rate holds between two calls for a node (the only times
 * it changes), so that reading is the clock's last one moved on at the
 * rate, and a change of rate lets the tasks whose delay is over join
 * first.  A waiting task counts in the node's load as a working one does
 * (the engine adds its cores when it starts), so its joining changes no
 * rate.
 *
 * End times, as the engine had them when it moved every task's event:
 * a task that started working after the node's last change of rate ends
 * at from_us + round(work / rate), exactly; one that worked through a
 * change ends at the change + round(what its finish has left / rate),
 * where "left" is a difference of two readings of the clock rather than
 * its own work less each stretch's progress: the same where the clock
 * starts (over) at the change, else up to the rounding of doubles
 * (docs/model.md).
 */
#ifndef HETSIM_SHARE_H
#define HETSIM_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A time past any limit: a task whose end overflows it */
#define PS_NEVER INT64_MAX

/* A task working on the node (joined its clock). */
struct ps_ent {
	double vfin;        /* virtual finish: the clock when its work is done */
	int64_t end_us;     /* its end at the rate it joined at (PS_NEVER past
			       the limit): the end while `epoch` holds */
	uint32_t epoch;     /* the node's epoch when it joined */
	int run;            /* the engine's run slot */
};

/* A task in its launch delay. */
struct ps_wait {
	int64_t from_us;    /* its work starts then, >= the node's last change */
	double work_us;     /* its work, µs at rate 1 */
	int run;            /* the engine's run slot */
};

struct ps_node {
	double rate;        /* progress per µs of each working task */
	double v;           /* virtual clock at v_at: work done per task, µs at
			       rate 1, since it last started over at 0 (when
			       it had no task: its readings stay small) */
	int64_t v_at;       /* µs, its last change of rate or start over */
	uint32_t epoch;     /* changes of rate so far */
	struct ps_ent *heap;  /* working tasks, least (vfin, run) first; owned */
	int nheap, cap_heap;
	struct ps_wait *wait; /* tasks in their launch delay, in no order; owned */
	int nwait, cap_wait;
	/* the engine's: the task whose end its one queued event is for */
	int ev_run;         /* run slot, -1 if none queued */
	int64_t ev_us;      /* its time */
};

struct ps {
	struct ps_node *nodes; /* owned, one per cluster node */
	int n;
	int64_t limit;      /* µs: ends past it are PS_NEVER */
};

/* Nodes 0..n-1, idle, at rate 0 (ps_set_rate gives each its first).
 * Ends past `limit` µs read PS_NEVER.  Free with ps_free. */
void ps_init(struct ps *p, int n, int64_t limit);
void ps_free(struct ps *p);

/* Node `id`'s rate is now `rate` (> 0), as of `now`: its clock runs at
 * the old rate up to now, at the new one after.  Tasks whose delay ended
 * before now join first.  O(waiting tasks) on a change, else O(1). */
void ps_set_rate(struct ps *p, int id, double rate, int64_t now);

/* Task `run` joins node `id`'s clock at `now`: `work_us` of work from
 * `from_us` on.  A from_us in the past must be since the node's last
 * change of rate (the task started after it): the task has worked at
 * the present rate since.  Returns its end at that rate, PS_NEVER if past
 * the limit (the engine's run then stops).  O(log k + waiting tasks). */
int64_t ps_add(struct ps *p, int id, int run, double work_us, int64_t from_us, int64_t now);

/* The task of node `id` that ends first, into *run, and its end, never
 * before `now` (PS_NEVER past the limit); false if the node runs none.
 * Ties of finish go to the lower run slot.  O(waiting tasks). */
bool ps_next(const struct ps *p, int id, int64_t now, int64_t *end_us, int *run);

/* Remove the task ps_next names (its end is now) and return its run
 * slot.  O(log k + waiting tasks). */
int ps_pop(struct ps *p, int id, int64_t now);

/* Remove task `run` from node `id` (working or waiting) at `now`, before
 * its end: it was killed.  Returns whether it was there; *left_us (if
 * not NULL) receives the work it had left, µs at rate 1 (a difference of
 * two readings of the clock).  O(k): a search, for what is rare (a lost
 * executor, a speculative copy's twin). */
bool ps_remove(struct ps *p, int id, int run, int64_t now, double *left_us);

/* Node `id`'s rate (ps_set_rate's last). */
static inline double ps_rate(const struct ps *p, int id)
{
	return p->nodes[id].rate;
}

/* from_us + round(work_us / rate), a negative work taken as 0, halves
 * up, in integers after the one division; PS_NEVER past `limit` µs or
 * for a NaN.  The end of a task working from from_us at a rate that
 * holds. */
int64_t ps_end_at(int64_t from_us, double work_us, double rate, int64_t limit);

/* Tasks on node `id` (working and waiting), and the i-th of them's run
 * slot, in no order: for the engine's recounts. */
int ps_ntasks(const struct ps *p, int id);
int ps_task(const struct ps *p, int id, int i);

/* Whether node `id`'s heap is in order; if not, what is wrong into buf. */
bool ps_check(const struct ps *p, int id, char *buf, size_t len);

#endif
