/* sim.c - a run made (sim_new: its cluster, queue, shapes, jobs in
 * arrival order) and freed, and sim.h's accessors and names.  Calls
 * live.c (a job's empty record).
 */
#include "kernel.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "arrival.h"
#include "policy.h"
#include "rng.h"

_Static_assert(sizeof(struct sim_job) == CACHE_LINE, "sim_job: one cache line");

/* ---- construction -------------------------------------------------- */

/* Jobs are numbered in arrival order, ties by group, then by index in
 * the group: the jobs, listed by group and then by index, are sorted by
 * arrival with a stable sort (sort_kv, O(jobs)) of 16-byte pairs
 * (arrival; group, index).
 *
 * The sort's arrays (pairs, scratch, one group's arrivals: 40 bytes a
 * job) live in the job array itself before it is filled, rather than in
 * 40 MB of fresh memory for 10^6 jobs, which a virtual machine makes
 * dear to touch.  The records are then written from the last to the
 * first: with R = sizeof(struct sim_job) >= 40, record i covers bytes
 * [R i, R i + R) and pair i lies at [16 i, 16 i + 16), so a record only
 * ever covers pairs already read. */
_Static_assert(sizeof(struct sim_job) >= 2 * sizeof(struct kv) + sizeof(int64_t),
	       "a job record holds the numbering's scratch");

static void number_jobs(struct sim *s)
{
	const struct scn *scn = s->scn;
	size_t n = (size_t)s->pub.njobs;
	struct kv *key = (struct kv *)(void *)s->pub.jobs, *tmp = key + n;
	int64_t *t = (int64_t *)(void *)(tmp + n);
	int id = 0;
	for (int g = 0; g < scn->njobgroups; g++) {
		arrival_times(scn, g, s->seed, t);
		for (int i = 0; i < scn->jobs[g].count; i++, id++)
			key[id] = (struct kv){t[i], (uint64_t)g << 32 | (uint32_t)i};
	}
	sort_kv(key, tmp, n);
	for (int i = s->pub.njobs - 1; i >= 0; i--) {
		struct kv k = key[i];
		int g = (int)(k.val >> 32);
		const struct sim_job_ops *jo = scn->jobs[g].ops;
		const struct sim_shape *sh =
			&s->shapes[s->shape_base[g] +
				   (jo->job_shape ? jo->job_shape(scn, g, (int)(uint32_t)k.val) : 0)];
		s->pub.jobs[i] = (struct sim_job){
			.arrival_us = k.key, .start_us = -1, .end_us = -1,
			.shape = sh, .live = (struct sim_live *)&k_no_live, .id = i, .group = g,
			.index = (int)(uint32_t)k.val,
			.type = (uint8_t)scn->jobs[g].type, .status = JOB_PENDING,
			.mstate = 0};
	}
}

int sim_group_nshapes(const struct scn *sc, int g)
{
	const struct sim_job_ops *jo = sc->jobs[g].ops;
	return jo->nshapes ? jo->nshapes(sc, g) : 1;
}

void sim_group_shape_at(const struct scn *sc, int g, int k, struct sim_shape *out)
{
	const struct sim_job_ops *jo = sc->jobs[g].ops;
	/* the group's generic keys; the model gives its roles */
	/* in milli-cores; a cores_max past INT_MAX milli-cores (2.1 million
	 * cores) is as good as none */
	int64_t cmax = (int64_t)sc->jobs[g].cores_max * CLU_MILLI;
	*out = (struct sim_shape){.gang_role = -1, .cores_max = cmax > INT_MAX ? INT_MAX : (int)cmax,
				  .task_cpus = (sc->jobs[g].task_cpus > 0 ? sc->jobs[g].task_cpus : 1) *
					       CLU_MILLI};
	if (jo->nshapes)
		jo->shape_at(sc, g, k, out);
	else
		jo->shape(sc, g, out);
	out->ops = jo;
}

void sim_group_shape(const struct scn *sc, int g, struct sim_shape *out)
{
	sim_group_shape_at(sc, g, 0, out);
}

int sim_nshapes(const struct sim *s)
{
	return s->nshapes;
}

const struct sim_shape *sim_shape_at(const struct sim *s, int k)
{
	return &s->shapes[k];
}

