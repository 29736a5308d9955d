/* report_roofline_priv: what only src/report and its tests use of
 * report_roofline.h: the short roofline's brief lines. */
#ifndef REPORT_ROOFLINE_PRIV_H
#define REPORT_ROOFLINE_PRIV_H

#include "report_roofline.h"

/* The short roofline of `bwlab run` in a few lines after `lead`, from one
 * device's entry (bench_roofline_entry_json): the measured peaks, the
 * modeled and measured ridges and the tiled products, or the first line
 * of why it failed. md: Markdown list items. */
void report_roofline_brief(const json_t *entry, const char *lead, int md, bw_buf *out);

#endif
