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

static void *random_init(struct sim *s, const struct scn_policy *cfg)
{
	return pods_init(s, cfg, &random_rules);
}

static const struct pol_param random_params[] = {{.key = NULL}};

const struct policy_ops pol_random = {
	.name = "random",
	.summary = "FGD study baseline: a uniformly random feasible node (and GPU for a share)",
	.params = random_params,
	.uses_labels = true,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.needs = POL_NEED_FRACTIONAL_GPUS,
	.init = random_init,
	.job_arrived = pods_arrived,
	.job_finished = pods_finished,
	.schedule = pods_schedule,
	.fini = pods_fini,
	.exec_lost = pods_exec_lost,
	.can_ever_place = pods_can_ever_place,
};
