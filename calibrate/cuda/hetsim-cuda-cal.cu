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

#include <cuda_runtime.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

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
};

/* ------------------------------------------------------------------ */
/* Word counting: shared definitions.                                  */

// A word is a maximal run of bytes that are not ' ', '\n', '\t', '\r'.
// Words are identified by their 64-bit FNV-1a hash (0 is the empty slot,
// a hash of 0 becomes 1): with a 50 000-word vocabulary a collision has a
// probability of ~1e-10, and the start-up check would report it.
__host__ __device__ static inline bool is_sep(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

__host__ __device__ static inline uint64_t fnv_step(uint64_t h, unsigned char c)
{
	return (h ^ c) * 0x100000001b3ULL;
}
static const uint64_t FNV_INIT = 0xcbf29ce484222325ULL;

static const int VOCAB = 50000;         // Zipf vocabulary (ranks 1..VOCAB)
static const double ZIPF_S = 1.0;       // Zipf exponent
static const unsigned TABLE_BITS = 18;  // device hash table: 2^18 slots
static const unsigned TABLE_CAP = 1u << TABLE_BITS;
static const int WC_MAX_MIB = 64;       // largest text / record buffer

struct Rec {                // one partial count, as a map task emits it
	unsigned long long key; // word hash
	unsigned int count;
	unsigned int pad;
};
static_assert(sizeof(Rec) == 16, "Rec is 16 bytes");

struct Table {              // device hash table, open addressing
	unsigned long long *keys;
	unsigned int *counts;
	Rec *out;               // compacted (key, count) pairs
	unsigned int *nout;     // number of pairs in out
	unsigned int *overflow; // set when an insert found no slot
};

__device__ static inline void table_add(Table t, unsigned long long key, unsigned int n)
{
	unsigned int slot = (unsigned int)(key ^ (key >> 29)) & (TABLE_CAP - 1);
	for (unsigned int probe = 0; probe < TABLE_CAP; probe++) {
		unsigned long long k = t.keys[slot];
		if (k == 0ULL)
			k = atomicCAS(&t.keys[slot], 0ULL, key);
		if (k == 0ULL || k == key) {
			atomicAdd(&t.counts[slot], n);
			return;
		}
		slot = (slot + 1) & (TABLE_CAP - 1);
	}
	atomicExch(t.overflow, 1u);
}

// Thread per byte (grid-stride): a thread whose byte starts a word hashes
// the word and adds it to the table.
__global__ void k_wordcount_map(const unsigned char *__restrict__ text, size_t n, Table t)
{
	size_t stride = (size_t)blockDim.x * gridDim.x;
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		unsigned char c = text[i];
		if (is_sep(c) || (i > 0 && !is_sep(text[i - 1])))
			continue;
		uint64_t h = FNV_INIT;
		for (size_t j = i; j < n && !is_sep(text[j]); j++)
			h = fnv_step(h, text[j]);
		table_add(t, h ? h : 1ULL, 1u);
	}
}

__global__ void k_wordcount_reduce(const Rec *__restrict__ rec, size_t n, Table t)
{
	size_t stride = (size_t)blockDim.x * gridDim.x;
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		table_add(t, rec[i].key, rec[i].count);
}

__global__ void k_compact(Table t)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= TABLE_CAP || t.keys[i] == 0ULL)
		return;
	unsigned int j = atomicAdd(t.nout, 1u);
	Rec r;
	r.key = t.keys[i];
	r.count = t.counts[i];
	r.pad = 0;
	t.out[j] = r;
}

/* ------------------------------------------------------------------ */
/* Host-side text and records.                                         */

struct Corpus {
	unsigned char *text = nullptr; // pinned, WC_MAX_MIB MiB
	size_t text_len = 0;
	Rec *recs = nullptr;           // pinned, WC_MAX_MIB MiB of records
	size_t nrecs = 0;
};

static std::string make_word(Rng &r)
{
	int len = 2 + (int)r.below(9); // 2..10 letters
	std::string w;
	for (int i = 0; i < len; i++)
		w.push_back((char)('a' + r.below(26)));
	return w;
}

