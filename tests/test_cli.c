/* test_cli.c - the command line as getopt_long reads one (cli/cmd.c,
 * cmd_parse): attached and bundled short options, `--name=value`,
 * unique prefixes, `--`, any number of files; bad values exit 2 naming
 * the option, and write nothing. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "harness.h"
#include "test.h"

#define SCN "tests/scenarios/hand/fifo-firstfit.yaml"

static char *runs_of(const char *args)
{
	char dir[] = "/tmp/hetsim-cli-XXXXXX", line[1024], path[300], *out, *err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(line, sizeof line, args, dir);
	int rc = h_hetsim(line, &out, &err);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		fprintf(stderr, "\n  hetsim %s: %s", line, err);
	free(out), free(err);
	snprintf(path, sizeof path, "%s/runs.csv", dir);
	char *csv = h_slurp(path, NULL);
	h_rmtree(dir);
	return csv;
}

/* The same run spelt five ways: the same runs.csv. */
static void spellings(void)
{
	static const char *const forms[] = {
		"run " SCN " -q -r 2 -p fifo -o %s",
		"run " SCN " -qr2 -pfifo -o%s",
		"run " SCN " --quiet --replications=2 --policy=fifo --output=%s",
		"run --quie -r2 -p fifo -o %s " SCN,        /* a unique prefix, options first */
		"run -q -r 2 -p fifo -o %s -- " SCN,        /* `--` ends the options */
	};
	char *first = runs_of(forms[0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(first);
	CU_ASSERT_PTR_NOT_NULL(strstr(first, "\nfifo-firstfit,fifo,1,")); /* two replications */
	CU_ASSERT_PTR_NULL(strstr(first, "\nfifo-firstfit,fifo,2,"));
	for (int i = 1; i < 5; i++) {
		char *csv = runs_of(forms[i]);
		CU_ASSERT_PTR_NOT_NULL(csv);
		if (csv)
			CU_ASSERT_STRING_EQUAL(csv, first);
		free(csv);
	}
	free(first);
}

/* cmd_main(argc, argv), its stderr into *err. */
static int quiet_main(int argc, char **argv, char **err)
{
	char path[] = "/tmp/hetsim-cli-err-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	CU_ASSERT_FATAL(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	int rc = cmd_main(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	*err = h_slurp(path, NULL);
	remove(path);
	return rc;
}

/* Bad command lines: exit 2, the option named, no output folder. */
static void bad_lines(void)
{
	static const struct {
		const char *args, *err;
	} cases[] = {
		{"run " SCN " -p fifo -p fifo -o /tmp/hetsim-cli-none",
		 "hetsim run: option '--policy': 'fifo' given twice\n"},
		{"run " SCN " --rep=1 -o /tmp/hetsim-cli-none",
		 "hetsim run: ambiguous option '--rep' (see hetsim run --help)\n"},
		{"run " SCN " -qx -o /tmp/hetsim-cli-none",
		 "hetsim run: unknown option '-x' in '-qx' (see hetsim run --help)\n"},
		{"run " SCN " --colour -o /tmp/hetsim-cli-none",
		 "hetsim run: unknown option '--colour' (see hetsim run --help)\n"},
		{"run " SCN " -q --seed 18446744073709551616 -o /tmp/hetsim-cli-none",
		 "hetsim run: option '--seed' wants an integer from 0 to 18446744073709551615 (as a "
		 "scenario's seed), got '18446744073709551616'\n"},
		{"sweep " SCN " -p fifo -p fifo -o /tmp/hetsim-cli-none",
		 "hetsim sweep: option '--policy': 'fifo' given twice\n"},
		{"run " SCN " -q -r", "hetsim run: option '--replications' needs a value (N)\n"},
	};
	char *out, *err;
	for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
		CU_ASSERT_EQUAL(h_hetsim(cases[i].args, &out, &err), 2);
		CU_ASSERT_STRING_EQUAL(err, cases[i].err);
		free(out), free(err);
		struct stat st;
		CU_ASSERT_NOT_EQUAL(stat("/tmp/hetsim-cli-none", &st), 0);
	}
	/* an empty value (h_hetsim splits on spaces: cmd_main itself) */
	char *argv[] = {"hetsim", "run", SCN, "-o", "", NULL};
	char *argv2[] = {"hetsim", "run", SCN, "--output=", NULL};
	CU_ASSERT_EQUAL(quiet_main(5, argv, &err), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim run: option '--output' wants a value (DIR), got ''\n");
	free(err);
	CU_ASSERT_EQUAL(quiet_main(4, argv2, &err), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim run: option '--output' wants a value (DIR), got ''\n");
	free(err);
	/* a path too long for the files under it: refused before a folder */
	static char longdir[4100];
	memset(longdir, 'a', 4000);
	memcpy(longdir, "/tmp/", 5);
	char *argv3[] = {"hetsim", "run", SCN, "-o", longdir, NULL};
	CU_ASSERT_EQUAL(quiet_main(5, argv3, &err), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim run: option '--output' wants a path of at most 3800 "
				    "characters, got one of 4000\n");
	free(err);
	/* the largest seed is a seed */
	char *csv = runs_of("run " SCN " -q -r 1 -p fifo --seed 18446744073709551615 -o %s");
	CU_ASSERT_PTR_NOT_NULL(csv);
	free(csv);
}

/* validate takes any number of files (it took 8). */
static void many_files(void)
{
	char line[4096] = "validate", *out, *err;
	for (int i = 0; i < 12; i++)
		strcat(line, " " SCN);
	CU_ASSERT_EQUAL(h_hetsim(line, &out, &err), 0);
	int n = 0;
	for (const char *p = out; (p = strstr(p, SCN ": ok")); p++)
		n++;
	CU_ASSERT_EQUAL(n, 12);
	free(out), free(err);
}

/* SIGINT and SIGTERM stop a run at once (its watch): exit 130 or 143,
 * no result file, no .tmp left: a folder holding an earlier result set
 * keeps it, file for file and byte for byte (h_tree), and a folder the
 * run made is gone. */
static void interrupt_run(void)
{
	static const int sigs[] = {SIGINT, SIGTERM};
	for (int k = 0; k < 2; k++) {
		char dir[] = "/tmp/hetsim-int-XXXXXX", sub[64], args[200], *o, *e;
		CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
		snprintf(sub, sizeof sub, "%s/new", dir); /* (a folder the run makes) */
		if (!k) {
			snprintf(args, sizeof args, "run tests/scenarios/ok/minimal.yaml -q -o %s", dir);
			CU_ASSERT_EQUAL_FATAL(h_hetsim(args, &o, &e), 0);
			free(o), free(e);
		}
		char *before = h_tree(dir);
		char *argv[] = {"hetsim", "run", "tests/scenarios/edge/long-run.yaml", "-q", "-o",
				k ? sub : dir, NULL};
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);
			dup2(fd, 1), dup2(fd, 2);
			_exit(cmd_main(6, argv));
		}
		usleep(300000);
		kill(pid, sigs[k]);
		int st;
		waitpid(pid, &st, 0);
		CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 128 + sigs[k]);
		char *after = h_tree(dir);
		CU_ASSERT_STRING_EQUAL(after, before); /* (and the folder it made is gone) */
		CU_ASSERT(k || strstr(before, "runs.csv ") != NULL);
		free(before), free(after);
		h_rmtree(dir);
	}
}

int test_suite_cli(void)
{
	TEST_SUITE("cli",
		   {"getopt_long spellings: the same run", spellings},
		   {"bad command lines: exit 2, the option named, nothing written", bad_lines},
		   {"validate takes any number of files", many_files},
		   {"SIGINT, SIGTERM: a run stops at once, exit 130 or 143, no file", interrupt_run});
	return 0;
}
