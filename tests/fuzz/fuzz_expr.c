/* libFuzzer target: the expression parser, printers and evaluator, with the
 * differential checks of tests/test_model_affine.c and test_model_launch.c
 * (tests/fuzz/README.md). The input is the expression text; the launch it
 * is checked on (W, items, element size, base, active lanes) is drawn from a
 * hash of the text, so that every input is a plain, readable expression.
 *
 * Checks, each an abort() the fuzzer reports as a crash:
 *   - the canonical form re-parses to the same canonical form;
 *   - the OpenCL printers do not fail on any parsed tree;
 *   - model_affine_segment agrees with model_expr_eval on every lane of
 *     every warp of a small range, and fails exactly where it fails;
 *   - model_launch_count gives the brute-force counts of every touched
 *     sector and line on a launch of at most 256 items, or fails exactly
 *     when some active lane fails to evaluate;
 *   - model_access_span_of gives the brute-force lowest address, end and
 *     alignment. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_access.h"
#include "model_affine.h"
#include "model_expr.h"
#include "model_launch.h"
#include "model_affine_priv.h"
#include "model_lanes_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "fuzz_expr: " __VA_ARGS__);                                                \
        fputc('\n', stderr);                                                                       \
        abort();                                                                                   \
    } while (0)

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int64_t pick(uint64_t *s, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(mix(s) % (uint64_t)(hi - lo + 1));
}

static void check_roundtrip(const model_expr *e, const char *src)
{
    char *a = model_expr_to_string(e);
    if (!a)
        return;
    model_expr *e2 = NULL;
    bw_error err = BW_ERROR_INIT;
    if (model_expr_parse(a, &e2, &err) != BW_OK)
        FAIL("canonical form of '%s' does not re-parse: '%s': %s", src, a, bw_error_text(&err));
    char *b = model_expr_to_string(e2);
    if (b && strcmp(a, b) != 0)
        FAIL("canonical form is not stable: '%s' -> '%s' -> '%s'", src, a, b);
    free(b);
    model_expr_free(e2);
    free(a);

    bw_buf cl = BW_BUF_INIT;
    model_expr_print_opencl(e, &cl);
    model_expr_print_opencl32(e, &cl);
    bw_buf_free(&cl);
}

/* Walks [lo, hi] by segments; every lane of every warp is evaluated. */
static void check_affine(const model_expr *e, int W, const int *lanes, int nl, int64_t lo, int64_t hi,
                         const char *src)
{
    static int64_t at[MODEL_MAX_LANES], slope[MODEL_MAX_LANES];
    for (int64_t w = lo; w <= hi;) {
        int64_t seg_hi = -1;
        bw_error err = BW_ERROR_INIT;
        bw_code rc = model_affine_segment(e, W, lanes, nl, w, hi, &seg_hi, at, slope, &err);
        if (rc != BW_OK) {
            if (rc != BW_E_EVAL)
                FAIL("'%s': affine analysis fails with code %d: %s", src, (int)rc, bw_error_text(&err));
            int found = 0;
            for (int i = 0; i < nl && !found; i++) {
                model_expr_env env = { lanes[i], w, w * W + lanes[i], W };
                int64_t v;
                found = model_expr_eval(e, &env, &v, NULL) != BW_OK;
            }
            if (!found)
                FAIL("'%s' W=%d: affine analysis fails at warp %lld, evaluation does not: %s", src, W,
                     (long long)w, bw_error_text(&err));
            bw_error_clear(&err);
            return;
        }
        if (seg_hi < w || seg_hi > hi)
            FAIL("'%s': segment [%lld, %lld] outside [%lld, %lld]", src, (long long)w, (long long)seg_hi,
                 (long long)w, (long long)hi);
        for (int64_t x = w; x <= seg_hi; x++)
            for (int i = 0; i < nl; i++) {
                model_expr_env env = { lanes[i], x, x * W + lanes[i], W };
                int64_t v;
                if (model_expr_eval(e, &env, &v, NULL) != BW_OK)
                    FAIL("'%s' W=%d: lane %d warp %lld fails inside a segment", src, W, lanes[i], (long long)x);
                /* the affine value, computed without overflow */
                uint64_t want = (uint64_t)at[i] + (uint64_t)slope[i] * (uint64_t)(x - w);
                if ((uint64_t)v != want)
                    FAIL("'%s' W=%d: lane %d warp %lld: %lld, affine %lld + %lld*%lld", src, W, lanes[i],
                         (long long)x, (long long)v, (long long)at[i], (long long)slope[i], (long long)(x - w));
            }
        w = seg_hi + 1;
    }
}

