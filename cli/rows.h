/* rows.h - the runs.csv row of one finished run, shared by `hetsim run`
 * and `hetsim sweep` (docs/output.md defines every column).
 *
 * A caller writes its own leading columns (run: scenario,policy; sweep:
 * scenario,policy,point,<axes>), then ROWS_RUN_HEADER / rows_run(): the
 * columns from `replication` to the end of the line.
 */
#ifndef HETSIM_ROWS_H
#define HETSIM_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "models.h"   /* JM_MODELS */
#include "scenario.h"
#include "util.h"     /* WR_FIXED_MAX */

struct scn;
struct met_run;

/* The header of the columns rows_run() writes, newline included. */
#define ROWS_RUN_HEADER                                                             \
	"replication,seed,jobs,counted,done,failed,timed_out,unplaceable,makespan_s,"   \
	"jct_mean_s,jct_p50_s,jct_p95_s,jct_p99_s,wait_mean_s,cpu_util,gpu_util,"      \
	"cpu_alloc,gpu_alloc,events,decisions,jct_mean_wordcount_s,"                    \
	"jct_mean_mnist_spark_s,jct_mean_synthetic_s,jct_mean_angel_s\n"

/* The first metric column of ROWS_RUN_HEADER: this one and every column
 * after it are numbers (or empty), the ones a sweep summarises (the job
 * counts by status first, then makespan_s ...). */
#define ROWS_FIRST_METRIC "done"

/* Write "replication,seed,...,jct_mean_angel_s\n" for replication `rep`
 * of scenario `sc` that measured `m`; rows_run_buf writes it into buf
 * (room for ROWS_RUN_MAX characters, no NUL) and returns its length. */
void rows_run(FILE *f, const struct scn *sc, int rep, const struct met_run *m);
size_t rows_run_buf(char *buf, const struct scn *sc, int rep, const struct met_run *m);

/* timing.csv: what a run cost in wall-clock time (docs/output.md).  These
 * figures differ from run to run, so they stay out of runs.csv, which is
 * byte-identical for the same seed. */
#define ROWS_TIMING_HEADER "replication,wall_s,policy_s,decisions,policy_us_per_decision\n"

struct sim_totals;

/* Write "replication,wall_s,...\n": `wall_s` from sim_new to the end of
 * sim_run; policy_s, the part inside the policy's hooks (t->policy_ns). */
void rows_timing(FILE *f, int rep, double wall_s, const struct sim_totals *t);
size_t rows_timing_buf(char *buf, int rep, double wall_s, const struct sim_totals *t);

/* Room for a row of each (8 integers, 2 counts and 14 reals of at most
 * WR_FIXED_MAX characters, or 3 reals and 2 integers). */
#define ROWS_RUN_MAX (32 * 12 + (WR_FIXED_MAX + 1) * (10 + JM_MODELS))
#define ROWS_TIMING_MAX (32 * 2 + (WR_FIXED_MAX + 1) * 3)

/* Result files written whole or not at all: rows_files_open() creates the
 * folder if needed and opens every file as NAME.tmp; rows_files_close()
 * renames them into place only if `ok` and every file was written without
 * error, and removes the temporary files otherwise.  Messages name the
 * command (`cmd`: "run", "sweep") and the file. */
struct rows_files {
	const char *cmd;           /* for messages */
	const char *dir;           /* the folder */
	const char *const *names;  /* file names, n of them */
	int n;                     /* at most 4 */
	FILE *f[4];                /* open files, by name index */
};
int rows_files_open(struct rows_files *o);
int rows_files_close(struct rows_files *o, bool ok);

/* mkdir -p; 0, or -1 with errno set. */
int rows_mkdirs(const char *dir);

/* Whether any job group of s requires or prefers node labels (a policy
 * that ignores labels then says so once). */
bool rows_scenario_has_labels(const struct scn *s);

#endif
