/* rows.c - the runs.csv and types.csv rows of one finished run (see
 * rows.h). */
#include "models.h"
#include "rows.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics.h"
#include "scenario.h"
#include "cmd.h"
#include "guard.h"
#include "sim.h"
#include "util.h"

/* A value of a row: ",%.*f" of x, or "," alone for NaN (nothing to
 * measure: docs/output.md's empty fields). */
static char *put_fixed(char *p, double x, int decimals)
{
	*p++ = ',';
	return isnan(x) ? p : wr_fixed(p, x, decimals);
}

static char *put_int(char *p, int64_t v)
{
	*p++ = ',';
	return wr_i64(p, v);
}

size_t rows_run_buf(char *buf, const struct scn *sc, int rep, const struct met_run *m)
{
	/* written with wr_fixed: printf's bytes, without the tenth of a
	 * short replication's time that printf took */
	char *p = buf;
	const double fixed[] = {m->makespan_s, m->jct_mean_s, m->jct_p50_s, m->jct_p95_s,
				m->jct_p99_s, m->wait_mean_s, m->slowdown_mean,
				m->slowdown_p50, m->slowdown_p95, m->slowdown_p99,
				m->bsld_mean, m->bsld_p50, m->bsld_p95, m->bsld_p99,
				m->cpu_util, m->gpu_util, m->cpu_alloc, m->gpu_alloc};
	p = wr_i64(p, rep);
	*p++ = ',';
	p = wr_u64(p, sc->seed);
	const int counts[] = {m->jobs, m->counted, m->done, m->failed, m->timed_out,
			      m->unplaceable};
	for (int i = 0; i < ARRAY_LEN(counts); i++)
		p = put_int(p, counts[i]);
	for (int i = 0; i < ARRAY_LEN(fixed); i++)
		p = put_fixed(p, fixed[i], 6);
	*p++ = ',';
	p = wr_u64(p, m->events);
	*p++ = ',';
	p = wr_u64(p, m->decisions);
	p = put_fixed(p, m->lost_core_s, 6);
	p = put_fixed(p, m->lost_gpu_s, 6);
	p = put_int(p, m->tasks_retried);
	p = put_int(p, m->execs_lost);
	p = put_int(p, m->preemptions);
	p = put_fixed(p, m->node_availability, 6);
	p = put_int(p, m->spec_launched);
	p = put_int(p, m->spec_won);
	*p++ = ','; /* done_set: 16 hex digits */
	for (int sh = 60; sh >= 0; sh -= 4)
		*p++ = "0123456789abcdef"[(m->done_set >> sh) & 15];
	*p++ = '\n';
	return (size_t)(p - buf);
}

void rows_run(FILE *f, const struct scn *sc, int rep, const struct met_run *m)
{
	char buf[ROWS_RUN_MAX];
	fwrite(buf, 1, rows_run_buf(buf, sc, rep, m), f);
}

/* The types.csv row of model t, from `replication` on (room for
 * ROWS_TYPE_MAX). */
static size_t type_row(char *buf, int rep, int t, const struct met_type *y)
{
	const char *name = jm_name(t);
	size_t len = strlen(name);
	if (len > ROWS_MODEL_NAME_MAX) { /* the registry's names are short */
		fprintf(stderr, "hetsim: model name '%s' is longer than %d characters "
			"(ROWS_MODEL_NAME_MAX, cli/rows.h)\n", name, ROWS_MODEL_NAME_MAX);
		abort();
	}
	char *p = wr_i64(buf, rep);
	*p++ = ',';
	memcpy(p, name, len);
	p += len;
	const int counts[] = {y->jobs, y->counted, y->done, y->failed, y->timed_out,
			      y->unplaceable};
	for (int i = 0; i < ARRAY_LEN(counts); i++)
		p = put_int(p, counts[i]);
	const double fixed[] = {y->jct_mean_s, y->jct_p50_s, y->jct_p95_s, y->jct_p99_s,
				y->wait_mean_s};
	for (int i = 0; i < ARRAY_LEN(fixed); i++)
		p = put_fixed(p, fixed[i], 6);
	*p++ = '\n';
	return (size_t)(p - buf);
}

size_t rows_types_buf(char *buf, int rep, const struct met_run *m)
{
	size_t n = 0;
	for (int t = 0; t < jm_count(); t++)
		if (m->type[t].jobs) /* no row for a model the run has no job of */
			n += type_row(buf + n, rep, t, &m->type[t]);
	return n;
}

