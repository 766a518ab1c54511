/* trace_philly.c - Microsoft's Philly trace (msr-fiddle/philly-traces,
 * Jeon et al., ATC'19; ../shared/reference/traces.md §3): the machine
 * list and the job log.
 *
 * Nodes: cluster_machine_list (CSV with a header row, "machineId,
 * number of GPUs, single GPU mem", values after ", " as "m31,8, 24GB"),
 * a trace_node a row.  The list gives no CPU, memory or GPU model, so:
 *
 *   GPUs       number of GPUs
 *   CPU        6 cores a GPU, memory 112 GiB a GPU (Azure's per-GPU VM
 *              sizes of that time, ND6s (P40) and NC6s_v2 (P100): an
 *              assumption, not in the trace); a machine of 0 GPUs gets
 *              one GPU's worth, without the GPU
 *   GPU model  the GPU memory as written ("12GB", "24GB")
 *
 * Jobs: cluster_job_log, one JSON array of job objects ({"status",
 * "vc", "jobid", "user", "submitted_time", "attempts": [{"start_time",
 * "end_time", "detail": [{"ip", "gpus": [...]}]}]}).  The array is
 * streamed: lines are scanned for each top-level object (braces and
 * brackets counted outside strings, escapes followed), and only that
 * object is held and parsed (a small JSON reader of this file's own),
 * so memory is one job, whatever the log's size.  A job:
 *
 *   id         its ordinal in the array, 1-based (jobid is a string)
 *   arrival    submitted_time
 *   run time   the last attempt's end_time - the first attempt's
 *              start_time (the retries and the gaps between them count)
 *   executors  one per machine (detail entry) of the first attempt,
 *              asking that machine's GPUs (the length of its gpus),
 *              one slot and one task each, and the mapping's executor
 *              cores and memory (trace_opts exec_cores, exec_mem_mib:
 *              the log has no CPU or memory)
 *   roles      machines of equal GPU counts form a role, in order of
 *              first appearance; a third distinct count, and any after
 *              it, joins role 1 at the larger count: clamped, once a job
 *   user, vc   the user and the queue
 *   status     Pass is completed (completed_only keeps only it)
 *
 * Times "YYYY-MM-DD HH:MM:SS" are read as UTC wall-clock time: the log
 * writes the cluster's local time without a zone (its utilisation files
 * say PDT/PST), so a job across a daylight-saving change is an hour
 * off; only differences matter here.  jobid, ip, and attempts other
 * than the first (machines) and the last (end) are dropped.
 *
 * Bad records: text that is not JSON, or not UTF-8 (the message gives
 * the byte's offset in the file too), or not an array of objects, a
 * value of the wrong type, a string holding "\u0000", a time not
 * written as above, or no submitted_time is an error
 * "file:line:col: message" at the value.
 * Skipped and counted: no attempts, a first start_time or a last
 * end_time missing, null or "None" (still running) (no-runtime); the
 * end before the start (negative-time); a first attempt without
 * machines or GPUs (no-demand); beyond the kernel's limits (too-big).
 * Offer-only (docs/traces.md): the times are not read (arrival 0, run
 * time -1, and the builder orders the jobs).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "utf8.h"
#include "util.h"
#include "zread.h"

#define CORES_PER_GPU 6
#define MIB_PER_GPU (112LL * 1024)
#define MAX_OBJECT ((size_t)64 << 20) /* bytes of one job object */
#define MAX_DEPTH 64                  /* nesting inside a job object */


/* ---- one job object's text, and where its lines began ------------------ */

struct lstart {
	size_t off;     /* offset in the text */
	int64_t line;   /* its line in the file */
	int col;        /* the column of that offset, 1-based */
};

struct obj {
	char *text; size_t len, cap;
	struct lstart *ls; int nls, lcap;
};

static void obj_put(struct obj *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		while (o->len + n + 1 > o->cap)
			o->cap = o->cap ? o->cap * 2 : 4096;
		o->text = xrealloc(o->text, o->cap);
	}
	memcpy(o->text + o->len, s, n);
	o->len += n;
	o->text[o->len] = 0;
}

static void obj_line(struct obj *o, int64_t line, int col)
{
	xgrow(&o->ls, &o->lcap, o->nls + 1, sizeof *o->ls);
	o->ls[o->nls++] = (struct lstart){.off = o->len, .line = line, .col = col};
}

