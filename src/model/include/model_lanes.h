/* model_lanes: the set of active lanes of a warp (plain value type). */
#ifndef MODEL_LANES_H
#define MODEL_LANES_H

#include <stdint.h>

#include "bw_error.h"

/* Widest warp the model accepts. */
#define MODEL_MAX_LANES 1024

typedef struct model_lanes {
    int width; /* W: lanes in the warp */
    uint64_t bits[MODEL_MAX_LANES / 64];
} model_lanes;

/* All W lanes active. W must be in 1..MODEL_MAX_LANES. */
model_lanes model_lanes_all(int width);
/* Lanes 0..n-1 active (n clamped to 0..W). */
model_lanes model_lanes_first(int width, int n);
/* Parses a hex mask ("0xFFFF" or "ffff"), bit t = lane t. Fails with
 * BW_E_USAGE on bad digits and BW_E_RANGE for bits at or above W. An empty
 * (zero) mask is accepted here; the CLI refuses it. */
bw_code model_lanes_parse_hex(const char *hex, int width, model_lanes *out, bw_error *err);
/* Writes the mask as lower-case hex with 0x prefix into buf (>= W/4+3). */
void model_lanes_format_hex(const model_lanes *l, char *buf, int size);

static inline int model_lanes_has(const model_lanes *l, int t)
{
    return (l->bits[t >> 6] >> (t & 63)) & 1u;
}

int model_lanes_count(const model_lanes *l);

#endif
