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

/* Finds the longest run [w_lo, *seg_hi] (seg_hi <= w_hi) of warps on which
 * every lane lanes[i] (i < nlanes) has an affine address, and returns
 * at_lo[i] (the address at w_lo) and slope[i] (bytes per warp): for every w
 * in the run, model_expr_eval gives exactly at_lo[i] + slope[i]*(w - w_lo),
 * and evaluation succeeds. If evaluation fails for some lane at warp w_lo,
 * returns that error (BW_E_EVAL, the evaluator's own message); a failure
 * later in the range ends the run just before it.
 * Requires 0 <= w_lo <= w_hi < MODEL_AFFINE_MAX_WARP and 1 <= W <= 1024. */
bw_code model_affine_segment(const model_expr *e, int W, const int *lanes, int nlanes,
                             int64_t w_lo, int64_t w_hi, int64_t *seg_hi, int64_t *at_lo,
                             int64_t *slope, bw_error *err);

#endif
