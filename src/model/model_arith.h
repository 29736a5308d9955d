/* model_arith: the exact 64-bit semantics of every non-short-circuit
 * operator of the address language. The evaluator, the piecewise-affine
 * analysis and the OpenCL prelude (cl/bw_expr.cl) must agree on these. */
#ifndef MODEL_ARITH_H
#define MODEL_ARITH_H

#include <stdint.h>

#include "model_expr.h"

typedef enum model_arith_status {
    MODEL_ARITH_OK,
    MODEL_ARITH_DIV_ZERO,
    MODEL_ARITH_OVERFLOW,
    MODEL_ARITH_SHIFT_RANGE,
} model_arith_status;

/* Applies a unary (b ignored) or binary operator. LAND, LOR and COND are
 * not handled here (they short-circuit). */
model_arith_status model_arith_apply(model_expr_op op, int64_t a, int64_t b, int64_t *out);
/* "division by zero", "signed overflow", "shift count outside 0..63" */
const char *model_arith_reason(model_arith_status st);

/* Floor division (rounds toward minus infinity). d != 0. */
int64_t model_floor_div(int64_t a, int64_t d);
/* Greatest common divisor of a, b >= 0 (gcd(a, 0) = a). */
int64_t model_gcd(int64_t a, int64_t b);

#endif
