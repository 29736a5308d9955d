#include "bench_verdict.h"

#include <math.h>

bench_verdict bench_verdict_of(double time_ns, double lower_bytes, double upper_bytes, double ref_time_ns,
                               double ref_bytes)
{
    bench_verdict v = { BENCH_VERDICT_NONE, NAN, lower_bytes, upper_bytes, NAN };
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

const char *bench_verdict_name(bench_verdict_code c)
{
    switch (c) {
    case BENCH_VERDICT_BELOW: return "below-lower-bound";
    case BENCH_VERDICT_LOWER: return "at-lower-bound";
    case BENCH_VERDICT_BETWEEN: return "between-bounds";
    case BENCH_VERDICT_UPPER: return "at-upper-bound";
    case BENCH_VERDICT_ABOVE: return "above-upper-bound";
    case BENCH_VERDICT_AT_MODEL: return "at-model";
    default: return "no-reference";
    }
}
