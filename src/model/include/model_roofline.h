/* model_roofline: the roofline bound (docs/design.md §2.4).
 *
 * Peak compute P (GFLOP/s) and bandwidth B (GB/s) give the ridge I* = P/B
 * (FLOP/byte). A kernel of intensity I attains min(P, I*B): memory-bound
 * below the ridge, compute-bound above it. A tiled single-precision matrix
 * product with square tile T moves 8N^3/T bytes for 2N^3 FLOP: I = T/4. */
#ifndef MODEL_ROOFLINE_H
#define MODEL_ROOFLINE_H

#include <stdint.h>

#include "bw_error.h"

typedef enum model_bound {
    MODEL_BOUND_MEMORY,
    MODEL_BOUND_COMPUTE,
    MODEL_BOUND_BALANCED, /* exactly on the ridge */
} model_bound;

typedef struct model_roofline {
    double peak_gflops;       /* P, given or measured */
    double peak_gbs;          /* B, given or measured */
    double ridge_intensity;   /* I* = P / B, FLOP/byte */
    double intensity;         /* I */
    double attainable_gflops; /* min(P, I x B) */
    model_bound bound;
    int64_t tile;                   /* T when the intensity came from a tile, else 0 */
    int64_t min_tile_compute_bound; /* smallest T with T/4 >= I* */
} model_roofline;

/* Fills the roofline for intensity I. P, B and I must be finite and > 0
 * (BW_E_USAGE names the bad one). */
bw_code model_roofline_eval(double peak_gflops, double peak_gbs, double intensity,
                            model_roofline *out, bw_error *err);
/* The same for a tiled float matrix product with tile T >= 1. */
bw_code model_roofline_tile(double peak_gflops, double peak_gbs, int64_t tile,
                            model_roofline *out, bw_error *err);
/* FLOP per byte of a tiled single-precision matmul: T / 4. */
double model_roofline_tile_intensity(int64_t tile);
/* "memory", "compute" or "balanced" */
const char *model_bound_name(model_bound b);

#endif
