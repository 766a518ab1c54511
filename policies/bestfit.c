/* bestfit.c - the FGD study's BestFit baseline (../shared/reference/fgd.md
 * §4): leftover L = 0.5 (free CPU - CPU) / MaxCPU + 0.5 (free GPU - k m) /
 * MaxGPU, score floor(100 (1 - L)), rescaled over the candidates to
 * 0..100 in integers; a share by best fit (docs/policies/fgd.md).  The
 * engine: pods.c. */
#include <math.h>

#include "pol_common.h"
#include "pods.h"

static int64_t bestfit_score(struct pods *p, const struct pod_node *v, const struct pod_req *r,
			     int *gpu)
{
	(void)gpu;
	double l = 0.5 * (double)(v->cpu - r->cpu) / (double)pods_max_cpu(p) +
		   0.5 * (double)(v->gfree - (int64_t)r->k * r->m) / (double)pods_max_gpu(p);
	return (int64_t)floor(100 * (1 - l));
}

static const struct pod_rules bestfit_rules = {.score = bestfit_score, .normalize = true};

static void *bestfit_init(struct sim *s, const struct scn_policy *cfg)
{
	return pods_init(s, cfg, &bestfit_rules);
}

static const struct pol_param bestfit_params[] = {{.key = NULL}};

const struct policy_ops pol_bestfit = {
	.name = "bestfit",
	.summary = "FGD study baseline: the smallest weighted CPU and GPU leftover",
	.params = bestfit_params,
	.uses_labels = true,
	.gpu_aware = pol_gpu_aware_always,
	.places_roles = true,
	.needs = POL_NEED_FRACTIONAL_GPUS,
	.init = bestfit_init,
	.job_arrived = pods_arrived,
	.job_finished = pods_finished,
	.schedule = pods_schedule,
	.fini = pods_fini,
	.exec_lost = pods_exec_lost,
	.can_ever_place = pods_can_ever_place,
};
