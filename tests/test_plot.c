/* test_plot.c - `hetsim plot`: CSV read by column name, and the data of
 * every figure from small hand-made files under tests/data/plot/, with
 * the expected values worked out by hand (see the comments). */
#include "load.h"
#include "test.h"

#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "harness.h"
#include "plot.h"
#include "scenario.h"

#define DATA "tests/data/plot/"

typedef int sum_prep(const struct plot_csv *, const struct plot_opts *, FILE *,
		     struct plot_vars *, char *, size_t);
typedef int ex_prep(const struct plot_csv *, const struct plot_nodes *, const struct plot_opts *,
		    FILE *, struct plot_vars *, char *, size_t);

/* What one preparation produced. */
static struct {
	int rc;
	char *dat;             /* the data file's text (malloc'ed) */
	struct plot_vars v;    /* gnuplot variables */
	char err[1024];
} out;

static void out_reset(void)
{
	free(out.dat);
	memset(&out, 0, sizeof out);
}

/* Run a summary figure's preparation on the summary c. */
static void run_sum_csv(sum_prep *f, const struct plot_csv *c, const struct plot_opts *o)
{
	size_t len;
	out_reset();
	FILE *m = open_memstream(&out.dat, &len);
	out.rc = f(c, o, m, &out.v, out.err, sizeof out.err);
	fclose(m);
}

