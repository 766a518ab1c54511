/* test_types.c - types.csv, the figures of each job model's jobs: exact
 * values of a small scenario worked out by hand, the same figures as the
 * matching jobs.csv rows give, the same fields as runs.csv's when the
 * run has one model, and no row for a model the scenario has no job of.
 * (Byte-identical for the same seed: test_determinism.c; from a sweep:
 * test_sweep.c; the figure: test_plot.c.) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "metrics.h"
#include "models.h"
#include "sim.h"
#include "test.h"

#define ACC "tests/scenarios/accounting/"
#define HEADER                                                                       \
	"scenario,policy,replication,model,jobs,counted,done,failed,timed_out,"     \
	"unplaceable,jct_mean_s,jct_p50_s,jct_p95_s,jct_p99_s,wait_mean_s\n"

static char tmpdir[64];

/* `hetsim run ARGS -q -o TMP/sub`, then TMP/sub/name (malloc'ed). */
static char *run_file(const char *args, const char *sub, const char *name)
{
	char cmd[512], p[192], *out, *err;
	snprintf(cmd, sizeof cmd, "run %s -q -o %s/%s", args, tmpdir, sub);
	CU_ASSERT_EQUAL(h_hetsim(cmd, &out, &err), 0);
	free(out);
	free(err);
	snprintf(p, sizeof p, "%s/%s/%s", tmpdir, sub, name);
	return h_slurp(p, NULL);
}

/* The fields of each line of a CSV text, header first. */
struct csv {
	char *text;
	char *f[4096][20];
	int nf[4096];
	int n;            /* lines */
};

static void csv_split(struct csv *c, char *text)
{
	c->text = text;
	c->n = 0;
	for (char *l = text; l && *l && c->n < 4096; c->n++) {
		char *end = strchr(l, '\n');
		*end = '\0';
		c->nf[c->n] = 0;
		for (char *f = l; f && c->nf[c->n] < 20;) {
			c->f[c->n][c->nf[c->n]++] = f;
			f = strchr(f, ',');
			if (f)
				*f++ = '\0';
		}
		l = end + 1;
	}
}

/* The rows of the scenario in tests/scenarios/accounting/types.yaml,
 * whose comment works them out. */
