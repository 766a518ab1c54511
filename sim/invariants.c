/* invariants.c - the kernel's broken invariants: the message and abort
 * (sim_die), where a fault struck (sim_fault_where, for a signal
 * handler), and the recount of a node from its executors and tasks
 * (with sim_recount, after every change; and of every node at the end
 * of a run).  Calls nothing of the kernel's; reads the records only.
 */
#include "kernel.h"
#include "policy.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

volatile sig_atomic_t sim_died;

static void vdie(const struct sim *s, const char *fmt, va_list ap)
{
	char t[32], msg[1536];
	int n = snprintf(msg, sizeof msg, "hetsim: broken invariant at t=%s s", fmt_us(s->now, t));
	if (s->in_event)
		n += snprintf(msg + n, sizeof msg - (size_t)n, " (event %" PRIu64 ", %s of %u)",
			      s->tot.events, ev_names[s->cur_kind], s->cur_obj);
	if (s->pol_depth > 0 || s->setup_hook) /* the policy asked for it: name it */
		n += snprintf(msg + n, sizeof msg - (size_t)n, " in policy '%s'%s%s%s, hook %s",
			      s->pcfg->name, s->ops->file ? " (a plugin: " : "",
			      s->ops->file ? s->ops->file : "", s->ops->file ? ")" : "",
			      s->pol_hook ? s->pol_hook : "?");
	n += snprintf(msg + n, sizeof msg - (size_t)n, ": ");
	vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
	fprintf(stderr, "%s\n", msg); /* one write: the line arrives whole */
	sim_died = 1; /* said: a signal handler need not say it again */
	abort();
}

/* ---- where a fault struck -------------------------------------------- */

/* The simulation this thread runs (sim_new's init hook, sim_run, sim_free's
 * fini), for sim_fault_where; NULL between runs. */
static _Thread_local const struct sim *running;

void k_set_running(const struct sim *s)
{
	running = s;
}

/* Bounded appends for a signal handler: no stdio, no allocation. */
struct fw {
	char *b;
	size_t n, cap;
};

static void fw_str(struct fw *w, const char *s)
{
	for (; s && *s && w->n + 1 < w->cap; s++)
		w->b[w->n++] = *s;
}

static void fw_u64(struct fw *w, uint64_t v)
{
	char d[24];
	*wr_u64(d, v) = '\0';
	fw_str(w, d);
}

size_t sim_fault_where(char *buf, size_t len)
{
	const struct sim *s = running;
	struct fw w = {buf, 0, len};
	if (!len)
		return 0;
	if (s) {
		char t[32];
		if (s->pol_depth > 0 || s->setup_hook) {
			fw_str(&w, "policy '");
			fw_str(&w, s->pcfg->name);
			fw_str(&w, "'");
			if (s->ops->file) {
				fw_str(&w, " (a plugin: ");
				fw_str(&w, s->ops->file);
				fw_str(&w, ")");
			}
			fw_str(&w, ", its hook ");
			fw_str(&w, s->pol_hook ? s->pol_hook : "?");
		} else if (s->in_event) {
			fw_str(&w, "the kernel or a job model (policy '");
			fw_str(&w, s->pcfg->name);
			fw_str(&w, "'), handling a ");
			fw_str(&w, ev_names[s->cur_kind]);
			fw_str(&w, " event of ");
			fw_u64(&w, s->cur_obj);
		} else {
			fw_str(&w, "the kernel (policy '");
			fw_str(&w, s->pcfg->name);
			fw_str(&w, "')");
		}
		fw_str(&w, ", at simulated time ");
		*wr_us(t, s->now) = '\0';
		fw_str(&w, t);
		fw_str(&w, " s");
	}
	buf[w.n] = '\0';
	return w.n;
}

/* An event kind's name, for messages. */
const char *k_ev_name(int kind)
{
	return ev_names[kind];
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

/* ---- why a run stopped ------------------------------------------------- */

/* What keeps firing, by the kind of event most counted at the stalled
 * instant. */
static const char *firing(const struct sim *s, int kind, char *buf, size_t len)
{
	switch (kind) {
	case EV_POLICY_TIMER:
		snprintf(buf, len, "timers of policy '%s'%s%s%s", s->pcfg->name,
			 s->ops->file ? " (a plugin: " : "", s->ops->file ? s->ops->file : "",
			 s->ops->file ? ")" : "");
		return buf;
	case EV_SPECULATE:
		return "Spark's speculation checks (the scenario's speculation interval)";
	case EV_JOB_TIMER:
		return "job models' timers";
	case EV_EXEC_TIMER:
		return "executors' timers (a job model's, or a preempted executor's release)";
	case EV_EXEC_READY:
		snprintf(buf, len, "executors coming up (policy '%s' launching executors that are "
			 "lost or preempted at the same instant)", s->pcfg->name);
		return buf;
	case EV_TASK_END:
		return "task ends (tasks that take no time)";
	case EV_ARRIVE:
		return "job arrivals";
	default:
		return "node failures and repairs";
	}
}

const char *sim_stop_why(const struct sim *s, int rc, char *buf, size_t len)
{
	if (rc == SIM_STALLED) {
		int top = 0;
		for (int k = 1; k <= EV_SPECULATE; k++)
			if (s->stall_kind[k] > s->stall_kind[top])
				top = k;
		char t[32], bound[160], who[1024];
		if (s->max_stall)
			snprintf(bound, sizeof bound, "%" PRIu64 ", set by --max-stall", s->max_stall);
		else
			snprintf(bound, sizeof bound, "%" PRIu64 " = 10 x (%d jobs + %" PRIu64
				 " tasks + %d nodes) + 1000; --max-stall sets it", k_stall_limit(s),
				 s->pub.njobs, s->tasks_made, s->clu.n);
		snprintf(buf, len, "no progress: %" PRIu64 " events at simulated time %s s without "
			 "the clock moving, more than the bound of %s; %" PRIu64 " of them %s "
			 "events, from %s", s->stall_n, fmt_us(s->now, t), bound,
			 s->stall_kind[top], ev_names[top], firing(s, top, who, sizeof who));
	} else if (rc == SIM_STOPPED) {
		snprintf(buf, len, "stopped at simulated time %s s", fmt_us(s->now, (char[32]){0}));
	} else {
		snprintf(buf, len, "simulated time passes %lld years",
			 (long long)(SIM_TIME_MAX / 1000000 / 31557600));
	}
	return buf;
}
