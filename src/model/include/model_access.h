/* model_access: one memory instruction of a kernel launch, executed by
 * `items` work-items in warps of W lanes, and what the runner needs to
 * know of it besides its traffic: the address range, the alignment, and
 * the addresses themselves (for host-side validation and trace checks). */
#ifndef MODEL_ACCESS_H
#define MODEL_ACCESS_H

#include <stdint.h>

#include "bw_error.h"
#include "model_expr.h"
#include "model_geometry.h"
#include "model_lanes.h"

/* Most work-items one access may have. */
#define MODEL_LAUNCH_MAX_ITEMS ((int64_t)1 << 40)
/* Marks a lane that does not execute the access. */
#define MODEL_ADDR_INACTIVE INT64_MIN

typedef struct model_access {
    const model_expr *expr; /* byte address of lane t in warp w; borrowed */
    int64_t elem_bytes;     /* E */
    model_lanes active;     /* lanes executing it in every warp (width = geo lanes) */
    int64_t items;          /* work-items g = 0..items-1 */
    int64_t base;           /* bytes added to every address */
    int is_store;
} model_access;

typedef struct model_access_span {
    int any;          /* some lane executes the access */
    int64_t min_addr; /* lowest address */
    int64_t max_end;  /* one past the highest byte touched */
    int64_t align;    /* largest power of two (at most 2^20) dividing every address */
} model_access_span;

/* A run of warps w_lo .. w_lo+n-1 in which lane lanes[i] (i < nl) is at
 * at[i] + slope[i]*k bytes in warp w_lo + k (base included). */
typedef struct model_access_run {
    int64_t w_lo, n;
    int nl;
    const int *lanes;
    const int64_t *at;
    const int64_t *slope;
} model_access_run;

typedef bw_code (*model_access_run_fn)(void *ctx, const model_access_run *run, bw_error *err);

/* Address range and alignment over the whole launch; fails like
 * model_launch_count when an address cannot be evaluated. */
bw_code model_access_span_of(const model_geometry *geo, const model_access *a, model_access_span *out,
                             bw_error *err);

/* Addresses of items g0 .. g0+n-1 into out[0..n-1] (base included), or
 * MODEL_ADDR_INACTIVE where the lane does not execute the access. g0 must
 * be a multiple of W; items beyond a->items are inactive. Costs O(n) plus
 * the affine analysis of the warps covered. */
bw_code model_access_addresses(const model_geometry *geo, const model_access *a, int64_t g0, int64_t n,
                               int64_t *out, bw_error *err);

#endif
