/* frag.c - FGD's fragmentation measure (frag.h). */
#include "frag.h"

#include <stdlib.h>

#include "cluster.h"
#include "scenario.h"
#include "scn_trace.h"
#include "sim.h"
#include "util.h"

#define FRAG_COVER 0.95

void frag_add(struct frag_target *t, int64_t cpu, int k, int m, uint64_t require,
	      long long count)
{
	int i = 0;
	while (i < t->n && !(t->ts[i].cpu == cpu && t->ts[i].k == k && t->ts[i].m == m &&
			     t->ts[i].require == require))
		i++;
	if (i == t->n) {
		xgrow(&t->ts, &t->cap, t->n + 1, sizeof *t->ts);
		t->ts[t->n++] = (struct frag_shape){cpu, k, m, require, 0, 0};
	}
	t->ts[i].n += count;
}

void frag_finish(struct frag_target *t)
{
	/* by count, ties in first appearance: a stable insertion sort */
	for (int a = 1; a < t->n; a++)
		for (int b = a; b > 0 && t->ts[b].n > t->ts[b - 1].n; b--) {
			struct frag_shape x = t->ts[b];
			t->ts[b] = t->ts[b - 1];
			t->ts[b - 1] = x;
		}
	long long all = 0, got = 0;
	for (int i = 0; i < t->n; i++)
		all += t->ts[i].n;
	int keep = 0;
	while (keep < t->n && (double)got < FRAG_COVER * (double)all)
		got += t->ts[keep++].n;
	t->n = keep;
	for (int i = 0; i < keep; i++)
		t->ts[i].p = got ? (double)t->ts[i].n / (double)got : 0;
}

/* Count a job shape's executors, `jobs` times. */
static void add_shape(struct frag_target *t, const struct sim_shape *sh, long long jobs)
{
	for (int r = 0; r < sh->nroles; r++) {
		const struct sim_role *ro = &sh->role[r];
		int k = ro->gpus ? ro->gpus : ro->gpu_milli > 0;
		int m = ro->gpus ? CLU_GPU_MILLI : ro->gpu_milli;
		frag_add(t, ro->cores ? ro->cores : CLU_MILLI, k, m, k ? ro->require : 0,
			 jobs * ro->count);
	}
}

void frag_of_scenario(const struct scn *sc, struct frag_target *t)
{
	for (int g = 0; g < sc->njobgroups; g++) {
		const struct scn_job_group *jg = &sc->jobs[g];
		const struct scn_trace *tr = jg->trace;
		int ns = sim_group_nshapes(sc, g);
		long long *jobs = xcalloc((size_t)ns, sizeof *jobs);
		if (tr && jg->ops && sim_group_nshapes(sc, g) == tr->nshapes) {
			for (int k = 0; k < tr->nshapes; k++)
				jobs[k] = tr->orig_count ? tr->orig_count[k] : 0;
			for (int64_t i = 0; !tr->orig_count && i < tr->njobs; i++)
				jobs[tr->jobs[i].shape]++;
		} else {
			jobs[0] = jg->count;
		}
		for (int k = 0; k < ns; k++) {
			struct sim_shape sh;
			sim_group_shape_at(sc, g, k, &sh);
			if (jobs[k])
				add_shape(t, &sh, jobs[k]);
		}
		free(jobs);
	}
	frag_finish(t);
}

void frag_free(struct frag_target *t)
{
	free(t->ts);
	*t = (struct frag_target){0};
}

double frag_node(const struct frag_target *t, uint64_t labels, int64_t cpu_free, int g,
		 const uint16_t *free, int64_t gfree)
{
	double f = 0;
	for (int i = 0; i < t->n; i++) {
		const struct frag_shape *s = &t->ts[i];
		int64_t part = gfree; /* CPU-only, a model it may not use, or no fit */
		if (s->k && (labels & s->require) == s->require) {
			int fit = 0;
			int64_t unusable = 0;
			for (int j = 0; j < g; j++)
				if (free[j] >= s->m)
					fit++;
				else
					unusable += free[j];
			if (fit >= s->k && cpu_free >= s->cpu)
				part = unusable;
		}
		f += s->p * (double)part;
	}
	return f;
}
