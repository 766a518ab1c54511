/* scn_traces.c - the scenario's `trace:` blocks (docs/traces.md): their
 * options (format, path, windows, filters, offers), node lists that
 * become node groups of the cluster, arrivals taken from a trace, and job
 * groups that replay a trace (each row fitted to the cluster, GPU model
 * constraints, offers padded) or a Spark application's event log; the
 * order an offer-only trace is run in (scn_offer_order).
 *
 * It may call the value readers (scn_value.c) and the readers of
 * input/: trace.h, sparklog.h, spark_app.h.  The cluster and workload
 * sections call it; it calls neither.
 */
#include "scn_int.h"

#include "models.h"
#include "rng.h"
#include "scn_app.h"
#include "spark_app.h"
#include "sparklog.h"
#include "trace.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void scn_offer_order(struct scn *s, uint32_t replication)
{
	for (int i = 0; i < s->ntraces; i++)
		trace_offer_order(s->traces[i], replication);
}

bool scn_trace_strict;

static const char *const trace_src_keys[] = {"format", "path"};
static const char *const trace_node_entry_keys[] = {"name", "trace", "cpu_speed", "network",
						     "machine"};
static const char *const trace_keys[] = {"format", "path", "window", "first", "users",
					 "queues", "kinds", "time_scale", "executor",
					 "completed_only", "strict", "offer", "offer_pad",
					 "drop_nonpositive", "cap_at_request", "kill_at_request",
					 "sample", "arrivals", "estimate", "preempted", "resume_cost"};
static const char *const sample_keys[] = {"jobs", "seed"};
static const char *const arrivals_keys[] = {"batch", "every"};
static const char *const not_keys[] = {"not"};
static const char *const window_keys[] = {"from", "to"};
static const char *const trace_exec_keys[] = {"cores", "memory"};

/* format: a known trace format. */
static int trace_format_key(struct ld *ld, const struct yn *v, const char **out)
{
	const char *names[32];
	int n = 0;
	for (int i = 0; i < trace_nformats && n < 32; i++)
		names[n++] = trace_formats[i]->name;
	char list[512];
	if (v->kind == YN_SCALAR && trace_format(v->str)) {
		*out = trace_format(v->str)->name;
		return 0;
	}
	const char *sug = v->kind == YN_SCALAR ? scn_near(v->str, names, n) : NULL;
	if (sug)
		return scn_fail(ld, v, "unknown trace format %s (did you mean '%s'?)", scn_got(ld, v), sug);
	return scn_fail(ld, v, "unknown trace format %s (known: %s)", scn_got(ld, v),
		    scn_join(names, n, list, sizeof list));
}

/* path: a file next to the scenario (or absolute), which must open. */
static int trace_path(struct ld *ld, const struct yn *m, const char *what, char **out)
{
	const struct yn *v = scn_need(ld, m, "path", what, NULL);
	if (!v)
		return -1;
	if (v->kind != YN_SCALAR || !*v->str)
		return scn_fail(ld, v, "expected a file name, got %s", scn_got(ld, v));
	char *p = scn_resolve(ld->s->path, v->str);
	struct stat st;
	if (stat(p, &st) || !S_ISDIR(st.st_mode)) { /* (a folder: a format of tables) */
		const char *why;
		FILE *f = fopen_regular(p, &why);
		if (!f) {
			char note[4200];
			scn_fail(ld, v, "cannot open trace %s%s: %s", scn_got(ld, v),
				 scn_path_note(ld->s->path, v->str, p, note, sizeof note), why);
			free(p);
			return -1;
		}
		fclose(f);
	}
	*out = p;
	struct scn *s = ld->s; /* kept: what the scenario read (a sweep's state hashes it) */
	s->inputs = xrealloc(s->inputs, (size_t)(s->ninputs + 1) * sizeof *s->inputs);
	s->inputs[s->ninputs++] = xstrdup(p);
	return 0;
}

/* A list of names (users, queues, kinds) as trace_opts holds them: a
 * name, a list, or {not: a name or a list} (*not set: all but those). */
static int name_list(struct ld *ld, const struct yn *v, const char *what, const char ***out,
		     int *n, bool *not)
{
	if (v->kind == YN_MAP) {
		if (CHECK_MAP(ld, v, what, not_keys) < 0 || !(v = scn_need(ld, v, "not", what, NULL)))
			return -1;
		*not = true;
	}
	if (scn_check_items(ld, v, what) < 0)
		return -1;
	*n = scn_nitems(v);
	*out = xcalloc((size_t)(*n ? *n : 1), sizeof **out);
	for (int i = 0; i < *n; i++)
		(*out)[i] = scn_item(v, i)->str; /* the tree outlives the import */
	return 0;
}

