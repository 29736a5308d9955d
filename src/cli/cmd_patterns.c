/* bwlab patterns: the catalogue of named patterns, as a table or JSON. */
#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "cli_format.h"
#include "cli_option.h"
#include "report_patterns.h"

typedef struct patterns_args {
    cli_format_opt format;
} patterns_args;

const cli_option cmd_patterns_options[] = {
    CLI_OPT_FORMAT(patterns_args, format, 0, "table|json", CLI_FORMATS_TABLE_JSON,
                   "table (default) or json"),
    CLI_OPTION_END,
};

int cmd_patterns(int argc, char **argv)
{
    const cli_command *self = cli_find("patterns");
    patterns_args a = { { CLI_FORMAT_TABLE, 0 } };
    int operands, st = cli_options_parse(self, argc, argv, &a, &operands);
    if (st)
        return st;
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    int status = 0;
    bw_code rc = a.format.format == CLI_FORMAT_JSON ? report_patterns_json(32, &b, &err)
                                        : report_patterns_table(32, &b, &err);
    if (rc == BW_OK)
        rc = cli_write_output(NULL, &b, &err);
    if (rc != BW_OK)
        status = cli_fail(self, &err);
    bw_error_clear(&err);
    bw_buf_free(&b);
    return status;
}
