/* model_fit_priv: what only src/model and its tests use of model_fit.h:
 * splitting a ladder into plateaus, the linear and flat fits, the bank
 * curve, and fitting candidates to arbitrary curves. */
#ifndef MODEL_FIT_PRIV_H
#define MODEL_FIT_PRIV_H

#include "model_fit.h"

/* Splits one or two positive curves of n points (b may be NULL) that
 * grow with the working set (a time per load, an inverse bandwidth) into
 * at most max_steps plateaus by least squares on their logarithms, after
 * a running median of three (both curves share the knees). The number of
 * plateaus is the largest k for which the best split has every plateau
 * at least 2 points long and every plateau above the one before by at
 * least a factor min_ratio (> 1) in one curve and below it by that factor
 * in none (a farther level is never faster). A curve with no such step
 * (flat within noise) gives one plateau: no knee. A smooth ramp may be
 * cut into plateaus of that ratio: the levels are where the curve rises,
 * not a claim about the hardware's organisation. Returns n_steps; out may
 * not be NULL.
 * n < 2, a non-positive or non-finite value give 0 and leave out zeroed. */
size_t model_fit_ladder_split(const double *a, const double *b, size_t n, double min_ratio, size_t max_steps,
                              model_fit_ladder *out);

/* Least-squares fit y = a f + b over n points. Returns the sum of
 * squared residuals; *a and *b may be NULL. A constant f gives a = 0 and
 * b the mean. */
double model_fit_linear(const double *f, const double *y, size_t n, double *a, double *b);

/* Sum of squared deviations of y from its mean: the residual of the flat
 * model, which every candidate is judged against. */
double model_fit_flat_sse(const double *y, size_t n);

/* Banks: the conflict ways of w lanes reading 4-byte words at lane *
 * stride (words) from banks of `width` bytes, `banks` of them: the most
 * distinct words any one bank holds. */
double model_fit_banks_curve(double stride, int64_t banks, int64_t width, int64_t w);

/* Fits y = a f_u(x) + b for every candidate u with an arbitrary curve
 * f_u (one value per point per candidate, row-major: f[k * n + i]). */
void model_fit_candidates_f(const double *f, const double *y, size_t n, const int64_t *units, size_t n_units,
                            model_fit_candidate *out);

#endif
