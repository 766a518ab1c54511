/* guard.h - a fault or a stop leaves the output folders as they were
 * (cmd_guard_ prefix).
 *
 * hetsim writes every result through a temporary file renamed at the
 * end, into folders it may have made.  When the process dies before the
 * end — a plugin's segfault, an abort on a broken invariant, a floating
 * point trap, SIGINT or SIGTERM where no command catches them — the
 * handlers installed here remove the temporary files and the folders
 * this process made that are empty again, write one line saying what
 * happened and where (the policy and hook running: sim_fault_where), and
 * end the process: a fault by the same signal (the shell shows 128 + its
 * number: 134 for SIGABRT, 139 for SIGSEGV; a core where the limits
 * allow one), SIGINT, SIGTERM and SIGHUP with exit status 128 + the
 * signal.  Everything a handler touches is a fixed table filled with
 * async-signal-safe calls only (unlink, rmdir, write).
 *
 * A forked child inherits the table; the handlers act only on the
 * entries of the process that made them, so a child's fault never
 * removes its parent's files.
 */
#ifndef HETSIM_GUARD_H
#define HETSIM_GUARD_H

/* Install the handlers (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT on an
 * alternate stack; SIGINT, SIGTERM, SIGHUP) once per process; later
 * calls do nothing.  cmd_main calls it. */
void cmd_guard_install(void);

/* A temporary file of this process (a path of at most 4095 bytes), to be
 * removed should the process die: its slot, or -1 when the table (256
 * entries) is full (the file is then left to the caller alone). */
int cmd_guard_file(const char *path);

/* A folder this process made, to be removed (if empty) should the
 * process die: its slot, or -1 when the table is full. */
int cmd_guard_dir(const char *path);

/* Slot `slot` (-1: nothing) is settled: the file was renamed or
 * removed, the folder is kept or was removed by its owner. */
void cmd_guard_done(int slot);

/* The line a handler writes, with `what` for the signal's words: into
 * buf (async-signal-safe), its length.  For tests. */
int cmd_guard_line(char *buf, int len, const char *what);

#endif
