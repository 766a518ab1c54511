/* cluster.c - node capacity accounting. */
#include "cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "util.h"

void clu_init(struct clu *c, const struct scn *s)
{
	int n = 0;
	for (int g = 0; g < s->ngroups; g++)
		n += s->groups[g].count;
	memset(c, 0, sizeof *c);
	c->nodes = xcalloc((size_t)n, sizeof *c->nodes);
	c->n = n;
	int id = 0;
	for (int g = 0; g < s->ngroups; g++) {
		const struct scn_node_group *ng = &s->groups[g];
		for (int i = 0; i < ng->count; i++, id++) {
			struct clu_node *nd = &c->nodes[id];
			char buf[256];
			snprintf(buf, sizeof buf, "%s-%d", ng->name, i);
			nd->name = xstrdup(buf);
			nd->id = id;
			nd->group = g;
			nd->labels = ng->labels;
			nd->gpu_model = ng->gpus ? ng->gpu_model : NULL;
			nd->cores = nd->cores_free = ng->cores * CLU_MILLI;
			nd->mem_mib = nd->mem_free = ng->mem_mib;
			nd->gpus = nd->gpus_free = ng->gpus;
			nd->cpu_speed = ng->cpu_speed;
			nd->busy_slowdown = ng->busy_slowdown;
			nd->nbusy = ng->nbusy;
			nd->run_head = -1;
			nd->exec_head = -1;
			c->total_cores += (int64_t)ng->cores * CLU_MILLI;
			c->total_mem_mib += ng->mem_mib;
			c->total_gpus += ng->gpus;
		}
	}
	size_t ring = 64;
	while (ring < (size_t)n)
		ring *= 2;
	c->log = xcalloc(ring, sizeof *c->log);
	c->log_mask = ring - 1;
	c->free_cores = c->total_cores;
	c->free_mem_mib = c->total_mem_mib;
	c->free_gpus = c->total_gpus;
}

void clu_free(struct clu *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->nodes[i].name);
	free(c->nodes);
	free(c->log);
	memset(c, 0, sizeof *c);
}

bool clu_plain_scan;

static int pos(int x)
{
	return x > 0 ? x : 0;
}

/* The one place free amounts change, so the cluster totals stay the sum
 * of the nodes' (checked by the engine's invariants) and the change log
 * misses nothing. */
static void adjust(struct clu *c, int node, int cores, int64_t mem_mib, int gpus)
{
	struct clu_node *n = &c->nodes[node];
	c->log[c->changes++ & c->log_mask] = node;
	c->free_cores -= pos(n->cores_free);
	n->cores_free += cores;
	c->free_cores += pos(n->cores_free);
	n->mem_free += mem_mib;
	n->gpus_free += gpus;
	c->free_mem_mib += mem_mib;
	c->free_gpus += gpus;
	if (n->mem_free < 0 || n->gpus_free < 0 || n->mem_free > n->mem_mib ||
	    n->gpus_free > n->gpus || n->cores_free > n->cores) {
		fprintf(stderr, "hetsim: broken invariant on node %s: free memory %lld MiB of %lld, "
			"free GPUs %d of %d, free cores %d of %d\n", n->name,
			(long long)n->mem_free, (long long)n->mem_mib, n->gpus_free, n->gpus,
			n->cores_free, n->cores);
		abort();
	}
}

void clu_take(struct clu *c, int node, int cores, int64_t mem_mib, int gpus)
{
	adjust(c, node, -cores, -mem_mib, -gpus);
}

void clu_give(struct clu *c, int node, int cores, int64_t mem_mib, int gpus)
{
	adjust(c, node, cores, mem_mib, gpus);
}

bool clu_fits(const struct clu_node *n, int cores, int64_t mem_mib, int gpus,
	      bool check_cores)
{
	if (mem_mib > n->mem_free || gpus > n->gpus_free)
		return false;
	return !check_cores || cores <= n->cores_free;
}
