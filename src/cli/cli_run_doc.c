/* cli_run_doc: bwlab run's state as its results document reads it (a
 * device's run, the invocation's head), the journal's lines as patterns
 * finish, and the document written at the end in the format asked for,
 * with the HTML report beside it (cli_run_state.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_journal.h"
#include "cli_report.h"
#include "cli_run_state.h"
#include "report_nominal.h"
#include "report_run.h"
#include "results_json.h"

static bench_run_meta meta_of(const run_state *s)
{
    bench_run_meta m = { s->date, s->host, s->os, s->argc, s->argv, &s->pipe.settings,
                      s->kernels ? bench_kernels_path(s->kernels) : NULL, s->a.explain };
    return m;
}

/* device k's run for the report; results: its results, or those in progress */
static bench_run_doc run_of(const run_state *s, size_t k, const bench_result *results)
{
    const bench_pipeline_device *d = &s->pipe.devs[k];
    bench_run_doc r;
    memset(&r, 0, sizeof r);
    r.device = &s->provs.devices[k];
    r.is_default = s->provs.devices[k].is_default;
    r.plan = d->plan;
    r.results = results;
    r.info = &d->info;
    r.failure = d->failure;
    r.tune = s->tuned[k].found ? &s->tuned[k].entry : NULL;
    r.tune_cache = s->tune_path;
    r.roofline = d->roof;
    r.roofline_failure = d->roof_failure;
    r.roofline_working_set = s->pipe.roofline_size ? "--roofline-size" : "auto";
    r.transfers = d->xfers;
    r.transfers_failure = d->xfer_failure;
    r.retry = d->retry;
    const bench_device *bd = &s->provs.devices[k];
    r.nominal_gbs = report_nominal_dram(s->nominal, bd->vendor, bd->name, bd->board_name,
                                        (long long)bd->global_mem_bytes, &r.nominal_name);
    r.probe_memory_gbs = s->plateau ? s->plateau[k].gbs : 0;
    r.probe_memory_date = s->plateau ? s->plateau[k].date : NULL;
    r.compression_checked = s->a.fill_zeros;
    r.zero_fill_gbs = d->zero_fill_gbs;
    r.random_fill_gbs = d->random_fill_gbs;
    r.compression_failure = d->compression_failure;
    r.unroll = d->unroll;
    r.unroll_read = d->unroll_read;
    r.unroll_source = d->unroll_source;
    r.unroll_runs = d->unroll_source && !strcmp(d->unroll_source, BENCH_UNROLL_CALIBRATION) ? d->unroll_runs : 0;
    r.unroll_gbs = d->unroll_gbs;
    r.unroll_read_gbs = d->unroll_read_gbs;
    r.unroll_why = d->unroll_why[0] ? d->unroll_why : NULL;
    return r;
}

/* a finished pattern's line in the journal */
void cli_run_journal_result(run_state *s, size_t k, const bench_progress *p)
{
    bench_run_doc run = run_of(s, k, p->results);
    cli_journal_result(cli_find("run"), &s->journal, &run, (size_t)p->finished);
}

/* OUT.partial and its head line, before anything is measured. 0, or exit
 * 2 when OUT.partial is a live run's journal. */
int cli_run_journal_start(const cli_command *self, run_state *s)
{
    int st = cli_journal_start(self, s->a.output, &s->journal);
    if (st || !s->journal)
        return st;
    bench_run_doc *runs = calloc(s->ndev, sizeof *runs);
    size_t n = 0;
    for (size_t k = 0; runs && k < s->ndev; k++)
        if (s->pipe.devs[k].plan)
            runs[n++] = run_of(s, k, NULL);
    bench_run_meta m = meta_of(s);
    cli_journal_head(self, &s->journal, &m, runs, n);
    free(runs);
    return 0;
}

int cli_run_write(const cli_command *self, run_state *s)
{
    size_t n = s->pipe.nrun;
    bench_run_doc *runs = calloc(n ? n : 1, sizeof *runs);
    if (!runs)
        return cli_nomem(self);
    for (size_t k = 0; k < n; k++)
        runs[k] = run_of(s, k, s->pipe.devs[k].results);
    bench_run_meta m = meta_of(s);
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = BW_OK;
    /* one document: the JSON written, and every other format rendered from it */
    json_t *doc = bench_run_document(&m, runs, n);
    if (!doc)
        rc = bw_error_set(&err, BW_E_NOMEM, "out of memory building the results");
    else if (s->a.format.format == CLI_FORMAT_JSON)
        rc = results_json_dump(json_incref(doc), &b, &err);
    else if (s->a.format.format == CLI_FORMAT_CSV)
        report_run_csv(doc, &b);
    else if (s->a.format.format == CLI_FORMAT_MD)
        report_run_markdown(doc, m.explain, &b);
    else
        report_run_table(doc, m.explain, &b);
    if (rc == BW_OK)
        rc = cli_write_output(s->a.output, &b, &err);
    /* the results are safe in OUT: the journal has done its work */
    if (rc == BW_OK) {
        cli_journal_close(s->journal, 1);
        s->journal = NULL;
    }
    int st = rc == BW_OK ? 0 : cli_fail(self, &err);
    /* an unwritable --output must not lose the measurements */
    if (rc == BW_E_IO && s->a.output) {
        bw_error_clear(&err);
        if (cli_write_output(NULL, &b, &err) == BW_OK)
            cli_say(self, "the results went to standard output instead");
    }
    /* --report: the HTML report of this run, from its JSON document */
    if (s->a.report) {
        bw_buf jb = BW_BUF_INIT;
        const bw_buf *json = &b;
        bw_error_clear(&err);
        rc = BW_OK;
        if (s->a.format.format != CLI_FORMAT_JSON) {
            rc = doc ? results_json_dump(json_incref(doc), &jb, &err)
                     : bw_error_set(&err, BW_E_NOMEM, "out of memory building the results");
            json = &jb;
        }
        if (rc == BW_OK)
            rc = cli_report_from_json(bw_buf_str(json), s->a.report, s->argc, s->argv, &err);
        if (rc != BW_OK) {
            int rst = cli_fail(self, &err);
            if (!st)
                st = rst;
        }
        bw_buf_free(&jb);
    }
    bw_error_clear(&err);
    bw_buf_free(&b);
    json_decref(doc);
    free(runs);
    return st;
}

