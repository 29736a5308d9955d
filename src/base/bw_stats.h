/* bw_stats: the order statistics the measuring, modelling and reporting
 * layers share, so that a median means the same thing in every figure. */
#ifndef BW_STATS_H
#define BW_STATS_H

#include <stddef.h>

/* qsort's comparison of two doubles, ascending (no NAN in the array). */
int bw_stats_cmp_double(const void *a, const void *b);

/* The median of v's n values: the middle one, or the mean of the middle
 * two for an even n. Sorts v in place (callers that keep their order pass
 * a copy); 0 when n is 0. */
double bw_median(double *v, size_t n);

#endif
