/* results_tune_keys: every key of `bwlab tune`'s results document
 * (docs/results.md, "bwlab tune") below its head, in the form of
 * results_doc_keys.h. Its writer (bench_tune_document.c), the tuning
 * cache (bench_tune_cache.c, whose entries hold a peak's date, buffer and
 * two modes under the same keys) and the table's renderer (report_tune.c)
 * take every key from here; the device object has its own writer
 * (bench_device_json) and the timing object RESULTS_TIMING_KEYS. */
#ifndef RESULTS_TUNE_KEYS_H
#define RESULTS_TUNE_KEYS_H

#include "results_doc_keys.h"

#define RESULTS_TUNE_KEY_LIST(X) \
    X(RT_CACHE_FILE, "cache_file", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "document") \
    X(RT_KERNEL_FILE, "kernel_file", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "document") \
    X(RT_INTERRUPTED, "interrupted", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "document or search") \
    X(RT_DEVICES, "devices", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "document") \
    X(RT_DEVICE, "device", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RT_STATUS, "status", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device or candidate") \
    X(RT_FAILURE, "failure", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device or candidate") \
    X(RT_SOURCE, "source", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RT_DATE, "date", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device or cache entry") \
    X(RT_BUFFER_BYTES, "buffer_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "device or cache entry") \
    X(RT_WORKING_SET_SOURCE, "working_set_source", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RT_PEAK_READ_GBS, "peak_read_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_NONE, "device") \
    X(RT_PEAK_COPY_GBS, "peak_copy_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_NONE, "device") \
    X(RT_READ, "read", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device or cache entry: the read mode's peak") \
    X(RT_COPY, "copy", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device or cache entry: the copy mode's peak") \
    X(RT_NOMINAL_DRAM_GBS, "nominal_dram_gbs", RK_NUMBER, "nominal", "GB/s", RESULTS_RANGE_NONE, "device") \
    X(RT_PROBE_MEMORY_GBS, "probe_memory_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_NONE, "device") \
    X(RT_PLAUSIBILITY, "plausibility", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RT_PLAUSIBILITY_READ, "read", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "plausibility") \
    X(RT_PLAUSIBILITY_COPY, "copy", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "plausibility") \
    X(RT_CACHE_NOTE, "cache_note", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RT_SEARCH, "search", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RT_BUDGET_S, "budget_s", RK_NUMBER, "requested", "s", RESULTS_RANGE_NONE, "search") \
    X(RT_ELAPSED_S, "elapsed_s", RK_NUMBER, "measured", "s", RESULTS_RANGE_NONE, "search") \
    X(RT_STAGES, "stages", RK_INTEGER, NULL, NULL, RESULTS_RANGE_NONE, "search") \
    X(RT_FINAL_ROUNDS, "final_rounds", RK_INTEGER, NULL, NULL, RESULTS_RANGE_NONE, "search") \
    X(RT_BUDGET_ENDED, "budget_ended", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "search") \
    X(RT_CANDIDATES, "candidates", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "search") \
    X(RT_FAMILY, "family", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "candidate") \
    X(RT_STAGE, "stage", RK_INTEGER, NULL, NULL, RESULTS_RANGE_NONE, "candidate") \
    X(RT_VECTOR_WIDTH, "vector_width", RK_INTEGER, "requested", "elements per vector load", RESULTS_RANGE_NONE, "configuration") \
    X(RT_ELEMS_PER_ITEM, "elems_per_item", RK_INTEGER, "requested", "vectors per work-item", RESULTS_RANGE_NONE, "configuration") \
    X(RT_LOCAL_SIZE, "local_size", RK_INTEGER, "requested", "work-items per group", RESULTS_RANGE_NONE, "configuration") \
    X(RT_LAYOUT, "layout", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "configuration") \
    X(RT_GBS, "gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_NONE, "configuration") \
    X(RT_ITEMS, "items", RK_INTEGER, "requested", "work-items", RESULTS_RANGE_NONE, "candidate") \
    X(RT_REQUESTED_BYTES, "requested_bytes", RK_NUMBER, "requested", "bytes", RESULTS_RANGE_NONE, "candidate") \
    X(RT_VALIDATION, "validation", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "candidate") \
    X(RT_FINALIST, "finalist", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "candidate") \
    X(RT_BEST, "best", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "candidate") \
    X(RT_TIME_NS, "time_ns", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "candidate: RESULTS_TIMING_KEYS")

typedef enum results_tune_key_id { RESULTS_TUNE_KEY_LIST(RESULTS_DOC_KEY_ENUM) RT_COUNT } results_tune_key_id;

extern const results_doc_key RESULTS_TUNE_KEYS[RT_COUNT];
#define RT_KEY(id) (RESULTS_TUNE_KEYS[id].key)

#endif
