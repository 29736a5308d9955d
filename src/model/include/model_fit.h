/* model_fit: the fits `bwlab probe` makes of its sweeps (docs/model.md,
 * "Inferring the memory system"). Pure arithmetic on measured curves: no
 * OpenCL, no timing, no printing. The probe (src/bench/bench_probe*.c)
 * owns the measurements; this module owns what they are taken to mean.
 *
 * Every fit is robust to one bad point: the step fit smooths with a
 * running median of three first, and a unit is only inferred when its
 * model explains most of the curve's variation, never from a wiggle. */
#ifndef MODEL_FIT_H
#define MODEL_FIT_H

#include <stddef.h>
#include <stdint.h>

#define MODEL_FIT_MAX_STEPS 8 /* plateaus a ladder may split into */

/* A ladder (values against growing working-set sizes) split into
 * plateaus. end[k] is the index of the last point of plateau k (the
 * last plateau ends at n-1); level[c][k] is the median of curve c over
 * plateau k (after smoothing). n_steps 1 means no knee was found. */
typedef struct model_fit_ladder {
    size_t n_steps;
    size_t end[MODEL_FIT_MAX_STEPS];
    double level[2][MODEL_FIT_MAX_STEPS];
    /* model_fit_ladder_levels only: which curves show the knee after
     * plateau k (MODEL_FIT_SEEN_*; 0 for the last plateau), and that
     * knee's step: the larger rise factor of the curves that show it */
    int seen[MODEL_FIT_MAX_STEPS];
    double step[MODEL_FIT_MAX_STEPS];
    /* and the curve whose bend placed the knee (MODEL_FIT_SEEN_A or _B) */
    int placed[MODEL_FIT_MAX_STEPS];
} model_fit_ladder;

#define MODEL_FIT_SEEN_A 1 /* the first curve (the bandwidth ladder's inverse) */
#define MODEL_FIT_SEEN_B 2 /* the second (the latency ladder) */

/* The cache levels of a probe's two ladders (docs/model.md, "Inferring
 * the memory system"): a (the inverse read bandwidth) and b (ns per
 * dependent load, or NULL when the chase was not valid), n points of
 * growing working sets, span of them to each doubling of the working
 * set (2 for the quick ladder, 4 for the full one; below 1 counts as 1).
 * Each curve is split on its own (model_fit_ladder_split, at most
 * MODEL_FIT_MAX_STEPS plateaus) and a knee becomes a level only when
 *  - it holds in both ladders: the other curve has a knee within span
 *    points (the nearest; the two become one knee, at b's place: the two
 *    ladders may place one transition up to an octave apart), or
 *  - it persists across neighbouring points in its own curve: each of
 *    the two raw (unsmoothed) points after the knee is at least
 *    sqrt(min_ratio) above the lower plateau's median, and each of the
 *    two before at least that factor below the upper one's;
 * and it is a bend, in a curve that shows it, at the place that curve
 * gives it or a neighbouring point: over the span points after it the
 * smoothed curve climbs at least sqrt(min_ratio) more (on logarithms,
 * per point, scaled to span points) than over the span points before
 * it, and at least that factor in all. A steady ramp climbs alike on
 * both sides of every cut, so the split's cuts through a ramp (a mixing
 * of two levels, the TLB's reach) are no levels. Two knees whose
 * strongest bends lie at the same or neighbouring points are one (the
 * first; it takes the other's ladder).
 * A knee that fails (one noisy point, a wiggle the smoothing let
 * through, a cut through a ramp) is dropped and its plateaus merge. At
 * most MODEL_FIT_MAX_STEPS - 1 knees are kept, the first ones. out gets
 * the plateaus (end, level of both curves over each, after smoothing),
 * and seen/step for each knee. Returns n_steps (1: no knee; 0 on bad
 * input as model_fit_ladder_split, out zeroed). */
size_t model_fit_ladder_levels(const double *a, const double *b, size_t n, double min_ratio, size_t span,
                               model_fit_ladder *out);

/* Whether a cache of c bytes agrees with a level whose plateau ends at
 * `last` bytes, the next ladder point being `next`: c lies within a
 * factor 2 of [last, next] (a knee shows a little before a cache's size
 * when other data shares it, a little after when a partly-missing set
 * is still mostly served). */
int model_fit_size_agrees(uint64_t c, uint64_t last, uint64_t next);

