/* fuzz_cost.c - libFuzzer target: a cost-model file on its own
 * (scn_cost_load, what `run --cost-model` and calibrate read) and its
 * meta (scn_meta_load). */
#include "fuzz.h"
#include "load.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".yaml");
	char err[1024];
	struct scn *s = scn_cost_load(path, err, sizeof err);
	if (s)
		scn_free(s);
	else
		fuzz_check_error("scn_cost_load", path, err);
	struct scn_cost_meta m = {0};
	if (scn_meta_load(path, &m, err, sizeof err) == 0)
		scn_cost_meta_free(&m);
	else
		fuzz_check_error("scn_meta_load", path, err);
	return 0;
}
