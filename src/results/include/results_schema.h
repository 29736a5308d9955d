/* results_schema: the names and versions of bwlab's result documents
 * (docs/results.md). A reader refuses a document whose schema it does not
 * know or whose version is newer than its own. */
#ifndef RESULTS_SCHEMA_H
#define RESULTS_SCHEMA_H

#define RESULTS_RUN_SCHEMA "bwlab.results" /* bwlab run */
#define RESULTS_RUN_SCHEMA_VERSION 1
#define RESULTS_PROBE_SCHEMA "bwlab.probe-results" /* bwlab probe */
#define RESULTS_PROBE_SCHEMA_VERSION 1
#define RESULTS_TUNE_SCHEMA "bwlab.tune-results" /* bwlab tune */
#define RESULTS_TUNE_SCHEMA_VERSION 1
#define RESULTS_ROOFLINE_SCHEMA "bwlab.roofline" /* bwlab roofline */
#define RESULTS_ROOFLINE_SCHEMA_VERSION 1
#define RESULTS_COMPARE_SCHEMA "bwlab.compare" /* bwlab compare */
#define RESULTS_COMPARE_SCHEMA_VERSION 1

#endif