/* Run a summary figure's preparation on `path`. */
static void run_sum(sum_prep *f, const char *path, const struct plot_opts *o)
{
	char err[1024];
	struct plot_csv *c = plot_csv_read(path, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	run_sum_csv(f, c, o);
	plot_csv_free(c);
}

/* Run an executors.csv figure's preparation, with the nodes of the
 * scenario `cluster` if not NULL. */
static void run_ex_in(ex_prep *f, const char *path, const char *cluster, const struct plot_opts *o)
{
	char err[1024];
	size_t len;
	struct plot_nodes nodes = {NULL, 0};
	bool with_nodes = cluster != NULL;
	out_reset();
	struct plot_csv *c = plot_csv_read(path, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	struct scn *s = with_nodes ? scn_load(cluster, err, sizeof err) : NULL;
	if (with_nodes) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		plot_nodes_from_scn(s, &nodes);
	}
	FILE *m = open_memstream(&out.dat, &len);
	out.rc = f(c, with_nodes ? &nodes : NULL, o, m, &out.v, out.err, sizeof out.err);
	fclose(m);
	plot_nodes_free(&nodes);
	if (s)
		scn_free(s);
	plot_csv_free(c);
}

/* The same with the nodes of cluster.yaml if `with_nodes`. */
static void run_ex(ex_prep *f, const char *path, bool with_nodes, const struct plot_opts *o)
{
	run_ex_in(f, path, with_nodes ? DATA "cluster.yaml" : NULL, o);
}

#define EXPECT_DAT(want)                                                        \
	do {                                                                    \
		CU_ASSERT_EQUAL(out.rc, 0);                                     \
		CU_ASSERT_STRING_EQUAL(out.dat, want);                          \
		if (out.rc || strcmp(out.dat, want))                            \
			fprintf(stderr, "\n  err: %s\n  got:\n%s\n  want:\n%s\n", \
				out.err, out.dat, want);                        \
	} while (0)

#define EXPECT_VAR(text)                                                         \
	do {                                                                     \
		CU_ASSERT_PTR_NOT_NULL(strstr(out.v.s, text));                   \
		if (!strstr(out.v.s, text))                                      \
			fprintf(stderr, "\n  want %s in: %s\n", text, out.v.s);  \
	} while (0)

#define EXPECT_ERR(code, msg)                                                   \
	do {                                                                    \
		CU_ASSERT_EQUAL(out.rc, code);                                  \
		CU_ASSERT_STRING_EQUAL(out.err, msg);                           \
		if (strcmp(out.err, msg))                                       \
			fprintf(stderr, "\n  got:  %s\n  want: %s\n", out.err, msg); \
	} while (0)

/* ---- CSV ------------------------------------------------------------ */

static void test_csv_by_name(void)
{
	char err[256];
	struct plot_csv *a = plot_csv_read(DATA "mixed/executors.csv", err, sizeof err);
	struct plot_csv *b = plot_csv_read(DATA "executors-shuffled.csv", err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(plot_csv_rows(a), 7);
	CU_ASSERT_EQUAL(plot_csv_rows(b), 7);
	CU_ASSERT_EQUAL(plot_csv_col(a, "node"), 7);
	CU_ASSERT_EQUAL(plot_csv_col(b, "node"), 1);
	CU_ASSERT_EQUAL(plot_csv_col(a, "note"), -1);
	CU_ASSERT_STRING_EQUAL(plot_csv_cell(a, 0, -1), "");
	CU_ASSERT_EQUAL(plot_csv_line(a, 3), 5);
	const char *cols[] = {"policy", "node", "launch_s", "ready_s", "end_s", "gpus"};
	for (int r = 0; r < 7; r++)
		for (int i = 0; i < 6; i++)
			CU_ASSERT_STRING_EQUAL(plot_csv_cell(a, r, plot_csv_col(a, cols[i])),
					       plot_csv_cell(b, r, plot_csv_col(b, cols[i])));
	CU_ASSERT_STRING_EQUAL(plot_csv_cell(b, 3, plot_csv_col(b, "ready_s")), "");
	plot_csv_free(a);
	plot_csv_free(b);

	/* every figure of executors.csv is the same from the shuffled file */
	struct plot_opts o = {.policy = "p"};
	ex_prep *fs[2] = {plot_prep_gantt, plot_prep_util};
	for (int i = 0; i < 2; i++) {
		run_ex(fs[i], DATA "mixed/executors.csv", true, &o);
		char *want = out.dat;
		out.dat = NULL;
		run_ex(fs[i], DATA "executors-shuffled.csv", true, &o);
		EXPECT_DAT(want);
		free(want);
	}
	out_reset();
}

static void test_csv_errors(void)
{
	static const struct {
		const char *path, *msg;
	} cases[] = {
		{DATA "bad/fields.csv", DATA "bad/fields.csv:3:1: 2 fields, but the header has 3"},
		{DATA "bad/empty.csv", DATA "bad/empty.csv:1:1: empty file (no header line)"},
		{DATA "bad/none.csv", DATA "bad/none.csv:0:0: cannot open: No such file or directory"},
		{DATA "bad", DATA "bad:0:0: cannot open: Is a directory"},
	};
	for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
		char err[256] = "";
		CU_ASSERT_PTR_NULL(plot_csv_read(cases[i].path, err, sizeof err));
		CU_ASSERT_STRING_EQUAL(err, cases[i].msg);
		if (strcmp(err, cases[i].msg))
			fprintf(stderr, "\n  got:  %s\n  want: %s\n", err, cases[i].msg);
	}
	struct plot_opts o = {.policy = "p"};
	run_ex(plot_prep_gantt, DATA "bad/number.csv", true, &o);
	EXPECT_ERR(-1, DATA "bad/number.csv:5: column 'launch_s': '2.0s' is not a number");
	run_sum(plot_prep_policies, DATA "mixed/executors.csv", &o);
	EXPECT_ERR(-1, DATA "mixed/executors.csv: no column 'metric' in the header");
	run_ex(plot_prep_util, DATA "mixed/summary.csv", true, &o);
	EXPECT_ERR(-1, DATA "mixed/summary.csv: no column 'replication' in the header");
	out_reset();
}

/* ---- (a) policies, jct-by-type -------------------------------------- */

static void test_policies(void)
{
	struct plot_opts o = {0};
	run_sum(plot_prep_policies, DATA "mixed/summary.csv", &o);
	/* fifo has no interval (empty fields): NaN, its label sits on the mean;
	 * colours #0072b2, #d55e00, #009e73 as integers.  Every bar but the
	 * baseline's (the first policy) is labelled with its change, from the
	 * means (no makespan_change_pct rows): 86.6 / 100 and 120 / 100.  No
	 * counts in the file: no marks. */
	EXPECT_DAT("# i policy mean ci95_lo ci95_hi top colour label labely change mark "
		   "(makespan_s at point 0)\n"
		   "0 \"spark-standalone\" 100 97.14 102.86 102.86 29362 \"100\" 102.86 \"\" \"\"\n"
		   "1 \"label-dual\" 86.6 84.45 88.75 88.75 13983232 \"86.6\" 88.75 "
		   "\"\xe2\x88\x92" "13.4 %\" \"\"\n"
		   "2 \"fifo\" 120 NaN NaN 120 40563 \"120\" 120 \"+20.0 %\" \"\"\n");
	EXPECT_VAR("figtitle='paper-mixed: execution time per policy'; ");
	EXPECT_VAR("subtitle='mean of 10 replications, 95 % CI'; ");
	EXPECT_VAR("subtitle2='change against spark-standalone (first policy listed): ratio of "
		   "means'; ");
	EXPECT_VAR("n=3; ");
	EXPECT_VAR("ymax=162; "); /* 1.35 x the highest top, 120: value and change lines */
	CU_ASSERT_PTR_NULL(strstr(out.v.s, "notecolour=")); /* a headline only with --compare */
	CU_ASSERT_PTR_NULL(strstr(out.v.s, "footnote="));

	/* --compare: the headline; 86.6 / 100: 13.4 % less, 86.6 % of the baseline */
	o.compare = "label-dual";
	run_sum(plot_prep_policies, DATA "mixed/summary.csv", &o);
	EXPECT_VAR("note='label-dual: \xe2\x88\x92" "13.4 % (to 86.6 % of spark-standalone)'; ");
	o.compare = "fifo";
	run_sum(plot_prep_policies, DATA "mixed/summary.csv", &o);
	EXPECT_VAR("note='fifo: +20.0 % (to 120.0 % of spark-standalone)'; ");
	o.compare = "nope";
	run_sum(plot_prep_policies, DATA "mixed/summary.csv", &o);
	EXPECT_ERR(-1, DATA "mixed/summary.csv: no policy 'nope' (--compare; policies: "
		       "spark-standalone, label-dual, fifo)");
	o = (struct plot_opts){.metric = "jct_p95_s"};
	run_sum(plot_prep_policies, DATA "mixed/summary.csv", &o);
	EXPECT_ERR(-1, DATA "mixed/summary.csv: no value of metric 'jct_p95_s' at point 0");
	out_reset();
}

/* "x mean lo hi" of a bar over three replications mean - d, mean,
 * mean + d: sd d, half-width t(0.975, 2) d / sqrt(3), appended to buf. */
static void bar3(char *buf, size_t len, const char *x, double mean, double d)
{
	double half = 4.302652729749464 * d / sqrt(3); /* t(0.975, 2) */
	snprintf(buf + strlen(buf), len - strlen(buf), "%s %.9g %.9g %.9g\n", x, mean, mean - half,
		 mean + half);
}

static void test_jct_by_type(void)
{
	/* mixed/types.csv: a run's, three replications, no angel job (no
	 * slot).  Three policies, bars 0.8 / 3 apart around each model's
	 * index, each the mean of its replications with their Student-t
	 * interval.  fifo finished no mnist_spark or synthetic job (its
	 * synthetic rows say 0.000000 with done 0: no value): those slots
	 * are empty and say so, in its colour; its key carries its mark,
	 * 5 unplaceable + 2 failed of 12 counted per replication. */
	struct plot_opts o = {0};
	char want[2048] = "# spark-standalone: x mean ci95_lo ci95_hi\n";
	bar3(want, sizeof want, "-0.266666667", 40, 2);
	bar3(want, sizeof want, "0.733333333", 60, 5);
	bar3(want, sizeof want, "1.73333333", 20, 1);
	strcat(want, "\n\n# label-dual: x mean ci95_lo ci95_hi\n");
	bar3(want, sizeof want, "0", 30, 2);
	bar3(want, sizeof want, "1", 55, 5);
	bar3(want, sizeof want, "2", 18, 1);
	strcat(want, "\n\n# fifo: x mean ci95_lo ci95_hi\n");
	bar3(want, sizeof want, "0.266666667", 45, 2);
	strcat(want, "\n\n# slots without a value: x label colour\n"
		     "1.26666667 \"no job done\" 40563\n"
		     "2.26666667 \"no job done\" 40563\n");
	run_sum(plot_prep_jct_by_type, DATA "mixed/types.csv", &o);
	EXPECT_DAT(want);
	EXPECT_VAR("types='\"wordcount\" \"mnist_spark\" \"synthetic\"'; ");
	EXPECT_VAR("policies='\"spark-standalone\" \"label-dual\" \"fifo\"'; ");
	EXPECT_VAR("colours='\"#0072b2\" \"#d55e00\" \"#009e73\"'; ");
	EXPECT_VAR("keys='\"spark-standalone\" \"label-dual\" \"fifo  \xe2\x9a\xa0 7 of 12 jobs not "
		   "done\"'; ");
	EXPECT_VAR("figtitle='paper-mixed: mean job completion time by job type'; ");
	EXPECT_VAR("subtitle='mean of 3 replications, 95 % CI'; ");
	EXPECT_VAR("footnote=");

	/* no row at the point; not a types.csv */
	o.point = 1;
	run_sum(plot_prep_jct_by_type, DATA "mixed/types.csv", &o);
	EXPECT_ERR(-1, DATA "mixed/types.csv: no row at point 1");
	o.point = 0;
	run_sum(plot_prep_jct_by_type, DATA "sweep/summary.csv", &o);
	EXPECT_ERR(-1, DATA "sweep/summary.csv: no column 'model' in the header");
	out_reset();
}

/* ---- (b) sweep ------------------------------------------------------ */

static void test_sweep(void)
{
	struct plot_opts o = {0};
	run_sum(plot_prep_sweep, DATA "sweep/summary.csv", &o);
	CU_ASSERT_EQUAL(out.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.dat, "# spark-standalone: jobs mean ci95_lo ci95_hi\n"
						"10 400 388.554 411.446\n"));
	/* at 60 jobs: 775.44 / 2400 = 32.31 % */
	EXPECT_VAR("note='label-dual: \xe2\x88\x92" "67.7 % (to 32.3 % of spark-standalone)'; ");
	EXPECT_VAR("notex=60; notey=775.44; basey=2400; ");
	EXPECT_VAR("xlabel='jobs'; ");

	EXPECT_VAR("subtitle2='change of label-dual against spark-standalone (first policy "
		   "listed): ratio of means'; ");
	EXPECT_VAR("figtitle='wordcount-batch: execution time against jobs'; ");

	/* two axes: held at point 2 (gpus = 4), named in the title; rows
	 * sorted by jobs although the file lists point 3 first; label-dual
	 * has no interval at 20.  label-dual is listed first: the baseline,
	 * so the arrow shows spark-standalone, the other policy: 140 / 70. */
	o.point = 2;
	run_sum(plot_prep_sweep, DATA "two-axes/summary.csv", &o);
	EXPECT_DAT("# label-dual: jobs mean ci95_lo ci95_hi\n"
		   "10 40 38.8 41.2\n"
		   "20 70 70 70\n"
		   "\n\n# spark-standalone: jobs mean ci95_lo ci95_hi\n"
		   "10 80 77.5 82.5\n"
		   "20 140 137.5 142.5\n"
		   "\n\n# no job done: x y label colour\n10 0 \"\" 0\n"
		   "\n\n# jobs not done: x y label colour\n10 0 \"\" 0\n");
	EXPECT_VAR("note='spark-standalone: +100.0 % (to 200.0 % of label-dual)'; ");
	EXPECT_VAR("figtitle='s, gpus = 4: execution time against jobs'; ");
	EXPECT_VAR("subtitle='mean of 5 replications, 95 % CI'; ");
	EXPECT_VAR("subtitle2='change of spark-standalone against label-dual (first policy "
		   "listed): ratio of means'; ");
	o = (struct plot_opts){.axis = "gpus"};
	run_sum(plot_prep_sweep, DATA "two-axes/summary.csv", &o);
	EXPECT_DAT("# label-dual: gpus mean ci95_lo ci95_hi\n"
		   "2 50 48.8 51.2\n"
		   "4 40 38.8 41.2\n"
		   "\n\n# spark-standalone: gpus mean ci95_lo ci95_hi\n"
		   "2 100 97.5 102.5\n"
		   "4 80 77.5 82.5\n"
		   "\n\n# no job done: x y label colour\n2 0 \"\" 0\n"
		   "\n\n# jobs not done: x y label colour\n2 0 \"\" 0\n");
	EXPECT_VAR("figtitle='s, jobs = 10: execution time against gpus'; ");
	o = (struct plot_opts){.axis = "cores"};
	run_sum(plot_prep_sweep, DATA "two-axes/summary.csv", &o);
	EXPECT_ERR(-1, DATA "two-axes/summary.csv: no sweep axis 'cores' (--axis; axes: jobs, gpus)");
	o = (struct plot_opts){.point = 9};
	run_sum(plot_prep_sweep, DATA "two-axes/summary.csv", &o);
	EXPECT_ERR(-1, DATA "two-axes/summary.csv: no sweep point 9 (--point)");
	o = (struct plot_opts){0};
	run_sum(plot_prep_sweep, DATA "mixed/summary.csv", &o);
	EXPECT_ERR(PLOT_NONE, DATA "mixed/summary.csv: no sweep axis (no column between 'point' "
				   "and 'replications'; hetsim sweep writes them)");
	out_reset();
}

/* A non-numeric axis: x is the rank of each value in sweep point order. */
static void test_sweep_categories(void)
{
	char path[64];
	const char *csv = "policy,point,calculator,replications,metric,mean\n"
			  "a,1,memory,3,makespan_s,5\n"
			  "a,0,cores,3,makespan_s,7\n";
	h_write_tmp(path, sizeof path, csv);
	struct plot_opts o = {0};
	run_sum(plot_prep_sweep, path, &o);
	EXPECT_DAT("# a: calculator mean ci95_lo ci95_hi\n0 7 7 7\n1 5 5 5\n"
		   "\n\n# no job done: x y label colour\n0 0 \"\" 0\n"
		   "\n\n# jobs not done: x y label colour\n0 0 \"\" 0\n");
	EXPECT_VAR("xticsdef='(\"cores\" 0, \"memory\" 1)'; ");
	EXPECT_VAR("subtitle='mean of 3 replications, 95 % CI'; ");
	remove(path);
	out_reset();
}

/* ---- jobs not done, baseline, point titles -------------------------- */

