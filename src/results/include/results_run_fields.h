/* results_run_fields: the keys of a run document's runs[] objects (one per
 * device measured, docs/results.md "runs[]"), each spelled once with its
 * JSON type, what kind of figure it holds (DESIGN's requested, modeled,
 * measured, or none for provenance and words) and its unit. The run's
 * JSON writer (bench_run_json.c) takes every runs[] key from here;
 * the tests hold a written document and docs/results.md to the table. The
 * nested objects (device, profile, tune, roofline, buffers, timing,
 * noise, compression_check) keep their own keys, named in the docs. */
#ifndef RESULTS_RUN_FIELDS_H
#define RESULTS_RUN_FIELDS_H

typedef enum results_run_field_id {
    RUNF_DEVICE,
    RUNF_STATUS,
    RUNF_FAILURE,
    RUNF_PROFILE,
    RUNF_PEAK_READ_GBS,
    RUNF_PEAK_COPY_GBS,
    RUNF_TUNE,
    RUNF_ROOFLINE,
    RUNF_TRANSFERS_FAILURE, /* only with --transfers, when they failed */
    RUNF_WORKING_SET_TARGET_BYTES,
    RUNF_WORKING_SET_SOURCE,
    RUNF_WORKING_SET_AUTO_BYTES,
    RUNF_WORKING_SET_FIT_NOTE,
    RUNF_WORKING_SET_CACHE_BYTES,
    RUNF_WORKING_SET_CACHE_SOURCE,
    RUNF_MEMORY_BUDGET_BYTES,
    RUNF_BUFFERS,
    RUNF_LOCAL_SIZE,
    RUNF_KERNEL_FORMS,
    RUNF_UNROLL,
    RUNF_UNROLL_READ,
    RUNF_UNROLL_SOURCE,
    RUNF_UNROLL_CALIBRATION,
    RUNF_UNROLL_NOTE,
    RUNF_UNROLL_CALIBRATIONS,
    RUNF_NOMINAL_DRAM_GBS,
    RUNF_COMPRESSION_RATIO,
    RUNF_COMPRESSION_CHECK,
    RUNF_NOMINAL_NAME,
    RUNF_PROBE_MEMORY_GBS,
    RUNF_PROBE_MEMORY_DATE,
    RUNF_PLAN_NOTE,
    RUNF_RETRY,
    RUNF_TIMING,
    RUNF_NOISE,
    RUNF_COUNT
} results_run_field_id;

typedef enum results_run_type {
    RUNF_TYPE_STRING, /* or null */
    RUNF_TYPE_INTEGER, /* or null */
    RUNF_TYPE_NUMBER, /* or null */
    RUNF_TYPE_OBJECT, /* or null */
    RUNF_TYPE_ARRAY,
} results_run_type;

typedef struct results_run_field {
    const char *key;
    results_run_type type;
    const char *kind; /* "measured", "requested", "modeled", or NULL: provenance, settings or words */
    const char *unit; /* NULL: none */
    int always;       /* written in every runs[] object of a device that has a plan */
} results_run_field;

extern const results_run_field RESULTS_RUN_FIELDS[RUNF_COUNT];
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
