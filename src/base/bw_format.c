#include "bw_format.h"

#include <math.h>
#include <stdio.h>

void bw_format_bytes(char *buf, size_t n, double bytes)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    double v = bytes;
    int u = 0;
    while (fabs(v) >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, n, "%.0f B", v);
    else
        snprintf(buf, n, "%.2f %s", v, units[u]);
}
