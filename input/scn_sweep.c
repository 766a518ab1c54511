/* scn_sweep.c - the `sweep:` block (docs/scenario.md, "Sweeps"): its
 * axes, each path resolved once to a slot of the file's tree, values
 * checked, points counted, and a point's values put in place and taken
 * back (scn_set_point) for scn_load.c to walk the tree at each point.
 *
 * It may call the value readers (scn_value.c) and input/scn_yaml.h.
 */
#include "scn_int.h"

#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/*
 * The sweep block is checked on the file's tree: each path is resolved
 * once to a slot (a mapping key, present or absent, or a list entry).  A
 * point is then loaded by swapping the slots' values for the point's
 * value nodes, walking the tree like any file, and swapping them back:
 * values keep their own line:col, so a bad one is reported where it is
 * written.  Two paths may not set the same slot, nor one set a value that
 * another walks through (the second would change a tree the first
 * replaced).
 */

#define MAX_AXES 64

static const char *const axis_keys[] = {"label", "path", "paths", "values", "show"};

/* Columns of runs.csv and summary.csv an axis label may not take. */
static const char *const reserved_labels[] = {
	"scenario", "policy", "point", "replication", "replications", "seed",
	"metric", "mean", "sd", "ci95_half", "ci95_lo", "ci95_hi",
};

void scn_free_axes(struct sw_axis *ax, int n)
{
	for (int a = 0; ax && a < n; a++) {
		for (int i = 0; i < ax[a].nt; i++) {
			yn_free(ax[a].t[i].key);
			free(ax[a].t[i].chain);
		}
		free(ax[a].t);
	}
	free(ax);
}

/* The path text up to `len` characters (for "in 'cluster[gpu]'"). */
static const char *prefix(const char *p, size_t len, char *buf, size_t buflen)
{
	snprintf(buf, buflen, "'%.*s'", (int)(len < 200 ? len : 200), p);
	return len ? buf : "top level";
}

/* The name a list entry answers to: its `name`, else (policies) the
 * scalar itself or its policy kind. */
static const char *entry_label(const struct yn *e, bool policies)
{
	const struct yn *n = yn_get(e, "name");
	if (n && n->kind == YN_SCALAR)
		return n->str;
	if (policies && e->kind == YN_SCALAR)
		return e->str;
	if (policies && (n = yn_get(e, "policy")) && n->kind == YN_SCALAR)
		return n->str;
	return NULL;
}

static const char *entry_kind(const struct yn *e)
{
	const struct yn *k = e->kind == YN_SCALAR ? e : yn_get(e, "policy");
	return k && k->kind == YN_SCALAR ? k->str : NULL;
}

/* Entry `sel` ([NAME] or [INDEX]) of list `l`; -1 after a message. */
static int find_entry(struct sw_ld *w, const struct yn *at, const struct yn *l, const char *sel,
		      bool policies, const char *where_)
{
	char names[512];
	size_t n = 0;
	if (strspn(sel, "0123456789") == strlen(sel)) {
		long i = strlen(sel) > 9 ? LONG_MAX : strtol(sel, NULL, 10);
		if (i < l->nkids)
			return (int)i;
		return scn_fail(&w->ld, at, "sweep path '%s': no entry [%s] in %s (it has %d)", at->str,
			    sel, where_, l->nkids);
	}
	for (int i = 0; i < l->nkids; i++) {
		const char *e = entry_label(l->kids[i], policies);
		if (e && strcmp(e, sel) == 0)
			return i;
	}
	int found = -1, kinds = 0;
	for (int i = 0; policies && i < l->nkids; i++) {
		const char *k = entry_kind(l->kids[i]);
		if (k && strcmp(k, sel) == 0 && kinds++ == 0)
			found = i;
	}
	if (kinds == 1)
		return found;
	if (kinds > 1)
		return scn_fail(&w->ld, at, "sweep path '%s': %d policies of kind '%s' in %s; select one "
			    "by name", at->str, kinds, sel, where_);
	names[0] = '\0';
	for (int i = 0; i < l->nkids && n < sizeof names; i++) {
		const char *e = entry_label(l->kids[i], policies);
		if (e)
			n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", e);
	}
	return scn_fail(&w->ld, at, "sweep path '%s': no entry named '%s' in %s (%s%s)", at->str, sel,
		    where_, n ? "names: " : "its entries have no names", names);
}

