/* test_report.c - `hetsim report`: the page holds its tables and
 * figures, references nothing outside itself, and nothing of a hostile
 * folder runs in it or leaks into it (cli/report.c). */
#define _DEFAULT_SOURCE /* mkdtemp, symlink */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "test.h"

static void put(const char *dir, const char *rel, const char *text, size_t n)
{
	char p[600];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	FILE *f = fopen(p, "wb");
	CU_ASSERT_FATAL(f != NULL);
	fwrite(text, 1, n, f);
	fclose(f);
}
#define PUT(d, rel, s) put(d, rel, s, sizeof s - 1)

static int count(const char *s, const char *pat)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, pat)); p += strlen(pat))
		n++;
	return n;
}

/* Every src= is a data: URI, and no href= or url( is left at all. */
static int self_contained(const char *s)
{
	for (const char *p = s; (p = strstr(p, "src=\"")); p++)
		if (strncmp(p + 5, "data:", 5))
			return 0;
	return !strstr(s, "href") && !strstr(s, "url(") && !strstr(s, "xmlns") &&
	       !strstr(s, "http:") && !strstr(s, "https:") && !strstr(s, "<script") &&
	       !strstr(s, "<link") && !strstr(s, "<svg");
}

static int b64_val(int c)
{
	return isupper(c) ? c - 'A' : islower(c) ? c - 'a' + 26 : isdigit(c) ? c - '0' + 52
	       : c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* The bytes of the data: URI after `lead` in page (base64 decoded), or
 * NULL; *n their count. */
static unsigned char *data_uri(const char *page, const char *lead, long *n)
{
	const char *p = strstr(page, lead);
	if (!p)
		return NULL;
	p += strlen(lead);
	size_t len = strcspn(p, "\"");
	unsigned char *out = malloc(len + 1);
	long k = 0;
	unsigned v = 0;
	int bits = 0;
	for (size_t i = 0; i < len && p[i] != '='; i++) {
		int d = b64_val((unsigned char)p[i]);
		if (d < 0) {
			free(out);
			return NULL;
		}
		v = v << 6 | (unsigned)d;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[k++] = (unsigned char)(v >> bits);
		}
	}
	*n = k;
	return out;
}

/* The page's markup against an allow-list: each tag one hetsim report
 * writes (no <script>, <svg>, <iframe>, <object>, <a>, <link>, ...), each
 * attribute one of its own (no on*=, href=, style=, xlink:...), each src
 * a base64 data: URI of a PNG or SVG image, and the one meta tag with a
 * Content-Security-Policy that forbids scripts.  0 when all hold, else
 * the offset of the first fault + 1. */
static long markup_fault(const char *page)
{
	static const char *const tags[] = {
		"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4", "h5",
		"h6", "p", "code", "strong", "em", "span", "section", "details", "summary", "div",
		"table", "thead", "tbody", "tr", "th", "td", "figure", "figcaption", "img", "ul",
		"ol", "li", "pre", "blockquote"};
	static const char *const attrs[] = {"lang", "charset", "http-equiv", "content",
					    "class", "open", "alt", "src", "id"};
	const char *csp = strstr(page, "<meta http-equiv=\"Content-Security-Policy\" "
				       "content=\"default-src 'none'; img-src data:; "
				       "style-src 'unsafe-inline'; base-uri 'none'; "
				       "form-action 'none'\">");
	if (!csp || csp > strstr(page, "<title>") || strncmp(page, "<!DOCTYPE html>", 15))
		return 1;
	for (const char *p = page + 15; (p = strchr(p, '<')); p++) {
		const char *t = p + 1 + (p[1] == '/');
		size_t tl = strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789");
		int ok = 0;
		for (size_t k = 0; k < sizeof tags / sizeof *tags && !ok; k++)
			ok = strlen(tags[k]) == tl && !strncmp(t, tags[k], tl);
		if (!ok)
			return p - page + 1;
		const char *a = t + tl;
		while (*a == ' ') {
			a++;
			size_t al = strspn(a, "abcdefghijklmnopqrstuvwxyz-");
			ok = 0;
			for (size_t k = 0; k < sizeof attrs / sizeof *attrs && !ok; k++)
				ok = strlen(attrs[k]) == al && !strncmp(a, attrs[k], al);
			if (!ok)
				return a - page + 1;
			const char *v = a + al;
			if (*v == '=') {
				if (v[1] != '"')
					return v - page + 1;
				const char *q = strchr(v + 2, '"');
				if (!q || memchr(v + 2, '<', (size_t)(q - v - 2)))
					return v - page + 1;
				if (al == 3 && !strncmp(a, "src", 3)) {
					const char *d = v + 2;
					size_t lead = !strncmp(d, "data:image/png;base64,", 22) ? 22
						      : !strncmp(d, "data:image/svg+xml;base64,", 26) ? 26 : 0;
					if (!lead || strspn(d + lead, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi"
							    "jklmnopqrstuvwxyz0123456789+/=") !=
							     (size_t)(q - d) - lead)
						return v - page + 1;
				}
				v = q + 1;
			}
			a = v;
		}
		if (*a != '>')
			return a - page + 1;
		if (tl == 5 && !strncmp(t, "style", 5) && p[1] != '/') { /* its CSS: no '<' */
			p = strstr(a, "</style>");
			if (!p)
				return a - page + 1;
		}
	}
	return 0;
}

