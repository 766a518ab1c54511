/* replay.c - `hetsim replay-log`: a Spark event log replayed against
 * itself, and what-ifs on another cluster or under another policy
 * (docs/traces.md, "Replaying a Spark event log").
 *
 * The application's cluster is rebuilt from the log (a node per host,
 * holding the most its executors held there at once), its executors
 * come and go as logged (the log-replay policy), and its DAG runs with
 * each task's logged run time only: when a task starts is the
 * simulation's, from Spark's in-application dispatch on the executors
 * up at the time.  Each stage's simulated duration (its end less the
 * moment it could be submitted: its parents done and its job submitted)
 * is set against the logged one (Completion - Submission Time). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "load.h"
#include "models.h"
#include "registry.h"
#include "rows.h"
#include "scenario.h"
#include "scn_app.h"
#include "scn_trace.h"
#include "sim.h"
#include "sparklog.h"
#include "util.h"

static const struct cmd_opt replay_opts[] = {
	{"cluster", 'c', "SCENARIO", "replay on this scenario's cluster (its overheads too)"},
	{"policy", 'p', "NAME", "replay under this policy (a policy entry of --cluster's "
				"scenario, or a registered one): the what-if"},
	{"output", 'o', "DIR", "write stages.csv and stages.png there (default "
			       "results/replay/<application>)"},
	{"strict", 0, NULL, "an inconsistent record of the log is an error"},
	{"quiet", 'q', NULL, "no table"},
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

#define MS_US 1000

/* Targets (issue 17): a stage within 5 % or 50 ms of its logged
 * duration, the application within 5 %. */
