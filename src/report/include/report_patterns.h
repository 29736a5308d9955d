/* report_patterns: the pattern catalogue as a table or JSON
 * (`bwlab patterns`). */
#ifndef REPORT_PATTERNS_H
#define REPORT_PATTERNS_H

#include "bw_buf.h"
#include "bw_error.h"

/* W and elem are used for the example expression of each pattern. */
bw_code report_patterns_table(int W, bw_buf *out, bw_error *err);
bw_code report_patterns_json(int W, bw_buf *out, bw_error *err);

#endif
