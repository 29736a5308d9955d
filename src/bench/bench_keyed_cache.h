/* bench_keyed_cache: a small JSON file beside the tuning cache that keeps
 * one entry per device key (bench_tune_key: device, vendor, driver,
 * platform and bwlab versions): {"schema", "schema_version": 1,
 * "entries": [{"key": {...}, ...}]}. The probe's findings (probe.json)
 * and the unroll calibrations (unroll.json) are two such files. It owns
 * the path, the load with its checks, the lookup and the atomic store
 * (temporary file, rename); what an entry holds is its caller's. */
#ifndef BENCH_KEYED_CACHE_H
#define BENCH_KEYED_CACHE_H

#include <jansson.h>

#include "bench_tune_priv.h"
#include "bw_error.h"

/* How a file names itself in messages: its schema, "the probe cache",
 * and what to do about a malformed one ("run bwlab probe again"). */
typedef struct bench_keyed_cache {
    const char *file;   /* "probe.json" */
    const char *schema; /* "bwlab.probe" */
    const char *what;   /* "the probe cache" */
    const char *remedy; /* "run bwlab probe again" */
} bench_keyed_cache;

/* The file's path, beside the tuning cache (bench_tune_cache_path);
 * caller frees. Fails as bench_tune_cache_path. */
bw_code bench_keyed_cache_path(const bench_keyed_cache *c, char **path, bw_error *err);

/* The document (new reference), or *doc NULL (BW_OK) when there is no
 * file; BW_E_FORMAT naming the file when it is malformed or of another
 * schema, BW_E_NOMEM when reading it ran out of memory, BW_E_IO when it
 * cannot be read. */
bw_code bench_keyed_cache_load(const bench_keyed_cache *c, const char *path, json_t **doc, bw_error *err);

/* The entry of key in a loaded document (borrowed), or NULL. */
json_t *bench_keyed_cache_find(json_t *doc, const bench_tune_key *key);

/* Stores entry (stolen; its "key" is set here) under key, keeping the
 * other entries, through a temporary file renamed over the old one;
 * creates the directory. A malformed file is refused (BW_E_FORMAT naming
 * it: remove it to start afresh). */
bw_code bench_keyed_cache_store(const bench_keyed_cache *c, const char *path, const bench_tune_key *key, json_t *entry,
                                bw_error *err);

#endif
