/* bench_pair and bench_stats_median_ci: the paired-round ratio, its
 * interval and the reference check, on series worked out by hand. */
#include <criterion/criterion.h>
#include <math.h>

#include "bench_pair.h"
#include "bench_round.h"
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

Test(bench_pair, each_launch_pairs_with_the_nearest_reference_launch_of_its_round)
{
    /* num (the reference) a at places 0, 5, 10, 20; den b at 4, 9, 12, 30.
     * Round 0: b 1 at 4 is nearest a 4 at 5 (not a 2 at 0): 4. Round 1:
     * b 2 at 9 and b 4 at 12 both pair with a 6 at 10: 3 and 1.5, median
     * 2.25. Round 2 has no den, round 3 no num. Median of 4 and 2.25. */
    double a[] = { 2, 4, 6, 8 }, b[] = { 1, 2, 4, 5 };
    size_t ra[] = { 0, 0, 1, 2 }, rb[] = { 0, 1, 1, 3 };
    size_t pa[] = { 0, 5, 10, 20 }, pb[] = { 4, 9, 12, 30 };
    bench_pair_series num = { a, ra, NULL, 4, -1, pa }, den = { b, rb, NULL, 4, -1, pb };
    bench_pair_ci c = bench_pair_ratio(&num, &den);
    cr_expect_eq(c.rounds, 2);
    cr_expect_float_eq(c.median, (4 + 2.25) / 2, 1e-12);
    cr_expect(isnan(c.lo) && isnan(c.hi), "two rounds give no interval");
    cr_expect(isinf(bench_pair_halfwidth(&c)));
    /* a tie (3 and 7 both 2 from 5) goes to the earlier launch: 10 / 5 */
    double ta[] = { 10, 20 }, tb[] = { 5 };
    size_t tra[] = { 0, 0 }, trb[] = { 0 }, tpa[] = { 3, 7 }, tpb[] = { 5 };
    bench_pair_series tn = { ta, tra, NULL, 2, -1, tpa }, td = { tb, trb, NULL, 1, -1, tpb };
    c = bench_pair_ratio(&tn, &td);
    cr_expect_eq(c.rounds, 1);
    cr_expect_float_eq(c.median, 2.0, 1e-12);
}

/* Identical launch times drawn from a long-tailed spread: every round has
 * the reference twice and the pattern once, all three from the same 3
 * values (rotated), so the pattern is the reference. A mean of the
 * reference's two set against the pattern's one reads them apart; the
 * nearest launch reads them equal. Worked by hand: values 10, 10, 16 (ns)
 * in rounds k = 0..8, the pattern taking the value k % 3, the reference's
 * own slot (k + 1) % 3 and its control (k + 2) % 3, at places 3k, 3k + 1,
 * 3k + 2: the pattern's nearest is always the own slot. Ratios (own over
 * pattern): 10/10, 16/10, 10/16 by k % 3, three times each: median 1. */
Test(bench_pair, identical_launches_read_as_one_whatever_the_tail)
{
    static const double vals[] = { 10, 10, 16 };
    double ref[18], pat[9];
    size_t rr[18], rp[9], pr[18], pp[9];
    unsigned char sl[18];
    for (size_t k = 0; k < 9; k++) {
        pat[k] = vals[k % 3];
        rp[k] = k;
        pp[k] = 3 * k;
        ref[2 * k] = vals[(k + 1) % 3];
        ref[2 * k + 1] = vals[(k + 2) % 3];
        rr[2 * k] = rr[2 * k + 1] = k;
        pr[2 * k] = 3 * k + 1;
        pr[2 * k + 1] = 3 * k + 2;
        sl[2 * k] = 0;
        sl[2 * k + 1] = 1;
    }
    bench_pair_series num = { ref, rr, sl, 18, -1, pr }, den = { pat, rp, NULL, 9, -1, pp };
    bench_pair_ci c = bench_pair_ratio(&num, &den);
    cr_expect_eq(c.rounds, 9);
    cr_expect_float_eq(c.median, 1.0, 1e-12);
    /* the mean of both slots would give (10+16)/2/10 = 1.3, (16+10)/2/10 = 1.3,
     * (10+10)/2/16 = 0.625 by k % 3: median 1.3 */
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
    bench_pair_series ctl = { v, rd, sl, 20, 1, NULL }, own = { v, rd, sl, 20, 0, NULL };
    bench_pair_ci c = bench_pair_ratio(&ctl, &own);
    cr_expect_eq(c.rounds, 10);
    cr_expect_float_eq(c.median, 10.0 / 13.0, 1e-12);
    cr_expect_float_eq(c.lo, 10.0 / 13.0, 1e-12);
    cr_expect_float_eq(c.hi, 10.0 / 13.0, 1e-12);
    cr_expect_eq(bench_pair_check(&c), BENCH_CHECK_SUSPECT);
    /* every launch, both slots: each launch is the nearest to itself, 1 */
    bench_pair_series all = { v, rd, sl, 20, -1, NULL };
    c = bench_pair_ratio(&all, &all);
    cr_expect_float_eq(c.median, 1.0, 1e-12);
}

