/* gavel_lp.c - gavel's program over classes of jobs, solved with GLPK's
 * simplex (gavel_lp.h says what it is).  Its size is that of the
 * classes, not the jobs: 2 C + K rows and up to C K + 1 columns. */
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gavel_lp.h"
#include "util.h"

bool gav_lp_solve(int C, int K, const double *a, const int *n, const double *s,
		  const double *cap, double *x, double *t_out, double *eff_out)
{
	size_t nk = (size_t)C * (size_t)K;
	memset(x, 0, (nk ? nk : 1) * sizeof *x);
	if (!C || !K)
		return false;
	glp_prob *lp = glp_create_prob();
	glp_set_obj_dir(lp, GLP_MAX);
	/* rows: 1..C fairness, C+1..2C a class's time, 2C+1..2C+K capacity */
	glp_add_rows(lp, 2 * C + K);
	for (int c = 1; c <= C; c++) {
		glp_set_row_bnds(lp, c, GLP_LO, 0, 0);
		glp_set_row_bnds(lp, C + c, GLP_UP, 0, 1);
	}
	for (int k = 0; k < K; k++)
		glp_set_row_bnds(lp, 2 * C + k + 1, GLP_UP, 0, cap[k]);
	/* columns: X_c[k] where a > 0, then t */
	size_t most = 3 * nk + (size_t)C + 2;
	int *ia = xmalloc(most * sizeof *ia), *ja = xmalloc(most * sizeof *ja);
	double *ar = xmalloc(most * sizeof *ar);
	int *col = xmalloc((nk ? nk : 1) * sizeof *col); /* column -> c K + k */
	int ncols = 0, nz = 0;
	for (int c = 0; c < C; c++)
		for (int k = 0; k < K; k++) {
			size_t ck = (size_t)c * (size_t)K + (size_t)k;
			if (!(a[ck] > 0))
				continue;
			col[ncols] = (int)ck;
			int j = ++ncols;
			glp_add_cols(lp, 1);
			glp_set_col_bnds(lp, j, GLP_DB, 0, 1);
			ia[++nz] = c + 1, ja[nz] = j, ar[nz] = a[ck];
			ia[++nz] = C + c + 1, ja[nz] = j, ar[nz] = 1;
			ia[++nz] = 2 * C + k + 1, ja[nz] = j, ar[nz] = n[c] * s[c];
		}
	int tc = ncols + 1;
	glp_add_cols(lp, 1);
	glp_set_col_bnds(lp, tc, GLP_LO, 0, 0);
	glp_set_obj_coef(lp, tc, 1);
	for (int r = 1; r <= C; r++)
		ia[++nz] = r, ja[nz] = tc, ar[nz] = -1;
	glp_load_matrix(lp, nz, ia, ja, ar);
	glp_smcp parm;
	glp_init_smcp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	int ok = glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT;
	double t = 0, eff = 0;
	if (ok) { /* then the rates, the min held */
		t = glp_get_col_prim(lp, tc);
		glp_set_col_bnds(lp, tc, GLP_LO, t * (1 - 1e-9), 0);
		glp_set_obj_coef(lp, tc, 0);
		for (int j = 1; j <= ncols; j++)
			glp_set_obj_coef(lp, j, n[col[j - 1] / K] * a[col[j - 1]]);
		ok = glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT;
		eff = ok ? glp_get_obj_val(lp) : 0;
	}
	for (int j = 1; ok && j <= ncols; j++) {
		/* on a grid of 1e-9, so that the simplex's last bits do not
		 * break ties between equal shares */
		double v = round(glp_get_col_prim(lp, j) * 1e9) / 1e9;
		x[col[j - 1]] = v > 0 ? v : 0;
	}
	if (t_out)
		*t_out = ok ? t : 0;
	if (eff_out)
		*eff_out = eff;
	glp_delete_prob(lp);
	free(ia), free(ja), free(ar), free(col);
	return ok;
}
