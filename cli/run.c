/* run.c - `hetsim run`: every (policy, replication) of a scenario, the
 * comparison table, and the CSV files (docs/output.md). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bgq.h"
#include "cmd.h"
#include "metrics.h"
#include "policy.h"
#include "rng.h"
#include "rows.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"

static const char *role_name(int type, int role)
{
	if (role == SIM_ROLE_AM)
		return "am";
	if (type == SCN_JOB_MNIST)
		return role ? "worker" : "ps";
	if (type == SCN_JOB_ANGEL && role == 1)
		return "ps";
	return "executor";
}

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
	struct names group, node, type, status, role; /* see put_group .. */
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
		n = name_add(&rb->type, type, scn_type_name((enum scn_job_type)type));
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
		n = name_add(&rb->role, k, role_name(type, role));
	return put_name(p, n);
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
};

#define JOB_BATCH 4096 /* jobs.csv rows handed over at once */

enum { REC_EXEC, REC_JOBS };

/* One item for the worker: an executor's row, or rows [id, job) of
 * jobs.csv (REC_JOBS; the rest unused). */
struct out_rec {
	int64_t launch_us, ready_us, end_us, gpu_from_us, gpu_to_us, mem_mib;
	int32_t id, job, group, node, cores, gpus;
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
		p = wr_i64(p, j->gpus_used);
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
	p = put_num(p, x->cores);
	p = put_num(p, x->mem_mib);
	p = put_num(p, x->gpus);
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
	const struct sim_job *j = sim_job(s, x->job);
	struct out_rec *r = bgq_put(o->q);
	*r = (struct out_rec){.launch_us = x->launch_us, .ready_us = x->ready_us,
			      .end_us = x->end_us, .gpu_from_us = x->gpu_from_us,
			      .gpu_to_us = x->gpu_to_us, .mem_mib = x->mem_mib,
			      .id = x->id, .job = x->job, .group = j->group, .node = x->node,
			      .cores = x->cores, .gpus = x->gpus + x->gpus_took,
			      .kind = REC_EXEC, .type = j->type, .role = (int8_t)x->role};
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

static void run_row(FILE *b, const struct scn *sc, const char *pol, int rep,
		    const struct met_run *m)
{
	fprintf(b, "%s,%s,", sc->name, pol);
	rows_run(b, sc, rep, m);
}

/* The result files (docs/output.md).  timing.csv holds wall-clock
 * figures, so unlike the other three it differs from run to run. */
#define NOUT 4
static const char *const out_names[NOUT] = {"runs.csv", "jobs.csv", "executors.csv",
					    "timing.csv"};
static const char *const out_headers[NOUT] = {
	"scenario,policy," ROWS_RUN_HEADER,
	"policy,replication,job,group,index,type,status,arrival_s,start_s,end_s,jct_s,nodes,gpus\n",
	"policy,replication,executor,job,group,type,role,node,cores,memory_mib,gpus,launch_s,"
	"ready_s,end_s,gpu_from_s,gpu_to_s\n",
	"policy," ROWS_TIMING_HEADER,
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
		struct scn_policy *p = &out[(*n)++];
		int i;
		for (i = 0; i < s->npolicies; i++)
			if (strcmp(s->policies[i].name, name) == 0)
				break;
		if (i < s->npolicies) {
			*p = s->policies[i];
		} else if (pol_find(name)) {
			*p = (struct scn_policy){.name = (char *)name, .kind = (char *)name};
		} else {
			fprintf(stderr, "hetsim run: option '--policy': unknown policy '%s' "
				"(registered: %s)\n", name, pol_names());
			return -1;
		}
	}
	return 0;
}

struct agg {
	double makespan, jct, p95, wait, gpu, cpu;
};

