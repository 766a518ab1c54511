/* sweep_exec.c - the runs of a sweep executed: here (-j 1), in forked
 * worker processes over two pipes each (the parent writes a run index,
 * int64_t; the worker answers a struct msg and `len` bytes: the row or
 * an error), and, built with MPI=1, spread over MPI ranks whose rows go
 * to rank 0.  Every row reaches sweep.c's gathering (sw_gather_row),
 * which writes them in run order; a run's row is made by sw_run_one.
 * It calls sweep.c only; sweep_cmd.c calls it (sw_execute, and the
 * ranks' agreement).
 *
 * Fault injection, for tests: a worker process handed the run whose
 * index is in the environment variable HETSIM_SWEEP_KILL_RUN kills
 * itself (SIGKILL) instead of running it.
 */
#define _DEFAULT_SOURCE /* realpath, truncate */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#ifdef HETSIM_MPI
#include <mpi.h>
#endif

#include "registry.h"
#include "load.h"
#include "cmd.h"
#include "metrics.h"
#include "plot.h"
#include "policy.h"
#include "rows.h"
#include "scenario.h"
#include "sim.h"
#include "sweep.h"
#include "util.h"


/* ---- executing the runs -------------------------------------------- */

enum { TAG_ROW = 1, TAG_DONE, TAG_ERR }; /* MPI messages to rank 0 */


