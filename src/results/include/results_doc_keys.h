/* results_doc_keys: the form every results document's key table takes
 * (results_tune_keys.h, results_roofline_keys.h, results_probe_fields.h):
 * a key spelled once, with its JSON type, the kind of figure it holds
 * (DESIGN's requested, modeled, measured; "nominal" for a vendor's
 * figure; NULL for names, settings, provenance and words), its unit and
 * the object it stands in, and the valid range of a figure the readers
 * check (results_merge_range.h). A writer sets every key by its table; the
 * tests hold each written document and docs/results.md to its table. The
 * tables are X-macro lists, X(ID, key, type, kind, unit, range, where), so the
 * ids and the rows cannot drift apart. */
#ifndef RESULTS_DOC_KEYS_H
#define RESULTS_DOC_KEYS_H

#include <jansson.h>
#include <stddef.h>

#include "results_merge_range.h"

typedef enum results_key_type {
    RK_STRING,
    RK_INTEGER,
    RK_NUMBER, /* a real, or an integer */
    RK_BOOL,
    RK_OBJECT,
    RK_ARRAY,
} results_key_type;

typedef struct results_doc_key {
    const char *key;
    results_key_type type; /* or null: a value the writer does not have */
    const char *kind;      /* "measured", "modeled", "requested", "nominal", or NULL */
    const char *unit;      /* NULL: none */
    results_range range;   /* RESULTS_RANGE_NONE: not checked */
    const char *where;     /* the object it stands in */
} results_doc_key;

#define RESULTS_DOC_KEY_ENUM(id, k, t, kd, u, r, w) id,
#define RESULTS_DOC_KEY_ROW(id, k, t, kd, u, r, w) [id] = { k, t, kd, u, r, w },

/* The timing summary of repeated launches (a candidate's, a kernel's, a
 * row's time_ns and wall_ns): one table for every document. */
#define RESULTS_TIMING_KEY_LIST(X) \
    X(RTIME_MIN, "min", RK_NUMBER, "measured", "ns", RESULTS_RANGE_TIME_NS, "timing") \
    X(RTIME_MEDIAN, "median", RK_NUMBER, "measured", "ns", RESULTS_RANGE_TIME_NS, "timing") \
    X(RTIME_MEAN, "mean", RK_NUMBER, "measured", "ns", RESULTS_RANGE_TIME_NS, "timing") \
    X(RTIME_STDDEV, "stddev", RK_NUMBER, "measured", "ns", RESULTS_RANGE_SPREAD, "timing") \
    X(RTIME_COUNT, "count", RK_INTEGER, NULL, "launches", RESULTS_RANGE_COUNT, "timing") \
    X(RTIME_RSE, "rse", RK_NUMBER, "measured", NULL, RESULTS_RANGE_SPREAD, "timing")

typedef enum results_timing_key_id { RESULTS_TIMING_KEY_LIST(RESULTS_DOC_KEY_ENUM) RTIME_N } results_timing_key_id;

extern const results_doc_key RESULTS_TIMING_KEYS[RTIME_N];
#define RTIME_KEY(id) (RESULTS_TIMING_KEYS[id].key)

#endif
