/* report_transpose: the report's entry of the transpose family (report_family.h): its keys in the run's JSON
 * document (its section of the table: report_section_transpose.c). */
#include "report_family.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_transpose.h"
#include "model_pattern.h"
#include "report_format.h"
#include "report_results_row.h"

static void transpose_json(json_t *o, const report_run *run, size_t i)
{
    row w = row_of(run, i);
    const bench_item *it = w.it;
    const bench_result *r = w.r;
    /* relative_to_seq and relative_to_reference are against the copy
     * of the same matrix (transpose:version=copy), never seq */
    int64_t v = model_pattern_param_value(it->pattern, "version");
    int tiled = v == MODEL_TRANSPOSE_TILED || v == MODEL_TRANSPOSE_PADDED;
    json_object_set_new(o, "version", results_json_text(bench_transpose_version_name((bench_transpose_version)v)));
    json_object_set_new(o, "n", json_integer(model_pattern_param_value(it->pattern, "n")));
    json_object_set_new(o, "n_from", results_json_text(it->auto_n ? "working set" : "spec"));
    json_object_set_new(o, "store_expression",
                        it->pattern->store_text ? results_json_text(it->pattern->store_text) : json_null());
    json_object_set_new(o, "tile", tiled ? json_integer(run->plan->geo.lanes) : json_null());
    json_object_set_new(o, "launch_items", json_integer(it->launch_items > 0 ? it->launch_items : it->items));
    json_object_set_new(o, "tile_pitch", tiled ? json_integer(run->plan->geo.lanes + (v == MODEL_TRANSPOSE_PADDED))
                                               : json_null());
    json_object_set_new(o, "conflict_ways", tiled && it->conflict_ways > 0 ? json_integer(it->conflict_ways)
                                                                            : json_null());
    json_object_set_new(o, "relative_to_reference", results_json_real(r->relative_to_reference, w.ok));
}

const report_family report_family_transpose = {
    .kernel = MODEL_PATTERN_KERNEL_TRANSPOSE,
    .section = &report_section_transpose,
    .json = transpose_json,
};
