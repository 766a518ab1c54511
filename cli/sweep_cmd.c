/* sweep_cmd.c - the `hetsim sweep` command: its options, the plan made
 * and its guards (the runs at once must fit in memory), the notes, the
 * runs executed (sweep_exec.c) and their rows gathered into the result
 * set (sweep.c), committed whole; and the resumable state,
 * DIR/sweep.state, that --resume reads.  The top of the sweep's files:
 * it calls the other two, and none calls it.
 */
#define _DEFAULT_SOURCE /* realpath, truncate */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#ifdef HETSIM_MPI
#include <mpi.h>
#endif

#include "registry.h"
#include "load.h"
#include "cmd.h"
#include "metrics.h"
#include "plot.h"
#include "policy.h"
#include "rows.h"
#include "scenario.h"
#include "sim.h"
#include "sweep.h"
#include "util.h"


/* ---- the command --------------------------------------------------- */

/* "note: policy X ignores the scenario's node labels", once a policy;
 * the built-in cost model, once. */
static void notes(const struct plan *pl)
{
	for (int p = 0; p < pl->sw->npoints; p++)
		if (pl->sw->point[p]->cost.builtin) {
			fprintf(stderr, "note: %s names no cost_model: using the built-in default, "
				"the assumed figures of " SCN_DEFAULT_MODEL "\n", pl->sw->point[p]->path);
			break;
		}
	const char **names = xcalloc((size_t)pl->ngroups, sizeof *names);
	int n = sw_policy_order(pl, names);
	for (int i = 0; i < n; i++)
		for (int p = 0; p < pl->sw->npoints; p++) {
			int gid = sw_group_of(pl, p, names[i]);
			if (gid < 0)
				continue;
			const struct scn_policy *pol = &pl->pols[p][gid - pl->gfirst[p]];
			const struct policy_ops *ops = pol->ops;
			if (!ops || ops->uses_labels || !rows_scenario_has_labels(pl->sw->point[p]))
				continue;
			bool alias = strcmp(pol->name, ops->name) != 0;
			fprintf(stderr, "note: policy '%s'%s%s%s ignores the scenario's node labels\n",
				pol->name, alias ? " (" : "", alias ? ops->name : "", alias ? ")" : "");
			break;
		}
	free(names);
}

/* The runs a sweep has at once, each in its own worker process, must fit
 * together in the memory a load may plan for: the loader checked each
 * point's run alone (scn.run_bytes); here the largest of them times the
 * runs at once (the workers, at most the runs left).  0, or -1 with the
 * message said (rank 0). */
static int check_runs_at_once(const struct plan *pl, const struct cmd_sweep_opts *o,
			      int workers)
{
	long left = pl->nruns - o->nresumed;
	long at_once = workers < left ? workers : left;
	const char *whose;
	int64_t limit = scn_memory_limit(&whose);
	if (at_once <= 1 || limit < 0)
		return 0;
	int top = 0;
	for (int p = 1; p < pl->sw->npoints; p++)
		if (pl->sw->point[p]->run_bytes > pl->sw->point[top]->run_bytes)
			top = p;
	double one = (double)pl->sw->point[top]->run_bytes, all = one * (double)at_once;
	if (all <= (double)limit)
		return 0;
	char a[32], b[32], l[32], at[512];
	if (pl->say)
		fprintf(stderr, "hetsim sweep: %ld runs at once (--workers %d) would hold about %s "
			"(each up to %s, a run of sweep point %d:%s), above the %s %s: fewer workers "
			"(-j N), or --max-memory SIZE\n", at_once, workers, scn_mem_text(all, a),
			scn_mem_text(one, b), top, scn_sweep_point_text(pl->sw, top, at, sizeof at),
			scn_mem_text((double)limit, l), whose);
	return -1;
}

