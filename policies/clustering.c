/* clustering.c - the FGD study's GpuClustering baseline
 * (../shared/reference/fgd.md §4): a GPU pod's tag is "share" (k 1, m <
 * 1000) or "k-gpu"; base floor(25 (MaxGPU - free GPU) / MaxGPU), + 75 on
 * a node hosting only pods of its tag, + 50 its tag and others, + 25 no
 * GPU pod, + 0 only others.  CPU-only pods score 0 everywhere; a share by
 * best fit (docs/policies/fgd.md).
 * The engine, and the cost per decision: pods.c. */
#include "pol_common.h"
#include "pods.h"

static int64_t clustering_score(struct pods *p, const struct pod_node *v,
				const struct pod_req *r, int *gpu)
{
	(void)gpu;
	if (!r->k)
		return 0;
	int64_t mg = pods_max_gpu(p);
	int64_t base = 25 * (mg - v->gfree) / mg;
	const int *t = pods_tags(p, v->n->id);
	int same = t[r->tag], others = 0;
	for (int k = 1; k < POD_NTAGS; k++)
		others += k != r->tag ? t[k] : 0;
	return base + (same && !others ? 75 : same ? 50 : !others ? 25 : 0);
}

static const struct pod_rules clustering_rules = {.score = clustering_score};

POD_POLICY(pol_clustering, clustering_rules, pods_tie_params, "clustering",
	   "FGD study baseline: GPU clustering, like pods with like");
