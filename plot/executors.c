/* executors.c - what the executors.csv figures share: a
 * scenario's nodes (plot_nodes_from_scn), executors.csv's columns, its
 * policies and time axis, and the executors of one run gathered per node
 * row (plot_gather).
 *
 * May call: plot/csv.c, plot/common.c, scenario/scenario.h, sim/util.h.
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "util.h"

/* ---- nodes ---------------------------------------------------------- */

void plot_nodes_from_scn(const struct scn *s, struct plot_nodes *out)
{
	out->n = 0;
	for (int g = 0; g < s->ngroups; g++)
		out->n += s->groups[g].count;
	out->v = xcalloc((size_t)out->n + 1, sizeof *out->v);
	struct plot_node *p = out->v;
	for (int g = 0; g < s->ngroups; g++) {
		const struct scn_node_group *ng = &s->groups[g];
		const char *label = "unlabelled";
		for (int b = 0; b < s->nlabels; b++)
			if (ng->labels >> b & 1 &&
			    (!strcmp(s->label_names[b], "gpu") || !strcmp(s->label_names[b], "cpu"))) {
				label = s->label_names[b];
				break;
			}
		for (int b = 0; b < s->nlabels && !strcmp(label, "unlabelled"); b++)
			if (ng->labels >> b & 1)
				label = s->label_names[b];
		for (int i = 0; i < ng->count; i++, p++) {
			snprintf(p->name, sizeof p->name, "%s-%d", ng->name, i);
			snprintf(p->label, sizeof p->label, "%s", label);
			snprintf(p->model, sizeof p->model, "%s",
				 ng->gpus > 0 && ng->gpu_model ? ng->gpu_model : "");
			p->cores = ng->cores;
			p->gpus = ng->gpus;
		}
	}
}

void plot_nodes_free(struct plot_nodes *n)
{
	free(n->v);
	n->v = NULL;
	n->n = 0;
}

/* ---- executors.csv -------------------------------------------------- */

struct exec_cols {
	int policy, rep, node, type, launch, ready, end; /* required */
	int id, gpus, cores, point, gfrom, gto;         /* -1 if absent */
};

static int exec_cols(const struct plot_csv *c, struct exec_cols *k, char *err, size_t errlen)
{
	static const char *const need[] = {"policy", "replication", "node", "type", "launch_s",
					   "ready_s", "end_s", "cores", NULL};
	int i[8];
	if (plot_need_cols(c, need, i, err, errlen))
		return -1;
	*k = (struct exec_cols){i[0], i[1], i[2], i[3], i[4], i[5], i[6],
				plot_csv_col(c, "executor"), plot_csv_col(c, "gpus"), i[7],
				plot_csv_col(c, "point"), plot_csv_col(c, "gpu_from_s"),
				plot_csv_col(c, "gpu_to_s")};
	return 0;
}

static bool exec_row_in(const struct plot_csv *c, const struct exec_cols *k, int r,
			const struct plot_opts *o)
{
	return plot_cell_is_int(c, r, k->rep, o->replication) && plot_cell_is_int(c, r, k->point, o->point) &&
	       (!o->policy || !strcmp(plot_csv_cell(c, r, k->policy), o->policy));
}

int plot_policies_of(const struct plot_csv *ex, const struct plot_opts *o, const char **names,
		     int max)
{
	struct exec_cols k;
	char err[8];
	struct plot_opts any = *o;
	any.policy = NULL;
	int n = 0;
	if (exec_cols(ex, &k, err, sizeof err))
		return 0;
	for (int r = 0; r < ex->nrows; r++) {
		const char *p = plot_csv_cell(ex, r, k.policy);
		bool seen = false;
		for (int i = 0; i < n; i++)
			seen |= !strcmp(names[i], p);
		if (!seen && n < max && exec_row_in(ex, &k, r, &any))
			names[n++] = p;
	}
	return n;
}

double plot_exec_end(const struct plot_csv *ex, const struct plot_opts *o)
{
	struct exec_cols k;
	char err[8];
	struct plot_opts any = *o;
	any.policy = NULL;
	double end = 0;
	if (exec_cols(ex, &k, err, sizeof err))
		return 0;
	for (int r = 0; r < ex->nrows; r++) {
		if (!exec_row_in(ex, &k, r, &any))
			continue;
		int col[3] = {k.launch, k.ready, k.end};
		for (int i = 0; i < 3; i++) {
			double t;
			if (plot_cell_num(ex, r, col[i], &t, err, sizeof err) == 0)
				end = fmax(end, t);
		}
	}
	return end;
}

/* Node names "group-i" in group then index order. */
int plot_node_cmp(const char *a, const char *b)
{
	const char *da = strrchr(a, '-'), *db = strrchr(b, '-');
	if (da && db && da - a == db - b && !strncmp(a, b, (size_t)(da - a)) &&
	    strspn(da + 1, "0123456789") == strlen(da + 1) && strspn(db + 1, "0123456789") ==
	    strlen(db + 1) && da[1] && db[1]) {
		long x = atol(da + 1), y = atol(db + 1);
		return (x > y) - (x < y);
	}
	return strcmp(a, b);
}

