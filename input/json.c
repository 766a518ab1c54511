/* json.c - a one-line JSON parser into an arena (json.h).
 *
 * Recursive descent over a NUL-terminated text: the NUL at text[len]
 * stops every scan, so no loop compares against the end pointer except
 * to tell that NUL from one inside the text.  Depth is bounded by
 * JSON_MAX_DEPTH, so the recursion is too.
 */
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "util.h"

struct json {
	const char *key;           /* member key (decoded, in the text), NULL for an element */
	union {
		int64_t i;         /* JSON_INT */
		double d;          /* JSON_DOUBLE */
		char *s;           /* JSON_STRING: decoded, in the text */
		struct json *first; /* JSON_ARRAY, JSON_OBJECT: first child */
	} u;
	struct json *next;         /* next sibling */
	uint32_t n;                /* children, or string bytes */
	uint8_t type;              /* enum json_type */
};

/* Nodes come from blocks kept from parse to parse: after the longest
 * line so far, no parse allocates. */
struct block {
	struct block *next;
	size_t cap;                /* nodes */
	struct json node[];
};

struct json_parser {
	struct block *head, *cur;  /* all blocks; the one being filled */
	size_t used;               /* nodes taken from cur */
	int64_t values;            /* nodes taken by this parse */
	const char *const *skip;   /* keys whose values are not built */
	const char *text, *end;    /* the text of the last parse, its NUL */
	struct json_err *err;
};

struct json_parser *json_new(void)
{
	return xcalloc(1, sizeof(struct json_parser));
}

void json_free(struct json_parser *p)
{
	if (!p)
		return;
	while (p->head) {
		struct block *b = p->head;
		p->head = b->next;
		free(b);
	}
	free(p);
}

void json_skip_keys(struct json_parser *p, const char *const *keys)
{
	p->skip = keys;
}

/* ---- errors -------------------------------------------------------- */

/* What is at s, for "found ...". */
static const char *found(const struct json_parser *p, const char *s, char *buf, size_t n)
{
	unsigned char c = (unsigned char)*s;
	if (s >= p->end)
		return "the end of the text";
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, n, "'%c'", c);
	else
		snprintf(buf, n, "byte 0x%02x", c);
	return buf;
}

/* Bytes at s that are not UTF-8: an error naming the byte (0), or 1
 * when they are. */
static int not_utf8(struct json_parser *p, const char *s)
{
	const char *why;
	if (s >= p->end || utf8_char(s, (size_t)(p->end - s), &why))
		return 1;
	p->err->col = (int64_t)(s - p->text) + 1;
	p->err->utf8 = true;
	snprintf(p->err->msg, sizeof p->err->msg, "not UTF-8: byte 0x%02x (%s)",
		 (unsigned char)*s, why);
	return 0;
}

/* Record an error at s: "expected WHAT, found X" (what != NULL) or msg;
 * where s is at bytes that are not UTF-8, that instead. */
static int fail(struct json_parser *p, const char *s, const char *what, const char *msg)
{
	char buf[16];
	if ((unsigned char)*s >= 0x80 && !not_utf8(p, s))
		return -1;
	p->err->col = (int64_t)(s - p->text) + 1;
	if (what)
		snprintf(p->err->msg, sizeof p->err->msg, "expected %s, found %s", what,
			 found(p, s, buf, sizeof buf));
	else
		snprintf(p->err->msg, sizeof p->err->msg, "%s", msg);
	return -1;
}

/* ---- nodes --------------------------------------------------------- */

static struct json *node(struct json_parser *p, const char *s, enum json_type t)
{
	if (++p->values > JSON_MAX_VALUES) {
		char msg[80];
		snprintf(msg, sizeof msg, "more than %lld values in one text",
			 (long long)JSON_MAX_VALUES);
		fail(p, s, NULL, msg);
		return NULL;
	}
	if (!p->cur || p->used == p->cur->cap) {
		if (p->cur && p->cur->next) {
			p->cur = p->cur->next;
		} else {
			size_t cap = p->cur ? p->cur->cap * 2 : 256;
			struct block *b = xmalloc(sizeof *b + cap * sizeof b->node[0]);
			b->next = NULL;
			b->cap = cap;
			if (p->cur)
				p->cur->next = b;
			else
				p->head = b;
			p->cur = b;
		}
		p->used = 0;
	}
	struct json *v = &p->cur->node[p->used++];
	v->key = NULL;
	v->next = NULL;
	v->n = 0;
	v->type = (uint8_t)t;
	return v;
}

