/* report_roofline: `bwlab roofline`'s results document
 * (bench_roofline_document, docs/results.md "bwlab roofline") as a table,
 * CSV or Markdown, and the short roofline `bwlab run` prints from its
 * entry. Rendering only: every figure comes from the document. */
#ifndef REPORT_ROOFLINE_H
#define REPORT_ROOFLINE_H

#include <jansson.h>

#include "bw_buf.h"

/* Each writer appends to `out` what the document holds. */
void report_roofline_table(const json_t *doc, bw_buf *out);
void report_roofline_md(const json_t *doc, bw_buf *out);
void report_roofline_csv(const json_t *doc, bw_buf *out);

#endif
