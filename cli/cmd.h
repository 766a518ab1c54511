/* cmd.h - the hetsim command: subcommands and their options as data
 * (cmd_ prefix, git's builtin table).
 *
 * Module: cli/, the top layer: the command line and the CSV writers
 * (the figures are plot/'s).  It may include every other module; none
 * includes it. */
#ifndef HETSIM_CMD_H
#define HETSIM_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "sim.h"

struct scn;
struct scn_policy;

/* The policy `--policy NAME` names in scenario s: its entry of that name,
 * else a registered policy of that kind with its defaults (and its ops:
 * the loader resolves only the entries it reads).  -1 if neither. */
int cmd_policy_named(const struct scn *s, const char *name, struct scn_policy *out);

/* One option of a subcommand: drives both parsing and --help. */
struct cmd_opt {
	const char *name;   /* long name without "--" */
	char short_name;    /* 0 if none */
	const char *arg;    /* argument name, NULL for a flag */
	const char *help;
};

/* Parsed options: values in option order; a repeated option keeps all. */
struct cmd_args {
	const char *pos[256]; int npos;     /* positional arguments */
	const char *val[256]; int opt[256]; /* value (or "1") and option index */
	int n;
};

/* Load every `--plugin FILE` of a (opts has a "plugin" option), in order,
 * registering their policies (policies/registry.h, pol_plugin_load).
 * Returns 0, or 1 after printing the one line "FILE: problem" of the
 * first that fails. */
int cmd_load_plugins(const struct cmd_opt *opts, const struct cmd_args *a);

/* The longest path an option takes (DIR, FILE): the files under it keep
 * their names within PATH_MAX. */
#define CMD_PATH_MAX 3800
/* Parse argv against opts.  On a bad command line prints
 * "hetsim CMD: <what>" and returns -1 (the caller exits 2). */
int cmd_parse(const char *cmd, const struct cmd_opt *opts, int argc, char **argv,
	      struct cmd_args *out);
/* Option `name` given twice with one value (`-p fifo -p fifo`): prints
 * "hetsim CMD: option '--NAME': 'V' given twice" and returns -1 (the
 * caller exits 2); else 0. */
int cmd_unique(const char *cmd, const struct cmd_opt *opts, const struct cmd_args *a,
	       const char *name);
/* Last value of option `name`, or NULL. */
const char *cmd_get(const struct cmd_opt *opts, const struct cmd_args *a, const char *name);
void cmd_help(const char *cmd, const char *usage, const char *about,
	      const struct cmd_opt *opts);
/* `--max-memory SIZE|none` of opts, into scn_max_memory (input/load.h:
 * what a load may plan for; absent: the machine's available memory);
 * -1 and a message if bad. */
int cmd_max_memory(const char *cmd, const struct cmd_opt *opts, const struct cmd_args *a);
/* --max-stall N: the no-progress watchdog's bound for the runs the
 * command makes (sim_max_stall); 0 or absent: the default.  Prints the
 * message and returns -1 on a bad value. */
int cmd_max_stall(const char *cmd, const struct cmd_opt *opts, const struct cmd_args *a);
/* Jobs counted over replications, by how they ended, and why not done
 * (met_run's counts, summed). */
struct cmd_not_done {
	int64_t counted, done, failed, timed_out, unplaceable;
	int64_t why[SIM_WHY_CODES];
};
struct met_run;
void cmd_not_done_add(struct cmd_not_done *n, const struct met_run *m);
/* "warning: POL: N of C counted jobs not done over the replications (F
 * failed, T timed out, U unplaceable); reasons: ..." into f: run's and
 * compare's line for a policy that left jobs not done. */
void cmd_warn_not_done(FILE *f, const struct scn *s, const char *pol,
		       const struct cmd_not_done *n, int reps);

/* Why writes to f failed, its error flag set and errno no longer the
 * failing write's: e if it says (nonzero, not EIO), else EFBIG when f's
 * file has reached the file size limit (ulimit -f), ENOSPC when its file
 * system has no block left, else EIO.  Call it before fclose. */
int cmd_io_errno(FILE *f, int e);

/* Warn, into f, of Spark's speculation check or a policy's rounds (a
 * switch marked period) giving more than POL_PERIOD_RATE events a
 * simulated second, at the value's position; the warnings' count.
 * `validate` (stdout) and `run` (stderr) call it. */
int cmd_rate_warnings(const struct scn *s, FILE *f);
#define CMD_MAXSTALL_OPT {"max-stall", 0, "N", "stop a run whose clock stands still for more " \
	"than N events (default 10 x (jobs + tasks + nodes) + 1000)"}