int cmd_sweep_scenario(struct scn_sweep *sw, const struct cmd_sweep_opts *o, const char *dir)
{
	struct plan pl = {0};
	struct exec x = {.pl = &pl};
	struct gather g = {.pl = &pl};
	struct rows_files out = {.cmd = "sweep", .dir = dir, .names = sw_out_names, .n = NOUT};
	FILE **f = out.f;
	sw_ranks(&x.rank, &x.nranks);
	pl.say = x.rank == 0;
	sw_metrics_init();
	int workers = o->workers > 0 ? o->workers : sw_default_workers();
	int rc = sw_plan_build(&pl, sw, o);
	rc = sw_agree(rc ? rc : check_runs_at_once(&pl, o, workers) ? 1 : 0);
	if (rc) {
		sw_plan_free(&pl);
		return rc;
	}
	if (x.rank == 0) {
		rc = sw_open_outputs(&out, sw) ? 1 : 0;
		g.runs = f[OUT_RUNS];
		g.timing = f[OUT_TIMING];
		g.types = f[OUT_TYPES];
		g.pending = xcalloc((size_t)pl.nruns, sizeof *g.pending);
		g.sum = xcalloc((size_t)pl.ngroups, sizeof *g.sum);
		g.mk = xcalloc((size_t)pl.ngroups, sizeof *g.mk);
		g.mkrun = xcalloc((size_t)pl.nruns, sizeof *g.mkrun);
		g.setrun = xcalloc((size_t)pl.nruns, sizeof *g.setrun);
		g.counts = xcalloc((size_t)pl.ngroups, sizeof *g.counts);
		g.vals = xcalloc((size_t)sw_nmetrics * pl.maxreps, sizeof *g.vals);
		g.bar = !o->quiet && isatty(STDERR_FILENO);
		g.t0 = sw_now_s();
		x.g = &g;
		x.ranks_left = x.nranks - 1;
		if (!o->quiet && rc == 0)
			notes(&pl);
	}
	rc = sw_agree(rc);
	char state_path[4200];
	snprintf(state_path, sizeof state_path, "%s/sweep.state", dir);
	if (rc == 0 && x.rank == 0 && o->state_head && x.nranks == 1) {
		if (o->resume && o->state_runs != pl.nruns) {
			fprintf(stderr, "hetsim sweep: %s: made for %ld runs, the sweep has %ld: run "
				"it again without --resume\n", state_path, o->state_runs, pl.nruns);
			rc = 1;
		} else if (!(x.state = fopen(state_path, o->resume ? "a" : "w")) ||
			   (!o->resume && (fprintf(x.state, "%sruns %ld\nend\n", o->state_head,
						   pl.nruns) < 0 || fflush(x.state)))) {
			fprintf(stderr, "hetsim sweep: %s: %s\n", state_path, strerror(errno));
			rc = 1;
		}
	}
	if (rc == 0 && x.rank == 0 && o->resume) { /* the runs done before, as they came */
		x.done = o->resume;
		if (!o->quiet)
			fprintf(stderr, "hetsim sweep: resuming %s: %ld of %ld runs were done; running "
				"the other %ld\n", dir, o->nresumed, pl.nruns, pl.nruns - o->nresumed);
		for (long i = 0; i < pl.nruns; i++)
			if (o->resume[i])
				sw_gather_row(&g, i, xstrdup(o->resume[i]));
	}
	struct cmd_stop stop;
	cmd_stop_catch(&stop);
	bool lonely = false; /* failed where the other ranks do not know */
	if (rc == 0 && sw_execute(&x, workers))
		rc = 1, lonely = true;
	cmd_stop_release(&stop);
	if (cmd_stopped && x.rank == 0) {
		fprintf(stderr, "hetsim sweep: interrupted (%s): %ld of %ld runs done%s%s; no file "
			"written\n", cmd_stop_name(cmd_stopped), g.arrived, pl.nruns,
			x.state ? "; hetsim sweep --resume " : "", x.state ? dir : "");
		x.err[0] = 0;
		rc = 128 + cmd_stopped;
	}
	if (x.rank == 0) {
		sw_progress(&g, true);
		if (rc && x.err[0])
			fprintf(stderr, "hetsim sweep: %s\n", x.err);
		if (rc == 0 && g.next != pl.nruns) {
			fprintf(stderr, "hetsim sweep: %ld of %ld runs came back\n", g.next, pl.nruns);
			rc = 1;
		}
		if (rc == 0 && f[OUT_SUMMARY])
			sw_write_summary(&g, f[OUT_SUMMARY]);
		if (rows_files_close(&out, rc == 0))
			rc = rc ? rc : 1;
		if (x.state) { /* a sweep done has nothing to resume */
			fclose(x.state);
			if (rc == 0)
				remove(state_path);
		}
		if (rc == 0 && !o->quiet)
			sw_print_table(&g, dir);
		sw_gather_free(&g);
	}
	if (lonely)
		sw_abort_ranks();
	sw_plan_free(&pl);
	return rc;
}

