/* report_devices_priv: what only src/report and its tests use of
 * report_devices.h: one device's line of `bwlab devices`. */
#ifndef REPORT_DEVICES_PRIV_H
#define REPORT_DEVICES_PRIV_H

#include "report_devices.h"

/* The line that heads a device's section in every table: "LEAD device N
 * (default): NAME (PLATFORM, driver VERSION)" and a newline
 * (report_device_line_of). */
void report_device_line(bw_buf *out, const char *lead, const bench_device *d, int is_default);

#endif
