/* mlp.c - the mnist_step kernel: one SGD step of TensorFlowOnSpark's
 * mnist_spark model, a 784-128-10 MLP (ReLU hidden layer, softmax
 * cross-entropy), in double precision with GSL's CBLAS (gsl_blas_dgemm,
 * single-threaded gslcblas unless another CBLAS is linked), and the data
 * it trains on: Fashion-MNIST's IDX files, or Gaussian blobs.
 */
#include "cal.h"

#include <errno.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

enum {
	IN = CAL_MLP_IN,
	HID = CAL_MLP_HID,
	OUT = CAL_MLP_OUT,
	NW1 = HID * IN,
	NP = HID * IN + HID + OUT * HID + OUT,
};

struct cal_mlp {
	double p[NP];       /* W1 (HID x IN) | b1 | W2 (OUT x HID) | b2 */
	double g[NP];       /* gradients, same layout */
	double *h, *z, *dh; /* B x HID, B x OUT, B x HID work space */
	int cap;            /* batch the work space holds */
};

#define W1(a) ((a))
#define B1(a) ((a) + NW1)
#define W2(a) ((a) + NW1 + HID)
#define B2(a) ((a) + NW1 + HID + OUT * HID)

size_t cal_mlp_nparams(void)
{
	return NP;
}

double *cal_mlp_params(struct cal_mlp *m)
{
	return m->p;
}

const double *cal_mlp_grads(const struct cal_mlp *m)
{
	return m->g;
}

struct cal_mlp *cal_mlp_new(uint64_t seed)
{
	struct cal_mlp *m = xcalloc(1, sizeof *m);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, (unsigned long)seed);
	for (int i = 0; i < NW1; i++)
		W1(m->p)[i] = gsl_ran_gaussian(r, sqrt(2.0 / IN));
	for (int i = 0; i < OUT * HID; i++)
		W2(m->p)[i] = gsl_ran_gaussian(r, sqrt(2.0 / HID));
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

/* C = alpha op(A) op(B) + beta C on row-major arrays. */
static void gemm(bool ta, bool tb, int rows, int cols, int inner, const double *a,
		 const double *b, double beta, double *c)
{
	gsl_matrix_const_view A = ta ? gsl_matrix_const_view_array(a, inner, rows)
				     : gsl_matrix_const_view_array(a, rows, inner);
	gsl_matrix_const_view B = tb ? gsl_matrix_const_view_array(b, cols, inner)
				     : gsl_matrix_const_view_array(b, inner, cols);
	gsl_matrix_view C = gsl_matrix_view_array(c, rows, cols);
	gsl_blas_dgemm(ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, 1.0,
		       &A.matrix, &B.matrix, beta, &C.matrix);
}

/* Forward pass: m->h = relu(x W1' + b1), m->z = softmax(h W2' + b2)
 * row by row.  Returns the mean cross-entropy. */
static double forward(struct cal_mlp *m, const double *x, const int *y, int b)
{
	reserve(m, b);
	for (int i = 0; i < b; i++)
		memcpy(m->h + (size_t)i * HID, B1(m->p), HID * sizeof(double));
	gemm(false, true, b, HID, IN, x, W1(m->p), 1.0, m->h);
	for (size_t i = 0; i < (size_t)b * HID; i++)
		m->h[i] = m->h[i] > 0 ? m->h[i] : 0;
	for (int i = 0; i < b; i++)
		memcpy(m->z + (size_t)i * OUT, B2(m->p), OUT * sizeof(double));
	gemm(false, true, b, OUT, HID, m->h, W2(m->p), 1.0, m->z);
	double loss = 0;
	for (int i = 0; i < b; i++) {
		double *z = m->z + (size_t)i * OUT, mx = z[0], sum = 0;
		for (int k = 1; k < OUT; k++)
			mx = z[k] > mx ? z[k] : mx;
		for (int k = 0; k < OUT; k++)
			sum += (z[k] = exp(z[k] - mx));
		for (int k = 0; k < OUT; k++)
			z[k] /= sum;
		if (y)
			loss -= log(z[y[i]] > 1e-300 ? z[y[i]] : 1e-300);
	}
	return loss / b;
}

double cal_mlp_loss(struct cal_mlp *m, const double *x, const int *y, int b)
{
	return forward(m, x, y, b);
}

double cal_mlp_grad(struct cal_mlp *m, const double *x, const int *y, int b)
{
	double loss = forward(m, x, y, b);
	/* dZ = (P - onehot(y)) / b, in place of P */
	for (int i = 0; i < b; i++) {
		double *z = m->z + (size_t)i * OUT;
		z[y[i]] -= 1.0;
		for (int k = 0; k < OUT; k++)
			z[k] /= b;
	}
	gemm(true, false, OUT, HID, b, m->z, m->h, 0.0, W2(m->g)); /* dW2 = dZ' H */
	memset(B2(m->g), 0, OUT * sizeof(double));
	for (int i = 0; i < b; i++)
		for (int k = 0; k < OUT; k++)
			B2(m->g)[k] += m->z[(size_t)i * OUT + k];
	gemm(false, false, b, HID, OUT, m->z, W2(m->p), 0.0, m->dh); /* dH = dZ W2 */
	for (size_t i = 0; i < (size_t)b * HID; i++)
		if (m->h[i] <= 0)
			m->dh[i] = 0;
	gemm(true, false, HID, IN, b, m->dh, x, 0.0, W1(m->g)); /* dW1 = dH' X */
	memset(B1(m->g), 0, HID * sizeof(double));
	for (int i = 0; i < b; i++)
		for (int k = 0; k < HID; k++)
			B1(m->g)[k] += m->dh[(size_t)i * HID + k];
	return loss;
}

double cal_mlp_step(struct cal_mlp *m, const double *x, const int *y, int b, double lr)
{
	double loss = cal_mlp_grad(m, x, y, b);
	gsl_vector_view p = gsl_vector_view_array(m->p, NP);
	gsl_vector_const_view g = gsl_vector_const_view_array(m->g, NP);
	gsl_blas_daxpy(-lr, &g.vector, &p.vector);
	return loss;
}

double cal_mlp_accuracy(struct cal_mlp *m, const double *x, const int *y, int n)
{
	int right = 0;
	for (int at = 0; at < n; at += 256) {
		int b = n - at < 256 ? n - at : 256;
		forward(m, x + (size_t)at * IN, NULL, b);
		for (int i = 0; i < b; i++) {
			const double *z = m->z + (size_t)i * OUT;
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
			d->x[(size_t)i * IN + k] = centre[c * IN + k] + gsl_ran_gaussian_ziggurat(r, 1.0);
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
		d->x[i] = im[16 + i] / 255.0;
	for (uint32_t i = 0; i < n; i++)
		d->y[i] = lb[8 + i] < OUT ? lb[8 + i] : 0;
	free(im);
	free(lb);
	return 0;
}
