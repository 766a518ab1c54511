/* mlp.c - the mnist_step kernel: one SGD step of TensorFlowOnSpark's
 * mnist_spark model, a 784-128-10 MLP (ReLU hidden layer, softmax
 * cross-entropy), in single precision through CBLAS's sgemm, as
 * TensorFlow's CPU kernels compute it (float32, a tuned BLAS-like GEMM):
 * OpenBLAS where the build links it, one thread (cal_blas), else GSL's
 * reference gslcblas (calibrate/README.md, "Kernels"); and the data it
 * trains on: Fashion-MNIST's IDX files, or Gaussian blobs.
 */
#include "cal.h"

#include <errno.h>
#include <gsl/gsl_cblas.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

/* OpenBLAS, where it is linked in place of gslcblas (the Makefile's
 * BLAS), says so through these; gslcblas has none of them. */
extern char *openblas_get_config(void) __attribute__((weak));
extern int openblas_get_parallel(void) __attribute__((weak));
extern int openblas_get_num_threads(void) __attribute__((weak));
extern void openblas_set_num_threads(int n) __attribute__((weak));
extern char *openblas_get_corename(void) __attribute__((weak));

bool cal_blas_generic(const char *core, bool avx2)
{
	/* OpenBLAS's x86-64 kernels with AVX2 or wider (its DYNAMIC_ARCH
	 * core names) */
	static const char *const wide[] = {"Haswell", "Zen", "SkylakeX", "Cooperlake",
					   "SapphireRapids", "Excavator"};
	if (!core || !avx2)
		return false;
	for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (strcasecmp(core, wide[i]) == 0)
			return false;
	return true;
}

bool cal_blas_fallback(char *core, size_t len)
{
	if (!openblas_get_corename)
		return false; /* gslcblas: one reference kernel everywhere */
	snprintf(core, len, "%s", openblas_get_corename());
	bool avx2 = false;
#if defined(__x86_64__) || defined(__i386__)
	__builtin_cpu_init();
	avx2 = __builtin_cpu_supports("avx2");
#endif
	return cal_blas_generic(core, avx2);
}

void cal_blas(char *desc, size_t len)
{
	if (openblas_set_num_threads)
		openblas_set_num_threads(1);
	if (!desc)
		return;
	if (!openblas_get_config) {
		snprintf(desc, len, "gslcblas");
		return;
	}
	int par = openblas_get_parallel ? openblas_get_parallel() : -1;
	int th = openblas_get_num_threads ? openblas_get_num_threads() : -1;
	snprintf(desc, len, "OpenBLAS (%s; %s, %d thread%s)", openblas_get_config(),
		 par == 0 ? "serial build" : par == 1 ? "pthreads build" : par == 2 ? "OpenMP build"
									  : "build unknown",
		 th, th == 1 ? "" : "s");
}

enum {
	IN = CAL_MLP_IN,
	HID = CAL_MLP_HID,
	OUT = CAL_MLP_OUT,
	NW1 = HID * IN,
	NP = HID * IN + HID + OUT * HID + OUT,
};

struct cal_mlp {
	float p[NP];       /* W1 (HID x IN) | b1 | W2 (OUT x HID) | b2 */
	float g[NP];       /* gradients, same layout */
	float *h, *z, *dh; /* B x HID, B x OUT, B x HID work space */
	int cap;           /* batch the work space holds */
};

#define W1(a) ((a))
#define B1(a) ((a) + NW1)
#define W2(a) ((a) + NW1 + HID)
#define B2(a) ((a) + NW1 + HID + OUT * HID)

size_t cal_mlp_nparams(void)
{
	return NP;
}

float *cal_mlp_params(struct cal_mlp *m)
{
	return m->p;
}

const float *cal_mlp_grads(const struct cal_mlp *m)
{
	return m->g;
}

struct cal_mlp *cal_mlp_new(uint64_t seed)
{
	cal_blas(NULL, 0); /* one thread: one Spark task slot */
	struct cal_mlp *m = xcalloc(1, sizeof *m);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, (unsigned long)seed);
	for (int i = 0; i < NW1; i++)
		W1(m->p)[i] = (float)gsl_ran_gaussian(r, sqrt(2.0 / IN));
	for (int i = 0; i < OUT * HID; i++)
		W2(m->p)[i] = (float)gsl_ran_gaussian(r, sqrt(2.0 / HID));
	gsl_rng_free(r);
	return m;
}

void cal_mlp_free(struct cal_mlp *m)
{
	if (!m)
		return;
	free(m->h);
	free(m->z);
	free(m->dh);
	free(m);
}

