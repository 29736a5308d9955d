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
#include "bench_plan_priv.h"
#include "bench_stats.h"
#include "bench_verdict.h"
#include "bench_result.h"
#include "bw_error.h"
/* the OpenCL context handle (src/ocl/include/ocl_context.h), by pointer only */
typedef struct ocl_context ocl_context;

/* Whether an event time is a sample: positive and finite. Drivers report
 * 0 ns for launches shorter than their timer's tick; such a launch has no
 * duration to divide by. */
int bench_sample_ok(double event_ns);

/* A twin whose time passes this fraction of its pattern's fastest launch
 * is a measurement error: reported, never a bound. The twin's time is a
 * difference of two slices' fastest launches, each of which moves with
 * the host, so a kernel-bound pattern's twin reads somewhat above its
 * pattern (docs/measurements.md): still "memory out of the way buys
 * nothing", which is what the bound says. */
#define BENCH_TWIN_MAX_RATIO 1.25
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
 * launches beyond its group's rounds). An item read against a reference
 * launches its own minimum, the reference as many rounds as its most
 * demanding member, as the run's own plan prices it. Validation, which runs the
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
