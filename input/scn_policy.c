/* scn_policy.c - the `policies:` section (docs/scenario.md, "Policies"):
 * each entry a policy of the registry or a plugin, and its switches,
 * driven by the policy's switch table (sim/policy.h: booleans, choices,
 * integers, sizes, times with their ranges); switch_range (input/load.h).
 *
 * It may call the value readers (scn_value.c) and the policy registry
 * (policies/registry.h, plugins).
 */
#include "scn_int.h"

#include "registry.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const struct policy_ops *find_policy(struct ld *ld, const struct yn *v)
{
	const struct policy_ops *ops = v->kind == YN_SCALAR ? pol_find(v->str) : NULL;
	if (!ops)
		scn_fail(ld, v, "unknown policy %s (known: %s)", scn_got(ld, v), pol_names());
	return ops;
}

static const char *const entry_keys[] = {"name", "policy", "plugin"};

/* Key `k` of a policy entry, not a known one, looks like a typo of one. */
static int entry_typo(struct ld *ld, const struct yn *k)
{
	const char *sug = scn_near(k->str, entry_keys, ARRAY_LEN(entry_keys));
	if (sug)
		return scn_fail(ld, k, "unknown key '%s' in policy entry (did you mean '%s'?)", k->str, sug);
	return 0;
}

static int bad_switch(struct ld *ld, const struct yn *k, const struct policy_ops *ops)
{
	const char *keys[32], *sug;
	char list[512];
	int n = 0;
	if (entry_typo(ld, k) < 0)
		return -1;
	for (const struct pol_param *p = ops->params; p && p->key && n < ARRAY_LEN(keys); p++)
		keys[n++] = p->key;
	sug = scn_near(k->str, keys, n);
	if (sug)
		return scn_fail(ld, k, "policy %s has no switch '%s' (did you mean '%s'?)", ops->name,
			    k->str, sug);
	if (n)
		return scn_fail(ld, k, "policy %s has no switch '%s' (switches: %s)", ops->name, k->str,
			    scn_join(keys, n, list, sizeof list));
	return scn_fail(ld, k, "policy %s has no switch '%s' (it has no switches)", ops->name, k->str);
}

/* The range of numeric switch `spec`, as a scenario writes it, into buf:
 * "[1, 8192] MiB", "(0, 1]", "[1ms, 1h]". */
const char *switch_range(const struct pol_param *spec, char *buf, size_t len)
{
	char lo[32], hi[32];
	switch (spec->type) {
	case POL_TIME:
		snprintf(lo, sizeof lo, "%.15gs", spec->lo / 1e6);
		snprintf(hi, sizeof hi, "%.15gs", spec->hi / 1e6);
		break;
	case POL_SIZE:
		snprintf(lo, sizeof lo, "%.15gMiB", spec->lo);
		snprintf(hi, sizeof hi, "%.15gMiB", spec->hi);
		break;
	default:
		snprintf(lo, sizeof lo, "%.15g", spec->lo);
		snprintf(hi, sizeof hi, "%.15g", spec->hi);
	}
	snprintf(buf, len, "[%s, %s]%s%s", lo, hi, spec->unit ? " " : "",
		 spec->unit ? spec->unit : "");
	return buf;
}

/* A numeric switch's value v, in its base unit, within its range. */
static int switch_num(struct ld *ld, const struct yn *v, const struct pol_param *spec,
		      const struct policy_ops *ops, double *out)
{
	char range[96];
	long long ll;
	int64_t i64;
	switch (spec->type) {
	case POL_INT:
		if (scn_get_ll(ld, v, LLONG_MIN, LLONG_MAX, &ll) < 0)
			return -1;
		*out = (double)ll;
		break;
	case POL_NUM:
		if (scn_get_num(ld, v, out) < 0)
			return -1;
		break;
	case POL_TIME:
		if (scn_get_time(ld, v, NONNEG, &i64) < 0)
			return -1;
		*out = (double)i64;
		break;
	case POL_SIZE:
		if (scn_get_size(ld, v, 0, &i64) < 0)
			return -1;
		*out = (double)i64;
		break;
	default:
		return 0;
	}
	if (!(*out >= spec->lo && *out <= spec->hi))
		return scn_fail(ld, v, "expected %s for switch '%s' of policy %s, got %s",
			    switch_range(spec, range, sizeof range), spec->key, ops->name, scn_got(ld, v));
	return 0;
}

static int load_switch(struct ld *ld, const struct yn *k, const struct yn *v,
		       const struct policy_ops *ops, struct scn_policy *p)
{
	char list[512];
	const struct pol_param *spec = pol_param_spec(ops, k->str);
	if (!spec)
		return bad_switch(ld, k, ops);
	if (spec->type == POL_BOOL && (v->kind != YN_SCALAR || !scn_is_bool(v->str)))
		return scn_fail(ld, v, "expected true or false for switch '%s' of policy %s, got %s",
			    k->str, ops->name, scn_got(ld, v));
	if (spec->type == POL_CHOICE) {
		int n = 0;
		bool ok = false;
		while (spec->choices && spec->choices[n]) {
			ok |= v->kind == YN_SCALAR && strcmp(v->str, spec->choices[n]) == 0;
			n++;
		}
		if (!ok)
			return scn_fail(ld, v, "expected one of %s for switch '%s' of policy %s, got %s",
				    scn_join(spec->choices, n, list, sizeof list), k->str, ops->name,
				    scn_got(ld, v));
	}
	double num = 0;
	if (switch_num(ld, v, spec, ops, &num) < 0)
		return -1;
	struct scn_param *q = &p->params[p->nparams++];
	q->key = xstrdup(k->str);
	q->value = xstrdup(v->str);
	q->num = num;
	q->pos = scn_pos_at(ld, v);
	return 0;
}

