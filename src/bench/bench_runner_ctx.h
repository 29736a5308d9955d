/* bench_runner_ctx: the state a run shares between the runner's parts
 * (bench_runner.c, bench_runner_build.c, _schedule.c, _twin.c, _trace.c),
 * private to them: the per-item slot, the run's context, and the helpers
 * one part calls in another. The run (bench_run) owns every slot and
 * buffer in it; bench_runner.h is the runner's interface. */
#ifndef BENCH_RUNNER_CTX_H
#define BENCH_RUNNER_CTX_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_runner.h"
#include "bench_family.h"
#include "bench_fill.h"
#include "bench_stats.h"
#include "bench_twin.h"
#include "bench_validate.h"
#include "bw_format.h"
#include "bw_hook.h"
#include "bw_stats.h"
#include "ocl_buffer.h"
#include "ocl_error.h"
#include "ocl_program.h"

#define SOURCE_SEED UINT64_C(0x62776c6162)
/* below about 20 us, launch overhead and timer ticks dominate an event time */
#define LAUNCH_FLOOR_NS 20000.0
/* A launch lasts at least this many ticks of its timer: a tick is then at
 * most 1% of one sample and, the tick's phase being random, far less of a
 * median of many. More would hurt: at 1000 ticks a 1 us timer (NVIDIA's)
 * makes a floor longer than a fast GPU takes to stream a default working
 * set, and no pattern of a default run could be measured there. */
#define LAUNCH_FLOOR_TICKS 100.0
/* a pattern whose launches mostly read 0 ns is not measurable: at least this many */
#define DROPPED_LIMIT 3
/* Host memory of a run, whatever the plan's size: one staging buffer of at
 * most this (a source the device cannot fill is generated into it and
 * written a chunk at a time, dst is read back through it), plus
 * validation's 8 MiB of addresses. A 16 GiB plan on a large GPU needs no 16 GiB of host RAM. */
#define HOST_STAGE ((uint64_t)64 << 20)

/* timed launches per kernel form, alternated in the first rounds, before
 * the faster form is chosen (the chosen form's launches stay its
 * samples): FORM_CALIBRATION, fewer for long launches, down to
 * FORM_CALIBRATION_MIN, so that the losing form costs about
 * FORM_CALIBRATION_S */
#define FORM_CALIBRATION 5
#define FORM_CALIBRATION_MIN 2
#define FORM_CALIBRATION_S 0.25

/* rounds of the twin: each follows one of the pattern's own timed
 * launches (whose footprint evicts the slice): the slice of 2N items
 * cold, then N and 2N warm */
#define TWIN_ROUNDS 7
/* the fewest rounds a twin is read from when the budget ends first */
#define TWIN_ROUNDS_MIN 3

/* per-pattern state while running */
typedef struct slot {
    ocl_program *prog;
    ocl_kernel *kern; /* the form that is timed */
    ocl_kernel *alt;  /* the other form, until one is chosen */
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
    int met;         /* the stopping rule is met (meets_rule); the result's `stable` */
    /* beside each sample (bench_result.event_ns): the round it was timed
     * in, and its slot (0: the item's own place in the round, 1: a
     * reference's control slot, half a round away), and its place in the
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
} run_ctx;


/* the rounds that end the timing once every pattern has them (measure) */
#define FLOOR_ROUNDS 3

/* bench_runner.c */
void bench_runner_report(run_ctx *r, const char *phase, size_t done, size_t total, const char *spec, double remaining);
size_t bench_runner_form_launches_of(double t_ns);
double bench_runner_time_left(const run_ctx *r);
void bench_runner_report_finished(run_ctx *r, size_t i);
void bench_runner_fail(bench_result *res, bw_code code, const char *msg);
void bench_runner_format_us(char *buf, size_t n, double ns);
void bench_runner_prepare_one(run_ctx *r, size_t i);
long bench_runner_paired_reference(const run_ctx *r, size_t i);
double bench_runner_rule_rse(const run_ctx *r, size_t i);

/* bench_runner_build.c */
bw_code bench_runner_build_program(run_ctx *r, size_t first, size_t count, int trace, ocl_program **prog,
                                   bw_error *err);
bw_code bench_runner_make_kernel(run_ctx *r, ocl_program *prog, size_t i, bench_form form, ocl_kernel **kern,
                                 bw_error *err);
bw_code bench_runner_make_own_kernel(run_ctx *r, size_t i, int trace, ocl_program **prog, ocl_kernel **kern,
                                     bw_error *err);
double bench_runner_run_floor_ns(const run_ctx *r);
double bench_runner_device_floor_ns(const run_ctx *r);
bw_code bench_runner_launch(run_ctx *r, size_t i, ocl_kernel *k, ocl_timing *t, bw_error *err);
bw_code bench_runner_validate_item(run_ctx *r, size_t i, ocl_kernel *kern, bw_error *err);
bw_code bench_runner_stage_alloc(run_ctx *r, bw_error *err);
bench_fill_io bench_runner_fill_io(const run_ctx *r);
bw_code bench_runner_setup_buffers(run_ctx *r, bench_run_info *info, bw_error *err);
void bench_runner_teardown(run_ctx *r);
void bench_runner_build_all(run_ctx *r, volatile sig_atomic_t *stop);

/* bench_runner_schedule.c */
void bench_runner_leave_out(run_ctx *r, size_t i, int how, const char *why);
int bench_runner_serves_as_reference(const run_ctx *r, size_t i);
double bench_runner_prepare_launches(const bench_settings *s);
void bench_runner_plan_timing(run_ctx *r, bench_run_info *info, int first);
void bench_runner_plan_note(run_ctx *r, bench_run_info *info);
size_t bench_runner_launches_per_turn(const run_ctx *r, size_t i);
void bench_runner_typical_launch(run_ctx *r);
void bench_runner_stop_groups(run_ctx *r);
void bench_runner_replan(run_ctx *r, bench_run_info *info);
int bench_runner_resume_dropped(run_ctx *r, bench_run_info *info);
int bench_runner_take_up_left_out(run_ctx *r, bench_run_info *info);
void bench_runner_round_order(size_t *order, size_t *pos, size_t n, size_t k);

/* bench_runner_twin.c */
void bench_runner_no_twin(bench_result *res, const char *fmt, ...) BW_PRINTF(2, 3);
int bench_runner_twin_collecting(const slot *sl);
void bench_runner_twin_after_launch(run_ctx *r, size_t i);
void bench_runner_twin_end(run_ctx *r, size_t i);
double bench_runner_twin_launches(double reps);
void bench_runner_plan_twins(run_ctx *r);
void bench_runner_twin_when_due(run_ctx *r, size_t i);

#endif
