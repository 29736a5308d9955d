/* model_warp: one warp, one memory instruction (docs/design.md §2.1).
 *
 * Lane t touches bytes [A(t), A(t)+E-1]; sectors (lines) are the distinct
 * aligned S-byte (L-byte) units holding a touched byte. Efficiencies use
 * distinct bytes as numerator, so a broadcast never exceeds 100%. */
#ifndef MODEL_WARP_H
#define MODEL_WARP_H

#include <stdint.h>

#include "bw_error.h"
#include "model_geometry.h"
#include "model_lanes.h"

/* Largest element a lane may load or store, in bytes. */
#define MODEL_MAX_ELEM ((int64_t)1 << 20)

typedef struct model_warp {
    int lanes;               /* W */
    int active_lanes;
    int64_t elem_bytes;      /* E */
    int64_t requested_bytes; /* E x active lanes */
    int64_t distinct_bytes;  /* size of the union of the touched byte ranges */
    int64_t sector_bytes;    /* S */
    int64_t sectors;         /* modeled */
    int64_t line_bytes;      /* L */
    int64_t lines;           /* modeled */
    int has_efficiency;      /* 0 when no lane is active: efficiencies not applicable */
    double sector_efficiency; /* distinct / (sectors x S), in [0,1] */
    double line_efficiency;   /* distinct / (lines x L) */
    /* with a DRAM unit D (geo->dram_unit > 0; else 0 and not applicable):
     * distinct D-byte units touched, modeled, and distinct / (units x D) */
    int64_t dram_unit_bytes;
    int64_t dram_units;
    double dram_unit_efficiency;
} model_warp;

/* Counts for the lanes in `active` (width geo->lanes); addr[t] is lane t's
 * byte address (entries of inactive lanes are ignored). Fails with
 * BW_E_RANGE if a lane's last byte lies beyond 2^63-1, BW_E_USAGE for an
 * element size outside 1..MODEL_MAX_ELEM. */
bw_code model_warp_count(const model_geometry *geo, int64_t elem, const int64_t *addr,
                         const model_lanes *active, model_warp *out, bw_error *err);

/* Distinct bytes, sectors and lines touched by n lanes at addr[0..n-1]
 * (compacted: active lanes only). Sorts addr in place. The caller has
 * checked that addr[i] + elem - 1 does not overflow. */
typedef struct model_unit_counts {
    int64_t distinct_bytes;
    int64_t sectors;
    int64_t lines;
    int64_t min_addr;  /* first touched byte (n > 0) */
    int64_t max_byte;  /* last touched byte (n > 0) */
} model_unit_counts;

void model_warp_units(int64_t *addr, int n, int64_t elem, int64_t sector, int64_t line,
                      model_unit_counts *out);

/* floor(a / u) for u > 0. */
static inline int64_t model_unit_of(int64_t a, int64_t u)
{
    int64_t q = a / u;
    return (a % u != 0 && a < 0) ? q - 1 : q;
}

#endif
