/* test_figures.c - figures a paper can use: one palette for every figure
 * (plot/common.gp's table, plot/palette.c's rule), the same colour for a
 * name in `plot`, `compare` and `fgd`, no label past the canvas (the
 * committed figures and compare's, re-rendered), compare's makespans one
 * panel per workload with a log axis where a panel's bars span more
 * than two decades, the note under a utilisation above 100 % and the
 * Gantt chart's start-up tint.  (tests/test_plot.c holds the rest of
 * the figures' data.) */
#include "test.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "load.h"
#include "plot.h"
#include "policy.h"
#include "registry.h"
#include "scenario.h"

static bool have_gnuplot(void)
{
	return system("gnuplot --version >/dev/null 2>&1") == 0;
}

/* ---- the palette ---------------------------------------------------- */

/* plot/common.gp's palette: Okabe and Ito's eight first, twenty slots,
 * and every built-in policy a slot of its own, which it gets in a figure
 * of all of them. */
static void palette_table(void)
{
	static const char *const okabe_ito[8] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
						 "#e69f00", "#56b4e9", "#f0e442", "#000000"};
	struct plot_palette p;
	char err[1024] = "";
	CU_ASSERT_EQUAL_FATAL(plot_palette_load(&p, err, sizeof err), 0);
	for (int i = 0; i < 8; i++)
		CU_ASSERT_STRING_EQUAL(p.rgb[i], okabe_ito[i]);
	for (int i = 0; i < PLOT_PALETTE_SLOTS; i++)
		for (int j = 0; j < i; j++)
			CU_ASSERT(strcmp(p.rgb[i], p.rgb[j]) != 0);
	int n;
	const struct policy_ops *const *all = pol_all(&n);
	const char *names[64];
	int want[64], got[64], k = 0;
	for (int i = 0; i < n && k < 64; i++) {
		if (pol_plugin_file(all[i]))
			continue;
		names[k] = all[i]->name;
		want[k] = 0;
		for (int t = 0; t < p.nnames; t++)
			if (!strcmp(p.name[t].name, names[k]))
				want[k] = p.name[t].slot;
		if (!want[k])
			fprintf(stderr, "\n  policy %s has no slot in plot/common.gp\n", names[k]);
		CU_ASSERT(want[k] > 0);
		for (int j = 0; j < k; j++)
			CU_ASSERT(want[j] != want[k]);
		k++;
	}
	CU_ASSERT(k >= 19);
	plot_palette_assign(&p, names, k, got);
	for (int i = 0; i < k; i++)
		CU_ASSERT_EQUAL(got[i], want[i]);
	/* the paper's names, each its own colour across its figures */
	static const char *const paper[] = {"spark-standalone", "label-dual", "yarn",
		"standalone-asked", "standalone-gpu", "yarn-stock-nm", "yarn-gpu", "yarn-gpu-stock-nm",
		"dominant-only", "gang-only", "labels-only", "none"};
	int ps[12];
	plot_palette_assign(&p, paper, 12, ps);
	for (int i = 0; i < 12; i++)
		for (int j = 0; j < i; j++)
			CU_ASSERT(ps[i] != ps[j]);
}

/* The rule: table names first, in the table's order; a taken slot or a
 * name not in the table gets the first free slot (table names first,
 * then byte order); the order of the names does not matter; distinct up
 * to twenty, then the slots again from the first. */
static void palette_rule(void)
{
	struct plot_palette p;
	char err[1024];
	CU_ASSERT_EQUAL_FATAL(plot_palette_load(&p, err, sizeof err), 0);
	/* fgd takes 6 (before standalone-asked, whose slot 6 it is), yarn-gpu
	 * 5; then standalone-asked, alpha, zeta the free 1, 2, 3 */
	const char *a[5] = {"zeta", "standalone-asked", "fgd", "alpha", "yarn-gpu"};
	const char *b[5] = {"yarn-gpu", "alpha", "fgd", "standalone-asked", "zeta"};
	int sa[5], sb[5];
	plot_palette_assign(&p, a, 5, sa);
	plot_palette_assign(&p, b, 5, sb);
	CU_ASSERT_EQUAL(sa[0], 3);
	CU_ASSERT_EQUAL(sa[1], 1);
	CU_ASSERT_EQUAL(sa[2], 6);
	CU_ASSERT_EQUAL(sa[3], 2);
	CU_ASSERT_EQUAL(sa[4], 5);
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 5; j++)
			if (!strcmp(a[i], b[j]))
				CU_ASSERT_EQUAL(sa[i], sb[j]);
	/* 21 names: 20 distinct slots, the 21st the first slot again */
	char nb[21][8];
	const char *many[22];
	for (int i = 0; i < 21; i++) {
		snprintf(nb[i], sizeof nb[i], "p%02d", i);
		many[i] = nb[i];
	}
	many[21] = "p03"; /* a repeat: one slot */
	int s[22];
	plot_palette_assign(&p, many, 22, s);
	for (int i = 0; i < 20; i++) {
		CU_ASSERT_EQUAL(s[i], i + 1);
	}
	CU_ASSERT_EQUAL(s[20], 1);
	CU_ASSERT_EQUAL(s[21], s[3]);
}

