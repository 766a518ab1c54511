/* test_report.c - `hetsim report`: the page holds its tables and
 * figures and references nothing outside itself (cli/report.c). */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* Every src= is a data: URI, every href= an "#id" within the page. */
static int self_contained(const char *s)
{
	static const char *const refs[][2] = {{"src=\"", "data:"}, {"href=\"", "#"},
					      {"href='", "#"}, {"url(", "#"}};
	for (int k = 0; k < 4; k++)
		for (const char *p = s; (p = strstr(p, refs[k][0])); p++)
			if (strncmp(p + strlen(refs[k][0]), refs[k][1], strlen(refs[k][1])))
				return 0;
	return !strstr(s, "xmlns") && !strstr(s, "http:") && !strstr(s, "https:") &&
	       !strstr(s, "<script") && !strstr(s, "<link");
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
	/* the figures: two SVG elements, their ids and references prefixed
	 * apart; the PNG alone as a data: URI of its bytes */
	CU_ASSERT_EQUAL(count(page, "<svg "), 2);
	CU_ASSERT_EQUAL(count(page, "<img "), 1);
	CU_ASSERT(strstr(page, "Inline figures: 2 SVG, 1 PNG.") != NULL);
	CU_ASSERT(strstr(page, "id='f1-gpPt0'") && strstr(page, "xlink:href='#f1-gpPt0'"));
	CU_ASSERT(strstr(page, "id=\"f1-c1\"") && strstr(page, "url(#f1-c1)"));
	CU_ASSERT(strstr(page, "id='f2-gpPt0'") != NULL);
	CU_ASSERT(strstr(page, "<?xml") == NULL);
	CU_ASSERT(strstr(page, "<svg role=\"img\" aria-label=\"figures/a.svg\" viewBox=\"0 0 100 "
			       "50\">") != NULL);
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
	const char *fig_a = strstr(page, "aria-label=\"figures/a.svg\""),
		   *fig_b = strstr(page, "aria-label=\"figures/b1.svg\""),
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
	if (have_gnuplot()) {
		/* policies, jct-by-type, gantt and utilisation of each of 3 policies */
		CU_ASSERT_EQUAL(nsvg, 8);
		CU_ASSERT_EQUAL(count(page, "<svg "), 8);
		CU_ASSERT(strstr(page, "Inline figures: 8 SVG, 0 PNG.") != NULL);
	}
	CU_ASSERT(strstr(page, "<title>hetsim run: hetsim-report-") != NULL);
	CU_ASSERT(strstr(page, "<code>runs.csv</code>: 3 rows, ") != NULL);
	free(page);
	h_rmtree(dir);
}

int test_suite_report(void)
{
	TEST_SUITE("report",
		   {"page: Markdown, tables, figures inline and prefixed, same bytes", test_page},
		   {"bad folder, option or output", test_errors},
		   {"a run's folder: figures drawn, every one inline", test_run_folder});
	return 0;
}
