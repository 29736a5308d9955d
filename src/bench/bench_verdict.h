/* bench_verdict: where a measurement sits between the model's bounds
 * (docs/design.md §2.3: measured traffic lies between the footprint and the
 * instruction-model bytes).
 *
 * The device's traffic is not observed; it is inferred. The seq reference
 * moves exactly its modeled bytes, so its time gives the rate at which the
 * device moves bytes in this run. A pattern's "implied traffic" is its
 * measured median time times that rate: the bytes the device could have
 * moved meanwhile. That number is measured-derived, the bounds are modeled,
 * and the verdict compares them. */
#ifndef BENCH_VERDICT_H
#define BENCH_VERDICT_H

typedef enum bench_verdict_code {
    BENCH_VERDICT_NONE,    /* not measured, or no measured reference */
    BENCH_VERDICT_BELOW,   /* faster than moving the footprint at the reference rate */
    BENCH_VERDICT_LOWER,   /* at the lower bound: each sector fetched about once */
    BENCH_VERDICT_BETWEEN, /* between the bounds */
    BENCH_VERDICT_UPPER,   /* at the upper bound: no reuse between instructions */
    BENCH_VERDICT_ABOVE,   /* slower than even the upper bound explains */
    BENCH_VERDICT_AT_MODEL /* the bounds coincide and the measurement matches them */
} bench_verdict_code;

typedef struct bench_verdict {
    bench_verdict_code code;
    double implied_bytes; /* measured-derived: median time x reference rate */
    double lower_bytes;   /* modeled: footprint bytes, loads + stores */
    double upper_bytes;   /* modeled: instruction-model bytes, loads + stores */
    double position;      /* (implied - lower) / (upper - lower); NAN when the bounds coincide */
} bench_verdict;

/* Tolerance around a bound, as a fraction of it. */
#define BENCH_VERDICT_TOLERANCE 0.10

/* time_ns: the pattern's measured median; ref_time_ns and ref_bytes: the
 * reference's median and modeled traffic (0 when there is none). */
bench_verdict bench_verdict_of(double time_ns, double lower_bytes, double upper_bytes, double ref_time_ns,
                               double ref_bytes);
/* "at-lower-bound", ... ; stable names for JSON and CSV */
const char *bench_verdict_name(bench_verdict_code c);

#endif
