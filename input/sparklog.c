/* sparklog.c - a streaming Spark event log reader (sparklog.h).
 *
 * One line, one event: zr_line gives it, json_parse builds its tree
 * (the accumulators, plans and properties that nothing here reads are
 * validated but not built), a handler per event kind takes the fields
 * it needs into struct slog.  Lookups by id go through small open-
 * addressing hash tables; strings and arrays kept live in one pool,
 * dropped at once by slog_free (both in sparklog_store.c).  What a read
 * log says (rule and reason names, stage spans, `trace info`) is in
 * sparklog_info.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "json.h"
#include "scenario.h"
#include "sparklog_store.h"
#include "util.h"
#include "zread.h"

/* ---- the reader ---------------------------------------------------- */

_Static_assert(sizeof(struct slog_task) == 56, "struct slog_task: 56 bytes, as sparklog.h says");

struct rd {
	struct slog *l;
	struct zr *z;
	struct json_parser *jp;
	bool strict;
	char *err;
	size_t errlen;
	const char *event;         /* the short name of the event being read */
	struct imap stage_of;      /* (id << 32 | attempt) -> stage index */
	struct imap job_of;        /* Job ID -> job index */
	struct imap task_seen;     /* Task ID -> task index */
	struct imap profile_of;    /* Resource Profile Id -> profile index */
	struct smap exec_of;       /* Executor ID -> exec index */
	struct smap host_of;       /* host -> host index */
	int cap_profiles, cap_execs, cap_hosts, cap_jobs, cap_stages, cap_tasks;
};

/* What a duplicate id says of the log. */
#define DUP " (events repeated, or two logs joined?)"

/* The one-line error "path:line:col: Event: message"; a control byte
 * that a quoted value brings (a decoded "\n") is written as '?'. */
static int bad(struct rd *r, int64_t col, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	for (char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	snprintf(r->err, r->errlen, "%s:%lld:%lld: %s: %s", r->l->path,
		 (long long)zr_lineno(r->z), (long long)(col > 0 ? col : 1), r->event, msg);
	return -1;
}

/* An inconsistent record of rule k: an error when strict, else counted
 * (0: the caller applies the rule). */
static int incon(struct rd *r, enum slog_rule k, int64_t col, const char *fmt, ...)
{
	if (r->strict) {
		char msg[400];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof msg, fmt, ap);
		va_end(ap);
		return bad(r, col, "%s", msg);
	}
	if (!r->l->count[k]++)
		r->l->first_line[k] = zr_lineno(r->z);
	return 0;
}

/* A value for a message: its type, a string's first bytes too. */
static const char *describe(const struct json *v, char *buf, size_t n)
{
	if (json_type(v) != JSON_STRING)
		return json_type_name(json_type(v));
	const char *s = json_str(v);
	size_t len = strlen(s);
	if (len > 40) {
		int cut = 40; /* not inside a UTF-8 character */
		while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
			cut--;
		snprintf(buf, n, "a string (\"%.*s...\")", cut, s);
	} else
		snprintf(buf, n, "a string (\"%s\")", s);
	return buf;
}

/* Member `key` of obj (whose name in messages is `in`: "" for the
 * event itself).  Returns 1 with *v set, 0 if absent or null and not
 * needed, -1 (error written) if needed and absent. */
static int member(struct rd *r, const struct json *obj, const char *key, const char *in,
		  bool need, const struct json **v)
{
	*v = json_get(obj, key);
	if (*v && (json_type(*v) != JSON_NULL || need))
		return 1;
	if (!need)
		return 0;
	if (*in)
		return bad(r, 1, "missing '%s' in '%s'", key, in);
	return bad(r, 1, "missing '%s'", key);
}

static int wrong(struct rd *r, const struct json *v, const char *key, const char *expected)
{
	char buf[64];
	return bad(r, json_col(r->jp, v), "'%s' is %s, expected %s", key, describe(v, buf, sizeof buf),
		   expected);
}

/* A string value read as text: 0, or -1 if it holds a NUL ("\u0000"),
 * where its C string would end. */
static int nul_free(struct rd *r, const struct json *v, const char *key)
{
	if (strlen(json_str(v)) == json_len(v))
		return 0;
	return bad(r, json_col(r->jp, v), "'%s' holds a NUL character ('\\u0000'): not text "
		   "hetsim reads", key);
}

/* Spark property `key`'s value v as text into *s: 0, or -1. */
static int prop_str(struct rd *r, const struct json *v, const char *key, const char **s)
{
	if (!(*s = json_str(v)))
		return wrong(r, v, key, "a string");
	return nul_free(r, v, key);
}

/* An integer member in [lo, hi]: 1 read into *out, 0 absent, -1 error. */
static int get_int(struct rd *r, const struct json *obj, const char *key, const char *in,
		   bool need, int64_t lo, int64_t hi, int64_t *out)
{
	const struct json *v;
	int k = member(r, obj, key, in, need, &v);
	if (k <= 0)
		return k;
	int64_t x;
	if (!json_int(v, &x))
		return wrong(r, v, key, "an integer");
	if (x < lo || x > hi)
		return bad(r, json_col(r->jp, v), "'%s' %" PRId64 " is out of range [%" PRId64
			   ", %" PRId64 "]", key, x, lo, hi);
	*out = x;
	return 1;
}

static int get_i32(struct rd *r, const struct json *obj, const char *key, const char *in,
		   bool need, int *out)
{
	int64_t x;
	int k = get_int(r, obj, key, in, need, 0, INT_MAX, &x);
	if (k == 1)
		*out = (int)x;
	return k;
}

/* A moment, epoch ms: in [0, SLOG_MAX_MS], so that no difference of two
 * overflows. */
static int get_time(struct rd *r, const struct json *obj, const char *key, const char *in,
		    bool need, int64_t *out)
{
	return get_int(r, obj, key, in, need, 0, SLOG_MAX_MS, out);
}

