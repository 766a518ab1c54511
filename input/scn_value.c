/* scn_value.c - the loader's value readers (input/scn_int.h): the one
 * error message (scn_fail) and the quoted offending value (scn_got);
 * shapes and keys (mappings checked against a key list, required keys,
 * name lists); scalars (names, integers, limits, seeds, numbers, cvs,
 * booleans); quantities with units (sizes, times, bandwidths, rates);
 * distributions; labels; unique names and list lengths; paths beside the
 * scenario; the one-line rule of every message.
 *
 * Every section file reads its values through these.  It may call
 * input/scn_yaml.h, scenario/scenario.h (labels) and sim/util.h, and
 * nothing else of the loader.
 */
#include "scn_int.h"

#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The one error message: "file:line:col: message" at node `at` into
 * ld->err (nothing when ld->errlen is 0).  Returns -1, for
 * `return scn_fail(...)`. */
int scn_fail(struct ld *ld, const struct yn *at, const char *fmt, ...)
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
const char *scn_got(struct ld *ld, const struct yn *v)
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
const char *scn_join(const char *const *v, int n, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", v[i]);
	return buf;
}

/* suggest(), but not for a word longer than any name: the edit distance
 * is quadratic and no name is that long. */
const char *scn_near(const char *word, const char *const *known, int n)
{
	return strlen(word) > MAX_NAME ? NULL : suggest(word, known, n);
}

static const char *where(const char *what)
{
	return strcmp(what, "top level") == 0 ? "at" : "in";
}

/* Where node v is written, kept in the scenario for later messages. */
struct scn_pos scn_pos_at(const struct ld *ld, const struct yn *v)
{
	return (struct scn_pos){ld->file, v->line, v->col};
}

/* v is a node of kind k (what: the key or block it is, for the message). */
int scn_want(struct ld *ld, const struct yn *v, enum yn_kind k, const char *what)
{
	static const char *const kinds[] = {[YN_SCALAR] = "a scalar", [YN_SEQ] = "a list",
					    [YN_MAP] = "a mapping"};
	if (v->kind == k)
		return 0;
	return scn_fail(ld, v, "expected %s for %s, got %s", kinds[k], what, scn_got(ld, v));
}

/* A non-empty list; `item` names its entries ("node group"). */
int scn_want_list(struct ld *ld, const struct yn *v, const char *what, const char *item)
{
	if (scn_want(ld, v, YN_SEQ, what) < 0)
		return -1;
	if (v->nkids == 0)
		return scn_fail(ld, v, "expected at least one %s in %s, got an empty list", item, what);
	return 0;
}

/* Key k of `what` is none of `keys`: the message, with the nearest key as
 * a suggestion or else the known ones. */
int scn_unknown_key(struct ld *ld, const struct yn *k, const char *what,
		       const char *const *keys, int n)
{
	char list[512];
	const char *s = scn_near(k->str, keys, n);
	if (s)
		return scn_fail(ld, k, "unknown key '%s' %s %s (did you mean '%s'?)", k->str, where(what),
			    what, s);
	return scn_fail(ld, k, "unknown key '%s' %s %s (known: %s)", k->str, where(what), what,
		    scn_join(keys, n, list, sizeof list));
}

/* s is one of the n strings of v. */
bool scn_in_list(const char *s, const char *const *v, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, v[i]) == 0)
			return true;
	return false;
}

/* `map` is a mapping whose keys are all in `keys`. */
int scn_check_map(struct ld *ld, const struct yn *map, const char *what,
		     const char *const *keys, int n)
{
	if (scn_want(ld, map, YN_MAP, what) < 0)
		return -1;
	for (int i = 0; i < map->nkids; i += 2)
		if (!scn_in_list(map->kids[i]->str, keys, n))
			return scn_unknown_key(ld, map->kids[i], what, keys, n);
	return 0;
}

/* The value of a required key; `name` (may be NULL) names the mapping. */
const struct yn *scn_need(struct ld *ld, const struct yn *map, const char *key,
			     const char *what, const char *name)
{
	const struct yn *v = yn_get(map, key);
	if (v)
		return v;
	if (name)
		scn_fail(ld, map, "missing key '%s' %s %s '%s'", key, where(what), what, name);
	else
		scn_fail(ld, map, "missing key '%s' %s %s", key, where(what), what);
	return NULL;
}