/* A gnuplot-like SVG: a declaration, namespaces, a marker used by id
 * and a clip path by url(). */
static const char svg_a[] =
	"<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
	"<svg \n viewBox=\"0 0 100 50\"\n xmlns=\"http://www.w3.org/2000/svg\"\n"
	" xmlns:xlink=\"http://www.w3.org/1999/xlink\"\n>\n<title>Gnuplot</title>\n"
	"<defs><path id='gpPt0' d='M0,0 h2'/><clipPath id=\"c1\"><rect width=\"9\" "
	"height=\"9\"/></clipPath></defs>\n"
	"<g clip-path=\"url(#c1)\"><use xlink:href='#gpPt0' x='3'/></g>\n</svg>\n";
static const char svg_b[] =
	"<svg viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\">"
	"<path id='gpPt0' d='M0,0 h1'/></svg>\n";

static char *make_folder(char *dir)
{
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	char p[600];
	snprintf(p, sizeof p, "%s/figures", dir);
	CU_ASSERT_FATAL(mkdir(p, 0755) == 0);
	PUT(dir, "report.md",
	    "# My title\n\nIntro with **bold**, *some* `code` and [docs](docs/x.md).\n\n"
	    "Figures: `figures/a.png` here.\n\n| a | b |\n|---|---|\n| 1 | <x> |\n\n"
	    "- item one\n- item `figures/b*.png`,\n  continued\n\n## Two\n\nEnd & more.\n");
	put(dir, "figures/a.svg", svg_a, sizeof svg_a - 1);
	PUT(dir, "figures/a.png", "not read");
	put(dir, "figures/b1.svg", svg_b, sizeof svg_b - 1);
	PUT(dir, "figures/c.png", "\x89PNG\r\n\x1a\n");
	PUT(dir, "figures/c.dat", "1 2\n");
	PUT(dir, "data.csv", "# a comment\nname,value,note\nx,3.5,\"x, y\"\ny,-2,a<b&c\nz,1e3,\n");
	return dir;
}

