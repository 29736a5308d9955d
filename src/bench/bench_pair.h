/* bench_pair: ratios from paired rounds (docs/design.md §4, "Ratios from
 * paired rounds").
 *
 * A round launches every pattern once (or a few times) and its reference
 * in its own slot and again in its control slot, beside the patterns read
 * against it (bench_round). A pattern's launch in round k is set
 * against its reference's launch nearest to it in the same round, so that
 * a host whose bandwidth moves from minute to minute cancels out of the
 * ratio, and so that both sides of a ratio are single launches, alike in
 * their spread; the estimate is the median of the per-round ratios, with a distribution-free
 * 95% interval (bench_stats_median_ci). The same pairing compares a
 * reference's own slot with its control slot (bench_pair_check). Pure
 * arithmetic over arrays the caller owns: no OpenCL, no allocation kept. */
#ifndef BENCH_PAIR_H
#define BENCH_PAIR_H

#include <stddef.h>

#include "bench_result.h"

/* One series of timed launches: v[j] measured in round round[j]; with
 * slot non-NULL, launch j was made in slot slot[j] (0: the item's own
 * slot, 1: the reference's control slot), and only launches whose slot is
 * `want` count (want < 0: every launch). pos[j] is launch j's place in the
 * run's order of launches, comparable across the two series of a ratio;
 * NULL: j itself (two views of one array). */
typedef struct bench_pair_series {
    const double *v;
    const size_t *round;
    const unsigned char *slot;
    size_t n;
    int want;
    const size_t *pos;
} bench_pair_series;

/* The paired estimate of num / den: in every round in which both series
 * have launches, each den launch is divided into the num launch nearest
 * to it by pos (the earlier on a tie), and the round's ratio is the median
 * of those; the estimate is the median of the rounds' ratios, with its
 * interval. A mean of two launches set against one would not do: launch
 * times have a long upper tail, and a mean of two sits higher in it than
 * one launch does, which read identical kernels as 2-5% apart. Never fails: out of memory gives NAN, 0 rounds. */
bench_pair_ci bench_pair_ratio(const bench_pair_series *num, const bench_pair_series *den);

/* The relative half-width of an estimate's interval, the larger side over
 * the median; INFINITY when it has none. */
double bench_pair_halfwidth(const bench_pair_ci *c);

/* The error the stopping rule holds a paired estimate to, as a relative
 * standard error: its interval's larger side over 1.96, relative to the
 * faster of the two figures (bytes turns the time ratio into the
 * pattern's figure over the reference's): in units of the reference's
 * figure for a pattern slower than it, of its own for a faster one, so
 * that a row's "vs seq" settles to the same absolute error whatever its
 * value. INFINITY without an interval. */
double bench_pair_rule_error(const bench_pair_ci *c, double bytes);

/* suspect when the ratio's whole interval lies more than
 * BENCH_CHECK_TOLERANCE from 1; unknown without an interval */
bench_check_verdict bench_pair_check(const bench_pair_ci *c);

const char *bench_check_verdict_name(bench_check_verdict v); /* "unknown", "consistent", "suspect" */

#endif
