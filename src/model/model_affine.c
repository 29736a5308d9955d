/* model_affine: the piecewise-affine evaluation of an address expression
 * over a range of warps, exact in 128-bit arithmetic: each run ends at the
 * warp where a quotient, shift or comparison changes (model_affine.h). */
#include "model_affine.h"

#include "model_arith.h"
#include "model_lanes.h"
#include "model_affine_priv.h"
#include "model_expr_priv.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

#define I64_MIN ((i128)INT64_MIN)
#define I64_MAX ((i128)INT64_MAX)

/* A node's value over [L, H]: affine, known by its two end values. When
 * lo == hi it is constant (an affine function equal at both ends is flat). */
typedef struct aval {
    int64_t lo, hi;
} aval;

typedef enum rstat {
    R_OK,
    R_SPLIT, /* affine only up to ctx.split (L <= split < H): retry there */
    R_ERROR, /* evaluation fails at w = L */
} rstat;

typedef struct actx {
    const model_expr_node *nodes;
    int64_t L, H;
    int64_t t, W;
    int64_t split;
} actx;

static int is_const(aval v)
{
    return v.lo == v.hi;
}

/* exact value at w of the affine function through (L, lo) and (H, hi) */
static i128 lin(const actx *c, i128 lo, i128 hi, int64_t w)
{
    if (c->H == c->L || lo == hi)
        return lo;
    return lo + (hi - lo) * (i128)(w - c->L) / (i128)(c->H - c->L);
}

static i128 floor_div128(i128 a, i128 d)
{
    i128 q = a / d;
    if (a % d != 0 && ((a < 0) != (d < 0)))
        q--;
    return q;
}

/* ---- finding where a monotone property changes ---------------------------- */

typedef enum key_kind {
    K_INRANGE, /* 1 while the value fits in int64 */
    K_TRUNCQ,  /* trunc(v / d) */
    K_FLOORQ,  /* floor(v / d) */
    K_CMP,     /* outcome of comparison `op` of v with 0 */
    K_SIGN,    /* sign of v */
} key_kind;

typedef struct key_fn {
    key_kind kind;
    i128 lo, hi;
    i128 d;
    model_expr_op op;
} key_fn;

static int cmp_zero(model_expr_op op, i128 v)
{
    switch (op) {
    case MODEL_OP_LT: return v < 0;
    case MODEL_OP_LE: return v <= 0;
    case MODEL_OP_GT: return v > 0;
    default: return v >= 0; /* GE */
    }
}

static i128 key_at(const actx *c, const key_fn *k, int64_t w)
{
    i128 v = lin(c, k->lo, k->hi, w);
    /* 64-bit division when it fits: this runs in the inner search loop */
    int small = v >= I64_MIN && v <= I64_MAX && k->d >= I64_MIN && k->d <= I64_MAX;
    switch (k->kind) {
    case K_INRANGE: return v >= I64_MIN && v <= I64_MAX;
    case K_TRUNCQ:
        if (small && !((int64_t)v == INT64_MIN && (int64_t)k->d == -1))
            return (int64_t)v / (int64_t)k->d;
        return v / k->d;
    case K_FLOORQ:
        if (small && k->d > 0)
            return model_floor_div((int64_t)v, (int64_t)k->d);
        return floor_div128(v, k->d);
    case K_CMP: return cmp_zero(k->op, v);
    default: return (v > 0) - (v < 0);
    }
}

/* Largest w in [L, H) with key(w) == key(L); requires key(H) != key(L) and a
 * key that changes monotonically along the interval. The search gallops
 * from L first, so that a key changing every few warps costs a few steps,
 * not a search of the whole range. */
static rstat split_where_changes(actx *c, const key_fn *k)
{
    i128 k0 = key_at(c, k, c->L);
    int64_t lo = c->L, hi = c->H;
    for (int64_t step = 1; step < hi - lo; step *= 2) {
        if (key_at(c, k, lo + step) != k0) {
            hi = lo + step;
            break;
        }
        lo += step;
    }
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (key_at(c, k, mid) == k0)
            lo = mid;
        else
            hi = mid;
    }
    c->split = lo;
    return R_SPLIT;
}

static rstat split_at_start(actx *c)
{
    c->split = c->L;
    return R_SPLIT;
}

/* an affine result given by exact end values: in range, or cut before the
 * first warp where it overflows */
