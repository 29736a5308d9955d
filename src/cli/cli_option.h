/* cli_option: a command's options as one table. Each entry says how the
 * option is spelt, whether it takes a value and may repeat, what its help
 * line says and under which heading, and how its value is stored; the
 * parser (the one getopt_long loop), the usage synopsis and the option
 * lines of `bwlab help CMD` are all generated from it, so that the three
 * never disagree. The options several commands share (--device, --format,
 * --output, --budget, --size, --kernels, --quiet) are parsed by the one
 * setter each below, with one limit each. */
#ifndef CLI_OPTION_H
#define CLI_OPTION_H

#include <stddef.h>
#include <stdint.h>

#include "bw_buf.h"
#include "cli_format.h"

struct cli_command;
struct cli_option;

/* Stores arg (NULL for a flag) at field, the command's state plus the
 * entry's offset. Returns 0, or the usage error's status after printing
 * it. */
typedef int (*cli_option_set)(const struct cli_command *cmd, const struct cli_option *opt, const char *arg,
                              void *field);

enum {
    CLI_OPT_REPEAT = 1u << 0,  /* may be given more than once (else a repeat is refused) */
    CLI_OPT_NEWLINE = 1u << 1, /* the synopsis starts a new line at this entry's token */
};

typedef struct cli_option {
    const char *name;    /* the long name, without "--" */
    const char *metavar; /* its value's name in the help ("FILE"); NULL: a flag, no value */
    const char *values;  /* its value in the synopsis where that differs ("table|json"), or NULL */
    unsigned flags;      /* CLI_OPT_* */
    const char *section; /* the heading the entry is listed under from here on ("Output:"), or NULL */
    const char *label;   /* the help's left column where it is not "--name METAVAR" (several options
                          * on one line), or NULL */
    const char *help;    /* the description, lines after the first indented by the generator; NULL:
                          * described in another entry's label or in the command's prose */
    const char *usage;   /* the synopsis token where it is not "[--name VALUES]" (a group such as
                          * "(--expr EXPR | --pattern SPEC)"); "": none, a neighbour's group names it */
    cli_option_set set;
    size_t offset;       /* where set stores, in the command's state */
    unsigned param;      /* the setter's parameter: for cli_set_format the allowed formats */
    const void *data;    /* the setter's data: for cli_set_size its cli_size_rule */
} cli_option;

/* A table ends with an entry whose name is NULL, and has at most
 * CLI_OPTIONS_MAX entries: the parser builds getopt_long's table on the
 * stack (tests/test_cli_options.c checks every command's). */
#define CLI_OPTIONS_MAX 48
#define CLI_OPTION_END { .name = NULL }

/* Parses argv (argv[0] the command's name) against cmd->options into
 * state: 0 with *operands the index of the first operand, or the usage
 * error's status (2) for an unknown option, a missing value, an option
 * without CLI_OPT_REPEAT given twice ("option '--output' given twice ('a'
 * and 'b'); give it once"), a value its setter refuses, or an operand
 * given to a command that takes none (cmd->operands NULL). */
int cli_options_parse(const struct cli_command *cmd, int argc, char **argv, void *state, int *operands);

/* The synopsis, "bwlab NAME ..." over lines indented under the first. */
void cli_options_usage(const struct cli_command *cmd, bw_buf *b);
/* The option lines of the help, with their section headings. */
void cli_options_help(const struct cli_command *cmd, bw_buf *b);

/* --- setters of the options several commands share --- */

/* const char *: the value as given (--device, --output, --kernels ...) */
int cli_set_string(const struct cli_command *cmd, const cli_option *opt, const char *arg, void *field);
/* int: 1 (--quiet, --explain ...) */
int cli_set_flag(const struct cli_command *cmd, const cli_option *opt, const char *arg, void *field);

/* --format: the format and whether it was given (else --output's
 * extension may pick it, cli_format_from_output) */
typedef struct cli_format_opt {
    cli_format format;
    int given;
} cli_format_opt;
/* cli_format_opt: one of the formats in opt->param (bit 1 << format) */
int cli_set_format(const struct cli_command *cmd, const cli_option *opt, const char *arg, void *field);
/* After parsing: --output (NULL: none) checked (cli_output_path_check),
 * then, without --format, its name picks *format among `allowed`
 * (cli_format_from_output). 0, or the usage error's status. */
int cli_output_format(const struct cli_command *cmd, const char *output, cli_format_opt *format, unsigned allowed);

