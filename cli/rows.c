/* rows.c - the runs.csv row of one finished run (see rows.h). */
#include "rows.h"

#include <inttypes.h>

#include "metrics.h"
#include "scenario.h"

void rows_run(FILE *f, const struct scn *sc, int rep, const struct met_run *m)
{
	fprintf(f, "%d,%" PRIu64 ",%d,%d,%d,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,"
		  "%.6f,%.6f,%.6f,%.6f,%" PRIu64 ",%" PRIu64,
		  rep, sc->seed, m->jobs, m->counted, m->done, m->failed, m->timed_out,
		  m->unplaceable, m->makespan_s, m->jct_mean_s, m->jct_p50_s, m->jct_p95_s,
		  m->jct_p99_s, m->wait_mean_s, m->cpu_util, m->gpu_util, m->cpu_alloc,
		  m->gpu_alloc, m->events, m->decisions);
	for (int t = 0; t < SCN_JOB_TYPES; t++) /* empty when the run has none */
		if (m->done_type[t])
			fprintf(f, ",%.6f", m->jct_type_s[t]);
		else
			fputs(",", f);
	fputc('\n', f);
}
