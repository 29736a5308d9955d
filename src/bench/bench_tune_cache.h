/* bench_tune_cache: the file that keeps `bwlab tune`'s winners per device
 * (docs/results.md, "bwlab tune"), so that `bwlab run` can set every
 * pattern against the device's peak without measuring it again.
 *
 * Path: $BWLAB_CACHE_DIR/tune.json when that variable is set and not empty,
 * else $XDG_CACHE_HOME/bwlab/tune.json, else $HOME/.cache/bwlab/tune.json.
 * One JSON document, schema "bwlab.tune" version 1, holds an entry per key:
 * device name, vendor, driver version, platform version and bwlab version,
 * all compared exactly, so a new driver or bwlab release tunes again.
 * Writes are atomic (a temporary file renamed over the old one). A
 * malformed file is never silently replaced: lookups report it, and a store
 * first renames it to tune.json.malformed. */
#ifndef BENCH_TUNE_CACHE_H
#define BENCH_TUNE_CACHE_H

#include <jansson.h>
#include <stdint.h>

#include "bench_tune.h"
#include "bw_error.h"
/* src/ocl/ocl_device.h's record, by pointer only */
typedef struct ocl_device_info ocl_device_info;

#define BENCH_TUNE_CACHE_SCHEMA "bwlab.tune"
#define BENCH_TUNE_CACHE_SCHEMA_VERSION 1
#define BENCH_TUNE_CACHE_FILE "tune.json"
/* a cached peak's valid range: that of any GB/s in a results file
 * (results_merge_range.h, RESULTS_RANGE_GBS) */
#define BENCH_TUNE_GBS_MIN 1e-6
#define BENCH_TUNE_GBS_MAX 1e6

/* What an entry is keyed by; the strings are borrowed. */
typedef struct bench_tune_key {
    const char *device, *vendor, *driver_version, *platform_version, *bwlab_version;
} bench_tune_key;

/* The key of a device for this bwlab version; borrows d's strings. */
bench_tune_key bench_tune_key_of(const ocl_device_info *d, const char *bwlab_version);
/* 1 when every field of a and b is the same string as the file stores it
 * (NULL as "", a string that is not UTF-8 with bytes above 0x7f as '?'). */
int bench_tune_key_equal(const bench_tune_key *a, const bench_tune_key *b);

/* One device's cached result. */
typedef struct bench_tune_entry {
    bench_tune_peak peak[BENCH_TUNE_MODES]; /* valid 0: that family had no winner */
    uint64_t buffer_bytes;                  /* the buffer it was measured on */
    char date[32];                          /* when, ISO 8601 UTC */
} bench_tune_entry;

/* A peak's configuration and bandwidth as the cache stores them and the
 * reports print them: {vector_width, elems_per_item, local_size, layout,
 * gbs}, or JSON null for a family with no winner. New reference. */
json_t *bench_tune_peak_json(const bench_tune_peak *p);

/* The cache file's path from the environment (see above); caller frees.
 * BW_E_USAGE when none of BWLAB_CACHE_DIR, XDG_CACHE_HOME, HOME is set. */
bw_code bench_tune_cache_path(char **path, bw_error *err);

/* Moves a malformed cache at `path` to PATH.malformed (replacing an older
 * one), as a store does, so that it is kept for the user to inspect and no
 * later command reads it again; *moved gets the new name (caller frees).
 * BW_E_IO when it cannot be moved. */
bw_code bench_tune_cache_set_aside(const char *path, char **moved, bw_error *err);

/* BW_OK when the directories above the cache file `path` (tune.json,
 * probe.json) are usable: each one that exists is a directory. Else
 * BW_E_IO naming the one that is a file ("the cache directory '...' is
 * not a directory"), and what to do (set BWLAB_CACHE_DIR to a directory). */
bw_code bench_tune_cache_dir_check(const char *path, bw_error *err);

/* Looks `key` up in the file at `path`. A missing file is no error: BW_OK
 * with *found 0. BW_E_FORMAT when the file is malformed (not JSON, another
 * schema, an entry without its key, or the matching entry's figures out of
 * range): the message names the file and, for a parse error, the line and
 * column. BW_E_IO when it cannot be read. */
bw_code bench_tune_cache_lookup(const char *path, const bench_tune_key *key, bench_tune_entry *out, int *found,
                                bw_error *err);

/* Stores e under key, replacing the entry of the same key and keeping the
 * others; creates the file's directory. A malformed file is first renamed
 * to PATH.malformed and *moved_aside set to that path (caller frees; NULL
 * otherwise) so that the caller can say so. BW_E_IO names the path and the
 * system's reason. */
bw_code bench_tune_cache_store(const char *path, const bench_tune_key *key, const bench_tune_entry *e,
                               char **moved_aside, bw_error *err);

#endif
