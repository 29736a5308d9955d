/* bench_result: what one measured pattern carries (its timing statistics,
 * its ratio to its reference with the reference's own check, where it sits
 * between the model's bounds, and what limits it), the settings it was
 * measured under, and what a run reports while it runs and when it ends.
 * Plain data, shared by every command's API: the functions that compute
 * these figures are bench's own (bench_stats.h, bench_pair.h,
 * bench_verdict.h, bench_runner.h). */
#ifndef BENCH_RESULT_H
#define BENCH_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"
#include "results_run_fields.h"

typedef struct bench_stats {
    size_t count;
    double min, median, mean, stddev; /* stddev: sample (n-1); 0 when count < 2 */
    double rse;                       /* relative standard error of the median (from the median
                                       * absolute deviation, bench_stats_of); 1 when unknown */
} bench_stats;

typedef struct bench_pair_ci {
    double median; /* measured: median over paired rounds of num_k / den_k; NAN: no round paired */
    double lo, hi; /* its 95% interval; NAN when too few rounds paired (bench_stats_median_ci) */
    size_t rounds; /* rounds in which both series launched */
    /* how far the estimate could move in a second run, relative: the larger
     * of BENCH_SPREAD_Z x the median's relative standard error and the
     * relative difference between the first and second half of the rounds'
     * ratios (bench_stats_spread of the per-round ratios); NAN: under 4 */
    double spread;
} bench_pair_ci;

/* A reference against its control slot (bench_pair_ratio of the control's
 * times over the own slot's: the own slot's bandwidth over the control's). */
typedef enum bench_check_verdict {
    BENCH_CHECK_UNKNOWN,    /* too few paired rounds for an interval */
    BENCH_CHECK_CONSISTENT, /* the interval reaches within BENCH_CHECK_TOLERANCE of 1 */
    BENCH_CHECK_SUSPECT,    /* off by more than both: the reference's own launches differ from
                             * launches of the same kernel elsewhere in the round */
} bench_check_verdict;

/* A difference smaller than this is within what identical rows are held to */
#define BENCH_CHECK_TOLERANCE 0.02

typedef enum bench_verdict_code {
    BENCH_VERDICT_NONE,    /* not measured, or no measured reference */
    BENCH_VERDICT_BELOW,   /* faster than moving the footprint at the reference rate */
    BENCH_VERDICT_LOWER,   /* at the lower bound: each sector fetched about once */
    BENCH_VERDICT_BETWEEN, /* between the bounds */
    BENCH_VERDICT_UPPER,   /* at the upper bound: no reuse between instructions */
    BENCH_VERDICT_ABOVE,   /* slower than even the upper bound explains */
    BENCH_VERDICT_AT_MODEL, /* the bounds coincide and the measurement matches them */
    BENCH_VERDICT_KERNEL_BOUND /* slower than its modeled traffic explains, and its twin
                                * (bench_twin.h) with memory out of the way runs no faster,
                                * or its addresses are the reference's and a wider element
                                * streams them faster (bench_verdict_with_rate) */
} bench_verdict_code;

/* What limits a pattern, by its twin: memory when the twin runs
 * clearly faster, the kernel itself when it does not. */
typedef enum bench_bound {
    BENCH_BOUND_UNKNOWN, /* no twin figure (see the result's twin_reason) */
    BENCH_BOUND_MEMORY,
    BENCH_BOUND_KERNEL,
} bench_bound;

/* Which part of the kernel a kernel-bound pattern waits for, as far as
 * the device type and the kernel form tell. */
typedef enum bench_limiter {
    BENCH_LIMITER_OTHER,      /* a device neither CPU nor GPU */
    BENCH_LIMITER_CPU_GATHER, /* CPU, plain form, addresses not contiguous: vector gathers */
    BENCH_LIMITER_CPU_VECTOR, /* CPU, plain form, contiguous addresses */
    BENCH_LIMITER_CPU_SCALAR, /* CPU, scalar form: one scalar load per work-item */
    BENCH_LIMITER_CPU_WARP,   /* CPU, warp form: a warp's loads and shuffles in one work-item */
    BENCH_LIMITER_GPU,
} bench_limiter;

