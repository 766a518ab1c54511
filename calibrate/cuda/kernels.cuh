// kernels.cuh - the arithmetic of hetsim-cuda-cal's kernels, written once
// and compiled twice (cuk_ prefix): as __device__ code by nvcc, in
// hetsim-cuda-cal.cu, and as plain host C++ by g++, in cuda_host.cpp,
// which the CUnit tests run against the CPU kernels (calibrate/cpu).
// See calibrate/cuda/README.md, "Host build".
//
// Three layers, all here:
//   cuk_*_at       what one thread does for one element (a byte, a
//                  record, a slot, a sample, a parameter);
//   cuk_*_thread   one thread's share of the index space, given its
//                  global index and the number of threads (grid-stride
//                  loops included), as a __global__ kernel runs it;
//   cuk_wc_task, cuk_mlp_grad, cuk_mlp_step
//                  the sequence of launches and matrix products of one
//                  task, with their grid and block sizes, over an
//                  executor `Exec` that provides them: in the .cu the
//                  launches and cuBLAS on a stream, in host_exec.h
//                  sequential loops over the same threads and a
//                  reference sgemm.
// So on a GPU only the launch mechanism, cuBLAS, device memory and the
// timing are new.  Nothing here allocates, copies or calls the host C
// library (device code cannot); atomics are the only operations that
// differ, in cuk_cas / cuk_add / cuk_set.
#ifndef HETSIM_CUDA_KERNELS_CUH
#define HETSIM_CUDA_KERNELS_CUH

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

/* ------------------------------------------------------------------ */
/* Atomics: the device's, or plain operations for the sequential host  */
/* run (one thread at a time, so they are atomic there too).           */

HD static inline unsigned long long cuk_cas(unsigned long long *p, unsigned long long cmp,
					    unsigned long long val)
{
#ifdef __CUDA_ARCH__
	return atomicCAS(p, cmp, val);
#else
	unsigned long long old = *p;
	if (old == cmp)
		*p = val;
	return old;
#endif
}

HD static inline unsigned int cuk_add(unsigned int *p, unsigned int n)
{
#ifdef __CUDA_ARCH__
	return atomicAdd(p, n);
#else
	unsigned int old = *p;
	*p = old + n;
	return old;
#endif
}

HD static inline void cuk_set(unsigned int *p, unsigned int v)
{
#ifdef __CUDA_ARCH__
	atomicExch(p, v);
#else
	*p = v;
#endif
}

HD static inline size_t cuk_blocks(size_t n, int block)
{
	return (n + (size_t)block - 1) / (size_t)block;
}

/* ------------------------------------------------------------------ */
/* Word count: the CPU kernel's (calibrate/cpu/wordcount.c) tokenizer   */
/* and hash.  A word is a maximal run of ASCII letters and digits,     */
/* lowercased; every other byte (>= 0x80 too) separates words.  A      */
/* word's key is its 64-bit FNV-1a hash with the high bits folded in   */
/* (h ^= h >> 29), 0 stored as 1: the CPU table's slot hash.  The      */
/* device knows words only by key (a collision would merge two words:  */
/* the start-up check and the tests would see it).                     */

constexpr unsigned CUK_TABLE_BITS = 18;              // device hash table: 2^18 slots
constexpr unsigned CUK_TABLE_CAP = 1u << CUK_TABLE_BITS;
constexpr unsigned long long CUK_FNV_INIT = 0xcbf29ce484222325ULL;
constexpr unsigned long long CUK_FNV_PRIME = 0x100000001b3ULL;

struct cuk_rec {                // one (word, count) pair, as a map task emits it
	unsigned long long key; // word key (cuk_wc_final)
	unsigned int count;
	unsigned int pad;       // 0
};
static_assert(sizeof(cuk_rec) == 16, "cuk_rec is 16 bytes");

struct cuk_table {              // open addressing, linear probing, no growth
	unsigned long long *keys; // CUK_TABLE_CAP keys, 0 = empty
	unsigned int *counts;     // CUK_TABLE_CAP counts
	cuk_rec *out;             // compacted pairs (CUK_TABLE_CAP at most)
	unsigned int *nout;       // number of pairs in out
	unsigned int *overflow;   // set when an insert found no slot
};

// The byte as a word character (lowercased), or 0 for a separator.
HD static inline unsigned char cuk_wc_char(unsigned char c)
{
	if (c >= 'a' && c <= 'z')
		return c;
	if (c >= 'A' && c <= 'Z')
		return (unsigned char)(c - 'A' + 'a');
	if (c >= '0' && c <= '9')
		return c;
	return 0;
}

HD static inline unsigned long long cuk_fnv_step(unsigned long long h, unsigned char c)
{
	return (h ^ c) * CUK_FNV_PRIME;
}

HD static inline unsigned long long cuk_wc_final(unsigned long long h)
{
	h ^= h >> 29; // FNV's low bits are weak for power-of-two tables
	return h ? h : 1ULL;
}

