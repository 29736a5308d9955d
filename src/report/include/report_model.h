/* report_model: formats the output of `bwlab model` (a human table or one
 * JSON object). Everything here is modeled or requested; nothing measured.
 * The caller owns all inputs; NULL members are left out. */
#ifndef REPORT_MODEL_H
#define REPORT_MODEL_H

#include "results_traffic_json.h"

#include <jansson.h>
#include <stdint.h>

#include "bw_buf.h"
#include "bw_error.h"
#include "model_bank.h"
#include "model_geometry.h"
#include "model_lanes.h"
#include "model_launch.h"
#include "model_roofline.h"
#include "model_warp.h"

typedef struct report_model {
    const char *expr_text;    /* canonical address expression, or NULL */
    const char *pattern_spec; /* canonical pattern spec when from --pattern */
    const char *profile_name;
    const model_geometry *geo;
    /* --profile inferred: the fields a cached probe replaced ("sector,line",
     * "" for none) and where they came from; NULL otherwise */
    const char *inferred_fields, *inferred_source;
    int64_t warp;
    int64_t base;
    int local; /* --space local */
    const int64_t *addr;       /* W addresses of the warp (base included) */
    const model_lanes *active;
    const model_warp *counts;  /* one-warp model, or NULL */
    const model_bank *bank;    /* with --space local */
    const model_launch *launch; /* with --launch */
    int64_t items;
    /* --unroll K (0: not given): K items per work-item, items / K
     * work-items; the counts do not depend on it */
    int unroll;
    int launch_store;
    /* write mode's store (bwlab model --access write): the warp's partial
     * sectors, and a launch of a coalesced load beside the stores */
    int write;
    int64_t warp_partial;
    const model_roofline *roof; /* with --roofline */
} report_model;

void report_model_table(const report_model *m, bw_buf *out);
bw_code report_model_json(const report_model *m, bw_buf *out, bw_error *err);

#endif
