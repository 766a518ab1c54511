/* trace_paisim.c - the job table of the Alibaba PAI simulator
 * (alibaba/clusterdata, cluster-trace-gpu-v2020/simulator: its input,
 * traces/pai/pai_job_duration_estimate_100K.csv and
 * pai_job_no_estimate_100K.csv): CSV with a header row, columns found by
 * name.  Read as the simulator reads it (utils.py _add_job), a row a job:
 *
 *   id         job_id, a whole number (the simulator breaks its sorts'
 *              ties by it)
 *   instances  num_inst executors (empty: 1), a task each, all at once
 *   arrival    submit_time, s, rounded half to even (Python's round)
 *   CPU        num_cpu cores an instance, in hundredths rounded half to
 *              even (the simulator's percent units), as milli-cores
 *   GPU        num_gpu an instance, in hundredths likewise: 0 none;
 *              below 1 a share of that many milli-GPUs; whole GPUs when
 *              a multiple of 1; else rounded up to whole GPUs (clamped)
 *   run time   duration, s, truncated (int(float(...))); 0 or less
 *              becomes 1 s, as the simulator's "duration == 0" fix
 *              (clamped)
 *   estimate   the column the trace's `estimate` names (user_dur,
 *              group_dur, group_gpu_dur ...), s: the job's requested
 *              time (sjf, srtf, easy); empty: none
 *   user       user; kind gpu_type (the GPU type the job ran on, not a
 *              constraint: the simulator's default ignores it)
 *
 * Memory is not in the table: each executor gets the trace's
 * executor.memory.  The other columns are dropped.  Required: job_id,
 * submit_time, num_cpu, num_gpu, duration.  An empty num_cpu or num_gpu
 * is 0 (the simulator's default); a value that is not a number, a row of
 * the wrong length or a missing required value is an error naming it.
 * Skipped and counted: a negative demand or time (no-demand,
 * negative-time), a job asking for nothing, above the kernel's limits
 * (too-big).  The table is not sorted by submission.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "util.h"
#include "zread.h"

/* The required columns first (tr_csv_header's nreq), the estimate's
 * name the trace's. */
enum { C_ID, C_SUBMIT, C_CPU, C_GPU, C_DUR, C_NREQ, C_INST = C_NREQ, C_USER, C_TYPE, C_EST,
       C_N };
static const char *const cols[C_N] = {"job_id", "submit_time", "num_cpu", "num_gpu",
				      "duration", "num_inst", "user", "gpu_type", NULL};

/* A demand in hundredths an instance, as the simulator rounds it:
 * round(100 * float(v)), half to even. */
static int hundredths(struct tr_build *b, const struct tr_field *f, int k, int64_t *out)
{
	double v = 0;
	if (f->len && tr_number(f, &v) < 0)
		return tr_fail(b, f->col, "%s '%s' is not a number", cols[k], TR_VAL(f));
	double h = nearbyint(100.0 * v);
	if (!(fabs(h) < 1e15))
		return tr_fail(b, f->col, "%s '%s' is out of range", cols[k], TR_VAL(f));
	*out = (int64_t)h;
	return 0;
}

