/* busy.c - is the machine busy?  The load check `hetsim calibrate` makes
 * before its first block and after each (cal.h, "the machine's load";
 * calibrate/README.md, "A busy machine"): /proc/stat read twice a short
 * window apart gives what other work and the hypervisor (steal) took of
 * the cores this process may use *now*; /proc/loadavg's 1-minute
 * average is reported beside it but does not decide, as it holds the
 * past minute, calibrate's own blocks included.  The parsing and the
 * verdict work on texts (cal_load_judge), so the tests give them
 * hand-made /proc contents; only cal_load_read (and cal_allowed_cpus,
 * the affinity it and contention.c read) touches the machine. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_ISSET */
#include "cal.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

int (*cal_load_hook)(struct cal_load *l, char *err, size_t errlen);

/* /proc/stat's counters summed over the cores this process may use. */
struct ticks {
	unsigned long long work;  /* user + nice + system + irq + softirq */
	unsigned long long idle;  /* idle + iowait */
	unsigned long long steal; /* taken by the hypervisor for other guests */
	int cores;                /* cpuN lines summed */
};

/* The token at p (up to a blank or the line's end) quoted into buf. */
static const char *token(const char *p, char *buf, size_t len)
{
	size_t n = strcspn(p, " \t\n");
	snprintf(buf, len, "%.*s", (int)(n < 40 ? n : 40), p);
	return buf;
}

/* One cpuN line from p (after "cpuN"): at least user, nice, system and
 * idle; iowait, irq, softirq and steal where the kernel gives them
 * (guest and guest_nice are already inside user and nice: left out).
 * 0, or -1 with "name:line:col: ..." in err. */
static int cpu_line(const char *line, const char *p, const char *name, int lineno, struct ticks *t,
		    char *err, size_t errlen)
{
	unsigned long long v[8] = {0};
	int n = 0;
	char tok[48];
	for (;;) {
		p += strspn(p, " \t");
		if (!*p || *p == '\n')
			break;
		char *end;
		errno = 0;
		unsigned long long x = strtoull(p, &end, 10);
		if (*p < '0' || *p > '9' || errno || (*end && *end != ' ' && *end != '\t' &&
						      *end != '\n')) {
			snprintf(err, errlen, "%s:%d:%d: expected a count of ticks, got '%s'", name,
				 lineno, (int)(p - line) + 1, token(p, tok, sizeof tok));
			return -1;
		}
		if (n < 8)
			v[n] = x;
		n++;
		p = end;
	}
	if (n < 4) {
		snprintf(err, errlen, "%s:%d:%d: expected at least 4 tick counts (user nice system "
			 "idle), got %d", name, lineno, (int)(p - line) + 1, n);
		return -1;
	}
	t->work += v[0] + v[1] + v[2] + v[5] + v[6];
	t->idle += v[3] + v[4];
	t->steal += v[7];
	t->cores++;
	return 0;
}

/* /proc/stat's text into t, over the cpuN lines whose N is allowed
 * (allowed NULL: all).  0, or -1 and err. */
