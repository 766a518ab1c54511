/* scn_load.c - the scenario loader's entry points (input/load.h): a
 * file's tree walked at each sweep point (scn_sweep_load, scn_load), the
 * top level's keys, each section handed to its file, and the checks
 * after loading.
 *
 * The loader's files, in the order a scenario flows through them
 * (input/scn_int.h): scn_value.c (values, messages) <- scn_cluster.c,
 * scn_traces.c, scn_workload.c, scn_cost.c, scn_policy.c, scn_run.c,
 * scn_sweep.c (one section each), scn_mem.c <- scn_check.c (after
 * loading) <- this file, which calls them all and nothing calls.
 */
#include "scn_int.h"

#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char *const top_keys[] = {"name", "seed", "replications", "metrics", "overheads",
				       "cluster", "workload", "cost_model", "policies", "sweep",
				       "speculation", "locality"};

static int load_top(struct ld *ld, const struct yn *root)
{
	const struct yn *v;
	if (root->kind != YN_MAP)
		return scn_fail(ld, root, "expected a mapping at top level, got %s", scn_got(ld, root));
	if (CHECK_MAP(ld, root, "top level", top_keys) < 0 || scn_load_options(ld, root) < 0 ||
	    !(v = scn_need(ld, root, "cluster", "top level", NULL)) || scn_load_cluster(ld, v) < 0 ||
	    !(v = scn_need(ld, root, "workload", "top level", NULL)) || scn_load_workload(ld, v) < 0 ||
	    ((v = yn_get(root, "cost_model")) && scn_load_cost_ref(ld, v) < 0) ||
	    !(v = scn_need(ld, root, "policies", "top level", NULL)) || scn_load_policies(ld, v) < 0)
		return -1;
	return 0;
}

/* One scenario from a tree (the file's, with a sweep point's values in
 * place).  On error NULL, nothing allocated, the message in err. */
static struct scn *load_tree(const char *path, const struct yn *root, char *err, size_t errlen)
{
	struct scn *s = xcalloc(1, sizeof *s);
	s->path = xstrdup(path);
	s->seed = 1;
	s->replications = 1;
	s->over.executor_startup_us = 2 * US_PER_S;
	s->over.task_launch_us = 10000;
	struct ld ld = {.s = s, .file = s->path, .err = err, .errlen = errlen};
	int rc = load_top(&ld, root);
	for (int k = 0; k < SEEN_LISTS; k++)
		free(ld.seen[k].slot);
	/* a trace's jobs are a batch log's (SWF, PAI, Philly, ...), not
	 * Spark's: no Spark executor start-up or task launch unless the file
	 * says so (a run of them all waiting 2 s: issue 33) */
	bool traces = rc == 0 && s->njobgroups > 0;
	for (int g = 0; traces && g < s->njobgroups; g++)
		traces = s->jobs[g].trace != NULL;
	if (traces && !yn_get(root, "overheads")) {
		s->over = (struct scn_overheads){0, 0};
		s->over_batch = true;
	}
	if (rc == 0 && !yn_get(root, "cost_model") && scn_model_checks(s, err, errlen) < 0)
		rc = scn_load_builtin_cost(&ld); /* the job models need one: the default */
	long long *tasks = xcalloc((size_t)(s->njobgroups ? s->njobgroups : 1), sizeof *tasks);
	if (rc == 0 && scn_model_checks(s, err, errlen) == 0 &&
	    scn_check_time_scale(s, tasks, err, errlen) == 0 &&
	    scn_check_run_memory(s, tasks, err, errlen) == 0) {
		free(tasks);
		scn_busy_curves(s, NULL);
		return s;
	}
	free(tasks);
	scn_free(s);
	return NULL;
}

struct scn_sweep *scn_sweep_load(const char *path, char *err, size_t errlen)
{
	struct scn_sweep *sw = xcalloc(1, sizeof *sw);
	struct sw_ld w = {.ld = {.file = path, .err = err, .errlen = errlen}, .sw = sw};
	bool ok = (w.root = yn_load(path, err, errlen)) != NULL;
	const struct yn *k = NULL, *v = NULL;
	for (int i = 0; ok && w.root->kind == YN_MAP && i < w.root->nkids; i += 2)
		if (strcmp(w.root->kids[i]->str, "sweep") == 0) {
			k = w.root->kids[i];
			v = w.root->kids[i + 1];
		}
	if (ok && v)
		ok = scn_load_axes(&w, k, v) == 0;
	else
		sw->npoints = 1;
	if (ok)
		sw->point = xcalloc((size_t)sw->npoints, sizeof *sw->point);
	for (int p = 0; ok && p < sw->npoints; p++) {
		scn_set_point(&w, p, true);
		sw->point[p] = load_tree(path, w.root, err, errlen);
		scn_set_point(&w, p, false);
		if (!(ok = sw->point[p] != NULL))
			scn_point_context(&w, p, path, err, errlen);
		const char *whose;
		int64_t limit;
		if (ok && p == 0 && sw->npoints > 1 && (limit = scn_memory_limit(&whose)) >= 0) {
			/* every point a copy: refused before the copies are made */
			char what[128];
			int64_t one = scn_bytes(sw->point[0], what, sizeof what);
			double all = (double)one * sw->npoints;
			if (all > (double)limit) {
				char a[32], o[32], l[32];
				scn_fail(&w.ld, k, "the sweep's %d points would hold about %s (each a copy of "
				     "the scenario, %s, most of it %s), above the %s %s: fewer points, "
				     "or --max-memory SIZE", sw->npoints, scn_mem_text(all, a),
				     scn_mem_text((double)one, o), what, scn_mem_text((double)limit, l),
				     whose);
				ok = false;
			}
		}
	}
	scn_free_axes(w.ax, sw->naxes);
	yn_free(w.root);
	if (ok)
		return sw;
	scn_one_line(err, errlen);
	scn_sweep_free(sw);
	return NULL;
}

struct scn *scn_load(const char *path, char *err, size_t errlen)
{
	struct scn_sweep *sw = scn_sweep_load(path, err, errlen);
	if (!sw)
		return NULL;
	struct scn *s = sw->point[0];
	s->sweep_points = sw->npoints;
	sw->point[0] = NULL;
	scn_sweep_free(sw);
	return s;
}
