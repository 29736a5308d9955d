/* results_fields: the plain scalar keys of one result (a results[] object
 * of docs/results.md), each spelled once: its JSON type, its unit, its
 * valid range on reading (results_merge_range), and where the writer puts
 * it and the reader takes it. The JSON writer (bench_run_json.c)
 * writes the fields of its two groups in table order; the schema check
 * (results_merge_schema) tests the type of the checked ones; the ranges
 * (results_range_result) test the ranged ones; the merge
 * (results_merge.c) reads the ones with a place in a sample or an entry.
 *
 * Nested or computed parts of a result (model, time_ns, wall_ns,
 * verdict, launch_bounds, form_time_ns) keep their own code; so do the
 * keys the family blocks of the writer set (bank, transpose, record),
 * which are listed here for the check, the ranges and the reader. */
#ifndef RESULTS_FIELDS_H
#define RESULTS_FIELDS_H

#include <stddef.h>

#include "results_merge_range.h"

/* Every field, in the order the writer writes them. */
typedef enum results_field_id {
    /* written first (RESULTS_FIELD_HEAD) */
    RF_DEVICE,
    RF_PATTERN,
    RF_FAMILY,
    RF_ACCESS,
    RF_EXPRESSION,
    RF_ELEM_BYTES,
    RF_LANES,
    RF_ACTIVE_LANES,
    RF_ITEMS,
    RF_LOCAL_SIZE,
    RF_LOAD,
    RF_ADDED_AS_REFERENCE,
    RF_WORKING_SET_BYTES,
    RF_SIZE_NOTE,
    RF_STATUS,
    RF_VALIDATION,
    RF_STATUS_REASON,
    RF_INDEX_BITS,
    RF_UNROLL,
    RF_UNROLL_SOURCE,
    RF_PLAUSIBILITY,
    RF_KERNEL_FORM,
    RF_TIMER,
    RF_TIMER_RESOLUTION_NS,
    RF_LAUNCH_OVERHEAD_NS,
    RF_HOST_UNIFIED_MEMORY,
    RF_RETRY,
    RF_SUB_GROUP_SIZE,
    RF_DROPPED_SAMPLES,
    RF_EFFECTIVE_GBS,
    RF_RELATIVE_TO_SEQ,
    RF_FRACTION_OF_PEAK,
    RF_REFERENCE,
    RF_SPACE,
    /* written after time_ns and wall_ns (RESULTS_FIELD_TWIN) */
    RF_BEST_GBS,
    RF_STABLE,
    RF_TWIN_TIME_NS,
    RF_TWIN_ITEMS,
    RF_TWIN_COLD_TIME_NS,
    RF_TWIN_RATIO,
    RF_BOUND,
    RF_TWIN_REASON,
    RF_SPREAD,
    RF_RELATIVE_SPREAD,
    RF_PAIRED_ROUNDS,
    RF_BUDGET_NOTE,
    /* set by the family blocks (RESULTS_FIELD_FAMILY) */
    RF_LOCAL_GBS,
    RF_RELATIVE_TO_REFERENCE,
    RF_CONFLICT_WAYS,
    RF_MEASURED_TIME_RATIO,
    RF_MODELED_INSTRUCTION_RATIO,
    RF_MODELED_FOOTPRINT_RATIO,
    RF_COUNT
} results_field_id;

typedef enum results_field_type {
    RESULTS_FIELD_STRING,
    RESULTS_FIELD_INTEGER,
    RESULTS_FIELD_NUMBER, /* a real, or an integer */
    RESULTS_FIELD_BOOL,
} results_field_type;

/* which part of the writer sets the key */
typedef enum results_field_group {
    RESULTS_FIELD_HEAD,   /* the generic fields, first */
    RESULTS_FIELD_TWIN,   /* the best launch, twin and repeatability, after the times */
    RESULTS_FIELD_FAMILY, /* a family block's own code */
} results_field_group;

/* where the merge keeps a field it reads (results_merge.h) */
typedef enum results_field_place {
    RESULTS_FIELD_NOWHERE,
    RESULTS_FIELD_ROW,    /* the row's identity (code of its own: find_or_add_row) */
    RESULTS_FIELD_SAMPLE, /* a double of results_merge_sample, NAN unless the row was measured */
    RESULTS_FIELD_ENTRY,  /* a field of results_merge_entry, the first file's that holds it */
} results_field_place;

typedef struct results_field {
    const char *key;
    results_field_type type;
    const char *unit;         /* "GB/s", "ns", "bytes", ... or NULL */
    results_field_group group;
    int required;             /* the check refuses a result without it */
    int checked;              /* the check tests its type (null is always allowed) */
    int ranged;               /* valid range on reading: range */
    results_range range;
    int measured;             /* only a row of status "ok" carries it */
    results_field_place place;
    size_t offset;            /* in the sample or entry: a double, a long long (integer) or a char * (string) */
} results_field;

/* The table, indexed by results_field_id. */
extern const results_field RESULTS_FIELDS[RF_COUNT];

/* the key of a field */
#define RF_KEY(id) (RESULTS_FIELDS[(id)].key)

#endif
