// hetsim-cuda-cal - measure hetsim's GPU kernels on the local CUDA device
// and write the raw samples as CSV (kernel,device,size,repeat,seconds).
// The fit is done elsewhere: `hetsim calibrate --fit SAMPLES.csv`.
//
// Needs only the CUDA toolkit (runtime + cuBLAS).  See calibrate/cuda/README.md
// for what is measured, how, and what the timings include.
//
//   wordcount_map     tokenise MiB of Zipf text, count words in a device
//                     hash table (H2D copy of the text and D2H copy of
//                     the (word, count) table included)
//   wordcount_reduce  merge MiB of partial-count records (16 B each) into
//                     one table (both copies included)
//   mnist_step        one SGD step of a 784-128-10 MLP at batch B (data
//                     resident on the device, no copies)
//
// The kernels' arithmetic is kernels.cuh, shared with the host build that
// `make check` tests against the CPU kernels (calibrate/cpu); this file
// holds the launches (cuda_exec), device memory, the start-up checks
// and the timing.

#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <unordered_map>
#include <vector>

#include "host_exec.h"
#include "kernels.cuh"

static const char *prog = "hetsim-cuda-cal";

[[noreturn]] static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

#define CK(call)                                                                  \
	do {                                                                      \
		cudaError_t e_ = (call);                                          \
		if (e_ != cudaSuccess)                                            \
			die("%s failed: %s (%s:%d)", #call, cudaGetErrorString(e_), \
			    __FILE__, __LINE__);                                  \
	} while (0)

#define CKB(call)                                                                  \
	do {                                                                       \
		cublasStatus_t s_ = (call);                                        \
		if (s_ != CUBLAS_STATUS_SUCCESS)                                   \
			die("%s failed: %s (%s:%d)", #call, cublasGetStatusString(s_), \
			    __FILE__, __LINE__);                                   \
	} while (0)

// After a kernel launch: launch-configuration errors (execution errors
// surface at the next synchronising call, which names itself).
#define CKL(name)                                                                 \
	do {                                                                      \
		cudaError_t e_ = cudaGetLastError();                              \
		if (e_ != cudaSuccess)                                            \
			die("%s launch failed: %s (%s:%d)", name, cudaGetErrorString(e_), \
			    __FILE__, __LINE__);                                  \
	} while (0)

/* ------------------------------------------------------------------ */
/* PRNG: splitmix64 seeding + xoshiro256** (self-written, no GSL).     */

struct Rng {
	uint64_t s[4];
	explicit Rng(uint64_t seed)
	{
		for (int i = 0; i < 4; i++) {
			seed += 0x9e3779b97f4a7c15ULL;
			uint64_t z = seed;
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
			s[i] = z ^ (z >> 31);
		}
	}
	static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
	uint64_t next()
	{
		uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
		s[2] ^= s[0];
		s[3] ^= s[1];
		s[1] ^= s[2];
		s[0] ^= s[3];
		s[2] ^= t;
		s[3] = rotl(s[3], 45);
		return r;
	}
	double uniform() { return (double)(next() >> 11) * (1.0 / 9007199254740992.0); } // [0,1)
	uint32_t below(uint32_t n) { return (uint32_t)(uniform() * n); }
	double gauss(double sd) // Box-Muller
	{
		double u = 1.0 - uniform(), v = uniform();
		return sd * std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
	}
};

/* ------------------------------------------------------------------ */
/* Word counting: the tokenizer, hash and table are kernels.cuh's.     */

static const int VOCAB = 50000;         // Zipf vocabulary (ranks 1..VOCAB)
static const double ZIPF_S = 1.0;       // Zipf exponent
static const unsigned TABLE_CAP = CUK_TABLE_CAP;
static const int WC_MAX_MIB = 64;       // largest text / record buffer
typedef cuk_rec Rec;

// Thread per byte (grid-stride): a thread whose byte starts a word hashes
// the word and adds it to the table.
__global__ void k_wordcount_map(const unsigned char *__restrict__ text, size_t n, cuk_table t)
{
	cuk_wc_map_thread(text, n, t, (size_t)blockIdx.x * blockDim.x + threadIdx.x,
			  (size_t)blockDim.x * gridDim.x);
}

__global__ void k_wordcount_reduce(const Rec *__restrict__ rec, size_t n, cuk_table t)
{
	cuk_wc_reduce_thread(rec, n, t, (size_t)blockIdx.x * blockDim.x + threadIdx.x,
			     (size_t)blockDim.x * gridDim.x);
}

__global__ void k_compact(cuk_table t)
{
	cuk_wc_compact_at(t, (size_t)blockIdx.x * blockDim.x + threadIdx.x);
}

/* MLP step kernels: one thread per element (kernels.cuh's cuk_*_at).   */