/* A bad palette is named by file, line and column. */
static void palette_errors(void)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
		{"x = 1\n", "%s:1:1: no '$palette << EOD' datablock (the figures' palette)"},
		{"$palette << EOD\n1 #000000 black\n3 #111111 x\nEOD\n",
		 "%s:3:1: palette line: slot 2 expected, got '3'"},
		{"$palette << EOD\n1 #00000g black\nEOD\n",
		 "%s:2:3: palette slot 1: colour '#00000g' is not #RRGGBB"},
		{"$palette << EOD\n1 #000000\n", "%s:2:1: '$palette << EOD' has no closing EOD"},
		{"$palette << EOD\n1 #000000\nEOD\n$colour_of << EOD\nfifo 1\nEOD\n",
		 "%s:6:1: palette: slots 1 to 1 given, 20 expected"},
		{"$colour_of << EOD\nfifo 21\nEOD\n",
		 "%s:2:6: colour_of line: NAME SLOT (1 to 20) expected, got '21'"},
		{"$colour_of << EOD\nfifo 1\n  fifo 2\nEOD\n", "%s:3:3: colour_of: 'fifo' listed twice"},
		{"$colour_of << EOD\nEOD\n$colour_of << EOD\n", "%s:3:1: a second '$colour_of << EOD'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[64], err[1024], want[1024];
		h_write_tmp(path, sizeof path, cases[i].text);
		struct plot_palette p;
		CU_ASSERT_EQUAL(plot_palette_read(path, &p, err, sizeof err), -1);
		snprintf(want, sizeof want, cases[i].err, path);
		CU_ASSERT_STRING_EQUAL(err, want);
		if (strcmp(err, want))
			fprintf(stderr, "\n  got  %s\n  want %s\n", err, want);
		remove(path);
	}
}

/* One name, one colour: a policy's bar in `plot policies`, its line in
 * compare's and fgd's figures (plot_colour_words) and `hetsim plot
 * colours` agree, whatever the other names or their order. */
