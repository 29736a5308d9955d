/* cli_tuned: a run's cached peaks from `bwlab tune`, looked up and checked
 * against the run's own seq and the nominal table (cli_tuned.h). */
#include "cli_tuned.h"

#include <stdlib.h>
#include <string.h>

#include "bwlab_config.h"
#include "report_nominal.h"

char *cli_tuned_lookup(const cli_command *self, const ocl_platforms *plats, const size_t *dev_idx, size_t ndev,
                       cli_tuned *out)
{
    char *path = NULL;
    bw_error err = BW_ERROR_INIT;
    if (bench_tune_cache_path(&path, &err) != BW_OK) {
        bw_error_clear(&err);
        return NULL; /* no cache to read: no peak, which the results show as null */
    }
    for (size_t k = 0; k < ndev; k++) {
        bench_tune_key key = bench_tune_key_of(ocl_device_at(plats, dev_idx[k]), BWLAB_VERSION);
        bw_code rc = bench_tune_cache_lookup(path, &key, &out[k].entry, &out[k].found, &err);
        if (rc == BW_OK)
            continue;
        cli_warn(self, "%s; peak figures left out (bwlab tune --retune writes a new one)", bw_error_text(&err));
        bw_error_clear(&err);
        char *moved = NULL;
        /* a malformed cache is kept for the user, and read by nothing again */
        if (rc == BW_E_FORMAT && bench_tune_cache_set_aside(path, &moved, &err) == BW_OK)
            cli_warn(self, "the malformed tuning cache is kept as '%s'", moved);
        else if (rc == BW_E_FORMAT)
            cli_warn(self, "%s", bw_error_text(&err));
        free(moved);
        bw_error_clear(&err);
        for (size_t j = 0; j < ndev; j++)
            out[j].found = 0;
        break;
    }
    return path;
}

void cli_tuned_check(const cli_command *self, const ocl_device_info *info, const bench_tune_entry *tune,
                     const bench_plan *plan, const bench_result *results)
{
    static const struct {
        bench_access access;
        bench_tune_mode mode;
        const char *name;
    } modes[] = { { BENCH_ACCESS_COPY, BENCH_TUNE_COPY, "copy" }, { BENCH_ACCESS_READ, BENCH_TUNE_READ, "read" } };
    json_t *nominal = NULL;
    bw_error nerr = BW_ERROR_INIT;
    int entry = -1;
    if (report_nominal_load(&nominal, &nerr) == BW_OK)
        entry = report_nominal_find(nominal, info->vendor, info->name, info->board_name,
                                    (long long)info->global_mem_bytes);
    bw_error_clear(&nerr);
    const json_t *e = entry >= 0 ? json_array_get(json_object_get(nominal, "devices"), (size_t)entry) : NULL;
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        const bench_tune_peak *p = &tune->peak[modes[m].mode];
        if (p->valid && e && p->gbs > 2 * json_number_value(json_object_get(e, "dram_gbs")))
            cli_warn(self,
                     "device %zu: the tuned %s peak, %.2f GB/s (tuning cache of %s), is above twice the nominal "
                     "DRAM bandwidth of %s, %.1f GB/s (data/nominal.json): implausible; bwlab tune --retune "
                     "measures it again",
                     info->index, modes[m].name, p->gbs, tune->date, json_string_value(json_object_get(e, "name")),
                     json_number_value(json_object_get(e, "dram_gbs")));
        for (size_t i = 0; p->valid && i < plan->n; i++) {
            const bench_item *it = &plan->items[i];
            const bench_result *r = &results[i];
            if (strcmp(it->spec, "seq") || it->access != modes[m].access || r->status != BENCH_OK ||
                !(r->effective_gbs > 2 * p->gbs))
                continue;
            cli_warn(self,
                     "device %zu: the tuned %s peak, %.2f GB/s (tuning cache of %s), is below half of this run's "
                     "seq %s, %.2f GB/s (measured): implausible; bwlab tune --retune measures it again",
                     info->index, modes[m].name, p->gbs, tune->date, modes[m].name, r->effective_gbs);
        }
    }
    json_decref(nominal);
}