static int parse_stat(const char *text, const char *name, const bool *allowed, int nallowed,
		      struct ticks *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	int lineno = 0;
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		lineno++;
		if (strncmp(line, "cpu", 3) == 0 && line[3] >= '0' && line[3] <= '9') {
			char *end;
			long cpu = strtol(line + 3, &end, 10);
			if (*end != ' ' && *end != '\t') {
				char tok[48];
				snprintf(err, errlen, "%s:%d:1: expected cpuN and its tick counts, got "
					 "'%s'", name, lineno, token(line, tok, sizeof tok));
				return -1;
			}
			bool mine = !allowed || (cpu < nallowed && allowed[cpu]);
			if (mine && cpu_line(line, end, name, lineno, t, err, errlen))
				return -1;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (t->cores == 0) {
		snprintf(err, errlen, "%s:1:1: no 'cpuN' line of a core this process may use", name);
		return -1;
	}
	return 0;
}

/* /proc/loadavg's first field, the 1-minute load average.  0, or -1 and
 * err. */
static int parse_loadavg(const char *text, const char *name, double *load1, char *err,
			 size_t errlen)
{
	const char *p = text + strspn(text, " \t");
	char *end, tok[48];
	errno = 0;
	*load1 = strtod(p, &end);
	if (end == p || errno || !(*load1 >= 0 && *load1 < 1e9) ||
	    (*end && *end != ' ' && *end != '\t' && *end != '\n')) {
		snprintf(err, errlen, "%s:1:%d: expected the 1-minute load average, got '%s'", name,
			 (int)(p - text) + 1, token(p, tok, sizeof tok));
		return -1;
	}
	return 0;
}

int cal_load_judge(const struct cal_load_in *in, struct cal_load *l, char *err, size_t errlen)
{
	struct ticks a, b;
	memset(l, 0, sizeof *l);
	if (parse_stat(in->stat0, in->stat_name, in->allowed, in->nallowed, &a, err, errlen) ||
	    parse_stat(in->stat1, in->stat_name, in->allowed, in->nallowed, &b, err, errlen) ||
	    parse_loadavg(in->loadavg, in->loadavg_name, &l->load1, err, errlen))
		return -1;
	if (a.cores != b.cores) {
		snprintf(err, errlen, "%s: %d cores at the window's start, %d at its end", in->stat_name,
			 a.cores, b.cores);
		return -1;
	}
	if (b.work < a.work || b.idle < a.idle || b.steal < a.steal) {
		snprintf(err, errlen, "%s: a tick count went backwards over the window", in->stat_name);
		return -1;
	}
	double work = (double)(b.work - a.work), steal = (double)(b.steal - a.steal);
	double total = work + (double)(b.idle - a.idle) + steal;
	if (!(total > 0) || !(in->hz > 0)) {
		snprintf(err, errlen, "%s: no tick passed over the window", in->stat_name);
		return -1;
	}
	double per_core = total / a.cores; /* ticks each core lived through */
	double other = (work - in->own_s * in->hz) / per_core;
	l->cores = a.cores;
	l->window = per_core / in->hz;
	l->other = other > 0 ? other : 0;
	l->steal = steal / total;
	l->busy = l->other > CAL_BUSY_CORES || l->steal > CAL_BUSY_STEAL;
	return 0;
}

/* The whole of a /proc file (its size reads 0) into a NUL-terminated
 * buffer (free it).  NULL and err when it cannot be read. */
static char *slurp_proc(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s:0:0: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = NULL;
	int cap = 0, n = 0;
	for (;;) {
		xgrow(&buf, &cap, n + 4097, 1);
		size_t r = fread(buf + n, 1, 4096, f);
		n += (int)r;
		if (r < 4096 || n > (4 << 20))
			break;
	}
	bool bad = ferror(f) != 0;
	fclose(f);
	if (bad) {
		snprintf(err, errlen, "%s:0:0: cannot read: %s", path, strerror(errno ? errno : EIO));
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

static double process_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int cal_allowed_cpus(int *cpu, int max)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 0;
	int n = 0;
	for (int i = 0; i < CPU_SETSIZE && n < max; i++)
		if (CPU_ISSET(i, &set))
			cpu[n++] = i;
	return n;
}

int cal_load_read(struct cal_load *l, char *err, size_t errlen)
{
	if (cal_load_hook)
		return cal_load_hook(l, err, errlen);
	bool allowed[CPU_SETSIZE] = {false};
	int cpu[CPU_SETSIZE], ncpu = cal_allowed_cpus(cpu, CPU_SETSIZE);
	bool masked = ncpu > 0; /* else every cpuN line counts */
	for (int i = 0; i < ncpu; i++)
		allowed[cpu[i]] = true;
	char *s0 = slurp_proc("/proc/stat", err, errlen), *s1 = NULL, *avg = NULL;
	int rc = -1;
	if (!s0)
		return -1;
	double own = process_cpu_s();
	struct timespec w = {0, (long)(CAL_BUSY_WINDOW * 1e9)};
	while (nanosleep(&w, &w) && errno == EINTR)
		;
	own = process_cpu_s() - own;
	if ((s1 = slurp_proc("/proc/stat", err, errlen)) &&
	    (avg = slurp_proc("/proc/loadavg", err, errlen))) {
		long hz = sysconf(_SC_CLK_TCK);
		struct cal_load_in in = {s0, s1, avg, "/proc/stat", "/proc/loadavg",
					 masked ? allowed : NULL, CPU_SETSIZE, own,
					 hz > 0 ? (double)hz : 100};
		rc = cal_load_judge(&in, l, err, errlen);
	}
	free(s0);
	free(s1);
	free(avg);
	return rc;
}

void cal_load_line(const struct cal_load *l, char *line, size_t len)
{
	snprintf(line, len, "other work holds %.2f of %d core%s, steal %.1f %% (over %.2f s; load "
		 "average %.2f)", l->other, l->cores, l->cores == 1 ? "" : "s", 100 * l->steal,
		 l->window, l->load1);
}

void cal_load_add(struct cal_load_sum *s, const struct cal_load *l)
{
	s->checks++;
	s->busy += l->busy;
	s->cores = l->cores;
	s->other_max = l->other > s->other_max ? l->other : s->other_max;
	s->steal_max = l->steal > s->steal_max ? l->steal : s->steal_max;
	s->load1_max = l->load1 > s->load1_max ? l->load1 : s->load1_max;
}

bool cal_load_busy(bool faked, char *line, size_t len)
{
	struct cal_load l;
	char err[512];
	line[0] = '\0';
	if (faked && !cal_load_hook)
		return false;
	if (cal_load_read(&l, err, sizeof err) || !l.busy)
		return false;
	cal_load_line(&l, line, len);
	return true;
}
