/* models.c - the registry of job models (models.h). */
#include "models.h"

#include <string.h>

#include "util.h"

const struct job_model *const jm_registry[JM_MODELS] = {
	[JM_WORDCOUNT] = &jm_wordcount,
	[JM_MNIST] = &jm_mnist_spark,
	[JM_SYNTHETIC] = &jm_synthetic,
	[JM_ANGEL] = &jm_angel,
	[JM_TRACE] = &jm_trace,
	[JM_SPARK_APP] = &jm_spark_app,
};

const struct job_model *jm_find(const char *name, int *id)
{
	for (int t = 0; t < JM_MODELS; t++)
		if (strcmp(jm_registry[t]->name, name) == 0) {
			if (id)
				*id = t;
			return jm_registry[t];
		}
	return NULL;
}

const char *jm_name(int t)
{
	return t >= 0 && t < JM_MODELS ? jm_registry[t]->name : "?";
}

const char *jm_role_name(int t, int role)
{
	if (role < 0)
		return "am";
	if (t < 0 || t >= JM_MODELS || role >= ARRAY_LEN(jm_registry[t]->roles) ||
	    !jm_registry[t]->roles[role])
		return "?";
	return jm_registry[t]->roles[role];
}

const struct scn_pos *jm_pos(const struct job_model *m, const struct jm_given *given,
			     const char *key)
{
	for (int k = 0; k < m->nkeys; k++)
		if (strcmp(m->keys[k].key, key) == 0 && given->at[k].line)
			return &given->at[k];
	return &given->group;
}
