/* timeline.h - a run's timeline as Chrome trace-event JSON (tl_ prefix;
 * timeline.c; `hetsim run --trace-json FILE`). */
#ifndef HETSIM_TIMELINE_H
#define HETSIM_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"

struct tl;

/* Start FILE (through FILE.tmp); NULL with the message in err. */
struct tl *tl_open(const char *path, char *err, size_t errlen);
/* The next run to record: policy p of the scenario, named `policy`
 * (kept, not copied).  Then set tl_task as the run's task sink, hand its
 * released executors to tl_exec, run it, and call tl_end. */
void tl_begin(struct tl *t, const char *policy, int p);
void tl_task(void *ctx, const struct sim *s, int job, int stage, int task, int exec, int node,
	     int64_t start_us, int64_t end_us, bool done);
void tl_exec(struct tl *t, const struct sim_exec *x);
/* The run's state sink (sim_set_state_sink): a job model's named states
 * become spans on a track of their job. */
void tl_state(void *ctx, const struct sim *s, const struct sim_job *j, int state,
	      int64_t from_us, int64_t to_us);
void tl_end(struct tl *t, const struct sim *s);
/* Write the file's end and close FILE.tmp, so that a write that fails
 * (a full disk, EFBIG) is known before the run's result set commits:
 * 0, or -1 with err (the .tmp removed). */
int tl_finish(struct tl *t, char *err, size_t errlen);
/* Finish (tl_finish, if not yet): renamed to FILE when ok, else removed.
 * 0, or -1 with err. */
int tl_close(struct tl *t, bool ok, char *err, size_t errlen);

#endif
