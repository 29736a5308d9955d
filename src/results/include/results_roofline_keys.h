/* results_roofline_keys: the keys of a roofline measurement in a result
 * document (a run's runs[].roofline, `bwlab roofline`'s devices[]), each
 * spelled once: its writer (report_roofline.c), the reader
 * (results_merge.c), the schema and range checks (results_merge_schema.c,
 * results_merge_range.c, which gives each figure's unit and valid range)
 * and compare's JSON (report_compare.c) use these names. */
#ifndef RESULTS_ROOFLINE_KEYS_H
#define RESULTS_ROOFLINE_KEYS_H

#define RR_STATUS "status"                  /* "measured", "failed", "interrupted" */
#define RR_PEAK_GFLOPS "peak_gflops"        /* measured, GFLOP/s */
#define RR_PEAK_GBS "peak_gbs"              /* measured, GB/s */
#define RR_RIDGE_INTENSITY "ridge_intensity" /* modeled from the two peaks, FLOP/byte */
#define RR_MEASURED_RIDGE_INTENSITY "measured_ridge_intensity" /* measured, FLOP/byte */
#define RR_POINTS "points"                  /* the sweep's points */
/* a point's */
#define RR_INTENSITY "intensity"                 /* requested, FLOP/byte */
#define RR_GFLOPS "gflops"                       /* measured, GFLOP/s */
#define RR_GBS "gbs"                             /* measured, GB/s */
#define RR_ATTAINABLE_GFLOPS "attainable_gflops" /* modeled, GFLOP/s */

#endif
