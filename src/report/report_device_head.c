/* report_device_head: a device section's head line and its "FAILED" or
 * "NOT RUN" line, from a results document's device object
 * (report_device_head.h). */
#include "report_device_head.h"
#include "report_device_head_priv.h"

static const char *text(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

void report_device_line_of(bw_buf *out, const char *lead, unsigned long long index, int is_default, const char *name,
                           const char *platform, const char *driver)
{
    bw_buf_printf(out, "%sdevice %llu%s: %s (%s, driver %s)\n", lead, index, is_default ? " (default)" : "",
                  name ? name : "", platform ? platform : "", driver ? driver : "");
}

void report_device_line_json(bw_buf *out, const char *lead, const json_t *device)
{
    report_device_line_of(out, lead, (unsigned long long)json_integer_value(json_object_get(device, "index")),
                          json_is_true(json_object_get(device, "default")), text(device, "name"),
                          text(device, "platform"), text(device, "driver_version"));
}

int report_device_unmeasured(bw_buf *out, const char *failure, int measured, const char *what)
{
    if (failure)
        bw_buf_printf(out, "FAILED: %s\n", failure);
    else if (!measured)
        bw_buf_printf(out, "NOT RUN: interrupted before it was %s\n", what);
    return failure || !measured;
}
