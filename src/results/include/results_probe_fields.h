/* results_probe_fields: every key of `bwlab probe`'s results document
 * (docs/results.md, "bwlab probe") below its head, in the form of
 * results_doc_keys.h; the transfer keys on a run's runs[] entry carry its
 * transfers (bwlab run --transfers). The writer (bench_probe_document.c),
 * the reader (results_merge_probe.c) and the renderer (report_probe.c)
 * take every key from here; the device object has its own writer
 * (bench_device_json). The reader's keys come first, RP_STATUS to RP_US
 * (RP_SHARED_COUNT of them): it checks their types and, where a row
 * gives one, their valid ranges from the table. */
#ifndef RESULTS_PROBE_FIELDS_H
#define RESULTS_PROBE_FIELDS_H

#include "results_doc_keys.h"

#define RESULTS_PROBE_KEY_LIST(X) \
    /* read by the reader: a device's record (devices[]) */ \
    X(RP_STATUS, "status", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_UNIT_AGREEMENT, "unit_agreement", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_INFERRED_UNIT_BYTES, "inferred_unit_bytes", RK_INTEGER, "measured", "bytes", RESULTS_RANGE_UNIT, "device") \
    X(RP_PROFILE_UNIT_BYTES, "profile_unit_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_UNIT, "device") \
    X(RP_PROFILE_LINE_BYTES, "profile_line_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_UNIT, "device") \
    X(RP_CACHE_LEVELS, "cache_levels", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "device: levels") \
    X(RP_MEMORY, "memory", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device: a level without size") \
    X(RP_LADDER, "ladder", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "device: ladder points") \
    /* a device's record or a run: transfers and launch latency */ \
    X(RP_TRANSFERS, "transfers", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "device or run") \
    X(RP_LAUNCH_LATENCY_US, "launch_latency_us", RK_NUMBER, "measured", "us", RESULTS_RANGE_TIME_US, "device or run") \
    X(RP_SMALL_TRANSFER_LATENCY_US, "small_transfer_latency_us", RK_NUMBER, "measured", "us", RESULTS_RANGE_TIME_US, \
      "device or run") \
    X(RP_SMALL_TRANSFER_BYTES, "small_transfer_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_UNIT, \
      "device or run") \
    /* a cache level, the memory, a ladder point */ \
    X(RP_SIZE_BYTES, "size_bytes", RK_NUMBER, "measured", "bytes", RESULTS_RANGE_BYTES, "level, host cache or TLB reach") \
    X(RP_BYTES, "bytes", RK_NUMBER, "requested", "bytes", RESULTS_RANGE_BYTES, "ladder point") \
    X(RP_READ_GBS, "read_gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_GBS, "level, memory or ladder point") \
    X(RP_LATENCY_NS, "latency_ns", RK_NUMBER, "measured", "ns", RESULTS_RANGE_TIME_NS, "level, memory or ladder point") \
    X(RP_LATENCY_PER_CU_NS, "latency_per_cu_ns", RK_NUMBER, "measured", "ns", RESULTS_RANGE_TIME_NS, \
      "level, memory or ladder point") \
    X(RP_LATENCY_PAGE_NS, "latency_page_ns", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, \
      "level, memory or ladder point") \
    /* a transfer */ \
    X(RP_TRANSFER_BYTES, "bytes", RK_NUMBER, "requested", "bytes", RESULTS_RANGE_UNIT, "transfer or map") \
    X(RP_DIRECTION, "direction", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "transfer or map") \
    X(RP_TRANSFER_MEMORY, "memory", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "transfer or map") \
    X(RP_BLOCKING, "blocking", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "transfer") \
    X(RP_GBS, "gbs", RK_NUMBER, "measured", "GB/s", RESULTS_RANGE_GBS, "transfer or map") \
    X(RP_US, "us", RK_NUMBER, "measured", "us", RESULTS_RANGE_TIME_US, "transfer or map") \
    /* the writer's own: the document */ \
    X(RP_CACHE_FILE, "cache_file", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "document") \
    X(RP_INTERRUPTED, "interrupted", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "document or device") \
    X(RP_DEVICES, "devices", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "document") \
    /* a device's record */ \
    X(RP_DEVICE, "device", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_FAILURE, "failure", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_CACHE_NOTE, "cache_note", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_QUICK, "quick", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_INTERRUPTED_IN, "interrupted_in", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_SECONDS, "seconds", RK_NUMBER, "measured", "s", RESULTS_RANGE_NONE, "device") \
    X(RP_KERNEL_FILE, "kernel_file", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_INFERRED_UNIT_REASON, "inferred_unit_reason", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_SECTOR_PAIRS, "sector_pairs", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_NOMINAL_DRAM_GBS, "nominal_dram_gbs", RK_NUMBER, "nominal", "GB/s", RESULTS_RANGE_NONE, "device") \
    X(RP_MEMORY_PLAUSIBILITY, "memory_plausibility", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_DEVICE_CACHE_BYTES, "device_cache_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_NONE, "device") \
    X(RP_DEVICE_CACHE_AGREEMENT, "device_cache_agreement", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_HOST_CACHES, "host_caches", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_LEVELS_FROM, "levels_from", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_TLB_REACHES, "tlb_reaches", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_CHASE_VALIDATION, "chase_validation", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_GRANULARITY, "granularity", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_INFERRED_LANES, "inferred_lanes", RK_INTEGER, "measured", "lanes", RESULTS_RANGE_NONE, "device") \
    X(RP_INFERRED_LANES_REASON, "inferred_lanes_reason", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_LANES_SWEEP, "lanes_sweep", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    X(RP_PROFILE_LANES, "profile_lanes", RK_INTEGER, NULL, "lanes", RESULTS_RANGE_NONE, "device") \
    X(RP_INFERRED_BANKS, "inferred_banks", RK_INTEGER, "measured", "banks", RESULTS_RANGE_NONE, "device") \
    X(RP_INFERRED_BANKS_REASON, "inferred_banks_reason", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device") \
    /* a device's record or a run: the transfers' words, the launch, the maps */ \
    X(RP_TRANSFERS_NOTE, "transfers_note", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "device or run") \
    X(RP_LAUNCH, "launch", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "device or run") \
    X(RP_MAPS, "maps", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "device or run") \
    X(RP_LAUNCHES, "launches", RK_INTEGER, NULL, "launches", RESULTS_RANGE_NONE, "launch") \
    X(RP_WALL_US, "wall_us", RK_NUMBER, "measured", "us", RESULTS_RANGE_NONE, "launch") \
    X(RP_TIMER, "timer", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "launch") \
    X(RP_QUEUED_TO_START_US, "queued_to_start_us", RK_NUMBER, "measured", "us", RESULTS_RANGE_NONE, "launch") \
    X(RP_QUEUED_TO_END_US, "queued_to_end_us", RK_NUMBER, "measured", "us", RESULTS_RANGE_NONE, "launch") \
    X(RP_NOTE, "note", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "launch, map or chase_validation") \
    X(RP_COPY_US, "copy_us", RK_NUMBER, "measured", "us", RESULTS_RANGE_NONE, "map") \
    X(RP_ZERO_COPY, "zero_copy", RK_BOOL, "measured", NULL, RESULTS_RANGE_NONE, "map") \
    X(RP_SAME_POINTER, "same_pointer", RK_BOOL, "measured", NULL, RESULTS_RANGE_NONE, "map") \
    /* a cache level (its own; the shared ones above) */ \
    X(RP_NEXT_BYTES, "next_bytes", RK_INTEGER, "measured", "bytes", RESULTS_RANGE_NONE, "level or TLB reach") \
    X(RP_SEEN_IN, "seen_in", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "level") \
    X(RP_PLACED_BY, "placed_by", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "level") \
    X(RP_HOST_CACHE_LEVEL, "host_cache_level", RK_INTEGER, NULL, NULL, RESULTS_RANGE_NONE, "level") \
    X(RP_AGREEMENT, "agreement", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "level") \
    /* a host cache */ \
    X(RP_LEVEL, "level", RK_INTEGER, NULL, NULL, RESULTS_RANGE_NONE, "host cache") \
    X(RP_LINE_BYTES, "line_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_NONE, "host cache") \
    X(RP_MATCHED_LEVEL, "matched_level", RK_INTEGER, NULL, NULL, RESULTS_RANGE_NONE, "host cache") \
    /* a TLB reach */ \
    X(RP_BELOW_LATENCY_NS, "below_latency_ns", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "TLB reach") \
    X(RP_ABOVE_LATENCY_NS, "above_latency_ns", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "TLB reach") \
    X(RP_STEP, "step", RK_NUMBER, "measured", NULL, RESULTS_RANGE_NONE, "TLB reach") \
    /* the chase's validation */ \
    X(RP_VALID, "valid", RK_BOOL, NULL, NULL, RESULTS_RANGE_NONE, "chase_validation") \
    /* the granularity sweeps and their fits */ \
    X(RP_WORKING_SET_BYTES, "working_set_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "granularity") \
    X(RP_BLOCK_BYTES, "block_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "granularity") \
    X(RP_STRIDE_SWEEP, "stride_sweep", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "granularity") \
    X(RP_OFFSET_SWEEP, "offset_sweep", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "granularity") \
    X(RP_CANDIDATES, "candidates", RK_ARRAY, NULL, NULL, RESULTS_RANGE_NONE, "granularity") \
    X(RP_STRIDE_BYTES, "stride_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "stride point") \
    X(RP_NS_PER_ELEMENT, "ns_per_element", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "stride point") \
    X(RP_OFFSET_BYTES, "offset_bytes", RK_INTEGER, "requested", "bytes", RESULTS_RANGE_NONE, "offset point") \
    X(RP_NS_PER_BLOCK, "ns_per_block", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "offset point") \
    X(RP_UNIT_BYTES, "unit_bytes", RK_INTEGER, NULL, "bytes", RESULTS_RANGE_NONE, "candidate or sector_pairs") \
    X(RP_STRIDE_FIT, "stride_fit", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "candidate") \
    X(RP_OFFSET_FIT, "offset_fit", RK_OBJECT, NULL, NULL, RESULTS_RANGE_NONE, "candidate") \
    X(RP_SCALE, "scale", RK_NUMBER, "modeled", "ns", RESULTS_RANGE_NONE, "fit") \
    X(RP_OFFSET, "offset", RK_NUMBER, "modeled", "ns", RESULTS_RANGE_NONE, "fit") \
    X(RP_RESIDUAL, "residual", RK_NUMBER, "modeled", NULL, RESULTS_RANGE_NONE, "fit") \
    X(RP_UNEXPLAINED, "unexplained", RK_NUMBER, "modeled", NULL, RESULTS_RANGE_NONE, "fit") \
    X(RP_MODELED, "modeled", RK_ARRAY, "modeled", "ns", RESULTS_RANGE_NONE, "fit") \
    /* the sector-pair experiment */ \
    X(RP_ADJACENT_NS_PER_ELEMENT, "adjacent_ns_per_element", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, \
      "sector_pairs") \
    X(RP_SPLIT_NS_PER_ELEMENT, "split_ns_per_element", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, \
      "sector_pairs") \
    X(RP_APART_NS_PER_ELEMENT, "apart_ns_per_element", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, \
      "sector_pairs") \
    X(RP_RATIO, "ratio", RK_NUMBER, "measured", NULL, RESULTS_RANGE_NONE, "sector_pairs") \
    X(RP_REASON, "reason", RK_STRING, NULL, NULL, RESULTS_RANGE_NONE, "sector_pairs") \
    /* the lanes sweep */ \
    X(RP_WORK_GROUP_SIZE, "work_group_size", RK_INTEGER, "requested", "work-items", RESULTS_RANGE_NONE, \
      "lanes point") \
    X(RP_NS, "ns", RK_NUMBER, "measured", "ns", RESULTS_RANGE_NONE, "lanes point")

typedef enum results_probe_field_id { RESULTS_PROBE_KEY_LIST(RESULTS_DOC_KEY_ENUM) RP_COUNT } results_probe_field_id;

/* the reader's keys: RP_STATUS to RP_US */
#define RP_SHARED_COUNT (RP_US + 1)

extern const results_doc_key RESULTS_PROBE_FIELDS[RP_COUNT];
#define RP_KEY(id) (RESULTS_PROBE_FIELDS[id].key)

#endif
