/* report_device_head_priv: what only src/report and its tests use of
 * report_device_head.h: the device line from a document or from its fields,
 * and the section of a device with nothing to show. */
#ifndef REPORT_DEVICE_HEAD_PRIV_H
#define REPORT_DEVICE_HEAD_PRIV_H

#include "report_device_head.h"

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