static void palette_same_everywhere(void)
{
	char path[64], err[1024];
	h_write_tmp(path, sizeof path, "policy,point,metric,mean\n"
			 "my-policy,0,makespan_s,10\nyarn,0,makespan_s,20\n"
			 "spark-standalone,0,makespan_s,30\n");
	struct plot_csv *c = plot_csv_read(path, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *dat = NULL;
	size_t len;
	FILE *m = open_memstream(&dat, &len);
	struct plot_vars *v = calloc(1, sizeof *v);
	struct plot_opts o = {0};
	CU_ASSERT_EQUAL(plot_prep_policies(c, &o, m, v, err, sizeof err), 0);
	fclose(m);
	/* column 7: the bar's colour, an integer: my-policy the first free
	 * slot (#d55e00: 1 and 4 are the others'), yarn #cc79a7,
	 * spark-standalone #0072b2 */
	CU_ASSERT_PTR_NOT_NULL(strstr(dat, "0 \"my-policy\" 10 NaN NaN 10 13983232 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(dat, "1 \"yarn\" 20 NaN NaN 20 13400487 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(dat, "2 \"spark-standalone\" 30 NaN NaN 30 29362 "));
	char words[512];
	CU_ASSERT_EQUAL(plot_colour_words("spark-standalone my-policy yarn", words, sizeof words,
					  err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(words, "#0072b2 #d55e00 #cc79a7");
	char *out, *e;
	CU_ASSERT_EQUAL(h_hetsim("plot colours yarn my-policy spark-standalone", &out, &e), 0);
	CU_ASSERT_STRING_EQUAL(out, "yarn #cc79a7 4\nmy-policy #d55e00 2\n"
				    "spark-standalone #0072b2 1\n");
	CU_ASSERT_STRING_EQUAL(e, "");
	free(out), free(e);
	plot_csv_free(c);
	free(v);
	free(dat);
	remove(path);
}

/* The palette is read once a process and kept: common.gp changed after
 * it was read changes no colour; scripts elsewhere (HETSIM_PLOT_DIR) are read anew;
 * no scripts at all is PLOT_NONE (a figure skipped), a bad palette -1. */
static void palette_read_once(void)
{
	char dir[] = "/tmp/hetsim-figures-XXXXXX", gp[4200], err[1024], words[256];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	/* a palette of twenty greys, slot 1 #010101 ... */
	char text[2048] = "$palette << EOD\n";
	for (int i = 1; i <= PLOT_PALETTE_SLOTS; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "%d #%02d%02d%02d\n", i, i,
			 i, i);
	strcat(text, "EOD\n$colour_of << EOD\nyarn 2\nEOD\n");
	snprintf(gp, sizeof gp, "%s/common.gp", dir);
	h_write_file(gp, text);
	const char *old = getenv("HETSIM_PLOT_DIR");
	char *saved = old ? strdup(old) : NULL;
	setenv("HETSIM_PLOT_DIR", dir, 1);
	CU_ASSERT_EQUAL(plot_colour_words("fifo yarn", words, sizeof words, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(words, "#010101 #020202");
	h_write_file(gp, "x = 1\n"); /* read once: still the greys */
	CU_ASSERT_EQUAL(plot_colour_words("fifo yarn", words, sizeof words, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(words, "#010101 #020202");
	/* another folder: read anew, and named where it is bad */
	char dir2[] = "/tmp/hetsim-figures-XXXXXX", want[4400];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir2));
	snprintf(gp, sizeof gp, "%s/common.gp", dir2);
	h_write_file(gp, "x = 1\n");
	setenv("HETSIM_PLOT_DIR", dir2, 1);
	CU_ASSERT_EQUAL(plot_colour_words("fifo", words, sizeof words, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:1:1: no '$palette << EOD' datablock (the figures' palette)",
		 gp);
	CU_ASSERT_STRING_EQUAL(err, want);
	/* no scripts: PLOT_NONE (run from / with no plot/ beside bin/) */
	remove(gp);
	char cwd[4096];
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
	CU_ASSERT_EQUAL_FATAL(chdir("/"), 0);
	int none = plot_colour_words("fifo", words, sizeof words, err, sizeof err);
	CU_ASSERT_EQUAL_FATAL(chdir(cwd), 0);
	if (saved)
		setenv("HETSIM_PLOT_DIR", saved, 1);
	else
		unsetenv("HETSIM_PLOT_DIR");
	free(saved);
	h_rmtree(dir);
	h_rmtree(dir2);
	/* the test binary lies in build/opt/: no plot/ beside it */
	CU_ASSERT_EQUAL(none, PLOT_NONE);
	CU_ASSERT_EQUAL(plot_colour_words("yarn fifo", words, sizeof words, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(words, "#cc79a7 #009e73");
}

/* ---- labels inside the canvas ------------------------------------- */

/* The texts of an SVG gnuplot wrote that reach past its canvas (the
 * viewBox): each text's box from its position, anchor, rotation and
 * font size, at 0.6 em a character (DejaVu Sans averages about 0.55),
 * 0.8 em above the baseline and 0.25 below.  The count; the first in
 * `first`.  A file where it finds no text to check counts as one: a
 * check that finds nothing has checked nothing. */
static int svg_outside(const char *path, char *first, size_t len)
{
	long n;
	char *s = h_slurp(path, &n);
	double W = 0, H = 0;
	const char *vb = s ? strstr(s, "viewBox=\"0 0 ") : NULL;
	first[0] = '\0';
	if (!vb || sscanf(vb, "viewBox=\"0 0 %lf %lf", &W, &H) != 2) {
		snprintf(first, len, "%s: no viewBox", path);
		free(s);
		return 1;
	}
	int bad = 0, texts = 0;
	for (const char *g = strstr(s, "<g transform=\"translate("); g;
	     g = strstr(g + 1, "<g transform=\"translate(")) {
		double x, y, a = 0, fs = 0;
		if (sscanf(g, "<g transform=\"translate(%lf,%lf)", &x, &y) != 2)
			continue;
		/* a group whose first element is a text */
		const char *end = strchr(g, '>'), *t = end ? strchr(end, '<') : NULL, *te;
		const char *rot = strstr(g, "rotate("), *fz = strstr(g, "font-size=\"");
		const char *an = strstr(g, "text-anchor=\"");
		if (!t || strncmp(t, "<text>", 6) || !(te = strstr(t, "</text>")) || !fz || fz > end ||
		    !an || an > end)
			continue;
		if (rot && rot < end)
			sscanf(rot, "rotate(%lf)", &a);
		sscanf(fz, "font-size=\"%lf", &fs);
		/* the text without tags, entities as one character */
		int chars = 0, ink = 0;
		for (const char *p = t + 6; p < te; p++) {
			if (*p == '<') {
				p = strchr(p, '>');
				continue;
			}
			if (*p == '&')
				p = strchr(p, ';');
			if (((unsigned char)*p & 0xc0) != 0x80)
				chars++;
			ink |= *p != ' ';
		}
		if (!ink)
			continue;
		texts++;
		double w = chars * 0.6 * fs, x0 = !strncmp(an + 13, "start", 5) ? 0 :
			   !strncmp(an + 13, "middle", 6) ? -w / 2 : -w;
		double px[4] = {x0, x0 + w, x0, x0 + w}, py[4] = {-0.8 * fs, -0.8 * fs, 0.25 * fs,
								    0.25 * fs};
		double r = a * 3.14159265358979323846 / 180;
		for (int k = 0; k < 4; k++) {
			double X = x + px[k] * cos(r) - py[k] * sin(r);
			double Y = y + px[k] * sin(r) + py[k] * cos(r);
			if (X < -0.5 || X > W + 0.5 || Y < -0.5 || Y > H + 0.5) {
				if (!bad++)
					snprintf(first, len, "%s: '%.*s' reaches (%.0f, %.0f) of a %.0f x "
						 "%.0f canvas", path, (int)(te - t - 6), t + 6, X, Y, W, H);
				break;
			}
		}
	}
	free(s);
	if (!texts) {
		snprintf(first, len, "%s: no text to check (none in a <g> with its font size and "
			 "anchor)", path);
		return 1;
	}
	return bad;
}

/* Every SVG under dir (recursively): none with a text past its canvas. */
static int svgs_inside(const char *dir, int *seen)
{
	DIR *d = opendir(dir);
	int bad = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		char p[4200], first[1024];
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (stat(p, &st))
			continue;
		size_t n = strlen(p);
		if (S_ISDIR(st.st_mode))
			bad += svgs_inside(p, seen);
		else if (n > 4 && !strcmp(p + n - 4, ".svg")) {
			++*seen;
			if (svg_outside(p, first, sizeof first)) {
				fprintf(stderr, "\n  %s\n", first);
				bad++;
			}
		}
	}
	if (d)
		closedir(d);
	return bad;
}

/* The committed figures (results/: the paper's, compare's, fgd's,
 * reproduce's): no label cut at the canvas's edge. */
static void committed_labels_inside(void)
{
	int seen = 0;
	CU_ASSERT_EQUAL(svgs_inside("results", &seen), 0);
	CU_ASSERT(seen >= 70);
	/* the check itself: a label that starts at the right edge is out */
	char path[64], first[1024];
	h_write_tmp(path, sizeof path, "<svg viewBox=\"0 0 100 50\">\n<g transform=\"translate(90.00,40.00) "
			 "rotate(30)\" stroke=\"none\" font-size=\"10.00\" text-anchor=\"start\">\n"
			 "\t\t<text>policy</text>\n</g>\n<g transform=\"translate(50,20)\" "
			 "font-size=\"10\" text-anchor=\"middle\">\n<text>ok</text>\n</g>\n</svg>\n");
	CU_ASSERT_EQUAL(svg_outside(path, first, sizeof first), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(first, ": 'policy' reaches (1"));
	/* and a figure with no text it can read fails: nothing checked */
	h_write_file(path, "<svg viewBox=\"0 0 100 50\">\n<g transform=\"translate(50,20)\">\n"
			 "<text>no font size</text>\n</g>\n</svg>\n");
	CU_ASSERT_EQUAL(svg_outside(path, first, sizeof first), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(first, ": no text to check (none in a <g> with its font "
					     "size and anchor)"));
	remove(path);
}

/* Count of `needle` in the file at path. */
static int count_in(const char *path, const char *needle)
{
	long n;
	char *s = h_slurp(path, &n);
	int k = 0;
	for (const char *p = s ? strstr(s, needle) : NULL; p; p = strstr(p + 1, needle))
		k++;
	free(s);
	return k;
}

/* plot_* print a "wrote FILE" line per figure: kept off the test log. */
static int mute_stdout(void)
{
	fflush(stdout);
	int saved = dup(1), null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	close(null);
	return saved;
}

static void unmute_stdout(int saved)
{
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
}

/* compare's figures re-rendered from the committed leaderboard and
 * sizes (a 57 s and an 11 500 000 s workload in one figure): a panel per
 * workload, each on its own linear axis, every label inside; and, from a
 * leaderboard whose first workload's bars span 1 s to 1000 s, that
 * panel on a log axis, saying so. */
static void compare_makespan_panels(void)
{
	if (!have_gnuplot()) {
		fprintf(stderr, "\n  (gnuplot not installed: skipped)\n");
		return;
	}
	char dir[] = "/tmp/hetsim-figures-XXXXXX", p[4200], first[1024], cmd[8600];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "cp results/compare/leaderboard.csv results/compare/sizes.csv %s/",
		 dir);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	int out = mute_stdout();
	CU_ASSERT_EQUAL(plot_compare_makespan(dir), 0);
	snprintf(p, sizeof p, "%s/makespan.svg", dir);
	CU_ASSERT_EQUAL(svg_outside(p, first, sizeof first), 0);
	if (*first)
		fprintf(stderr, "\n  %s\n", first);
	CU_ASSERT_EQUAL(count_in(p, "<text>paper-mixed</text>"), 1);
	CU_ASSERT_EQUAL(count_in(p, "<text>paper-wordcount-60</text>"), 1);
	CU_ASSERT_EQUAL(count_in(p, "<text>NASA-iPSC-1993-3-1-cln-swf-zst</text>"), 1);
	CU_ASSERT_EQUAL(count_in(p, "<text>makespan, s</text>"), 3);
	CU_ASSERT_EQUAL(count_in(p, "log scale"), 0);
	CU_ASSERT_EQUAL(count_in(p, "not done"), 0); /* every job done: no mark */
	CU_ASSERT_EQUAL(count_in(p, "<text>" PLOT_WARN), 0);
	static const char *const wl[3] = {"paper-mixed", "paper-wordcount-60",
					  "NASA-iPSC-1993-3-1-cln-swf-zst"};
	/* the CDFs and slowdowns: yarn left 3 of 5 jobs not done in the
	 * second workload ("(2 of 5 done)" in its key); the third workload's
	 * counts unknown (NULL), and drf, with no JCT, "(no job done)" */
	const struct plot_jobs jobs[2][2] = {{{2, 2}, {2, 2}}, {{2, 2}, {2, 5}}};
	for (int w = 0; w < 3; w++) {
		char jcts[512];
		snprintf(jcts, sizeof jcts, "workload,policy,jct_s\n%s,fifo,10\n%s,fifo,20\n"
			 "%s,yarn,30\n%s,yarn,40\n", wl[w], wl[w], wl[w], wl[w]);
		snprintf(p, sizeof p, "%s/jcts.csv", dir);
		h_write_file(p, jcts);
		CU_ASSERT_EQUAL(plot_compare_workload(dir, p, w, wl[w], w < 2 ? "fifo yarn" :
						      "fifo yarn drf", w < 2 ? jobs[w] : NULL), 0);
		static const char *const fig[2] = {"slowdown-size", "jct-cdf"};
		for (int f = 0; f < 2; f++) {
			snprintf(p, sizeof p, "%s/%s-%d.svg", dir, fig[f], w + 1);
			CU_ASSERT_EQUAL(svg_outside(p, first, sizeof first), 0);
			if (*first)
				fprintf(stderr, "\n  %s\n", first);
		}
		snprintf(p, sizeof p, "%s/jct-cdf-%d.svg", dir, w + 1);
		CU_ASSERT_EQUAL(count_in(p, "<text>fifo</text>"), 1);
		CU_ASSERT_EQUAL(count_in(p, "<text>yarn</text>"), w != 1);
		CU_ASSERT_EQUAL(count_in(p, "<text>yarn (2 of 5 done)</text>"), w == 1);
		CU_ASSERT_EQUAL(count_in(p, "<text>drf (no job done)</text>"), w == 2);
	}

	/* long's yarn left 2.5 jobs a replication not done: marked over its
	 * bar, and the footnote says what the mark is */
	snprintf(p, sizeof p, "%s/leaderboard.csv", dir);
	h_write_file(p, "workload,policy,rank,replications,makespan_s,makespan_s_ci95,not_done\n"
		      "short,fifo,1,3,1,0.1,0\nshort,yarn,2,3,1000,nan,0\nshort,drf,3,3,nan,nan,3\n"
		      "long,fifo,1,3,300000,1000,0\nlong,yarn,2,3,400000,2000,2.5\n");
	CU_ASSERT_EQUAL(plot_compare_makespan(dir), 0);
	snprintf(p, sizeof p, "%s/makespan.svg", dir);
	CU_ASSERT_EQUAL(svg_outside(p, first, sizeof first), 0);
	CU_ASSERT_EQUAL(count_in(p, "<text>short: bars span more than two decades, log scale"
				    "</text>"), 1);
	CU_ASSERT_EQUAL(count_in(p, "<text>makespan, s (log scale)</text>"), 1);
	CU_ASSERT_EQUAL(count_in(p, "<text>long</text>"), 1);
	CU_ASSERT_EQUAL(count_in(p, "<text>makespan, s</text>"), 1);
	/* drf's empty slot (compare writes "nan": no mark over no bar) */
	CU_ASSERT_EQUAL(count_in(p, "<text>no makespan</text>"), 1);
	CU_ASSERT_EQUAL(count_in(p, "<text>nan</text>"), 0);
	/* a tic a decade on the log axis */
	CU_ASSERT_EQUAL(count_in(p, "<text> 10</text>"), 1);
	CU_ASSERT_EQUAL(count_in(p, "<text> 100</text>"), 1);
	CU_ASSERT_EQUAL(count_in(p, "<text> 1000</text>"), 1);
	CU_ASSERT_EQUAL(count_in(p, "<text>" PLOT_WARN " 2.5 not done</text>"), 1);
	CU_ASSERT(count_in(p, "<text>" PLOT_WARN " jobs not done (failed, timed out or "
			      "unplaceable), mean per replication: its makespan is not of every "
			      "job</text>") >= 1);
	CU_ASSERT_EQUAL(count_in(p, "not done</text>"), 1); /* one mark */
	/* a leaderboard without the makespan: said (on stderr), no figure */
	snprintf(p, sizeof p, "%s/leaderboard.csv", dir);
	h_write_file(p, "workload,policy\nw,fifo\n");
	snprintf(p, sizeof p, "%s/makespan.svg", dir);
	remove(p);
	fflush(stderr);
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	CU_ASSERT_EQUAL(plot_compare_makespan(dir), 1);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(null);
	CU_ASSERT_EQUAL(access(p, F_OK), -1);
	unmute_stdout(out);
	h_rmtree(dir);
}

/* compare's JCT CDF data, by hand.  Workload w: a's JCTs 3, 0, 3, 1.5
 * (sorted 0, 1.5, 3, 3), b's 2, c none; a row of workload v, one of an
 * unlisted policy and one with no JCT left out.  The smallest positive
 * JCT is 1.5, so a's 0 is drawn there (zero_at 1.5) and so is c's lone
 * row; a's two 3 s are one step to 4/4. */
static void compare_cdf_data(void)
{
	char path[64], err[1024] = "";
	h_write_tmp(path, sizeof path, "workload,policy,jct_s\nw,a,3\nw,a,0\nw,b,2\nv,a,0.5\nw,a,3\nw,zz,0.1\n"
			 "w,c,\nw,a,1.5\n");
	struct plot_names pol = {{"a", "b", "c"}, 3};
	struct plot_cdf cdf;
	char *dat = NULL;
	size_t len;
	FILE *m = open_memstream(&dat, &len);
	CU_ASSERT_EQUAL(plot_compare_cdf_data(path, "w", &pol, m, &cdf, err, sizeof err), 0);
	fclose(m);
	CU_ASSERT_STRING_EQUAL(dat, "# a: jct F\n1.5 0\n1.5 0.25\n1.5 0.5\n3 1\n"
				    "\n\n# b: jct F\n2 0\n2 1\n"
				    "\n\n# c: jct F\n1.5 0\n");
	CU_ASSERT_DOUBLE_EQUAL(cdf.zero_at, 1.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(cdf.xlo, 1.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(cdf.xhi, 3, 0);
	CU_ASSERT_EQUAL(cdf.done[0], 4);
	CU_ASSERT_EQUAL(cdf.done[1], 1);
	CU_ASSERT_EQUAL(cdf.done[2], 0);
	free(dat);

	/* no JCT of 0: zero_at 0; workload v alone: a's 0.5, b and c none,
	 * drawn at 0.5 */
	m = open_memstream(&dat, &len);
	CU_ASSERT_EQUAL(plot_compare_cdf_data(path, "v", &pol, m, &cdf, err, sizeof err), 0);
	fclose(m);
	CU_ASSERT_STRING_EQUAL(dat, "# a: jct F\n0.5 0\n0.5 1\n\n\n# b: jct F\n0.5 0\n"
				    "\n\n# c: jct F\n0.5 0\n");
	CU_ASSERT_DOUBLE_EQUAL(cdf.zero_at, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(cdf.xlo, 0.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(cdf.xhi, 0.5, 0);
	free(dat);

	/* every JCT 0: no positive one, drawn at 1 */
	h_write_file(path, "workload,policy,jct_s\nw,a,0\nw,a,0\n");
	m = open_memstream(&dat, &len);
	CU_ASSERT_EQUAL(plot_compare_cdf_data(path, "w", &pol, m, &cdf, err, sizeof err), 0);
	fclose(m);
	CU_ASSERT_STRING_EQUAL(dat, "# a: jct F\n1 0\n1 1\n\n\n# b: jct F\n1 0\n"
				    "\n\n# c: jct F\n1 0\n");
	CU_ASSERT_DOUBLE_EQUAL(cdf.zero_at, 1, 0);
	free(dat);

	/* thinned: a's 5000 JCTs 1 .. 5000 s, a step of 5000 / 2000 = 2.5
	 * jobs, so a row every 3rd job (j = 0, 3, ..., 4998: 1667 rows) and
	 * the last (j = 4999), after the row "1 0": 1669 rows */
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("workload,policy,jct_s\n", f);
	for (int j = 5000; j >= 1; j--)
		fprintf(f, "w,a,%d\n", j);
	fclose(f);
	struct plot_names one = {{"a"}, 1};
	m = open_memstream(&dat, &len);
	CU_ASSERT_EQUAL(plot_compare_cdf_data(path, "w", &one, m, &cdf, err, sizeof err), 0);
	fclose(m);
	int rows = 0;
	for (const char *q = dat; (q = strchr(q, '\n')); q++)
		rows++;
	CU_ASSERT_EQUAL(rows, 1 + 1669); /* and the block's comment */
	CU_ASSERT_EQUAL(strncmp(dat, "# a: jct F\n1 0\n1 0.0002\n4 0.0008\n7 0.0014\n", 42), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(dat, "\n4996 0.9992\n4999 0.9998\n5000 1\n"));
	CU_ASSERT_EQUAL(dat[len - 1], '\n');
	CU_ASSERT_PTR_NULL(strstr(dat, "\n2 0.0004\n"));
	CU_ASSERT_DOUBLE_EQUAL(cdf.xhi, 5000, 0);
	CU_ASSERT_EQUAL(cdf.done[0], 5000);
	free(dat);

	/* a bad cell and a missing column, named */
	h_write_file(path, "workload,policy,jct_s\nw,a,3\nw,a,x\n");
	m = open_memstream(&dat, &len);
	CU_ASSERT_EQUAL(plot_compare_cdf_data(path, "w", &pol, m, &cdf, err, sizeof err), -1);
	fclose(m);
	char want[4200];
	snprintf(want, sizeof want, "%s:3: column 'jct_s': 'x' is not a number", path);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(dat);
	h_write_file(path, "workload,jct_s\nw,3\n");
	m = open_memstream(&dat, &len);
	CU_ASSERT_EQUAL(plot_compare_cdf_data(path, "w", &pol, m, &cdf, err, sizeof err), -1);
	fclose(m);
	snprintf(want, sizeof want, "%s: no column 'policy' in the header", path);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(dat);
	remove(path);
}

/* ---- utilisation above 100 %, the Gantt chart's start-up ------------- */

/* cpu has 4 cores (tests/data/plot/cluster.yaml): 3 + 2 held from 1 s to
 * 2 s is 125 %, and the figure says why it can be: the policy shown by
 * its name, its page where docs/policies/ has one (yarn's; none for p). */
static void utilisation_over_capacity(void)
{
	char path[64], err[1024];
	h_write_tmp(path, sizeof path, "policy,replication,node,type,cores,gpus,launch_s,ready_s,end_s\n"
			 "p,0,cpu-0,wordcount,3,0,0,0.5,2\np,0,cpu-1,wordcount,2,0,1,1.5,3\n"
			 "yarn,0,cpu-0,wordcount,3,0,0,0.5,2\nyarn,0,cpu-1,wordcount,2,0,1,1.5,3\n");
	struct scn *s = scn_load("tests/data/plot/cluster.yaml", err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct plot_nodes nodes;
	plot_nodes_from_scn(s, &nodes);
	struct plot_csv *c = plot_csv_read(path, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	struct plot_opts o = {.policy = "yarn"};
	struct plot_vars *v = calloc(1, sizeof *v);
	char *dat = NULL;
	size_t len;
	FILE *m = open_memstream(&dat, &len);
	CU_ASSERT_EQUAL(plot_prep_util(c, &nodes, &o, m, v, err, sizeof err), 0);
	fclose(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(dat, "\n1 0 1.25 0 0 0\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(v->s, "footnote='" PLOT_WARN " above 100 %: executors held "
		"more cores than the nodes have (peak 125 % of cpu''s 4 cores): yarn''s allocation "
		"let them'; footnote2='(cores oversubscribe under a calculator that counts memory "
		"only, or on nodes that offer more vcores than cores): docs/policies/yarn.md'; "));
	free(dat);
	memset(v, 0, sizeof *v);
	o.policy = "p";
	m = open_memstream(&dat, &len);
	CU_ASSERT_EQUAL(plot_prep_util(c, &nodes, &o, m, v, err, sizeof err), 0);
	fclose(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(v->s, "footnote='" PLOT_WARN " above 100 %: executors held "
		"more cores than the nodes have (peak 125 % of cpu''s 4 cores): p''s allocation "
		"let them'; footnote2='(cores oversubscribe under a calculator that counts memory "
		"only, or on nodes that offer more vcores than cores)'; "));

	/* the Gantt chart of the same run: start-up boxes in the type's tint
	 * (#e69f00 at 35 % on white), the key's swatch the same */
	free(dat);
	memset(v, 0, sizeof *v);
	m = open_memstream(&dat, &len);
	CU_ASSERT_EQUAL(plot_prep_gantt(c, &nodes, &o, m, v, err, sizeof err), 0);
	fclose(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(v->s, "colours='\"#e69f00\"'; tints='\"#f6dda6\"'; "));
	plot_csv_free(c);
	free(dat);

	/* at most 100 %: no note */
	h_write_file(path, "policy,replication,node,type,cores,gpus,launch_s,ready_s,end_s\n"
			 "p,0,cpu-0,wordcount,2,0,0,0.5,2\np,0,cpu-1,wordcount,2,0,1,1.5,3\n");
	c = plot_csv_read(path, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	memset(v, 0, sizeof *v);
	m = open_memstream(&dat, &len);
	CU_ASSERT_EQUAL(plot_prep_util(c, &nodes, &o, m, v, err, sizeof err), 0);
	fclose(m);
	CU_ASSERT_PTR_NULL(strstr(v->s, "footnote"));
	plot_csv_free(c);
	free(dat);
	free(v);
	plot_nodes_free(&nodes);
	scn_free(s);
	remove(path);
}

int test_suite_figures(void)
{
	TEST_SUITE("figures",
		   {"palette: Okabe-Ito first, a slot per built-in policy", palette_table},
		   {"palette: the rule, order-free, distinct up to 20", palette_rule},
		   {"palette: a bad table named by file, line and column", palette_errors},
		   {"palette: one name one colour in plot, compare, fgd", palette_same_everywhere},
		   {"palette: read once a process, kept; PLOT_NONE without scripts",
		    palette_read_once},
		   {"committed figures: every label inside the canvas", committed_labels_inside},
		   {"compare: a panel per workload, log axis past two decades",
		    compare_makespan_panels},
		   {"compare: the JCT CDF's data by hand (ties, 0 s, thinning)", compare_cdf_data},
		   {"utilisation above 100 % says why; gantt start-up tint",
		    utilisation_over_capacity});
	return 0;
}
