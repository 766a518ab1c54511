/* test_failures.c - executors lost: node failures and their task
 * retries, spark.task.maxFailures, TFoS jobs failing or restarting from
 * a checkpoint, preemption through a test-only policy, availability over
 * many random failure cycles.  Expected values are hand-computed in each
 * scenario's comment (tests/scenarios/failures/). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "load.h"
#include "metrics.h"
#include "policy.h"
#include "registry.h"
#include "scenario.h"
#include "sim.h"
#include "test.h"

#define FAIL_DIR "tests/scenarios/failures/"

static void node_failure_retry(void)
{
	struct scn *c;
	struct sim *s = h_run(FAIL_DIR "retry.yaml", "fifo", 0, &c);
	const struct sim_totals *t = sim_totals(s);
	CU_ASSERT_EQUAL(sim_job(s, 0)->status, JOB_DONE);
	CU_ASSERT_EQUAL(h_makespan(s), S(20));
	CU_ASSERT_EQUAL(t->tasks_retried, 1);
	CU_ASSERT_DOUBLE_EQUAL(t->lost_core_us, 4e6, 1e-6); /* 4 s on 1 core */
	CU_ASSERT_EQUAL(t->execs_lost, 1);
	CU_ASSERT_EQUAL(t->fail_cycles, 1);
	CU_ASSERT_DOUBLE_EQUAL(t->node_down_us, 16e6, 1e-6); /* 4 s to the end, 20 s */
	CU_ASSERT_EQUAL(h_nexecs(), 2);                      /* no replacement fitted */
	CU_ASSERT_EQUAL(h_exec(0)->end_us, S(4));
	CU_ASSERT_EQUAL(h_exec(1)->end_us, S(20));
	h_done(s, c);
}

static void max_failures(void)
{
	struct scn *c;
	struct sim *s = h_run(FAIL_DIR "max-failures.yaml", "fifo", 0, &c);
	h_expect_end(s, sim_job(s, 0), JOB_FAILED, S(10), "task-failures");
	CU_ASSERT_EQUAL(sim_totals(s)->tasks_retried, 1); /* the second attempt, not run again */
	CU_ASSERT_DOUBLE_EQUAL(sim_totals(s)->lost_core_us, 9e6, 1e-6); /* 4 s + 5 s */
	CU_ASSERT_EQUAL(h_nexecs(), 2);
	CU_ASSERT_EQUAL(h_exec(1)->launch_us, S(5));
	CU_ASSERT_EQUAL(h_exec(1)->end_us, S(10));
	h_done(s, c);
}

static void tfos_lost_worker(void)
{
	struct scn *c;
	struct sim *s = h_run(FAIL_DIR "tfos.yaml", "fifo", 0, &c);
	h_expect_end(s, sim_job(s, 0), JOB_FAILED, S(4), "executor-lost");
	h_done(s, c);

	s = h_run(FAIL_DIR "tfos-ckpt.yaml", "fifo", 0, &c);
	h_expect_end(s, sim_job(s, 0), JOB_DONE, S(12), "");
	CU_ASSERT_EQUAL(h_nexecs(), 3);
	CU_ASSERT_EQUAL(h_exec(1)->end_us, S(4));      /* the worker on n-1 */
	CU_ASSERT_EQUAL(h_exec(2)->launch_us, S(4));   /* its replacement, on n-2 */
	CU_ASSERT_EQUAL(h_exec(2)->node, 2);
	CU_ASSERT_EQUAL(sim_totals(s)->execs_lost, 1);
	CU_ASSERT_DOUBLE_EQUAL(sim_totals(s)->lost_gpu_us, 0, 1e-9); /* on CPUs */
	h_done(s, c);

	s = h_run(FAIL_DIR "tfos-ckpt-gpu.yaml", "fifo", 0, &c);
	CU_ASSERT_EQUAL(sim_job(s, 0)->end_us, S(12));
	CU_ASSERT_DOUBLE_EQUAL(sim_totals(s)->lost_gpu_us, 1e6, 1e-6); /* 1 s x 1 GPU */
	CU_ASSERT_DOUBLE_EQUAL(sim_totals(s)->node_down_us, 8e6, 1e-6);
	h_done(s, c);
}

