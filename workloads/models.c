/* models.c - the registry of job models (models.h). */
#include "models.h"

#include <string.h>

#include "sim.h"
#include "util.h"

const struct job_model *const jm_registry[JM_MODELS] = {
	[JM_WORDCOUNT] = &jm_wordcount,
	[JM_MNIST] = &jm_mnist_spark,
	[JM_SYNTHETIC] = &jm_synthetic,
	[JM_ANGEL] = &jm_angel,
	[JM_TRACE] = &jm_trace,
	[JM_SPARK_APP] = &jm_spark_app,
};

/* Models added at run time (jm_add), after the built-in ones. */
static const struct job_model *added[SCN_MAX_MODELS - JM_MODELS];
static int nadded;

int jm_count(void)
{
	return JM_MODELS + nadded;
}

const struct job_model *jm_at(int t)
{
	return t >= 0 && t < JM_MODELS ? jm_registry[t]
	       : t >= JM_MODELS && t < jm_count() ? added[t - JM_MODELS] : NULL;
}

int jm_add(const struct job_model *m)
{
	if (jm_count() >= SCN_MAX_MODELS || jm_find(m->name, NULL))
		return -1;
	added[nadded++] = m;
	return jm_count() - 1;
}

const struct job_model *jm_find(const char *name, int *id)
{
	for (int t = 0; t < jm_count(); t++)
		if (strcmp(jm_at(t)->name, name) == 0) {
			if (id)
				*id = t;
			return jm_at(t);
		}
	return NULL;
}

const char *jm_name(int t)
{
	return jm_at(t) ? jm_at(t)->name : "?";
}

const char *jm_role_name(int t, int role)
{
	if (role < 0)
		return "am";
	const struct job_model *m = jm_at(t);
	if (!m || role >= ARRAY_LEN(m->ops->roles) || !m->ops->roles[role])
		return "?";
	return m->ops->roles[role];
}
