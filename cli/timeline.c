/* timeline.c - `hetsim run --trace-json FILE`: a run's timeline as Chrome
 * trace-event JSON (the "JSON Object Format": {"traceEvents": [...]}),
 * which Perfetto (ui.perfetto.dev) and chrome://tracing open
 * (docs/output.md, "Timelines").
 *
 * A process per node of each policy's run ("policy: node"), in it a
 * thread per executor (its life, launch to release) and one per task
 * slot of it (lanes: a task attempt on the lowest lane free at its
 * start), each attempt a complete ("X") event, a killed one in category
 * "killed"; and a process "policy: jobs" with each job's arrival and end
 * as instant ("i") events.  Times in µs, as the simulation's.  Events are
 * written per track in time order, so a track's times never go back.
 */
#include "timeline.h"
#include "cmd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "scenario.h"
#include "util.h"

#define PID_STRIDE 1000000   /* pids of policy p: p * PID_STRIDE + node + 1 */
#define TID_STRIDE 256       /* tids of executor x: x * TID_STRIDE + lane + 1 */

struct tl_task {
	int64_t start, end;
	int job, stage, task, exec, node;
	bool done;
	int lane;
};

struct tl_exec {
	int64_t launch, end;
	int id, job, node;
};

struct tl_phase {
	int64_t from, to;
	int job, state;
};

struct tl {
	char *path, *tmp;
	FILE *f;
	bool first;                      /* no event written yet */
	struct tl_task *t; int nt, capt;
	struct tl_exec *x; int nx, capx;
	struct tl_phase *ph; int nph, capph;
	int pol;                         /* the run being recorded */
	const char *policy;
	bool failed;                     /* tl_finish could not write it */
};

