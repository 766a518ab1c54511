/* fifo.c - the reference policy for validation.
 *
 * Jobs in strict arrival order.  The job at the head gets all the
 * executors it asks for at once, each on the first node in node order
 * that fits it on every dimension (cores, memory, GPUs), or nothing; while
 * it does not fit, no job behind it is considered (head-of-line blocking).
 * With `blocking: false`, a job that does not fit is passed over and the
 * next one tried, in arrival order (the FIFO of the Alibaba PAI
 * simulator, cluster-trace-gpu-v2020/simulator/scheduler.py alloc_job:
 * every queued job is tried; one that does not fit is skipped).
 * Labels are ignored.  An executor with cores unset gets one core.
 * A job that could not fit even the empty cluster is rejected at arrival
 * as unplaceable, so it cannot block the queue forever.
 *
 * Cost: first fit is the winner of a tree per executor shape whose key
 * is 0 where the executor fits, INFINITY elsewhere (pol_index.h; with
 * those keys alone the tree is a bit set): O(log64 nodes) per executor,
 * plus O(shapes × log64 nodes) per node whose free amounts changed.  A
 * schedule call whose head job is still blocked on an unchanged cluster
 * (an arrival behind it) costs O(1).  With clu_plain_scan, a scan of
 * every node in order: O(nodes) per executor.
 */
#include <math.h>
#include <stdlib.h>

#include "pol_common.h"
#include "pol_index.h"
#include "sim.h"
#include "util.h"

struct fifo {
	struct pol_jobset q;
	struct pol_fits fits;
	struct pol_tent t;
	bool indexed;         /* false with clu_plain_scan: scan every node */
	struct pol_ix ix;     /* per executor shape: the nodes it fits (key 0) */
	/* The head job that last did not fit, and the cluster's change count
	 * then (-1: none).  A placement reads only the nodes' free amounts,
	 * which change only with that count (the cluster's change log), and
	 * the job's own record, which changes only when it is launched: so
	 * while both are as they were, it still does not fit, and a schedule
	 * call after an arrival behind it (half of them on a busy cluster)
	 * decides nothing new.  Indexed only: the plain scan stays the
	 * reference the tests compare against. */
	int blocked;
	uint64_t blocked_at;
	bool scan;            /* blocking: false: pass over a job that does not fit */
};

/* 0 where an executor of shape `sh` fits on every dimension, else
 * INFINITY: a tree's winner is then the first node in order that fits.
 * The free amounts are read through pol_tent_free, as the scan reads
 * them, not taken from the index: on a GPU pool the index's free GPUs
 * leave out the shares tentatively placed, and a job of a share and a
 * whole GPU launched onto a GPU taken (the engine's invariant stopped
 * the run). */
static double fifo_key(const void *ctx, const struct clu_node *n, int ifc, int64_t ifm, int ifg,
		       const struct pol_shape *sh)
{
	const struct fifo *f = ctx;
	int fc, fg;
	int64_t fm;
	(void)ifc, (void)ifm, (void)ifg;
	pol_tent_free(&f->t, n, &fc, &fm, &fg);
	if (!(fc >= sh->cores && fm >= sh->mem_mib && fg >= sh->gpus))
		return INFINITY;
	/* a share: some GPU holds it (best fit, after the tentative ones) */
	return !sh->gpu_milli || pol_share_pick(&f->t, n, sh->gpu_milli) >= 0 ? 0 : INFINITY;
}

/* fifo checks every dimension, ignores labels and places every executor
 * of a job at once. */
static void fifo_can_ever_place(const struct scn_policy *cfg, const struct scn *sc, int group,
				const struct sim_shape *sh, struct pol_verdict *v)
{
	static const struct pol_fit_rules rules = {.labels = false, .cores = true, .gpus = true,
						   .whole = true};
	(void)cfg;
	pol_feasible(sc, group, sh, rules, v);
}

static void *fifo_init(struct sim *s, const struct scn_policy *cfg)
{
	struct fifo *f = xcalloc(1, sizeof *f);
	pol_jobset_init(&f->q, sim_njobs(s));
	pol_fits_init(&f->fits, s, fifo_can_ever_place, cfg);
	pol_tent_init(&f->t, sim_cluster(s)->n);
	f->indexed = !clu_plain_scan;
	f->blocked = -1;
	f->scan = !pol_param_bool(&pol_fifo, cfg, "blocking");
	if (f->indexed)
		pol_ix_init(&f->ix, sim_cluster(s), &f->t, fifo_key, f);
	return f;
}

static void fifo_arrived(void *st, struct sim *s, int job)
{
	struct fifo *f = st;
	int why = pol_fits_arrived(&f->fits, s, sim_job(s, job));
	if (why) {
		sim_reject_job(s, job, why);
		return;
	}
	pol_jobset_add(&f->q, job);
}

static void fifo_finished(void *st, struct sim *s, int job)
{
	(void)s;
	pol_jobset_remove(&((struct fifo *)st)->q, job);
}

