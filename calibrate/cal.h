/* cal.h - calibration: the real kernels of the simulated tasks, the
 * backend table that runs them, and the timing harness (cal_ prefix).
 * Fitting and the model file are in fit.h (fit_ prefix).
 *
 * A backend (STYLE.md, "Backends chosen at build time") is a table of
 * kernels; each kernel prepares its input for one size outside the timed
 * region (setup), does the work once per call (run) and frees it
 * (teardown).  Only the cpu backend is linked into hetsim; the cuda one
 * is the separate program calibrate/cuda/hetsim-cuda-cal, which writes
 * the same samples CSV.
 */
#ifndef HETSIM_CAL_H
#define HETSIM_CAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- wordcount: open-addressing hash table of word counts ---------- */

struct cal_wc;

/* An empty table.  Free with cal_wc_free.  Never NULL (aborts on OOM). */
struct cal_wc *cal_wc_new(void);
void cal_wc_free(struct cal_wc *t);
/* Add n to the count of word w (len bytes, taken as is). */
void cal_wc_add(struct cal_wc *t, const char *w, size_t len, uint64_t n);
/* The map kernel: split text on every byte that is not an ASCII letter
 * or digit, lowercase, count each word.  Returns the number of words. */
uint64_t cal_wc_count_text(struct cal_wc *t, const char *text, size_t len);
/* The reduce kernel: add every count of src into dst. */
void cal_wc_merge(struct cal_wc *dst, const struct cal_wc *src);
/* Count of a word (0 if absent); distinct words; the table's size as
 * shuffle data, sum over words of (length + 1 + 8) bytes. */
uint64_t cal_wc_get(const struct cal_wc *t, const char *word);
size_t cal_wc_distinct(const struct cal_wc *t);
size_t cal_wc_bytes(const struct cal_wc *t);
/* Call fn(word, len, count, arg) for every word of t, in no set order
 * (the word is not NUL-terminated and lives as long as t is unchanged). */
void cal_wc_each(const struct cal_wc *t,
		 void (*fn)(const char *word, size_t len, uint64_t count, void *arg), void *arg);

/* `bytes` of text (NUL-terminated, owned by the caller): words drawn
 * from a vocabulary of synthetic words with a Zipf(s = 1) law (gsl_rng
 * mt19937 seeded with `seed`, gsl_ran_discrete), some capitalised, with
 * spaces, punctuation and newlines between them.  Same seed, same text. */
char *cal_text_zipf(size_t bytes, uint64_t seed);
/* The same with `vocab_words` words (at most 26^4 + ...: indices are
 * written in base 26, 4 letters suffice below 456 976) and Zipf exponent
 * `s`: rank r has weight r^-s.  cal_text_zipf is (50 000, 1). */
char *cal_text_zipf_law(size_t bytes, uint64_t seed, int vocab_words, double s);
/* `bytes` of text made of the files' contents, repeated cyclically (a
 * newline between files).  NULL and a message in err if a file cannot be
 * read or all are empty. */
char *cal_text_files(const char *const *paths, int n, size_t bytes, char *err, size_t errlen);

/* ---- mnist_step: 784-128-10 MLP, ReLU, softmax cross-entropy ------- */

#define CAL_MLP_IN 784
#define CAL_MLP_HID 128
#define CAL_MLP_OUT 10

struct cal_mlp;

/* He-initialised weights (gsl_rng seeded with seed), zero biases. */
struct cal_mlp *cal_mlp_new(uint64_t seed);
void cal_mlp_free(struct cal_mlp *m);
/* Single precision (float32, as TensorFlow's CPU kernels), the GEMMs
 * through CBLAS's sgemm (OpenBLAS where linked, else gslcblas).
 * Forward and backward pass over a batch (x: b rows of 784, y: labels
 * 0..9); the gradient of the mean loss is left in cal_mlp_grads().
 * Returns the mean cross-entropy loss. */