/* A test-only policy: fifo's placement, and at 4 s it preempts job 0's
 * worker (role 1). */
static struct policy_ops preempter;
static int64_t preempt_cost = -7;

static void *pre_init(struct sim *s, const struct scn_policy *cfg)
{
	sim_policy_timer(s, 4e6, 42);
	return pol_find("fifo")->init(s, cfg);
}

static void pre_timer(void *st, struct sim *s, uint32_t tag)
{
	(void)st;
	CU_ASSERT_EQUAL(tag, 42);
	const struct sim_job *j = sim_job(s, 0);
	for (int i = 0; i < sim_job_nexecs(j); i++) {
		struct sim_exec *x = sim_job_exec(s, j, i);
		if (x && x->role == 1)
			preempt_cost = sim_preempt_executor(s, x);
	}
}

static void preempt_checkpoint(void)
{
	preempter = *pol_find("fifo");
	preempter.name = "preempter";
	preempter.init = pre_init;
	preempter.timer = pre_timer;
	struct scn *c;
	struct sim *s = h_run_ops(FAIL_DIR "tfos-preempt.yaml", &preempter, 0, &c);
	const struct sim_job *j = sim_job(s, 0);
	CU_ASSERT_EQUAL(preempt_cost, S(2));           /* checkpoint_save */
	CU_ASSERT_EQUAL(j->status, JOB_DONE);
	CU_ASSERT_EQUAL(j->end_us, S(13));
	CU_ASSERT_EQUAL(h_nexecs(), 3);
	CU_ASSERT_EQUAL(h_exec(1)->end_us, S(6));      /* after its checkpoint's 2 s */
	CU_ASSERT_EQUAL(h_exec(2)->launch_us, S(6));   /* the replacement, on n-1 again */
	CU_ASSERT_EQUAL(h_exec(2)->node, 1);
	CU_ASSERT_EQUAL(sim_totals(s)->preemptions, 1);
	CU_ASSERT_EQUAL(sim_totals(s)->tasks_retried, 0);
	h_done(s, c);
}

/* Exponential MTBF 100 s, MTTR 25 s on one node, over the 2.5e6 s the
 * stable node's task takes: about 2 x 10^4 cycles.  Availability
 * 100 / 125 = 0.8 within 1 %; up-times' CV that of an exponential, 1,
 * within 5 %. */
static void availability(void)
{
	struct scn *c;
	struct sim *s = h_run(FAIL_DIR "availability.yaml", "label-dual", 0, &c);
	const struct sim_totals *t = sim_totals(s);
	double span = (double)(t->last_end_us - t->first_arrival_us);
	double avail = 1 - t->node_down_us / span; /* the flaky node's */
	double n = (double)t->fail_cycles, mean = t->up_sum_us / n;
	double cv = sqrt(t->up_sumsq_us2 / n - mean * mean) / mean;
	CU_ASSERT_EQUAL(sim_job(s, 0)->status, JOB_DONE);
	CU_ASSERT(t->fail_cycles >= 10000);
	CU_ASSERT(fabs(avail - 0.8) / 0.8 < 0.01);
	CU_ASSERT(fabs(cv - 1) < 0.05);
	CU_ASSERT(fabs(mean - 100e6) / 100e6 < 0.03);
	if (!(fabs(avail - 0.8) / 0.8 < 0.01 && fabs(cv - 1) < 0.05))
		fprintf(stderr, "\n  %lld cycles, availability %.5f, up-time CV %.4f\n",
			(long long)t->fail_cycles, avail, cv);
	h_done(s, c);
}

static void straggler_speculation(void)
{
	struct scn *c;
	struct sim *s = h_run(FAIL_DIR "straggler.yaml", "fifo", 0, &c);
	CU_ASSERT_EQUAL(h_makespan(s), S(50));
	CU_ASSERT_EQUAL(sim_totals(s)->spec_launched, 0);
	h_done(s, c);

	s = h_run(FAIL_DIR "straggler-spec.yaml", "fifo", 0, &c);
	const struct sim_totals *t = sim_totals(s);
	CU_ASSERT_EQUAL(h_makespan(s), S(26));
	CU_ASSERT_EQUAL(t->spec_launched, 2);
	CU_ASSERT_EQUAL(t->spec_won, 2);
	CU_ASSERT_EQUAL(t->tasks_retried, 0); /* the killed originals are not retries */
	h_done(s, c);

	/* 2 % of 10^4 attempts 5x slower: 10 800 s within 3.6 sd (56 s) */
	s = h_run(FAIL_DIR "straggler-rate.yaml", "fifo", 0, &c);
	double m = (double)h_makespan(s) / 1e6;
	CU_ASSERT(m > 10600 && m < 11000);
	CU_ASSERT_EQUAL(((int64_t)m - 10000) % 4, 0); /* whole stragglers of 4 s more */
	h_done(s, c);
}

