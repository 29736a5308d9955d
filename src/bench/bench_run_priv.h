/* bench_run_priv: what only bench and its tests use of the run's API:
 * the results document as JSON text (the command dumps the document
 * itself, results_json_dump). */
#ifndef BENCH_RUN_PRIV_H
#define BENCH_RUN_PRIV_H

#include <stddef.h>

#include "bench_run.h"
#include "bw_buf.h"
#include "bw_error.h"

/* The run's results document (bench_run_document) as JSON text; BW_E_NOMEM only. */
bw_code bench_run_json(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out, bw_error *err);

#endif
