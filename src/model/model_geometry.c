/* model_geometry: the range check of a memory system's numbers: lanes,
 * sector and line sizes, local-memory banks (model_geometry.h). */
#include "model_geometry.h"

#include "model_lanes.h"

bw_code model_geometry_check(const model_geometry *g, bw_error *err)
{
    if (g->lanes < 1 || g->lanes > MODEL_MAX_LANES)
        return bw_error_set(err, BW_E_USAGE, "lanes per warp %d is out of range (1..%d)", g->lanes,
                            MODEL_MAX_LANES);
    if (g->sector < 1 || g->sector > MODEL_MAX_UNIT)
        return bw_error_set(err, BW_E_USAGE, "sector size %lld is out of range (1..%lld bytes)",
                            (long long)g->sector, (long long)MODEL_MAX_UNIT);
    if (g->line < 1 || g->line > MODEL_MAX_UNIT)
        return bw_error_set(err, BW_E_USAGE, "line size %lld is out of range (1..%lld bytes)",
                            (long long)g->line, (long long)MODEL_MAX_UNIT);
    if (g->sector > g->line)
        return bw_error_set(err, BW_E_USAGE,
                            "sector size %lld is larger than the line size %lld (a sector is "
                            "part of a line)",
                            (long long)g->sector, (long long)g->line);
    if (g->line % g->sector != 0)
        return bw_error_set(err, BW_E_USAGE,
                            "line size %lld is not a multiple of the sector size %lld",
                            (long long)g->line, (long long)g->sector);
    if (g->banks < 0 || g->banks > MODEL_MAX_BANKS)
        return bw_error_set(err, BW_E_USAGE, "bank count %d is out of range (0..%d)", g->banks,
                            MODEL_MAX_BANKS);
    if (g->dram_unit < 0 || g->dram_unit > MODEL_MAX_UNIT)
        return bw_error_set(err, BW_E_USAGE, "DRAM unit %lld is out of range (1..%lld bytes)",
                            (long long)g->dram_unit, (long long)MODEL_MAX_UNIT);
    if (g->banks > 0 && (g->bank_width < 1 || g->bank_width > MODEL_MAX_UNIT))
        return bw_error_set(err, BW_E_USAGE, "bank width %lld is out of range (1..%lld bytes)",
                            (long long)g->bank_width, (long long)MODEL_MAX_UNIT);
    return BW_OK;
}
