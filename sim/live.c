/* live.c - the pool of jobs' live records (struct sim_live): what a job
 * holds from its first executor to the end of the settle round it
 * ended in.  Calls nothing of the kernel's.
 */
#include "kernel.h"

#include <stdlib.h>

/* ---- what jobs hold (struct sim_live) ------------------------------ */

const struct sim_live k_no_live = {.slot = -1};

/* Job j gets its first executor: a record from the pool. */
struct sim_live *k_live_get(struct sim *s, struct sim_job *j)
{
	struct sim_live *r;
	if (s->nfree > 0) { /* one given back: clean, keeping the memory of
			       its last job's arrays */
		int slot = s->free_live[--s->nfree];
		r = &s->chunks[slot / LIVE_CHUNK][slot % LIVE_CHUNK];
		*r = (struct sim_live){.execs = r->execs, .cap_execs = r->cap_execs,
				       .spec = r->spec, .cap_spec = r->cap_spec,
				       .ar = r->ar, .slot = slot};
	} else { /* the next never used; a chunk is set up record by record
		    as they are first taken (a one-job replication takes one) */
		int slot = s->nlive_made++;
		if (slot == s->nchunks * LIVE_CHUNK) {
			xgrow(&s->chunks, &s->cap_chunks, s->nchunks + 1, sizeof *s->chunks);
			s->chunks[s->nchunks++] = xmalloc(LIVE_CHUNK * sizeof **s->chunks);
			xgrow(&s->free_live, &s->cap_free, s->nchunks * LIVE_CHUNK,
			      sizeof *s->free_live);
		}
		r = &s->chunks[slot / LIVE_CHUNK][slot % LIVE_CHUNK];
		*r = (struct sim_live){.slot = slot};
	}
	j->live = r;
	return r;
}

/* The jobs that ended give their records back.  Called at the end of
 * settle(), once the policy's decisions and the dispatches that follow
 * the events are over: until then a policy hook or a queued dispatch may
 * still look at a job that just ended (and find it ended).  Events that
 * come later, at the same time or after, find a released executor's
 * events stale (ev_seq), and a job timer stale by its status. */
void k_live_put_ended(struct sim *s)
{
	for (int i = 0; i < s->nended; i++) {
		struct sim_job *j = &s->pub.jobs[s->ended[i]];
		struct sim_live *r = j->live;
		arena_reset(&r->ar);
		s->free_live[s->nfree++] = r->slot; /* room: one per slot made */
		j->live = (struct sim_live *)&k_no_live;
	}
	s->nended = 0;
}