// Zipf text: words drawn with P(rank k) ~ 1/k^s, separated by a space,
// a newline after every 8..15 words.  Exactly `len` bytes (the last word
// may be cut).
static void gen_text(unsigned char *buf, size_t len, uint64_t seed)
{
	Rng r(seed);
	std::vector<std::string> vocab(VOCAB);
	for (auto &w : vocab)
		w = make_word(r);
	std::vector<double> cdf(VOCAB);
	double acc = 0;
	for (int k = 0; k < VOCAB; k++)
		cdf[k] = acc += 1.0 / std::pow((double)(k + 1), ZIPF_S);
	for (auto &c : cdf)
		c /= acc;
	size_t pos = 0;
	int line = 0, line_len = 8 + (int)r.below(8);
	while (pos < len) {
		double u = r.uniform();
		size_t k = (size_t)(std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
		if (k >= (size_t)VOCAB)
			k = VOCAB - 1;
		const std::string &w = vocab[k];
		size_t m = std::min(w.size(), len - pos);
		memcpy(buf + pos, w.data(), m);
		pos += m;
		if (pos < len) {
			if (++line == line_len) {
				buf[pos++] = '\n';
				line = 0;
				line_len = 8 + (int)r.below(8);
			} else {
				buf[pos++] = ' ';
			}
		}
	}
}

static uint64_t host_hash(const unsigned char *p, size_t n)
{
	uint64_t h = FNV_INIT;
	for (size_t i = 0; i < n; i++)
		h = fnv_step(h, p[i]);
	return h ? h : 1ULL;
}

// Host word count by hash; also fails on a hash collision between two
// different words (then the device count could not be checked).
static std::unordered_map<uint64_t, unsigned> host_count(const unsigned char *t, size_t n)
{
	std::unordered_map<std::string, unsigned> by_word;
	size_t i = 0;
	while (i < n) {
		while (i < n && is_sep(t[i]))
			i++;
		size_t j = i;
		while (j < n && !is_sep(t[j]))
			j++;
		if (j > i)
			by_word[std::string((const char *)t + i, j - i)]++;
		i = j;
	}
	std::unordered_map<uint64_t, unsigned> by_hash;
	std::unordered_map<uint64_t, std::string> seen;
	for (auto &kv : by_word) {
		uint64_t h = host_hash((const unsigned char *)kv.first.data(), kv.first.size());
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
	Table t{};
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
	CK(cudaMemsetAsync(w.t.keys, 0, TABLE_CAP * sizeof(unsigned long long), s));
	CK(cudaMemsetAsync(w.t.counts, 0, TABLE_CAP * sizeof(unsigned int), s));
	CK(cudaMemsetAsync(w.t.nout, 0, sizeof(unsigned int), s));
	CK(cudaMemsetAsync(w.t.overflow, 0, sizeof(unsigned int), s));
	if (map)
		k_wordcount_map<<<w.grid, 256, 0, s>>>(w.d_text, bytes, w.t);
	else
		k_wordcount_reduce<<<w.grid, 256, 0, s>>>(w.d_recs, bytes / sizeof(Rec), w.t);
	CKL("wordcount kernel");
	k_compact<<<TABLE_CAP / 256, 256, 0, s>>>(w.t);
	CKL("k_compact");
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
/* MNIST MLP step: 784-128-10, ReLU, softmax cross-entropy, SGD.       */
/* Column-major (cuBLAS): X is 784 x B, one sample per column.         */

static const int NI = 784, NH = 128, NO = 10;
static const int MN_POOL = 4096;   // resident synthetic samples
static const float LR = 0.05f;

struct MLP {
	cublasHandle_t h = nullptr;
	float *X = nullptr;        // NI x MN_POOL
	int *Y = nullptr;          // MN_POOL labels
	float *W1, *b1, *W2, *b2;  // NH x NI, NH, NO x NH, NO
	float *Z1, *Hd, *Z2, *D2;  // NH x B, NH x B, NO x B, NO x B (Hd: hidden, then dZ1)
	float *dH;                 // NH x B
	float *loss;               // B (per-sample loss)
	int maxb = 0;
};

// Z1 += b1, H = relu(Z1)
__global__ void k_bias_relu(const float *__restrict__ Z, const float *__restrict__ b, float *H,
			    int rows, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = Z[i] + b[i % rows];
		H[i] = v > 0.f ? v : 0.f;
	}
}

// One thread per sample: softmax of Z2 + b2, per-sample loss, dZ2 = (p - y)/B.
__global__ void k_softmax_xent(const float *__restrict__ Z, const float *__restrict__ b,
			       const int *__restrict__ y, float *D, float *loss, int B)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	if (j >= B)
		return;
	float z[NO], p[NO], m = -INFINITY, sum = 0.f;
	for (int k = 0; k < NO; k++) {
		z[k] = Z[j * NO + k] + b[k];
		m = fmaxf(m, z[k]);
	}
	for (int k = 0; k < NO; k++) {
		p[k] = expf(z[k] - m);
		sum += p[k];
	}
	int yj = y[j];
	for (int k = 0; k < NO; k++)
		D[j * NO + k] = (p[k] / sum - (k == yj ? 1.f : 0.f)) / (float)B;
	loss[j] = logf(sum) - (z[yj] - m);
}

// dZ1 = dH where the hidden unit was active (H > 0), in place into H.
__global__ void k_relu_back(const float *__restrict__ dH, float *H, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		H[i] = H[i] > 0.f ? dH[i] : 0.f;
}

// b -= lr * row sums of D (rows x B); thread per row.
__global__ void k_bias_update(const float *__restrict__ D, float *b, int rows, int B, float lr)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float s = 0.f;
	for (int j = 0; j < B; j++)
		s += D[j * rows + r];
	b[r] -= lr * s;
}

