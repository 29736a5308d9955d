/* report_compare: `bwlab compare` output from merged result files
 * (results_merge.h): the device legend with each run's provenance, the main
 * table (measured GB/s and measured vs that device's seq, a column per
 * device), the model table (modeled sector efficiency beside measured
 * relative), the baseline table, the repeats and the nominal peaks, as a
 * table, GitHub-flavoured Markdown, CSV or JSON (docs/compare.md).
 * Formatting only: every figure comes from the merged data. */
#ifndef REPORT_COMPARE_H
#define REPORT_COMPARE_H

#include "bw_buf.h"
#include "bw_error.h"
#include "results_merge.h"

#define RESULTS_COMPARE_SCHEMA "bwlab.compare"
#define RESULTS_COMPARE_SCHEMA_VERSION 1

typedef struct report_compare_opts {
    const char *mode; /* "read" or "copy": only that access mode's rows; NULL: both */
    int argc;         /* the command line, for JSON */
    char *const *argv;
    const char *date; /* ISO 8601 UTC, for JSON */
} report_compare_opts;

void report_compare_table(const results_merged *m, const report_compare_opts *o, bw_buf *out);
void report_compare_markdown(const results_merged *m, const report_compare_opts *o, bw_buf *out);
/* One header row, then one row per (pattern, device, mode) with a
 * measurement or a status; integers as integers, reals with 17
 * significant digits (they read back to the same double), absent empty. */
void report_compare_csv(const results_merged *m, const report_compare_opts *o, bw_buf *out);
bw_code report_compare_json(const results_merged *m, const report_compare_opts *o, bw_buf *out, bw_error *err);

#endif
