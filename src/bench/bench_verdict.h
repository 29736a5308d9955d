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

#include <stdint.h>

#include "bench_result.h"

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

/* v, turned kernel-bound (by_rate set) when it says slower than the
 * modeled traffic explains (BENCH_VERDICT_ABOVE) for an item whose
 * addresses are those of the seq-family rate item it was placed by, a
 * different item (same_stream: the reference itself, or an item with the
 * reference's addresses, read against seq:elem=16): the rate item moves
 * the same bytes in the same order faster in the same run, so the time
 * beyond them is the kernel's, whatever the twin says of memory's latency.
 * Every other verdict is kept as it is. */
bench_verdict bench_verdict_with_rate(bench_verdict v, int same_stream, bench_limiter l);

/* "at-lower-bound", ... ; stable names for JSON and CSV */
const char *bench_verdict_name(bench_verdict_code c);

#endif
