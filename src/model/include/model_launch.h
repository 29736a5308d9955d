/* model_launch: byte accounting of a whole kernel launch (docs/design.md §2.3).
 *
 * A launch is a list of memory instructions ("accesses"), each executed by
 * `items` work-items grouped into warps of W lanes (the last warp may be
 * partial). Loads and stores are accounted separately:
 *   requested bytes         E x every active lane of every warp;
 *   instruction-model bytes sum over warp-instructions of sectors x S: every
 *                           instruction fetches its own sectors (upper bound);
 *   footprint bytes         distinct sectors over the whole launch x S: every
 *                           sector fetched once (lower bound).
 * The same for lines, and, where the geometry has one, for the DRAM unit
 * (counted as the sector of a second pass). All counts are exact; they are computed by periods of
 * the piecewise-affine address analysis (model_affine), not item by item. */
#ifndef MODEL_LAUNCH_H
#define MODEL_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"
#include "model_expr.h"
#include "model_geometry.h"
#include "model_access.h"
#include "model_lanes.h"

typedef struct model_traffic {
    int64_t instructions;      /* warp-instructions with at least one active lane */
    int64_t requested_bytes;   /* requested */
    int64_t instr_sectors;     /* modeled, summed per instruction */
    int64_t instr_lines;
    int64_t footprint_sectors; /* modeled, distinct over the launch */
    int64_t footprint_lines;
    int64_t sector_bytes;      /* S and L used */
    int64_t line_bytes;
    int64_t partial_sectors;   /* stores: modeled footprint sectors the launch writes only in
                                * part (model_partial), -1 when too irregular to count; loads: 0 */
    int64_t written_bytes;     /* stores: bytes written, each once (below requested_bytes when
                                * lanes share a byte), -1 when not counted; loads: 0 */
    /* with a DRAM unit D (model_geometry.dram_unit; else all 0): the units
     * summed per instruction and distinct over the launch, modeled */
    int64_t dram_unit_bytes;
    int64_t instr_dram_units;
    int64_t footprint_dram_units;
} model_traffic;

typedef struct model_launch {
    model_traffic loads;
    model_traffic stores;
} model_launch;

/* Accounts n accesses. Fails with BW_E_EVAL if an address expression cannot
 * be evaluated for some active lane (message names lane and warp),
 * BW_E_RANGE if an address leaves the 64-bit range or items is out of
 * 1..MODEL_LAUNCH_MAX_ITEMS, BW_E_TOOBIG if an irregular pattern's footprint
 * is too large to count exactly, BW_E_NOMEM. */
bw_code model_launch_count(const model_geometry *geo, const model_access *acc, size_t n,
                           model_launch *out, bw_error *err);

/* The same within a bound of work, for an answer within seconds (bwlab
 * model): a launch whose addresses change shape from warp to warp is
 * counted one warp at a time, and one that would take more than max_work
 * node evaluations (lanes x warps stepped x expression nodes; about 5 ns
 * each), or more than 4 x max_work sector marks, fails with BW_E_TOOBIG
 * instead. max_work 0: unbounded (model_launch_count: bwlab run, whose
 * launches are bounded by device memory). Either first evaluates the
 * first and the last warp, so an overflow at the end of a huge launch is
 * reported at once. */
#define MODEL_LAUNCH_INTERACTIVE_WORK ((int64_t)1 << 28)
bw_code model_launch_count_bounded(const model_geometry *geo, const model_access *acc, size_t n,
                                   int64_t max_work, model_launch *out, bw_error *err);

/* requested / instruction-model bytes: the predicted efficiency (can exceed
 * 1 when lanes share data, as in a broadcast). 0 when nothing is fetched. */
double model_traffic_predicted_efficiency(const model_traffic *t);

#endif
