/* sparklog_info.c - what a read Spark event log says (sparklog.h): the
 * names of its rules and reasons, a stage's span and task quantiles, and
 * slog_info (`hetsim trace info` on a log).  It reads struct slog only,
 * never the reader (sparklog.c). */
#include "sparklog.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *slog_rule_what(enum slog_rule k)
{
	static const char *const what[SLOG_NRULES] = {
		[SLOG_APP_END_EARLY] = "application ends before its start",
		[SLOG_EXEC_UNKNOWN] = "removals of executors never added",
		[SLOG_EXEC_REMOVED_TWICE] = "removals of executors already removed",
		[SLOG_EXEC_REMOVED_EARLY] = "executor removals before the add",
		[SLOG_JOB_UNKNOWN] = "job ends of jobs never started",
		[SLOG_JOB_ENDED_TWICE] = "job ends of jobs already ended",
		[SLOG_JOB_END_EARLY] = "job ends before their submission",
		[SLOG_STAGE_UNSUBMITTED] = "stage completions of stages never submitted",
		[SLOG_STAGE_COMPLETED_TWICE] = "stage completions of stages already completed",
		[SLOG_STAGE_END_EARLY] = "stage completions before their submission",
		[SLOG_TASK_NO_STAGE] = "task ends of stages never submitted",
		[SLOG_TASK_NO_EXEC] = "task ends on executors never added",
		[SLOG_TASK_FINISH_EARLY] = "task ends finishing before their launch",
		[SLOG_TASK_METRIC] = "task time metrics outside [0, 2^31 - 1] ms",
	};
	return (unsigned)k < SLOG_NRULES ? what[k] : "?";
}

const char *slog_rule_action(enum slog_rule k)
{
	switch (k) {
	case SLOG_APP_END_EARLY:
	case SLOG_EXEC_REMOVED_EARLY:
	case SLOG_JOB_END_EARLY:
	case SLOG_STAGE_END_EARLY:
	case SLOG_TASK_FINISH_EARLY:
		return "clamped";
	case SLOG_TASK_NO_EXEC:
		return "executor added implicitly";
	case SLOG_TASK_METRIC:
		return "dropped";
	default:
		return "skipped";
	}
}

int slog_warning(const struct slog *l, char *buf, size_t len)
{
	int64_t n = 0, first = 0;
	for (int k = 0; k < SLOG_NRULES; k++)
		if (l->count[k]) {
			n += l->count[k];
			if (!first || l->first_line[k] < first)
				first = l->first_line[k];
		}
	if (!n)
		return 0;
	int w = snprintf(buf, len, "%s: %" PRId64 " inconsistent record%s (", l->path, n,
			 n == 1 ? "" : "s");
	const char *sep = "";
	for (int k = 0; k < SLOG_NRULES && w >= 0 && (size_t)w < len; k++)
		if (l->count[k]) {
			w += snprintf(buf + w, len - (size_t)w, "%s%" PRId64 " %s: %s", sep, l->count[k],
				      slog_rule_what((enum slog_rule)k),
				      slog_rule_action((enum slog_rule)k));
			sep = "; ";
		}
	if (w >= 0 && (size_t)w < len)
		snprintf(buf + w, len - (size_t)w, "), the first at line %" PRId64, first);
	return 1;
}

const char *slog_reason_name(enum slog_reason k)
{
	static const char *const names[SLOG_NREASONS] = {
		[SLOG_R_SUCCESS] = "Success", [SLOG_R_RESUBMITTED] = "Resubmitted",
		[SLOG_R_FETCH_FAILED] = "FetchFailed", [SLOG_R_EXCEPTION] = "ExceptionFailure",
		[SLOG_R_RESULT_LOST] = "TaskResultLost", [SLOG_R_KILLED] = "TaskKilled",
		[SLOG_R_COMMIT_DENIED] = "TaskCommitDenied",
		[SLOG_R_EXECUTOR_LOST] = "ExecutorLostFailure", [SLOG_R_UNKNOWN] = "UnknownReason",
	};
	return (unsigned)k < SLOG_NREASONS ? names[k] : "?";
}