/* counts/summary.csv, a sweep over jobs (10, 20, 30) made with --baseline
 * label-dual: at 20 jobs label-dual's 4 of 20 jobs time out and yarn
 * finishes none (done 0: 4 failed at 30 s, 16 unplaceable), though its
 * file rows hold a makespan of 30 s and a change of -80 %. */
static void test_policies_not_done(void)
{
	struct plot_opts o = {.point = 1};
	run_sum(plot_prep_policies, DATA "counts/summary.csv", &o);
	/* yarn: no bar (no 30, no 0), an empty slot that says so, and its
	 * mark; the changes are the paired rows against the summary's
	 * baseline: spark-standalone +34 (32..36); none for yarn */
	EXPECT_DAT("# i policy mean ci95_lo ci95_hi top colour label labely change mark "
		   "(makespan_s at point 1)\n"
		   "0 \"spark-standalone\" 200 190 210 210 29362 \"200\" 210 \"+34.0 % \xc2\xb1 2.0\" \"\"\n"
		   "1 \"label-dual\" 150 145 155 155 13983232 \"150\" 155 \"\" \"\xe2\x9a\xa0 4 of 20 timed out\"\n"
		   "2 \"yarn\" NaN NaN NaN NaN 13400487 \"no job done\" 0 \"\" "
		   "\"\xe2\x9a\xa0 20 of 20 jobs not done\"\n");
	EXPECT_VAR("figtitle='cnt, jobs = 20: execution time per policy'; ");
	EXPECT_VAR("subtitle='mean of 4 replications, 95 % CI'; ");
	EXPECT_VAR("subtitle2='change against label-dual (the sweep''s baseline): mean of paired "
		   "changes'; ");
	EXPECT_VAR("ymax=304.5; "); /* 1.45 x 210: value, change and mark lines */
	EXPECT_VAR("footnote='\xe2\x9a\xa0 jobs not done (failed, timed out or unplaceable): mean per "
		   "replication, of the counted jobs'; ");
	CU_ASSERT_PTR_NULL(strstr(out.dat, " 30 "));

	/* --compare: the headline is paired too */
	o.compare = "spark-standalone";
	run_sum(plot_prep_policies, DATA "counts/summary.csv", &o);
	EXPECT_VAR("note='spark-standalone: +34.0 % \xc2\xb1 2.0 against label-dual (paired)'; ");
	o.compare = "yarn"; /* no value: no headline */
	run_sum(plot_prep_policies, DATA "counts/summary.csv", &o);
	CU_ASSERT_EQUAL(out.rc, 0);
	CU_ASSERT_PTR_NULL(strstr(out.v.s, "notecolour="));

	/* another baseline: the file's paired rows are against label-dual, so
	 * the ratio of means, 150 / 200 */
	o = (struct plot_opts){.point = 1, .baseline = "spark-standalone"};
	run_sum(plot_prep_policies, DATA "counts/summary.csv", &o);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.dat, "\"150\" 155 \"\xe2\x88\x92" "25.0 %\" "));
	EXPECT_VAR("subtitle2='change against spark-standalone (--baseline): ratio of means'; ");
	o.baseline = "nope";
	run_sum(plot_prep_policies, DATA "counts/summary.csv", &o);
	EXPECT_ERR(-1, DATA "counts/summary.csv: no policy 'nope' (--baseline; policies: "
		       "spark-standalone, label-dual, yarn)");

	/* point 0: every job done, no marks; yarn 120 against label-dual 80 */
	o = (struct plot_opts){0};
	run_sum(plot_prep_policies, DATA "counts/summary.csv", &o);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.dat, "\"yarn\" 120 110 130 130 13400487 \"120\" 130 "
					       "\"+50.0 % \xc2\xb1 5.0\" \"\"\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.dat, "\"label-dual\" 80 76.82 83.18 83.18 13983232 "
					       "\"80\" 83.18 \"\" \"\"\n"));
	EXPECT_VAR("figtitle='cnt, jobs = 10: execution time per policy'; ");
	CU_ASSERT_PTR_NULL(strstr(out.v.s, "footnote="));
	out_reset();
}

static void test_jct_by_type_not_done(void)
{
	/* counts/types.csv, a sweep's, at point 1 (jobs = 20; the axis is
	 * named as the models' `jobs` column, which comes after
	 * `replication`); point 0's rows are left out.  label-dual finished
	 * no mnist_spark job, yarn none at all, no policy an angel job: their
	 * slots are empty and labelled, angel's included; the key carries the
	 * marks, summed over the models, per replication */
	struct plot_opts o = {.point = 1};
	char want[2048] = "# spark-standalone: x mean ci95_lo ci95_hi\n";
	bar3(want, sizeof want, "-0.266666667", 80, 2);
	bar3(want, sizeof want, "0.733333333", 100, 5);
	strcat(want, "\n\n# label-dual: x mean ci95_lo ci95_hi\n");
	bar3(want, sizeof want, "0", 60, 2);
	strcat(want, "\n\n# yarn: x mean ci95_lo ci95_hi\n"
		     "NaN NaN NaN NaN\n"
		     "\n\n# slots without a value: x label colour\n"
		     "1.73333333 \"no job done\" 29362\n"
		     "1 \"no job done\" 13983232\n"
		     "2 \"no job done\" 13983232\n"
		     "0.266666667 \"no job done\" 13400487\n"
		     "1.26666667 \"no job done\" 13400487\n"
		     "2.26666667 \"no job done\" 13400487\n");
	run_sum(plot_prep_jct_by_type, DATA "counts/types.csv", &o);
	EXPECT_DAT(want);
	EXPECT_VAR("figtitle='cnt, jobs = 20: mean job completion time by job type'; ");
	EXPECT_VAR("types='\"wordcount\" \"mnist_spark\" \"angel\"'; ");
	EXPECT_VAR("keys='\"spark-standalone  \xe2\x9a\xa0 2 of 22 unplaceable\" "
		   "\"label-dual  \xe2\x9a\xa0 12 of 22 jobs not done\" "
		   "\"yarn  \xe2\x9a\xa0 22 of 22 jobs not done\"'; ");
	EXPECT_VAR("policies='\"spark-standalone\" \"label-dual\" \"yarn\"'; ");
	/* point 0: one replication each, no interval */
	o.point = 0;
	run_sum(plot_prep_jct_by_type, DATA "counts/types.csv", &o);
	EXPECT_DAT("# spark-standalone: x mean ci95_lo ci95_hi\n"
		   "-0.266666667 40 NaN NaN\n"
		   "0.733333333 70 NaN NaN\n"
		   "\n\n# label-dual: x mean ci95_lo ci95_hi\n"
		   "0 40 NaN NaN\n"
		   "1 70 NaN NaN\n"
		   "\n\n# yarn: x mean ci95_lo ci95_hi\n"
		   "0.266666667 40 NaN NaN\n"
		   "1.26666667 70 NaN NaN\n"
		   "\n\n# slots without a value: x label colour\n"
		   "0 \"\" 0\n");
	EXPECT_VAR("figtitle='cnt, jobs = 10: mean job completion time by job type'; ");
	EXPECT_VAR("subtitle='one replication: no interval'; ");
	CU_ASSERT_PTR_NULL(strstr(out.v.s, "footnote="));
	out_reset();
}

static void test_sweep_not_done(void)
{
	struct plot_opts o = {0};
	run_sum(plot_prep_sweep, DATA "counts/summary.csv", &o);
	/* yarn's line breaks at 20 (a blank line: no point there, no 30, no
	 * 0) and a label stands at its foot; label-dual is marked at 20.  The
	 * baseline is the summary's (label-dual), so the arrow shows the
	 * first other policy, paired at 30 jobs: +30 (28..32). */
	EXPECT_DAT("# spark-standalone: jobs mean ci95_lo ci95_hi\n"
		   "10 100 93.64 106.36\n"
		   "20 200 190 210\n"
		   "30 300 290 310\n"
		   "\n\n# label-dual: jobs mean ci95_lo ci95_hi\n"
		   "10 80 76.82 83.18\n"
		   "20 150 145 155\n"
		   "30 230 225 235\n"
		   "\n\n# yarn: jobs mean ci95_lo ci95_hi\n"
		   "10 120 110 130\n"
		   "\n"
		   "30 260 250 270\n"
		   "\n\n# no job done: x y label colour\n"
		   "20 0 \"yarn: no job done\" 13400487\n"
		   "\n\n# jobs not done: x y label colour\n"
		   "20 150 \"\xe2\x9a\xa0 4/20\" 13983232\n");
	EXPECT_VAR("note='spark-standalone: +30.0 % \xc2\xb1 2.0 against label-dual (paired)'; ");
	EXPECT_VAR("notex=30; notey=300; basey=230; ");
	EXPECT_VAR("figtitle='cnt: execution time against jobs'; ");
	EXPECT_VAR("subtitle2='change of spark-standalone against label-dual (the sweep''s "
		   "baseline): mean of paired changes'; ");
	EXPECT_VAR("footnote='\xe2\x9a\xa0 n/N: jobs not done (failed, timed out or unplaceable) of the N "
		   "counted, mean per replication'; ");

	/* the arrow of yarn: at 30 jobs, paired +13 (11..15) */
	o.compare = "yarn";
	run_sum(plot_prep_sweep, DATA "counts/summary.csv", &o);
	EXPECT_VAR("note='yarn: +13.0 % \xc2\xb1 2.0 against label-dual (paired)'; ");
	EXPECT_VAR("notex=30; notey=260; basey=230; ");
	out_reset();
}

