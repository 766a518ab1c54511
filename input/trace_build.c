/* trace_build.c - the trace builder (input/trace.h, "the builder, for
 * importers"): the job table of one trace filled record by record
 * (tr_add, tr_skip, tr_clamp, tr_fail), users, queues, kinds and GPU
 * constraints interned, shapes shared, the fields of a CSV line, and
 * after the last record the window, the order and the time scale
 * (tr_read_jobs); an offer-only trace's times and order (trace_offer_times,
 * trace_offer_order).
 *
 * The importers (trace_swf.c, trace_openb.c, trace_pai.c,
 * trace_philly.c) and the format registry (trace.c) call it; it calls
 * no importer nor trace.c, only the memory limit (scn_mem.c) of the
 * loader, input/zread.h (to close the importer's file), sim/rng.h and
 * sim/util.h.
 */
#include "trace.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "pyrandom.h"
#include "rng.h"
#include "utf8.h"
#include "util.h"
#include "zread.h"

/* Jobs of one trace, at most: the loader's limit of jobs of a workload. */
#define TR_MAX_JOBS 10000000

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
	size_t k = 0, i = 0;
	while (i < n && i < 40) {
		unsigned char c = (unsigned char)s[i];
		int len = c < 0x80 ? 1 : utf8_char(s + i, n - i, NULL);
		if (len > 1 && i + (size_t)len > 40) /* no character cut */
			break;
		if (c < 0x20 || c == 0x7f || !len) { /* a control byte, or not UTF-8 */
			k += (size_t)snprintf(buf + k, 5, "\\x%02x", c);
			i++;
		} else {
			memcpy(buf + k, s + i, (size_t)len);
			k += (size_t)len;
			i += (size_t)len;
		}
	}
	if (i < n)
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
	/* the batch logs' input filter (pyss's strong_filter_all_swf as issue
	 * 31 reads it; docs/traces.md), before the window and the first N
	 * count a job */
	if (o->drop_nonpositive && (run_us <= 0 || req_us <= 0)) {
		t->skipped[TRS_NONPOSITIVE]++;
		return 0;
	}
	bool over = req_us > 0 && run_us > req_us; /* cut or killed, once kept */
	if (o->cap_at_request && over)
		run_us = req_us;
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
	if (over && o->cap_at_request) /* only SWF gives requests: a sorted format */
		t->capped++;
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

/* A row's place in the order of (submission, job number), ties in the
 * order they are in (qsort is not stable: the place breaks them). */
struct by_id {
	int64_t arrival_us;
	int32_t id;
	int64_t at;
};

