/* workload.c - what the job models share: roles, cost-model evaluation,
 * checks (workload.h). */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models.h"
#include "rng.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"

void wl_set_role(struct sim_role *r, const struct scn_exec *e, int count,
		 const struct scn_job_group *jg)
{
	r->count = count;
	r->slots = -1;
	r->cores = e->cores * CLU_MILLI; /* the kernel counts milli-cores */
	r->mem_mib = e->mem_mib ? e->mem_mib : 1024;
	r->gpus = e->gpus;
	r->require = e->has_labels ? e->require : jg->require;
	r->prefer = e->has_labels ? e->prefer : jg->prefer;
}

void wl_spark_shape(const struct scn_job_group *jg, const struct scn_exec *exec,
		    struct sim_shape *out)
{
	out->nroles = 1;
	wl_set_role(&out->role[0], exec, exec->count > 0 ? exec->count : 2, jg);
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
	if (c->k->noise == SCN_NOISE_LOGNORMAL && c->k->noise_cv > 0) {
		c->key = rng_key(seed, 0, RNG_NOISE, x, y, z);
		c->noise = rng_lognormal_par(1.0, c->k->noise_cv);
	}
}

static _Thread_local struct wl_cost_max *watch;

void wl_cost_watch(struct wl_cost_max *w)
{
	if (w)
		*w = (struct wl_cost_max){0};
	watch = w;
}

struct wl_cost_max *wl_cost_watch_pause(void)
{
	struct wl_cost_max *w = watch;
	watch = NULL;
	return w;
}

void wl_cost_watch_resume(struct wl_cost_max *w)
{
	watch = w;
}

double wl_cost_at(const struct wl_cost *c, double work, double cpu_speed, uint64_t draw)
{
	double t = c->d->intercept_us + c->d->slope_us * work;
	if (c->cpu)
		t /= cpu_speed;
	if (c->k->noise == SCN_NOISE_LOGNORMAL && c->k->noise_cv > 0)
		t *= rng_lognormal_at(c->key, draw, c->noise);
	if (watch && t > watch->us)
		*watch = (struct wl_cost_max){c->k, c->d, work, t};
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

int wl_need_kernel(const struct scn *s, int g, const char *kernel, const char *dev,
		       char *err, size_t errlen)
{
	const struct scn_job_group *jg = &s->jobs[g];
	const struct scn_cost_kernel *k = scn_cost_kernel(s, kernel);
	if (k && scn_cost_device(k, dev))
		return 0;
	snprintf(err, errlen, "%s:%d:%d: job group '%s' needs kernel '%s' for device '%s' "
		 "in the cost model%s", jg->pos.file, jg->pos.line, jg->pos.col, jg->name,
		 kernel, dev, s->cost.nkernels ? "" : " (the scenario has no cost_model)");
	return -1;
}

/* models.h's jm_pos: here, below the registry (models.c names every
 * model, and the models call this), so that no two files lean on each
 * other. */
const struct scn_pos *jm_pos(const struct job_model *m, const struct jm_given *given,
			     const char *key)
{
	for (int k = 0; k < m->nkeys; k++)
		if (strcmp(m->keys[k].key, key) == 0 && given->at[k].line)
			return &given->at[k];
	return &given->group;
}