/* The file position of text offset off. */
static void obj_pos(const struct obj *o, size_t off, int64_t *line, int *col)
{
	int lo = 0, hi = o->nls - 1;
	while (lo < hi) { /* the last line starting at or before off */
		int mid = (lo + hi + 1) / 2;
		if (o->ls[mid].off <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	*line = o->ls[lo].line;
	*col = o->ls[lo].col + (int)(off - o->ls[lo].off);
}

/* ---- a minimal JSON reader over one object ------------------------------ */

struct jp {
	struct tr_build *b;
	struct obj *o;
	char *s;        /* o->text */
	size_t n, i;    /* its length, the position */
};

/* A string value: unescaped in place, NUL-terminated. */
struct jstr {
	bool present;   /* the key was there */
	bool null;      /* ... with null */
	char *s;
	size_t len;
	size_t off;     /* the value's offset, for messages */
};

static int jfail(struct jp *p, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int jfail(struct jp *p, size_t off, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	int64_t line;
	int col;
	obj_pos(p->o, off, &line, &col);
	tr_at(p->b, line);
	return tr_fail(p->b, col, "%s", msg);
}

static void ws(struct jp *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' ||
			       p->s[p->i] == '\r'))
		p->i++;
}

/* What is at the position, for a message: a few characters quoted. */
static const char *seen(const struct jp *p, char *buf, size_t len)
{
	if (p->i >= p->n)
		return "the object's end";
	size_t k = 0;
	while (p->i + k < p->n && k < 12 && p->s[p->i + k] != '\n')
		k++;
	snprintf(buf, len, "'%s'", tr_show(p->s + p->i, k, (char[TR_SHOW]){0}));
	return buf;
}

static int expect(struct jp *p, char c, const char *what)
{
	ws(p);
	if (p->i < p->n && p->s[p->i] == c) {
		p->i++;
		return 0;
	}
	char buf[TR_SHOW + 2];
	return jfail(p, p->i, "expected %s, got %s", what, seen(p, buf, sizeof buf));
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int hex4(struct jp *p, size_t at, unsigned *u)
{
	*u = 0;
	for (int k = 0; k < 4; k++) {
		int h = at + (size_t)k < p->n ? hexval(p->s[at + (size_t)k]) : -1;
		if (h < 0)
			return jfail(p, at - 2, "a \\u escape without 4 hex digits");
		*u = *u * 16 + (unsigned)h;
	}
	return 0;
}

static size_t utf8(char *out, unsigned u)
{
	if (u < 0x80)
		return out[0] = (char)u, 1;
	if (u < 0x800)
		return out[0] = (char)(0xc0 | u >> 6), out[1] = (char)(0x80 | (u & 0x3f)), 2;
	if (u < 0x10000)
		return out[0] = (char)(0xe0 | u >> 12), out[1] = (char)(0x80 | ((u >> 6) & 0x3f)),
		       out[2] = (char)(0x80 | (u & 0x3f)), 3;
	out[0] = (char)(0xf0 | u >> 18);
	out[1] = (char)(0x80 | ((u >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((u >> 6) & 0x3f));
	out[3] = (char)(0x80 | (u & 0x3f));
	return 4;
}

/* A string at the position (after whitespace), unescaped in place. */
static int jstring(struct jp *p, struct jstr *v)
{
	ws(p);
	v->off = p->i;
	if (p->i >= p->n || p->s[p->i] != '"') {
		char buf[TR_SHOW + 2];
		return jfail(p, p->i, "expected a string, got %s", seen(p, buf, sizeof buf));
	}
	size_t w = ++p->i;
	v->s = p->s + w;
	for (;;) {
		if (p->i >= p->n)
			return jfail(p, v->off, "a string without its closing '\"'");
		unsigned char c = (unsigned char)p->s[p->i];
		if (c == '"')
			break;
		if (c < 0x20)
			return jfail(p, p->i, "a control character in a string");
		if (c != '\\') {
			p->s[w++] = p->s[p->i++];
			continue;
		}
		char e = p->i + 1 < p->n ? p->s[p->i + 1] : 0;
		const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
		const char *k = e ? strchr(from, e) : NULL;
		if (k) {
			p->s[w++] = to[k - from];
			p->i += 2;
			continue;
		}
		if (e != 'u')
			return jfail(p, p->i, "an invalid escape '\\%c' in a string", e ? e : ' ');
		unsigned u, lo;
		if (hex4(p, p->i + 2, &u) < 0)
			return -1;
		p->i += 6;
		if (u >= 0xd800 && u <= 0xdbff) { /* a surrogate pair */
			if (p->i + 1 >= p->n || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u' ||
			    hex4(p, p->i + 2, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
				return jfail(p, p->i - 6, "a \\u escape of half a surrogate pair");
			u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			p->i += 6;
		} else if (u >= 0xdc00 && u <= 0xdfff) {
			return jfail(p, p->i - 6, "a \\u escape of half a surrogate pair");
		}
		if (!u) /* the builder's names are C strings */
			return jfail(p, p->i - 6, "a '\\u0000' in a string: a NUL is no text "
				     "hetsim reads");
		char buf[4];
		size_t k2 = utf8(buf, u);
		memcpy(p->s + w, buf, k2); /* never past the escape it replaces */
		w += k2;
	}
	p->i++;
	v->len = w - (size_t)(v->s - p->s);
	v->s[v->len] = 0; /* at or before the closing quote, already passed */
	v->present = true;
	v->null = false;
	return 0;
}

static bool word(struct jp *p, const char *w)
{
	size_t n = strlen(w);
	if (p->i + n <= p->n && !memcmp(p->s + p->i, w, n)) {
		p->i += n;
		return true;
	}
	return false;
}

static int jnumber(struct jp *p)
{
	size_t at = p->i;
	p->i += p->s[p->i] == '-';
	size_t d = p->i;
	if (p->i < p->n && p->s[p->i] == '0')
		p->i++;
	else
		while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
			p->i++;
	bool ok = p->i > d;
	if (ok && p->i < p->n && p->s[p->i] == '.') {
		size_t f = ++p->i;
		while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
			p->i++;
		ok = p->i > f;
	}
	if (ok && p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		p->i += p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-');
		size_t e = p->i;
		while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
			p->i++;
		ok = p->i > e;
	}
	if (!ok) {
		p->i = at;
		char buf[TR_SHOW + 2];
		return jfail(p, at, "expected a value, got %s", seen(p, buf, sizeof buf));
	}
	return 0;
}

static int skip_value(struct jp *p, int depth);

/* A {...} or [...] value, each member skipped (or, for objects, read by
 * on_key when not NULL). */
static int skip_container(struct jp *p, int depth)
{
	char open = p->s[p->i], close = open == '{' ? '}' : ']';
	size_t at = p->i++;
	if (depth >= MAX_DEPTH)
		return jfail(p, at, "nesting deeper than %d", MAX_DEPTH);
	ws(p);
	if (p->i < p->n && p->s[p->i] == close) {
		p->i++;
		return 0;
	}
	for (;;) {
		if (open == '{') {
			struct jstr k;
			if (jstring(p, &k) < 0 || expect(p, ':', "':' after a key") < 0)
				return -1;
		}
		if (skip_value(p, depth + 1) < 0)
			return -1;
		ws(p);
		if (p->i < p->n && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		return expect(p, close, close == '}' ? "',' or '}'" : "',' or ']'");
	}
}

static int skip_value(struct jp *p, int depth)
{
	ws(p);
	if (p->i >= p->n)
		return jfail(p, p->i, "expected a value, got the object's end");
	char c = p->s[p->i];
	if (c == '"') {
		struct jstr v;
		return jstring(p, &v);
	}
	if (c == '{' || c == '[')
		return skip_container(p, depth);
	if (word(p, "true") || word(p, "false") || word(p, "null"))
		return 0;
	return jnumber(p);
}

/* The type of the value at the position, for a message. */
static const char *kind(struct jp *p)
{
	ws(p);
	char c = p->i < p->n ? p->s[p->i] : 0;
	return c == '"' ? "a string" : c == '{' ? "an object" : c == '[' ? "an array"
	       : c == 't' || c == 'f' ? "a boolean" : c == 'n' ? "null" : "a number";
}

/* A string or null value of key `key`. */
static int str_or_null(struct jp *p, const char *key, struct jstr *v)
{
	ws(p);
	v->off = p->i;
	if (word(p, "null")) {
		v->present = v->null = true;
		return 0;
	}
	if (p->i < p->n && p->s[p->i] == '"')
		return jstring(p, v);
	return jfail(p, p->i, "%s: expected a string, got %s", key, kind(p));
}

/* Iterate the members of an object: 1 with the key in *k, 0 at its
 * end, -1 on an error.  *first starts true. */
static int members(struct jp *p, bool *first, struct jstr *k)
{
	ws(p);
	if (*first) {
		*first = false;
		if (p->i < p->n && p->s[p->i] == '}')
			return p->i++, 0;
	} else {
		if (p->i < p->n && p->s[p->i] == '}')
			return p->i++, 0;
		if (expect(p, ',', "',' or '}'") < 0)
			return -1;
	}
	if (jstring(p, k) < 0 || expect(p, ':', "':' after a key") < 0)
		return -1;
	return 1;
}

/* The same for an array's elements: 1 before each, 0 at its end. */
static int elements(struct jp *p, bool *first)
{
	ws(p);
	if (p->i < p->n && p->s[p->i] == ']')
		return p->i++, 0;
	if (!*first && expect(p, ',', "',' or ']'") < 0)
		return -1;
	*first = false;
	ws(p);
	return 1;
}

/* ---- a job ----------------------------------------------------------- */

struct ph_job {
	struct jstr status, vc, user, submitted;
	int nattempts;
	struct jstr start;        /* the first attempt's */
	struct jstr end;          /* the last attempt's */
	size_t attempts_off;      /* for messages */
	int nmachines;            /* of the first attempt */
	int64_t max_gpus;         /* the most on one machine */
	int64_t gpus;             /* all, on all its machines */
	int nroles;               /* distinct GPU counts, at most 2 */
	int64_t rgpus[2];         /* each role's GPUs a machine */
	int rcount[2];            /* and its machines */
	bool merged;              /* a third distinct count joined role 1 */
};

static int open_at(struct jp *p, char c, const char *key, const char *what)
{
	ws(p);
	if (p->i < p->n && p->s[p->i] == c) {
		p->i++;
		return 0;
	}
	return jfail(p, p->i, "%s: expected %s, got %s", key, what, kind(p));
}

/* A machine of the first attempt: its GPU count into the roles. */
static void machine(struct ph_job *j, int64_t g)
{
	j->nmachines++;
	j->gpus += g;
	j->max_gpus = g > j->max_gpus ? g : j->max_gpus;
	for (int r = 0; r < j->nroles; r++)
		if (j->rgpus[r] == g) {
			j->rcount[r]++;
			return;
		}
	if (j->nroles < 2) {
		j->rgpus[j->nroles] = g;
		j->rcount[j->nroles++] = 1;
		return;
	}
	j->rcount[1]++;
	j->rgpus[1] = g > j->rgpus[1] ? g : j->rgpus[1];
	j->merged = true;
}

static int detail(struct jp *p, struct ph_job *j, bool first_attempt)
{
	if (open_at(p, '[', "detail", "an array") < 0)
		return -1;
	bool first = true;
	int r;
	while ((r = elements(p, &first)) == 1) {
		if (open_at(p, '{', "a detail entry", "an object") < 0)
			return -1;
		int64_t gpus = 0;
		bool f2 = true;
		struct jstr k;
		int m;
		while ((m = members(p, &f2, &k)) == 1) {
			if (!strcmp(k.s, "gpus")) {
				if (open_at(p, '[', "gpus", "an array") < 0)
					return -1;
				bool f3 = true;
				int e;
				gpus = 0;
				while ((e = elements(p, &f3)) == 1) {
					if (skip_value(p, 4) < 0)
						return -1;
					gpus++;
				}
				if (e < 0)
					return -1;
			} else if (skip_value(p, 3) < 0) {
				return -1;
			}
		}
		if (m < 0)
			return -1;
		if (first_attempt)
			machine(j, gpus);
	}
	return r;
}

static int attempt(struct jp *p, struct ph_job *j)
{
	if (open_at(p, '{', "an attempt", "an object") < 0)
		return -1;
	bool first = true, is_first = j->nattempts == 0;
	struct jstr k, start = {0}, end = {0};
	int m;
	while ((m = members(p, &first, &k)) == 1) {
		int rc = !strcmp(k.s, "start_time") ? str_or_null(p, "start_time", &start)
			 : !strcmp(k.s, "end_time") ? str_or_null(p, "end_time", &end)
			 : !strcmp(k.s, "detail") ? detail(p, j, is_first)
			 : skip_value(p, 2);
		if (rc < 0)
			return -1;
	}
	if (m < 0)
		return -1;
	if (is_first)
		j->start = start;
	j->end = end;
	j->nattempts++;
	return 0;
}

static int job_object(struct jp *p, struct ph_job *j)
{
	memset(j, 0, sizeof *j);
	if (expect(p, '{', "a job object") < 0)
		return -1;
	bool first = true;
	struct jstr k;
	int m;
	while ((m = members(p, &first, &k)) == 1) {
		int rc;
		if (!strcmp(k.s, "status"))
			rc = str_or_null(p, "status", &j->status);
		else if (!strcmp(k.s, "vc"))
			rc = str_or_null(p, "vc", &j->vc);
		else if (!strcmp(k.s, "user"))
			rc = str_or_null(p, "user", &j->user);
		else if (!strcmp(k.s, "submitted_time"))
			rc = str_or_null(p, "submitted_time", &j->submitted);
		else if (!strcmp(k.s, "attempts")) {
			ws(p);
			j->attempts_off = p->i;
			if (word(p, "null"))
				continue;
			if (open_at(p, '[', "attempts", "an array") < 0)
				return -1;
			*j = (struct ph_job){.status = j->status, .vc = j->vc,
					     .user = j->user, .submitted = j->submitted,
					     .attempts_off = j->attempts_off};
			bool f2 = true;
			while ((rc = elements(p, &f2)) == 1)
				if (attempt(p, j) < 0)
					return -1;
		} else
			rc = skip_value(p, 1);
		if (rc < 0)
			return -1;
	}
	return m;
}

/* "YYYY-MM-DD HH:MM:SS" as seconds since 1970-01-01 00:00:00 UTC:
 * 0, or -1 if not such a time. */
static int when(const struct jstr *v, int64_t *out)
{
	const char *s = v->s;
	static const char pat[] = "dddd-dd-dd dd:dd:dd";
	if (v->len != sizeof pat - 1)
		return -1;
	for (size_t i = 0; i < v->len; i++)
		if (pat[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != pat[i])
			return -1;
#define D2(k) ((s[k] - '0') * 10 + (s[(k) + 1] - '0'))
	int64_t y = D2(0) * 100 + D2(2);
	int mo = D2(5), d = D2(8), h = D2(11), mi = D2(14), se = D2(17);
#undef D2
	static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap) ||
	    h > 23 || mi > 59 || se > 59)
		return -1;
	/* days from 1970-01-01 to y-mo-d: count from March, so that the leap
	 * day ends its year */
	int64_t yy = mo <= 2 ? y - 1 : y;
	int64_t era = (yy >= 0 ? yy : yy - 399) / 400, yoe = yy - era * 400;
	int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	int64_t days = era * 146097 + doe - 719468;
	*out = ((days * 24 + h) * 60 + mi) * 60 + se;
	return 0;
}

/* A time value: 1 with *us, 0 if missing (absent, null, "None" or
 * empty), -1 on an error. */
static int time_of(struct jp *p, const struct jstr *v, const char *key, int64_t *us)
{
	if (!v->present || v->null || !v->len || !strcmp(v->s, "None"))
		return 0;
	int64_t s;
	if (when(v, &s) < 0)
		return jfail(p, v->off, "%s '%s' is not a time 'YYYY-MM-DD HH:MM:SS'", key,
			     tr_show(v->s, v->len, (char[TR_SHOW]){0}));
	*us = s * 1000000;
	return 1;
}

/* tr_skip at the value at offset off (its line: one tr_at a record). */
static int skip_at(struct jp *p, size_t off, enum scn_trace_skip why, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int skip_at(struct jp *p, size_t off, enum scn_trace_skip why, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	int64_t line;
	int col;
	obj_pos(p->o, off, &line, &col);
	tr_at(p->b, line);
	return tr_skip(p->b, why, col, "%s", msg);
}

/* Parse job object o (the ordinal-th) and hand it to the builder. */
static int job(struct tr_build *b, struct obj *o, int64_t ordinal)
{
	struct jp p = {.b = b, .o = o, .s = o->text, .n = o->len};
	struct ph_job j;
	if (job_object(&p, &j) < 0) /* the scan ended the text at its '}' */
		return -1;
	if (ordinal > INT32_MAX)
		return jfail(&p, 0, "more than %d jobs", INT32_MAX);
	const struct trace_opts *opt = tr_opts(b);
	int64_t sub = 0, start = 0, end = 0;
	int hs = 0, ha = 0, he = 0; /* offer-only: times not read */
	if (!opt->offer && ((hs = time_of(&p, &j.submitted, "submitted_time", &sub)) < 0 ||
			    (ha = time_of(&p, &j.start, "start_time", &start)) < 0 ||
			    (he = time_of(&p, &j.end, "end_time", &end)) < 0))
		return -1;
	if (!hs && !opt->offer)
		return jfail(&p, j.submitted.present ? j.submitted.off : 0,
			     "no submitted_time: a job's arrival");
	if (!opt->offer && sub >= 0) /* the clock, whatever the checks below leave out */
		tr_seen(b, sub);
	bool status = j.status.present && !j.status.null;
	if (opt->completed_only && (!status || strcmp(j.status.s, "Pass") != 0))
		return skip_at(&p, j.status.present ? j.status.off : 0, TRS_STATUS, "status %s",
			       status ? j.status.s : "missing");
	if (!opt->offer) {
		if (!j.nattempts)
			return skip_at(&p, j.attempts_off, TRS_NO_RUNTIME,
				       "no attempts: no run time");
		if (!ha)
			return skip_at(&p, j.start.present ? j.start.off : j.attempts_off,
				       TRS_NO_RUNTIME, "the first attempt has no start_time: no "
				       "run time");
		bool none = j.end.present && !j.end.null && !strcmp(j.end.s, "None");
		if (!he)
			return skip_at(&p, j.end.present ? j.end.off : j.attempts_off,
				       TRS_NO_RUNTIME, "the last attempt has no end_time%s: no run "
				       "time", none ? " (None: still running)" : "");
		if (end < start)
			return skip_at(&p, j.end.off, TRS_NEG_TIME, "the last attempt's end_time "
				       "%s before the first's start_time %s", j.end.s, j.start.s);
	}
	if (!j.nmachines || !j.gpus)
		return skip_at(&p, j.attempts_off, TRS_NO_DEMAND, "the first attempt %s",
			       !j.nattempts ? "is missing: no machines"
			       : !j.nmachines ? "lists no machine" : "lists no GPU");
	if (j.nmachines > SCN_MAX_EXECUTORS || j.max_gpus > SCN_MAX_GPUS)
		return skip_at(&p, j.attempts_off, TRS_TOO_BIG, "the first attempt: %d machines, "
			       "at most %lld GPUs on one (limits %d, %d)", j.nmachines,
			       (long long)j.max_gpus, SCN_MAX_EXECUTORS, SCN_MAX_GPUS);
	int64_t line;
	int col;
	obj_pos(o, j.merged ? j.attempts_off : 0, &line, &col);
	tr_at(b, line);
	if (j.merged && tr_clamp(b, col, "the first attempt's machines have more than two GPU "
				 "counts: the third and later joined the second at the larger") < 0)
		return -1;
	int ec = opt->exec_cores > 0 ? opt->exec_cores : 1;
	int64_t mem = opt->exec_mem_mib > 0 ? opt->exec_mem_mib : 1024;
	struct scn_trace_shape sh = {.nroles = j.nroles, .tasks = j.nmachines};
	for (int r = 0; r < j.nroles; r++)
		sh.role[r] = (struct scn_trace_role){.count = j.rcount[r], .slots = 1,
						     .cpu_milli = ec * 1000, .mem_mib = mem,
						     .gpus = (int)j.rgpus[r]};
	const char *user = j.user.present && !j.user.null ? j.user.s : NULL;
	const char *vc = j.vc.present && !j.vc.null ? j.vc.s : NULL;
	return tr_add(b, (int32_t)ordinal, opt->offer ? 0 : sub, opt->offer ? -1 : end - start,
		      -1, &sh, user, vc, NULL) < 0 ? -1 : 0;
}

/* ---- the array, streamed ----------------------------------------------- */

enum { S_START, S_FIRST, S_AFTER, S_NEXT, S_END };

struct scan {
	int state;
	int depth;               /* inside a job object: its nesting, else 0 */
	bool in_str, esc;
	struct obj o;
	int64_t ordinal;
};

static int scan_fail(struct tr_build *b, int64_t line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int scan_fail(struct tr_build *b, int64_t line, int col, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	tr_at(b, line);
	return tr_fail(b, col, "%s", msg);
}

static bool json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

#define EXCERPT(line, i, len) tr_show((line) + (i), (len) - (i) > 20 ? 20 : (len) - (i), \
				     (char[TR_SHOW]){0})

/* Character c of a job object being scanned: strings and nesting
 * followed.  1 when it closed the object, else 0. */
static int inside(struct scan *sc, char c)
{
	if (sc->in_str) {
		if (sc->esc)
			sc->esc = false;
		else if (c == '\\')
			sc->esc = true;
		else if (c == '"')
			sc->in_str = false;
	} else if (c == '"') {
		sc->in_str = true;
	} else if (c == '{' || c == '[') {
		sc->depth++;
	} else if (c == '}' || c == ']') {
		sc->depth--;
	}
	return sc->depth == 0;
}

/* A character between the array's job objects (not a space) at line[i]:
 * 1 when it opens an object, 0, or -1 on an error. */
static int between(struct tr_build *b, struct scan *sc, const char *line, size_t i, size_t len,
		   int64_t ln)
{
	char c = line[i];
	int col = (int)i + 1;
	const char *want = NULL;
	switch (sc->state) {
	case S_START:
		if (c == '[') {
			sc->state = S_FIRST;
			return 0;
		}
		if (len - i >= 10 && !memcmp(line + i, "machineId,", 10))
			return scan_fail(b, ln, col, "a machine list (header 'machineId, ...'), "
					 "not a job log: use it as a cluster (cluster: - {name: N, "
					 "trace: {format: philly, path: ...}})");
		want = "a JSON array of jobs '['";
		break;
	case S_FIRST:
	case S_NEXT:
		if (c == '{')
			return 1;
		if (c == ']' && sc->state == S_FIRST) {
			sc->state = S_END;
			return 0;
		}
		want = sc->state == S_FIRST ? "a job object '{' or ']'"
					    : "a job object '{' after ','";
		break;
	case S_AFTER:
		if (c == ',' || c == ']') {
			sc->state = c == ',' ? S_NEXT : S_END;
			return 0;
		}
		want = "',' or ']' after a job object";
		break;
	default:
		return scan_fail(b, ln, col, "text after the array's closing ']': '%s'",
				 EXCERPT(line, i, len));
	}
	return scan_fail(b, ln, col, "expected %s, got '%s'", want, EXCERPT(line, i, len));
}

static int too_long(struct tr_build *b, const struct scan *sc)
{
	return scan_fail(b, sc->o.ls[0].line, sc->o.ls[0].col, "a job object longer than %zu MiB",
			 MAX_OBJECT >> 20);
}

/* Scan one line of the log, handing each job object to job() as it
 * closes: 0, or -1. */
static int scan_line(struct tr_build *b, struct scan *sc, const char *line, size_t len,
		     int64_t ln)
{
	size_t from = 0; /* where this line's part of the open object begins */
	if (sc->depth)
		obj_line(&sc->o, ln, 1);
	for (size_t i = 0; i < len; i++) {
		if (sc->depth) {
			if (!inside(sc, line[i]))
				continue;
			if (sc->o.len + (i + 1 - from) > MAX_OBJECT)
				return too_long(b, sc);
			obj_put(&sc->o, line + from, i + 1 - from);
			int rc = job(b, &sc->o, ++sc->ordinal);
			sc->o.len = 0;
			sc->o.nls = 0;
			if (rc < 0)
				return -1;
			sc->state = S_AFTER;
			continue;
		}
		if (json_space(line[i]))
			continue;
		int rc = between(b, sc, line, i, len, ln);
		if (rc < 0)
			return -1;
		if (rc == 1) { /* a job object opens */
			sc->depth = 1;
			from = i;
			obj_line(&sc->o, ln, (int)i + 1);
		}
	}
	if (!sc->depth)
		return 0;
	if (sc->in_str)
		return scan_fail(b, ln, (int)len + 1, "a line break inside a string");
	obj_put(&sc->o, line + from, len - from);
	obj_put(&sc->o, "\n", 1);
	return sc->o.len > MAX_OBJECT ? too_long(b, sc) : 0;
}

/* A read error of zr_line ("path:N:C: reason") at its line. */
static int read_fail(struct tr_build *b, struct zr *in, const char *err)
{
	int64_t line = zr_lineno(in) + 1;
	int col = 1;
	const char *p = zr_error_at(err, tr_path(b), &line, &col);
	return scan_fail(b, line, col, "%s", p);
}

static int philly_jobs(struct tr_build *b, struct zr *in)
{
	struct scan sc = {0};
	char *line, err[512];
	size_t len;
	int r, rc = 0;
	int64_t last = 1;
	size_t last_len = 0;
	while (!rc && (r = zr_line(in, &line, &len, err, sizeof err)) == 1) {
		last = zr_lineno(in);
		last_len = len;
		const char *why;
		size_t at = utf8_check(line, len, &why); /* JSON is UTF-8 (RFC 8259 §8.1) */
		if (at < len)
			rc = scan_fail(b, last, (int)at + 1, "not UTF-8: byte 0x%02x (%s), at byte "
				       "%lld of the %s", (unsigned char)line[at], why,
				       (long long)(zr_offset(in) + (int64_t)at),
				       zr_compressed(in) ? "decompressed text" : "file");
		else
			rc = scan_line(b, &sc, line, len, last);
	}
	if (!rc && r < 0)
		rc = read_fail(b, in, err);
	if (!rc && sc.depth)
		rc = scan_fail(b, sc.o.ls[0].line, sc.o.ls[0].col, "the file ends inside this "
			       "job object");
	else if (!rc && sc.state != S_END)
		rc = scan_fail(b, last, (int)last_len + 1, sc.state == S_START
			       ? "no JSON array of jobs: the file is empty or blank"
			       : "the file ends before the array's closing ']'");
	free(sc.o.text);
	free(sc.o.ls);
	return rc;
}

/* ---- the machine list -------------------------------------------------- */



static int list_fail(char *err, size_t errlen, const char *path, int64_t line, int col,
		     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int list_fail(char *err, size_t errlen, const char *path, int64_t line, int col,
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

#define MAX_COLS 8
enum { M_ID, M_GPUS, M_MEM, M_N };
static const char *const list_cols[M_N] = {"machineId", "number of GPUs", "single GPU mem"};

/* The header row (fields f, nf of them) at line ln: its columns into
 * at; 0, or -1 (err set). */
static int list_header(const struct tr_field *f, int nf, int *at, const char *path, int64_t ln,
		       char *err, size_t errlen)
{
	if (f[0].s[0] == '[' || f[0].s[0] == '{')
		return list_fail(err, errlen, path, ln, 1, "a job log (a JSON array), not a "
				 "machine list: use it as a workload (workload: - {name: N, trace: "
				 "{format: philly, path: ...}})");
	if (nf > MAX_COLS || strcmp(f[0].s, "machineId") != 0)
		return list_fail(err, errlen, path, ln, f[0].col, "expected the header 'machineId, "
				 "number of GPUs, single GPU mem', got a first column '%s'",
				 tr_show(f[0].s, (size_t)f[0].len, (char[TR_SHOW]){0}));
	for (int i = 0; i < nf; i++)
		for (int k = 0; k < M_N; k++)
			if (!strcmp(f[i].s, list_cols[k]))
				at[k] = i;
	for (int k = 0; k < M_N; k++)
		if (at[k] < 0)
			return list_fail(err, errlen, path, ln, 1, "no column '%s' in the header",
					 list_cols[k]);
	return 0;
}

/* A machine's row: its node, or -1 (err set). */
static int list_row(const struct tr_field *f, const int *at, struct trace_node *n,
		    const char *path, int64_t ln, char *err, size_t errlen)
{
	const struct tr_field *g = &f[at[M_GPUS]], *m = &f[at[M_MEM]];
	bool ok = g->len > 0 && g->len <= 9;
	for (int i = 0; ok && i < g->len; i++)
		ok = g->s[i] >= '0' && g->s[i] <= '9';
	long long gpus = ok ? atoll(g->s) : 0;
	if (!ok || gpus > SCN_MAX_GPUS)
		return list_fail(err, errlen, path, ln, g->col, "number of GPUs '%s' is not a "
				 "whole number from 0 to %d",
				 tr_show(g->s, (size_t)g->len, (char[TR_SHOW]){0}), SCN_MAX_GPUS);
	if (gpus > 0 && !m->len)
		return list_fail(err, errlen, path, ln, m->col, "a machine of %lld GPUs without "
				 "its single GPU mem (the GPU model here)", gpus);
	int per = gpus > 0 ? (int)gpus : 1;
	*n = (struct trace_node){.cpu_milli = per * CORES_PER_GPU * 1000,
				 .mem_mib = per * MIB_PER_GPU, .gpus = (int)gpus,
				 .gpu_model = gpus > 0 ? m->s : NULL};
	return 0;
}

static int philly_nodes(struct zr *in, const char *path,
			int (*add)(void *ctx, const struct trace_node *n), void *ctx, char *err,
			size_t errlen)
{
	char *line;
	size_t len;
	int r, at[M_N] = {-1, -1, -1}, ncols = 0;
	struct tr_field f[MAX_COLS];
	while ((r = zr_line(in, &line, &len, err, errlen)) == 1) {
		int64_t ln = zr_lineno(in);
		if (!len)
			continue;
		int nf = tr_split(line, len, f, MAX_COLS);
		if (!ncols) {
			if (list_header(f, nf, at, path, ln, err, errlen) < 0)
				return -1;
			ncols = nf;
			continue;
		}
		if (nf != ncols)
			return list_fail(err, errlen, path, ln, nf > MAX_COLS ? 1 : f[nf - 1].col,
					 "%s%d fields, the header has %d",
					 nf > MAX_COLS ? "more than " : "",
					 nf > MAX_COLS ? MAX_COLS : nf, ncols);
		struct trace_node n;
		if (list_row(f, at, &n, path, ln, err, errlen) < 0 || add(ctx, &n) < 0)
			return -1;
	}
	if (r < 0)
		return -1;
	if (!ncols)
		return list_fail(err, errlen, path, 1, 1, "an empty file: a machine list starts "
				 "with its header 'machineId, number of GPUs, single GPU mem'");
	return 0;
}

/* The machine list's header, or a JSON array whose first object starts
 * with one of the log's keys. */
static bool philly_detect(const char *head, size_t n)
{
	if (n >= 10 && !memcmp(head, "machineId,", 10))
		return true;
	size_t i = 0;
	while (i < n && json_space(head[i]))
		i++;
	if (i >= n || head[i++] != '[')
		return false;
	while (i < n && json_space(head[i]))
		i++;
	if (i >= n || head[i++] != '{')
		return false;
	while (i < n && json_space(head[i]))
		i++;
	static const char *const keys[] = {"\"status\"", "\"vc\"", "\"jobid\"", "\"attempts\"",
					   "\"submitted_time\"", "\"user\""};
	for (size_t k = 0; k < ARRAY_LEN(keys); k++)
		if (n - i >= strlen(keys[k]) && !memcmp(head + i, keys[k], strlen(keys[k])))
			return true;
	return false;
}

/* The machine list: CSV whose header starts machineId. */
static bool philly_node_list(const char *head, size_t n)
{
	return n >= 10 && !memcmp(head, "machineId,", 10);
}

const struct trace_format tf_philly = {
	.name = "philly",
	.what = "Microsoft Philly (msr-fiddle/philly-traces): cluster_job_log (a JSON array) "
		"as jobs, cluster_machine_list as a cluster",
	.detect = philly_detect,
	.jobs = philly_jobs,
	.nodes = philly_nodes,
	.node_list = philly_node_list,
};
