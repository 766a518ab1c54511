/* test_calibrate_load.c - calibration against the machine: --validate's
 * simulated twin and its verdict on injected runs (cal_val_hook, a
 * reference speed through cal_ref_hook), calibrate's bad command lines,
 * and the machine's load: the busy verdict on hand-made /proc texts,
 * calibrate stopped by a busy machine (a fake kernel on fake clocks), and
 * --check and --validate saying so.  (test_calibrate.c: the fits, the
 * samples and model files, the kernels.)  The busy tests share the
 * validation's fakes (test_busy_check runs both), hence one file. */
#include "load.h"
#include "test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cal.h"
#include "cmd.h"
#include "fit.h"
#include "harness.h"
#include "scenario.h"

/* The simulated twin of --validate, against a hand list-schedule.
 * Model: map 1 s + 0.1 s/MiB, reduce 0.5 s + 0.25 s/MiB.  Maps of 10,
 * 20, 10, 30, 10 MiB = 2, 3, 2, 4, 2 s, handed out in order to the first
 * idle of 2 workers: w0 0-2, w1 0-3, w0 2-4, w1 3-7, w0 4-6; all maps
 * done at 7.  Reduces of 2 and 4 MiB = 1 and 1.5 s: 7-8 and 7-8.5.
 * Makespan 8.5 s.  Maps only: 7 s.  On 1 worker: all in a row, 15.5 s. */
