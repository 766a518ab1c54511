/* mine.c - a policy plugin for hetsim: a copy of the built-in `fifo`
 * written against the public ABI only (hetsim/policy.h), to start your
 * own from (docs/writing-a-policy.md).
 *
 * Jobs in strict arrival order.  The job at the head gets all the
 * executors it still wants at once, each on the first node in node
 * order that fits it on every dimension (cores, memory, GPUs; a GPU share
 * on the GPU of that node with the least milli-GPUs free that holds it),
 * or nothing; while it does not fit, no job behind it is considered
 * (head-of-line blocking).  Labels are ignored.  An executor with cores
 * unset gets one core.  A job that could not fit even the empty cluster
 * is rejected at arrival (hetsim_can_ever_place), so that it cannot block
 * the queue forever.  A job that loses an executor takes its place in
 * the queue again.
 *
 * Cost: a plain scan, O(nodes x tentative executors) per executor placed
 * (the built-in fifo keeps an index instead; the decisions are the same).
 *
 * Build:  make -C policies/template HETSIM=../..     (in hetsim's tree)
 *         make -C DIR                                (against an installed
 *                                                     hetsim: pkg-config)
 * Use:    hetsim run SCENARIO --plugin policies/template/libmine.so -p mine
 */
#include <stdlib.h>
#include <string.h>

#include <hetsim/policy.h>

/* One executor placed tentatively while the head job is tried whole. */
struct tent {
	int node, role, cores;
	int64_t mem_mib;
	int gpus;          /* whole GPUs (the lowest-indexed idle at launch) */
	int milli, gpu;    /* or a share of GPU `gpu` (milli > 0) */
};

struct mine {
	int njobs;
	unsigned char *queued; /* by job id: waiting in the queue */
	int head;              /* no job below it is queued */
	int last;              /* the highest job id that arrived, -1 before */
	int nnodes;
	int64_t *t_cores, *t_mem; /* by node: what is placed tentatively there */
	int *t_gpus;           /* by node: idle GPUs taken tentatively (whole or shared) */
	struct tent *t;        /* the tentative executors, in order */
	int nt, cap;
};

static void *mine_init(struct hetsim *h)
{
	struct mine *m = calloc(1, sizeof *m);
	if (!m)
		abort();
	m->njobs = hetsim_njobs(h);
	m->nnodes = hetsim_nnodes(h);
	m->queued = calloc((size_t)m->njobs + 1, 1);
	m->t_cores = calloc((size_t)m->nnodes + 1, sizeof *m->t_cores);
	m->t_mem = calloc((size_t)m->nnodes + 1, sizeof *m->t_mem);
	m->t_gpus = calloc((size_t)m->nnodes + 1, sizeof *m->t_gpus);
	if (!m->queued || !m->t_cores || !m->t_mem || !m->t_gpus)
		abort();
	m->last = -1;
	return m;
}

static void mine_fini(void *st)
{
	struct mine *m = st;
	free(m->queued);
	free(m->t_cores);
	free(m->t_mem);
	free(m->t_gpus);
	free(m->t);
	free(m);
}

static void mine_arrived(void *st, struct hetsim *h, int job)
{
	struct mine *m = st;
	int why = hetsim_can_ever_place(h, job);
	if (why != HETSIM_WHY_NONE) {
		hetsim_reject(h, job, why);
		return;
	}
	m->queued[job] = 1;
	if (job > m->last)
		m->last = job;
}

static void mine_finished(void *st, struct hetsim *h, int job)
{
	(void)h;
	((struct mine *)st)->queued[job] = 0;
}

/* A job that lost an executor asks for a replacement: back in its place. */
static void mine_exec_lost(void *st, struct hetsim *h, int job, int role, int node, int why)
{
	struct mine *m = st;
	(void)h, (void)role, (void)node, (void)why;
	m->queued[job] = 1;
	if (job < m->head)
		m->head = job;
}

/* Node n's GPUs once its tentative executors are launched in order:
 * milli-GPUs free per GPU into v; returns the idle ones as a mask. */
static uint64_t virt_gpus(const struct mine *m, const struct hetsim *h, int n, int *v)
{
	uint64_t idle = 0;
	int g, ng = hetsim_node_gpus(h, n);
	for (g = 0; g < ng; g++) {
		v[g] = hetsim_node_gpu_free_milli(h, n, g);
		if (hetsim_node_gpu_idle(h, n, g))
			idle |= UINT64_C(1) << g;
	}
	for (int i = 0; i < m->nt; i++) {
		const struct tent *e = &m->t[i];
		if (e->node != n)
			continue;
		if (e->milli) {
			idle &= ~(UINT64_C(1) << e->gpu);
			v[e->gpu] -= e->milli;
			continue;
		}
		for (int k = 0; k < e->gpus && idle; k++) {
			v[__builtin_ctzll(idle)] = 0;
			idle &= idle - 1;
		}
	}
	return idle;
}

