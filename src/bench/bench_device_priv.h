/* bench_device_priv: what only bench and its tests use of a device's
 * record: filling one from the OpenCL layer's discovery. The record and
 * the device list are public (bench_device.h). */
#ifndef BENCH_DEVICE_PRIV_H
#define BENCH_DEVICE_PRIV_H

#include "bench_device.h"

/* Copies d's fields into *out (strings borrowed); is_default as given. */
void bench_device_of(const struct ocl_device_info *d, int is_default, bench_device *out);

#endif