/* The value given to switch key, else its default (NULL: no such key). */
static const char *switch_value(const struct policy_ops *ops, const struct scn_policy *p,
				const char *key)
{
	for (int i = 0; i < p->nparams; i++)
		if (!strcmp(p->params[i].key, key))
			return p->params[i].value;
	const struct pol_param *spec = pol_param_spec(ops, key);
	return spec ? spec->def : NULL;
}

/* A switch whose value needs another's (pol_param.with): refused, at
 * the value, when that other is not as it needs. */
static int check_with(struct ld *ld, const struct yn *v, const struct policy_ops *ops,
		      const struct scn_policy *p)
{
	for (int i = 0; i < v->nkids; i += 2) {
		const struct pol_param *spec = pol_param_spec(ops, v->kids[i]->str);
		const struct yn *val = v->kids[i + 1];
		if (!spec || !spec->with || val->kind != YN_SCALAR ||
		    (spec->def && !strcmp(val->str, spec->def)))
			continue;
		const char *eq = strchr(spec->with, '=');
		char key[64];
		snprintf(key, sizeof key, "%.*s", (int)(eq - spec->with), spec->with);
		const char *have = switch_value(ops, p, key);
		if (!have || strcmp(have, eq + 1))
			return scn_fail(ld, val, "%s: %s of policy %s goes with %s: %s (it is %s)",
				    spec->key, val->str, ops->name, key, eq + 1, have ? have : "unset");
	}
	return 0;
}

/* `plugin: FILE` of a policy entry (FILE relative to the scenario's
 * folder): the plugin's policy, loaded and registered (policies/plugin.c);
 * a `policy:` beside it must name that policy. */
static const struct policy_ops *load_plugin(struct ld *ld, const struct yn *v,
					    const struct yn *kind)
{
	char perr[768];
	if (v->kind != YN_SCALAR || !*v->str) {
		scn_fail(ld, v, "expected a shared object's path for plugin, got %s", scn_got(ld, v));
		return NULL;
	}
	char *path = scn_resolve(ld->file, v->str);
	const struct policy_ops *ops = pol_plugin_load(path, perr, sizeof perr);
	free(path);
	if (!ops) {
		scn_fail(ld, v, "%s", perr);
		return NULL;
	}
	if (kind && (kind->kind != YN_SCALAR || strcmp(kind->str, ops->name) != 0)) {
		scn_fail(ld, kind, "policy %s, but plugin '%s' holds policy '%s'", scn_got(ld, kind),
		     v->str, ops->name);
		return NULL;
	}
	return ops;
}

static int load_policy(struct ld *ld, const struct yn *v, struct scn_policy *p)
{
	const struct policy_ops *ops;
	const struct yn *kind, *name;
	p->pos = scn_pos_at(ld, v);
	if (v->kind == YN_SCALAR) {
		if (!(ops = find_policy(ld, v)))
			return -1;
		p->kind = xstrdup(ops->name);
		p->name = xstrdup(ops->name);
		p->ops = ops;
		return 0;
	}
	if (v->kind != YN_MAP)
		return scn_fail(ld, v, "expected a policy name or a mapping for policy, got %s", scn_got(ld, v));
	name = yn_get(v, "name");
	const struct yn *plugin = yn_get(v, "plugin");
	for (int i = 0; i < v->nkids && !yn_get(v, "policy") && !plugin; i += 2) /* misspelt? */
		if (!scn_in_list(v->kids[i]->str, entry_keys, ARRAY_LEN(entry_keys)) &&
		    entry_typo(ld, v->kids[i]) < 0)
			return -1;
	if (plugin) {
		if (!(ops = load_plugin(ld, plugin, yn_get(v, "policy"))))
			return -1;
	} else if (!(kind = scn_need(ld, v, "policy", "policy entry",
				 name && name->kind == YN_SCALAR ? name->str : NULL)) ||
		   !(ops = find_policy(ld, kind))) {
		return -1;
	}
	p->kind = xstrdup(ops->name);
	p->ops = ops;
	if (name) {
		if (scn_get_ident(ld, name, ID_NAME, "policy name", &p->name) < 0)
			return -1;
	} else {
		p->name = xstrdup(ops->name);
	}
	p->params = xcalloc((size_t)v->nkids / 2, sizeof *p->params);
	for (int i = 0; i < v->nkids; i += 2) {
		const struct yn *k = v->kids[i];
		if (!scn_in_list(k->str, entry_keys, ARRAY_LEN(entry_keys)) &&
		    load_switch(ld, k, v->kids[i + 1], ops, p) < 0)
			return -1;
	}
	return check_with(ld, v, ops, p);
}

int scn_load_policies(struct ld *ld, const struct yn *v)
{
	struct scn *s = ld->s;
	if (scn_want_list(ld, v, "policies", "policy") < 0 ||
	    scn_check_len(ld, v, MAX_POLICIES, "policies") < 0)
		return -1;
	s->policies = xcalloc((size_t)v->nkids, sizeof *s->policies);
	s->npolicies = v->nkids;
	for (int i = 0; i < v->nkids; i++) {
		if (load_policy(ld, v->kids[i], &s->policies[i]) < 0)
			return -1;
		for (int j = 0; j < i; j++)
			if (strcmp(s->policies[j].name, s->policies[i].name) == 0)
				return scn_fail(ld, v->kids[i],
					    "duplicate policy name '%s' (first at line %d); give one a name",
					    s->policies[i].name, s->policies[j].pos.line);
	}
	return 0;
}
