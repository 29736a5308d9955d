/* bench_explain: plain sentences that say what a pattern does and why the
 * model says what it says (`bwlab run --explain`), and the wording of the
 * verdicts. Numbers come from the model's accounting of the launch. */
#ifndef BENCH_EXPLAIN_H
#define BENCH_EXPLAIN_H

#include "bench_plan_priv.h"
#include <stddef.h>

#include "bench_verdict.h"
#include "bw_buf.h"

/* One sentence (no leading capital needed by callers, ends with '.'). */
void bench_explain(const bench_item *it, const model_geometry *geo, bw_buf *out);
/* Short human text for a verdict code. */
const char *bench_verdict_text(bench_verdict_code c);
/* The same for a verdict: a kernel-bound one says what the kernel waits
 * for (its limiter); every other one is bench_verdict_text's. */
const char *bench_verdict_words(const bench_verdict *v);
/* The verdict's words; for a kernel-bound one of a kernel with K items
 * per work-item (unroll > 0; 0: none), the K it was measured at; and for
 * a write-mode item on a CPU (bench_verdict.write_allocate), what its
 * write-allocate caches do: into buf (n bytes) when anything is added,
 * else the words themselves. */
#define BENCH_VERDICT_SENTENCE_MAX 360
const char *bench_verdict_sentence(const bench_verdict *v, int unroll, char *buf, size_t n);
/* For a kernel-bound verdict, a sentence (leading space included) on what
 * showed it: the twin (twin_ratio, its time over the pattern's), or for
 * one by the rate item (bench_verdict.by_rate) that item, rate_spec, and
 * how much faster it streams the same bytes. Nothing for any other
 * verdict. */
void bench_explain_bound(const bench_verdict *v, double twin_ratio, const char *rate_spec, bw_buf *out);

#endif