Test(bench_pair, the_check_needs_the_whole_interval_past_the_tolerance)
{
    bench_pair_ci off = { 0.965, 0.955, 0.975, 20, NAN };
    cr_expect_eq(bench_pair_check(&off), BENCH_CHECK_SUSPECT, "3.5%% off, the interval below 0.98");
    bench_pair_ci above = { 1.05, 1.021, 1.09, 20, NAN };
    cr_expect_eq(bench_pair_check(&above), BENCH_CHECK_SUSPECT, "5%% fast, the interval above 1.02");
    bench_pair_ci edge = { 0.97, 0.96, 0.98, 20, NAN };
    cr_expect_eq(bench_pair_check(&edge), BENCH_CHECK_CONSISTENT, "the interval reaches 0.98");
    bench_pair_ci wide = { 0.97, 0.95, 1.01, 20, NAN };
    cr_expect_eq(bench_pair_check(&wide), BENCH_CHECK_CONSISTENT, "the interval holds 1");
    bench_pair_ci excl = { 1.072, 1.018, 1.127, 30, NAN };
    cr_expect_eq(bench_pair_check(&excl), BENCH_CHECK_CONSISTENT, "7%% off, but the interval reaches 1.018");
    bench_pair_ci near = { 1.015, 1.01, 1.02, 20, NAN };
    cr_expect_eq(bench_pair_check(&near), BENCH_CHECK_CONSISTENT, "within the 2%% tolerance");
    bench_pair_ci none = { 0.5, NAN, NAN, 3, NAN };
    cr_expect_eq(bench_pair_check(&none), BENCH_CHECK_UNKNOWN);
    cr_expect_str_eq(bench_check_verdict_name(BENCH_CHECK_SUSPECT), "suspect");
    /* half-width: the larger side over the median */
    cr_expect_float_eq(bench_pair_halfwidth(&off), 0.01 / 0.965, 1e-12);
}

Test(bench_pair, no_shared_round_is_no_ratio)
{
    double a[] = { 1, 2 }, b[] = { 3 };
    size_t ra[] = { 0, 1 }, rb[] = { 5 };
    bench_pair_series num = { a, ra, NULL, 2, -1, NULL }, den = { b, rb, NULL, 1, -1, NULL };
    bench_pair_ci c = bench_pair_ratio(&num, &den);
    cr_expect_eq(c.rounds, 0);
    cr_expect(isnan(c.median));
    bench_pair_series empty = { NULL, NULL, NULL, 0, -1, NULL };
    c = bench_pair_ratio(&empty, &den);
    cr_expect_eq(c.rounds, 0);
    cr_expect_eq(bench_pair_check(&c), BENCH_CHECK_UNKNOWN);
}

/* The spread of a paired estimate is bench_stats_spread of its rounds'
 * ratios. 8 rounds, the reference at 10 ns throughout, the pattern at 10
 * ns for four rounds and 10/1.1 for four: ratios 1 x 4 then 1.1 x 4,
 * median 1.05; halves' medians 1 and 1.1, drift 0.1 / 1.05 = 0.0952;
 * noise: the median absolute deviation 0.05, sigma 1.4826 x 0.05, rse
 * 1.2533 x 0.07413 / sqrt 8 / 1.05 = 0.03128, x 2.77 = 0.0866: the drift
 * wins. The same drift in both series cancels: every ratio 1, spread 0. */
