/* cli_format: parsing of the --format flag shared by commands. */
#ifndef CLI_FORMAT_H
#define CLI_FORMAT_H

typedef enum cli_format {
    CLI_FORMAT_TABLE,
    CLI_FORMAT_JSON,
    CLI_FORMAT_CSV,
    CLI_FORMAT_MD,
} cli_format;

/* Sets of allowed formats, a bit 1 << format each */
#define CLI_FORMATS_TABLE_JSON ((1u << CLI_FORMAT_TABLE) | (1u << CLI_FORMAT_JSON))
#define CLI_FORMATS_ALL (CLI_FORMATS_TABLE_JSON | (1u << CLI_FORMAT_CSV) | (1u << CLI_FORMAT_MD))

/* Parses `s` against the allowed formats (bit 1<<format). Returns 0 and
 * sets *out, or -1 when not allowed. */
int cli_format_parse(const char *s, unsigned allowed, cli_format *out);
/* "table|json" style list of the allowed formats */
const char *cli_format_list(unsigned allowed);

struct cli_command;
/* The --format option of `cmd`: 0 with *out set, or the usage error's exit
 * status (2) after printing it. */
int cli_format_option(const struct cli_command *cmd, const char *arg, unsigned allowed, cli_format *out);
/* Without --format (format_given 0), a known extension of `output` (may be
 * NULL) picks *format; otherwise *format stays. */
void cli_format_from_output(const char *output, int format_given, unsigned allowed, cli_format *format);

#endif
