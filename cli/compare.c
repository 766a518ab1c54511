/* compare.c - `hetsim compare`: a leaderboard of policies over workloads
 * (docs/compare.md).
 *
 * Each workload (a scenario file, or an SWF log whose header gives its
 * machine) runs under each chosen policy (default: every registered
 * policy whose needs the workload meets; those skipped are listed with
 * the reason) for its replications.  Per run: the makespan, the JCT's
 * mean, p50, p95 and p99, the mean slowdown ((end - arrival) / (end -
 * start)) and bounded slowdown (max(1, (end - arrival) / max(end - start,
 * 10 s))), the CPU busy and allocated and the GPU allocated fractions,
 * Jain's fairness index over the users' (a trace's) or the applications'
 * mean slowdowns, and the jobs not done; over the replications each
 * figure's mean and 95 % confidence interval (Student's t).  Ranked by
 * mean JCT, lower first; a policy whose interval overlaps its rank's
 * first policy's shares its rank.
 *
 * Writes DIR/leaderboard.csv, DIR/leaderboard.md, DIR/jcts.csv (every
 * done job's JCT, for the CDFs), DIR/sizes.csv and, with gnuplot,
 * DIR/jct-cdf-N, DIR/slowdown-size-N (per workload) and DIR/makespan,
 * each as .png and .svg.
 */
#define _DEFAULT_SOURCE /* realpath, mkstemp */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "load.h"
#include "metrics.h"
#include "models.h"
#include "plot.h"
#include "registry.h"
#include "rows.h"
#include "scenario.h"
#include "scn_trace.h"
#include "sim.h"
#include "trace.h"
#include "util.h"

#define TAU_S 10.0            /* bounded slowdown's threshold */
#define NBINS 16              /* job sizes: cores in [2^b, 2^(b+1)), the last open */
#define MAX_POL 32
#define MAX_WL 32

