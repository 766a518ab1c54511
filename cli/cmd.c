/* cmd.c - what the commands share: option parsing and help, the stop
 * signals' catch, numbers, seeds and sizes from the command line,
 * plugins, a policy by name.  Below every command (cli/commands.c holds
 * the table that calls them), so that it calls none of them. */
#include "registry.h"
#include "load.h"
#include "cmd.h"
#include "metrics.h"

#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <stdbool.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"

/* One option's value into out; -1 (a message printed) if bad. */
static int take(const char *cmd, const struct cmd_opt *o, int k, const char *v,
		struct cmd_args *out)
{
	if (o->arg && !*v) {
		fprintf(stderr, "hetsim %s: option '--%s' wants a value (%s), got ''\n", cmd,
			o->name, o->arg);
		return -1;
	}
	/* a path past what the folders' names can hold would be cut: refused
	 * before a folder is made (it made the cut one) */
	if (o->arg && (!strcmp(o->arg, "DIR") || !strcmp(o->arg, "FILE")) &&
	    strlen(v) > CMD_PATH_MAX) {
		fprintf(stderr, "hetsim %s: option '--%s' wants a path of at most %d characters, "
			"got one of %zu\n", cmd, o->name, CMD_PATH_MAX, strlen(v));
		return -1;
	}
	if (out->n == ARRAY_LEN(out->val)) {
		fprintf(stderr, "hetsim %s: more than %d options\n", cmd, (int)ARRAY_LEN(out->val));
		return -1;
	}
	out->opt[out->n] = k;
	out->val[out->n++] = v;
	return 0;
}

/* The long option `name` (its first `len` characters) of opts: exact,
 * else the one it is an unambiguous prefix of (getopt_long's rule); -1
 * (a message printed) if none or several. */
static int long_opt(const char *cmd, const struct cmd_opt *opts, const char *name, size_t len)
{
	int k = -1, n = 0;
	for (int o = 0; opts[o].name; o++) {
		if (strncmp(opts[o].name, name, len))
			continue;
		if (strlen(opts[o].name) == len)
			return o;
		k = o, n++;
	}
	if (n == 1)
		return k;
	fprintf(stderr, "hetsim %s: %s option '--%.*s' (see hetsim %s --help)\n", cmd,
		n ? "ambiguous" : "unknown", (int)len, name, cmd);
	return -1;
}

/* getopt_long's command line: `--name value`, `--name=value`, a unique
 * prefix of a name, `-x value`, `-xvalue`, bundled flags (`-qh`, the last
 * of a bundle may take a value: `-qr2`), `--` ending the options, `-` an
 * argument; options and arguments in any order.  An option that takes a
 * value never takes an empty one. */
int cmd_parse(const char *cmd, const struct cmd_opt *opts, int argc, char **argv,
	      struct cmd_args *out)
{
	memset(out, 0, sizeof *out);
	bool only_args = false;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (only_args || a[0] != '-' || a[1] == '\0') {
			if (out->npos == ARRAY_LEN(out->pos)) {
				fprintf(stderr, "hetsim %s: more than %d arguments at '%s'\n", cmd,
					(int)ARRAY_LEN(out->pos), a);
				return -1;
			}
			out->pos[out->npos++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = true;
			continue;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			int k = long_opt(cmd, opts, a + 2, len);
			if (k < 0)
				return -1;
			const char *v = "1";
			if (opts[k].arg) {
				if (eq)
					v = eq + 1;
				else if (i + 1 < argc)
					v = argv[++i];
				else {
					fprintf(stderr, "hetsim %s: option '--%s' needs a value (%s)\n",
						cmd, opts[k].name, opts[k].arg);
					return -1;
				}
			} else if (eq) {
				fprintf(stderr, "hetsim %s: option '--%s' takes no value\n", cmd,
					opts[k].name);
				return -1;
			}
			if (take(cmd, &opts[k], k, v, out))
				return -1;
			continue;
		}
		for (const char *c = a + 1; *c; c++) { /* -x, -xVALUE, -qh */
			int k = -1;
			for (int o = 0; opts[o].name && k < 0; o++)
				if (opts[o].short_name == *c)
					k = o;
			if (k < 0) {
				fprintf(stderr, "hetsim %s: unknown option '-%c'%s%s%s (see hetsim %s "
					"--help)\n", cmd, *c, c == a + 1 ? "" : " in '",
					c == a + 1 ? "" : a, c == a + 1 ? "" : "'", cmd);
				return -1;
			}
			if (!opts[k].arg) {
				if (take(cmd, &opts[k], k, "1", out))
					return -1;
				continue;
			}
			const char *v = c[1] ? c + 1 : i + 1 < argc ? argv[++i] : NULL;
			if (!v) {
				fprintf(stderr, "hetsim %s: option '--%s' needs a value (%s)\n", cmd,
					opts[k].name, opts[k].arg);
				return -1;
			}
			if (take(cmd, &opts[k], k, v, out))
				return -1;
			break;
		}
	}
	return 0;
}

