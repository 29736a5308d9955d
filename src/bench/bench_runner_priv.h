/* bench_runner_priv: what the parts of the runner share; bench_runner.h
 * is their public face. One run_ctx carries a run from its start to its
 * end, and every part works on it:
 *   bench_runner.c           the run's lifecycle (bench_run) and the
 *                            figures read from its samples at its end
 *   bench_runner_build.c     programs, kernels, buffers, launches and
 *                            validation
 *   bench_runner_schedule.c  what the budget holds: the order in which
 *                            patterns are prepared, the timing plan, the
 *                            replan, patterns left out and taken up again
 *   bench_runner_rounds.c    the timing rounds: samples, the form choice,
 *                            turns in a shuffled order, control slots and
 *                            the stopping rule
 *   bench_runner_twin.c      each pattern's twin within the run (bench_twin.c
 *                            is its sizing and model, host code only)
 *   bench_runner_trace.c     the trace check (bench_trace_check)
 *
 * Who owns what: the run_ctx owns its slots, the shared program `common`,
 * src, dst and the staging buffer, and bench_runner_teardown releases them
 * (a trace run, trace_form, releases what it made itself). Each slot owns
 * its program, its kernels and its ev_* arrays. res, the results being
 * filled, belongs to bench_run until it hands them out as *results; their
 * owned fields (bench_runner.h) go with bench_results_free. A trace run has
 * no res (NULL) and no slots. ctx, plan, kernels and s are the caller's,
 * borrowed; the run writes to plan only to lower an item's work-group
 * (bench_plan_fit_kernel, a launch retried at half its group).
 *
 * The functions below are what one part calls in another; each part's
 * helpers stay static in its own file. */
#ifndef BENCH_RUNNER_PRIV_H
#define BENCH_RUNNER_PRIV_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_fill.h"
#include "bench_runner.h"
#include "ocl_buffer.h"
#include "ocl_program.h"

/* timed launches per kernel form, alternated in the first rounds, before
 * the faster form is chosen (the chosen form's launches stay its
 * samples): FORM_CALIBRATION, fewer for long launches, down to
 * FORM_CALIBRATION_MIN, so that the losing form costs about
 * FORM_CALIBRATION_S */
#define FORM_CALIBRATION 5
#define FORM_CALIBRATION_MIN 2
#define FORM_CALIBRATION_S 0.25
/* A calibration whose slower form's median is within FORM_RECHECK_CLOSE
 * of the faster's has not told them apart: a host contended in the first
 * rounds slows a memory-bound form and a kernel-bound one alike. The form
 * not chosen is kept and timed again, alternated as before, when the
 * pattern first meets its rule (later, in another state of the host); it
 * takes over only where its median is FORM_SWITCH_MARGIN below the timed
 * form's in the same rounds, and its launches then become the samples. */
#define FORM_RECHECK_CLOSE 1.25
#define FORM_SWITCH_MARGIN 0.05

/* dst's first byte lies this far into its allocation, src's at its
 * allocation's start (ocl_buffer_create_shifted): with both page-aligned,
 * `seq` copy's load of src[g] and store of dst[g] share their low 12
 * address bits, and on a CPU it ran 2-4% below the offset rows, which
 * move the same bytes, in one host state and level with them in another
 * (docs/measurements.md). Half a page keeps every load of a pattern apart
 * from the store beside it; a multiple of every base alignment devices
 * report (128 to 2048 B), so lines and sectors stay aligned. */
#define BENCH_DST_SHIFT 2048

/* rounds of the twin: each follows one of the pattern's own timed
 * launches (whose footprint evicts the slice): the slice of 2N items
 * cold, then N and 2N warm */
#define TWIN_ROUNDS 7
/* the fewest rounds a twin is read from when the budget ends first */
#define TWIN_ROUNDS_MIN 3

/* the rounds that end the timing once every pattern has them (measure) */
#define FLOOR_ROUNDS 3

