/* trace_swf.c - the Standard Workload Format of the Parallel Workloads
 * Archive (Feitelson et al., v2.2; ../shared/reference/traces.md §1).
 *
 * One job a line, 18 whitespace-separated numbers, -1 for "unknown";
 * lines starting with ';' are comments, the header's "; Key: value"
 * among them.  Every field is read as a number (real logs write 18.00
 * where an integer is meant).  What becomes what (docs/traces.md):
 *
 *   arrival      field 2 (submit time, s)
 *   run time     field 4 (s); -1: skipped (no-runtime)
 *   processors   field 8 (requested), else field 5 (allocated); neither
 *                above 0: skipped (no-demand); the job is
 *                ceil(procs / exec_cores) executors of exec_cores cores
 *                and as many slots, running procs tasks
 *   memory       field 10 (requested KB per processor), else field 7
 *                (used KB per processor), times the executor's cores;
 *                neither: the mapping's executor memory
 *   requested    field 9 (s), for backfilling; -1: none
 *   status       field 11: 1 completed (completed_only keeps only these)
 *   user, queue  fields 12 and 15, as their numbers' text; -1: none
 *   kind         field 14 (the executable, i.e. application, number) as
 *                its number's text; -1: none
 *
 * A negative submit time is skipped (negative-time); a fractional
 * processor count is rounded up and counted as clamped.  Fields 3, 6,
 * 13, 16-18 are read (checked to be numbers) and dropped.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "util.h"
#include "zread.h"

#define SWF_FIELDS 18
#define SWF_MAX_S 1e11              /* any time, s: its µs fit in 64 bits */
#define SWF_MAX_MEM_MIB (1LL << 30) /* an executor's memory: the loader's largest */

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* A field's number: the integer fast path, strtod for the rest.  Returns
 * 0, or -1 if the token is not a whole number. */
static int number(const char *p, const char *end, double *out)
{
	const char *q = p;
	bool neg = *q == '-';
	q += neg || *q == '+';
	int64_t v = 0;
	const char *digits = q;
	while (q < end && *q >= '0' && *q <= '9' && q - digits < 18)
		v = v * 10 + (*q++ - '0');
	if (q == end && q > digits) {
		*out = neg ? -(double)v : (double)v;
		return 0;
	}
	char tmp[64];
	size_t n = (size_t)(end - p);
	if (n >= sizeof tmp)
		return -1;
	memcpy(tmp, p, n);
	tmp[n] = 0;
	char *e;
	double d = strtod(tmp, &e);
	if (*e || !isfinite(d))
		return -1;
	*out = d;
	return 0;
}

static int64_t sec_us(double s)
{
	return (int64_t)llround(s * 1e6);
}

/* The text of an id field, or NULL for -1 (or any negative id). */
static const char *id_text(double v, char *buf, size_t len)
{
	if (v < 0)
		return NULL;
	snprintf(buf, len, "%.15g", v);
	return buf;
}

static int swf_record(struct tr_build *b, char *line, size_t len)
{
	double f[SWF_FIELDS];
	int col[SWF_FIELDS];
	const char *p = line, *end = line + len;
	int n = 0;
	for (;;) {
		while (p < end && is_space(*p))
			p++;
		if (p == end)
			break;
		const char *s = p;
		while (p < end && !is_space(*p))
			p++;
		if (n == SWF_FIELDS)
			return tr_fail(b, (int)(s - line) + 1, "a 19th field '%s': SWF has %d",
				       tr_show(s, (size_t)(p - s), (char[TR_SHOW]){0}), SWF_FIELDS);
		col[n] = (int)(s - line) + 1;
		if (number(s, p, &f[n]) < 0)
			return tr_fail(b, col[n], "field %d '%s' is not a number", n + 1,
				       tr_show(s, (size_t)(p - s), (char[TR_SHOW]){0}));
		n++;
	}
	if (n < SWF_FIELDS)
		return tr_fail(b, n ? col[n - 1] : 1, "%d fields, SWF has %d", n, SWF_FIELDS);
	const struct trace_opts *o = tr_opts(b);
	static const int times[] = {1, 3, 8}; /* submit, run and requested time, s */
	for (int k = 0; k < 3; k++)
		if (!(fabs(f[times[k]]) < SWF_MAX_S))
			return tr_fail(b, col[times[k]], "field %d %.15g s is out of range (10^11 s)",
				       times[k] + 1, f[times[k]]);
	if (!(f[0] >= INT32_MIN && f[0] <= INT32_MAX))
		return tr_fail(b, col[0], "field 1 %.15g is not a job number", f[0]);
	if (f[1] < 0)
		return tr_skip(b, TRS_NEG_TIME, col[1], "submit time %.15g s is negative", f[1]);
	tr_seen(b, sec_us(f[1])); /* the clock, whatever the checks below leave out */
	if (f[3] < 0)
		return tr_skip(b, TRS_NO_RUNTIME, col[3], "run time %.15g: unknown", f[3]);
	int pf = f[7] > 0 ? 7 : 4;
	double procs = f[pf];
	if (!(procs > 0))
		return tr_skip(b, TRS_NO_DEMAND, col[4], "no processors (fields 5 and 8: %.15g, "
			       "%.15g)", f[4], f[7]);
	if (procs > (double)SCN_MAX_EXECUTORS * SCN_MAX_CORES)
		return tr_skip(b, TRS_TOO_BIG, col[pf], "%.15g processors", procs);
	if (procs != floor(procs)) {
		if (tr_clamp(b, col[pf], "%.15g processors: not a whole number", procs) < 0)
			return -1;
		procs = ceil(procs);
	}
	if (o->completed_only && f[10] != 1) {
		tr_skip(b, TRS_STATUS, col[10], "status %.15g", f[10]);
		return 0;
	}
	int ec = o->exec_cores > 0 ? o->exec_cores : 1;
	int64_t np = (int64_t)procs;
	int64_t execs = (np + ec - 1) / ec;
	if (execs > SCN_MAX_EXECUTORS)
		return tr_skip(b, TRS_TOO_BIG, col[pf], "%lld processors: %lld executors of %d "
			       "cores, above %d", (long long)np, (long long)execs, ec,
			       SCN_MAX_EXECUTORS);
	int cores = np < ec ? (int)np : ec;
	double kb = f[9] > 0 ? f[9] : f[6] > 0 ? f[6] : -1;
	if (kb > 0 && kb * cores / 1024.0 > SWF_MAX_MEM_MIB)
		return tr_skip(b, TRS_TOO_BIG, col[f[9] > 0 ? 9 : 6], "%.15g KB a processor: above "
			       "the limit", kb);
	int64_t mem = kb > 0 ? (int64_t)ceil(kb * cores / 1024.0)
			     : (o->exec_mem_mib ? o->exec_mem_mib : 1024);
	struct scn_trace_shape sh = {
		.nroles = 1, .tasks = (int)np,
		.role[0] = {.count = (int)execs, .slots = cores, .cpu_milli = cores * 1000,
			    .mem_mib = mem}};
	char ub[32], qb[32], kb_[32];
	int rc = tr_add(b, (int32_t)f[0], sec_us(f[1]), sec_us(f[3]),
			f[8] > 0 ? sec_us(f[8]) : -1, &sh, id_text(f[11], ub, sizeof ub),
			id_text(f[14], qb, sizeof qb), id_text(f[13], kb_, sizeof kb_));
	return rc;
}

