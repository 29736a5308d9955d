/* report_html_priv: what only src/report and its tests use of
 * report_html.h: writing the page to a file. */
#ifndef REPORT_HTML_PRIV_H
#define REPORT_HTML_PRIV_H

#include "report_html.h"

/* Renders the page and writes it to out (which the caller owns and
 * closes). BW_E_IO when the write fails. */
bw_code report_html_write(const results_merged *m, const report_html_options *o, FILE *out,
                          bw_error *err);

#endif
