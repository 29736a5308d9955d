#include "bench_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bench_stats bench_stats_of(const double *v, size_t n)
{
    bench_stats s;
    memset(&s, 0, sizeof s);
    s.rse = 1.0;
    if (n == 0)
        return s;
    double *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return s;
    memcpy(tmp, v, n * sizeof *tmp);
    qsort(tmp, n, sizeof *tmp, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += tmp[i];
    s.count = n;
    s.min = tmp[0];
    s.median = n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
    s.mean = sum / (double)n;
    if (n >= 2) {
        double ss = 0;
        for (size_t i = 0; i < n; i++)
            ss += (tmp[i] - s.mean) * (tmp[i] - s.mean);
        s.stddev = sqrt(ss / (double)(n - 1));
        /* the median's standard error is sqrt(pi/2) times the mean's for
         * normal data: 1.2533 * sigma / sqrt(n) */
        if (s.median > 0)
            s.rse = 1.2533 * s.stddev / sqrt((double)n) / s.median;
    }
    free(tmp);
    return s;
}