/* A twin taking at least this fraction of the pattern's time is
 * kernel-bound: taking memory out of the way buys less than 25%
 * (1 / 0.8 = 1.25). Measured on PoCL 3.1 (docs/results.md): seq's twin
 * takes 0.26-0.31 of its time. */
#define BENCH_TWIN_KERNEL_BOUND RESULTS_TWIN_KERNEL_BOUND

typedef struct bench_verdict {
    bench_verdict_code code;
    double implied_bytes; /* measured-derived: median time x reference rate */
    double lower_bytes;   /* modeled: footprint bytes, loads + stores */
    double upper_bytes;   /* modeled: instruction-model bytes, loads + stores */
    double position;      /* (implied - lower) / (upper - lower); NAN when the bounds coincide */
    bench_limiter limiter; /* for BENCH_VERDICT_KERNEL_BOUND: what the kernel waits for */
    /* a write-mode item on a CPU device, whose caches allocate on a store
     * miss: each line stored to is read first, so its stores move their
     * footprint twice (the reference, seq written, pays the same) */
    int write_allocate;
    /* the item whose measured rate gives implied_bytes (its footprint
     * bytes over its median time), set by the runner; -1: none */
    long rate_item;
    /* the unit the bounds are counted in, set by the runner: the DRAM unit
     * where the geometry has one (bound_dram 1), else the sector */
    int64_t bound_unit_bytes;
    int bound_dram;
    /* for BENCH_VERDICT_KERNEL_BOUND, what showed the kernel to be the
     * bound: 0 its twin; 1 the rate item, which streams the same bytes in
     * the same order faster in the same run (bench_verdict_with_rate) */
    int by_rate;
} bench_verdict;

/* Tolerance around a bound, as a fraction of it. */
#define BENCH_VERDICT_TOLERANCE 0.10

/* Kernel forms. Each loads at exactly the pattern's addresses, lane for
 * lane. PLAIN is the kernel as the runtime compiles it (GPUs run warps in
 * lock-step; CPU runtimes vectorise across work-items). SCALAR passes the
 * address through a volatile, which keeps a CPU runtime's vectoriser off
 * the kernel: each work-item issues its own scalar load, where a
 * vectorised kernel needs a gather instruction for any address that is
 * not contiguous across work-items. WARP gives one work-item a whole
 * virtual warp, its lanes run in turn at addresses that differ by
 * constants, so a CPU compiler can load a warp whose lanes stay within
 * one warp's bytes (reverse, permute, broadcast) as vectors and shuffle
 * them, as a GPU's coalescer serves the warp. Which is faster depends on
 * the pattern and the CPU, so on a CPU device the runner times the plain
 * form against one other (bench_item.alt_form) and keeps the faster. */
typedef enum bench_form {
    BENCH_FORM_PLAIN,
    BENCH_FORM_SCALAR,
    BENCH_FORM_WARP,
    BENCH_FORMS, /* how many */
} bench_form;

typedef enum bench_status {
    BENCH_OK,      /* validated and timed */
    BENCH_FAILED,  /* build, allocation or validation failed: see failure */
    BENCH_NOT_RUN, /* interrupted before it was timed */
    BENCH_NOT_MEASURABLE, /* validated, but a launch is too short to time: see failure */
} bench_status;

