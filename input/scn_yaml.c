/* scn_yaml.c - libyaml events to a positioned node tree (see scn_yaml.h). */
#include "scn_yaml.h"

#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

struct builder {
	const char *path;
	char *err;
	size_t errlen;
	struct yn *root;
	struct yn **stack;  /* open collections, innermost last */
	int depth, cap;
	int ndocs;
};

static int fail_at(struct builder *b, int line, int col, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (b->errlen)
		snprintf(b->err, b->errlen, "%s:%d:%d: %s", b->path, line, col, msg);
	return -1;
}

void yn_free(struct yn *n)
{
	if (!n)
		return;
	for (int i = 0; i < n->nkids; i++)
		yn_free(n->kids[i]);
	free(n->kids);
	free(n->str);
	free(n);
}

static struct yn *new_node(enum yn_kind kind, const yaml_mark_t *m)
{
	struct yn *n = xcalloc(1, sizeof *n);
	n->kind = kind;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	return n;
}

static void append(struct yn *parent, struct yn *kid)
{
	/* Doubling: a list of arrival times can be long. */
	xgrow(&parent->kids, &parent->cap, parent->nkids + 1, sizeof *parent->kids);
	parent->kids[parent->nkids++] = kid;
}

/* Hang `n` under the innermost open collection (or make it the root).
 * Takes ownership of `n` in all cases. */
static int attach(struct builder *b, struct yn *n)
{
	if (b->depth == 0) {
		b->root = n;
		return 0;
	}
	struct yn *p = b->stack[b->depth - 1];
	if (p->kind == YN_MAP && p->nkids % 2 == 0) { /* n is a key */
		int line = n->line, col = n->col;
		if (n->kind != YN_SCALAR) {
			yn_free(n);
			return fail_at(b, line, col, "mapping keys must be plain scalars");
		}
		if (strcmp(n->str, "<<") == 0) {
			yn_free(n);
			return fail_at(b, line, col, "merge keys (<<) are not supported; write the keys out");
		}
		if (p->nkids / 2 == YN_MAX_KEYS) {
			yn_free(n);
			return fail_at(b, line, col, "too many keys in one mapping (at most %d)",
				       YN_MAX_KEYS);
		}
		for (int i = 0; i < p->nkids; i += 2)
			if (strcmp(p->kids[i]->str, n->str) == 0) {
				int first = p->kids[i]->line;
				char key[128];
				snprintf(key, sizeof key, "%s", n->str);
				yn_free(n);
				return fail_at(b, line, col, "duplicate key '%s' (first at line %d)", key, first);
			}
	}
	append(p, n);
	return 0;
}

static int on_scalar(struct builder *b, const yaml_event_t *ev)
{
	const unsigned char *v = ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	if (memchr(v, '\0', len))
		return fail_at(b, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
			       "NUL character in a scalar");
	struct yn *n = new_node(YN_SCALAR, &ev->start_mark);
	n->str = xmalloc(len + 1);
	memcpy(n->str, v, len);
	n->str[len] = '\0';
	return attach(b, n);
}

static int on_open(struct builder *b, enum yn_kind kind, const yaml_event_t *ev)
{
	if (b->depth == YN_MAX_DEPTH)
		return fail_at(b, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
			       "nested too deeply (at most %d levels of lists and mappings)",
			       YN_MAX_DEPTH);
	struct yn *n = new_node(kind, &ev->start_mark);
	if (attach(b, n) < 0)
		return -1;
	xgrow(&b->stack, &b->cap, b->depth + 1, sizeof *b->stack);
	b->stack[b->depth++] = n;
	return 0;
}

/* Where byte `off` of the input is, 1-based, the column in characters
 * (UTF-8 sequences count one): libyaml gives a reader error (invalid
 * UTF-8, a control character) as a byte offset, its marks lagging behind
 * at the scanner's place, often 1:1. */
static yaml_mark_t offset_mark(FILE *f, const char *text, size_t off)
{
	yaml_mark_t m = {0};
	if (f && fseek(f, 0, SEEK_SET))
		return m;
	for (size_t i = 0; i < off; i++) {
		int c = f ? getc(f) : (unsigned char)text[i];
		if (c == EOF || c == 0)
			break;
		if (c == '\n')
			m.line++, m.column = 0;
		else if ((c & 0xc0) != 0x80) /* not a continuation byte */
			m.column++;
	}
	return m;
}

