/* The 32-bit index proof: hand-worked launches at the edge of the int
 * range, and a brute-force check that evaluates every sub-expression for
 * every active work-item of random launches: whenever the proof says
 * "fits", every value lies in [-2^31, 2^31-1]. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "model_arith.h"
#include "model_index.h"
#include "test_util.h"
#include "model_expr_priv.h"

static int fits(const char *src, int W, model_lanes act, int64_t items, int *column)
{
    model_expr *e = NULL;
    cr_assert_eq(model_expr_parse(src, &e, NULL), BW_OK, "%s", src);
    int r = model_index_fits32(e, W, &act, items, column);
    model_expr_free(e);
    return r;
}

Test(model_index, hand_worked_edges)
{
    model_lanes all = model_lanes_all(32);
    int col = -1;
    /* 4*g: 4 * (2^29 - 1) = 2^31 - 4 fits; 32 more items reach 2^31 + 124 */
    cr_expect(fits("4*g", 32, all, (int64_t)1 << 29, &col));
    cr_expect_eq(col, 0);
    cr_expect_not(fits("4*g", 32, all, ((int64_t)1 << 29) + 32, &col));
    cr_expect_eq(col, 2, "the '*' at column 2, got %d", col);
    /* 999 * 4000000 = 3996000000 > 2^31 - 1, however few items */
    cr_expect_not(fits("(g % 1000)*4000000", 32, all, 1000, &col));
    cr_expect_eq(col, 11, "the second '*' at column 11, got %d", col);
    cr_expect(fits("(g % 1000)*2000000", 32, all, (int64_t)1 << 30, NULL)); /* 1998000000 */
    /* g itself: 2^31 items end at g = 2^31 - 1; one warp more does not fit */
    cr_expect(fits("t", 32, all, (int64_t)1 << 31, &col));
    cr_expect_not(fits("t", 32, all, ((int64_t)1 << 31) + 32, &col));
    cr_expect_eq(col, 0);
    /* OpenCL masks 32-bit shift counts: g >> 40 is 0 in 64 bits, g >> 8 in 32 */
    cr_expect_not(fits("g >> 40", 32, all, 64, NULL));
    cr_expect(fits("(g >> 31) + (1 << 30)", 32, all, 64, NULL));
    /* a divisor that can be 0, and INT_MIN % -1 (undefined in 32-bit C) */
    cr_expect_not(fits("g / (t - 3)", 32, all, 64, NULL));
    cr_expect(fits("g / (t + 1)", 32, all, 64, NULL));
    cr_expect(fits("(-2147483647 - 1) % 7", 32, all, 64, NULL));
    cr_expect_not(fits("(-2147483647 - 1) % -1", 32, all, 64, NULL));
    cr_expect_not(fits("(-2147483647 - 1) / -1", 32, all, 64, NULL));
    cr_expect_not(fits("2147483648 - 1", 32, all, 64, NULL)); /* a literal above the range */
    /* only the active lanes evaluate the expression: lane 2 alone gives 0 */
    model_lanes two = model_lanes_first(32, 0);
    two.bits[0] = 1u << 2;
    cr_expect(fits("1000000000*(t - 2)", 32, two, 1 << 20, NULL));
    cr_expect_not(fits("1000000000*(t - 2)", 32, all, 1 << 20, NULL)); /* lane 31: 2.9e10 */
    /* bitwise: g & 255 <= 255; g | 1 < 2^30 for g < 2^30 */
    cr_expect(fits("(g & 0xff) * 8000000", 32, all, (int64_t)1 << 30, NULL)); /* 2040000000 */
    cr_expect(fits("(g | 1) * 2", 32, all, (int64_t)1 << 30, NULL));
    cr_expect_not(fits("(g | 1) * 2", 32, all, ((int64_t)1 << 30) + 32, NULL));
    /* no active lane proves nothing */
    cr_expect_not(fits("4*g", 32, model_lanes_first(32, 0), 64, NULL));
}

/* a node's own value for one work-item (its subtree alone, short-circuits
 * as the evaluator does); 0 when evaluation fails */
