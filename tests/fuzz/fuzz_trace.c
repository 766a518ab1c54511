/* fuzz_trace.c - libFuzzer target: the trace importers.  The input's
 * first byte picks what reads the rest: a job importer of each one-file
 * format (named, or detected), or a node-list reader. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "scenario.h"
#include "scn_trace.h"
#include "trace.h"

static void free_groups(struct scn_node_group *g, int n)
{
	for (int i = 0; i < n; i++) {
		free(g[i].name);
		free(g[i].gpu_model);
		free(g[i].outages);
		free(g[i].busy_slowdown);
	}
	free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	/* the one-file formats, and detection */
	const struct trace_format *fs[16];
	int nf = 0;
	for (int i = 0; i < trace_nformats && nf < 15; i++)
		if (!trace_formats[i]->dir && (trace_formats[i]->jobs || trace_formats[i]->nodes))
			fs[nf++] = trace_formats[i];
	int pick = (data[0] & 0x7f) % (2 * nf + 1); /* and bit 7: offer-only */
	const char *path = fuzz_file(data + 1, size - 1, "");
	char err[1024];
	if (pick == 2 * nf) { /* detected, then read as that */
		const char *fmt = trace_detect(path, err, sizeof err);
		if (!fmt || !trace_format(fmt)->jobs || trace_format(fmt)->dir)
			return 0; /* (what the file is, not what is in it: the
				   * scenario's position is the one to name) */
		struct trace_opts o = {.format = fmt};
		struct scn_trace *t = trace_read(path, &o, err, sizeof err);
		if (t)
			scn_trace_free(t);
		else
			fuzz_check_error("trace_read (detected)", path, err);
		return 0;
	}
	const struct trace_format *f = fs[pick / 2];
	if (pick % 2 == 0 && f->jobs) {
		struct trace_opts o = {.format = f->name, .offer = (data[0] & 0x80) != 0};
		struct scn_trace *t = trace_read(path, &o, err, sizeof err);
		if (t)
			scn_trace_free(t);
		else
			fuzz_check_error(f->name, path, err);
	} else if (f->nodes) {
		struct scn_node_group *g = NULL;
		int ng = 0;
		if (trace_read_nodes(path, f->name, "n", TRM_DEFAULT, &g, &ng, err, sizeof err) < 0)
			fuzz_check_error(f->name, path, err);
		free_groups(g, ng);
	}
	return 0;
}
