/* pods.h - placing pods one at a time by a node score: the engine the
 * policies of the FGD study share (fgd, bestfit, packing, clustering,
 * dotprod, random: Weng et al., "Beware of Fragmentation", ATC'23;
 * ../shared/reference/fgd.md, docs/policies/fgd.md).
 *
 * A job's executors are placed one after the other (a pod of the openb
 * traces is one), each on the feasible node of the highest score; ties
 * (the `ties` switch, pods_tie_params) go to the first of the top nodes
 * in a node order drawn once per seed (node-order, the default: the FGD
 * artifact's kube-scheduler fork, docs/policies/fgd-artifact.md §1-2), or
 * uniformly at random by the keyed RNG at every pod (uniform: upstream
 * kube-scheduler v1.20's selectHost); random, which has no switch and
 * scores every node alike, draws its node uniformly among the feasible
 * (the artifact's RandomScore); all or none of a job's: a job that does
 * not fit waits, in
 * arrival order, without blocking the jobs behind it (in offer-only mode
 * the kernel drops it).  Feasible (fgd.md §1): its CPU and memory fit,
 * and for a GPU executor the node carries its labels (a GPU-model
 * constraint) and has k GPUs each with m milli-GPUs free.
 */
#ifndef HETSIM_PODS_H
#define HETSIM_PODS_H

#include <stdbool.h>
#include <stdint.h>

#include "cluster.h"
#include "policy.h"

struct sim;

/* What one executor asks for. */
struct pod_req {
	int64_t cpu, mem;     /* milli-cores, MiB */
	int k, m;             /* GPUs, milli-GPUs of each (1000: whole); k 0: none */
	uint64_t require;     /* labels its node must carry */
	int tag;              /* clustering's tag: 0 none, 1 a share, 1 + k for k whole GPUs */
};

/* A node as the score sees it: free amounts less what is tentatively
 * placed for the job being decided. */
struct pod_node {
	const struct clu_node *n;
	int64_t cpu, mem;     /* free */
	int g;                /* GPUs */
	uint16_t free[CLU_MAX_GPUS]; /* milli-GPUs free, by GPU */
	int64_t gfree;        /* their sum */
};

struct pods;

/* A feasible node's score (higher wins); for a share, *gpu the GPU it
 * would take (the engine's best fit when left at -1). */
typedef int64_t pod_score_fn(struct pods *p, const struct pod_node *v, const struct pod_req *r,
			     int *gpu);

struct pod_rules {
	pod_score_fn *score;
	bool normalize;       /* rescale the candidates' scores to 0..100 (bestfit) */
	bool random_gpu;      /* a share on a random fitting GPU (random), else
				 best fit; every feasible node must then score
				 alike (the index draws as if so) */
	bool frag;            /* build the target workload (fgd) */
};

/* The switches of the five policies that score: `ties`. */
extern const struct pol_param pods_tie_params[];
/* No switch (random). */
extern const struct pol_param pods_no_params[];

void *pods_init(struct sim *s, const struct scn_policy *cfg, const struct pod_rules *rules,
		 const struct policy_ops *ops);
void pods_arrived(void *st, struct sim *s, int job);
void pods_finished(void *st, struct sim *s, int job);
void pods_schedule(void *st, struct sim *s);
void pods_fini(void *st);
void pods_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why);
void pods_can_ever_place(const struct scn_policy *cfg, const struct scn *sc, int group,
			 const struct sim_shape *sh, struct pol_verdict *v);

/* A policy of this engine: its init (the rules), its switches
 * (pods_tie_params or pods_no_params), and its ops table `sym` named
 * `name` (the six of the FGD study differ only in their rules). */
#define POD_POLICY(sym, rules, params_, name_, summary_)                          \
	extern const struct policy_ops sym;                                        \
	static void *sym##_init(struct sim *s, const struct scn_policy *cfg)       \
	{                                                                          \
		return pods_init(s, cfg, &(rules), &sym);                          \
	}                                                                          \
	const struct policy_ops sym = {                                            \
		.name = name_,                                                     \
		.summary = summary_,                                               \
		.params = params_,                                                 \
		.uses_labels = true,                                               \
		.gpu_aware = pol_gpu_aware_always,                                 \
		.places_roles = true,                                              \
		.needs = POL_NEED_FRACTIONAL_GPUS,                                 \
		.init = sym##_init,                                                \
		.job_arrived = pods_arrived,                                       \
		.job_finished = pods_finished,                                     \
		.schedule = pods_schedule,                                         \
		.fini = pods_fini,                                                 \
		.exec_lost = pods_exec_lost,                                       \
		.can_ever_place = pods_can_ever_place,                             \
	}

/* The index's work since the program started, every run together (a
 * test bounds it: tests/test_fgd_speed.c): passes over the waiting
 * jobs, seqs taken from a pass's merge, jobs tried, shapes and seqs
 * looked up, and the entries of the hash chains compared then. */
struct pods_work {
	uint64_t passes, pops, tries, lookups, probes;
};
extern struct pods_work pods_work;

/* The largest node's CPU (milli-cores) and GPUs (milli-GPUs): fgd.md's
 * MaxCPU and MaxGPU (128 000 and 8 000 on openb). */
int64_t pods_max_cpu(const struct pods *p);
int64_t pods_max_gpu(const struct pods *p);
/* A uniform draw in [0, n) from the keyed RNG of the decision. */
uint64_t pods_draw(struct pods *p, uint64_t n);
/* Whether t (> 0) divides x, given inv = pods_odd_inverse(t) and lim =
 * UINT64_MAX / t: x % t == 0 by a multiplication and a rotation, where
 * a division costs ten times as much (the uniform ties test one draw per
 * top node, pods.c).  The test compilers make for x % t == 0 with t =
 * 2^s o, o odd: q = x inv mod 2^64; if x = t y then q = 2^s y with y <=
 * lim, and q rotated right by s is y; otherwise either q has one of its
 * low s bits set, which the rotation puts at 2^(64-s) or above, past lim
 * (<= UINT64_MAX / 2^s), or q = 2^s y' with y' <= lim, and then x = q o
 * mod 2^64 = t y' <= t lim < 2^64, so t divides x. */
uint64_t pods_odd_inverse(uint64_t t);
static inline bool pods_divides(uint64_t x, uint64_t t, uint64_t inv, uint64_t lim)
{
	unsigned s = (unsigned)__builtin_ctzll(t);
	uint64_t q = x * inv;
	return (q >> s | q << (-s & 63)) <= lim;
}
/* FGD's fragmentation of node v against the target workload (fgd.md §2),
 * milli-GPUs. */
double pods_frag(const struct pods *p, const struct pod_node *v);
/* Clustering: GPU executors of each tag on node n (tags 0 .. 1 + CLU_MAX_GPUS). */
const int *pods_tags(const struct pods *p, int node);
#define POD_NTAGS (CLU_MAX_GPUS + 2)

#endif
