/* bench_stats: a timing series' median and robust standard error, its
 * spread (noise or drift between halves) alone or as a ratio, the
 * median's 95% interval, and the host's monotonic clock (bench_stats.h). */
#include "bench_run.h"
#include "bench_stats.h"

#include <time.h>

#include "bw_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bench_stats bench_stats_of(const double *v, size_t n)
{
    bench_stats s;
    memset(&s, 0, sizeof s);
    s.rse = 1.0;
    if (n == 0)
        return s;
    /* count, min, mean and stddev need no copy: they hold even when the
     * copy for the median cannot be made (a caller indexing by count must
     * never see 0 and overwrite its samples) */
    double sum = 0;
    s.count = n;
    s.min = v[0];
    for (size_t i = 0; i < n; i++) {
        sum += v[i];
        s.min = v[i] < s.min ? v[i] : s.min;
    }
    s.mean = sum / (double)n;
    if (n >= 2) {
        double ss = 0;
        for (size_t i = 0; i < n; i++)
            ss += (v[i] - s.mean) * (v[i] - s.mean);
        s.stddev = sqrt(ss / (double)(n - 1));
    }
    double *tmp = malloc(n * sizeof *tmp);
    if (!tmp) {
        s.median = NAN; /* unknown: never stable, never a bandwidth */
        return s;
    }
    memcpy(tmp, v, n * sizeof *tmp);
    s.median = bw_median(tmp, n);
    /* The median's standard error is sqrt(pi/2) sigma / sqrt(n) for normal
     * data. Launch times are not normal: a host hiccup slows one launch by
     * 20-90% now and then, which moves the median little but the standard
     * deviation a lot (one such launch in 13 put it at 9%, where the bulk
     * spread 0.3%). sigma is therefore the bulk's, 1.4826 x the median
     * absolute deviation (the consistent estimate for normal data), and the
     * standard deviation only where that is 0 (most samples equal). */
    for (size_t i = 0; i < n; i++)
        tmp[i] = fabs(v[i] - s.median);
    double sigma = n >= 2 ? 1.4826 * bw_median(tmp, n) : 0;
    if (!(sigma > 0))
        sigma = s.stddev;
    if (n >= 2 && s.median > 0)
        s.rse = 1.2533 * sigma / sqrt((double)n) / s.median;
    free(tmp);
    return s;
}

/* the medians of v's first and second halves (an odd middle sample in neither) */
static int halves(const double *v, size_t n, double *first, double *second)
{
    if (n < 4)
        return 0;
    bench_stats a = bench_stats_of(v, n / 2), b = bench_stats_of(v + (n + 1) / 2, n / 2);
    *first = a.median;
    *second = b.median;
    return a.count > 0 && b.count > 0 && a.median > 0 && b.median > 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int bench_stats_median_ci(const double *v, size_t n, double *lo, double *hi)
{
    *lo = *hi = NAN;
    double half = 0.98 * sqrt((double)n);
    double l = floor((double)n / 2.0 - half), u = ceil(1.0 + (double)n / 2.0 + half);
    if (l < 1)
        return 0;
    if (u > (double)n)
        u = (double)n;
    double *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return 0;
    memcpy(tmp, v, n * sizeof *tmp);
    qsort(tmp, n, sizeof *tmp, cmp_double);
    *lo = tmp[(size_t)l - 1];
    *hi = tmp[(size_t)u - 1];
    free(tmp);
    return 1;
}

double bench_stats_spread(const double *v, size_t n)
{
    double h1, h2;
    bench_stats s = bench_stats_of(v, n);
    if (!(s.median > 0) || !halves(v, n, &h1, &h2))
        return NAN;
    double noise = BENCH_SPREAD_Z * s.rse, drift = fabs(h1 - h2) / s.median;
    return noise > drift ? noise : drift;
}

double bench_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int bench_stats_noisy(double spread, double limit)
{
    return !isnan(spread) && spread > limit;
}
