/* dotprod.c - the FGD study's DotProd baseline (Tetris-style; artifact
 * flags -dimext merge -norm max; ../shared/reference/fgd.md §4): node
 * vector (free CPU / MaxCPU, free GPU / MaxGPU), pod vector (CPU / MaxCPU,
 * k m / MaxGPU), score floor(100 (1 - a.d / 2)): the smallest product
 * wins; a share by best fit (docs/policies/fgd.md).  The engine: pods.c. */
#include <math.h>

#include "pol_common.h"
#include "pods.h"

static int64_t dotprod_score(struct pods *p, const struct pod_node *v, const struct pod_req *r,
			     int *gpu)
{
	(void)gpu;
	double mc = (double)pods_max_cpu(p), mg = (double)pods_max_gpu(p);
	double dot = (double)v->cpu / mc * ((double)r->cpu / mc) +
		     (double)v->gfree / mg * ((double)r->k * r->m / mg);
	return (int64_t)floor(100 * (1 - dot / 2));
}

static const struct pod_rules dotprod_rules = {.score = dotprod_score};

static void *dotprod_init(struct sim *s, const struct scn_policy *cfg)
{
	return pods_init(s, cfg, &dotprod_rules);
}

static const struct pol_param dotprod_params[] = {{.key = NULL}};

const struct policy_ops pol_dotprod = {
	.name = "dotprod",
	.summary = "FGD study baseline: Tetris-style dot product of free and asked, the smallest wins",
	.params = dotprod_params,
	.uses_labels = true,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.needs = POL_NEED_FRACTIONAL_GPUS,
	.init = dotprod_init,
	.job_arrived = pods_arrived,
	.job_finished = pods_finished,
	.schedule = pods_schedule,
	.fini = pods_fini,
	.exec_lost = pods_exec_lost,
	.can_ever_place = pods_can_ever_place,
};
