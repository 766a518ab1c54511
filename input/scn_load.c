/* scn_load.c - the scenario schema: walk a YAML tree (scn_yaml.h) into a
 * struct scn, checking every key, unit and range of docs/scenario.md.
 *
 * Each walker returns 0, or -1 after fail() wrote the one error message.
 * Everything allocated is hung on the scn at once (arrays are allocated
 * zeroed at their full length first), so scn_free() can take back a
 * half-built scenario and no walker has cleanup of its own.
 */
#include "arena.h"
#include "registry.h"
#include "scenario.h"

#include "load.h"
#include "model.h"
#include "models.h"
#include "policy.h"
#include "scn_yaml.h"
#include "scn_app.h"
#include "rng.h"
#include "scn_trace.h"
#include "sim.h"
#include "spark_app.h"
#include "sparklog.h"
#include "trace.h"
#include "util.h"
#include "workload.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Limits (docs/scenario.md, "Limits"): past them a run could not finish,
 * would not fit in memory, or would overflow the engine's integers. */
#define MAX_NAME 100                 /* characters of a name */
#define MAX_NODES 100000             /* nodes in the cluster */
#define MAX_JOBS 10000000            /* jobs in the workload */
#define MAX_GROUPS 10000             /* node groups; job groups */
#define MAX_CORES SCN_MAX_CORES
#define MAX_GPUS SCN_MAX_GPUS
#define MAX_EXECUTORS SCN_MAX_EXECUTORS
#define MAX_STAGES SCN_MAX_STAGES
#define MAX_TASKS SCN_MAX_TASKS
#define MAX_ALL_TASKS 100000000LL    /* synthetic tasks of the whole workload */
#define MAX_MIB (1LL << 30)          /* any size: 1024TiB */
#define MAX_TIME_S SCN_MAX_TIME_S
#define MAX_TIME_US SCN_MAX_TIME_US
#define MAX_CV 100                   /* coefficients of variation */
#define MIN_SPEED 0.001              /* cpu_speed */
#define MAX_SPEED 1000.0
#define MAX_REPLICATIONS 1000000
#define MAX_POLICIES 16              /* policies a run compares (cli/run.c) */

/* The names one list has shown so far (check_unique): a hash set of
 * entry indexes, open addressing on FNV-1a, so that a list of n entries
 * is checked in O(n).  Comparing each name with all those before it took
 * half a million comparisons for a thousand job groups. */
struct seen {
	int *slot;        /* entry index + 1; 0: empty */
	size_t cap;       /* a power of two, more than twice the entries */
};

enum { SEEN_NODE_GROUPS, SEEN_JOB_GROUPS, SEEN_STAGES, SEEN_LISTS };

struct ld {
	struct scn *s;
	const char *file; /* file of the tree walked: s->path or s->cost.path */
	char *err;
	size_t errlen;
	char got[96];     /* got()'s quoted value */
	struct seen seen[SEEN_LISTS]; /* check_unique's, by kind of list */
};

/* ------------------------------------------------------------------ */
/* Messages                                                            */

static int fail(struct ld *ld, const struct yn *at, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (ld->errlen)
		snprintf(ld->err, ld->errlen, "%s:%d:%d: %s", ld->file, at->line, at->col, msg);
	return -1;
}

/* The offending value for a message: 'text', nothing, or a mapping/list. */
static const char *got(struct ld *ld, const struct yn *v)
{
	if (v->kind != YN_SCALAR)
		return yn_kind_name(v);
	if (!*v->str)
		return "nothing";
	if (strlen(v->str) > 60)
		snprintf(ld->got, sizeof ld->got, "'%.57s...'", v->str);
	else
		snprintf(ld->got, sizeof ld->got, "'%s'", v->str);
	return ld->got;
}

/* "a, b, c" into buf (truncated to fit). */
static const char *join(const char *const *v, int n, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", v[i]);
	return buf;
}

/* suggest(), but not for a word longer than any name: the edit distance
 * is quadratic and no name is that long. */
static const char *near(const char *word, const char *const *known, int n)
{
	return strlen(word) > MAX_NAME ? NULL : suggest(word, known, n);
}

static const char *where(const char *what)
{
	return strcmp(what, "top level") == 0 ? "at" : "in";
}

static struct scn_pos pos(const struct ld *ld, const struct yn *v)
{
	return (struct scn_pos){ld->file, v->line, v->col};
}

/* ------------------------------------------------------------------ */
/* Shapes and keys                                                     */

static int want(struct ld *ld, const struct yn *v, enum yn_kind k, const char *what)
{
	static const char *const kinds[] = {[YN_SCALAR] = "a scalar", [YN_SEQ] = "a list",
					    [YN_MAP] = "a mapping"};
	if (v->kind == k)
		return 0;
	return fail(ld, v, "expected %s for %s, got %s", kinds[k], what, got(ld, v));
}

/* A non-empty list; `item` names its entries ("node group"). */
static int want_list(struct ld *ld, const struct yn *v, const char *what, const char *item)
{
	if (want(ld, v, YN_SEQ, what) < 0)
		return -1;
	if (v->nkids == 0)
		return fail(ld, v, "expected at least one %s in %s, got an empty list", item, what);
	return 0;
}

static int unknown_key(struct ld *ld, const struct yn *k, const char *what,
		       const char *const *keys, int n)
{
	char list[512];
	const char *s = near(k->str, keys, n);
	if (s)
		return fail(ld, k, "unknown key '%s' %s %s (did you mean '%s'?)", k->str, where(what),
			    what, s);
	return fail(ld, k, "unknown key '%s' %s %s (known: %s)", k->str, where(what), what,
		    join(keys, n, list, sizeof list));
}

static bool in_list(const char *s, const char *const *v, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, v[i]) == 0)
			return true;
	return false;
}

/* `map` is a mapping whose keys are all in `keys`. */
static int check_map(struct ld *ld, const struct yn *map, const char *what,
		     const char *const *keys, int n)
{
	if (want(ld, map, YN_MAP, what) < 0)
		return -1;
	for (int i = 0; i < map->nkids; i += 2)
		if (!in_list(map->kids[i]->str, keys, n))
			return unknown_key(ld, map->kids[i], what, keys, n);
	return 0;
}
#define CHECK_MAP(ld, map, what, keys) check_map(ld, map, what, keys, ARRAY_LEN(keys))

/* The value of a required key; `name` (may be NULL) names the mapping. */
static const struct yn *need(struct ld *ld, const struct yn *map, const char *key,
			     const char *what, const char *name)
{
	const struct yn *v = yn_get(map, key);
	if (v)
		return v;
	if (name)
		fail(ld, map, "missing key '%s' %s %s '%s'", key, where(what), what, name);
	else
		fail(ld, map, "missing key '%s' %s %s", key, where(what), what);
	return NULL;
}

/* A name list (require, prefer, labels, parents) is a scalar, standing
 * for a one-item list, or a list of scalars: nitems()/item() walk both. */
static int check_items(struct ld *ld, const struct yn *v, const char *what)
{
	if (v->kind == YN_SCALAR)
		return 0;
	if (v->kind != YN_SEQ)
		return fail(ld, v, "expected a name or a list of names for %s, got %s", what,
			    got(ld, v));
	for (int i = 0; i < v->nkids; i++)
		if (v->kids[i]->kind != YN_SCALAR)
			return fail(ld, v->kids[i], "expected a name in %s, got %s", what,
				    got(ld, v->kids[i]));
	return 0;
}

static int nitems(const struct yn *v)
{
	return v->kind == YN_SEQ ? v->nkids : 1;
}

static const struct yn *item(const struct yn *v, int i)
{
	return v->kind == YN_SEQ ? v->kids[i] : v;
}

/* ------------------------------------------------------------------ */
/* Scalars                                                             */

enum ident { ID_NAME, ID_LOWER };

/* A name: [A-Za-z0-9_.-]+ (ID_NAME) or [a-z0-9_-]+ (ID_LOWER). */
static int get_ident(struct ld *ld, const struct yn *v, enum ident kind, const char *what,
		     char **out)
{
	static const char *const sets[] = {
		[ID_NAME] = "letters, digits, '_', '-' and '.'",
		[ID_LOWER] = "lowercase letters, digits, '_' and '-'",
	};
	bool ok = v->kind == YN_SCALAR && *v->str;
	for (const char *p = ok ? v->str : ""; *p && ok; p++) {
		char c = *p;
		bool lower = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
		ok = lower || (kind == ID_NAME && ((c >= 'A' && c <= 'Z') || c == '.'));
	}
	if (!ok)
		return fail(ld, v, "expected a %s made of %s, got %s", what, sets[kind], got(ld, v));
	if (!strcmp(v->str, ".") || !strcmp(v->str, "..")) /* results/<name> would escape */
		return fail(ld, v, "expected a %s other than '.' and '..' (it names folders), got %s",
			    what, got(ld, v));
	if (strlen(v->str) > MAX_NAME)
		return fail(ld, v, "expected a %s of at most %d characters, got %s", what, MAX_NAME,
			    got(ld, v));
	*out = xstrdup(v->str);
	return 0;
}

/* v's text, if it is an integer: an optional sign and digits; else NULL. */
static const char *int_text(const struct yn *v)
{
	const char *p = v->kind == YN_SCALAR ? v->str : "";
	const char *q = p + (*p == '+' || *p == '-');
	bool ok = *q != '\0';
	for (; *q && ok; q++)
		ok = *q >= '0' && *q <= '9';
	return ok ? p : NULL;
}

static int get_ll(struct ld *ld, const struct yn *v, long long lo, long long hi, long long *out)
{
	const char *p = int_text(v);
	if (!p)
		return fail(ld, v, "expected an integer, got %s", got(ld, v));
	errno = 0;
	long long x = strtoll(p, NULL, 10);
	if (errno == ERANGE)
		return fail(ld, v, "integer %s is out of range", got(ld, v));
	if (x < lo)
		return fail(ld, v, "expected an integer >= %lld, got %s", lo, got(ld, v));
	if (x > hi)
		return fail(ld, v, "expected an integer <= %lld, got %s", hi, got(ld, v));
	*out = x;
	return 0;
}

static int get_int(struct ld *ld, const struct yn *v, int lo, int *out)
{
	long long x;
	if (get_ll(ld, v, lo, INT_MAX, &x) < 0)
		return -1;
	*out = (int)x;
	return 0;
}

/* An integer >= lo and at most one of hetsim's limits, `hi` `what`
 * ("cores per node"). */
static int get_lim(struct ld *ld, const struct yn *v, int lo, int hi, const char *what, int *out)
{
	if (get_int(ld, v, lo, out) < 0)
		return -1;
	if (*out > hi)
		return fail(ld, v, "%s is above the limit of %d %s", got(ld, v), hi, what);
	return 0;
}

/* An optional integer key: left as is when absent. */
static int opt_int(struct ld *ld, const struct yn *map, const char *key, int lo, int *out)
{
	const struct yn *v = yn_get(map, key);
	return v ? get_int(ld, v, lo, out) : 0;
}

static int opt_lim(struct ld *ld, const struct yn *map, const char *key, int lo, int hi,
		   const char *what, int *out)
{
	const struct yn *v = yn_get(map, key);
	return v ? get_lim(ld, v, lo, hi, what, out) : 0;
}

static int get_seed(struct ld *ld, const struct yn *v, uint64_t *out)
{
	const char *p = int_text(v);
	if (!p)
		return fail(ld, v, "expected an integer, got %s", got(ld, v));
	if (*p == '-')
		return fail(ld, v, "expected an integer >= 0, got %s", got(ld, v));
	errno = 0;
	unsigned long long x = strtoull(p, NULL, 10);
	if (errno == ERANGE)
		return fail(ld, v, "integer %s is out of range", got(ld, v));
	*out = x;
	return 0;
}

/* A real number: decimal, optionally with an exponent ("0.1", "1e-3"). */
static int get_num(struct ld *ld, const struct yn *v, double *out)
{
	const char *p = v->kind == YN_SCALAR ? v->str : "";
	bool ok = *p != '\0';
	for (const char *q = p; *q && ok; q++)
		ok = strchr("0123456789+-.eE", *q) != NULL;
	char *end = NULL;
	double x = ok ? strtod(p, &end) : 0;
	if (!ok || *end || !isfinite(x))
		return fail(ld, v, "expected a number, got %s", got(ld, v));
	*out = x;
	return 0;
}

/* A coefficient of variation in [0, MAX_CV]. */
static int get_cv(struct ld *ld, const struct yn *v, double *out)
{
	if (get_num(ld, v, out) < 0)
		return -1;
	if (*out < 0)
		return fail(ld, v, "expected a cv >= 0, got %s", got(ld, v));
	if (*out > MAX_CV)
		return fail(ld, v, "%s is above the limit of %d for a cv", got(ld, v), MAX_CV);
	return 0;
}

/* A boolean policy switch: exactly true or false. */
static bool is_bool(const char *s)
{
	return strcmp(s, "true") == 0 || strcmp(s, "false") == 0;
}

/* ------------------------------------------------------------------ */
/* Quantities with units                                               */

static const uint64_t pow10s[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
};

/* ±mant / 10^frac, exactly as written. */
struct dec {
	bool neg;
	uint64_t mant;
	int frac;
	bool many;  /* more than 18 significant digits or 18 decimals */
};

/* [+-]digits[.digits] at the start of `s` (a digit on one side of the
 * point at least).  Returns the end of the number, or NULL.  The value is
 * exact with at most 18 significant digits and 18 decimals; past that,
 * d->many is set. */
