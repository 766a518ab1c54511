/* test_scenario.c - the scenario loader (scn_): good files read back
 * field by field, units converted exactly, and every class of bad input
 * reported with its exact one-line message.
 *
 * Files: tests/scenarios/ok/ (full.yaml uses every key; minimal.yaml only
 * the required ones; cost.yaml is the cost model full.yaml names by path)
 * and tests/scenarios/bad/ (one mistake each, message pinned below).
 */
#include "models.h"
#include "sim.h"
#include "registry.h"
#include "load.h"
#include "harness.h"
#include "test.h"
#include "plot.h"

#include "policy.h"
#include "scenario.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OK_DIR "tests/scenarios/ok/"
#define BAD_DIR "tests/scenarios/bad/"

static struct scn *load_ok(const char *path)
{
	char err[512] = "";
	struct scn *s = scn_load(path, err, sizeof err);
	if (!s)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	return s;
}

/* The bit of label `name`; fails the test if the scenario lacks it. */
static uint64_t bit(const struct scn *s, const char *name)
{
	int i = scn_label_index(s, name);
	CU_ASSERT_FATAL(i >= 0);
	return 1ULL << i;
}

/* ------------------------------------------------------------------ */
/* full.yaml                                                           */

static void test_full_top(void)
{
	struct scn *s = load_ok(OK_DIR "full.yaml");
	CU_ASSERT_STRING_EQUAL(s->path, OK_DIR "full.yaml");
	CU_ASSERT_STRING_EQUAL(s->name, "full-test");
	CU_ASSERT_EQUAL(s->seed, 42);
	CU_ASSERT_EQUAL(s->replications, 3);
	CU_ASSERT_EQUAL(s->warmup_jobs, 2);
	CU_ASSERT_EQUAL(s->over.executor_startup_us, 1500000);
	CU_ASSERT_EQUAL(s->over.task_launch_us, 250000);
	/* labels in order of first appearance: auto gives gpu, v100; cpu */
	CU_ASSERT_EQUAL_FATAL(s->nlabels, 4);
	CU_ASSERT_STRING_EQUAL(s->label_names[0], "gpu");
	CU_ASSERT_STRING_EQUAL(s->label_names[1], "v100");
	CU_ASSERT_STRING_EQUAL(s->label_names[2], "cpu");
	CU_ASSERT_STRING_EQUAL(s->label_names[3], "fast");
	CU_ASSERT_EQUAL(scn_label_index(s, "tpu"), -1);
	scn_free(s);
}

static void test_full_cluster(void)
{
	struct scn *s = load_ok(OK_DIR "full.yaml");
	CU_ASSERT_EQUAL_FATAL(s->ngroups, 3);
	const struct scn_node_group *g = s->groups;
	CU_ASSERT_STRING_EQUAL(g[0].name, "gpu");
	CU_ASSERT_EQUAL(g[0].count, 2);
	CU_ASSERT_EQUAL(g[0].cores, 16);
	CU_ASSERT_EQUAL(g[0].mem_mib, 1536);           /* 1.5GiB */
	CU_ASSERT_EQUAL(g[0].gpus, 2);
	CU_ASSERT_STRING_EQUAL(g[0].gpu_model, "v100");
	CU_ASSERT_DOUBLE_EQUAL(g[0].cpu_speed, 1.25, 0);
	CU_ASSERT_EQUAL(g[0].labels, bit(s, "gpu") | bit(s, "v100")); /* auto */
	CU_ASSERT_PTR_EQUAL(g[0].pos.file, s->path);
	CU_ASSERT_EQUAL(g[0].pos.line, 9);
	CU_ASSERT_EQUAL(g[0].pos.col, 3);

	CU_ASSERT_STRING_EQUAL(g[1].name, "cpu");
	CU_ASSERT_EQUAL(g[1].count, 3);
	CU_ASSERT_EQUAL(g[1].mem_mib, 65536);          /* 64G = 64GiB */
	CU_ASSERT_EQUAL(g[1].gpus, 0);
	CU_ASSERT_PTR_NULL(g[1].gpu_model);
	CU_ASSERT_DOUBLE_EQUAL(g[1].cpu_speed, 1.0, 0);
	CU_ASSERT_EQUAL(g[1].labels, bit(s, "cpu"));   /* auto without GPUs */

	CU_ASSERT_EQUAL(g[2].count, 1);
	CU_ASSERT_EQUAL(g[2].cores, 32);
	CU_ASSERT_EQUAL(g[2].mem_mib, 1048576);        /* 1TiB */
	CU_ASSERT_EQUAL(g[2].labels, bit(s, "fast") | bit(s, "cpu"));
	scn_free(s);
}

static void test_full_wordcount(void)
{
	struct scn *s = load_ok(OK_DIR "full.yaml");
	CU_ASSERT_EQUAL_FATAL(s->njobgroups, 3);
	const struct scn_job_group *j = &s->jobs[0];
	const struct jm_wordcount *w = j->params;
	struct sim_shape sh;
	sim_group_shape(s, 0, &sh);
	CU_ASSERT_STRING_EQUAL(j->name, "wc");
	CU_ASSERT_EQUAL(j->type, JM_WORDCOUNT);
	CU_ASSERT_EQUAL(j->count, 4);
	CU_ASSERT_EQUAL(j->arrival.kind, SCN_ARR_INTERVAL);
	CU_ASSERT_EQUAL(j->arrival.interval_us, 30000000);
	CU_ASSERT_EQUAL(j->arrival.start_us, 60000000); /* 1min */
	CU_ASSERT_EQUAL(j->require, bit(s, "cpu"));     /* a single scalar */
	CU_ASSERT_EQUAL(j->prefer, bit(s, "fast"));
	CU_ASSERT_EQUAL(w->exec.count, 3);
	CU_ASSERT_EQUAL(w->exec.cores, 4);
	CU_ASSERT_EQUAL(w->exec.mem_mib, 4096);
	CU_ASSERT_EQUAL(w->exec.gpus, 0);
	CU_ASSERT_FALSE(w->exec.has_labels);
	CU_ASSERT_EQUAL(sh.role[0].require, j->require); /* inherited */
	CU_ASSERT_EQUAL(sh.role[0].prefer, j->prefer);
	CU_ASSERT_EQUAL(j->cores_max, 12);
	CU_ASSERT_EQUAL(j->task_cpus, 2);
	CU_ASSERT_EQUAL(w->input_mib.kind, SCN_DIST_UNIFORM);
	CU_ASSERT_DOUBLE_EQUAL(w->input_mib.a, 512, 0);
	CU_ASSERT_DOUBLE_EQUAL(w->input_mib.b, 2048, 0);
	CU_ASSERT_EQUAL(w->parallelism, 8);
	CU_ASSERT_DOUBLE_EQUAL(w->shuffle_ratio, 0.25, 0);
	CU_ASSERT_EQUAL(w->split_mib, 64);
	CU_ASSERT_EQUAL(j->pos.line, 27);
	scn_free(s);
}