static void test_validate_twin(void)
{
	char dir[] = "/tmp/hetsim-val-test-XXXXXX", model[256], yaml[256], err[1024];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(model, sizeof model, "%s/m.yaml", dir);
	h_write_file(model, "version: 1\ntask_overhead: 30ms\nkernels:\n"
			    "  wordcount_map: {unit: MiB, noise: {dist: lognormal, cv: 0.1},\n"
			    "    devices: {cpu: {intercept: 1s, slope: 100ms}}}\n"
			    "  wordcount_reduce: {unit: MiB, devices: {cpu: {intercept: 500ms, "
			    "slope: 250ms}}}\n");
	double map[2], red[2];
	if (cal_val_model(model, map, red, err, sizeof err))
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_DOUBLE_EQUAL(map[0], 1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(map[1], 0.1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(red[0], 0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(red[1], 0.25, 1e-9);
	const double mib[5] = {10, 20, 10, 30, 10}, rmib[2] = {2, 4};
	double ms[5], rs[2], span = -1;
	for (int i = 0; i < 5; i++)
		ms[i] = map[0] + map[1] * mib[i];
	for (int i = 0; i < 2; i++)
		rs[i] = red[0] + red[1] * rmib[i];
	snprintf(yaml, sizeof yaml, "%s/twin.yaml", dir);
	CU_ASSERT_EQUAL(cal_val_twin(yaml, NULL, 2, ms, 5, rs, 2, &span, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(span, 8.5, 1e-6);
	CU_ASSERT_EQUAL(cal_val_twin(NULL, NULL, 2, ms, 5, rs, 0, &span, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(span, 7.0, 1e-6);
	CU_ASSERT_EQUAL(cal_val_twin(NULL, NULL, 1, ms, 5, rs, 2, &span, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(span, 15.5, 1e-6);
	/* The model's contention entries apply, through the loader: map
	 * slowdown 1.5 at k = 2, every task on the node slowed while both
	 * cores are busy (rate 1/1.5), alone at rate 1.  w0: m0 0-3; w1: m1
	 * has 1 s of work left at 3, ends 4.5; m2 (3-) has 1 left at 4.5,
	 * ends 6; m3 (4.5-) has 3 left at 6; m4 6-9; m3 has 1 left at 9,
	 * alone: ends 10.  Reduces 1 and 1.5 s from 10: r0 ends 11.5, r1 has
	 * 0.5 left, alone: 12.  On 1 worker nothing is shared: 15.5 s.
	 * mnist_step's 3.0 plays no part: the twin runs word counts. */
	h_write_file(model, "version: 1\ntask_overhead: 30ms\nkernels:\n"
			    "  wordcount_map: {unit: MiB, devices: {cpu: {intercept: 1s, slope: 100ms}},\n"
			    "    contention: {cpu: {k: [1, 2], slowdown: [1, 1.5], beyond: hold}}}\n"
			    "  wordcount_reduce: {unit: MiB, devices: {cpu: {intercept: 500ms, "
			    "slope: 250ms}}}\n"
			    "  mnist_step: {unit: samples, devices: {cpu: {intercept: 1ms, slope: 1ms}},\n"
			    "    contention: {cpu: {k: [1, 2], slowdown: [1, 3.0]}}}\n");
	CU_ASSERT_EQUAL(cal_val_twin(yaml, model, 2, ms, 5, rs, 2, &span, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(span, 12.0, 1e-5);
	CU_ASSERT_EQUAL(cal_val_twin(NULL, model, 1, ms, 5, rs, 2, &span, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(span, 15.5, 1e-6);
	/* a model that cannot be read: the twin says so */
	CU_ASSERT_EQUAL(cal_val_twin(NULL, "/nonexistent/m.yaml", 2, ms, 5, rs, 2, &span, err,
				     sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot read model '/nonexistent/m.yaml'"));
	/* a model without the wordcount kernels is refused with a message */
	h_write_file(model, "version: 1\nkernels:\n  mnist_step: {unit: samples, devices: "
			    "{cpu: {intercept: 1ms, slope: 0s}}}\n");
	err[0] = '\0';
	CU_ASSERT_EQUAL(cal_val_model(model, map, red, err, sizeof err), -1);
	CU_ASSERT(err[0] != '\0');
	remove(model);
	remove(yaml);
	rmdir(dir);
}

/* cmd_calibrate with argv (the arguments after "calibrate"), stderr
 * captured into err: the exit code. */
static int calibrate_cli(char *err, size_t len, int argc, char **argv)
{
	char path[] = "/tmp/hetsim-cal-cli-XXXXXX";
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	fflush(stderr);
	int saved = dup(2);
	dup2(fd, 2);
	int rc = cmd_calibrate(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ssize_t n = pread(fd, err, len - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return rc;
}

/* Bad command lines exit 2 with a line naming the option and the value. */
static void test_cli_bad(void)
{
	char err[512];
	char *a1[] = {"--zipf", "1.2", "-o", "/tmp/x.yaml", NULL};
	CU_ASSERT_EQUAL(calibrate_cli(err, sizeof err, 4, a1), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: options '--workers', '--repeats' and "
				    "'--zipf' go with '--validate'\n");
	char *a2[] = {"--validate", "m.yaml", "--zipf", "3", NULL};
	CU_ASSERT_EQUAL(calibrate_cli(err, sizeof err, 4, a2), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: option '--zipf' wants a number from 0.5 "
				    "to 2, got '3'\n");
	char *a3[] = {"--validate", "m.yaml", "--zipf", "1.1x", NULL};
	CU_ASSERT_EQUAL(calibrate_cli(err, sizeof err, 4, a3), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: option '--zipf' wants a number from 0.5 "
				    "to 2, got '1.1x'\n");
	char *a4[] = {"--validate", "m.yaml", "--zipf", "1.2", "--input", "t.txt", NULL};
	CU_ASSERT_EQUAL(calibrate_cli(err, sizeof err, 6, a4), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: option '--zipf' shapes the synthetic text: "
				    "drop it with --input\n");
	/* --concurrency: integers from 1 to the online cores (bad values
	 * exit before anything is measured) */
	const char *bad[] = {"0", "x", "1,,2", "2.5", "100000", ""};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *a5[] = {"--concurrency", (char *)bad[i], "-o", "/tmp/x.yaml", NULL};
		CU_ASSERT_EQUAL(calibrate_cli(err, sizeof err, 4, a5), 2);
		/* (an empty value: the command line's rule for every option) */
		CU_ASSERT_PTR_NOT_NULL(strstr(err, *bad[i] ? "hetsim calibrate: option "
							  "'--concurrency' wants integers from 1 to "
							: "hetsim calibrate: option '--concurrency' "
							  "wants a value (LIST), got ''\n"));
	}
	char *a6[] = {"--validate", "m.yaml", "--concurrency", "1,2", NULL};
	CU_ASSERT_EQUAL(calibrate_cli(err, sizeof err, 4, a6), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: option '--concurrency' goes with measuring: "
				    "drop it with --validate\n");
	/* --fresh: its own sweep, text and validation; the rest is refused
	 * (exit 2, naming the option) before anything is measured */
	const char *drop[][3] = {{"--validate", "m.yaml", "validate"}, {"--quick", NULL, "quick"},
				 {"--input", "t.txt", "input"}, {"--zipf", "1.2", "zipf"},
				 {"--concurrency", "1", "concurrency"}, {"--kernels", "mnist_step",
				 "kernels"}, {"--fit", "s.csv", "fit"}, {"--backend", "cpu", "backend"}};
	for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++) {
		char *a7[] = {"--fresh", (char *)drop[i][0], (char *)drop[i][1], NULL};
		char want[512];
		snprintf(want, sizeof want, "hetsim calibrate: option '--fresh' calibrates all kernels "
			 "with --quick's sweep and contention on Zipf text, then validates: drop "
			 "'--%s'\n", drop[i][2]);
		CU_ASSERT_EQUAL(calibrate_cli(err, sizeof err, drop[i][1] ? 3 : 2, a7), 2);
		CU_ASSERT_STRING_EQUAL(err, want);
	}
	char *a8[] = {"--fresh", "--workers", "0", NULL};
	CU_ASSERT_EQUAL(calibrate_cli(err, sizeof err, 3, a8), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: option '--workers' wants at least 1\n");
	char *a9[] = {"--fresh", "extra.txt", NULL};
	CU_ASSERT_EQUAL(calibrate_cli(err, sizeof err, 2, a9), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: unexpected argument 'extra.txt'\n");
	char *a10[] = {"--check", "m.yaml", "--fresh", NULL};
	CU_ASSERT_EQUAL(calibrate_cli(err, sizeof err, 3, a10), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: option '--check' goes alone: drop '--fresh'\n");
	/* -o FILE that cannot be written: exit 1, nothing measured */
	char *a11[] = {"--fresh", "-o", "/nonexistent/f.yaml", NULL};
	CU_ASSERT_EQUAL(calibrate_cli(err, sizeof err, 3, a11), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "option '-o': cannot write '/nonexistent/f.yaml'"));
}

/* ---- the closed loop's decision, on injected figures (cal_val_hook) -- */

static double fake_run_s;        /* every measured run's makespan */
static double fake_split[CAL_VAL_MAPS];
static int fake_workers;

static int fake_workload(const struct cal_val_opts *o, int workers, const double *split_mib,
			 double *runs, double *reduce_mib)
{
	fake_workers = workers;
	memcpy(fake_split, split_mib, sizeof fake_split);
	for (int i = 0; i < o->repeats; i++)
		runs[i] = fake_run_s * (1 + 0.01 * (i - o->repeats / 2)); /* median: fake_run_s */
	for (int r = 0; r < CAL_VAL_REDUCES; r++)
		reduce_mib[r] = 2;
	return 0;
}

/* The hand model of the validation tests: map 10 ms + 5 ms/MiB with a
 * slowdown of 1.5 at k = 2, reduce 20 ms + 10 ms/MiB (kernels' lines). */
#define HAND_WORDCOUNT \
	"  wordcount_map: {unit: MiB, devices: {cpu: {intercept: 10ms, slope: 5ms}},\n" \
	"    contention: {cpu: {k: [1, 2], slowdown: [1, 1.5], beyond: hold}}}\n" \
	"  wordcount_reduce: {unit: MiB, devices: {cpu: {intercept: 20ms, slope: 10ms}}}\n"

/* --fresh's map splits, MiB */
static const double fresh_mib[CAL_VAL_MAPS] = {40, 20, 40, 20, 40, 20, 40, 20, 40};

/* The hand model's tasks alone at --fresh's splits, seconds: maps ms,
 * reduces rs (2 MiB each, as fake_workload reports them). */
static void hand_tasks(double *ms, double *rs)
{
	for (int i = 0; i < CAL_VAL_MAPS; i++)
		ms[i] = 0.010 + 0.005 * fresh_mib[i];
	for (int r = 0; r < CAL_VAL_REDUCES; r++)
		rs[r] = 0.020 + 0.010 * 2;
}

/* cal_validate with stdout captured into out, stderr into val_err: its
 * return. */
static char val_err[4096];
static int validate_captured(const struct cal_val_opts *o, char *out, size_t len)
{
	char path[] = "/tmp/hetsim-val-out-XXXXXX", epath[] = "/tmp/hetsim-val-err-XXXXXX";
	int fd = mkstemp(path), efd = mkstemp(epath);
	CU_ASSERT_FATAL(fd >= 0 && efd >= 0);
	fflush(stdout);
	fflush(stderr);
	int saved = dup(1), esaved = dup(2);
	dup2(fd, 1);
	dup2(efd, 2); /* the v1 model's "no reference" note */
	int rc = cal_validate(o);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, 1);
	dup2(esaved, 2);
	close(saved);
	close(esaved);
	ssize_t n = pread(fd, out, len - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	n = pread(efd, val_err, sizeof val_err - 1, 0);
	val_err[n > 0 ? n : 0] = '\0';
	close(fd);
	close(efd);
	unlink(path);
	unlink(epath);
	return rc;
}

/* --fresh's verdict: the twin (with the model's contention) against
 * injected measured runs.  Model: map 10 ms + 5 ms/MiB, reduce 20 ms +
 * 10 ms/MiB, map slowdown 1.5 at k = 2; 2 workers.  The hook sees the
 * fresh splits (40/20 MiB); a run at the twin's makespan passes, one
 * 20 % faster misses (+25 %), with the lines and the CSV. */
static void test_validate_verdict(void)
{
	char dir[] = "/tmp/hetsim-val-verdict-XXXXXX", model[256], csv[256], out[16384],
	     err[1024];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(model, sizeof model, "%s/m.yaml", dir);
	snprintf(csv, sizeof csv, "%s/m.yaml.validation.csv", dir);
	h_write_file(model, "version: 1\ntask_overhead: 30ms\nkernels:\n" HAND_WORDCOUNT
			    "  mnist_step: {unit: samples, devices: {cpu: {intercept: 1ms, slope: 1ms}},\n"
			    "    contention: {cpu: {k: [1, 2], slowdown: [1, 2.0]}}}\n");
	double ms[CAL_VAL_MAPS], rs[CAL_VAL_REDUCES], with, without;
	hand_tasks(ms, rs);
	CU_ASSERT_EQUAL_FATAL(cal_val_twin(NULL, model, 2, ms, CAL_VAL_MAPS, rs, CAL_VAL_REDUCES,
					   &with, err, sizeof err), 0);
	CU_ASSERT_EQUAL_FATAL(cal_val_twin(NULL, NULL, 2, ms, CAL_VAL_MAPS, rs, CAL_VAL_REDUCES,
					   &without, err, sizeof err), 0);
	CU_ASSERT(with > 1.3 * without); /* the contention is in the twin */
	struct cal_val_opts o = {.model = model, .workers = 2, .repeats = 5, .csv = csv,
				 .zipf_s = 1.0, .fresh = true};
	char want[512];
	cal_val_hook = fake_workload;
	fake_run_s = with;
	CU_ASSERT_EQUAL(validate_captured(&o, out, sizeof out), 0);
	CU_ASSERT_EQUAL(fake_workers, 2);
	CU_ASSERT_EQUAL(memcmp(fake_split, fresh_mib, sizeof fresh_mib), 0);
	snprintf(want, sizeof want, "simulated makespan: %.3f s\n", with);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	snprintf(want, sizeof want, "PASS: fresh model %s: error +0.0 %% within the 10 %% target\n",
		 model);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "contention: the twin's tasks run 1.500 x slower with 2 "
					   "cores busy"));
	fake_run_s = with / 1.25;
	CU_ASSERT_EQUAL(validate_captured(&o, out, sizeof out), 1);
	snprintf(want, sizeof want, "FAIL: fresh model %s: error +25.0 %% outside the 10 %% "
		 "target\n", model);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	FILE *f = fopen(csv, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	char line[256];
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
	CU_ASSERT_STRING_EQUAL(line, "run,measured_s,simulated_s\n");
	int rows = 0;
	while (fgets(line, sizeof line, f))
		rows++;
	fclose(f);
	CU_ASSERT_EQUAL(rows, 5);
	/* --validate's splits are 40/24 MiB, its miss a WARN on stderr */
	o.fresh = false;
	o.csv = NULL;
	CU_ASSERT_EQUAL(validate_captured(&o, out, sizeof out), 1);
	CU_ASSERT_DOUBLE_EQUAL(fake_split[1], 24, 0);
	CU_ASSERT_PTR_NULL(strstr(out, "FAIL"));
	CU_ASSERT_PTR_NULL(strstr(out, "at this machine's reference speed")); /* none compared */
	cal_val_hook = NULL;
	remove(csv);
	remove(model);
	rmdir(dir);
}

/* A model whose reference this machine misses: the verdict is the
 * error as measured, and a diagnostic line gives the error with the
 * twin scaled by the speeds' ratio.  Model as above but version 2 with
 * a reference of 200 MiB/s; this machine reads 150 before the runs (the
 * check's discarded reading and its own) and 96 after them: the ratio
 * is sqrt(150 x 96) / 200 = 0.6; the runs take the twin's makespan /
 * 0.6, so the error is -40 % and the scaled one 0. */
static int ref_calls;
static double speed_drifting(void)
{
	return ++ref_calls <= 2 ? 150 : 96;
}

static double speed_150(void)
{
	return 150;
}

/* The hand model's word count (HAND_WORDCOUNT), version 2, with a reference speed. */
static void model_at_speed(const char *path, int speed)
{
	char text[1024];
	snprintf(text, sizeof text, "version: 2\ntask_overhead: 30ms\n"
		 "meta: {reference: {kernel: wordcount-zipf-16MiB, speed: %d}}\n"
		 "kernels:\n" HAND_WORDCOUNT, speed);
	h_write_file(path, text);
}

static void test_validate_scaled(void)
{
	char dir[] = "/tmp/hetsim-val-scaled-XXXXXX", model[256], out[16384], err[1024],
	     want[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(model, sizeof model, "%s/m.yaml", dir);
	model_at_speed(model, 200);
	double ms[CAL_VAL_MAPS], rs[CAL_VAL_REDUCES], sim;
	hand_tasks(ms, rs);
	CU_ASSERT_EQUAL_FATAL(cal_val_twin(NULL, model, 2, ms, CAL_VAL_MAPS, rs, CAL_VAL_REDUCES,
					   &sim, err, sizeof err), 0);
	/* the scaling the diagnostic relies on: every task 1/0.75 as long,
	 * the twin's makespan 1/0.75 as long (to the µs of its durations) */
	double ms2[CAL_VAL_MAPS], rs2[CAL_VAL_REDUCES], sim2;
	for (int i = 0; i < CAL_VAL_MAPS; i++)
		ms2[i] = ms[i] / 0.75;
	for (int r = 0; r < CAL_VAL_REDUCES; r++)
		rs2[r] = rs[r] / 0.75;
	CU_ASSERT_EQUAL_FATAL(cal_val_twin(NULL, model, 2, ms2, CAL_VAL_MAPS, rs2,
					   CAL_VAL_REDUCES, &sim2, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(sim2, sim / 0.75, 1e-5);
	struct cal_val_opts o = {.model = model, .workers = 2, .repeats = 5, .zipf_s = 1.0,
				 .fresh = true};
	cal_val_hook = fake_workload;
	cal_ref_hook = speed_drifting;
	ref_calls = 0;
	fake_run_s = sim / 0.6;
	CU_ASSERT_EQUAL(validate_captured(&o, out, sizeof out), 1);
	CU_ASSERT_EQUAL(ref_calls, 3);
	snprintf(want, sizeof want, "FAIL: fresh model %s: error -40.0 %% outside the 10 %% "
		 "target\n", model);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "machine after the runs: reference 96.0 MiB/s, -36.0 % "
					   "from 150.0 before them\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(val_err, "hetsim calibrate: warning: this machine's "
					       "reference speed moved -36.0 % during the runs (more "
					       "than 10 %): the measured makespans mix its speeds\n"));
	snprintf(want, sizeof want, "at this machine's reference speed (0.600 x the model's, "
		 "before and after the runs): simulated %.3f s, error +0.0 %% (a diagnostic, not "
		 "the verdict: it assumes every task slows as the reference kernel does)\n",
		 sim / 0.6);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	/* within 10 % before the runs: the after reading, no diagnostic */
	o.fresh = false;
	fake_run_s = sim;
	cal_ref_hook = speed_150;
	model_at_speed(model, 160);
	CU_ASSERT_EQUAL(validate_captured(&o, out, sizeof out), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "machine: this machine's reference speed 150.0 MiB/s is "
					   "6.2 % below the model's 160.0 MiB/s (within 10 %)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "machine after the runs: reference 150.0 MiB/s, +0.0 % "
					   "from 150.0 before them\n"));
	CU_ASSERT_PTR_NULL(strstr(val_err, "during the runs"));
	CU_ASSERT_PTR_NULL(strstr(out, "at this machine's reference speed"));
	/* within 10 % before the runs, 96 after them: sqrt(150 x 96) / 160 =
	 * 0.75 around them, and the diagnostic */
	cal_ref_hook = speed_drifting;
	ref_calls = 0;
	o.fresh = true; /* the splits sim was simulated with */
	fake_run_s = sim / 0.75;
	CU_ASSERT_EQUAL(validate_captured(&o, out, sizeof out), 1);
	CU_ASSERT_PTR_NULL(strstr(val_err, "may not describe this machine"));
	snprintf(want, sizeof want, "at this machine's reference speed (0.750 x the model's, "
		 "before and after the runs): simulated %.3f s, error +0.0 %%", sim / 0.75);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	cal_ref_hook = NULL;
	cal_val_hook = NULL;
	remove(model);
	rmdir(dir);
}

/* ---- a busy machine: the verdict on hand-made /proc texts ------------- */

/* /proc/stat at a window's start, and at its end on an idle machine: 1
 * tick of work in 100 (2 cores, 50 each at 100 Hz: 0.5 s). */
#define STAT0 "cpu  200 0 100 2000 10 0 0 0 0 0\ncpu0 100 0 50 1000 5 0 0 0 0 0\n" \
	      "cpu1 100 0 50 1000 5 0 0 0 0 0\nintr 1 2 3\nctxt 9\n"
#define STAT_IDLE "cpu  201 0 100 2099 10 0 0 0 0 0\ncpu0 101 0 50 1049 5 0 0 0 0 0\n" \
		  "cpu1 100 0 50 1050 5 0 0 0 0 0\n"
/* the machine: 85 ticks of work in 100, 1.7 cores */
#define STAT_BUSY "cpu0 140 0 55 1005 5 0 0 0 0 0\ncpu1 135 0 55 1010 5 0 0 0 0 0\n"
/* steal: 10 ticks in 100 taken by the hypervisor, 5 of work */
#define STAT_STEAL "cpu0 103 0 50 1042 5 0 0 5 0 0\ncpu1 102 0 50 1043 5 0 0 5 0 0\n"
#define LOADAVG "1.90 1.71 1.25 3/116 12359\n"

/* cal_load_judge of stat0 -> stat1 (own: calibrate's CPU seconds over
 * the window): its return, the reading in *l, the message in err. */
static int judge(const char *stat0, const char *stat1, const char *avg, double own,
		 struct cal_load *l, char *err, size_t len)
{
	struct cal_load_in in = {stat0, stat1, avg, "/proc/stat", "/proc/loadavg", NULL, 0,
				 own, 100};
	err[0] = '\0';
	return cal_load_judge(&in, l, err, len);
}

static void test_load_verdict(void)
{
	struct cal_load l;
	char err[512], line[256];
	CU_ASSERT_EQUAL_FATAL(judge(STAT0, STAT_IDLE, LOADAVG, 0, &l, err, sizeof err), 0);
	CU_ASSERT_EQUAL(l.cores, 2);
	CU_ASSERT_DOUBLE_EQUAL(l.other, 0.02, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(l.steal, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(l.window, 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(l.load1, 1.9, 1e-12); /* reported, not deciding */
	CU_ASSERT_FALSE(l.busy);
	CU_ASSERT_EQUAL_FATAL(judge(STAT0, STAT_BUSY, LOADAVG, 0, &l, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(l.other, 1.7, 1e-12);
	CU_ASSERT_TRUE(l.busy);
	cal_load_line(&l, line, sizeof line);
	CU_ASSERT_STRING_EQUAL(line, "other work holds 1.70 of 2 cores, steal 0.0 % (over 0.50 s; "
				     "load average 1.90)");
	/* calibrate's own CPU time is not other work: 0.5 s of it leaves 0.7
	 * cores (busy), 0.6 s leaves 0.5 (the threshold: not busy) */
	CU_ASSERT_EQUAL(judge(STAT0, STAT_BUSY, LOADAVG, 0.5, &l, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(l.other, 0.7, 1e-12);
	CU_ASSERT_TRUE(l.busy);
	CU_ASSERT_EQUAL(judge(STAT0, STAT_BUSY, LOADAVG, 0.6, &l, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(l.other, 0.5, 1e-12);
	CU_ASSERT_FALSE(l.busy);
	CU_ASSERT_EQUAL(judge(STAT0, STAT_STEAL, LOADAVG, 0, &l, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(l.other, 0.1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(l.steal, 0.1, 1e-12);
	CU_ASSERT_TRUE(l.busy);
	/* guest ticks are inside user's: not counted twice; a kernel giving
	 * only user, nice, system and idle is read */
	CU_ASSERT_EQUAL(judge("cpu0 100 0 50 1000 5 0 0 0 0 0\n", "cpu0 101 0 50 1049 5 0 0 0 40 "
			      "9\n", "0.5\n", 0, &l, err, sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(l.other, 0.02, 1e-12);
	CU_ASSERT_EQUAL(judge("cpu0 100 0 50 1000\n", "cpu0 125 0 50 1025\n", "0.5", 0, &l, err,
			      sizeof err), 0);
	CU_ASSERT_DOUBLE_EQUAL(l.other, 0.5, 1e-12);
	/* only the cores this process may use count: cpu1 alone, idle */
	bool allowed[2] = {false, true};
	struct cal_load_in in = {STAT0, STAT_BUSY, LOADAVG, "s", "a", allowed, 2, 0, 100};
	CU_ASSERT_EQUAL(cal_load_judge(&in, &l, err, sizeof err), 0);
	CU_ASSERT_EQUAL(l.cores, 1);
	CU_ASSERT_DOUBLE_EQUAL(l.other, 0.8, 1e-12); /* 40 of its 50 ticks */
	/* malformed files: one line naming file:line:col and the value */
	static const struct {
		const char *s0, *s1, *avg, *msg;
	} bad[] = {
		{STAT0, "cpu  1 2 3 4\ncpu0 12 x 3 4\n", LOADAVG,
		 "/proc/stat:2:9: expected a count of ticks, got 'x'"},
		{STAT0, "cpu0 1 -5 3 4\n", LOADAVG, "/proc/stat:1:8: expected a count of ticks, got '-5'"},
		{STAT0, "cpu0 1 99999999999999999999999 3 4\n", LOADAVG,
		 "/proc/stat:1:8: expected a count of ticks, got '99999999999999999999999'"},
		{"cpu0 1 2\n", STAT0, LOADAVG, "/proc/stat:1:9: expected at least 4 tick counts (user "
		 "nice system idle), got 2"},
		{"cpu0x 1 2 3 4\n", STAT0, LOADAVG, "/proc/stat:1:1: expected cpuN and its tick counts, "
		 "got 'cpu0x'"},
		{"intr 1 2\n", STAT0, LOADAVG, "/proc/stat:1:1: no 'cpuN' line of a core this process "
		 "may use"},
		{"", STAT0, LOADAVG, "/proc/stat:1:1: no 'cpuN' line of a core this process may use"},
		{STAT0, STAT_IDLE, "abc 1 2", "/proc/loadavg:1:1: expected the 1-minute load average, "
		 "got 'abc'"},
		{STAT0, STAT_IDLE, "", "/proc/loadavg:1:1: expected the 1-minute load average, got ''"},
		{STAT0, STAT_IDLE, " -1 2", "/proc/loadavg:1:2: expected the 1-minute load average, "
		 "got '-1'"},
		{STAT_IDLE, STAT0, LOADAVG, "/proc/stat: a tick count went backwards over the window"},
		{STAT0, STAT0, LOADAVG, "/proc/stat: no tick passed over the window"},
		{STAT0, "cpu0 101 0 50 1049 5 0 0 0 0 0\n", LOADAVG,
		 "/proc/stat: 2 cores at the window's start, 1 at its end"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT_EQUAL(judge(bad[i].s0, bad[i].s1, bad[i].avg, 0, &l, err, sizeof err), -1);
		if (strcmp(err, bad[i].msg) != 0)
			fprintf(stderr, "\n got: %s\nwant: %s\n", err, bad[i].msg);
		CU_ASSERT_STRING_EQUAL(err, bad[i].msg);
	}
}

/* ---- a busy machine: `hetsim calibrate` on a fake kernel ---------------- */

static double fake_clock, cpu_frac = 1; /* the fake clocks: wall, CPU = cpu_frac x wall */
static int fake_runs, ref_runs, load_calls;
static const char *load_script[8]; /* /proc/stat at each check's window end (NULL: idle) */
static double fake_wall(void) { return fake_clock; }
static double fake_cpu(void) { return cpu_frac * fake_clock; }
static double fake_ref(void) { ref_runs++; return 200; }
static int fake_load(struct cal_load *l, char *err, size_t errlen)
{
	const char *end = load_calls < 8 ? load_script[load_calls] : NULL;
	load_calls++;
	if (end && strcmp(end, "unreadable") == 0) {
		snprintf(err, errlen, "/proc/stat:0:0: cannot open: No such file or directory");
		return -1;
	}
	struct cal_load_in in = {STAT0, end ? end : STAT_IDLE, LOADAVG, "/proc/stat",
				 "/proc/loadavg", NULL, 0, 0, 100};
	return cal_load_judge(&in, l, err, errlen);
}
static void *fake_setup(struct cal_ctx *c, double size, char *err, size_t errlen)
{
	(void)c, (void)err, (void)errlen;
	double *d = malloc(sizeof *d);
	*d = 0.01 * size; /* 10 ms a unit, exactly */
	return d;
}
static void fake_run(void *st) { fake_clock += *(double *)st; fake_runs++; }
static const char *fake_note(struct cal_ctx *c) { (void)c; return "nothing"; }
static const struct cal_kernel fake_k = {
	.name = "fake", .unit = "units", .sizes = {1, 2, 3, 4}, .nsizes = 4,
	.quick = {1, 2, 3, 4}, .nquick = 4, .repeats = 6, .quick_repeats = 6,
	.setup = fake_setup, .run = fake_run, .teardown = free,
};
static const struct cal_backend fake_b = {"fake", "cpu", &fake_k, 1, fake_note};

/* `hetsim calibrate ARGS` (%s: dir) on the fake kernel with the load
 * checks' /proc/stat ends `script` (NULL-terminated; the rest idle):
 * its exit status, stdout and stderr. */
static int fake_calibrate(const char *args, const char *dir, const char *const *script,
			  char **out, char **err)
{
	char a[512];
	snprintf(a, sizeof a, args, dir);
	memset(load_script, 0, sizeof load_script);
	for (int i = 0; script[i]; i++)
		load_script[i] = script[i];
	fake_clock = 0;
	fake_runs = ref_runs = load_calls = 0;
	cal_clock_hook = fake_wall;
	cal_cpu_clock_hook = fake_cpu;
	cal_ref_hook = fake_ref;
	cal_load_hook = fake_load;
	cal_backend_hook = &fake_b;
	int rc = h_hetsim(a, out, err);
	cal_clock_hook = cal_cpu_clock_hook = NULL;
	cal_ref_hook = NULL;
	cal_load_hook = NULL;
	cal_backend_hook = NULL;
	return rc;
}

/* dir holds nothing (a CUnit assertion). */
static void empty_dir(const char *dir)
{
	char *t = h_tree(dir);
	CU_ASSERT_STRING_EQUAL(t, "");
	free(t);
}

#define STOP_LINE "other work holds 1.70 of 2 cores, steal 0.0 % (over 0.50 s; load average " \
		  "1.90), and busy is other work above 0.5 cores or steal above 5 %: calibrating "

/* A busy machine stops the run before anything is timed, or after the
 * block that found it, with one line and nothing written; --force goes
 * on and the model records it; the samples carry both clocks and the
 * fit says which it used. */
static void test_busy_calibrate(void)
{
	char dir[] = "/tmp/hetsim-cal-busy-XXXXXX", path[256], *out, *err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	const char *args = "calibrate --quick --concurrency 1 -o %s/m.yaml";
	const char *busy_first[] = {STAT_BUSY, NULL}, *busy_after[] = {STAT_IDLE, STAT_BUSY, NULL};
	CU_ASSERT_EQUAL(fake_calibrate(args, dir, busy_first, &out, &err), 1);
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: the machine is busy: " STOP_LINE "now would "
				    "measure it, not the kernels (--force goes on anyway)\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "load: other work holds 1.70 of 2 cores, steal 0.0 % "
					   "(over 0.50 s; load average 1.90); busy above 0.5 cores "
					   "of other work or 5 % steal\n"));
	CU_ASSERT(fake_runs == 0 && ref_runs == 0 && load_calls == 1); /* nothing timed */
	empty_dir(dir);
	free(out), free(err);
	CU_ASSERT_EQUAL(fake_calibrate(args, dir, busy_after, &out, &err), 1);
	CU_ASSERT_STRING_EQUAL(err, "hetsim calibrate: the machine is busy after the fake sweep: "
				    STOP_LINE "on would measure it, not the kernels; nothing written "
				    "(--force goes on anyway)\n");
	CU_ASSERT(fake_runs > 0 && load_calls == 2);
	empty_dir(dir);
	free(out), free(err);
	/* --force: each busy check a warning, and on; the thread on its core
	 * 99 % of the wall time: fitted on wall time */
	cpu_frac = 0.99;
	args = "calibrate --quick --concurrency 1 --force -o %s/m.yaml";
	CU_ASSERT_EQUAL(fake_calibrate(args, dir, busy_after, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "hetsim calibrate: warning: the machine is busy after "
					   "the fake sweep: other work holds 1.70 of 2 cores, steal "
					   "0.0 % (over 0.50 s; load average 1.90); --force: "
					   "calibrating on (the model's meta.load counts it)\n"));
	snprintf(path, sizeof path, "%s/m.yaml", dir);
	char *model = h_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(model);
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "  load: {checks: 2, busy: 1, cores: 2, window: 0.50, "
					     "other_cores_max: 1.70, steal_pct_max: 0.0, load1_max: "
					     "1.90}\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "n: 4, samples: 24, clock: wall, cpu_share: 0.9900}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "      cpu: {intercept: 0.000us, slope: 10000.000us}"));
	free(model);
	snprintf(path, sizeof path, "%s/m.yaml.samples.csv", dir);
	struct cal_samples s = {0};
	char e[256];
	CU_ASSERT_EQUAL_FATAL(fit_read_samples(path, &s, e, sizeof e), 0);
	CU_ASSERT_EQUAL(s.n, 24);
	for (int i = 0; i < s.n; i++) /* both clocks of every repeat */
		CU_ASSERT_DOUBLE_EQUAL(s.v[i].cpu_seconds, 0.99 * s.v[i].seconds, 1e-9);
	cal_samples_free(&s);
	free(out), free(err);
	/* the thread on its core 80 % of the time: fitted on its CPU time,
	 * said on stderr and in the fit; a check that cannot read the
	 * machine warns, goes on, and is counted */
	cpu_frac = 0.8;
	const char *unread[] = {"unreadable", NULL};
	CU_ASSERT_EQUAL(fake_calibrate(args, dir, unread, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "hetsim calibrate: warning: cannot tell whether the "
					   "machine is busy: /proc/stat:0:0: cannot open: No such "
					   "file or directory; going on unchecked\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "hetsim calibrate: note: fake on cpu: its thread ran "
					   "80.0 % of the wall time (under 95 %: other work held its "
					   "core), so it is fitted on the thread's CPU time "
					   "(CLOCK_THREAD_CPUTIME_ID)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nfake              cpu        0.000 ms   8.0000 "
					   "ms/units     1.00000   0.00%   4  cpu (cpu 80.0 %)\n"));
	snprintf(path, sizeof path, "%s/m.yaml", dir);
	model = h_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(model);
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "  load: {checks: 1, busy: 0, unread: 1, cores: 2, "));
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "clock: cpu, cpu_share: 0.8000}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "      cpu: {intercept: 0.000us, slope: 8000.000us}"));
	free(model);
	/* the model, with its new keys, loads; so do the committed ones
	 * written before them (versions 1 and 2) */
	const char *models[] = {path, "calibrate/models/epyc-2core.yaml",
				"calibrate/models/epyc-2core-v2.yaml",
				"calibrate/models/xeon-2core.yaml", "calibrate/models/default.yaml"};
	for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
		struct scn *sc = scn_cost_load(models[i], e, sizeof e);
		if (!sc)
			fprintf(stderr, "\n%s\n", e);
		CU_ASSERT_PTR_NOT_NULL(sc);
		if (sc)
			scn_free(sc);
	}
	cpu_frac = 1;
	free(out), free(err);
	h_rmtree(dir);
}

/* --check and --validate go on whatever the load (they are the
 * measurements that tell), and say so when the machine is busy: a note
 * after --check's verdict, a warning before --validate's runs. */
static void test_busy_check(void)
{
	char dir[] = "/tmp/hetsim-cal-busyck-XXXXXX", model[256], args[512], out[16384];
	char *o, *e;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(model, sizeof model, "%s/m.yaml", dir);
	model_at_speed(model, 200);
	snprintf(args, sizeof args, "calibrate --check %s", model);
	const char *busy[] = {STAT_BUSY, NULL}, *idle[] = {NULL};
	cal_ref_hook = fake_ref;
	cal_load_hook = fake_load;
	for (int b = 0; b < 2; b++) {
		memset(load_script, 0, sizeof load_script);
		load_script[0] = (b ? busy : idle)[0];
		load_calls = 0;
		CU_ASSERT_EQUAL(h_hetsim(args, &o, &e), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(o, "MATCH: this machine's reference speed 200.0 MiB/s"));
		CU_ASSERT_EQUAL(strstr(o, "\nnote: the machine is busy (other work holds 1.70 of 2 "
					  "cores, steal 0.0 % (over 0.50 s; load average 1.90)): "
					  "the reading measures that work too, not this machine's "
					  "speed alone\n") != NULL, b);
		CU_ASSERT_EQUAL(load_calls, 1);
		free(o), free(e);
	}
	struct cal_val_opts vo = {.model = model, .workers = 2, .repeats = 3, .zipf_s = 1.0};
	cal_val_hook = fake_workload;
	fake_run_s = 1;
	load_script[0] = STAT_BUSY;
	load_calls = 0;
	validate_captured(&vo, out, sizeof out);
	CU_ASSERT_PTR_NOT_NULL(strstr(val_err, "hetsim calibrate: warning: the machine is busy "
					       "(other work holds 1.70 of 2 cores, steal 0.0 % (over "
					       "0.50 s; load average 1.90)): the measured makespans "
					       "will measure that work too, not this machine alone\n"));
	CU_ASSERT_EQUAL(load_calls, 1);
	cal_val_hook = NULL;
	cal_load_hook = NULL;
	cal_ref_hook = NULL;
	h_rmtree(dir);
}

int test_suite_calibrate_load(void)
{
	TEST_SUITE("calibrate_load",
		   {"--validate's simulated twin matches a hand schedule", test_validate_twin},
		   {"bad command lines name the option", test_cli_bad},
		   {"--fresh's verdict on injected runs, contention in the twin",
		    test_validate_verdict},
		   {"a machine off the model's speed: the scaled error as a diagnostic",
		    test_validate_scaled},
		   {"busy or not, from hand-made /proc/stat and /proc/loadavg", test_load_verdict},
		   {"a busy machine stops calibrate at once; --force goes on",
		    test_busy_calibrate},
		   {"--check and --validate say when the machine is busy", test_busy_check});
	return 0;
}
