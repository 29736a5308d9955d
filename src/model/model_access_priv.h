/* model_access_priv: what only src/model and its tests use of
 * model_access.h: walking a launch warp by warp, and checking an access
 * against the geometry. */
#ifndef MODEL_ACCESS_PRIV_H
#define MODEL_ACCESS_PRIV_H

#include "model_access.h"

/* Calls fn for every run of warps in [w_lo, w_hi] (clamped to the launch),
 * with the lanes executing the access there; the last warp of the launch
 * may be partial. Stops at the first error (an address that cannot be
 * evaluated, BW_E_EVAL, or that leaves the 64-bit range, BW_E_RANGE) or
 * the first error fn returns. The access must have passed
 * model_access_check. */
bw_code model_access_walk(const model_geometry *geo, const model_access *a, int64_t w_lo, int64_t w_hi,
                          model_access_run_fn fn, void *ctx, bw_error *err);

/* Checks the access against the geometry (element size, item count, mask
 * width): BW_E_USAGE / BW_E_RANGE. */
bw_code model_access_check(const model_geometry *geo, const model_access *a, bw_error *err);

#endif
