/* report_explain: plain sentences that say what a pattern does and why the
 * model says what it says (`bwlab run --explain`), and the wording of the
 * verdicts. Numbers come from the model's accounting of the launch. */
#ifndef REPORT_EXPLAIN_H
#define REPORT_EXPLAIN_H

#include "bench_plan.h"
#include "bench_verdict.h"
#include "bw_buf.h"

/* One sentence (no leading capital needed by callers, ends with '.'). */
void report_explain(const bench_item *it, const model_geometry *geo, bw_buf *out);
/* Short human text for a verdict. */
const char *report_verdict_text(bench_verdict_code c);

#endif