int cmd_unique(const char *cmd, const struct cmd_opt *opts, const struct cmd_args *a,
	       const char *name)
{
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(opts[a->opt[i]].name, name) && a->opt[j] == a->opt[i] &&
			    !strcmp(a->val[i], a->val[j])) {
				fprintf(stderr, "hetsim %s: option '--%s': '%s' given twice\n", cmd,
					name, a->val[i]);
				return -1;
			}
	return 0;
}

const char *cmd_get(const struct cmd_opt *opts, const struct cmd_args *a, const char *name)
{
	const char *v = NULL;
	for (int i = 0; i < a->n; i++)
		if (strcmp(opts[a->opt[i]].name, name) == 0)
			v = a->val[i];
	return v;
}

void cmd_help(const char *cmd, const char *usage, const char *about,
	      const struct cmd_opt *opts)
{
	printf("usage: hetsim %s %s\n\n%s\n", cmd, usage, about);
	if (opts[0].name)
		printf("\noptions:\n");
	for (int o = 0; opts[o].name; o++) {
		char left[64], sh[8] = "    ";
		if (opts[o].short_name)
			snprintf(sh, sizeof sh, "-%c, ", opts[o].short_name);
		snprintf(left, sizeof left, "%s--%s%s%s", sh, opts[o].name, opts[o].arg ? " " : "",
			 opts[o].arg ? opts[o].arg : "");
		printf("  %-26s %s\n", left, opts[o].help);
	}
}

volatile sig_atomic_t cmd_stopped;

/* The handlers before cmd_stop_catch's (the guard's, which removes the
 * temporary files and ends the process at once), for a second signal. */
static struct sigaction before_int, before_term;

/* The first signal asks the command to stop where it looks (a run: its
 * watch, between events), and hands the next one back to the handlers
 * before: a second SIGINT or SIGTERM ends the process at once, its
 * temporary files removed, where a policy's decision runs long.
 * sigaction is async-signal-safe. */
static void on_stop(int sig)
{
	cmd_stopped = sig;
	sigaction(SIGINT, &before_int, NULL);
	sigaction(SIGTERM, &before_term, NULL);
}

void cmd_stop_catch(struct cmd_stop *c)
{
	struct sigaction stop = {.sa_handler = on_stop};
	sigemptyset(&stop.sa_mask);
	cmd_stopped = 0;
	sigaction(SIGINT, &stop, &c->old_int);
	sigaction(SIGTERM, &stop, &c->old_term);
	before_int = c->old_int;
	before_term = c->old_term;
}

void cmd_stop_release(const struct cmd_stop *c)
{
	sigaction(SIGINT, &c->old_int, NULL);
	sigaction(SIGTERM, &c->old_term, NULL);
}

const char *cmd_stop_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : "SIGTERM";
}

int cmd_seed(const char *cmd, const char *v, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || end == v || *end || *v == '-' || *v == '+' || *v == ' ') {
		fprintf(stderr, "hetsim %s: option '--seed' wants an integer from 0 to %" PRIu64
			" (as a scenario's seed), got '%s'\n", cmd, UINT64_MAX, v);
		return -1;
	}
	*out = x;
	return 0;
}

int64_t cmd_int(const char *cmd, const char *opt, const char *v, int64_t max)
{
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (errno || end == v || *end || x < 0 || x > max) {
		fprintf(stderr, "hetsim %s: option '--%s' wants an integer from 0 to %" PRId64
			", got '%s'\n", cmd, opt, max, v);
		return -1;
	}
	return x;
}

int cmd_load_plugins(const struct cmd_opt *opts, const struct cmd_args *a)
{
	for (int i = 0; i < a->n; i++) {
		char err[1024];
		if (strcmp(opts[a->opt[i]].name, "plugin") != 0 ||
		    pol_plugin_load(a->val[i], err, sizeof err))
			continue;
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	return 0;
}

int cmd_max_memory(const char *cmd, const struct cmd_opt *opts, const struct cmd_args *a)
{
	const char *v = cmd_get(opts, a, "max-memory");
	scn_max_memory = 0;
	if (!v)
		return 0;
	if (!strcmp(v, "none")) {
		scn_max_memory = -1;
		return 0;
	}
	static const struct { const char *u; double f; } units[] = {
		{"B", 1}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0},
		{"TiB", 1099511627776.0}};
	char *end;
	double x = strtod(v, &end);
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (end != v && !strcmp(end, units[i].u) && x > 0 && x * units[i].f <= 9e18 &&
		    x * units[i].f >= 1) {
			scn_max_memory = (int64_t)(x * units[i].f);
			return 0;
		}
	fprintf(stderr, "hetsim %s: option '--max-memory' wants a size such as 8GiB or 512MiB "
		"(B, KiB, MiB, GiB, TiB), or none, got '%s'\n", cmd, v);
	return -1;
}

int cmd_max_stall(const char *cmd, const struct cmd_opt *opts, const struct cmd_args *a)
{
	const char *v = cmd_get(opts, a, "max-stall");
	sim_max_stall = 0;
	if (!v)
		return 0;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || end == v || *end || *v == '-' || *v == '+' || x < 1) {
		fprintf(stderr, "hetsim %s: option '--max-stall' wants a count of events, at least 1, "
			"got '%s'\n", cmd, v);
		return -1;
	}
	sim_max_stall = x;
	return 0;
}

