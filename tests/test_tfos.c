/* test_tfos.c - TensorFlowOnSpark as it behaves (workloads/mnist_spark.c,
 * docs/model.md): which executor is the parameter server, the steps the
 * feed allows, and the TFoS version each configuration runs.  Exact
 * times, computed by hand in the scenarios' comments
 * (tests/scenarios/tfos/). */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "load.h"
#include "models.h"
#include "policy.h"
#include "scenario.h"
#include "sim.h"
#include "test.h"

#define TFOS "tests/scenarios/tfos/"

/* Test-only policies for first-up.yaml: job 0's role-1 executor on node
 * 0 (c-0) at once, its role-0 executor on node 1 (g-0) at 2 s.  GPU-blind;
 * one that leaves roles to the job and one that places them. */
static void late_schedule(void *st, struct sim *s)
{
	(void)st;
	if (sim_now(s) == 0 && sim_job(s, 0)->status == JOB_WAITING &&
	    sim_job(s, 0)->live->granted[1] == 0) {
		sim_launch_executor(s, 0, 1, 0, 1, 1024, 0);
		sim_policy_timer(s, 2e6, 1);
	}
}

static void late_timer(void *st, struct sim *s, uint32_t tag)
{
	(void)st, (void)tag;
	sim_launch_executor(s, 0, 0, 1, 1, 1024, 0);
}

static const struct policy_ops late_blind = {
	.name = "late-blind", .schedule = late_schedule, .timer = late_timer,
};
static const struct policy_ops late_placing = {
	.name = "late-placing", .places_roles = true, .schedule = late_schedule,
	.timer = late_timer,
};

/* The PS is the first TF node up: the executor launched as role 1 at 0 s,
 * up at 1 s, not the role-0 one launched at 2 s; a policy that places
 * roles keeps its role 0 as the PS. */
static void ps_first_up(void)
{
	struct scn *c;
	struct sim *s = h_run_ops(TFOS "first-up.yaml", &late_blind, 0, &c);
	const struct sim_job *j = sim_job(s, 0);
	CU_ASSERT_EQUAL(j->status, JOB_DONE);
	CU_ASSERT_EQUAL(j->start_us, S(3));
	CU_ASSERT_EQUAL(j->end_us, S(15));
	CU_ASSERT_EQUAL(h_exec(0)->role, 1);          /* on c-0, up at 1 s: the PS */
	CU_ASSERT_EQUAL(h_exec(0)->played, 0);        /* executors.csv says ps */
	CU_ASSERT_EQUAL(h_exec(0)->ready_us, S(1));
	CU_ASSERT_EQUAL(h_exec(1)->role, 0);          /* on g-0, up at 3 s: the worker */
	CU_ASSERT_EQUAL(h_exec(1)->played, 1);
	CU_ASSERT_EQUAL(h_exec(1)->gpus_took, 1);
	CU_ASSERT_EQUAL(h_exec(1)->gpu_from_us, S(3));
	CU_ASSERT_EQUAL(h_exec(1)->gpu_to_us, S(14)); /* a worker's: training's end */
	h_done(s, c);

	s = h_run_ops(TFOS "first-up.yaml", &late_placing, 0, &c);
	j = sim_job(s, 0);
	CU_ASSERT_EQUAL(j->status, JOB_DONE);
	CU_ASSERT_EQUAL(j->end_us, S(105));           /* the worker on c-0's CPU */
	CU_ASSERT(h_exec(0)->played == 1 && h_exec(1)->played == 0); /* as launched */
	CU_ASSERT_EQUAL(h_exec(1)->gpus_took, 1);     /* the PS takes g-0's GPU ... */
	CU_ASSERT_EQUAL(h_exec(1)->gpu_to_us, S(105)); /* ... to its executor's end */
	h_done(s, c);
}

/* Test-only policy for tie.yaml: the two executors spark-standalone
 * launches (c-0, then g-0), at once, role-blind. */
static void pair_schedule(void *st, struct sim *s)
{
	(void)st;
	if (sim_now(s) == 0 && sim_job(s, 0)->live->granted[0] == 0) {
		sim_launch_executor(s, 0, 0, 0, 1, 1024, 0);
		sim_launch_executor(s, 0, 1, 1, 1, 1024, 0);
	}
}

static const struct policy_ops pair = {.name = "pair", .schedule = pair_schedule};

/* Two TF nodes up at 1 s: with seed 1 the draw makes the second launched
 * (on g-0) the PS, with seed 3 the first (on c-0); the same under
 * spark-standalone and another role-blind policy, run after run. */
