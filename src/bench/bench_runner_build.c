/* bench_runner_build: the device side of a run: each pattern's program
 * and kernels built (one program for all where it can), src and dst
 * allocated and filled, launches timed and retried, the timer's floor,
 * and validation against the host's reference (bench_runner_priv.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_family.h"
#include "bench_runner_priv.h"
#include "bench_validate.h"
#include "bw_buf.h"
#include "bw_hook.h"
#include "ocl_buffer.h"
#include "ocl_error.h"
#include "ocl_program.h"

#define SOURCE_SEED UINT64_C(0x62776c6162)
/* Host memory of a run, whatever the plan's size: one staging buffer of at
 * most this (a source the device cannot fill is generated into it and
 * written a chunk at a time, dst is read back through it), plus
 * validation's 8 MiB of addresses. A 16 GiB plan on a large GPU needs no 16 GiB of host RAM. */
#define HOST_STAGE ((uint64_t)64 << 20)

/* *source with a first line no earlier build had (bench_settings
 * fresh_build): a program-scope constant of the wall clock's nanoseconds
 * and this process's id, since a runtime may hash its kernel cache's key
 * from the preprocessed source (PoCL does), where a comment is gone */
static bw_code afresh(char **source, bw_error *err)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    bw_buf b = BW_BUF_INIT;
    bw_buf_printf(&b, "__constant ulong bwlab_afresh[2] = { %lluUL, %lluUL };\n",
                  (unsigned long long)now.tv_sec * 1000000000ull + (unsigned long long)now.tv_nsec,
                  (unsigned long long)getpid());
    bw_buf_puts(&b, *source);
    char *s = bw_buf_steal(&b);
    if (!s)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    free(*source);
    *source = s;
    return BW_OK;
}

/* builds the kernels of items [first, first+count) as one program */
bw_code bench_runner_build_program(run_ctx *r, size_t first, size_t count, int trace, ocl_program **prog,
                                   bw_error *err)
{
    for (size_t i = first; i < first + count; i++)
        if (bw_hook_fault("build", r->plan->items[i].spec, NULL))
            return bw_error_set(err, BW_E_BUILD, "kernel build failed for %s (injected: BWLAB_TEST_FAULTS)",
                                r->plan->items[i].spec);
    char *source = NULL;
    bw_code rc = bench_kernel_program(r->kernels, r->plan, first, count, trace, &source, err);
    if (rc == BW_OK && r->s && r->s->fresh_build) /* a trace check runs without settings */
        rc = afresh(&source, err);
    if (rc == BW_OK)
        rc = ocl_program_build(r->ctx, source, BENCH_KERNEL_FILE, NULL, prog, err);
    free(source);
    return rc;
}

/* the item's work-items that one work-item of a kernel in `form` runs:
 * a whole warp in the warp form */
static int64_t items_per_work_item(const run_ctx *r, bench_form form)
{
    return form == BENCH_FORM_WARP && r->plan->geo.lanes > 0 ? r->plan->geo.lanes : 1;
}

/* the kernel's own work-group limit is known only now; an automatic size
 * is lowered to fit, a --local one that does not fit fails the pattern
 * (the limit counted in the item's work-items) */
static bw_code fit_group(run_ctx *r, size_t i, ocl_kernel *kern, bench_form form, bw_error *err)
{
    size_t most = 0, multiple = 0;
    bw_code rc = ocl_kernel_work_group_info(kern, &most, &multiple, err);
    if (rc == BW_OK && form == BENCH_FORM_WARP)
        r->plan->items[i].warp_kernel_max = (int64_t)most;
    if (rc == BW_OK)
        rc = bench_plan_fit_kernel(r->plan, i, (uint64_t)most * (uint64_t)items_per_work_item(r, form), err);
    return rc;
}

bw_code bench_runner_make_kernel(run_ctx *r, ocl_program *prog, size_t i, bench_form form, ocl_kernel **kern,
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
        rc = fit_group(r, i, *kern, form, err);
    if (rc == BW_OK)
        rc = bench_runner_set_span(r, i, *kern, r->plan->items[i].items / bench_item_unroll(&r->plan->items[i]), err);
    return rc;
}

