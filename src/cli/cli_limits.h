/* cli_limits: a device's limits as the plan (bench_plan) takes them, shared
 * by the commands that size buffers for a device (run, tune). */
#ifndef CLI_LIMITS_H
#define CLI_LIMITS_H

#include "bench_plan.h"
#include "ocl_device.h"

/* The device's limits; a CPU device also gets the host's last-level cache
 * from sysfs, which the plan uses when the driver reports no cache (PoCL
 * may say 0 B). Never fails: unknown figures stay 0. */
bench_limits cli_device_limits(const ocl_device_info *d);

#endif