static int swf_jobs(struct tr_build *b, struct zr *in)
{
	char *line, err[512];
	size_t len;
	int r;
	while ((r = zr_line(in, &line, &len, err, sizeof err)) == 1) {
		size_t i = 0;
		while (i < len && is_space(line[i]))
			i++;
		if (i == len || line[i] == ';')
			continue;
		tr_at(b, zr_lineno(in));
		int rc = swf_record(b, line, len);
		if (rc < 0)
			return -1;
		if (rc == 2)
			return 0;
	}
	if (r < 0) { /* zr's "path:N:C: reason": at line N */
		int64_t line = zr_lineno(in) + 1;
		int col = 1;
		const char *p = zr_error_at(err, tr_path(b), &line, &col);
		tr_at(b, line);
		return tr_fail(b, col, "%s", p);
	}
	return 0;
}

/* An SWF file's header's machine: MaxNodes nodes (else MaxProcs) of
 * MaxProcs / MaxNodes cores, each with MaxMemory KB when given, else 1
 * GiB a core (the mapping's default executor memory a processor); by
 * default read as one node of them all (the format's pool: the
 * archive's machine as the published simulators see it, a pool of
 * MaxProcs processors). */
static int swf_nodes(struct zr *in, const char *path,
		     int (*add)(void *ctx, const struct trace_node *n), void *ctx, char *err,
		     size_t errlen)
{
	char *line;
	size_t len;
	long long nodes = 0, procs = 0, mem_kb = 0;
	int r;
	while ((r = zr_line(in, &line, &len, err, errlen)) == 1) {
		if (line[0] != ';')
			break;
		long long v;
		if (sscanf(line, "; MaxNodes: %lld", &v) == 1)
			nodes = v;
		else if (sscanf(line, "; MaxProcs: %lld", &v) == 1)
			procs = v;
		else if (sscanf(line, "; MaxMemory: %lld", &v) == 1)
			mem_kb = v;
	}
	if (r < 0)
		return -1;
	if (nodes <= 0)
		nodes = procs;
	if (procs <= 0)
		procs = nodes;
	if (mem_kb < 0 || mem_kb > SWF_MAX_MEM_MIB * 1024)
		mem_kb = 0; /* unusable: 1 GiB a core, as when absent */
	if (nodes <= 0 || nodes > 100000 || procs / nodes > SCN_MAX_NODE_CORES) {
		snprintf(err, errlen, "%s:1:1: no usable MaxNodes or MaxProcs in the header (%lld, %lld): "
			 "give the cluster in the scenario", path, nodes, procs);
		return -1;
	}
	int cores = (int)(procs / nodes) > 0 ? (int)(procs / nodes) : 1;
	struct trace_node n = {.cpu_milli = cores * 1000,
			       .mem_mib = mem_kb > 0 ? (mem_kb + 1023) / 1024 : 1024LL * cores};
	for (long long i = 0; i < nodes; i++)
		if (add(ctx, &n) < 0)
			return -1;
	return 0;
}

/* SWF: the first non-blank line is a ';' comment or 18 numbers. */
static bool swf_detect(const char *head, size_t n)
{
	size_t i = 0;
	while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
		i++;
	if (i < n && head[i] == ';')
		return true;
	int fields = 0;
	while (i < n && head[i] != '\n') {
		while (i < n && is_space(head[i]))
			i++;
		if (i >= n || head[i] == '\n' || head[i] == '\r')
			break;
		if (!(head[i] == '-' || (head[i] >= '0' && head[i] <= '9')))
			return false;
		while (i < n && !is_space(head[i]) && head[i] != '\n')
			i++;
		fields++;
	}
	return fields == SWF_FIELDS;
}

const struct trace_format tf_swf = {
	.name = "swf",
	.what = "Standard Workload Format (Parallel Workloads Archive): jobs; a header's "
		"MaxNodes/MaxProcs as a cluster",
	.detect = swf_detect,
	.jobs = swf_jobs,
	.nodes = swf_nodes,
	.sorted = true,
	.kinds = true,
	.pool = true,
};
