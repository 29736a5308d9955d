/* report_record: the report's entry of the record family (report_family.h): its section of the run's table
 * (each layout against its soa form) and its keys in the JSON document. */
#include "report_family.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_record.h"
#include "model_pattern.h"
#include "report_format.h"
#include "report_results_row.h"

static int mine(const bench_item *it)
{
    return report_family_of(it) == &report_family_record;
}

/* The record items of a run, apart from the global table: measured GB/s,
 * vs the soa form, best launch, then each layout against its soa form:
 * the measured time ratio and the modeled instruction-model and
 * footprint ratios (loads + stores); md: as Markdown. */
static void record_rows(const report_run *run, int md, bw_buf *out)
{
    const bench_plan *p = run->plan;
    if (md)
        bw_buf_puts(out, "\n| record | GB/s (measured) | vs soa (measured) | best GB/s (measured) | time / soa's "
                         "(measured) | instr. bytes / soa's (modeled) | footprint / soa's (modeled) |\n"
                         "|---|---:|---:|---:|---:|---:|---:|\n");
    else
        bw_buf_puts(out, "\nrecords (every field read), against the planar soa form: measured         modeled\n"
                         "pattern                   GB/s    vs soa    best  time x       instr. x  footprint x\n");
    for (size_t i = 0; i < p->n; i++) {
        if (!mine(&p->items[i]))
            continue;
        row w = row_of(run, i);
        record_ratios q = record_ratios_of(run, i);
        bw_buf cells = BW_BUF_INIT;
        if (md) {
            report_cell_ratio(&cells, q.time, w.ok && !isnan(q.time), 0);
            bw_buf_puts(&cells, " | ");
            report_cell_ratio(&cells, q.instr, !isnan(q.instr), 0);
            bw_buf_puts(&cells, " | ");
            report_cell_ratio(&cells, q.footprint, !isnan(q.footprint), 0);
        } else {
            report_cell_ratio(&cells, q.time, w.ok && !isnan(q.time), 8);
            report_cell_ratio(&cells, q.instr, !isnan(q.instr), 15);
            report_cell_ratio(&cells, q.footprint, !isnan(q.footprint), 13);
        }
        if (w.ok)
            report_section_row(out, &w, bw_buf_str(&cells), md);
        else
            report_section_row(out, &w, "", md);
        bw_buf_free(&cells);
        if (w.it->size_note && !md)
            bw_buf_printf(out, "    note: %s\n", w.it->size_note);
    }
    const char *lead = md ? "- " : "";
    /* Markdown: the notes after the table, which a line between rows would end */
    for (size_t i = 0; md && i < p->n; i++)
        if (mine(&p->items[i]) && p->items[i].size_note)
            bw_buf_printf(out, "- note (`%s`): %s\n", p->items[i].spec, p->items[i].size_note);
    bw_buf_printf(out, "%srecord rows: GB/s: measured, requested bytes (n x F fields loaded + n x 4 B stored) / median "
                       "kernel time; vs soa: measured, relative to the soa form of the same fields, type and n in this "
                       "run; time x: measured, median time / the soa form's; instr. x, footprint x: modeled, the "
                       "launch's instruction-model and footprint bytes (loads + stores) / the soa form's. Each field "
                       "is one scalar load (no vload3).\n",
                  lead);
}

static void record_json(json_t *o, const report_run *run, size_t i)
{
    row w = row_of(run, i);
    const bench_item *it = w.it;
    const bench_result *r = w.r;
    /* relative_to_seq and relative_to_reference are against the soa
     * form of the same fields, type and n, never seq */
    bench_record_shape sh = bench_record_shape_of(it->pattern);
    record_ratios q = record_ratios_of(run, i);
    json_t *bases = json_array();
    for (int f = 0; f < it->pattern->loads; f++)
        json_array_append_new(bases, json_integer(it->pattern->load_base[f]));
    json_object_set_new(o, "layout", results_json_text(bench_record_layout_name(sh.layout)));
    json_object_set_new(o, "fields", json_integer(sh.fields));
    json_object_set_new(o, "field_type", results_json_text(bench_record_type_name(sh.type)));
    json_object_set_new(o, "record_bytes", json_integer(sh.fields * bench_record_field_bytes(&sh)));
    json_object_set_new(o, "n", json_integer(sh.n));
    json_object_set_new(o, "n_from", results_json_text(it->auto_n ? "working set" : "spec"));
    json_object_set_new(o, "loads_per_item", json_integer(it->pattern->loads));
    json_object_set_new(o, "load_bases", bases);
    json_object_set_new(o, "store_expression",
                        it->pattern->store_text ? results_json_text(it->pattern->store_text) : json_null());
    json_object_set_new(o, "relative_to_reference", results_json_real(r->relative_to_reference, w.ok));
    json_object_set_new(o, "measured_time_ratio", results_json_real(q.time, w.ok && !isnan(q.time)));
    json_object_set_new(o, "modeled_instruction_ratio", results_json_real(q.instr, !isnan(q.instr)));
    json_object_set_new(o, "modeled_footprint_ratio", results_json_real(q.footprint, !isnan(q.footprint)));
}

const report_family report_family_record = {
    .kernel = MODEL_PATTERN_KERNEL_RECORD,
    .apart = 1,
    .gather_index = 1,
    .section = record_rows,
    .json = record_json,
};
