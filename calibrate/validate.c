/* validate.c - `hetsim calibrate --validate MODEL`: the closed loop.
 *
 * A real WordCount on this machine against hetsim's simulation of the
 * same tasks under a cost model fitted beforehand (and not refitted):
 *
 * - Real: W worker processes, fork()ed once, each reading task numbers
 *   from its own pipe and answering on one shared pipe (24-byte records,
 *   atomic under PIPE_BUF).  The parent hands the map tasks out in order
 *   to the lowest-numbered idle worker, and the reduce tasks once every
 *   map has answered (Spark's stage barrier).  A map task runs the
 *   calibrated kernel (cal_wc_count_text on its split into a fresh
 *   table), then writes its shuffle output: every word of the input's
 *   vocabulary it saw, with its count, into the shared-memory partition
 *   (map, word index mod R).  A reduce task adds every (word, count) of
 *   its partition from every map into a fresh table (cal_wc_add: the
 *   insertion cal_wc_merge does, plus hashing the word, which the
 *   shuffle does not carry).  Makespan = first hand-out to last answer,
 *   CLOCK_MONOTONIC; one warm-up run, then the timed runs.
 * - Simulated: cal_val_twin (cal.h), each task's duration from the
 *   model: map = intercept + slope x split MiB; reduce = intercept +
 *   slope x its shuffle MiB (word + 1 + 8 bytes per entry, as the
 *   calibration's unit), measured from the real shuffle of the warm-up
 *   run (the data are the same every run).  The twin names the model as
 *   its cost_model, so the loader applies the model's contention entries
 *   (scn_node_group.busy_slowdown) as in any scenario.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, mkdtemp */
#include "load.h"
#include "cal.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "metrics.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"

#define MIB (1024.0 * 1024.0)
/* The validation's synthetic text: the calibration's kind of text (a
 * 50 000-word vocabulary, Zipf exponent 1 unless --zipf says otherwise)
 * but other text: another seed, hence other made-up words and another
 * sequence.  How fast a map counts a MiB depends on the text's law (with
 * exponent 1.2 about 10 % faster than with 1): a model knows the kind of
 * text it was calibrated on, so validate on that kind, or calibrate on
 * your own text (--input) first. */
#define VAL_SEED 977u        /* calibration's text: 20240601 */
#define VAL_VOCAB 50000      /* calibration's: 50 000 */
#define VAL_TARGET 0.10      /* |error| at most 10 % */
#define MAX_WORKERS 64
#define MAX_REPEATS 100

/* Split sizes (MiB), in hand-out order: none a power of two (the
 * calibration's full sweep is 8..256 doubling).  --fresh follows a
 * --quick calibration, whose sweep (8, 12, 16, 24, 32, 64 MiB) has 24:
 * its splits are 40 and 20 MiB, sizes neither sweep times. */
static const double val_mib[] = {40, 24, 40, 24, 40, 24, 40, 24, 40};
static const double fresh_mib[] = {40, 20, 40, 20, 40, 20, 40, 20, 40};
#define NMAPS CAL_VAL_MAPS
#define NREDUCES CAL_VAL_REDUCES
_Static_assert(sizeof val_mib / sizeof val_mib[0] == NMAPS, "one split per map");
_Static_assert(sizeof fresh_mib / sizeof fresh_mib[0] == NMAPS, "one split per map");

int (*cal_val_hook)(const struct cal_val_opts *o, int workers, const double *split_mib,
		    double *runs, double *reduce_mib);

/* ---- temporary scenario files -------------------------------------- */

static int write_text(const char *path, const char *text, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	bool bad = !f || fputs(text, f) == EOF;
	int e = errno;
	if (f && fclose(f) && !bad)
		bad = true, e = errno;
	if (bad) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
		return -1;
	}
	return 0;
}

static int tmp_dir(char *dir, size_t len, char *err, size_t errlen)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, len, "%s/hetsim-val-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "cannot make a temporary folder '%s': %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* The model file's cost part, or NULL and a message in err. */
static struct scn *load_model(const char *model, char *err, size_t errlen)
{
	FILE *f = fopen(model, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read model '%s': %s", model, strerror(errno));
		return NULL;
	}
	fclose(f);
	return scn_cost_load(model, err, errlen);
}

