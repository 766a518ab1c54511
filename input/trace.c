/* trace.c - the format registry, reading a trace (trace_read: its format
 * picked, its importer run through the builder, trace_build.c), node
 * lists, warnings and `trace info` (input/trace.h).
 *
 * It calls the importers through their format tables (trace_swf.c,
 * trace_openb.c, trace_pai.c, trace_philly.c), the builder and
 * input/zread.h; the importers call the builder, never this file. */
#include "trace.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"
#include "zread.h"

extern const struct trace_format tf_swf;
extern const struct trace_format tf_openb;
extern const struct trace_format tf_pai;
extern const struct trace_format tf_philly;
extern const struct trace_format tf_paisim;
extern const struct trace_format tf_tiresias;

/* A Spark event log: JSON lines, each an object with "Event" first.  It
 * holds one application, not a job table: `hetsim trace info` reads it
 * with input/sparklog.h, `hetsim replay-log` replays it. */
static bool spark_detect(const char *head, size_t n)
{
	size_t i = 0;
	while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	return i + 9 <= n && !strncmp(head + i, "{\"Event\":", 9);
}

const struct trace_format tf_spark = {
	.name = "spark-eventlog",
	.what = "Spark event log (JSON lines, plain or zstd): one application; hetsim "
		"replay-log replays it",
	.detect = spark_detect,
};

const struct trace_format *const trace_formats[] = {
	&tf_swf,
	&tf_spark,
	&tf_openb,
	&tf_pai,
	&tf_philly,
	&tf_paisim,
	&tf_tiresias,
};
const int trace_nformats = ARRAY_LEN(trace_formats);

const struct trace_format *trace_format(const char *name)
{
	for (int i = 0; i < trace_nformats; i++)
		if (strcmp(trace_formats[i]->name, name) == 0)
			return trace_formats[i];
	return NULL;
}


static const struct trace_format *pick(const char *path, const struct trace_opts *o,
				       struct zr *z, char *err, size_t errlen)
{
	if (o->format) {
		const struct trace_format *f = trace_format(o->format);
		if (!f)
			snprintf(err, errlen, "%s: unknown trace format '%s'", path, o->format);
		return f;
	}
	char head[4096];
	size_t n = zr_peek(z, head, sizeof head - 1);
	head[n] = 0;
	for (int i = 0; i < trace_nformats; i++)
		if (!trace_formats[i]->dir && trace_formats[i]->detect &&
		    trace_formats[i]->detect(head, n))
			return trace_formats[i];
	snprintf(err, errlen, "%s: cannot tell the trace's format from its content: name it "
		 "(format:, --format)", path);
	return NULL;
}