struct slog_span slog_stage_span(const struct slog *l, int stage)
{
	const struct slog_stage *st = &l->stages[stage];
	struct slog_span s = {.logged_ms = -1, .first_launch_ms = -1, .last_finish_ms = -1,
			      .tasks = st->task_n};
	if (st->submit_ms >= 0 && st->end_ms >= 0)
		s.logged_ms = st->end_ms - st->submit_ms;
	for (int t = st->task_lo; t < st->task_lo + st->task_n; t++) {
		const struct slog_task *k = &l->tasks[t];
		if (s.first_launch_ms < 0 || k->launch_ms < s.first_launch_ms)
			s.first_launch_ms = k->launch_ms;
		if (s.last_finish_ms < 0 || k->finish_ms > s.last_finish_ms)
			s.last_finish_ms = k->finish_ms;
	}
	return s;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

double slog_stage_task_quantile(const struct slog *l, int stage, double p)
{
	const struct slog_stage *st = &l->stages[stage];
	int n = st->task_n;
	if (n == 0)
		return -1;
	int64_t *d = xmalloc((size_t)n * sizeof *d);
	for (int i = 0; i < n; i++)
		d[i] = l->tasks[st->task_lo + i].finish_ms - l->tasks[st->task_lo + i].launch_ms;
	qsort(d, (size_t)n, sizeof *d, cmp_i64);
	double pos = (n - 1) * p;
	int lo = (int)floor(pos);
	double q = lo + 1 < n ? d[lo] + (pos - lo) * (double)(d[lo + 1] - d[lo]) : (double)d[lo];
	free(d);
	return q;
}

/* ---- slog_info ----------------------------------------------------- */

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* A -1-for-unset figure as text. */
static const char *num_or_dash(double x, char *buf, size_t n)
{
	if (x < 0)
		return "-";
	snprintf(buf, n, "%g", x);
	return buf;
}

static const char *ms_or_dash(int64_t ms, char *buf, size_t n)
{
	if (ms < 0)
		return "-";
	snprintf(buf, n, "%" PRId64, ms);
	return buf;
}

struct xev {
	int64_t t;
	int d;       /* +1 added, -1 removed */
	int cores;
};

static int cmp_xev(const void *a, const void *b)
{
	const struct xev *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->d > y->d) - (x->d < y->d); /* removals first at a tie */
}

static void info_execs(FILE *out, const struct slog *l)
{
	int removed = 0, implicit = 0, gpus = 0, at_once = 0, now = 0;
	int64_t cores = 0, cores_now = 0, cores_at_once = 0;
	struct xev *ev = xmalloc((size_t)(2 * l->nexecs + 1) * sizeof *ev);
	int n = 0;
	bool *host_used = xcalloc((size_t)l->nhosts + 1, sizeof *host_used);
	int hosts = 0;
	for (int i = 0; i < l->nexecs; i++) {
		const struct slog_exec *e = &l->execs[i];
		removed += e->removed_ms >= 0;
		implicit += e->implicit;
		gpus += e->gpus;
		cores += e->cores;
		if (e->host >= 0 && !host_used[e->host]) {
			host_used[e->host] = true;
			hosts++;
		}
		ev[n++] = (struct xev){e->added_ms, 1, e->cores};
		if (e->removed_ms >= 0)
			ev[n++] = (struct xev){e->removed_ms, -1, e->cores};
	}
	qsort(ev, (size_t)n, sizeof *ev, cmp_xev);
	for (int i = 0; i < n; i++) {
		now += ev[i].d;
		cores_now += ev[i].d * ev[i].cores;
		if (now > at_once)
			at_once = now;
		if (cores_now > cores_at_once)
			cores_at_once = cores_now;
	}
	fprintf(out, "executors: %d added (%d implicitly), %d removed, at most %d at once "
		"(%" PRId64 " cores); %d hosts, %" PRId64 " cores, %d GPUs in all\n",
		l->nexecs, implicit, removed, at_once, cores_at_once, hosts, cores, gpus);
	free(ev);
	free(host_used);
}

static void info_counts(FILE *out, const struct slog *l)
{
	int jobs_ok = 0, jobs_ended = 0;
	for (int j = 0; j < l->njobs; j++) {
		jobs_ended += l->jobs[j].end_ms >= 0;
		jobs_ok += l->jobs[j].result && !strcmp(l->jobs[j].result, "JobSucceeded");
	}
	fprintf(out, "jobs: %d (%d succeeded, %d failed, %d without an end)\n", l->njobs, jobs_ok,
		jobs_ended - jobs_ok, l->njobs - jobs_ended);
	int sub = 0, done = 0, failed = 0;
	for (int i = 0; i < l->nstages; i++) {
		const struct slog_stage *st = &l->stages[i];
		sub += st->submitted;
		done += st->completed;
		failed += st->completed && st->failure;
	}
	fprintf(out, "stages: %d submitted (%d completed, %d of them failed), %d never submitted "
		"(listed by a job, skipped)\n", sub, done, failed, l->nstages - sub);
	int ok = 0, tf = 0, tk = 0, spec = 0;
	for (int t = 0; t < l->ntasks; t++) {
		unsigned f = l->tasks[t].flags;
		tk += (f & SLOG_KILLED) != 0;
		tf += (f & SLOG_FAILED) && !(f & SLOG_KILLED);
		ok += !(f & (SLOG_FAILED | SLOG_KILLED));
		spec += (f & SLOG_SPECULATIVE) != 0;
	}
	fprintf(out, "tasks: %d ended (%d succeeded, %d failed, %d killed, %d speculative), "
		"%" PRId64 " started\n", l->ntasks, ok, tf, tk, spec, l->task_starts);
}

