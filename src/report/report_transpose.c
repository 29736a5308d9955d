/* report_transpose: the report's entry of the transpose family (report_family.h): its section of the run's table
 * (against the copy of the same matrix) and its keys in the JSON document. */
#include "report_family.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_transpose.h"
#include "model_pattern.h"
#include "report_format.h"
#include "report_results_row.h"

static int mine(const bench_item *it)
{
    return report_family_of(it) == &report_family_transpose;
}

/* The transpose items of a run, apart from the global table: measured
 * GB/s (2 x n^2 x 4 B / median time), vs the copy of the same matrix,
 * best launch, and the tile's modeled conflict ways; md: as Markdown. */
static void transpose_rows(const report_run *run, int md, bw_buf *out)
{
    const bench_plan *p = run->plan;
    if (md)
        bw_buf_puts(out, "\n| transpose | GB/s (measured) | vs copy (measured) | best GB/s (measured) | "
                         "tile ways (modeled) |\n|---|---:|---:|---:|---|\n");
    else
        bw_buf_puts(out, "\ntransposes (n x n floats)\n"
                         "pattern                   GB/s   vs copy    best     ways\n");
    for (size_t i = 0; i < p->n; i++) {
        if (!mine(&p->items[i]))
            continue;
        row w = row_of(run, i);
        int64_t v = model_pattern_param_value(w.it->pattern, "version");
        char ways[32];
        /* naive and copy have no tile: "-"; a tile on a profile without banks: n/a */
        if (v == MODEL_TRANSPOSE_NAIVE || v == MODEL_TRANSPOSE_COPY)
            snprintf(ways, sizeof ways, "-");
        else
            report_ways_text(ways, sizeof ways, w.it);
        report_section_row(out, &w, ways, md);
    }
    const char *lead = md ? "- " : "";
    bw_buf_printf(out, "%stranspose rows: GB/s: measured, 2 x n^2 x 4 B (loads and stores) / median kernel time; "
                       "vs copy: measured, relative to " BENCH_TRANSPOSE_REFERENCE " of the same n in this run; "
                       "ways: modeled bank-conflict ways of the local tile's column read by warp 0 (model_bank, "
                       "tile %d x %d, the profile's W).\n",
                  lead, p->geo.lanes, p->geo.lanes);
}

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
    .apart = 1,
    .gather_index = 1,
    .section = transpose_rows,
    .json = transpose_json,
};
