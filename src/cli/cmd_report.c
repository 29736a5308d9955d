/* bwlab report: merge `bwlab run` result files (files, directories read
 * recursively, OUT.partial journals) and write one self-contained HTML
 * page with the provenance, the comparison tables and the charts
 * (src/report/report_html.h). Reads data only: no OpenCL call. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_limits.h"
#include "cli_report.h"
#include "report_html.h"
#include "report_merge.h"

bw_code cli_report_write(const char *prog, report_merged *m, const char *output, const char *title,
                         int argc, char **argv, bw_error *err)
{
    bw_error nerr = BW_ERROR_INIT;
    /* without the nominal table the report still stands */
    if (report_merge_apply_nominal(m, &nerr) != BW_OK)
        fprintf(stderr, "%s: warning: no nominal peaks: %s\n", prog, bw_error_text(&nerr));
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
    json_t *doc = json_loads(json_text, 0, &je);
    if (!doc)
        return bw_error_set(err, BW_E_FORMAT, "--report: the run's results do not load: invalid JSON at line %d, "
                                              "column %d: %s", je.line, je.column, je.text);
    /* the page names the run's file "this run" */
    report_merged *m = NULL;
    bw_code rc = report_load_doc(doc, "this run", &m, err);
    json_decref(doc);
    for (size_t i = 0; rc == BW_OK && i < m->n_diags; i++)
        if (m->diags[i].is_error)
            rc = bw_error_set(err, BW_E_FORMAT, "--report: the run's results do not load: %s",
                              m->diags[i].message);
    if (rc == BW_OK)
        rc = cli_report_write("bwlab run", m, output, NULL, argc, argv, err);
    report_merged_free(m);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    const cli_command *self = cli_find("report");
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "title", required_argument, NULL, 't' },
        { "baseline", required_argument, NULL, 'b' },
        { 0 },
    };
    const char *output = NULL, *title = NULL, *baseline = NULL;
    int c;
    cli_getopt_state g;
    cli_getopt_start(&g, self, opts, NULL);
    while ((c = cli_getopt(&g, argc, argv)) >= 0) {
        switch (c) {
        case 'o': output = optarg; break;
        case 't': title = optarg; break;
        case 'b': baseline = optarg; break;
        default: return cli_option_error(self, c, argv);
        }
    }
    if (c == CLI_GETOPT_FAILED)
        return g.status;
    if (cli_output_path_check(self, "--output", output) != 0)
        return 2;
    if (optind >= argc)
        return cli_usage_error(self, "no result files given (name bwlab run result files or "
                                     "directories of them)");

    report_merged *m = NULL;
    bw_error err = BW_ERROR_INIT;
    int status = 0;
    const char *outs[1] = { output }, *flags[1] = { "--output" };
    report_load_opts lo = { outs, flags, 1 };
    bw_code rc = report_load_paths_opts((const char *const *)(argv + optind), (size_t)(argc - optind), &lo, &m,
                                        &err);
    if (rc == BW_E_USAGE) {
        status = cli_usage_error(self, "%s", bw_error_text(&err));
        bw_error_clear(&err);
        return status;
    }
    /* every bad input is named on stderr; the others are still reported */
    size_t bad = 0;
    for (size_t i = 0; m && i < m->n_diags; i++) {
        fprintf(stderr, "bwlab report: %s: %s: %s\n", m->diags[i].is_error ? "error" : "note",
                m->diags[i].file, m->diags[i].message);
        bad += m->diags[i].is_error;
    }
    if (rc == BW_OK && baseline)
        rc = report_merge_set_baseline(m, baseline, &err);
    if (rc == BW_OK)
        rc = cli_report_write("bwlab report", m, output, title, argc, argv, &err);
    if (rc != BW_OK)
        status = cli_fail(self, &err);
    else if (bad) {
        fprintf(stderr,
                "bwlab report: error: %zu problem%s in the inputs (named above: an input skipped, or a row or "
                "figure out of its valid range left out); the rest is in the report\n",
                bad, bad == 1 ? "" : "s");
        status = 2;
    }
    report_merged_free(m);
    bw_error_clear(&err);
    return status;
}