static const struct cmd_opt cmp_opts[] = {
	{"policy", 'p', "NAME", "compare this policy (a scenario's entry or a registered one; "
				"repeatable; default: every one whose needs the workload meets)"},
	{"replications", 'r', "N", "replications of each workload (default: each scenario's)"},
	{"output", 'o', "DIR", "write the leaderboard and figures there (default "
			       "results/compare-NAME, NAME the workloads' file names)"},
	CMD_MAXSTALL_OPT,
	{"quiet", 'q', NULL, "no table"},
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

enum { F_MAKESPAN, F_JCT, F_P50, F_P95, F_P99, F_SLOW, F_BSLOW, F_CPU, F_CPUA, F_MEMA, F_GPUA,
       F_JAIN, F_NOTDONE, NF };
static const char *const fnames[NF] = {
	"makespan_s", "jct_mean_s", "jct_p50_s", "jct_p95_s", "jct_p99_s", "slowdown",
	"bounded_slowdown", "cpu_busy", "cpu_alloc", "mem_alloc", "gpu_alloc", "jain", "not_done"};
static const char *const fheads[NF] = {
	"makespan (s)", "JCT mean (s)", "p50", "p95", "p99", "slowdown", "bounded (10 s)",
	"CPU busy", "CPU held", "memory held", "GPU held", "Jain", "not done"};

struct row {
	char policy[64];
	double *v[NF];        /* per replication */
	uint64_t *set;        /* per replication: the jobs done (met_run.done_set) */
	struct plot_ci95 ci[NF];
	struct cmd_not_done nd; /* job counts over the replications */
	int rank;
	int ord;              /* its place in the leaderboard: by rank, then mean
				 JCT, then the order it was listed */
	double bin_sum[NBINS]; /* slowdowns of done jobs by size, every replication */
	int bin_n[NBINS];
};

/* A job's size bin: the cores it asks for (all its executors), in
 * [2^b, 2^(b+1)). */
static int size_bin(const struct sim_job *j)
{
	double cores = 0;
	for (int r = 0; r < j->shape->nroles; r++)
		cores += (double)j->shape->role[r].count *
			 (j->shape->role[r].cores ? j->shape->role[r].cores : CLU_MILLI) / CLU_MILLI;
	int b = 0;
	while (b < NBINS - 1 && cores >= (double)(2 << b))
		b++;
	return b;
}

/* The figures of one run, and its done jobs' JCTs appended to f. */
static void run_figures(const struct sim *s, double *v, FILE *jf, const char *wl,
			const char *pol, struct row *row, int rep)
{
	struct met_run m;
	met_compute(s, &m);
	cmd_not_done_add(&row->nd, &m);
	row->set[rep] = m.done_set;
	const struct scn *sc = sim_scenario(s);
	v[F_MAKESPAN] = m.makespan_s;
	v[F_JCT] = m.jct_mean_s, v[F_P50] = m.jct_p50_s, v[F_P95] = m.jct_p95_s;
	v[F_P99] = m.jct_p99_s;
	v[F_CPU] = m.cpu_util, v[F_CPUA] = m.cpu_alloc, v[F_GPUA] = m.gpu_alloc;
	v[F_MEMA] = m.mem_alloc;
	v[F_NOTDONE] = m.counted - m.done;
	/* slowdowns, and the entities' (users', else jobs') mean slowdowns */
	int nj = sim_njobs(s), n = 0;
	double sum = 0, bsum = 0;
	int nent = nj;
	for (int g = 0; g < sc->njobgroups; g++)
		if (sc->jobs[g].trace)
			nent += sc->jobs[g].trace->nusers;
	double *es = xcalloc((size_t)(nent ? nent : 1), sizeof *es);
	int *en = xcalloc((size_t)(nent ? nent : 1), sizeof *en);
	int *base = xcalloc((size_t)(sc->njobgroups ? sc->njobgroups : 1), sizeof *base);
	for (int g = 0, b = nj; g < sc->njobgroups; g++) {
		base[g] = b;
		b += sc->jobs[g].trace ? sc->jobs[g].trace->nusers : 0;
	}
	for (int i = sc->warmup_jobs; i < nj; i++) {
		const struct sim_job *j = sim_job(s, i);
		if (j->status != JOB_DONE)
			continue;
		double resp = (double)(j->end_us - j->arrival_us) / 1e6;
		double run = j->start_us >= 0 ? (double)(j->end_us - j->start_us) / 1e6 : resp;
		double sl = run > 0 ? resp / run : 1;
		double bs = fmax(1, resp / fmax(run, TAU_S));
		sum += sl, bsum += bs, n++;
		int bin = size_bin(j);
		row->bin_sum[bin] += sl;
		row->bin_n[bin]++;
		const struct scn_trace *t = sc->jobs[j->group].trace;
		int u = t && t->nusers ? t->jobs[j->index].user : -1;
		int e = u >= 0 ? base[j->group] + u : i;
		es[e] += sl, en[e]++;
		if (jf)
			fprintf(jf, "%s,%s,%.6f\n", wl, pol, resp);
	}
	v[F_SLOW] = n ? sum / n : NAN;
	v[F_BSLOW] = n ? bsum / n : NAN;
	double s1 = 0, s2 = 0;
	int k = 0;
	for (int e = 0; e < nent; e++)
		if (en[e]) {
			double x = es[e] / en[e];
			s1 += x, s2 += x * x, k++;
		}
	v[F_JAIN] = k && s2 > 0 ? s1 * s1 / (k * s2) : NAN;
	free(es), free(en), free(base);
}

/* Whether the workload meets a policy's needs; else the reason. */
static const char *unmet(const struct scn *sc, const struct policy_ops *ops)
{
	bool est = false, share = false, app = false, gpu_jobs = false, gpu_nodes = false;
	for (int g = 0; g < sc->njobgroups; g++) {
		est |= sc->jobs[g].ops->estimate != NULL;
		app |= sc->jobs[g].type == JM_SPARK_APP;
		for (int k = 0; k < sim_group_nshapes(sc, g) && !(share && gpu_jobs); k++) {
			struct sim_shape sh;
			sim_group_shape_at(sc, g, k, &sh);
			for (int r = 0; r < sh.nroles; r++) {
				share |= sh.role[r].gpu_milli > 0 && !sh.role[r].gpus;
				gpu_jobs |= sh.role[r].gpus > 0 || sh.role[r].gpu_milli > 0;
			}
		}
	}
	for (int i = 0; i < sc->ngroups; i++)
		gpu_nodes |= sc->groups[i].gpus > 0;
	if ((ops->needs & POL_NEED_ESTIMATES) && !est)
		return "needs run-time estimates: no job of the workload has one";
	if ((ops->needs & POL_NEED_FRACTIONAL_GPUS) && !share)
		return "places GPU shares: no job of the workload asks for one";
	/* a throughput matrix: every job has a row (sim_job_throughput), which
	 * matters only where jobs ask for GPUs the cluster has */
	if ((ops->needs & POL_NEED_THROUGHPUT) && !(gpu_jobs && gpu_nodes))
		return "shares GPUs by a throughput matrix: no job of the workload asks for a GPU "
		       "of the cluster";
	if ((ops->needs & POL_NEED_EVENT_LOG) && !app)
		return "replays a Spark event log's executors (replay-log)";
	return NULL;
}

/* A workload's scenario: the file itself, or for an SWF log (its header
 * naming the machine) a scenario replaying it, written to tmp. */
static struct scn *workload(const char *path, char *tmp, size_t tmplen, char *err,
			    size_t errlen)
{
	char e2[1024];
	const char *fmt = trace_detect(path, e2, sizeof e2);
	if (!fmt || strcmp(fmt, "swf") != 0)
		return scn_load(path, err, errlen);
	char *abs = realpath(path, NULL);
	if (!abs) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	snprintf(tmp, tmplen, "/tmp/hetsim-compare-XXXXXX");
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write a temporary scenario: %s", strerror(errno));
		free(abs);
		return NULL;
	}
	FILE *f = fdopen(fd, "w");
	const char *b = strrchr(path, '/');
	char name[256];
	snprintf(name, sizeof name, "%s", b ? b + 1 : path);
	for (char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
			*c = '-';
	fprintf(f, "# hetsim compare: the SWF log %s replayed on its own machine\n"
		   "name: %s\noverheads: {executor_startup: 0s, task_launch: 0s}\n"
		   "cluster:\n  - name: m\n    trace: {format: swf, path: \"%s\"}\n"
		   "workload:\n  - name: log\n    trace: {format: swf, path: \"%s\"}\n"
		   "policies: [fifo]\n", abs, name, abs, abs);
	fclose(f);
	free(abs);
	struct scn *s = scn_load(tmp, err, errlen);
	return s;
}

/* Whether row r left counted jobs not done: its mean JCT is of fewer
 * jobs, so it ranks after every row that finished them all. */
static bool short_of(const struct row *r)
{
	return r->nd.done < r->nd.counted;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct row *x = *(struct row *const *)a, *y = *(struct row *const *)b;
	double mx = x->ci[F_JCT].mean, my = y->ci[F_JCT].mean;
	if (short_of(x) != short_of(y))
		return short_of(x) - short_of(y);
	if (isnan(mx) || isnan(my))
		return isnan(mx) != isnan(my) ? isnan(mx) - isnan(my) : (x > y) - (x < y);
	if (mx != my)
		return (mx > my) - (mx < my);
	return (x > y) - (x < y); /* a tie: the order they were listed (rows is an array) */
}

/* Ranks by mean JCT: sorted, each starting a rank unless its interval
 * overlaps the rank's first's (a NaN half-width: a point). */
static void ranks(struct row *rows, int n)
{
	struct row **o = xmalloc((size_t)(n ? n : 1) * sizeof *o);
	for (int i = 0; i < n; i++)
		o[i] = &rows[i];
	qsort(o, (size_t)n, sizeof *o, cmp_rank);
	int lead = 0;
	for (int i = 0; i < n; i++) {
		o[i]->ord = i;
		const struct plot_ci95 *a = &o[lead]->ci[F_JCT], *b = &o[i]->ci[F_JCT];
		double ha = isnan(a->half) ? 0 : a->half, hb = isnan(b->half) ? 0 : b->half;
		bool overlap = !isnan(a->mean) && !isnan(b->mean) &&
			       b->mean - hb <= a->mean + ha && short_of(o[lead]) == short_of(o[i]);
		if (i == 0 || !overlap) {
			lead = i;
			o[i]->rank = i + 1;
		} else {
			o[i]->rank = o[lead]->rank;
		}
	}
	free(o);
}

static bool eqn(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* The lines under a workload's tables (malloc'ed, "" if none): run's
 * warning for each policy that left jobs not done, with the reasons, in
 * leaderboard order; a note when the replications of every policy are
 * alike (nothing drawn at random: a trace's jobs as they are), their
 * intervals 0 by construction; a note when every policy gave the same
 * figures. */
static char *workload_notes(const struct scn *sc, const struct row *rows, int np, int nr)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		fprintf(stderr, "hetsim: out of memory (open_memstream)\n");
		abort();
	}
	for (int o = 0; o < np; o++)
		for (int p = 0; p < np; p++) {
			const struct row *r = &rows[p];
			if (r->ord == o && r->nd.failed + r->nd.timed_out + r->nd.unplaceable)
				cmd_warn_not_done(f, sc, r->policy, &r->nd, nr);
		}
	bool alike = nr > 1, same = np > 1;
	for (int p = 0; p < np; p++)
		for (int k = 0; k < nr; k++) {
			const struct row *r = &rows[p], *z = &rows[0];
			alike &= eqn(r->v[F_MAKESPAN][k], r->v[F_MAKESPAN][0]) &&
				 eqn(r->v[F_JCT][k], r->v[F_JCT][0]) && r->set[k] == r->set[0];
			same &= eqn(r->v[F_MAKESPAN][k], z->v[F_MAKESPAN][k]) &&
				eqn(r->v[F_JCT][k], z->v[F_JCT][k]) && r->set[k] == z->set[k];
		}
	if (alike)
		fprintf(f, "note: the %d replications of each policy are alike (nothing in the "
			"workload is drawn at random: a trace's jobs as they are): each figure is "
			"one run's, its interval 0 by construction, no measure of certainty\n", nr);
	if (same)
		fprintf(f, "note: every policy gave the same makespan and mean JCT in every "
			"replication: this workload does not tell them apart\n");
	fclose(f);
	return text;
}

