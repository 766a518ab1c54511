/* pol_param.c - a policy's switches as a scenario's entry set them, else
 * their defaults (registry.h).  Below the registry: every policy reads
 * its switches here, and the registry's table names every policy, so
 * the two stay in two files (no circle between them). */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "policy.h"
#include "registry.h"
#include "scenario.h"

const struct pol_param *pol_param_spec(const struct policy_ops *ops, const char *key)
{
	for (const struct pol_param *p = ops->params; p && p->key; p++)
		if (strcmp(p->key, key) == 0)
			return p;
	return NULL;
}

const char *pol_param_value(const struct policy_ops *ops, const struct scn_policy *cfg,
			    const char *key)
{
	for (int i = 0; cfg && i < cfg->nparams; i++)
		if (strcmp(cfg->params[i].key, key) == 0)
			return cfg->params[i].value;
	const struct pol_param *p = pol_param_spec(ops, key);
	return p ? p->def : NULL;
}

double pol_param_num(const struct policy_ops *ops, const struct scn_policy *cfg, const char *key)
{
	for (int i = 0; cfg && i < cfg->nparams; i++)
		if (strcmp(cfg->params[i].key, key) == 0)
			return cfg->params[i].num;
	const struct pol_param *p = pol_param_spec(ops, key);
	return p ? p->def_num : NAN;
}

bool pol_param_bool(const struct policy_ops *ops, const struct scn_policy *cfg,
		    const char *key)
{
	const char *v = pol_param_value(ops, cfg, key);
	return v && strcmp(v, "true") == 0;
}
