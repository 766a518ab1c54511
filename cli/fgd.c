/* fgd.c - `hetsim fgd`: the FGD experiment (Weng et al., ATC'23;
 * ../shared/reference/fgd.md §5; docs/policies/fgd.md, "The experiment").
 *
 * An offer-only scenario (its pods offered one every 2 µs, none leaving,
 * each placed at once or dropped) run for each seed (loaded with it, so
 * the offer's order and its padding follow it) under each of its
 * policies.  After each offered pod: the arrived GPU demand (every pod
 * offered, placed or not), the GPU allocated and the cluster's
 * fragmentation (frag.h, against the target workload of the pod list as
 * read), each as % of the cluster's GPU capacity, and the fragmentation
 * as % of the idle GPU.  Per run, the points are averaged on an integer
 * grid of the arrived demand (each point to its nearest integer, halves
 * to the even one, 0 .. 130 %: the artifact's merge scripts,
 * experiments/analysis/merge_*.py, Python's round); over the seeds, each
 * grid point's mean, min, max and sample standard deviation.
 *
 * Writes DIR/curves.csv (over the seeds), DIR/curves-by-seed.csv (each
 * run's grid) and DIR/runs.csv as one set (rows.h: with its
 * manifest.csv) and, with gnuplot, DIR/alloc, DIR/frag and
 * DIR/frag_ratio, each as .png and .svg.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "frag.h"
#include "load.h"
#include "plot.h"
#include "rows.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"

#define GRID 131                     /* arrived demand 0 .. 130 % */
#define MAX_SEEDS 1000

static const struct cmd_opt fgd_opts[] = {
	{"seeds", 's', "A-B", "the seeds, one run each (default 42-51, the artifact's)"},
	{"output", 'o', "DIR", "write curves.csv, curves-by-seed.csv, runs.csv and the figures "
			       "there (default results/fgd)"},
	{"quiet", 'q', NULL, "no table"},
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

/* An executor as the run released it: what it took of its node. */
struct xrec {
	int job, node, cores, milli, share;
	uint64_t mask;
};

struct xlist {
	struct xrec *x;
	int n, cap;
};

static void sink(void *ctx, const struct sim *s, const struct sim_exec *x)
{
	(void)s;
	struct xlist *l = ctx;
	xgrow(&l->x, &l->cap, l->n + 1, sizeof *l->x);
	l->x[l->n++] = (struct xrec){x->job, x->node, x->cores, x->gpu_milli, x->gpu_share,
				     x->gpu_mask};
}

static int cmp_xrec(const void *a, const void *b)
{
	const struct xrec *x = a, *y = b;
	return x->job != y->job ? (x->job > y->job) - (x->job < y->job) : 0;
}

/* One run's grid: sums and counts of the points of each arrived-demand
 * integer. */
struct grid {
	double alloc[GRID], frag[GRID], idle[GRID];
	int n[GRID];
};

/* The totals of one run, for runs.csv. */
struct run_sum {
	int64_t offered, placed;
	double demand_pct, alloc_pct, frag_pct;
};

static int64_t job_gpu(const struct sim_job *j)
{
	int64_t d = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		d += (int64_t)ro->count * (ro->gpus ? (int64_t)ro->gpus * CLU_GPU_MILLI
						    : ro->gpu_milli);
	}
	return d;
}