/* The two wordcount lines of a loaded model. */
static int model_lines(const struct scn *s, const char *model, double map[2], double reduce[2],
		       char *err, size_t errlen)
{
	const char *names[2] = {"wordcount_map", "wordcount_reduce"};
	double *out[2] = {map, reduce};
	for (int i = 0; i < 2; i++) {
		const struct scn_cost_kernel *k = scn_cost_kernel(s, names[i]);
		const struct scn_cost_dev *d = k ? scn_cost_device(k, "cpu") : NULL;
		if (!d || strcmp(k->unit, "MiB") != 0) {
			snprintf(err, errlen, "model '%s' has no %s on cpu in MiB", model, names[i]);
			return -1;
		}
		out[i][0] = d->intercept_us * 1e-6;
		out[i][1] = d->slope_us * 1e-6;
	}
	return 0;
}

int cal_val_model(const char *model, double map[2], double reduce[2], char *err, size_t errlen)
{
	struct scn *s = load_model(model, err, errlen);
	int rc = s ? model_lines(s, model, map, reduce, err, errlen) : -1;
	scn_free(s);
	return rc;
}

__attribute__((format(printf, 4, 5)))
static void cat(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
		va_end(ap);
		if ((size_t)n < *cap - *len) {
			*len += (size_t)n;
			return;
		}
		*cap = *cap * 2 + (size_t)n;
		*buf = xrealloc(*buf, *cap);
	}
}

/* `path` as a YAML double-quoted scalar, absolute (the twin lives in
 * another folder): 0, or -1 and err. */
static int cat_path(char **buf, size_t *len, size_t *cap, const char *path, char *err,
		    size_t errlen)
{
	char *abs = realpath(path, NULL);
	if (!abs) {
		snprintf(err, errlen, "cannot read model '%s': %s", path, strerror(errno));
		return -1;
	}
	cat(buf, len, cap, "\"");
	for (const char *p = abs; *p; p++) {
		if ((unsigned char)*p < 0x20) {
			snprintf(err, errlen, "twin: model path '%s' holds a control character", abs);
			free(abs);
			return -1;
		}
		cat(buf, len, cap, "%s%c", *p == '"' || *p == '\\' ? "\\" : "", *p);
	}
	cat(buf, len, cap, "\"");
	free(abs);
	return 0;
}