static const struct cmd_opt sweep_opts[] = {
	{"output", 'o', "DIR", "write the CSV files here (default results/<scenario>/)"},
	{"workers", 'j', "N", "run N simulations at a time, in worker processes (default: the "
			      "online CPUs; 1: in this process)"},
	{"replications", 'r', "N", "override the number of replications of every point"},
	{"seed", 0, "N", "override the scenario's seed"},
	{"policy", 'p', "NAME", "run only this policy (a scenario entry's name, or a "
				"registered policy with its defaults); repeatable"},
	{"baseline", 0, "NAME", "the policy changes are against (default: the first policy listed)"},
	{"plugin", 0, "FILE", "load a policy plugin (a shared object: docs/writing-a-policy.md) "
			      "and register its policy; repeatable"},
	CMD_MAXMEM_OPT,
	CMD_MAXSTALL_OPT,
	{"resume", 0, "DIR", "finish the interrupted sweep of DIR (its scenario and options "
			     "from DIR/sweep.state; the runs it holds are not run again)"},
	{"quiet", 'q', NULL, "print no table, no notes and no progress"},
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

/* ---- the resumable state (DIR/sweep.state) ---------------------------
 *
 *     hetsim-sweep-state 2     (2: runs.csv rows with done_set; a state of 1
 *                           is refused, its rows laid out otherwise)
 *     hash HEX              FNV-1a of the arguments below and the bytes
 *                           of the scenario file, its cost model and the
 *                           traces and logs it reads (scn.inputs; a
 *                           folder: each entry's name and bytes)
 *     arg TEXT              the scenario (an absolute path), then each
 *     ...                   option that shapes the results, as --name=value
 *     runs N
 *     end
 *     R INDEX LEN           a run back, then its LEN bytes of rows
 *
 * A record cut short (the sweep was killed as it wrote) is dropped at
 * --resume and the file cut back to the last whole one. */

#define STATE_MAX_ARGS 64

struct state {
	char *args[STATE_MAX_ARGS]; int nargs;
	uint64_t hash;
	long runs;
	char **rec; long nrec;
};

static int not_dots(const struct dirent *e)
{
	return strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
}

/* The bytes of a file, or of a folder (a trace format of tables: PAI)
 * every entry's name and bytes in name order, its folders to a depth
 * of 4; then a NUL. */
static uint64_t fnv_path(uint64_t h, const char *path, int depth)
{
	struct stat st;
	if (path && depth < 4 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		struct dirent **e;
		int n = scandir(path, &e, not_dots, alphasort);
		for (int i = 0; i < n; i++) {
			size_t len = strlen(path) + strlen(e[i]->d_name) + 2;
			char *p = xmalloc(len);
			snprintf(p, len, "%s/%s", path, e[i]->d_name);
			h = fnv1a(h, e[i]->d_name, strlen(e[i]->d_name) + 1);
			h = fnv_path(h, p, depth + 1);
			free(p);
			free(e[i]);
		}
		if (n >= 0)
			free(e);
		return fnv1a(h, "\0", 1);
	}
	FILE *f = path ? fopen(path, "rb") : NULL;
	char buf[65536];
	size_t n;
	while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
		h = fnv1a(h, buf, n);
	if (f)
		fclose(f);
	return fnv1a(h, "\0", 1);
}

static uint64_t fnv_file(uint64_t h, const char *path)
{
	return fnv_path(h, path, 0);
}

/* The options of a that shape the results, as --name=value (not where
 * they go, how many workers, or how much is printed). */
static int state_args(const struct cmd_args *a, const char *scenario, struct state *st)
{
	char *abs = realpath(scenario, NULL);
	st->args[st->nargs++] = abs ? abs : xstrdup(scenario);
	for (int i = 0; i < a->n && st->nargs < STATE_MAX_ARGS; i++) {
		const char *name = sweep_opts[a->opt[i]].name;
		if (!strcmp(name, "output") || !strcmp(name, "workers") || !strcmp(name, "quiet") ||
		    !strcmp(name, "resume"))
			continue;
		if (strchr(a->val[i], '\n'))
			return -1; /* (not kept: it would not read back) */
		size_t n = strlen(name) + strlen(a->val[i]) + 4;
		st->args[st->nargs] = xmalloc(n);
		snprintf(st->args[st->nargs++], n, "--%s=%s", name, a->val[i]);
	}
	return 0;
}

static uint64_t state_hash(const struct state *st, const struct scn_sweep *sw)
{
	uint64_t h = FNV1A_BASIS;
	for (int i = 0; i < st->nargs; i++)
		h = fnv1a(h, st->args[i], strlen(st->args[i]) + 1);
	h = fnv_file(h, st->args[0]);
	h = fnv_file(h, sw->point[0]->cost.path);
	for (int i = 0; i < sw->point[0]->ninputs; i++) /* its traces and logs */
		h = fnv_file(h, sw->point[0]->inputs[i]);
	return h;
}

static char *state_head(const struct state *st, uint64_t hash)
{
	size_t n = 64;
	for (int i = 0; i < st->nargs; i++)
		n += strlen(st->args[i]) + 8;
	char *h = xmalloc(n);
	int k = snprintf(h, n, "hetsim-sweep-state 2\nhash %016" PRIx64 "\n", hash);
	for (int i = 0; i < st->nargs; i++)
		k += snprintf(h + k, n - (size_t)k, "arg %s\n", st->args[i]);
	return h;
}

static void state_free(struct state *st)
{
	for (int i = 0; i < st->nargs; i++)
		free(st->args[i]);
	for (long i = 0; st->rec && i < st->runs; i++) /* by run index: nrec of them set */
		free(st->rec[i]);
	free(st->rec);
	memset(st, 0, sizeof *st);
}

/* Read DIR/sweep.state into st, cutting off a record cut short; 0, or 1
 * with one line said. */
static int state_read(const char *dir, struct state *st)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/sweep.state", dir);
	const char *why;
	FILE *f = fopen_regular(path, &why);
	if (!f) {
		fprintf(stderr, "hetsim sweep: option '--resume': %s: %s (nothing to resume)\n",
			path, why);
		return 1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, rc = 0;
	bool ended = false;
	while (!ended && (n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = 0;
		if (lineno == 1 && strcmp(line, "hetsim-sweep-state 2"))
			rc = 1;
		else if (!strncmp(line, "hash ", 5))
			st->hash = strtoull(line + 5, NULL, 16);
		else if (!strncmp(line, "arg ", 4) && st->nargs < STATE_MAX_ARGS)
			st->args[st->nargs++] = xstrdup(line + 4);
		else if (!strncmp(line, "runs ", 5))
			st->runs = strtol(line + 5, NULL, 10);
		else if (!strcmp(line, "end"))
			ended = true;
		else if (lineno > 1)
			rc = 1;
		if (rc) {
			fprintf(stderr, "hetsim sweep: %s:%d:1: not a sweep state (line %d)\n", path,
				lineno, lineno);
			break;
		}
	}
	if (!rc && (!ended || st->nargs < 1 || st->runs < 1 || st->runs > MAX_RUNS)) {
		fprintf(stderr, "hetsim sweep: %s:%d:1: not a whole sweep state header\n", path,
			lineno);
		rc = 1;
	}
	long good = ftell(f);
	if (!rc) {
		st->rec = xcalloc((size_t)st->runs, sizeof *st->rec);
		long i;
		size_t len;
		while (fscanf(f, "R %ld %zu", &i, &len) == 2 && getc(f) == '\n' && i >= 0 &&
		       i < st->runs && len < (1u << 30)) {
			char *t = xmalloc(len + 1);
			if (fread(t, 1, len, f) != len) {
				free(t);
				break;
			}
			t[len] = 0;
			if (!st->rec[i])
				st->nrec++;
			free(st->rec[i]);
			st->rec[i] = t;
			good = ftell(f);
		}
		if (truncate(path, good)) { /* the record cut short, if any, goes */
			fprintf(stderr, "hetsim sweep: %s: %s\n", path, strerror(errno));
			rc = 1;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

static int sweep_options(const struct cmd_args *a, struct cmd_sweep_opts *o)
{
	const char *v;
	int64_t x;
	if ((v = cmd_get(sweep_opts, a, "seed"))) {
		if (cmd_seed("sweep", v, &o->seed))
			return 2;
		o->seed_set = true;
		scn_seed_at_load = o->seed; /* an offer-only trace's order follows it */
		scn_seed_at_load_set = true;
	}
	if ((v = cmd_get(sweep_opts, a, "replications"))) {
		if ((x = cmd_int("sweep", "replications", v, 1000000)) < 1) {
			if (x == 0)
				fprintf(stderr, "hetsim sweep: option '--replications' must be at least 1\n");
			return 2;
		}
		o->replications = (int)x;
	}
	if ((v = cmd_get(sweep_opts, a, "workers"))) {
		if ((x = cmd_int("sweep", "workers", v, MAX_WORKERS)) < 1) {
			if (x == 0)
				fprintf(stderr, "hetsim sweep: option '--workers' must be at least 1\n");
			return 2;
		}
		o->workers = (int)x;
	}
	o->quiet = cmd_get(sweep_opts, a, "quiet") != NULL;
	o->baseline = cmd_get(sweep_opts, a, "baseline");
	for (int i = 0; i < a->n; i++)
		if (strcmp(sweep_opts[a->opt[i]].name, "policy") == 0) {
			if (o->npolicies == ARRAY_LEN(o->policies)) {
				fprintf(stderr, "hetsim sweep: too many '--policy' options\n");
				return 2;
			}
			o->policies[o->npolicies++] = a->val[i];
		}
	return 0;
}

static int sweep_main(int argc, char **argv, struct state *resumed)
{
	struct cmd_args a;
	struct cmd_sweep_opts o = {0};
	if (cmd_parse("sweep", sweep_opts, argc, argv, &a) ||
	    cmd_unique("sweep", sweep_opts, &a, "policy"))
		return 2;
	if (cmd_get(sweep_opts, &a, "help")) {
		cmd_help("sweep", "SCENARIO [options]",
			 "Run every point of a scenario's sweep block under its policies, with\n"
			 "replications; write runs.csv, types.csv (per job model) and summary.csv\n"
			 "(mean, sd and 95% confidence interval of each metric per policy and\n"
			 "point) and print makespans.",
			 sweep_opts);
		return 0;
	}
	const char *rdir = cmd_get(sweep_opts, &a, "resume");
	if (rdir && !resumed) { /* the scenario and options from the state */
		if (a.npos || cmd_get(sweep_opts, &a, "output")) {
			fprintf(stderr, "hetsim sweep: option '--resume' takes the scenario, its options "
				"and the folder from %s/sweep.state: give no SCENARIO or --output\n",
				rdir);
			return 2;
		}
		struct state st = {0};
		if (state_read(rdir, &st)) {
			state_free(&st);
			return 1;
		}
		char *av[STATE_MAX_ARGS + 8];
		int ac = 0;
		for (int i = 0; i < st.nargs; i++)
			av[ac++] = st.args[i];
		av[ac++] = "-o";
		av[ac++] = (char *)rdir;
		char jv[32];
		if (cmd_get(sweep_opts, &a, "workers")) {
			snprintf(jv, sizeof jv, "--workers=%s", cmd_get(sweep_opts, &a, "workers"));
			av[ac++] = jv;
		}
		if (cmd_get(sweep_opts, &a, "quiet"))
			av[ac++] = "-q";
		int rc = sweep_main(ac, av, &st);
		state_free(&st);
		return rc;
	}
	if (a.npos != 1) {
		fprintf(stderr, "hetsim sweep: expected one SCENARIO file, got %d arguments\n", a.npos);
		return 2;
	}
	if (sweep_options(&a, &o) || cmd_max_memory("sweep", sweep_opts, &a) ||
	    cmd_max_stall("sweep", sweep_opts, &a))
		return 2;
	char err[1024];
	struct scn_sweep *sw = NULL;
	if (cmd_load_plugins(sweep_opts, &a) == 0 &&
	    !(sw = scn_sweep_load(a.pos[0], err, sizeof err)))
		fprintf(stderr, "%s\n", err);
	scn_seed_at_load_set = false; /* this command's loads only */
	int rc = sw_agree(sw ? 0 : 1);
	if (rc) {
		scn_sweep_free(sw);
		return rc;
	}
	char dir[4096];
	const char *out = cmd_get(sweep_opts, &a, "output");
	if (!out) {
		snprintf(dir, sizeof dir, "results/%s", sw->point[0]->name);
		out = dir;
	}
	/* the resumable state, where one process writes the files */
	struct state st = {0};
	char *head = NULL;
	int nranks = 1, rank = 0;
	sw_ranks(&rank, &nranks);
	/* (a scenario on standard input cannot be read again: no state) */
	if (nranks == 1 && strcmp(a.pos[0], "-") && state_args(&a, a.pos[0], &st) == 0) {
		uint64_t h = state_hash(&st, sw);
		if (resumed && h != resumed->hash) {
			fprintf(stderr, "hetsim sweep: %s/sweep.state: the scenario, its cost model or "
				"its options changed since the sweep began: run it again without "
				"--resume\n", out);
			state_free(&st);
			scn_sweep_free(sw);
			return 1;
		}
		o.state_head = head = state_head(&st, h);
		if (resumed) {
			o.resume = resumed->rec;
			o.state_runs = resumed->runs;
			o.nresumed = resumed->nrec;
		}
	}
	rc = cmd_sweep_scenario(sw, &o, out);
	free(head);
	state_free(&st);
	scn_sweep_free(sw);
	return rc;
}

int cmd_sweep(int argc, char **argv)
{
#ifdef HETSIM_MPI
	int rank;
	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank > 0) { /* rank 0 speaks for all */
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			MPI_Abort(MPI_COMM_WORLD, 1);
	}
	int rc = sweep_main(argc, argv, NULL);
	MPI_Finalize();
	return rc;
#else
	return sweep_main(argc, argv, NULL);
#endif
}
