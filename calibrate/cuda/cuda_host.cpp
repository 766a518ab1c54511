// cuda_host.cpp - kernels.cuh on the host, behind cuda_host.h's C
// interface (g++ -std=c++17; no C++ library, no exceptions: it links
// into the C test binary).  The tasks are cuk_wc_task and cuk_mlp_grad /
// cuk_mlp_step, the same templates the .cu runs on the device, over
// cuk_host_exec.
#include "cuda_host.h"

#include <stdio.h>
#include <stdlib.h>

#include "host_exec.h"

static_assert(sizeof(cuda_host_pair) == sizeof(cuk_rec), "pair layout = device record");
static_assert(CUDA_HOST_WC_SLOTS == CUK_TABLE_CAP, "table size");
static_assert(CUDA_HOST_MLP_NPARAMS == CUK_NP, "parameter count");

// Out of memory: report the size and abort (STYLE.md, "Errors").
static void *alloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p) {
		fprintf(stderr, "cuda_host: out of memory (%zu x %zu bytes)\n", n, size);
		abort();
	}
	return p;
}

extern "C" uint64_t cuda_host_wc_key(const char *word, size_t len)
{
	unsigned long long h = CUK_FNV_INIT;
	for (size_t i = 0; i < len; i++)
		h = cuk_fnv_step(h, (unsigned char)word[i]);
	return cuk_wc_final(h);
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = ((const cuda_host_pair *)a)->key, y = ((const cuda_host_pair *)b)->key;
	return x < y ? -1 : x > y;
}

static long wc_task(const unsigned char *text, const cuk_rec *rec, size_t n, int grid,
		    cuda_host_pair *out)
{
	cuk_table t;
	t.keys = (unsigned long long *)alloc(CUK_TABLE_CAP, sizeof *t.keys);
	t.counts = (unsigned int *)alloc(CUK_TABLE_CAP, sizeof *t.counts);
	t.out = (cuk_rec *)out;
	t.nout = (unsigned int *)alloc(1, sizeof *t.nout);
	t.overflow = (unsigned int *)alloc(1, sizeof *t.overflow);
	cuk_host_exec e;
	cuk_wc_task(e, t, text, rec, n, grid);
	long np = *t.overflow ? -1 : (long)*t.nout;
	free(t.keys);
	free(t.counts);
	free(t.nout);
	free(t.overflow);
	if (np > 0)
		qsort(out, (size_t)np, sizeof *out, by_key);
	return np;
}

extern "C" long cuda_host_wc_map(const char *text, size_t len, int grid, cuda_host_pair *out)
{
	return wc_task((const unsigned char *)text, nullptr, len, grid, out);
}

extern "C" long cuda_host_wc_reduce(const cuda_host_pair *in, size_t n, int grid,
				    cuda_host_pair *out)
{
	return wc_task(nullptr, (const cuk_rec *)in, n, grid, out);
}

// Buffers of one step at batch b, around the caller's p and g.
static double mlp_run(float *p, float *g, const float *x, const int *y, int b, bool step,
		      float lr)
{
	size_t nh = (size_t)CUK_NH * b, no = (size_t)CUK_NO * b;
	float *work = (float *)alloc(3 * nh + 2 * no + (size_t)b, sizeof(float));
	cuk_mlp m;
	m.X = x;
	m.Y = y;
	m.P = p;
	m.G = g;
	m.Z1 = work;
	m.H = m.Z1 + nh;
	m.dH = m.H + nh;
	m.Z2 = m.dH + nh;
	m.D2 = m.Z2 + no;
	m.loss = m.D2 + no;
	cuk_host_exec e;
	if (step)
		cuk_mlp_step(e, m, b, lr);
	else
		cuk_mlp_grad(e, m, b);
	double s = 0;
	for (int j = 0; j < b; j++)
		s += m.loss[j];
	free(work);
	return b > 0 ? s / b : 0;
}

extern "C" double cuda_host_mlp_grad(const float *p, float *g, const float *x, const int *y,
				     int b)
{
	return mlp_run(const_cast<float *>(p), g, x, y, b, false, 0.f); // grad never writes P
}

extern "C" double cuda_host_mlp_step(float *p, float *g, const float *x, const int *y, int b,
				     float lr)
{
	return mlp_run(p, g, x, y, b, true, lr);
}
