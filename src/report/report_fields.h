/* report_fields: the plain scalar keys of one result (a results[] object
 * of docs/results.md), each spelled once: its JSON type, its unit, its
 * valid range on reading (report_merge_range), and where the writer puts
 * it and the reader takes it. The JSON writer (report_results_json.c)
 * writes the fields of its two groups in table order; the schema check
 * (report_merge_schema) tests the type of the checked ones; the ranges
 * (report_range_result) test the ranged ones; the merge
 * (report_merge.c) reads the ones with a place in a sample or an entry.
 *
 * Nested or computed parts of a result (model, time_ns, wall_ns,
 * verdict, launch_bounds, form_time_ns) keep their own code; so do the
 * keys the family blocks of the writer set (bank, transpose, record),
 * which are listed here for the check, the ranges and the reader. */
#ifndef REPORT_FIELDS_H
#define REPORT_FIELDS_H

#include <stddef.h>

#include "report_merge_range.h"

/* Every field, in the order the writer writes them. */
typedef enum report_field_id {
    /* written first (REPORT_FIELD_HEAD) */
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
    /* written after time_ns and wall_ns (REPORT_FIELD_TWIN) */
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
    /* set by the family blocks (REPORT_FIELD_FAMILY) */
    RF_LOCAL_GBS,
    RF_RELATIVE_TO_REFERENCE,
    RF_CONFLICT_WAYS,
    RF_MEASURED_TIME_RATIO,
    RF_MODELED_INSTRUCTION_RATIO,
    RF_MODELED_FOOTPRINT_RATIO,
    RF_COUNT
} report_field_id;

typedef enum report_field_type {
    REPORT_FIELD_STRING,
    REPORT_FIELD_INTEGER,
    REPORT_FIELD_NUMBER, /* a real, or an integer */
    REPORT_FIELD_BOOL,
} report_field_type;

/* which part of the writer sets the key */
typedef enum report_field_group {
    REPORT_FIELD_HEAD,   /* the generic fields, first */
    REPORT_FIELD_TWIN,   /* the best launch, twin and repeatability, after the times */
    REPORT_FIELD_FAMILY, /* a family block's own code */
} report_field_group;

/* where the merge keeps a field it reads (report_merge.h) */
typedef enum report_field_place {
    REPORT_FIELD_NOWHERE,
    REPORT_FIELD_ROW,    /* the row's identity (code of its own: find_or_add_row) */
    REPORT_FIELD_SAMPLE, /* a double of report_merge_sample, NAN unless the row was measured */
    REPORT_FIELD_ENTRY,  /* a field of report_merge_entry, the first file's that holds it */
} report_field_place;

typedef struct report_field {
    const char *key;
    report_field_type type;
    const char *unit;         /* "GB/s", "ns", "bytes", ... or NULL */
    report_field_group group;
    int required;             /* the check refuses a result without it */
    int checked;              /* the check tests its type (null is always allowed) */
    int ranged;               /* valid range on reading: range */
    report_range range;
    int measured;             /* only a row of status "ok" carries it */
    report_field_place place;
    size_t offset;            /* in the sample or entry: a double, a long long (integer) or a char * (string) */
} report_field;

/* The table, indexed by report_field_id. */
extern const report_field REPORT_FIELDS[RF_COUNT];

/* the key of a field */
#define RF_KEY(id) (REPORT_FIELDS[(id)].key)

#endif
