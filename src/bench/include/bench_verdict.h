/* bench_verdict: where a measurement sits between the model's bounds
 * (docs/design.md §2.3: measured traffic lies between the footprint and the
 * instruction-model bytes).
 *
 * The device's traffic is not observed; it is inferred. The seq reference
 * moves exactly its modeled bytes, so its time gives the rate at which the
 * device moves bytes in this run (the runner takes the fastest seq-family
 * item of the same access mode: a reference slower than a wider element's
 * stream is limited by its kernel, not by memory). A pattern's "implied traffic" is its
 * measured median time times that rate: the bytes the device could have
 * moved meanwhile. That number is measured-derived, the bounds are modeled,
 * and the verdict compares them. */
#ifndef BENCH_VERDICT_H
#define BENCH_VERDICT_H

#include "results_run_fields.h"
#include <stdint.h>

typedef enum bench_verdict_code {
    BENCH_VERDICT_NONE,    /* not measured, or no measured reference */
    BENCH_VERDICT_BELOW,   /* faster than moving the footprint at the reference rate */
    BENCH_VERDICT_LOWER,   /* at the lower bound: each sector fetched about once */
    BENCH_VERDICT_BETWEEN, /* between the bounds */
    BENCH_VERDICT_UPPER,   /* at the upper bound: no reuse between instructions */
    BENCH_VERDICT_ABOVE,   /* slower than even the upper bound explains */
    BENCH_VERDICT_AT_MODEL, /* the bounds coincide and the measurement matches them */
    BENCH_VERDICT_KERNEL_BOUND /* slower than its modeled traffic explains, and its twin
                                * (bench_twin.h) with memory out of the way runs no faster */
} bench_verdict_code;

/* What limits a pattern, by its twin: memory when the twin runs
 * clearly faster, the kernel itself when it does not. */
typedef enum bench_bound {
    BENCH_BOUND_UNKNOWN, /* no twin figure (see the result's twin_reason) */
    BENCH_BOUND_MEMORY,
    BENCH_BOUND_KERNEL,
} bench_bound;

/* Which part of the kernel a kernel-bound pattern waits for, as far as
 * the device type and the kernel form tell. */
typedef enum bench_limiter {
    BENCH_LIMITER_OTHER,      /* a device neither CPU nor GPU */
    BENCH_LIMITER_CPU_GATHER, /* CPU, plain form, addresses not contiguous: vector gathers */
    BENCH_LIMITER_CPU_VECTOR, /* CPU, plain form, contiguous addresses */
    BENCH_LIMITER_CPU_SCALAR, /* CPU, scalar form: one scalar load per work-item */
    BENCH_LIMITER_GPU,
} bench_limiter;

/* A twin taking at least this fraction of the pattern's time is
 * kernel-bound: taking memory out of the way buys less than 25%
 * (1 / 0.8 = 1.25). Measured on PoCL 3.1 (docs/results.md): seq's twin
 * takes 0.26-0.31 of its time. */
#define BENCH_TWIN_KERNEL_BOUND RESULTS_TWIN_KERNEL_BOUND

typedef struct bench_verdict {
    bench_verdict_code code;
    double implied_bytes; /* measured-derived: median time x reference rate */
    double lower_bytes;   /* modeled: footprint bytes, loads + stores */
    double upper_bytes;   /* modeled: instruction-model bytes, loads + stores */
    double position;      /* (implied - lower) / (upper - lower); NAN when the bounds coincide */
    bench_limiter limiter; /* for BENCH_VERDICT_KERNEL_BOUND: what the kernel waits for */
    /* a write-mode item on a CPU device, whose caches allocate on a store
     * miss: each line stored to is read first, so its stores move their
     * footprint twice (the reference, seq written, pays the same) */
    int write_allocate;
    /* the item whose measured rate gives implied_bytes (its footprint
     * bytes over its median time), set by the runner; -1: none */
    long rate_item;
    /* the unit the bounds are counted in, set by the runner: the DRAM unit
     * where the geometry has one (bound_dram 1), else the sector */
    int64_t bound_unit_bytes;
    int bound_dram;
} bench_verdict;

/* Tolerance around a bound, as a fraction of it. */
#define BENCH_VERDICT_TOLERANCE 0.10

/* time_ns: the pattern's measured median; ref_time_ns and ref_bytes: the
 * reference's median and modeled traffic (0 when there is none). */
bench_verdict bench_verdict_of(double time_ns, double lower_bytes, double upper_bytes, double ref_time_ns,
                               double ref_bytes);
/* The bound of a pattern whose median launch takes time_ns, by its twin's
 * time for the same work-items, twin_ns (both measured): KERNEL when
 * twin_ns >= BENCH_TWIN_KERNEL_BOUND x time_ns, MEMORY below, UNKNOWN when
 * either is not positive. */
bench_bound bench_bound_of(double time_ns, double twin_ns);
/* "memory", "kernel", or NULL for UNKNOWN */
const char *bench_bound_name(bench_bound b);

/* v, turned kernel-bound when it says slower than the modeled traffic
 * explains (BENCH_VERDICT_ABOVE) and the twin says the kernel is the
 * bound; every other verdict is kept as it is. */
bench_verdict bench_verdict_with_bound(bench_verdict v, bench_bound b, bench_limiter l);

/* "at-lower-bound", ... ; stable names for JSON and CSV */
const char *bench_verdict_name(bench_verdict_code c);

#endif