static const char *parse_dec(const char *s, struct dec *d)
{
	int ndig = 0, sig = 0;
	bool point = false;
	*d = (struct dec){0};
	if (*s == '+' || *s == '-')
		d->neg = *s++ == '-';
	for (;; s++) {
		if (*s == '.' && !point) {
			point = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		ndig++;
		d->frac += point;
		if (d->mant == 0 && *s == '0')
			continue;
		if (++sig > 18)
			d->many = true;
		else
			d->mant = d->mant * 10 + (uint64_t)(*s - '0');
	}
	while (d->frac > 0 && d->mant % 10 == 0) {
		d->mant /= 10;
		d->frac--;
	}
	if (d->mant == 0)
		d->frac = 0;
	d->many |= d->frac > 18;
	return ndig ? s : NULL;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* A number, optional blanks, then one of `units` (n of them; the index
 * goes to *unit).  0; -1 when the text has another shape, after writing
 * `expected` (a format for got()); -1 when the number has too many digits. */
static int parse_qty(struct ld *ld, const struct yn *v, const char *const *units, int n,
		     struct dec *d, int *unit, const char *expected)
{
	const char *p = v->kind == YN_SCALAR ? parse_dec(v->str, d) : NULL;
	while (p && *p == ' ')
		p++;
	for (int i = 0; p && i < n; i++)
		if (strcmp(p, units[i]) == 0) {
			*unit = i;
			if (d->many)
				return fail(ld, v, "%s has too many digits (at most 18 significant "
					    "digits and 18 decimals)", got(ld, v));
			return 0;
		}
	return fail(ld, v, expected, got(ld, v));
}

static const char *const size_units[] = {"MiB", "GiB", "TiB", "M", "G", "T"};
static const int size_shift[] = {0, 10, 20, 0, 10, 20};

/* A size in whole MiB, >= min. */
static int get_size(struct ld *ld, const struct yn *v, int64_t min, int64_t *mib)
{
	struct dec d;
	int u;
	if (parse_qty(ld, v, size_units, ARRAY_LEN(size_units), &d, &u,
		      "expected a size such as 512MiB or 64GiB, got %s") < 0)
		return -1;
	int sh = size_shift[u];
	uint64_t den = pow10s[d.frac];
	if (d.mant > ((uint64_t)INT64_MAX >> sh))
		return fail(ld, v, "size %s is too large (at most %lldTiB)", got(ld, v), MAX_MIB >> 20);
	uint64_t num = d.mant << sh;
	if (num % den)
		return fail(ld, v, "expected a whole number of MiB, got %s", got(ld, v));
	int64_t x = (int64_t)(num / den) * (d.neg ? -1 : 1);
	if (x < min)
		return fail(ld, v, "expected a size >= %" PRId64 "MiB, got %s", min, got(ld, v));
	if (x > MAX_MIB)
		return fail(ld, v, "size %s is too large (at most %lldTiB)", got(ld, v), MAX_MIB >> 20);
	*mib = x;
	return 0;
}

static const char *const time_units[] = {"us", "ms", "s", "min", "h"};
static const uint64_t time_us[] = {1, 1000, 1000000, 60000000, 3600000000};
#define TIME_EXPECTED "expected a time with a unit (us, ms, s, min, h), got %s"
#define TIME_TOO_LARGE "time %s is too large (at most %llds)"

enum sign { NONNEG, POSITIVE };

/* A time rounded to the nearest µs (half away from zero). */
static int get_time(struct ld *ld, const struct yn *v, enum sign sign, int64_t *us)
{
	struct dec d;
	int u;
	if (parse_qty(ld, v, time_units, ARRAY_LEN(time_units), &d, &u, TIME_EXPECTED) < 0)
		return -1;
	/* value = mant * m / den; reduced, m stays small whenever den > 1,
	   so r * m below cannot overflow. */
	uint64_t m = time_us[u], den = pow10s[d.frac], g = gcd(m, den);
	m /= g;
	den /= g;
	uint64_t q = d.mant / den, r = d.mant % den;
	if (q > (uint64_t)(INT64_MAX - 1) / m)
		return fail(ld, v, TIME_TOO_LARGE, got(ld, v), MAX_TIME_S);
	uint64_t x = q * m + r * m / den + (2 * (r * m % den) >= den);
	if (x > (uint64_t)INT64_MAX)
		return fail(ld, v, TIME_TOO_LARGE, got(ld, v), MAX_TIME_S);
	int64_t t = d.neg ? -(int64_t)x : (int64_t)x;
	if (t < 0 || (sign == POSITIVE && t == 0))
		return fail(ld, v, "expected a time %s 0, got %s", sign == POSITIVE ? ">" : ">=",
			    got(ld, v));
	if (t > MAX_TIME_US)
		return fail(ld, v, TIME_TOO_LARGE, got(ld, v), MAX_TIME_S);
	*us = t;
	return 0;
}

static int opt_time(struct ld *ld, const struct yn *map, const char *key, enum sign sign,
		    int64_t *us)
{
	const struct yn *v = yn_get(map, key);
	return v ? get_time(ld, v, sign, us) : 0;
}

/* A cost-model time >= 0 in µs, kept fractional (slopes can be < 1 µs). */
static int get_time_real(struct ld *ld, const struct yn *v, double *us)
{
	struct dec d;
	int u;
	if (parse_qty(ld, v, time_units, ARRAY_LEN(time_units), &d, &u, TIME_EXPECTED) < 0)
		return -1;
	if (d.neg && d.mant)
		return fail(ld, v, "expected a time >= 0, got %s", got(ld, v));
	*us = (double)d.mant * (double)time_us[u] / (double)pow10s[d.frac];
	if (*us > (double)MAX_TIME_US)
		return fail(ld, v, TIME_TOO_LARGE, got(ld, v), MAX_TIME_S);
	return 0;
}

static const char *const rate_units[] = {"/s", "/min", "/h"};
static const double rate_div[] = {1, 60, 3600};

static const char *const bw_units[] = {"MiB/s", "GiB/s", "M/s", "G/s"};
static const int bw_shift[] = {0, 10, 0, 10};

/* A bandwidth "S/s" (S a size: MiB, GiB, M, G) in MiB/s, from 1MiB/s to
 * MAX_MIB per second. */
static int get_bandwidth(struct ld *ld, const struct yn *v, double *mib_s)
{
	struct dec d;
	int u;
	if (parse_qty(ld, v, bw_units, ARRAY_LEN(bw_units), &d, &u,
		      "expected a bandwidth such as 1192MiB/s or 1.25GiB/s, got %s") < 0)
		return -1;
	double x = (double)d.mant * (double)(1 << bw_shift[u]) / (double)pow10s[d.frac];
	if (d.neg || !(x >= 1))
		return fail(ld, v, "expected a bandwidth >= 1MiB/s, got %s", got(ld, v));
	if (x > (double)MAX_MIB)
		return fail(ld, v, "bandwidth %s is too large (at most %lldTiB/s)", got(ld, v),
			    MAX_MIB >> 20);
	*mib_s = x;
	return 0;
}

/* A rate "R/unit" > 0, returned as the mean gap 1/R in µs. */
static int get_rate(struct ld *ld, const struct yn *v, double *mean_gap_us)
{
	struct dec d;
	int u;
	if (parse_qty(ld, v, rate_units, ARRAY_LEN(rate_units), &d, &u,
		      "expected a rate such as 0.5/s, 3/min or 10/h, got %s") < 0)
		return -1;
	if (d.neg || d.mant == 0)
		return fail(ld, v, "expected a rate > 0, got %s", got(ld, v));
	*mean_gap_us = 1e6 * rate_div[u] * (double)pow10s[d.frac] / (double)d.mant;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Distributions                                                       */

enum qty { Q_SIZE, Q_TIME };

/* A size (MiB) or time (µs) >= 0 as a double. */
static int get_qty(struct ld *ld, const struct yn *v, enum qty q, double *out)
{
	int64_t x;
	if ((q == Q_SIZE ? get_size(ld, v, 0, &x) : get_time(ld, v, NONNEG, &x)) < 0)
		return -1;
	*out = (double)x;
	return 0;
}

static const struct {
	const char *name;
	enum scn_dist_kind kind;
	const char *const keys[3]; /* dist, a, b */
} dists[] = {
	{"constant", SCN_DIST_CONST, {"dist", "value", NULL}},
	{"exponential", SCN_DIST_EXPONENTIAL, {"dist", "mean", NULL}},
	{"lognormal", SCN_DIST_LOGNORMAL, {"dist", "mean", "cv"}},
	{"uniform", SCN_DIST_UNIFORM, {"dist", "min", "max"}},
};

static int dist_params(struct ld *ld, const struct yn *m, int i, enum qty q, struct scn_dist *d)
{
	char what[64];
	snprintf(what, sizeof what, "%s distribution", dists[i].name);
	const char *const *keys = dists[i].keys;
	const struct yn *a, *b = NULL;
	if (check_map(ld, m, what, keys, keys[2] ? 3 : 2) < 0 || !(a = need(ld, m, keys[1], what, NULL)) ||
	    (keys[2] && !(b = need(ld, m, keys[2], what, NULL))) || get_qty(ld, a, q, &d->a) < 0)
		return -1;
	d->kind = dists[i].kind;
	if (d->kind == SCN_DIST_EXPONENTIAL || d->kind == SCN_DIST_LOGNORMAL)
		if (d->a <= 0)
			return fail(ld, a, "expected a mean > 0, got %s", got(ld, a));
	if (d->kind == SCN_DIST_LOGNORMAL) {
		if (get_cv(ld, b, &d->b) < 0)
			return -1;
	}
	if (d->kind == SCN_DIST_UNIFORM) {
		if (get_qty(ld, b, q, &d->b) < 0)
			return -1;
		if (d->b < d->a)
			return fail(ld, b, "expected max >= min ('%s'), got %s", a->str, got(ld, b));
	}
	return 0;
}

/* A value with a unit (constant) or {dist: ..., ...}; a, b in the unit. */
static int get_dist(struct ld *ld, const struct yn *v, enum qty q, struct scn_dist *d)
{
	if (v->kind == YN_SCALAR) {
		d->kind = SCN_DIST_CONST;
		return get_qty(ld, v, q, &d->a);
	}
	if (v->kind != YN_MAP)
		return fail(ld, v, "expected a %s or a {dist: ...} mapping, got %s",
			    q == Q_SIZE ? "size" : "time", got(ld, v));
	const struct yn *k = need(ld, v, "dist", "distribution", NULL);
	if (!k)
		return -1;
	const char *names[ARRAY_LEN(dists)];
	for (int i = 0; i < ARRAY_LEN(dists); i++) {
		names[i] = dists[i].name;
		if (k->kind == YN_SCALAR && strcmp(k->str, names[i]) == 0)
			return dist_params(ld, v, i, q, d);
	}
	char list[128];
	return fail(ld, k, "unknown distribution %s (known: %s)", got(ld, k),
		    join(names, ARRAY_LEN(names), list, sizeof list));
}

/* ------------------------------------------------------------------ */
/* Labels                                                              */

static int add_label(struct ld *ld, const struct yn *at, const char *name, uint64_t *bits)
{
	struct scn *s = ld->s;
	int i = scn_label_index(s, name);
	if (i < 0) {
		if (s->nlabels == SCN_MAX_LABELS)
			return fail(ld, at, "too many distinct labels (at most %d)", SCN_MAX_LABELS);
		i = s->nlabels++;
		s->label_names[i] = xstrdup(name);
	}
	*bits |= 1ULL << i;
	return 0;
}

/* A node group's `labels`: auto, one label, or a list. */
static int node_labels(struct ld *ld, const struct yn *v, struct scn_node_group *g)
{
	if (v->kind == YN_SCALAR && strcmp(v->str, "auto") == 0) {
		if (g->gpus == 0)
			return add_label(ld, v, "cpu", &g->labels);
		return add_label(ld, v, "gpu", &g->labels) < 0 ? -1
			: add_label(ld, v, g->gpu_model, &g->labels);
	}
	if (check_items(ld, v, "labels") < 0)
		return -1;
	for (int i = 0; i < nitems(v); i++) {
		const struct yn *it = item(v, i);
		char *name;
		if (strcmp(it->str, "auto") == 0)
			return fail(ld, it, "'auto' cannot be mixed with other labels; write labels: auto");
		if (get_ident(ld, it, ID_NAME, "label", &name) < 0)
			return -1;
		int r = add_label(ld, it, name, &g->labels);
		free(name);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* A job's or role's require/prefer: labels some node group carries. */
static int job_labels(struct ld *ld, const struct yn *v, const char *what, uint64_t *bits)
{
	struct scn *s = ld->s;
	const char *const *known = (const char *const *)s->label_names;
	char list[512];
	if (check_items(ld, v, what) < 0)
		return -1;
	*bits = 0;
	for (int i = 0; i < nitems(v); i++) {
		const struct yn *it = item(v, i);
		int k = scn_label_index(s, it->str);
		if (k >= 0) {
			*bits |= 1ULL << k;
			continue;
		}
		const char *sug = near(it->str, known, s->nlabels);
		if (sug)
			return fail(ld, it, "no node group carries label %s (did you mean '%s'?)",
				    got(ld, it), sug);
		if (s->nlabels)
			return fail(ld, it, "no node group carries label %s (node labels: %s)",
				    got(ld, it), join(known, s->nlabels, list, sizeof list));
		return fail(ld, it, "no node group carries label %s (no node group has labels)",
			    got(ld, it));
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Cluster                                                             */

static const char *const group_keys[] = {"name", "count", "cores", "memory", "gpus",
					  "gpu_model", "cpu_speed", "labels", "failures",
					  "outages", "stragglers", "nodemanager", "network"};
static const char *const nodemanager_keys[] = {"memory", "vcores"};
static const char *const straggler_keys[] = {"fraction", "slowdown"};
static const char *const failure_keys[] = {"mtbf", "mttr"};
static const char *const outage_keys[] = {"node", "at", "for"};

/* A number in [lo, hi] of key `key` of map m, if given. */
static int opt_num(struct ld *ld, const struct yn *m, const char *key, double lo, double hi,
		   double *out)
{
	const struct yn *v = yn_get(m, key);
	double x;
	if (!v)
		return 0;
	if (get_num(ld, v, &x) < 0)
		return -1;
	if (!(x >= lo && x <= hi))
		return fail(ld, v, "expected a number from %g to %g for %s, got %s", lo, hi, key,
			    got(ld, v));
	*out = x;
	return 0;
}

static int check_len(struct ld *ld, const struct yn *list, int max, const char *what);

/* An up-time or repair time: a time stands for an exponential of that
 * mean; a {dist: ...} mapping for itself.  Positive on average. */
static int failure_time(struct ld *ld, const struct yn *v, struct scn_dist *d)
{
	if (v->kind == YN_SCALAR) {
		d->kind = SCN_DIST_EXPONENTIAL;
		if (get_time_real(ld, v, &d->a) < 0)
			return -1;
		if (d->a <= 0)
			return fail(ld, v, "expected a time > 0, got %s", got(ld, v));
		return 0;
	}
	if (get_dist(ld, v, Q_TIME, d) < 0)
		return -1;
	double mean = d->kind == SCN_DIST_UNIFORM ? (d->a + d->b) / 2 : d->a;
	if (!(mean > 0))
		return fail(ld, v, "expected a time > 0 on average, got %s", got(ld, v));
	return 0;
}

/* failures: {mtbf, mttr}: every node of the group fails and is repaired
 * at random, independently; outages: [{node, at, for}]: scripted. */
static int group_failures(struct ld *ld, const struct yn *m, struct scn_node_group *g)
{
	const struct yn *v = yn_get(m, "failures"), *t;
	if (v) {
		if (CHECK_MAP(ld, v, "failures", failure_keys) < 0 ||
		    !(t = need(ld, v, "mtbf", "failures", NULL)) || failure_time(ld, t, &g->mtbf) < 0 ||
		    !(t = need(ld, v, "mttr", "failures", NULL)) || failure_time(ld, t, &g->mttr) < 0)
			return -1;
		g->fails = true;
	}
	if ((v = yn_get(m, "nodemanager"))) {
		const struct yn *t2;
		if (CHECK_MAP(ld, v, "nodemanager", nodemanager_keys) < 0 ||
		    ((t2 = yn_get(v, "memory")) && get_size(ld, t2, 1, &g->nm_mem_mib) < 0) ||
		    opt_lim(ld, v, "vcores", 1, MAX_CORES, "vcores per node", &g->nm_vcores) < 0)
			return -1;
		if (g->nm_mem_mib > g->mem_mib)
			return fail(ld, t2, "the NodeManager's memory %s is more than the node's",
				    got(ld, t2));
	}
	g->straggler_slowdown = 1;
	if ((v = yn_get(m, "stragglers")) &&
	    (CHECK_MAP(ld, v, "stragglers", straggler_keys) < 0 ||
	     !need(ld, v, "fraction", "stragglers", NULL) ||
	     opt_num(ld, v, "fraction", 0, 1, &g->straggler_fraction) < 0 ||
	     !need(ld, v, "slowdown", "stragglers", NULL) ||
	     opt_num(ld, v, "slowdown", 1, 1000, &g->straggler_slowdown) < 0))
		return -1;
	if (!(v = yn_get(m, "outages")))
		return 0;
	if (want_list(ld, v, "outages", "outage") < 0 || check_len(ld, v, MAX_NODES, "outages") < 0)
		return -1;
	g->outages = xcalloc((size_t)v->nkids, sizeof *g->outages);
	g->noutages = v->nkids;
	for (int i = 0; i < v->nkids; i++) {
		const struct yn *o = v->kids[i];
		struct scn_outage *out = &g->outages[i];
		if (CHECK_MAP(ld, o, "outage", outage_keys) < 0)
			return -1;
		const struct yn *nv = yn_get(o, "node");
		if (nv && get_int(ld, nv, 0, &out->node) < 0)
			return -1;
		if (out->node >= g->count)
			return fail(ld, nv, "node %s of an outage is past node group '%s', whose %d "
				    "node%s count from 0", got(ld, nv), g->name, g->count,
				    g->count == 1 ? "" : "s");
		if (!(t = need(ld, o, "at", "outage", NULL)) || get_time(ld, t, NONNEG, &out->at_us) < 0 ||
		    !(t = need(ld, o, "for", "outage", NULL)) || get_time(ld, t, POSITIVE, &out->for_us) < 0)
			return -1;
		if (out->at_us > MAX_TIME_US - out->for_us)
			return fail(ld, t, "the outage ends past the limit of %llds (at + for)", MAX_TIME_S);
	}
	return 0;
}

static int group_gpus(struct ld *ld, const struct yn *m, struct scn_node_group *g)
{
	const struct yn *v = yn_get(m, "gpu_model");
	if (opt_lim(ld, m, "gpus", 0, MAX_GPUS, "GPUs per node", &g->gpus) < 0)
		return -1;
	if (g->gpus > 0 && !v)
		return fail(ld, m, "missing key 'gpu_model' in node group '%s' (required when gpus > 0)",
			    g->name);
	if (g->gpus == 0 && v)
		return fail(ld, v, "gpu_model given but node group '%s' has no GPUs (gpus: 0)", g->name);
	return v ? get_ident(ld, v, ID_LOWER, "GPU model", &g->gpu_model) : 0;
}

static int load_group(struct ld *ld, const struct yn *m, struct scn_node_group *g)
{
	const struct yn *v;
	g->count = 1;
	g->cpu_speed = 1.0;
	g->net_mib_s = SCN_NET_MIB_S;
	g->pos = pos(ld, m);
	if (CHECK_MAP(ld, m, "node group", group_keys) < 0 ||
	    !(v = need(ld, m, "name", "node group", NULL)) ||
	    get_ident(ld, v, ID_NAME, "node group name", &g->name) < 0 ||
	    opt_lim(ld, m, "count", 1, MAX_NODES, "nodes in the cluster", &g->count) < 0 ||
	    !(v = need(ld, m, "cores", "node group", g->name)) ||
	    get_lim(ld, v, 1, MAX_CORES, "cores per node", &g->cores) < 0 ||
	    !(v = need(ld, m, "memory", "node group", g->name)) || get_size(ld, v, 1, &g->mem_mib) < 0 ||
	    group_gpus(ld, m, g) < 0 || group_failures(ld, m, g) < 0)
		return -1;
	if ((v = yn_get(m, "cpu_speed"))) {
		if (get_num(ld, v, &g->cpu_speed) < 0)
			return -1;
		if (g->cpu_speed <= 0)
			return fail(ld, v, "expected a number > 0, got %s", got(ld, v));
		if (g->cpu_speed < MIN_SPEED || g->cpu_speed > MAX_SPEED)
			return fail(ld, v, "cpu_speed %s is outside the limits [%g, %g]", got(ld, v),
				    MIN_SPEED, MAX_SPEED);
	}
	if ((v = yn_get(m, "network")) && get_bandwidth(ld, v, &g->net_mib_s) < 0)
		return -1;
	return (v = yn_get(m, "labels")) ? node_labels(ld, v, g) : 0;
}

/* The `name` node of list entry i (NULL if it has none), for messages. */
static const struct yn *entry_name(const struct yn *list, int i)
{
	return yn_get(list->kids[i], "name");
}

/* Entry i's name equals an earlier entry's: report it.  The names loaded
 * so far are at `names` (the name field of entry 0 of an array of
 * `stride`-byte structs).  O(i): lists are at most MAX_GROUPS or
 * MAX_STAGES long. */
static uint64_t name_hash(const char *p)
{
	return fnv1a(FNV1A_BASIS, p, strlen(p));
}

/* Entry i of `list` (names: the first entry's name field, entries
 * `stride` bytes apart) must not repeat the name of an entry before it;
 * entries are checked in order, from 0, one list of a kind at a time. */
static int check_unique(struct ld *ld, int kind, const struct yn *list, int i, const void *names,
			size_t stride, const char *what)
{
	struct seen *set = &ld->seen[kind];
	if (i == 0) { /* a new list of this kind */
		size_t cap = 4;
		while (cap <= 2 * (size_t)list->nkids)
			cap *= 2;
		free(set->slot);
		*set = (struct seen){.slot = xcalloc(cap, sizeof *set->slot), .cap = cap};
	}
#define NAME_AT(k) (*(char *const *)((const char *)names + (size_t)(k) * stride))
	const char *name = NAME_AT(i);
	size_t at = (size_t)name_hash(name) & (set->cap - 1);
	for (; set->slot[at]; at = (at + 1) & (set->cap - 1)) {
		int j = set->slot[at] - 1;
		if (strcmp(NAME_AT(j), name) == 0)
			return fail(ld, entry_name(list, i), "duplicate %s name '%s' (first at line %d)",
				    what, name, entry_name(list, j)->line);
	}
#undef NAME_AT
	set->slot[at] = i + 1;
	return 0;
}

/* A list of at most `max` entries. */
static int check_len(struct ld *ld, const struct yn *list, int max, const char *what)
{
	if (list->nkids > max)
		return fail(ld, list->kids[max], "too many %s (at most %d)", what, max);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Traces (docs/traces.md)                                             */

bool scn_seed_at_load_set;
uint64_t scn_seed_at_load;

void scn_offer_order(struct scn *s, uint32_t replication)
{
	for (int i = 0; i < s->ntraces; i++)
		trace_offer_order(s->traces[i], replication);
}
int64_t scn_max_memory;

int64_t scn_memory_limit(const char **whose)
{
	*whose = scn_max_memory > 0 ? "of --max-memory" : "this machine has available";
	if (scn_max_memory != 0)
		return scn_max_memory > 0 ? scn_max_memory : -1;
	int64_t m = scn_mem_available();
	return m > 0 ? m : -1;
}

int64_t scn_mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb < 0 ? -1 : (int64_t)kb * 1024;
}

#define BLOCK 16 /* malloc's own, a block */

const char *scn_mem_text(double b, char *buf)
{
	static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	int k = 0;
	while (k < 4 && b >= 1024)
		b /= 1024, k++;
	snprintf(buf, 32, "%.1f %s", b, u[k]);
	return buf;
}

static int64_t str_bytes(const char *s)
{
	return s ? (int64_t)strlen(s) + 1 + BLOCK : 0;
}

int64_t scn_bytes(const struct scn *s, char *what, size_t len)
{
	int64_t groups = (int64_t)sizeof *s->groups * s->ngroups + BLOCK, jobs = BLOCK, traces = 0;
	for (int i = 0; i < s->ngroups; i++)
		groups += str_bytes(s->groups[i].name) + str_bytes(s->groups[i].gpu_model);
	int64_t trace_jobs = 0;
	for (int g = 0; g < s->njobgroups; g++) {
		const struct scn_job_group *j = &s->jobs[g];
		jobs += (int64_t)sizeof *j + str_bytes(j->name) + BLOCK +
			(j->model ? (int64_t)j->model->params_size : 0) +
			(int64_t)j->nstages * (int64_t)sizeof *j->stages + (j->nstages ? BLOCK : 0) +
			(int64_t)j->ntput * (int64_t)(sizeof *j->tput + 24);
		for (int k = 0; k < j->nstages; k++)
			jobs += str_bytes(j->stages[k].name);
	}
	for (int t = 0; t < s->ntraces; t++) {
		/* an offer-only one keeps a copy of its load's order once a
		 * replication other than 0 runs (trace_offer_order) */
		traces += (int64_t)sizeof *s->traces[t]->jobs * s->traces[t]->njobs *
			  (s->traces[t]->offer ? 2 : 1) + BLOCK;
		trace_jobs += s->traces[t]->njobs;
	}
	int64_t total = (int64_t)sizeof *s + groups + jobs + traces +
			(int64_t)s->npolicies * (int64_t)sizeof *s->policies;
	if (traces > jobs && traces > groups)
		snprintf(what, len, "its traces' %lld jobs", (long long)trace_jobs);
	else if (jobs >= groups)
		snprintf(what, len, "its %d job groups", s->njobgroups);
	else
		snprintf(what, len, "its %d node groups", s->ngroups);
	return total;
}
/* A run's own memory, as measured here (docs/errors.md): about 80 bytes
 * a job, 8 (synthetic) to 35 (wordcount) a task of a job whose DAG is
 * built (from its first executor to its end), a few hundred a node;
 * rounded up. */
#define RUN_JOB_BYTES 128
#define RUN_TASK_BYTES 40
#define RUN_NODE_BYTES 512

/* tasks[g]: the tasks of a job of group g (its DAG's, as check_time_scale
 * built it, or the model's count). */
static int64_t run_bytes(const struct scn *s, const long long *tasks, char *what, size_t len,
			 int *at_group)
{
	int64_t nodes = 0, jobs = 0, dags = 0, top = -1;
	int top_g = -1;
	long long top_live = 0, top_tasks = 0;
	for (int i = 0; i < s->ngroups; i++)
		nodes += (int64_t)s->groups[i].count * RUN_NODE_BYTES;
	for (int g = 0; g < s->njobgroups; g++) {
		const struct scn_job_group *j = &s->jobs[g];
		jobs += (int64_t)j->count * RUN_JOB_BYTES;
		long long per_job = tasks[g];
		/* its jobs live at once, at most: one each executor of its first
		 * role the cluster holds (a job's DAG is built once it has one) */
		struct sim_shape sh;
		sim_group_shape(s, g, &sh);
		long long slots = 0;
		int64_t cores = sh.nroles ? sh.role[0].cores : 0;
		for (int i = 0; i < s->ngroups && slots < j->count; i++)
			slots += cores > 0 ? (long long)s->groups[i].count *
					     ((int64_t)s->groups[i].cores * CLU_MILLI / cores)
					   : j->count;
		long long live = slots < j->count ? slots : j->count;
		int64_t b = (int64_t)live * per_job * RUN_TASK_BYTES;
		dags += b;
		if (b > top)
			top = b, top_g = g, top_live = live, top_tasks = per_job;
	}
	int64_t total = nodes + jobs + dags;
	*at_group = -1;
	if (dags >= jobs && dags >= nodes && top_g >= 0) {
		snprintf(what, len, "job group '%s': up to %lld of its jobs at once, %lld tasks "
			 "each", s->jobs[top_g].name, top_live, top_tasks);
		*at_group = top_g;
	} else if (jobs >= nodes) {
		snprintf(what, len, "its %lld jobs", (long long)(jobs / RUN_JOB_BYTES));
	} else {
		snprintf(what, len, "its %lld nodes", (long long)(nodes / RUN_NODE_BYTES));
	}
	return total;
}

/* Refuse a scenario whose run would not fit in the memory a load may
 * plan for (scn_max_memory).  The estimate is kept in s->run_bytes,
 * refused or not: a sweep multiplies it by its runs at once. */
static int check_run_memory(struct scn *s, const long long *tasks, char *err,
			    size_t errlen)
{
	const char *whose;
	char what[256], a[32], l[32];
	int g;
	int64_t need = s->run_bytes = run_bytes(s, tasks, what, sizeof what, &g);
	int64_t limit = scn_memory_limit(&whose);
	if (limit < 0 || need <= limit)
		return 0;
	const struct scn_pos *p = g >= 0 ? &s->jobs[g].pos : NULL;
	snprintf(err, errlen, "%s:%d:%d: a run would hold about %s (most of it %s), above the %s "
		 "%s: fewer or smaller jobs, or --max-memory SIZE", p ? p->file : s->path,
		 p ? p->line : 1, p ? p->col : 1, scn_mem_text((double)need, a), what,
		 scn_mem_text((double)limit, l), whose);
	return -1;
}

bool scn_trace_strict;

static char *resolve(const char *scenario, const char *p);

static const char *const trace_src_keys[] = {"format", "path"};
static const char *const trace_node_entry_keys[] = {"name", "trace", "cpu_speed", "network"};
static const char *const trace_keys[] = {"format", "path", "window", "first", "users",
					 "queues", "kinds", "time_scale", "executor",
					 "completed_only", "strict", "offer", "offer_pad"};
static const char *const not_keys[] = {"not"};
static const char *const window_keys[] = {"from", "to"};
static const char *const trace_exec_keys[] = {"cores", "memory"};

static int get_bool(struct ld *ld, const struct yn *v, bool *out)
{
	if (v->kind != YN_SCALAR || !is_bool(v->str))
		return fail(ld, v, "expected true or false, got %s", got(ld, v));
	*out = strcmp(v->str, "true") == 0;
	return 0;
}

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
	const char *sug = v->kind == YN_SCALAR ? near(v->str, names, n) : NULL;
	if (sug)
		return fail(ld, v, "unknown trace format %s (did you mean '%s'?)", got(ld, v), sug);
	return fail(ld, v, "unknown trace format %s (known: %s)", got(ld, v),
		    join(names, n, list, sizeof list));
}

/* path: a file next to the scenario (or absolute), which must open. */
static int trace_path(struct ld *ld, const struct yn *m, const char *what, char **out)
{
	const struct yn *v = need(ld, m, "path", what, NULL);
	if (!v)
		return -1;
	if (v->kind != YN_SCALAR || !*v->str)
		return fail(ld, v, "expected a file name, got %s", got(ld, v));
	char *p = resolve(ld->s->path, v->str);
	struct stat st;
	if (stat(p, &st) || !S_ISDIR(st.st_mode)) { /* (a folder: a format of tables) */
		const char *why;
		FILE *f = fopen_regular(p, &why);
		if (!f) {
			fail(ld, v, "cannot open trace %s: %s", got(ld, v), why);
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
		if (CHECK_MAP(ld, v, what, not_keys) < 0 || !(v = need(ld, v, "not", what, NULL)))
			return -1;
		*not = true;
	}
	if (check_items(ld, v, what) < 0)
		return -1;
	*n = nitems(v);
	*out = xcalloc((size_t)(*n ? *n : 1), sizeof **out);
	for (int i = 0; i < *n; i++)
		(*out)[i] = item(v, i)->str; /* the tree outlives the import */
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
		    ((w = yn_get(v, "from")) && get_time(ld, w, NONNEG, &o->from_us) < 0) ||
		    ((w = yn_get(v, "to")) && get_time(ld, w, POSITIVE, &o->to_us) < 0))
			return -1;
		if (o->to_us && o->to_us <= o->from_us)
			return fail(ld, yn_get(v, "to"), "window's to must come after its from");
	}
	long long first = 0;
	if ((v = yn_get(m, "first")) && get_ll(ld, v, 1, MAX_JOBS, &first) < 0)
		return -1;
	o->first = first;
	if ((v = yn_get(m, "time_scale"))) {
		if (get_num(ld, v, &o->time_scale) < 0)
			return -1;
		if (!(o->time_scale >= 1e-6 && o->time_scale <= 1e6))
			return fail(ld, v, "time_scale %s is outside [1e-06, 1e+06]", got(ld, v));
	}
	if ((v = yn_get(m, "executor"))) {
		const struct yn *w;
		if (CHECK_MAP(ld, v, "executor", trace_exec_keys) < 0 ||
		    ((w = yn_get(v, "cores")) &&
		     get_lim(ld, w, 1, MAX_CORES, "cores per executor", &o->exec_cores) < 0) ||
		    ((w = yn_get(v, "memory")) && get_size(ld, w, 1, &o->exec_mem_mib) < 0))
			return -1;
	}
	if (((v = yn_get(m, "completed_only")) && get_bool(ld, v, &o->completed_only) < 0) ||
	    ((v = yn_get(m, "strict")) && get_bool(ld, v, &o->strict) < 0) ||
	    ((v = yn_get(m, "offer")) && get_bool(ld, v, &o->offer) < 0))
		return -1;
	if ((v = yn_get(m, "offer_pad"))) {
		if (get_num(ld, v, &o->offer_pad) < 0)
			return -1;
		if (!(o->offer_pad > 0 && o->offer_pad <= 100))
			return fail(ld, v, "offer_pad %s is outside (0, 100] (a multiple of the "
				    "cluster's GPU capacity)", got(ld, v));
		if (!o->offer)
			return fail(ld, v, "offer_pad goes with offer: true");
	}
	if (o->offer && (v = yn_get(m, "window")))
		return fail(ld, v, "window does not go with offer: offer-only reads no times "
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
static int load_trace_nodes(struct ld *ld, const struct yn *m, int *cap)
{
	struct scn *s = ld->s;
	const struct yn *v, *t = yn_get(m, "trace");
	const char *format = NULL;
	char *prefix = NULL, *path = NULL, err[1024];
	double speed = 1, net = SCN_NET_MIB_S;
	if (CHECK_MAP(ld, m, "node group", trace_node_entry_keys) < 0 ||
	    !(v = need(ld, m, "name", "node group", NULL)) ||
	    get_ident(ld, v, ID_NAME, "node group name", &prefix) < 0)
		return -1;
	int rc = CHECK_MAP(ld, t, "trace", trace_src_keys);
	if (!rc && (v = yn_get(t, "format")))
		rc = trace_format_key(ld, v, &format);
	if (!rc && (v = yn_get(m, "cpu_speed"))) {
		rc = get_num(ld, v, &speed);
		if (!rc && (speed < MIN_SPEED || speed > MAX_SPEED))
			rc = fail(ld, v, "cpu_speed %s is outside the limits [%g, %g]", got(ld, v),
				  MIN_SPEED, MAX_SPEED);
	}
	if (!rc && (v = yn_get(m, "network")))
		rc = get_bandwidth(ld, v, &net);
	if (!rc)
		rc = trace_path(ld, t, "trace", &path);
	int first = s->ngroups;
	if (!rc && trace_read_nodes(path, format, prefix, &s->groups, &s->ngroups, err,
				    sizeof err) < 0)
		rc = trace_err(ld, t, err); /* its own file:line:col, where it has one */
	*cap = s->ngroups > *cap ? s->ngroups : *cap; /* trace_read_nodes grew it */
	for (int g = first; !rc && g < s->ngroups; g++) {
		struct scn_node_group *ng = &s->groups[g];
		ng->pos = pos(ld, m);
		ng->cpu_speed = speed;
		ng->net_mib_s = net;
		if (ng->cores < 1 || ng->cores > MAX_CORES || ng->mem_mib < 1 ||
		    ng->gpus > MAX_GPUS)
			rc = fail(ld, t, "%s: a node of %d cores, %lld MiB and %d GPUs is outside "
				  "the limits (cores 1..%d, memory >= 1 MiB, GPUs <= %d)", path,
				  ng->cores, (long long)ng->mem_mib, ng->gpus, MAX_CORES, MAX_GPUS);
		else if (ng->gpus == 0)
			rc = add_label(ld, t, "cpu", &ng->labels);
		else /* a node list's GPUs without a model: the gpu label alone */
			rc = add_label(ld, t, "gpu", &ng->labels) < 0 ? -1
				: ng->gpu_model ? add_label(ld, t, ng->gpu_model, &ng->labels) : 0;
	}
	free(prefix);
	free(path);
	return rc;
}


/* A cluster entry is a node group, or (with a `trace` key) the node
 * groups of a trace's node list, one per distinct node shape. */
static int load_cluster(struct ld *ld, const struct yn *v)
{
	struct scn *s = ld->s;
	long long nodes = 0;
	if (want_list(ld, v, "cluster", "node group") < 0 ||
	    check_len(ld, v, MAX_GROUPS, "node groups") < 0)
		return -1;
	int cap = v->nkids;
	s->groups = xcalloc((size_t)cap, sizeof *s->groups);
	/* names seen: group index + 1 by hash; a table twice the limit */
	size_t mask = 1;
	while (mask <= 2 * (size_t)MAX_GROUPS)
		mask = mask * 2 + 1;
	int *seen = xcalloc(mask + 1, sizeof *seen);
	int *line = xcalloc((size_t)MAX_GROUPS, sizeof *line); /* of each group's name */
	int rc = 0;
	for (int i = 0; i < v->nkids && !rc; i++) {
		int first = s->ngroups;
		const struct yn *e = v->kids[i];
		if (e->kind == YN_MAP && yn_get(e, "trace")) {
			rc = load_trace_nodes(ld, e, &cap);
		} else {
			xgrow(&s->groups, &cap, s->ngroups + 1, sizeof *s->groups);
			memset(&s->groups[s->ngroups], 0, sizeof *s->groups);
			s->ngroups++;
			rc = load_group(ld, e, &s->groups[first]);
		}
		for (int g = first; g < s->ngroups && !rc; g++) {
			if (g >= MAX_GROUPS) {
				rc = fail(ld, e, "too many node groups (at most %d)", MAX_GROUPS);
				break;
			}
			size_t at = (size_t)name_hash(s->groups[g].name) & mask;
			for (; seen[at]; at = (at + 1) & mask) {
				const struct scn_node_group *h = &s->groups[seen[at] - 1];
				if (strcmp(h->name, s->groups[g].name) == 0) {
					rc = fail(ld, yn_get(e, "name") ? yn_get(e, "name") : e,
						  "duplicate node group name '%s' (first at line %d)",
						  h->name, line[seen[at] - 1]);
					break;
				}
			}
			if (rc)
				break;
			seen[at] = g + 1;
			line[g] = (yn_get(e, "name") ? yn_get(e, "name") : e)->line;
			if ((nodes += s->groups[g].count) > MAX_NODES)
				rc = fail(ld, e, "node group '%s' brings the cluster to %lld nodes, "
					  "above the limit of %d", s->groups[g].name, nodes, MAX_NODES);
		}
	}
	free(seen);
	free(line);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Workload                                                            */

/* Keys every job group takes, whatever its model. */
static const char *const generic_job_keys[] = {"name", "type", "count", "arrival", "require",
					       "prefer", "cores_max", "task_cpus",
					       "task_max_failures", "throughput"};

/* Index of `key` in model m's key table, or -1. */
static int model_key(const struct job_model *m, const char *key)
{
	for (int k = 0; k < m->nkeys; k++)
		if (strcmp(m->keys[k].key, key) == 0)
			return k;
	return -1;
}

/* "a, b and c": the models whose tables have `key`
 * (all of them for NULL: the names of the models). */
static const char *models_text(const char *key, char *buf, size_t len)
{
	const char *v[SCN_MAX_MODELS];
	int n = 0;
	for (int t = 0; t < jm_count(); t++)
		if (!key || model_key(jm_at(t), key) >= 0)
			v[n++] = jm_at(t)->name;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) /* "a", "a and b", "a, b and c" */
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i == 0 ? "" : i == n - 1 ? " and " : ", ", v[i]);
	return buf;
}

/* Every key of job group `m` is known and belongs to model `mine` (NULL
 * while the type is unknown: to any model). */
static int check_job_keys(struct ld *ld, const struct yn *m, const struct job_model *mine)
{
	const char *known[ARRAY_LEN(generic_job_keys) + 64 * SCN_MAX_MODELS];
	int n = 0;
	char a[128];
	for (int i = 0; i < ARRAY_LEN(generic_job_keys); i++)
		known[n++] = generic_job_keys[i];
	for (int t = 0; t < jm_count(); t++) {
		const struct job_model *jm = jm_at(t);
		if (mine && jm != mine)
			continue;
		for (int k = 0; k < jm->nkeys && n < ARRAY_LEN(known); k++)
			if (!in_list(jm->keys[k].key, known, n))
				known[n++] = jm->keys[k].key;
	}
	for (int i = 0; i < m->nkids; i += 2) {
		const struct yn *k = m->kids[i];
		if (in_list(k->str, known, n))
			continue;
		bool anywhere = false;
		for (int t = 0; t < jm_count(); t++)
			anywhere |= model_key(jm_at(t), k->str) >= 0;
		if (!anywhere)
			return unknown_key(ld, k, "job group", known, n);
		return fail(ld, k, "key '%s' is for %s jobs, not %s", k->str,
			    models_text(k->str, a, sizeof a), mine->name);
	}
	return 0;
}

static const char *const arrival_keys[] = {"at", "every", "poisson", "times", "start"};

static int arrival_times(struct ld *ld, const struct yn *v, struct scn_arrival *a)
{
	if (want_list(ld, v, "times", "time") < 0 ||
	    check_len(ld, v, MAX_JOBS, "arrival times") < 0)
		return -1;
	a->kind = SCN_ARR_LIST;
	a->times_us = xcalloc((size_t)v->nkids, sizeof *a->times_us);
	a->ntimes = v->nkids;
	for (int i = 0; i < v->nkids; i++) {
		if (get_time(ld, v->kids[i], NONNEG, &a->times_us[i]) < 0)
			return -1;
		if (i && a->times_us[i] < a->times_us[i - 1])
			return fail(ld, v->kids[i], "arrival times must not decrease: %s comes after '%s'",
				    got(ld, v->kids[i]), v->kids[i - 1]->str);
	}
	return 0;
}

static int load_arrival(struct ld *ld, const struct yn *m, struct scn_arrival *a)
{
	const char *forms[4];
	int nforms = 0, form = -1;
	char list[64];
	if (CHECK_MAP(ld, m, "arrival", arrival_keys) < 0)
		return -1;
	for (int i = 0; i < 4; i++)
		if (yn_get(m, arrival_keys[i])) {
			forms[nforms++] = arrival_keys[i];
			form = i;
		}
	if (nforms != 1)
		return fail(ld, m, "arrival takes exactly one of at, every, poisson, times (got %s)",
			    nforms ? join(forms, nforms, list, sizeof list) : "none");
	const struct yn *v = yn_get(m, arrival_keys[form]), *start = yn_get(m, "start");
	if (start && (form == 0 || form == 3))
		return fail(ld, start, "key 'start' goes with every or poisson, not %s",
			    arrival_keys[form]);
	if (start && get_time(ld, start, NONNEG, &a->start_us) < 0)
		return -1;
	switch (form) {
	case 0:
		a->kind = SCN_ARR_FIXED;
		return get_time(ld, v, NONNEG, &a->start_us);
	case 1:
		a->kind = SCN_ARR_INTERVAL;
		return get_time(ld, v, POSITIVE, &a->interval_us);
	case 2:
		a->kind = SCN_ARR_POISSON;
		return get_rate(ld, v, &a->mean_gap_us);
	default:
		return arrival_times(ld, v, a);
	}
}

/* The last arrival of `every` and `poisson` (on average) is within the
 * limit of times; `v` is the arrival mapping. */
static int last_arrival(struct ld *ld, const struct yn *v, const struct scn_job_group *j)
{
	const struct scn_arrival *a = &j->arrival;
	const int64_t room = MAX_TIME_US - a->start_us;
	if (a->kind == SCN_ARR_INTERVAL && j->count - 1 > room / a->interval_us)
		return fail(ld, yn_get(v, "every"), "the last of %d arrivals is past the limit of "
			    "%llds (start + (count - 1) x every)", j->count, MAX_TIME_S);
	if (a->kind == SCN_ARR_POISSON && j->count * a->mean_gap_us > (double)room)
		return fail(ld, yn_get(v, "poisson"), "the last of %d arrivals is past the limit of "
			    "%llds on average (start + count / rate)", j->count, MAX_TIME_S);
	return 0;
}

static int load_trace_opts(struct ld *ld, const struct yn *m, struct trace_opts *o, char **path);
static int trace_err(struct ld *ld, const struct yn *at, const char *err);

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
	return fail(ld, t, "trace '%s' leaves no job (%lld records read, %lld filtered, %lld "
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
		return fail(ld, k, "format '%s' has no job kinds (swf and alibaba-pai-2020 have: "
			    "docs/traces.md, \"Job kinds\")", fmt);
	if (tr && tr->njobs && tr->jobs[tr->njobs - 1].arrival_us > MAX_TIME_US)
		return fail(ld, t, "trace '%s': its last job arrives at %.0fs, past the limit of "
			    "%llds", tr->path, (double)tr->jobs[tr->njobs - 1].arrival_us / 1e6,
			    MAX_TIME_S);
	return 0;
}

/* `arrival: {trace: {...}}`: job i of the group arrives when the i-th job
 * of the trace (after its filters) was submitted; the group's model and
 * keys say what each job is, the trace only when it comes (docs/traces.md,
 * "Job kinds"). */
static int arrival_trace(struct ld *ld, const struct yn *a, const struct yn *c,
			 struct scn_job_group *j)
{
	const struct yn *t = yn_get(a, "trace");
	if (j->model == &jm_trace)
		return fail(ld, a, "a job group of type trace is a workload entry `- name: N, "
			    "trace: {...}`; arrival from a trace is for the other job models");
	if (a->nkids != 2)
		return fail(ld, a, "arrival from a trace takes no other key (got %d keys)",
			    a->nkids / 2);
	if (c)
		return fail(ld, c, "count comes from the trace's jobs when the arrival is a trace: "
			    "leave it out");
	struct trace_opts o;
	char *path = NULL, err[1024];
	int rc = load_trace_opts(ld, t, &o, &path) < 0 ? -1 : 0;
	const char *fmt = o.format;
	if (!rc && o.offer)
		rc = fail(ld, yn_get(t, "offer"), "offer does not go with an arrival from a trace "
			  "(offer-only places the trace's own jobs)");
	if (!rc && !fmt && !(fmt = trace_detect(path, err, sizeof err)))
		rc = trace_err(ld, t, err);
	if (!rc && !strcmp(fmt, "spark-eventlog"))
		rc = fail(ld, t, "a Spark event log is one application, not a list of arrivals: "
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

/* count and arrival; with `times`, count defaults to (and must equal) their number. */
static int job_arrival(struct ld *ld, const struct yn *m, struct scn_job_group *j)
{
	const struct yn *v = yn_get(m, "arrival"), *c = yn_get(m, "count");
	if (v && v->kind == YN_MAP && yn_get(v, "trace"))
		return arrival_trace(ld, v, c, j);
	if ((v && load_arrival(ld, v, &j->arrival) < 0) ||
	    (c && get_lim(ld, c, 1, MAX_JOBS, "jobs in the workload", &j->count) < 0))
		return -1;
	if (j->arrival.kind != SCN_ARR_LIST)
		return last_arrival(ld, v, j);
	if (c && j->count != j->arrival.ntimes)
		return fail(ld, c, "count %d disagrees with the %d arrival times", j->count,
			    j->arrival.ntimes);
	j->count = j->arrival.ntimes;
	return 0;
}

static const char *const role_keys[] = {"cores", "memory", "gpus", "require", "prefer"};
static const char *const counted_role_keys[] = {"count", "cores", "memory", "gpus", "require",
						"prefer"};

/* A role mapping, a model's JM_ROLE key; e holds its defaults.  Only a
 * role whose key says so (lo = 1) takes a count. */
static int load_role(struct ld *ld, const struct yn *m, const char *role, bool with_count,
		     struct scn_exec *e)
{
	char what[32];
	const struct yn *v;
	snprintf(what, sizeof what, "role %s", role);
	if ((with_count ? CHECK_MAP(ld, m, what, counted_role_keys) : CHECK_MAP(ld, m, what, role_keys)) < 0 ||
	    (with_count && opt_lim(ld, m, "count", 1, MAX_EXECUTORS, "executors per job",
				   &e->count) < 0) ||
	    opt_lim(ld, m, "cores", 1, MAX_CORES, "cores per executor", &e->cores) < 0 ||
	    opt_lim(ld, m, "gpus", 0, MAX_GPUS, "GPUs per executor", &e->gpus) < 0 ||
	    ((v = yn_get(m, "memory")) && get_size(ld, v, 1, &e->mem_mib) < 0))
		return -1;
	for (int i = 0; i < 2; i++) {
		const char *key = i ? "prefer" : "require";
		if (!(v = yn_get(m, key)))
			continue;
		e->has_labels = true;
		if (job_labels(ld, v, key, i ? &e->prefer : &e->require) < 0)
			return -1;
	}
	return 0;
}

static const char *const stage_keys[] = {"name", "tasks", "duration", "parents"};

/* Index of parent `p` of stage i: an earlier stage of the list.  The
 * search starts at stage `from` (< i) and wraps around, so that parents
 * listed in stage order are found at once. */
static int find_parent(struct ld *ld, const struct yn *list, int i, const struct yn *p,
		       int from, const struct scn_job_group *j)
{
	const char *me = j->stages[i].name, *earlier[64];
	char names[512];
	int n = 0;
	for (int k = from, left = i; left > 0; left--, k = k + 1 < i ? k + 1 : 0)
		if (strcmp(j->stages[k].name, p->str) == 0)
			return k;
	for (int k = 0; k < i && n < ARRAY_LEN(earlier); k++)
		earlier[n++] = j->stages[k].name;
	if (strcmp(p->str, me) == 0)
		return fail(ld, p, "stage '%s' cannot be its own parent", me);
	for (int k = i + 1; k < list->nkids; k++) {
		const struct yn *o = entry_name(list, k);
		if (o && strcmp(o->str, p->str) == 0)
			return fail(ld, p, "parent '%s' of stage '%s' comes after it (parents must be earlier stages)",
				    p->str, me);
	}
	const char *sug = near(p->str, earlier, n);
	if (sug)
		return fail(ld, p, "unknown stage %s in parents of '%s' (did you mean '%s'?)", got(ld, p),
			    me, sug);
	if (n)
		return fail(ld, p, "unknown stage %s in parents of '%s' (earlier stages: %s)", got(ld, p),
			    me, join(earlier, n, names, sizeof names));
	return fail(ld, p, "unknown stage %s in parents of '%s' (it is the first stage)", got(ld, p), me);
}

static int stage_parents(struct ld *ld, const struct yn *list, int i, struct scn_job_group *j)
{
	struct scn_stage *st = &j->stages[i];
	const struct yn *v = yn_get(list->kids[i], "parents");
	if (!v) { /* a chain: the previous stage */
		if (i > 0) {
			st->parents = xmalloc(sizeof *st->parents);
			st->parents[0] = i - 1;
			st->nparents = 1;
		}
		return 0;
	}
	if (check_items(ld, v, "parents") < 0)
		return -1;
	st->parents = xcalloc((size_t)nitems(v), sizeof *st->parents);
	int from = 0, max = -1; /* parents in stage order cost O(1) each */
	for (int k = 0; k < nitems(v); k++) {
		const struct yn *it = item(v, k);
		int p = find_parent(ld, list, i, it, from, j);
		if (p < 0)
			return -1;
		for (int q = 0; p <= max && q < st->nparents; q++)
			if (st->parents[q] == p)
				return fail(ld, it, "stage '%s' is listed twice in parents", it->str);
		st->parents[st->nparents++] = p;
		from = p + 1 < i ? p + 1 : 0;
		max = p > max ? p : max;
	}
	return 0;
}

static int load_stage(struct ld *ld, const struct yn *list, int i, struct scn_job_group *j)
{
	const struct yn *m = list->kids[i], *v;
	struct scn_stage *st = &j->stages[i];
	if (CHECK_MAP(ld, m, "stage", stage_keys) < 0 || !(v = need(ld, m, "name", "stage", NULL)) ||
	    get_ident(ld, v, ID_NAME, "stage name", &st->name) < 0 ||
	    check_unique(ld, SEEN_STAGES, list, i, &j->stages[0].name, sizeof *j->stages, "stage") < 0 ||
	    !(v = need(ld, m, "tasks", "stage", st->name)) ||
	    get_lim(ld, v, 1, MAX_TASKS, "tasks per stage", &st->tasks) < 0 ||
	    !(v = need(ld, m, "duration", "stage", st->name)) || get_dist(ld, v, Q_TIME, &st->dur) < 0)
		return -1;
	return stage_parents(ld, list, i, j);
}

/* A list of stages, the value v of a model's JM_STAGES key. */
static int load_stages(struct ld *ld, const struct yn *v, struct scn_job_group *j)
{
	if (want_list(ld, v, "stages", "stage") < 0 ||
	    check_len(ld, v, MAX_STAGES, "stages in a job") < 0)
		return -1;
	j->stages = xcalloc((size_t)v->nkids, sizeof *j->stages);
	j->nstages = v->nkids;
	for (int i = 0; i < v->nkids; i++)
		if (load_stage(ld, v, i, j) < 0)
			return -1;
	return 0;
}

/* The job's model, read before the other keys since it decides which
 * apply. */
static int job_type(struct ld *ld, const struct yn *m, const char *name, struct scn_job_group *j)
{
	const struct yn *v = yn_get(m, "type");
	char list[128];
	if (!v)
		return check_job_keys(ld, m, NULL) < 0 ? -1
			: (need(ld, m, "type", "job group", name), -1);
	const char *names[SCN_MAX_MODELS];
	for (int t = 0; t < jm_count(); t++)
		names[t] = jm_at(t)->name;
	if (v->kind == YN_SCALAR && (j->model = jm_find(v->str, &j->type))) {
		j->ops = j->model->ops;
		return check_job_keys(ld, m, j->model);
	}
	const char *sug = v->kind == YN_SCALAR ? near(v->str, names, jm_count()) : NULL;
	if (sug)
		return fail(ld, v, "unknown job type %s (did you mean '%s'?)", got(ld, v), sug);
	return fail(ld, v, "unknown job type %s (known: %s)", got(ld, v),
		    models_text(NULL, list, sizeof list));
}

/* Key k of the model's table, its value v, into the group's params. */
static int model_value(struct ld *ld, const struct jm_key *k, const struct yn *v,
		       struct scn_job_group *j)
{
	char *at = (char *)j->params + k->off;
	char list[256];
	switch (k->kind) {
	case JM_INT:
		return get_lim(ld, v, (int)k->lo, (int)k->hi, k->what, (int *)(void *)at);
	case JM_SIZE:
		return get_size(ld, v, k->lo, (int64_t *)(void *)at);
	case JM_TIME:
		return get_time(ld, v, k->lo ? POSITIVE : NONNEG, (int64_t *)(void *)at);
	case JM_NUM: {
		double x;
		if (get_num(ld, v, &x) < 0)
			return -1;
		if (!((k->lo_open ? x > k->flo : x >= k->flo) && x <= k->fhi))
			return fail(ld, v, "expected %s, got %s", k->what, got(ld, v));
		*(double *)(void *)at = x;
		return 0;
	}
	case JM_DIST_SIZE:
		return get_dist(ld, v, Q_SIZE, (struct scn_dist *)(void *)at);
	case JM_ENUM:
		for (int i = 0; i < k->nnames; i++)
			if (v->kind == YN_SCALAR && strcmp(v->str, k->names[i]) == 0) {
				*(int *)(void *)at = i;
				return 0;
			}
		return fail(ld, v, "expected one of %s for %s, got %s",
			    join(k->names, k->nnames, list, sizeof list), k->key, got(ld, v));
	case JM_ROLE:
		return load_role(ld, v, k->key, k->lo > 0, (struct scn_exec *)(void *)at);
	case JM_STAGES:
		return load_stages(ld, v, j);
	}
	return fail(ld, v, "key '%s' of an unknown kind", k->key);
}

/* The model's keys, in its table's order, then its own checks. */
static int load_model_keys(struct ld *ld, const struct yn *m, struct scn_job_group *j)
{
	const struct job_model *jm = j->model;
	j->params = xcalloc(1, jm->params_size ? jm->params_size : 1);
	if (jm->params_size) /* the trace model has none */
		memcpy(j->params, jm->defaults, jm->params_size);
	struct scn_pos at[64];
	if (jm->nkeys > ARRAY_LEN(at))
		return fail(ld, m, "job model '%s' has more than %d keys", jm->name, ARRAY_LEN(at));
	for (int i = 0; i < jm->nkeys; i++) /* a role takes the job's labels unless it
						  gives its own, one by one */
		if (jm->keys[i].kind == JM_ROLE) {
			struct scn_exec *e = (void *)((char *)j->params + jm->keys[i].off);
			e->require = j->require;
			e->prefer = j->prefer;
		}
	for (int i = 0; i < jm->nkeys; i++) {
		const struct jm_key *k = &jm->keys[i];
		const struct yn *v = k->required ? need(ld, m, k->key, "job group", j->name)
						 : yn_get(m, k->key);
		at[i] = v ? pos(ld, v) : (struct scn_pos){0};
		if (k->required && !v)
			return -1;
		if (v && model_value(ld, k, v, j) < 0)
			return -1;
	}
	struct jm_given given = {.group = j->pos, .at = at};
	return jm->loaded ? jm->loaded(j, &given, ld->err, ld->errlen) : 0;
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
			rc = fail(ld, at, "%s: job %d asks for %s (%s; strict: not skipped)", t->path,
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
					rc = add_label(ld, at, name, &b);
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
		return fail(ld, at, "offer_pad: %s", !cap ? "the cluster has no GPU"
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
				return fail(ld, at, "offer_pad: more than %d jobs", MAX_JOBS);
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
	return fail(ld, at, "%s", err);
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
		return t0 < 0 ? fail(ld, at, "%s: no ApplicationStart and no executor: nothing to "
				     "replay from", path)
			      : app ? fail(ld, at, "%s: the log has no stage to replay", path)
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
static int load_trace_job(struct ld *ld, const struct yn *m, struct scn_job_group *j)
{
	struct scn *s = ld->s;
	const struct yn *v, *t = yn_get(m, "trace");
	struct trace_opts o = {0};
	char *path = NULL, err[1024];
	j->pos = pos(ld, m);
	j->task_cpus = 1;
	j->task_max_failures = 4;
	j->arrival.kind = SCN_ARR_TRACE;
	j->model = &jm_trace;
	j->type = JM_TRACE;
	j->ops = jm_trace.ops;
	int rc = 0;
	if (CHECK_MAP(ld, m, "job group", trace_job_keys) < 0 ||
	    !(v = need(ld, m, "name", "job group", NULL)) ||
	    get_ident(ld, v, ID_NAME, "job group name", &j->name) < 0 ||
	    ((v = yn_get(m, "require")) && job_labels(ld, v, "require", &j->require) < 0) ||
	    ((v = yn_get(m, "prefer")) && job_labels(ld, v, "prefer", &j->prefer) < 0) ||
	    opt_lim(ld, m, "task_max_failures", 1, 255, "attempts per task",
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

/* `throughput: {GPU_MODEL: rate, ...}` (scenario.h, scn_tput). */
static int job_throughput(struct ld *ld, const struct yn *v, struct scn_job_group *j)
{
	if (want(ld, v, YN_MAP, "throughput (GPU model: rate)") < 0)
		return -1;
	if (v->nkids == 0)
		return fail(ld, v, "expected at least one GPU model in throughput");
	j->tput = xcalloc((size_t)v->nkids / 2, sizeof *j->tput);
	for (int i = 0; i < v->nkids; i += 2) {
		const struct yn *k = v->kids[i], *x = v->kids[i + 1];
		double r;
		if (want(ld, k, YN_SCALAR, "GPU model name") < 0 || get_num(ld, x, &r) < 0)
			return -1;
		if (!(r >= 0 && r <= 1e12))
			return fail(ld, x, "expected a rate from 0 to 1e12 for throughput.%s, got %s",
				    k->str, got(ld, x));
		j->tput[j->ntput].gpu_model = xstrdup(k->str);
		j->tput[j->ntput++].rate = r;
	}
	return 0;
}

static int load_job(struct ld *ld, const struct yn *m, struct scn_job_group *j)
{
	const struct yn *v, *name = yn_get(m, "name");
	j->count = 1;
	j->arrival.kind = SCN_ARR_FIXED;
	j->task_cpus = 1;
	j->task_max_failures = 4;
	j->pos = pos(ld, m);
	if (want(ld, m, YN_MAP, "job group") < 0 ||
	    job_type(ld, m, name && name->kind == YN_SCALAR ? name->str : NULL, j) < 0 ||
	    !(v = need(ld, m, "name", "job group", NULL)) ||
	    get_ident(ld, v, ID_NAME, "job group name", &j->name) < 0 || job_arrival(ld, m, j) < 0 ||
	    ((v = yn_get(m, "require")) && job_labels(ld, v, "require", &j->require) < 0) ||
	    ((v = yn_get(m, "prefer")) && job_labels(ld, v, "prefer", &j->prefer) < 0) ||
	    opt_int(ld, m, "cores_max", 1, &j->cores_max) < 0 ||
	    opt_lim(ld, m, "task_cpus", 1, MAX_CORES, "cores per task", &j->task_cpus) < 0 ||
	    opt_lim(ld, m, "task_max_failures", 1, 255, "attempts per task",
		    &j->task_max_failures) < 0 ||
	    ((v = yn_get(m, "throughput")) && job_throughput(ld, v, j) < 0))
		return -1;
	return load_model_keys(ld, m, j);
}

/* Job group i within the limits of the whole workload: jobs, and tasks
 * of synthetic jobs (*jobs and *tasks: the totals so far). */
static int workload_totals(struct ld *ld, const struct yn *m, const struct scn_job_group *j,
			   long long *jobs, long long *tasks)
{
	long long per_job = 0;
	for (int i = 0; i < j->nstages; i++)
		per_job += j->stages[i].tasks;
	if (j->model->tasks)
		per_job = j->model->tasks(j);
	if ((*jobs += j->count) > MAX_JOBS)
		return fail(ld, m, "job group '%s' brings the workload to %lld jobs, above the limit "
			    "of %d", j->name, *jobs, MAX_JOBS);
	if ((*tasks += j->count * per_job) > MAX_ALL_TASKS)
		return fail(ld, m, "job group '%s' brings the workload to %lld tasks (count x tasks "
			    "of its stages), above the limit of %lld", j->name, *tasks, MAX_ALL_TASKS);
	return 0;
}

static int load_workload(struct ld *ld, const struct yn *v)
{
	struct scn *s = ld->s;
	long long jobs = 0, tasks = 0;
	if (want_list(ld, v, "workload", "job group") < 0 ||
	    check_len(ld, v, MAX_GROUPS, "job groups") < 0)
		return -1;
	s->jobs = xcalloc((size_t)v->nkids, sizeof *s->jobs);
	s->njobgroups = v->nkids;
	for (int i = 0; i < v->nkids; i++)
		if ((v->kids[i]->kind == YN_MAP && yn_get(v->kids[i], "trace")
			     ? load_trace_job(ld, v->kids[i], &s->jobs[i])
			     : load_job(ld, v->kids[i], &s->jobs[i])) < 0 ||
		    check_unique(ld, SEEN_JOB_GROUPS, v, i, &s->jobs[0].name, sizeof *s->jobs, "job group") < 0 ||
		    workload_totals(ld, v->kids[i], &s->jobs[i], &jobs, &tasks) < 0)
			return -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Cost model                                                          */

static const char *const cost_keys[] = {"version", "task_overhead", "meta", "kernels"};
static const char *const kernel_keys[] = {"unit", "noise", "devices", "contention", "fit"};
static const char *const noise_keys[] = {"dist", "cv"};
static const char *const device_keys[] = {"intercept", "slope"};

static int load_noise(struct ld *ld, const struct yn *v, struct scn_cost_kernel *k)
{
	const struct yn *d, *cv;
	if (v->kind == YN_SCALAR && strcmp(v->str, "none") == 0)
		return 0;
	if (v->kind != YN_MAP)
		return fail(ld, v, "expected none or {dist: lognormal, cv: C} for noise, got %s", got(ld, v));
	if (CHECK_MAP(ld, v, "noise", noise_keys) < 0 || !(d = need(ld, v, "dist", "noise", NULL)) ||
	    !(cv = need(ld, v, "cv", "noise", NULL)))
		return -1;
	if (d->kind != YN_SCALAR || strcmp(d->str, "lognormal") != 0)
		return fail(ld, d, "unknown noise distribution %s (known: lognormal)", got(ld, d));
	k->noise = SCN_NOISE_LOGNORMAL;
	return get_cv(ld, cv, &k->noise_cv);
}

static int load_devices(struct ld *ld, const struct yn *m, struct scn_cost_kernel *k)
{
	if (want(ld, m, YN_MAP, "devices") < 0)
		return -1;
	if (m->nkids == 0)
		return fail(ld, m, "expected at least one device in devices of kernel '%s'", k->name);
	k->devs = xcalloc((size_t)m->nkids / 2, sizeof *k->devs);
	k->ndevs = m->nkids / 2;
	for (int i = 0; i < k->ndevs; i++) {
		struct scn_cost_dev *d = &k->devs[i];
		const struct yn *key = m->kids[2 * i], *v = m->kids[2 * i + 1], *a, *b;
		if (get_ident(ld, key, ID_LOWER, "device key", &d->device) < 0 ||
		    CHECK_MAP(ld, v, "device", device_keys) < 0 ||
		    !(a = need(ld, v, "intercept", "device", d->device)) ||
		    !(b = need(ld, v, "slope", "device", d->device)) ||
		    get_time_real(ld, a, &d->intercept_us) < 0 || get_time_real(ld, b, &d->slope_us) < 0)
			return -1;
		d->intercept_at = pos(ld, a);
		d->slope_at = pos(ld, b);
	}
	return 0;
}

/* ---- contention: slowdown against copies running at once ---------- */

static const char *const contention_keys[] = {"k", "slowdown", "spread", "beyond"};
#define MAX_SLOWDOWN 1000.0 /* a contention factor */

/* A list of n numbers of a contention entry (`what`: "slowdown"), each
 * > 0 (`positive`) or >= 0, into v[0..n). */
static int contention_nums(struct ld *ld, const struct yn *l, const char *what, int n,
			   bool positive, double *v)
{
	if (want_list(ld, l, what, "value") < 0)
		return -1;
	if (l->nkids != n)
		return fail(ld, l, "expected %d values in %s, one per k, got %d", n, what, l->nkids);
	for (int i = 0; i < n; i++) {
		const struct yn *x = l->kids[i];
		if (get_num(ld, x, &v[i]) < 0)
			return -1;
		if (positive ? !(v[i] > 0) : v[i] < 0)
			return fail(ld, x, "expected a %s %s 0, got %s", what, positive ? ">" : ">=",
				    got(ld, x));
		if (v[i] > MAX_SLOWDOWN)
			return fail(ld, x, "%s is above the limit of %g for a %s", got(ld, x),
				    MAX_SLOWDOWN, what);
	}
	return 0;
}

/* One device's entry, {k: [1, ...], slowdown: [1, ...], spread: [...],
 * beyond: hold}: k strictly increasing from 1, slowdown 1 at k = 1.
 * Into d->slowdown, every k up to the largest, linear between the
 * measured ones. */
static int load_contention_dev(struct ld *ld, const struct yn *m, struct scn_cost_dev *d)
{
	const struct yn *kl, *sl, *v;
	if (CHECK_MAP(ld, m, "contention entry", contention_keys) < 0 ||
	    !(kl = need(ld, m, "k", "contention entry", d->device)) ||
	    !(sl = need(ld, m, "slowdown", "contention entry", d->device)) ||
	    want_list(ld, kl, "k", "value") < 0)
		return -1;
	if ((v = yn_get(m, "beyond")) && (v->kind != YN_SCALAR || strcmp(v->str, "hold") != 0))
		return fail(ld, v, "unknown rule %s beyond the largest k (known: hold)", got(ld, v));
	int n = kl->nkids, rc = -1;
	int *k = xcalloc((size_t)n, sizeof *k);
	double *f = xcalloc((size_t)n, sizeof *f), *spread = xcalloc((size_t)n, sizeof *spread);
	for (int i = 0; i < n; i++) {
		if (get_lim(ld, kl->kids[i], 1, SCN_MAX_CORES, "copies", &k[i]) < 0)
			goto out;
		if (i == 0 && k[0] != 1) {
			fail(ld, kl->kids[0], "expected k to start at 1 (the reference), got %s",
			     got(ld, kl->kids[0]));
			goto out;
		}
		if (i > 0 && k[i] <= k[i - 1]) {
			fail(ld, kl->kids[i], "expected k in increasing order, got %s after %d",
			     got(ld, kl->kids[i]), k[i - 1]);
			goto out;
		}
	}
	if (contention_nums(ld, sl, "slowdown", n, true, f) < 0 ||
	    ((v = yn_get(m, "spread")) && contention_nums(ld, v, "spread", n, false, spread) < 0))
		goto out;
	if (f[0] != 1) {
		fail(ld, sl->kids[0], "expected slowdown 1 at k = 1 (the reference), got %s",
		     got(ld, sl->kids[0]));
		goto out;
	}
	d->nslowdown = k[n - 1];
	d->slowdown = xcalloc((size_t)d->nslowdown, sizeof *d->slowdown);
	for (int i = 0; i + 1 < n; i++)
		for (int j = k[i]; j < k[i + 1]; j++)
			d->slowdown[j - 1] = f[i] + (f[i + 1] - f[i]) * (j - k[i]) / (k[i + 1] - k[i]);
	d->slowdown[k[n - 1] - 1] = f[n - 1];
	rc = 0;
out:
	free(k);
	free(f);
	free(spread);
	return rc;
}

/* A kernel's `contention`: a mapping of its devices to entries. */
static int load_contention(struct ld *ld, const struct yn *m, struct scn_cost_kernel *k)
{
	if (want(ld, m, YN_MAP, "contention") < 0)
		return -1;
	for (int i = 0; i < m->nkids / 2; i++) {
		const struct yn *key = m->kids[2 * i];
		struct scn_cost_dev *d = NULL;
		for (int j = 0; j < k->ndevs && !d; j++)
			if (key->kind == YN_SCALAR && strcmp(k->devs[j].device, key->str) == 0)
				d = &k->devs[j];
		if (!d) {
			const char *names[64];
			int nn = k->ndevs < 64 ? k->ndevs : 64;
			char list[512];
			for (int j = 0; j < nn; j++)
				names[j] = k->devs[j].device;
			return fail(ld, key, "contention for device %s, which kernel '%s' has not "
				    "under devices (known: %s)", got(ld, key), k->name,
				    join(names, nn, list, sizeof list));
		}
		if (d->slowdown)
			return fail(ld, key, "contention for device '%s' given twice", d->device);
		if (load_contention_dev(ld, m->kids[2 * i + 1], d) < 0)
			return -1;
	}
	return 0;
}

/* Whether kernel `name` is one the workload's tasks run on a node's
 * clock (a job model's clock_kernels), or one of `only` where given. */
static bool clock_kernel(const struct scn *s, const char *const *only, const char *name)
{
	for (const char *const *k = only; k && *k; k++)
		if (strcmp(*k, name) == 0)
			return true;
	for (int g = 0; !only && g < s->njobgroups; g++) {
		const char *const *k = s->jobs[g].model->clock_kernels;
		for (; k && *k; k++)
			if (strcmp(*k, name) == 0)
				return true;
	}
	return false;
}

void scn_busy_curves(struct scn *s, const char *const *only)
{
	for (int g = 0; g < s->ngroups; g++) {
		free(s->groups[g].busy_slowdown);
		s->groups[g].busy_slowdown = NULL;
		s->groups[g].nbusy = 0;
	}
	const struct scn_cost_model *c = &s->cost;
	bool any = false;
	for (int i = 0; i < c->nkernels && !any; i++)
		any = scn_cost_device(&c->kernels[i], "cpu") &&
		      clock_kernel(s, only, c->kernels[i].name);
	bool *use = xmalloc((size_t)(c->nkernels ? c->nkernels : 1) * sizeof *use);
	int n = 0;
	for (int i = 0; i < c->nkernels; i++) {
		const struct scn_cost_dev *d = scn_cost_device(&c->kernels[i], "cpu");
		use[i] = d && (!any || clock_kernel(s, only, c->kernels[i].name));
		if (use[i] && d->nslowdown > n)
			n = d->nslowdown;
	}
	if (n == 0) {
		free(use);
		return;
	}
	/* From 1: a node is not faster busy than idle.  A slowdown below 1
	 * in a model is the measurement's noise (the reference round ran
	 * slow), kept in the file as measured but never applied as a
	 * speed-up (docs/model.md, "Contention"). */
	double *t = xmalloc((size_t)n * sizeof *t);
	for (int b = 0; b < n; b++)
		t[b] = 1.0;
	for (int i = 0; i < c->nkernels; i++) {
		const struct scn_cost_dev *d = scn_cost_device(&c->kernels[i], "cpu");
		for (int b = 0; use[i] && d->nslowdown && b < n; b++) {
			double f = d->slowdown[b < d->nslowdown ? b : d->nslowdown - 1];
			t[b] = f > t[b] ? f : t[b];
		}
	}
	for (int g = 0; g < s->ngroups; g++) {
		s->groups[g].busy_slowdown = xmalloc((size_t)n * sizeof *t);
		memcpy(s->groups[g].busy_slowdown, t, (size_t)n * sizeof *t);
		s->groups[g].nbusy = n;
	}
	free(t);
	free(use);
}

static int load_kernel(struct ld *ld, const struct yn *key, const struct yn *m,
		       struct scn_cost_kernel *k)
{
	const struct yn *v;
	if (get_ident(ld, key, ID_NAME, "kernel name", &k->name) < 0 ||
	    CHECK_MAP(ld, m, "kernel", kernel_keys) < 0 ||
	    !(v = need(ld, m, "unit", "kernel", k->name)) ||
	    get_ident(ld, v, ID_NAME, "work unit", &k->unit) < 0 ||
	    ((v = yn_get(m, "noise")) && load_noise(ld, v, k) < 0) ||
	    !(v = need(ld, m, "devices", "kernel", k->name)) || load_devices(ld, v, k) < 0)
		return -1;
	return (v = yn_get(m, "contention")) ? load_contention(ld, v, k) : 0;
}

/* Version 2's meta: the provenance of a measured model.  Known keys are
 * checked and kept (struct scn_cost_meta); unknown keys, at any depth,
 * are accepted and ignored, so that a model written by a later hetsim
 * that records more still loads: meta never changes a simulation. */

#define MAX_META_TEXT 4000   /* characters of a meta text */

/* A non-empty scalar of at most MAX_META_TEXT characters; kept in *out
 * when out is not NULL. */
static int meta_text(struct ld *ld, const struct yn *v, const char *what, char **out)
{
	if (want(ld, v, YN_SCALAR, what) < 0)
		return -1;
	if (!*v->str)
		return fail(ld, v, "expected a text for %s, got nothing", what);
	if (strlen(v->str) > MAX_META_TEXT)
		return fail(ld, v, "expected a text of at most %d characters for %s",
			    MAX_META_TEXT, what);
	if (out)
		*out = xstrdup(v->str);
	return 0;
}

static int days_in(int y, int mo)
{
	static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return mo == 2 && leap ? 29 : d[mo - 1];
}

/* ISO 8601 in UTC, to the second: YYYY-MM-DDTHH:MM:SSZ. */
static int meta_date(struct ld *ld, const struct yn *v, char **out)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	const char *p = v->kind == YN_SCALAR ? v->str : "";
	bool ok = strlen(p) == sizeof shape - 1;
	for (int i = 0; ok && shape[i]; i++)
		ok = shape[i] == 'd' ? p[i] >= '0' && p[i] <= '9' : p[i] == shape[i];
	if (ok) {
		int y = atoi(p), mo = atoi(p + 5), d = atoi(p + 8), h = atoi(p + 11),
		    mi = atoi(p + 14), se = atoi(p + 17);
		ok = y >= 1970 && mo >= 1 && mo <= 12 && d >= 1 && d <= days_in(y, mo) && h <= 23 &&
		     mi <= 59 && se <= 59;
	}
	if (!ok)
		return fail(ld, v, "expected a date in ISO 8601 UTC such as 2025-06-01T12:00:00Z "
			    "for meta.date, got %s", got(ld, v));
	*out = xstrdup(p);
	return 0;
}

static int meta_machine(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	const struct yn *a, *b, *c;
	if (want(ld, m, YN_MAP, "meta.machine") < 0 ||
	    !(a = need(ld, m, "cpu", "meta.machine", NULL)) ||
	    !(b = need(ld, m, "cores", "meta.machine", NULL)) ||
	    !(c = need(ld, m, "memory", "meta.machine", NULL)) ||
	    meta_text(ld, a, "meta.machine.cpu", &o->cpu) < 0 ||
	    get_lim(ld, b, 1, MAX_CORES, "cores", &o->cores) < 0)
		return -1;
	return get_size(ld, c, 1, &o->memory_mib);
}

static int meta_reference(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	const struct yn *k, *v;
	if (want(ld, m, YN_MAP, "meta.reference") < 0 ||
	    !(k = need(ld, m, "kernel", "meta.reference", NULL)) ||
	    !(v = need(ld, m, "speed", "meta.reference", NULL)) ||
	    get_ident(ld, k, ID_NAME, "reference kernel name", &o->ref_kernel) < 0 ||
	    get_num(ld, v, &o->ref_speed) < 0)
		return -1;
	if (!(o->ref_speed > 0))
		return fail(ld, v, "expected a speed > 0 for meta.reference.speed, got %s", got(ld, v));
	return 0;
}

/* contention_k: [MIN, MAX], the numbers of busy cores the contention
 * entry was measured at. */
static int meta_k(struct ld *ld, const struct yn *v, int k[2])
{
	if (v->kind != YN_SEQ || v->nkids != 2)
		return fail(ld, v, "expected a list [MIN, MAX] of 2 integers for meta.contention_k, "
			    "got %s", v->kind == YN_SEQ ? "a list of another length" : got(ld, v));
	for (int i = 0; i < 2; i++)
		if (get_lim(ld, v->kids[i], 1, MAX_CORES, "cores", &k[i]) < 0)
			return -1;
	if (k[1] < k[0])
		return fail(ld, v->kids[1], "expected the largest k >= the smallest (%d) in "
			    "meta.contention_k, got %s", k[0], got(ld, v->kids[1]));
	return 0;
}

/* timing: {seed: N, ci: X, cap: N, sizes, capped, repeats, stalls}: the
 * order's seed (required) and what the adaptive repeats took. */
static int meta_timing(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	static const char *const counts[] = {"sizes", "capped", "repeats", "stalls"};
	const struct yn *v;
	int n;
	if (want(ld, m, YN_MAP, "meta.timing") < 0 ||
	    !(v = need(ld, m, "seed", "meta.timing", NULL)) || get_seed(ld, v, &o->seed) < 0 ||
	    opt_int(ld, m, "cap", 1, &o->cap) < 0)
		return -1;
	for (int i = 0; i < ARRAY_LEN(counts); i++)
		if (opt_int(ld, m, counts[i], 0, i == 1 ? &o->capped : &n) < 0)
			return -1;
	if ((v = yn_get(m, "ci")) && get_num(ld, v, &o->ci) < 0)
		return -1;
	if (v && !(o->ci > 0 && o->ci < 1))
		return fail(ld, v, "expected a fraction between 0 and 1 for meta.timing.ci, got %s",
			    got(ld, v));
	o->has_timing = true;
	return 0;
}

/* A speed in MiB/s > 0 for meta.drift.`what`. */
static int drift_speed(struct ld *ld, const struct yn *v, const char *what, double *out)
{
	if (get_num(ld, v, out) < 0)
		return -1;
	if (!(*out > 0))
		return fail(ld, v, "expected a speed > 0 for meta.drift.%s, got %s", what, got(ld, v));
	return 0;
}

/* drift: {kernel, points, first, last, min, max, change[, speeds]}: the
 * reference kernel's speed over the run (calibrate/README.md, "Timing"). */
static int meta_drift(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	static const char *const speeds[] = {"first", "last", "min", "max"};
	double *to[] = {&o->drift_first, &o->drift_last, &o->drift_min, &o->drift_max};
	const struct yn *v;
	char *kernel = NULL;
	if (want(ld, m, YN_MAP, "meta.drift") < 0 ||
	    !(v = need(ld, m, "kernel", "meta.drift", NULL)) ||
	    get_ident(ld, v, ID_NAME, "reference kernel name", &kernel) < 0)
		return -1;
	free(kernel);
	if (!(v = need(ld, m, "points", "meta.drift", NULL)) ||
	    get_int(ld, v, 1, &o->drift_points) < 0)
		return -1;
	for (int i = 0; i < ARRAY_LEN(speeds); i++)
		if (!(v = need(ld, m, speeds[i], "meta.drift", NULL)) ||
		    drift_speed(ld, v, speeds[i], to[i]) < 0)
			return -1;
	/* first and last lie between min and max: the four are one series */
	for (int i = 0; i < 2; i++)
		if (*to[i] < o->drift_min || *to[i] > o->drift_max)
			return fail(ld, yn_get(m, speeds[i]), "meta.drift.%s %g is outside min %g .. "
				    "max %g", speeds[i], *to[i], o->drift_min, o->drift_max);
	if (!(v = need(ld, m, "change", "meta.drift", NULL)) || get_num(ld, v, &o->drift_change) < 0)
		return -1;
	if (!(v = yn_get(m, "speeds")))
		return 0;
	if (v->kind != YN_SEQ || v->nkids != o->drift_points)
		return fail(ld, v, "expected a list of %d speeds (points) for meta.drift.speeds, got %s",
			    o->drift_points, v->kind == YN_SEQ ? "a list of another length" : got(ld, v));
	for (int i = 0; i < v->nkids; i++) {
		double x;
		if (drift_speed(ld, v->kids[i], "speeds", &x) < 0)
			return -1;
	}
	return 0;
}

/* gpu: {name: TEXT, memory: SIZE[, cuda: TEXT]}: the GPU a model was
 * measured on (hetsim-cuda-cal); machine is then the host it sits in. */
static int meta_gpu(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	const struct yn *a, *b, *c;
	if (want(ld, m, YN_MAP, "meta.gpu") < 0 || !(a = need(ld, m, "name", "meta.gpu", NULL)) ||
	    !(b = need(ld, m, "memory", "meta.gpu", NULL)) ||
	    meta_text(ld, a, "meta.gpu.name", &o->gpu) < 0 ||
	    get_size(ld, b, 1, &o->gpu_memory_mib) < 0)
		return -1;
	if ((c = yn_get(m, "cuda")) && meta_text(ld, c, "meta.gpu.cuda", &o->gpu_cuda) < 0)
		return -1;
	return 0;
}

static int load_meta(struct ld *ld, const struct yn *m, struct scn_cost_meta *o)
{
	static const char *const texts[] = {"backend", "data", "fit", "task_overhead"};
	char **to[] = {&o->backend, &o->data, NULL, NULL};
	const struct yn *v;
	if (want(ld, m, YN_MAP, "meta") < 0)
		return -1;
	for (int i = 0; i < ARRAY_LEN(texts); i++) {
		char what[64];
		snprintf(what, sizeof what, "meta.%s", texts[i]);
		if ((v = yn_get(m, texts[i])) && meta_text(ld, v, what, to[i]) < 0)
			return -1;
	}
	if (((v = yn_get(m, "source")) && meta_text(ld, v, "meta.source", &o->source) < 0) ||
	    ((v = yn_get(m, "machine")) && meta_machine(ld, v, o) < 0) ||
	    ((v = yn_get(m, "os")) && meta_text(ld, v, "meta.os", &o->os) < 0) ||
	    ((v = yn_get(m, "compiler")) && meta_text(ld, v, "meta.compiler", &o->compiler) < 0) ||
	    ((v = yn_get(m, "blas")) && meta_text(ld, v, "meta.blas", &o->blas) < 0) ||
	    ((v = yn_get(m, "date")) && meta_date(ld, v, &o->date) < 0) ||
	    ((v = yn_get(m, "threads")) && get_int(ld, v, 1, &o->threads) < 0) ||
	    ((v = yn_get(m, "gpu")) && meta_gpu(ld, v, o) < 0) ||
	    ((v = yn_get(m, "reference")) && meta_reference(ld, v, o) < 0) ||
	    ((v = yn_get(m, "contention_k")) && meta_k(ld, v, o->contention_k) < 0) ||
	    ((v = yn_get(m, "timing")) && meta_timing(ld, v, o) < 0) ||
	    ((v = yn_get(m, "drift")) && meta_drift(ld, v, o) < 0))
		return -1;
	return 0;
}

static int load_cost(struct ld *ld, const struct yn *m)
{
	struct scn_cost_model *c = &ld->s->cost;
	const struct yn *v;
	long long version;
	if (CHECK_MAP(ld, m, "cost model", cost_keys) < 0 ||
	    !(v = need(ld, m, "version", "cost model", NULL)) ||
	    get_ll(ld, v, LLONG_MIN, LLONG_MAX, &version) < 0)
		return -1;
	if (version != 1 && version != 2)
		return fail(ld, v, "unsupported cost model version %s (this hetsim reads versions 1 "
			    "and 2)", got(ld, v));
	c->version = (int)version;
	if (version >= 2 && (v = yn_get(m, "meta")) && load_meta(ld, v, &c->meta) < 0)
		return -1;
	if (opt_time(ld, m, "task_overhead", NONNEG, &c->task_overhead_us) < 0 ||
	    !(v = need(ld, m, "kernels", "cost model", NULL)) || want(ld, v, YN_MAP, "kernels") < 0)
		return -1;
	if (v->nkids == 0)
		return fail(ld, v, "expected at least one kernel in kernels");
	c->kernels = xcalloc((size_t)v->nkids / 2, sizeof *c->kernels);
	c->nkernels = v->nkids / 2;
	for (int i = 0; i < c->nkernels; i++)
		if (load_kernel(ld, v->kids[2 * i], v->kids[2 * i + 1], &c->kernels[i]) < 0)
			return -1;
	return 0;
}

/* `p` relative to the directory of the scenario file (absolute: as is). */
static char *resolve(const char *scenario, const char *p)
{
	const char *slash = strrchr(scenario, '/');
	if (p[0] == '/' || !slash)
		return xstrdup(p);
	size_t dir = (size_t)(slash - scenario) + 1, n = strlen(p) + 1;
	char *r = xmalloc(dir + n);
	memcpy(r, scenario, dir);
	memcpy(r + dir, p, n);
	return r;
}

/* cost_model: a path to a cost-model file, or the model inline. */
static int load_cost_ref(struct ld *ld, const struct yn *v)
{
	struct scn *s = ld->s;
	if (v->kind == YN_MAP)
		return load_cost(ld, v);
	if (v->kind != YN_SCALAR || !*v->str)
		return fail(ld, v, "expected a path or a mapping for cost_model, got %s", got(ld, v));
	s->cost.path = resolve(s->path, v->str);
	const char *why;
	FILE *f = fopen_regular(s->cost.path, &why);
	if (!f)
		return fail(ld, v, "cannot open cost model '%s': %s", s->cost.path, why);
	fclose(f);
	struct yn *root = yn_load(s->cost.path, ld->err, ld->errlen);
	if (!root)
		return -1;
	ld->file = s->cost.path;
	int r = load_cost(ld, root);
	ld->file = s->path;
	yn_free(root);
	return r;
}

/* The built-in default model (SCN_DEFAULT_MODEL), for a scenario that
 * names none. */
static int load_builtin_cost(struct ld *ld)
{
	struct yn *root = yn_load_text("(built-in) " SCN_DEFAULT_MODEL, scn_default_model_yaml,
				       ld->err, ld->errlen);
	if (!root)
		return -1;
	ld->file = "(built-in) " SCN_DEFAULT_MODEL;
	int r = load_cost(ld, root);
	ld->file = ld->s->path;
	yn_free(root);
	ld->s->cost.builtin = r == 0;
	return r;
}

static void one_line(char *err, size_t errlen);

struct scn *scn_cost_load(const char *path, char *err, size_t errlen)
{
	struct yn *root = yn_load(path, err, errlen);
	if (!root)
		return NULL;
	struct scn *s = xcalloc(1, sizeof *s);
	s->path = xstrdup(path);
	s->cost.path = xstrdup(path);
	struct ld ld = {.s = s, .file = s->path, .err = err, .errlen = errlen};
	int rc = load_cost(&ld, root);
	yn_free(root);
	if (rc == 0)
		return s;
	one_line(err, errlen);
	scn_free(s);
	return NULL;
}

int scn_meta_load(const char *path, struct scn_cost_meta *m, char *err, size_t errlen)
{
	memset(m, 0, sizeof *m);
	struct yn *root = yn_load(path, err, errlen);
	if (!root)
		return -1;
	struct ld ld = {.file = path, .err = err, .errlen = errlen};
	int rc = load_meta(&ld, root, m);
	yn_free(root);
	if (rc == 0)
		return 0;
	one_line(err, errlen);
	scn_cost_meta_free(m);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Policies                                                            */

static const struct policy_ops *find_policy(struct ld *ld, const struct yn *v)
{
	const struct policy_ops *ops = v->kind == YN_SCALAR ? pol_find(v->str) : NULL;
	if (!ops)
		fail(ld, v, "unknown policy %s (known: %s)", got(ld, v), pol_names());
	return ops;
}

static const char *const entry_keys[] = {"name", "policy", "plugin"};

/* Key `k` of a policy entry, not a known one, looks like a typo of one. */
static int entry_typo(struct ld *ld, const struct yn *k)
{
	const char *sug = near(k->str, entry_keys, ARRAY_LEN(entry_keys));
	if (sug)
		return fail(ld, k, "unknown key '%s' in policy entry (did you mean '%s'?)", k->str, sug);
	return 0;
}

static int bad_switch(struct ld *ld, const struct yn *k, const struct policy_ops *ops)
{
	const char *keys[32], *sug;
	char list[512];
	int n = 0;
	if (entry_typo(ld, k) < 0)
		return -1;
	for (const struct pol_param *p = ops->params; p && p->key && n < ARRAY_LEN(keys); p++)
		keys[n++] = p->key;
	sug = near(k->str, keys, n);
	if (sug)
		return fail(ld, k, "policy %s has no switch '%s' (did you mean '%s'?)", ops->name,
			    k->str, sug);
	if (n)
		return fail(ld, k, "policy %s has no switch '%s' (switches: %s)", ops->name, k->str,
			    join(keys, n, list, sizeof list));
	return fail(ld, k, "policy %s has no switch '%s' (it has no switches)", ops->name, k->str);
}

/* The range of numeric switch `spec`, as a scenario writes it, into buf:
 * "[1, 8192] MiB", "(0, 1]", "[1ms, 1h]". */
const char *switch_range(const struct pol_param *spec, char *buf, size_t len)
{
	char lo[32], hi[32];
	switch (spec->type) {
	case POL_TIME:
		snprintf(lo, sizeof lo, "%.15gs", spec->lo / 1e6);
		snprintf(hi, sizeof hi, "%.15gs", spec->hi / 1e6);
		break;
	case POL_SIZE:
		snprintf(lo, sizeof lo, "%.15gMiB", spec->lo);
		snprintf(hi, sizeof hi, "%.15gMiB", spec->hi);
		break;
	default:
		snprintf(lo, sizeof lo, "%.15g", spec->lo);
		snprintf(hi, sizeof hi, "%.15g", spec->hi);
	}
	snprintf(buf, len, "[%s, %s]%s%s", lo, hi, spec->unit ? " " : "",
		 spec->unit ? spec->unit : "");
	return buf;
}

/* A numeric switch's value v, in its base unit, within its range. */
static int switch_num(struct ld *ld, const struct yn *v, const struct pol_param *spec,
		      const struct policy_ops *ops, double *out)
{
	char range[96];
	long long ll;
	int64_t i64;
	switch (spec->type) {
	case POL_INT:
		if (get_ll(ld, v, LLONG_MIN, LLONG_MAX, &ll) < 0)
			return -1;
		*out = (double)ll;
		break;
	case POL_NUM:
		if (get_num(ld, v, out) < 0)
			return -1;
		break;
	case POL_TIME:
		if (get_time(ld, v, NONNEG, &i64) < 0)
			return -1;
		*out = (double)i64;
		break;
	case POL_SIZE:
		if (get_size(ld, v, 0, &i64) < 0)
			return -1;
		*out = (double)i64;
		break;
	default:
		return 0;
	}
	if (!(*out >= spec->lo && *out <= spec->hi))
		return fail(ld, v, "expected %s for switch '%s' of policy %s, got %s",
			    switch_range(spec, range, sizeof range), spec->key, ops->name, got(ld, v));
	return 0;
}

static int load_switch(struct ld *ld, const struct yn *k, const struct yn *v,
		       const struct policy_ops *ops, struct scn_policy *p)
{
	char list[512];
	const struct pol_param *spec = pol_param_spec(ops, k->str);
	if (!spec)
		return bad_switch(ld, k, ops);
	if (spec->type == POL_BOOL && (v->kind != YN_SCALAR || !is_bool(v->str)))
		return fail(ld, v, "expected true or false for switch '%s' of policy %s, got %s",
			    k->str, ops->name, got(ld, v));
	if (spec->type == POL_CHOICE) {
		int n = 0;
		bool ok = false;
		while (spec->choices && spec->choices[n]) {
			ok |= v->kind == YN_SCALAR && strcmp(v->str, spec->choices[n]) == 0;
			n++;
		}
		if (!ok)
			return fail(ld, v, "expected one of %s for switch '%s' of policy %s, got %s",
				    join(spec->choices, n, list, sizeof list), k->str, ops->name,
				    got(ld, v));
	}
	double num = 0;
	if (switch_num(ld, v, spec, ops, &num) < 0)
		return -1;
	struct scn_param *q = &p->params[p->nparams++];
	q->key = xstrdup(k->str);
	q->value = xstrdup(v->str);
	q->num = num;
	q->pos = pos(ld, v);
	return 0;
}

/* `plugin: FILE` of a policy entry (FILE relative to the scenario's
 * folder): the plugin's policy, loaded and registered (policies/plugin.c);
 * a `policy:` beside it must name that policy. */
static const struct policy_ops *load_plugin(struct ld *ld, const struct yn *v,
					    const struct yn *kind)
{
	char perr[768];
	if (v->kind != YN_SCALAR || !*v->str) {
		fail(ld, v, "expected a shared object's path for plugin, got %s", got(ld, v));
		return NULL;
	}
	char *path = resolve(ld->file, v->str);
	const struct policy_ops *ops = pol_plugin_load(path, perr, sizeof perr);
	free(path);
	if (!ops) {
		fail(ld, v, "%s", perr);
		return NULL;
	}
	if (kind && (kind->kind != YN_SCALAR || strcmp(kind->str, ops->name) != 0)) {
		fail(ld, kind, "policy %s, but plugin '%s' holds policy '%s'", got(ld, kind),
		     v->str, ops->name);
		return NULL;
	}
	return ops;
}

static int load_policy(struct ld *ld, const struct yn *v, struct scn_policy *p)
{
	const struct policy_ops *ops;
	const struct yn *kind, *name;
	p->pos = pos(ld, v);
	if (v->kind == YN_SCALAR) {
		if (!(ops = find_policy(ld, v)))
			return -1;
		p->kind = xstrdup(ops->name);
		p->name = xstrdup(ops->name);
		p->ops = ops;
		return 0;
	}
	if (v->kind != YN_MAP)
		return fail(ld, v, "expected a policy name or a mapping for policy, got %s", got(ld, v));
	name = yn_get(v, "name");
	const struct yn *plugin = yn_get(v, "plugin");
	for (int i = 0; i < v->nkids && !yn_get(v, "policy") && !plugin; i += 2) /* misspelt? */
		if (!in_list(v->kids[i]->str, entry_keys, ARRAY_LEN(entry_keys)) &&
		    entry_typo(ld, v->kids[i]) < 0)
			return -1;
	if (plugin) {
		if (!(ops = load_plugin(ld, plugin, yn_get(v, "policy"))))
			return -1;
	} else if (!(kind = need(ld, v, "policy", "policy entry",
				 name && name->kind == YN_SCALAR ? name->str : NULL)) ||
		   !(ops = find_policy(ld, kind))) {
		return -1;
	}
	p->kind = xstrdup(ops->name);
	p->ops = ops;
	if (name) {
		if (get_ident(ld, name, ID_NAME, "policy name", &p->name) < 0)
			return -1;
	} else {
		p->name = xstrdup(ops->name);
	}
	p->params = xcalloc((size_t)v->nkids / 2, sizeof *p->params);
	for (int i = 0; i < v->nkids; i += 2) {
		const struct yn *k = v->kids[i];
		if (!in_list(k->str, entry_keys, ARRAY_LEN(entry_keys)) &&
		    load_switch(ld, k, v->kids[i + 1], ops, p) < 0)
			return -1;
	}
	return 0;
}

static int load_policies(struct ld *ld, const struct yn *v)
{
	struct scn *s = ld->s;
	if (want_list(ld, v, "policies", "policy") < 0 ||
	    check_len(ld, v, MAX_POLICIES, "policies") < 0)
		return -1;
	s->policies = xcalloc((size_t)v->nkids, sizeof *s->policies);
	s->npolicies = v->nkids;
	for (int i = 0; i < v->nkids; i++) {
		if (load_policy(ld, v->kids[i], &s->policies[i]) < 0)
			return -1;
		for (int j = 0; j < i; j++)
			if (strcmp(s->policies[j].name, s->policies[i].name) == 0)
				return fail(ld, v->kids[i],
					    "duplicate policy name '%s' (first at line %d); give one a name",
					    s->policies[i].name, s->policies[j].pos.line);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Top level                                                           */

static const char *const top_keys[] = {"name", "seed", "replications", "metrics", "overheads",
				       "cluster", "workload", "cost_model", "policies", "sweep",
				       "speculation", "locality"};
static const char *const locality_keys[] = {"enabled", "wait"};
static const char *const speculation_keys[] = {"enabled", "interval", "multiplier", "quantile",
					       "min_task_runtime"};

/* speculation: Spark's spark.speculation.* (given at all: enabled unless
 * `enabled: false`). */
static int load_speculation(struct ld *ld, const struct yn *v, struct scn_speculation *sp)
{
	const struct yn *e;
	if (CHECK_MAP(ld, v, "speculation", speculation_keys) < 0)
		return -1;
	sp->enabled = true;
	if ((e = yn_get(v, "enabled"))) {
		if (e->kind != YN_SCALAR || !is_bool(e->str))
			return fail(ld, e, "expected true or false for enabled, got %s", got(ld, e));
		sp->enabled = strcmp(e->str, "true") == 0;
	}
	if (opt_time(ld, v, "interval", POSITIVE, &sp->interval_us) < 0 ||
	    opt_num(ld, v, "multiplier", 1, 1000, &sp->multiplier) < 0 ||
	    opt_num(ld, v, "quantile", 0, 1, &sp->quantile) < 0 ||
	    opt_time(ld, v, "min_task_runtime", NONNEG, &sp->min_runtime_us) < 0)
		return -1;
	return 0;
}
/* locality: data locality (enabled, default true) and Spark's
 * spark.locality.wait (default 3 s). */
static int load_locality(struct ld *ld, const struct yn *v, struct scn_locality *lc)
{
	const struct yn *e;
	if (CHECK_MAP(ld, v, "locality", locality_keys) < 0)
		return -1;
	if ((e = yn_get(v, "enabled"))) {
		if (e->kind != YN_SCALAR || !is_bool(e->str))
			return fail(ld, e, "expected true or false for enabled, got %s", got(ld, e));
		lc->enabled = strcmp(e->str, "true") == 0;
	}
	return opt_time(ld, v, "wait", NONNEG, &lc->wait_us);
}
static const char *const metric_keys[] = {"warmup_jobs"};
static const char *const overhead_keys[] = {"executor_startup", "task_launch"};

/* The file's basename without .yaml or .yml. */
static char *default_name(const char *path)
{
	const char *b = strrchr(path, '/');
	char *name = xstrdup(b ? b + 1 : path);
	size_t n = strlen(name);
	static const char *const ext[] = {".yaml", ".yml"};
	for (int i = 0; i < 2; i++) {
		size_t e = strlen(ext[i]);
		if (n > e && strcmp(name + n - e, ext[i]) == 0) {
			name[n - e] = '\0';
			break;
		}
	}
	return name;
}

static int load_options(struct ld *ld, const struct yn *root)
{
	struct scn *s = ld->s;
	const struct yn *v;
	if ((v = yn_get(root, "name"))) {
		if (get_ident(ld, v, ID_NAME, "scenario name", &s->name) < 0)
			return -1;
	} else {
		s->name = default_name(s->path);
	}
	if (((v = yn_get(root, "seed")) && get_seed(ld, v, &s->seed) < 0) ||
	    opt_lim(ld, root, "replications", 1, MAX_REPLICATIONS, "replications",
		    &s->replications) < 0)
		return -1;
	if (scn_seed_at_load_set)
		s->seed = scn_seed_at_load;
	if ((v = yn_get(root, "metrics")) &&
	    (CHECK_MAP(ld, v, "metrics", metric_keys) < 0 ||
	     opt_int(ld, v, "warmup_jobs", 0, &s->warmup_jobs) < 0))
		return -1;
	if ((v = yn_get(root, "overheads")) &&
	    (CHECK_MAP(ld, v, "overheads", overhead_keys) < 0 ||
	     opt_time(ld, v, "executor_startup", NONNEG, &s->over.executor_startup_us) < 0 ||
	     opt_time(ld, v, "task_launch", NONNEG, &s->over.task_launch_us) < 0))
		return -1;
	s->spec = (struct scn_speculation){.interval_us = 100000, .multiplier = 1.5,
					   .quantile = 0.75, .min_runtime_us = 100000};
	if ((v = yn_get(root, "speculation")) && load_speculation(ld, v, &s->spec) < 0)
		return -1;
	s->loc = (struct scn_locality){.enabled = true, .wait_us = 3 * US_PER_S};
	if ((v = yn_get(root, "locality")) && load_locality(ld, v, &s->loc) < 0)
		return -1;
	return 0;
}

static int load_top(struct ld *ld, const struct yn *root)
{
	const struct yn *v;
	if (root->kind != YN_MAP)
		return fail(ld, root, "expected a mapping at top level, got %s", got(ld, root));
	if (CHECK_MAP(ld, root, "top level", top_keys) < 0 || load_options(ld, root) < 0 ||
	    !(v = need(ld, root, "cluster", "top level", NULL)) || load_cluster(ld, v) < 0 ||
	    !(v = need(ld, root, "workload", "top level", NULL)) || load_workload(ld, v) < 0 ||
	    ((v = yn_get(root, "cost_model")) && load_cost_ref(ld, v) < 0) ||
	    !(v = need(ld, root, "policies", "top level", NULL)) || load_policies(ld, v) < 0)
		return -1;
	return 0;
}

/* Messages are one line: a quoted value may hold a newline or a tab. */
static void one_line(char *err, size_t errlen)
{
	for (size_t i = 0; i < errlen && err[i]; i++)
		if ((unsigned char)err[i] < 0x20)
			err[i] = ' ';
}

/* Each job group's model's checks of the whole scenario (its cost-model
 * kernels, ...). */
static int model_checks(const struct scn *s, char *err, size_t errlen)
{
	for (int g = 0; g < s->njobgroups; g++) {
		const struct job_model *m = s->jobs[g].model;
		if (m->check && m->check(s, g, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* Whether a job group's tasks, under the cost model, fit the simulated
 * clock (SIM_TIME_MAX, about 35.7 years): its first job's DAG is built
 * as a run would build it, and a task longer than the clock, or the
 * group's work over every core of the cluster longer than it, is refused
 * at the coefficient behind it (or the group), before a run fails late
 * without a position (issue 19); so is a model's timed phase
 * (job_model.longest_us).  tasks[g] gets the tasks of a job of group g:
 * the model's count where it has one, else the DAG's.  -1 with the
 * message in err. */
static int check_time_scale(const struct scn *s, long long *tasks, char *err, size_t errlen)
{
	double cores = 0;
	for (int i = 0; i < s->ngroups; i++)
		cores += (double)s->groups[i].count * s->groups[i].cores; /* (whole cores) */
	struct arena a;
	arena_init(&a);
	int rc = 0;
	for (int g = 0; g < s->njobgroups && !rc; g++) {
		const struct scn_job_group *j = &s->jobs[g];
		if (j->model && j->model->tasks)
			tasks[g] = j->model->tasks(j); /* a trace's: its jobs' mean */
		if (!j->ops || j->trace)
			continue; /* (a trace's times are bounded by its importer) */
		struct sim_dag d = {0};
		struct wl_cost_max w;
		arena_reset(&a);
		wl_cost_watch(&w); /* the coefficients behind the longest task */
		if (j->ops->build)
			sim_build_dag(s, g, 0, s->seed, &a, &d);
		for (int k = 0; k < d.nstages && !(j->model && j->model->tasks); k++)
			tasks[g] += d.st[k].ntasks; /* (the model's count, where it has one) */
		double longest = 0, work = 0;
		for (int k = 0; k < d.nstages; k++)
			for (int t = 0; t < d.st[k].ntasks; t++) {
				double x = d.st[k].work_us[t];
				longest = x > longest ? x : longest;
				work += x;
			}
		const char *what = "a task would take";
		struct wl_cost_max w2;
		double phase = 0;
		if (j->model && j->model->longest_us) {
			wl_cost_watch(&w2);
			phase = j->model->longest_us(s, g);
			if (phase > longest) {
				longest = phase;
				w = w2;
				what = j->model->longest_what;
			}
		}
		wl_cost_watch(NULL);
		double span = cores > 0 ? work * j->count / cores : 0;
		if (longest > (double)SIM_TIME_MAX && w.d) {
			/* the term that makes it: the slope's (x the work) or the intercept */
			bool slope = w.d->slope_us * w.work >= w.d->intercept_us;
			const struct scn_pos *at = slope ? &w.d->slope_at : &w.d->intercept_at;
			char why[96];
			if (slope)
				snprintf(why, sizeof why, "%.6g %s x this slope", w.work,
					 w.k->unit ? w.k->unit : "units");
			else
				snprintf(why, sizeof why, "this intercept alone");
			snprintf(err, errlen, "%s:%d:%d: the %s of kernel '%s' on %s puts job group '%s' "
				 "past the simulated clock's %.1f years: %s %.3g s (%s); the coefficient "
				 "is out of scale", at->file, at->line, at->col,
				 slope ? "slope" : "intercept", w.k->name, w.d->device, j->name,
				 (double)SIM_TIME_MAX / 1e6 / 31557600, what, longest / 1e6, why);
			rc = -1;
		} else if (longest > (double)SIM_TIME_MAX || span > (double)SIM_TIME_MAX) {
			snprintf(err, errlen, "%s:%d:%d: job group '%s': %s %.3g s under the cost model "
				 "%s, past the simulated clock's %.1f years: its coefficients (or the "
				 "group's sizes) are out of scale", j->pos.file, j->pos.line, j->pos.col,
				 j->name, longest > (double)SIM_TIME_MAX ? what
				 : "its work over every core would take",
				 (longest > (double)SIM_TIME_MAX ? longest : span) / 1e6,
				 s->cost.builtin ? "(the built-in default)"
				 : s->cost.path ? s->cost.path : "of the scenario",
				 (double)SIM_TIME_MAX / 1e6 / 31557600);
			rc = -1;
		}
	}
	arena_free(&a);
	return rc;
}

/* One scenario from a tree (the file's, with a sweep point's values in
 * place).  On error NULL, nothing allocated, the message in err. */
static struct scn *load_tree(const char *path, const struct yn *root, char *err, size_t errlen)
{
	struct scn *s = xcalloc(1, sizeof *s);
	s->path = xstrdup(path);
	s->seed = 1;
	s->replications = 1;
	s->over.executor_startup_us = 2 * US_PER_S;
	s->over.task_launch_us = 10000;
	struct ld ld = {.s = s, .file = s->path, .err = err, .errlen = errlen};
	int rc = load_top(&ld, root);
	for (int k = 0; k < SEEN_LISTS; k++)
		free(ld.seen[k].slot);
	if (rc == 0 && !yn_get(root, "cost_model") && model_checks(s, err, errlen) < 0)
		rc = load_builtin_cost(&ld); /* the job models need one: the default */
	long long *tasks = xcalloc((size_t)(s->njobgroups ? s->njobgroups : 1), sizeof *tasks);
	if (rc == 0 && model_checks(s, err, errlen) == 0 &&
	    check_time_scale(s, tasks, err, errlen) == 0 &&
	    check_run_memory(s, tasks, err, errlen) == 0) {
		free(tasks);
		scn_busy_curves(s, NULL);
		return s;
	}
	free(tasks);
	scn_free(s);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Sweeps                                                              */
/*
 * The sweep block is checked on the file's tree: each path is resolved
 * once to a slot (a mapping key, present or absent, or a list entry).  A
 * point is then loaded by swapping the slots' values for the point's
 * value nodes, walking the tree like any file, and swapping them back:
 * values keep their own line:col, so a bad one is reported where it is
 * written.  Two paths may not set the same slot, nor one set a value that
 * another walks through (the second would change a tree the first
 * replaced).
 */

#define MAX_AXES 64

static const char *const axis_keys[] = {"label", "path", "paths", "values", "show"};

/* Columns of runs.csv and summary.csv an axis label may not take. */
static const char *const reserved_labels[] = {
	"scenario", "policy", "point", "replication", "replications", "seed",
	"metric", "mean", "sd", "ci95_half", "ci95_lo", "ci95_hi",
};

struct sw_target {            /* one path, resolved in the file's tree */
	const struct yn *at;  /* the path scalar, for messages */
	struct yn *box;       /* the mapping or list that holds the slot */
	int slot;             /* index in box->kids of the value; -1: key absent */
	struct yn *key;       /* absent key: a key node made for it (owned) */
	struct yn *old;       /* the file's value, NULL if absent */
	struct yn **chain;    /* the collections walked, root first; owned */
	int nchain;
};

struct sw_axis {
	const struct yn *at;      /* the axis mapping */
	const struct yn *values;  /* its value list */
	bool multi;               /* `paths`: each value is a list, one per path */
	struct sw_target *t;      /* owned */
	int nt;
};

struct sw_ld {
	struct ld ld;             /* messages: ld.file, ld.err (no scn) */
	struct yn *root;
	struct scn_sweep *sw;     /* what is built */
	struct sw_axis *ax;       /* sw->naxes, owned */
	int first_line, last_line;/* lines of the sweep block */
};

static void free_axes(struct sw_axis *ax, int n)
{
	for (int a = 0; ax && a < n; a++) {
		for (int i = 0; i < ax[a].nt; i++) {
			yn_free(ax[a].t[i].key);
			free(ax[a].t[i].chain);
		}
		free(ax[a].t);
	}
	free(ax);
}

/* The path text up to `len` characters (for "in 'cluster[gpu]'"). */
static const char *prefix(const char *p, size_t len, char *buf, size_t buflen)
{
	snprintf(buf, buflen, "'%.*s'", (int)(len < 200 ? len : 200), p);
	return len ? buf : "top level";
}

/* The name a list entry answers to: its `name`, else (policies) the
 * scalar itself or its policy kind. */
static const char *entry_label(const struct yn *e, bool policies)
{
	const struct yn *n = yn_get(e, "name");
	if (n && n->kind == YN_SCALAR)
		return n->str;
	if (policies && e->kind == YN_SCALAR)
		return e->str;
	if (policies && (n = yn_get(e, "policy")) && n->kind == YN_SCALAR)
		return n->str;
	return NULL;
}

static const char *entry_kind(const struct yn *e)
{
	const struct yn *k = e->kind == YN_SCALAR ? e : yn_get(e, "policy");
	return k && k->kind == YN_SCALAR ? k->str : NULL;
}

/* Entry `sel` ([NAME] or [INDEX]) of list `l`; -1 after a message. */
static int find_entry(struct sw_ld *w, const struct yn *at, const struct yn *l, const char *sel,
		      bool policies, const char *where_)
{
	char names[512];
	size_t n = 0;
	if (strspn(sel, "0123456789") == strlen(sel)) {
		long i = strlen(sel) > 9 ? LONG_MAX : strtol(sel, NULL, 10);
		if (i < l->nkids)
			return (int)i;
		return fail(&w->ld, at, "sweep path '%s': no entry [%s] in %s (it has %d)", at->str,
			    sel, where_, l->nkids);
	}
	for (int i = 0; i < l->nkids; i++) {
		const char *e = entry_label(l->kids[i], policies);
		if (e && strcmp(e, sel) == 0)
			return i;
	}
	int found = -1, kinds = 0;
	for (int i = 0; policies && i < l->nkids; i++) {
		const char *k = entry_kind(l->kids[i]);
		if (k && strcmp(k, sel) == 0 && kinds++ == 0)
			found = i;
	}
	if (kinds == 1)
		return found;
	if (kinds > 1)
		return fail(&w->ld, at, "sweep path '%s': %d policies of kind '%s' in %s; select one "
			    "by name", at->str, kinds, sel, where_);
	names[0] = '\0';
	for (int i = 0; i < l->nkids && n < sizeof names; i++) {
		const char *e = entry_label(l->kids[i], policies);
		if (e)
			n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", e);
	}
	return fail(&w->ld, at, "sweep path '%s': no entry named '%s' in %s (%s%s)", at->str, sel,
		    where_, n ? "names: " : "its entries have no names", names);
}

/* One component of a path: a key (sel false) or a [selector]. */
struct comp {
	const char *s;
	size_t len;
	bool sel;
	size_t end;   /* offset in the path just past it */
};

/* Split `p` into components; -1 after a message. */
static int split_path(struct sw_ld *w, const struct yn *at, struct comp *c, int *n)
{
	const char *p = at->str;
	char pre[256];
	size_t i = 0;
	*n = 0;
	if (!*p)
		return fail(&w->ld, at, "expected a path such as workload[NAME].count, got nothing");
	if (strchr(".[]", *p))
		return fail(&w->ld, at, "sweep path '%s' must start with a key", p);
	while (p[i]) {
		struct comp k = {.sel = p[i] == '['};
		if (*n == YN_MAX_DEPTH + 1)
			return fail(&w->ld, at, "sweep path '%s' is deeper than any scenario", p);
		if (k.sel) {
			k.s = p + i + 1;
			k.len = strcspn(k.s, "]");
			if (!k.s[k.len])
				return fail(&w->ld, at, "sweep path '%s': '[' without ']'", p);
			if (!k.len)
				return fail(&w->ld, at, "sweep path '%s': empty [] after %s", p,
					    prefix(p, i, pre, sizeof pre));
			i += k.len + 2;
		} else {
			i += *n > 0; /* the '.' */
			k.s = p + i;
			k.len = strcspn(k.s, ".[]");
			if (!k.len)
				return fail(&w->ld, at, "sweep path '%s': expected a key after %s", p,
					    prefix(p, i, pre, sizeof pre));
			i += k.len;
		}
		if (p[i] && p[i] != '.' && p[i] != '[')
			return fail(&w->ld, at, "sweep path '%s': expected '.' or '[' after %s", p,
				    prefix(p, i, pre, sizeof pre));
		k.end = i;
		c[(*n)++] = k;
	}
	return 0;
}

static void chain_add(struct sw_target *t, struct yn *n)
{
	t->chain = xrealloc(t->chain, (size_t)(t->nchain + 1) * sizeof *t->chain);
	t->chain[t->nchain++] = n;
}

/* Resolve the path scalar `at` in the file's tree into *t. */
static int resolve_path(struct sw_ld *w, const struct yn *at, struct sw_target *t)
{
	struct comp c[YN_MAX_DEPTH + 2];
	char key[256], where_[256];
	int n;
	*t = (struct sw_target){.at = at, .slot = -1};
	if (want(&w->ld, at, YN_SCALAR, "a sweep path") < 0 || split_path(w, at, c, &n) < 0)
		return -1;
	struct yn *node = w->root;
	for (int i = 0; i < n; i++) {
		const char *wh = prefix(at->str, i ? c[i - 1].end : 0, where_, sizeof where_);
		bool last = i == n - 1;
		snprintf(key, sizeof key, "%.*s", (int)(c[i].len < 200 ? c[i].len : 200), c[i].s);
		if (node->kind != (c[i].sel ? YN_SEQ : YN_MAP))
			return fail(&w->ld, at, "sweep path '%s': %s is %s, not %s", at->str, wh,
				    yn_kind_name(node), c[i].sel ? "a list" : "a mapping");
		chain_add(t, node);
		int slot = -1;
		if (c[i].sel) {
			bool pol = node == yn_get(w->root, "policies");
			if ((slot = find_entry(w, at, node, key, pol, wh)) < 0)
				return -1;
		} else {
			for (int k = 0; k < node->nkids; k += 2)
				if (strcmp(node->kids[k]->str, key) == 0)
					slot = k + 1;
			if (i == 0 && strcmp(key, "sweep") == 0)
				return fail(&w->ld, at, "sweep path '%s' points into the sweep block",
					    at->str);
			if (slot < 0 && !last)
				return fail(&w->ld, at, "sweep path '%s': no key '%s' %s %s", at->str, key,
					    i ? "in" : "at", wh);
		}
		if (last) {
			t->box = node;
			t->slot = slot;
			if (slot >= 0)
				t->old = node->kids[slot];
			else {
				t->key = xcalloc(1, sizeof *t->key);
				*t->key = (struct yn){.kind = YN_SCALAR, .line = at->line, .col = at->col,
						      .str = xstrdup(key)};
			}
			return 0;
		}
		node = node->kids[slot];
	}
	return 0; /* not reached: n >= 1 */
}

/* Path `t` of a later axis (or of the same one) clashes with `u`. */
static int check_clash(struct sw_ld *w, const struct sw_target *t, const struct sw_target *u)
{
	bool same = t->box == u->box &&
		    (t->slot >= 0 ? t->slot == u->slot
				  : u->slot < 0 && strcmp(t->key->str, u->key->str) == 0);
	if (same)
		return fail(&w->ld, t->at, "sweep path '%s' sets the same value as '%s' (line %d)",
			    t->at->str, u->at->str, u->at->line);
	for (int i = 0; i < t->nchain; i++)
		if (u->old && t->chain[i] == u->old)
			return fail(&w->ld, t->at, "sweep path '%s' lies inside the value that '%s' "
				    "(line %d) replaces", t->at->str, u->at->str, u->at->line);
	for (int i = 0; i < u->nchain; i++)
		if (t->old && u->chain[i] == t->old)
			return fail(&w->ld, t->at, "sweep path '%s' replaces the value that '%s' "
				    "(line %d) points into", t->at->str, u->at->str, u->at->line);
	return 0;
}

/* The last key of a path (already split without error), for a default
 * label: "workload[wc].count" -> "count", "policies[1]" -> "policies". */
static void last_key(const char *p, char *buf, size_t len)
{
	const char *k = p;
	size_t kl = 0;
	while (*p) {
		if (*p == '[') {
			p = strchr(p, ']') + 1;
		} else if (*p == '.') {
			p++;
		} else {
			k = p;
			kl = strcspn(p, ".[]");
			p += kl;
		}
	}
	snprintf(buf, len, "%.*s", (int)(kl < 200 ? kl : 200), k);
}

static int axis_label(struct sw_ld *w, int a, const struct yn *m, char **out)
{
	const struct yn *v = yn_get(m, "label");
	if (v) {
		if (get_ident(&w->ld, v, ID_NAME, "axis label", out) < 0)
			return -1;
	} else {
		char k[256];
		const struct sw_target *t = &w->ax[a].t[0];
		last_key(t->at->str, k, sizeof k);
		bool ok = strlen(k) <= MAX_NAME && strspn(k, "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == strlen(k);
		if (!ok)
			return fail(&w->ld, t->at, "cannot name a sweep axis after '%s' (a label is "
				    "made of letters, digits, '_', '-' and '.'): give it a label", k);
		*out = xstrdup(k);
		v = t->at;
	}
	for (int i = 0; i < ARRAY_LEN(reserved_labels); i++)
		if (strcmp(*out, reserved_labels[i]) == 0)
			return fail(&w->ld, v, "axis label '%s' is a column of runs.csv or summary.csv "
				    "already; give the axis another label", *out);
	for (int b = 0; b < a; b++)
		if (strcmp(w->sw->axes[b].label, *out) == 0)
			return fail(&w->ld, v, "duplicate axis label '%s' (first at line %d)", *out,
				    w->ax[b].at->line);
	return 0;
}

/* A value shown in CSV cells must fit one without quoting. */
static int check_shown(struct sw_ld *w, const struct yn *v, const char *label, bool from_show)
{
	if (v->kind != YN_SCALAR) {
		if (from_show)
			return fail(&w->ld, v, "expected a scalar in show of sweep axis '%s', got %s",
				    label, got(&w->ld, v));
		return fail(&w->ld, v, "value of sweep axis '%s' is %s: give the axis a 'show' list "
			    "(the value written in CSV files)", label, yn_kind_name(v));
	}
	if (!*v->str || strpbrk(v->str, ",\"\n\r"))
		return fail(&w->ld, v, "cannot write %s in a CSV cell (no ',', '\"', line breaks or "
			    "empty text)%s", got(&w->ld, v),
			    from_show ? "" : ": give the axis a 'show' list");
	return 0;
}

/* Paths of axis `a` (the mapping `m`), resolved and checked against the
 * paths before them. */
static int axis_paths(struct sw_ld *w, int a, const struct yn *m)
{
	struct sw_axis *x = &w->ax[a];
	const struct yn *p = yn_get(m, "path"), *ps = yn_get(m, "paths");
	if (p && ps)
		return fail(&w->ld, ps, "a sweep axis takes 'path' or 'paths', not both");
	if (!p && !ps)
		return fail(&w->ld, m, "missing key 'path' (or 'paths') in sweep axis");
	if (ps && want_list(&w->ld, ps, "paths", "path") < 0)
		return -1;
	x->multi = ps != NULL;
	x->nt = ps ? ps->nkids : 1;
	x->t = xcalloc((size_t)x->nt, sizeof *x->t);
	for (int i = 0; i < x->nt; i++) {
		if (resolve_path(w, ps ? ps->kids[i] : p, &x->t[i]) < 0)
			return -1;
		for (int b = 0; b <= a; b++)
			for (int j = 0; j < (b < a ? w->ax[b].nt : i); j++)
				if (check_clash(w, &x->t[i], &w->ax[b].t[j]) < 0)
					return -1;
	}
	return 0;
}

/* Value `v` of axis `x`, path `i`. */
static struct yn *axis_value(const struct sw_axis *x, int v, int i)
{
	const struct yn *val = x->values->kids[v];
	return x->multi ? val->kids[i] : (struct yn *)val;
}

static int axis_values(struct sw_ld *w, int a, const struct yn *m)
{
	struct sw_axis *x = &w->ax[a];
	struct scn_axis *out = &w->sw->axes[a];
	char what[160];
	snprintf(what, sizeof what, "values of sweep axis '%s'", out->label);
	const struct yn *vs = need(&w->ld, m, "values", "sweep axis", out->label), *show;
	if (!vs || want_list(&w->ld, vs, what, "value") < 0)
		return -1;
	x->values = vs;
	for (int v = 0; x->multi && v < vs->nkids; v++) {
		const struct yn *val = vs->kids[v];
		if (val->kind != YN_SEQ || val->nkids != x->nt) {
			char g[64];
			if (val->kind == YN_SEQ)
				snprintf(g, sizeof g, "a list of %d", val->nkids);
			return fail(&w->ld, val, "expected a list of %d values (one per path) in %s, "
				    "got %s", x->nt, what, val->kind == YN_SEQ ? g : got(&w->ld, val));
		}
	}
	if ((show = yn_get(m, "show"))) {
		snprintf(what, sizeof what, "show of sweep axis '%s'", out->label);
		if (want_list(&w->ld, show, what, "value") < 0)
			return -1;
		if (show->nkids != vs->nkids)
			return fail(&w->ld, show, "expected %d values in %s (one per value), got %d",
				    vs->nkids, what, show->nkids);
	}
	out->nvalues = vs->nkids;
	out->shown = xcalloc((size_t)vs->nkids, sizeof *out->shown);
	for (int v = 0; v < vs->nkids; v++) {
		const struct yn *s = show ? show->kids[v] : axis_value(x, v, 0);
		if (check_shown(w, s, out->label, show != NULL) < 0)
			return -1;
		out->shown[v] = xstrdup(s->str);
	}
	return 0;
}

static void max_line(const struct yn *n, int *line)
{
	if (n->line > *line)
		*line = n->line;
	for (int i = 0; i < n->nkids; i++)
		max_line(n->kids[i], line);
}

/* Check the sweep block `v` (the value of key `k`) and fill w->sw's axes. */
static int load_axes(struct sw_ld *w, const struct yn *k, const struct yn *v)
{
	struct scn_sweep *sw = w->sw;
	long long points = 1;
	if (want_list(&w->ld, v, "sweep", "axis") < 0 ||
	    check_len(&w->ld, v, MAX_AXES, "sweep axes") < 0)
		return -1;
	w->first_line = k->line;
	max_line(v, &w->last_line);
	sw->axes = xcalloc((size_t)v->nkids, sizeof *sw->axes);
	w->ax = xcalloc((size_t)v->nkids, sizeof *w->ax);
	for (int a = 0; a < v->nkids; a++) {
		const struct yn *m = v->kids[a];
		w->ax[a].at = m;
		if (CHECK_MAP(&w->ld, m, "sweep axis", axis_keys) < 0)
			return -1;
		sw->naxes = a + 1;
		if (axis_paths(w, a, m) < 0 || axis_label(w, a, m, &sw->axes[a].label) < 0 ||
		    axis_values(w, a, m) < 0)
			return -1;
		points *= sw->axes[a].nvalues;
		if (points > SCN_MAX_POINTS)
			return fail(&w->ld, m, "the sweep has %lld points up to this axis (the "
				    "product of the axes' numbers of values), above the limit of %d",
				    points, SCN_MAX_POINTS);
	}
	sw->npoints = (int)points;
	return 0;
}

/* Put point p's values in place (on) or the file's back (off, in the
 * reverse order, so keys added to one mapping come off its end). */
static void set_point(struct sw_ld *w, int p, bool on)
{
	const struct scn_sweep *sw = w->sw;
	for (int a0 = 0; a0 < sw->naxes; a0++) {
		int a = on ? a0 : sw->naxes - 1 - a0;
		const struct sw_axis *x = &w->ax[a];
		int v = scn_sweep_at(sw, p, a);
		for (int i0 = 0; i0 < x->nt; i0++) {
			int i = on ? i0 : x->nt - 1 - i0;
			struct sw_target *t = &x->t[i];
			if (t->slot >= 0) {
				t->box->kids[t->slot] = on ? axis_value(x, v, i) : t->old;
			} else if (on) {
				xgrow(&t->box->kids, &t->box->cap, t->box->nkids + 2,
				      sizeof *t->box->kids);
				t->box->kids[t->box->nkids++] = t->key;
				t->box->kids[t->box->nkids++] = axis_value(x, v, i);
			} else {
				t->box->nkids -= 2;
			}
		}
	}
}

/* An error of point p that is not at one of its values (those are in the
 * sweep block): add " (sweep point P: label=value, ...)". */
static void point_context(struct sw_ld *w, int p, const char *path, char *err, size_t errlen)
{
	if (!w->sw->naxes || !errlen)
		return;
	size_t n = strlen(path), len = strlen(err);
	int line = 0;
	if (strncmp(err, path, n) == 0 && err[n] == ':' && sscanf(err + n + 1, "%d", &line) == 1 &&
	    line >= w->first_line && line <= w->last_line)
		return;
	char pt[512];
	snprintf(err + len, errlen - len, " (sweep point %d:%s)", p,
		 scn_sweep_point_text(w->sw, p, pt, sizeof pt));
}

struct scn_sweep *scn_sweep_load(const char *path, char *err, size_t errlen)
{
	struct scn_sweep *sw = xcalloc(1, sizeof *sw);
	struct sw_ld w = {.ld = {.file = path, .err = err, .errlen = errlen}, .sw = sw};
	bool ok = (w.root = yn_load(path, err, errlen)) != NULL;
	const struct yn *k = NULL, *v = NULL;
	for (int i = 0; ok && w.root->kind == YN_MAP && i < w.root->nkids; i += 2)
		if (strcmp(w.root->kids[i]->str, "sweep") == 0) {
			k = w.root->kids[i];
			v = w.root->kids[i + 1];
		}
	if (ok && v)
		ok = load_axes(&w, k, v) == 0;
	else
		sw->npoints = 1;
	if (ok)
		sw->point = xcalloc((size_t)sw->npoints, sizeof *sw->point);
	for (int p = 0; ok && p < sw->npoints; p++) {
		set_point(&w, p, true);
		sw->point[p] = load_tree(path, w.root, err, errlen);
		set_point(&w, p, false);
		if (!(ok = sw->point[p] != NULL))
			point_context(&w, p, path, err, errlen);
		const char *whose;
		int64_t limit;
		if (ok && p == 0 && sw->npoints > 1 && (limit = scn_memory_limit(&whose)) >= 0) {
			/* every point a copy: refused before the copies are made */
			char what[128];
			int64_t one = scn_bytes(sw->point[0], what, sizeof what);
			double all = (double)one * sw->npoints;
			if (all > (double)limit) {
				char a[32], o[32], l[32];
				fail(&w.ld, k, "the sweep's %d points would hold about %s (each a copy of "
				     "the scenario, %s, most of it %s), above the %s %s: fewer points, "
				     "or --max-memory SIZE", sw->npoints, scn_mem_text(all, a),
				     scn_mem_text((double)one, o), what, scn_mem_text((double)limit, l),
				     whose);
				ok = false;
			}
		}
	}
	free_axes(w.ax, sw->naxes);
	yn_free(w.root);
	if (ok)
		return sw;
	one_line(err, errlen);
	scn_sweep_free(sw);
	return NULL;
}

struct scn *scn_load(const char *path, char *err, size_t errlen)
{
	struct scn_sweep *sw = scn_sweep_load(path, err, errlen);
	if (!sw)
		return NULL;
	struct scn *s = sw->point[0];
	s->sweep_points = sw->npoints;
	sw->point[0] = NULL;
	scn_sweep_free(sw);
	return s;
}

