/* scn_workload.c - the `workload:` section (docs/scenario.md,
 * "Workload"): job groups with their generic keys (name, count, arrival,
 * labels, throughput), then each job model's own keys, driven by the
 * model's key table (workloads/model.h: roles, stages, sizes, times,
 * distributions), and the workload's totals.
 *
 * It may call the value readers (scn_value.c), the trace section
 * (scn_traces.c) for trace arrivals and trace job groups, and the job
 * model registry (workloads/models.h).
 */
#include "scn_int.h"

#include "models.h"
#include "util.h"

#include <string.h>

/* Keys every job group takes, whatever its model. */
static const char *const generic_job_keys[] = {"name", "type", "count", "arrival", "require",
					       "prefer", "cores_max", "task_cpus",
					       "task_max_failures", "throughput"};

/* Index of `key` in model m's key table, or -1. */
static int model_key(const struct job_model *m, const char *key)
{
	for (int k = 0; k < m->nkeys; k++)
		if (strcmp(m->keys[k].key, key) == 0)
			return k;
	return -1;
}

/* "a, b and c": the models whose tables have `key`
 * (all of them for NULL: the names of the models). */
static const char *models_text(const char *key, char *buf, size_t len)
{
	const char *v[SCN_MAX_MODELS];
	int n = 0;
	for (int t = 0; t < jm_count(); t++)
		if (!key || model_key(jm_at(t), key) >= 0)
			v[n++] = jm_at(t)->name;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) /* "a", "a and b", "a, b and c" */
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i == 0 ? "" : i == n - 1 ? " and " : ", ", v[i]);
	return buf;
}

/* Every key of job group `m` is known and belongs to model `mine` (NULL
 * while the type is unknown: to any model). */
static int check_job_keys(struct ld *ld, const struct yn *m, const struct job_model *mine)
{
	const char *known[ARRAY_LEN(generic_job_keys) + 64 * SCN_MAX_MODELS];
	int n = 0;
	char a[128];
	for (int i = 0; i < ARRAY_LEN(generic_job_keys); i++)
		known[n++] = generic_job_keys[i];
	for (int t = 0; t < jm_count(); t++) {
		const struct job_model *jm = jm_at(t);
		if (mine && jm != mine)
			continue;
		for (int k = 0; k < jm->nkeys && n < ARRAY_LEN(known); k++)
			if (!scn_in_list(jm->keys[k].key, known, n))
				known[n++] = jm->keys[k].key;
	}
	for (int i = 0; i < m->nkids; i += 2) {
		const struct yn *k = m->kids[i];
		if (scn_in_list(k->str, known, n))
			continue;
		bool anywhere = false;
		for (int t = 0; t < jm_count(); t++)
			anywhere |= model_key(jm_at(t), k->str) >= 0;
		if (!anywhere)
			return scn_unknown_key(ld, k, "job group", known, n);
		return scn_fail(ld, k, "key '%s' is for %s jobs, not %s", k->str,
			    models_text(k->str, a, sizeof a), mine->name);
	}
	return 0;
}

static const char *const arrival_keys[] = {"at", "every", "poisson", "times", "start"};

static int arrival_times(struct ld *ld, const struct yn *v, struct scn_arrival *a)
{
	if (scn_want_list(ld, v, "times", "time") < 0 ||
	    scn_check_len(ld, v, MAX_JOBS, "arrival times") < 0)
		return -1;
	a->kind = SCN_ARR_LIST;
	a->times_us = xcalloc((size_t)v->nkids, sizeof *a->times_us);
	a->ntimes = v->nkids;
	for (int i = 0; i < v->nkids; i++) {
		if (scn_get_time(ld, v->kids[i], NONNEG, &a->times_us[i]) < 0)
			return -1;
		if (i && a->times_us[i] < a->times_us[i - 1])
			return scn_fail(ld, v->kids[i], "arrival times must not decrease: %s comes after '%s'",
				    scn_got(ld, v->kids[i]), v->kids[i - 1]->str);
	}
	return 0;
}