/* Run policy p of sc (loaded with its seed), its points into g. */
static int run_one(const struct scn *sc, int p, const struct frag_target *tw, struct grid *g,
		   struct run_sum *sum, char *err, size_t errlen)
{
	struct sim *s = sim_new(sc, &sc->policies[p], 0, err, errlen);
	if (!s)
		return -1;
	struct xlist xl = {0};
	sim_set_exec_sink(s, sink, &xl);
	int rc = sim_run(s);
	if (rc) {
		char why[1024];
		snprintf(err, errlen, "the run of policy %s failed: %s", sc->policies[p].name,
			 sim_stop_why(s, rc, why, sizeof why));
		sim_free(s);
		free(xl.x);
		return -1;
	}
	if (xl.n) /* by job; a job's in launch order */
		qsort(xl.x, (size_t)xl.n, sizeof *xl.x, cmp_xrec);
	const struct clu *c = sim_cluster(s);
	int64_t cap = 0;
	for (int i = 0; i < c->n; i++)
		cap += (int64_t)c->nodes[i].gpus * CLU_GPU_MILLI;
	for (int i = 0; i < c->n; i++)
		if (c->nodes[i].pool) {
			snprintf(err, errlen, "node %s: its GPUs are a pool (gpu_pool), and the FGD "
				 "measure counts each GPU", c->nodes[i].name);
			sim_free(s);
			free(xl.x);
			return -1;
		}
	if (!cap) {
		snprintf(err, errlen, "the cluster has no GPU");
		sim_free(s);
		free(xl.x);
		return -1;
	}
	int64_t *cpu = xmalloc((size_t)c->n * sizeof *cpu), *gsum = xmalloc((size_t)c->n *
									   sizeof *gsum);
	uint16_t *fr = xmalloc((size_t)c->n * CLU_MAX_GPUS * sizeof *fr);
	double *f = xmalloc((size_t)c->n * sizeof *f), ftot = 0;
	int64_t idle = 0;
	for (int i = 0; i < c->n; i++) {
		const struct clu_node *n = &c->nodes[i];
		cpu[i] = n->cores;
		gsum[i] = (int64_t)n->gpus * CLU_GPU_MILLI;
		for (int k = 0; k < n->gpus; k++)
			fr[(size_t)i * CLU_MAX_GPUS + k] = CLU_GPU_MILLI;
		f[i] = frag_node(tw, n->labels, cpu[i], n->gpus, fr + (size_t)i * CLU_MAX_GPUS,
				 gsum[i]);
		ftot += f[i];
		idle += gsum[i];
	}
	memset(g, 0, sizeof *g);
	int64_t demand = 0, alloc = 0;
	int at = 0;
	sum->offered = sim_njobs(s);
	sum->placed = 0;
	for (int j = 0; j < sim_njobs(s); j++) {
		demand += job_gpu(sim_job(s, j));
		sum->placed += at < xl.n && xl.x[at].job == j;
		for (; at < xl.n && xl.x[at].job == j; at++) {
			const struct xrec *x = &xl.x[at];
			const struct clu_node *n = &c->nodes[x->node];
			uint16_t *v = fr + (size_t)x->node * CLU_MAX_GPUS;
			int64_t took = 0;
			cpu[x->node] -= x->cores;
			if (x->milli) {
				v[x->share] = (uint16_t)(v[x->share] - x->milli);
				took = x->milli;
			}
			for (int k = 0; k < n->gpus; k++)
				if (x->mask >> k & 1) {
					took += v[k];
					v[k] = 0;
				}
			gsum[x->node] -= took;
			alloc += took;
			idle -= took;
			ftot -= f[x->node];
			f[x->node] = frag_node(tw, n->labels, cpu[x->node], n->gpus, v,
					       gsum[x->node]);
			ftot += f[x->node];
		}
		double d = 100.0 * (double)demand / (double)cap;
		long b = (long)nearbyint(d); /* halves to even, as Python's round */
		if (b >= 0 && b < GRID) {
			g->alloc[b] += 100.0 * (double)alloc / (double)cap;
			g->frag[b] += 100.0 * ftot / (double)cap;
			g->idle[b] += idle > 0 ? 100.0 * ftot / (double)idle : 0;
			g->n[b]++;
		}
	}
	sum->demand_pct = 100.0 * (double)demand / (double)cap;
	sum->alloc_pct = 100.0 * (double)alloc / (double)cap;
	sum->frag_pct = 100.0 * ftot / (double)cap;
	free(cpu), free(gsum), free(fr), free(f);
	free(xl.x);
	sim_free(s);
	return 0;
}

/* Per policy and grid point: over the seeds that reach it, mean, min
 * and max of each metric. */
struct acc {
	double sum[3], sq[3], lo[3], hi[3];
	int n;
};

static void acc_add(struct acc *a, const double *v)
{
	for (int k = 0; k < 3; k++) {
		a->sum[k] += v[k];
		a->sq[k] += v[k] * v[k];
		a->lo[k] = a->n ? fmin(a->lo[k], v[k]) : v[k];
		a->hi[k] = a->n ? fmax(a->hi[k], v[k]) : v[k];
	}
	a->n++;
}

