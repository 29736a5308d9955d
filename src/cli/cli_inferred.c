/* cli_inferred: the geometry of `--profile inferred`: the device's entry
 * in the probe cache laid over its profile, or a usage error that says
 * to run `bwlab probe` first (cli_inferred.h). */
#include "cli_inferred.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench_probe.h"
#include "bwlab_config.h"

bw_code cli_inferred_geometry(const ocl_device_info *d, model_geometry *geo, char *fields, size_t nf, char *source,
                              size_t ns, bw_error *err)
{
    char *path = NULL;
    bw_code rc = bench_probe_cache_path(&path, err);
    if (rc != BW_OK)
        return rc;
    bench_tune_key key = bench_tune_key_of(d, BWLAB_VERSION);
    bench_probe_entry e;
    int found = 0;
    rc = bench_probe_cache_lookup(path, &key, &e, &found, err);
    if (rc == BW_OK && !found)
        rc = bw_error_set(err, BW_E_USAGE,
                          "--profile inferred: no probe of device %zu (%s) with this driver and bwlab version in "
                          "the probe cache '%s'; run 'bwlab probe --device %zu' first",
                          d->index, d->name, path, d->index);
    if (rc == BW_OK) {
        *geo = bench_probe_inferred_geometry(&d->geo, &e, fields, nf);
        snprintf(source, ns, "bwlab probe%s on %s, cache %s", e.quick ? " --quick" : "", e.date, path);
    }
    free(path);
    return rc;
}

/* --profile inferred: each device's profile with its cached probe's
 * findings in place; a device without a probe is bad input */
int cli_inferred_profiles(const cli_command *self, ocl_platforms *plats, const size_t *dev_idx, size_t ndev)
{
    for (size_t k = 0; k < ndev; k++) {
        const ocl_device_info *d = ocl_device_at(plats, dev_idx[k]);
        model_geometry g;
        char fields[64], source[600], why[1024];
        bw_error err = BW_ERROR_INIT;
        bw_code rc = cli_inferred_geometry(d, &g, fields, sizeof fields, source, sizeof source, &err);
        if (rc == BW_OK) {
            snprintf(why, sizeof why, "inferred: %s measured by %s; the rest from profile %s (%s)",
                     fields[0] ? fields : "no field", source, d->profile_name, d->profile_why);
            rc = ocl_device_override_profile(plats, dev_idx[k], CLI_INFERRED_PROFILE, why, fields, &g, &err);
        }
        if (rc != BW_OK) {
            int st = rc == BW_E_USAGE ? cli_usage_error(self, "%s", bw_error_text(&err)) : cli_fail(self, &err);
            bw_error_clear(&err);
            return st;
        }
    }
    return 0;
}

double cli_inferred_memory_gbs(const cli_command *self, const ocl_device_info *d, char *date, size_t nd)
{
    char *path = NULL;
    bw_error err = BW_ERROR_INIT;
    bench_probe_entry e;
    int found = 0;
    date[0] = '\0';
    bw_code rc = bench_probe_cache_path(&path, &err);
    if (rc == BW_OK) {
        bench_tune_key key = bench_tune_key_of(d, BWLAB_VERSION);
        rc = bench_probe_cache_lookup(path, &key, &e, &found, &err);
    }
    /* no place for a cache (no home) is no probe, not a fault */
    if (rc != BW_OK && path)
        cli_note(self, "figures not checked against the probe's memory plateau: %s", bw_error_text(&err));
    bw_error_clear(&err);
    free(path);
    if (rc != BW_OK || !found || !(e.memory_gbs > 0))
        return 0;
    snprintf(date, nd, "%s", e.date);
    return e.memory_gbs;
}