static void test_full_mnist(void)
{
	struct scn *s = load_ok(OK_DIR "full.yaml");
	const struct scn_job_group *j = &s->jobs[1];
	const struct jm_mnist *m = j->params;
	CU_ASSERT_EQUAL(j->type, JM_MNIST);
	CU_ASSERT_EQUAL(j->count, 3);                   /* from times */
	CU_ASSERT_EQUAL_FATAL(j->arrival.kind, SCN_ARR_LIST);
	CU_ASSERT_EQUAL_FATAL(j->arrival.ntimes, 3);
	CU_ASSERT_EQUAL(j->arrival.times_us[0], 0);
	CU_ASSERT_EQUAL(j->arrival.times_us[1], 10000000);
	CU_ASSERT_EQUAL(j->arrival.times_us[2], 25000000);
	CU_ASSERT_EQUAL(j->require, 0);
	CU_ASSERT_EQUAL(j->prefer, bit(s, "gpu"));
	CU_ASSERT_EQUAL(j->cores_max, 4);
	CU_ASSERT_EQUAL(m->cluster_size, 4);
	/* ps gives only require: its prefer stays the job's */
	CU_ASSERT_EQUAL(m->ps.cores, 2);
	CU_ASSERT_EQUAL(m->ps.mem_mib, 1024);
	CU_ASSERT_EQUAL(m->ps.gpus, 0);
	CU_ASSERT_TRUE(m->ps.has_labels);
	CU_ASSERT_EQUAL(m->ps.require, bit(s, "cpu"));
	CU_ASSERT_EQUAL(m->ps.prefer, bit(s, "gpu"));
	/* worker gives both; prefer: [] empties the job's preference */
	CU_ASSERT_EQUAL(m->worker.count, 3);            /* cluster_size - 1 */
	CU_ASSERT_EQUAL(m->worker.cores, 1);
	CU_ASSERT_EQUAL(m->worker.mem_mib, 3072);
	CU_ASSERT_EQUAL(m->worker.gpus, 1);
	CU_ASSERT_TRUE(m->worker.has_labels);
	CU_ASSERT_EQUAL(m->worker.require, bit(s, "gpu") | bit(s, "v100"));
	CU_ASSERT_EQUAL(m->worker.prefer, 0);
	CU_ASSERT_EQUAL(m->steps, 2000);
	CU_ASSERT_EQUAL(m->batch_size, 64);
	CU_ASSERT_EQUAL(m->epochs, 2);
	CU_ASSERT_EQUAL(m->partitions, 20);
	CU_ASSERT_EQUAL(m->feed_task_us, 1);            /* 0.0000005s rounds up */
	CU_ASSERT_EQUAL(m->startup_us, 12000000);
	CU_ASSERT_EQUAL(m->shutdown_us, 3000000);
	CU_ASSERT_EQUAL(m->reservation_timeout_us, 600000000); /* 10min */
	CU_ASSERT_EQUAL(m->gpu_busy, JM_GPU_BUSY_CPU);          /* not the default */
	scn_free(s);
}

static void test_full_synthetic(void)
{
	struct scn *s = load_ok(OK_DIR "full.yaml");
	const struct scn_job_group *j = &s->jobs[2];
	const struct jm_synthetic *y = j->params;
	CU_ASSERT_EQUAL(j->type, JM_SYNTHETIC);
	CU_ASSERT_EQUAL(j->count, 2);
	CU_ASSERT_EQUAL(j->arrival.kind, SCN_ARR_POISSON);
	CU_ASSERT_DOUBLE_EQUAL(j->arrival.mean_gap_us, 2e6, 0); /* 0.5/s */
	CU_ASSERT_EQUAL(j->arrival.start_us, 5000000);
	CU_ASSERT_EQUAL(y->exec.count, 2);              /* defaults */
	CU_ASSERT_EQUAL(y->exec.mem_mib, 1024);
	CU_ASSERT_EQUAL_FATAL(j->nstages, 4);
	const struct scn_stage *st = j->stages;
	CU_ASSERT_STRING_EQUAL(st[0].name, "load");
	CU_ASSERT_EQUAL(st[0].tasks, 10);
	CU_ASSERT_EQUAL(st[0].dur.kind, SCN_DIST_CONST);
	CU_ASSERT_DOUBLE_EQUAL(st[0].dur.a, 2e6, 0);
	CU_ASSERT_EQUAL(st[0].nparents, 0);             /* first: a root */
	CU_ASSERT_EQUAL(st[1].dur.kind, SCN_DIST_EXPONENTIAL);
	CU_ASSERT_DOUBLE_EQUAL(st[1].dur.a, 250000, 0);
	CU_ASSERT_EQUAL_FATAL(st[1].nparents, 1);       /* chain default */
	CU_ASSERT_EQUAL(st[1].parents[0], 0);
	CU_ASSERT_EQUAL(st[2].dur.kind, SCN_DIST_LOGNORMAL);
	CU_ASSERT_DOUBLE_EQUAL(st[2].dur.a, 1e6, 0);
	CU_ASSERT_DOUBLE_EQUAL(st[2].dur.b, 0.5, 0);
	CU_ASSERT_EQUAL(st[2].nparents, 0);             /* parents: [] */
	CU_ASSERT_STRING_EQUAL(st[3].name, "join");
	CU_ASSERT_EQUAL(st[3].dur.kind, SCN_DIST_CONST);
	CU_ASSERT_DOUBLE_EQUAL(st[3].dur.a, 3.6e9, 0);
	CU_ASSERT_EQUAL_FATAL(st[3].nparents, 2);
	CU_ASSERT_EQUAL(st[3].parents[0], 1);
	CU_ASSERT_EQUAL(st[3].parents[1], 2);
	scn_free(s);
}

static void test_full_cost_file(void)
{
	struct scn *s = load_ok(OK_DIR "full.yaml");
	const struct scn_cost_model *c = &s->cost;
	CU_ASSERT_STRING_EQUAL(c->path, OK_DIR "cost.yaml"); /* relative to full.yaml */
	CU_ASSERT_EQUAL(c->version, 1);
	CU_ASSERT_EQUAL(c->task_overhead_us, 5000);
	CU_ASSERT_EQUAL_FATAL(c->nkernels, 3);
	const struct scn_cost_kernel *k = scn_cost_kernel(s, "wordcount_map");
	CU_ASSERT_PTR_EQUAL_FATAL(k, &c->kernels[0]);
	CU_ASSERT_STRING_EQUAL(k->unit, "MiB");
	CU_ASSERT_EQUAL(k->noise, SCN_NOISE_LOGNORMAL);
	CU_ASSERT_DOUBLE_EQUAL(k->noise_cv, 0.05, 0);
	CU_ASSERT_EQUAL_FATAL(k->ndevs, 1);
	CU_ASSERT_STRING_EQUAL(k->devs[0].device, "cpu");
	CU_ASSERT_DOUBLE_EQUAL(k->devs[0].intercept_us, 50000, 0);
	CU_ASSERT_DOUBLE_EQUAL(k->devs[0].slope_us, 8000, 0);
	k = scn_cost_kernel(s, "wordcount_reduce");
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_EQUAL(k->noise, SCN_NOISE_NONE);
	CU_ASSERT_DOUBLE_EQUAL(k->devs[0].slope_us, 0.5, 0); /* fractions of µs kept */
	k = scn_cost_kernel(s, "mnist_step");
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_STRING_EQUAL(k->unit, "samples");
	const struct scn_cost_dev *d = scn_cost_device(k, "v100");
	CU_ASSERT_PTR_EQUAL_FATAL(d, &k->devs[2]);
	CU_ASSERT_DOUBLE_EQUAL(d->intercept_us, 1500, 0);
	CU_ASSERT_DOUBLE_EQUAL(d->slope_us, 4, 1e-9);
	CU_ASSERT_PTR_NULL(scn_cost_device(k, "a100"));
	CU_ASSERT_PTR_NULL(scn_cost_kernel(s, "nope"));
	scn_free(s);
}