/* The new keys' bad values: one line naming file, line, column, value. */
static void bad_keys(void)
{
	static const struct {
		const char *node, *top, *msg;
	} cases[] = {
		{"failures: {mtbf: 10s}", "", ":2:59: missing key 'mttr' in failures"},
		{"failures: {mtbf: 0s, mttr: 1s}", "", ":2:66: expected a time > 0, got '0s'"},
		{"failures: {mtbf: 1h, mttr: 1s, when: 2}", "",
		 ":2:80: unknown key 'when' in failures (known: mtbf, mttr)"},
		{"outages: [{node: 2, at: 1s, for: 1s}]", "",
		 ":2:66: node '2' of an outage is past node group 'n', whose 2 nodes count from 0"},
		{"outages: [{at: 1s, for: 0s}]", "", ":2:73: expected a time > 0, got '0s'"},
		{"stragglers: {fraction: 2, slowdown: 5}", "",
		 ":2:72: expected a number from 0 to 1 for fraction, got '2'"},
		{"stragglers: {fraction: 0.1}", "", ":2:61: missing key 'slowdown' in stragglers"},
		{"nodemanager: {memory: 2GiB}", "",
		 ":2:71: the NodeManager's memory '2GiB' is more than the node's"},
		{"", "speculation: {quantile: 1.5}\n",
		 ":1:25: expected a number from 0 to 1 for quantile, got '1.5'"},
		{"", "speculation: {enabled: yes}\n", ":1:24: expected true or false for enabled, got 'yes'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char yaml[512];
		snprintf(yaml, sizeof yaml, "%scluster:\n"
			 "  - {name: n, count: 2, cores: 1, memory: 1GiB, %s}\n"
			 "workload: [{name: j, type: synthetic, stages: [{name: s, tasks: 1, "
			 "duration: 1s}]}]\npolicies: [fifo]\n", cases[i].top, cases[i].node);
		h_expect_load_error(yaml, cases[i].msg);
	}
}

/* runs.csv's failure columns, for retry.yaml (hand-computed there):
 * 4 core-seconds lost, one retry, one executor lost, availability
 * 1 - 16 s down / (2 nodes x 20 s) = 0.6; and straggler-spec's copies. */
static void runs_csv_columns(void)
{
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("run " FAIL_DIR "retry.yaml -q -o /tmp/hetsim-fail-cols", &out, &err), 0);
	char *runs = h_slurp("/tmp/hetsim-fail-cols/runs.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	CU_ASSERT_PTR_NOT_NULL(strstr(runs, ",decisions,lost_core_s,lost_gpu_s,tasks_retried,"
					    "execs_lost,preemptions,node_availability,"
					    "spec_launched,spec_won,done_set\n"));
	/* done_set of job 0 alone: splitmix64's finaliser of 0, e220a8397b1dcdaf */
	CU_ASSERT_PTR_NOT_NULL(strstr(runs, ",4.000000,0.000000,1,1,0,0.600000,0,0,"
					    "e220a8397b1dcdaf\n"));
	free(runs);
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("run " FAIL_DIR "straggler-spec.yaml -q -o /tmp/hetsim-fail-cols",
				 &out, &err), 0);
	runs = h_slurp("/tmp/hetsim-fail-cols/runs.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	CU_ASSERT_PTR_NOT_NULL(strstr(runs, ",0.000000,0.000000,0,0,0,1.000000,2,2,"
					    "e220a8397b1dcdaf\n"));
	free(runs);
	free(out);
	free(err);
	/* a policy the scenario does not list, by --policy: the command
	 * gives it its ops (the loader gave the listed ones theirs) */
	CU_ASSERT_EQUAL(h_hetsim("run " FAIL_DIR "retry.yaml --policy label-dual -q -o "
				 "/tmp/hetsim-fail-cols", &out, &err), 0);
	runs = h_slurp("/tmp/hetsim-fail-cols/runs.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	CU_ASSERT_PTR_NOT_NULL(strstr(runs, "\nretry,label-dual,0,"));
	free(runs);
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("sweep " FAIL_DIR "retry.yaml --policy yarn -q -o "
				 "/tmp/hetsim-fail-cols", &out, &err), 0);
	free(out);
	free(err);
	h_rmtree("/tmp/hetsim-fail-cols");
}

