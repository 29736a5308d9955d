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
#include "report_device_head.h"

/* The line that heads a device's section in every table: "LEAD device N
 * (default): NAME (PLATFORM, driver VERSION)" and a newline
 * (report_device_line_of). */
void report_device_line(bw_buf *out, const char *lead, const bench_device *d, int is_default);


/* The devices of l: a summary line each, then their details; the default
 * device is marked. */
void report_devices_table(const bench_device_list *l, bw_buf *out);
/* {"tool", "version", "default_device", "devices": [...]} for the same
 * devices. */
bw_code report_devices_json(const bench_device_list *l, bw_buf *out, bw_error *err);

#endif
