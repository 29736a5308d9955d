/* results_run_fields: every key of a run document (docs/results.md, "Top
 * level", "runs[]" and the nested objects of "results[]") that is not one
 * of a result's flat fields (results_fields.h), in the form of
 * results_doc_keys.h: the document's own keys, each runs[] object's, and
 * the objects nested in both (host, settings, profile, tune, buffers,
 * timing, noise, the calibration ladder, the compression check; a
 * result's form times, launch bounds, reference check, model with its
 * warp 0 and traffic, and verdict; the family blocks' own keys). The
 * run's writer (bench_run_document.c, results_traffic_json.c, the family
 * entries' doc_keys) takes every such key from
 * here, the reader its runs[] and profile ranges, and the tests hold a
 * written document and docs/results.md to the table. A row whose `where`
 * is "run" is in every runs[] object of a device that has a plan. The
 * device object has its own writer (bench_device_json), the timing
 * objects RESULTS_TIMING_KEYS, and the tune peaks, the short roofline and
 * the transfers the keys of their commands' tables. */
#ifndef RESULTS_RUN_FIELDS_H
#define RESULTS_RUN_FIELDS_H

#include "results_doc_keys.h"

#define RESULTS_RUN_KEY_LIST(X) \
    /* runs[] */ \
    X(RUNF_DEVICE, "device", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_STATUS, "status", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_FAILURE, "failure", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_PROFILE, "profile", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_PEAK_READ_GBS, "peak_read_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_GBS, "run") \
    X(RUNF_PEAK_COPY_GBS, "peak_copy_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_GBS, "run") \
    X(RUNF_TUNE, "tune", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_ROOFLINE, "roofline", RK_OBJECT, "measured", NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_TRANSFERS_FAILURE, "transfers_failure", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, \
      "run, with --transfers, when they failed") \
    X(RUNF_WORKING_SET_TARGET_BYTES, "working_set_target_bytes", RK_INTEGER, "requested", "bytes", \
      RESULTS_RANGE_NONE, "run") \
    X(RUNF_WORKING_SET_SOURCE, "working_set_source", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_WORKING_SET_AUTO_BYTES, "working_set_auto_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, \
      "run") \
    X(RUNF_WORKING_SET_FIT_NOTE, "working_set_fit_note", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_WORKING_SET_CACHE_BYTES, "working_set_cache_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_NONE, "run") \
    X(RUNF_WORKING_SET_CACHE_SOURCE, "working_set_cache_source", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_TWIN_CACHE_BYTES, "twin_cache_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_NONE, "run") \
    X(RUNF_TWIN_CACHE_SOURCE, "twin_cache_source", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_MEMORY_BUDGET_BYTES, "memory_budget_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_NONE, "run") \
    X(RUNF_BUFFERS, "buffers", RK_OBJECT, "requested", "bytes", RESULTS_RANGE_NONE, "run or document") \
    X(RUNF_LOCAL_SIZE, "local_size", RK_INTEGER, "requested", NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_KERNEL_FORMS, "kernel_forms", RK_ARRAY, "requested", NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_READ_GUARD, "read_guard", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_UNROLL, "unroll", RK_INTEGER, "requested", NULL, RESULTS_RANGE_NONE, "run or calibration point") \
    X(RUNF_UNROLL_READ, "unroll_read", RK_INTEGER, "requested", NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_UNROLL_SOURCE, "unroll_source", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_UNROLL_CALIBRATION, "unroll_calibration", RK_ARRAY, "measured", "GB/s", RESULTS_RANGE_NONE, "run") \
    X(RUNF_UNROLL_NOTE, "unroll_note", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_UNROLL_CALIBRATIONS, "unroll_calibrations", RK_INTEGER, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_NOMINAL_DRAM_GBS, "nominal_dram_gbs", RK_NUMBER, "nominal", "GB/s", RESULTS_RANGE_NONE, "run") \
    X(RUNF_COMPRESSION_RATIO, "compression_ratio", RK_NUMBER, "measured", NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_COMPRESSION_CHECK, "compression_check", RK_OBJECT, "measured", "GB/s", RESULTS_RANGE_NONE, "run") \
    X(RUNF_NOMINAL_NAME, "nominal_name", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_PROBE_MEMORY_GBS, "probe_memory_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_NONE, "run") \
    X(RUNF_PROBE_MEMORY_DATE, "probe_memory_date", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_PLAN_NOTE, "plan_note", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run or timing") \
    X(RUNF_RETRY, "retry", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "run") \
    X(RUNF_TIMING, "timing", RK_OBJECT, "measured", "s", RESULTS_RANGE_NONE, "run") \
    X(RUNF_NOISE, "noise", RK_OBJECT, "measured", NULL, RESULTS_RANGE_NONE, "run") \
    /* the document */ \
    X(RUND_HOST, "host", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "document") \
    X(RUND_SETTINGS, "settings", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "document") \
    X(RUND_INTERRUPTED, "interrupted", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "document or timing") \
    X(RUND_NOISY, "noisy", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "document or noise") \
    X(RUND_RUNS, "runs", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "document") \
    X(RUND_RESULTS, "results", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "document") \
    X(RUND_PARTIAL, "partial", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "journal head") \
    X(RUND_DEVICES, "devices", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "journal head") \
    X(RUND_NAME, "name", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "host or profile") \
    X(RUND_HOST_OS, "os", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "host") \
    X(RUND_BUDGET_S, "budget_s", RK_NUMBER, "requested", "s", RESULTS_RANGE_NONE, "settings") \
    X(RUND_RSE_TARGET, "rse_target", RK_NUMBER, "requested", NULL, RESULTS_RANGE_NONE, "settings") \
    X(RUND_MIN_REPS, "min_reps", RK_INTEGER, "requested", "launches", RESULTS_RANGE_NONE, "settings") \
    X(RUND_MAX_REPS, "max_reps", RK_INTEGER, "requested", "launches", RESULTS_RANGE_NONE, "settings") \
    X(RUND_WARMUP, "warmup", RK_INTEGER, "requested", "launches", RESULTS_RANGE_NONE, "settings") \
    X(RUND_MIN_TOTAL_S, "min_total_s", RK_NUMBER, "requested", "s", RESULTS_RANGE_NONE, "settings") \
    X(RUND_KERNEL_FILE, "kernel_file", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "settings") \
    X(RUND_ACCESS, "access", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, \
      "settings, calibration point or compression check") \
    /* runs[].profile */ \
    X(RUNP_WHY, "why", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "profile") \
    X(RUNP_LANES, "lanes", RK_INTEGER, NULL, "lanes", RESULTS_RANGE_LANES, "profile") \
    X(RUNP_SECTOR_BYTES, "sector_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_UNIT, "profile or model") \
    X(RUNP_LINE_BYTES, "line_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_UNIT, "profile or model") \
    X(RUNP_BANKS, "banks", RK_INTEGER, NULL, NULL, RESULTS_RANGE_COUNT, "profile") \
    X(RUNP_BANK_WIDTH, "bank_width", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_COUNT, "profile") \
    X(RUNP_DRAM_UNIT_BYTES, "dram_unit_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_NONE, "profile") \
    X(RUNP_INFERRED_FIELDS, "inferred_fields", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "profile") \
    /* runs[].tune: its read and copy are the tune document's peaks */ \
    X(RUNT_SOURCE, "source", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "tune") \
    X(RUNT_DATE, "date", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "tune") \
    X(RUNT_BUFFER_BYTES, "buffer_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "tune") \
    X(RUNT_READ, "read", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "tune") \
    X(RUNT_COPY, "copy", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "tune") \
    /* runs[].buffers */ \
    X(RUNB_SRC_BYTES, "src_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "buffers") \
    X(RUNB_DST_BYTES, "dst_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "buffers") \
    X(RUNB_DST_SHIFT_BYTES, "dst_shift_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "buffers") \
    /* runs[].unroll_calibration[] (access and unroll above) */ \
    X(RUNU_GBS, "gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_NONE, "calibration point") \
    /* runs[].compression_check (access above) */ \
    X(RUNC_PATTERN, "pattern", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "compression check") \
    X(RUNC_ZERO_FILL_GBS, "zero_fill_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_NONE, "compression check") \
    X(RUNC_RANDOM_FILL_GBS, "random_fill_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_NONE, \
      "compression check") \
    X(RUNC_FAILURE, "failure", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "compression check") \
    /* runs[].timing (interrupted and plan_note above) */ \
    X(RUNI_TOTAL_S, "total_s", RK_NUMBER, "measured", "s", RESULTS_RANGE_NONE, "timing") \
    X(RUNI_TIMING_S, "timing_s", RK_NUMBER, "measured", "s", RESULTS_RANGE_NONE, "timing") \
    X(RUNI_BUFFERS_S, "buffers_s", RK_NUMBER, "measured", "s", RESULTS_RANGE_NONE, "timing") \
    X(RUNI_BUILD_S, "build_s", RK_NUMBER, "measured", "s", RESULTS_RANGE_NONE, "timing") \
    X(RUNI_PREPARE_S, "prepare_s", RK_NUMBER, "measured", "s", RESULTS_RANGE_NONE, "timing") \
    X(RUNI_FILL_NOTE, "fill_note", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "timing") \
    X(RUNI_ROUNDS, "rounds", RK_INTEGER, NULL, "rounds", RESULTS_RANGE_NONE, "timing or reference check") \
    X(RUNI_BUDGET_ENDED, "budget_ended", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "timing") \
    X(RUNI_TIMER, "timer", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "timing") \
    X(RUNI_TIMER_RESOLUTION_NS, "timer_resolution_ns", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "timing") \
    X(RUNI_LAUNCH_OVERHEAD_NS, "launch_overhead_ns", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "timing") \
    X(RUNI_UNSTABLE, "unstable", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "timing") \
    X(RUNI_LEFT_OUT, "left_out", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "timing") \
    X(RUNI_LEFT_OUT_OF_LATER_ROUNDS, "left_out_of_later_rounds", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "timing") \
    X(RUNI_PLANNED_S, "planned_s", RK_NUMBER, "measured", "s", RESULTS_RANGE_NONE, "timing") \
    X(RUNI_AVAILABLE_S, "available_s", RK_NUMBER, "measured", "s", RESULTS_RANGE_NONE, "timing") \
    X(RUNI_REPLAN_NOTE, "replan_note", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "timing") \
    /* runs[].noise (noisy above) */ \
    X(RUNN_SEQ_SPREAD, "seq_spread", RK_NUMBER, "measured", NULL, RESULTS_RANGE_NONE, "noise") \
    X(RUNN_SEQ_PATTERN, "seq_pattern", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "noise") \
    X(RUNN_RELATIVE_SPREAD, "relative_spread", RK_NUMBER, "measured", NULL, RESULTS_RANGE_NONE, "noise") \
    X(RUNN_RELATIVE_PATTERN, "relative_pattern", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "noise") \
    X(RUNN_SEQ_LIMIT, "seq_limit", RK_NUMBER, NULL, NULL, RESULTS_RANGE_NONE, "noise") \
    X(RUNN_RELATIVE_LIMIT, "relative_limit", RK_NUMBER, NULL, NULL, RESULTS_RANGE_NONE, "noise") \
    /* results[]: the nested objects */ \
    X(RUNR_FORM_TIME_NS, "form_time_ns", RK_OBJECT, "measured", "ns", RESULTS_RANGE_NONE, "result") \
    X(RUNR_PLAIN, "plain", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "form times") \
    X(RUNR_SCALAR, "scalar", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "form times") \
    X(RUNR_WARP, "warp", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "form times") \
    X(RUNR_LAUNCH_BOUNDS, "launch_bounds", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "result") \
    X(RUNR_TIME_NS, "time_ns", RK_OBJECT, "measured", "ns", RESULTS_RANGE_NONE, "result: RESULTS_TIMING_KEYS") \
    X(RUNR_WALL_NS, "wall_ns", RK_OBJECT, "measured", "ns", RESULTS_RANGE_NONE, "result: RESULTS_TIMING_KEYS") \
    X(RUNR_RELATIVE_TO_SEQ_CI, "relative_to_seq_ci", RK_ARRAY, "measured", NULL, RESULTS_RANGE_NONE, "result") \
    X(RUNR_REFERENCE_CHECK, "reference_check", RK_OBJECT, "measured", NULL, RESULTS_RANGE_NONE, "result") \
    X(RUNR_MODEL, "model", RK_OBJECT, "modeled", NULL, RESULTS_RANGE_NONE, "result") \
    X(RUNR_VERDICT, "verdict", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "result or reference check") \
    X(RUNR_EXPLAIN, "explain", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "result") \
    /* results[].launch_bounds */ \
    X(RUNL_WARP_INSTRUCTIONS, "warp_instructions", RK_INTEGER, "modeled", NULL, RESULTS_RANGE_NONE, \
      "launch bounds or traffic") \
    X(RUNL_FOOTPRINT_BYTES, "footprint_bytes", RK_INTEGER, "modeled", "bytes", RESULTS_RANGE_NONE, \
      "launch bounds, model or traffic") \
    X(RUNL_INSTRUCTION_MODEL_BYTES, "instruction_model_bytes", RK_INTEGER, "modeled", "bytes", RESULTS_RANGE_NONE, \
      "launch bounds, model or traffic") \
    X(RUNL_FOOTPRINT_TIME_NS, "footprint_time_ns", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "launch bounds") \
    X(RUNL_INSTRUCTION_TIME_NS, "instruction_time_ns", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, \
      "launch bounds") \
    X(RUNL_MEDIAN_TIME_NS, "median_time_ns", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "launch bounds") \
    /* results[].reference_check (rounds above, verdict a word here) */ \
    X(RUNK_OWN_MEDIAN_GBS, "own_median_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_NONE, "reference check") \
    X(RUNK_CONTROL_MEDIAN_GBS, "control_median_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_NONE, \
      "reference check") \
    X(RUNK_RATIO, "ratio", RK_NUMBER, "measured", NULL, RESULTS_RANGE_NONE, "reference check") \
    X(RUNK_RATIO_CI, "ratio_ci", RK_ARRAY, "measured", NULL, RESULTS_RANGE_NONE, "reference check") \
    X(RUNK_TOLERANCE, "tolerance", RK_NUMBER, NULL, NULL, RESULTS_RANGE_NONE, "reference check") \
    X(RUNK_VERDICT, "verdict", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "reference check") \
    /* results[].model (sector_bytes, line_bytes and the bytes above) */ \
    X(RUNM_WARP0, "warp0", RK_OBJECT, "modeled", NULL, RESULTS_RANGE_NONE, "model") \
    X(RUNM_LOADS, "loads", RK_OBJECT, "modeled", NULL, RESULTS_RANGE_NONE, "model") \
    X(RUNM_STORES, "stores", RK_OBJECT, "modeled", NULL, RESULTS_RANGE_NONE, "model") \
    X(RUNM_REQUESTED_BYTES, "requested_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, \
      "model, warp 0 or traffic") \
    X(RUNM_SECTOR_EFFICIENCY, "sector_efficiency", RK_NUMBER, "modeled", NULL, RESULTS_RANGE_NONE, "model or warp 0") \
    X(RUNM_PREDICTED_EFFICIENCY, "predicted_efficiency", RK_NUMBER, "modeled", NULL, RESULTS_RANGE_NONE, \
      "model or traffic") \
    /* results[].model.warp0 */ \
    X(RUNW_DISTINCT_BYTES, "distinct_bytes", RK_INTEGER, "modeled", "bytes", RESULTS_RANGE_NONE, "warp 0") \
    X(RUNW_SECTORS, "sectors", RK_INTEGER, "modeled", "sectors", RESULTS_RANGE_NONE, "warp 0") \
    X(RUNW_LINES, "lines", RK_INTEGER, "modeled", "lines", RESULTS_RANGE_NONE, "warp 0") \
    X(RUNW_LINE_EFFICIENCY, "line_efficiency", RK_NUMBER, "modeled", NULL, RESULTS_RANGE_NONE, "warp 0") \
    /* results[].model.loads and .stores (results_traffic_json) */ \
    X(RUNX_INSTRUCTION_SECTORS, "instruction_sectors", RK_INTEGER, "modeled", "sectors", RESULTS_RANGE_NONE, \
      "traffic") \
    X(RUNX_FOOTPRINT_SECTORS, "footprint_sectors", RK_INTEGER, "modeled", "sectors", RESULTS_RANGE_NONE, "traffic") \
    X(RUNX_INSTRUCTION_LINES, "instruction_lines", RK_INTEGER, "modeled", "lines", RESULTS_RANGE_NONE, "traffic") \
    X(RUNX_FOOTPRINT_LINES, "footprint_lines", RK_INTEGER, "modeled", "lines", RESULTS_RANGE_NONE, "traffic") \
    X(RUNX_INSTRUCTION_LINE_BYTES, "instruction_line_bytes", RK_INTEGER, "modeled", "bytes", RESULTS_RANGE_NONE, \
      "traffic") \
    X(RUNX_FOOTPRINT_LINE_BYTES, "footprint_line_bytes", RK_INTEGER, "modeled", "bytes", RESULTS_RANGE_NONE, \
      "traffic") \
    X(RUNX_PARTIAL_SECTORS, "partial_sectors", RK_INTEGER, "modeled", "sectors", RESULTS_RANGE_NONE, "traffic") \
    X(RUNX_WRITTEN_BYTES, "written_bytes", RK_INTEGER, "modeled", "bytes", RESULTS_RANGE_NONE, "traffic") \
    /* results[].verdict */ \
    X(RUNV_CODE, "code", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "verdict") \
    X(RUNV_TEXT, "text", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "verdict") \
    X(RUNV_WRITE_ALLOCATE, "write_allocate", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "verdict") \
    X(RUNV_IMPLIED_TRAFFIC_BYTES, "implied_traffic_bytes", RK_NUMBER, "measured", "bytes", RESULTS_RANGE_NONE, \
      "verdict") \
    X(RUNV_RATE_PATTERN, "rate_pattern", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "verdict") \
    X(RUNV_KERNEL_EVIDENCE, "kernel_evidence", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "verdict") \
    X(RUNV_LOWER_BYTES, "lower_bytes", RK_NUMBER, "modeled", "bytes", RESULTS_RANGE_NONE, "verdict") \
    X(RUNV_UPPER_BYTES, "upper_bytes", RK_NUMBER, "modeled", "bytes", RESULTS_RANGE_NONE, "verdict") \
    X(RUNV_BOUND_UNIT, "bound_unit", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "verdict") \
    X(RUNV_BOUND_UNIT_BYTES, "bound_unit_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_NONE, "verdict") \
    X(RUNV_POSITION, "position", RK_NUMBER, "measured", NULL, RESULTS_RANGE_NONE, "verdict") \
    /* results[]: the family blocks' own keys (bench_family.doc_keys) beside their results_fields ones */ \
    X(RUNY_LOCAL_READS_PER_ITEM, "local_reads_per_item", RK_INTEGER, "requested", "reads", RESULTS_RANGE_NONE, \
      "result of a bank pattern") \
    X(RUNY_LOCAL_BYTES, "local_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, \
      "result of a bank pattern") \
    X(RUNY_TILE_BYTES, "tile_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "result of a bank pattern") \
    X(RUNY_VERSION, "version", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "result of a transpose") \
    X(RUNY_N, "n", RK_INTEGER, "requested", NULL, RESULTS_RANGE_NONE, "result of a transpose or record pattern") \
    X(RUNY_N_FROM, "n_from", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "result of a transpose or record pattern") \
    X(RUNY_STORE_EXPRESSION, "store_expression", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, \
      "result of a transpose or record pattern") \
    X(RUNY_TILE, "tile", RK_INTEGER, "requested", NULL, RESULTS_RANGE_NONE, "result of a transpose") \
    X(RUNY_LAUNCH_ITEMS, "launch_items", RK_INTEGER, "requested", "work-items", RESULTS_RANGE_NONE, \
      "result of a transpose") \
    X(RUNY_TILE_PITCH, "tile_pitch", RK_INTEGER, "requested", "words", RESULTS_RANGE_NONE, "result of a transpose") \
    X(RUNY_LAYOUT, "layout", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "result of a record pattern") \
    X(RUNY_FIELDS, "fields", RK_INTEGER, "requested", NULL, RESULTS_RANGE_NONE, "result of a record pattern") \
    X(RUNY_FIELD_TYPE, "field_type", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "result of a record pattern") \
    X(RUNY_RECORD_BYTES, "record_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, \
      "result of a record pattern") \
    X(RUNY_LOADS_PER_ITEM, "loads_per_item", RK_INTEGER, "requested", NULL, RESULTS_RANGE_NONE, \
      "result of a record pattern") \
    X(RUNY_LOAD_BASES, "load_bases", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "result of a record pattern")

typedef enum results_run_field_id { RESULTS_RUN_KEY_LIST(RESULTS_DOC_KEY_ENUM) RUNF_COUNT } results_run_field_id;

extern const results_doc_key RESULTS_RUN_FIELDS[RUNF_COUNT];
#define RUN_KEY(id) (RESULTS_RUN_FIELDS[id].key)

/* Values the keys take, spelled once for the writer and the renderers:
 * unroll_source's (--unroll K; auto's calibration; auto without one) */
#define RESULTS_UNROLL_OPTION "option"
#define RESULTS_UNROLL_CALIBRATION "calibration"
#define RESULTS_UNROLL_DEFAULT "default"
/* results[].bound: "kernel" where twin_ratio is at least this (taking
 * memory out of the way buys less than 25%: 1 / 0.8 = 1.25), else
 * "memory" */
#define RESULTS_TWIN_KERNEL_BOUND 0.8

#endif
