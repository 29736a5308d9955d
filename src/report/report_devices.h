/* report_devices: the OpenCL devices bwlab found (`bwlab devices`) as a
 * table or one JSON object, and the JSON description of one device that
 * results files embed. Formatting only: every value comes from
 * ocl_device_info. */
#ifndef REPORT_DEVICES_H
#define REPORT_DEVICES_H

#include <jansson.h>
#include <stddef.h>

#include "bw_buf.h"
#include "bw_error.h"
#include "ocl_device.h"

/* One device as a JSON object (a new reference the caller owns), with its
 * profile; "default" is is_default. NULL when out of memory. */
json_t *report_device_json(const ocl_device_info *d, int is_default);

/* The devices idx[0..n-1] of p: a summary line each, then their details;
 * the default device (ocl_default_device) is marked. */
void report_devices_table(const ocl_platforms *p, const size_t *idx, size_t n, bw_buf *out);
/* {"tool", "version", "default_device", "devices": [...]} for the same
 * devices. */
bw_code report_devices_json(const ocl_platforms *p, const size_t *idx, size_t n, bw_buf *out,
                            bw_error *err);

#endif
