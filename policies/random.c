/* random.c - the FGD study's Random baseline (../shared/reference/fgd.md
 * §4): the engine draws a feasible node uniformly (the keyed RNG), as the
 * artifact's RandomScore.PreScore does, so no tie rule applies, and a
 * share a uniformly random GPU that fits (allocateGpuIdBasedOnRandomFit;
 * docs/policies/fgd-artifact.md §4).
 * The engine, and the cost per decision: pods.c. */
#include "pol_common.h"
#include "pods.h"

static int64_t random_score(struct pods *p, const struct pod_node *v, const struct pod_req *r,
			    int *gpu)
{
	(void)p, (void)v, (void)r, (void)gpu;
	return 0;
}

static const struct pod_rules random_rules = {.score = random_score, .random_gpu = true};

POD_POLICY(pol_random, random_rules, pods_no_params, "random",
	   "FGD study baseline: a uniformly random feasible node (and GPU for a share)");