typedef struct bench_result {
    bench_status status;
    bw_code failure_code;
    char *failure;           /* why it failed or did not run; owned */
    int validated;           /* its kernel (every form) passed validation, timed or not */
    double *event_ns;        /* samples, event.count of them; owned */
    double *wall_ns;
    bench_stats event;       /* measured: event profiling time of one launch, ns */
    bench_stats wall;        /* measured: host wall clock around enqueue + wait, ns */
    double effective_gbs;    /* measured: requested bytes / median event time */
    /* measured: effective_gbs / that of the item's reference (its family's:
     * seq, the conflict-free bank, the copy, the soa form); NAN if none.
     * The results' key stays "relative_to_seq" (a contract), with
     * "relative_to_reference" beside it for the other families. */
    double relative_to_reference;
    long reference;          /* plan index of the item's reference (bench_plan_reference), or -1 */
    bench_verdict verdict;   /* measured traffic against the modeled bounds */
    double check_ns;         /* measured: event time of the last warm-up launch, checked against the floor */
    size_t dropped_samples;  /* launches whose event time was not positive: never samples */
    size_t sub_group_size;   /* measured: the kernel's sub-group size (W) as the driver reports it; 0: unknown */
    bench_form form;         /* the kernel form timed: the faster one where two were built */
    double form_ns[BENCH_FORMS]; /* measured: median calibration launch per form (bench_form), 0: not built */
    double best_gbs;         /* measured: requested bytes / the fastest timed launch */
    int stable;              /* the stopping rule was met (else the budget ended it, or it never ran) */
    /* The twin (bench_twin.h): the timed kernel over its first N and 2N
     * work-items, cache-resident, against the pattern's fastest launch. */
    int64_t twin_items;      /* N; 0: no twin */
    double twin_item_ns;     /* measured: (fastest T(2N) - fastest T(N)) / N; 0: none */
    double twin_ns;          /* measured: twin_item_ns x the pattern's items; 0: none */
    double twin_cold_ns;     /* measured: the same 2N items cold (just evicted by a full launch), per
                              * item less the launch overhead, x the pattern's items; 0: none */
    double twin_ratio;       /* measured: twin_ns / event.min; NAN: none */
    bench_bound bound;       /* by twin_ratio (bench_bound_of) */
    char *twin_reason;       /* why there is no twin figure (or it is not used), or NULL; owned */
    /* NULL, or why the budget left the pattern out: before measuring
     * (status BENCH_NOT_RUN) or out of later rounds (measured, not stable);
     * owned */
    char *budget_note;
    /* Repeatability (bench_stats_spread), estimated from this run's samples. */
    /* How launches were timed (ocl_context_timer): timer_wall 0 by event
     * profiling, 1 by the host clock around clFinish (a queue without
     * profiling); timer_resolution_ns the timer's tick; launch_overhead_ns
     * (wall only, measured) an empty launch's wall time, which every
     * wall-timed launch includes */
    int timer_wall;
    double timer_resolution_ns, launch_overhead_ns;
    /* A launch that failed with a size-dependent error (-5, -4, -54) was
     * retried once at half the work-group: what changed, e.g.
     * "work-group 1024 failed (CL_OUT_OF_RESOURCES); ran at 512"; NULL
     * when nothing was retried; owned */
    char *retry;
    double spread;           /* how far the median could move in another run, a fraction of it; NAN: unknown */
    double relative_spread;  /* the same for relative_to_reference, in its own units; NAN: unknown or the
                              * reference itself */
    /* measured: the 95% interval of relative_to_reference, which is the
     * median of its per-round ratios (bench_pair_ratio); NAN: none (the
     * reference itself, or too few rounds paired) */
    double relative_ci[2];
    size_t paired_rounds;    /* rounds in which it and its reference both launched */
    /* For an item others are read against: its own slot against its
     * control slot in the same rounds (bench_pair_check); has_check 0
     * for other items. The item's samples are both slots' launches. */
    int has_check;
    bench_pair_ci check;     /* measured: the own slot's bandwidth over the control slot's */
    bench_check_verdict check_verdict;
    double own_gbs, control_gbs; /* measured: requested bytes / each slot's median launch */
} bench_result;

typedef struct bench_settings {
    /* wall-time budget of the whole run, s: buffers, build, validation,
     * form choice, twins and timing (`bwlab run --budget` adds the
     * roofline and writing, see deadline_s) */
    double budget_s;
    /* when > 0: bench_run returns by this bench_now_s() instead of
     * budget_s after its start (a caller's share of a larger budget) */
    double deadline_s;
    double rse_target; /* a pattern is stable at this relative standard error of its median */
    int min_reps;      /* timed launches before a pattern may count as stable */
    int max_reps;      /* timed launches after which a pattern stops anyway */
    int warmup;        /* untimed launches after the validating one */
    /* A pattern whose last warm-up launch (one is made even with warmup 0)
     * takes less than this is not measurable at its size; 0: from the
     * device, bench_launch_floor_ns. */
    double min_launch_ns;
    /* a pattern is stable only once its timed launches add up to this
     * much event time, whatever its standard error says: a few launches in
     * a fast or slow phase of the host are no median */
    double min_total_s;
    int no_twins; /* 1: no twin is timed (a calibration run: bench_fit) */
    /* 1: src holds zeros, not the pseudo-random stream (the compression
     * check of `bwlab run --fill zeros`); validation predicts zeros */
    int fill_zeros;
    /* 1: each program opens with a program-scope constant unique to this
     * build (a comment would not do: a runtime may key its kernel cache on
     * the preprocessed source), so that no kernel cache of the runtime's
     * (PoCL's) serves it: its preparation then costs what it costs on an
     * empty cache (bench_fit prices a plan's compiles from it) */
    int fresh_build;
} bench_settings;

