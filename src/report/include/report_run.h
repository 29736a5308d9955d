/* report_run: `bwlab run`'s results document (docs/results.md) as a table
 * for people, Markdown, or CSV, rendered from the document alone, so that
 * a saved document and a fresh measurement render alike. Every number
 * says what kind it is: requested, modeled or measured. */
#ifndef REPORT_RUN_H
#define REPORT_RUN_H

#include <jansson.h>

#include "bw_buf.h"

/* a zero fill's seq read faster than the random one's by more than this
 * ratio is said to show compression: host noise moves a seq read by 10%
 * and more between seconds, a compressing path by several times (a
 * zero-filled read of 354-506 GB/s against 136.5 nominal, clpeak PR
 * #159) */
#define REPORT_COMPRESSION_RATIO 1.25

/* explain: --explain's sentences under each row (table) or after each
 * verdict (Markdown) */
void report_run_table(const json_t *doc, int explain, bw_buf *out);
void report_run_markdown(const json_t *doc, int explain, bw_buf *out);
void report_run_csv(const json_t *doc, bw_buf *out);

#endif
