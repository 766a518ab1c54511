/* calibrate.c - `hetsim calibrate`: time the real kernels of the
 * simulated tasks (calibrate/cpu/), fit cost models (calibrate/fit.c) and
 * write the cost-model file scenarios name, with the raw samples as CSV
 * and a gnuplot figure beside it.  See calibrate/README.md. */
#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cal.h"
#include "fit.h"
#include "load.h"
#include "plot.h"
#include "util.h"

static const struct cmd_opt cal_opts[] = {
	{"output", 'o', "FILE", "write the cost model here (and FILE.samples.csv, FILE.png)"},
	{"backend", 0, "NAME", "cpu (default); cuda is the separate program "
			       "calibrate/cuda/hetsim-cuda-cal"},
	{"kernels", 'k', "LIST", "comma-separated kernels to time (default: all)"},
	{"quick", 0, NULL, "fewer sizes and repeats (under a minute)"},
	{"concurrency", 0, "LIST", "contention: also time each kernel with k copies at once, "
				   "one per core, for each k of LIST (comma-separated, 1 to the "
				   "online cores; default 1..cores; 1 alone: none)"},
	{"seed", 0, "N", "seed of the random order of sizes, repeats and k (default 1; "
			 "same seed, same order)"},
	{"input", 'i', "FILE...", "text files for the wordcount kernels (default: Zipf text); "
				  "repeatable, and any further arguments are more files"},
	{"fit", 0, "SAMPLES", "fit samples measured elsewhere (CSV: kernel,device,size,repeat,"
			      "seconds) instead of measuring"},
	{"force", 'f', NULL, "go on when the machine is busy (other work above half a core, or "
			     "steal above 5 %), and write the model even when a fit is poor"},
	{"validate", 0, "MODEL", "run a real WordCount here and compare its makespan with the "
				 "simulation under MODEL (not refitted); -o FILE: the runs as CSV"},
	{"check", 0, "MODEL", "time the reference kernel (a few seconds) and say whether this "
			      "machine runs at MODEL's recorded speed: exit 0 within 10 %, 3 not"},
	{"fresh", 0, NULL, "calibrate (--quick, contention k = 1..cores) and validate at once, "
			   "on text and split sizes the calibration did not see: exit 0 within "
			   "10 %, 3 not (-o FILE: default fresh.yaml)"},
	{"workers", 0, "N", "--validate, --fresh: worker processes (default: online cores)"},
	{"repeats", 0, "N", "--validate, --fresh: timed runs, after one warm-up (default 7)"},
	{"zipf", 0, "S", "--validate: Zipf exponent of its synthetic text (default 1, the "
			 "calibration's law; other words and seed)"},
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

/* ---- the figure ---------------------------------------------------- */

/* The calibration figure (plot/calibration.c) of the fitted lines l. */
static int figure(const char *png, const char *csv, const struct fit_line *l, int n)
{
	struct plot_cal_line *pl = xcalloc((size_t)n + 1, sizeof *pl);
	for (int i = 0; i < n; i++)
		pl[i] = (struct plot_cal_line){l[i].kernel, l[i].device, l[i].unit, l[i].intercept,
					       l[i].slope};
	int rc = plot_calibration(png, csv, pl, n);
	free(pl);
	return rc;
}

/* ---- fit, check, write --------------------------------------------- */

/* A fit's clock in words: "wall (cpu 99.8 %)", "cpu (cpu 81.2 %)", or
 * "wall" where the samples carry no CPU time. */
static const char *clock_text(const struct fit_line *l, char *buf, size_t len)
{
	if (l->cpu_share > 0)
		snprintf(buf, len, "%s (cpu %.1f %%)", l->on_cpu ? "cpu" : "wall",
			 100 * l->cpu_share);
	else
		snprintf(buf, len, "wall");
	return buf;
}

static void print_fits(const struct fit_line *l, int n)
{
	char clk[64];
	printf("\n%-17s %-6s %12s %14s %9s %7s %3s  %s\n", "kernel", "device", "intercept",
	       "slope", "R^2", "CV", "n", "clock");
	for (int i = 0; i < n; i++)
		printf("%-17s %-6s %9.3f ms %8.4f ms/%-7s %9.5f %6.2f%% %3d  %s\n", l[i].kernel,
		       l[i].device, l[i].intercept * 1e3, l[i].slope * 1e3, l[i].unit, l[i].r2,
		       100 * l[i].cv, l[i].n, clock_text(&l[i], clk, sizeof clk));
	for (int i = 0; i < n; i++)
		for (int j = 1; j < l[i].nk; j++)
			printf("%-17s %-6s contention: k=%-3d slowdown %.3f (spread %.1f %%, alone "
			       "%.1f %%, %d samples)\n", l[i].kernel, l[i].device, l[i].k[j],
			       l[i].slowdown[j], 100 * l[i].spread[j], 100 * l[i].spread[0],
			       l[i].ksamples[j]);
}

static int fit_and_write(const struct cal_samples *s, const char *out, const char *csv,
			 const struct fit_meta *meta, bool force)
{
	char err[1024], why[256];
	struct fit_line *l;
	int n = fit_all(s, &l, err, sizeof err);
	if (n < 0) {
		fprintf(stderr, "hetsim calibrate: %s\n", err);
		return 1;
	}
	print_fits(l, n);
	fflush(stdout);
	for (int i = 0; i < n; i++)
		if (l[i].on_cpu)
			fprintf(stderr, "hetsim calibrate: note: %s on %s: its thread ran %.1f %% of the "
					"wall time (under %.0f %%: other work held its core), so it is fitted "
					"on the thread's CPU time (CLOCK_THREAD_CPUTIME_ID)\n", l[i].kernel,
				l[i].device, 100 * l[i].cpu_share, 100 * FIT_CPU_SHARE);
	int poor = 0;
	for (int i = 0; i < n; i++)
		if (fit_poor(&l[i], why, sizeof why)) {
			fprintf(stderr, "hetsim calibrate: POOR FIT: %s on %s: %s\n", l[i].kernel,
				l[i].device, why);
			poor++;
		}
	for (int i = 0; i < n; i++)
		if (l[i].intercept < 0 || l[i].slope < 0)
			fprintf(stderr, "hetsim calibrate: note: %s on %s: negative %s written as 0\n",
				l[i].kernel, l[i].device, l[i].intercept < 0 ? "intercept" : "slope");
	int rc = 0;
	char png[4300];
	snprintf(png, sizeof png, "%s.png", out);
	if (poor && !force) {
		fprintf(stderr, "hetsim calibrate: %d poor fit%s: model %s NOT written "
				"(see %s; --force writes it anyway)\n", poor, poor > 1 ? "s" : "", out, csv);
		rc = 1;
	} else if (fit_write_model(out, l, n, meta, err, sizeof err)) {
		fprintf(stderr, "hetsim calibrate: %s\n", err);
		rc = 1;
	} else {
		printf("wrote %s%s\n", out, poor ? " (forced despite poor fits)" : "");
	}
	if (figure(png, csv, l, n) && !rc)
		rc = 1; /* the model is written: only its figure failed, as said */
	free(l);
	return rc;
}

/* ---- outputs --------------------------------------------------------- */

/* Before any long work: can -o FILE be written?  Every output goes
 * through FILE.tmp (or FILE.samples.csv.tmp, FILE.png.tmp, beside it)
 * and a rename, so an existing FILE is replaced whole or not at all.
 * Tries to create FILE.tmp (and removes it); a folder at FILE is
 * refused.  0, or 1 with the message printed. */
static int can_write(const char *path)
{
	char tmp[4200];
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "hetsim calibrate: option '-o': cannot write '%s': Is a directory\n",
			path);
		return 1;
	}
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "hetsim calibrate: option '-o': cannot write '%s': %s\n", path,
			strerror(errno));
		return 1;
	}
	fclose(f);
	remove(tmp);
	return 0;
}