/* One component of a path: a key (sel false) or a [selector]. */
struct comp {
	const char *s;
	size_t len;
	bool sel;
	size_t end;   /* offset in the path just past it */
};

/* Split `p` into components; -1 after a message. */
static int split_path(struct sw_ld *w, const struct yn *at, struct comp *c, int *n)
{
	const char *p = at->str;
	char pre[256];
	size_t i = 0;
	*n = 0;
	if (!*p)
		return scn_fail(&w->ld, at, "expected a path such as workload[NAME].count, got nothing");
	if (strchr(".[]", *p))
		return scn_fail(&w->ld, at, "sweep path '%s' must start with a key", p);
	while (p[i]) {
		struct comp k = {.sel = p[i] == '['};
		if (*n == YN_MAX_DEPTH + 1)
			return scn_fail(&w->ld, at, "sweep path '%s' is deeper than any scenario", p);
		if (k.sel) {
			k.s = p + i + 1;
			k.len = strcspn(k.s, "]");
			if (!k.s[k.len])
				return scn_fail(&w->ld, at, "sweep path '%s': '[' without ']'", p);
			if (!k.len)
				return scn_fail(&w->ld, at, "sweep path '%s': empty [] after %s", p,
					    prefix(p, i, pre, sizeof pre));
			i += k.len + 2;
		} else {
			i += *n > 0; /* the '.' */
			k.s = p + i;
			k.len = strcspn(k.s, ".[]");
			if (!k.len)
				return scn_fail(&w->ld, at, "sweep path '%s': expected a key after %s", p,
					    prefix(p, i, pre, sizeof pre));
			i += k.len;
		}
		if (p[i] && p[i] != '.' && p[i] != '[')
			return scn_fail(&w->ld, at, "sweep path '%s': expected '.' or '[' after %s", p,
				    prefix(p, i, pre, sizeof pre));
		k.end = i;
		c[(*n)++] = k;
	}
	return 0;
}

static void chain_add(struct sw_target *t, struct yn *n)
{
	t->chain = xrealloc(t->chain, (size_t)(t->nchain + 1) * sizeof *t->chain);
	t->chain[t->nchain++] = n;
}

/* Resolve the path scalar `at` in the file's tree into *t. */
static int resolve_path(struct sw_ld *w, const struct yn *at, struct sw_target *t)
{
	struct comp c[YN_MAX_DEPTH + 2];
	char key[256], where_[256];
	int n;
	*t = (struct sw_target){.at = at, .slot = -1};
	if (scn_want(&w->ld, at, YN_SCALAR, "a sweep path") < 0 || split_path(w, at, c, &n) < 0)
		return -1;
	struct yn *node = w->root;
	for (int i = 0; i < n; i++) {
		const char *wh = prefix(at->str, i ? c[i - 1].end : 0, where_, sizeof where_);
		bool last = i == n - 1;
		snprintf(key, sizeof key, "%.*s", (int)(c[i].len < 200 ? c[i].len : 200), c[i].s);
		if (node->kind != (c[i].sel ? YN_SEQ : YN_MAP))
			return scn_fail(&w->ld, at, "sweep path '%s': %s is %s, not %s", at->str, wh,
				    yn_kind_name(node), c[i].sel ? "a list" : "a mapping");
		chain_add(t, node);
		int slot = -1;
		if (c[i].sel) {
			bool pol = node == yn_get(w->root, "policies");
			if ((slot = find_entry(w, at, node, key, pol, wh)) < 0)
				return -1;
		} else {
			for (int k = 0; k < node->nkids; k += 2)
				if (strcmp(node->kids[k]->str, key) == 0)
					slot = k + 1;
			if (i == 0 && strcmp(key, "sweep") == 0)
				return scn_fail(&w->ld, at, "sweep path '%s' points into the sweep block",
					    at->str);
			if (slot < 0 && !last)
				return scn_fail(&w->ld, at, "sweep path '%s': no key '%s' %s %s", at->str, key,
					    i ? "in" : "at", wh);
		}
		if (last) {
			t->box = node;
			t->slot = slot;
			if (slot >= 0)
				t->old = node->kids[slot];
			else {
				t->key = xcalloc(1, sizeof *t->key);
				*t->key = (struct yn){.kind = YN_SCALAR, .line = at->line, .col = at->col,
						      .str = xstrdup(key)};
			}
			return 0;
		}
		node = node->kids[slot];
	}
	return 0; /* not reached: n >= 1 */
}

