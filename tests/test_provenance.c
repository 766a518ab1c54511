/* test_provenance.c - a cost model's provenance (meta, version 2) and
 * the error paths of `hetsim calibrate`: meta parsed or refused with
 * file:line:col; version 1 meta left alone; --check's decision and
 * --validate's warning on injected reference speeds (cal_ref_hook: no
 * real timing); every bad path exits with its one line and writes
 * nothing. */
#include "load.h"
#include "test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cal.h"
#include "harness.h"
#include "scenario.h"

/* A folder of its own for each test; removed by done(). */
static char dir[64];

static void fresh(void)
{
	snprintf(dir, sizeof dir, "/tmp/hetsim-prov-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

static void done(void)
{
	h_rmtree(dir);
}

static const char *at(const char *name)
{
	static char buf[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* The names in dir, sorted, space-separated ("" when empty). */
static const char *listing(void)
{
	static char buf[1024];
	struct dirent **v;
	int n = scandir(dir, &v, NULL, alphasort);
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (v[i]->d_name[0] != '.')
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", buf[0] ? " " : "",
				 v[i]->d_name);
		free(v[i]);
	}
	free(v);
	return buf;
}

#define KERNELS                                                                              \
	"kernels:\n"                                                                         \
	"  wordcount_map: {unit: MiB, devices: {cpu: {intercept: 25ms, slope: 4.5ms}}}\n"    \
	"  wordcount_reduce: {unit: MiB, devices: {cpu: {intercept: 1ms, slope: 1.2ms}}}\n"

/* A version 2 model with every meta field (lines 1-14 before kernels). */
static const char good_v2[] =
	"version: 2\n"
	"task_overhead: 30ms\n"
	"meta:\n"
	"  source: \"hetsim calibrate (cpu backend)\"\n"
	"  machine: {cpu: \"AMD EPYC 7B13\", cores: 2, memory: 8GiB}\n"
	"  os: \"Linux 6.1.0 x86_64\"\n"
	"  compiler: \"gcc 12.2.0\"\n"
	"  blas: gslcblas\n"
	"  date: 2025-06-01T12:00:00Z\n"
	"  reference: {kernel: wordcount-zipf-16MiB, speed: 200.0}\n"
	"  contention_k: [1, 2]\n"
	"  threads: 1\n"
	"  later_key: {anything: [1, 2]}\n"
	"  backend: cpu\n" KERNELS;

static void test_meta_good(void)
{
	char err[1024];
	fresh();
	put("m.yaml", good_v2);
	struct scn *s = scn_cost_load(at("m.yaml"), err, sizeof err);
	if (!s)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	const struct scn_cost_meta *m = &s->cost.meta;
	CU_ASSERT_EQUAL(s->cost.version, 2);
	CU_ASSERT_STRING_EQUAL(m->source, "hetsim calibrate (cpu backend)");
	CU_ASSERT_STRING_EQUAL(m->cpu, "AMD EPYC 7B13");
	CU_ASSERT_EQUAL(m->cores, 2);
	CU_ASSERT_EQUAL(m->memory_mib, 8192);
	CU_ASSERT_STRING_EQUAL(m->os, "Linux 6.1.0 x86_64");
	CU_ASSERT_STRING_EQUAL(m->compiler, "gcc 12.2.0");
	CU_ASSERT_STRING_EQUAL(m->blas, "gslcblas");
	CU_ASSERT_STRING_EQUAL(m->date, "2025-06-01T12:00:00Z");
	CU_ASSERT_STRING_EQUAL(m->ref_kernel, CAL_REF_KERNEL);
	CU_ASSERT_DOUBLE_EQUAL(m->ref_speed, 200.0, 0);
	CU_ASSERT_EQUAL(m->contention_k[0], 1);
	CU_ASSERT_EQUAL(m->contention_k[1], 2);
	CU_ASSERT_PTR_NOT_NULL(scn_cost_kernel(s, "wordcount_map"));
	scn_free(s);
	/* every field is optional; meta itself too */
	put("m.yaml", "version: 2\nmeta: {blas: gslcblas}\n" KERNELS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s = scn_cost_load(at("m.yaml"), err, sizeof err));
	CU_ASSERT_PTR_NULL(s->cost.meta.cpu);
	CU_ASSERT_PTR_NULL(s->cost.meta.ref_kernel);
	CU_ASSERT_EQUAL(s->cost.meta.contention_k[1], 0);
	scn_free(s);
	put("m.yaml", "version: 2\n" KERNELS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s = scn_cost_load(at("m.yaml"), err, sizeof err));
	scn_free(s);
	done();
}

/* Version 1: meta stays opaque, whatever it holds. */
static void test_meta_v1(void)
{
	char err[1024];
	const char *files[] = {"calibrate/models/epyc-2core.yaml", "tests/scenarios/ok/cost.yaml",
			       "calibrate/models/default.yaml"};
	for (int i = 0; i < 3; i++) {
		struct scn *s = scn_cost_load(files[i], err, sizeof err);
		if (!s)
			fprintf(stderr, "\n%s\n", err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		CU_ASSERT_EQUAL(s->cost.version, 1);
		CU_ASSERT_PTR_NULL(s->cost.meta.cpu);
		CU_ASSERT_PTR_NULL(s->cost.meta.ref_kernel);
		scn_free(s);
	}
	fresh();
	put("m.yaml", "version: 1\nmeta: {machine: 7, date: yesterday, reference: fast}\n" KERNELS);
	struct scn *s = scn_cost_load(at("m.yaml"), err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL(s);
	scn_free(s);
	done();
}

/* Model text `yaml` fails to load with "<its path>`msg`". */
static void expect_error(const char *yaml, const char *msg)
{
	char err[1024], want[1400];
	put("bad.yaml", yaml);
	struct scn *s = scn_cost_load(at("bad.yaml"), err, sizeof err);
	CU_ASSERT_PTR_NULL(s);
	scn_free(s);
	snprintf(want, sizeof want, "%s%s", at("bad.yaml"), msg);
	if (!s && strcmp(err, want) != 0)
		fprintf(stderr, "\n got: %s\nwant: %s\n", err, want);
	CU_ASSERT_STRING_EQUAL(err, want);
}

static void test_meta_bad(void)
{
	fresh();
	static const struct {
		const char *meta, *msg;
	} cases[] = {
		{"meta: [a, b]\n", ":2:7: expected a mapping for meta, got a list"},
		{"meta: {machine: AMD}\n", ":2:17: expected a mapping for meta.machine, got 'AMD'"},
		{"meta:\n  machine: {cpu: AMD, memory: 8GiB}\n",
		 ":3:12: missing key 'cores' in meta.machine"},
		{"meta:\n  machine: {cores: 2, memory: 8GiB}\n",
		 ":3:12: missing key 'cpu' in meta.machine"},
		{"meta:\n  machine: {cpu: AMD, cores: 2}\n",
		 ":3:12: missing key 'memory' in meta.machine"},
		{"meta:\n  machine: {cpu: AMD, cores: two, memory: 8GiB}\n",
		 ":3:30: expected an integer, got 'two'"},
		{"meta:\n  machine: {cpu: AMD, cores: 2, memory: 8}\n",
		 ":3:41: expected a size such as 512MiB or 64GiB, got '8'"},
		{"meta:\n  machine: {cpu: [a], cores: 2, memory: 8GiB}\n",
		 ":3:18: expected a scalar for meta.machine.cpu, got a list"},
		{"meta:\n  os: {name: Linux}\n", ":3:7: expected a scalar for meta.os, got a mapping"},
		{"meta:\n  blas: \"\"\n", ":3:9: expected a text for meta.blas, got nothing"},
		{"meta:\n  date: 2025-06-01\n",
		 ":3:9: expected a date in ISO 8601 UTC such as 2025-06-01T12:00:00Z for meta.date, "
		 "got '2025-06-01'"},
		{"meta:\n  date: 2025-02-29T12:00:00Z\n",
		 ":3:9: expected a date in ISO 8601 UTC such as 2025-06-01T12:00:00Z for meta.date, "
		 "got '2025-02-29T12:00:00Z'"},
		{"meta:\n  date: 2025-06-01T12:00:00+02:00\n",
		 ":3:9: expected a date in ISO 8601 UTC such as 2025-06-01T12:00:00Z for meta.date, "
		 "got '2025-06-01T12:00:00+02:00'"},
		{"meta:\n  reference: {speed: 200}\n", ":3:14: missing key 'kernel' in meta.reference"},
		{"meta:\n  reference: {kernel: wc}\n", ":3:14: missing key 'speed' in meta.reference"},
		{"meta:\n  reference: {kernel: wc, speed: fast}\n",
		 ":3:34: expected a number, got 'fast'"},
		{"meta:\n  reference: {kernel: wc, speed: -3}\n",
		 ":3:34: expected a speed > 0 for meta.reference.speed, got '-3'"},
		{"meta:\n  reference: {kernel: \"w c\", speed: 3}\n",
		 ":3:23: expected a reference kernel name made of letters, digits, '_', '-' and '.', "
		 "got 'w c'"},
		{"meta:\n  contention_k: 2\n",
		 ":3:17: expected a list [MIN, MAX] of 2 integers for meta.contention_k, got '2'"},
		{"meta:\n  contention_k: [1, 2, 4]\n",
		 ":3:17: expected a list [MIN, MAX] of 2 integers for meta.contention_k, got a list of "
		 "another length"},
		{"meta:\n  contention_k: [0, 2]\n", ":3:18: expected an integer >= 1, got '0'"},
		{"meta:\n  contention_k: [4, 2]\n",
		 ":3:21: expected the largest k >= the smallest (4) in meta.contention_k, got '2'"},
		{"meta:\n  threads: 0\n", ":3:12: expected an integer >= 1, got '0'"},
		{"meta:\n  timing: {ci: 0.02}\n", ":3:11: missing key 'seed' in meta.timing"},
		{"meta:\n  timing: {seed: -1}\n", ":3:18: expected an integer >= 0, got '-1'"},
		{"meta:\n  timing: {seed: 1, ci: 2}\n",
		 ":3:25: expected a fraction between 0 and 1 for meta.timing.ci, got '2'"},
		{"meta:\n  timing: {seed: 1, cap: 0}\n", ":3:26: expected an integer >= 1, got '0'"},
		{"meta:\n  drift: {kernel: wc, first: 1, last: 1, min: 1, max: 1, change: 0}\n",
		 ":3:10: missing key 'points' in meta.drift"},
		{"meta:\n  drift: {kernel: wc, points: 2, first: 1, last: 0, min: 1, max: 1, "
		 "change: 0}\n", ":3:50: expected a speed > 0 for meta.drift.last, got '0'"},
		{"meta:\n  drift: {kernel: wc, points: 2, first: 1, last: 1, min: 1, max: 1}\n",
		 ":3:10: missing key 'change' in meta.drift"},
		{"meta:\n  drift: {kernel: wc, points: 2, first: 1, last: 1, min: 1, max: 1, "
		 "change: 0, speeds: [1]}\n",
		 ":3:88: expected a list of 2 speeds (points) for meta.drift.speeds, got a list of "
		 "another length"},
		{"meta:\n  drift: {kernel: wc, points: 2, first: 5, last: 1, min: 1, max: 2, "
		 "change: 0}\n", ":3:41: meta.drift.first 5 is outside min 1 .. max 2"},
		{"meta:\n  drift: {kernel: wc, points: 2, first: 1, last: 1, min: 3, max: 2, "
		 "change: 0}\n", ":3:41: meta.drift.first 1 is outside min 3 .. max 2"},
		{"meta:\n  fit: {r2: 1}\n", ":3:8: expected a scalar for meta.fit, got a mapping"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char yaml[2048];
		snprintf(yaml, sizeof yaml, "version: 2\n%s" KERNELS, cases[i].meta);
		expect_error(yaml, cases[i].msg);
	}
	expect_error("version: 3\n" KERNELS,
		     ":1:10: unsupported cost model version '3' (this hetsim reads versions 1 and 2)");
	done();
}

/* ---- the reference speed, injected ------------------------------------ */

static double injected;
static double fake_speed(void)
{
	return injected;
}

static void test_ref_compare(void)
{
	char line[512];
	CU_ASSERT_TRUE(cal_ref_compare(200, 180, line, sizeof line)); /* -10.0 %: in */
	CU_ASSERT_STRING_EQUAL(line, "this machine's reference speed 180.0 MiB/s is 10.0 % below "
				     "the model's 200.0 MiB/s (within 10 %)");
	CU_ASSERT_FALSE(cal_ref_compare(200, 179, line, sizeof line));
	CU_ASSERT_STRING_EQUAL(line, "this machine's reference speed 179.0 MiB/s is 10.5 % below "
				     "the model's 200.0 MiB/s (more than 10 %)");
	CU_ASSERT_TRUE(cal_ref_compare(200, 220, line, sizeof line));
	CU_ASSERT_FALSE(cal_ref_compare(200, 230, line, sizeof line));
	CU_ASSERT_STRING_EQUAL(line, "this machine's reference speed 230.0 MiB/s is 15.0 % above "
				     "the model's 200.0 MiB/s (more than 10 %)");
	CU_ASSERT_TRUE(cal_ref_compare(200, 200, line, sizeof line));
	injected = 123.5;
	cal_ref_hook = fake_speed;
	CU_ASSERT_DOUBLE_EQUAL(cal_ref_speed(11), 123.5, 0);
	cal_ref_hook = NULL;
}

/* The machine cal_machine reports (cal_machine_hook): fixed, so that
 * the machine check's lines are too. */
static const char *fake_cpu = "AMD EPYC 7B13";
static int fake_cores = 2;
static void fake_machine(char *model, size_t len, int *cores)
{
	snprintf(model, len, "%s", fake_cpu);
	*cores = fake_cores;
}

static void test_machine_same(void)
{
	char line[512] = "";
	struct scn_cost_meta m = {.cpu = "AMD EPYC 7B13", .cores = 2};
	CU_ASSERT_TRUE(cal_machine_same(&m, "AMD EPYC 7B13", 2, line, sizeof line));
	CU_ASSERT_STRING_EQUAL(line, "");
	CU_ASSERT_FALSE(cal_machine_same(&m, "Intel(R) Xeon(R) Processor", 2, line, sizeof line));
	CU_ASSERT_STRING_EQUAL(line, "the model was measured on AMD EPYC 7B13 with 2 cores, this "
				     "machine is Intel(R) Xeon(R) Processor with 2 cores");
	/* the same CPU with other cores: another machine too (the contention
	 * entry was measured on the model's) */
	CU_ASSERT_FALSE(cal_machine_same(&m, "AMD EPYC 7B13", 1, line, sizeof line));
	CU_ASSERT_STRING_EQUAL(line, "the model was measured on AMD EPYC 7B13 with 2 cores, this "
				     "machine is AMD EPYC 7B13 with 1 core");
	/* names are compared whole: a prefix is another CPU */
	CU_ASSERT_FALSE(cal_machine_same(&m, "AMD EPYC 7B1", 2, line, sizeof line));
	/* cores not recorded: the name alone */
	m.cores = 0;
	CU_ASSERT_TRUE(cal_machine_same(&m, "AMD EPYC 7B13", 64, line, sizeof line));
	CU_ASSERT_FALSE(cal_machine_same(&m, "AMD EPYC 9654", 64, line, sizeof line));
	CU_ASSERT_STRING_EQUAL(line, "the model was measured on AMD EPYC 7B13, this machine is "
				     "AMD EPYC 9654 with 64 cores");
	/* no machine recorded (--fit without .meta), or an unknown one:
	 * nothing to compare */
	strcpy(line, "untouched");
	m = (struct scn_cost_meta){0};
	CU_ASSERT_TRUE(cal_machine_same(&m, "AMD EPYC 9654", 64, line, sizeof line));
	m.cpu = "unknown";
	m.cores = 2;
	CU_ASSERT_TRUE(cal_machine_same(&m, "AMD EPYC 9654", 64, line, sizeof line));
	m.cpu = "";
	CU_ASSERT_TRUE(cal_machine_same(&m, "AMD EPYC 9654", 64, line, sizeof line));
	CU_ASSERT_STRING_EQUAL(line, "untouched");
}

static void test_check(void)
{
	char *out, *err, args[512], want[2048];
	fresh();
	put("m.yaml", good_v2);
	cal_ref_hook = fake_speed;
	cal_machine_hook = fake_machine;
	fake_cpu = "AMD EPYC 7B13";
	fake_cores = 2;
	injected = 190;
	snprintf(args, sizeof args, "calibrate --check %s", at("m.yaml"));
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	snprintf(want, sizeof want,
		 "hetsim calibrate --check %s: reference kernel wordcount-zipf-16MiB (a word count "
		 "of 16 MiB of Zipf text, seed 4242; median of 11 runs)\n"
		 "model:        200.0 MiB/s (AMD EPYC 7B13, 2 cores, 2025-06-01T12:00:00Z)\n"
		 "this machine: 190.0 MiB/s (AMD EPYC 7B13, 2 cores)\n"
		 "MATCH: this machine's reference speed 190.0 MiB/s is 5.0 %% below the model's "
		 "200.0 MiB/s (within 10 %%)\n", at("m.yaml"));
	CU_ASSERT_STRING_EQUAL(out, want);
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out);
	free(err);
	injected = 250; /* 25 % faster: a mismatch, exit 3, not an input error */
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), CAL_REF_MISMATCH);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "this machine: 250.0 MiB/s (AMD EPYC 7B13, 2 cores)\n"
					   "MISMATCH: this machine's reference speed 250.0 MiB/s "
					   "is 25.0 % above the model's 200.0 MiB/s (more than "
					   "10 %)\n"));
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out);
	free(err);
	/* a model whose calibration saw its reference drift over 160-260
	 * MiB/s: a mismatch inside that range says so after its verdict,
	 * one outside it does not */
	put("d.yaml", "version: 2\nmeta:\n  machine: {cpu: \"AMD EPYC 7B13\", cores: 2, memory: "
		      "8GiB}\n  reference: {kernel: wordcount-zipf-16MiB, speed: 200.0}\n"
		      "  drift: {kernel: wordcount-zipf-16MiB, points: 3, first: 160, last: 260, min: "
		      "160, max: 260, change: 62.5, speeds: [160, 200, 260]}\n" KERNELS);
	snprintf(args, sizeof args, "calibrate --check %s", at("d.yaml"));
	injected = 250;
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), CAL_REF_MISMATCH);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(more than 10 %)\nnote: within the 160.0-260.0 MiB/s "
					   "the reference read during the calibration (3 points): "
					   "it drifted as far by itself\n"));
	free(out);
	free(err);
	injected = 150;
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), CAL_REF_MISMATCH);
	CU_ASSERT_PTR_NULL(strstr(out, "note:"));
	free(out);
	free(err);
	injected = 190; /* a match: no note either */
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	CU_ASSERT_PTR_NULL(strstr(out, "note:"));
	free(out);
	free(err);
	remove(at("d.yaml"));
	snprintf(args, sizeof args, "calibrate --check %s", at("m.yaml"));
	/* another CPU: a note after the verdict, which stays the speeds' (a
	 * match here, exit 0; as measured on 2026-12-02, calibrate/README.md) */
	fake_cpu = "Intel(R) Xeon(R) Processor";
	injected = 195;
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "this machine: 195.0 MiB/s (Intel(R) Xeon(R) "
					   "Processor, 2 cores)\nMATCH: this machine's reference "
					   "speed 195.0 MiB/s is 2.5 % below the model's 200.0 "
					   "MiB/s (within 10 %)\nnote: the model was measured on "
					   "AMD EPYC 7B13 with 2 cores, this machine is Intel(R) "
					   "Xeon(R) Processor with 2 cores; the verdict rests on "
					   "the reference kernel's speed alone, and the model's "
					   "other kernels may differ more\n"));
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out);
	free(err);
	cal_ref_hook = NULL;
	cal_machine_hook = NULL;
	CU_ASSERT_STRING_EQUAL(listing(), "m.yaml");
	done();
}