/* A figure with its interval for the terminal: "-" (nothing to
 * measure), "12.345" (one replication), "12.345 ± 0.123". */
static const char *ci_text(const struct plot_ci95 *c, int prec, char *buf, size_t len)
{
	if (isnan(c->mean))
		return "-";
	if (isnan(c->half))
		snprintf(buf, len, "%.*f", prec, c->mean);
	else
		snprintf(buf, len, "%.*f ± %.*f", prec, c->mean, prec, c->half);
	return buf;
}

static void md_num(FILE *f, const struct plot_ci95 *c, int prec)
{
	if (isnan(c->mean))
		fprintf(f, " - |");
	else if (isnan(c->half))
		fprintf(f, " %.*f |", prec, c->mean);
	else
		fprintf(f, " %.*f ± %.*f |", prec, c->mean, prec, c->half);
}

int cmd_compare(int argc, char **argv)
{
	struct cmd_args a;
	if (cmd_parse("compare", cmp_opts, argc, argv, &a) ||
	    cmd_max_stall("compare", cmp_opts, &a))
		return 2;
	if (cmd_get(cmp_opts, &a, "help")) {
		cmd_help("compare", "SCENARIO|SWF... [options]",
			 "A leaderboard of policies over workloads: each figure's mean and 95 %\n"
			 "confidence interval over the replications, ranked by mean JCT\n"
			 "(docs/compare.md).", cmp_opts);
		return 0;
	}
	if (a.npos < 1 || a.npos > MAX_WL) {
		fprintf(stderr, "hetsim compare: expected 1 to %d workloads, got %d\n", MAX_WL,
			a.npos);
		return 2;
	}
	const char *pick[MAX_POL];
	int npick = 0;
	for (int i = 0; i < a.n; i++)
		if (strcmp(cmp_opts[a.opt[i]].name, "policy") == 0) {
			if (npick == MAX_POL) {
				fprintf(stderr, "hetsim compare: too many '--policy' options\n");
				return 2;
			}
			for (int k = 0; k < npick; k++)
				if (!strcmp(pick[k], a.val[i])) {
					fprintf(stderr, "hetsim compare: option '--policy': '%s' given "
						"twice\n", a.val[i]);
					return 2;
				}
			pick[npick++] = a.val[i];
		}
	int reps = 0;
	const char *v;
	if ((v = cmd_get(cmp_opts, &a, "replications"))) {
		int64_t x = cmd_int("compare", "replications", v, 10000);
		if (x < 1) {
			if (x == 0)
				fprintf(stderr, "hetsim compare: option '--replications' must be at "
					"least 1\n");
			return 2;
		}
		reps = (int)x;
	}
	const char *out = cmd_get(cmp_opts, &a, "output");
	char dflt[256];
	if (!out) { /* results/compare-NAME: never the committed results/compare */
		snprintf(dflt, sizeof dflt, "results/compare");
		for (int w = 0; w < a.npos; w++) {
			const char *b = strrchr(a.pos[w], '/');
			char base[128];
			snprintf(base, sizeof base, "%s", b ? b + 1 : a.pos[w]);
			static const char *const exts[] = {".zst", ".gz", ".yaml", ".yml", ".swf",
							   ".csv", ".json"};
			for (size_t e = 0; e < sizeof exts / sizeof exts[0]; e++) {
				size_t n = strlen(base), k = strlen(exts[e]);
				if (n > k && !strcmp(base + n - k, exts[e]))
					base[n - k] = '\0';
			}
			size_t n = strlen(dflt);
			if (n + strlen(base) + 2 < 120)
				snprintf(dflt + n, sizeof dflt - n, "%s%s", w ? "+" : "-", base);
		}
		out = dflt;
	}
	if (!*out) {
		fprintf(stderr, "hetsim compare: option '--output': empty\n");
		return 2;
	}
	bool quiet = cmd_get(cmp_opts, &a, "quiet") != NULL;
	struct stat dst;
	bool made = stat(out, &dst) != 0; /* a compare that fails takes it away again */
	if (rows_mkdirs(out)) {
		fprintf(stderr, "hetsim compare: cannot create %s: %s\n", out, strerror(errno));
		return 1;
	}
	char path[4200], tmpp[4300];
	snprintf(path, sizeof path, "%s/jcts.csv", out);
	snprintf(tmpp, sizeof tmpp, "%s.tmp", path);
	FILE *jf = fopen(tmpp, "w");
	if (!jf) {
		fprintf(stderr, "hetsim compare: cannot write %s: %s\n", tmpp, strerror(errno));
		return 1;
	}
	fprintf(jf, "workload,policy,jct_s\n");
	struct row *rows[MAX_WL] = {0};
	int nrows[MAX_WL] = {0};
	char *notes[MAX_WL] = {0}; /* per workload: its warnings and notes */
	char wname[MAX_WL][256];
	int rc = 0, all;
	const struct policy_ops *const *reg = pol_all(&all);
	for (int w = 0; w < a.npos && !rc; w++) {
		char err[1024], tmp[64] = "";
		struct scn *sc = workload(a.pos[w], tmp, sizeof tmp, err, sizeof err);
		if (tmp[0])
			remove(tmp);
		if (!sc) {
			fprintf(stderr, "%s\n", err);
			rc = 1;
			break;
		}
		snprintf(wname[w], sizeof wname[w], "%s", sc->name);
		struct scn_policy pols[MAX_POL];
		int np = 0;
		if (npick) {
			for (int k = 0; k < npick; k++)
				if (cmd_policy_named(sc, pick[k], &pols[np++]) < 0) {
					fprintf(stderr, "hetsim compare: option '--policy': no policy "
						"'%s' (%s)\n", pick[k], pol_names());
					rc = 2;
					break;
				}
		} else {
			for (int k = 0; k < all && np < MAX_POL; k++) {
				const char *why = unmet(sc, reg[k]);
				if (why) {
					if (!quiet)
						printf("%s: %s skipped: %s\n", sc->name, reg[k]->name, why);
					continue;
				}
				cmd_policy_named(sc, reg[k]->name, &pols[np]);
				pols[np].name = (char *)reg[k]->name; /* the registered one, default switches */
				pols[np].kind = (char *)reg[k]->name;
				pols[np].ops = reg[k];
				pols[np].nparams = 0;
				pols[np++].params = NULL;
			}
		}
		int nr = reps ? reps : sc->replications;
		rows[w] = xcalloc((size_t)(np ? np : 1), sizeof *rows[w]);
		nrows[w] = np;
		for (int p = 0; p < np && !rc; p++) {
			struct row *r = &rows[w][p];
			snprintf(r->policy, sizeof r->policy, "%s", pols[p].name);
			for (int f = 0; f < NF; f++)
				r->v[f] = xcalloc((size_t)nr, sizeof *r->v[f]);
			r->set = xcalloc((size_t)nr, sizeof *r->set);
			for (int k = 0; k < nr && !rc; k++) {
				double fig[NF];
				scn_offer_order(sc, (uint32_t)k);
				struct sim *s = sim_new(sc, &pols[p], (uint32_t)k, err, sizeof err);
				int src = s ? sim_run(s) : 0;
				if (!s || src) {
					char why[2048];
					fprintf(stderr, "hetsim compare: %s under %s, replication %d: %s\n",
						sc->name, pols[p].name, k,
						s ? sim_stop_why(s, src, why, sizeof why) : err);
					sim_free(s);
					rc = 1;
					break;
				}
				run_figures(s, fig, jf, sc->name, pols[p].name, r, k);
				sim_free(s);
				for (int f = 0; f < NF; f++)
					r->v[f][k] = fig[f];
			}
			for (int f = 0; f < NF && !rc; f++) {
				double *x = xmalloc((size_t)nr * sizeof *x);
				int m = 0;
				for (int k = 0; k < nr; k++)
					if (!isnan(r->v[f][k]))
						x[m++] = r->v[f][k];
				plot_ci95(x, m, &r->ci[f]);
				free(x);
			}
		}
		if (!rc) {
			ranks(rows[w], np);
			notes[w] = workload_notes(sc, rows[w], np, nr);
		}
		scn_free(sc);
	}
	bool jbad = ferror(jf) != 0;
	int je = jbad ? cmd_io_errno(jf, errno) : 0;
	if ((fclose(jf) || jbad) && !rc) {
		fprintf(stderr, "hetsim compare: cannot write %s: %s\n", tmpp,
			strerror(jbad ? je : errno));
		rc = 1;
	}
	if (rc)
		remove(tmpp);
	FILE *fc = NULL, *fm = NULL;
	char pc[4200], pm[4200], tc[4300], tm[4300];
	if (!rc) {
		snprintf(pc, sizeof pc, "%s/leaderboard.csv", out);
		snprintf(pm, sizeof pm, "%s/leaderboard.md", out);
		snprintf(tc, sizeof tc, "%s.tmp", pc);
		snprintf(tm, sizeof tm, "%s.tmp", pm);
		fc = fopen(tc, "w");
		fm = fc ? fopen(tm, "w") : NULL;
		if (!fc || !fm) {
			fprintf(stderr, "hetsim compare: cannot write in %s: %s\n", out, strerror(errno));
			if (fc)
				fclose(fc), remove(tc);
			remove(tmpp);
			rc = 1;
		}
	}
	if (!rc) {
		fprintf(fc, "workload,policy,rank,replications");
		for (int f = 0; f < NF; f++)
			fprintf(fc, ",%s,%s_ci95", fnames[f], fnames[f]);
		fprintf(fc, "\n");
		fprintf(fm, "# Leaderboard\n\nEach figure: the mean over the replications ± the "
			"half-width of its 95 %% confidence interval (Student's t); ranked by mean "
			"JCT, a policy whose interval overlaps its rank's first's sharing its rank. "
			"Slowdown: (end − arrival) / (end − start); bounded: max(1, (end − arrival) "
			"/ max(end − start, 10 s)); Jain over the users' (else the applications') "
			"mean slowdowns; CPU busy and held, memory held, GPU held: fractions of capacity × span; "
			"not done: counted jobs not done, summed over the replications, of those "
			"counted; a policy that left jobs not done ranks after every one that "
			"finished them all (its mean JCT is of fewer jobs); within a rank, rows in "
			"order of mean JCT (docs/compare.md).\n");
		for (int w = 0; w < a.npos; w++) {
			fprintf(fm, "\n## %s\n\n| rank | policy |", wname[w]);
			for (int f = 0; f < NF; f++)
				fprintf(fm, " %s |", fheads[f]);
			fprintf(fm, "\n|---|---|");
			for (int f = 0; f < NF; f++)
				fprintf(fm, "---|");
			fprintf(fm, "\n");
			for (int o = 0; o < nrows[w]; o++) /* in leaderboard order (ranks) */
				for (int p = 0; p < nrows[w]; p++) {
					const struct row *r = &rows[w][p];
					if (r->ord != o)
						continue;
					fprintf(fc, "%s,%s,%d,%d", wname[w], r->policy, r->rank,
						r->ci[F_JCT].n);
					fprintf(fm, "| %d | %s |", r->rank, r->policy);
					for (int f = 0; f < NF; f++) {
						fprintf(fc, ",%.6g,%.6g", r->ci[f].mean,
							r->ci[f].half);
						if (f == F_NOTDONE)
							fprintf(fm, " %" PRId64 " of %" PRId64 " |",
								r->nd.counted - r->nd.done, r->nd.counted);
						else
							md_num(fm, &r->ci[f],
							       f >= F_CPU && f <= F_JAIN ? 3 : 2);
					}
					fprintf(fc, "\n");
					fprintf(fm, "\n");
				}
			if (notes[w] && *notes[w]) { /* run's warnings and the notes */
				fprintf(fm, "\n");
				for (const char *l = notes[w], *e; *l; l = e + 1) {
					e = strchr(l, '\n');
					fprintf(fm, "- %.*s\n", (int)(e - l), l);
				}
			}
		}
		errno = 0;
		bool bad = ferror(fc) || ferror(fm);
		int e = bad ? cmd_io_errno(ferror(fc) ? fc : fm, errno) : EIO;
		if (fclose(fc) && !bad)
			bad = true, e = errno;
		if (fclose(fm) && !bad)
			bad = true, e = errno;
		if (bad) {
			fprintf(stderr, "hetsim compare: cannot write in %s: %s\n", out, strerror(e));
			remove(tc), remove(tm), remove(tmpp);
			rc = 1;
		}
	}
	if (!rc) { /* sizes.csv: mean slowdown by job size */
		char ps[4200], ts[4300];
		snprintf(ps, sizeof ps, "%s/sizes.csv", out);
		snprintf(ts, sizeof ts, "%s.tmp", ps);
		FILE *fz = fopen(ts, "w");
		bool bad = !fz;
		if (fz) {
			fprintf(fz, "workload,policy,cores_from,cores_to,jobs,slowdown\n");
			for (int w = 0; w < a.npos; w++)
				for (int p = 0; p < nrows[w]; p++)
					for (int b = 0; b < NBINS; b++)
						if (rows[w][p].bin_n[b])
							fprintf(fz, "%s,%s,%d,%d,%d,%.6g\n", wname[w],
								rows[w][p].policy, b ? 1 << b : 0,
								b == NBINS - 1 ? -1 : (2 << b) - 1,
								rows[w][p].bin_n[b],
								rows[w][p].bin_sum[b] / rows[w][p].bin_n[b]);
			errno = 0;
			bad = ferror(fz) != 0;
			int e = bad ? cmd_io_errno(fz, errno) : EIO;
			if (fclose(fz) && !bad)
				bad = true, e = errno;
			errno = e;
		}
		if (bad) {
			fprintf(stderr, "hetsim compare: cannot write %s: %s\n", ts, strerror(errno));
			remove(ts), remove(tc), remove(tm), remove(tmpp);
			rc = 1;
		}
		/* the four files as one set: all new, or the old ones as they were */
		char *tmps[] = {tmpp, tc, tm, ts}, *dsts[] = {path, pc, pm, ps};
		if (!rc && rows_commit("compare", tmps, dsts, 4))
			rc = 1;
		/* the figures of workloads a compare before had and this one has
		 * not are compare's own: they go, so that no stale figure sits
		 * beside the new ones (a report would show it) */
		for (int w = a.npos + 1; !rc && w <= MAX_WL; w++)
			for (int k = 0; k < 4; k++) {
				char old[4200];
				snprintf(old, sizeof old, "%s/%s-%d.%s", out,
					 k < 2 ? "jct-cdf" : "slowdown-size", w, k % 2 ? "svg" : "png");
				remove(old);
			}
	}
	if (rc && made)
		rmdir(out); /* the folder it made, empty again */
	if (!rc && !quiet) {
		for (int w = 0; w < a.npos; w++) {
			printf("%s (ranked by mean JCT; mean ± 95 %% CI over replications; not done: "
			       "summed over them):\n", wname[w]);
			printf("  %-4s %-16s %24s %24s %18s %14s\n", "rank", "policy", "makespan_s",
			       "jct_mean_s", "slowdown", "not_done");
			for (int o = 0; o < nrows[w]; o++)
				for (int p = 0; p < nrows[w]; p++) {
					const struct row *r = &rows[w][p];
					char b[3][96], nd[48];
					if (r->ord != o)
						continue;
					snprintf(nd, sizeof nd, "%" PRId64 " of %" PRId64,
						 r->nd.counted - r->nd.done, r->nd.counted);
					printf("  %-4d %-16s %24s %24s %18s %14s\n", r->rank, r->policy,
					       ci_text(&r->ci[F_MAKESPAN], 3, b[0], sizeof b[0]),
					       ci_text(&r->ci[F_JCT], 3, b[1], sizeof b[1]),
					       ci_text(&r->ci[F_SLOW], 3, b[2], sizeof b[2]), nd);
				}
			if (notes[w])
				fputs(notes[w], stdout);
		}
		printf("files in %s/\n", out);
	}
	if (!rc) { /* figures, each as .png and .svg */
		for (int w = 0; w < a.npos; w++) {
			char list[4096] = "";
			struct plot_jobs jobs[MAX_POL];
			for (int p = 0; p < nrows[w]; p++) {
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
					 p ? " " : "", rows[w][p].policy);
				jobs[p] = (struct plot_jobs){rows[w][p].nd.done, rows[w][p].nd.counted};
			}
			if (plot_compare_workload(out, path, w, wname[w], list, jobs))
				rc = 1; /* said; the tables stand */
		}
		if (plot_compare_makespan(out))
			rc = 1;
	}
	for (int w = 0; w < a.npos; w++) {
		for (int p = 0; p < nrows[w]; p++) {
			for (int f = 0; f < NF; f++)
				free(rows[w][p].v[f]);
			free(rows[w][p].set);
		}
		free(rows[w]);
		free(notes[w]);
	}
	return rc;
}
