/* invariants.c - the kernel's broken invariants: the message and abort
 * (sim_die), and the recount of a node from its executors and tasks
 * (with sim_recount, after every change; and of every node at the end
 * of a run).  Calls nothing of the kernel's; reads the records only.
 */
#include "kernel.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const ev_names[] = {"arrival", "executor-ready", "task-end",
				       "job-timer", "executor-timer", "policy-timer",
				       "node", "speculation"};

/* ---- invariants ---------------------------------------------------- */

static void vdie(const struct sim *s, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0), noreturn));

void sim_die(const struct sim *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdie(s, fmt, ap);
}

static void vdie(const struct sim *s, const char *fmt, va_list ap)
{
	char t[32], msg[1024];
	int n = snprintf(msg, sizeof msg, "hetsim: broken invariant at t=%s s", fmt_us(s->now, t));
	if (s->in_event)
		n += snprintf(msg + n, sizeof msg - (size_t)n, " (event %" PRIu64 ", %s of %u)",
			      s->tot.events, ev_names[s->cur_kind], s->cur_obj);
	n += snprintf(msg + n, sizeof msg - (size_t)n, ": ");
	vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
	fprintf(stderr, "%s\n", msg); /* one write: the line arrives whole */
	abort();
}

bool sim_recount = SIM_CHECK_EVERY_EVENT;