/* Before any long work: can every --input file be read?  0, or 1 with
 * the message printed. */
static int can_read(const char *const *files, int n)
{
	for (int i = 0; i < n; i++) {
		const char *why;
		FILE *f = fopen_regular(files[i], &why);
		if (!f) {
			fprintf(stderr, "hetsim calibrate: option '--input': cannot read '%s': %s\n",
				files[i], why);
			return 1;
		}
		fclose(f);
	}
	return 0;
}

/* ---- measuring ----------------------------------------------------- */

/* The backend measured: the cpu one (the tests' fake where they set
 * cal_backend_hook). */
static const struct cal_backend *measured(void)
{
	return cal_backend_hook ? cal_backend_hook : &cal_cpu_backend;
}

static int pick_kernels(const char *list, const struct cal_backend *b, bool *on)
{
	if (!list) {
		for (int k = 0; k < b->nkernels; k++)
			on[k] = true;
		return 0;
	}
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", list);
	const char *names[16];
	for (int k = 0; k < b->nkernels && k < 16; k++)
		names[k] = b->kernels[k].name;
	for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int k = 0;
		while (k < b->nkernels && strcmp(t, b->kernels[k].name) != 0)
			k++;
		if (k == b->nkernels) {
			const char *near = suggest(t, names, b->nkernels < 16 ? b->nkernels : 16);
			fprintf(stderr, "hetsim calibrate: option '--kernels': unknown kernel '%s'%s%s%s "
					"(known: wordcount_map, wordcount_reduce, mnist_step)\n", t,
				near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
			return -1;
		}
		on[k] = true;
	}
	return 0;
}

