/* dotprod.c - the FGD study's DotProd baseline (Tetris-style; artifact
 * flags -dimext merge -norm max; ../shared/reference/fgd.md §4): node
 * vector (free CPU / MaxCPU, free GPU / MaxGPU), pod vector (CPU / MaxCPU,
 * k m / MaxGPU), score floor(100 (1 - a.d / 2)): the smallest product
 * wins; a share by best fit (docs/policies/fgd.md).
 * The engine, and the cost per decision: pods.c. */
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

POD_POLICY(pol_dotprod, dotprod_rules, pods_tie_params, "dotprod",
	   "FGD study baseline: Tetris-style dot product of free and asked, the smallest wins");
