/* bench_stats: summary statistics of repeated timings. */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>

#include <jansson.h>

#include "bench_result.h"

/* Computes the statistics of v[0..n-1] (v is not modified). n may be 0:
 * then everything is 0 and rse is 1. count is always n; should the copy
 * the median needs not be allocated, median is NAN and rse 1. */
bench_stats bench_stats_of(const double *v, size_t n);

/* Two medians of n samples each differ by at most this many of their
 * standard errors in 95% of runs: 1.96 x sqrt(2). */
#define BENCH_SPREAD_Z 2.77

/* How far the median of v (samples in the order measured) could move in a
 * second run, as a fraction of it: the larger of BENCH_SPREAD_Z x its
 * relative standard error (noise between launches) and the relative
 * difference between the medians of the first and the second half of v
 * (drift within the run, which the standard error does not see). NAN when
 * n < 4 (halves of fewer than 2 samples) or the median is not positive. */
double bench_stats_spread(const double *v, size_t n);

/* Whether a spread (bench_stats_spread, or a ratio's) says the machine is
 * noisy: above limit. An undefined spread (NAN: a pattern the budget cut
 * to fewer than 4 launches) is no evidence either way: counting it would
 * call a quiet machine noisy because the budget cut one pattern short. */
int bench_stats_noisy(double spread, double limit);

/* A distribution-free 95% interval for the median of v[0..n-1]: the
 * order statistics of ranks floor(n/2 - 0.98 sqrt(n)) and
 * ceil(1 + n/2 + 0.98 sqrt(n)) (1-based; the binomial(n, 1/2) bounds in
 * their normal form: at least 95% coverage). 1 with *lo and *hi set; 0
 * (both NAN) when n < 8, where the lower rank falls below 1, or out of
 * memory. v is not modified. */
int bench_stats_median_ci(const double *v, size_t n, double *lo, double *hi);

/* s as a results document's timing object (results_doc_keys.h): its
 * figures null unless valid, rse null below two launches as well. The
 * caller owns the object. */
json_t *bench_stats_json(const bench_stats *s, int valid);

#endif