HD static inline void cuk_table_add(cuk_table t, unsigned long long key, unsigned int n)
{
	unsigned int slot = (unsigned int)key & (CUK_TABLE_CAP - 1);
	for (unsigned int probe = 0; probe < CUK_TABLE_CAP; probe++) {
		unsigned long long k = t.keys[slot];
		if (k == 0ULL)
			k = cuk_cas(&t.keys[slot], 0ULL, key);
		if (k == 0ULL || k == key) {
			cuk_add(&t.counts[slot], n);
			return;
		}
		slot = (slot + 1) & (CUK_TABLE_CAP - 1);
	}
	cuk_set(t.overflow, 1u);
}

// Byte i of text[0, n): if a word starts there, hash it and count it.
HD static inline void cuk_wc_map_at(const unsigned char *text, size_t n, size_t i, cuk_table t)
{
	if (!cuk_wc_char(text[i]) || (i > 0 && cuk_wc_char(text[i - 1])))
		return;
	unsigned long long h = CUK_FNV_INIT;
	unsigned char c;
	for (size_t j = i; j < n && (c = cuk_wc_char(text[j])) != 0; j++)
		h = cuk_fnv_step(h, c);
	cuk_table_add(t, cuk_wc_final(h), 1u);
}

HD static inline void cuk_wc_map_thread(const unsigned char *text, size_t n, cuk_table t,
					size_t tid, size_t nthreads)
{
	for (size_t i = tid; i < n; i += nthreads)
		cuk_wc_map_at(text, n, i, t);
}

HD static inline void cuk_wc_reduce_thread(const cuk_rec *rec, size_t n, cuk_table t, size_t tid,
					   size_t nthreads)
{
	for (size_t i = tid; i < n; i += nthreads)
		cuk_table_add(t, rec[i].key, rec[i].count);
}

// Slot i: an occupied slot appends its pair to t.out (in any order).
HD static inline void cuk_wc_compact_at(cuk_table t, size_t i)
{
	if (i >= CUK_TABLE_CAP || t.keys[i] == 0ULL)
		return;
	unsigned int j = cuk_add(t.nout, 1u);
	cuk_rec r;
	r.key = t.keys[i];
	r.count = t.counts[i];
	r.pad = 0;
	t.out[j] = r;
}

constexpr int CUK_WC_BLOCK = 256; // threads per block of the word-count kernels

// One map (text != nullptr: n bytes) or reduce (n records) task on a
// table: clear it, count, compact.  `grid` blocks for the count (the .cu
// uses 8 per SM).  Exec provides zero(ptr, bytes), wc_map, wc_reduce and
// wc_compact (grid, block, then the kernel's arguments).
template <class Exec>
void cuk_wc_task(Exec &e, const cuk_table &t, const unsigned char *text, const cuk_rec *rec,
		 size_t n, int grid)
{
	e.zero(t.keys, CUK_TABLE_CAP * sizeof(unsigned long long));
	e.zero(t.counts, CUK_TABLE_CAP * sizeof(unsigned int));
	e.zero(t.nout, sizeof(unsigned int));
	e.zero(t.overflow, sizeof(unsigned int));
	if (text)
		e.wc_map(grid, CUK_WC_BLOCK, text, n, t);
	else
		e.wc_reduce(grid, CUK_WC_BLOCK, rec, n, t);
	e.wc_compact((int)cuk_blocks(CUK_TABLE_CAP, CUK_WC_BLOCK), CUK_WC_BLOCK, t);
}

/* ------------------------------------------------------------------ */
/* mnist_step: the CPU kernel's (calibrate/cpu/mlp.c) 784-128-10 MLP,   */
/* ReLU, softmax cross-entropy, gradient of the mean loss, then SGD,   */
/* in single precision.  Memory layout = the CPU kernel's, so the same */
/* arrays serve both: parameters W1 (128 x 784, row-major) | b1 | W2   */
/* (10 x 128, row-major) | b2, gradients alike; a batch is B rows of   */
/* 784 (x), activations B rows of 128 or 10.  Column-major (cuBLAS),   */
/* the batch is 784 x B with ld 784, W1 is 784 x 128 (W1^T) with ld    */
/* 784, W2 is 128 x 10 (W2^T) with ld 128, activations 128 x B, 10 x B. */

constexpr int CUK_NI = 784, CUK_NH = 128, CUK_NO = 10;
constexpr int CUK_NW1 = CUK_NH * CUK_NI;
constexpr int CUK_NP = CUK_NW1 + CUK_NH + CUK_NO * CUK_NH + CUK_NO; // parameters

struct cuk_mlp {        // device (or host) buffers of one step
	const float *X; // NI x B, the batch
	const int *Y;   // B labels 0..9
	float *P;       // NP parameters, CPU layout
	float *G;       // NP gradients, same layout
	float *Z1, *H;  // NH x B: pre-activation; hidden, then dZ1 in place
	float *Z2, *D2; // NO x B: logits (no bias); dZ2 = (softmax - onehot) / B
	float *dH;      // NH x B
	float *loss;    // B per-sample losses
};

