/* mnist_spark.c - TensorFlowOnSpark's mnist_spark example (InputMode.SPARK,
 * one parameter server; spark-semantics.md §4, §7(d)), as TFoS v1.4.4 runs
 * it behind a GPU-blind cluster manager and TFoS >= 2.2 behind a GPU-aware
 * one (docs/model.md).
 *
 * This model runs TFoS's whole life of a job on the kernel's requests
 * (sim.h): the reservation (every executor must be up; early ones hold
 * their resources; the job times out after reservation_timeout), which
 * executor is the parameter server (the first to register), the GPU
 * probes and their retries, start-up, training and shutdown.  Its jobs
 * run no Spark task of the kernel's dispatcher: training holds the
 * executors, and ends after
 *
 *   step time of each worker on the device it really got: the cost
 *   model's kernel mnist_step with work = batch_size, on the node's GPU
 *   model if the model lists it, else on the generic "gpu" entry, or on
 *   "cpu" divided by the node's CPU speed.  Asynchronous training shares
 *   the global step count, so training takes train_steps / Σ 1/step_i,
 *   train_steps = min(steps, ceil(samples × epochs / batch_size)): the
 *   workers stop at `steps` (StopAtStepHook) or when the feed ends;
 *
 *   feeding time: partitions × epochs feeding tasks spread over the
 *   workers, each taking feed_task; training never ends before the data
 *   has been fed.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cluster.h"
#include "models.h"
#include "rng.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"
#include "workload.h"

/* A worker that finds no idle GPU sleeps after its k-th failed probe, k
 * = 1 .. GPU_RETRIES, and probes again after every sleep but the last;
 * when the last sleep is over it raises (retry_sleep_us). */
#define GPU_RETRIES 3
/* The stream of the keyed draw that breaks ties between TF nodes that
 * register at the same instant (tie_rank): the first free for models. */
#define RNG_TF_ROLE RNG_USER

/* Time of one training step, µs, of worker `w` of job (g, idx) on node
 * `n`, on one of its GPUs if `gpu`, else on its CPU. */
static double step_us(const struct scn *s, int g, int idx, int w, const struct clu_node *n,
		      bool gpu, uint64_t seed)
{
	const struct jm_mnist *jg = s->jobs[g].params;
	const char *dev = "cpu";
	if (gpu) {
		const struct scn_cost_kernel *k = scn_cost_kernel(s, "mnist_step");
		dev = n->gpu_model && scn_cost_device(k, n->gpu_model) ? n->gpu_model : "gpu";
	}
	return wl_cost_us(s, "mnist_step", dev, jg->batch_size, n->cpu_speed, seed,
			  (uint32_t)g, (uint32_t)idx, 2, (uint64_t)w);
}

/* The shortest training a job of group g can have: its steps on all its
 * workers at once, each on the fastest device of the cluster's node
 * groups (a group's CPU at its speed, or its GPUs' model's entry, else
 * "gpu").  A lower bound, so that the loader refuses only a job that can
 * never end within the simulated clock, however placed (a slower
 * placement that passes it fails its run, as the kernel says). */
static double mn_longest_us(const struct scn *s, int g)
{
	const struct jm_mnist *jg = s->jobs[g].params;
	double best = -1;
	int bk = 0, bgpu = 0;
	struct wl_cost_max *w = wl_cost_watch_pause(); /* it is to see the fastest only */
	for (int k = 0; k < s->ngroups; k++) {
		struct clu_node n = {.cpu_speed = s->groups[k].cpu_speed,
				     .gpu_model = s->groups[k].gpu_model};
		for (int gpu = 0; gpu <= (s->groups[k].gpus > 0); gpu++) {
			double us = step_us(s, g, 0, 0, &n, gpu, s->seed);
			if (best < 0 || us < best)
				best = us, bk = k, bgpu = gpu;
		}
	}
	wl_cost_watch_resume(w);
	if (best > 0) {
		struct clu_node n = {.cpu_speed = s->groups[bk].cpu_speed,
				     .gpu_model = s->groups[bk].gpu_model};
		best = step_us(s, g, 0, 0, &n, bgpu, s->seed); /* the same figure, watched */
	}
	int workers = jg->worker.count > 0 ? jg->worker.count : 1;
	return best > 0 ? best * jg->train_steps / workers : 0;
}

