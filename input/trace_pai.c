/* trace_pai.c - Alibaba's cluster-trace-gpu-v2020 (PAI, Weng et al.,
 * NSDI'22; ../shared/reference/traces.md §2.1): a directory of headerless
 * CSV tables, their columns in the trace's data/<table>.header files.
 *
 * Nodes: pai_machine_spec.csv (machine,gpu_type,cap_cpu,cap_mem,cap_gpu),
 * a trace_node a row: cap_cpu cores, cap_mem GB (x 1024 MiB), cap_gpu
 * GPUs of model gpu_type (CPU-only machines say gpu_type CPU, cap_gpu 0:
 * no model); machine dropped.
 *
 * Jobs: pai_job_table.csv (job_name,inst_id,user,status,start_time,
 * end_time) joined with pai_task_table.csv (job_name,task_name,inst_num,
 * status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type) by
 * job_name.  Both are streamed, the task table first: a job's tasks
 * become one compact accumulator in a hash table by job_name (its roles,
 * its longest run, what was wrong), so memory grows with the jobs, not
 * with the files; then each job row, in its order, gives the job:
 *
 *   id           the job row's ordinal, 1-based (inst_id is a hash)
 *   arrival      the job's start_time (s: submission)
 *   run time     the longest of its tasks' end_time - start_time (s): a
 *                trace job is rigid, every task of it runs for this
 *   user         user; no queue (the group is in pai_group_tag_table,
 *                not read)
 *   kind         its tasks' distinct task_names, sorted, joined by '+'
 *                ("ps+worker", "tensorflow"); a name met after the
 *                file's first 63 distinct ones counts as "<other>"
 *   status       completed_only keeps only Terminated
 *   executors    each task is inst_num instances: executors of one
 *                role, one slot and one task each, asking
 *                   CPU     plan_cpu (percent of a core) x 10 milli-cores
 *                   memory  plan_mem (GB) x 1024 MiB
 *                   GPU     plan_gpu (percent of a GPU): 0 none; below
 *                           100 a share of plan_gpu x 10 milli-GPUs
 *                           (rounded; at least 1); 100 one GPU; above,
 *                           ceil(plan_gpu / 100) whole GPUs
 *                an empty plan_* asks for none of it
 *
 * Roles, at most 2 a job: tasks are taken in the task table's order; a
 * task whose per-instance demand equals a role's joins it (its
 * instances added); else it opens the next role while there are fewer
 * than 2; a third distinct demand, and any after it, joins role 1,
 * whose per-instance demand becomes the larger of the two in each of
 * CPU, memory and GPU: counted as clamped, once a job.
 *
 * Dropped: inst_id, the job's end_time, the task's status and
 * gpu_type (the type assigned, not asked for: it is no constraint), the
 * other tables.
 *
 * Bad records: a row of the wrong length, an empty job_name, inst_num
 * or job start_time, or a value that is not a number (or a time beyond 10^11 s) is an
 * error "dir:line:col: table: message" (the builder's messages name the trace,
 * here the directory: the table follows).  Skipped and counted, the
 * whole job: a task without start_time or end_time (no-runtime); a
 * negative time, or a task ending before it starts (negative-time); a
 * task of no instances, a negative plan_*, a job without tasks, or whose
 * tasks ask for nothing (no-demand); beyond the kernel's limits
 * (too-big); a second row of the same job_name (no-demand: its tasks are
 * the first's); a job in the task table only (no-runtime: it has no
 * submission).  Clamped: a fractional inst_num (rounded up), a GPU share
 * below 0.05 % (1 milli-GPU), plan_gpu above 100 and not a multiple of
 * it, a third distinct demand (above).  Under strict a task's problem is
 * an error at its row.  Offer-only (docs/traces.md): times are not read
 * (arrival 0, run time -1, and the builder orders the jobs).
 *
 * Each table may be compressed as NAME.zst instead.  A first row that
 * repeats the header's column names is skipped.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"
#include "util.h"
#include "zread.h"

#define JOBS "pai_job_table.csv"
#define TASKS "pai_task_table.csv"
#define MACHINES "pai_machine_spec.csv"
#define MAX_NAME 256            /* characters of a job_name */
#define MAX_JOBS 10000000       /* jobs of the task table (the builder's limit) */
#define MAX_MEM_MIB INT32_MAX   /* an instance's memory, MiB */
#define MAX_TIME_S 1e11         /* any time, s: its µs fit in 64 bits */




