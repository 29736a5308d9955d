/* One warp, one instruction (docs/design.md §2.1): hand-worked cases, a
 * brute-force reference that enumerates every touched byte, and invariance
 * under lane permutations. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_expr.h"
#include "model_warp.h"
#include "test_util.h"
#include "model_lanes_priv.h"

static const model_geometry nvidia = { 32, 32, 128, 32, 4, 0 };

static model_warp run_expr(const model_geometry *geo, const char *src, int64_t elem, model_lanes active)
{
    model_expr *e = NULL;
    cr_assert_eq(model_expr_parse(src, &e, NULL), BW_OK, "%s", src);
    int64_t addr[MODEL_MAX_LANES];
    for (int t = 0; t < geo->lanes; t++) {
        model_expr_env env = { t, 0, t, geo->lanes };
        cr_assert_eq(model_expr_eval(e, &env, &addr[t], NULL), BW_OK);
    }
    model_warp w;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_warp_count(geo, elem, addr, &active, &w, &err), BW_OK, "%s", bw_error_text(&err));
    model_expr_free(e);
    return w;
}

/* the worked checks of the issue, by hand:
 * 4*t: bytes 0..127 = 4 sectors of 32, 1 line of 128, 100%
 * 8*t: lanes at 0,8,..,248, 4 bytes each: every sector 0..7 touched, 2 lines, 128/256
 * 8+4*t: bytes 8..135: sectors 0..4 = 5, 128/160 = 0.8; lines 0..1 */
Test(model_warp, worked_examples)
{
    model_warp w = run_expr(&nvidia, "4*t", 4, model_lanes_all(32));
    cr_expect_eq(w.sectors, 4);
    cr_expect_eq(w.lines, 1);
    cr_expect_float_eq(w.sector_efficiency, 1.0, 1e-12);
    cr_expect_eq(w.requested_bytes, 128);

    w = run_expr(&nvidia, "8*t", 4, model_lanes_all(32));
    cr_expect_eq(w.sectors, 8);
    cr_expect_eq(w.lines, 2);
    cr_expect_float_eq(w.sector_efficiency, 0.5, 1e-12);
    cr_expect_float_eq(w.line_efficiency, 0.5, 1e-12);

    w = run_expr(&nvidia, "8+4*t", 4, model_lanes_all(32));
    cr_expect_eq(w.sectors, 5);
    cr_expect_eq(w.lines, 2);
    cr_expect_float_eq(w.sector_efficiency, 0.8, 1e-12);
    cr_expect_float_eq(w.line_efficiency, 0.5, 1e-12);
}

/* The DRAM unit (docs/model.md, "The DRAM unit"), worked by hand on the
 * nvidia profile (W 32, S 32) with D = 64, floats: lane t at A(t), units
 * = distinct floor(byte / 64) over the touched bytes. */
Test(model_warp, dram_unit_worked_examples)
{
    model_geometry g = { 32, 32, 128, 32, 4, 64 };
    static const struct {
        const char *expr;
        int64_t sectors, dram_units;
        double dram_eff;
    } cases[] = {
        { "4*t", 4, 2, 1.0 },                 /* stride 1: 128 B, two units */
        { "8*t", 8, 4, 0.5 },                 /* stride 2: 256 B, half of each unit */
        { "32*t", 32, 16, 0.125 },            /* stride 8: two lanes per unit */
        { "64*t", 32, 32, 0.0625 },           /* stride 16: a unit per lane */
        { "256*t", 32, 32, 0.0625 },          /* stride 64 */
        { "32+4*t", 4, 3, 128.0 / 192.0 },    /* offset 32: bytes 32..159 span 3 units */
        { "12*t", 12, 6, 128.0 / 384.0 },     /* aos:struct=12: bytes 0..375, units 0..5 */
        { "128*(t/2)+32*(t%2)", 32, 16, 0.125 },  /* adjacent sectors: one unit per pair */
        { "128*(t/2)+64*(t%2)", 32, 32, 0.0625 }, /* sectors in different halves: two units */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_expr *e = NULL;
        cr_assert_eq(model_expr_parse(cases[i].expr, &e, NULL), BW_OK);
        int64_t addr[32];
        for (int t = 0; t < 32; t++) {
            model_expr_env env = { t, 0, t, 32 };
            cr_assert_eq(model_expr_eval(e, &env, &addr[t], NULL), BW_OK);
        }
        model_lanes all = model_lanes_all(32);
        model_warp m;
        cr_assert_eq(model_warp_count(&g, 4, addr, &all, &m, NULL), BW_OK);
        cr_expect_eq(m.sectors, cases[i].sectors, "%s", cases[i].expr);
        cr_expect_eq(m.dram_units, cases[i].dram_units, "%s", cases[i].expr);
        cr_expect_eq(m.dram_unit_bytes, 64);
        cr_expect_float_eq(m.dram_unit_efficiency, cases[i].dram_eff, 1e-12, "%s", cases[i].expr);
        model_expr_free(e);
    }
    /* no unit: nothing counted, not applicable */
    g.dram_unit = 0;
    int64_t addr[32];
    for (int t = 0; t < 32; t++)
        addr[t] = 4 * t;
    model_lanes all = model_lanes_all(32);
    model_warp m;
    cr_assert_eq(model_warp_count(&g, 4, addr, &all, &m, NULL), BW_OK);
    cr_expect_eq(m.dram_units, 0);
    cr_expect_eq(m.dram_unit_bytes, 0);
}

