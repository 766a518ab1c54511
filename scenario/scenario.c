/* scenario.c - freeing a scenario and its look-ups (scenario.h).  No
 * include of another module: this is the bottom layer. */
#include "scenario.h"
#include "scn_trace.h"
#include "scn_app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void free_job(struct scn_job_group *j)
{
	free(j->name);
	free(j->arrival.times_us);
	for (int i = 0; i < j->nstages; i++) {
		free(j->stages[i].name);
		free(j->stages[i].parents);
	}
	free(j->stages);
	free(j->params);
	for (int i = 0; i < j->ntput; i++)
		free(j->tput[i].gpu_model);
	free(j->tput);
}

void scn_cost_meta_free(struct scn_cost_meta *m)
{
	free(m->gpu);
	free(m->gpu_cuda);
	free(m->backend);
	free(m->data);
	free(m->source);
	free(m->cpu);
	free(m->os);
	free(m->compiler);
	free(m->blas);
	free(m->date);
	free(m->ref_kernel);
	memset(m, 0, sizeof *m);
}

static void free_cost(struct scn_cost_model *c)
{
	scn_cost_meta_free(&c->meta);
	for (int i = 0; i < c->nkernels; i++) {
		struct scn_cost_kernel *k = &c->kernels[i];
		for (int d = 0; d < k->ndevs; d++) {
			free(k->devs[d].device);
			free(k->devs[d].slowdown);
		}
		free(k->devs);
		free(k->name);
		free(k->unit);
	}
	free(c->kernels);
	free(c->path);
}

void scn_free(struct scn *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nlabels; i++)
		free(s->label_names[i]);
	for (int i = 0; i < s->ngroups; i++) {
		free(s->groups[i].name);
		free(s->groups[i].gpu_model);
		free(s->groups[i].outages);
		free(s->groups[i].busy_slowdown);
	}
	free(s->groups);
	for (int i = 0; i < s->njobgroups; i++)
		free_job(&s->jobs[i]);
	free(s->jobs);
	for (int i = 0; i < s->ntraces; i++)
		scn_trace_free(s->traces[i]);
	free(s->traces);
	for (int i = 0; i < s->ninputs; i++)
		free(s->inputs[i]);
	free(s->inputs);
	for (int i = 0; i < s->napps; i++)
		scn_app_free(s->apps[i]);
	free(s->apps);
	free_cost(&s->cost);
	for (int i = 0; i < s->npolicies; i++) {
		struct scn_policy *p = &s->policies[i];
		for (int k = 0; k < p->nparams; k++) {
			free(p->params[k].key);
			free(p->params[k].value);
		}
		free(p->params);
		free(p->name);
		free(p->kind);
	}
	free(s->policies);
	free(s->name);
	free(s->path);
	free(s);
}

int scn_label_index(const struct scn *s, const char *name)
{
	for (int i = 0; i < s->nlabels; i++)
		if (strcmp(s->label_names[i], name) == 0)
			return i;
	return -1;
}

const struct scn_cost_kernel *scn_cost_kernel(const struct scn *s, const char *name)
{
	for (int i = 0; i < s->cost.nkernels; i++)
		if (strcmp(s->cost.kernels[i].name, name) == 0)
			return &s->cost.kernels[i];
	return NULL;
}

const struct scn_cost_dev *scn_cost_device(const struct scn_cost_kernel *k, const char *device)
{
	for (int i = 0; i < k->ndevs; i++)
		if (strcmp(k->devs[i].device, device) == 0)
			return &k->devs[i];
	return NULL;
}

void scn_sweep_free(struct scn_sweep *sw)
{
	if (!sw)
		return;
	for (int p = 0; sw->point && p < sw->npoints; p++)
		scn_free(sw->point[p]);
	free(sw->point);
	for (int a = 0; a < sw->naxes; a++) {
		for (int v = 0; sw->axes[a].shown && v < sw->axes[a].nvalues; v++)
			free(sw->axes[a].shown[v]);
		free(sw->axes[a].shown);
		free(sw->axes[a].label);
	}
	free(sw->axes);
	free(sw);
}

int scn_sweep_at(const struct scn_sweep *sw, int p, int a)
{
	for (int b = sw->naxes - 1; b > a; b--)
		p /= sw->axes[b].nvalues;
	return p % sw->axes[a].nvalues;
}

const char *scn_sweep_shown(const struct scn_sweep *sw, int p, int a)
{
	return sw->axes[a].shown[scn_sweep_at(sw, p, a)];
}

const char *scn_sweep_point_text(const struct scn_sweep *sw, int p, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int a = 0; a < sw->naxes && n < len; a++) {
		int k = snprintf(buf + n, len - n, "%s %s=%s", a ? "," : "", sw->axes[a].label,
				 scn_sweep_shown(sw, p, a));
		n += k > 0 ? (size_t)k : 0;
	}
	return buf;
}

