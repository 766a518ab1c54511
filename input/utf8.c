/* utf8.c - UTF-8 checks (utf8.h): RFC 3629's table of well-formed byte
 * sequences, the second byte's range narrowed after E0, ED, F0 and F4. */
#include "utf8.h"

#include <stdbool.h>

static bool cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

int utf8_char(const char *s, size_t n, const char **why)
{
	const char *w = NULL;
	const unsigned char *u = (const unsigned char *)s;
	unsigned char c = u[0];
	int len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
		: c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (!len)
		w = c < 0xc0 ? "a continuation byte with no lead byte"
		  : c < 0xc2 ? "an overlong encoding" : "never in UTF-8";
	for (int k = 1; !w && k < len; k++)
		if ((size_t)k >= n || !cont(u[k]))
			w = "a character cut short";
	if (!w && len >= 3) { /* the second byte's range (RFC 3629 §4) */
		unsigned char d = u[1];
		if ((c == 0xe0 && d < 0xa0) || (c == 0xf0 && d < 0x90))
			w = "an overlong encoding";
		else if (c == 0xed && d >= 0xa0)
			w = "a UTF-16 surrogate";
		else if (c == 0xf4 && d >= 0x90)
			w = "above U+10FFFF";
	}
	if (w) {
		if (why)
			*why = w;
		return 0;
	}
	return len;
}

size_t utf8_check(const char *s, size_t n, const char **why)
{
	size_t i = 0;
	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		int k = utf8_char(s + i, n - i, why);
		if (!k)
			return i;
		i += (size_t)k;
	}
	return n;
}
