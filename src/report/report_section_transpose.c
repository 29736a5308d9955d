/* report_section_transpose: the transpose family's entry of the run's
 * table (report_section.h): its section against the copy of the same
 * matrix, rendered from the results document. */
#include "report_section.h"

#include <stdio.h>
#include <string.h>

#include "model_pattern.h"
#include "results_run_fields.h"

/* The transpose results of a run, apart from the global table: measured
 * GB/s (2 x n^2 x 4 B / median time), vs the copy of the same matrix,
 * best launch, and the tile's modeled conflict ways; md: as Markdown. */
static void transpose_rows(const report_doc_run *r, int md, bw_buf *out)
{
    if (md)
        bw_buf_puts(out, "\n| transpose | GB/s (measured) | vs copy (measured) | best GB/s (measured) | "
                         "tile ways (modeled) |\n|---|---:|---:|---:|---|\n");
    else
        bw_buf_puts(out, "\ntransposes (n x n floats)\n"
                         "pattern                   GB/s   vs copy    best     ways\n");
    for (size_t i = 0; i < r->n; i++) {
        if (r->sec[i] != &report_section_transpose)
            continue;
        const json_t *o = r->items[i];
        /* naive and copy have no tile ("tile": null): "-"; a tile on a
         * profile without banks: n/a */
        char ways[32];
        if (!rd_has(o, RUN_KEY(RUNY_TILE)))
            snprintf(ways, sizeof ways, "-");
        else
            report_ways_text(ways, sizeof ways, o);
        report_section_row(out, o, ways, md);
    }
    long long w = rd_int(json_object_get(r->run, RUN_KEY(RUNF_PROFILE)), RUN_KEY(RUNP_LANES));
    bw_buf_printf(out, "%stranspose rows: GB/s: measured, 2 x n^2 x 4 B (loads and stores) / median kernel time; "
                       "vs copy: measured, relative to " MODEL_PATTERN_TRANSPOSE_REFERENCE " of the same n in this "
                       "run; ways: modeled bank-conflict ways of the local tile's column read by warp 0 (model_bank, "
                       "tile %lld x %lld, the profile's W).\n",
                  md ? "- " : "", w, w);
}

const report_section report_section_transpose = {
    .kernel = MODEL_PATTERN_KERNEL_TRANSPOSE,
    .apart = 1,
    .gather_index = 1,
    .rows = transpose_rows,
};
