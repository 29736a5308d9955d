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

/* Partial sectors of the store accesses among acc[0..n-1], whose
 * footprint (distinct sectors, model_launch) is footprint_sectors, and the
 * bytes they write, each counted once (fewer than the requested bytes:
 * some lanes write the same byte). Sets *partial and *written, or -1 for
 * both with the reason in why (nwhy bytes) when the launch is too
 * irregular and too large to count (its byte range exceeds
 * MODEL_PARTIAL_MAX_BITS, or max_work > 0 and marking would take more than
 * 4 x max_work bit writes): that is not an error. Fails only as
 * model_access_walk does, or BW_E_NOMEM. The accesses must have passed
 * model_access_check. */
bw_code model_partial_sectors(const model_geometry *geo, const model_access *acc, size_t n, int64_t max_work,
                              int64_t footprint_sectors, int64_t *partial, int64_t *written, char *why,
                              size_t nwhy, bw_error *err);

/* The partial sectors of one warp-instruction's stores: of the sectors
 * the active lanes (addr[t] for t in active, W = active->width) touch with
 * elem-byte elements, those they do not write completely. */
#include "model_lanes.h"
int64_t model_partial_warp(const int64_t *addr, const model_lanes *active, int64_t elem, int64_t sector);

#endif
