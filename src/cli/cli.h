/* cli: the command-line front end. One cmd_<name>.c per subcommand; the
 * table in cli_commands.c lists them. Commands parse options, call the
 * library, hand results to src/report, and map errors to exit statuses
 * (bw_code_exit_status). Diagnostics go to stderr, data to stdout. */
#ifndef CLI_H
#define CLI_H

#include <stddef.h>

#include "bw_buf.h"
#include "bw_error.h"

struct cli_option;

typedef struct cli_command {
    const char *name;
    const char *summary;  /* one line for `bwlab --help` */
    const char *operands; /* the operands in the synopsis ("FILE|DIR..."), or NULL: it takes none */
    /* its options (cli_option.h), from which the parser, the synopsis and
     * the option lines of the help are generated; NULL: none */
    const struct cli_option *options;
    const char *operands_help; /* help text before the options (the operands'), or NULL */
    /* help text after the options, the prose about no one option: several
     * string literals, each within the compiler's 4095-character limit
     * (-Woverlength-strings), NULL-terminated; or NULL */
    const char *const *notes;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cli_command;

const cli_command *cli_commands(size_t *count);
const cli_command *cli_find(const char *name);

/* Prints "bwlab NAME: error: MSG", the synopsis and a hint to stderr;
 * returns 2. The message is user input's echo: every control byte in it is
 * shown escaped and a quoted value ('...') longer than BW_QUOTE_SHOWN
 * bytes is cut (bw_quote_append). */
int cli_usage_error(const cli_command *cmd, const char *fmt, ...) BW_PRINTF(2, 3);
/* Prints "bwlab NAME: error: MSG" for a library error; returns its exit
 * status. Control bytes other than newline and tab are shown escaped. */
int cli_fail(const cli_command *cmd, const bw_error *err);
/* "bwlab CMD: error: out of memory" on stderr; returns exit status 1 (a
 * runtime failure, never the usage status). */
int cli_nomem(const cli_command *cmd);
/* "bwlab CMD: warning: MESSAGE" on stderr, the message's control bytes and
 * newlines escaped (bw_quote_append): it may quote a path or a field read
 * from a file. */
void cli_warn(const cli_command *cmd, const char *fmt, ...) BW_PRINTF(2, 3);
/* "bwlab CMD: note: MESSAGE", escaped the same way */
void cli_note(const cli_command *cmd, const char *fmt, ...) BW_PRINTF(2, 3);
/* "bwlab CMD: error: MESSAGE", escaped the same way (one of several
 * errors that do not end the command, such as an input skipped) */
void cli_error_line(const cli_command *cmd, const char *fmt, ...) BW_PRINTF(2, 3);
/* "bwlab CMD: error: MESSAGE", control bytes escaped but newlines outside
 * quoted values kept: a failure that carries a multi-line text of its own
 * (a kernel's build log) */
void cli_error_block(const cli_command *cmd, const char *fmt, ...) BW_PRINTF(2, 3);
/* "bwlab CMD: MESSAGE", escaped as cli_warn (a line with no kind) */
void cli_say(const cli_command *cmd, const char *fmt, ...) BW_PRINTF(2, 3);
/* "PREFIX: KIND: MESSAGE" (KIND NULL: none), escaped as cli_warn: for code
 * with no command at hand (the top level, a shared writer given its
 * program's name). Every line of outside text reaches stderr through
 * print_line, this file's one printer. */
void cli_print_line(const char *prefix, const char *kind, const char *fmt, ...) BW_PRINTF(3, 4);
/* 0 when path (the value of flag, an output file) names a file, else the
 * usage error's status: an empty path is refused ("use '-' for standard
 * output"), never read as standard output. */
int cli_output_path_check(const struct cli_command *cmd, const char *flag, const char *path);

/* Writes b to `path` (bw_file_write: atomic for regular files, through
 * for devices, FIFOs and links) or to stdout when path is NULL or "-". */
bw_code cli_write_output(const char *path, const bw_buf *b, bw_error *err);
/* Refuses two outputs (or an output and a file the command reads, such
 * as its cache) that are one file: same device and inode through links,
 * or the same new file (bw_file_same_output). paths[i] (NULL: none) is
 * named by what[i] ("--output", "--report", "the tuning cache"). Returns
 * 0, or prints a usage error naming both and returns 2; outputs[i] says
 * whether paths[i] is written (two inputs are never compared). */
int cli_outputs_distinct(const cli_command *cmd, const char *const *paths, const char *const *what,
                         const int *outputs, size_t n);
/* --output (may be NULL) over the command's own cache (`what`: "the
 * tuning cache") is refused: cli_outputs_distinct of the two, both
 * written. */
int cli_output_not_cache(const cli_command *cmd, const char *output, const char *cache, const char *what);
/* Full help text of a command into b: the synopsis, the summary, the
 * operands' text, the options' lines and the notes. */
void cli_command_help(const cli_command *cmd, bw_buf *b);

int cmd_model(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_patterns(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_roofline(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_help(int argc, char **argv);

#endif
