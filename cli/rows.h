/* rows.h - the runs.csv and types.csv rows of one finished run, shared by
 * `hetsim run` and `hetsim sweep` (docs/output.md defines every column).
 *
 * A caller writes its own leading columns (run: scenario,policy; sweep:
 * scenario,policy,point,<axes>), then ROWS_RUN_HEADER / rows_run(): the
 * columns from `replication` to the end of the line; the same for
 * ROWS_TYPES_HEADER / rows_types(), before each of the run's rows.
 */
#ifndef HETSIM_ROWS_H
#define HETSIM_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "models.h"   /* JM_MODELS, jm_name */
#include "scenario.h"
#include "util.h"     /* WR_FIXED_MAX */

struct scn;
struct met_run;

/* The header of the columns rows_run() writes, newline included. */
#define ROWS_RUN_HEADER                                                             \
	"replication,seed,jobs,counted,done,failed,timed_out,unplaceable,makespan_s,"   \
	"jct_mean_s,jct_p50_s,jct_p95_s,jct_p99_s,wait_mean_s,slowdown_mean,"         \
	"slowdown_p50,slowdown_p95,slowdown_p99,bsld_mean,bsld_p50,bsld_p95,bsld_p99," \
	"cpu_util,gpu_util,"                                                           \
	"cpu_alloc,gpu_alloc,events,decisions,lost_core_s,lost_gpu_s,tasks_retried,"    \
	"execs_lost,preemptions,node_availability,spec_launched,spec_won,done_set\n"

/* The first metric column of ROWS_RUN_HEADER: this one and every column
 * after it up to ROWS_LAST_METRIC are numbers (or empty), the ones a
 * sweep summarises (the job counts by status first, then makespan_s
 * ...); done_set, last, is the jobs done as a set (met_run.done_set, 16
 * hex digits), compared, never summed. */
#define ROWS_FIRST_METRIC "done"
#define ROWS_LAST_METRIC "spec_won"

/* Write "replication,seed,...,decisions\n" for replication `rep`
 * of scenario `sc` that measured `m`; rows_run_buf writes it into buf
 * (room for ROWS_RUN_MAX characters, no NUL) and returns its length. */
void rows_run(FILE *f, const struct scn *sc, int rep, const struct met_run *m);
size_t rows_run_buf(char *buf, const struct scn *sc, int rep, const struct met_run *m);

/* types.csv: the figures of the jobs of each job model the run has (its
 * scenario has a job group of), one row per model, in registry order
 * (docs/output.md).  The same columns as runs.csv's where they have the
 * same name; the model is jm_name()'s. */
#define ROWS_TYPES_HEADER                                                           \
	"replication,model,jobs,counted,done,failed,timed_out,unplaceable,jct_mean_s," \
	"jct_p50_s,jct_p95_s,jct_p99_s,wait_mean_s\n"

/* Write "replication,model,...,wait_mean_s\n" for each model of the run
 * `m` of replication `rep` (m->type[t].jobs > 0), each after `lead` (the
 * caller's leading columns and their comma, or "").  rows_types_buf
 * writes the rows without a lead into buf (room for ROWS_TYPES_MAX
 * characters, no NUL) and returns their length. */
void rows_types(FILE *f, const char *lead, int rep, const struct met_run *m);
size_t rows_types_buf(char *buf, int rep, const struct met_run *m);

/* timing.csv: what a run cost in wall-clock time (docs/output.md).  These
 * figures differ from run to run, so they stay out of runs.csv, which is
 * byte-identical for the same seed. */
#define ROWS_TIMING_HEADER "replication,wall_s,policy_s,decisions,policy_us_per_decision\n"

struct sim_totals;

/* Write "replication,wall_s,...\n": `wall_s` from sim_new to the end of
 * sim_run; policy_s, the part inside the policy's hooks (t->policy_ns). */
void rows_timing(FILE *f, int rep, double wall_s, const struct sim_totals *t);
size_t rows_timing_buf(char *buf, int rep, double wall_s, const struct sim_totals *t);

/* Room for a row of each (10 integers and 10 reals of at most
 * WR_FIXED_MAX characters; a model's name, 6 integers and 5 reals, for
 * each model; 3 reals and 2 integers).  A model's name has at most
 * ROWS_MODEL_NAME_MAX characters. */
#define ROWS_MODEL_NAME_MAX 64
#define ROWS_RUN_MAX (32 * 16 + (WR_FIXED_MAX + 1) * 21)
#define ROWS_TYPE_MAX (ROWS_MODEL_NAME_MAX + 32 * 7 + (WR_FIXED_MAX + 1) * 5)
#define ROWS_TYPES_MAX (ROWS_TYPE_MAX * JM_MODELS)
#define ROWS_TIMING_MAX (32 * 2 + (WR_FIXED_MAX + 1) * 3)

/* Result files written whole or not at all: rows_files_open() creates the
 * folder if needed and opens every file as NAME.tmp; rows_files_close()
 * renames them into place only if `ok` and every file was written without
 * error, and removes the temporary files otherwise.  Messages name the
 * command (`cmd`: "run", "sweep") and the file. */
#define ROWS_FILES_MAX 8
struct rows_files {
	const char *cmd;           /* for messages */
	const char *dir;           /* the folder */
	const char *const *names;  /* file names, n of them */
	int n;                     /* at most ROWS_FILES_MAX */
	FILE *f[ROWS_FILES_MAX];   /* open files, by name index */
	bool made;                 /* rows_files_open made the folder: a set
				      that fails takes it away again */
	/* what a fault would remove (guard.h): each .tmp, and each folder
	 * of the path rows_files_open made (a set that fails removes them
	 * too); -1: none */
	int tmp_slot[ROWS_FILES_MAX + 1];
	int dir_slot[32];
	int dir_len[32];           /* each made folder: the length of dir's
				      prefix that names it */
	int ndirs;
};
int rows_files_open(struct rows_files *o);
/* Close the set; when ok, commit it: each .tmp renamed into place, the
 * manifest (each file and its size) last, the old file of each name
 * moved aside first and put back if a later step fails, so that a failed
 * commit leaves the old set as it was; then the files the old manifest
 * listed that this set does not write removed (a sweep into a run's
 * folder: the run's jobs.csv and executors.csv go; files no manifest
 * lists stay).  Not ok: every .tmp removed, the old files as they were.
 * 0, or -1 (said). */
int rows_files_close(struct rows_files *o, bool ok);
/* Commit n files as one set: in order, the old dst[i] (if any) moved
 * aside to .NAME.hetsim-old beside it, then tmp[i] renamed to dst[i]; a
 * step that fails undoes every step before it, the last first (each old
 * file back under its name, each new one removed) and removes the
 * tmp files left, so the old files are as they were; after the last,
 * the old files moved aside are removed.  0, or -1 (said, one line per
 * failure, naming `hetsim CMD`). */
int rows_commit(const char *cmd, char *const *tmp, char *const *dst, int n);
/* A result set's manifest, if it has one: whether each file it lists is
 * there with its size.  0, or -1 with one line "DIR/manifest.csv:LINE:1:
 * ..." in err (a set cut short, half new and half old). */
#define ROWS_MANIFEST "manifest.csv"
int rows_check_set(const char *dir, char *err, size_t errlen);

/* mkdir -p; 0, or -1 with errno set. */
int rows_mkdirs(const char *dir);

/* Whether any job group of s requires or prefers node labels (a policy
 * that ignores labels then says so once). */
bool rows_scenario_has_labels(const struct scn *s);

#endif
