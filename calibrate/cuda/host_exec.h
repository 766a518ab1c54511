// host_exec.h - the executor that runs kernels.cuh on the host (C++, g++
// or nvcc's host pass): every "launch" runs the kernel's threads one
// after another over the same grid x block index space, and gemm is a
// reference column-major sgemm with cuBLAS's contract, accumulating in
// float.  Used by cuda_host.cpp (the tests) and by hetsim-cuda-cal's
// start-up check (the device's step against this one).
//
// Shortcut admitted: sequential threads see each other's writes in
// index order, so a kernel whose result depended on thread order or on
// a race would pass here; none of kernels.cuh's does (a slot's key is
// claimed by one compare-and-swap, counts only ever added).
#ifndef HETSIM_CUDA_HOST_EXEC_H
#define HETSIM_CUDA_HOST_EXEC_H

#include <string.h>

#include "kernels.cuh"

struct cuk_host_exec {
	void zero(void *p, size_t bytes) { memset(p, 0, bytes); }

	void wc_map(int grid, int block, const unsigned char *text, size_t n, cuk_table t)
	{
		size_t nt = (size_t)grid * (size_t)block;
		for (size_t tid = 0; tid < nt; tid++)
			cuk_wc_map_thread(text, n, t, tid, nt);
	}
	void wc_reduce(int grid, int block, const cuk_rec *rec, size_t n, cuk_table t)
	{
		size_t nt = (size_t)grid * (size_t)block;
		for (size_t tid = 0; tid < nt; tid++)
			cuk_wc_reduce_thread(rec, n, t, tid, nt);
	}
	void wc_compact(int grid, int block, cuk_table t)
	{
		for (size_t i = 0; i < (size_t)grid * (size_t)block; i++)
			cuk_wc_compact_at(t, i);
	}

	void bias_relu(int grid, int block, const float *Z, const float *b, float *H, int rows,
		       int n)
	{
		for (int i = 0; i < grid * block; i++)
			cuk_bias_relu_at(Z, b, H, rows, n, i);
	}
	void softmax_xent(int grid, int block, const float *Z, const float *b, const int *y,
			  float *D, float *loss, int B)
	{
		for (int j = 0; j < grid * block; j++)
			cuk_softmax_xent_at(Z, b, y, D, loss, B, j);
	}
	void relu_back(int grid, int block, const float *dH, float *H, int n)
	{
		for (int i = 0; i < grid * block; i++)
			cuk_relu_back_at(dH, H, n, i);
	}
	void bias_grad(int grid, int block, const float *D, float *g, int rows, int B)
	{
		for (int r = 0; r < grid * block; r++)
			cuk_bias_grad_at(D, g, rows, B, r);
	}
	void sgd(int grid, int block, float *p, const float *g, int n, float lr)
	{
		for (int i = 0; i < grid * block; i++)
			cuk_sgd_at(p, g, n, lr, i);
	}

	// C = alpha op(A) op(B) + beta C, column-major, C is m x n, op(A) m x k.
	void gemm(bool ta, bool tb, int m, int n, int k, float alpha, const float *A, int lda,
		  const float *B, int ldb, float beta, float *C, int ldc)
	{
		for (int j = 0; j < n; j++)
			for (int i = 0; i < m; i++) {
				float s = 0.f;
				for (int l = 0; l < k; l++) {
					float a = ta ? A[l + (size_t)i * lda] : A[i + (size_t)l * lda];
					float b = tb ? B[j + (size_t)l * ldb] : B[l + (size_t)j * ldb];
					s += a * b;
				}
				float *c = &C[i + (size_t)j * ldc];
				*c = beta == 0.f ? alpha * s : alpha * s + beta * *c;
			}
	}
};

#endif
