/* report_bank: the report's entry of the bank family (report_family.h): its keys in the run's JSON
 * document (its section of the table: report_section_bank.c). */
#include "report_family.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_bank.h"
#include "model_pattern.h"
#include "report_format.h"
#include "report_results_row.h"

static void bank_json(json_t *o, const report_run *run, size_t i)
{
    row w = row_of(run, i);
    const bench_item *it = w.it;
    const bench_result *r = w.r;
    /* local_gbs is effective_gbs: local bytes read / median time;
     * relative_to_seq and relative_to_reference are against the bank
     * reference (bank:pitch=33,stride=1), never seq */
    json_object_set_new(o, "conflict_ways", it->conflict_ways > 0 ? json_integer(it->conflict_ways) : json_null());
    json_object_set_new(o, "local_reads_per_item", json_integer(BENCH_BANK_READS));
    json_object_set_new(o, "local_bytes", json_integer((json_int_t)bench_bank_local_bytes(it)));
    json_object_set_new(o, "local_gbs", results_json_real(r->effective_gbs, w.ok));
    json_object_set_new(o, "relative_to_reference", results_json_real(r->relative_to_reference, w.ok));
    json_object_set_new(o, "tile_bytes", json_integer(it->tile_words * 4));
}

const report_family report_family_bank = {
    .kernel = MODEL_PATTERN_KERNEL_BANK,
    .section = &report_section_bank,
    .json = bank_json,
};
