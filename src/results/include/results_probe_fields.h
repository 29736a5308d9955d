/* results_probe_fields: the keys of `bwlab probe`'s results document
 * (docs/results.md, "bwlab probe") that its writer (report_probe.c) and its
 * reader (results_merge_probe.c) share, each spelled once with its JSON
 * type, its unit and where it stands; the same keys on a run's runs[]
 * entry carry its transfers (bwlab run --transfers). The writer sets them
 * by RP_KEY, the reader checks their types from the table and reads them
 * by RP_KEY. Keys only the writer sets (the sweeps, fits and notes that
 * no reader merges) keep their own spelling there. */
#ifndef RESULTS_PROBE_FIELDS_H
#define RESULTS_PROBE_FIELDS_H

typedef enum results_probe_field_id {
    /* a device's record (devices[]) */
    RP_STATUS,
    RP_UNIT_AGREEMENT,
    RP_INFERRED_UNIT_BYTES,
    RP_PROFILE_UNIT_BYTES,
    RP_PROFILE_LINE_BYTES,
    RP_CACHE_LEVELS,
    RP_MEMORY,
    RP_LADDER,
    /* a device's record or a run: transfers and launch latency */
    RP_TRANSFERS,
    RP_LAUNCH_LATENCY_US,
    RP_SMALL_TRANSFER_LATENCY_US,
    RP_SMALL_TRANSFER_BYTES,
    /* a cache level, the memory, a ladder point */
    RP_SIZE_BYTES,
    RP_BYTES,
    RP_READ_GBS,
    RP_LATENCY_NS,
    RP_LATENCY_PER_CU_NS,
    RP_LATENCY_PAGE_NS,
    /* a transfer (RP_BYTES too) */
    RP_DIRECTION,
    RP_TRANSFER_MEMORY,
    RP_BLOCKING,
    RP_GBS,
    RP_US,
    RP_COUNT
} results_probe_field_id;

typedef enum results_probe_type {
    RP_TYPE_STRING,
    RP_TYPE_INTEGER, /* or null */
    RP_TYPE_NUMBER,  /* or null */
    RP_TYPE_BOOL,    /* or null */
    RP_TYPE_OBJECT,  /* or null */
    RP_TYPE_ARRAY,   /* of objects */
} results_probe_type;

typedef struct results_probe_field {
    const char *key;
    results_probe_type type;
    const char *unit; /* NULL: none */
    const char *where; /* "device", "transfer", "level", "level and ladder", "ladder" */
} results_probe_field;

extern const results_probe_field RESULTS_PROBE_FIELDS[RP_COUNT];
#define RP_KEY(id) (RESULTS_PROBE_FIELDS[id].key)

#endif
