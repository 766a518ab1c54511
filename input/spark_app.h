/* spark_app.h - a Spark application from its event log (spapp_ prefix):
 * the DAG, run times, executors and driver timing that `hetsim
 * replay-log` replays (scenario/scn_app.h; docs/traces.md, "Replaying a
 * Spark event log"), and the log's own cluster.
 *
 * Module: input/ (above scenario/; reads input/sparklog.h).
 */
#ifndef HETSIM_SPARK_APP_H
#define HETSIM_SPARK_APP_H

#include <stddef.h>
#include <stdint.h>

struct slog;
struct scn;
struct scn_app;

/* What the nodes of the cluster the application runs on are, for its
 * tasks' preferred nodes. */
enum spapp_nodes {
	SPAPP_NO_PREFS,   /* another cluster's: no task prefers a node */
	SPAPP_HOSTS,      /* the log's hosts (spapp_cluster) */
	SPAPP_EXECS,      /* one node per logged executor, of its size
			     (spapp_cluster), each executor on its own */
};

/* The application of log l, times from t0 (epoch ms: its
 * ApplicationStart, else its first executor's), its tasks' preferred
 * nodes for a cluster of `nodes`.  NULL with one line in err. */
struct scn_app *spapp_of(const struct slog *l, int64_t t0, enum spapp_nodes nodes, char *err,
			 size_t errlen);

/* Its start: ApplicationStart's Timestamp, else the first executor's
 * ExecutorAdded; -1 if neither. */
int64_t spapp_t0(const struct slog *l);

/* The log's own cluster into s (s->groups): a node per host holding, of
 * cores, GPUs and memory, the most its executors held there at once. */
void spapp_cluster(const struct slog *l, const struct scn_app *a, struct scn *s);

#endif
