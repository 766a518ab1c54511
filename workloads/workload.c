/* workload.c - what all job models share: arrivals, roles, the DAG
 * builder's dispatch by type, cost-model evaluation, checks. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"

void wl_arrivals(const struct scn *s, int g, uint64_t seed, int64_t *out)
{
	const struct scn_job_group *jg = &s->jobs[g];
	const struct scn_arrival *a = &jg->arrival;
	double t = (double)a->start_us;
	for (int i = 0; i < jg->count; i++) {
		switch (a->kind) {
		case SCN_ARR_FIXED:
			out[i] = a->start_us;
			break;
		case SCN_ARR_INTERVAL:
			out[i] = a->start_us + (int64_t)i * a->interval_us;
			break;
		case SCN_ARR_POISSON: {
			/* gap i is keyed by (group, i): the same whatever else
			 * the scenario holds */
			struct rng_key k = rng_key(seed, 0, RNG_ARRIVAL, (uint32_t)g, 0, 0);
			t += rng_exponential(k, (uint64_t)i, a->mean_gap_us);
			out[i] = (int64_t)llround(t);
			break;
		}
		case SCN_ARR_LIST:
			out[i] = a->times_us[i];
			break;
		}
	}
}

static void set_role(struct sim_role *r, const struct scn_exec *e, int count,
		     const struct scn_job_group *jg)
{
	r->count = count;
	r->cores = e->cores;
	r->mem_mib = e->mem_mib ? e->mem_mib : 1024;
	r->gpus = e->gpus;
	r->require = e->has_labels ? e->require : jg->require;
	r->prefer = e->has_labels ? e->prefer : jg->prefer;
}

void wl_job_shape(const struct scn *s, int g, struct sim_shape *j)
{
	const struct scn_job_group *jg = &s->jobs[g];
	memset(j, 0, sizeof *j);
	j->cores_max = jg->cores_max;
	j->task_cpus = jg->task_cpus > 0 ? jg->task_cpus : 1;
	if (jg->type == SCN_JOB_MNIST) {
		j->nroles = 2;
		set_role(&j->role[0], &jg->ps, 1, jg);
		set_role(&j->role[1], &jg->worker, jg->cluster_size - 1, jg);
	} else if (jg->type == SCN_JOB_ANGEL) {
		j->nroles = 2;
		set_role(&j->role[0], &jg->exec, jg->exec.count > 0 ? jg->exec.count : 2, jg);
		set_role(&j->role[1], &jg->ps, jg->ps.count > 0 ? jg->ps.count : 1, jg);
	} else {
		j->nroles = 1;
		set_role(&j->role[0], &jg->exec, jg->exec.count > 0 ? jg->exec.count : 2, jg);
	}
}

void wl_build_dag(const struct scn *s, int g, int idx, uint64_t seed, struct arena *a,
		  struct wl_dag *out)
{
	memset(out, 0, sizeof *out);
	out->task_delay_us = s->over.task_launch_us;
	switch (s->jobs[g].type) {
	case SCN_JOB_WORDCOUNT:
		wl_wordcount_dag(s, g, idx, seed, a, out);
		break;
	case SCN_JOB_SYNTHETIC:
		wl_synthetic_dag(s, g, idx, seed, a, out);
		break;
	case SCN_JOB_ANGEL:
		wl_angel_dag(s, g, idx, seed, a, out);
		break;
	case SCN_JOB_MNIST:
	case SCN_JOB_TYPES:
		break; /* no DAG: TFoS phases, see sim.c */
	}
}

bool wl_dag_shared(const struct scn *s, int g)
{
	const struct scn_job_group *jg = &s->jobs[g];
	if (jg->type != SCN_JOB_SYNTHETIC)
		return false;
	for (int i = 0; i < jg->nstages; i++)
		if (jg->stages[i].dur.kind != SCN_DIST_CONST)
			return false;
	return true;
}

void wl_cost_find(struct wl_cost *c, const struct scn *s, const char *kernel,
		  const char *device, uint64_t seed, uint32_t x, uint32_t y, uint32_t z)
{
	c->k = scn_cost_kernel(s, kernel);
	c->d = c->k ? scn_cost_device(c->k, device) : NULL;
	if (!c->d) {
		fprintf(stderr, "hetsim: cost model lacks %s/%s (wl_check should have said)\n",
			kernel, device);
		abort();
	}
	c->cpu = strcmp(device, "cpu") == 0;
	if (c->k->noise == SCN_NOISE_LOGNORMAL && c->k->noise_cv > 0)
		c->key = rng_key(seed, 0, RNG_NOISE, x, y, z);
}

double wl_cost_at(const struct wl_cost *c, double work, double cpu_speed, uint64_t draw)
{
	double t = c->d->intercept_us + c->d->slope_us * work;
	if (c->cpu)
		t /= cpu_speed;
	if (c->k->noise == SCN_NOISE_LOGNORMAL && c->k->noise_cv > 0)
		t *= rng_lognormal(c->key, draw, 1.0, c->k->noise_cv);
	return t;
}

double wl_cost_us(const struct scn *s, const char *kernel, const char *device,
		  double work, double cpu_speed, uint64_t seed, uint32_t x, uint32_t y,
		  uint32_t z, uint64_t draw)
{
	struct wl_cost c;
	wl_cost_find(&c, s, kernel, device, seed, x, y, z);
	return wl_cost_at(&c, work, cpu_speed, draw);
}

int wl_check(const struct scn *s, char *err, size_t errlen)
{
	for (int g = 0; g < s->njobgroups; g++) {
		int rc = 0;
		if (s->jobs[g].type == SCN_JOB_WORDCOUNT)
			rc = wl_wordcount_check(s, g, err, errlen);
		else if (s->jobs[g].type == SCN_JOB_MNIST)
			rc = wl_mnist_check(s, g, err, errlen);
		else if (s->jobs[g].type == SCN_JOB_ANGEL)
			rc = wl_angel_check(s, g, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}
