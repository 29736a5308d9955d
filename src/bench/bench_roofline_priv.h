/* bench_roofline_priv: the roofline's arithmetic that only bench and its
 * tests use: a sweep point's intensity, the peak kernel's host reference
 * and the measurements' names. The roofline's API and data are public
 * (bench_roofline.h). */
#ifndef BENCH_ROOFLINE_PRIV_H
#define BENCH_ROOFLINE_PRIV_H

#include <stdint.h>

#include "bench_roofline.h"

/* FLOP/byte of a sweep point with k FMAs per 4-byte float: 2k / 4. */
double bench_roofline_intensity(uint32_t k);
/* The rf_peak reference: lane l of chain c of work-item g after `iters`
 * steps of x = fmaf(x, a, b) from its start value (cl/roofline.cl). */
float bench_roofline_peak_value(uint64_t g, int chain, int lane, int width, uint32_t iters, float a, float b);
/* "peak-fma", "peak-read", "sweep", "matmul" */
const char *bench_roofline_kind_name(bench_roofline_kind k);

#endif