int plot_gx_cmp(const void *a, const void *b)
{
	const struct plot_gx *p = a, *q = b;
	if (p->node != q->node)
		return p->node - q->node;
	if (p->l != q->l)
		return (p->l > q->l) - (p->l < q->l);
	return p->id - q->id;
}

static int row_of(struct plot_node_rows *nr, const struct plot_nodes *nodes, const char *name)
{
	for (int i = 0; i < nr->n; i++) /* O(nodes) scan: fine for lab-sized clusters */
		if (!strcmp(nr->name[i], name))
			return i;
	if (nodes)
		return -1;
	xgrow(&nr->name, &nr->cap, nr->n + 1, sizeof *nr->name);
	nr->name[nr->n] = name;
	return nr->n++;
}

/* The executors of (o->policy, o->replication), times checked.  Node
 * rows: nodes' in cluster order if given, else sorted by name. */
int plot_gather(const struct plot_csv *ex, const struct plot_nodes *nodes,
		  const struct plot_opts *o, struct plot_node_rows *nr, struct plot_names *types,
		  struct plot_gx **out, int *n, double *tmax, char *err, size_t errlen)
{
	struct exec_cols k;
	int cap = 0;
	*out = NULL;
	*n = 0;
	*tmax = 0;
	if (exec_cols(ex, &k, err, errlen))
		return -1;
	for (int i = 0; nodes && i < nodes->n; i++)
		row_of(nr, NULL, nodes->v[i].name);
	for (int r = 0; r < ex->nrows; r++) {
		if (!exec_row_in(ex, &k, r, o))
			continue;
		xgrow(out, &cap, *n + 1, sizeof **out);
		struct plot_gx *g = &(*out)[(*n)++];
		double id = 0, gpus = 0, cores;
		g->line = ex->line[r];
		g->node = row_of(nr, nodes, plot_csv_cell(ex, r, k.node));
		if (g->node < 0) {
			snprintf(err, errlen, "%s:%d: node '%s' is not in the scenario", ex->path,
				 ex->line[r], plot_csv_cell(ex, r, k.node));
			return -1;
		}
		g->type = plot_names_add(types, plot_csv_cell(ex, r, k.type));
		if (g->type < 0) {
			snprintf(err, errlen, "%s:%d: more than %d job types", ex->path, ex->line[r],
				 PLOT_MAX_NAMES);
			return -1;
		}
		int el = plot_cell_num(ex, r, k.launch, &g->l, err, errlen),
		    ec = plot_cell_num(ex, r, k.cores, &cores, err, errlen);
		if (el < 0 || ec < 0 || plot_cell_num(ex, r, k.ready, &g->r, err, errlen) < 0 ||
		    plot_cell_num(ex, r, k.end, &g->e, err, errlen) < 0 ||
		    plot_cell_num(ex, r, k.id, &id, err, errlen) < 0 ||
		    plot_cell_num(ex, r, k.gpus, &gpus, err, errlen) < 0)
			return -1;
		if (el || ec) {
			snprintf(err, errlen, "%s:%d: an executor without %s", ex->path, ex->line[r],
				 el ? "launch_s" : "cores");
			return -1;
		}
		if (g->r < g->l || g->e < fmax(g->l, isnan(g->r) ? g->l : g->r)) {
			snprintf(err, errlen, "%s:%d: times out of order (launch_s <= ready_s <= "
				 "end_s)", ex->path, ex->line[r]);
			return -1;
		}
		g->id = isnan(id) ? r : (int)id;
		g->gpus = isnan(gpus) ? 0 : (int)gpus;
		g->gf = g->l;
		g->gt = g->e;
		if (plot_cell_num(ex, r, k.gfrom, &g->gf, err, errlen) < 0 ||
		    plot_cell_num(ex, r, k.gto, &g->gt, err, errlen) < 0)
			return -1;
		if (isnan(g->gf) || isnan(g->gt)) { /* never held, or an old file */
			g->gf = g->l;
			g->gt = g->e;
		}
		if (g->gpus > 0 && (g->gf < g->l || g->gt < g->gf || g->gt > g->e)) {
			snprintf(err, errlen, "%s:%d: GPU times out of order (launch_s <= "
				 "gpu_from_s <= gpu_to_s <= end_s)", ex->path, ex->line[r]);
			return -1;
		}
		g->cores = cores;
		*tmax = fmax(*tmax, fmax(g->l, fmax(isnan(g->r) ? 0 : g->r, isnan(g->e) ? 0 : g->e)));
	}
	if (*n == 0) {
		const char *pols[PLOT_MAX_NAMES];
		char all[1024] = "";
		int np = plot_policies_of(ex, o, pols, PLOT_MAX_NAMES);
		for (int i = 0; i < np; i++)
			snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? ", " : "",
				 pols[i]);
		snprintf(err, errlen, "%s: no executor of policy '%s' in replication %d (policies "
			 "there: %s)", ex->path, o->policy ? o->policy : "", o->replication,
			 np ? all : "none");
		return -1;
	}
	for (int i = 0; i < *n; i++) /* never released: shown to the end */
		if (isnan((*out)[i].e))
			(*out)[i].e = *tmax;
	return 0;
}
