/* run.c - `hetsim run`: every (policy, replication) of a scenario, the
 * comparison table, and the CSV files (docs/output.md). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "registry.h"
#include "load.h"
#include "models.h"
#include "bgq.h"
#include "timeline.h"
#include "cmd.h"
#include "metrics.h"
#include "plot.h"
#include "policy.h"
#include "rng.h"
#include "rows.h"
#include "scenario.h"
#include "scn_trace.h"
#include "sim.h"
#include "util.h"

/* Rows of jobs.csv and executors.csv are built with util.h's wr_*
 * writers straight into a buffer, written with one fwrite when it is
 * nearly full: a run of 10^6 jobs writes 2 million rows (170 MB), and
 * printf, then an fwrite per row, took much of such a run.  A row has at
 * most 5 names of at most 112 characters (the loader's 100 plus
 * "-<index>" for nodes; policy and replication count as one), 16 numbers
 * and put_name's 15 bytes of overrun: ROW_MAX is ample. */
#define ROW_MAX 1024
#define ROWS_BUF ((size_t)256 << 10)

/* A name as a row holds it: its text and the comma after it, len bytes,
 * zero-padded to a multiple of 16 bytes, which put_name copies 16 bytes
 * at a time: one vector move for most names, where a byte loop takes a
 * branch per byte and strlen+memcpy two calls.  The names that rows
 * repeat (groups, nodes, ...) are made once and kept by index, the text
 * in the entry when it fits: the scenario's and cluster's own strings
 * lie far apart in memory, and reaching them cost an executors.csv row
 * several cache misses, most of what the row cost. */
struct name {
	char s[16];            /* the text if len <= 16 */
	char *more;            /* else the text, owned */
	int len;               /* of the text and the comma; 0 until made */
};

/* Names by index (of a group, node, job type, ...), made when first
 * needed. */
struct names {
	struct name *v;
	int n;                 /* entries in v, made or not */
};

static void name_make(struct name *n, const char *text)
{
	size_t len = strlen(text) + 1; /* and the comma */
	char *t = n->s;
	if (len > sizeof n->s)
		t = n->more = xcalloc(1, (len + 15) & ~(size_t)15);
	memcpy(t, text, len - 1);
	t[len - 1] = ',';
	n->len = (int)len;
}

static void name_free(struct name *n)
{
	free(n->more);
	memset(n, 0, sizeof *n);
}

/* Entry i of t if it is made, else NULL. */
static const struct name *name_at(const struct names *t, int i)
{
	return i < t->n && t->v[i].len ? &t->v[i] : NULL;
}

/* Make entry i of t from text, growing t. */
static const struct name *name_add(struct names *t, int i, const char *text)
{
	if (i >= t->n) {
		int old = t->n;
		xgrow(&t->v, &t->n, i + 1, sizeof *t->v);
		memset(t->v + old, 0, (size_t)(t->n - old) * sizeof *t->v);
	}
	name_make(&t->v[i], text);
	return &t->v[i];
}

static void names_free(struct names *t)
{
	for (int i = 0; i < t->n; i++)
		name_free(&t->v[i]);
	free(t->v);
	*t = (struct names){0};
}

/* The name and its comma at p.  Copies up to 15 bytes of padding past
 * them: the rest of the row overwrites those, and rb_row leaves room. */
static char *put_name(char *p, const struct name *n)
{
	if (n->len <= 16)
		memcpy(p, n->s, 16);
	else
		for (int k = 0; k < n->len; k += 16)
			memcpy(p + k, n->more + k, 16);
	return p + n->len;
}

/* Rows on their way to one file. */
struct rowbuf {
	FILE *f;               /* where they go */
	char *b;               /* ROWS_BUF bytes */
	size_t len;            /* bytes in b, not yet written */
	struct name prefix;    /* "<policy>,<replication>,", which every row
				  starts with; len 0 until rb_prefix */
	struct names group, node, type, status, role, why; /* see put_group .. */
};

static void rb_init(struct rowbuf *rb, FILE *f)
{
	*rb = (struct rowbuf){.f = f, .b = xmalloc(ROWS_BUF)};
}

static void rb_prefix(struct rowbuf *rb, const char *pol, int rep)
{
	char *t = xmalloc(strlen(pol) + 16);
	sprintf(t, "%s,%d", pol, rep);
	name_make(&rb->prefix, t);
	free(t);
}

static void rb_flush(struct rowbuf *rb)
{
	if (rb->f && rb->len) /* f NULL: rows left out (--no-rows), none made */
		fwrite(rb->b, 1, rb->len, rb->f); /* errors: ferror, at rows_files_close */
	rb->len = 0;
}