static int cmp64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static int64_t fdiv(int64_t a, int64_t u)
{
    return a >= 0 ? a / u : -((-(a + 1)) / u) - 1;
}

static int64_t distinct_units(const int64_t *v, int64_t n, int64_t unit, int64_t *tmp)
{
    for (int64_t i = 0; i < n; i++)
        tmp[i] = fdiv(v[i], unit);
    qsort(tmp, (size_t)n, sizeof *tmp, cmp64);
    int64_t d = 0;
    for (int64_t i = 0; i < n; i++)
        d += i == 0 || tmp[i] != tmp[i - 1];
    return d;
}

#define MAX_ITEMS 256
#define MAX_ELEM 16

/* Brute force: every active lane of every warp, every byte. Returns 1 when
 * some lane fails to evaluate or a byte leaves the 64-bit range. */
static int brute(const model_geometry *g, const model_access *a, model_traffic *ref, model_access_span *span)
{
    static int64_t all[MAX_ITEMS * MAX_ELEM], warp[MAX_ITEMS * MAX_ELEM], tmp[MAX_ITEMS * MAX_ELEM];
    memset(ref, 0, sizeof *ref);
    memset(span, 0, sizeof *span);
    int64_t W = g->lanes, nwarps = (a->items + W - 1) / W, nall = 0;
    uint64_t or_bits = 0;
    for (int64_t w = 0; w < nwarps; w++) {
        int64_t n = 0, lanes = 0;
        for (int t = 0; t < W; t++) {
            int64_t gid = w * W + t, v;
            if (gid >= a->items || !model_lanes_has(&a->active, t))
                continue;
            model_expr_env env = { t, w, gid, W };
            if (model_expr_eval(a->expr, &env, &v, NULL) != BW_OK)
                return 1;

            if (__builtin_add_overflow(v, a->base, &v))
                return 1;
            int64_t last;
            if (__builtin_add_overflow(v, a->elem_bytes - 1, &last) || last == INT64_MAX)
                return 1;
            if (!span->any || v < span->min_addr)
                span->min_addr = v;
            if (!span->any || last + 1 > span->max_end)
                span->max_end = last + 1;
            span->any = 1;
            or_bits |= (uint64_t)v;
            lanes++;
            for (int64_t b = 0; b < a->elem_bytes; b++)
                warp[n++] = all[nall++] = v + b;
        }
        if (!lanes)
            continue;
        ref->instructions++;
        ref->requested_bytes += lanes * a->elem_bytes;
        ref->instr_sectors += distinct_units(warp, n, g->sector, tmp);
        ref->instr_lines += distinct_units(warp, n, g->line, tmp);
    }
    ref->footprint_sectors = distinct_units(all, nall, g->sector, tmp);
    ref->footprint_lines = distinct_units(all, nall, g->line, tmp);
    span->align = 1;
    while (span->align < ((int64_t)1 << 20) && !(or_bits & (uint64_t)span->align))
        span->align <<= 1;
    return 0;
}