double cal_mlp_grad(struct cal_mlp *m, const float *x, const int *y, int b);
/* One SGD step: cal_mlp_grad, then params -= lr * grads. Returns the loss. */
double cal_mlp_step(struct cal_mlp *m, const float *x, const int *y, int b, double lr);
/* Mean loss only (forward pass). */
double cal_mlp_loss(struct cal_mlp *m, const float *x, const int *y, int b);
/* Fraction of the n samples classified correctly. */
double cal_mlp_accuracy(struct cal_mlp *m, const float *x, const int *y, int n);
/* All parameters in one array (W1 128x784, b1, W2 10x128, b2), its
 * length, and the gradients in the same layout.  Owned by m. */
float *cal_mlp_params(struct cal_mlp *m);
const float *cal_mlp_grads(const struct cal_mlp *m);
size_t cal_mlp_nparams(void);
/* The BLAS the MLP runs on, fixed to one thread (a Spark task slot;
 * calibration forks its copies, so a threaded BLAS would oversubscribe
 * the cores): OpenBLAS's thread count is set to 1 where it is linked.
 * With desc (may be NULL), its description for meta.blas: "gslcblas",
 * or "OpenBLAS (CONFIG; serial build, 1 thread)".  cal_mlp_new calls
 * it. */
void cal_blas(char *desc, size_t len);

/* Whether OpenBLAS runs a kernel older than this CPU: true, with its
 * core name in `core`, when this x86 CPU has AVX2 and OpenBLAS chose a
 * core without it (Prescott, OpenBLAS 0.3.21's fallback for a CPU it
 * does not know: 2026-12-02, calibrate/README.md "The BLAS").  False
 * under gslcblas or elsewhere.  cal_blas_generic is the rule on a core
 * name and the CPU's AVX2. */
bool cal_blas_fallback(char *core, size_t len);
bool cal_blas_generic(const char *core, bool avx2);

/* A labelled image set: x is n rows of 784 values in [0, 1] (synthetic:
 * unbounded), y is n labels 0..9.  Both owned; free with cal_data_free. */
struct cal_data {
	float *x;
	int *y;
	int n;
};
/* Fashion-MNIST from `dir` ($HETSIM_FASHION_MNIST, else
 * /usr/share/datasets/fashion-mnist when NULL): the train or t10k set,
 * at most max_n samples, from the IDX files (gzip'ed ones are read
 * through `gzip -dc`).  Returns 0, or -1 with a message in err (and
 * nothing allocated) when the files are absent or malformed. */
int cal_data_fashion(struct cal_data *d, const char *dir, bool train, int max_n, char *err,
		     size_t errlen);
/* n samples of ten Gaussian blobs in 784 dimensions: class centres with
 * N(0, 0.3^2) entries, each sample its centre plus N(0, 1) noise.  The
 * centres depend on `seed` only, the samples on seed and `stream`, so a
 * train and a test set share the centres.  Learnable: centres are about
 * 0.3 x sqrt(2 x 784) = 12 noise sd apart. */
void cal_data_synthetic(struct cal_data *d, int n, uint64_t seed, int stream);
void cal_data_free(struct cal_data *d);

/* ---- backends ------------------------------------------------------ */

struct cal_input {                /* what the kernels read */
	const char *const *files; /* --input FILE...: text for wordcount; none = Zipf text */
	int nfiles;
};

struct cal_ctx; /* inputs shared between sizes of a run (text, data set) */

struct cal_kernel {
	const char *name;       /* cost-model kernel name */
	const char *unit;       /* work unit of `size` */
	double sizes[8]; int nsizes; /* the full sweep */
	double quick[8]; int nquick; /* --quick sweep */
	int repeats, quick_repeats;  /* timed runs per size */
	bool blas;              /* its work goes through CBLAS (cal_blas): its cost
				   is the linked BLAS's, and a fallback kernel of
				   it is warned of (cal_blas_fallback) */
	/* Called once before a sweep with its largest size, to build shared
	 * input once (not timed); NULL = nothing to do.  0, or -1 and err. */
	int (*prepare)(struct cal_ctx *c, double max_size, char *err, size_t errlen);
	/* Prepare one size (not timed); NULL and a message in err on error. */
	void *(*setup)(struct cal_ctx *c, double size, char *err, size_t errlen);
	void (*run)(void *state);         /* the timed work */
	void (*teardown)(void *state);
};

struct cal_backend {
	const char *name;                   /* "cpu" */
	const char *device;                 /* device key in the model */
	const struct cal_kernel *kernels;
	int nkernels;
	/* A note on the data the kernels use, e.g. "Fashion-MNIST" (static). */
	const char *(*data_note)(struct cal_ctx *c);
};

