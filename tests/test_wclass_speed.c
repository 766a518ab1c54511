/* test_wclass_speed.c - the walk through classes of waiting jobs
 * (policies/pol_wclass.h, pol_wwalk_*) that drf and sjf decide by: the
 * jobs it offers, in order, against a scan of every job, and the work it
 * does (classes looked at), which a walk that passed over every class
 * per step (issue 34's review: 89 s for sjf on 4 000 pods each of its
 * own demand) would exceed.  The policies as a whole are compared with
 * the plain scan by tests/scenarios/hand/index-wclass-*.yaml
 * (test_policies.c, index_same_as_scan). */
#include "test.h"

#include <stdint.h>
#include <stdlib.h>

#include "cluster.h"
#include "pol_oset.h"
#include "pol_wclass.h"
#include "rng.h"
#include "sim.h"

/* n jobs of one or two roles, keyed by (key[i], 0, i), in classes. */
struct fake {
	int n;
	struct sim_job *j;
	struct sim_shape *sh;
	struct sim_live *live;
	struct pol_oset pool;
	struct pol_wclasses w;
	int *cls;        /* by job: its class, -1 once launched */
	struct clu c;
};

static void fake_init(struct fake *f, int n)
{
	f->n = n;
	f->j = calloc((size_t)n, sizeof *f->j);
	f->sh = calloc((size_t)n, sizeof *f->sh);
	f->live = calloc((size_t)n, sizeof *f->live);
	f->cls = malloc((size_t)n * sizeof *f->cls);
	pol_oset_init(&f->pool, n);
	pol_wclasses_init(&f->w, &f->pool);
	f->c = (struct clu){.free_cores = INT64_MAX / 4, .free_mem_mib = INT64_MAX / 4, .changes = 1};
}

/* Job i: role 0 of `mem` MiB and 1 core, and (mem1 > 0) role 1 of mem1
 * MiB and 2 cores, one executor each, key k. */
static void fake_job(struct fake *f, int i, int64_t mem, int64_t mem1, int64_t k)
{
	f->sh[i].nroles = mem1 > 0 ? 2 : 1;
	f->sh[i].role[0] = (struct sim_role){.mem_mib = mem, .count = 1, .cores = CLU_MILLI};
	f->sh[i].role[1] = (struct sim_role){.mem_mib = mem1, .count = 1, .cores = 2 * CLU_MILLI};
	f->sh[i].gang_role = -1;
	f->j[i] = (struct sim_job){.shape = &f->sh[i], .live = &f->live[i], .id = i};
	int c = pol_wclass_of(&f->w, &f->j[i], false);
	pol_oset_insert(&f->pool, &f->w.c[c].root, i, (struct pol_okey){k, 0, i});
	pol_wclass_count(&f->w, c, +1);
	f->cls[i] = c;
}

static void fake_free(struct fake *f)
{
	pol_wclasses_free(&f->w);
	pol_oset_free(&f->pool);
	free(f->j), free(f->sh), free(f->live), free(f->cls);
}

/* One walk: fits(i) says whether job i launches (it then leaves its
 * class).  The jobs offered go to out[] in order; returns their count. */
static int walk(struct fake *f, bool (*fits)(int), int *out)
{
	struct pol_okey cur = {INT64_MIN, INT64_MIN, INT64_MIN};
	int job, k, m = 0;
	pol_wwalk_begin(&f->w, &f->c);
	while ((job = pol_wwalk_next(&f->w, &f->c, &cur, &k)) >= 0) {
		CU_ASSERT_EQUAL_FATAL(k, f->cls[job]);
		out[m++] = job;
		cur = f->pool.key[job];
		cur.c++;
		if (fits(job)) {
			pol_oset_remove(&f->pool, &f->w.c[k].root, job);
			pol_wclass_count(&f->w, k, -1);
			f->cls[job] = -1;
			f->c.changes++; /* a launch takes from the cluster */
			pol_wwalk_launched(&f->w, &cur, k, -1);
		} else {
			pol_wwalk_failed(&f->w, &f->c, &cur, k);
		}
	}
	pol_wwalk_end(&f->w, &f->c);
	return m;
}

static bool never(int i)
{
	(void)i;
	return false;
}

static bool every_third(int i)
{
	return i % 3 == 0;
}

/* 2 000 jobs, each its own demand, none fits: the walk offers each once,
 * in key order, and looks at each class once (where a pass over every
 * class per step looks n^2 / 2 times); the next walk at the same change
 * count offers none; a cluster whose free cores fit no class ends the
 * walk before it looks at any. */
