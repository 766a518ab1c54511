/* registry.c - every policy, in one plain table (git's builtin table). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pol_common.h"
#include "policy.h"
#include "scenario.h"

static const struct policy_ops *const policies[] = {
	&pol_fifo,
	&pol_spark_standalone,
	&pol_label_dual,
	&pol_yarn,
	&pol_log_replay,
	&pol_easy,
	&pol_conservative,
	&pol_drf,
	&pol_tetris,
	&pol_tiresias,
	&pol_sjf,
	&pol_srtf,
	&pol_fgd,
	&pol_clustering,
	&pol_packing,
	&pol_bestfit,
	&pol_dotprod,
	&pol_random,
};

const struct policy_ops *pol_find(const char *name)
{
	for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
		if (strcmp(policies[i]->name, name) == 0)
			return policies[i];
	return NULL;
}

const struct policy_ops *const *pol_all(int *n)
{
	*n = (int)(sizeof policies / sizeof policies[0]);
	return policies;
}

const char *pol_names(void)
{
	static char buf[512];
	if (!buf[0]) {
		size_t len = 0;
		for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
						i ? ", " : "", policies[i]->name);
	}
	return buf;
}

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
