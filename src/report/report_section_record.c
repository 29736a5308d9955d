/* report_section_record: the record family's entry of the run's table
 * (report_section.h): each layout against its soa form, rendered from the
 * results document. */
#include "report_section.h"

#include <math.h>

#include "model_pattern.h"
#include "results_fields.h"

/* The record results of a run, apart from the global table: measured
 * GB/s, vs the soa form, best launch, then each layout against its soa
 * form: the measured time ratio and the modeled instruction-model and
 * footprint ratios (loads + stores); md: as Markdown. */
static void record_rows(const report_doc_run *r, int md, bw_buf *out)
{
    if (md)
        bw_buf_puts(out, "\n| record | GB/s (measured) | vs soa (measured) | best GB/s (measured) | time / soa's "
                         "(measured) | instr. bytes / soa's (modeled) | footprint / soa's (modeled) |\n"
                         "|---|---:|---:|---:|---:|---:|---:|\n");
    else
        bw_buf_puts(out, "\nrecords (every field read), against the planar soa form: measured         modeled\n"
                         "pattern                   GB/s    vs soa    best  time x       instr. x  footprint x\n");
    for (size_t i = 0; i < r->n; i++) {
        if (r->sec[i] != &report_section_record)
            continue;
        const json_t *o = r->items[i];
        double time = rd_num(o, RF_KEY(RF_MEASURED_TIME_RATIO));
        double instr = rd_num(o, RF_KEY(RF_MODELED_INSTRUCTION_RATIO));
        double fp = rd_num(o, RF_KEY(RF_MODELED_FOOTPRINT_RATIO));
        bw_buf cells = BW_BUF_INIT;
        if (md) {
            report_cell_ratio(&cells, time, 1, 0);
            bw_buf_puts(&cells, " | ");
            report_cell_ratio(&cells, instr, 1, 0);
            bw_buf_puts(&cells, " | ");
            report_cell_ratio(&cells, fp, 1, 0);
        } else {
            report_cell_ratio(&cells, time, 1, 8);
            report_cell_ratio(&cells, instr, 1, 15);
            report_cell_ratio(&cells, fp, 1, 13);
        }
        report_section_row(out, o, rd_ok(o) ? bw_buf_str(&cells) : "", md);
        bw_buf_free(&cells);
        if (rd_has(o, RF_KEY(RF_SIZE_NOTE)) && !md)
            bw_buf_printf(out, "    note: %s\n", rd_str(o, RF_KEY(RF_SIZE_NOTE)));
    }
    const char *lead = md ? "- " : "";
    /* Markdown: the notes after the table, which a line between rows would end */
    for (size_t i = 0; md && i < r->n; i++)
        if (r->sec[i] == &report_section_record && rd_has(r->items[i], RF_KEY(RF_SIZE_NOTE)))
            bw_buf_printf(out, "- note (`%s`): %s\n", rd_str(r->items[i], RF_KEY(RF_PATTERN)),
                          rd_str(r->items[i], RF_KEY(RF_SIZE_NOTE)));
    bw_buf_printf(out, "%srecord rows: GB/s: measured, requested bytes (n x F fields loaded + n x 4 B stored) / median "
                       "kernel time; vs soa: measured, relative to the soa form of the same fields, type and n in this "
                       "run; time x: measured, median time / the soa form's; instr. x, footprint x: modeled, the "
                       "launch's instruction-model and footprint bytes (loads + stores) / the soa form's. Each field "
                       "is one scalar load (no vload3).\n",
                  lead);
}

const report_section report_section_record = {
    .kernel = MODEL_PATTERN_KERNEL_RECORD,
    .apart = 1,
    .gather_index = 1,
    .rows = record_rows,
};
