/* bench_explain: the sentences of `bwlab run --explain` about what a
 * pattern does and why the model says so, and the wording of the
 * verdicts and of the twin's bound (bench_explain.h). */
#include "bench_explain.h"

#include <math.h>
#include <stdio.h>

/* what the pattern's kernel does with the element it loads, where it is
 * not the usual copy */
static void access_note(const bench_item *it, bw_buf *out)
{
    if (it->access == BENCH_ACCESS_READ)
        bw_buf_puts(out, " Read mode: the loads alone; the copy's coalesced store to dst[g] is left out, so "
                         "the pattern's cost is not diluted by it.");
    if (it->access == BENCH_ACCESS_WRITE)
        bw_buf_puts(out, " Write mode: each work-item loads src[g], coalesced, and stores it at the pattern's "
                         "address, so the pattern's cost is its stores'.");
}

void bench_explain(const bench_item *it, const model_geometry *geo, bw_buf *out)
{
    const model_traffic *l = &it->model.loads;
    double warps = (double)(l->instructions ? l->instructions : 1);
    double sectors = (double)l->instr_sectors / warps;                      /* modeled, per warp */
    double useful = (double)l->requested_bytes / warps / (double)geo->sector; /* requested, in sectors */
    char a[64], b[64];

    if (it->pattern) {
        /* a catalogue pattern: its family's own sentence */
        model_pattern_facts facts = { it->pattern, geo->lanes, geo->sector, it->elem, sectors, useful };
        it->pattern->family->explain(&facts, out);
    } else {
        bw_buf_printf(out, "each warp touches %s for %s of requested data (modeled sector "
                           "efficiency %.0f%%).",
                      model_pattern_sectors_words(a, sizeof a, sectors), model_pattern_worth_words(b, sizeof b, useful),
                      it->warp0.has_efficiency ? it->warp0.sector_efficiency * 100.0 : 0.0);
    }
    access_note(it, out);
}

const char *bench_verdict_text(bench_verdict_code c)
{
    switch (c) {
    case BENCH_VERDICT_BELOW: return "faster than its footprint at the fastest seq-family rate (caches or prefetch)";
    case BENCH_VERDICT_LOWER: return "at the lower bound: each sector fetched once";
    case BENCH_VERDICT_BETWEEN: return "between the bounds: some reuse";
    case BENCH_VERDICT_UPPER: return "at the upper bound: no reuse";
    case BENCH_VERDICT_ABOVE: return "slower than its modeled traffic explains";
    case BENCH_VERDICT_AT_MODEL: return "matches the model (bounds coincide)";
    case BENCH_VERDICT_KERNEL_BOUND: return "kernel-bound: memory out of the way, it runs no faster";
    default: return "no measured seq reference";
    }
}

const char *bench_verdict_words(const bench_verdict *v)
{
    if (v->code != BENCH_VERDICT_KERNEL_BOUND)
        return bench_verdict_text(v->code);
    if (v->by_rate)
        return "kernel-bound: a wider element streams the same bytes faster in this run";
    switch (v->limiter) {
    case BENCH_LIMITER_CPU_GATHER: return "gather-bound on this CPU: the addresses are fine, the vector unit is not";
    case BENCH_LIMITER_CPU_SCALAR: return "instruction-bound on this CPU: one scalar load per work-item";
    case BENCH_LIMITER_CPU_WARP: return "instruction-bound on this CPU: a warp's loads and shuffles in one work-item";
    case BENCH_LIMITER_CPU_VECTOR:
        return "kernel-bound on this CPU: memory out of the way, the vectorised kernel runs no faster";
    case BENCH_LIMITER_GPU: return "kernel-bound on this GPU: memory out of the way, it runs no faster";
    default: return "kernel-bound on this device: memory out of the way, it runs no faster";
    }
}

const char *bench_verdict_sentence(const bench_verdict *v, int unroll, char *buf, size_t n)
{
    const char *words = bench_verdict_words(v);
    char k[128] = "";
    /* kernel-bound at the K it ran: more items per work-item is the lever a reader tries next */
    if (v->code == BENCH_VERDICT_KERNEL_BOUND && unroll > 0)
        snprintf(k, sizeof k, " (measured at K = %d item%s per work-item)", unroll, unroll == 1 ? "" : "s");
    else if (v->bound_dram && v->code != BENCH_VERDICT_NONE)
        /* the DRAM unit, not the sector, decided the bounds */
        snprintf(k, sizeof k, " (bounds in %lld-byte DRAM units)", (long long)v->bound_unit_bytes);
    if (!v->write_allocate && !k[0])
        return words;
    snprintf(buf, n, "%s%s%s", words, k,
             v->write_allocate ? "; a store miss reads its line first (this CPU's write-allocate caches), so the "
                                 "stores' lines are read as well as written, as seq's writes are"
                               : "");
    return buf;
}

void bench_explain_bound(const bench_verdict *v, double twin_ratio, const char *rate_spec, bw_buf *out)
{
    if (v->code == BENCH_VERDICT_KERNEL_BOUND && v->by_rate && v->lower_bytes > 0 && rate_spec) {
        bw_buf_printf(out, " Its addresses are the reference's, and %s streams the same bytes in the same order %.2fx "
                           "as fast in this run (measured): the memory system moves them faster than this kernel "
                           "asks for them, so the kernel sets its speed (more items per work-item, --unroll, is "
                           "the lever).",
                      rate_spec, v->implied_bytes / v->lower_bytes);
        return;
    }
    if (v->code != BENCH_VERDICT_KERNEL_BOUND || !isfinite(twin_ratio))
        return;
    bw_buf_printf(out, " Its twin, the same kernel over a slice that stays in the cache, takes %.2fx its time "
                       "(measured): with memory out of the way it runs no faster, so the kernel's instructions, "
                       "not the addresses' traffic, set its speed.",
                  twin_ratio);
}