static void test_full_policies(void)
{
	struct scn *s = load_ok(OK_DIR "full.yaml");
	CU_ASSERT_EQUAL_FATAL(s->npolicies, 3);
	const struct scn_policy *p = s->policies;
	CU_ASSERT_STRING_EQUAL(p[0].name, "spark-standalone"); /* scalar form */
	CU_ASSERT_STRING_EQUAL(p[0].kind, "spark-standalone");
	CU_ASSERT_EQUAL(p[0].nparams, 0);
	CU_ASSERT_EQUAL(p[0].pos.line, 82);
	CU_ASSERT_STRING_EQUAL(p[1].name, "dual-nogang");
	CU_ASSERT_STRING_EQUAL(p[1].kind, "label-dual");
	CU_ASSERT_EQUAL(p[1].pos.line, 83);
	CU_ASSERT_EQUAL_FATAL(p[1].nparams, 2);                /* in file order */
	CU_ASSERT_STRING_EQUAL(p[1].params[0].key, "gang");
	CU_ASSERT_STRING_EQUAL(p[1].params[0].value, "false");
	CU_ASSERT_EQUAL(p[1].params[0].pos.line, 85);
	CU_ASSERT_EQUAL(p[1].params[0].pos.col, 9);
	CU_ASSERT_STRING_EQUAL(p[1].params[1].key, "calculator");
	CU_ASSERT_STRING_EQUAL(p[1].params[1].value, "memory");
	CU_ASSERT_STRING_EQUAL(p[2].name, "fifo");
	scn_free(s);
}

/* ------------------------------------------------------------------ */
/* minimal.yaml: defaults                                              */

static void test_defaults(void)
{
	struct scn *s = load_ok(OK_DIR "minimal.yaml");
	CU_ASSERT_STRING_EQUAL(s->name, "minimal");   /* basename, no .yaml */
	CU_ASSERT_EQUAL(s->seed, 1);
	CU_ASSERT_EQUAL(s->replications, 1);
	CU_ASSERT_EQUAL(s->warmup_jobs, 0);
	CU_ASSERT_EQUAL(s->over.executor_startup_us, 2000000);
	CU_ASSERT_EQUAL(s->over.task_launch_us, 10000);
	CU_ASSERT_EQUAL(s->nlabels, 0);

	const struct scn_node_group *g = &s->groups[0];
	CU_ASSERT_EQUAL(g->count, 1);
	CU_ASSERT_EQUAL(g->gpus, 0);
	CU_ASSERT_PTR_NULL(g->gpu_model);
	CU_ASSERT_DOUBLE_EQUAL(g->cpu_speed, 1.0, 0);
	CU_ASSERT_EQUAL(g->labels, 0);

	CU_ASSERT_EQUAL_FATAL(s->njobgroups, 3);
	const struct scn_job_group *wc = &s->jobs[0], *ch = &s->jobs[2];
	const struct jm_wordcount *wp = wc->params;
	const struct jm_mnist *tf = s->jobs[1].params;
	CU_ASSERT_EQUAL(wc->count, 1);
	CU_ASSERT_EQUAL(wc->arrival.kind, SCN_ARR_FIXED);
	CU_ASSERT_EQUAL(wc->arrival.start_us, 0);
	CU_ASSERT_EQUAL(wc->require, 0);
	CU_ASSERT_EQUAL(wc->prefer, 0);
	CU_ASSERT_EQUAL(wp->exec.count, 2);
	CU_ASSERT_EQUAL(wp->exec.cores, 0);
	CU_ASSERT_EQUAL(wp->exec.mem_mib, 1024);
	CU_ASSERT_EQUAL(wp->exec.gpus, 0);
	CU_ASSERT_FALSE(wp->exec.has_labels);
	CU_ASSERT_EQUAL(wc->cores_max, 0);
	CU_ASSERT_EQUAL(wc->task_cpus, 1);
	CU_ASSERT_EQUAL(wp->input_mib.kind, SCN_DIST_CONST);
	CU_ASSERT_DOUBLE_EQUAL(wp->input_mib.a, 1024, 0);
	CU_ASSERT_EQUAL(wp->parallelism, 0);
	CU_ASSERT_DOUBLE_EQUAL(wp->shuffle_ratio, 0.1, 0);
	CU_ASSERT_EQUAL(wp->split_mib, 128);

	CU_ASSERT_EQUAL(tf->cluster_size, 3);
	CU_ASSERT_EQUAL(tf->ps.cores, 1);
	CU_ASSERT_EQUAL(tf->ps.mem_mib, 2048);
	CU_ASSERT_EQUAL(tf->ps.gpus, 0);
	CU_ASSERT_FALSE(tf->ps.has_labels);
	CU_ASSERT_EQUAL(tf->worker.cores, 1);
	CU_ASSERT_EQUAL(tf->worker.mem_mib, 3072);
	CU_ASSERT_EQUAL(tf->worker.gpus, 1);
	CU_ASSERT_EQUAL(tf->worker.count, 2);
	CU_ASSERT_FALSE(tf->worker.has_labels);
	CU_ASSERT_EQUAL(tf->steps, 1000);
	CU_ASSERT_EQUAL(tf->batch_size, 100);
	CU_ASSERT_EQUAL(tf->epochs, 1);
	CU_ASSERT_EQUAL(tf->partitions, 10);
	CU_ASSERT_EQUAL(tf->feed_task_us, 1000000);
	CU_ASSERT_EQUAL(tf->startup_us, 10000000);
	CU_ASSERT_EQUAL(tf->shutdown_us, 2000000);
	CU_ASSERT_EQUAL(tf->reservation_timeout_us, 600000000);
	CU_ASSERT_EQUAL(tf->gpu_busy, JM_GPU_BUSY_RETRY);

	CU_ASSERT_EQUAL_FATAL(ch->nstages, 3);           /* a chain a <- b <- c */
	CU_ASSERT_EQUAL(ch->stages[0].nparents, 0);
	CU_ASSERT_EQUAL_FATAL(ch->stages[1].nparents, 1);
	CU_ASSERT_EQUAL(ch->stages[1].parents[0], 0);
	CU_ASSERT_EQUAL_FATAL(ch->stages[2].nparents, 1);
	CU_ASSERT_EQUAL(ch->stages[2].parents[0], 1);

	/* inline cost model */
	CU_ASSERT_PTR_NULL(s->cost.path);
	CU_ASSERT_EQUAL(s->cost.version, 1);
	CU_ASSERT_EQUAL(s->cost.task_overhead_us, 0);
	CU_ASSERT_EQUAL(s->cost.nkernels, 3);
	const struct scn_cost_kernel *k = scn_cost_kernel(s, "mnist_step");
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_EQUAL(k->noise, SCN_NOISE_NONE);
	CU_ASSERT_DOUBLE_EQUAL(scn_cost_device(k, "cpu")->slope_us, 100, 1e-9);

	CU_ASSERT_EQUAL_FATAL(s->npolicies, 1);
	CU_ASSERT_STRING_EQUAL(s->policies[0].kind, "fifo");
	scn_free(s);
}