/* The trace's job keys into o; the path resolved into *path. */
static int load_trace_opts(struct ld *ld, const struct yn *m, struct trace_opts *o, char **path)
{
	const struct yn *v;
	*o = (struct trace_opts){.time_scale = 1, .exec_cores = 1, .exec_mem_mib = 1024,
				 .strict = scn_trace_strict};
	if (CHECK_MAP(ld, m, "trace", trace_keys) < 0 ||
	    ((v = yn_get(m, "format")) && trace_format_key(ld, v, &o->format) < 0))
		return -1;
	if ((v = yn_get(m, "window"))) {
		const struct yn *w;
		if (CHECK_MAP(ld, v, "window", window_keys) < 0 ||
		    ((w = yn_get(v, "from")) && scn_get_time(ld, w, NONNEG, &o->from_us) < 0) ||
		    ((w = yn_get(v, "to")) && scn_get_time(ld, w, POSITIVE, &o->to_us) < 0))
			return -1;
		if (o->to_us && o->to_us <= o->from_us)
			return scn_fail(ld, yn_get(v, "to"), "window's to must come after its from");
	}
	long long first = 0;
	if ((v = yn_get(m, "first")) && scn_get_ll(ld, v, 1, MAX_JOBS, &first) < 0)
		return -1;
	o->first = first;
	o->sample_seed = ld->s->seed;
	if ((v = yn_get(m, "sample"))) { /* {jobs: K, seed: S}: Python's shuffle (pyrandom.h) */
		const struct yn *w;
		long long k = 0;
		if (CHECK_MAP(ld, v, "sample", sample_keys) < 0 ||
		    !(w = scn_need(ld, v, "jobs", "sample", NULL)) ||
		    scn_get_ll(ld, w, 1, MAX_JOBS, &k) < 0 ||
		    ((w = yn_get(v, "seed")) && scn_get_seed(ld, w, &o->sample_seed) < 0))
			return -1;
		o->sample_jobs = k;
		if (first)
			return scn_fail(ld, yn_get(m, "first"), "first does not go with sample: the "
				    "sample draws from the records in file order, first takes them "
				    "in submission order (use a window)");
	}
	if ((v = yn_get(m, "arrivals"))) { /* {batch: N, every: T} */
		const struct yn *w;
		long long n = 0;
		if (CHECK_MAP(ld, v, "arrivals", arrivals_keys) < 0 ||
		    !(w = scn_need(ld, v, "batch", "arrivals", NULL)) ||
		    scn_get_ll(ld, w, 1, MAX_JOBS, &n) < 0 ||
		    !(w = scn_need(ld, v, "every", "arrivals", NULL)) ||
		    scn_get_time(ld, w, NONNEG, &o->batch_every_us) < 0)
			return -1;
		o->batch = n;
	}
	if ((v = yn_get(m, "preempted"))) { /* resume | restart */
		if (v->kind == YN_SCALAR && !strcmp(v->str, "restart"))
			o->restart = true;
		else if (v->kind != YN_SCALAR || strcmp(v->str, "resume"))
			return scn_fail(ld, v, "expected one of resume, restart for preempted, got %s",
				    scn_got(ld, v));
	}
	if ((v = yn_get(m, "resume_cost"))) {
		if (scn_get_time(ld, v, NONNEG, &o->resume_cost_us) < 0)
			return -1;
		if (o->restart)
			return scn_fail(ld, v, "resume_cost does not go with preempted: restart (a "
				    "job that restarts resumes nothing)");
	}
	if ((v = yn_get(m, "estimate"))) {
		if (v->kind != YN_SCALAR || !*v->str)
			return scn_fail(ld, v, "expected a column's name for estimate, got %s",
				    scn_got(ld, v));
		o->estimate = v->str; /* the tree outlives the import */
	}
	if ((v = yn_get(m, "time_scale"))) {
		if (scn_get_num(ld, v, &o->time_scale) < 0)
			return -1;
		if (!(o->time_scale >= 1e-6 && o->time_scale <= 1e6))
			return scn_fail(ld, v, "time_scale %s is outside [1e-06, 1e+06]", scn_got(ld, v));
	}
	if ((v = yn_get(m, "executor"))) {
		const struct yn *w;
		if (CHECK_MAP(ld, v, "executor", trace_exec_keys) < 0 ||
		    ((w = yn_get(v, "cores")) &&
		     scn_get_lim(ld, w, 1, MAX_CORES, "cores per executor", &o->exec_cores) < 0) ||
		    ((w = yn_get(v, "memory")) && scn_get_size(ld, w, 1, &o->exec_mem_mib) < 0))
			return -1;
	}
	if (((v = yn_get(m, "completed_only")) && scn_get_bool(ld, v, &o->completed_only) < 0) ||
	    ((v = yn_get(m, "strict")) && scn_get_bool(ld, v, &o->strict) < 0) ||
	    ((v = yn_get(m, "offer")) && scn_get_bool(ld, v, &o->offer) < 0) ||
	    ((v = yn_get(m, "drop_nonpositive")) && scn_get_bool(ld, v, &o->drop_nonpositive) < 0) ||
	    ((v = yn_get(m, "cap_at_request")) && scn_get_bool(ld, v, &o->cap_at_request) < 0) ||
	    ((v = yn_get(m, "kill_at_request")) && scn_get_bool(ld, v, &o->kill_at_request) < 0))
		return -1;
	if (o->offer && (o->drop_nonpositive || o->cap_at_request || o->kill_at_request ||
			 o->batch || o->sample_jobs)) {
		const char *key = o->drop_nonpositive ? "drop_nonpositive"
				  : o->cap_at_request ? "cap_at_request"
				  : o->kill_at_request ? "kill_at_request"
				  : o->batch ? "arrivals" : "sample";
		return scn_fail(ld, yn_get(m, key), "%s does not go with offer: offer-only reads "
			    "no times", key);
	}
	if (o->cap_at_request && o->kill_at_request)
		return scn_fail(ld, yn_get(m, "kill_at_request"), "kill_at_request does not go with "
			    "cap_at_request: a job over its request is either cut to it (and "
			    "completes) or killed at it");
	if ((v = yn_get(m, "offer_pad"))) {
		if (scn_get_num(ld, v, &o->offer_pad) < 0)
			return -1;
		if (!(o->offer_pad > 0 && o->offer_pad <= 100))
			return scn_fail(ld, v, "offer_pad %s is outside (0, 100] (a multiple of the "
				    "cluster's GPU capacity)", scn_got(ld, v));
		if (!o->offer)
			return scn_fail(ld, v, "offer_pad goes with offer: true");
	}
	if (o->offer && (v = yn_get(m, "window")))
		return scn_fail(ld, v, "window does not go with offer: offer-only reads no times "
			    "(first N takes the first records instead)");
	o->offer_seed = ld->s->seed;
	o->strict |= scn_trace_strict;
	const char **users = NULL, **queues = NULL, **kinds = NULL;
	int rc = ((v = yn_get(m, "users")) &&
		  name_list(ld, v, "users", &users, &o->nusers, &o->users_not) < 0) ||
		 ((v = yn_get(m, "queues")) &&
		  name_list(ld, v, "queues", &queues, &o->nqueues, &o->queues_not) < 0) ||
		 ((v = yn_get(m, "kinds")) &&
		  name_list(ld, v, "kinds", &kinds, &o->nkinds, &o->kinds_not) < 0);
	o->users = users; /* freed by the caller, error or not */
	o->queues = queues;
	o->kinds = kinds;
	if (rc)
		return -1;
	return trace_path(ld, m, "trace", path);
}

