/* report.c - `hetsim report DIR`: one self-contained report.html for the
 * folder of a `run`, `sweep`, `compare` or `fgd` (or results/paper).
 *
 * The page holds everything it shows, so it can be mailed or attached to
 * an issue and still open: the folder's Markdown (report.md, then
 * leaderboard.md, then any other .md) as HTML, every CSV file as a table
 * (at most --rows rows each, the count of the rest said), every SVG
 * figure as an <img> whose source is a data: URI of its bytes, a PNG
 * figure with no SVG beside it the same way, and a list of every file
 * with what became of it.
 *
 * Safe by construction, for a folder someone else wrote: an SVG shown as
 * an image is a document browsers never script and never let fetch
 * anything (no <script>, event attribute, javascript: link, external
 * <use>, <image> or CSS url() in it has any effect), every text of the
 * folder is escaped, and a Content-Security-Policy meta tag forbids
 * scripts, frames, objects and every fetch but data: images besides.
 * Files are read only when they are regular files inside DIR: each is
 * opened component by component from DIR's descriptor with O_NOFOLLOW
 * (openat), so no symbolic link, FIFO, socket or device is followed or
 * read, even one swapped in after the walk; those are listed as not
 * read.  No external file, script or URL: the only references are
 * "data:".  A
 * figure the Markdown names in a code span (`figures/mixed/policies.png`,
 * globs too) stands after the paragraph naming it; the rest stand in
 * "Figures" at the end.  The page names no path outside the folder and
 * no time, so the same folder gives the same bytes (make paper commits
 * results/paper/report.html).
 *
 * Where the folder has runs.csv or summary.csv but no figures/ folder,
 * its figures are drawn first (`hetsim plot all`, with -s if given);
 * --no-plot skips that.  Written through FILE.tmp, renamed at the end.
 * Exit 0, 1 on a folder or file it cannot read (one line naming it), 2
 * on a bad command line.
 */
#define _DEFAULT_SOURCE /* DT_ macros, fnmatch, O_NOFOLLOW, fdopendir */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "rows.h"
#include "util.h"

#define MAX_DEPTH 6
#define MAX_FILES 4096
#define MAX_SVG (32L << 20)   /* bytes of one figure inlined, at most */
#define MAX_PNG (8L << 20)
/* The page's policy: no script, frame, object, font, fetch or form; its
 * own <style> and data: images only. */
#define REPORT_CSP "default-src 'none'; img-src data:; style-src 'unsafe-inline'; " \
		   "base-uri 'none'; form-action 'none'"
#define OPEN_ROWS 25          /* tables of at most this many rows start open */

static const struct cmd_opt rep_opts[] = {
	{"output", 'o', "FILE", "write the page there (default DIR/report.html)"},
	{"rows", 0, "N", "rows shown of each CSV file, at most (default 50; 0: all)"},
	{"title", 0, "TEXT", "the page's title (default: the first heading of its "
			     "Markdown, else \"hetsim KIND: NAME\")"},
	{"scenario", 's', "FILE", "the scenario, for the figures drawn first (utilisation)"},
	{"no-plot", 0, NULL, "never draw missing figures first"},
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

/* One file of the folder, by its path relative to it. */
struct rfile {
	char *rel;
	const char *skip;   /* not a regular file: never read (why), else NULL */
	long size;
	int placed;         /* a figure already on the page */
	const char *shown;  /* what became of it, for the file list */
};

struct rep {
	const char *dir, *out_rel;
	int dfd;            /* DIR, opened once: every read starts from it */
	int nskip;          /* files not read (links, FIFOs, ...) */
	struct rfile *f;
	int nf, capf;
	int max_rows;
	int nsvg, nimg, ntables;
	FILE *o;
	int err;            /* a read error met (message printed) */
};

/* ---- output helpers --------------------------------------------------- */

static void esc_n(FILE *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", o); break;
		case '<': fputs("&lt;", o); break;
		case '>': fputs("&gt;", o); break;
		case '"': fputs("&quot;", o); break;
		case '\'': fputs("&#39;", o); break;
		default: fputc(s[i], o);
		}
	}
}

static void esc(FILE *o, const char *s)
{
	esc_n(o, s, strlen(s));
}

/* A file's name: escaped, and a control character shown as \n, \t or
 * \xNN, so that a name with a newline reads as one line. */
static void esc_name(FILE *o, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n')
			fputs("\\n", o);
		else if (c == '\t')
			fputs("\\t", o);
		else if (c < 0x20 || c == 0x7f)
			fprintf(o, "\\x%02x", c);
		else
			esc_n(o, s, 1);
	}
}

static const char *ext(const char *p)
{
	const char *d = strrchr(p, '.'), *sl = strrchr(p, '/');
	return d && (!sl || d > sl) ? d + 1 : "";
}

static int ends(const char *p, const char *e)
{
	return !strcmp(ext(p), e);
}

/* ---- the folder's files ----------------------------------------------- */

/* Files in name order, except that within a folder the figures that
 * sum a run up come before the per-policy timelines: policies, sweep,
 * jct-by-type, the leaderboard's (makespan, jct-cdf, slowdown-size),
 * the FGD curves (alloc, frag), the rest, then gantt and utilisation.
 * Other files rank with "the rest", so name order holds among them. */
static int fig_rank(const char *rel)
{
	static const char *const order[] = {"policies", "sweep", "jct-by-type", "makespan",
					    "jct-cdf", "slowdown-size", "alloc", "frag"};
	const char *b = strrchr(rel, '/');
	b = b ? b + 1 : rel;
	for (int i = 0; i < ARRAY_LEN(order); i++)
		if (!strncmp(b, order[i], strlen(order[i])))
			return i;
	if (!strncmp(b, "gantt", 5))
		return ARRAY_LEN(order) + 1;
	if (!strncmp(b, "utilisation", 11))
		return ARRAY_LEN(order) + 2;
	return ARRAY_LEN(order);
}