/* Where the next row goes: room for ROW_MAX bytes.  rb_end says where
 * it ended. */
static char *rb_row(struct rowbuf *rb)
{
	if (rb->len > ROWS_BUF - ROW_MAX)
		rb_flush(rb);
	return rb->b + rb->len;
}

static void rb_end(struct rowbuf *rb, const char *end)
{
	rb->len = (size_t)(end - rb->b);
}

/* Write what is left and free the buffer and names. */
static void rb_close(struct rowbuf *rb)
{
	rb_flush(rb);
	free(rb->b);
	rb->b = NULL;
	name_free(&rb->prefix);
	names_free(&rb->group);
	names_free(&rb->node);
	names_free(&rb->type);
	names_free(&rb->status);
	names_free(&rb->role);
	names_free(&rb->why);
}

/* The names rows repeat, with their commas, from rb's copies: the text
 * is looked up only the first time. */
static char *put_group(char *p, struct rowbuf *rb, const struct sim *s, int group)
{
	const struct name *n = name_at(&rb->group, group);
	if (!n)
		n = name_add(&rb->group, group, sim_scenario(s)->jobs[group].name);
	return put_name(p, n);
}

static char *put_type(char *p, struct rowbuf *rb, int type)
{
	const struct name *n = name_at(&rb->type, type);
	if (!n)
		n = name_add(&rb->type, type, jm_name(type));
	return put_name(p, n);
}

static char *put_status(char *p, struct rowbuf *rb, const struct sim_job *j)
{
	const struct name *n = name_at(&rb->status, (int)j->status);
	if (!n)
		n = name_add(&rb->status, (int)j->status, sim_status_name(j->status));
	return put_name(p, n);
}

/* A role's name depends on the job type: kept by (type, role). */
static char *put_role(char *p, struct rowbuf *rb, int type, int role)
{
	int k = type * 3 + role - SIM_ROLE_AM;
	const struct name *n = name_at(&rb->role, k);
	if (!n)
		n = name_add(&rb->role, k, jm_role_name(type, role));
	return put_name(p, n);
}

/* The reason a job is not done, and the end of its row: "why\n". */
static char *put_why(char *p, struct rowbuf *rb, const struct sim *s, int why)
{
	const struct name *n = name_at(&rb->why, why);
	if (!n) {
		char b[160];
		n = name_add(&rb->why, why, sim_why_name(sim_scenario(s), why, b, sizeof b));
	}
	return put_name(p, n); /* (its comma after it) */
}

static char *put_node(char *p, struct rowbuf *rb, const struct sim *s, int node)
{
	const struct name *n = name_at(&rb->node, node);
	if (!n)
		n = name_add(&rb->node, node, sim_cluster(s)->nodes[node].name);
	return put_name(p, n);
}

/* Seconds with microsecond precision, or nothing for "never". */
static char *put_secs(char *p, int64_t us)
{
	return us < 0 ? p : wr_us(p, us);
}

static char *put_num(char *p, int64_t v)
{
	p = wr_i64(p, v);
	*p++ = ',';
	return p;
}

/* Milli-cores as cores (or milli-GPUs as GPUs): whole ones as integers
 * (the bytes of a scenario in whole units), else with their decimals,
 * trailing zeros dropped ("0.5", "1.25"). */
static char *put_cores(char *p, int64_t milli)
{
	p = wr_i64(p, milli / CLU_MILLI);
	int64_t f = milli % CLU_MILLI;
	if (f) {
		*p++ = '.';
		for (int64_t d = CLU_MILLI / 10; f && d; d /= 10) {
			*p++ = (char)('0' + f / d);
			f %= d;
		}
	}
	*p++ = ',';
	return p;
}

/* The output of one run in progress: its executors.csv and jobs.csv
 * rows, written by the worker thread of a bgq (bgq.h) while the engine's
 * thread goes on simulating.  The engine reuses an executor's record
 * once it is released, so the executor sink copies what executors.csv
 * needs into an out_rec on the queue, and the worker writes the row from
 * that: the engine's thread formats no rows.  A job's row is final once
 * its status is (sim.h, sim_exec_sink): the sink also hands over, in
 * batches, the rows of the jobs that ended in id order so far, which the
 * worker writes from the job array itself, taking their metrics as it
 * goes (met_acc_jobs, which sorts their JCTs as they come); after the
 * run, the last batch and the last merge of JCTs are all that is left.
 * The engine's thread goes on changing the simulation meanwhile: the
 * worker reads only what sim.h's rule for sim_exec_sink keeps final. */
