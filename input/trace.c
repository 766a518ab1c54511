/* trace.c - the trace builder, the format registry, node lists, warnings
 * and `trace info` (input/trace.h). */
#include "trace.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load.h"
#include "rng.h"
#include "util.h"
#include "zread.h"

/* Jobs of one trace, at most: the loader's limit of jobs of a workload. */
#define TR_MAX_JOBS 10000000

extern const struct trace_format tf_swf;
extern const struct trace_format tf_openb;
extern const struct trace_format tf_pai;
extern const struct trace_format tf_philly;

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
};
const int trace_nformats = ARRAY_LEN(trace_formats);

const struct trace_format *trace_format(const char *name)
{
	for (int i = 0; i < trace_nformats; i++)
		if (strcmp(trace_formats[i]->name, name) == 0)
			return trace_formats[i];
	return NULL;
}

/* ---- interned strings (users, queues) -------------------------------- */

struct strtab {
	char ***names; int *n;   /* the trace's array and count */
	int cap;
	int32_t *slot;           /* open addressing: index + 1, 0 empty */
	size_t mask;
};

static uint64_t hash_bytes(const void *p, size_t n)
{
	uint64_t h = fnv1a(1469598103934665603ULL, p, n); /* (util.h: the short basis) */
	return h ^ (h >> 29);
}

static int32_t intern(struct strtab *st, const char *s)
{
	if (!st->slot) {
		st->mask = 255;
		st->slot = xcalloc(st->mask + 1, sizeof *st->slot);
	}
	size_t len = strlen(s);
	size_t i = hash_bytes(s, len) & st->mask;
	for (; st->slot[i]; i = (i + 1) & st->mask)
		if (strcmp((*st->names)[st->slot[i] - 1], s) == 0)
			return st->slot[i] - 1;
	int32_t id = *st->n;
	xgrow(st->names, &st->cap, id + 1, sizeof **st->names);
	(*st->names)[id] = xstrdup(s);
	(*st->n)++;
	st->slot[i] = id + 1;
	if ((size_t)*st->n * 2 > st->mask) { /* rehash at half full */
		free(st->slot);
		st->mask = st->mask * 2 + 1;
		st->slot = xcalloc(st->mask + 1, sizeof *st->slot);
		for (int32_t k = 0; k < *st->n; k++) {
			const char *v = (*st->names)[k];
			size_t j = hash_bytes(v, strlen(v)) & st->mask;
			while (st->slot[j])
				j = (j + 1) & st->mask;
			st->slot[j] = k + 1;
		}
	}
	return id;
}

/* ---- fields, values for messages (trace.h) ---------------------------- */

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

int tr_split(char *line, size_t len, struct tr_field *f, int max)
{
	int n = 0;
	size_t i = 0;
	for (;;) {
		size_t s = i;
		while (i < len && line[i] != ',')
			i++;
		if (n == max)
			return max + 1;
		size_t a = s, e = i;
		while (a < e && blank(line[a]))
			a++;
		while (e > a && blank(line[e - 1]))
			e--;
		f[n++] = (struct tr_field){.s = line + a, .len = (int)(e - a), .col = (int)a + 1};
		bool last = i >= len;
		line[e] = 0;
		if (last)
			return n;
		i++;
	}
}

const char *tr_show(const char *s, size_t n, char *buf)
{
	size_t k = 0;
	for (size_t i = 0; i < n && i < 40; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			k += (size_t)snprintf(buf + k, 5, "\\x%02x", c);
		else
			buf[k++] = (char)c;
	}
	if (n > 40)
		k += (size_t)snprintf(buf + k, 4, "...");
	buf[k] = 0;
	return buf;
}

/* ---- the builder ---------------------------------------------------- */

struct tr_build {
	const struct trace_opts *o;
	const struct trace_format *f;
	struct scn_trace *t;
	char *err; size_t errlen;
	int64_t line;
	int64_t cap_jobs;
	int cap_shapes;
	int32_t *shslot; size_t shmask; /* shapes: index + 1, 0 empty */
	struct strtab users, queues, kinds, constraints;
	bool have_t0;
	int64_t kept_sorted;            /* jobs kept in a sorted format */
};

void tr_at(struct tr_build *b, int64_t line)
{
	b->line = line;
	b->t->records++;
}

const struct trace_opts *tr_opts(const struct tr_build *b)
{
	return b->o;
}

const char *tr_path(const struct tr_build *b)
{
	return b->t->path;
}

int tr_constraint(struct tr_build *b, const char *spec)
{
	return 1 + intern(&b->constraints, spec);
}