/* Warn of a periodic check or timer that gives more than POL_PERIOD_RATE
 * events a simulated second: Spark's speculation check (while tasks
 * run), a policy's rounds (a switch marked period).  Its clock moves, so
 * the no-progress watchdog never stops such a run: it is only slow.
 * Returns the warnings, written to f. */
int cmd_rate_warnings(const struct scn *s, FILE *f)
{
	int warnings = 0;
	if (s->spec.enabled && 1e6 / (double)s->spec.interval_us > POL_PERIOD_RATE) {
		fprintf(f, "%s:%d:%d: warning: speculation interval of %g s: a check every interval "
		       "while tasks run, %.0f events a simulated second (more than %d): each "
		       "simulated hour takes %.3g events\n", s->spec.pos.file, s->spec.pos.line,
		       s->spec.pos.col, (double)s->spec.interval_us / 1e6,
		       1e6 / (double)s->spec.interval_us, POL_PERIOD_RATE,
		       3.6e9 / (double)s->spec.interval_us);
		warnings++;
	}
	for (int p = 0; p < s->npolicies; p++) {
		const struct scn_policy *pol = &s->policies[p];
		for (int k = 0; k < pol->nparams; k++) {
			const struct scn_param *q = &pol->params[k];
			const struct pol_param *d = pol->ops ? pol->ops->params : NULL;
			while (d && d->key && strcmp(d->key, q->key))
				d++;
			if (!d || !d->key || !d->period || q->num <= 0 ||
			    1e6 / q->num <= POL_PERIOD_RATE)
				continue;
			fprintf(f, "%s:%d:%d: warning: policy '%s' switch '%s' of %g s: a timer every %g s "
			       "while jobs are active, %.0f events a simulated second (more than %d): "
			       "each simulated hour takes %.3g events\n", q->pos.file, q->pos.line,
			       q->pos.col, pol->name, q->key, q->num / 1e6, q->num / 1e6, 1e6 / q->num,
			       POL_PERIOD_RATE, 3.6e9 / q->num);
			warnings++;
		}
	}
	return warnings;
}

void cmd_not_done_add(struct cmd_not_done *n, const struct met_run *m)
{
	n->counted += m->counted;
	n->done += m->done;
	n->failed += m->failed;
	n->timed_out += m->timed_out;
	n->unplaceable += m->unplaceable;
	for (int k = 0; k < SIM_WHY_CODES; k++)
		n->why[k] += m->why[k];
}

void cmd_warn_not_done(FILE *f, const struct scn *s, const char *pol,
		       const struct cmd_not_done *a, int reps)
{
	int64_t nd = a->failed + a->timed_out + a->unplaceable;
	char why[512] = "";
	int64_t shown[3] = {0};
	int code[3] = {-1, -1, -1};
	for (int k = 1; k < SIM_WHY_CODES; k++)
		for (int i = 0; i < 3; i++)
			if (a->why[k] > shown[i]) {
				for (int t = 2; t > i; t--)
					shown[t] = shown[t - 1], code[t] = code[t - 1];
				shown[i] = a->why[k];
				code[i] = k;
				break;
			}
	for (int i = 0; i < 3 && code[i] >= 0; i++) {
		char b[160];
		snprintf(why + strlen(why), sizeof why - strlen(why), "%s%s (%" PRId64 ")",
			 i ? ", " : code[1] >= 0 ? "; reasons: " : "; reason: ",
			 sim_why_name(s, code[i], b, sizeof b), shown[i]);
	}
	fprintf(f, "warning: %s: %" PRId64 " of %" PRId64 " counted jobs not done%s (%" PRId64
		" failed, %" PRId64 " timed out, %" PRId64 " unplaceable)%s%s\n", pol, nd,
		a->counted, reps > 1 ? " over the replications" : "", a->failed, a->timed_out,
		a->unplaceable, why, a->done ? "" : "; no job done: its job figures are empty");
}

int cmd_io_errno(FILE *f, int e)
{
	if (e && e != EIO)
		return e;
	struct stat st;
	struct rlimit rl;
	struct statvfs vs;
	int fd = fileno(f);
	if (fd >= 0 && !fstat(fd, &st) && !getrlimit(RLIMIT_FSIZE, &rl) &&
	    rl.rlim_cur != RLIM_INFINITY && (unsigned long long)st.st_size >= rl.rlim_cur)
		return EFBIG;
	if (fd >= 0 && !fstatvfs(fd, &vs) && vs.f_bavail == 0)
		return ENOSPC;
	return EIO;
}

int cmd_policy_named(const struct scn *s, const char *name, struct scn_policy *out)
{
	for (int i = 0; i < s->npolicies; i++)
		if (strcmp(s->policies[i].name, name) == 0) {
			*out = s->policies[i];
			return 0;
		}
	const struct policy_ops *ops = pol_find(name);
	if (!ops)
		return -1;
	*out = (struct scn_policy){.name = (char *)name, .kind = (char *)name, .ops = ops};
	return 0;
}