static int job_row(struct tr_build *b, const void *ctx, const struct tr_field *f)
{
	const int *at = ctx;
	const struct tr_field *fid = &f[at[C_ID]], *fsub = &f[at[C_SUBMIT]],
			      *fdur = &f[at[C_DUR]];
	double id, sub, dur, inst = 1;
	if (tr_number(fid, &id) < 0 || id != floor(id) || fabs(id) > INT32_MAX)
		return tr_fail(b, fid->col, "job_id '%s' is not a whole number of at most 10 digits",
			       TR_VAL(fid));
	if (tr_number(fsub, &sub) < 0 || !(fabs(sub) < 1e11))
		return tr_fail(b, fsub->col, "submit_time '%s' is not a number of seconds",
			       TR_VAL(fsub));
	if (tr_number(fdur, &dur) < 0 || !(fabs(dur) < 1e11))
		return tr_fail(b, fdur->col, "duration '%s' is not a number of seconds", TR_VAL(fdur));
	if (at[C_INST] >= 0 && f[at[C_INST]].len) {
		const struct tr_field *fi = &f[at[C_INST]];
		if (tr_number(fi, &inst) < 0 || !(fabs(inst) < 1e9))
			return tr_fail(b, fi->col, "num_inst '%s' is not a number", TR_VAL(fi));
		inst = nearbyint(inst);
	}
	int64_t cpu, gpu;
	if (hundredths(b, &f[at[C_CPU]], C_CPU, &cpu) < 0 ||
	    hundredths(b, &f[at[C_GPU]], C_GPU, &gpu) < 0)
		return -1;
	int64_t req = -1;
	if (at[C_EST] >= 0 && f[at[C_EST]].len) {
		const struct tr_field *fe = &f[at[C_EST]];
		double e;
		if (tr_number(fe, &e) < 0 || !(fabs(e) < 1e11))
			return tr_fail(b, fe->col, "%s '%s' is not a number of seconds",
				       tr_opts(b)->estimate, TR_VAL(fe));
		req = e >= 0 ? llround(e * 1e6) : -1; /* 0: a valid estimate (first in an SJF) */
	}
	int64_t submit_us = (int64_t)nearbyint(sub) * 1000000;
	if (submit_us >= 0) /* the clock, whatever the checks below leave out */
		tr_seen(b, submit_us);
	if (submit_us < 0)
		return tr_skip(b, TRS_NEG_TIME, fsub->col, "submit_time %s is negative", TR_VAL(fsub));
	if (cpu < 0 || gpu < 0 || inst < 1) {
		int k = cpu < 0 ? C_CPU : gpu < 0 ? C_GPU : C_INST;
		return tr_skip(b, TRS_NO_DEMAND, f[at[k]].col, "%s %s is below %s", cols[k],
			       TR_VAL(&f[at[k]]), k == C_INST ? "1" : "0");
	}
	if (!cpu && !gpu)
		return tr_skip(b, TRS_NO_DEMAND, f[at[C_CPU]].col, "the job asks for nothing "
			       "(num_cpu and num_gpu 0)");
	int64_t gpus = gpu % 100 == 0 ? gpu / 100 : gpu > 100 ? (gpu + 99) / 100 : 0;
	if (cpu * 10 > (int64_t)SCN_MAX_CORES * 1000 || gpus > SCN_MAX_GPUS ||
	    inst > SCN_MAX_EXECUTORS) {
		int k = cpu * 10 > (int64_t)SCN_MAX_CORES * 1000 ? C_CPU : gpus > SCN_MAX_GPUS ? C_GPU
			: C_INST;
		return tr_skip(b, TRS_TOO_BIG, f[at[k] >= 0 ? at[k] : 0].col,
			       "%s %s: above the limit", cols[k],
			       at[k] >= 0 ? TR_VAL(&f[at[k]]) : "?");
	}
	const struct trace_opts *o = tr_opts(b);
	struct scn_trace_shape sh = {
		.nroles = 1, .tasks = (int)inst,
		.role[0] = {.count = (int)inst, .slots = 1, .cpu_milli = (int)(cpu * 10),
			    .mem_mib = o->exec_mem_mib > 0 ? o->exec_mem_mib : 1024,
			    .gpus = (int)gpus, .gpu_milli = gpus ? 0 : (int)(gpu * 10)}};
	if (gpu % 100 && gpu > 100 &&
	    tr_clamp(b, f[at[C_GPU]].col, "num_gpu %s an instance: %lld whole GPUs",
		     TR_VAL(&f[at[C_GPU]]), (long long)gpus) < 0)
		return -1;
	int64_t run = (int64_t)trunc(dur);
	if (run <= 0) {
		if (tr_clamp(b, fdur->col, "duration %s: 1 s (the simulator's rule)", TR_VAL(fdur)) < 0)
			return -1;
		run = 1;
	}
	const struct tr_field *fu = at[C_USER] >= 0 ? &f[at[C_USER]] : NULL;
	const struct tr_field *ft = at[C_TYPE] >= 0 ? &f[at[C_TYPE]] : NULL;
	return tr_add(b, (int32_t)id, submit_us, run * 1000000, req, &sh,
		      fu && fu->len ? fu->s : NULL, NULL, ft && ft->len ? ft->s : NULL) < 0 ? -1 : 0;
}

static int paisim_jobs(struct tr_build *b, struct zr *in)
{
	const char *est = tr_opts(b)->estimate, *names[C_N];
	memcpy(names, cols, sizeof names);
	names[C_EST] = est;
	int at[C_N], ncols;
	if (tr_csv_header(b, in, "a PAI simulator job table", names, C_N, C_NREQ, at, &ncols) < 0)
		return -1;
	if (est && at[C_EST] < 0)
		return tr_at(b, 1), tr_fail(b, 1, "no column '%s' in the header (the trace's estimate)",
					    est);
	return tr_csv_rows(b, in, ncols, job_row, at);
}

/* The header's first columns as the simulator's tables have them. */
static bool paisim_detect(const char *head, size_t n)
{
	return tr_csv_starts(head, n, "job_id,num_inst,submit_time,");
}

const struct trace_format tf_paisim = {
	.name = "alibaba-pai-sim",
	.what = "the Alibaba PAI simulator's job table (CSV with a header: job_id, num_inst, "
		"submit_time, num_cpu, num_gpu, duration, user, estimates)",
	.detect = paisim_detect,
	.jobs = paisim_jobs,
	.estimates = true,
};
