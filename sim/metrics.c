/* metrics.c - figures of one finished run. */
#include "metrics.h"

#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "util.h"

double met_quantile(const double *sorted, int n, double p)
{
	return n ? gsl_stats_quantile_from_sorted_data(sorted, 1, (size_t)n, p) : 0.0;
}

void met_compute(const struct sim *s, struct met_run *m)
{
	const struct sim_totals *t = sim_totals(s);
	const struct clu *c = sim_cluster(s);
	int n = sim_njobs(s), warm = sim_scenario(s)->warmup_jobs;
	/* JCTs of done jobs, in µs, sorted as integers (sort_i64) and then
	 * converted in place: the conversion is monotone, so this is the
	 * sorted array of seconds that sorting doubles gave.  One array of
	 * 8 bytes a job and its sort's scratch: for 10^6 jobs, fresh memory
	 * is dear to touch in a virtual machine. */
	union jct { int64_t us; double s; } *jct = xmalloc((size_t)(n ? n : 1) * sizeof *jct);
	double wait = 0;
	int nwait = 0, njct = 0;
	memset(m, 0, sizeof *m);
	m->jobs = n;
	for (int i = warm; i < n; i++) {
		const struct sim_job *j = sim_job(s, i);
		m->counted++;
		m->done += j->status == JOB_DONE;
		m->failed += j->status == JOB_FAILED;
		m->timed_out += j->status == JOB_TIMED_OUT;
		m->unplaceable += j->status == JOB_UNPLACEABLE;
		if (j->status == JOB_DONE) {
			jct[njct++].us = j->end_us - j->arrival_us;
			m->jct_type_s[j->type] += (double)(j->end_us - j->arrival_us) / US_PER_S;
			m->done_type[j->type]++;
		}
		if (j->start_us >= 0) {
			wait += (double)(j->start_us - j->arrival_us) / US_PER_S;
			nwait++;
		}
	}
	_Static_assert(sizeof(union jct) == sizeof(int64_t), "a JCT is 8 bytes either way");
	int64_t *tmp = xmalloc((size_t)(njct ? njct : 1) * sizeof *tmp);
	sort_i64(&jct->us, tmp, (size_t)njct);
	free(tmp);
	for (int i = 0; i < njct; i++)
		jct[i].s = (double)jct[i].us / US_PER_S;
	const double *sec = &jct->s;
	m->jct_mean_s = njct ? gsl_stats_mean(sec, 1, (size_t)njct) : 0.0;
	m->jct_p50_s = met_quantile(sec, njct, 0.50);
	m->jct_p95_s = met_quantile(sec, njct, 0.95);
	m->jct_p99_s = met_quantile(sec, njct, 0.99);
	m->wait_mean_s = nwait ? wait / nwait : 0.0;
	for (int t = 0; t < SCN_JOB_TYPES; t++)
		if (m->done_type[t])
			m->jct_type_s[t] /= m->done_type[t];
	free(jct);

	double span = t->last_end_us > t->first_arrival_us
			      ? (double)(t->last_end_us - t->first_arrival_us) : 0.0;
	m->makespan_s = span / US_PER_S;
	/* utilisation over the span of the run; the integrals stop at the
	 * last event, which is the last end unless jobs were never placed */
	double run_span = (double)(sim_now(s) - t->first_arrival_us);
	if (run_span > 0 && c->total_cores) {
		m->cpu_util = t->core_busy_us / (run_span * (double)c->total_cores);
		m->cpu_alloc = t->core_alloc_us / (run_span * (double)c->total_cores);
	}
	if (run_span > 0 && c->total_gpus) {
		m->gpu_util = t->gpu_busy_us / (run_span * (double)c->total_gpus);
		m->gpu_alloc = t->gpu_alloc_us / (run_span * (double)c->total_gpus);
	}
	m->events = t->events;
	m->decisions = t->decisions;
}
