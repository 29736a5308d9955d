/* The piecewise-affine analysis must agree exactly with plain evaluation,
 * for every lane of every warp, and find the same first error. */
#include <criterion/criterion.h>
#include <string.h>

#include "model_affine.h"
#include "model_lanes.h"
#include "test_util.h"
#include "model_affine_priv.h"

/* walks [lo, hi] in segments, checking each against model_expr_eval;
 * returns the number of segments, or -1 if it ended in an error (checked) */
static int64_t check_range(const model_expr *e, int W, const int *lanes, int nl, int64_t lo, int64_t hi,
                           const char *src)
{
    int64_t at[MODEL_MAX_LANES], slope[MODEL_MAX_LANES], segs = 0;
    for (int64_t w = lo; w <= hi;) {
        int64_t seg_hi = -1;
        bw_error err = BW_ERROR_INIT;
        bw_code rc = model_affine_segment(e, W, lanes, nl, w, hi, &seg_hi, at, slope, &err);
        if (rc != BW_OK) {
            /* the first lane (in order) failing at warp w gives the message */
            cr_assert_eq(rc, BW_E_EVAL, "%s", src);
            int found = 0;
            for (int i = 0; i < nl && !found; i++) {
                model_expr_env env = { lanes[i], w, w * W + lanes[i], W };
                int64_t v;
                bw_error e2 = BW_ERROR_INIT;
                if (model_expr_eval(e, &env, &v, &e2) != BW_OK) {
                    cr_assert_str_eq(bw_error_text(&e2), bw_error_text(&err), "%s", src);
                    found = 1;
                }
                bw_error_clear(&e2);
            }
            cr_assert(found, "%s: analysis failed at warp %lld but evaluation does not", src, (long long)w);
            bw_error_clear(&err);
            return -1;
        }
        cr_assert(seg_hi >= w && seg_hi <= hi);
        for (int64_t x = w; x <= seg_hi; x++) {
            for (int i = 0; i < nl; i++) {
                model_expr_env env = { lanes[i], x, x * W + lanes[i], W };
                int64_t v;
                bw_code r2 = model_expr_eval(e, &env, &v, NULL);
                cr_assert_eq(r2, BW_OK, "%s: lane %d warp %lld fails inside a segment", src, lanes[i], (long long)x);
                cr_assert_eq(v, at[i] + slope[i] * (x - w), "%s: lane %d warp %lld: %lld vs %lld + %lld*%lld",
                             src, lanes[i], (long long)x, (long long)v, (long long)at[i], (long long)slope[i],
                             (long long)(x - w));
            }
        }
        segs++;
        w = seg_hi + 1;
    }
    return segs;
}

Test(model_affine, random_expressions_agree_with_evaluation)
{
    uint64_t st = 2024;
    for (int i = 0; i < 2500; i++) {
        bw_buf src = BW_BUF_INIT;
        if (i % 2)
            tu_random_address_expr(&st, &src);
        else
            tu_random_expr(&st, 4, &src);
        model_expr *e = NULL;
        cr_assert_eq(model_expr_parse(bw_buf_str(&src), &e, NULL), BW_OK);
        int W = (int)tu_range(&st, 1, 64);
        int lanes[MODEL_MAX_LANES], nl = 0;
        for (int t = 0; t < W; t++)
            if (tu_range(&st, 0, 3))
                lanes[nl++] = t;
        int64_t lo = tu_range(&st, 0, 1) ? 0 : tu_range(&st, 0, 1 << 20);
        int64_t hi = lo + tu_range(&st, 0, 200);
        check_range(e, W, lanes, nl, lo, hi, bw_buf_str(&src));
        model_expr_free(e);
        bw_buf_free(&src);
    }
}

static int64_t segments_of(const char *src, int W, int64_t lo, int64_t hi)
{
    model_expr *e = NULL;
    cr_assert_eq(model_expr_parse(src, &e, NULL), BW_OK);
    int lanes[MODEL_MAX_LANES];
    for (int t = 0; t < W; t++)
        lanes[t] = t;
    int64_t n = check_range(e, W, lanes, W, lo, hi, src);
    model_expr_free(e);
    return n;
}

Test(model_affine, runs_are_as_long_as_the_expression_allows)
{
    /* affine in w everywhere: one run however long */
    cr_expect_eq(segments_of("4*g", 32, 0, 5000), 1);
    cr_expect_eq(segments_of("4*(32*w + 31 - t)", 32, 0, 5000), 1);
    cr_expect_eq(segments_of("t < 16 ? 4*(1024*w + t) : 4*(1024*w + 16 + 32*(t - 16))", 32, 0, 5000), 1);
    cr_expect_eq(segments_of("(g ^ 1) * 4", 32, 0, 3000), 1);
    cr_expect_eq(segments_of("(g & 31) + 128*w", 32, 0, 3000), 1);
    /* a column walk of a 64x64 matrix changes column every 2 warps of 32 */
    cr_expect_eq(segments_of("4*((g % 64)*64 + g / 64)", 32, 0, 99), 50);
    /* w / 10 changes every 10 warps */
    cr_expect_eq(segments_of("256*(w / 10) + 4*t", 32, 0, 99), 10);
    /* a comparison on w splits once */
    cr_expect_eq(segments_of("w < 7 ? 4*g : 8*g", 32, 0, 99), 2);
    /* equality splits around the one warp where it holds */
    cr_expect_eq(segments_of("w == 7 ? 0 : 4*g", 32, 0, 99), 3);
    /* quadratic in w: warp by warp */
    cr_expect_eq(segments_of("w*w + t", 8, 0, 19), 20);
}

Test(model_affine, errors_end_the_run_before_the_failing_warp)
{
    model_expr *e = NULL;
    cr_assert_eq(model_expr_parse("100 / (w - 3) + 4*t", &e, NULL), BW_OK);
    int lanes[4] = { 0, 1, 2, 3 };
    int64_t at[4], slope[4], hi;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_affine_segment(e, 4, lanes, 4, 0, 10, &hi, at, slope, &err), BW_OK);
    cr_expect(hi <= 2);
    int64_t w = 0;
    while (w <= 2) {
        cr_assert_eq(model_affine_segment(e, 4, lanes, 4, w, 10, &hi, at, slope, &err), BW_OK);
        w = hi + 1;
    }
    cr_expect_eq(w, 3);
    cr_expect_eq(model_affine_segment(e, 4, lanes, 4, 3, 10, &hi, at, slope, &err), BW_E_EVAL);
    cr_expect(strstr(bw_error_text(&err), "warp w=3") != NULL, "%s", bw_error_text(&err));
    cr_expect(strstr(bw_error_text(&err), "division by zero") != NULL, "%s", bw_error_text(&err));
    /* overflow far along the range is found exactly */
    model_expr_free(e);
    cr_assert_eq(model_expr_parse("w * 1000000000000 + t", &e, NULL), BW_OK);
    cr_assert_eq(model_affine_segment(e, 4, lanes, 4, 0, 100000000, &hi, at, slope, &err), BW_OK);
    cr_expect_eq(hi, 9223372);
    cr_expect_eq(model_affine_segment(e, 4, lanes, 4, hi + 1, 100000000, &hi, at, slope, &err), BW_E_EVAL);
    cr_expect(strstr(bw_error_text(&err), "overflow") != NULL);
    bw_error_clear(&err);
    model_expr_free(e);
}
