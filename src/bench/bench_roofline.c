/* bench_roofline: the measurement of `bwlab roofline`: peak FMA, peak
 * read, the intensity sweep and tiled matmul, each validated, sized to the
 * launch target and timed round-robin within the budget (bench_roofline.h). */
#include "bench_roofline_priv.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_stats.h"
#include "bw_buf.h"
#include "bench_kernel.h"
#include "bw_file.h"
#include "bw_hook.h"
#include "ocl_buffer.h"
#include "ocl_device.h"
#include "ocl_program.h"

#define MIB ((uint64_t)1 << 20)
#define VECS BENCH_ROOFLINE_VECS_PER_ITEM
#define DEFAULT_LOCAL 256
/* work-groups per compute unit of the peak kernel */
#define PEAK_GROUPS_PER_CU 16
#define PEAK_MAX_ITERS (UINT32_C(1) << 24)
/* work-items whose output the host recomputes */
#define PEAK_CHECKS 8
#define SWEEP_CHECKS 16
/* source data is generated in chunks of this many floats */
#define CHUNK_FLOATS ((size_t)1 << 20)
/* measurements share the budget: each launch aims at budget / this */
#define LAUNCH_SHARE 128.0
#define MAX_TARGET_NS 5e7
#define FLOOR_FACTOR 10.0
/* the buffer is planned so that what follows the calibration is predicted
 * to take at most this share of the budget left: the prediction reads the
 * calibration's leading slice, which a cache may serve faster */
#define PLAN_SHARE 0.8
/* launches per measurement the plan counts: sizing, validating, rounds */
#define PLAN_LAUNCHES (2.0 + BENCH_ROOFLINE_MIN_REPS)
/* launches of about half the target the matrix products take per tile,
 * and to calibrate their order */
#define PLAN_MATMUL_LAUNCHES 6.0
/* sweep points and matrix products are sized while the time used is
 * within this share of the budget; the rest is the rounds' */
#define SIZE_SHARE 0.7

double bench_roofline_intensity(uint32_t k)
{
    return 2.0 * (double)k / 4.0;
}

const char *bench_roofline_kind_name(bench_roofline_kind k)
{
    switch (k) {
    case BENCH_ROOFLINE_PEAK_FMA: return "peak-fma";
    case BENCH_ROOFLINE_PEAK_READ: return "peak-read";
    case BENCH_ROOFLINE_MATMUL: return "matmul";
    default: return "sweep";
    }
}

float bench_roofline_peak_value(uint64_t g, int chain, int lane, int width, uint32_t iters, float a, float b)
{
    uint32_t idx = (uint32_t)(g * (uint64_t)(BENCH_ROOFLINE_CHAINS * width)) + (uint32_t)(chain * width + lane);
    float x = (float)(idx & 1023u) * (1.0f / 1024.0f);
    for (uint32_t i = 0; i < iters; i++)
        x = fmaf(x, a, b);
    return x;
}

/* source float i: in [0.5, 1), a multiple of 2^-17 (exact) */
static float source_value(uint64_t i)
{
    uint64_t z = i + UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return 0.5f + (float)(uint32_t)(z >> 48) * (1.0f / 131072.0f);
}

bw_code bench_roofline_kernel_load(const char *dir, char **text, char **path, bw_error *err)
{
    *text = NULL;
    *path = NULL;
    return bench_kernel_source_load(dir, BENCH_ROOFLINE_KERNEL_FILE, text, path, err);
}

typedef struct roof {
    ocl_context *ctx;
    const bench_roofline_opts *o;
    bench_roofline_result *res;
    ocl_program *prog;
    ocl_kernel *peak, *sweep, *matmul;
    ocl_buffer *src, *out, *ma, *mb, *mc;
    uint64_t out_bytes;
    uint64_t filled;     /* bytes of src holding the source data */
    double t0;
} roof;

/* the stop flag was set (SIGINT, SIGTERM) */
static int stopped(const roof *r)
{
    return r->o->stop && *r->o->stop;
}

static double elapsed_s(const roof *r)
{
    return bench_now_s() - r->t0;
}

/* appends a sentence to the result's budget note */
static void note(bench_roofline_result *res, const char *fmt, ...)
{
    size_t len = strlen(res->budget_note);
    if (len + 3 >= sizeof res->budget_note)
        return;
    if (len) {
        memcpy(res->budget_note + len, "; ", 3);
        len += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->budget_note + len, sizeof res->budget_note - len, fmt, ap);
    va_end(ap);
}

static int preferred_width(const ocl_device_info *d)
{
    uint32_t p = d->preferred_vector_width_float;
    int w = 1;
    while (w < 16 && (uint32_t)(2 * w) <= p)
        w *= 2;
    return w;
}

/* the largest power of two within DEFAULT_LOCAL, the device's and both
 * kernels' limits */
static bw_code choose_local(roof *r, uint64_t *local, bw_error *err)
{
    uint64_t most = ocl_context_device(r->ctx)->max_work_group_size;
    ocl_kernel *ks[2] = { r->peak, r->sweep };
    for (int i = 0; i < 2; i++) {
        size_t m = 0, mult = 0;
        bw_code rc = ocl_kernel_work_group_info(ks[i], &m, &mult, err);
        if (rc != BW_OK)
            return rc;
        if (m < most)
            most = m;
    }
    uint64_t l = 1;
    while (2 * l <= most && 2 * l <= DEFAULT_LOCAL)
        l *= 2;
    *local = l;
    return BW_OK;
}

