#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "cli_format.h"
#include "report_patterns.h"

int cmd_patterns(int argc, char **argv)
{
    const cli_command *self = cli_find("patterns");
    static const struct option opts[] = { { "format", required_argument, NULL, 'f' }, { 0 } };
    const unsigned allowed = (1u << CLI_FORMAT_TABLE) | (1u << CLI_FORMAT_JSON);
    cli_format fmt = CLI_FORMAT_TABLE;
    int c;
    cli_getopt_state g;
    cli_getopt_start(&g, self, opts, NULL);
    while ((c = cli_getopt(&g, argc, argv)) >= 0) {
        switch (c) {
        case 'f':
            if (cli_format_option(self, optarg, allowed, &fmt) != 0)
                return 2;
            break;
        default:
            return cli_option_error(self, c, argv);
        }
    }
    if (c == CLI_GETOPT_FAILED)
        return g.status;
    if (optind < argc)
        return cli_usage_error(self, "unexpected argument '%s'", argv[optind]);
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    int status = 0;
    bw_code rc = fmt == CLI_FORMAT_JSON ? report_patterns_json(32, &b, &err)
                                        : report_patterns_table(32, &b, &err);
    if (rc == BW_OK)
        rc = cli_write_output(NULL, &b, &err);
    if (rc != BW_OK)
        status = cli_fail(self, &err);
    bw_error_clear(&err);
    bw_buf_free(&b);
    return status;
}
