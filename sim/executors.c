/* executors.c - executors: launched by a policy, up (their job model
 * told, or their slots opened), held back from tasks until enough are
 * up (sim_hold_tasks), released; GPUs a model grabs and gives back; the
 * job's executors as a model sees them.  Calls live.c (a job's record
 * at its first executor), events.c, sim.c (names).
 */
#include "kernel.h"

#include <inttypes.h>

/* ---- executors ------------------------------------------------------ */

int sim_launch_executor(struct sim *s, int job, int role, int node, int cores,
			int64_t mem_mib, int gpus)
{
	struct sim_gpu_ask g = {.count = gpus, .index = -1};
	return sim_launch_executor_on(s, job, role, node, cores, mem_mib, &g);
}

int sim_launch_executor_on(struct sim *s, int job, int role, int node, int cores,
			   int64_t mem_mib, const struct sim_gpu_ask *ga)
{
	if (job < 0 || job >= s->pub.njobs || node < 0 || node >= s->clu.n)
		sim_die(s, "policy launched an executor for job %d on node %d: no such job or node",
		    job, node);
	struct sim_job *j = &s->pub.jobs[job];
	struct clu_node *n = &s->clu.nodes[node];
	int gpus = ga->milli ? 0 : ga->count, milli = ga->milli, share = -1;
	if (!job_active(j) || role < SIM_ROLE_AM || role >= j->shape->nroles || cores < 0 ||
	    mem_mib < 0 || gpus < 0 || milli < 0 || milli >= CLU_GPU_MILLI ||
	    (ga->mask && __builtin_popcountll(ga->mask) != gpus))
		sim_die(s, "policy launched an invalid executor (job %d, status %s, role %d)", job,
		    sim_status_name(j->status), role);
	if (milli) {
		share = ga->index >= 0 ? ga->index : clu_share_pick(n, milli);
		if (share < 0 || share >= n->gpus || clu_gpu_free(n, share) < milli ||
		    mem_mib > n->mem_free)
			sim_die(s, "policy launched an executor of %" PRId64 " MiB and %d milli-GPUs of GPU "
			    "%d for job %d on node %s, which has %" PRId64 " MiB and no such share free",
			    mem_mib, milli, share, job, n->name, n->mem_free);
	} else if (!clu_fits(n, cores, mem_mib, gpus, false) ||
		   (ga->mask && (n->pool || (ga->mask & ~n->gpu_idle))))
		sim_die(s, "policy launched an executor of %" PRId64 " MiB and %d GPUs for job %d on "
		    "node %s, which has %" PRId64 " MiB and %d GPUs free",
		    mem_mib, gpus, job, n->name, n->mem_free, n->gpus_free);

	integrate(s);
	int id = slot_take(&s->execs, &s->cap_execs, &s->free_exec, sizeof *s->execs,
			   offsetof(struct sim_exec, node_next));
	struct sim_exec *x = &s->execs[id];
	*x = (struct sim_exec){.id = s->nexecs++, .job = job, .role = role, .played = role,
			       .node = node,
			       .cores = cores, .mem_mib = mem_mib, .gpus = gpus,
			       .gpu_milli = milli, .gpu_share = share,
			       .launch_us = s->now, .ready_us = -1, .end_us = -1,
			       .gpu_from_us = gpus > 0 || milli ? s->now : -1, .gpu_to_us = -1,
			       .live = true, .node_prev = -1,
			       .node_next = n->exec_head};
	if (role == SIM_ROLE_AM)
		x->slots = 0; /* runs no task */
	else if (j->shape->role[role].slots >= 0)
		x->slots = j->shape->role[role].slots;
	else
		x->slots = j->shape->task_cpus ? cores / j->shape->task_cpus : cores;
	if (n->exec_head >= 0)
		s->execs[n->exec_head].node_prev = id;
	n->exec_head = id;
	n->nexec++;
	if (milli)
		clu_take_share(&s->clu, node, cores, mem_mib, share, milli);
	else
		x->gpu_mask = clu_take_at(&s->clu, node, cores, mem_mib, gpus, ga->mask);
	s->alloc_cores += cores;
	s->alloc_mem += mem_mib;
	s->alloc_gpus += milli ? milli : (int64_t)gpus * CLU_GPU_MILLI;

	struct sim_live *jr = has_live(j) ? j->live : k_live_get(s, j);
	xgrow(&jr->execs, &jr->cap_execs, jr->nexecs + 1, sizeof *jr->execs);
	x->jpos = jr->nexecs;
	jr->execs[jr->nexecs++] = (struct sim_job_exec){.id = id, .node = node, .free = 0};
	if (role == SIM_ROLE_AM) {
		j->live->ams_live++;
	} else {
		j->live->granted[role]++;
		j->live->cores_granted += cores;
		j->live->execs_live++;
	}
	j->gpus_used += milli ? 1 : gpus;
	x->ev_seq = k_push_at(s, (double)s->now + (double)s->scn->over.executor_startup_us,
			       EV_EXEC_READY, (uint32_t)id);
	check_node(s, node);
	return x->id;
}