/* A decimal number ([-+]digits[.digits][e[-+]digits]) below 10^15 in
 * magnitude: 0, or -1. */
static int num(const struct tr_field *f, double *out)
{
	const char *p = f->s, *end = f->s + f->len;
	p += p < end && (*p == '-' || *p == '+');
	int digits = 0;
	while (p < end && *p >= '0' && *p <= '9')
		p++, digits++;
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++)
			digits++;
	if (!digits)
		return -1;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		p += p < end && (*p == '-' || *p == '+');
		if (p == end)
			return -1;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p != end)
		return -1;
	double d = strtod(f->s, NULL);
	if (!(fabs(d) < 1e15))
		return -1;
	*out = d;
	return 0;
}


/* Open table `name` of directory dir, or NAME.zst: NULL if neither
 * exists (*why: the reason), the path in buf. */
static struct zr *open_table(const char *dir, const char *name, char *buf, size_t len,
			     char *why, size_t whylen)
{
	snprintf(buf, len, "%s/%s", dir, name);
	if (access(buf, F_OK) != 0) {
		snprintf(buf, len, "%s/%s.zst", dir, name);
		if (access(buf, F_OK) != 0) {
			snprintf(buf, len, "%s/%s", dir, name);
			snprintf(why, whylen, "no %s (nor %s.zst) in the directory: a PAI trace's "
				 "jobs are its job and task tables", name, name);
			return NULL;
		}
	}
	struct zr *z = zr_open(buf, why, whylen);
	if (!z) { /* "cannot open TABLE: reason", for the caller's line */
		int64_t line = 0;
		int col = 0;
		const char *r = zr_error_at(why, buf, &line, &col); /* "cannot open: reason" */
		const char *tail = strncmp(r, "cannot open: ", 13) ? r : r + 13;
		char msg[4800];
		snprintf(msg, sizeof msg, "cannot open %s: %s", buf, tail);
		size_t m = strlen(msg) < whylen ? strlen(msg) : whylen - 1; /* cut to fit */
		memcpy(why, msg, m);
		why[m] = '\0';
	}
	return z;
}

/* ---- the per-job accumulator ---------------------------------------- */

struct pai_role {
	int32_t count;       /* instances */
	int32_t cpu_milli;   /* each */
	int32_t mem_mib;     /* each */
	int16_t gpus;        /* whole GPUs each */
	int16_t gpu_milli;   /* or a share of one, 1..999 */
};

struct pai_job {
	int64_t run_us;      /* its longest task's run, -1: none yet */
	int64_t line;        /* its first task row, for a message */
	uint32_t name;       /* offset of its job_name in the pool */
	uint8_t nroles;
	uint8_t skip;        /* 1 + the reason of its first bad task, 0: none */
	uint8_t clamped;     /* a task of it was clamped */
	uint8_t seen;        /* its job row was read */
	uint64_t names;      /* its tasks' task_names: bit i for the table's
				i-th distinct name, bit 63 for any after
				the 63rd */
	struct pai_role role[2];
};

struct jobtab {
	struct pai_job *jobs; int n, cap;
	char *pool; size_t used, pool_cap;   /* job names, NUL-terminated */
	int32_t *slot; size_t mask;          /* open addressing: index + 1 */
	char *tname[63]; int ntnames;        /* distinct task_names, in order met */
};

#define OTHER_BIT 63

