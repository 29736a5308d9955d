/* report_section_bank: the bank family's entry of the run's table
 * (report_section.h): its local-memory section, rendered from the results
 * document. */
#include "report_section.h"

#include <stdio.h>

#include "model_pattern.h"
#include "results_run_fields.h"
#include "report_figure_kit.h"
#include "report_format.h"

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

/* The bank-conflict figure of the HTML report: per device, each bank
 * row's modeled ways against its measured local-memory throughput */
static int bank_figure_build(const results_merged *m, report_figure *f, bw_buf *t)
{
    static const report_frame fr = { "bank", "Bank-conflict ways against local-memory throughput",
                              "ways modeled from the profile's banks; throughput measured",
                              "bank-conflict ways (modeled; log2 scale)",
                              "local-memory throughput (GB/s, measured)", REPORT_AXIS_LOG2,
                              REPORT_AXIS_LINEAR, 0, 0, 0 };
    report_chart *c = NULL;
    for (size_t d = 0; d < m->n_devices; d++) {
        int s = REPORT_FIG_NO_SERIES;
        for (size_t i = 0; i < m->n_rows; i++) {
            if (report_fig_is_global(&m->rows[i]))
                continue;
            const results_merge_entry *e = results_merged_entry(m, i, d);
            if (!e || e->conflict_ways < 1 || !results_merge_not_nan(e->local_gbs))
                continue;
            if (!report_fig_chart_once(f, &c, &fr))
                return -1;
            report_fig_series_once(c, &s, m->devices[d].label, REPORT_SERIES_POINTS,
                        report_fig_style(report_fig_colour(d), 0, REPORT_MARKER_DIAMOND, 0));
            report_chart_point(c, s, (double)e->conflict_ways, e->local_gbs,
                               report_fig_tip(t, "%s, %s: %lld-way (modeled), %s GB/s local (measured)",
                                    m->devices[d].label, m->rows[i].pattern, e->conflict_ways,
                                    REPORT_FIXED(e->local_gbs, 3)));
        }
    }
    return report_fig_absent_unless_drawn(f, "The results carry no bank items (local-memory patterns with "
                                  "conflict_ways and local_gbs).");
}

static const report_figure_def bank_figure = {
    "bank", "Bank conflicts",
    "Local-memory bank patterns: the modeled bank-conflict ways against the measured local-memory throughput, "
    "per device.",
    bank_figure_build,
};

const report_section report_section_bank = {
    .kernel = MODEL_PATTERN_KERNEL_BANK,
    .apart = 1,
    .gather_index = 0,
    .rows = bank_rows,
    .figure = &bank_figure,
};