/* hetsim ARGS (%s: the test's folder) exits rc with exactly `msg` on
 * stderr (%s: the folder too), nothing on stdout, and the folder then
 * holds exactly `files`. */
static void expect_cli(const char *args, int rc, const char *msg, const char *files)
{
	char *out, *err, a[1024], want[2048];
	snprintf(a, sizeof a, args, dir, dir);
	snprintf(want, sizeof want, msg, dir, dir);
	CU_ASSERT_EQUAL(h_hetsim(a, &out, &err), rc);
	if (strcmp(err, want) != 0)
		fprintf(stderr, "\n hetsim %s\n got: %s\nwant: %s\n", a, err, want);
	CU_ASSERT_STRING_EQUAL(err, want);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_STRING_EQUAL(listing(), files);
	free(out);
	free(err);
}

/* A missing or malformed model ends --check and --validate with its one
 * line and exit 1: nothing timed (the hook would count), no gnuplot, no
 * file written. */
static int calls;
static double counting_speed(void)
{
	calls++;
	return 200;
}

static void test_model_errors(void)
{
	fresh();
	cal_ref_hook = counting_speed;
	calls = 0;
	expect_cli("calibrate --check %s/none.yaml", 1,
		   "hetsim calibrate: cannot read model '%s/none.yaml': No such file or directory\n",
		   "");
	expect_cli("calibrate --validate %s/none.yaml -o %s/runs.csv", 1,
		   "hetsim calibrate: cannot read model '%s/none.yaml': No such file or directory\n",
		   "");
	put("bad.yaml", "version: 2\nmeta:\n  machine: {cpu: AMD, cores: -1, memory: 1GiB}\n" KERNELS);
	expect_cli("calibrate --check %s/bad.yaml", 1,
		   "hetsim calibrate: %s/bad.yaml:3:30: expected an integer >= 1, got '-1'\n",
		   "bad.yaml");
	expect_cli("calibrate --validate %s/bad.yaml -o %s/runs.csv", 1,
		   "hetsim calibrate: %s/bad.yaml:3:30: expected an integer >= 1, got '-1'\n",
		   "bad.yaml");
	put("bad.yaml", "version: 2\nkernels: {wordcount_map: {unit: MiB, devices: {cpu: "
			"{intercept: 1ms, slope: 1}}}}\n");
	expect_cli("calibrate --validate %s/bad.yaml -o %s/runs.csv", 1,
		   "hetsim calibrate: %s/bad.yaml:2:77: expected a time with a unit (us, ms, s, min, "
		   "h), got '1'\n", "bad.yaml");
	put("bad.yaml", "version: 2\nkernels: [\n");
	expect_cli("calibrate --check %s/bad.yaml", 1,
		   "hetsim calibrate: %s/bad.yaml:3:1: did not find expected node content (while "
		   "parsing a flow node at line 3)\n", "bad.yaml");
	/* a model without the wordcount kernels cannot be validated */
	put("bad.yaml", "version: 2\nkernels: {mnist_step: {unit: samples, devices: {cpu: "
			"{intercept: 1ms, slope: 1ms}}}}\n");
	expect_cli("calibrate --validate %s/bad.yaml -o %s/runs.csv", 1,
		   "hetsim calibrate: model '%s/bad.yaml' has no wordcount_map on cpu in MiB\n",
		   "bad.yaml");
	/* --check wants a comparable reference: none (version 1), another kernel's */
	expect_cli("calibrate --check calibrate/models/epyc-2core.yaml", 1,
		   "hetsim calibrate: calibrate/models/epyc-2core.yaml: no meta.reference to compare "
		   "with (a version 2 model written by hetsim calibrate records one; refit this one)\n",
		   "bad.yaml");
	put("bad.yaml", "version: 2\nmeta: {reference: {kernel: dgemm-512, speed: 3}}\n" KERNELS);
	expect_cli("calibrate --check %s/bad.yaml", 1,
		   "hetsim calibrate: %s/bad.yaml: meta.reference is of kernel 'dgemm-512', not this "
		   "hetsim's 'wordcount-zipf-16MiB': the speeds are not comparable\n", "bad.yaml");
	CU_ASSERT_EQUAL(calls, 0);
	cal_ref_hook = NULL;
	done();
}

