/* registry.c - every policy, in one plain table (git's builtin table),
 * and the plugins registered at run time (plugin.c) after them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pol_common.h"
#include "policy.h"
#include "scenario.h"
#include "util.h"

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
	&pol_gavel,
	&pol_fgd,
	&pol_clustering,
	&pol_packing,
	&pol_bestfit,
	&pol_dotprod,
	&pol_random,
};

/* The built-ins, then the plugins registered so far (pol_register), in
 * registration order; rebuilt on each registration. */
static const struct policy_ops **all;
static int nall, nplugins;
static char names[1024]; /* pol_names(); "" when stale */

static void build_all(void)
{
	if (all)
		return;
	nall = (int)(sizeof policies / sizeof policies[0]);
	all = xmalloc((size_t)nall * sizeof *all);
	for (int i = 0; i < nall; i++)
		all[i] = policies[i];
}

const struct policy_ops *pol_find(const char *name)
{
	for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
		if (strcmp(policies[i]->name, name) == 0)
			return policies[i];
	for (int i = nall - nplugins; nplugins && i < nall; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

const struct policy_ops *pol_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
		if (strcmp(policies[i]->name, name) == 0)
			return policies[i];
	return NULL;
}

int pol_register(const struct policy_ops *ops)
{
	if (pol_find(ops->name))
		return -1;
	build_all();
	all = xrealloc(all, (size_t)(nall + 1) * sizeof *all);
	all[nall++] = ops;
	nplugins++;
	names[0] = '\0';
	return 0;
}

void pol_unregister_all(void)
{
	free(all);
	all = NULL;
	nall = nplugins = 0;
	names[0] = '\0';
}

const struct policy_ops *const *pol_all(int *n)
{
	build_all();
	*n = nall;
	return all;
}

const char *pol_names(void)
{
	if (!names[0]) {
		int n;
		const struct policy_ops *const *ops = pol_all(&n);
		size_t len = 0;
		for (int i = 0; i < n && len < sizeof names; i++)
			len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
						i ? ", " : "", ops[i]->name);
	}
	return names;
}
