/* trace.c - `hetsim trace`: what a trace file holds (docs/traces.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "load.h"
#include "scn_trace.h"
#include "sparklog.h"
#include "trace.h"
#include "util.h"

static const struct cmd_opt trace_opts[] = {
	{"format", 'f', "FORMAT", "the file's format (hetsim trace formats); default: detected"},
	{"strict", 0, NULL, "a record that would be skipped or clamped is an error"},
	{"drop-nonpositive", 0, NULL, "leave out jobs whose run time or requested time is 0 or "
				      "unknown (the trace key drop_nonpositive)"},
	{"cap-at-request", 0, NULL, "cut run times above the requested time to it (the trace key "
				    "cap_at_request)"},
	{"kill-at-request", 0, NULL, "count the jobs a batch system would kill at their requested "
				     "time (the trace key kill_at_request)"},
	{"machine", 0, "nodes|pool", "a node list as its nodes or as one node of them all (the "
				     "cluster key machine); default: the format's (SWF: pool)"},
	{"help", 'h', NULL, "show this help"},
	{NULL, 0, NULL, NULL},
};

void cmd_trace_warnings(const struct scn *s, FILE *f)
{
	char w[1024];
	for (int i = 0; i < s->ntraces; i++)
		if (trace_warning(s->traces[i], w, sizeof w))
			fprintf(f, "warning: %s\n", w);
}

/* The node list at path: printed, 0; or -1 with the reason in err. */
static int node_info(const char *path, const char *format, enum trace_machine machine,
		     char *err, size_t errlen)
{
	struct scn_node_group *g = NULL;
	int n = 0;
	if (trace_read_nodes(path, format, "n", machine, &g, &n, err, errlen) < 0) {
		free(g);
		return -1;
	}
	long long nodes = 0, cores = 0, gpus = 0, mem = 0;
	for (int i = 0; i < n; i++) {
		nodes += g[i].count;
		cores += (long long)g[i].count * g[i].cores;
		gpus += (long long)g[i].count * g[i].gpus;
		mem += (long long)g[i].count * g[i].mem_mib;
	}
	printf("nodes %s\n  nodes                  %lld\n  distinct node shapes   %d\n"
	       "  cores                  %lld\n  memory                 %lld MiB\n"
	       "  GPUs                   %lld\n", path, nodes, n, cores, mem, gpus);
	/* GPUs by model, in order of first appearance */
	for (int i = 0; i < n; i++) {
		if (!g[i].gpu_model)
			continue;
		bool seen = false;
		for (int k = 0; k < i && !seen; k++)
			seen = g[k].gpu_model && !strcmp(g[k].gpu_model, g[i].gpu_model);
		if (seen)
			continue;
		long long mn = 0, mg = 0;
		for (int k = i; k < n; k++)
			if (g[k].gpu_model && !strcmp(g[k].gpu_model, g[i].gpu_model)) {
				mn += g[k].count;
				mg += (long long)g[k].count * g[k].gpus;
			}
		printf("  GPU model %-12s %lld nodes, %lld GPUs\n", g[i].gpu_model, mn, mg);
	}
	long long cpu_only = 0;
	for (int i = 0; i < n; i++)
		cpu_only += g[i].gpus ? 0 : g[i].count;
	printf("  without GPUs           %lld nodes\n", cpu_only);
	for (int i = 0; i < n; i++) {
		free(g[i].name);
		free(g[i].gpu_model);
	}
	free(g);
	return 0;
}