static void test_page(void)
{
	char dir[] = "/tmp/hetsim-report-XXXXXX";
	make_folder(dir);
	char args[700], *out = NULL, *err = NULL, path[600];
	snprintf(args, sizeof args, "report %s --rows 2", dir);
	CU_ASSERT_EQUAL_FATAL(h_hetsim(args, &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	snprintf(path, sizeof path, "wrote %s/report.html (1 tables, 2 SVG and 1 PNG figures "
		 "inline)\n", dir);
	CU_ASSERT_STRING_EQUAL(out, path);
	free(out);
	free(err);
	snprintf(path, sizeof path, "%s/report.html", dir);
	long len;
	char *page = h_slurp(path, &len);
	CU_ASSERT_FATAL(page != NULL);
	CU_ASSERT(self_contained(page));
	CU_ASSERT_EQUAL(markup_fault(page), 0);
	/* the figures: each an image of its file's bytes, as data: URIs */
	CU_ASSERT_EQUAL(count(page, "<img "), 3);
	CU_ASSERT(strstr(page, "Inline figures: 2 SVG, 1 PNG.") != NULL);
	long n;
	unsigned char *svg = data_uri(page, "<img alt=\"figures/a.svg\" src=\"data:image/svg+xml;"
					    "base64,", &n);
	CU_ASSERT(svg && n == (long)sizeof svg_a - 1 && !memcmp(svg, svg_a, (size_t)n));
	free(svg);
	svg = data_uri(page, "<img alt=\"figures/b1.svg\" src=\"data:image/svg+xml;base64,", &n);
	CU_ASSERT(svg && n == (long)sizeof svg_b - 1 && !memcmp(svg, svg_b, (size_t)n));
	free(svg);
	CU_ASSERT(strstr(page, "src=\"data:image/png;base64,iVBORw0KGgo=\"") != NULL);
	/* the Markdown: the title once, as the page's h1 */
	CU_ASSERT_EQUAL(count(page, "My title"), 2); /* <title> and <h1> */
	CU_ASSERT(strstr(page, "<h1>My title</h1>") && strstr(page, "<h3>Two</h3>"));
	CU_ASSERT(strstr(page, "<p>Intro with <strong>bold</strong>, <em>some</em> "
			       "<code>code</code> and docs <span class=\"ref\">[docs/x.md]"
			       "</span>.</p>") != NULL);
	CU_ASSERT(strstr(page, "<tr><td>1</td><td>&lt;x&gt;</td></tr>") != NULL);
	CU_ASSERT(strstr(page, "<li>item <code>figures/b*.png</code>,\n  continued</li>") != NULL);
	CU_ASSERT(strstr(page, "<p>End &amp; more.</p>") != NULL);
	/* each figure after the block that names it, the other at the end */
	const char *fig_a = strstr(page, "<img alt=\"figures/a.svg\""),
		   *fig_b = strstr(page, "<img alt=\"figures/b1.svg\""),
		   *fig_c = strstr(page, "<img alt=\"figures/c.png\"");
	CU_ASSERT_FATAL(fig_a && fig_b && fig_c);
	CU_ASSERT(strstr(page, "Figures: <code>") < fig_a && fig_a < strstr(page, "<table class"));
	CU_ASSERT(strstr(page, "</ul>") < fig_b && fig_b < strstr(page, "<h3>Two"));
	CU_ASSERT(strstr(page, "<h2>Figures</h2>") < fig_c);
	/* the CSV: quoted fields whole, escaped, numbers aligned, 2 of 3 rows */
	CU_ASSERT(strstr(page, "<code>data.csv</code>: 3 rows, 3 columns; rows 1&ndash;2 shown, "
			       "the other 1 are in the file</summary>") != NULL);
	CU_ASSERT(strstr(page, "<p class=\"note\"># a comment</p>") != NULL);
	CU_ASSERT(strstr(page, "<tr><td>x</td><td class=\"n\">3.5</td><td>x, y</td></tr>") != NULL);
	CU_ASSERT(strstr(page, "<td>a&lt;b&amp;c</td>") != NULL);
	CU_ASSERT(strstr(page, "1e3") == NULL); /* the third row is left out */
	/* the file list says what became of each file */
	CU_ASSERT(strstr(page, "<code>figures/a.png</code></td><td class=\"n\">8</td><td>not shown "
			       "(its SVG is)") != NULL);
	CU_ASSERT(strstr(page, "<code>figures/c.dat</code></td><td class=\"n\">4</td><td>not shown "
			       "(a figure&#39;s gnuplot data)") == NULL); /* no escaping there */
	CU_ASSERT(strstr(page, "<code>figures/c.dat</code></td><td class=\"n\">4</td><td>not shown "
			       "(a figure's gnuplot data)") != NULL);
	CU_ASSERT(strstr(page, "report.html</code>") == NULL); /* not a file of its own */
	/* the same folder, the same bytes */
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 0);
	free(out);
	free(err);
	long len2;
	char *again = h_slurp(path, &len2);
	CU_ASSERT(again && len2 == len && !memcmp(page, again, (size_t)len));
	free(again);
	free(page);
	h_rmtree(dir);
}

static void test_errors(void)
{
	char *out, *err;
	CU_ASSERT_EQUAL(h_hetsim("report /tmp/hetsim-no-such-folder", &out, &err), 1);
	CU_ASSERT_STRING_EQUAL(err, "hetsim report: /tmp/hetsim-no-such-folder: No such file or "
				    "directory\n");
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("report tests/data --rows x", &out, &err), 2);
	CU_ASSERT(strstr(err, "'--rows'") != NULL && strstr(err, "'x'") != NULL);
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("report", &out, &err), 2);
	free(out);
	free(err);
	CU_ASSERT_EQUAL(h_hetsim("report tests/data --colour", &out, &err), 2);
	CU_ASSERT(strstr(err, "unknown option '--colour'") != NULL);
	free(out);
	free(err);
	/* an output that cannot be written: one line, nothing left behind */
	char dir[] = "/tmp/hetsim-report-XXXXXX", args[700];
	make_folder(dir);
	snprintf(args, sizeof args, "report %s -o %s/none/report.html", dir, dir);
	CU_ASSERT_EQUAL(h_hetsim(args, &out, &err), 1);
	CU_ASSERT(strstr(err, "/none/report.html.tmp: No such file or directory\n") != NULL);
	CU_ASSERT_EQUAL(count(err, "\n"), 1);
	free(out);
	free(err);
	h_rmtree(dir);
}