/* `hetsim models`: every model, its roles, each key with its kind, its
 * default (from the model's defaults) and its help. */
static void models_listing(void)
{
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("models", &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "mnist_spark  roles: ps, worker\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n    checkpoint_every     time       default 0s  "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n    ps                   role       default {count: 1, "
					   "cores: 1, memory: 4096MiB, gpus: 0} "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n    input                size|dist  default required "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n    gpu_busy             choice     default retry "));
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("models extra", &out, &err), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim models: unexpected argument 'extra'\n");
	free(out);
	free(err);
}

/* Review findings, each hand-computed in its scenario's comment. */
static void losses_counted_right(void)
{
	struct scn *c;
	struct sim *s = h_run(FAIL_DIR "last-attempt.yaml", "fifo", 0, &c);
	h_expect_end(s, sim_job(s, 0), JOB_FAILED, S(4), "task-failures");
	CU_ASSERT_EQUAL(sim_totals(s)->tasks_retried, 0);
	CU_ASSERT_DOUBLE_EQUAL(sim_totals(s)->lost_core_us, 4e6, 1e-6);
	h_done(s, c);

	s = h_run(FAIL_DIR "outage-before.yaml", "fifo", 0, &c);
	struct met_run m;
	met_compute(s, &m);
	CU_ASSERT_DOUBLE_EQUAL(m.node_availability, 0.5, 1e-12);
	h_done(s, c);

	s = h_run(FAIL_DIR "yarn-am.yaml", "yarn", 0, &c);
	int ams = 0;
	for (int i = 0; i < h_nexecs(); i++)
		if (h_exec(i)->role == SIM_ROLE_AM) {
			ams++;
			if (ams == 3) /* the one launched again */
				CU_ASSERT_EQUAL(h_exec(i)->mem_mib, h_exec(0)->mem_mib);
		}
	CU_ASSERT_EQUAL(ams, 3);
	CU_ASSERT_EQUAL(h_exec(0)->mem_mib, 1024);
	CU_ASSERT_EQUAL(sim_job(s, 0)->status, JOB_DONE);
	h_done(s, c);

	s = h_run(FAIL_DIR "reserve-loss.yaml", "dg", 0, &c);
	h_expect_end(s, h_job(s, "tf", 0), JOB_TIMED_OUT, S(61), "reservation-timeout");
	h_done(s, c);
}

/* A test-only job model: at arrival a timer at 1 s, then 256 changes of
 * state that end in the state it was set in (an 8-bit count of changes
 * would match again), then a timer at 2 s that ends the job.  The first
 * must never fire. */
static struct sim_job_ops gen_ops;
static int gen_fired;

static void gen_arrived(struct sim *s, struct sim_job *j)
{
	sim_job_timer(s, j, 1e6, 1);
	for (int k = 1; k <= 256; k++)
		sim_job_set_state(s, j, k % 2);
	CU_ASSERT_EQUAL(j->mstate, 0);
	sim_job_timer(s, j, 2e6, 2);
}

static void gen_timer(struct sim *s, struct sim_job *j, struct sim_exec *x, int tag)
{
	CU_ASSERT_PTR_NULL(x);
	gen_fired |= 1 << tag;
	if (tag == 2)
		sim_end_job(s, j, JOB_FAILED, SIM_WHY_EXEC_LOST);
}

