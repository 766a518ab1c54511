/* test_plugin.c - policy plugins (policies/plugin.c, include/hetsim/policy.h).
 *
 * The template (policies/template/mine.c, a copy of fifo against the
 * public header only) is built out of tree, in a temporary folder, with
 * the compiler and the sanitizers of this build (PLUGIN_CC, PLUGIN_SAN:
 * the Makefile sets them), and must give the built-in fifo's bytes
 * (runs.csv, jobs.csv, executors.csv, types.csv) on the scenarios fifo
 * runs, both as a policy entry of fifo's name in memory and through a
 * scenario's `{name: fifo, plugin: FILE}` entry.  Every bad plugin gets
 * one line naming its file, and exit 1.  Last in the suite list: it
 * unloads its plugins at the end.
 */
#include "test.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "harness.h"
#include "hetsim/policy.h"
#include "load.h"
#include "registry.h"
#include "scenario.h"
#include "util.h"

#ifndef PLUGIN_CC
#define PLUGIN_CC "cc"
#endif
#ifndef PLUGIN_SAN
#define PLUGIN_SAN 0
#endif
#define SAN_FLAGS " -fsanitize=address,undefined -fno-omit-frame-pointer " \
		  "-fno-sanitize-recover=undefined"

static char tmp[64]; /* the temporary folder */
static char root[1024];/* the repository (the tests' working folder) */
static char lib[1100];/* the template built out of tree: tmp/libmine.so */

/* Build C file src (in tmp) into tmp/out as a plugin, with the
 * sanitizers where hetsim has them (san); 0 on success. */
static int build_as(const char *src, const char *out, bool san)
{
	char cmd[16384];
	snprintf(cmd, sizeof cmd, "%s -std=c11 -Wall -Wextra -Werror -O1 -g -fPIC -shared%s "
		 "-I'%s/include' -o '%s/%s' '%s/%s'", PLUGIN_CC, san && PLUGIN_SAN ? SAN_FLAGS : "",
		 root, tmp, out, tmp, src);
	int rc = system(cmd);
	if (rc != 0)
		fprintf(stderr, "\n  failed: %s\n", cmd);
	return rc;
}

static int build(const char *src, const char *out)
{
	return build_as(src, out, true);
}

static void write_file(const char *name, const char *text)
{
	char path[1200];
	snprintf(path, sizeof path, "%s/%s", tmp, name);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* The template's source, copied out of the tree, and built. */
static void test_build_template(void)
{
	snprintf(tmp, sizeof tmp, "/tmp/hetsim-plugin-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmp));
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(root, sizeof root));
	char *src = h_slurp("policies/template/mine.c", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(src);
	write_file("mine.c", src);
	free(src);
	CU_ASSERT_EQUAL_FATAL(build("mine.c", "libmine.so"), 0);
	snprintf(lib, sizeof lib, "%s/libmine.so", tmp);
	CU_ASSERT_STRING_EQUAL(HETSIM_POLICY_VERSION, HETSIM_VERSION); /* the header's is ours */
	CU_ASSERT_EQUAL(hetsim_abi(), HETSIM_POLICY_ABI);
}

/* The template's Makefile, with the documented command's HETSIM= (an
 * absolute path here: the copy is out of the tree). */
static void test_template_makefile(void)
{
	char cmd[16384];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/tpl' && cp policies/template/Makefile "
		 "policies/template/mine.c '%s/tpl/' && MAKEFLAGS= make -s -C '%s/tpl' HETSIM='%s' CC='%s' "
		 "SAN=%d", tmp, tmp, tmp, root, PLUGIN_CC, PLUGIN_SAN);
	CU_ASSERT_EQUAL(system(cmd), 0);
	char so[1200];
	snprintf(so, sizeof so, "%s/tpl/libmine.so", tmp);
	CU_ASSERT_EQUAL(access(so, R_OK), 0);
}

static bool same_file(const char *a, const char *b)
{
	long la, lb;
	char *x = h_slurp(a, &la), *y = h_slurp(b, &lb);
	bool same = x && y && la == lb && memcmp(x, y, (size_t)la) == 0;
	if (!same)
		fprintf(stderr, "\n  %s and %s differ\n", a, b);
	free(x);
	free(y);
	return same;
}

static bool same_results(const char *da, const char *db)
{
	static const char *const files[] = {"runs.csv", "jobs.csv", "executors.csv", "types.csv"};
	bool same = true;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char a[1200], b[16384];
		snprintf(a, sizeof a, "%s/%s", da, files[i]);
		snprintf(b, sizeof b, "%s/%s", db, files[i]);
		same &= same_file(a, b);
	}
	return same;
}

