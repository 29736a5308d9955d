/* bench_runner: measuring a plan on one device: buffers filled, each
 * pattern built, validated and warmed up, then timed round-robin, its
 * twin's launches interleaved, until its median is stable or the budget
 * ends (bench_runner.h). */
#include "bench_runner.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

bench_settings bench_settings_default(void)
{
    bench_settings s = { 50.0, 0.0, 0.01, 5, 2000, 1, 0.0, 0.2, 0 };
    return s;
}

double bench_launch_floor_ns(const bench_settings *s, uint64_t timer_resolution_ns)
{
    if (s->min_launch_ns > 0)
        return s->min_launch_ns;
    double f = LAUNCH_FLOOR_TICKS * (double)timer_resolution_ns;
    return f > LAUNCH_FLOOR_NS ? f : LAUNCH_FLOOR_NS;
}

int bench_sample_ok(double event_ns)
{
    return event_ns > 0 && isfinite(event_ns);
}

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

static void report(run_ctx *r, const char *phase, size_t done, size_t total, const char *spec,
                   double remaining)
{
    bw_hook_phase(phase); /* test builds only: a signal as this phase begins */
    if (!r->progress)
        return;
    double now = bench_now_s();
    if (remaining < 0 && r->deadline > 0)
        remaining = r->deadline > now ? r->deadline - now : 0;
    bench_progress p = { phase, done, total, spec, now - r->t_start, remaining, NULL, -1 };
    r->progress(r->pctx, &p);
}

/* launches per form before item i's form is chosen, at launch time t_ns */
static size_t form_launches_of(double t_ns)
{
    double n = t_ns > 0 ? ceil(FORM_CALIBRATION_S * 1e9 / t_ns) : FORM_CALIBRATION;
    return n >= FORM_CALIBRATION ? FORM_CALIBRATION : n <= FORM_CALIBRATION_MIN ? FORM_CALIBRATION_MIN : (size_t)n;
}

/* seconds until the run's deadline (negative once past it) */
static double time_left(const run_ctx *r)
{
    return r->deadline - bench_now_s();
}

static void finish_one(run_ctx *r, size_t i);

/* pattern i is done: its figures, once, to the progress callback */
static void report_finished(run_ctx *r, size_t i)
{
    if (r->slots[i].reported)
        return;
    r->slots[i].reported = 1;
    if (!r->progress)
        return;
    if (r->res[i].status == BENCH_OK)
        finish_one(r, i);
    bench_progress p = { "finished", i, r->plan->n, r->plan->items[i].spec, bench_now_s() - r->t_start, -1,
                         r->res, (long)i };
    r->progress(r->pctx, &p);
}

static void fail(bench_result *res, bw_code code, const char *msg)
{
    res->status = BENCH_FAILED;
    res->failure_code = code;
    free(res->failure);
    res->failure = strdup(msg);
}

/* builds the kernels of items [first, first+count) as one program */
static bw_code build_program(run_ctx *r, size_t first, size_t count, int trace, ocl_program **prog,
                             bw_error *err)
{
    for (size_t i = first; i < first + count; i++)
        if (bw_hook_fault("build", r->plan->items[i].spec, NULL))
            return bw_error_set(err, BW_E_BUILD, "kernel build failed for %s (injected: BWLAB_TEST_FAULTS)",
                                r->plan->items[i].spec);
    char *source = NULL;
    bw_code rc = bench_kernel_program(r->kernels, r->plan, first, count, trace, &source, err);
    if (rc == BW_OK)
        rc = ocl_program_build(r->ctx, source, BENCH_KERNEL_FILE, NULL, prog, err);
    free(source);
    return rc;
}

/* the kernel's own work-group limit is known only now; an automatic size
 * is lowered to fit, a --local one that does not fit fails the pattern */
static bw_code fit_group(run_ctx *r, size_t i, ocl_kernel *kern, bw_error *err)
{
    size_t most = 0, multiple = 0;
    bw_code rc = ocl_kernel_work_group_info(kern, &most, &multiple, err);
    if (rc == BW_OK)
        rc = bench_plan_fit_kernel(r->plan, i, (uint64_t)most, err);
    return rc;
}

