/* bench_validate: host-side checks of what a kernel did, against the model's
 * own addresses: the copied values (every run) and the recorded addresses
 * of a trace build (tests). */
#ifndef BENCH_VALIDATE_H
#define BENCH_VALIDATE_H

#include <stdint.h>

#include "bench_plan.h"
#include "bw_error.h"

/* Deterministic pseudo-random bytes (hardware compression inflates reads of
 * zeros) and the sentinel that marks stores that must not happen. */
void bench_fill_random(uint8_t *buf, uint64_t n, uint64_t seed);
void bench_fill_sentinel(uint8_t *buf, uint64_t n);

/* dst (it->items elements) must hold, for every active item g, the elem
 * bytes of src at A(g), and the sentinel for inactive ones. BW_E_VALIDATION
 * names the first wrong item (lane, warp, address, got, expected) and how
 * many are wrong. */
bw_code bench_validate_copy(const model_geometry *geo, const bench_item *it, const uint8_t *src,
                            uint64_t src_bytes, const uint8_t *dst, bw_error *err);

/* trace[g] (it->items entries) must be the model's byte address of item g,
 * or -1 for an inactive one. BW_E_VALIDATION names the first difference. */
bw_code bench_validate_trace(const model_geometry *geo, const bench_item *it, const int64_t *trace,
                             bw_error *err);

#endif
