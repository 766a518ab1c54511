/* test_accounting.c - every job accounted for: rejected jobs have no end
 * and no makespan, figures with nothing to measure are empty, each job
 * not done says why, `run` and `sweep` show the counts, `validate`
 * names the job groups a policy can never place, a scenario without a
 * cost model runs on the built-in one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models.h"
#include "registry.h"
#include "load.h"
#include "cmd.h"
#include "harness.h"
#include "metrics.h"
#include "plot.h"
#include "policy.h"
#include "scenario.h"
#include "sim.h"
#include "test.h"
#include "util.h"
#include "workload.h"

#define ACC "tests/scenarios/accounting/"

static const char *const four[] = {"fifo", "label-dual", "yarn", "spark-standalone"};

static int why_code(const struct scn *s, const char *name)
{
	char b[160];
	for (int k = 0; k < SIM_WHY_CODES; k++)
		if (strcmp(sim_why_name(s, k, b, sizeof b), name) == 0)
			return k;
	return -1;
}

/* A job rejected at its arrival at 100 s, under each policy: no start,
 * no end, its reason; the makespan is the small job's 4 s (hand-computed
 * in the scenario's comment), as if the late job had not come.  Under
 * yarn it fails at submission instead: failed, its end its arrival,
 * which leaves the makespan as it was too. */
