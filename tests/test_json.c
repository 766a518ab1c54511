/* test_json.c - the one-line JSON parser (input/json.h) that the Spark
 * event log reader (input/sparklog.h, test_sparklog.c) reads each line
 * with: values and their columns, numbers, strings and escapes, nesting,
 * every error at its exact column (text that is not UTF-8 among them),
 * skipped keys, one parser reused and its cap of values. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "test.h"

/* Parse a copy of text (the parse writes into it) kept in buf. */
static const struct json *parse(struct json_parser *p, char *buf, size_t cap, const char *text,
				struct json_err *e)
{
	size_t n = strlen(text);
	CU_ASSERT_FATAL(n < cap);
	memcpy(buf, text, n + 1);
	return json_parse(p, buf, n, e);
}

static void json_values(void)
{
	struct json_parser *p = json_new();
	struct json_err e;
	char buf[512];
	const struct json *v = parse(p, buf, sizeof buf,
		" {\"a\":1, \"b\" : -2.5,\"c\":\"x\",\"d\":true,\"e\":false,\"f\":null,"
		"\"g\":[1,[2],{}],\"h\":{},\"a\":7}\t", &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_EQUAL(json_type(v), JSON_OBJECT);
	CU_ASSERT_EQUAL(json_len(v), 9);
	int64_t i = 0;
	double d = 0;
	bool b = false;
	CU_ASSERT_TRUE(json_int(json_get(v, "a"), &i));
	CU_ASSERT_EQUAL(i, 1); /* the first of two "a" */
	CU_ASSERT_FALSE(json_int(json_get(v, "b"), &i));
	CU_ASSERT_TRUE(json_num(json_get(v, "b"), &d));
	CU_ASSERT_EQUAL(d, -2.5);
	CU_ASSERT_TRUE(json_num(json_get(v, "a"), &d));
	CU_ASSERT_EQUAL(d, 1.0);
	CU_ASSERT_STRING_EQUAL(json_str(json_get(v, "c")), "x");
	CU_ASSERT_EQUAL(json_len(json_get(v, "c")), 1);
	CU_ASSERT_TRUE(json_bool(json_get(v, "d"), &b));
	CU_ASSERT_TRUE(b);
	CU_ASSERT_TRUE(json_bool(json_get(v, "e"), &b));
	CU_ASSERT_FALSE(b);
	CU_ASSERT_EQUAL(json_type(json_get(v, "f")), JSON_NULL);
	CU_ASSERT_PTR_NOT_NULL(json_get(v, "f"));
	CU_ASSERT_PTR_NULL(json_get(v, "zz"));
	CU_ASSERT_PTR_NULL(json_get(json_get(v, "g"), "a")); /* not an object */
	CU_ASSERT_PTR_NULL(json_str(json_get(v, "a")));
	const struct json *g = json_get(v, "g");
	CU_ASSERT_EQUAL(json_type(g), JSON_ARRAY);
	CU_ASSERT_EQUAL(json_len(g), 3);
	const struct json *g0 = json_first(g), *g1 = json_next(g0), *g2 = json_next(g1);
	CU_ASSERT_TRUE(json_int(g0, &i));
	CU_ASSERT_EQUAL(i, 1);
	CU_ASSERT_PTR_NULL(json_key(g0));
	CU_ASSERT_EQUAL(json_len(g1), 1);
	CU_ASSERT_TRUE(json_int(json_first(g1), &i));
	CU_ASSERT_EQUAL(i, 2);
	CU_ASSERT_EQUAL(json_type(g2), JSON_OBJECT);
	CU_ASSERT_EQUAL(json_len(g2), 0);
	CU_ASSERT_PTR_NULL(json_first(g2));
	CU_ASSERT_PTR_NULL(json_next(g2));
	/* members in order, with keys */
	const char *keys[] = {"a", "b", "c", "d", "e", "f", "g", "h", "a"};
	int k = 0;
	for (const struct json *m = json_first(v); m && k < 9; m = json_next(m), k++)
		CU_ASSERT_STRING_EQUAL(json_key(m), keys[k]);
	CU_ASSERT_EQUAL(k, 9);
	/* columns: a member's key quote, a string's quote */
	CU_ASSERT_EQUAL(json_col(p, json_get(v, "a")), 3);
	CU_ASSERT_EQUAL(json_col(p, json_get(v, "b")), 10);
	CU_ASSERT_EQUAL(json_col(p, json_first(g)), 0);
	/* a scalar alone, and a NULL value's type */
	v = parse(p, buf, sizeof buf, "\"only\"", &e);
	CU_ASSERT_STRING_EQUAL(json_str(v), "only");
	CU_ASSERT_EQUAL(json_col(p, v), 1);
	CU_ASSERT_EQUAL(json_type(NULL), JSON_NULL);
	CU_ASSERT_EQUAL(json_len(NULL), 0);
	json_free(p);
}

static void json_numbers(void)
{
	static const struct {
		const char *text;
		enum json_type t;
		int64_t i;
		double d;
	} cases[] = {
		{"0", JSON_INT, 0, 0},
		{"-0", JSON_INT, 0, 0},
		{"123456789012345678", JSON_INT, 123456789012345678, 0},
		{"9223372036854775807", JSON_INT, INT64_MAX, 0},
		{"-9223372036854775808", JSON_INT, INT64_MIN, 0},
		{"9223372036854775808", JSON_DOUBLE, 0, 9223372036854775808.0},
		{"-9223372036854775809", JSON_DOUBLE, 0, -9223372036854775808.0},
		{"12345678901234567890123", JSON_DOUBLE, 0, 1.2345678901234567890123e22},
		{"1.0", JSON_DOUBLE, 0, 1.0},
		{"0.0625", JSON_DOUBLE, 0, 0.0625},
		{"1e3", JSON_DOUBLE, 0, 1000.0},
		{"-1.5E-2", JSON_DOUBLE, 0, -0.015},
		{"2e+1", JSON_DOUBLE, 0, 20.0},
	};
	struct json_parser *p = json_new();
	struct json_err e;
	char buf[64];
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		const struct json *v = parse(p, buf, sizeof buf, cases[c].text, &e);
		CU_ASSERT_PTR_NOT_NULL_FATAL(v);
		CU_ASSERT_EQUAL(json_type(v), cases[c].t);
		int64_t i = -1;
		double d = -1;
		if (cases[c].t == JSON_INT) {
			CU_ASSERT_TRUE(json_int(v, &i));
			CU_ASSERT_EQUAL(i, cases[c].i);
		} else {
			CU_ASSERT_FALSE(json_int(v, &i));
			CU_ASSERT_TRUE(json_num(v, &d));
			CU_ASSERT_EQUAL(d, cases[c].d);
		}
		if (json_type(v) != cases[c].t)
			fprintf(stderr, "\n  %s: type %d\n", cases[c].text, json_type(v));
	}
	json_free(p);
}