/* The bit of task_name `s` (a name met first after 63 others: "<other>"). */
static uint64_t tname_bit(struct jobtab *t, const char *s)
{
	for (int i = 0; i < t->ntnames; i++)
		if (!strcmp(t->tname[i], s))
			return 1ULL << i;
	if (t->ntnames == OTHER_BIT)
		return 1ULL << OTHER_BIT;
	t->tname[t->ntnames] = xstrdup(s);
	return 1ULL << t->ntnames++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A job's kind: its task names sorted, '+' between; "" for none.  At
 * most len - 1 characters: 64 names of 256 would be cut (no kind of the
 * real trace comes near). */
static void job_kind(const struct jobtab *t, uint64_t names, char *buf, size_t len)
{
	const char *v[64];
	int n = 0;
	for (int i = 0; i < t->ntnames; i++)
		if (names >> i & 1)
			v[n++] = t->tname[i];
	qsort(v, (size_t)n, sizeof *v, cmp_str);
	if (names >> OTHER_BIT & 1)
		v[n++] = "<other>"; /* no task_name has '<' in the trace */
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? "+" : "", v[i]);
}

static uint64_t hash_name(const char *s, size_t n)
{
	uint64_t h = fnv1a(1469598103934665603ULL, s, n); /* (util.h: the short basis) */
	return h ^ (h >> 29);
}

static const char *job_name(const struct jobtab *t, const struct pai_job *j)
{
	return t->pool + j->name;
}

/* Job `name`, added if absent (add) or NULL. */
static struct pai_job *job_get(struct jobtab *t, const char *name, size_t n, bool add)
{
	if (!t->slot) {
		if (!add)
			return NULL;
		t->mask = 1023;
		t->slot = xcalloc(t->mask + 1, sizeof *t->slot);
	}
	size_t i = hash_name(name, n) & t->mask;
	for (; t->slot[i]; i = (i + 1) & t->mask) {
		struct pai_job *j = &t->jobs[t->slot[i] - 1];
		if (!strcmp(job_name(t, j), name))
			return j;
	}
	if (!add)
		return NULL;
	if (t->used + n + 1 > t->pool_cap) {
		t->pool_cap = t->pool_cap ? t->pool_cap * 2 : 1 << 16;
		t->pool = xrealloc(t->pool, t->pool_cap);
	}
	xgrow(&t->jobs, &t->cap, t->n + 1, sizeof *t->jobs);
	struct pai_job *j = &t->jobs[t->n];
	*j = (struct pai_job){.run_us = -1, .name = (uint32_t)t->used};
	memcpy(t->pool + t->used, name, n + 1);
	t->used += n + 1;
	t->slot[i] = ++t->n;
	if ((size_t)t->n * 2 > t->mask) { /* rehash at half full */
		free(t->slot);
		t->mask = t->mask * 2 + 1;
		t->slot = xcalloc(t->mask + 1, sizeof *t->slot);
		for (int k = 0; k < t->n; k++) {
			const char *s = job_name(t, &t->jobs[k]);
			size_t h = hash_name(s, strlen(s)) & t->mask;
			while (t->slot[h])
				h = (h + 1) & t->mask;
			t->slot[h] = k + 1;
		}
	}
	return j;
}

static void jobtab_free(struct jobtab *t)
{
	free(t->jobs);
	free(t->pool);
	free(t->slot);
	for (int i = 0; i < t->ntnames; i++)
		free(t->tname[i]);
}

/* ---- the task table ------------------------------------------------- */

enum { T_JOB, T_TASK, T_INST, T_STATUS, T_START, T_END, T_CPU, T_MEM, T_GPU, T_TYPE, T_N };
static const char *const task_cols[T_N] = {
	"job_name", "task_name", "inst_num", "status", "start_time", "end_time", "plan_cpu",
	"plan_mem", "plan_gpu", "gpu_type"};

/* A task's problem: under strict an error at its row (the table named),
 * else remembered in the job (its first) and 0.  why < 0: a clamp. */
