/* report_roofline: `bwlab roofline`'s results as a table, CSV, Markdown or
 * a versioned JSON document (docs/results.md, "bwlab roofline").
 * Formatting only: the figures come from bench_roofline. */
#ifndef REPORT_ROOFLINE_H
#define REPORT_ROOFLINE_H

#include <stddef.h>

#include "bench_roofline.h"
#include "bw_buf.h"
#include "bw_error.h"
#include "bench_device.h"
#include "report_format.h"

#define RESULTS_ROOFLINE_SCHEMA "bwlab.roofline"
#define RESULTS_ROOFLINE_SCHEMA_VERSION 1

/* One device: measured (result set) or failed (failure set). */
typedef struct report_roofline_device {
    const bench_device *device;
    int is_default;
    const char *failure;                 /* why it could not be measured, or NULL */
    const bench_roofline_result *result; /* or NULL */
    const char *working_set_source;      /* how the buffer was sized, e.g. "auto" */
} report_roofline_device;

typedef struct report_roofline_meta {
    const char *date; /* ISO 8601 UTC */
    int argc;
    char *const *argv;
    double budget_s;
    const char *kernel_file; /* where roofline.cl was read, or NULL */
    int interrupted;         /* a signal stopped the command (some device may be not run) */
} report_roofline_meta;

/* Each writer appends to `out`; the JSON one fails only when out of memory. */
void report_roofline_table(const report_roofline_meta *m, const report_roofline_device *d, size_t n, bw_buf *out);
void report_roofline_md(const report_roofline_meta *m, const report_roofline_device *d, size_t n, bw_buf *out);
void report_roofline_csv(const report_roofline_meta *m, const report_roofline_device *d, size_t n, bw_buf *out);
bw_code report_roofline_json(const report_roofline_meta *m, const report_roofline_device *d, size_t n, bw_buf *out,
                             bw_error *err);

/* One device's entry of the JSON document without its "device" object:
 * status, failure and, when measured, the figures, points and tiles. The
 * short roofline of `bwlab run` reports this object too. NULL when out of
 * memory. */
json_t *report_roofline_entry_json(const report_roofline_device *d);

/* The short roofline of `bwlab run` in a few lines after `lead`: the
 * measured peaks, the modeled and measured ridges and the tiled products,
 * or the first line of why it failed. md: Markdown list items. */
void report_roofline_brief(const report_roofline_device *d, const char *lead, int md, bw_buf *out);

#endif
