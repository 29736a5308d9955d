/* bench_limits: a device's limits as the plan (bench_plan) takes them,
 * shared by whatever sizes buffers for a device (the run's pipeline,
 * tune, roofline, probe). The buffers they allow are public:
 * bench_buffer_plan (bench_device.h) and bench_roofline_opts_of
 * (bench_roofline.h). */
#ifndef BENCH_LIMITS_H
#define BENCH_LIMITS_H

#include "bench_plan.h"
#include "ocl_device.h"

/* The device's limits; a CPU device also gets the host's last-level cache
 * from sysfs, which the plan uses when the driver reports no cache (PoCL
 * may say 0 B). Never fails: unknown figures stay 0. */
bench_limits bench_device_limits(const ocl_device_info *d);

#endif
