/* bench_pair and bench_stats_median_ci: the paired-round ratio, its
 * interval and the reference check, on series worked out by hand. */
#include <criterion/criterion.h>
#include <math.h>

#include "bench_pair.h"
#include "bench_stats.h"

Test(bench_pair, median_interval_ranks_are_the_binomial_ones)
{
    double v[100], lo, hi;
    /* 1..n in a scrambled order (37 is prime to each n checked): the k-th smallest is k */
    static const size_t ns[] = { 7, 8, 20, 100 };
    for (size_t m = 0; m < 4; m++) {
        size_t n = ns[m];
        for (size_t i = 0; i < n; i++)
            v[i] = (double)((i * 37) % n + 1);
        int ok = bench_stats_median_ci(v, n, &lo, &hi);
        if (n == 7) {
            cr_expect_eq(ok, 0, "n = 7 has no interval (lower rank floor(3.5 - 2.59) = 0)");
            cr_expect(isnan(lo) && isnan(hi));
        } else if (n == 8) {
            /* floor(4 - 2.77) = 1, ceil(5 + 2.77) = 8 */
            cr_expect(ok && lo == 1 && hi == 8, "n = 8: [%g, %g]", lo, hi);
        } else if (n == 20) {
            /* floor(10 - 4.38) = 5, ceil(11 + 4.38) = 16 */
            cr_expect(ok && lo == 5 && hi == 16, "n = 20: [%g, %g]", lo, hi);
        } else if (n == 100) {
            /* ranks 40 and 61: the tabulated 95% interval of a median of 100 */
            cr_expect(ok && lo == 40 && hi == 61, "n = 100: [%g, %g]", lo, hi);
        }
    }
}

Test(bench_pair, ratio_pairs_by_round_and_averages_within_one)
{
    /* round 0: num 2, 4 (mean 3) over den 1: 3; round 1: num 6 over den
     * 2, 4 (mean 3): 2; round 2 has no den, round 3 no num */
    double a[] = { 2, 4, 6, 8 }, b[] = { 1, 2, 4, 5 };
    size_t ra[] = { 0, 0, 1, 2 }, rb[] = { 0, 1, 1, 3 };
    bench_pair_series num = { a, ra, NULL, 4, -1 }, den = { b, rb, NULL, 4, -1 };
    bench_pair_ci c = bench_pair_ratio(&num, &den);
    cr_expect_eq(c.rounds, 2);
    cr_expect_float_eq(c.median, 2.5, 1e-12);
    cr_expect(isnan(c.lo) && isnan(c.hi), "two rounds give no interval");
    cr_expect(isinf(bench_pair_halfwidth(&c)));
}

Test(bench_pair, a_slot_filter_keeps_one_slot)
{
    /* one series, two slots a round: the control (1) over the own (0) */
    double v[20];
    size_t rd[20];
    unsigned char sl[20];
    for (size_t k = 0; k < 10; k++) {
        v[2 * k] = 13.0;         /* own slot: 30% slower */
        v[2 * k + 1] = 10.0;     /* control */
        rd[2 * k] = rd[2 * k + 1] = k;
        sl[2 * k] = 0;
        sl[2 * k + 1] = 1;
    }
    bench_pair_series ctl = { v, rd, sl, 20, 1 }, own = { v, rd, sl, 20, 0 };
    bench_pair_ci c = bench_pair_ratio(&ctl, &own);
    cr_expect_eq(c.rounds, 10);
    cr_expect_float_eq(c.median, 10.0 / 13.0, 1e-12);
    cr_expect_float_eq(c.lo, 10.0 / 13.0, 1e-12);
    cr_expect_float_eq(c.hi, 10.0 / 13.0, 1e-12);
    cr_expect_eq(bench_pair_check(&c), BENCH_CHECK_SUSPECT);
    /* every launch, both slots: 23 / 23 each round */
    bench_pair_series all = { v, rd, sl, 20, -1 };
    c = bench_pair_ratio(&all, &all);
    cr_expect_float_eq(c.median, 1.0, 1e-12);
}

Test(bench_pair, the_check_needs_both_the_tolerance_and_the_interval)
{
    bench_pair_ci off = { 0.97, 0.96, 0.98, 20 };
    cr_expect_eq(bench_pair_check(&off), BENCH_CHECK_SUSPECT, "3%% off, interval excludes 1");
    bench_pair_ci wide = { 0.97, 0.95, 1.01, 20 };
    cr_expect_eq(bench_pair_check(&wide), BENCH_CHECK_CONSISTENT, "the interval holds 1");
    bench_pair_ci near = { 1.015, 1.01, 1.02, 20 };
    cr_expect_eq(bench_pair_check(&near), BENCH_CHECK_CONSISTENT, "within the 2%% tolerance");
    bench_pair_ci none = { 0.5, NAN, NAN, 3 };
    cr_expect_eq(bench_pair_check(&none), BENCH_CHECK_UNKNOWN);
    cr_expect_str_eq(bench_check_verdict_name(BENCH_CHECK_SUSPECT), "suspect");
    /* half-width: the larger side over the median */
    cr_expect_float_eq(bench_pair_halfwidth(&off), 0.01 / 0.97, 1e-12);
}

Test(bench_pair, no_shared_round_is_no_ratio)
{
    double a[] = { 1, 2 }, b[] = { 3 };
    size_t ra[] = { 0, 1 }, rb[] = { 5 };
    bench_pair_series num = { a, ra, NULL, 2, -1 }, den = { b, rb, NULL, 1, -1 };
    bench_pair_ci c = bench_pair_ratio(&num, &den);
    cr_expect_eq(c.rounds, 0);
    cr_expect(isnan(c.median));
    bench_pair_series empty = { NULL, NULL, NULL, 0, -1 };
    c = bench_pair_ratio(&empty, &den);
    cr_expect_eq(c.rounds, 0);
    cr_expect_eq(bench_pair_check(&c), BENCH_CHECK_UNKNOWN);
}
