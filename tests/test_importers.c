/* test_importers.c - the trace importers of Alibaba's GPU traces
 * (alibaba-openb-2023, alibaba-pai-2020) and Microsoft's Philly trace
 * (philly): the real files under tests/data/traces/alibaba/ and
 * tests/data/traces/philly/ (their READMEs give each file's source and
 * terms) read and counted, and every bad-record rule with its exact
 * message.
 *
 * Every count asserted on a real file was computed apart from the code,
 * with awk on the uncompressed file (zstd -dc F.zst > F); the command is
 * in the comment above the assertions.
 *
 * No PAI job or task rows and no Philly job log were published where
 * this project could get them (only the PAI machine table and headers,
 * the Philly machine list): the PAI sample directory
 * (tests/data/traces/alibaba/pai-sample/), the Philly sample log
 * (tests/data/traces/philly/cluster_job_log-sample.json) and every bad
 * case below were written here, to the published columns and JSON
 * layout (the traces' READMEs), not taken from the traces.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "load.h"
#include "scenario.h"
#include "scn_trace.h"
#include "test.h"
#include "trace.h"

#define ALI "tests/data/traces/alibaba/"
#define PHILLY "tests/data/traces/philly/"
#define OPENB "alibaba-openb-2023"
#define PAI "alibaba-pai-2020"

/* ---- helpers --------------------------------------------------------- */

/* What trace info's command line gives: time scale 1, 1 core an executor. */
static struct trace_opts opts(void)
{
	return (struct trace_opts){.time_scale = 1, .exec_cores = 1};
}

static struct scn_trace *read_ok(const char *path, const struct trace_opts *o)
{
	char err[1024] = "";
	struct scn_trace *t = trace_read(path, o, err, sizeof err);
	if (!t)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	return t;
}

/* Reading `path` under o fails with the message path + msg. */
static void expect_fail(const char *path, const struct trace_opts *o, const char *msg)
{
	char err[1024] = "", want[1024];
	struct scn_trace *t = trace_read(path, o, err, sizeof err);
	snprintf(want, sizeof want, "%s%s", path, msg);
	CU_ASSERT_PTR_NULL(t);
	CU_ASSERT_STRING_EQUAL(err, want);
	if (t || strcmp(err, want) != 0)
		fprintf(stderr, "\n  want %s\n  got  %s\n", want, t ? "a trace" : err);
	scn_trace_free(t);
}

/* A cluster read from a node list, with its sums. */
struct nodes {
	struct scn_node_group *g;
	int ngroups;
	long long nodes, cores, gpus, mem, cpu_only;
};

static void nodes_free(struct nodes *n)
{
	for (int i = 0; i < n->ngroups; i++) {
		free(n->g[i].name);
		free(n->g[i].gpu_model);
	}
	free(n->g);
}

static void read_nodes(const char *path, const char *format, struct nodes *n)
{
	char err[1024] = "";
	memset(n, 0, sizeof *n);
	int rc = trace_read_nodes(path, format, "n", TRM_DEFAULT, &n->g, &n->ngroups, err, sizeof err);
	if (rc < 0)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (int i = 0; i < n->ngroups; i++) {
		const struct scn_node_group *g = &n->g[i];
		n->nodes += g->count;
		n->cores += (long long)g->count * g->cores;
		n->gpus += (long long)g->count * g->gpus;
		n->mem += (long long)g->count * g->mem_mib;
		n->cpu_only += g->gpus ? 0 : g->count;
	}
}

/* Nodes and GPUs of model m. */
static void model(const struct nodes *n, const char *m, long long *nodes, long long *gpus)
{
	*nodes = *gpus = 0;
	for (int i = 0; i < n->ngroups; i++)
		if (n->g[i].gpu_model && !strcmp(n->g[i].gpu_model, m)) {
			*nodes += n->g[i].count;
			*gpus += (long long)n->g[i].count * n->g[i].gpus;
		}
}

static void expect_model(const struct nodes *n, const char *m, long long nodes, long long gpus)
{
	long long a, b;
	model(n, m, &a, &b);
	CU_ASSERT_EQUAL(a, nodes);
	CU_ASSERT_EQUAL(b, gpus);
	if (a != nodes || b != gpus)
		fprintf(stderr, "\n  model %s: %lld nodes, %lld GPUs\n", m, a, b);
}

static void expect_nodes_fail(const char *path, const char *format, const char *msg)
{
	char err[1024] = "", want[1024];
	struct scn_node_group *g = NULL;
	int n = 0;
	int rc = trace_read_nodes(path, format, "n", TRM_DEFAULT, &g, &n, err, sizeof err);
	snprintf(want, sizeof want, "%s%s", path, msg);
	CU_ASSERT_EQUAL(rc, -1);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_STRING_EQUAL(err, want);
	if (rc == 0 || strcmp(err, want) != 0)
		fprintf(stderr, "\n  want %s\n  got  %s\n", want, rc ? err : "nodes");
	free(g);
}

/* Sums over a trace's jobs, by the GPU each role's executors ask. */
struct sums {
	long long jobs, cpu_only, share, whole, multi;
	long long cpu_milli, gpu_milli, mem_mib, tasks, constrained;
	long long run_s, max_run_s;
};

static void sum(const struct scn_trace *t, struct sums *s)
{
	memset(s, 0, sizeof *s);
	for (int64_t i = 0; i < t->njobs; i++) {
		const struct scn_trace_job *j = &t->jobs[i];
		const struct scn_trace_shape *sh = &t->shapes[j->shape];
		long long gm = 0, whole = 0, share = 0, multi = 0;
		for (int r = 0; r < sh->nroles; r++) {
			const struct scn_trace_role *ro = &sh->role[r];
			s->cpu_milli += (long long)ro->count * ro->cpu_milli;
			s->mem_mib += (long long)ro->count * ro->mem_mib;
			gm += (long long)ro->count *
			      (ro->gpu_milli ? ro->gpu_milli : 1000LL * ro->gpus);
			whole |= ro->gpus > 0;
			share |= ro->gpu_milli > 0;
			multi |= ro->gpus >= 2;
			s->constrained += ro->constraint > 0;
		}
		s->jobs++;
		s->gpu_milli += gm;
		s->tasks += sh->tasks;
		s->cpu_only += !gm;
		s->share += share;
		s->whole += whole;
		s->multi += multi;
		if (j->run_us >= 0) {
			s->run_s += j->run_us / 1000000;
			s->max_run_s = j->run_us / 1000000 > s->max_run_s ? j->run_us / 1000000
									  : s->max_run_s;
		}
	}
}

/* The job of trace id `id`, or NULL. */
static const struct scn_trace_job *job_id(const struct scn_trace *t, int32_t id)
{
	for (int64_t i = 0; i < t->njobs; i++)
		if (t->jobs[i].id == id)
			return &t->jobs[i];
	return NULL;
}

static const struct scn_trace_shape *shape(const struct scn_trace *t,
					   const struct scn_trace_job *j)
{
	return &t->shapes[j->shape];
}

/* A role's fields, all at once. */
static void expect_role(const struct scn_trace_role *r, int count, int cpu_milli,
			int64_t mem_mib, int gpus, int gpu_milli)
{
	CU_ASSERT_EQUAL(r->count, count);
	CU_ASSERT_EQUAL(r->slots, 1);
	CU_ASSERT_EQUAL(r->cpu_milli, cpu_milli);
	CU_ASSERT_EQUAL(r->mem_mib, mem_mib);
	CU_ASSERT_EQUAL(r->gpus, gpus);
	CU_ASSERT_EQUAL(r->gpu_milli, gpu_milli);
	if (r->count != count || r->cpu_milli != cpu_milli || r->mem_mib != mem_mib ||
	    r->gpus != gpus || r->gpu_milli != gpu_milli)
		fprintf(stderr, "\n  role: %d x (%d milli-cores, %lld MiB, %d GPUs, %d "
			"milli-GPU)\n", r->count, r->cpu_milli, (long long)r->mem_mib, r->gpus,
			r->gpu_milli);
}

static const char *user_of(const struct scn_trace *t, const struct scn_trace_job *j)
{
	return j->user < 0 ? "(none)" : t->users[j->user];
}

static const char *queue_of(const struct scn_trace *t, const struct scn_trace_job *j)
{
	return j->queue < 0 ? "(none)" : t->queues[j->queue];
}

/* A temporary directory for files written by a test. */
struct tmp {
	char dir[64];
	char path[256];
};

