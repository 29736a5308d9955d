/* report_device_head: the lines that head a device's section in every
 * table, from the device object a results document embeds ("device":
 * bench_device_json), so that a table rendered from a document and one
 * rendered from a command's own measurement begin alike. */
#ifndef REPORT_DEVICE_HEAD_H
#define REPORT_DEVICE_HEAD_H

#include <jansson.h>

#include "bw_buf.h"

/* "LEAD device N (default): NAME (PLATFORM, driver VERSION)" and a
 * newline, from a document's device object. */
void report_device_line_json(bw_buf *out, const char *lead, const json_t *device);
/* The same line from its fields (NULL reads as ""), for a writer that
 * holds the device itself. */
void report_device_line_of(bw_buf *out, const char *lead, unsigned long long index, int is_default, const char *name,
                           const char *platform, const char *driver);

/* A device section with nothing to show: "FAILED: WHY" when failure is
 * set, else "NOT RUN: interrupted before it was WHAT" when nothing was
 * measured. Returns 1 when it wrote one of them: the section ends there. */
int report_device_unmeasured(bw_buf *out, const char *failure, int measured, const char *what);

#endif
