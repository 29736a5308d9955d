#include "cli_format.h"

#include <string.h>

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
