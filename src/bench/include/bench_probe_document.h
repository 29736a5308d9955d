/* bench_probe_document: `bwlab probe`'s measurement as a results document
 * (docs/results.md, "bwlab probe"): per device the ladders and the levels
 * found in them, the granularity sweeps and fits, the warp width and
 * banks, the transfers and the launch latency, with the sentences that
 * set each inferred figure beside the profile's, the host's and the
 * device's. The report renders it (report_probe_table, _md, _csv); the
 * command writes it as JSON; `bwlab run --transfers` embeds its transfers
 * part. */
#ifndef BENCH_PROBE_DOCUMENT_H
#define BENCH_PROBE_DOCUMENT_H

#include <jansson.h>
#include <stddef.h>

#include "bench_device.h"
#include "bench_probe.h"
#include "bw_buf.h"

typedef struct bench_probe_doc_device {
    const bench_device *device; /* provenance, as the bench layer filled it */
    int is_default;
    const bench_probe_result *result; /* NULL when it failed */
    const char *failure;              /* why, or NULL */
    const char *cache_note;           /* what happened to the probe cache, or NULL */
    double nominal_gbs;               /* the device's nominal DRAM GB/s the plateaus are checked against, or 0 */
} bench_probe_doc_device;

typedef struct bench_probe_doc_meta {
    const char *date;
    int argc;
    char *const *argv;
    const char *cache_file;
    int interrupted; /* a signal stopped the probe: the document's "interrupted" */
} bench_probe_doc_meta;

/* The document of n devices: a new reference, or NULL when out of memory. */
json_t *bench_probe_document(const bench_probe_doc_meta *m, const bench_probe_doc_device *d, size_t n);

/* The transfers and launch-latency keys of one device's probe
 * (transfers, small_transfer_latency_us, launch_latency_us, launch, maps,
 * ...); also what `bwlab run --transfers` adds to a run. New reference. */
json_t *bench_probe_transfers_json(const bench_probe_result *r);

/* The sentence that sets the inferred unit beside the profile's sector
 * and line: "agrees with the profile's sector and line (64 B)", ... */
void bench_probe_agreement(bw_buf *out, const bench_probe_result *r, const model_geometry *g);

/* The words that set cache level k (< r->n_levels) beside the host
 * cache paired with it (model_fit_match_caches): "agrees with the host's
 * L2 (2 MiB)", "the host reports L3 300 MiB; dependent loads leave this
 * level at about 45 MiB", or "matches no cache the host reports (...)". */
void bench_probe_level_agreement(bw_buf *out, const bench_probe_result *r, size_t k);

/* The words that set the device's CL_DEVICE_GLOBAL_MEM_CACHE_SIZE beside
 * the levels: "agrees with L3 (...)", "the device reports 300 MiB;
 * dependent loads leave the cache at about 45 MiB", or, when the last
 * level is paired with a host cache smaller than the device's and not
 * the host's last, "the device reports 480 MiB; no level past L2 (1.4
 * MiB, the host's L2) stands: the ladders reach memory without another
 * knee". */
void bench_probe_device_cache_agreement(bw_buf *out, const bench_probe_result *r);

#endif
