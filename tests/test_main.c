/* test_main.c - runs every CUnit suite; exit status 1 if any test fails.
 *
 *   hetsim-tests            every suite, one after the other, in this process
 *   hetsim-tests SUITE      only that one
 *   hetsim-tests -j N       every suite, N at a time, each in a child
 *                           process of its own (make check: N = the cores)
 *
 * With -j, a suite's output is kept until it ends and printed whole, in
 * the suites' order whatever order they end in, then the totals; a suite
 * killed by a signal (a sanitizer's abort, a crash) counts as failed.
 * The suites share no scratch path (each test's are its own), so they
 * can run side by side. */
#include "test.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim.h"

static const struct {
	const char *name;
	int (*add)(void);
} suites[] = {
	{"eq", test_suite_eq},
	{"rng", test_suite_rng},
	{"cluster", test_suite_cluster},
	{"scenario", test_suite_scenario},
	{"policies", test_suite_policies},
	{"engine", test_suite_engine},
	{"determinism", test_suite_determinism},
	{"queueing", test_suite_queueing},
	{"sweep", test_suite_sweep},
	{"plot", test_suite_plot},
	{"figures", test_suite_figures},
	{"calibrate", test_suite_calibrate},
	{"calibrate_load", test_suite_calibrate_load},
	{"cuda_host", test_suite_cuda_host},
	{"provenance", test_suite_provenance},
	{"timing", test_suite_timing},
	{"writer", test_suite_writer},
	{"accounting", test_suite_accounting},
	{"failures", test_suite_failures},
	{"types", test_suite_types},
	{"tfos", test_suite_tfos},
	{"yarn", test_suite_yarn},
	{"tiresias_speed", test_suite_tiresias_speed},
	{"locality", test_suite_locality},
	{"trace", test_suite_trace},
	{"json", test_suite_json},
	{"sparklog", test_suite_sparklog},
	{"replay", test_suite_replay},
	{"importers", test_suite_importers},
	{"cli", test_suite_cli},
	{"catalogue", test_suite_catalogue},
	{"backfill_speed", test_suite_backfill_speed},
	{"fgd_speed", test_suite_fgd_speed},
	{"report", test_suite_report},
	{"gang", test_suite_gang},
	{"layers", test_suite_layers},
	{"gavel_speed", test_suite_gavel_speed},
	{"wclass_speed", test_suite_wclass_speed},
	{"frag_speed", test_suite_frag_speed},
	{"plugin", test_suite_plugin}, /* last: it unloads its plugins */
};

/* Run the suites named `only` (NULL: all) here; the failures' count, or
 * -1 when CUnit cannot add a suite.  *tests and *asserts get what ran. */
static int run_here(const char *only, unsigned *tests, unsigned *asserts)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return -1;
	for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
		if (only && strcmp(only, suites[i].name) != 0)
			continue;
		if (suites[i].add() != 0) {
			fprintf(stderr, "cannot add suite %s: %s\n", suites[i].name, CU_get_error_msg());
			CU_cleanup_registry();
			return -1;
		}
	}
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	*tests = CU_get_number_of_tests_run();
	*asserts = CU_get_number_of_asserts();
	CU_cleanup_registry();
	return (int)failed;
}

/* The child's last line, after its suite's output: what ran. */
#define COUNTS "@@hetsim-tests counts"

struct child {
	pid_t pid;
	FILE *out;   /* its stdout and stderr */
	bool done;
	int status;  /* wait()'s */
	double t0, t1; /* started, ended: wall seconds */
};

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Start suite k in a child writing to c->out. */
static void start(struct child *c, size_t k)
{
	c->out = tmpfile();
	if (!c->out) {
		perror("hetsim-tests: tmpfile");
		exit(2);
	}
	fflush(stdout);
	fflush(stderr);
	c->t0 = wall_s();
	c->pid = fork();
	if (c->pid < 0) {
		perror("hetsim-tests: fork");
		exit(2);
	}
	if (c->pid == 0) {
		dup2(fileno(c->out), STDOUT_FILENO);
		dup2(fileno(c->out), STDERR_FILENO);
		unsigned tests = 0, asserts = 0;
		int failed = run_here(suites[k].name, &tests, &asserts);
		printf("\n" COUNTS " %u %u %d\n", tests, asserts, failed);
		fflush(stdout);
		_exit(failed == 0 ? 0 : failed > 0 ? 1 : 2);
	}
}