struct out_ctx {
	struct rowbuf xrb;     /* executors.csv: the worker's */
	struct rowbuf jrb;     /* jobs.csv: the worker's */
	struct bgq *q;
	const struct sim *s;   /* names of groups and nodes are fixed during a run */
	const char *policy;
	int rep;
	struct met_acc acc;    /* the run's metrics so far: the worker's */
	struct met_run met;    /* the worker's, after out_finish */
	int jobs_over;         /* the engine's thread: jobs below this have ended */
	int jobs_handed;       /* the engine's thread: rows below this are handed over */
	struct tl *tl;         /* the engine's thread: the timeline it records, or NULL */
	bool rows;             /* jobs.csv and executors.csv are written (not --no-rows) */
};

#define JOB_BATCH 4096 /* jobs.csv rows handed over at once */

enum { REC_EXEC, REC_JOBS };

/* One item for the worker: an executor's row, or rows [id, job) of
 * jobs.csv (REC_JOBS; the rest unused). */
struct out_rec {
	int64_t launch_us, ready_us, end_us, gpu_from_us, gpu_to_us, mem_mib;
	int32_t id, job, group, node, cores, gpus; /* gpus: milli-GPUs */
	uint8_t kind, type;
	int8_t role;           /* SIM_ROLE_AM is negative */
};

/* jobs.csv rows of jobs [from, to) (the worker). */
static void job_rows(struct rowbuf *rb, const struct sim *s, int from, int to)
{
	for (int i = from; i < to; i++) {
		const struct sim_job *j = sim_job(s, i);
		char *p = put_name(rb_row(rb), &rb->prefix);
		p = put_num(p, j->id);
		p = put_group(p, rb, s, j->group);
		p = put_num(p, j->index);
		p = put_type(p, rb, j->type);
		p = put_status(p, rb, j);
		p = put_secs(p, j->arrival_us);
		*p++ = ',';
		p = put_secs(p, j->start_us);
		*p++ = ',';
		p = put_secs(p, j->end_us);
		*p++ = ',';
		if (j->end_us >= 0)
			p = wr_us(p, j->end_us - j->arrival_us);
		*p++ = ',';
		p = put_num(p, j->nodes_used);
		p = put_num(p, j->gpus_used);
		if (j->status == JOB_DONE) /* the reason of others: see sim_exec_sink */
			*p++ = ',';
		else
			p = put_why(p, rb, s, sim_job_why(s, i));
		/* the job's own number in its trace, for joining with it; empty
		 * for a job of a hand-written group */
		const struct scn_trace *t = sim_scenario(s)->jobs[j->group].trace;
		if (t)
			p = wr_i64(p, t->jobs[j->index].id);
		*p++ = '\n';
		rb_end(rb, p);
	}
}

/* One executors.csv row (the worker). */
static void exec_row(struct out_ctx *o, const struct out_rec *x)
{
	struct rowbuf *rb = &o->xrb;
	if (!rb->prefix.len)
		rb_prefix(rb, o->policy, o->rep);
	char *p = put_name(rb_row(rb), &rb->prefix);
	p = put_num(p, x->id);
	p = put_num(p, x->job);
	p = put_group(p, rb, o->s, x->group);
	p = put_type(p, rb, x->type);
	p = put_role(p, rb, x->type, x->role);
	p = put_node(p, rb, o->s, x->node);
	p = put_cores(p, x->cores);
	p = put_num(p, x->mem_mib);
	p = put_cores(p, x->gpus); /* milli-GPUs as GPUs: a share is 0.32 */
	p = put_secs(p, x->launch_us);
	*p++ = ',';
	p = put_secs(p, x->ready_us);
	*p++ = ',';
	p = put_secs(p, x->end_us);
	*p++ = ',';
	p = put_secs(p, x->gpu_from_us);
	*p++ = ',';
	p = put_secs(p, x->gpu_to_us);
	*p++ = '\n';
	rb_end(rb, p);
}

/* The worker's side of the queue. */
static void out_rec_do(void *ctx, const void *rec)
{
	struct out_ctx *o = ctx;
	const struct out_rec *r = rec;
	if (r->kind == REC_JOBS) {
		if (o->rows)
			job_rows(&o->jrb, o->s, r->id, r->job);
		met_acc_jobs(&o->acc, o->s, r->job);
	} else {
		exec_row(o, r);
	}
}

static void out_start(void *arg)
{
	struct out_ctx *o = arg;
	met_acc_init(&o->acc, o->s);
}