static void ps_tie(void)
{
	for (int run = 0; run < 2; run++) {
		struct scn *c;
		struct sim *s = h_run(TFOS "tie.yaml", "spark-standalone", 0, &c);
		CU_ASSERT_EQUAL(sim_job(s, 0)->end_us, S(53));
		CU_ASSERT_EQUAL(h_exec(0)->node, 0);
		CU_ASSERT_EQUAL(h_exec(1)->node, 1);
		CU_ASSERT_EQUAL(h_exec(1)->gpu_to_us, S(53)); /* the PS holds g-0's GPU */
		CU_ASSERT(h_exec(0)->played == 1 && h_exec(1)->played == 0);
		h_done(s, c);
		s = h_run_ops(TFOS "tie.yaml", &pair, 0, &c);
		CU_ASSERT_EQUAL(sim_job(s, 0)->end_us, S(53));
		CU_ASSERT_EQUAL(h_exec(1)->gpu_to_us, S(53));
		h_done(s, c);
		s = h_run(TFOS "tie-seed3.yaml", "spark-standalone", 0, &c);
		CU_ASSERT_EQUAL(sim_job(s, 0)->end_us, S(8));
		CU_ASSERT_EQUAL(h_exec(1)->gpus_took, 1);     /* the worker on g-0 ... */
		CU_ASSERT_EQUAL(h_exec(1)->gpu_to_us, S(7)); /* ... to its training's end */
		CU_ASSERT(h_exec(0)->played == 0 && h_exec(1)->played == 1);
		h_done(s, c);
		s = h_run_ops(TFOS "tie-seed3.yaml", &pair, 0, &c);
		CU_ASSERT_EQUAL(sim_job(s, 0)->end_us, S(8));
		h_done(s, c);
	}
}

/* steps trained = min(steps, ceil(samples x epochs / batch_size)). */
static void feed_steps(void)
{
	struct scn *c;
	struct sim *s = h_run(TFOS "steps.yaml", "fifo", 0, &c);
	const int64_t want[] = {S(6), S(106.01), S(210), S(301)};
	const int steps[] = {600, 601, 1000, 100};
	for (int g = 0; g < 4; g++) {
		CU_ASSERT_EQUAL(h_job(s, (const char[2]){(char)('a' + g), 0}, 0)->end_us, want[g]);
		const struct jm_mnist *p = sim_job_group(s, g)->params;
		CU_ASSERT_EQUAL(p->train_steps, steps[g]);
	}
	CU_ASSERT_EQUAL(((const struct jm_mnist *)sim_job_group(s, 0)->params)->samples, 60000);
	h_done(s, c);
}

/* GPU-blind stock runs TFoS v1.4.4 (nvidia-smi probes and their sleeps),
 * GPU-aware stock TFoS >= 2.2 (the GPU Spark assigned, no probe). */
static void versions(void)
{
	struct scn *c;
	struct sim *s = h_run(TFOS "gpu-aware.yaml", "blind", 0, &c);
	CU_ASSERT_EQUAL(h_job(s, "m", 0)->end_us, S(8));
	CU_ASSERT_EQUAL(h_job(s, "n", 0)->start_us, S(32));
	CU_ASSERT_EQUAL(h_job(s, "n", 0)->end_us, S(39));
	CU_ASSERT_EQUAL(h_exec(2)->gpus, 0);
	CU_ASSERT_EQUAL(h_exec(2)->ready_us, S(2));
	CU_ASSERT_EQUAL(h_exec(2)->gpu_from_us, S(32));
	h_done(s, c);
	s = h_run(TFOS "gpu-aware.yaml", "aware", 0, &c);
	CU_ASSERT_EQUAL(h_job(s, "m", 0)->end_us, S(8));
	CU_ASSERT_EQUAL(h_job(s, "n", 0)->start_us, S(9));
	CU_ASSERT_EQUAL(h_job(s, "n", 0)->end_us, S(16));
	CU_ASSERT_EQUAL(h_exec(2)->gpus, 1);        /* granted: n's PS too */
	CU_ASSERT_EQUAL(h_exec(2)->launch_us, S(8));
	CU_ASSERT_EQUAL(h_exec(2)->gpus_took, 0);
	h_done(s, c);
}

/* Bad values of the feed's keys: file:line:col and the bound. */
static void bad_keys(void)
{
	static const struct {
		const char *kv, *msg;
	} cases[] = {
		{"samples: 0", ":2:69: expected an integer >= 1, got '0'"},
		{"samples: 1000000001",
		 ":2:69: '1000000001' is above the limit of 1000000000 samples"},
		{"samples: many", ":2:69: expected an integer, got 'many'"},
		{"batch_size: 0", ":2:72: expected an integer >= 1, got '0'"},
		{"epochs: -1", ":2:68: expected an integer >= 1, got '-1'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char yaml[512];
		snprintf(yaml, sizeof yaml, "cluster: [{name: n, cores: 4, memory: 8GiB}]\n"
			 "workload: [{name: m, type: mnist_spark, worker: {gpus: 0}, %s}]\n"
			 "policies: [fifo]\n", cases[i].kv);
		h_expect_load_error(yaml, cases[i].msg);
	}
}

int test_suite_tfos(void)
{
	TEST_SUITE("tfos",
		   {"the PS is the first TF node up, not the one launched as PS", ps_first_up},
		   {"TF nodes up at once: the keyed draw picks the PS, any policy", ps_tie},
		   {"training ends with the feed: min(steps, samples x epochs / batch)",
		    feed_steps},
		   {"GPU-blind runs TFoS 1.4.4's probes, GPU-aware TFoS 2.2's assigned GPU",
		    versions},
		   {"bad samples, batch_size, epochs: file:line:col", bad_keys});
	return 0;
}