static void reserve(struct cal_mlp *m, int b)
{
	if (b <= m->cap)
		return;
	m->cap = b;
	m->h = xrealloc(m->h, (size_t)b * HID * sizeof *m->h);
	m->z = xrealloc(m->z, (size_t)b * OUT * sizeof *m->z);
	m->dh = xrealloc(m->dh, (size_t)b * HID * sizeof *m->dh);
}

/* C = op(A) op(B) + beta C on row-major float arrays: C is rows x cols,
 * the inner dimension `inner`. */
static void gemm(bool ta, bool tb, int rows, int cols, int inner, const float *a,
		 const float *b, float beta, float *c)
{
	cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
		    rows, cols, inner, 1.0f, a, ta ? rows : inner, b, tb ? inner : cols, beta, c,
		    cols);
}

/* Forward pass: m->h = relu(x W1' + b1), m->z = softmax(h W2' + b2)
 * row by row.  Returns the mean cross-entropy (summed in double: one
 * term per sample, outside the GEMMs). */
static double forward(struct cal_mlp *m, const float *x, const int *y, int b)
{
	reserve(m, b);
	for (int i = 0; i < b; i++)
		memcpy(m->h + (size_t)i * HID, B1(m->p), HID * sizeof(float));
	gemm(false, true, b, HID, IN, x, W1(m->p), 1.0f, m->h);
	for (size_t i = 0; i < (size_t)b * HID; i++)
		m->h[i] = m->h[i] > 0 ? m->h[i] : 0;
	for (int i = 0; i < b; i++)
		memcpy(m->z + (size_t)i * OUT, B2(m->p), OUT * sizeof(float));
	gemm(false, true, b, OUT, HID, m->h, W2(m->p), 1.0f, m->z);
	double loss = 0;
	for (int i = 0; i < b; i++) {
		float *z = m->z + (size_t)i * OUT, mx = z[0], sum = 0;
		for (int k = 1; k < OUT; k++)
			mx = z[k] > mx ? z[k] : mx;
		for (int k = 0; k < OUT; k++)
			sum += (z[k] = expf(z[k] - mx));
		for (int k = 0; k < OUT; k++)
			z[k] /= sum;
		if (y)
			loss -= log(z[y[i]] > 1e-30f ? z[y[i]] : 1e-30f);
	}
	return loss / b;
}

double cal_mlp_loss(struct cal_mlp *m, const float *x, const int *y, int b)
{
	return forward(m, x, y, b);
}

double cal_mlp_grad(struct cal_mlp *m, const float *x, const int *y, int b)
{
	double loss = forward(m, x, y, b);
	/* dZ = (P - onehot(y)) / b, in place of P */
	for (int i = 0; i < b; i++) {
		float *z = m->z + (size_t)i * OUT;
		z[y[i]] -= 1.0f;
		for (int k = 0; k < OUT; k++)
			z[k] /= (float)b;
	}
	gemm(true, false, OUT, HID, b, m->z, m->h, 0.0f, W2(m->g)); /* dW2 = dZ' H */
	memset(B2(m->g), 0, OUT * sizeof(float));
	for (int i = 0; i < b; i++)
		for (int k = 0; k < OUT; k++)
			B2(m->g)[k] += m->z[(size_t)i * OUT + k];
	gemm(false, false, b, HID, OUT, m->z, W2(m->p), 0.0f, m->dh); /* dH = dZ W2 */
	for (size_t i = 0; i < (size_t)b * HID; i++)
		if (m->h[i] <= 0)
			m->dh[i] = 0;
	gemm(true, false, HID, IN, b, m->dh, x, 0.0f, W1(m->g)); /* dW1 = dH' X */
	memset(B1(m->g), 0, HID * sizeof(float));
	for (int i = 0; i < b; i++)
		for (int k = 0; k < HID; k++)
			B1(m->g)[k] += m->dh[(size_t)i * HID + k];
	return loss;
}

double cal_mlp_step(struct cal_mlp *m, const float *x, const int *y, int b, double lr)
{
	double loss = cal_mlp_grad(m, x, y, b);
	cblas_saxpy(NP, (float)-lr, m->g, 1, m->p, 1);
	return loss;
}

double cal_mlp_accuracy(struct cal_mlp *m, const float *x, const int *y, int n)
{
	int right = 0;
	for (int at = 0; at < n; at += 256) {
		int b = n - at < 256 ? n - at : 256;
		forward(m, x + (size_t)at * IN, NULL, b);
		for (int i = 0; i < b; i++) {
			const float *z = m->z + (size_t)i * OUT;
			int best = 0;
			for (int k = 1; k < OUT; k++)
				best = z[k] > z[best] ? k : best;
			right += best == y[at + i];
		}
	}
	return n ? (double)right / n : 0;
}

