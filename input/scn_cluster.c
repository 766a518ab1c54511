/* scn_cluster.c - the `cluster:` section (docs/scenario.md, "Cluster"):
 * node groups with their capacity, labels, failures, outages,
 * stragglers, NodeManager and network, and entries read from a trace's
 * node list.
 *
 * It may call the value readers (scn_value.c) and, for node lists, the
 * trace section (scn_traces.c, scn_load_trace_nodes).
 */
#include "scn_int.h"

#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char *const group_keys[] = {"name", "count", "cores", "memory", "gpus",
					  "gpu_model", "gpu_pool", "cpu_speed", "labels",
					  "failures", "outages", "stragglers", "nodemanager",
					  "network"};
static const char *const nodemanager_keys[] = {"memory", "vcores"};
static const char *const straggler_keys[] = {"fraction", "slowdown"};
static const char *const failure_keys[] = {"mtbf", "mttr"};
static const char *const outage_keys[] = {"node", "at", "for"};

/* An up-time or repair time: a time stands for an exponential of that
 * mean; a {dist: ...} mapping for itself.  Positive on average. */
static int failure_time(struct ld *ld, const struct yn *v, struct scn_dist *d)
{
	if (v->kind == YN_SCALAR) {
		d->kind = SCN_DIST_EXPONENTIAL;
		if (scn_get_time_real(ld, v, &d->a) < 0)
			return -1;
		if (d->a <= 0)
			return scn_fail(ld, v, "expected a time > 0, got %s", scn_got(ld, v));
		return 0;
	}
	if (scn_get_dist(ld, v, Q_TIME, d) < 0)
		return -1;
	double mean = d->kind == SCN_DIST_UNIFORM ? (d->a + d->b) / 2 : d->a;
	if (!(mean > 0))
		return scn_fail(ld, v, "expected a time > 0 on average, got %s", scn_got(ld, v));
	return 0;
}

/* failures: {mtbf, mttr}: every node of the group fails and is repaired
 * at random, independently; outages: [{node, at, for}]: scripted. */
static int group_failures(struct ld *ld, const struct yn *m, struct scn_node_group *g)
{
	const struct yn *v = yn_get(m, "failures"), *t;
	if (v) {
		if (CHECK_MAP(ld, v, "failures", failure_keys) < 0 ||
		    !(t = scn_need(ld, v, "mtbf", "failures", NULL)) || failure_time(ld, t, &g->mtbf) < 0 ||
		    !(t = scn_need(ld, v, "mttr", "failures", NULL)) || failure_time(ld, t, &g->mttr) < 0)
			return -1;
		g->fails = true;
	}
	if ((v = yn_get(m, "nodemanager"))) {
		const struct yn *t2;
		if (CHECK_MAP(ld, v, "nodemanager", nodemanager_keys) < 0 ||
		    ((t2 = yn_get(v, "memory")) && scn_get_size(ld, t2, 1, &g->nm_mem_mib) < 0) ||
		    scn_opt_lim(ld, v, "vcores", 1, MAX_CORES, "vcores per node", &g->nm_vcores) < 0)
			return -1;
		if (g->nm_mem_mib > g->mem_mib)
			return scn_fail(ld, t2, "the NodeManager's memory %s is more than the node's",
				    scn_got(ld, t2));
	}
	g->straggler_slowdown = 1;
	if ((v = yn_get(m, "stragglers")) &&
	    (CHECK_MAP(ld, v, "stragglers", straggler_keys) < 0 ||
	     !scn_need(ld, v, "fraction", "stragglers", NULL) ||
	     scn_opt_num(ld, v, "fraction", 0, 1, &g->straggler_fraction) < 0 ||
	     !scn_need(ld, v, "slowdown", "stragglers", NULL) ||
	     scn_opt_num(ld, v, "slowdown", 1, 1000, &g->straggler_slowdown) < 0))
		return -1;
	if (!(v = yn_get(m, "outages")))
		return 0;
	if (scn_want_list(ld, v, "outages", "outage") < 0 || scn_check_len(ld, v, MAX_NODES, "outages") < 0)
		return -1;
	g->outages = xcalloc((size_t)v->nkids, sizeof *g->outages);
	g->noutages = v->nkids;
	for (int i = 0; i < v->nkids; i++) {
		const struct yn *o = v->kids[i];
		struct scn_outage *out = &g->outages[i];
		if (CHECK_MAP(ld, o, "outage", outage_keys) < 0)
			return -1;
		const struct yn *nv = yn_get(o, "node");
		if (nv && scn_get_int(ld, nv, 0, &out->node) < 0)
			return -1;
		if (out->node >= g->count)
			return scn_fail(ld, nv, "node %s of an outage is past node group '%s', whose %d "
				    "node%s count from 0", scn_got(ld, nv), g->name, g->count,
				    g->count == 1 ? "" : "s");
		if (!(t = scn_need(ld, o, "at", "outage", NULL)) || scn_get_time(ld, t, NONNEG, &out->at_us) < 0 ||
		    !(t = scn_need(ld, o, "for", "outage", NULL)) || scn_get_time(ld, t, POSITIVE, &out->for_us) < 0)
			return -1;
		if (out->at_us > MAX_TIME_US - out->for_us)
			return scn_fail(ld, t, "the outage ends past the limit of %llds (at + for)", MAX_TIME_S);
	}
	return 0;
}

