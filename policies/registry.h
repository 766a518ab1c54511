/* registry.h - the registered policies (policies/registry.c), and the
 * look-up of a configured policy's switches (policies/pol_param.c).
 *
 * Module: policies/, the cluster-level policies, each one const ops
 * table (sim/policy.h, the kernel's interface to them), their registry
 * and what they share (pol_common, pol_index, pol_bits).  It includes
 * scenario/ and sim/ only: never workloads/ (a policy learns what a job
 * needs from its shape), input/ or cli/ (scripts/check-layers). */
#ifndef HETSIM_REGISTRY_H
#define HETSIM_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

/* The policy registered under `name` (a built-in, or a plugin's), or
 * NULL. */
const struct policy_ops *pol_find(const char *name);
/* The built-in policy of that name, or NULL. */
const struct policy_ops *pol_builtin(const char *name);
/* All registered policies, the built-ins in registry order then the
 * plugins in the order loaded; *n receives the count.  The array is
 * valid until the next registration. */
const struct policy_ops *const *pol_all(int *n);
/* Comma-separated list of the registered names, for messages. */
const char *pol_names(void);
/* Register a policy made at run time (a plugin's, plugin.c); ops must
 * outlive its registration.  -1 if the name is taken. */
int pol_register(const struct policy_ops *ops);
/* Forget every registered plugin (pol_plugins_unload calls it). */
void pol_unregister_all(void);

/* ---- plugins (policies/plugin.c, include/hetsim/policy.h) ---------- */

/* Load the policy plugin at `path` (a shared object exporting
 * hetsim_policy_entry), check it (ABI, hooks, name, switches) and
 * register its policy under its name.  The same file loaded again (by
 * its real path) gives the same ops.  Returns the registered ops, owned
 * by the registry for the process's life; on error NULL, with one line
 * "PATH: problem" in err, and nothing kept. */
const struct policy_ops *pol_plugin_load(const char *path, char *err, size_t errlen);
/* For a plugin's ops: the file it was loaded from (as given first) and
 * the hetsim version it was built for; NULL for a built-in policy. */
const char *pol_plugin_file(const struct policy_ops *ops);
const char *pol_plugin_built_for(const struct policy_ops *ops);
/* Unregister and unload every plugin (tests; no scenario that names one
 * may be alive). */
void pol_plugins_unload(void);
/* The spec of switch `key` of policy `ops`, or NULL if it has none. */
const struct pol_param *pol_param_spec(const struct policy_ops *ops, const char *key);
/* Value of switch `key` for a configured policy: the scenario's value,
 * else the spec's default.  The key must be in the spec. */
const char *pol_param_value(const struct policy_ops *ops,
			    const struct scn_policy *cfg, const char *key);
/* A numeric switch's value in its base unit (µs, MiB): the scenario's,
 * else the spec's default.  The key must be a numeric switch. */
double pol_param_num(const struct policy_ops *ops, const struct scn_policy *cfg, const char *key);
/* pol_param_value() for a POL_BOOL switch. */
bool pol_param_bool(const struct policy_ops *ops,
		    const struct scn_policy *cfg, const char *key);

/* spark-standalone's order of a Master's HashSet of `n` workers in the
 * replication of seed `seed` (sim_seed): pos[node] = its place in the
 * iteration order; of two workers with equal free cores the Master
 * offers first the one of larger place.  For tests and tools. */
void sa_hash_order(uint64_t seed, int n, int *pos);

#endif
