/* bwlab report: merge `bwlab run` result files (files, directories read
 * recursively, OUT.partial journals) and write one self-contained HTML
 * page with the provenance, the comparison tables and the charts
 * (src/report/report_html.h). Reads data only: no OpenCL call. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_inputs.h"
#include "bw_alloc.h"
#include "cli_limits.h"
#include "cli_option.h"
#include "cli_report.h"
#include "report_html.h"
#include "results_merge.h"

bw_code cli_report_write(const char *prog, results_merged *m, const char *output, const char *title,
                         int argc, char **argv, bw_error *err)
{
    bw_error nerr = BW_ERROR_INIT;
    /* without the nominal table the report still stands */
    if (results_merge_apply_nominal(m, &nerr) != BW_OK)
        cli_print_line(prog, "warning", "no nominal peaks: %s", bw_error_text(&nerr));
    bw_error_clear(&nerr);
    char date[32];
    cli_iso_date(date, sizeof date);
    report_html_options o = { title, date, argc, argv };
    bw_buf b = BW_BUF_INIT;
    bw_code rc = report_html_render(m, &o, &b, err);
    if (rc == BW_OK)
        rc = cli_write_output(output, &b, err);
    bw_buf_free(&b);
    return rc;
}

bw_code cli_report_from_json(const char *json_text, const char *output, int argc, char **argv,
                             bw_error *err)
{
    json_error_t je;
    unsigned long failed = bw_alloc_failures();
    json_t *doc = json_loads(json_text, JSON_REJECT_DUPLICATES, &je);
    if (!doc && (bw_alloc_failures() != failed || json_error_code(&je) == json_error_out_of_memory))
        return bw_error_set(err, BW_E_NOMEM, "--report: out of memory reading the run's results (%.1f MB)",
                            (double)strlen(json_text) / 1e6);
    if (!doc)
        return bw_error_set(err, BW_E_FORMAT, "--report: the run's results do not load: invalid JSON at line %d, "
                                              "column %d: %s", je.line, je.column, je.text);
    /* the page names the run's file "this run" */
    results_merged *m = NULL;
    bw_code rc = results_load_doc(doc, "this run", &m, err);
    json_decref(doc);
    for (size_t i = 0; rc == BW_OK && i < m->n_diags; i++)
        if (m->diags[i].is_error)
            rc = bw_error_set(err, BW_E_FORMAT, "--report: the run's results do not load: %s",
                              m->diags[i].message);
    if (rc == BW_OK)
        rc = cli_report_write("bwlab run", m, output, NULL, argc, argv, err);
    results_merged_free(m);
    return rc;
}

typedef struct report_args {
    const char *output, *title, *baseline;
} report_args;

const cli_option cmd_report_options[] = {
    { .name = "output", .metavar = "FILE", .values = "FILE.html",
      .help = "write the page there (default, or '-': standard output; never over an input)",
      .set = cli_set_string, .offset = offsetof(report_args, output) },
    { .name = "title", .metavar = "TEXT", .help = "the page's title (default: bwlab report)",
      .set = cli_set_string, .offset = offsetof(report_args, title) },
    { .name = "baseline", .metavar = "DEVICE",
      .help = "add each device's speed relative to this one (a label, or part of\n"
              "a vendor or device name that matches one device)",
      .set = cli_set_string, .offset = offsetof(report_args, baseline) },
    CLI_OPTION_END,
};

int cmd_report(int argc, char **argv)
{
    const cli_command *self = cli_find("report");
    report_args a = { NULL, NULL, NULL };
    int operands, st = cli_options_parse(self, argc, argv, &a, &operands);
    if (st)
        return st;
    const char *output = a.output, *title = a.title, *baseline = a.baseline;
    if (cli_output_path_check(self, "--output", output) != 0)
        return 2;
    if (operands >= argc)
        return cli_usage_error(self, "no result files given (name bwlab run result files or "
                                     "directories of them)");

    results_merged *m = NULL;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = BW_OK;
    size_t bad = 0;
    /* every bad input is named on stderr; the others are still reported */
    st = cli_inputs_load(self, argv + operands, (size_t)(argc - operands), output, &m, &rc, &bad, &err);
    if (!st) {
        if (rc == BW_OK && baseline)
            rc = results_merge_set_baseline(m, baseline, &err);
        if (rc == BW_OK)
            rc = cli_report_write("bwlab report", m, output, title, argc, argv, &err);
        st = cli_inputs_status(self, rc, bad, "is in the report", &err);
    }
    results_merged_free(m);
    bw_error_clear(&err);
    return st;
}
