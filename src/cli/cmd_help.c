/* bwlab help: the list of commands, or one command's help. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_help(int argc, char **argv)
{
    const cli_command *self = cli_find("help");
    if (argc > 2)
        return cli_usage_error(self, "too many arguments");
    bw_buf b = BW_BUF_INIT;
    if (argc == 2) {
        const cli_command *cmd = cli_find(argv[1]);
        if (!cmd) {
            bw_buf_free(&b);
            return cli_usage_error(self, "unknown command '%s' (see 'bwlab --help')", argv[1]);
        }
        cli_command_help(cmd, &b);
    } else {
        size_t n;
        const cli_command *cmds = cli_commands(&n);
        bw_buf_puts(&b, "usage: bwlab [--version] [--help] COMMAND [ARGS]\n\n"
                        "bwlab measures GPU memory access patterns with OpenCL and explains them with\n"
                        "an analytic transaction model.\n\nCommands:\n");
        for (size_t i = 0; i < n; i++)
            bw_buf_printf(&b, "  %-10s %s\n", cmds[i].name, cmds[i].summary);
        bw_buf_puts(&b, "\nSee 'bwlab help COMMAND' for the options of a command.\n");
    }
    bw_error err = BW_ERROR_INIT;
    int status = 0;
    if (cli_write_output(NULL, &b, &err) != BW_OK)
        status = cli_fail(self, &err);
    bw_error_clear(&err);
    bw_buf_free(&b);
    return status;
}