static void distinct_one_visit_each(void)
{
	enum { N = 2000 };
	struct fake f;
	fake_init(&f, N);
	for (int i = 0; i < N; i++)
		fake_job(&f, i, 1000 + i, 0, (int64_t)((i * 7919) % N)); /* keys a permutation */
	int *out = malloc(N * sizeof *out);
	uint64_t v0 = f.w.visits;
	CU_ASSERT_EQUAL(walk(&f, never, out), N);
	CU_ASSERT_EQUAL(f.w.visits - v0, N);
	for (int i = 1; i < N; i++)
		CU_ASSERT_FATAL(pol_okey_cmp(&f.pool.key[out[i - 1]], &f.pool.key[out[i]]) < 0);
	v0 = f.w.visits;
	CU_ASSERT_EQUAL(walk(&f, never, out), 0); /* failed at this change count */
	CU_ASSERT_EQUAL(f.w.visits - v0, N); /* each passed over once */
	f.c.changes++;
	f.c.free_cores = CLU_MILLI - 1; /* below every class's one core */
	v0 = f.w.visits;
	CU_ASSERT_EQUAL(walk(&f, never, out), 0);
	CU_ASSERT_EQUAL(f.w.visits - v0, 0);
	free(out);
	fake_free(&f);
}

/* Jobs of 40 demands of one role in random key order, every third
 * launching: the walk offers what a scan of every job in key order
 * tries (a class passed over once a job of it failed: one role, the
 * free amounts only shrink), and looks at no more classes than it
 * offers jobs, at most classes + launches. */
static void shared_same_as_scan(void)
{
	enum { N = 3000, S = 40 };
	struct fake f;
	fake_init(&f, N);
	struct rng_key rk = rng_key(11, 0, RNG_USER, 0x77636c, 0, 0);
	int64_t *key = malloc(N * sizeof *key);
	int *shape = malloc(N * sizeof *shape);
	for (int i = 0; i < N; i++) {
		key[i] = (int64_t)(rng_u64(rk, 2 * (uint64_t)i) % 100000);
		shape[i] = (int)(rng_u64(rk, 2 * (uint64_t)i + 1) % S);
		fake_job(&f, i, 1000 + shape[i], 0, key[i]);
	}
	/* the scan: jobs by (key, 0, i), a class's later jobs passed over once
	 * one failed */
	int *order = malloc(N * sizeof *order), *want = malloc(N * sizeof *want);
	for (int i = 0; i < N; i++)
		order[i] = i;
	for (int i = 1; i < N; i++) /* insertion sort: small */
		for (int j = i; j > 0 && (key[order[j - 1]] > key[order[j]] ||
					  (key[order[j - 1]] == key[order[j]] && order[j - 1] > order[j])); j--) {
			int t = order[j];
			order[j] = order[j - 1], order[j - 1] = t;
		}
	bool failed[S] = {false};
	int nw = 0, launches = 0;
	for (int i = 0; i < N; i++) {
		int job = order[i];
		if (failed[shape[job]])
			continue;
		want[nw++] = job;
		if (every_third(job))
			launches++;
		else
			failed[shape[job]] = true;
	}
	int *out = malloc(N * sizeof *out);
	uint64_t v0 = f.w.visits;
	int m = walk(&f, every_third, out);
	CU_ASSERT_EQUAL_FATAL(m, nw);
	for (int i = 0; i < m; i++)
		CU_ASSERT_EQUAL_FATAL(out[i], want[i]);
	CU_ASSERT_EQUAL(f.w.visits - v0, (uint64_t)m);
	CU_ASSERT(m <= S + launches);
	free(key), free(shape), free(order), free(want), free(out);
	fake_free(&f);
}

static int fit_list[8];
static int nfit;

static bool listed(int i)
{
	for (int k = 0; k < nfit; k++)
		if (fit_list[k] == i)
			return true;
	return false;
}

/* A class of two roles (jobs 0, 2, 3 by key) is retried after a launch:
 * its first job fails, job 1 (one role) launches, its next job is
 * offered; with no launch after its failure, its later jobs are not. */
static void two_roles_retried(void)
{
	struct fake f;
	int out[8];
	fake_init(&f, 4);
	fake_job(&f, 0, 1000, 2000, 10);
	fake_job(&f, 1, 500, 0, 20);
	fake_job(&f, 2, 1000, 2000, 30);
	fake_job(&f, 3, 1000, 2000, 40);
	nfit = 2, fit_list[0] = 1, fit_list[1] = 2;
	CU_ASSERT_EQUAL_FATAL(walk(&f, listed, out), 4);
	CU_ASSERT(out[0] == 0 && out[1] == 1 && out[2] == 2 && out[3] == 3);
	fake_free(&f);

	fake_init(&f, 4);
	fake_job(&f, 0, 1000, 2000, 10);
	fake_job(&f, 1, 500, 0, 20);
	fake_job(&f, 2, 1000, 2000, 30);
	fake_job(&f, 3, 1000, 2000, 40);
	nfit = 0;
	CU_ASSERT_EQUAL_FATAL(walk(&f, listed, out), 2);
	CU_ASSERT(out[0] == 0 && out[1] == 1);
	fake_free(&f);
}

int test_suite_wclass_speed(void)
{
	TEST_SUITE("wclass_speed",
		   {"pol_wwalk: distinct demands, each class looked at once", distinct_one_visit_each},
		   {"pol_wwalk: shared demands, the scan's order, visits <= classes + launches",
		    shared_same_as_scan},
		   {"pol_wwalk: a class of two roles retried after a launch", two_roles_retried});
	return 0;
}