static int have_gnuplot(void)
{
	return system("gnuplot --version >/dev/null 2>&1") == 0;
}

/* A real run's folder: the figures drawn first, every one inlined. */
static void test_run_folder(void)
{
	char dir[] = "/tmp/hetsim-report-XXXXXX", args[700], *out, *err;
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(args, sizeof args, "run scenarios/paper-mixed.yaml -q -r 1 -o %s", dir);
	CU_ASSERT_EQUAL_FATAL(h_hetsim(args, &out, &err), 0);
	free(out);
	free(err);
	snprintf(args, sizeof args, "report %s -s scenarios/paper-mixed.yaml", dir);
	CU_ASSERT_EQUAL_FATAL(h_hetsim(args, &out, &err), 0);
	int nsvg = count(out, ".svg\n"); /* hetsim plot's "wrote" lines */
	free(out);
	free(err);
	char path[600];
	snprintf(path, sizeof path, "%s/report.html", dir);
	long len;
	char *page = h_slurp(path, &len);
	CU_ASSERT_FATAL(page != NULL);
	CU_ASSERT(self_contained(page));
	CU_ASSERT_EQUAL(markup_fault(page), 0);
	if (have_gnuplot()) {
		/* policies, jct-by-type, gantt and utilisation of each of 3 policies */
		CU_ASSERT_EQUAL(nsvg, 8);
		CU_ASSERT_EQUAL(count(page, "<img alt=\"figures/"), 8);
		CU_ASSERT_EQUAL(count(page, "src=\"data:image/svg+xml;base64,"), 8);
		CU_ASSERT(strstr(page, "Inline figures: 8 SVG, 0 PNG.") != NULL);
	}
	/* it opens with the table run printed (table.md, its title the
	 * page's), runs.csv the first table, the manifest closed, the
	 * figures of each policy in the scenario's order */
	CU_ASSERT(strstr(page, "<title>paper-mixed: hetsim run</title>") != NULL);
	const char *tab = strstr(page, "<pre><code>paper-mixed: means over 1 replication");
	const char *runs = strstr(page, "<code>runs.csv</code>: 3 rows, ");
	CU_ASSERT(tab && runs && tab < runs);
	CU_ASSERT(runs && strstr(page, "<h2>Tables</h2>\n<details open>\n<summary><code>runs.csv")
		  != NULL);
	CU_ASSERT(strstr(page, "<details>\n<summary><code>manifest.csv</code>") != NULL);
	if (have_gnuplot()) {
		const char *a = strstr(page, "gantt-spark-standalone.svg"),
			   *b = strstr(page, "gantt-label-dual.svg"), *c = strstr(page, "gantt-yarn.svg");
		CU_ASSERT(a && b && c && a < b && b < c);
	}
	free(page);
	h_rmtree(dir);
}

