/* bench_verdict: a measurement's implied traffic placed between the
 * model's bounds, the twin's memory-or-kernel bound, and their names
 * (bench_verdict.h). */
#include "bench_verdict.h"

#include <math.h>
#include <stddef.h>

bench_verdict bench_verdict_of(double time_ns, double lower_bytes, double upper_bytes, double ref_time_ns,
                               double ref_bytes)
{
    bench_verdict v = { BENCH_VERDICT_NONE, NAN, lower_bytes, upper_bytes, NAN, BENCH_LIMITER_OTHER, 0, -1, 0, 0, 0 };
    if (!(time_ns > 0) || !(ref_time_ns > 0) || !(ref_bytes > 0) || !(lower_bytes > 0))
        return v;
    v.implied_bytes = time_ns * (ref_bytes / ref_time_ns);
    double tol = BENCH_VERDICT_TOLERANCE;
    if (v.implied_bytes < lower_bytes * (1.0 - tol)) {
        v.code = BENCH_VERDICT_BELOW;
    } else if (v.implied_bytes > upper_bytes * (1.0 + tol)) {
        v.code = BENCH_VERDICT_ABOVE;
    } else if (upper_bytes <= lower_bytes * (1.0 + 1e-9)) {
        v.code = BENCH_VERDICT_AT_MODEL;
    } else {
        v.position = (v.implied_bytes - lower_bytes) / (upper_bytes - lower_bytes);
        v.code = v.position <= 0.15   ? BENCH_VERDICT_LOWER
                 : v.position >= 0.85 ? BENCH_VERDICT_UPPER
                                      : BENCH_VERDICT_BETWEEN;
    }
    return v;
}

bench_bound bench_bound_of(double time_ns, double twin_ns)
{
    if (!(time_ns > 0) || !(twin_ns > 0))
        return BENCH_BOUND_UNKNOWN;
    return twin_ns >= BENCH_TWIN_KERNEL_BOUND * time_ns ? BENCH_BOUND_KERNEL : BENCH_BOUND_MEMORY;
}

const char *bench_bound_name(bench_bound b)
{
    return b == BENCH_BOUND_KERNEL ? "kernel" : b == BENCH_BOUND_MEMORY ? "memory" : NULL;
}

bench_verdict bench_verdict_with_bound(bench_verdict v, bench_bound b, bench_limiter l)
{
    if (v.code == BENCH_VERDICT_ABOVE && b == BENCH_BOUND_KERNEL) {
        v.code = BENCH_VERDICT_KERNEL_BOUND;
        v.limiter = l;
    }
    return v;
}

bench_verdict bench_verdict_with_rate(bench_verdict v, int same_stream, bench_limiter l)
{
    if (v.code == BENCH_VERDICT_ABOVE && same_stream) {
        v.code = BENCH_VERDICT_KERNEL_BOUND;
        v.limiter = l;
        v.by_rate = 1;
    }
    return v;
}

const char *bench_verdict_name(bench_verdict_code c)
{
    switch (c) {
    case BENCH_VERDICT_BELOW: return "below-lower-bound";
    case BENCH_VERDICT_LOWER: return "at-lower-bound";
    case BENCH_VERDICT_BETWEEN: return "between-bounds";
    case BENCH_VERDICT_UPPER: return "at-upper-bound";
    case BENCH_VERDICT_ABOVE: return "above-upper-bound";
    case BENCH_VERDICT_AT_MODEL: return "at-model";
    case BENCH_VERDICT_KERNEL_BOUND: return "kernel-bound";
    default: return "no-reference";
    }
}
