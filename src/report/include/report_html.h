/* report_html: `bwlab report` and `bwlab run --report`: one self-contained
 * HTML page from merged result files (results_merge.h): the provenance of
 * every device and run, the comparison tables and the charts
 * (report_figures) as inline SVG. CSS is inlined; the page has no script,
 * no font, no image and no link to fetch: it can be opened offline or
 * mailed. Formatting only: every value comes from the merged data or the
 * model, and says its kind (requested, modeled or measured). */
#ifndef REPORT_HTML_H
#define REPORT_HTML_H

#include <stdio.h>

#include "bw_buf.h"
#include "bw_error.h"
#include "results_merge.h"

typedef struct report_html_options {
    const char *title;     /* the page's title; NULL: "bwlab report" */
    const char *generated; /* when the page was written (ISO 8601 UTC), or NULL */
    int argc;              /* the command line that wrote it (argc 0: none) */
    char *const *argv;
} report_html_options;

/* Appends the page to out. BW_E_NOMEM, or the charts' errors. */
bw_code report_html_render(const results_merged *m, const report_html_options *o, bw_buf *out,
                           bw_error *err);

#endif
