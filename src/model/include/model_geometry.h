/* model_geometry: the numbers of a memory system the model needs
 * (docs/design.md §3): warp width, sector and line sizes, local-memory
 * banks, and the DRAM unit where one is known. */
#ifndef MODEL_GEOMETRY_H
#define MODEL_GEOMETRY_H

#include <stdint.h>

#include "bw_error.h"

/* Largest sector, line or bank width accepted (bytes). */
#define MODEL_MAX_UNIT ((int64_t)1 << 20)
#define MODEL_MAX_BANKS 1024

typedef struct model_geometry {
    int lanes;          /* W */
    int64_t sector;     /* S, bytes */
    int64_t line;       /* L, bytes; a multiple of S */
    int banks;          /* 0: no banked local memory (bank figures not applicable) */
    int64_t bank_width; /* bytes per bank word */
    /* the unit in which the memory behind the caches is filled, a third
     * granularity beside S and L (docs/model.md, "The DRAM unit"): 0 when
     * not known (a vendor profile's until measured or given) */
    int64_t dram_unit;
} model_geometry;

/* Checks ranges and consistency (1 <= lanes <= 1024, 1 <= S <= L,
 * L a multiple of S, banks 0..1024, bank_width >= 1 when banks > 0,
 * dram_unit 0 or 1 .. MODEL_MAX_UNIT).
 * BW_E_USAGE with a message naming the bad value. */
bw_code model_geometry_check(const model_geometry *g, bw_error *err);

#endif
