/* report_device_head: the lines that head a device's section in every
 * table, from the device object a results document embeds ("device":
 * bench_device_json), so that a table rendered from a document and one
 * rendered from a command's own measurement begin alike. */
#ifndef REPORT_DEVICE_HEAD_H
#define REPORT_DEVICE_HEAD_H

#include <jansson.h>

#include "bw_buf.h"

#endif
