/* cli: the command-line front end. One cmd_<name>.c per subcommand; the
 * table in cli_commands.c lists them. Commands parse options, call the
 * library, hand results to src/report, and map errors to exit statuses
 * (bw_code_exit_status). Diagnostics go to stderr, data to stdout. */
#ifndef CLI_H
#define CLI_H

#include <stddef.h>

#include "bw_buf.h"
#include "bw_error.h"

typedef struct cli_command {
    const char *name;
    const char *summary; /* one line for `bwlab --help` */
    const char *usage;   /* synopsis lines, usage notation */
    const char *help;    /* option descriptions for `bwlab help NAME` */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cli_command;

/* NULL, or the rest of a command's help, printed after cmd->help in order
 * (NULL ends it): a long help in several string literals, each within the
 * compiler's 4095-character limit (-Woverlength-strings). A static table,
 * never to be freed. */
const char *const *cli_command_help_more(const cli_command *cmd);

const cli_command *cli_commands(size_t *count);
const cli_command *cli_find(const char *name);

/* Prints "bwlab NAME: error: MSG", the synopsis and a hint to stderr;
 * returns 2. */
int cli_usage_error(const cli_command *cmd, const char *fmt, ...) BW_PRINTF(2, 3);
/* Handles getopt_long's '?' and ':' results (opterr must be 0 and the
 * option string start with ':'); returns 2. */
int cli_option_error(const cli_command *cmd, int c, char **argv);
/* Prints "bwlab NAME: error: MSG" for a library error; returns its exit
 * status. */
int cli_fail(const cli_command *cmd, const bw_error *err);
/* "bwlab CMD: error: out of memory" on stderr; returns exit status 1 (a
 * runtime failure, never the usage status). */
int cli_nomem(const cli_command *cmd);
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
/* Full help text of a command into b. */
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
