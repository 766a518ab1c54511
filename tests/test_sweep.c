/* test_sweep.c - sweeps: the sweep block of a scenario (scn_sweep_load),
 * the confidence-interval arithmetic, and `hetsim sweep`'s files: the
 * same bytes whatever -j, summary rows that follow from runs.csv, a point
 * that reproduces with `hetsim run`, and a dead worker that leaves no file.
 *
 * Files: tests/scenarios/sweep/ (two-axes.yaml: 3 x 2 points, one axis
 * moving two keys; paths.yaml: every way a path selects) and
 * tests/scenarios/bad/sweep_*.yaml (one mistake each, message pinned).
 */
#define _DEFAULT_SOURCE /* strndup, usleep, mkdtemp */
#include "models.h"
#include "load.h"
#include "plot.h"
#include "test.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "harness.h"
#include "scenario.h"

#define SWEEP_DIR "tests/scenarios/sweep/"
#define BAD_DIR "tests/scenarios/bad/"

static char tmpdir[64];

static struct scn_sweep *load_sweep(const char *path)
{
	char err[1024] = "";
	struct scn_sweep *sw = scn_sweep_load(path, err, sizeof err);
	if (!sw)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	return sw;
}

/* ------------------------------------------------------------------ */
/* Confidence intervals                                                */