static int trace_err(struct ld *ld, const struct yn *at, const char *err);

/* `- name: N, trace: {format, path}` in the cluster: the node groups of
 * the node list, named N1, N2, ... in order of first appearance, labels
 * auto (cpu, or gpu and the model). */
int scn_load_trace_nodes(struct ld *ld, const struct yn *m, int *cap)
{
	struct scn *s = ld->s;
	const struct yn *v, *t = yn_get(m, "trace");
	const char *format = NULL;
	char *prefix = NULL, *path = NULL, err[1024];
	double speed = 1, net = SCN_NET_MIB_S;
	if (CHECK_MAP(ld, m, "node group", trace_node_entry_keys) < 0 ||
	    !(v = scn_need(ld, m, "name", "node group", NULL)) ||
	    scn_get_ident(ld, v, ID_NAME, "node group name", &prefix) < 0)
		return -1;
	int rc = CHECK_MAP(ld, t, "trace", trace_src_keys);
	if (!rc && (v = yn_get(t, "format")))
		rc = trace_format_key(ld, v, &format);
	if (!rc && (v = yn_get(m, "cpu_speed"))) {
		rc = scn_get_num(ld, v, &speed);
		if (!rc && (speed < MIN_SPEED || speed > MAX_SPEED))
			rc = scn_fail(ld, v, "cpu_speed %s is outside the limits [%g, %g]", scn_got(ld, v),
				  MIN_SPEED, MAX_SPEED);
	}
	if (!rc && (v = yn_get(m, "network")))
		rc = scn_get_bandwidth(ld, v, &net);
	enum trace_machine machine = TRM_DEFAULT;
	if (!rc && (v = yn_get(m, "machine"))) {
		if (v->kind == YN_SCALAR && !strcmp(v->str, "nodes"))
			machine = TRM_NODES;
		else if (v->kind == YN_SCALAR && !strcmp(v->str, "pool"))
			machine = TRM_POOL;
		else
			rc = scn_fail(ld, v, "expected one of nodes, pool for machine, got %s",
				      scn_got(ld, v));
	}
	if (!rc)
		rc = trace_path(ld, t, "trace", &path);
	int first = s->ngroups;
	if (!rc && trace_read_nodes(path, format, prefix, machine, &s->groups, &s->ngroups, err,
				    sizeof err) < 0)
		rc = trace_err(ld, t, err); /* its own file:line:col, where it has one */
	*cap = s->ngroups > *cap ? s->ngroups : *cap; /* trace_read_nodes grew it */
	for (int g = first; !rc && g < s->ngroups; g++) {
		struct scn_node_group *ng = &s->groups[g];
		ng->pos = scn_pos_at(ld, m);
		ng->cpu_speed = speed;
		ng->net_mib_s = net;
		if (ng->cores < 1 || ng->cores > SCN_MAX_NODE_CORES || ng->mem_mib < 1 ||
		    ng->gpus > MAX_GPUS)
			rc = scn_fail(ld, t, "%s: a node of %d cores, %lld MiB and %d GPUs is outside "
				  "the limits (cores 1..%d, memory >= 1 MiB, GPUs <= %d)", path,
				  ng->cores, (long long)ng->mem_mib, ng->gpus, SCN_MAX_NODE_CORES,
				  MAX_GPUS);
		else if (ng->gpus == 0)
			rc = scn_add_label(ld, t, "cpu", &ng->labels);
		else /* a node list's GPUs without a model: the gpu label alone */
			rc = scn_add_label(ld, t, "gpu", &ng->labels) < 0 ? -1
				: ng->gpu_model ? scn_add_label(ld, t, ng->gpu_model, &ng->labels) : 0;
	}
	free(prefix);
	free(path);
	return rc;
}

