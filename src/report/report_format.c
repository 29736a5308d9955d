/* report_format: the helpers the report writers share: bytes and
 * percentages, figures in a bounded width, and CSV fields and numbers
 * (report_format.h). */
#include "report_format.h"

#include "bw_format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void report_bytes(bw_buf *out, double bytes)
{
    char buf[32];
    bw_format_bytes(buf, sizeof buf, bytes);
    bw_buf_puts(out, buf);
}

void report_percent(bw_buf *out, double fraction, int valid)
{
    if (!valid || !isfinite(fraction))
        bw_buf_puts(out, "n/a");
    else
        bw_buf_printf(out, "%.1f%%", fraction * 100.0);
}

void report_csv_field(bw_buf *out, const char *s)
{
    /* control bytes (a newline too) as \xNN, as every message shows them:
     * a CSV file goes to terminals and line-based tools as often as to
     * spreadsheets */
    bw_buf t = BW_BUF_INIT;
    bw_quote_append(&t, s, strlen(s), 0, 0);
    const char *q = bw_buf_str(&t);
    if (!strpbrk(q, ",\"")) {
        bw_buf_puts(out, q);
        bw_buf_free(&t);
        return;
    }
    bw_buf_putc(out, '"');
    for (; *q; q++) {
        if (*q == '"')
            bw_buf_putc(out, '"');
        bw_buf_putc(out, *q);
    }
    bw_buf_putc(out, '"');
    bw_buf_free(&t);
}

const char *report_num_fixed(char *buf, double v, int prec)
{
    if (!isfinite(v))
        snprintf(buf, REPORT_NUM_MAX, "n/a");
    else if (fabs(v) < 1e9)
        snprintf(buf, REPORT_NUM_MAX, "%.*f", prec < 0 ? 0 : prec > 4 ? 4 : prec, v);
    else
        snprintf(buf, REPORT_NUM_MAX, "%.3g", v);
    return buf;
}

void report_csv_num(bw_buf *out, double v, int valid)
{
    bw_buf_putc(out, ',');
    if (!valid || !isfinite(v))
        return;
    /* whole numbers as integers (a count, bytes: never 2.10174e+06), the
     * rest in the fewest digits that read back as the same double */
    if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        bw_buf_printf(out, "%.0f", v);
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    bw_buf_puts(out, buf);
}

