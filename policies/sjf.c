/* sjf.c - shortest job first, non-preemptive.
 *
 * The waiting jobs in increasing order of their run-time estimate
 * (sim_job_estimate: `estimate: actual`, the run time at speed 1, an
 * oracle; `requested`, the user's requested time, SWF field 9, or a trace
 * column named by the trace's `estimate`), ties and jobs without an
 * estimate (last) in arrival order, or with `ties: number` by the job's
 * number in its source (sim_job_number: the PAI simulator sorts by
 * (estimate, job_id), scheduler.py alloc_job_sort), then arrival.  At each decision
 * every waiting job in that order gets all its executors at once, first
 * fit in node order as fifo places them, if they fit now; one that does
 * not fit is passed over (no reservation: a long job can starve behind a
 * stream of short ones, as SJF allows).  Labels are ignored.
 *
 * Cost: O(log waiting) to queue a job (an ordered set per class of
 * what jobs want, pol_wclass.h); a decision a k-way merge of the
 * classes (pol_wwalk_*), O((t + l + p x l) log waiting), t the classes
 * tried, l the launches, p the classes of two roles that failed and
 * still hold a job (0 where every job is its own demand), O(log
 * waiting) once the cluster's free sums fit no class; each executor
 * placed through a node index (pol_firstfit.h), O(log64 nodes); past
 * its 32 shapes a scan, a job's next try after a miss only of the nodes
 * changed since, O(changes since).  clu_plain_scan (the reference): a
 * sorted array, O(waiting) to queue, O(waiting x executors x nodes) a
 * decision (docs/policies/sjf.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "pol_firstfit.h"
#include "pol_oset.h"
#include "pol_wclass.h"
#include "registry.h"
#include "sim.h"
#include "util.h"

struct wait {
	int64_t est;   /* INT64_MAX: none */
	int64_t num;   /* ties: number: the job's number in its source; else 0 */
	int job;
};

struct sjf {
	struct pol_fits fits;
	struct pol_tent t;
	struct pol_ff ff;              /* first fit through a node index */
	bool requested;
	bool by_number;               /* ties: number */
	struct wait *w; int n, cap;   /* waiting, sorted by (est, num, job); with
					 the classes (indexed), only n counts */
	bool indexed;                 /* false with clu_plain_scan: the sorted
					 array, every job tried */
	struct pol_oset pool;         /* by job: its key (est, num, job) */
	struct pol_wclasses cls;      /* the waiting jobs by what they want */
	int *cls_of;                  /* by job: its class while waiting, -1 */
	uint64_t idle_at;             /* cluster changes at the last call that
					 started nothing, with n then */
	int idle_n;
};

static void *sjf_init(struct sim *s, const struct scn_policy *cfg)
{
	struct sjf *p = xcalloc(1, sizeof *p);
	pol_fits_init(&p->fits, s, pol_whole_verdict, cfg);
	pol_tent_init(&p->t, sim_cluster(s)->n);
	pol_ff_init(&p->ff, s, &p->t);
	p->requested = strcmp(pol_param_value(&pol_sjf, cfg, "estimate"), "requested") == 0;
	p->by_number = strcmp(pol_param_value(&pol_sjf, cfg, "ties"), "number") == 0;
	p->idle_n = -1;
	p->indexed = !clu_plain_scan;
	if (p->indexed) {
		int nj = sim_njobs(s) ? sim_njobs(s) : 1;
		pol_oset_init(&p->pool, nj);
		pol_wclasses_init(&p->cls, &p->pool);
		p->cls_of = xmalloc((size_t)nj * sizeof *p->cls_of);
		for (int i = 0; i < nj; i++)
			p->cls_of[i] = -1;
	}
	return p;
}

static bool before(const struct wait *a, const struct wait *b)
{
	return a->est < b->est ||
	       (a->est == b->est && (a->num < b->num || (a->num == b->num && a->job < b->job)));
}

static void enqueue(struct sjf *p, const struct sim *s, int job)
{
	int64_t req, act;
	sim_job_estimate(s, sim_job(s, job), &req, &act);
	int64_t e = p->requested ? req : act;
	struct wait w = {e >= 0 ? e : INT64_MAX, p->by_number ? sim_job_number(s, sim_job(s, job)) : 0,
			 job};
	if (p->indexed) { /* into its class, by the same order */
		int k = pol_wclass_of(&p->cls, sim_job(s, job), false);
		pol_oset_insert(&p->pool, &p->cls.c[k].root, job, (struct pol_okey){w.est, w.num, job});
		pol_wclass_count(&p->cls, k, +1);
		p->cls_of[job] = k;
		p->n++;
		return;
	}
	xgrow(&p->w, &p->cap, p->n + 1, sizeof *p->w);
	int i = p->n;
	while (i > 0 && before(&w, &p->w[i - 1])) {
		p->w[i] = p->w[i - 1];
		i--;
	}
	p->w[i] = w;
	p->n++;
}