/* ---- scanning ------------------------------------------------------ */

static const char *ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		unsigned c = (unsigned char)s[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return i; /* the offending digit's offset */
		v = v << 4 | d;
	}
	*out = v;
	return 4;
}

static char *utf8(char *w, unsigned cp)
{
	if (cp < 0x80) {
		*w++ = (char)cp;
	} else if (cp < 0x800) {
		*w++ = (char)(0xc0 | cp >> 6);
		*w++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*w++ = (char)(0xe0 | cp >> 12);
		*w++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*w++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*w++ = (char)(0xf0 | cp >> 18);
		*w++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*w++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*w++ = (char)(0x80 | (cp & 0x3f));
	}
	return w;
}

/* One \u escape at s (s[0..1] == "\\u"), decoded to w; a high surrogate
 * followed by a low one's escape takes both.  Returns the text after
 * it, NULL on error. */
static const char *uescape(struct json_parser *p, const char *s, char **w)
{
	unsigned cp, lo;
	int k = hex4(s + 2, &cp);
	if (k < 4)
		return fail(p, s + 2 + k, "4 hex digits after '\\u'", NULL), NULL;
	const char *at = s;
	s += 6;
	bool half = cp >= 0xdc00 && cp <= 0xdfff; /* a low one first */
	if (cp >= 0xd800 && cp <= 0xdbff) {
		half = !(s[0] == '\\' && s[1] == 'u' && hex4(s + 2, &lo) == 4 && lo >= 0xdc00 &&
			 lo <= 0xdfff);
		if (!half) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			s += 6;
		}
	}
	if (half) {
		char msg[96];
		snprintf(msg, sizeof msg, "'\\u%.4s' is half a surrogate pair, not a character",
			 at + 2);
		return fail(p, at, NULL, msg), NULL;
	}
	*w = utf8(*w, cp);
	return s;
}

/* The string whose opening quote is at q, decoded in place and NUL-
 * terminated; *str its start, *n its length.  Returns the text after the
 * closing quote, NULL on error. */
static const char *string(struct json_parser *p, const char *q, char **str, size_t *n)
{
	char *s = (char *)q + 1; /* the caller's text is writable (json_parse) */
	char *w = NULL;          /* where decoded bytes go, once an escape is seen */
	char *start = s;
	for (;;) {
		const char *plain = s;
		for (;;) { /* ASCII fast; a byte >= 0x80 begins a UTF-8 character */
			while ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x80 && *s != '"' &&
			       *s != '\\')
				s++;
			if ((unsigned char)*s < 0x80)
				break;
			int k = utf8_char(s, (size_t)(p->end - s), NULL);
			if (!k)
				return not_utf8(p, s), NULL;
			s += k;
		}
		if (w && s > plain) {
			memmove(w, plain, (size_t)(s - plain));
			w += s - plain;
		}
		if (*s == '"')
			break;
		if (*s == '\\') {
			if (!w)
				w = s;
			static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
			const char *e = s[1] ? strchr(from, s[1]) : NULL;
			if (e) {
				*w++ = to[e - from];
				s += 2;
			} else if (s[1] == 'u') {
				const char *t = uescape(p, s, &w);
				if (!t)
					return NULL;
				s = (char *)t;
			} else if (s + 1 >= p->end) {
				goto unterminated;
			} else {
				char msg[64];
				unsigned char c = (unsigned char)s[1];
				if (c > 0x20 && c < 0x7f)
					snprintf(msg, sizeof msg, "invalid escape '\\%c' in a string", c);
				else
					snprintf(msg, sizeof msg, "invalid escape (byte 0x%02x) in a string", c);
				return fail(p, s, NULL, msg), NULL;
			}
			continue;
		}
		if (s >= p->end)
			goto unterminated;
		char msg[64];
		snprintf(msg, sizeof msg, "unescaped control character 0x%02x in a string",
			 (unsigned char)*s);
		return fail(p, s, NULL, msg), NULL;
	}
	if (!w)
		w = s;
	*n = (size_t)(w - start);
	*w = '\0';
	*str = start;
	return s + 1;
unterminated:;
	char what[64];
	snprintf(what, sizeof what, "'\"' to close the string at column %lld",
		 (long long)(q - p->text) + 1);
	return fail(p, p->end, what, NULL), NULL;
}

