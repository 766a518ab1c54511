/* workload.h - job models: turn a scenario's job groups into jobs (wl_).
 *
 * wordcount.c, mnist_spark.c and synthetic.c each know one job type.
 * They build a job's executor roles and, when the job arrives, its stages
 * and task durations.  Every random number is drawn from keyed streams
 * (rng.h) with the key (replication seed, purpose, group, index in group,
 * stage) and the task as draw index, so every policy sees the same jobs
 * and no result depends on the order things are drawn in.
 */
#ifndef HETSIM_WORKLOAD_H
#define HETSIM_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"

struct arena;
struct scn;
struct sim_shape;
struct clu_node;

/* One stage of a job's DAG, as a job model builds it. */
struct wl_stage {
	int ntasks;
	double *work_us;   /* per task: duration at speed 1, µs */
	int *parents;      /* indices of earlier stages */
	int nparents;
};
struct wl_dag {
	int nstages;
	struct wl_stage *st;
	int64_t task_delay_us; /* per-task launch delay (overheads) */
};

/* Semantic checks that need the job models (a cost-model kernel a job
 * type needs, a GPU model without a cost entry, ...).  Called by
 * scn_load() last.  Returns 0, or -1 with "file:line:col: message" in err. */
int wl_check(const struct scn *s, char *err, size_t errlen);

/* Arrival times of the jobs of group `g`, in µs, into out[0..count-1]
 * (non-decreasing). */
void wl_arrivals(const struct scn *s, int g, uint64_t seed, int64_t *out);

/* What every job of group `g` asks for: roles, cores_max, task_cpus. */
void wl_job_shape(const struct scn *s, int g, struct sim_shape *out);

/* Build the DAG of a wordcount, synthetic or angel job (index `idx` of
 * group `g`) into *out.  Its arrays come from arena `a` and live until
 * the caller resets or frees it. */
void wl_build_dag(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		  struct wl_dag *out);
/* Whether wl_build_dag gives every job of group `g` the same DAG (it
 * draws nothing: a synthetic group whose durations are all constants),
 * so that one copy, built once, can serve them all. */
bool wl_dag_shared(const struct scn *s, int g);

/* mnist_spark: time of one training step, µs, of worker `w` of job
 * (g, idx) on node `n`, on one of its GPUs if `gpu`, else on its CPU. */
double wl_mnist_step_us(const struct scn *s, int g, int idx, int w,
			const struct clu_node *n, bool gpu, uint64_t seed);
/* mnist_spark: time to feed the training data with `workers` workers. */
int64_t wl_mnist_feed_us(const struct scn *s, int g, int workers);
/* mnist_spark with gpu_busy: retry (TFoS's gpu_info.get_gpus): a worker
 * that finds no idle GPU sleeps after its k-th failed probe, k = 1 ..
 * WL_GPU_RETRIES, and probes again after every sleep but the last; when
 * the last sleep is over it raises.  The sleep after failed probe k, µs. */
#define WL_GPU_RETRIES 3
int64_t wl_mnist_retry_sleep_us(int k);
/* mnist_spark: the example's parameter server sleeps (executor_id + 1) x
 * 5 s before start_cluster_server picks its GPU (mnist_dist.py: "Delay PS
 * nodes a bit, since workers seem to reserve GPUs more quickly"); the one
 * PS is executor 0. */
#define WL_PS_DELAY_US ((int64_t)5 * 1000000)
/* mnist_spark: TFoS 1.4's start_cluster_server calls get_gpus (and
 * creates the TF server) up to this many times, sleeping this long after
 * each failure, before it raises. */
#define WL_SERVER_TRIES 3
#define WL_SERVER_SLEEP_US ((int64_t)10 * 1000000)
/* spark.task.maxFailures: Spark runs a failed task again on an executor
 * up to this many attempts in all before it aborts the job. */
#define WL_TASK_MAX_FAILURES 4

/* Per-type parts, called by the generic functions above. */
void wl_wordcount_dag(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		      struct wl_dag *out);
void wl_synthetic_dag(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		      struct wl_dag *out);
void wl_angel_dag(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		  struct wl_dag *out);
int wl_angel_check(const struct scn *s, int g, char *err, size_t errlen);
/* "job group G needs kernel K for device D" unless the cost model has it. */
int wl_need_kernel(const struct scn *s, int g, const char *kernel, const char *dev,
		   char *err, size_t errlen);
int wl_wordcount_check(const struct scn *s, int g, char *err, size_t errlen);
int wl_mnist_check(const struct scn *s, int g, char *err, size_t errlen);

/* Duration of `work` units of kernel `kernel` on `device`, at speed 1
 * for "cpu" scaled by `cpu_speed`, with the kernel's noise drawn from
 * (key words, draw).  The kernel and device must exist (wl_check). */
double wl_cost_us(const struct scn *s, const char *kernel, const char *device,
		  double work, double cpu_speed, uint64_t seed, uint32_t x,
		  uint32_t y, uint32_t z, uint64_t draw);

/* The same in two steps, for the tasks of one stage, which share the
 * kernel, the device and the key words and differ in work and draw:
 * wl_cost_find looks the kernel and device up by name and makes the
 * noise key once, wl_cost_at prices each task (the same figures as
 * wl_cost_us, bit for bit).  Looking up and hashing per task was a
 * tenth of a wordcount-heavy run. */
struct wl_cost {
	const struct scn_cost_kernel *k;
	const struct scn_cost_dev *d;
	bool cpu;               /* the device is "cpu": divided by cpu_speed */
	struct rng_key key;     /* the noise's, when the kernel has noise */
};
void wl_cost_find(struct wl_cost *c, const struct scn *s, const char *kernel,
		  const char *device, uint64_t seed, uint32_t x, uint32_t y, uint32_t z);
double wl_cost_at(const struct wl_cost *c, double work, double cpu_speed, uint64_t draw);

#endif