static int vfail(struct tr_build *b, int col, const char *suffix, const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	snprintf(b->err, b->errlen, "%s:%lld:%d: %s%s", b->t->path, (long long)b->line,
		 col > 0 ? col : 1, msg, suffix);
	return -1;
}

int tr_fail(struct tr_build *b, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(b, col, "", fmt, ap);
	va_end(ap);
	return -1;
}

int tr_skip(struct tr_build *b, enum scn_trace_skip why, int col, const char *fmt, ...)
{
	if (b->o->strict && why != TRS_FILTER && why != TRS_STATUS) {
		va_list ap;
		va_start(ap, fmt);
		vfail(b, col, " (strict: not skipped)", fmt, ap);
		va_end(ap);
		return -1;
	}
	b->t->skipped[why]++;
	return 0;
}

int tr_clamp(struct tr_build *b, int col, const char *fmt, ...)
{
	if (b->o->strict) {
		va_list ap;
		va_start(ap, fmt);
		vfail(b, col, " (strict: not clamped)", fmt, ap);
		va_end(ap);
		return -1;
	}
	b->t->clamped++;
	return 0;
}

/* The shape's canonical bytes (padding zeroed), so that equal shapes
 * hash and compare equal. */
static void canon(const struct scn_trace_shape *in, struct scn_trace_shape *out)
{
	memset(out, 0, sizeof *out);
	out->nroles = in->nroles;
	out->tasks = in->tasks;
	for (int r = 0; r < in->nroles && r < 2; r++) {
		const struct scn_trace_role *a = &in->role[r];
		struct scn_trace_role *c = &out->role[r];
		c->count = a->count;
		c->slots = a->slots;
		c->cpu_milli = a->cpu_milli;
		c->mem_mib = a->mem_mib;
		c->gpus = a->gpus;
		c->gpu_milli = a->gpu_milli;
		c->constraint = a->constraint;
		c->require = a->require;
	}
}

static int32_t shape_id(struct tr_build *b, const struct scn_trace_shape *in)
{
	struct scn_trace_shape sh;
	canon(in, &sh);
	struct scn_trace *t = b->t;
	if (!b->shslot) {
		b->shmask = 255;
		b->shslot = xcalloc(b->shmask + 1, sizeof *b->shslot);
	}
	size_t i = hash_bytes(&sh, sizeof sh) & b->shmask;
	for (; b->shslot[i]; i = (i + 1) & b->shmask)
		if (!memcmp(&t->shapes[b->shslot[i] - 1], &sh, sizeof sh))
			return b->shslot[i] - 1;
	int32_t id = t->nshapes;
	xgrow(&t->shapes, &b->cap_shapes, id + 1, sizeof *t->shapes);
	t->shapes[id] = sh;
	t->nshapes++;
	b->shslot[i] = id + 1;
	if ((size_t)t->nshapes * 2 > b->shmask) {
		free(b->shslot);
		b->shmask = b->shmask * 2 + 1;
		b->shslot = xcalloc(b->shmask + 1, sizeof *b->shslot);
		for (int32_t k = 0; k < t->nshapes; k++) {
			size_t j = hash_bytes(&t->shapes[k], sizeof sh) & b->shmask;
			while (b->shslot[j])
				j = (j + 1) & b->shmask;
			b->shslot[j] = k + 1;
		}
	}
	return id;
}

static bool listed(const char *s, const char *const *v, int n)
{
	for (int i = 0; s && i < n; i++)
		if (strcmp(s, v[i]) == 0)
			return true;
	return false;
}

/* Whether a filter of n names (none: all) keeps value s (NULL: the
 * record has none, kept only by a `not` filter). */
static bool keeps(const char *s, const char *const *v, int n, bool not)
{
	return !n || listed(s, v, n) != not;
}

void tr_seen(struct tr_build *b, int64_t submit_us)
{
	/* the first record's, in a sorted format (its window is decided as
	 * records come, on this clock); else the earliest's */
	struct scn_trace *t = b->t;
	if (!b->have_t0 || (!b->f->sorted && submit_us < t->t0_us)) {
		b->have_t0 = true;
		t->t0_us = submit_us;
	}
}

