/* results_compare_keys: every key of `bwlab compare --format json` (schema
 * bwlab.compare, docs/compare.md "--format json") that compare writes
 * itself, each spelled once with the kind of figure it holds, where it
 * holds one (DESIGN's measured, modeled, requested; "nominal" for a
 * vendor's published figure; NULL for names, provenance and words). The
 * head every document starts with (results_json_document) and a run's
 * roofline (results_roofline_keys.h) have their own. The writer
 * (report_compare.c, report_peer_table.c) takes every key from here; a
 * test holds the written document and docs/compare.md to the list. */
#ifndef RESULTS_COMPARE_KEYS_H
#define RESULTS_COMPARE_KEYS_H

/* X(ID, key, kind) */
#define RESULTS_COMPARE_KEY_LIST(X) \
    X(ACCESS, "access", NULL) \
    X(BANK_WIDTH, "bank_width", NULL) \
    X(BANKS, "banks", NULL) \
    X(BASELINE, "baseline", NULL) \
    X(BEST_GBS, "best_gbs", "measured") \
    X(BLOCKING, "blocking", NULL) \
    X(BOARD_NAME, "board_name", NULL) \
    X(BWLAB, "bwlab", NULL) \
    X(BYTES, "bytes", "requested") \
    X(CACHE_LEVELS, "cache_levels", NULL) \
    X(CLOCK_MHZ, "clock_mhz", NULL) \
    X(COMMAND_LINE, "command_line", NULL) \
    X(COMPUTE_UNITS, "compute_units", NULL) \
    X(CONFLICT_WAYS, "conflict_ways", "modeled") \
    X(DATE, "date", NULL) \
    X(DEVICE, "device", NULL) \
    X(DEVICE_VERSION, "device_version", NULL) \
    X(DEVICES, "devices", NULL) \
    X(DIAGNOSTICS, "diagnostics", NULL) \
    X(DIRECTION, "direction", NULL) \
    X(DRAM_GBS, "dram_gbs", "nominal") \
    X(DRAM_SOURCE, "dram_source", NULL) \
    X(DRIVER_VERSION, "driver_version", NULL) \
    X(DUPLICATES, "duplicates", NULL) \
    X(EFFECTIVE_GBS, "effective_gbs", "measured") \
    X(EFFECTIVE_MAX_GBS, "effective_max_gbs", "measured") \
    X(EFFECTIVE_MIN_GBS, "effective_min_gbs", "measured") \
    X(ELEM_BYTES, "elem_bytes", "requested") \
    X(ENTRIES, "entries", NULL) \
    X(EXPRESSION, "expression", NULL) \
    X(FAILURE, "failure", NULL) \
    X(FAMILY, "family", NULL) \
    X(FILE, "file", NULL) \
    X(FILES, "files", NULL) \
    X(FP32_GFLOPS, "fp32_gflops", "nominal") \
    X(FP32_SOURCE, "fp32_source", NULL) \
    X(FRACTION_OF_PEAK, "fraction_of_peak", "measured") \
    X(GBS, "gbs", "measured") \
    X(GLOBAL_MEM_BYTES, "global_mem_bytes", NULL) \
    X(HOST, "host", NULL) \
    X(INFERRED_UNIT_BYTES, "inferred_unit_bytes", "measured") \
    X(INTERRUPTED, "interrupted", NULL) \
    X(LABEL, "label", NULL) \
    X(LADDER, "ladder", NULL) \
    X(LANES, "lanes", NULL) \
    X(LATENCY_NS, "latency_ns", "measured") \
    X(LATENCY_PER_CU_NS, "latency_per_cu_ns", "measured") \
    X(LAUNCH_LATENCY_US, "launch_latency_us", "measured") \
    X(LINE_BYTES, "line_bytes", NULL) \
    X(LOCAL_GBS, "local_gbs", "measured") \
    X(MEMORY, "memory", NULL) \
    X(MESSAGE, "message", NULL) \
    X(METRIC, "metric", NULL) \
    X(MODE, "mode", NULL) \
    X(NAME, "name", NULL) \
    X(NOISY, "noisy", NULL) \
    X(NOMINAL, "nominal", NULL) \
    X(NOTE, "note", NULL) \
    X(OS, "os", NULL) \
    X(PARTIAL, "partial", NULL) \
    X(PATH, "path", NULL) \
    X(PATTERN, "pattern", NULL) \
    X(PEAK_COPY_GBS, "peak_copy_gbs", "measured") \
    X(PEAK_READ_GBS, "peak_read_gbs", "measured") \
    X(PEERS, "peers", NULL) \
    X(PLATFORM, "platform", NULL) \
    X(PLATFORM_VERSION, "platform_version", NULL) \
    X(PREDICTED_EFFICIENCY, "predicted_efficiency", "modeled") \
    X(PROBES, "probes", NULL) \
    X(PROFILE, "profile", NULL) \
    X(PROFILE_LINE_BYTES, "profile_line_bytes", NULL) \
    X(PROFILE_UNIT_BYTES, "profile_unit_bytes", NULL) \
    X(READ_GBS, "read_gbs", "measured") \
    X(RELATIVE_MAX, "relative_max", "measured") \
    X(RELATIVE_MIN, "relative_min", "measured") \
    X(RELATIVE_TO_BASELINE, "relative_to_baseline", "measured") \
    X(RELATIVE_TO_REFERENCE, "relative_to_reference", "measured") \
    X(RELATIVE_TO_SEQ, "relative_to_seq", "measured") \
    X(REPEAT, "repeat", NULL) \
    X(ROOFLINE, "roofline", NULL) \
    X(RUN, "run", NULL) \
    X(RUNS, "runs", NULL) \
    X(SAMPLES, "samples", NULL) \
    X(SCHEMA_VERSION, "schema_version", NULL) \
    X(SECTOR_BYTES, "sector_bytes", NULL) \
    X(SECTOR_EFFICIENCY, "sector_efficiency", "modeled") \
    X(SEQ_GBS, "seq_gbs", "measured") \
    X(SIZE_BYTES, "size_bytes", "measured") \
    X(SKIPPED, "skipped", NULL) \
    X(SMALL_TRANSFER_BYTES, "small_transfer_bytes", "requested") \
    X(SMALL_TRANSFER_LATENCY_US, "small_transfer_latency_us", "measured") \
    X(SOURCE, "source", NULL) \
    X(SPACE, "space", NULL) \
    X(STATUS, "status", NULL) \
    X(TEST, "test", NULL) \
    X(TOOL, "tool", NULL) \
    X(TOOL_VERSION, "tool_version", NULL) \
    X(TRANSFERS, "transfers", NULL) \
    X(TYPE, "type", NULL) \
    X(UNIT, "unit", NULL) \
    X(UNIT_AGREEMENT, "unit_agreement", NULL) \
    X(US, "us", "measured") \
    X(VALUE, "value", "measured") \
    X(VENDOR, "vendor", NULL) \
    X(WHAT, "what", NULL)

#define RESULTS_COMPARE_KEY_ENUM(id, key, kind) CK_##id,
typedef enum results_compare_key_id {
    RESULTS_COMPARE_KEY_LIST(RESULTS_COMPARE_KEY_ENUM) CK_COUNT
} results_compare_key_id;
#undef RESULTS_COMPARE_KEY_ENUM

typedef struct results_compare_key {
    const char *key;
    const char *kind; /* "measured", "modeled", "requested", "nominal", or NULL */
} results_compare_key;

extern const results_compare_key RESULTS_COMPARE_KEYS[CK_COUNT];
#define CK(id) (RESULTS_COMPARE_KEYS[CK_##id].key)

#endif
