/* test_determinism.c - same seed, same bytes; another seed, other bytes;
 * one replication alone gives the rows it has in the full run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "harness.h"
#include "scenario.h"
#include "test.h"

#define SCENARIO "scenarios/paper-mixed.yaml"

static char tmpdir[64];

static void run_into(const char *sub, const struct cmd_run_opts *o)
{
	char dir[128];
	snprintf(dir, sizeof dir, "%s/%s", tmpdir, sub);
	struct scn *s = h_load(SCENARIO);
	CU_ASSERT_EQUAL(cmd_run_scenario(s, o, dir), 0);
	scn_free(s);
}

static char *file(const char *sub, const char *name)
{
	char p[192];
	snprintf(p, sizeof p, "%s/%s/%s", tmpdir, sub, name);
	char *t = h_slurp(p, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	return t;
}

static int same(const char *a, const char *b, const char *name)
{
	char *x = file(a, name), *y = file(b, name);
	int eq = strcmp(x, y) == 0;
	free(x);
	free(y);
	return eq;
}

/* Rows of `text` whose third field (replication) is `rep`, runs.csv
 * style (scenario,policy,replication,...) when field is 2, jobs.csv
 * style (policy,replication,...) when field is 1. */
static char *rows_of(const char *text, int field, int rep)
{
	char *out = calloc(strlen(text) + 1, 1);
	const char *line = strchr(text, '\n') + 1; /* skip the header */
	while (*line) {
		const char *end = strchr(line, '\n');
		const char *f = line;
		for (int i = 0; i < field; i++)
			f = strchr(f, ',') + 1;
		if (atoi(f) == rep)
			strncat(out, line, (size_t)(end - line + 1));
		line = end + 1;
	}
	return out;
}

static void same_seed_same_bytes(void)
{
	struct cmd_run_opts o = {.only_replication = -1, .quiet = true, .replications = 3};
	run_into("a", &o);
	run_into("b", &o);
	CU_ASSERT(same("a", "b", "runs.csv"));
	CU_ASSERT(same("a", "b", "jobs.csv"));
	CU_ASSERT(same("a", "b", "executors.csv"));
	CU_ASSERT(same("a", "b", "types.csv"));

	o.seed_set = true;
	o.seed = 99;
	run_into("c", &o);
	CU_ASSERT(!same("a", "c", "jobs.csv"));
	CU_ASSERT(!same("a", "c", "runs.csv"));
	CU_ASSERT(!same("a", "c", "types.csv"));
}

static void one_replication_alone(void)
{
	struct cmd_run_opts o = {.only_replication = 2, .quiet = true, .replications = 3};
	run_into("r2", &o);
	static const struct {
		const char *name;
		int col;      /* the replication's column */
	} files[] = {{"jobs.csv", 1}, {"runs.csv", 2}, {"types.csv", 2}};
	for (int i = 0; i < 3; i++) {
		char *full = file("a", files[i].name), *alone = file("r2", files[i].name);
		char *want = rows_of(full, files[i].col, 2), *got = rows_of(alone, files[i].col, 2);
		CU_ASSERT(strlen(want) > 0);
		CU_ASSERT_STRING_EQUAL(got, want);
		free(want);
		free(got);
		free(full);
		free(alone);
	}
}

static int setup(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/hetsim-test-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void)
{
	return h_rmtree(tmpdir);
}

int test_suite_determinism(void)
{
	CU_pSuite s = CU_add_suite("determinism", setup, teardown);
	if (!s || !CU_add_test(s, "same seed: byte-identical CSV; another seed differs",
			       same_seed_same_bytes) ||
	    !CU_add_test(s, "--replication K alone equals replication K of a full run",
			 one_replication_alone))
		return -1;
	return 0;
}
