/* random.c - the FGD study's Random baseline (../shared/reference/fgd.md
 * §4): every feasible node scores alike, the engine draws one uniformly
 * (the keyed RNG), and a share a uniformly random GPU that fits
 * (docs/policies/fgd.md).  The engine: pods.c. */
#include "pol_common.h"
#include "pods.h"

static int64_t random_score(struct pods *p, const struct pod_node *v, const struct pod_req *r,
			    int *gpu)
{
	(void)p, (void)v, (void)r, (void)gpu;
	return 0;
}

static const struct pod_rules random_rules = {.score = random_score, .random_gpu = true};

POD_POLICY(pol_random, random_rules, "random",
	   "FGD study baseline: a uniformly random feasible node (and GPU for a share)");
