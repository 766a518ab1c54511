/* pol_common.c - job queues, tentative placement, feasibility. */
#include "pol_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "util.h"

void pol_jobset_init(struct pol_jobset *q, int njobs)
{
	pol_bits_init(&q->b, njobs);
	q->last = -1;
	q->from = 0;
}

void pol_jobset_free(struct pol_jobset *q)
{
	pol_bits_free(&q->b);
}

void pol_jobset_add(struct pol_jobset *q, int job)
{
	if (job <= q->last) {
		fprintf(stderr, "hetsim: policy queue: job %d added after job %d\n", job, q->last);
		abort();
	}
	q->last = job;
	pol_bits_put(&q->b, job, true);
}

void pol_queue_init(struct pol_queue *q, int njobs)
{
	q->prev = xmalloc((size_t)(njobs ? njobs : 1) * sizeof *q->prev);
	q->next = xmalloc((size_t)(njobs ? njobs : 1) * sizeof *q->next);
	/* prev and next mean something only while queued (queued says
	 * which), but touching them now faults their pages in here, once,
	 * instead of one fault per 1024 arrivals inside the hooks */
	memset(q->prev, 0xff, (size_t)njobs * sizeof *q->prev);
	memset(q->next, 0xff, (size_t)njobs * sizeof *q->next);
	q->queued = xcalloc((size_t)njobs / 64 + 1, sizeof *q->queued);
	q->head = q->tail = -1;
	q->len = 0;
}

void pol_queue_free(struct pol_queue *q)
{
	free(q->prev);
	free(q->next);
	free(q->queued);
}

void pol_queue_push(struct pol_queue *q, int job)
{
	q->prev[job] = q->tail;
	q->next[job] = -1;
	if (q->tail >= 0)
		q->next[q->tail] = job;
	else
		q->head = job;
	q->tail = job;
	q->queued[job >> 6] |= UINT64_C(1) << (job & 63);
	q->len++;
}

void pol_queue_remove(struct pol_queue *q, int job)
{
	if (!pol_queue_has(q, job))
		return;
	int p = q->prev[job], n = q->next[job];
	if (p >= 0)
		q->next[p] = n;
	else
		q->head = n;
	if (n >= 0)
		q->prev[n] = p;
	else
		q->tail = p;
	q->queued[job >> 6] &= ~(UINT64_C(1) << (job & 63));
	q->len--;
}

void pol_tent_init(struct pol_tent *t, int nnodes)
{
	memset(t, 0, sizeof *t);
	t->cores = xcalloc((size_t)(nnodes ? nnodes : 1), sizeof *t->cores);
	t->gpus = xcalloc((size_t)(nnodes ? nnodes : 1), sizeof *t->gpus);
	t->mem_mib = xcalloc((size_t)(nnodes ? nnodes : 1), sizeof *t->mem_mib);
}

void pol_tent_reset(struct pol_tent *t)
{
	for (int i = 0; i < t->n; i++) {
		int node = t->e[i].node;
		t->cores[node] = t->gpus[node] = 0;
		t->mem_mib[node] = 0;
	}
	t->n = 0;
}

void pol_tent_add(struct pol_tent *t, int node, int role, int cores, int64_t mem, int gpus)
{
	xgrow(&t->e, &t->cap, t->n + 1, sizeof *t->e);
	t->e[t->n++] = (struct pol_tent_exec){node, role, cores, mem, gpus};
	t->cores[node] += cores;
	t->mem_mib[node] += mem;
	t->gpus[node] += gpus;
}

void pol_tent_free(const struct pol_tent *t, const struct clu_node *n, int *cores,
		   int64_t *mem, int *gpus)
{
	*cores = n->cores_free - t->cores[n->id];
	*mem = n->mem_free - t->mem_mib[n->id];
	*gpus = n->gpus_free - t->gpus[n->id];
}

void pol_tent_launch(struct pol_tent *t, struct sim *s, int job)
{
	for (int i = 0; i < t->n; i++)
		sim_launch_executor(s, job, t->e[i].role, t->e[i].node, t->e[i].cores,
				    t->e[i].mem_mib, t->e[i].gpus);
	pol_tent_reset(t);
}

void pol_tent_fini(struct pol_tent *t)
{
	free(t->e);
	free(t->cores);
	free(t->gpus);
	free(t->mem_mib);
	memset(t, 0, sizeof *t);
}

bool pol_feasible(const struct sim *s, const struct sim_job *j, bool use_labels,
		  bool check_cores, bool use_gpus)
{
	const struct scn *sc = sim_scenario(s);
	for (int r = 0; r < j->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		int want = ro->count - j->live->granted[r];
		int cores = ro->cores ? ro->cores : 1, gpus = use_gpus ? ro->gpus : 0;
		int64_t fit = 0; /* executors of this role the empty cluster holds */
		for (int g = 0; g < sc->ngroups && want > 0; g++) {
			const struct scn_node_group *ng = &sc->groups[g];
			if (use_labels && (ng->labels & ro->require) != ro->require)
				continue;
			int64_t k = ng->mem_mib / ro->mem_mib;
			if (check_cores && ng->cores / cores < k)
				k = ng->cores / cores;
			if (gpus && ng->gpus / gpus < k)
				k = ng->gpus / gpus;
			fit += k * ng->count;
		}
		if (want > 0 && fit < want)
			return false;
	}
	return true;
}

void pol_fits_init(struct pol_fits *f, const struct sim *s)
{
	int n = sim_scenario(s)->njobgroups;
	f->by_group = xmalloc((size_t)(n ? n : 1));
	memset(f->by_group, -1, (size_t)(n ? n : 1));
}

void pol_fits_free(struct pol_fits *f)
{
	free(f->by_group);
	f->by_group = NULL;
}

bool pol_fits_arrived(struct pol_fits *f, const struct sim *s, const struct sim_job *j,
		      bool use_labels, bool check_cores, bool use_gpus)
{
	int8_t *v = &f->by_group[j->group];
	if (*v < 0)
		*v = pol_feasible(s, j, use_labels, check_cores, use_gpus);
	return *v;
}
