/* run.c - `hetsim run`: every (policy, replication) of a scenario, the
 * comparison table, and the CSV files (docs/output.md). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd.h"
#include "metrics.h"
#include "policy.h"
#include "rng.h"
#include "rows.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"

static const char *role_name(const struct sim_job *j, int role)
{
	if (role == SIM_ROLE_AM)
		return "am";
	if (j->type == SCN_JOB_MNIST)
		return role ? "worker" : "ps";
	if (j->type == SCN_JOB_ANGEL && role == 1)
		return "ps";
	return "executor";
}

/* Rows of jobs.csv and executors.csv are built with util.h's wr_*
 * writers straight into a buffer, written with one fwrite when it is
 * nearly full: a run of 10^6 jobs writes 2 million rows (170 MB), and
 * printf, then an fwrite per row, took much of such a run.  A row has at
 * most 4 names of at most 112 characters (the loader's 100 plus
 * "-<index>" for nodes) and 16 numbers: ROW_MAX is ample. */
#define ROW_MAX 1024
#define ROWS_BUF ((size_t)256 << 10)

/* Rows on their way to one file. */
struct rowbuf {
	FILE *f;               /* where they go */
	char *b;               /* ROWS_BUF bytes */
	size_t len;            /* bytes in b, not yet written */
};

static void rb_init(struct rowbuf *rb, FILE *f)
{
	*rb = (struct rowbuf){f, xmalloc(ROWS_BUF), 0};
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

/* Write what is left and free the buffer. */
static void rb_close(struct rowbuf *rb)
{
	rb_flush(rb);
	free(rb->b);
	rb->b = NULL;
}

/* Seconds with microsecond precision, or nothing for "never". */
static char *put_secs(char *p, int64_t us)
{
	return us < 0 ? p : wr_us(p, us);
}

/* A name and a comma.  Copied a byte at a time: names are short, and
 * strlen then memcpy, two calls for a few bytes, were most of the cost
 * of the 9 names a job's rows hold. */
static char *put_field(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	*p++ = ',';
	return p;
}

static char *put_num(char *p, int64_t v)
{
	p = wr_i64(p, v);
	*p++ = ',';
	return p;
}

static void job_rows(FILE *b, const struct sim *s, const char *pol, int rep)
{
	struct rowbuf rb;
	rb_init(&rb, b);
	for (int i = 0; i < sim_njobs(s); i++) {
		const struct sim_job *j = sim_job(s, i);
		char *p = put_field(rb_row(&rb), pol);
		p = put_num(p, rep);
		p = put_num(p, j->id);
		p = put_field(p, sim_job_group(s, i)->name);
		p = put_num(p, j->index);
		p = put_field(p, scn_type_name(j->type));
		p = put_field(p, sim_status_name(j->status));
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
		rb_end(&rb, p);
	}
	rb_close(&rb);
}

/* The output of one run in progress, for the executor sink. */
struct out_ctx {
	struct rowbuf rb;      /* executors.csv */
	const char *policy;
	int rep;
};

static void exec_row(void *ctx, const struct sim *s, const struct sim_exec *x)
{
	struct out_ctx *o = ctx;
	const struct sim_job *j = sim_job(s, x->job);
	char *p = put_field(rb_row(&o->rb), o->policy);
	p = put_num(p, o->rep);
	p = put_num(p, x->id);
	p = put_num(p, x->job);
	p = put_field(p, sim_job_group(s, x->job)->name);
	p = put_field(p, scn_type_name(j->type));
	p = put_field(p, role_name(j, x->role));
	p = put_field(p, sim_cluster(s)->nodes[x->node].name);
	p = put_num(p, x->cores);
	p = put_num(p, x->mem_mib);
	p = put_num(p, x->gpus + x->gpus_took);
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
	rb_end(&o->rb, p);
}

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
			struct out_ctx oc = {.policy = pols[p].name, .rep = r};
			rb_init(&oc.rb, f[2]);
			sim_set_exec_sink(sim, exec_row, &oc);
			int failed = sim_run(sim);
			rb_close(&oc.rb);
			if (failed) {
				fprintf(stderr, "hetsim run: %s: policy %s, replication %d: simulated time "
					"passes %lld years; no results written\n", s->path, pols[p].name,
					r, (long long)(SIM_TIME_MAX / US_PER_S / 31557600));
				sim_free(sim);
				rc = 1;
				break;
			}
			double wall = mono_s() - t0;
			struct met_run m;
			met_compute(sim, &m);
			fprintf(f[3], "%s,", pols[p].name);
			rows_timing(f[3], r, wall, sim_totals(sim));
			run_row(f[0], s, pols[p].name, r, &m);
			job_rows(f[1], sim, pols[p].name, r);
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