/* Scenario `path` under the built-in fifo into tmp/a, and under the
 * plugin as a policy entry named fifo into tmp/b: the same bytes. */
static void same_as_fifo(const char *path)
{
	char err[1024], da[1200], db[1200];
	snprintf(da, sizeof da, "%s/a", tmp);
	snprintf(db, sizeof db, "%s/b", tmp);
	h_rmtree(da);
	h_rmtree(db);
	const struct policy_ops *ops = pol_plugin_load(lib, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ops);
	CU_ASSERT_STRING_EQUAL(ops->name, "mine");
	struct cmd_run_opts o = {.policies = {"fifo"}, .npolicies = 1, .only_replication = -1,
				 .quiet = true};
	struct scn *s = h_load(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(cmd_run_scenario(s, &o, da), 0);
	scn_free(s);

	s = h_load(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	int k = 0;
	while (k < s->npolicies && strcmp(s->policies[k].name, "fifo") != 0)
		k++;
	if (k == s->npolicies) { /* no entry named fifo: add one */
		s->policies = xrealloc(s->policies, (size_t)(k + 1) * sizeof *s->policies);
		s->policies[k] = (struct scn_policy){.name = xstrdup("fifo"), .kind = NULL};
		s->npolicies++;
	}
	CU_ASSERT_EQUAL(s->policies[k].nparams, 0); /* fifo has no switches */
	free(s->policies[k].kind);
	s->policies[k].kind = xstrdup("mine");
	s->policies[k].ops = ops;
	CU_ASSERT_EQUAL(cmd_run_scenario(s, &o, db), 0);
	scn_free(s);
	CU_ASSERT(same_results(da, db));
	if (!same_results(da, db))
		fprintf(stderr, "  (%s)\n", path);
}

static void test_same_bytes_in_memory(void)
{
	static const char *const scenarios[] = {
		"scenarios/paper-mixed.yaml",
		"tests/scenarios/hand/fifo-firstfit.yaml",
		"tests/scenarios/hand/fifo-hol.yaml",
		"tests/scenarios/hand/fifo-overheads.yaml",
		"tests/scenarios/hand/index-shapes.yaml",
		"tests/scenarios/hand/index-tight.yaml",
		"tests/scenarios/hand/index-failures-gang.yaml",
		"tests/scenarios/hand/openb-shares.yaml",
		"tests/scenarios/hand/pai-fractional.yaml",
		"tests/scenarios/hand/three-types.yaml",
		"tests/scenarios/failures/retry.yaml",
		"tests/scenarios/failures/tfos.yaml",
	};
	for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
		same_as_fifo(scenarios[i]);
}

/* Scenario file `path` (self-contained, `policies: [fifo]`) copied into
 * tmp/fa/ as it is and into tmp/fb/ with `{name: fifo, plugin:
 * ../libmine.so}` (relative to the scenario's folder): run by `hetsim
 * run`, the same bytes. */
static void same_by_scenario(const char *path)
{
	char *text = h_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	const char *base = strrchr(path, '/') + 1;
	char *at = strstr(text, "policies: [fifo]\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	char name[1200], b[16384], args[16384], *out, *err;
	snprintf(b, sizeof b, "%.*spolicies: [{name: fifo, plugin: ../libmine.so}]\n%s",
		 (int)(at - text), text, at + strlen("policies: [fifo]\n"));
	snprintf(args, sizeof args, "mkdir -p '%s/fa' '%s/fb'", tmp, tmp);
	CU_ASSERT_EQUAL_FATAL(system(args), 0);
	snprintf(name, sizeof name, "fa/%s", base);
	write_file(name, text);
	snprintf(name, sizeof name, "fb/%s", base);
	write_file(name, b);
	free(text);
	for (int k = 0; k < 2; k++) {
		snprintf(args, sizeof args, "run %s/f%c/%s -q -o %s/f%c/out", tmp, "ab"[k], base, tmp,
			 "ab"[k]);
		CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
		CU_ASSERT_STRING_EQUAL(err, "");
		free(out);
		free(err);
	}
	char da[1200], db[1200];
	snprintf(da, sizeof da, "%s/fa/out", tmp);
	snprintf(db, sizeof db, "%s/fb/out", tmp);
	CU_ASSERT(same_results(da, db));
}

static void test_same_bytes_by_scenario(void)
{
	same_by_scenario("tests/scenarios/hand/fifo-firstfit.yaml");
	same_by_scenario("tests/scenarios/failures/retry.yaml");
}

/* --plugin registers the policy for -p, `policies` lists it, validate
 * knows it; loading the same file again is a no-op; the template's
 * Makefile build is another file of the same policy name. */
static void test_command_line(void)
{
	char args[16384], *out, *err;
	snprintf(args, sizeof args, "policies --plugin %s", lib);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nmine               fifo as a plugin: "));
	char want[16384];
	snprintf(want, sizeof want, "    plugin         %s (built for hetsim %s, plugin ABI 1)\n",
		 lib, HETSIM_VERSION);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out);
	free(err);

	snprintf(args, sizeof args, "run tests/scenarios/hand/fifo-firstfit.yaml --plugin %s "
		 "-p mine -p fifo -q -o %s/cli", lib, tmp);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out);
	free(err);
	snprintf(args, sizeof args, "%s/cli/runs.csv", tmp);
	char *runs = h_slurp(args, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	CU_ASSERT_PTR_NOT_NULL(strstr(runs, ",mine,0,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(runs, ",fifo,0,"));
	free(runs);

	snprintf(args, sizeof args, "sweep tests/scenarios/hand/fifo-firstfit.yaml --plugin %s "
		 "-p mine -j 2 -q -o %s/sw", lib, tmp);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out);
	free(err);

	char tpl[1200];
	snprintf(tpl, sizeof tpl, "%s/tpl/libmine.so", tmp);
	snprintf(args, sizeof args, "validate --plugin %s --plugin %s "
		 "tests/scenarios/hand/fifo-firstfit.yaml", lib, tpl);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	snprintf(want, sizeof want, "%s: policy name 'mine' is taken by plugin %s\n", tpl, lib);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(out);
	free(err);
}

/* ---- switches, rejects, timers, can_ever_place -------------------------- */

/* A plugin with switches: it rejects every job with the reason its
 * `reason` switch names, at the first timer after `delay`, unless the
 * job's memory is above `limit`: then its can_ever_place says memory. */
static const char knobs_c[] =
	"#include <hetsim/policy.h>\n"
	"#include <stdio.h>\n"
	"#include <string.h>\n"
	"static int pending = 0;\n"
	"static void *init(struct hetsim *h) { (void)h; pending = 0; return &pending; }\n"
	"static void arrived(void *st, struct hetsim *h, int job) {\n"
	"	int why = hetsim_can_ever_place(h, job);\n"
	"	(void)st;\n"
	"	if (why) { hetsim_reject(h, job, why); return; }\n"
	"	hetsim_timer(h, (int64_t)hetsim_switch_num(h, \"delay\"), (uint32_t)job);\n"
	"}\n"
	"static void timer(void *st, struct hetsim *h, uint32_t tag) {\n"
	"	(void)st;\n"
	"	const char *r = hetsim_switch(h, \"reason\");\n"
	"	if (hetsim_rand01(h, tag, 0, 0) <= 0 || hetsim_rand01(h, tag, 0, 0) >= 1) return;\n"
	"	if (tag == 999) return;\n"
	"	hetsim_reject(h, (int)tag, strcmp(r, \"cores\") == 0 ? HETSIM_WHY_CORES : HETSIM_WHY_NEVER_PLACED);\n"
	"	hetsim_timer(h, 1000000, 999); /* a request after the job ended inside this hook */\n"
	"}\n"
	"static void finished(void *st, struct hetsim *h, int job) { (void)st, (void)h, (void)job; }\n"
	"static void schedule(void *st, struct hetsim *h) { (void)st, (void)h; }\n"
	"static int place(const struct hetsim *h, const struct hetsim_shape *sh, char *d, size_t n) {\n"
	"	if (hetsim_role_mem_mib(sh, 0) > (int64_t)hetsim_switch_num(h, \"limit\")) {\n"
	"		snprintf(d, n, \"over the limit of %s on %d nodes\", hetsim_switch(h, \"limit\"), hetsim_nnodes(h));\n"
	"		return HETSIM_WHY_MEMORY;\n"
	"	}\n"
	"	return HETSIM_WHY_NONE;\n"
	"}\n"
	"static const char *const reasons[] = {\"cores\", \"never-placed\", NULL};\n"
	"static const struct hetsim_param params[] = {\n"
	"	{.key = \"reason\", .type = HETSIM_CHOICE, .choices = reasons, .def = \"cores\", .help = \"why\"},\n"
	"	{.key = \"delay\", .type = HETSIM_TIME, .def = \"2s\", .lo = 0, .hi = 1e9, .help = \"when\"},\n"
	"	{.key = \"limit\", .type = HETSIM_SIZE, .def = \"4GiB\", .lo = 1, .hi = 1048576, .help = \"most memory\"},\n"
	"	{.key = \"depth\", .type = HETSIM_INT, .def = \"3\", .lo = 1, .hi = 8, .help = \"unused\"},\n"
	"	{.key = NULL},\n"
	"};\n"
	"static const struct hetsim_policy knobs = {HETSIM_POLICY_HEADER, .name = \"knobs\",\n"
	"	.summary = \"rejects everything, later\", .params = params, .init = init,\n"
	"	.job_arrived = arrived, .job_finished = finished, .schedule = schedule, .timer = timer,\n"
	"	.can_ever_place = place};\n"
	"HETSIM_POLICY_EXPORT(knobs)\n";

static const char knobs_yaml[] =
	"cluster: [{name: n, count: 2, cores: 4, memory: 8GiB}]\n"
	"workload:\n"
	"  - {name: small, type: synthetic, count: 2, arrival: {every: 1s}, executors: 1,\n"
	"     executor_cores: 1, executor_memory: 1GiB, stages: [{name: s, tasks: 1, duration: 1s}]}\n"
	"  - {name: big, type: synthetic, count: 1, arrival: {every: 1s}, executors: 1,\n"
	"     executor_cores: 1, executor_memory: 6GiB, stages: [{name: s, tasks: 1, duration: 1s}]}\n"
	"policies:\n"
	"  - {name: k, plugin: libknobs.so, reason: %s, delay: 500ms%s}\n";

static void test_switches(void)
{
	write_file("knobs.c", knobs_c);
	CU_ASSERT_EQUAL_FATAL(build("knobs.c", "libknobs.so"), 0);
	char yaml[16384], args[16384], path[1200], *out, *err;
	snprintf(yaml, sizeof yaml, knobs_yaml, "never-placed", "");
	write_file("knobs.yaml", yaml);
	snprintf(path, sizeof path, "%s/knobs.yaml", tmp);

	snprintf(args, sizeof args, "validate %s", path);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "warning: policy 'k' can never place job group 'big' "
				       "(memory): over the limit of 4GiB on 2 nodes\n"));
	free(out);
	free(err);

	snprintf(args, sizeof args, "run %s -q -o %s/knobs", path, tmp);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	free(out);
	free(err);
	snprintf(args, sizeof args, "%s/knobs/jobs.csv", tmp);
	char *jobs = h_slurp(args, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jobs);
	CU_ASSERT_PTR_NOT_NULL(strstr(jobs, "k,0,0,small,0,synthetic,unplaceable,0.000000,,,,0,0,"
				       "never-placed,\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(jobs, ",big,0,synthetic,unplaceable,0.000000,,,,0,0,memory,\n"));
	free(jobs);

	snprintf(args, sizeof args, "policies --plugin %s/libknobs.so", tmp);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "    reason         cores|never-placed default cores     why\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "    delay          time [0s, 1000s]   default 2s        when\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "    depth          integer [1, 8]     default 3         unused\n"));
	free(out);
	free(err);

	/* the loader checks the plugin's switches as a built-in's */
	snprintf(yaml, sizeof yaml, knobs_yaml, "sometimes", "");
	write_file("knobs.yaml", yaml);
	snprintf(args, sizeof args, "validate %s", path);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	char want[16384];
	snprintf(want, sizeof want, "%s:8:44: expected one of cores, never-placed for switch 'reason' "
		 "of policy knobs, got 'sometimes'\n", path);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(out);
	free(err);
	snprintf(yaml, sizeof yaml, knobs_yaml, "cores", ", depth: 9");
	write_file("knobs.yaml", yaml);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	snprintf(want, sizeof want, "%s:8:72: expected [1, 8] for switch 'depth' of policy knobs, "
		 "got '9'\n", path);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(out);
	free(err);
	snprintf(yaml, sizeof yaml, knobs_yaml, "cores", ", dept: 2");
	write_file("knobs.yaml", yaml);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	snprintf(want, sizeof want, "%s:8:65: policy knobs has no switch 'dept' (did you mean "
		 "'depth'?)\n", path);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(out);
	free(err);
}

/* ---- bad plugins: one line naming the file, exit 1 ---------------------- */

/* `hetsim policies --plugin FILE` fails with exactly "FILE: what\n". */
static void expect_bad(const char *file, const char *what)
{
	char args[16384], want[16384], *out, *err;
	snprintf(args, sizeof args, "policies --plugin %s/%s", tmp, file);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	snprintf(want, sizeof want, "%s/%s: %s", tmp, file, what);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_PTR_NOT_NULL(err);
	if (err) {
		size_t n = strlen(err);
		CU_ASSERT(n > 0 && err[n - 1] == '\n' && strchr(err, '\n') == err + n - 1);
		CU_ASSERT_EQUAL(strncmp(err, want, strlen(want)), 0);
		if (strncmp(err, want, strlen(want)) != 0)
			fprintf(stderr, "\n  got %s  want %s\n", err, want);
	}
	free(out);
	free(err);
}

/* A plugin that goes wrong as its switch `fault` says, in its schedule
 * hook (or, timer0, by a timer re-armed with no delay in each call):
 * segv (a NULL store), abort (abort()), launch (a node out of range),
 * overcommit (a second executor for a job of one), reject2 (a job
 * rejected twice), term and int (the process signals itself), term2
 * (twice, then a decision of 20 s). */
static const char faulty_c[] =
	"#include <hetsim/policy.h>\n"
	"#include <signal.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"#include <time.h>\n"
	"static int state;\n"
	"static int *volatile nowhere;\n"
	"static void *init(struct hetsim *h) { (void)h; state = 0; return &state; }\n"
	"static void arrived(void *st, struct hetsim *h, int job) {\n"
	"	(void)st, (void)job;\n"
	"	if (!strcmp(hetsim_switch(h, \"fault\"), \"timer0\")) hetsim_timer(h, 0, 1);\n"
	"}\n"
	"static void timer(void *st, struct hetsim *h, uint32_t tag) { (void)st; hetsim_timer(h, 0, tag); }\n"
	"static void finished(void *st, struct hetsim *h, int job) { (void)st, (void)h, (void)job; }\n"
	"static void schedule(void *st, struct hetsim *h) {\n"
	"	const char *f = hetsim_switch(h, \"fault\");\n"
	"	(void)st;\n"
	"	if (hetsim_njobs(h) < 1) return;\n"
	"	if (!strcmp(f, \"segv\")) *nowhere = 1;\n"
	"	if (!strcmp(f, \"abort\")) abort();\n"
	"	if (!strcmp(f, \"launch\")) hetsim_launch(h, 0, 0, 999, 1000, 1024, 0);\n"
	"	if (!strcmp(f, \"overcommit\")) {\n"
	"		hetsim_launch(h, 0, 0, 0, 1000, 1024, 0);\n"
	"		hetsim_launch(h, 0, 0, 0, 1000, 1024, 0);\n"
	"	}\n"
	"	if (!strcmp(f, \"reject2\")) {\n"
	"		hetsim_reject(h, 0, HETSIM_WHY_NEVER_PLACED);\n"
	"		hetsim_reject(h, 0, HETSIM_WHY_NEVER_PLACED);\n"
	"	}\n"
	"	if (!strcmp(f, \"term\")) raise(SIGTERM);\n"
	"	if (!strcmp(f, \"int\")) raise(SIGINT);\n"
	"	if (!strcmp(f, \"term2\")) { /* a decision that runs long, stopped twice */\n"
	"		raise(SIGTERM);\n"
	"		raise(SIGTERM);\n"
	"		time_t t0 = time(NULL);\n"
	"		while (time(NULL) - t0 < 20)\n"
	"			;\n"
	"	}\n"
	"}\n"
	"static const char *const faults[] = {\"none\", \"segv\", \"abort\", \"launch\", \"overcommit\",\n"
	"	\"reject2\", \"timer0\", \"term\", \"int\", \"term2\", NULL};\n"
	"static const struct hetsim_param params[] = {\n"
	"	{.key = \"fault\", .type = HETSIM_CHOICE, .choices = faults, .def = \"none\", .help = \"how\"},\n"
	"	{.key = NULL},\n"
	"};\n"
	"static const struct hetsim_policy faulty = {HETSIM_POLICY_HEADER, .name = \"faulty\",\n"
	"	.summary = \"goes wrong\", .params = params, .init = init, .job_arrived = arrived,\n"
	"	.job_finished = finished, .schedule = schedule, .timer = timer};\n"
	"HETSIM_POLICY_EXPORT(faulty)\n";

/* Each fault ends the run with one line naming the plugin, and leaves
 * the output folder as it was: a folder with a run's results and a file
 * of the user's, listed (names, sizes, hashes) before and after; and a
 * folder the run made, with its parents, is gone again. */
static void test_faults(void)
{
	static const struct {
		const char *fault;
		int status;         /* exit status, 128 + signal */
		const char *says;   /* in its one line */
	} cases[] = {
		{"segv", 128 + SIGSEGV, "SIGSEGV (a segmentation fault: a bad memory access) in "
					"policy 'f' (a plugin: "},
		{"abort", 128 + SIGABRT, "SIGABRT (aborted) in policy 'f' (a plugin: "},
		{"launch", 128 + SIGABRT, "broken invariant at t=0.000000 s in policy 'f' (a plugin: "},
		/* (the second executor is let be; the launch for job 0 once it
		 * is done, at 3.01 s, is the misuse) */
		{"overcommit", 128 + SIGABRT, "broken invariant at t=3.010000 s in policy 'f' (a "
					      "plugin: "},
		{"reject2", 128 + SIGABRT, "broken invariant at t=0.000000 s in policy 'f' (a plugin: "},
		{"timer0", 1, "no progress: 1041 events at simulated time 0.000000 s without the "
			      "clock moving, more than the bound of 1040 = 10 x (2 jobs + 0 tasks + "
			      "2 nodes) + 1000; --max-stall sets it; 1039 of them policy-timer "
			      "events, from timers of policy 'f' (a plugin: "},
		{"term", 128 + SIGTERM, "interrupted (SIGTERM) in policy f, replication 0; no file "
					"written"},
		{"int", 128 + SIGINT, "interrupted (SIGINT) in policy f, replication 0; no file "
				      "written"},
		/* a second signal during a long decision: at once, by the
		 * guard (the run's own stop waits for the decision's end,
		 * 20 s later, and says the line above) */
		{"term2", 128 + SIGTERM, "hetsim: interrupted (SIGTERM) in policy 'f' (a plugin: "},
	};
	write_file("faulty.c", faulty_c);
	/* never with the sanitizers: UBSan would stop the NULL store
	 * itself, before the fault these cases are about */
	CU_ASSERT_EQUAL_FATAL(build_as("faulty.c", "libfaulty.so", false), 0);
	char yaml[4096], path[1200], args[16384], out[1200], *err;
	snprintf(yaml, sizeof yaml,
		 "cluster: [{name: n, count: 2, cores: 4, memory: 8GiB}]\n"
		 "workload:\n"
		 "  - {name: j, type: synthetic, count: 2, executors: 1, executor_cores: 1,\n"
		 "     executor_memory: 1GiB, stages: [{name: s, tasks: 1, duration: 1s}]}\n"
		 "policies: [fifo, {name: f, plugin: %s/libfaulty.so, fault: none}]\n", tmp);
	write_file("faulty.yaml", yaml);
	snprintf(out, sizeof out, "%s/faulty-out", tmp);
	snprintf(args, sizeof args, "run %s/faulty.yaml -q -o %s -p fifo", tmp, out);
	CU_ASSERT_EQUAL_FATAL(h_hetsim_child(args, NULL, &err), 0);
	free(err);
	snprintf(path, sizeof path, "faulty-out/mine.txt");
	write_file(path, "the user's own file\n");
	char *before = h_tree(out);
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		snprintf(yaml, sizeof yaml,
			 "cluster: [{name: n, count: 2, cores: 4, memory: 8GiB}]\n"
			 "workload:\n"
			 "  - {name: j, type: synthetic, count: 2, executors: 1, executor_cores: 1,\n"
			 "     executor_memory: 1GiB, stages: [{name: s, tasks: 1, duration: 1s}]}\n"
			 "policies: [fifo, {name: f, plugin: %s/libfaulty.so, fault: %s}]\n", tmp,
			 cases[k].fault);
		write_file("faulty.yaml", yaml);
		snprintf(args, sizeof args, "run %s/faulty.yaml -q -o %s", tmp, out);
		int st = h_hetsim_child(args, NULL, &err);
		CU_ASSERT_EQUAL(st, cases[k].status);
		CU_ASSERT_PTR_NOT_NULL_FATAL(err);
		size_t n = strlen(err);
		bool one = n > 0 && err[n - 1] == '\n' && strchr(err, '\n') == err + n - 1;
		CU_ASSERT(one); /* one line */
		CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[k].says));
		if (!one || !strstr(err, cases[k].says) || st != cases[k].status)
			fprintf(stderr, "\n  %s: status %d, said: %s", cases[k].fault, st, err);
		char *after = h_tree(out);
		CU_ASSERT_STRING_EQUAL(after, before);
		free(after);
		free(err);
		/* into a folder it makes, two levels deep: none of it stays */
		snprintf(args, sizeof args, "run %s/faulty.yaml -q -o %s/made/a/b", tmp, tmp);
		CU_ASSERT_EQUAL(h_hetsim_child(args, NULL, &err), cases[k].status);
		snprintf(path, sizeof path, "%s/made", tmp);
		char *made = h_tree(path);
		CU_ASSERT_STRING_EQUAL(made, "(none)");
		free(made);
		free(err);
	}
	free(before);
}