/* The GPU of node n a share of `milli` goes on (best fit: the least
 * milli-GPUs free that still hold it, the lowest index on ties), or -1. */
static int share_pick(const struct mine *m, const struct hetsim *h, int n, int milli,
		      uint64_t *idle)
{
	int v[HETSIM_MAX_GPUS], best = -1, ng = hetsim_node_gpus(h, n);
	if (!ng)
		return -1;
	*idle = virt_gpus(m, h, n, v);
	for (int g = 0; g < ng; g++)
		if (v[g] >= milli && (best < 0 || v[g] < v[best]))
			best = g;
	return best;
}

static void tent_push(struct mine *m, struct tent e)
{
	if (m->nt == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->t = realloc(m->t, (size_t)m->cap * sizeof *m->t);
		if (!m->t)
			abort();
	}
	m->t[m->nt++] = e;
	m->t_cores[e.node] += e.cores;
	m->t_mem[e.node] += e.mem_mib;
}

static void tent_reset(struct mine *m)
{
	for (int i = 0; i < m->nt; i++) {
		m->t_cores[m->t[i].node] = 0;
		m->t_mem[m->t[i].node] = 0;
		m->t_gpus[m->t[i].node] = 0;
	}
	m->nt = 0;
}

/* Place one executor on the first node in order that fits it on every
 * dimension after the tentative ones; false if none does. */
static int first_fit(struct mine *m, const struct hetsim *h, int role, int cores,
		     int64_t mem, int gpus, int milli)
{
	for (int n = 0; n < m->nnodes; n++) {
		int64_t fc = hetsim_node_free_milli_cores(h, n) - m->t_cores[n];
		int64_t fm = hetsim_node_free_mem_mib(h, n) - m->t_mem[n];
		int fg = hetsim_node_free_gpus(h, n) - m->t_gpus[n];
		if (fc < cores || fm < mem || fg < gpus)
			continue;
		struct tent e = {n, role, cores, mem, gpus, 0, -1};
		if (milli) {
			uint64_t idle;
			int g = share_pick(m, h, n, milli, &idle);
			if (g < 0)
				continue;
			e.milli = milli;
			e.gpu = g;
			m->t_gpus[n] += (int)(idle >> g & 1); /* an idle GPU is idle no more */
		} else {
			m->t_gpus[n] += gpus;
		}
		tent_push(m, e);
		return 1;
	}
	return 0;
}

/* Every executor job `job` still wants, placed tentatively; false if one
 * does not fit. */
static int place_all(struct mine *m, const struct hetsim *h, int job)
{
	const struct hetsim_shape *sh = hetsim_job_shape(h, job);
	tent_reset(m);
	for (int r = 0; r < hetsim_nroles(sh); r++) {
		int cores = hetsim_role_milli_cores(sh, r);
		int gpus = hetsim_role_gpus(sh, r);
		int milli = hetsim_role_gpu_milli(sh, r);
		int64_t mem = hetsim_role_mem_mib(sh, r);
		if (!cores)
			cores = HETSIM_MILLI; /* unset: one core */
		for (int k = hetsim_job_wanted(h, job, r); k > 0; k--)
			if (!first_fit(m, h, r, cores, mem, gpus, milli))
				return 0;
	}
	return 1;
}

static void launch_all(struct mine *m, struct hetsim *h, int job)
{
	for (int i = 0; i < m->nt; i++) {
		const struct tent *e = &m->t[i];
		int id = e->milli ? hetsim_launch_share(h, job, e->role, e->node, e->cores,
							e->mem_mib, e->gpu, e->milli)
				  : hetsim_launch(h, job, e->role, e->node, e->cores, e->mem_mib,
						  e->gpus);
		if (id < 0)
			abort(); /* it was checked to fit: a bug here */
	}
	tent_reset(m);
}

static void mine_schedule(void *st, struct hetsim *h)
{
	struct mine *m = st;
	while (m->head <= m->last && !m->queued[m->head])
		m->head++;
	for (int job = m->head; job <= m->last; job++) {
		if (!m->queued[job])
			continue;
		if (!place_all(m, h, job))
			return; /* head-of-line blocking */
		launch_all(m, h, job);
		m->queued[job] = 0;
	}
}

static const struct hetsim_param mine_params[] = {{.key = NULL}};

static const struct hetsim_policy mine = {
	HETSIM_POLICY_HEADER,
	.name = "mine",
	.summary = "fifo as a plugin: strict arrival order, whole job first fit in node order, "
		   "head-of-line blocking",
	.params = mine_params,
	.flags = 0, /* ignores labels; GPU-aware; places each role */
	.init = mine_init,
	.job_arrived = mine_arrived,
	.job_finished = mine_finished,
	.schedule = mine_schedule,
	.fini = mine_fini,
	.exec_lost = mine_exec_lost,
	/* can_ever_place NULL: hetsim's default rule, fifo's */
};

HETSIM_POLICY_EXPORT(mine)