/* per-pattern state while running */
typedef struct slot {
    ocl_program *prog;
    ocl_kernel *kern; /* the form that is timed */
    ocl_kernel *alt;  /* the other form, until one is chosen, and while it is rechecked */
    ocl_kernel *other; /* the form not chosen on a close calibration, until its recheck */
    int rechecking;    /* alt is the recheck's: from round recheck_round on */
    size_t recheck_round;
    size_t cap;
    int stable;
    int reported; /* told to the progress callback as finished */
    double total_ns; /* measured: event time of the timed launches so far */
    double cal_ns;   /* measured: its warm-up launch, the plan's estimate of one launch */
    size_t form_launches; /* launches per form before the form is chosen (form_launches_of) */
    int need_twin;   /* its twin could change its verdict (plan_twins) */
    int twinned;     /* the twin was timed or given up */
    /* the twin's rounds while they are collected (twin_round): N, the
     * largest N the cache holds (a slice too short to resolve grows to
     * it), the rounds so far and their slices' times, and the tries (a
     * twin slower than its pattern is measured once more, and so is one
     * that does not resolve at the cache's N) */
    int64_t twin_n, twin_cap;
    size_t twin_k;
    int twin_tries, twin_unresolved;
    double twin_cold[TWIN_ROUNDS], twin_one[TWIN_ROUNDS], twin_two[TWIN_ROUNDS];
    int left_out;    /* 1: before measuring, 2: out of later rounds, 3: before the buffers
                      * (bench_item.left_out: never taken up) (bench_result.budget_note) */
    size_t left_rank; /* the order in which the plan left it out, from 1 */
    /* while both forms are timed in the first rounds: the other form's samples */
    size_t alt_n;
    double alt_event[FORM_CALIBRATION], alt_wall[FORM_CALIBRATION];
    size_t alt_round[FORM_CALIBRATION], alt_pos[FORM_CALIBRATION];
    /* measured: what preparing it cost beyond its whole launches (a
     * runtime's compile at the first launch, validation's host work), ns;
     * 0 until prepared (prepare_one) */
    double prep_extra_ns;
    int prep_kernels; /* the kernels that preparation validated: 2 with the other form */
    int met;         /* the stopping rule is met (meets_rule); the result's `stable` */
    /* beside each sample (bench_result.event_ns): the round it was timed
     * in, and its slot (0: the item's own place in the round, 1: a
     * reference's control slot, beside the patterns read against it or
     * half a round away: bench_round), and its place in the
     * run's order of launches (run_ctx.launches); cap of them */
    size_t *ev_round, *ev_pos;
    unsigned char *ev_slot;
    int is_reference; /* some item is read against it: it has a control slot */
} slot;

typedef struct run_ctx {
    ocl_context *ctx;
    bench_plan *plan; /* bench_plan_fit_kernel may lower an item's work-group */
    const bench_kernels *kernels;
    const bench_settings *s;
    bench_result *res;
    slot *slots;
    ocl_program *common; /* the gather program of every global item */
    ocl_buffer *src, *dst;
    uint8_t *stage; /* the staging buffer, stage_bytes */
    uint64_t stage_bytes;
    bench_progress_fn progress;
    void *pctx;
    volatile sig_atomic_t *stop; /* a signal: every long loop checks it */
    size_t left_count; /* items the plan has left out so far */
    double t_start;
    double deadline; /* bench_now_s() by which the run returns (bench_settings.deadline_s) */
    double typical_ns; /* measured: the round's typical launch (typical_launch) */
    size_t round;      /* the timing round under way, from 0: what a sample is paired by */
    size_t launches;   /* timed launches recorded so far, of every item: a sample's place */
    double recheck_at; /* bench_now_s() from which a kept form is rechecked though its item has not met the rule */
} run_ctx;

/* bench_runner.c: progress, failures and the deadline */
void bench_runner_report(run_ctx *r, const char *phase, size_t done, size_t total, const char *spec,
                         double remaining);
double bench_runner_time_left(const run_ctx *r);
void bench_runner_report_finished(run_ctx *r, size_t i);
void bench_runner_fail(bench_result *res, bw_code code, const char *msg);
void bench_runner_format_us(char *buf, size_t n, double ns);
void bench_runner_not_measurable(bench_result *res, const char *msg);

