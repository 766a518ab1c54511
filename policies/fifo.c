/* fifo.c - the reference policy for validation.
 *
 * Jobs in strict arrival order.  The job at the head gets all the
 * executors it asks for at once, each on the first node in node order
 * that fits it on every dimension (cores, memory, GPUs), or nothing; while
 * it does not fit, no job behind it is considered (head-of-line blocking).
 * Labels are ignored.  An executor with cores unset gets one core.
 * A job that could not fit even the empty cluster is rejected at arrival
 * as unplaceable, so it cannot block the queue forever.
 *
 * Cost: first fit walks the nodes that have a free core, in order
 * (clu_next_with_cores): O(nodes) per executor at worst, little when the
 * cluster is busy.
 */
#include <stdlib.h>

#include "pol_common.h"
#include "sim.h"
#include "util.h"

struct fifo {
	struct pol_queue q;
	struct pol_tent t;
};

static void *fifo_init(struct sim *s, const struct scn_policy *cfg)
{
	(void)cfg;
	struct fifo *f = xcalloc(1, sizeof *f);
	pol_queue_init(&f->q, sim_njobs(s));
	pol_tent_init(&f->t, sim_cluster(s)->n);
	return f;
}

static void fifo_arrived(void *st, struct sim *s, int job)
{
	struct fifo *f = st;
	if (!pol_feasible(s, sim_job(s, job), false, true, true)) {
		sim_reject_job(s, job, JOB_UNPLACEABLE);
		return;
	}
	pol_queue_push(&f->q, job);
}

static void fifo_finished(void *st, struct sim *s, int job)
{
	(void)s;
	pol_queue_remove(&((struct fifo *)st)->q, job);
}

/* First fit of one executor, given what is already tentatively placed. */
static int first_fit(const struct clu *c, const struct pol_tent *t, int cores, int64_t mem,
		     int gpus)
{
	for (int i = clu_next_with_cores(c, 0); i >= 0; i = clu_next_with_cores(c, i + 1)) {
		int fc, fg;
		int64_t fm;
		pol_tent_free(t, &c->nodes[i], &fc, &fm, &fg);
		if (fc >= cores && fm >= mem && fg >= gpus)
			return i;
	}
	return -1;
}

static bool place_all(const struct sim *s, const struct sim_job *j, struct pol_tent *t)
{
	pol_tent_reset(t);
	for (int r = 0; r < j->nroles; r++) {
		const struct sim_role *ro = &j->role[r];
		int cores = ro->cores ? ro->cores : 1;
		for (int k = ro->granted; k < ro->count; k++) {
			int node = first_fit(sim_cluster(s), t, cores, ro->mem_mib, ro->gpus);
			if (node < 0)
				return false;
			pol_tent_add(t, node, r, cores, ro->mem_mib, ro->gpus);
		}
	}
	return true;
}

static void fifo_schedule(void *st, struct sim *s)
{
	struct fifo *f = st;
	while (f->q.head >= 0) {
		int job = f->q.head;
		if (!place_all(s, sim_job(s, job), &f->t))
			return; /* head-of-line blocking */
		pol_tent_launch(&f->t, s, job);
		pol_queue_remove(&f->q, job);
	}
}

static void fifo_fini(void *st)
{
	struct fifo *f = st;
	pol_queue_free(&f->q);
	pol_tent_fini(&f->t);
	free(f);
}

static const struct pol_param fifo_params[] = {{NULL, POL_BOOL, NULL, NULL, NULL}};

const struct policy_ops pol_fifo = {
	.name = "fifo",
	.summary = "strict arrival order, whole job first fit in node order, head-of-line blocking",
	.params = fifo_params,
	.uses_labels = false,
	.init = fifo_init,
	.job_arrived = fifo_arrived,
	.job_finished = fifo_finished,
	.schedule = fifo_schedule,
	.fini = fifo_fini,
};
