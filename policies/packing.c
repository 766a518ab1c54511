/* packing.c - the FGD study's GpuPacking baseline (../shared/reference/fgd.md
 * §4), three tiers: the pod fits on already shared, partly used GPUs
 * (the k fitting ones of least free: s = their sum of floor(free 100 /
 * 1000), score max(100 - floor(s / 10), 50)); else the node is partly
 * used and the pod needs j >= 1 free GPUs (max(50 - j, 33)); else every
 * GPU is free, G of them (max(33 - G, G)).  CPU-only pods score 0
 * everywhere (a random feasible node); a share by best fit
 * (docs/policies/fgd.md).
 * The engine, and the cost per decision: pods.c. */
#include <stdlib.h>

#include "pol_common.h"
#include "pods.h"

static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

static int64_t packing_score(struct pods *p, const struct pod_node *v, const struct pod_req *r,
			     int *gpu)
{
	(void)p, (void)gpu;
	if (!r->k)
		return 0;
	uint16_t part[64];
	int np = 0, used = 0;
	for (int g = 0; g < v->g; g++) {
		used += v->free[g] < 1000;
		if (v->free[g] < 1000 && v->free[g] >= r->m)
			part[np++] = v->free[g];
	}
	if (np >= r->k) {
		qsort(part, (size_t)np, sizeof *part, cmp_u16);
		int64_t s = 0;
		for (int i = 0; i < r->k; i++)
			s += part[i] * 100 / 1000;
		int64_t sc = 100 - s / 10;
		return sc > 50 ? sc : 50;
	}
	if (used) {
		int64_t j = r->k - np, sc = 50 - j;
		return sc > 33 ? sc : 33;
	}
	int64_t sc = 33 - v->g;
	return sc > v->g ? sc : v->g;
}

static const struct pod_rules packing_rules = {.score = packing_score};

POD_POLICY(pol_packing, packing_rules, pods_tie_params, "packing",
	   "FGD study baseline: GPU packing, shared GPUs first, then busy nodes, then empty ones");
