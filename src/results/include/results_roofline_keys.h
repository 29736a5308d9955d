/* results_roofline_keys: every key of a roofline measurement below its
 * document's head, in the form of results_doc_keys.h: `bwlab roofline`'s
 * document and devices[] (docs/results.md, "bwlab roofline"), and a run's
 * short roofline in runs[].roofline (the same keys less device). Its
 * writer (bench_roofline_document.c), the renderer (report_roofline.c),
 * the reader (results_merge.c), the schema and range checks
 * (results_merge_schema.c, results_merge_range.c, which gives each
 * figure's valid range) and compare's JSON (report_compare.c) take every
 * key from here; the device object has its own writer (bench_device_json)
 * and the timing object RESULTS_TIMING_KEYS. */
#ifndef RESULTS_ROOFLINE_KEYS_H
#define RESULTS_ROOFLINE_KEYS_H

#include "results_doc_keys.h"

#define RESULTS_ROOFLINE_KEY_LIST(X) \
    X(RR_BUDGET_S, "budget_s", RK_NUMBER, "requested", "s", RESULTS_RANGE_NONE, "document") \
    X(RR_KERNEL_FILE, "kernel_file", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "document") \
    X(RR_DEVICES, "devices", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "document") \
    X(RR_DEVICE, "device", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RR_STATUS, "status", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RR_FAILURE, "failure", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RR_INTERRUPTED, "interrupted", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "document or device") \
    X(RR_BUDGET_NOTE, "budget_note", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RR_BUFFER_BYTES, "buffer_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "device") \
    X(RR_PLANNED_BUFFER_BYTES, "planned_buffer_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "device") \
    X(RR_WORKING_SET_SOURCE, "working_set_source", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RR_PEAK_GFLOPS, "peak_gflops", RK_NUMBER, "measured", "GFLOP/s", RESULTS_RANGE_GFLOPS, "device") \
    X(RR_PEAK_GBS, "peak_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_GBS, "device") \
    X(RR_RIDGE_INTENSITY, "ridge_intensity", RK_NUMBER, "modeled", "FLOP/byte", RESULTS_RANGE_INTENSITY, "device") \
    X(RR_MEASURED_RIDGE_INTENSITY, "measured_ridge_intensity", RK_NUMBER, "measured", "FLOP/byte", RESULTS_RANGE_INTENSITY, "device") \
    X(RR_SLOPE_GBS, "slope_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_NONE, "device") \
    X(RR_PLATEAU_GFLOPS, "plateau_gflops", RK_NUMBER, "measured", "GFLOP/s", RESULTS_RANGE_NONE, "device") \
    X(RR_PEAK_FMA, "peak_fma", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device: a kernel") \
    X(RR_PEAK_READ, "peak_read", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device: a kernel") \
    X(RR_POINTS, "points", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "device: kernels, by intensity") \
    X(RR_MATMUL, "matmul", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "device: a product per tile") \
    X(RR_LAUNCH_TARGET_NS, "launch_target_ns", RK_NUMBER, "requested", "ns", RESULTS_RANGE_NONE, "device") \
    X(RR_ROUNDS, "rounds", RK_INTEGER, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RR_ELAPSED_S, "elapsed_s", RK_NUMBER, "measured", "s", RESULTS_RANGE_NONE, "device") \
    X(RR_ITEMS, "items", RK_INTEGER, "requested", "work-items", RESULTS_RANGE_NONE, "kernel or product") \
    X(RR_LOCAL_SIZE, "local_size", RK_INTEGER, "requested", "work-items per group", RESULTS_RANGE_NONE, "kernel or product") \
    X(RR_VECTOR_WIDTH, "vector_width", RK_INTEGER, "requested", "floats", RESULTS_RANGE_NONE, "kernel") \
    X(RR_CHAINS, "chains", RK_INTEGER, "requested", "chains per work-item", RESULTS_RANGE_NONE, "peak_fma") \
    X(RR_ITERATIONS, "iterations", RK_INTEGER, "requested", NULL, RESULTS_RANGE_NONE, "peak_fma") \
    X(RR_VECTORS_PER_ITEM, "vectors_per_item", RK_INTEGER, "requested", NULL, RESULTS_RANGE_NONE, "peak_read or point") \
    X(RR_K, "k", RK_INTEGER, "requested", "FMAs per float loaded", RESULTS_RANGE_NONE, "peak_read or point") \
    X(RR_FLOP, "flop", RK_NUMBER, "requested", "FLOP", RESULTS_RANGE_NONE, "kernel or product") \
    X(RR_BYTES, "bytes", RK_NUMBER, "requested", "bytes", RESULTS_RANGE_NONE, "kernel") \
    X(RR_VALIDATION, "validation", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "kernel or product") \
    X(RR_TIME_NS, "time_ns", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "kernel or product: RESULTS_TIMING_KEYS") \
    X(RR_GFLOPS, "gflops", RK_NUMBER, "measured", "GFLOP/s", RESULTS_RANGE_GFLOPS, "kernel or product") \
    X(RR_GBS, "gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_GBS, "kernel") \
    X(RR_INTENSITY, "intensity", RK_NUMBER, "requested", "FLOP/byte", RESULTS_RANGE_INTENSITY, "point or product") \
    X(RR_ATTAINABLE_GFLOPS, "attainable_gflops", RK_NUMBER, "modeled", "GFLOP/s", RESULTS_RANGE_GFLOPS, "point or product") \
    X(RR_FRACTION_OF_ROOF, "fraction_of_roof", RK_NUMBER, "measured", NULL, RESULTS_RANGE_NONE, "point or product") \
    X(RR_BOUND, "bound", RK_STRING, "modeled", NULL, RESULTS_RANGE_NONE, "point or product") \
    X(RR_TILE, "tile", RK_INTEGER, "requested", "elements per side", RESULTS_RANGE_NONE, "product") \
    X(RR_MEASURED, "measured", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "product") \
    X(RR_SKIPPED, "skipped", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "product") \
    X(RR_N, "n", RK_INTEGER, "requested", "matrix order", RESULTS_RANGE_NONE, "product")

typedef enum results_roofline_key_id { RESULTS_ROOFLINE_KEY_LIST(RESULTS_DOC_KEY_ENUM) RR_COUNT } results_roofline_key_id;

extern const results_doc_key RESULTS_ROOFLINE_KEYS[RR_COUNT];
#define RR_KEY(id) (RESULTS_ROOFLINE_KEYS[id].key)

#endif