/* --validate's machine check: a mismatch is one warning line on stderr
 * (both speeds and the %), and the validation goes on (0 returned: not
 * an error); a match one line on stdout; no reference a note. */
static struct scn_cost_meta warn_meta;
static double warn_speed[2];
static int call_warn(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cal_ref_warn(&warn_meta, "m.yaml", warn_speed);
}

static void test_validate_warning(void)
{
	char *out, *err;
	char kernel[] = CAL_REF_KERNEL;
	warn_meta = (struct scn_cost_meta){.ref_kernel = kernel, .ref_speed = 200};
	cal_ref_hook = fake_speed;
	injected = 150;
	CU_ASSERT_EQUAL(h_call(call_warn, "x", &out, &err), 1);
	CU_ASSERT_DOUBLE_EQUAL(warn_speed[0], 200, 0);
	CU_ASSERT_DOUBLE_EQUAL(warn_speed[1], 150, 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: warning: this machine's reference speed "
				    "150.0 MiB/s is 25.0 % below the model's 200.0 MiB/s (more "
				    "than 10 %): the model may not describe this machine\n");
	free(out);
	free(err);
	injected = 210;
	CU_ASSERT_EQUAL(h_call(call_warn, "x", &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(out, "machine: this machine's reference speed 210.0 MiB/s is 5.0 % "
				    "above the model's 200.0 MiB/s (within 10 %)\n");
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out);
	free(err);
	/* another machine: its warning first, then the speeds' line, each
	 * on its own (here the speeds match) */
	char cpu[] = "AMD EPYC";
	warn_meta.cpu = cpu;
	warn_meta.cores = 2;
	cal_machine_hook = fake_machine;
	fake_cpu = "Intel(R) Xeon(R) Processor";
	fake_cores = 2;
	CU_ASSERT_EQUAL(h_call(call_warn, "x", &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(out, "machine: this machine's reference speed 210.0 MiB/s is 5.0 % "
				    "above the model's 200.0 MiB/s (within 10 %)\n");
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: warning: the model was measured on AMD "
				    "EPYC with 2 cores, this machine is Intel(R) Xeon(R) Processor "
				    "with 2 cores\n");
	free(out);
	free(err);
	fake_cpu = "AMD EPYC"; /* the same machine: no line */
	CU_ASSERT_EQUAL(h_call(call_warn, "x", &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out);
	free(err);
	/* a mismatch within the calibration's own drift: said in the line */
	warn_meta.drift_points = 7;
	warn_meta.drift_min = 118.5;
	warn_meta.drift_max = 172.4;
	injected = 150;
	CU_ASSERT_EQUAL(h_call(call_warn, "x", &out, &err), 1);
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: warning: this machine's reference speed "
				    "150.0 MiB/s is 25.0 % below the model's 200.0 MiB/s (more "
				    "than 10 %): the model may not describe this machine (though "
				    "within the 118.5-172.4 MiB/s the reference read during the "
				    "calibration (7 points): it drifted as far by itself)\n");
	free(out);
	free(err);
	warn_meta.drift_points = 0;
	cal_machine_hook = NULL;
	warn_meta = (struct scn_cost_meta){0};
	warn_speed[0] = warn_speed[1] = -1;
	CU_ASSERT_EQUAL(h_call(call_warn, "x", &out, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(warn_speed[0], 0, 0); /* not compared */
	CU_ASSERT_DOUBLE_EQUAL(warn_speed[1], 0, 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: note: m.yaml: no meta.reference to compare "
				    "with (a version 2 model written by hetsim calibrate records "
				    "one; refit this one); this machine not compared\n");
	free(out);
	free(err);
	cal_ref_hook = NULL;
}

/* Bad command lines exit 2 naming the option, before anything is read
 * or measured. */
static void test_usage_errors(void)
{
	fresh();
	static const struct {
		const char *args, *msg;
	} cases[] = {
		{"calibrate --validate m.yaml --workers 0",
		 "hetsim calibrate: option '--workers' wants at least 1\n"},
		{"calibrate --validate m.yaml --workers two",
		 "hetsim calibrate: option '--workers' wants an integer from 0 to 64, got 'two'\n"},
		{"calibrate --validate m.yaml --repeats 0",
		 "hetsim calibrate: option '--repeats' wants at least 1\n"},
		{"calibrate --validate m.yaml --repeats 101",
		 "hetsim calibrate: option '--repeats' wants an integer from 0 to 100, got '101'\n"},
		{"calibrate --validate m.yaml --quick",
		 "hetsim calibrate: option '--validate' fits nothing: drop --fit, --backend, --quick, "
		 "--kernels and --force\n"},
		{"calibrate --check m.yaml -o %s/x.yaml",
		 "hetsim calibrate: option '--check' goes alone: drop '--output'\n"},
		{"calibrate --check m.yaml --workers 2",
		 "hetsim calibrate: option '--check' goes alone: drop '--workers'\n"},
		{"calibrate --check m.yaml extra", "hetsim calibrate: unexpected argument 'extra'\n"},
		{"calibrate --backend tpu -o %s/x.yaml",
		 "hetsim calibrate: option '--backend' wants cpu or cuda, got 'tpu'\n"},
		{"calibrate --kernels wordcount_mapp -o %s/x.yaml",
		 "hetsim calibrate: option '--kernels': unknown kernel 'wordcount_mapp' (did you mean "
		 "'wordcount_map'?) (known: wordcount_map, wordcount_reduce, mnist_step)\n"},
		{"calibrate --quick", "hetsim calibrate: option '-o FILE' is required\n"},
		{"calibrate -o %s/x.yaml stray", "hetsim calibrate: unexpected argument 'stray'\n"},
		{"calibrate --fit s.csv --quick -o %s/x.yaml",
		 "hetsim calibrate: option '--fit' measures nothing: drop --input, --quick and "
		 "--kernels\n"},
		{"calibrate --fit s.csv --seed 3 -o %s/x.yaml",
		 "hetsim calibrate: option '--seed' goes with measuring: drop it with --fit\n"},
		{"calibrate --seed x -o %s/x.yaml",
		 "hetsim calibrate: option '--seed' wants an integer from 0 to 18446744073709551615 "
		 "(as a scenario's seed), got 'x'\n"},
		{"calibrate --workers 2 -o %s/x.yaml",
		 "hetsim calibrate: options '--workers', '--repeats' and '--zipf' go with "
		 "'--validate'\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		expect_cli(cases[i].args, 2, cases[i].msg, "");
	done();
}

/* -o that cannot be written is refused before anything is measured
 * (exit 1, naming the option); an existing model is replaced whole or
 * not at all. */
static void test_output_errors(void)
{
	fresh();
	cal_ref_hook = counting_speed;
	calls = 0;
	put("m.yaml", good_v2);
	expect_cli("calibrate -o %s/no/x.yaml", 1,
		   "hetsim calibrate: option '-o': cannot write '%s/no/x.yaml': No such file or "
		   "directory\n", "m.yaml");
	expect_cli("calibrate --validate %s/m.yaml -o %s/no/runs.csv", 1,
		   "hetsim calibrate: option '-o': cannot write '%s/no/runs.csv': No such file or "
		   "directory\n", "m.yaml");
	mkdir(at("d"), 0755);
	expect_cli("calibrate --validate %s/m.yaml -o %s/d", 1,
		   "hetsim calibrate: option '-o': cannot write '%s/d': Is a directory\n",
		   "d m.yaml");
	rmdir(at("d"));
	/* unreadable --input: refused before the reference kernel is timed */
	expect_cli("calibrate --kernels wordcount_map --input %s/none.txt -o %s/x.yaml", 1,
		   "hetsim calibrate: option '--input': cannot read '%s/none.txt': No such file or "
		   "directory\n", "m.yaml");
	expect_cli("calibrate --validate %s/m.yaml --input %s/none.txt", 1,
		   "hetsim calibrate: option '--input': cannot read '%s/none.txt': No such file or "
		   "directory\n", "m.yaml");
	CU_ASSERT_EQUAL(calls, 0); /* refused before the reference was timed */
	/* --fit: unwritable -o, then a bad CSV: nothing written */
	put("s.csv", "kernel,device,size,repeat,seconds\nmnist_step,cpu,1,0,0.001\n"
		     "mnist_step,cpu,2,0,0.002\nmnist_step,cpu,4,0,abc\n");
	expect_cli("calibrate --fit %s/s.csv -o %s/no/x.yaml", 1,
		   "hetsim calibrate: option '-o': cannot write '%s/no/x.yaml': No such file or "
		   "directory\n", "m.yaml s.csv");
	expect_cli("calibrate --fit %s/s.csv -o %s/x.yaml", 1,
		   "hetsim calibrate: %s/s.csv:4: bad seconds 'abc' (a number > 0)\n", "m.yaml s.csv");
	/* too few sizes to fit: the existing model is left as it was */
	put("s.csv", "mnist_step,cpu,1,0,0.001\nmnist_step,cpu,2,0,0.002\n");
	expect_cli("calibrate --fit %s/s.csv -o %s/m.yaml", 1,
		   "hetsim calibrate: mnist_step on cpu: 2 distinct sizes, at least 3 needed to fit\n",
		   "m.yaml s.csv");
	char *text = h_slurp(at("m.yaml"), NULL);
	CU_ASSERT_STRING_EQUAL(text, good_v2);
	free(text);
	/* a poor fit (quadratic growth) does not touch the existing model;
	 * PATH without gnuplot: no figure, and a note saying so */
	FILE *f = fopen(at("s.csv"), "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (int size = 1; size <= 64; size *= 2)
		for (int r = 0; r < 3; r++)
			fprintf(f, "wordcount_map,cpu,%d,%d,%g\n", size, r, 1e-3 * size * size);
	fclose(f);
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL, *out, *err, args[512];
	setenv("PATH", at("nobin"), 1);
	snprintf(args, sizeof args, "calibrate --fit %s -o %s", at("s.csv"), at("m.yaml"));
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	char want[2048];
	snprintf(want, sizeof want,
		 "hetsim calibrate: POOR FIT: wordcount_map on cpu: residual CV 159.9 %% > 10 %%\n"
		 "hetsim calibrate: note: wordcount_map on cpu: negative intercept written as 0\n"
		 "hetsim calibrate: 1 poor fit: model %s/m.yaml NOT written (see %s/s.csv; --force "
		 "writes it anyway)\n"
		 "hetsim calibrate: gnuplot not found; figure %s/m.yaml.png skipped (install "
		 "gnuplot-nox)\n", dir, dir, dir);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(out);
	free(err);
	CU_ASSERT_STRING_EQUAL(listing(), "m.yaml s.csv");
	text = h_slurp(at("m.yaml"), NULL);
	CU_ASSERT_STRING_EQUAL(text, good_v2);
	free(text);
	cal_ref_hook = NULL;
	done();
}

/* hetsim-cuda-cal's samples (5 columns) and their provenance file as it
 * writes it (calibrate/cuda/hetsim-cuda-cal.cu, provenance()). */
static const char cuda_meta[] =
	"# Provenance of the samples beside it (hetsim-cuda-cal): the cost model's\n"
	"# version 2 meta keys (docs/scenario.md, \"meta: provenance\"); hetsim\n"
	"# calibrate --fit carries them into the model it fits.\n"
	"source: \"hetsim-cuda-cal (cuda backend)\"\n"
	"machine: {cpu: \"Intel(R) Xeon(R) Platinum 8480+\", cores: 16, memory: 131072MiB}\n"
	"gpu: {name: \"NVIDIA H200\", memory: 143771MiB, cuda: \"compute capability 9.0, "
	"132 SMs, driver 12.4, runtime 12.4\"}\n"
	"os: \"Linux 6.1.0 x86_64\"\n"
	"compiler: \"nvcc 12.4 (host gcc 12.2.0)\"\n"
	"blas: \"cuBLAS 12.4.5 (FP32, default math mode)\"\n"
	"date: 2026-12-01T13:00:00Z\n"
	"# One copy at a time: ...\n"
	"contention_k: [1, 1]\n"
	"# one host thread launches each kernel\n"
	"threads: 1\n"
	"backend: cuda\n";

static void put_cuda_samples(void)
{
	FILE *f = fopen(at("g.csv"), "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "kernel,device,size,repeat,seconds\n");
	for (int size = 16; size <= 512; size *= 2)
		for (int r = 0; r < 3; r++)
			fprintf(f, "mnist_step,nvidia-h200,%d,%d,%.9g\n", size, r,
				2e-4 + 1e-6 * size * (1 + 0.001 * (r - 1)));
	fclose(f);
}

/* --fit SAMPLES.csv reads SAMPLES.csv.meta into the model's meta; a
 * malformed one: its file:line:col, exit 1, nothing written. */
static void test_fit_cuda_meta(void)
{
	char err[1024];
	fresh();
	put_cuda_samples();
	put("g.csv.meta", cuda_meta);
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL, *out, *e, args[512];
	setenv("PATH", at("nobin"), 1); /* no gnuplot: no figure */
	snprintf(args, sizeof args, "calibrate --fit %s -o %s", at("g.csv"), at("m.yaml"));
	int rc = h_hetsim(args, &out, &e);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	if (rc != 0)
		fprintf(stderr, "\n%s%s\n", out, e);
	CU_ASSERT_EQUAL(rc, 0);
	free(out);
	free(e);
	struct scn *s = scn_cost_load(at("m.yaml"), err, sizeof err);
	if (!s)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	const struct scn_cost_meta *m = &s->cost.meta;
	char want[512];
	snprintf(want, sizeof want, "hetsim calibrate --fit %s of samples by hetsim-cuda-cal "
		 "(cuda backend)", at("g.csv"));
	CU_ASSERT_STRING_EQUAL(m->source, want);
	CU_ASSERT_STRING_EQUAL(m->cpu, "Intel(R) Xeon(R) Platinum 8480+");
	CU_ASSERT_EQUAL(m->cores, 16);
	CU_ASSERT_EQUAL(m->memory_mib, 131072);
	CU_ASSERT_STRING_EQUAL(m->gpu, "NVIDIA H200");
	CU_ASSERT_EQUAL(m->gpu_memory_mib, 143771);
	CU_ASSERT_STRING_EQUAL(m->gpu_cuda,
			       "compute capability 9.0, 132 SMs, driver 12.4, runtime 12.4");
	CU_ASSERT_STRING_EQUAL(m->os, "Linux 6.1.0 x86_64");
	CU_ASSERT_STRING_EQUAL(m->compiler, "nvcc 12.4 (host gcc 12.2.0)");
	CU_ASSERT_STRING_EQUAL(m->blas, "cuBLAS 12.4.5 (FP32, default math mode)");
	CU_ASSERT_STRING_EQUAL(m->date, "2026-12-01T13:00:00Z");
	CU_ASSERT_EQUAL(m->contention_k[0], 1);
	CU_ASSERT_EQUAL(m->contention_k[1], 1);
	CU_ASSERT_EQUAL(m->threads, 1);
	CU_ASSERT_STRING_EQUAL(m->backend, "cuda");
	CU_ASSERT_PTR_NULL(m->ref_kernel); /* no GPU reference kernel */
	CU_ASSERT_FALSE(m->has_timing);
	const struct scn_cost_kernel *k = scn_cost_kernel(s, "mnist_step");
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_EQUAL(k->ndevs, 1);
	CU_ASSERT_STRING_EQUAL(k->devs[0].device, "nvidia-h200");
	scn_free(s);
	/* the model written straight from the .meta reads the same */
	put("m.yaml", cuda_meta);
	struct scn_cost_meta pm;
	CU_ASSERT_EQUAL_FATAL(scn_meta_load(at("m.yaml"), &pm, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(pm.source, "hetsim-cuda-cal (cuda backend)");
	CU_ASSERT_EQUAL(pm.gpu_memory_mib, 143771);
	scn_cost_meta_free(&pm);
	CU_ASSERT_PTR_NULL(pm.source);
	unlink(at("m.yaml"));
	/* without a .meta: as before, no provenance */
	unlink(at("g.csv.meta"));
	snprintf(args, sizeof args, "calibrate --fit %s -o %s", at("g.csv"), at("m.yaml"));
	path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", at("nobin"), 1);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &e), 0);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	free(out);
	free(e);
	s = scn_cost_load(at("m.yaml"), err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NULL(s->cost.meta.cpu);
	CU_ASSERT_PTR_NULL(s->cost.meta.gpu);
	scn_free(s);
	unlink(at("m.yaml"));
	done();
}

static void test_fit_cuda_meta_bad(void)
{
	static const struct {
		const char *from, *to, *msg;
	} cases[] = {
		{"date: 2026-12-01T13:00:00Z", "date: 2026-12-01",
		 "g.csv.meta:10:7: expected a date in ISO 8601 UTC such as 2025-06-01T12:00:00Z "
		 "for meta.date, got '2026-12-01'"},
		{", memory: 143771MiB", "", "g.csv.meta:6:6: missing key 'memory' in meta.gpu"},
		{"contention_k: [1, 1]", "contention_k: [1]",
		 "g.csv.meta:12:15: expected a list [MIN, MAX] of 2 integers for "
		 "meta.contention_k, got a list of another length"},
		{"threads: 1", "threads: [1", "g.csv.meta:"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fresh();
		put_cuda_samples();
		char text[2048];
		const char *p = strstr(cuda_meta, cases[i].from);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		snprintf(text, sizeof text, "%.*s%s%s", (int)(p - cuda_meta), cuda_meta, cases[i].to,
			 p + strlen(cases[i].from));
		put("g.csv.meta", text);
		char *out, *err, args[512], want[1024];
		snprintf(args, sizeof args, "calibrate --fit %s -o %s", at("g.csv"), at("m.yaml"));
		snprintf(want, sizeof want, "hetsim calibrate: %s/%s", dir, cases[i].msg);
		CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
		if (strncmp(err, want, strlen(want)) != 0)
			fprintf(stderr, "\n got: %s\nwant: %s\n", err, want);
		CU_ASSERT_EQUAL(strncmp(err, want, strlen(want)), 0);
		CU_ASSERT_PTR_NOT_NULL(strchr(err, '\n'));
		CU_ASSERT_STRING_EQUAL(strchr(err, '\n') ? strchr(err, '\n') + 1 : "", "");
		CU_ASSERT_STRING_EQUAL(out, "");
		CU_ASSERT_STRING_EQUAL(listing(), "g.csv g.csv.meta");
		free(out);
		free(err);
		done();
	}
}

int test_suite_provenance(void)
{
	TEST_SUITE("provenance",
		   {"version 2 meta parsed, unknown keys accepted", test_meta_good},
		   {"version 1 meta left opaque", test_meta_v1},
		   {"bad meta names file:line:col", test_meta_bad},
		   {"reference speeds compared within 10 %", test_ref_compare},
		   {"the model's machine against this one", test_machine_same},
		   {"--check: match exits 0, mismatch 3", test_check},
		   {"missing or malformed model: one line, exit 1, nothing written", test_model_errors},
		   {"--validate warns on a machine mismatch and goes on", test_validate_warning},
		   {"bad command lines exit 2 naming the option", test_usage_errors},
		   {"unwritable -o and failed fits write nothing", test_output_errors},
		   {"--fit carries hetsim-cuda-cal's SAMPLES.csv.meta into the model",
		    test_fit_cuda_meta},
		   {"--fit: a malformed SAMPLES.csv.meta: file:line:col, nothing written",
		    test_fit_cuda_meta_bad});
	return 0;
}
