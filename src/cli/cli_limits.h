/* cli_limits: a device's limits as the plan (bench_plan) takes them, shared
 * by the commands that size buffers for a device (run, tune). */
#ifndef CLI_LIMITS_H
#define CLI_LIMITS_H

#include "bench_plan.h"
#include "bench_roofline.h"
#include "bench_runner.h"
#include "cli_option.h"
#include "ocl_device.h"

/* The device's limits; a CPU device also gets the host's last-level cache
 * from sysfs, which the plan uses when the driver reports no cache (PoCL
 * may say 0 B). Never fails: unknown figures stay 0. */
bench_limits bench_device_limits(const ocl_device_info *d);

/* Buffers for a device sized as `bwlab run` sizes its working set: *target
 * is the plan's working set for `seq` (its auto target, or `size` when not
 * 0), *most what one buffer may take when `nbuffers` of them share the
 * plan's memory budget (3/4 of global memory), rounded down to whole MiB;
 * *most is *target when the budget is unlimited. Fails as bench_plan_make
 * does (BW_E_TOOBIG for a --size above the largest allocation). */
bw_code bench_buffer_plan(const ocl_device_info *d, uint64_t size, int nbuffers, uint64_t *target, uint64_t *most,
                        bw_error *err);

/* The options of a roofline measurement (bench_roofline_run) on a device,
 * shared by `bwlab roofline` and the short one of `bwlab run`: the source
 * buffer is `size` bytes when not 0 (`bwlab roofline --size`, `bwlab run
 * --roofline-size`: whole MiB, checked by the caller), else the working set
 * `bwlab run` plans for the device by itself (4 x its last-level cache,
 * within its limits; never a run's --size, which may sit in the cache or be
 * too small to time), in whole MiB; either at most half the memory budget
 * (the output buffer is 1/16 of it); the timing floor is `settings`' for
 * the device's timer. BW_E_TOOBIG when no 1 MiB buffer fits or `size` is
 * above the device's largest allocation or half the budget; else fails as
 * bench_buffer_plan. */
bw_code bench_roofline_opts_of(const ocl_device_info *d, const bench_settings *settings, double budget_s, uint64_t size,
                          bench_roofline_opts *o, bw_error *err);

/* What a roofline buffer's size (roofline --size, run --roofline-size)
 * must be: "auto" or whole MiB of at least 1M, as the roofline plans
 * its buffer in MiB. */
extern const cli_size_rule cli_roofline_size_rule;

/* The current UTC time, ISO 8601 ("YYYY-MM-DDTHH:MM:SSZ"), into buf. */
void cli_iso_date(char *buf, size_t n);

#endif