/* ------------------------------------------------------------------ */
/* Units, one value at a time, through a scratch scenario file         */

#define TAIL                                                                           \
	"workload: [{name: j, type: wordcount, input: 1GiB%s}]\n"                        \
	"cost_model: {version: 1, kernels: {\n"                                          \
	"  wordcount_map: {unit: MiB, devices: {cpu: {intercept: 1ms, slope: 1ms}}},\n"  \
	"  wordcount_reduce: {unit: MiB, devices: {cpu: {intercept: 1ms, slope: 1ms}}}}}\n" \
	"policies: [fifo]\n"

enum field { F_TIME, F_SIZE, F_RATE, F_INT };

/* Line 1 of the scratch file holds the value under test. */
static const char *const tmpl[] = {
	[F_TIME] = "overheads: {task_launch: %s}\ncluster: [{name: n, cores: 1, memory: 1GiB}]\n" TAIL,
	[F_SIZE] = "cluster: [{name: n, cores: 1, memory: %s}]\n" TAIL,
	[F_RATE] = "seed: 1\ncluster: [{name: n, cores: 1, memory: 1GiB}]\n" TAIL,
	[F_INT] = "cluster: [{name: n, cores: %s, memory: 1GiB}]\n" TAIL,
};

/* Write a scenario whose value under test is `value` and load it.  The
 * message (past "file:line:col: ") lands in msg. */
static struct scn *load_value(enum field f, const char *value, char *msg, size_t len)
{
	char path[64], err[512] = "", rate[64] = "", text[1024];
	int n;
	if (f == F_RATE) {
		snprintf(rate, sizeof rate, ", arrival: {poisson: %s}", value);
		n = snprintf(text, sizeof text, tmpl[f], rate);
	} else {
		n = snprintf(text, sizeof text, tmpl[f], value, "");
	}
	CU_ASSERT_FATAL(n > 0 && (size_t)n < sizeof text);
	h_write_tmp(path, sizeof path, text);
	struct scn *s = scn_load(path, err, sizeof err);
	unlink(path);
	const char *m = err + strlen(path);
	for (int colons = 0; *m && colons < 3; m++)
		colons += *m == ':';
	snprintf(msg, len, "%s", *m == ' ' ? m + 1 : err);
	return s;
}

static const struct {
	enum field f;
	const char *value;
	int64_t want;    /* µs, MiB, mean gap µs or the integer */
	const char *msg; /* NULL: must load */
} units[] = {
	{F_TIME, "250ms", 250000, NULL},
	{F_TIME, "0.0000005s", 1, NULL},        /* half a µs rounds away from 0 */
	{F_TIME, "0.0000004s", 0, NULL},
	{F_TIME, "1.5us", 2, NULL},
	{F_TIME, "2.5us", 3, NULL},
	{F_TIME, "0.001ms", 1, NULL},
	{F_TIME, "3 s", 3000000, NULL},
	{F_TIME, "1.5h", 5400000000, NULL},
	{F_TIME, "2min", 120000000, NULL},
	{F_TIME, "100000000s", 100000000000000, NULL},  /* the limit of times */
	{F_TIME, "100000000000000us", 100000000000000, NULL},
	{F_TIME, "100000000.0000005s", 0, "time '100000000.0000005s' is too large (at most 100000000s)"},
	{F_TIME, "27778h", 0, "time '27778h' is too large (at most 100000000s)"},
	{F_TIME, "2562047789h", 0, "time '2562047789h' is too large (at most 100000000s)"}, /* > INT64_MAX µs */
	{F_TIME, "1234567890123456789us", 0,
	 "'1234567890123456789us' has too many digits (at most 18 significant digits and 18 decimals)"},
	{F_TIME, "1.0000000000000000001s", 0,
	 "'1.0000000000000000001s' has too many digits (at most 18 significant digits and 18 decimals)"},
	{F_TIME, "1.5xs", 0, "expected a time with a unit (us, ms, s, min, h), got '1.5xs'"},
	{F_TIME, "5", 0, "expected a time with a unit (us, ms, s, min, h), got '5'"},
	{F_TIME, "5sec", 0, "expected a time with a unit (us, ms, s, min, h), got '5sec'"},
	{F_TIME, "1e3s", 0, "expected a time with a unit (us, ms, s, min, h), got '1e3s'"},
	{F_TIME, "-1ms", 0, "expected a time >= 0, got '-1ms'"},
	{F_SIZE, "1.5GiB", 1536, NULL},
	{F_SIZE, "2T", 2097152, NULL},
	{F_SIZE, "512M", 512, NULL},
	{F_SIZE, "1 GiB", 1024, NULL},
	{F_SIZE, "0.0009765625GiB", 1, NULL},   /* exactly 1 MiB */
	{F_SIZE, "0.5MiB", 0, "expected a whole number of MiB, got '0.5MiB'"},
	{F_SIZE, "64", 0, "expected a size such as 512MiB or 64GiB, got '64'"},
	{F_SIZE, "64GB", 0, "expected a size such as 512MiB or 64GiB, got '64GB'"},
	{F_SIZE, "0MiB", 0, "expected a size >= 1MiB, got '0MiB'"},
	{F_SIZE, "1024TiB", 1073741824, NULL},     /* the limit of sizes */
	{F_SIZE, "1025TiB", 0, "size '1025TiB' is too large (at most 1024TiB)"},
	{F_SIZE, "9999999999999999T", 0, "size '9999999999999999T' is too large (at most 1024TiB)"},
	{F_SIZE, "{a: 1}", 0, "expected a size such as 512MiB or 64GiB, got a mapping"},
	{F_RATE, "0.5/s", 2000000, NULL},
	{F_RATE, "3/min", 20000000, NULL},
	{F_RATE, "10/h", 360000000, NULL},
	{F_RATE, "0.25 /s", 4000000, NULL},
	{F_RATE, "-1/s", 0, "expected a rate > 0, got '-1/s'"},
	{F_RATE, "1/d", 0, "expected a rate such as 0.5/s, 3/min or 10/h, got '1/d'"},
	{F_RATE, "0/s", 0, "expected a rate > 0, got '0/s'"},
	{F_RATE, "2", 0, "expected a rate such as 0.5/s, 3/min or 10/h, got '2'"},
	{F_INT, "7", 7, NULL},
	{F_INT, "+7", 7, NULL},
	{F_INT, "3.5", 0, "expected an integer, got '3.5'"},
	{F_INT, "3x", 0, "expected an integer, got '3x'"},
	{F_INT, "0", 0, "expected an integer >= 1, got '0'"},
	{F_INT, "99999999999", 0, "expected an integer <= 2147483647, got '99999999999'"},
	{F_INT, "200000", 200000, NULL},            /* the limit of cores per node */
	{F_INT, "200001", 0, "'200001' is above the limit of 200000 cores per node"},
	{F_INT, "99999999999999999999", 0, "integer '99999999999999999999' is out of range"},
	{F_INT, "", 0, "expected an integer, got nothing"},
};

/* The value under test, read back; a mean gap is a whole number of µs in
 * the table, so comparing it exactly is fair. */
static bool field_is(const struct scn *s, enum field f, int64_t want)
{
	switch (f) {
	case F_TIME:
		return s->over.task_launch_us == want;
	case F_SIZE:
		return s->groups[0].mem_mib == want;
	case F_RATE:
		return s->jobs[0].arrival.mean_gap_us == (double)want;
	default:
		return s->groups[0].cores == want;
	}
}

