/* bestfit.c - the FGD study's BestFit baseline (../shared/reference/fgd.md
 * §4): leftover L = 0.5 (free CPU - CPU) / MaxCPU + 0.5 (free GPU - k m) /
 * MaxGPU, score floor(100 (1 - L)), rescaled over the candidates to
 * 0..100 in integers; a share by best fit (docs/policies/fgd.md).  The
 * engine, and the cost per decision: pods.c; its rescale keeps the top
 * (pods.c, ix_choose). */
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

POD_POLICY(pol_bestfit, bestfit_rules, pods_tie_params, "bestfit",
	   "FGD study baseline: the smallest weighted CPU and GPU leftover");