/* bench_runner_build.c: programs, kernels, buffers, launches, validation */
bw_code bench_runner_build_program(run_ctx *r, size_t first, size_t count, int trace, ocl_program **prog,
                                   bw_error *err);
bw_code bench_runner_make_kernel(run_ctx *r, ocl_program *prog, size_t i, bench_form form, ocl_kernel **kern,
                                 bw_error *err);
bw_code bench_runner_make_own_kernel(run_ctx *r, size_t i, int trace, ocl_program **prog, ocl_kernel **kern,
                                     bw_error *err);
void bench_runner_build_all(run_ctx *r, volatile sig_atomic_t *stop);
double bench_runner_run_floor_ns(const run_ctx *r);
double bench_runner_device_floor_ns(const run_ctx *r);
/* One whole launch of item i's kernel k, which is in form `form`: the
 * warp form runs W of the item's work-items in each of its own. */
bw_code bench_runner_launch(run_ctx *r, size_t i, ocl_kernel *k, bench_form form, ocl_timing *t, bw_error *err);
/* Sets a gather kernel's span argument (BENCH_KERNEL_ARG_SPAN: the
 * launch's work-items, by which each virtual item is offset); nothing for
 * a family's own kernel. Every launch sets it: a twin's slice launches
 * fewer. */
bw_code bench_runner_set_span(run_ctx *r, size_t i, ocl_kernel *k, int64_t span, bw_error *err);
/* One launch of item i's kernel k, in form `form`, over the first `span`
 * of the launch's work-items (the twin's slices): span set, and the warp
 * form's W of them in each of its own, as a whole launch runs them. */
bw_code bench_runner_launch_span(run_ctx *r, size_t i, ocl_kernel *k, bench_form form, int64_t span, ocl_timing *t,
                                 bw_error *err);
void bench_runner_after_warmup(run_ctx *r, size_t i, double event_ns);
bw_code bench_runner_validate_item(run_ctx *r, size_t i, ocl_kernel *kern, bench_form form, bw_error *err);
bw_code bench_runner_stage_alloc(run_ctx *r, bw_error *err);
bench_fill_io bench_runner_fill_io(const run_ctx *r);
bw_code bench_runner_setup_buffers(run_ctx *r, bench_run_info *info, bw_error *err);
void bench_runner_teardown(run_ctx *r);

/* bench_runner_schedule.c: what the budget holds */
void bench_runner_leave_out(run_ctx *r, size_t i, int how, const char *why);
int bench_runner_serves_as_reference(const run_ctx *r, size_t i);
size_t bench_runner_group_of(const run_ctx *r, size_t i);
void bench_runner_prepare(run_ctx *r, volatile sig_atomic_t *stop, bench_run_info *info);
void bench_runner_replan(run_ctx *r, bench_run_info *info);
int bench_runner_resume_dropped(run_ctx *r, bench_run_info *info);
int bench_runner_take_up_left_out(run_ctx *r, bench_run_info *info);

/* bench_runner_rounds.c: the timing rounds */
size_t bench_runner_launches_per_turn(const run_ctx *r, size_t i);
void bench_runner_typical_launch(run_ctx *r);
double bench_runner_turn_ns(const run_ctx *r, size_t i);
bench_pair_ci bench_runner_paired(const run_ctx *r, size_t i, size_t ref);
long bench_runner_paired_reference(const run_ctx *r, size_t i);
double bench_runner_rule_rse(const run_ctx *r, size_t i);
/* item i's requested bytes over item ref's: what turns their paired time
 * ratio into item i's figure relative to ref's */
double bench_runner_bytes_ratio(const run_ctx *r, size_t i, size_t ref);
void bench_runner_measure(run_ctx *r, volatile sig_atomic_t *stop, bench_run_info *info);

/* bench_runner_twin.c: the twins within the run */
void bench_runner_no_twin(bench_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int bench_runner_twin_collecting(const slot *sl);
void bench_runner_twin_after_launch(run_ctx *r, size_t i);
void bench_runner_twin_end(run_ctx *r, size_t i);
double bench_runner_twin_launches(double reps);
void bench_runner_plan_twins(run_ctx *r);
void bench_runner_twin_when_due(run_ctx *r, size_t i);

#endif
