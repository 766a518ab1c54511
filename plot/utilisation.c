/* utilisation.c - figure (d), utilisation (plot/utilisation.gp):
 * the cores and GPUs held per node label (or GPU model) over time.
 *
 * May call: plot/executors.c, plot/common.c, plot/csv.c, plot/palette.c,
 * plot/gnuplot.c (plot_find_scripts: the policy's docs page beside the scripts).
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* One change of what a label's executors hold. */
struct step {
	double t;          /* s */
	int label;         /* index in the figure's labels (cores) */
	int series;        /* index in its GPU series */
	double cores;      /* + when taken (launch, gpu_from), - when given back */
	int gpus;
};

static int step_cmp(const void *a, const void *b)
{
	const struct step *p = a, *q = b;
	return (p->t > q->t) - (p->t < q->t);
}

static void util_row(FILE *dat, double t, int nl, const double *held, const double *cap, int ng,
		     const double *gheld, const double *gcap)
{
	plot_put_num(dat, "", t);
	for (int i = 0; i < nl; i++)
		plot_put_num(dat, " ", held[i] / cap[i]);
	for (int j = 0; j < ng; j++)
		plot_put_num(dat, " ", gheld[j] / gcap[j]);
	fputc('\n', dat);
}

/* The GPU series of the nodes: one per node label, or one per GPU model
 * where the cluster has several (a v100 and a gtx1080ti are not the same
 * resource); ser[node] is -1 without GPUs.  Returns whether by model. */
static bool gpu_series(const struct plot_nodes *nodes, struct plot_names *ser, int *sidx,
		       double *gcap)
{
	struct plot_names models = {{0}, 0};
	for (int i = 0; i < nodes->n; i++)
		if (nodes->v[i].gpus > 0)
			plot_names_add(&models, nodes->v[i].model);
	bool by_model = models.n > 1;
	for (int i = 0; i < nodes->n; i++) {
		sidx[i] = -1;
		if (nodes->v[i].gpus <= 0)
			continue;
		sidx[i] = plot_names_add(ser, by_model ? nodes->v[i].model : nodes->v[i].label);
		if (sidx[i] < 0)
			sidx[i] = ser->n - 1; /* more than PLOT_MAX_NAMES: the last takes the rest */
		gcap[sidx[i]] += nodes->v[i].gpus;
	}
	return by_model;
}

/* The steps of what executors hold: cores from launch to end, GPUs from
 * gpu_from to gpu_to (a TF node behind a GPU-blind policy takes its GPU
 * later and may give it back earlier).  Sorted by time; *ns out. */
static struct step *util_steps(const struct plot_gx *g, int n, const int *lab, const int *sidx,
			       int *ns)
{
	struct step *st = xmalloc((4 * (size_t)n + 1) * sizeof *st);
	*ns = 0;
	for (int i = 0; i < n; i++) {
		int l = lab[g[i].node], s = sidx[g[i].node];
		st[(*ns)++] = (struct step){g[i].l, l, s, g[i].cores, 0};
		st[(*ns)++] = (struct step){g[i].e, l, s, -g[i].cores, 0};
		if (g[i].gpus > 0 && s >= 0) {
			st[(*ns)++] = (struct step){g[i].gf, l, s, 0, g[i].gpus};
			st[(*ns)++] = (struct step){g[i].gt, l, s, 0, -g[i].gpus};
		}
	}
	qsort(st, (size_t)*ns, sizeof *st, step_cmp);
	return st;
}

/* The figure's titles, names and colours. */
static void util_vars(struct plot_vars *v, const struct plot_csv *ex, const struct plot_opts *o,
		      const struct plot_names *labels, const char *const *keys,
		      const char *const *col, const struct plot_names *ser, const char *const *gkeys,
		      const char *const *gcol, bool by_model, double tmax)
{
	char title[512], run[256];
	plot_run_name(ex, o, run, sizeof run);
	snprintf(title, sizeof title, "held by executors, by node label%s: %s",
		 by_model ? " and GPU model" : "", run);
	plot_var_str(v, "figtitle", title);
	plot_var_words(v, "labels", keys, labels->n);
	plot_var_words(v, "colours", col, labels->n);
	plot_var_words(v, "gpulabels", gkeys, ser->n);
	plot_var_words(v, "gpucolours", gcol, ser->n);
	plot_var_str(v, "gpuby", by_model ? "GPU model" : "label");
	plot_var_num(v, "xmax", tmax > 0 ? tmax * 1.02 : 1);
}

/* docs/policies/NAME.md, into page, where the scripts' folder has a
 * docs/ beside it holding NAME's page (a name of letters, digits, '-',
 * '_' and '.', not starting with '.'); else "". */
