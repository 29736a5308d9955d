/* report_devices: the OpenCL devices bwlab found (`bwlab devices`) as a
 * table or one JSON object, and the JSON description of one device that
 * results files embed. Formatting only: every value comes from
 * bench_device. */
#ifndef REPORT_DEVICES_H
#define REPORT_DEVICES_H

#include <jansson.h>
#include <stddef.h>

#include "bw_buf.h"
#include "bw_error.h"
#include "bench_device.h"

/* One device as a JSON object (a new reference the caller owns), with its
 * profile; "default" is is_default. NULL when out of memory. */
json_t *report_device_json(const bench_device *d, int is_default);

/* The line that heads a device's section in every table: "LEAD device N
 * (default): NAME (PLATFORM, driver VERSION)" and a newline. */
void report_device_line(bw_buf *out, const char *lead, const bench_device *d, int is_default);

/* A device section with nothing to show: "FAILED: WHY" when failure is
 * set, else "NOT RUN: interrupted before it was WHAT" when nothing was
 * measured. Returns 1 when it wrote one of them: the section ends there. */
int report_device_unmeasured(bw_buf *out, const char *failure, int measured, const char *what);

/* The devices of l: a summary line each, then their details; the default
 * device is marked. */
void report_devices_table(const bench_device_list *l, bw_buf *out);
/* {"tool", "version", "default_device", "devices": [...]} for the same
 * devices. */
bw_code report_devices_json(const bench_device_list *l, bw_buf *out, bw_error *err);

#endif