static void json_strings(void)
{
	static const struct {
		const char *text;  /* a JSON string */
		const char *bytes; /* its decoded bytes */
		size_t len;
	} cases[] = {
		{"\"plain\"", "plain", 5},
		{"\"\"", "", 0},
		{"\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\"", "a\"b\\c/d\be\ff\ng\rh\ti", 17},
		{"\"\\u0041\\u00e9\\u20AC\"", "A\xc3\xa9\xe2\x82\xac", 6},       /* 1, 2, 3 bytes */
		{"\"\\ud83d\\ude00!\"", "\xf0\x9f\x98\x80!", 5},                    /* a pair: U+1F600 */
		{"\"\\udbff\\udfff\"", "\xf4\x8f\xbf\xbf", 4},                     /* U+10FFFF, the last */
		{"\"a\\u0000b\"", "a\0b", 3},                                        /* a value may */
		{"\"\xc3\xa9 raw\"", "\xc3\xa9 raw", 6},                             /* UTF-8 as it is */
		{"\"\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\xed\x9f\xbf\xee\x80\x80\"",
		 "\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\xed\x9f\xbf\xee\x80\x80", 17},
		/* (3 and 4 bytes raw, U+10FFFF, U+D7FF and U+E000 either side of
		 * the surrogates) */
	};
	struct json_parser *p = json_new();
	struct json_err e;
	char buf[128];
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		const struct json *v = parse(p, buf, sizeof buf, cases[c].text, &e);
		CU_ASSERT_PTR_NOT_NULL_FATAL(v);
		CU_ASSERT_EQUAL(json_len(v), cases[c].len);
		CU_ASSERT_EQUAL(memcmp(json_str(v), cases[c].bytes, cases[c].len + 1), 0);
		if (json_len(v) != cases[c].len || memcmp(json_str(v), cases[c].bytes, cases[c].len + 1))
			fprintf(stderr, "\n  case %zu: %zu bytes\n", c, json_len(v));
	}
	/* an escaped key is found by its decoded text */
	const struct json *v = parse(p, buf, sizeof buf, "{\"k\\u0065y\\n\":5}", &e);
	int64_t i = 0;
	CU_ASSERT_TRUE(json_int(json_get(v, "key\n"), &i));
	CU_ASSERT_EQUAL(i, 5);
	json_free(p);
}

