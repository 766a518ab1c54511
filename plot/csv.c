/* csv.c - the result CSV files read by column name (plot_csv_*), and the
 * checked reads of a cell every figure makes (plot_need_cols, plot_cell_num,
 * plot_cell_is_int).
 *
 * May call: sim/util.h (allocation).
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- CSV ------------------------------------------------------------ */

void plot_csv_free(struct plot_csv *c)
{
	if (!c)
		return;
	free(c->path);
	free(c->buf);
	free(c->hdr);
	free(c->cell);
	free(c->line);
	free(c);
}

static char *read_all(const char *path, char *err, size_t errlen)
{
	const char *why;
	FILE *f = fopen_regular(path, &why);
	if (!f) {
		snprintf(err, errlen, "%s:0:0: cannot open: %s", path, why);
		return NULL;
	}
	size_t len = 0, cap = 4096, got;
	char *buf = xmalloc(cap);
	while ((got = fread(buf + len, 1, cap - 1 - len, f)) > 0)
		if ((len += got) == cap - 1)
			buf = xrealloc(buf, cap *= 2);
	int bad = ferror(f), e = errno;
	fclose(f);
	buf[len] = '\0';
	if (bad || strlen(buf) != len) {
		/* where: the NUL's line and column */
		int line = 1, col = 1;
		for (size_t i = 0; !bad && buf[i]; i++, col++)
			if (buf[i] == '\n')
				line++, col = 0;
		snprintf(err, errlen, "%s:%d:%d: cannot read: %s", path, bad ? 0 : line,
			 bad ? 0 : col, bad ? strerror(e) : "a NUL byte");
		free(buf);
		return NULL;
	}
	return buf;
}

static int count_fields(const char *s)
{
	int n = 1;
	for (; *s; s++)
		n += *s == ',';
	return n;
}

static void split(char *s, char **out)
{
	*out++ = s;
	for (; *s; s++)
		if (*s == ',') {
			*s = '\0';
			*out++ = s + 1;
		}
}

/* Cut `buf` (owned from here on) into rows; see plot_csv_read. */
struct plot_csv *plot_csv_parse(const char *path, char *buf, char *err, size_t errlen)
{
	struct plot_csv *c = xcalloc(1, sizeof *c);
	c->path = xstrdup(path);
	c->buf = buf;
	int cap_cell = 0, cap_line = 0, lineno = 0;
	for (char *p = buf, *next; *p; p = next) {
		char *eol = strchr(p, '\n');
		next = eol ? eol + 1 : p + strlen(p);
		if (eol)
			*eol = '\0';
		lineno++;
		size_t n = strlen(p);
		if (n && p[n - 1] == '\r')
			p[--n] = '\0';
		if (n == 0)
			continue;
		int nf = count_fields(p);
		if (!c->hdr) {
			c->ncols = nf;
			c->hdr = xmalloc((size_t)nf * sizeof *c->hdr);
			split(p, c->hdr);
			continue;
		}
		if (nf != c->ncols) {
			snprintf(err, errlen, "%s:%d:1: %d fields, but the header has %d", path, lineno,
				 nf, c->ncols);
			plot_csv_free(c);
			return NULL;
		}
		xgrow(&c->cell, &cap_cell, (c->nrows + 1) * c->ncols, sizeof *c->cell);
		xgrow(&c->line, &cap_line, c->nrows + 1, sizeof *c->line);
		split(p, c->cell + (size_t)c->nrows * c->ncols);
		c->line[c->nrows++] = lineno;
	}
	if (!c->hdr) {
		snprintf(err, errlen, "%s:1:1: empty file (no header line)", path);
		plot_csv_free(c);
		return NULL;
	}
	return c;
}

struct plot_csv *plot_csv_read(const char *path, char *err, size_t errlen)
{
	char *buf = read_all(path, err, errlen);
	return buf ? plot_csv_parse(path, buf, err, errlen) : NULL;
}

const char *plot_csv_path(const struct plot_csv *c) { return c->path; }
int plot_csv_rows(const struct plot_csv *c) { return c->nrows; }
int plot_csv_line(const struct plot_csv *c, int row) { return c->line[row]; }

int plot_csv_col(const struct plot_csv *c, const char *name)
{
	for (int i = 0; i < c->ncols; i++)
		if (strcmp(c->hdr[i], name) == 0)
			return i;
	return -1;
}

int plot_csv_ncols(const struct plot_csv *c)
{
	return c->ncols;
}

const char *plot_csv_cell(const struct plot_csv *c, int row, int col)
{
	return col < 0 ? "" : c->cell[(size_t)row * c->ncols + col];
}

/* Columns a figure cannot do without: -1 and a message naming the first
 * missing one.  Names are given as a NULL-terminated list, indices out. */
int plot_need_cols(const struct plot_csv *c, const char *const *names, int *idx, char *err,
		     size_t errlen)
{
	for (int i = 0; names[i]; i++)
		if ((idx[i] = plot_csv_col(c, names[i])) < 0) {
			snprintf(err, errlen, "%s: no column '%s' in the header", c->path, names[i]);
			return -1;
		}
	return 0;
}

/* A number in a cell: 0, or 1 when the cell is empty, not finite or its
 * column absent (*x = NaN), or -1 with a message when it is not a number. */
int plot_cell_num(const struct plot_csv *c, int row, int col, double *x, char *err,
		    size_t errlen)
{
	const char *s = plot_csv_cell(c, row, col);
	*x = NAN;
	if (!*s)
		return 1;
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end) {
		snprintf(err, errlen, "%s:%d: column '%s': '%s' is not a number", c->path,
			 c->line[row], c->hdr[col], s);
		return -1;
	}
	if (!isfinite(v))
		return 1;
	*x = v;
	return 0;
}

/* Does a row belong to (policy, replication or point)?  Integers compare
 * as hetsim writes them; an absent column matches 0. */
bool plot_cell_is_int(const struct plot_csv *c, int row, int col, int want)
{
	char w[16];
	snprintf(w, sizeof w, "%d", want);
	return strcmp(col < 0 ? "0" : plot_csv_cell(c, row, col), w) == 0;
}