Test(model_warp, edge_cases)
{
    /* broadcast: 32 lanes, one 4-byte word: 1 sector, distinct 4 B, never above 100% */
    model_warp w = run_expr(&nvidia, "64", 4, model_lanes_all(32));
    cr_expect_eq(w.sectors, 1);
    cr_expect_eq(w.lines, 1);
    cr_expect_eq(w.distinct_bytes, 4);
    cr_expect_eq(w.requested_bytes, 128);
    cr_expect_float_eq(w.sector_efficiency, 4.0 / 32.0, 1e-12);

    /* one lane, straddling two sectors and two lines: bytes 126..129 */
    w = run_expr(&nvidia, "126", 4, model_lanes_first(32, 1));
    cr_expect_eq(w.sectors, 2);
    cr_expect_eq(w.lines, 2);
    cr_expect_eq(w.active_lanes, 1);

    /* float4 lanes misaligned by 4: bytes 4..515 touch sectors 0..16 */
    w = run_expr(&nvidia, "4 + 16*t", 16, model_lanes_all(32));
    cr_expect_eq(w.sectors, 17);
    cr_expect_eq(w.lines, 5);
    cr_expect_eq(w.distinct_bytes, 512);

    /* masked lanes: only even lanes of a stride-1 float warp: bytes 0..3, 8..11, ...
     * still 4 sectors, 64 distinct bytes */
    model_lanes even;
    cr_assert_eq(model_lanes_parse_hex("0x55555555", 32, &even, NULL), BW_OK);
    w = run_expr(&nvidia, "4*t", 4, even);
    cr_expect_eq(w.active_lanes, 16);
    cr_expect_eq(w.sectors, 4);
    cr_expect_eq(w.distinct_bytes, 64);
    cr_expect_float_eq(w.sector_efficiency, 0.5, 1e-12);

    /* overlapping lanes: 8-byte elements 4 bytes apart: bytes 0..131 */
    w = run_expr(&nvidia, "4*t", 8, model_lanes_all(32));
    cr_expect_eq(w.distinct_bytes, 132);
    cr_expect_eq(w.sectors, 5);
    cr_expect_eq(w.requested_bytes, 256);

    /* negative addresses floor to the sector below */
    w = run_expr(&nvidia, "-4", 8, model_lanes_first(32, 1));
    cr_expect_eq(w.sectors, 2);

    /* no active lane: zero units and efficiency not applicable */
    model_lanes none = model_lanes_first(32, 0);
    w = run_expr(&nvidia, "4*t", 4, none);
    cr_expect_eq(w.sectors, 0);
    cr_expect_eq(w.lines, 0);
    cr_expect_eq(w.has_efficiency, 0);
}