static void json_nesting(void)
{
	struct json_parser *p = json_new();
	struct json_err e;
	char buf[1024];
	char text[2 * JSON_MAX_DEPTH + 8];
	/* 256 arrays deep: fine */
	memset(text, '[', JSON_MAX_DEPTH);
	memset(text + JSON_MAX_DEPTH, ']', JSON_MAX_DEPTH);
	text[2 * JSON_MAX_DEPTH] = '\0';
	const struct json *v = parse(p, buf, sizeof buf, text, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	int depth = 0;
	for (; v && json_type(v) == JSON_ARRAY; v = json_first(v))
		depth++;
	CU_ASSERT_EQUAL(depth, JSON_MAX_DEPTH);
	/* 257: an error at the 257th bracket */
	memset(text, '[', JSON_MAX_DEPTH + 1);
	memset(text + JSON_MAX_DEPTH + 1, ']', JSON_MAX_DEPTH + 1);
	text[2 * JSON_MAX_DEPTH + 2] = '\0';
	CU_ASSERT_PTR_NULL(parse(p, buf, sizeof buf, text, &e));
	CU_ASSERT_EQUAL(e.col, 257);
	CU_ASSERT_STRING_EQUAL(e.msg, "nesting deeper than 256 arrays and objects");
	/* objects count too: 255 arrays then an object then an array */
	memset(text, '[', JSON_MAX_DEPTH - 1);
	strcpy(text + JSON_MAX_DEPTH - 1, "{\"a\":[]}");
	CU_ASSERT_PTR_NULL(parse(p, buf, sizeof buf, text, &e));
	CU_ASSERT_EQUAL(e.col, 261);
	CU_ASSERT_STRING_EQUAL(e.msg, "nesting deeper than 256 arrays and objects");
	json_free(p);
}

static void json_errors(void)
{
	static const struct {
		const char *text;
		int64_t col;
		const char *msg;
		bool utf8; /* e.utf8: the text is not UTF-8 (RFC 3629) */
	} cases[] = {
		{"", 1, "expected a JSON value, found the end of the text", false},
		{"   ", 4, "expected a JSON value, found the end of the text", false},
		{"{\"a\":1,}", 8, "expected a string key, found '}'", false},
		{"{1:2}", 2, "expected a string key or '}', found '1'", false},
		{"{\"a\" 1}", 6, "expected ':' after an object key, found '1'", false},
		{"{\"a\":1 \"b\":2}", 8, "expected ',' or '}' after an object member, found '\"'",
		 false},
		{"[1,2", 5, "expected ',' or ']' after an array element, found the end of the text",
		 false},
		{"[1,]", 4, "expected a JSON value, found ']'", false},
		{"\"abc", 5, "expected '\"' to close the string at column 1, found the end of the text",
		 false},
		{"[\"ab\\", 6, "expected '\"' to close the string at column 2, found the end of the text",
		 false},
		{"\"a\\qb\"", 3, "invalid escape '\\q' in a string", false},
		{"\"\\u12G4\"", 6, "expected 4 hex digits after '\\u', found 'G'", false},
		{"\"\\u12", 6, "expected 4 hex digits after '\\u', found the end of the text",
		 false},
		{"\"a\tb\"", 3, "unescaped control character 0x09 in a string", false},
		{"01", 1, "a number with a leading zero", false},
		{"[-x]", 3, "expected a digit after '-', found 'x'", false},
		{"1.", 3, "expected a digit after '.', found the end of the text", false},
		{"1.e5", 3, "expected a digit after '.', found 'e'", false},
		{"1e+", 4, "expected a digit in the exponent, found the end of the text", false},
		{"tru", 1, "expected 'true', found 't'", false},
		{"[nul]", 2, "expected 'null', found 'n'", false},
		{"falsy", 1, "expected 'false', found 'f'", false},
		{"truex", 5, "expected the end of the text after the JSON value, found 'x'", false},
		{"{} x", 4, "expected the end of the text after the JSON value, found 'x'", false},
		/* UTF-8, not JSON: */
		{"\xc3\xa9", 1, "expected a JSON value, found byte 0xc3", false},
		/* half a surrogate pair: no character (RFC 8259 §8.2); it was U+FFFD */
		{"\"\\uD800x\"", 2, "'\\uD800' is half a surrogate pair, not a character", false},
		{"\"\\udc00\"", 2, "'\\udc00' is half a surrogate pair, not a character", false},
		{"\"\\ud800\\u0041\"", 2, "'\\ud800' is half a surrogate pair, not a character",
		 false},
		{"[\"\\ud800\\ud800\\udc00\"]", 3, "'\\ud800' is half a surrogate pair, not a "
		 "character", false},
		{"{\"a\\u0000b\":1}", 2, "a key holding '\\u0000' (lookups by key are C strings)",
		 false},
		{"'a'", 1, "expected a JSON value, found '''", false},
		{"+1", 1, "expected a JSON value, found '+'", false},
		/* text that is not UTF-8: at its first such byte, wherever */
		{"\xff", 1, "not UTF-8: byte 0xff (never in UTF-8)", true},
		{"\"a\x80\"", 3, "not UTF-8: byte 0x80 (a continuation byte with no lead byte)",
		 true},
		/* Latin-1: */
		{"\"h\xe9t\"", 3, "not UTF-8: byte 0xe9 (a character cut short)", true},
		{"\"\xc3", 2, "not UTF-8: byte 0xc3 (a character cut short)", true},
		{"\"\xc0\xaf\"", 2, "not UTF-8: byte 0xc0 (an overlong encoding)", true},
		{"\"\xe0\x80\xaf\"", 2, "not UTF-8: byte 0xe0 (an overlong encoding)", true},
		{"\"\xf0\x8f\xbf\xbf\"", 2, "not UTF-8: byte 0xf0 (an overlong encoding)", true},
		{"\"\xed\xa0\x80\"", 2, "not UTF-8: byte 0xed (a UTF-16 surrogate)", true},
		{"\"\xf4\x90\x80\x80\"", 2, "not UTF-8: byte 0xf4 (above U+10FFFF)", true},
		{"\"\xf5\x80\x80\x80\"", 2, "not UTF-8: byte 0xf5 (never in UTF-8)", true},
		{"{\"k\xfe\":1}", 4, "not UTF-8: byte 0xfe (never in UTF-8)", true},
		{"[1, \x80]", 5, "not UTF-8: byte 0x80 (a continuation byte with no lead byte)",
		 true},
		/* UTF-16's mark: */
		{"\xfe\xff[]", 1, "not UTF-8: byte 0xfe (never in UTF-8)", true},
	};
	struct json_parser *p = json_new();
	struct json_err e;
	char buf[128];
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		e.col = -1;
		e.msg[0] = '\0';
		e.utf8 = !cases[c].utf8;
		CU_ASSERT_PTR_NULL(parse(p, buf, sizeof buf, cases[c].text, &e));
		CU_ASSERT_EQUAL(e.col, cases[c].col);
		CU_ASSERT_STRING_EQUAL(e.msg, cases[c].msg);
		CU_ASSERT_EQUAL(e.utf8, cases[c].utf8);
		if (e.col != cases[c].col || strcmp(e.msg, cases[c].msg) || e.utf8 != cases[c].utf8)
			fprintf(stderr, "\n  case %zu: got %lld: %s%s\n", c, (long long)e.col,
				e.msg, e.utf8 ? " (utf8)" : "");
	}
	CU_ASSERT_PTR_NULL(parse(p, buf, sizeof buf, "[1,]", &e)); /* the flag is per parse */
	CU_ASSERT_FALSE(e.utf8);
	/* a NUL inside the text is a byte like another */
	memcpy(buf, "[1,\0]", 6);
	CU_ASSERT_PTR_NULL(json_parse(p, buf, 5, &e));
	CU_ASSERT_EQUAL(e.col, 4);
	CU_ASSERT_STRING_EQUAL(e.msg, "expected a JSON value, found byte 0x00");
	memcpy(buf, "\"a\0b\"", 6);
	CU_ASSERT_PTR_NULL(json_parse(p, buf, 5, &e));
	CU_ASSERT_EQUAL(e.col, 3);
	CU_ASSERT_STRING_EQUAL(e.msg, "unescaped control character 0x00 in a string");
	json_free(p);
}