static void ev_sep(struct tl *t)
{
	fputs(t->first ? "\n" : ",\n", t->f);
	t->first = false;
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

struct tl *tl_open(const char *path, char *err, size_t errlen)
{
	struct tl *t = xcalloc(1, sizeof *t);
	t->path = xstrdup(path);
	size_t n = strlen(path) + 5;
	t->tmp = xmalloc(n);
	snprintf(t->tmp, n, "%s.tmp", path);
	t->f = fopen(t->tmp, "w");
	if (!t->f) {
		snprintf(err, errlen, "cannot write %s: %s", t->tmp, strerror(errno));
		free(t->path), free(t->tmp), free(t);
		return NULL;
	}
	fputs("{\"displayTimeUnit\": \"ms\", \"traceEvents\": [", t->f);
	t->first = true;
	return t;
}

void tl_begin(struct tl *t, const char *policy, int p)
{
	t->pol = p;
	t->policy = policy;
	t->nt = t->nx = t->nph = 0;
}

void tl_state(void *ctx, const struct sim *s, const struct sim_job *j, int state,
	      int64_t from_us, int64_t to_us)
{
	(void)s;
	struct tl *t = ctx;
	const char *const *names = j->shape->ops->state_names;
	if (!names || to_us <= from_us || state < 0)
		return;
	for (int k = 0; k <= state; k++)
		if (!names[k])
			return; /* a state without a name */
	xgrow(&t->ph, &t->capph, t->nph + 1, sizeof *t->ph);
	t->ph[t->nph++] = (struct tl_phase){from_us, to_us, j->id, state};
}

void tl_task(void *ctx, const struct sim *s, int job, int stage, int task, int exec, int node,
	     int64_t start_us, int64_t end_us, bool done)
{
	(void)s;
	struct tl *t = ctx;
	xgrow(&t->t, &t->capt, t->nt + 1, sizeof *t->t);
	t->t[t->nt++] = (struct tl_task){start_us, end_us, job, stage, task, exec, node, done, 0};
}

void tl_exec(struct tl *t, const struct sim_exec *x)
{
	xgrow(&t->x, &t->capx, t->nx + 1, sizeof *t->x);
	t->x[t->nx++] = (struct tl_exec){x->launch_us, x->end_us, x->id, x->job, x->node};
}

static int cmp_task(const void *a, const void *b)
{
	const struct tl_task *x = a, *y = b;
	if (x->exec != y->exec)
		return x->exec < y->exec ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

static int cmp_lane(const void *a, const void *b)
{
	const struct tl_task *x = a, *y = b;
	if (x->exec != y->exec)
		return x->exec < y->exec ? -1 : 1;
	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int cmp_phase(const void *a, const void *b)
{
	const struct tl_phase *x = a, *y = b;
	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

static void meta(struct tl *t, const char *what, int64_t pid, int64_t tid, const char *name)
{
	ev_sep(t);
	fprintf(t->f, "{\"ph\": \"M\", \"name\": \"%s\", \"pid\": %" PRId64 ", \"tid\": %" PRId64
		", \"args\": {\"name\": ", what, pid, tid);
	jstr(t->f, name);
	fputs("}}", t->f);
}

void tl_end(struct tl *t, const struct sim *s)
{
	const struct clu *c = sim_cluster(s);
	const struct scn *sc = sim_scenario(s);
	int64_t base = (int64_t)t->pol * PID_STRIDE;
	char name[512];
	for (int i = 0; i < c->n; i++) {
		snprintf(name, sizeof name, "%s: %s", t->policy, c->nodes[i].name);
		meta(t, "process_name", base + i + 1, 0, name);
	}
	snprintf(name, sizeof name, "%s: jobs", t->policy);
	meta(t, "process_name", base + PID_STRIDE - 1, 0, name);
	/* lanes: per executor, each attempt on the lowest lane free at its
	 * start (a lane is free once its last attempt has stopped) */
	if (t->nt)
		qsort(t->t, (size_t)t->nt, sizeof *t->t, cmp_task);
	int64_t lane_end[TID_STRIDE - 1];
	for (int i = 0; i < t->nt; i++) {
		if (i == 0 || t->t[i].exec != t->t[i - 1].exec)
			for (int k = 0; k < TID_STRIDE - 1; k++)
				lane_end[k] = INT64_MIN;
		int k = 0;
		while (k < TID_STRIDE - 2 && lane_end[k] > t->t[i].start)
			k++;
		t->t[i].lane = k;
		lane_end[k] = t->t[i].end;
	}
	if (t->nt)
		qsort(t->t, (size_t)t->nt, sizeof *t->t, cmp_lane);
	for (int i = 0; i < t->nx; i++) {
		const struct tl_exec *x = &t->x[i];
		int64_t pid = base + x->node + 1, tid = (int64_t)x->id * TID_STRIDE;
		const struct scn_job_group *g = &sc->jobs[sim_job(s, x->job)->group];
		snprintf(name, sizeof name, "executor %d (%s, job %d)", x->id, g->name, x->job);
		meta(t, "thread_name", pid, tid, name);
		ev_sep(t);
		fprintf(t->f, "{\"ph\": \"X\", \"cat\": \"executor\", \"name\": \"executor %d\", "
			"\"pid\": %" PRId64 ", \"tid\": %" PRId64 ", \"ts\": %" PRId64 ", \"dur\": %"
			PRId64 ", \"args\": {\"job\": %d}}", x->id, pid, tid, x->launch,
			(x->end >= x->launch ? x->end : x->launch) - x->launch, x->job);
	}
	for (int i = 0; i < t->nt; i++) {
		const struct tl_task *k = &t->t[i];
		int64_t pid = base + k->node + 1, tid = (int64_t)k->exec * TID_STRIDE + k->lane + 1;
		if (i == 0 || k->exec != t->t[i - 1].exec || k->lane != t->t[i - 1].lane) {
			snprintf(name, sizeof name, "executor %d slot %d", k->exec, k->lane);
			meta(t, "thread_name", pid, tid, name);
		}
		ev_sep(t);
		fprintf(t->f, "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"job %d stage %d task %d\", "
			"\"pid\": %" PRId64 ", \"tid\": %" PRId64 ", \"ts\": %" PRId64 ", \"dur\": %"
			PRId64 ", \"args\": {\"job\": %d, \"stage\": %d, \"task\": %d, \"outcome\": "
			"\"%s\"}}", k->done ? "task" : "killed", k->job, k->stage, k->task, pid, tid,
			k->start, k->end - k->start, k->job, k->stage, k->task,
			k->done ? "done" : "killed");
	}
	/* a job model's states (a TFoS cluster's phases): a track per job in
	 * the jobs' process, in time order */
	if (t->nph)
		qsort(t->ph, (size_t)t->nph, sizeof *t->ph, cmp_phase);
	for (int i = 0; i < t->nph; i++) {
		const struct tl_phase *h = &t->ph[i];
		const struct sim_job *j = sim_job(s, h->job);
		if (i == 0 || h->job != t->ph[i - 1].job) {
			snprintf(name, sizeof name, "job %d (%s) phases", h->job,
				 sc->jobs[j->group].name);
			meta(t, "thread_name", base + PID_STRIDE - 1, h->job + 1, name);
		}
		ev_sep(t);
		fputs("{\"ph\": \"X\", \"cat\": \"phase\", \"name\": ", t->f);
		jstr(t->f, j->shape->ops->state_names[h->state]);
		fprintf(t->f, ", \"pid\": %" PRId64 ", \"tid\": %d, \"ts\": %" PRId64 ", \"dur\": %"
			PRId64 ", \"args\": {\"job\": %d}}", base + PID_STRIDE - 1, h->job + 1, h->from,
			h->to - h->from, h->job);
	}
	/* the jobs' arrivals and ends, in time order on one track */
	int nj = sim_njobs(s);
	struct jev { int64_t ts; int job; bool end; } *e = xmalloc((size_t)(2 * nj + 1) * sizeof *e);
	int ne = 0;
	for (int i = 0; i < nj; i++) {
		const struct sim_job *j = sim_job(s, i);
		e[ne++] = (struct jev){j->arrival_us, i, false};
		if (j->end_us >= 0)
			e[ne++] = (struct jev){j->end_us, i, true};
	}
	for (int a = 1; a < ne; a++) /* stable by time: arrivals are in order already */
		for (int b = a; b > 0 && e[b].ts < e[b - 1].ts; b--) {
			struct jev x = e[b];
			e[b] = e[b - 1], e[b - 1] = x;
		}
	for (int i = 0; i < ne; i++) {
		const struct sim_job *j = sim_job(s, e[i].job);
		ev_sep(t);
		fprintf(t->f, "{\"ph\": \"i\", \"s\": \"p\", \"cat\": \"job\", \"name\": \"%s job %d "
			"(%s)\", \"pid\": %" PRId64 ", \"tid\": 0, \"ts\": %" PRId64 ", \"args\": "
			"{\"status\": \"%s\"}}", e[i].end ? "end" : "arrival", e[i].job,
			sc->jobs[j->group].name, base + PID_STRIDE - 1, e[i].ts,
			sim_status_name((enum sim_job_status)j->status));
	}
	free(e);
}

int tl_finish(struct tl *t, char *err, size_t errlen)
{
	if (!t->f)
		return 0;
	fputs("\n]}\n", t->f);
	errno = 0;
	bool bad = fflush(t->f) != 0 || ferror(t->f) != 0;
	int e = bad ? cmd_io_errno(t->f, errno) : EIO;
	if (fclose(t->f) != 0 && !bad) {
		bad = true;
		e = errno;
	}
	t->f = NULL;
	if (bad) {
		snprintf(err, errlen, "cannot write %s: %s", t->tmp, strerror(e));
		remove(t->tmp);
		t->failed = true;
		return -1;
	}
	return 0;
}

int tl_close(struct tl *t, bool ok, char *err, size_t errlen)
{
	int rc = 0;
	if (t->f && tl_finish(t, err, errlen))
		rc = ok ? -1 : 0;
	if (t->failed)
		ok = false;
	if (ok && !rc && rename(t->tmp, t->path)) {
		snprintf(err, errlen, "cannot write %s: %s", t->path, strerror(errno));
		rc = -1;
	}
	if (!ok || rc)
		remove(t->tmp);
	free(t->t), free(t->x), free(t->ph), free(t->path), free(t->tmp), free(t);
	return rc;
}