static void by_hand(void)
{
	char *t = run_file(ACC "types.yaml", "hand", "types.csv");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_STRING_EQUAL(t, HEADER
		"types,label-dual,0,synthetic,2,2,2,0,0,0,5.000000,5.000000,6.800000,6.960000,1.000000\n"
		"types,label-dual,0,angel,2,1,1,0,0,0,4.000000,4.000000,4.000000,4.000000,1.000000\n"
		"types,spark-standalone,0,synthetic,2,2,2,0,0,0,5.000000,5.000000,6.800000,6.960000,"
		"1.000000\n"
		"types,spark-standalone,0,angel,2,1,0,0,0,1,,,,,\n");
	free(t);
	/* runs.csv: the counted jobs of both models together */
	char p[192];
	snprintf(p, sizeof p, "%s/hand/runs.csv", tmpdir);
	char *r = h_slurp(p, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NOT_NULL(strstr(r, "\ntypes,label-dual,0,1,4,3,3,0,0,0,34.000000,4.666667,"
					 "4.000000,6.700000,6.940000,1.000000,"));
	free(r);

	/* met_compute: the models of the registry without a job: jobs 0,
	 * the rest 0 and NaN */
	struct scn *c;
	struct sim *s = h_run(ACC "types.yaml", "label-dual", 0, &c);
	struct met_run m;
	met_compute(s, &m);
	for (int k = 0; k < SCN_MAX_MODELS; k++) {
		const struct met_type *y = &m.type[k];
		if (k == JM_SYNTHETIC || k == JM_ANGEL)
			continue;
		CU_ASSERT(y->jobs == 0 && y->counted == 0 && y->done == 0);
		CU_ASSERT(isnan(y->jct_mean_s) && isnan(y->jct_p50_s) && isnan(y->jct_p95_s) &&
			  isnan(y->jct_p99_s) && isnan(y->wait_mean_s));
	}
	CU_ASSERT_EQUAL(m.type[JM_ANGEL].jobs, 2);
	CU_ASSERT_EQUAL(m.type[JM_ANGEL].counted, 1);
	CU_ASSERT_DOUBLE_EQUAL(m.type[JM_SYNTHETIC].jct_p95_s, 6.8, 1e-12);
	h_done(s, c);

	/* a job rejected late, of another model: a row with its counts and
	 * nothing measured (the scenario's comment) */
	t = run_file(ACC "reject-late.yaml --policy yarn", "late", "types.csv");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_STRING_EQUAL(t, HEADER
		"reject-late,yarn,0,synthetic,1,1,1,0,0,0,4.000000,4.000000,4.000000,4.000000,"
		"0.000000\n"
		"reject-late,yarn,0,angel,1,1,0,1,0,0,,,,,\n"); /* failed at submission */
	free(t);
}

/* Quantile p of n sorted values, R's type 7 (docs/output.md). */
static double quantile(const double *x, int n, double p)
{
	double h = (n - 1) * p;
	int lo = (int)floor(h);
	return lo + 1 < n ? x[lo] + (h - lo) * (x[lo + 1] - x[lo]) : x[lo];
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A field as written: empty for NaN, else within 1e-6 of want. */
static void same_num(const char *field, double want, int n)
{
	if (n == 0) {
		CU_ASSERT_STRING_EQUAL(field, "");
		return;
	}
	CU_ASSERT_DOUBLE_EQUAL(atof(field), want, 1e-6);
}

/* Three models, four policies, three replications: each types.csv row
 * holds what the matching jobs.csv rows give; every (policy,
 * replication, model) of the run has a row, in registry order, and the
 * model the scenario lacks (synthetic) has none. */
static void match_jobs(void)
{
	static struct csv jobs, types;
	csv_split(&jobs, run_file("tests/scenarios/hand/three-types.yaml --replications 3", "three",
				  "jobs.csv"));
	char p[192];
	snprintf(p, sizeof p, "%s/three/types.csv", tmpdir);
	csv_split(&types, h_slurp(p, NULL));
	CU_ASSERT_PTR_NOT_NULL_FATAL(jobs.text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(types.text);
	CU_ASSERT_EQUAL_FATAL(types.n, 1 + 4 * 3 * 3);
	static const char *const order[] = {"wordcount", "mnist_spark", "angel"};
	double jct[64], wait;
	for (int i = 1; i < types.n; i++) {
		char **t = types.f[i];
		CU_ASSERT_STRING_EQUAL(t[3], order[(i - 1) % 3]);
		int n = 0, cnt[4] = {0}, nwait = 0, njobs = 0;
		wait = 0;
		static const char *const status[4] = {"done", "failed", "timed-out", "unplaceable"};
		for (int j = 1; j < jobs.n; j++) {
			char **f = jobs.f[j]; /* policy,replication,job,group,index,type,status,
						 arrival_s,start_s,end_s,jct_s,... */
			if (strcmp(f[0], t[1]) || strcmp(f[1], t[2]) || strcmp(f[5], t[3]))
				continue;
			njobs++;
			for (int k = 0; k < 4; k++)
				cnt[k] += !strcmp(f[6], status[k]);
			if (!strcmp(f[6], "done") && n < 64)
				jct[n++] = atof(f[10]);
			if (*f[8]) {
				wait += atof(f[8]) - atof(f[7]);
				nwait++;
			}
		}
		qsort(jct, (size_t)n, sizeof *jct, cmp_d);
		double mean = 0;
		for (int k = 0; k < n; k++)
			mean += jct[k] / n;
		CU_ASSERT(njobs > 0);
		CU_ASSERT_EQUAL(atoi(t[4]), njobs);
		CU_ASSERT_EQUAL(atoi(t[5]), njobs); /* no warm-up */
		for (int k = 0; k < 4; k++)
			CU_ASSERT_EQUAL(atoi(t[6 + k]), cnt[k]);
		same_num(t[10], mean, n);
		same_num(t[11], n ? quantile(jct, n, 0.50) : 0, n);
		same_num(t[12], n ? quantile(jct, n, 0.95) : 0, n);
		same_num(t[13], n ? quantile(jct, n, 0.99) : 0, n);
		same_num(t[14], nwait ? wait / nwait : 0, nwait);
	}
	/* spark-standalone has no Angel: its angel rows are there, empty */
	int standalone_angel = 0;
	for (int i = 1; i < types.n; i++)
		standalone_angel += !strcmp(types.f[i][1], "spark-standalone") &&
				    !strcmp(types.f[i][3], "angel") && !*types.f[i][10] &&
				    atoi(types.f[i][9]) == 2;
	CU_ASSERT_EQUAL(standalone_angel, 3);
	free(jobs.text);
	free(types.text);
}

/* A run of one model: its row says what runs.csv says, field for field
 * (the counts, the JCT figures and the wait). */
static void one_model(void)
{
	static struct csv runs, types;
	csv_split(&runs, run_file("tests/scenarios/sweep/two-axes.yaml", "one", "runs.csv"));
	char p[192];
	snprintf(p, sizeof p, "%s/one/types.csv", tmpdir);
	csv_split(&types, h_slurp(p, NULL));
	CU_ASSERT_PTR_NOT_NULL_FATAL(runs.text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(types.text);
	CU_ASSERT_EQUAL_FATAL(types.n, runs.n);
	CU_ASSERT_EQUAL(types.n, 1 + 2 * 3);
	for (int i = 1; i < types.n; i++) {
		char **t = types.f[i], **r = runs.f[i];
		for (int k = 0; k < 3; k++) /* scenario, policy, replication */
			CU_ASSERT_STRING_EQUAL(t[k], r[k]);
		CU_ASSERT_STRING_EQUAL(t[3], "wordcount");
		for (int k = 0; k < 6; k++) /* jobs .. unplaceable */
			CU_ASSERT_STRING_EQUAL(t[4 + k], r[4 + k]);
		for (int k = 0; k < 5; k++) /* jct_mean_s .. wait_mean_s; runs.csv's makespan between */
			CU_ASSERT_STRING_EQUAL(t[10 + k], r[11 + k]);
	}
	free(runs.text);
	free(types.text);
}

static int setup(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/hetsim-types-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void)
{
	return h_rmtree(tmpdir);
}

int test_suite_types(void)
{
	CU_pSuite s = CU_add_suite("types", setup, teardown);
	if (!s || !CU_add_test(s, "types.csv by hand: two models, a warm-up, a rejection", by_hand) ||
	    !CU_add_test(s, "types.csv holds what the jobs.csv rows of each model give",
			 match_jobs) ||
	    !CU_add_test(s, "one model: the fields of runs.csv", one_model))
		return -1;
	return 0;
}
