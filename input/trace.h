/* trace.h - the trace importers (trace_ prefix): real traces into the
 * compact job table of scenario/scn_trace.h, and clusters from the node
 * lists traces carry.
 *
 * Every importer streams its file (input/zread.h: plain or zstd) and
 * hands each record to a builder, which applies the scenario's filters
 * (time window, first N jobs, users, queues) and time scale, lists each
 * distinct demand once, and counts what it leaves out by reason.  One
 * rule for bad records, the scenario loader's (docs/traces.md, "Bad
 * records"):
 *
 *   - a record that cannot be read (not parseable, a required field
 *     missing) is an error "file:line:col: message" naming the value,
 *     and the import fails, leaving nothing allocated;
 *   - a record that reads but makes no sense (a negative time, no run
 *     time, a demand of nothing, a job larger than the cluster, a GPU
 *     model the cluster lacks) is skipped, or clamped where the format's
 *     rule says so, and counted by reason (scn_trace.skipped, .clamped):
 *     the caller prints one warning line, and the import succeeds;
 *   - with `strict`, the first such record is an error instead, with
 *     its file and line.
 *
 * Module: input/.  Includes scenario/ and sim/ (util.h; rng.h for the
 * offer-only shuffle) only.
 */
#ifndef HETSIM_INPUT_TRACE_H
#define HETSIM_INPUT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario.h"
#include "scn_trace.h"

/* How a trace becomes jobs: the scenario's `trace:` keys. */
struct trace_opts {
	const char *format;     /* a trace_format name; NULL: detected */
	int64_t from_us;        /* keep jobs submitted at or after this, in the
				   trace's own time from its first record */
	int64_t to_us;          /* ... and before this; 0: no end */
	int64_t first;          /* then at most this many jobs; 0: all */
	const char *const *users; int nusers;   /* keep only these; none: all */
	const char *const *queues; int nqueues; /* the same for queues */
	const char *const *kinds; int nkinds;   /* ... and job kinds */
	bool users_not, queues_not, kinds_not;  /* keep all but those listed */
	double time_scale;      /* arrivals and run times × this; 0 means 1 */
	int exec_cores;         /* SWF: processors per executor (default 1) */
	int64_t exec_mem_mib;   /* memory per executor where the trace gives
				   none; 0: 1024 MiB */
	bool completed_only;    /* keep only jobs whose status says they
				   completed (the others: TRS_STATUS) */
	bool strict;            /* inconsistent records are errors */
	bool drop_nonpositive;  /* leave out a job whose run time or requested
				   time is 0 or unknown (TRS_NONPOSITIVE) */
	bool cap_at_request;    /* a run time above the job's requested time
				   becomes the requested time (the job then
				   completes at it), counted in capped */
	bool kill_at_request;   /* a job whose run time is above its
				   requested time is killed at it, as a batch
				   system kills it (timed out, time-limit),
				   counted in killed */
	bool restart;           /* preempted: restart: a job a policy preempts
				   runs again from the start; else it resumes
				   (its tasks' work left, plus resume_cost_us) */
	int64_t resume_cost_us; /* what resuming costs, µs of work (0: none,
				   as Tiresias's simulator charges) */
	int64_t sample_jobs;    /* > 0: keep this many jobs drawn as Python's
				   random.shuffle with random.seed(sample_seed)
				   draws them from the kept jobs in file order
				   (the PAI simulator's sample: pyrandom.h), if
				   there are at least as many; 0: all */
	uint64_t sample_seed;
	int64_t batch;          /* > 0: re-time the jobs, in (submission, job
				   number) order, batch at a time every
				   batch_every_us from 0 (the PAI simulator's
				   arrival rate); 0: the trace's times */
	int64_t batch_every_us;
	const char *estimate;   /* NULL, or the column of a headed CSV format
				   whose seconds are each job's estimate (its
				   requested time: sjf, srtf, easy read it) */
	bool offer;             /* offer-only (docs/traces.md): records need no
				   times; an importer gives arrival 0 and run
				   time -1 to a record without them.  The jobs
				   then come one every 2 µs in an order shuffled
				   by offer_seed, and each holds what it gets
				   until 1 µs after the last arrives */
	uint64_t offer_seed;
	double offer_pad;       /* offer-only: the loader pads (or trims) the
				   offered jobs by sampling to this multiple of
				   the cluster's GPU capacity (FGD's 1.3); 0:
				   as read (not the builder's: it knows no
				   cluster) */
};

/* ---- the builder, for importers ------------------------------------- */

struct tr_build;

/* A data record begins at `line` (for messages, and counted in
 * scn_trace.records): the importer calls it before tr_add, tr_skip,
 * tr_clamp or tr_fail on the record. */
void tr_at(struct tr_build *b, int64_t line);