struct sim *sim_new(const struct scn *scn, const struct scn_policy *pol,
		    uint32_t replication, char *err, size_t errlen)
{
	const struct policy_ops *ops = pol->ops;
	if (!ops) {
		snprintf(err, errlen, "policy '%s' (%s) has no ops: not loaded by scn_load", pol->name,
			 pol->kind);
		return NULL;
	}
	struct sim *s = xcalloc(1, sizeof *s);
	s->scn = scn;
	s->pcfg = pol;
	s->ops = ops;
	s->rep = replication;
	s->seed = rng_replication_seed(scn->seed, replication);
	s->free_run = -1;
	s->free_exec = -1;
	s->free_jtimer = -1;
	s->tot.last_end_us = -1; /* no job ended yet */
	clu_init(&s->clu, scn);
	eq_init(&s->q, 1024);
	ps_init(&s->ps, s->clu.n, SIM_TIME_MAX);
	for (int i = 0; i < s->clu.n; i++) {
		s->clu.nodes[i].rate = node_rate(&s->clu.nodes[i]);
		ps_set_rate(&s->ps, i, s->clu.nodes[i].rate, 0);
	}

	for (int g = 0; g < scn->njobgroups; g++)
		s->pub.njobs += scn->jobs[g].count;
	s->shape_base = xcalloc((size_t)scn->njobgroups + 1, sizeof *s->shape_base);
	for (int g = 0; g < scn->njobgroups; g++)
		s->shape_base[g + 1] = s->shape_base[g] + sim_group_nshapes(scn, g);
	s->nshapes = s->shape_base[scn->njobgroups];
	s->shapes = xcalloc((size_t)(s->nshapes ? s->nshapes : 1), sizeof *s->shapes);
	for (int g = 0; g < scn->njobgroups; g++)
		for (int k = 0; k < s->shape_base[g + 1] - s->shape_base[g]; k++) {
			struct sim_shape *sh = &s->shapes[s->shape_base[g] + k];
			sim_group_shape_at(scn, g, k, sh);
			sh->id = s->shape_base[g] + k;
		}
	s->dags = xcalloc((size_t)(scn->njobgroups ? scn->njobgroups : 1), sizeof *s->dags);
	s->have_dag = xcalloc((size_t)(scn->njobgroups ? scn->njobgroups : 1), 1);
	for (int g = 0; g < scn->njobgroups; g++)
		s->have_dag[g] = scn->jobs[g].ops->dag_shared &&
				 scn->jobs[g].ops->dag_shared(scn, g);
	arena_init(&s->dag_ar);
	/* on lines: a job is one line (sim.h), which the loop's prefetch of
	 * its first byte brings whole */
	s->pub.jobs = xmalloc_lines((size_t)(s->pub.njobs ? s->pub.njobs : 1) * sizeof *s->pub.jobs);
	s->why = xcalloc((size_t)(s->pub.njobs ? s->pub.njobs : 1), 1);
	s->hold = xcalloc((size_t)(s->pub.njobs ? s->pub.njobs : 1), sizeof *s->hold);
	s->jgen = xcalloc((size_t)(s->pub.njobs ? s->pub.njobs : 1), sizeof *s->jgen);
	number_jobs(s); /* sets every field of every job */
	s->jobs_left = s->pub.njobs;
	for (int g = 0; g < scn->ngroups; g++)
		s->stragglers |= scn->groups[g].straggler_fraction > 0;
	s->spec_on = scn->spec.enabled;
	s->max_stall = sim_max_stall;
	s->gpu_aware = ops->gpu_aware && ops->gpu_aware(pol);
	if (ops->init) {
		k_set_running(s);
		s->pol_hook = "init";
		s->setup_hook = true;
		s->pst = ops->init(s, pol);
		s->setup_hook = false;
		k_set_running(NULL);
	}
	return s;
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	free(s->state_since);
	if (s->ops->fini) {
		k_set_running(s);
		s->pol_hook = "fini";
		s->setup_hook = true;
		s->ops->fini(s->pst);
		s->setup_hook = false;
		k_set_running(NULL);
	}
	for (int slot = 0; slot < s->nlive_made; slot++) {
		struct sim_live *r = &s->chunks[slot / LIVE_CHUNK][slot % LIVE_CHUNK];
		free(r->execs);
		free(r->spec);
		arena_free(&r->ar);
	}
	for (int c = 0; c < s->nchunks; c++)
		free(s->chunks[c]);
	free(s->chunks);
	free(s->free_live);
	free(s->ended);
	free(s->loc_buf);
	free(s->order_buf);
	free(s->offered);
	free(s->shapes);
	free(s->shape_base);
	free(s->dags);
	free(s->have_dag);
	arena_free(&s->dag_ar);
	free(s->pub.jobs);
	free(s->why);
	free(s->hold);
	free(s->jgen);
	free(s->execs);
	free(s->runs);
	free(s->jtimers);
	free(s->down);
	free(s->up_since);
	free(s->cycles);
	ps_free(&s->ps);
	free(s->dispatch);
	free(s->notes);
	eq_free(&s->q);
	clu_free(&s->clu);
	free(s);
}