/* A name list (require, prefer, labels, parents) is a scalar, standing
 * for a one-item list, or a list of scalars: nitems()/item() walk both. */
int scn_check_items(struct ld *ld, const struct yn *v, const char *what)
{
	if (v->kind == YN_SCALAR)
		return 0;
	if (v->kind != YN_SEQ)
		return scn_fail(ld, v, "expected a name or a list of names for %s, got %s", what,
			    scn_got(ld, v));
	for (int i = 0; i < v->nkids; i++)
		if (v->kids[i]->kind != YN_SCALAR)
			return scn_fail(ld, v->kids[i], "expected a name in %s, got %s", what,
				    scn_got(ld, v->kids[i]));
	return 0;
}

/* Items of a name list checked by scn_check_items, and item i. */
int scn_nitems(const struct yn *v)
{
	return v->kind == YN_SEQ ? v->nkids : 1;
}

const struct yn *scn_item(const struct yn *v, int i)
{
	return v->kind == YN_SEQ ? v->kids[i] : v;
}

/* A name: [A-Za-z0-9_.-]+ (ID_NAME) or [a-z0-9_-]+ (ID_LOWER). */
int scn_get_ident(struct ld *ld, const struct yn *v, enum ident kind, const char *what,
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
		return scn_fail(ld, v, "expected a %s made of %s, got %s", what, sets[kind], scn_got(ld, v));
	if (!strcmp(v->str, ".") || !strcmp(v->str, "..")) /* results/<name> would escape */
		return scn_fail(ld, v, "expected a %s other than '.' and '..' (it names folders), got %s",
			    what, scn_got(ld, v));
	if (strlen(v->str) > MAX_NAME)
		return scn_fail(ld, v, "expected a %s of at most %d characters, got %s", what, MAX_NAME,
			    scn_got(ld, v));
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

/* A decimal integer in [lo, hi]. */
int scn_get_ll(struct ld *ld, const struct yn *v, long long lo, long long hi, long long *out)
{
	const char *p = int_text(v);
	if (!p)
		return scn_fail(ld, v, "expected an integer, got %s", scn_got(ld, v));
	errno = 0;
	long long x = strtoll(p, NULL, 10);
	if (errno == ERANGE)
		return scn_fail(ld, v, "integer %s is out of range", scn_got(ld, v));
	if (x < lo)
		return scn_fail(ld, v, "expected an integer >= %lld, got %s", lo, scn_got(ld, v));
	if (x > hi)
		return scn_fail(ld, v, "expected an integer <= %lld, got %s", hi, scn_got(ld, v));
	*out = x;
	return 0;
}

/* An int >= lo. */
int scn_get_int(struct ld *ld, const struct yn *v, int lo, int *out)
{
	long long x;
	if (scn_get_ll(ld, v, lo, INT_MAX, &x) < 0)
		return -1;
	*out = (int)x;
	return 0;
}

/* An integer >= lo and at most one of hetsim's limits, `hi` `what`
 * ("cores per node"). */
int scn_get_lim(struct ld *ld, const struct yn *v, int lo, int hi, const char *what, int *out)
{
	if (scn_get_int(ld, v, lo, out) < 0)
		return -1;
	if (*out > hi)
		return scn_fail(ld, v, "%s is above the limit of %d %s", scn_got(ld, v), hi, what);
	return 0;
}

/* An optional integer key: left as is when absent. */
int scn_opt_int(struct ld *ld, const struct yn *map, const char *key, int lo, int *out)
{
	const struct yn *v = yn_get(map, key);
	return v ? scn_get_int(ld, v, lo, out) : 0;
}

/* An optional scn_get_lim key: left as is when absent. */
int scn_opt_lim(struct ld *ld, const struct yn *map, const char *key, int lo, int hi,
		   const char *what, int *out)
{
	const struct yn *v = yn_get(map, key);
	return v ? scn_get_lim(ld, v, lo, hi, what, out) : 0;
}

/* A seed: any integer from 0 to 2^64 - 1. */
int scn_get_seed(struct ld *ld, const struct yn *v, uint64_t *out)
{
	const char *p = int_text(v);
	if (!p)
		return scn_fail(ld, v, "expected an integer, got %s", scn_got(ld, v));
	if (*p == '-')
		return scn_fail(ld, v, "expected an integer >= 0, got %s", scn_got(ld, v));
	errno = 0;
	unsigned long long x = strtoull(p, NULL, 10);
	if (errno == ERANGE)
		return scn_fail(ld, v, "integer %s is out of range", scn_got(ld, v));
	*out = x;
	return 0;
}

/* A real number: decimal, optionally with an exponent ("0.1", "1e-3"). */
int scn_get_num(struct ld *ld, const struct yn *v, double *out)
{
	const char *p = v->kind == YN_SCALAR ? v->str : "";
	bool ok = *p != '\0';
	for (const char *q = p; *q && ok; q++)
		ok = strchr("0123456789+-.eE", *q) != NULL;
	char *end = NULL;
	double x = ok ? strtod(p, &end) : 0;
	if (!ok || *end || !isfinite(x))
		return scn_fail(ld, v, "expected a number, got %s", scn_got(ld, v));
	*out = x;
	return 0;
}

/* A coefficient of variation in [0, MAX_CV]. */
int scn_get_cv(struct ld *ld, const struct yn *v, double *out)
{
	if (scn_get_num(ld, v, out) < 0)
		return -1;
	if (*out < 0)
		return scn_fail(ld, v, "expected a cv >= 0, got %s", scn_got(ld, v));
	if (*out > MAX_CV)
		return scn_fail(ld, v, "%s is above the limit of %d for a cv", scn_got(ld, v), MAX_CV);
	return 0;
}

/* A boolean policy switch: exactly true or false. */
bool scn_is_bool(const char *s)
{
	return strcmp(s, "true") == 0 || strcmp(s, "false") == 0;
}


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
				return scn_fail(ld, v, "%s has too many digits (at most 18 significant "
					    "digits and 18 decimals)", scn_got(ld, v));
			return 0;
		}
	return scn_fail(ld, v, expected, scn_got(ld, v));
}