/* First fit of one executor, given what is already tentatively placed:
 * the reference scan over every node in order, or the index's winner. */
static int first_fit(struct fifo *f, const struct clu *c, const struct pol_shape *sh)
{
	const struct pol_tree *t = f->indexed ? pol_ix_tree(&f->ix, sh) : NULL;
	if (t)
		return pol_tree_top(t);
	for (int i = 0; i < c->n; i++) {
		int fc, fg;
		int64_t fm;
		pol_tent_free(&f->t, &c->nodes[i], &fc, &fm, &fg);
		if (fifo_key(f, &c->nodes[i], fc, fm, fg, sh) == 0)
			return i;
	}
	return -1;
}

/* Place every executor `j` still wants, tentatively; false if one does
 * not fit.  The last one's node is not re-keyed (pol_ix_touch): no other
 * placement follows before the launch, whose change the index reads from
 * the cluster's log anyway. */
static bool place_all(struct fifo *f, const struct sim *s, const struct sim_job *j)
{
	pol_tent_reset(&f->t);
	int left = sim_execs_wanted(j);
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		struct pol_shape sh = {ro->cores ? ro->cores : CLU_MILLI, ro->mem_mib, ro->gpus,
				       ro->gpus ? 0 : ro->gpu_milli};
		for (int k = j->live->granted[r]; k < ro->count; k++) {
			int node = first_fit(f, sim_cluster(s), &sh);
			if (node < 0)
				return false;
			if (sh.gpu_milli)
				pol_tent_add_share(&f->t, &sim_cluster(s)->nodes[node], r, sh.cores,
						   sh.mem_mib, sh.gpu_milli);
			else
				pol_tent_add(&f->t, node, r, sh.cores, sh.mem_mib, sh.gpus);
			if (f->indexed && --left > 0)
				pol_ix_touch(&f->ix, node);
		}
	}
	return true;
}

/* blocking: false: every queued job in arrival order, each launched if
 * it fits now, passed over if not.  O(queue x executors x log nodes) a
 * decision; the scan stops once no core is free (every job asks at
 * least one milli-core). */
static void fifo_scan(struct fifo *f, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	for (int job = pol_jobset_first(&f->q); job >= 0 && c->free_cores > 0;) {
		int next = pol_jobset_next(&f->q, job);
		if (place_all(f, s, sim_job(s, job))) {
			pol_tent_launch(&f->t, s, job);
			pol_jobset_remove(&f->q, job);
		}
		job = next;
	}
}

static void fifo_schedule(void *st, struct sim *s)
{
	struct fifo *f = st;
	const struct clu *c = sim_cluster(s);
	if (f->scan) {
		fifo_scan(f, s);
		return;
	}
	for (int job = pol_jobset_first(&f->q); job >= 0;) {
		if (job == f->blocked && c->changes == f->blocked_at)
			return; /* still blocked, as at the last call */
		if (!place_all(f, s, sim_job(s, job))) {
			if (f->indexed) {
				f->blocked = job;
				f->blocked_at = c->changes;
			}
			return; /* head-of-line blocking */
		}
		pol_tent_launch(&f->t, s, job);
		pol_jobset_remove(&f->q, job);
		job = pol_jobset_next(&f->q, job); /* the new head */
		/* the record of the job after the new head was last read at its
		 * arrival, long ago: start loading it now, so that it is in the
		 * cache when that job comes to the head (else a miss per job,
		 * on a long queue the largest cost of a decision) */
		int after = job >= 0 ? pol_jobset_next(&f->q, job) : -1;
		if (after >= 0)
			PREFETCH(sim_job(s, after));
	}
}

/* A job that lost an executor asks for a replacement: it takes its place
 * in the queue again (by arrival), before any job that came after it. */
static void fifo_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	(void)s, (void)x, (void)why;
	pol_jobset_return(&((struct fifo *)st)->q, job);
}

static void fifo_fini(void *st)
{
	struct fifo *f = st;
	pol_jobset_free(&f->q);
	pol_fits_free(&f->fits);
	pol_tent_fini(&f->t);
	if (f->indexed)
		pol_ix_free(&f->ix);
	free(f);
}

static const struct pol_param fifo_params[] = {
	{.key = "blocking", .type = POL_BOOL, .def = "true",
	 .help = "true: the head blocks the queue while it does not fit; false: a job that "
		 "does not fit is passed over (the PAI simulator's FIFO)"},
	{.key = NULL},
};

const struct policy_ops pol_fifo = {
	.name = "fifo",
	.summary = "strict arrival order, whole job first fit in node order, head-of-line blocking",
	.params = fifo_params,
	.uses_labels = false,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.init = fifo_init,
	.job_arrived = fifo_arrived,
	.job_finished = fifo_finished,
	.schedule = fifo_schedule,
	.fini = fifo_fini,
	.exec_lost = fifo_exec_lost,
	.can_ever_place = fifo_can_ever_place,
};
