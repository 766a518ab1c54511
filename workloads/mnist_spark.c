/* mnist_spark.c - TensorFlowOnSpark's mnist_spark example (TFoS 1.x,
 * InputMode.SPARK, one parameter server; spark-semantics.md §4, §7(d)).
 *
 * The engine (sim.c) runs the phases: reservation (every executor must
 * be up; early ones hold their resources; the job times out after
 * reservation_timeout), start-up, training, shutdown.  This file gives
 * the two numbers the training phase needs:
 *
 *   step time of each worker on the device it really got: the cost
 *   model's kernel mnist_step with work = batch_size, on the node's GPU
 *   model if the model lists it, else on the generic "gpu" entry, or on
 *   "cpu" divided by the node's CPU speed.  Asynchronous training shares
 *   the global step count, so training takes steps / Σ 1/step_i;
 *
 *   feeding time: partitions × epochs feeding tasks spread over the
 *   workers, each taking feed_task; training never ends before the data
 *   has been fed.
 *
 * and TFoS's schedule of GPU probes for a worker whose node has GPUs but
 * none idle (gpu_busy: retry); the engine runs the probes.
 */
#include <stdbool.h>

#include "cluster.h"
#include "rng.h"
#include "scenario.h"
#include "workload.h"

double wl_mnist_step_us(const struct scn *s, int g, int idx, int w,
			const struct clu_node *n, bool gpu, uint64_t seed)
{
	const struct scn_job_group *jg = &s->jobs[g];
	const char *dev = "cpu";
	if (gpu) {
		const struct scn_cost_kernel *k = scn_cost_kernel(s, "mnist_step");
		dev = n->gpu_model && scn_cost_device(k, n->gpu_model) ? n->gpu_model : "gpu";
	}
	return wl_cost_us(s, "mnist_step", dev, jg->batch_size, n->cpu_speed, seed,
			  (uint32_t)g, (uint32_t)idx, 2, (uint64_t)w);
}

int64_t wl_mnist_feed_us(const struct scn *s, int g, int workers)
{
	const struct scn_job_group *jg = &s->jobs[g];
	int64_t feeds = (int64_t)jg->partitions * jg->epochs;
	if (workers < 1)
		workers = 1;
	return (feeds + workers - 1) / workers * jg->feed_task_us;
}

/* gpu_info.get_gpus (TFoS 1.x, §4.4):
 *
 *	retries = 0
 *	while len(free_gpus) < num_gpu and retries < MAX_RETRIES:   # 3
 *	    probe nvidia-smi
 *	    if len(free_gpus) < num_gpu:
 *	        retries += 1; time.sleep(30 * retries)
 *	if len(free_gpus) < num_gpu: raise Exception(...)
 *
 * Probes at 0, 30 and 90 s; after the third failure it sleeps 90 s and
 * raises at 180 s without probing again. */
int64_t wl_mnist_retry_sleep_us(int k)
{
	return (int64_t)30 * k * 1000000;
}