#define CMD_MAXMEM_OPT {"max-memory", 0, "SIZE", "the memory a load may plan for: a run, a " \
			"sweep's points, a trace (8GiB; none: no guard; default: what this " \
			"machine has available)"}
/* `--seed`'s value: 0 .. 2^64 - 1, the range of a scenario's `seed`;
 * -1 and a message if bad. */
int cmd_seed(const char *cmd, const char *v, uint64_t *out);
/* SIGINT and SIGTERM while a command works (run, sweep): cmd_stop_catch
 * sets cmd_stopped to the signal that comes (0 until one does) and keeps
 * the handlers it replaces in *c; cmd_stop_release puts them back.  The
 * command looks at cmd_stopped, stops at once, writes no file, and exits
 * 128 + the signal; cmd_stop_name(sig): "SIGINT" or "SIGTERM". */
struct cmd_stop {
	struct sigaction old_int, old_term;
};
extern volatile sig_atomic_t cmd_stopped;
void cmd_stop_catch(struct cmd_stop *c);
void cmd_stop_release(const struct cmd_stop *c);
const char *cmd_stop_name(int sig);
/* Parse a non-negative integer option value; -1 and a message if bad. */
int64_t cmd_int(const char *cmd, const char *opt, const char *v, int64_t max);

/* What `hetsim run` runs. */
struct cmd_run_opts {
	const char *policies[16]; int npolicies;  /* names; none = all */
	bool seed_set; uint64_t seed;
	int replications;         /* 0 = the scenario's */
	int only_replication;     /* -1 = all */
	bool quiet;               /* no table, no notes */
	const char *baseline;     /* policy the change is against; NULL: the
				   * first policy listed */
	const char *trace_json;   /* --trace-json: the first replication run's
				   * timeline of each policy there; NULL: none */
	bool rows_inline;         /* format the rows on the simulating thread
				   * rather than a second one (bgq.h): the same
				   * bytes, slower; tests compare the two */
	bool no_rows;             /* --no-rows: write neither jobs.csv nor
				   * executors.csv; the other files the same */
};

/* Run a scenario and write runs.csv, types.csv, jobs.csv, executors.csv
 * (neither of these two under o->no_rows), timing.csv and table.md into
 * `dir` (created if missing), each through a temporary file renamed at
 * the end, so a failed run leaves no partial file.  Prints the table on
 * stdout unless quiet.  Returns 0, 1 on bad input (message printed), 2
 * on a bad option value. */
int cmd_run_scenario(struct scn *s, const struct cmd_run_opts *o, const char *dir);

/* What `hetsim sweep` runs. */
struct cmd_sweep_opts {
	const char *policies[16]; int npolicies;  /* names; none = each point's all */
	bool seed_set; uint64_t seed;
	int replications;         /* 0 = each point's own */
	int workers;              /* simulations at a time: 1 = in this process,
				   * more = forked worker processes; 0 = online CPUs */
	bool quiet;               /* no table, no notes, no progress bar */
	const char *baseline;     /* policy the changes are against; NULL: the
				   * first policy listed */
	/* Resumable state (hetsim sweep, docs/output.md "Interrupts and
	 * --resume"): when state_head is set, DIR/sweep.state is written as
	 * the runs come back (state_head first, then each run's rows), and
	 * removed when the sweep is done; NULL: none kept.  resume: the runs
	 * a state file held (their rows), run_index -> text, NULL where not
	 * done; state_runs their count (entries), nresumed those set. */
	const char *state_head;
	char **resume;
	long state_runs, nresumed;
};

struct scn_sweep;

/* Run every (point, policy, replication) of a sweep and write runs.csv
 * and summary.csv into `dir` (created if missing) through temporary
 * files renamed at the end, so a failed sweep leaves no partial file.
 * The bytes written do not depend on o->workers (nor, built with MPI, on
 * the number of ranks; only rank 0 writes).  Sets every point's seed when
 * o->seed_set.  Prints the table on stdout unless quiet.  Returns 0, 1 on
 * a failure (message printed), 2 on a bad option value. */
int cmd_sweep_scenario(struct scn_sweep *sw, const struct cmd_sweep_opts *o, const char *dir);

int cmd_main(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_replay_log(int argc, char **argv);
int cmd_fgd(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
/* One "warning:" line on f for each trace of s with records skipped or
 * clamped (input/trace.h, trace_warning). */
void cmd_trace_warnings(const struct scn *s, FILE *f);

#endif