extern const struct cal_backend cal_cpu_backend;

struct cal_ctx *cal_ctx_new(const struct cal_input *in);
void cal_ctx_free(struct cal_ctx *c);

/* ---- timing -------------------------------------------------------- */

/* One measured duration. */
struct cal_sample {
	char kernel[64];
	char device[64];
	double size;     /* work, in the kernel's unit */
	int repeat;      /* 0-based */
	double seconds;  /* wall time, CLOCK_MONOTONIC */
	double cpu_seconds; /* the measuring thread's CPU time over the same
			    run (CLOCK_THREAD_CPUTIME_ID); 0: not measured
			    (files without the column, hetsim-cuda-cal's) */
	int k;           /* copies of the kernel running at once, one per
			    core, this one of them; 0 or 1: alone */
	int round;       /* contention round, 1-based (its k = 1 sample is
			    the paired reference); 0: the sweep, or unknown */
	long seq;        /* 1-based position in the run's timing order; 0:
			    unknown (files without the column) */
	bool dropped;    /* a stalled repeat (cal_stalls): kept in the CSV,
			    left out of every fit */
};

struct cal_samples {
	struct cal_sample *v;  /* owned */
	int n, cap;
};
void cal_samples_push(struct cal_samples *s, const struct cal_sample *x);
void cal_samples_free(struct cal_samples *s);

/* Seconds on CLOCK_MONOTONIC (cal_clock_hook's, when set). */
double cal_now(void);
/* Tests only: when set, cal_now returns its value (a fake clock that a
 * fake kernel advances: make check does no real timing). */
extern double (*cal_clock_hook)(void);
/* The calling thread's CPU time, seconds, on CLOCK_THREAD_CPUTIME_ID:
 * what a repeat ran on its core, without the time it waited for it
 * (calibrate/README.md, "Two clocks").  Tests: cal_cpu_clock_hook's
 * value when set, else cal_clock_hook's (a fake clock stands for both). */
double cal_cpu_now(void);
extern double (*cal_cpu_clock_hook)(void);

/* ---- robust timing (robust.c; calibrate/README.md, "Timing") ---------
 *
 * Order: the sizes (and in the contention rounds the values of k) are
 * timed in rounds, each round a fresh random permutation of the sizes
 * still short of repeats, drawn from the run's seed keyed by the
 * kernel's name (cal_order_key): same seed, same order.
 * Repeats: a size (a k) gets more repeats until the 95 % confidence
 * interval of its median, the distribution-free one from order
 * statistics (cal_median_ci), is within CAL_CI_TARGET of the median,
 * at least the kernel's repeats and at most the cap.
 * Stalls: a repeat far above the median (cal_stalls) is flagged, kept
 * in the samples CSV and left out of the CI and of every fit. */

#define CAL_ORDER_SEED 1u     /* the default seed of the order (--seed) */
#define CAL_CI_TARGET 0.02    /* CI half-width / median at most 2 % */
#define CAL_CAP 25            /* repeats per size at most (full) */
#define CAL_QUICK_CAP 12      /* ... with --quick */
#define CAL_STALL_MADS 3.0    /* a stall: above median + 3 x 1.4826 x MAD, */
#define CAL_STALL_FLOOR 0.05  /* and above median x 1.05 */
#define CAL_STALL_SHARE 0.20  /* at most 20 % of a size's repeats dropped */
#define CAL_MAX_REPEATS 64    /* a cap above this is lowered to it */
#define CAL_DRIFT_RUNS 5      /* reference runs at each drift point after the first */

/* How a run's repeats are scheduled (in), and what it took (out). */
struct cal_timing {
	uint64_t seed;        /* in: the order's seed */
	double ci_target;     /* in: CI half-width / median to reach */
	int cap;              /* in: repeats per size (per k) at most */
	long seq;             /* in/out: samples timed so far in the run */
	int sizes, capped;    /* out, summed: sizes (and ks) timed; of them,
				 stopped by the cap, CI still wider */
	int stalls, repeats;  /* out, summed: repeats dropped; timed in all */
};

