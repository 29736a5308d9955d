/* bench_runner: measures a plan on one device (docs/design.md §4).
 *
 * Pseudo-random source data is written once; every pattern's kernel is
 * built, launched once (in read mode once per validation key,
 * bench_validate_read_chunked) and checked against the host reference (a
 * wrong result fails that pattern, it is never timed), warmed up, and then timed
 * in round-robin with the others, so that drift hits every pattern alike,
 * until its median is stable (relative standard error at most rse_target)
 * or the time budget ends. Event profiling time is the measurement; host
 * wall-clock time is recorded beside it. The runner never prints: progress
 * goes to a callback, results come back as data. */
#ifndef BENCH_RUNNER_H
#define BENCH_RUNNER_H

#include <signal.h>
#include <stddef.h>

#include "bench_kernel.h"
#include "bench_pair.h"
#include "bench_plan.h"
#include "bench_stats.h"
#include "bench_verdict.h"
#include "bw_error.h"
/* the OpenCL context handle (src/ocl/include/ocl_context.h), by pointer only */
typedef struct ocl_context ocl_context;

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
    double form_ns[2];       /* measured: median calibration launch per form (bench_form), 0: not built */
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
} bench_settings;

/* Defaults: 50 s, no deadline, 1%, 5, 2000, 1, 0 (the device's floor), 0.2 s. */
bench_settings bench_settings_default(void);

/* The shortest launch timed, in ns: s->min_launch_ns when positive, else
 * the larger of 20 us and 100 x the device's profiling timer resolution
 * (CL_DEVICE_PROFILING_TIMER_RESOLUTION), so that the timer's granularity
 * stays within 1% of a sample (NVIDIA's timer reports 1 us: 100 us). */
double bench_launch_floor_ns(const bench_settings *s, uint64_t timer_resolution_ns);

/* Whether an event time is a sample: positive and finite. Drivers report
 * 0 ns for launches shorter than their timer's tick; such a launch has no
 * duration to divide by. */
int bench_sample_ok(double event_ns);

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
    /* How the run's launches were timed (ocl_context_timer), as each
     * result's timer_wall, timer_resolution_ns, launch_overhead_ns say */
    int timer_wall;
    double timer_resolution_ns, launch_overhead_ns;
} bench_run_info;

/* A twin whose time passes this fraction of its pattern's fastest launch
 * is a measurement error: reported, never a bound. */
#define BENCH_TWIN_MAX_RATIO 1.05
/* Below this budget the plan leaves nothing out: every pattern gets its
 * minimum of launches, and the run may take longer than the budget. */
#define BENCH_PLAN_MIN_BUDGET_S 5.0

#define BENCH_NOISY_SEQ 0.05
#define BENCH_NOISY_RELATIVE 0.05

/* Measures every item of `plan` on the context's device, and each
 * measured item's twin (bench_twin.h) after its warm-up. A pattern whose
 * built kernel allows fewer work-items per group than planned gets a
 * smaller automatic group (the plan's item records it) or, with --local,
 * fails (bench_plan_fit_kernel). Host memory stays bounded whatever the
 * plan's size: the source is generated on the device where it can be
 * (bench_fill_src_device; info->fill_note says when not), else 64 MiB at a
 * time on the host, and dst is checked 64 MiB at a time.
 * Returns BW_OK when
 * the run completed (single patterns may still have failed: see their
 * status), BW_E_INTERRUPTED when *stop became non-zero (results hold what
 * was measured), or a fatal error (buffers that cannot be allocated:
 * BW_E_TOOBIG, BW_E_OPENCL, BW_E_NOMEM) with *results NULL. *results has
 * plan->n entries; free with bench_results_free. */
bw_code bench_run(ocl_context *ctx, bench_plan *plan, const bench_kernels *kernels,
                  const bench_settings *s, volatile sig_atomic_t *stop, bench_progress_fn progress,
                  void *progress_ctx, bench_result **results, bench_run_info *info, bw_error *err);
void bench_results_free(bench_result *r, size_t n); /* accepts NULL */

/* An estimate, for sizing a working set to a budget (bench_fit): the
 * seconds the launches of a run of `plan` need at the stopping rule's
 * minimum on a device that copies at copy_gbs (bytes per ns, measured:
 * seq copy's effective GB/s). Each launch takes its modeled instruction
 * bytes (a bank item its local reads) at that rate; each item makes its
 * warm-up, its minimum of launches (min_reps, and min_total_s of them,
 * at least 3), the other kernel form's calibration launches where it has
 * two, and, for a reference, its twin's rounds (slices and the evicting
 * launches beyond its group's rounds). Each group (a reference and the
 * items read against it) runs as many rounds as its most demanding
 * member, as the run's own plan prices it. Validation, which runs the
 * sample only, is left out. 0 when copy_gbs is not positive. */
double bench_run_estimate_s(const bench_plan *plan, const bench_settings *s, double copy_gbs);

/* Builds every item with the trace option, runs each once and compares
 * every recorded address with the model (bench_validate_trace): the proof
 * that kernels and model agree. It proves both forms of the index
 * arithmetic: every item in 64 bits, then again every item proven to fit
 * (index32_proven) in 32 bits, whatever form the plan chose.
 * BW_E_VALIDATION names the first pattern, form and work-item that differ;
 * BW_E_TOOBIG when src, dst and the trace buffer (bench_plan_trace_bytes)
 * together exceed the plan's memory budget. Work-groups are fitted as in
 * bench_run. */
bw_code bench_trace_check(ocl_context *ctx, bench_plan *plan, const bench_kernels *kernels,
                          bw_error *err);

#endif