static void test_ci(void)
{
	/* {1..5}: mean 3, sd sqrt(10/4) = 1.5811388300841898, t(0.975, 4) =
	 * 2.7764451051977987 (tables: 2.776445), half = t sd / sqrt(5). */
	const double x[] = {1, 2, 3, 4, 5};
	struct plot_ci95 c;
	plot_ci95(x, 5, &c);
	CU_ASSERT_EQUAL(c.n, 5);
	CU_ASSERT_DOUBLE_EQUAL(c.mean, 3.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(c.sd, 1.5811388300841898, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(c.half, 1.9632431614775607, 1e-9);

	/* {2, 4}: mean 3, sd sqrt(2), t(0.975, 1) = 12.706204736174707 */
	plot_ci95((const double[]){2, 4}, 2, &c);
	CU_ASSERT_DOUBLE_EQUAL(c.sd, 1.4142135623730951, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(c.half, 12.706204736174707 * 1.4142135623730951 / sqrt(2), 1e-8);

	/* one value: sd 0 and no interval; none: nothing */
	plot_ci95((const double[]){7.5}, 1, &c);
	CU_ASSERT_EQUAL(c.n, 1);
	CU_ASSERT_DOUBLE_EQUAL(c.mean, 7.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(c.sd, 0, 0);
	CU_ASSERT(isnan(c.half));
	plot_ci95(NULL, 0, &c);
	CU_ASSERT(isnan(c.mean) && isnan(c.sd) && isnan(c.half));
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

static void test_two_axes(void)
{
	struct scn_sweep *sw = load_sweep(SWEEP_DIR "two-axes.yaml");
	CU_ASSERT_EQUAL_FATAL(sw->npoints, 6);
	CU_ASSERT_EQUAL_FATAL(sw->naxes, 2);
	CU_ASSERT_STRING_EQUAL(sw->axes[0].label, "jobs");
	CU_ASSERT_STRING_EQUAL(sw->axes[1].label, "gpu_nodes");
	CU_ASSERT_EQUAL(sw->axes[0].nvalues, 3);
	CU_ASSERT_EQUAL(sw->axes[1].nvalues, 2);
	/* first axis slowest: (2, one) (2, two) (4, one) ... */
	static const int jobs[6] = {2, 2, 4, 4, 6, 6}, gpu[6] = {1, 2, 1, 2, 1, 2};
	static const int cpu[6] = {3, 2, 3, 2, 3, 2};
	static const char *const shown[6][2] = {{"2", "one"}, {"2", "two"}, {"4", "one"},
						{"4", "two"}, {"6", "one"}, {"6", "two"}};
	for (int p = 0; p < 6; p++) {
		const struct scn *s = sw->point[p];
		CU_ASSERT_EQUAL(scn_sweep_at(sw, p, 0), p / 2);
		CU_ASSERT_EQUAL(scn_sweep_at(sw, p, 1), p % 2);
		CU_ASSERT_STRING_EQUAL(scn_sweep_shown(sw, p, 0), shown[p][0]);
		CU_ASSERT_STRING_EQUAL(scn_sweep_shown(sw, p, 1), shown[p][1]);
		CU_ASSERT_STRING_EQUAL(s->name, "two-axes");
		CU_ASSERT_STRING_EQUAL(s->path, SWEEP_DIR "two-axes.yaml");
		CU_ASSERT_EQUAL(s->seed, 7);
		CU_ASSERT_EQUAL(s->replications, 3);
		CU_ASSERT_EQUAL_FATAL(s->ngroups, 2);
		CU_ASSERT_STRING_EQUAL(s->groups[0].name, "gpu");
		CU_ASSERT_EQUAL(s->groups[0].count, gpu[p]); /* a key the file lacks */
		CU_ASSERT_EQUAL(s->groups[0].gpus, 1);
		CU_ASSERT_EQUAL(s->groups[1].count, cpu[p]);
		CU_ASSERT_EQUAL(s->groups[1].cores, 4);
		CU_ASSERT_EQUAL_FATAL(s->njobgroups, 1);
		CU_ASSERT_EQUAL(s->jobs[0].count, jobs[p]);
		CU_ASSERT_EQUAL(s->jobs[0].arrival.interval_us, 3000000);
		CU_ASSERT_EQUAL(((const struct jm_wordcount *)s->jobs[0].params)->exec.cores, 2);
		CU_ASSERT_EQUAL(s->npolicies, 2);
	}
	scn_sweep_free(sw);

	/* scn_load: every point checked, point 0 returned */
	char err[512] = "";
	struct scn *s = scn_load(SWEEP_DIR "two-axes.yaml", err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->jobs[0].count, 2);
	CU_ASSERT_EQUAL(s->groups[0].count, 1);
	CU_ASSERT_EQUAL(s->groups[1].count, 3);
	scn_free(s);

	/* a file without a sweep block: one point, no axes */
	sw = load_sweep("tests/scenarios/ok/full.yaml");
	CU_ASSERT_EQUAL(sw->npoints, 1);
	CU_ASSERT_EQUAL(sw->naxes, 0);
	CU_ASSERT_STRING_EQUAL(sw->point[0]->name, "full-test");
	scn_sweep_free(sw);
}

static const char *param(const struct scn_policy *p, const char *key)
{
	for (int i = 0; i < p->nparams; i++)
		if (strcmp(p->params[i].key, key) == 0)
			return p->params[i].value;
	return NULL;
}

static void test_paths(void)
{
	struct scn_sweep *sw = load_sweep(SWEEP_DIR "paths.yaml");
	CU_ASSERT_EQUAL_FATAL(sw->naxes, 5);
	CU_ASSERT_EQUAL_FATAL(sw->npoints, 2 * 2 * 1 * 1 * 2);
	CU_ASSERT_STRING_EQUAL(sw->axes[0].label, "gang");   /* default: the last key */
	CU_ASSERT_STRING_EQUAL(sw->axes[1].label, "fifo_kind");
	CU_ASSERT_STRING_EQUAL(sw->axes[2].label, "tasks");
	CU_ASSERT_STRING_EQUAL(sw->axes[3].label, "seed_value");
	CU_ASSERT_STRING_EQUAL(sw->axes[4].label, "arrival");
	for (int p = 0; p < sw->npoints; p++) {
		const struct scn *s = sw->point[p];
		int gang = scn_sweep_at(sw, p, 0), kind = scn_sweep_at(sw, p, 1);
		int arr = scn_sweep_at(sw, p, 4);
		CU_ASSERT_EQUAL_FATAL(s->npolicies, 2);
		/* policies[fifo]: a scalar entry by its name, replaced whole */
		CU_ASSERT_STRING_EQUAL(s->policies[0].kind, kind ? "spark-standalone" : "fifo");
		/* policies[nogang].gang: a switch of a named entry */
		CU_ASSERT_STRING_EQUAL(s->policies[1].name, "nogang");
		CU_ASSERT_STRING_EQUAL(param(&s->policies[1], "gang"), gang ? "false" : "true");
		/* workload[1].stages[map].tasks: by index, then by name */
		CU_ASSERT_EQUAL(s->jobs[1].stages[0].tasks, 8);
		CU_ASSERT_EQUAL(s->jobs[1].stages[1].tasks, 2);
		/* seed: a top-level key the file lacks */
		CU_ASSERT_EQUAL(s->seed, 5);
		/* a flow mapping as a value */
		CU_ASSERT_EQUAL(s->jobs[0].arrival.kind, arr ? SCN_ARR_FIXED : SCN_ARR_INTERVAL);
		CU_ASSERT_EQUAL(arr ? s->jobs[0].arrival.start_us : s->jobs[0].arrival.interval_us,
				arr ? 1000000 : 2000000);
		CU_ASSERT_STRING_EQUAL(scn_sweep_shown(sw, p, 4), arr ? "at-1s" : "every-2s");
	}
	scn_sweep_free(sw);
}

static const struct {
	const char *file, *msg;
} bad[] = {
	{"sweep_path", "sweep_path.yaml:9:11: sweep path 'workload[wc].arrival.every': no key "
		       "'arrival' in 'workload[wc]'"},
	{"sweep_entry", "sweep_entry.yaml:10:11: sweep path 'workload[wordcount].count': no entry "
			"named 'wordcount' in 'workload' (names: wc, wc2)"},
	{"sweep_arity", "sweep_arity.yaml:12:22: expected a list of 2 values (one per path) in "
			"values of sweep axis 'nodes', got a list of 3"},
	{"sweep_value", "sweep_value.yaml:11:22: expected an integer, got 'x'"},
	{"sweep_empty", "sweep_empty.yaml:11:13: expected at least one value in values of sweep "
			"axis 'jobs', got an empty list"},
	{"sweep_label_dup", "sweep_label_dup.yaml:13:11: duplicate axis label 'count' (first at "
			    "line 10)"},
	{"sweep_point", "sweep_point.yaml:8:12: count 3 disagrees with the 2 arrival times "
			"(sweep point 1: arrival=times)"},
	{"sweep_points", "sweep_points.yaml:13:5: the sweep has 10100 points up to this axis (the "
			 "product of the axes' numbers of values), above the limit of 10000"},
	{"sweep_clash", "sweep_clash.yaml:13:11: sweep path 'workload[wc].arrival.every' lies "
			"inside the value that 'workload[wc].arrival' (line 10) replaces"},
};

static void test_bad(void)
{
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char path[256], want[512], err[512] = "";
		snprintf(path, sizeof path, BAD_DIR "%s.yaml", bad[i].file);
		snprintf(want, sizeof want, BAD_DIR "%s", bad[i].msg);
		struct scn_sweep *sw = scn_sweep_load(path, err, sizeof err);
		CU_ASSERT_PTR_NULL(sw);
		scn_sweep_free(sw);
		if (strcmp(err, want) != 0)
			fprintf(stderr, "\n  %s:\n    got  %s\n    want %s\n", bad[i].file, err, want);
		CU_ASSERT_STRING_EQUAL(err, want);
		/* scn_load says the same */
		err[0] = '\0';
		CU_ASSERT_PTR_NULL(scn_load(path, err, sizeof err));
		CU_ASSERT_STRING_EQUAL(err, want);
	}
}

/* ------------------------------------------------------------------ */
/* hetsim sweep                                                        */

static int sweep_into(const char *sub, int workers)
{
	char dir[128];
	snprintf(dir, sizeof dir, "%s/%s", tmpdir, sub);
	struct scn_sweep *sw = load_sweep(SWEEP_DIR "two-axes.yaml");
	struct cmd_sweep_opts o = {.workers = workers, .quiet = true};
	int rc = cmd_sweep_scenario(sw, &o, dir);
	scn_sweep_free(sw);
	return rc;
}

static char *file(const char *sub, const char *name)
{
	char p[192];
	snprintf(p, sizeof p, "%s/%s/%s", tmpdir, sub, name);
	return h_slurp(p, NULL);
}

/* Field `k` (0-based) of a CSV line into buf. */
static const char *field(const char *line, int k, char *buf, size_t len)
{
	for (int i = 0; i < k; i++)
		line = strchr(line, ',') + 1;
	size_t n = strcspn(line, ",\n");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), line);
	return buf;
}

static void test_workers_same_bytes(void)
{
	CU_ASSERT_EQUAL_FATAL(sweep_into("j1", 1), 0);
	CU_ASSERT_EQUAL_FATAL(sweep_into("j2", 2), 0);
	CU_ASSERT_EQUAL_FATAL(sweep_into("j5", 5), 0);
	static const char *const names[] = {"runs.csv", "summary.csv", "types.csv"};
	for (int i = 0; i < 3; i++) {
		char *a = file("j1", names[i]), *b = file("j2", names[i]), *c = file("j5", names[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(a);
		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT(strlen(a) > 1000);
		CU_ASSERT_STRING_EQUAL(a, b);
		CU_ASSERT_STRING_EQUAL(a, c);
		free(a);
		free(b);
		free(c);
	}
	char *r = file("j1", "runs.csv");
	const char *head = "scenario,policy,point,jobs,gpu_nodes,replication,seed,jobs,counted,";
	CU_ASSERT_NSTRING_EQUAL(r, head, strlen(head));
	/* 6 points x 2 policies x 3 replications, and the header */
	int lines = 0;
	for (const char *c = r; *c; c++)
		lines += *c == '\n';
	CU_ASSERT_EQUAL(lines, 1 + 36);
	CU_ASSERT_PTR_NOT_NULL(strstr(r, "\ntwo-axes,spark-standalone,0,2,one,0,7,2,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r, "\ntwo-axes,label-dual,5,6,two,2,7,6,"));
	free(r);
	char *s = file("j1", "summary.csv");
	CU_ASSERT_NSTRING_EQUAL(s, "scenario,policy,point,jobs,gpu_nodes,replications,metric,mean,"
				"sd,ci95_half,ci95_lo,ci95_hi\n", 88);
	free(s);
	/* types.csv: the leading columns of runs.csv, one row per run and
	 * job model (wordcount only), in run order */
	char *t = file("j1", "types.csv");
	CU_ASSERT_STRING_EQUAL(strtok(t, "\n"), "scenario,policy,point,jobs,gpu_nodes,replication,"
			       "model,jobs,counted,done,failed,timed_out,unplaceable,jct_mean_s,"
			       "jct_p50_s,jct_p95_s,jct_p99_s,wait_mean_s");
	int rows = 0, ordered = 0;
	for (const char *l; (l = strtok(NULL, "\n")); rows++) {
		char want[128], pol[32];
		int run = rows, point = run / 6, rep = run % 3;
		snprintf(pol, sizeof pol, "%s", run / 3 % 2 ? "label-dual" : "spark-standalone");
		snprintf(want, sizeof want, "two-axes,%s,%d,%d,%s,%d,wordcount,%d,", pol, point,
			 2 + 2 * (point / 2), point % 2 ? "two" : "one", rep, 2 + 2 * (point / 2));
		ordered += strncmp(l, want, strlen(want)) == 0;
	}
	CU_ASSERT_EQUAL(rows, 36);
	CU_ASSERT_EQUAL(ordered, 36);
	free(t);
	/* timing.csv: one row per run, in run order, each led by the same
	 * columns as its runs.csv row and carrying that run's decisions */
	for (int j = 0; j < 3; j++) {
		const char *sub = (const char *[]){"j1", "j2", "j5"}[j];
		char *t = file(sub, "timing.csv"), *rr = file(sub, "runs.csv");
		CU_ASSERT_PTR_NOT_NULL_FATAL(t);
		CU_ASSERT_PTR_NOT_NULL_FATAL(rr);
		const char *th = "scenario,policy,point,jobs,gpu_nodes,replication,wall_s,policy_s,"
				 "decisions,policy_us_per_decision\n";
		CU_ASSERT_NSTRING_EQUAL(t, th, strlen(th));
		const char *tl = strchr(t, '\n') + 1, *rl = strchr(rr, '\n') + 1;
		int rows = 0, same = 0;
		char a[64], b[64], c[64];
		for (; *tl && *rl; tl = strchr(tl, '\n') + 1, rl = strchr(rl, '\n') + 1, rows++) {
			bool ok = true;
			for (int k = 0; k < 6; k++) /* scenario .. replication */
				ok &= strcmp(field(tl, k, a, sizeof a), field(rl, k, b, sizeof b)) == 0;
			/* decisions: timing column 8, runs.csv column 32 */
			ok &= strcmp(field(tl, 8, a, sizeof a), field(rl, 32, b, sizeof b)) == 0;
			ok &= strtod(field(tl, 6, c, sizeof c), NULL) > 0; /* wall_s */
			same += ok;
		}
		CU_ASSERT_EQUAL(rows, 36);
		CU_ASSERT_EQUAL(same, 36);
		CU_ASSERT(!*tl && !*rl);
		free(t);
		free(rr);
	}
}


static void test_summary_by_hand(void)
{
	/* label-dual at point 3 (jobs 4, gpu_nodes two): makespan_s (field 13
	 * of runs.csv) of its 3 replications, against the summary row. */
	char *r = file("j1", "runs.csv"), *s = file("j1", "summary.csv"), buf[64];
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	double x[3];
	int n = 0;
	for (const char *l = strchr(r, '\n') + 1; *l; l = strchr(l, '\n') + 1)
		if (strncmp(l, "two-axes,label-dual,3,4,two,", 28) == 0 && n < 3) {
			CU_ASSERT_EQUAL(atoi(field(l, 5, buf, sizeof buf)), n); /* replication */
			x[n++] = atof(field(l, 13, buf, sizeof buf));
		}
	CU_ASSERT_EQUAL_FATAL(n, 3);
	double mean = (x[0] + x[1] + x[2]) / 3, ss = 0;
	for (int i = 0; i < 3; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	double sd = sqrt(ss / 2), half = 4.302652729749464 * sd / sqrt(3); /* t(0.975, 2) */
	const char *row = strstr(s, "\ntwo-axes,label-dual,3,4,two,3,makespan_s,");
	CU_ASSERT_PTR_NOT_NULL_FATAL(row);
	row++;
	CU_ASSERT_DOUBLE_EQUAL(atof(field(row, 7, buf, sizeof buf)), mean, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(atof(field(row, 8, buf, sizeof buf)), sd, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(atof(field(row, 9, buf, sizeof buf)), half, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(atof(field(row, 10, buf, sizeof buf)), mean - half, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(atof(field(row, 11, buf, sizeof buf)), mean + half, 1e-6);
	CU_ASSERT(half > 0);
	/* per-model figures are in types.csv, not in the summary */
	CU_ASSERT_PTR_NULL(strstr(s, ",jct_mean_wordcount_s,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, ",jct_mean_s,"));
	free(r);
	free(s);
}

/* A point's rows are `hetsim run` on that point's scenario. */
static void test_point_is_a_run(void)
{
	char dir[128];
	snprintf(dir, sizeof dir, "%s/run3", tmpdir);
	struct scn_sweep *sw = load_sweep(SWEEP_DIR "two-axes.yaml");
	struct cmd_run_opts o = {.only_replication = -1, .quiet = true};
	CU_ASSERT_EQUAL_FATAL(cmd_run_scenario(sw->point[3], &o, dir), 0);
	scn_sweep_free(sw);
	static const char *const names[] = {"runs.csv", "types.csv"};
	for (int i = 0; i < 2; i++) {
		char *run = file("run3", names[i]), *sweep = file("j1", names[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(run);
		CU_ASSERT_PTR_NOT_NULL_FATAL(sweep);
		int n = 0;
		for (const char *l = strchr(run, '\n') + 1; *l; l = strchr(l, '\n') + 1, n++) {
			/* "two-axes,POLICY,REST" -> "two-axes,POLICY,3,4,two,REST" */
			char want[1024];
			const char *rest = strchr(strchr(l, ',') + 1, ',') + 1;
			size_t len = strcspn(l, "\n") + 1;
			snprintf(want, sizeof want, "\n%.*s3,4,two,%.*s", (int)(rest - l), l,
				 (int)(len - (size_t)(rest - l)), rest);
			CU_ASSERT_PTR_NOT_NULL(strstr(sweep, want));
		}
		CU_ASSERT_EQUAL(n, 6); /* 2 policies x 3 replications (x 1 model) */
		free(run);
		free(sweep);
	}
}

/* A worker that dies: exit 1, and neither file nor temporary left. */
static void test_worker_dies(void)
{
	char dir[128], p[192];
	snprintf(dir, sizeof dir, "%s/dead", tmpdir);
	setenv("HETSIM_SWEEP_KILL_RUN", "5", 1);
	int saved = dup(2), null = open("/dev/null", O_WRONLY); /* its message */
	dup2(null, 2);
	int rc = sweep_into("dead", 2);
	dup2(saved, 2);
	close(saved);
	close(null);
	unsetenv("HETSIM_SWEEP_KILL_RUN");
	CU_ASSERT_EQUAL(rc, 1);
	static const char *const names[] = {"runs.csv", "summary.csv", "timing.csv", "types.csv",
					    "runs.csv.tmp", "summary.csv.tmp", "timing.csv.tmp",
					    "types.csv.tmp"};
	for (int i = 0; i < 8; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		CU_ASSERT_EQUAL(access(p, F_OK), -1);
	}
}

static int setup(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/hetsim-sweep-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void)
{
	return h_rmtree(tmpdir);
}

/* The records of a sweep.state (run index -> its rows), and their count. */
static long state_records(const char *path, char **rec, long n)
{
	long k = 0;
	char *t = h_slurp(path, NULL);
	const char *p = t ? strstr(t, "\nend\n") : NULL;
	for (p = p ? p + 5 : NULL; p && *p == 'R';) {
		long i;
		size_t len;
		int used;
		if (sscanf(p, "R %ld %zu\n%n", &i, &len, &used) != 2 || i < 0 || i >= n ||
		    strlen(p + used) < len)
			break;
		rec[i] = strndup(p + used, len);
		k++;
		p += used + len;
	}
	free(t);
	return k;
}

/* hetsim ARGV in a child process; its pid. */
static pid_t start(char **argv, int argc)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1), dup2(fd, 2);
		_exit(cmd_main(argc, argv));
	}
	return pid;
}

/* Killed with SIGKILL at a run drawn at random, resumed: the runs the
 * state held are not run again (their timing rows, wall-clock figures,
 * come through unchanged), the rest are, and runs.csv, types.csv and
 * summary.csv are byte for byte an uninterrupted sweep's; a changed
 * scenario is refused; SIGTERM exits 143 leaving only the state. */
static void test_resume(void)
{
	char dir[] = "/tmp/hetsim-resume-XXXXXX", scn[300], whole[300], cut[300], state[400];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(scn, sizeof scn, "%s/resume.yaml", dir);
	snprintf(whole, sizeof whole, "%s/whole", dir);
	snprintf(cut, sizeof cut, "%s/cut", dir);
	snprintf(state, sizeof state, "%s/sweep.state", cut);
	char *text = h_slurp(SWEEP_DIR "resume.yaml", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	FILE *f = fopen(scn, "w");
	fputs(text, f);
	fclose(f);
	char *a1[] = {"hetsim", "sweep", scn, "-q", "-j", "1", "-o", whole, NULL};
	int st;
	CU_ASSERT_EQUAL(waitpid(start(a1, 8), &st, 0) > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0);
	/* the interrupted one: killed once the state holds k runs */
	enum { N = 64 };
	srand((unsigned)getpid());
	long k = 4 + rand() % 36;
	char *a2[] = {"hetsim", "sweep", scn, "-q", "-j", "1", "-o", cut, NULL};
	pid_t pid = start(a2, 8);
	char *rec[N] = {0};
	long have = 0;
	for (int tries = 0; tries < 200000 && have < k; tries++) {
		char *tmp[N] = {0};
		have = state_records(state, tmp, N);
		for (int i = 0; i < N; i++)
			free(tmp[i]);
		if (have < k)
			usleep(200);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	CU_ASSERT_FATAL(WIFSIGNALED(st)); /* (it did not finish first) */
	have = state_records(state, rec, N);
	CU_ASSERT(have >= k && have < N);
	/* a changed scenario is refused, and the state stays */
	f = fopen(scn, "a");
	fputs("# changed\n", f);
	fclose(f);
	char args[600], *out, *err;
	snprintf(args, sizeof args, "sweep --resume %s -q", cut);
	char *kept = h_tree(cut);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	char *still = h_tree(cut);
	CU_ASSERT_STRING_EQUAL(still, kept); /* refused: the state as it was */
	free(kept), free(still);
	char want[800];
	snprintf(want, sizeof want, "hetsim sweep: %s/sweep.state: the scenario, its cost model or "
		 "its options changed since the sweep began: run it again without --resume\n", cut);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(out), free(err);
	f = fopen(scn, "w");
	fputs(text, f);
	fclose(f);
	/* resumed: the other runs only */
	snprintf(args, sizeof args, "sweep --resume %s -j 1", cut);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	snprintf(want, sizeof want, "hetsim sweep: resuming %s: %ld of %d runs were done; running "
		 "the other %ld\n", cut, have, N, N - have);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	free(out), free(err);
	static const char *const names[] = {"runs.csv", "types.csv", "summary.csv"};
	for (int i = 0; i < 3; i++) {
		char p1[400], p2[400];
		snprintf(p1, sizeof p1, "%s/%s", whole, names[i]);
		snprintf(p2, sizeof p2, "%s/%s", cut, names[i]);
		char *x = h_slurp(p1, NULL), *y = h_slurp(p2, NULL);
		CU_ASSERT(x && y && !strcmp(x, y));
		free(x), free(y);
	}
	char tp[400];
	snprintf(tp, sizeof tp, "%s/timing.csv", cut);
	char *timing = h_slurp(tp, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(timing);
	for (int i = 0; i < N; i++) {
		if (!rec[i])
			continue;
		char *t = strchr(rec[i], '\n') + 1, *e = strchr(t, '\n');
		*e = 0; /* its timing row: in the file as it was, not run again */
		CU_ASSERT_PTR_NOT_NULL(strstr(timing, t));
		free(rec[i]);
	}
	free(timing);
	struct stat sb;
	CU_ASSERT_NOT_EQUAL(stat(state, &sb), 0); /* done: nothing to resume */
	/* SIGTERM: exit 143, no result file, the state kept; into a folder
	 * that holds an earlier set (the uninterrupted sweep's), which keeps
	 * every file, byte for byte: the listing (h_tree) is the same but for
	 * the state */
	h_rmtree(cut);
	char cp[700];
	snprintf(cp, sizeof cp, "cp -r %s %s", whole, cut);
	CU_ASSERT_EQUAL_FATAL(system(cp), 0);
	char *before = h_tree(cut);
	pid = start(a2, 8);
	for (int tries = 0; tries < 200000; tries++) {
		char *tmp[N] = {0};
		long n = state_records(state, tmp, N);
		for (int i = 0; i < N; i++)
			free(tmp[i]);
		if (n >= 2)
			break;
		usleep(200);
	}
	kill(pid, SIGTERM);
	waitpid(pid, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 143);
	char *after = h_tree(cut), *line = strstr(after, "sweep.state ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT(line == after || line[-1] == '\n');
	char *eol = strchr(line, '\n');
	memmove(line, eol + 1, strlen(eol + 1) + 1); /* the state's line out */
	CU_ASSERT_STRING_EQUAL(after, before);
	CU_ASSERT_PTR_NOT_NULL(strstr(before, "summary.csv "));
	free(before), free(after);
	free(text);
	h_rmtree(dir);
}

static long file_size(const char *dir, const char *name);

static void put_file(const char *path, const char *text, const char *mode)
{
	FILE *f = fopen(path, mode);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* The sweep DIR/t.yaml, stopped with a worker killed (its state kept),
 * is refused --resume once `input` (a file the scenario reads) has
 * `extra` appended, and resumes to the end once `input` holds `orig`
 * again. */
static void resume_after_change(const char *dir, const char *input, const char *extra,
				const char *orig)
{
	char args[600], want[800], *out, *err;
	setenv("HETSIM_SWEEP_KILL_RUN", "1", 1);
	snprintf(args, sizeof args, "sweep %s/t.yaml -q -r 2 -j 2 -o %s/out", dir, dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	unsetenv("HETSIM_SWEEP_KILL_RUN");
	free(out), free(err);
	CU_ASSERT_EQUAL_FATAL(file_size(dir, "out/sweep.state") > 0, 1);
	put_file(input, extra, "a");
	snprintf(args, sizeof args, "sweep --resume %s/out -q", dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	snprintf(want, sizeof want, "hetsim sweep: %s/out/sweep.state: the scenario, its cost model "
		 "or its options changed since the sweep began: run it again without --resume\n",
		 dir);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(out), free(err);
	put_file(input, orig, "w");
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out), free(err);
	CU_ASSERT_EQUAL(file_size(dir, "out/sweep.state"), -1); /* done */
}

/* A resumable state covers the traces a scenario reads, not only the
 * scenario file: a sweep over the hand SWF log is refused --resume once
 * the log changed, and resumes once it is back as it was. */
static void test_resume_trace(void)
{
	char dir[] = "/tmp/hetsim-rtrace-XXXXXX", p[400];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	char *swf = h_slurp("tests/data/traces/swf/hand.swf", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(swf);
	snprintf(p, sizeof p, "%s/t.yaml", dir);
	put_file(p, "cluster: [{name: hand, trace: {format: swf, path: hand.swf}}]\n"
		    "workload: [{name: swf, trace: {path: hand.swf}}]\npolicies: [fifo]\n"
		    "sweep: [{label: s, path: seed, values: [1, 2, 3]}]\n", "w");
	snprintf(p, sizeof p, "%s/hand.swf", dir);
	put_file(p, swf, "w");
	resume_after_change(dir, p, "; changed\n", swf);
	free(swf);
	h_rmtree(dir);
}

/* The same with a trace folder (PAI's tables): a table changed after the
 * kill is a changed input too (the hash took the folder's name alone
 * before: the resume mixed old and new rows). */
static void test_resume_trace_folder(void)
{
	char dir[] = "/tmp/hetsim-rfolder-XXXXXX", p[400];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(p, sizeof p, "%s/pai", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(p, 0755), 0);
	static const char *const tables[] = {"pai_job_table.csv", "pai_machine_spec.csv",
					     "pai_task_table.csv"};
	char *orig[3];
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "tests/data/traces/alibaba/pai-frac/%s", tables[i]);
		orig[i] = h_slurp(p, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(orig[i]);
		snprintf(p, sizeof p, "%s/pai/%s", dir, tables[i]);
		put_file(p, orig[i], "w");
	}
	snprintf(p, sizeof p, "%s/t.yaml", dir);
	put_file(p, "overheads: {executor_startup: 0s, task_launch: 0s}\n"
		    "cluster: [{name: m, trace: {path: pai}}]\n"
		    "workload: [{name: pai, trace: {path: pai}}]\npolicies: [fifo]\n"
		    "sweep: [{label: s, path: seed, values: [1, 2, 3]}]\n", "w");
	snprintf(p, sizeof p, "%s/pai/pai_task_table.csv", dir);
	resume_after_change(dir, p, "\n", orig[2]); /* a byte more, the same records */
	for (int i = 0; i < 3; i++)
		free(orig[i]);
	h_rmtree(dir);
}

static long file_size(const char *dir, const char *name)
{
	char p[600];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return stat(p, &st) ? -1 : (long)st.st_size;
}

/* Result sets are whole (issue 19): a manifest written before the
 * renames lists each file and its size; a sweep into a run's folder
 * removes the run's files it does not write (jobs.csv, executors.csv)
 * and leaves a file hetsim did not write; a failed sweep leaves the set
 * before it as it was; a set cut short is refused by plot and report. */
/* A commit that fails part way is undone: a run's results in DIR, then
 * another run (more replications) whose commit cannot move the old
 * timing.csv aside (a folder sits at its backup name, .timing.csv.
 * hetsim-old), after runs.csv, types.csv, jobs.csv and executors.csv
 * were committed: those four are put back, and DIR holds exactly what
 * it held, file for file and byte for byte (h_tree), no .tmp left. */
static void test_commit_undone(void)
{
	char dir[] = "/tmp/hetsim-undo-XXXXXX", args[600], *out, *err, want[1600], p[700];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(args, sizeof args, "run " SWEEP_DIR "two-axes.yaml -q -r 1 -o %s", dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	snprintf(p, sizeof p, "%s/.timing.csv.hetsim-old", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(p, 0777), 0);
	snprintf(p, sizeof p, "%s/.timing.csv.hetsim-old/x", dir);
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	char *before = h_tree(dir);
	snprintf(args, sizeof args, "run " SWEEP_DIR "two-axes.yaml -q -r 2 -o %s", dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	snprintf(want, sizeof want, "hetsim run: cannot move %s/timing.csv aside to "
		 "%s/.timing.csv.hetsim-old: Is a directory; the results there before are as they "
		 "were\n", dir, dir);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(out), free(err);
	char *after = h_tree(dir);
	CU_ASSERT_STRING_EQUAL(after, before);
	CU_ASSERT_PTR_NOT_NULL(strstr(before, "runs.csv "));
	CU_ASSERT_PTR_NULL(strstr(after, ".tmp "));
	free(before), free(after);
	h_rmtree(dir);
}

static void test_whole_sets(void)
{
	char dir[] = "/tmp/hetsim-set-XXXXXX", args[600], *out, *err, want[1200];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(args, sizeof args, "run " SWEEP_DIR "two-axes.yaml -q -r 1 -o %s", dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	char mp[600];
	snprintf(mp, sizeof mp, "%s/manifest.csv", dir);
	char *m = h_slurp(mp, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	static const char *const run_files[] = {"runs.csv", "types.csv", "jobs.csv",
						"executors.csv", "timing.csv"};
	for (int i = 0; i < 5; i++) {
		char row[300];
		snprintf(row, sizeof row, "\n%s,%ld\n", run_files[i], file_size(dir, run_files[i]));
		CU_ASSERT_PTR_NOT_NULL(strstr(m, row));
	}
	free(m);
	char note[600];
	snprintf(note, sizeof note, "%s/notes.txt", dir);
	FILE *f = fopen(note, "w");
	fputs("mine\n", f);
	fclose(f);
	snprintf(args, sizeof args, "sweep " SWEEP_DIR "two-axes.yaml -q -r 1 -j 1 -o %s", dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	CU_ASSERT_EQUAL(file_size(dir, "jobs.csv"), -1);      /* the run's, gone */
	CU_ASSERT_EQUAL(file_size(dir, "executors.csv"), -1);
	CU_ASSERT_EQUAL(file_size(dir, "notes.txt"), 5);      /* not hetsim's: kept */
	CU_ASSERT(file_size(dir, "summary.csv") > 0);
	/* a sweep that fails (a worker killed) leaves the set as it was */
	long before = file_size(dir, "summary.csv");
	char *sum0 = h_slurp(mp, NULL);
	setenv("HETSIM_SWEEP_KILL_RUN", "1", 1);
	snprintf(args, sizeof args, "sweep " SWEEP_DIR "two-axes.yaml -q -r 2 -j 2 -o %s", dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	unsetenv("HETSIM_SWEEP_KILL_RUN");
	free(out), free(err);
	char *sum1 = h_slurp(mp, NULL);
	CU_ASSERT(sum0 && sum1 && !strcmp(sum0, sum1));
	CU_ASSERT_EQUAL(file_size(dir, "summary.csv"), before);
	free(sum0), free(sum1);
	/* cut short: plot and report refuse it */
	char rp[600];
	snprintf(rp, sizeof rp, "%s/runs.csv", dir);
	long n = file_size(dir, "runs.csv");
	CU_ASSERT_EQUAL(truncate(rp, n / 2), 0);
	snprintf(want, sizeof want, "hetsim plot: %s/manifest.csv:3:1: runs.csv has %ld bytes, the "
		 "manifest says %ld: this result set is not whole (a write cut short?); run the "
		 "command again\n", dir, n / 2, n);
	snprintf(args, sizeof args, "plot all -d %s", dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(out), free(err);
	snprintf(args, sizeof args, "report %s --no-plot", dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "runs.csv has "));
	CU_ASSERT_EQUAL(file_size(dir, "report.html"), -1);
	free(out), free(err);
	h_rmtree(dir);
}

/* A sweep whose points would not fit in memory is refused before they
 * are made (issue 19: 10 000 points of 10 000 job groups wanted 50 GB),
 * at its sweep key, naming the estimate and its largest part. */
static void test_memory_guard(void)
{
	char *text = NULL, path[64];
	size_t len;
	FILE *f = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("cluster: [{name: n, cores: 8, memory: 32GiB}]\nworkload:\n", f);
	for (int i = 0; i < 50; i++)
		fprintf(f, "  - {name: w%d, type: wordcount, input: 1GiB}\n", i);
	fputs("policies: [fifo]\nsweep:\n  - label: s\n    path: seed\n    values: [", f);
	for (int i = 0; i < 100; i++)
		fprintf(f, "%s%d", i ? ", " : "", i);
	fputs("]\n", f);
	fclose(f);
	h_write_tmp(path, sizeof path, text);
	free(text);
	char args[600], *out, *err;
	snprintf(args, sizeof args, "validate %s --max-memory 256KiB", path);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	char want[700];
	snprintf(want, sizeof want, "%s:54:1: the sweep's 100 points would hold about ", path);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ", most of it its 50 job groups), above the 256.0 KiB of "
					   "--max-memory: fewer points, or --max-memory SIZE\n"));
	CU_ASSERT_EQUAL(strchr(err, '\n') - err + 1, (long)strlen(err)); /* one line */
	free(out), free(err);
	snprintf(args, sizeof args, "validate %s --max-memory none", path);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	snprintf(args, sizeof args, "validate %s --max-memory 64MiB", path);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	remove(path);
	/* runs at once: a run of this sweep's points holds about 640.6 KiB
	 * (one job of 16384 tasks live: 16387 x 40 B + a job and a node,
	 * the loader's estimate); one at a time fits in 1 MiB, two do not:
	 * refused before any folder is made; in 2 MiB they fit */
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("cluster: [{name: n, cores: 8, memory: 64GiB}]\n"
	      "workload: [{name: w, type: wordcount, input: 1TiB}]\npolicies: [fifo]\n"
	      "replications: 1\nsweep: [{label: s, path: seed, values: [1, 2, 3]}]\n", f);
	fclose(f);
	char dir[] = "/tmp/hetsim-memj-XXXXXX";
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(args, sizeof args, "sweep %s -j 2 --max-memory 1MiB -q -o %s/two", path, dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	CU_ASSERT_STRING_EQUAL(err, "hetsim sweep: 2 runs at once (--workers 2) would hold about "
				    "1.3 MiB (each up to 640.6 KiB, a run of sweep point 0: s=1), "
				    "above the 1.0 MiB of --max-memory: fewer workers (-j N), or "
				    "--max-memory SIZE\n");
	free(out), free(err);
	struct stat st;
	snprintf(want, sizeof want, "%s/two", dir);
	CU_ASSERT_EQUAL(stat(want, &st), -1); /* no folder made */
	snprintf(args, sizeof args, "sweep %s -j 1 --max-memory 1MiB -q -o %s/one", path, dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	snprintf(args, sizeof args, "sweep %s -j 2 --max-memory 2MiB -q -o %s/two", path, dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	h_rmtree(dir);
	snprintf(args, sizeof args, "sweep %s --max-memory lots", path);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim sweep: option '--max-memory' wants a size such as 8GiB "
				    "or 512MiB (B, KiB, MiB, GiB, TiB), or none, got 'lots'\n");
	free(out), free(err);
	remove(path);
}

int test_suite_sweep(void)
{
	CU_pSuite s = CU_add_suite("sweep", setup, teardown);
	if (!s || !CU_add_test(s, "95% CI: Student t, by hand", test_ci) ||
	    !CU_add_test(s, "two axes, one moving two keys: every point's fields", test_two_axes) ||
	    !CU_add_test(s, "paths: by name, kind, index; absent keys; mappings", test_paths) ||
	    !CU_add_test(s, "bad sweep blocks: exact messages", test_bad) ||
	    !CU_add_test(s, "-j 1, -j 2, -j 5: byte-identical CSV", test_workers_same_bytes) ||
	    !CU_add_test(s, "a summary row from runs.csv by hand", test_summary_by_hand) ||
	    !CU_add_test(s, "a point's rows equal hetsim run on its scenario", test_point_is_a_run) ||
	    !CU_add_test(s, "a dead worker: exit 1, no file left", test_worker_dies) ||
	    !CU_add_test(s, "killed at a random run, resumed: nothing redone, the same bytes",
			 test_resume) ||
	    !CU_add_test(s, "resume: a trace the scenario reads changed, refused",
			 test_resume_trace) ||
	    !CU_add_test(s, "--resume: a trace folder's table changed is refused",
			 test_resume_trace_folder) ||
	    !CU_add_test(s, "result sets whole: a manifest, stale files gone, cut short refused",
			 test_whole_sets) ||
	    !CU_add_test(s, "a commit that fails part way: undone, the old set as it was",
			 test_commit_undone) ||
	    !CU_add_test(s, "a sweep too large for memory: refused before its points are made",
			 test_memory_guard))
		return -1;
	return 0;
}
