/* scn_check.c - the checks after loading, on the whole scenario: the job
 * models' own checks (a cost model for their kernels), the time scale a
 * run can reach, and the memory a run would hold.  Each writes one
 * "file:line:col: message" into err.
 *
 * It may call the memory estimates (scn_mem.c) and the job models
 * (workloads/).
 */
#include "scn_int.h"

#include "sim.h"
#include "sparklog.h"
#include "workload.h"


/* Refuse a scenario whose run would not fit in the memory a load may
 * plan for (scn_max_memory).  The estimate is kept in s->run_bytes,
 * refused or not: a sweep multiplies it by its runs at once. */
int scn_check_run_memory(struct scn *s, const long long *tasks, char *err,
			    size_t errlen)
{
	const char *whose;
	char what[256], a[32], l[32];
	int g;
	int64_t need = s->run_bytes = scn_run_bytes(s, tasks, what, sizeof what, &g);
	int64_t limit = scn_memory_limit(&whose);
	if (limit < 0 || need <= limit)
		return 0;
	const struct scn_pos *p = g >= 0 ? &s->jobs[g].pos : NULL;
	snprintf(err, errlen, "%s:%d:%d: a run would hold about %s (most of it %s), above the %s "
		 "%s: fewer or smaller jobs, or --max-memory SIZE", p ? p->file : s->path,
		 p ? p->line : 1, p ? p->col : 1, scn_mem_text((double)need, a), what,
		 scn_mem_text((double)limit, l), whose);
	return -1;
}

/* Each job group's model's checks of the whole scenario (its cost-model
 * kernels, ...). */
int scn_model_checks(const struct scn *s, char *err, size_t errlen)
{
	for (int g = 0; g < s->njobgroups; g++) {
		const struct job_model *m = s->jobs[g].model;
		if (m->check && m->check(s, g, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* Whether a job group's tasks, under the cost model, fit the simulated
 * clock (SIM_TIME_MAX, about 35.7 years): its first job's DAG is built
 * as a run would build it, and a task longer than the clock, or the
 * group's work over every core of the cluster longer than it, is refused
 * at the coefficient behind it (or the group), before a run fails late
 * without a position (issue 19); so is a model's timed phase
 * (job_model.longest_us).  tasks[g] gets the tasks of a job of group g:
 * the model's count where it has one, else the DAG's.  -1 with the
 * message in err. */
int scn_check_time_scale(const struct scn *s, long long *tasks, char *err, size_t errlen)
{
	double cores = 0;
	for (int i = 0; i < s->ngroups; i++)
		cores += (double)s->groups[i].count * s->groups[i].cores; /* (whole cores) */
	struct arena a;
	arena_init(&a);
	int rc = 0;
	for (int g = 0; g < s->njobgroups && !rc; g++) {
		const struct scn_job_group *j = &s->jobs[g];
		if (j->model && j->model->tasks)
			tasks[g] = j->model->tasks(j); /* a trace's: its jobs' mean */
		if (!j->ops || j->trace)
			continue; /* (a trace's times are bounded by its importer) */
		struct sim_dag d = {0};
		struct wl_cost_max w;
		arena_reset(&a);
		wl_cost_watch(&w); /* the coefficients behind the longest task */
		if (j->ops->build)
			sim_build_dag(s, g, 0, s->seed, &a, &d);
		for (int k = 0; k < d.nstages && !(j->model && j->model->tasks); k++)
			tasks[g] += d.st[k].ntasks; /* (the model's count, where it has one) */
		double longest = 0, work = 0;
		for (int k = 0; k < d.nstages; k++)
			for (int t = 0; t < d.st[k].ntasks; t++) {
				double x = d.st[k].work_us[t];
				longest = x > longest ? x : longest;
				work += x;
			}
		const char *what = "a task would take";
		struct wl_cost_max w2;
		double phase = 0;
		if (j->model && j->model->longest_us) {
			wl_cost_watch(&w2);
			phase = j->model->longest_us(s, g);
			if (phase > longest) {
				longest = phase;
				w = w2;
				what = j->model->longest_what;
			}
		}
		wl_cost_watch(NULL);
		double span = cores > 0 ? work * j->count / cores : 0;
		if (longest > (double)SIM_TIME_MAX && w.d) {
			/* the term that makes it: the slope's (x the work) or the intercept */
			bool slope = w.d->slope_us * w.work >= w.d->intercept_us;
			const struct scn_pos *at = slope ? &w.d->slope_at : &w.d->intercept_at;
			char why[96];
			if (slope)
				snprintf(why, sizeof why, "%.6g %s x this slope", w.work,
					 w.k->unit ? w.k->unit : "units");
			else
				snprintf(why, sizeof why, "this intercept alone");
			snprintf(err, errlen, "%s:%d:%d: the %s of kernel '%s' on %s puts job group '%s' "
				 "past the simulated clock's %.1f years: %s %.3g s (%s); the coefficient "
				 "is out of scale", at->file, at->line, at->col,
				 slope ? "slope" : "intercept", w.k->name, w.d->device, j->name,
				 (double)SIM_TIME_MAX / 1e6 / 31557600, what, longest / 1e6, why);
			rc = -1;
		} else if (longest > (double)SIM_TIME_MAX || span > (double)SIM_TIME_MAX) {
			snprintf(err, errlen, "%s:%d:%d: job group '%s': %s %.3g s under the cost model "
				 "%s, past the simulated clock's %.1f years: its coefficients (or the "
				 "group's sizes) are out of scale", j->pos.file, j->pos.line, j->pos.col,
				 j->name, longest > (double)SIM_TIME_MAX ? what
				 : "its work over every core would take",
				 (longest > (double)SIM_TIME_MAX ? longest : span) / 1e6,
				 s->cost.builtin ? "(the built-in default)"
				 : s->cost.path ? s->cost.path : "of the scenario",
				 (double)SIM_TIME_MAX / 1e6 / 31557600);
			rc = -1;
		}
	}
	arena_free(&a);
	return rc;
}
