/* scn_int.h - what the scenario loader's files share (input/scn_*.c;
 * nothing outside the loader includes it): the limits of docs/scenario.md,
 * the walk's state (struct ld), and the functions one section file calls
 * in another, grouped by the file that defines them (each one's contract
 * is at its definition).  The public entry points are in input/load.h,
 * which it includes.
 *
 * Each walker returns 0, or -1 after scn_fail() wrote the one error
 * message.  Everything allocated is hung on the scn at once (arrays are
 * allocated zeroed at their full length first), so scn_free() can take
 * back a half-built scenario and no walker has cleanup of its own.
 */
#ifndef HETSIM_SCN_INT_H
#define HETSIM_SCN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "load.h"
#include "scenario.h"
#include "scn_yaml.h"

/* Limits (docs/scenario.md, "Limits"): past them a run could not finish,
 * would not fit in memory, or would overflow the engine's integers. */
#define MAX_NAME 100                 /* characters of a name */
#define MAX_NODES 100000             /* nodes in the cluster */
#define MAX_JOBS 10000000            /* jobs in the workload */
#define MAX_GROUPS 10000             /* node groups; job groups */
#define MAX_CORES SCN_MAX_CORES
#define MAX_GPUS SCN_MAX_GPUS
#define MAX_EXECUTORS SCN_MAX_EXECUTORS
#define MAX_STAGES SCN_MAX_STAGES
#define MAX_TASKS SCN_MAX_TASKS
#define MAX_ALL_TASKS 100000000LL    /* synthetic tasks of the whole workload */
#define MAX_MIB (1LL << 30)          /* any size: 1024TiB */
#define MAX_TIME_S SCN_MAX_TIME_S
#define MAX_TIME_US SCN_MAX_TIME_US
#define MAX_CV 100                   /* coefficients of variation */
#define MIN_SPEED 0.001              /* cpu_speed */
#define MAX_SPEED 1000.0
#define MAX_REPLICATIONS 1000000
#define MAX_POLICIES 16              /* policies a run compares (cli/run.c) */

/* The names one list has shown so far (scn_check_unique): a hash set of
 * entry indexes, open addressing on FNV-1a, so that a list of n entries
 * is checked in O(n).  Comparing each name with all those before it took
 * half a million comparisons for a thousand job groups. */
struct seen {
	int *slot;        /* entry index + 1; 0: empty */
	size_t cap;       /* a power of two, more than twice the entries */
};

enum { SEEN_NODE_GROUPS, SEEN_JOB_GROUPS, SEEN_STAGES, SEEN_LISTS };

/* The walk of one tree: what it builds, where its messages go. */
struct ld {
	struct scn *s;
	const char *file; /* file of the tree walked: s->path or s->cost.path */
	char *err;
	size_t errlen;
	char got[96];     /* scn_got()'s quoted value */
	struct seen seen[SEEN_LISTS]; /* scn_check_unique's, by kind of list */
};
#define CHECK_MAP(ld, map, what, keys) scn_check_map(ld, map, what, keys, ARRAY_LEN(keys))

enum ident { ID_NAME, ID_LOWER };  /* scn_get_ident's character sets */
enum sign { NONNEG, POSITIVE };    /* scn_get_time's lower bound */
enum qty { Q_SIZE, Q_TIME };       /* scn_get_dist's unit */

/* A sweep block resolved on the file's tree: scn_sweep.c makes them,
 * scn_sweep_load (scn_load.c) holds them while it walks each point. */

struct sw_target {            /* one path, resolved in the file's tree */
	const struct yn *at;  /* the path scalar, for messages */
	struct yn *box;       /* the mapping or list that holds the slot */
	int slot;             /* index in box->kids of the value; -1: key absent */
	struct yn *key;       /* absent key: a key node made for it (owned) */
	struct yn *old;       /* the file's value, NULL if absent */
	struct yn **chain;    /* the collections walked, root first; owned */
	int nchain;
};

struct sw_axis {
	const struct yn *at;      /* the axis mapping */
	const struct yn *values;  /* its value list */
	bool multi;               /* `paths`: each value is a list, one per path */
	struct sw_target *t;      /* owned */
	int nt;
};

struct sw_ld {
	struct ld ld;             /* messages: ld.file, ld.err (no scn) */
	struct yn *root;
	struct scn_sweep *sw;     /* what is built */
	struct sw_axis *ax;       /* sw->naxes, owned */
	int first_line, last_line;/* lines of the sweep block */
};

/* scn_mem.c (and the public scn_memory_limit, scn_mem_text, scn_bytes of
 * input/load.h) */
int64_t scn_run_bytes(const struct scn *s, const long long *tasks, char *what, size_t len,
			 int *at_group);

/* scn_value.c */
int scn_fail(struct ld *ld, const struct yn *at, const char *fmt, ...);
const char *scn_got(struct ld *ld, const struct yn *v);
const char *scn_join(const char *const *v, int n, char *buf, size_t len);
const char *scn_near(const char *word, const char *const *known, int n);
struct scn_pos scn_pos_at(const struct ld *ld, const struct yn *v);
int scn_want(struct ld *ld, const struct yn *v, enum yn_kind k, const char *what);
int scn_want_list(struct ld *ld, const struct yn *v, const char *what, const char *item);
int scn_unknown_key(struct ld *ld, const struct yn *k, const char *what,
		       const char *const *keys, int n);