/* The rows of jobs [jobs_handed, to) go to the worker. */
static void hand_jobs(struct out_ctx *o, int to)
{
	struct out_rec *r = bgq_put(o->q);
	*r = (struct out_rec){.kind = REC_JOBS, .id = o->jobs_handed, .job = to};
	o->jobs_handed = to;
}

/* The executor sink (the engine's thread). */
static void exec_put(void *ctx, const struct sim *s, const struct sim_exec *x)
{
	struct out_ctx *o = ctx;
	if (o->tl)
		tl_exec(o->tl, x);
	if (o->rows) {
		const struct sim_job *j = sim_job(s, x->job);
		struct out_rec *r = bgq_put(o->q);
		*r = (struct out_rec){.launch_us = x->launch_us, .ready_us = x->ready_us,
				      .end_us = x->end_us, .gpu_from_us = x->gpu_from_us,
				      .gpu_to_us = x->gpu_to_us, .mem_mib = x->mem_mib,
				      .id = x->id, .job = x->job, .group = j->group,
				      .node = x->node, .cores = x->cores,
				      .gpus = x->gpu_milli ? x->gpu_milli + x->gpus_took * CLU_GPU_MILLI
							   : (x->gpus + x->gpus_took) * CLU_GPU_MILLI,
				      .kind = REC_EXEC, .type = j->type, .role = (int8_t)x->played};
	}
	/* the statuses from JOB_DONE on are final (enum sim_job_status) */
	int n = sim_njobs(s);
	while (o->jobs_over < n && sim_job(s, o->jobs_over)->status >= JOB_DONE)
		o->jobs_over++;
	if (o->jobs_over - o->jobs_handed >= JOB_BATCH)
		hand_jobs(o, o->jobs_over);
}

/* The end of a run's rows, and its metrics (the worker); failed: a
 * failed run, whose files are dropped. */
static void out_end(struct out_ctx *o, bool failed)
{
	rb_close(&o->xrb);
	rb_close(&o->jrb);
	if (failed)
		met_acc_free(&o->acc);
	else
		met_acc_finish(&o->acc, o->s, &o->met);
}
static void out_finish(void *arg) { out_end(arg, false); }
static void out_drop(void *arg) { out_end(arg, true); }

/* The run's rows of runs.csv and types.csv, each led by
 * "scenario,policy,". */
static void run_rows(FILE *runs, FILE *types, const struct scn *sc, const char *pol, int rep,
		     const struct met_run *m)
{
	char *lead = xmalloc(strlen(sc->name) + strlen(pol) + 3);
	sprintf(lead, "%s,%s,", sc->name, pol);
	fputs(lead, runs);
	rows_run(runs, sc, rep, m);
	rows_types(types, lead, rep, m);
	free(lead);
}

/* The result files (docs/output.md).  timing.csv holds wall-clock
 * figures, so unlike the others it differs from run to run. */
enum { OUT_RUNS, OUT_TYPES, OUT_JOBS, OUT_EXECUTORS, OUT_TIMING, OUT_TABLE, NOUT };
/* table.md: the table run prints, its notes and warnings, as Markdown (a
 * report of the folder opens with it) */
static const char *const out_names[NOUT] = {"runs.csv", "types.csv", "jobs.csv",
					    "executors.csv", "timing.csv", "table.md"};
static const char *const out_headers[NOUT] = {
	"scenario,policy," ROWS_RUN_HEADER,
	"scenario,policy," ROWS_TYPES_HEADER,
	"policy,replication,job,group,index,type,status,arrival_s,start_s,end_s,jct_s,nodes,gpus,"
	"reason,trace_id\n",
	"policy,replication,executor,job,group,type,role,node,cores,memory_mib,gpus,launch_s,"
	"ready_s,end_s,gpu_from_s,gpu_to_s\n",
	"policy," ROWS_TIMING_HEADER,
	"",
};

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* The policies to run: the scenario's entries named on the command line
 * (or a registered policy with its defaults), else all of them. */
static int pick_policies(const struct scn *s, const struct cmd_run_opts *o,
			 struct scn_policy *out, int *n)
{
	if (!o->npolicies) {
		if (s->npolicies > ARRAY_LEN(o->policies)) { /* the loader's limit */
			fprintf(stderr, "hetsim run: more than %d policies\n", ARRAY_LEN(o->policies));
			return -1;
		}
		for (int i = 0; i < s->npolicies; i++)
			out[i] = s->policies[i];
		*n = s->npolicies;
		return 0;
	}
	*n = 0;
	for (int k = 0; k < o->npolicies; k++) {
		const char *name = o->policies[k];
		if (cmd_policy_named(s, name, &out[(*n)++]) < 0) {
			fprintf(stderr, "hetsim run: option '--policy': unknown policy '%s' "
				"(registered: %s)\n", name, pol_names());
			return -1;
		}
	}
	return 0;
}

