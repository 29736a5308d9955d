/* bench_runner_trace: the trace check: every pattern built with the trace
 * option, launched once, and each recorded address compared with the
 * model's, in both forms of the index arithmetic (bench_trace_check,
 * bench_runner_priv.h). */
#include <stdlib.h>
#include <string.h>

#include "bench_family.h"
#include "bench_runner_priv.h"
#include "bw_format.h"

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
        rc = bench_runner_launch(r, i, kern, BENCH_FORM_PLAIN, &t, err);
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
    bw_code rc = run_traced(r, i, bench_runner_make_own_kernel, it->fam->trace_arg(it), trace, host,
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
        rc = bench_runner_stage_alloc(&r, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(ctx, plan->src_bytes, "src", &r.src, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(ctx, plan->dst_bytes, "dst", &r.dst, err);
    /* zeros: the trace compares addresses, not values */
    const uint8_t zero = 0;
    bench_fill_io io = bench_runner_fill_io(&r);
    if (rc == BW_OK)
        rc = bench_fill_pattern(&io, r.src, plan->src_bytes, &zero, 1, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(ctx, trace_bytes, "trace", &trace, err);
    if (rc == BW_OK)
        rc = bench_runner_build_program(&r, 0, plan->n, 1, &prog, err);
    /* every work-item of every item, in each kernel form the plan builds */
    size_t forms = plan->scalar_form ? 2 : 1;
    for (size_t i = 0; rc == BW_OK && i < plan->n * forms; i++) {
        const bench_item *it = &plan->items[i / forms];
        bench_form form = i % forms ? (bench_form)it->alt_form : BENCH_FORM_PLAIN;
        ocl_kernel *kern = NULL;
        ocl_timing t;
        if ((i % forms && !it->scalar_form) || it->left_out)
            continue; /* a left-out item's span may lie beyond the buffers */
        if (it->fam->program) {
            if (form == BENCH_FORM_PLAIN)
                rc = trace_own(&r, i / forms, trace, host, err);
            continue;
        }
        rc = bench_runner_make_kernel(&r, prog, i / forms, form, &kern, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_buffer(kern, it->fam->trace_arg(it), trace, err);
        if (rc == BW_OK)
            rc = bench_runner_launch(&r, i / forms, kern, form, &t, err);
        if (rc == BW_OK)
            rc = ocl_buffer_read(ctx, trace, 0, host, (uint64_t)it->items * sizeof *host, err);
        if (rc == BW_OK)
            rc = it->fam->check_trace(plan, it, host, err);
        if (rc != BW_OK && form != BENCH_FORM_PLAIN)
            bw_error_prefix(err, "the %s form: ", bench_form_name(form));
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