static const char *number(struct json_parser *p, const char *s, struct json **out, bool build)
{
	const char *start = s;
	bool neg = *s == '-', integral = true;
	if (neg)
		s++;
	if (*s == '0') {
		s++;
		if (*s >= '0' && *s <= '9')
			return fail(p, s - 1, NULL, "a number with a leading zero"), NULL;
	} else if (*s >= '1' && *s <= '9') {
		while (*s >= '0' && *s <= '9')
			s++;
	} else {
		return fail(p, s, "a digit after '-'", NULL), NULL;
	}
	if (*s == '.') {
		integral = false;
		s++;
		if (!(*s >= '0' && *s <= '9'))
			return fail(p, s, "a digit after '.'", NULL), NULL;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		integral = false;
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return fail(p, s, "a digit in the exponent", NULL), NULL;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (!build)
		return s;
	struct json *v = node(p, start, JSON_INT);
	if (!v)
		return NULL;
	const char *d = start + neg;
	if (integral && s - d <= 18) { /* at most 18 digits: fits */
		int64_t x = 0;
		for (; d < s; d++)
			x = x * 10 + (*d - '0');
		v->u.i = neg ? -x : x;
	} else if (integral && s - d == 19) {
		uint64_t x = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
		for (; d < s; d++)
			x = x * 10 + (uint64_t)(*d - '0'); /* 19 digits < 2^64 */
		if (x <= lim)
			v->u.i = neg ? (int64_t)(0 - x) : (int64_t)x;
		else
			integral = false;
	} else {
		integral = false;
	}
	if (!integral) {
		v->type = JSON_DOUBLE;
		v->u.d = strtod(start, NULL); /* the grammar is checked: strtod reads it all */
	}
	*out = v;
	return s;
}

static const char *value(struct json_parser *p, const char *s, int depth, bool build,
			 struct json **out);

static bool skipped(const struct json_parser *p, const char *key)
{
	if (p->skip)
		for (const char *const *k = p->skip; *k; k++)
			if (**k == *key && !strcmp(*k, key))
				return true;
	return false;
}

/* The container whose bracket is at s. */
static const char *container(struct json_parser *p, const char *s, int depth, bool build,
			     struct json **out)
{
	bool obj = *s == '{';
	char close = obj ? '}' : ']';
	struct json *v = NULL, **link = NULL;
	if (depth >= JSON_MAX_DEPTH) {
		char msg[64];
		snprintf(msg, sizeof msg, "nesting deeper than %d arrays and objects", JSON_MAX_DEPTH);
		return fail(p, s, NULL, msg), NULL;
	}
	if (build) {
		v = node(p, s, obj ? JSON_OBJECT : JSON_ARRAY);
		if (!v)
			return NULL;
		v->u.first = NULL;
		link = &v->u.first;
		*out = v;
	}
	s = ws(s + 1);
	if (*s == close)
		return s + 1;
	for (bool later = false;; later = true) {
		char *key = NULL;
		bool b = build;
		struct json *c = NULL;
		if (obj) {
			size_t klen;
			if (*s != '"')
				return fail(p, s, later ? "a string key" : "a string key or '}'",
					    NULL), NULL;
			const char *kq = s;
			if (!(s = string(p, s, &key, &klen)))
				return NULL;
			if (strlen(key) != klen)
				return fail(p, kq, NULL, "a key holding '\\u0000' (lookups by key "
					    "are C strings)"), NULL;
			s = ws(s);
			if (*s != ':')
				return fail(p, s, "':' after an object key", NULL), NULL;
			s = ws(s + 1);
			if (b && skipped(p, key)) {
				b = false;
				if (!(c = node(p, s, JSON_SKIPPED)))
					return NULL;
			}
		}
		if (!(s = value(p, s, depth + 1, b, &c)))
			return NULL;
		if (build) {
			c->key = key;
			*link = c;
			link = &c->next;
			v->n++;
		}
		s = ws(s);
		if (*s == ',') {
			s = ws(s + 1);
			continue;
		}
		if (*s == close)
			return s + 1;
		return fail(p, s, obj ? "',' or '}' after an object member"
				      : "',' or ']' after an array element", NULL), NULL;
	}
}

static const char *literal(struct json_parser *p, const char *s, const char *word,
			   enum json_type t, bool build, struct json **out)
{
	size_t n = strlen(word);
	if (strncmp(s, word, n)) {
		char what[16];
		snprintf(what, sizeof what, "'%s'", word);
		return fail(p, s, what, NULL), NULL;
	}
	if (build && !(*out = node(p, s, t)))
		return NULL;
	return s + n;
}

static const char *value(struct json_parser *p, const char *s, int depth, bool build,
			 struct json **out)
{
	switch (*s) {
	case '{':
	case '[':
		return container(p, s, depth, build, out);
	case '"': {
		char *str;
		size_t n;
		const char *q = s;
		if (!(s = string(p, s, &str, &n)))
			return NULL;
		if (build) {
			if (n > UINT32_MAX)
				return fail(p, q, NULL, "a string longer than 4 GiB"), NULL;
			struct json *v = node(p, q, JSON_STRING);
			if (!v)
				return NULL;
			v->u.s = str;
			v->n = (uint32_t)n;
			*out = v;
		}
		return s;
	}
	case 't':
		return literal(p, s, "true", JSON_TRUE, build, out);
	case 'f':
		return literal(p, s, "false", JSON_FALSE, build, out);
	case 'n':
		return literal(p, s, "null", JSON_NULL, build, out);
	default:
		if (*s == '-' || (*s >= '0' && *s <= '9'))
			return number(p, s, out, build);
		return fail(p, s, "a JSON value", NULL), NULL;
	}
}

const struct json *json_parse(struct json_parser *p, char *text, size_t len,
			      struct json_err *e)
{
	struct json *root = NULL;
	p->cur = p->head;
	p->used = 0;
	p->values = 0;
	p->text = text;
	p->end = text + len;
	p->err = e;
	e->utf8 = false;
	const char *s = value(p, ws(text), 0, true, &root);
	if (!s)
		return NULL;
	s = ws(s);
	if (s != p->end) {
		fail(p, s, "the end of the text after the JSON value", NULL);
		return NULL;
	}
	return root;
}

/* ---- reading the tree ---------------------------------------------- */

enum json_type json_type(const struct json *v)
{
	return v ? (enum json_type)v->type : JSON_NULL;
}

const char *json_type_name(enum json_type t)
{
	static const char *const names[] = {
		[JSON_NULL] = "null", [JSON_FALSE] = "false", [JSON_TRUE] = "true",
		[JSON_INT] = "an integer", [JSON_DOUBLE] = "a fractional number",
		[JSON_STRING] = "a string", [JSON_ARRAY] = "an array",
		[JSON_OBJECT] = "an object", [JSON_SKIPPED] = "a skipped value",
	};
	return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

const struct json *json_get(const struct json *v, const char *key)
{
	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (const struct json *c = v->u.first; c; c = c->next)
		if (c->key[0] == key[0] && !strcmp(c->key, key))
			return c;
	return NULL;
}

const struct json *json_first(const struct json *v)
{
	return v && (v->type == JSON_ARRAY || v->type == JSON_OBJECT) ? v->u.first : NULL;
}

const struct json *json_next(const struct json *v)
{
	return v ? v->next : NULL;
}

const char *json_key(const struct json *v)
{
	return v ? v->key : NULL;
}

size_t json_len(const struct json *v)
{
	return v && (v->type == JSON_ARRAY || v->type == JSON_OBJECT || v->type == JSON_STRING)
		       ? v->n : 0;
}

bool json_int(const struct json *v, int64_t *out)
{
	if (!v || v->type != JSON_INT)
		return false;
	*out = v->u.i;
	return true;
}

bool json_num(const struct json *v, double *out)
{
	if (!v || (v->type != JSON_INT && v->type != JSON_DOUBLE))
		return false;
	*out = v->type == JSON_INT ? (double)v->u.i : v->u.d;
	return true;
}

bool json_bool(const struct json *v, bool *out)
{
	if (!v || (v->type != JSON_TRUE && v->type != JSON_FALSE))
		return false;
	*out = v->type == JSON_TRUE;
	return true;
}

const char *json_str(const struct json *v)
{
	return v && v->type == JSON_STRING ? v->u.s : NULL;
}

int64_t json_col(const struct json_parser *p, const struct json *v)
{
	if (!v)
		return 0;
	if (v->key)
		return (int64_t)(v->key - p->text); /* the quote before it, 1-based */
	if (v->type == JSON_STRING)
		return (int64_t)(v->u.s - p->text);
	return 0;
}
