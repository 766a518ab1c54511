/* fuzz_sparklog.c - libFuzzer target: the Spark event-log reader
 * (slog_read) and the application it makes for replay (spapp_of). */
#include "fuzz.h"
#include "scenario.h"
#include "scn_app.h"
#include "spark_app.h"
#include "sparklog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, "");
	char err[1024];
	struct slog *l = slog_read(path, NULL, err, sizeof err);
	if (!l) {
		fuzz_check_error("slog_read", path, err);
		return 0;
	}
	struct scn_app *a = spapp_of(l, spapp_t0(l), SPAPP_HOSTS, err, sizeof err);
	if (a)
		scn_app_free(a);
	slog_free(l);
	return 0;
}
