/* bwlab compare: merge `bwlab run` result files from any machines (files,
 * directories read recursively, OUT.partial journals) and compare them:
 * a column per device, a row per pattern. Reads data only: no OpenCL call,
 * so it runs on a machine without OpenCL. */
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_format.h"
#include "cli_inputs.h"
#include "cli_limits.h"
#include "cli_option.h"
#include "cli_report.h"
#include "bw_file.h"
#include "report_check.h"
#include "report_compare.h"
#include "results_merge.h"

typedef struct compare_args {
    cli_format format;
    int format_given, html; /* html: the page 'bwlab report' writes, not a cli_format */
    int check;              /* --check BASELINE RUN: the regression gate */
    const char *output, *baseline, *mode;
} compare_args;

static int set_format(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    compare_args *a = field;
    a->format_given = 1;
    if (!strcmp(arg, "html"))
        a->html = 1;
    else if (cli_format_parse(arg, CLI_FORMATS_ALL, &a->format) != 0)
        return cli_usage_error(self, "--format: '%s' is not one of table|md|csv|json|html", arg);
    return 0;
}

static int set_mode(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    if (strcmp(arg, "read") != 0 && strcmp(arg, "copy") != 0 && strcmp(arg, "write") != 0)
        return cli_usage_error(self, "--mode: '%s' is not read, copy or write", arg);
    *(const char **)field = arg;
    return 0;
}

const cli_option cmd_compare_options[] = {
    { .name = "format", .metavar = "FORMAT", .values = "table|md|csv|json|html",
      .help = "table (default), md (GitHub-flavoured Markdown), csv (one row per\n"
              "pattern, device and mode), json (the merged data, docs/compare.md) or\n"
              "html (written by 'bwlab report'); an --output name ending in .md, .csv,\n"
              ".json or .html picks it too",
      .set = set_format },
    CLI_OPT_OUTPUT(compare_args, output, 0,
                   "write there instead of standard output ('-'; never over an input: exit 2)"),
    { .name = "baseline", .metavar = "DEVICE", .flags = CLI_OPT_NEWLINE,
      .help = "add each device's speed relative to this device, per pattern (a part of\n"
              "its label, name or vendor that names one device)",
      .set = cli_set_string, .offset = offsetof(compare_args, baseline) },
    { .name = "check", .flags = CLI_OPT_NEWLINE,
      .help = "a regression gate over exactly two files, BASELINE then RUN: each row whose\n"
              "vs seq moved by more than the two runs' own intervals allow (at least 0.02),\n"
              "and each seq whose GB/s moved by more than the runs' spreads; exit 1 when a\n"
              "row regressed (md by default, or json)",
      .set = cli_set_flag, .offset = offsetof(compare_args, check) },
    { .name = "mode", .metavar = "MODE", .values = "read|copy|write",
      .help = "read, copy or write: only that access mode's rows (default: all)",
      .set = set_mode, .offset = offsetof(compare_args, mode) },
    CLI_OPTION_END,
};

/* The options checked, and the format --output's name picks: 0, or the
 * usage error's status. */
static int check_args(const cli_command *self, int argc, int operands, compare_args *a)
{
    if (cli_output_path_check(self, "--output", a->output) != 0)
        return 2;
    if (operands >= argc)
        return cli_usage_error(self, "no result files given (name bwlab run result files or directories of them)");
    if (!a->format_given && a->output) {
        const char *dot = strrchr(a->output, '.');
        if (dot && !strcmp(dot, ".html"))
            a->html = 1;
        cli_format_from_output(a->output, 0, CLI_FORMATS_ALL, &a->format);
    }
    return 0;
}

/* The comparison of m in the format asked for, written to --output (the
 * page of 'bwlab report' for html) */
static bw_code write_comparison(const compare_args *a, results_merged *m, int argc, char **argv, bw_error *err)
{
    if (a->html)
        return cli_report_write("bwlab compare", m, a->output, NULL, argc, argv, err);
    char date[32];
    cli_iso_date(date, sizeof date);
    report_compare_opts o = { a->mode, argc, argv, date };
    bw_buf b = BW_BUF_INIT;
    bw_code rc = BW_OK;
    switch (a->format) {
    case CLI_FORMAT_JSON: rc = report_compare_json(m, &o, &b, err); break;
    case CLI_FORMAT_CSV: report_compare_csv(m, &o, &b); break;
    case CLI_FORMAT_MD: report_compare_markdown(m, &o, &b); break;
    default: report_compare_table(m, &o, &b); break;
    }
    if (rc == BW_OK && bw_buf_failed(&b))
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory writing the comparison");
    if (rc == BW_OK)
        rc = cli_write_output(a->output, &b, err);
    bw_buf_free(&b);
    return rc;
}

