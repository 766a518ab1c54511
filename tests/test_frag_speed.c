/* test_frag_speed.c - policies on pods each of its own demand, past the
 * indexes' trees (issue 34): the work of first fit's misses
 * (pol_firstfit.h), tetris's best nodes of scanned groups and easy's
 * tries on the extra resources, each looking again only at the nodes
 * changed since it last looked, against what a scan of every node does.
 * The placements equal the plain scan's: index-distinct.yaml and
 * index-frag.yaml under index_same_as_scan (test_policies.c). */
#include "test.h"

#include <stdint.h>

#include "harness.h"
#include "pol_common.h"
#include "sim.h"

#define DISTINCT "tests/scenarios/hand/index-distinct.yaml"
#define FRAG "tests/scenarios/hand/index-frag.yaml"

/* One run of scenario `path` under `pol`: the work it counted. */
static void run(const char *path, const char *pol, struct pol_work *w)
{
	struct scn *scn;
	pol_work = (struct pol_work){0};
	struct sim *s = h_run(path, pol, 0, &scn);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	*w = pol_work;
	h_done(s, scn);
}

/* drf and sjf: most first executors follow a miss and are answered from
 * the nodes changed since; the nodes tested a try, against the scan's
 * all (9 nodes: index-distinct; 40: index-frag).  Measured, drf: 74 926
 * nodes for 24 514 tries on index-distinct (218 906 without the misses
 * remembered), 1 020 701 for 472 274 on index-frag. */
static void ff_misses(void)
{
	static const char *const pols[] = {"drf", "sjf"};
	for (int k = 0; k < 2; k++) {
		struct pol_work w;
		run(DISTINCT, pols[k], &w);
		CU_ASSERT(w.ff_scans > 20000);
		CU_ASSERT(w.ff_by_log * 10 >= w.ff_scans * 9);
		CU_ASSERT(w.ff_tests <= 4 * w.ff_scans);
		run(FRAG, pols[k], &w);
		CU_ASSERT(w.ff_scans > 400000);
		CU_ASSERT(w.ff_by_log * 100 >= w.ff_scans * 95);
		CU_ASSERT(w.ff_tests <= 3 * w.ff_scans);
	}
}

/* tetris: a scanned group's best node from its top nodes and the nodes
 * changed since, the whole scan (40 nodes) only when those run out.
 * Measured: 958 546 alignments for 169 774 best nodes asked. */
static void tetris_best(void)
{
	struct pol_work w;
	run(FRAG, "tetris", &w);
	CU_ASSERT(w.tetris_best > 100000);
	CU_ASSERT(w.tetris_evals <= 8 * w.tetris_best);
}

/* easy: a job behind the head that must fit the extra resources is
 * tried against the nodes only when its first executor fits some node
 * now (pol_ff_can_start).  Measured: 806 285 nodes tested for 668 196
 * such jobs; the scan of the 40 nodes each tested 40 a job that fails. */
static void easy_extra(void)
{
	struct pol_work w;
	run(FRAG, "easy", &w);
	CU_ASSERT(w.easy_extra > 500000);
	CU_ASSERT(w.easy_extra_tests <= 2 * w.easy_extra);
}

/* label-dual's best fit and spark-standalone's usable workers, scanned
 * past their indexes' shapes: after a miss only the nodes changed since
 * are read, where the scan reads all 40.  Measured: 1 021 438 nodes for
 * 676 312 looks (label-dual), 1 020 630 for 664 475 (spark-standalone). */
static void dual_sa_misses(void)
{
	struct pol_work w;
	run(FRAG, "label-dual", &w);
	CU_ASSERT(w.dual_scans > 500000);
	CU_ASSERT(w.dual_tests <= 2 * w.dual_scans);
	run(FRAG, "spark-standalone", &w);
	CU_ASSERT(w.sa_scans > 500000);
	CU_ASSERT(w.sa_tests <= 2 * w.sa_scans);
}

/* tiresias: a segment's signature that missed before is left out at
 * once where no node moved since (or special now) fits it, and a try
 * scans every node only when none is remembered.  Measured: 1 273 355
 * such signatures met, 1 075 571 left out, 1 211 scans of the 40 nodes
 * (every signature met used to be tried, each miss a scan). */
static void tiresias_misses(void)
{
	struct pol_work w;
	run(FRAG, "tiresias", &w);
	CU_ASSERT(w.tir_missed > 1000000);
	CU_ASSERT(w.tir_left_out * 10 >= w.tir_missed * 8);
	CU_ASSERT(w.tir_scans * 100 <= w.tir_missed);
}

int test_suite_frag_speed(void)
{
	TEST_SUITE("frag_speed",
		   {"first fit: misses answered from the nodes changed since (drf, sjf)", ff_misses},
		   {"tetris: best nodes from the top and the nodes changed since", tetris_best},
		   {"easy: tries on the extra resources only where the job can start",
		    easy_extra},
		   {"label-dual, spark-standalone: after a miss, the nodes changed since",
		    dual_sa_misses},
		   {"tiresias: signatures that missed left out where nothing moved fits",
		    tiresias_misses});
	return 0;
}
