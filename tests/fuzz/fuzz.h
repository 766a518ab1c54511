/* fuzz.h - what the libFuzzer harnesses share (tests/fuzz/README.md).
 *
 * Each harness writes its input to one file of its own (the readers take
 * paths), calls one reader, and checks the error contract: a reader that
 * refuses its input writes exactly one line, "FILE:LINE:COL: message",
 * FILE the path it was given, no newline.  A breach aborts, so libFuzzer
 * records the input as a crash. */
#ifndef HETSIM_FUZZ_H
#define HETSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The harness's file, holding data[0 .. size) (rewritten each call);
 * `ext` ends its name (".yaml", ".csv", "" ...). */
const char *fuzz_file(const uint8_t *data, size_t size, const char *ext);

/* Abort unless err is one line "path:LINE:COL: message" (LINE, COL
 * decimal), one position only; or the same at another file the input
 * named that is there to be read (a trace a scenario reads, at its own
 * line).  `who` names the reader in the message. */
void fuzz_check_error(const char *who, const char *path, const char *err);

#endif