/* Training steps per second on one GPU of model `gpu_model`: the mean of
 * mnist_step on that device (the model's own, else "gpu") for one batch
 * (a throughput matrix's entry: gavel); 0 without a GPU entry. */
static double mn_throughput(const struct scn *s, int g, const char *gpu_model)
{
	const struct jm_mnist *jg = s->jobs[g].params;
	const struct scn_cost_kernel *k = scn_cost_kernel(s, "mnist_step");
	const struct scn_cost_dev *d = k ? scn_cost_device(k, gpu_model) : NULL;
	if (!d && k)
		d = scn_cost_device(k, "gpu");
	double us = d ? d->intercept_us + d->slope_us * jg->batch_size : 0;
	return us > 0 ? 1e6 / us : 0;
}

/* Time to feed the training data with `workers` workers. */
static int64_t feed_us(const struct scn *s, int g, int workers)
{
	const struct jm_mnist *jg = s->jobs[g].params;
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
static int64_t retry_sleep_us(int k)
{
	return (int64_t)30 * k * 1000000;
}

/* ---- the life of a job ---------------------------------------------- */

/* The job's state (sim_job.mstate): TFoS's phases.  Its job timers fire
 * only in the state they were set in (sim_job_timer). */
enum { PH_RESERVE, PH_STARTUP, PH_TRAIN, PH_SHUTDOWN, PH_RECOVER, PH_RESTORE };
static const char *const ph_names[] = {"reserve", "startup", "train", "shutdown", "recover",
				       "restore", NULL};
/* Timer tags: the job's reservation timeout and phase ends, a TF node's
 * wake-up in its GPU calls. */
enum { T_TIMEOUT, T_PHASE, T_PROBE };

/* A job's counts (sim_live.mword). */
#define REGISTERED(j) ((j)->live->mword[0]) /* TF nodes registered */
#define GPU_WAITS(j) ((j)->live->mword[1])  /* TF nodes the reservation ended
					       for that do not have their
					       device yet */
#define FLAGS(j) ((j)->live->mword[2])      /* F_* below */
#define STEPS_DONE(j) ((j)->live->mword[3])  /* steps kept by checkpoints */
#define RECOVERIES(j) ((j)->live->mword[4])  /* losses it recovered from */
#define PS_POS(j) ((j)->live->mword[5])     /* 1 + the parameter server's
					       sim_exec_pos; 0: none up yet
					       (roles by registration only) */
#define TRAIN_FROM(j) ((j)->live->mtime[0])  /* this training's start */
#define TRAIN_US(j) ((j)->live->mtime[1])    /* and its length */
#define PS_HEARD(j) ((j)->live->mtime[2])    /* when the PS was heard up */
#define F_STARTUP_OVER 1 /* start-up time passed, training waits for a TF
			    node's GPU pick */
#define F_TRAINED 2      /* training began once */
/* A TF node's place in its GPU calls (sim_exec.mbyte). */
#define GPU_STATE(x) ((x)->mbyte[0])    /* enum tf_gpu */
#define GPU_TRIES(x) ((x)->mbyte[1])    /* failed probes of its current get_gpus */
#define GPU_ATTEMPTS(x) ((x)->mbyte[3]) /* Spark attempts of its reservation task */

/* Where a TF node is in TFoS 1.4's GPU calls.  Each call is
 * gpu_info.get_gpus: probe nvidia-smi, and while no GPU is idle sleep
 * 30·k s after the k-th failed probe, for at most GPU_RETRIES probes,
 * then raise (retry_sleep_us). */
enum tf_gpu {
	TG_NONE,     /* has its device, or never probes */
	TG_REGISTER, /* TFSparkNode.run's check before it registers */
	TG_PICK,     /* run's check once reserved, then at once
			start_cluster_server takes the GPU it found (the
			PS too: TFoS 1.x gives a PS num_gpus 1) */
};

static const struct jm_mnist *params_of(const struct sim *s, const struct sim_job *j)
{
	return sim_scenario(s)->jobs[j->group].params;
}

/* ---- which TF node is the parameter server -------------------------- */

/* TFoS's TFCluster.run makes the cluster_template {ps: [0], worker: [1 ..
 * n-1]} and runs one reservation task per partition of
 * sc.parallelize(range(n), n); a node's executor_id, hence its role, is
 * the partition its task got (TFSparkNode.run).  Spark gives the pending
 * task of lowest index to the first executor that offers a free slot,
 * and an executor offers its slot when it registers with the driver
 * (comes up): so the PS is the first TF node up.  Executors offered at
 * the same instant, up together or released together by Spark's
 * minRegisteredResourcesRatio wait (sim_hold_tasks: waitBackendReady
 * holds the job until then), are offered in a shuffled order
 * (TaskSchedulerImpl.resourceOffers, shuffleOffers): the one with the
 * lowest tie_rank becomes the PS.  Behind a policy that places roles (sim_roles_placed),
 * the PS is the executor launched as role 0. */

/* A pure function of the seed, the job and x's launch position among
 * the job's TF nodes (YARN's application masters not counted, so that
 * the same launches rank alike under every policy): neither the
 * policy's draws nor the order of events enter it.  O(position): it is
 * asked only when two nodes come up at the same instant. */
static uint64_t tie_rank(struct sim *s, const struct sim_job *j, const struct sim_exec *x)
{
	int pos = 0;
	for (int i = 0; i < sim_exec_pos(x); i++) {
		const struct sim_exec *y = sim_job_exec(s, j, i);
		pos += !y || y->role != SIM_ROLE_AM; /* a lost one counts as a TF
							node: an AM lost before x
							(its node failed) shifts it */
	}
	struct rng_key k = rng_key(sim_seed(s), 0, RNG_TF_ROLE, (uint32_t)j->group,
				   (uint32_t)j->index, 0);
	return rng_u64(k, (uint64_t)pos);
}

static bool tf_is_ps(const struct sim *s, const struct sim_job *j, const struct sim_exec *x)
{
	if (sim_roles_placed(s))
		return x->role == 0;
	return PS_POS(j) == sim_exec_pos(x) + 1;
}

/* x is up: it becomes the PS if none is up yet, or if the one that is
 * came up at this same instant and x ranks before it.  Nothing reads the
 * roles before every TF node is up (the reservation, or a recovery, is
 * complete only then), so a choice made earlier in this instant can
 * still change. */
static void tf_assign_role(struct sim *s, struct sim_job *j, struct sim_exec *x)
{
	if (sim_roles_placed(s))
		return;
	struct sim_exec *ps = PS_POS(j) ? sim_job_exec(s, j, PS_POS(j) - 1) : NULL;
	if (ps && (PS_HEARD(j) != sim_now(s) || tie_rank(s, j, ps) < tie_rank(s, j, x))) {
		sim_exec_plays(x, 1); /* a worker, whatever it was launched as */
		return;
	}
	if (ps)
		sim_exec_plays(ps, 1);
	sim_exec_plays(x, 0);
	PS_POS(j) = sim_exec_pos(x) + 1;
	PS_HEARD(j) = sim_now(s);
}

/* Whether TF node x runs TFoS's nvidia-smi probes: its job asks for GPUs
 * (TFoS's num_gpus > 0), its node has GPUs (a CUDA build of TensorFlow
 * there), the cluster manager does not isolate GPUs (a GPU-blind one
 * shows every executor all the node's GPUs) and gave it none. */
static bool tf_probes(const struct sim *s, const struct sim_job *j, const struct sim_exec *x)
{
	return j->shape->role[1].gpus > 0 && !sim_gpus_isolated(s) && x->gpus == 0 &&
	       sim_cluster(s)->nodes[x->node].gpus > 0;
}

/* Sleep, then wake up in on_probe_timer. */
static void tf_sleep(struct sim *s, struct sim_exec *x, int64_t us)
{
	sim_exec_timer(s, x, (double)us, T_PROBE);
}

static void start_training(struct sim *s, struct sim_job *j);
static void tf_reserved(struct sim *s, struct sim_job *j);

/* One more TF node registered; the last one completes the reservation. */
static void tf_register(struct sim *s, struct sim_job *j)
{
	REGISTERED(j)++;
	if (j->mstate == PH_RESERVE &&
	    REGISTERED(j) == j->shape->role[0].count + j->shape->role[1].count)
		tf_reserved(s, j);
}

/* One probe of x's current get_gpus call.  No idle GPU: with gpu_busy:
 * retry, sleep (on_probe_timer); with gpu_busy: cpu, go on without one.
 * Otherwise the call returns: the check before registering lets the
 * node register, a pick takes the GPU. */
static void tf_probe(struct sim *s, struct sim_job *j, struct sim_exec *x)
{
	bool idle = sim_cluster(s)->nodes[x->node].gpus_free > 0;
	if (!idle && params_of(s, j)->gpu_busy == JM_GPU_BUSY_RETRY) {
		GPU_TRIES(x)++;
		tf_sleep(s, x, retry_sleep_us(GPU_TRIES(x)));
		return;
	}
	switch ((enum tf_gpu)GPU_STATE(x)) {
	case TG_REGISTER:
		GPU_STATE(x) = TG_NONE;
		tf_register(s, j);
		return;
	case TG_PICK:
		if (idle && !x->gpus_grabbed)
			sim_take_gpu(s, x); /* else gpu_busy: cpu, without one */
		GPU_STATE(x) = TG_NONE;
		if (GPU_WAITS(j) > 0 && --GPU_WAITS(j) == 0 && (FLAGS(j) & F_STARTUP_OVER) &&
		    j->mstate == PH_STARTUP)
			start_training(s, j);
		return;
	default:
		sim_die(s, "executor %d probed in GPU state %d", x->id, GPU_STATE(x));
	}
}

/* The reservation is complete: every TF node leaves await_reservations()
 * and, in launch order, checks again for an idle GPU (run's second
 * get_gpus).  A node whose check finds one takes it at once
 * (start_cluster_server, the next thing it runs), the PS too (TFoS 1.x
 * asks a PS for num_gpus 1).  Nodes without probes have their device
 * already. */
static void tf_reserved(struct sim *s, struct sim_job *j)
{
	sim_job_set_state(s, j, PH_STARTUP); /* the reservation timeout is off */
	sim_job_started(s, j);
	sim_job_timer(s, j, (double)params_of(s, j)->startup_us, T_PHASE);
	for (int i = 0; i < sim_job_nexecs(j); i++) {
		struct sim_exec *x = sim_job_exec(s, j, i);
		if (!x || x->role == SIM_ROLE_AM || !tf_probes(s, j, x))
			continue; /* YARN's AM is no TF node */
		GPU_WAITS(j)++;
		GPU_STATE(x) = TG_PICK;
		GPU_TRIES(x) = 0;
		tf_probe(s, j, x);
	}
}

/* TF node x wakes up from a sleep of its GPU calls.  Once the last sleep
 * of a get_gpus call is over, the call raises and the node's Spark task
 * fails (TFSparkNode.run's checks do not catch it; start_cluster_server's
 * loop of 3 tries with 10 s sleeps never runs out in the model: it picks
 * at the instant run's check found the GPU idle).
 * Spark runs a failed task again on the same executor, in a new Python
 * worker, until spark.task.maxFailures attempts have failed; the retry
 * checks again from the top of TFSparkNode.run (a node already reserved
 * finds its reservation and does not register again), so its first probe
 * is at once.  When no attempt is left the job fails and gives back
 * everything it holds, GPUs its nodes took included. */
static void on_probe_timer(struct sim *s, struct sim_job *j, struct sim_exec *x)
{
	if (GPU_STATE(x) == TG_NONE)
		return; /* its calls were cut short: its job recovers from a loss */
	if (GPU_TRIES(x) >= GPU_RETRIES) { /* get_gpus raises */
		/* spark.task.maxFailures: Spark runs a failed task again up to
		 * this many attempts in all before it aborts the job */
		if (++GPU_ATTEMPTS(x) >= sim_job_group(s, j->id)->task_max_failures) {
			sim_end_job(s, j, JOB_FAILED, SIM_WHY_GPU_RETRIES);
			return;
		}
		GPU_TRIES(x) = 0; /* Spark's next attempt checks at once */
	}
	tf_probe(s, j, x);
}

static void start_training(struct sim *s, struct sim_job *j)
{
	const struct scn *sc = sim_scenario(s);
	const struct jm_mnist *g = params_of(s, j);
	double inv = 0;
	int workers = 0, on_gpu = 0;
	for (int i = 0; i < sim_job_nexecs(j); i++) {
		const struct sim_exec *x = sim_job_exec(s, j, i);
		if (!x || x->role == SIM_ROLE_AM || tf_is_ps(s, j, x))
			continue;
		const struct clu_node *n = &sim_cluster(s)->nodes[x->node];
		bool gpu = x->gpus > 0 || x->gpus_grabbed > 0;
		inv += 1.0 / step_us(sc, j->group, j->index, workers, n, gpu, sim_seed(s));
		on_gpu += gpu;
		workers++;
	}
	double train = round((g->train_steps - STEPS_DONE(j)) / inv);
	/* the data is fed once: a training restored from a checkpoint goes
	 * on at its steps' pace */
	double feed = STEPS_DONE(j) ? 0 : (double)feed_us(sc, j->group, workers);
	sim_job_busy_gpus(s, j, on_gpu);
	FLAGS(j) |= F_TRAINED;
	sim_job_set_state(s, j, PH_TRAIN);
	TRAIN_FROM(j) = sim_now(s);
	TRAIN_US(j) = (int64_t)(train > feed ? train : feed);
	sim_job_timer(s, j, train > feed ? train : feed, T_PHASE);
}

static void on_phase_end(struct sim *s, struct sim_job *j)
{
	switch (j->mstate) {
	case PH_STARTUP:
		if (GPU_WAITS(j) > 0) { /* a TF node is still on its way to its GPU */
			FLAGS(j) |= F_STARTUP_OVER;
			break;
		}
		start_training(s, j);
		break;
	case PH_TRAIN:
		sim_job_busy_gpus(s, j, 0);
		/* the workers' TF processes exit (InputMode.SPARK runs them in
		 * child processes): the GPUs they took are idle again */
		for (int i = 0; i < sim_job_nexecs(j); i++) {
			struct sim_exec *x = sim_job_exec(s, j, i);
			if (x && x->role != SIM_ROLE_AM && !tf_is_ps(s, j, x))
				sim_give_gpus(s, x);
		}
		sim_job_set_state(s, j, PH_SHUTDOWN);
		sim_job_timer(s, j, (double)params_of(s, j)->shutdown_us, T_PHASE);
		break;
	case PH_SHUTDOWN:
		sim_end_job(s, j, JOB_DONE, SIM_WHY_NONE);
		break;
	case PH_RESTORE: /* the checkpoint is loaded: training goes on */
		start_training(s, j);
		break;
	default:
		sim_die(s, "job %d: phase timer in phase %d", j->id, (int)j->mstate);
	}
}

/* ---- the kernel's hooks --------------------------------------------- */

static void mn_arrived(struct sim *s, struct sim_job *j)
{
	sim_job_timer(s, j, (double)params_of(s, j)->reservation_timeout_us, T_TIMEOUT);
}

/* The reservation task checks for an idle GPU, registers, and waits in
 * await_reservations() until every TF node has registered.  TF nodes
 * take no task of the kernel's dispatcher. */
/* Every TF node is up again after a loss: load the checkpoint (restore
 * cost), then train what is left. */
static void try_restore(struct sim *s, struct sim_job *j)
{
	for (int r = 0; r < j->shape->nroles; r++)
		if (j->live->role_ready[r] < j->shape->role[r].count)
			return;
	/* the TF processes start again: each TF node behind a GPU-blind
	 * policy takes an idle GPU of its node if it has none (no probes) */
	for (int i = 0; i < sim_job_nexecs(j); i++) {
		struct sim_exec *x = sim_job_exec(s, j, i);
		if (x && x->role != SIM_ROLE_AM && tf_probes(s, j, x) && !x->gpus_grabbed &&
		    sim_cluster(s)->nodes[x->node].gpus_free > 0)
			sim_take_gpu(s, x);
	}
	if (!(FLAGS(j) & F_TRAINED)) { /* lost in its start-up: the start-up again */
		sim_job_set_state(s, j, PH_STARTUP);
		FLAGS(j) &= ~F_STARTUP_OVER;
		sim_job_timer(s, j, (double)params_of(s, j)->startup_us, T_PHASE);
		return;
	}
	sim_job_set_state(s, j, PH_RESTORE);
	sim_job_timer(s, j, (double)params_of(s, j)->checkpoint_restore_us, T_PHASE);
}

static void mn_exec_ready(struct sim *s, struct sim_job *j, struct sim_exec *x)
{
	tf_assign_role(s, j, x);
	if (j->mstate == PH_RECOVER) { /* a replacement */
		try_restore(s, j);
		return;
	}
	if (!tf_probes(s, j, x)) {
		tf_register(s, j);
		return;
	}
	GPU_STATE(x) = TG_REGISTER;
	GPU_TRIES(x) = 0;
	GPU_ATTEMPTS(x) = 0;
	tf_probe(s, j, x);
}

/* A TF node was lost.  TFoS 1.x has no elastic recovery: the job fails,
 * unless it checkpoints (checkpoint_every).  Then:
 *   - in the reservation, the reservation goes on: the replacement
 *     registers in the lost node's place (its timeout still runs);
 *   - later, the job waits for its replacements and starts its TF
 *     processes again: the start-up again if training never began, else
 *     it loads the last checkpoint and trains what is left.  A node
 *     failure loses the training since the last periodic checkpoint, a
 *     preemption only its save (the node saved one before it went:
 *     preempt_cost_us).
 * Each loss is a failed attempt of the TF node's Spark task: past
 * task_max_failures the job fails (task-failures).  Once training is
 * over (shutdown) a loss changes nothing. */
static void mn_exec_lost(struct sim *s, struct sim_job *j, struct sim_exec *x, int why)
{
	const struct jm_mnist *p = params_of(s, j);
	if (j->mstate == PH_SHUTDOWN || x->role == SIM_ROLE_AM)
		return;
	if (!sim_roles_placed(s) && tf_is_ps(s, j, x))
		PS_POS(j) = 0; /* Spark runs partition 0 again: on the next node up */
	if (!p->checkpoint_every_us) {
		sim_end_job(s, j, JOB_FAILED, SIM_WHY_EXEC_LOST);
		return;
	}
	if (++RECOVERIES(j) >= sim_job_group(s, j->id)->task_max_failures) {
		sim_end_job(s, j, JOB_FAILED, SIM_WHY_TASK_FAILURES);
		return;
	}
	if (j->mstate == PH_RESERVE) {
		if (x->ready_us >= 0 && GPU_STATE(x) == TG_NONE)
			REGISTERED(j)--; /* it had registered */
		return;
	}
	if (j->mstate == PH_TRAIN) {
		int64_t ran = sim_now(s) - TRAIN_FROM(j);
		int64_t kept = why == SIM_WHY_PREEMPTED ? ran - p->checkpoint_save_us
			       : ran / p->checkpoint_every_us * p->checkpoint_every_us;
		if (kept < 0)
			kept = 0;
		int left = p->train_steps - STEPS_DONE(j);
		if (TRAIN_US(j) > 0)
			STEPS_DONE(j) += (int)((double)left * (double)kept / (double)TRAIN_US(j));
		sim_add_lost_work(s, 0, (double)(ran - kept) * j->live->busy_gpus);
		sim_job_busy_gpus(s, j, 0);
		for (int i = 0; i < sim_job_nexecs(j); i++) {
			struct sim_exec *w = sim_job_exec(s, j, i);
			if (w && w->role != SIM_ROLE_AM && !tf_is_ps(s, j, w))
				sim_give_gpus(s, w); /* the TF processes stop */
		}
	}
	for (int i = 0; i < sim_job_nexecs(j); i++) { /* the TF processes stop */
		struct sim_exec *w = sim_job_exec(s, j, i);
		if (w)
			GPU_STATE(w) = TG_NONE; /* their GPU calls with them */
	}
	GPU_WAITS(j) = 0;
	sim_job_set_state(s, j, PH_RECOVER); /* its pending phase timers are off */
}

/* Preempting a TF node of a job that checkpoints costs the checkpoint's
 * save (tf.train.Saver, before the node goes); else nothing is saved. */
static int64_t mn_preempt_cost(struct sim *s, struct sim_job *j, struct sim_exec *x)
{
	(void)x;
	const struct jm_mnist *p = params_of(s, j);
	return p->checkpoint_every_us && j->mstate == PH_TRAIN ? p->checkpoint_save_us : 0;
}

static void mn_timer(struct sim *s, struct sim_job *j, struct sim_exec *x, int tag)
{
	if (x)
		on_probe_timer(s, j, x);
	else if (tag == T_TIMEOUT) /* still reserving: the timer is bound to it */
		sim_end_job(s, j, JOB_TIMED_OUT, SIM_WHY_TIMEOUT);
	else
		on_phase_end(s, j);
}

/* Role 0: the parameter server; role 1: the workers.  One TF node per
 * executor. */
static void mn_shape(const struct scn *s, int g, struct sim_shape *out)
{
	const struct scn_job_group *grp = &s->jobs[g];
	const struct jm_mnist *p = grp->params;
	out->nroles = 2;
	wl_set_role(&out->role[0], &p->ps, 1, grp);
	wl_set_role(&out->role[1], &p->worker, p->cluster_size - 1, grp);
	out->role[0].slots = out->role[1].slots = 1;
	out->rigid = true; /* every TF node is up before training starts */
	/* one spark.executor.* for both roles: TFoS's executors are all
	 * alike, and all count against spark.cores.max */
	out->one_profile = true;
}

/* ---- the scenario's keys -------------------------------------------- */

static int mn_loaded(struct scn_job_group *grp, const struct jm_given *given, char *err,
		     size_t errlen)
{
	struct jm_mnist *j = grp->params;
	j->worker.count = j->cluster_size - 1;
	/* training ends at `steps` (StopAtStepHook) or when the feed ends:
	 * the feed holds ceil(samples × epochs / batch_size) batches, the
	 * last one short if the division leaves a rest (the example trains
	 * on any batch that is not empty) */
	int64_t fed = (int64_t)j->samples * j->epochs;
	int64_t batches = (fed + j->batch_size - 1) / j->batch_size;
	j->train_steps = batches < j->steps ? (int)batches : j->steps;
	/* feeding with a single worker: partitions x epochs feed tasks */
	int64_t feeds = (int64_t)j->partitions * j->epochs;
	if (j->feed_task_us && feeds > SCN_MAX_TIME_US / j->feed_task_us) {
		const struct scn_pos *at = jm_pos(&jm_mnist_spark, given, "feed_task");
		snprintf(err, errlen, "%s:%d:%d: feeding %" PRId64 " partitions (partitions x epochs) "
			 "of %" PRId64 "us each takes longer than the limit of %llds", at->file,
			 at->line, at->col, feeds, j->feed_task_us, SCN_MAX_TIME_S);
		return -1;
	}
	return 0;
}

static int mn_check(const struct scn *s, int g, char *err, size_t errlen)
{
	if (wl_need_kernel(s, g, "mnist_step", "cpu", err, errlen))
		return -1;
	const struct scn_cost_kernel *k = scn_cost_kernel(s, "mnist_step");
	for (int n = 0; n < s->ngroups; n++) {
		const struct scn_node_group *ng = &s->groups[n];
		if (ng->gpus > 0 && !scn_cost_device(k, ng->gpu_model) &&
		    wl_need_kernel(s, g, "mnist_step", "gpu", err, errlen))
			return -1;
	}
	return 0;
}

#define MAX_STEPS 1000000000   /* steps */
#define MAX_SAMPLES 1000000000 /* samples */
#define MAX_MNIST 1000000      /* batch_size, epochs, partitions */
#define MN(f) offsetof(struct jm_mnist, f)
static const char *const gpu_busy_names[] = {
	[JM_GPU_BUSY_RETRY] = "retry",
	[JM_GPU_BUSY_CPU] = "cpu",
};
static const struct jm_key mn_keys[] = {
	{.key = "cluster_size", .kind = JM_INT, .off = MN(cluster_size), .lo = 2,
	 .hi = SCN_MAX_EXECUTORS, .what = "executors per job",
	 .help = "TF nodes: 1 parameter server + workers (default 3)"},
	{.key = "ps", .kind = JM_ROLE, .off = MN(ps),
	 .help = "the parameter server's executor: cores, memory, gpus, require, prefer"},
	{.key = "worker", .kind = JM_ROLE, .off = MN(worker),
	 .help = "each worker's executor: cores, memory, gpus, require, prefer"},
	{.key = "steps", .kind = JM_INT, .off = MN(steps), .lo = 1, .hi = MAX_STEPS,
	 .what = "steps", .help = "global training steps at most (default 1000); the feed's "
	 "end may stop training first: min(steps, ceil(samples x epochs / batch_size))"},
	{.key = "samples", .kind = JM_INT, .off = MN(samples), .lo = 1, .hi = MAX_SAMPLES,
	 .what = "samples", .help = "training samples fed per epoch (default 60000, MNIST's)"},
	{.key = "batch_size", .kind = JM_INT, .off = MN(batch_size), .lo = 1, .hi = MAX_MNIST,
	 .what = "samples per batch", .help = "samples per step (default 100)"},
	{.key = "epochs", .kind = JM_INT, .off = MN(epochs), .lo = 1, .hi = MAX_MNIST,
	 .what = "epochs", .help = "passes over the samples (default 1)"},
	{.key = "partitions", .kind = JM_INT, .off = MN(partitions), .lo = 1, .hi = MAX_MNIST,
	 .what = "partitions", .help = "training RDD partitions (default 10)"},
	{.key = "feed_task", .kind = JM_TIME, .off = MN(feed_task_us), .lo = 0,
	 .help = "feeding one partition for one epoch (default 1s)"},
	{.key = "startup", .kind = JM_TIME, .off = MN(startup_us), .lo = 0,
	 .help = "TF start-up once every executor is up (default 10s)"},
	{.key = "shutdown", .kind = JM_TIME, .off = MN(shutdown_us), .lo = 0,
	 .help = "shutdown after training (default 2s)"},
	{.key = "reservation_timeout", .kind = JM_TIME, .off = MN(reservation_timeout_us), .lo = 1,
	 .help = "TFoS's reservation timeout (default 600s)"},
	{.key = "checkpoint_every", .kind = JM_TIME, .off = MN(checkpoint_every_us), .lo = 0,
	 .help = "training time between checkpoints; 0 (default): none, a lost node fails the job"},
	{.key = "checkpoint_save", .kind = JM_TIME, .off = MN(checkpoint_save_us), .lo = 0,
	 .help = "saving a checkpoint: what a preempted node pays before it goes (default 0)"},
	{.key = "checkpoint_restore", .kind = JM_TIME, .off = MN(checkpoint_restore_us), .lo = 0,
	 .help = "loading the last checkpoint once every node is up again (default 0)"},
	{.key = "gpu_busy", .kind = JM_ENUM, .off = MN(gpu_busy), .names = gpu_busy_names,
	 .nnames = ARRAY_LEN(gpu_busy_names),
	 .help = "a worker finding every GPU of its node busy: retry (TFoS 1.x) or cpu"},
};

static const struct jm_mnist mn_defaults = {
	.cluster_size = 3,
	.ps = {.count = 1, .cores = 1, .mem_mib = 2048},
	.worker = {.count = 2, .cores = 1, .mem_mib = 3072, .gpus = 1},
	.steps = 1000,
	.batch_size = 100,
	.epochs = 1,
	.samples = 60000,
	.partitions = 10,
	.feed_task_us = 1000000,
	.startup_us = 10000000,
	.shutdown_us = 2000000,
	.reservation_timeout_us = 600000000,
	.gpu_busy = JM_GPU_BUSY_RETRY,
};

static const struct sim_job_ops mn_ops = {
	.shape = mn_shape,
	.state_names = ph_names,
	.arrived = mn_arrived,
	.exec_ready = mn_exec_ready,
	.timer = mn_timer,
	.exec_lost = mn_exec_lost,
	.preempt_cost_us = mn_preempt_cost,
	.throughput = mn_throughput,
	.roles = {"ps", "worker"},
	.app_name = "TFoS",
};

const struct job_model jm_mnist_spark = {
	.name = "mnist_spark",
	.keys = mn_keys,
	.nkeys = ARRAY_LEN(mn_keys),
	.params_size = sizeof(struct jm_mnist),
	.defaults = &mn_defaults,
	.loaded = mn_loaded,
	.check = mn_check,
	.longest_us = mn_longest_us,
	.longest_what = "its training, on every worker at once on the fastest device, would take",
	.ops = &mn_ops,
};