/* A duration metric, ms: any integer (the rules check its range). */
static int get_ms(struct rd *r, const struct json *obj, const char *key, const char *in,
		  int64_t *out)
{
	return get_int(r, obj, key, in, false, INT64_MIN, INT64_MAX, out);
}

static int get_num(struct rd *r, const struct json *obj, const char *key, const char *in,
		   bool need, double *out)
{
	const struct json *v;
	int k = member(r, obj, key, in, need, &v);
	if (k <= 0)
		return k;
	if (!json_num(v, out))
		return wrong(r, v, key, "a number");
	return 1;
}

static int get_bool(struct rd *r, const struct json *obj, const char *key, const char *in,
		    bool *out)
{
	const struct json *v;
	int k = member(r, obj, key, in, false, &v);
	if (k <= 0)
		return k;
	if (!json_bool(v, out))
		return wrong(r, v, key, "true or false");
	return 1;
}

/* A string member, borrowed from the line (copy what is kept). */
static int get_str(struct rd *r, const struct json *obj, const char *key, const char *in,
		   bool need, const char **out)
{
	const struct json *v;
	int k = member(r, obj, key, in, need, &v);
	if (k <= 0)
		return k;
	if (!(*out = json_str(v)))
		return wrong(r, v, key, "a string");
	return nul_free(r, v, key) < 0 ? -1 : 1;
}

/* A member of type t (JSON_OBJECT or JSON_ARRAY). */
static int get_tree(struct rd *r, const struct json *obj, const char *key, const char *in,
		    bool need, enum json_type t, const struct json **out)
{
	int k = member(r, obj, key, in, need, out);
	if (k <= 0)
		return k;
	if (json_type(*out) != t)
		return wrong(r, *out, key, json_type_name(t));
	return 1;
}

static const char *keep(struct rd *r, const char *s)
{
	return s ? slog_pool_str(r->l->mem, s, strlen(s)) : NULL;
}

static int host_index(struct rd *r, const char *host)
{
	int h = slog_smap_get(&r->host_of, host);
	if (h >= 0)
		return h;
	struct slog *l = r->l;
	xgrow(&l->hosts, &r->cap_hosts, l->nhosts + 1, sizeof *l->hosts);
	l->hosts[l->nhosts] = keep(r, host);
	slog_smap_put(&r->host_of, l->hosts[l->nhosts], l->nhosts);
	return l->nhosts++;
}

/* An int array member (Parent IDs, Stage IDs) into the pool. */
static int get_ids(struct rd *r, const struct json *obj, const char *key, const char *in,
		   const int **ids, int *n)
{
	const struct json *a;
	int k = get_tree(r, obj, key, in, false, JSON_ARRAY, &a);
	if (k <= 0)
		return k;
	int *out = slog_pool_alloc(r->l->mem, (json_len(a) ? json_len(a) : 1) * sizeof *out);
	int i = 0;
	for (const struct json *e = json_first(a); e; e = json_next(e), i++) {
		int64_t x;
		if (!json_int(e, &x) || x < 0 || x > INT_MAX) {
			char buf[64];
			return bad(r, json_col(r->jp, a), "'%s' holds %s, expected stage ids "
				   "(integers in [0, %d])", key, json_int(e, &x) ? "an id out of range"
				   : describe(e, buf, sizeof buf), INT_MAX);
		}
		out[i] = (int)x;
	}
	*ids = out;
	*n = i;
	return 1;
}

/* ---- events -------------------------------------------------------- */

static int on_log_start(struct rd *r, const struct json *ev)
{
	const char *v = NULL;
	if (get_str(r, ev, "Spark Version", "", true, &v) < 0)
		return -1;
	r->l->app.spark_version = keep(r, v);
	return 0;
}

static int on_app_start(struct rd *r, const struct json *ev)
{
	struct slog_app *a = &r->l->app;
	const char *name = NULL, *id = NULL, *user = NULL;
	int64_t ts = 0;
	if (get_str(r, ev, "App Name", "", true, &name) < 0 ||
	    get_time(r, ev, "Timestamp", "", true, &ts) < 0 ||
	    get_str(r, ev, "App ID", "", false, &id) < 0 ||
	    get_str(r, ev, "User", "", false, &user) < 0)
		return -1;
	if (a->name) /* one application a log (Spark writes one log per attempt) */
		return bad(r, json_col(r->jp, json_get(ev, "App Name")), "a second application "
			   "start ('%s'; the first: '%s'): an event log holds one application" DUP,
			   name, a->name);
	a->name = keep(r, name);
	a->id = keep(r, id);
	a->user = keep(r, user);
	a->start_ms = ts;
	return 0;
}

static int on_app_end(struct rd *r, const struct json *ev)
{
	struct slog_app *a = &r->l->app;
	int64_t ts = 0;
	if (get_time(r, ev, "Timestamp", "", true, &ts) < 0)
		return -1;
	if (a->start_ms >= 0 && ts < a->start_ms) {
		if (incon(r, SLOG_APP_END_EARLY, json_col(r->jp, json_get(ev, "Timestamp")),
			  "'Timestamp' %" PRId64 " is before the application's start %" PRId64, ts,
			  a->start_ms) < 0)
			return -1;
		ts = a->start_ms;
	}
	a->end_ms = ts;
	return 0;
}

/* Spark property `key`'s value v (a string member) as an int >= 1. */
static int prop_int(struct rd *r, const struct json *v, const char *key, int *out)
{
	const char *s;
	if (prop_str(r, v, key, &s) < 0)
		return -1;
	char *end = "";
	errno = 0;
	long long x = *s >= '0' && *s <= '9' ? strtoll(s, &end, 10) : -1;
	if (x < 1 || x > SCN_MAX_CORES || *end || errno) /* cores: the kernel's limit */
		return bad(r, json_col(r->jp, v), "%s '%s' is not an integer in [1, %d]", key, s,
			   SCN_MAX_CORES);
	*out = (int)x;
	return 0;
}

/* A Spark time string ("10s", "1min", "500ms", "2h", "30"): a whole
 * number and a unit (a bare number is in `bare_ms` milliseconds). */
