/* report_probe: `bwlab probe`'s results document (bench_probe_document,
 * docs/results.md "bwlab probe") as a table, CSV or Markdown, and the
 * transfers lines `bwlab run --transfers` prints. Rendering only: every
 * figure and sentence comes from the document; each says whether it was
 * measured, modeled (a candidate unit's curve) or is the profile's. */
#ifndef REPORT_PROBE_H
#define REPORT_PROBE_H

#include <jansson.h>

#include "bw_buf.h"

void report_probe_table(const json_t *doc, bw_buf *out);
void report_probe_md(const json_t *doc, bw_buf *out);
void report_probe_csv(const json_t *doc, bw_buf *out);

#endif