static rstat finish(actx *c, i128 lo, i128 hi, aval *out)
{
    if (lo < I64_MIN || lo > I64_MAX)
        return R_ERROR;
    if (hi < I64_MIN || hi > I64_MAX) {
        key_fn k = { K_INRANGE, lo, hi, 1, MODEL_OP_NUM };
        return split_where_changes(c, &k);
    }
    out->lo = (int64_t)lo;
    out->hi = (int64_t)hi;
    return R_OK;
}

static rstat constant(int64_t v, aval *out)
{
    out->lo = out->hi = v;
    return R_OK;
}

/* the truth value (v != 0) when it is constant over [L, H] */
static rstat truth(actx *c, i128 lo, i128 hi, int *out)
{
    if (lo == hi) {
        *out = lo != 0;
        return R_OK;
    }
    if (lo == 0)
        return split_at_start(c);
    if ((lo < 0) == (hi < 0) && hi != 0) {
        *out = 1; /* strictly monotone and never crosses zero */
        return R_OK;
    }
    key_fn k = { K_SIGN, lo, hi, 1, MODEL_OP_NUM };
    return split_where_changes(c, &k);
}

/* ---- the evaluator ---------------------------------------------------------- */

static rstat eval(actx *c, int i, aval *out);

static rstat point_op(model_expr_op op, aval a, aval b, aval *out)
{
    int64_t r;
    if (model_arith_apply(op, a.lo, b.lo, &r) != MODEL_ARITH_OK)
        return R_ERROR;
    return constant(r, out);
}

static rstat eval_divmod(actx *c, model_expr_op op, aval a, aval b, aval *out)
{
    if (!is_const(b))
        return split_at_start(c);
    if (b.lo == 0)
        return R_ERROR;
    if (is_const(a))
        return point_op(op, a, b, out);
    i128 d = b.lo;
    i128 q0 = (i128)a.lo / d, q1 = (i128)a.hi / d;
    if (q0 != q1) {
        key_fn k = { K_TRUNCQ, a.lo, a.hi, d, op };
        return split_where_changes(c, &k);
    }
    if (op == MODEL_OP_DIV)
        return constant((int64_t)q0, out); /* q0 == q1 and a varies: |d| > 1, fits */
    return finish(c, (i128)a.lo % d, (i128)a.hi % d, out);
}

static rstat eval_shift(actx *c, model_expr_op op, aval a, aval b, aval *out)
{
    if (!is_const(b))
        return split_at_start(c);
    if (b.lo < 0 || b.lo > 63)
        return R_ERROR;
    if (is_const(a))
        return point_op(op, a, b, out);
    i128 p = (i128)1 << b.lo;
    if (op == MODEL_OP_SHL)
        return finish(c, (i128)a.lo * p, (i128)a.hi * p, out);
    i128 q0 = floor_div128(a.lo, p), q1 = floor_div128(a.hi, p);
    if (q0 != q1) {
        key_fn k = { K_FLOORQ, a.lo, a.hi, p, op };
        return split_where_changes(c, &k);
    }
    return constant((int64_t)q0, out);
}

static int ctz128(i128 v)
{
    u128 u = (u128)(v < 0 ? -v : v);
    uint64_t low = (uint64_t)u;
    if (low)
        return __builtin_ctzll(low);
    uint64_t high = (uint64_t)(u >> 64);
    return high ? 64 + __builtin_ctzll(high) : 128;
}