static int eval_node(const model_expr_node *nodes, int i, const model_expr_env *env, int64_t *out)
{
    const model_expr_node *n = &nodes[i];
    int64_t a = 0, b = 0;
    switch (n->op) {
    case MODEL_OP_NUM: *out = n->value; return 1;
    case MODEL_OP_VAR: {
        const int64_t v[4] = { env->t, env->w, env->g, env->W };
        *out = v[n->var];
        return 1;
    }
    case MODEL_OP_LAND:
    case MODEL_OP_LOR:
        if (!eval_node(nodes, n->kid[0], env, &a))
            return 0;
        if ((n->op == MODEL_OP_LAND) == (a == 0)) {
            *out = n->op == MODEL_OP_LOR;
            return 1;
        }
        if (!eval_node(nodes, n->kid[1], env, &b))
            return 0;
        *out = b != 0;
        return 1;
    case MODEL_OP_COND:
        if (!eval_node(nodes, n->kid[0], env, &a))
            return 0;
        return eval_node(nodes, n->kid[a ? 1 : 2], env, out);
    default: break;
    }
    if (!eval_node(nodes, n->kid[0], env, &a))
        return 0;
    if (n->kid[1] >= 0 && !eval_node(nodes, n->kid[1], env, &b))
        return 0;
    return model_arith_apply(n->op, a, b, out) == MODEL_ARITH_OK;
}

/* every node, every active work-item: all values within int32 */
static int brute_fits(const model_expr *e, int W, const model_lanes *act, int64_t items)
{
    int count, root;
    const model_expr_node *nodes = model_expr_nodes(e, &count, &root);
    for (int64_t g = 0; g < items; g++) {
        model_expr_env env = { g % W, g / W, g, W };
        if (!model_lanes_has(act, (int)env.t))
            continue;
        int64_t whole, v;
        /* the helper agrees with the evaluator on the whole expression */
        if (model_expr_eval(e, &env, &whole, NULL) == BW_OK) {
            cr_assert(eval_node(nodes, root, &env, &v));
            cr_assert_eq(v, whole);
        }
        for (int i = 0; i < count; i++)
            if (!eval_node(nodes, i, &env, &v) || v < INT32_MIN || v > INT32_MAX)
                return 0;
    }
    return 1;
}

Test(model_index, sound_against_brute_force, .timeout = 120)
{
    uint64_t st = 0x1d3c5;
    int proven = 0, tried = 0, tight = 0;
    for (int n = 0; n < 3000; n++) {
        bw_buf src = BW_BUF_INIT, sub = BW_BUF_INIT;
        if (n % 3 == 2)
            tu_random_expr(&st, 3, &sub);
        else
            tu_random_address_expr(&st, &sub);
        /* scaled so that some launches reach the edge of the range */
        int64_t scale = (int64_t)1 << tu_range(&st, 0, 26);
        bw_buf_printf(&src, "(%s) * %lld", bw_buf_str(&sub), (long long)(scale + tu_range(&st, 0, 3)));
        model_expr *e = NULL;
        cr_assert_eq(model_expr_parse(bw_buf_str(&src), &e, NULL), BW_OK, "%s", bw_buf_str(&src));
        static const int widths[] = { 1, 4, 8, 32, 64 };
        int W = widths[tu_range(&st, 0, 4)];
        model_lanes act = model_lanes_all(W);
        if (tu_range(&st, 0, 2) == 0)
            act.bits[0] &= tu_rand(&st);
        int64_t items = tu_range(&st, 1, 400);
        tried++;
        if (model_index_fits32(e, W, &act, items, NULL)) {
            proven++;
            cr_assert(brute_fits(e, W, &act, items), "'%s', W %d, %lld items: proven, but a value "
                      "leaves int32", bw_buf_str(&src), W, (long long)items);
        } else {
            tight += brute_fits(e, W, &act, items);
        }
        model_expr_free(e);
        bw_buf_free(&src);
        bw_buf_free(&sub);
    }
    /* the proof is not vacuous: most address expressions at small scales fit */
    cr_expect_gt(proven, tried / 4, "only %d of %d proven", proven, tried);
    cr_log_info("%d of %d proven; %d more fit by brute force only", proven, tried, tight);
}
