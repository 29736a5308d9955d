/* cli_report: writing the HTML report, shared by `bwlab report` and
 * `bwlab run --report`. */
#ifndef CLI_REPORT_H
#define CLI_REPORT_H

#include "bw_error.h"
#include "results_merge.h"

/* Applies the nominal table to m (a warning on stderr, prefixed with prog,
 * when it cannot be read: the report still stands), renders the HTML page
 * and writes it to output (atomically; standard output for NULL or "-").
 * argv is the command line the page names. Fails as report_html_render
 * and cli_write_output. */
bw_code cli_report_write(const char *prog, results_merged *m, const char *output, const char *title,
                         int argc, char **argv, bw_error *err);

/* `bwlab run --report FILE`: the report of the run just measured, from its
 * results document (json_text, as `--format json` writes it), merged from
 * memory by the same checks as `bwlab report` (results_load_doc); the page
 * names the run's file "this run". BW_E_FORMAT when the document does not
 * load (the loader's message), else fails as cli_report_write. */
bw_code cli_report_from_json(const char *json_text, const char *output, int argc, char **argv,
                             bw_error *err);

#endif