/* x varies over [L, H], k is constant */
static rstat eval_bitwise(actx *c, model_expr_op op, aval x, int64_t k, aval *out)
{
    /* The low m bits of x are fixed when its slope is a multiple of 2^m; the
     * bits above move as an affine function. A constant whose high part is
     * all zeros or all ones keeps the result affine. */
    i128 slope = ((i128)x.hi - x.lo) / (c->H - c->L);
    int m = ctz128(slope);
    if (m < 63) {
        int64_t kh = k >= 0 ? k >> m : ~(~k >> m);
        if (kh == 0 || kh == -1) {
            aval r;
            r.lo = op == MODEL_OP_BAND ? x.lo & k : op == MODEL_OP_BOR ? x.lo | k : x.lo ^ k;
            r.hi = op == MODEL_OP_BAND ? x.hi & k : op == MODEL_OP_BOR ? x.hi | k : x.hi ^ k;
            *out = r;
            return R_OK;
        }
    }
    /* x & (2^n - 1) is x mod 2^n and x & -2^n rounds down to 2^n: affine
     * while floor(x / 2^n) stays put */
    if (op == MODEL_OP_BAND) {
        int64_t low_mask = k >= 0 ? k : ~k;
        uint64_t um = (uint64_t)low_mask; /* unsigned: INT64_MAX + 1 must not wrap */
        if (k != -1 && (um & (um + 1)) == 0) {
            i128 p = (i128)1 << __builtin_popcountll((uint64_t)low_mask);
            if (floor_div128(x.lo, p) != floor_div128(x.hi, p)) {
                key_fn kf = { K_FLOORQ, x.lo, x.hi, p, op };
                return split_where_changes(c, &kf);
            }
            out->lo = x.lo & k;
            out->hi = x.hi & k;
            return R_OK;
        }
    }
    return split_at_start(c);
}

/* <, <=, >, >=, min and max of two affine values: split where the
 * comparison changes over the warps, else one answer for all of them */
static rstat eval_compare(actx *c, model_expr_op op, aval a, aval b, aval *out)
{
    i128 d0 = (i128)a.lo - b.lo, d1 = (i128)a.hi - b.hi;
    model_expr_op cmp = op == MODEL_OP_MIN ? MODEL_OP_LT : op == MODEL_OP_MAX ? MODEL_OP_GT : op;
    int p0 = cmp_zero(cmp, d0), p1 = cmp_zero(cmp, d1);
    if (p0 != p1) {
        key_fn k = { K_CMP, d0, d1, 1, cmp };
        return split_where_changes(c, &k);
    }
    if (op == MODEL_OP_MIN || op == MODEL_OP_MAX) {
        *out = p0 ? a : b;
        return R_OK;
    }
    return constant(p0, out);
}

/* an operator applied to its evaluated operands (b = a for unary ones)
 * over a range of warps */
static rstat apply_op(actx *c, model_expr_op op, aval a, aval b, aval *out)
{
    rstat r;
    int ta;
    switch (op) {
    case MODEL_OP_POS: *out = a; return R_OK;
    case MODEL_OP_NEG: return finish(c, -(i128)a.lo, -(i128)a.hi, out);
    case MODEL_OP_BITNOT:
        out->lo = ~a.lo;
        out->hi = ~a.hi;
        return R_OK;
    case MODEL_OP_NOT:
        if ((r = truth(c, a.lo, a.hi, &ta)) != R_OK)
            return r;
        return constant(!ta, out);
    case MODEL_OP_ADD: return finish(c, (i128)a.lo + b.lo, (i128)a.hi + b.hi, out);
    case MODEL_OP_SUB: return finish(c, (i128)a.lo - b.lo, (i128)a.hi - b.hi, out);
    case MODEL_OP_MUL:
        if (is_const(a))
            return finish(c, (i128)a.lo * b.lo, (i128)a.lo * b.hi, out);
        if (is_const(b))
            return finish(c, (i128)a.lo * b.lo, (i128)a.hi * b.lo, out);
        return split_at_start(c); /* quadratic in w */
    case MODEL_OP_DIV:
    case MODEL_OP_MOD: return eval_divmod(c, op, a, b, out);
    case MODEL_OP_SHL:
    case MODEL_OP_SHR: return eval_shift(c, op, a, b, out);
    case MODEL_OP_LT:
    case MODEL_OP_LE:
    case MODEL_OP_GT:
    case MODEL_OP_GE:
    case MODEL_OP_MIN:
    case MODEL_OP_MAX: return eval_compare(c, op, a, b, out);
    case MODEL_OP_EQ:
    case MODEL_OP_NE:
        if ((r = truth(c, (i128)a.lo - b.lo, (i128)a.hi - b.hi, &ta)) != R_OK)
            return r;
        return constant(op == MODEL_OP_NE ? ta : !ta, out);
    case MODEL_OP_BAND:
    case MODEL_OP_BOR:
    case MODEL_OP_BXOR:
        if (is_const(a))
            return eval_bitwise(c, op, b, a.lo, out);
        if (is_const(b))
            return eval_bitwise(c, op, a, b.lo, out);
        return split_at_start(c);
    default:
        return split_at_start(c);
    }
}