void k_recount_node(const struct sim *s, int id)
{
	const struct clu_node *n = &s->clu.nodes[id];
	int gpus = 0, ne = 0;
	int64_t cores = 0, load = 0;
	int64_t mem = 0;
	int gfree[CLU_MAX_GPUS]; /* each GPU's milli-GPUs free, as the executors say */
	int64_t pool_used = 0;   /* a pool: milli-GPUs its executors hold */
	for (int g = 0; g < n->gpus && !n->pool; g++)
		gfree[g] = CLU_GPU_MILLI;
	for (int e = n->exec_head; e >= 0; e = s->execs[e].node_next) {
		const struct sim_exec *x = &s->execs[e];
		if (!x->live || x->node != id)
			sim_die(s, "executor %d listed on node %s is not live there", e, n->name);
		cores += x->cores;
		mem += x->mem_mib;
		uint64_t whole = x->gpu_mask | x->grab_mask;
		if (__builtin_popcountll(x->gpu_mask) != x->gpus ||
		    __builtin_popcountll(x->grab_mask) != x->gpus_grabbed ||
		    (x->gpu_mask & x->grab_mask))
			sim_die(s, "executor %d on node %s: %d GPUs and %d grabbed, masks %#llx and %#llx",
			    x->id, n->name, x->gpus, x->gpus_grabbed,
			    (unsigned long long)x->gpu_mask, (unsigned long long)x->grab_mask);
		if (n->pool)
			pool_used += (int64_t)__builtin_popcountll(whole) * CLU_GPU_MILLI + x->gpu_milli;
		for (uint64_t b = whole; b && !n->pool; b &= b - 1)
			gfree[__builtin_ctzll(b)] -= CLU_GPU_MILLI;
		if (x->gpu_milli && !n->pool)
			gfree[x->gpu_share] -= x->gpu_milli;
		ne++;
	}
	if (n->pool && !(s->down && s->down[id])) {
		if (n->pool_m != (int64_t)n->gpus * CLU_GPU_MILLI - pool_used)
			sim_die(s, "node %s: its GPU pool has %" PRId64 " milli-GPUs free, its executors "
			    "leave %" PRId64, n->name, n->pool_m,
			    (int64_t)n->gpus * CLU_GPU_MILLI - pool_used);
		gpus = n->gpus - (int)(n->pool_m / CLU_GPU_MILLI);
	}
	if (!(s->down && s->down[id]) && !n->pool)
		for (int g = 0; g < n->gpus; g++) {
			if (gfree[g] != n->gpu_free_m[g] || gfree[g] < 0)
				sim_die(s, "node %s: GPU %d has %d milli-GPUs free, its executors leave %d",
				    n->name, g, n->gpu_free_m[g], gfree[g]);
			gpus += gfree[g] != CLU_GPU_MILLI;
			if (((n->gpu_idle >> g) & 1) != (gfree[g] == CLU_GPU_MILLI))
				sim_die(s, "node %s: GPU %d idle bit %d with %d milli-GPUs free", n->name, g,
				    (int)((n->gpu_idle >> g) & 1), gfree[g]);
		}
	for (int r = n->run_head; r >= 0; r = s->runs[r].next) {
		const struct run *ru = &s->runs[r];
		if (ru->node != id || !ru->own || (ru->end_seq == UINT64_MAX && !s->overflow))
			sim_die(s, "task of run %d listed on node %s runs on node %d, %s", r, n->name,
			    ru->node, ru->own ? "without its end event" : "on the node's clock");
		load += ru->cpus;
	}
	char why[256];
	if (n->rate != ps_rate(&s->ps, id) || n->rate != node_rate(n))
		sim_die(s, "node %s: rate %.17g, its clock's %.17g, node_rate %.17g", n->name, n->rate,
		    ps_rate(&s->ps, id), node_rate(n));
	if (!ps_check(&s->ps, id, why, sizeof why))
		sim_die(s, "node %s: %s", n->name, why);
	for (int i = 0, k = ps_ntasks(&s->ps, id); i < k; i++) {
		const struct run *ru = &s->runs[ps_task(&s->ps, id, i)];
		if (ru->node != id || ru->own)
			sim_die(s, "task of run %d on node %s's clock runs on node %d%s", ps_task(&s->ps, id, i),
			    n->name, ru->node, ru->own ? " with its own end event" : "");
		load += ru->cpus;
	}
	int ev = s->ps.nodes[id].ev_run;
	if (ps_ntasks(&s->ps, id) && !s->overflow && (ev < 0 || s->runs[ev].end_seq == UINT64_MAX))
		sim_die(s, "node %s runs %d tasks on its clock but has no end event for them", n->name,
		    ps_ntasks(&s->ps, id));
	if (n->mem_free < 0 || n->gpus_free < 0)
		sim_die(s, "node %s has negative free memory (%" PRId64 " MiB) or GPUs (%d)",
		    n->name, n->mem_free, n->gpus_free);
	if (s->down && s->down[id]) { /* down: nothing runs, nothing is free */
		if (ne || load || n->cores_free || n->mem_free || n->gpus_free)
			sim_die(s, "node %s is down but has %d executors, load %" PRId64 ", free %" PRId64
			    " milli-cores, %" PRId64 " MiB, %d GPUs", n->name, ne, load, n->cores_free,
			    n->mem_free, n->gpus_free);
		return;
	}
	if (cores != n->cores - n->cores_free || mem != n->mem_mib - n->mem_free ||
	    gpus != n->gpus - n->gpus_free || ne != n->nexec)
		sim_die(s, "node %s: executors hold %" PRId64 " milli-cores, %" PRId64 " MiB, %d GPUs (not "
		    "idle) in %d executors, but the node has %" PRId64 ", %" PRId64 ", %d in use in %d",
		    n->name, cores, mem, gpus, ne, n->cores - n->cores_free,
		    n->mem_mib - n->mem_free, n->gpus - n->gpus_free, n->nexec);
	if (load != n->load)
		sim_die(s, "node %s: running tasks demand %" PRId64 " milli-cores, load says %" PRId64,
		    n->name, load, n->load);
}

void k_check_all(const struct sim *s)
{
	int64_t fc = 0, fm = 0, fg = 0;
	for (int i = 0; i < s->clu.n; i++) {
		const struct clu_node *n = &s->clu.nodes[i];
		check_node(s, i);
		fc += n->cores_free > 0 ? n->cores_free : 0;
		fm += n->mem_free;
		fg += n->gpus_free;
	}
	if (fc != s->clu.free_cores || fm != s->clu.free_mem_mib || fg != s->clu.free_gpus)
		sim_die(s, "cluster free totals (%" PRId64 ", %" PRId64 ", %" PRId64
		    ") differ from the nodes' (%" PRId64 ", %" PRId64 ", %" PRId64 ")",
		    s->clu.free_cores, s->clu.free_mem_mib, s->clu.free_gpus, fc, fm, fg);
}