/* What load_trace_opts allocated (the name lists; the names are the
 * tree's). */
static void trace_opts_free(struct trace_opts *o)
{
	free((void *)o->users);
	free((void *)o->queues);
	free((void *)o->kinds);
}

/* The scenario owns trace tr from now (scn.traces). */
static void keep_trace(struct scn *s, struct scn_trace *tr)
{
	s->traces = xrealloc(s->traces, (size_t)(s->ntraces + 1) * sizeof *s->traces);
	s->traces[s->ntraces++] = tr;
}

/* A trace whose filters and skips leave no job: an error at its entry. */
static int no_job(struct ld *ld, const struct yn *t, const struct scn_trace *tr)
{
	return scn_fail(ld, t, "trace '%s' leaves no job (%lld records read, %lld filtered, %lld "
		    "skipped)", tr->path, (long long)tr->records,
		    (long long)tr->skipped[TRS_FILTER],
		    (long long)(tr->records - tr->skipped[TRS_FILTER]));
}

/* A trace's checks once read: `kinds` only for a format with kinds (the
 * filter would keep nothing, or everything), and its last arrival within
 * the limit of times. */
static int trace_checks(struct ld *ld, const struct yn *t, const char *fmt,
			const struct scn_trace *tr)
{
	const struct trace_format *f = trace_format(fmt);
	const struct yn *k = yn_get(t, "kinds");
	if (k && f && !f->kinds)
		return scn_fail(ld, k, "format '%s' has no job kinds (swf and alibaba-pai-2020 have: "
			    "docs/traces.md, \"Job kinds\")", fmt);
	if (tr && tr->njobs && tr->jobs[tr->njobs - 1].arrival_us > MAX_TIME_US)
		return scn_fail(ld, t, "trace '%s': its last job arrives at %.0fs, past the limit of "
			    "%llds", tr->path, (double)tr->jobs[tr->njobs - 1].arrival_us / 1e6,
			    MAX_TIME_S);
	return 0;
}

