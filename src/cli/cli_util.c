#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bw_file.h"
#include "cli.h"

void cli_command_help(const cli_command *cmd, bw_buf *b)
{
    bw_buf_printf(b, "usage: %s\n\n%s.\n", cmd->usage, cmd->summary);
    if (cmd->help && *cmd->help)
        bw_buf_printf(b, "\n%s", cmd->help);
    const char *const *more = cli_command_help_more(cmd);
    for (size_t i = 0; more && more[i]; i++)
        bw_buf_puts(b, more[i]);
}

int cli_usage_error(const cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "bwlab %s: error: ", cmd->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nusage: %s\nTry 'bwlab help %s' for details.\n", cmd->usage, cmd->name);
    return bw_code_exit_status(BW_E_USAGE);
}

int cli_option_error(const cli_command *cmd, int c, char **argv)
{
    extern int optind, optopt;
    const char *arg = argv[optind - 1];
    if (c == ':')
        return cli_usage_error(cmd, "option '%s' needs a value", arg);
    if (optopt && !(arg[0] == '-' && arg[1] == '-'))
        return cli_usage_error(cmd, "unknown option '-%c'", optopt);
    return cli_usage_error(cmd, "unknown option '%s'", arg);
}

int cli_fail(const cli_command *cmd, const bw_error *err)
{
    fprintf(stderr, "bwlab %s: error: %s\n", cmd->name, bw_error_text(err));
    return bw_code_exit_status(err->code);
}

int cli_nomem(const cli_command *cmd)
{
    fprintf(stderr, "bwlab %s: error: out of memory\n", cmd->name);
    return bw_code_exit_status(BW_E_NOMEM);
}

bw_code cli_write_output(const char *path, const bw_buf *b, bw_error *err)
{
    if (bw_buf_failed(b))
        return bw_error_set(err, BW_E_NOMEM, "out of memory formatting the output");
    if (!path || !strcmp(path, "-")) {
        size_t n = b->len;
        if (n && fwrite(b->data, 1, n, stdout) != n)
            return bw_error_set(err, BW_E_IO, "cannot write to standard output: %s", strerror(errno));
        if (fflush(stdout) != 0)
            return bw_error_set(err, BW_E_IO, "cannot write to standard output: %s", strerror(errno));
        return BW_OK;
    }
    return bw_file_write(path, b->data ? b->data : "", b->len, err);
}

int cli_outputs_distinct(const cli_command *cmd, const char *const *paths, const char *const *what,
                         const int *outputs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (!paths[i] || !paths[j] || (!outputs[i] && !outputs[j]) || !bw_file_same_output(paths[i], paths[j]))
                continue;
            if (!strcmp(paths[i], paths[j]))
                return cli_usage_error(cmd, "%s and %s are the same file '%s': writing one would replace the other "
                                            "(name a different file for each)",
                                       what[i], what[j], paths[i]);
            return cli_usage_error(cmd, "%s '%s' and %s '%s' are the same file: writing one would replace the "
                                        "other (name a different file for each)",
                                   what[i], paths[i], what[j], paths[j]);
        }
    return 0;
}