static void tmp_open(struct tmp *t)
{
	snprintf(t->dir, sizeof t->dir, "/tmp/hetsim-imp-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(t->dir));
}

/* Write file `name` of the directory with `text`: its path (valid until
 * the next call). */
static const char *tmp_put(struct tmp *t, const char *name, const char *text)
{
	snprintf(t->path, sizeof t->path, "%s/%s", t->dir, name);
	FILE *f = fopen(t->path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	return t->path;
}

/* The same, compressed with zstd. */
static const char *tmp_put_zst(struct tmp *t, const char *name, const char *text)
{
	snprintf(t->path, sizeof t->path, "%s/%s", t->dir, name);
	h_put_zst(t->path, text);
	return t->path;
}

static void tmp_close(struct tmp *t)
{
	CU_ASSERT_EQUAL(h_rmtree(t->dir), 0);
}

/* A bad record's case: the text read, what happens to it (an error, a
 * skip for a reason, a clamp) and the message after the path (the error,
 * or under strict the skip's or the clamp's). */
enum outcome { ERROR, SKIP, CLAMP };
struct bad {
	const char *text;
	enum outcome what;
	enum scn_trace_skip why;
	const char *msg;
};

/* Read a bad case's file `path`: without strict, an error, or one record
 * skipped for its reason (the others kept), or all kept and one clamped;
 * with strict, the message. */
static void expect_bad(const char *path, const struct trace_opts *o0, const struct bad *c)
{
	struct trace_opts o = *o0;
	o.strict = false;
	if (c->what == ERROR) {
		expect_fail(path, &o, c->msg);
		o.strict = true;
		expect_fail(path, &o, c->msg);
		return;
	}
	char err[1024] = "";
	struct scn_trace *t = trace_read(path, &o, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL(t);
	if (!t) {
		fprintf(stderr, "\n  %s: %s\n", c->msg, err);
		return;
	}
	if (c->what == SKIP) { /* the others kept */
		CU_ASSERT_EQUAL(t->njobs, t->records - 1);
		CU_ASSERT_EQUAL(t->skipped[c->why], 1);
		if (t->njobs != t->records - 1 || t->skipped[c->why] != 1)
			fprintf(stderr, "\n  %s: %lld jobs, not skipped as %s\n", c->msg,
				(long long)t->njobs, scn_trace_skip_name(c->why));
	} else {
		CU_ASSERT_EQUAL(t->njobs, t->records);
		CU_ASSERT_EQUAL(t->clamped, 1);
		if (t->njobs != t->records || t->clamped != 1)
			fprintf(stderr, "\n  %s: %lld jobs, %lld clamped\n", c->msg,
				(long long)t->njobs, (long long)t->clamped);
	}
	scn_trace_free(t);
	o.strict = true;
	expect_fail(path, &o, c->msg);
}

/* ---- openb: the real lists --------------------------------------------- */

/* The FGD default pod list.  Counts over the rows of pods that have both
 * scheduled_time and deletion_time (the others, the 897 Pending pods,
 * have no run time):
 *   awk -F, 'NR>1 && $10!="" && $11!="" {n++; if($4==0)c++;
 *     else if($4==1&&$5<1000)s++; else w++; if($4>=2)m++; cpu+=$2;
 *     mem+=$3; run+=$10-$11; if($10-$11>mx)mx=$10-$11;
 *     g+=($4==0?0:($4==1&&$5<1000?$5:1000*$4))}
 *     END{print n,c,s,w,m,cpu,mem,run,mx,g}' openb_pod_list_default.csv
 *   -> 7255 1052 2573 3630 74 76423916 267696088 210028342 12537496 5484930
 *   awk -F, 'NR>1 && $11=="" {p[$8]++} END{for(k in p)print k,p[k]}' ...
 *   -> Pending 897
 *   awk -F, 'NR>1{q[$7]++} END{for(k in q)print k,q[k]}' -> 4 qos values
 *   awk -F, 'NR>1 && $10!="" && $11!="" && $9>m {m=$9} END{print m}'
 *   -> 12901761 (the last creation; the first is 0) */
static void openb_default(void)
{
	struct trace_opts o = opts();
	struct scn_trace *t = read_ok(ALI "openb_pod_list_default.csv.zst", &o);
	struct sums s;
	sum(t, &s);
	CU_ASSERT_STRING_EQUAL(t->format, OPENB);
	CU_ASSERT_EQUAL(t->records, 8152);
	CU_ASSERT_EQUAL(t->njobs, 7255);
	CU_ASSERT_EQUAL(t->skipped[TRS_NO_RUNTIME], 897);
	int64_t skipped = 0;
	for (int w = 0; w < TRS_NSKIP; w++)
		skipped += t->skipped[w];
	CU_ASSERT_EQUAL(skipped, 897);
	CU_ASSERT_EQUAL(t->clamped, 0);
	CU_ASSERT_EQUAL(s.cpu_only, 1052);
	CU_ASSERT_EQUAL(s.share, 2573);
	CU_ASSERT_EQUAL(s.whole, 3630);
	CU_ASSERT_EQUAL(s.multi, 74);
	CU_ASSERT_EQUAL(s.cpu_milli, 76423916);
	CU_ASSERT_EQUAL(s.mem_mib, 267696088);
	CU_ASSERT_EQUAL(s.gpu_milli, 5484930);
	CU_ASSERT_EQUAL(s.tasks, 7255);
	CU_ASSERT_EQUAL(s.run_s, 210028342);
	CU_ASSERT_EQUAL(s.max_run_s, 12537496);
	CU_ASSERT_EQUAL(s.constrained, 0);
	CU_ASSERT_EQUAL(t->nusers, 0);
	CU_ASSERT_EQUAL(t->nqueues, 4);
	CU_ASSERT_EQUAL(t->t0_us, 0);
	CU_ASSERT_EQUAL(t->jobs[0].arrival_us, 0);
	CU_ASSERT_EQUAL(t->jobs[t->njobs - 1].arrival_us, 12901761LL * 1000000);
	/* row 1: openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0 */
	const struct scn_trace_job *j = job_id(t, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->arrival_us, 0);
	CU_ASSERT_EQUAL(j->run_us, 12537496LL * 1000000);
	CU_ASSERT_EQUAL(j->req_us, -1);
	CU_ASSERT_EQUAL(shape(t, j)->nroles, 1);
	CU_ASSERT_EQUAL(shape(t, j)->tasks, 1);
	expect_role(&shape(t, j)->role[0], 1, 12000, 16384, 1, 0);
	CU_ASSERT_STRING_EQUAL(queue_of(t, j), "LS");
	CU_ASSERT_STRING_EQUAL(user_of(t, j), "(none)");
	/* row 2: openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061 */
	j = job_id(t, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->arrival_us, 427061LL * 1000000);
	CU_ASSERT_EQUAL(j->run_us, (12902960LL - 427061) * 1000000);
	expect_role(&shape(t, j)->role[0], 1, 6000, 12288, 0, 460);
	/* row 62: openb-pod-0061,...,BE,Pending,10001278,10001403, (no run time) */
	CU_ASSERT_PTR_NULL(job_id(t, 62));
	scn_trace_free(t);
}

/* Offer-only: every pod, at 0, never leaving.
 *   awk -F, 'NR>1{n++; if($4==0)c++; else if($4==1&&$5<1000)s++; else w++;
 *     if($4>=2)m++; cpu+=$2; g+=($4==0?0:($4==1&&$5<1000?$5:1000*$4))}
 *     END{print n,c,s,w,m,cpu,g}' openb_pod_list_default.csv
 *   -> 8152 1088 3078 3986 75 85436012 6086800 */
static void openb_default_offer(void)
{
	struct trace_opts o = opts();
	o.offer = true;
	struct scn_trace *t = read_ok(ALI "openb_pod_list_default.csv.zst", &o);
	struct sums s;
	sum(t, &s);
	CU_ASSERT_EQUAL(t->records, 8152);
	CU_ASSERT_EQUAL(t->njobs, 8152);
	CU_ASSERT(t->offer); /* the builder's order: one every 2 µs, shuffled */
	CU_ASSERT_EQUAL(s.cpu_only, 1088);
	CU_ASSERT_EQUAL(s.share, 3078);
	CU_ASSERT_EQUAL(s.whole, 3986);
	CU_ASSERT_EQUAL(s.multi, 75);
	CU_ASSERT_EQUAL(s.cpu_milli, 85436012);
	CU_ASSERT_EQUAL(s.gpu_milli, 6086800);
	long long ids = 0; /* every row once: ids 1..8152 */
	for (int64_t i = 0; i < t->njobs; i++)
		ids += t->jobs[i].id;
	CU_ASSERT_EQUAL(ids, 8152LL * 8153 / 2);
	scn_trace_free(t);
}

/* completed_only: the Succeeded pods.
 *   awk -F, 'NR>1 && $8=="Succeeded"{n++; run+=$10-$11; if($4>0)g++}
 *     END{print n,run,g}' openb_pod_list_default.csv -> 192 2713149 185
 *   awk -F, 'NR>1 && $8!="Succeeded"' ... | wc -l -> 7960 */
static void openb_default_completed(void)
{
	struct trace_opts o = opts();
	o.completed_only = true;
	o.strict = true; /* a status is no error under strict */
	struct scn_trace *t = read_ok(ALI "openb_pod_list_default.csv.zst", &o);
	struct sums s;
	sum(t, &s);
	CU_ASSERT_EQUAL(t->njobs, 192);
	CU_ASSERT_EQUAL(t->skipped[TRS_STATUS], 7960);
	CU_ASSERT_EQUAL(s.run_s, 2713149);
	CU_ASSERT_EQUAL(s.jobs - s.cpu_only, 185);
	scn_trace_free(t);
}

/* gpuspec33: GPU model constraints.
 *   awk -F, 'NR>1 && $6!="" && $10!="" && $11!="" {n++; s[$6]++}
 *     END{print n, length(s)}' openb_pod_list_gpuspec33.csv -> 2092 16
 *   awk -F, 'NR>1 && $6!=""{n++; s[$6]++} END{print n, length(s)}' -> 2388 16
 *   awk -F, 'NR>1 && $6!="" && $4==0' ... | wc -l -> 0 (all GPU pods) */
static void openb_gpuspec33(void)
{
	struct trace_opts o = opts();
	struct scn_trace *t = read_ok(ALI "openb_pod_list_gpuspec33.csv.zst", &o);
	struct sums s;
	sum(t, &s);
	CU_ASSERT_EQUAL(t->records, 8152);
	CU_ASSERT_EQUAL(t->njobs, 7255);
	CU_ASSERT_EQUAL(s.constrained, 2092);
	CU_ASSERT_EQUAL(t->nconstraints, 16);
	/* the first constrained pod kept, by its row's ordinal:
	 *   awk -F, 'NR>1 && $6!="" && $10!="" && $11!=""{print NR-1, $6; exit}'
	 *   openb_pod_list_gpuspec33.csv */
	int32_t first = 0;
	const char *spec = NULL;
	for (int64_t i = 0; i < t->njobs; i++) {
		const struct scn_trace_role *r = &t->shapes[t->jobs[i].shape].role[0];
		if (r->constraint && (!first || t->jobs[i].id < first)) {
			first = t->jobs[i].id;
			spec = t->constraints[r->constraint - 1];
		}
	}
	CU_ASSERT_EQUAL(first, 10); /* -> 10 V100M16|V100M32 */
	CU_ASSERT_STRING_EQUAL(spec, "V100M16|V100M32");
	o.offer = true;
	struct scn_trace *u = read_ok(ALI "openb_pod_list_gpuspec33.csv.zst", &o);
	sum(u, &s);
	CU_ASSERT_EQUAL(s.constrained, 2388);
	CU_ASSERT_EQUAL(u->nconstraints, 16);
	scn_trace_free(u);
	scn_trace_free(t);
}

/* A multigpu list (name,cpu_milli,memory_mib,num_gpu,gpu_milli only):
 * offer-only.
 *   awk -F, 'NR>1{n++; if($4==0)c++; else if($4==1&&$5<1000)s++; else w++;
 *     if($4>=2)m++; g+=($4==0?0:($4==1&&$5<1000?$5:1000*$4))}
 *     END{print n,c,s,w,m,g}' openb_pod_list_multigpu20.csv
 *   -> 8324 1088 3078 4158 247 7086800 */
static void openb_multigpu(void)
{
	struct trace_opts o = opts();
	expect_fail(ALI "openb_pod_list_multigpu20.csv.zst", &o,
		    ":1:1: no column 'creation_time' in the header: a list without times reads "
		    "only offer-only (offer: true)");
	o.offer = true;
	struct scn_trace *t = read_ok(ALI "openb_pod_list_multigpu20.csv.zst", &o);
	struct sums s;
	sum(t, &s);
	CU_ASSERT_EQUAL(t->njobs, 8324);
	CU_ASSERT(t->offer);
	CU_ASSERT_EQUAL(s.cpu_only, 1088);
	CU_ASSERT_EQUAL(s.share, 3078);
	CU_ASSERT_EQUAL(s.whole, 4158);
	CU_ASSERT_EQUAL(s.multi, 247);
	CU_ASSERT_EQUAL(s.gpu_milli, 7086800);
	CU_ASSERT_EQUAL(t->nqueues, 0);
	o.completed_only = true;
	expect_fail(ALI "openb_pod_list_multigpu20.csv.zst", &o,
		    ":1:1: no column 'pod_phase' in the header: completed_only needs it");
	scn_trace_free(t);
}

/* The node lists.
 *   awk -F, 'NR>1{n++; g+=$4; c+=int($2/1000); mem+=$3; if($4==0)z++;
 *     else {m[$5]++; mg[$5]+=$4}; sh[int($2/1000)" "$3" "$4" "$5]++}
 *     END{print n,g,c,mem,z,length(sh); for(k in m)print k,m[k],mg[k]}'
 *   openb_node_list_all_node.csv -> 1523 6212 125514 612028416 310 27;
 *     G2 549 4392, T4 404 842, P100 134 265, V100M16 55 195,
 *     G3 39 312, V100M32 30 204, A10 2 2
 *   openb_node_list_gpu_node.csv -> 1213 6212 107018 503828480 0 15,
 *     the same models */
static void openb_nodes(void)
{
	struct nodes n;
	read_nodes(ALI "openb_node_list_all_node.csv.zst", OPENB, &n);
	CU_ASSERT_EQUAL(n.nodes, 1523);
	CU_ASSERT_EQUAL(n.gpus, 6212);
	CU_ASSERT_EQUAL(n.cores, 125514);
	CU_ASSERT_EQUAL(n.mem, 612028416);
	CU_ASSERT_EQUAL(n.cpu_only, 310);
	CU_ASSERT_EQUAL(n.ngroups, 27);
	expect_model(&n, "G2", 549, 4392);
	expect_model(&n, "T4", 404, 842);
	expect_model(&n, "P100", 134, 265);
	expect_model(&n, "V100M16", 55, 195);
	expect_model(&n, "G3", 39, 312);
	expect_model(&n, "V100M32", 30, 204);
	expect_model(&n, "A10", 2, 2);
	/* row 1: openb-node-0000,32000,262144,0, */
	CU_ASSERT_STRING_EQUAL(n.g[0].name, "n1");
	CU_ASSERT_EQUAL(n.g[0].cores, 32);
	CU_ASSERT_EQUAL(n.g[0].mem_mib, 262144);
	CU_ASSERT_EQUAL(n.g[0].gpus, 0);
	CU_ASSERT_PTR_NULL(n.g[0].gpu_model);
	nodes_free(&n);
	read_nodes(ALI "openb_node_list_gpu_node.csv.zst", NULL, &n); /* detected */
	CU_ASSERT_EQUAL(n.nodes, 1213);
	CU_ASSERT_EQUAL(n.gpus, 6212);
	CU_ASSERT_EQUAL(n.cores, 107018);
	CU_ASSERT_EQUAL(n.mem, 503828480);
	CU_ASSERT_EQUAL(n.cpu_only, 0);
	CU_ASSERT_EQUAL(n.ngroups, 15);
	expect_model(&n, "G2", 549, 4392);
	expect_model(&n, "A10", 2, 2);
	nodes_free(&n);
}

/* A node list is no pod list, and the other way round. */
static void openb_kinds(void)
{
	struct trace_opts o = opts();
	o.format = OPENB;
	expect_fail(ALI "openb_node_list_gpu_node.csv.zst", &o,
		    ":1:1: a node list (header 'sn,...'), not a pod list: use it as a cluster "
		    "(cluster: - {name: N, trace: {format: alibaba-openb-2023, path: ...}})");
	expect_nodes_fail(ALI "openb_pod_list_default.csv.zst", OPENB,
			  ":1:1: a pod list (header 'name,...'), not a node list: use it as a "
			  "workload (workload: - {name: N, trace: {format: alibaba-openb-2023, "
			  "path: ...}})");
	char err[256];
	CU_ASSERT_STRING_EQUAL(trace_detect(ALI "openb_node_list_all_node.csv.zst", err,
					    sizeof err), OPENB);
	CU_ASSERT_STRING_EQUAL(trace_detect(ALI "openb_pod_list_multigpu20.csv.zst", err,
					    sizeof err), OPENB);
}

/* ---- openb: bad records ----------------------------------------------- */

#define POD_HEADER "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase," \
		   "creation_time,deletion_time,scheduled_time\n"

/* Rows after POD_HEADER; columns of the model row
 * "p,1000,1024,1,500,,LS,Running,10,100,20": cpu_milli 3, memory_mib 8,
 * num_gpu 13, gpu_milli 15, gpu_spec 19, qos 20, pod_phase 23,
 * creation_time 31, deletion_time 34, scheduled_time 38. */
static const struct bad pod_cases[] = {
	{"p,1000,1024,1,500,,LS,Running,10,100", ERROR, 0,
	 ":2:34: 10 fields, the header has 11"},
	{"p,1000,1024,1,500,,LS,Running,10,100,20,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
	 ",,,,,,,,,,,,,,", ERROR, 0, ":2:1: more than 64 fields, the header has 11"},
	{"p,x12,1024,1,500,,LS,Running,10,100,20", ERROR, 0,
	 ":2:3: cpu_milli 'x12' is not a whole number"},
	{"p,,1024,1,500,,LS,Running,10,100,20", ERROR, 0, ":2:3: cpu_milli is empty"},
	{"p,1\r2,1024,1,500,,LS,Running,10,100,20", ERROR, 0, /* control characters shown */
	 ":2:3: cpu_milli '1\\x0d2' is not a whole number"},
	{"p,1000,1024,1,500,,LS,Running,10,100,12345678901234567890123456789012345678901234", ERROR,
	 0, ":2:38: scheduled_time '1234567890123456789012345678901234567890...' is not a "
	 "number of seconds"},
	{"p,1000,1024,1.5,500,,LS,Running,10,100,20", ERROR, 0,
	 ":2:13: num_gpu '1.5' is not a whole number"},
	{"p,1000,1024,1,500,,LS,Running,1x,100,20", ERROR, 0,
	 ":2:31: creation_time '1x' is not a number of seconds"},
	{"p,1000,1024,1,500,,LS,Running,,100,20", ERROR, 0, ":2:31: creation_time is empty"},
	{"p,1000,1024,1,500,,LS,Running,10,100,2e1", ERROR, 0,
	 ":2:38: scheduled_time '2e1' is not a number of seconds"},
	{"p,1000,1024,1,500,,BE,Pending,10,100,", SKIP, TRS_NO_RUNTIME,
	 ":2:38: no scheduled_time: no run time (strict: not skipped)"},
	{"p,1000,1024,1,500,,LS,Running,10,,20", SKIP, TRS_NO_RUNTIME,
	 ":2:34: no deletion_time: no run time (strict: not skipped)"},
	{"p,1000,1024,1,500,,LS,Running,-5,100,20", SKIP, TRS_NEG_TIME,
	 ":2:31: creation_time -5 is negative (strict: not skipped)"},
	{"p,1000,1024,1,500,,LS,Running,30,100,20", SKIP, TRS_NEG_TIME,
	 ":2:38: scheduled_time 20 before creation_time 30 (strict: not skipped)"},
	{"p,1000,1024,1,500,,LS,Running,10,15,20", SKIP, TRS_NEG_TIME,
	 ":2:34: deletion_time 15 before scheduled_time 20 (strict: not skipped)"},
	{"p,-5,1024,1,500,,LS,Running,10,100,20", SKIP, TRS_NO_DEMAND,
	 ":2:3: cpu_milli -5 is negative (strict: not skipped)"},
	{"p,0,0,0,0,,LS,Running,10,100,20", SKIP, TRS_NO_DEMAND,
	 ":2:3: the pod asks for nothing (cpu_milli, memory_mib and num_gpu 0) (strict: not "
	 "skipped)"},
	{"p,10000001,1024,1,500,,LS,Running,10,100,20", SKIP, TRS_TOO_BIG,
	 ":2:3: cpu_milli 10000001: above the limit (10000000) (strict: not skipped)"},
	{"p,1000,1024,65,1000,,LS,Running,10,100,20", SKIP, TRS_TOO_BIG,
	 ":2:13: num_gpu 65: above the limit (64) (strict: not skipped)"},
	{"p,1000,1073741825,1,500,,LS,Running,10,100,20", SKIP, TRS_TOO_BIG,
	 ":2:8: memory_mib 1073741825: above the limit (1073741824) (strict: not skipped)"},
	{"p,1000,1024,0,500,,LS,Running,10,100,20", CLAMP, 0,
	 ":2:15: gpu_milli 500 with num_gpu 0: no GPU (strict: not clamped)"},
	{"p,1000,1024,1,0,,LS,Running,10,100,20", CLAMP, 0,
	 ":2:15: gpu_milli 0 with num_gpu 1: one whole GPU (strict: not clamped)"},
	{"p,1000,1024,1,1500,,LS,Running,10,100,20", CLAMP, 0,
	 ":2:15: gpu_milli 1500 with num_gpu 1: one whole GPU (strict: not clamped)"},
	{"p,1000,1024,2,500,,LS,Running,10,100,20", CLAMP, 0,
	 ":2:15: gpu_milli 500 with num_gpu 2: 2 whole GPUs (strict: not clamped)"},
};

static void openb_bad_rows(void)
{
	struct tmp d;
	tmp_open(&d);
	struct trace_opts o = opts();
	o.format = OPENB;
	for (size_t i = 0; i < sizeof pod_cases / sizeof pod_cases[0]; i++) {
		char text[1024];
		snprintf(text, sizeof text, "%s%s\n", POD_HEADER, pod_cases[i].text);
		expect_bad(tmp_put(&d, "pods.csv", text), &o, &pod_cases[i]);
	}
	tmp_close(&d);
}

/* What the clamps and a good row make of a pod. */
static void openb_rows(void)
{
	struct tmp d;
	tmp_open(&d);
	struct trace_opts o = opts();
	const char *p = tmp_put(&d, "pods.csv", POD_HEADER
				"p,1000,1024,1,500,T4|P100,LS,Running,10,100,20\n"
				"\n" /* blank lines are no records */
				"q,2500,2048,0,500,,,Failed,15.5,50.25,20.125\n"
				"r,1000,1024,1,0,,BE,Succeeded,40,50,45\n"
				"s,1000,1024,8,500,T4|P100,BE,Succeeded,40,50,45\n");
	struct scn_trace *t = read_ok(p, &o);
	CU_ASSERT_EQUAL(t->records, 4);
	CU_ASSERT_EQUAL(t->njobs, 4);
	CU_ASSERT_EQUAL(t->clamped, 3);
	CU_ASSERT_EQUAL(t->t0_us, 10000000);
	const struct scn_trace_job *j = job_id(t, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->arrival_us, 0);
	CU_ASSERT_EQUAL(j->run_us, 80000000);
	expect_role(&shape(t, j)->role[0], 1, 1000, 1024, 0, 500);
	CU_ASSERT_EQUAL(shape(t, j)->role[0].constraint, 1);
	CU_ASSERT_EQUAL(t->nconstraints, 1);
	CU_ASSERT_STRING_EQUAL(t->constraints[0], "T4|P100");
	CU_ASSERT_STRING_EQUAL(queue_of(t, j), "LS");
	j = job_id(t, 2); /* fractions of seconds; no qos: no queue */
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->arrival_us, 5500000);
	CU_ASSERT_EQUAL(j->run_us, 30125000);
	expect_role(&shape(t, j)->role[0], 1, 2500, 2048, 0, 0);
	CU_ASSERT_STRING_EQUAL(queue_of(t, j), "(none)");
	j = job_id(t, 3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	expect_role(&shape(t, j)->role[0], 1, 1000, 1024, 1, 0);
	j = job_id(t, 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	expect_role(&shape(t, j)->role[0], 1, 1000, 1024, 8, 0);
	CU_ASSERT_EQUAL(shape(t, j)->role[0].constraint, 1);
	scn_trace_free(t);
	/* completed_only: Succeeded only; offer-only: every pod */
	o.completed_only = true;
	t = read_ok(p, &o);
	CU_ASSERT_EQUAL(t->njobs, 2);
	CU_ASSERT_EQUAL(t->skipped[TRS_STATUS], 2);
	scn_trace_free(t);
	o.completed_only = false;
	o.offer = true;
	t = read_ok(p, &o);
	CU_ASSERT_EQUAL(t->njobs, 4);
	CU_ASSERT(t->offer);
	scn_trace_free(t);
	/* offer-only takes a Pending pod, and does not read the times */
	p = tmp_put(&d, "pending.csv", POD_HEADER "p,1000,1024,1,500,,BE,Pending,10,100,\n"
		    "q,1000,1024,1,500,,BE,Pending,x,,-5\n");
	t = read_ok(p, &o);
	CU_ASSERT_EQUAL(t->njobs, 2);
	scn_trace_free(t);
	p = tmp_put(&d, "untimed.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
		    "\xef\xbb\xbfp,1000,1024,1,500\n"); /* not a header: a plain name */
	t = read_ok(p, &o);
	CU_ASSERT_EQUAL(t->njobs, 1);
	scn_trace_free(t);
	tmp_close(&d);
}

/* The header's rules. */
static void openb_bad_headers(void)
{
	struct tmp d;
	tmp_open(&d);
	struct trace_opts o = opts();
	o.format = OPENB;
	expect_fail(tmp_put(&d, "a.csv", "x,cpu_milli\n"), &o,
		    ":1:1: the header's first column 'x' is neither 'name' (a pod list) nor 'sn' "
		    "(a node list)");
	expect_fail(tmp_put(&d, "a.csv", "name,cpu_milli,cpu_milli\n"), &o,
		    ":1:16: column 'cpu_milli' appears twice");
	expect_fail(tmp_put(&d, "a.csv", "name,cpu_milli,memory_mib,num_gpu\n"), &o,
		    ":1:1: no column 'gpu_milli' in the header");
	expect_fail(tmp_put(&d, "a.csv", ""), &o,
		    ":1:1: an empty file: an openb list starts with its header row");
	char wide[1024] = "name";
	for (int i = 0; i < 64; i++)
		strcat(wide, ",c");
	strcat(wide, "\n");
	expect_fail(tmp_put(&d, "a.csv", wide), &o, ":1:1: more than 64 columns in the header");
	/* a UTF-8 byte order mark before the header is fine; the columns may
	 * come in any order, and others are ignored */
	struct scn_trace *t = read_ok(tmp_put(&d, "a.csv", "\xef\xbb\xbfname,extra,gpu_milli,"
					      "num_gpu,memory_mib,cpu_milli,scheduled_time,"
					      "deletion_time,creation_time\n"
					      "p,x,250,1,512,1500,5,9,1\n"), &o);
	CU_ASSERT_EQUAL(t->njobs, 1);
	expect_role(&t->shapes[0].role[0], 1, 1500, 512, 0, 250);
	CU_ASSERT_EQUAL(t->jobs[0].run_us, 4000000);
	scn_trace_free(t);
	tmp_close(&d);
}

/* The node list's rules. */
static void openb_bad_nodes(void)
{
	struct tmp d;
	tmp_open(&d);
	static const struct {
		const char *row, *msg;
	} cases[] = {
		/* columns of "n,32000,262144,8,G2": cpu_milli 3, memory_mib 9,
		 * gpu 16, model 18 */
		{"n,32000,262144,8,", ":2:18: a node of 8 GPUs without a model"},
		{"n,3.2,262144,0,", ":2:3: cpu_milli '3.2' is not a whole number"},
		{"n,32000,-1,0,", ":2:9: memory_mib '-1' is negative"},
		{"n,32000,,0,", ":2:9: memory_mib is empty"},
		{"n,99999999999,262144,0,", ":2:3: cpu_milli '99999999999' is out of range"},
		{"n,32000,262144,8", ":2:16: 4 fields, the header has 5"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[256];
		snprintf(text, sizeof text, "sn,cpu_milli,memory_mib,gpu,model\n%s\n",
			 cases[i].row);
		expect_nodes_fail(tmp_put(&d, "nodes.csv", text), OPENB, cases[i].msg);
	}
	expect_nodes_fail(tmp_put(&d, "nodes.csv", "sn,cpu_milli,memory_mib,gpu\n"), OPENB,
			  ":1:1: no column 'model' in the header");
	expect_nodes_fail(tmp_put(&d, "nodes.csv", "sn,cpu_milli,memory_mib,gpu,gpu\n"), OPENB,
			  ":1:29: column 'gpu' appears twice");
	/* a CPU node's model is dropped */
	struct nodes n;
	read_nodes(tmp_put(&d, "nodes.csv", "sn,cpu_milli,memory_mib,gpu,model\n"
			   "a,32000,1024,0,G2\nb,32000,1024,0,\nc,8500,1024,2,T4\n"), OPENB, &n);
	CU_ASSERT_EQUAL(n.ngroups, 2);
	CU_ASSERT_EQUAL(n.g[0].count, 2);
	CU_ASSERT_PTR_NULL(n.g[0].gpu_model);
	CU_ASSERT_EQUAL(n.g[1].cores, 8); /* 8.5 cores: whole ones */
	CU_ASSERT_STRING_EQUAL(n.g[1].gpu_model, "T4");
	nodes_free(&n);
	tmp_close(&d);
}

/* ---- scenario level ------------------------------------------------------ */

/* The default pods on the GPU nodes: every pod that has a run time fits a
 * node (whole cores, memory, whole GPUs as the kernel asks them):
 *   awk -F, 'FNR==1{f++; next} f==1{nc[++nn]=int($2/1000); nm[nn]=$3;
 *     ng[nn]=$4; next} $10!="" && $11!="" {k++; c=int(($2+999)/1000);
 *     g=($4==0?0:($4==1&&$5<1000?1:$4)); ok=0; for(i=1;i<=nn&&!ok;i++)
 *     if(nc[i]>=c && nm[i]>=$3 && ng[i]>=g) ok=1; fit+=ok}
 *     END{print k, fit}' openb_node_list_gpu_node.csv
 *     openb_pod_list_default.csv -> 7255 7255
 * gpuspec33 on all nodes: the same, a constrained pod fitting only nodes
 * of its models, leaves one pod out (openb-pod-1639: 120 cores on G2,
 * whose nodes have 96) -> 7255 7254. */
static void openb_scenario(void)
{
	struct scn *s = h_load(ALI "openb-default.yaml");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->ngroups, 15);
	long long nodes = 0, gpus = 0;
	for (int g = 0; g < s->ngroups; g++) {
		nodes += s->groups[g].count;
		gpus += (long long)s->groups[g].count * s->groups[g].gpus;
	}
	CU_ASSERT_EQUAL(nodes, 1213);
	CU_ASSERT_EQUAL(gpus, 6212);
	CU_ASSERT_STRING_EQUAL(s->groups[0].name, "openb1");
	CU_ASSERT_STRING_EQUAL(s->groups[0].gpu_model, "P100");
	CU_ASSERT_EQUAL(s->njobgroups, 1);
	CU_ASSERT_EQUAL(s->jobs[0].count, 7255);
	CU_ASSERT_EQUAL(s->ntraces, 1);
	scn_free(s);
	s = h_load(ALI "openb-gpuspec33.yaml");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->ngroups, 27);
	CU_ASSERT_EQUAL(s->jobs[0].count, 7254);
	CU_ASSERT_EQUAL(s->traces[0]->skipped[TRS_GPU_MODEL], 1);
	CU_ASSERT_EQUAL(s->traces[0]->skipped[TRS_NO_RUNTIME], 897);
	scn_free(s);
	/* offer: true reads the multigpu list, which has no times; every pod
	 * fits a GPU node (the awk above on openb_pod_list_multigpu20.csv,
	 * without the time test -> 8324 8324) */
	s = h_load(ALI "openb-multigpu20.yaml");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->jobs[0].count, 8324);
	CU_ASSERT(s->traces[0]->offer);
	scn_free(s);
}

/* ---- PAI ----------------------------------------------------------------- */

/* The real machine table, as the node file of a directory and as a file.
 *   awk -F, '{n[$2]++; g[$2]+=$5; c+=$3; t+=$5; m+=$4*1024;
 *     s[$2" "$3" "$4" "$5]++} END{for(k in n)print k,n[k],g[k];
 *     print NR,c,t,m,length(s)}' pai_machine_spec.csv
 *   -> P100 798 1596, T4 497 994, MISC 280 2240, V100M32 135 1080,
 *      V100 104 832, CPU 83 0; 1897 156576 6742 970981376 7 */
static void pai_machines(void)
{
	struct nodes n;
	read_nodes(ALI "pai", NULL, &n); /* detected: the directory holds the table */
	CU_ASSERT_EQUAL(n.nodes, 1897);
	CU_ASSERT_EQUAL(n.cores, 156576);
	CU_ASSERT_EQUAL(n.gpus, 6742);
	CU_ASSERT_EQUAL(n.mem, 970981376);
	CU_ASSERT_EQUAL(n.cpu_only, 83);
	CU_ASSERT_EQUAL(n.ngroups, 7);
	expect_model(&n, "P100", 798, 1596);
	expect_model(&n, "T4", 497, 994);
	expect_model(&n, "MISC", 280, 2240);
	expect_model(&n, "V100M32", 135, 1080);
	expect_model(&n, "V100", 104, 832);
	expect_model(&n, "CPU", 0, 0);
	nodes_free(&n);
	read_nodes(ALI "pai/pai_machine_spec.csv", PAI, &n);
	CU_ASSERT_EQUAL(n.nodes, 1897);
	CU_ASSERT_EQUAL(n.gpus, 6742);
	nodes_free(&n);
	char err[256];
	CU_ASSERT_STRING_EQUAL(trace_detect(ALI "pai", err, sizeof err), PAI);
	CU_ASSERT_PTR_NULL(trace_detect(PHILLY, err, sizeof err));
	/* the directory has no job tables */
	struct trace_opts o = opts();
	expect_fail(ALI "pai", &o, ":0:1: no pai_task_table.csv (nor pai_task_table.csv.zst) in "
		    "the directory: a PAI trace's jobs are its job and task tables");
}

/* The sample directory (written here: see the top of this file), job by
 * job.  Task rows of a job are not together in the table. */
static void pai_sample(void)
{
	struct trace_opts o = opts();
	struct scn_trace *t = read_ok(ALI "pai-sample", &o);
	CU_ASSERT_STRING_EQUAL(t->format, PAI);
	CU_ASSERT_EQUAL(t->records, 10);     /* 9 job rows, and j9 of the tasks only */
	CU_ASSERT_EQUAL(t->njobs, 6);
	CU_ASSERT_EQUAL(t->skipped[TRS_NO_RUNTIME], 2); /* j6 no end_time, j9 no job row */
	CU_ASSERT_EQUAL(t->skipped[TRS_NEG_TIME], 1);   /* j7 ends before it starts */
	CU_ASSERT_EQUAL(t->skipped[TRS_NO_DEMAND], 1);  /* j5 has no task */
	CU_ASSERT_EQUAL(t->clamped, 2);                 /* j3 three demands, j8 150 % */
	CU_ASSERT_EQUAL(t->t0_us, 100000000);
	CU_ASSERT_EQUAL(t->nusers, 3);
	CU_ASSERT_EQUAL(t->nqueues, 0);
	/* j1: tensorflow 1 x (600 %, 29.296875 GB, 50 %), 110 .. 1310 */
	const struct scn_trace_job *j = job_id(t, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->arrival_us, 0);
	CU_ASSERT_EQUAL(j->run_us, 1200000000);
	CU_ASSERT_EQUAL(shape(t, j)->nroles, 1);
	CU_ASSERT_EQUAL(shape(t, j)->tasks, 1);
	expect_role(&shape(t, j)->role[0], 1, 6000, 30000, 0, 500);
	CU_ASSERT_STRING_EQUAL(user_of(t, j), "u1");
	/* j2: ps 2 x (400 %, 8 GB), worker 4 x (800 %, 16 GB, 100 %); the
	 * longest task: the worker's 2000 s */
	j = job_id(t, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->arrival_us, 100000000);
	CU_ASSERT_EQUAL(j->run_us, 2000000000);
	CU_ASSERT_EQUAL(shape(t, j)->nroles, 2);
	CU_ASSERT_EQUAL(shape(t, j)->tasks, 6);
	expect_role(&shape(t, j)->role[0], 2, 4000, 8192, 0, 0);
	expect_role(&shape(t, j)->role[1], 4, 8000, 16384, 1, 0);
	CU_ASSERT_STRING_EQUAL(user_of(t, j), "u2");
	/* j3: ps 1 x (200 %, 4 GB); worker 2 x (600 %, 20 GB, 200 %) and
	 * evaluator 1 x (400 %, 30 GB, 50 %) merged: 3 x (600 %, 30 GB, 2 GPUs) */
	j = job_id(t, 3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->run_us, 600000000);
	CU_ASSERT_EQUAL(shape(t, j)->nroles, 2);
	CU_ASSERT_EQUAL(shape(t, j)->tasks, 4);
	expect_role(&shape(t, j)->role[0], 1, 2000, 4096, 0, 0);
	expect_role(&shape(t, j)->role[1], 3, 6000, 30720, 2, 0);
	/* j4: worker 2 and chief 3 of one demand: one role of 5 */
	j = job_id(t, 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(shape(t, j)->nroles, 1);
	expect_role(&shape(t, j)->role[0], 5, 1000, 2048, 0, 250);
	CU_ASSERT_EQUAL(j->run_us, 1000000000);
	/* j8 (row 8): plan_gpu 150: 2 whole GPUs */
	j = job_id(t, 8);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	expect_role(&shape(t, j)->role[0], 1, 10000, 10240, 2, 0);
	CU_ASSERT_STRING_EQUAL(user_of(t, j), "u3");
	/* j10 (row 9): no user; plan_gpu empty: no GPU */
	j = job_id(t, 9);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->arrival_us, 900000000);
	CU_ASSERT_EQUAL(j->run_us, 60000000);
	expect_role(&shape(t, j)->role[0], 1, 500, 512, 0, 0);
	CU_ASSERT_STRING_EQUAL(user_of(t, j), "(none)");
	scn_trace_free(t);

	o.completed_only = true; /* j3 Failed, j4 Running */
	t = read_ok(ALI "pai-sample", &o);
	CU_ASSERT_EQUAL(t->njobs, 4);
	CU_ASSERT_EQUAL(t->skipped[TRS_STATUS], 2);
	scn_trace_free(t);
	o.completed_only = false;
	o.offer = true; /* times dropped: j6 and j7 too */
	t = read_ok(ALI "pai-sample", &o);
	CU_ASSERT_EQUAL(t->njobs, 8);
	CU_ASSERT_EQUAL(t->skipped[TRS_NO_DEMAND], 1);
	CU_ASSERT_EQUAL(t->skipped[TRS_NO_RUNTIME], 1);
	struct sums s;
	sum(t, &s);
	CU_ASSERT(t->offer);
	scn_trace_free(t);
	o.offer = false;
	o.strict = true; /* the first problem: j6's task (row 8) without end_time */
	expect_fail(ALI "pai-sample", &o, ":8:32: pai_task_table.csv: no end_time: no run time "
		    "(strict: not skipped)");
	struct nodes n;
	read_nodes(ALI "pai-sample", NULL, &n);
	CU_ASSERT_EQUAL(n.nodes, 5);
	CU_ASSERT_EQUAL(n.gpus, 14);
	CU_ASSERT_EQUAL(n.cpu_only, 1);
	nodes_free(&n);
}

#define TASK "a,w,1,Terminated,110,150,100,1,50,T4"
#define JOB "a,i,u,Terminated,100,200"

/* A PAI case: its job and task tables' text; the message after the
 * directory's path. */
struct pai_case {
	const char *jobs, *tasks;
	struct bad bad;
};

/* Columns: of the task row TASK: job_name 1, task_name 3, inst_num 5,
 * status 7, start_time 18, end_time 22, plan_cpu 26, plan_mem 30,
 * plan_gpu 32, gpu_type 35; of the job row JOB: start_time 18, end_time
 * 22. */
static const struct pai_case pai_cases[] = {
	{JOB, "a,w,1,Terminated,110,150,100,1,50", {NULL, ERROR, 0,
	 ":1:32: pai_task_table.csv: 9 fields, the table has 10 (job_name,task_name,inst_num,"
	 "status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type)"}},
	{JOB, "a,w,1,Terminated,110,150,abc,1,50,T4", {NULL, ERROR, 0,
	 ":1:26: pai_task_table.csv: plan_cpu 'abc' is not a number"}},
	{JOB, "a,w,1,Terminated,110,1e,100,1,50,T4", {NULL, ERROR, 0,
	 ":1:22: pai_task_table.csv: end_time '1e' is not a number"}},
	{JOB, "a,w,,Terminated,110,150,100,1,50,T4", {NULL, ERROR, 0,
	 ":1:5: pai_task_table.csv: inst_num is empty"}},
	{JOB, ",w,1,Terminated,110,150,100,1,50,T4", {NULL, ERROR, 0,
	 ":1:1: pai_task_table.csv: job_name is empty"}},
	{JOB "\n" JOB, TASK, {NULL, SKIP, TRS_NO_DEMAND,
	 ":2:1: pai_job_table.csv: job_name 'a' again: its tasks are its first row's (strict: "
	 "not skipped)"}},
	{"a,i,u,Terminated,100", TASK, {NULL, ERROR, 0,
	 ":1:18: pai_job_table.csv: 5 fields, the table has 6 (job_name,inst_id,user,status,"
	 "start_time,end_time)"}},
	{"a,i,u,Terminated,,200", TASK, {NULL, ERROR, 0,
	 ":1:18: pai_job_table.csv: start_time is empty"}},
	{"a,i,u,Terminated,x,200", TASK, {NULL, ERROR, 0,
	 ":1:18: pai_job_table.csv: start_time 'x' is not a number"}},
	{"a,i,u,Terminated,100,y", TASK, {NULL, ERROR, 0,
	 ":1:22: pai_job_table.csv: end_time 'y' is not a number"}},
	{"a,i,u,Terminated,1e11,200", TASK, {NULL, ERROR, 0,
	 ":1:18: pai_job_table.csv: start_time '1e11' is out of range (10^11 s)"}},
	{JOB, "a,w,1,Terminated,110,-1e12,100,1,50,T4", {NULL, ERROR, 0,
	 ":1:22: pai_task_table.csv: end_time '-1e12' is out of range (10^11 s)"}},
	{",i,u,Terminated,100,200", TASK, {NULL, ERROR, 0,
	 ":1:1: pai_job_table.csv: job_name is empty"}},
	{JOB, "a,w,1,Terminated,,150,100,1,50,T4", {NULL, SKIP, TRS_NO_RUNTIME,
	 ":1:18: pai_task_table.csv: no start_time: no run time (strict: not skipped)"}},
	{JOB, "a,w,1,Terminated,110,105,100,1,50,T4", {NULL, SKIP, TRS_NEG_TIME,
	 ":1:22: pai_task_table.csv: end_time 105 before start_time 110 (strict: not skipped)"}},
	{JOB, "a,w,1,Terminated,-1,150,100,1,50,T4", {NULL, SKIP, TRS_NEG_TIME,
	 ":1:18: pai_task_table.csv: start_time -1 is negative (strict: not skipped)"}},
	{JOB, "a,w,0,Terminated,110,150,100,1,50,T4", {NULL, SKIP, TRS_NO_DEMAND,
	 ":1:5: pai_task_table.csv: inst_num 0: no instances (strict: not skipped)"}},
	{JOB, "a,w,10001,Terminated,110,150,100,1,50,T4", {NULL, SKIP, TRS_TOO_BIG,
	 ":1:5: pai_task_table.csv: inst_num 10001: too many instances (strict: not skipped)"}},
	{JOB, "a,w,1,Terminated,110,150,100,-1,50,T4", {NULL, SKIP, TRS_NO_DEMAND,
	 ":1:30: pai_task_table.csv: plan_mem -1 is negative (strict: not skipped)"}},
	{JOB, "a,w,1,Terminated,110,150,100,1,100001,T4", {NULL, SKIP, TRS_TOO_BIG,
	 ":1:32: pai_task_table.csv: plan_gpu 100001: above the limit (strict: not skipped)"}},
	{JOB, "a,w,6000,Terminated,110,150,100,1,50,T4\na,v,6000,Terminated,110,150,200,1,50,T4",
	 {NULL, SKIP, TRS_TOO_BIG, ":2:3: pai_task_table.csv: job 'a': more than 10000 "
	  "instances (strict: not skipped)"}},
	{JOB, "a,w,1,Terminated,110,150,0,0,0,T4\na,v,2,Terminated,110,150,,,,T4", {NULL, SKIP,
	 TRS_NO_DEMAND, ":1:1: pai_job_table.csv: job 'a': its tasks ask for nothing (plan_cpu, "
	 "plan_mem and plan_gpu 0) (strict: not skipped)"}},
	{JOB "\nb,i,u,Terminated,100,200", TASK, {NULL, SKIP, TRS_NO_DEMAND,
	 ":2:1: pai_job_table.csv: job 'b' has no task in pai_task_table.csv (strict: not "
	 "skipped)"}},
	{"a,i,u,Terminated,-100,200", TASK, {NULL, SKIP, TRS_NEG_TIME,
	 ":1:18: pai_job_table.csv: start_time -100 is negative (strict: not skipped)"}},
	{"", TASK, {NULL, SKIP, TRS_NO_RUNTIME,
	 ":1:1: pai_task_table.csv: job 'a' has no row in pai_job_table.csv: no submission time "
	 "(strict: not skipped)"}},
	{JOB, "a,w,1,Terminated,110,150,100,1,150,T4", {NULL, CLAMP, 0,
	 ":1:32: pai_task_table.csv: plan_gpu 150: whole GPUs, rounded up (strict: not "
	 "clamped)"}},
	{JOB, "a,w,1,Terminated,110,150,100,1,0.01,T4", {NULL, CLAMP, 0,
	 ":1:32: pai_task_table.csv: plan_gpu 0.01: below 1 milli-GPU, raised to 1 (strict: not "
	 "clamped)"}},
	{JOB, "a,w,1.5,Terminated,110,150,100,1,50,T4", {NULL, CLAMP, 0,
	 ":1:5: pai_task_table.csv: inst_num 1.5: not a whole number, rounded up (strict: not "
	 "clamped)"}},
	{JOB, "a,w,1,Terminated,110,150,100,1,50,T4\na,v,1,Terminated,110,150,200,1,50,T4\n"
	 "a,x,1,Terminated,110,150,300,1,50,T4", {NULL, CLAMP, 0,
	 ":3:3: pai_task_table.csv: task 'x': a third distinct demand, merged into the job's "
	 "second role at the larger of the two (strict: not clamped)"}},
};

static void pai_bad(void)
{
	struct tmp d;
	tmp_open(&d);
	struct trace_opts o = opts();
	o.format = PAI;
	for (size_t i = 0; i < sizeof pai_cases / sizeof pai_cases[0]; i++) {
		char text[1024];
		snprintf(text, sizeof text, "%s\n", pai_cases[i].jobs);
		tmp_put(&d, "pai_job_table.csv", text);
		snprintf(text, sizeof text, "%s\n", pai_cases[i].tasks);
		tmp_put(&d, "pai_task_table.csv", text);
		expect_bad(d.dir, &o, &pai_cases[i].bad);
	}
	/* a table missing */
	remove(tmp_put(&d, "pai_job_table.csv", ""));
	expect_fail(d.dir, &o, ":0:1: no pai_job_table.csv (nor pai_job_table.csv.zst) in the "
		    "directory: a PAI trace's jobs are its job and task tables");
	tmp_close(&d);
}

/* Compressed tables, header rows, and what the role rule makes. */
static void pai_tables(void)
{
	struct tmp d;
	tmp_open(&d);
	struct trace_opts o = opts();
	tmp_put(&d, "pai_job_table.csv", "job_name,inst_id,user,status,start_time,end_time\n"
		JOB "\nb,i,u,Failed,300,400\n");
	tmp_put_zst(&d, "pai_task_table.csv.zst",
		    "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,"
		    "plan_gpu,gpu_type\n"
		    "b,ps,1,Failed,300,310,100,1,,\n"
		    "a,w,2,Terminated,110,150,100,1,50,T4\n"
		    "b,w,1,Failed,300,390,100,2,800,V100\n"
		    "a,w2,3,Terminated,120,190,100,1,50,T4\n"
		    "b,e,2,Failed,300,350,400,1,10,\n");
	struct scn_trace *t = read_ok(d.dir, &o); /* detected: the job table is there */
	CU_ASSERT_EQUAL(t->records, 2);
	CU_ASSERT_EQUAL(t->njobs, 2);
	CU_ASSERT_EQUAL(t->clamped, 1);
	const struct scn_trace_job *j = job_id(t, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(shape(t, j)->nroles, 1);
	expect_role(&shape(t, j)->role[0], 5, 1000, 1024, 0, 500);
	CU_ASSERT_EQUAL(j->run_us, 70000000);
	j = job_id(t, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(shape(t, j)->tasks, 4);
	expect_role(&shape(t, j)->role[0], 1, 1000, 1024, 0, 0);
	/* w (1 x 100 %, 2 GB, 8 GPUs) and e (2 x 400 %, 1 GB, 10 %): 3 x the larger */
	expect_role(&shape(t, j)->role[1], 3, 4000, 2048, 8, 0);
	CU_ASSERT_EQUAL(j->run_us, 90000000);
	scn_trace_free(t);
	tmp_close(&d);
}

/* The machine table's rules. */
static void pai_bad_machines(void)
{
	struct tmp d;
	tmp_open(&d);
	static const struct {
		const char *row, *msg;
	} cases[] = {
		/* columns of "m,T4,96,512,2": cap_cpu 6, cap_mem 9, cap_gpu 13 */
		{"m,T4,96,512", ":1:9: 4 fields, pai_machine_spec.csv has 5 (machine,gpu_type,"
		 "cap_cpu,cap_mem,cap_gpu)"},
		{"m,T4,x,512,2", ":1:6: cap_cpu 'x' is not a number"},
		{"m,T4,96,512,2.5", ":1:13: cap_gpu '2.5' is not a whole number"},
		{"m,T4,-96,512,2", ":1:6: cap_cpu '-96' is negative"},
		{"m,T4,96,,2", ":1:9: cap_mem is empty"},
		{"m,T4,9999999,512,2", ":1:6: cap_cpu '9999999' is out of range"},
		{"m,CPU,96,512,2", ":1:3: a machine of 2 GPUs with gpu_type 'CPU'"},
		{"m,,96,512,2", ":1:3: a machine of 2 GPUs with gpu_type ''"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[256];
		snprintf(text, sizeof text, "%s\n", cases[i].row);
		expect_nodes_fail(tmp_put(&d, "pai_machine_spec.csv", text), PAI, cases[i].msg);
	}
	struct nodes n; /* a header row repeated from the .header file is skipped */
	read_nodes(tmp_put(&d, "pai_machine_spec.csv", "machine,gpu_type,cap_cpu,cap_mem,cap_gpu\n"
			   "m,T4,96,512.5,2\nc,MISC,8,16,0\n"), PAI, &n);
	CU_ASSERT_EQUAL(n.nodes, 2);
	CU_ASSERT_EQUAL(n.g[0].mem_mib, 524800);
	CU_ASSERT_STRING_EQUAL(n.g[0].gpu_model, "T4");
	CU_ASSERT_PTR_NULL(n.g[1].gpu_model); /* no GPUs: no model */
	nodes_free(&n);
	tmp_close(&d);
}

/* ---- Philly ------------------------------------------------------------------ */

/* The real machine list.
 *   awk -F, 'NR>1{n[$2"|"$3]++; g+=$2} END{for(k in n)print k,n[k]; print NR-1,g}'
 *     cluster_machine_list.csv -> 2| 12GB 321, 8| 24GB 231; 552 2490 */
static void philly_machines(void)
{
	struct nodes n;
	read_nodes(PHILLY "cluster_machine_list.csv", NULL, &n);
	CU_ASSERT_EQUAL(n.nodes, 552);
	CU_ASSERT_EQUAL(n.gpus, 2490);
	CU_ASSERT_EQUAL(n.ngroups, 2);
	CU_ASSERT_EQUAL(n.cpu_only, 0);
	expect_model(&n, "12GB", 321, 642);
	expect_model(&n, "24GB", 231, 1848);
	/* 6 cores and 112 GiB a GPU */
	CU_ASSERT_EQUAL(n.cores, 2490 * 6);
	CU_ASSERT_EQUAL(n.mem, 2490LL * 112 * 1024);
	nodes_free(&n);
	struct trace_opts o = opts();
	expect_fail(PHILLY "cluster_machine_list.csv", &o,
		    ":1:1: a machine list (header 'machineId, ...'), not a job log: use it as a "
		    "cluster (cluster: - {name: N, trace: {format: philly, path: ...}})");
	expect_nodes_fail(PHILLY "cluster_job_log-sample.json", "philly",
			  ":1:1: a job log (a JSON array), not a machine list: use it as a "
			  "workload (workload: - {name: N, trace: {format: philly, path: ...}})");
}

/* The sample log (written here: see the top of this file).  Times with
 * Python: calendar.timegm(time.strptime(s, '%Y-%m-%d %H:%M:%S')):
 * 2017-10-07 01:11:39 -> 1507338699; job 1's run 2017-10-07 01:12:09 ..
 * 2017-10-09 06:53:12 -> 193263 s; the kept jobs' submissions from the
 * first: 0, 6501, 82101, 7426100 s. */
static void philly_sample(void)
{
	struct trace_opts o = opts();
	struct scn_trace *t = read_ok(PHILLY "cluster_job_log-sample.json", &o);
	CU_ASSERT_STRING_EQUAL(t->format, "philly");
	CU_ASSERT_EQUAL(t->records, 9);
	CU_ASSERT_EQUAL(t->njobs, 4);
	CU_ASSERT_EQUAL(t->skipped[TRS_NO_RUNTIME], 4); /* 2 no attempts, 4 None, 7 no
							   start, 9 null */
	CU_ASSERT_EQUAL(t->skipped[TRS_NEG_TIME], 1);   /* 6 */
	CU_ASSERT_EQUAL(t->clamped, 1);                 /* 5: 8, 4 and 2 GPUs */
	CU_ASSERT_EQUAL(t->t0_us, 1507338699LL * 1000000);
	CU_ASSERT_EQUAL(t->nusers, 3);
	CU_ASSERT_EQUAL(t->nqueues, 2);
	const struct scn_trace_job *j = job_id(t, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->arrival_us, 0);
	CU_ASSERT_EQUAL(j->run_us, 193263LL * 1000000);
	CU_ASSERT_EQUAL(shape(t, j)->nroles, 1);
	CU_ASSERT_EQUAL(shape(t, j)->tasks, 1);
	expect_role(&shape(t, j)->role[0], 1, 1000, 1024, 8, 0);
	CU_ASSERT_STRING_EQUAL(user_of(t, j), "u1");
	CU_ASSERT_STRING_EQUAL(queue_of(t, j), "vc1");
	j = job_id(t, 3); /* m1, m2 of 2 GPUs, m3 of 1 */
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->arrival_us, 6501LL * 1000000);
	CU_ASSERT_EQUAL(j->run_us, 3600LL * 1000000);
	CU_ASSERT_EQUAL(shape(t, j)->nroles, 2);
	CU_ASSERT_EQUAL(shape(t, j)->tasks, 3);
	expect_role(&shape(t, j)->role[0], 2, 1000, 1024, 2, 0);
	expect_role(&shape(t, j)->role[1], 1, 1000, 1024, 1, 0);
	CU_ASSERT_STRING_EQUAL(user_of(t, j), "u2");
	j = job_id(t, 5); /* 8, 4, 2, 8 GPUs: 2 x 8, then 4 and 2 as 2 x 4 */
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->arrival_us, 82101LL * 1000000);
	CU_ASSERT_EQUAL(j->run_us, 600LL * 1000000);
	CU_ASSERT_EQUAL(shape(t, j)->tasks, 4);
	expect_role(&shape(t, j)->role[0], 2, 1000, 1024, 8, 0);
	expect_role(&shape(t, j)->role[1], 2, 1000, 1024, 4, 0);
	j = job_id(t, 8); /* escapes: user "u\u0031", vc "vc\"2"; across a new year */
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->arrival_us, 7426100LL * 1000000);
	CU_ASSERT_EQUAL(j->run_us, 30LL * 1000000);
	CU_ASSERT_STRING_EQUAL(user_of(t, j), "u1");
	CU_ASSERT_STRING_EQUAL(queue_of(t, j), "vc\"2");
	scn_trace_free(t);

	o.exec_cores = 4; /* the mapping's executor */
	o.exec_mem_mib = 8192;
	o.completed_only = true; /* Pass: 1, 3, 5, 6, 8, 9 */
	t = read_ok(PHILLY "cluster_job_log-sample.json", &o);
	CU_ASSERT_EQUAL(t->njobs, 4);
	CU_ASSERT_EQUAL(t->skipped[TRS_STATUS], 3);
	CU_ASSERT_EQUAL(t->skipped[TRS_NO_RUNTIME], 1);
	CU_ASSERT_EQUAL(t->skipped[TRS_NEG_TIME], 1);
	expect_role(&shape(t, job_id(t, 1))->role[0], 1, 4000, 8192, 8, 0);
	scn_trace_free(t);
	o = opts();
	o.offer = true; /* all but job 2, which lists no machine */
	t = read_ok(PHILLY "cluster_job_log-sample.json", &o);
	CU_ASSERT_EQUAL(t->njobs, 8);
	CU_ASSERT_EQUAL(t->skipped[TRS_NO_DEMAND], 1);
	struct sums s;
	sum(t, &s);
	CU_ASSERT(t->offer);
	scn_trace_free(t);
	o = opts();
	o.strict = true; /* the first problem: job 2's empty attempts, line 44 */
	expect_fail(PHILLY "cluster_job_log-sample.json", &o,
		    ":44:21: no attempts: no run time (strict: not skipped)");
	char err[256];
	CU_ASSERT_STRING_EQUAL(trace_detect(PHILLY "cluster_job_log-sample.json", err, sizeof err),
			       "philly");
	CU_ASSERT_STRING_EQUAL(trace_detect(PHILLY "cluster_machine_list.csv", err, sizeof err),
			       "philly");
}

/* A good job object, one line; columns of "[" JOB_OBJ on line 1 below. */
#define ATTEMPT(start, end, detail) \
	"{\"start_time\": " start ", \"end_time\": " end ", \"detail\": " detail "}"
#define GPUS2 "[{\"ip\": \"m1\", \"gpus\": [\"gpu0\", \"gpu1\"]}]"
#define OBJ(status, sub, attempts) \
	"{\"status\": " status ", \"vc\": \"v\", \"user\": \"u\", \"submitted_time\": " sub \
	", \"attempts\": " attempts "}"
#define GOOD OBJ("\"Pass\"", "\"2017-10-07 01:00:00\"", \
		 "[" ATTEMPT("\"2017-10-07 01:00:10\"", "\"2017-10-07 02:00:10\"", GPUS2) "]")

/* Philly's cases: the text of the whole file; columns by Python's
 * text.index() + 1 on the same text.  "[" GOOD is 224 characters; in it,
 * submitted_time's value is at column 63, attempts' at 98 and the first
 * attempt's end_time's at 149 (the same in the OBJ cases below). */
static const struct bad philly_cases[] = {
	{"{}", ERROR, 0, ":1:1: expected a JSON array of jobs '[', got '{}'"},
	{"[1]", ERROR, 0, ":1:2: expected a job object '{' or ']', got '1]'"},
	{"[" GOOD " " GOOD "]", ERROR, 0,
	 ":1:226: expected ',' or ']' after a job object, got '{\"status\": \"Pass\", \"'"},
	{"[" GOOD ",]", ERROR, 0, ":1:226: expected a job object '{' after ',', got ']'"},
	{"[" GOOD "] x", ERROR, 0, ":1:227: text after the array's closing ']': 'x'"},
	{"[" GOOD, ERROR, 0, ":1:225: the file ends before the array's closing ']'"},
	{"[{\"a\": 1", ERROR, 0, ":1:2: the file ends inside this job object"},
	{"[{\"a\": \"x\n\"}]", ERROR, 0, ":1:10: a line break inside a string"},
	{"[{\"a\" 1}]", ERROR, 0, ":1:7: expected ':' after a key, got '1}'"},
	{"[{\"a\": 1 \"b\": 2}]", ERROR, 0, ":1:10: expected ',' or '}', got '\"b\": 2}'"},
	{"[{\"a\": \"\\q\"}]", ERROR, 0, ":1:9: an invalid escape '\\q' in a string"},
	{"[{\"a\": \"\\u12\"}]", ERROR, 0, ":1:9: a \\u escape without 4 hex digits"},
	{"[{\"a\": \"\\ud800\"}]", ERROR, 0, ":1:9: a \\u escape of half a surrogate pair"},
	{"[{\"a\": \"x\ty\"}]", ERROR, 0, ":1:10: a control character in a string"},
	{"[{\"a\": \"a\\u0000b\"}]", ERROR, 0, ":1:10: a '\\u0000' in a string: a NUL is no text "
	 "hetsim reads"},
	/* JSON is UTF-8: at the byte, with its offset in the file (line 1 is 2
	 * bytes, the byte the 9th of line 2: 10) */
	{"[\n{\"u\": \"Z\xfcrich\"}]", ERROR, 0, ":2:9: not UTF-8: byte 0xfc (never in UTF-8), "
	 "at byte 10 of the file"},
	{"[{\"u\": \"\xed\xa0\x80\"}]", ERROR, 0, ":1:9: not UTF-8: byte 0xed (a UTF-16 "
	 "surrogate), at byte 8 of the file"},
	{"[\"Z\xc3\xbcrich\"]", ERROR, 0, /* UTF-8 read on, and shown as it is */
	 ":1:2: expected a job object '{' or ']', got '\"Z\xc3\xbcrich\"]'"},
	{"[{\"a\": tru}]", ERROR, 0, ":1:8: expected a value, got 'tru}'"},
	{"[{\"a\": [1,]}]", ERROR, 0, ":1:11: expected a value, got ']}'"},
	{"[{1: 2}]", ERROR, 0, ":1:3: expected a string, got '1: 2}'"},
	{"[{\"status\": 5}]", ERROR, 0, ":1:13: status: expected a string, got a number"},
	{"[{\"attempts\": {}}]", ERROR, 0, ":1:15: attempts: expected an array, got an object"},
	{"[{\"attempts\": [1]}]", ERROR, 0, ":1:16: an attempt: expected an object, got a number"},
	{"[{\"attempts\": [{\"detail\": \"x\"}]}]", ERROR, 0,
	 ":1:27: detail: expected an array, got a string"},
	{"[{\"attempts\": [{\"detail\": [true]}]}]", ERROR, 0,
	 ":1:28: a detail entry: expected an object, got a boolean"},
	{"[{\"attempts\": [{\"detail\": [{\"gpus\": 3}]}]}]", ERROR, 0,
	 ":1:37: gpus: expected an array, got a number"},
	{"[" OBJ("\"Pass\"", "\"2017-10-07T01:00:00\"", "[]") "]", ERROR, 0,
	 ":1:63: submitted_time '2017-10-07T01:00:00' is not a time 'YYYY-MM-DD HH:MM:SS'"},
	{"[" OBJ("\"Pass\"", "\"2017-02-29 00:00:00\"", "[]") "]", ERROR, 0,
	 ":1:63: submitted_time '2017-02-29 00:00:00' is not a time 'YYYY-MM-DD HH:MM:SS'"},
	{"[" OBJ("\"Pass\"", "\"2017-10-07 24:00:00\"", "[]") "]", ERROR, 0,
	 ":1:63: submitted_time '2017-10-07 24:00:00' is not a time 'YYYY-MM-DD HH:MM:SS'"},
	{"[" OBJ("\"Pass\"", "null", "[]") "]", ERROR, 0,
	 ":1:63: no submitted_time: a job's arrival"},
	{"[\n  {\"status\": \"Pass\"}\n]", ERROR, 0, ":2:3: no submitted_time: a job's arrival"},
	{"", ERROR, 0, ":1:1: no JSON array of jobs: the file is empty or blank"},
	{"[" OBJ("\"Pass\"", "\"2017-10-07 01:00:00\"", "[]") "]", SKIP, TRS_NO_RUNTIME,
	 ":1:98: no attempts: no run time (strict: not skipped)"},
	{"[{\"submitted_time\": \"2017-10-07 01:00:00\"}]", SKIP, TRS_NO_RUNTIME,
	 ":1:2: no attempts: no run time (strict: not skipped)"},
	{"[" OBJ("\"Pass\"", "\"2017-10-07 01:00:00\"",
		 "[{\"end_time\": \"2017-10-07 02:00:00\", \"detail\": " GPUS2 "}]") "]",
	 SKIP, TRS_NO_RUNTIME, ":1:98: the first attempt has no start_time: no run time "
	 "(strict: not skipped)"},
	{"[" OBJ("\"Pass\"", "\"2017-10-07 01:00:00\"",
		 "[" ATTEMPT("\"2017-10-07 01:00:10\"", "\"None\"", GPUS2) "]") "]",
	 SKIP, TRS_NO_RUNTIME, ":1:149: the last attempt has no end_time (None: still running): "
	 "no run time (strict: not skipped)"},
	{"[" OBJ("\"Pass\"", "\"2017-10-07 01:00:00\"",
		 "[" ATTEMPT("\"2017-10-07 01:00:10\"", "null", GPUS2) "]") "]",
	 SKIP, TRS_NO_RUNTIME, ":1:149: the last attempt has no end_time: no run time (strict: "
	 "not skipped)"},
	{"[" OBJ("\"Pass\"", "\"2017-10-07 01:00:00\"",
		 "[" ATTEMPT("\"2017-10-07 01:00:10\"", "\"2017-10-07 00:00:10\"", GPUS2) "]") "]",
	 SKIP, TRS_NEG_TIME, ":1:149: the last attempt's end_time 2017-10-07 00:00:10 before the "
	 "first's start_time 2017-10-07 01:00:10 (strict: not skipped)"},
	{"[" OBJ("\"Pass\"", "\"2017-10-07 01:00:00\"",
		 "[" ATTEMPT("\"2017-10-07 01:00:10\"", "\"2017-10-07 02:00:10\"", "[]") "]") "]",
	 SKIP, TRS_NO_DEMAND, ":1:98: the first attempt lists no machine (strict: not "
	 "skipped)"},
	{"[" OBJ("\"Pass\"", "\"2017-10-07 01:00:00\"",
		 "[" ATTEMPT("\"2017-10-07 01:00:10\"", "\"2017-10-07 02:00:10\"",
			     "[{\"ip\": \"m1\", \"gpus\": []}]") "]") "]",
	 SKIP, TRS_NO_DEMAND, ":1:98: the first attempt lists no GPU (strict: not skipped)"},
	{"[" OBJ("\"Killed\"", "\"2017-10-07 01:00:00\"", "[]") "]", SKIP, TRS_STATUS, NULL},
	{"[" OBJ("\"Pass\"", "\"2017-10-07 01:00:00\"",
		 "[" ATTEMPT("\"2017-10-07 01:00:10\"", "\"2017-10-07 02:00:10\"",
			     "[{\"gpus\": [1, 1, 1]}, {\"gpus\": [1]}, "
			     "{\"gpus\": [1, 1]}]") "]") "]",
	 CLAMP, 0, ":1:98: the first attempt's machines have more than two GPU counts: the third "
	 "and later joined the second at the larger (strict: not clamped)"},
};

static void philly_bad(void)
{
	struct tmp d;
	tmp_open(&d);
	struct trace_opts o = opts();
	o.format = "philly";
	for (size_t i = 0; i < sizeof philly_cases / sizeof philly_cases[0]; i++) {
		const char *p = tmp_put(&d, "log.json", philly_cases[i].text);
		if (philly_cases[i].why == TRS_STATUS) { /* no error under strict */
			struct trace_opts c = o;
			c.completed_only = c.strict = true;
			struct scn_trace *t = read_ok(p, &c);
			CU_ASSERT_EQUAL(t->njobs, 0);
			CU_ASSERT_EQUAL(t->skipped[TRS_STATUS], 1);
			scn_trace_free(t);
			continue;
		}
		expect_bad(p, &o, &philly_cases[i]);
	}
	tmp_close(&d);
}

/* Limits: nesting, a job's size, a machine's GPUs; a leap day. */
static void philly_limits(void)
{
	struct tmp d;
	tmp_open(&d);
	struct trace_opts o = opts();
	o.format = "philly";
	char *text = malloc((size_t)80 << 20);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	/* 70 arrays in one another under an unknown key: the 64th is refused */
	strcpy(text, "[{\"x\": ");
	for (int i = 0; i < 70; i++)
		strcat(text, "[");
	for (int i = 0; i < 70; i++)
		strcat(text, "]");
	strcat(text, "}]");
	expect_fail(tmp_put(&d, "log.json", text), &o, ":1:71: nesting deeper than 64");
	/* 65 GPUs on one machine (SCN_MAX_GPUS: 64) */
	char *gp = malloc(8192), *q = gp + sprintf(gp, "[{\"gpus\": [0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(gp);
	for (int i = 1; i < 65; i++)
		q += sprintf(q, ",%d", i);
	strcpy(q, "]}]");
	sprintf(text, "[" OBJ("\"Pass\"", "\"2017-10-07 01:00:00\"",
			     "[" ATTEMPT("\"2017-10-07 01:00:10\"", "\"2017-10-07 02:00:10\"", "%s")
			     "]") "]", gp);
	free(gp);
	struct bad big = {NULL, SKIP, TRS_TOO_BIG, ":1:98: the first attempt: 1 machines, at "
			  "most 65 GPUs on one (limits 10000, 64) (strict: not skipped)"};
	expect_bad(tmp_put(&d, "log.json", text), &o, &big);
	/* a job object above 64 MiB, on lines of 1 MiB */
	char *p = text + sprintf(text, "[\n{\"x\": [\n");
	for (int l = 0; l < 65; l++) {
		*p++ = '"';
		memset(p, 'a', 1 << 20);
		p += 1 << 20;
		p += sprintf(p, "\",\n");
	}
	strcpy(p, "\"\"]}]\n");
	expect_fail(tmp_put(&d, "log.json", text), &o, ":2:1: a job object longer than 64 MiB");
	free(text);
	/* a leap day, and a day before the epoch's */
	struct scn_trace *t = read_ok(tmp_put(&d, "log.json", "[" OBJ("\"Pass\"",
		"\"2000-02-29 12:00:00\"", "[" ATTEMPT("\"2000-03-01 00:00:00\"",
		"\"2000-03-01 00:00:01\"", GPUS2) "]") "]"), &o);
	CU_ASSERT_EQUAL(t->t0_us, 951825600LL * 1000000);
	CU_ASSERT_EQUAL(t->jobs[0].run_us, 1000000);
	scn_trace_free(t);
	t = read_ok(tmp_put(&d, "log.json", "[" OBJ("\"Pass\"", "\"1969-12-31 23:59:59\"",
		"[" ATTEMPT("\"1970-01-01 00:00:00\"", "\"1970-01-01 00:00:01\"", GPUS2) "]")
		"]"), &o);
	CU_ASSERT_EQUAL(t->t0_us, -1000000);
	scn_trace_free(t);
	/* the year 0 (a leap year): 366 days before 0001-01-01, which Python's
	 * datetime(1, 1, 1) puts at -62135596800 s */
	t = read_ok(tmp_put(&d, "log.json", "[" OBJ("\"Pass\"", "\"0000-01-01 00:00:00\"",
		"[" ATTEMPT("\"0000-02-29 00:00:00\"", "\"0000-03-01 00:00:00\"", GPUS2) "]")
		"]"), &o);
	CU_ASSERT_EQUAL(t->t0_us, (-62135596800LL - 366 * 86400) * 1000000);
	CU_ASSERT_EQUAL(t->jobs[0].run_us, 86400LL * 1000000);
	scn_trace_free(t);
	/* compressed, and an empty array */
	t = read_ok(tmp_put_zst(&d, "log.json.zst", "[" GOOD "," GOOD "]"), &o);
	CU_ASSERT_EQUAL(t->njobs, 2);
	scn_trace_free(t);
	t = read_ok(tmp_put(&d, "log.json", " [ ]\n"), &o);
	CU_ASSERT_EQUAL(t->njobs, 0);
	CU_ASSERT_EQUAL(t->records, 0);
	scn_trace_free(t);
	tmp_close(&d);
}

/* The machine list's rules. */
static void philly_bad_machines(void)
{
	struct tmp d;
	tmp_open(&d);
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{"id,gpus\n", ":1:1: expected the header 'machineId, number of GPUs, single GPU "
		 "mem', got a first column 'id'"},
		{"machineId, number of GPUs\n", ":1:1: no column 'single GPU mem' in the header"},
		{"", ":1:1: an empty file: a machine list starts with its header 'machineId, "
		 "number of GPUs, single GPU mem'"},
		{"machineId, number of GPUs, single GPU mem\nm1,x, 24GB\n",
		 ":2:4: number of GPUs 'x' is not a whole number from 0 to 64"},
		{"machineId, number of GPUs, single GPU mem\nm1,65, 24GB\n",
		 ":2:4: number of GPUs '65' is not a whole number from 0 to 64"},
		{"machineId, number of GPUs, single GPU mem\nm1,8,\n",
		 ":2:6: a machine of 8 GPUs without its single GPU mem (the GPU model here)"},
		{"machineId, number of GPUs, single GPU mem\nm1,8\n",
		 ":2:4: 2 fields, the header has 3"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		expect_nodes_fail(tmp_put(&d, "machines.csv", cases[i].text), "philly",
				  cases[i].msg);
	struct nodes n; /* a machine of no GPU: one GPU's cores and memory */
	read_nodes(tmp_put(&d, "machines.csv", "machineId, number of GPUs, single GPU mem\n"
			   "m1, 0, 12GB\n"), "philly", &n);
	CU_ASSERT_EQUAL(n.nodes, 1);
	CU_ASSERT_EQUAL(n.cores, 6);
	CU_ASSERT_EQUAL(n.mem, 112 * 1024);
	CU_ASSERT_EQUAL(n.gpus, 0);
	CU_ASSERT_PTR_NULL(n.g[0].gpu_model);
	nodes_free(&n);
	tmp_close(&d);
}

/* What the fuzz trace target found, pinned (docs/errors.md): a NUL byte
 * in a text trace, at its line and column, and an SWF header with no
 * usable size, at 1:1 (both were messages without a position). */
static void fuzz_found(void)
{
	struct tmp d;
	tmp_open(&d);
	snprintf(d.path, sizeof d.path, "%s/nul.swf", d.dir);
	FILE *f = fopen(d.path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite("; Version: 2.2\n; M\0xNodes: 4\n", 1, 29, f);
	fclose(f);
	struct trace_opts o = {.format = "swf"};
	expect_fail(d.path, &o, ":2:4: a NUL byte in the text (not a text file?)");
	const char *p = tmp_put(&d, "nosize.swf", "; Version: 2.2\n; MaxNodes: 0\n"
				"1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n");
	struct scn_node_group *g = NULL;
	int ng = 0;
	char err[1024] = "", want[1200];
	CU_ASSERT_EQUAL(trace_read_nodes(p, "swf", "n", TRM_DEFAULT, &g, &ng, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:1:1: no usable MaxNodes or MaxProcs in the header (0, 0): "
		 "give the cluster in the scenario", p);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(g);
	tmp_close(&d);
}

/* A value in a message (tr_show): a control byte and a byte that is not
 * UTF-8 as \xHH, UTF-8 as it is, 40 bytes at most and no character cut
 * there: a message stays one printable line of UTF-8 (an SWF field
 * "1\xe9" was written as its raw byte). */
static void show_values(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"plain", "plain"},
		{"a\tb\x7f", "a\\x09b\\x7f"},
		{"1\xe9", "1\\xe9"},                                  /* Latin-1 */
		{"Z\xc3\xbcrich \xe2\x82\xac \xf0\x9f\x98\x80", "Z\xc3\xbcrich \xe2\x82\xac \xf0\x9f\x98\x80"},
		{"\xc0\xaf\xed\xa0\x80", "\\xc0\\xaf\\xed\\xa0\\x80"},    /* overlong, surrogate */
		{"0123456789012345678901234567890123456789", "0123456789012345678901234567890123456789"},
		{"0123456789012345678901234567890123456789x", "0123456789012345678901234567890123456789..."},
		{"012345678901234567890123456789012345678\xc3\xa9", /* no é cut at 40 */
		 "012345678901234567890123456789012345678..."},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		char buf[TR_SHOW];
		const char *got = tr_show(cases[c].in, strlen(cases[c].in), buf);
		CU_ASSERT_STRING_EQUAL(got, cases[c].out);
		if (strcmp(got, cases[c].out))
			fprintf(stderr, "\n  case %zu: %s\n", c, got);
	}
	char all[41], buf[TR_SHOW]; /* the longest: 40 bytes, each \xHH */
	memset(all, 0xff, 40);
	all[40] = 0;
	CU_ASSERT_EQUAL(strlen(tr_show(all, 40, buf)), 160);
}

int test_suite_importers(void)
{
	TEST_SUITE("importers",
		   {"values in messages: control bytes, bytes not UTF-8, 40 bytes", show_values},
		   {"what the fuzzer found: a NUL byte, an SWF header without a size", fuzz_found},
		   {"openb: the default pod list (awk counts)", openb_default},
		   {"openb: the default pod list offer-only", openb_default_offer},
		   {"openb: completed_only keeps the Succeeded pods", openb_default_completed},
		   {"openb: gpuspec33's GPU model constraints", openb_gpuspec33},
		   {"openb: a multigpu list reads only offer-only", openb_multigpu},
		   {"openb: the node lists (awk counts)", openb_nodes},
		   {"openb: node lists and pod lists are not each other", openb_kinds},
		   {"openb: every bad pod row, with its message", openb_bad_rows},
		   {"openb: clamps, fractions, offer-only and completed_only", openb_rows},
		   {"openb: the header's rules", openb_bad_headers},
		   {"openb: the node list's rules", openb_bad_nodes},
		   {"openb: a scenario's cluster and pods", openb_scenario},
		   {"pai: the real machine table (awk counts)", pai_machines},
		   {"pai: the sample directory, job by job", pai_sample},
		   {"pai: every bad row, with its message", pai_bad},
		   {"pai: compressed tables, header rows, the role rule", pai_tables},
		   {"pai: the machine table's rules", pai_bad_machines},
		   {"philly: the real machine list (awk counts)", philly_machines},
		   {"philly: the sample log, job by job", philly_sample},
		   {"philly: every bad job, with its message", philly_bad},
		   {"philly: limits, dates, compression", philly_limits},
		   {"philly: the machine list's rules", philly_bad_machines});
	return 0;
}
