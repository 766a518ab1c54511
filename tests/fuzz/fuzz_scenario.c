/* fuzz_scenario.c - libFuzzer target: the scenario loader (scn_load, and
 * scn_sweep_load for the same bytes), which also reads the cost model
 * and traces a scenario names, relative to its file. */
#include "fuzz.h"
#include "load.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".yaml");
	char err[1024];
	struct scn *s = scn_load(path, err, sizeof err);
	if (s)
		scn_free(s);
	else
		fuzz_check_error("scn_load", path, err);
	struct scn_sweep *sw = scn_sweep_load(path, err, sizeof err);
	if (sw)
		scn_sweep_free(sw);
	else
		fuzz_check_error("scn_sweep_load", path, err);
	return 0;
}