void rows_types(FILE *f, const char *lead, int rep, const struct met_run *m)
{
	char buf[ROWS_TYPE_MAX];
	for (int t = 0; t < jm_count(); t++)
		if (m->type[t].jobs) {
			fputs(lead, f);
			fwrite(buf, 1, type_row(buf, rep, t, &m->type[t]), f);
		}
}

size_t rows_timing_buf(char *buf, int rep, double wall_s, const struct sim_totals *t)
{
	double pol_s = 1e-9 * (double)t->policy_ns;
	char *p = buf;
	p = wr_i64(p, rep);
	p = put_fixed(p, wall_s, 6);
	p = put_fixed(p, pol_s, 6);
	*p++ = ',';
	p = wr_u64(p, t->decisions);
	p = put_fixed(p, t->decisions ? 1e6 * pol_s / (double)t->decisions : 0.0, 3);
	*p++ = '\n';
	return (size_t)(p - buf);
}

void rows_timing(FILE *f, int rep, double wall_s, const struct sim_totals *t)
{
	char buf[ROWS_TIMING_MAX];
	fwrite(buf, 1, rows_timing_buf(buf, rep, wall_s, t), f);
}

int rows_mkdirs(const char *dir)
{
	char p[4096];
	snprintf(p, sizeof p, "%s", dir);
	for (char *c = p + 1; *c; c++)
		if (*c == '/') {
			*c = '\0';
			if (mkdir(p, 0777) && errno != EEXIST)
				return -1;
			*c = '/';
		}
	return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

static void file_path(char *buf, size_t len, const struct rows_files *o, int i, bool tmp)
{
	snprintf(buf, len, "%s/%s%s", o->dir, o->names[i], tmp ? ".tmp" : "");
}

/* rows_mkdirs, each folder it makes told to the guard (o->dir_slot), so
 * that a fault or a failed set removes them, the deepest first. */
static int mkdirs_guarded(struct rows_files *o)
{
	char p[4096];
	snprintf(p, sizeof p, "%s", o->dir);
	for (char *c = p + 1;; c++) {
		bool end = !*c;
		if (*c != '/' && !end)
			continue;
		*c = '\0';
		if (mkdir(p, 0777) == 0) {
			if (o->ndirs < (int)(sizeof o->dir_slot / sizeof o->dir_slot[0])) {
				o->dir_len[o->ndirs] = (int)(c - p);
				o->dir_slot[o->ndirs++] = cmd_guard_dir(p);
			}
		} else if (errno != EEXIST) {
			return -1;
		}
		if (end)
			return 0;
		*c = '/';
	}
}

int rows_files_open(struct rows_files *o)
{
	char p[4200];
	for (int i = 0; i < o->n; i++)
		o->f[i] = NULL;
	for (int i = 0; i <= ROWS_FILES_MAX; i++)
		o->tmp_slot[i] = -1;
	o->ndirs = 0;
	struct stat st;
	o->made = stat(o->dir, &st) != 0;
	if (mkdirs_guarded(o)) {
		fprintf(stderr, "hetsim %s: cannot create %s: %s\n", o->cmd, o->dir, strerror(errno));
		rows_files_close(o, false);
		return -1;
	}
	for (int i = 0; i < o->n; i++) {
		file_path(p, sizeof p, o, i, true);
		o->tmp_slot[i] = cmd_guard_file(p);
		if (!(o->f[i] = fopen(p, "w"))) {
			fprintf(stderr, "hetsim %s: cannot write %s: %s\n", o->cmd, p, strerror(errno));
			rows_files_close(o, false);
			return -1;
		}
	}
	return 0;
}

/* The files the folder's last manifest lists (hetsim wrote them), into
 * names (at most max, each < 256 bytes); their count. */
static int manifest_names(const char *dir, char names[][256], int max)
{
	char path[4200], line[1024];
	snprintf(path, sizeof path, "%s/%s", dir, ROWS_MANIFEST);
	FILE *f = fopen(path, "r");
	int n = 0;
	while (f && n < max && fgets(line, sizeof line, f)) {
		long long bytes;
		if (line[0] != '#' && strncmp(line, "file,", 5) &&
		    sscanf(line, "%255[^,],%lld", names[n], &bytes) == 2 && !strchr(names[n], '/'))
			n++;
	}
	if (f)
		fclose(f);
	return n;
}

static bool in_set(const struct rows_files *o, const char *name)
{
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->names[i], name))
			return true;
	return false;
}

