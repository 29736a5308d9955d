/* bench_probe_cache: the file that keeps each device's latest `bwlab
 * probe` findings, so that `--profile inferred` (bwlab model, bwlab run)
 * can build a profile from them without probing again.
 *
 * Path: probe.json beside the tuning cache (bench_tune_cache_path:
 * $BWLAB_CACHE_DIR, else $XDG_CACHE_HOME/bwlab, else ~/.cache/bwlab).
 * Schema "bwlab.probe" version 1: {"schema", "schema_version", "entries":
 * [{"key": {device, vendor, driver_version, platform_version,
 * bwlab_version}, "date", "quick", "inferred_unit_bytes",
 * "inferred_lanes", "inferred_banks", "memory_read_gbs"}]}, keyed like the tuning cache
 * (bench_tune_key). Writes are atomic (temporary file, rename); a
 * malformed file is reported, never silently replaced. */
#ifndef BENCH_PROBE_CACHE_H
#define BENCH_PROBE_CACHE_H

#include <stdint.h>

#include "bench_probe.h"
#include "bench_tune_cache.h"
#include "bw_error.h"
#include "model_geometry.h"

#define BENCH_PROBE_CACHE_SCHEMA "bwlab.probe"
#define BENCH_PROBE_CACHE_FILE "probe.json"
/* the range of a stored memory plateau, as of any GB/s in a results file */
#define BENCH_PROBE_CACHE_MIN_GBS 1e-6
#define BENCH_PROBE_CACHE_MAX_GBS 1e6

typedef struct bench_probe_entry {
    char date[32];
    int quick;
    int64_t unit;  /* 0: the probe inferred none */
    int64_t lanes; /* 0: none */
    int banks;     /* 0: none */
    double memory_gbs; /* measured: the memory plateau's read GB/s; 0: none */
} bench_probe_entry;

/* The file's path (see above); caller frees. Fails as bench_tune_cache_path. */
bw_code bench_probe_cache_path(char **path, bw_error *err);

/* The entry of a probe result. */
bench_probe_entry bench_probe_entry_of(const bench_probe_result *r, const char *date);

/* *found 0 (BW_OK) when the file or the entry is missing; BW_E_FORMAT
 * naming the file when it is malformed; BW_E_IO when unreadable. */
bw_code bench_probe_cache_lookup(const char *path, const bench_tune_key *key, bench_probe_entry *out, int *found,
                                 bw_error *err);
/* Stores e under key, keeping the other entries. A malformed file is
 * refused (BW_E_FORMAT naming it: remove it to start afresh). */
bw_code bench_probe_cache_store(const char *path, const bench_tune_key *key, const bench_probe_entry *e,
                                bw_error *err);

/* The profile --profile inferred builds: `base` (the device's own
 * profile) with the inferred fields replaced: sector (and line, unless
 * the base line is a multiple of the unit) from the unit, lanes, banks
 * (4-byte banks). *fields receives the names replaced, comma-separated
 * ("sector,line"), into buf of size n; "" when the probe inferred
 * nothing. */
model_geometry bench_probe_inferred_geometry(const model_geometry *base, const bench_probe_entry *e, char *fields,
                                             size_t n);

#endif
