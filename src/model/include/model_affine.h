/* model_affine: exact piecewise-affine evaluation of an address expression
 * over a range of warps.
 *
 * For a fixed lane t, most address expressions are affine in the warp index
 * w on long runs of consecutive warps: A(t, w) = a + s * (w - w_lo). Division,
 * modulo, shifts, comparisons and conditionals are affine wherever their
 * quotient or outcome does not change; the analysis finds the exact warp at
 * which one changes and ends the run there. This lets model_launch count a
 * 2^26-item launch by periods instead of item by item, with results
 * identical to evaluating every lane of every warp. */
#ifndef MODEL_AFFINE_H
#define MODEL_AFFINE_H

#include <stdint.h>

#include "bw_error.h"
#include "model_expr.h"

/* Largest warp index the analysis accepts (keeps all products in 128 bits). */
#define MODEL_AFFINE_MAX_WARP ((int64_t)1 << 48)

#endif
