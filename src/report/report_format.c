#include "report_format.h"

#include "bw_format.h"

#include <math.h>
#include <stdlib.h>

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

json_t *report_json_real(double v, int valid)
{
    if (!valid || !isfinite(v))
        return json_null();
    return json_real(v);
}

bw_code report_json_dump(json_t *root, bw_buf *out, bw_error *err)
{
    if (!root)
        return bw_error_set(err, BW_E_NOMEM, "out of memory building JSON");
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
    json_decref(root);
    if (!s)
        return bw_error_set(err, BW_E_NOMEM, "out of memory writing JSON");
    bw_buf_puts(out, s);
    bw_buf_putc(out, '\n');
    free(s);
    return BW_OK;
}
