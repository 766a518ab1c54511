/* scn_mem.c - the memory a scenario plans for (input/load.h): the limit a
 * load may plan for (--max-memory, else MemAvailable), sizes in words, and
 * the estimates of what one loaded scenario and one of its runs hold.
 *
 * The lowest file of the loader: it walks no YAML and calls nothing of
 * input/ (sim/util.h only), so that the trace builder (input/trace_build.c)
 * and the loader's checks (scn_check.c) and sweeps (scn_load.c) can all ask
 * it: the trace reader no longer calls back into the loader's files.
 */
#include "scn_int.h"

#include "model.h"
#include "scn_trace.h"
#include "sim.h"
#include "sparklog.h"

#include <string.h>

int64_t scn_max_memory;

int64_t scn_memory_limit(const char **whose)
{
	*whose = scn_max_memory > 0 ? "of --max-memory" : "this machine has available";
	if (scn_max_memory != 0)
		return scn_max_memory > 0 ? scn_max_memory : -1;
	int64_t m = scn_mem_available();
	return m > 0 ? m : -1;
}

int64_t scn_mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb < 0 ? -1 : (int64_t)kb * 1024;
}

#define BLOCK 16 /* malloc's own, a block */

const char *scn_mem_text(double b, char *buf)
{
	static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	int k = 0;
	while (k < 4 && b >= 1024)
		b /= 1024, k++;
	snprintf(buf, 32, "%.1f %s", b, u[k]);
	return buf;
}

static int64_t str_bytes(const char *s)
{
	return s ? (int64_t)strlen(s) + 1 + BLOCK : 0;
}

int64_t scn_bytes(const struct scn *s, char *what, size_t len)
{
	int64_t groups = (int64_t)sizeof *s->groups * s->ngroups + BLOCK, jobs = BLOCK, traces = 0;
	for (int i = 0; i < s->ngroups; i++)
		groups += str_bytes(s->groups[i].name) + str_bytes(s->groups[i].gpu_model);
	int64_t trace_jobs = 0;
	for (int g = 0; g < s->njobgroups; g++) {
		const struct scn_job_group *j = &s->jobs[g];
		jobs += (int64_t)sizeof *j + str_bytes(j->name) + BLOCK +
			(j->model ? (int64_t)j->model->params_size : 0) +
			(int64_t)j->nstages * (int64_t)sizeof *j->stages + (j->nstages ? BLOCK : 0) +
			(int64_t)j->ntput * (int64_t)(sizeof *j->tput + 24);
		for (int k = 0; k < j->nstages; k++)
			jobs += str_bytes(j->stages[k].name);
	}
	for (int t = 0; t < s->ntraces; t++) {
		/* an offer-only one keeps a copy of its load's order once a
		 * replication other than 0 runs (trace_offer_order) */
		traces += (int64_t)sizeof *s->traces[t]->jobs * s->traces[t]->njobs *
			  (s->traces[t]->offer ? 2 : 1) + BLOCK;
		trace_jobs += s->traces[t]->njobs;
	}
	int64_t total = (int64_t)sizeof *s + groups + jobs + traces +
			(int64_t)s->npolicies * (int64_t)sizeof *s->policies;
	if (traces > jobs && traces > groups)
		snprintf(what, len, "its traces' %lld jobs", (long long)trace_jobs);
	else if (jobs >= groups)
		snprintf(what, len, "its %d job groups", s->njobgroups);
	else
		snprintf(what, len, "its %d node groups", s->ngroups);
	return total;
}
/* A run's own memory, as measured here (docs/errors.md): about 80 bytes
 * a job, 8 (synthetic) to 35 (wordcount) a task of a job whose DAG is
 * built (from its first executor to its end), a few hundred a node;
 * rounded up. */
#define RUN_JOB_BYTES 128
#define RUN_TASK_BYTES 40
#define RUN_NODE_BYTES 512

/* tasks[g]: the tasks of a job of group g (its DAG's, as check_time_scale
 * built it, or the model's count). */
int64_t scn_run_bytes(const struct scn *s, const long long *tasks, char *what, size_t len,
			 int *at_group)
{
	int64_t nodes = 0, jobs = 0, dags = 0, top = -1;
	int top_g = -1;
	long long top_live = 0, top_tasks = 0;
	for (int i = 0; i < s->ngroups; i++)
		nodes += (int64_t)s->groups[i].count * RUN_NODE_BYTES;
	for (int g = 0; g < s->njobgroups; g++) {
		const struct scn_job_group *j = &s->jobs[g];
		jobs += (int64_t)j->count * RUN_JOB_BYTES;
		long long per_job = tasks[g];
		/* its jobs live at once, at most: one each executor of its first
		 * role the cluster holds (a job's DAG is built once it has one) */
		struct sim_shape sh;
		sim_group_shape(s, g, &sh);
		long long slots = 0;
		int64_t cores = sh.nroles ? sh.role[0].cores : 0;
		for (int i = 0; i < s->ngroups && slots < j->count; i++)
			slots += cores > 0 ? (long long)s->groups[i].count *
					     ((int64_t)s->groups[i].cores * CLU_MILLI / cores)
					   : j->count;
		long long live = slots < j->count ? slots : j->count;
		int64_t b = (int64_t)live * per_job * RUN_TASK_BYTES;
		dags += b;
		if (b > top)
			top = b, top_g = g, top_live = live, top_tasks = per_job;
	}
	int64_t total = nodes + jobs + dags;
	*at_group = -1;
	if (dags >= jobs && dags >= nodes && top_g >= 0) {
		snprintf(what, len, "job group '%s': up to %lld of its jobs at once, %lld tasks "
			 "each", s->jobs[top_g].name, top_live, top_tasks);
		*at_group = top_g;
	} else if (jobs >= nodes) {
		snprintf(what, len, "its %lld jobs", (long long)(jobs / RUN_JOB_BYTES));
	} else {
		snprintf(what, len, "its %lld nodes", (long long)(nodes / RUN_NODE_BYTES));
	}
	return total;
}
