/* model_partial_priv: what only src/model and its tests use of
 * model_partial.h: counting a launch's partial store sectors. */
#ifndef MODEL_PARTIAL_PRIV_H
#define MODEL_PARTIAL_PRIV_H

#include "model_partial.h"

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

#endif