/* Path `t` of a later axis (or of the same one) clashes with `u`. */
static int check_clash(struct sw_ld *w, const struct sw_target *t, const struct sw_target *u)
{
	bool same = t->box == u->box &&
		    (t->slot >= 0 ? t->slot == u->slot
				  : u->slot < 0 && strcmp(t->key->str, u->key->str) == 0);
	if (same)
		return scn_fail(&w->ld, t->at, "sweep path '%s' sets the same value as '%s' (line %d)",
			    t->at->str, u->at->str, u->at->line);
	for (int i = 0; i < t->nchain; i++)
		if (u->old && t->chain[i] == u->old)
			return scn_fail(&w->ld, t->at, "sweep path '%s' lies inside the value that '%s' "
				    "(line %d) replaces", t->at->str, u->at->str, u->at->line);
	for (int i = 0; i < u->nchain; i++)
		if (t->old && u->chain[i] == t->old)
			return scn_fail(&w->ld, t->at, "sweep path '%s' replaces the value that '%s' "
				    "(line %d) points into", t->at->str, u->at->str, u->at->line);
	return 0;
}

/* The last key of a path (already split without error), for a default
 * label: "workload[wc].count" -> "count", "policies[1]" -> "policies". */
static void last_key(const char *p, char *buf, size_t len)
{
	const char *k = p;
	size_t kl = 0;
	while (*p) {
		if (*p == '[') {
			p = strchr(p, ']') + 1;
		} else if (*p == '.') {
			p++;
		} else {
			k = p;
			kl = strcspn(p, ".[]");
			p += kl;
		}
	}
	snprintf(buf, len, "%.*s", (int)(kl < 200 ? kl : 200), k);
}

