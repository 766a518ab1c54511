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
#include "plot.h"
#include "registry.h"
#include "rows.h"
#include "scenario.h"
#include "scn_app.h"
#include "scn_trace.h"
#include "sim.h"
#include "spark_app.h"
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
	int64_t t0 = spapp_t0(l);
	if (t0 < 0) {
		fprintf(stderr, "%s:1:1: no ApplicationStart and no executor: nothing to replay from\n",
			path);
		slog_free(l);
		return 1;
	}
	/* log-replay on the log's own cluster: a node per executor, so that
	 * a task at process locality prefers its own executor as Spark's
	 * does; a what-if policy places executors on the hosts; on another
	 * cluster no task prefers a node */
	enum spapp_nodes nodes = cluster ? SPAPP_NO_PREFS
				 : pol && strcmp(pol, "log-replay") ? SPAPP_HOSTS : SPAPP_EXECS;
	struct scn_app *app = spapp_of(l, t0, nodes, err, sizeof err);
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
		spapp_cluster(l, app, s);
		for (int g = 0; g < s->ngroups; g++) /* a host's executors at once */
			if (s->groups[g].cores > SCN_MAX_CORES || s->groups[g].gpus > SCN_MAX_GPUS) {
				fprintf(stderr, "%s:1:1: host %s held %d cores and %d GPUs at once, above "
					"the limits of a node (%d, %d)\n", path, s->groups[g].name,
					s->groups[g].cores, s->groups[g].gpus, SCN_MAX_CORES,
					SCN_MAX_GPUS);
				scn_free(s); /* the app is not in s yet */
				scn_app_free(app);
				slog_free(l);
				return 1;
			}
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
	s->apps = xrealloc(s->apps, (size_t)(s->napps + 1) * sizeof *s->apps);
	s->apps[s->napps++] = app;
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
	if (slog_warning(l, err, sizeof err)) /* what the reader skipped or clamped, once the */
		fprintf(stderr, "warning: %s\n", err); /* log is taken (an error says one line) */
	struct scn_policy run_pol = p;
	run_pol.name = policy_label(&p);
	struct sim *sim = sim_new(s, &run_pol, 0, err, sizeof err);
	struct spans sp = {.first = xmalloc((size_t)app->nstages * sizeof(int64_t)),
			   .end = xmalloc((size_t)app->nstages * sizeof(int64_t))};
	for (int i = 0; i < app->nstages; i++)
		sp.first[i] = sp.end[i] = -1;
	int rc = 0;
	int src = 0;
	if (!sim || (sim_set_stage_sink(sim, on_stage, &sp), (src = sim_run(sim)) < 0)) {
		char why[2048];
		fprintf(stderr, "hetsim replay-log: %s\n",
			sim ? sim_stop_why(sim, src, why, sizeof why) : err);
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
		if (!rc && plot_replay(dir, app->name, run_pol.name, app->nstages))
			rc = 1; /* said; stages.csv stands */
	}
	free(sp.first);
	free(sp.end);
	free(run_pol.name);
	sim_free(sim);
	scn_free(s);
	slog_free(l);
	return rc;
}
