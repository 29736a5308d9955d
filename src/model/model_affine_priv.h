/* model_affine_priv: what only src/model and its tests use of
 * model_affine.h: the longest run of warps on which every lane's address is
 * affine. */
#ifndef MODEL_AFFINE_PRIV_H
#define MODEL_AFFINE_PRIV_H

#include "model_affine.h"

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