int tr_add(struct tr_build *b, int32_t id, int64_t submit_us, int64_t run_us, int64_t req_us,
	   const struct scn_trace_shape *sh, const char *user, const char *queue,
	   const char *kind)
{
	const struct trace_opts *o = b->o;
	struct scn_trace *t = b->t;
	tr_seen(b, submit_us);
	if (!keeps(user, o->users, o->nusers, o->users_not) ||
	    !keeps(queue, o->queues, o->nqueues, o->queues_not) ||
	    !keeps(kind, o->kinds, o->nkinds, o->kinds_not)) {
		t->skipped[TRS_FILTER]++;
		return 0;
	}
	if (b->f->sorted) { /* the window and the first N, as records come */
		int64_t rel = submit_us - t->t0_us;
		if (o->to_us && rel >= o->to_us) {
			t->skipped[TRS_FILTER]++;
			return 2;
		}
		if (rel < o->from_us) {
			t->skipped[TRS_FILTER]++;
			return 0;
		}
		if (o->first && b->kept_sorted >= o->first) {
			t->skipped[TRS_FILTER]++;
			return 2;
		}
		b->kept_sorted++;
	}
	if (t->njobs >= TR_MAX_JOBS)
		return tr_fail(b, 1, "more than %d jobs in one trace (the workload's limit): "
			       "use a window or `first`", TR_MAX_JOBS);
	if (t->njobs == b->cap_jobs) {
		int64_t cap = b->cap_jobs ? b->cap_jobs * 2 : 1024;
		/* the table in memory, before it grows past what a load may plan
		 * for (scn_memory_limit) */
		const char *whose;
		int64_t limit = scn_memory_limit(&whose);
		if (limit >= 0 && cap > 1024 && (double)cap * sizeof *t->jobs > (double)limit)
			return tr_fail(b, 1, "the trace's jobs would hold more than %.1f MiB (%lld "
				       "jobs read), above the %.1f MiB %s: use a window or `first`, "
				       "or --max-memory SIZE", (double)cap * sizeof *t->jobs / 1048576,
				       (long long)t->njobs, (double)limit / 1048576, whose);
		b->cap_jobs = cap;
		t->jobs = xrealloc(t->jobs, (size_t)b->cap_jobs * sizeof *t->jobs);
	}
	t->jobs[t->njobs++] = (struct scn_trace_job){
		.arrival_us = submit_us, .run_us = run_us, .req_us = req_us, .shape = shape_id(b, sh),
		.user = user ? intern(&b->users, user) : -1,
		.queue = queue ? intern(&b->queues, queue) : -1, .id = id,
		.kind = kind ? intern(&b->kinds, kind) : -1};
	return 1;
}

/* Stable sort of the rows by arrival (sort_kv of (arrival, row)), then
 * the rows put in that order. */
static void sort_rows(struct scn_trace *t)
{
	size_t n = (size_t)t->njobs;
	bool sorted = true;
	for (size_t i = 1; i < n && sorted; i++)
		sorted = t->jobs[i - 1].arrival_us <= t->jobs[i].arrival_us;
	if (sorted)
		return;
	struct kv *kv = xmalloc(2 * n * sizeof *kv);
	for (size_t i = 0; i < n; i++)
		kv[i] = (struct kv){t->jobs[i].arrival_us, i};
	sort_kv(kv, kv + n, n);
	struct scn_trace_job *rows = xmalloc(n * sizeof *rows);
	for (size_t i = 0; i < n; i++)
		rows[i] = t->jobs[kv[i].val];
	free(t->jobs);
	free(kv);
	t->jobs = rows;
}

static int64_t scaled(int64_t us, double scale)
{
	return scale == 1 ? us : (int64_t)llround((double)us * scale);
}

/* A time, µs, scaled beyond this is an error, not an overflow. */
#define TR_MAX_SCALED_US 4.6e18

/* Fisher-Yates over n jobs, draw i keyed by (k, i). */
static void shuffle(struct scn_trace_job *j, int64_t n, struct rng_key k)
{
	for (int64_t i = n - 1; i > 0; i--) {
		int64_t r = (int64_t)(rng_u64(k, (uint64_t)i) % (uint64_t)(i + 1));
		struct scn_trace_job tmp = j[i];
		j[i] = j[r];
		j[r] = tmp;
	}
}

void trace_offer_times(struct scn_trace *t)
{
	int64_t end = 2 * t->njobs + 1;
	for (int64_t i = 0; i < t->njobs; i++) {
		t->jobs[i].arrival_us = 2 * i;
		t->jobs[i].run_us = end - 2 * i;
	}
}

/* After the last record: the window and the first N for formats whose
 * records are not sorted, the order, the time scale.  0, or -1 with the
 * message in err (a time the scale takes past 64 bits). */
