/* harness.c - running scenario files inside tests. */
#define _DEFAULT_SOURCE /* wait4 */
#include "load.h"
#include "harness.h"

#include <CUnit/CUnit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "cmd.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"

struct scn *h_load(const char *path)
{
	char err[1024];
	struct scn *s = scn_load(path, err, sizeof err);
	if (!s)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	return s;
}

/* Executors of the last run, indexed by id (launch order). */
static struct sim_exec *rec;
static int nrec, caprec;

static void record(void *ctx, const struct sim *s, const struct sim_exec *x)
{
	(void)ctx;
	(void)s;
	if (x->id >= caprec) {
		caprec = 2 * x->id + 16;
		rec = realloc(rec, (size_t)caprec * sizeof *rec);
	}
	rec[x->id] = *x;
	if (x->id >= nrec)
		nrec = x->id + 1;
}

const struct sim_exec *h_exec(int id)
{
	return id >= 0 && id < nrec ? &rec[id] : NULL;
}

int h_nexecs(void)
{
	return nrec;
}

static struct sim *run_with(struct scn *scn, const struct scn_policy *p, int rep)
{
	char err[256];
	struct sim *s = sim_new(scn, p, (uint32_t)rep, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	nrec = 0;
	sim_set_exec_sink(s, record, NULL);
	sim_run(s);
	CU_ASSERT_EQUAL(nrec, sim_nexecs(s)); /* every executor was released */
	return s;
}

struct sim *h_run_loaded(struct scn *scn, int policy, int rep)
{
	CU_ASSERT_FATAL(policy >= 0 && policy < scn->npolicies);
	return run_with(scn, &scn->policies[policy], rep);
}

struct sim *h_run_ops(const char *path, const struct policy_ops *ops, int rep,
		      struct scn **scn_out)
{
	struct scn *scn = h_load(path);
	CU_ASSERT_FATAL(scn->npolicies > 0);
	scn->policies[0].ops = ops;
	*scn_out = scn;
	return run_with(scn, &scn->policies[0], rep);
}

struct sim *h_run(const char *path, const char *policy, int rep, struct scn **scn_out)
{
	struct scn *scn = h_load(path);
	const struct scn_policy *p = NULL;
	for (int i = 0; i < scn->npolicies; i++)
		if (strcmp(scn->policies[i].name, policy) == 0)
			p = &scn->policies[i];
	if (!p)
		fprintf(stderr, "\n%s: no policy named %s\n", path, policy);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	*scn_out = scn;
	return run_with(scn, p, rep);
}

void h_done(struct sim *s, struct scn *scn)
{
	sim_free(s);
	scn_free(scn);
}

const struct sim_job *h_job(const struct sim *s, const char *group, int idx)
{
	for (int i = 0; i < sim_njobs(s); i++) {
		const struct sim_job *j = sim_job(s, i);
		if (j->index == idx && strcmp(sim_job_group(s, i)->name, group) == 0)
			return j;
	}
	return NULL;
}

int h_job_execs(const struct sim_job *j)
{
	int n = 0;
	for (int i = 0; i < h_nexecs(); i++)
		n += h_exec(i)->job == j->id;
	return n;
}

const char *h_exec_nodes(const struct sim *s, const struct sim_job *j, char *buf, int len)
{
	int n = 0;
	buf[0] = '\0';
	for (int i = 0; i < h_nexecs(); i++) {
		const struct sim_exec *x = h_exec(i);
		if (x->job != j->id)
			continue;
		n += snprintf(buf + n, (size_t)(len - n), "%s%s", n ? "," : "",
			      sim_cluster(s)->nodes[x->node].name);
		if (n >= len)
			break;
	}
	return buf;
}

int64_t h_makespan(const struct sim *s)
{
	const struct sim_totals *t = sim_totals(s);
	return t->last_end_us - t->first_arrival_us;
}

char *h_slurp(const char *path, long *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *p = malloc((size_t)n + 1);
	if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	if (p)
		p[n] = '\0';
	fclose(f);
	if (len)
		*len = n;
	return p;
}

int h_rmtree(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append dir/rel's entries to *buf (len, cap), recursively. */
static void tree_add(const char *root, const char *rel, char **buf, size_t *len, size_t *cap)
{
	char path[4200];
	snprintf(path, sizeof path, "%s%s%s", root, *rel ? "/" : "", rel);
	DIR *d = opendir(path);
	if (!d)
		return;
	char **names = NULL;
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		char sub[4200], full[4400], line[4600];
		snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", names[i]);
		snprintf(full, sizeof full, "%s/%s", root, sub);
		struct stat st;
		if (lstat(full, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			snprintf(line, sizeof line, "%s/\n", sub);
		} else if (!S_ISREG(st.st_mode)) { /* a named pipe: never opened */
			snprintf(line, sizeof line, "%s (not a regular file)\n", sub);
		} else {
			uint64_t h = FNV1A_BASIS;
			FILE *f = fopen(full, "rb");
			char buf[65536];
			for (size_t n; f && (n = fread(buf, 1, sizeof buf, f)) > 0;)
				h = fnv1a(h, buf, n);
			if (f)
				fclose(f);
			snprintf(line, sizeof line, "%s %lld %016llx\n", sub, (long long)st.st_size,
				 (unsigned long long)h);
		}
		size_t l = strlen(line);
		if (*len + l + 1 > *cap) {
			*cap = (*len + l + 1) * 2;
			*buf = realloc(*buf, *cap);
		}
		memcpy(*buf + *len, line, l + 1);
		*len += l;
		if (S_ISDIR(st.st_mode))
			tree_add(root, sub, buf, len, cap);
		free(names[i]);
	}
	free(names);
}

char *h_tree(const char *dir)
{
	struct stat st;
	if (stat(dir, &st))
		return strdup("(none)");
	size_t len = 0, cap = 256;
	char *buf = malloc(cap);
	buf[0] = '\0';
	tree_add(dir, "", &buf, &len, &cap);
	return buf;
}

void h_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	int put = fputs(text, f);
	CU_ASSERT_FATAL(fclose(f) == 0 && put >= 0);
}

void h_write_tmp(char *buf, size_t len, const char *text)
{
	snprintf(buf, len, "/tmp/hetsim-tmp-XXXXXX");
	int fd = mkstemp(buf);
	CU_ASSERT_FATAL(fd >= 0);
	FILE *f = fdopen(fd, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	int put = fputs(text, f);
	CU_ASSERT_FATAL(fclose(f) == 0 && put >= 0);
}

void h_put_zst(const char *path, const char *text)
{
	size_t n = strlen(text), cap = ZSTD_compressBound(n);
	char *z = malloc(cap);
	CU_ASSERT_PTR_NOT_NULL_FATAL(z);
	size_t zn = ZSTD_compress(z, cap, text, n, 3);
	CU_ASSERT_FATAL(!ZSTD_isError(zn));
	FILE *f = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	size_t put = fwrite(z, 1, zn, f);
	free(z);
	CU_ASSERT_FATAL(fclose(f) == 0 && put == zn);
}

int h_call(int (*fn)(int argc, char **argv), const char *args, char **out, char **err)
{
	char buf[2048], *argv[64], po[] = "/tmp/hetsim-out-XXXXXX", pe[] = "/tmp/hetsim-err-XXXXXX";
	int argc = 0;
	snprintf(buf, sizeof buf, "%s", args);
	for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	int fo = mkstemp(po), fe = err ? mkstemp(pe) : dup(fo);
	CU_ASSERT_FATAL(fo >= 0 && fe >= 0);
	fflush(stdout);
	fflush(stderr);
	int so = dup(1), se = dup(2);
	dup2(fo, 1);
	dup2(fe, 2);
	close(fo);
	close(fe);
	int rc = fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	*out = h_slurp(po, NULL);
	remove(po);
	if (err) {
		*err = h_slurp(pe, NULL);
		remove(pe);
	}
	return rc;
}

int h_hetsim(const char *args, char **out, char **err)
{
	char line[2048];
	snprintf(line, sizeof line, "hetsim %s", args);
	return h_call(cmd_main, line, out, err);
}

int h_hetsim_child(const char *args, struct h_child *o, char **err)
{
	char buf[16384], *argv[64];
	int argc = 0;
	argv[argc++] = "hetsim";
	snprintf(buf, sizeof buf, "%s", args);
	for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	/* a pipe, not a file: the child's file size limit is not its stderr's */
	int fd[2];
	CU_ASSERT_FATAL(pipe(fd) == 0);
	fflush(NULL);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(fd[1], 2);
		close(fd[0]);
		if (o && o->in) {
			int i = open(o->in, O_RDONLY);
			if (i < 0)
				_exit(125);
			dup2(i, 0);
		}
		if (o && o->fsize) {
			struct rlimit rl = {(rlim_t)o->fsize, (rlim_t)o->fsize};
			if (setrlimit(RLIMIT_FSIZE, &rl))
				_exit(126);
		}
		if (!o || o->alarm_s >= 0)
			alarm(o && o->alarm_s ? (unsigned)o->alarm_s : 60);
		_exit(cmd_main(argc, argv)); /* (no binary needed: the command itself) */
	}
	close(fd[1]);
	size_t len = 0, cap = 1024;
	char *e = malloc(cap);
	for (ssize_t n; (n = read(fd[0], e + len, cap - len - 1)) > 0;) {
		len += (size_t)n;
		if (cap - len < 2)
			e = realloc(e, cap *= 2);
	}
	e[len] = '\0';
	close(fd[0]);
	int st;
	struct rusage ru;
	while (wait4(pid, &st, 0, &ru) < 0)
		;
	if (o)
		o->maxrss_kib = ru.ru_maxrss;
	*err = e;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void h_expect_load_error(const char *yaml, const char *msg)
{
	char path[64], err[512], want[600];
	h_write_tmp(path, sizeof path, yaml);
	struct scn *sc = scn_load(path, err, sizeof err);
	snprintf(want, sizeof want, "%s%s", path, msg);
	CU_ASSERT_PTR_NULL(sc);
	CU_ASSERT_STRING_EQUAL(err, want);
	if (sc || strcmp(err, want) != 0)
		fprintf(stderr, "\n  %s: %s\n", msg, sc ? "loaded" : err);
	scn_free(sc);
	remove(path);
}

void h_expect_end(const struct sim *s, const struct sim_job *j, int st, int64_t end_us,
		  const char *why)
{
	char b[128];
	CU_ASSERT_EQUAL(j->status, st);
	CU_ASSERT_EQUAL(j->end_us, end_us);
	CU_ASSERT_STRING_EQUAL(sim_why_name(sim_scenario(s), sim_job_why(s, j->id), b, sizeof b),
			       why);
}