/* --concurrency LIST into ks (increasing, 1 first, duplicates dropped),
 * each from 1 to `cores`; NULL: 1..cores (powers of two and cores above
 * 16).  Returns the count, or -1 after the message. */
static int parse_concurrency(const char *list, int cores, int *ks)
{
	bool on[FIT_MAX_K + 1] = {[1] = true};
	int max = cores < FIT_MAX_K ? cores : FIT_MAX_K;
	if (!list)
		for (int k = 2; k <= max; k++)
			on[k] = k <= 16 || (k & (k - 1)) == 0 || k == max;
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", list ? list : "");
	for (char *save, *t = strtok_r(buf, ",", &save); list && t; t = strtok_r(NULL, ",", &save)) {
		char *end;
		errno = 0;
		long k = strtol(t, &end, 10);
		if (*end || end == t || errno || k < 1 || k > max) {
			fprintf(stderr, "hetsim calibrate: option '--concurrency' wants integers from 1 "
					"to %d (the online cores), comma-separated, got '%s'\n", max, t);
			return -1;
		}
		on[k] = true;
	}
	if (list && (!*list || list[strlen(list) - 1] == ',' || strstr(list, ",,"))) {
		fprintf(stderr, "hetsim calibrate: option '--concurrency' wants integers from 1 to %d "
				"(the online cores), comma-separated, got '%s'\n", max, list);
		return -1;
	}
	int n = 0;
	for (int k = 1; k <= max; k++)
		if (on[k])
			ks[n++] = k;
	return n;
}

/* The load check (calibrate/README.md, "A busy machine") before the
 * first block (after NULL) or after the block `after`: 0 go on, 1 stop
 * (its line printed).  A busy machine stops the run, or with --force is
 * a warning and goes on; a check that cannot read the machine is a
 * warning and goes on.  Each reading goes into sum (meta.load). */
static int load_check(struct cal_load_sum *sum, const char *after, bool force)
{
	struct cal_load l;
	char err[1024], line[512], when[192] = "";
	if (cal_load_read(&l, err, sizeof err)) {
		fprintf(stderr, "hetsim calibrate: warning: cannot tell whether the machine is busy: "
				"%s; going on unchecked\n", err);
		sum->unread++;
		return 0;
	}
	cal_load_add(sum, &l);
	cal_load_line(&l, line, sizeof line);
	if (after)
		snprintf(when, sizeof when, " after %s", after);
	else
		printf("load: %s; busy above %.1f cores of other work or %.0f %% steal\n", line,
		       CAL_BUSY_CORES, 100 * CAL_BUSY_STEAL);
	fflush(stdout);
	if (!l.busy)
		return 0;
	if (force) {
		fprintf(stderr, "hetsim calibrate: warning: the machine is busy%s: %s; --force: "
				"calibrating on (the model's meta.load counts it)\n", when, line);
		return 0;
	}
	fprintf(stderr, "hetsim calibrate: the machine is busy%s: %s, and busy is other work above "
			"%.1f cores or steal above %.0f %%: calibrating %s would measure it, not the "
			"kernels%s (--force goes on anyway)\n", when, line, CAL_BUSY_CORES,
		100 * CAL_BUSY_STEAL, after ? "on" : "now", after ? "; nothing written" : "");
	return 1;
}

