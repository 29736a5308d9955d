/* report_results: the run's table, Markdown and CSV straight from bench's
 * data: the run's document (bench_run_document) rendered by report_run
 * (report_results.h). */
#include "report_results.h"

#include "report_run.h"

void report_results_table(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out)
{
    json_t *doc = bench_run_document(m, runs, n);
    if (doc)
        report_run_table(doc, m->explain, out);
    json_decref(doc);
}

void report_results_markdown(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out)
{
    json_t *doc = bench_run_document(m, runs, n);
    if (doc)
        report_run_markdown(doc, m->explain, out);
    json_decref(doc);
}

void report_results_csv(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out)
{
    json_t *doc = bench_run_document(m, runs, n);
    if (doc)
        report_run_csv(doc, out);
    json_decref(doc);
}