/* An older summary without count rows: a makespan or JCT mean of exactly
 * 0 is a policy that finished nothing (no job that ran has either); a
 * point without sweep axes is named by its number. */
static void test_old_summary_zero(void)
{
	char path[64];
	h_write_tmp(path, sizeof path, "scenario,policy,point,replications,metric,mean\n"
		    "t,a,1,3,makespan_s,0.000000\n"
		    "t,b,1,3,makespan_s,50\n"
		    "t,a,1,3,wait_mean_s,0.000000\n"
		    "t,b,1,3,wait_mean_s,2\n");
	struct plot_opts o = {.point = 1, .baseline = "b"};
	run_sum(plot_prep_policies, path, &o);
	/* names not in the palette's table: the first free slots, #0072b2 and
	 * #d55e00, in byte order */
	EXPECT_DAT("# i policy mean ci95_lo ci95_hi top colour label labely change mark "
		   "(makespan_s at point 1)\n"
		   "0 \"a\" NaN NaN NaN NaN 29362 \"no job done\" 0 \"\" \"\"\n"
		   "1 \"b\" 50 NaN NaN 50 13983232 \"50\" 50 \"\" \"\"\n");
	EXPECT_VAR("figtitle='t, point 1: execution time per policy'; ");
	o.metric = "wait_mean_s"; /* 0 is a wait, drawn */
	run_sum(plot_prep_policies, path, &o);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.dat, "0 \"a\" 0 NaN NaN 0 29362 \"0\" 0 "));
	remove(path);
	out_reset();
}

/* The baseline: the first policy listed unless the summary or
 * --baseline names one. */
static void test_baseline_default(void)
{
	/* two-axes lists label-dual first: 100 against 50 at point 0 */
	struct plot_opts o = {0};
	run_sum(plot_prep_policies, DATA "two-axes/summary.csv", &o);
	EXPECT_DAT("# i policy mean ci95_lo ci95_hi top colour label labely change mark "
		   "(makespan_s at point 0)\n"
		   "0 \"label-dual\" 50 48.8 51.2 51.2 13983232 \"50\" 51.2 \"\" \"\"\n"
		   "1 \"spark-standalone\" 100 97.5 102.5 102.5 29362 \"100\" 102.5 "
		   "\"+100.0 %\" \"\"\n");
	EXPECT_VAR("subtitle2='change against label-dual (first policy listed): ratio of means'; ");
	/* both axes named in the title */
	EXPECT_VAR("figtitle='s, jobs = 10, gpus = 2: execution time per policy'; ");

	o.baseline = "spark-standalone";
	run_sum(plot_prep_policies, DATA "two-axes/summary.csv", &o);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.dat, "\"50\" 51.2 \"\xe2\x88\x92" "50.0 %\" "));
	EXPECT_VAR("subtitle2='change against spark-standalone (--baseline): ratio of means'; ");

	/* a summary whose baseline column names label-dual, --baseline over it */
	o = (struct plot_opts){.baseline = "yarn"};
	run_sum(plot_prep_sweep, DATA "counts/summary.csv", &o);
	EXPECT_VAR("subtitle2='change of label-dual against yarn (--baseline): ratio of means'; ");
	out_reset();
}

/* The makespan_change_pct rows a run folder's runs.csv gives, paired by
 * replication, against the first policy or the one named: b's 20, 20, 20
 * against a's 10, 12, 14 are +100, +66.67, +42.86 %, mean 69.84; a
 * against b: -50, -40, -30, mean -40, sd 10, half-width t(0.975, 2) x
 * 10 / sqrt 3 = 24.84.  In run/runs.csv, label-dual against
 * spark-standalone: -20 and -25 %; yarn, which finished nothing, has no
 * change at all. */