/* A drift point: the reference kernel's speed now, after `what`. */
static void drift_point(double *speed, int *n, const char *what)
{
	speed[*n] = cal_ref_speed(CAL_DRIFT_RUNS);
	printf("drift: reference %.1f MiB/s after %s (median of %d runs)\n", speed[*n], what,
	       CAL_DRIFT_RUNS);
	fflush(stdout);
	(*n)++;
}

static int measure(const struct cal_backend *b, const bool *on, const struct cal_input *in,
		   bool quick, const char *out, bool force, const int *ks, int nks, uint64_t seed)
{
	char err[1024], csv[4300], src[128];
	struct cal_prov pv;
	cal_provenance(&pv);
	printf("hetsim calibrate: %s backend on %s (%d cores online); kernels run "
	       "single-threaded (1 thread)%s\n", b->name, pv.cpu, pv.cores,
	       quick ? "; --quick" : "");
	struct cal_load_sum load = {0};
	if (load_check(&load, NULL, force))
		return 1;
	if (nks > 1) {
		printf("contention: k copies at once, one per core, k =");
		for (int i = 0; i < nks; i++)
			printf("%s %d", i ? "," : "", ks[i]);
		printf("\n");
	}
	fflush(stdout);
	char core[64];
	for (int k = 0; k < b->nkernels; k++)
		if (on[k] && b->kernels[k].blas && cal_blas_fallback(core, sizeof core))
			fprintf(stderr, "hetsim calibrate: warning: OpenBLAS runs its %s kernels on "
				"this CPU, which has AVX2 (OpenBLAS does not know it): %s "
				"will cost what that fallback costs; OPENBLAS_CORETYPE=Haswell, or "
				"SkylakeX or Cooperlake with AVX-512, chooses a kernel (meta.blas "
				"records the one used)\n", core, b->kernels[k].name);
	double ref = cal_ref_speed(CAL_REF_RUNS);
	printf("reference kernel %s: %.1f MiB/s (median of %d runs; the model records the "
	       "drift points' median)\n", CAL_REF_KERNEL, ref, CAL_REF_RUNS);
	struct cal_timing tm = {.seed = seed, .ci_target = CAL_CI_TARGET,
				.cap = quick ? CAL_QUICK_CAP : CAL_CAP};
	printf("order: rounds in random order, seed %llu; repeats until the median's 95 %% CI "
	       "is within %.0f %% (at most %d); stalls dropped\n", (unsigned long long)seed,
	       100 * tm.ci_target, tm.cap);
	/* The drift points are all taken the same way (5 runs), the first
	 * right after the reference above, which read lower than the later
	 * points on this VM (calibrate/README.md, "Timing"). */
	double drift[2 * 16 + 1];
	int ndrift = 0;
	drift_point(drift, &ndrift, "the reference (the drift's first point)");
	struct cal_ctx *c = cal_ctx_new(in);
	struct cal_samples s = {0};
	double t0 = cal_now();
	for (int k = 0; k < b->nkernels; k++) {
		if (!on[k])
			continue;
		char what[128];
		if (cal_time_kernel(b, &b->kernels[k], c, quick, quick ? 1 : 2, &tm, &s, stdout, err,
				    sizeof err)) {
			fprintf(stderr, "hetsim calibrate: %s: %s\n", b->kernels[k].name, err);
			goto stop;
		}
		snprintf(what, sizeof what, "the %s sweep", b->kernels[k].name);
		if (load_check(&load, what, force))
			goto stop;
		drift_point(drift, &ndrift, what);
		if (nks > 1 && cal_time_contention(b, &b->kernels[k], c, quick, quick ? 1 : 2, ks,
						   nks, &tm, &s, stdout, err, sizeof err)) {
			fprintf(stderr, "hetsim calibrate: %s: %s\n", b->kernels[k].name, err);
			goto stop;
		}
		snprintf(what, sizeof what, "the %s contention rounds", b->kernels[k].name);
		if (nks > 1 && load_check(&load, what, force))
			goto stop;
		if (nks > 1)
			drift_point(drift, &ndrift, what);
	}
	struct cal_drift d;
	cal_drift_sum(drift, ndrift, &d);
	printf("measured %d samples in %.1f s (%s); %d sizes and ks, %d repeats, %d stopped by "
	       "the cap, %d stalled dropped\n", s.n, cal_now() - t0, b->data_note(c), tm.sizes,
	       tm.repeats, tm.capped, tm.stalls);
	printf("drift: reference %.1f -> %.1f MiB/s over the run (%d points, min %.1f, max %.1f; "
	       "change %+.1f %%, range %.1f %%)\n", d.first, d.last, d.n, d.min, d.max,
	       100 * d.change, 100 * d.range);
	/* The model's reference is the speed over the whole calibration,
	 * the median of the drift points (taken alike, between the blocks
	 * the fit used), not the start's reading alone, which read 5-10 %
	 * below the first drift point a few seconds later in most runs on
	 * this VM (calibrate/README.md, "Provenance"). */
	printf("reference for the model: %.1f MiB/s, the median of the %d drift points (--check "
	       "compares a machine with it; the start read %.1f)\n", d.median, d.n, ref);
	snprintf(csv, sizeof csv, "%s.samples.csv", out);
	snprintf(src, sizeof src, "hetsim calibrate samples: order seed %llu (keyed by kernel)",
		 (unsigned long long)seed);
	int rc;
	if (fit_write_samples(csv, &s, src, err, sizeof err)) {
		fprintf(stderr, "hetsim calibrate: %s\n", err);
		rc = 1;
	} else {
		printf("wrote %s\n", csv);
		snprintf(src, sizeof src, "hetsim calibrate (%s backend%s)", b->name,
			 quick ? ", --quick" : "");
		struct fit_meta meta = {
			.source = src, .machine = pv.cpu, .cores = pv.cores, .backend = b->name,
			.threads = 1, .data = b->data_note(c), .memory_mib = pv.memory_mib,
			.os = pv.os, .compiler = pv.compiler, .blas = pv.blas, .date = pv.date,
			.ref_kernel = CAL_REF_KERNEL, .ref_speed = d.median,
			.contention_k = {nks > 1 ? ks[0] : 0, nks > 1 ? ks[nks - 1] : 0},
			.timing = &tm, .drift = drift, .ndrift = ndrift, .load = &load,
		};
		rc = fit_and_write(&s, out, csv, &meta, force);
	}
	cal_samples_free(&s);
	cal_ctx_free(c);
	return rc;
stop: /* an error or a busy machine, its line printed: nothing written */
	cal_samples_free(&s);
	cal_ctx_free(c);
	return 1;
}

