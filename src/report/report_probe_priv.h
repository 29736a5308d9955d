/* report_probe_priv: what only src/report and its tests use of
 * report_probe.h: the transfers' table. */
#ifndef REPORT_PROBE_PRIV_H
#define REPORT_PROBE_PRIV_H

#include "report_probe.h"

/* The transfers and launch-latency lines of a table (bwlab probe, bwlab
 * run --transfers), from an object with the transfers keys
 * (bench_probe_transfers_json; a probe document's device holds them). */
void report_probe_transfers_table(const json_t *t, bw_buf *out);

#endif
