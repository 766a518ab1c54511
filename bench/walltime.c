/* walltime.c - run a command; its wall time and peak memory into a file.
 *
 *   build/bench/walltime OUTFILE COMMAND [ARG...]
 *
 * Runs COMMAND (found on PATH) with the same standard streams, waits for
 * it, and writes one line to OUTFILE:
 *
 *   wall_s peak_rss_kib
 *
 * wall_s from CLOCK_MONOTONIC in 0.1 ms steps (/usr/bin/time's %e has
 * 10 ms steps: a quarter of hetsim's 2*10^4-task farm), peak_rss_kib the
 * child's largest resident set (getrusage of the one waited-for child,
 * as /usr/bin/time's %M).  Exits with COMMAND's status (128 + the signal
 * where a signal ended it); OUTFILE is written only when COMMAND exited
 * 0.  127 where COMMAND cannot be run, 2 on a usage error.
 *
 * Built by `make bench`; used by bench/run for every timed process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double t0, wall;
	pid_t pid;
	int st;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: walltime OUTFILE COMMAND [ARG...]\n");
		return 2;
	}
	t0 = now_s();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "walltime: fork: %s\n", strerror(errno));
		return 127;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "walltime: cannot run '%s': %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "walltime: waitpid: %s\n", strerror(errno));
			return 127;
		}
	}
	wall = now_s() - t0;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	if (WEXITSTATUS(st) != 0)
		return WEXITSTATUS(st);
	if (getrusage(RUSAGE_CHILDREN, &ru) != 0) {
		fprintf(stderr, "walltime: getrusage: %s\n", strerror(errno));
		return 127;
	}
	f = fopen(argv[1], "w");
	if (!f) {
		fprintf(stderr, "walltime: cannot write '%s': %s\n", argv[1], strerror(errno));
		return 127;
	}
	fprintf(f, "%.4f %ld\n", wall, (long)ru.ru_maxrss);
	if (fclose(f) != 0) {
		fprintf(stderr, "walltime: cannot write '%s': %s\n", argv[1], strerror(errno));
		return 127;
	}
	return 0;
}