static int failf(struct exec *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int failf(struct exec *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->err, sizeof x->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* Run i is done: its row (taken over) goes to rank 0. */
static int deliver(struct exec *x, long i, char *text, size_t len)
{
	if (x->g) {
		/* kept before it is used: a run in the state is done for good */
		if (x->state && (fprintf(x->state, "R %ld %zu\n", i, len) < 0 ||
				 fwrite(text, 1, len, x->state) != len || fflush(x->state))) {
			free(text);
			return failf(x, "cannot write the sweep's state: %s", strerror(errno));
		}
		sw_gather_row(x->g, i, text);
		return 0;
	}
#ifdef HETSIM_MPI
	char *buf = xmalloc(len + 8);
	int64_t i64 = i;
	memcpy(buf, &i64, 8);
	memcpy(buf + 8, text, len);
	MPI_Send(buf, (int)(len + 8), MPI_CHAR, 0, TAG_ROW, MPI_COMM_WORLD);
	free(buf);
#else
	(void)len;
#endif
	free(text);
	return 0;
}

/* Rank 0: take the other ranks' messages (wait for one if `block`). */
static int poll_ranks(struct exec *x, bool block)
{
#ifdef HETSIM_MPI
	while (x->ranks_left > 0) {
		MPI_Status st;
		int flag = 1, n;
		if (block)
			MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		else
			MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		if (!flag)
			return 0;
		MPI_Get_count(&st, MPI_CHAR, &n);
		char *buf = xmalloc((size_t)n + 1);
		MPI_Recv(buf, n, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		buf[n] = '\0';
		int64_t i = -1;
		if (st.MPI_TAG == TAG_ROW && n >= 8)
			memcpy(&i, buf, 8);
		if (st.MPI_TAG == TAG_DONE) {
			x->ranks_left--;
		} else if (st.MPI_TAG == TAG_ERR) {
			failf(x, "%s", buf);
		} else if (i < 0 || i >= x->pl->nruns || i % x->nranks != st.MPI_SOURCE ||
			   x->g->pending[i] || i < x->g->next) {
			failf(x, "rank %d sent a row for run %" PRId64 ", not one of its own",
			      st.MPI_SOURCE, i);
		} else {
			memmove(buf, buf + 8, (size_t)n - 8 + 1);
			sw_gather_row(x->g, (long)i, buf);
			buf = NULL;
		}
		free(buf);
		if (x->err[0])
			return -1;
		if (block)
			return 0;
	}
#else
	(void)x;
	(void)block;
#endif
	return 0;
}

/* This process runs its runs one by one (-j 1). */
static int run_here(struct exec *x, const long *mine, long n)
{
	for (long k = 0; k < n; k++) {
		if (cmd_stopped) /* SIGINT, SIGTERM: the state stays for --resume */
			return failf(x, "interrupted");
		char *text;
		size_t len;
		if (sw_run_one(x->pl, mine[k], &text, &len)) {
			failf(x, "%s", text);
			free(text);
			return -1;
		}
		if (deliver(x, mine[k], text, len) || poll_ranks(x, false))
			return -1;
	}
	return 0;
}

struct msg {          /* a worker's answer, then `len` bytes */
	int64_t run;
	int32_t failed;   /* 0: a row; 1: an error message */
	uint32_t len;
};

/* Runs handed to a worker ahead of its answers: a short queue keeps it
 * busy while the parent takes its last answer (a run can take 100 µs). */
#define QUEUE 4

struct worker {
	pid_t pid;        /* 0 once reaped */
	int to, from;     /* pipes: run indices out, answers in; -1 when closed */
	long q[QUEUE];    /* runs handed out, oldest first */
	int nq;
};

/* 1 when all n bytes were read, 0 at end of file before any, -1 else. */
static int read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return got == 0 && r == 0 ? 0 : -1;
		got += (size_t)r;
	}
	return 1;
}

static int write_full(int fd, const void *buf, size_t n)
{
	size_t put = 0;
	while (put < n) {
		ssize_t r = write(fd, (const char *)buf + put, n - put);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		put += (size_t)r;
	}
	return 0;
}

/* A worker: run what the parent sends until it closes the pipe. */
static void worker_main(const struct plan *pl, int in, int out)
{
	int64_t i;
	const char *k = getenv("HETSIM_SWEEP_KILL_RUN");
	long kill_at = k && *k ? strtol(k, NULL, 10) : -1;
	signal(SIGPIPE, SIG_DFL);
	while (read_full(in, &i, sizeof i) == 1) {
		if (i == kill_at)
			kill(getpid(), SIGKILL);
		char *text;
		size_t len;
		struct msg m = {i, 0, 0};
		if (i < 0 || i >= pl->nruns)
			_exit(3);
		m.failed = sw_run_one(pl, (long)i, &text, &len) != 0;
		m.len = (uint32_t)len;
		if (write_full(out, &m, sizeof m) || write_full(out, text, len))
			_exit(2);
		free(text);
	}
	_exit(0);
}

static int spawn(struct exec *x, struct worker *w, int k)
{
	int a[2], b[2];
	if (pipe(a))
		return failf(x, "cannot create a pipe: %s", strerror(errno));
	if (pipe(b)) {
		close(a[0]);
		close(a[1]);
		return failf(x, "cannot create a pipe: %s", strerror(errno));
	}
	fflush(NULL); /* nothing buffered is written twice */
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(a[0]), close(a[1]), close(b[0]), close(b[1]);
		return failf(x, "cannot start a worker process: %s", strerror(e));
	}
	if (pid == 0) {
		for (int j = 0; j < k; j++) { /* the other workers' pipes: theirs alone */
			if (w[j].to >= 0)
				close(w[j].to);
			if (w[j].from >= 0)
				close(w[j].from);
		}
		close(a[1]);
		close(b[0]);
		free(w); /* the parent's, which a worker never reads (valgrind
			  * --trace-children: nothing inherited is lost) */
		worker_main(x->pl, a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	w[k] = (struct worker){.pid = pid, .to = a[1], .from = b[0]};
	return 0;
}

/* Fill worker w's queue; close its pipe when no run is left.  A worker
 * that cannot be written to has died: its queue stops growing, and
 * reading its answers says so. */
static void hand_out(struct worker *w, const long *mine, long n, long *next)
{
	while (w->to >= 0 && w->nq < QUEUE && *next < n) {
		int64_t i = mine[*next];
		if (write_full(w->to, &i, sizeof i)) {
			close(w->to);
			w->to = -1;
			break;
		}
		w->q[w->nq++] = mine[(*next)++];
	}
	if (*next >= n && w->to >= 0) {
		close(w->to);
		w->to = -1;
	}
}

static void describe_status(int st, char *buf, size_t len)
{
	if (WIFSIGNALED(st))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(st));
	else
		snprintf(buf, len, "status %d", st);
}

/* Worker w's answer is ready. */
static int take_answer(struct exec *x, struct worker *w)
{
	long run = w->q[0];
	const struct run *r = &x->pl->runs[run];
	struct msg m;
	int got = read_full(w->from, &m, sizeof m);
	char *text = NULL;
	if (got == 1) {
		text = xmalloc((size_t)m.len + 1);
		if (read_full(w->from, text, m.len) != 1 && m.len > 0)
			got = -1;
		text[m.len] = '\0';
	}
	if (got != 1 || m.run != run) {
		int st = 0;
		char how[128] = "it stopped answering";
		free(text);
		if (waitpid(w->pid, &st, 0) == w->pid) {
			w->pid = 0;
			describe_status(st, how, sizeof how);
		}
		return failf(x, "a worker process died running run %ld (point %d, policy %s, "
			     "replication %d): %s; no results written", run, r->point,
			     x->pl->pols[r->point][r->pol].name, r->rep, how);
	}
	memmove(w->q, w->q + 1, (size_t)--w->nq * sizeof *w->q);
	if (m.failed) {
		failf(x, "%s", text);
		free(text);
		return -1;
	}
	return deliver(x, run, text, m.len);
}

/* Stop the workers: close their pipes, kill them on failure, reap them. */
static int stop_workers(struct exec *x, struct worker *w, int n, bool failed)
{
	for (int k = 0; k < n; k++) {
		if (w[k].to >= 0)
			close(w[k].to);
		if (failed && w[k].pid > 0)
			kill(w[k].pid, SIGKILL);
	}
	int rc = 0;
	for (int k = 0; k < n; k++) {
		int st;
		if (w[k].pid > 0 && waitpid(w[k].pid, &st, 0) == w[k].pid && !failed &&
		    !(WIFEXITED(st) && WEXITSTATUS(st) == 0) && !rc) {
			char how[128];
			describe_status(st, how, sizeof how);
			rc = failf(x, "worker process %d ended badly: %s", (int)w[k].pid, how);
		}
		if (w[k].from >= 0)
			close(w[k].from);
	}
	return rc;
}

/* The runs `mine` (n of them) on `nw` worker processes. */
static int run_workers(struct exec *x, const long *mine, long n, int nw)
{
	struct worker *w = xcalloc((size_t)nw, sizeof *w);
	long next = 0;
	int started = 0, rc = 0;
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old); /* a dead worker's pipe: an error, not a signal */
	while (started < nw && rc == 0)
		if ((rc = spawn(x, w, started)) == 0)
			started++;
	/* (after the forks: the workers inherit none of these) */
	struct pollfd *pf = xcalloc((size_t)nw, sizeof *pf);
	int *who = xcalloc((size_t)nw, sizeof *who);
	for (int k = 0; k < started && rc == 0; k++)
		hand_out(&w[k], mine, n, &next);
	while (rc == 0) {
		int np = 0;
		for (int k = 0; k < started; k++)
			if (w[k].nq > 0) {
				pf[np] = (struct pollfd){.fd = w[k].from, .events = POLLIN};
				who[np++] = k;
			}
		if (np == 0)
			break;
		int r = poll(pf, (nfds_t)np, x->ranks_left ? 10 : -1);
		if (cmd_stopped) {
			rc = failf(x, "interrupted");
			break;
		}
		if (r < 0 && errno != EINTR)
			rc = failf(x, "poll: %s", strerror(errno));
		for (int i = 0; r > 0 && i < np && rc == 0; i++)
			if (pf[i].revents) {
				struct worker *wk = &w[who[i]];
				if ((rc = take_answer(x, wk)) == 0)
					hand_out(wk, mine, n, &next);
			}
		if (rc == 0)
			rc = poll_ranks(x, false);
	}
	if (stop_workers(x, w, started, rc != 0) && rc == 0)
		rc = -1;
	sigaction(SIGPIPE, &old, NULL);
	free(who);
	free(pf);
	free(w);
	return rc;
}

