/* test_gang.c - a job model the stock policies have never heard of
 * (tests/model_gang.c: a coordinator and its workers, all up before any
 * task) runs under yarn, spark-standalone and label-dual, each placing
 * it from its shape alone (issue 29: no policy names a model).  The
 * times are worked out by hand in tests/data/models/gang.yaml. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "model_gang.h"
#include "models.h"
#include "sim.h"
#include "test.h"

#define GANG "tests/data/models/gang.yaml"

static void add_gang(void)
{
	if (!jm_find("gang", NULL))
		CU_ASSERT_FATAL(jm_add(&jm_gang) >= 0);
}

/* Each executor of job 0 in launch order, as the run released them
 * (harness.h's record): "node:role:MiB". */
static void execs_of(const struct sim *s, char *buf, size_t len)
{
	const struct sim_job *j = sim_job(s, 0);
	buf[0] = '\0';
	for (int k = 0; k < h_nexecs(); k++) {
		const struct sim_exec *x = h_exec(k);
		if (x->job == j->id)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s:%s:%lld",
				 *buf ? " " : "", sim_cluster(s)->nodes[x->node].name,
				 sim_role_name(j->shape, x->role), (long long)x->mem_mib);
	}
}

static void check(const char *policy, const char *execs, double start, double end)
{
	struct scn *c;
	struct sim *s = h_run(GANG, policy, 0, &c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	char buf[512];
	execs_of(s, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, execs);
	const struct sim_job *j = sim_job(s, 0);
	CU_ASSERT_EQUAL(j->status, JOB_DONE);
	CU_ASSERT_EQUAL(j->start_us, S(start));
	CU_ASSERT_EQUAL(j->end_us, S(end));
	if (strcmp(buf, execs) || j->end_us != S(end))
		fprintf(stderr, "\n%s: %s, %lld..%lld\n", policy, buf, (long long)j->start_us,
			(long long)j->end_us);
	h_done(s, c);
}

static void gang_yarn(void)
{
	add_gang();
	check("yarn", "n-0:am:2048 n-1:coordinator:2048 n-2:worker:5120 n-0:worker:5120", 2, 12);
}

static void gang_standalone(void)
{
	add_gang();
	check("spark-standalone", "n-1:coordinator:1024 n-2:worker:1024 n-0:worker:1024", 1, 11);
}

static void gang_label_dual(void)
{
	add_gang();
	check("label-dual", "n-0:coordinator:1024 n-0:worker:4096 n-1:worker:4096", 1, 11);
}

/* What the policies read of it, and the loader's lists: it is known
 * where a built-in model is (its keys, `type:`), by the name it gave. */
static void gang_shape(void)
{
	add_gang();
	struct scn *c;
	struct sim *s = h_run(GANG, "label-dual", 0, &c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	const struct sim_shape *sh = sim_job(s, 0)->shape;
	CU_ASSERT(sh->rigid && !sh->one_profile);
	CU_ASSERT_EQUAL(sh->nmasters, 1);
	CU_ASSERT_EQUAL(sh->master[0].mem_mib, 1536);
	CU_ASSERT(sh->master[0].mem_as_is);
	CU_ASSERT_STRING_EQUAL(sim_role_name(sh, 0), "coordinator");
	CU_ASSERT_STRING_EQUAL(sim_role_what(sh, 1), "worker");
	CU_ASSERT_STRING_EQUAL(sim_role_name(sh, SIM_ROLE_AM), "am");
	CU_ASSERT_STRING_EQUAL(sim_app_name(sh), "the gang job");
	h_done(s, c);
	CU_ASSERT_EQUAL(jm_add(&jm_gang), -1); /* its name is taken */
	CU_ASSERT_STRING_EQUAL(jm_name(jm_count() - 1), "gang");
}

int test_suite_gang(void)
{
	TEST_SUITE("gang", {"a new model under yarn: its master, roles by their own sizes", gang_yarn},
		   {"under spark-standalone: one executor size, the first role's", gang_standalone},
		   {"under label-dual: each role its own size", gang_label_dual},
		   {"what the policies read of it; known as the built-in ones are", gang_shape});
	return 0;
}