static void test_units(void)
{
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		char msg[512];
		struct scn *s = load_value(units[i].f, units[i].value, msg, sizeof msg);
		if (units[i].msg) {
			CU_ASSERT_PTR_NULL(s);
			CU_ASSERT_STRING_EQUAL(msg, units[i].msg);
		} else {
			CU_ASSERT_PTR_NOT_NULL(s);
			CU_ASSERT(s && field_is(s, units[i].f, units[i].want));
		}
		if ((s != NULL) != (units[i].msg == NULL))
			fprintf(stderr, "\n  value '%s': %s\n", units[i].value, s ? "loaded" : msg);
		scn_free(s);
	}
}

/* ------------------------------------------------------------------ */
/* Bad files: exact messages                                           */

/* "%s" in a message stands for pol_names(). */
static const struct {
	const char *file, *msg;
} bad[] = {
	{"syntax", "syntax.yaml:19:11: did not find expected ',' or ']' (while parsing a flow sequence at line 18)"},
	{"top_typo", "top_typo.yaml:19:1: unknown key 'polices' at top level (did you mean 'policies'?)"},
	{"policy_unknown", "policy_unknown.yaml:22:11: unknown policy 'label-dul' (known: %s)"},
	{"switch_value", "switch_value.yaml:22:9: expected true or false for switch 'gang' of policy label-dual, got 'maybe'"},
	{"switch_unknown", "switch_unknown.yaml:22:3: policy label-dual has no switch 'gnag' (switches: labels, calculator, gang)"},
	{"choice_value", "choice_value.yaml:22:15: expected one of dominant, memory for switch 'calculator' of policy label-dual, got 'fastest'"},
	{"policy_key_typo", "policy_key_typo.yaml:9:3: unknown key 'polcy' in policy entry (did you mean 'policy'?)"},
	{"policy_dup", "policy_dup.yaml:22:3: duplicate policy name 'spark-standalone' (first at line 20); give one a name"},
	{"size_bare", "size_bare.yaml:5:11: expected a size such as 512MiB or 64GiB, got '64'"},
	{"size_fraction", "size_fraction.yaml:18:20: expected a whole number of MiB, got '0.3MiB'"},
	{"time_bare", "time_bare.yaml:2:48: expected a time with a unit (us, ms, s, min, h), got '5'"},
	{"time_negative", "time_negative.yaml:18:17: expected a time >= 0, got '-5s'"},
	{"time_overflow", "time_overflow.yaml:2:31: time '9999999999999h' is too large (at most 100000000s)"},
	{"rate_bare", "rate_bare.yaml:18:22: expected a rate such as 0.5/s, 3/min or 10/h, got '2'"},
	{"missing_key", "missing_key.yaml:3:3: missing key 'cores' in node group 'gpu'"},
	{"duplicate_key", "duplicate_key.yaml:6:3: duplicate key 'cores' (first at line 4)"},
	{"group_dup", "group_dup.yaml:6:9: duplicate node group name 'cpu' (first at line 3)"},
	{"job_group_dup", "job_group_dup.yaml:7:10: duplicate job group name 'a' (first at line 5)"},
	{"stage_dup", "stage_dup.yaml:13:12: duplicate stage name 'r' (first at line 12)"},
	{"wrong_type_key", "wrong_type_key.yaml:18:3: key 'input' is for wordcount jobs, not mnist_spark"},
	{"stages_wordcount", "stages_wordcount.yaml:18:3: key 'stages' is for synthetic jobs, not wordcount"},
	{"executors_mnist", "executors_mnist.yaml:17:3: key 'executors' is for wordcount, synthetic and angel jobs, not mnist_spark"},
	{"job_type", "job_type.yaml:16:9: unknown job type 'mnist-spark' (did you mean 'mnist_spark'?)"},
	{"role_key", "role_key.yaml:17:22: unknown key 'gpu' in role worker (did you mean 'gpus'?)"},
	{"gpu_busy", "gpu_busy.yaml:18:13: expected one of retry, cpu for gpu_busy, got 'fail'"},
	{"parent_later", "parent_later.yaml:21:15: parent 'reduce' of stage 'map' comes after it (parents must be earlier stages)"},
	{"parent_unknown", "parent_unknown.yaml:24:15: unknown stage 'mpa' in parents of 'reduce' (earlier stages: map)"},
	{"dist_unknown", "dist_unknown.yaml:20:22: unknown distribution 'normal' (known: constant, exponential, lognormal, uniform)"},
	{"cost_time_scale", "cost_time_scale.yaml:13:40: the slope of kernel 'wordcount_map' on cpu puts job group 'wc' past the simulated clock's 35.7 years: a task would take 1.28e+09 s (128 MiB x this slope); the coefficient is out of scale"},
	{"cost_train_scale", "cost_train_scale.yaml:17:26: the intercept of kernel 'mnist_step' on gpu puts job group 'tf' past the simulated clock's 35.7 years: its training, on every worker at once on the fastest device, would take 3e+09 s (this intercept alone); the coefficient is out of scale"},
	{"label_unknown", "label_unknown.yaml:18:18: no node group carries label 'tpu' (did you mean 'gpu'?)"},
	{"labels_auto_mixed", "labels_auto_mixed.yaml:6:12: 'auto' cannot be mixed with other labels; write labels: auto"},
	{"count_negative", "count_negative.yaml:17:10: expected an integer >= 1, got '-2'"},
	{"int_float", "int_float.yaml:4:10: expected an integer, got '3.5'"},
	{"gpus_no_model", "gpus_no_model.yaml:3:3: missing key 'gpu_model' in node group 'gpu' (required when gpus > 0)"},
	{"model_without_gpus", "model_without_gpus.yaml:6:14: gpu_model given but node group 'cpu' has no GPUs (gpus: 0)"},
	{"arrival_two", "arrival_two.yaml:18:12: arrival takes exactly one of at, every, poisson, times (got at, every)"},
	{"times_count", "times_count.yaml:17:10: count 2 disagrees with the 3 arrival times"},
	{"times_decrease", "times_decrease.yaml:18:30: arrival times must not decrease: '9s' comes after '10s'"},
	{"cluster_empty", "cluster_empty.yaml:2:10: expected at least one node group in cluster, got an empty list"},
	{"cost_version", "cost_version.model.yaml:2:10: unsupported cost model version '3' (this hetsim reads versions 1 and 2)"},
	{"cost_missing", "cost_missing.yaml:18:13: cannot open cost model 'models/missing.yaml' (from the scenario's folder: tests/scenarios/bad/models/missing.yaml): No such file or directory"},
	{"cost_inline_slope", "cost_inline_slope.yaml:24:14: missing key 'slope' in device 'cpu'"},
	{"alias", "alias.yaml:7:10: aliases (*c) are not supported; write the value out"},
	{"merge_key", "merge_key.yaml:4:3: merge keys (<<) are not supported; write the keys out"},
	{"two_docs", "two_docs.yaml:22:1: a scenario file holds a single YAML document"},
	{"top_list", "top_list.yaml:2:1: expected a mapping at top level, got a list"},
	{"empty", "empty.yaml:1:1: empty file"},
	/* limits (docs/scenario.md, "Limits") */
	{"limit_nodes", "limit_nodes.yaml:3:20: '2000000000' is above the limit of 100000 nodes in the cluster"},
	{"limit_nodes_total", "limit_nodes_total.yaml:4:3: node group 'b' brings the cluster to 120000 nodes, above the limit of 100000"},
	{"limit_cores", "limit_cores.yaml:3:20: '2147483647' is above the limit of 200000 cores per node"},
	{"limit_cpu_speed", "limit_cpu_speed.yaml:3:49: cpu_speed '1e-300' is outside the limits [0.001, 1000]"},
	{"limit_jobs", "limit_jobs.yaml:5:39: '2000000000' is above the limit of 10000000 jobs in the workload"},
	{"limit_jobs_total", "limit_jobs_total.yaml:6:3: job group 'b' brings the workload to 12000000 jobs, above the limit of 10000000"},
	{"limit_tasks", "limit_tasks.yaml:5:58: '1000000000' is above the limit of 1000000 tasks per stage"},
	{"limit_tasks_total", "limit_tasks_total.yaml:5:3: job group 'dag' brings the workload to 1000000000 tasks (count x tasks of its stages), above the limit of 100000000"},
	{"limit_executors", "limit_executors.yaml:5:43: '2147483647' is above the limit of 10000 executors per job"},
	{"limit_task_cpus", "limit_task_cpus.yaml:5:43: '2147483647' is above the limit of 10000 cores per task"},
	{"limit_cv", "limit_cv.yaml:5:103: '1e308' is above the limit of 100 for a cv"},
	{"limit_every", "limit_every.yaml:5:61: the last of 100 arrivals is past the limit of 100000000s (start + (count - 1) x every)"},
	{"limit_poisson", "limit_poisson.yaml:5:61: the last of 3 arrivals is past the limit of 100000000s on average (start + count / rate)"},
	{"limit_splits", "limit_splits.yaml:5:38: the largest input of 1073741824MiB in splits of 1MiB makes more than 1000000 map tasks (the limit of tasks per stage)"},
	{"limit_parallelism", "limit_parallelism.yaml:5:57: '2147483647' is above the limit of 1000000 tasks per stage"},
	{"limit_size", "limit_size.yaml:3:31: size '9999999TiB' is too large (at most 1024TiB)"},
	{"limit_cluster_size", "limit_cluster_size.yaml:5:47: '2147483647' is above the limit of 10000 executors per job"},
	{"limit_feed", "limit_feed.yaml:5:79: feeding 1000000000 partitions (partitions x epochs) of 1000000us each takes longer than the limit of 100000000s"},
	{"limit_replications", "limit_replications.yaml:2:15: '1000000000' is above the limit of 1000000 replications"},
	{"limit_policies", "limit_policies.yaml:23:3: too many policies (at most 16)"},
	{"limit_name", "limit_name.yaml:3:10: expected a node group name of at most 100 characters, got 'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...'"},
	{"limit_digits", "limit_digits.yaml:2:31: '9000000000000000000us' has too many digits (at most 18 significant digits and 18 decimals)"},
	{"limit_depth", "limit_depth.yaml:2:70: nested too deeply (at most 64 levels of lists and mappings)"},
	{"limit_keys", "limit_keys.yaml:1010:5: too many keys in one mapping (at most 1000)"},
};

