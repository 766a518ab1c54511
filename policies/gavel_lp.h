/* gavel_lp.h - gavel's linear program over classes of jobs (gav_lp_
 * prefix; policies/gavel.c is its one user, tests/test_gavel_speed.c
 * checks it).
 *
 * A class is a set of jobs the program cannot tell apart: the same GPUs
 * asked s and the same normalised rates a[k] = T[m][k] / N_m on every
 * GPU model k.  With n_c jobs in class c, X_c[k] the share each of them
 * gets of model k and cap[k] the GPUs of model k, the program is
 *
 *     maximise  t
 *     s.t.      sum_k a_c[k] X_c[k] >= t          for every class c
 *               sum_k X_c[k] <= 1                 for every class c
 *               sum_c n_c s_c X_c[k] <= cap[k]    for every model k
 *               0 <= X_c[k] <= 1,  X_c[k] = 0 where a_c[k] = 0
 *
 * then, t held at its optimum (x (1 - 1e-9)), the rates
 * sum_c n_c sum_k a_c[k] X_c[k] maximised.  With every n_c = 1 it is
 * the program over the jobs themselves, row for row and column for
 * column as gavel solved it before classes (docs/policies/gavel.md).
 * Its optima are those of the job program where every job of a class
 * gets the same shares: the job program is the same under any
 * permutation of a class's jobs, so the mean of an optimum over those
 * permutations is feasible and optimal, and it is such an allocation.
 */
#ifndef HETSIM_GAVEL_LP_H
#define HETSIM_GAVEL_LP_H

#include <stdbool.h>

/* Solve the program above for C classes and K models (cold: a new
 * problem, GLPK's standard starting basis), classes in the order given.
 * a: C x K rates, row by class; n: jobs per class (each >= 1); s: GPUs
 * per class; cap: K capacities.  On success, x (C x K) holds every X_c[k]
 * on a grid of 1e-9 (so that the simplex's last bits do not break ties
 * between equal shares), *t and *eff (either may be NULL) the two
 * optima, and it returns true; if GLPK fails, x is all 0 and it returns
 * false.  Nothing is kept between calls. */
bool gav_lp_solve(int C, int K, const double *a, const int *n, const double *s,
		  const double *cap, double *x, double *t, double *eff);

#endif