/* A record: job number `id`, submitted at `submit_us` of the trace's own
 * time, each task running `run_us` (>= 0), the user's estimate req_us (-1:
 * none), its demand, its user, queue and kind (NULL: none).  Returns 1 when
 * kept, 0 when left out by a filter, 2 when the job limit was reached and
 * the importer may stop reading (a format whose records are sorted by
 * submission), -1 on an error (message in err). */
int tr_add(struct tr_build *b, int32_t id, int64_t submit_us, int64_t run_us, int64_t req_us,
	   const struct scn_trace_shape *sh, const char *user, const char *queue,
	   const char *kind);

/* A record submitted at submit_us (>= 0) of the trace's own time, before
 * the importer's checks that may leave it out: the trace's clock starts
 * at the first such record (the earliest, in a format not sorted by
 * submission), kept or not, so that entries splitting one trace by
 * filters or status share it.  tr_add calls it too. */
void tr_seen(struct tr_build *b, int64_t submit_us);

/* Leave out the current record for `why` (not TRS_FILTER): counted, or
 * under `strict` an error "file:line:col: message (strict)" built from
 * fmt.  Returns 0, or -1 with the message in err. */
int tr_skip(struct tr_build *b, enum scn_trace_skip why, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Keep the current record with a value clamped: counted, or an error
 * under `strict`, as tr_skip. */
int tr_clamp(struct tr_build *b, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An error at the current record's column col: "file:line:col: message".
 * Returns -1. */
int tr_fail(struct tr_build *b, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const struct trace_opts *tr_opts(const struct tr_build *b);
/* The path the trace was opened with (a file, or for a format of
 * several files a directory: trace_format.dir). */
const char *tr_path(const struct tr_build *b);
/* GPU model constraint `spec` ("T4", "V100M16|V100M32": the models a job
 * may run on, '|' between them) as scn_trace_role.constraint writes it:
 * 1 + its index in the trace's constraints (the same text, the same
 * index). */
int tr_constraint(struct tr_build *b, const char *spec);

/* ---- fields of a CSV line, values for messages ------------------------- */

/* A field of a comma-separated line. */
struct tr_field {
	char *s;     /* NUL-terminated in the line, spaces and tabs trimmed */
	int len;
	int col;     /* 1-based column of its first character */
};
/* Split line[0 .. len) at ',' into f (at most max), each field trimmed
 * and NUL-terminated in place; the count, or max + 1 if more. */
int tr_split(char *line, size_t len, struct tr_field *f, int max);

/* A value for a message: its first 40 bytes (no UTF-8 character cut),
 * control bytes and bytes that are not UTF-8 as \xHH (a message stays
 * one printable line of UTF-8), "..." if longer; buf:
 * TR_SHOW bytes (TR_VAL gives each use its own, a compound literal). */
#define TR_SHOW 168
const char *tr_show(const char *s, size_t n, char *buf);
#define TR_VAL(f) tr_show((f)->s, (size_t)(f)->len, (char[TR_SHOW]){0})

/* ---- CSV tables with a header row, columns found by name --------------- */

struct zr;

#define TR_CSV_MAX_COLS 64

/* The header row: at[k] the field of names[k] (NULL: not looked for; -1:
 * absent), *ncols its field count; a UTF-8 byte order mark skipped.
 * names[0 .. nreq) are required.  0, or -1 with the problem at line 1:
 * an empty file ("`what` starts with its header row"), more than
 * TR_CSV_MAX_COLS columns, a name twice, a required one missing. */
int tr_csv_header(struct tr_build *b, struct zr *in, const char *what, const char *const *names,
		  int n, int nreq, int *at, int *ncols);
/* Each non-empty line after the header, tr_at its line, split into
 * fields (as many as the header's ncols, else an error) and given to
 * row(b, ctx, f).  0, or -1 at the first error (a row's, or the
 * reader's, at its line and column). */
int tr_csv_rows(struct tr_build *b, struct zr *in, int ncols,
		int (*row)(struct tr_build *b, const void *ctx, const struct tr_field *f),
		const void *ctx);
/* Whether a file's first bytes head[0 .. n) start with sig, after a
 * byte order mark (a format's detect). */
bool tr_csv_starts(const char *head, size_t n, const char *sig);
/* A field that is a finite decimal number ([-+]digits[.digits]
 * [e[-+]digits]): 0 with *v, or -1. */
int tr_number(const struct tr_field *f, double *v);

/* ---- clusters from traces -------------------------------------------- */

/* A node of a trace's node list.  Nodes of the same shape become one
 * node group. */
struct trace_node {
	int cpu_milli;           /* CPU, milli-cores (rounded down to whole cores:
				    docs/traces.md) */
	int64_t mem_mib;
	int gpus;
	const char *gpu_model;   /* NULL or "" without GPUs */
};

/* ---- formats ------------------------------------------------------- */

struct zr;
struct trace_format {
	const char *name;        /* `format:` in scenarios */
	const char *what;        /* one line for `hetsim trace formats` */
	/* Whether the file's first bytes look like this format (NULL: never
	 * detected, must be named). */
	bool (*detect)(const char *head, size_t n);
	/* Read the job records of an open file into b; 0 or -1 (err set by
	 * tr_fail or tr_skip).  NULL: the format has no jobs (a node list).
	 * For a format of several files (dir), `in` is NULL and the hook
	 * opens them under tr_path(b). */
	int (*jobs)(struct tr_build *b, struct zr *in);
	/* Read the node list of an open file: calls add for each node;
	 * 0 or -1 with "file:line:col: message" in err.  NULL: no nodes. */
	int (*nodes)(struct zr *in, const char *path,
		     int (*add)(void *ctx, const struct trace_node *n), void *ctx, char *err,
		     size_t errlen);
	/* Whether a file of the format whose first bytes are head is its
	 * node list, not its jobs, by what it says of itself (openb's header
	 * row, Philly's machine list's); NULL: a file of the format holds its
	 * jobs (a dir format's single file: its node list). */
	bool (*node_list)(const char *head, size_t n);
	bool sorted;             /* records come in submission order (SWF) */
	bool kinds;              /* its jobs have kinds (the `kinds` filter) */
	bool dir;                /* its jobs are several files in a directory
				    (the path); `nodes` gets the node file,
				    or the directory's, as `in` */
	const char *node_file;   /* dir formats: the node list's name in the
				    directory ("pai_machine_spec.csv") */
	bool estimates;          /* its rows may carry an estimate column (the
				    trace's `estimate` names it) */
	bool pool;               /* its node list is, by default, one machine
				    of identical processors, read as one node
				    (SWF: the archive's machine, MaxProcs
				    processors) */
};

/* The formats (trace.c), and one by name (NULL if unknown). */
extern const struct trace_format *const trace_formats[];
extern const int trace_nformats;
const struct trace_format *trace_format(const char *name);

/* The builder's run (trace_build.c, for trace_read): format f's jobs
 * hook on z (NULL for a directory format; closed here) into t, under o,
 * then the window, the order and the time scale.  0, or -1 with one line
 * in err (t is the caller's to free either way). */
int tr_read_jobs(const struct trace_format *f, const struct trace_opts *o, struct scn_trace *t,
		 struct zr *z, char *err, size_t errlen);

/* Read the jobs of trace file `path` under o.  Returns the trace (free
 * with scn_trace_free) or NULL with one line in err. */
struct scn_trace *trace_read(const char *path, const struct trace_opts *o, char *err,
			     size_t errlen);

/* How a node list becomes nodes: the format's default (its `pool`), the
 * nodes as listed, or one node holding them all (a pool: the list must be
 * of one shape). */
enum trace_machine { TRM_DEFAULT, TRM_NODES, TRM_POOL };

/* Read a node list into node groups (appended to *groups, *ngroups),
 * named `prefix` and a number, one group per distinct node shape in
 * order of first appearance, or one node as `machine` says.  Returns 0
 * or -1 with one line in err. */
int trace_read_nodes(const char *path, const char *format, const char *prefix,
		     enum trace_machine machine, struct scn_node_group **groups, int *ngroups,
		     char *err, size_t errlen);

/* Whether `path` is, in `format`, a node list rather than a table of
 * jobs: a format without jobs; a single file of a format whose jobs are
 * a directory; a file that its format's node_list hook says is one.  A
 * file that cannot be opened is not (trace_read says why).  So `hetsim
 * trace info` reads a file one way, never the other when the first
 * fails. */
bool trace_node_list(const char *path, const char *format);

/* When t holds no job: 1, with "path:1:1: no job: 12 records, all left
 * out (no-runtime 10, negative-time 2)" (or "no job records") in buf;
 * else 0. */
int trace_no_jobs(const struct scn_trace *t, char *buf, size_t len);

/* The format of a file, detected from its first bytes: a name, or NULL
 * with the reason in err. */
const char *trace_detect(const char *path, char *err, size_t errlen);

/* Put offer-only trace t's jobs in replication r's order: for r = 0 the
 * load's (shuffled by the scenario's seed), for r > 0 that order
 * shuffled again by a Fisher-Yates keyed by (seed, r); then one every
 * 2 µs, each held until 1 µs after the last, as at load.  Replication
 * r's order depends on r alone, whatever order t was in.  A trace that
 * is not offer-only is left as it is. */
void trace_offer_order(struct scn_trace *t, uint32_t replication);

/* An offer-only trace's times, in its order: job i arrives at 2i µs and
 * holds until 1 µs after the last (2n + 1). */
void trace_offer_times(struct scn_trace *t);

/* The warning line for a trace's skipped and clamped records ("path: 12
 * of 18239 records skipped (no-runtime 10, negative-time 2)"), or 0
 * when there is none.  Filters do not warn. */
int trace_warning(const struct scn_trace *t, char *buf, size_t len);

/* `hetsim trace info`: counts, span, percentiles, skips. */
int trace_info(FILE *out, const struct scn_trace *t);

#endif