static int finish(struct tr_build *b)
{
	const struct trace_opts *o = b->o;
	struct scn_trace *t = b->t;
	if (!b->f->sorted && t->njobs) {
		int64_t t0 = t->t0_us; /* the earliest record's, filtered or not */
		int64_t k = 0;
		for (int64_t i = 0; i < t->njobs; i++) {
			int64_t rel = t->jobs[i].arrival_us - t0;
			if (rel < o->from_us || (o->to_us && rel >= o->to_us))
				t->skipped[TRS_FILTER]++;
			else
				t->jobs[k++] = t->jobs[i];
		}
		t->njobs = k;
	}
	sort_rows(t);
	if (o->first && t->njobs > o->first) {
		t->skipped[TRS_FILTER] += t->njobs - o->first;
		t->njobs = o->first;
	}
	if (o->offer) { /* a keyed shuffle (Fisher-Yates), then one every 2 µs */
		shuffle(t->jobs, t->njobs, rng_key(o->offer_seed, 0, RNG_USER, 0x6f666672u, 0, 0));
		for (int64_t i = 0; i < t->njobs; i++)
			t->jobs[i].req_us = -1;
		trace_offer_times(t);
		t->offer = true;
		t->offer_seed = o->offer_seed;
		if (t->njobs < b->cap_jobs && t->njobs)
			t->jobs = xrealloc(t->jobs, (size_t)t->njobs * sizeof *t->jobs);
		return 0;
	}
	double scale = o->time_scale > 0 ? o->time_scale : 1;
	int64_t base = t->t0_us + o->from_us;
	for (int64_t i = 0; i < t->njobs; i++) {
		struct scn_trace_job *j = &t->jobs[i];
		if ((double)(j->arrival_us - base) * scale > TR_MAX_SCALED_US ||
		    (double)j->run_us * scale > TR_MAX_SCALED_US ||
		    (double)j->req_us * scale > TR_MAX_SCALED_US) {
			snprintf(b->err, b->errlen, "%s: job %d: its times x time_scale %g are beyond "
				 "2^62 us", t->path, j->id, scale);
			return -1;
		}
		j->arrival_us = scaled(j->arrival_us - base, scale);
		j->run_us = scaled(j->run_us, scale);
		if (j->req_us >= 0)
			j->req_us = scaled(j->req_us, scale);
	}
	if (t->njobs < b->cap_jobs && t->njobs) /* give back the doubling's slack */
		t->jobs = xrealloc(t->jobs, (size_t)t->njobs * sizeof *t->jobs);
	return 0;
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
	struct tr_build b = {.o = o, .f = f, .t = t, .err = err, .errlen = errlen};
	b.users.names = &t->users;
	b.users.n = &t->nusers;
	b.queues.names = &t->queues;
	b.queues.n = &t->nqueues;
	b.kinds.names = &t->kinds;
	b.kinds.n = &t->nkinds;
	b.constraints.names = &t->constraints;
	b.constraints.n = &t->nconstraints;
	int rc = f->jobs(&b, z);
	zr_close(z);
	free(b.shslot);
	free(b.users.slot);
	free(b.queues.slot);
	free(b.kinds.slot);
	free(b.constraints.slot);
	if (rc < 0 || finish(&b) < 0) {
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

int trace_read_nodes(const char *path, const char *format, const char *prefix,
		     struct scn_node_group **groups, int *ngroups, char *err, size_t errlen)
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

/* ---- warnings and info ---------------------------------------------- */

int trace_warning(const struct scn_trace *t, char *buf, size_t len)
{
	int64_t n = 0;
	for (int w = 0; w < TRS_NSKIP; w++)
		if (w != TRS_FILTER && w != TRS_STATUS)
			n += t->skipped[w];
	if (!n && !t->clamped)
		return 0;
	int k = snprintf(buf, len, "%s: %lld of %lld records skipped", t->path, (long long)n,
			 (long long)t->records);
	const char *sep = " (";
	for (int w = 0; w < TRS_NSKIP && k >= 0 && (size_t)k < len; w++)
		if (w != TRS_FILTER && w != TRS_STATUS && t->skipped[w]) {
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
	return 0;
}

void trace_offer_order(struct scn_trace *t, uint32_t replication)
{
	if (!t->offer || t->offer_rep == replication || t->njobs < 1)
		return;
	size_t bytes = (size_t)t->njobs * sizeof *t->jobs;
	if (!t->offer_base) { /* jobs holds the load's order: keep it */
		t->offer_base = xmalloc(bytes);
		memcpy(t->offer_base, t->jobs, bytes);
	}
	memcpy(t->jobs, t->offer_base, bytes);
	if (replication > 0)
		shuffle(t->jobs, t->njobs,
			rng_key(t->offer_seed, replication, RNG_USER, 0x6f726472u, 0, 0));
	trace_offer_times(t);
	t->offer_rep = replication;
}