/* Whether path is a directory. */
static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A directory's format: the first dir format whose node file or whose
 * detect hook (given the directory's name) says so. */
static const struct trace_format *pick_dir(const char *path, const struct trace_opts *o,
					   char *err, size_t errlen)
{
	if (o->format) {
		const struct trace_format *f = trace_format(o->format);
		if (!f)
			snprintf(err, errlen, "%s: unknown trace format '%s'", path, o->format);
		else if (!f->dir) {
			snprintf(err, errlen, "%s: a directory, but a %s trace is one file", path,
				 f->name);
			f = NULL;
		}
		return f;
	}
	for (int i = 0; i < trace_nformats; i++)
		if (trace_formats[i]->dir && trace_formats[i]->detect &&
		    trace_formats[i]->detect(path, 0))
			return trace_formats[i];
	snprintf(err, errlen, "%s: cannot tell the trace's format from its files: name it "
		 "(format:, --format)", path);
	return NULL;
}

struct scn_trace *trace_read(const char *path, const struct trace_opts *o, char *err,
			     size_t errlen)
{
	struct zr *z = NULL;
	const struct trace_format *f;
	if (is_dir(path)) {
		f = pick_dir(path, o, err, errlen);
		if (!f)
			return NULL;
	} else {
		if (!(z = zr_open(path, err, errlen)))
			return NULL;
		f = pick(path, o, z, err, errlen);
		if (f && f->dir) {
			snprintf(err, errlen, "%s: a %s trace is a directory of tables, not one file",
				 path, f->name);
			f = NULL;
		}
		if (!f) {
			zr_close(z);
			return NULL;
		}
	}
	if (!f->jobs) {
		snprintf(err, errlen, f->nodes ? "%s: a %s file lists nodes, not jobs: use it as a "
						 "cluster"
					       : "%s: a %s holds one application, not a job table: "
						 "hetsim replay-log replays it",
			 path, f->name);
		zr_close(z);
		return NULL;
	}
	struct scn_trace *t = xcalloc(1, sizeof *t);
	t->path = xstrdup(path);
	t->format = xstrdup(f->name);
	t->capped = o->cap_at_request ? 0 : -1;
	t->killed = o->kill_at_request ? 0 : -1;
	t->kill = o->kill_at_request;
	t->restart = o->restart;
	t->resume_cost_us = o->resume_cost_us;
	if (tr_read_jobs(f, o, t, z, err, errlen) < 0) {
		scn_trace_free(t);
		return NULL;
	}
	return t;
}

/* ---- node lists ----------------------------------------------------- */

struct node_ctx {
	struct scn_node_group **groups;
	int *ngroups, first, cap;
	const char *prefix;
};

static int add_node(void *vctx, const struct trace_node *n)
{
	struct node_ctx *c = vctx;
	const char *model = n->gpus && n->gpu_model && *n->gpu_model ? n->gpu_model : NULL;
	int cores = n->cpu_milli / 1000;
	for (int g = c->first; g < *c->ngroups; g++) {
		struct scn_node_group *ng = &(*c->groups)[g];
		if (ng->cores == cores && ng->mem_mib == n->mem_mib && ng->gpus == n->gpus &&
		    (!model ? !ng->gpu_model : ng->gpu_model && !strcmp(ng->gpu_model, model))) {
			ng->count++;
			return 0;
		}
	}
	xgrow(c->groups, &c->cap, *c->ngroups + 1, sizeof **c->groups);
	struct scn_node_group *ng = &(*c->groups)[(*c->ngroups)++];
	char name[64];
	snprintf(name, sizeof name, "%s%d", c->prefix, *c->ngroups - c->first);
	*ng = (struct scn_node_group){.name = xstrdup(name), .count = 1, .cores = cores,
				      .mem_mib = n->mem_mib, .gpus = n->gpus,
				      .gpu_model = model ? xstrdup(model) : NULL, .cpu_speed = 1,
				      .straggler_slowdown = 1, .net_mib_s = SCN_NET_MIB_S};
	return 0;
}

/* The nodes read into groups first.. as one node: a pool of their
 * processors, memory and GPUs.  0, or -1 with the reason in err. */
static int pool_nodes(const char *path, struct scn_node_group *groups, int first, int n,
		      char *err, size_t errlen)
{
	if (n - first != 1) {
		snprintf(err, errlen, "%s: machine: pool needs nodes of one shape; this list has %d "
			 "(machine: nodes keeps them as listed)", path, n - first);
		return -1;
	}
	struct scn_node_group *g = &groups[first];
	long long cores = (long long)g->count * g->cores, gpus = (long long)g->count * g->gpus;
	if (cores > SCN_MAX_NODE_CORES || gpus > SCN_MAX_GPUS) {
		snprintf(err, errlen, "%s: a pool of %lld cores and %lld GPUs is above a node's limits "
			 "(%d cores, %d GPUs): machine: nodes keeps the %d nodes as listed", path, cores,
			 gpus, SCN_MAX_NODE_CORES, SCN_MAX_GPUS, g->count);
		return -1;
	}
	g->cores = (int)cores;
	g->gpus = (int)gpus;
	g->mem_mib *= g->count;
	g->count = 1;
	return 0;
}

int trace_read_nodes(const char *path, const char *format, const char *prefix,
		     enum trace_machine machine, struct scn_node_group **groups, int *ngroups,
		     char *err, size_t errlen)
{
	struct trace_opts o = {.format = format};
	char file[4096];
	if (is_dir(path)) { /* a dir format's node file in it */
		const struct trace_format *f = pick_dir(path, &o, err, errlen);
		if (!f)
			return -1;
		if (!f->node_file) {
			snprintf(err, errlen, "%s: a %s trace has no node list", path, f->name);
			return -1;
		}
		snprintf(file, sizeof file, "%s/%s", path, f->node_file);
		path = file;
		o.format = f->name;
	}
	struct zr *z = zr_open(path, err, errlen);
	if (!z)
		return -1;
	const struct trace_format *f = pick(path, &o, z, err, errlen);
	if (f && !f->nodes) {
		snprintf(err, errlen, "%s: a %s file has no node list", path, f->name);
		f = NULL;
	}
	struct node_ctx c = {.groups = groups, .ngroups = ngroups, .first = *ngroups,
			     .cap = *ngroups, .prefix = prefix};
	int rc = f ? f->nodes(z, path, add_node, &c, err, errlen) : -1;
	zr_close(z);
	if (!rc && (machine == TRM_POOL || (machine == TRM_DEFAULT && f->pool)))
		rc = pool_nodes(path, *groups, c.first, *ngroups, err, errlen);
	if (rc < 0) {
		for (int g = c.first; g < *ngroups; g++) {
			free((*groups)[g].name);
			free((*groups)[g].gpu_model);
		}
		*ngroups = c.first;
	}
	return rc;
}

const char *trace_detect(const char *path, char *err, size_t errlen)
{
	if (is_dir(path)) {
		struct trace_opts o = {0};
		const struct trace_format *f = pick_dir(path, &o, err, errlen);
		return f ? f->name : NULL;
	}
	struct zr *z = zr_open(path, err, errlen);
	if (!z)
		return NULL;
	struct trace_opts o = {0};
	const struct trace_format *f = pick(path, &o, z, err, errlen);
	zr_close(z);
	return f ? f->name : NULL;
}

bool trace_node_list(const char *path, const char *format)
{
	const struct trace_format *f = trace_format(format);
	if (!f || !f->jobs)
		return f != NULL;
	if (is_dir(path))
		return false;
	if (f->dir)
		return true;
	if (!f->node_list)
		return false;
	char err[512], head[4096];
	struct zr *z = zr_open(path, err, sizeof err);
	if (!z)
		return false;
	size_t n = zr_peek(z, head, sizeof head - 1);
	head[n] = 0;
	zr_close(z);
	return f->node_list(head, n);
}

int trace_no_jobs(const struct scn_trace *t, char *buf, size_t len)
{
	if (t->njobs)
		return 0;
	if (!t->records) {
		snprintf(buf, len, "%s:1:1: no job records", t->path);
		return 1;
	}
	int k = snprintf(buf, len, "%s:1:1: no job: %lld record%s, all left out", t->path,
			 (long long)t->records, t->records == 1 ? "" : "s");
	const char *sep = " (";
	for (int w = 0; w < TRS_NSKIP && k >= 0 && (size_t)k < len; w++)
		if (t->skipped[w]) {
			k += snprintf(buf + k, len - (size_t)k, "%s%s %lld", sep,
				      scn_trace_skip_name((enum scn_trace_skip)w),
				      (long long)t->skipped[w]);
			sep = ", ";
		}
	if (k >= 0 && (size_t)k < len && *sep == ',')
		snprintf(buf + k, len - (size_t)k, ")");
	return 1;
}

/* ---- warnings and info ---------------------------------------------- */

/* Whether records left out for `w` are a warning: not those of a filter
 * the scenario chose (its window and lists, completed_only,
 * drop_nonpositive). */
static bool skip_warns(int w)
{
	return w != TRS_FILTER && w != TRS_STATUS && w != TRS_NONPOSITIVE;
}

int trace_warning(const struct scn_trace *t, char *buf, size_t len)
{
	int64_t n = 0;
	for (int w = 0; w < TRS_NSKIP; w++)
		if (skip_warns(w))
			n += t->skipped[w];
	if (!n && !t->clamped)
		return 0;
	int k = snprintf(buf, len, "%s: %lld of %lld records skipped", t->path, (long long)n,
			 (long long)t->records);
	const char *sep = " (";
	for (int w = 0; w < TRS_NSKIP && k >= 0 && (size_t)k < len; w++)
		if (skip_warns(w) && t->skipped[w]) {
			k += snprintf(buf + k, len - (size_t)k, "%s%s %lld", sep,
				      scn_trace_skip_name((enum scn_trace_skip)w),
				      (long long)t->skipped[w]);
			sep = ", ";
		}
	if (k >= 0 && (size_t)k < len && *sep == ',')
		k += snprintf(buf + k, len - (size_t)k, ")");
	if (t->clamped && k >= 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, ", %lld clamped", (long long)t->clamped);
	return 1;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The q-quantile of n sorted values: the nearest rank, ceil(q n). */
static int64_t rank(const int64_t *v, int64_t n, double q)
{
	int64_t k = (int64_t)ceil(q * (double)n);
	return v[k < 1 ? 0 : k > n ? n - 1 : k - 1];
}

static void percentiles(FILE *out, const char *what, int64_t *v, int64_t n, double div,
			const char *unit)
{
	qsort(v, (size_t)n, sizeof *v, cmp_i64);
	fprintf(out, "  %-22s p50 %.6g  p90 %.6g  p99 %.6g  max %.6g %s\n", what,
		(double)rank(v, n, 0.5) / div, (double)rank(v, n, 0.9) / div,
		(double)rank(v, n, 0.99) / div, (double)v[n - 1] / div, unit);
}

static const struct scn_trace *kind_sort_t; /* kinds_info's, for cmp_kind */
static const int64_t *kind_sort_jobs;

/* More jobs first, then by name. */
static int cmp_kind(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	int64_t jx = kind_sort_jobs[x], jy = kind_sort_jobs[y];
	if (jx != jy)
		return jx > jy ? -1 : 1;
	return strcmp(kind_sort_t->kinds[x], kind_sort_t->kinds[y]);
}

/* The jobs by kind: the 10 largest kinds (ties by name), the rest
 * counted. */
static void kinds_info(FILE *out, const struct scn_trace *t)
{
	int64_t none = 0, *jobs = xcalloc((size_t)(t->nkinds ? t->nkinds : 1), sizeof *jobs);
	for (int64_t i = 0; i < t->njobs; i++)
		if (t->jobs[i].kind >= 0)
			jobs[t->jobs[i].kind]++;
		else
			none++;
	int n = 0, *ord = xmalloc((size_t)(t->nkinds ? t->nkinds : 1) * sizeof *ord);
	for (int k = 0; k < t->nkinds; k++)
		if (jobs[k])
			ord[n++] = k;
	kind_sort_t = t;
	kind_sort_jobs = jobs;
	qsort(ord, (size_t)n, sizeof *ord, cmp_kind);
	fprintf(out, "  kinds                  %d", n);
	for (int i = 0; i < n && i < 10; i++)
		fprintf(out, "%s%s %lld", i ? ", " : ": ", t->kinds[ord[i]], (long long)jobs[ord[i]]);
	if (n > 10)
		fprintf(out, ", %d more", n - 10);
	if (none)
		fprintf(out, "%s%lld jobs without one", n ? "; " : ": ", (long long)none);
	fprintf(out, "\n");
	free(ord);
	free(jobs);
}

int trace_info(FILE *out, const struct scn_trace *t)
{
	int64_t n = t->njobs;
	fprintf(out, "trace %s\n  format                 %s\n", t->path, t->format);
	fprintf(out, "  records                %lld\n  jobs                   %lld\n",
		(long long)t->records, (long long)n);
	fprintf(out, "  distinct demands       %d\n  users                  %d\n"
		"  queues                 %d\n", t->nshapes, t->nusers, t->nqueues);
	if (n) {
		int64_t first = t->jobs[0].arrival_us, last = t->jobs[n - 1].arrival_us;
		fprintf(out, "  submissions            %.6g .. %.6g s (span %.6g s)\n",
			(double)first / 1e6, (double)last / 1e6, (double)(last - first) / 1e6);
		int64_t *v = xmalloc((size_t)n * sizeof *v);
		int64_t tasks = 0, gpu_jobs = 0;
		for (int64_t i = 0; i < n; i++)
			v[i] = t->jobs[i].run_us;
		percentiles(out, "run time", v, n, 1e6, "s");
		for (int64_t i = 0; i < n; i++) {
			const struct scn_trace_shape *sh = &t->shapes[t->jobs[i].shape];
			int64_t cpu = 0, gpu = 0;
			for (int r = 0; r < sh->nroles; r++) {
				cpu += (int64_t)sh->role[r].count * sh->role[r].cpu_milli;
				gpu += (int64_t)sh->role[r].count *
				       (sh->role[r].gpu_milli ? sh->role[r].gpu_milli
							      : 1000LL * sh->role[r].gpus);
			}
			v[i] = cpu;
			tasks += sh->tasks;
			gpu_jobs += gpu > 0;
		}
		percentiles(out, "cores per job", v, n, 1000, "cores");
		for (int64_t i = 0; i < n; i++) {
			const struct scn_trace_shape *sh = &t->shapes[t->jobs[i].shape];
			int64_t gpu = 0;
			for (int r = 0; r < sh->nroles; r++)
				gpu += (int64_t)sh->role[r].count *
				       (sh->role[r].gpu_milli ? sh->role[r].gpu_milli
							      : 1000LL * sh->role[r].gpus);
			v[i] = gpu;
		}
		if (gpu_jobs)
			percentiles(out, "GPUs per job", v, n, 1000, "GPUs");
		fprintf(out, "  tasks                  %lld\n  jobs with GPUs         %lld\n",
			(long long)tasks, (long long)gpu_jobs);
		int64_t reqs = 0;
		for (int64_t i = 0; i < n; i++)
			reqs += t->jobs[i].req_us >= 0;
		fprintf(out, "  with requested time    %lld\n", (long long)reqs);
		free(v);
		kinds_info(out, t);
	}
	fprintf(out, "  left out               ");
	int any = 0;
	for (int w = 0; w < TRS_NSKIP; w++)
		if (t->skipped[w]) {
			fprintf(out, "%s%s %lld", any ? ", " : "",
				scn_trace_skip_name((enum scn_trace_skip)w), (long long)t->skipped[w]);
			any = 1;
		}
	fprintf(out, "%s\n  clamped                %lld\n", any ? "" : "none",
		(long long)t->clamped);
	if (t->capped >= 0)
		fprintf(out, "  capped at request      %lld\n", (long long)t->capped);
	if (t->killed >= 0)
		fprintf(out, "  killed at request      %lld\n", (long long)t->killed);
	return 0;
}
