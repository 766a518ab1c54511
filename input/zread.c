/* zread.c - line reader for plain and zstd-compressed text (zread.h). */
#include "zread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "util.h"

/* A line longer than this is an error, not a reason to take all memory:
 * the longest lines of real event logs (an environment update, a SQL
 * plan) are a few MiB. */
#define ZR_MAX_LINE ((size_t)256 << 20)

struct zr {
	FILE *f;
	char *path;
	ZSTD_DCtx *dctx;        /* NULL: plain text */
	unsigned char *in;      /* compressed bytes read, not yet decompressed */
	size_t in_cap;
	ZSTD_inBuffer zin;
	char *out;              /* text ready: out[pos .. end) */
	size_t out_cap, pos, end;
	bool eof;               /* nothing more to read from f */
	size_t frame_left;      /* ZSTD_decompressStream's hint: 0 at a frame's end */
	char *line;
	size_t line_cap;
	int64_t lineno;
	int64_t base;           /* the text's offset of out[0] */
	int64_t line_off;       /* ... and of the last line returned */
};

static const unsigned char zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

struct zr *zr_open(const char *path, char *err, size_t errlen)
{
	const char *why;
	FILE *f = fopen_regular(path, &why);
	if (!f) {
		snprintf(err, errlen, "%s:0:0: cannot open: %s", path, why);
		return NULL;
	}
	struct zr *z = xcalloc(1, sizeof *z);
	z->f = f;
	z->path = xstrdup(path);
	z->out_cap = (size_t)1 << 17;
	z->out = xmalloc(z->out_cap);
	unsigned char head[4];
	size_t n = fread(head, 1, sizeof head, f);
	if (n == sizeof head && !memcmp(head, zstd_magic, 4)) {
		z->dctx = ZSTD_createDCtx();
		if (!z->dctx) {
			snprintf(err, errlen, "%s:0:0: cannot create a zstd context", path);
			zr_close(z);
			return NULL;
		}
		z->in_cap = ZSTD_DStreamInSize();
		z->in = xmalloc(z->in_cap);
		memcpy(z->in, head, n);
		z->zin = (ZSTD_inBuffer){z->in, n, 0};
		z->frame_left = 1;
	} else {
		memcpy(z->out, head, n);
		z->end = n;
	}
	return z;
}

void zr_close(struct zr *z)
{
	if (!z)
		return;
	if (z->f)
		fclose(z->f);
	ZSTD_freeDCtx(z->dctx);
	free(z->in);
	free(z->out);
	free(z->line);
	free(z->path);
	free(z);
}

/* Make more text ready after out[end): returns bytes added, 0 at the end
 * of the file, -1 on error.  Ready text is first moved to the buffer's
 * start. */
static long fill(struct zr *z, char *err, size_t errlen)
{
	if (z->pos) {
		memmove(z->out, z->out + z->pos, z->end - z->pos);
		z->end -= z->pos;
		z->base += (int64_t)z->pos;
		z->pos = 0;
	}
	if (z->end == z->out_cap) {
		z->out_cap *= 2;
		z->out = xrealloc(z->out, z->out_cap);
	}
	if (!z->dctx) {
		if (z->eof)
			return 0;
		size_t n = fread(z->out + z->end, 1, z->out_cap - z->end, z->f);
		if (n == 0) {
			if (ferror(z->f)) {
				snprintf(err, errlen, "%s:%lld:1: read error: %s", z->path,
					 (long long)z->lineno + 1, strerror(errno));
				return -1;
			}
			z->eof = true;
		}
		z->end += n;
		return (long)n;
	}
	for (;;) {
		if (z->zin.pos == z->zin.size && !z->eof) {
			size_t n = fread(z->in, 1, z->in_cap, z->f);
			if (n == 0) {
				if (ferror(z->f)) {
					snprintf(err, errlen, "%s:%lld:1: read error: %s", z->path,
						 (long long)z->lineno + 1, strerror(errno));
					return -1;
				}
				z->eof = true;
			}
			z->zin = (ZSTD_inBuffer){z->in, n, 0};
		}
		if (z->zin.pos == z->zin.size && z->eof) {
			if (z->frame_left) {
				snprintf(err, errlen, "%s:%lld:1: truncated zstd stream", z->path,
					 (long long)z->lineno + 1);
				return -1;
			}
			return 0;
		}
		ZSTD_outBuffer zout = {z->out + z->end, z->out_cap - z->end, 0};
		size_t r = ZSTD_decompressStream(z->dctx, &zout, &z->zin);
		if (ZSTD_isError(r)) {
			snprintf(err, errlen, "%s:%lld:1: zstd: %s", z->path, (long long)z->lineno + 1,
				 ZSTD_getErrorName(r));
			return -1;
		}
		z->frame_left = r;
		z->end += zout.pos;
		if (zout.pos)
			return (long)zout.pos;
	}
}