/* What the table shows of one policy, over its replications. */
enum { A_MAKESPAN, A_JCT, A_P95, A_WAIT, A_GPU, A_CPU, NA };
struct agg {
	double sum[NA];           /* of the values that are not empty */
	int n[NA];                /* how many */
	double *mk;               /* per replication (from the first run): makespan, NaN if empty */
	double *jct;              /* per replication: mean JCT, NaN if empty */
	uint64_t *set;            /* per replication: the jobs done (met_run.done_set) */
	struct cmd_not_done nd;   /* job counts over the replications */
};

static void agg_add(struct agg *a, int rep, const struct met_run *m)
{
	const double v[NA] = {m->makespan_s, m->jct_mean_s, m->jct_p95_s, m->wait_mean_s,
			      m->gpu_util, m->cpu_util};
	for (int k = 0; k < NA; k++)
		if (!isnan(v[k])) {
			a->sum[k] += v[k];
			a->n[k]++;
		}
	/* the change is paired: from the values as runs.csv writes them */
	a->mk[rep] = isnan(m->makespan_s) ? NAN : round(m->makespan_s * 1e6) / 1e6;
	a->jct[rep] = m->jct_mean_s;
	a->set[rep] = m->done_set;
	cmd_not_done_add(&a->nd, m);
}

/* A mean of the table: "-" if no replication had a value, a '*' when
 * some had none. */
static const char *cell(const struct agg *a, int k, int reps, double scale, int decimals,
			char *buf, size_t len, bool *partial)
{
	if (!a->n[k])
		return "-";
	snprintf(buf, len, "%.*f%s", decimals, scale * a->sum[k] / a->n[k],
		 a->n[k] < reps ? "*" : "");
	*partial |= a->n[k] < reps;
	return buf;
}

/* The paired change of makespan of a against the baseline b: the mean
 * of plot_paired_changes over the replications where both finished the
 * same jobs (a makespan of other jobs is no change), as sweep's
 * makespan_change_pct.  "-" where there is none; "~" after it where some
 * replication was left out (*left: how many had both a makespan but
 * other jobs done). */
static const char *change_cell(const struct agg *a, const struct agg *b, int reps, char *buf,
			       size_t len, int *left)
{
	*left = 0;
	if (a == b)
		return "baseline";
	double *x = xmalloc((size_t)reps * sizeof *x);
	struct plot_ci95 ci;
	plot_ci95(x, plot_paired_changes(a->mk, b->mk, a->set, b->set, reps, x, left), &ci);
	free(x);
	if (!ci.n)
		return "-";
	snprintf(buf, len, "%+.1f%%%s", ci.mean, *left ? "~" : "");
	return buf;
}

/* Whether two replications' figures are the same (a deterministic
 * workload: every replication alike). */
static bool same_rep(const struct agg *a, int r, int q)
{
	bool mk = a->mk[r] == a->mk[q] || (isnan(a->mk[r]) && isnan(a->mk[q]));
	bool jc = a->jct[r] == a->jct[q] || (isnan(a->jct[r]) && isnan(a->jct[q]));
	return mk && jc && a->set[r] == a->set[q];
}

/* "warning: POLICY: ..." for a policy with jobs not done: the counts and
 * the reasons, most frequent first (at most three). */

