/* cuda_host.h - hetsim-cuda-cal's kernels built for the host (cuda_host_
 * prefix): kernels.cuh compiled by g++ into cuda_host.o, run by
 * host_exec.h's sequential executor, callable from C.  Only the tests
 * link it (make check); see calibrate/cuda/README.md, "Host build".
 */
#ifndef HETSIM_CUDA_HOST_H
#define HETSIM_CUDA_HOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One (word key, count) pair: the layout of the device's records. */
struct cuda_host_pair {
	uint64_t key;   /* the word's key (cuda_host_wc_key) */
	uint32_t count;
	uint32_t pad;   /* 0 */
};

#define CUDA_HOST_WC_SLOTS 262144 /* the device table's slots: pairs at most */
#define CUDA_HOST_MLP_NPARAMS (128 * 784 + 128 + 10 * 128 + 10) /* cal_mlp_nparams() */

/* The key the device gives a word of `len` bytes as the tokenizer leaves
 * it (lowercase letters and digits): FNV-1a, h ^= h >> 29, 0 -> 1. */
uint64_t cuda_host_wc_key(const char *word, size_t len);

/* The wordcount_map task on text[0, len) with `grid` blocks of 256
 * threads: its (key, count) pairs into out (room for CUDA_HOST_WC_SLOTS,
 * owned by the caller), sorted by key.  Returns the number of pairs, or
 * -1 when the device table would have overflowed. */
long cuda_host_wc_map(const char *text, size_t len, int grid, struct cuda_host_pair *out);
/* The wordcount_reduce task on n records; the same contract. */
long cuda_host_wc_reduce(const struct cuda_host_pair *in, size_t n, int grid,
			 struct cuda_host_pair *out);

/* mnist_step's gradient pass in float: p and g are CUDA_HOST_MLP_NPARAMS
 * long in cal_mlp_params' layout (p is only read), x is b rows of 784, y
 * b labels.  The gradient of the mean loss goes to g; returns the mean
 * cross-entropy loss. */
double cuda_host_mlp_grad(const float *p, float *g, const float *x, const int *y, int b);
/* One SGD step: cuda_host_mlp_grad, then p -= lr g.  Returns the loss. */
double cuda_host_mlp_step(float *p, float *g, const float *x, const int *y, int b, float lr);

#ifdef __cplusplus
}
#endif

#endif
