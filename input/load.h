/* load.h - the scenario input: YAML scenario files, cost-model files
 * and traces (input/trace.h) into the in-memory types of
 * scenario/scenario.h.
 *
 * The loader walks a YAML tree (scn_yaml.h), checks the generic keys
 * itself and applies each job model's key table (workloads/model.h) and
 * each policy's switch table (sim/policy.h): it holds no per-model or
 * per-policy code.  It sits above scenario/, sim/, workloads/ and
 * policies/, and nothing below it calls it.
 */
#ifndef HETSIM_LOAD_H
#define HETSIM_LOAD_H

#include <stddef.h>

#include "scenario.h"

/* The built-in cost model: the text of calibrate/models/default.yaml
 * (assumed figures, docs/model.md "Costs"), compiled in by the Makefile
 * from that file, so that the two never differ.  A scenario whose job
 * groups need a cost model and that names none is loaded with it
 * (cost.builtin); `hetsim run`, `sweep` and `validate` say so. */
#define SCN_DEFAULT_MODEL "calibrate/models/default.yaml"
extern const char scn_default_model_yaml[];

/* Read and check a scenario.  On success returns the scenario, owned by
 * the caller (free with scn_free).  On error returns NULL, allocates
 * nothing, and writes one line "file:line:col: message" (no newline) into
 * err (at most errlen bytes).  A file with a sweep block is loaded as by
 * scn_sweep_load(), every point checked, and its point 0 is returned. */
struct scn *scn_load(const char *path, char *err, size_t errlen);

/* Read a scenario file and every point of its sweep block.  On success
 * returns the sweep, owned by the caller (free with scn_sweep_free).  On
 * error returns NULL, allocates nothing, and writes one line into err as
 * scn_load() does; an error of a point that is not at one of its values
 * ends with " (sweep point P: label=value, ...)". */
struct scn_sweep *scn_sweep_load(const char *path, char *err, size_t errlen);

/* Read and check a cost-model file on its own (docs/scenario.md, "Cost
 * model"), for `hetsim calibrate --check` and `--validate`.  On success
 * returns a scenario holding only the model (s->cost; no cluster, no
 * workload, no policies), owned by the caller (free with scn_free).  On
 * error returns NULL, allocates nothing, and writes one line
 * "file:line:col: message" into err, as scn_load() does. */
struct scn *scn_cost_load(const char *path, char *err, size_t errlen);

/* Read a provenance file: a YAML mapping of the cost model's version 2
 * `meta` keys (docs/scenario.md, "meta: provenance"), as
 * hetsim-cuda-cal writes beside its samples (SAMPLES.csv.meta) for
 * `hetsim calibrate --fit`.  Returns 0 with *m filled (free with
 * scn_cost_meta_free), or -1 with *m empty and one line
 * "file:line:col: message" in err. */
int scn_meta_load(const char *path, struct scn_cost_meta *m, char *err, size_t errlen);

/* The nodes' slowdown against their busy cores (scn_node_group's
 * busy_slowdown, replaced) from the cost model: one curve for every
 * node, at each k the largest slowdown of the kernels with a contention
 * entry for device cpu that the workload's tasks run on a node's clock
 * (the job models' clock_kernels; processor sharing gives the tasks of
 * a node one rate, so the most contended kernel's curve stands for
 * all), or of the kernels in `only` (NULL-terminated) where given; where
 * none of those has a cpu device (the durations are given), of every
 * kernel with a cpu entry (docs/model.md, "Contention").  No entry:
 * none, the rate as without contention.  The loader calls it with NULL;
 * a caller whose synthetic tasks stand for known kernels (calibrate's
 * twin) calls it again with them. */
void scn_busy_curves(struct scn *s, const char *const *only);

/* When scn_seed_at_load_set, the seed every scenario is loaded with, in
 * place of its file's `seed` (the command line's --seed): an offer-only
 * trace's order, drawn at load, follows it.  Unset (the default): the
 * file's. */
extern bool scn_seed_at_load_set;
extern uint64_t scn_seed_at_load;

/* Put every offer-only trace of s in replication r's order
 * (trace_offer_order): a caller runs it before each replication's
 * sim_new, so that replications differ in order as in every other draw;
 * replication 0's is the load's.  Nothing else of s changes. */
void scn_offer_order(struct scn *s, uint32_t replication);

/* The memory a load may plan for, bytes (--max-memory): 0 (the default)
 * the machine's available memory (MemAvailable), -1 no guard
 * (scn_memory_limit reads it).  A sweep whose points would hold more
 * (each point is a copy of the scenario) is refused at its `sweep` key,
 * naming the estimate and its largest part, before the points are made;
 * a run and a trace likewise (docs/errors.md). */
extern int64_t scn_max_memory;

/* What one loaded scenario holds in memory, bytes (an estimate: its
 * structures and their names, 16 bytes a block of malloc's), and its
 * largest part into *what ("its 10000 job groups", "its traces' 18239
 * jobs", ...). */
int64_t scn_bytes(const struct scn *s, char *what, size_t len);

/* The loader also refuses a scenario whose run would hold more than
 * scn_max_memory (an upper estimate: its nodes, its jobs, and the DAG of
 * each job that can be live at once, as many of a group's as the cluster
 * holds executors of its first role; docs/errors.md). */
/* The memory a load may plan for, bytes: --max-memory's, else the
 * machine's available memory; -1 for no guard (--max-memory none, or
 * MemAvailable unreadable).  *whose says which, for a message ("of
 * --max-memory", "this machine has available"). */
int64_t scn_memory_limit(const char **whose);

/* A size in words, "12.3 GiB", "40.2 MiB", "512.0 KiB", into buf (32
 * bytes); buf returned. */
const char *scn_mem_text(double bytes, char *buf);
/* MemAvailable of /proc/meminfo, bytes; -1 where it cannot be read. */
int64_t scn_mem_available(void);

/* Every trace of a scenario is read as with `strict: true` (the command
 * line's --strict): a record skipped or clamped is an error.  Off by
 * default. */
extern bool scn_trace_strict;

/* The range of a numeric policy switch as a scenario writes it ("[1,
 * 8192] MiB", "[1ms, 1h]"), for messages and `hetsim policies`. */
struct pol_param;
const char *switch_range(const struct pol_param *spec, char *buf, size_t len);

#endif
