/* results_csv: the columns of a run's results as CSV (docs/results.md,
 * "CSV and Markdown"), each named once, in the order the writer
 * (report_run.c) writes them from the document, with the kind of number it holds
 * (requested, modeled or measured; NULL for a name or a setting). New
 * columns are only ever appended: scripts read them by position. */
#ifndef RESULTS_CSV_H
#define RESULTS_CSV_H

#include "bw_buf.h"

typedef enum results_csv_column_id {
    RC_DEVICE_INDEX,
    RC_DEVICE,
    RC_PROFILE,
    RC_PATTERN,
    RC_FAMILY,
    RC_EXPRESSION,
    RC_ELEM_BYTES,
    RC_ITEMS,
    RC_STATUS,
    RC_VALIDATION,
    RC_EFFECTIVE_GBS,
    RC_RELATIVE_TO_SEQ,
    RC_TIME_MIN_NS,
    RC_TIME_MEDIAN_NS,
    RC_TIME_MEAN_NS,
    RC_TIME_STDDEV_NS,
    RC_TIME_COUNT,
    RC_TIME_RSE,
    RC_WALL_MEDIAN_NS,
    RC_SECTOR_EFFICIENCY,
    RC_LINE_EFFICIENCY,
    RC_REQUESTED_LOAD_BYTES,
    RC_REQUESTED_STORE_BYTES,
    RC_INSTRUCTION_MODEL_LOAD_BYTES,
    RC_FOOTPRINT_LOAD_BYTES,
    RC_INSTRUCTION_MODEL_STORE_BYTES,
    RC_FOOTPRINT_STORE_BYTES,
    RC_PREDICTED_EFFICIENCY,
    RC_IMPLIED_TRAFFIC_BYTES,
    RC_VERDICT,
    RC_VERDICT_POSITION,
    RC_SIZE_NOTE,
    RC_INDEX_BITS,
    RC_SUB_GROUP_SIZE,
    RC_ACCESS,
    RC_FRACTION_OF_PEAK,
    RC_BEST_GBS,
    RC_TWIN_TIME_NS,
    RC_TWIN_ITEMS,
    RC_TWIN_RATIO,
    RC_BOUND,
    RC_STABLE,
    RC_SPREAD,
    RC_RELATIVE_SPREAD,
    RC_KERNEL_FORM,
    RC_UNROLL,
    RC_PLAUSIBILITY,
    RC_COUNT
} results_csv_column_id;

typedef struct results_csv_column {
    const char *name;
    const char *kind; /* "requested", "modeled", "measured", or NULL */
} results_csv_column;

extern const results_csv_column RESULTS_CSV_COLUMNS[RC_COUNT];

/* Appends the header line (the names, comma-separated, and a newline). */
void results_csv_header(bw_buf *out);

#endif