/* Print suite k's kept output, less its counts line; add them to the
 * totals.  Returns whether it passed. */
static bool report(const struct child *c, size_t k, unsigned *tests, unsigned *asserts)
{
	char line[4096];
	unsigned t = 0, a = 0;
	int f = -1;
	bool counted = false;
	rewind(c->out);
	while (fgets(line, sizeof line, c->out)) {
		if (strncmp(line, COUNTS, strlen(COUNTS)) == 0 &&
		    sscanf(line + strlen(COUNTS), "%u %u %d", &t, &a, &f) == 3) {
			counted = true;
			continue;
		}
		fputs(line, stdout);
	}
	fclose(c->out);
	printf("hetsim-tests: suite %s: %.1f s (wall)\n", suites[k].name, c->t1 - c->t0);
	*tests += t;
	*asserts += a;
	if (WIFSIGNALED(c->status)) {
		printf("hetsim-tests: suite %s killed by signal %d (%s)\n", suites[k].name,
		       WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
		return false;
	}
	if (!counted || !WIFEXITED(c->status) || WEXITSTATUS(c->status) != 0) {
		printf("hetsim-tests: suite %s failed (exit status %d)\n", suites[k].name,
		       WIFEXITED(c->status) ? WEXITSTATUS(c->status) : -1);
		return false;
	}
	return f == 0;
}

/* The suites that take longest (wall, 2026-12-08: policies 20 s,
 * catalogue 7 s, sweep 5 s of ~50 s in all): started first, so that the
 * short ones fill the other cores meanwhile rather than wait behind them. */
static const char *const slow[] = {"policies", "catalogue", "sweep"};

/* Every suite, `jobs` at a time. */
static int run_children(int jobs)
{
	enum { N = sizeof suites / sizeof suites[0], NSLOW = sizeof slow / sizeof slow[0] };
	static struct child ch[N];
	size_t order[N], n = 0;
	bool first[N] = {false};
	for (size_t i = 0; i < NSLOW; i++)
		for (size_t k = 0; k < N; k++)
			if (strcmp(suites[k].name, slow[i]) == 0)
				order[n++] = k, first[k] = true;
	for (size_t k = 0; k < N; k++)
		if (!first[k])
			order[n++] = k;
	size_t next = 0, shown = 0;
	int running = 0;
	unsigned tests = 0, asserts = 0;
	int bad = 0;
	while (shown < N) {
		for (; running < jobs && next < N; next++, running++)
			start(&ch[order[next]], order[next]);
		int st;
		pid_t pid = wait(&st);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			perror("hetsim-tests: wait");
			return 2;
		}
		for (size_t k = 0; k < N; k++)
			if (ch[k].pid == pid && !ch[k].done) {
				ch[k].done = true;
				ch[k].status = st;
				ch[k].t1 = wall_s();
				running--;
			}
		for (; shown < N && ch[shown].done; shown++)
			bad += !report(&ch[shown], shown, &tests, &asserts);
	}
	printf("\nhetsim-tests: %d suites, %d at a time: %u tests run, %u asserts; %d suite%s "
	       "failed\n", (int)N, jobs, tests, asserts, bad, bad == 1 ? "" : "s");
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	sim_recount = true; /* every node change recounted (sim/sim.h) */
	if (argc == 3 && strcmp(argv[1], "-j") == 0) {
		char *end;
		long jobs = strtol(argv[2], &end, 10);
		if (*argv[2] == '\0' || *end || jobs < 1 || jobs > 64) {
			fprintf(stderr, "hetsim-tests: -j wants a count from 1 to 64, got '%s'\n",
				argv[2]);
			return 2;
		}
		return run_children((int)jobs);
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: hetsim-tests [SUITE | -j N]\n");
		return 2;
	}
	unsigned tests, asserts;
	int failed = run_here(argc > 1 ? argv[1] : NULL, &tests, &asserts);
	return failed < 0 ? 2 : failed ? 1 : 0;
}