static const char *const size_units[] = {"MiB", "GiB", "TiB", "M", "G", "T"};
static const int size_shift[] = {0, 10, 20, 0, 10, 20};

/* A size in whole MiB, >= min. */
int scn_get_size(struct ld *ld, const struct yn *v, int64_t min, int64_t *mib)
{
	struct dec d;
	int u;
	if (parse_qty(ld, v, size_units, ARRAY_LEN(size_units), &d, &u,
		      "expected a size such as 512MiB or 64GiB, got %s") < 0)
		return -1;
	int sh = size_shift[u];
	uint64_t den = pow10s[d.frac];
	if (d.mant > ((uint64_t)INT64_MAX >> sh))
		return scn_fail(ld, v, "size %s is too large (at most %lldTiB)", scn_got(ld, v), MAX_MIB >> 20);
	uint64_t num = d.mant << sh;
	if (num % den)
		return scn_fail(ld, v, "expected a whole number of MiB, got %s", scn_got(ld, v));
	int64_t x = (int64_t)(num / den) * (d.neg ? -1 : 1);
	if (x < min)
		return scn_fail(ld, v, "expected a size >= %" PRId64 "MiB, got %s", min, scn_got(ld, v));
	if (x > MAX_MIB)
		return scn_fail(ld, v, "size %s is too large (at most %lldTiB)", scn_got(ld, v), MAX_MIB >> 20);
	*mib = x;
	return 0;
}

static const char *const time_units[] = {"us", "ms", "s", "min", "h"};
static const uint64_t time_us[] = {1, 1000, 1000000, 60000000, 3600000000};
#define TIME_EXPECTED "expected a time with a unit (us, ms, s, min, h), got %s"
#define TIME_TOO_LARGE "time %s is too large (at most %llds)"

