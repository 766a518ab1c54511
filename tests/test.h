/* test.h - what every CUnit suite file shares.
 *
 * Each tests/test_<module>.c defines one `int test_suite_<module>(void)`
 * that adds its suite and tests to the registry and returns 0 (or -1 on
 * a CUnit error); test_main.c calls them all.  Tests run from the
 * repository root, so paths such as tests/scenarios/... resolve.
 */
#ifndef HETSIM_TEST_H
#define HETSIM_TEST_H

#include <CUnit/CUnit.h>

int test_suite_eq(void);
int test_suite_rng(void);
int test_suite_cluster(void);
int test_suite_scenario(void);
int test_suite_policies(void);
int test_suite_engine(void);
int test_suite_determinism(void);
int test_suite_queueing(void);
int test_suite_sweep(void);
int test_suite_plot(void);
int test_suite_figures(void);
int test_suite_calibrate(void);
int test_suite_calibrate_load(void);
int test_suite_cuda_host(void);
int test_suite_provenance(void);
int test_suite_timing(void);
int test_suite_writer(void);
int test_suite_accounting(void);
int test_suite_failures(void);
int test_suite_types(void);
int test_suite_tfos(void);
int test_suite_yarn(void);
int test_suite_tiresias_speed(void);
int test_suite_locality(void);
int test_suite_trace(void);
int test_suite_json(void);
int test_suite_sparklog(void);
int test_suite_replay(void);
int test_suite_importers(void);
int test_suite_cli(void);
int test_suite_catalogue(void);
int test_suite_backfill_speed(void);
int test_suite_fgd_speed(void);
int test_suite_report(void);
int test_suite_gang(void);
int test_suite_layers(void);
int test_suite_gavel_speed(void);
int test_suite_wclass_speed(void);
int test_suite_frag_speed(void);
int test_suite_plugin(void);

/* Add a suite with the given tests (NULL-terminated pairs). */
#define TEST_SUITE(name, ...)                                            \
	do {                                                             \
		CU_pSuite s_ = CU_add_suite(name, NULL, NULL);           \
		if (!s_)                                                 \
			return -1;                                       \
		struct { const char *n; CU_TestFunc f; } t_[] = {__VA_ARGS__}; \
		for (size_t i_ = 0; i_ < sizeof t_ / sizeof t_[0]; i_++) \
			if (!CU_add_test(s_, t_[i_].n, t_[i_].f))        \
				return -1;                               \
	} while (0)

#endif
