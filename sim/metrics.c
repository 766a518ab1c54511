/* metrics.c - figures of one finished run. */
#include "metrics.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "util.h"

double met_quantile(const double *sorted, int n, double p)
{
	return n ? gsl_stats_quantile_from_sorted_data(sorted, 1, (size_t)n, p) : NAN;
}

/* A JCT's key: sorting keys sorts JCTs (the type is the lowest bits),
 * and each key says its job's type. */
_Static_assert(SCN_MAX_MODELS <= 1 << MET_TYPE_BITS, "a key holds every type");
_Static_assert(SIM_TIME_MAX <= INT64_MAX >> MET_TYPE_BITS, "a key holds every JCT");
#define TYPE_MASK ((1 << MET_TYPE_BITS) - 1)

void met_acc_init(struct met_acc *a, const struct sim *s)
{
	const struct scn *sc = sim_scenario(s);
	int n = sim_njobs(s), warm = sc->warmup_jobs;
	size_t cap = (size_t)(n > warm ? n - warm : 1);
	/* JCTs of done jobs, as keys in µs (above), sorted as integers
	 * (sort_i64) and then converted in place: the conversion is
	 * monotone, so this is the sorted array of seconds that sorting
	 * doubles gave.  One array of 8 bytes a job and its sort's scratch:
	 * for 10^6 jobs, fresh memory is dear to touch in a virtual machine,
	 * so the scratch is touched here, by whoever calls init (hetsim run:
	 * its writer thread, during the run), not by the sort at the end. */
	_Static_assert(sizeof(union met_jct) == sizeof(int64_t), "a JCT is 8 bytes either way");
	*a = (struct met_acc){.jct = xmalloc(cap * sizeof *a->jct),
			      .tmp = xmalloc(cap * sizeof *a->tmp), .next = warm};
	memset(a->tmp, 0, cap * sizeof *a->tmp);
	a->m.jobs = n;
	for (int g = 0; g < sc->njobgroups; g++) /* a job's type is its group's */
		a->m.type[sc->jobs[g].type].jobs += sc->jobs[g].count;
}

/* The JCTs are kept as sorted runs, one per call of met_acc_jobs, and
 * merged as they come, much as the digits of a binary counter: while the
 * last run is at least half as long as the one before, the two become
 * one.
 * Fed batch by batch during a run (hetsim run's writer thread), the sort
 * is then done in the background, O(log) merges per JCT, and finishing
 * takes one last cascade over at most log2(batches) runs, where sorting
 * a million JCTs at the end took 15 ms.  Fed all at once (met_compute),
 * it is one sort_i64, as before.  The sorted values are the same either
 * way, and so is every figure. */
static void merge_last_two(struct met_acc *a)
{
	int64_t *v = &a->jct->key, *t = &a->tmp->key;
	size_t lo = (size_t)a->run[a->nruns - 2], mid = (size_t)a->run[a->nruns - 1],
	       hi = (size_t)a->njct, i = lo, j = mid, k = lo;
	while (i < mid && j < hi) { /* branch-free: the outcome is random */
		bool right = v[j] < v[i];
		t[k++] = right ? v[j] : v[i];
		j += right;
		i += !right;
	}
	while (i < mid)
		t[k++] = v[i++];
	while (j < hi)
		t[k++] = v[j++];
	memcpy(v + lo, t + lo, (hi - lo) * sizeof *v);
	a->nruns--;
}

/* Sort the JCTs added since the last run into a run of their own. */
static void add_run(struct met_acc *a, int from)
{
	if (a->njct == from)
		return;
	sort_i64(&a->jct[from].key, &a->tmp[from].key, (size_t)(a->njct - from));
	a->run[a->nruns++] = from;
	/* each run less than half the one before: at most 32 of them */
	while (a->nruns >= 2 && 2 * (int64_t)(a->njct - a->run[a->nruns - 1]) >=
				       a->run[a->nruns - 1] - a->run[a->nruns - 2])
		merge_last_two(a);
}

void met_acc_jobs(struct met_acc *a, const struct sim *s, int to)
{
	int from = a->njct;
	struct met_run *m = &a->m;
	for (int i = a->next; i < to; i++) {
		const struct sim_job *j = sim_job(s, i);
		struct met_type *y = &m->type[j->type];
		m->counted++;
		m->done += j->status == JOB_DONE;
		m->failed += j->status == JOB_FAILED;
		m->timed_out += j->status == JOB_TIMED_OUT;
		m->unplaceable += j->status == JOB_UNPLACEABLE;
		y->counted++;
		y->done += j->status == JOB_DONE;
		y->failed += j->status == JOB_FAILED;
		y->timed_out += j->status == JOB_TIMED_OUT;
		y->unplaceable += j->status == JOB_UNPLACEABLE;
		if (j->status == JOB_DONE) {
			a->jct[a->njct++].key = ((j->end_us - j->arrival_us) << MET_TYPE_BITS) | j->type;
			/* splitmix64's finaliser of the index: a set's sum */
			uint64_t z = (uint64_t)i + 0x9e3779b97f4a7c15u;
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
			m->done_set += z ^ (z >> 31);
		}
		else
			m->why[sim_job_why(s, i)]++;
		if (j->start_us >= 0) {
			double w = (double)(j->start_us - j->arrival_us) / US_PER_S;
			a->wait += w;
			a->nwait++;
			a->type_wait[j->type] += w;
			a->type_nwait[j->type]++;
		}
	}
	if (to > a->next)
		a->next = to;
	add_run(a, from);
}

/* The JCT figures of n sorted JCTs (s); NaN for n = 0. */
static void jct_figures(const double *sec, int n, double *mean, double *p50, double *p95,
			double *p99)
{
	*mean = n ? gsl_stats_mean(sec, 1, (size_t)n) : NAN;
	*p50 = met_quantile(sec, n, 0.50);
	*p95 = met_quantile(sec, n, 0.95);
	*p99 = met_quantile(sec, n, 0.99);
}

