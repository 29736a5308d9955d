/* report_tune_priv: what only src/report and its tests use of
 * report_tune.h: a configuration's and a peak's words. */
#ifndef REPORT_TUNE_PRIV_H
#define REPORT_TUNE_PRIV_H

#include "report_tune.h"

/* "uint4 x 4 per work-item, 256 per group, block layout" from a
 * configuration object (results_tune_keys.h) */
void report_tune_config(bw_buf *out, const json_t *config);

/* "read 31.2 GB/s with uint4 x 4 per work-item, ...", or "read not
 * measured" when the peak is null */
void report_tune_peak_text(bw_buf *out, const char *mode, const json_t *peak);

#endif
