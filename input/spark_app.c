/* spark_app.c - a Spark application from its event log (spark_app.h). */
#include "spark_app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "scn_app.h"
#include "sparklog.h"
#include "sim.h"
#include "util.h"

#define MS_US 1000
#define W 4 /* int64s a task's record: index, work, executor, locality */
#define SIM_MAX_PREF_APP 64 /* preferred executors of a task, at most */

/* ---- the application from the log ------------------------------------ */

struct ord {
	int job, stage, log;       /* Spark's job and stage ids, index in slog.stages */
};

static int cmp_ord(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	if (x->job != y->job)
		return (x->job > y->job) - (x->job < y->job);
	return (x->stage > y->stage) - (x->stage < y->stage);
}

static int cmp_task_index(const void *a, const void *b)
{
	const int64_t *x = a, *y = b; /* (index, work, node) triples */
	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The most frequent value of v[0..n) (the smallest among the most
 * frequent); def for none. */
static int mode_of(const int *v, int n, int def)
{
	int best = def, count = 0;
	for (int i = 0; i < n; i++) {
		int c = 0;
		for (int k = 0; k < n; k++)
			c += v[k] == v[i];
		if (c > count || (c == count && v[i] < best)) {
			count = c;
			best = v[i];
		}
	}
	return best;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Values of sorted v[0..n) at or below t. */
static int64_t at_or_below(const int64_t *v, int64_t n, int64_t t)
{
	int64_t lo = 0, hi = n;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (v[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The driver's own time before a stage's first task could launch, from
 * the log: its first launch F less its Submission Time S, less what it
 * waited for a slot.  If at S the logged executors' slots were not all
 * running tasks, a slot was free and all of F - S is the driver's
 * (computing partitions, serializing the task set); else the stage
 * waited at least for the first task to end after S, and only what is
 * left of F - S after it is.  ms; launches and finishes sorted, n each. */
static int64_t driver_delay(const struct slog *l, const struct scn_app *a, int64_t t0,
			    const int64_t *launch, const int64_t *finish, int64_t n, int64_t S,
			    int64_t F)
{
	if (S < 0 || F <= S)
		return 0;
	int64_t running = at_or_below(launch, n, S) - at_or_below(finish, n, S);
	int64_t slots = 0;
	for (int e = 0; e < l->nexecs; e++) {
		const struct slog_exec *x = &l->execs[e];
		if (x->added_ms <= S && (x->removed_ms < 0 || x->removed_ms > S)) {
			int c = a->execs[e].cores / a->task_cpus;
			if (a->slots > 0 && a->slots < c)
				c = a->slots;
			slots += c;
		}
	}
	(void)t0;
	if (running < slots)
		return F - S;
	int64_t k = at_or_below(finish, n, S); /* the first finish after S */
	int64_t freed = k < n ? finish[k] : F;
	return F > freed ? F - freed : 0;
}

/* The application of log l; times from t0 (ms).  NULL with a message. */
struct scn_app *spapp_of(const struct slog *l, int64_t t0, enum spapp_nodes nodes, char *err,
			 size_t errlen)
{
	struct scn_app *a = xcalloc(1, sizeof *a);
	a->name = xstrdup(l->app.name ? l->app.name : l->path);
	a->nodes = nodes;
	/* the stages run: first attempts submitted, in Spark's FIFO order */
	struct ord *o = xmalloc((size_t)(l->nstages ? l->nstages : 1) * sizeof *o);
	int n = 0;
	for (int i = 0; i < l->nstages; i++) {
		const struct slog_stage *st = &l->stages[i];
		if (!st->submitted || st->attempt != 0)
			continue;
		o[n++] = (struct ord){st->job >= 0 ? l->jobs[st->job].id : -1, st->id, i};
	}
	qsort(o, (size_t)n, sizeof *o, cmp_ord);
	a->stages = xcalloc((size_t)(n ? n : 1), sizeof *a->stages);
	a->nstages = n;
	for (int k = 0; k < n; k++) {
		const struct slog_stage *st = &l->stages[o[k].log];
		struct scn_app_stage *as = &a->stages[k];
		as->id = st->id;
		as->job = o[k].job;
		as->name = xstrdup(st->name ? st->name : "");
		/* its successful attempts, one per index, over all its attempts:
		 * (index, work, executor, locality) */
		int64_t *pairs = xmalloc((size_t)(st->task_n ? st->task_n : 1) * W * sizeof *pairs);
		int np = 0, total = 0;
		for (int s2 = 0; s2 < l->nstages; s2++) {
			const struct slog_stage *sa = &l->stages[s2];
			if (sa->id != st->id)
				continue;
			pairs = xrealloc(pairs, (size_t)(np + sa->task_n + 1) * W * sizeof *pairs);
			for (int t = sa->task_lo; t < sa->task_lo + sa->task_n; t++) {
				const struct slog_task *tk = &l->tasks[t];
				total++;
				if (tk->reason != SLOG_R_SUCCESS || (tk->flags & (SLOG_FAILED | SLOG_KILLED)))
					continue;
				int64_t *q = &pairs[W * np++];
				q[0] = tk->index;
				q[1] = (tk->finish_ms - tk->launch_ms) * MS_US;
				q[2] = tk->exec;
				q[3] = slog_locality(tk);
			}
		}
		qsort(pairs, (size_t)np, W * sizeof *pairs, cmp_task_index);
		as->work_us = xmalloc((size_t)(np ? np : 1) * sizeof *as->work_us);
		/* preferred nodes, `per` a task: with nodes for hosts, a task that
		 * ran at process or node locality prefers its host; with nodes for
		 * executors, at process locality its executor, at node locality
		 * every executor of its host.  Except: Spark reports a task that
		 * prefers nothing as PROCESS_LOCAL too (TaskSetManager's NO_PREF
		 * level), and each round of offers tries PROCESS_LOCAL before
		 * NODE_LOCAL, so in a stage whose first launch ran farther than
		 * PROCESS_LOCAL no task preferred an executor: its PROCESS_LOCAL
		 * tasks prefer nothing (docs/traces.md) */
		bool pl_pref = st->task_n == 0 ||
			       slog_locality(&l->tasks[st->task_lo]) == SLOG_L_PROCESS_LOCAL ||
			       slog_locality(&l->tasks[st->task_lo]) == SLOG_L_UNKNOWN;
		int per = nodes == SPAPP_EXECS ? l->nexecs : 1;
		if (per > SIM_MAX_PREF_APP)
			per = SIM_MAX_PREF_APP;
		int *pref = xmalloc((size_t)(np ? np : 1) * (size_t)per * sizeof *pref);
		int nt = 0, any = 0;
		for (int t = 0; t < np; t++) {
			const int64_t *q = &pairs[W * t];
			if (t && q[0] == q[-W] && q[0] >= 0)
				continue; /* a second success of an index (a speculative copy's) */
			int *pt = &pref[(size_t)nt * (size_t)per], k = 0;
			bool local = (q[3] == SLOG_L_PROCESS_LOCAL && pl_pref) || q[3] == SLOG_L_NODE_LOCAL;
			int x = (int)q[2];
			if (local && x >= 0 && nodes == SPAPP_HOSTS) {
				pt[k++] = l->execs[x].host;
			} else if (local && x >= 0 && nodes == SPAPP_EXECS) {
				if (q[3] == SLOG_L_PROCESS_LOCAL)
					pt[k++] = x;
				else
					for (int e = 0; e < l->nexecs && k < per; e++)
						if (l->execs[e].host == l->execs[x].host)
							pt[k++] = e;
			}
			any |= k > 0;
			while (k < per)
				pt[k++] = -1;
			as->work_us[nt++] = (double)q[1];
		}
		free(pairs);
		if (any) {
			as->pref = pref;
			as->npref = per;
		} else {
			free(pref);
		}
		as->ntasks = nt;
		as->attempts_left_out = total - nt;
		as->log_submit_us = st->submit_ms >= 0 ? (st->submit_ms - t0) * MS_US : -1;
		as->log_end_us = st->end_ms >= 0 ? (st->end_ms - t0) * MS_US : -1;
		int64_t js = st->job >= 0 ? l->jobs[st->job].submit_ms : -1;
		as->release_us = js > t0 ? (js - t0) * MS_US : 0;
		/* parents replayed (a parent skipped had its output already) */
		as->parents = xmalloc((size_t)(st->nparents ? st->nparents : 1) * sizeof *as->parents);
		for (int p = 0; p < st->nparents; p++) {
			int q = 0;
			while (q < n && l->stages[o[q].log].id != st->parents[p])
				q++;
			if (q == n)
				continue; /* never run: its output was there already */
			if (q >= k) {
				snprintf(err, errlen, "%s:1:1: stage %d's parent %d runs after it in Spark's "
					 "order (job, stage): not a DAG hetsim can replay", l->path,
					 st->id, st->parents[p]);
				free(o);
				a->nstages = k + 1;
				scn_app_free(a);
				return NULL;
			}
			as->parents[as->nparents++] = q;
		}
		/* a stage without a parent replayed is submitted when its
		 * driver decides (its job's submission, or later: adaptive
		 * query execution submits query stages as others finish):
		 * its own Submission Time; one with parents, when they end */
		if (!as->nparents && st->submit_ms > t0)
			as->release_us = (st->submit_ms - t0) * MS_US;
	}
	free(o);
	/* executors: times from t0, the most common size */
	a->execs = xcalloc((size_t)(l->nexecs ? l->nexecs : 1), sizeof *a->execs);
	int *cores = xmalloc((size_t)(l->nexecs ? l->nexecs : 1) * sizeof *cores);
	int *gpus = xmalloc((size_t)(l->nexecs ? l->nexecs : 1) * sizeof *gpus);
	for (int e = 0; e < l->nexecs; e++) {
		const struct slog_exec *x = &l->execs[e];
		int c = x->cores > 0 ? x->cores : l->env.executor_cores > 0 ? l->env.executor_cores : 1;
		a->execs[e] = (struct scn_app_exec){
			.node = nodes == SPAPP_EXECS ? e : x->host, .cores = c, .gpus = x->gpus,
			.added_us = x->added_ms > t0 ? (x->added_ms - t0) * MS_US : 0,
			.removed_us = x->removed_ms >= 0 ? (x->removed_ms > t0 ? x->removed_ms - t0 : 0) *
							     MS_US : -1};
		cores[e] = c;
		gpus[e] = x->gpus;
	}
	a->nexecs = l->nexecs;
	a->exec_cores = mode_of(cores, l->nexecs, 1);
	a->exec_gpus = mode_of(gpus, l->nexecs, 0);
	free(cores);
	free(gpus);
	/* executors up at once, at most: a sweep of adds and removes */
	for (int e = 0; e < a->nexecs; e++) {
		int up = 0;
		int64_t t = a->execs[e].added_us;
		for (int f = 0; f < a->nexecs; f++)
			up += a->execs[f].added_us <= t &&
			      (a->execs[f].removed_us < 0 || a->execs[f].removed_us > t);
		if (up > a->max_execs)
			a->max_execs = up;
	}
	if (a->max_execs < 1)
		a->max_execs = 1;
	a->exec_mem_mib = 1024;
	for (int p = 0; p < l->nprofiles; p++)
		if (l->profiles[p].id == 0 && l->profiles[p].exec_mem_mib > 0)
			a->exec_mem_mib = l->profiles[p].exec_mem_mib;
	a->task_cpus = l->env.task_cpus > 0 ? l->env.task_cpus : 1;
	a->task_gpus = l->env.task_gpus > 0 ? l->env.task_gpus : 0;
	for (int p = 0; p < l->nprofiles && a->task_gpus == 0; p++)
		if (l->profiles[p].id == 0 && l->profiles[p].task_gpus > 0)
			a->task_gpus = l->profiles[p].task_gpus;
	if (a->task_cpus > a->exec_cores) {
		snprintf(err, errlen, "%s:1:1: spark.task.cpus %d is above the executors' %d cores: no "
			 "task could run (Spark refuses it too)", l->path, a->task_cpus, a->exec_cores);
		scn_app_free(a);
		return NULL;
	}
	/* slots: Spark's cores / task.cpus, unless its GPUs hold fewer tasks */
	a->slots = -1;
	if (a->task_gpus > 0 && a->exec_gpus > 0) {
		int by_gpu = (int)floor(a->exec_gpus / a->task_gpus + 1e-9);
		if (by_gpu < a->exec_cores / a->task_cpus)
			a->slots = by_gpu;
	}
	if (l->env.dyn_alloc == 1) /* Spark's default timeout: 60 s */
		a->idle_timeout_us = (l->env.idle_timeout_ms >= 0 ? l->env.idle_timeout_ms : 60000) *
				     MS_US;
	a->fair = l->env.fair == 1;
	a->locality_wait_us = (l->env.locality_wait_ms >= 0 ? l->env.locality_wait_ms : 3000) * MS_US;
	/* each stage's driver delay, from the logged schedule's slots */
	int64_t nt = l->ntasks;
	int64_t *launch = xmalloc((size_t)(nt ? nt : 1) * sizeof *launch);
	int64_t *finish = xmalloc((size_t)(nt ? nt : 1) * sizeof *finish);
	for (int64_t t = 0; t < nt; t++) {
		launch[t] = l->tasks[t].launch_ms;
		finish[t] = l->tasks[t].finish_ms;
	}
	qsort(launch, (size_t)nt, sizeof *launch, cmp_i64);
	qsort(finish, (size_t)nt, sizeof *finish, cmp_i64);
	for (int k = 0; k < a->nstages; k++) {
		struct scn_app_stage *as = &a->stages[k];
		int64_t first = -1;
		for (int s2 = 0; s2 < l->nstages; s2++) {
			const struct slog_stage *sa = &l->stages[s2];
			if (sa->id != as->id || sa->attempt != 0)
				continue;
			for (int t = sa->task_lo; t < sa->task_lo + sa->task_n; t++)
				if (first < 0 || l->tasks[t].launch_ms < first)
					first = l->tasks[t].launch_ms;
			as->delay_us = driver_delay(l, a, t0, launch, finish, nt,
						    sa->submit_ms, first) * MS_US;
		}
	}
	free(launch);
	free(finish);
	a->log_span_us = l->app.start_ms >= 0 && l->app.end_ms >= 0
				 ? (l->app.end_ms - l->app.start_ms) * MS_US : -1;
	a->log_jobs_end_us = -1;
	for (int j = 0; j < l->njobs; j++)
		if (l->jobs[j].end_ms >= 0 && (l->jobs[j].end_ms - t0) * MS_US > a->log_jobs_end_us)
			a->log_jobs_end_us = (l->jobs[j].end_ms - t0) * MS_US;
	return a;
}

/* The log's own cluster: a node per host holding, of cores, GPUs and
 * memory, the most the executors there held at once. */
void spapp_cluster(const struct slog *l, const struct scn_app *a, struct scn *s)
{
	if (a->nodes == SPAPP_EXECS) { /* a node per executor, of its size */
		s->groups = xcalloc((size_t)(a->nexecs ? a->nexecs : 1), sizeof *s->groups);
		s->ngroups = a->nexecs;
		for (int e = 0; e < a->nexecs; e++) {
			char name[512];
			snprintf(name, sizeof name, "%s#%s", l->hosts[l->execs[e].host], l->execs[e].id);
			s->groups[e] = (struct scn_node_group){
				.name = xstrdup(name), .count = 1, .cores = a->execs[e].cores,
				.mem_mib = a->exec_mem_mib, .gpus = a->execs[e].gpus,
				.gpu_model = a->execs[e].gpus ? xstrdup("gpu") : NULL, .cpu_speed = 1,
				.straggler_slowdown = 1, .net_mib_s = SCN_NET_MIB_S};
		}
		return;
	}
	s->groups = xcalloc((size_t)(l->nhosts ? l->nhosts : 1), sizeof *s->groups);
	s->ngroups = l->nhosts;
	for (int h = 0; h < l->nhosts; h++) {
		int cores = 0, gpus = 0, execs = 0;
		for (int e = 0; e < a->nexecs; e++) {
			if (a->execs[e].node != h)
				continue;
			int64_t t = a->execs[e].added_us;
			int c = 0, g = 0, x = 0;
			for (int f = 0; f < a->nexecs; f++)
				if (a->execs[f].node == h && a->execs[f].added_us <= t &&
				    (a->execs[f].removed_us < 0 || a->execs[f].removed_us > t)) {
					c += a->execs[f].cores;
					g += a->execs[f].gpus;
					x++;
				}
			cores = c > cores ? c : cores;
			gpus = g > gpus ? g : gpus;
			execs = x > execs ? x : execs;
		}
		struct scn_node_group *g = &s->groups[h];
		*g = (struct scn_node_group){
			.name = xstrdup(l->hosts[h]), .count = 1, .cores = cores > 0 ? cores : 1,
			.mem_mib = (execs > 0 ? execs : 1) * a->exec_mem_mib, .gpus = gpus,
			.gpu_model = gpus ? xstrdup("gpu") : NULL, .cpu_speed = 1,
			.straggler_slowdown = 1, .net_mib_s = SCN_NET_MIB_S};
	}
}

int64_t spapp_t0(const struct slog *l)
{
	int64_t t0 = l->app.start_ms;
	for (int e = 0; t0 < 0 && e < l->nexecs; e++)
		t0 = l->execs[e].added_ms;
	return t0;
}
