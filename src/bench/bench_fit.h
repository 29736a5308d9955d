/* bench_fit: the working set a run's budget holds.
 *
 * The automatic working set is 4 x the device's last-level cache, so that
 * the cache serves next to none of a launch. On a device whose cache
 * figure is large next to its bandwidth, the default set's minimum of
 * launches at that size does not fit the budget (PoCL in a virtual machine
 * reports the host's whole L3 but has only a share of the host's
 * bandwidth), and a plan at that size leaves patterns out. bench_fit
 * measures the device's copy rate (one seq copy, bench_fit_measure),
 * estimates the run at the automatic size
 * (bench_run_estimate_s, and the buffers' fill at the measured rate), and
 * where that does not fit the time left, plans it at working sets each
 * 1/sqrt(2) of the last, down to the cache figure itself, until it does
 * (bench_fit_choose): what may be shrunk is shrunk, and said; what still
 * does not fit, the runner leaves out, named. */
#ifndef BENCH_FIT_H
#define BENCH_FIT_H

#include <signal.h>
#include <stdint.h>

#include "bench_kernel.h"
#include "bench_plan_priv.h"
#include "bench_runner.h"
#include "bw_error.h"
#include "ocl_context.h"

/* The calibration's working set: the automatic target, at most this. */
#define BENCH_FIT_CALIBRATION_BYTES ((uint64_t)256 << 20)
/* The working set is fitted down to this or the cache figure, the larger
 * (the floor), and below it only for a short budget (bench_fit_choose). */
#define BENCH_FIT_FLOOR_BYTES ((uint64_t)256 << 20)
/* Below the floor: never below this, and only while the buffers' fill
 * alone would take more than this share of the time. */
#define BENCH_FIT_MIN_BYTES ((uint64_t)32 << 20)
#define BENCH_FIT_FILL_SHARE 0.25
/* With less time left than this, the calibration's size (from
 * BENCH_FIT_CALIBRATION_BYTES) and its 2 s shrink in proportion, to
 * BENCH_FIT_MIN_BYTES and 0.25 s at least. */
#define BENCH_FIT_FULL_CALIBRATION_S 30.0

/* the ladder's K: 1, 2, 4, 8, 16 */
#define BENCH_FIT_UNROLLS 5

/* What one calibration measured, all measured. */
typedef struct bench_fit_rate {
    uint64_t bytes;   /* its working set */
    double copy_gbs;  /* seq copy's effective GB/s (its median launch) */
    double fill_gbs;  /* both buffers' bytes over its buffers phase (allocation and fill) */
    double build_s;   /* its program's build */
    double elapsed_s; /* the whole calibration */
    /* with a ladder (bench_plan_opts.unroll_ladder): seq copy's and seq
     * read's GB/s at each K = 1 << k (0: not measured), and the K chosen
     * from them (bench_fit_unroll_choose), whose copy rate copy_gbs is;
     * 0: no ladder */
    double unroll_gbs[BENCH_FIT_UNROLLS];
    double unroll_read_gbs[BENCH_FIT_UNROLLS];
    int unroll;
    /* its kernels' preparation beyond their launches, each (bench_run_info
     * prep_kernel_s): with a fresh build, what a plan's kernels cost on
     * an empty kernel cache */
    double prep_kernel_s;
} bench_fit_rate;

/* One K's rate in the calibration's ladder, GB/s: ref_gbs (K = 1's
 * median) times paired (the K's ratio to K = 1 from paired rounds), which
 * cancels a drift of the host's bandwidth between rounds, while that
 * estimate is within BENCH_FIT_PAIRED_AGREE of own_gbs, the K's own
 * median; else own_gbs. Each launch is paired with K = 1's nearest
 * launch in the round, so one disturbed launch of K = 1 (in its own slot
 * or its control slot) moves only the Ks beside it: a drift within a
 * calibration of a few seconds moves the two estimates by a few percent,
 * never by a quarter. own_gbs when ref_gbs or paired is not positive. */
#define BENCH_FIT_PAIRED_AGREE 1.25
double bench_fit_ladder_rate(double own_gbs, double ref_gbs, double paired);

/* K's choice from a ladder of copy and (or NULL) read rates: the smallest
 * K at which every mode measured is within BENCH_FIT_UNROLL_WITHIN of its
 * own best, since a larger K is no faster and launches fewer work-items;
 * where no K is, the K whose worse mode is nearest its best. 0 when no
 * rate was measured. */
#define BENCH_FIT_UNROLL_WITHIN 0.03
int bench_fit_unroll_choose(const double copy[BENCH_FIT_UNROLLS], const double *read);

/* K's choice from one mode's scores (each K's rate over the best; 0: not
 * measured) where the device last ran K = last (0: none): last stays
 * while its score is at least 1 - WITHIN - BAND of the best, a smaller K
 * within the band beside it or not; past that, or with no last K, the
 * choice of bench_fit_unroll_choose. Every row's ratio to seq moves with
 * K, and scores within a few percent of each other trade places with the
 * host's noise: only a K that clearly lost its place is replaced. */
#define BENCH_FIT_UNROLL_BAND 0.01
int bench_fit_unroll_keep(const double scores[BENCH_FIT_UNROLLS], int last);

/* rate->unroll becomes K and rate->copy_gbs the ladder's copy at K (where
 * measured): the rate the fit plans with. Test builds: the fault hook
 * fit_rate@MBS still sets the rate (a device as slow as asked). */
