/* cluster.c - node capacity accounting. */
#include "cluster.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "util.h"

/* The loop's fields share the record's first line, the placement's its
 * second (cluster.h). */
_Static_assert(offsetof(struct clu_node, gpus) + sizeof(int) <= CACHE_LINE, "clu_node: loop line");
_Static_assert(offsetof(struct clu_node, cores_free) == CACHE_LINE, "clu_node: placement line");
_Static_assert(offsetof(struct clu_node, pool) < 2 * CACHE_LINE, "clu_node: placement line");
_Static_assert(sizeof(struct clu_node) == 3 * CACHE_LINE, "clu_node: three lines");

void clu_init(struct clu *c, const struct scn *s)
{
	int n = 0;
	for (int g = 0; g < s->ngroups; g++)
		n += s->groups[g].count;
	memset(c, 0, sizeof *c);
	c->nodes = xcalloc_lines((size_t)n, sizeof *c->nodes); /* on lines: its _Alignas */
	c->n = n;
	size_t ngpus = 0;
	for (int g = 0; g < s->ngroups; g++)
		if (!s->groups[g].gpu_pool)
			ngpus += (size_t)s->groups[g].count * (size_t)s->groups[g].gpus;
	c->gpu_m = xmalloc((ngpus ? ngpus : 1) * sizeof *c->gpu_m);
	size_t at = 0;
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
			if (ng->gpus > (ng->gpu_pool ? SCN_MAX_POOL_GPUS : CLU_MAX_GPUS)) {
				fprintf(stderr, "hetsim: node group %s: %d GPUs a node, above %d\n",
					ng->name, ng->gpus,
					ng->gpu_pool ? SCN_MAX_POOL_GPUS : CLU_MAX_GPUS);
				abort(); /* the loader's limit */
			}
			if (ng->gpu_pool) {
				nd->pool = true;
				nd->pool_m = (int64_t)ng->gpus * CLU_GPU_MILLI;
			} else {
				nd->gpu_idle = ng->gpus == 64 ? UINT64_MAX
							      : (UINT64_C(1) << ng->gpus) - 1;
				nd->gpu_free_m = ng->gpus ? c->gpu_m + at : NULL;
				for (int k = 0; k < ng->gpus; k++)
					c->gpu_m[at++] = CLU_GPU_MILLI;
			}
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
	free(c->gpu_m);
	free(c->log);
	memset(c, 0, sizeof *c);
}

bool clu_plain_scan;

static int64_t pos(int64_t x)
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
			"free GPUs %d of %d, free milli-cores %lld of %d\n", n->name,
			(long long)n->mem_free, (long long)n->mem_mib, n->gpus_free, n->gpus,
			(long long)n->cores_free, n->cores);
		abort();
	}
}

static void gpu_broken(const struct clu_node *n, const char *what, uint64_t mask)
{
	fprintf(stderr, "hetsim: broken invariant on node %s: %s (GPUs %#llx, idle %#llx)\n",
		n->name, what, (unsigned long long)mask, (unsigned long long)n->gpu_idle);
	abort();
}

/* A pool's milli-GPUs change by d (taken: negative): gpus_free follows
 * as the whole GPUs left; the cores and memory with them. */
static void pool_change(struct clu *c, int node, int cores, int64_t mem_mib, int64_t d)
{
	struct clu_node *n = &c->nodes[node];
	int64_t before = n->pool_m / CLU_GPU_MILLI;
	n->pool_m += d;
	if (n->pool_m < 0 || n->pool_m > (int64_t)n->gpus * CLU_GPU_MILLI) {
		fprintf(stderr, "hetsim: broken invariant on node %s: its GPU pool holds %lld "
			"milli-GPUs free of %lld\n", n->name, (long long)n->pool_m,
			(long long)n->gpus * CLU_GPU_MILLI);
		abort();
	}
	adjust(c, node, cores, mem_mib, (int)(n->pool_m / CLU_GPU_MILLI - before));
}

/* A pool's placeholder mask of k GPUs (cluster.h). */
static uint64_t low_bits(int k)
{
	return k >= 64 ? UINT64_MAX : (UINT64_C(1) << k) - 1;
}

uint64_t clu_take_at(struct clu *c, int node, int cores, int64_t mem_mib, int gpus,
		     uint64_t want)
{
	struct clu_node *n = &c->nodes[node];
	if (n->pool) {
		if (want)
			gpu_broken(n, "GPUs of a pool taken by index", want);
		pool_change(c, node, -cores, -mem_mib, -(int64_t)gpus * CLU_GPU_MILLI);
		return low_bits(gpus);
	}
	uint64_t m = want;
	if (!m) /* the lowest-indexed idle ones */
		for (uint64_t idle = n->gpu_idle; gpus > 0 && __builtin_popcountll(m) < gpus && idle;
		     idle &= idle - 1)
			m |= idle & -idle;
	if (__builtin_popcountll(m) != gpus || (m & ~n->gpu_idle))
		gpu_broken(n, "whole GPUs taken that are not idle", m);
	n->gpu_idle &= ~m;
	for (uint64_t b = m; b; b &= b - 1)
		n->gpu_free_m[__builtin_ctzll(b)] = 0;
	adjust(c, node, -cores, -mem_mib, -gpus);
	return m;
}