int cal_val_twin(const char *yaml, const char *model, int workers, const double *map_s,
		 int nmaps, const double *reduce_s, int nreduces, double *makespan_s, char *err,
		 size_t errlen)
{
	if (workers < 1 || nmaps < 1 || nreduces < 0) {
		snprintf(err, errlen, "twin: need workers >= 1 and at least one map task");
		return -1;
	}
	size_t len = 0, cap = 4096;
	char *t = xmalloc(cap);
	cat(&t, &len, &cap,
	    "# The simulated twin of `hetsim calibrate --validate` (calibrate/README.md):\n"
	    "# one single-task stage per real task, durations from the cost model;\n"
	    "# the cost model, when named, for its contention entries only.\n"
	    "name: validate-twin\n"
	    "overheads: {executor_startup: 0s, task_launch: 0s}\n");
	if (model) {
		cat(&t, &len, &cap, "cost_model: ");
		if (cat_path(&t, &len, &cap, model, err, errlen)) {
			free(t);
			return -1;
		}
		cat(&t, &len, &cap, "\n");
	}
	cat(&t, &len, &cap,
	    "cluster:\n- {name: local, cores: %d, memory: 64GiB, cpu_speed: 1}\n"
	    "workload:\n- name: wordcount\n  type: synthetic\n  executors: 1\n"
	    "  executor_cores: %d\n  executor_memory: 1GiB\n  stages:\n", workers, workers);
	for (int i = 0; i < nmaps; i++)
		cat(&t, &len, &cap, "  - {name: map%d, tasks: 1, duration: %.0fus, parents: []}\n", i,
		    fmax(0, map_s[i]) * 1e6);
	for (int r = 0; r < nreduces; r++) {
		cat(&t, &len, &cap, "  - {name: reduce%d, tasks: 1, duration: %.0fus, parents: [", r,
		    fmax(0, reduce_s[r]) * 1e6);
		for (int i = 0; i < nmaps; i++)
			cat(&t, &len, &cap, "%smap%d", i ? ", " : "", i);
		cat(&t, &len, &cap, "]}\n");
	}
	cat(&t, &len, &cap, "policies: [fifo]\n");
	char dir[4200] = "", path[4300];
	if (yaml)
		snprintf(path, sizeof path, "%s", yaml);
	else if (tmp_dir(dir, sizeof dir, err, errlen)) {
		free(t);
		return -1;
	} else
		snprintf(path, sizeof path, "%s/twin.yaml", dir);
	int rc = write_text(path, t, err, errlen);
	free(t);
	struct scn *s = rc ? NULL : scn_load(path, err, errlen);
	if (!yaml) {
		remove(path);
		rmdir(dir);
	}
	if (!s)
		return -1;
	/* The twin's synthetic tasks are word count tasks: their kernels'
	 * contention, not every kernel's (scn_busy_curves). */
	static const char *const wc_kernels[] = {"wordcount_map", "wordcount_reduce", NULL};
	scn_busy_curves(s, wc_kernels);
	struct sim *sim = sim_new(s, &s->policies[0], 0, err, errlen);
	rc = -1;
	if (sim && sim_run(sim) == 0) {
		struct met_run m;
		met_compute(sim, &m);
		if (m.done == 1) {
			*makespan_s = m.makespan_s;
			rc = 0;
		} else
			snprintf(err, errlen, "twin: the simulated job did not finish");
	} else if (sim)
		snprintf(err, errlen, "twin: the simulation failed");
	sim_free(sim);
	scn_free(s);
	return rc;
}

/* ---- the real workload ------------------------------------------------ */

/* Zipf text with exponent s, this file's seed (not the calibration's). */
static char *zipf_text(size_t bytes, double s)
{
	return cal_text_zipf_law(bytes, VAL_SEED, VAL_VOCAB, s);
}

static int lower_alnum(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
		return c;
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : 0;
}

struct vocab {
	char **w;
	int n, cap;
	struct cal_wc *index; /* word -> index + 1 */
};

/* Every word the maps will see: each split tokenised as the map kernel
 * does (words cut at a split's ends included).  Not timed. */
static void build_vocab(struct vocab *v, const char *text, const size_t *off, const size_t *len,
			int nsplits)
{
	v->index = cal_wc_new();
	char word[4096];
	for (int s = 0; s < nsplits; s++) {
		const char *p = text + off[s];
		size_t n = 0;
		for (size_t i = 0; i <= len[s]; i++) {
			int c = i < len[s] ? lower_alnum((unsigned char)p[i]) : 0;
			if (c && n < sizeof word - 1) {
				word[n++] = (char)c;
				continue;
			}
			if (c) /* absurdly long word: keep it whole in the count, not here */
				continue;
			if (!n)
				continue;
			word[n] = '\0';
			if (!cal_wc_get(v->index, word)) {
				xgrow(&v->w, &v->cap, v->n + 1, sizeof *v->w);
				v->w[v->n] = xstrdup(word);
				cal_wc_add(v->index, word, n, (uint64_t)v->n + 1);
				v->n++;
			}
			n = 0;
		}
	}
}

struct entry {
	uint32_t idx;
	uint32_t pad;
	uint64_t count;
};

/* Shared between the parent and the workers (MAP_SHARED). */
struct shared {
	uint64_t map_words[NMAPS];    /* words counted by each map */
	uint64_t map_shuffled[NMAPS]; /* sum of the counts it wrote */
	uint64_t red_total[NREDUCES]; /* sum of the counts each reduce merged */
	uint64_t red_distinct[NREDUCES];
	double red_bytes[NREDUCES];   /* shuffle bytes read: word + 1 + 8 per entry */
	uint32_t n[NMAPS][NREDUCES];  /* entries in partition (map, reduce) */
	struct entry e[];             /* partition (m, r) at (m * R + r) * slot */
};