/* A time rounded to the nearest µs (half away from zero). */
int scn_get_time(struct ld *ld, const struct yn *v, enum sign sign, int64_t *us)
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
		return scn_fail(ld, v, TIME_TOO_LARGE, scn_got(ld, v), MAX_TIME_S);
	uint64_t x = q * m + r * m / den + (2 * (r * m % den) >= den);
	if (x > (uint64_t)INT64_MAX)
		return scn_fail(ld, v, TIME_TOO_LARGE, scn_got(ld, v), MAX_TIME_S);
	int64_t t = d.neg ? -(int64_t)x : (int64_t)x;
	if (t < 0 || (sign == POSITIVE && t == 0))
		return scn_fail(ld, v, "expected a time %s 0, got %s", sign == POSITIVE ? ">" : ">=",
			    scn_got(ld, v));
	if (t > MAX_TIME_US)
		return scn_fail(ld, v, TIME_TOO_LARGE, scn_got(ld, v), MAX_TIME_S);
	*us = t;
	return 0;
}

/* An optional scn_get_time key: left as is when absent. */
int scn_opt_time(struct ld *ld, const struct yn *map, const char *key, enum sign sign,
		    int64_t *us)
{
	const struct yn *v = yn_get(map, key);
	return v ? scn_get_time(ld, v, sign, us) : 0;
}

/* A cost-model time >= 0 in µs, kept fractional (slopes can be < 1 µs). */
int scn_get_time_real(struct ld *ld, const struct yn *v, double *us)
{
	struct dec d;
	int u;
	if (parse_qty(ld, v, time_units, ARRAY_LEN(time_units), &d, &u, TIME_EXPECTED) < 0)
		return -1;
	if (d.neg && d.mant)
		return scn_fail(ld, v, "expected a time >= 0, got %s", scn_got(ld, v));
	*us = (double)d.mant * (double)time_us[u] / (double)pow10s[d.frac];
	if (*us > (double)MAX_TIME_US)
		return scn_fail(ld, v, TIME_TOO_LARGE, scn_got(ld, v), MAX_TIME_S);
	return 0;
}

static const char *const rate_units[] = {"/s", "/min", "/h"};
static const double rate_div[] = {1, 60, 3600};

static const char *const bw_units[] = {"MiB/s", "GiB/s", "M/s", "G/s"};
static const int bw_shift[] = {0, 10, 0, 10};

/* A bandwidth "S/s" (S a size: MiB, GiB, M, G) in MiB/s, from 1MiB/s to
 * MAX_MIB per second. */
int scn_get_bandwidth(struct ld *ld, const struct yn *v, double *mib_s)
{
	struct dec d;
	int u;
	if (parse_qty(ld, v, bw_units, ARRAY_LEN(bw_units), &d, &u,
		      "expected a bandwidth such as 1192MiB/s or 1.25GiB/s, got %s") < 0)
		return -1;
	double x = (double)d.mant * (double)(1 << bw_shift[u]) / (double)pow10s[d.frac];
	if (d.neg || !(x >= 1))
		return scn_fail(ld, v, "expected a bandwidth >= 1MiB/s, got %s", scn_got(ld, v));
	if (x > (double)MAX_MIB)
		return scn_fail(ld, v, "bandwidth %s is too large (at most %lldTiB/s)", scn_got(ld, v),
			    MAX_MIB >> 20);
	*mib_s = x;
	return 0;
}

/* A rate "R/unit" > 0, returned as the mean gap 1/R in µs. */
int scn_get_rate(struct ld *ld, const struct yn *v, double *mean_gap_us)
{
	struct dec d;
	int u;
	if (parse_qty(ld, v, rate_units, ARRAY_LEN(rate_units), &d, &u,
		      "expected a rate such as 0.5/s, 3/min or 10/h, got %s") < 0)
		return -1;
	if (d.neg || d.mant == 0)
		return scn_fail(ld, v, "expected a rate > 0, got %s", scn_got(ld, v));
	*mean_gap_us = 1e6 * rate_div[u] * (double)pow10s[d.frac] / (double)d.mant;
	return 0;
}