/* The order's generator state for a kernel: the seed keyed by its name
 * (FNV-1a of the name mixed into the seed). */
uint64_t cal_order_key(uint64_t seed, const char *name);
/* Shuffle v[0..n) in place (Fisher-Yates on splitmix64 draws from
 * *state, which advances). */
void cal_shuffle(uint64_t *state, int *v, int n);
/* qsort's comparison of two doubles, ascending. */
int cal_cmp_double(const void *a, const void *b);
/* Median of v[0..n), n >= 1 (v sorted in place). */
double cal_median(double *v, int n);

/* The 95 % CI of the median of t[0..n) (not modified) whose keep[i] is
 * true (NULL: all): [x_(j), x_(m+1-j)] of the m kept values sorted, j
 * the largest with P(B <= j - 1) <= 0.025, B ~ Binomial(m, 1/2), so
 * the coverage is at least 95 % whatever the distribution.  Returns
 * its half-width over the median, (hi - lo) / 2 / median, and *med;
 * INFINITY below 6 values (no such j). */
double cal_median_ci(const double *t, const bool *keep, int n, double *med);
/* The stall rule on t[0..n): a value above median + max(CAL_STALL_MADS
 * x 1.4826 x MAD, CAL_STALL_FLOOR x median) of all n is a stall; at
 * most floor(CAL_STALL_SHARE x n) are flagged, the slowest first, none
 * below 5 values.  Sets drop[0..n) and returns how many are set. */
int cal_stalls(const double *t, int n, bool *drop);
/* Whether a size with n repeats t[0..n) (drop: cal_stalls's flags) is
 * done: 0 not yet (fewer than min_repeats kept, or the CI wider than
 * target), 1 the CI is within target, 2 the cap is reached first. */
int cal_enough(const double *t, const bool *drop, int n, int min_repeats, double target, int cap);

/* The machine's drift over a run: the reference kernel's speeds at
 * the drift points, in time order. */
struct cal_drift {
	int n;                       /* points */
	double first, last, min, max;/* MiB/s */
	double median;                /* of the n points, MiB/s */
	double change;               /* last / first - 1 */
	double range;                /* max / min - 1 */
};
/* Summarise speed[0..n) (n >= 1). */
void cal_drift_sum(const double *speed, int n, struct cal_drift *d);
/* Time kernel k of backend b at every size of its (quick) sweep (at
 * most 16 sizes): set every size up and warm it up (at least `warmup`
 * runs and 0.2 s, at most 50), then time the repeats in rounds over the
 * sizes still short of repeats, each round in a random order from
 * tm->seed keyed by k's name; a size stops once its median's 95 % CI
 * is within tm->ci_target with at least the kernel's repeats kept, or
 * at tm->cap repeats (robust timing, above).  Stalls are flagged
 * (cal_sample.dropped), not removed.  Appends each sample to out
 * (grouped by size, seq: the order timed) and adds what it took to
 * tm's out fields.  One thread.  Progress lines go to `log` (may be
 * NULL): per size its median, MAD, CI, repeats, cap and stalls.
 * Returns 0, or -1 with a message in err. */
int cal_time_kernel(const struct cal_backend *b, const struct cal_kernel *k,
		    struct cal_ctx *c, bool quick, int warmup, struct cal_timing *tm,
		    struct cal_samples *out, FILE *log, char *err, size_t errlen);
/* Contention: time kernel k with n copies running at once, for each n
 * of ks (increasing, ks[0] == 1, at most 64 values), each copy a forked
 * process pinned to its own core (sched_setaffinity, the i-th core the
 * process may use; unpinned, with a note, where the OS refuses), all at
 * one size, the middle of the (quick) sweep.  The state is set up once
 * (not timed) before the fork; each copy warms up as cal_time_kernel
 * does; then rounds, each running every n once in a random order (tm's
 * seed), until every n's median (k = 1: of its times; n > 1: of each
 * copy's time over the same round's k = 1 time) is within the CI
 * target, or the cap.  Appends one sample per copy per round, with its
 * k and round (calibrate/README.md, "Contention"); stalls flagged per
 * k.  0, or -1 and err. */
int cal_time_contention(const struct cal_backend *b, const struct cal_kernel *k,
			struct cal_ctx *c, bool quick, int warmup, const int *ks, int nks,
			struct cal_timing *tm, struct cal_samples *out, FILE *log, char *err,
			size_t errlen);

