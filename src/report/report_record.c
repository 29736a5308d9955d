/* report_record: the report's entry of the record family (report_family.h): its keys in the run's JSON
 * document (its section of the table: report_section_record.c). */
#include "report_family.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_record.h"
#include "model_pattern.h"
#include "report_format.h"
#include "report_results_row.h"

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
    .section = &report_section_record,
    .json = record_json,
};