static void reject_late(void)
{
	static const char *const why[] = {"memory", "memory", "max-allocation", "job-type"};
	for (int p = 0; p < 4; p++) {
		struct scn *c;
		struct sim *s = h_run(ACC "reject-late.yaml", four[p], 0, &c);
		const struct sim_job *late = h_job(s, "late", 0), *small = h_job(s, "small", 0);
		CU_ASSERT_EQUAL(small->status, JOB_DONE);
		CU_ASSERT_EQUAL(small->end_us, S(4));
		bool yarn = p == 2;
		CU_ASSERT_EQUAL(late->status, yarn ? JOB_FAILED : JOB_UNPLACEABLE);
		CU_ASSERT_EQUAL(late->arrival_us, S(100));
		CU_ASSERT_EQUAL(late->start_us, -1);
		CU_ASSERT_EQUAL(late->end_us, yarn ? S(100) : -1);
		CU_ASSERT_EQUAL(sim_job_why(s, late->id), why_code(c, why[p]));
		CU_ASSERT_EQUAL(sim_job_why(s, small->id), SIM_WHY_NONE);
		CU_ASSERT_EQUAL(h_makespan(s), S(4));
		struct met_run m;
		met_compute(s, &m);
		CU_ASSERT_DOUBLE_EQUAL(m.makespan_s, 4.0, 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(m.jct_mean_s, 4.0, 1e-12);
		CU_ASSERT_EQUAL(m.done, 1);
		CU_ASSERT_EQUAL(m.unplaceable, !yarn);
		CU_ASSERT_EQUAL(m.failed, yarn);
		CU_ASSERT_EQUAL(m.why[why_code(c, why[p])], 1);
		h_done(s, c);
	}
	/* jobs.csv: the late job's row has no start, end or JCT, and its reason */
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("run " ACC "reject-late.yaml -q -o /tmp/hetsim-acc-rl", &out, &err), 0);
	char *jobs = h_slurp("/tmp/hetsim-acc-rl/jobs.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jobs);
	CU_ASSERT_PTR_NOT_NULL(strstr(jobs, ",gpus,reason,trace_id\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(jobs, "\nfifo,0,1,late,0,angel,unplaceable,100.000000,,,,0,0,memory,\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(jobs, "\nyarn,0,1,late,0,angel,failed,100.000000,,100.000000,"
					    "0.000000,0,0,max-allocation,\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(jobs, "\nspark-standalone,0,1,late,0,angel,unplaceable,"
					    "100.000000,,,,0,0,job-type,\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(jobs, "\nfifo,0,0,small,0,synthetic,done,0.000000,0.000000,"
					    "4.000000,4.000000,1,0,,\n"));
	char *runs = h_slurp("/tmp/hetsim-acc-rl/runs.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	/* makespan 4; utilisation over the run's span, 0..100 s: 4 core-s of 800 */
	/* the one job done ran 4 s of its 4: slowdown 1, bounded 1 (4 < 10 s) */
	CU_ASSERT_PTR_NOT_NULL(strstr(runs, "\nreject-late,fifo,0,1,2,2,1,0,0,1,4.000000,4.000000,"
					    "4.000000,4.000000,4.000000,0.000000,1.000000,1.000000,"
					    "1.000000,1.000000,1.000000,1.000000,1.000000,1.000000,"
					    "0.005000,,0.005000,,"));
	free(jobs);
	free(runs);
	free(out);
	free(err);
	h_rmtree("/tmp/hetsim-acc-rl");
}

/* No job done: every figure that measures jobs is NaN (empty), the
 * counts are there, and each policy's reason. */
static void none_done(void)
{
	static const char *const why[] = {"memory", "memory", "max-allocation", "memory"};
	for (int p = 0; p < 4; p++) {
		struct scn *c;
		struct sim *s = h_run(ACC "none-done.yaml", four[p], 0, &c);
		struct met_run m;
		met_compute(s, &m);
		CU_ASSERT_EQUAL(m.counted, 3);
		CU_ASSERT_EQUAL(m.done, 0);
		bool yarn = p == 2; /* fails them at submission */
		CU_ASSERT_EQUAL(m.unplaceable, yarn ? 0 : 3);
		CU_ASSERT_EQUAL(m.failed, yarn ? 3 : 0);
		CU_ASSERT_EQUAL(m.why[why_code(c, why[p])], 3);
		CU_ASSERT(isnan(m.makespan_s));
		CU_ASSERT(isnan(m.jct_mean_s) && isnan(m.jct_p50_s) && isnan(m.jct_p95_s) &&
			  isnan(m.jct_p99_s));
		CU_ASSERT(isnan(m.wait_mean_s));
		CU_ASSERT(isnan(m.gpu_util) && isnan(m.gpu_alloc)); /* no GPU */
		CU_ASSERT_DOUBLE_EQUAL(m.cpu_util, 0.0, 0);
		for (int i = 0; i < sim_njobs(s); i++) /* yarn: at their arrivals, 0, 1, 2 s */
			CU_ASSERT_EQUAL(sim_job(s, i)->end_us, yarn ? S(i) : -1);
		h_done(s, c);
	}
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("run " ACC "none-done.yaml -o /tmp/hetsim-acc-nd", &out, &err), 0);
	char *runs = h_slurp("/tmp/hetsim-acc-nd/runs.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	CU_ASSERT_PTR_NOT_NULL(strstr(runs, "\nnone-done,fifo,0,1,3,3,0,0,0,3,,,,,,,,,,,,,,,0.000000,,"
					    "0.000000,,3,"));
	/* the table: "-" where nothing was measured, the counts, a warning each */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "none-done: means over 1 replication (seed 1), job counts "
					   "summed over it; change: makespan against fifo (the first "
					   "policy listed); files in /tmp/hetsim-acc-nd/\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nyarn                         -           -          -  "
					   "         -      -    0.0         -      0      3         0"
					   "           0\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nwarning: yarn: 3 of 3 counted jobs not done (3 failed, "
					   "0 timed out, 0 unplaceable); reason: max-allocation (3); no "
					   "job done: its job figures are empty\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nwarning: spark-standalone: 3 of 3 counted jobs not done "
					   "(0 failed, 0 timed out, 3 unplaceable); reason: memory (3)"));
	free(runs);
	free(out);
	free(err);
	h_rmtree("/tmp/hetsim-acc-nd");
}

/* A warm-up beyond the job count: nothing counted, the job figures
 * empty; the makespan and utilisation cover the whole run (14 s; 8
 * core-s busy of 4 cores x 14 s). */