/* The kernel of item i of a family with a program of its own
 * (bench_family.program): the program built, src and dst as arguments 0
 * and 1, the family's local-memory argument where it has one; with trace,
 * the trace buffer comes later. In a test build a build failure may be
 * injected, as for the shared program (build_program). */
bw_code bench_runner_make_own_kernel(run_ctx *r, size_t i, int trace, ocl_program **prog, ocl_kernel **kern,
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
        rc = fit_group(r, i, *kern, BENCH_FORM_PLAIN, err);
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

double bench_runner_run_floor_ns(const run_ctx *r)
{
    return floor_of(r, r->s);
}

/* the same from the device's timer alone, whatever floor the caller set:
 * what a slice needs to be resolved (a caller's lower floor, as the tests
 * set to time small launches, only admits more launches) */
double bench_runner_device_floor_ns(const run_ctx *r)
{
    bench_settings s = *r->s;
    s.min_launch_ns = 0;
    return floor_of(r, &s);
}

bw_code bench_runner_set_span(run_ctx *r, size_t i, ocl_kernel *k, int64_t span, bw_error *err)
{
    if (r->plan->items[i].fam->program)
        return BW_OK; /* a family's own kernel: no span argument */
    int64_t v = span;
    return ocl_kernel_arg_bytes(k, BENCH_KERNEL_ARG_SPAN, &v, sizeof v, err);
}

bw_code bench_runner_launch_span(run_ctx *r, size_t i, ocl_kernel *k, bench_form form, int64_t span, ocl_timing *t,
                                 bw_error *err)
{
    int64_t per = items_per_work_item(r, form);
    bw_code rc = bench_runner_set_span(r, i, k, span, err);
    if (rc == BW_OK)
        rc = ocl_kernel_run(r->ctx, k, (uint64_t)(span / per), (uint64_t)(r->plan->items[i].local_size / per), t,
                            err);
    return rc;
}

/* One launch of item i's kernel k, in `form`, over the item's work-items
 * [first, first + count) (count 0: all). The result records how it was timed.
 * A launch that fails with a size-dependent error (CL_OUT_OF_RESOURCES,
 * CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_INVALID_WORK_GROUP_SIZE: drivers
 * that advertise a work-group they cannot run) is retried once at half
 * the work-group, for every later launch of the item too, and the result
 * says what changed. Not retried: the items of a family whose local tile
 * is sized by the work-group (bench_family.retry_half 0: bank,
 * transpose), and launches of a trace run (no results to note it in). */
static bw_code launch_range(run_ctx *r, size_t i, ocl_kernel *k, bench_form form, int64_t first, int64_t count,
                            ocl_timing *t, bw_error *err)
{
    bench_item *it = &r->plan->items[i];
    int64_t whole = it->launch_items > 0 ? it->launch_items : it->items;
    int64_t items = count > 0 ? count : whole;
    /* ranges and groups are whole warps (bench_item.alt_form); the warp
     * form's larger group where the range is whole groups of it
     * (bench_validate_sample samples in such groups) */
    int64_t per = items_per_work_item(r, form);
    int64_t group = it->local_size / per;
    if (per > 1) {
        int64_t big = bench_item_warp_group(it, per);
        if ((first / per) % big == 0 && (items / per) % big == 0)
            group = big;
    }
    bw_code rc = bench_runner_set_span(r, i, k, whole, err);
    if (rc == BW_OK)
        rc = ocl_kernel_run_at(r->ctx, k, (uint64_t)(first / per), (uint64_t)(items / per), (uint64_t)group, t,
                               err);
    bench_result *res = r->res ? &r->res[i] : NULL; /* none in a trace run */
    if (!res)
        return rc;
    res->timer_wall = !ocl_context_timer(r->ctx, &res->timer_resolution_ns, &res->launch_overhead_ns);
    int64_t half = it->local_size / 2;
    int status = rc == BW_OK ? 0 : ocl_kernel_size_status(k);
    if (!status || res->retry || !it->fam->retry_half || half < per || half % per != 0 || items % half != 0)
        return rc;
    char note[160];
    snprintf(note, sizeof note, "work-group %lld failed (%s); ran at %lld", (long long)(group * per),
             ocl_error_name(status), (long long)half);
    if (err)
        bw_error_clear(err);
    rc = ocl_kernel_run_at(r->ctx, k, (uint64_t)(first / per), (uint64_t)(items / per), (uint64_t)(half / per), t,
                           err);
    if (rc != BW_OK)
        return rc;
    if (!(res->retry = strdup(note)))
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    it->local_size = half;
    it->warp_kernel_max = 0; /* the warp form keeps local_size / W from now on */
    return BW_OK;
}

/* one whole launch of item i's kernel k (launch_range) */
bw_code bench_runner_launch(run_ctx *r, size_t i, ocl_kernel *k, bench_form form, ocl_timing *t, bw_error *err)
{
    return launch_range(r, i, k, form, 0, 0, t, err);
}

/* what a family's validation reaches of the run: item i's kernel k */
typedef struct validation {
    run_ctx *r;
    size_t i;
    ocl_kernel *k;
    bench_form form;
} validation;

static bw_code io_launch(void *ctx, bw_error *err)
{
    validation *v = ctx;
    ocl_timing t;
    return bench_runner_launch(v->r, v->i, v->k, v->form, &t, err);
}

static bw_code io_launch_range(void *ctx, int64_t first, int64_t count, bw_error *err)
{
    validation *v = ctx;
    ocl_timing t;
    return launch_range(v->r, v->i, v->k, v->form, first, count, &t, err);
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
static bw_code validate(run_ctx *r, size_t i, ocl_kernel *kern, bench_form form, bw_error *err)
{
    validation v = { r, i, kern, form };
    bench_family_io io = { r->plan, i, r->s->fill_zeros ? BENCH_FILL_ZERO_SEED : SOURCE_SEED, r->stage, r->stage_bytes,
                           r->stop, &v,
                           io_launch, io_launch_range, io_set_key, io_read_dst, io_write_dst };
    return r->plan->items[i].fam->validate(&io, err);
}

/* validate, or in a test build a validation failure injected for the item */
bw_code bench_runner_validate_item(run_ctx *r, size_t i, ocl_kernel *kern, bench_form form, bw_error *err)
{
    bw_code rc = validate(r, i, kern, form, err);
    if (rc == BW_OK && bw_hook_fault("validate", r->plan->items[i].spec, NULL))
        rc = bw_error_set(err, BW_E_VALIDATION, "%s: dst[0] differs from the host's result (injected: "
                          "BWLAB_TEST_FAULTS)", r->plan->items[i].spec);
    return rc;
}

/* the staging buffer: HOST_STAGE, or less for a plan whose buffers are smaller */
bw_code bench_runner_stage_alloc(run_ctx *r, bw_error *err)
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

/* how the run fills its buffers (bench_fill.h) */
bench_fill_io bench_runner_fill_io(const run_ctx *r)
{
    bench_fill_io io = { r->ctx, r->kernels ? bench_kernels_dir(r->kernels) : NULL, r->stage, r->stage_bytes,
                         r->stop };
    return io;
}

/* Both buffers, dst BENCH_DST_SHIFT into its allocation where the device
 * takes it (info->dst_shift_bytes), filled: src with the source stream (on the device where it
 * can; info->fill_note says when not), dst with the write sentinel's word
 * (every validation refills the bytes it checks). Writing both makes lazily
 * allocating drivers commit the memory now, before anything is timed. */
bw_code bench_runner_setup_buffers(run_ctx *r, bench_run_info *info, bw_error *err)
{
    const bench_plan *p = r->plan;
    bw_code rc = bench_runner_stage_alloc(r, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(r->ctx, p->src_bytes, "src", &r->src, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create_shifted(r->ctx, p->dst_bytes, BENCH_DST_SHIFT, "dst", &r->dst, &info->dst_shift_bytes,
                                       err);
    bench_fill_io io = bench_runner_fill_io(r);
    static const uint32_t zero = 0;
    if (rc == BW_OK && r->s->fill_zeros)
        rc = bench_fill_pattern(&io, r->src, p->src_bytes, &zero, sizeof zero, err);
    else if (rc == BW_OK)
        rc = bench_fill_src_device(&io, r->src, p->src_bytes, SOURCE_SEED, info->fill_note, sizeof info->fill_note,
                                   err);
    const uint32_t sentinel = BENCH_WRITE_SENTINEL;
    if (rc == BW_OK)
        rc = bench_fill_pattern(&io, r->dst, p->dst_bytes, &sentinel, sizeof sentinel, err);
    return rc;
}

void bench_runner_teardown(run_ctx *r)
{
    if (r->slots) {
        for (size_t i = 0; i < r->plan->n; i++) {
            free(r->slots[i].ev_round);
            free(r->slots[i].ev_pos);
            free(r->slots[i].ev_slot);
            ocl_kernel_free(r->slots[i].kern);
            ocl_kernel_free(r->slots[i].alt);
            ocl_kernel_free(r->slots[i].other);
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
 * program the plain form, and its other form (bench_item.alt_form) where
 * the plan asks for two. */
static bw_code make_kernels(run_ctx *r, ocl_program *prog, size_t i, bw_error *err)
{
    if (r->plan->items[i].fam->program)
        return bench_runner_make_own_kernel(r, i, 0, &r->slots[i].prog, &r->slots[i].kern, err);
    bw_code rc = bench_runner_make_kernel(r, prog, i, BENCH_FORM_PLAIN, &r->slots[i].kern, err);
    if (rc == BW_OK && r->plan->items[i].scalar_form)
        rc = bench_runner_make_kernel(r, prog, i, (bench_form)r->plan->items[i].alt_form, &r->slots[i].alt, err);
    return rc;
}

/* One program for all patterns; should it fail, each pattern alone, so
 * that one bad pattern does not take the others down. */
void bench_runner_build_all(run_ctx *r, volatile sig_atomic_t *stop)
{
    const bench_plan *p = r->plan;
    bench_runner_report(r, "building", 0, 1, NULL, -1);
    bw_error e = BW_ERROR_INIT;
    ocl_program *prog = NULL;
    if (bench_runner_build_program(r, 0, p->n, 0, &prog, &e) == BW_OK) {
        for (size_t i = 0; i < p->n && !*stop; i++) {
            if (r->res[i].status != BENCH_OK)
                continue;
            if (make_kernels(r, prog, i, &e) != BW_OK)
                bench_runner_fail(&r->res[i], e.code, bw_error_text(&e));
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
            bench_runner_fail(&r->res[i], first.code, bw_error_text(&first));
            continue;
        }
        bench_runner_report(r, "building", i, p->n, p->items[i].spec, -1);
        if ((!p->items[i].fam->program &&
             bench_runner_build_program(r, i, 1, 0, &r->slots[i].prog, &one) != BW_OK) ||
            make_kernels(r, r->slots[i].prog, i, &one) != BW_OK)
            bench_runner_fail(&r->res[i], one.code, bw_error_text(&one));
        bw_error_clear(&one);
    }
    bw_error_clear(&first);
}

/* The sub-group size the kernel runs at, and whether a launch is long
 * enough to time at all: a launch shorter than the floor is reported as
 * not measurable, never as a bandwidth. */
void bench_runner_after_warmup(run_ctx *r, size_t i, double event_ns)
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
    double floor = bench_runner_run_floor_ns(r);
    if (bench_sample_ok(event_ns) && event_ns >= floor)
        return;
    char took[32], fl[32], msg[256];
    bench_runner_format_us(took, sizeof took, event_ns > 0 ? event_ns : 0);
    bench_runner_format_us(fl, sizeof fl, floor);
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
    bench_runner_not_measurable(res, msg);
}
