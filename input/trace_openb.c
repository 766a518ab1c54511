/* trace_openb.c - Alibaba's cluster-trace-gpu-v2023 ("openb", Weng et
 * al., ATC'23, FGD; ../shared/reference/traces.md §2.2): node lists and
 * pod lists, CSV with a header row.  Columns are found by name, so the
 * pod lists' full layout and the multigpu lists' reduced one both read.
 *
 * Node lists (sn,cpu_milli,memory_mib,gpu,model), through the nodes
 * hook, a trace_node a row:
 *
 *   cpu_milli, memory_mib, gpu   as they are; model the GPU model (empty,
 *                                and dropped, with gpu 0); sn dropped
 *
 * Pod lists (name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,
 * pod_phase,creation_time,deletion_time,scheduled_time), through the
 * jobs hook.  A pod is a job of one executor (count 1, slots 1, one
 * task):
 *
 *   id           the row's ordinal, 1-based (names are strings)
 *   CPU, memory  cpu_milli, memory_mib
 *   GPU          num_gpu 0: none; num_gpu >= 2 or gpu_milli 1000:
 *                num_gpu whole GPUs; else a share of gpu_milli (1..999)
 *                of one GPU
 *   constraint   gpu_spec, when not empty ("V100M16|V100M32")
 *   queue        qos; no user (the lists have none)
 *   arrival      creation_time (s)
 *   run time     deletion_time - scheduled_time (s)
 *   status       pod_phase: completed_only keeps only Succeeded
 *
 * name is dropped.  Required columns: cpu_milli, memory_mib, num_gpu,
 * gpu_milli, and the three times unless offer-only (trace_opts.offer:
 * docs/traces.md), where the times are not read (a pod is given arrival
 * 0 and run time -1, and the builder orders them), so the multigpu
 * lists, which have none, read only so.  completed_only needs pod_phase.
 *
 * Bad records (docs/traces.md, "Bad records"): a value that is not a
 * whole number (demands) or a number of seconds (times), an empty
 * required value or a row of the wrong length is an error naming it.
 * Skipped and counted: no scheduled_time or deletion_time (Pending pods:
 * no-runtime); a negative creation_time, a deletion before the
 * scheduling or a scheduling before the creation (negative-time); a
 * negative demand or none at all (no-demand); more than the kernel's
 * limits (too-big).  Clamped and counted: gpu_milli with num_gpu 0 (no
 * GPU), gpu_milli 0 or above 1000 with num_gpu 1 (one whole GPU),
 * gpu_milli other than 1000 with num_gpu >= 2 (whole GPUs).
 *
 * Fields are split at every ',': the lists quote nothing.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "util.h"
#include "zread.h"

#define MAX_COLS 64
#define MAX_MEM_MIB (1LL << 30) /* the loader's largest size: 1024 TiB */




/* A whole number, optionally signed, at most 18 digits: 0, or -1. */
static int whole(const struct tr_field *f, int64_t *out)
{
	const char *p = f->s, *end = f->s + f->len;
	bool neg = p < end && *p == '-';
	p += p < end && (*p == '-' || *p == '+');
	if (p == end || end - p > 18)
		return -1;
	int64_t v = 0;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	*out = neg ? -v : v;
	return 0;
}

/* Seconds, [-+]digits[.digits], into µs: 0, or -1 if not such a number
 * or beyond 10^11 s. */
static int secs_us(const struct tr_field *f, int64_t *out)
{
	const char *p = f->s, *end = f->s + f->len;
	p += p < end && (*p == '-' || *p == '+');
	int digits = 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		digits++;
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++)
			digits++;
	if (p != end || !digits)
		return -1;
	double d = strtod(f->s, NULL);
	if (!(fabs(d) < 1e11))
		return -1;
	*out = (int64_t)llround(d * 1e6);
	return 0;
}


/* ---- the header ----------------------------------------------------- */

enum kind { NODES, PODS };

enum { P_CPU, P_MEM, P_NGPU, P_GMILLI, P_SPEC, P_QOS, P_PHASE, P_CREATE, P_DELETE, P_SCHED,
       P_N };
static const char *const pod_cols[P_N] = {
	"cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "gpu_spec", "qos", "pod_phase",
	"creation_time", "deletion_time", "scheduled_time"};

