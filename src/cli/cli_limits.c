/* cli_limits: the rule a roofline buffer's size option follows, and the
 * date and host stamp of results (cli_limits.h). */
#include "cli_limits.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

const cli_size_rule cli_roofline_size_rule = { 1, "the roofline's buffer is whole MiB" };

void cli_iso_date(char *buf, size_t n)
{
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tmv);
}

void cli_host_identity(char *host, size_t nh, char *os, size_t no)
{
    if (gethostname(host, nh - 1) != 0)
        snprintf(host, nh, "unknown");
    host[nh - 1] = '\0';
    snprintf(os, no, "unknown");
    struct utsname un;
    if (uname(&un) == 0)
        snprintf(os, no, "%s %s %s", un.sysname, un.release, un.machine);
}
