/* arrival.h - when the jobs of a job group arrive (the scenario's
 * arrival processes). */
#ifndef HETSIM_ARRIVAL_H
#define HETSIM_ARRIVAL_H

#include <stdint.h>

struct scn;

/* Arrival times of the jobs of group `g`, in µs, into out[0..count-1]
 * (non-decreasing).  Poisson gaps come from keyed streams (rng.h): the
 * same whatever else the scenario holds. */
void arrival_times(const struct scn *s, int g, uint64_t seed, int64_t *out);

#endif
