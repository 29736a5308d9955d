/* results_run_fields: the keys of a run document's runs[] objects (one per
 * device measured, docs/results.md "runs[]"), each spelled once with its
 * JSON type, what kind of figure it holds (DESIGN's requested, modeled,
 * measured, or none for provenance and words) and its unit. The run's
 * JSON writer (report_results_json.c) takes every runs[] key from here;
 * the tests hold a written document and docs/results.md to the table. The
 * nested objects (device, profile, tune, roofline, buffers, timing,
 * noise, compression_check) keep their own keys, named in the docs. */
#ifndef RESULTS_RUN_FIELDS_H
#define RESULTS_RUN_FIELDS_H

typedef enum results_run_field_id {
    RR_DEVICE,
    RR_STATUS,
    RR_FAILURE,
    RR_PROFILE,
    RR_PEAK_READ_GBS,
    RR_PEAK_COPY_GBS,
    RR_TUNE,
    RR_ROOFLINE,
    RR_TRANSFERS_FAILURE, /* only with --transfers, when they failed */
    RR_WORKING_SET_TARGET_BYTES,
    RR_WORKING_SET_SOURCE,
    RR_WORKING_SET_AUTO_BYTES,
    RR_WORKING_SET_FIT_NOTE,
    RR_WORKING_SET_CACHE_BYTES,
    RR_WORKING_SET_CACHE_SOURCE,
    RR_MEMORY_BUDGET_BYTES,
    RR_BUFFERS,
    RR_LOCAL_SIZE,
    RR_UNROLL,
    RR_UNROLL_SOURCE,
    RR_UNROLL_CALIBRATION,
    RR_UNROLL_NOTE,
    RR_NOMINAL_DRAM_GBS,
    RR_COMPRESSION_RATIO,
    RR_COMPRESSION_CHECK,
    RR_NOMINAL_NAME,
    RR_PROBE_MEMORY_GBS,
    RR_PROBE_MEMORY_DATE,
    RR_PLAN_NOTE,
    RR_RETRY,
    RR_TIMING,
    RR_NOISE,
    RR_COUNT
} results_run_field_id;

typedef enum results_run_type {
    RR_TYPE_STRING, /* or null */
    RR_TYPE_INTEGER, /* or null */
    RR_TYPE_NUMBER, /* or null */
    RR_TYPE_OBJECT, /* or null */
    RR_TYPE_ARRAY,
} results_run_type;

typedef struct results_run_field {
    const char *key;
    results_run_type type;
    const char *kind; /* "measured", "requested", "modeled", or NULL: provenance, settings or words */
    const char *unit; /* NULL: none */
    int always;       /* written in every runs[] object of a device that has a plan */
} results_run_field;

extern const results_run_field RESULTS_RUN_FIELDS[RR_COUNT];
#define RR_KEY(id) (RESULTS_RUN_FIELDS[id].key)

#endif