Test(bench_pair, the_spread_is_the_rounds_drift_or_their_noise)
{
    double ref[8], pat[8], moved[8];
    size_t rd[8];
    for (size_t k = 0; k < 8; k++) {
        ref[k] = 10.0;
        pat[k] = k < 4 ? 10.0 : 10.0 / 1.1;
        moved[k] = k < 4 ? 10.0 : 10.0 / 1.1;
        rd[k] = k;
    }
    bench_pair_series num = { ref, rd, NULL, 8, -1, NULL }, den = { pat, rd, NULL, 8, -1, NULL };
    bench_pair_ci c = bench_pair_ratio(&num, &den);
    cr_expect_float_eq(c.median, 1.05, 1e-12);
    cr_expect_float_eq(c.spread, 0.1 / 1.05, 1e-9);
    bench_pair_series shared = { moved, rd, NULL, 8, -1, NULL };
    c = bench_pair_ratio(&shared, &den);
    cr_expect_float_eq(c.spread, 0.0, 1e-12);
    /* under 4 rounds: no spread */
    bench_pair_series few = { ref, rd, NULL, 3, -1, NULL };
    c = bench_pair_ratio(&few, &den);
    cr_expect(isnan(c.spread));
}

/* The rule's error is in units of the faster figure: a pattern at 0.05 of
 * its reference whose interval is 0.05 +- 14% holds 0.05 x 0.14 / 1.96 =
 * 0.00357 of the reference's figure; one at 1.4 times it, +- 2%, holds
 * 2% / 1.96 = 0.0102 of its own. The bytes turn the time ratio into the
 * figure: a time ratio of 0.8 over half the bytes is 0.4. */
Test(bench_pair, the_rule_error_is_in_units_of_the_faster_figure)
{
    bench_pair_ci slow = { 0.05, 0.043, 0.057, 30, NAN };
    cr_expect_float_eq(bench_pair_rule_error(&slow, 1.0), 0.05 * (0.007 / 0.05) / 1.96, 1e-12);
    bench_pair_ci fast = { 1.4, 1.372, 1.428, 30, NAN };
    cr_expect_float_eq(bench_pair_rule_error(&fast, 1.0), (0.028 / 1.4) / 1.96, 1e-12);
    bench_pair_ci half = { 0.8, 0.78, 0.84, 30, NAN };
    cr_expect_float_eq(bench_pair_rule_error(&half, 0.5), 0.4 * (0.04 / 0.8) / 1.96, 1e-12);
    bench_pair_ci none = { 0.5, NAN, NAN, 3, NAN };
    cr_expect(isinf(bench_pair_rule_error(&none, 1.0)));
}

/* ---- the round's order (bench_round.h) ---- */

/* where entry (item, control) first appears in seq from index `from`, or ne */
static size_t find_entry(const bench_round_entry *seq, size_t ne, size_t from, size_t item, int control)
{
    for (size_t e = from; e < ne; e++)
        if (seq[e].item == item && seq[e].control == control)
            return e;
    return ne;
}

/* 16 items: 0 is the reference of 1..13, 14 a reference none is set
 * beside this round, 15 stands alone. By hand: every item once as its
 * own turn (16); 13 members make ceil(13 / 6) = 3 runs, of 5, 4 and 4
 * (ranks 0-4, 5-8, 9-12: rank x 3 / 13), each with one control launch of
 * 0 in its middle, so each member has one at most 3 entries away; 14's
 * control comes right after the item at place (pos[14] + 8) mod 16 of the
 * shuffle: 20 entries. */