static void test_bad_files(void)
{
	/* an earlier run's result set, the output each bad file's run names */
	char set[] = "/tmp/hetsim-bad-XXXXXX", sargs[300], *sout, *serr;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(set));
	snprintf(sargs, sizeof sargs, "run tests/scenarios/ok/minimal.yaml -q -r 1 -o %s", set);
	CU_ASSERT_EQUAL_FATAL(h_hetsim(sargs, &sout, &serr), 0);
	free(sout), free(serr);
	char *listing = h_tree(set);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char path[256], want[512], err[512] = "";
		snprintf(path, sizeof path, BAD_DIR "%s.yaml", bad[i].file);
		snprintf(want, sizeof want, BAD_DIR "%s", bad[i].msg);
		char *pct = strstr(want, "%s");
		if (pct) { /* splice in the registry's names */
			char tail[512];
			snprintf(tail, sizeof tail, "%s%s", pol_names(), pct + 2);
			snprintf(pct, sizeof want - (size_t)(pct - want), "%s", tail);
		}
		struct scn *s = scn_load(path, err, sizeof err);
		CU_ASSERT_PTR_NULL(s);
		CU_ASSERT_STRING_EQUAL(err, want);
		CU_ASSERT_PTR_NULL(strchr(err, '\n'));
		if (s || strcmp(err, want) != 0)
			fprintf(stderr, "\n  %s\n  want: %s\n  got:  %s\n", path, want, err);
		scn_free(s);
		/* the command says the same, exactly, exit 1, and writes nothing:
		 * a new output folder is not even made, an old result set keeps
		 * every file, byte for byte */
		char args[600], *out, *cerr, line[600];
		snprintf(args, sizeof args, "run %s -q -o /tmp/hetsim-bad-out/x", path);
		CU_ASSERT_EQUAL(h_hetsim(args, &out, &cerr), 1);
		snprintf(line, sizeof line, "%s\n", want);
		CU_ASSERT_STRING_EQUAL(cerr, line);
		struct stat st;
		CU_ASSERT_NOT_EQUAL(stat("/tmp/hetsim-bad-out", &st), 0);
		free(out), free(cerr);
		snprintf(args, sizeof args, "run %s -q -o %s", path, set);
		CU_ASSERT_EQUAL(h_hetsim(args, &out, &cerr), 1);
		CU_ASSERT_STRING_EQUAL(cerr, line);
		char *now = h_tree(set);
		CU_ASSERT_STRING_EQUAL(now, listing);
		free(now);
		free(out), free(cerr);
	}
	free(listing);
	h_rmtree(set);
}

/* docs/errors.md lists every case above with its message, as
 * scripts/errors-doc writes it (the page cannot drift from the tests). */
static void docs_list_every_case(void)
{
	char *doc = h_slurp("docs/errors.md", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char row[1024];
		snprintf(row, sizeof row, "| `bad/%s.yaml` | `%s` |", bad[i].file, bad[i].msg);
		CU_ASSERT_PTR_NOT_NULL(strstr(doc, row));
		if (!strstr(doc, row))
			fprintf(stderr, "\n  docs/errors.md lacks: %s (scripts/errors-doc)\n", row);
	}
	free(doc);
}

static void test_cannot_open(void)
{
	char err[256] = "";
	CU_ASSERT_PTR_NULL(scn_load(BAD_DIR "no-such-file.yaml", err, sizeof err));
	CU_ASSERT_STRING_EQUAL(err, BAD_DIR "no-such-file.yaml:0:0: cannot open: No such file or directory");
	CU_ASSERT_PTR_NULL(scn_load("tests/scenarios", err, sizeof err));
	CU_ASSERT_STRING_EQUAL(err, "tests/scenarios:0:0: cannot open: Is a directory");
}

/* The message is cut to fit the buffer, always NUL-terminated; a zero
 * length buffer is not touched. */
static void test_err_buffer(void)
{
	char err[20];
	memset(err, 'x', sizeof err);
	CU_ASSERT_PTR_NULL(scn_load(BAD_DIR "int_float.yaml", err, sizeof err));
	CU_ASSERT_STRING_EQUAL(err, "tests/scenarios/bad"); /* 19 + NUL */
	memset(err, 'x', sizeof err);
	CU_ASSERT_PTR_NULL(scn_load(BAD_DIR "int_float.yaml", err, 0));
	CU_ASSERT_EQUAL(err[0], 'x');
	CU_ASSERT_PTR_NULL(scn_load(BAD_DIR "syntax.yaml", err, 0));
	CU_ASSERT_EQUAL(err[0], 'x');
}

