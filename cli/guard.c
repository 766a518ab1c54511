/* guard.c - the fault and stop handlers, and their table of what to
 * remove (guard.h). */
#define _DEFAULT_SOURCE /* sigaltstack, SA_ONSTACK */
#include "guard.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "sim.h"

#define GUARD_SLOTS 256
#define GUARD_PATH 4096

static struct {
	volatile sig_atomic_t used; /* 1: a file, 2: a folder */
	pid_t pid;                  /* the process that made the entry */
	unsigned seq;               /* order made: folders go deepest (last) first */
	char path[GUARD_PATH];
} ent[GUARD_SLOTS];

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned seq;
static volatile sig_atomic_t installed, cleaning;
static char altstack[65536]; /* a stack overflow's handler needs a stack */

static int add(const char *path, int kind)
{
	size_t n = strlen(path);
	if (n >= GUARD_PATH)
		return -1;
	pthread_mutex_lock(&lock);
	int slot = -1;
	for (int i = 0; i < GUARD_SLOTS && slot < 0; i++)
		if (!ent[i].used)
			slot = i;
	if (slot >= 0) {
		memcpy(ent[slot].path, path, n + 1);
		ent[slot].pid = getpid();
		ent[slot].seq = ++seq;
		ent[slot].used = kind; /* last: a handler sees it whole or not at all */
	}
	pthread_mutex_unlock(&lock);
	return slot;
}

int cmd_guard_file(const char *path)
{
	return add(path, 1);
}

int cmd_guard_dir(const char *path)
{
	return add(path, 2);
}

void cmd_guard_done(int slot)
{
	if (slot >= 0 && slot < GUARD_SLOTS)
		ent[slot].used = 0;
}

/* Remove this process's files, then its folders, the last made first
 * (a folder made inside another goes before it).  Async-signal-safe. */
static void clean(void)
{
	pid_t me = getpid();
	for (int i = 0; i < GUARD_SLOTS; i++)
		if (ent[i].used == 1 && ent[i].pid == me)
			unlink(ent[i].path);
	for (;;) {
		int last = -1;
		for (int i = 0; i < GUARD_SLOTS; i++)
			if (ent[i].used == 2 && ent[i].pid == me &&
			    (last < 0 || ent[i].seq > ent[last].seq))
				last = i;
		if (last < 0)
			break;
		rmdir(ent[last].path); /* only if empty: what was there before stays */
		ent[last].used = 0;
	}
}

static void put(char *buf, int len, int *n, const char *s)
{
	for (; *s && *n + 1 < len; s++)
		buf[(*n)++] = *s;
}

int cmd_guard_line(char *buf, int len, const char *what)
{
	char where[2048];
	int n = 0;
	put(buf, len, &n, "hetsim: ");
	put(buf, len, &n, what);
	if (sim_fault_where(where, sizeof where)) {
		put(buf, len, &n, " in ");
		put(buf, len, &n, where);
	}
	put(buf, len, &n, "; stopped: its temporary files removed, no result written\n");
	buf[n] = '\0';
	return n;
}

static const char *words(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV (a segmentation fault: a bad memory access)";
	case SIGBUS: return "SIGBUS (a bus error: a bad memory access)";
	case SIGFPE: return "SIGFPE (an arithmetic trap: an integer division by zero?)";
	case SIGILL: return "SIGILL (an illegal instruction)";
	case SIGABRT: return "SIGABRT (aborted)";
	case SIGINT: return "interrupted (SIGINT)";
	case SIGTERM: return "interrupted (SIGTERM)";
	default: return "interrupted (SIGHUP)";
	}
}

static void on_signal(int sig)
{
	int saved = errno;
	bool fault = sig != SIGINT && sig != SIGTERM && sig != SIGHUP;
	if (!cleaning) {
		cleaning = 1;
		clean();
		/* sim_die has said its line (the invariant, the policy, the
		 * time) before its abort */
		if (!(sig == SIGABRT && sim_died)) {
			char line[8192];
			int n = cmd_guard_line(line, sizeof line, words(sig));
			ssize_t w = write(STDERR_FILENO, line, (size_t)n);
			(void)w;
		}
	}
	errno = saved;
	if (!fault)
		_exit(128 + sig);
	/* the same signal again, now to its default: the process ends by it */
	signal(sig, SIG_DFL);
	raise(sig);
}

void cmd_guard_install(void)
{
	if (installed)
		return;
	installed = 1;
	stack_t st = {.ss_sp = altstack, .ss_size = sizeof altstack};
	sigaltstack(&st, NULL);
	static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) {
		struct sigaction sa = {.sa_handler = on_signal,
				       .sa_flags = SA_ONSTACK | SA_NODEFER | SA_RESETHAND};
		sigemptyset(&sa.sa_mask);
		sigaction(faults[i], &sa, NULL);
	}
	static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
		struct sigaction old;
		sigaction(stops[i], NULL, &old);
		if (old.sa_handler == SIG_IGN)
			continue; /* (nohup: left ignored) */
		struct sigaction sa = {.sa_handler = on_signal};
		sigemptyset(&sa.sa_mask);
		sigaction(stops[i], &sa, NULL);
	}
}