/* The folder's policies in the order its runs.csv (else summary.csv)
 * first names them: the scenario's order, for the figures drawn one per
 * policy (gantt-POLICY, utilisation-POLICY).  Set before the sort. */
static char **pol_order;
static int npol_order;

/* Where the figure rel (".../KIND-POLICY.ext") stands in pol_order, or
 * npol_order when its name ends in no policy of it. */
static int pol_index(const char *rel)
{
	const char *b = strrchr(rel, '/'), *d = strrchr(rel, '.');
	b = b ? b + 1 : rel;
	for (int k = 0; k < npol_order; k++) {
		size_t n = strlen(pol_order[k]);
		const char *at = d ? d - n : NULL;
		if (at && at > b && at[-1] == '-' && !strncmp(at, pol_order[k], n))
			return k;
	}
	return npol_order;
}

/* By (folder, rank, policy, name): a folder's own files before its
 * subfolders'; a figure per policy in the scenario's order. */
static int cmp_rfile(const void *a, const void *b)
{
	const char *x = ((const struct rfile *)a)->rel, *y = ((const struct rfile *)b)->rel;
	const char *sx = strrchr(x, '/'), *sy = strrchr(y, '/');
	size_t dx = sx ? (size_t)(sx - x) : 0, dy = sy ? (size_t)(sy - y) : 0;
	int c = memcmp(x, y, dx < dy ? dx : dy);
	if (c || dx != dy)
		return c ? c : dx < dy ? -1 : 1;
	int rx = fig_rank(x), ry = fig_rank(y);
	if (rx != ry)
		return rx - ry;
	int px = pol_index(x), py = pol_index(y);
	return px != py ? px - py : strcmp(x, y);
}

/* Tables in the order a reader wants them: the runs and their summary
 * first, the per-job and per-executor detail after, wall-clock timing
 * and the manifest last. */
static int csv_rank(const char *rel)
{
	static const char *const order[] = {"runs.csv", "summary.csv", "leaderboard.csv",
					    "types.csv", "jobs.csv", "executors.csv", "sizes.csv"};
	const char *b = strrchr(rel, '/');
	b = b ? b + 1 : rel;
	for (int i = 0; i < ARRAY_LEN(order); i++)
		if (!strcmp(b, order[i]))
			return i;
	if (!strcmp(b, "timing.csv"))
		return ARRAY_LEN(order) + 1;
	if (!strcmp(b, "manifest.csv"))
		return ARRAY_LEN(order) + 2;
	return ARRAY_LEN(order);
}
#define CSV_RANKS 10

/* What a directory entry that is not a regular file or a folder is. */
static const char *kind_of(mode_t m)
{
	return S_ISLNK(m) ? "not read: a symbolic link"
	       : S_ISFIFO(m) ? "not read: a FIFO"
	       : S_ISSOCK(m) ? "not read: a socket"
	       : S_ISCHR(m) || S_ISBLK(m) ? "not read: a device"
	       : "not read: not a regular file";
}

/* The folder rel (fd: it, opened), its files appended to r->f.  A link
 * is never followed, a folder only opened with O_NOFOLLOW from its
 * parent's descriptor.  Closes fd. */
static int walk(struct rep *r, int fd, const char *rel, int depth)
{
	DIR *d = fdopendir(fd);
	if (!d) {
		fprintf(stderr, "hetsim report: %s%s%s: %s\n", r->dir, *rel ? "/" : "", rel,
			strerror(errno));
		close(fd);
		return 1;
	}
	struct dirent *e;
	int rc = 0;
	while (!rc && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char sub[4200];
		snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue; /* gone since readdir */
		if (S_ISDIR(st.st_mode)) {
			int sfd = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (depth < MAX_DEPTH && sfd >= 0)
				rc = walk(r, sfd, sub, depth + 1);
			else if (sfd >= 0)
				close(sfd);
			continue;
		}
		const char *skip = S_ISREG(st.st_mode) ? NULL : kind_of(st.st_mode);
		if (ends(sub, "tmp") || !strcmp(sub, r->out_rel))
			continue;
		if (!skip && !strcmp(e->d_name, ROWS_MANIFEST)) { /* a result set: whole? */
			char path[4300], serr[1200];
			snprintf(path, sizeof path, "%s%s%s", r->dir, *rel ? "/" : "", rel);
			if (rows_check_set(path, serr, sizeof serr)) {
				fprintf(stderr, "hetsim report: %s\n", serr);
				rc = 1;
				break;
			}
		}
		if (r->nf == MAX_FILES) {
			fprintf(stderr, "hetsim report: %s: more than %d files; the report "
				"shows the first %d in name order it found\n", r->dir, MAX_FILES,
				MAX_FILES);
			break;
		}
		r->nskip += skip != NULL;
		xgrow(&r->f, &r->capf, r->nf + 1, sizeof *r->f);
		r->f[r->nf++] = (struct rfile){.rel = xstrdup(sub), .skip = skip,
					       .size = skip ? 0 : (long)st.st_size};
	}
	closedir(d);
	return rc;
}

/* A descriptor of its own for the folder fd (a dup would share its read
 * position, and a second walk would start at the end). */
