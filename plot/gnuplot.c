/* gnuplot.c - running gnuplot on a script of plot/: finding gnuplot and
 * the scripts, one run through a temporary output renamed when whole
 * (plot_gnuplot, plot_gnuplot_both), gnuplot's string assignments
 * (plot_gp_str), and the check that a figure gnuplot wrote is whole
 * (plot_figure_incomplete).
 *
 * May call: sim/util.h (allocation); POSIX fork/exec.
 */
#include "plot.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

static bool on_path(const char *prog)
{
	const char *p = getenv("PATH");
	for (p = p ? p : "/usr/bin:/bin";; p++) {
		size_t n = strcspn(p, ":");
		char f[4200];
		snprintf(f, sizeof f, "%.*s/%s", (int)n, n ? p : ".", prog);
		if (access(f, X_OK) == 0)
			return true;
		if (!p[n])
			return false;
		p += n;
	}
}

/* plot/NAME: $HETSIM_PLOT_DIR, else bin/../plot, else ./plot. */
static bool find_script(const char *name, char *buf, size_t len)
{
	char exe[4096], at_exe[4200];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(at_exe, sizeof at_exe, "%s/../plot", exe);
	const char *cand[3] = {getenv("HETSIM_PLOT_DIR"), slash ? at_exe : NULL, "plot"};
	for (int i = 0; i < 3; i++) {
		if (!cand[i])
			continue;
		snprintf(buf, len, "%s/%s", cand[i], name);
		if (access(buf, R_OK) == 0)
			return true;
	}
	return false;
}

static void var_str(char *v, size_t len, const char *name, const char *val);

void plot_gp_str(char *v, size_t len, const char *name, const char *val)
{
	var_str(v, len, name, val);
}

/* gnuplot's '...' string: a ' is written ''. */
static void var_str(char *v, size_t len, const char *name, const char *val)
{
	size_t at = strlen(v);
	at += (size_t)snprintf(v + at, at < len ? len - at : 0, "%s='", name);
	for (; *val && at + 3 < len; val++) {
		if (*val == '\'')
			v[at++] = '\'';
		v[at++] = *val;
	}
	if (at + 3 < len)
		snprintf(v + at, len - at, "'; ");
}

int plot_gnuplot(const char *who, const char *name, const char *vars, const char *png)
{
	char script[4200], tmp[4300];
	if (!on_path("gnuplot")) {
		fprintf(stderr, "hetsim %s: gnuplot not found; figure %s skipped "
				"(install gnuplot-nox)\n", who, png);
		return 0;
	}
	if (!find_script(name, script, sizeof script)) {
		fprintf(stderr, "hetsim %s: plot/%s not found; figure %s skipped "
				"(set HETSIM_PLOT_DIR)\n", who, name, png);
		return 0;
	}
	snprintf(tmp, sizeof tmp, "%s.tmp", png);
	size_t cap = strlen(vars) + strlen(tmp) * 2 + strlen(script) * 2 + 64;
	char *v = xcalloc(1, cap), dir[4200];
	snprintf(v, cap, "%s", vars);
	var_str(v, cap, "outfile", tmp);
	/* the scripts' folder, where a script finds common.gp */
	snprintf(dir, sizeof dir, "%s", script);
	*strrchr(dir, '/') = '\0';
	var_str(v, cap, "plotdir", dir);
	fflush(stdout);
	fflush(stderr);
	int rc = -1, st;
	pid_t pid = fork();
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", "-e", v, script, (char *)NULL);
		_exit(127);
	}
	if (pid > 0) {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		rc = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
	}
	free(v);
	const char *bad = rc ? NULL : plot_figure_incomplete(tmp);
	if (rc || bad || rename(tmp, png)) {
		remove(tmp);
		fprintf(stderr, "hetsim %s: figure %s not written: %s\n", who, png,
			rc ? "gnuplot failed" : bad ? bad : "cannot rename it");
		return 1;
	}
	printf("wrote %s\n", png);
	return 0;
}

const char *plot_figure_incomplete(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return "gnuplot wrote no file";
	char tail[64] = "";
	long n = 0;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0) {
		long k = n < (long)sizeof tail - 1 ? n : (long)sizeof tail - 1;
		if (fseek(f, n - k, SEEK_SET) || fread(tail, 1, (size_t)k, f) != (size_t)k)
			n = 0;
		tail[k] = 0;
	}
	fclose(f);
	if (n <= 0)
		return "gnuplot wrote an empty file (a full disk?)";
	size_t len = strlen(path);
	if (len > 8 && !strcmp(path + len - 8, ".svg.tmp") && !strstr(tail, "</svg>"))
		return "the SVG gnuplot wrote has no closing </svg> (a full disk?)";
	static const unsigned char iend[8] = {'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
	long k = n < 63 ? n : 63;
	if (len > 8 && !strcmp(path + len - 8, ".png.tmp") &&
	    (k < 8 || memcmp(tail + k - 8, iend, 8)))
		return "the PNG gnuplot wrote has no IEND chunk (a full disk?)";
	return NULL;
}

int plot_gnuplot_both(const char *who, const char *name, const char *vars, const char *stem)
{
	static const char *const fmts[] = {"png", "svg"};
	int rc = 0;
	for (int i = 0; i < 2; i++) {
		size_t cap = strlen(vars) + 32;
		char *v = xcalloc(1, cap), out[4300];
		snprintf(v, cap, "%sfmt='%s'; ", vars, fmts[i]);
		snprintf(out, sizeof out, "%s.%s", stem, fmts[i]);
		if (plot_gnuplot(who, name, v, out))
			rc = -1;
		free(v);
	}
	return rc;
}

bool plot_gnuplot_on_path(void)
{
	const char *p = getenv("PATH");
	for (p = p ? p : "/usr/bin:/bin";; p++) {
		size_t n = strcspn(p, ":");
		char f[4200];
		snprintf(f, sizeof f, "%.*s/gnuplot", (int)n, n ? p : ".");
		if (access(f, X_OK) == 0)
			return true;
		if (!p[n])
			return false;
		p += n;
	}
}

/* plot/: $HETSIM_PLOT_DIR, else next to the binary (bin/../plot), else ./plot. */
const char *plot_find_scripts(char *buf, size_t len)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	const char *env = getenv("HETSIM_PLOT_DIR");
	char at_exe[4200];
	snprintf(at_exe, sizeof at_exe, "%s/../plot", exe);
	const char *cand[3] = {env, slash ? at_exe : NULL, "plot"};
	for (int i = 0; i < 3; i++) {
		char f[4300];
		snprintf(f, sizeof f, "%s/common.gp", cand[i] ? cand[i] : "");
		if (cand[i] && access(f, R_OK) == 0) {
			snprintf(buf, len, "%s", cand[i]);
			return buf;
		}
	}
	return NULL;
}

int plot_run_gnuplot(const char *script, const char *vars)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", "-e", vars, script, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}
