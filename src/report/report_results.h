/* report_results: the run's table, Markdown and CSV from bench's data, for
 * a caller that holds the runs rather than their document (tests): the
 * document (bench_run_document) rendered by report_run; nothing when it
 * cannot be built (out of memory: a caller that must say so builds the
 * document itself, as bwlab run does). */
#ifndef REPORT_RESULTS_H
#define REPORT_RESULTS_H

#include <stddef.h>

#include "bench_run.h"
#include "bw_buf.h"

void report_results_table(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out);
void report_results_markdown(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out);
void report_results_csv(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out);

#endif