static int load_arrival(struct ld *ld, const struct yn *m, struct scn_arrival *a)
{
	const char *forms[4];
	int nforms = 0, form = -1;
	char list[64];
	if (CHECK_MAP(ld, m, "arrival", arrival_keys) < 0)
		return -1;
	for (int i = 0; i < 4; i++)
		if (yn_get(m, arrival_keys[i])) {
			forms[nforms++] = arrival_keys[i];
			form = i;
		}
	if (nforms != 1)
		return scn_fail(ld, m, "arrival takes exactly one of at, every, poisson, times (got %s)",
			    nforms ? scn_join(forms, nforms, list, sizeof list) : "none");
	const struct yn *v = yn_get(m, arrival_keys[form]), *start = yn_get(m, "start");
	if (start && (form == 0 || form == 3))
		return scn_fail(ld, start, "key 'start' goes with every or poisson, not %s",
			    arrival_keys[form]);
	if (start && scn_get_time(ld, start, NONNEG, &a->start_us) < 0)
		return -1;
	switch (form) {
	case 0:
		a->kind = SCN_ARR_FIXED;
		return scn_get_time(ld, v, NONNEG, &a->start_us);
	case 1:
		a->kind = SCN_ARR_INTERVAL;
		return scn_get_time(ld, v, POSITIVE, &a->interval_us);
	case 2:
		a->kind = SCN_ARR_POISSON;
		return scn_get_rate(ld, v, &a->mean_gap_us);
	default:
		return arrival_times(ld, v, a);
	}
}

/* The last arrival of `every` and `poisson` (on average) is within the
 * limit of times; `v` is the arrival mapping. */
static int last_arrival(struct ld *ld, const struct yn *v, const struct scn_job_group *j)
{
	const struct scn_arrival *a = &j->arrival;
	const int64_t room = MAX_TIME_US - a->start_us;
	if (a->kind == SCN_ARR_INTERVAL && j->count - 1 > room / a->interval_us)
		return scn_fail(ld, yn_get(v, "every"), "the last of %d arrivals is past the limit of "
			    "%llds (start + (count - 1) x every)", j->count, MAX_TIME_S);
	if (a->kind == SCN_ARR_POISSON && j->count * a->mean_gap_us > (double)room)
		return scn_fail(ld, yn_get(v, "poisson"), "the last of %d arrivals is past the limit of "
			    "%llds on average (start + count / rate)", j->count, MAX_TIME_S);
	return 0;
}

/* count and arrival; with `times`, count defaults to (and must equal) their number. */
static int job_arrival(struct ld *ld, const struct yn *m, struct scn_job_group *j)
{
	const struct yn *v = yn_get(m, "arrival"), *c = yn_get(m, "count");
	if (v && v->kind == YN_MAP && yn_get(v, "trace"))
		return scn_arrival_trace(ld, v, c, j);
	if ((v && load_arrival(ld, v, &j->arrival) < 0) ||
	    (c && scn_get_lim(ld, c, 1, MAX_JOBS, "jobs in the workload", &j->count) < 0))
		return -1;
	if (j->arrival.kind != SCN_ARR_LIST)
		return last_arrival(ld, v, j);
	if (c && j->count != j->arrival.ntimes)
		return scn_fail(ld, c, "count %d disagrees with the %d arrival times", j->count,
			    j->arrival.ntimes);
	j->count = j->arrival.ntimes;
	return 0;
}

static const char *const role_keys[] = {"cores", "memory", "gpus", "require", "prefer"};
static const char *const counted_role_keys[] = {"count", "cores", "memory", "gpus", "require",
						"prefer"};

/* A role mapping, a model's JM_ROLE key; e holds its defaults.  Only a
 * role whose key says so (lo = 1) takes a count. */
static int load_role(struct ld *ld, const struct yn *m, const char *role, bool with_count,
		     struct scn_exec *e)
{
	char what[32];
	const struct yn *v;
	snprintf(what, sizeof what, "role %s", role);
	if ((with_count ? CHECK_MAP(ld, m, what, counted_role_keys) : CHECK_MAP(ld, m, what, role_keys)) < 0 ||
	    (with_count && scn_opt_lim(ld, m, "count", 1, MAX_EXECUTORS, "executors per job",
				   &e->count) < 0) ||
	    scn_opt_lim(ld, m, "cores", 1, MAX_CORES, "cores per executor", &e->cores) < 0 ||
	    scn_opt_lim(ld, m, "gpus", 0, MAX_GPUS, "GPUs per executor", &e->gpus) < 0 ||
	    ((v = yn_get(m, "memory")) && scn_get_size(ld, v, 1, &e->mem_mib) < 0))
		return -1;
	for (int i = 0; i < 2; i++) {
		const char *key = i ? "prefer" : "require";
		if (!(v = yn_get(m, key)))
			continue;
		e->has_labels = true;
		if (scn_job_labels(ld, v, key, i ? &e->prefer : &e->require) < 0)
			return -1;
	}
	return 0;
}

static const char *const stage_keys[] = {"name", "tasks", "duration", "parents"};

/* Index of parent `p` of stage i: an earlier stage of the list.  The
 * search starts at stage `from` (< i) and wraps around, so that parents
 * listed in stage order are found at once. */
