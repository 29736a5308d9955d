/* bench_stats: summary statistics of repeated timings. */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>

typedef struct bench_stats {
    size_t count;
    double min, median, mean, stddev; /* stddev: sample (n-1); 0 when count < 2 */
    double rse;                       /* relative standard error of the median; 1 when unknown */
} bench_stats;

/* Computes the statistics of v[0..n-1] (v is not modified). n may be 0:
 * then everything is 0 and rse is 1. */
bench_stats bench_stats_of(const double *v, size_t n);

#endif