static void timer_generations(void)
{
	struct scn *c = h_load(FAIL_DIR "retry.yaml");
	gen_ops = *c->jobs[0].ops;
	gen_ops.build = NULL; /* no tasks */
	gen_ops.arrived = gen_arrived;
	gen_ops.timer = gen_timer;
	gen_ops.exec_ready = NULL;
	c->jobs[0].ops = &gen_ops;
	char err[256];
	gen_fired = 0;
	struct sim *s = sim_new(c, &c->policies[0], 0, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(sim_run(s), 0);
	CU_ASSERT_EQUAL(gen_fired, 1 << 2); /* only the second */
	CU_ASSERT_EQUAL(sim_job(s, 0)->end_us, S(2));
	h_done(s, c);
}

/* Numeric policy switches (issue 15, item 1): one policy listed twice
 * with other values runs as two (yarn-sizes.yaml, hand-computed there);
 * a bad value names its file, line, column, range. */
static void numeric_switches(void)
{
	struct scn *c;
	struct sim *s = h_run("tests/scenarios/switches/yarn-sizes.yaml", "y1g", 0, &c);
	CU_ASSERT_EQUAL(h_nexecs(), 3);
	CU_ASSERT_EQUAL(h_exec(0)->mem_mib, 1024); /* the AM */
	CU_ASSERT_EQUAL(h_exec(1)->mem_mib, 2048);
	CU_ASSERT_EQUAL(h_exec(2)->mem_mib, 2048);
	h_done(s, c);
	s = h_run("tests/scenarios/switches/yarn-sizes.yaml", "y512", 0, &c);
	CU_ASSERT_EQUAL(h_exec(0)->mem_mib, 1024);
	CU_ASSERT_EQUAL(h_exec(1)->mem_mib, 1536);
	CU_ASSERT_EQUAL(h_exec(2)->mem_mib, 1536);
	CU_ASSERT_EQUAL(sim_job(s, 0)->status, JOB_DONE);
	h_done(s, c);
	s = h_run("tests/scenarios/switches/yarn-sizes.yaml", "ymax", 0, &c);
	h_expect_end(s, sim_job(s, 0), JOB_FAILED, 0, "max-allocation"); /* at its arrival */
	h_done(s, c);

	static const struct {
		const char *sw, *msg;
	} cases[] = {
		{"min_allocation_mb: 0", ":2:55: expected [1, 1048576] MiB for switch "
		 "'min_allocation_mb' of policy yarn, got '0'"},
		{"max_am_resource_percent: 2", ":2:61: expected [0, 1] for switch "
		 "'max_am_resource_percent' of policy yarn, got '2'"},
		{"max_allocation_mb: 8GiB", ":2:55: expected an integer, got '8GiB'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char yaml[512];
		snprintf(yaml, sizeof yaml, "cluster: [{name: n, cores: 1, memory: 1GiB}]\n"
			 "policies: [{name: y, policy: yarn, %s}]\n"
			 "workload: [{name: j, type: synthetic, stages: [{name: s, tasks: 1, "
			 "duration: 1s}]}]\n", cases[i].sw);
		h_expect_load_error(yaml, cases[i].msg);
	}
	/* one policy twice, GPU-blind and GPU-aware (standalone-gpu.yaml) */
	s = h_run("tests/scenarios/switches/standalone-gpu.yaml", "blind", 0, &c);
	CU_ASSERT_EQUAL(sim_job(s, 0)->end_us, S(5));
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(h_exec(i)->gpus, 0); /* granted none: took one behind its back */
		CU_ASSERT_EQUAL(h_exec(i)->gpus_took, 1);
		CU_ASSERT_EQUAL(h_exec(i)->gpu_from_us, 0); /* the PS too: no delay in 1.4.4 */
	}
	h_done(s, c);
	s = h_run("tests/scenarios/switches/standalone-gpu.yaml", "aware", 0, &c);
	CU_ASSERT_EQUAL(sim_job(s, 0)->end_us, S(5));
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(h_exec(i)->gpus, 1); /* granted, the PS's too */
		CU_ASSERT_EQUAL(h_exec(i)->gpus_took, 0);
	}
	h_done(s, c);

	/* yarn twice, GPU-blind and gpu_aware with the DRC (yarn-gpu.yaml) */
	s = h_run("tests/scenarios/switches/yarn-gpu.yaml", "yblind", 0, &c);
	CU_ASSERT_EQUAL(sim_job(s, 0)->end_us, S(5));
	for (int i = 1; i < 4; i++) {
		CU_ASSERT_EQUAL(h_exec(i)->gpus, 0); /* took one at 0 s, PS included */
		CU_ASSERT_EQUAL(h_exec(i)->gpu_from_us, 0);
	}
	h_done(s, c);
	s = h_run("tests/scenarios/switches/yarn-gpu.yaml", "yaware", 0, &c);
	CU_ASSERT_EQUAL(sim_job(s, 0)->end_us, S(5));
	CU_ASSERT_EQUAL(h_exec(0)->gpus, 0);      /* the AM */
	for (int i = 1; i < 4; i++)
		CU_ASSERT_EQUAL(h_exec(i)->gpus, 1);
	h_done(s, c);

	/* a NodeManager offering half its node (yarn-nodemanager, yarn-nm8) */
	s = h_run("tests/scenarios/switches/yarn-nodemanager.yaml", "whole", 0, &c);
	CU_ASSERT_EQUAL(h_nexecs(), 5); /* the AM and 4 executors */
	h_done(s, c);
	s = h_run("tests/scenarios/switches/yarn-nm8.yaml", "nm", 0, &c);
	CU_ASSERT_EQUAL(h_nexecs(), 4); /* the AM and 3 */
	CU_ASSERT_EQUAL(sim_job(s, 0)->status, JOB_DONE);
	h_done(s, c);
	/* the same through yarn's switches: 8 GiB; 32 GiB of a 16 GiB node
	 * (the node's); 2 vcores under the DRC (the AM and 1 executor) */
	static const struct { const char *pol; int execs; } nms[] = {
		{"sw8", 4}, {"sw32", 5}, {"drc2", 2}};
	for (int k = 0; k < 3; k++) {
		s = h_run("tests/scenarios/switches/yarn-nodemanager.yaml", nms[k].pol, 0, &c);
		CU_ASSERT_EQUAL(h_nexecs(), nms[k].execs);
		CU_ASSERT_EQUAL(sim_job(s, 0)->status, JOB_DONE);
		h_done(s, c);
	}

	/* spark.deploy.defaultCores (standalone-default-cores.yaml) */
	s = h_run("tests/scenarios/switches/standalone-default-cores.yaml", "unlimited", 0, &c);
	CU_ASSERT_EQUAL(h_makespan(s), S(20));
	CU_ASSERT_EQUAL(h_exec(0)->cores, 8 * CLU_MILLI);
	CU_ASSERT_EQUAL(sim_job(s, 1)->start_us, S(10));
	h_done(s, c);
	s = h_run("tests/scenarios/switches/standalone-default-cores.yaml", "four", 0, &c);
	CU_ASSERT_EQUAL(h_makespan(s), S(10));
	CU_ASSERT_EQUAL(h_exec(0)->cores, 4 * CLU_MILLI);
	CU_ASSERT_EQUAL(h_exec(1)->cores, 4 * CLU_MILLI);
	h_done(s, c);

	char *out, *e2;
	CU_ASSERT_EQUAL(h_hetsim("policies", &out, &e2), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n    min_allocation_mb integer [1, 1048576] MiB default "
					   "1024 "));
	free(out);
	free(e2);
}

int test_suite_failures(void)
{
	TEST_SUITE("failures",
		   {"a node failure mid-stage: the task runs again", node_failure_retry},
		   {"a job fails after spark.task.maxFailures", max_failures},
		   {"TFoS: a lost worker fails the job; with checkpoints it restarts",
		    tfos_lost_worker},
		   {"a preempted executor pays its checkpoint cost", preempt_checkpoint},
		   {"exponential MTBF/MTTR: availability and up-time CV", availability},
		   {"a straggler with and without speculation", straggler_speculation},
		   {"bad failure, outage, straggler, speculation values", bad_keys},
		   {"runs.csv: lost work, retries, availability, copies", runs_csv_columns},
		   {"hetsim models lists each model's keys", models_listing},
		   {"losses counted right; a yarn AM of its size; a TFoS reservation loss",
		    losses_counted_right},
		   {"a job timer never comes back after 256 state changes", timer_generations},
		   {"numeric policy switches: two instances, ranges, messages", numeric_switches});
	return 0;
}