/* `arrival: {trace: {...}}`: job i of the group arrives when the i-th job
 * of the trace (after its filters) was submitted; the group's model and
 * keys say what each job is, the trace only when it comes (docs/traces.md,
 * "Job kinds"). */
int scn_arrival_trace(struct ld *ld, const struct yn *a, const struct yn *c,
			 struct scn_job_group *j)
{
	const struct yn *t = yn_get(a, "trace");
	if (j->model == &jm_trace)
		return scn_fail(ld, a, "a job group of type trace is a workload entry `- name: N, "
			    "trace: {...}`; arrival from a trace is for the other job models");
	if (a->nkids != 2)
		return scn_fail(ld, a, "arrival from a trace takes no other key (got %d keys)",
			    a->nkids / 2);
	if (c)
		return scn_fail(ld, c, "count comes from the trace's jobs when the arrival is a trace: "
			    "leave it out");
	struct trace_opts o;
	char *path = NULL, err[1024];
	int rc = load_trace_opts(ld, t, &o, &path) < 0 ? -1 : 0;
	const char *fmt = o.format;
	if (!rc && o.offer)
		rc = scn_fail(ld, yn_get(t, "offer"), "offer does not go with an arrival from a trace "
			  "(offer-only places the trace's own jobs)");
	if (!rc && !fmt && !(fmt = trace_detect(path, err, sizeof err)))
		rc = trace_err(ld, t, err);
	if (!rc && !strcmp(fmt, "spark-eventlog"))
		rc = scn_fail(ld, t, "a Spark event log is one application, not a list of arrivals: "
			  "write `- name: N, trace: {...}` in the workload for it");
	if (!rc)
		rc = trace_checks(ld, t, fmt, NULL);
	struct scn_trace *tr = rc ? NULL : trace_read(path, &o, err, sizeof err);
	if (!rc && !tr)
		rc = trace_err(ld, t, err);
	trace_opts_free(&o);
	free(path);
	if (rc)
		return -1;
	tr->strict = o.strict;
	struct scn *s = ld->s;
	keep_trace(s, tr);
	if (tr->njobs == 0)
		return no_job(ld, t, tr);
	if (trace_checks(ld, t, fmt, tr) < 0)
		return -1;
	j->trace = tr;
	j->arrival = (struct scn_arrival){.kind = SCN_ARR_TRACE};
	j->count = (int)tr->njobs;
	return 0;
}

static const char *const trace_job_keys[] = {"name", "trace", "require", "prefer",
					     "task_max_failures"};

/* What in a trace's shape k no node of the cluster can ever hold: a
 * reason (TRS_TOO_BIG, TRS_GPU_MODEL) with what it asks in why, or
 * TRS_FILTER when it fits.  A role fits a node group whose nodes each
 * hold one of its executors (whole cores and GPUs, as the trace model
 * asks them: workloads/trace.c) and carry its labels; the job fits when
 * its roles fit and the cluster holds all its executors at once. */
static enum scn_trace_skip shape_fit(const struct scn *s, const struct scn_job_group *j,
				     const struct scn_trace *t, const struct scn_trace_shape *ts,
				     const bool *unmet, char *why, size_t len)
{
	for (int r = 0; r < ts->nroles; r++)
		if (ts->role[r].constraint && unmet[ts->role[r].constraint - 1]) {
			snprintf(why, len, "GPU models %s, of which the cluster has none",
				 t->constraints[ts->role[r].constraint - 1]);
			return TRS_GPU_MODEL;
		}
	int64_t need_cores = 0, need_gpus = 0, have_cores = 0, have_gpus = 0;
	int64_t need_mem = 0, have_mem = 0;
	for (int g = 0; g < s->ngroups; g++) {
		have_cores += (int64_t)s->groups[g].count * s->groups[g].cores;
		have_gpus += (int64_t)s->groups[g].count * s->groups[g].gpus;
		have_mem += (int64_t)s->groups[g].count * s->groups[g].mem_mib;
	}
	for (int r = 0; r < ts->nroles; r++) {
		const struct scn_trace_role *tr = &ts->role[r];
		int cores = (tr->cpu_milli + 999) / 1000;
		cores = cores > 0 ? cores : 1;
		int gpus = tr->gpus ? tr->gpus : tr->gpu_milli > 0;
		uint64_t req = tr->require | j->require;
		bool sized = false, labelled = false;
		for (int g = 0; g < s->ngroups && !labelled; g++) {
			const struct scn_node_group *ng = &s->groups[g];
			bool fits = ng->cores >= cores && ng->mem_mib >= tr->mem_mib && ng->gpus >= gpus;
			sized |= fits;
			labelled = fits && (ng->labels & req) == req;
		}
		if (!labelled) {
			snprintf(why, len, "an executor of %d cores, %lld MiB, %d GPUs%s", cores,
				 (long long)tr->mem_mib, gpus,
				 sized ? " on nodes with its labels: none has them" :
					 ": no node holds one");
			return sized ? TRS_GPU_MODEL : TRS_TOO_BIG;
		}
		need_cores += (int64_t)tr->count * cores;
		need_gpus += (int64_t)tr->count * gpus;
		need_mem += (int64_t)tr->count * tr->mem_mib;
	}
	if (need_cores > have_cores || need_gpus > have_gpus || need_mem > have_mem) {
		snprintf(why, len, "%lld cores, %lld MiB and %lld GPUs at once; the cluster has "
			 "%lld, %lld and %lld", (long long)need_cores, (long long)need_mem,
			 (long long)need_gpus, (long long)have_cores, (long long)have_mem,
			 (long long)have_gpus);
		return TRS_TOO_BIG;
	}
	return TRS_FILTER;
}

