/* harness.h - running scenario files inside tests. */
#ifndef HETSIM_HARNESS_H
#define HETSIM_HARNESS_H

#include <stddef.h>
#include <stdint.h>

struct scn;
struct sim;
struct sim_job;
struct sim_exec;

/* Load a scenario (CU_FAIL on error: the message is printed). */
struct scn *h_load(const char *path);
/* Run replication `rep` of `path` under the scenario's policy entry
 * named `policy`.  *scn_out receives the scenario; free both with h_done. */
struct sim *h_run(const char *path, const char *policy, int rep, struct scn **scn_out);
void h_done(struct sim *s, struct scn *scn);
/* h_run with the scenario's first policy entry run by `ops` (a
 * test-only policy). */
struct policy_ops;
struct sim *h_run_ops(const char *path, const struct policy_ops *ops, int rep,
		      struct scn **scn_out);

/* Run replication `rep` of a scenario already loaded (and maybe changed
 * by the test) under its policy entry `policy` (index); free the sim
 * with sim_free, the scenario with scn_free (or both with h_done). */
struct sim *h_run_loaded(struct scn *scn, int policy, int rep);

/* Executor `id` (launch order) of the last run started with h_run, as
 * the engine released it; NULL if there is no such executor. */
const struct sim_exec *h_exec(int id);
int h_nexecs(void);

/* The job of group `group` with index `idx` in a finished run, or NULL. */
const struct sim_job *h_job(const struct sim *s, const char *group, int idx);
/* Executors job j had, over the run (every role, AMs included). */
int h_job_execs(const struct sim_job *j);
/* Node names of a job's executors, comma-separated, in launch order. */
const char *h_exec_nodes(const struct sim *s, const struct sim_job *j, char *buf, int len);
/* Makespan of a run in µs. */
int64_t h_makespan(const struct sim *s);
/* Remove a temporary folder and what is in it; 0 on success. */
int h_rmtree(const char *dir);
/* Whole file into a malloc'ed string (NULL if unreadable). */
char *h_slurp(const char *path, long *len);
/* What is under dir, as malloc'ed text: a line per file or folder, in
 * name order, "PATH SIZE HASH" for a file (FNV-1a of its bytes), "PATH/"
 * for a folder, PATH relative to dir; "" for an empty folder, "(none)"
 * if dir is not there.  Two listings are equal when nothing under dir
 * was added, removed or changed. */
char *h_tree(const char *dir);

/* The file at path (made, or emptied) holding text; a failed write
 * fails the test. */
void h_write_file(const char *path, const char *text);
/* A new temporary file (/tmp/hetsim-tmp-XXXXXX) holding text ("": an
 * empty file, a path for a writer to fill); its path into buf (len bytes,
 * at least 23).  The caller removes it.  A failed write fails the test. */
void h_write_tmp(char *buf, size_t len, const char *text);
/* A file at path holding text compressed with zstd (level 3); a failed
 * write fails the test. */
void h_put_zst(const char *path, const char *text);

/* Call fn(argc, argv) with ARGS split at spaces as its argv, stdout
 * and stderr captured into *out and *err (malloc'ed; err NULL: stderr
 * goes into *out too, in the order written); its return value. */
int h_call(int (*fn)(int argc, char **argv), const char *args, char **out, char **err);
/* h_call of cmd_main with "hetsim ARGS". */
int h_hetsim(const char *args, char **out, char **err);

/* How h_hetsim_child runs its child; fields left zero: as they are. */
struct h_child {
	int alarm_s;          /* SIGALRM ends it after this many s (0: 60 s;
				 < 0: no alarm) */
	long long fsize;      /* RLIMIT_FSIZE: its files' limit, bytes (0: not set) */
	const char *in;       /* its standard input from this file (NULL: inherited) */
	long maxrss_kib;      /* out: its peak resident set, KiB */
};
/* cmd_main with "hetsim ARGS" (split at spaces) in a forked child, so
 * that a fault, an exit or a limit ends only it: its standard output
 * into /dev/null, its standard error into *err (malloc'ed).  Its exit
 * status, or 128 + the signal that ended it (SIGALRM for one that hung:
 * a test failure, not a hang); 125 if `in` cannot be opened, 126 if the
 * limit cannot be set.  o may be NULL. */
int h_hetsim_child(const char *args, struct h_child *o, char **err);

/* Loading scenario text `yaml` (written to a temporary file) fails with
 * that file's path then `msg` (":LINE:COL: ..."): a CUnit assertion,
 * with the message got printed when it differs. */
void h_expect_load_error(const char *yaml, const char *msg);
/* Job j ended with status st at end_us, for reason `why` (jobs.csv's
 * name of it; "" for a job done). */
void h_expect_end(const struct sim *s, const struct sim_job *j, int st, int64_t end_us,
		  const char *why);

#define S(x) ((int64_t)((x) * 1000000.0 + 0.5)) /* seconds -> µs, for expected values */

#endif
