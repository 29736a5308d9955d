/* results_fields: the table of a result's plain scalar keys
 * (results_fields.h). */
#include "results_fields.h"

#include <stddef.h>

#include "results_merge.h"
#include "results_merge_range_priv.h"

#define S RESULTS_FIELD_STRING
#define I RESULTS_FIELD_INTEGER
#define N RESULTS_FIELD_NUMBER
#define B RESULTS_FIELD_BOOL
#define HEAD RESULTS_FIELD_HEAD
#define TWIN RESULTS_FIELD_TWIN
#define FAM RESULTS_FIELD_FAMILY
/* not range-checked on reading */
#define NR 0, RESULTS_RANGE_GBS
#define R(kind) 1, RESULTS_RANGE_##kind
#define NOWHERE RESULTS_FIELD_NOWHERE, 0
#define ROW RESULTS_FIELD_ROW, 0
#define SAMPLE(f) RESULTS_FIELD_SAMPLE, offsetof(results_merge_sample, f)
#define ENTRY(f) RESULTS_FIELD_ENTRY, offsetof(results_merge_entry, f)

/* key, type, unit, group, required, checked, range, measured, place */
const results_field RESULTS_FIELDS[RF_COUNT] = {
    /* the check has code of its own for the device: an integer that a runs[].device.index names */
    [RF_DEVICE] = { "device", I, NULL, HEAD, 1, 0, NR, 0, NOWHERE },
    [RF_PATTERN] = { "pattern", S, NULL, HEAD, 1, 1, NR, 0, ROW },
    [RF_FAMILY] = { "family", S, NULL, HEAD, 0, 1, NR, 0, ROW },
    /* its value: results_range_result, per row */
    [RF_ACCESS] = { "access", S, NULL, HEAD, 0, 1, NR, 0, ROW },
    [RF_EXPRESSION] = { "expression", S, NULL, HEAD, 0, 1, NR, 0, ENTRY(expression) },
    [RF_ELEM_BYTES] = { "elem_bytes", I, "bytes", HEAD, 0, 1, R(ELEM), 0, ENTRY(elem_bytes) },
    [RF_LANES] = { "lanes", I, "lanes", HEAD, 0, 0, R(LANES), 0, NOWHERE },
    [RF_ACTIVE_LANES] = { "active_lanes", I, "lanes", HEAD, 0, 0, R(COUNT), 0, NOWHERE },
    [RF_ITEMS] = { "items", I, "work-items", HEAD, 0, 0, R(COUNT), 0, NOWHERE },
    [RF_LOCAL_SIZE] = { "local_size", I, "work-items", HEAD, 0, 0, R(UNIT), 0, NOWHERE },
    [RF_LOAD] = { "load", S, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_ADDED_AS_REFERENCE] = { "added_as_reference", B, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_WORKING_SET_BYTES] = { "working_set_bytes", I, "bytes", HEAD, 0, 0, R(BYTES), 0, NOWHERE },
    [RF_SIZE_NOTE] = { "size_note", S, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    /* its value: results_range_result */
    [RF_STATUS] = { "status", S, NULL, HEAD, 0, 1, NR, 0, SAMPLE(status) },
    [RF_VALIDATION] = { "validation", S, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_STATUS_REASON] = { "status_reason", S, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_INDEX_BITS] = { "index_bits", I, "bits", HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_UNROLL] = { "unroll", I, "items per work-item", HEAD, 0, 0, R(UNIT), 0, NOWHERE },
    [RF_UNROLL_SOURCE] = { "unroll_source", S, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_PLAUSIBILITY] = { "plausibility", S, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_KERNEL_FORM] = { "kernel_form", S, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_TIMER] = { "timer", S, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_TIMER_RESOLUTION_NS] = { "timer_resolution_ns", N, "ns", HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_LAUNCH_OVERHEAD_NS] = { "launch_overhead_ns", N, "ns", HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_HOST_UNIFIED_MEMORY] = { "host_unified_memory", B, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_RETRY] = { "retry", S, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_SUB_GROUP_SIZE] = { "sub_group_size", I, "lanes", HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_DROPPED_SAMPLES] = { "dropped_samples", I, "launches", HEAD, 0, 0, R(COUNT), 0, NOWHERE },
    [RF_EFFECTIVE_GBS] = { "effective_gbs", N, "GB/s", HEAD, 0, 1, R(GBS), 1, SAMPLE(effective_gbs) },
    [RF_RELATIVE_TO_SEQ] = { "relative_to_seq", N, NULL, HEAD, 0, 1, R(RATIO), 1, SAMPLE(relative_to_seq) },
    [RF_FRACTION_OF_PEAK] = { "fraction_of_peak", N, NULL, HEAD, 0, 1, R(RATIO), 1, SAMPLE(fraction_of_peak) },
    [RF_REFERENCE] = { "reference", S, NULL, HEAD, 0, 0, NR, 0, NOWHERE },
    [RF_SPACE] = { "space", S, NULL, HEAD, 0, 1, NR, 0, ROW },
    [RF_BEST_GBS] = { "best_gbs", N, "GB/s", TWIN, 0, 1, R(GBS), 1, SAMPLE(best_gbs) },
    [RF_STABLE] = { "stable", B, NULL, TWIN, 0, 0, NR, 0, NOWHERE },
    [RF_TWIN_TIME_NS] = { "twin_time_ns", N, "ns", TWIN, 0, 0, R(TIME_NS), 0, NOWHERE },
    [RF_TWIN_ITEMS] = { "twin_items", I, "work-items", TWIN, 0, 0, NR, 0, NOWHERE },
    [RF_TWIN_COLD_TIME_NS] = { "twin_cold_time_ns", N, "ns", TWIN, 0, 0, NR, 0, NOWHERE },
    [RF_TWIN_RATIO] = { "twin_ratio", N, NULL, TWIN, 0, 0, R(RATIO), 0, NOWHERE },
    [RF_BOUND] = { "bound", S, NULL, TWIN, 0, 0, NR, 0, NOWHERE },
    [RF_TWIN_REASON] = { "twin_reason", S, NULL, TWIN, 0, 0, NR, 0, NOWHERE },
    [RF_SPREAD] = { "spread", N, NULL, TWIN, 0, 0, R(SPREAD), 0, NOWHERE },
    [RF_RELATIVE_SPREAD] = { "relative_spread", N, NULL, TWIN, 0, 0, R(SPREAD), 0, NOWHERE },
    [RF_PAIRED_ROUNDS] = { "paired_rounds", I, "rounds", TWIN, 0, 0, R(COUNT), 0, NOWHERE },
    [RF_BUDGET_NOTE] = { "budget_note", S, NULL, TWIN, 0, 0, NR, 0, NOWHERE },
    [RF_LOCAL_GBS] = { "local_gbs", N, "GB/s", FAM, 0, 1, R(GBS), 1, ENTRY(local_gbs) },
    [RF_RELATIVE_TO_REFERENCE] = { "relative_to_reference", N, NULL, FAM, 0, 1, R(RATIO), 1,
                                   ENTRY(relative_to_reference) },
    [RF_CONFLICT_WAYS] = { "conflict_ways", I, "ways", FAM, 0, 1, R(COUNT), 0, ENTRY(conflict_ways) },
    [RF_MEASURED_TIME_RATIO] = { "measured_time_ratio", N, NULL, FAM, 0, 0, R(RATIO), 0, NOWHERE },
    [RF_MODELED_INSTRUCTION_RATIO] = { "modeled_instruction_ratio", N, NULL, FAM, 0, 0, R(RATIO), 0, NOWHERE },
    [RF_MODELED_FOOTPRINT_RATIO] = { "modeled_footprint_ratio", N, NULL, FAM, 0, 0, R(RATIO), 0, NOWHERE },
};