bool scn_in_list(const char *s, const char *const *v, int n);
int scn_check_map(struct ld *ld, const struct yn *map, const char *what,
		     const char *const *keys, int n);
const struct yn *scn_need(struct ld *ld, const struct yn *map, const char *key,
			     const char *what, const char *name);
int scn_check_items(struct ld *ld, const struct yn *v, const char *what);
int scn_nitems(const struct yn *v);
const struct yn *scn_item(const struct yn *v, int i);
int scn_get_ident(struct ld *ld, const struct yn *v, enum ident kind, const char *what,
		     char **out);
int scn_get_ll(struct ld *ld, const struct yn *v, long long lo, long long hi, long long *out);
int scn_get_int(struct ld *ld, const struct yn *v, int lo, int *out);
int scn_get_lim(struct ld *ld, const struct yn *v, int lo, int hi, const char *what, int *out);
int scn_opt_int(struct ld *ld, const struct yn *map, const char *key, int lo, int *out);
int scn_opt_lim(struct ld *ld, const struct yn *map, const char *key, int lo, int hi,
		   const char *what, int *out);
int scn_get_seed(struct ld *ld, const struct yn *v, uint64_t *out);
int scn_get_num(struct ld *ld, const struct yn *v, double *out);
int scn_get_cv(struct ld *ld, const struct yn *v, double *out);
bool scn_is_bool(const char *s);
int scn_get_size(struct ld *ld, const struct yn *v, int64_t min, int64_t *mib);
int scn_get_time(struct ld *ld, const struct yn *v, enum sign sign, int64_t *us);
int scn_opt_time(struct ld *ld, const struct yn *map, const char *key, enum sign sign,
		    int64_t *us);
int scn_get_time_real(struct ld *ld, const struct yn *v, double *us);
int scn_get_bandwidth(struct ld *ld, const struct yn *v, double *mib_s);
int scn_get_rate(struct ld *ld, const struct yn *v, double *mean_gap_us);
int scn_get_dist(struct ld *ld, const struct yn *v, enum qty q, struct scn_dist *d);
int scn_add_label(struct ld *ld, const struct yn *at, const char *name, uint64_t *bits);
int scn_node_labels(struct ld *ld, const struct yn *v, struct scn_node_group *g);
int scn_job_labels(struct ld *ld, const struct yn *v, const char *what, uint64_t *bits);
int scn_opt_num(struct ld *ld, const struct yn *m, const char *key, double lo, double hi,
		   double *out);
const struct yn *scn_entry_name(const struct yn *list, int i);
uint64_t scn_name_hash(const char *p);
int scn_check_unique(struct ld *ld, int kind, const struct yn *list, int i, const void *names,
			size_t stride, const char *what);
int scn_check_len(struct ld *ld, const struct yn *list, int max, const char *what);
int scn_get_bool(struct ld *ld, const struct yn *v, bool *out);
char *scn_resolve(const char *scenario, const char *p);
/* For a message about relative path `written` of the scenario file
 * `scenario`, resolved to `resolved`: " (from the scenario's folder:
 * RESOLVED)", or " (from the scenario's folder, the current one)" where
 * the two read alike, so that a reader sees where it was looked for;
 * "" for an absolute path.  Returns buf. */
const char *scn_path_note(const char *scenario, const char *written, const char *resolved,
			  char *buf, size_t len);
void scn_one_line(char *err, size_t errlen);

/* scn_cluster.c */
int scn_load_cluster(struct ld *ld, const struct yn *v);

/* scn_traces.c */
int scn_load_trace_nodes(struct ld *ld, const struct yn *m, int *cap);
int scn_arrival_trace(struct ld *ld, const struct yn *a, const struct yn *c,
			 struct scn_job_group *j);
int scn_load_trace_job(struct ld *ld, const struct yn *m, struct scn_job_group *j);

/* scn_workload.c */
int scn_load_workload(struct ld *ld, const struct yn *v);

/* scn_cost.c */
int scn_load_cost_ref(struct ld *ld, const struct yn *v);
int scn_load_builtin_cost(struct ld *ld);

/* scn_policy.c */
int scn_load_policies(struct ld *ld, const struct yn *v);

/* scn_run.c */
int scn_load_options(struct ld *ld, const struct yn *root);

/* scn_check.c */
int scn_check_run_memory(struct scn *s, const long long *tasks, char *err,
			    size_t errlen);
int scn_model_checks(const struct scn *s, char *err, size_t errlen);
int scn_check_time_scale(const struct scn *s, long long *tasks, char *err, size_t errlen);

/* scn_sweep.c */
void scn_free_axes(struct sw_axis *ax, int n);
int scn_load_axes(struct sw_ld *w, const struct yn *k, const struct yn *v);
void scn_set_point(struct sw_ld *w, int p, bool on);
void scn_point_context(struct sw_ld *w, int p, const char *path, char *err, size_t errlen);

#endif