static void warmup_beyond(void)
{
	struct scn *c;
	struct sim *s = h_run(ACC "warmup.yaml", "fifo", 0, &c);
	struct met_run m;
	met_compute(s, &m);
	CU_ASSERT_EQUAL(m.jobs, 2);
	CU_ASSERT_EQUAL(m.counted, 0);
	CU_ASSERT_EQUAL(m.done, 0);
	CU_ASSERT(isnan(m.jct_mean_s) && isnan(m.jct_p50_s) && isnan(m.jct_p95_s) &&
		  isnan(m.jct_p99_s) && isnan(m.wait_mean_s));
	for (int t = 0; t < JM_MODELS; t++)
		CU_ASSERT_EQUAL(m.type[t].done, 0);
	CU_ASSERT_EQUAL(m.type[JM_SYNTHETIC].jobs, 2);
	CU_ASSERT_EQUAL(m.type[JM_SYNTHETIC].counted, 0);
	CU_ASSERT(isnan(m.type[JM_SYNTHETIC].jct_mean_s) && isnan(m.type[JM_SYNTHETIC].wait_mean_s));
	CU_ASSERT_DOUBLE_EQUAL(m.makespan_s, 14.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(m.cpu_util, 8.0 / 56.0, 1e-12);
	h_done(s, c);
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("run " ACC "warmup.yaml -o /tmp/hetsim-acc-wu", &out, &err), 0);
	char *runs = h_slurp("/tmp/hetsim-acc-wu/runs.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	CU_ASSERT_PTR_NOT_NULL(strstr(runs, "\nwarmup,fifo,0,1,2,0,0,0,0,0,14.000000,,,,,,,,,,,,,,"
					    "0.142857,,0.142857,,6,4,0.000000,0.000000,0,0,0,1.000000,0,0,"
					    "0000000000000000\n")); /* no job counted: the empty set */
	/* types.csv: the jobs the warm-up left out, and nothing measured */
	char *types = h_slurp("/tmp/hetsim-acc-wu/types.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(types);
	CU_ASSERT_STRING_EQUAL(strchr(types, '\n') + 1, "warmup,fifo,0,synthetic,2,0,0,0,0,0,,,,,\n");
	free(types);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nnote: the warm-up (5 jobs) covers all 2 jobs: none is "
					   "counted, and the job figures are empty\n"));
	free(runs);
	free(out);
	free(err);
	h_rmtree("/tmp/hetsim-acc-wu");
}

/* `validate` warns, at the job group's position, per policy; exit 0,
 * and 1 with --strict. */
