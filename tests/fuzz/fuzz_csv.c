/* fuzz_csv.c - libFuzzer target: `hetsim plot`'s CSV reader
 * (plot_csv_read) and the summary it makes of a runs.csv. */
#include "fuzz.h"
#include "plot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".csv");
	char err[1024];
	struct plot_csv *c = plot_csv_read(path, err, sizeof err);
	if (!c) {
		fuzz_check_error("plot_csv_read", path, err);
		return 0;
	}
	for (int r = 0; r < plot_csv_rows(c); r++)
		for (int k = -1; k < plot_csv_ncols(c); k++)
			(void)plot_csv_cell(c, r, k);
	struct plot_csv *s = plot_summarise_runs(c, NULL, err, sizeof err);
	if (s)
		plot_csv_free(s);
	plot_csv_free(c);
	return 0;
}