Test(bench_pair, a_round_sets_each_pattern_beside_a_launch_of_its_reference)
{
    enum { N = 16 };
    long beside[N];
    unsigned char control[N] = { 0 };
    for (size_t i = 0; i < N; i++)
        beside[i] = i >= 1 && i <= 13 ? 0 : -1;
    control[0] = control[14] = 1;
    size_t order[N], pos[N], scratch[3 * N];
    bench_round_entry seq[3 * N];
    bench_round_input in = { N, beside, control };
    for (size_t k = 0; k < 6; k++) {
        bench_round_shuffle(order, pos, N, k);
        size_t ne = bench_round_sequence(&in, order, pos, k, seq, scratch);
        cr_assert_eq(ne, 20, "round %zu: %zu entries", k, ne);
        for (size_t i = 0; i < N; i++) {
            size_t e = find_entry(seq, ne, 0, i, 0);
            cr_assert_lt(e, ne, "round %zu: item %zu has no turn", k, i);
            cr_expect_eq(find_entry(seq, ne, e + 1, i, 0), ne, "round %zu: item %zu twice", k, i);
        }
        size_t ctl = 0, at[3];
        for (size_t e = 0; e < ne; e++)
            if (seq[e].control && seq[e].item == 0 && ctl < 3)
                at[ctl++] = e;
        cr_assert_eq(find_entry(seq, ne, at[2] + 1, 0, 1), ne, "round %zu: more than 3 controls of 0", k);
        cr_assert_eq(ctl, 3, "round %zu: %zu controls of 0", k, ctl);
        /* the runs: the members between controls, and their sizes */
        size_t sizes[3] = { 0 };
        for (size_t i = 1; i <= 13; i++) {
            size_t e = find_entry(seq, ne, 0, i, 0), best = 0, dist = (size_t)-1;
            for (size_t c = 0; c < 3; c++) {
                size_t d = e > at[c] ? e - at[c] : at[c] - e;
                if (d < dist) {
                    dist = d;
                    best = c;
                }
            }
            cr_expect_leq(dist, 3, "round %zu: item %zu is %zu launches from a control of 0", k, i, dist);
            sizes[best]++;
        }
        size_t big = 0;
        for (size_t c = 0; c < 3; c++) {
            cr_expect(sizes[c] == 4 || sizes[c] == 5, "round %zu: a run of %zu", k, sizes[c]);
            big += sizes[c] == 5;
        }
        cr_expect_eq(big, 1, "round %zu: runs of 5, 4 and 4", k);
        /* 14, none beside it: right after the item half a round on */
        size_t after = find_entry(seq, ne, 0, order[(pos[14] + N / 2) % N], 0);
        size_t c14 = find_entry(seq, ne, 0, 14, 1);
        cr_expect_lt(c14, ne, "round %zu: no control of 14", k);
        if (order[(pos[14] + N / 2) % N] >= 1 && order[(pos[14] + N / 2) % N] <= 13)
            cr_expect_gt(c14, after, "round %zu: 14's control before its place", k);
        else
            cr_expect_eq(c14, after + 1, "round %zu: 14's control at %zu, its place %zu", k, c14, after);
        cr_expect_eq(find_entry(seq, ne, 0, 15, 1), ne, "15 is no reference");
    }
}

/* A run of one: the reference's control launch just before the member on
 * an even round, just after it on an odd one, so that neither side of the
 * pair always runs first. A member whose reference is not due a control
 * launch (its form still calibrated) takes its own place, and nothing is
 * set beside an item it names as its own reference. */
Test(bench_pair, a_run_of_one_alternates_its_side)
{
    long beside[3] = { -1, 0, 2 };
    unsigned char control[3] = { 1, 0, 1 };
    size_t order[3], pos[3], scratch[9];
    bench_round_entry seq[9];
    bench_round_input in = { 3, beside, control };
    for (size_t k = 0; k < 4; k++) {
        bench_round_shuffle(order, pos, 3, k);
        size_t ne = bench_round_sequence(&in, order, pos, k, seq, scratch);
        /* own turns of 0, 1, 2; controls of 0 (beside 1) and of 2 (none beside it) */
        cr_assert_eq(ne, 5, "round %zu: %zu entries", k, ne);
        size_t m = find_entry(seq, ne, 0, 1, 0), c = find_entry(seq, ne, 0, 0, 1);
        cr_assert(m < ne && c < ne);
        cr_expect_eq(c, k % 2 ? m + 1 : m - 1, "round %zu: member at %zu, control at %zu", k, m, c);
        cr_expect_lt(find_entry(seq, ne, 0, 2, 1), ne, "round %zu: 2's control", k);
    }
    control[0] = 0;
    bench_round_shuffle(order, pos, 3, 0);
    size_t ne = bench_round_sequence(&in, order, pos, 0, seq, scratch);
    cr_expect_eq(ne, 4, "no control of 0, one of 2: %zu entries", ne);
    cr_expect_eq(find_entry(seq, ne, 0, 0, 1), ne);
    cr_expect_eq(bench_round_control_launches(0, 0), 0);
    cr_expect_eq(bench_round_control_launches(0, 1), 1);
    cr_expect_eq(bench_round_control_launches(6, 1), 1);
    cr_expect_eq(bench_round_control_launches(7, 1), 2);
    cr_expect_eq(bench_round_control_launches(30, 1), 5);
}