static int task_issue(struct tr_build *b, struct pai_job *j, int64_t line, int why, int col,
		      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int task_issue(struct tr_build *b, struct pai_job *j, int64_t line, int why, int col,
		      const char *fmt, ...)
{
	if (!tr_opts(b)->strict) {
		if (why < 0)
			j->clamped = 1;
		else if (!j->skip)
			j->skip = (uint8_t)(why + 1);
		return 0;
	}
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	tr_at(b, line);
	if (why < 0)
		return tr_clamp(b, col, "%s: %s", TASKS, msg);
	return tr_skip(b, (enum scn_trace_skip)why, col, "%s: %s", TASKS, msg);
}

/* A task's per-instance GPU from plan_gpu: 1 if clamped, else 0. */
static int task_gpu(double g, struct pai_role *r)
{
	if (g <= 0)
		return 0;
	if (g < 100) {
		long long m = llround(g * 10);
		if (m >= 1000) {
			r->gpus = 1;
			return 0;
		}
		r->gpu_milli = (int16_t)(m < 1 ? 1 : m);
		return m < 1;
	}
	double w = ceil(g / 100);
	r->gpus = (int16_t)w;
	return w * 100 != g;
}

static bool same(const struct pai_role *a, const struct pai_role *b)
{
	return a->cpu_milli == b->cpu_milli && a->mem_mib == b->mem_mib && a->gpus == b->gpus &&
	       a->gpu_milli == b->gpu_milli;
}

/* A role's GPU demand in milli-GPUs, for the larger of two. */
static int64_t gpu_m(const struct pai_role *r)
{
	return r->gpus ? 1000LL * r->gpus : r->gpu_milli;
}

/* Add task demand d (d->count instances) to job j by the role rule:
 * 0, or -1 (strict). */
static int merge(struct tr_build *b, const struct jobtab *t, struct pai_job *j,
		 const struct pai_role *d, int64_t line, const struct tr_field *task)
{
	int total = 0;
	for (int r = 0; r < j->nroles; r++)
		total += j->role[r].count;
	if ((int64_t)total + d->count > SCN_MAX_EXECUTORS)
		return task_issue(b, j, line, TRS_TOO_BIG, task->col, "job '%s': more than %d "
				  "instances", job_name(t, j), SCN_MAX_EXECUTORS);
	for (int r = 0; r < j->nroles; r++)
		if (same(&j->role[r], d)) {
			j->role[r].count += d->count;
			return 0;
		}
	if (j->nroles < 2) {
		j->role[j->nroles++] = *d;
		return 0;
	}
	struct pai_role *m = &j->role[1];
	m->count += d->count;
	m->cpu_milli = d->cpu_milli > m->cpu_milli ? d->cpu_milli : m->cpu_milli;
	m->mem_mib = d->mem_mib > m->mem_mib ? d->mem_mib : m->mem_mib;
	int64_t g = gpu_m(d) > gpu_m(m) ? gpu_m(d) : gpu_m(m);
	m->gpus = (int16_t)(g >= 1000 ? g / 1000 : 0);
	m->gpu_milli = (int16_t)(g >= 1000 ? 0 : g);
	return task_issue(b, j, line, -1, task->col, "task '%s': a third distinct demand, "
			  "merged into the job's second role at the larger of the two", TR_VAL(task));
}

/* An error at task row ln (tr_at only now: a task row is not a record
 * of the counts, and the import fails). */
static int task_fail(struct tr_build *b, int64_t ln, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int task_fail(struct tr_build *b, int64_t ln, int col, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	tr_at(b, ln);
	return tr_fail(b, col, "%s: %s", TASKS, msg);
}

static int task_row(struct tr_build *b, struct jobtab *t, char *line, size_t len, int64_t ln)
{
	struct tr_field f[T_N];
	int nf = tr_split(line, len, f, T_N);
	if (nf != T_N)
		return task_fail(b, ln, nf > T_N ? 1 : f[nf - 1].col, "%s%d fields, the table has "
				 "%d (job_name,task_name,inst_num,status,start_time,end_time,"
				 "plan_cpu,plan_mem,plan_gpu,gpu_type)",
				 nf > T_N ? "more than " : "", nf > T_N ? T_N : nf, T_N);
	if (!f[T_JOB].len)
		return task_fail(b, ln, f[T_JOB].col, "job_name is empty");
	if (f[T_JOB].len > MAX_NAME)
		return task_fail(b, ln, f[T_JOB].col, "a job_name of %d characters (at most %d)",
				 f[T_JOB].len, MAX_NAME);
	if (!f[T_INST].len)
		return task_fail(b, ln, f[T_INST].col, "inst_num is empty");
	const struct trace_opts *o = tr_opts(b);
	double v[T_N] = {0};
	bool have[T_N] = {false};
	for (int k = T_INST; k < T_N; k++) {
		if (k == T_STATUS || k == T_TYPE || !f[k].len ||
		    (o->offer && (k == T_START || k == T_END))) /* offer-only: not read */
			continue;
		if (num(&f[k], &v[k]) < 0)
			return task_fail(b, ln, f[k].col, "%s '%s' is not a number", task_cols[k],
					 TR_VAL(&f[k]));
		if ((k == T_START || k == T_END) && !(fabs(v[k]) < MAX_TIME_S))
			return task_fail(b, ln, f[k].col, "%s '%s' is out of range (10^11 s)",
					 task_cols[k], TR_VAL(&f[k]));
		have[k] = true;
	}
	struct pai_job *j = job_get(t, f[T_JOB].s, (size_t)f[T_JOB].len, false);
	if (!j) {
		if (t->n >= MAX_JOBS)
			return task_fail(b, ln, 1, "more than %d jobs", MAX_JOBS);
		j = job_get(t, f[T_JOB].s, (size_t)f[T_JOB].len, true);
		j->line = ln;
	}
	if (j->skip)
		return 0; /* already left out */
	double inst = v[T_INST];
	if (inst <= 0 || inst > SCN_MAX_EXECUTORS)
		return task_issue(b, j, ln, inst <= 0 ? TRS_NO_DEMAND : TRS_TOO_BIG, f[T_INST].col,
				  "inst_num %s: %s", TR_VAL(&f[T_INST]),
				  inst <= 0 ? "no instances" : "too many instances");
	for (int k = T_CPU; k <= T_GPU; k++)
		if (v[k] < 0)
			return task_issue(b, j, ln, TRS_NO_DEMAND, f[k].col, "%s %s is negative",
					  task_cols[k], TR_VAL(&f[k]));
	if (v[T_CPU] * 10 > (double)SCN_MAX_CORES * 1000 || v[T_MEM] * 1024 > MAX_MEM_MIB ||
	    v[T_GPU] > (double)SCN_MAX_GPUS * 100) {
		int k = v[T_CPU] * 10 > (double)SCN_MAX_CORES * 1000 ? T_CPU
			: v[T_MEM] * 1024 > MAX_MEM_MIB ? T_MEM : T_GPU;
		return task_issue(b, j, ln, TRS_TOO_BIG, f[k].col, "%s %s: above the limit",
				  task_cols[k], TR_VAL(&f[k]));
	}
	if (!o->offer) {
		int k = !have[T_START] ? T_START : !have[T_END] ? T_END : -1;
		if (k >= 0)
			return task_issue(b, j, ln, TRS_NO_RUNTIME, f[k].col, "no %s: no run time",
					  task_cols[k]);
		if (v[T_START] < 0)
			return task_issue(b, j, ln, TRS_NEG_TIME, f[T_START].col,
					  "start_time %s is negative", TR_VAL(&f[T_START]));
		if (v[T_END] < v[T_START])
			return task_issue(b, j, ln, TRS_NEG_TIME, f[T_END].col, "end_time %s "
					  "before start_time %s", TR_VAL(&f[T_END]), TR_VAL(&f[T_START]));
	}
	struct pai_role d = {.count = (int32_t)ceil(inst),
			     .cpu_milli = (int32_t)llround(v[T_CPU] * 10),
			     .mem_mib = (int32_t)llround(v[T_MEM] * 1024)};
	if (task_gpu(v[T_GPU], &d) &&
	    task_issue(b, j, ln, -1, f[T_GPU].col, "plan_gpu %s: %s", TR_VAL(&f[T_GPU]),
		       d.gpus ? "whole GPUs, rounded up" : "below 1 milli-GPU, raised to 1") < 0)
		return -1;
	if (inst != floor(inst) &&
	    task_issue(b, j, ln, -1, f[T_INST].col, "inst_num %s: not a whole number, rounded "
		       "up", TR_VAL(&f[T_INST])) < 0)
		return -1;
	if (merge(b, t, j, &d, ln, &f[T_TASK]) < 0)
		return -1;
	if (f[T_TASK].len)
		j->names |= tname_bit(t, f[T_TASK].s);
	if (!o->offer) {
		int64_t run = (int64_t)llround((v[T_END] - v[T_START]) * 1e6);
		j->run_us = run > j->run_us ? run : j->run_us;
	}
	return 0;
}

/* A read error of zr_line ("path:N:C: reason") in table `name`. */
static int read_fail(struct tr_build *b, struct zr *in, const char *path, const char *name,
		     const char *err)
{
	int64_t line = zr_lineno(in) + 1;
	int col = 1;
	const char *p = zr_error_at(err, path, &line, &col);
	tr_at(b, line);
	return tr_fail(b, col, "%s: %s", name, p);
}

/* Whether a table's first row is its header (its first column's name). */
static bool header_row(const char *line, const char *first)
{
	size_t n = strlen(first);
	return !strncmp(line, first, n) && line[n] == ',';
}

static int read_tasks(struct tr_build *b, struct jobtab *t)
{
	char path[4096], err[512];
	struct zr *in = open_table(tr_path(b), TASKS, path, sizeof path, err, sizeof err);
	if (!in) {
		tr_at(b, 0); /* no row: line 0 */
		return tr_fail(b, 1, "%s", err);
	}
	char *line;
	size_t len;
	int r, rc = 0;
	while (!rc && (r = zr_line(in, &line, &len, err, sizeof err)) == 1) {
		if (!len || (zr_lineno(in) == 1 && header_row(line, "job_name")))
			continue;
		rc = task_row(b, t, line, len, zr_lineno(in));
	}
	if (!rc && r < 0)
		rc = read_fail(b, in, path, TASKS, err);
	zr_close(in);
	return rc;
}

/* ---- the job table -------------------------------------------------- */

enum { J_JOB, J_INST, J_USER, J_STATUS, J_START, J_END, J_N };

static bool no_demand(const struct pai_job *j)
{
	for (int r = 0; r < j->nroles; r++)
		if (j->role[r].cpu_milli || j->role[r].mem_mib || gpu_m(&j->role[r]))
			return false;
	return true;
}

static int job_row(struct tr_build *b, struct jobtab *t, char *line, size_t len, int64_t ordinal)
{
	struct tr_field f[J_N];
	int nf = tr_split(line, len, f, J_N);
	if (nf != J_N)
		return tr_fail(b, nf > J_N ? 1 : f[nf - 1].col, "%s: %s%d fields, the table has %d "
			       "(job_name,inst_id,user,status,start_time,end_time)", JOBS,
			       nf > J_N ? "more than " : "", nf > J_N ? J_N : nf, J_N);
	if (!f[J_JOB].len)
		return tr_fail(b, f[J_JOB].col, "%s: job_name is empty", JOBS);
	if (ordinal > INT32_MAX)
		return tr_fail(b, 1, "%s: more than %d jobs", JOBS, INT32_MAX);
	const struct trace_opts *o = tr_opts(b);
	double start = 0, end;
	if (!f[J_START].len && !o->offer)
		return tr_fail(b, f[J_START].col, "%s: start_time is empty", JOBS);
	for (int k = J_START; k <= J_END && !o->offer; k++) { /* offer-only: not read */
		double *t = k == J_START ? &start : &end;
		if (f[k].len && num(&f[k], t) < 0)
			return tr_fail(b, f[k].col, "%s: %s '%s' is not a number", JOBS,
				       k == J_START ? "start_time" : "end_time", TR_VAL(&f[k]));
		if (f[k].len && !(fabs(*t) < MAX_TIME_S))
			return tr_fail(b, f[k].col, "%s: %s '%s' is out of range (10^11 s)", JOBS,
				       k == J_START ? "start_time" : "end_time", TR_VAL(&f[k]));
	}
	struct pai_job *j = f[J_JOB].len <= MAX_NAME
			    ? job_get(t, f[J_JOB].s, (size_t)f[J_JOB].len, false) : NULL;
	if (j && j->seen)
		return tr_skip(b, TRS_NO_DEMAND, f[J_JOB].col, "%s: job_name '%s' again: its tasks "
			       "are its first row's", JOBS, TR_VAL(&f[J_JOB]));
	if (j)
		j->seen = 1;
	if (!o->offer && start >= 0) /* the clock, whatever the checks below leave out */
		tr_seen(b, (int64_t)llround(start * 1e6));
	if (o->completed_only && strcmp(f[J_STATUS].s, "Terminated") != 0)
		return tr_skip(b, TRS_STATUS, f[J_STATUS].col, "%s: status '%s'", JOBS,
			       TR_VAL(&f[J_STATUS]));
	if (!o->offer && start < 0)
		return tr_skip(b, TRS_NEG_TIME, f[J_START].col, "%s: start_time %s is negative",
			       JOBS, TR_VAL(&f[J_START]));
	if (!j)
		return tr_skip(b, TRS_NO_DEMAND, f[J_JOB].col, "%s: job '%s' has no task in %s",
			       JOBS, TR_VAL(&f[J_JOB]), TASKS);
	if (j->skip) /* its task's message was an error under strict */
		return tr_skip(b, (enum scn_trace_skip)(j->skip - 1), f[J_JOB].col, "%s: job '%s': "
			       "a task of it left out (%s line %lld)", JOBS, job_name(t, j), TASKS,
			       (long long)j->line);
	if (no_demand(j))
		return tr_skip(b, TRS_NO_DEMAND, f[J_JOB].col, "%s: job '%s': its tasks ask for "
			       "nothing (plan_cpu, plan_mem and plan_gpu 0)", JOBS, job_name(t, j));
	if (j->clamped && tr_clamp(b, f[J_JOB].col, "%s: job '%s'", JOBS, job_name(t, j)) < 0)
		return -1;
	struct scn_trace_shape sh = {.nroles = j->nroles};
	for (int r = 0; r < j->nroles; r++) {
		const struct pai_role *pr = &j->role[r];
		sh.role[r] = (struct scn_trace_role){
			.count = pr->count, .slots = 1, .cpu_milli = pr->cpu_milli,
			.mem_mib = pr->mem_mib, .gpus = pr->gpus, .gpu_milli = pr->gpu_milli};
		sh.tasks += pr->count;
	}
	int64_t arrival = o->offer ? 0 : (int64_t)llround(start * 1e6);
	const char *user = f[J_USER].len ? f[J_USER].s : NULL;
	char kind[1024];
	job_kind(t, j->names, kind, sizeof kind);
	return tr_add(b, (int32_t)ordinal, arrival, o->offer ? -1 : j->run_us, -1, &sh, user,
		      NULL, *kind ? kind : NULL) < 0 ? -1 : 0;
}

static int read_jobs(struct tr_build *b, struct jobtab *t)
{
	char path[4096], err[512];
	struct zr *in = open_table(tr_path(b), JOBS, path, sizeof path, err, sizeof err);
	if (!in) {
		tr_at(b, 0); /* no row: line 0 */
		return tr_fail(b, 1, "%s", err);
	}
	char *line;
	size_t len;
	int r, rc = 0;
	int64_t ordinal = 0;
	while (!rc && (r = zr_line(in, &line, &len, err, sizeof err)) == 1) {
		if (!len || (zr_lineno(in) == 1 && header_row(line, "job_name")))
			continue;
		tr_at(b, zr_lineno(in));
		rc = job_row(b, t, line, len, ++ordinal);
	}
	if (!rc && r < 0)
		rc = read_fail(b, in, path, JOBS, err);
	zr_close(in);
	return rc;
}

static int pai_jobs(struct tr_build *b, struct zr *in)
{
	(void)in; /* a directory format: the tables are opened here */
	struct jobtab t = {0};
	int rc = read_tasks(b, &t);
	if (!rc)
		rc = read_jobs(b, &t);
	for (int i = 0; !rc && i < t.n; i++) /* jobs of the task table only */
		if (!t.jobs[i].seen) {
			tr_at(b, t.jobs[i].line);
			rc = tr_skip(b, TRS_NO_RUNTIME, 1, "%s: job '%s' has no row in %s: no "
				     "submission time", TASKS, job_name(&t, &t.jobs[i]), JOBS);
		}
	jobtab_free(&t);
	return rc;
}

/* ---- machines ------------------------------------------------------- */

enum { M_NAME, M_TYPE, M_CPU, M_MEM, M_GPU, M_N };
static const char *const machine_cols[M_N] = {"machine", "gpu_type", "cap_cpu", "cap_mem",
					      "cap_gpu"};

static int machine_fail(char *err, size_t errlen, const char *path, int64_t line, int col,
			const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int machine_fail(char *err, size_t errlen, const char *path, int64_t line, int col,
			const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s:%lld:%d: %s", path, (long long)line, col, msg);
	return -1;
}

static int pai_nodes(struct zr *in, const char *path,
		     int (*add)(void *ctx, const struct trace_node *n), void *ctx, char *err,
		     size_t errlen)
{
	char *line;
	size_t len;
	int r;
	while ((r = zr_line(in, &line, &len, err, errlen)) == 1) {
		int64_t ln = zr_lineno(in);
		if (!len || (ln == 1 && header_row(line, "machine")))
			continue;
		struct tr_field f[M_N];
		int nf = tr_split(line, len, f, M_N);
		if (nf != M_N)
			return machine_fail(err, errlen, path, ln, nf > M_N ? 1 : f[nf - 1].col,
					    "%s%d fields, %s has %d (machine,gpu_type,cap_cpu,"
					    "cap_mem,cap_gpu)", nf > M_N ? "more than " : "",
					    nf > M_N ? M_N : nf, MACHINES, M_N);
		double v[M_N];
		for (int k = M_CPU; k <= M_GPU; k++) {
			if (!f[k].len)
				return machine_fail(err, errlen, path, ln, f[k].col, "%s is empty",
						    machine_cols[k]);
			double unit = k == M_CPU ? 1000 : k == M_MEM ? 1024 : 1; /* milli, MiB */
			const char *why = NULL;
			if (num(&f[k], &v[k]) < 0)
				why = "is not a number";
			else if (v[k] < 0)
				why = "is negative";
			else if (k == M_GPU && v[k] != floor(v[k]))
				why = "is not a whole number";
			else if (v[k] * unit > INT_MAX)
				why = "is out of range";
			if (why)
				return machine_fail(err, errlen, path, ln, f[k].col, "%s '%s' %s",
						    machine_cols[k], TR_VAL(&f[k]), why);
		}
		int gpus = (int)v[M_GPU];
		if (gpus > 0 && (!f[M_TYPE].len || !strcmp(f[M_TYPE].s, "CPU")))
			return machine_fail(err, errlen, path, ln, f[M_TYPE].col, "a machine of %d "
					    "GPUs with gpu_type '%s'", gpus, TR_VAL(&f[M_TYPE]));
		struct trace_node n = {.cpu_milli = (int)llround(v[M_CPU] * 1000),
				       .mem_mib = llround(v[M_MEM] * 1024), .gpus = gpus,
				       .gpu_model = gpus > 0 ? f[M_TYPE].s : NULL};
		if (add(ctx, &n) < 0)
			return -1;
	}
	return r < 0 ? -1 : 0;
}

/* Called with the directory's path (n == 0): it holds the job table or
 * the machine table. */
static bool pai_detect(const char *head, size_t n)
{
	if (n)
		return false; /* a single file: the tables are headerless */
	static const char *const names[] = {JOBS, JOBS ".zst", MACHINES, MACHINES ".zst"};
	char p[4096];
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		snprintf(p, sizeof p, "%s/%s", head, names[i]);
		if (access(p, F_OK) == 0)
			return true;
	}
	return false;
}

const struct trace_format tf_pai = {
	.name = "alibaba-pai-2020",
	.what = "Alibaba cluster-trace-gpu-v2020 (PAI): a directory of tables; jobs (job and "
		"task tables), machines (pai_machine_spec.csv) as clusters",
	.detect = pai_detect,
	.jobs = pai_jobs,
	.nodes = pai_nodes,
	.dir = true,
	.node_file = MACHINES,
	.kinds = true,
};