/* Jobs of trace t no node can ever hold are left out (counted by reason),
 * or under strict the first is an error. */
static int trace_fit(struct ld *ld, const struct yn *at, struct scn_trace *t,
		     const struct scn_job_group *j, const bool *unmet)
{
	uint8_t *bad = xcalloc((size_t)t->nshapes, 1);
	char why[256];
	for (int k = 0; k < t->nshapes; k++)
		bad[k] = (uint8_t)shape_fit(ld->s, j, t, &t->shapes[k], unmet, why, sizeof why);
	int64_t kept = 0;
	int rc = 0;
	for (int64_t i = 0; i < t->njobs; i++) {
		int k = t->jobs[i].shape;
		if (!bad[k]) {
			t->jobs[kept++] = t->jobs[i];
			continue;
		}
		if (t->strict) {
			shape_fit(ld->s, j, t, &t->shapes[k], unmet, why, sizeof why);
			rc = scn_fail(ld, at, "%s: job %d asks for %s (%s; strict: not skipped)", t->path,
				  t->jobs[i].id, why, scn_trace_skip_name(bad[k]));
			break;
		}
		t->skipped[bad[k]]++;
	}
	free(bad);
	if (!rc)
		t->njobs = kept;
	return rc;
}

/* The GPU model constraints of trace t as labels: constraint "A|B|A"
 * becomes the label "A|B" (its models once each, sorted), carried by the
 * node groups whose GPU model is A or B; a single model is that model's
 * label (labels: auto gives it).  Each role with a constraint then
 * requires its label.  A constraint no node group meets has no label:
 * unmet[c] says so (trace_fit leaves its jobs out: gpu-model). */
static int trace_constraints(struct ld *ld, const struct yn *at, struct scn_trace *t,
			     bool *unmet)
{
	struct scn *s = ld->s;
	uint64_t *bit = xcalloc((size_t)(t->nconstraints ? t->nconstraints : 1), sizeof *bit);
	int rc = 0;
	for (int c = 0; c < t->nconstraints && !rc; c++) {
		/* its models, sorted, once each */
		char *spec = xstrdup(t->constraints[c]), *models[64];
		int n = 0;
		for (char *p = strtok(spec, "|"); p && n < 64; p = strtok(NULL, "|")) {
			int k = 0;
			while (k < n && strcmp(models[k], p) < 0)
				k++;
			if (k < n && strcmp(models[k], p) == 0)
				continue;
			memmove(models + k + 1, models + k, (size_t)(n - k) * sizeof *models);
			models[k] = p;
			n++;
		}
		char name[512] = "";
		for (int k = 0; k < n; k++)
			snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s", k ? "|" : "",
				 models[k]);
		bool met = false;
		for (int g = 0; g < s->ngroups; g++) {
			const char *m = s->groups[g].gpu_model;
			for (int k = 0; m && k < n && !met; k++)
				met = strcmp(m, models[k]) == 0;
		}
		unmet[c] = !met;
		if (met) {
			uint64_t b = 0;
			for (int g = 0; g < s->ngroups && !rc; g++) {
				const char *m = s->groups[g].gpu_model;
				bool in = false;
				for (int k = 0; m && k < n && !in; k++)
					in = strcmp(m, models[k]) == 0;
				if (in) {
					b = 0;
					rc = scn_add_label(ld, at, name, &b);
					s->groups[g].labels |= b;
				}
			}
			bit[c] = b;
		}
		free(spec);
	}
	for (int k = 0; k < t->nshapes && !rc; k++)
		for (int r = 0; r < t->shapes[k].nroles; r++) {
			struct scn_trace_role *tr = &t->shapes[k].role[r];
			if (tr->constraint)
				tr->require |= bit[tr->constraint - 1];
		}
	free(bit);
	return rc;
}