static int group_gpus(struct ld *ld, const struct yn *m, struct scn_node_group *g)
{
	const struct yn *v = yn_get(m, "gpu_model"), *p = yn_get(m, "gpu_pool");
	if (p && scn_get_bool(ld, p, &g->gpu_pool) < 0)
		return -1;
	if (scn_opt_lim(ld, m, "gpus", 0, g->gpu_pool ? SCN_MAX_POOL_GPUS : MAX_GPUS,
			g->gpu_pool ? "GPUs of a pool node" : "GPUs per node (gpu_pool: true for "
			"more)", &g->gpus) < 0)
		return -1;
	if (g->gpu_pool && !g->gpus)
		return scn_fail(ld, p, "gpu_pool given but node group '%s' has no GPUs (gpus: 0)",
			    g->name);
	if (g->gpus > 0 && !v)
		return scn_fail(ld, m, "missing key 'gpu_model' in node group '%s' (required when gpus > 0)",
			    g->name);
	if (g->gpus == 0 && v)
		return scn_fail(ld, v, "gpu_model given but node group '%s' has no GPUs (gpus: 0)", g->name);
	return v ? scn_get_ident(ld, v, ID_LOWER, "GPU model", &g->gpu_model) : 0;
}

static int load_group(struct ld *ld, const struct yn *m, struct scn_node_group *g)
{
	const struct yn *v;
	g->count = 1;
	g->cpu_speed = 1.0;
	g->net_mib_s = SCN_NET_MIB_S;
	g->pos = scn_pos_at(ld, m);
	if (CHECK_MAP(ld, m, "node group", group_keys) < 0 ||
	    !(v = scn_need(ld, m, "name", "node group", NULL)) ||
	    scn_get_ident(ld, v, ID_NAME, "node group name", &g->name) < 0 ||
	    scn_opt_lim(ld, m, "count", 1, MAX_NODES, "nodes in the cluster", &g->count) < 0 ||
	    !(v = scn_need(ld, m, "cores", "node group", g->name)) ||
	    scn_get_lim(ld, v, 1, SCN_MAX_NODE_CORES, "cores per node", &g->cores) < 0 ||
	    !(v = scn_need(ld, m, "memory", "node group", g->name)) || scn_get_size(ld, v, 1, &g->mem_mib) < 0 ||
	    group_gpus(ld, m, g) < 0 || group_failures(ld, m, g) < 0)
		return -1;
	if ((v = yn_get(m, "cpu_speed"))) {
		if (scn_get_num(ld, v, &g->cpu_speed) < 0)
			return -1;
		if (g->cpu_speed <= 0)
			return scn_fail(ld, v, "expected a number > 0, got %s", scn_got(ld, v));
		if (g->cpu_speed < MIN_SPEED || g->cpu_speed > MAX_SPEED)
			return scn_fail(ld, v, "cpu_speed %s is outside the limits [%g, %g]", scn_got(ld, v),
				    MIN_SPEED, MAX_SPEED);
	}
	if ((v = yn_get(m, "network")) && scn_get_bandwidth(ld, v, &g->net_mib_s) < 0)
		return -1;
	return (v = yn_get(m, "labels")) ? scn_node_labels(ld, v, g) : 0;
}


/* A cluster entry is a node group, or (with a `trace` key) the node
 * groups of a trace's node list, one per distinct node shape. */
int scn_load_cluster(struct ld *ld, const struct yn *v)
{
	struct scn *s = ld->s;
	long long nodes = 0;
	if (scn_want_list(ld, v, "cluster", "node group") < 0 ||
	    scn_check_len(ld, v, MAX_GROUPS, "node groups") < 0)
		return -1;
	int cap = v->nkids;
	s->groups = xcalloc((size_t)cap, sizeof *s->groups);
	/* names seen: group index + 1 by hash; a table twice the limit */
	size_t mask = 1;
	while (mask <= 2 * (size_t)MAX_GROUPS)
		mask = mask * 2 + 1;
	int *seen = xcalloc(mask + 1, sizeof *seen);
	int *line = xcalloc((size_t)MAX_GROUPS, sizeof *line); /* of each group's name */
	int rc = 0;
	for (int i = 0; i < v->nkids && !rc; i++) {
		int first = s->ngroups;
		const struct yn *e = v->kids[i];
		if (e->kind == YN_MAP && yn_get(e, "trace")) {
			rc = scn_load_trace_nodes(ld, e, &cap);
		} else {
			xgrow(&s->groups, &cap, s->ngroups + 1, sizeof *s->groups);
			memset(&s->groups[s->ngroups], 0, sizeof *s->groups);
			s->ngroups++;
			rc = load_group(ld, e, &s->groups[first]);
		}
		for (int g = first; g < s->ngroups && !rc; g++) {
			if (g >= MAX_GROUPS) {
				rc = scn_fail(ld, e, "too many node groups (at most %d)", MAX_GROUPS);
				break;
			}
			size_t at = (size_t)scn_name_hash(s->groups[g].name) & mask;
			for (; seen[at]; at = (at + 1) & mask) {
				const struct scn_node_group *h = &s->groups[seen[at] - 1];
				if (strcmp(h->name, s->groups[g].name) == 0) {
					rc = scn_fail(ld, yn_get(e, "name") ? yn_get(e, "name") : e,
						  "duplicate node group name '%s' (first at line %d)",
						  h->name, line[seen[at] - 1]);
					break;
				}
			}
			if (rc)
				break;
			seen[at] = g + 1;
			line[g] = (yn_get(e, "name") ? yn_get(e, "name") : e)->line;
			if ((nodes += s->groups[g].count) > MAX_NODES)
				rc = scn_fail(ld, e, "node group '%s' brings the cluster to %lld nodes, "
					  "above the limit of %d", s->groups[g].name, nodes, MAX_NODES);
		}
	}
	free(seen);
	free(line);
	return rc;
}
