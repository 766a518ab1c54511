/* trace.c - freeing a trace table, and the names of its skip reasons
 * (trace.h). */
#include "scn_trace.h"
#include "scn_app.h"

#include <stdlib.h>

void scn_trace_free(struct scn_trace *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nusers; i++)
		free(t->users[i]);
	for (int i = 0; i < t->nqueues; i++)
		free(t->queues[i]);
	for (int i = 0; i < t->nkinds; i++)
		free(t->kinds[i]);
	free(t->kinds);
	for (int i = 0; i < t->nconstraints; i++)
		free(t->constraints[i]);
	free(t->users);
	free(t->queues);
	free(t->constraints);
	free(t->jobs);
	free(t->offer_base);
	free(t->orig_count);
	free(t->shapes);
	free(t->format);
	free(t->path);
	free(t);
}

const char *scn_trace_skip_name(enum scn_trace_skip why)
{
	static const char *const names[TRS_NSKIP] = {
		[TRS_FILTER] = "filtered",       [TRS_NO_RUNTIME] = "no-runtime",
		[TRS_NEG_TIME] = "negative-time", [TRS_NO_DEMAND] = "no-demand",
		[TRS_TOO_BIG] = "too-big",        [TRS_GPU_MODEL] = "gpu-model",
		[TRS_STATUS] = "status",         [TRS_NONPOSITIVE] = "nonpositive",
	};
	return (unsigned)why < TRS_NSKIP ? names[why] : "?";
}

void scn_app_free(struct scn_app *a)
{
	if (!a)
		return;
	for (int i = 0; i < a->nstages; i++) {
		free(a->stages[i].name);
		free(a->stages[i].work_us);
		free(a->stages[i].pref);
		free(a->stages[i].parents);
	}
	free(a->stages);
	free(a->execs);
	free(a->name);
	free(a);
}
