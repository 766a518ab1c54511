/* commands.c - the subcommand table and `hetsim`'s entry (cmd_main),
 * and the commands that only read a scenario or the registries: run's
 * front (cmd_run_scenario does the run: run.c), validate, policies,
 * models.  The top of cli/: it calls every command, and none calls it
 * (main.c and the tests call cmd_main). */
#include "registry.h"
#include "load.h"
#include "cmd.h"
#include "guard.h"
#include "hetsim/policy.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models.h"
#include "policy.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"
#include "workload.h"

#define PLUGIN_OPT {"plugin", 0, "FILE", "load a policy plugin (a shared object: " \
				       "docs/writing-a-policy.md) and register its policy; repeatable"}

/* ---- run ----------------------------------------------------------- */

static const struct cmd_opt run_opts[] = {
	{"output", 'o', "DIR", "write CSV results here (default results/<scenario>/)"},
	{"seed", 0, "N", "override the scenario's seed"},
	{"policy", 'p', "NAME", "run only this policy (a scenario entry's name, or a "
				"registered policy with its defaults); repeatable"},
	{"replications", 'r', "N", "override the number of replications"},
	{"replication", 0, "K", "run replication K (0-based) alone, with the numbers it has "
				"in a full run"},
	{"baseline", 0, "NAME", "the policy the table's change is against (default: the first "
				"policy listed)"},
	{"trace-json", 0, "FILE", "write the first replication's timeline of each policy as "
				  "Chrome trace-event JSON (Perfetto, chrome://tracing)"},
	PLUGIN_OPT,
	CMD_MAXMEM_OPT,
	CMD_MAXSTALL_OPT,
	{"no-rows", 0, NULL, "write neither jobs.csv nor executors.csv (a row per job, per "
			     "executor): runs.csv, types.csv, timing.csv and table.md only, the "
			     "same bytes (for benchmarks and sweeps of one's own)"},
	{"quiet", 'q', NULL, "print no table"},
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

static struct scn *load(const char *path)
{
	char err[1024];
	struct scn *s = scn_load(path, err, sizeof err);
	if (!s)
		fprintf(stderr, "%s\n", err);
	return s;
}

static int cmd_run(int argc, char **argv)
{
	struct cmd_args a;
	if (cmd_parse("run", run_opts, argc, argv, &a) || cmd_unique("run", run_opts, &a, "policy"))
		return 2;
	if (cmd_get(run_opts, &a, "help")) {
		cmd_help("run", "SCENARIO [options]",
			 "Simulate a scenario under its policies; print a comparison table and\n"
			 "write runs.csv, types.csv (per job model), jobs.csv, executors.csv and\n"
			 "timing.csv (wall-clock figures, the one file that differs from run to\n"
			 "run).", run_opts);
		return 0;
	}
	if (a.npos != 1) {
		fprintf(stderr, "hetsim run: expected one SCENARIO file, got %d arguments\n", a.npos);
		return 2;
	}
	struct cmd_run_opts o = {.only_replication = -1};
	const char *v;
	if ((v = cmd_get(run_opts, &a, "seed"))) {
		if (cmd_seed("run", v, &o.seed))
			return 2;
		o.seed_set = true;
		scn_seed_at_load = o.seed; /* an offer-only trace's order follows it */
		scn_seed_at_load_set = true;
	}
	if ((v = cmd_get(run_opts, &a, "replications"))) {
		int64_t x = cmd_int("run", "replications", v, 1000000);
		if (x < 1) {
			if (x == 0)
				fprintf(stderr, "hetsim run: option '--replications' must be at least 1\n");
			return 2;
		}
		o.replications = (int)x;
	}
	if ((v = cmd_get(run_opts, &a, "replication"))) {
		int64_t x = cmd_int("run", "replication", v, 1000000);
		if (x < 0)
			return 2;
		o.only_replication = (int)x;
	}
	o.quiet = cmd_get(run_opts, &a, "quiet") != NULL;
	o.no_rows = cmd_get(run_opts, &a, "no-rows") != NULL;
	o.baseline = cmd_get(run_opts, &a, "baseline");
	if ((o.trace_json = cmd_get(run_opts, &a, "trace-json")) && !*o.trace_json) {
		fprintf(stderr, "hetsim run: option '--trace-json': empty\n");
		return 2;
	}
	for (int i = 0; i < a.n; i++)
		if (strcmp(run_opts[a.opt[i]].name, "policy") == 0) {
			if (o.npolicies == ARRAY_LEN(o.policies)) {
				fprintf(stderr, "hetsim run: too many '--policy' options\n");
				return 2;
			}
			o.policies[o.npolicies++] = a.val[i];
		}

	if (cmd_max_memory("run", run_opts, &a) || cmd_max_stall("run", run_opts, &a))
		return 2;
	if (cmd_load_plugins(run_opts, &a))
		return 1;
	struct scn *s = load(a.pos[0]);
	scn_seed_at_load_set = false; /* this command's loads only */
	if (!s)
		return 1;
	char dir[4096];
	const char *out = cmd_get(run_opts, &a, "output");
	if (!out) {
		snprintf(dir, sizeof dir, "results/%s", s->name);
		out = dir;
	}
	int rc = cmd_run_scenario(s, &o, out);
	scn_free(s);
	return rc;
}

/* ---- validate ------------------------------------------------------ */

static const struct cmd_opt validate_opts[] = {
	{"strict", 0, NULL, "treat warnings (a job group a policy can never place, a trace "
			    "record skipped) as errors"},
	PLUGIN_OPT,
	CMD_MAXMEM_OPT,
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

/* Warn, for each policy of a sweep's points and each job group, when the
 * policy's can_ever_place finds it can never be placed on the empty
 * cluster; one line per (policy, job group), at the job group's
 * position, naming the points where it fails.  Returns the warnings. */
static int placement_warnings(const struct scn_sweep *sw)
{
	int warnings = 0;
	const struct scn *s0 = sw->point[0];
	for (int p = 0; p < s0->npolicies; p++) {
		const struct scn_policy *pol = &s0->policies[p];
		const struct policy_ops *ops = pol_find(pol->kind);
		if (!ops || !ops->can_ever_place)
			continue;
		for (int g = 0; g < s0->njobgroups; g++) {
			struct pol_verdict first = {0}, v;
			int bad = 0, at = -1;
			for (int k = 0; k < sw->npoints; k++) {
				const struct scn *s = sw->point[k];
				/* a point's policies and job groups are point 0's, values aside */
				if (p >= s->npolicies || g >= s->njobgroups)
					continue;
				struct sim_shape sh;
				sim_group_shape(s, g, &sh);
				ops->can_ever_place(&s->policies[p], s, g, &sh, &v);
				if (v.why != SIM_WHY_NONE && bad++ == 0) {
					first = v;
					at = k;
				}
			}
			if (!bad)
				continue;
			const struct scn_job_group *jg = &sw->point[at]->jobs[g];
			char why[160], where[640] = "", pt[512];
			if (sw->npoints > 1)
				snprintf(where, sizeof where, " (at %d of %d sweep points; first point "
					 "%d:%s)", bad, sw->npoints, at,
					 scn_sweep_point_text(sw, at, pt, sizeof pt));
			printf("%s:%d:%d: warning: policy '%s' can never place job group '%s' (%s): "
			       "%s%s\n", jg->pos.file, jg->pos.line, jg->pos.col, pol->name, jg->name,
			       sim_why_name(sw->point[at], first.why, why, sizeof why), first.detail,
			       where);
			warnings++;
		}
	}
	return warnings;
}

static int cmd_validate(int argc, char **argv)
{
	struct cmd_args a;
	if (cmd_parse("validate", validate_opts, argc, argv, &a) ||
	    cmd_max_memory("validate", validate_opts, &a))
		return 2;
	if (cmd_get(validate_opts, &a, "help")) {
		cmd_help("validate", "SCENARIO... [--strict]",
			 "Check scenario files without running them; print one line per file, and\n"
			 "a warning for each job group a policy of the file can never place on the\n"
			 "empty cluster (its sizing rules: hetsim policies).  Exit 0 with warnings,\n"
			 "1 with --strict.", validate_opts);
		return 0;
	}
	if (a.npos < 1) {
		fprintf(stderr, "hetsim validate: expected at least one SCENARIO file\n");
		return 2;
	}
	if (cmd_load_plugins(validate_opts, &a))
		return 1;
	bool strict = cmd_get(validate_opts, &a, "strict") != NULL;
	scn_trace_strict = strict;
	int rc = 0;
	for (int i = 0; i < a.npos; i++) {
		char err[1024];
		struct scn_sweep *sw = scn_sweep_load(a.pos[i], err, sizeof err);
		if (!sw) {
			fprintf(stderr, "%s\n", err);
			rc = 1;
			continue;
		}
		const struct scn *s = sw->point[0];
		int nodes = 0, jobs = 0;
		for (int g = 0; g < s->ngroups; g++)
			nodes += s->groups[g].count;
		for (int g = 0; g < s->njobgroups; g++)
			jobs += s->jobs[g].count;
		int w = placement_warnings(sw) + cmd_rate_warnings(s, stdout);
		cmd_trace_warnings(s, stdout);
		char pts[32] = "", wt[32] = "";
		if (sw->npoints > 1)
			snprintf(pts, sizeof pts, ", %d sweep points", sw->npoints);
		if (w)
			snprintf(wt, sizeof wt, ", %d warning%s", w, w == 1 ? "" : "s");
		printf("%s: %s%s (%d nodes, %d jobs, %d policies, %d replication%s%s%s)\n",
		       a.pos[i], w && strict ? "not ok under --strict" : "ok", wt, nodes, jobs,
		       s->npolicies, s->replications, s->replications == 1 ? "" : "s", pts,
		       s->cost.builtin ? "; no cost_model: the built-in " SCN_DEFAULT_MODEL : "");
		if (w && strict)
			rc = 1;
		scn_sweep_free(sw);
	}
	return rc;
}

/* ---- policies ------------------------------------------------------ */

static const struct cmd_opt policies_opts[] = {
	PLUGIN_OPT,
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

static int cmd_policies(int argc, char **argv)
{
	struct cmd_args a;
	if (cmd_parse("policies", policies_opts, argc, argv, &a))
		return 2;
	if (cmd_get(policies_opts, &a, "help")) {
		cmd_help("policies", "[--plugin FILE]...", "List the registered policies (the "
			 "built-ins, then those of the plugins\nloaded) and their switches.",
			 policies_opts);
		return 0;
	}
	if (a.npos) {
		fprintf(stderr, "hetsim policies: unexpected argument '%s'\n", a.pos[0]);
		return 2;
	}
	if (cmd_load_plugins(policies_opts, &a))
		return 1;
	int n;
	const struct policy_ops *const *all = pol_all(&n);
	for (int i = 0; i < n; i++) {
		printf("%-18s %s%s%s\n", all[i]->name, all[i]->summary,
		       all[i]->uses_labels ? "" : " (ignores labels)",
		       all[i]->gpu_aware && all[i]->gpu_aware(NULL) ? "" : " (TF nodes grab idle GPUs)");
		static const char *const needs[] = {"run-time estimates", "fractional GPUs",
						    "a throughput matrix", "preemption",
						    "a Spark event log"};
		for (int k = 0, n = 0; k < 5; k++)
			if (all[i]->needs >> k & 1)
				printf("%s%s", n++ ? ", " : "    needs          ", needs[k]);
		if (all[i]->needs)
			printf("\n");
		if (pol_plugin_file(all[i]))
			printf("    plugin         %s (built for hetsim %s, plugin ABI %d)\n",
			       pol_plugin_file(all[i]), pol_plugin_built_for(all[i]),
			       HETSIM_POLICY_ABI);
		for (const struct pol_param *p = all[i]->params; p->key; p++) {
			char kind[128] = "true|false", r[96];
			static const char *const kinds[] = {[POL_INT] = "integer", [POL_NUM] = "number",
							    [POL_TIME] = "time", [POL_SIZE] = "size"};
			if (p->type == POL_CHOICE) {
				kind[0] = '\0';
				for (int c = 0; p->choices[c]; c++)
					snprintf(kind + strlen(kind), sizeof kind - strlen(kind), "%s%s",
						 c ? "|" : "", p->choices[c]);
			} else if (p->type != POL_BOOL) {
				snprintf(kind, sizeof kind, "%s %s", kinds[p->type],
					 switch_range(p, r, sizeof r));
			}
			printf("    %-14s %-18s default %-9s %s\n", p->key, kind, p->def, p->help);
		}
	}
	return 0;
}


/* ---- models -------------------------------------------------------- */

/* The default of key k of a model, from its defaults struct, as a
 * scenario would write it. */
static const char *key_default(const struct jm_key *k, const void *defaults, char *buf,
			       size_t len)
{
	const char *at = (const char *)defaults + k->off;
	if (k->required)
		return "required";
	switch (k->kind) {
	case JM_INT:
		snprintf(buf, len, "%d", *(const int *)(const void *)at);
		break;
	case JM_SIZE:
		snprintf(buf, len, "%" PRId64 "MiB", *(const int64_t *)(const void *)at);
		break;
	case JM_TIME:
		snprintf(buf, len, "%gs", (double)*(const int64_t *)(const void *)at / 1e6);
		break;
	case JM_NUM:
		snprintf(buf, len, "%g", *(const double *)(const void *)at);
		break;
	case JM_ENUM:
		snprintf(buf, len, "%s", k->names[*(const int *)(const void *)at]);
		break;
	case JM_ROLE: {
		const struct scn_exec *e = (const void *)at;
		char c[32] = "";
		if (k->lo) /* a role that takes a count */
			snprintf(c, sizeof c, "count: %d, ", e->count);
		snprintf(buf, len, "{%scores: %d, memory: %" PRId64 "MiB, gpus: %d}", c, e->cores,
			 e->mem_mib, e->gpus);
		break;
	}
	case JM_DIST_SIZE:
	case JM_STAGES:
		snprintf(buf, len, "-");
		break;
	}
	return buf;
}

static const char *const key_kinds[] = {
	[JM_INT] = "integer", [JM_SIZE] = "size", [JM_TIME] = "time", [JM_NUM] = "number",
	[JM_DIST_SIZE] = "size|dist", [JM_ENUM] = "choice", [JM_ROLE] = "role", [JM_STAGES] = "stages",
};

static const struct cmd_opt models_opts[] = {
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

static int cmd_models(int argc, char **argv)
{
	struct cmd_args a;
	if (cmd_parse("models", models_opts, argc, argv, &a))
		return 2;
	if (cmd_get(models_opts, &a, "help")) {
		cmd_help("models", "", "List the job models and their scenario keys (besides the keys "
			 "every job group takes: docs/scenario.md).", models_opts);
		return 0;
	}
	if (a.npos) {
		fprintf(stderr, "hetsim models: unexpected argument '%s'\n", a.pos[0]);
		return 2;
	}
	for (int t = 0; t < jm_count(); t++) {
		const struct job_model *m = jm_at(t);
		printf("%-12s roles: %s%s%s\n", m->name, m->ops->roles[0], m->ops->roles[1] ? ", " : "",
		       m->ops->roles[1] ? m->ops->roles[1] : "");
		for (int i = 0; i < m->nkeys; i++) {
			const struct jm_key *k = &m->keys[i];
			char d[128];
			printf("    %-20s %-10s default %-10s %s\n", k->key, key_kinds[k->kind],
			       key_default(k, m->defaults, d, sizeof d), k->help);
		}
	}
	return 0;
}

/* ---- the table ----------------------------------------------------- */

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"run", cmd_run, "simulate a scenario and compare its policies"},
	{"sweep", cmd_sweep, "run a scenario's sweep with replications and confidence intervals"},
	{"validate", cmd_validate, "check scenario files"},
	{"policies", cmd_policies, "list policies and their switches"},
	{"models", cmd_models, "list job models and their scenario keys"},
	{"plot", cmd_plot, "render figures from results (gnuplot)"},
	{"calibrate", cmd_calibrate, "time the real kernels and fit the cost-model file (GSL)"},
	{"trace", cmd_trace, "what a trace file holds (SWF, Alibaba, Philly, Spark event logs)"},
	{"replay-log", cmd_replay_log, "replay a Spark event log; per-stage error, what-ifs"},
	{"compare", cmd_compare, "a leaderboard of policies over workloads, with CIs and ranks"},
	{"fgd", cmd_fgd, "the FGD experiment: GPU allocation and fragmentation by offered load"},
	{"report", cmd_report, "one self-contained report.html for a results folder"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: hetsim [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (int i = 0; i < ARRAY_LEN(commands); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'hetsim COMMAND --help' tells more.\n");
}

int cmd_main(int argc, char **argv)
{
	/* a write past the file size limit (ulimit -f) fails with EFBIG, to
	 * be reported by the writer, instead of killing hetsim between the
	 * files of a set */
	signal(SIGXFSZ, SIG_IGN);
	/* a fault or a stop removes what this process was writing */
	cmd_guard_install();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *c = argv[1];
	if (strcmp(c, "--version") == 0) {
		printf("hetsim %s\n", HETSIM_VERSION);
		return 0;
	}
	if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 || strcmp(c, "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (int i = 0; i < ARRAY_LEN(commands); i++)
		if (strcmp(c, commands[i].name) == 0) {
			int rc = commands[i].fn(argc - 2, argv + 2);
			/* what went to standard output must have arrived (a full
			 * disk, ulimit -f): else it failed, whatever it said */
			errno = 0;
			if (fflush(stdout) || ferror(stdout)) {
				fprintf(stderr, "hetsim %s: cannot write the standard output: %s\n", c,
					strerror(cmd_io_errno(stdout, errno)));
				clearerr(stdout);
				return rc ? rc : 1;
			}
			return rc;
		}
	const char *names[ARRAY_LEN(commands)];
	for (int i = 0; i < ARRAY_LEN(commands); i++)
		names[i] = commands[i].name;
	const char *near = suggest(c, names, ARRAY_LEN(commands));
	fprintf(stderr, "hetsim: unknown command '%s'%s%s%s (see hetsim --help)\n", c,
		near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	return 2;
}