static int prop_time(struct rd *r, const struct json *v, const char *key, int64_t bare_ms,
		     int64_t *out)
{
	static const struct { const char *u; int64_t ms; } units[] = {
		{"ms", 1}, {"s", 1000}, {"min", 60000}, {"m", 60000}, {"h", 3600000}, {"d", 86400000}};
	const char *s;
	if (prop_str(r, v, key, &s) < 0)
		return -1;
	char *end = "";
	errno = 0;
	long long x = *s >= '0' && *s <= '9' ? strtoll(s, &end, 10) : -1;
	int64_t mul = *end ? 0 : bare_ms;
	for (size_t i = 0; !mul && i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(end, units[i].u))
			mul = units[i].ms;
	if (x < 0 || !mul || errno || x > SLOG_MAX_MS / mul)
		return bad(r, json_col(r->jp, v), "%s '%s' is not a time (a whole number and ms, s, "
			   "min, h or d)", key, s);
	*out = x * mul;
	return 0;
}

static int prop_num(struct rd *r, const struct json *v, const char *key, double *out)
{
	const char *s;
	if (prop_str(r, v, key, &s) < 0)
		return -1;
	char *end = "";
	bool decimal = (*s >= '0' && *s <= '9') || *s == '.';
	double x = decimal && strspn(s, "0123456789.eE+-") == strlen(s) ? strtod(s, &end) : -1;
	if (!(x >= 0) || !isfinite(x) || *end)
		return bad(r, json_col(r->jp, v), "%s '%s' is not a number >= 0", key, s);
	*out = x;
	return 0;
}

