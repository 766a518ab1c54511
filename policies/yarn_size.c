/* yarn_size.c - what a YARN container of a Spark application is: its
 * memory with Spark's overhead, normalised to the minimum allocation, its
 * vcores, the AMs' (yarn_int.h).  Calls nothing of yarn's other files. */
#include "yarn_int.h"

/* Memory of the container for `mem` MiB of JVM heap (with Spark's
 * overhead when `overhead`), normalised up to the minimum allocation. */
int64_t yarn_container_mib(const struct yconf *k, int64_t mem, bool overhead)
{
	int64_t c = mem;
	if (overhead)
		c += mem / 10 > 384 ? (mem + 9) / 10 : 384;
	return (c + k->min_mib - 1) / k->min_mib * k->min_mib;
}

/* Executor container of role r: an application of one resource profile
 * (sim_shape.one_profile: TFoS's ps and workers) has every executor of
 * the larger role's size (one spark.executor.memory per application).
 * Its vcores are whole (a Resource's virtualCores is an int, normalised
 * up to minimum-allocation-vcores, 1): a request in milli-cores (a
 * trace's) is rounded up, in the kernel's milli-cores. */
void yarn_exec_shape_of(const struct yconf *k, const struct sim_shape *sh, int r, int *cores,
			  int64_t *mib, int *gpus)
{
	/* yarn.io/gpu is a countable resource: a share asks one GPU */
	int c = sh->role[r].cores, g = pol_whole_gpus(&sh->role[r]);
	int64_t m = sh->role[r].mem_mib;
	if (sh->one_profile)
		for (int q = 0; q < sh->nroles; q++) {
			if (sh->role[q].cores > c)
				c = sh->role[q].cores;
			if (sh->role[q].mem_mib > m)
				m = sh->role[q].mem_mib;
			if (pol_whole_gpus(&sh->role[q]) > g)
				g = pol_whole_gpus(&sh->role[q]); /* one resource profile: the PS's too */
		}
	*cores = c ? (int)(((int64_t)c + CLU_MILLI - 1) / CLU_MILLI * CLU_MILLI) : CLU_MILLI;
	*gpus = k->drc ? g : 0;
	/* a container that holds its memory as is (Angel's PS) gets no
	 * Spark overhead */
	*mib = yarn_container_mib(k, m, !sh->role[r].mem_as_is);
}

void yarn_exec_shape(const struct yconf *k, const struct sim_job *j, int r, int *cores,
		       int64_t *mib, int *gpus)
{
	yarn_exec_shape_of(k, j->shape, r, cores, mib, gpus);
}

/* The AM containers a job of shape sh needs: its masters, or one. */
int yarn_masters_of(const struct sim_shape *sh)
{
	return sh->nmasters > 0 ? sh->nmasters : 1;
}

/* The container of its AM i: the master's memory (plus Spark's overhead
 * unless it holds it as is), or Spark's AM for a master of no size of
 * its own. */
int64_t yarn_master_mib(const struct yconf *k, const struct sim_shape *sh, int i)
{
	if (sh->nmasters <= 0 || sh->master[i].mem_mib <= 0)
		return yarn_container_mib(k, SPARK_AM_MIB, true);
	return yarn_container_mib(k, sh->master[i].mem_mib, !sh->master[i].mem_as_is);
}

/* Its AM containers' memory: total, and the largest. */
int64_t yarn_am_mib_of(const struct yconf *k, const struct sim_shape *sh, int64_t *largest)
{
	int64_t sum = 0, big = 0;
	for (int i = 0; i < yarn_masters_of(sh); i++) {
		int64_t m = yarn_master_mib(k, sh, i);
		sum += m;
		if (m > big)
			big = m;
	}
	if (largest)
		*largest = big;
	return sum;
}

/* Whether role r's containers are asked by a master of the job's own
 * (Angel's, for its parameter servers) rather than by the application's
 * executor allocator. */
bool yarn_by_master(const struct sim_shape *sh, int r)
{
	return sh->role[r].asker > 0;
}
