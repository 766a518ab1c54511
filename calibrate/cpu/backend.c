/* backend.c - the cpu calibration backend: the kernel table (sizes,
 * repeats, setup/run/teardown) and the inputs shared between sizes. */
#include "cal.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MIB (1024.0 * 1024.0)
#define TEXT_SEED 20240601u
#define MLP_SEED 7u
#define REDUCE_CHUNK (256 * 1024) /* text per partial table (one map task's output) */

struct cal_ctx {
	struct cal_input in;
	char *text;            /* wordcount input, owned */
	size_t text_len;
	struct cal_data data;  /* mnist input */
	bool have_data, fashion;
};

struct cal_ctx *cal_ctx_new(const struct cal_input *in)
{
	struct cal_ctx *c = xcalloc(1, sizeof *c);
	c->in = *in;
	return c;
}

void cal_ctx_free(struct cal_ctx *c)
{
	if (!c)
		return;
	free(c->text);
	cal_data_free(&c->data);
	free(c);
}

/* At least `bytes` of text in c->text (regenerated larger if needed). */
static int need_text(struct cal_ctx *c, size_t bytes, char *err, size_t errlen)
{
	if (c->text && c->text_len >= bytes)
		return 0;
	free(c->text);
	c->text = c->in.nfiles ? cal_text_files(c->in.files, c->in.nfiles, bytes, err, errlen)
			       : cal_text_zipf(bytes, TEXT_SEED);
	c->text_len = c->text ? bytes : 0;
	return c->text ? 0 : -1;
}

/* ---- wordcount_map: count `size` MiB of text ------------------------ */

struct map_state {
	const char *text;
	size_t len;
};

static int map_prepare(struct cal_ctx *c, double max_size, char *err, size_t errlen)
{
	return need_text(c, (size_t)(max_size * MIB), err, errlen);
}

static void *map_setup(struct cal_ctx *c, double size, char *err, size_t errlen)
{
	size_t len = (size_t)(size * MIB);
	if (need_text(c, len, err, errlen))
		return NULL;
	struct map_state *s = xmalloc(sizeof *s);
	*s = (struct map_state){c->text, len};
	return s;
}

static void map_run(void *state)
{
	struct map_state *s = state;
	struct cal_wc *t = cal_wc_new();
	cal_wc_count_text(t, s->text, s->len);
	cal_wc_free(t);
}

/* ---- wordcount_reduce: merge `size` MiB of partial tables ----------- */

struct reduce_state {
	struct cal_wc **parts;
	int n;
};

static void *reduce_setup(struct cal_ctx *c, double size, char *err, size_t errlen)
{
	if (need_text(c, 8 * MIB, err, errlen))
		return NULL;
	struct reduce_state *s = xcalloc(1, sizeof *s);
	size_t chunks = c->text_len / REDUCE_CHUNK, bytes = 0, want = (size_t)(size * MIB);
	int cap = 0;
	for (size_t k = 0; bytes < want; k++) {
		struct cal_wc *t = cal_wc_new();
		cal_wc_count_text(t, c->text + (k % chunks) * REDUCE_CHUNK, REDUCE_CHUNK);
		bytes += cal_wc_bytes(t);
		xgrow(&s->parts, &cap, s->n + 1, sizeof *s->parts);
		s->parts[s->n++] = t;
	}
	return s;
}

static void reduce_run(void *state)
{
	struct reduce_state *s = state;
	struct cal_wc *t = cal_wc_new();
	for (int i = 0; i < s->n; i++)
		cal_wc_merge(t, s->parts[i]);
	cal_wc_free(t);
}

static void reduce_teardown(void *state)
{
	struct reduce_state *s = state;
	for (int i = 0; i < s->n; i++)
		cal_wc_free(s->parts[i]);
	free(s->parts);
	free(s);
}

/* ---- mnist_step: one SGD step with a batch of `size` samples -------- */

struct mnist_state {
	struct cal_mlp *m;
	const struct cal_data *d;
	int b, at;
};

static void *mnist_setup(struct cal_ctx *c, double size, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	if (!c->have_data) {
		char why[512];
		c->fashion = cal_data_fashion(&c->data, NULL, true, 8192, why, sizeof why) == 0;
		if (!c->fashion)
			cal_data_synthetic(&c->data, 4096, MLP_SEED, 0);
		c->have_data = true;
	}
	struct mnist_state *s = xmalloc(sizeof *s);
	*s = (struct mnist_state){cal_mlp_new(MLP_SEED), &c->data, (int)size, 0};
	if (s->b > c->data.n)
		s->b = c->data.n;
	return s;
}

static void mnist_run(void *state)
{
	struct mnist_state *s = state;
	if (s->at + s->b > s->d->n)
		s->at = 0;
	cal_mlp_step(s->m, s->d->x + (size_t)s->at * CAL_MLP_IN, s->d->y + s->at, s->b, 0.01);
	s->at += s->b;
}

static void mnist_teardown(void *state)
{
	struct mnist_state *s = state;
	cal_mlp_free(s->m);
	free(s);
}

static const char *cpu_data_note(struct cal_ctx *c)
{
	if (!c->have_data)
		return c->in.nfiles ? "wordcount: --input files" : "wordcount: Zipf text";
	if (c->in.nfiles)
		return c->fashion ? "wordcount: --input files; mnist: Fashion-MNIST"
				  : "wordcount: --input files; mnist: synthetic blobs";
	return c->fashion ? "wordcount: Zipf text; mnist: Fashion-MNIST"
			  : "wordcount: Zipf text; mnist: synthetic blobs";
}

static const struct cal_kernel cpu_kernels[] = {
	{
		.name = "wordcount_map", .unit = "MiB",
		.sizes = {8, 16, 32, 64, 128, 256}, .nsizes = 6,
		.quick = {8, 12, 16, 24, 32, 64}, .nquick = 6,
		.repeats = 7, .quick_repeats = 5,
		.prepare = map_prepare, .setup = map_setup, .run = map_run, .teardown = free,
	},
	{
		.name = "wordcount_reduce", .unit = "MiB",
		.sizes = {1, 2, 4, 8, 16, 32, 64}, .nsizes = 7,
		.quick = {1, 2, 4, 8, 16, 32}, .nquick = 6,
		.repeats = 9, .quick_repeats = 5,
		.setup = reduce_setup, .run = reduce_run, .teardown = reduce_teardown,
	},
	{
		.name = "mnist_step", .unit = "samples",
		.sizes = {16, 32, 64, 128, 256, 512, 1024}, .nsizes = 7,
		.quick = {16, 32, 64, 128, 256, 512}, .nquick = 6,
		.repeats = 9, .quick_repeats = 5, .blas = true,
		.setup = mnist_setup, .run = mnist_run, .teardown = mnist_teardown,
	},
};

const struct cal_backend cal_cpu_backend = {
	.name = "cpu",
	.device = "cpu",
	.kernels = cpu_kernels,
	.nkernels = ARRAY_LEN(cpu_kernels),
	.data_note = cpu_data_note,
};
