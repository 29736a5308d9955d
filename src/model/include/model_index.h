/* model_index: whether a kernel may compute an address expression in 32-bit
 * integers (docs/model.md, "index arithmetic").
 *
 * Kernels compute addresses in 64-bit `long`. On GPUs, 64-bit division and
 * modulo by a constant that is not a power of two are emulated in
 * software and can make a pattern compute-bound; the 32-bit form computes
 * the same values in `int`, and gives the same results wherever every
 * value it computes lies in [-2^31, 2^31-1]. This module proves that, for
 * a whole launch, by interval arithmetic over the variables' ranges: sound
 * (it never says "fits" when some work-item's value leaves the range) but
 * conservative (both arms of ?:, && and || count, and correlated
 * variables are bounded independently). */
#ifndef MODEL_INDEX_H
#define MODEL_INDEX_H

#include <stdint.h>

#include "model_expr.h"
#include "model_lanes.h"

/* Returns 1 when, for every work-item g in 0..items-1 of a launch in warps
 * of W lanes whose active lanes (those that evaluate e) are `active`,
 * g, t, w, W and the value of every sub-expression of e lie in the signed
 * 32-bit range, no divisor can be 0, and every shift count lies in 0..31
 * (OpenCL masks a 32-bit shift count to 5 bits). Returns 0 otherwise or
 * when unsure; then *column (when not NULL) is the 1-based column of the
 * first sub-expression found outside the range, or 0 when the launch
 * itself is too large (g above 2^31-1) or has no active lane. Requires
 * 1 <= W <= MODEL_MAX_LANES and items >= 1; never fails otherwise. */
int model_index_fits32(const model_expr *e, int W, const model_lanes *active, int64_t items, int *column);

#endif
