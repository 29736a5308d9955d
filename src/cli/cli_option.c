/* cli_option: the getopt_long parser, usage synopsis and help lines
 * generated from a command's option table, and the setters of the shared
 * options (cli_option.h). */
#include "cli_option.h"

#include <stdio.h>
#include <string.h>

#include <getopt.h>

#include "bw_parse.h"
#include "cli.h"

/* getopt_long's val of entry i: above every character, so that no short
 * option is ever matched */
#define VAL_BASE 256

/* getopt_long's '?' (unknown, or ambiguous) and ':' (no value) results */
static int option_error(const cli_command *cmd, int c, char **argv)
{
    const char *arg = argv[optind - 1];
    if (c == ':')
        return cli_usage_error(cmd, "option '%s' needs a value", arg);
    if (optopt && !(arg[0] == '-' && arg[1] == '-'))
        return cli_usage_error(cmd, "unknown option '-%c'", optopt);
    return cli_usage_error(cmd, "unknown option '%s'", arg);
}

/* never silently the last value: a repeat of a one-value option is far
 * more often a mistake (an edited command line) than an intent */
static int repeat_error(const cli_command *cmd, const char *name, const char *first)
{
    if (!optarg)
        return cli_usage_error(cmd, "option '--%s' given twice; give it once", name);
    return cli_usage_error(cmd, "option '--%s' given twice ('%s' and '%s'); give it once", name, first, optarg);
}

int cli_options_parse(const cli_command *cmd, int argc, char **argv, void *state, int *operands)
{
    struct option opts[CLI_OPTIONS_MAX + 1];
    const char *first[CLI_OPTIONS_MAX]; /* per entry: its first value ("" for a flag), or NULL */
    size_t n = 0;
    for (const cli_option *o = cmd->options; o && o->name && n < CLI_OPTIONS_MAX; o++, n++)
        opts[n] = (struct option){ o->name, o->metavar ? required_argument : no_argument, NULL, VAL_BASE + (int)n };
    memset(&opts[n], 0, sizeof opts[n]);
    memset(first, 0, sizeof first);
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (c < VAL_BASE || c >= VAL_BASE + (int)n)
            return option_error(cmd, c, argv);
        size_t i = (size_t)(c - VAL_BASE);
        const cli_option *o = &cmd->options[i];
        if (first[i] && !(o->flags & CLI_OPT_REPEAT))
            return repeat_error(cmd, o->name, first[i]);
        if (!first[i])
            first[i] = optarg ? optarg : "";
        int st = o->set(cmd, o, optarg, (char *)state + o->offset);
        if (st)
            return st;
    }
    if (!cmd->operands && optind < argc)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    *operands = optind;
    return 0;
}

/* "--name METAVAR", the option as the help and the synopsis spell it */
static void put_spelling(bw_buf *b, const cli_option *o, const char *value)
{
    bw_buf_printf(b, "--%s", o->name);
    if (value)
        bw_buf_printf(b, " %s", value);
}

void cli_options_usage(const cli_command *cmd, bw_buf *b)
{
    size_t indent = strlen("bwlab ") + strlen(cmd->name) + 1;
    bw_buf_printf(b, "bwlab %s", cmd->name);
    if (cmd->operands)
        bw_buf_printf(b, " %s", cmd->operands);
    for (const cli_option *o = cmd->options; o && o->name; o++) {
        if (o->usage && !*o->usage)
            continue;
        if (o->flags & CLI_OPT_NEWLINE)
            bw_buf_printf(b, "\n%*s", (int)indent, "");
        else
            bw_buf_putc(b, ' ');
        if (o->usage) {
            bw_buf_puts(b, o->usage);
            continue;
        }
        bw_buf_putc(b, '[');
        put_spelling(b, o, o->values ? o->values : o->metavar);
        bw_buf_putc(b, ']');
        if (o->flags & CLI_OPT_REPEAT)
            bw_buf_puts(b, "...");
    }
}

/* the column the descriptions start at; a longer label is followed by two
 * spaces instead */
#define HELP_COLUMN 22

void cli_options_help(const cli_command *cmd, bw_buf *b)
{
    for (const cli_option *o = cmd->options; o && o->name; o++) {
        if (o->section)
            bw_buf_printf(b, "%s\n", o->section);
        if (!o->help)
            continue;
        size_t start = b->len;
        bw_buf_puts(b, "  ");
        if (o->label)
            bw_buf_puts(b, o->label);
        else
            put_spelling(b, o, o->metavar);
        size_t width = b->len - start;
        bw_buf_printf(b, "%*s", width + 2 <= HELP_COLUMN ? (int)(HELP_COLUMN - width) : 2, "");
        for (const char *p = o->help; *p;) {
            size_t len = strcspn(p, "\n");
            bw_buf_printf(b, "%.*s\n", (int)len, p);
            p += len;
            if (*p && *++p)
                bw_buf_printf(b, "%*s", HELP_COLUMN, "");
        }
    }
}

int cli_set_string(const cli_command *cmd, const cli_option *opt, const char *arg, void *field)
{
    (void)cmd;
    (void)opt;
    *(const char **)field = arg;
    return 0;
}

int cli_set_flag(const cli_command *cmd, const cli_option *opt, const char *arg, void *field)
{
    (void)cmd;
    (void)opt;
    (void)arg;
    *(int *)field = 1;
    return 0;
}

int cli_set_format(const cli_command *cmd, const cli_option *opt, const char *arg, void *field)
{
    cli_format_opt *f = field;
    f->given = 1;
    return cli_format_option(cmd, arg, opt->param, &f->format);
}

int cli_output_format(const cli_command *cmd, const char *output, cli_format_opt *format, unsigned allowed)
{
    int st = cli_output_path_check(cmd, "--output", output);
    if (st == 0)
        cli_format_from_output(output, format->given, allowed, &format->format);
    return st;
}

int cli_set_budget(const cli_command *cmd, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    double *budget_s = field;
    bw_error err = BW_ERROR_INIT;
    int st = 0;
    if (bw_parse_double(arg, "--budget", budget_s, &err) != BW_OK)
        st = cli_usage_error(cmd, "%s", bw_error_text(&err));
    else if (!(*budget_s > 0) || *budget_s > CLI_BUDGET_MAX_S)
        st = cli_usage_error(cmd, "--budget: '%s' seconds is out of range (more than 0, at most %.0f)", arg,
                             CLI_BUDGET_MAX_S);
    bw_error_clear(&err);
    return st;
}

int cli_set_size(const cli_command *cmd, const cli_option *opt, const char *arg, void *field)
{
    const uint64_t mib = (uint64_t)1 << 20;
    const cli_size_rule *rule = opt->data;
    uint64_t *size = field, u = 0;
    char flag[64];
    snprintf(flag, sizeof flag, "--%s", opt->name);
    if (!strcmp(arg, "auto")) {
        *size = 0;
        return 0;
    }
    bw_error err = BW_ERROR_INIT;
    int st = 0;
    if (bw_parse_bytes(arg, flag, &u, &err) != BW_OK)
        st = cli_usage_error(cmd, "%s (or 'auto')", bw_error_text(&err));
    else if (rule->whole_mib && (u < mib || u % mib != 0))
        st = cli_usage_error(cmd, "%s: '%s' is not a whole number of MiB (at least 1M): %s", flag, arg, rule->why);
    else if (u == 0)
        st = cli_usage_error(cmd, "%s: '%s' must be more than 0 bytes", flag, arg);
    else
        *size = u;
    bw_error_clear(&err);
    return st;
}
