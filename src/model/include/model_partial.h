/* model_partial: the partial sectors of a launch's stores (docs/model.md,
 * "Partial sectors").
 *
 * A sector of the store footprint is partial when the launch writes some
 * of its bytes but not all of them: the bytes written are the union, over
 * every active lane of every warp of every store access, of [A, A + E).
 * A device may have to read such a sector before it can write it back
 * (a write-allocate cache, or a DRAM burst narrower than the sector's
 * merge). Over a whole launch a sector is judged by every store that
 * lands in it, so the 5 sectors a misaligned warp touches are partial per
 * warp but, warps abutting, only the first and last of the range are
 * partial over the launch.
 *
 * Counted exactly: in closed form where each run of warps is one warp's
 * bytes shifted by a common slope and runs do not overlap in bytes (every
 * catalogue pattern but the irregular ones), else by marking every
 * written byte in a bitmap of at most MODEL_PARTIAL_MAX_BITS bits. */
#ifndef MODEL_PARTIAL_H
#define MODEL_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"
#include "model_access.h"
#include "model_geometry.h"

/* The largest byte bitmap the irregular case may use (128 MiB). */
#define MODEL_PARTIAL_MAX_BITS ((int64_t)1 << 30)

/* The partial sectors of one warp-instruction's stores: of the sectors
 * the active lanes (addr[t] for t in active, W = active->width) touch with
 * elem-byte elements, those they do not write completely. */
#include "model_lanes.h"
int64_t model_partial_warp(const int64_t *addr, const model_lanes *active, int64_t elem, int64_t sector);

#endif