static void json_skipping(void)
{
	static const char *const skip[] = {"big", "other", NULL};
	struct json_parser *p = json_new();
	json_skip_keys(p, skip);
	struct json_err e;
	char buf[256];
	const struct json *v = parse(p, buf, sizeof buf,
		"{\"big\":{\"x\":[1,2,{\"y\":\"\\u00e9\"}]},\"small\":{\"big\":3,\"n\":4},\"other\":\"s\"}", &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_EQUAL(json_len(v), 3);
	CU_ASSERT_EQUAL(json_type(json_get(v, "big")), JSON_SKIPPED);
	CU_ASSERT_EQUAL(json_type(json_get(v, "other")), JSON_SKIPPED);
	CU_ASSERT_EQUAL(json_type(json_get(json_get(v, "small"), "big")), JSON_SKIPPED); /* any depth */
	int64_t i = 0;
	CU_ASSERT_TRUE(json_int(json_get(json_get(v, "small"), "n"), &i));
	CU_ASSERT_EQUAL(i, 4);
	/* a skipped value is checked all the same */
	CU_ASSERT_PTR_NULL(parse(p, buf, sizeof buf, "{\"big\":[1,{\"a\":\"\\x\"}],\"n\":1}", &e));
	CU_ASSERT_EQUAL(e.col, 17);
	CU_ASSERT_STRING_EQUAL(e.msg, "invalid escape '\\x' in a string");
	CU_ASSERT_PTR_NULL(parse(p, buf, sizeof buf, "{\"big\":[\"\xff\"],\"n\":1}", &e));
	CU_ASSERT_EQUAL(e.col, 10);
	CU_ASSERT_STRING_EQUAL(e.msg, "not UTF-8: byte 0xff (never in UTF-8)");
	CU_ASSERT_PTR_NULL(parse(p, buf, sizeof buf, "{\"big\":[1,}", &e));
	CU_ASSERT_EQUAL(e.col, 11);
	CU_ASSERT_STRING_EQUAL(e.msg, "expected a JSON value, found '}'");
	json_free(p);
}

/* One parser for a long text, then a short one (its blocks kept), then
 * one with more values than JSON_MAX_VALUES. */
static void json_reuse_and_cap(void)
{
	struct json_parser *p = json_new();
	struct json_err e;
	size_t n = (size_t)JSON_MAX_VALUES; /* elements: with the array, one value too many */
	char *text = malloc(2 * n + 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	/* 10^5 elements "[0,1,...]" */
	char *w = text;
	*w++ = '[';
	for (int k = 0; k < 100000; k++)
		w += sprintf(w, "%s%d", k ? "," : "", k);
	*w++ = ']';
	*w = '\0';
	const struct json *v = json_parse(p, text, (size_t)(w - text), &e);
	CU_ASSERT_EQUAL(json_len(v), 100000);
	int64_t sum = 0, x = 0;
	for (const struct json *c = json_first(v); c; c = json_next(c))
		if (json_int(c, &x))
			sum += x;
	CU_ASSERT_EQUAL(sum, (int64_t)99999 * 100000 / 2);
	char small[] = "[7]";
	v = json_parse(p, small, 3, &e);
	CU_ASSERT_TRUE(json_int(json_first(v), &x));
	CU_ASSERT_EQUAL(x, 7);
	/* 2^22 zeros: the array and 2^22 - 1 of them fit, the last does not */
	text[0] = '[';
	for (size_t k = 0; k < n; k++) {
		text[1 + 2 * k] = '0';
		text[2 + 2 * k] = ',';
	}
	text[2 * n] = ']';
	text[2 * n + 1] = '\0';
	CU_ASSERT_PTR_NULL(json_parse(p, text, 2 * n + 1, &e));
	CU_ASSERT_EQUAL(e.col, 2 * (int64_t)n);
	CU_ASSERT_STRING_EQUAL(e.msg, "more than 4194304 values in one text");
	free(text);
	json_free(p);
}

int test_suite_json(void)
{
	TEST_SUITE("json",
		   {"json: values, lookups, iteration, columns", json_values},
		   {"json: numbers as int64 where integral, else double", json_numbers},
		   {"json: escapes, \\u, surrogate pairs, lone surrogates", json_strings},
		   {"json: nesting up to 256, deeper an error", json_nesting},
		   {"json: errors with their exact column", json_errors},
		   {"json: skipped keys are checked, not built", json_skipping},
		   {"json: one parser reused; the value cap", json_reuse_and_cap});
	return 0;
}
