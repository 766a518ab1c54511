/* json.h - a JSON parser for one line of text at a time (json_ prefix),
 * for JSON-lines formats such as Spark event logs.
 *
 * A parser turns one text (RFC 8259: one value, whitespace around it)
 * into a tree of values held in the parser's arena; the next parse, or
 * json_free, drops the tree, and after a few lines no parse allocates.
 * The text is parsed in place: strings are decoded (escapes, \uXXXX and
 * surrogate pairs to UTF-8) into the text's own bytes and NUL-
 * terminated there, so the caller's buffer must be writable and is
 * changed.  Strings and keys point into it: the tree is valid while
 * both the buffer and the parse last.
 *
 * Text that is not UTF-8 (RFC 8259 §8.1; input/utf8.h: an overlong
 * form, a surrogate, a byte never in UTF-8, a character cut short) is
 * an error at its first such byte (json_err.utf8 set).  An unpaired
 * surrogate escape ("\uD800" alone, "\uDC00"), which the grammar allows
 * but which is no character (§8.2), is an error too, and so is a key
 * holding "\u0000", which json_get could not tell from the key before
 * it; a string value may hold one (json_len counts past it, json_str's
 * C string ends there: a caller that reads it as text checks).
 *
 * Numbers: an integer (no fraction, no exponent) that fits in int64 is
 * JSON_INT; any other number is JSON_DOUBLE (strtod's nearest double;
 * an integer beyond int64 too).  Nesting deeper than JSON_MAX_DEPTH
 * arrays and objects, or more than JSON_MAX_VALUES values in one text,
 * is an error rather than a reason to use unbounded stack or memory.
 * A key that occurs twice in an object is kept twice; json_get finds
 * the first.
 *
 * Values a caller does not need can be skipped: keys given to
 * json_skip_keys are checked to be valid JSON as everything else is,
 * but their values are not built (json_get finds such a member, its
 * value is JSON_SKIPPED).  A Spark task end is mostly accumulators that
 * a scheduler simulator never reads.
 */
#ifndef HETSIM_JSON_H
#define HETSIM_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 256
#define JSON_MAX_VALUES ((int64_t)1 << 22)

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_INT,      /* integral, fits in int64 */
	JSON_DOUBLE,   /* any other number */
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
	JSON_SKIPPED,  /* the value of a key given to json_skip_keys: valid, not built */
};

struct json;        /* a value in a tree (json.c) */
struct json_parser; /* the arena and options (json.c) */

/* Where a parse failed: the 1-based byte column in the text, and what
 * was expected ("expected ',' or '}' after an object member, found
 * 'x'"). */
struct json_err {
	int64_t col;
	char msg[160];
	bool utf8;     /* the error is a byte that is not UTF-8 ("not UTF-8:
			  byte 0xff (never in UTF-8)"), at col */
};

/* A parser, owned by the caller (free with json_free, which drops the
 * last tree too). */
struct json_parser *json_new(void);
void json_free(struct json_parser *p);

/* Values of members with these keys (NULL-terminated list, borrowed:
 * it must outlive the parser) are validated but not built. */
void json_skip_keys(struct json_parser *p, const char *const *keys);

/* Parse text[0 .. len), which must have a NUL at text[len] (zr_line's
 * lines do) and is decoded in place.  Returns the root value, valid
 * until the next parse with p or json_free(p); on error returns NULL
 * and fills *e.  Either way the previous tree is dropped. */
const struct json *json_parse(struct json_parser *p, char *text, size_t len,
			      struct json_err *e);

/* The type of v; JSON_NULL for a NULL v (a member that is not there),
 * so that lookups chain: json_type(json_get(v, "a")). */
enum json_type json_type(const struct json *v);
/* The type as a word for messages ("an integer", "a string", ...). */
const char *json_type_name(enum json_type t);

/* The value of member `key` of object v (the first one if repeated);
 * NULL if v is NULL, not an object, or has no such key.  O(members). */
const struct json *json_get(const struct json *v, const char *key);

/* An array's elements or an object's members, in order: the first
 * (NULL if empty or not a container) and the one after v (NULL at the
 * end).  A member's key: json_key (NULL for an array element). */
const struct json *json_first(const struct json *v);
const struct json *json_next(const struct json *v);
const char *json_key(const struct json *v);
/* Elements or members of a container; a string's length in bytes
 * (decoded); 0 otherwise. */
size_t json_len(const struct json *v);

/* Typed reads: true and *out set when v has that type, else false and
 * *out untouched.  json_num takes JSON_INT and JSON_DOUBLE; json_bool
 * JSON_TRUE and JSON_FALSE. */
bool json_int(const struct json *v, int64_t *out);
bool json_num(const struct json *v, double *out);
bool json_bool(const struct json *v, bool *out);
/* A string's decoded bytes (NUL-terminated; a "\u0000" escape ends it
 * early for C but not for json_len), or NULL if v is not a string. */
const char *json_str(const struct json *v);

/* The 1-based column, in the text p parsed last, of v's member key (its
 * opening quote) if v is an object member, else of v itself if it is a
 * string (its opening quote), else 0: for messages that point at a
 * value. */
int64_t json_col(const struct json_parser *p, const struct json *v);

#endif