/* one results document for the check; 0, or the exit status with the error named */
static int load_doc(const cli_command *self, const char *path, json_t **out)
{
    char *text = NULL;
    size_t len = 0;
    bw_error err = BW_ERROR_INIT;
    *out = NULL;
    if (bw_file_read(path, &text, &len, &err) != BW_OK) {
        cli_error_line(self, "%s", bw_error_text(&err));
        bw_error_clear(&err);
        return 2;
    }
    json_error_t je;
    *out = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    free(text);
    if (!*out) {
        cli_error_line(self,
                       "'%s' is not valid JSON at line %d, column %d: %s (give a 'bwlab run --format json' results "
                       "file)",
                       path, je.line, je.column, je.text);
        return 2;
    }
    return 0;
}

/* --check BASELINE RUN: the rows that moved, in md or json; exit 1 when one regressed */
static int run_check(const cli_command *self, const compare_args *a, char **files, int nfiles)
{
    if (nfiles != 2)
        return cli_usage_error(self, "--check takes exactly two files, BASELINE then RUN (%d given)", nfiles);
    if (a->html || (a->format != CLI_FORMAT_TABLE && a->format != CLI_FORMAT_MD && a->format != CLI_FORMAT_JSON))
        return cli_usage_error(self, "--check writes md or json, not %s", a->html ? "html" : "csv");
    json_t *base = NULL, *run = NULL;
    int st = load_doc(self, files[0], &base);
    if (!st)
        st = load_doc(self, files[1], &run);
    report_check *c = NULL;
    bw_error err = BW_ERROR_INIT;
    bw_buf b = BW_BUF_INIT;
    bw_code rc = BW_OK;
    if (!st && (rc = report_check_make(base, files[0], run, files[1], &c, &err)) == BW_OK) {
        if (a->format == CLI_FORMAT_JSON)
            rc = report_check_json(c, files[0], files[1], &b, &err);
        else
            report_check_markdown(c, files[0], files[1], &b);
        if (rc == BW_OK && bw_buf_failed(&b))
            rc = bw_error_set(&err, BW_E_NOMEM, "out of memory writing the check");
        if (rc == BW_OK)
            rc = cli_write_output(a->output, &b, &err);
    }
    if (!st && rc != BW_OK) {
        cli_error_line(self, "%s", bw_error_text(&err));
        st = rc == BW_E_FORMAT ? 2 : 1;
    }
    if (!st && c->regressed)
        st = 1;
    bw_buf_free(&b);
    bw_error_clear(&err);
    report_check_free(c);
    json_decref(base);
    json_decref(run);
    return st;
}

int cmd_compare(int argc, char **argv)
{
    const cli_command *self = cli_find("compare");
    compare_args a = { CLI_FORMAT_TABLE, 0, 0, 0, NULL, NULL, NULL };
    int operands, st = cli_options_parse(self, argc, argv, &a, &operands);
    if (st || (st = check_args(self, argc, operands, &a)) != 0)
        return st;
    if (a.check)
        return run_check(self, &a, argv + operands, argc - operands);
    results_merged *m = NULL;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = BW_OK;
    size_t bad = 0;
    /* every bad input is named on stderr; the others are still compared */
    st = cli_inputs_load(self, argv + operands, (size_t)(argc - operands), a.output, &m, &rc, &bad, &err);
    if (!st) {
        if (rc == BW_OK && a.baseline)
            rc = results_merge_set_baseline(m, a.baseline, &err);
        if (rc == BW_OK) {
            bw_error nerr = BW_ERROR_INIT;
            /* without the nominal table the comparison still stands */
            if (results_merge_apply_nominal(m, &nerr) != BW_OK)
                cli_warn(self, "no nominal peaks: %s", bw_error_text(&nerr));
            bw_error_clear(&nerr);
        }
        if (rc == BW_OK)
            rc = write_comparison(&a, m, argc, argv, &err);
        st = cli_inputs_status(self, rc, bad, "was compared", &err);
    }
    results_merged_free(m);
    bw_error_clear(&err);
    return st;
}