static void info_stages(FILE *out, const struct slog *l)
{
	fprintf(out, "%6s %7s %6s %11s %9s %9s %9s %9s  %s\n", "stage", "attempt", "tasks",
		"logged_ms", "span_ms", "p50_ms", "p95_ms", "max_ms", "name");
	for (int i = 0; i < l->nstages; i++) {
		const struct slog_stage *st = &l->stages[i];
		if (!st->submitted)
			continue;
		struct slog_span s = slog_stage_span(l, i);
		char logged[24] = "-", span[24] = "-", p50[24] = "-", p95[24] = "-", max[24] = "-";
		if (s.logged_ms >= 0)
			snprintf(logged, sizeof logged, "%" PRId64, s.logged_ms);
		if (s.tasks) {
			snprintf(span, sizeof span, "%" PRId64, s.last_finish_ms - s.first_launch_ms);
			snprintf(p50, sizeof p50, "%.1f", slog_stage_task_quantile(l, i, 0.5));
			snprintf(p95, sizeof p95, "%.1f", slog_stage_task_quantile(l, i, 0.95));
			snprintf(max, sizeof max, "%.0f", slog_stage_task_quantile(l, i, 1));
		}
		fprintf(out, "%6d %7d %6d %11s %9s %9s %9s %9s  %s\n", st->id, st->attempt, s.tasks,
			logged, span, p50, p95, max, or_dash(st->name));
	}
}

int slog_info(FILE *out, const struct slog *l)
{
	char b1[32], b2[32], b3[32], b4[32];
	const struct slog_app *a = &l->app;
	const struct slog_env *e = &l->env;
	fprintf(out, "file: %s (Spark event log, JSON lines%s; %" PRId64 " lines, %" PRId64
		" events, %" PRId64 " of kinds not read)\n", l->path,
		l->compressed ? ", zstd-compressed" : "", l->lines, l->events, l->other_events);
	fprintf(out, "spark: %s\n", or_dash(a->spark_version));
	fprintf(out, "app: %s, id %s, user %s\n", or_dash(a->name), or_dash(a->id), or_dash(a->user));
	if (a->start_ms >= 0 && a->end_ms >= 0)
		fprintf(out, "time: %" PRId64 " to %" PRId64 " ms (%.3f s)\n", a->start_ms, a->end_ms,
			(double)(a->end_ms - a->start_ms) / 1000);
	else
		fprintf(out, "time: %s to %s ms\n", ms_or_dash(a->start_ms, b1, sizeof b1),
			ms_or_dash(a->end_ms, b2, sizeof b2));
	fprintf(out, "config: master %s, executor cores %s, task cpus %s, executor gpus %s, "
		"task gpus %s, dynamic allocation %s\n", or_dash(e->master),
		num_or_dash(e->executor_cores, b1, sizeof b1), num_or_dash(e->task_cpus, b2, sizeof b2),
		num_or_dash(e->executor_gpus, b3, sizeof b3), num_or_dash(e->task_gpus, b4, sizeof b4),
		e->dyn_alloc < 0 ? "-" : e->dyn_alloc ? "true" : "false");
	for (int i = 0; i < l->nprofiles; i++) {
		const struct slog_profile *p = &l->profiles[i];
		char b5[32], b6[32];
		fprintf(out, "profile %d: executor %s cores, %s MiB + %s MiB overhead, %s GPUs; "
			"task %s cpus, %s GPUs\n", p->id,
			num_or_dash((double)p->exec_cores, b1, sizeof b1),
			num_or_dash((double)p->exec_mem_mib, b2, sizeof b2),
			num_or_dash((double)p->exec_overhead_mib, b3, sizeof b3),
			num_or_dash((double)p->exec_gpus, b4, sizeof b4),
			num_or_dash(p->task_cpus, b5, sizeof b5), num_or_dash(p->task_gpus, b6, sizeof b6));
	}
	info_execs(out, l);
	info_counts(out, l);
	info_stages(out, l);
	int64_t any = 0;
	for (int k = 0; k < SLOG_NRULES; k++)
		any += l->count[k];
	fprintf(out, "records skipped or clamped:%s\n", any ? "" : " none");
	for (int k = 0; k < SLOG_NRULES; k++)
		if (l->count[k])
			fprintf(out, "  %" PRId64 " %s: %s (first at line %" PRId64 ")\n", l->count[k],
				slog_rule_what((enum slog_rule)k), slog_rule_action((enum slog_rule)k),
				l->first_line[k]);
	return ferror(out) ? -1 : 0;
}