static int find_parent(struct ld *ld, const struct yn *list, int i, const struct yn *p,
		       int from, const struct scn_job_group *j)
{
	const char *me = j->stages[i].name, *earlier[64];
	char names[512];
	int n = 0;
	for (int k = from, left = i; left > 0; left--, k = k + 1 < i ? k + 1 : 0)
		if (strcmp(j->stages[k].name, p->str) == 0)
			return k;
	for (int k = 0; k < i && n < ARRAY_LEN(earlier); k++)
		earlier[n++] = j->stages[k].name;
	if (strcmp(p->str, me) == 0)
		return scn_fail(ld, p, "stage '%s' cannot be its own parent", me);
	for (int k = i + 1; k < list->nkids; k++) {
		const struct yn *o = scn_entry_name(list, k);
		if (o && strcmp(o->str, p->str) == 0)
			return scn_fail(ld, p, "parent '%s' of stage '%s' comes after it (parents must be earlier stages)",
				    p->str, me);
	}
	const char *sug = scn_near(p->str, earlier, n);
	if (sug)
		return scn_fail(ld, p, "unknown stage %s in parents of '%s' (did you mean '%s'?)", scn_got(ld, p),
			    me, sug);
	if (n)
		return scn_fail(ld, p, "unknown stage %s in parents of '%s' (earlier stages: %s)", scn_got(ld, p),
			    me, scn_join(earlier, n, names, sizeof names));
	return scn_fail(ld, p, "unknown stage %s in parents of '%s' (it is the first stage)", scn_got(ld, p), me);
}

static int stage_parents(struct ld *ld, const struct yn *list, int i, struct scn_job_group *j)
{
	struct scn_stage *st = &j->stages[i];
	const struct yn *v = yn_get(list->kids[i], "parents");
	if (!v) { /* a chain: the previous stage */
		if (i > 0) {
			st->parents = xmalloc(sizeof *st->parents);
			st->parents[0] = i - 1;
			st->nparents = 1;
		}
		return 0;
	}
	if (scn_check_items(ld, v, "parents") < 0)
		return -1;
	st->parents = xcalloc((size_t)scn_nitems(v), sizeof *st->parents);
	int from = 0, max = -1; /* parents in stage order cost O(1) each */
	for (int k = 0; k < scn_nitems(v); k++) {
		const struct yn *it = scn_item(v, k);
		int p = find_parent(ld, list, i, it, from, j);
		if (p < 0)
			return -1;
		for (int q = 0; p <= max && q < st->nparents; q++)
			if (st->parents[q] == p)
				return scn_fail(ld, it, "stage '%s' is listed twice in parents", it->str);
		st->parents[st->nparents++] = p;
		from = p + 1 < i ? p + 1 : 0;
		max = p > max ? p : max;
	}
	return 0;
}

static int load_stage(struct ld *ld, const struct yn *list, int i, struct scn_job_group *j)
{
	const struct yn *m = list->kids[i], *v;
	struct scn_stage *st = &j->stages[i];
	if (CHECK_MAP(ld, m, "stage", stage_keys) < 0 || !(v = scn_need(ld, m, "name", "stage", NULL)) ||
	    scn_get_ident(ld, v, ID_NAME, "stage name", &st->name) < 0 ||
	    scn_check_unique(ld, SEEN_STAGES, list, i, &j->stages[0].name, sizeof *j->stages, "stage") < 0 ||
	    !(v = scn_need(ld, m, "tasks", "stage", st->name)) ||
	    scn_get_lim(ld, v, 1, MAX_TASKS, "tasks per stage", &st->tasks) < 0 ||
	    !(v = scn_need(ld, m, "duration", "stage", st->name)) || scn_get_dist(ld, v, Q_TIME, &st->dur) < 0)
		return -1;
	return stage_parents(ld, list, i, j);
}

/* A list of stages, the value v of a model's JM_STAGES key. */
static int load_stages(struct ld *ld, const struct yn *v, struct scn_job_group *j)
{
	if (scn_want_list(ld, v, "stages", "stage") < 0 ||
	    scn_check_len(ld, v, MAX_STAGES, "stages in a job") < 0)
		return -1;
	j->stages = xcalloc((size_t)v->nkids, sizeof *j->stages);
	j->nstages = v->nkids;
	for (int i = 0; i < v->nkids; i++)
		if (load_stage(ld, v, i, j) < 0)
			return -1;
	return 0;
}

/* The job's model, read before the other keys since it decides which
 * apply. */