/* DIR/manifest.csv.tmp, listing each file of the set and the size its
 * .tmp has; committed last (commit), so that a set cut short during its
 * renames (a crash) is told by its sizes: the old manifest is still in
 * place and some files are new (rows_check_set). */
static int write_manifest(struct rows_files *o)
{
	char tmp[4200], p[4200];
	snprintf(tmp, sizeof tmp, "%s/%s.tmp", o->dir, ROWS_MANIFEST);
	o->tmp_slot[o->n] = cmd_guard_file(tmp);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "# hetsim results manifest 1: the files of `hetsim %s`, committed after "
		   "them; a reader checks each size (docs/output.md)\nfile,bytes\n", o->cmd);
	for (int i = 0; i < o->n; i++) {
		struct stat st;
		file_path(p, sizeof p, o, i, true);
		if (stat(p, &st)) {
			int e = errno;
			fclose(f);
			remove(tmp);
			errno = e;
			return -1;
		}
		fprintf(f, "%s,%lld\n", o->names[i], (long long)st.st_size);
	}
	bool bad = ferror(f) != 0;
	int e = bad ? cmd_io_errno(f, 0) : 0;
	if (fclose(f) && !e)
		e = errno;
	if (bad || e) {
		remove(tmp);
		errno = e ? e : EIO;
		return -1;
	}
	return 0;
}

/* Where dst's old file waits while a set is committed: .NAME.hetsim-old
 * beside it. */
static void backup_path(char *buf, size_t len, const char *dst)
{
	const char *slash = strrchr(dst, '/');
	if (slash)
		snprintf(buf, len, "%.*s/.%s.hetsim-old", (int)(slash - dst), dst, slash + 1);
	else
		snprintf(buf, len, ".%s.hetsim-old", dst);
}

int rows_commit(const char *cmd, char *const *tmp, char *const *dst, int n)
{
	char old[4300];
	bool *had = xcalloc((size_t)(n ? n : 1), sizeof *had);
	bool said = false;
	int e = 0, k;
	for (k = 0; k < n; k++) {
		backup_path(old, sizeof old, dst[k]);
		had[k] = rename(dst[k], old) == 0;
		if (!had[k] && errno != ENOENT) {
			fprintf(stderr, "hetsim %s: cannot move %s aside to %s: %s; the results there "
				"before are as they were\n", cmd, dst[k], old, strerror(errno));
			said = true;
			break;
		}
		if (rename(tmp[k], dst[k])) {
			e = errno;
			if (had[k] && rename(old, dst[k]))
				fprintf(stderr, "hetsim %s: cannot restore %s from %s: %s\n", cmd, dst[k],
					old, strerror(errno));
			break;
		}
	}
	if (k == n) {
		for (int j = 0; j < n; j++)
			if (had[j]) {
				backup_path(old, sizeof old, dst[j]);
				remove(old);
			}
		free(had);
		return 0;
	}
	if (!said)
		fprintf(stderr, "hetsim %s: cannot rename %s to %s: %s; the results there before "
			"are as they were\n", cmd, tmp[k], dst[k], strerror(e));
	for (int j = k - 1; j >= 0; j--) { /* undo, the last first */
		backup_path(old, sizeof old, dst[j]);
		if (had[j] ? rename(old, dst[j]) : remove(dst[j]))
			fprintf(stderr, "hetsim %s: cannot restore %s: %s\n", cmd, dst[j],
				strerror(errno));
	}
	for (int j = k; j < n; j++)
		remove(tmp[j]);
	free(had);
	return -1;
}

/* Commit the set, the manifest last (rows_commit). */
static int commit(const struct rows_files *o)
{
	char tbuf[ROWS_FILES_MAX + 1][4200], dbuf[ROWS_FILES_MAX + 1][4200];
	char *tmp[ROWS_FILES_MAX + 1], *dst[ROWS_FILES_MAX + 1];
	for (int k = 0; k <= o->n; k++) {
		const char *name = k < o->n ? o->names[k] : ROWS_MANIFEST;
		snprintf(tbuf[k], sizeof tbuf[k], "%s/%s.tmp", o->dir, name);
		snprintf(dbuf[k], sizeof dbuf[k], "%s/%s", o->dir, name);
		tmp[k] = tbuf[k];
		dst[k] = dbuf[k];
	}
	return rows_commit(o->cmd, tmp, dst, o->n + 1);
}