struct msg {           /* worker -> parent */
	int32_t task, worker;
	double kernel_s;   /* map: the counting kernel; reduce: the merge */
	double total_s;    /* the whole task (map: + shuffle write) */
};

struct job {
	const char *text;
	size_t off[NMAPS], len[NMAPS];
	struct vocab v;
	struct shared *sh;
	size_t slot;       /* entries per partition */
};

static void run_map(const struct job *j, int m, struct msg *out)
{
	double t0 = cal_now();
	struct cal_wc *t = cal_wc_new();
	j->sh->map_words[m] = cal_wc_count_text(t, j->text + j->off[m], j->len[m]);
	double t1 = cal_now();
	uint64_t sum = 0;
	for (int r = 0; r < NREDUCES; r++) {
		struct entry *e = j->sh->e + ((size_t)m * NREDUCES + (size_t)r) * j->slot;
		uint32_t n = 0;
		for (int i = r; i < j->v.n; i += NREDUCES) {
			uint64_t c = cal_wc_get(t, j->v.w[i]);
			if (c) {
				e[n++] = (struct entry){(uint32_t)i, 0, c};
				sum += c;
			}
		}
		j->sh->n[m][r] = n;
	}
	j->sh->map_shuffled[m] = sum;
	cal_wc_free(t);
	out->kernel_s = t1 - t0;
	out->total_s = cal_now() - t0;
}

static void run_reduce(const struct job *j, int r, struct msg *out)
{
	double t0 = cal_now(), bytes = 0;
	uint64_t total = 0;
	struct cal_wc *t = cal_wc_new();
	for (int m = 0; m < NMAPS; m++) {
		const struct entry *e = j->sh->e + ((size_t)m * NREDUCES + (size_t)r) * j->slot;
		for (uint32_t k = 0; k < j->sh->n[m][r]; k++) {
			const char *w = j->v.w[e[k].idx];
			size_t len = strlen(w);
			cal_wc_add(t, w, len, e[k].count);
			total += e[k].count;
			bytes += (double)len + 9;
		}
	}
	j->sh->red_total[r] = total;
	j->sh->red_distinct[r] = cal_wc_distinct(t);
	j->sh->red_bytes[r] = bytes;
	cal_wc_free(t);
	out->kernel_s = out->total_s = cal_now() - t0;
}

static bool full_write(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p = (const char *)p + w;
		n -= (size_t)w;
	}
	return true;
}

static bool full_read(int fd, void *p, size_t n)
{
	while (n) {
		ssize_t r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p = (char *)p + r;
		n -= (size_t)r;
	}
	return true;
}

static void worker(const struct job *j, int id, int in, int out)
{
	int32_t task;
	while (full_read(in, &task, sizeof task) && task >= 0) {
		struct msg m = {task, id, 0, 0};
		if (task < NMAPS)
			run_map(j, task, &m);
		else
			run_reduce(j, task - NMAPS, &m);
		if (!full_write(out, &m, sizeof m))
			break;
	}
	_exit(0);
}

struct pool {
	int n;
	pid_t pid[MAX_WORKERS];
	int cmd[MAX_WORKERS]; /* write ends */
	int res;              /* read end of the shared answer pipe */
};

static int pool_start(struct pool *p, const struct job *j, int n, char *err, size_t errlen)
{
	int res[2];
	p->n = 0;
	if (pipe(res)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	p->res = res[0];
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < n; i++) {
		int c[2];
		if (pipe(c)) {
			snprintf(err, errlen, "pipe: %s", strerror(errno));
			close(res[1]);
			return -1;
		}
		pid_t pid = fork();
		if (pid < 0) {
			snprintf(err, errlen, "fork: %s", strerror(errno));
			close(c[0]);
			close(c[1]);
			close(res[1]);
			return -1;
		}
		if (pid == 0) {
			close(c[1]);
			close(res[0]);
			for (int k = 0; k < p->n; k++)
				close(p->cmd[k]);
			worker(j, i, c[0], res[1]);
		}
		close(c[0]);
		p->pid[p->n] = pid;
		p->cmd[p->n++] = c[1];
	}
	close(res[1]);
	return 0;
}

