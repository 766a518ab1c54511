/* trace_tiresias.c - the job table of Tiresias's simulator
 * (SymbioticLab/Tiresias, simulator/: its 60_job.csv and the README's
 * "job trace" section): CSV with a header row, columns found by name.
 * Read as the simulator reads it (run_sim.py parse_job_file, jobs.py
 * _TFJobs.add_job), a row a job:
 *
 *   id         job_id, a whole number (what its job.csv logs)
 *   GPUs       num_gpu, a whole number: that many executors of one GPU,
 *              a task each, all at once (the simulator counts GPUs one
 *              by one, wherever they are: docs/policies/tiresias-
 *              reference.md)
 *   arrival    submit_time, whole seconds (the simulator keeps a value
 *              that is not all digits as a string, which its sorts then
 *              misorder: an error here)
 *   run time   duration, s, truncated (int(float(...)))
 *
 * Each executor has the trace's executor cores (default 1) and memory
 * (default 1 GiB): the simulator counts neither.  iterations,
 * model_name and interval do not change its schedule and are dropped.
 * A value that is not a number, a row of the wrong length or a missing
 * required column is an error naming it; skipped and counted: a
 * negative duration (negative-time), num_gpu 0 (no-demand), above the
 * kernel's limits (too-big).  Rows come sorted by submission in the
 * simulator's traces, but need not: the import's sort is stable, as the
 * simulator's sort_all_jobs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "util.h"
#include "zread.h"

enum { C_ID, C_GPU, C_SUBMIT, C_DUR, C_N };
static const char *const cols[C_N] = {"job_id", "num_gpu", "submit_time", "duration"};

/* A whole number of at most 10 digits (a sign allowed, for the skip
 * rules' messages): 0 with *v, or an error naming the column. */
static int whole(struct tr_build *b, const struct tr_field *f, int k, double *v)
{
	if (tr_number(f, v) < 0 || *v != floor(*v) || fabs(*v) > 9999999999.0)
		return tr_fail(b, f->col, "%s '%s' is not a whole number of at most 10 digits",
			       cols[k], TR_VAL(f));
	return 0;
}

static int job_row(struct tr_build *b, const void *ctx, const struct tr_field *f)
{
	const int *at = ctx;
	const struct tr_field *fid = &f[at[C_ID]], *fg = &f[at[C_GPU]],
			      *fsub = &f[at[C_SUBMIT]], *fdur = &f[at[C_DUR]];
	double id, gpus, sub, dur;
	if (whole(b, fid, C_ID, &id) < 0 || whole(b, fg, C_GPU, &gpus) < 0 ||
	    whole(b, fsub, C_SUBMIT, &sub) < 0)
		return -1;
	if (fabs(id) > INT32_MAX)
		return tr_fail(b, fid->col, "job_id '%s' is out of range", TR_VAL(fid));
	if (tr_number(fdur, &dur) < 0 || !(fabs(dur) < 1e11))
		return tr_fail(b, fdur->col, "duration '%s' is not a number of seconds", TR_VAL(fdur));
	int64_t submit_us = (int64_t)sub * 1000000;
	if (submit_us >= 0)
		tr_seen(b, submit_us);
	if (submit_us < 0)
		return tr_skip(b, TRS_NEG_TIME, fsub->col, "submit_time %s is negative", TR_VAL(fsub));
	int64_t run = (int64_t)trunc(dur); /* int(float(duration)) */
	if (run < 0)
		return tr_skip(b, TRS_NEG_TIME, fdur->col, "duration %s is negative", TR_VAL(fdur));
	if (gpus < 1)
		return tr_skip(b, TRS_NO_DEMAND, fg->col, "num_gpu %s: the job asks for no GPU",
			       TR_VAL(fg));
	if (gpus > SCN_MAX_EXECUTORS)
		return tr_skip(b, TRS_TOO_BIG, fg->col, "num_gpu %s: above the limit of %d executors",
			       TR_VAL(fg), SCN_MAX_EXECUTORS);
	const struct trace_opts *o = tr_opts(b);
	int cores = o->exec_cores > 0 ? o->exec_cores : 1;
	struct scn_trace_shape sh = {
		.nroles = 1, .tasks = (int)gpus,
		.role[0] = {.count = (int)gpus, .slots = 1, .cpu_milli = cores * 1000,
			    .mem_mib = o->exec_mem_mib > 0 ? o->exec_mem_mib : 1024, .gpus = 1}};
	return tr_add(b, (int32_t)id, submit_us, run * 1000000, -1, &sh, NULL, NULL, NULL) < 0
		       ? -1 : 0;
}

static int tiresias_jobs(struct tr_build *b, struct zr *in)
{
	int at[C_N], ncols;
	if (tr_csv_header(b, in, "a Tiresias job trace", cols, C_N, C_N, at, &ncols) < 0)
		return -1;
	return tr_csv_rows(b, in, ncols, job_row, at);
}

/* The header's first columns as the simulator's traces have them. */
static bool tiresias_detect(const char *head, size_t n)
{
	return tr_csv_starts(head, n, "job_id,num_gpu,submit_time,");
}

const struct trace_format tf_tiresias = {
	.name = "tiresias-sim",
	.what = "Tiresias's simulator's job trace (CSV with a header: job_id, num_gpu, "
		"submit_time, ..., duration)",
	.detect = tiresias_detect,
	.jobs = tiresias_jobs,
};