const char *zr_error_at(const char *err, const char *path, int64_t *line, int *col)
{
	size_t n = strlen(path);
	if (strncmp(err, path, n) || err[n] != ':')
		return err;
	const char *p = err + n + 1;
	if (*p >= '0' && *p <= '9') {
		char *e;
		*line = strtoll(p, &e, 10);
		p = e + (*e == ':');
		if (*p >= '0' && *p <= '9') {
			*col = (int)strtol(p, &e, 10);
			p = e + (*e == ':');
		}
	}
	return p + (*p == ' ');
}

int zr_line(struct zr *z, char **line, size_t *len, char *err, size_t errlen)
{
	size_t scanned = z->pos;
	for (;;) {
		char *nl = memchr(z->out + scanned, '\n', z->end - scanned);
		if (nl) {
			size_t n = (size_t)(nl - (z->out + z->pos));
			size_t keep = n && z->out[z->pos + n - 1] == '\r' ? n - 1 : n;
			if (keep + 1 > z->line_cap) {
				z->line_cap = keep + 1 > 256 ? keep + 1 : 256;
				z->line = xrealloc(z->line, z->line_cap);
			}
			memcpy(z->line, z->out + z->pos, keep);
			z->line[keep] = 0;
			z->line_off = z->base + (int64_t)z->pos;
			z->pos += n + 1;
			z->lineno++;
			const char *nul = memchr(z->line, 0, keep);
			if (nul) {
				snprintf(err, errlen, "%s:%lld:%d: a NUL byte in the text (not a text "
					 "file?)", z->path, (long long)z->lineno,
					 (int)(nul - z->line) + 1);
				return -1;
			}
			*line = z->line;
			*len = keep;
			return 1;
		}
		if (z->end - z->pos > ZR_MAX_LINE) {
			snprintf(err, errlen, "%s:%lld:1: a line longer than %zu MiB", z->path,
				 (long long)z->lineno + 1, ZR_MAX_LINE >> 20);
			return -1;
		}
		size_t before = z->end - z->pos;
		long got = fill(z, err, errlen);
		if (got < 0)
			return -1;
		scanned = z->pos + before;
		if (got == 0) { /* the end: a last line without '\n' */
			if (z->end == z->pos)
				return 0;
			if (z->end == z->out_cap) {
				z->out_cap *= 2;
				z->out = xrealloc(z->out, z->out_cap);
			}
			z->out[z->end++] = '\n';
		}
	}
}

int64_t zr_lineno(const struct zr *z)
{
	return z->lineno;
}

int64_t zr_offset(const struct zr *z)
{
	return z->line_off;
}

bool zr_compressed(const struct zr *z)
{
	return z->dctx != NULL;
}

size_t zr_peek(struct zr *z, char *buf, size_t n)
{
	char err[256];
	while (z->end - z->pos < n) {
		long got = fill(z, err, sizeof err);
		if (got <= 0)
			break;
	}
	size_t have = z->end - z->pos < n ? z->end - z->pos : n;
	memcpy(buf, z->out + z->pos, have);
	return have;
}
