/* registry.h - the registered policies (policies/registry.c), and the
 * look-up of a configured policy's switches.
 *
 * Module: policies/, the cluster-level policies, each one const ops
 * table (sim/policy.h, the kernel's interface to them), their registry
 * and what they share (pol_common, pol_index, pol_bits).  It includes
 * scenario/, sim/ and workloads/ (models.h: model ids), never input/ or
 * cli/. */
#ifndef HETSIM_REGISTRY_H
#define HETSIM_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>

#include "policy.h"

/* The policy registered under `name`, or NULL. */
const struct policy_ops *pol_find(const char *name);
/* All registered policies, in registry order; *n receives the count. */
const struct policy_ops *const *pol_all(int *n);
/* Comma-separated list of the registered names, for messages. */
const char *pol_names(void);
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