static void print_table(FILE *f, const struct scn_policy *pols, int npol, const struct agg *a,
			int reps, const struct scn *s, int base, bool base_named, const char *dir)
{
	int64_t njobs = 0;
	for (int g = 0; g < s->njobgroups; g++)
		njobs += s->jobs[g].count;
	fprintf(f, "%s: means over %d replication%s (seed %" PRIu64 "), job counts summed over %s; "
	       "change: makespan against %s (%s)%s%s%s\n", s->name, reps,
	       reps == 1 ? "" : "s", s->seed, reps == 1 ? "it" : "them", pols[base].name,
	       base_named ? "--baseline" : "the first policy listed", dir ? "; files in " : "",
	       dir ? dir : "", dir ? "/" : "");
	fprintf(f, "%-18s %11s %11s %10s %11s %6s %6s %9s %6s %6s %9s %11s\n", "policy", "makespan_s",
	       "jct_mean_s", "jct_p95_s", "wait_mean_s", "gpu_%", "cpu_%", "change", "done",
	       "failed", "timed_out", "unplaceable");
	bool partial = false;
	int left[16] = {0};
	for (int p = 0; p < npol; p++) {
		char b[NA][32], ch[32];
		fprintf(f, "%-18s %11s %11s %10s %11s %6s %6s %9s %6" PRId64 " %6" PRId64 " %9" PRId64
		       " %11" PRId64 "\n", pols[p].name,
		       cell(&a[p], A_MAKESPAN, reps, 1, 3, b[0], sizeof b[0], &partial),
		       cell(&a[p], A_JCT, reps, 1, 3, b[1], sizeof b[1], &partial),
		       cell(&a[p], A_P95, reps, 1, 3, b[2], sizeof b[2], &partial),
		       cell(&a[p], A_WAIT, reps, 1, 3, b[3], sizeof b[3], &partial),
		       cell(&a[p], A_GPU, reps, 100, 1, b[4], sizeof b[4], &partial),
		       cell(&a[p], A_CPU, reps, 100, 1, b[5], sizeof b[5], &partial),
		       change_cell(&a[p], &a[base], reps, ch, sizeof ch, &left[p]), a[p].nd.done,
		       a[p].nd.failed, a[p].nd.timed_out, a[p].nd.unplaceable);
	}
	if (partial)
		fprintf(f, "*: mean over the replications that have a value (the others had nothing "
		       "to measure)\n");
	for (int p = 0; p < npol; p++) {
		char ch[32];
		int l;
		if (p == base)
			continue;
		const char *c = change_cell(&a[p], &a[base], reps, ch, sizeof ch, &l);
		if (!strcmp(c, "-") && l)
			fprintf(f, "change -: %s finished other jobs than %s in every replication with a "
			       "makespan: its makespan is of other work, no change\n", pols[p].name,
			       pols[base].name);
		else if (l)
			fprintf(f, "change ~: %s: over %d of %d replications, those where it finished the "
			       "jobs %s finished\n", pols[p].name, reps - l, reps, pols[base].name);
	}
	bool alike = reps > 1, all_same = npol > 1;
	for (int p = 0; p < npol && alike; p++)
		for (int r = 1; r < reps && alike; r++)
			alike = same_rep(&a[p], 0, r);
	for (int p = 1; p < npol && all_same; p++)
		for (int r = 0; r < reps && all_same; r++)
			all_same = a[p].mk[r] == a[0].mk[r] && a[p].set[r] == a[0].set[r] &&
				   (a[p].jct[r] == a[0].jct[r] || (isnan(a[p].jct[r]) &&
								    isnan(a[0].jct[r])));
	if (alike)
		fprintf(f, "note: the %d replications of each policy are alike (nothing in the workload "
		       "is drawn at random: a trace's jobs as they are): a mean over them is one "
		       "run's figure, and no measure of its spread\n", reps);
	if (all_same)
		fprintf(f, "note: every policy gave the same makespan and mean JCT in every "
		       "replication: this workload does not tell them apart\n");
	if (s->warmup_jobs >= njobs && njobs > 0)
		fprintf(f, "note: the warm-up (%d jobs) covers all %" PRId64 " jobs: none is counted, and "
		       "the job figures are empty\n", s->warmup_jobs, njobs);
	for (int p = 0; p < npol; p++)
		if (a[p].nd.failed + a[p].nd.timed_out + a[p].nd.unplaceable)
			cmd_warn_not_done(f, s, pols[p].name, &a[p].nd, reps);
}

/* The baseline: --baseline's policy, one of those run, else the first.
 * -1 after a message if it is not run. */
static int pick_baseline(const struct scn_policy *pols, int npol, const char *name)
{
	if (!name)
		return 0;
	for (int p = 0; p < npol; p++)
		if (strcmp(pols[p].name, name) == 0)
			return p;
	fprintf(stderr, "hetsim run: option '--baseline': policy '%s' is not run (run:", name);
	for (int p = 0; p < npol; p++)
		fprintf(stderr, "%s %s", p ? "," : "", pols[p].name);
	fprintf(stderr, ")\n");
	return -1;
}

/* A run's progress on a terminal (stderr), from its second second on, a
 * line redrawn at most 4 times a second; and the interrupt. */
struct watch {
	const char *policy;
	int rep;
	bool bar, drawn;
	double t0, last;
};

