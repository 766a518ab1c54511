/* model_gang.h - the tests' example job model (model_gang.c). */
#ifndef HETSIM_TEST_MODEL_GANG_H
#define HETSIM_TEST_MODEL_GANG_H

struct job_model;
extern const struct job_model jm_gang;

#endif