static bw_code build(roof *r, const char *source, bw_error *err)
{
    bw_buf b = BW_BUF_INIT;
    bw_buf_printf(&b, "#define RF_V %d\n", r->res->vector_width);
    bw_buf_puts(&b, source);
    bw_code rc = bw_buf_failed(&b) ? bw_error_set(err, BW_E_NOMEM, "out of memory")
                                   : ocl_program_build(r->ctx, bw_buf_str(&b), BENCH_ROOFLINE_KERNEL_FILE, NULL,
                                                       &r->prog, err);
    bw_buf_free(&b);
    if (rc == BW_OK)
        rc = ocl_kernel_create(r->prog, "rf_peak", &r->peak, err);
    if (rc == BW_OK)
        rc = ocl_kernel_create(r->prog, "rf_sweep", &r->sweep, err);
    if (rc == BW_OK)
        rc = ocl_kernel_create(r->prog, "rf_matmul", &r->matmul, err);
    return rc;
}

/* the source data from r->filled up to `bytes`, a chunk at a time (the
 * stop flag read before each) */
static bw_code fill_source(roof *r, uint64_t bytes, bw_error *err)
{
    uint64_t n = bytes / 4;
    float *buf = malloc(CHUNK_FLOATS * sizeof *buf);
    if (!buf)
        return bw_error_set(err, BW_E_NOMEM, "out of host memory for the source data");
    bw_code rc = BW_OK;
    for (uint64_t i0 = r->filled / 4; i0 < n && rc == BW_OK; i0 += CHUNK_FLOATS) {
        if (stopped(r)) {
            rc = BW_E_INTERRUPTED;
            break;
        }
        size_t c = n - i0 < CHUNK_FLOATS ? (size_t)(n - i0) : CHUNK_FLOATS;
        for (size_t i = 0; i < c; i++)
            buf[i] = source_value(i0 + i);
        rc = ocl_buffer_write(r->ctx, r->src, 4 * i0, buf, 4 * (uint64_t)c, err);
        if (rc == BW_OK)
            r->filled = 4 * (i0 + c);
    }
    free(buf);
    return rc;
}

/* the work-items checked: the first, the last, and evenly spaced between */
static uint64_t check_item(uint64_t items, int i, int n)
{
    return items <= 1 ? 0 : (uint64_t)((double)(items - 1) * (double)i / (double)(n - 1));
}