static int watch(void *ctx, const struct sim *s)
{
	struct watch *w = ctx;
	if (cmd_stopped) /* SIGINT or SIGTERM: the run stops at this look */
		return 1;
	if (!w->bar)
		return 0;
	double now = mono_s();
	if (now - w->t0 < 1 || now - w->last < 0.25)
		return 0;
	w->last = now;
	w->drawn = true;
	int64_t done = (int64_t)sim_totals(s)->jobs_done;
	fprintf(stderr, "\r\033[K%s, replication %d: %lld of %d jobs done, %.0f s simulated, "
		"%.0f s so far (Ctrl-C stops)", w->policy, w->rep, (long long)done, sim_njobs(s),
		(double)sim_now(s) / 1e6, now - w->t0);
	return 0;
}

int cmd_run_scenario(struct scn *s, const struct cmd_run_opts *o, const char *dir)
{
	struct scn_policy pols[16];
	int npol;
	if (pick_policies(s, o, pols, &npol))
		return 2;
	if (o->seed_set)
		s->seed = o->seed;
	int base = pick_baseline(pols, npol, o->baseline);
	if (base < 0)
		return 2;
	int reps = o->replications ? o->replications : s->replications;
	int first = 0, last = reps;
	if (o->only_replication >= 0) {
		if (o->only_replication >= reps) {
			fprintf(stderr, "hetsim run: option '--replication': %d is not below the %d "
				"replications\n", o->only_replication, reps);
			return 2;
		}
		first = o->only_replication;
		last = first + 1;
	}
	if (s->over_batch && !o->quiet)
		fprintf(stderr, "note: %s sets no overheads and its jobs come from traces (batch "
			"jobs, not Spark's): no executor start-up or task launch (overheads: sets "
			"them)\n", s->path);
	if (s->cost.builtin && !o->quiet)
		fprintf(stderr, "note: %s names no cost_model: using the built-in default, the "
			"assumed figures of " SCN_DEFAULT_MODEL "\n", s->path);
	if (!o->quiet) {
		cmd_trace_warnings(s, stderr);
		cmd_rate_warnings(s, stderr);
	}
	if (s->sweep_points > 1 && !o->quiet)
		fprintf(stderr, "note: %s has a sweep block of %d points; run takes point 0 "
			"(hetsim sweep runs them all)\n", s->path, s->sweep_points);
	bool labels = rows_scenario_has_labels(s);
	/* the set: every file but, under --no-rows, jobs.csv and executors.csv
	 * (a folder's earlier ones go with the set's commit: rows.h) */
	const char *names[NOUT];
	int at[NOUT], nnames = 0;
	for (int i = 0; i < NOUT; i++) {
		at[i] = o->no_rows && (i == OUT_JOBS || i == OUT_EXECUTORS) ? -1 : nnames;
		if (at[i] >= 0)
			names[nnames++] = out_names[i];
	}
	struct rows_files out = {.cmd = "run", .dir = dir, .names = names, .n = nnames};
	if (rows_files_open(&out))
		return 1;
	FILE *f[NOUT]; /* NULL: left out */
	for (int i = 0; i < NOUT; i++)
		if ((f[i] = at[i] >= 0 ? out.f[at[i]] : NULL))
			fputs(out_headers[i], f[i]);
	struct agg *agg = xcalloc((size_t)npol, sizeof *agg);
	for (int p = 0; p < npol; p++) {
		agg[p].mk = xmalloc((size_t)(last - first) * sizeof *agg[p].mk);
		agg[p].jct = xmalloc((size_t)(last - first) * sizeof *agg[p].jct);
		agg[p].set = xmalloc((size_t)(last - first) * sizeof *agg[p].set);
	}
	int rc = 0;
	struct tl *tl = NULL;
	if (o->trace_json) {
		char e[4400];
		if (!(tl = tl_open(o->trace_json, e, sizeof e))) {
			fprintf(stderr, "hetsim run: option '--trace-json': %s\n", e);
			rows_files_close(&out, false);
			for (int p = 0; p < npol; p++)
				free(agg[p].mk), free(agg[p].jct), free(agg[p].set);
			free(agg);
			return 1;
		}
	}
	struct cmd_stop stop;
	cmd_stop_catch(&stop);
	for (int p = 0; p < npol && !rc; p++) {
		const struct policy_ops *ops = pols[p].ops;
		if (labels && !ops->uses_labels && !o->quiet)
			fprintf(stderr, "note: policy '%s'%s%s%s ignores the scenario's node labels\n",
				pols[p].name, strcmp(pols[p].name, ops->name) ? " (" : "",
				strcmp(pols[p].name, ops->name) ? ops->name : "",
				strcmp(pols[p].name, ops->name) ? ")" : "");
		for (int r = first; r < last; r++) {
			char err[256];
			double t0 = mono_s();
			scn_offer_order(s, (uint32_t)r);
			struct sim *sim = sim_new(s, &pols[p], (uint32_t)r, err, sizeof err);
			if (!sim) {
				fprintf(stderr, "hetsim run: %s\n", err);
				rc = 1;
				break;
			}
			struct out_ctx oc = {.s = sim, .policy = pols[p].name, .rep = r,
					     .rows = !o->no_rows};
			rb_init(&oc.xrb, f[OUT_EXECUTORS]);
			rb_init(&oc.jrb, f[OUT_JOBS]);
			rb_prefix(&oc.jrb, pols[p].name, r);
			oc.q = bgq_start(sizeof(struct out_rec), out_rec_do, &oc, !o->rows_inline);
			bgq_call(oc.q, out_start, &oc);
			sim_set_exec_sink(sim, exec_put, &oc);
			if (tl && r == first) {
				oc.tl = tl;
				tl_begin(tl, pols[p].name, p);
				sim_set_task_sink(sim, tl_task, tl);
				sim_set_state_sink(sim, tl_state, tl);
			}
			struct watch w = {.policy = pols[p].name, .rep = r, .bar = !o->quiet &&
					  isatty(STDERR_FILENO), .t0 = mono_s()};
			sim_set_watch(sim, watch, &w, 1024);
			int failed = sim_run(sim);
			if (w.drawn)
				fprintf(stderr, "\r\033[K");
			if (cmd_stopped) /* (after the watch's last look: a short run) */
				failed = SIM_STOPPED;
			if (failed == SIM_STOPPED) {
				bgq_call(oc.q, out_drop, &oc);
				bgq_stop(oc.q);
				sim_free(sim);
				rc = 128 + cmd_stopped;
				fprintf(stderr, "hetsim run: interrupted (%s) in policy %s, replication %d; "
					"no file written\n", cmd_stop_name(cmd_stopped),
					pols[p].name, r);
				break;
			}
			if (oc.tl && !failed)
				tl_end(tl, sim);
			if (!failed)
				hand_jobs(&oc, sim_njobs(sim));
			bgq_call(oc.q, failed ? out_drop : out_finish, &oc);
			if (failed) {
				char why[2048];
				bgq_stop(oc.q);
				fprintf(stderr, "hetsim run: %s: policy %s, replication %d: %s; no results "
					"written\n", s->path, pols[p].name, r,
					sim_stop_why(sim, failed, why, sizeof why));
				sim_free(sim);
				rc = 1;
				break;
			}
			double wall = mono_s() - t0;
			bgq_stop(oc.q);
			const struct met_run m = oc.met;
			fprintf(f[OUT_TIMING], "%s,", pols[p].name);
			rows_timing(f[OUT_TIMING], r, wall, sim_totals(sim));
			run_rows(f[OUT_RUNS], f[OUT_TYPES], s, pols[p].name, r, &m);
			agg_add(&agg[p], r - first, &m);
			sim_free(sim);
		}
	}
	cmd_stop_release(&stop);
	if (!rc) { /* table.md: the table as printed, but for the folder's name */
		fprintf(f[OUT_TABLE], "# %s: hetsim run\n\nThe table `hetsim run` printed, with its "
			"notes and warnings (docs/output.md, \"The table `hetsim run` prints\"):"
			"\n\n```\n", s->name);
		print_table(f[OUT_TABLE], pols, npol, agg, last - first, s, base, o->baseline != NULL,
			    NULL);
		fputs("```\n", f[OUT_TABLE]);
	}
	if (tl && !rc) { /* written whole before the set commits, or no set */
		char e[4400];
		if (tl_finish(tl, e, sizeof e)) {
			fprintf(stderr, "hetsim run: option '--trace-json': %s\n", e);
			rc = 1;
		}
	}
	if (rows_files_close(&out, rc == 0) && !rc)
		rc = 1;
	if (tl) {
		char e[4400];
		if (tl_close(tl, rc == 0, e, sizeof e)) {
			fprintf(stderr, "hetsim run: option '--trace-json': %s\n", e);
			rc = 1;
		}
	}
	if (!rc && !o->quiet)
		print_table(stdout, pols, npol, agg, last - first, s, base, o->baseline != NULL, dir);
	for (int p = 0; p < npol; p++)
		free(agg[p].mk), free(agg[p].jct), free(agg[p].set);
	free(agg);
	return rc;
}