static void test_runs_changes(void)
{
	char err[256];
	struct plot_csv *runs = plot_csv_read(DATA "runs/runs.csv", err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	for (int k = 0; k < 2; k++) {
		struct plot_csv *s = plot_summarise_runs(runs, k ? "b" : NULL, err, sizeof err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		int km = plot_csv_col(s, "metric"), kp = plot_csv_col(s, "policy"),
		    kv = plot_csv_col(s, "mean"), kb = plot_csv_col(s, "baseline"),
		    kh = plot_csv_col(s, "ci95_half"), kn = plot_csv_col(s, "replications");
		int rows = 0;
		for (int r = 0; r < plot_csv_rows(s); r++) {
			if (strcmp(plot_csv_cell(s, r, km), "makespan_change_pct")) {
				CU_ASSERT_STRING_EQUAL(plot_csv_cell(s, r, kb), "");
				continue;
			}
			rows++;
			CU_ASSERT_STRING_EQUAL(plot_csv_cell(s, r, kp), k ? "a" : "b");
			CU_ASSERT_STRING_EQUAL(plot_csv_cell(s, r, kb), k ? "b" : "a");
			CU_ASSERT_STRING_EQUAL(plot_csv_cell(s, r, kn), "3");
			double mean = atof(plot_csv_cell(s, r, kv)), half = atof(plot_csv_cell(s, r, kh));
			CU_ASSERT_DOUBLE_EQUAL(mean, k ? -40.0 : (100 + 200.0 / 3 + 300.0 / 7) / 3, 1e-6);
			if (k)
				CU_ASSERT_DOUBLE_EQUAL(half, 4.30265273 * 10 / sqrt(3), 1e-6);
		}
		CU_ASSERT_EQUAL(rows, 1);
		plot_csv_free(s);
	}
	plot_csv_free(runs);
	runs = plot_csv_read(DATA "run/runs.csv", err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	struct plot_csv *s = plot_summarise_runs(runs, NULL, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	int km = plot_csv_col(s, "metric"), kp = plot_csv_col(s, "policy"),
	    kv = plot_csv_col(s, "mean");
	int rows = 0;
	for (int r = 0; r < plot_csv_rows(s); r++)
		if (!strcmp(plot_csv_cell(s, r, km), "makespan_change_pct")) {
			rows++;
			CU_ASSERT_STRING_EQUAL(plot_csv_cell(s, r, kp), "label-dual");
			CU_ASSERT_DOUBLE_EQUAL(atof(plot_csv_cell(s, r, kv)), -22.5, 1e-9);
		}
	CU_ASSERT_EQUAL(rows, 1);
	plot_csv_free(s);
	plot_csv_free(runs);
}

/* A paired change over some of the replications says how many: in
 * runs.csv, b finished other jobs than a in replication 2 (done_set 7
 * against 3), so its change, (20 - 10) / 10 and (18 - 12) / 12, +75 %
 * on average, is over 2 of 3 replications; a sweep's summary whose
 * change row says 3 of its 4 replications, the same. */
static void test_paired_some_replications(void)
{
	char path[] = "/tmp/hetsim-plot-XXXXXX", err[256];
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("scenario,policy,replication,seed,makespan_s,done,failed,timed_out,unplaceable,"
	      "counted,done_set\n"
	      "t,a,0,1,10,2,0,0,0,3,3\nt,a,1,1,12,2,0,0,0,3,3\nt,a,2,1,14,2,0,0,0,3,3\n"
	      "t,b,0,1,20,2,0,0,0,3,3\nt,b,1,1,18,2,0,0,0,3,3\nt,b,2,1,30,3,0,0,0,3,7\n", f);
	fclose(f);
	struct plot_csv *runs = plot_csv_read(path, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	struct plot_csv *sum = plot_summarise_runs(runs, NULL, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
	struct plot_opts o = {.compare = "b"};
	run_sum_csv(plot_prep_policies, sum, &o);
	CU_ASSERT_EQUAL(out.rc, 0);
	EXPECT_VAR("note='b: +75.0 % \xc2\xb1 317.7 against a (paired, 2 of 3 replications)'; ");
	plot_csv_free(sum);
	plot_csv_free(runs);
	remove(path);

	/* counts/summary.csv with spark-standalone's change at 30 jobs over 3
	 * of the 4 replications (its rows say 4) */
	long n;
	char *text = h_slurp(DATA "counts/summary.csv", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	char *at = strstr(text, "cnt,spark-standalone,2,30,4,makespan_change_pct");
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	at[strlen("cnt,spark-standalone,2,30,")] = '3';
	char path2[] = "/tmp/hetsim-plot-XXXXXX";
	fd = mkstemp(path2);
	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	free(text);
	struct plot_opts so = {0};
	run_sum(plot_prep_sweep, path2, &so);
	EXPECT_VAR("note='spark-standalone: +30.0 % \xc2\xb1 2.0 against label-dual (paired, 3 of "
		   "4 replications)'; ");
	/* and its bar at point 2: the same note */
	struct plot_opts po = {.point = 2, .compare = "spark-standalone"};
	run_sum(plot_prep_policies, path2, &po);
	EXPECT_VAR("note='spark-standalone: +30.0 % \xc2\xb1 2.0 against label-dual (paired, 3 of "
		   "4 replications)'; ");
	/* yarn's, over all 4: "(paired)" */
	so.compare = "yarn";
	run_sum(plot_prep_sweep, path2, &so);
	EXPECT_VAR("note='yarn: +13.0 % \xc2\xb1 2.0 against label-dual (paired)'; ");
	out_reset();
	remove(path2);
}

/* runs.csv of an older hetsim: yarn placed nothing (done 0) and its rows
 * hold 0.000000 for makespan and JCT; label-dual failed 1 of 4 jobs in
 * one of two replications. */
static void test_runs_done_zero(void)
{
	char err[256];
	struct plot_csv *runs = plot_csv_read(DATA "run/runs.csv", err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	struct plot_csv *s = plot_summarise_runs(runs, NULL, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	int km = plot_csv_col(s, "metric"), kp = plot_csv_col(s, "policy"),
	    kv = plot_csv_col(s, "mean");
	int seen = 0;
	for (int r = 0; r < plot_csv_rows(s); r++) {
		const char *m = plot_csv_cell(s, r, km), *v = plot_csv_cell(s, r, kv);
		if (strcmp(plot_csv_cell(s, r, kp), "yarn"))
			continue;
		if (!strcmp(m, "makespan_s") || !strncmp(m, "jct_", 4)) {
			CU_ASSERT_STRING_EQUAL(v, ""); /* no value, not 0 */
			seen++;
		}
		if (!strcmp(m, "wait_mean_s") || !strcmp(m, "cpu_util"))
			CU_ASSERT_STRING_EQUAL(v, "0"); /* not about finished jobs: kept */
		if (!strcmp(m, "unplaceable"))
			CU_ASSERT_STRING_EQUAL(v, "4");
	}
	CU_ASSERT_EQUAL(seen, 5);
	struct plot_opts o = {0};
	run_sum_csv(plot_prep_policies, s, &o);
	/* paired, as the run's table: -20 and -25 %, -22.5 +- t(0.975, 1)
	 * 3.5355 / sqrt 2 = 31.8; 0.5 of 4 failed (counted 4) */
	CU_ASSERT_EQUAL(out.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.dat, "1 \"label-dual\" 8.5 2.14689763 14.8531024 "
					       "14.8531024 13983232 \"8.5\" 14.8531024 "
					       "\"\xe2\x88\x92" "22.5 % \xc2\xb1 31.8\" "
					       "\"\xe2\x9a\xa0 0.5 of 4 failed\"\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.dat, "2 \"yarn\" NaN NaN NaN NaN 13400487 \"no job done\" "
					       "0 \"\" \"\xe2\x9a\xa0 4 of 4 unplaceable\"\n"));
	if (out.rc || !strstr(out.dat, "\"yarn\" NaN"))
		fprintf(stderr, "\n  got:\n%s\n", out.dat);
	plot_csv_free(s);
	plot_csv_free(runs);
	out_reset();
}

/* ---- (c) gantt, (d) utilisation ------------------------------------- */

static void test_nodes(void)
{
	char err[256];
	struct scn *s = scn_load(DATA "cluster.yaml", err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct plot_nodes n;
	plot_nodes_from_scn(s, &n);
	CU_ASSERT_EQUAL_FATAL(n.n, 5);
	static const struct {
		const char *name, *label;
		int cores, gpus;
	} want[] = {
		{"gpu-0", "gpu", 4, 2}, /* labels gtx1080ti, gpu: gpu wins */
		{"cpu-0", "cpu", 2, 0},
		{"cpu-1", "cpu", 2, 0},
		{"fast-0", "fast", 2, 0}, /* fast, ssd: the first */
		{"plain-0", "unlabelled", 8, 0},
	};
	for (int i = 0; i < 5; i++) {
		CU_ASSERT_STRING_EQUAL(n.v[i].name, want[i].name);
		CU_ASSERT_STRING_EQUAL(n.v[i].label, want[i].label);
		CU_ASSERT_EQUAL(n.v[i].cores, want[i].cores);
		CU_ASSERT_EQUAL(n.v[i].gpus, want[i].gpus);
		CU_ASSERT_STRING_EQUAL(n.v[i].model, i == 0 ? "gtx1080ti" : "");
	}
	plot_nodes_free(&n);
	scn_free(s);
}

static void test_gantt(void)
{
	/* Policy p, replication 0.  gpu-0: executor 0 (0..4) and 3 (2..4, never
	 * ready) overlap, two lanes; every other node one.  Node i spans
	 * [y0, y0 + lanes], 0.5 apart: gpu-0 0, cpu-0 2.5, cpu-1 4, fast-0 5.5,
	 * plain-0 7; a box fills its lane from +0.08 to +0.92.  Odd nodes are
	 * shaded to 1.02 x the last end (5).  Types in the fixed order. */
	struct plot_opts o = {.policy = "p"};
	run_ex(plot_prep_gantt, DATA "mixed/executors.csv", true, &o);
	EXPECT_DAT("# node shading: x0 x1 y0 y1\n"
		   "0 5.1 2.25 3.75\n"
		   "0 5.1 5.25 6.75\n"
		   "\n\n# wordcount start-up (launch..ready): x0 x1 y0 y1\n"
		   "1 2 2.58 3.42\n"
		   "1 2 4.08 4.92\n"
		   "2 3 5.58 6.42\n"
		   "\n\n# wordcount running (ready..end): x0 x1 y0 y1\n"
		   "2 3 2.58 3.42\n"
		   "2 5 4.08 4.92\n"
		   "3 3 5.58 6.42\n"
		   "\n\n# mnist_spark start-up (launch..ready): x0 x1 y0 y1\n"
		   "0 1 0.08 0.92\n"
		   "2 4 1.08 1.92\n"
		   "\n\n# mnist_spark running (ready..end): x0 x1 y0 y1\n"
		   "1 4 0.08 0.92\n"
		   "4 4 1.08 1.92\n"
		   "\n\n# executors holding GPUs: x0 x1 y0 y1\n"
		   "0 4 0.08 0.92\n"
		   "2 4 1.08 1.92\n");
	EXPECT_VAR("ytics='(\"gpu-0\" 1.00, \"cpu-0\" 3.00, \"cpu-1\" 4.50, \"fast-0\" 6.00, "
		   "\"plain-0\" 7.50)'; ");
	EXPECT_VAR("types='\"wordcount\" \"mnist_spark\"'; ");
	EXPECT_VAR("ymax=8.25; xmax=5.1; ngpu=2; ");

	/* without the scenario: the nodes that appear, by group then index */
	run_ex(plot_prep_gantt, DATA "mixed/executors.csv", false, &o);
	EXPECT_VAR("ytics='(\"cpu-0\" 0.50, \"cpu-1\" 2.00, \"fast-0\" 3.50, \"gpu-0\" 5.50)'; ");

	o.policy = "r";
	run_ex(plot_prep_gantt, DATA "mixed/executors.csv", true, &o);
	EXPECT_ERR(-1, DATA "mixed/executors.csv: no executor of policy 'r' in replication 0 "
			    "(policies there: p, q)");
	out_reset();
}

/* Gantt (and utilisation) figures of several policies share one time
 * axis: to the latest executor end of any of them. */
static void test_gantt_shared_axis(void)
{
	char err[256];
	struct plot_csv *c = plot_csv_read(DATA "mixed/executors.csv", err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	struct plot_opts o = {.policy = "p"};
	CU_ASSERT_DOUBLE_EQUAL(plot_exec_end(c, &o), 9, 1e-12); /* q's executor, 0..9 */
	o.replication = 1;
	CU_ASSERT_DOUBLE_EQUAL(plot_exec_end(c, &o), 9, 1e-12);
	o.replication = 2;
	CU_ASSERT_DOUBLE_EQUAL(plot_exec_end(c, &o), 0, 1e-12);
	plot_csv_free(c);

	/* p alone ends at 5 (xmax 5.1, test_gantt); on q's axis, to 9 x 1.02,
	 * shading included */
	o = (struct plot_opts){.policy = "p", .xmax = 9};
	run_ex(plot_prep_gantt, DATA "mixed/executors.csv", true, &o);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.dat, "# node shading: x0 x1 y0 y1\n0 9.18 2.25 3.75\n"));
	EXPECT_VAR("xmax=9.18; ");
	run_ex(plot_prep_util, DATA "mixed/executors.csv", true, &o);
	EXPECT_VAR("xmax=9.18; ");
	o.xmax = 2; /* never shorter than the run */
	run_ex(plot_prep_gantt, DATA "mixed/executors.csv", true, &o);
	EXPECT_VAR("xmax=5.1; ");
	out_reset();
}

/* Node names sort by group, then by index as a number (n-2 before n-10). */
static void test_gantt_node_order(void)
{
	char path[64];
	const char *csv = "policy,replication,node,type,cores,launch_s,ready_s,end_s\n"
			  "p,0,n-10,synthetic,1,0,1,2\n"
			  "p,0,n-2,synthetic,1,0,1,2\n"
			  "p,0,m-1,synthetic,1,0,1,2\n";
	h_write_tmp(path, sizeof path, csv);
	struct plot_opts o = {.policy = "p"};
	run_ex(plot_prep_gantt, path, false, &o);
	EXPECT_VAR("ytics='(\"m-1\" 0.50, \"n-2\" 2.00, \"n-10\" 3.50)'; ");
	EXPECT_VAR("ngpu=0; "); /* no gpus column: none */
	remove(path);
	out_reset();
}

static void test_utilisation(void)
{
	/* Label capacities: gpu 4 cores 2 GPUs, cpu 2 + 2 cores, fast 2,
	 * unlabelled 8.  Held (cores; GPUs):
	 *   t=0 executor 0 launches on gpu-0: gpu 2/4 = 0.5; GPUs 1/2
	 *   t=1 executors 1, 2 on cpu-0, cpu-1: cpu 3/4 = 0.75
	 *   t=2 executor 3 on gpu-0: gpu 3/4, GPUs 2/2; 4 on fast-0: 1/2
	 *   t=3 executors 1 and 4 end: cpu 2/4, fast 0
	 *   t=4 executors 0 and 3 end: gpu 0, GPUs 0
	 *   t=5 executor 2 ends: all 0
	 * Rows of q and of replication 1 are not counted. */
	struct plot_opts o = {.policy = "p"};
	run_ex(plot_prep_util, DATA "mixed/executors.csv", true, &o);
	EXPECT_DAT("# t cores:gpu cores:cpu cores:fast cores:unlabelled gpus:gpu  (share held by "
		   "executors, from t to the next row)\n"
		   "0 0.5 0 0 0 0.5\n"
		   "1 0.5 0.75 0 0 0.5\n"
		   "2 0.75 0.75 0.5 0 1\n"
		   "3 0.75 0.5 0 0 1\n"
		   "4 0 0.5 0 0 0\n"
		   "5 0 0 0 0 0\n");
	EXPECT_VAR("labels='\"gpu (4 cores)\" \"cpu (4 cores)\" \"fast (2 cores)\" "
		   "\"unlabelled (8 cores)\"'; ");
	EXPECT_VAR("gpulabels='\"gpu (2 GPUs)\"'; ");

	/* replication 1: q's twin on p, 4 cores and 2 GPUs from 0 to 9; the
	 * first row starts at 0 */
	o.replication = 1;
	run_ex(plot_prep_util, DATA "mixed/executors.csv", true, &o);
	EXPECT_DAT("# t cores:gpu cores:cpu cores:fast cores:unlabelled gpus:gpu  (share held by "
		   "executors, from t to the next row)\n"
		   "0 1 0 0 0 1\n"
		   "9 0 0 0 0 0\n");
	run_ex(plot_prep_util, DATA "mixed/executors.csv", false, &o);
	EXPECT_ERR(-1, DATA "mixed/executors.csv: utilisation needs the scenario's nodes (-s FILE)");
	out_reset();
}

/* A TF node behind a GPU-blind policy holds its GPU from gpu_from_s to
 * gpu_to_s, not from launch to end: a PS that took one at 6 s, a worker
 * from 1 s until its training ended at 8 s. */
static void test_utilisation_gpu_times(void)
{
	char path[64];
	const char *csv = "policy,replication,node,type,cores,gpus,launch_s,ready_s,end_s,"
			  "gpu_from_s,gpu_to_s\n"
			  "p,0,gpu-0,mnist_spark,1,1,0,1,10,6,10\n"
			  "p,0,gpu-0,mnist_spark,1,1,0,1,10,1,8\n"
			  "p,0,cpu-0,wordcount,2,0,0,1,5,,\n";
	h_write_tmp(path, sizeof path, csv);
	struct plot_opts o = {.policy = "p"};
	run_ex(plot_prep_util, path, true, &o);
	EXPECT_DAT("# t cores:gpu cores:cpu cores:fast cores:unlabelled gpus:gpu  (share held by "
		   "executors, from t to the next row)\n"
		   "0 0.5 0.5 0 0 0\n"
		   "1 0.5 0.5 0 0 0.5\n"
		   "5 0.5 0 0 0 0.5\n"
		   "6 0.5 0 0 0 1\n"
		   "8 0.5 0 0 0 0.5\n"
		   "10 0 0 0 0 0\n");
	run_ex(plot_prep_gantt, path, true, &o);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.dat, "# executors holding GPUs: x0 x1 y0 y1\n6 10 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.dat, "\n1 8 "));
	remove(path);

	char bad[64];
	h_write_tmp(bad, sizeof bad, "policy,replication,node,type,cores,gpus,launch_s,ready_s,"
		    "end_s,gpu_from_s,gpu_to_s\np,0,gpu-0,mnist_spark,1,1,2,3,10,1,8\n");
	run_ex(plot_prep_util, bad, true, &o);
	CU_ASSERT_EQUAL(out.rc, -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, ":2: GPU times out of order"));
	remove(bad);
	out_reset();
}

/* Two GPU models under one label (two-models.yaml: v100-0 with 4 GPUs,
 * gtx-0 with 2, both labelled gpu; 12 cores): GPU series per model.
 *   t=0 A on v100-0, 2 cores, 1 GPU: gpu 2/12, v100 1/4
 *   t=1 C on cpu-0, 1 core: cpu 1/2
 *   t=2 B on gtx-0, 1 core, 2 GPUs: gpu 3/12, gtx1080ti 2/2
 *   t=3 C ends; t=4 A ends; t=6 B ends */
static void test_utilisation_gpu_models(void)
{
	char path[64];
	h_write_tmp(path, sizeof path, "policy,replication,node,type,cores,gpus,launch_s,ready_s,end_s\n"
		    "p,0,v100-0,mnist_spark,2,1,0,1,4\n"
		    "p,0,gtx-0,mnist_spark,1,2,2,3,6\n"
		    "p,0,cpu-0,wordcount,1,0,1,2,3\n");
	struct plot_opts o = {.policy = "p"};
	run_ex_in(plot_prep_util, path, DATA "two-models.yaml", &o);
	EXPECT_DAT("# t cores:gpu cores:cpu gpus:v100 gpus:gtx1080ti  (share held by executors, "
		   "from t to the next row)\n"
		   "0 0.166666667 0 0.25 0\n"
		   "1 0.166666667 0.5 0.25 0\n"
		   "2 0.25 0.5 0.25 1\n"
		   "3 0.25 0 0.25 1\n"
		   "4 0.0833333333 0 0 1\n"
		   "6 0 0 0 0\n");
	EXPECT_VAR("gpulabels='\"v100 (4 GPUs)\" \"gtx1080ti (2 GPUs)\"'; ");
	EXPECT_VAR("gpuby='GPU model'; ");
	EXPECT_VAR("figtitle='held by executors, by node label and GPU model: p, replication 0'; ");
	remove(path);
	out_reset();
}

/* ---- runs.csv summarised -------------------------------------------- */

static void test_summarise_runs(void)
{
	char err[256];
	struct plot_csv *runs = plot_csv_read(DATA "runs/runs.csv", err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
	struct plot_csv *s = plot_summarise_runs(runs, NULL, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	/* (a, b) x (makespan_s, jct_mean_s), then b's change against a
	 * (test_runs_changes) */
	CU_ASSERT_EQUAL_FATAL(plot_csv_rows(s), 5);
	CU_ASSERT_STRING_EQUAL(plot_csv_cell(s, 4, plot_csv_col(s, "metric")), "makespan_change_pct");
	/* a: 10, 12, 14: mean 12, sd 2, t(0.975, 2) = 4.302652730, half
	 * 4.302652730 * 2 / sqrt(3) = 4.9682754; b: 20 thrice, sd 0; jct_mean_s: a
	 * none, b one value (no sd) */
	static const struct {
		const char *policy, *metric, *reps, *mean, *sd, *half, *lo, *hi;
	} want[] = {
		{"a", "makespan_s", "3", "12", "2", "4.96827542", "7.03172458", "16.9682754"},
		{"a", "jct_mean_s", "3", "", "", "", "", ""},
		{"b", "makespan_s", "3", "20", "0", "0", "20", "20"},
		{"b", "jct_mean_s", "3", "5", "", "", "", ""},
	};
	const char *cols[] = {"policy", "metric", "replications", "mean", "sd", "ci95_half",
			      "ci95_lo", "ci95_hi"};
	for (int r = 0; r < 4; r++) {
		const char *const *w = &want[r].policy;
		for (int c = 0; c < 8; c++) {
			const char *got = plot_csv_cell(s, r, plot_csv_col(s, cols[c]));
			CU_ASSERT_STRING_EQUAL(got, w[c]);
			if (strcmp(got, w[c]))
				fprintf(stderr, "\n  row %d %s: got '%s', want '%s'\n", r, cols[c],
					got, w[c]);
		}
		CU_ASSERT_STRING_EQUAL(plot_csv_cell(s, r, plot_csv_col(s, "point")), "0");
		CU_ASSERT_STRING_EQUAL(plot_csv_cell(s, r, plot_csv_col(s, "scenario")), "t");
	}
	plot_csv_free(s);
	plot_csv_free(runs);
}

/* ---- the command ---------------------------------------------------- */

/* Run `hetsim plot ARGS` with stdout and stderr captured: both in *text
 * (malloc'ed), or, with errtext, stderr apart in *errtext. */
static int run_cmd2(char **text, char **errtext, const char *args)
{
	return h_call(cmd_plot, args, text, errtext);
}

static int run_cmd(char **text, const char *args)
{
	return run_cmd2(text, NULL, args);
}

static void expect_cmd(const char *args, int rc, const char *text)
{
	char *got;
	int r = run_cmd(&got, args);
	CU_ASSERT_EQUAL(r, rc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_STRING_EQUAL(got, text);
	if (r != rc || strcmp(got, text))
		fprintf(stderr, "\n  hetsim plot %s\n  got %d: %s  want %d: %s", args, r, got, rc,
			text);
	free(got);
}

static bool have_gnuplot(void)
{
	return system("gnuplot --version >/dev/null 2>&1") == 0;
}

static void test_cmd_errors(void)
{
	expect_cmd("gant -d x", 2, "hetsim plot: unknown figure kind 'gant' (did you mean "
				   "'gantt'?) (known: policies, jct-by-type, sweep, gantt, "
				   "utilisation, all, colours)\n");
	expect_cmd("", 2, "hetsim plot: expected one KIND, got 0 arguments (see hetsim plot "
			  "--help)\n");
	expect_cmd("policies", 2, "hetsim plot: no results directory: give -d DIR or -s "
				  "SCENARIO\n");
	expect_cmd("policies -d x --format jpg", 2, "hetsim plot: option '--format' wants png, "
						    "svg or both, got 'jpg'\n");
	expect_cmd("policies -d x --replication -1", 2, "hetsim plot: option '--replication' "
							"wants an integer from 0 to 1000000, got '-1'\n");
	expect_cmd("policies --colour red", 2, "hetsim plot: unknown option '--colour' (see "
					       "hetsim plot --help)\n");

	/* no gnuplot on PATH */
	char *path = strdup(getenv("PATH") ? getenv("PATH") : "");
	setenv("PATH", "/nonexistent", 1);
	expect_cmd("policies -d " DATA "mixed", 1, "hetsim plot: gnuplot not found; install "
						   "gnuplot-nox (scripts/install-deps does)\n");
	setenv("PATH", path, 1);
	free(path);

	if (!have_gnuplot()) {
		fprintf(stderr, "\n  (gnuplot not installed: skipping the rest)\n");
		return;
	}
	char dir[] = "/tmp/hetsim-plot-XXXXXX", args[1024], want[512], fig[64], *got;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(fig, sizeof fig, "%s/fig", dir);
	snprintf(args, sizeof args, "gantt -d %s/none -o %s", dir, fig);
	snprintf(want, sizeof want, "hetsim plot: %s/none: no such results directory\n", dir);
	expect_cmd(args, 1, want);
	snprintf(args, sizeof args, "gantt -d %s -o %s", dir, fig);
	snprintf(want, sizeof want, "hetsim plot: %s/executors.csv:0:0: cannot open: No such file or "
		 "directory\n", dir);
	expect_cmd(args, 1, want);
	snprintf(args, sizeof args, "policies -d %s -o %s", dir, fig);
	snprintf(want, sizeof want, "hetsim plot: no summary.csv or runs.csv in %s\n", dir);
	expect_cmd(args, 1, want);
	snprintf(args, sizeof args, "all -d %s -o %s", dir, fig);
	snprintf(want, sizeof want, "hetsim plot: nothing to plot in %s (no summary.csv, runs.csv, "
		 "types.csv or executors.csv)\n", dir);
	expect_cmd(args, 1, want);
	snprintf(args, sizeof args, "utilisation -d " DATA "mixed -o %s", fig);
	expect_cmd(args, 2, "hetsim plot: utilisation needs the scenario's node labels: give -s "
			    "FILE\n");
	snprintf(args, sizeof args, "gantt -d " DATA "bad -o %s", fig);
	CU_ASSERT_EQUAL(run_cmd(&got, args), 1); /* bad/ has no executors.csv */
	free(got);
	rmdir(fig); /* created, and left empty: no partial figure */
	rmdir(dir);
}

/* The files in dir, sorted, one per line; removes them and dir. */
static char *list_and_remove(const char *dir)
{
	char *names[64], *all = calloc(1, 4096);
	int n = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.' && n < 64)
			names[n++] = strdup(e->d_name);
	if (d)
		closedir(d);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (strcmp(names[j], names[i]) < 0) {
				char *t = names[i];
				names[i] = names[j];
				names[j] = t;
			}
	for (int i = 0; i < n; i++) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		struct stat st;
		if (stat(p, &st) == 0 && st.st_size == 0)
			strcat(all, "(empty) ");
		strcat(all, names[i]);
		strcat(all, "\n");
		remove(p);
		free(names[i]);
	}
	rmdir(dir);
	return all;
}

static void test_cmd_render(void)
{
	if (!have_gnuplot()) {
		fprintf(stderr, "\n  (gnuplot not installed: skipped)\n");
		return;
	}
	char dir[] = "/tmp/hetsim-plot-XXXXXX", args[512], *got;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	/* no sweep axis: sweep does not apply, and `all` says nothing of it */
	char *errs;
	snprintf(args, sizeof args, "all -d " DATA "mixed -s " DATA "cluster.yaml -o %s/fig", dir);
	CU_ASSERT_EQUAL(run_cmd2(&got, &errs, args), 0);
	CU_ASSERT_STRING_EQUAL(errs, "");
	free(got);
	free(errs);
	char sub[512];
	snprintf(sub, sizeof sub, "%s/fig", dir);
	char *files = list_and_remove(sub);
	const char *want = "gantt-p.dat\ngantt-p.png\ngantt-p.svg\ngantt-q.dat\ngantt-q.png\n"
			   "gantt-q.svg\njct-by-type.dat\njct-by-type.png\njct-by-type.svg\n"
			   "policies.dat\npolicies.png\npolicies.svg\nutilisation-p.dat\n"
			   "utilisation-p.png\nutilisation-p.svg\nutilisation-q.dat\n"
			   "utilisation-q.png\nutilisation-q.svg\n";
	CU_ASSERT_STRING_EQUAL(files, want);
	if (strcmp(files, want))
		fprintf(stderr, "\n  got:\n%s", files);
	free(files);

	/* the sweep alone, SVG only; runs.csv alone stands in for summary.csv */
	snprintf(args, sizeof args, "sweep -d " DATA "sweep -o %s/fig --format svg", dir);
	CU_ASSERT_EQUAL(run_cmd(&got, args), 0);
	free(got);
	files = list_and_remove(sub);
	CU_ASSERT_STRING_EQUAL(files, "sweep.dat\nsweep.svg\n");
	free(files);
	snprintf(args, sizeof args, "policies -d " DATA "runs -o %s/fig --format png "
		 "--compare b --baseline a", dir);
	CU_ASSERT_EQUAL(run_cmd(&got, args), 0);
	free(got);
	files = list_and_remove(sub);
	CU_ASSERT_STRING_EQUAL(files, "policies.dat\npolicies.png\n");
	free(files);
	rmdir(dir);
}

/* `all` on the folder of a hetsim run (runs.csv, types.csv,
 * executors.csv; no summary, no sweep axis, no -s): the figures that
 * apply and not a word on stderr; a kind asked for by name still says
 * why it cannot be drawn.  The gantt figures share one time axis. */
static void test_cmd_run_folder(void)
{
	if (!have_gnuplot()) {
		fprintf(stderr, "\n  (gnuplot not installed: skipped)\n");
		return;
	}
	char dir[] = "/tmp/hetsim-plot-XXXXXX", args[1024], sub[64], *got, *errs;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(sub, sizeof sub, "%s/fig", dir);
	snprintf(args, sizeof args, "all -d " DATA "run -o %s --format svg", sub);
	CU_ASSERT_EQUAL(run_cmd2(&got, &errs, args), 0);
	CU_ASSERT_STRING_EQUAL(errs, "");
	if (strcmp(errs, ""))
		fprintf(stderr, "\n  stderr: %s", errs);
	char want[1024];
	snprintf(want, sizeof want, "%s/policies.svg\n%s/jct-by-type.svg\n"
		 "%s/gantt-spark-standalone.svg\n%s/gantt-label-dual.svg\n", sub, sub, sub, sub);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
	free(errs);
	/* label-dual's executors end by 8 s, spark-standalone's at 10 s: both
	 * figures run to 10 x 1.02 (the shading of the second node row) */
	char p[128], *dat;
	snprintf(p, sizeof p, "%s/gantt-label-dual.dat", sub);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dat = h_slurp(p, NULL));
	CU_ASSERT_PTR_NOT_NULL(strstr(dat, "# node shading: x0 x1 y0 y1\n0 10.2 "));
	free(dat);
	snprintf(p, sizeof p, "%s/gantt-spark-standalone.dat", sub);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dat = h_slurp(p, NULL));
	CU_ASSERT_PTR_NOT_NULL(strstr(dat, "# node shading: x0 x1 y0 y1\n0 10.2 "));
	free(dat);
	free(list_and_remove(sub));

	/* asked for by name: the reason, exit 1 */
	snprintf(args, sizeof args, "sweep -d " DATA "run -o %s", sub);
	CU_ASSERT_EQUAL(run_cmd2(&got, &errs, args), 1);
	CU_ASSERT_STRING_EQUAL(errs, "hetsim plot: " DATA "run/runs.csv: no sweep axis (no column "
				     "between 'point' and 'replications'; hetsim sweep writes them)\n");
	free(got);
	free(errs);
	snprintf(args, sizeof args, "jct-by-type -d " DATA "sweep -o %s", sub);
	CU_ASSERT_EQUAL(run_cmd2(&got, &errs, args), 1);
	CU_ASSERT_STRING_EQUAL(errs, "hetsim plot: no types.csv in " DATA "sweep (hetsim run and "
				     "hetsim sweep write it; results of an older hetsim lack it)\n");
	free(got);
	free(errs);
	/* --policy: one figure, on its own axis */
	snprintf(args, sizeof args, "gantt -d " DATA "run -o %s --format svg --policy label-dual", sub);
	CU_ASSERT_EQUAL(run_cmd(&got, args), 0);
	free(got);
	snprintf(p, sizeof p, "%s/gantt-label-dual.dat", sub);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dat = h_slurp(p, NULL));
	CU_ASSERT_PTR_NOT_NULL(strstr(dat, "# node shading: x0 x1 y0 y1\n0 8.16 "));
	free(dat);
	free(list_and_remove(sub));

	/* the figures of summaries with jobs not done and a single policy
	 * that finished nothing render (gnuplot 5.4 crashes on a labels plot
	 * with one undefined point) */
	snprintf(args, sizeof args, "policies -d " DATA "counts -o %s --point 1", sub);
	CU_ASSERT_EQUAL(run_cmd(&got, args), 0);
	free(got);
	snprintf(args, sizeof args, "jct-by-type -d " DATA "counts -o %s --point 1", sub);
	CU_ASSERT_EQUAL(run_cmd(&got, args), 0);
	free(got);
	snprintf(args, sizeof args, "sweep -d " DATA "counts -o %s", sub);
	CU_ASSERT_EQUAL(run_cmd(&got, args), 0);
	free(got);
	char *files = list_and_remove(sub);
	CU_ASSERT_STRING_EQUAL(files, "jct-by-type.dat\njct-by-type.png\njct-by-type.svg\n"
				      "policies.dat\npolicies.png\npolicies.svg\nsweep.dat\nsweep.png\n"
				      "sweep.svg\n");
	free(files);
	char one[] = "/tmp/hetsim-plot-XXXXXX", runs[64];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(one));
	snprintf(runs, sizeof runs, "%s/runs.csv", one);
	FILE *f = fopen(runs, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("scenario,policy,replication,done,unplaceable,makespan_s\nr,yarn,0,0,4,0.000000\n", f);
	fclose(f);
	snprintf(args, sizeof args, "policies -d %s -o %s", one, sub);
	CU_ASSERT_EQUAL(run_cmd(&got, args), 0);
	free(got);
	free(list_and_remove(sub));
	remove(runs);
	rmdir(one);
	rmdir(dir);
}

/* A figure gnuplot left short (it exits 0 when a write fails, as on a
 * full disk) is caught before it takes its name (issue 19). */
static void figure_whole(void)
{
	static const struct {
		const char *name, *text;
		size_t len;
		const char *why;
	} cases[] = {
#define T(x) x, sizeof x - 1
		{"a.svg.tmp", T("<svg>\n<g/>\n</svg>\n"), NULL},
		{"b.svg.tmp", T("<svg>\n<g/>\n<pa"), "the SVG gnuplot wrote has no closing </svg> (a full "
						  "disk?)"},
		{"c.svg.tmp", T(""), "gnuplot wrote an empty file (a full disk?)"},
		{"d.png.tmp", T("\x89PNG....IEND\xae\x42\x60\x82"), NULL},
		{"e.png.tmp", T("\x89PNG....IDAT"), "the PNG gnuplot wrote has no IEND chunk (a full "
						"disk?)"},
#undef T
	};
	char dir[] = "/tmp/hetsim-fig-XXXXXX", path[300];
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	for (int i = 0; i < 5; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, cases[i].name);
		FILE *f = fopen(path, "wb");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fwrite(cases[i].text, 1, cases[i].len, f);
		fclose(f);
		const char *why = plot_figure_incomplete(path);
		if (cases[i].why) {
			CU_ASSERT_STRING_EQUAL(why ? why : "(none)", cases[i].why);
		} else {
			CU_ASSERT_PTR_NULL(why);
		}
		remove(path);
	}
	snprintf(path, sizeof path, "%s/none.svg.tmp", dir);
	CU_ASSERT_STRING_EQUAL(plot_figure_incomplete(path), "gnuplot wrote no file");
	rmdir(dir);
}

/* `plot` when gnuplot leaves a figure short (a fake gnuplot on PATH that
 * writes half an SVG and exits 0, as gnuplot does on a full disk): exit
 * 1 naming the figure, and the figures folder, which holds an earlier
 * plot's, keeps every file, byte for byte (plot commits its figures as
 * one set at the end: rows_commit). */
static void figure_short_command(void)
{
	char dir[] = "/tmp/hetsim-figcmd-XXXXXX", args[600], p[700], *out, *err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(args, sizeof args, "run tests/scenarios/ok/minimal.yaml -q -o %s/r", dir);
	CU_ASSERT_EQUAL_FATAL(h_hetsim(args, &out, &err), 0);
	free(out), free(err);
	snprintf(args, sizeof args, "plot all -d %s/r --format svg", dir);
	CU_ASSERT_EQUAL_FATAL(h_hetsim(args, &out, &err), 0); /* the real gnuplot */
	free(out), free(err);
	snprintf(p, sizeof p, "%s/bin", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(p, 0777), 0);
	snprintf(p, sizeof p, "%s/bin/gnuplot", dir);
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("#!/bin/sh\nout=$(printf '%s' \"$2\" | sed -n \"s/.*outfile='\\([^']*\\)'.*/\\1/p\")\n"
	      "printf '<svg>\\n<pa' > \"$out\"\nexit 0\n", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(chmod(p, 0755), 0);
	char *path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	char np[4200];
	snprintf(np, sizeof np, "%s/bin:%s", dir, path);
	setenv("PATH", np, 1);
	snprintf(p, sizeof p, "%s/r/figures", dir);
	char *before = h_tree(p);
	snprintf(args, sizeof args, "plot all -d %s/r --format svg", dir);
	int rc = h_hetsim(args, &out, &err);
	/* and a command whose figure comes after its CSV files: exit 1, said */
	char *rout, *rerr, rwant[800];
	snprintf(args, sizeof args, "replay-log tests/data/traces/spark/hand-2stages.json -q -o "
		 "%s/rp", dir);
	int rrc = h_hetsim(args, &rout, &rerr);
	setenv("PATH", path, 1);
	free(path);
	CU_ASSERT_EQUAL(rrc, 1);
	snprintf(rwant, sizeof rwant, "hetsim replay-log: figure %s/rp/stages.png not written: the "
		 "PNG gnuplot wrote has no IEND chunk (a full disk?)\n", dir);
	CU_ASSERT_STRING_EQUAL(rerr, rwant);
	free(rout), free(rerr);
	char *after = h_tree(p), want[800];
	CU_ASSERT_EQUAL(rc, 1);
	snprintf(want, sizeof want, "hetsim plot: %s/r/figures/", dir);
	CU_ASSERT(strncmp(err, want, strlen(want)) == 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, " not written: the SVG gnuplot wrote has no closing "
					   "</svg> (a full disk?)\n"));
	CU_ASSERT_STRING_EQUAL(after, before);
	CU_ASSERT_PTR_NOT_NULL(strstr(before, ".svg "));
	free(out), free(err), free(before), free(after);
	h_rmtree(dir);
}

int test_suite_plot(void)
{
	TEST_SUITE("plot",
		   {"CSV columns by name", test_csv_by_name},
		   {"CSV errors name the file and line", test_csv_errors},
		   {"policies: bars, CI, changes against the baseline", test_policies},
		   {"jct-by-type: clustered bars", test_jct_by_type},
		   {"sweep: lines, CI bands, other axes held", test_sweep},
		   {"sweep: a non-numeric axis", test_sweep_categories},
		   {"policies: no bar for no job done, marks of jobs not done", test_policies_not_done},
		   {"jct-by-type: empty slots, marks in the key", test_jct_by_type_not_done},
		   {"sweep: a break and a label for no job done, marks", test_sweep_not_done},
		   {"baseline: first policy, summary's column, --baseline", test_baseline_default},
		   {"runs.csv: done 0 means no makespan or JCT", test_runs_done_zero},
		   {"runs.csv: paired changes against the baseline", test_runs_changes},
		   {"a paired change over k of N replications says so", test_paired_some_replications},
		   {"older summary: a makespan of 0 is no job done", test_old_summary_zero},
		   {"nodes and their grouping label", test_nodes},
		   {"gantt: lanes, boxes, node rows", test_gantt},
		   {"gantt: node order without a scenario", test_gantt_node_order},
		   {"gantt and utilisation: one time axis across policies", test_gantt_shared_axis},
		   {"utilisation: step function per label", test_utilisation},
		   {"utilisation and gantt: GPUs held from gpu_from_s to gpu_to_s", test_utilisation_gpu_times},
		   {"utilisation: GPU models apart", test_utilisation_gpu_models},
		   {"runs.csv summarised: mean, Student-t CI", test_summarise_runs},
		   {"command: bad input and missing gnuplot", test_cmd_errors},
		   {"command: renders PNG and SVG", test_cmd_render},
		   {"command: all on a run folder is quiet, gantt axes shared", test_cmd_run_folder},
		   {"a figure gnuplot left short is not given its name", figure_whole},
		   {"plot with a figure left short: exit 1, the old figures as they were",
		    figure_short_command});
	return 0;
}