#define STAGE_REL 0.05
#define STAGE_ABS_US 50000
#define APP_REL 0.05

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
static struct scn_app *app_of(const struct slog *l, int64_t t0, char *err, size_t errlen)
{
	struct scn_app *a = xcalloc(1, sizeof *a);
	a->name = xstrdup(l->app.name ? l->app.name : l->path);
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
		 * (index, work, preferred node) */
		int64_t *pairs = xmalloc((size_t)(st->task_n ? st->task_n : 1) * 3 * sizeof *pairs);
		int np = 0, total = 0;
		for (int s2 = 0; s2 < l->nstages; s2++) {
			const struct slog_stage *sa = &l->stages[s2];
			if (sa->id != st->id)
				continue;
			pairs = xrealloc(pairs, (size_t)(np + sa->task_n + 1) * 3 * sizeof *pairs);
			for (int t = sa->task_lo; t < sa->task_lo + sa->task_n; t++) {
				const struct slog_task *tk = &l->tasks[t];
				total++;
				if (tk->reason != SLOG_R_SUCCESS || (tk->flags & (SLOG_FAILED | SLOG_KILLED)))
					continue;
				enum slog_locality lv = slog_locality(tk);
				pairs[3 * np] = tk->index;
				pairs[3 * np + 1] = (tk->finish_ms - tk->launch_ms) * MS_US;
				pairs[3 * np + 2] = lv == SLOG_L_PROCESS_LOCAL || lv == SLOG_L_NODE_LOCAL
							    ? tk->host : -1;
				np++;
			}
		}
		qsort(pairs, (size_t)np, 3 * sizeof *pairs, cmp_task_index);
		as->work_us = xmalloc((size_t)(np ? np : 1) * sizeof *as->work_us);
		int *pref = xmalloc((size_t)(np ? np : 1) * sizeof *pref);
		int nt = 0, npref = 0;
		for (int t = 0; t < np; t++) {
			if (t && pairs[3 * t] == pairs[3 * (t - 1)] && pairs[3 * t] >= 0)
				continue; /* a second success of an index (a speculative copy's) */
			pref[nt] = (int)pairs[3 * t + 2];
			npref += pref[nt] >= 0;
			as->work_us[nt++] = (double)pairs[3 * t + 1];
		}
		free(pairs);
		if (npref)
			as->pref = pref;
		else
			free(pref);
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
				snprintf(err, errlen, "%s: stage %d's parent %d runs after it in Spark's "
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
			.node = x->host, .cores = c, .gpus = x->gpus,
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
static void cluster_of(const struct slog *l, const struct scn_app *a, struct scn *s)
{
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

/* ---- the run --------------------------------------------------------- */

struct spans {
	int64_t *first, *end;      /* per stage: simulated first task start, end; -1 */
};

static void on_stage(void *ctx, const struct sim *s, const struct sim_job *j, int stage,
		     int64_t first_us, int64_t end_us)
{
	(void)s, (void)j;
	struct spans *sp = ctx;
	sp->first[stage] = first_us;
	sp->end[stage] = end_us;
}

static char *policy_label(const struct scn_policy *p)
{
	return xstrdup(p->name);
}

int cmd_replay_log(int argc, char **argv)
{
	struct cmd_args a;
	if (cmd_parse("replay-log", replay_opts, argc, argv, &a))
		return 2;
	if (cmd_get(replay_opts, &a, "help")) {
		cmd_help("replay-log", "EVENTLOG [--cluster SCENARIO] [--policy NAME] [-o DIR]",
			 "Replay a Spark event log (plain or zstd) with each task's logged run time\n"
			 "only, on its own executors as they came and went, and set each stage's\n"
			 "simulated duration against the logged one (docs/traces.md).  With\n"
			 "--cluster or --policy: the application on another cluster or under\n"
			 "another policy.  Writes stages.csv and a figure of the stage spans.",
			 replay_opts);
		return 0;
	}
	if (a.npos != 1) {
		fprintf(stderr, "hetsim replay-log: expected one EVENTLOG\n");
		return 2;
	}
	const char *path = a.pos[0], *cluster = cmd_get(replay_opts, &a, "cluster"),
		   *pol = cmd_get(replay_opts, &a, "policy"), *out = cmd_get(replay_opts, &a, "output");
	bool quiet = cmd_get(replay_opts, &a, "quiet") != NULL;
	char err[1024];
	struct slog_opts so = {.strict = cmd_get(replay_opts, &a, "strict") != NULL};
	struct slog *l = slog_read(path, &so, err, sizeof err);
	if (!l) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	int64_t t0 = l->app.start_ms;
	for (int e = 0; t0 < 0 && e < l->nexecs; e++)
		t0 = l->execs[e].added_ms;
	if (t0 < 0) {
		fprintf(stderr, "%s: no ApplicationStart and no executor: nothing to replay from\n",
			path);
		slog_free(l);
		return 1;
	}
	struct scn_app *app = app_of(l, t0, err, sizeof err);
	if (!app || app->nstages == 0) {
		fprintf(stderr, "%s\n", app ? "the log has no stage to replay" : err);
		scn_app_free(app);
		slog_free(l);
		return 1;
	}
	/* the scenario: the log's cluster, or --cluster's */
	struct scn *s;
	if (cluster) {
		if (!(s = scn_load(cluster, err, sizeof err))) {
			fprintf(stderr, "%s\n", err);
			scn_app_free(app);
			slog_free(l);
			return 1;
		}
		for (int g = 0; g < s->njobgroups; g++) { /* its workload gives way */
			free(s->jobs[g].name);
			free(s->jobs[g].arrival.times_us);
			free(s->jobs[g].params);
			for (int k = 0; k < s->jobs[g].nstages; k++) {
				free(s->jobs[g].stages[k].name);
				free(s->jobs[g].stages[k].parents);
			}
			free(s->jobs[g].stages);
		}
		free(s->jobs);
		for (int i = 0; i < s->ntraces; i++)
			scn_trace_free(s->traces[i]);
		free(s->traces);
		s->traces = NULL;
		s->ntraces = 0;
	} else {
		s = xcalloc(1, sizeof *s);
		s->path = xstrdup(path);
		s->seed = 1;
		s->replications = 1;
		s->over = (struct scn_overheads){0, 0}; /* the log's executors come up as logged */
		cluster_of(l, app, s);
	}
	free(s->name);
	char nm[256];
	snprintf(nm, sizeof nm, "replay-%s", l->app.id ? l->app.id : "log");
	s->name = xstrdup(nm);
	s->over.task_launch_us = 0; /* the logged run times hold it */
	s->spec.enabled = false;
	/* Spark's delay scheduling toward the hosts the log's tasks ran on at
	 * process or node locality, with the log's wait; on another cluster
	 * (--cluster) the hosts are not its nodes: none */
	s->loc = (struct scn_locality){.enabled = !cluster, .wait_us = app->locality_wait_us};
	s->app = app;
	s->jobs = xcalloc(1, sizeof *s->jobs);
	s->njobgroups = 1;
	s->jobs[0] = (struct scn_job_group){
		.name = xstrdup("app"), .count = 1, .type = JM_SPARK_APP, .model = &jm_spark_app,
		.ops = jm_spark_app.ops, .arrival = {.kind = SCN_ARR_FIXED}, .task_cpus = app->task_cpus,
		.task_max_failures = 4, .params = xcalloc(1, 1), .app = app};
	/* the policy: log-replay on the log's cluster, else as asked */
	struct scn_policy p;
	const char *want = pol ? pol : cluster ? (s->npolicies ? s->policies[0].name : "fifo")
					 : "log-replay";
	if (cmd_policy_named(s, want, &p) < 0) {
		fprintf(stderr, "hetsim replay-log: option '--policy': no policy '%s' (hetsim "
			"policies lists them)\n", want);
		scn_free(s);
		slog_free(l);
		return 2;
	}
	if (cluster && strcmp(p.kind, "log-replay") == 0) {
		fprintf(stderr, "hetsim replay-log: option '--policy': log-replay places the "
			"executors on the log's own hosts; with --cluster, name another policy\n");
		scn_free(s);
		slog_free(l);
		return 2;
	}
	struct scn_policy run_pol = p;
	run_pol.name = policy_label(&p);
	struct sim *sim = sim_new(s, &run_pol, 0, err, sizeof err);
	struct spans sp = {.first = xmalloc((size_t)app->nstages * sizeof(int64_t)),
			   .end = xmalloc((size_t)app->nstages * sizeof(int64_t))};
	for (int i = 0; i < app->nstages; i++)
		sp.first[i] = sp.end[i] = -1;
	int rc = 0;
	if (!sim || (sim_set_stage_sink(sim, on_stage, &sp), sim_run(sim) < 0)) {
		fprintf(stderr, "hetsim replay-log: %s\n", sim ? "the run went past the time limit"
							       : err);
		rc = 1;
	}
	const struct sim_job *job = sim && !rc ? sim_job(sim, 0) : NULL;
	/* the report */
	char dir[1024];
	if (out)
		snprintf(dir, sizeof dir, "%s", out);
	else
		snprintf(dir, sizeof dir, "results/replay/%s", l->app.id ? l->app.id : "log");
	static const char *const names[] = {"stages.csv"};
	struct rows_files files = {.cmd = "replay-log", .dir = dir, .names = names, .n = 1};
	if (!rc && rows_files_open(&files))
		rc = 1;
	int within = 0, counted = 0;
	double worst = 0;
	if (!rc) {
		FILE *f = files.f[0];
		/* the name last: its commas, if any, are quoted, and a reader that
		 * splits at every comma still finds the numbers where they are */
		fprintf(f, "stage,job,tasks,left_out,logged_submit_s,logged_end_s,logged_s,"
			   "sim_ready_s,sim_first_s,sim_end_s,sim_s,error_s,error_pct,within,name\n");
		if (!quiet)
			printf("replay-log: %s (%s), Spark %s; %d stages, %d executors (%d at once) of "
			       "%d cores; policy %s on %s\n",
			       app->name, l->app.id ? l->app.id : "?",
			       l->app.spark_version ? l->app.spark_version : "?", app->nstages,
			       app->nexecs,
			       app->max_execs, app->exec_cores, run_pol.name,
			       cluster ? cluster : "the log's hosts");
		if (!quiet)
			printf("%6s %5s %6s %10s %11s %9s %8s %s\n", "stage", "job", "tasks",
			       "logged_s", "simulated_s", "error_s", "error_%", "within");
		int64_t *ready = xmalloc((size_t)app->nstages * sizeof *ready);
		for (int i = 0; i < app->nstages; i++) {
			const struct scn_app_stage *as = &app->stages[i];
			int64_t r = as->release_us;
			for (int q = 0; q < as->nparents; q++)
				if (sp.end[as->parents[q]] > r)
					r = sp.end[as->parents[q]];
			ready[i] = r;
			int64_t logged = as->log_submit_us >= 0 && as->log_end_us >= 0
						 ? as->log_end_us - as->log_submit_us : -1;
			int64_t sim_d = sp.end[i] >= 0 ? sp.end[i] - r : -1;
			if (as->ntasks == 0 && sp.end[i] < 0)
				sim_d = 0; /* no task: done when ready */
			char sub[32] = "", end[32] = "", lg[32] = "", rd[32], fs[32] = "", se[32] = "",
			     sd[32] = "", es[32] = "", ep[32] = "", w[8] = "";
			if (as->log_submit_us >= 0)
				fmt_us(as->log_submit_us, sub);
			if (as->log_end_us >= 0)
				fmt_us(as->log_end_us, end);
			if (logged >= 0)
				fmt_us(logged, lg);
			fmt_us(r, rd);
			if (sp.first[i] >= 0)
				fmt_us(sp.first[i], fs);
			if (sp.end[i] >= 0)
				fmt_us(sp.end[i], se);
			if (sim_d >= 0)
				fmt_us(sim_d, sd);
			if (logged >= 0 && sim_d >= 0) {
				int64_t e = sim_d - logged;
				double rel = logged > 0 ? (double)e / (double)logged : 0;
				bool ok = llabs(e) <= STAGE_ABS_US || fabs(rel) <= STAGE_REL;
				within += ok;
				counted++;
				if (!ok && fabs(rel) > worst)
					worst = fabs(rel);
				fmt_us(e, es);
				snprintf(ep, sizeof ep, "%.2f", 100 * rel);
				snprintf(w, sizeof w, "%s", ok ? "yes" : "no");
			}
			fprintf(f, "%d,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,\"", as->id, as->job,
				as->ntasks, as->attempts_left_out, sub, end, lg, rd, fs, se, sd, es, ep,
				w);
			for (const char *c = as->name; *c; c++) /* CSV-quoted */
				fputs(*c == '"' ? "\"\"" : (char[2]){*c, 0}, f);
			fputs("\"\n", f);
			if (!quiet)
				printf("%6d %5d %6d %10s %11s %9s %8s %s\n", as->id, as->job, as->ntasks,
				       lg, sd, es, ep, w);
		}
		free(ready);
		/* the application: the replay's end plus the log's time after its
		 * last job (the driver's shutdown, not simulated) */
		int64_t tail = app->log_span_us >= 0 && app->log_jobs_end_us >= 0
				       ? app->log_span_us - app->log_jobs_end_us : 0;
		int64_t sim_app = job && job->end_us >= 0 ? job->end_us + (tail > 0 ? tail : 0) : -1;
		char la[32] = "", sa[32] = "", ea[32] = "", pa[32] = "", wa[8] = "", tl[32];
		double arel = 0;
		bool app_ok = false;
		if (app->log_span_us >= 0)
			fmt_us(app->log_span_us, la);
		if (sim_app >= 0)
			fmt_us(sim_app, sa);
		if (app->log_span_us > 0 && sim_app >= 0) {
			arel = (double)(sim_app - app->log_span_us) / (double)app->log_span_us;
			app_ok = fabs(arel) <= APP_REL;
			fmt_us(sim_app - app->log_span_us, ea);
			snprintf(pa, sizeof pa, "%.2f", 100 * arel);
			snprintf(wa, sizeof wa, "%s", app_ok ? "yes" : "no");
		}
		fprintf(f, "app,,,,0.000000,%s,%s,0.000000,,%s,%s,%s,%s,%s,\"%s\"\n", la, la, sa, sa,
			ea, pa, wa, "the application (ApplicationStart to End)");
		fmt_us(tail > 0 ? tail : 0, tl);
		if (!quiet) {
			printf("application: logged %s s, simulated %s s (%s %%; the last %s s, after "
			       "its last job, are the log's: the driver's shutdown)\n", la, sa, pa, tl);
			printf("stages within %.0f %% or %d ms of the log: %d of %d%s\n",
			       100 * STAGE_REL, STAGE_ABS_US / 1000, within, counted,
			       within < counted ? "" : "");
			if (within < counted)
				printf("worst outside: %.1f %%\n", 100 * worst);
			printf("files in %s/\n", dir);
		}
		if (rows_files_close(&files, true))
			rc = 1;
		if (!rc) { /* the figure: logged against simulated spans */
			char vars[4096] = "", csvp[1100], png[1100];
			snprintf(csvp, sizeof csvp, "%s/stages.csv", dir);
			snprintf(png, sizeof png, "%s/stages.png", dir);
			cmd_gp_str(vars, sizeof vars, "csv", csvp);
			char title[512];
			snprintf(title, sizeof title, "%s: logged and simulated stage spans (%s)",
				 app->name, run_pol.name);
			cmd_gp_str(vars, sizeof vars, "figtitle", title);
			snprintf(vars + strlen(vars), sizeof vars - strlen(vars), "nstages=%d; ",
				 app->nstages);
			if (cmd_gnuplot("replay-log", "replay.gp", vars, png) < 0)
				fprintf(stderr, "hetsim replay-log: gnuplot failed on %s\n", png);
		}
	}
	free(sp.first);
	free(sp.end);
	free(run_pol.name);
	sim_free(sim);
	scn_free(s);
	slog_free(l);
	return rc;
}
