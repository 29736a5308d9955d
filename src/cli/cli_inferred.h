/* cli_inferred: `--profile inferred` (bwlab model, bwlab run): a device's
 * profile with the fields its cached probe inferred (bench_probe_cache)
 * put in place of the profile's own. */
#ifndef CLI_INFERRED_H
#define CLI_INFERRED_H

#include <stddef.h>

#include "bw_error.h"
#include "cli.h"
#include "model_geometry.h"
#include "ocl_device.h"

#define CLI_INFERRED_PROFILE "inferred"

/* The inferred geometry of device d: *geo from d's profile with the cached
 * probe's unit, lanes and banks in place; fields receives the names
 * replaced ("sector,line"; "" when the probe inferred none) and source
 * where they came from ("bwlab probe on DATE, cache FILE"). BW_E_USAGE
 * when the cache has no probe of this device (or no cache file): the
 * message names the device and the file and says to run `bwlab probe
 * --device N` first; BW_E_FORMAT for a malformed cache. */
bw_code cli_inferred_geometry(const ocl_device_info *d, model_geometry *geo, char *fields, size_t nf, char *source,
                              size_t ns, bw_error *err);

/* --profile inferred on every selected device (dev_idx[0..ndev), indices
 * into plats): each device's profile replaced by its inferred geometry
 * (ocl_device_override_profile), the why naming the fields, the probe and
 * the profile they replace. 0, or the exit status after the message: a
 * usage error for a device without a probe. */
int cli_inferred_profiles(const cli_command *self, ocl_platforms *plats, const size_t *dev_idx, size_t ndev);

/* Device d's memory plateau from its cached probe (measured: the read
 * GB/s past its last cache level), for the plausibility checks: 0 when
 * there is no probe of it, no plateau, or the cache cannot be read (said
 * once on stderr as a note, naming the file: the figures then go
 * unchecked against a plateau, never fail). date (size nd) receives the
 * probe's date. */
double cli_inferred_memory_gbs(const cli_command *self, const ocl_device_info *d, char *date, size_t nd);

#endif
