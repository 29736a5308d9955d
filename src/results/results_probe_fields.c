/* results_probe_fields: the table of the probe document's shared keys
 * (results_probe_fields.h). */
#include "results_probe_fields.h"

#include <stddef.h>

#define S RP_TYPE_STRING
#define I RP_TYPE_INTEGER
#define N RP_TYPE_NUMBER
#define B RP_TYPE_BOOL
#define O RP_TYPE_OBJECT
#define A RP_TYPE_ARRAY

/* key, type, unit, where */
const results_probe_field RESULTS_PROBE_FIELDS[RP_COUNT] = {
    [RP_STATUS] = { "status", S, NULL, "device" },
    [RP_UNIT_AGREEMENT] = { "unit_agreement", S, NULL, "device" },
    [RP_INFERRED_UNIT_BYTES] = { "inferred_unit_bytes", I, "bytes", "device" },
    [RP_PROFILE_UNIT_BYTES] = { "profile_unit_bytes", I, "bytes", "device" },
    [RP_PROFILE_LINE_BYTES] = { "profile_line_bytes", I, "bytes", "device" },
    [RP_CACHE_LEVELS] = { "cache_levels", A, NULL, "device" },
    [RP_MEMORY] = { "memory", O, NULL, "device" },
    [RP_LADDER] = { "ladder", A, NULL, "device" },
    [RP_TRANSFERS] = { "transfers", A, NULL, "device or run" },
    [RP_LAUNCH_LATENCY_US] = { "launch_latency_us", N, "us", "device or run" },
    [RP_SMALL_TRANSFER_LATENCY_US] = { "small_transfer_latency_us", N, "us", "device or run" },
    [RP_SMALL_TRANSFER_BYTES] = { "small_transfer_bytes", I, "bytes", "device or run" },
    [RP_SIZE_BYTES] = { "size_bytes", N, "bytes", "level" },
    [RP_BYTES] = { "bytes", N, "bytes", "ladder point or transfer" },
    [RP_READ_GBS] = { "read_gbs", N, "GB/s", "level, memory or ladder point" },
    [RP_LATENCY_NS] = { "latency_ns", N, "ns", "level, memory or ladder point" },
    [RP_LATENCY_PER_CU_NS] = { "latency_per_cu_ns", N, "ns", "level, memory or ladder point" },
    [RP_LATENCY_PAGE_NS] = { "latency_page_ns", N, "ns", "level, memory or ladder point" },
    [RP_DIRECTION] = { "direction", S, NULL, "transfer" },
    [RP_TRANSFER_MEMORY] = { "memory", S, NULL, "transfer" },
    [RP_BLOCKING] = { "blocking", B, NULL, "transfer" },
    [RP_GBS] = { "gbs", N, "GB/s", "transfer" },
    [RP_US] = { "us", N, "us", "transfer" },
};