static int on_env(struct rd *r, const struct json *ev)
{
	struct slog_env *e = &r->l->env;
	const struct json *props;
	if (get_tree(r, ev, "Spark Properties", "", true, JSON_OBJECT, &props) < 0)
		return -1;
	for (const struct json *p = json_first(props); p; p = json_next(p)) {
		const char *k = json_key(p);
		if (strncmp(k, "spark.", 6))
			continue;
		int rc = 0;
		const char *s;
		if (!strcmp(k, "spark.master")) {
			if (prop_str(r, p, k, &s) < 0)
				return -1;
			e->master = keep(r, s);
		} else if (!strcmp(k, "spark.executor.cores")) {
			rc = prop_int(r, p, k, &e->executor_cores);
		} else if (!strcmp(k, "spark.task.cpus")) {
			rc = prop_int(r, p, k, &e->task_cpus);
		} else if (!strcmp(k, "spark.executor.resource.gpu.amount")) {
			rc = prop_num(r, p, k, &e->executor_gpus);
		} else if (!strcmp(k, "spark.task.resource.gpu.amount")) {
			rc = prop_num(r, p, k, &e->task_gpus);
		} else if (!strcmp(k, "spark.dynamicAllocation.executorIdleTimeout")) {
			rc = prop_time(r, p, k, 1000, &e->idle_timeout_ms);
		} else if (!strcmp(k, "spark.scheduler.mode")) {
			if (prop_str(r, p, k, &s) < 0)
				return -1;
			if (!strcasecmp(s, "FAIR"))
				e->fair = 1;
			else if (!strcasecmp(s, "FIFO"))
				e->fair = 0;
			else
				return bad(r, json_col(r->jp, p), "%s '%s' is not FAIR or FIFO", k, s);
		} else if (!strcmp(k, "spark.locality.wait")) {
			rc = prop_time(r, p, k, 1, &e->locality_wait_ms);
		} else if (!strcmp(k, "spark.dynamicAllocation.enabled")) {
			if (prop_str(r, p, k, &s) < 0)
				return -1;
			if (!strcasecmp(s, "true"))
				e->dyn_alloc = 1;
			else if (!strcasecmp(s, "false"))
				e->dyn_alloc = 0;
			else
				return bad(r, json_col(r->jp, p), "%s '%s' is not true or false", k, s);
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* A resource request's Amount: requests[name].Amount. */
static int request(struct rd *r, const struct json *reqs, const char *name, const char *in,
		   bool integral, int64_t *i, double *d)
{
	const struct json *q;
	int k = get_tree(r, reqs, name, in, false, JSON_OBJECT, &q);
	if (k <= 0)
		return k;
	if (integral)
		return get_int(r, q, "Amount", name, true, 0, INT64_MAX, i);
	return get_num(r, q, "Amount", name, true, d);
}

static int on_profile(struct rd *r, const struct json *ev)
{
	struct slog *l = r->l;
	struct slog_profile p = {.exec_cores = -1, .exec_mem_mib = -1, .exec_overhead_mib = -1,
				 .exec_gpus = -1, .task_cpus = -1, .task_gpus = -1};
	const struct json *ex = NULL, *task = NULL;
	const char *EX = "Executor Resource Requests", *TK = "Task Resource Requests";
	if (get_i32(r, ev, "Resource Profile Id", "", true, &p.id) < 0 ||
	    get_tree(r, ev, EX, "", false, JSON_OBJECT, &ex) < 0 ||
	    get_tree(r, ev, TK, "", false, JSON_OBJECT, &task) < 0 ||
	    request(r, ex, "cores", EX, true, &p.exec_cores, NULL) < 0 ||
	    request(r, ex, "memory", EX, true, &p.exec_mem_mib, NULL) < 0 ||
	    request(r, ex, "memoryOverhead", EX, true, &p.exec_overhead_mib, NULL) < 0 ||
	    request(r, ex, "gpu", EX, true, &p.exec_gpus, NULL) < 0 ||
	    request(r, task, "cpus", TK, false, NULL, &p.task_cpus) < 0 ||
	    request(r, task, "gpu", TK, false, NULL, &p.task_gpus) < 0)
		return -1;
	if (slog_imap_get(&r->profile_of, p.id) >= 0) /* ResourceProfileManager posts it once */
		return bad(r, json_col(r->jp, json_get(ev, "Resource Profile Id")), "resource profile "
			   "%d added twice: Spark adds each profile once" DUP, p.id);
	xgrow(&l->profiles, &r->cap_profiles, l->nprofiles + 1, sizeof *l->profiles);
	slog_imap_put(&r->profile_of, p.id, l->nprofiles);
	l->profiles[l->nprofiles++] = p;
	return 0;
}

static int add_exec(struct rd *r, const char *id, int host, int64_t at)
{
	struct slog *l = r->l;
	xgrow(&l->execs, &r->cap_execs, l->nexecs + 1, sizeof *l->execs);
	struct slog_exec *x = &l->execs[l->nexecs];
	*x = (struct slog_exec){.id = keep(r, id), .host = host, .added_ms = at, .removed_ms = -1};
	slog_smap_put(&r->exec_of, x->id, l->nexecs);
	return l->nexecs++;
}

static int on_exec_added(struct rd *r, const struct json *ev)
{
	const char *id = NULL, *host = NULL;
	const struct json *info = NULL, *gpu = NULL, *res = NULL, *addr = NULL;
	int64_t ts = 0, cores = 0;
	int profile = 0;
	const char *IN = "Executor Info";
	if (get_str(r, ev, "Executor ID", "", true, &id) < 0 ||
	    get_time(r, ev, "Timestamp", "", true, &ts) < 0 ||
	    get_tree(r, ev, IN, "", true, JSON_OBJECT, &info) < 0 ||
	    get_str(r, info, "Host", IN, true, &host) < 0 ||
	    get_int(r, info, "Total Cores", IN, true, 0, SCN_MAX_CORES, &cores) < 0 ||
	    get_i32(r, info, "Resource Profile Id", IN, false, &profile) < 0 ||
	    get_tree(r, info, "Resources", IN, false, JSON_OBJECT, &res) < 0 ||
	    get_tree(r, res, "gpu", "Resources", false, JSON_OBJECT, &gpu) < 0 ||
	    get_tree(r, gpu, "addresses", "gpu", false, JSON_ARRAY, &addr) < 0)
		return -1;
	int had = slog_smap_get(&r->exec_of, id);
	if (had >= 0 && r->l->execs[had].implicit)
		return 0; /* added late, after a task end on it (counted: SLOG_TASK_NO_EXEC):
			     passed over, as the add a task made for it stands */
	if (had >= 0) /* the cluster managers never reuse one */
		return bad(r, json_col(r->jp, json_get(ev, "Executor ID")), "executor '%s' added "
			   "twice: Spark gives each executor of an application its own id" DUP, id);
	if (addr && json_len(addr) > SCN_MAX_GPUS) /* a GPU a bit of a node's mask */
		return bad(r, json_col(r->jp, addr), "%s: %d GPU addresses, above the limit of %d",
			   id, (int)json_len(addr), SCN_MAX_GPUS);
	int x = add_exec(r, id, host_index(r, host), ts);
	struct slog_exec *e = &r->l->execs[x];
	e->cores = (int)cores;
	e->gpus = (int)json_len(addr);
	e->profile = profile;
	return 0;
}

static int on_exec_removed(struct rd *r, const struct json *ev)
{
	const char *id = NULL, *why = NULL;
	int64_t ts = 0;
	if (get_str(r, ev, "Executor ID", "", true, &id) < 0 ||
	    get_time(r, ev, "Timestamp", "", true, &ts) < 0 ||
	    get_str(r, ev, "Removed Reason", "", false, &why) < 0)
		return -1;
	int64_t col = json_col(r->jp, json_get(ev, "Executor ID"));
	int x = slog_smap_get(&r->exec_of, id);
	if (x < 0)
		return incon(r, SLOG_EXEC_UNKNOWN, col, "executor '%s' was never added", id);
	struct slog_exec *e = &r->l->execs[x];
	if (e->removed_ms >= 0)
		return incon(r, SLOG_EXEC_REMOVED_TWICE, col, "executor '%s' was removed already",
			     id);
	if (ts < e->added_ms) {
		if (incon(r, SLOG_EXEC_REMOVED_EARLY, json_col(r->jp, json_get(ev, "Timestamp")),
			  "executor '%s' 'Timestamp' %" PRId64 " is before its add at %" PRId64, id,
			  ts, e->added_ms) < 0)
			return -1;
		ts = e->added_ms;
	}
	e->removed_ms = ts;
	e->removed_reason = keep(r, why);
	return 0;
}

/* The fields of a Stage Info object. */
struct sinfo {
	int id, attempt, ntasks, profile;
	const char *name, *failure;
	const int *parents;
	int nparents;
	int64_t submit_ms, end_ms;
	const struct json *obj;
};

static int stage_info(struct rd *r, const struct json *si, const char *in, bool need_end,
		      struct sinfo *s)
{
	*s = (struct sinfo){.name = "", .submit_ms = -1, .end_ms = -1, .obj = si};
	if (get_i32(r, si, "Stage ID", in, true, &s->id) < 0 ||
	    get_i32(r, si, "Stage Attempt ID", in, false, &s->attempt) < 0 ||
	    get_i32(r, si, "Number of Tasks", in, true, &s->ntasks) < 0 ||
	    get_str(r, si, "Stage Name", in, false, &s->name) < 0 ||
	    get_ids(r, si, "Parent IDs", in, &s->parents, &s->nparents) < 0 ||
	    get_time(r, si, "Submission Time", in, false, &s->submit_ms) < 0 ||
	    get_time(r, si, "Completion Time", in, need_end, &s->end_ms) < 0 ||
	    get_str(r, si, "Failure Reason", in, false, &s->failure) < 0 ||
	    get_i32(r, si, "Resource Profile Id", in, false, &s->profile) < 0)
		return -1;
	return 0;
}

static int64_t stage_key(int id, int attempt)
{
	return (int64_t)((uint64_t)(uint32_t)id << 32 | (uint32_t)attempt);
}

/* The stage of s, made (not submitted) if new. */
static struct slog_stage *stage_for(struct rd *r, const struct sinfo *s)
{
	struct slog *l = r->l;
	int i = slog_imap_get(&r->stage_of, stage_key(s->id, s->attempt));
	if (i >= 0)
		return &l->stages[i];
	xgrow(&l->stages, &r->cap_stages, l->nstages + 1, sizeof *l->stages);
	struct slog_stage *st = &l->stages[l->nstages];
	*st = (struct slog_stage){.id = s->id, .attempt = s->attempt, .job = -1,
				  .submit_ms = -1, .end_ms = -1};
	slog_imap_put(&r->stage_of, stage_key(s->id, s->attempt), l->nstages++);
	return st;
}

static void stage_set(struct rd *r, struct slog_stage *st, const struct sinfo *s)
{
	st->name = keep(r, s->name);
	st->ntasks = s->ntasks;
	st->parents = s->parents;
	st->nparents = s->nparents;
	st->profile = s->profile;
}

static int on_job_start(struct rd *r, const struct json *ev)
{
	struct slog *l = r->l;
	struct slog_job j = {.submit_ms = -1, .end_ms = -1};
	const struct json *infos = NULL;
	if (get_i32(r, ev, "Job ID", "", true, &j.id) < 0 ||
	    get_time(r, ev, "Submission Time", "", false, &j.submit_ms) < 0 ||
	    get_ids(r, ev, "Stage IDs", "", &j.stage_ids, &j.nstages) < 0 ||
	    get_tree(r, ev, "Stage Infos", "", false, JSON_ARRAY, &infos) < 0)
		return -1;
	if (slog_imap_get(&r->job_of, j.id) >= 0) /* DAGScheduler's nextJobId */
		return bad(r, json_col(r->jp, json_get(ev, "Job ID")), "job %d started twice: Spark "
			   "numbers each job of an application once" DUP, j.id);
	for (const struct json *si = json_first(infos); si; si = json_next(si)) {
		struct sinfo s;
		if (json_type(si) != JSON_OBJECT)
			return wrong(r, infos, "Stage Infos", "an array of objects");
		if (stage_info(r, si, "Stage Infos", false, &s) < 0)
			return -1;
		struct slog_stage *st = stage_for(r, &s);
		if (!st->submitted && !st->name)
			stage_set(r, st, &s);
	}
	xgrow(&l->jobs, &r->cap_jobs, l->njobs + 1, sizeof *l->jobs);
	slog_imap_put(&r->job_of, j.id, l->njobs);
	l->jobs[l->njobs++] = j;
	return 0;
}

static int on_job_end(struct rd *r, const struct json *ev)
{
	int id = 0;
	int64_t end = 0;
	const struct json *res = NULL;
	const char *result = NULL;
	if (get_i32(r, ev, "Job ID", "", true, &id) < 0 ||
	    get_time(r, ev, "Completion Time", "", true, &end) < 0 ||
	    get_tree(r, ev, "Job Result", "", false, JSON_OBJECT, &res) < 0 ||
	    get_str(r, res, "Result", "Job Result", false, &result) < 0)
		return -1;
	int64_t col = json_col(r->jp, json_get(ev, "Job ID"));
	int i = slog_imap_get(&r->job_of, id);
	if (i < 0)
		return incon(r, SLOG_JOB_UNKNOWN, col, "job %d was never started", id);
	struct slog_job *j = &r->l->jobs[i];
	if (j->end_ms >= 0)
		return incon(r, SLOG_JOB_ENDED_TWICE, col, "job %d ended already", id);
	if (j->submit_ms >= 0 && end < j->submit_ms) {
		if (incon(r, SLOG_JOB_END_EARLY, json_col(r->jp, json_get(ev, "Completion Time")),
			  "job %d 'Completion Time' %" PRId64 " is before its submission at %" PRId64,
			  id, end, j->submit_ms) < 0)
			return -1;
		end = j->submit_ms;
	}
	j->end_ms = end;
	j->result = keep(r, result);
	return 0;
}

static int on_stage_submitted(struct rd *r, const struct json *ev)
{
	const struct json *si = NULL;
	struct sinfo s;
	if (get_tree(r, ev, "Stage Info", "", true, JSON_OBJECT, &si) < 0 ||
	    stage_info(r, si, "Stage Info", false, &s) < 0)
		return -1;
	int i = slog_imap_get(&r->stage_of, stage_key(s.id, s.attempt));
	if (i >= 0 && r->l->stages[i].submitted) /* each submission makes a new attempt */
		return bad(r, json_col(r->jp, json_get(si, "Stage ID")), "stage %d attempt %d "
			   "submitted twice: Spark numbers each attempt of a stage once" DUP, s.id,
			   s.attempt);
	struct slog_stage *st = stage_for(r, &s);
	stage_set(r, st, &s);
	st->submitted = true;
	st->submit_ms = s.submit_ms;
	return 0;
}

static int on_stage_completed(struct rd *r, const struct json *ev)
{
	const struct json *si = NULL;
	struct sinfo s;
	if (get_tree(r, ev, "Stage Info", "", true, JSON_OBJECT, &si) < 0 ||
	    stage_info(r, si, "Stage Info", true, &s) < 0)
		return -1;
	int64_t col = json_col(r->jp, json_get(si, "Stage ID"));
	int i = slog_imap_get(&r->stage_of, stage_key(s.id, s.attempt));
	if (i < 0 || !r->l->stages[i].submitted)
		return incon(r, SLOG_STAGE_UNSUBMITTED, col, "stage %d attempt %d was never submitted",
			     s.id, s.attempt);
	struct slog_stage *st = &r->l->stages[i];
	if (st->completed)
		return incon(r, SLOG_STAGE_COMPLETED_TWICE, col,
			     "stage %d attempt %d completed already", s.id, s.attempt);
	if (st->submit_ms < 0)
		st->submit_ms = s.submit_ms;
	if (st->submit_ms >= 0 && s.end_ms < st->submit_ms) {
		if (incon(r, SLOG_STAGE_END_EARLY, json_col(r->jp, json_get(si, "Completion Time")),
			  "stage %d attempt %d 'Completion Time' %" PRId64
			  " is before its submission at %" PRId64, s.id, s.attempt, s.end_ms,
			  st->submit_ms) < 0)
			return -1;
		s.end_ms = st->submit_ms;
	}
	st->completed = true;
	st->end_ms = s.end_ms;
	st->failure = keep(r, s.failure);
	return 0;
}

static int on_task_start(struct rd *r, const struct json *ev)
{
	(void)ev;
	r->l->task_starts++;
	return 0;
}

static enum slog_reason reason_of(const char *s)
{
	for (int k = 0; k < SLOG_R_UNKNOWN; k++)
		if (!strcmp(s, slog_reason_name((enum slog_reason)k)))
			return (enum slog_reason)k;
	return SLOG_R_UNKNOWN;
}

/* A time metric into *out: -1 if absent or outside [0, INT32_MAX]
 * (SLOG_TASK_METRIC). */
static int metric(struct rd *r, const struct json *obj, const char *key, const char *label,
		  int64_t task, int64_t x, bool have, int32_t *out)
{
	*out = -1;
	if (!have)
		return 0;
	if (x < 0 || x > INT32_MAX)
		return incon(r, SLOG_TASK_METRIC, json_col(r->jp, json_get(obj, key)),
			     "task %" PRId64 " %s %" PRId64 " ms is outside [0, %d]", task,
			     label, x, INT32_MAX);
	*out = (int32_t)x;
	return 0;
}

/* A TaskEnd's fields, as read (before the rules). */
struct tfields {
	int stage_id, attempt, index;
	int64_t id, launch, finish, att, run, deser, grt;
	int has_run, has_deser, has_grt;    /* get_time's 1: present */
	bool spec, failed, killed;
	const char *exec_id, *host, *why, *locality;
	const struct json *info, *m;        /* Task Info, Task Metrics */
};

static int task_fields(struct rd *r, const struct json *ev, struct tfields *f)
{
	const char *TI = "Task Info", *TM = "Task Metrics";
	const struct json *reason = NULL;
	*f = (struct tfields){.index = -1};
	if (get_i32(r, ev, "Stage ID", "", true, &f->stage_id) < 0 ||
	    get_i32(r, ev, "Stage Attempt ID", "", false, &f->attempt) < 0 ||
	    get_tree(r, ev, TI, "", true, JSON_OBJECT, &f->info) < 0 ||
	    get_int(r, f->info, "Task ID", TI, true, 0, INT64_MAX, &f->id) < 0 ||
	    get_time(r, f->info, "Launch Time", TI, true, &f->launch) < 0 ||
	    get_time(r, f->info, "Finish Time", TI, true, &f->finish) < 0 ||
	    get_str(r, f->info, "Executor ID", TI, true, &f->exec_id) < 0 ||
	    get_i32(r, f->info, "Index", TI, false, &f->index) < 0 ||
	    get_int(r, f->info, "Attempt", TI, false, 0, UINT16_MAX, &f->att) < 0 ||
	    get_str(r, f->info, "Host", TI, false, &f->host) < 0 ||
	    get_str(r, f->info, "Locality", TI, false, &f->locality) < 0 ||
	    get_bool(r, f->info, "Speculative", TI, &f->spec) < 0 ||
	    get_bool(r, f->info, "Failed", TI, &f->failed) < 0 ||
	    get_bool(r, f->info, "Killed", TI, &f->killed) < 0 ||
	    (f->has_grt = get_time(r, f->info, "Getting Result Time", TI, false, &f->grt)) < 0 ||
	    get_tree(r, ev, "Task End Reason", "", false, JSON_OBJECT, &reason) < 0 ||
	    get_str(r, reason, "Reason", "Task End Reason", false, &f->why) < 0 ||
	    get_tree(r, ev, TM, "", false, JSON_OBJECT, &f->m) < 0 ||
	    (f->has_run = get_ms(r, f->m, "Executor Run Time", TM, &f->run)) < 0 ||
	    (f->has_deser = get_ms(r, f->m, "Executor Deserialize Time", TM, &f->deser)) < 0)
		return -1;
	return 0;
}

static enum slog_locality locality_of(const char *s)
{
	static const char *const names[] = {"PROCESS_LOCAL", "NODE_LOCAL", "NO_PREF",
					    "RACK_LOCAL", "ANY"};
	for (int k = 0; s && k < (int)(sizeof names / sizeof names[0]); k++)
		if (!strcmp(s, names[k]))
			return (enum slog_locality)k;
	return SLOG_L_UNKNOWN;
}

/* The rules, in order: the stage (skipped), a Task ID ended already
 * (an error, but for Spark's Resubmitted notice: TaskSetManager's
 * executorLost posts a second end, reason Resubmitted, with the same
 * Task Info for a shuffle map task whose output was lost with its
 * executor; the task ran as its first end says, and its rerun is a new
 * Task ID: the notice is passed over), the executor (added
 * implicitly), the finish (clamped), the metrics (dropped). */
static int on_task_end(struct rd *r, const struct json *ev)
{
	struct slog *l = r->l;
	struct tfields f;
	if (task_fields(r, ev, &f) < 0)
		return -1;
	int s = slog_imap_get(&r->stage_of, stage_key(f.stage_id, f.attempt));
	if (s < 0 || !l->stages[s].submitted)
		return incon(r, SLOG_TASK_NO_STAGE, json_col(r->jp, json_get(ev, "Stage ID")),
			     "task %" PRId64 " is of stage %d attempt %d, never submitted", f.id,
			     f.stage_id, f.attempt);
	if (slog_imap_get(&r->task_seen, f.id) >= 0) {
		if (f.why && !strcmp(f.why, "Resubmitted"))
			return 0; /* the notice that its output was lost (above) */
		return bad(r, json_col(r->jp, json_get(f.info, "Task ID")), "task %" PRId64 " ended "
			   "twice: Spark gives each task attempt its own Task ID" DUP, f.id);
	}
	if (l->ntasks == INT_MAX)
		return bad(r, 1, "more than %d task ends", INT_MAX);
	int x = slog_smap_get(&r->exec_of, f.exec_id);
	if (x < 0) {
		if (incon(r, SLOG_TASK_NO_EXEC, json_col(r->jp, json_get(f.info, "Executor ID")),
			  "task %" PRId64 " ran on executor '%s', never added", f.id, f.exec_id) < 0)
			return -1;
		x = add_exec(r, f.exec_id, f.host ? host_index(r, f.host) : -1, f.launch);
		l->execs[x].implicit = true;
	}
	if (f.finish < f.launch) {
		if (incon(r, SLOG_TASK_FINISH_EARLY, json_col(r->jp, json_get(f.info, "Finish Time")),
			  "task %" PRId64 " 'Finish Time' %" PRId64 " is before its 'Launch Time' %"
			  PRId64, f.id, f.finish, f.launch) < 0)
			return -1;
		f.finish = f.launch;
	}
	struct slog_task t = {
		.id = f.id, .launch_ms = f.launch, .finish_ms = f.finish, .stage = s,
		.index = f.index, .exec = x,
		.host = f.host ? host_index(r, f.host) : l->execs[x].host,
		.attempt = (uint16_t)f.att,
		.flags = (uint8_t)((f.spec ? SLOG_SPECULATIVE : 0) | (f.failed ? SLOG_FAILED : 0) |
				   (f.killed ? SLOG_KILLED : 0) | locality_of(f.locality) << 4),
		.reason = (uint8_t)(f.why ? reason_of(f.why) : SLOG_R_UNKNOWN),
	};
	int64_t fetch = f.grt > 0 ? f.finish - f.grt : 0;
	if (metric(r, f.m, "Executor Run Time", "'Executor Run Time'", f.id, f.run,
		   f.has_run == 1, &t.run_ms) < 0 ||
	    metric(r, f.m, "Executor Deserialize Time", "'Executor Deserialize Time'", f.id,
		   f.deser, f.has_deser == 1, &t.deser_ms) < 0 ||
	    metric(r, f.info, "Getting Result Time", "'Finish Time' - 'Getting Result Time'", f.id,
		   fetch, f.has_grt == 1, &t.result_ms) < 0)
		return -1;
	xgrow(&l->tasks, &r->cap_tasks, l->ntasks + 1, sizeof *l->tasks);
	slog_imap_put(&r->task_seen, f.id, l->ntasks);
	l->tasks[l->ntasks++] = t;
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(struct rd *r, const struct json *ev);
} handlers[] = { /* the most frequent first */
	{"SparkListenerTaskEnd", on_task_end},
	{"SparkListenerTaskStart", on_task_start},
	{"SparkListenerStageSubmitted", on_stage_submitted},
	{"SparkListenerStageCompleted", on_stage_completed},
	{"SparkListenerJobStart", on_job_start},
	{"SparkListenerJobEnd", on_job_end},
	{"SparkListenerExecutorAdded", on_exec_added},
	{"SparkListenerExecutorRemoved", on_exec_removed},
	{"SparkListenerResourceProfileAdded", on_profile},
	{"SparkListenerEnvironmentUpdate", on_env},
	{"SparkListenerApplicationStart", on_app_start},
	{"SparkListenerApplicationEnd", on_app_end},
	{"SparkListenerLogStart", on_log_start},
};

/* Subtrees that no handler reads: validated, not built. */
static const char *const unread[] = {
	"Accumulables", "RDD Info", "Details", "Properties", "Task Executor Metrics",
	"Executor Metrics", "Log Urls", "Attributes", "System Properties",
	"Classpath Entries", "Hadoop Properties", "Metrics Properties", "JVM Information",
	"sparkPlanInfo", "physicalPlanDescription", "Shuffle Read Metrics",
	"Shuffle Write Metrics", "Input Metrics", "Output Metrics", "Updated Blocks",
	"Executor Metrics Updated", "Block Manager ID", NULL,
};

static int event(struct rd *r, char *line, size_t len)
{
	struct json_err je;
	const struct json *ev = json_parse(r->jp, line, len, &je);
	if (!ev && je.utf8) /* JSON is UTF-8 (RFC 8259 §8.1): where the byte is */
		snprintf(r->err, r->errlen, "%s:%lld:%lld: %s, at byte %lld of the %s", r->l->path,
			 (long long)zr_lineno(r->z), (long long)je.col, je.msg,
			 (long long)(zr_offset(r->z) + je.col - 1),
			 zr_compressed(r->z) ? "decompressed text" : "file");
	else if (!ev)
		snprintf(r->err, r->errlen, "%s:%lld:%lld: not JSON: %s", r->l->path,
			 (long long)zr_lineno(r->z), (long long)je.col, je.msg);
	if (!ev)
		return -1;
	if (json_type(ev) != JSON_OBJECT) {
		snprintf(r->err, r->errlen, "%s:%lld:1: %s, not a Spark listener event (an object "
			 "with an 'Event')", r->l->path, (long long)zr_lineno(r->z),
			 json_type_name(json_type(ev)));
		return -1;
	}
	const struct json *ename = json_get(ev, "Event");
	const char *name = json_str(ename);
	if (name && strlen(name) != json_len(ename)) {
		snprintf(r->err, r->errlen, "%s:%lld:%lld: 'Event' holds a NUL character "
			 "('\\u0000'): not a Spark listener event", r->l->path,
			 (long long)zr_lineno(r->z), (long long)json_col(r->jp, ename));
		return -1;
	}
	if (!name) {
		char buf[64], what[96];
		if (ename)
			snprintf(what, sizeof what, "'Event' is %s, expected a string",
				 describe(ename, buf, sizeof buf));
		else
			snprintf(what, sizeof what, "an object without 'Event'");
		snprintf(r->err, r->errlen, "%s:%lld:%lld: %s: not a Spark listener event",
			 r->l->path, (long long)zr_lineno(r->z),
			 (long long)(ename ? json_col(r->jp, ename) : 1), what);
		return -1;
	}
	const char *dot = strrchr(name, '.');
	const char *shrt = dot ? dot + 1 : name;
	r->l->events++;
	for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
		if (!strcmp(shrt, handlers[i].name)) {
			r->event = handlers[i].name;
			return handlers[i].fn(r, ev);
		}
	r->l->other_events++;
	return 0;
}

/* ---- after the last line ------------------------------------------- */

static int cmp_stage(const void *a, const void *b)
{
	const struct slog_stage *x = *(struct slog_stage *const *)a, *y = *(struct slog_stage *const *)b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->attempt > y->attempt) - (x->attempt < y->attempt);
}

static int cmp_task(const void *a, const void *b)
{
	const struct slog_task *x = a, *y = b;
	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	if (x->launch_ms != y->launch_ms)
		return x->launch_ms < y->launch_ms ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* Stages by (id, attempt), tasks by (stage, launch, id), each stage's
 * job and task range. */
static void finish(struct rd *r)
{
	struct slog *l = r->l;
	int n = l->nstages;
	struct slog_stage **by = xmalloc((n ? n : 1) * sizeof *by);
	for (int i = 0; i < n; i++)
		by[i] = &l->stages[i];
	qsort(by, (size_t)n, sizeof *by, cmp_stage);
	int *to = xmalloc((n ? n : 1) * sizeof *to); /* old index -> new */
	struct slog_stage *sorted = xmalloc((n ? n : 1) * sizeof *sorted);
	for (int i = 0; i < n; i++) {
		to[by[i] - l->stages] = i;
		sorted[i] = *by[i];
	}
	free(l->stages);
	l->stages = sorted;
	free(by);
	for (int t = 0; t < l->ntasks; t++)
		l->tasks[t].stage = to[l->tasks[t].stage];
	free(to);
	if (l->ntasks > 1) /* (no tasks: l->tasks may be NULL) */
		qsort(l->tasks, (size_t)l->ntasks, sizeof *l->tasks, cmp_task);
	for (int t = l->ntasks - 1; t >= 0; t--) {
		struct slog_stage *st = &l->stages[l->tasks[t].stage];
		st->task_lo = t;
		st->task_n++;
	}
	struct imap job_of_stage = {0};
	for (int j = 0; j < l->njobs; j++)
		for (int k = 0; k < l->jobs[j].nstages; k++)
			if (slog_imap_get(&job_of_stage, l->jobs[j].stage_ids[k]) < 0)
				slog_imap_put(&job_of_stage, l->jobs[j].stage_ids[k], j);
	for (int i = 0; i < n; i++)
		l->stages[i].job = slog_imap_get(&job_of_stage, l->stages[i].id);
	slog_imap_free(&job_of_stage);
}

static void rd_free(struct rd *r)
{
	slog_imap_free(&r->stage_of);
	slog_imap_free(&r->job_of);
	slog_imap_free(&r->task_seen);
	slog_imap_free(&r->profile_of);
	free(r->exec_of.slot);
	free(r->host_of.slot);
	json_free(r->jp);
	zr_close(r->z);
}

/* What cannot be read, said before reading: a folder (Spark's rolling
 * logs, eventlog_v2_<app>/) and codecs other than zstd, which would
 * otherwise read as "not JSON" at line 1. */
static int unsupported(const char *path, struct zr *z, char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s:0:0: cannot open: a folder, not an event log file (rolling logs, "
			 "eventlog_v2_*, are not read: give one events_* file)", path);
		return -1;
	}
	static const char *const codecs[] = {".lz4", ".lzf", ".snappy"};
	size_t n = strlen(path);
	for (size_t i = 0; z && !zr_compressed(z) && i < sizeof codecs / sizeof codecs[0]; i++) {
		size_t k = strlen(codecs[i]);
		if (n > k && !strcmp(path + n - k, codecs[i])) {
			snprintf(err, errlen, "%s:0:0: compressed with %s, by its name: only plain and "
				 "zstd-compressed event logs are read", path, codecs[i] + 1);
			return -1;
		}
	}
	return 0;
}

struct slog *slog_read(const char *path, const struct slog_opts *opts, char *err, size_t errlen)
{
	struct rd r = {.strict = opts && opts->strict, .err = err, .errlen = errlen};
	if (unsupported(path, NULL, err, errlen) < 0 || !(r.z = zr_open(path, err, errlen)))
		return NULL;
	if (unsupported(path, r.z, err, errlen) < 0) {
		zr_close(r.z);
		return NULL;
	}
	struct slog *l = xcalloc(1, sizeof *l);
	l->mem = xcalloc(1, sizeof *l->mem);
	l->path = slog_pool_str(l->mem, path, strlen(path));
	l->compressed = zr_compressed(r.z);
	l->app = (struct slog_app){.start_ms = -1, .end_ms = -1};
	l->env = (struct slog_env){.executor_cores = -1, .task_cpus = -1, .executor_gpus = -1,
				   .task_gpus = -1, .dyn_alloc = -1, .idle_timeout_ms = -1,
				   .locality_wait_ms = -1};
	r.l = l;
	r.jp = json_new();
	json_skip_keys(r.jp, unread);
	char *line;
	size_t len;
	int rc;
	while ((rc = zr_line(r.z, &line, &len, err, errlen)) == 1) {
		l->lines++;
		if (line[strspn(line, " \t")] == '\0')
			continue;
		if (event(&r, line, len) < 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && l->events == 0) {
		snprintf(err, errlen, "%s:1:1: no Spark listener events", path);
		rc = -1;
	}
	if (rc < 0) {
		rd_free(&r);
		slog_free(l);
		return NULL;
	}
	finish(&r);
	rd_free(&r);
	return l;
}

void slog_free(struct slog *l)
{
	if (!l)
		return;
	free(l->profiles);
	free(l->execs);
	free(l->hosts);
	free(l->jobs);
	free(l->stages);
	free(l->tasks);
	slog_pool_free(l->mem);
	free(l);
}