void k_release_exec(struct sim *s, int id)
{
	struct sim_exec *x = &s->execs[id];
	struct clu_node *n = &s->clu.nodes[x->node];
	struct sim_job *j = &s->pub.jobs[x->job];
	if (!x->live)
		sim_die(s, "executor %d released twice", id);
	integrate(s);
	x->live = false;
	x->end_us = s->now;
	if (x->node_prev >= 0)
		s->execs[x->node_prev].node_next = x->node_next;
	else
		n->exec_head = x->node_next;
	if (x->node_next >= 0)
		s->execs[x->node_next].node_prev = x->node_prev;
	n->nexec--;
	if (x->gpus + x->gpus_grabbed > 0 || x->gpu_milli)
		x->gpu_to_us = s->now;
	if (x->gpu_milli) {
		clu_give_share(&s->clu, x->node, x->cores, x->mem_mib, x->gpu_share, x->gpu_milli);
		if (x->grab_mask)
			clu_give(&s->clu, x->node, 0, 0, x->grab_mask);
	} else {
		clu_give(&s->clu, x->node, x->cores, x->mem_mib, x->gpu_mask | x->grab_mask);
	}
	s->alloc_cores -= x->cores;
	s->alloc_mem -= x->mem_mib;
	s->alloc_gpus -= x->gpu_milli + (int64_t)(x->gpus + x->gpus_grabbed) * CLU_GPU_MILLI;
	if (x->role == SIM_ROLE_AM) {
		j->live->ams_live--;
	} else {
		j->live->cores_granted -= x->cores;
		j->live->execs_live--;
	}
	check_node(s, x->node);
	if (s->exec_sink)
		s->exec_sink(s->exec_ctx, s, x);
	x->ev_seq = UINT64_MAX; /* a queued event of this slot is now stale */
	x->node_next = s->free_exec;
	s->free_exec = id;
}

/* ---- executors coming up, and the requests of job models ---------- */

void sim_exec_open(struct sim *s, struct sim_job *j, struct sim_exec *x)
{
	j->live->execs[x->jpos].free = x->slots;
	queue_dispatch(s, j);
}

static void exec_ready_hook(struct sim *s, struct sim_job *j, struct sim_exec *x)
{
	x->heard = true;
	if (j->shape->ops->exec_ready)
		j->shape->ops->exec_ready(s, j, x);
	else
		sim_exec_open(s, j, x);
}

void k_on_exec_ready(struct sim *s, struct sim_exec *x)
{
	struct sim_job *j = &s->pub.jobs[x->job];
	x->ready_us = s->now;
	if (x->role == SIM_ROLE_AM) {
		j->live->ams_ready++;
		s->sched_dirty = true; /* the AM now asks for its containers */
		return;
	}
	j->live->role_ready[x->role]++;
	if (!s->hold[j->id]) {
		exec_ready_hook(s, j, x);
		return;
	}
	int up = 0;
	for (int r = 0; r < j->shape->nroles; r++)
		up += j->live->role_ready[r];
	if (up >= s->hold[j->id])
		sim_release_tasks(s, j->id); /* x among them */
}

void sim_hold_tasks(struct sim *s, int job, int n_ready)
{
	s->hold[job] = n_ready > 0 ? n_ready : 0;
}

void sim_release_tasks(struct sim *s, int job)
{
	struct sim_job *j = &s->pub.jobs[job];
	if (!s->hold[job])
		return;
	s->hold[job] = 0;
	if (!job_active(j) || !has_live(j))
		return;
	for (int i = 0; i < j->live->nexecs; i++) { /* launch order */
		int id = j->live->execs[i].id;
		struct sim_exec *x = id >= 0 ? &s->execs[id] : NULL;
		if (x && x->live && x->ready_us >= 0 && x->role != SIM_ROLE_AM && job_active(j))
			exec_ready_hook(s, j, x);
	}
}

void sim_take_gpu(struct sim *s, struct sim_exec *x)
{
	if (s->clu.nodes[x->node].gpus_free < 1)
		sim_die(s, "executor %d took a GPU on node %s, which has none free", x->id,
		    s->clu.nodes[x->node].name);
	integrate(s);
	x->grab_mask = clu_take(&s->clu, x->node, 0, 0, 1);
	if (s->clu.nodes[x->node].pool) /* placeholder bits apart from its own GPUs' */
		x->grab_mask <<= __builtin_popcountll(x->gpu_mask);
	x->gpus_grabbed = x->gpus_took = 1;
	x->gpu_from_us = s->now;
	s->pub.jobs[x->job].gpus_used++;
	s->alloc_gpus += CLU_GPU_MILLI;
	check_node(s, x->node);
}

void sim_give_gpus(struct sim *s, struct sim_exec *x)
{
	if (!x->gpus_grabbed)
		return;
	integrate(s);
	clu_give(&s->clu, x->node, 0, 0, x->grab_mask);
	s->alloc_gpus -= (int64_t)x->gpus_grabbed * CLU_GPU_MILLI;
	x->gpus_grabbed = 0;
	x->grab_mask = 0;
	x->gpu_to_us = s->now;
	check_node(s, x->node);
}

void sim_job_busy_gpus(struct sim *s, struct sim_job *j, int n)
{
	integrate(s);
	s->train_gpus += n - j->live->busy_gpus;
	j->live->busy_gpus = n;
}

int sim_job_nexecs(const struct sim_job *j)
{
	return j->live->nexecs;
}

struct sim_exec *sim_job_exec(struct sim *s, const struct sim_job *j, int i)
{
	int id = j->live->execs[i].id;
	return id >= 0 ? &s->execs[id] : NULL;
}

void sim_exec_plays(struct sim_exec *x, int role)
{
	x->played = role;
}
