/* bw_stats: the ascending comparison of doubles and the median that every
 * layer shares (bw_stats.h). */
#include "bw_stats.h"

#include <stdlib.h>

int bw_stats_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bw_median(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, bw_stats_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
