/* model_arith: floor division, gcd, and each operator of the address
 * language applied exactly in 64 bits, with the reason when it cannot be
 * (model_arith.h). */
#include "model_arith.h"

int64_t model_floor_div(int64_t a, int64_t d)
{
    int64_t q = a / d;
    if ((a % d != 0) && ((a < 0) != (d < 0)))
        q--;
    return q;
}

int64_t model_gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

model_arith_status model_arith_apply(model_expr_op op, int64_t a, int64_t b, int64_t *out)
{
    switch (op) {
    case MODEL_OP_NEG:
        if (a == INT64_MIN)
            return MODEL_ARITH_OVERFLOW;
        *out = -a;
        return MODEL_ARITH_OK;
    case MODEL_OP_POS: *out = a; return MODEL_ARITH_OK;
    case MODEL_OP_NOT: *out = a == 0; return MODEL_ARITH_OK;
    case MODEL_OP_BITNOT: *out = ~a; return MODEL_ARITH_OK;
    case MODEL_OP_ADD:
        return __builtin_add_overflow(a, b, out) ? MODEL_ARITH_OVERFLOW : MODEL_ARITH_OK;
    case MODEL_OP_SUB:
        return __builtin_sub_overflow(a, b, out) ? MODEL_ARITH_OVERFLOW : MODEL_ARITH_OK;
    case MODEL_OP_MUL:
        return __builtin_mul_overflow(a, b, out) ? MODEL_ARITH_OVERFLOW : MODEL_ARITH_OK;
    case MODEL_OP_DIV:
    case MODEL_OP_MOD:
        if (b == 0)
            return MODEL_ARITH_DIV_ZERO;
        /* INT64_MIN % -1 is 0 mathematically but traps on x86: refuse both */
        if (a == INT64_MIN && b == -1)
            return MODEL_ARITH_OVERFLOW;
        *out = op == MODEL_OP_DIV ? a / b : a % b;
        return MODEL_ARITH_OK;
    case MODEL_OP_SHL:
        if (b < 0 || b > 63)
            return MODEL_ARITH_SHIFT_RANGE;
        if (a > (INT64_MAX >> b) || a < ~(INT64_MAX >> b))
            return MODEL_ARITH_OVERFLOW;
        *out = (int64_t)((uint64_t)a << b);
        return MODEL_ARITH_OK;
    case MODEL_OP_SHR:
        if (b < 0 || b > 63)
            return MODEL_ARITH_SHIFT_RANGE;
        *out = a >= 0 ? a >> b : ~(~a >> b);
        return MODEL_ARITH_OK;
    case MODEL_OP_LT: *out = a < b; return MODEL_ARITH_OK;
    case MODEL_OP_LE: *out = a <= b; return MODEL_ARITH_OK;
    case MODEL_OP_GT: *out = a > b; return MODEL_ARITH_OK;
    case MODEL_OP_GE: *out = a >= b; return MODEL_ARITH_OK;
    case MODEL_OP_EQ: *out = a == b; return MODEL_ARITH_OK;
    case MODEL_OP_NE: *out = a != b; return MODEL_ARITH_OK;
    case MODEL_OP_BAND: *out = a & b; return MODEL_ARITH_OK;
    case MODEL_OP_BOR: *out = a | b; return MODEL_ARITH_OK;
    case MODEL_OP_BXOR: *out = a ^ b; return MODEL_ARITH_OK;
    case MODEL_OP_MIN: *out = a < b ? a : b; return MODEL_ARITH_OK;
    case MODEL_OP_MAX: *out = a > b ? a : b; return MODEL_ARITH_OK;
    default: return MODEL_ARITH_OVERFLOW;
    }
}

const char *model_arith_reason(model_arith_status st)
{
    switch (st) {
    case MODEL_ARITH_DIV_ZERO: return "division by zero";
    case MODEL_ARITH_OVERFLOW: return "signed 64-bit overflow";
    case MODEL_ARITH_SHIFT_RANGE: return "shift count outside 0..63";
    default: return "ok";
    }
}
