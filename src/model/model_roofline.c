/* model_roofline: the roofline bound at an intensity, the ridge, and
 * what a tiled matrix product of tile T (intensity T/4) attains
 * (model_roofline.h). */
#include "model_roofline.h"

#include <math.h>
#include <string.h>

double model_roofline_tile_intensity(int64_t tile)
{
    /* 2N^3 FLOP over 8N^3/T bytes */
    return (double)tile / 4.0;
}

static int64_t min_tile(double ridge)
{
    double guess = ceil(4.0 * ridge);
    if (guess < 1.0)
        guess = 1.0;
    if (guess > 9.0e15)
        return INT64_MAX;
    int64_t t = (int64_t)guess;
    /* settle rounding of 4*ridge either way */
    while (t > 1 && model_roofline_tile_intensity(t - 1) >= ridge)
        t--;
    while (model_roofline_tile_intensity(t) < ridge)
        t++;
    return t;
}

bw_code model_roofline_eval(double peak_gflops, double peak_gbs, double intensity,
                            model_roofline *out, bw_error *err)
{
    memset(out, 0, sizeof *out);
    if (!isfinite(peak_gflops) || peak_gflops <= 0)
        return bw_error_set(err, BW_E_USAGE, "--peak-gflops: %g is not a positive number", peak_gflops);
    if (!isfinite(peak_gbs) || peak_gbs <= 0)
        return bw_error_set(err, BW_E_USAGE, "--peak-gbs: %g is not a positive number", peak_gbs);
    if (!isfinite(intensity) || intensity <= 0)
        return bw_error_set(err, BW_E_USAGE, "--intensity: %g is not a positive number", intensity);
    out->peak_gflops = peak_gflops;
    out->peak_gbs = peak_gbs;
    out->ridge_intensity = peak_gflops / peak_gbs;
    out->intensity = intensity;
    double mem = intensity * peak_gbs;
    out->attainable_gflops = mem < peak_gflops ? mem : peak_gflops;
    out->bound = intensity < out->ridge_intensity   ? MODEL_BOUND_MEMORY
                 : intensity > out->ridge_intensity ? MODEL_BOUND_COMPUTE
                                                    : MODEL_BOUND_BALANCED;
    out->min_tile_compute_bound = min_tile(out->ridge_intensity);
    return BW_OK;
}

bw_code model_roofline_tile(double peak_gflops, double peak_gbs, int64_t tile,
                            model_roofline *out, bw_error *err)
{
    if (tile < 1)
        return bw_error_set(err, BW_E_USAGE, "--tile: %lld is not a positive tile size", (long long)tile);
    bw_code rc = model_roofline_eval(peak_gflops, peak_gbs, model_roofline_tile_intensity(tile), out, err);
    if (rc == BW_OK)
        out->tile = tile;
    return rc;
}

const char *model_bound_name(model_bound b)
{
    switch (b) {
    case MODEL_BOUND_MEMORY: return "memory";
    case MODEL_BOUND_COMPUTE: return "compute";
    default: return "balanced";
    }
}
