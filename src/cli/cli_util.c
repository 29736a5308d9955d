/* cli_util: what every command shares: its help text, its error and
 * warning lines (escaped: cli.h), its output's destination and checks. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bw_file.h"
#include "bw_format.h"
#include "cli.h"
#include "cli_option.h"

/* the next quote at or after p that opens a quoted value: at the start or
 * after a space, '(', '=' or ',' (not the apostrophe of "device's") */
static const char *open_quote(const char *msg, const char *p)
{
    for (const char *q = strchr(p, '\''); q; q = strchr(q + 1, '\''))
        if (q == msg || strchr(" (=,[\"", q[-1]))
            return q;
    return NULL;
}

/* the quote that closes a value opened before p: followed by the end, a
 * space or punctuation */
static const char *close_quote(const char *p)
{
    for (const char *q = strchr(p, '\''); q; q = strchr(q + 1, '\''))
        if (!q[1] || strchr(" ),;:.]\"", q[1]))
            return q;
    return NULL;
}

/* msg as it reaches the terminal: control bytes escaped; a quoted run
 * ('...': a path, a name, a value from outside) has its newlines escaped
 * too, whatever keep_newlines lets through elsewhere (a library's
 * multi-line message), so that it never splits a message over two lines;
 * with cut, each quoted run longer than BW_QUOTE_SHOWN bytes shortened */
static void print_sanitized(const char *msg, int keep_newlines, int cut)
{
    bw_buf b = BW_BUF_INIT;
    const char *p = msg;
    while (*p) {
        const char *q = open_quote(msg, p);
        const char *close = q ? close_quote(q + 1) : NULL;
        if (!close) {
            bw_quote_append(&b, p, strlen(p), 0, keep_newlines);
            break;
        }
        bw_quote_append(&b, p, (size_t)(q + 1 - p), 0, keep_newlines);
        bw_quote_append(&b, q + 1, (size_t)(close - q - 1), cut ? BW_QUOTE_SHOWN : 0, 0);
        bw_buf_putc(&b, '\'');
        p = close + 1;
    }
    fputs(bw_buf_failed(&b) ? "(out of memory)" : bw_buf_str(&b), stderr);
    bw_buf_free(&b);
}

void cli_command_help(const cli_command *cmd, bw_buf *b)
{
    bw_buf_puts(b, "usage: ");
    cli_options_usage(cmd, b);
    bw_buf_printf(b, "\n\n%s.\n", cmd->summary);
    bw_buf body = BW_BUF_INIT;
    if (cmd->operands_help)
        bw_buf_puts(&body, cmd->operands_help);
    cli_options_help(cmd, &body);
    for (size_t i = 0; cmd->notes && cmd->notes[i]; i++)
        bw_buf_puts(&body, cmd->notes[i]);
    if (body.len || bw_buf_failed(&body))
        bw_buf_printf(b, "\n%s", bw_buf_failed(&body) ? "(out of memory)\n" : bw_buf_str(&body));
    bw_buf_free(&body);
}

/* "PREFIX: KIND: MESSAGE" (no KIND when NULL) with every control byte of
 * the message escaped; with cut, long quoted values shortened
 * (print_sanitized) */
static void print_line(const char *prefix, const char *kind, int keep_newlines, int cut, const char *fmt,
                       va_list ap)
{
    va_list again;
    va_copy(again, ap);
    char small[1024];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    char *msg = n >= (int)sizeof small ? malloc((size_t)n + 1) : NULL;
    if (msg)
        vsnprintf(msg, (size_t)n + 1, fmt, again);
    va_end(again);
    fputs(prefix, stderr);
    fputs(": ", stderr);
    if (kind)
        fprintf(stderr, "%s: ", kind);
    print_sanitized(msg ? msg : small, keep_newlines, cut);
    fputc('\n', stderr);
    free(msg);
}

/* "bwlab CMD" */
#define CMD_PREFIX(cmd) char prefix[64]; snprintf(prefix, sizeof prefix, "bwlab %s", (cmd)->name)

void cli_print_line(const char *prefix, const char *kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_line(prefix, kind, 0, 0, fmt, ap);
    va_end(ap);
}

void cli_say(const cli_command *cmd, const char *fmt, ...)
{
    CMD_PREFIX(cmd);
    va_list ap;
    va_start(ap, fmt);
    print_line(prefix, NULL, 0, 0, fmt, ap);
    va_end(ap);
}

void cli_warn(const cli_command *cmd, const char *fmt, ...)
{
    CMD_PREFIX(cmd);
    va_list ap;
    va_start(ap, fmt);
    print_line(prefix, "warning", 0, 0, fmt, ap);
    va_end(ap);
}

void cli_note(const cli_command *cmd, const char *fmt, ...)
{
    CMD_PREFIX(cmd);
    va_list ap;
    va_start(ap, fmt);
    print_line(prefix, "note", 0, 0, fmt, ap);
    va_end(ap);
}

void cli_error_line(const cli_command *cmd, const char *fmt, ...)
{
    CMD_PREFIX(cmd);
    va_list ap;
    va_start(ap, fmt);
    print_line(prefix, "error", 0, 0, fmt, ap);
    va_end(ap);
}

void cli_error_block(const cli_command *cmd, const char *fmt, ...)
{
    CMD_PREFIX(cmd);
    va_list ap;
    va_start(ap, fmt);
    print_line(prefix, "error", 1, 0, fmt, ap);
    va_end(ap);
}

int cli_usage_error(const cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    CMD_PREFIX(cmd);
    va_start(ap, fmt);
    print_line(prefix, "error", 0, 1, fmt, ap);
    va_end(ap);
    bw_buf usage = BW_BUF_INIT;
    cli_options_usage(cmd, &usage);
    fprintf(stderr, "usage: %s\nTry 'bwlab help %s' for details.\n",
            bw_buf_failed(&usage) ? cmd->name : bw_buf_str(&usage), cmd->name);
    bw_buf_free(&usage);
    return bw_code_exit_status(BW_E_USAGE);
}

int cli_fail(const cli_command *cmd, const bw_error *err)
{
    fprintf(stderr, "bwlab %s: error: ", cmd->name);
    print_sanitized(bw_error_text(err), 1, 0);
    fputc('\n', stderr);
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

int cli_output_not_cache(const cli_command *cmd, const char *output, const char *cache, const char *what)
{
    const char *paths[] = { output, cache };
    const char *whats[] = { "--output", what };
    const int outputs[] = { 1, 1 };
    return cli_outputs_distinct(cmd, paths, whats, outputs, 2);
}

int cli_output_path_check(const cli_command *cmd, const char *flag, const char *path)
{
    if (path && !*path)
        return cli_usage_error(cmd, "%s: the path is empty; name a file, or use '-' for standard output", flag);
    return 0;
}
