/* rows.h - the runs.csv row of one finished run, shared by `hetsim run`
 * and `hetsim sweep` (docs/output.md defines every column).
 *
 * A caller writes its own leading columns (run: scenario,policy; sweep:
 * scenario,policy,point,<axes>), then ROWS_RUN_HEADER / rows_run(): the
 * columns from `replication` to the end of the line.
 */
#ifndef HETSIM_ROWS_H
#define HETSIM_ROWS_H

#include <stdio.h>

struct scn;
struct met_run;

/* The header of the columns rows_run() writes, newline included. */
#define ROWS_RUN_HEADER                                                             \
	"replication,seed,jobs,counted,done,failed,timed_out,unplaceable,makespan_s,"   \
	"jct_mean_s,jct_p50_s,jct_p95_s,jct_p99_s,wait_mean_s,cpu_util,gpu_util,"      \
	"cpu_alloc,gpu_alloc,events,decisions,jct_mean_wordcount_s,"                    \
	"jct_mean_mnist_spark_s,jct_mean_synthetic_s,jct_mean_angel_s\n"

/* The first metric column of ROWS_RUN_HEADER: this one and every column
 * after it are numbers (or empty), the ones a sweep summarises. */
#define ROWS_FIRST_METRIC "makespan_s"

/* Write "replication,seed,...,jct_mean_angel_s\n" for replication `rep`
 * of scenario `sc` that measured `m`. */
void rows_run(FILE *f, const struct scn *sc, int rep, const struct met_run *m);

#endif