/* ---- the machine's load (busy.c; calibrate/README.md, "A busy
 * machine") ---------------------------------------------------------
 *
 * `hetsim calibrate` reads the load before its first block and after
 * each (a kernel's sweep, its contention rounds): /proc/stat twice,
 * CAL_BUSY_WINDOW apart, over the cores this process may use
 * (sched_getaffinity).  Other work = the ticks those cores spent neither
 * idle, in iowait nor stolen, less calibrate's own CPU time over the
 * window (CLOCK_PROCESS_CPUTIME_ID), in cores; steal = the stolen ticks
 * over all their ticks.  Busy: other work above CAL_BUSY_CORES or steal
 * above CAL_BUSY_STEAL.  /proc/loadavg's 1-minute average is reported
 * beside it; it does not decide: it averages the past minute,
 * calibrate's own blocks in it. */

#define CAL_BUSY_WINDOW 0.5  /* s between the two /proc/stat readings */
#define CAL_BUSY_CORES 0.5   /* other work above half a core: busy */
#define CAL_BUSY_STEAL 0.05  /* steal above 5 % of the cores' time: busy */

struct cal_load {        /* one load check */
	int cores;           /* the cores this process may use */
	double other;        /* other work over the window, cores */
	double steal;        /* steal over the window, fraction of the cores' time */
	double window;       /* the window, s (from the ticks) */
	double load1;        /* /proc/loadavg's 1-minute average */
	bool busy;           /* other > CAL_BUSY_CORES or steal > CAL_BUSY_STEAL */
};

/* What a check reads: /proc/stat's text at the window's start and end,
 * /proc/loadavg's, their names for messages, the cores this process may
 * use (allowed[i] for cpu i < nallowed; NULL: every cpuN line), its own
 * CPU time over the window and /proc/stat's ticks per second. */
struct cal_load_in {
	const char *stat0, *stat1, *loadavg;
	const char *stat_name, *loadavg_name;
	const bool *allowed;
	int nallowed;
	double own_s;
	double hz;
};

/* The verdict from those readings into *l.  0, or -1 with one line in
 * err: "NAME:LINE:COL: ..." for a malformed file (a field that is not a
 * count, fewer than 4 counts, no cpuN line of an allowed core, no load
 * average), or "NAME: ..." for readings that cannot be compared (the
 * cores changed, a count went backwards, no tick passed). */
int cal_load_judge(const struct cal_load_in *in, struct cal_load *l, char *err, size_t errlen);

/* The cores this process may run on (sched_getaffinity), in increasing
 * order, into cpu[] (at most max); their number, 0 when the OS does not
 * say.  The load check counts these cores; contention.c pins its copies
 * to them. */
int cal_allowed_cpus(int *cpu, int max);

/* Read this machine: /proc/stat, CAL_BUSY_WINDOW of sleep, /proc/stat
 * and /proc/loadavg again (cal_load_hook's reading when set).  0, or -1
 * and err (cal_load_judge's, or a file that cannot be read). */
int cal_load_read(struct cal_load *l, char *err, size_t errlen);
/* Tests only: when set, cal_load_read returns what it gives. */
extern int (*cal_load_hook)(struct cal_load *l, char *err, size_t errlen);

/* The reading in words: "other work holds 1.70 of 2 cores, steal 0.0 %
 * (over 0.50 s; load average 1.90)". */
void cal_load_line(const struct cal_load *l, char *line, size_t len);

/* For a measurement that goes on whatever the load (--check,
 * --validate): true when the machine is busy now, with the reading in
 * words in line; false ("") when it is not or cannot be read.  faked:
 * the caller's measurement is a test's (its timing hook set,
 * cal_ref_hook or cal_val_hook); then the load is read only through
 * cal_load_hook, and false without it, so that no test's output depends
 * on the machine's load. */
bool cal_load_busy(bool faked, char *line, size_t len);

/* A run's checks, summed (the model's meta.load). */
struct cal_load_sum {
	int checks;          /* readings taken */
	int busy;            /* of them busy (the run went on: --force) */
	int unread;          /* checks that could not read the machine */
	int cores;
	double other_max;    /* cores */
	double steal_max;    /* fraction */
	double load1_max;
};
void cal_load_add(struct cal_load_sum *s, const struct cal_load *l);