static void pool_stop(struct pool *p)
{
	int32_t quit = -1;
	for (int i = 0; i < p->n; i++) {
		full_write(p->cmd[i], &quit, sizeof quit);
		close(p->cmd[i]);
	}
	for (int i = 0; i < p->n; i++)
		while (waitpid(p->pid[i], NULL, 0) < 0 && errno == EINTR)
			;
	if (p->n)
		close(p->res);
	p->n = 0;
}

/* One run: maps to the lowest-numbered idle worker in order, reduces
 * once every map has answered.  The makespan in *span; each task's
 * answer in ans[task].  0, or -1 (a worker died). */
static int pool_run(struct pool *p, double *span, struct msg *ans)
{
	bool idle[MAX_WORKERS];
	int next = 0, done = 0, maps_done = 0, total = NMAPS + NREDUCES;
	for (int i = 0; i < p->n; i++)
		idle[i] = true;
	double t0 = cal_now();
	for (;;) {
		for (int i = 0; i < p->n && next < total; i++) {
			if (!idle[i] || (next >= NMAPS && maps_done < NMAPS))
				continue;
			int32_t task = next++;
			if (!full_write(p->cmd[i], &task, sizeof task))
				return -1;
			idle[i] = false;
		}
		if (done == total)
			break;
		struct msg m;
		if (!full_read(p->res, &m, sizeof m) || m.task < 0 || m.task >= total ||
		    m.worker < 0 || m.worker >= p->n)
			return -1;
		*span = cal_now() - t0;
		ans[m.task] = m;
		idle[m.worker] = true;
		done++;
		if (m.task < NMAPS)
			maps_done++;
	}
	return 0;
}


/* Median of v[0..n), v left as it is. */
static double median(const double *v, int n)
{
	double *s = xmalloc((size_t)n * sizeof *s);
	memcpy(s, v, (size_t)n * sizeof *s);
	double m = cal_median(s, n);
	free(s);
	return m;
}

