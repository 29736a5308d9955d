/* cli_format: --format parsed against a command's allowed formats, the
 * list of them for its error, and the format taken from --output's
 * extension when none is given (cli_format.h). */
#include "cli_format.h"

#include <string.h>

#include "cli.h"

static const char *const names[] = { "table", "json", "csv", "md" };

int cli_format_parse(const char *s, unsigned allowed, cli_format *out)
{
    for (int i = 0; i < 4; i++) {
        if ((allowed & (1u << i)) && !strcmp(s, names[i])) {
            *out = (cli_format)i;
            return 0;
        }
    }
    return -1;
}

const char *cli_format_list(unsigned allowed)
{
    static char buf[32];
    buf[0] = '\0';
    for (int i = 0; i < 4; i++) {
        if (!(allowed & (1u << i)))
            continue;
        if (buf[0])
            strcat(buf, "|");
        strcat(buf, names[i]);
    }
    return buf;
}

void cli_format_from_output(const char *output, int format_given, unsigned allowed, cli_format *format)
{
    const char *dot = output ? strrchr(output, '.') : NULL;
    if (!format_given && dot)
        cli_format_parse(dot + 1, allowed, format);
}

int cli_format_option(const struct cli_command *cmd, const char *arg, unsigned allowed, cli_format *out)
{
    if (cli_format_parse(arg, allowed, out) == 0)
        return 0;
    return cli_usage_error(cmd, "--format: '%s' is not one of %s", arg, cli_format_list(allowed));
}
