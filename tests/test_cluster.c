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

	uint64_t taken = clu_take(&c, 1, 3 * M, 4096, 1);
	CU_ASSERT_EQUAL(taken, 1); /* GPU 0, the lowest-indexed idle one */
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
	clu_give(&c, 1, 3 * M, 4096, taken);
	CU_ASSERT_EQUAL(c.free_cores, 12 * M);
	CU_ASSERT_EQUAL(c.free_mem_mib, 32768);
	CU_ASSERT_EQUAL(c.free_gpus, 1);
	clu_free(&c);
	scn_free(s);
}

/* GPU shares and whole GPUs on one node of 4 GPUs (1000 milli-GPUs
 * each): shares go by best fit (the least free that holds them, the
 * lowest index on ties), whole GPUs to the lowest-indexed idle ones
 * (fgd.md §4); a GPU with a share is not idle. */
static void gpu_shares(void)
{
	struct scn_node_group g = {.name = "g", .count = 1, .cores = 8, .mem_mib = 8192,
				   .gpus = 4, .gpu_model = "t4", .cpu_speed = 1};
	struct scn s = {.groups = &g, .ngroups = 1};
	struct clu c;
	clu_init(&c, &s);
	struct clu_node *n = &c.nodes[0];
	CU_ASSERT_EQUAL(n->gpu_idle, 0xf);
	/* 300: all four idle, the lowest index */
	CU_ASSERT_EQUAL(clu_share_pick(n, 300), 0);
	clu_take_share(&c, 0, 500, 100, 0, 300);
	CU_ASSERT_EQUAL(clu_gpu_free(n, 0), 700);
	CU_ASSERT_EQUAL(n->gpus_free, 3);
	CU_ASSERT_EQUAL(c.free_gpus, 3);
	CU_ASSERT_EQUAL(n->gpu_idle, 0xe);
	CU_ASSERT_EQUAL(n->cores_free, 8 * M - 500);
	/* 800: GPU 0's 700 does not hold it; GPU 1 */
	CU_ASSERT_EQUAL(clu_share_pick(n, 800), 1);
	clu_take_share(&c, 0, 0, 0, 1, 800);
	/* 600: GPU 0 (700 free) beats GPUs 2 and 3 (1000): the least that holds it */
	CU_ASSERT_EQUAL(clu_share_pick(n, 600), 0);
	clu_take_share(&c, 0, 0, 0, 0, 600);
	CU_ASSERT_EQUAL(clu_gpu_free(n, 0), 100);
	CU_ASSERT(clu_fits_share(n, 1, 1, 200, true));  /* GPU 1: 200 free */
	CU_ASSERT_EQUAL(clu_share_pick(n, 200), 1);
	CU_ASSERT_EQUAL(clu_share_pick(n, 101), 1);
	CU_ASSERT_EQUAL(clu_share_pick(n, 100), 0);  /* exactly GPU 0's */
	/* two whole GPUs: the idle ones, 2 and 3; then none is idle */
	CU_ASSERT(clu_fits(n, 0, 0, 2, true));
	CU_ASSERT(!clu_fits(n, 0, 0, 3, true));
	uint64_t w = clu_take(&c, 0, 2 * M, 1024, 2);
	CU_ASSERT_EQUAL(w, 0xc);
	CU_ASSERT_EQUAL(n->gpus_free, 0);
	CU_ASSERT_EQUAL(n->gpu_idle, 0);
	CU_ASSERT_EQUAL(clu_share_pick(n, 300), -1);
	CU_ASSERT(!clu_fits_share(n, 1, 1, 300, true));
	/* GPU 0's shares back: idle again, and whole GPUs see it */
	clu_give_share(&c, 0, 500, 100, 0, 300);
	clu_give_share(&c, 0, 0, 0, 0, 600);
	CU_ASSERT_EQUAL(clu_gpu_free(n, 0), 1000);
	CU_ASSERT_EQUAL(n->gpus_free, 1);
	CU_ASSERT_EQUAL(n->gpu_idle, 0x1);
	CU_ASSERT_EQUAL(clu_take_at(&c, 0, 0, 0, 1, 0), 0x1);
	clu_give(&c, 0, 0, 0, 0x1);
	clu_give(&c, 0, 2 * M, 1024, w);
	clu_give_share(&c, 0, 0, 0, 1, 800);
	CU_ASSERT_EQUAL(n->gpus_free, 4);
	CU_ASSERT_EQUAL(c.free_gpus, 4);
	CU_ASSERT_EQUAL(n->cores_free, 8 * M);
	CU_ASSERT_EQUAL(n->mem_free, 8192);
	/* named whole GPUs: 1 and 3 */
	CU_ASSERT_EQUAL(clu_take_at(&c, 0, 0, 0, 2, 0xa), 0xa);
	CU_ASSERT_EQUAL(n->gpu_idle, 0x5);
	clu_give(&c, 0, 0, 0, 0xa);
	clu_free(&c);
}

int test_suite_cluster(void)
{
	TEST_SUITE("cluster", {"take, give, fit, totals, labels", accounting},
		   {"GPU shares by best fit, whole GPUs lowest-indexed idle", gpu_shares});
	return 0;
}
