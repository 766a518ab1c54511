/* palette.c - the figures' colours: the palette and the table of names
 * in plot/common.gp (its datablocks $palette and $colour_of), read here
 * once a process (palette(), the one guard every colour goes through),
 * the rule that gives the names of one figure their colours
 * (plot_palette_assign), and the colours a figure asks for
 * (plot_colours_for, plot_colour_words, plot_tint).  The table lives in
 * common.gp, not here, so that one file holds it for hetsim's figures
 * and for one drawn by hand.
 *
 * May call: plot/gnuplot.c (plot_find_scripts), plot/common.c (name
 * lists), sim/util.h.
 */
#include "plot.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* One datablock line cut into fields, each with its 1-based column. */
struct fields {
	char *f[4];
	int col[4];
	int n;
};

static void cut(char *line, struct fields *fl)
{
	fl->n = 0;
	for (char *p = line; *p && fl->n < 4;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		fl->f[fl->n] = p;
		fl->col[fl->n++] = (int)(p - line) + 1;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
}

static bool is_rgb(const char *s)
{
	if (s[0] != '#' || strlen(s) != 7)
		return false;
	for (int i = 1; i < 7; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* An integer in [1, PLOT_PALETTE_SLOTS], or 0. */
static int slot_num(const char *s)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	return !errno && end != s && !*end && v >= 1 && v <= PLOT_PALETTE_SLOTS ? (int)v : 0;
}

/* One line of $palette (want: its slot) or $colour_of into p; -1 and err. */
static int palette_line(const char *path, int ln, char *line, int block, int want,
			struct plot_palette *p, char *err, size_t errlen)
{
	struct fields fl;
	cut(line, &fl);
	if (block == 0) {
		if (fl.n < 2 || slot_num(fl.f[0]) != want) {
			snprintf(err, errlen, "%s:%d:%d: palette line: slot %d expected, got '%s'",
				 path, ln, fl.n ? fl.col[0] : 1, want, fl.n ? fl.f[0] : "");
			return -1;
		}
		if (!is_rgb(fl.f[1])) {
			snprintf(err, errlen, "%s:%d:%d: palette slot %d: colour '%s' is not #RRGGBB",
				 path, ln, fl.col[1], want, fl.f[1]);
			return -1;
		}
		for (int i = 0; i < 7; i++)
			p->rgb[want - 1][i] = (char)tolower((unsigned char)fl.f[1][i]);
		p->rgb[want - 1][7] = '\0';
		return 0;
	}
	if (fl.n != 2 || !slot_num(fl.f[1])) {
		snprintf(err, errlen, "%s:%d:%d: colour_of line: NAME SLOT (1 to %d) expected, got "
			 "'%s'", path, ln, fl.n > 1 ? fl.col[1] : 1, PLOT_PALETTE_SLOTS,
			 fl.n > 1 ? fl.f[1] : line);
		return -1;
	}
	if (strlen(fl.f[0]) >= sizeof p->name[0].name || p->nnames == PLOT_PALETTE_NAMES) {
		snprintf(err, errlen, "%s:%d:%d: colour_of: '%.60s' is one name too many or too long "
			 "(at most %d names of %d bytes)", path, ln, fl.col[0], fl.f[0],
			 PLOT_PALETTE_NAMES, (int)sizeof p->name[0].name - 1);
		return -1;
	}
	for (int i = 0; i < p->nnames; i++)
		if (!strcmp(p->name[i].name, fl.f[0])) {
			snprintf(err, errlen, "%s:%d:%d: colour_of: '%s' listed twice", path, ln,
				 fl.col[0], fl.f[0]);
			return -1;
		}
	snprintf(p->name[p->nnames].name, sizeof p->name[0].name, "%s", fl.f[0]);
	p->name[p->nnames++].slot = slot_num(fl.f[1]);
	return 0;
}

int plot_palette_read(const char *path, struct plot_palette *p, char *err, size_t errlen)
{
	static const char *const heads[2] = {"$palette << EOD", "$colour_of << EOD"};
	memset(p, 0, sizeof *p);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s:0:0: cannot open: %s", path, strerror(errno));
		return -1;
	}
	char line[512];
	int ln = 0, block = -1, seen[2] = {0, 0}, nslots = 0, rc = 0;
	while (!rc && fgets(line, sizeof line, f)) {
		ln++;
		line[strcspn(line, "\r\n")] = '\0';
		if (block < 0) {
			for (int b = 0; b < 2; b++)
				if (!strcmp(line, heads[b]))
					block = b;
			if (block >= 0 && seen[block]++) {
				snprintf(err, errlen, "%s:%d:1: a second '%s'", path, ln, heads[block]);
				rc = -1;
			}
			continue;
		}
		if (!strcmp(line, "EOD")) {
			block = -1;
			continue;
		}
		if (line[strspn(line, " \t")] == '#' || !line[strspn(line, " \t")])
			continue;
		if (block == 0 && nslots == PLOT_PALETTE_SLOTS) {
			snprintf(err, errlen, "%s:%d:1: palette: more than %d slots", path, ln,
				 PLOT_PALETTE_SLOTS);
			rc = -1;
			continue;
		}
		rc = palette_line(path, ln, line, block, nslots + 1, p, err, errlen);
		nslots += block == 0 && !rc;
	}
	fclose(f);
	if (!rc && block >= 0) {
		snprintf(err, errlen, "%s:%d:1: '%s' has no closing EOD", path, ln, heads[block]);
		rc = -1;
	}
	if (!rc && (!seen[0] || !seen[1])) {
		snprintf(err, errlen, "%s:%d:1: no '%s' datablock (the figures' %s)", path, ln,
			 heads[seen[0] ? 1 : 0], seen[0] ? "names' slots" : "palette");
		rc = -1;
	}
	if (!rc && nslots != PLOT_PALETTE_SLOTS) {
		snprintf(err, errlen, "%s:%d:1: palette: slots 1 to %d given, %d expected", path, ln,
			 nslots, PLOT_PALETTE_SLOTS);
		rc = -1;
	}
	return rc;
}

/* The one guard of the figures' colours: the palette of the scripts'
 * common.gp (plot_find_scripts), read once a process and kept (read
 * again only if the scripts' folder is another, as HETSIM_PLOT_DIR
 * changed), not once a figure or a colour.  NULL and err: PLOT_NONE in
 * *why where there are no scripts (a figure skipped: plot_gnuplot says
 * so), -1 where common.gp's palette is bad. */
static const struct plot_palette *palette(int *why, char *err, size_t errlen)
{
	static struct plot_palette cache;
	static char cached[4300]; /* the common.gp read into cache; "" if none */
	char dir[4200], path[4300];
	if (!plot_find_scripts(dir, sizeof dir)) {
		snprintf(err, errlen, "cannot find the gnuplot scripts (plot/common.gp, which holds "
			 "the figures' palette); set HETSIM_PLOT_DIR");
		*why = PLOT_NONE;
		return NULL;
	}
	snprintf(path, sizeof path, "%s/common.gp", dir);
	if (*cached && !strcmp(cached, path))
		return &cache;
	cached[0] = '\0';
	if (plot_palette_read(path, &cache, err, errlen)) {
		*why = -1;
		return NULL;
	}
	snprintf(cached, sizeof cached, "%s", path);
	return &cache;
}

int plot_palette_load(struct plot_palette *p, char *err, size_t errlen)
{
	int why;
	const struct plot_palette *c = palette(&why, err, errlen);
	if (!c) {
		memset(p, 0, sizeof *p);
		return -1;
	}
	*p = *c;
	return 0;
}

int plot_colours_for(const struct plot_names *ns, const char **out, char *err, size_t errlen)
{
	int slot[PLOT_MAX_NAMES], why;
	const struct plot_palette *p = palette(&why, err, errlen);
	if (!p)
		return why;
	plot_palette_assign(p, ns->v, ns->n, slot);
	for (int i = 0; i < ns->n; i++)
		out[i] = p->rgb[slot[i] - 1];
	return 0;
}

int plot_colour_words(const char *list, char *buf, size_t len, char *err, size_t errlen)
{
	char names[4096];
	struct plot_names ns = {{0}, 0};
	const char *col[PLOT_MAX_NAMES];
	snprintf(names, sizeof names, "%s", list);
	for (char *save, *t = strtok_r(names, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (plot_names_add(&ns, t) < 0) {
			snprintf(err, errlen, "more than %d names in one figure", PLOT_MAX_NAMES);
			return -1;
		}
	int rc = plot_colours_for(&ns, col, err, errlen);
	if (rc)
		return rc;
	buf[0] = '\0';
	for (int i = 0; i < ns.n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? " " : "", col[i]);
	return 0;
}

const char *plot_tint(const char *rgb, double a, char *buf)
{
	unsigned long c = strtoul(rgb + 1, NULL, 16), o = 0;
	for (int sh = 16; sh >= 0; sh -= 8)
		o |= (unsigned long)lround(a * (double)(c >> sh & 0xff) + (1 - a) * 255) << sh;
	snprintf(buf, 8, "#%06lx", o & 0xffffff);
	return buf;
}

/* The table's index of a name, or -1. */
static int table_at(const struct plot_palette *p, const char *name)
{
	for (int i = 0; i < p->nnames; i++)
		if (!strcmp(p->name[i].name, name))
			return i;
	return -1;
}

/* Pass B's order: names of the table first (in its order), then the
 * others by byte order; a duplicate after its first appearance. */
struct pending {
	int i;   /* index in the figure's names */
	int at;  /* in the table, or PLOT_PALETTE_NAMES */
	const char *name;
};

static int pending_cmp(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

void plot_palette_assign(const struct plot_palette *p, const char *const *names, int n, int *slot)
{
	bool used[PLOT_PALETTE_SLOTS + 1] = {false};
	for (int i = 0; i < n; i++)
		slot[i] = 0;
	/* pass A: the table's names their own slot, in the table's order */
	for (int t = 0; t < p->nnames; t++) {
		int s = p->name[t].slot;
		for (int i = 0; i < n && !used[s]; i++)
			if (!strcmp(names[i], p->name[t].name)) {
				slot[i] = s;
				used[s] = true;
			}
	}
	/* a repeated name takes the slot its first appearance took */
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i && !slot[i]; j++)
			if (!strcmp(names[i], names[j]) && slot[j])
				slot[i] = slot[j];
	/* pass B: the rest, in a fixed order, the first free slot (beyond
	 * twenty, the slots again from the first) */
	struct pending *q = xmalloc(((size_t)n + 1) * sizeof *q);
	int nq = 0, over = 0;
	for (int i = 0; i < n; i++)
		if (!slot[i]) {
			int at = table_at(p, names[i]);
			q[nq++] = (struct pending){i, at < 0 ? PLOT_PALETTE_NAMES : at, names[i]};
		}
	qsort(q, (size_t)nq, sizeof *q, pending_cmp);
	for (int k = 0; k < nq; k++) {
		int i = q[k].i, s = 0;
		for (int j = 0; j < i && !s; j++) /* a repeat of a name placed in this pass */
			if (!strcmp(names[i], names[j]))
				s = slot[j];
		for (int c = 1; c <= PLOT_PALETTE_SLOTS && !s; c++)
			if (!used[c])
				s = c;
		if (!s)
			s = over++ % PLOT_PALETTE_SLOTS + 1;
		used[s] = true;
		slot[i] = s;
	}
	free(q);
}