static rstat eval(actx *c, int i, aval *out)
{
    const model_expr_node *n = &c->nodes[i];
    aval a, b;
    rstat r;
    int ta, tb;
    switch (n->op) {
    case MODEL_OP_NUM:
        return constant(n->value, out);
    case MODEL_OP_VAR:
        switch (n->var) {
        case MODEL_VAR_T: return constant(c->t, out);
        case MODEL_VAR_WIDTH: return constant(c->W, out);
        case MODEL_VAR_W:
            out->lo = c->L;
            out->hi = c->H;
            return R_OK;
        default:
            out->lo = c->L * c->W + c->t;
            out->hi = c->H * c->W + c->t;
            return R_OK;
        }
    case MODEL_OP_LAND:
    case MODEL_OP_LOR:
        if ((r = eval(c, n->kid[0], &a)) != R_OK || (r = truth(c, a.lo, a.hi, &ta)) != R_OK)
            return r;
        if ((n->op == MODEL_OP_LAND) != ta)
            return constant(ta, out);
        if ((r = eval(c, n->kid[1], &b)) != R_OK || (r = truth(c, b.lo, b.hi, &tb)) != R_OK)
            return r;
        return constant(tb, out);
    case MODEL_OP_COND:
        if ((r = eval(c, n->kid[0], &a)) != R_OK || (r = truth(c, a.lo, a.hi, &ta)) != R_OK)
            return r;
        return eval(c, n->kid[ta ? 1 : 2], out);
    default:
        break;
    }
    if ((r = eval(c, n->kid[0], &a)) != R_OK)
        return r;
    if (n->kid[1] >= 0 && (r = eval(c, n->kid[1], &b)) != R_OK)
        return r;
    else if (n->kid[1] < 0)
        b = a;
    if (c->L == c->H || (is_const(a) && is_const(b)))
        return point_op(n->op, a, b, out);
    return apply_op(c, n->op, a, b, out);
}

bw_code model_affine_segment(const model_expr *e, int W, const int *lanes, int nlanes,
                             int64_t w_lo, int64_t w_hi, int64_t *seg_hi, int64_t *at_lo,
                             int64_t *slope, bw_error *err)
{
    if (w_lo < 0 || w_hi < w_lo || w_hi >= MODEL_AFFINE_MAX_WARP || W < 1 || W > MODEL_MAX_LANES ||
        nlanes < 0 || nlanes > MODEL_MAX_LANES)
        return bw_error_set(err, BW_E_RANGE, "warp range %lld..%lld is out of range",
                            (long long)w_lo, (long long)w_hi);
    int root = 0;
    actx c = { .nodes = model_expr_nodes(e, NULL, &root), .L = w_lo, .H = w_hi, .W = W };
    int64_t hi_val[MODEL_MAX_LANES], hi_at[MODEL_MAX_LANES];
    for (int i = 0; i < nlanes; i++) {
        c.t = lanes[i];
        aval v;
        rstat r;
        while ((r = eval(&c, root, &v)) == R_SPLIT)
            c.H = c.split;
        if (r == R_ERROR) {
            /* the plain evaluator owns the wording of evaluation errors */
            model_expr_env env = { lanes[i], w_lo, w_lo * W + lanes[i], W };
            int64_t dummy;
            bw_code rc = model_expr_eval(e, &env, &dummy, err);
            if (rc != BW_OK)
                return rc;
            return bw_error_set(err, BW_E_EVAL, "internal error: affine analysis failed at lane %d",
                                lanes[i]);
        }
        at_lo[i] = v.lo;
        hi_val[i] = v.hi;
        hi_at[i] = c.H;
    }
    /* lanes done before the run was cut have their slope from a longer run;
     * a slope beyond 64 bits (bytes per warp) falls back to a single warp */
    int64_t H = c.H;
    for (int i = 0; i < nlanes && H > w_lo; i++) {
        i128 s = ((i128)hi_val[i] - at_lo[i]) / (hi_at[i] - w_lo);
        if (s < I64_MIN || s > I64_MAX)
            H = w_lo;
    }
    for (int i = 0; i < nlanes; i++)
        slope[i] = H == w_lo ? 0 : (int64_t)(((i128)hi_val[i] - at_lo[i]) / (hi_at[i] - w_lo));
    *seg_hi = H;
    return BW_OK;
}