uint64_t clu_take(struct clu *c, int node, int cores, int64_t mem_mib, int gpus)
{
	return clu_take_at(c, node, cores, mem_mib, gpus, 0);
}

void clu_give(struct clu *c, int node, int cores, int64_t mem_mib, uint64_t gpu_mask)
{
	struct clu_node *n = &c->nodes[node];
	if (n->pool) {
		pool_change(c, node, cores, mem_mib,
			    (int64_t)__builtin_popcountll(gpu_mask) * CLU_GPU_MILLI);
		return;
	}
	if (gpu_mask & n->gpu_idle)
		gpu_broken(n, "whole GPUs given back that are idle", gpu_mask);
	for (uint64_t b = gpu_mask; b; b &= b - 1) {
		int g = __builtin_ctzll(b);
		if (n->gpu_free_m[g] != 0)
			gpu_broken(n, "a GPU given back whole holds a share", gpu_mask);
		n->gpu_free_m[g] = CLU_GPU_MILLI;
	}
	n->gpu_idle |= gpu_mask;
	adjust(c, node, cores, mem_mib, __builtin_popcountll(gpu_mask));
}

void clu_give_node(struct clu *c, int node)
{
	struct clu_node *n = &c->nodes[node];
	if (n->pool)
		pool_change(c, node, n->cores, n->mem_mib, (int64_t)n->gpus * CLU_GPU_MILLI);
	else
		clu_give(c, node, n->cores, n->mem_mib, low_bits(n->gpus));
}

void clu_take_share(struct clu *c, int node, int cores, int64_t mem_mib, int gpu, int milli)
{
	struct clu_node *n = &c->nodes[node];
	if (n->pool) {
		if (gpu != 0 || milli < 1 || milli >= CLU_GPU_MILLI || n->pool_m < milli)
			gpu_broken(n, "a share taken that the pool does not have", 0);
		pool_change(c, node, -cores, -mem_mib, -milli);
		return;
	}
	if (gpu < 0 || gpu >= n->gpus || milli < 1 || milli >= CLU_GPU_MILLI ||
	    n->gpu_free_m[gpu] < milli)
		gpu_broken(n, "a share taken that its GPU does not have", gpu >= 0 ? UINT64_C(1) << gpu : 0);
	bool was_idle = n->gpu_free_m[gpu] == CLU_GPU_MILLI;
	n->gpu_free_m[gpu] = (uint16_t)(n->gpu_free_m[gpu] - milli);
	if (was_idle)
		n->gpu_idle &= ~(UINT64_C(1) << gpu);
	adjust(c, node, -cores, -mem_mib, was_idle ? -1 : 0);
}

void clu_give_share(struct clu *c, int node, int cores, int64_t mem_mib, int gpu, int milli)
{
	struct clu_node *n = &c->nodes[node];
	if (n->pool) {
		if (gpu != 0 || milli < 1)
			gpu_broken(n, "a share given back that the pool never held", 0);
		pool_change(c, node, cores, mem_mib, milli);
		return;
	}
	if (gpu < 0 || gpu >= n->gpus || milli < 1 || n->gpu_free_m[gpu] + milli > CLU_GPU_MILLI)
		gpu_broken(n, "a share given back that its GPU never held", gpu >= 0 ? UINT64_C(1) << gpu : 0);
	n->gpu_free_m[gpu] = (uint16_t)(n->gpu_free_m[gpu] + milli);
	bool idle = n->gpu_free_m[gpu] == CLU_GPU_MILLI;
	if (idle)
		n->gpu_idle |= UINT64_C(1) << gpu;
	adjust(c, node, cores, mem_mib, idle ? 1 : 0);
}

int clu_share_pick(const struct clu_node *n, int milli)
{
	if (n->pool)
		return n->pool_m >= milli ? 0 : -1;
	int best = -1;
	for (int g = 0; g < n->gpus; g++)
		if (n->gpu_free_m[g] >= milli && (best < 0 || n->gpu_free_m[g] < n->gpu_free_m[best]))
			best = g;
	return best;
}

bool clu_fits(const struct clu_node *n, int cores, int64_t mem_mib, int gpus,
	      bool check_cores)
{
	if (mem_mib > n->mem_free || gpus > n->gpus_free)
		return false;
	return !check_cores || cores <= n->cores_free;
}

bool clu_fits_share(const struct clu_node *n, int cores, int64_t mem_mib, int milli,
		    bool check_cores)
{
	if (mem_mib > n->mem_free || (check_cores && cores > n->cores_free))
		return false;
	return clu_share_pick(n, milli) >= 0;
}