/* ---- accessors ----------------------------------------------------- */

int64_t sim_now(const struct sim *s) { return s->now; }
const struct scn *sim_scenario(const struct sim *s) { return s->scn; }
const struct clu *sim_cluster(const struct sim *s) { return &s->clu; }
int sim_nexecs(const struct sim *s) { return s->nexecs; }
uint64_t sim_queue_pushes(const struct sim *s) { return s->q.next_seq; }
void sim_set_exec_sink(struct sim *s, sim_exec_sink fn, void *ctx)
{
	s->exec_sink = fn;
	s->exec_ctx = ctx;
}

int sim_exec_tasks(const struct sim *s, const struct sim_exec *x)
{
	const struct sim_job *j = &s->pub.jobs[x->job];
	if (!x->live || !has_live(j) || x->jpos >= j->live->nexecs)
		return 0;
	const struct sim_job_exec *je = &j->live->execs[x->jpos];
	return x->ready_us >= 0 && je->free >= 0 ? x->slots - je->free : 0;
}

uint64_t sim_max_stall;

void sim_set_watch(struct sim *s, sim_watch_fn fn, void *ctx, uint32_t every)
{
	s->watch = fn;
	s->watch_ctx = ctx;
	s->watch_every = s->watch_left = every ? every : 1;
}

void sim_set_state_sink(struct sim *s, sim_state_sink fn, void *ctx)
{
	s->state_sink = fn;
	s->state_ctx = ctx;
	free(s->state_since);
	s->state_since = NULL;
	if (fn) {
		s->state_since = xmalloc((size_t)(s->pub.njobs ? s->pub.njobs : 1) *
					 sizeof *s->state_since);
		for (int i = 0; i < s->pub.njobs; i++)
			s->state_since[i] = s->pub.jobs[i].arrival_us;
	}
}

void sim_set_task_sink(struct sim *s, sim_task_sink fn, void *ctx)
{
	s->task_sink = fn;
	s->task_ctx = ctx;
}

void sim_set_stage_sink(struct sim *s, sim_stage_sink fn, void *ctx)
{
	s->stage_sink = fn;
	s->stage_ctx = ctx;
}
const struct sim_totals *sim_totals(const struct sim *s) { return &s->tot; }
const struct scn_job_group *sim_job_group(const struct sim *s, int job)
{
	return &s->scn->jobs[s->pub.jobs[job].group];
}

const char *sim_why_name(const struct scn *sc, int why, char *buf, size_t len)
{
	static const char *const names[] = {
		"", "cores", "memory", "gpus", "capacity", "max-allocation", "job-type",
		"reservation-timeout", "gpu-retries", "never-placed", "task-failures",
		"executor-lost", "max-allocation-vcores", "no-fit"};
	_Static_assert(ARRAY_LEN(names) == SIM_WHY_LABEL0, "a name for every reason");
	if (why == SIM_WHY_TIME_LIMIT)
		snprintf(buf, len, "time-limit");
	else if (why >= SIM_WHY_LABEL0 && why < SIM_WHY_TIME_LIMIT &&
		 why - SIM_WHY_LABEL0 < sc->nlabels)
		snprintf(buf, len, "label:%s", sc->label_names[why - SIM_WHY_LABEL0]);
	else
		snprintf(buf, len, "%s", why >= 0 && why < SIM_WHY_LABEL0 ? names[why] : "?");
	return buf;
}

const char *sim_status_name(enum sim_job_status st)
{
	static const char *const names[] = {"pending", "waiting", "running", "done",
					    "failed", "timed-out", "unplaceable"};
	return names[st];
}

uint64_t sim_seed(const struct sim *s)
{
	return s->seed;
}

bool sim_gpus_isolated(const struct sim *s)
{
	return s->gpu_aware;
}

bool sim_roles_placed(const struct sim *s)
{
	return s->ops->places_roles;
}