static int job_type(struct ld *ld, const struct yn *m, const char *name, struct scn_job_group *j)
{
	const struct yn *v = yn_get(m, "type");
	char list[128];
	if (!v)
		return check_job_keys(ld, m, NULL) < 0 ? -1
			: (scn_need(ld, m, "type", "job group", name), -1);
	const char *names[SCN_MAX_MODELS];
	for (int t = 0; t < jm_count(); t++)
		names[t] = jm_at(t)->name;
	if (v->kind == YN_SCALAR && (j->model = jm_find(v->str, &j->type))) {
		j->ops = j->model->ops;
		return check_job_keys(ld, m, j->model);
	}
	const char *sug = v->kind == YN_SCALAR ? scn_near(v->str, names, jm_count()) : NULL;
	if (sug)
		return scn_fail(ld, v, "unknown job type %s (did you mean '%s'?)", scn_got(ld, v), sug);
	return scn_fail(ld, v, "unknown job type %s (known: %s)", scn_got(ld, v),
		    models_text(NULL, list, sizeof list));
}

/* Key k of the model's table, its value v, into the group's params. */
static int model_value(struct ld *ld, const struct jm_key *k, const struct yn *v,
		       struct scn_job_group *j)
{
	char *at = (char *)j->params + k->off;
	char list[256];
	switch (k->kind) {
	case JM_INT:
		return scn_get_lim(ld, v, (int)k->lo, (int)k->hi, k->what, (int *)(void *)at);
	case JM_SIZE:
		return scn_get_size(ld, v, k->lo, (int64_t *)(void *)at);
	case JM_TIME:
		return scn_get_time(ld, v, k->lo ? POSITIVE : NONNEG, (int64_t *)(void *)at);
	case JM_NUM: {
		double x;
		if (scn_get_num(ld, v, &x) < 0)
			return -1;
		if (!((k->lo_open ? x > k->flo : x >= k->flo) && x <= k->fhi))
			return scn_fail(ld, v, "expected %s, got %s", k->what, scn_got(ld, v));
		*(double *)(void *)at = x;
		return 0;
	}
	case JM_DIST_SIZE:
		return scn_get_dist(ld, v, Q_SIZE, (struct scn_dist *)(void *)at);
	case JM_ENUM:
		for (int i = 0; i < k->nnames; i++)
			if (v->kind == YN_SCALAR && strcmp(v->str, k->names[i]) == 0) {
				*(int *)(void *)at = i;
				return 0;
			}
		return scn_fail(ld, v, "expected one of %s for %s, got %s",
			    scn_join(k->names, k->nnames, list, sizeof list), k->key, scn_got(ld, v));
	case JM_ROLE:
		return load_role(ld, v, k->key, k->lo > 0, (struct scn_exec *)(void *)at);
	case JM_STAGES:
		return load_stages(ld, v, j);
	}
	return scn_fail(ld, v, "key '%s' of an unknown kind", k->key);
}

/* The model's keys, in its table's order, then its own checks. */
static int load_model_keys(struct ld *ld, const struct yn *m, struct scn_job_group *j)
{
	const struct job_model *jm = j->model;
	j->params = xcalloc(1, jm->params_size ? jm->params_size : 1);
	if (jm->params_size) /* the trace model has none */
		memcpy(j->params, jm->defaults, jm->params_size);
	struct scn_pos at[64];
	if (jm->nkeys > ARRAY_LEN(at))
		return scn_fail(ld, m, "job model '%s' has more than %d keys", jm->name, ARRAY_LEN(at));
	for (int i = 0; i < jm->nkeys; i++) /* a role takes the job's labels unless it
						  gives its own, one by one */
		if (jm->keys[i].kind == JM_ROLE) {
			struct scn_exec *e = (void *)((char *)j->params + jm->keys[i].off);
			e->require = j->require;
			e->prefer = j->prefer;
		}
	for (int i = 0; i < jm->nkeys; i++) {
		const struct jm_key *k = &jm->keys[i];
		const struct yn *v = k->required ? scn_need(ld, m, k->key, "job group", j->name)
						 : yn_get(m, k->key);
		at[i] = v ? scn_pos_at(ld, v) : (struct scn_pos){0};
		if (k->required && !v)
			return -1;
		if (v && model_value(ld, k, v, j) < 0)
			return -1;
	}
	struct jm_given given = {.group = j->pos, .at = at};
	return jm->loaded ? jm->loaded(j, &given, ld->err, ld->errlen) : 0;
}

