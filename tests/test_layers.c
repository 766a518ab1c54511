/* test_layers.c - scripts/check-layers fails when a layer rule breaks:
 * it runs on a copy of the sources with one rule broken on purpose (a
 * policy that includes a job model's header or reads a job's type, a
 * model that includes a policy's header, an include cycle), and passes
 * on the copy as it is. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "test.h"

static const char *const modules = "scenario sim policies workloads input plot calibrate cli";

/* A copy of the modules' sources and the script under a new folder. */
static void copy_tree(char *dir)
{
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "mkdir -p %s/scripts && cp scripts/check-layers %s/scripts/ && "
		 "for m in %s; do [ ! -d $m ] || cp -r $m %s/; done", dir, dir, modules, dir);
	CU_ASSERT_FATAL(system(cmd) == 0);
}

/* check-layers on dir: its exit status, its stderr into *err. */
static int layers(const char *dir, char **err)
{
	char cmd[1024], path[600];
	snprintf(path, sizeof path, "%s/err.txt", dir);
	snprintf(cmd, sizeof cmd, "sh %s/scripts/check-layers %s >/dev/null 2>%s", dir, dir, path);
	int rc = system(cmd);
	long n;
	*err = h_slurp(path, &n);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Append `line` to dir/rel. */
static void plant(const char *dir, const char *rel, const char *line)
{
	char p[600];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	FILE *f = fopen(p, "a");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "%s\n", line);
	fclose(f);
}

static void unplant(const char *dir, const char *rel)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cp %s %s/%s", rel, dir, rel);
	CU_ASSERT_FATAL(system(cmd) == 0);
}

static void layer_rules(void)
{
	char dir[] = "/tmp/hetsim-layers-XXXXXX", *err;
	copy_tree(dir);
	CU_ASSERT_EQUAL(layers(dir, &err), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	free(err);

	/* a policy that includes a job model's header */
	plant(dir, "policies/fifo.c", "#include \"models.h\"");
	CU_ASSERT_EQUAL(layers(dir, &err), 1);
	CU_ASSERT(strstr(err, "check-layers: policies and workloads stand side by side: "
			      "policies/fifo.c (policies) includes a header of workloads\n") != NULL);
	free(err);
	unplant(dir, "policies/fifo.c");

	/* a policy that reads a job's type, in each of its forms */
	static const char *const reads[] = {
		"static int t_(const struct sim *s) { return sim_job(s, 0)->type; }",
		"static int t_(const struct scn *sc) { return sc->jobs[0].type; }",
		"static int t_(const struct sim_job *j) { return j->type; }",
		"static const void *t_(const struct scn_job_group *jg) { return jg->model; }",
		"static int t_(void) { return JM_MNIST; }"};
	for (size_t i = 0; i < sizeof reads / sizeof *reads; i++) {
		plant(dir, "policies/fifo.c", reads[i]);
		CU_ASSERT_EQUAL(layers(dir, &err), 1);
		CU_ASSERT(strstr(err, "check-layers: a policy reads a job's model (ask its shape "
				      "instead: sim.h, struct sim_shape): policies/fifo.c:") != NULL);
		free(err);
		unplant(dir, "policies/fifo.c");
	}

	/* a job model that includes a policy's header */
	plant(dir, "workloads/wordcount.c", "#include \"pol_common.h\"");
	CU_ASSERT_EQUAL(layers(dir, &err), 1);
	CU_ASSERT(strstr(err, "workloads/wordcount.c (workloads) includes a header of policies")
		  != NULL);
	free(err);
	unplant(dir, "workloads/wordcount.c");

	/* the kernel that includes the command layer's header: a cycle */
	plant(dir, "sim/eq.c", "#include \"cmd.h\"");
	CU_ASSERT_EQUAL(layers(dir, &err), 1);
	CU_ASSERT(strstr(err, "check-layers: include cycle between modules: ") != NULL);
	free(err);
	unplant(dir, "sim/eq.c");

	CU_ASSERT_EQUAL(layers(dir, &err), 0); /* as it was */
	free(err);
	h_rmtree(dir);
}

/* dir/mod/NAME.o from the C text src, with the compiler the plugins
 * use (PLUGIN_CC, the build's). */
static void object(const char *dir, const char *name, const char *src)
{
	char p[600], cmd[1400];
	snprintf(p, sizeof p, "%s/mod/%s.c", dir, name);
	FILE *f = fopen(p, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(src, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "%s -c -o %s/mod/%s.o %s", PLUGIN_CC, dir, name, p);
	CU_ASSERT_FATAL(system(cmd) == 0);
}

static int file_cycles(const char *dir, char **err)
{
	char cmd[1024], path[600];
	snprintf(path, sizeof path, "%s/err.txt", dir);
	snprintf(cmd, sizeof cmd, "sh scripts/check-file-cycles %s >/dev/null 2>%s", dir, path);
	int rc = system(cmd);
	long n;
	*err = h_slurp(path, &n);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Three files of one module: a uses b, b uses c (a DAG), then c uses a
 * too (a circle), found from the objects' symbols. */
static void file_rules(void)
{
	char dir[] = "/tmp/hetsim-cycles-XXXXXX", p[600], *err;
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(p, sizeof p, "%s/mod", dir);
	CU_ASSERT_FATAL(mkdir(p, 0755) == 0);
	object(dir, "a", "int fb(void);\nint fa(void) { return fb() + 1; }\n");
	object(dir, "b", "int fc(void);\nint fb(void) { return fc() + 1; }\n");
	object(dir, "c", "int fc(void) { return 1; }\n");
	CU_ASSERT_EQUAL(file_cycles(dir, &err), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	free(err);
	object(dir, "c", "int fa(void);\nint fc(void) { return fa() > 9; }\n");
	CU_ASSERT_EQUAL(file_cycles(dir, &err), 1);
	CU_ASSERT(strstr(err, "check-file-cycles: a circle of files in mod/: ") != NULL);
	CU_ASSERT(strstr(err, "a.c uses fb of b.c") && strstr(err, "b.c uses fc of c.c") &&
		  strstr(err, "c.c uses fa of a.c"));
	free(err);
	h_rmtree(dir);
}

int test_suite_layers(void)
{
	TEST_SUITE("layers", {"check-layers fails on each broken rule, passes on the tree", layer_rules},
		   {"check-file-cycles finds a circle of files from the objects", file_rules});
	return 0;
}