/* Defaults: 50 s, no deadline, 1%, 5, 2000, 1, 0 (the device's floor), 0.2 s; no fresh build. */
bench_settings bench_settings_default(void);

/* The shortest launch timed, in ns: s->min_launch_ns when positive, else
 * the larger of 20 us and 100 x the device's profiling timer resolution
 * (CL_DEVICE_PROFILING_TIMER_RESOLUTION), so that the timer's granularity
 * stays within 1% of a sample (NVIDIA's timer reports 1 us: 100 us). */
double bench_launch_floor_ns(const bench_settings *s, uint64_t timer_resolution_ns);

typedef struct bench_progress {
    /* "building", "validating", "measuring", "finished", or "plan": spec
     * is then one line on what the budget left out (bench_run_info) */
    const char *phase;
    size_t done, total; /* patterns */
    const char *spec;   /* the pattern at hand, or NULL */
    double elapsed_s;
    double remaining_s; /* the time left to the run's deadline; negative when unknown */
    /* phase "finished" only: pattern `finished` will not be measured again
     * (stable, failed, not measurable, or the timing ended); results[finished]
     * holds its figures as far as they are known without the other
     * patterns (relative_to_reference may still be unknown). Each pattern is
     * reported finished once, as it completes, so a caller can journal it
     * (docs/results.md, OUT.partial). NULL and -1 in the other phases. */
    const bench_result *results;
    long finished;
} bench_progress;

typedef void (*bench_progress_fn)(void *ctx, const bench_progress *p);

typedef struct bench_run_info {
    double total_s;    /* wall time of the whole run */
    double timing_s;   /* wall time of the timing rounds */
    /* wall time of the phases before them: the buffers allocated and
     * filled, the programs built, and every pattern's validation, warm-up
     * and calibration */
    double buffers_s, build_s, prepare_s;
    /* measured: the median over the prepared patterns of their
     * preparation beyond their launches, per kernel (a pattern timed in
     * two forms has two), s: the compile a runtime makes at a kernel's
     * first launch (PoCL), and validation; 0 when none was prepared */
    double prep_kernel_s;
    size_t rounds;
    int interrupted;   /* *stop was set */
    int budget_ended;  /* the budget ended before every pattern was stable */
    /* Repeatability of the whole run: noisy when a seq median could move
     * more than BENCH_NOISY_SEQ, or a relative_to_reference more than
     * BENCH_NOISY_RELATIVE, in a second run (the results' spreads). */
    int noisy;
    double seq_spread;      /* the largest spread of a seq pattern (fraction); NAN: none known */
    long seq_item;          /* its plan index, or -1 */
    double relative_spread; /* the largest relative_spread; NAN: none known */
    long relative_item;     /* its plan index, or -1 */
    /* The plan made before timing (docs/results.md "timing"): */
    double planned_s;       /* estimated: the timing every pattern's minimum of launches needs */
    double available_s;     /* the time left for timing when it was planned */
    size_t left_out;        /* patterns left out before measuring */
    size_t dropped;         /* patterns left out of later rounds */
    char plan_note[800];    /* one line on what was left out before measuring, or "" */
    char replan_note[640];  /* one line on what left the later rounds, or "" */
    /* how src was filled: "" on the device (bench_fill_src_device), else
     * "src filled from the host: REASON" */
    char fill_note[400];
    /* requested: how far into its allocation dst starts (BENCH_DST_SHIFT
     * where the device takes it, else 0) */
    uint64_t dst_shift_bytes;
    /* How the run's launches were timed (ocl_context_timer), as each
     * result's timer_wall, timer_resolution_ns, launch_overhead_ns say */
    int timer_wall;
    double timer_resolution_ns, launch_overhead_ns;
} bench_run_info;

#endif