/* --workers and --repeats of --validate and --fresh into *nw (0: the
 * online cores) and *nr (default 7).  0, or 2 after the message. */
static int val_counts(const char *workers, const char *repeats, int64_t *nw, int64_t *nr)
{
	*nw = workers ? cmd_int("calibrate", "workers", workers, 64) : 0;
	*nr = repeats ? cmd_int("calibrate", "repeats", repeats, 100) : 7;
	if (*nw < 0 || *nr < 0)
		return 2;
	if ((workers && *nw < 1) || *nr < 1) {
		fprintf(stderr, "hetsim calibrate: option '--%s' wants at least 1\n",
			workers && *nw < 1 ? "workers" : "repeats");
		return 2;
	}
	return 0;
}

/* `hetsim calibrate --fresh [-o FILE] [--workers N] [--repeats N]
 * [--force]`: the --quick sweep with contention (k = 1 .. the online
 * cores) on all kernels, the model written to FILE (version 2, with
 * provenance), then cal_validate on it at once, its runs in
 * FILE.validation.csv.  Exit 0 (PASS), CAL_VAL_MISS (measured, above the
 * 10 % target), 1 (no model: a poor fit or an error; or the validation
 * failed), 2 (bad command line, before anything is measured). */
static int fresh(const struct cmd_args *a)
{
	static const char *const ok[] = {"fresh", "output", "workers", "repeats", "force", "seed"};
	for (int i = 0; i < a->n; i++) {
		const char *name = cal_opts[a->opt[i]].name;
		size_t k = 0;
		while (k < sizeof ok / sizeof ok[0] && strcmp(name, ok[k]) != 0)
			k++;
		if (k == sizeof ok / sizeof ok[0]) {
			fprintf(stderr, "hetsim calibrate: option '--fresh' calibrates all kernels "
					"with --quick's sweep and contention on Zipf text, then validates: "
					"drop '--%s'\n", name);
			return 2;
		}
	}
	if (a->npos) {
		fprintf(stderr, "hetsim calibrate: unexpected argument '%s'\n", a->pos[0]);
		return 2;
	}
	int64_t nw, nr;
	if (val_counts(cmd_get(cal_opts, a, "workers"), cmd_get(cal_opts, a, "repeats"), &nw, &nr))
		return 2;
	const char *out = cmd_get(cal_opts, a, "output");
	out = out ? out : "fresh.yaml";
	char csv[4200], model[256];
	snprintf(csv, sizeof csv, "%s.validation.csv", out);
	if (can_write(out) || can_write(csv))
		return 1;
	const char *seed = cmd_get(cal_opts, a, "seed");
	uint64_t sd = CAL_ORDER_SEED;
	if (seed && cmd_seed("calibrate", seed, &sd))
		return 2;
	int cores, ks[FIT_MAX_K];
	cal_machine(model, sizeof model, &cores);
	int nks = parse_concurrency(NULL, cores, ks);
	bool on[16];
	pick_kernels(NULL, measured(), on);
	struct cal_input in = {NULL, 0};
	printf("hetsim calibrate --fresh: calibrate (--quick, contention) into %s, then validate "
	       "it here at once\n\n", out);
	if (measure(measured(), on, &in, true, out, cmd_get(cal_opts, a, "force") != NULL,
		    ks, nks, (uint64_t)sd)) {
		fprintf(stderr, "hetsim calibrate: --fresh: the calibration failed (above): nothing "
				"validated\n");
		return 1;
	}
	printf("\n");
	struct cal_val_opts vo = {out, (int)nw, (int)nr, NULL, 0, csv, 1.0, true};
	int rc = cal_validate(&vo);
	if (rc < 0)
		return 1;
	plot_validation(csv);
	return rc ? CAL_VAL_MISS : 0;
}

