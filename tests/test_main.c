/* test_main.c - runs every CUnit suite; exit status 1 if any test fails.
 * An optional argument runs only the suite of that name. */
#include "test.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "sim.h"

static const struct {
	const char *name;
	int (*add)(void);
} suites[] = {
	{"eq", test_suite_eq},
	{"rng", test_suite_rng},
	{"cluster", test_suite_cluster},
	{"scenario", test_suite_scenario},
	{"policies", test_suite_policies},
	{"engine", test_suite_engine},
	{"determinism", test_suite_determinism},
	{"queueing", test_suite_queueing},
	{"sweep", test_suite_sweep},
	{"plot", test_suite_plot},
	{"figures", test_suite_figures},
	{"calibrate", test_suite_calibrate},
	{"calibrate_load", test_suite_calibrate_load},
	{"cuda_host", test_suite_cuda_host},
	{"provenance", test_suite_provenance},
	{"timing", test_suite_timing},
	{"writer", test_suite_writer},
	{"accounting", test_suite_accounting},
	{"failures", test_suite_failures},
	{"types", test_suite_types},
	{"tfos", test_suite_tfos},
	{"yarn", test_suite_yarn},
	{"tiresias_speed", test_suite_tiresias_speed},
	{"locality", test_suite_locality},
	{"trace", test_suite_trace},
	{"json", test_suite_json},
	{"sparklog", test_suite_sparklog},
	{"replay", test_suite_replay},
	{"importers", test_suite_importers},
	{"cli", test_suite_cli},
	{"catalogue", test_suite_catalogue},
	{"backfill_speed", test_suite_backfill_speed},
	{"fgd_speed", test_suite_fgd_speed},
	{"report", test_suite_report},
	{"gang", test_suite_gang},
	{"layers", test_suite_layers},
	{"gavel_speed", test_suite_gavel_speed},
	{"wclass_speed", test_suite_wclass_speed},
	{"frag_speed", test_suite_frag_speed},
	{"plugin", test_suite_plugin}, /* last: it unloads its plugins */
};

int main(int argc, char **argv)
{
	sim_recount = true; /* every node change recounted (sim/sim.h) */
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
		if (argc > 1 && strcmp(argv[1], suites[i].name) != 0)
			continue;
		if (suites[i].add() != 0) {
			fprintf(stderr, "cannot add suite %s: %s\n", suites[i].name, CU_get_error_msg());
			CU_cleanup_registry();
			return 2;
		}
	}
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