int rows_check_set(const char *dir, char *err, size_t errlen)
{
	char path[4200], p[4400];
	snprintf(path, sizeof path, "%s/%s", dir, ROWS_MANIFEST);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0; /* results of an older hetsim, or a folder made by hand */
	char line[1024];
	int lineno = 0, rc = 0;
	while (!rc && fgets(line, sizeof line, f)) {
		lineno++;
		char name[512];
		long long bytes;
		if (line[0] == '#' || !strncmp(line, "file,", 5) ||
		    sscanf(line, "%511[^,],%lld", name, &bytes) != 2)
			continue;
		struct stat st;
		snprintf(p, sizeof p, "%s/%s", dir, name);
		if (stat(p, &st)) {
			snprintf(err, errlen, "%s:%d:1: %s is missing: this result set is not whole "
				 "(a write cut short?); run the command again", path, lineno, name);
			rc = -1;
		} else if ((long long)st.st_size != bytes) {
			snprintf(err, errlen, "%s:%d:1: %s has %lld bytes, the manifest says %lld: this "
				 "result set is not whole (a write cut short?); run the command again",
				 path, lineno, name, (long long)st.st_size, bytes);
			rc = -1;
		}
	}
	fclose(f);
	return rc;
}

int rows_files_close(struct rows_files *o, bool ok)
{
	char tmp[4200], dst[4200];
	for (int i = 0; i < o->n; i++) {
		if (!o->f[i])
			continue;
		bool bad = ferror(o->f[i]) != 0;
		errno = bad ? cmd_io_errno(o->f[i], 0) : 0;
		if (fclose(o->f[i]) || bad) {
			if (ok)
				fprintf(stderr, "hetsim %s: cannot write %s/%s: %s\n", o->cmd, o->dir,
					o->names[i], strerror(errno ? errno : EIO));
			ok = false;
		}
		o->f[i] = NULL;
	}
	char old[16][256];
	int nold = ok ? manifest_names(o->dir, old, 16) : 0;
	if (ok && write_manifest(o)) {
		fprintf(stderr, "hetsim %s: cannot write %s/%s: %s\n", o->cmd, o->dir, ROWS_MANIFEST,
			strerror(errno));
		ok = false;
	}
	if (ok && commit(o))
		ok = false; /* commit took its .tmp files away */
	else if (!ok)
		for (int i = 0; i < o->n; i++) {
			file_path(tmp, sizeof tmp, o, i, true);
			remove(tmp);
		}
	for (int i = 0; i <= ROWS_FILES_MAX; i++) { /* renamed or removed */
		cmd_guard_done(o->tmp_slot[i]);
		o->tmp_slot[i] = -1;
	}
	/* the folders it made, empty again: nothing left of them (the
	 * deepest first: each inside the one made before it) */
	for (int k = o->ndirs - 1; k >= 0 && !ok; k--) {
		char made[4096];
		snprintf(made, sizeof made, "%.*s", o->dir_len[k], o->dir);
		rmdir(made);
	}
	for (int k = 0; k < o->ndirs; k++)
		cmd_guard_done(o->dir_slot[k]);
	o->ndirs = 0;
	/* the files of the set before (its manifest's) that this one does not
	 * write go, so that no stale file sits beside new ones; files hetsim
	 * did not list (a folder made by hand, an older hetsim's) stay */
	for (int k = 0; ok && k < nold; k++)
		if (!in_set(o, old[k])) {
			snprintf(dst, sizeof dst, "%s/%s", o->dir, old[k]);
			if (remove(dst) && errno != ENOENT) {
				fprintf(stderr, "hetsim %s: cannot remove the old %s: %s\n", o->cmd, dst,
					strerror(errno));
				ok = false;
			}
		}
	return ok ? 0 : -1;
}

bool rows_scenario_has_labels(const struct scn *s)
{
	for (int g = 0; g < s->njobgroups; g++) {
		struct sim_shape sh;
		sim_group_shape(s, g, &sh);
		for (int r = 0; r < sh.nroles; r++)
			if (sh.role[r].require || sh.role[r].prefer)
				return true;
	}
	return false;
}
