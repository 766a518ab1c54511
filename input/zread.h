/* zread.h - read a text file line by line, plain or zstd-compressed
 * (zr_ prefix), for the trace importers.
 *
 * A trace can be larger than memory, so nothing reads a whole file: the
 * reader holds one buffer of decompressed bytes and one line.  A file
 * that starts with the zstd frame magic (28 b5 2f fd) is decompressed
 * as it is read (libzstd's streaming API: Spark writes event logs so
 * with spark.eventLog.compression.codec=zstd); any other file is read
 * as it is.  Lines end at '\n'; a '\r' before it is dropped.
 */
#ifndef HETSIM_ZREAD_H
#define HETSIM_ZREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct zr;

/* Open `path` (a regular file: fopen_regular).  Returns NULL with
 * "path:0:0: cannot open: reason" in err on error. */
struct zr *zr_open(const char *path, char *err, size_t errlen);
void zr_close(struct zr *z);

/* The next line, without its end, NUL-terminated (valid until the next
 * call; the reader may write into it, as a tokenizer does), its length
 * in *len.  Returns 1 with a line, 0 at the end of the file, -1 on a read
 * or decompression error (message in err: "path:line: reason").  A NUL
 * byte inside a line is an error: no text format here has one. */
int zr_line(struct zr *z, char **line, size_t *len, char *err, size_t errlen);
/* A zr error of the file `path` ("path:LINE:COL: reason", or "path:
 * reason"), taken apart: its reason, with *line and *col set where the
 * error names them (left as they are otherwise).  What an importer
 * re-raises at its own position. */
const char *zr_error_at(const char *err, const char *path, int64_t *line, int *col);

/* The number of the line last returned, 1-based. */
int64_t zr_lineno(const struct zr *z);
/* The offset in the text (0-based; of the decompressed text for a zstd
 * file) of the first byte of the line last returned: a message's "at
 * byte N of the file". */
int64_t zr_offset(const struct zr *z);
/* Whether the file is zstd-compressed. */
bool zr_compressed(const struct zr *z);
/* The first bytes of the file's text (decompressed), up to n, without
 * consuming them: for detecting a format.  Returns how many. */
size_t zr_peek(struct zr *z, char *buf, size_t n);

#endif
