/* plugin.c - policies loaded from shared objects (pol_plugin_ prefix;
 * the plugin ABI's hetsim_ functions, include/hetsim/policy.h).
 *
 * A plugin exports one entry point returning its struct hetsim_policy.
 * pol_plugin_load dlopens it, checks the table (ABI, required hooks, a
 * name no built-in has, well-formed switches) and wraps it in a runtime
 * struct policy_ops (the kernel's table, sim/policy.h) whose hooks call
 * the plugin's with a struct hetsim handle.  The handle is what the ABI's
 * accessors and requests read: the run (the kernel's struct sim, the
 * configured policy entry, the plugin), or in a verdict (can_ever_place)
 * the scenario's empty cluster alone.  Every accessor is a few loads over
 * the kernel's real API (sim.h, cluster.h); indices are checked, so a
 * plugin's bug aborts with the simulated time instead of reading past an
 * array.
 *
 * Plugins stay loaded for the process's life (a scenario's policy entry
 * points at their ops); pol_plugins_unload is for tests.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <ctype.h>
#include <errno.h>
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetsim/policy.h"
#include "pol_common.h"
#include "policy.h"
#include "registry.h"
#include "rng.h"
#include "scenario.h"
#include "sim.h"
#include "util.h"

/* The ABI's constants are the kernel's: a plugin's numbers go through
 * unchanged. */
_Static_assert((int)HETSIM_JOB_UNPLACEABLE == (int)JOB_UNPLACEABLE &&
	       (int)HETSIM_JOB_WAITING == (int)JOB_WAITING && (int)HETSIM_JOB_DONE == (int)JOB_DONE,
	       "job status");
_Static_assert((int)HETSIM_WHY_CORES == (int)SIM_WHY_CORES &&
	       (int)HETSIM_WHY_MEMORY == (int)SIM_WHY_MEMORY &&
	       (int)HETSIM_WHY_GPUS == (int)SIM_WHY_GPUS &&
	       (int)HETSIM_WHY_CAPACITY == (int)SIM_WHY_CAPACITY &&
	       (int)HETSIM_WHY_JOB_TYPE == (int)SIM_WHY_JOB_TYPE &&
	       (int)HETSIM_WHY_NEVER_PLACED == (int)SIM_WHY_NEVER_PLACED &&
	       (int)HETSIM_WHY_LABEL0 == (int)SIM_WHY_LABEL0, "why codes");
_Static_assert(HETSIM_LOST_NODE_FAILED == SIM_WHY_NODE_FAILED &&
	       HETSIM_LOST_PREEMPTED == SIM_WHY_PREEMPTED, "lost codes");
_Static_assert(HETSIM_MILLI == CLU_MILLI && HETSIM_GPU_MILLI == CLU_GPU_MILLI &&
	       HETSIM_MAX_GPUS == CLU_MAX_GPUS, "units");
_Static_assert((int)HETSIM_BOOL == (int)POL_BOOL && (int)HETSIM_CHOICE == (int)POL_CHOICE &&
	       (int)HETSIM_INT == (int)POL_INT && (int)HETSIM_NUM == (int)POL_NUM &&
	       (int)HETSIM_TIME == (int)POL_TIME && (int)HETSIM_SIZE == (int)POL_SIZE,
	       "switch types");
_Static_assert(HETSIM_NEEDS_ESTIMATES == POL_NEED_ESTIMATES &&
	       HETSIM_NEEDS_FRACTIONAL_GPUS == POL_NEED_FRACTIONAL_GPUS &&
	       HETSIM_NEEDS_THROUGHPUT == POL_NEED_THROUGHPUT &&
	       HETSIM_NEEDS_PREEMPTION == POL_NEED_PREEMPTION, "needs");

#define MAX_SWITCHES 32       /* as the loader's suggestions read them */
#define MAX_NAME 63
/* The plugins' random stream; its x coordinate is a hash of the policy's
 * name, so two plugins draw apart. */
#define PLUGIN_RNG ((enum rng_stream)(RNG_USER + 0x50))

struct plugin {
	struct policy_ops ops;           /* first: a policy entry's ops point here */
	const struct hetsim_policy *hp;  /* the plugin's table */
	void *dl;                        /* dlopen handle */
	char *file;                      /* the path as first given */
	char *real;                      /* its real path: the same file is one plugin */
	struct pol_param *params;        /* hp's switches as the loader reads them */
	uint32_t salt;                   /* PLUGIN_RNG's x coordinate */
	struct plugin *next;
};

static struct plugin *plugins;

