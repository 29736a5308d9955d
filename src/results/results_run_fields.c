/* results_run_fields: the table of a run document's runs[] keys
 * (results_run_fields.h). */
#include "results_run_fields.h"

#include <stddef.h>

#define S RUNF_TYPE_STRING
#define I RUNF_TYPE_INTEGER
#define N RUNF_TYPE_NUMBER
#define O RUNF_TYPE_OBJECT
#define A RUNF_TYPE_ARRAY

/* key, type, kind, unit, always */
const results_run_field RESULTS_RUN_FIELDS[RUNF_COUNT] = {
    [RUNF_DEVICE] = { "device", O, NULL, NULL, 1 },
    [RUNF_STATUS] = { "status", S, NULL, NULL, 1 },
    [RUNF_FAILURE] = { "failure", S, NULL, NULL, 1 },
    [RUNF_PROFILE] = { "profile", O, NULL, NULL, 1 },
    [RUNF_PEAK_READ_GBS] = { "peak_read_gbs", N, "measured", "GB/s", 1 },
    [RUNF_PEAK_COPY_GBS] = { "peak_copy_gbs", N, "measured", "GB/s", 1 },
    [RUNF_TUNE] = { "tune", O, NULL, NULL, 1 },
    [RUNF_ROOFLINE] = { "roofline", O, "measured", NULL, 1 },
    [RUNF_TRANSFERS_FAILURE] = { "transfers_failure", S, NULL, NULL, 0 },
    [RUNF_WORKING_SET_TARGET_BYTES] = { "working_set_target_bytes", I, "requested", "bytes", 1 },
    [RUNF_WORKING_SET_SOURCE] = { "working_set_source", S, NULL, NULL, 1 },
    [RUNF_WORKING_SET_AUTO_BYTES] = { "working_set_auto_bytes", I, "requested", "bytes", 1 },
    [RUNF_WORKING_SET_FIT_NOTE] = { "working_set_fit_note", S, NULL, NULL, 1 },
    [RUNF_WORKING_SET_CACHE_BYTES] = { "working_set_cache_bytes", I, NULL, "bytes", 1 },
    [RUNF_WORKING_SET_CACHE_SOURCE] = { "working_set_cache_source", S, NULL, NULL, 1 },
    [RUNF_MEMORY_BUDGET_BYTES] = { "memory_budget_bytes", I, NULL, "bytes", 1 },
    [RUNF_BUFFERS] = { "buffers", O, "requested", "bytes", 1 },
    [RUNF_LOCAL_SIZE] = { "local_size", I, "requested", NULL, 1 },
    [RUNF_KERNEL_FORMS] = { "kernel_forms", A, "requested", NULL, 1 },
    [RUNF_UNROLL] = { "unroll", I, "requested", NULL, 1 },
    [RUNF_UNROLL_READ] = { "unroll_read", I, "requested", NULL, 1 },
    [RUNF_UNROLL_SOURCE] = { "unroll_source", S, NULL, NULL, 1 },
    [RUNF_UNROLL_CALIBRATION] = { "unroll_calibration", A, "measured", "GB/s", 1 },
    [RUNF_UNROLL_NOTE] = { "unroll_note", S, NULL, NULL, 1 },
    [RUNF_UNROLL_CALIBRATIONS] = { "unroll_calibrations", I, NULL, NULL, 1 },
    [RUNF_NOMINAL_DRAM_GBS] = { "nominal_dram_gbs", N, NULL, "GB/s", 1 },
    [RUNF_COMPRESSION_RATIO] = { "compression_ratio", N, "measured", NULL, 1 },
    [RUNF_COMPRESSION_CHECK] = { "compression_check", O, "measured", "GB/s", 1 },
    [RUNF_NOMINAL_NAME] = { "nominal_name", S, NULL, NULL, 1 },
    [RUNF_PROBE_MEMORY_GBS] = { "probe_memory_gbs", N, "measured", "GB/s", 1 },
    [RUNF_PROBE_MEMORY_DATE] = { "probe_memory_date", S, NULL, NULL, 1 },
    [RUNF_PLAN_NOTE] = { "plan_note", S, NULL, NULL, 1 },
    [RUNF_RETRY] = { "retry", S, NULL, NULL, 1 },
    [RUNF_TIMING] = { "timing", O, "measured", "s", 1 },
    [RUNF_NOISE] = { "noise", O, "measured", NULL, 1 },
};