Test(model_warp, rejects_bad_input)
{
    int64_t addr[32] = { 0 };
    model_lanes all = model_lanes_all(32);
    model_warp w;
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(model_warp_count(&nvidia, 0, addr, &all, &w, &err), BW_E_USAGE);
    addr[3] = INT64_MAX - 1;
    cr_expect_eq(model_warp_count(&nvidia, 4, addr, &all, &w, &err), BW_E_RANGE);
    cr_expect(strstr(bw_error_text(&err), "lane 3") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* distinct values of floor(byte / unit) over every touched byte */
static int64_t brute_units(const int64_t *bytes, int64_t n, int64_t unit)
{
    int64_t *u = malloc((size_t)(n ? n : 1) * sizeof *u);
    for (int64_t i = 0; i < n; i++) {
        int64_t q = bytes[i] / unit;
        if (bytes[i] % unit != 0 && bytes[i] < 0)
            q--;
        u[i] = q;
    }
    qsort(u, (size_t)n, sizeof *u, cmp64);
    int64_t d = 0;
    for (int64_t i = 0; i < n; i++)
        d += i == 0 || u[i] != u[i - 1];
    free(u);
    return d;
}

typedef struct {
    int64_t distinct, sectors, lines, dram_units;
} brute;

static brute brute_force(const model_geometry *g, int64_t elem, const int64_t *addr, const model_lanes *act)
{
    int64_t *bytes = malloc((size_t)(g->lanes * elem) * sizeof *bytes);
    int64_t n = 0;
    for (int t = 0; t < g->lanes; t++)
        if (model_lanes_has(act, t))
            for (int64_t b = 0; b < elem; b++)
                bytes[n++] = addr[t] + b;
    brute r = { brute_units(bytes, n, 1), brute_units(bytes, n, g->sector), brute_units(bytes, n, g->line),
                g->dram_unit > 0 ? brute_units(bytes, n, g->dram_unit) : 0 };
    free(bytes);
    return r;
}

static model_geometry random_geometry(uint64_t *st)
{
    static const model_geometry profiles[] = {
        { 32, 32, 128, 32, 4, 0 }, { 64, 64, 64, 32, 4, 0 }, { 64, 64, 128, 32, 4, 0 },
        { 64, 128, 128, 32, 4, 0 }, { 32, 128, 128, 32, 4, 0 }, { 16, 64, 64, 16, 4, 0 },
        { 8, 64, 64, 0, 4, 0 },     { 7, 12, 48, 0, 4, 0 },     { 1, 1, 1, 0, 4, 0 },
    };
    return profiles[tu_range(st, 0, sizeof profiles / sizeof profiles[0] - 1)];
}

Test(model_warp, matches_brute_force_on_random_expressions)
{
    uint64_t st = 777;
    int checked = 0;
    for (int i = 0; i < 4000; i++) {
        model_geometry g = random_geometry(&st);
        /* a DRAM unit in half the cases, a multiple of the sector or not */
        static const int64_t units[] = { 0, 0, 0, 32, 64, 96, 256, 12 };
        g.dram_unit = units[tu_range(&st, 0, 7)];
        int64_t elem = tu_range(&st, 0, 3) == 0 ? tu_range(&st, 1, 70) : (int64_t)1 << tu_range(&st, 0, 4);
        bw_buf src = BW_BUF_INIT;
        if (tu_range(&st, 0, 1))
            tu_random_address_expr(&st, &src);
        else
            tu_random_expr(&st, 4, &src);
        model_expr *e = NULL;
        cr_assert_eq(model_expr_parse(bw_buf_str(&src), &e, NULL), BW_OK);
        model_lanes act = model_lanes_first(g.lanes, 0);
        for (int t = 0; t < g.lanes; t++)
            if (tu_range(&st, 0, 3) != 0)
                model_lanes_set(&act, t);
        int64_t w = tu_range(&st, 0, 50), addr[MODEL_MAX_LANES];
        int ok = 1;
        for (int t = 0; t < g.lanes && ok; t++) {
            model_expr_env env = { t, w, w * g.lanes + t, g.lanes };
            ok = model_expr_eval(e, &env, &addr[t], NULL) == BW_OK && addr[t] < INT64_MAX / 4 &&
                 addr[t] > INT64_MIN / 4;
        }
        if (ok) {
            model_warp m;
            cr_assert_eq(model_warp_count(&g, elem, addr, &act, &m, NULL), BW_OK);
            brute r = brute_force(&g, elem, addr, &act);
            cr_assert_eq(m.distinct_bytes, r.distinct, "%s", bw_buf_str(&src));
            cr_assert_eq(m.sectors, r.sectors, "%s elem %lld S %lld", bw_buf_str(&src), (long long)elem,
                         (long long)g.sector);
            cr_assert_eq(m.lines, r.lines, "%s", bw_buf_str(&src));
            cr_assert_eq(m.dram_units, r.dram_units, "%s D %lld", bw_buf_str(&src), (long long)g.dram_unit);
            if (g.dram_unit > 0 && m.has_efficiency)
                cr_assert_float_eq(m.dram_unit_efficiency,
                                   (double)r.distinct / ((double)r.dram_units * (double)g.dram_unit), 1e-12);
            cr_assert_eq(m.active_lanes, model_lanes_count(&act));
            cr_assert_eq(m.requested_bytes, elem * model_lanes_count(&act));
            if (m.has_efficiency) {
                cr_assert(m.sector_efficiency > 0 && m.sector_efficiency <= 1.0);
                cr_assert(m.line_efficiency > 0 && m.line_efficiency <= 1.0);
            }
            checked++;
        }
        model_expr_free(e);
        bw_buf_free(&src);
    }
    cr_expect(checked > 2000, "only %d cases were evaluable", checked);
}

Test(model_warp, invariant_under_lane_permutation)
{
    uint64_t st = 99;
    for (int i = 0; i < 2000; i++) {
        model_geometry g = random_geometry(&st);
        int64_t elem = (int64_t)1 << tu_range(&st, 0, 4);
        int64_t addr[MODEL_MAX_LANES], perm[MODEL_MAX_LANES];
        model_lanes act = model_lanes_first(g.lanes, 0), pact = act;
        for (int t = 0; t < g.lanes; t++) {
            addr[t] = tu_range(&st, -300, 3000);
            if (tu_range(&st, 0, 4))
                model_lanes_set(&act, t);
        }
        /* move lane t's address and activity to lane p[t] */
        int p[MODEL_MAX_LANES];
        for (int t = 0; t < g.lanes; t++)
            p[t] = t;
        for (int t = g.lanes - 1; t > 0; t--) {
            int j = (int)tu_range(&st, 0, t), tmp = p[t];
            p[t] = p[j];
            p[j] = tmp;
        }
        for (int t = 0; t < g.lanes; t++) {
            perm[p[t]] = addr[t];
            if (model_lanes_has(&act, t))
                model_lanes_set(&pact, p[t]);
        }
        model_warp a, b;
        cr_assert_eq(model_warp_count(&g, elem, addr, &act, &a, NULL), BW_OK);
        cr_assert_eq(model_warp_count(&g, elem, perm, &pact, &b, NULL), BW_OK);
        cr_assert_eq(a.sectors, b.sectors);
        cr_assert_eq(a.lines, b.lines);
        cr_assert_eq(a.distinct_bytes, b.distinct_bytes);
        cr_assert_eq(a.active_lanes, b.active_lanes);
    }
}

/* Array of 12-byte records against struct of arrays, one float field per
 * warp-instruction on the nvidia profile, by hand. AoS: lane t reads bytes
 * 12t..12t+3; 12t mod 32 is one of 0,4,..,28 plus a multiple of 4, so no
 * lane straddles a sector, and the lanes span bytes 0..375: sectors 0..11,
 * 12 of them, 128 useful of 384 fetched (1/3); lines 0..2. SoA: the field's
 * own array, 4t: 4 sectors, one line. Reading the whole record (three
 * fields) costs 3 x 12 = 36 sectors AoS against 3 x 4 = 12 SoA. */
Test(model_warp, aos_against_soa_for_a_12_byte_record)
{
    model_lanes all = model_lanes_all(32);
    for (int field = 0; field < 3; field++) {
        char aos[32];
        snprintf(aos, sizeof aos, "12*t + %d", 4 * field);
        model_warp a = run_expr(&nvidia, aos, 4, all);
        cr_expect_eq(a.requested_bytes, 128, "field %d", field);
        cr_expect_eq(a.distinct_bytes, 128, "field %d", field);
        cr_expect_eq(a.sectors, 12, "field %d", field);
        cr_expect_float_eq(a.sector_efficiency, 1.0 / 3.0, 1e-12, "field %d", field);
        cr_expect_eq(a.lines, 3, "field %d", field);
    }
    model_warp s = run_expr(&nvidia, "4*t", 4, all);
    cr_expect_eq(s.sectors, 4);
    cr_expect_eq(s.lines, 1);
    cr_expect_float_eq(s.sector_efficiency, 1.0, 1e-12);
}