enum { N_CPU, N_MEM, N_GPU, N_MODEL, N_N };
static const char *const node_cols[N_N] = {"cpu_milli", "memory_mib", "gpu", "model"};

struct header {
	enum kind kind;
	int ncols;             /* fields of every row */
	int at[P_N];           /* field index of each known column, -1: absent */
};

/* A header's problem into msg: -1. */
static int hmsg(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int hmsg(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Read the header row (the first line) into h: 0; -1 with the problem
 * in msg, at column *col of line 1; -2 on a read error (zr_line's
 * message in err). */
static int read_header(struct zr *in, struct header *h, char *msg, size_t len, int *col,
		       char *err, size_t errlen)
{
	char *line;
	size_t n;
	int r = zr_line(in, &line, &n, err, errlen);
	*col = 1;
	if (r < 0)
		return -2;
	if (r == 0)
		return hmsg(msg, len, "an empty file: an openb list starts with its header row");
	if (n >= 3 && !memcmp(line, "\xef\xbb\xbf", 3)) { /* a UTF-8 byte order mark */
		line += 3;
		n -= 3;
	}
	struct tr_field f[MAX_COLS];
	int nf = tr_split(line, n, f, MAX_COLS);
	if (nf > MAX_COLS)
		return hmsg(msg, len, "more than %d columns in the header", MAX_COLS);
	if (!strcmp(f[0].s, "name"))
		h->kind = PODS;
	else if (!strcmp(f[0].s, "sn"))
		h->kind = NODES;
	else
		return hmsg(msg, len, "the header's first column '%s' is neither 'name' (a pod "
			    "list) nor 'sn' (a node list)", TR_VAL(&f[0]));
	const char *const *names = h->kind == PODS ? pod_cols : node_cols;
	int known = h->kind == PODS ? P_N : N_N;
	for (int k = 0; k < P_N; k++)
		h->at[k] = -1;
	for (int i = 1; i < nf; i++)
		for (int k = 0; k < known; k++) {
			if (strcmp(f[i].s, names[k]) != 0)
				continue;
			if (h->at[k] >= 0) {
				*col = f[i].col;
				return hmsg(msg, len, "column '%s' appears twice", names[k]);
			}
			h->at[k] = i;
		}
	h->ncols = nf;
	return 0;
}

/* The first of columns [0, n) of h that is absent, or -1. */
static int missing(const struct header *h, int n)
{
	for (int k = 0; k < n; k++)
		if (h->at[k] < 0)
			return k;
	return -1;
}

/* ---- pods ----------------------------------------------------------- */

/* A demand column's whole number: 0, or -1 (error set). */
static int demand(struct tr_build *b, const struct tr_field *f, int k, int64_t *v)
{
	if (!f->len)
		return tr_fail(b, f->col, "%s is empty", pod_cols[k]);
	if (whole(f, v) < 0)
		return tr_fail(b, f->col, "%s '%s' is not a whole number", pod_cols[k], TR_VAL(f));
	return 0;
}

/* Time column k: 0 with *us and *have (false when absent or empty), or
 * -1 (error set) if not a number of seconds. */
static int pod_time(struct tr_build *b, const struct header *h, struct tr_field *f, int k,
		    int64_t *us, bool *have)
{
	*have = false;
	if (h->at[k] < 0 || !f[h->at[k]].len)
		return 0;
	const struct tr_field *v = &f[h->at[k]];
	if (secs_us(v, us) < 0)
		return tr_fail(b, v->col, "%s '%s' is not a number of seconds", pod_cols[k],
			       TR_VAL(v));
	*have = true;
	return 0;
}

/* The GPUs of a pod: into role r; 1 if clamped, 0, or -1 (strict). */
static int pod_gpus(struct tr_build *b, const struct tr_field *f, int64_t ngpu, int64_t milli,
		    struct scn_trace_role *r)
{
	if (ngpu == 0) {
		if (milli)
			return tr_clamp(b, f->col, "gpu_milli %lld with num_gpu 0: no GPU",
					(long long)milli) < 0 ? -1 : 1;
		return 0;
	}
	if (ngpu == 1 && milli >= 1 && milli <= 999) {
		r->gpu_milli = (int)milli;
		return 0;
	}
	r->gpus = (int)ngpu;
	if (milli == 1000)
		return 0;
	if (ngpu == 1)
		return tr_clamp(b, f->col, "gpu_milli %lld with num_gpu 1: one whole GPU",
				(long long)milli) < 0 ? -1 : 1;
	return tr_clamp(b, f->col, "gpu_milli %lld with num_gpu %lld: %lld whole GPUs",
			(long long)milli, (long long)ngpu, (long long)ngpu) < 0 ? -1 : 1;
}

static int pod_row(struct tr_build *b, const struct header *h, char *line, size_t len,
		   int64_t ordinal)
{
	struct tr_field f[MAX_COLS];
	int nf = tr_split(line, len, f, MAX_COLS);
	if (nf != h->ncols)
		return tr_fail(b, nf > MAX_COLS ? 1 : f[nf - 1].col, "%s%d fields, the header has "
			       "%d", nf > MAX_COLS ? "more than " : "",
			       nf > MAX_COLS ? MAX_COLS : nf, h->ncols);
	if (ordinal > INT32_MAX)
		return tr_fail(b, 1, "more than %d pods", INT32_MAX);
	const struct trace_opts *o = tr_opts(b);
	int64_t v[4];
	for (int k = P_CPU; k <= P_GMILLI; k++)
		if (demand(b, &f[h->at[k]], k, &v[k]) < 0)
			return -1;
	int64_t cre = 0, del = 0, sch = 0;
	bool hc = false, hd = false, hs = false; /* offer-only: times not read */
	if (!o->offer && (pod_time(b, h, f, P_CREATE, &cre, &hc) < 0 ||
			  pod_time(b, h, f, P_DELETE, &del, &hd) < 0 ||
			  pod_time(b, h, f, P_SCHED, &sch, &hs) < 0))
		return -1;
	if (!o->offer && !hc)
		return tr_fail(b, f[h->at[P_CREATE]].col, "creation_time is empty");
	if (!o->offer && cre >= 0) /* the clock, whatever the checks below leave out */
		tr_seen(b, cre);
	if (o->completed_only && strcmp(f[h->at[P_PHASE]].s, "Succeeded") != 0)
		return tr_skip(b, TRS_STATUS, f[h->at[P_PHASE]].col, "pod_phase '%s'",
			       TR_VAL(&f[h->at[P_PHASE]]));
	if (!o->offer) {
		const struct tr_field *fc = &f[h->at[P_CREATE]], *fd = &f[h->at[P_DELETE]],
				   *fs = &f[h->at[P_SCHED]];
		if (cre < 0)
			return tr_skip(b, TRS_NEG_TIME, fc->col, "creation_time %s is negative",
				       TR_VAL(fc));
		if (!hs)
			return tr_skip(b, TRS_NO_RUNTIME, fs->col, "no scheduled_time: no run "
				       "time");
		if (!hd)
			return tr_skip(b, TRS_NO_RUNTIME, fd->col, "no deletion_time: no run time");
		if (sch < cre)
			return tr_skip(b, TRS_NEG_TIME, fs->col, "scheduled_time %s before "
				       "creation_time %s", TR_VAL(fs), TR_VAL(fc));
		if (del < sch)
			return tr_skip(b, TRS_NEG_TIME, fd->col, "deletion_time %s before "
				       "scheduled_time %s", TR_VAL(fd), TR_VAL(fs));
	}
	for (int k = P_CPU; k <= P_GMILLI; k++)
		if (v[k] < 0)
			return tr_skip(b, TRS_NO_DEMAND, f[h->at[k]].col, "%s %lld is negative",
				       pod_cols[k], (long long)v[k]);
	if (v[P_CPU] > (int64_t)SCN_MAX_CORES * 1000 || v[P_MEM] > MAX_MEM_MIB ||
	    v[P_NGPU] > SCN_MAX_GPUS) {
		int k = v[P_CPU] > (int64_t)SCN_MAX_CORES * 1000 ? P_CPU
			: v[P_MEM] > MAX_MEM_MIB ? P_MEM : P_NGPU;
		return tr_skip(b, TRS_TOO_BIG, f[h->at[k]].col, "%s %lld: above the limit "
			       "(%lld)", pod_cols[k], (long long)v[k],
			       k == P_CPU ? (long long)SCN_MAX_CORES * 1000
			       : k == P_MEM ? MAX_MEM_MIB : (long long)SCN_MAX_GPUS);
	}
	if (!v[P_CPU] && !v[P_MEM] && !v[P_NGPU])
		return tr_skip(b, TRS_NO_DEMAND, f[h->at[P_CPU]].col, "the pod asks for nothing "
			       "(cpu_milli, memory_mib and num_gpu 0)");
	struct scn_trace_shape sh = {
		.nroles = 1, .tasks = 1,
		.role[0] = {.count = 1, .slots = 1, .cpu_milli = (int)v[P_CPU],
			    .mem_mib = v[P_MEM]}};
	if (pod_gpus(b, &f[h->at[P_GMILLI]], v[P_NGPU], v[P_GMILLI], &sh.role[0]) < 0)
		return -1;
	if (h->at[P_SPEC] >= 0 && f[h->at[P_SPEC]].len)
		sh.role[0].constraint = tr_constraint(b, f[h->at[P_SPEC]].s);
	const struct tr_field *qos = h->at[P_QOS] >= 0 ? &f[h->at[P_QOS]] : NULL;
	const char *queue = qos && qos->len ? qos->s : NULL;
	int64_t arrival = o->offer ? 0 : cre, run = o->offer ? -1 : del - sch;
	return tr_add(b, (int32_t)ordinal, arrival, run, -1, &sh, NULL, queue, NULL) < 0 ? -1 : 0;
}

/* A read error of zr_line, "path:N:C: reason" or "path: reason", as an
 * error at line N (else the line after the last read) of the trace. */
static int read_fail(struct tr_build *b, struct zr *in, const char *err)
{
	int64_t line = zr_lineno(in) + 1;
	int col = 1;
	const char *p = zr_error_at(err, tr_path(b), &line, &col);
	tr_at(b, line);
	return tr_fail(b, col, "%s", p);
}

/* An error in the header row (line 1, not a record of the counts: the
 * import fails). */
static int header_fail(struct tr_build *b, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int header_fail(struct tr_build *b, int col, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	tr_at(b, 1);
	return tr_fail(b, col, "%s", msg);
}

static int openb_jobs(struct tr_build *b, struct zr *in)
{
	struct header h;
	char msg[512], err[512];
	int col;
	int rc = read_header(in, &h, msg, sizeof msg, &col, err, sizeof err);
	if (rc == -2)
		return read_fail(b, in, err);
	if (rc < 0)
		return header_fail(b, col, "%s", msg);
	if (h.kind == NODES)
		return header_fail(b, 1, "a node list (header 'sn,...'), not a pod list: use it "
				   "as a cluster (cluster: - {name: N, trace: {format: "
				   "alibaba-openb-2023, path: ...}})");
	const struct trace_opts *o = tr_opts(b);
	int k = missing(&h, P_GMILLI + 1);
	if (k >= 0)
		return header_fail(b, 1, "no column '%s' in the header", pod_cols[k]);
	for (k = P_CREATE; k <= P_SCHED && !o->offer; k++)
		if (h.at[k] < 0)
			return header_fail(b, 1, "no column '%s' in the header: a list without "
					   "times reads only offer-only (offer: true)", pod_cols[k]);
	if (o->completed_only && h.at[P_PHASE] < 0)
		return header_fail(b, 1, "no column 'pod_phase' in the header: completed_only "
				   "needs it");
	char *line;
	size_t len;
	int r;
	int64_t ordinal = 0;
	while ((r = zr_line(in, &line, &len, err, sizeof err)) == 1) {
		if (!len)
			continue;
		tr_at(b, zr_lineno(in));
		if (pod_row(b, &h, line, len, ++ordinal) < 0)
			return -1;
	}
	return r < 0 ? read_fail(b, in, err) : 0;
}

/* ---- nodes ---------------------------------------------------------- */

static int node_fail(char *err, size_t errlen, const char *path, int64_t line, int col,
		     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int node_fail(char *err, size_t errlen, const char *path, int64_t line, int col,
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

/* A node column's whole number in [0, max]: 0, or -1 (err set). */
static int node_num(const struct tr_field *f, int k, int64_t max, int64_t *v, const char *path,
		    int64_t line, char *err, size_t errlen)
{
	if (!f->len)
		return node_fail(err, errlen, path, line, f->col, "%s is empty", node_cols[k]);
	const char *why = whole(f, v) < 0 ? "is not a whole number" : *v < 0 ? "is negative"
			  : *v > max ? "is out of range" : NULL;
	if (!why)
		return 0;
	return node_fail(err, errlen, path, line, f->col, "%s '%s' %s", node_cols[k], TR_VAL(f),
			 why);
}

static int openb_nodes(struct zr *in, const char *path,
		       int (*add)(void *ctx, const struct trace_node *n), void *ctx, char *err,
		       size_t errlen)
{
	struct header h;
	char msg[512];
	int col;
	int rc = read_header(in, &h, msg, sizeof msg, &col, err, errlen);
	if (rc == -2)
		return -1;
	if (rc < 0)
		return node_fail(err, errlen, path, 1, col, "%s", msg);
	if (h.kind == PODS)
		return node_fail(err, errlen, path, 1, 1, "a pod list (header 'name,...'), not a "
				 "node list: use it as a workload (workload: - {name: N, trace: "
				 "{format: alibaba-openb-2023, path: ...}})");
	int k = missing(&h, N_N);
	if (k >= 0)
		return node_fail(err, errlen, path, 1, 1, "no column '%s' in the header",
				 node_cols[k]);
	char *line;
	size_t len;
	int r;
	while ((r = zr_line(in, &line, &len, err, errlen)) == 1) {
		if (!len)
			continue;
		int64_t ln = zr_lineno(in);
		struct tr_field f[MAX_COLS];
		int nf = tr_split(line, len, f, MAX_COLS);
		if (nf != h.ncols)
			return node_fail(err, errlen, path, ln, nf > MAX_COLS ? 1 : f[nf - 1].col,
					 "%s%d fields, the header has %d",
					 nf > MAX_COLS ? "more than " : "",
					 nf > MAX_COLS ? MAX_COLS : nf, h.ncols);
		int64_t cpu, mem, gpu;
		if (node_num(&f[h.at[N_CPU]], N_CPU, INT_MAX, &cpu, path, ln, err, errlen) < 0 ||
		    node_num(&f[h.at[N_MEM]], N_MEM, MAX_MEM_MIB, &mem, path, ln, err,
			     errlen) < 0 ||
		    node_num(&f[h.at[N_GPU]], N_GPU, INT_MAX, &gpu, path, ln, err, errlen) < 0)
			return -1;
		const struct tr_field *m = &f[h.at[N_MODEL]];
		if (gpu > 0 && !m->len)
			return node_fail(err, errlen, path, ln, m->col, "a node of %lld GPUs "
					 "without a model", (long long)gpu);
		struct trace_node n = {.cpu_milli = (int)cpu, .mem_mib = mem, .gpus = (int)gpu,
				       .gpu_model = gpu > 0 ? m->s : NULL};
		if (add(ctx, &n) < 0)
			return -1;
	}
	return r < 0 ? -1 : 0;
}

/* The header row names the list: a node list or a pod list. */
static bool openb_detect(const char *head, size_t n)
{
	if (n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3)) {
		head += 3;
		n -= 3;
	}
	return (n >= 13 && !memcmp(head, "sn,cpu_milli,", 13)) ||
	       (n >= 15 && !memcmp(head, "name,cpu_milli,", 15));
}

/* A node list: its header's first column is sn (as read_header reads
 * it: after a byte order mark, spaces and tabs trimmed). */
static bool openb_node_list(const char *head, size_t n)
{
	size_t i = n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3) ? 3 : 0;
	while (i < n && (head[i] == ' ' || head[i] == '\t'))
		i++;
	if (n - i < 2 || memcmp(head + i, "sn", 2))
		return false;
	for (i += 2; i < n && (head[i] == ' ' || head[i] == '\t'); i++)
		;
	return i == n || head[i] == ',' || head[i] == '\n' || head[i] == '\r';
}

const struct trace_format tf_openb = {
	.name = "alibaba-openb-2023",
	.what = "Alibaba cluster-trace-gpu-v2023 (openb, FGD): pod lists as jobs, node lists "
		"as clusters",
	.detect = openb_detect,
	.jobs = openb_jobs,
	.nodes = openb_nodes,
	.node_list = openb_node_list,
};