/* Tests only: when set, `hetsim calibrate` measures this backend instead
 * of cal_cpu_backend (a fake kernel on the fake clocks). */
extern const struct cal_backend *cal_backend_hook;

/* The CPU model from /proc/cpuinfo ("unknown" if absent) and the online
 * cores. */
void cal_machine(char *model, size_t len, int *cores);

/* Tests only: when set, cal_machine gives what the hook gives instead of
 * reading this machine (the machine check's lines are then fixed). */
extern void (*cal_machine_hook)(char *model, size_t len, int *cores);

struct scn_cost_meta;

/* ---- provenance and the reference kernel (ref.c) ---------------------
 *
 * A model records where and when it was measured (meta, version 2:
 * docs/scenario.md, "meta") and the speed of a small fixed reference
 * kernel there, so that `hetsim calibrate --check MODEL` can tell in a
 * few seconds whether this machine runs at the model's speed.  The
 * reference kernel: the map kernel (cal_wc_count_text into a fresh
 * table) over CAL_REF_MIB MiB of the calibration's kind of text
 * (cal_text_zipf, seed CAL_REF_SEED), CAL_REF_WARMUP untimed runs, then
 * the median of the timed ones; its speed is MiB per second. */

#define CAL_REF_KERNEL "wordcount-zipf-16MiB" /* meta.reference.kernel */
#define CAL_REF_MIB 16
#define CAL_REF_SEED 4242u
#define CAL_REF_WARMUP 2
#define CAL_REF_RUNS 11           /* timed runs: about 1.5 s on an EPYC core */
#define CAL_REF_TOLERANCE 0.10    /* |here / model - 1| at most 10 %: a match */
#define CAL_REF_MISMATCH 3        /* --check's exit status on a mismatch */

/* Tests only: when set, cal_ref_speed returns its value instead of
 * timing anything (make check does no real timing). */
extern double (*cal_ref_hook)(void);

/* The reference kernel's speed here, MiB/s: the median of `repeats`
 * timed runs after the warm-up.  One thread. */
double cal_ref_speed(int repeats);

/* Compare this machine's reference speed `here` with the model's: true
 * when they agree within CAL_REF_TOLERANCE.  `line` gets the comparison
 * in words, both speeds and the difference in %: "this machine's
 * reference speed 180.0 MiB/s is 10.0 % below the model's 200.0 MiB/s
 * (within 10 %)". */
bool cal_ref_compare(double model, double here, char *line, size_t len);

/* Whether the machine a model records (meta.machine: cpu and cores) is
 * this one (cpu, cores: cal_machine's): true when they are the same or
 * the model records none; false with `line` naming both: "the model was
 * measured on AMD EPYC with 2 cores, this machine is Intel(R) Xeon(R)
 * Processor with 2 cores".  The CPU names are compared whole, as
 * /proc/cpuinfo gives them; the cores only where the model records them. */
bool cal_machine_same(const struct scn_cost_meta *m, const char *cpu, int cores, char *line,
		      size_t len);

/* `hetsim calibrate --check MODEL`: load MODEL (cost part only), time
 * the reference kernel, print both speeds and MATCH or MISMATCH on
 * stdout, and a note when the model records another machine (the
 * verdict stays the speeds').  Returns 0 (match), CAL_REF_MISMATCH, or 1 (the model cannot
 * be read, is malformed or records no comparable reference: one line
 * on stderr, nothing timed). */
int cal_ref_check(const char *model);

/* --validate's check of the machine, for a model already loaded from
 * `path`: with a comparable reference, time the reference kernel; a
 * match is one line on stdout, a mismatch one warning line on stderr
 * (both speeds and the %), and 1 is returned; without one, a note on
 * stderr and 0.  speed gets the model's reference speed and this
 * machine's, MiB/s (both 0: not compared).  A model measured on another
 * CPU or core count adds a warning line naming both (cal_machine_same),
 * whatever the speeds.  Never an error: the validation goes on. */
int cal_ref_warn(const struct scn_cost_meta *m, const char *path, double speed[2]);

