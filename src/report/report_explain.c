#include "report_explain.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "8", "4.5", "0.25": counts averaged over warps without noise digits */
static const char *num(char *buf, size_t n, double v)
{
    if (fabs(v - round(v)) < 1e-9)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.2g", v);
    return buf;
}

/* "1 sector", "4 sectors", "0.5 sectors" */
static const char *sectors_text(char *buf, size_t n, double v)
{
    char k[24];
    snprintf(buf, n, "%s sector%s", num(k, sizeof k, v), fabs(v - 1.0) < 1e-9 ? "" : "s");
    return buf;
}

/* "1 sector's worth", "0.5 sectors' worth" */
static const char *worth_text(char *buf, size_t n, double v)
{
    char k[24];
    snprintf(buf, n, "%s %s worth", num(k, sizeof k, v), fabs(v - 1.0) < 1e-9 ? "sector's" : "sectors'");
    return buf;
}

static const char *fraction_words(double f, char *buf, size_t n)
{
    static const struct {
        double v;
        const char *w;
    } words[] = { { 0.5, "half" }, { 0.25, "a quarter" }, { 0.75, "three quarters" },
                  { 1.0 / 3.0, "a third" }, { 2.0 / 3.0, "two thirds" } };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (fabs(f - words[i].v) < 1e-6)
            return words[i].w;
    snprintf(buf, n, "%.0f%%", f * 100.0);
    return buf;
}

/* what the pattern's kernel does with the element it loads, where it is
 * not the usual copy */
static void access_note(const bench_item *it, bw_buf *out)
{
    if (it->access == BENCH_ACCESS_READ)
        bw_buf_puts(out, " Read mode: the loads alone; the copy's coalesced store to dst[g] is left out, so "
                         "the pattern's cost is not diluted by it.");
}

void report_explain(const bench_item *it, const model_geometry *geo, bw_buf *out)
{
    const model_traffic *l = &it->model.loads;
    double warps = (double)(l->instructions ? l->instructions : 1);
    double sectors = (double)l->instr_sectors / warps;                      /* modeled, per warp */
    double useful = (double)l->requested_bytes / warps / (double)geo->sector; /* requested, in sectors */
    int64_t S = geo->sector, E = it->elem;
    int W = geo->lanes;
    char a[64], b[64], c[64];
    const char *f = it->family;
    double skipped = sectors > 0 ? 1.0 - useful / sectors : 0;

    if (!strcmp(f, "seq") || !strcmp(f, "matrix-row") ||
        (!strcmp(f, "stride") && model_pattern_param_value(it->pattern, "s") == 1) ||
        (!strcmp(f, "offset") && model_pattern_param_value(it->pattern, "bytes") == 0)) {
        if (useful + 1e-9 >= sectors)
            bw_buf_printf(out, "consecutive lanes read consecutive %lld-byte elements: each warp of %d "
                               "lanes touches %s of %lld B and uses every byte.",
                          (long long)E, W, sectors_text(a, sizeof a, sectors), (long long)S);
        else
            bw_buf_printf(out, "consecutive lanes read consecutive %lld-byte elements: each warp of %d "
                               "lanes touches %s of %lld B for %lld requested bytes; the next warp reads "
                               "the rest.",
                          (long long)E, W, sectors_text(a, sizeof a, sectors), (long long)S, (long long)(E * W));
    } else if (!strcmp(f, "stride") || !strcmp(f, "aos")) {
        if (skipped > 1e-9)
            bw_buf_printf(out, "%s: each warp touches %s to use %s of data; %s of every fetched "
                               "sector is skipped.",
                          !strcmp(f, "aos") ? "one field per struct" : "lanes are spread apart",
                          sectors_text(a, sizeof a, sectors), worth_text(b, sizeof b, useful),
                          fraction_words(skipped, c, sizeof c));
        else
            bw_buf_printf(out, "each warp touches %s and uses every byte: the spread stays within the "
                               "sectors it needs.",
                          sectors_text(a, sizeof a, sectors));
    } else if (!strcmp(f, "offset")) {
        bw_buf_printf(out, "the warp's %lld bytes start %lld bytes past a sector boundary, so each warp "
                           "touches %s for %s of data.",
                      (long long)(E * W), (long long)model_pattern_param_value(it->pattern, "bytes") % S,
                      sectors_text(a, sizeof a, sectors), worth_text(b, sizeof b, useful));
    } else if (!strcmp(f, "reverse") || !strcmp(f, "permute")) {
        bw_buf_printf(out, "the lanes read seq's elements in another order: the same %s per warp, "
                           "since order inside a warp does not change which sectors are touched.",
                      sectors_text(a, sizeof a, sectors));
    } else if (!strcmp(f, "broadcast")) {
        bw_buf_printf(out, "all %d lanes of a warp read one address: %s %s %lld requested "
                           "bytes, of which %lld are distinct.",
                      W, sectors_text(a, sizeof a, sectors), fabs(sectors - 1.0) < 1e-9 ? "serves" : "serve",
                      (long long)(E * W), (long long)E);
    } else if (!strcmp(f, "one-lane")) {
        bw_buf_printf(out, "one lane of %d is active: a whole %lld-byte sector is fetched for %lld "
                           "useful bytes.",
                      W, (long long)S, (long long)E);
    } else if (!strcmp(f, "matrix-col")) {
        bw_buf_printf(out, "consecutive lanes walk down a column, %lld bytes apart: each warp touches %s "
                           "for %s of data.",
                      (long long)(E * model_pattern_param_value(it->pattern, "n")), sectors_text(a, sizeof a, sectors),
                      worth_text(b, sizeof b, useful));
    } else if (!strcmp(f, "mixed")) {
        bw_buf_printf(out, "half the warp is coalesced and half scattered: %s per warp for %s of data, "
                           "the scattered half costing most of them.",
                      sectors_text(a, sizeof a, sectors), worth_text(b, sizeof b, useful));
    } else {
        bw_buf_printf(out, "each warp touches %s for %s of requested data (modeled sector "
                           "efficiency %.0f%%).",
                      sectors_text(a, sizeof a, sectors), worth_text(b, sizeof b, useful),
                      it->warp0.has_efficiency ? it->warp0.sector_efficiency * 100.0 : 0.0);
    }
    access_note(it, out);
}