static int reopen_dir(int fd)
{
	return openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* rel, a regular file inside DIR, opened for reading: each folder of its
 * path and the file itself opened from DIR's descriptor with O_NOFOLLOW,
 * so that no link (one swapped in after the walk too) leads out of DIR,
 * and refused unless it is a regular file (O_NONBLOCK: a FIFO put there
 * since does not block the open).  NULL, with the message printed and
 * r->err set, where it cannot. */
static FILE *open_inside(struct rep *r, const char *rel)
{
	char buf[4200];
	snprintf(buf, sizeof buf, "%s", rel);
	int fd = dup(r->dfd), err = 0;
	for (char *p = buf, *sl; fd >= 0 && !err; p = sl + 1) {
		sl = strchr(p, '/');
		if (sl)
			*sl = 0;
		int nfd = openat(fd, p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK |
				 (sl ? O_DIRECTORY : 0));
		if (nfd < 0)
			err = errno;
		close(fd);
		fd = nfd;
		if (!sl)
			break;
	}
	struct stat st;
	if (fd >= 0 && !err) {
		if (fstat(fd, &st))
			err = errno;
		else if (!S_ISREG(st.st_mode))
			err = EINVAL;
	}
	if (fd < 0 || err) {
		fprintf(stderr, "hetsim report: %s/%s: %s\n", r->dir, rel,
			err == ELOOP ? "a symbolic link, not read"
			: err == EINVAL ? "not a regular file, not read"
			: strerror(err ? err : errno));
		if (fd >= 0)
			close(fd);
		r->err = 1;
		return NULL;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		fprintf(stderr, "hetsim report: %s/%s: %s\n", r->dir, rel, strerror(errno));
		close(fd);
		r->err = 1;
	}
	return f;
}

/* The regular file rel of the folder, or NULL. */
static struct rfile *find_rel(struct rep *r, const char *rel)
{
	for (int i = 0; i < r->nf; i++)
		if (!r->f[i].skip && !strcmp(r->f[i].rel, rel))
			return &r->f[i];
	return NULL;
}

/* A figure's file: its SVG where there is one, else the PNG. */
static int is_figure(struct rep *r, const struct rfile *f)
{
	if (f->skip)
		return 0;
	if (ends(f->rel, "svg"))
		return 1;
	if (!ends(f->rel, "png"))
		return 0;
	char svg[4200];
	snprintf(svg, sizeof svg, "%.*s.svg", (int)(strlen(f->rel) - 4), f->rel);
	return find_rel(r, svg) == NULL;
}

static char *slurp(struct rep *r, const char *rel, long max, long *len)
{
	FILE *f = open_inside(r, rel);
	if (!f)
		return NULL;
	char *buf = xmalloc((size_t)max + 1);
	size_t n = fread(buf, 1, (size_t)max + 1, f);
	int bad = ferror(f);
	fclose(f);
	if (bad || n > (size_t)max) {
		if (bad) {
			fprintf(stderr, "hetsim report: %s/%s: read error\n", r->dir, rel);
			r->err = 1;
		}
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	*len = (long)n;
	return buf;
}

/* ---- figures ---------------------------------------------------------- */

static const char *find_sub(const char *s, const char *end, const char *pat)
{
	size_t n = strlen(pat);
	for (; s + n <= end; s++)
		if (!memcmp(s, pat, n))
			return s;
	return NULL;
}

static void put_base64(FILE *o, const unsigned char *s, long n)
{
	static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	for (long i = 0; i < n; i += 3) {
		unsigned v = (unsigned)s[i] << 16;
		if (i + 1 < n)
			v |= (unsigned)s[i + 1] << 8;
		if (i + 2 < n)
			v |= s[i + 2];
		fputc(t[v >> 18 & 63], o);
		fputc(t[v >> 12 & 63], o);
		fputc(i + 1 < n ? t[v >> 6 & 63] : '=', o);
		fputc(i + 2 < n ? t[v & 63] : '=', o);
	}
}

/* The figure f as an <img> whose source is a data: URI of its bytes
 * (type: "image/svg+xml" or "image/png"): a browser renders an SVG image
 * as a static document, running none of its scripts and fetching
 * nothing it names.  An SVG file with no <svg ... </svg> in it is not
 * shown.  -1 where it is not (too large, unreadable, not SVG). */
static int put_img(struct rep *r, struct rfile *f, const char *type, long max)
{
	long len;
	char *b = f->size <= max ? slurp(r, f->rel, max, &len) : NULL;
	if (!b)
		return -1;
	if (!strcmp(type, "image/svg+xml")) {
		const char *s = find_sub(b, b + len, "<svg");
		if (!s || !find_sub(s, b + len, "</svg>")) {
			free(b);
			return -1;
		}
	}
	FILE *o = r->o;
	fputs("<img alt=\"", o);
	esc_name(o, f->rel);
	fprintf(o, "\" src=\"data:%s;base64,", type);
	put_base64(o, (const unsigned char *)b, len);
	fputs("\">\n", o);
	free(b);
	return 0;
}

static void put_figure(struct rep *r, struct rfile *f)
{
	if (f->placed)
		return;
	f->placed = 1;
	FILE *o = r->o;
	fputs("<figure>\n", o);
	if (ends(f->rel, "svg")) {
		if (put_img(r, f, "image/svg+xml", MAX_SVG)) {
			fprintf(o, "<p class=\"note\">not inlined: %s</p>\n",
				f->size > MAX_SVG ? "larger than 32 MiB" : "no <svg> element in it");
			f->shown = "a figure not inlined (too large or not SVG)";
		} else {
			r->nsvg++;
			f->shown = "an inline SVG figure";
		}
	} else if (put_img(r, f, "image/png", MAX_PNG)) {
		fputs("<p class=\"note\">not inlined: larger than 8 MiB or unreadable</p>\n", o);
		f->shown = "a figure not inlined (too large)";
	} else {
		r->nimg++;
		f->shown = "an inline PNG figure (no SVG beside it)";
	}
	fputs("<figcaption>", o);
	esc_name(o, f->rel);
	fputs("</figcaption>\n</figure>\n", o);
}

/* The figures a Markdown file at `base` (its folder, "" for the top)
 * names in text[0 .. n): in a code span (`x.png`, `x.svg`, globs too)
 * or as an image or link target (![a](x.svg)). */
static void put_named_figures(struct rep *r, const char *base, const char *text, size_t n)
{
	for (const char *p = text, *end = text + n; p < end; p++) {
		const char *from, *q;
		if (*p == '`') {
			from = p + 1;
			q = memchr(from, '`', (size_t)(end - from));
		} else if (*p == ']' && p + 1 < end && p[1] == '(') {
			from = p + 2;
			q = memchr(from, ')', (size_t)(end - from));
		} else {
			continue;
		}
		if (!q)
			break;
		int len = (int)(q - from);
		p = q;
		char name[1024];
		if (len <= 4 || len >= (int)sizeof name - 200)
			continue;
		snprintf(name, sizeof name, "%s%s%.*s", base, *base ? "/" : "", len, from);
		const char *e = ext(name);
		if (strcmp(e, "png") && strcmp(e, "svg"))
			continue;
		name[strlen(name) - 4] = 0; /* the stem, a pattern */
		for (int i = 0; i < r->nf; i++) {
			struct rfile *f = &r->f[i];
			if (f->placed || !is_figure(r, f))
				continue;
			char fstem[4200];
			snprintf(fstem, sizeof fstem, "%.*s", (int)(strlen(f->rel) - 4), f->rel);
			if (!fnmatch(name, fstem, FNM_PATHNAME))
				put_figure(r, f);
		}
	}
}

/* ---- Markdown: the subset hetsim writes --------------------------------
 * Headings, paragraphs, bullet and numbered lists, pipe tables, fenced
 * code, block quotes; inline `code`, **bold**, *emphasis*, [text](target)
 * as the text and its target in brackets (no link: the page references
 * nothing), ![alt](figure) as its alt text, the figure after the block. */

static void put_inline(struct rep *r, const char *base, const char *s, size_t n)
{
	FILE *o = r->o;
	int strong = 0, em = 0;
	for (size_t i = 0; i < n;) {
		if (s[i] == '`') {
			const char *q = memchr(s + i + 1, '`', n - i - 1);
			if (q) {
				fputs("<code>", o);
				esc_n(o, s + i + 1, (size_t)(q - s - i - 1));
				fputs("</code>", o);
				i = (size_t)(q - s) + 1;
				continue;
			}
		}
		if (s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
			fputs(strong ? "</strong>" : "<strong>", o);
			strong = !strong;
			i += 2;
			continue;
		}
		if (s[i] == '*' && (em || (i + 1 < n && s[i + 1] != ' ' &&
					   memchr(s + i + 1, '*', n - i - 1)))) {
			fputs(em ? "</em>" : "<em>", o);
			em = !em;
			i++;
			continue;
		}
		int img = s[i] == '!' && i + 1 < n && s[i + 1] == '[';
		if (s[i] == '[' || img) {
			size_t a = i + 1 + (size_t)img;
			const char *close = memchr(s + a, ']', n - a);
			if (close && (size_t)(close - s) + 1 < n && close[1] == '(') {
				const char *rp = memchr(close + 2, ')', n - (size_t)(close + 2 - s));
				if (rp) {
					size_t tl = (size_t)(close - s) - a;
					const char *t = close + 2;
					size_t ul = (size_t)(rp - t);
					if (img) { /* the figure follows the block */
						fputs("<em>", o);
						esc_n(o, s + a, tl);
						fputs("</em> (below)", o);
					} else {
						put_inline(r, base, s + a, tl);
						fputs(" <span class=\"ref\">[", o);
						esc_n(o, t, ul);
						fputs("]</span>", o);
					}
					i = (size_t)(rp - s) + 1;
					continue;
				}
			}
		}
		esc_n(o, s + i, 1);
		i++;
	}
	if (em)
		fputs("</em>", o);
	if (strong)
		fputs("</strong>", o);
}

static size_t trim_len(const char *s, size_t n)
{
	while (n && strchr(" \t\r\n", s[n - 1]))
		n--;
	return n;
}

static int is_table_sep(const char *l)
{
	if (*l != '|')
		return 0;
	for (; *l; l++)
		if (!strchr("|:- \t\r", *l))
			return 0;
	return 1;
}

static void put_row(struct rep *r, const char *base, const char *l, const char *tag)
{
	FILE *o = r->o;
	fputs("<tr>", o);
	const char *p = l + (*l == '|');
	size_t n = trim_len(p, strlen(p));
	if (n && p[n - 1] == '|')
		n--;
	for (const char *end = p + n; p <= end;) {
		const char *bar = p;
		while (bar < end && *bar != '|')
			bar++;
		const char *a = p, *b = bar;
		while (a < b && *a == ' ')
			a++;
		while (b > a && b[-1] == ' ')
			b--;
		fprintf(o, "<%s>", tag);
		put_inline(r, base, a, (size_t)(b - a));
		fprintf(o, "</%s>", tag);
		p = bar + 1;
		if (bar == end)
			break;
	}
	fputs("</tr>\n", o);
}

/* "- x", "* x": 1; "12. x": 2; else 0.  *body: the item's text. */
static int list_item(const char *l, const char **body)
{
	if ((l[0] == '-' || l[0] == '*') && l[1] == ' ') {
		*body = l + 2;
		return 1;
	}
	const char *p = l;
	while (*p >= '0' && *p <= '9')
		p++;
	if (p > l && p[0] == '.' && p[1] == ' ') {
		*body = p + 2;
		return 2;
	}
	return 0;
}

static void put_markdown(struct rep *r, struct rfile *f, char *text)
{
	FILE *o = r->o;
	char base[4200];
	snprintf(base, sizeof base, "%s", f->rel);
	char *sl = strrchr(base, '/');
	*(sl ? sl : base) = 0;
	/* lines, in place */
	int nl = 0, cap = 0;
	char **line = NULL;
	for (char *p = text; *p;) {
		xgrow(&line, &cap, nl + 1, sizeof *line);
		line[nl++] = p;
		char *e = strchr(p, '\n');
		if (!e)
			break;
		*e = 0;
		p = e + 1;
	}
	/* a block's raw text, for the figures it names */
	size_t bcap = 4096, blen = 0;
	char *block = xmalloc(bcap);
#define BLOCK_ADD(s)                                                  \
	do {                                                          \
		size_t n_ = strlen(s);                                \
		while (blen + n_ + 2 > bcap)                          \
			block = xrealloc(block, bcap *= 2);           \
		memcpy(block + blen, s, n_);                          \
		blen += n_;                                           \
		block[blen++] = '\n';                                 \
	} while (0)
	for (int i = 0; i < nl;) {
		const char *l = line[i], *body;
		size_t n = trim_len(l, strlen(l));
		blen = 0;
		if (!n) {
			i++;
			continue;
		}
		if (!strncmp(l, "```", 3)) {
			fputs("<pre><code>", o);
			for (i++; i < nl && strncmp(line[i], "```", 3); i++) {
				esc(o, line[i]);
				fputc('\n', o);
			}
			fputs("</code></pre>\n", o);
			i++;
			continue;
		}
		int h = 0;
		while (h < 6 && l[h] == '#')
			h++;
		if (h && l[h] == ' ') {
			fprintf(o, "<h%d>", h + 1 > 6 ? 6 : h + 1); /* the page's h1 is its title */
			put_inline(r, base, l + h + 1, n - (size_t)h - 1);
			fprintf(o, "</h%d>\n", h + 1 > 6 ? 6 : h + 1);
			BLOCK_ADD(l);
			put_named_figures(r, base, block, blen);
			i++;
			continue;
		}
		if (l[0] == '|' && i + 1 < nl && is_table_sep(line[i + 1])) {
			fputs("<table class=\"md\">\n<thead>", o);
			put_row(r, base, l, "th");
			fputs("</thead>\n<tbody>\n", o);
			BLOCK_ADD(l);
			for (i += 2; i < nl && line[i][0] == '|'; i++) {
				put_row(r, base, line[i], "td");
				BLOCK_ADD(line[i]);
			}
			fputs("</tbody>\n</table>\n", o);
			put_named_figures(r, base, block, blen);
			continue;
		}
		int kind = list_item(l, &body);
		if (kind) {
			fputs(kind == 1 ? "<ul>\n" : "<ol>\n", o);
			while (i < nl && list_item(line[i], &body) == kind) {
				/* the item and its indented continuation lines */
				size_t start = blen;
				BLOCK_ADD(body);
				for (i++; i < nl && (line[i][0] == ' ' || line[i][0] == '\t') &&
					  trim_len(line[i], strlen(line[i])); i++)
					BLOCK_ADD(line[i]);
				fputs("<li>", o);
				put_inline(r, base, block + start, trim_len(block + start, blen - start));
				fputs("</li>\n", o);
			}
			fputs(kind == 1 ? "</ul>\n" : "</ol>\n", o);
			put_named_figures(r, base, block, blen);
			continue;
		}
		int quote = l[0] == '>';
		for (; i < nl; i++) { /* a paragraph: up to a blank line or another block */
			const char *m = line[i], *bd;
			if (!trim_len(m, strlen(m)) || (quote != (m[0] == '>')) ||
			    (blen && (m[0] == '#' || m[0] == '|' || !strncmp(m, "```", 3) ||
				      list_item(m, &bd))))
				break;
			BLOCK_ADD(quote ? m + 1 + (m[1] == ' ') : m);
		}
		fputs(quote ? "<blockquote><p>" : "<p>", o);
		put_inline(r, base, block, trim_len(block, blen));
		fputs(quote ? "</p></blockquote>\n" : "</p>\n", o);
		put_named_figures(r, base, block, blen);
	}
#undef BLOCK_ADD
	free(block);
	free(line);
}

/* ---- CSV tables -------------------------------------------------------- */

/* Split one CSV record (RFC 4180 quoting) in place; the field count. */
static int csv_fields(char *l, char **fv, int max)
{
	int n = 0;
	char *w = l, *p = l;
	while (n < max) {
		fv[n++] = w;
		if (*p == '"') {
			for (p++; *p; p++) {
				if (*p == '"' && p[1] == '"')
					*w++ = *p++;
				else if (*p == '"') {
					p++;
					break;
				} else
					*w++ = *p;
			}
		}
		while (*p && *p != ',')
			*w++ = *p++;
		int more = *p == ',';
		*w++ = 0;
		if (!more)
			break;
		p++;
	}
	return n;
}

static int numeric(const char *s)
{
	char *e;
	if (!*s)
		return 0;
	strtod(s, &e);
	return *e == 0;
}

static void put_csv(struct rep *r, struct rfile *f)
{
	FILE *in = open_inside(r, f->rel);
	if (!in)
		return;
	char *l = NULL;
	size_t cap = 0;
	ssize_t got;
	long rows = -1, comments = 0; /* -1: the header not read yet */
	int ncols = 0;
	/* the table itself is written once the rows are counted: into memory */
	char *tbl = NULL;
	size_t tlen = 0;
	FILE *o = open_memstream(&tbl, &tlen);
	char *fv[512];
	while ((got = getline(&l, &cap, in)) > 0) {
		while (got && (l[got - 1] == '\n' || l[got - 1] == '\r'))
			l[--got] = 0;
		if (l[0] == '#') {
			if (comments++ < 5 && rows < 0) {
				fputs("<p class=\"note\">", o);
				esc(o, l);
				fputs("</p>\n", o);
			}
			continue;
		}
		if (!got)
			continue;
		rows++;
		if (rows > r->max_rows && r->max_rows > 0)
			continue;
		int n = csv_fields(l, fv, 512);
		if (rows == 0) {
			ncols = n;
			fputs("<div class=\"scroll\"><table>\n<thead><tr>", o);
		} else if (rows == 1) {
			fputs("</tr></thead>\n<tbody>\n<tr>", o);
		} else {
			fputs("<tr>", o);
		}
		for (int k = 0; k < n; k++) {
			const char *tag = rows ? "td" : "th";
			fprintf(o, "<%s%s>", tag, rows && numeric(fv[k]) ? " class=\"n\"" : "");
			esc(o, fv[k]);
			fprintf(o, "</%s>", tag);
		}
		if (rows)
			fputs("</tr>\n", o);
	}
	int bad = ferror(in);
	fclose(in);
	free(l);
	if (rows == 0)
		fputs("</tr></thead>\n<tbody>\n", o);
	if (rows >= 0)
		fputs("</tbody>\n</table></div>\n", o);
	fclose(o);
	if (bad) {
		fprintf(stderr, "hetsim report: %s/%s: read error\n", r->dir, f->rel);
		r->err = 1;
		free(tbl);
		return;
	}
	long data = rows > 0 ? rows : 0;
	long shown = r->max_rows > 0 && data > r->max_rows ? r->max_rows : data;
	const char *b = strrchr(f->rel, '/');
	bool manifest = !strcmp(b ? b + 1 : f->rel, "manifest.csv"); /* for readers, not people */
	fprintf(r->o, "<details%s>\n<summary><code>", data <= OPEN_ROWS && !manifest ? " open" : "");
	esc_name(r->o, f->rel);
	fprintf(r->o, "</code>: %ld row%s, %d column%s", data, data == 1 ? "" : "s", ncols,
		ncols == 1 ? "" : "s");
	if (shown < data)
		fprintf(r->o, "; rows 1&ndash;%ld shown, the other %ld are in the file", shown,
			data - shown);
	fputs("</summary>\n", r->o);
	fwrite(tbl, 1, tlen, r->o);
	fputs("</details>\n", r->o);
	free(tbl);
	f->shown = shown < data ? "a table (its first rows)" : "a table";
	r->ntables++;
}

/* pol_order from the folder's runs.csv, else summary.csv: the policy
 * column's values in order of first appearance (at most 64). */
static void load_pol_order(struct rep *r)
{
	static const char *const from[] = {"runs.csv", "summary.csv"};
	for (int k = 0; k < 2 && !npol_order; k++) {
		struct rfile *f = find_rel(r, from[k]);
		FILE *in = f && !f->skip ? open_inside(r, from[k]) : NULL;
		if (!in)
			continue;
		char *l = NULL, *fv[512];
		size_t cap = 0;
		ssize_t got;
		int col = -1;
		while ((got = getline(&l, &cap, in)) > 0 && npol_order < 64) {
			while (got && (l[got - 1] == '\n' || l[got - 1] == '\r'))
				l[--got] = 0;
			if (l[0] == '#' || !got)
				continue;
			int n = csv_fields(l, fv, 512);
			if (col < 0) {
				for (int c = 0; c < n && col < 0; c++)
					if (!strcmp(fv[c], "policy"))
						col = c;
				if (col < 0)
					break;
				continue;
			}
			if (col >= n)
				continue;
			bool seen = false;
			for (int q = 0; q < npol_order && !seen; q++)
				seen = !strcmp(pol_order[q], fv[col]);
			if (!seen) {
				pol_order = xrealloc(pol_order, (size_t)(npol_order + 1) * sizeof *pol_order);
				pol_order[npol_order++] = xstrdup(fv[col]);
			}
		}
		free(l);
		fclose(in);
	}
}

/* ---- the page ----------------------------------------------------------- */

static const char css[] =
	"body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
	"color:#222;line-height:1.45}\n"
	"h1{font-size:1.7em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em}\n"
	"table{border-collapse:collapse;font-size:.85em;margin:.6em 0}\n"
	"th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}\n"
	"th{background:#f1f1f1}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	".scroll{overflow-x:auto;max-height:40em;overflow-y:auto}\n"
	"figure{margin:1.2em 0;border:1px solid #e4e4e4;padding:.5em}\n"
	"figure img{display:block;width:100%;height:auto}\n"
	"figcaption{font-size:.85em;color:#555;font-family:monospace}\n"
	".note,.ref{color:#666;font-size:.9em}summary{cursor:pointer;margin:.4em 0}\n"
	"code{background:#f4f4f4;padding:0 .2em}pre{background:#f4f4f4;padding:.6em;"
	"overflow-x:auto}\nblockquote{border-left:3px solid #ccc;margin-left:0;padding-left:1em}\n";

static const char *folder_kind(struct rep *r)
{
	if (find_rel(r, "report.md") && find_rel(r, "mixed/summary.csv"))
		return "paper";
	if (find_rel(r, "leaderboard.csv"))
		return "compare";
	if (find_rel(r, "curves.csv"))
		return "fgd";
	if (find_rel(r, "summary.csv"))
		return "sweep";
	if (find_rel(r, "runs.csv"))
		return "run";
	return "results";
}

/* The first "# " heading of the folder's first Markdown file, if any. */
static void md_title(struct rep *r, char *buf, size_t len)
{
	for (int i = 0; i < r->nf && !*buf; i++) {
		if (r->f[i].skip || !ends(r->f[i].rel, "md") || strchr(r->f[i].rel, '/'))
			continue;
		long n;
		char *t = slurp(r, r->f[i].rel, 1L << 20, &n);
		if (t && !strncmp(t, "# ", 2)) {
			char *e = strchr(t, '\n');
			snprintf(buf, len, "%.*s", (int)(e ? e - t - 2 : n - 2), t + 2);
		}
		free(t);
	}
}

static int md_rank(const char *rel)
{
	if (!strcmp(rel, "report.md"))
		return 0;
	if (!strcmp(rel, "leaderboard.md"))
		return 1;
	return 2;
}

static void write_page(struct rep *r, const char *title, const char *kind)
{
	FILE *o = r->o;
	int nfig = 0, ncsv = 0;
	for (int i = 0; i < r->nf; i++) {
		nfig += is_figure(r, &r->f[i]);
		ncsv += !r->f[i].skip && ends(r->f[i].rel, "csv");
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", o);
	fprintf(o, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n<title>",
		REPORT_CSP);
	esc(o, title);
	fputs("</title>\n", o);
	fprintf(o, "<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
	esc(o, title);
	fprintf(o, "</h1>\n<p class=\"note\">Written by <code>hetsim report</code> (hetsim %s) "
		"from the folder of a <code>%s</code>: %d table%s, %d figure%s, %d file%s in "
		"all (listed at the foot). Every table and figure is in this page; it "
		"references no other file.</p>\n",
		HETSIM_VERSION, kind, ncsv, ncsv == 1 ? "" : "s", nfig, nfig == 1 ? "" : "s",
		r->nf, r->nf == 1 ? "" : "s");
	if (r->nskip)
		fprintf(o, "<p class=\"note\">%d file%s of the folder %s not regular files "
			"(links, FIFOs, ...): not read, and listed at the foot.</p>\n", r->nskip,
			r->nskip == 1 ? "" : "s", r->nskip == 1 ? "is" : "are");
	for (int rank = 0; rank < 3; rank++)
		for (int i = 0; i < r->nf; i++) {
			struct rfile *f = &r->f[i];
			if (f->skip || !ends(f->rel, "md") || md_rank(f->rel) != rank)
				continue;
			long n;
			char *t = slurp(r, f->rel, 16L << 20, &n);
			if (!t)
				continue;
			fputs("<section class=\"md\">\n", o);
			if (rank == 2 || (rank == 1 && find_rel(r, "report.md"))) {
				fputs("<p class=\"note\">From <code>", o);
				esc_name(o, f->rel);
				fputs("</code>:</p>\n", o);
			}
			/* the page's title stands for the file's own first heading */
			char *body = t, *e = strchr(t, '\n');
			if (!strncmp(t, "# ", 2) && (size_t)(e ? e - t : n) - 2 == strlen(title) &&
			    !strncmp(t + 2, title, strlen(title)))
				body = e ? e + 1 : t + n;
			put_markdown(r, f, body);
			fputs("</section>\n", o);
			f->shown = "text (Markdown)";
			free(t);
		}
	if (ncsv) {
		fputs("<h2>Tables</h2>\n", o);
		for (int rank = 0; rank < CSV_RANKS; rank++)
			for (int i = 0; i < r->nf; i++)
				if (!r->f[i].skip && ends(r->f[i].rel, "csv") &&
				    csv_rank(r->f[i].rel) == rank)
					put_csv(r, &r->f[i]);
	}
	int left = 0;
	for (int i = 0; i < r->nf; i++)
		left += is_figure(r, &r->f[i]) && !r->f[i].placed;
	if (left) {
		fputs("<h2>Figures</h2>\n", o);
		for (int i = 0; i < r->nf; i++)
			if (is_figure(r, &r->f[i]))
				put_figure(r, &r->f[i]);
	}
	fputs("<h2>Files</h2>\n<table>\n<thead><tr><th>file</th><th>bytes</th><th>in this page as"
	      "</th></tr></thead>\n<tbody>\n", o);
	for (int i = 0; i < r->nf; i++) {
		const struct rfile *f = &r->f[i];
		const char *as = f->skip ? f->skip : f->shown;
		if (!as)
			as = ends(f->rel, "png") ? "not shown (its SVG is)"
						: ends(f->rel, "dat") ? "not shown (a figure's gnuplot data)"
						: "not shown";
		fputs("<tr><td><code>", o);
		esc_name(o, f->rel);
		fprintf(o, "</code></td><td class=\"n\">%ld</td><td>%s</td></tr>\n", f->size, as);
	}
	fputs("</tbody>\n</table>\n", o);
	fprintf(o, "<p class=\"note\" id=\"counts\">Inline figures: %d SVG, %d PNG.</p>\n",
		r->nsvg, r->nimg);
	fputs("</body>\n</html>\n", o);
}

static void rep_help(void)
{
	cmd_help("report", "DIR [options]",
		 "Write one self-contained HTML page, DIR/report.html, for the folder of a\n"
		 "`hetsim run`, `sweep`, `compare` or `fgd` (or results/paper): its Markdown\n"
		 "as text, its CSV files as tables, its figures inlined as images (data:\n"
		 "URIs of their SVG, else PNG, bytes), and the list of its files; no external\n"
		 "file, script or URL, and nothing of the folder that can run (SVG shown as\n"
		 "an image, a Content-Security-Policy with no script) or lies outside it\n"
		 "(links, FIFOs and devices are listed, never read).  Where the folder has runs.csv or summary.csv and no\n"
		 "figures/, `hetsim plot all` draws them first.  The same folder gives the\n"
		 "same bytes.  docs/output.md, \"report.html\".",
		 rep_opts);
}

int cmd_report(int argc, char **argv)
{
	struct cmd_args a;
	if (cmd_parse("report", rep_opts, argc, argv, &a))
		return 2;
	if (cmd_get(rep_opts, &a, "help")) {
		rep_help();
		return 0;
	}
	if (a.npos != 1) {
		fprintf(stderr, "hetsim report: expected one DIR, got %d arguments (see hetsim "
			"report --help)\n", a.npos);
		return 2;
	}
	struct rep r = {.dir = a.pos[0], .max_rows = 50};
	const char *v = cmd_get(rep_opts, &a, "rows");
	if (v) {
		int64_t n = cmd_int("report", "rows", v, 1000000000);
		if (n < 0)
			return 2;
		r.max_rows = (int)n;
	}
	struct stat st;
	if (stat(r.dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "hetsim report: %s: %s\n", r.dir,
			errno && !S_ISDIR(st.st_mode) ? strerror(errno) : "not a folder");
		return 1;
	}
	/* DIR itself as named (a link the user gives is theirs to give);
	 * everything under it from this descriptor */
	r.dfd = open(r.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r.dfd < 0) {
		fprintf(stderr, "hetsim report: %s: %s\n", r.dir, strerror(errno));
		return 1;
	}
	char outbuf[4300], tmp[4400];
	const char *out = cmd_get(rep_opts, &a, "output");
	if (!out) {
		snprintf(outbuf, sizeof outbuf, "%s/report.html", r.dir);
		out = outbuf;
	}
	/* the page itself, when it is in the folder, is not one of its files */
	size_t dl = strlen(r.dir);
	r.out_rel = !strncmp(out, r.dir, dl) && out[dl] == '/' ? out + dl + 1 : "";
	if (walk(&r, reopen_dir(r.dfd), "", 0))
		goto fail;
	const char *kind = folder_kind(&r);
	char figs[4300];
	snprintf(figs, sizeof figs, "%s/figures", r.dir);
	int draw = !cmd_get(rep_opts, &a, "no-plot") && stat(figs, &st) &&
		   (!strcmp(kind, "run") || !strcmp(kind, "sweep"));
	if (draw && r.nskip) { /* hetsim plot reads by path: not where links are */
		fprintf(stderr, "hetsim report: %s: its figures are not drawn first: %d of its "
			"files are links or other non-regular files\n", r.dir, r.nskip);
		draw = 0;
	}
	if (draw) {
		char *pv[8] = {"all", "-d", (char *)r.dir};
		int pn = 3;
		const char *scn = cmd_get(rep_opts, &a, "scenario");
		if (scn) {
			pv[pn++] = "-s";
			pv[pn++] = (char *)scn;
		}
		int prc = cmd_plot(pn, pv);
		for (int i = 0; i < r.nf; i++)
			free(r.f[i].rel);
		r.nf = 0;
		if (prc) {
			free(r.f);
			close(r.dfd);
			return prc;
		}
		r.nskip = 0;
		if (walk(&r, reopen_dir(r.dfd), "", 0)) /* again, with the figures */
			goto fail;
	}
	load_pol_order(&r);
	qsort(r.f, (size_t)r.nf, sizeof *r.f, cmp_rfile);
	for (int k = 0; k < npol_order; k++)
		free(pol_order[k]);
	free(pol_order);
	pol_order = NULL;
	npol_order = 0;
	char title[1024] = "";
	const char *tv = cmd_get(rep_opts, &a, "title");
	if (tv)
		snprintf(title, sizeof title, "%s", tv);
	else
		md_title(&r, title, sizeof title);
	if (!*title) {
		const char *b = strrchr(r.dir, '/');
		b = b && b[1] ? b + 1 : r.dir;
		snprintf(title, sizeof title, "hetsim %s: %s", kind, b);
	}
	snprintf(tmp, sizeof tmp, "%s.tmp", out);
	r.o = fopen(tmp, "w");
	int rc = 0;
	if (!r.o) {
		fprintf(stderr, "hetsim report: %s: %s\n", tmp, strerror(errno));
		rc = 1;
	} else {
		errno = 0; /* a write that fails sets it (EFBIG, ENOSPC); none resets it */
		write_page(&r, title, kind);
		bool bad = fflush(r.o) != 0 || ferror(r.o) != 0;
		int e = bad ? cmd_io_errno(r.o, errno) : EIO;
		if (fclose(r.o) && !bad)
			bad = true, e = errno;
		if (bad) {
			fprintf(stderr, "hetsim report: cannot write %s: %s\n", tmp, strerror(e));
			rc = 1;
		}
		if (!rc && r.err)
			rc = 1;
		if (rc || rename(tmp, out)) {
			if (!rc)
				fprintf(stderr, "hetsim report: %s: %s\n", out, strerror(errno));
			remove(tmp);
			rc = 1;
		}
	}
	if (!rc)
		printf("wrote %s (%d tables, %d SVG and %d PNG figures inline)\n", out, r.ntables,
		       r.nsvg, r.nimg);
	for (int i = 0; i < r.nf; i++)
		free(r.f[i].rel);
	free(r.f);
	close(r.dfd);
	return rc;
fail:
	for (int i = 0; i < r.nf; i++)
		free(r.f[i].rel);
	free(r.f);
	close(r.dfd);
	return 1;
}