__global__ void k_bias_relu(const float *__restrict__ Z, const float *__restrict__ b, float *H,
			    int rows, int n)
{
	cuk_bias_relu_at(Z, b, H, rows, n, blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void k_softmax_xent(const float *__restrict__ Z, const float *__restrict__ b,
			       const int *__restrict__ y, float *D, float *loss, int B)
{
	cuk_softmax_xent_at(Z, b, y, D, loss, B, blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void k_relu_back(const float *__restrict__ dH, float *H, int n)
{
	cuk_relu_back_at(dH, H, n, blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void k_bias_grad(const float *__restrict__ D, float *g, int rows, int B)
{
	cuk_bias_grad_at(D, g, rows, B, blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void k_sgd(float *p, const float *__restrict__ g, int n, float lr)
{
	cuk_sgd_at(p, g, n, lr, blockIdx.x * blockDim.x + threadIdx.x);
}

// kernels.cuh's executor on the device: each call launches on stream s
// (launch errors checked at once; execution errors surface at the next
// synchronising call), gemm is cuBLAS sgemm (plain FP32, default math
// mode) on handle h.  host_exec.h's cuk_host_exec is the same interface
// run sequentially on the host.
struct cuda_exec {
	cudaStream_t s = 0;
	cublasHandle_t h = nullptr;

	void zero(void *p, size_t bytes) { CK(cudaMemsetAsync(p, 0, bytes, s)); }
	void wc_map(int grid, int block, const unsigned char *text, size_t n, cuk_table t)
	{
		k_wordcount_map<<<grid, block, 0, s>>>(text, n, t);
		CKL("k_wordcount_map");
	}
	void wc_reduce(int grid, int block, const Rec *rec, size_t n, cuk_table t)
	{
		k_wordcount_reduce<<<grid, block, 0, s>>>(rec, n, t);
		CKL("k_wordcount_reduce");
	}
	void wc_compact(int grid, int block, cuk_table t)
	{
		k_compact<<<grid, block, 0, s>>>(t);
		CKL("k_compact");
	}
	void bias_relu(int grid, int block, const float *Z, const float *b, float *H, int rows,
		       int n)
	{
		k_bias_relu<<<grid, block, 0, s>>>(Z, b, H, rows, n);
		CKL("k_bias_relu");
	}
	void softmax_xent(int grid, int block, const float *Z, const float *b, const int *y,
			  float *D, float *loss, int B)
	{
		k_softmax_xent<<<grid, block, 0, s>>>(Z, b, y, D, loss, B);
		CKL("k_softmax_xent");
	}
	void relu_back(int grid, int block, const float *dH, float *H, int n)
	{
		k_relu_back<<<grid, block, 0, s>>>(dH, H, n);
		CKL("k_relu_back");
	}
	void bias_grad(int grid, int block, const float *D, float *g, int rows, int B)
	{
		k_bias_grad<<<grid, block, 0, s>>>(D, g, rows, B);
		CKL("k_bias_grad");
	}
	void sgd(int grid, int block, float *p, const float *g, int n, float lr)
	{
		k_sgd<<<grid, block, 0, s>>>(p, g, n, lr);
		CKL("k_sgd");
	}
	void gemm(bool ta, bool tb, int m, int n, int k, float alpha, const float *A, int lda,
		  const float *B, int ldb, float beta, float *C, int ldc)
	{
		CKB(cublasSgemm(h, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, m,
				n, k, &alpha, A, lda, B, ldb, &beta, C, ldc));
	}
};

/* ------------------------------------------------------------------ */
/* Host-side text and records.                                         */

struct Corpus {
	unsigned char *text = nullptr; // pinned, WC_MAX_MIB MiB
	size_t text_len = 0;
	Rec *recs = nullptr;           // pinned, WC_MAX_MIB MiB of records
	size_t nrecs = 0;
};

// Vocabulary word i: 0..7 random lowercase letters, then i in base 26
// (so no two are equal): the CPU's vocabulary (cal_text_zipf_law).
static std::string make_word(Rng &r, int i)
{
	std::string w;
	int extra = (int)r.below(8);
	for (int k = 0; k < extra; k++)
		w.push_back((char)('a' + r.below(26)));
	do {
		w.push_back((char)('a' + i % 26));
		i /= 26;
	} while (i);
	return w;
}

// Zipf text by the CPU's law (calibrate/cpu/wordcount.c,
// cal_text_zipf_law: 50 000 words, P(rank k) ~ 1/k^s, 5 % of words
// capitalised; after a word " " (90 %), ", " (5 %), ".\n" (3 %) or "; "
// (2 %), one uniform draw deciding both), drawn with this program's PRNG
// (no GSL): the same law, not the same bytes.  Exactly `len` bytes (the
// last word or separator may be cut).
static void gen_text(unsigned char *buf, size_t len, uint64_t seed)
{
	Rng r(seed);
	std::vector<std::string> vocab(VOCAB);
	for (int i = 0; i < VOCAB; i++)
		vocab[i] = make_word(r, i);
	std::vector<double> cdf(VOCAB);
	double acc = 0;
	for (int k = 0; k < VOCAB; k++)
		cdf[k] = acc += 1.0 / std::pow((double)(k + 1), ZIPF_S);
	for (auto &c : cdf)
		c /= acc;
	size_t pos = 0;
	while (pos < len) {
		size_t k = (size_t)(std::lower_bound(cdf.begin(), cdf.end(), r.uniform()) -
				    cdf.begin());
		if (k >= (size_t)VOCAB)
			k = VOCAB - 1;
		std::string w = vocab[k];
		double u = r.uniform();
		if (u < 0.05)
			w[0] = (char)(w[0] - 'a' + 'A');
		w += u < 0.9 ? " " : u < 0.95 ? ", " : u < 0.98 ? ".\n" : "; ";
		size_t m = std::min(w.size(), len - pos);
		memcpy(buf + pos, w.data(), m);
		pos += m;
	}
}

// A word's key (the device's: kernels.cuh).
static uint64_t host_key(const std::string &w)
{
	unsigned long long h = CUK_FNV_INIT;
	for (unsigned char c : w)
		h = cuk_fnv_step(h, c);
	return cuk_wc_final(h);
}

// Host word count by key, with its own loop over the text (the CPU
// kernel's tokenizer, kernels.cuh's cuk_wc_char); also fails on a hash collision between two
// different words (then the device count could not be checked).
static std::unordered_map<uint64_t, unsigned> host_count(const unsigned char *t, size_t n)
{
	std::unordered_map<std::string, unsigned> by_word;
	std::string w;
	for (size_t i = 0; i <= n; i++) {
		unsigned char c = i < n ? cuk_wc_char(t[i]) : 0;
		if (c) {
			w.push_back((char)c);
		} else if (!w.empty()) {
			by_word[w]++;
			w.clear();
		}
	}
	std::unordered_map<uint64_t, unsigned> by_hash;
	std::unordered_map<uint64_t, std::string> seen;
	for (auto &kv : by_word) {
		uint64_t h = host_key(kv.first);
		auto it = seen.find(h);
		if (it != seen.end())
			die("check: hash collision between words \"%s\" and \"%s\"",
			    it->second.c_str(), kv.first.c_str());
		seen[h] = kv.first;
		by_hash[h] = kv.second;
	}
	return by_hash;
}

// Partial-count records: 16 map outputs, from the host counts of the
// text's first 16 MiB, 1 MiB each, repeated until `WC_MAX_MIB` MiB of
// records; a prefix of size S MiB is the input of a reduce of size S.
static void gen_records(Corpus &c)
{
	std::vector<Rec> parts;
	for (int p = 0; p < 16; p++) {
		auto m = host_count(c.text + ((size_t)p << 20), (size_t)1 << 20);
		std::vector<Rec> v;
		for (auto &kv : m)
			v.push_back(Rec{(unsigned long long)kv.first, kv.second, 0u});
		std::sort(v.begin(), v.end(), [](const Rec &a, const Rec &b) { return a.key < b.key; });
		parts.insert(parts.end(), v.begin(), v.end());
	}
	c.nrecs = ((size_t)WC_MAX_MIB << 20) / sizeof(Rec);
	for (size_t i = 0; i < c.nrecs; i++)
		c.recs[i] = parts[i % parts.size()];
}

/* ------------------------------------------------------------------ */
/* Device word-count harness.                                          */

struct WC {
	unsigned char *d_text = nullptr;
	Rec *d_recs = nullptr;
	cuk_table t{};
	cuda_exec ex;   // stream 0, no cuBLAS
	unsigned int *h_nout = nullptr; // pinned
	Rec *h_out = nullptr;           // pinned, TABLE_CAP entries
	int grid = 0;
};

static void wc_init(WC &w, int sms)
{
	CK(cudaMalloc(&w.d_text, (size_t)WC_MAX_MIB << 20));
	CK(cudaMalloc(&w.d_recs, (size_t)WC_MAX_MIB << 20));
	CK(cudaMalloc(&w.t.keys, TABLE_CAP * sizeof(unsigned long long)));
	CK(cudaMalloc(&w.t.counts, TABLE_CAP * sizeof(unsigned int)));
	CK(cudaMalloc(&w.t.out, TABLE_CAP * sizeof(Rec)));
	CK(cudaMalloc(&w.t.nout, sizeof(unsigned int)));
	CK(cudaMalloc(&w.t.overflow, sizeof(unsigned int)));
	CK(cudaMallocHost(&w.h_nout, sizeof(unsigned int)));
	CK(cudaMallocHost(&w.h_out, TABLE_CAP * sizeof(Rec)));
	w.grid = sms * 8;
}

// One task: copy the input in, clear the table, count or merge, compact,
// copy the result out.  Returns the number of (word, count) pairs in
// w.h_out; *sec (if not null) the time between events around it all.
static unsigned wc_run(WC &w, const Corpus &c, bool map, size_t bytes, cudaEvent_t ev0,
		       cudaEvent_t ev1, double *sec)
{
	cudaStream_t s = 0;
	CK(cudaEventRecord(ev0, s));
	if (map)
		CK(cudaMemcpyAsync(w.d_text, c.text, bytes, cudaMemcpyHostToDevice, s));
	else
		CK(cudaMemcpyAsync(w.d_recs, c.recs, bytes, cudaMemcpyHostToDevice, s));
	w.ex.s = s;
	// clear the table, count or merge, compact (kernels.cuh)
	cuk_wc_task(w.ex, w.t, map ? w.d_text : nullptr, map ? nullptr : w.d_recs,
		    map ? bytes : bytes / sizeof(Rec), w.grid);
	CK(cudaMemcpyAsync(w.h_nout, w.t.nout, sizeof(unsigned int), cudaMemcpyDeviceToHost, s));
	CK(cudaStreamSynchronize(s));
	unsigned n = *w.h_nout;
	if (n > TABLE_CAP)
		die("wordcount: %u pairs in a table of %u", n, TABLE_CAP);
	CK(cudaMemcpyAsync(w.h_out, w.t.out, (size_t)n * sizeof(Rec), cudaMemcpyDeviceToHost, s));
	CK(cudaEventRecord(ev1, s));
	CK(cudaEventSynchronize(ev1));
	unsigned ovf = 0;
	CK(cudaMemcpy(&ovf, w.t.overflow, sizeof ovf, cudaMemcpyDeviceToHost));
	if (ovf)
		die("wordcount: device hash table overflow (%u slots)", TABLE_CAP);
	if (sec) {
		float ms = 0;
		CK(cudaEventElapsedTime(&ms, ev0, ev1));
		*sec = ms * 1e-3;
	}
	return n;
}

static void wc_compare(const char *what, const std::unordered_map<uint64_t, unsigned> &want,
		       const Rec *got, unsigned n)
{
	if (n != want.size())
		die("check %s: %u distinct words on the device, %zu on the host", what, n,
		    want.size());
	for (unsigned i = 0; i < n; i++) {
		auto it = want.find(got[i].key);
		if (it == want.end())
			die("check %s: device word %016llx not counted on the host", what,
			    got[i].key);
		if (it->second != got[i].count)
			die("check %s: word %016llx counted %u on the device, %u on the host",
			    what, got[i].key, got[i].count, it->second);
	}
}

static void wc_check(WC &w, const Corpus &c, cudaEvent_t e0, cudaEvent_t e1)
{
	// map: the first MiB (starts with a word, ends mid-word), and an odd
	// length that starts inside a word and in separators
	const size_t sizes[][2] = {{0, (size_t)1 << 20}, {3, 100003}};
	for (auto &sz : sizes) {
		auto want = host_count(c.text + sz[0], sz[1]);
		// the device counts from the buffer start, so copy the slice there
		Corpus tmp = c;
		tmp.text = c.text + sz[0];
		unsigned n = wc_run(w, tmp, true, sz[1], e0, e1, nullptr);
		wc_compare("wordcount_map", want, w.h_out, n);
	}
	// reduce: 1 MiB of records against a host sum
	size_t nr = ((size_t)1 << 20) / sizeof(Rec);
	std::unordered_map<uint64_t, unsigned> want;
	for (size_t i = 0; i < nr; i++)
		want[c.recs[i].key] += c.recs[i].count;
	unsigned n = wc_run(w, c, false, nr * sizeof(Rec), e0, e1, nullptr);
	wc_compare("wordcount_reduce", want, w.h_out, n);
}

/* ------------------------------------------------------------------ */
/* MNIST MLP step: 784-128-10, ReLU, softmax cross-entropy, SGD, in the  */
/* CPU kernel's layout (kernels.cuh, "mnist_step").                      */

static const int NI = CUK_NI, NH = CUK_NH, NO = CUK_NO, NP = CUK_NP;
static const int MN_POOL = 4096;   // resident synthetic samples
static const float LR = 0.05f;

struct MLP {
	cuda_exec ex;              // stream 0 and the cuBLAS handle
	float *X = nullptr;        // NI x MN_POOL, one sample per column
	int *Y = nullptr;          // MN_POOL labels
	float *P, *G;              // NP parameters (W1 | b1 | W2 | b2) and gradients
	float *Z1, *Hd, *Z2, *D2;  // NH x B, NH x B, NO x B, NO x B (Hd: hidden, then dZ1)
	float *dH;                 // NH x B
	float *loss;               // B (per-sample loss)
	std::vector<float> hx, hp; // host copies: the pool, the initial parameters
	std::vector<int> hy;
	int maxb = 0;
};

static void mlp_init(MLP &m, int maxb)
{
	m.maxb = maxb;
	CKB(cublasCreate(&m.ex.h));
	size_t nx = (size_t)NI * MN_POOL;
	m.hx.resize(nx);
	m.hy.resize(MN_POOL);
	m.hp.assign(NP, 0.f);
	Rng r(42);
	// Synthetic "images": pixels in [0,1), 20 % of them lit more for the
	// sample's class, so that the labels are learnable.
	std::vector<float> proto((size_t)NO * NI);
	for (auto &p : proto)
		p = r.uniform() < 0.2 ? 0.8f : 0.f;
	for (int j = 0; j < MN_POOL; j++) {
		m.hy[j] = (int)r.below(NO);
		for (int i = 0; i < NI; i++)
			m.hx[(size_t)j * NI + i] =
			    0.2f * (float)r.uniform() + proto[(size_t)m.hy[j] * NI + i];
	}
	// He initialisation, zero biases (as cal_mlp_new)
	float *W1 = m.hp.data(), *W2 = W1 + CUK_NW1 + NH;
	for (int i = 0; i < CUK_NW1; i++)
		W1[i] = (float)r.gauss(std::sqrt(2.0 / NI));
	for (int i = 0; i < NO * NH; i++)
		W2[i] = (float)r.gauss(std::sqrt(2.0 / NH));
	CK(cudaMalloc(&m.X, nx * sizeof(float)));
	CK(cudaMalloc(&m.Y, MN_POOL * sizeof(int)));
	CK(cudaMalloc(&m.P, NP * sizeof(float)));
	CK(cudaMalloc(&m.G, NP * sizeof(float)));
	CK(cudaMalloc(&m.Z1, (size_t)NH * maxb * sizeof(float)));
	CK(cudaMalloc(&m.Hd, (size_t)NH * maxb * sizeof(float)));
	CK(cudaMalloc(&m.dH, (size_t)NH * maxb * sizeof(float)));
	CK(cudaMalloc(&m.Z2, (size_t)NO * maxb * sizeof(float)));
	CK(cudaMalloc(&m.D2, (size_t)NO * maxb * sizeof(float)));
	CK(cudaMalloc(&m.loss, (size_t)maxb * sizeof(float)));
	CK(cudaMemcpy(m.X, m.hx.data(), nx * sizeof(float), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(m.Y, m.hy.data(), MN_POOL * sizeof(int), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(m.P, m.hp.data(), NP * sizeof(float), cudaMemcpyHostToDevice));
}

// One SGD step on samples [off, off + B) of the pool: kernels.cuh's
// sequence (5 sgemm, 6 small kernels), all on stream 0.
static void mlp_step(MLP &m, int B, int off)
{
	cuk_mlp v = {m.X + (size_t)off * NI, m.Y + off, m.P, m.G, m.Z1, m.Hd,
		     m.Z2, m.D2, m.dH, m.loss};
	cuk_mlp_step(m.ex, v, B, LR);
}

static double mlp_loss(const MLP &m, int B)
{
	std::vector<float> l(B);
	CK(cudaMemcpy(l.data(), m.loss, B * sizeof(float), cudaMemcpyDeviceToHost));
	double s = 0;
	for (float v : l)
		s += v;
	return s / B;
}

// Largest |a - b| relative to the largest |b| (1 if b is all zero).
static double max_rel(const std::vector<float> &a, const std::vector<float> &b)
{
	double err = 0, big = 0;
	for (size_t i = 0; i < a.size(); i++) {
		err = std::max(err, (double)std::fabs(a[i] - b[i]));
		big = std::max(big, (double)std::fabs(b[i]));
	}
	return err / (big > 0 ? big : 1.0);
}

// The device's first step against the same step on the host (the same
// kernels.cuh code through cuk_host_exec, which `make check` tests
// against the CPU kernel): mean loss within relative 1e-4, gradients and
// the step's parameter updates within 1e-3 of their largest magnitude
// (cuBLAS may sum in another order).  Then 30 steps on one batch must halve the loss.
static void mlp_check(MLP &m)
{
	const int B = 64, steps = 30;
	std::vector<float> hp = m.hp, hg(NP), work((size_t)(3 * NH + 2 * NO + 1) * B);
	cuk_mlp hv = {m.hx.data(), m.hy.data(), hp.data(), hg.data(), work.data(),
		      work.data() + NH * B, work.data() + 3 * NH * B, work.data() + (3 * NH + NO) * B,
		      work.data() + 2 * NH * B, work.data() + (3 * NH + 2 * NO) * B};
	cuk_host_exec host;
	cuk_mlp_step(host, hv, B, LR);
	double want = 0;
	for (int j = 0; j < B; j++)
		want += hv.loss[j];
	want /= B;

	mlp_step(m, B, 0);
	CK(cudaDeviceSynchronize());
	double first = mlp_loss(m, B);
	if (!(std::fabs(first - want) <= 1e-4 * std::max(1.0, std::fabs(want))))
		die("check mnist_step: first loss %.6f on the device, %.6f on the host", first,
		    want);
	std::vector<float> dp(NP), dg(NP);
	CK(cudaMemcpy(dp.data(), m.P, NP * sizeof(float), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(dg.data(), m.G, NP * sizeof(float), cudaMemcpyDeviceToHost));
	for (int i = 0; i < NP; i++) { // the updates, not the weights
		dp[i] -= m.hp[i];
		hp[i] -= m.hp[i];
	}
	double eg = max_rel(dg, hg), ep = max_rel(dp, hp);
	if (!(eg <= 1e-3) || !(ep <= 1e-3))
		die("check mnist_step: the device's gradients (%.2g) or updates (%.2g) differ from "
		    "the host's by more than 1e-3 of their largest value",
		    eg, ep);
	for (int s = 1; s < steps; s++)
		mlp_step(m, B, 0);
	CK(cudaDeviceSynchronize());
	double last = mlp_loss(m, B);
	if (!std::isfinite(last) || !(last < 0.5 * first))
		die("check mnist_step: loss %.4f -> %.4f after %d steps on one batch, expected "
		    "it to halve",
		    first, last, steps);
	fprintf(stderr,
		"%s: check mnist_step: first step as the host build (gradients %.1e, updates "
		"%.1e), loss %.4f -> %.4f in %d steps, ok\n",
		prog, eg, ep, first, last, steps);
}

/* ------------------------------------------------------------------ */

struct Sample {
	const char *kernel;
	int size;
	int repeat;
	double sec;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-o FILE] [--quick] [--kernels LIST] [--repeats N]\n"
		"       %s --print-device\n"
		"Measure hetsim's GPU kernels on CUDA device 0 (CUDA_VISIBLE_DEVICES picks it)\n"
		"and write CSV samples: kernel,device,size,repeat,seconds.\n"
		"  -o FILE         write the samples to FILE, their provenance to FILE.meta\n"
		"                  (read by hetsim calibrate --fit FILE); default: samples\n"
		"                  on stdout, provenance on stderr\n"
		"  --quick         4 sizes per kernel, 3 repeats\n"
		"  --kernels LIST  comma-separated subset of wordcount_map,wordcount_reduce,\n"
		"                  mnist_step (default: all)\n"
		"  --repeats N     timed repeats per size (default 11; 3 with --quick)\n"
		"  --print-device  print the device name as used in the CSV and exit\n"
		"  -h, --help      this help\n"
		"Sizes: wordcount_* 1..64 MiB (doubling), mnist_step batch 16..512 (doubling).\n",
		prog, prog);
}

static std::string slug(const char *name)
{
	std::string s;
	for (const char *p = name; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (isalnum(c))
			s.push_back((char)tolower(c));
		else if (s.empty() || s.back() != '-')
			s.push_back('-');
	}
	while (!s.empty() && s.back() == '-')
		s.pop_back();
	while (!s.empty() && s.front() == '-')
		s.erase(s.begin());
	return s.empty() ? std::string("gpu") : s;
}

// Text as a YAML double-quoted string: '"' and '\' escaped, control
// characters dropped.
static std::string yq(const std::string &t)
{
	std::string q = "\"";
	for (char c : t) {
		if (c == '"' || c == '\\')
			q.push_back('\\');
		if ((unsigned char)c >= 0x20)
			q.push_back(c);
	}
	return q + "\"";
}

// Provenance of a run: SAMPLES.csv.meta, a YAML mapping of the cost
// model's version 2 `meta` keys, with the names and formats `hetsim
// calibrate` writes (docs/scenario.md, "meta: provenance"); `hetsim
// calibrate --fit SAMPLES.csv` reads it and carries it into the model.
// machine is the host the GPU sits in; gpu (a documented key of meta) is
// the device.  Not written:
//   reference, drift  no GPU reference kernel speed is defined, so
//                     `hetsim calibrate --check` has nothing to compare
//                     for a GPU model: --check times the CPU reference
//                     kernel (wordcount-zipf-16MiB on one core), whose
//                     speed says nothing about a GPU, and a GPU one would
//                     need this program (and a GPU) on the checking
//                     machine; without one, nor is the run's drift timed;
//   timing            sizes are timed in a fixed order with fixed
//                     repeats: no seed, no adaptive repeats.
static std::string provenance(const cudaDeviceProp &prop)
{
	std::string cpu;
	if (FILE *f = fopen("/proc/cpuinfo", "r")) {
		char line[512];
		while (fgets(line, sizeof line, f))
			if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
				cpu = strchr(line, ':') + 1;
				cpu.erase(0, cpu.find_first_not_of(" \t"));
				cpu.erase(cpu.find_last_not_of(" \t\n") + 1);
				break;
			}
		fclose(f);
	}
	if (cpu.empty())
		cpu = "unknown";
	// memory as the CPU side writes it: /proc/meminfo's MemTotal in MiB
	long long mem_mib = 0;
	if (FILE *f = fopen("/proc/meminfo", "r")) {
		char line[256];
		long long kib;
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "MemTotal: %lld kB", &kib) == 1) {
				mem_mib = kib >> 10;
				break;
			}
		fclose(f);
	}
	if (mem_mib <= 0) {
		long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
		mem_mib = pages > 0 && psz > 0 ? (long long)pages * psz >> 20 : 1;
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	struct utsname u;
	std::string os = uname(&u) == 0 ? std::string(u.sysname) + " " + u.release + " " + u.machine
					: std::string("unknown");
	int bmaj = 0, bmin = 0, bpatch = 0;
	CKB(cublasGetProperty(MAJOR_VERSION, &bmaj));
	CKB(cublasGetProperty(MINOR_VERSION, &bmin));
	CKB(cublasGetProperty(PATCH_LEVEL, &bpatch));
	int drv = 0, rt = 0;
	CK(cudaDriverGetVersion(&drv));
	CK(cudaRuntimeGetVersion(&rt));
	char date[32];
	time_t now = time(nullptr);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
	char compiler[256], blas[128], cuda[160];
	snprintf(compiler, sizeof compiler, "nvcc %d.%d (host %s)", __CUDACC_VER_MAJOR__,
		 __CUDACC_VER_MINOR__,
#ifdef __VERSION__
		 "gcc " __VERSION__
#else
		 "C++ compiler"
#endif
	);
	snprintf(blas, sizeof blas, "cuBLAS %d.%d.%d (FP32, default math mode)", bmaj, bmin,
		 bpatch);
	snprintf(cuda, sizeof cuda, "compute capability %d.%d, %d SMs, driver %d.%d, runtime %d.%d",
		 prop.major, prop.minor, prop.multiProcessorCount, drv / 1000, (drv % 1000) / 10,
		 rt / 1000, (rt % 1000) / 10);
	std::string m =
		"# Provenance of the samples beside it (hetsim-cuda-cal): the cost model's\n"
		"# version 2 meta keys (docs/scenario.md, \"meta: provenance\"); hetsim\n"
		"# calibrate --fit carries them into the model it fits.\n"
		"source: \"hetsim-cuda-cal (cuda backend)\"\n";
	m += "machine: {cpu: " + yq(cpu) + ", cores: " + std::to_string(cores > 0 ? cores : 1) +
	     ", memory: " + std::to_string(mem_mib) + "MiB}\n";
	m += "gpu: {name: " + yq(prop.name) + ", memory: " +
	     std::to_string((long long)(prop.totalGlobalMem >> 20)) + "MiB, cuda: " + yq(cuda) +
	     "}\n";
	m += "os: " + yq(os) + "\n";
	m += "compiler: " + yq(compiler) + "\n";
	m += "blas: " + yq(blas) + "\n";
	m += "date: " + std::string(date) + "\n";
	m += "# One copy at a time: in hetsim's model a task holds a whole GPU (device\n"
	     "# holds), so tasks never share one and k = 1 is all there is to measure;\n"
	     "# concurrent streams would be measured if tasks ever shared a GPU.\n"
	     "contention_k: [1, 1]\n"
	     "# one host thread launches each kernel (the GPU's own threads are its SMs')\n"
	     "threads: 1\n"
	     "backend: cuda\n";
	return m;
}

static const char *KERNELS[] = {"wordcount_map", "wordcount_reduce", "mnist_step"};

int main(int argc, char **argv)
{
	const char *out = nullptr;
	bool quick = false, print_device = false;
	int repeats = -1;
	bool want[3] = {true, true, true};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "-o")) {
			if (++i >= argc)
				die("-o needs a file name (see -h)");
			out = argv[i];
		} else if (!strcmp(a, "--quick")) {
			quick = true;
		} else if (!strcmp(a, "--print-device")) {
			print_device = true;
		} else if (!strcmp(a, "--repeats")) {
			if (++i >= argc)
				die("--repeats needs a number (see -h)");
			char *end;
			errno = 0;
			long v = strtol(argv[i], &end, 10);
			if (errno || *end || end == argv[i] || v < 1 || v > 100000)
				die("--repeats: '%s' is not a number from 1 to 100000", argv[i]);
			repeats = (int)v;
		} else if (!strcmp(a, "--kernels")) {
			if (++i >= argc)
				die("--kernels needs a list (see -h)");
			want[0] = want[1] = want[2] = false;
			std::string list = argv[i];
			size_t p = 0;
			for (;;) {
				size_t q = list.find(',', p);
				std::string k = list.substr(p, q == std::string::npos ? q : q - p);
				int found = -1;
				for (int j = 0; j < 3; j++)
					if (k == KERNELS[j])
						found = j;
				if (found < 0)
					die("--kernels: unknown kernel '%s' (known: wordcount_map, "
					    "wordcount_reduce, mnist_step)",
					    k.c_str());
				want[found] = true;
				if (q == std::string::npos)
					break;
				p = q + 1;
			}
		} else {
			die("unknown argument '%s' (see -h)", a);
		}
	}
	if (repeats < 0)
		repeats = quick ? 3 : 11;

	int ndev = 0;
	cudaError_t e = cudaGetDeviceCount(&ndev);
	if (e != cudaSuccess)
		die("no usable CUDA device: cudaGetDeviceCount: %s", cudaGetErrorString(e));
	if (ndev < 1)
		die("no CUDA device");
	CK(cudaSetDevice(0));
	cudaDeviceProp prop;
	CK(cudaGetDeviceProperties(&prop, 0));
	std::string dev = slug(prop.name);
	if (print_device) {
		printf("%s\n", dev.c_str());
		return 0;
	}
	std::string meta = provenance(prop);
	fputs(meta.c_str(), stderr);

	cudaEvent_t e0, e1;
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	std::vector<Sample> samples;

	// Start-up checks: all kernels asked for must compute the right thing
	// before anything is measured.
	bool wc = want[0] || want[1];
	Corpus c;
	WC w;
	MLP m;
	if (wc) {
		CK(cudaMallocHost(&c.text, (size_t)WC_MAX_MIB << 20));
		CK(cudaMallocHost(&c.recs, (size_t)WC_MAX_MIB << 20));
		gen_text(c.text, (size_t)WC_MAX_MIB << 20, 12345);
		c.text_len = (size_t)WC_MAX_MIB << 20;
		gen_records(c);
		wc_init(w, prop.multiProcessorCount);
		wc_check(w, c, e0, e1);
		fprintf(stderr, "%s: check wordcount_map, wordcount_reduce: counts match the host, ok\n",
			prog);
	}
	if (want[2]) {
		mlp_init(m, 512);
		mlp_check(m);
	}

	std::vector<int> wc_sizes = quick ? std::vector<int>{1, 4, 16, 64}
					  : std::vector<int>{1, 2, 4, 8, 16, 32, 64};
	std::vector<int> mn_sizes = quick ? std::vector<int>{16, 64, 256, 512}
					  : std::vector<int>{16, 32, 64, 128, 256, 512};
	for (int k = 0; k < 2; k++) {
		if (!want[k])
			continue;
		for (int mib : wc_sizes) {
			size_t bytes = (size_t)mib << 20;
			for (int r = -2; r < repeats; r++) { // 2 warm-up runs
				double sec;
				wc_run(w, c, k == 0, bytes, e0, e1, &sec);
				if (r >= 0)
					samples.push_back(Sample{KERNELS[k], mib, r, sec});
			}
		}
	}
	if (want[2]) {
		int off = 0;
		for (int B : mn_sizes) {
			for (int r = -5; r < repeats; r++) { // 5 warm-up steps
				if (off + B > MN_POOL)
					off = 0;
				CK(cudaEventRecord(e0, 0));
				mlp_step(m, B, off);
				CK(cudaEventRecord(e1, 0));
				CK(cudaEventSynchronize(e1));
				off += B;
				float ms = 0;
				CK(cudaEventElapsedTime(&ms, e0, e1));
				if (r >= 0)
					samples.push_back(Sample{KERNELS[2], B, r, ms * 1e-3});
			}
		}
		double l = mlp_loss(m, 512);
		if (!std::isfinite(l))
			die("mnist_step: the loss became %g during the measurements", l);
	}
	CK(cudaDeviceSynchronize());

	// Write everything at the end: a failure above leaves no samples file.
	FILE *f = stdout;
	std::string tmp;
	if (out) {
		tmp = std::string(out) + ".tmp";
		f = fopen(tmp.c_str(), "w");
		if (!f)
			die("%s: %s", tmp.c_str(), strerror(errno));
	}
	fprintf(f, "kernel,device,size,repeat,seconds\n");
	for (auto &s : samples)
		fprintf(f, "%s,%s,%d,%d,%.9g\n", s.kernel, dev.c_str(), s.size, s.repeat, s.sec);
	if (out) {
		if (fclose(f) != 0)
			die("%s: %s", tmp.c_str(), strerror(errno));
		std::string mpath = std::string(out) + ".meta";
		FILE *mf = fopen(mpath.c_str(), "w");
		if (!mf || fputs(meta.c_str(), mf) < 0 || fclose(mf) != 0)
			die("%s: %s", mpath.c_str(), strerror(errno));
		if (rename(tmp.c_str(), out) != 0)
			die("rename %s -> %s: %s", tmp.c_str(), out, strerror(errno));
		fprintf(stderr, "%s: %zu samples in %s, provenance in %s\n", prog, samples.size(),
			out, mpath.c_str());
	} else if (fflush(stdout) != 0) {
		die("stdout: %s", strerror(errno));
	}
	return 0;
}