/* The seeds' sample standard deviation of metric k (0 for one seed). */
static double acc_sd(const struct acc *a, int k)
{
	if (a->n < 2)
		return 0;
	double m = a->sum[k] / a->n, v = (a->sq[k] - a->n * m * m) / (a->n - 1);
	return v > 0 ? sqrt(v) : 0;
}

static int parse_seeds(const char *v, int64_t *lo, int64_t *hi)
{
	char *end;
	errno = 0;
	long long a = strtoll(v, &end, 10), b = a;
	if (end == v || a < 0 || errno)
		return -1;
	if (*end == '-') {
		const char *q = end + 1;
		b = strtoll(q, &end, 10);
		if (end == q || errno)
			return -1;
	}
	if (*end || b < a || b - a >= MAX_SEEDS)
		return -1;
	*lo = a;
	*hi = b;
	return 0;
}

int cmd_fgd(int argc, char **argv)
{
	struct cmd_args a;
	if (cmd_parse("fgd", fgd_opts, argc, argv, &a))
		return 2;
	if (cmd_get(fgd_opts, &a, "help")) {
		cmd_help("fgd", "SCENARIO [options]",
			 "The FGD experiment: an offer-only scenario run for each seed under each\n"
			 "of its policies; the GPU allocated and the fragmentation against the\n"
			 "arrived GPU demand (docs/policies/fgd.md, \"The experiment\").",
			 fgd_opts);
		return 0;
	}
	if (a.npos != 1) {
		fprintf(stderr, "hetsim fgd: expected one SCENARIO file, got %d arguments\n", a.npos);
		return 2;
	}
	int64_t s0 = 42, s1 = 51;
	const char *v = cmd_get(fgd_opts, &a, "seeds");
	if (v && parse_seeds(v, &s0, &s1)) {
		fprintf(stderr, "hetsim fgd: option '--seeds': expected A or A-B (0 <= A <= B, at "
			"most %d seeds), got '%s'\n", MAX_SEEDS, v);
		return 2;
	}
	const char *out = cmd_get(fgd_opts, &a, "output");
	out = out ? out : "results/fgd";
	if (!*out) {
		fprintf(stderr, "hetsim fgd: option '--output': empty\n");
		return 2;
	}
	bool quiet = cmd_get(fgd_opts, &a, "quiet") != NULL;
	char err[1024];
	int nseeds = (int)(s1 - s0 + 1), npol = 0;
	struct acc *acc = NULL;
	char (*names)[64] = NULL;
	struct run_sum *sums = NULL;
	struct grid *grids = NULL; /* by (policy, seed) */
	int rc = 0;
	for (int k = 0; k < nseeds && !rc; k++) {
		scn_seed_at_load = (uint64_t)(s0 + k);
		scn_seed_at_load_set = true;
		struct scn *sc = scn_load(a.pos[0], err, sizeof err);
		if (!sc) {
			fprintf(stderr, "%s\n", err);
			rc = 1;
			break;
		}
		if (!sc->offer) {
			fprintf(stderr, "hetsim fgd: %s: not an offer-only scenario (a trace with "
				"offer: true)\n", a.pos[0]);
			scn_free(sc);
			rc = 1;
			break;
		}
		if (k == 0) {
			npol = sc->npolicies;
			acc = xcalloc((size_t)npol * GRID, sizeof *acc);
			names = xcalloc((size_t)npol, sizeof *names);
			sums = xcalloc((size_t)npol * (size_t)nseeds, sizeof *sums);
			grids = xcalloc((size_t)npol * (size_t)nseeds, sizeof *grids);
			for (int p = 0; p < npol; p++)
				snprintf(names[p], sizeof names[p], "%s", sc->policies[p].name);
		}
		struct frag_target tw = {0};
		frag_of_scenario(sc, &tw);
		for (int p = 0; p < npol && !rc; p++) {
			const struct grid *g = &grids[(size_t)p * nseeds + k];
			if (run_one(sc, p, &tw, &grids[(size_t)p * nseeds + k],
				    &sums[(size_t)p * nseeds + k], err, sizeof err)) {
				fprintf(stderr, "hetsim fgd: %s, seed %" PRId64 ": %s\n", a.pos[0],
					s0 + k, err);
				rc = 1;
				break;
			}
			for (int b = 0; b < GRID; b++)
				if (g->n[b]) {
					double m[3] = {g->alloc[b] / g->n[b], g->frag[b] / g->n[b],
						       g->idle[b] / g->n[b]};
					acc_add(&acc[(size_t)p * GRID + b], m);
				}
		}
		frag_free(&tw);
		scn_free(sc);
	}
	scn_seed_at_load_set = false;
	/* curves.csv and runs.csv, committed as one set (rows.h) */
	static const char *const files[] = {"curves.csv", "runs.csv", "curves-by-seed.csv"};
	struct rows_files set = {.cmd = "fgd", .dir = out, .names = files, .n = 3};
	if (!rc && rows_files_open(&set))
		rc = 1;
	if (!rc) {
		FILE *f = set.f[0];
		fprintf(f, "policy,demand_pct,seeds,alloc_pct,alloc_min,alloc_max,frag_pct,"
			"frag_min,frag_max,frag_idle_pct,frag_idle_min,frag_idle_max,alloc_sd,"
			"frag_sd,frag_idle_sd\n");
		for (int p = 0; p < npol; p++)
			for (int b = 0; b < GRID; b++) {
				const struct acc *x = &acc[(size_t)p * GRID + b];
				if (!x->n)
					continue;
				fprintf(f, "%s,%d,%d", names[p], b, x->n);
				for (int k = 0; k < 3; k++)
					fprintf(f, ",%.4f,%.4f,%.4f", x->sum[k] / x->n, x->lo[k],
						x->hi[k]);
				for (int k = 0; k < 3; k++)
					fprintf(f, ",%.4f", acc_sd(x, k));
				fprintf(f, "\n");
			}
		f = set.f[2];
		fprintf(f, "policy,seed,demand_pct,points,alloc_pct,frag_pct,frag_idle_pct\n");
		for (int p = 0; p < npol; p++)
			for (int k = 0; k < nseeds; k++) {
				const struct grid *g = &grids[(size_t)p * nseeds + k];
				for (int b = 0; b < GRID; b++)
					if (g->n[b])
						fprintf(f, "%s,%" PRId64 ",%d,%d,%.4f,%.4f,%.4f\n",
							names[p], s0 + k, b, g->n[b],
							g->alloc[b] / g->n[b], g->frag[b] / g->n[b],
							g->idle[b] / g->n[b]);
			}
		f = set.f[1];
		fprintf(f, "policy,seed,offered,placed,dropped,demand_pct,alloc_pct,frag_pct\n");
		for (int p = 0; p < npol; p++)
			for (int k = 0; k < nseeds; k++) {
				const struct run_sum *r = &sums[(size_t)p * nseeds + k];
				fprintf(f, "%s,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
					",%.4f,%.4f,%.4f\n", names[p], s0 + k, r->offered, r->placed,
					r->offered - r->placed, r->demand_pct, r->alloc_pct,
					r->frag_pct);
			}
		if (rows_files_close(&set, true))
			rc = 1;
	}
	if (!rc && !quiet) {
		printf("%s: %d seeds (%" PRId64 "-%" PRId64 "), each policy's runs; at 100 %% "
		       "arrived GPU demand (the seeds' mean):\n", a.pos[0], nseeds, s0, s1);
		printf("%-12s %8s %8s %10s %9s %9s\n", "policy", "alloc_%", "frag_%", "placed",
		       "dropped", "end_alloc");
		for (int p = 0; p < npol; p++) {
			const struct acc *x = &acc[(size_t)p * GRID + 100];
			double placed = 0, dropped = 0, end = 0;
			for (int k = 0; k < nseeds; k++) {
				const struct run_sum *r = &sums[(size_t)p * nseeds + k];
				placed += (double)r->placed / nseeds;
				dropped += (double)(r->offered - r->placed) / nseeds;
				end += r->alloc_pct / nseeds;
			}
			printf("%-12s %8.2f %8.2f %10.1f %9.1f %8.2f%%\n", names[p],
			       x->n ? x->sum[0] / x->n : NAN, x->n ? x->sum[1] / x->n : NAN, placed,
			       dropped, end);
		}
		printf("files in %s/\n", out);
	}
	if (!rc) { /* the figures, each as .png and .svg */
		char list[4096] = "";
		for (int p = 0; p < npol; p++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
				 p ? " " : "", names[p]);
		if (plot_fgd(out, list, nseeds))
			rc = 1; /* said; the CSV files stand */
	}
	free(acc);
	free(names);
	free(sums);
	free(grids);
	return rc;
}
