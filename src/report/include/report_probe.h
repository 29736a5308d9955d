/* report_probe: `bwlab probe`'s results (docs/results.md, "bwlab probe")
 * as a table, CSV, Markdown or a versioned JSON document. Formatting
 * only: the figures come from bench_probe; every number says whether it
 * was measured, modeled (a candidate unit's curve) or is the profile's. */
#ifndef REPORT_PROBE_H
#define REPORT_PROBE_H

#include "results_schema.h"

#include <jansson.h>
#include <stddef.h>

#include "bench_probe.h"
#include "bw_buf.h"
#include "bw_error.h"
#include "bench_device.h"

typedef struct report_probe_device {
    const bench_device *device; /* provenance, as the bench layer filled it */
    int is_default;
    const bench_probe_result *result; /* NULL when it failed */
    const char *failure;              /* why, or NULL */
    const char *cache_note;           /* what happened to the probe cache, or NULL */
    double nominal_gbs;               /* the device's nominal DRAM GB/s the plateaus are checked against, or 0 */
} report_probe_device;

typedef struct report_probe_meta {
    const char *date;
    int argc;
    char *const *argv;
    const char *cache_file;
    int interrupted; /* a signal stopped the probe: the document's "interrupted" */
} report_probe_meta;

/* The sentence that sets the inferred unit beside the profile's sector
 * and line: "agrees with the profile's sector and line (64 B)", ... */
void report_probe_agreement(bw_buf *out, const bench_probe_result *r, const model_geometry *g);

/* The words that set cache level k (< r->n_levels) beside the host
 * cache paired with it (model_fit_match_caches): "agrees with the host's
 * L2 (2 MiB)", "the host reports L3 300 MiB; dependent loads leave this
 * level at about 45 MiB", or "matches no cache the host reports (...)". */
void report_probe_level_agreement(bw_buf *out, const bench_probe_result *r, size_t k);
/* The words that set the device's CL_DEVICE_GLOBAL_MEM_CACHE_SIZE beside
 * the levels: "agrees with L3 (...)", "the device reports 300 MiB;
 * dependent loads leave the cache at about 45 MiB", or, when the last
 * level is paired with a host cache smaller than the device's and not
 * the host's last, "the device reports 480 MiB; no level past L2 (1.4
 * MiB, the host's L2) stands: the ladders reach memory without another
 * knee". */
void report_probe_device_cache_agreement(bw_buf *out, const bench_probe_result *r);

void report_probe_table(const report_probe_meta *m, const report_probe_device *d, size_t n, bw_buf *out);
void report_probe_md(const report_probe_meta *m, const report_probe_device *d, size_t n, bw_buf *out);
void report_probe_csv(const report_probe_meta *m, const report_probe_device *d, size_t n, bw_buf *out);
bw_code report_probe_json(const report_probe_meta *m, const report_probe_device *d, size_t n, bw_buf *out,
                          bw_error *err);

/* The contract keys of one device's probe (inferred_unit_bytes,
 * cache_levels, transfers, launch_latency_us, ...); also what `bwlab run
 * --transfers` adds to a run. New reference. */
json_t *report_probe_transfers_json(const bench_probe_result *r);
/* The transfers and launch-latency lines of a table (bwlab probe, bwlab
 * run --transfers). */
void report_probe_transfers_table(const bench_probe_result *r, bw_buf *out);

#endif
