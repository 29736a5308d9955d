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
 * returns 2. The message is user input's echo: every control byte in it is
 * shown escaped and a quoted value ('...') longer than BW_QUOTE_SHOWN
 * bytes is cut (bw_quote_append). */
int cli_usage_error(const cli_command *cmd, const char *fmt, ...) BW_PRINTF(2, 3);
/* Handles getopt_long's '?' and ':' results (opterr must be 0 and the
 * option string start with ':'); returns 2. */
int cli_option_error(const cli_command *cmd, int c, char **argv);
/* Prints "bwlab NAME: error: MSG" for a library error; returns its exit
 * status. Control bytes other than newline and tab are shown escaped. */
int cli_fail(const cli_command *cmd, const bw_error *err);
/* "bwlab CMD: error: out of memory" on stderr; returns exit status 1 (a
 * runtime failure, never the usage status). */
int cli_nomem(const cli_command *cmd);
struct option;

/* What cli_getopt remembers of a command's options: the one getopt_long
 * loop every command runs through, so that every command treats a
 * repeated option alike. */
#define CLI_GETOPT_MAX 48
#define CLI_GETOPT_FAILED (-2)
typedef struct cli_getopt_state {
    const struct cli_command *cmd;
    const struct option *opts;     /* the getopt_long table, { 0 }-terminated, at most CLI_GETOPT_MAX */
    const char *const *repeatable; /* long names that may be given more than once (documented "may
                                    * repeat" in the command's help), NULL-terminated; or NULL */
    const char *first[CLI_GETOPT_MAX]; /* per table entry: its first value ("" for a flag), or NULL */
    int status;                    /* the exit status once cli_getopt returned CLI_GETOPT_FAILED */
} cli_getopt_state;

/* Starts option parsing of argv (argv[0] the command's name): resets
 * getopt (optind 0, opterr 0). */
void cli_getopt_start(cli_getopt_state *g, const struct cli_command *cmd, const struct option *opts,
                      const char *const *repeatable);
/* getopt_long(argc, argv, ":", opts, ...) with the command's rules: returns
 * the next option's val (optarg set as getopt_long sets it), -1 after the
 * last option (optind at the first operand), or CLI_GETOPT_FAILED after
 * printing the usage error (g->status: 2) for an unknown option, a missing
 * value, or an option not in g->repeatable given a second time ("option
 * '--output' given twice ('a' and 'b'); give it once"). */
int cli_getopt(cli_getopt_state *g, int argc, char **argv);
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
