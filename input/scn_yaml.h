/* scn_yaml.h - a small YAML node tree for the scenario loader (private to
 * scn_yaml.c and scn_load.c; nothing else should include it).
 *
 * libyaml's parser emits events; yn_load() turns them into a tree in which
 * every node keeps the 1-based line and column where it was written, so
 * that the schema walk in scn_load.c can point at any value it rejects.
 * Only the YAML the scenario format needs is accepted: one document,
 * scalar mapping keys, no duplicate keys, no aliases, no merge keys,
 * at most YN_MAX_DEPTH levels and YN_MAX_KEYS keys per mapping.
 * Tags are ignored; a scalar is its text, quoted or not.
 */
#ifndef HETSIM_SCN_YAML_H
#define HETSIM_SCN_YAML_H

#include <stddef.h>

enum yn_kind { YN_SCALAR, YN_SEQ, YN_MAP };

struct yn {
	enum yn_kind kind;
	int line, col;     /* 1-based start of the node */
	char *str;         /* YN_SCALAR: the text, NUL-terminated; owned */
	struct yn **kids;  /* YN_SEQ: items; YN_MAP: key, value, key, value, ... */
	int nkids;         /* YN_MAP: twice the number of pairs */
	int cap;           /* room in kids */
};

/* Limits that keep the tree walk cheap: scenarios nest a few levels and
 * their mappings have a dozen keys (the duplicate-key check is O(n^2)). */
#define YN_MAX_DEPTH 64   /* nested collections */
#define YN_MAX_KEYS 1000  /* keys of one mapping */

/* Parse the file at `path` into a tree.  On success returns the root
 * (owned by the caller, free with yn_free).  On error returns NULL,
 * allocates nothing, and writes "path:line:col: message" into err.  A
 * file that cannot be opened is reported as "path:0:0: cannot open: ...";
 * an empty document as "path:1:1: empty file". */
struct yn *yn_load(const char *path, char *err, size_t errlen);
/* The same from a string; `name` stands for the file in messages. */
struct yn *yn_load_text(const char *name, const char *text, char *err, size_t errlen);
void yn_free(struct yn *n);

/* The value of `key` in mapping `map`, or NULL (also when `map` is not a
 * mapping). O(n) scan: mappings here have a dozen keys. */
const struct yn *yn_get(const struct yn *map, const char *key);

/* "a mapping", "a list" or "a scalar", for messages. */
const char *yn_kind_name(const struct yn *n);

#endif