/* A trace job's GPU demand, milli-GPUs. */
static int64_t row_gpu(const struct scn_trace *t, const struct scn_trace_job *j)
{
	const struct scn_trace_shape *sh = &t->shapes[j->shape];
	int64_t d = 0;
	for (int r = 0; r < sh->nroles; r++)
		d += (int64_t)sh->role[r].count *
		     (sh->role[r].gpus ? 1000LL * sh->role[r].gpus : sh->role[r].gpu_milli);
	return d;
}

/* FGD's volume rule (../shared/reference/fgd.md §5): an offer-only trace
 * grown, by drawing its jobs uniformly with replacement (keyed by the
 * seed) and appending the copies, until the offered GPU demand reaches
 * pad x the cluster's GPU capacity, stopping at the first draw that
 * would pass it; or shrunk, by removing jobs drawn at random, until it
 * is within it.  Then the offer's times again: one every 2 us, each held
 * until 1 us after the last. */
static int offer_pad(struct ld *ld, const struct yn *at, struct scn_trace *t, double pad)
{
	const struct scn *s = ld->s;
	int64_t cap = 0, total = 0;
	for (int g = 0; g < s->ngroups; g++)
		cap += (int64_t)s->groups[g].count * s->groups[g].gpus * 1000;
	for (int64_t i = 0; i < t->njobs; i++)
		total += row_gpu(t, &t->jobs[i]);
	if (!cap || !total)
		return scn_fail(ld, at, "offer_pad: %s", !cap ? "the cluster has no GPU"
							  : "the offered jobs ask for no GPU");
	double target = pad * (double)cap;
	t->orig_count = xcalloc((size_t)t->nshapes, sizeof *t->orig_count);
	for (int64_t i = 0; i < t->njobs; i++)
		t->orig_count[t->jobs[i].shape]++;
	struct rng_key k = rng_key(s->seed, 0, RNG_USER, 0x70616464u, 0, 0);
	uint64_t draw = 0;
	int64_t n0 = t->njobs;
	if ((double)total <= target) {
		int64_t capj = t->njobs;
		for (;;) {
			const struct scn_trace_job *src = &t->jobs[rng_u64(k, draw++) % (uint64_t)n0];
			int64_t d = row_gpu(t, src);
			if ((double)(total + d) > target)
				break;
			if (t->njobs >= MAX_JOBS)
				return scn_fail(ld, at, "offer_pad: more than %d jobs", MAX_JOBS);
			if (t->njobs == capj) {
				ptrdiff_t at_src = src - t->jobs;
				capj = capj * 2 + 16;
				t->jobs = xrealloc(t->jobs, (size_t)capj * sizeof *t->jobs);
				src = t->jobs + at_src;
			}
			t->jobs[t->njobs++] = *src;
			total += d;
		}
	} else {
		while ((double)total > target && t->njobs > 1) {
			int64_t r = (int64_t)(rng_u64(k, draw++) % (uint64_t)t->njobs);
			total -= row_gpu(t, &t->jobs[r]);
			memmove(t->jobs + r, t->jobs + r + 1,
				(size_t)(t->njobs - r - 1) * sizeof *t->jobs);
			t->njobs--;
		}
	}
	trace_offer_times(t);
	return 0;
}

/* A trace reader's message: as it is when it names its file's line
 * ("f:12:3: ..."), else at the scenario's trace entry. */
static int trace_err(struct ld *ld, const struct yn *at, const char *err)
{
	const char *c = strchr(err, ':');
	while (c && !(c[1] >= '0' && c[1] <= '9'))
		c = strchr(c + 1, ':');
	if (c && c[1] >= '0' && c[1] <= '9') {
		snprintf(ld->err, ld->errlen, "%s", err);
		return -1;
	}
	return scn_fail(ld, at, "%s", err);
}

/* A Spark event log in the workload: its application as one job of
 * model spark-app, its executors the policy's to place (as many as were
 * up at once, each of the log's most common size), its DAG and run
 * times the log's (workloads/sparkapp.c). */
