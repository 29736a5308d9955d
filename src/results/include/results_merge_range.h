/* results_merge_range: the valid range of every figure that `bwlab compare`
 * and `bwlab report` read from results files, journal lines and probe
 * files (docs/results.md, "Valid ranges"), checked as results_merge reads
 * them.
 *
 * A figure is absent (missing or null: "not measured") or a finite number
 * in its kind's range. The floors keep every division the report makes
 * (a ratio, a logarithmic chart, the baseline) finite: a subnormal such as
 * 5e-324 is out of range wherever a figure can divide or be divided by. */
#ifndef RESULTS_MERGE_RANGE_H
#define RESULTS_MERGE_RANGE_H

#include <jansson.h>
#include <stddef.h>

typedef enum results_range {
    RESULTS_RANGE_GBS,        /* a bandwidth: 1e-6 .. 1e6 GB/s */
    RESULTS_RANGE_GFLOPS,     /* a compute rate: 1e-6 .. 1e9 GFLOP/s */
    RESULTS_RANGE_RATIO,      /* a ratio of two measured (or modeled) figures: 1e-9 .. 1e9 */
    RESULTS_RANGE_INTENSITY,  /* FLOP per byte: 1e-9 .. 1e9 */
    RESULTS_RANGE_EFFICIENCY, /* a sector or line efficiency: 0 .. 1 */
    RESULTS_RANGE_PREDICTED,  /* a predicted efficiency: 0 .. 4096 (a broadcast exceeds 1) */
    RESULTS_RANGE_TIME_NS,    /* a time in ns: 0.001 (1 ps) .. 1e15 */
    RESULTS_RANGE_TIME_US,    /* a time in us: 1e-6 (1 ps) .. 1e12 */
    RESULTS_RANGE_SPREAD,     /* a spread, deviation or relative error: 0 .. 1e15 */
    RESULTS_RANGE_BYTES,      /* a byte count: a whole number 0 .. 2^62 */
    RESULTS_RANGE_COUNT,      /* a count: a whole number 0 .. 2^62 */
    RESULTS_RANGE_UNIT,       /* a unit or size that divides: a whole number 1 .. 2^62 */
    RESULTS_RANGE_LANES,      /* a warp width: a whole number 1 .. 1024 */
    RESULTS_RANGE_ELEM,       /* an element size: 1, 2, 4, 8 or 16 */
    RESULTS_RANGE_NONE,       /* not a checked figure (a key table's words and settings) */
} results_range;

/* A list of (key, kind): the figures of one kind of object, ended by a
 * NULL key. */
typedef struct results_range_field {
    const char *key;
    results_range kind;
} results_range_field;

/* The ranges of a runs[] object, its profile, a roofline and a probe
 * record stand in their key tables (results_run_fields.h,
 * results_roofline_keys.h, results_probe_fields.h). */

#endif