/* A plugin source: the template's table with one field changed. */
static void bad_plugin(const char *name, const char *table)
{
	char c[16384], src[1200], so[1200];
	snprintf(c, sizeof c, "#include <hetsim/policy.h>\n"
		 "__attribute__((unused)) static void *init(struct hetsim *h) { (void)h; return 0; }\n"
		 "__attribute__((unused)) static void schedule(void *st, struct hetsim *h) "
		 "{ (void)st, (void)h; }\n"
		 "static const struct hetsim_policy t = {%s};\n"
		 "HETSIM_POLICY_EXPORT(t)\n", table);
	snprintf(src, sizeof src, "%s.c", name);
	snprintf(so, sizeof so, "%s.so", name);
	write_file(src, c);
	CU_ASSERT_EQUAL_FATAL(build(src, so), 0);
}

static void test_bad_plugins(void)
{
	write_file("text.so", "This is a text file, not a shared object: long enough that the "
			      "loader reads its header and finds no ELF magic there.\n");
	expect_bad("text.so", "not a shared object (invalid ELF header)\n");
	expect_bad("missing.so", "cannot open the plugin: No such file or directory\n");

	write_file("noentry.c", "int hetsim_policy_entree(void);\n"
				"int hetsim_policy_entree(void) { return 0; }\n");
	CU_ASSERT_EQUAL_FATAL(build("noentry.c", "noentry.so"), 0);
	expect_bad("noentry.so", "no entry point hetsim_policy_entry (HETSIM_POLICY_EXPORT in "
				 "hetsim/policy.h): not a hetsim policy plugin\n");

	bad_plugin("abi", ".abi = 2, .hetsim_version = \"9.9\", .name = \"abi\", .init = init, "
			  ".schedule = schedule");
	expect_bad("abi.so", "built for plugin ABI 2 (hetsim 9.9); this is hetsim " HETSIM_VERSION
			     ", plugin ABI 1: rebuild it against this hetsim's hetsim/policy.h\n");

	bad_plugin("nosched", "HETSIM_POLICY_HEADER, .name = \"nosched\", .init = init");
	expect_bad("nosched.so", "policy 'nosched': required hook 'schedule' is NULL\n");

	bad_plugin("clash", "HETSIM_POLICY_HEADER, .name = \"fifo\", .init = init, "
			    ".schedule = schedule");
	expect_bad("clash.so", "policy name 'fifo' is a built-in policy's; give the plugin "
			       "another name\n");

	bad_plugin("noname", "HETSIM_POLICY_HEADER, .name = \"no name\", .schedule = schedule");
	expect_bad("noname.so", "policy name 'no name' is not a name");

	bad_plugin("baddef", "HETSIM_POLICY_HEADER, .name = \"baddef\", .schedule = schedule, "
			     ".params = (const struct hetsim_param[]){{.key = \"t\", "
			     ".type = HETSIM_TIME, .def = \"5\", .lo = 0, .hi = 10}, {0}}");
	expect_bad("baddef.so", "switch 't' of policy 'baddef': default '5' is not a time in "
				"[0, 10]\n");

	/* the version differs, the ABI is the same: loaded, with a note */
	bad_plugin("older", ".abi = HETSIM_POLICY_ABI, .hetsim_version = \"0.0.1\", "
			    ".name = \"older\", .schedule = schedule");
	char args[16384], *out, *err, want[16384];
	snprintf(args, sizeof args, "policies --plugin %s/older.so", tmp);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	snprintf(want, sizeof want, "%s/older.so: note: policy 'older' was built for hetsim 0.0.1; "
		 "this is hetsim %s (the same plugin ABI 1)\n", tmp, HETSIM_VERSION);
	CU_ASSERT_STRING_EQUAL(err, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(built for hetsim 0.0.1, plugin ABI 1)"));
	free(out);
	free(err);

	/* in a scenario: the loader's position, then the same line */
	char yaml[16384], path[1200];
	snprintf(yaml, sizeof yaml, "cluster: [{name: n, count: 1, cores: 4, memory: 8GiB}]\n"
		 "workload: [{name: w, type: synthetic, count: 1, stages: [{name: s, tasks: 1, duration: 1s}]}]\n"
		 "policies: [{name: x, plugin: text.so}]\n");
	write_file("bad.yaml", yaml);
	snprintf(args, sizeof args, "run %s/bad.yaml -q -o %s/bad", tmp, tmp);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	snprintf(path, sizeof path, "%s/bad.yaml", tmp);
	snprintf(want, sizeof want, "%s:3:30: %s/text.so: not a shared object (invalid ELF header)\n",
		 path, tmp);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(out);
	free(err);
	snprintf(yaml, sizeof yaml, "cluster: [{name: n, count: 1, cores: 4, memory: 8GiB}]\n"
		 "workload: [{name: w, type: synthetic, count: 1, stages: [{name: s, tasks: 1, duration: 1s}]}]\n"
		 "policies: [{policy: fifo, plugin: libmine.so}]\n");
	write_file("bad.yaml", yaml);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	snprintf(want, sizeof want, "%s:3:21: policy 'fifo', but plugin 'libmine.so' holds policy "
		 "'mine'\n", path);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(out);
	free(err);
}

/* ---- docs/writing-a-policy.md, followed ------------------------------- */

/* The fenced block after marker `mark` in doc, malloc'ed; NULL if none. */
static char *doc_block(const char *doc, const char *mark)
{
	const char *at = strstr(doc, mark);
	if (!at || !(at = strstr(at, "```")) || !(at = strchr(at, '\n')))
		return NULL;
	at++;
	const char *end = strstr(at, "```");
	if (!end)
		return NULL;
	char *b = xmalloc((size_t)(end - at) + 1);
	memcpy(b, at, (size_t)(end - at));
	b[end - at] = '\0';
	return b;
}

/* The page's backfill.c and hol.yaml, built and run: the rows it says. */
static void test_doc(void)
{
	char *doc = h_slurp("docs/writing-a-policy.md", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	char *c = doc_block(doc, "<!-- file: backfill.c -->");
	char *yaml = doc_block(doc, "<!-- file: hol.yaml -->");
	char *rows = doc_block(doc, "<!-- expect: out/jobs.csv -->");
	free(doc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(yaml);
	CU_ASSERT_PTR_NOT_NULL_FATAL(rows);
	char args[16384], *out, *err;
	snprintf(args, sizeof args, "mkdir -p '%s/doc'", tmp);
	CU_ASSERT_EQUAL_FATAL(system(args), 0);
	write_file("doc/backfill.c", c);
	write_file("doc/hol.yaml", yaml);
	CU_ASSERT_EQUAL_FATAL(build("doc/backfill.c", "doc/libbackfill.so"), 0);
	snprintf(args, sizeof args, "run %s/doc/hol.yaml -q -o %s/doc/out", tmp, tmp);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out);
	free(err);
	snprintf(args, sizeof args, "%s/doc/out/jobs.csv", tmp);
	char *jobs = h_slurp(args, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jobs);
	for (char *line = strtok(rows, "\n"); line; line = strtok(NULL, "\n")) {
		char want[1024];
		snprintf(want, sizeof want, "\n%s\n", line);
		CU_ASSERT_PTR_NOT_NULL(strstr(jobs, want));
		if (!strstr(jobs, want))
			fprintf(stderr, "\n  no row %s", want);
	}
	/* depth 1 is fifo: bf1's rows are fifo's */
	int nf = 0, n1 = 0;
	char fifo[4096] = "", bf1[4096] = "";
	for (char *line = strtok(jobs, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "fifo,", 5) == 0)
			nf += snprintf(fifo + nf, sizeof fifo - (size_t)nf, "%s\n", line + 5);
		else if (strncmp(line, "bf1,", 4) == 0)
			n1 += snprintf(bf1 + n1, sizeof bf1 - (size_t)n1, "%s\n", line + 4);
	}
	CU_ASSERT(nf > 0);
	CU_ASSERT_STRING_EQUAL(fifo, bf1);
	free(jobs);
	free(c);
	free(yaml);
	free(rows);
}

static void test_cleanup(void)
{
	pol_plugins_unload();
	CU_ASSERT_PTR_NULL(pol_find("mine"));
	CU_ASSERT_PTR_NOT_NULL(pol_find("fifo"));
	CU_ASSERT_EQUAL(h_rmtree(tmp), 0);
}

int test_suite_plugin(void)
{
	TEST_SUITE("plugin",
		   {"the template built out of tree", test_build_template},
		   {"the template's Makefile", test_template_makefile},
		   {"the template gives fifo's bytes (in memory)", test_same_bytes_in_memory},
		   {"the template gives fifo's bytes (scenario plugin entry)",
		    test_same_bytes_by_scenario},
		   {"--plugin for run, sweep, policies, validate", test_command_line},
		   {"switches, rejects, timers, can_ever_place", test_switches},
		   {"a bad plugin: one line naming it, exit 1", test_bad_plugins},
		   {"a plugin's fault or stop: one line naming it, the folder as it was",
		    test_faults},
		   {"docs/writing-a-policy.md, followed", test_doc},
		   {"unload", test_cleanup});
	return 0;
}
