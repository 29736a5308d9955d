/* model_index: the interval arithmetic that proves an address expression
 * stays within 32-bit integers over a whole launch (model_index.h). */
#include "model_index.h"

#include "model_arith.h"
#include "model_expr_priv.h"

#define I32_MIN ((int64_t)INT32_MIN)
#define I32_MAX ((int64_t)INT32_MAX)

/* all values a node can take, lo <= hi */
typedef struct ival {
    int64_t lo, hi;
} ival;

typedef struct ictx {
    const model_expr_node *nodes;
    ival var[4]; /* by model_expr_var */
    int column;  /* of the first node out of range */
} ictx;

static int fits(ival v)
{
    return v.lo >= I32_MIN && v.hi <= I32_MAX;
}

static ival of4(int64_t a, int64_t b, int64_t c, int64_t d)
{
    ival r = { a, a };
    int64_t v[3] = { b, c, d };
    for (int i = 0; i < 3; i++) {
        r.lo = v[i] < r.lo ? v[i] : r.lo;
        r.hi = v[i] > r.hi ? v[i] : r.hi;
    }
    return r;
}

/* the smallest k with [lo, hi] inside [-2^k, 2^k - 1] */
static int bits_of(ival v)
{
    int k = 0;
    while (v.lo < -((int64_t)1 << k) || v.hi > ((int64_t)1 << k) - 1)
        k++;
    return k;
}

/* Both operands lie in int32, so every corner product or shift below
 * fits in int64 (|a| <= 2^31, 2^b <= 2^31). */
static int binary(model_expr_op op, ival a, ival b, ival *r)
{
    switch (op) {
    case MODEL_OP_ADD: *r = (ival){ a.lo + b.lo, a.hi + b.hi }; return 1;
    case MODEL_OP_SUB: *r = (ival){ a.lo - b.hi, a.hi - b.lo }; return 1;
    case MODEL_OP_MUL: *r = of4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi); return 1;
    case MODEL_OP_DIV:
        /* truncating a / b is monotone in a and, for b of one sign, in b:
         * the extremes are at the corners */
        if (b.lo <= 0 && b.hi >= 0)
            return 0;
        *r = of4(a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi);
        return 1;
    case MODEL_OP_MOD: {
        /* C remainder: the sign of a, below |b| and no larger than |a| */
        if (b.lo <= 0 && b.hi >= 0)
            return 0;
        /* INT_MIN % -1 is undefined in 32-bit OpenCL C, though its value fits */
        if (a.lo == I32_MIN && b.lo <= -1 && b.hi >= -1)
            return 0;
        int64_t m = (b.lo > 0 ? b.hi : -b.lo) - 1;
        *r = (ival){ a.lo < 0 ? (a.lo > -m ? a.lo : -m) : 0, a.hi > 0 ? (a.hi < m ? a.hi : m) : 0 };
        return 1;
    }
    case MODEL_OP_SHL:
    case MODEL_OP_SHR: {
        if (b.lo < 0 || b.hi > 31)
            return 0;
        int64_t v[4];
        const int64_t as[2] = { a.lo, a.hi }, bs[2] = { b.lo, b.hi };
        for (int i = 0; i < 4; i++)
            model_arith_apply(op, as[i / 2], bs[i % 2], &v[i]);
        *r = of4(v[0], v[1], v[2], v[3]);
        return 1;
    }
    case MODEL_OP_LT:
    case MODEL_OP_LE:
    case MODEL_OP_GT:
    case MODEL_OP_GE:
    case MODEL_OP_EQ:
    case MODEL_OP_NE:
    case MODEL_OP_LAND:
    case MODEL_OP_LOR: *r = (ival){ 0, 1 }; return 1;
    case MODEL_OP_BAND:
    case MODEL_OP_BOR:
    case MODEL_OP_BXOR: {
        /* sign-extended k+1-bit values stay so under & | ^ */
        int k = bits_of(a) > bits_of(b) ? bits_of(a) : bits_of(b);
        *r = (ival){ -((int64_t)1 << k), ((int64_t)1 << k) - 1 };
        if (a.lo >= 0 && b.lo >= 0)
            r->lo = 0;
        /* and with a non-negative value is non-negative and no larger */
        if (op == MODEL_OP_BAND && (a.lo >= 0 || b.lo >= 0)) {
            r->lo = 0;
            if (a.lo >= 0 && a.hi < r->hi)
                r->hi = a.hi;
            if (b.lo >= 0 && b.hi < r->hi)
                r->hi = b.hi;
        }
        return 1;
    }
    case MODEL_OP_MIN: *r = (ival){ a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi }; return 1;
    case MODEL_OP_MAX: *r = (ival){ a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi }; return 1;
    default: return 0;
    }
}

/* the range of node i, 0 when it (or a part) may leave int32 */
static int range(ictx *c, int i, ival *out)
{
    const model_expr_node *n = &c->nodes[i];
    ival k[3], r;
    int ok = 1;
    for (int j = 0; j < 3 && ok; j++)
        if (n->kid[j] >= 0)
            ok = range(c, n->kid[j], &k[j]);
    if (!ok)
        return 0;
    switch (n->op) {
    case MODEL_OP_NUM: r = (ival){ n->value, n->value }; break;
    case MODEL_OP_VAR: r = c->var[n->var]; break;
    case MODEL_OP_NEG: r = (ival){ -k[0].hi, -k[0].lo }; break;
    case MODEL_OP_POS: r = k[0]; break;
    case MODEL_OP_NOT: r = (ival){ 0, 1 }; break;
    case MODEL_OP_BITNOT: r = (ival){ ~k[0].hi, ~k[0].lo }; break;
    case MODEL_OP_COND:
        r = (ival){ k[1].lo < k[2].lo ? k[1].lo : k[2].lo, k[1].hi > k[2].hi ? k[1].hi : k[2].hi };
        break;
    default: ok = binary(n->op, k[0], k[1], &r); break;
    }
    if (!ok || !fits(r)) {
        c->column = n->column;
        return 0;
    }
    *out = r;
    return 1;
}

int model_index_fits32(const model_expr *e, int W, const model_lanes *active, int64_t items, int *column)
{
    if (column)
        *column = 0;
    int first = -1, last = -1;
    for (int t = 0; t < W; t++) {
        if (model_lanes_has(active, t)) {
            first = first < 0 ? t : first;
            last = t;
        }
    }
    /* g is computed for every work-item, active or not */
    if (first < 0 || items < 1 || items - 1 > I32_MAX)
        return 0;
    int count, root;
    ictx c = { model_expr_nodes(e, &count, &root), { { 0 } }, 0 };
    c.var[MODEL_VAR_T] = (ival){ first, last };
    c.var[MODEL_VAR_W] = (ival){ 0, (items - 1) / W };
    c.var[MODEL_VAR_G] = (ival){ 0, items - 1 };
    c.var[MODEL_VAR_WIDTH] = (ival){ W, W };
    ival r;
    if (range(&c, root, &r))
        return 1;
    if (column)
        *column = c.column;
    return 0;
}