/* A size (MiB) or time (µs) >= 0 as a double. */
static int get_qty(struct ld *ld, const struct yn *v, enum qty q, double *out)
{
	int64_t x;
	if ((q == Q_SIZE ? scn_get_size(ld, v, 0, &x) : scn_get_time(ld, v, NONNEG, &x)) < 0)
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
	if (scn_check_map(ld, m, what, keys, keys[2] ? 3 : 2) < 0 || !(a = scn_need(ld, m, keys[1], what, NULL)) ||
	    (keys[2] && !(b = scn_need(ld, m, keys[2], what, NULL))) || get_qty(ld, a, q, &d->a) < 0)
		return -1;
	d->kind = dists[i].kind;
	if (d->kind == SCN_DIST_EXPONENTIAL || d->kind == SCN_DIST_LOGNORMAL)
		if (d->a <= 0)
			return scn_fail(ld, a, "expected a mean > 0, got %s", scn_got(ld, a));
	if (d->kind == SCN_DIST_LOGNORMAL) {
		if (scn_get_cv(ld, b, &d->b) < 0)
			return -1;
	}
	if (d->kind == SCN_DIST_UNIFORM) {
		if (get_qty(ld, b, q, &d->b) < 0)
			return -1;
		if (d->b < d->a)
			return scn_fail(ld, b, "expected max >= min ('%s'), got %s", a->str, scn_got(ld, b));
	}
	return 0;
}

/* A value with a unit (constant) or {dist: ..., ...}; a, b in the unit. */
int scn_get_dist(struct ld *ld, const struct yn *v, enum qty q, struct scn_dist *d)
{
	if (v->kind == YN_SCALAR) {
		d->kind = SCN_DIST_CONST;
		return get_qty(ld, v, q, &d->a);
	}
	if (v->kind != YN_MAP)
		return scn_fail(ld, v, "expected a %s or a {dist: ...} mapping, got %s",
			    q == Q_SIZE ? "size" : "time", scn_got(ld, v));
	const struct yn *k = scn_need(ld, v, "dist", "distribution", NULL);
	if (!k)
		return -1;
	const char *names[ARRAY_LEN(dists)];
	for (int i = 0; i < ARRAY_LEN(dists); i++) {
		names[i] = dists[i].name;
		if (k->kind == YN_SCALAR && strcmp(k->str, names[i]) == 0)
			return dist_params(ld, v, i, q, d);
	}
	char list[128];
	return scn_fail(ld, k, "unknown distribution %s (known: %s)", scn_got(ld, k),
		    scn_join(names, ARRAY_LEN(names), list, sizeof list));
}

/* Label `name` into *bits, added to the scenario's label names when new
 * (at most SCN_MAX_LABELS of them). */
int scn_add_label(struct ld *ld, const struct yn *at, const char *name, uint64_t *bits)
{
	struct scn *s = ld->s;
	int i = scn_label_index(s, name);
	if (i < 0) {
		if (s->nlabels == SCN_MAX_LABELS)
			return scn_fail(ld, at, "too many distinct labels (at most %d)", SCN_MAX_LABELS);
		i = s->nlabels++;
		s->label_names[i] = xstrdup(name);
	}
	*bits |= 1ULL << i;
	return 0;
}

