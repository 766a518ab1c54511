/* workload.h - what the job models share (wl_): roles from a scenario's
 * demands, the cost model's evaluation, its checks.
 *
 * Every random number a model draws comes from keyed streams (rng.h)
 * with the key (replication seed, purpose, group, index in group,
 * stage) and the task as draw index, so every policy sees the same jobs
 * and no result depends on the order things are drawn in.
 */
#ifndef HETSIM_WORKLOAD_H
#define HETSIM_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "rng.h"

struct scn;
struct scn_exec;
struct scn_job_group;
struct sim_role;

/* Role r of a job of group jg from its demand e: count executors, the
 * group's labels unless the role gave its own, 1 GiB unless memory was
 * given, Spark's task slots (-1). */
void wl_set_role(struct sim_role *r, const struct scn_exec *e, int count,
		 const struct scn_job_group *jg);

/* Spark's executor keys, shared by the models of Spark applications: a
 * key table's entries for the scn_exec `exec` of params struct T. */
#define SPARK_EXEC_KEYS(T)                                                                   \
	{.key = "executors", .kind = JM_INT, .off = offsetof(T, exec.count), .lo = 1,           \
	 .hi = SCN_MAX_EXECUTORS, .what = "executors per job",                                  \
	 .help = "spark.executor.instances"},                                                  \
	{.key = "executor_cores", .kind = JM_INT, .off = offsetof(T, exec.cores), .lo = 1,      \
	 .hi = SCN_MAX_CORES, .what = "cores per executor",                                    \
	 .help = "spark.executor.cores (0: unset, the policy's rule)"},                         \
	{.key = "executor_memory", .kind = JM_SIZE, .off = offsetof(T, exec.mem_mib), .lo = 1,  \
	 .help = "spark.executor.memory"},                                                     \
	{.key = "executor_gpus", .kind = JM_INT, .off = offsetof(T, exec.gpus), .lo = 0,        \
	 .hi = SCN_MAX_GPUS, .what = "GPUs per executor",                                       \
	 .help = "spark.executor.resource.gpu.amount"}

/* The shape of a Spark application with one role of executors, `exec`
 * (2 unless its count is given): the shape hook of wordcount and
 * synthetic, the first role of angel's. */
struct sim_shape;
void wl_spark_shape(const struct scn_job_group *jg, const struct scn_exec *exec,
		    struct sim_shape *out);

/* "job group G needs kernel K for device D" unless the cost model has it. */
int wl_need_kernel(const struct scn *s, int g, const char *kernel, const char *dev,
		   char *err, size_t errlen);

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
	struct rng_lognormal_par noise; /* its factor's, computed once */
};
void wl_cost_find(struct wl_cost *c, const struct scn *s, const char *kernel,
		  const char *device, uint64_t seed, uint32_t x, uint32_t y, uint32_t z);
double wl_cost_at(const struct wl_cost *c, double work, double cpu_speed, uint64_t draw);

/* The longest time priced (wl_cost_at, wl_cost_us) while a watch is on,
 * and the coefficients and work that gave it: the loader's check that
 * no task passes the simulated clock names the coefficient to blame
 * (input/scn_check.c, scn_check_time_scale).  wl_cost_watch(w) zeroes *w and
 * starts recording into it (this thread only); wl_cost_watch(NULL)
 * stops. */
struct wl_cost_max {
	const struct scn_cost_kernel *k;
	const struct scn_cost_dev *d;
	double work, us;
};
void wl_cost_watch(struct wl_cost_max *w);
/* Stop recording for a while (the watch it returns, NULL if none), and go
 * on into the same record (wl_cost_watch_resume: not zeroed). */
struct wl_cost_max *wl_cost_watch_pause(void);
void wl_cost_watch_resume(struct wl_cost_max *w);

#endif