static void mlp_init(MLP &m, int maxb)
{
	m.maxb = maxb;
	CKB(cublasCreate(&m.h));
	size_t nx = (size_t)NI * MN_POOL;
	std::vector<float> hx(nx), hw1((size_t)NH * NI), hw2((size_t)NO * NH);
	std::vector<int> hy(MN_POOL);
	Rng r(42);
	// Synthetic "images": pixels in [0,1), 20 % of them lit more for the
	// sample's class, so that the labels are learnable.
	std::vector<float> proto((size_t)NO * NI);
	for (auto &p : proto)
		p = r.uniform() < 0.2 ? 0.8f : 0.f;
	for (int j = 0; j < MN_POOL; j++) {
		hy[j] = (int)r.below(NO);
		for (int i = 0; i < NI; i++)
			hx[(size_t)j * NI + i] =
			    0.2f * (float)r.uniform() + proto[(size_t)hy[j] * NI + i];
	}
	float a1 = std::sqrt(6.f / NI), a2 = std::sqrt(6.f / NH);
	for (auto &w : hw1)
		w = a1 * (2.f * (float)r.uniform() - 1.f);
	for (auto &w : hw2)
		w = a2 * (2.f * (float)r.uniform() - 1.f);
	CK(cudaMalloc(&m.X, nx * sizeof(float)));
	CK(cudaMalloc(&m.Y, MN_POOL * sizeof(int)));
	CK(cudaMalloc(&m.W1, hw1.size() * sizeof(float)));
	CK(cudaMalloc(&m.W2, hw2.size() * sizeof(float)));
	CK(cudaMalloc(&m.b1, NH * sizeof(float)));
	CK(cudaMalloc(&m.b2, NO * sizeof(float)));
	CK(cudaMalloc(&m.Z1, (size_t)NH * maxb * sizeof(float)));
	CK(cudaMalloc(&m.Hd, (size_t)NH * maxb * sizeof(float)));
	CK(cudaMalloc(&m.dH, (size_t)NH * maxb * sizeof(float)));
	CK(cudaMalloc(&m.Z2, (size_t)NO * maxb * sizeof(float)));
	CK(cudaMalloc(&m.D2, (size_t)NO * maxb * sizeof(float)));
	CK(cudaMalloc(&m.loss, (size_t)maxb * sizeof(float)));
	CK(cudaMemcpy(m.X, hx.data(), nx * sizeof(float), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(m.Y, hy.data(), MN_POOL * sizeof(int), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(m.W1, hw1.data(), hw1.size() * sizeof(float), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(m.W2, hw2.data(), hw2.size() * sizeof(float), cudaMemcpyHostToDevice));
	CK(cudaMemset(m.b1, 0, NH * sizeof(float)));
	CK(cudaMemset(m.b2, 0, NO * sizeof(float)));
}

// One SGD step on samples [off, off + B) of the pool.  All on stream 0.
static void mlp_step(MLP &m, int B, int off)
{
	const float one = 1.f, zero = 0.f, mlr = -LR;
	const float *X = m.X + (size_t)off * NI;
	const int *Y = m.Y + off;
	int nh = NH * B;
	// forward
	CKB(cublasSgemm(m.h, CUBLAS_OP_N, CUBLAS_OP_N, NH, B, NI, &one, m.W1, NH, X, NI, &zero,
			m.Z1, NH));
	k_bias_relu<<<(nh + 255) / 256, 256>>>(m.Z1, m.b1, m.Hd, NH, nh);
	CKL("k_bias_relu");
	CKB(cublasSgemm(m.h, CUBLAS_OP_N, CUBLAS_OP_N, NO, B, NH, &one, m.W2, NO, m.Hd, NH,
			&zero, m.Z2, NO));
	k_softmax_xent<<<(B + 127) / 128, 128>>>(m.Z2, m.b2, Y, m.D2, m.loss, B);
	CKL("k_softmax_xent");
	// backward: dH = W2^T dZ2 before W2 changes
	CKB(cublasSgemm(m.h, CUBLAS_OP_T, CUBLAS_OP_N, NH, B, NO, &one, m.W2, NO, m.D2, NO,
			&zero, m.dH, NH));
	// W2 -= lr dZ2 H^T ; b2 -= lr rowsum(dZ2)
	CKB(cublasSgemm(m.h, CUBLAS_OP_N, CUBLAS_OP_T, NO, NH, B, &mlr, m.D2, NO, m.Hd, NH, &one,
			m.W2, NO));
	k_bias_update<<<1, 32>>>(m.D2, m.b2, NO, B, LR);
	CKL("k_bias_update b2");
	k_relu_back<<<(nh + 255) / 256, 256>>>(m.dH, m.Hd, nh);
	CKL("k_relu_back");
	// W1 -= lr dZ1 X^T ; b1 -= lr rowsum(dZ1)
	CKB(cublasSgemm(m.h, CUBLAS_OP_N, CUBLAS_OP_T, NH, NI, B, &mlr, m.Hd, NH, X, NI, &one,
			m.W1, NH));
	k_bias_update<<<1, NH>>>(m.Hd, m.b1, NH, B, LR);
	CKL("k_bias_update b1");
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

// Host forward pass of the current weights on samples [0, B): mean loss.
static double host_loss(const MLP &m, int B)
{
	std::vector<float> X((size_t)NI * B), W1((size_t)NH * NI), W2((size_t)NO * NH), b1(NH),
	    b2(NO);
	std::vector<int> Y(B);
	CK(cudaMemcpy(X.data(), m.X, X.size() * sizeof(float), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(Y.data(), m.Y, B * sizeof(int), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(W1.data(), m.W1, W1.size() * sizeof(float), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(W2.data(), m.W2, W2.size() * sizeof(float), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(b1.data(), m.b1, NH * sizeof(float), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(b2.data(), m.b2, NO * sizeof(float), cudaMemcpyDeviceToHost));
	double total = 0;
	for (int j = 0; j < B; j++) {
		double h[NH], z[NO], mx = -1e300, sum = 0;
		for (int r = 0; r < NH; r++) {
			double v = b1[r];
			for (int i = 0; i < NI; i++)
				v += (double)W1[(size_t)i * NH + r] * X[(size_t)j * NI + i];
			h[r] = v > 0 ? v : 0;
		}
		for (int k = 0; k < NO; k++) {
			double v = b2[k];
			for (int r = 0; r < NH; r++)
				v += (double)W2[(size_t)r * NO + k] * h[r];
			z[k] = v;
			mx = std::max(mx, v);
		}
		for (int k = 0; k < NO; k++)
			sum += std::exp(z[k] - mx);
		total += -(z[Y[j]] - mx - std::log(sum));
	}
	return total / B;
}

static void mlp_check(MLP &m)
{
	const int B = 64, steps = 30;
	double want = host_loss(m, B);
	mlp_step(m, B, 0);
	CK(cudaDeviceSynchronize());
	double first = mlp_loss(m, B);
	if (!(std::fabs(first - want) <= 1e-3 * std::max(1.0, std::fabs(want))))
		die("check mnist_step: first loss %.6f on the device, %.6f on the host", first,
		    want);
	double last = first;
	for (int s = 1; s < steps; s++)
		mlp_step(m, B, 0);
	CK(cudaDeviceSynchronize());
	last = mlp_loss(m, B);
	if (!std::isfinite(last) || !(last < 0.5 * first))
		die("check mnist_step: loss %.4f -> %.4f after %d steps on one batch, expected "
		    "it to halve",
		    first, last, steps);
	fprintf(stderr, "%s: check mnist_step: loss %.4f -> %.4f in %d steps, ok\n", prog, first,
		last, steps);
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
		"  -o FILE         write the samples to FILE (machine info to FILE.meta);\n"
		"                  default: samples on stdout, machine info on stderr\n"
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
	int drv = 0, rt = 0;
	CK(cudaDriverGetVersion(&drv));
	CK(cudaRuntimeGetVersion(&rt));
	char meta[1024];
	snprintf(meta, sizeof meta,
		 "gpu: \"%s\"\ndevice: %s\ncompute_capability: \"%d.%d\"\nsm_count: %d\n"
		 "memory_mib: %zu\ndriver_version: \"%d.%d\"\nruntime_version: \"%d.%d\"\n"
		 "repeats: %d\nquick: %s\n",
		 prop.name, dev.c_str(), prop.major, prop.minor, prop.multiProcessorCount,
		 (size_t)(prop.totalGlobalMem >> 20), drv / 1000, (drv % 1000) / 10, rt / 1000,
		 (rt % 1000) / 10, repeats, quick ? "true" : "false");
	fputs(meta, stderr);

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
		if (!mf || fputs(meta, mf) < 0 || fclose(mf) != 0)
			die("%s: %s", mpath.c_str(), strerror(errno));
		if (rename(tmp.c_str(), out) != 0)
			die("rename %s -> %s: %s", tmp.c_str(), out, strerror(errno));
		fprintf(stderr, "%s: %zu samples in %s, machine info in %s\n", prog, samples.size(),
			out, mpath.c_str());
	} else if (fflush(stdout) != 0) {
		die("stdout: %s", strerror(errno));
	}
	return 0;
}