static int load_app_job(struct ld *ld, const struct yn *at, const char *path, bool strict,
			struct scn_job_group *j)
{
	struct scn *s = ld->s;
	char err[1024];
	struct slog_opts so = {.strict = strict};
	struct slog *l = slog_read(path, &so, err, sizeof err);
	if (!l)
		return trace_err(ld, at, err);
	int64_t t0 = spapp_t0(l);
	struct scn_app *app = t0 >= 0 ? spapp_of(l, t0, SPAPP_NO_PREFS, err, sizeof err) : NULL;
	slog_free(l);
	if (!app || app->nstages == 0) {
		scn_app_free(app);
		return t0 < 0 ? scn_fail(ld, at, "%s: no ApplicationStart and no executor: nothing to "
				     "replay from", path)
			      : app ? scn_fail(ld, at, "%s: the log has no stage to replay", path)
				    : (snprintf(ld->err, ld->errlen, "%s", err), -1);
	}
	s->apps = xrealloc(s->apps, (size_t)(s->napps + 1) * sizeof *s->apps);
	s->apps[s->napps++] = app;
	j->type = JM_SPARK_APP;
	j->model = &jm_spark_app;
	j->ops = jm_spark_app.ops;
	j->app = app;
	j->count = 1;
	j->arrival.kind = SCN_ARR_FIXED;
	j->task_cpus = app->task_cpus;
	j->params = xcalloc(1, 1);
	return 0;
}

/* `- name: N, trace: {...}` in the workload: the jobs of a trace, one
 * job group of model `trace` holding them all. */
int scn_load_trace_job(struct ld *ld, const struct yn *m, struct scn_job_group *j)
{
	struct scn *s = ld->s;
	const struct yn *v, *t = yn_get(m, "trace");
	struct trace_opts o = {0};
	char *path = NULL, err[1024];
	j->pos = scn_pos_at(ld, m);
	j->task_cpus = 1;
	j->task_max_failures = 4;
	j->arrival.kind = SCN_ARR_TRACE;
	j->model = &jm_trace;
	j->type = JM_TRACE;
	j->ops = jm_trace.ops;
	int rc = 0;
	if (CHECK_MAP(ld, m, "job group", trace_job_keys) < 0 ||
	    !(v = scn_need(ld, m, "name", "job group", NULL)) ||
	    scn_get_ident(ld, v, ID_NAME, "job group name", &j->name) < 0 ||
	    ((v = yn_get(m, "require")) && scn_job_labels(ld, v, "require", &j->require) < 0) ||
	    ((v = yn_get(m, "prefer")) && scn_job_labels(ld, v, "prefer", &j->prefer) < 0) ||
	    scn_opt_lim(ld, m, "task_max_failures", 1, 255, "attempts per task",
		    &j->task_max_failures) < 0 ||
	    load_trace_opts(ld, t, &o, &path) < 0)
		rc = -1;
	const char *fmt = o.format;
	if (!rc && !fmt && !(fmt = trace_detect(path, err, sizeof err)))
		rc = trace_err(ld, t, err);
	if (!rc && !strcmp(fmt, "spark-eventlog")) { /* one application: a spark-app job */
		rc = load_app_job(ld, t, path, o.strict, j);
		trace_opts_free(&o);
		free(path);
		return rc;
	}
	if (!rc)
		rc = trace_checks(ld, t, fmt, NULL);
	struct scn_trace *tr = rc ? NULL : trace_read(path, &o, err, sizeof err);
	if (!rc && !tr)
		rc = trace_err(ld, t, err);
	trace_opts_free(&o);
	free(path);
	if (rc)
		return -1;
	double pad = o.offer_pad;
	tr->strict = o.strict;
	keep_trace(s, tr);
	j->trace = tr;
	s->offer |= tr->offer;
	bool *unmet = xcalloc((size_t)tr->nconstraints + 1, sizeof *unmet);
	rc = trace_constraints(ld, t, tr, unmet) < 0 || trace_fit(ld, t, tr, j, unmet) < 0;
	free(unmet);
	if (rc || (tr->njobs && pad > 0 && offer_pad(ld, yn_get(t, "offer_pad"), tr, pad) < 0))
		return -1;
	if (tr->njobs == 0)
		return no_job(ld, t, tr);
	if (trace_checks(ld, t, fmt, tr) < 0)
		return -1;
	j->count = (int)tr->njobs;
	return 0;
}
