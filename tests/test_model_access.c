/* Per-access queries: addresses of a window of items and the address span
 * and alignment of a whole launch, against plain evaluation. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "model_access.h"
#include "test_util.h"
#include "model_lanes_priv.h"

Test(model_access, addresses_and_span_match_evaluation)
{
    uint64_t st = 555;
    int checked = 0;
    for (int i = 0; i < 1500; i++) {
        model_geometry g = { (int)tu_range(&st, 1, 64), 32, 128, 32, 4, 0 };
        bw_buf src = BW_BUF_INIT;
        if (i % 3)
            tu_random_address_expr(&st, &src);
        else
            tu_random_expr(&st, 3, &src);
        model_expr *e = NULL;
        cr_assert_eq(model_expr_parse(bw_buf_str(&src), &e, NULL), BW_OK);
        model_lanes act = model_lanes_first(g.lanes, 0);
        for (int t = 0; t < g.lanes; t++)
            if (tu_range(&st, 0, 4))
                model_lanes_set(&act, t);
        int64_t items = tu_range(&st, 1, 3000), base = tu_range(&st, 0, 1) ? 0 : tu_range(&st, -64, 64);
        int64_t elem = (int64_t)1 << tu_range(&st, 0, 4);
        model_access a = { e, elem, act, items, base, 0 };
        /* brute force over every item */
        int bad = 0, any = 0;
        int64_t lo = 0, hi = 0, orbits = 0;
        int64_t *want = malloc((size_t)items * sizeof *want);
        for (int64_t gid = 0; gid < items; gid++) {
            int t = (int)(gid % g.lanes);
            want[gid] = MODEL_ADDR_INACTIVE;
            if (!model_lanes_has(&act, t))
                continue;
            model_expr_env env = { t, gid / g.lanes, gid, g.lanes };
            int64_t v;
            if (model_expr_eval(e, &env, &v, NULL) != BW_OK) {
                bad = 1;
                break;
            }
            v += base;
            want[gid] = v;
            lo = !any || v < lo ? v : lo;
            hi = !any || v + elem > hi ? v + elem : hi;
            orbits |= v;
            any = 1;
        }
        model_access_span s;
        bw_code rc = model_access_span_of(&g, &a, &s, NULL);
        if (bad) {
            cr_assert_neq(rc, BW_OK, "%s", bw_buf_str(&src));
        } else {
            cr_assert_eq(rc, BW_OK, "%s", bw_buf_str(&src));
            cr_assert_eq(s.any, any);
            if (any) {
                cr_assert_eq(s.min_addr, lo, "%s", bw_buf_str(&src));
                cr_assert_eq(s.max_end, hi, "%s", bw_buf_str(&src));
                int64_t align = orbits ? (orbits & -orbits) : (1 << 20);
                if (align > (1 << 20) || align <= 0)
                    align = 1 << 20;
                cr_assert_eq(s.align, align, "%s: %lld vs %lld", bw_buf_str(&src), (long long)s.align,
                             (long long)align);
            }
            /* a window starting at a random warp */
            int64_t g0 = tu_range(&st, 0, items / g.lanes) * g.lanes;
            int64_t n = tu_range(&st, 0, items + 50 - g0);
            int64_t *got = malloc((size_t)(n ? n : 1) * sizeof *got);
            cr_assert_eq(model_access_addresses(&g, &a, g0, n, got, NULL), BW_OK);
            for (int64_t k = 0; k < n; k++) {
                int64_t w = g0 + k < items ? want[g0 + k] : MODEL_ADDR_INACTIVE;
                cr_assert_eq(got[k], w, "%s item %lld", bw_buf_str(&src), (long long)(g0 + k));
            }
            free(got);
            checked++;
        }
        free(want);
        model_expr_free(e);
        bw_buf_free(&src);
    }
    cr_expect(checked > 800, "%d", checked);
    /* windows must start on a warp */
    model_expr *e = NULL;
    cr_assert_eq(model_expr_parse("4*g", &e, NULL), BW_OK);
    model_geometry g = { 32, 32, 128, 32, 4, 0 };
    model_access a = { e, 4, model_lanes_all(32), 100, 0, 0 };
    int64_t out[8];
    cr_expect_eq(model_access_addresses(&g, &a, 3, 8, out, NULL), BW_E_RANGE);
    model_expr_free(e);
}

/* one past the last byte must be representable */
Test(model_access, span_end_never_wraps)
{
    model_geometry g = { 32, 32, 128, 32, 4, 0 };
    model_expr *e = NULL;
    cr_assert_eq(model_expr_parse("9223372036854775804 - 4*g", &e, NULL), BW_OK);
    model_access a = { e, 4, model_lanes_all(32), 64, 0, 0 };
    model_access_span s;
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(model_access_span_of(&g, &a, &s, &err), BW_E_RANGE);
    /* 4 bytes lower, the end is INT64_MAX itself: fine */
    model_expr_free(e);
    cr_assert_eq(model_expr_parse("9223372036854775803 - 4*g", &e, NULL), BW_OK);
    a.expr = e;
    cr_expect_eq(model_access_span_of(&g, &a, &s, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(s.max_end, INT64_MAX);
    model_expr_free(e);
    bw_error_clear(&err);
}