static void print_table(const struct scn_policy *pols, int npol, const struct agg *a, int reps,
			const struct scn *s)
{
	printf("%s: %d replication%s, seed %" PRIu64 "\n", s->name, reps, reps == 1 ? "" : "s",
	       s->seed);
	printf("%-18s %12s %12s %12s %12s %8s %8s %9s\n", "policy", "makespan_s", "jct_mean_s",
	       "jct_p95_s", "wait_mean_s", "gpu_%", "cpu_%", "vs_first");
	for (int p = 0; p < npol; p++) {
		char vs[32] = "-";
		if (p > 0 && a[0].makespan > 0)
			snprintf(vs, sizeof vs, "%+.1f%%",
				 100.0 * (a[p].makespan - a[0].makespan) / a[0].makespan);
		printf("%-18s %12.3f %12.3f %12.3f %12.3f %8.1f %8.1f %9s\n", pols[p].name,
		       a[p].makespan / reps, a[p].jct / reps, a[p].p95 / reps, a[p].wait / reps,
		       100 * a[p].gpu / reps, 100 * a[p].cpu / reps, vs);
	}
}

int cmd_run_scenario(struct scn *s, const struct cmd_run_opts *o, const char *dir)
{
	struct scn_policy pols[16];
	int npol;
	if (pick_policies(s, o, pols, &npol))
		return 2;
	if (o->seed_set)
		s->seed = o->seed;
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
	if (s->sweep_points > 1 && !o->quiet)
		fprintf(stderr, "note: %s has a sweep block of %d points; run takes point 0 "
			"(hetsim sweep runs them all)\n", s->path, s->sweep_points);
	bool labels = rows_scenario_has_labels(s);
	struct rows_files out = {.cmd = "run", .dir = dir, .names = out_names, .n = NOUT};
	if (rows_files_open(&out))
		return 1;
	FILE **f = out.f;
	for (int i = 0; i < NOUT; i++)
		fputs(out_headers[i], f[i]);
	struct agg *agg = xcalloc((size_t)npol, sizeof *agg);
	int rc = 0;
	for (int p = 0; p < npol && !rc; p++) {
		const struct policy_ops *ops = pol_find(pols[p].kind);
		if (labels && !ops->uses_labels && !o->quiet)
			fprintf(stderr, "note: policy '%s'%s%s%s ignores the scenario's node labels\n",
				pols[p].name, strcmp(pols[p].name, ops->name) ? " (" : "",
				strcmp(pols[p].name, ops->name) ? ops->name : "",
				strcmp(pols[p].name, ops->name) ? ")" : "");
		for (int r = first; r < last; r++) {
			char err[256];
			double t0 = mono_s();
			struct sim *sim = sim_new(s, &pols[p], (uint32_t)r, err, sizeof err);
			if (!sim) {
				fprintf(stderr, "hetsim run: %s\n", err);
				rc = 1;
				break;
			}
			struct out_ctx oc = {.s = sim, .policy = pols[p].name, .rep = r};
			rb_init(&oc.xrb, f[2]);
			rb_init(&oc.jrb, f[1]);
			rb_prefix(&oc.jrb, pols[p].name, r);
			oc.q = bgq_start(sizeof(struct out_rec), out_rec_do, &oc, !o->rows_inline);
			bgq_call(oc.q, out_start, &oc);
			sim_set_exec_sink(sim, exec_put, &oc);
			int failed = sim_run(sim);
			if (!failed)
				hand_jobs(&oc, sim_njobs(sim));
			bgq_call(oc.q, failed ? out_drop : out_finish, &oc);
			if (failed) {
				bgq_stop(oc.q);
				fprintf(stderr, "hetsim run: %s: policy %s, replication %d: simulated time "
					"passes %lld years; no results written\n", s->path, pols[p].name,
					r, (long long)(SIM_TIME_MAX / US_PER_S / 31557600));
				sim_free(sim);
				rc = 1;
				break;
			}
			double wall = mono_s() - t0;
			bgq_stop(oc.q);
			const struct met_run m = oc.met;
			fprintf(f[3], "%s,", pols[p].name);
			rows_timing(f[3], r, wall, sim_totals(sim));
			run_row(f[0], s, pols[p].name, r, &m);
			agg[p] = (struct agg){agg[p].makespan + m.makespan_s, agg[p].jct + m.jct_mean_s,
					      agg[p].p95 + m.jct_p95_s, agg[p].wait + m.wait_mean_s,
					      agg[p].gpu + m.gpu_util, agg[p].cpu + m.cpu_util};
			sim_free(sim);
		}
	}
	if (rows_files_close(&out, rc == 0))
		rc = 1;
	if (!rc && !o->quiet)
		print_table(pols, npol, agg, last - first, s);
	free(agg);
	return rc;
}
