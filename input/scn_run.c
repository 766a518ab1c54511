/* scn_run.c - the run-wide blocks of a scenario's top level: its name,
 * seed and replications, `metrics`, `overheads`, `speculation` and
 * `locality`; the seed every scenario is loaded with (input/load.h,
 * scn_seed_at_load).
 *
 * It may call the value readers (scn_value.c) only.
 */
#include "scn_int.h"

#include "util.h"

#include <string.h>

bool scn_seed_at_load_set;
uint64_t scn_seed_at_load;
static const char *const locality_keys[] = {"enabled", "wait"};
static const char *const speculation_keys[] = {"enabled", "interval", "multiplier", "quantile",
					       "min_task_runtime"};

/* speculation: Spark's spark.speculation.* (given at all: enabled unless
 * `enabled: false`). */
static int load_speculation(struct ld *ld, const struct yn *v, struct scn_speculation *sp)
{
	const struct yn *e;
	if (CHECK_MAP(ld, v, "speculation", speculation_keys) < 0)
		return -1;
	sp->enabled = true;
	sp->pos = scn_pos_at(ld, (e = yn_get(v, "interval")) ? e : v);
	if ((e = yn_get(v, "enabled"))) {
		if (e->kind != YN_SCALAR || !scn_is_bool(e->str))
			return scn_fail(ld, e, "expected true or false for enabled, got %s", scn_got(ld, e));
		sp->enabled = strcmp(e->str, "true") == 0;
	}
	if (scn_opt_time(ld, v, "interval", POSITIVE, &sp->interval_us) < 0 ||
	    scn_opt_num(ld, v, "multiplier", 1, 1000, &sp->multiplier) < 0 ||
	    scn_opt_num(ld, v, "quantile", 0, 1, &sp->quantile) < 0 ||
	    scn_opt_time(ld, v, "min_task_runtime", NONNEG, &sp->min_runtime_us) < 0)
		return -1;
	return 0;
}
/* locality: data locality (enabled, default true) and Spark's
 * spark.locality.wait (default 3 s). */
static int load_locality(struct ld *ld, const struct yn *v, struct scn_locality *lc)
{
	const struct yn *e;
	if (CHECK_MAP(ld, v, "locality", locality_keys) < 0)
		return -1;
	if ((e = yn_get(v, "enabled"))) {
		if (e->kind != YN_SCALAR || !scn_is_bool(e->str))
			return scn_fail(ld, e, "expected true or false for enabled, got %s", scn_got(ld, e));
		lc->enabled = strcmp(e->str, "true") == 0;
	}
	return scn_opt_time(ld, v, "wait", NONNEG, &lc->wait_us);
}
static const char *const metric_keys[] = {"warmup_jobs"};
static const char *const overhead_keys[] = {"executor_startup", "task_launch"};

/* The file's basename without .yaml or .yml. */
static char *default_name(const char *path)
{
	const char *b = strrchr(path, '/');
	char *name = xstrdup(b ? b + 1 : path);
	size_t n = strlen(name);
	static const char *const ext[] = {".yaml", ".yml"};
	for (int i = 0; i < 2; i++) {
		size_t e = strlen(ext[i]);
		if (n > e && strcmp(name + n - e, ext[i]) == 0) {
			name[n - e] = '\0';
			break;
		}
	}
	return name;
}

int scn_load_options(struct ld *ld, const struct yn *root)
{
	struct scn *s = ld->s;
	const struct yn *v;
	if ((v = yn_get(root, "name"))) {
		if (scn_get_ident(ld, v, ID_NAME, "scenario name", &s->name) < 0)
			return -1;
	} else {
		s->name = default_name(s->path);
	}
	if (((v = yn_get(root, "seed")) && scn_get_seed(ld, v, &s->seed) < 0) ||
	    scn_opt_lim(ld, root, "replications", 1, MAX_REPLICATIONS, "replications",
		    &s->replications) < 0)
		return -1;
	if (scn_seed_at_load_set)
		s->seed = scn_seed_at_load;
	if ((v = yn_get(root, "metrics")) &&
	    (CHECK_MAP(ld, v, "metrics", metric_keys) < 0 ||
	     scn_opt_int(ld, v, "warmup_jobs", 0, &s->warmup_jobs) < 0))
		return -1;
	if ((v = yn_get(root, "overheads")) &&
	    (CHECK_MAP(ld, v, "overheads", overhead_keys) < 0 ||
	     scn_opt_time(ld, v, "executor_startup", NONNEG, &s->over.executor_startup_us) < 0 ||
	     scn_opt_time(ld, v, "task_launch", NONNEG, &s->over.task_launch_us) < 0))
		return -1;
	s->spec = (struct scn_speculation){.interval_us = 100000, .multiplier = 1.5,
					   .quantile = 0.75, .min_runtime_us = 100000};
	if ((v = yn_get(root, "speculation")) && load_speculation(ld, v, &s->spec) < 0)
		return -1;
	s->loc = (struct scn_locality){.enabled = true, .wait_us = 3 * US_PER_S};
	if ((v = yn_get(root, "locality")) && load_locality(ld, v, &s->loc) < 0)
		return -1;
	return 0;
}