/* The slowdown and bounded slowdown figures of the done, counted jobs,
 * sorted in a's arrays (free by now: the JCT figures are taken).  A
 * positive double's bits sort as the double does, so they sort as
 * integers. */
static void slowdowns(struct met_acc *a, const struct sim *s, struct met_run *m)
{
	for (int pass = 0; pass < 2; pass++) {
		int n = 0;
		for (int i = sim_scenario(s)->warmup_jobs; i < sim_njobs(s); i++) {
			const struct sim_job *j = sim_job(s, i);
			if (j->status != JOB_DONE)
				continue;
			double flow = (double)(j->end_us - j->arrival_us) / US_PER_S;
			double run = (double)(j->end_us - j->start_us) / US_PER_S;
			double x = pass ? fmax(1, flow / fmax(run, MET_BSLD_TAU_S))
					: run > 0 ? flow / run : 1;
			memcpy(&a->jct[n++].key, &x, sizeof x);
		}
		sort_i64(&a->jct->key, &a->tmp->key, (size_t)n);
		for (int k = 0; k < n; k++) {
			double x;
			memcpy(&x, &a->jct[k].key, sizeof x);
			a->jct[k].s = x;
		}
		jct_figures(&a->jct->s, n, pass ? &m->bsld_mean : &m->slowdown_mean,
			    pass ? &m->bsld_p50 : &m->slowdown_p50,
			    pass ? &m->bsld_p95 : &m->slowdown_p95,
			    pass ? &m->bsld_p99 : &m->slowdown_p99);
	}
}

void met_acc_finish(struct met_acc *a, const struct sim *s, struct met_run *m)
{
	met_acc_jobs(a, s, sim_njobs(s));
	const struct sim_totals *t = sim_totals(s);
	const struct clu *c = sim_cluster(s);
	*m = a->m;
	int njct = a->njct;
	union met_jct *jct = a->jct, *by = a->tmp;
	while (a->nruns > 1)
		merge_last_two(a);
	/* seconds in place, and each model's JCTs, in the same order, into
	 * the scratch: model k's from[k] .. from[k] + done, sorted too */
	int from[SCN_MAX_MODELS], at[SCN_MAX_MODELS], sum = 0;
	for (int k = 0; k < SCN_MAX_MODELS; k++) {
		from[k] = at[k] = sum;
		sum += m->type[k].done;
	}
	for (int i = 0; i < njct; i++) {
		int64_t key = jct[i].key;
		double sec = (double)(key >> MET_TYPE_BITS) / US_PER_S;
		by[at[key & TYPE_MASK]++].s = sec;
		jct[i].s = sec;
	}
	jct_figures(&jct->s, njct, &m->jct_mean_s, &m->jct_p50_s, &m->jct_p95_s, &m->jct_p99_s);
	m->wait_mean_s = a->nwait ? a->wait / a->nwait : NAN;
	for (int k = 0; k < SCN_MAX_MODELS; k++) {
		struct met_type *y = &m->type[k];
		jct_figures(&by[from[k]].s, y->done, &y->jct_mean_s, &y->jct_p50_s, &y->jct_p95_s,
			    &y->jct_p99_s);
		y->wait_mean_s = a->type_nwait[k] ? a->type_wait[k] / a->type_nwait[k] : NAN;
	}
	slowdowns(a, s, m);
	met_acc_free(a);

	/* no job done: the batch never finished, whatever ended (a policy
	 * whose jobs all timed out must not look fastest) */
	m->makespan_s = t->jobs_done > 0
				? (double)(t->last_end_us - t->first_arrival_us) / US_PER_S : NAN;
	/* utilisation over the span of the run; the integrals stop at the
	 * last event, which is the last end unless jobs were never placed */
	double run_span = sim_njobs(s) ? (double)(sim_now(s) - t->first_arrival_us) : 0;
	m->cpu_util = m->cpu_alloc = m->gpu_util = m->gpu_alloc = m->mem_alloc = NAN;
	if (run_span > 0 && c->total_mem_mib)
		m->mem_alloc = t->mem_alloc_us / (run_span * (double)c->total_mem_mib);
	if (run_span > 0 && c->total_cores) {
		/* the integrals are in cores, the cluster's total in milli-cores */
		double cores = (double)c->total_cores / CLU_MILLI;
		m->cpu_util = t->core_busy_us / (run_span * cores);
		m->cpu_alloc = t->core_alloc_us / (run_span * cores);
	}
	if (run_span > 0 && c->total_gpus) {
		m->gpu_util = t->gpu_busy_us / (run_span * (double)c->total_gpus);
		m->gpu_alloc = t->gpu_alloc_us / (run_span * (double)c->total_gpus);
	}
	m->events = t->events;
	m->decisions = t->decisions;
	m->lost_core_s = t->lost_core_us / US_PER_S;
	m->lost_gpu_s = t->lost_gpu_us / US_PER_S;
	m->tasks_retried = t->tasks_retried;
	m->execs_lost = t->execs_lost;
	m->preemptions = t->preemptions;
	m->node_availability = run_span > 0 && c->n
				       ? 1 - t->node_down_us / (run_span * (double)c->n) : NAN;
	m->spec_launched = t->spec_launched;
	m->spec_won = t->spec_won;
}

void met_acc_free(struct met_acc *a)
{
	free(a->jct);
	free(a->tmp);
	*a = (struct met_acc){0};
}

void met_compute(const struct sim *s, struct met_run *m)
{
	struct met_acc a;
	met_acc_init(&a, s);
	met_acc_finish(&a, s, m);
}
