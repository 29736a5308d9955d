/* report_check: `bwlab compare --check BASELINE RUN`, a regression gate.
 *
 * Each row present in both results documents (same device position,
 * pattern, access mode and element size) has its "vs seq"
 * (relative_to_seq) compared: it moved when the difference is larger than
 * the tolerance the two runs' own figures allow, the root sum of squares of
 * their interval half-widths (relative_to_seq_ci, the larger side; else
 * relative_spread; else REPORT_CHECK_DEFAULT), never below
 * REPORT_CHECK_FLOOR. Each reference row (seq) has its own GB/s compared
 * likewise, against each run's repeatability (its `spread`, a fraction;
 * else the run's noise.seq_spread; else REPORT_CHECK_DEFAULT). A row that
 * moved down regressed; up, improved. The check owns what it returns. */
#ifndef REPORT_CHECK_H
#define REPORT_CHECK_H

#include <jansson.h>
#include <stddef.h>

#include "bw_buf.h"
#include "bw_error.h"

/* the tolerance's floor, in vs seq units (and as a fraction of seq's GB/s):
 * what rows with identical addresses are held to within one run */
#define REPORT_CHECK_FLOOR 0.02
/* a figure with no interval and no spread: the run's noise limit */
#define REPORT_CHECK_DEFAULT 0.05

typedef enum report_check_status {
    REPORT_CHECK_SAME,
    REPORT_CHECK_REGRESSED,
    REPORT_CHECK_IMPROVED,
} report_check_status;

typedef struct report_check_row {
    char *pattern, *access;
    long long device, elem;
    int is_seq;          /* a reference row: its GB/s is what is compared */
    double baseline, run; /* measured: vs seq, or GB/s for is_seq */
    double delta;        /* run - baseline */
    double tolerance;    /* in the same units */
    report_check_status status;
} report_check_row;

typedef struct report_check {
    report_check_row *rows;
    size_t n;
    size_t regressed, improved;
    size_t only_baseline, only_run; /* rows one side lacks (or measured without a figure) */
} report_check;

/* Compares two results documents (`bwlab run --format json`). BW_E_FORMAT
 * naming which, when one is not a results document or the two share no
 * measured row; BW_E_NOMEM. *out is the caller's (report_check_free). */
bw_code report_check_make(const json_t *baseline, const char *baseline_name, const json_t *run,
                          const char *run_name, report_check **out, bw_error *err);

/* Markdown: a line with the verdict, then a table of every row (moved ones first) */
void report_check_markdown(const report_check *c, const char *baseline_name, const char *run_name, bw_buf *out);
/* JSON, schema "bwlab.check" */
bw_code report_check_json(const report_check *c, const char *baseline_name, const char *run_name, bw_buf *out,
                          bw_error *err);

void report_check_free(report_check *c); /* accepts NULL */

#endif