/* Write `head`, then n lines of `line` (its %d: 0..n-1), then `tail` to a
 * scratch file and load it.  What follows the file name in the message
 * (":line:col: message") lands in msg. */
static struct scn *load_lines(const char *head, const char *line, int n, const char *tail,
			      char *msg, size_t len)
{
	char path[64], err[512] = "", *text = NULL;
	size_t tlen;
	FILE *fp = open_memstream(&text, &tlen);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fputs(head, fp);
	for (int i = 0; i < n; i++)
		fprintf(fp, line, i);
	fputs(tail, fp);
	fclose(fp);
	h_write_tmp(path, sizeof path, text);
	free(text);
	struct scn *s = scn_load(path, err, sizeof err);
	unlink(path);
	snprintf(msg, len, "%s", strncmp(err, path, strlen(path)) == 0 ? err + strlen(path) : err);
	return s;
}

#define LIST_SY "- {name: j, type: synthetic, stages: [{name: a, tasks: 1, duration: 1s}]}\n"

/* Lists past their limits, and the longest ones allowed (which must
 * load quickly: the walk is linear in them). */
static void test_long_lists(void)
{
	static const struct {
		const char *head, *line, *tail;
		int n;
		const char *msg; /* NULL: must load */
	} cases[] = {
		{"cluster:\n", "- {name: n%d, cores: 1, memory: 1GiB}\n", "workload:\n" LIST_SY "policies: [fifo]\n",
		 10000, NULL},
		{"cluster:\n", "- {name: n%d, cores: 1, memory: 1GiB}\n", "workload:\n" LIST_SY "policies: [fifo]\n",
		 10001, ":10002:3: too many node groups (at most 10000)"},
		{"cluster: [{name: n, cores: 1, memory: 1GiB}]\nworkload:\n",
		 "- {name: j%d, type: synthetic, stages: [{name: a, tasks: 1, duration: 1s}]}\n",
		 "policies: [fifo]\n", 10001, ":10003:3: too many job groups (at most 10000)"},
		{"cluster: [{name: n, cores: 1, memory: 1GiB}]\nworkload:\n- name: j\n  type: synthetic\n  stages:\n",
		 "  - {name: s%d, tasks: 1, duration: 1s}\n", "policies: [fifo]\n", 10000, NULL},
		{"cluster: [{name: n, cores: 1, memory: 1GiB}]\nworkload:\n- name: j\n  type: synthetic\n  stages:\n",
		 "  - {name: s%d, tasks: 1, duration: 1s}\n", "policies: [fifo]\n", 10001,
		 ":10006:5: too many stages in a job (at most 10000)"},
		{"cluster: [{name: n, cores: 1, memory: 1GiB}]\nworkload:\n"
		 "- name: j\n  type: synthetic\n  arrival:\n    times:\n",
		 "    - %dus\n", "  stages: [{name: a, tasks: 1, duration: 1s}]\npolicies: [fifo]\n", 100000, NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char msg[512];
		struct scn *s = load_lines(cases[i].head, cases[i].line, cases[i].n, cases[i].tail, msg,
					   sizeof msg);
		if (cases[i].msg) {
			CU_ASSERT_PTR_NULL(s);
			CU_ASSERT_STRING_EQUAL(msg, cases[i].msg);
		} else {
			CU_ASSERT_PTR_NOT_NULL(s);
		}
		if ((s != NULL) != (cases[i].msg == NULL) || (s == NULL && strcmp(msg, cases[i].msg)))
			fprintf(stderr, "\n  case %zu: %s\n", i, s ? "loaded" : msg);
		scn_free(s);
	}
}

/* gpu_busy reads both its values; a
 * mapping is named as such in the message. */
static void test_gpu_busy(void)
{
	static const struct {
		const char *value;
		int want;
		const char *msg; /* NULL: must load */
	} cases[] = {
		{"retry", JM_GPU_BUSY_RETRY, NULL},
		{"cpu", JM_GPU_BUSY_CPU, NULL},
		{"\"cpu\"", JM_GPU_BUSY_CPU, NULL}, /* quoting changes nothing */
		{"CPU", 0, ":2:69: expected one of retry, cpu for gpu_busy, got 'CPU'"},
		{"{a: 1}", 0, ":2:69: expected one of retry, cpu for gpu_busy, got a mapping"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char head[256], msg[512];
		snprintf(head, sizeof head,
			 "cluster: [{name: n, cores: 4, memory: 8GiB}]\n"
			 "workload: [{name: tf, type: mnist_spark, cluster_size: 2, gpu_busy: %s}]\n"
			 "cost_model: {version: 1, kernels: {mnist_step: {unit: samples, "
			 "devices: {cpu: {intercept: 1ms, slope: 0s}}}}}\n"
			 "policies: [fifo]\n", cases[i].value);
		struct scn *s = load_lines(head, "", 0, "", msg, sizeof msg);
		if (cases[i].msg) {
			CU_ASSERT_PTR_NULL(s);
			CU_ASSERT_STRING_EQUAL(msg, cases[i].msg);
		} else {
			CU_ASSERT_PTR_NOT_NULL(s);
			CU_ASSERT(s && ((const struct jm_mnist *)s->jobs[0].params)->gpu_busy ==
					  cases[i].want);
		}
		if ((s != NULL) != (cases[i].msg == NULL))
			fprintf(stderr, "\n  gpu_busy %s: %s\n", cases[i].value, s ? "loaded" : msg);
		scn_free(s);
	}
}

/* A quoted value with a newline still gives a one-line message. */
static void test_one_line(void)
{
	char msg[512];
	struct scn *s = load_value(F_INT, "\"3\\n4\"", msg, sizeof msg);
	CU_ASSERT_PTR_NULL(s);
	CU_ASSERT_STRING_EQUAL(msg, "expected an integer, got '3 4'");
	scn_free(s);
}

/* A bad contention entry (line 4 of the file, the kernel's cpu entry,
 * from column 16) names file:line:col and what is wrong. */
static void test_contention_bad(void)
{
	static const struct {
		const char *entry, *msg;
	} cases[] = {
		{"cpu: {k: [2, 3], slowdown: [1, 1.5]}",
		 ":4:26: expected k to start at 1 (the reference), got '2'"},
		{"cpu: {k: [1, 1], slowdown: [1, 1.5]}",
		 ":4:29: expected k in increasing order, got '1' after 1"},
		{"cpu: {k: [1, 2], slowdown: [1, 1.5, 2]}",
		 ":4:43: expected 2 values in slowdown, one per k, got 3"},
		{"cpu: {k: [1, 2], slowdown: [1.1, 1.5]}",
		 ":4:44: expected slowdown 1 at k = 1 (the reference), got '1.1'"},
		{"cpu: {k: [1, 2], slowdown: [1, 0]}", ":4:47: expected a slowdown > 0, got '0'"},
		{"cpu: {k: [1, 2], slowdown: [1, fast]}", ":4:47: expected a number, got 'fast'"},
		{"cpu: {k: [1, 2], slowdown: [1, 1.5], spread: [0, -1]}",
		 ":4:65: expected a spread >= 0, got '-1'"},
		{"cpu: {k: [1, 2], slowdown: [1, 1.5], beyond: fit}",
		 ":4:61: unknown rule 'fit' beyond the largest k (known: hold)"},
		{"cpu: {k: [1, 2]}", ":4:21: missing key 'slowdown' in contention entry 'cpu'"},
		{"cpu: {k: [1, 2], slowdwn: [1, 1.5]}",
		 ":4:33: unknown key 'slowdwn' in contention entry (did you mean 'slowdown'?)"},
		{"gpu: {k: [1, 2], slowdown: [1, 1.5]}",
		 ":4:16: contention for device 'gpu', which kernel 'wordcount_map' has not under "
		 "devices (known: cpu)"},
		{"cpu: {k: [1, 0], slowdown: [1, 1.5]}", ":4:29: expected an integer >= 1, got '0'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char yaml[1024];
		snprintf(yaml, sizeof yaml, "cost_model: {version: 1, kernels: {wordcount_map: {\n"
			 "  unit: MiB,\n  devices: {cpu: {intercept: 1s, slope: 0s}},\n"
			 "  contention: {%s}}}}\n"
			 "cluster: [{name: n, cores: 2, memory: 1GiB}]\n"
			 "workload: [{name: j, type: synthetic, stages: [{name: s, tasks: 1, "
			 "duration: 1s}]}]\npolicies: [fifo]\n", cases[i].entry);
		h_expect_load_error(yaml, cases[i].msg);
	}
}

/* libyaml's reader errors at the byte they are about (issue 19: they
 * were all at 1:1), the column in characters (é counts one). */
static void reader_errors(void)
{
	/* (and a name that would take results/<name> out of results/) */
	h_expect_load_error("name: ..\n", ":1:7: expected a scenario name other than '.' and '..' "
			    "(it names folders), got '..'");
	h_expect_load_error("name: x\ncluster:\n  - name: n\n    cores: 1\n    memory: 1GiB\n"
			    "    gpu_model: \"a\x01b\"\n",
			    ":6:18: control characters are not allowed");
	h_expect_load_error("name: x\n# caf\xc3\xa9 \xff\n", ":2:8: invalid leading UTF-8 octet");
}

/* `-`: the scenario on standard input (its relative paths from the
 * current folder); messages name it "-". */
static void from_stdin(void)
{
	static const char *const texts[] = {
		"cluster: [{name: n, cores: 2, memory: 4GiB}]\n"
		"workload: [{name: w, type: wordcount, input: 64MiB}]\npolicies: [fifo]\n",
		"cluster: [{name: n, cores: 2, memory: 4GiB}]\nworkload: [\n"};
	for (int i = 0; i < 2; i++) {
		int fd[2], saved = dup(0);
		CU_ASSERT_FATAL(pipe(fd) == 0 && saved >= 0);
		CU_ASSERT_FATAL(write(fd[1], texts[i], strlen(texts[i])) == (ssize_t)strlen(texts[i]));
		close(fd[1]);
		dup2(fd[0], 0);
		close(fd[0]);
		clearerr(stdin);
		char err[512] = "";
		struct scn *s = scn_load("-", err, sizeof err);
		dup2(saved, 0);
		close(saved);
		clearerr(stdin);
		if (i == 0) {
			CU_ASSERT_PTR_NOT_NULL(s);
			CU_ASSERT(s && s->njobgroups == 1 && !strcmp(s->jobs[0].name, "w"));
		} else {
			CU_ASSERT_PTR_NULL(s);
			CU_ASSERT_STRING_EQUAL(err, "-:3:1: did not find expected node content (while "
						    "parsing a flow node at line 3)");
		}
		scn_free(s);
	}
}

/* A named pipe, as the scenario, its cost model, a trace or a CSV of
 * plot: refused at once (issue 19: it hung for ever), one line.  An
 * alarm fails the run rather than let a regression hang it. */
static void named_pipes(void)
{
	char dir[] = "/tmp/hetsim-fifo-XXXXXX", fifo[300], yaml[300], err[600], want[700];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(fifo, sizeof fifo, "%s/pipe", dir);
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
	alarm(30);
	CU_ASSERT_PTR_NULL(scn_load(fifo, err, sizeof err));
	snprintf(want, sizeof want, "%s:0:0: cannot open: not a regular file (a named pipe)", fifo);
	CU_ASSERT_STRING_EQUAL(err, want);
	static const char *const uses[][2] = {
		{"cost_model: pipe\n", ":3:13: cannot open cost model 'pipe' (from the scenario's "
					"folder: %s): not a regular file (a named pipe)"},
		{"workload: [{name: t, trace: {path: pipe}}]\n",
		 ":2:36: cannot open trace 'pipe' (from the scenario's folder: %s): not a regular "
		 "file (a named pipe)"},
	};
	for (int i = 0; i < 2; i++) {
		snprintf(yaml, sizeof yaml, "%s/s.yaml", dir);
		FILE *f = fopen(yaml, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fprintf(f, "cluster: [{name: n, cores: 1, memory: 1GiB}]\n%s%s",
			i ? "" : "workload: [{name: w, type: wordcount, input: 64MiB}]\n", uses[i][0]);
		fclose(f);
		CU_ASSERT_PTR_NULL(scn_load(yaml, err, sizeof err));
		char tail[400];
		snprintf(tail, sizeof tail, uses[i][1], fifo);
		snprintf(want, sizeof want, "%s%s", yaml, tail);
		CU_ASSERT_STRING_EQUAL(err, want);
		remove(yaml);
	}
	CU_ASSERT_PTR_NULL(pol_plugin_load(fifo, err, sizeof err)); /* (dlopen would hang) */
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot open the plugin: not a regular file (a named "
					   "pipe)"));
	CU_ASSERT_PTR_NULL(plot_csv_read(fifo, err, sizeof err));
	snprintf(want, sizeof want, "%s:0:0: cannot open: not a regular file (a named pipe)", fifo);
	CU_ASSERT_STRING_EQUAL(err, want);
	alarm(0);
	remove(fifo);
	rmdir(dir);
}

int test_suite_scenario(void)
{
	TEST_SUITE("scenario",
		   {"named pipes refused at once: scenario, cost model, trace, CSV", named_pipes},
		   {"docs/errors.md lists every bad file with its message", docs_list_every_case},
		   {"libyaml reader errors at their line and column", reader_errors},
		   {"-: the scenario on standard input", from_stdin},
		   {"full file: top level and labels", test_full_top},
		   {"full file: cluster", test_full_cluster},
		   {"full file: wordcount job", test_full_wordcount},
		   {"full file: mnist_spark job, role labels", test_full_mnist},
		   {"full file: synthetic job, stage DAG", test_full_synthetic},
		   {"full file: cost model by path", test_full_cost_file},
		   {"full file: policies and switches", test_full_policies},
		   {"defaults, inline cost model", test_defaults},
		   {"units, rounding and ranges", test_units},
		   {"bad files: exact messages", test_bad_files},
		   {"file that cannot be opened", test_cannot_open},
		   {"error buffer limits", test_err_buffer},
		   {"messages stay on one line", test_one_line},
		   {"long lists and their limits", test_long_lists},
		   {"mnist_spark gpu_busy: values and message", test_gpu_busy},
		   {"bad contention entries: exact messages", test_contention_bad});
	return 0;
}