/* Pairs the host's caches (sizes host[0..n_host), smallest level first)
 * with the measured levels (plateaus ending at last[k], next point
 * next[k], step factor step[k]), in order: each cache goes to the level
 * nearest it on a log scale (distance 0 inside [last, next], counted
 * twice for a plateau that ends past the cache's size: a set larger than
 * a cache cannot stay in it, while a knee a little before the size is
 * common; ties to the larger step) among the levels after the previous
 * cache's. match[k]
 * gets the host cache's index for level k, or -1 when none went to it;
 * a cache left with no level after the previous one's is unmatched. */
void model_fit_match_caches(const uint64_t *last, const uint64_t *next, const double *step, size_t n_levels,
                            const uint64_t *host, size_t n_host, int *match);

/* The model curve of a candidate transaction unit u (bytes) at sweep
 * point x:
 *  - stride sweep: one 4-byte element per work-item at byte stride x;
 *    the bytes fetched per element are min(x, u) (every unit is fetched
 *    whole; past the unit each element costs a unit of its own);
 *  - offset sweep: each work-item reads `block` contiguous bytes at byte
 *    offset x from a unit-aligned base: the number of units the block
 *    touches, periodic in u.
 * A unit (or block) of 0 or less gives 1: no unit, nothing to count. */
double model_fit_stride_curve(double x, int64_t u);
double model_fit_offset_curve(double x, int64_t block, int64_t u);

/* One candidate unit judged on one sweep. */
typedef struct model_fit_candidate {
    int64_t unit;     /* bytes */
    double a, b;      /* the fitted scale and offset */
    double sse;       /* its sum of squared residuals */
    double rel;       /* sse / the flat model's sse: 0 perfect, 1 no better than flat;
                       * 1 too when a <= 0 (cost falling with units is no fit) */
    double rms_rel;   /* sqrt(sse / n) / mean(y): the residual as a share of the curve */
} model_fit_candidate;

/* Fits every candidate's curve (stride when block is 0, else offset with
 * that block) to y at points x. */
void model_fit_candidates(const double *x, const double *y, size_t n, int64_t block, const int64_t *units,
                          size_t n_units, model_fit_candidate *out);

/* The verdict on a set of candidates fitted to one or two sweeps (c2 may
 * be NULL): the unit whose summed rel is least, when it explains at least
 * `min_explained` (e.g. 0.7) of the flat model's variation in at least
 * one sweep (rel <= 1 - min_explained) and is no edge of the range that
 * means "no knee" (the stride sweep's largest candidate is a straight
 * line through the whole range). Returns the unit, or 0 with why (a
 * sentence, into buf of size n) saying what the curves showed instead:
 * flat within noise, or still growing at the largest stride. */
int64_t model_fit_choose(const model_fit_candidate *c1, const model_fit_candidate *c2, size_t n_units,
                         double min_explained, char *why, size_t n);

/* Warp width: the warps a work-group of `active` running work-items
 * needs at width w, ceil(active / w): a warp costs the same however few
 * of its lanes run. */
double model_fit_lanes_curve(double active, int64_t w);

/* The bank count of a local stride sweep: times y at word strides x (n
 * points, w lanes, 4-byte words) against max(ways_B(x), F) for every
 * candidate B of MODEL_FIT_BANK_CANDIDATES and every floor F from 1 to
 * MODEL_FIT_BANK_FLOOR_MAX (a pure scale fitted on logarithms): a GPU
 * may serve a few ways in the time of one (t = max(ways, F) / F, with F
 * between 1 and 2; docs/measurements.md has a device's figures), which a
 * fit without the floor takes for more banks. The best (B, F) into *banks, *floor, and the share
 * of the flat model's misfit it explains into *explained; *banks 0 when
 * nothing could be fitted. */
#define MODEL_FIT_BANK_FLOOR_MAX 4.0
void model_fit_banks(const double *x, const double *y, size_t n, int64_t w, int64_t *banks, double *floor,
                     double *explained);

/* The misfit of y = c f (a pure scale, c > 0) on logarithms: the sum of
 * squared deviations of log y - log f from their mean. Scale-free, so
 * small and large values weigh alike. INFINITY when a value is not
 * positive. */
double model_fit_log_ratio_sse(const double *f, const double *y, size_t n);

#endif
