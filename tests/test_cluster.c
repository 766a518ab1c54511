/* test_cluster.c - capacity accounting of nodes and cluster totals. */
#include "cluster.h"
#include "harness.h"
#include "scenario.h"
#include "test.h"

/* CPU in milli-cores: a scenario's cores times M */
#define M CLU_MILLI

static void accounting(void)
{
	struct scn *s = h_load("tests/scenarios/hand/dual-labels.yaml");
	struct clu c;
	clu_init(&c, s);
	CU_ASSERT_EQUAL(c.n, 2);
	CU_ASSERT_STRING_EQUAL(c.nodes[0].name, "cpu-0");
	CU_ASSERT_STRING_EQUAL(c.nodes[1].name, "gpu-0");
	CU_ASSERT_EQUAL(c.total_cores, 12 * M);
	CU_ASSERT_EQUAL(c.total_mem_mib, 32768);
	CU_ASSERT_EQUAL(c.total_gpus, 1);
	CU_ASSERT_STRING_EQUAL(c.nodes[1].gpu_model, "t4");
	/* labels: auto gives cpu to cpu-0, gpu and t4 to gpu-0 */
	int cpu = scn_label_index(s, "cpu"), gpu = scn_label_index(s, "gpu"),
	    t4 = scn_label_index(s, "t4");
	CU_ASSERT(cpu >= 0 && gpu >= 0 && t4 >= 0);
	CU_ASSERT(clu_has_labels(&c.nodes[0], 1ull << cpu));
	CU_ASSERT(!clu_has_labels(&c.nodes[0], 1ull << gpu));
	CU_ASSERT(clu_has_labels(&c.nodes[1], (1ull << gpu) | (1ull << t4)));

	clu_take(&c, 1, 3 * M, 4096, 1);
	CU_ASSERT_EQUAL(c.nodes[1].cores_free, 5 * M);
	CU_ASSERT_EQUAL(c.nodes[1].mem_free, 16384 - 4096);
	CU_ASSERT_EQUAL(c.nodes[1].gpus_free, 0);
	CU_ASSERT_EQUAL(c.free_cores, 9 * M);
	CU_ASSERT_EQUAL(c.free_mem_mib, 32768 - 4096);
	CU_ASSERT_EQUAL(c.free_gpus, 0);
	CU_ASSERT(!clu_fits(&c.nodes[1], 1 * M, 1, 1, true));     /* no GPU left */
	CU_ASSERT(clu_fits(&c.nodes[1], 5 * M, 12288, 0, true));
	CU_ASSERT(!clu_fits(&c.nodes[1], 6 * M, 1, 0, true));     /* cores */
	CU_ASSERT(clu_fits(&c.nodes[1], 5 * M - 1, 1, 0, true)); /* a milli-core below */
	CU_ASSERT(!clu_fits(&c.nodes[1], 5 * M + 1, 1, 0, true)); /* a milli-core above */
	CU_ASSERT(clu_fits(&c.nodes[1], 6 * M, 1, 0, false));     /* memory-only */
	CU_ASSERT(!clu_fits(&c.nodes[1], 0, 12289, 0, false)); /* memory is hard */

	/* oversubscribed cores: free goes negative, the total counts 0 */
	clu_take(&c, 0, 6 * M, 1024, 0);
	CU_ASSERT_EQUAL(c.nodes[0].cores_free, -2 * M);
	CU_ASSERT_EQUAL(c.free_cores, 5 * M);
	clu_give(&c, 0, 6 * M, 1024, 0);
	clu_give(&c, 1, 3 * M, 4096, 1);
	CU_ASSERT_EQUAL(c.free_cores, 12 * M);
	CU_ASSERT_EQUAL(c.free_mem_mib, 32768);
	CU_ASSERT_EQUAL(c.free_gpus, 1);
	clu_free(&c);
	scn_free(s);
}

int test_suite_cluster(void)
{
	TEST_SUITE("cluster", {"take, give, fit, totals, labels", accounting});
	return 0;
}