static void check_launch(const model_expr *e, uint64_t *st, const char *src)
{
    static const model_geometry geos[] = {
        { 32, 32, 128, 32, 4 }, { 64, 64, 128, 32, 4 }, { 16, 64, 64, 16, 4 },
        { 8, 64, 64, 0, 4 },    { 5, 8, 24, 0, 4 },     { 1, 4, 4, 0, 4 },
    };
    const model_geometry *g = &geos[pick(st, 0, 5)];
    model_access a = { e, (int64_t)1 << pick(st, 0, 4), model_lanes_first(g->lanes, 0), pick(st, 1, MAX_ITEMS),
                       pick(st, 0, 2) ? 0 : pick(st, -100, 100), 0 };
    for (int t = 0; t < g->lanes; t++)
        if (pick(st, 0, 5))
            model_lanes_set(&a.active, t);
    model_traffic ref;
    model_access_span sref;
    int bad = brute(g, &a, &ref, &sref);
    model_launch l;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = model_launch_count(g, &a, 1, &l, &err);
    if (bad) {
        if (rc == BW_OK)
            FAIL("'%s' W=%d items=%lld: brute force fails, model_launch_count does not", src, g->lanes,
                 (long long)a.items);
        bw_error_clear(&err);
        return;
    }
    if (rc != BW_OK)
        FAIL("'%s' W=%d items=%lld elem=%lld base=%lld: model_launch_count fails: %s", src, g->lanes,
             (long long)a.items, (long long)a.elem_bytes, (long long)a.base, bw_error_text(&err));
#define SAME(f)                                                                                    \
    if (l.loads.f != ref.f)                                                                        \
        FAIL("'%s' W=%d S=%lld L=%lld items=%lld elem=%lld base=%lld: " #f " %lld, brute force %lld", src,    \
             g->lanes, (long long)g->sector, (long long)g->line, (long long)a.items, (long long)a.elem_bytes, \
             (long long)a.base, (long long)l.loads.f, (long long)ref.f);
    SAME(instructions)
    SAME(requested_bytes)
    SAME(instr_sectors)
    SAME(instr_lines)
    SAME(footprint_sectors)
    SAME(footprint_lines)
#undef SAME
    model_access_span span;
    if (model_access_span_of(g, &a, &span, &err) != BW_OK)
        FAIL("'%s': model_access_span_of fails where counting does not: %s", src, bw_error_text(&err));
    if (span.any != sref.any ||
        (span.any && (span.min_addr != sref.min_addr || span.max_end != sref.max_end || span.align != sref.align)))
        FAIL("'%s' W=%d items=%lld elem=%lld base=%lld: span [%lld, %lld) align %lld, brute force [%lld, %lld) "
             "align %lld",
             src, g->lanes, (long long)a.items, (long long)a.elem_bytes, (long long)a.base, (long long)span.min_addr,
             (long long)span.max_end, (long long)span.align, (long long)sref.min_addr, (long long)sref.max_end,
             (long long)sref.align);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MODEL_EXPR_MAX_LEN)
        return 0;
    char *src = malloc(size + 1);
    if (!src)
        return 0;
    memcpy(src, data, size);
    src[size] = '\0';
    model_expr *e = NULL;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = model_expr_parse(src, &e, &err);
    if (rc != BW_OK) {
        if (e != NULL || (rc != BW_E_SYNTAX && rc != BW_E_RANGE) || bw_error_text(&err)[0] == '\0')
            FAIL("parse failure of '%s' without a message or with a tree (code %d)", src, (int)rc);
        bw_error_clear(&err);
        free(src);
        return 0;
    }
    check_roundtrip(e, src);

    uint64_t st = 0xcbf29ce484222325u;
    for (size_t i = 0; i < size; i++)
        st = (st ^ data[i]) * 0x100000001b3u;
    int W = (int)pick(&st, 1, 64);
    int lanes[64], nl = 0;
    for (int t = 0; t < W; t++)
        if (pick(&st, 0, 3))
            lanes[nl++] = t;
    int64_t lo = pick(&st, 0, 1) ? 0 : pick(&st, 0, (int64_t)1 << 40);
    check_affine(e, W, lanes, nl, lo, lo + pick(&st, 0, 64), src);
    check_launch(e, &st, src);

    model_expr_free(e);
    free(src);
    return 0;
}