/* ---- data ---------------------------------------------------------- */

void cal_data_free(struct cal_data *d)
{
	free(d->x);
	free(d->y);
	memset(d, 0, sizeof *d);
}

void cal_data_synthetic(struct cal_data *d, int n, uint64_t seed, int stream)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, (unsigned long)seed);
	double *centre = xmalloc((size_t)OUT * IN * sizeof *centre);
	for (int i = 0; i < OUT * IN; i++)
		centre[i] = gsl_ran_gaussian(r, 0.3);
	gsl_rng_set(r, (unsigned long)(seed * 1000003u + 7919u * (uint64_t)(stream + 1)));
	d->n = n;
	d->x = xmalloc((size_t)n * IN * sizeof *d->x);
	d->y = xmalloc((size_t)n * sizeof *d->y);
	for (int i = 0; i < n; i++) {
		int c = (int)gsl_rng_uniform_int(r, OUT);
		d->y[i] = c;
		for (int k = 0; k < IN; k++)
			d->x[(size_t)i * IN + k] =
				(float)(centre[c * IN + k] + gsl_ran_gaussian_ziggurat(r, 1.0));
	}
	free(centre);
	gsl_rng_free(r);
}

/* The whole of `path`, or of `path`.gz through `gzip -dc`; NULL if neither
 * can be read. */
static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	pid_t pid = -1;
	int fd[2];
	if (!f) {
		char gz[4200];
		snprintf(gz, sizeof gz, "%s.gz", path);
		if (access(gz, R_OK) || pipe(fd))
			return NULL;
		fflush(stdout);
		fflush(stderr);
		if ((pid = fork()) < 0) {
			close(fd[0]);
			close(fd[1]);
			return NULL;
		}
		if (pid == 0) {
			dup2(fd[1], 1);
			close(fd[0]);
			close(fd[1]);
			execlp("gzip", "gzip", "-dc", gz, (char *)NULL);
			_exit(127);
		}
		close(fd[1]);
		if (!(f = fdopen(fd[0], "rb"))) {
			close(fd[0]);
			waitpid(pid, NULL, 0);
			return NULL;
		}
	}
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0, got;
	do {
		if (n + 65536 > cap)
			buf = xrealloc(buf, cap = 2 * cap + 65536);
		got = fread(buf + n, 1, 65536, f);
		n += got;
	} while (got > 0);
	bool bad = ferror(f);
	fclose(f);
	if (pid > 0) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		bad = bad || !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	}
	if (bad) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int cal_data_fashion(struct cal_data *d, const char *dir, bool train, int max_n, char *err,
		     size_t errlen)
{
	if (!dir)
		dir = getenv("HETSIM_FASHION_MNIST");
	if (!dir || !*dir)
		dir = "/usr/share/datasets/fashion-mnist";
	const char *set = train ? "train" : "t10k";
	char ip[4200], lp[4200];
	snprintf(ip, sizeof ip, "%s/%s-images-idx3-ubyte", dir, set);
	snprintf(lp, sizeof lp, "%s/%s-labels-idx1-ubyte", dir, set);
	size_t ilen = 0, llen = 0;
	unsigned char *im = slurp(ip, &ilen), *lb = im ? slurp(lp, &llen) : NULL;
	if (!im || !lb) {
		snprintf(err, errlen, "Fashion-MNIST not found (%s[.gz])", im ? lp : ip);
		free(im);
		return -1;
	}
	uint32_t n = ilen >= 16 ? be32(im + 4) : 0;
	if (ilen < 16 || llen < 8 || be32(im) != 0x803 || be32(lb) != 0x801 || be32(im + 8) != 28 ||
	    be32(im + 12) != 28 || be32(lb + 4) != n || n == 0 || ilen < 16 + (size_t)n * IN ||
	    llen < 8 + (size_t)n) {
		snprintf(err, errlen, "%s: not a Fashion-MNIST IDX pair", ip);
		free(im);
		free(lb);
		return -1;
	}
	if (max_n > 0 && (uint32_t)max_n < n)
		n = (uint32_t)max_n;
	d->n = (int)n;
	d->x = xmalloc((size_t)n * IN * sizeof *d->x);
	d->y = xmalloc((size_t)n * sizeof *d->y);
	for (size_t i = 0; i < (size_t)n * IN; i++)
		d->x[i] = im[16 + i] / 255.0f;
	for (uint32_t i = 0; i < n; i++)
		d->y[i] = lb[8 + i] < OUT ? lb[8 + i] : 0;
	free(im);
	free(lb);
	return 0;
}
