/* cli_tuned: the peaks `bwlab tune` cached for the devices a command
 * measures (bench_tune_cache), looked up once and checked for plausibility
 * against what the command itself measured. */
#ifndef CLI_TUNED_H
#define CLI_TUNED_H

#include <stddef.h>

#include "bench_plan.h"
#include "bench_run.h"
#include "bench_tune.h"
#include "cli.h"
#include "ocl_device.h"

/* A selected device's cached peak, when it has one. */
typedef struct cli_tuned {
    bench_tune_entry entry;
    int found; /* 1 when it was found in the cache */
} cli_tuned;

/* Each selected device's peak from the tuning cache into out[0..ndev)
 * (zeroed by the caller). Nothing is measured; a malformed cache is
 * reported, set aside for the user, and every device left without a peak.
 * The cache's path (the caller frees it), or NULL when there is no place
 * for one. */
char *cli_tuned_lookup(const cli_command *self, const ocl_platforms *plats, const size_t *dev_idx, size_t ndev,
                       cli_tuned *out);

/* A cached peak below half of what the command's own seq measured in the
 * same mode (the peak is the best shape's, seq one shape), or above twice
 * the device's nominal DRAM bandwidth (data/nominal.json; a cache can beat
 * DRAM, not by 2x at a tune-sized buffer), is implausible: said on stderr,
 * since fraction_of_peak would read far from its meaning. The nominal table
 * is optional here: without it only the seq bound is checked. */
void cli_tuned_check(const cli_command *self, const ocl_device_info *info, const bench_tune_entry *tune,
                     const bench_plan *plan, const bench_result *results);

#endif