/* A node group's `labels`: auto, one label, or a list. */
int scn_node_labels(struct ld *ld, const struct yn *v, struct scn_node_group *g)
{
	if (v->kind == YN_SCALAR && strcmp(v->str, "auto") == 0) {
		if (g->gpus == 0)
			return scn_add_label(ld, v, "cpu", &g->labels);
		return scn_add_label(ld, v, "gpu", &g->labels) < 0 ? -1
			: scn_add_label(ld, v, g->gpu_model, &g->labels);
	}
	if (scn_check_items(ld, v, "labels") < 0)
		return -1;
	for (int i = 0; i < scn_nitems(v); i++) {
		const struct yn *it = scn_item(v, i);
		char *name;
		if (strcmp(it->str, "auto") == 0)
			return scn_fail(ld, it, "'auto' cannot be mixed with other labels; write labels: auto");
		if (scn_get_ident(ld, it, ID_NAME, "label", &name) < 0)
			return -1;
		int r = scn_add_label(ld, it, name, &g->labels);
		free(name);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* A job's or role's require/prefer: labels some node group carries. */
int scn_job_labels(struct ld *ld, const struct yn *v, const char *what, uint64_t *bits)
{
	struct scn *s = ld->s;
	const char *const *known = (const char *const *)s->label_names;
	char list[512];
	if (scn_check_items(ld, v, what) < 0)
		return -1;
	*bits = 0;
	for (int i = 0; i < scn_nitems(v); i++) {
		const struct yn *it = scn_item(v, i);
		int k = scn_label_index(s, it->str);
		if (k >= 0) {
			*bits |= 1ULL << k;
			continue;
		}
		const char *sug = scn_near(it->str, known, s->nlabels);
		if (sug)
			return scn_fail(ld, it, "no node group carries label %s (did you mean '%s'?)",
				    scn_got(ld, it), sug);
		if (s->nlabels)
			return scn_fail(ld, it, "no node group carries label %s (node labels: %s)",
				    scn_got(ld, it), scn_join(known, s->nlabels, list, sizeof list));
		return scn_fail(ld, it, "no node group carries label %s (no node group has labels)",
			    scn_got(ld, it));
	}
	return 0;
}

/* A number in [lo, hi] of key `key` of map m, if given. */
int scn_opt_num(struct ld *ld, const struct yn *m, const char *key, double lo, double hi,
		   double *out)
{
	const struct yn *v = yn_get(m, key);
	double x;
	if (!v)
		return 0;
	if (scn_get_num(ld, v, &x) < 0)
		return -1;
	if (!(x >= lo && x <= hi))
		return scn_fail(ld, v, "expected a number from %g to %g for %s, got %s", lo, hi, key,
			    scn_got(ld, v));
	*out = x;
	return 0;
}

/* The `name` node of list entry i (NULL if it has none), for messages. */
const struct yn *scn_entry_name(const struct yn *list, int i)
{
	return yn_get(list->kids[i], "name");
}

/* The hash of a name in the sets of scn_check_unique (FNV-1a). */
uint64_t scn_name_hash(const char *p)
{
	return fnv1a(FNV1A_BASIS, p, strlen(p));
}

/* Entry i of `list` (names: the first entry's name field, entries
 * `stride` bytes apart) must not repeat the name of an entry before it;
 * entries are checked in order, from 0, one list of a kind at a time. */
int scn_check_unique(struct ld *ld, int kind, const struct yn *list, int i, const void *names,
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
	size_t at = (size_t)scn_name_hash(name) & (set->cap - 1);
	for (; set->slot[at]; at = (at + 1) & (set->cap - 1)) {
		int j = set->slot[at] - 1;
		if (strcmp(NAME_AT(j), name) == 0)
			return scn_fail(ld, scn_entry_name(list, i), "duplicate %s name '%s' (first at line %d)",
				    what, name, scn_entry_name(list, j)->line);
	}
#undef NAME_AT
	set->slot[at] = i + 1;
	return 0;
}

/* A list of at most `max` entries. */
int scn_check_len(struct ld *ld, const struct yn *list, int max, const char *what)
{
	if (list->nkids > max)
		return scn_fail(ld, list->kids[max], "too many %s (at most %d)", what, max);
	return 0;
}

/* A boolean: exactly true or false. */
int scn_get_bool(struct ld *ld, const struct yn *v, bool *out)
{
	if (v->kind != YN_SCALAR || !scn_is_bool(v->str))
		return scn_fail(ld, v, "expected true or false, got %s", scn_got(ld, v));
	*out = strcmp(v->str, "true") == 0;
	return 0;
}

/* `p` relative to the directory of the scenario file (absolute: as is). */
char *scn_resolve(const char *scenario, const char *p)
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

const char *scn_path_note(const char *scenario, const char *written, const char *resolved,
			  char *buf, size_t len)
{
	(void)scenario;
	if (written[0] == '/')
		snprintf(buf, len, "%s", "");
	else if (!strcmp(written, resolved))
		snprintf(buf, len, " (from the scenario's folder, the current one)");
	else
		snprintf(buf, len, " (from the scenario's folder: %s)", resolved);
	return buf;
}

/* Messages are one line: a quoted value may hold a newline or a tab. */
void scn_one_line(char *err, size_t errlen)
{
	for (size_t i = 0; i < errlen && err[i]; i++)
		if ((unsigned char)err[i] < 0x20)
			err[i] = ' ';
}