/* The handle a plugin's hooks get. */
struct hetsim {
	struct sim *s;                   /* the run; NULL in a verdict */
	const struct scn *sc;
	const struct clu *c;             /* the run's cluster, or the empty one */
	const struct scn_policy *cfg;    /* the policy entry (its switches) */
	const struct plugin *p;
	void *st;                        /* the plugin's state for the run */
	struct pol_fits fits;            /* hetsim_can_ever_place, per shape */
	bool acting;                     /* in a hook that may make requests */
};

static const struct plugin *plugin_of(const struct policy_ops *ops)
{
	for (const struct plugin *p = plugins; p; p = p->next)
		if (&p->ops == ops)
			return p;
	return NULL;
}

/* A plugin broke a rule: abort, with the simulated time where there is a
 * run. */
static void bad(const struct hetsim *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
static void bad(const struct hetsim *h, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (h && h->s) /* sim_die names the policy, its file and its hook */
		sim_die(h->s, "%s", msg);
	fprintf(stderr, "hetsim: plugin policy %s (%s): %s\n", h ? h->p->hp->name : "?",
		h ? h->p->file : "?", msg);
	abort();
}

/* ---- the runtime ops table ------------------------------------------ */

static const struct pol_fit_rules default_rules = {.labels = false, .cores = true,
						   .gpus = true, .whole = true};

/* can_ever_place of every plugin: the plugin's own over the empty
 * cluster, or the default rule (fifo's).  Builds the empty cluster per
 * call: O(nodes), once per shape (pol_fits) or job group (validate). */
static void plugin_verdict(const struct scn_policy *cfg, const struct scn *sc, int group,
			   const struct sim_shape *sh, struct pol_verdict *v)
{
	const struct plugin *p = cfg ? plugin_of(cfg->ops) : NULL;
	if (!p || !p->hp->can_ever_place) {
		pol_feasible(sc, group, sh, default_rules, v);
		return;
	}
	struct clu c;
	clu_init(&c, sc);
	struct hetsim h = {.sc = sc, .c = &c, .cfg = cfg, .p = p};
	v->detail[0] = '\0';
	int why = p->hp->can_ever_place(&h, (const struct hetsim_shape *)sh, v->detail,
					sizeof v->detail);
	clu_free(&c);
	if (why < 0 || why >= SIM_WHY_TIME_LIMIT || (why >= SIM_WHY_LABEL0 &&
						why - SIM_WHY_LABEL0 >= sc->nlabels))
		bad(&h, "can_ever_place returned %d, not a reason (enum hetsim_why)", why);
	v->detail[sizeof v->detail - 1] = '\0';
	for (char *q = v->detail; *q; q++)
		if ((unsigned char)*q < 0x20)
			*q = ' ';
	if (why == SIM_WHY_NONE)
		v->detail[0] = '\0';
	v->why = why;
}

static void *plugin_init(struct sim *s, const struct scn_policy *cfg)
{
	const struct plugin *p = plugin_of(cfg->ops);
	if (!p)
		sim_die(s, "policy %s is not a loaded plugin's", cfg->kind);
	struct hetsim *h = xcalloc(1, sizeof *h);
	*h = (struct hetsim){.s = s, .sc = sim_scenario(s), .c = sim_cluster(s), .cfg = cfg,
			     .p = p};
	pol_fits_init(&h->fits, s, plugin_verdict, cfg);
	if (p->hp->init)
		h->st = p->hp->init(h);
	return h;
}

static void plugin_arrived(void *st, struct sim *s, int job)
{
	struct hetsim *h = st;
	(void)s;
	if (h->p->hp->job_arrived) {
		bool was = h->acting;
		h->acting = true;
		h->p->hp->job_arrived(h->st, h, job);
		h->acting = was;
	}
}

static void plugin_finished(void *st, struct sim *s, int job)
{
	struct hetsim *h = st;
	(void)s;
	if (h->p->hp->job_finished) {
		bool was = h->acting; /* a job rejected in a hook ends inside it */
		h->acting = true;
		h->p->hp->job_finished(h->st, h, job);
		h->acting = was;
	}
}

static void plugin_schedule(void *st, struct sim *s)
{
	struct hetsim *h = st;
	(void)s;
	bool was = h->acting;
	h->acting = true;
	h->p->hp->schedule(h->st, h);
	h->acting = was;
}

static void plugin_exec_lost(void *st, struct sim *s, int job, const struct sim_exec *x, int why)
{
	struct hetsim *h = st;
	(void)s;
	bool was = h->acting;
	h->acting = true;
	h->p->hp->exec_lost(h->st, h, job, x->role, x->node, why);
	h->acting = was;
}

static void plugin_timer(void *st, struct sim *s, uint32_t tag)
{
	struct hetsim *h = st;
	(void)s;
	bool was = h->acting;
	h->acting = true;
	h->p->hp->timer(h->st, h, tag);
	h->acting = was;
}

static void plugin_fini(void *st)
{
	struct hetsim *h = st;
	if (h->p->hp->fini)
		h->p->hp->fini(h->st);
	pol_fits_free(&h->fits);
	free(h);
}

/* ---- loading -------------------------------------------------------- */

static int err_at(char *err, size_t errlen, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int err_at(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	int n = snprintf(err, errlen, "%s: ", path);
	va_list ap;
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < errlen && err[i]; i++) /* one line */
		if ((unsigned char)err[i] < 0x20)
			err[i] = ' ';
	return -1;
}

static bool is_name(const char *s)
{
	if (!s || !*s || strlen(s) > MAX_NAME || !isalpha((unsigned char)s[0]))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
			return false;
	return true;
}

/* The default of a numeric switch in its base unit, from its text: an
 * integer, a number, a time (us, ms, s, min, h) rounded to the µs, or a
 * size (MiB, GiB, TiB; M, G, T) in whole MiB.  -1 if not one. */
static int parse_default(enum pol_param_type t, const char *def, double *out)
{
	static const char *const tu[] = {"us", "ms", "s", "min", "h"};
	static const double tf[] = {1, 1e3, 1e6, 6e7, 3.6e9};
	static const char *const su[] = {"MiB", "GiB", "TiB", "M", "G", "T"};
	static const double sf[] = {1, 1024, 1048576, 1, 1024, 1048576};
	char *end;
	double x = strtod(def, &end);
	if (end == def || !isfinite(x))
		return -1;
	switch (t) {
	case POL_INT:
		if (*end || x != floor(x))
			return -1;
		break;
	case POL_NUM:
		if (*end)
			return -1;
		break;
	case POL_TIME:
	case POL_SIZE: {
		const char *const *u = t == POL_TIME ? tu : su;
		const double *f = t == POL_TIME ? tf : sf;
		int n = t == POL_TIME ? 5 : 6, k = 0;
		while (k < n && strcmp(end, u[k]) != 0)
			k++;
		if (k == n || x < 0)
			return -1;
		x = round(x * f[k]);
		break;
	}
	default:
		return -1;
	}
	*out = x;
	return 0;
}

/* Check the plugin's switches and copy them into the kernel's form. */
static int load_params(struct plugin *p, const char *path, char *err, size_t errlen)
{
	const struct hetsim_param *hp = p->hp->params;
	int n = 0;
	while (hp && hp[n].key)
		if (++n > MAX_SWITCHES)
			return err_at(err, errlen, path, "policy '%s' has more than %d switches",
				      p->hp->name, MAX_SWITCHES);
	p->params = xcalloc((size_t)n + 1, sizeof *p->params);
	for (int i = 0; i < n; i++) {
		const struct hetsim_param *s = &hp[i];
		struct pol_param *d = &p->params[i];
		const char *k = s->key;
		if (!is_name(k) || strchr(k, '-'))
			return err_at(err, errlen, path, "switch %d of policy '%s': '%s' is not a "
				      "key (letters, digits, '_')", i, p->hp->name, k);
		for (int j = 0; j < i; j++)
			if (strcmp(hp[j].key, k) == 0)
				return err_at(err, errlen, path, "policy '%s' declares switch '%s' "
					      "twice", p->hp->name, k);
		if (strcmp(k, "name") == 0 || strcmp(k, "policy") == 0 || strcmp(k, "plugin") == 0)
			return err_at(err, errlen, path, "switch '%s' of policy '%s': a key of "
				      "every policy entry", k, p->hp->name);
		if ((int)s->type < HETSIM_BOOL || (int)s->type > HETSIM_SIZE)
			return err_at(err, errlen, path, "switch '%s' of policy '%s': unknown type "
				      "%d", k, p->hp->name, (int)s->type);
		if (!s->def)
			return err_at(err, errlen, path, "switch '%s' of policy '%s' has no default",
				      k, p->hp->name);
		*d = (struct pol_param){.key = k, .type = (enum pol_param_type)s->type,
					.choices = s->choices, .def = s->def,
					.help = s->help ? s->help : "", .lo = s->lo, .hi = s->hi,
					.unit = s->unit};
		if (d->type == POL_BOOL && strcmp(s->def, "true") && strcmp(s->def, "false"))
			return err_at(err, errlen, path, "switch '%s' of policy '%s': default '%s' "
				      "is not true or false", k, p->hp->name, s->def);
		if (d->type == POL_CHOICE) {
			bool ok = false;
			for (int c = 0; s->choices && s->choices[c]; c++)
				ok |= strcmp(s->choices[c], s->def) == 0;
			if (!ok)
				return err_at(err, errlen, path, "switch '%s' of policy '%s': default "
					      "'%s' is not one of its choices", k, p->hp->name, s->def);
		}
		if (d->type >= POL_INT) {
			if (!(s->lo <= s->hi))
				return err_at(err, errlen, path, "switch '%s' of policy '%s': range "
					      "[%g, %g] is empty", k, p->hp->name, s->lo, s->hi);
			if (parse_default(d->type, s->def, &d->def_num) < 0 ||
			    !(d->def_num >= s->lo && d->def_num <= s->hi))
				return err_at(err, errlen, path, "switch '%s' of policy '%s': default "
					      "'%s' is not a %s in [%g, %g]", k, p->hp->name, s->def,
					      d->type == POL_INT ? "integer" : d->type == POL_NUM ?
					      "number" : d->type == POL_TIME ? "time" : "size",
					      s->lo, s->hi);
		}
	}
	return 0;
}

static void plugin_free(struct plugin *p)
{
	if (!p)
		return;
	if (p->dl)
		dlclose(p->dl);
	free(p->params);
	free(p->file);
	free(p->real);
	free(p);
}

/* dlerror's text without the path it starts with. */
static const char *dl_why(const char *real)
{
	const char *e = dlerror();
	if (!e)
		return "unknown error";
	size_t n = strlen(real);
	if (strncmp(e, real, n) == 0 && e[n] == ':' && e[n + 1] == ' ')
		e += n + 2;
	return e;
}

/* Check p->hp and build p->ops; -1 with err on a bad table. */
static int load_table(struct plugin *p, const char *path, char *err, size_t errlen)
{
	const struct hetsim_policy *hp = p->hp;
	/* abi and hetsim_version are the first fields in every ABI */
	if (hp->abi != HETSIM_POLICY_ABI)
		return err_at(err, errlen, path, "built for plugin ABI %d (hetsim %.32s); this is "
			      "hetsim %s, plugin ABI %d: rebuild it against this hetsim's "
			      "hetsim/policy.h", hp->abi,
			      hp->hetsim_version ? hp->hetsim_version : "?", HETSIM_VERSION,
			      HETSIM_POLICY_ABI);
	if (!is_name(hp->name))
		return err_at(err, errlen, path, "policy name '%.64s' is not a name (a letter, then "
			      "letters, digits, '-', '_'; at most %d)", hp->name ? hp->name : "",
			      MAX_NAME);
	if (!hp->schedule)
		return err_at(err, errlen, path, "policy '%s': required hook 'schedule' is NULL",
			      hp->name);
	if (pol_builtin(hp->name))
		return err_at(err, errlen, path, "policy name '%s' is a built-in policy's; give "
			      "the plugin another name", hp->name);
	const struct policy_ops *other = pol_find(hp->name);
	if (other)
		return err_at(err, errlen, path, "policy name '%s' is taken by plugin %s",
			      hp->name, pol_plugin_file(other));
	if (hp->flags & ~(unsigned)(HETSIM_USES_LABELS | HETSIM_GPU_BLIND | HETSIM_ROLES_UNPLACED))
		return err_at(err, errlen, path, "policy '%s': unknown flags 0x%x", hp->name,
			      hp->flags);
	if (load_params(p, path, err, errlen) < 0)
		return -1;
	uint32_t h = 2166136261u; /* FNV-1a */
	for (const char *c = hp->name; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	p->salt = h;
	p->ops = (struct policy_ops){
		.name = hp->name,
		.file = p->file,
		.summary = hp->summary ? hp->summary : "",
		.params = p->params,
		.uses_labels = hp->flags & HETSIM_USES_LABELS,
		.gpu_aware = hp->flags & HETSIM_GPU_BLIND ? NULL : pol_gpu_aware_always,
		.places_roles = !(hp->flags & HETSIM_ROLES_UNPLACED),
		.needs = hp->needs,
		.init = plugin_init,
		.job_arrived = plugin_arrived,
		.job_finished = plugin_finished,
		.schedule = plugin_schedule,
		.fini = plugin_fini,
		.exec_lost = hp->exec_lost ? plugin_exec_lost : NULL,
		.timer = hp->timer ? plugin_timer : NULL,
		.can_ever_place = plugin_verdict,
	};
	return 0;
}

const struct policy_ops *pol_plugin_load(const char *path, char *err, size_t errlen)
{
	char *real = realpath(path, NULL);
	const char *why;
	FILE *rf = real ? fopen_regular(real, &why) : NULL;
	if (!rf) { /* (a named pipe would hang dlopen) */
		err_at(err, errlen, path, "cannot open the plugin: %s", real ? why : strerror(errno));
		free(real);
		return NULL;
	}
	fclose(rf);
	for (struct plugin *p = plugins; p; p = p->next)
		if (strcmp(p->real, real) == 0) {
			free(real);
			return &p->ops;
		}
	struct plugin *p = xcalloc(1, sizeof *p);
	p->real = real;
	p->file = xstrdup(path);
	dlerror();
	p->dl = dlopen(real, RTLD_NOW | RTLD_LOCAL);
	if (!p->dl) {
		const char *why = dl_why(real);
		if (strstr(why, "invalid ELF header") || strstr(why, "file too short"))
			err_at(err, errlen, path, "not a shared object (%s)", why);
		else
			err_at(err, errlen, path, "cannot load the plugin (%s)", why);
		plugin_free(p);
		return NULL;
	}
	/* POSIX's way to read a function pointer out of dlsym */
	const struct hetsim_policy *(*entry)(void);
	*(void **)(void *)&entry = dlsym(p->dl, HETSIM_POLICY_ENTRY);
	if (!entry) {
		err_at(err, errlen, path, "no entry point %s (HETSIM_POLICY_EXPORT in "
		       "hetsim/policy.h): not a hetsim policy plugin", HETSIM_POLICY_ENTRY);
		plugin_free(p);
		return NULL;
	}
	p->hp = entry();
	if (!p->hp) {
		err_at(err, errlen, path, "%s returned NULL", HETSIM_POLICY_ENTRY);
		plugin_free(p);
		return NULL;
	}
	if (load_table(p, path, err, errlen) < 0 || pol_register(&p->ops) < 0) {
		plugin_free(p);
		return NULL;
	}
	if (strcmp(p->hp->hetsim_version ? p->hp->hetsim_version : "", HETSIM_VERSION) != 0)
		fprintf(stderr, "%s: note: policy '%s' was built for hetsim %.32s; this is hetsim %s "
			"(the same plugin ABI %d)\n", path, p->hp->name,
			p->hp->hetsim_version ? p->hp->hetsim_version : "?", HETSIM_VERSION,
			HETSIM_POLICY_ABI);
	p->next = plugins;
	plugins = p;
	return &p->ops;
}

const char *pol_plugin_file(const struct policy_ops *ops)
{
	const struct plugin *p = plugin_of(ops);
	return p ? p->file : NULL;
}

const char *pol_plugin_built_for(const struct policy_ops *ops)
{
	const struct plugin *p = plugin_of(ops);
	return p ? (p->hp->hetsim_version ? p->hp->hetsim_version : "?") : NULL;
}

void pol_plugins_unload(void)
{
	pol_unregister_all();
	while (plugins) {
		struct plugin *p = plugins;
		plugins = p->next;
		plugin_free(p);
	}
}

/* ---- the ABI: the run ------------------------------------------------ */

static struct sim *run_of(const struct hetsim *h, const char *what)
{
	if (!h->s)
		bad(h, "%s called from can_ever_place, which has no run", what);
	return h->s;
}

static const struct sim_job *job_of(const struct hetsim *h, int job, const char *what)
{
	struct sim *s = run_of(h, what);
	if (job < 0 || job >= sim_njobs(s))
		bad(h, "%s of job %d: no such job (%d jobs)", what, job, sim_njobs(s));
	return sim_job(s, job);
}

static const struct clu_node *node_of(const struct hetsim *h, int node, const char *what)
{
	if (node < 0 || node >= h->c->n)
		bad(h, "%s of node %d: no such node (%d nodes)", what, node, h->c->n);
	return &h->c->nodes[node];
}

int64_t hetsim_now_us(const struct hetsim *h)
{
	return h->s ? sim_now(h->s) : 0;
}

uint64_t hetsim_seed(const struct hetsim *h)
{
	return sim_seed(run_of(h, "hetsim_seed"));
}

uint64_t hetsim_rand_u64(const struct hetsim *h, uint32_t a, uint32_t b, uint64_t draw)
{
	struct rng_key k = rng_key(sim_seed(run_of(h, "hetsim_rand_u64")), 0, PLUGIN_RNG,
				   h->p->salt, a, b);
	return rng_u64(k, draw);
}

double hetsim_rand01(const struct hetsim *h, uint32_t a, uint32_t b, uint64_t draw)
{
	struct rng_key k = rng_key(sim_seed(run_of(h, "hetsim_rand01")), 0, PLUGIN_RNG,
				   h->p->salt, a, b);
	return rng_u01(k, draw);
}

const char *hetsim_switch(const struct hetsim *h, const char *key)
{
	return pol_param_spec(&h->p->ops, key) ? pol_param_value(&h->p->ops, h->cfg, key) : NULL;
}

double hetsim_switch_num(const struct hetsim *h, const char *key)
{
	const struct pol_param *sp = pol_param_spec(&h->p->ops, key);
	return sp && sp->type >= POL_INT ? pol_param_num(&h->p->ops, h->cfg, key) : NAN;
}

bool hetsim_switch_bool(const struct hetsim *h, const char *key)
{
	const char *v = hetsim_switch(h, key);
	return v && strcmp(v, "true") == 0;
}

/* ---- jobs ------------------------------------------------------------ */

int hetsim_njobs(const struct hetsim *h)
{
	return h->s ? sim_njobs(h->s) : 0;
}

int64_t hetsim_job_arrival_us(const struct hetsim *h, int job)
{
	return job_of(h, job, "hetsim_job_arrival_us")->arrival_us;
}

int hetsim_job_status(const struct hetsim *h, int job)
{
	return job_of(h, job, "hetsim_job_status")->status;
}

int hetsim_job_group(const struct hetsim *h, int job)
{
	return job_of(h, job, "hetsim_job_group")->group;
}

const char *hetsim_group_name(const struct hetsim *h, int group)
{
	if (group < 0 || group >= h->sc->njobgroups)
		bad(h, "hetsim_group_name of group %d: no such job group (%d groups)", group,
		    h->sc->njobgroups);
	return h->sc->jobs[group].name;
}

const struct hetsim_shape *hetsim_job_shape(const struct hetsim *h, int job)
{
	return (const struct hetsim_shape *)job_of(h, job, "hetsim_job_shape")->shape;
}

static const struct sim_job *job_role(const struct hetsim *h, int job, int role,
				      const char *what)
{
	const struct sim_job *j = job_of(h, job, what);
	if (role < 0 || role >= j->shape->nroles)
		bad(h, "%s of job %d: no role %d (it has %d)", what, job, role, j->shape->nroles);
	return j;
}

int hetsim_job_granted(const struct hetsim *h, int job, int role)
{
	return job_role(h, job, role, "hetsim_job_granted")->live->granted[role];
}

int hetsim_job_wanted(const struct hetsim *h, int job, int role)
{
	const struct sim_job *j = job_role(h, job, role, "hetsim_job_wanted");
	int left = j->shape->role[role].count - j->live->granted[role];
	return left > 0 ? left : 0;
}

void hetsim_job_estimate(const struct hetsim *h, int job, int64_t *requested_us,
			 int64_t *actual_us)
{
	const struct sim_job *j = job_of(h, job, "hetsim_job_estimate");
	sim_job_estimate(h->s, j, requested_us, actual_us);
}

double hetsim_job_throughput(const struct hetsim *h, int job, const char *gpu_model)
{
	const struct sim_job *j = job_of(h, job, "hetsim_job_throughput");
	return sim_job_throughput(h->s, j, gpu_model);
}

int hetsim_can_ever_place(const struct hetsim *h, int job)
{
	const struct sim_job *j = job_of(h, job, "hetsim_can_ever_place");
	/* the cache is the handle's own, not the run's state */
	return pol_fits_arrived((struct pol_fits *)&h->fits, h->s, j);
}

/* ---- a shape's roles ------------------------------------------------- */

static const struct sim_role *role_of(const struct hetsim_shape *hs, int r)
{
	const struct sim_shape *sh = (const struct sim_shape *)hs;
	if (r < 0 || r >= sh->nroles) {
		fprintf(stderr, "hetsim: a plugin policy asked for role %d of a shape of %d roles\n",
			r, sh->nroles);
		abort();
	}
	return &sh->role[r];
}

int hetsim_shape_id(const struct hetsim_shape *sh)
{
	return ((const struct sim_shape *)sh)->id;
}

int hetsim_nroles(const struct hetsim_shape *sh)
{
	return ((const struct sim_shape *)sh)->nroles;
}

int hetsim_shape_gang_role(const struct hetsim_shape *sh)
{
	return ((const struct sim_shape *)sh)->gang_role;
}

bool hetsim_shape_rigid(const struct hetsim_shape *sh)
{
	return ((const struct sim_shape *)sh)->rigid;
}

bool hetsim_shape_one_profile(const struct hetsim_shape *sh)
{
	return ((const struct sim_shape *)sh)->one_profile;
}

int hetsim_shape_masters(const struct hetsim_shape *sh)
{
	return ((const struct sim_shape *)sh)->nmasters;
}

static const struct sim_master *master_of(const struct hetsim_shape *hs, int k)
{
	const struct sim_shape *sh = (const struct sim_shape *)hs;
	if (k < 0 || k >= sh->nmasters) {
		fprintf(stderr, "hetsim: a plugin policy asked for master %d of a shape of %d "
			"masters\n", k, sh->nmasters);
		abort();
	}
	return &sh->master[k];
}

int64_t hetsim_master_mem_mib(const struct hetsim_shape *sh, int k)
{
	return master_of(sh, k)->mem_mib;
}

bool hetsim_master_mem_as_is(const struct hetsim_shape *sh, int k)
{
	return master_of(sh, k)->mem_as_is;
}

int hetsim_role_asker(const struct hetsim_shape *sh, int r) { return role_of(sh, r)->asker; }
bool hetsim_role_mem_as_is(const struct hetsim_shape *sh, int r)
{
	return role_of(sh, r)->mem_as_is;
}

const char *hetsim_role_name(const struct hetsim_shape *sh, int r)
{
	if (r != SIM_ROLE_AM)
		role_of(sh, r); /* in range */
	return sim_role_name((const struct sim_shape *)sh, r);
}

const char *hetsim_role_what(const struct hetsim_shape *sh, int r)
{
	if (r != SIM_ROLE_AM)
		role_of(sh, r);
	return sim_role_what((const struct sim_shape *)sh, r);
}

const char *hetsim_shape_app_name(const struct hetsim_shape *sh)
{
	return sim_app_name((const struct sim_shape *)sh);
}

int hetsim_role_count(const struct hetsim_shape *sh, int r) { return role_of(sh, r)->count; }
int hetsim_role_milli_cores(const struct hetsim_shape *sh, int r) { return role_of(sh, r)->cores; }
int64_t hetsim_role_mem_mib(const struct hetsim_shape *sh, int r) { return role_of(sh, r)->mem_mib; }
int hetsim_role_gpus(const struct hetsim_shape *sh, int r) { return role_of(sh, r)->gpus; }
uint64_t hetsim_role_labels(const struct hetsim_shape *sh, int r) { return role_of(sh, r)->require; }

int hetsim_role_gpu_milli(const struct hetsim_shape *sh, int r)
{
	const struct sim_role *ro = role_of(sh, r);
	return ro->gpus ? 0 : ro->gpu_milli;
}

/* ---- the cluster ----------------------------------------------------- */

int hetsim_nnodes(const struct hetsim *h)
{
	return h->c->n;
}

const char *hetsim_node_name(const struct hetsim *h, int node)
{
	return node_of(h, node, "hetsim_node_name")->name;
}

int64_t hetsim_node_milli_cores(const struct hetsim *h, int node)
{
	return node_of(h, node, "hetsim_node_milli_cores")->cores;
}

int64_t hetsim_node_mem_mib(const struct hetsim *h, int node)
{
	return node_of(h, node, "hetsim_node_mem_mib")->mem_mib;
}

int hetsim_node_gpus(const struct hetsim *h, int node)
{
	return node_of(h, node, "hetsim_node_gpus")->gpus;
}

const char *hetsim_node_gpu_model(const struct hetsim *h, int node)
{
	const struct clu_node *n = node_of(h, node, "hetsim_node_gpu_model");
	return n->gpus ? pol_gpu_model(n) : NULL;
}

int64_t hetsim_node_free_milli_cores(const struct hetsim *h, int node)
{
	return node_of(h, node, "hetsim_node_free_milli_cores")->cores_free;
}

int64_t hetsim_node_free_mem_mib(const struct hetsim *h, int node)
{
	return node_of(h, node, "hetsim_node_free_mem_mib")->mem_free;
}

int hetsim_node_free_gpus(const struct hetsim *h, int node)
{
	return node_of(h, node, "hetsim_node_free_gpus")->gpus_free;
}

static const struct clu_node *gpu_of(const struct hetsim *h, int node, int g, const char *what)
{
	const struct clu_node *n = node_of(h, node, what);
	if (n->pool)
		bad(h, "%s of GPU %d of node %s: its GPUs are a pool, not known by index", what, g,
		    n->name);
	if (g < 0 || g >= n->gpus)
		bad(h, "%s of GPU %d of node %s: no such GPU (it has %d)", what, g, n->name, n->gpus);
	return n;
}

int hetsim_node_gpu_free_milli(const struct hetsim *h, int node, int g)
{
	return clu_gpu_free(gpu_of(h, node, g, "hetsim_node_gpu_free_milli"), g);
}

bool hetsim_node_gpu_idle(const struct hetsim *h, int node, int g)
{
	return gpu_of(h, node, g, "hetsim_node_gpu_idle")->gpu_idle >> g & 1;
}

uint64_t hetsim_node_labels(const struct hetsim *h, int node)
{
	return node_of(h, node, "hetsim_node_labels")->labels;
}

int hetsim_nlabels(const struct hetsim *h)
{
	return h->sc->nlabels;
}

const char *hetsim_label_name(const struct hetsim *h, int k)
{
	if (k < 0 || k >= h->sc->nlabels)
		bad(h, "hetsim_label_name of label %d: no such label (%d labels)", k, h->sc->nlabels);
	return h->sc->label_names[k];
}

/* ---- requests -------------------------------------------------------- */

/* The run, when a request may be made now. */
static struct sim *acting(struct hetsim *h, const char *what)
{
	struct sim *s = run_of(h, what);
	if (!h->acting)
		bad(h, "%s called from init or fini, which make no request", what);
	return s;
}

static const struct clu_node *launch_check(struct hetsim *h, int job, int role, int node,
					   int milli_cores, int64_t mem_mib, const char *what)
{
	const struct sim_job *j = job_role(h, job, role, what);
	if (j->status != JOB_WAITING && j->status != JOB_RUNNING)
		bad(h, "%s for job %d, which is %s", what, job, sim_status_name(j->status));
	if (milli_cores < 0 || mem_mib < 0)
		bad(h, "%s for job %d: negative cores or memory (%d milli-cores, %lld MiB)", what,
		    job, milli_cores, (long long)mem_mib);
	return node_of(h, node, what);
}

int hetsim_launch(struct hetsim *h, int job, int role, int node, int milli_cores,
		  int64_t mem_mib, int gpus)
{
	struct sim *s = acting(h, "hetsim_launch");
	const struct clu_node *n = launch_check(h, job, role, node, milli_cores, mem_mib,
						"hetsim_launch");
	if (gpus < 0)
		bad(h, "hetsim_launch for job %d: %d GPUs", job, gpus);
	if (!clu_fits(n, milli_cores, mem_mib, gpus, false))
		return -1;
	struct sim_gpu_ask g = {.count = gpus, .index = -1};
	return sim_launch_executor_on(s, job, role, node, milli_cores, mem_mib, &g);
}

int hetsim_launch_share(struct hetsim *h, int job, int role, int node, int milli_cores,
			int64_t mem_mib, int gpu, int milli)
{
	struct sim *s = acting(h, "hetsim_launch_share");
	const struct clu_node *n = launch_check(h, job, role, node, milli_cores, mem_mib,
						"hetsim_launch_share");
	gpu_of(h, node, gpu, "hetsim_launch_share");
	if (milli < 1 || milli >= CLU_GPU_MILLI)
		bad(h, "hetsim_launch_share for job %d: a share of %d milli-GPUs (1 .. %d)", job,
		    milli, CLU_GPU_MILLI - 1);
	if (clu_gpu_free(n, gpu) < milli || mem_mib > n->mem_free)
		return -1;
	struct sim_gpu_ask g = {.milli = milli, .index = gpu};
	return sim_launch_executor_on(s, job, role, node, milli_cores, mem_mib, &g);
}

void hetsim_reject(struct hetsim *h, int job, int why)
{
	struct sim *s = acting(h, "hetsim_reject");
	job_of(h, job, "hetsim_reject");
	if (why <= SIM_WHY_NONE || why >= SIM_WHY_TIME_LIMIT)
		bad(h, "hetsim_reject of job %d with reason %d, not a reason", job, why);
	sim_reject_job(s, job, why);
}

void hetsim_timer(struct hetsim *h, int64_t delay_us, uint32_t tag)
{
	struct sim *s = acting(h, "hetsim_timer");
	if (delay_us < 0)
		bad(h, "hetsim_timer of %lld µs: negative", (long long)delay_us);
	sim_policy_timer(s, (double)delay_us, tag);
}

const char *hetsim_version(void)
{
	return HETSIM_VERSION;
}

int hetsim_abi(void)
{
	return HETSIM_POLICY_ABI;
}