static void validate_warns(void)
{
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("validate " ACC "reject-late.yaml", &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(
		out,
		ACC "reject-late.yaml:22:5: warning: policy 'fifo' can never place job group 'late' "
		    "(memory): executor asks 1 core, 32 GiB; the nodes have at most 16 GiB memory\n"
		ACC "reject-late.yaml:22:5: warning: policy 'label-dual' can never place job group "
		    "'late' (memory): executor asks 1 core, 32 GiB; the nodes have at most 16 GiB "
		    "memory\n"
		ACC "reject-late.yaml:22:5: warning: policy 'yarn' can never place job group 'late' "
		    "(max-allocation): executor container of 36 GiB (its 32 GiB plus Spark's "
		    "overhead, in 1 GiB steps) is over yarn.scheduler.maximum-allocation-mb 8192\n"
		ACC "reject-late.yaml:22:5: warning: policy 'spark-standalone' can never place job "
		    "group 'late' (job-type): Spark-on-Angel has no standalone mode (its parameter "
		    "servers deploy on YARN or Kubernetes)\n"
		ACC "reject-late.yaml: ok, 4 warnings (2 nodes, 2 jobs, 4 policies, 1 replication)\n");
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("validate --strict " ACC "reject-late.yaml", &out, &err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ACC "reject-late.yaml: not ok under --strict, 4 warnings"));
	free(out);
	free(err);
	/* a scenario every policy can place: no warning, 0 even with --strict */
	CU_ASSERT_EQUAL(h_hetsim("validate --strict " ACC "warmup.yaml", &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(out, ACC "warmup.yaml: ok (1 nodes, 2 jobs, 1 policies, 1 replication)\n");
	free(out);
	free(err);
}

/* The run and validate verdicts agree, both ways: a job a policy's
 * can_ever_place rules out never runs under it, and an unplaceable job
 * has the verdict's reason; one the verdict does not rule out is
 * `never-placed`, which here happens only where label-dual without gang
 * lets a job hold the whole node while it waits for the rest
 * (whole.yaml: 3 jobs). */
static void verdicts_agree(void)
{
	static const char *const files[] = {ACC "reject-late.yaml", ACC "none-done.yaml",
					    ACC "whole.yaml", ACC "timeout-only.yaml",
					    ACC "yarn-small.yaml",
					    "tests/scenarios/writer/mixed-10k.yaml",
					    "tests/scenarios/hand/yarn-am.yaml"};
	int never = 0;
	for (int f = 0; f < ARRAY_LEN(files); f++) {
		struct scn *c = h_load(files[f]);
		for (int p = 0; p < c->npolicies; p++) {
			const struct policy_ops *ops = pol_find(c->policies[p].kind);
			CU_ASSERT_PTR_NOT_NULL_FATAL(ops->can_ever_place);
			char err[256];
			struct sim *s = sim_new(c, &c->policies[p], 0, err, sizeof err);
			CU_ASSERT_EQUAL_FATAL(sim_run(s), 0);
			for (int i = 0; i < sim_njobs(s); i++) {
				const struct sim_job *j = sim_job(s, i);
				struct sim_shape sh;
				struct pol_verdict v;
				sim_group_shape(c, j->group, &sh);
				ops->can_ever_place(&c->policies[p], c, j->group, &sh, &v);
				if (j->status == JOB_UNPLACEABLE && v.why == SIM_WHY_NONE) {
					CU_ASSERT_EQUAL(sim_job_why(s, i), SIM_WHY_NEVER_PLACED);
					never++;
				}
				if (v.why == SIM_WHY_NONE)
					continue;
				CU_ASSERT_NOT_EQUAL(j->status, JOB_DONE);
				if (j->status == JOB_UNPLACEABLE)
					CU_ASSERT_EQUAL(sim_job_why(s, i), v.why);
			}
			sim_free(s);
		}
		scn_free(c);
	}
	CU_ASSERT_EQUAL(never, 3);
}

/* Roles that fit one by one but not together (whole.yaml): fifo and
 * label-dual with gang reject the job at arrival (capacity), and the
 * small jobs behind it run, 1..5 s; validate warns for those two. */
static void whole_job_capacity(void)
{
	static const char *const pols[] = {"fifo", "label-dual"};
	for (int p = 0; p < 2; p++) {
		struct scn *c;
		struct sim *s = h_run(ACC "whole.yaml", pols[p], 0, &c);
		CU_ASSERT_EQUAL(h_job(s, "ang", 0)->status, JOB_UNPLACEABLE);
		CU_ASSERT_EQUAL(sim_job_why(s, h_job(s, "ang", 0)->id), SIM_WHY_CAPACITY);
		CU_ASSERT_EQUAL(h_job(s, "small", 0)->end_us, S(5));
		CU_ASSERT_EQUAL(h_job(s, "small", 1)->end_us, S(5));
		CU_ASSERT_EQUAL(h_makespan(s), S(5));
		h_done(s, c);
	}
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("validate " ACC "whole.yaml", &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(
		out,
		ACC "whole.yaml:14:5: warning: policy 'fifo' can never place job group 'ang' "
		    "(capacity): its executors, placed all at once, ask 5 cores; the nodes that may "
		    "host them have 4\n"
		ACC "whole.yaml:14:5: warning: policy 'label-dual' can never place job group 'ang' "
		    "(capacity): its executors, placed all at once, ask 5 cores; the nodes that may "
		    "host them have 4\n"
		ACC "whole.yaml: ok, 2 warnings (1 nodes, 3 jobs, 3 policies, 1 replication)\n");
	free(out);
	free(err);
}

/* Jobs that all timed out finished nothing: no makespan, no change
 * against the baseline, in the table and in summary.csv; yarn, done
 * at 54 s in both replications, is the baseline. */
static void timed_out_only(void)
{
	struct scn *c;
	struct sim *s = h_run(ACC "timeout-only.yaml", "spark-standalone", 0, &c);
	struct met_run m;
	met_compute(s, &m);
	CU_ASSERT_EQUAL(m.timed_out, 1);
	CU_ASSERT_EQUAL(h_job(s, "m", 0)->end_us, S(20)); /* it gave up then */
	CU_ASSERT(isnan(m.makespan_s));
	h_done(s, c);
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("run " ACC "timeout-only.yaml -o /tmp/hetsim-acc-to", &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nyarn                    54.000      54.000     54.000"
					   "       2.000      -    0.0  baseline      2      0         0"
					   "           0\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nspark-standalone             -           -          -"
					   "           -      -    0.0         -      0      0         2"
					   "           0\n"));
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("sweep " ACC "timeout-only.yaml -q -j 1 -o /tmp/hetsim-acc-to",
				 &out, &err), 0);
	char *sum = h_slurp("/tmp/hetsim-acc-to/summary.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
	CU_ASSERT_PTR_NULL(strstr(sum, ",spark-standalone,0,2,makespan_s,"));
	CU_ASSERT_PTR_NULL(strstr(sum, ",makespan_change_pct,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum, ",spark-standalone,0,2,timed_out,1.000000,"));
	free(sum);
	free(out);
	free(err);
	h_rmtree("/tmp/hetsim-acc-to");
}

/* The reasons pol_feasible gives, in its order: a label no node carries,
 * memory, cores, GPUs, capacity. */
static void feasibility_reasons(void)
{
	struct scn *c = h_load("tests/scenarios/ok/full.yaml");
	struct sim_shape sh;
	struct pol_verdict v;
	const struct policy_ops *dual = pol_find("label-dual"), *fifo = pol_find("fifo");
	struct scn_policy dcfg = {.name = "label-dual", .kind = "label-dual"},
			  fcfg = {.name = "fifo", .kind = "fifo"};
	int mnist = 1;
	CU_ASSERT_STRING_EQUAL(c->jobs[mnist].name, "mnist");
	sim_group_shape(c, mnist, &sh);
	/* the workers require gpu and v100: the gpu nodes have 1.5 GiB */
	dual->can_ever_place(&dcfg, c, mnist, &sh, &v);
	CU_ASSERT_EQUAL(v.why, SIM_WHY_MEMORY);
	/* label-dual's rules without labels: a node with 3 GiB and a GPU? none */
	fifo->can_ever_place(&fcfg, c, mnist, &sh, &v);
	CU_ASSERT_EQUAL(v.why, SIM_WHY_GPUS);
	CU_ASSERT_STRING_EQUAL(v.detail, "worker executor asks 1 core, 3 GiB, 1 GPU; the nodes have "
					 "at most 0 GPUs with those cores and memory");
	/* a label no node carries */
	sh.role[1].require |= UINT64_C(1) << scn_label_index(c, "fast");
	sh.role[1].mem_mib = 1024;
	dual->can_ever_place(&dcfg, c, mnist, &sh, &v);
	CU_ASSERT_EQUAL(v.why, SIM_WHY_LABEL(scn_label_index(c, "fast")));
	CU_ASSERT_STRING_EQUAL(v.detail, "worker executor requires label 'fast', which no node "
					 "carries with the others it requires");
	/* more cores than any node: 64 > 32 (a shape's are milli-cores) */
	sh.role[1].require = 0;
	sh.role[1].gpus = 0;
	sh.role[1].cores = 64 * CLU_MILLI;
	fifo->can_ever_place(&fcfg, c, mnist, &sh, &v);
	CU_ASSERT_EQUAL(v.why, SIM_WHY_CORES);
	/* capacity: 100 workers of 32 cores; the empty cluster holds 1 (the big node) */
	sh.role[1].cores = 32 * CLU_MILLI;
	sh.role[1].count = 100;
	fifo->can_ever_place(&fcfg, c, mnist, &sh, &v);
	CU_ASSERT_EQUAL(v.why, SIM_WHY_CAPACITY);
	CU_ASSERT_STRING_EQUAL(v.detail, "100 worker executors of 32 cores, 1 GiB; the empty "
					 "cluster holds 1 of them");
	char b[160];
	CU_ASSERT_STRING_EQUAL(sim_why_name(c, SIM_WHY_LABEL(scn_label_index(c, "v100")), b,
					    sizeof b), "label:v100");
	CU_ASSERT_STRING_EQUAL(sim_why_name(c, SIM_WHY_TIMEOUT, b, sizeof b), "reservation-timeout");
	CU_ASSERT_STRING_EQUAL(sim_why_name(c, SIM_WHY_GPU_RETRIES, b, sizeof b), "gpu-retries");
	scn_free(c);
}

/* A timed-out and a failed job say why in jobs.csv. */
static void timeout_and_failure_reasons(void)
{
	struct scn *c;
	struct sim *s = h_run("tests/scenarios/hand/standalone-timeout.yaml", "spark-standalone", 0, &c);
	int timed_out = 0;
	for (int i = 0; i < sim_njobs(s); i++)
		if (sim_job(s, i)->status == JOB_TIMED_OUT) {
			CU_ASSERT_EQUAL(sim_job_why(s, i), SIM_WHY_TIMEOUT);
			CU_ASSERT(sim_job(s, i)->end_us > 0); /* it gave up then: that end counts */
			timed_out++;
		}
	CU_ASSERT(timed_out > 0);
	h_done(s, c);
	s = h_run("tests/scenarios/hand/standalone-gpu-fail.yaml", "spark-standalone", 0, &c);
	int failed = 0;
	for (int i = 0; i < sim_njobs(s); i++)
		if (sim_job(s, i)->status == JOB_FAILED) {
			CU_ASSERT_EQUAL(sim_job_why(s, i), SIM_WHY_GPU_RETRIES);
			failed++;
		}
	CU_ASSERT(failed > 0);
	h_done(s, c);
}

/* sweep: the counts in summary.csv, the paired change against the
 * baseline with the baseline named, --baseline, a bad --baseline. */
static void sweep_counts_and_change(void)
{
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("sweep " ACC "reject-late.yaml -j 1 -r 2 -o /tmp/hetsim-acc-sw",
				 &out, &err), 0);
	char *sum = h_slurp("/tmp/hetsim-acc-sw/summary.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
	static const char hdr[] = "scenario,policy,point,replications,metric,mean,sd,ci95_half,"
				  "ci95_lo,ci95_hi,baseline\n";
	CU_ASSERT(strncmp(sum, hdr, strlen(hdr)) == 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\nreject-late,yarn,0,2,done,1.000000,0.000000,0.000000,"
					   "1.000000,1.000000,\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\nreject-late,yarn,0,2,failed,1.000000,0.000000,"
					   "0.000000,1.000000,1.000000,\n"));
	/* same makespan: a change of 0 against fifo, the first policy */
	CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\nreject-late,yarn,0,2,makespan_change_pct,0.000000,"
					   "0.000000,0.000000,0.000000,0.000000,fifo\n"));
	CU_ASSERT_PTR_NULL(strstr(sum, "\nreject-late,fifo,0,2,makespan_change_pct,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "change: makespan against fifo (the first policy listed)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nfifo                   0        4.000        0.000  baseline"
					   "         1 of 2     2\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nyarn                   0        4.000        0.000      +0.0"
					   "         1 of 2     2\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nwarning: yarn at point 0: 1 of 2 jobs per replication "
					   "not done (1 failed, 0 timed out, 0 unplaceable)\n"));
	free(sum);
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("sweep " ACC "reject-late.yaml -j 1 -q --baseline yarn -o "
				 "/tmp/hetsim-acc-sw", &out, &err), 0);
	sum = h_slurp("/tmp/hetsim-acc-sw/summary.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\nreject-late,fifo,0,1,makespan_change_pct,0.000000,"
					   "0.000000,,,,yarn\n"));
	CU_ASSERT_PTR_NULL(strstr(sum, "\nreject-late,yarn,0,1,makespan_change_pct,"));
	free(sum);
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("sweep " ACC "reject-late.yaml -q --baseline nope -o "
				 "/tmp/hetsim-acc-sw2", &out, &err), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim sweep: option '--baseline': policy 'nope' is not run "
				    "(run: the scenario's policies, or those of --policy)\n");
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("run " ACC "reject-late.yaml -q --baseline nope -o "
				 "/tmp/hetsim-acc-sw2", &out, &err), 2);
	CU_ASSERT_STRING_EQUAL(err, "hetsim run: option '--baseline': policy 'nope' is not run "
				    "(run: fifo, label-dual, yarn, spark-standalone)\n");
	free(out);
	free(err);
	h_rmtree("/tmp/hetsim-acc-sw");
}