static void dequeue(struct sjf *p, int job)
{
	if (p->indexed) {
		int k = p->cls_of[job];
		if (k >= 0) {
			pol_oset_remove(&p->pool, &p->cls.c[k].root, job);
			pol_wclass_count(&p->cls, k, -1);
			p->cls_of[job] = -1;
			p->n--;
		}
		return;
	}
	for (int i = 0; i < p->n; i++)
		if (p->w[i].job == job) {
			memmove(p->w + i, p->w + i + 1, (size_t)(p->n - i - 1) * sizeof *p->w);
			p->n--;
			return;
		}
}

static void sjf_arrived(void *st, struct sim *s, int job)
{
	struct sjf *p = st;
	int why = pol_fits_arrived(&p->fits, s, sim_job(s, job));
	if (why) {
		sim_reject_job(s, job, why);
		return;
	}
	enqueue(p, s, job);
}

static void sjf_finished(void *st, struct sim *s, int job)
{
	(void)s;
	dequeue(st, job);
}


/* The scan's pass through the classes: the waiting jobs in order, a
 * k-way merge of the classes by their next job (pol_wwalk_*), a class
 * known not to fit passed over whole (pol_wclass.h): O((c + l) log
 * waiting) a pass, c the classes holding a job, l the launches. */
static bool pass_classes(struct sjf *p, struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	struct pol_okey cur = {INT64_MIN, INT64_MIN, INT64_MIN};
	bool any = false;
	int job, k;
	pol_wwalk_begin(&p->cls, c);
	while ((job = pol_wwalk_next(&p->cls, c, &cur, &k)) >= 0) {
		cur = p->pool.key[job];
		cur.c++; /* strictly after it: keys end with the job */
		if (pol_ff_place(&p->ff, s, sim_job(s, job), -1)) {
			pol_tent_launch(&p->t, s, job);
			dequeue(p, job);
			pol_wwalk_launched(&p->cls, &cur, k, -1);
			any = true;
		} else {
			pol_wwalk_failed(&p->cls, c, &cur, k);
		}
	}
	pol_wwalk_end(&p->cls, c);
	return any;
}

static void sjf_schedule(void *st, struct sim *s)
{
	struct sjf *p = st;
	const struct clu *c = sim_cluster(s);
	if (c->changes == p->idle_at && p->n == p->idle_n)
		return; /* the same free amounts and waiting jobs: nothing fits */
	bool any = false;
	if (p->indexed)
		any = pass_classes(p, s);
	for (int i = 0; !p->indexed && i < p->n;) {
		int job = p->w[i].job;
		if (pol_ff_place(&p->ff, s, sim_job(s, job), -1)) {
			pol_tent_launch(&p->t, s, job);
			memmove(p->w + i, p->w + i + 1, (size_t)(p->n - i - 1) * sizeof *p->w);
			p->n--;
			any = true;
		} else {
			i++;
		}
	}
	if (!any) {
		p->idle_at = c->changes;
		p->idle_n = p->n;
	}
}

/* A job that lost an executor asks for a replacement: waiting again, at
 * its estimate's place. */
static void sjf_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	(void)x, (void)why;
	struct sjf *p = st;
	dequeue(p, job);
	enqueue(p, s, job);
}

static void sjf_fini(void *st)
{
	struct sjf *p = st;
	pol_fits_free(&p->fits);
	pol_ff_free(&p->ff);
	pol_tent_fini(&p->t);
	free(p->w);
	if (p->indexed) {
		pol_oset_free(&p->pool);
		pol_wclasses_free(&p->cls);
		free(p->cls_of);
	}
	free(p);
}

static const char *const estimates[] = {"actual", "requested", NULL};
static const char *const ties[] = {"arrival", "number", NULL};

static const struct pol_param sjf_params[] = {
	{.key = "estimate", .type = POL_CHOICE, .choices = estimates, .def = "actual",
	 .help = "the order's key: the actual run time (an oracle) or the requested time "
		 "(SWF field 9, or the trace's estimate column); a job without one comes last"},
	{.key = "ties", .type = POL_CHOICE, .choices = ties, .def = "arrival",
	 .help = "equal estimates in arrival order, or by the job's number in its source "
		 "(a trace's job id: the PAI simulator's (estimate, job_id) order)"},
	{.key = NULL},
};

const struct policy_ops pol_sjf = {
	.name = "sjf",
	.summary = "shortest job first by estimate, whole job first fit, no reservation",
	.params = sjf_params,
	.uses_labels = false,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.needs = POL_NEED_ESTIMATES,
	.init = sjf_init,
	.job_arrived = sjf_arrived,
	.job_finished = sjf_finished,
	.schedule = sjf_schedule,
	.fini = sjf_fini,
	.exec_lost = sjf_exec_lost,
	.can_ever_place = pol_whole_verdict,
};
