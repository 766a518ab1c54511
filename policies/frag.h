/* frag.h - FGD's fragmentation of a node against a target workload
 * (Weng et al., ATC'23; ../shared/reference/fgd.md §2), for the fgd
 * policy (pods.c) and the FGD experiment's metrics (cli/fgd.c).
 *
 * The target workload is a distribution of task shapes (CPU, k GPUs of
 * m milli-GPUs, the labels a GPU task requires; memory is no part of a
 * shape): the distinct shapes of a pod list, the most frequent first
 * (ties in order of first appearance), until they cover 95 % of the
 * pods, their frequencies renormalised.
 */
#ifndef HETSIM_FRAG_H
#define HETSIM_FRAG_H

#include <stdint.h>

struct frag_shape {
	int64_t cpu;          /* milli-cores */
	int k, m;             /* GPUs, milli-GPUs of each; k 0: CPU only */
	uint64_t require;     /* labels a node must carry for it (GPU tasks) */
	long long n;          /* pods of the shape */
	double p;             /* its probability, after frag_finish */
};

struct frag_target {
	struct frag_shape *ts;
	int n, cap;
};

/* Count `count` pods of a shape. */
void frag_add(struct frag_target *t, int64_t cpu, int k, int m, uint64_t require,
	      long long count);
/* Keep the shapes covering 95 % of the pods, most frequent first, and
 * renormalise. */
void frag_finish(struct frag_target *t);
void frag_free(struct frag_target *t);

struct scn;
/* The target workload of a scenario's workload: every executor of its
 * jobs, a trace's as its list was read (before offer_pad's sampling:
 * scn_trace.orig_count), then frag_finish. */
void frag_of_scenario(const struct scn *sc, struct frag_target *t);

/* F(n) = sum over shapes of p F(n, t), milli-GPUs, of a node carrying
 * `labels` with cpu_free milli-cores free and g GPUs of free[] milli-GPUs
 * free (their sum gfree). */
double frag_node(const struct frag_target *t, uint64_t labels, int64_t cpu_free, int g,
		 const uint16_t *free, int64_t gfree);

#endif
