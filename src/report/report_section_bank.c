/* report_section_bank: the bank family's entry of the run's table
 * (report_section.h): its local-memory section, rendered from the results
 * document. */
#include "report_section.h"

#include <stdio.h>

#include "model_pattern.h"
#include "results_run_fields.h"

/* The bank results of a run, apart from the global table: measured local
 * GB/s, vs the bank reference, best launch, and the modeled ways in place
 * of sector efficiency; md: as Markdown. */
static void bank_rows(const report_doc_run *r, int md, bw_buf *out)
{
    if (md)
        bw_buf_puts(out, "\n| bank pattern (local memory) | GB/s local (measured) | vs " MODEL_PATTERN_BANK_REFERENCE
                         " (measured) | best GB/s (measured) | ways (modeled) |\n|---|---:|---:|---:|---|\n");
    else
        bw_buf_puts(out, "\nlocal memory (bank patterns)\n"
                         "pattern                   GB/s    vs ref    best     ways\n");
    long long reads = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (r->sec[i] != &report_section_bank)
            continue;
        char ways[32];
        report_ways_text(ways, sizeof ways, r->items[i]);
        report_section_row(out, r->items[i], ways, md);
        reads = rd_int(r->items[i], RUN_KEY(RUNY_LOCAL_READS_PER_ITEM));
    }
    const char *lead = md ? "- " : "";
    bw_buf_printf(out, "%sbank rows: GB/s: measured, local bytes read (work-items x %lld reads x 4 B) / median kernel "
                       "time; vs ref: measured, relative to the conflict-free " MODEL_PATTERN_BANK_REFERENCE
                       " of this run; ways: modeled bank-conflict ways of warp 0 (model_bank, the profile's banks).\n",
                  lead, reads);
    if (rd_int(json_object_get(r->run, RUN_KEY(RUNF_PROFILE)), RUN_KEY(RUNP_BANKS)) == 0)
        bw_buf_printf(out, "%snote: this device's profile has no banked local memory: ways n/a, and the bank "
                           "figures do not apply here (no conflicts to avoid, so no speed-up to claim).\n",
                      lead);
}

const report_section report_section_bank = {
    .kernel = MODEL_PATTERN_KERNEL_BANK,
    .apart = 1,
    .gather_index = 0,
    .rows = bank_rows,
};