const char *report_verdict_text(bench_verdict_code c)
{
    switch (c) {
    case BENCH_VERDICT_BELOW: return "faster than its footprint at seq's rate (caches or prefetch)";
    case BENCH_VERDICT_LOWER: return "at the lower bound: each sector fetched once";
    case BENCH_VERDICT_BETWEEN: return "between the bounds: some reuse";
    case BENCH_VERDICT_UPPER: return "at the upper bound: no reuse";
    case BENCH_VERDICT_ABOVE: return "slower than its modeled traffic explains";
    case BENCH_VERDICT_AT_MODEL: return "matches the model (bounds coincide)";
    case BENCH_VERDICT_KERNEL_BOUND: return "kernel-bound: memory out of the way, it runs no faster";
    default: return "no measured seq reference";
    }
}

const char *report_verdict_words(const bench_verdict *v)
{
    if (v->code != BENCH_VERDICT_KERNEL_BOUND)
        return report_verdict_text(v->code);
    switch (v->limiter) {
    case BENCH_LIMITER_CPU_GATHER: return "gather-bound on this CPU: the addresses are fine, the vector unit is not";
    case BENCH_LIMITER_CPU_SCALAR: return "instruction-bound on this CPU: one scalar load per work-item";
    case BENCH_LIMITER_CPU_VECTOR:
        return "kernel-bound on this CPU: memory out of the way, the vectorised kernel runs no faster";
    case BENCH_LIMITER_GPU: return "kernel-bound on this GPU: memory out of the way, it runs no faster";
    default: return "kernel-bound on this device: memory out of the way, it runs no faster";
    }
}

void report_explain_bound(const bench_verdict *v, double twin_ratio, bw_buf *out)
{
    if (v->code != BENCH_VERDICT_KERNEL_BOUND || !isfinite(twin_ratio))
        return;
    bw_buf_printf(out, " Its twin, the same kernel over a slice that stays in the cache, takes %.2fx its time "
                       "(measured): with memory out of the way it runs no faster, so the kernel's instructions, "
                       "not the addresses' traffic, set its speed.",
                  twin_ratio);
}