/* What `hetsim calibrate` records of this machine (fit_meta). */
struct cal_prov {
	char cpu[256];       /* /proc/cpuinfo's model name, or "unknown" */
	int cores;           /* online cores */
	int64_t memory_mib;  /* /proc/meminfo's MemTotal, MiB; 0 = unknown */
	char os[512];        /* uname: sysname release machine */
	char compiler[128];  /* "gcc " __VERSION__ */
	char blas[256];      /* "gslcblas", or OpenBLAS with its config */
	char date[32];       /* now, ISO 8601 UTC */
};
void cal_provenance(struct cal_prov *p);

/* ---- validation (validate.c): the closed loop ------------------------
 *
 * `hetsim calibrate --validate MODEL`: a real WordCount on this machine
 * (W forked worker processes fed over pipes, maps then reduces, on text
 * the calibration never saw) against hetsim's simulation of the same
 * tasks under MODEL.  See calibrate/README.md, "Validation". */

/* The wordcount_map and wordcount_reduce lines of a cost-model file on
 * device cpu, seconds and seconds per MiB (read with scn_cost_load).
 * 0, or -1 and err. */
int cal_val_model(const char *model, double map[2], double reduce[2], char *err, size_t errlen);

#define CAL_VAL_MAPS 9     /* the validated WordCount's map tasks */
#define CAL_VAL_REDUCES 4  /* and reduce tasks */
#define CAL_VAL_MISS 3     /* --fresh's exit status when the error is above 10 % */

/* The simulated twin: one node of `workers` cores (cpu_speed 1), one
 * synthetic job with one executor of `workers` cores, no start-up or
 * launch overhead, one single-task stage per task with the task's
 * duration (seconds, rounded to whole µs) as a constant: the map stages
 * first, roots, in hand-out order; then the reduce stages, each with
 * every map stage as parent.  With `model` (a cost-model file; NULL:
 * none) the twin names it as its cost_model, so that the loader applies
 * its contention entries to the node (docs/model.md, "Contention"; the
 * durations stay the given ones).  Written to `yaml` (NULL: a temporary
 * file, removed), loaded with scn_load, run under fifo; *makespan_s from
 * met_compute.  0, or -1 and err. */
int cal_val_twin(const char *yaml, const char *model, int workers, const double *map_s,
		 int nmaps, const double *reduce_s, int nreduces, double *makespan_s, char *err,
		 size_t errlen);

struct cal_val_opts {
	const char *model;         /* the cost model, not refitted */
	int workers;               /* worker processes; 0 = online cores */
	int repeats;               /* timed runs (>= 1); a warm-up run comes first */
	const char *const *files;  /* --input text; none = Zipf text (words and seed != calibration's) */
	int nfiles;
	const char *csv;           /* -o: runs as CSV (NULL = none) */
	double zipf_s;             /* Zipf exponent of the synthetic text (calibration's: 1) */
	bool fresh;                /* --fresh: splits of 40 and 20 MiB (no size of either
				      sweep) and its PASS/FAIL line */
};
/* Run the validation, print the report on stdout.  First the model is
 * loaded (cost part only) and this machine's reference speed compared
 * with the model's (cal_ref_warn: a mismatch warns, and the validation
 * goes on).  The twin applies the model's contention entries.  Returns
 * 0 (PASS: |error| <= 10 %, o->csv written), 1 (measured, error above
 * the target, o->csv written; --validate: a WARN line on stderr,
 * --fresh: a FAIL line on stdout), or -1: a failure (a missing or
 * malformed model, bad text files, a worker died, o->csv unwritable),
 * one line on stderr, o->csv not written. */
int cal_validate(const struct cal_val_opts *o);

/* Tests only: when set, cal_validate runs no real WordCount: the hook
 * gets the workers and the 9 split sizes (MiB) and fills runs
 * (o->repeats measured makespans, seconds) and reduce_mib (the 4
 * reduces' shuffle MiB); 0, or -1 (cal_validate then returns -1).  The
 * model, the machine check, the twin, the CSV and the verdict are as
 * without it; the per-task view is left out. */
extern int (*cal_val_hook)(const struct cal_val_opts *o, int workers, const double *split_mib,
			   double *runs, double *reduce_mib);

#endif