static int cmp_by_id(const void *a, const void *b)
{
	const struct by_id *x = a, *y = b;
	if (x->arrival_us != y->arrival_us)
		return x->arrival_us < y->arrival_us ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/* sample: Python's shuffle of the kept jobs in file order (before any
 * sort: the PAI simulator, simulator.py init_go, shuffles the list as
 * it read it), the first sample_jobs of them, if there are that many. */
static void sample_rows(const struct trace_opts *o, struct scn_trace *t)
{
	if (o->sample_jobs <= 0 || o->sample_jobs > t->njobs)
		return;
	struct pyr r;
	pyr_seed(&r, o->sample_seed);
	pyr_shuffle(&r, t->jobs, (size_t)t->njobs, sizeof *t->jobs);
	t->skipped[TRS_FILTER] += t->njobs - o->sample_jobs;
	t->njobs = o->sample_jobs;
}

/* The rows in order of (submission, job number), ties in their order. */
static void sort_by_id(struct scn_trace *t)
{
	size_t n = (size_t)t->njobs;
	struct by_id *k = xmalloc((n ? n : 1) * sizeof *k);
	for (size_t i = 0; i < n; i++)
		k[i] = (struct by_id){t->jobs[i].arrival_us, t->jobs[i].id, (int64_t)i};
	qsort(k, n, sizeof *k, cmp_by_id);
	struct scn_trace_job *rows = xmalloc((n ? n : 1) * sizeof *rows);
	for (size_t i = 0; i < n; i++)
		rows[i] = t->jobs[k[i].at];
	free(k);
	free(t->jobs);
	t->jobs = rows;
}

/* After a sample or for arrivals: the rows in order of (submission, job
 * number), as set_job_list_arrival_time sorts them; with arrivals, job
 * k then submitted at (k / batch) x every from the trace's start, and
 * the rows in order of (that submission, job number), the order of the
 * simulator's FIFO (scheduler.py alloc_job_sort): within a batch by job
 * number, whatever their submissions were. */
static void order_by_id(const struct trace_opts *o, struct scn_trace *t)
{
	if (!o->batch && o->sample_jobs <= 0)
		return;
	sort_by_id(t);
	if (!o->batch)
		return;
	for (int64_t i = 0; i < t->njobs; i++)
		t->jobs[i].arrival_us = t->t0_us + o->from_us + (i / o->batch) * o->batch_every_us;
	sort_by_id(t);
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
	sample_rows(o, t);
	sort_rows(t);
	if (o->batch && t->njobs &&
	    (double)((t->njobs - 1) / o->batch) * (double)o->batch_every_us > TR_MAX_SCALED_US) {
		snprintf(b->err, b->errlen, "%s: arrivals of %lld jobs, %lld every %g s, pass 2^62 us",
			 t->path, (long long)t->njobs, (long long)o->batch,
			 (double)o->batch_every_us / 1e6);
		return -1;
	}
	order_by_id(o, t);
	if (o->first && t->njobs > o->first) {
		t->skipped[TRS_FILTER] += t->njobs - o->first;
		t->njobs = o->first;
	}
	if (o->kill_at_request) /* the kept jobs that will be killed */
		for (int64_t i = 0; i < t->njobs; i++)
			t->killed += t->jobs[i].req_us > 0 && t->jobs[i].run_us > t->jobs[i].req_us;
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

/* Run format f's importer on z (NULL for a directory format; closed
 * here) into trace t under o, then finish it. */
int tr_read_jobs(const struct trace_format *f, const struct trace_opts *o, struct scn_trace *t,
		 struct zr *z, char *err, size_t errlen)
{
	struct tr_build b = {.o = o, .f = f, .t = t, .err = err, .errlen = errlen};
	if (o->estimate && !f->estimates) {
		snprintf(err, errlen, "%s: estimate: %s names a column, and a %s trace has none to "
			 "name (alibaba-pai-sim has)", t->path, o->estimate, f->name);
		zr_close(z);
		return -1;
	}
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
	return rc < 0 || finish(&b) < 0 ? -1 : 0;
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

/* ---- CSV tables with a header row (trace.h) ---------------------------- */

static size_t bom(const char *s, size_t n)
{
	return n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;
}

int tr_csv_header(struct tr_build *b, struct zr *in, const char *what, const char *const *names,
		  int n, int nreq, int *at, int *ncols)
{
	char *line, err[512];
	size_t len;
	int r = zr_line(in, &line, &len, err, sizeof err);
	/* tr_at(b, 1) only before an error: the header is not a record */
	if (r < 0)
		return tr_at(b, 1), tr_fail(b, 1, "%s", err);
	if (r == 0)
		return tr_at(b, 1), tr_fail(b, 1, "an empty file: %s starts with its header row",
					    what);
	size_t k0 = bom(line, len);
	struct tr_field f[TR_CSV_MAX_COLS];
	int nf = tr_split(line + k0, len - k0, f, TR_CSV_MAX_COLS);
	if (nf > TR_CSV_MAX_COLS)
		return tr_at(b, 1), tr_fail(b, 1, "more than %d columns in the header",
					    TR_CSV_MAX_COLS);
	for (int k = 0; k < n; k++)
		at[k] = -1;
	for (int i = 0; i < nf; i++)
		for (int k = 0; k < n; k++) {
			if (!names[k] || strcmp(f[i].s, names[k]))
				continue;
			if (at[k] >= 0)
				return tr_at(b, 1), tr_fail(b, f[i].col, "column '%s' appears twice",
							    names[k]);
			at[k] = i;
		}
	*ncols = nf;
	for (int k = 0; k < nreq; k++)
		if (at[k] < 0)
			return tr_at(b, 1), tr_fail(b, 1, "no column '%s' in the header",
						    names[k]);
	return 0;
}

int tr_csv_rows(struct tr_build *b, struct zr *in, int ncols,
		int (*row)(struct tr_build *b, const void *ctx, const struct tr_field *f),
		const void *ctx)
{
	char *line, err[512];
	size_t len;
	int r;
	while ((r = zr_line(in, &line, &len, err, sizeof err)) == 1) {
		if (!len)
			continue;
		tr_at(b, zr_lineno(in));
		struct tr_field f[TR_CSV_MAX_COLS];
		int nf = tr_split(line, len, f, TR_CSV_MAX_COLS);
		if (nf != ncols) {
			bool over = nf > TR_CSV_MAX_COLS;
			return tr_fail(b, over ? 1 : f[nf - 1].col, "%s%d fields, the header has %d",
				       over ? "more than " : "", over ? TR_CSV_MAX_COLS : nf, ncols);
		}
		if (row(b, ctx, f) < 0)
			return -1;
	}
	if (r < 0) {
		int64_t at = zr_lineno(in) + 1;
		int col = 1;
		const char *p = zr_error_at(err, tr_path(b), &at, &col);
		tr_at(b, at);
		return tr_fail(b, col, "%s", p);
	}
	return 0;
}

bool tr_csv_starts(const char *head, size_t n, const char *sig)
{
	size_t k = bom(head, n), len = strlen(sig);
	return n - k >= len && !memcmp(head + k, sig, len);
}

int tr_number(const struct tr_field *f, double *v)
{
	if (!f->len)
		return -1;
	char *end;
	*v = strtod(f->s, &end);
	return end == f->s + f->len && isfinite(*v) ? 0 : -1;
}