// Element i of NH x B: H = relu(Z1 + b1).
HD static inline void cuk_bias_relu_at(const float *Z, const float *b, float *H, int rows, int n,
				       int i)
{
	if (i < n) {
		float v = Z[i] + b[i % rows];
		H[i] = v > 0.f ? v : 0.f;
	}
}

// Sample j: softmax of Z2 + b2, its loss -log p_y (as log-sum-exp), and
// dZ2 = (p - onehot(y)) / B.
HD static inline void cuk_softmax_xent_at(const float *Z, const float *b, const int *y, float *D,
					  float *loss, int B, int j)
{
	if (j >= B)
		return;
	float z[CUK_NO], p[CUK_NO], m = -INFINITY, sum = 0.f;
	for (int k = 0; k < CUK_NO; k++) {
		z[k] = Z[j * CUK_NO + k] + b[k];
		m = fmaxf(m, z[k]);
	}
	for (int k = 0; k < CUK_NO; k++) {
		p[k] = expf(z[k] - m);
		sum += p[k];
	}
	int yj = y[j];
	for (int k = 0; k < CUK_NO; k++)
		D[j * CUK_NO + k] = (p[k] / sum - (k == yj ? 1.f : 0.f)) / (float)B;
	loss[j] = logf(sum) - (z[yj] - m);
}

// Element i: dZ1 = dH where the hidden unit was active (H > 0), into H.
HD static inline void cuk_relu_back_at(const float *dH, float *H, int n, int i)
{
	if (i < n)
		H[i] = H[i] > 0.f ? dH[i] : 0.f;
}

// Row r: g[r] = sum over the batch of D (rows x B).
HD static inline void cuk_bias_grad_at(const float *D, float *g, int rows, int B, int r)
{
	if (r >= rows)
		return;
	float s = 0.f;
	for (int j = 0; j < B; j++)
		s += D[j * rows + r];
	g[r] = s;
}

// Parameter i: p -= lr g.
HD static inline void cuk_sgd_at(float *p, const float *g, int n, float lr, int i)
{
	if (i < n)
		p[i] -= lr * g[i];
}

// Forward and backward pass over the batch: per-sample losses in m.loss,
// the gradient of the mean loss in m.G.  Exec provides gemm (cuBLAS
// sgemm's column-major contract: transa, transb, m, n, k, alpha, A, lda,
// B, ldb, beta, C, ldc; C is not read when beta is 0) and bias_relu,
// softmax_xent, relu_back, bias_grad (grid, block, then the arguments of
// the cuk_*_at function but the index).
template <class Exec> void cuk_mlp_grad(Exec &e, const cuk_mlp &m, int B)
{
	const int NI = CUK_NI, NH = CUK_NH, NO = CUK_NO, nh = NH * B;
	const float *W1 = m.P, *b1 = m.P + CUK_NW1, *W2 = b1 + NH, *b2 = W2 + NO * NH;
	float *gW1 = m.G, *gb1 = m.G + CUK_NW1, *gW2 = gb1 + NH, *gb2 = gW2 + NO * NH;
	// forward: Z1 = W1 X, H = relu(Z1 + b1), Z2 = W2 H, softmax
	e.gemm(true, false, NH, B, NI, 1.f, W1, NI, m.X, NI, 0.f, m.Z1, NH);
	e.bias_relu((int)cuk_blocks(nh, 256), 256, m.Z1, b1, m.H, NH, nh);
	e.gemm(true, false, NO, B, NH, 1.f, W2, NH, m.H, NH, 0.f, m.Z2, NO);
	e.softmax_xent((int)cuk_blocks(B, 128), 128, m.Z2, b2, m.Y, m.D2, m.loss, B);
	// backward: dH = W2^T dZ2, dW2 = dZ2 H^T (as W2^T: H dZ2^T), db2
	e.gemm(false, false, NH, B, NO, 1.f, W2, NH, m.D2, NO, 0.f, m.dH, NH);
	e.gemm(false, true, NH, NO, B, 1.f, m.H, NH, m.D2, NO, 0.f, gW2, NH);
	e.bias_grad(1, 32, m.D2, gb2, NO, B);
	// dZ1 = dH masked, dW1 = dZ1 X^T (as W1^T: X dZ1^T), db1
	e.relu_back((int)cuk_blocks(nh, 256), 256, m.dH, m.H, nh);
	e.gemm(false, true, NI, NH, B, 1.f, m.X, NI, m.H, NH, 0.f, gW1, NI);
	e.bias_grad(1, NH, m.H, gb1, NH, B);
}

// One SGD step: cuk_mlp_grad, then P -= lr G (exec's sgd).
template <class Exec> void cuk_mlp_step(Exec &e, const cuk_mlp &m, int B, float lr)
{
	cuk_mlp_grad(e, m, B);
	e.sgd((int)cuk_blocks(CUK_NP, 256), 256, m.P, m.G, CUK_NP, lr);
}

#endif