/* Hostile SVGs: each would run a script, leave the page or fetch
 * something if it were inlined as markup. */
static const char *const evil_svg[][2] = {
	{"script", "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>document.title="
		   "'PWNED'</script></svg>"},
	{"onload", "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"document.title="
		   "'PWNED'\"><rect width=\"9\" height=\"9\" onclick=\"alert(1)\"/></svg>"},
	{"jslink", "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/"
		   "1999/xlink\"><a xlink:href=\"javascript:alert(1)\"><text y=\"9\">x</text>"
		   "</a><a href='javascript:alert(2)'><text>y</text></a></svg>"},
	{"foreign", "<svg xmlns=\"http://www.w3.org/2000/svg\"><foreignObject width=\"9\" "
		    "height=\"9\"><body xmlns=\"http://www.w3.org/1999/xhtml\"><script>alert(1)"
		    "</script><iframe src=\"file:///etc/passwd\"></iframe></body></foreignObject>"
		    "</svg>"},
	{"cssurl", "<svg xmlns=\"http://www.w3.org/2000/svg\"><style>rect{fill:url("
		   "http://127.0.0.1:9/x.svg#p)}@import url(http://127.0.0.1:9/y.css);</style>"
		   "<rect width=\"9\" height=\"9\" style=\"filter:url(http://127.0.0.1:9/f)\"/>"
		   "</svg>"},
	{"use", "<svg xmlns=\"http://www.w3.org/2000/svg\"><use href=\"../outside/evil.svg#x\"/>"
		"<image href=\"file:///etc/passwd\" width=\"9\" height=\"9\"/></svg>"},
	{"animate", "<svg xmlns=\"http://www.w3.org/2000/svg\"><a><animate attributeName=\"href\" "
		    "values=\"javascript:alert(1)\"/><set attributeName=\"href\" "
		    "to=\"javascript:alert(2)\"/><text y=\"9\">z</text></a></svg>"},
};

/* A folder someone else wrote: hostile SVGs and Markdown, links out of
 * it (to a file, a folder and a figure), a FIFO, a name with a newline.
 * The page passes the markup allow-list, shows each SVG only as an
 * image of its own bytes, reads nothing through a link and lists each
 * thing it did not read. */
