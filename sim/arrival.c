/* arrival.c - the scenario's arrival processes (arrival.h). */
#include "arrival.h"

#include <math.h>

#include "rng.h"
#include "scenario.h"
#include "scn_trace.h"

void arrival_times(const struct scn *s, int g, uint64_t seed, int64_t *out)
{
	const struct scn_job_group *jg = &s->jobs[g];
	const struct scn_arrival *a = &jg->arrival;
	double t = (double)a->start_us;
	for (int i = 0; i < jg->count; i++) {
		switch (a->kind) {
		case SCN_ARR_FIXED:
			out[i] = a->start_us;
			break;
		case SCN_ARR_INTERVAL:
			out[i] = a->start_us + (int64_t)i * a->interval_us;
			break;
		case SCN_ARR_POISSON: {
			/* gap i is keyed by (group, i): the same whatever else
			 * the scenario holds */
			struct rng_key k = rng_key(seed, 0, RNG_ARRIVAL, (uint32_t)g, 0, 0);
			t += rng_exponential(k, (uint64_t)i, a->mean_gap_us);
			out[i] = (int64_t)llround(t);
			break;
		}
		case SCN_ARR_LIST:
			out[i] = a->times_us[i];
			break;
		case SCN_ARR_TRACE:
			out[i] = a->start_us + jg->trace->jobs[i].arrival_us;
			break;
		}
	}
}
