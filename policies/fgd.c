/* fgd.c - Fragmentation Gradient Descent (Weng et al., ATC'23;
 * ../shared/reference/fgd.md §3): each pod on the node, and a share on
 * the GPU, that increases the node's fragmentation against the target
 * workload least; score floor(100 sigmoid(gain / 1000)), gain = F(n) -
 * F(n') in milli-GPUs (docs/policies/fgd.md).
 * The engine, and the cost per decision: pods.c. */
#include <math.h>

#include "pol_common.h"
#include "pods.h"

static int64_t score_of(double gain)
{
	return (int64_t)floor(100.0 / (1.0 + exp(-gain / 1000.0)));
}

static int64_t fgd_score(struct pods *p, const struct pod_node *v, const struct pod_req *r,
			 int *gpu)
{
	double f0 = pods_frag(p, v);
	struct pod_node w = *v;
	w.cpu -= r->cpu;
	w.mem -= r->mem;
	if (r->k == 1 && r->m < 1000) { /* a share: the best GPU, lowest index on ties */
		int64_t best = -1;
		for (int g = 0; g < v->g; g++) {
			if (v->free[g] < r->m)
				continue;
			w.free[g] = (uint16_t)(v->free[g] - r->m);
			w.gfree = v->gfree - r->m;
			int64_t s = score_of(f0 - pods_frag(p, &w));
			w.free[g] = v->free[g];
			if (s > best) {
				best = s;
				*gpu = g;
			}
		}
		return best;
	}
	for (int g = 0, got = 0; g < v->g && got < r->k; g++) /* the lowest-indexed free */
		if (v->free[g] == 1000) {
			w.free[g] = 0;
			w.gfree -= 1000;
			got++;
		}
	return score_of(f0 - pods_frag(p, &w));
}

static const struct pod_rules fgd_rules = {.score = fgd_score, .frag = true};

POD_POLICY(pol_fgd, fgd_rules, pods_tie_params, "fgd",
	   "FGD: each pod where it adds least fragmentation against the workload "
	   "(Weng et al., ATC'23)");
