/* utf8.h - UTF-8 as RFC 3629 defines it (utf8_ prefix), for the readers
 * that must refuse text that is not: JSON (RFC 8259 §8.1: JSON text
 * exchanged between systems is UTF-8) and the values shown in messages.
 *
 * A character is 1 to 4 bytes: no overlong form (C0 80 for U+0000), no
 * UTF-16 surrogate (ED A0 80 .. ED BF BF), nothing above U+10FFFF.
 *
 * Module: input/.  Includes nothing of hetsim's.
 */
#ifndef HETSIM_INPUT_UTF8_H
#define HETSIM_INPUT_UTF8_H

#include <stddef.h>

/* The length of the UTF-8 character at s[0 .. n) (n >= 1): 1 to 4; or 0
 * when the bytes there are not one, with the reason in *why (a phrase
 * for a message: "never in UTF-8", "an overlong encoding", ...) when why
 * is not NULL. */
int utf8_char(const char *s, size_t n, const char **why);

/* The offset of the first byte of s[0 .. n) that does not begin a UTF-8
 * character, or n when all of it is UTF-8; *why as utf8_char's. */
size_t utf8_check(const char *s, size_t n, const char **why);

#endif
