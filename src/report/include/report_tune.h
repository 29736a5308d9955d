/* report_tune: `bwlab tune`'s results document (bench_tune_document,
 * docs/results.md "bwlab tune") as a table for people, and a tuned peak
 * in words as `bwlab run` shows it. Rendering only: every figure comes
 * from the document. */
#ifndef REPORT_TUNE_H
#define REPORT_TUNE_H

#include <jansson.h>

#include "bw_buf.h"

/* The table of a tune document: per device its peaks and their checks,
 * then, for a device tuned now, every kernel shape of the search. */
void report_tune_table(const json_t *doc, bw_buf *out);

#endif
