/* report_bank: the report's entry of the bank family (report_family.h): its local-memory section of the
 * run's table and its keys in the JSON document. */
#include "report_family.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_bank.h"
#include "model_pattern.h"
#include "report_format.h"
#include "report_results_row.h"

static int mine(const bench_item *it)
{
    return report_family_of(it) == &report_family_bank;
}

/* The bank items of a run, apart from the global table: measured local
 * GB/s, vs the bank reference, best launch, and the modeled ways in place
 * of sector efficiency; md: as Markdown. */
static void bank_rows(const report_run *run, int md, bw_buf *out)
{
    const bench_plan *p = run->plan;
    if (md)
        bw_buf_puts(out, "\n| bank pattern (local memory) | GB/s local (measured) | vs " BENCH_BANK_REFERENCE
                         " (measured) | best GB/s (measured) | ways (modeled) |\n|---|---:|---:|---:|---|\n");
    else
        bw_buf_puts(out, "\nlocal memory (bank patterns)\n"
                         "pattern                   GB/s    vs ref    best     ways\n");
    for (size_t i = 0; i < p->n; i++) {
        if (!mine(&p->items[i]))
            continue;
        row w = row_of(run, i);
        char ways[32];
        report_ways_text(ways, sizeof ways, w.it);
        report_section_row(out, &w, ways, md);
    }
    const char *lead = md ? "- " : "";
    bw_buf_printf(out, "%sbank rows: GB/s: measured, local bytes read (work-items x %d reads x 4 B) / median kernel "
                       "time; vs ref: measured, relative to the conflict-free " BENCH_BANK_REFERENCE
                       " of this run; ways: modeled bank-conflict ways of warp 0 (model_bank, the profile's banks).\n",
                  lead, BENCH_BANK_READS);
    if (p->geo.banks == 0)
        bw_buf_printf(out, "%snote: this device's profile has no banked local memory: ways n/a, and the bank "
                           "figures do not apply here (no conflicts to avoid, so no speed-up to claim).\n",
                      lead);
}

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
    .apart = 1,
    .gather_index = 0,
    .section = bank_rows,
    .json = bank_json,
};