int cmd_calibrate(int argc, char **argv)
{
	struct cmd_args a;
	if (cmd_parse("calibrate", cal_opts, argc, argv, &a))
		return 2;
	if (cmd_get(cal_opts, &a, "help")) {
		cmd_help("calibrate", "-o FILE [options]",
			 "Time the real kernels of the simulated tasks (wordcount_map,\n"
			 "wordcount_reduce, mnist_step) single-threaded over a sweep of sizes,\n"
			 "fit duration = intercept + slope x size per kernel (GSL weighted least\n"
			 "squares) and write the cost-model YAML that scenarios name, with the raw\n"
			 "samples (FILE.samples.csv) and a figure (FILE.png).  A poor fit (R^2 <\n"
			 "0.95 or residual CV > 10 %) exits 1 without writing the model.\n"
			 "Before the first block and after each it reads the load (/proc/stat\n"
			 "over 0.5 s, /proc/loadavg): when other work holds more than half a\n"
			 "core, or steal takes more than 5 %, it stops at once, exit 1, nothing\n"
			 "written (--force goes on; meta.load records it).  Each repeat records\n"
			 "the thread's CPU time beside the wall time; a kernel whose thread ran\n"
			 "under 95 % of the wall time is fitted on its CPU time (fit: clock).\n"
			 "Each kernel is also timed with k copies at once, one per core\n"
			 "(--concurrency), and its slowdown against one copy written as the\n"
			 "model's contention entry.\n"
			 "With --fit, fit a samples CSV measured elsewhere (e.g. by the CUDA\n"
			 "program calibrate/cuda/hetsim-cuda-cal) instead; SAMPLES.meta, where\n"
			 "it exists (hetsim-cuda-cal's provenance), goes into the model's meta.\n"
			 "With --validate MODEL, run a real WordCount (9 maps of 24/40 MiB, 4\n"
			 "reduces) on forked worker processes and compare its median makespan\n"
			 "with hetsim's simulation of the same tasks under MODEL: exit 0 when\n"
			 "they agree within 10 %, else 1; it first warns when this machine's\n"
			 "reference speed differs from MODEL's by more than 10 %.\n"
			 "With --fresh, do both at once on this machine: the --quick sweep with\n"
			 "contention into -o FILE (default fresh.yaml), then the WordCount on\n"
			 "text and split sizes (40/20 MiB) the calibration did not see, its runs\n"
			 "in FILE.validation.csv: PASS exits 0, FAIL (error above 10 %) 3.\n"
			 "With --check MODEL, time the reference kernel (a word count of 16 MiB\n"
			 "of Zipf text, a few seconds) and compare its speed with the one MODEL\n"
			 "recorded: exit 0 within 10 %, 3 when this machine differs more.\n"
			 "A missing or malformed model, or an -o FILE that cannot be written,\n"
			 "exits 1 before anything is measured; a bad command line exits 2.", cal_opts);
		return 0;
	}
	const char *check = cmd_get(cal_opts, &a, "check");
	if (check) {
		for (int i = 0; i < a.n; i++)
			if (strcmp(cal_opts[a.opt[i]].name, "check") != 0) {
				fprintf(stderr, "hetsim calibrate: option '--check' goes alone: drop "
						"'--%s'\n", cal_opts[a.opt[i]].name);
				return 2;
			}
		if (a.npos) {
			fprintf(stderr, "hetsim calibrate: unexpected argument '%s'\n", a.pos[0]);
			return 2;
		}
		return cal_ref_check(check);
	}
	if (cmd_get(cal_opts, &a, "fresh"))
		return fresh(&a);
	const char *out = cmd_get(cal_opts, &a, "output");
	const char *backend = cmd_get(cal_opts, &a, "backend");
	const char *fit = cmd_get(cal_opts, &a, "fit");
	bool force = cmd_get(cal_opts, &a, "force") != NULL;
	if (backend && strcmp(backend, "cpu") != 0) {
		if (strcmp(backend, "cuda") == 0)
			fprintf(stderr, "hetsim calibrate: the cuda backend is the separate program "
					"calibrate/cuda/hetsim-cuda-cal (hetsim never links CUDA); run it on "
					"the GPU machine, then fit its CSV here: hetsim calibrate --fit "
					"SAMPLES.csv -o FILE\n");
		else
			fprintf(stderr, "hetsim calibrate: option '--backend' wants cpu or cuda, got '%s'\n",
				backend);
		return 2;
	}
	const char *val = cmd_get(cal_opts, &a, "validate");
	const char *workers = cmd_get(cal_opts, &a, "workers");
	const char *repeats = cmd_get(cal_opts, &a, "repeats");
	const char *zipf = cmd_get(cal_opts, &a, "zipf");
	const char *conc = cmd_get(cal_opts, &a, "concurrency");
	if (cmd_get(cal_opts, &a, "seed") && (val || fit)) {
		fprintf(stderr, "hetsim calibrate: option '--seed' goes with measuring: drop it "
				"with --%s\n", val ? "validate" : "fit");
		return 2;
	}
	if (conc && (val || fit)) {
		fprintf(stderr, "hetsim calibrate: option '--concurrency' goes with measuring: drop "
				"it with --%s\n", val ? "validate" : "fit");
		return 2;
	}
	if (!val && (workers || repeats || zipf)) {
		fprintf(stderr, "hetsim calibrate: options '--workers', '--repeats' and '--zipf' go "
				"with '--validate'\n");
		return 2;
	}
	if (!val && !out) {
		fprintf(stderr, "hetsim calibrate: option '-o FILE' is required\n");
		return 2;
	}
	const char *files[40];
	int nfiles = 0;
	for (int i = 0; i < a.n; i++)
		if (strcmp(cal_opts[a.opt[i]].name, "input") == 0)
			files[nfiles++] = a.val[i];
	if (a.npos && !nfiles) {
		fprintf(stderr, "hetsim calibrate: unexpected argument '%s'\n", a.pos[0]);
		return 2;
	}
	for (int i = 0; i < a.npos; i++)
		files[nfiles++] = a.pos[i];
	if (val) {
		if (fit || backend || cmd_get(cal_opts, &a, "quick") ||
		    cmd_get(cal_opts, &a, "kernels") || force) {
			fprintf(stderr, "hetsim calibrate: option '--validate' fits nothing: drop "
					"--fit, --backend, --quick, --kernels and --force\n");
			return 2;
		}
		int64_t nw, nr;
		if (val_counts(workers, repeats, &nw, &nr))
			return 2;
		double zs = 1.0;
		if (zipf) {
			char *end;
			zs = strtod(zipf, &end);
			if (*end || end == zipf || !(zs >= 0.5 && zs <= 2.0)) {
				fprintf(stderr, "hetsim calibrate: option '--zipf' wants a number from "
						"0.5 to 2, got '%s'\n", zipf);
				return 2;
			}
			if (nfiles) {
				fprintf(stderr, "hetsim calibrate: option '--zipf' shapes the synthetic "
						"text: drop it with --input\n");
				return 2;
			}
		}
		if ((out && can_write(out)) || can_read(files, nfiles))
			return 1;
		struct cal_val_opts vo = {val, (int)nw, (int)nr, files, nfiles, out, zs, false};
		int rc = cal_validate(&vo);
		if (rc < 0) /* nothing measured, or out not written: no figure */
			return 1;
		if (out) /* measured: the figure of the runs */
			plot_validation(out);
		return rc;
	}
	if (fit) {
		if (nfiles || cmd_get(cal_opts, &a, "quick") || cmd_get(cal_opts, &a, "kernels")) {
			fprintf(stderr, "hetsim calibrate: option '--fit' measures nothing: drop "
					"--input, --quick and --kernels\n");
			return 2;
		}
		char err[1024];
		struct cal_samples s = {0};
		if (can_write(out))
			return 1;
		if (fit_read_samples(fit, &s, err, sizeof err)) {
			fprintf(stderr, "hetsim calibrate: %s\n", err);
			cal_samples_free(&s);
			return 1;
		}
		/* SAMPLES.meta beside it (hetsim-cuda-cal's provenance): into meta */
		char mpath[4200], src[8600];
		struct scn_cost_meta pm = {0};
		snprintf(mpath, sizeof mpath, "%s.meta", fit);
		if (access(mpath, F_OK) == 0 && scn_meta_load(mpath, &pm, err, sizeof err)) {
			fprintf(stderr, "hetsim calibrate: %s\n", err);
			cal_samples_free(&s);
			return 1;
		}
		snprintf(src, sizeof src, "hetsim calibrate --fit %s%s%s", fit,
			 pm.source ? " of samples by " : "", pm.source ? pm.source : "");
		struct fit_meta meta = {
			.source = src, .backend = pm.backend ? pm.backend : "external samples",
			.machine = pm.cpu, .cores = pm.cores, .memory_mib = pm.memory_mib,
			.os = pm.os, .compiler = pm.compiler, .blas = pm.blas, .date = pm.date,
			.threads = pm.threads, .data = pm.data,
			.contention_k = {pm.contention_k[0], pm.contention_k[1]},
			.gpu = pm.gpu, .gpu_memory_mib = pm.gpu_memory_mib, .gpu_cuda = pm.gpu_cuda,
		};
		int rc = fit_and_write(&s, out, fit, &meta, force);
		scn_cost_meta_free(&pm);
		cal_samples_free(&s);
		return rc;
	}
	bool on[16] = {false};
	if (pick_kernels(cmd_get(cal_opts, &a, "kernels"), measured(), on))
		return 2;
	char model[256];
	int cores, ks[FIT_MAX_K];
	cal_machine(model, sizeof model, &cores);
	int nks = parse_concurrency(conc, cores, ks);
	if (nks < 0)
		return 2;
	const char *seed = cmd_get(cal_opts, &a, "seed");
	uint64_t sd = CAL_ORDER_SEED;
	if (seed && cmd_seed("calibrate", seed, &sd))
		return 2;
	if (can_write(out) || can_read(files, nfiles))
		return 1;
	struct cal_input in = {files, nfiles};
	return measure(measured(), on, &in, cmd_get(cal_opts, &a, "quick") != NULL, out,
		       force, ks, nks, (uint64_t)sd);
}