void bench_fit_rate_at(bench_fit_rate *rate, int K);

/* Whether plan p's target may be fitted to a budget of budget_s seconds,
 * and so is worth a calibration: it is above the floor (the larger of its
 * cache figure and BENCH_FIT_FLOOR_BYTES), or, with a budget under
 * BENCH_FIT_FULL_CALIBRATION_S, above BENCH_FIT_MIN_BYTES, since a short
 * budget goes below the floor while the buffers' fill would take a
 * quarter of it. Without the second, a device that reports no cache stays
 * at the 256 MiB floor untried, and on a slow host the fill of its buffers
 * alone outlasts a short budget. */
int bench_fit_may_shrink(const bench_plan *p, double budget_s);

/* One seq copy (with base->unroll_ladder, one per K of the ladder, timed
 * in the same rounds) at min(bytes, BENCH_FIT_CALIBRATION_BYTES), planned from
 * base (its device options: scalar form, sub-group size; its specs are
 * replaced) and run briefly (no twin, 5% standard error, at most 2 s) on
 * ctx; with left_s, the time the device has, under
 * BENCH_FIT_FULL_CALIBRATION_S, smaller and shorter in proportion. Fails
 * as bench_plan_make and bench_run do, or with BW_E_RANGE when the launch
 * gave no rate. With fresh, its program is built afresh (bench_settings
 * fresh_build), so that out->prep_kernel_s prices a plan whose program no
 * kernel cache holds. */
bw_code bench_fit_measure(ocl_context *ctx, const bench_plan_opts *base, const model_geometry *geo,
                          const bench_limits *lim, const bench_kernels *kernels, uint64_t bytes, double left_s,
                          int fresh, volatile sig_atomic_t *stop, bench_fit_rate *out, bw_error *err);

/* The kernels plan p prepares: one per pattern planned, two for one timed
 * in both forms (bench_item.scalar_form). */
size_t bench_fit_kernels(const bench_plan *p);

/* The choice: the automatic plan's target and the one chosen, with the
 * estimates behind it (seconds: the launches, bench_run_estimate_s, and
 * the buffers' fill at rate->fill_gbs). */
typedef struct bench_fit_choice {
    uint64_t auto_bytes, bytes; /* bytes < auto_bytes: fitted */
    uint64_t floor_bytes;       /* the floor: bytes below it only for a short budget */
    double auto_s, need_s;      /* estimated at each */
    double avail_s;
    char note[640];             /* one line on a fitted size; "" when it was not */
} bench_fit_choice;

/* Given auto_plan, o's plan at its automatic target (o's size is 0):
 * where the estimate exceeds avail_s, plans o at the floor first (where
 * even that does not fit, the steps above it are skipped); else, while
 * the estimate exceeds avail_s, plans o at 1/sqrt(2) of the last
 * size (whole MiB), down to the larger of the cache figure and
 * BENCH_FIT_FLOOR_BYTES, and below it, to BENCH_FIT_MIN_BYTES, while the
 * buffers' fill alone would also take more than BENCH_FIT_FILL_SHARE of
 * avail_s. *out is the fitted plan (the caller's to free),
 * which stays auto (target_auto) with fitted_from set, its cache figure
 * kept and fit_note said; NULL when the auto plan fits, or nothing
 * smaller may be tried, or the device holds no smaller plan. choice says
 * what was estimated either way. Never fails otherwise (BW_OK). */
bw_code bench_fit_choose(const bench_plan_opts *o, const model_geometry *geo, const bench_limits *lim,
                         const bench_settings *s, const bench_fit_rate *rate, double avail_s,
                         const bench_plan *auto_plan, bench_plan **out, bench_fit_choice *choice, bw_error *err);

/* --size is the user's, and never shrunk; but a plan whose strided
 * patterns span several times it may fill more buffer than the budget
 * holds (at --size 1G, 4 GiB each of src and dst, whose first touch alone
 * can outlast the budget on a slow host). Such a plan is checked before its
 * buffers exist (bench_fit_buffers) when they exceed this, or the
 * references' buffers by BENCH_FIT_CALIBRATION_BYTES: below both, the
 * fill is a small part of any budget of 5 s or more. */
#define BENCH_FIT_BUFFERS_CHECK_BYTES ((uint64_t)1 << 30)

/* Whether plan p (--size) is worth a calibration for bench_fit_buffers. */
int bench_fit_buffers_worth(const bench_plan *p);

/* For plan p at the user's --size: while its estimate (launches, the
 * buffers' fill at rate->fill_gbs, the build) exceeds avail_s and the
 * fill alone more than BENCH_FIT_FILL_SHARE of it, leaves out
 * the item whose buffers add most to what the references need (never a
 * reference, the items the others are read against), each named with
 * why (bench_plan_leave_out), so that the buffers shrink to the rest; the
 * plan's note says what was left out. When even the rest's fill and build
 * exceed bound_s, the time to the budget's bound, fails with BW_E_RANGE
 * saying which --budget or --size would do. choice holds the estimates
 * (auto_s before, need_s after) and the note ("" when nothing was left
 * out). BW_E_NOMEM. */
bw_code bench_fit_buffers(bench_plan *p, const bench_settings *s, const bench_fit_rate *rate, double avail_s,
                          double bound_s, bench_fit_choice *choice, bw_error *err);

#endif