static void policy_page(const char *name, char *page, size_t len)
{
	char dir[4200], path[4600];
	page[0] = '\0';
	if (!name || !*name || *name == '.' || strspn(name, "abcdefghijklmnopqrstuvwxyz"
							"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != strlen(name) ||
	    !plot_find_scripts(dir, sizeof dir))
		return;
	snprintf(path, sizeof path, "%s/../docs/policies/%.200s.md", dir, name);
	if (access(path, R_OK) == 0)
		snprintf(page, len, "docs/policies/%s.md", name);
}

/* The note under a figure whose cores held pass 100 % of a label's
 * (peak, of `label`'s cap cores): it names the policy shown and what lets
 * a policy hold more cores than a node has, never which policy does
 * what (plot/ knows no policy); its docs page where there is one. */
static void over_note(struct plot_vars *v, const char *policy, double peak, const char *label,
		      double cap)
{
	char note[512], page[300];
	snprintf(note, sizeof note, PLOT_WARN " above 100 %%: executors held more cores than the "
		 "nodes have (peak %.0f %% of %.100s's %.0f cores): %.100s's allocation let them",
		 100 * peak, label, cap, policy ? policy : "the policy");
	plot_var_str(v, "footnote", note);
	policy_page(policy, page, sizeof page);
	snprintf(note, sizeof note, "(cores oversubscribe under a calculator that counts memory only, "
		 "or on nodes that offer more vcores than cores)%s%s", *page ? ": " : "", page);
	plot_var_str(v, "footnote2", note);
}

int plot_prep_util(const struct plot_csv *ex, const struct plot_nodes *nodes,
		   const struct plot_opts *o, FILE *dat, struct plot_vars *v, char *err,
		   size_t errlen)
{
	struct plot_node_rows nr = {NULL, 0, 0};
	struct plot_names types = {{0}, 0}, labels = {{0}, 0}, ser = {{0}, 0};
	struct plot_gx *g = NULL;
	int n, ns;
	double tmax, cap[PLOT_MAX_NAMES] = {0}, gcap[PLOT_MAX_NAMES] = {0};
	if (!nodes) {
		snprintf(err, errlen, "%s: utilisation needs the scenario's nodes (-s FILE)", ex->path);
		return -1;
	}
	if (plot_gather(ex, nodes, o, &nr, &types, &g, &n, &tmax, err, errlen)) {
		free(g);
		free(nr.name);
		return -1;
	}
	int *lab = xmalloc(((size_t)nodes->n + 1) * sizeof *lab);
	int *sidx = xmalloc(((size_t)nodes->n + 1) * sizeof *sidx);
	for (int i = 0; i < nodes->n; i++) {
		lab[i] = plot_names_add(&labels, nodes->v[i].label);
		if (lab[i] < 0)
			lab[i] = labels.n - 1; /* more than PLOT_MAX_NAMES labels: the last takes the rest */
		cap[lab[i]] += nodes->v[i].cores;
	}
	bool by_model = gpu_series(nodes, &ser, sidx, gcap);
	struct step *st = util_steps(g, n, lab, sidx, &ns);
	tmax = fmax(tmax, o->xmax);
	double held[PLOT_MAX_NAMES] = {0}, gheld[PLOT_MAX_NAMES] = {0};
	fprintf(dat, "# t");
	for (int i = 0; i < labels.n; i++)
		fprintf(dat, " cores:%s", labels.v[i]);
	for (int j = 0; j < ser.n; j++)
		fprintf(dat, " gpus:%s", ser.v[j]);
	fprintf(dat, "  (share held by executors, from t to the next row)\n");
	if (st[0].t > 0)
		util_row(dat, 0, labels.n, held, cap, ser.n, gheld, gcap);
	double peak = 0; /* the largest share of cores held, and its label */
	int peak_label = 0;
	for (int i = 0; i < ns; i++) {
		held[st[i].label] += st[i].cores;
		if (st[i].series >= 0)
			gheld[st[i].series] += st[i].gpus;
		if (i + 1 == ns || st[i + 1].t != st[i].t) {
			util_row(dat, st[i].t, labels.n, held, cap, ser.n, gheld, gcap);
			for (int l = 0; l < labels.n; l++)
				if (cap[l] > 0 && held[l] / cap[l] > peak) {
					peak = held[l] / cap[l];
					peak_label = l;
				}
		}
	}

	const char *col[PLOT_MAX_NAMES], *gcol[PLOT_MAX_NAMES], *keys[PLOT_MAX_NAMES], *gkeys[PLOT_MAX_NAMES];
	char kbuf[2 * PLOT_MAX_NAMES][160];
	int rc = plot_colours_for(&labels, col, err, errlen) ? -1 : 0;
	if (!rc && by_model)
		rc = plot_colours_for(&ser, gcol, err, errlen) ? -1 : 0;
	else
		for (int j = 0, l; !rc && j < ser.n; j++)
			gcol[j] = (l = plot_names_find(&labels, ser.v[j])) >= 0 ? col[l] : "#000000";
	for (int i = 0; !rc && i < labels.n; i++) {
		snprintf(kbuf[i], sizeof kbuf[i], "%s (%.0f cores)", labels.v[i], cap[i]);
		keys[i] = kbuf[i];
	}
	for (int j = 0; !rc && j < ser.n; j++) {
		snprintf(kbuf[PLOT_MAX_NAMES + j], sizeof kbuf[0], "%s (%.0f GPUs)", ser.v[j], gcap[j]);
		gkeys[j] = kbuf[PLOT_MAX_NAMES + j];
	}
	if (!rc)
		util_vars(v, ex, o, &labels, keys, col, &ser, gkeys, gcol, by_model, tmax);
	/* More cores held than the nodes have: say why it can be (a 0.5 %
	 * rounding of the shares shown is not worth a note) */
	if (!rc && peak > 1.005)
		over_note(v, o->policy, peak, labels.v[peak_label], cap[peak_label]);
	free(st);
	free(lab);
	free(sidx);
	free(g);
	free(nr.name);
	return rc;
}