static int write_csv(const char *path, const double *runs, int n, double sim, char *err,
		     size_t errlen)
{
	char tmp[4300];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write '%.900s': %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "run,measured_s,simulated_s\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "%d,%.6f,%.6f\n", i + 1, runs[i], sim);
	if (fclose(f) || rename(tmp, path)) {
		snprintf(err, errlen, "cannot write '%.900s': %s", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}


/* The real workload, measured: `reps` timed runs (after one warm-up) of
 * the 9 maps of `split` MiB and the 4 reduces on `w` worker processes.
 * Fills runs[reps], red_mib[NREDUCES] (each reduce's shuffle MiB) and
 * task_med[task] = {whole task, its kernel}, the medians over the runs.
 * 0, or -1 with the message printed. */
static int run_real(const struct cal_val_opts *o, int w, int reps, const double *split,
		    double *runs, double *red_mib, double (*task_med)[2])
{
	char err[1024];
	struct job j = {0};
	size_t total = 0;
	for (int m = 0; m < NMAPS; m++) {
		j.off[m] = total;
		j.len[m] = (size_t)(split[m] * MIB);
		total += j.len[m];
	}
	char *text = o->nfiles ? cal_text_files(o->files, o->nfiles, total, err, sizeof err)
			       : zipf_text(total, o->zipf_s > 0 ? o->zipf_s : 1.0);
	if (!text) {
		fprintf(stderr, "hetsim calibrate: %s\n", err);
		return -1;
	}
	j.text = text;
	build_vocab(&j.v, text, j.off, j.len, NMAPS);
	j.slot = (size_t)j.v.n / NREDUCES + 1;
	size_t shsize = sizeof *j.sh + (size_t)NMAPS * NREDUCES * j.slot * sizeof(struct entry);
	void *sh = mmap(NULL, shsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int rc = -1;
	struct pool p = {0};
	double span = 0;
	struct msg (*ans)[NMAPS + NREDUCES] = xcalloc((size_t)reps + 1, sizeof *ans);
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	if (sh == MAP_FAILED) {
		fprintf(stderr, "hetsim calibrate: mmap %zu bytes: %s\n", shsize, strerror(errno));
		goto out;
	}
	j.sh = sh;
	if (o->nfiles)
		printf("input: the --input files, %.0f MiB, %d distinct words\n", (double)total / MIB,
		       j.v.n);
	else
		printf("input: Zipf text (s = %g, 50 000 made-up words, seed 977; calibration: s = 1, "
		       "other words, another seed), %.0f MiB, %d distinct words\n",
		       o->zipf_s > 0 ? o->zipf_s : 1.0, (double)total / MIB, j.v.n);
	sigaction(SIGPIPE, &ign, &old);
	if (pool_start(&p, &j, w, err, sizeof err)) {
		fprintf(stderr, "hetsim calibrate: %s\n", err);
		goto stop;
	}
	for (int k = 0; k <= reps; k++) {
		if (pool_run(&p, &span, ans[k])) {
			fprintf(stderr, "hetsim calibrate: a worker process failed\n");
			goto stop;
		}
		if (k == 0) {
			uint64_t a = 0, b = 0, c = 0;
			for (int m = 0; m < NMAPS; m++) {
				a += j.sh->map_words[m];
				b += j.sh->map_shuffled[m];
			}
			for (int r = 0; r < NREDUCES; r++)
				c += j.sh->red_total[r];
			if (a != b || a != c) {
				fprintf(stderr, "hetsim calibrate: word counts disagree: maps %llu, "
						"shuffled %llu, reduced %llu\n", (unsigned long long)a,
					(unsigned long long)b, (unsigned long long)c);
				goto stop;
			}
			printf("warm-up run %.3f s (not counted); %llu words counted, shuffled and "
			       "reduced\n", span, (unsigned long long)a);
		} else {
			runs[k - 1] = span;
			printf("  run %d: %.3f s\n", k, span);
		}
		fflush(stdout);
	}
	for (int r = 0; r < NREDUCES; r++)
		red_mib[r] = j.sh->red_bytes[r] / MIB;
	double v[MAX_REPEATS], vk[MAX_REPEATS];
	for (int t = 0; t < NMAPS + NREDUCES; t++) {
		for (int k = 0; k < reps; k++) {
			v[k] = ans[k + 1][t].total_s;
			vk[k] = ans[k + 1][t].kernel_s;
		}
		task_med[t][0] = median(v, reps);
		task_med[t][1] = median(vk, reps);
	}
	rc = 0;
stop:
	pool_stop(&p);
	sigaction(SIGPIPE, &old, NULL);
out:
	if (sh != MAP_FAILED)
		munmap(sh, shsize);
	free(ans);
	for (int i = 0; i < j.v.n; i++)
		free(j.v.w[i]);
	free(j.v.w);
	cal_wc_free(j.v.index);
	free(text);
	return rc;
}

/* The slowdown the twin's node applies with `busy` cores busy: as the
 * loader's busy curve for a WordCount (input/scn_cost.c), the largest
 * of the word count kernels' cpu contention entries at min(busy, its
 * largest k), 1 without any; *kmax gets the largest measured k (0:
 * none). */
static double twin_slowdown(const struct scn *s, int busy, int *kmax)
{
	double f = 1;
	*kmax = 0;
	for (int i = 0; i < s->cost.nkernels; i++) {
		const struct scn_cost_dev *d = scn_cost_device(&s->cost.kernels[i], "cpu");
		if (strcmp(s->cost.kernels[i].name, "wordcount_map") != 0 &&
		    strcmp(s->cost.kernels[i].name, "wordcount_reduce") != 0)
			continue;
		if (!d || !d->nslowdown)
			continue;
		int b = busy < d->nslowdown ? busy : d->nslowdown;
		f = fmax(f, d->slowdown[b - 1]);
		*kmax = d->nslowdown > *kmax ? d->nslowdown : *kmax;
	}
	return f;
}

/* The per-task view: the model's duration (alone) against the median
 * measured one. */
static void print_tasks(const double *split, const double *map_s, const double *red_s,
			const double *red_mib, double (*task_med)[2])
{
	printf("\n%-22s %10s %12s %12s %8s\n", "task", "model", "measured", "of which", "error");
	printf("%-22s %10s %12s %12s %8s\n", "", "(alone)", "(median)", "kernel", "");
	for (int t = 0; t < NMAPS + NREDUCES; t++) {
		double model = t < NMAPS ? map_s[t] : red_s[t - NMAPS], meas = task_med[t][0];
		char name[64];
		if (t < NMAPS)
			snprintf(name, sizeof name, "map %d (%.0f MiB)", t, split[t]);
		else
			snprintf(name, sizeof name, "reduce %d (%.2f MiB)", t - NMAPS,
				 red_mib[t - NMAPS]);
		printf("%-22s %8.1f ms %9.1f ms %9.1f ms %+7.1f%%\n", name, model * 1e3, meas * 1e3,
		       task_med[t][1] * 1e3, 100 * (model - meas) / meas);
	}
}

/* The verdict: PASS (0) or a miss (1), in the lines of --validate, or of
 * --fresh (o->fresh). */
static int verdict(const struct cal_val_opts *o, double e)
{
	bool pass = fabs(e) <= VAL_TARGET;
	if (o->fresh) {
		printf("%s: fresh model %s: error %+.1f %% %s the %.0f %% target\n",
		       pass ? "PASS" : "FAIL", o->model, 100 * e, pass ? "within" : "outside",
		       100 * VAL_TARGET);
	} else if (pass) {
		printf("PASS: |error| %.1f %% <= %.0f %%\n", 100 * fabs(e), 100 * VAL_TARGET);
	} else {
		fprintf(stderr, "hetsim calibrate: WARN: validation error %.1f %% above the %.0f %% "
				"target\n", 100 * fabs(e), 100 * VAL_TARGET);
	}
	return pass ? 0 : 1;
}

int cal_validate(const struct cal_val_opts *o)
{
	char err[1024], cpu[256];
	double map[2], red[2];
	int cores, w = o->workers, reps = o->repeats, kmax;
	const double *split = o->fresh ? fresh_mib : val_mib;
	cal_machine(cpu, sizeof cpu, &cores);
	if (w <= 0)
		w = cores > 0 ? cores : 1;
	if (w > MAX_WORKERS || reps < 1 || reps > MAX_REPEATS) {
		fprintf(stderr, "hetsim calibrate: --validate wants 1..%d workers and 1..%d repeats\n",
			MAX_WORKERS, MAX_REPEATS);
		return -1;
	}
	struct scn *model = load_model(o->model, err, sizeof err);
	if (!model || model_lines(model, o->model, map, red, err, sizeof err)) {
		fprintf(stderr, "hetsim calibrate: %s\n", err);
		scn_free(model);
		return -1;
	}
	double slow = twin_slowdown(model, w, &kmax);
	printf("hetsim calibrate --%s %s: %d maps (%s), %d reduces on %d worker "
	       "processes, %s (%d cores online)\n", o->fresh ? "fresh: validating" : "validate",
	       o->model, NMAPS, o->fresh ? "20 and 40 MiB splits" : "24 and 40 MiB splits",
	       NREDUCES, w, cpu, cores);
	printf("model: wordcount_map %.3f ms + %.4f ms/MiB, wordcount_reduce %.3f ms + "
	       "%.4f ms/MiB (not refitted; task_overhead not used)\n", map[0] * 1e3, map[1] * 1e3,
	       red[0] * 1e3, red[1] * 1e3);
	if (kmax)
		printf("contention: the twin's tasks run %.3f x slower with %d cores busy (the "
		       "word count kernels' largest slowdown, measured to k = %d%s)\n", slow, w, kmax,
		       w > kmax ? ", held beyond" : "");
	else
		printf("contention: none in the model (tasks as alone)\n");
	fflush(stdout);
	char busy[512];
	if (cal_load_busy(cal_val_hook != NULL, busy, sizeof busy))
		fprintf(stderr, "hetsim calibrate: warning: the machine is busy (%s): the measured "
				"makespans will measure that work too, not this machine alone\n", busy);
	double ref[2]; /* the model's reference speed (0: not compared) and this machine's */
	int mismatch = cal_ref_warn(&model->cost.meta, o->model, ref); /* warns; goes on */
	scn_free(model);

	double runs[MAX_REPEATS], red_mib[NREDUCES], task_med[NMAPS + NREDUCES][2];
	if (cal_val_hook ? cal_val_hook(o, w, split, runs, red_mib)
			 : run_real(o, w, reps, split, runs, red_mib, task_med))
		return -1;
	double ratio = 0; /* this machine's reference speed over the model's around the runs
			     (the geometric mean of before and after); 0: not compared */
	if (ref[0] > 0) {
		/* The machine again after the runs: a drift during them shows,
		 * and the diagnostic below takes the geometric mean of both. */
		double after = cal_ref_speed(CAL_REF_RUNS);
		double moved = after / ref[1] - 1;
		printf("machine after the runs: reference %.1f MiB/s, %+.1f %% from %.1f before "
		       "them\n", after, 100 * moved, ref[1]);
		if (fabs(moved) > CAL_REF_TOLERANCE + 1e-9)
			fprintf(stderr, "hetsim calibrate: warning: this machine's reference speed "
				"moved %+.1f %% during the runs (more than %.0f %%): the measured "
				"makespans mix its speeds\n", 100 * moved, 100 * CAL_REF_TOLERANCE);
		ratio = sqrt(ref[1] * after) / ref[0];
	}

	/* the twin */
	double map_s[NMAPS], red_s[NREDUCES], sim;
	for (int m = 0; m < NMAPS; m++)
		map_s[m] = map[0] + map[1] * split[m];
	for (int r = 0; r < NREDUCES; r++)
		red_s[r] = red[0] + red[1] * red_mib[r];
	if (cal_val_twin(NULL, o->model, w, map_s, NMAPS, red_s, NREDUCES, &sim, err,
			 sizeof err)) {
		fprintf(stderr, "hetsim calibrate: %s\n", err);
		return -1;
	}
	if (!cal_val_hook)
		print_tasks(split, map_s, red_s, red_mib, task_med);

	double med = median(runs, reps), lo = runs[0], hi = runs[0];
	for (int k = 1; k < reps; k++) {
		lo = fmin(lo, runs[k]);
		hi = fmax(hi, runs[k]);
	}
	double e = (sim - med) / med;
	printf("\nmeasured makespan: median %.3f s (min %.3f, max %.3f, %d runs)\n"
	       "simulated makespan: %.3f s\nerror (simulated - measured) / measured: %+.1f %%\n",
	       med, lo, hi, reps, sim, 100 * e);
	if (ratio > 0 && (mismatch || fabs(ratio - 1) > CAL_REF_TOLERANCE + 1e-9)) {
		/* Every task of the twin scaled by the speeds' ratio scales its
		 * makespan by it (a list schedule, no fixed overheads), so the
		 * twin need not run again. */
		double es = (sim / ratio - med) / med;
		printf("at this machine's reference speed (%.3f x the model's, before and after the "
		       "runs): simulated %.3f s, error %+.1f %% (a diagnostic, not the verdict: it "
		       "assumes every task slows as the reference kernel does)\n", ratio, sim / ratio,
		       100 * es);
	}
	if (o->csv) {
		if (write_csv(o->csv, runs, reps, sim, err, sizeof err)) {
			fprintf(stderr, "hetsim calibrate: %s\n", err);
			return -1;
		}
		printf("wrote %s\n", o->csv);
	}
	return verdict(o, e);
}
