/* report_format: the helpers the report writers share: bytes and
 * percentages, JSON numbers, text and document heads, JSON dumps, and
 * CSV fields and numbers (report_format.h). */
#include "report_format.h"

#include "bw_format.h"
#include "bwlab_config.h"

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

bw_code report_json_line(json_t *root, bw_buf *out, bw_error *err)
{
    if (!root)
        return bw_error_set(err, BW_E_NOMEM, "out of memory building JSON");
    char *s = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(root);
    if (!s)
        return bw_error_set(err, BW_E_NOMEM, "out of memory writing JSON");
    bw_buf_puts(out, s);
    bw_buf_putc(out, '\n');
    free(s);
    return BW_OK;
}

json_t *report_json_text(const char *s)
{
    if (!s)
        return json_null();
    json_t *j = json_string(s);
    if (j)
        return j;
    char *copy = strdup(s);
    if (!copy)
        return NULL;
    for (char *c = copy; *c; c++)
        if ((unsigned char)*c >= 0x80)
            *c = '?';
    j = json_string(copy);
    free(copy);
    return j;
}

json_t *report_json_document(const char *schema, int version, const char *date, int argc, char *const *argv)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "schema", json_string(schema));
    json_object_set_new(o, "schema_version", json_integer(version));
    json_t *tool = json_object();
    json_object_set_new(tool, "name", json_string("bwlab"));
    json_object_set_new(tool, "version", json_string(BWLAB_VERSION));
    json_object_set_new(o, "tool", tool);
    json_object_set_new(o, "date", json_string(date));
    json_t *cmd = json_array();
    for (int i = 0; i < argc; i++)
        json_array_append_new(cmd, report_json_text(argv[i]));
    json_object_set_new(o, "command_line", cmd);
    return o;
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