/* Run this rank's share of the plan, then (rank 0) wait for the others. */
int sw_execute(struct exec *x, int nworkers)
{
	const struct plan *pl = x->pl;
	long n = 0;
	long *mine = xcalloc((size_t)(pl->nruns / x->nranks + 1), sizeof *mine);
	for (long i = x->rank; i < pl->nruns; i += x->nranks)
		if (!x->done || !x->done[i]) /* (a resumed sweep: the runs not done) */
			mine[n++] = i;
	if (nworkers > n)
		nworkers = (int)(n > 0 ? n : 1);
	int rc = nworkers <= 1 ? run_here(x, mine, n) : run_workers(x, mine, n, nworkers);
	free(mine);
	while (rc == 0 && x->ranks_left > 0)
		rc = poll_ranks(x, true);
#ifdef HETSIM_MPI
	if (x->nranks > 1 && x->rank > 0) {
		if (rc == 0) {
			MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_DONE, MPI_COMM_WORLD);
		} else { /* rank 0 says it and ends every rank */
			char m[sizeof x->err + 32];
			snprintf(m, sizeof m, "rank %d: %s", x->rank, x->err);
			MPI_Send(m, (int)strlen(m), MPI_CHAR, 0, TAG_ERR, MPI_COMM_WORLD);
			MPI_Recv(NULL, 0, MPI_CHAR, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
#endif
	return rc;
}

/* ---- MPI ----------------------------------------------------------- */

void sw_ranks(int *rank, int *n)
{
	*rank = 0;
	*n = 1;
#ifdef HETSIM_MPI
	int up = 0;
	MPI_Initialized(&up);
	if (up) {
		MPI_Comm_rank(MPI_COMM_WORLD, rank);
		MPI_Comm_size(MPI_COMM_WORLD, n);
	}
#endif
}

/* Every rank's rc, the worst of them (ranks that set up the same files
 * the same way agree; this keeps one that did not from waiting). */
int sw_agree(int rc)
{
#ifdef HETSIM_MPI
	int r, n, worst = rc;
	sw_ranks(&r, &n);
	if (n > 1)
		MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (worst && !rc && r == 0)
		fprintf(stderr, "hetsim sweep: another MPI rank could not set up the sweep (run it "
			"on one machine to see why)\n");
	return worst;
#else
	return rc;
#endif
}

/* On a failure that only this rank knows of: end every rank. */
void sw_abort_ranks(void)
{
#ifdef HETSIM_MPI
	int r, n;
	sw_ranks(&r, &n);
	if (n > 1)
		MPI_Abort(MPI_COMM_WORLD, 1);
#endif
}

/* Worker processes by default: the online CPUs, shared by this node's ranks. */
int sw_default_workers(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int local = 1;
#ifdef HETSIM_MPI
	int r, n;
	sw_ranks(&r, &n);
	if (n > 1) {
		MPI_Comm c;
		MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
		MPI_Comm_size(c, &local);
		MPI_Comm_free(&c);
	}
#endif
	cpus /= local;
	return cpus < 1 ? 1 : cpus > MAX_WORKERS ? MAX_WORKERS : (int)cpus;
}