static int axis_label(struct sw_ld *w, int a, const struct yn *m, char **out)
{
	const struct yn *v = yn_get(m, "label");
	if (v) {
		if (scn_get_ident(&w->ld, v, ID_NAME, "axis label", out) < 0)
			return -1;
	} else {
		char k[256];
		const struct sw_target *t = &w->ax[a].t[0];
		last_key(t->at->str, k, sizeof k);
		bool ok = strlen(k) <= MAX_NAME && strspn(k, "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == strlen(k);
		if (!ok)
			return scn_fail(&w->ld, t->at, "cannot name a sweep axis after '%s' (a label is "
				    "made of letters, digits, '_', '-' and '.'): give it a label", k);
		*out = xstrdup(k);
		v = t->at;
	}
	for (int i = 0; i < ARRAY_LEN(reserved_labels); i++)
		if (strcmp(*out, reserved_labels[i]) == 0)
			return scn_fail(&w->ld, v, "axis label '%s' is a column of runs.csv or summary.csv "
				    "already; give the axis another label", *out);
	for (int b = 0; b < a; b++)
		if (strcmp(w->sw->axes[b].label, *out) == 0)
			return scn_fail(&w->ld, v, "duplicate axis label '%s' (first at line %d)", *out,
				    w->ax[b].at->line);
	return 0;
}

/* A value shown in CSV cells must fit one without quoting. */
static int check_shown(struct sw_ld *w, const struct yn *v, const char *label, bool from_show)
{
	if (v->kind != YN_SCALAR) {
		if (from_show)
			return scn_fail(&w->ld, v, "expected a scalar in show of sweep axis '%s', got %s",
				    label, scn_got(&w->ld, v));
		return scn_fail(&w->ld, v, "value of sweep axis '%s' is %s: give the axis a 'show' list "
			    "(the value written in CSV files)", label, yn_kind_name(v));
	}
	if (!*v->str || strpbrk(v->str, ",\"\n\r"))
		return scn_fail(&w->ld, v, "cannot write %s in a CSV cell (no ',', '\"', line breaks or "
			    "empty text)%s", scn_got(&w->ld, v),
			    from_show ? "" : ": give the axis a 'show' list");
	return 0;
}

/* Paths of axis `a` (the mapping `m`), resolved and checked against the
 * paths before them. */
static int axis_paths(struct sw_ld *w, int a, const struct yn *m)
{
	struct sw_axis *x = &w->ax[a];
	const struct yn *p = yn_get(m, "path"), *ps = yn_get(m, "paths");
	if (p && ps)
		return scn_fail(&w->ld, ps, "a sweep axis takes 'path' or 'paths', not both");
	if (!p && !ps)
		return scn_fail(&w->ld, m, "missing key 'path' (or 'paths') in sweep axis");
	if (ps && scn_want_list(&w->ld, ps, "paths", "path") < 0)
		return -1;
	x->multi = ps != NULL;
	x->nt = ps ? ps->nkids : 1;
	x->t = xcalloc((size_t)x->nt, sizeof *x->t);
	for (int i = 0; i < x->nt; i++) {
		if (resolve_path(w, ps ? ps->kids[i] : p, &x->t[i]) < 0)
			return -1;
		for (int b = 0; b <= a; b++)
			for (int j = 0; j < (b < a ? w->ax[b].nt : i); j++)
				if (check_clash(w, &x->t[i], &w->ax[b].t[j]) < 0)
					return -1;
	}
	return 0;
}

/* Value `v` of axis `x`, path `i`. */
static struct yn *axis_value(const struct sw_axis *x, int v, int i)
{
	const struct yn *val = x->values->kids[v];
	return x->multi ? val->kids[i] : (struct yn *)val;
}

static int axis_values(struct sw_ld *w, int a, const struct yn *m)
{
	struct sw_axis *x = &w->ax[a];
	struct scn_axis *out = &w->sw->axes[a];
	char what[160];
	snprintf(what, sizeof what, "values of sweep axis '%s'", out->label);
	const struct yn *vs = scn_need(&w->ld, m, "values", "sweep axis", out->label), *show;
	if (!vs || scn_want_list(&w->ld, vs, what, "value") < 0)
		return -1;
	x->values = vs;
	for (int v = 0; x->multi && v < vs->nkids; v++) {
		const struct yn *val = vs->kids[v];
		if (val->kind != YN_SEQ || val->nkids != x->nt) {
			char g[64];
			if (val->kind == YN_SEQ)
				snprintf(g, sizeof g, "a list of %d", val->nkids);
			return scn_fail(&w->ld, val, "expected a list of %d values (one per path) in %s, "
				    "got %s", x->nt, what, val->kind == YN_SEQ ? g : scn_got(&w->ld, val));
		}
	}
	if ((show = yn_get(m, "show"))) {
		snprintf(what, sizeof what, "show of sweep axis '%s'", out->label);
		if (scn_want_list(&w->ld, show, what, "value") < 0)
			return -1;
		if (show->nkids != vs->nkids)
			return scn_fail(&w->ld, show, "expected %d values in %s (one per value), got %d",
				    vs->nkids, what, show->nkids);
	}
	out->nvalues = vs->nkids;
	out->shown = xcalloc((size_t)vs->nkids, sizeof *out->shown);
	for (int v = 0; v < vs->nkids; v++) {
		const struct yn *s = show ? show->kids[v] : axis_value(x, v, 0);
		if (check_shown(w, s, out->label, show != NULL) < 0)
			return -1;
		out->shown[v] = xstrdup(s->str);
	}
	return 0;
}

static void max_line(const struct yn *n, int *line)
{
	if (n->line > *line)
		*line = n->line;
	for (int i = 0; i < n->nkids; i++)
		max_line(n->kids[i], line);
}

/* Check the sweep block `v` (the value of key `k`) and fill w->sw's axes. */
int scn_load_axes(struct sw_ld *w, const struct yn *k, const struct yn *v)
{
	struct scn_sweep *sw = w->sw;
	long long points = 1;
	if (scn_want_list(&w->ld, v, "sweep", "axis") < 0 ||
	    scn_check_len(&w->ld, v, MAX_AXES, "sweep axes") < 0)
		return -1;
	w->first_line = k->line;
	max_line(v, &w->last_line);
	sw->axes = xcalloc((size_t)v->nkids, sizeof *sw->axes);
	w->ax = xcalloc((size_t)v->nkids, sizeof *w->ax);
	for (int a = 0; a < v->nkids; a++) {
		const struct yn *m = v->kids[a];
		w->ax[a].at = m;
		if (CHECK_MAP(&w->ld, m, "sweep axis", axis_keys) < 0)
			return -1;
		sw->naxes = a + 1;
		if (axis_paths(w, a, m) < 0 || axis_label(w, a, m, &sw->axes[a].label) < 0 ||
		    axis_values(w, a, m) < 0)
			return -1;
		points *= sw->axes[a].nvalues;
		if (points > SCN_MAX_POINTS)
			return scn_fail(&w->ld, m, "the sweep has %lld points up to this axis (the "
				    "product of the axes' numbers of values), above the limit of %d",
				    points, SCN_MAX_POINTS);
	}
	sw->npoints = (int)points;
	return 0;
}

/* Put point p's values in place (on) or the file's back (off, in the
 * reverse order, so keys added to one mapping come off its end). */
void scn_set_point(struct sw_ld *w, int p, bool on)
{
	const struct scn_sweep *sw = w->sw;
	for (int a0 = 0; a0 < sw->naxes; a0++) {
		int a = on ? a0 : sw->naxes - 1 - a0;
		const struct sw_axis *x = &w->ax[a];
		int v = scn_sweep_at(sw, p, a);
		for (int i0 = 0; i0 < x->nt; i0++) {
			int i = on ? i0 : x->nt - 1 - i0;
			struct sw_target *t = &x->t[i];
			if (t->slot >= 0) {
				t->box->kids[t->slot] = on ? axis_value(x, v, i) : t->old;
			} else if (on) {
				xgrow(&t->box->kids, &t->box->cap, t->box->nkids + 2,
				      sizeof *t->box->kids);
				t->box->kids[t->box->nkids++] = t->key;
				t->box->kids[t->box->nkids++] = axis_value(x, v, i);
			} else {
				t->box->nkids -= 2;
			}
		}
	}
}

/* An error of point p that is not at one of its values (those are in the
 * sweep block): add " (sweep point P: label=value, ...)". */
void scn_point_context(struct sw_ld *w, int p, const char *path, char *err, size_t errlen)
{
	if (!w->sw->naxes || !errlen)
		return;
	size_t n = strlen(path), len = strlen(err);
	int line = 0;
	if (strncmp(err, path, n) == 0 && err[n] == ':' && sscanf(err + n + 1, "%d", &line) == 1 &&
	    line >= w->first_line && line <= w->last_line)
		return;
	char pt[512];
	snprintf(err + len, errlen - len, " (sweep point %d:%s)", p,
		 scn_sweep_point_text(w->sw, p, pt, sizeof pt));
}