static int trace_info_cmd(const struct cmd_args *a)
{
	if (a->npos != 2) {
		fprintf(stderr, "hetsim trace info: expected one FILE\n");
		return 2;
	}
	const char *path = a->pos[1], *format = cmd_get(trace_opts, a, "format");
	char err[1024];
	if (format && !trace_format(format)) {
		fprintf(stderr, "hetsim trace: option '--format': unknown format '%s' (hetsim trace "
			"formats lists them)\n", format);
		return 2;
	}
	if (!format && !(format = trace_detect(path, err, sizeof err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	const struct trace_format *f = trace_format(format);
	const char *mach = cmd_get(trace_opts, a, "machine");
	enum trace_machine machine = !mach ? TRM_DEFAULT : !strcmp(mach, "nodes") ? TRM_NODES
				   : !strcmp(mach, "pool") ? TRM_POOL : (enum trace_machine)-1;
	if ((int)machine < 0) {
		fprintf(stderr, "hetsim trace: option '--machine': expected nodes or pool, got '%s'\n",
			mach);
		return 2;
	}
	if (!strcmp(f->name, "spark-eventlog")) { /* as replay-log reads it */
		struct slog_opts so = {.strict = cmd_get(trace_opts, a, "strict") != NULL};
		struct slog *l = slog_read(path, &so, err, sizeof err);
		if (!l) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		if (slog_warning(l, err, sizeof err))
			fprintf(stderr, "warning: %s\n", err);
		int rc = slog_info(stdout, l) < 0;
		slog_free(l);
		return rc;
	}
	/* A node list, or jobs read as a scenario's trace entry reads them
	 * (run, sweep, validate): one reader, its errors, skips and warnings,
	 * never the node list when the jobs fail. */
	if (trace_node_list(path, format)) {
		if (node_info(path, format, machine, err, sizeof err) < 0) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		return 0;
	}
	struct trace_opts o = {
		.format = format, .time_scale = 1, .exec_cores = 1, .exec_mem_mib = 1024,
		.strict = cmd_get(trace_opts, a, "strict") != NULL,
		.drop_nonpositive = cmd_get(trace_opts, a, "drop-nonpositive") != NULL,
		.cap_at_request = cmd_get(trace_opts, a, "cap-at-request") != NULL,
		.kill_at_request = cmd_get(trace_opts, a, "kill-at-request") != NULL};
	if (o.cap_at_request && o.kill_at_request) {
		fprintf(stderr, "hetsim trace: option '--kill-at-request' does not go with "
			"'--cap-at-request'\n");
		return 2;
	}
	struct scn_trace *t = trace_read(path, &o, err, sizeof err);
	if (!t) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	int rc = 0;
	if (trace_no_jobs(t, err, sizeof err)) { /* run refuses it too; the reasons said */
		fprintf(stderr, "%s\n", err);
		rc = 1;
	} else {
		if (trace_warning(t, err, sizeof err))
			fprintf(stderr, "warning: %s\n", err);
		trace_info(stdout, t);
	}
	scn_trace_free(t);
	return rc;
}

int cmd_trace(int argc, char **argv)
{
	struct cmd_args a;
	if (cmd_parse("trace", trace_opts, argc, argv, &a))
		return 2;
	if (cmd_get(trace_opts, &a, "help") || a.npos == 0) {
		cmd_help("trace", "info FILE [--format F] [--strict] [--drop-nonpositive] "
			 "[--cap-at-request | --kill-at-request] [--machine nodes|pool] | formats",
			 "What a trace file holds: counts of jobs, tasks, nodes and GPU models, the\n"
			 "time span, demand and run-time percentiles, and the records left out and\n"
			 "why (docs/traces.md).  The format is detected from the content where it\n"
			 "can be.  The file is read as run reads it: a record run refuses is the\n"
			 "same error (exit 1), one it skips the same warning, and a trace that\n"
			 "leaves no job an error.",
			 trace_opts);
		return a.npos == 0 && !cmd_get(trace_opts, &a, "help") ? 2 : 0;
	}
	if (strcmp(a.pos[0], "formats") == 0) {
		for (int i = 0; i < trace_nformats; i++)
			printf("%-20s %s\n", trace_formats[i]->name, trace_formats[i]->what);
		return 0;
	}
	if (strcmp(a.pos[0], "info") == 0)
		return trace_info_cmd(&a);
	fprintf(stderr, "hetsim trace: unknown action '%s' (info, formats)\n", a.pos[0]);
	return 2;
}