static bw_code make_kernel(run_ctx *r, ocl_program *prog, size_t i, bench_form form, ocl_kernel **kern,
                           bw_error *err)
{
    char name[48];
    bench_kernel_name(i, form, name, sizeof name);
    bw_code rc = ocl_kernel_create(prog, name, kern, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(*kern, 0, r->src, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(*kern, 1, r->dst, err);
    /* a read-mode kernel has a key from the start, so that any launch is
     * well-defined; validation sets the ones that matter */
    static const uint8_t zero[16];
    if (rc == BW_OK && r->plan->items[i].access == BENCH_ACCESS_READ)
        rc = ocl_kernel_arg_bytes(*kern, BENCH_KERNEL_ARG_KEY, zero, (size_t)r->plan->items[i].elem, err);
    if (rc == BW_OK)
        rc = fit_group(r, i, *kern, err);
    return rc;
}

/* The kernel of item i of a family with a program of its own
 * (bench_family.program): the program built, src and dst as arguments 0
 * and 1, the family's local-memory argument where it has one; with trace,
 * the trace buffer comes later. In a test build a build failure may be
 * injected, as for the shared program (build_program). */
static bw_code make_own_kernel(run_ctx *r, size_t i, int trace, ocl_program **prog, ocl_kernel **kern,
                               bw_error *err)
{
    const bench_item *it = &r->plan->items[i];
    if (bw_hook_fault("build", it->spec, NULL))
        return bw_error_set(err, BW_E_BUILD, "kernel build failed for %s (injected: BWLAB_TEST_FAULTS)", it->spec);
    bench_family_program fp = { 0 };
    bw_code rc = it->fam->program(bench_kernels_dir(r->kernels), r->plan, it, trace, &fp, err);
    if (rc == BW_OK)
        rc = ocl_program_build(r->ctx, fp.source, fp.file, NULL, prog, err);
    free(fp.source);
    if (rc == BW_OK)
        rc = ocl_kernel_create(*prog, fp.kernel, kern, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(*kern, 0, r->src, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(*kern, 1, r->dst, err);
    if (rc == BW_OK && fp.local_bytes > 0)
        rc = ocl_kernel_arg_local(*kern, fp.local_arg, fp.local_bytes, err);
    if (rc == BW_OK)
        rc = fit_group(r, i, *kern, err);
    return rc;
}

/* the wall clock's floor: an empty launch's overhead at most a tenth of the launch */
#define WALL_OVERHEAD_SHARE 10.0

/* The shortest launch this run's timer can time: bench_launch_floor_ns of
 * its resolution, and on the host clock (a queue without profiling) at
 * least 10 x the launch overhead that every wall-timed launch includes. */
static double floor_of(const run_ctx *r, const bench_settings *s)
{
    double tick = 0, overhead = 0;
    ocl_context_timer(r->ctx, &tick, &overhead);
    double f = bench_launch_floor_ns(s, (uint64_t)(tick + 0.5));
    return s->min_launch_ns <= 0 && WALL_OVERHEAD_SHARE * overhead > f ? WALL_OVERHEAD_SHARE * overhead : f;
}

static double run_floor_ns(const run_ctx *r)
{
    return floor_of(r, r->s);
}

/* the same from the device's timer alone, whatever floor the caller set:
 * what a slice needs to be resolved (a caller's lower floor, as the tests
 * set to time small launches, only admits more launches) */
static double device_floor_ns(const run_ctx *r)
{
    bench_settings s = *r->s;
    s.min_launch_ns = 0;
    return floor_of(r, &s);
}

/* One launch of item i's kernel k. The result records how it was timed.
 * A launch that fails with a size-dependent error (CL_OUT_OF_RESOURCES,
 * CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_INVALID_WORK_GROUP_SIZE: drivers
 * that advertise a work-group they cannot run) is retried once at half
 * the work-group, for every later launch of the item too, and the result
 * says what changed. Not retried: the items of a family whose local tile
 * is sized by the work-group (bench_family.retry_half 0: bank,
 * transpose), and launches of a trace run (no results to note it in). */
static bw_code launch_range(run_ctx *r, size_t i, ocl_kernel *k, int64_t first, int64_t count, ocl_timing *t,
                            bw_error *err)
{
    bench_item *it = &r->plan->items[i];
    int64_t items = count > 0 ? count : it->launch_items > 0 ? it->launch_items : it->items;
    bw_code rc = ocl_kernel_run_at(r->ctx, k, (uint64_t)first, (uint64_t)items, (uint64_t)it->local_size, t, err);
    bench_result *res = r->res ? &r->res[i] : NULL; /* none in a trace run */
    if (!res)
        return rc;
    res->timer_wall = !ocl_context_timer(r->ctx, &res->timer_resolution_ns, &res->launch_overhead_ns);
    int64_t half = it->local_size / 2;
    int status = rc == BW_OK ? 0 : ocl_kernel_size_status(k);
    if (!status || res->retry || !it->fam->retry_half || half < 1 || items % half != 0)
        return rc;
    char note[160];
    snprintf(note, sizeof note, "work-group %lld failed (%s); ran at %lld", (long long)it->local_size,
             ocl_error_name(status), (long long)half);
    if (err)
        bw_error_clear(err);
    rc = ocl_kernel_run_at(r->ctx, k, (uint64_t)first, (uint64_t)items, (uint64_t)half, t, err);
    if (rc != BW_OK)
        return rc;
    if (!(res->retry = strdup(note)))
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    it->local_size = half;
    return BW_OK;
}

/* one whole launch of item i's kernel k (launch_range) */
static bw_code launch(run_ctx *r, size_t i, ocl_kernel *k, ocl_timing *t, bw_error *err)
{
    return launch_range(r, i, k, 0, 0, t, err);
}

/* what a family's validation reaches of the run: item i's kernel k */
typedef struct validation {
    run_ctx *r;
    size_t i;
    ocl_kernel *k;
} validation;

static bw_code io_launch(void *ctx, bw_error *err)
{
    validation *v = ctx;
    ocl_timing t;
    return launch(v->r, v->i, v->k, &t, err);
}

static bw_code io_launch_range(void *ctx, int64_t first, int64_t count, bw_error *err)
{
    validation *v = ctx;
    ocl_timing t;
    return launch_range(v->r, v->i, v->k, first, count, &t, err);
}

static bw_code io_set_key(void *ctx, const void *key, size_t n, bw_error *err)
{
    validation *v = ctx;
    return ocl_kernel_arg_bytes(v->k, BENCH_KERNEL_ARG_KEY, key, n, err);
}

static bw_code io_read_dst(void *ctx, uint64_t offset, void *buf, uint64_t n, bw_error *err)
{
    validation *v = ctx;
    return ocl_buffer_read(v->r->ctx, v->r->dst, offset, buf, n, err);
}

static bw_code io_write_dst(void *ctx, uint64_t offset, const void *buf, uint64_t n, bw_error *err)
{
    validation *v = ctx;
    return ocl_buffer_write(v->r->ctx, v->r->dst, offset, buf, n, err);
}

/* one launch, then the host reference check of its family
 * (bench_family.validate): own-kernel items whole (their launches are
 * small or their references need the whole input), gather items by
 * sample */
static bw_code validate(run_ctx *r, size_t i, ocl_kernel *kern, bw_error *err)
{
    validation v = { r, i, kern };
    bench_family_io io = { r->plan, i, SOURCE_SEED, r->stage, r->stage_bytes, r->stop, &v,
                           io_launch, io_launch_range, io_set_key, io_read_dst, io_write_dst };
    return r->plan->items[i].fam->validate(&io, err);
}

/* validate, or in a test build a validation failure injected for the item */
static bw_code validate_item(run_ctx *r, size_t i, ocl_kernel *kern, bw_error *err)
{
    bw_code rc = validate(r, i, kern, err);
    if (rc == BW_OK && bw_hook_fault("validate", r->plan->items[i].spec, NULL))
        rc = bw_error_set(err, BW_E_VALIDATION, "%s: dst[0] differs from the host's result (injected: "
                          "BWLAB_TEST_FAULTS)", r->plan->items[i].spec);
    return rc;
}

/* the staging buffer: HOST_STAGE, or less for a plan whose buffers are smaller */
static bw_code stage_alloc(run_ctx *r, bw_error *err)
{
    const bench_plan *p = r->plan;
    uint64_t most = p->src_bytes > p->dst_bytes ? p->src_bytes : p->dst_bytes;
    r->stage_bytes = most < HOST_STAGE ? (most + 15) / 16 * 16 : HOST_STAGE;
    if (r->stage_bytes < 16)
        r->stage_bytes = 16;
    r->stage = malloc((size_t)r->stage_bytes);
    if (!r->stage)
        return bw_error_set(err, BW_E_NOMEM, "out of host memory for a %llu-byte staging buffer",
                            (unsigned long long)r->stage_bytes);
    return BW_OK;
}

/* room for cap samples; 0 when out of memory */
static int reserve(bench_result *res, slot *sl, size_t cap)
{
    if (cap <= sl->cap)
        return 1;
    double *e = realloc(res->event_ns, cap * sizeof *e);
    if (!e)
        return 0;
    res->event_ns = e;
    double *w = realloc(res->wall_ns, cap * sizeof *w);
    if (!w)
        return 0;
    res->wall_ns = w;
    size_t *rd = realloc(sl->ev_round, cap * sizeof *rd);
    if (!rd)
        return 0;
    sl->ev_round = rd;
    size_t *ps = realloc(sl->ev_pos, cap * sizeof *ps);
    if (!ps)
        return 0;
    sl->ev_pos = ps;
    unsigned char *sd = realloc(sl->ev_slot, cap * sizeof *sd);
    if (!sd)
        return 0;
    sl->ev_slot = sd;
    sl->cap = cap;
    return 1;
}

/* a sample of item i's launch in the round under way, in slot `control`
 * (0: its own, 1: its control slot) */
static int record(run_ctx *r, size_t i, const ocl_timing *t, int control)
{
    bench_result *res = &r->res[i];
    slot *sl = &r->slots[i];
    size_t n = res->event.count;
    if (n == sl->cap && !reserve(res, sl, sl->cap ? sl->cap * 2 : 64))
        return 0;
    res->event_ns[n] = t->event_ns;
    res->wall_ns[n] = t->wall_ns;
    sl->ev_round[n] = r->round;
    sl->ev_pos[n] = r->launches++;
    sl->ev_slot[n] = (unsigned char)control;
    sl->total_ns += t->event_ns;
    res->event = bench_stats_of(res->event_ns, n + 1);
    return 1;
}

/* how the run fills its buffers (bench_fill.h) */
static bench_fill_io fill_io(const run_ctx *r)
{
    bench_fill_io io = { r->ctx, r->kernels ? bench_kernels_dir(r->kernels) : NULL, r->stage, r->stage_bytes,
                         r->stop };
    return io;
}

/* Both buffers, filled: src with the source stream (on the device where it
 * can; info->fill_note says when not), dst with the write sentinel's word
 * (every validation refills the bytes it checks). Writing both makes lazily
 * allocating drivers commit the memory now, before anything is timed. */
static bw_code setup_buffers(run_ctx *r, bench_run_info *info, bw_error *err)
{
    const bench_plan *p = r->plan;
    bw_code rc = stage_alloc(r, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(r->ctx, p->src_bytes, "src", &r->src, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(r->ctx, p->dst_bytes, "dst", &r->dst, err);
    bench_fill_io io = fill_io(r);
    if (rc == BW_OK)
        rc = bench_fill_src_device(&io, r->src, p->src_bytes, SOURCE_SEED, info->fill_note, sizeof info->fill_note,
                                   err);
    const uint32_t sentinel = BENCH_WRITE_SENTINEL;
    if (rc == BW_OK)
        rc = bench_fill_pattern(&io, r->dst, p->dst_bytes, &sentinel, sizeof sentinel, err);
    return rc;
}

static void teardown(run_ctx *r)
{
    if (r->slots) {
        for (size_t i = 0; i < r->plan->n; i++) {
            free(r->slots[i].ev_round);
            free(r->slots[i].ev_pos);
            free(r->slots[i].ev_slot);
            ocl_kernel_free(r->slots[i].kern);
            ocl_kernel_free(r->slots[i].alt);
            ocl_program_free(r->slots[i].prog);
        }
    }
    ocl_program_free(r->common);
    free(r->slots);
    ocl_buffer_free(r->src);
    ocl_buffer_free(r->dst);
    free(r->stage);
}

/* Item i's kernels: its own (make_own_kernel), or from the shared
 * program the plain form, and the scalar one where the plan asks for
 * both. */
static bw_code make_kernels(run_ctx *r, ocl_program *prog, size_t i, bw_error *err)
{
    if (r->plan->items[i].fam->program)
        return make_own_kernel(r, i, 0, &r->slots[i].prog, &r->slots[i].kern, err);
    bw_code rc = make_kernel(r, prog, i, BENCH_FORM_PLAIN, &r->slots[i].kern, err);
    if (rc == BW_OK && r->plan->items[i].scalar_form)
        rc = make_kernel(r, prog, i, BENCH_FORM_SCALAR, &r->slots[i].alt, err);
    return rc;
}

/* One program for all patterns; should it fail, each pattern alone, so
 * that one bad pattern does not take the others down. */
static void build_all(run_ctx *r, volatile sig_atomic_t *stop)
{
    const bench_plan *p = r->plan;
    report(r, "building", 0, 1, NULL, -1);
    bw_error e = BW_ERROR_INIT;
    ocl_program *prog = NULL;
    if (build_program(r, 0, p->n, 0, &prog, &e) == BW_OK) {
        for (size_t i = 0; i < p->n && !*stop; i++) {
            if (r->res[i].status != BENCH_OK)
                continue;
            if (make_kernels(r, prog, i, &e) != BW_OK)
                fail(&r->res[i], e.code, bw_error_text(&e));
            bw_error_clear(&e);
        }
        r->common = prog; /* released with the kernels */
        return;
    }
    int systemic = e.code == BW_E_BUILD;
    bw_error first = e;
    for (size_t i = 0; i < p->n && !*stop; i++) {
        bw_error one = BW_ERROR_INIT;
        if (r->res[i].status != BENCH_OK)
            continue;
        if (!systemic || p->n == 1) {
            fail(&r->res[i], first.code, bw_error_text(&first));
            continue;
        }
        report(r, "building", i, p->n, p->items[i].spec, -1);
        if ((!p->items[i].fam->program && build_program(r, i, 1, 0, &r->slots[i].prog, &one) != BW_OK) ||
            make_kernels(r, r->slots[i].prog, i, &one) != BW_OK)
            fail(&r->res[i], one.code, bw_error_text(&one));
        bw_error_clear(&one);
    }
    bw_error_clear(&first);
}

/* "3.2 us" with the precision a reader needs */
static void format_us(char *buf, size_t n, double ns)
{
    double us = ns / 1000.0;
    snprintf(buf, n, us < 10 ? "%.2f µs" : us < 1000 ? "%.1f µs" : "%.0f µs", us);
}

static void not_measurable(bench_result *res, const char *msg)
{
    res->status = BENCH_NOT_MEASURABLE;
    res->failure_code = BW_E_RANGE;
    free(res->failure);
    res->failure = strdup(msg);
}

/* The sub-group size the kernel runs at, and whether a launch is long
 * enough to time at all: a launch shorter than the floor is reported as
 * not measurable, never as a bandwidth. */
static void after_warmup(run_ctx *r, size_t i, double event_ns)
{
    bench_result *res = &r->res[i];
    bw_error e = BW_ERROR_INIT;
    size_t sg = 0;
    /* unknown (0) when the driver cannot tell: that is no failure */
    if (ocl_kernel_sub_group_size(r->slots[i].kern, (size_t)r->plan->items[i].local_size, &sg, &e) == BW_OK)
        res->sub_group_size = sg;
    bw_error_clear(&e);
    res->check_ns = event_ns;
    uint64_t tick = ocl_context_device(r->ctx)->timer_resolution_ns;
    double floor = run_floor_ns(r);
    if (bench_sample_ok(event_ns) && event_ns >= floor)
        return;
    char took[32], fl[32], msg[256];
    format_us(took, sizeof took, event_ns > 0 ? event_ns : 0);
    format_us(fl, sizeof fl, floor);
    if (r->s->min_launch_ns > 0)
        snprintf(msg, sizeof msg, "not measurable: a launch takes %s (measured), below the %s floor "
                 "asked for; use a larger --size", took, fl);
    else if (res->timer_wall)
        snprintf(msg, sizeof msg, "not measurable: a launch takes %s (measured, host clock), below the %s floor "
                 "(10x the %.1f µs launch overhead, 100x the clock's resolution, or 20 µs); use a larger --size",
                 took, fl, res->launch_overhead_ns / 1e3);
    else
        snprintf(msg, sizeof msg, "not measurable: a launch takes %s (measured), below the %s floor "
                 "(100x the device timer's %llu ns resolution, or 20 µs); use a larger --size",
                 took, fl, (unsigned long long)tick);
    not_measurable(res, msg);
}

#define TWIN_SHRINK 8

static void no_twin(bench_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void no_twin(bench_result *res, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    free(res->twin_reason);
    res->twin_reason = strdup(msg);
}

/* the last-level cache the twin must fit in: the plan's figure, else the
 * device's (a --size run has no plan figure) */
static uint64_t twin_cache(const run_ctx *r)
{
    return r->plan->cache_bytes ? r->plan->cache_bytes : ocl_context_device(r->ctx)->global_cache_bytes;
}

/* N for item i: sized from the modeled bytes per work-item (the
 * instruction-model bytes: no prefix of the launch touches more, warps
 * being alike), then checked against the exact footprint of 2N items and
 * halved while it does not fit; 0 with the reason set when none fits */
static int64_t twin_size(run_ctx *r, size_t i)
{
    const bench_item *it = &r->plan->items[i];
    bench_result *res = &r->res[i];
    const model_launch *m = &it->model;
    uint64_t cache = twin_cache(r), room = cache / BENCH_TWIN_CACHE_DIVISOR;
    double per_item = (double)((m->loads.instr_sectors + m->stores.instr_sectors) * r->plan->geo.sector) /
                      (double)it->items;
    char a[32], b[32];
    if (!cache) {
        no_twin(res, "no twin: no last-level cache size is known (the device reports none)");
        return 0;
    }
    /* a launch that is itself partly cache-resident has no memory to take
     * out of the way: its twin would compare the cache with the cache */
    uint64_t whole = (uint64_t)((m->loads.footprint_sectors + m->stores.footprint_sectors) * r->plan->geo.sector);
    if (whole < 2 * cache) {
        bw_format_bytes(a, sizeof a, (double)whole);
        bw_format_bytes(b, sizeof b, (double)cache);
        no_twin(res, "no twin: the launch touches %s (modeled), less than twice the %s last-level cache, so "
                "it is partly served from the cache itself", a, b);
        return 0;
    }
    int64_t n = bench_twin_slice(per_item, cache, it->local_size, it->items);
    uint64_t fp = 0;
    for (int k = 0; n > 0 && k <= TWIN_SHRINK; k++) {
        bw_error e = BW_ERROR_INIT;
        if (bench_twin_footprint(&r->plan->geo, it, 2 * n, &fp, &e) != BW_OK) {
            no_twin(res, "no twin: %s", bw_error_text(&e));
            bw_error_clear(&e);
            return 0;
        }
        if (fp <= room) {
            /* no larger than its timing needs: the smaller the slice, the
             * surer it stays in a cache the figure may overstate
             * (bench_twin_timed_slice); twin_settle grows it back toward
             * the cache's N if it does not resolve */
            r->slots[i].twin_cap = n;
            double pace = res->event.count > 0 ? res->event.min : r->slots[i].cal_ns;
            int64_t timed = bench_twin_timed_slice(pace, it->items, device_floor_ns(r), it->local_size);
            return timed > 0 && timed < n ? timed : n;
        }
        n = n / 2 / it->local_size * it->local_size;
    }
    bw_format_bytes(a, sizeof a, (double)cache);
    bw_format_bytes(b, sizeof b, per_item * 2.0 * (double)it->local_size);
    no_twin(res, "no twin: two work-groups (%lld work-items) touch about %s (modeled), more than 1/%d of the "
            "%s last-level cache", (long long)(2 * it->local_size), b, BENCH_TWIN_CACHE_DIVISOR, a);
    return 0;
}

/* One round of item i's twin, right after one of its own timed launches,
 * whose footprint (at least twice the cache) has evicted the slice: the
 * first 2N work-items cold, which is the pattern at its memory's pace;
 * then N and 2N of them warm, which is the twin. Interleaved with the
 * pattern's launches, the twin meets the host the pattern meets, and its
 * evicting launch is a sample, not a cost. A failed launch ends the twin
 * with its reason. */
static void twin_round(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    const bench_item *it = &r->plan->items[i];
    uint64_t ls = (uint64_t)it->local_size, n = (uint64_t)sl->twin_n;
    ocl_timing tc, t1, t2;
    bw_error e = BW_ERROR_INIT;
    bw_code rc = ocl_kernel_run(r->ctx, sl->kern, 2 * n, ls, &tc, &e);
    if (rc == BW_OK)
        rc = ocl_kernel_run(r->ctx, sl->kern, n, ls, &t1, &e);
    if (rc == BW_OK)
        rc = ocl_kernel_run(r->ctx, sl->kern, 2 * n, ls, &t2, &e);
    if (rc != BW_OK) {
        no_twin(&r->res[i], "no twin: %s", bw_error_text(&e));
        bw_error_clear(&e);
        sl->twin_n = 0;
        sl->twinned = 1;
        return;
    }
    /* a 0 ns event is no sample: as slow as can be, it is never the fastest */
    size_t k = sl->twin_k++;
    sl->twin_cold[k] = bench_sample_ok(tc.event_ns) ? tc.event_ns : INFINITY;
    sl->twin_one[k] = bench_sample_ok(t1.event_ns) ? t1.event_ns : INFINITY;
    sl->twin_two[k] = bench_sample_ok(t2.event_ns) ? t2.event_ns : INFINITY;
}

/* Item i's twin from its rounds so far. The fastest launch of each kind is
 * the least disturbed by the host (its hiccups only ever add time).
 * Launch overhead cancels: the twin's per-item time is (T(2N) - T(N)) / N
 * warm, and the overhead 2 T(N) - T(2N) comes off the cold slice. A
 * difference below the timer floor grows the slice (4 N, at most the
 * cache's N) for another set of rounds; at the cache's N it is measured
 * once more, and then, or in the last rounds (`last`: the measurement
 * ended), it gives no figure. */
static void twin_settle(run_ctx *r, size_t i, int last)
{
    bench_result *res = &r->res[i];
    slot *sl = &r->slots[i];
    const bench_item *it = &r->plan->items[i];
    int64_t n = sl->twin_n;
    double c = bench_stats_of(sl->twin_cold, sl->twin_k).min, t1 = bench_stats_of(sl->twin_one, sl->twin_k).min,
           t2 = bench_stats_of(sl->twin_two, sl->twin_k).min;
    double diff = t2 - t1, overhead = 2 * t1 - t2;
    double floor = run_floor_ns(r);
    sl->twin_k = 0;
    int growing = n < sl->twin_cap && !last;
    /* the test hook: short while the slice grows, and with @N its first set at the cache's N */
    int64_t hook_n = 0;
    int forced =
        bw_hook_fault("twin_short", it->spec, &hook_n) && (growing || (hook_n > 0 && sl->twin_unresolved == 0));
    int unresolved = !(diff >= floor) || forced;
    if (growing && unresolved) {
        /* too short to resolve on this host now: 4 times the slice, within
         * what the cache holds, and its rounds again */
        sl->twin_n = 4 * n < sl->twin_cap ? 4 * n : sl->twin_cap;
        return;
    }
    if (unresolved) {
        /* at the cache's N, a busy host can give every N launch less of the
         * CPUs than the fastest 2N one (T(2N) <= T(N)): once more */
        if (sl->twin_unresolved++ == 0 && !last)
            return;
        char took[32], fl[32];
        format_us(took, sizeof took, diff > 0 && isfinite(diff) ? diff : 0);
        format_us(fl, sizeof fl, floor);
        no_twin(res, "no twin: its launch of %lld more work-items takes %s more (measured), below the %s floor%s",
                (long long)n, took, fl, sl->twin_unresolved > 1 ? ", in two sets of rounds" : "");
        res->twin_items = 0;
        res->twin_item_ns = res->twin_ns = res->twin_cold_ns = 0;
        sl->twinned = 1;
        return;
    }
    if (overhead < 0)
        overhead = 0;
    res->twin_items = n;
    res->twin_item_ns = diff / (double)n;
    res->twin_ns = res->twin_item_ns * (double)it->items;
    res->twin_cold_ns = (c - overhead) / (double)(2 * n) * (double)it->items;
    /* a twin slower than its own pattern is a measurement error: measured
     * once more, interleaved with the pattern's later launches */
    if (res->twin_ns > BENCH_TWIN_MAX_RATIO * res->event.min && res->event.min > 0 && sl->twin_tries++ == 0)
        return;
    sl->twinned = 1;
}

/* whether item i's twin is still collecting its rounds */
static int twin_collecting(const slot *sl)
{
    return !sl->twinned && sl->twin_n > 0;
}

/* after one of item i's timed launches: its twin's next round while it collects them */
static void twin_after_launch(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    if (!twin_collecting(sl) || r->res[i].status != BENCH_OK)
        return;
    twin_round(r, i);
    if (twin_collecting(sl) && sl->twin_k == TWIN_ROUNDS)
        twin_settle(r, i, 0);
}

/* the rounds end: a twin still collecting is read from the rounds it has */
static void twin_end(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    if (!twin_collecting(sl))
        return;
    if (sl->twin_k >= TWIN_ROUNDS_MIN)
        twin_settle(r, i, 1);
    else if (r->res[i].twin_items == 0)
        no_twin(&r->res[i], "no twin: the budget ended after %zu of its rounds (at least %d are needed)",
                sl->twin_k, TWIN_ROUNDS_MIN);
    sl->twinned = 1;
}

/* item i is left out for the budget: never timed, the reason in its result */
static void leave_out(run_ctx *r, size_t i, int how, const char *why)
{
    bench_result *res = &r->res[i];
    r->slots[i].left_out = how;
    r->slots[i].left_rank = ++r->left_count;
    free(res->budget_note);
    res->budget_note = strdup(why);
    if (how != 2) {
        res->status = BENCH_NOT_RUN;
        res->failure_code = BW_E_RANGE;
        free(res->failure);
        res->failure = strdup(why);
    }
}

/* whether some item takes item i as its reference (a seq, bank:pitch=33, a copy, a soa form):
 * the budget never leaves such an item out */
static int serves_as_reference(const run_ctx *r, size_t i)
{
    for (size_t k = 0; k < r->plan->n; k++)
        if (bench_plan_reference(r->plan, k) == (long)i)
            return 1;
    return 0;
}

/* the item whose rounds item i's figures are read against: its reference, or itself */
static size_t group_of(const run_ctx *r, size_t i)
{
    long ref = bench_plan_reference(r->plan, i);
    return ref < 0 || r->res[ref].status != BENCH_OK ? i : (size_t)ref;
}

/* The twin's rounds in launches of its item, an estimate for the plan:
 * three slices a round, whose footprint is at most an eighth of the
 * launch's (twin_size: 2N within a quarter of a cache the launch touches
 * at least twice over), so at most 5/16 of a launch; and the evicting
 * launches beyond the item's `reps`, which are samples too. */
static double twin_launches(double reps)
{
    double beyond = TWIN_ROUNDS > reps ? TWIN_ROUNDS - reps : 0;
    return TWIN_ROUNDS * 5.0 / 16.0 + beyond;
}

static double twin_cost_ns(const run_ctx *r, const slot *sl)
{
    return twin_launches(r->s->min_reps) * sl->cal_ns;
}

/* Which twins can change a verdict. The twin only turns "slower than the
 * model explains" into "kernel-bound" (bench_verdict_with_bound), so it is
 * timed for references, whose bound the report states, and for items
 * whose calibration launch already reads near or above the model's upper
 * bound at the reference's calibration rate (a single launch's noise is
 * allowed for: 0.8 of the bound). Every other item says why it has none. */
static void plan_twins(run_ctx *r)
{
    const bench_plan *p = r->plan;
    for (size_t i = 0; i < p->n; i++) {
        const bench_item *it = &p->items[i];
        slot *sl = &r->slots[i];
        if (r->res[i].status != BENCH_OK || it->fam->no_twin)
            continue;
        long ref = bench_plan_reference(p, i);
        if (ref < 0 || (size_t)ref == i) {
            sl->need_twin = 1;
            continue;
        }
        if (r->res[ref].status != BENCH_OK || !(r->slots[ref].cal_ns > 0)) {
            sl->need_twin = 1;
            continue;
        }
        const model_launch *m = &it->model, *rm = &p->items[ref].model;
        double lower = (double)((m->loads.footprint_sectors + m->stores.footprint_sectors) * p->geo.sector);
        double upper = (double)((m->loads.instr_sectors + m->stores.instr_sectors) * p->geo.sector);
        double ref_bytes = (double)((rm->loads.footprint_sectors + rm->stores.footprint_sectors) * p->geo.sector);
        bench_verdict v = bench_verdict_of(sl->cal_ns, lower, upper, r->slots[ref].cal_ns, ref_bytes);
        sl->need_twin = v.code == BENCH_VERDICT_ABOVE || v.implied_bytes >= 0.8 * upper;
        if (!sl->need_twin) {
            free(r->res[i].twin_reason);
            r->res[i].twin_reason =
                strdup("no twin: its calibration launch sits within the model's bounds (measured against the "
                       "reference's), where a twin cannot change the verdict");
        }
    }
}

static int cmp_need(const void *a, const void *b)
{
    const double *x = a, *y = b; /* {need, index}: the largest need first */
    return (x[0] < y[0]) - (x[0] > y[0]);
}

/* Item i's launch for the plan: its calibration launch once it has one,
 * else its modeled instruction bytes at its reference's calibration rate
 * (a bank item at its reference's time), else the slowest reference's
 * time. An estimate: only ever used to share out the budget. */
static double launch_estimate_ns(const run_ctx *r, size_t i)
{
    const bench_plan *p = r->plan;
    if (r->slots[i].cal_ns > 0)
        return r->slots[i].cal_ns;
    long ref = bench_plan_reference(p, i);
    if (ref >= 0 && r->slots[ref].cal_ns > 0) {
        const model_launch *m = &p->items[i].model, *rm = &p->items[ref].model;
        double b = (double)(m->loads.instr_sectors + m->stores.instr_sectors);
        double rb = (double)(rm->loads.instr_sectors + rm->stores.instr_sectors);
        if (!p->items[i].fam->modeled || !(b > 0) || !(rb > 0))
            return r->slots[ref].cal_ns;
        return r->slots[ref].cal_ns * b / rb;
    }
    double most = 0;
    for (size_t k = 0; k < p->n; k++)
        most = r->slots[k].cal_ns > most ? r->slots[k].cal_ns : most;
    return most;
}

/* the whole launches validation and warm-up take: the warm-up's (the
 * validating launches run the sample only: bench_family_io.launch_range) */
static double prepare_launches(const bench_settings *s)
{
    return s->warmup > 0 ? s->warmup : 1;
}

/* What preparing an item not yet prepared costs beyond its launches, ns:
 * the median over the items prepared so far (the references, in the first
 * plan). A runtime that compiles each kernel at its first launch (PoCL)
 * makes this a good part of a second an item on an empty kernel cache
 * and milliseconds on a warm one, so it is measured, not assumed. */
static double prep_extra_estimate_ns(const run_ctx *r)
{
    const bench_plan *p = r->plan;
    double *v = malloc((p->n ? p->n : 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; v && i < p->n; i++)
        if (r->slots[i].prep_extra_ns > 0)
            v[n++] = r->slots[i].prep_extra_ns;
    double m = n ? bw_median(v, n) : 0;
    free(v);
    return m;
}

/* the plan's estimate of an item: its launch, its minimum of rounds, what
 * it costs besides its rounds (form calibration, validation), whether its
 * twin is planned, its group (stop_groups) and whether it is planned */
typedef struct plan_cost {
    double t, reps, extra; /* ns, rounds, ns */
    int twin, in;
    int control; /* a reference: launched in its control slot too, each round */
    size_t group;
} plan_cost;

/* whether item i is still planned */
static int planned(const run_ctx *r, size_t i)
{
    return r->res[i].status == BENCH_OK && !r->slots[i].left_out;
}

/* The timing n items need, ns: each group (a reference and the items read
 * against it, which stop together: stop_groups) runs as many rounds as
 * its most demanding member, every member launching in each; a twin's
 * rounds follow the group's launches (twin_launches). rounds[g] gets
 * group g's. One sum for the run's plan and for bench_run_estimate_s, so
 * that a fitted working set is priced as the plan then prices it. */
static double grouped_total(size_t n, const plan_cost *c, double *rounds)
{
    double total = 0;
    for (size_t g = 0; g < n; g++)
        rounds[g] = 0;
    for (size_t i = 0; i < n; i++)
        if (c[i].in) {
            rounds[c[i].group] = c[i].reps > rounds[c[i].group] ? c[i].reps : rounds[c[i].group];
            total += c[i].extra;
        }
    for (size_t i = 0; i < n; i++)
        if (c[i].in)
            total += (rounds[c[i].group] * (c[i].control ? 2 : 1) +
                      (c[i].twin ? twin_launches(rounds[c[i].group]) : 0)) * c[i].t;
    return total;
}

/* the rounds that end the timing once every pattern has them (measure) */
#define FLOOR_ROUNDS 3

/* item i's minimum of rounds at launch time t_ns: min_reps, min_total_s,
 * and the timing's own floor (FLOOR_ROUNDS) */
static double min_rounds(const bench_settings *s, double t_ns)
{
    double reps = ceil(s->min_total_s * 1e9 / t_ns);
    reps = reps > s->min_reps ? reps : s->min_reps;
    return reps < FLOOR_ROUNDS ? FLOOR_ROUNDS : reps;
}

static double plan_total(const run_ctx *r, plan_cost *c, double *rounds)
{
    for (size_t i = 0; i < r->plan->n; i++)
        c[i].in = planned(r, i);
    return grouped_total(r->plan->n, c, rounds);
}

/* Plans the timing before it starts: each item needs at least its
 * minimum of launches and of launch time (bench_settings min_reps,
 * min_total_s) at its launch estimate, in rounds its whole group runs
 * (plan_total), both forms' launches in the first rounds, its twin, and,
 * while it is not yet validated, its validation and warm-up. When that
 * does not fit the time left, items that no other item takes as its
 * reference are left out, the costliest first, until it does; their twins
 * go before them. Run twice: with the references
 * calibrated (the others estimated, so that what is left out is never
 * validated), then with every item calibrated. The run's figures
 * (info->planned_s, available_s) are the first plan's, or those of the
 * plan that left something out. */
static void plan_timing(run_ctx *r, bench_run_info *info, int first)
{
    const bench_plan *p = r->plan;
    const bench_settings *s = r->s;
    plan_cost *c = calloc(p->n ? p->n : 1, sizeof *c);
    double *rounds = calloc(p->n ? p->n : 1, sizeof *rounds);
    if (!c || !rounds) {
        free(c);
        free(rounds);
        return;
    }
    double prep_extra = prep_extra_estimate_ns(r);
    for (size_t i = 0; i < p->n; i++) {
        slot *sl = &r->slots[i];
        if (!planned(r, i))
            continue;
        double t = launch_estimate_ns(r, i);
        int64_t slow_ms = 0; /* test builds only: a plan that takes this item's launches as slow */
        if (bw_hook_fault("plan_slow", p->items[i].spec, &slow_ms) && slow_ms > 0)
            t = (double)slow_ms * 1e6;
        t = t > 0 ? t : 1.0;
        c[i].t = t;
        c[i].reps = min_rounds(s, t);
        c[i].group = group_of(r, i);
        c[i].control = serves_as_reference(r, i);
        /* before plan_twins, a reference's twin is counted as it will be */
        c[i].twin = !s->no_twins && !p->items[i].fam->no_twin &&
                    (sl->need_twin || (first && bench_family_is_reference(&p->items[i])));
        c[i].extra = sl->alt ? (double)form_launches_of(t) * t : 0;
        if (!(sl->cal_ns > 0))
            c[i].extra += prepare_launches(r->s) * t + prep_extra;
    }
    double total = plan_total(r, c, rounds), avail = time_left(r) * 1e9;
    /* Rounds are cut before any pattern is left out: every pattern's
     * minimum is then the timing's floor of rounds (its stopping rule may
     * go unmet, and the output says so). Below BENCH_PLAN_MIN_BUDGET_S
     * every pattern keeps its launches: such a budget promises no bound
     * (bwlab help run). */
    if (total > avail && s->budget_s >= BENCH_PLAN_MIN_BUDGET_S) {
        for (size_t i = 0; i < p->n; i++)
            c[i].reps = FLOOR_ROUNDS;
        total = plan_total(r, c, rounds);
    }
    /* the run's figures: the first plan's, or the one that leaves something out */
    if (first || (total > avail && info->left_out == 0)) {
        info->planned_s = total / 1e9;
        info->available_s = avail > 0 ? avail / 1e9 : 0;
    }
    if (total <= avail || s->budget_s < BENCH_PLAN_MIN_BUDGET_S) {
        free(c);
        free(rounds);
        return;
    }
    /* a twin is worth less than a measurement: the non-reference twins go first */
    for (size_t i = 0; i < p->n; i++) {
        slot *sl = &r->slots[i];
        if (!planned(r, i) || !sl->need_twin || serves_as_reference(r, i))
            continue;
        sl->need_twin = 0;
        c[i].twin = 0;
        no_twin(&r->res[i], "no twin: the budget holds the pattern's own launches only");
    }
    char why[400];
    snprintf(why, sizeof why, "left out before measuring: the %.0f s budget cannot hold its minimum of launches "
             "beside the other patterns' (estimated from calibration launches); a larger --budget measures it",
             s->budget_s);
    /* then the costliest item, by what it adds (its group's rounds of its
     * launch, and its own extras), until the plan fits */
    while ((total = plan_total(r, c, rounds)) > avail) {
        long worst = -1;
        double most = -1;
        for (size_t i = 0; i < p->n; i++) {
            if (!planned(r, i) || serves_as_reference(r, i))
                continue;
            double g = rounds[c[i].group];
            double cost = (g + (c[i].twin ? twin_launches(g) : 0)) * c[i].t + c[i].extra;
            if (cost > most) {
                most = cost;
                worst = (long)i;
            }
        }
        if (worst < 0)
            break;
        leave_out(r, (size_t)worst, 1, why);
        info->left_out++;
    }
    free(c);
    free(rounds);
}

double bench_run_estimate_s(const bench_plan *p, const bench_settings *s, double copy_gbs)
{
    plan_cost *c = calloc(p->n ? p->n : 1, sizeof *c);
    double *rounds = calloc(p->n ? p->n : 1, sizeof *rounds);
    double total = 0;
    for (size_t i = 0; c && rounds && i < p->n && copy_gbs > 0; i++) {
        const bench_item *it = &p->items[i];
        if (it->left_out)
            continue; /* no launch, and no buffer of its own */
        const model_launch *m = &it->model;
        double bytes = it->fam->modeled ? (double)((m->loads.instr_sectors + m->stores.instr_sectors) * p->geo.sector)
                                        : it->fam->bytes(it);
        double t = bytes / copy_gbs; /* ns */
        if (!(t > 0))
            continue;
        long ref = bench_plan_reference(p, i);
        c[i] = (plan_cost){ .t = t, .reps = min_rounds(s, t), .in = 1, .group = ref < 0 ? i : (size_t)ref };
        /* read against: its control slot launches each round too (measure) */
        for (size_t k = 0; k < p->n && !c[i].control; k++)
            c[i].control = k != i && !p->items[k].left_out && bench_plan_reference(p, k) == (long)i;
        c[i].extra = (prepare_launches(s) + (it->scalar_form ? (double)form_launches_of(t) : 0)) * t;
        c[i].twin = !it->fam->no_twin && !s->no_twins && bench_family_is_reference(it);
    }
    if (c && rounds)
        total = grouped_total(p->n, c, rounds);
    free(c);
    free(rounds);
    return total / 1e9;
}

/* the plan's one line, once both plans are made: what was left out */
static void plan_note(run_ctx *r, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    size_t *out = calloc(p->n ? p->n : 1, sizeof *out), nout = 0;
    /* in the order they were left out: the costliest first */
    for (size_t rank = 1; out && rank <= r->left_count; rank++)
        for (size_t i = 0; i < p->n; i++)
            if (r->slots[i].left_out == 1 && r->slots[i].left_rank == rank)
                out[nout++] = i;
    if (nout) {
        char names[400];
        bench_plan_name_items(r->plan, out, nout, names, sizeof names);
        snprintf(info->plan_note, sizeof info->plan_note,
                 "the budget cannot hold every pattern even at its fewest rounds: %.1f s were left for validating "
                 "and timing, and the minimum of launches needs about %.1f s (estimated from calibration launches "
                 "and modeled bytes); left out, costliest first: %s; a larger --budget measures them",
                 info->available_s, info->planned_s, names);
        report(r, "plan", 0, p->n, info->plan_note, -1);
    }
    free(out);
}

/* validation, warm-up and calibration of item i */
static void prepare_one(run_ctx *r, size_t i)
{
    const bench_plan *p = r->plan;
    double t0 = bench_now_s();
    report(r, "validating", i, p->n, p->items[i].spec, -1);
    bw_error e = BW_ERROR_INIT;
    bw_code rc = validate_item(r, i, r->slots[i].kern, &e);
    if (rc == BW_OK && r->slots[i].alt && (rc = validate_item(r, i, r->slots[i].alt, &e)) != BW_OK)
        bw_error_prefix(&e, "the scalar form: ");
    r->res[i].validated = rc == BW_OK;
    /* the last warm-up launch is the one checked against the floor */
    ocl_timing t = { 0, 0 };
    for (int w = 0; rc == BW_OK && w < (r->s->warmup > 0 ? r->s->warmup : 1); w++)
        rc = launch(r, i, r->slots[i].kern, &t, &e);
    if (rc == BW_E_INTERRUPTED)
        r->res[i].validated = 0; /* not run: finish() says so */
    else if (rc != BW_OK)
        fail(&r->res[i], e.code, bw_error_text(&e));
    else
        after_warmup(r, i, t.event_ns);
    r->slots[i].cal_ns = t.event_ns;
    r->slots[i].form_launches = form_launches_of(t.event_ns);
    double extra = (bench_now_s() - t0) * 1e9 - prepare_launches(r->s) * t.event_ns;
    r->slots[i].prep_extra_ns = extra > 0 ? extra : 1.0;
    bw_error_clear(&e);
}

/* References first: their calibration prices the others, and the plan
 * leaves out what cannot fit before it costs a validation. */
static void prepare(run_ctx *r, volatile sig_atomic_t *stop, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    double t0 = bench_now_s();
    build_all(r, stop);
    info->build_s = bench_now_s() - t0;
    for (int pass = 0; pass < 2 && !*stop; pass++) {
        for (size_t i = 0; i < p->n && !*stop; i++)
            if (r->res[i].status == BENCH_OK && !r->slots[i].left_out && serves_as_reference(r, i) == (pass == 0))
                prepare_one(r, i);
        if (*stop)
            break;
        if (pass == 0)
            plan_timing(r, info, 1);
    }
    info->prepare_s = bench_now_s() - t0 - info->build_s;
    if (*stop)
        return;
    plan_twins(r);
    plan_timing(r, info, 0);
    plan_note(r, info);
}

/* The twin of item i once its form is chosen, if the plan asks for it
 * and the time left holds it twice over (else it says why it has none):
 * sized now, its rounds then follow the item's own timed launches
 * (twin_after_launch). */
static void twin_when_due(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    bench_result *res = &r->res[i];
    if (sl->twinned || sl->twin_n > 0 || sl->alt || res->status != BENCH_OK)
        return;
    res->twin_ratio = NAN;
    if (r->plan->items[i].fam->no_twin) {
        no_twin(res, "%s", r->plan->items[i].fam->no_twin);
        sl->twinned = 1;
        return;
    }
    if (!sl->need_twin || r->s->no_twins) {
        sl->twinned = 1;
        return;
    }
    /* below BENCH_PLAN_MIN_BUDGET_S nothing is bounded, and the twin is timed anyway */
    int bounded = r->s->budget_s >= BENCH_PLAN_MIN_BUDGET_S;
    if (bounded && time_left(r) * 1e9 < 2 * twin_cost_ns(r, sl)) {
        no_twin(res, "no twin: the budget had no time left for it");
        sl->twinned = 1;
        return;
    }
    sl->twin_n = twin_size(r, i);
    if (sl->twin_n == 0)
        sl->twinned = 1;
}

/* Item i's form once both have their calibration launches: the one with
 * the faster median (the headline's statistic: a form whose best launch
 * is lucky but whose typical one is slow must not win) keeps its
 * launches as its samples; the other is released. */
static void choose_form(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    bench_result *res = &r->res[i];
    res->form_ns[BENCH_FORM_PLAIN] = res->event.median;
    res->form_ns[BENCH_FORM_SCALAR] = bench_stats_of(sl->alt_event, sl->alt_n).median;
    /* the other form's samples replace this one's: room for them first */
    reserve(res, sl, FORM_CALIBRATION);
    int plain_timed = res->event.count > 0;
    if (sl->cap >= sl->alt_n &&
        (!plain_timed || res->form_ns[BENCH_FORM_SCALAR] < res->form_ns[BENCH_FORM_PLAIN])) {
        ocl_kernel *k = sl->kern;
        sl->kern = sl->alt;
        sl->alt = k;
        res->form = BENCH_FORM_SCALAR;
        memcpy(res->event_ns, sl->alt_event, sl->alt_n * sizeof *sl->alt_event);
        memcpy(res->wall_ns, sl->alt_wall, sl->alt_n * sizeof *sl->alt_wall);
        memcpy(sl->ev_round, sl->alt_round, sl->alt_n * sizeof *sl->alt_round);
        memcpy(sl->ev_pos, sl->alt_pos, sl->alt_n * sizeof *sl->alt_pos);
        memset(sl->ev_slot, 0, sl->alt_n * sizeof *sl->ev_slot);
        sl->total_ns = 0;
        for (size_t k2 = 0; k2 < sl->alt_n; k2++)
            sl->total_ns += sl->alt_event[k2];
        res->event = bench_stats_of(res->event_ns, sl->alt_n);
    }
    ocl_kernel_free(sl->alt);
    sl->alt = NULL;
}

/* One timed launch of item i's kernel k; 1 when it gave a sample. A launch
 * that fails, or too many that read 0 ns, finish the item. */
static int timed_launch(run_ctx *r, size_t i, ocl_kernel *k, ocl_timing *t)
{
    bench_result *res = &r->res[i];
    bw_error e = BW_ERROR_INIT;
    int64_t after = 0;
    bw_code lrc = launch(r, i, k, t, &e);
    if (lrc == BW_OK && bw_hook_fault("launch", r->plan->items[i].spec, &after) &&
        res->event.count >= (size_t)after)
        lrc = bw_error_set(&e, BW_E_OPENCL, "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES "
                           "(injected after %lld launches: BWLAB_TEST_FAULTS)", (long long)after);
    int ok = 0;
    if (lrc != BW_OK) {
        fail(res, e.code, bw_error_text(&e));
        report_finished(r, i);
    } else if (!bench_sample_ok(t->event_ns)) {
        res->dropped_samples++;
        if (res->dropped_samples >= DROPPED_LIMIT && res->dropped_samples > res->event.count) {
            char msg[256];
            snprintf(msg, sizeof msg, "not measurable: %zu of %zu timed launches took 0 ns "
                     "(measured: shorter than the device timer resolves); use a larger --size",
                     res->dropped_samples, res->dropped_samples + res->event.count);
            not_measurable(res, msg);
            report_finished(r, i);
        }
    } else {
        ok = 1;
    }
    bw_error_clear(&e);
    return ok;
}

static int meets_rule(const run_ctx *r, size_t i);

/* at most this many launches of one item a turn */
#define TURN_LAUNCHES_MAX 8

/* Launches of item i in its turn: its median launch's share of the
 * round's typical one (run_ctx.typical_ns), rounded, 1 to
 * TURN_LAUNCHES_MAX. Rounds give every item one turn; a pattern whose
 * launch takes a third of the others' gets three launches, so that the
 * short ones, whose noise is no smaller, reach the rule in the rounds the
 * long ones take, and still see the host each round sees. */
static size_t launches_per_turn(const run_ctx *r, size_t i)
{
    double m = r->res[i].event.median;
    if (!(r->typical_ns > 0) || !(m > 0))
        return 1;
    double k = floor(r->typical_ns / m + 0.5);
    return k < 1 ? 1 : k > TURN_LAUNCHES_MAX ? TURN_LAUNCHES_MAX : (size_t)k;
}

/* the median of the pending items' median launches: a round's typical launch */
static void typical_launch(run_ctx *r)
{
    const bench_plan *p = r->plan;
    double *v = malloc((p->n ? p->n : 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; v && i < p->n; i++)
        if (r->res[i].status == BENCH_OK && !r->slots[i].left_out && !r->slots[i].stable &&
            r->res[i].event.median > 0)
            v[n++] = r->res[i].event.median;
    r->typical_ns = n ? bw_median(v, n) : 0;
    free(v);
}

/* the event time of item i's turn once its form is chosen: its median
 * launch, as many times as it launches a turn (a met item launches once) */
static double turn_ns(const run_ctx *r, size_t i)
{
    double k = r->slots[i].met ? 1 : (double)launches_per_turn(r, i);
    return k * r->res[i].event.median;
}

/* Test builds only: the hook "slow" (SPEC@PCT) adds PCT% to the event
 * time of SPEC's launches in its own slot, never in its control slot: a
 * disturbance of the reference's launches alone, which the control check
 * must catch. */
static const ocl_timing *disturbed(run_ctx *r, size_t i, ocl_timing *t)
{
    int64_t pct = 0;
    if (bw_hook_fault("slow", r->plan->items[i].spec, &pct) && pct > 0)
        t->event_ns *= 1.0 + (double)pct / 100.0;
    return t;
}

/* A reference's launch in its control slot, half a round from its own:
 * the same kernel at another place in the round. While the reference
 * launches in the rounds (its group is not stopped, its form is chosen). */
static void control_turn(run_ctx *r, size_t i)
{
    bench_result *res = &r->res[i];
    slot *sl = &r->slots[i];
    ocl_timing t;
    if (!sl->is_reference || res->status != BENCH_OK || sl->left_out || sl->stable || sl->alt)
        return;
    if (timed_launch(r, i, sl->kern, &t) && !record(r, i, &t, 1)) {
        fail(res, BW_E_NOMEM, "out of memory recording timings");
        report_finished(r, i);
    }
}

/* One round's turn of item i: its launch (both forms while they are
 * calibrated, in an order that alternates), then its stopping rule. */
static void turn(run_ctx *r, size_t i, size_t round)
{
    const bench_settings *s = r->s;
    bench_result *res = &r->res[i];
    slot *sl = &r->slots[i];
    ocl_timing t, ta;
    int alt_first = sl->alt && round % 2;
    if (alt_first && timed_launch(r, i, sl->alt, &ta)) {
        sl->alt_event[sl->alt_n] = ta.event_ns;
        sl->alt_round[sl->alt_n] = r->round;
        sl->alt_pos[sl->alt_n] = r->launches++;
        sl->alt_wall[sl->alt_n++] = ta.wall_ns;
    }
    if (res->status != BENCH_OK)
        return;
    /* once its form is chosen and until it meets the rule, a launch much
     * shorter than the round's typical one is made several times a turn */
    size_t launches = sl->alt || sl->met ? 1 : launches_per_turn(r, i);
    for (size_t j = 0; j < launches && res->status == BENCH_OK; j++)
        if (timed_launch(r, i, sl->kern, &t) && !record(r, i, disturbed(r, i, &t), 0)) {
            fail(res, BW_E_NOMEM, "out of memory recording timings");
            report_finished(r, i);
        }
    if (res->status != BENCH_OK)
        return;
    if (!sl->alt)
        twin_after_launch(r, i);
    if (sl->alt && !alt_first && timed_launch(r, i, sl->alt, &ta)) {
        sl->alt_event[sl->alt_n] = ta.event_ns;
        sl->alt_round[sl->alt_n] = r->round;
        sl->alt_pos[sl->alt_n] = r->launches++;
        sl->alt_wall[sl->alt_n++] = ta.wall_ns;
    }
    if (res->status != BENCH_OK)
        return;
    if (sl->alt && (sl->alt_n >= sl->form_launches || sl->alt_n >= FORM_CALIBRATION ||
                    res->event.count >= (size_t)s->max_reps)) {
        if (sl->alt_n > 0)
            choose_form(r, i);
        else {
            ocl_kernel_free(sl->alt);
            sl->alt = NULL;
        }
    }
    if (sl->alt)
        return; /* no stopping before the form is chosen */
    sl->met = meets_rule(r, i);
    if (sl->met && bw_hook_fault("hold", r->plan->items[i].spec, NULL))
        sl->met = 0; /* test builds only: keeps the run alive */
    /* its figures are settled: journaled now, though its group may still
     * launch it (stop_groups) */
    if (sl->met)
        report_finished(r, i);
    if ((int)(res->event.count + res->dropped_samples) >= s->max_reps)
        sl->stable = 1; /* the launch cap stops it whatever its group does */
}

/* the paired rounds of item i against its reference ref: each of item
 * i's launches against the reference's launch nearest to it in the round,
 * in either of its slots (a time ratio: the item's bandwidth relative to
 * the reference's, less their bytes) */
static bench_pair_ci paired(const run_ctx *r, size_t i, size_t ref)
{
    const bench_result *a = &r->res[ref], *b = &r->res[i];
    bench_pair_series num = { a->event_ns, r->slots[ref].ev_round, r->slots[ref].ev_slot, a->event.count, -1,
                              r->slots[ref].ev_pos };
    bench_pair_series den = { b->event_ns, r->slots[i].ev_round, r->slots[i].ev_slot, b->event.count, 0,
                              r->slots[i].ev_pos };
    return bench_pair_ratio(&num, &den);
}

/* the reference item i reads against for its stopping rule and its
 * ratio: its reference while that is measured, else -1 */
static long paired_reference(const run_ctx *r, size_t i)
{
    long ref = bench_plan_reference(r->plan, i);
    return ref < 0 || (size_t)ref == i || r->res[ref].status != BENCH_OK ? -1 : ref;
}

/* The error the stopping rule holds item i to, as a relative standard
 * error: a reference's median's own; for an item read against a reference,
 * its paired ratio's 95% interval (the larger side, relative) over 1.96,
 * so that one --rse holds both (test builds: the hook "noisy" can make it
 * more) */
static double rule_rse(const run_ctx *r, size_t i)
{
    int64_t pct = 0;
    if (bw_hook_fault("noisy", r->plan->items[i].spec, &pct) && pct > 0)
        return (double)pct / 100.0;
    long ref = paired_reference(r, i);
    if (ref < 0)
        return r->res[i].event.rse;
    bench_pair_ci c = paired(r, i, (size_t)ref);
    double h = bench_pair_halfwidth(&c);
    return isfinite(h) ? h / 1.96 : 1.0;
}

/* The stopping rule: min_reps launches, min_total_s of their event time
 * and the error of the figure read from them at most the target
 * (rule_rse: a reference's median, another item's paired ratio); or
 * max_reps launches. */
static int meets_rule(const run_ctx *r, size_t i)
{
    const bench_settings *s = r->s;
    const bench_result *res = &r->res[i];
    size_t n = res->event.count;
    if ((int)(n + res->dropped_samples) >= s->max_reps)
        return 1;
    return (int)n >= s->min_reps && r->slots[i].total_ns >= 1e9 * s->min_total_s && rule_rse(r, i) <= s->rse_target;
}

/* A reference and the items read against it stop together, once each has
 * met the rule (or left the rounds): their medians then cover the same
 * rounds, so a ratio of medians compares like with like whatever the host
 * did meanwhile. */
static void stop_groups(run_ctx *r)
{
    const bench_plan *p = r->plan;
    for (size_t g = 0; g < p->n; g++) {
        int members = 0, all = 1;
        for (size_t i = 0; i < p->n && all; i++) {
            if (group_of(r, i) != g || r->res[i].status != BENCH_OK || r->slots[i].left_out || r->slots[i].stable)
                continue;
            members++;
            all = r->slots[i].met;
        }
        if (!members || !all)
            continue;
        for (size_t i = 0; i < p->n; i++)
            if (group_of(r, i) == g && r->res[i].status == BENCH_OK && !r->slots[i].left_out)
                r->slots[i].stable = 1;
    }
}

/* After every pending item has min_reps launches: the rounds each still
 * needs for its standard error to reach the target (it falls as
 * 1/sqrt(n)), in turns of as many launches as it makes a turn
 * (launches_per_turn). When the rounds of the one that needs most, at the
 * cost of a round of everything still launched, do not fit the time left, the
 * items needing most rounds (none that another is read against) leave the
 * later rounds, keeping their launches so far, so that the others can
 * reach the rule, as long as at least half of them can; else nothing
 * changes. Once per run. */
static void replan(run_ctx *r, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    const bench_settings *s = r->s;
    /* {rounds still needed, index} of the pending items no other reads against */
    double (*need)[2] = calloc(p->n ? p->n : 1, sizeof *need);
    size_t *out = calloc(p->n ? p->n : 1, sizeof *out);
    double round_ns = 0, ref_rounds = 0;
    size_t nn = 0, nout = 0;
    typical_launch(r);
    for (size_t i = 0; need && i < p->n; i++) {
        const bench_result *res = &r->res[i];
        if (res->status != BENCH_OK || r->slots[i].stable || r->slots[i].left_out || res->event.count == 0)
            continue;
        round_ns += turn_ns(r, i); /* a group keeps launching its met members too */
        if (r->slots[i].met)
            continue;
        double n = (double)res->event.count, rse = rule_rse(r, i);
        double want = s->rse_target > 0 ? n * (rse / s->rse_target) * (rse / s->rse_target) : (double)s->max_reps;
        want = want < s->max_reps ? want : s->max_reps;
        /* a short launch is made several times a turn once its form is chosen */
        double rounds = want > n ? ceil((want - n) / (double)launches_per_turn(r, i)) : 0;
        if (serves_as_reference(r, i)) {
            ref_rounds = rounds > ref_rounds ? rounds : ref_rounds;
            continue;
        }
        need[nn][0] = rounds;
        need[nn++][1] = (double)i;
    }
    double avail = time_left(r) * 1e9;
    if (need && out && nn) {
        /* the rounds the slowest pending item needs, at the cost of a round
         * of every item still launched: while that does not fit, the item
         * needing the most rounds leaves, and its launch leaves each round */
        qsort(need, nn, sizeof *need, cmp_need);
        size_t j = 0;
        for (; j < nn; j++) {
            double most = need[j][0] > ref_rounds ? need[j][0] : ref_rounds;
            if (most * round_ns <= avail)
                break;
            round_ns -= turn_ns(r, (size_t)need[j][1]);
        }
        double most = j < nn ? (need[j][0] > ref_rounds ? need[j][0] : ref_rounds) : ref_rounds;
        /* Only when most can still make it: on a machine too noisy for the
         * rule, every pattern keeps its share of the rounds instead. */
        if (most * round_ns <= avail && 2 * (nn - j) >= nn)
            for (size_t k = 0; k < j; k++)
                out[nout++] = (size_t)need[k][1];
    }
    if (nout) {
        char names[400], why[300];
        snprintf(why, sizeof why, "left out of later rounds: at its standard error it needed more launches than "
                 "the budget had left, so the other patterns could reach the stopping rule; a larger --budget "
                 "times it longer");
        for (size_t j = 0; j < nout; j++) {
            leave_out(r, out[j], 2, why);
            report_finished(r, out[j]);
        }
        bench_plan_name_items(r->plan, out, nout, names, sizeof names);
        info->dropped = nout;
        snprintf(info->replan_note, sizeof info->replan_note,
                 "left out of later rounds to let the others reach the stopping rule (their standard error "
                 "needed more launches than the %.1f s left): %s", avail > 0 ? avail / 1e9 : 0, names);
        report(r, "plan", 0, p->n, info->replan_note, -1);
    }
    free(need);
    free(out);
}

/* Item i back in the rounds: its reference, if its group had stopped,
 * launches again (once a turn: it has met its rule), so that item i's
 * rounds are paired too */
static void reopen_reference(run_ctx *r, size_t i)
{
    long ref = paired_reference(r, i);
    if (ref >= 0 && !r->slots[ref].left_out)
        r->slots[ref].stable = 0;
}

/* The items the replan left out of later rounds back in them; 1 when
 * there were any. Their results no longer say they were left out, and the
 * replan's note says they were taken up again. */
static int resume_dropped(run_ctx *r, bench_run_info *info)
{
    int any = 0;
    for (size_t i = 0; i < r->plan->n; i++) {
        if (r->slots[i].left_out != 2 || r->res[i].status != BENCH_OK)
            continue;
        r->slots[i].left_out = 0;
        free(r->res[i].budget_note);
        r->res[i].budget_note = NULL;
        reopen_reference(r, i);
        any = 1;
    }
    if (any) {
        size_t k = strlen(info->replan_note);
        snprintf(info->replan_note + k, sizeof info->replan_note - k, "; taken up again once the others were done");
        info->dropped = 0;
    }
    return any;
}

/* The others done with time left: the patterns the plan left out before
 * measuring, the cheapest first, each whose minimum of launches (and its
 * validation and warm-up) the time left holds at its estimate now (its
 * reference's measured rate), are validated now and join the rounds,
 * in their plain form and without a twin; 1 when any did. The plan's
 * note names them. */
static int take_up_left_out(run_ctx *r, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    int any = 0;
    for (;;) {
        long best = -1;
        double cheapest = INFINITY;
        for (size_t i = 0; i < p->n; i++) {
            if (r->slots[i].left_out != 1 || r->res[i].status != BENCH_NOT_RUN)
                continue;
            double need = (r->s->min_reps + 2) * launch_estimate_ns(r, i);
            if (need < cheapest) {
                cheapest = need;
                best = (long)i;
            }
        }
        if (best < 0 || cheapest > time_left(r) * 1e9)
            break;
        size_t i = (size_t)best;
        bench_result *res = &r->res[i];
        r->slots[i].left_out = 0;
        res->status = BENCH_OK;
        res->failure_code = BW_OK;
        free(res->failure);
        res->failure = NULL;
        free(res->budget_note);
        res->budget_note = NULL;
        /* no time for a form calibration or a twin: the plain form, alone */
        ocl_kernel_free(r->slots[i].alt);
        r->slots[i].alt = NULL;
        r->slots[i].need_twin = 0;
        no_twin(res, "no twin: taken up at the end, when the budget had time for the pattern's own launches only");
        prepare_one(r, i);
        reopen_reference(r, i);
        info->left_out--;
        size_t k = strlen(info->plan_note);
        snprintf(info->plan_note + k, sizeof info->plan_note - k, "%s%s", any ? ", " : "; taken up at the end: ",
                 p->items[i].spec);
        any = 1;
    }
    return any;
}

/* Round k's order of the n items, and each item's place in it: a
 * shuffle (Fisher-Yates) drawn from splitmix64 seeded by k, the same in
 * every run; order NULL leaves both alone. */
static void round_order(size_t *order, size_t *pos, size_t n, size_t k)
{
    if (!order)
        return;
    uint64_t x = 0x9e3779b97f4a7c15ull * (k + 1);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = n; i > 1; i--) {
        x += 0x9e3779b97f4a7c15ull;
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        size_t j = (size_t)(z % i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        pos[order[i]] = i;
}

/* Round-robin timing until every pattern is stable or the deadline; the
 * twins are timed as their forms are chosen, inside the same deadline. */
static void measure(run_ctx *r, volatile sig_atomic_t *stop, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    const bench_settings *s = r->s;
    double t0 = bench_now_s();
    size_t start = 0;
    int replanned = 0, bounded = s->budget_s >= BENCH_PLAN_MIN_BUDGET_S;
    for (size_t i = 0; i < p->n; i++)
        r->slots[i].is_reference = serves_as_reference(r, i);
    /* the rounds' orders; without them (out of memory) a rotation, and no control slots */
    size_t *order = malloc((p->n ? p->n : 1) * sizeof *order), *pos = malloc((p->n ? p->n : 1) * sizeof *pos);
    if (!order || !pos) {
        free(order);
        free(pos);
        order = pos = NULL;
    }
    for (;;) {
        size_t pending = 0, stable = 0, eligible = 0, collecting = 0, min_count = (size_t)-1;
        for (size_t i = 0; i < p->n; i++) {
            if (r->res[i].status != BENCH_OK || r->slots[i].left_out)
                continue;
            eligible++;
            stable += r->slots[i].stable;
            pending += !r->slots[i].stable;
            collecting += twin_collecting(&r->slots[i]);
            if (!r->slots[i].stable && r->res[i].event.count < min_count)
                min_count = r->res[i].event.count;
        }
        /* the others done with time left: the patterns the replan took out
         * of the later rounds take them up again */
        if (pending == 0 && collecting == 0 && !*stop && time_left(r) > 0 &&
            (resume_dropped(r, info) || take_up_left_out(r, info)))
            continue;
        /* the deadline ends the rounds once every unstable pattern has a
         * few samples (an unbounded budget's twins finish first) */
        if ((pending == 0 && collecting == 0) || *stop ||
            (time_left(r) <= 0 && min_count >= FLOOR_ROUNDS && (bounded || collecting == 0))) {
            info->budget_ended = pending > 0 && !*stop;
            break;
        }
        if (!replanned && min_count != (size_t)-1 && min_count >= (size_t)s->min_reps) {
            replanned = 1;
            replan(r, info);
        }
        report(r, "measuring", stable, eligible, NULL, -1);
        typical_launch(r);
        /* Each round launches the patterns in an order of its own
         * (round_order), so that what runs just before a pattern, and so
         * the state it leaves (a copy's dirty lines, a long local-memory
         * kernel's), varies from round to round and averages out; a
         * stable one whose twin still collects rounds launches on. A
         * reference launches a second time half a round after its own
         * turn: its control slot, and the other half of what its
         * patterns' per-round ratios are read against. */
        r->round = info->rounds;
        round_order(order, pos, p->n, info->rounds);
        for (size_t k = 0; k < p->n && !*stop; k++) {
            size_t i = order ? order[k] : (start + k) % p->n;
            if (!(r->res[i].status != BENCH_OK || r->slots[i].left_out ||
                  (r->slots[i].stable && !twin_collecting(&r->slots[i]))))
                turn(r, i, start);
            for (size_t j = 0; order && j < p->n && !*stop; j++)
                if (r->slots[j].is_reference && (pos[j] + p->n / 2) % p->n == k)
                    control_turn(r, j);
        }
        stop_groups(r);
        for (size_t i = 0; i < p->n && !*stop; i++)
            twin_when_due(r, i);
        start++;
        info->rounds++;
    }
    /* rounds that ended before a form was chosen: chosen from what there
     * is, and the twin given its rounds now, each after a launch */
    for (size_t i = 0; i < p->n && !*stop; i++) {
        slot *sl = &r->slots[i];
        if (!sl->alt || r->res[i].status != BENCH_OK)
            continue;
        if (sl->alt_n > 0 && r->res[i].event.count > 0) {
            choose_form(r, i);
        } else {
            ocl_kernel_free(sl->alt);
            sl->alt = NULL;
        }
        twin_when_due(r, i);
        while (twin_collecting(sl) && !*stop && r->res[i].status == BENCH_OK) {
            ocl_timing t;
            if (timed_launch(r, i, sl->kern, &t) && !record(r, i, disturbed(r, i, &t), 0))
                break;
            if (r->res[i].status == BENCH_OK)
                twin_after_launch(r, i);
        }
    }
    for (size_t i = 0; i < p->n; i++)
        twin_end(r, i);
    free(order);
    free(pos);
    info->timing_s = bench_now_s() - t0;
}

/* what a kernel-bound item i waits for, by device type, form and addresses */
static bench_limiter limiter(const run_ctx *r, size_t i)
{
    const ocl_device_info *d = ocl_context_device(r->ctx);
    if (d->type == OCL_TYPE_GPU)
        return BENCH_LIMITER_GPU;
    if (d->type != OCL_TYPE_CPU)
        return BENCH_LIMITER_OTHER;
    if (r->res[i].form == BENCH_FORM_SCALAR)
        return BENCH_LIMITER_CPU_SCALAR;
    return bench_twin_contiguous(&r->plan->geo, &r->plan->items[i]) ? BENCH_LIMITER_CPU_VECTOR
                                                                     : BENCH_LIMITER_CPU_GATHER;
}

/* The run's repeatability: the largest spread of a seq median and of a
 * relative_to_reference, and whether either passes its limit. A figure
 * that cannot be estimated (fewer than 4 samples) says nothing of the
 * machine: its row is unstable, which the row says (bench_stats_noisy). */
/* whether spread a is worse than b: a defined spread is worse than an
 * undefined one (too few launches) */
static int worse(double a, double b)
{
    return !isnan(a) && (isnan(b) || a > b);
}

static void noise(run_ctx *r, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    info->seq_spread = info->relative_spread = NAN;
    info->seq_item = info->relative_item = -1;
    info->noisy = 0;
    for (size_t i = 0; i < p->n; i++) {
        const bench_result *res = &r->res[i];
        if (res->status != BENCH_OK)
            continue;
        if (bench_plan_is_seq_reference(&p->items[i])) {
            info->noisy |= bench_stats_noisy(res->spread, BENCH_NOISY_SEQ);
            if (info->seq_item < 0 || worse(res->spread, info->seq_spread)) {
                info->seq_spread = res->spread;
                info->seq_item = (long)i;
            }
        }
        if (res->reference >= 0 && (size_t)res->reference != i && isfinite(res->relative_to_reference)) {
            info->noisy |= bench_stats_noisy(res->relative_spread, BENCH_NOISY_RELATIVE);
            if (info->relative_item < 0 || worse(res->relative_spread, info->relative_spread)) {
                info->relative_spread = res->relative_spread;
                info->relative_item = (long)i;
            }
        }
    }
}

/* the figures of measured pattern i that need no other pattern; run again
 * by finish(), so it must be idempotent */
static void finish_one(run_ctx *r, size_t i)
{
    const bench_plan *p = r->plan;
    bench_result *res = &r->res[i];
    res->event = bench_stats_of(res->event_ns, res->event.count);
    res->wall = bench_stats_of(res->wall_ns, res->event.count);
    /* the model's requested bytes, or a bank item's local bytes read */
    double bytes = p->items[i].fam->bytes(&p->items[i]);
    res->effective_gbs = res->event.median > 0 ? bytes / res->event.median : 0.0;
    res->best_gbs = res->event.min > 0 ? bytes / res->event.min : 0.0;
    res->stable = r->slots[i].met;
    res->spread = bench_stats_spread(res->event_ns, res->event.count);
    /* against the pattern's own fastest launch: the twin's figures are
     * fastest launches too, and the full launch is what is explained */
    res->bound = bench_bound_of(res->event.min, res->twin_ns);
    res->twin_ratio = res->bound != BENCH_BOUND_UNKNOWN ? res->twin_ns / res->event.min : NAN;
    /* a twin slower than its own pattern measured the host, not the
     * kernel: its ratio is shown, no bound is derived from it */
    if (res->twin_ratio > BENCH_TWIN_MAX_RATIO) {
        char msg[320];
        snprintf(msg, sizeof msg, "twin not used: the cache-resident twin took %.2fx the pattern's fastest launch "
                 "(measured%s), more than %.2fx: a twin cannot be slower than its own pattern, so this is "
                 "a measurement error, not a bound", res->twin_ratio, r->slots[i].twin_tries > 1 ? ", twice" : "",
                 BENCH_TWIN_MAX_RATIO);
        free(res->twin_reason);
        res->twin_reason = strdup(msg);
        res->bound = BENCH_BOUND_UNKNOWN;
    }
}

static double footprint_bytes(const bench_plan *p, long i)
{
    const model_launch *m = &p->items[i].model;
    return (double)((m->loads.footprint_sectors + m->stores.footprint_sectors) * p->geo.sector);
}

/* The item whose rate places patterns read against reference ref between
 * the model's bounds: ref itself, or a faster measured seq-family item of
 * the same access mode (seq:elem=16 beside seq). Each moves exactly its
 * modeled bytes, so the fastest is the nearest to memory's own rate; a
 * reference slower than that is limited by its kernel, not by memory, and
 * its rate would put the strided patterns below the model's lower bound. */
static long verdict_rate_item(const run_ctx *r, long ref)
{
    const bench_plan *p = r->plan;
    long best = ref;
    double best_rate = footprint_bytes(p, ref) / r->res[ref].event.median;
    if (!bench_plan_is_seq_reference(&p->items[ref]))
        return ref;
    for (size_t k = 0; k < p->n; k++) {
        const bench_item *it = &p->items[k];
        const bench_result *res = &r->res[k];
        if (!bench_plan_is_seq_reference(it) || it->access != p->items[ref].access || it->fam != p->items[ref].fam ||
            res->status != BENCH_OK || !(res->event.median > 0))
            continue;
        double rate = footprint_bytes(p, (long)k) / res->event.median;
        if (rate > best_rate) {
            best_rate = rate;
            best = (long)k;
        }
    }
    return best;
}

/* Item i's bandwidth relative to its reference's: the median of their
 * per-round ratios (bench_pair_ratio) with its interval, scaled by their
 * bytes; where no round holds both (a reference that stopped before the
 * item was timed), the ratio of their medians, with no interval. */
static double relative_of(run_ctx *r, size_t i, size_t ref)
{
    bench_result *res = &r->res[i];
    res->relative_ci[0] = res->relative_ci[1] = NAN;
    res->paired_rounds = 0;
    double plain = res->effective_gbs / r->res[ref].effective_gbs;
    if (i == ref)
        return plain;
    const bench_plan *p = r->plan;
    bench_pair_ci c = paired(r, i, ref);
    res->paired_rounds = c.rounds;
    if (!(c.median > 0))
        return plain;
    double bytes = p->items[i].fam->bytes(&p->items[i]) / p->items[ref].fam->bytes(&p->items[ref]);
    res->relative_ci[0] = c.lo * bytes;
    res->relative_ci[1] = c.hi * bytes;
    return c.median * bytes;
}

/* Reference i against its control slot: each slot's median and the
 * paired ratio of their bandwidths (own over control) with its verdict */
static void check_reference(run_ctx *r, size_t i)
{
    bench_result *res = &r->res[i];
    const slot *sl = &r->slots[i];
    res->has_check = sl->is_reference && res->status == BENCH_OK;
    if (!res->has_check)
        return;
    bench_pair_series own = { res->event_ns, sl->ev_round, sl->ev_slot, res->event.count, 0, sl->ev_pos };
    bench_pair_series ctl = { res->event_ns, sl->ev_round, sl->ev_slot, res->event.count, 1, sl->ev_pos };
    /* control's time over own's: the own slot's bandwidth over the control's */
    res->check = bench_pair_ratio(&ctl, &own);
    res->check_verdict = bench_pair_check(&res->check);
    double bytes = r->plan->items[i].fam->bytes(&r->plan->items[i]);
    double *v = malloc((res->event.count ? res->event.count : 1) * sizeof *v);
    res->own_gbs = res->control_gbs = NAN;
    for (int k = 0; v && k < 2; k++) {
        size_t n = 0;
        for (size_t j = 0; j < res->event.count; j++)
            if (sl->ev_slot[j] == k)
                v[n++] = res->event_ns[j];
        double m = n ? bench_stats_of(v, n).median : 0;
        *(k ? &res->control_gbs : &res->own_gbs) = m > 0 ? bytes / m : NAN;
    }
    free(v);
}

static void finish(run_ctx *r, int interrupted, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    for (size_t i = 0; i < p->n; i++) {
        bench_result *res = &r->res[i];
        res->spread = res->relative_spread = res->twin_ratio = NAN;
        if (res->status == BENCH_OK && res->event.count == 0) {
            res->status = BENCH_NOT_RUN;
            res->failure_code = BW_E_INTERRUPTED;
            free(res->failure);
            res->failure = strdup(interrupted ? "interrupted before it was measured" : "not measured");
            continue;
        }
        if (res->status == BENCH_OK) {
            finish_one(r, i);
            check_reference(r, i);
        }
    }
    for (size_t i = 0; i < p->n; i++) {
        bench_result *res = &r->res[i];
        long ref = bench_plan_reference(p, i);
        res->reference = ref;
        res->relative_to_reference = NAN;
        if (res->status != BENCH_OK || ref < 0 || r->res[ref].status != BENCH_OK ||
            !(r->res[ref].effective_gbs > 0)) {
            res->verdict = bench_verdict_of(0, 0, 0, 0, 0);
            continue;
        }
        res->relative_to_reference = relative_of(r, i, (size_t)ref);
        if (!p->items[i].fam->modeled) {
            /* no global traffic to place between bounds: no verdict */
            res->verdict = bench_verdict_of(0, 0, 0, 0, 0);
            if ((size_t)ref != i)
                res->relative_spread = res->relative_to_reference *
                                        bench_stats_ratio_spread(r->res[ref].event_ns, r->res[ref].event.count,
                                                                 res->event_ns, res->event.count);
            continue;
        }
        const model_launch *m = &p->items[i].model;
        double lower = footprint_bytes(p, (long)i);
        double upper = (double)((m->loads.instr_sectors + m->stores.instr_sectors) * p->geo.sector);
        long rate = verdict_rate_item(r, ref);
        res->verdict = bench_verdict_of(res->event.median, lower, upper, r->res[rate].event.median,
                                        footprint_bytes(p, rate));
        res->verdict.rate_item = rate;
        res->verdict = bench_verdict_with_bound(res->verdict, res->bound, limiter(r, i));
        /* a CPU's caches allocate on a store miss: the line is read before it is written */
        res->verdict.write_allocate =
            p->items[i].access == BENCH_ACCESS_WRITE && ocl_context_device(r->ctx)->type == OCL_TYPE_CPU;
        if ((size_t)ref != i)
            res->relative_spread = res->relative_to_reference * bench_stats_ratio_spread(r->res[ref].event_ns,
                                                                                   r->res[ref].event.count,
                                                                                   res->event_ns, res->event.count);
    }
    noise(r, info);
    /* what completed without a notice (the budget ended, an interrupt, a
     * failure before timing) is finished now */
    for (size_t i = 0; i < p->n; i++)
        if (r->res[i].status != BENCH_NOT_RUN)
            report_finished(r, i);
}

bw_code bench_run(ocl_context *ctx, bench_plan *plan, const bench_kernels *kernels,
                  const bench_settings *s, volatile sig_atomic_t *stop, bench_progress_fn progress,
                  void *progress_ctx, bench_result **results, bench_run_info *info, bw_error *err)
{
    *results = NULL;
    memset(info, 0, sizeof *info);
    info->seq_item = info->relative_item = -1;
    info->seq_spread = info->relative_spread = NAN;
    info->timer_wall = !ocl_context_timer(ctx, &info->timer_resolution_ns, &info->launch_overhead_ns);
    run_ctx r = { .ctx = ctx, .plan = plan, .kernels = kernels, .s = s, .progress = progress,
                  .pctx = progress_ctx, .stop = stop, .t_start = bench_now_s() };
    r.deadline = s->deadline_s > 0 ? s->deadline_s : r.t_start + s->budget_s;
    r.res = calloc(plan->n, sizeof *r.res);
    r.slots = calloc(plan->n, sizeof *r.slots);
    bw_code rc = BW_OK;
    if (!r.res || !r.slots)
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
    /* the figures that need other patterns are unknown until finish(): a
     * result reported finished before then (the journal) says so, not 0 */
    for (size_t i = 0; rc == BW_OK && i < plan->n; i++) {
        r.res[i].reference = -1;
        r.res[i].relative_to_reference = r.res[i].relative_spread = NAN;
        r.res[i].relative_ci[0] = r.res[i].relative_ci[1] = NAN;
        r.res[i].own_gbs = r.res[i].control_gbs = NAN;
        r.res[i].check = (bench_pair_ci){ NAN, NAN, NAN, 0 };
        r.res[i].spread = r.res[i].twin_ratio = NAN;
        r.res[i].verdict = bench_verdict_of(0, 0, 0, 0, 0);
        if (plan->items[i].left_out)
            leave_out(&r, i, 3, plan->items[i].left_out);
    }
    if (rc == BW_OK)
        rc = setup_buffers(&r, info, err);
    info->buffers_s = bench_now_s() - r.t_start;
    /* a signal while the buffers fill: nothing measured, every result says so */
    if (rc == BW_E_INTERRUPTED)
        bw_error_clear(err);
    else if (rc != BW_OK) {
        teardown(&r);
        bench_results_free(r.res, plan->n);
        return rc;
    }
    if (rc == BW_OK)
        prepare(&r, stop, info);
    if (!*stop)
        measure(&r, stop, info);
    info->interrupted = *stop != 0;
    finish(&r, info->interrupted, info);
    teardown(&r);
    info->total_s = bench_now_s() - r.t_start;
    *results = r.res;
    return info->interrupted ? bw_error_set(err, BW_E_INTERRUPTED, "interrupted") : BW_OK;
}

void bench_results_free(bench_result *r, size_t n)
{
    if (!r)
        return;
    for (size_t i = 0; i < n; i++) {
        free(r[i].failure);
        free(r[i].event_ns);
        free(r[i].wall_ns);
        free(r[i].twin_reason);
        free(r[i].budget_note);
        free(r[i].retry);
    }
    free(r);
}

typedef bw_code (*make_kernel_fn)(run_ctx *r, size_t i, int trace, ocl_program **prog, ocl_kernel **kern,
                                  bw_error *err);

/* Builds item i's traced kernel (make), launches it once with trace as
 * argument arg, and reads its first n addresses into host. */
static bw_code run_traced(run_ctx *r, size_t i, make_kernel_fn make, unsigned arg, ocl_buffer *trace,
                          int64_t *host, uint64_t n, bw_error *err)
{
    ocl_program *prog = NULL;
    ocl_kernel *kern = NULL;
    ocl_timing t;
    bw_code rc = make(r, i, 1, &prog, &kern, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(kern, arg, trace, err);
    if (rc == BW_OK)
        rc = launch(r, i, kern, &t, err);
    if (rc == BW_OK)
        rc = ocl_buffer_read(r->ctx, trace, 0, host, n * sizeof *host, err);
    ocl_kernel_free(kern);
    ocl_program_free(prog);
    return rc;
}

/* the trace check of item i of a family with a program of its own: its
 * traced kernel's addresses, every load of every work-item, against the
 * model's (bench_family.check_trace) */
static bw_code trace_own(run_ctx *r, size_t i, ocl_buffer *trace, int64_t *host, bw_error *err)
{
    const bench_item *it = &r->plan->items[i];
    bw_code rc = run_traced(r, i, make_own_kernel, it->fam->trace_arg(it), trace, host,
                            (uint64_t)(it->items * it->pattern->loads), err);
    return rc == BW_OK ? it->fam->check_trace(r->plan, it, host, err) : rc;
}

/* the trace check of every item in the form each has in `plan` */
static bw_code trace_form(ocl_context *ctx, bench_plan *plan, const bench_kernels *kernels,
                          bw_error *err)
{
    run_ctx r = { .ctx = ctx, .plan = plan, .kernels = kernels };
    ocl_program *prog = NULL;
    ocl_buffer *trace = NULL;
    uint64_t trace_bytes = bench_plan_trace_bytes(plan);
    int64_t *host = NULL;
    bw_code rc = BW_OK;
    /* the run's budget covers src and dst; the trace buffer must fit beside them */
    if (plan->src_bytes + plan->dst_bytes + trace_bytes > plan->budget_bytes) {
        char a[32], b[32], c[32], d[32];
        bw_format_bytes(a, sizeof a, (double)plan->src_bytes);
        bw_format_bytes(b, sizeof b, (double)plan->dst_bytes);
        bw_format_bytes(c, sizeof c, (double)trace_bytes);
        bw_format_bytes(d, sizeof d, (double)plan->budget_bytes);
        return bw_error_set(err, BW_E_TOOBIG,
                            "a trace of this plan needs src %s, dst %s and a %s trace buffer, more than the "
                            "memory budget of %s (3/4 of global memory); trace a smaller --size",
                            a, b, c, d);
    }
    host = malloc((size_t)trace_bytes);
    if (!host)
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
    if (rc == BW_OK)
        rc = stage_alloc(&r, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(ctx, plan->src_bytes, "src", &r.src, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(ctx, plan->dst_bytes, "dst", &r.dst, err);
    /* zeros: the trace compares addresses, not values */
    const uint8_t zero = 0;
    bench_fill_io io = fill_io(&r);
    if (rc == BW_OK)
        rc = bench_fill_pattern(&io, r.src, plan->src_bytes, &zero, 1, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(ctx, trace_bytes, "trace", &trace, err);
    if (rc == BW_OK)
        rc = build_program(&r, 0, plan->n, 1, &prog, err);
    /* every work-item of every item, in each kernel form the plan builds */
    size_t forms = plan->scalar_form ? 2 : 1;
    for (size_t i = 0; rc == BW_OK && i < plan->n * forms; i++) {
        const bench_item *it = &plan->items[i / forms];
        bench_form form = (bench_form)(i % forms);
        ocl_kernel *kern = NULL;
        ocl_timing t;
        if ((form == BENCH_FORM_SCALAR && !it->scalar_form) || it->left_out)
            continue; /* a left-out item's span may lie beyond the buffers */
        if (it->fam->program) {
            if (form == BENCH_FORM_PLAIN)
                rc = trace_own(&r, i / forms, trace, host, err);
            continue;
        }
        rc = make_kernel(&r, prog, i / forms, form, &kern, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_buffer(kern, it->fam->trace_arg(it), trace, err);
        if (rc == BW_OK)
            rc = launch(&r, i / forms, kern, &t, err);
        if (rc == BW_OK)
            rc = ocl_buffer_read(ctx, trace, 0, host, (uint64_t)it->items * sizeof *host, err);
        if (rc == BW_OK)
            rc = it->fam->check_trace(plan, it, host, err);
        if (rc != BW_OK && form == BENCH_FORM_SCALAR)
            bw_error_prefix(err, "the scalar form: ");
        ocl_kernel_free(kern);
    }
    ocl_program_free(prog);
    ocl_buffer_free(trace);
    ocl_buffer_free(r.src);
    ocl_buffer_free(r.dst);
    free(r.stage);
    free(host);
    return rc;
}

bw_code bench_trace_check(ocl_context *ctx, bench_plan *plan, const bench_kernels *kernels,
                          bw_error *err)
{
    /* a view of the plan whose items differ only in their index form */
    bench_plan view = *plan;
    view.items = malloc(plan->n * sizeof *view.items);
    if (!view.items)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    memcpy(view.items, plan->items, plan->n * sizeof *view.items);
    bw_code rc = BW_OK;
    for (int bits = 64; bits >= 32 && rc == BW_OK; bits -= 32) {
        size_t forms = 0;
        for (size_t i = 0; i < plan->n; i++) {
            int b = bits == 32 && plan->items[i].index32_proven ? 32 : 64;
            forms += b == bits;
            view.items[i].index_bits = b;
        }
        if (forms == 0)
            continue;
        rc = trace_form(ctx, &view, kernels, err);
        if (rc != BW_OK)
            bw_error_prefix(err, "%d-bit index arithmetic: ", bits);
    }
    free(view.items);
    return rc;
}