static void test_hostile(void)
{
	char dir[] = "/tmp/hetsim-report-XXXXXX", out_dir[] = "/tmp/hetsim-outside-XXXXXX";
	CU_ASSERT_FATAL(mkdtemp(dir) && mkdtemp(out_dir));
	PUT(out_dir, "secret.csv", "name\nSECRET-MARKER\n");
	PUT(out_dir, "evil.svg", "<svg><text>SECRET-MARKER</text></svg>");
	char p[700], q[700];
	snprintf(p, sizeof p, "%s/evil", dir); /* no figures/: plot would draw */
	CU_ASSERT_FATAL(mkdir(p, 0755) == 0);
	int nevil = (int)(sizeof evil_svg / sizeof *evil_svg);
	for (int i = 0; i < nevil; i++) {
		snprintf(p, sizeof p, "evil/%s.svg", evil_svg[i][0]);
		put(dir, p, evil_svg[i][1], strlen(evil_svg[i][1]));
	}
	PUT(dir, "notes.md", "# Notes\n\n<script>alert(1)</script> <img src=x onerror=alert(1)> "
			     "[go](javascript:alert(1)) ![i](http://127.0.0.1:9/x.svg)\n");
	PUT(dir, "runs.csv", "policy,makespan_s\n<b>x</b>,1\n");
	PUT(dir, "new\nline.csv", "a\n1\n");
	const char *links[][2] = {{"secret.csv", "/secret.csv"}, {"outside", ""},
				  {"evil/link.svg", "/evil.svg"}};
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, links[i][0]);
		snprintf(q, sizeof q, "%s%s", out_dir, links[i][1]);
		CU_ASSERT_FATAL(symlink(q, p) == 0);
	}
	snprintf(p, sizeof p, "%s/fifo.csv", dir);
	CU_ASSERT_FATAL(mkfifo(p, 0644) == 0);
	char args[800], *out, *err;
	snprintf(args, sizeof args, "report %s", dir);
	CU_ASSERT_EQUAL_FATAL(h_hetsim(args, &out, &err), 0);
	/* runs.csv makes it a run's folder; hetsim plot reads by path, so
	 * where links are it is not called */
	snprintf(p, sizeof p, "hetsim report: %s: its figures are not drawn first: 4 of its files "
		 "are links or other non-regular files\n", dir);
	CU_ASSERT_STRING_EQUAL(err, p);
	snprintf(p, sizeof p, "wrote %s/report.html (2 tables, %d SVG and 0 PNG figures inline)\n",
		 dir, nevil);
	CU_ASSERT_STRING_EQUAL(out, p);
	free(out);
	free(err);
	snprintf(p, sizeof p, "%s/report.html", dir);
	long len;
	char *page = h_slurp(p, &len);
	CU_ASSERT_FATAL(page != NULL);
	long fault = markup_fault(page);
	CU_ASSERT_EQUAL(fault, 0);
	if (fault)
		fprintf(stderr, "\nmarkup fault at: %.60s\n", page + fault - 1);
	CU_ASSERT(strstr(page, "SECRET-MARKER") == NULL);
	CU_ASSERT(strstr(page, "U0VDUkVU") == NULL); /* "SECRET" in base64, at any of */
	CU_ASSERT(strstr(page, "NFQ1JFV") == NULL);  /* its three alignments */
	CU_ASSERT(strstr(page, "TRUNSRV") == NULL);
	CU_ASSERT_EQUAL(count(page, "<img "), nevil);
	for (int i = 0; i < nevil; i++) {
		snprintf(q, sizeof q, "<img alt=\"evil/%s.svg\" src=\"data:image/svg+xml;base64,",
			 evil_svg[i][0]);
		long n;
		unsigned char *b = data_uri(page, q, &n);
		CU_ASSERT(b && n == (long)strlen(evil_svg[i][1]) && !memcmp(b, evil_svg[i][1], (size_t)n));
		free(b);
	}
	/* the Markdown and the CSV as text */
	CU_ASSERT(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x "
			       "onerror=alert(1)&gt;") != NULL);
	CU_ASSERT(strstr(page, "<td>&lt;b&gt;x&lt;/b&gt;</td>") != NULL);
	/* what was not read, and why; the newline shown, not kept */
	static const char *const listed[] = {
		"<code>fifo.csv</code></td><td class=\"n\">0</td><td>not read: a FIFO</td>",
		"<code>evil/link.svg</code></td><td class=\"n\">0</td><td>not read: a symbolic "
		"link</td>",
		"<code>outside</code></td><td class=\"n\">0</td><td>not read: a symbolic link</td>",
		"<code>secret.csv</code></td><td class=\"n\">0</td><td>not read: a symbolic link"
		"</td>",
		"<code>new\\nline.csv</code></td><td class=\"n\">4</td><td>a table</td>",
		"4 files of the folder are not regular files (links, FIFOs, ...): not read"};
	for (size_t i = 0; i < sizeof listed / sizeof *listed; i++)
		CU_ASSERT(strstr(page, listed[i]) != NULL);
	CU_ASSERT(strstr(page, "new\nline") == NULL);
	free(page);
	h_rmtree(dir);
	h_rmtree(out_dir);
}

int test_suite_report(void)
{
	TEST_SUITE("report",
		   {"page: Markdown, tables, figures as data: images, same bytes", test_page},
		   {"a hostile folder: no markup of its own, nothing through a link", test_hostile},
		   {"bad folder, option or output", test_errors},
		   {"a run's folder: figures drawn, every one inline", test_run_folder});
	return 0;
}
