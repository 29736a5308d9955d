/* report_figures: the charts of the HTML report, built from merged result
 * files (results_merge.h) and, for the address ramp, from src/model. Data
 * only: report_html places them in the page.
 *
 * Each figure is a section of the report: a heading, a caption that says
 * what every mark is (requested, modeled or measured), and one chart or a
 * row of small multiples. A figure whose data the results do not carry
 * (no roofline, no bank items, no probe file) has no charts and says why in `absent`. */
#ifndef REPORT_FIGURES_H
#define REPORT_FIGURES_H

#include <stddef.h>

#include "bw_error.h"
#include "report_chart.h"
#include "results_merge.h"

typedef struct report_figure {
    const char *id;        /* "stride", "model", "ramp", "roofline", "bank", "cache", "latency",
                            * "transfers" (static) */
    char *heading;
    char *caption;
    char *absent;          /* why there is no chart, or NULL */
    report_chart **charts; /* owned */
    size_t n_charts;
} report_figure;

/* Builds the figures in order (stride, model, ramp, roofline; then each
 * family entry's own, report_section.figure, in the table's order: the
 * bank conflicts; then from probe records: cache ladder, latency ladder,
 * transfers) into *out, *n of them (the caller frees with
 * report_figures_free). BW_E_NOMEM; on failure *out is NULL. */
bw_code report_figures_build(const results_merged *m, report_figure **out, size_t *n, bw_error *err);
void report_figures_free(report_figure *figs, size_t n); /* accepts NULL */

/* The model's bandwidth of a pattern relative to seq in one access mode,
 * from the loads' modeled efficiencies (requested / instruction-model
 * bytes) of the pattern (p) and of seq (p_seq): read p / p_seq; copy
 * 2p / (p + p_seq), since the store dst[g] is as coalesced as seq's load.
 * NAN when either is missing or not positive. Modeled, not a measured
 * speed. */
double report_figures_modeled_relative(const char *access, double p, double p_seq);

#endif