static int syntax_error(struct builder *b, const yaml_parser_t *p, FILE *f, const char *text)
{
	if (p->error == YAML_MEMORY_ERROR) {
		fprintf(stderr, "hetsim: out of memory in libyaml\n");
		abort();
	}
	yaml_mark_t at = p->error == YAML_READER_ERROR ? offset_mark(f, text, p->problem_offset)
						      : p->problem_mark;
	const yaml_mark_t *m = &at;
	const char *problem = p->problem ? p->problem : "invalid YAML";
	if (p->context)
		return fail_at(b, (int)m->line + 1, (int)m->column + 1, "%s (%s at line %d)", problem,
			       p->context, (int)p->context_mark.line + 1);
	return fail_at(b, (int)m->line + 1, (int)m->column + 1, "%s", problem);
}

/* One event; returns 1 at the end of the stream, 0 to go on, -1 on error. */
static int on_event(struct builder *b, const yaml_event_t *ev)
{
	int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;
	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_DOCUMENT_START_EVENT:
		if (++b->ndocs > 1)
			return fail_at(b, line, col, "a scenario file holds a single YAML document");
		return 0;
	case YAML_ALIAS_EVENT:
		return fail_at(b, line, col, "aliases (*%s) are not supported; write the value out",
			       (const char *)ev->data.alias.anchor);
	case YAML_SCALAR_EVENT:
		return on_scalar(b, ev);
	case YAML_SEQUENCE_START_EVENT:
		return on_open(b, YN_SEQ, ev);
	case YAML_MAPPING_START_EVENT:
		return on_open(b, YN_MAP, ev);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		b->depth--;
		return 0;
	default: /* stream start, document end, no event */
		return 0;
	}
}

/* Parse from f, or from `text` when f is NULL. */
static int build(struct builder *b, FILE *f, const char *text)
{
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) {
		fprintf(stderr, "hetsim: out of memory in libyaml\n");
		abort();
	}
	if (f)
		yaml_parser_set_input_file(&p, f);
	else
		yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
	int r = 0;
	while (r == 0) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			r = syntax_error(b, &p, f, text);
			break;
		}
		r = on_event(b, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return r < 0 ? -1 : 0;
}

/* The tree once build() returned r. */
static struct yn *finish(struct builder *b, int r)
{
	free(b->stack);
	if (r < 0) {
		yn_free(b->root);
		return NULL;
	}
	if (!b->root) {
		fail_at(b, 1, 1, "empty file");
		return NULL;
	}
	return b->root;
}

/* Standard input, whole, as a string (at most YN_MAX_STDIN bytes); NULL
 * and *why if it cannot be read or is longer. */
#define YN_MAX_STDIN (64L << 20)
static char *read_stdin(const char **why)
{
	size_t len = 0, cap = 65536, n;
	char *t = xmalloc(cap);
	while ((n = fread(t + len, 1, cap - 1 - len, stdin)) > 0) {
		len += n;
		if (len > (size_t)YN_MAX_STDIN) {
			free(t);
			*why = "standard input holds more than 64 MiB";
			return NULL;
		}
		if (len == cap - 1)
			t = xrealloc(t, cap *= 2);
	}
	if (ferror(stdin)) {
		free(t);
		*why = strerror(errno);
		return NULL;
	}
	t[len] = 0;
	if (strlen(t) != len) {
		free(t);
		*why = "a NUL byte on standard input";
		return NULL;
	}
	return t;
}

struct yn *yn_load(const char *path, char *err, size_t errlen)
{
	struct builder b = {.path = path, .err = err, .errlen = errlen};
	const char *why;
	if (!strcmp(path, "-")) { /* the scenario on standard input */
		char *text = read_stdin(&why);
		if (!text) {
			fail_at(&b, 0, 0, "cannot read: %s", why);
			return NULL;
		}
		struct yn *root = finish(&b, build(&b, NULL, text));
		free(text);
		return root;
	}
	FILE *f = fopen_regular(path, &why);
	if (!f) {
		fail_at(&b, 0, 0, "cannot open: %s", why);
		return NULL;
	}
	int r = build(&b, f, NULL);
	fclose(f);
	return finish(&b, r);
}

struct yn *yn_load_text(const char *name, const char *text, char *err, size_t errlen)
{
	struct builder b = {.path = name, .err = err, .errlen = errlen};
	return finish(&b, build(&b, NULL, text));
}

const struct yn *yn_get(const struct yn *map, const char *key)
{
	if (!map || map->kind != YN_MAP)
		return NULL;
	for (int i = 0; i < map->nkids; i += 2)
		if (strcmp(map->kids[i]->str, key) == 0)
			return map->kids[i + 1];
	return NULL;
}

const char *yn_kind_name(const struct yn *n)
{
	switch (n->kind) {
	case YN_MAP:
		return "a mapping";
	case YN_SEQ:
		return "a list";
	default:
		return "a scalar";
	}
}