/* The most seconds --budget takes, in every command: a day. A budget is
 * the caller's bound, never a safety net, and a whole run over several
 * devices, which --budget covers in 'bwlab run', can reasonably take
 * hours; so no command refuses what another accepts. */
#define CLI_BUDGET_MAX_S 86400.0
/* double: seconds, more than 0, at most CLI_BUDGET_MAX_S */
int cli_set_budget(const struct cli_command *cmd, const cli_option *opt, const char *arg, void *field);

/* What a --size (or --roofline-size) value must be. */
typedef struct cli_size_rule {
    int whole_mib;   /* 1: whole MiB, at least 1M; 0: any size above 0 bytes */
    const char *why; /* with whole_mib: why, said in the refusal */
} cli_size_rule;
/* uint64_t: bytes, 0 for "auto"; opt->data is its cli_size_rule */
int cli_set_size(const struct cli_command *cmd, const cli_option *opt, const char *arg, void *field);

/* The entries of the shared options: the spelling, the setter and its
 * limit are these; what the help says stays each command's (a budget
 * covers a whole run, or each device). flags: CLI_OPT_NEWLINE or 0. */
#define CLI_OPT_DEVICE(type, field, flags_, help_)                                                                   \
    { .name = "device", .metavar = "SPEC", .flags = (flags_), .help = (help_), .set = cli_set_string,               \
      .offset = offsetof(type, field) }
/* values: the formats the synopsis shows; allowed: the same, as format bits */
#define CLI_OPT_FORMAT(type, field, flags_, values_, allowed_, help_)                                                \
    { .name = "format", .metavar = "FORMAT", .values = (values_), .flags = (flags_), .help = (help_),               \
      .set = cli_set_format, .offset = offsetof(type, field), .param = (allowed_) }
#define CLI_OPT_OUTPUT(type, field, flags_, help_)                                                                   \
    { .name = "output", .metavar = "FILE", .flags = (flags_), .help = (help_), .set = cli_set_string,               \
      .offset = offsetof(type, field) }
#define CLI_OPT_BUDGET(type, field, flags_, help_)                                                                   \
    { .name = "budget", .metavar = "S", .flags = (flags_), .help = (help_), .set = cli_set_budget,                  \
      .offset = offsetof(type, field) }
/* rule: a const cli_size_rule * */
#define CLI_OPT_SIZE(type, field, flags_, rule_, help_)                                                              \
    { .name = "size", .metavar = "BYTES|auto", .flags = (flags_), .help = (help_), .set = cli_set_size,             \
      .offset = offsetof(type, field), .data = (rule_) }
#define CLI_OPT_KERNELS(type, field, flags_, help_)                                                                  \
    { .name = "kernels", .metavar = "DIR", .flags = (flags_), .help = (help_), .set = cli_set_string,               \
      .offset = offsetof(type, field) }
/* --format (as CLI_OPT_FORMAT) followed by --output (CLI_HELP_OUTPUT), as
 * the commands that write results list them */
#define CLI_OPT_FORMAT_OUTPUT(type, format_field, output_field, flags_, values_, allowed_, help_)                   \
    CLI_OPT_FORMAT(type, format_field, flags_, values_, allowed_, help_),                                          \
        CLI_OPT_OUTPUT(type, output_field, 0, CLI_HELP_OUTPUT)
#define CLI_OPT_QUIET(type, field, flags_)                                                                           \
    { .name = "quiet", .flags = (flags_), .help = CLI_HELP_QUIET, .set = cli_set_flag, .offset = offsetof(type, field) }

/* The help lines of the shared options where commands say the same. */
#define CLI_HELP_DEVICE                                                                                              \
    "index from 'bwlab devices', part of a device name, cpu, gpu or all\n"                                         \
    "(default: the first GPU, else the first device)"
#define CLI_HELP_OUTPUT "write the results there instead of standard output ('-')"
#define CLI_HELP_FORMAT_ALL "table (default), csv, json or md; --output FILE.json etc. picks it too"
#define CLI_HELP_QUIET "no progress line on standard error"

/* The option tables, one per command, each beside the command's code */
extern const cli_option cmd_model_options[], cmd_run_options[], cmd_tune_options[],
    cmd_roofline_options[], cmd_probe_options[], cmd_patterns_options[], cmd_devices_options[],
    cmd_compare_options[], cmd_report_options[];

#endif