static bw_code set_args(roof *r, const bench_roofline_meas *m, bw_error *err)
{
    float a = BENCH_ROOFLINE_A, b = BENCH_ROOFLINE_B;
    bw_code rc;
    if (m->kind == BENCH_ROOFLINE_MATMUL) {
        size_t tile_bytes = 4 * (size_t)m->tile * m->tile;
        rc = ocl_kernel_arg_buffer(r->matmul, 0, r->ma, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_buffer(r->matmul, 1, r->mb, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_buffer(r->matmul, 2, r->mc, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_u32(r->matmul, 3, m->n, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_u32(r->matmul, 4, m->tile, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_local(r->matmul, 5, tile_bytes, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_local(r->matmul, 6, tile_bytes, err);
        return rc;
    }
    if (m->kind == BENCH_ROOFLINE_PEAK_FMA) {
        rc = ocl_kernel_arg_buffer(r->peak, 0, r->out, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_bytes(r->peak, 1, &a, sizeof a, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_bytes(r->peak, 2, &b, sizeof b, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_u32(r->peak, 3, m->iters, err);
        return rc;
    }
    rc = ocl_kernel_arg_buffer(r->sweep, 0, r->src, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(r->sweep, 1, r->out, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_bytes(r->sweep, 2, &a, sizeof a, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_bytes(r->sweep, 3, &b, sizeof b, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_u32(r->sweep, 4, m->k, err);
    return rc;
}

static bw_code launch(roof *r, const bench_roofline_meas *m, ocl_timing *tm, bw_error *err)
{
    bw_code rc = set_args(r, m, err);
    if (rc == BW_OK)
        rc = ocl_kernel_run(r->ctx,
                            m->kind == BENCH_ROOFLINE_PEAK_FMA ? r->peak
                            : m->kind == BENCH_ROOFLINE_MATMUL  ? r->matmul
                                                               : r->sweep,
                            m->items, m->local, tm, err);
    return rc;
}

/* the requested FLOP and bytes of m's launch */
static void account(bench_roofline_meas *m, int width)
{
    if (m->kind == BENCH_ROOFLINE_PEAK_FMA) {
        m->flop = 2.0 * (double)m->items * BENCH_ROOFLINE_CHAINS * (double)width * (double)m->iters;
        m->bytes = 0;
        m->intensity = 0;
    } else if (m->kind == BENCH_ROOFLINE_MATMUL) {
        double n = (double)m->n;
        m->items = (uint64_t)m->n * m->n;
        m->local = (uint64_t)m->tile * m->tile;
        m->flop = 2.0 * n * n * n;
        m->bytes = 0;
        m->intensity = model_roofline_tile_intensity(m->tile);
    } else {
        double floats = (double)m->items * VECS * (double)width;
        m->flop = 2.0 * (double)m->k * floats;
        m->bytes = 4.0 * floats;
        m->intensity = bench_roofline_intensity(m->k);
    }
}

/* the reference of sweep work-item g (group g / L, local id g % L) with
 * vectors of `width` floats */
static float sweep_value(uint64_t g, uint64_t L, int width, uint32_t k)
{
    uint64_t first = (g / L) * L * VECS + g % L;
    float acc[16] = { 0 };
    for (int j = 0; j < VECS; j++) {
        uint64_t v = first + (uint64_t)j * L;
        for (int c = 0; c < width; c++) {
            float x = source_value((uint64_t)width * v + (uint64_t)c);
            for (uint32_t i = 0; i < k; i++)
                x = fmaf(x, BENCH_ROOFLINE_A, BENCH_ROOFLINE_B);
            acc[c] = j == 0 ? x : acc[c] + x;
        }
    }
    float sum = acc[0];
    for (int c = 1; c < width; c++)
        sum += acc[c];
    return sum;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* One launch from sentinel-filled output; the chosen work-items' results
 * recomputed on the host, bit for bit. Its time comes back in *tm. */
static bw_code validate(roof *r, bench_roofline_meas *m, ocl_timing *tm, bw_error *err)
{
    int width = r->res->vector_width;
    int peak = m->kind == BENCH_ROOFLINE_PEAK_FMA;
    size_t per = peak ? (size_t)(BENCH_ROOFLINE_CHAINS * width) : 1; /* floats per work-item */
    int nchk = peak ? PEAK_CHECKS : SWEEP_CHECKS;
    float vals[BENCH_ROOFLINE_CHAINS * 16];
    uint32_t sentinel = 0xffffffffu; /* a NaN no kernel computes */
    for (size_t i = 0; i < per; i++)
        memcpy(&vals[i], &sentinel, sizeof sentinel);
    bw_code rc = BW_OK;
    for (int c = 0; c < nchk && rc == BW_OK; c++)
        rc = ocl_buffer_write(r->ctx, r->out, 4 * check_item(m->items, c, nchk) * per, vals, 4 * per, err);
    if (rc == BW_OK)
        rc = launch(r, m, tm, err);
    for (int c = 0; c < nchk && rc == BW_OK; c++) {
        uint64_t g = check_item(m->items, c, nchk);
        rc = ocl_buffer_read(r->ctx, r->out, 4 * g * per, vals, 4 * per, err);
        for (size_t i = 0; i < per && rc == BW_OK; i++) {
            float want = peak ? bench_roofline_peak_value(g, (int)(i / (size_t)width), (int)(i % (size_t)width), width,
                                                          m->iters, BENCH_ROOFLINE_A, BENCH_ROOFLINE_B)
                              : sweep_value(g, m->local, width, m->k);
            if (bits(vals[i]) == bits(want))
                continue;
            if (peak)
                return bw_error_set(err, BW_E_VALIDATION,
                                    "rf_peak (float%d, %u iterations): work-item %llu, chain %d, lane %d stored "
                                    "%.9g, the host's fmaf() sequence gives %.9g",
                                    width, m->iters, (unsigned long long)g, (int)(i / (size_t)width),
                                    (int)(i % (size_t)width), (double)vals[i], (double)want);
            return bw_error_set(err, BW_E_VALIDATION,
                                "rf_sweep (%u FMAs per float): work-item %llu stored %.9g, the host's sum of its "
                                "floats after the same fmaf() steps is %.9g",
                                m->k, (unsigned long long)g, (double)vals[i], (double)want);
        }
    }
    if (rc == BW_OK)
        m->validated = 1;
    return rc;
}

static bw_code too_short(const roof *r, const bench_roofline_meas *m, double ns, bw_error *err)
{
    return bw_error_set(err, BW_E_RANGE,
                        "%s%s: a launch takes %.1f µs (measured), below the %.1f µs timing floor even at its "
                        "largest size", bench_roofline_kind_name(m->kind), m->kind == BENCH_ROOFLINE_SWEEP ? " point" : "",
                        ns / 1000.0, r->o->min_launch_ns / 1000.0);
}

/* rf_peak: iterations calibrated so that a launch lasts about the target,
 * then validated */
static bw_code size_peak(roof *r, bw_error *err)
{
    bench_roofline_meas *m = &r->res->peak_fma;
    const ocl_device_info *d = ocl_context_device(r->ctx);
    uint64_t cu = d->compute_units ? d->compute_units : 1;
    m->items = m->local * cu * PEAK_GROUPS_PER_CU;
    m->iters = 16;
    double target = r->res->launch_target_ns;
    ocl_timing tm = { 0, 0 };
    bw_code rc = BW_OK;
    for (int tries = 0; tries < 5 && rc == BW_OK; tries++) {
        if (stopped(r))
            return BW_E_INTERRUPTED;
        rc = launch(r, m, &tm, err);
        /* the first launch pays the device's first-use costs: a short kernel
         * looked long enough and stayed launch-overhead bound */
        if (rc != BW_OK || tries == 0)
            continue;
        double t = tm.event_ns > 0 ? tm.event_ns : 1.0;
        if (t >= 0.5 * target || m->iters == PEAK_MAX_ITERS)
            break;
        double want = (double)m->iters * target / t;
        m->iters = want >= (double)PEAK_MAX_ITERS ? PEAK_MAX_ITERS : (uint32_t)want;
    }
    if (rc == BW_OK)
        rc = validate(r, m, &tm, err);
    if (rc == BW_OK && !(tm.event_ns >= r->o->min_launch_ns))
        rc = too_short(r, m, tm.event_ns, err);
    account(m, r->res->vector_width);
    return rc;
}

/* rf_sweep at k: the whole buffer, or a leading slice of whole groups
 * when a launch over it takes longer than both the launch target and 1.5 x
 * the read's launch (read_ns): first as the FMAs at the measured peak
 * predict, then as its validating launch measures */
static bw_code size_sweep(roof *r, bench_roofline_meas *m, double read_ns, bw_error *err)
{
    int width = r->res->vector_width;
    uint64_t full = r->res->buffer_bytes / (4 * VECS * (uint64_t)width);
    uint64_t groups_full = full / m->local;
    double limit = r->res->launch_target_ns > 1.5 * read_ns ? r->res->launch_target_ns : 1.5 * read_ns;
    m->items = full;
    account(m, width);
    if (m->kind == BENCH_ROOFLINE_SWEEP && r->res->peak_gflops > 0) {
        double pred = m->flop / r->res->peak_gflops;
        if (pred > limit) {
            uint64_t groups = (uint64_t)((double)groups_full * limit / pred);
            m->items = (groups ? groups : 1) * m->local;
        }
    }
    ocl_timing tm = { 0, 0 };
    bw_code rc = BW_OK;
    for (int tries = 0; tries < 8; tries++) {
        if (stopped(r))
            return BW_E_INTERRUPTED;
        account(m, width);
        rc = validate(r, m, &tm, err);
        if (rc != BW_OK)
            return rc;
        double t = tm.event_ns;
        uint64_t groups = m->items / m->local;
        if (t < r->o->min_launch_ns && groups < groups_full) {
            groups = 4 * groups < groups_full ? 4 * groups : groups_full; /* too short: more of the buffer */
        } else if (m->kind == BENCH_ROOFLINE_SWEEP && t > 1.25 * limit && groups > 1) {
            uint64_t g2 = (uint64_t)((double)groups * limit / t); /* too long: less of it */
            groups = g2 ? g2 : 1;
        } else {
            break;
        }
        m->items = groups * m->local;
    }
    if (!(tm.event_ns >= r->o->min_launch_ns))
        return too_short(r, m, tm.event_ns, err);
    return BW_OK;
}

/* element (i, j) of matrix `which` (0: A, 1: B): in [0.5, 1), exact */
static float matrix_value(int which, uint64_t i)
{
    return source_value(i * 2 + (uint64_t)which);
}

/* writes A and B of order n into the first n*n floats of their buffers */
static bw_code fill_matrices(roof *r, uint32_t n, bw_error *err)
{
    uint64_t count = (uint64_t)n * n;
    float *buf = malloc(CHUNK_FLOATS * sizeof *buf);
    if (!buf)
        return bw_error_set(err, BW_E_NOMEM, "out of host memory for the matrices");
    bw_code rc = BW_OK;
    for (int w = 0; w < 2 && rc == BW_OK; w++)
        for (uint64_t i0 = 0; i0 < count && rc == BW_OK; i0 += CHUNK_FLOATS) {
            if (stopped(r)) {
                rc = BW_E_INTERRUPTED;
                break;
            }
            size_t c = count - i0 < CHUNK_FLOATS ? (size_t)(count - i0) : CHUNK_FLOATS;
            for (size_t i = 0; i < c; i++)
                buf[i] = matrix_value(w, i0 + i);
            rc = ocl_buffer_write(r->ctx, w ? r->mb : r->ma, 4 * i0, buf, 4 * (uint64_t)c, err);
        }
    free(buf);
    return rc;
}

/* the host's C[row][col]: fmaf over m = 0 .. n-1 in the kernel's order */
static float matmul_value(uint32_t n, uint64_t row, uint64_t col)
{
    float acc = 0.0f;
    for (uint64_t m = 0; m < n; m++)
        acc = fmaf(matrix_value(0, row * n + m), matrix_value(1, m * n + col), acc);
    return acc;
}

/* One launch (the matrices already written for m->n) from sentinel-filled
 * C; every element checked when `all`, else a spread of them. */
static bw_code check_matmul(roof *r, bench_roofline_meas *m, int all, ocl_timing *tm, bw_error *err)
{
    uint64_t count = (uint64_t)m->n * m->n;
    uint64_t nchk = all ? count : 64;
    float *got = malloc((size_t)(all ? count : 1) * sizeof *got);
    if (!got)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    bw_code rc = BW_OK;
    if (all) {
        memset(got, 0xff, (size_t)count * sizeof *got);
        rc = ocl_buffer_write(r->ctx, r->mc, 0, got, 4 * count, err);
    } else {
        uint32_t sentinel = 0xffffffffu;
        for (uint64_t c = 0; c < nchk && rc == BW_OK; c++)
            rc = ocl_buffer_write(r->ctx, r->mc, 4 * check_item(count, (int)c, (int)nchk), &sentinel, 4, err);
    }
    account(m, r->res->vector_width);
    if (rc == BW_OK)
        rc = launch(r, m, tm, err);
    if (rc == BW_OK && all)
        rc = ocl_buffer_read(r->ctx, r->mc, 0, got, 4 * count, err);
    for (uint64_t c = 0; c < nchk && rc == BW_OK; c++) {
        uint64_t e = all ? c : check_item(count, (int)c, (int)nchk);
        float v;
        if (all)
            v = got[e];
        else if ((rc = ocl_buffer_read(r->ctx, r->mc, 4 * e, &v, 4, err)) != BW_OK)
            break;
        float want = matmul_value(m->n, e / m->n, e % m->n);
        if (bits(v) != bits(want))
            rc = bw_error_set(err, BW_E_VALIDATION,
                              "rf_matmul (tile %u, n = %u): C[%llu][%llu] is %.9g, the host's product gives %.9g",
                              m->tile, m->n, (unsigned long long)(e / m->n), (unsigned long long)(e % m->n),
                              (double)v, (double)want);
    }
    free(got);
    return rc;
}

/* Each tile the device allows: validated at n = 64 (every element), then
 * timed at one order n for all tiles, a multiple of 32 calibrated at tile
 * 16 (or the largest allowed) so that a launch lasts about the target. */
static bw_code size_matmuls(roof *r, bw_error *err)
{
    bench_roofline_result *res = r->res;
    const ocl_device_info *d = ocl_context_device(r->ctx);
    size_t kmax = 0, mult = 0;
    bw_code rc = ocl_kernel_work_group_info(r->matmul, &kmax, &mult, err);
    if (rc != BW_OK)
        return rc;
    int any = 0, calib = -1;
    for (int t = 0; t < BENCH_ROOFLINE_TILES; t++) {
        uint32_t T = UINT32_C(8) << t;
        uint64_t need = (uint64_t)T * T * 2 * 4, items = (uint64_t)T * T;
        bench_roofline_meas *m = &res->matmul[t];
        m->kind = BENCH_ROOFLINE_MATMUL;
        m->tile = T;
        if (need > d->local_mem_bytes)
            snprintf(res->matmul_skipped[t], sizeof res->matmul_skipped[t],
                     "two %ux%u float tiles need %llu bytes of local memory, the device has %llu", T, T,
                     (unsigned long long)need, (unsigned long long)d->local_mem_bytes);
        else if (items > d->max_work_group_size || items > kmax)
            snprintf(res->matmul_skipped[t], sizeof res->matmul_skipped[t],
                     "%llu work-items per group, the device allows %llu and the kernel %llu",
                     (unsigned long long)items, (unsigned long long)d->max_work_group_size,
                     (unsigned long long)kmax);
        else {
            res->matmul_measured[t] = 1;
            any = 1;
            if (calib < 0 || T == 16)
                calib = t;
        }
    }
    if (!any)
        return BW_OK;
    /* buffers for the largest order timed */
    uint64_t nmax = 2048;
    rc = ocl_buffer_create(r->ctx, 4 * nmax * nmax, "A", &r->ma, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(r->ctx, 4 * nmax * nmax, "B", &r->mb, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(r->ctx, 4 * nmax * nmax, "C", &r->mc, err);
    if (rc == BW_OK)
        rc = fill_matrices(r, BENCH_ROOFLINE_MATMUL_CHECK_N, err);
    ocl_timing tm = { 0, 0 };
    for (int t = 0; t < BENCH_ROOFLINE_TILES && rc == BW_OK; t++) {
        if (!res->matmul_measured[t])
            continue;
        if (stopped(r))
            return BW_E_INTERRUPTED;
        res->matmul[t].n = BENCH_ROOFLINE_MATMUL_CHECK_N;
        rc = check_matmul(r, &res->matmul[t], 1, &tm, err);
    }
    if (rc != BW_OK)
        return rc;
    /* the order: from 128, grown (at most doubled: caches make the rate
     * fall with n) until a launch lasts half the target or n is nmax */
    bench_roofline_meas *c = &res->matmul[calib];
    uint64_t n = 128;
    for (;;) {
        if (stopped(r))
            return BW_E_INTERRUPTED;
        c->n = (uint32_t)n;
        account(c, r->res->vector_width);
        rc = fill_matrices(r, c->n, err);
        if (rc == BW_OK)
            rc = launch(r, c, &tm, err);
        if (rc != BW_OK)
            return rc;
        double ratio = tm.event_ns > 0 ? res->launch_target_ns / tm.event_ns : 8.0;
        if (ratio <= 2.0 || n >= nmax)
            break;
        double grow = cbrt(ratio) < 2.0 ? cbrt(ratio) : 2.0;
        uint64_t next = (uint64_t)((double)n * grow) / 32 * 32;
        n = next <= n ? n + 32 : next > nmax ? nmax : next;
    }
    for (int t = 0; t < BENCH_ROOFLINE_TILES && rc == BW_OK; t++) {
        if (!res->matmul_measured[t])
            continue;
        if (stopped(r))
            return BW_E_INTERRUPTED;
        res->matmul[t].n = (uint32_t)n;
        rc = check_matmul(r, &res->matmul[t], 0, &tm, err);
        if (rc == BW_OK && !(tm.event_ns >= r->o->min_launch_ns)) {
            /* too fast to time at the order calibrated: not measured */
            res->matmul_measured[t] = 0;
            snprintf(res->matmul_skipped[t], sizeof res->matmul_skipped[t],
                     "a launch at n = %llu takes %.1f µs (measured), below the %.1f µs timing floor",
                     (unsigned long long)n, tm.event_ns / 1000.0, r->o->min_launch_ns / 1000.0);
        } else if (rc == BW_OK) {
            res->matmul[t].validated = 1;
        }
    }
    return rc;
}

static void add_sample(bench_roofline_meas *m, double ns)
{
    if (!(ns > 0) || !isfinite(ns))
        return;
    if (m->event.count == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        double *s = realloc(m->samples, cap * sizeof *s);
        if (!s)
            return; /* the samples so far stand */
        m->samples = s;
        m->cap = cap;
    }
    m->samples[m->event.count] = ns;
    m->event = bench_stats_of(m->samples, m->event.count + 1);
    m->gflops = m->flop / m->event.median;
    m->gbs = m->bytes / m->event.median;
}

/* every measurement in the round-robin order */
static size_t all_meas(bench_roofline_result *res, bench_roofline_meas **list)
{
    size_t n = 0;
    list[n++] = &res->peak_fma;
    list[n++] = &res->peak_read;
    for (size_t i = 0; i < res->npoints; i++)
        list[n++] = &res->points[i];
    for (int t = 0; t < BENCH_ROOFLINE_TILES; t++)
        if (res->matmul_measured[t])
            list[n++] = &res->matmul[t];
    return n;
}

/* the fewest samples of any measurement */
static size_t fewest(bench_roofline_meas *const *list, size_t n)
{
    size_t least = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (list[i]->event.count < least)
            least = list[i]->event.count;
    return least;
}

/* Round-robin until the budget ends with at least BENCH_ROOFLINE_MIN_REPS
 * samples each; once the budget has ended, the first moment every
 * measurement has one sample stops it, even within a round, and the note
 * says how many fell short. Too many launches without an event time
 * (a timer that says 0) end it as well. */
static bw_code time_rounds(roof *r, bw_error *err)
{
    bench_roofline_result *res = r->res;
    bench_roofline_meas *list[2 + 32 + BENCH_ROOFLINE_TILES];
    size_t n = all_meas(res, list);
    size_t launches = 0;
    int over = 0;
    while (!over) {
        for (size_t k = 0; k < n; k++) {
            if (stopped(r))
                return BW_E_INTERRUPTED;
            size_t least = fewest(list, n);
            if (elapsed_s(r) >= r->o->budget_s && least >= 1) {
                over = 1;
                break;
            }
            if (launches >= 64 * n && least == 0)
                break; /* reported below */
            /* a different measurement leads each round */
            bench_roofline_meas *m = list[(k + res->rounds) % n];
            ocl_timing tm;
            bw_code rc = launch(r, m, &tm, err);
            if (rc != BW_OK)
                return rc;
            add_sample(m, tm.event_ns);
            launches++;
        }
        if (!over)
            res->rounds++;
        if (launches >= 64 * n && fewest(list, n) == 0)
            break;
    }
    size_t shorter = 0;
    for (size_t i = 0; i < n; i++) {
        if (list[i]->event.count == 0)
            return bw_error_set(err, BW_E_RANGE, "%s: no launch gave an event time", bench_roofline_kind_name(list[i]->kind));
        shorter += list[i]->event.count < BENCH_ROOFLINE_MIN_REPS;
    }
    if (shorter)
        note(res, "%zu of %zu kernels timed fewer than %d times: the budget ended first", shorter, n,
             BENCH_ROOFLINE_MIN_REPS);
    return BW_OK;
}

/* the measured roof and the model's at every point */
static bw_code summarise(bench_roofline_result *res, bw_error *err)
{
    /* never timed (an interrupted run): no figure */
    bench_roofline_meas *list[2 + 32 + BENCH_ROOFLINE_TILES];
    size_t nm = all_meas(res, list);
    for (size_t i = 0; i < nm; i++)
        if (list[i]->event.count == 0) {
            list[i]->gflops = NAN;
            list[i]->gbs = NAN;
        }
    int peaks = isfinite(res->peak_fma.gflops) && res->peak_fma.gflops > 0 && isfinite(res->peak_read.gbs) &&
                res->peak_read.gbs > 0;
    res->peak_gflops = res->peak_fma.gflops;
    res->peak_gbs = res->peak_read.gbs;
    res->slope_gbs = 0;
    res->plateau_gflops = 0;
    for (size_t i = 0; i < res->npoints; i++) {
        bench_roofline_meas *p = &res->points[i];
        if (p->gbs > res->slope_gbs)
            res->slope_gbs = p->gbs;
        if (p->gflops > res->plateau_gflops)
            res->plateau_gflops = p->gflops;
        if (!peaks) {
            p->model.attainable_gflops = NAN;
            continue;
        }
        bw_code rc = model_roofline_eval(res->peak_gflops, res->peak_gbs, p->intensity, &p->model, err);
        if (rc != BW_OK)
            return rc;
    }
    for (int t = 0; t < BENCH_ROOFLINE_TILES; t++) {
        if (!res->matmul_measured[t])
            continue;
        if (!peaks) {
            res->matmul[t].model.attainable_gflops = NAN;
            continue;
        }
        bw_code rc = model_roofline_tile(res->peak_gflops, res->peak_gbs, res->matmul[t].tile, &res->matmul[t].model,
                                         err);
        if (rc != BW_OK)
            return rc;
    }
    res->measured_ridge = res->plateau_gflops / res->slope_gbs;
    res->ridge_intensity = res->peak_gflops / res->peak_gbs;
    return BW_OK;
}

/* The predicted time, ns, of everything after the calibration on a buffer
 * of b bytes: the fill of what is not filled yet, then PLAN_LAUNCHES
 * launches of each kernel (the peak at the target, the read at rr ns per
 * byte, each sweep point as size_sweep will size it at the peak's rate)
 * and the matrix products' launches of half the target. fr: fill, ns per
 * byte. */
static double predicted_ns(const roof *r, uint64_t b, double rr, double fr)
{
    const bench_roofline_result *res = r->res;
    double target = res->launch_target_ns;
    double floats = (double)(b / (4 * VECS * (uint64_t)res->vector_width)) * VECS * res->vector_width;
    double read = rr * 4.0 * floats;
    double limit = target > 1.5 * read ? target : 1.5 * read;
    double fill = b > r->filled ? fr * (double)(b - r->filled) : 0;
    double ns = fill + PLAN_LAUNCHES * (target + read);
    for (size_t i = 0; i < res->npoints; i++) {
        double compute = res->peak_gflops > 0 ? 2.0 * (double)(UINT64_C(1) << i) * floats / res->peak_gflops : 0;
        double t = compute > read ? compute : read;
        ns += PLAN_LAUNCHES * (t < limit ? t : limit);
    }
    return ns + PLAN_MATMUL_LAUNCHES * BENCH_ROOFLINE_TILES * 0.5 * target;
}

/* The buffer by time: the largest whole number of MiB, at most the one
 * asked for and at least what is filled, whose predicted time fits
 * PLAN_SHARE of the budget left. The cut, if any, is noted. */
static void plan_buffer(roof *r, double rr, double fr)
{
    bench_roofline_result *res = r->res;
    double left_ns = (r->o->budget_s - elapsed_s(r)) * 1e9 * PLAN_SHARE;
    uint64_t lo = r->filled / MIB, hi = r->o->buffer_bytes / MIB;
    if (lo < 1)
        lo = 1;
    if (predicted_ns(r, hi * MIB, rr, fr) > left_ns) {
        /* the largest that fits, by bisection: the time grows with the buffer */
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo + 1) / 2;
            if (predicted_ns(r, mid * MIB, rr, fr) <= left_ns)
                lo = mid;
            else
                hi = mid - 1;
        }
        res->buffer_bytes = lo * MIB;
        note(res, "the buffer was cut from %llu MiB to %llu MiB to fit the %.2f s budget (a buffer smaller than the "
                  "planned working set may be read partly from cache)",
             (unsigned long long)(r->o->buffer_bytes / MIB), (unsigned long long)lo, r->o->budget_s);
    } else {
        res->buffer_bytes = hi * MIB;
    }
}

static bw_code measure(roof *r, const char *source, bw_error *err)
{
    bench_roofline_result *res = r->res;
    const bench_roofline_opts *o = r->o;
    bw_code rc = build(r, source, err);
    uint64_t local = 1;
    if (rc == BW_OK)
        rc = choose_local(r, &local, err);
    if (rc != BW_OK)
        return rc;
    if (stopped(r))
        return BW_E_INTERRUPTED;
    const ocl_device_info *d = ocl_context_device(r->ctx);
    uint64_t cu = d->compute_units ? d->compute_units : 1;
    uint64_t peak_out = 4 * local * cu * PEAK_GROUPS_PER_CU * BENCH_ROOFLINE_CHAINS * (uint64_t)res->vector_width;
    uint64_t sweep_out = 4 * (o->buffer_bytes / (4 * VECS * (uint64_t)res->vector_width));
    r->out_bytes = peak_out > sweep_out ? peak_out : sweep_out;
    rc = ocl_buffer_create(r->ctx, o->buffer_bytes, "src", &r->src, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(r->ctx, r->out_bytes, "out", &r->out, err);
    /* calibration: the first slice filled (its rate timed) */
    uint64_t cal = o->buffer_bytes < BENCH_ROOFLINE_CALIBRATE_BYTES ? o->buffer_bytes : BENCH_ROOFLINE_CALIBRATE_BYTES;
    double f0 = bench_now_s();
    if (rc == BW_OK)
        rc = fill_source(r, cal, err);
    if (rc != BW_OK)
        return rc;
    double fr = (bench_now_s() - f0) * 1e9 / (double)cal;
    res->buffer_bytes = cal;
    res->peak_fma.kind = BENCH_ROOFLINE_PEAK_FMA;
    res->peak_fma.local = local;
    res->peak_read.kind = BENCH_ROOFLINE_PEAK_READ;
    res->peak_read.local = local;
    rc = size_peak(r, err);
    if (rc != BW_OK)
        return rc;
    /* first estimates for the plan and the sweep: the peak once, the read
     * over the slice twice (the first pays its first use) */
    ocl_timing tm;
    rc = launch(r, &res->peak_fma, &tm, err);
    if (rc != BW_OK)
        return rc;
    res->peak_gflops = tm.event_ns > 0 ? res->peak_fma.flop / tm.event_ns : 0;
    uint64_t groups = cal / (4 * VECS * (uint64_t)res->vector_width) / local;
    res->peak_read.items = (groups ? groups : 1) * local;
    double best = 0;
    for (int i = 0; i < 2 && rc == BW_OK; i++) {
        if (stopped(r))
            return BW_E_INTERRUPTED;
        rc = launch(r, &res->peak_read, &tm, err);
        if (rc == BW_OK && tm.event_ns > 0 && (best == 0 || tm.event_ns < best))
            best = tm.event_ns;
    }
    if (rc != BW_OK)
        return rc;
    double rr = best / (4.0 * (double)res->peak_read.items * VECS * res->vector_width);
    plan_buffer(r, rr, fr);
    rc = fill_source(r, res->buffer_bytes, err);
    if (rc == BW_OK)
        rc = size_sweep(r, &res->peak_read, 0, err);
    if (rc == BW_OK && stopped(r))
        rc = BW_E_INTERRUPTED;
    if (rc == BW_OK)
        rc = launch(r, &res->peak_read, &tm, err);
    double read_ns = tm.event_ns > 0 ? tm.event_ns : 0;
    for (size_t i = 0; i < res->npoints && rc == BW_OK; i++) {
        bench_roofline_meas *p = &res->points[i];
        if (i >= 2 && elapsed_s(r) >= SIZE_SHARE * o->budget_s) {
            /* the rest would leave the rounds no time: the sweep ends here */
            note(res, "the sweep stops at k = %u (of %u): sizing it used %.0f%% of the budget", p[-1].k,
                 BENCH_ROOFLINE_MAX_K, 100.0 * SIZE_SHARE);
            res->npoints = i;
            break;
        }
        p->kind = BENCH_ROOFLINE_SWEEP;
        p->local = local;
        p->k = UINT32_C(1) << i;
        rc = size_sweep(r, p, read_ns, err);
    }
    if (rc == BW_OK && elapsed_s(r) >= SIZE_SHARE * o->budget_s) {
        note(res, "no tiled matrix product: sizing the other kernels used %.0f%% of the budget", 100.0 * SIZE_SHARE);
        for (int t = 0; t < BENCH_ROOFLINE_TILES; t++) {
            res->matmul[t].kind = BENCH_ROOFLINE_MATMUL;
            res->matmul[t].tile = UINT32_C(8) << t;
            snprintf(res->matmul_skipped[t], sizeof res->matmul_skipped[t],
                     "sizing the other kernels used %.0f%% of the budget", 100.0 * SIZE_SHARE);
        }
    } else if (rc == BW_OK) {
        rc = size_matmuls(r, err);
    }
    bw_hook_phase("roof-rounds"); /* test builds only: a signal as the rounds begin */
    if (rc == BW_OK)
        rc = time_rounds(r, err);
    return rc;
}

bw_code bench_roofline_run(ocl_context *ctx, const char *source, const bench_roofline_opts *o,
                           bench_roofline_result **out, bw_error *err)
{
    *out = NULL;
    if (o->buffer_bytes < MIB || o->buffer_bytes % MIB != 0)
        return bw_error_set(err, BW_E_USAGE, "a roofline buffer of %llu bytes is not a positive multiple of 1 MiB",
                            (unsigned long long)o->buffer_bytes);
    roof r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.o = o;
    r.t0 = bench_now_s();
    bw_hook_phase("roofline"); /* test builds only: a signal as the roofline begins */
    bw_code rc = BW_OK;
    r.res = calloc(1, sizeof *r.res);
    size_t npoints = 0;
    while ((UINT32_C(1) << npoints) <= BENCH_ROOFLINE_MAX_K)
        npoints++;
    if (r.res)
        r.res->points = calloc(npoints, sizeof *r.res->points);
    if (!r.res || !r.res->points) {
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
        goto fail;
    }
    r.res->npoints = npoints;
    r.res->buffer_bytes = o->buffer_bytes;
    r.res->vector_width = preferred_width(ocl_context_device(ctx));
    double target = o->budget_s * 1e9 / LAUNCH_SHARE;
    if (target > MAX_TARGET_NS)
        target = MAX_TARGET_NS;
    if (target < FLOOR_FACTOR * o->min_launch_ns)
        target = FLOOR_FACTOR * o->min_launch_ns;
    r.res->launch_target_ns = target;
    r.res->planned_buffer_bytes = o->buffer_bytes;
    rc = measure(&r, source, err);
    if (rc == BW_E_INTERRUPTED) {
        /* what was measured stands, marked */
        r.res->interrupted = 1;
        if (r.res->buffer_bytes > r.filled)
            r.res->buffer_bytes = r.filled;
        bw_error_set(err, BW_E_INTERRUPTED, "the roofline was interrupted after %.1f s", elapsed_s(&r));
    }
    if (rc == BW_OK || rc == BW_E_INTERRUPTED) {
        bw_code sr = summarise(r.res, err);
        if (sr != BW_OK)
            rc = sr;
    }
    if (rc != BW_OK && rc != BW_E_INTERRUPTED)
        goto fail;
    r.res->total_s = bench_now_s() - r.t0;
    *out = r.res;
    r.res = NULL;
fail:
    ocl_kernel_free(r.peak);
    ocl_kernel_free(r.sweep);
    ocl_kernel_free(r.matmul);
    ocl_buffer_free(r.ma);
    ocl_buffer_free(r.mb);
    ocl_buffer_free(r.mc);
    ocl_program_free(r.prog);
    ocl_buffer_free(r.src);
    ocl_buffer_free(r.out);
    bench_roofline_result_free(r.res);
    return rc;
}

static void meas_free(bench_roofline_meas *m)
{
    free(m->samples);
    m->samples = NULL;
}

void bench_roofline_result_free(bench_roofline_result *r)
{
    if (!r)
        return;
    meas_free(&r->peak_fma);
    meas_free(&r->peak_read);
    for (size_t i = 0; r->points && i < r->npoints; i++)
        meas_free(&r->points[i]);
    for (int t = 0; t < BENCH_ROOFLINE_TILES; t++)
        meas_free(&r->matmul[t]);
    free(r->points);
    free(r);
}