/* `throughput: {GPU_MODEL: rate, ...}` (scenario.h, scn_tput). */
static int job_throughput(struct ld *ld, const struct yn *v, struct scn_job_group *j)
{
	if (scn_want(ld, v, YN_MAP, "throughput (GPU model: rate)") < 0)
		return -1;
	if (v->nkids == 0)
		return scn_fail(ld, v, "expected at least one GPU model in throughput");
	j->tput = xcalloc((size_t)v->nkids / 2, sizeof *j->tput);
	for (int i = 0; i < v->nkids; i += 2) {
		const struct yn *k = v->kids[i], *x = v->kids[i + 1];
		double r;
		if (scn_want(ld, k, YN_SCALAR, "GPU model name") < 0 || scn_get_num(ld, x, &r) < 0)
			return -1;
		if (!(r >= 0 && r <= 1e12))
			return scn_fail(ld, x, "expected a rate from 0 to 1e12 for throughput.%s, got %s",
				    k->str, scn_got(ld, x));
		j->tput[j->ntput].gpu_model = xstrdup(k->str);
		j->tput[j->ntput++].rate = r;
	}
	return 0;
}

static int load_job(struct ld *ld, const struct yn *m, struct scn_job_group *j)
{
	const struct yn *v, *name = yn_get(m, "name");
	j->count = 1;
	j->arrival.kind = SCN_ARR_FIXED;
	j->task_cpus = 1;
	j->task_max_failures = 4;
	j->pos = scn_pos_at(ld, m);
	if (scn_want(ld, m, YN_MAP, "job group") < 0 ||
	    job_type(ld, m, name && name->kind == YN_SCALAR ? name->str : NULL, j) < 0 ||
	    !(v = scn_need(ld, m, "name", "job group", NULL)) ||
	    scn_get_ident(ld, v, ID_NAME, "job group name", &j->name) < 0 || job_arrival(ld, m, j) < 0 ||
	    ((v = yn_get(m, "require")) && scn_job_labels(ld, v, "require", &j->require) < 0) ||
	    ((v = yn_get(m, "prefer")) && scn_job_labels(ld, v, "prefer", &j->prefer) < 0) ||
	    scn_opt_int(ld, m, "cores_max", 1, &j->cores_max) < 0 ||
	    scn_opt_lim(ld, m, "task_cpus", 1, MAX_CORES, "cores per task", &j->task_cpus) < 0 ||
	    scn_opt_lim(ld, m, "task_max_failures", 1, 255, "attempts per task",
		    &j->task_max_failures) < 0 ||
	    ((v = yn_get(m, "throughput")) && job_throughput(ld, v, j) < 0))
		return -1;
	return load_model_keys(ld, m, j);
}

/* Job group i within the limits of the whole workload: jobs, and tasks
 * of synthetic jobs (*jobs and *tasks: the totals so far). */
static int workload_totals(struct ld *ld, const struct yn *m, const struct scn_job_group *j,
			   long long *jobs, long long *tasks)
{
	long long per_job = 0;
	for (int i = 0; i < j->nstages; i++)
		per_job += j->stages[i].tasks;
	if (j->model->tasks)
		per_job = j->model->tasks(j);
	if ((*jobs += j->count) > MAX_JOBS)
		return scn_fail(ld, m, "job group '%s' brings the workload to %lld jobs, above the limit "
			    "of %d", j->name, *jobs, MAX_JOBS);
	if ((*tasks += j->count * per_job) > MAX_ALL_TASKS)
		return scn_fail(ld, m, "job group '%s' brings the workload to %lld tasks (count x tasks "
			    "of its stages), above the limit of %lld", j->name, *tasks, MAX_ALL_TASKS);
	return 0;
}

int scn_load_workload(struct ld *ld, const struct yn *v)
{
	struct scn *s = ld->s;
	long long jobs = 0, tasks = 0;
	if (scn_want_list(ld, v, "workload", "job group") < 0 ||
	    scn_check_len(ld, v, MAX_GROUPS, "job groups") < 0)
		return -1;
	s->jobs = xcalloc((size_t)v->nkids, sizeof *s->jobs);
	s->njobgroups = v->nkids;
	for (int i = 0; i < v->nkids; i++)
		if ((v->kids[i]->kind == YN_MAP && yn_get(v->kids[i], "trace")
			     ? scn_load_trace_job(ld, v->kids[i], &s->jobs[i])
			     : load_job(ld, v->kids[i], &s->jobs[i])) < 0 ||
		    scn_check_unique(ld, SEEN_JOB_GROUPS, v, i, &s->jobs[0].name, sizeof *s->jobs, "job group") < 0 ||
		    workload_totals(ld, v->kids[i], &s->jobs[i], &jobs, &tasks) < 0)
			return -1;
	return 0;
}
