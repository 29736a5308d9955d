/* results_json_write: how every bwlab document is written: its head,
 * its numbers and text, and its dump as an indented document or as one
 * JSON line (results_json.h). */
#include "results_json.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "bwlab_config.h"

json_t *results_json_real(double v, int valid)
{
    if (!valid || !isfinite(v))
        return json_null();
    return json_real(v);
}

/* root (consumed) as text with jansson's flags, and a final newline */
static bw_code dump(json_t *root, size_t flags, bw_buf *out, bw_error *err)
{
    if (!root)
        return bw_error_set(err, BW_E_NOMEM, "out of memory building JSON");
    char *s = json_dumps(root, flags);
    json_decref(root);
    if (!s)
        return bw_error_set(err, BW_E_NOMEM, "out of memory writing JSON");
    bw_buf_puts(out, s);
    bw_buf_putc(out, '\n');
    free(s);
    return BW_OK;
}

bw_code results_json_dump(json_t *root, bw_buf *out, bw_error *err)
{
    return dump(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15), out, err);
}

bw_code results_json_line(json_t *root, bw_buf *out, bw_error *err)
{
    return dump(root, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17), out, err);
}

json_t *results_json_text(const char *s)
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

json_t *results_json_document(const char *schema, int version, const char *date, int argc, char *const *argv)
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
        json_array_append_new(cmd, results_json_text(argv[i]));
    json_object_set_new(o, "command_line", cmd);
    return o;
}

json_t *results_json_words(const char *list)
{
    json_t *a = json_array();
    char buf[64], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        json_array_append_new(a, json_string(t));
    return a;
}