/* run --baseline: the change column against the named policy. */
static void run_baseline(void)
{
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("run tests/scenarios/hand/angel.yaml --baseline label-dual -o "
				 "/tmp/hetsim-acc-bl", &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "change: makespan against label-dual (--baseline)"));
	/* yarn 5 s against label-dual's 4 s: +25 %; label-dual is the baseline */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nyarn                     5.000       5.000      5.000"
					   "       2.000      -   10.0    +25.0%      1      0         0"
					   "           0\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "  baseline      1      0         0           0\n"));
	free(out);
	free(err);
	h_rmtree("/tmp/hetsim-acc-bl");
}

/* A scenario without cost_model runs on the built-in default: the same
 * model as calibrate/models/default.yaml, the same results, and a note. */
static void builtin_cost_model(void)
{
	FILE *f = fopen("/tmp/hetsim-acc-nocm.yaml", "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	char *text = h_slurp("scenarios/paper-mixed.yaml", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	char *cm = strstr(text, "cost_model:");
	CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
	fwrite(text, 1, (size_t)(cm - text), f);
	fputs(strchr(cm, '\n') + 1, f);
	fclose(f);
	free(text);
	struct scn *a = h_load("/tmp/hetsim-acc-nocm.yaml"), *b = h_load("scenarios/paper-mixed.yaml");
	CU_ASSERT(a->cost.builtin);
	CU_ASSERT(!b->cost.builtin);
	CU_ASSERT_PTR_NULL(a->cost.path);
	CU_ASSERT_EQUAL(a->cost.task_overhead_us, b->cost.task_overhead_us);
	CU_ASSERT_EQUAL_FATAL(a->cost.nkernels, b->cost.nkernels);
	for (int k = 0; k < a->cost.nkernels; k++) {
		const struct scn_cost_kernel *x = &a->cost.kernels[k], *y = &b->cost.kernels[k];
		CU_ASSERT_STRING_EQUAL(x->name, y->name);
		CU_ASSERT_STRING_EQUAL(x->unit, y->unit);
		CU_ASSERT_EQUAL(x->noise, y->noise);
		CU_ASSERT_EQUAL(x->noise_cv, y->noise_cv);
		CU_ASSERT_EQUAL_FATAL(x->ndevs, y->ndevs);
		for (int d = 0; d < x->ndevs; d++) {
			CU_ASSERT_STRING_EQUAL(x->devs[d].device, y->devs[d].device);
			CU_ASSERT_EQUAL(x->devs[d].intercept_us, y->devs[d].intercept_us);
			CU_ASSERT_EQUAL(x->devs[d].slope_us, y->devs[d].slope_us);
		}
	}
	scn_free(a);
	scn_free(b);
	/* the compiled-in text is the file's, byte for byte */
	char *file = h_slurp(SCN_DEFAULT_MODEL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(file);
	CU_ASSERT_STRING_EQUAL(scn_default_model_yaml, file);
	free(file);
	/* a scenario that needs no cost model gets none */
	struct scn *d = h_load("tests/scenarios/hand/dag.yaml");
	CU_ASSERT(!d->cost.builtin);
	CU_ASSERT_EQUAL(d->cost.nkernels, 0);
	scn_free(d);
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("run /tmp/hetsim-acc-nocm.yaml -r 1 -p label-dual -o "
				 "/tmp/hetsim-acc-cm", &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "note: /tmp/hetsim-acc-nocm.yaml names no cost_model: "
					   "using the built-in default, the assumed figures of "
					   "calibrate/models/default.yaml\n"));
	char *x = h_slurp("/tmp/hetsim-acc-cm/runs.csv", NULL);
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("run scenarios/paper-mixed.yaml -r 1 -p label-dual -q -o "
				 "/tmp/hetsim-acc-cm", &out, &err), 0);
	char *y = h_slurp("/tmp/hetsim-acc-cm/runs.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_PTR_NOT_NULL_FATAL(y);
	CU_ASSERT_STRING_EQUAL(x, y);
	free(x);
	free(y);
	free(out);
	free(err);
	remove("/tmp/hetsim-acc-nocm.yaml");
	h_rmtree("/tmp/hetsim-acc-cm");
}

/* The change of makespan pairs only replications where both policies
 * finished the same jobs (plot_paired_changes), by hand: r0 +25 %,
 * r1 +100 %, r2 (no makespan) and r3 (other jobs done: left out, counted
 * in *left) not; with no sets, r3 counts too (+100 %). */
static void change_same_jobs(void)
{
	const double x[] = {10, 20, NAN, 30}, base[] = {8, 10, 5, 15};
	const uint64_t xs[] = {1, 2, 3, 9}, bs[] = {1, 2, 3, 4};
	double out[4];
	int left = -1;
	CU_ASSERT_EQUAL(plot_paired_changes(x, base, xs, bs, 4, out, &left), 2);
	CU_ASSERT_DOUBLE_EQUAL(out[0], 25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(out[1], 100, 1e-12);
	CU_ASSERT_EQUAL(left, 1);
	CU_ASSERT_EQUAL(plot_paired_changes(x, base, NULL, NULL, 4, out, &left), 3);
	CU_ASSERT_DOUBLE_EQUAL(out[2], 100, 1e-12);
	CU_ASSERT_EQUAL(left, 0);
}

/* A policy that finished other jobs than the baseline has no change
 * (other-jobs.yaml, by hand there): "-" and its footnote in run's table
 * though both makespans are 10 s; no makespan_change_pct row in sweep's
 * summary.csv, and "-" in its table; the note that the replications are
 * alike. */
static void change_other_jobs(void)
{
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("run " ACC "other-jobs.yaml -r 2 -o /tmp/hetsim-acc-oj", &out,
				 &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nyarn                    10.000      10.000     10.000"
					   "       0.000      -   12.5         -      2      2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nchange -: yarn finished other jobs than fifo in every "
					   "replication with a makespan: its makespan is of other "
					   "work, no change\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nnote: the 2 replications of each policy are alike"));
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("sweep " ACC "other-jobs.yaml -r 2 -q -o /tmp/hetsim-acc-ojs",
				 &out, &err), 0);
	char *sum = h_slurp("/tmp/hetsim-acc-ojs/summary.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
	CU_ASSERT_PTR_NULL(strstr(sum, "makespan_change_pct"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\nother-jobs,yarn,0,2,makespan_s,10.000000,"));
	free(sum);
	free(out);
	free(err);
	h_rmtree("/tmp/hetsim-acc-oj");
	h_rmtree("/tmp/hetsim-acc-ojs");
}

int test_suite_accounting(void)
{
	TEST_SUITE("accounting",
		   {"a job rejected late: no end, makespan unchanged, 4 policies", reject_late},
		   {"no job done: empty figures, counts, warnings", none_done},
		   {"a warm-up beyond the job count: empty job figures", warmup_beyond},
		   {"validate names what can never be placed; --strict", validate_warns},
		   {"can_ever_place and the run agree", verdicts_agree},
		   {"roles that fit one by one, not together: capacity", whole_job_capacity},
		   {"jobs that all timed out: no makespan, no change", timed_out_only},
		   {"feasibility: label, memory, cores, GPUs, capacity", feasibility_reasons},
		   {"timed out and failed jobs say why", timeout_and_failure_reasons},
		   {"sweep: counts, paired change, --baseline", sweep_counts_and_change},
		   {"run --baseline", run_baseline},
		   {"a change pairs replications of the same jobs done", change_same_jobs},
		   {"a policy that finished other jobs: no change", change_other_jobs},
		   {"no cost_model: the built-in default", builtin_cost_model});
	return 0;
}
