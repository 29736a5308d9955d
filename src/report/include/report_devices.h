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

/* The devices of l: a summary line each, then their details; the default
 * device is marked. */
void report_devices_table(const bench_device_list *l, bw_buf *out);
/* {"tool", "version", "default_device", "devices": [...]} for the same
 * devices. */
bw_code report_devices_json(const bench_device_list *l, bw_buf *out, bw_error *err);

#endif
