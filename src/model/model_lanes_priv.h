/* model_lanes_priv: what only src/model and its tests use of
 * model_lanes.h: setting a lane, and listing the active ones. */
#ifndef MODEL_LANES_PRIV_H
#define MODEL_LANES_PRIV_H

#include <stdint.h>

#include "model_lanes.h"

static inline void model_lanes_set(model_lanes *l, int t)
{
    l->bits[t >> 6] |= UINT64_C(1) << (t & 63);
}

/* Fills `out` with the active lane numbers in increasing order; returns the
 * count. out must hold W ints. */
int model_lanes_list(const model_lanes *l, int *out);

#endif
