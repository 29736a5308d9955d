#include "report_results.h"

#include "bench_bank.h"
#include "bench_record.h"
#include "bw_format.h"
#include "bench_transpose.h"

#include "bench_tune_cache.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bwlab_config.h"
#include "report_devices.h"
#include "report_explain.h"
#include "report_format.h"
#include "report_grid.h"
#include "report_probe.h"
#include "report_model.h"
#include "report_roofline.h"
#include "report_tune.h"

/* The figures of one row, computed once for every writer. */
typedef struct row {
    const bench_item *it;
    const bench_result *r;
    int ok;
    double requested; /* requested bytes, loads + stores */
    double upper;     /* modeled instruction-model bytes, loads + stores */
    double lower;     /* modeled footprint bytes, loads + stores */
} row;

static row row_of(const report_run *run, size_t i)
{
    row w;
    w.it = &run->plan->items[i];
    w.r = &run->results[i];
    w.ok = w.r->status == BENCH_OK;
    const model_launch *m = &w.it->model;
    int64_t S = run->plan->geo.sector;
    w.requested = (double)(m->loads.requested_bytes + m->stores.requested_bytes);
    w.upper = (double)((m->loads.instr_sectors + m->stores.instr_sectors) * S);
    w.lower = (double)((m->loads.footprint_sectors + m->stores.footprint_sectors) * S);
    return w;
}

/* whether an item is shown in a section of its own (bank_rows,
 * transpose_rows, record_rows) instead of the global table */
static int in_own_section(const bench_item *it)
{
    return it->bank || it->transpose || it->record;
}

/* A record item against its soa reference, from the run: the measured
 * median-time ratio and the modeled instruction-model and footprint byte
 * ratios (loads + stores), NAN where one is missing. */
typedef struct record_ratios {
    double time, instr, footprint;
} record_ratios;

static record_ratios record_ratios_of(const report_run *run, size_t i)
{
    record_ratios q = { NAN, NAN, NAN };
    const bench_result *r = &run->results[i];
    if (r->reference < 0)
        return q;
    row a = row_of(run, i), b = row_of(run, (size_t)r->reference);
    if (b.upper > 0)
        q.instr = a.upper / b.upper;
    if (b.lower > 0)
        q.footprint = a.lower / b.lower;
    if (a.ok && b.ok && b.r->event.median > 0)
        q.time = a.r->event.median / b.r->event.median;
    return q;
}

/* A whole-matrix item (matrix-row, matrix-col: every element of the n x n
 * matrix once): the launch model's two bounds (model_launch, loads +
 * stores) as times at the rate the reference moved its modeled bytes in
 * this run (the verdict's rate: implied bytes / median), beside the
 * measured median. 0 when the item has no such figures. */
typedef struct launch_times {
    double footprint_ns, instruction_ns, median_ns;
} launch_times;

static int is_whole_matrix(const bench_item *it)
{
    return it->pattern && it->pattern->family->sizing == MODEL_PATTERN_SIZING_MATRIX;
}

static int launch_times_of(const row *w, launch_times *lt)
{
    const bench_verdict *v = &w->r->verdict;
    if (!is_whole_matrix(w->it) || !w->ok || !(v->implied_bytes > 0) || !(w->r->event.median > 0))
        return 0;
    double ns_per_byte = w->r->event.median / v->implied_bytes;
    lt->footprint_ns = w->lower * ns_per_byte;
    lt->instruction_ns = w->upper * ns_per_byte;
    lt->median_ns = w->r->event.median;
    return 1;
}

/* the launch model's bounds under a whole-matrix row (table) */
static void launch_line(const row *w, bw_buf *out)
{
    launch_times lt;
    if (!launch_times_of(w, &lt))
        return;
    char a[32], b[32];
    bw_format_bytes(a, sizeof a, w->lower);
    bw_format_bytes(b, sizeof b, w->upper);
    bw_buf_printf(out, "    launch model (the whole %lld x %lld matrix, %lld warp-instructions): footprint %s .. "
                       "instruction model %s (modeled), %.3f .. %.3f ms at seq's measured rate; "
                       "measured %.3f ms\n",
                  (long long)model_pattern_param_value(w->it->pattern, "n"),
                  (long long)model_pattern_param_value(w->it->pattern, "n"),
                  (long long)(w->it->model.loads.instructions + w->it->model.stores.instructions), a, b,
                  lt.footprint_ns / 1e6, lt.instruction_ns / 1e6, lt.median_ns / 1e6);
}

/* The peak a pattern's bandwidth is set against: read's for a read-mode
 * pattern, copy's for one that loads and stores to dst[g]. */
static bench_tune_mode access_mode(const bench_item *it)
{
    return it->access == BENCH_ACCESS_READ ? BENCH_TUNE_READ : BENCH_TUNE_COPY;
}

/* measured: the pattern's bandwidth over the device's peak of its access
 * mode from `bwlab tune`; NAN without a tuned peak or a bandwidth */
static double fraction_of_peak(const report_run *run, const row *w)
{
    if (!run->tune || !w->ok)
        return NAN;
    return bench_tune_fraction(run->tune->peak, access_mode(w->it), w->r->effective_gbs);
}

static const char *status_name(bench_status s)
{
    return s == BENCH_OK ? "ok" : s == BENCH_FAILED ? "failed" : s == BENCH_NOT_MEASURABLE ? "not-measurable" : "not-run";
}

/* validated: measured or found too short to time */
static int validated(const bench_result *r)
{
    /* interrupted after its validation: the check still stands */
    return r->status == BENCH_OK || r->status == BENCH_NOT_MEASURABLE || (r->status == BENCH_NOT_RUN && r->validated);
}

/* the failure column of a row without a bandwidth */
static const char *failure_lead(bench_status s, int upper)
{
    if (s == BENCH_FAILED)
        return upper ? "FAILED: " : "failed: ";
    /* the reason of a pattern too short to time begins "not measurable" */
    return s == BENCH_NOT_MEASURABLE ? "" : "not run: ";
}

/* the first line of a failure, for tables */
static void first_line(bw_buf *out, const char *s)
{
    const char *nl = strchr(s, '\n');
    bw_buf_putn(out, s, nl ? (size_t)(nl - s) : strlen(s));
}

/* which form of index arithmetic the kernels used (requested or planned,
 * never measured): 64-bit long, or 32-bit int where the model proved it */
static void index_line(const report_run *run, bw_buf *out, const char *lead)
{
    const bench_plan *p = run->plan;
    size_t n32 = 0, n = 0;
    /* the gather kernels' form: bank.cl has index arithmetic of its own */
    for (size_t i = 0; i < p->n; i++) {
        n += !p->items[i].bank;
        n32 += !p->items[i].bank && p->items[i].index_bits == 32;
    }
    bw_buf_printf(out, "%sindex arithmetic: ", lead);
    if (n32 == 0) {
        bw_buf_puts(out, "64-bit (long) in every kernel\n");
        return;
    }
    if (n32 == n) {
        bw_buf_puts(out, "32-bit (int) in every kernel, each proven by the model to fit its launch\n");
        return;
    }
    bw_buf_printf(out, "32-bit (int) in %zu kernels, proven by the model to fit their launches; 64-bit (long) in ", n32);
    const char *sep = "";
    for (size_t i = 0; i < p->n; i++) {
        if (!p->items[i].bank && p->items[i].index_bits != 32) {
            bw_buf_printf(out, "%s%s", sep, p->items[i].spec);
            sep = ", ";
        }
    }
    bw_buf_putc(out, '\n');
}

static int both_modes(const bench_plan *p);

/* which kernel form each pattern was timed in, where two were built (CPU
 * devices): the faster of the two, by measurement */
static void form_line(const report_run *run, bw_buf *out, const char *lead)
{
    const bench_plan *p = run->plan;
    if (!p->scalar_form)
        return;
    size_t scalar = 0;
    for (size_t i = 0; i < p->n; i++)
        scalar += run->results[i].status == BENCH_OK && run->results[i].form == BENCH_FORM_SCALAR;
    bw_buf_printf(out, "%skernel form: per pattern the faster of two, measured: plain (vectorised across "
                       "work-items) or scalar (one load per work-item); scalar for ",
                  lead);
    const char *sep = "";
    int both = both_modes(p);
    for (size_t i = 0; i < p->n; i++) {
        if (run->results[i].status == BENCH_OK && run->results[i].form == BENCH_FORM_SCALAR) {
            bw_buf_printf(out, "%s%s", sep, p->items[i].spec);
            if (both)
                bw_buf_printf(out, " (%s)", bench_access_name(p->items[i].access));
            sep = ", ";
        }
    }
    bw_buf_puts(out, scalar ? "\n" : "none\n");
}

/* the access modes the plan measures: BENCH_ACCESS_BIT of each */
static unsigned modes_of(const bench_plan *p)
{
    unsigned m = 0, bank = 0;
    /* bank items read local memory: they have no place in the global
     * table's read and copy columns (bank_rows) */
    /* transpose items (copy, measured once) have their own rows too */
    for (size_t i = 0; i < p->n; i++) {
        if (in_own_section(&p->items[i]))
            bank = BENCH_ACCESS_BIT(p->items[i].access);
        else
            m |= BENCH_ACCESS_BIT(p->items[i].access);
    }
    return m ? m : bank;
}

/* whether the plan has items of the global table (not bank or transpose rows) */
static int has_global(const bench_plan *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (!in_own_section(&p->items[i]))
            return 1;
    return 0;
}

static int has_record(const bench_plan *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->items[i].record)
            return 1;
    return 0;
}

static int has_transpose(const bench_plan *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->items[i].transpose)
            return 1;
    return 0;
}

static int has_bank(const bench_plan *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->items[i].bank)
            return 1;
    return 0;
}

static int both_modes(const bench_plan *p)
{
    return modes_of(p) == (BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) | BENCH_ACCESS_BIT(BENCH_ACCESS_READ));
}

/* what the kernels do with the element they load (requested, not measured) */
static void access_line(const bench_plan *p, bw_buf *out, const char *lead)
{
    static const char copy[] = "copy stores each loaded element at dst[g], and the model counts that store";
    static const char read[] = "read compares each loaded element with a key and stores only on a match: the "
                               "model counts the loads alone";
    unsigned mo = modes_of(p);
    if (both_modes(p))
        bw_buf_printf(out, "%saccess: read and copy side by side; %s; %s\n", lead, read, copy);
    else
        bw_buf_printf(out, "%saccess: %s\n", lead, mo == BENCH_ACCESS_BIT(BENCH_ACCESS_READ) ? read : copy);
}

/* Rows of a table with both modes: the k-th item of a spec in copy mode
 * and the k-th of that spec in read mode share a row. The partner of item
 * i, or -1. */
static long partner_of(const bench_plan *p, size_t i)
{
    const bench_item *it = &p->items[i];
    size_t occ = 0;
    for (size_t j = 0; j < i; j++)
        occ += p->items[j].access == it->access && !strcmp(p->items[j].spec, it->spec);
    for (size_t j = 0, k = 0; j < p->n; j++) {
        if (p->items[j].access == it->access || strcmp(p->items[j].spec, it->spec))
            continue;
        if (k++ == occ)
            return (long)j;
    }
    return -1;
}

/* the patterns the budget ended before they were stable */
static void unstable_line(const report_run *run, bw_buf *out, const char *lead)
{
    const bench_plan *p = run->plan;
    size_t k = 0;
    for (size_t i = 0; run->results && i < p->n; i++) {
        if (run->results[i].status != BENCH_OK || run->results[i].stable)
            continue;
        if (k++ == 0)
            bw_buf_printf(out, "%snot stable when the budget ended (fewer launches, or a larger standard error, "
                               "than the rule asks): %s", lead, p->items[i].spec);
        else
            bw_buf_printf(out, ", %s", p->items[i].spec);
    }
    if (k)
        bw_buf_putc(out, '\n');
}

/* a plan index the run's noise figures name, or -1 when it names none
 * (a run that never reached its timing) */
static long noise_item(const report_run *run, long i)
{
    return run->results && i >= 0 && (size_t)i < run->plan->n && run->results[i].status == BENCH_OK ? i : -1;
}

/* the run's own estimate of how well its figures would repeat */
static void noise_line(const report_run *run, bw_buf *out, const char *lead)
{
    const bench_run_info *info = run->info;
    const bench_plan *p = run->plan;
    long si = noise_item(run, info->seq_item), ri = noise_item(run, info->relative_item);
    if (si < 0 && ri < 0)
        return;
    bw_buf_printf(out, "%s%s", lead, info->noisy ? "this machine is noisy: " : "repeatability: ");
    if (si >= 0) {
        if (isfinite(info->seq_spread))
            bw_buf_printf(out, "%s's median could differ by %.1f%% in another run (measured spread; limit %.0f%%)",
                          p->items[si].spec, info->seq_spread * 100.0, BENCH_NOISY_SEQ * 100.0);
        else
            bw_buf_printf(out, "%s has too few launches to estimate its spread", p->items[si].spec);
    }
    if (ri >= 0) {
        bw_buf_puts(out, si >= 0 ? "; " : "");
        if (isfinite(info->relative_spread))
            bw_buf_printf(out, "a vs seq figure by up to %.3f (%s; limit %.2f)", info->relative_spread,
                          p->items[ri].spec, BENCH_NOISY_RELATIVE);
        else
            bw_buf_printf(out, "%s has too few launches to estimate its vs seq spread", p->items[ri].spec);
    }
    bw_buf_puts(out, info->noisy ? "; compare runs with care, or give a larger --budget\n" : "\n");
}

static void header_lines(const report_meta *m, const report_run *run, bw_buf *out, const char *lead)
{
    const bench_device *d = run->device;
    const bench_plan *p = run->plan;
    const model_geometry *g = p ? &p->geo : &d->geo;
    report_device_line(out, lead, d, run->is_default);
    if (run->failure) {
        bw_buf_printf(out, "%sFAILED on this device: ", lead);
        first_line(out, run->failure);
        bw_buf_putc(out, '\n');
        if (!p)
            return;
    }
    bw_buf_printf(out, "%sprofile %s: W = %d lanes, sector %lld B, line %lld B; %s\n", lead, d->profile_name,
                  g->lanes, (long long)g->sector, (long long)g->line, d->profile_why);
    bw_buf_printf(out, "%sworking set: ", lead);
    report_bytes(out, (double)p->target_bytes);
    if (p->target_auto && !strcmp(p->cache_source, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE")) {
        bw_buf_puts(out, " per pattern (auto, from the ");
        report_bytes(out, (double)d->global_cache_bytes);
        bw_buf_puts(out, " global cache)");
    } else if (p->target_auto && p->cache_bytes) {
        /* the device reports no cache: the host's, for a CPU device */
        bw_buf_puts(out, " per pattern (auto, from the ");
        report_bytes(out, (double)p->cache_bytes);
        bw_buf_printf(out, " last-level cache in %s; the device reports none)", p->cache_source);
    } else if (p->target_auto) {
        bw_buf_puts(out, " per pattern (auto, default: no cache size known)");
    } else {
        bw_buf_puts(out, " per pattern (--size)");
    }
    /* a pattern never runs less than one work-group: say when that is more */
    double used = 0;
    for (size_t i = 0; i < p->n; i++) {
        double fp = (double)(p->items[i].model.loads.footprint_sectors * g->sector);
        used = fp > used ? fp : used;
    }
    if (used > (double)p->target_bytes) {
        bw_buf_puts(out, ", up to ");
        report_bytes(out, used);
        bw_buf_puts(out, " used (modeled load footprint: at least one work-group per pattern)");
    }
    bw_buf_puts(out, "; buffers: src ");
    report_bytes(out, (double)p->src_bytes);
    bw_buf_puts(out, ", dst ");
    report_bytes(out, (double)p->dst_bytes);
    bw_buf_printf(out, "; %lld work-items per group\n", (long long)p->local_size);
    index_line(run, out, lead);
    form_line(run, out, lead);
    access_line(p, out, lead);
    const bench_run_info *info = run->info;
    char timer[256] = "event profiling";
    if (info->timer_wall)
        snprintf(timer, sizeof timer,
                 "host clock around clFinish: the driver refused a profiling queue; clock resolution %.0f ns, "
                 "launch overhead %.1f µs (measured, included in every launch)",
                 info->timer_resolution_ns, info->launch_overhead_ns / 1e3);
    bw_buf_printf(out, "%stiming: %.1f s of rounds in a %g s run budget, %zu rounds; per pattern the median of its launches "
                       "(%s), stopped at %.1f%% relative standard error and %.2f s of launches%s%s\n",
                  lead, info->timing_s, m->settings->budget_s, info->rounds, timer, m->settings->rse_target * 100.0,
                  m->settings->min_total_s, info->budget_ended ? " or when the budget ended" : "",
                  info->interrupted ? "; INTERRUPTED: partial results" : "");
    if (run->device->host_unified_memory > 0)
        bw_buf_printf(out, "%smemory: unified with the host's (CL_DEVICE_HOST_UNIFIED_MEMORY)\n", lead);
    if (run->retry)
        bw_buf_printf(out, "%sretried: buffers: %s\n", lead, run->retry);
    for (size_t i = 0; i < p->n; i++)
        if (run->results[i].retry)
            bw_buf_printf(out, "%sretried: %s: %s\n", lead, p->items[i].spec, run->results[i].retry);
    if (run->tune)
        report_tune_peak_line(out, lead, run->tune, run->tune_cache);
    if (info->plan_note[0])
        bw_buf_printf(out, "%sbudget: %s\n", lead, info->plan_note);
    if (info->replan_note[0])
        bw_buf_printf(out, "%sbudget: %s\n", lead, info->replan_note);
    unstable_line(run, out, lead);
    noise_line(run, out, lead);
}

static void twin_legend(bw_buf *out)
{
    bw_buf_printf(out, "best: measured, GB/s of the fastest launch (GB/s is the median's; with read and copy side by "
                       "side, of the verdict's mode).\n"
                       "twin x: measured, the pattern's own kernel over a slice that stays in\n"
                       "the cache (its twin), over its own fastest launch; bound: kernel when twin x "
                       ">= %.2f (memory out of the way buys less than\n"
                       "%.0f%%), else memory; '-': no twin figure (the JSON says why).\n",
                  BENCH_TWIN_KERNEL_BOUND, (1.0 / BENCH_TWIN_KERNEL_BOUND - 1.0) * 100.0);
}

static void cell_ratio(bw_buf *out, double v, int valid, int width)
{
    char buf[32];
    if (valid && isfinite(v))
        snprintf(buf, sizeof buf, "%.2f", v);
    else
        snprintf(buf, sizeof buf, "-");
    bw_buf_printf(out, "%*s", width, buf);
}

/* A failed, unmeasurable or interrupted mode of a paired row, on a line of its own. */
static void pair_failure(bw_buf *out, const report_run *run, long i)
{
    if (i < 0 || run->results[i].status == BENCH_OK)
        return;
    const bench_result *r = &run->results[i];
    bw_buf_printf(out, "    %s: %s", bench_access_name(run->plan->items[i].access), failure_lead(r->status, 1));
    first_line(out, r->failure ? r->failure : "?");
    bw_buf_putc(out, '\n');
}

static void md_escape(bw_buf *out, const char *s);

/* ---- the global and the paired table: one row model, printed through a
 * grid as text (fixed columns) or as Markdown ---- */

/* "%.2f", or "-" where v is not valid or not finite (cell_ratio) */
static void ratio_cell(report_grid *g, double v, int valid)
{
    bw_buf b = BW_BUF_INIT;
    cell_ratio(&b, v, valid, 0);
    report_grid_put(g, bw_buf_str(&b));
    bw_buf_free(&b);
}

/* the pattern's spec; in Markdown as code */
static void spec_cell(report_grid *g, const char *spec, int md)
{
    if (!md) {
        report_grid_put(g, spec);
        return;
    }
    bw_buf b = BW_BUF_INIT;
    bw_buf_putc(&b, '`');
    md_escape(&b, spec);
    bw_buf_putc(&b, '`');
    report_grid_put(g, bw_buf_str(&b));
    bw_buf_free(&b);
}

/* why a mode has no bandwidth: the lead ("FAILED: " in text, "failed: "
 * in Markdown, where the words are escaped) and the failure's first line */
static void failure_cell(report_grid *g, const bench_result *r, int md)
{
    bw_buf b = BW_BUF_INIT, seg = BW_BUF_INIT;
    bw_buf_puts(&b, failure_lead(r->status, !md));
    first_line(&seg, r->failure ? r->failure : "?");
    if (md)
        md_escape(&b, bw_buf_str(&seg));
    else
        bw_buf_puts(&b, bw_buf_str(&seg));
    report_grid_put(g, bw_buf_str(&b));
    bw_buf_free(&seg);
    bw_buf_free(&b);
}

/* the modeled cells: sector efficiency of warp 0, and the launch's
 * instruction-model and footprint bytes per requested byte */
static void model_cells(report_grid *g, const row *w)
{
    bw_buf b = BW_BUF_INIT;
    report_percent(&b, w->it->warp0.sector_efficiency, w->it->warp0.has_efficiency);
    report_grid_put(g, bw_buf_str(&b));
    bw_buf_free(&b);
    ratio_cell(g, w->upper / w->requested, w->requested > 0);
    ratio_cell(g, w->lower / w->requested, w->requested > 0);
}

/* the GB/s and vs seq cells of one mode in a paired row: "-" where the
 * mode is not measured or has no bandwidth; in Markdown a mode without a
 * bandwidth says why in its GB/s cell (text: pair_failure) */
static void pair_cells(report_grid *g, const report_run *run, long i, int md)
{
    int ok = i >= 0 && run->results[i].status == BENCH_OK;
    if (md && i >= 0 && !ok) {
        failure_cell(g, &run->results[i], 1);
        report_grid_put(g, "-");
        return;
    }
    ratio_cell(g, ok ? run->results[i].effective_gbs : 0, ok);
    ratio_cell(g, ok ? run->results[i].relative_to_seq : 0, ok);
}

/* the verdict; text marks an added reference (its explanation goes on a
 * line of its own, text_lines), Markdown adds the explanation */
static void verdict_cell(report_grid *g, const report_meta *m, const report_run *run, const row *w, int md)
{
    bw_buf b = BW_BUF_INIT;
    bw_buf_puts(&b, w->ok ? report_verdict_words(&w->r->verdict) : "-");
    if (!md && w->it->added_as_reference)
        bw_buf_puts(&b, " [added as reference]");
    if (md && m->explain) {
        bw_buf_puts(&b, ": ");
        report_explain(w->it, &run->plan->geo, &b);
        if (w->ok)
            report_explain_bound(&w->r->verdict, w->r->twin_ratio, &b);
    }
    report_grid_put(g, bw_buf_str(&b));
    bw_buf_free(&b);
}

/* the lines under a text row: the explanation (--explain; both: the
 * pattern is measured in read and copy mode), the launch model's bounds
 * and the size note */
static void text_lines(const report_meta *m, const report_run *run, const row *w, int both, bw_buf *out)
{
    if (m->explain) {
        bw_buf_puts(out, "    ");
        report_explain(w->it, &run->plan->geo, out);
        if (w->ok)
            report_explain_bound(&w->r->verdict, w->r->twin_ratio, out);
        if (both)
            bw_buf_puts(out, " The read columns time the same loads without the store.");
        bw_buf_putc(out, '\n');
    }
    launch_line(w, out);
    if (w->it->size_note)
        bw_buf_printf(out, "    note: %s\n", w->it->size_note);
}

/* a Markdown table's header row and alignment rule */
static void md_head(const char *const *head, const report_grid_col *cols, size_t ncol, bw_buf *out)
{
    report_grid g = { ncol, 0, 0, NULL };
    for (size_t c = 0; c < ncol; c++)
        report_grid_put(&g, head[c]);
    bw_buf_putc(out, '\n');
    report_grid_emit_fixed(&g, cols, 1, 1, out);
    report_grid_free(&g);
}

#define T(w) { w, 0, NULL }     /* a right-aligned text column w wide, its gap included */
#define MD_R { 0, 0, NULL }     /* a right-aligned Markdown column */
#define MD_L { 0, 1, NULL }     /* a left-aligned one */
#define VERDICT { 0, 1, "   " } /* the verdict: last, as long as it is */

/* the global table's columns: pattern, GB/s, vs seq, [of peak,] best,
 * twin x, bound, sector eff., instr. x, footprint x, verdict */
static const report_grid_col global_text[] = { { 24, 1, NULL }, T(7), T(9), T(9), T(8), T(8), T(8), T(13), T(10),
                                               T(12), VERDICT };
static const report_grid_col global_md[] = { MD_L, MD_R, MD_R, MD_R, MD_R, MD_L, MD_R, MD_R, MD_R, MD_L };
static const char *const global_md_head[] = { "pattern", "GB/s (measured)", "vs seq (measured)",
                                              "best GB/s (measured)", "twin x (measured)", "bound (measured)",
                                              "sector eff. (modeled)", "instr. bytes / requested (modeled)",
                                              "footprint / requested (modeled)", "verdict" };

/* the paired table's: pattern, read GB/s, vs seq, copy GB/s, vs seq,
 * best (text only), twin x, bound, sector eff., instr. x, footprint x,
 * verdict */
static const report_grid_col paired_text[] = { { 24, 1, NULL }, T(7), T(9), T(7), T(9), T(8), T(8), T(8), T(13),
                                               T(10), T(12), VERDICT };
static const report_grid_col paired_md[] = { MD_L, MD_R, MD_R, MD_R, MD_R, MD_R, MD_L, MD_R, MD_R, MD_R, MD_L };
static const char *const paired_md_head[] = {
    "pattern", "read GB/s (measured)", "read vs seq (measured)", "copy GB/s (measured)", "copy vs seq (measured)",
    "twin x (measured)", "bound (measured)", "sector eff. (modeled)",
    "instr. bytes / requested (modeled, copy's where measured)",
    "footprint / requested (modeled, copy's where measured)", "verdict"
};

#undef T
#undef MD_R
#undef MD_L
#undef VERDICT

/* The patterns of the global table, a row each (the bank, transpose and
 * record items have sections of their own); text: with an "of peak"
 * column when the device has a tuned peak. */
static void global_table(const report_meta *m, const report_run *run, int md, bw_buf *out)
{
    const int peak = !md && run->tune != NULL;
    report_grid_col text[sizeof global_text / sizeof *global_text];
    size_t ncol = 0;
    for (size_t c = 0; c < sizeof global_text / sizeof *global_text; c++)
        if (c != 3 || peak)
            text[ncol++] = global_text[c];
    if (md) {
        ncol = sizeof global_md / sizeof *global_md;
        md_head(global_md_head, global_md, ncol, out);
    } else {
        bw_buf_printf(out, "\n                          measured                                 %smodeled"
                           "                            measured vs modeled\n",
                      peak ? "         " : "");
        bw_buf_puts(out, peak ? "pattern                   GB/s    vs seq  of peak" : "pattern                   GB/s    vs seq");
        bw_buf_puts(out, "    best  twin x   bound");
        bw_buf_puts(out, "   sector eff.  instr. x  footprint x  verdict\n");
    }
    const report_grid_col *cols = md ? global_md : text;
    report_grid g = { ncol, 0, 0, NULL };
    for (size_t i = 0; i < run->plan->n; i++) {
        row w = row_of(run, i);
        if (in_own_section(w.it))
            continue; /* bank_rows, transpose_rows, record_rows */
        report_grid_clear(&g);
        spec_cell(&g, w.it->spec, md);
        if (!w.ok) {
            failure_cell(&g, w.r, md);
            report_grid_end_row(&g);
            report_grid_emit_fixed(&g, cols, md, 0, out);
            continue;
        }
        ratio_cell(&g, w.r->effective_gbs, 1);
        ratio_cell(&g, w.r->relative_to_seq, 1);
        if (peak)
            ratio_cell(&g, fraction_of_peak(run, &w), 1);
        const char *bound = bench_bound_name(w.r->bound);
        ratio_cell(&g, w.r->best_gbs, w.r->best_gbs > 0);
        ratio_cell(&g, w.r->twin_ratio, 1);
        report_grid_put(&g, bound ? bound : "-");
        model_cells(&g, &w);
        verdict_cell(&g, m, run, &w, md);
        report_grid_emit_fixed(&g, cols, md, 0, out);
        if (!md)
            text_lines(m, run, &w, 0, out);
    }
    report_grid_free(&g);
}

/* The table of a run with both modes: a row per pattern, read's and
 * copy's bandwidths side by side; the modeled columns and the verdict are
 * copy's where the pattern is measured in copy mode, else read's. */
static void paired_table(const report_meta *m, const report_run *run, int md, bw_buf *out)
{
    const bench_plan *p = run->plan;
    size_t ncol = md ? sizeof paired_md / sizeof *paired_md : sizeof paired_text / sizeof *paired_text;
    if (md) {
        md_head(paired_md_head, paired_md, ncol, out);
    } else {
        bw_buf_printf(out, "\n%-26s%-16s%-41s%-36s%s\n", "", "measured: read", "measured: copy", "modeled",
                      "measured vs modeled");
        bw_buf_puts(out, "pattern                   GB/s    vs seq   GB/s    vs seq    best  twin x   bound   sector eff.  "
                         "instr. x  footprint x  verdict\n");
    }
    report_grid g = { ncol, 0, 0, NULL };
    for (size_t i = 0; i < p->n; i++) {
        long j = partner_of(p, i);
        if (in_own_section(&p->items[i]) || (j >= 0 && (size_t)j < i))
            continue; /* shown in its partner's row, or with the bank rows */
        long c = p->items[i].access == BENCH_ACCESS_COPY ? (long)i : j;
        long r = p->items[i].access == BENCH_ACCESS_READ ? (long)i : j;
        row w = row_of(run, c >= 0 ? (size_t)c : (size_t)r);
        report_grid_clear(&g);
        spec_cell(&g, w.it->spec, md);
        pair_cells(&g, run, r, md);
        pair_cells(&g, run, c, md);
        /* best launch and twin of the row's verdict: copy's, or read's alone */
        const char *bound = w.ok ? bench_bound_name(w.r->bound) : NULL;
        if (!md)
            ratio_cell(&g, w.r->best_gbs, w.ok && w.r->best_gbs > 0);
        ratio_cell(&g, w.r->twin_ratio, w.ok);
        report_grid_put(&g, bound ? bound : "-");
        model_cells(&g, &w);
        verdict_cell(&g, m, run, &w, md);
        report_grid_emit_fixed(&g, md ? paired_md : paired_text, md, 0, out);
        if (md)
            continue;
        pair_failure(out, run, r);
        pair_failure(out, run, c);
        text_lines(m, run, &w, c >= 0 && r >= 0, out);
    }
    report_grid_free(&g);
}

/* the short roofline: the entry `bwlab roofline` writes for a device
 * (without "device"), or null when it was not measured */
static json_t *roofline_json(const report_run *run)
{
    if (!run->roofline && !run->roofline_failure)
        return json_null();
    report_roofline_device d = { run->device, run->is_default, run->roofline_failure, run->roofline,
                                 run->roofline_working_set ? run->roofline_working_set : "auto" };
    json_t *o = report_roofline_entry_json(&d);
    return o ? o : json_null();
}

/* the short roofline's lines under a run's patterns, when it was measured */
static void roofline_lines(const report_run *run, const char *lead, int md, bw_buf *out)
{
    if (!run->roofline && !run->roofline_failure)
        return;
    report_roofline_device d = { run->device, run->is_default, run->roofline_failure, run->roofline, NULL };
    bw_buf_putc(out, '\n');
    report_roofline_brief(&d, lead, md, out);
}

static void md_escape(bw_buf *out, const char *s);

/* the modeled ways of a bank item: "8-way", or "n/a" where the profile has no banks */
static void ways_text(char *buf, size_t n, const bench_item *it)
{
    if (it->conflict_ways > 0)
        snprintf(buf, n, "%d-way", it->conflict_ways);
    else
        snprintf(buf, n, "n/a");
}

/* One row of a section apart from the global table (bank, transpose):
 * GB/s, vs its reference, best, and the modeled ways text; md: Markdown. */
static void section_row(bw_buf *out, const row *w, const char *ways, int md)
{
    if (md) {
        bw_buf_puts(out, "| `");
        md_escape(out, w->it->spec);
        bw_buf_puts(out, "` | ");
    } else {
        bw_buf_printf(out, "%-24s", w->it->spec);
        if (strlen(w->it->spec) > 24)
            bw_buf_puts(out, "\n                        ");
    }
    if (!w->ok) {
        if (!md)
            bw_buf_puts(out, "  ");
        bw_buf_puts(out, failure_lead(w->r->status, !md));
        bw_buf seg = BW_BUF_INIT;
        first_line(&seg, w->r->failure ? w->r->failure : "?");
        if (md)
            md_escape(out, bw_buf_str(&seg));
        else
            bw_buf_puts(out, bw_buf_str(&seg));
        bw_buf_free(&seg);
        bw_buf_puts(out, md ? " | | | |\n" : "\n");
        return;
    }
    if (md) {
        cell_ratio(out, w->r->effective_gbs, 1, 0);
        bw_buf_puts(out, " | ");
        cell_ratio(out, w->r->relative_to_seq, 1, 0);
        bw_buf_puts(out, " | ");
        cell_ratio(out, w->r->best_gbs, w->r->best_gbs > 0, 0);
        bw_buf_printf(out, " | %s%s |\n", ways, w->it->added_as_reference ? " (added as reference)" : "");
        return;
    }
    cell_ratio(out, w->r->effective_gbs, 1, 7);
    cell_ratio(out, w->r->relative_to_seq, 1, 9);
    cell_ratio(out, w->r->best_gbs, w->r->best_gbs > 0, 8);
    bw_buf_printf(out, "%9s", ways);
    if (w->it->added_as_reference)
        bw_buf_puts(out, " [added as reference]");
    bw_buf_putc(out, '\n');
}

/* The bank items of a run, apart from the global table: measured local
 * GB/s, vs the bank reference, best launch, and the modeled ways in place
 * of sector efficiency; md: as Markdown. */
static void bank_rows(const report_run *run, int md, bw_buf *out)
{
    const bench_plan *p = run->plan;
    if (!has_bank(p))
        return;
    if (md)
        bw_buf_puts(out, "\n| bank pattern (local memory) | GB/s local (measured) | vs " BENCH_BANK_REFERENCE
                         " (measured) | best GB/s (measured) | ways (modeled) |\n|---|---:|---:|---:|---|\n");
    else
        bw_buf_puts(out, "\nlocal memory (bank patterns)\n"
                         "pattern                   GB/s    vs ref    best     ways\n");
    for (size_t i = 0; i < p->n; i++) {
        if (!p->items[i].bank)
            continue;
        row w = row_of(run, i);
        char ways[32];
        ways_text(ways, sizeof ways, w.it);
        section_row(out, &w, ways, md);
    }
    const char *lead = md ? "- " : "";
    bw_buf_printf(out, "%sbank rows: GB/s: measured, local bytes read (work-items x %d reads x 4 B) / median kernel "
                       "time; vs ref: measured, relative to the conflict-free " BENCH_BANK_REFERENCE
                       " of this run; ways: modeled bank-conflict ways of warp 0 (model_bank, the profile's banks).\n",
                  lead, BENCH_BANK_READS);
    if (p->geo.banks == 0)
        bw_buf_printf(out, "%snote: this device's profile has no banked local memory: ways n/a, and the bank "
                           "figures do not apply here (no conflicts to avoid, so no speed-up to claim).\n",
                      lead);
}

/* The transpose items of a run, apart from the global table: measured
 * GB/s (2 x n^2 x 4 B / median time), vs the copy of the same matrix,
 * best launch, and the tile's modeled conflict ways; md: as Markdown. */
static void transpose_rows(const report_run *run, int md, bw_buf *out)
{
    const bench_plan *p = run->plan;
    if (!has_transpose(p))
        return;
    if (md)
        bw_buf_puts(out, "\n| transpose | GB/s (measured) | vs copy (measured) | best GB/s (measured) | "
                         "tile ways (modeled) |\n|---|---:|---:|---:|---|\n");
    else
        bw_buf_puts(out, "\ntransposes (n x n floats)\n"
                         "pattern                   GB/s   vs copy    best     ways\n");
    for (size_t i = 0; i < p->n; i++) {
        if (!p->items[i].transpose)
            continue;
        row w = row_of(run, i);
        int64_t v = model_pattern_param_value(w.it->pattern, "version");
        char ways[32];
        /* naive and copy have no tile: "-"; a tile on a profile without banks: n/a */
        if (v == MODEL_TRANSPOSE_NAIVE || v == MODEL_TRANSPOSE_COPY)
            snprintf(ways, sizeof ways, "-");
        else
            ways_text(ways, sizeof ways, w.it);
        section_row(out, &w, ways, md);
    }
    const char *lead = md ? "- " : "";
    bw_buf_printf(out, "%stranspose rows: GB/s: measured, 2 x n^2 x 4 B (loads and stores) / median kernel time; "
                       "vs copy: measured, relative to " BENCH_TRANSPOSE_REFERENCE " of the same n in this run; "
                       "ways: modeled bank-conflict ways of the local tile's column read by warp 0 (model_bank, "
                       "tile %d x %d, the profile's W).\n",
                  lead, p->geo.lanes, p->geo.lanes);
}

/* The record items of a run, apart from the global table: measured GB/s,
 * vs the soa form, best launch, then each layout against its soa form:
 * the measured time ratio and the modeled instruction-model and
 * footprint ratios (loads + stores); md: as Markdown. */
static void record_rows(const report_run *run, int md, bw_buf *out)
{
    const bench_plan *p = run->plan;
    if (!has_record(p))
        return;
    if (md)
        bw_buf_puts(out, "\n| record | GB/s (measured) | vs soa (measured) | best GB/s (measured) | time / soa's "
                         "(measured) | instr. bytes / soa's (modeled) | footprint / soa's (modeled) |\n"
                         "|---|---:|---:|---:|---:|---:|---:|\n");
    else
        bw_buf_puts(out, "\nrecords (every field read), against the planar soa form: measured         modeled\n"
                         "pattern                   GB/s    vs soa    best  time x       instr. x  footprint x\n");
    for (size_t i = 0; i < p->n; i++) {
        if (!p->items[i].record)
            continue;
        row w = row_of(run, i);
        record_ratios q = record_ratios_of(run, i);
        bw_buf cells = BW_BUF_INIT;
        if (md) {
            cell_ratio(&cells, q.time, w.ok && !isnan(q.time), 0);
            bw_buf_puts(&cells, " | ");
            cell_ratio(&cells, q.instr, !isnan(q.instr), 0);
            bw_buf_puts(&cells, " | ");
            cell_ratio(&cells, q.footprint, !isnan(q.footprint), 0);
        } else {
            cell_ratio(&cells, q.time, w.ok && !isnan(q.time), 8);
            cell_ratio(&cells, q.instr, !isnan(q.instr), 15);
            cell_ratio(&cells, q.footprint, !isnan(q.footprint), 13);
        }
        if (w.ok)
            section_row(out, &w, bw_buf_str(&cells), md);
        else
            section_row(out, &w, "", md);
        bw_buf_free(&cells);
        if (w.it->size_note && !md)
            bw_buf_printf(out, "    note: %s\n", w.it->size_note);
    }
    const char *lead = md ? "- " : "";
    /* Markdown: the notes after the table, which a line between rows would end */
    for (size_t i = 0; md && i < p->n; i++)
        if (p->items[i].record && p->items[i].size_note)
            bw_buf_printf(out, "- note (`%s`): %s\n", p->items[i].spec, p->items[i].size_note);
    bw_buf_printf(out, "%srecord rows: GB/s: measured, requested bytes (n x F fields loaded + n x 4 B stored) / median "
                       "kernel time; vs soa: measured, relative to the soa form of the same fields, type and n in this "
                       "run; time x: measured, median time / the soa form's; instr. x, footprint x: modeled, the "
                       "launch's instruction-model and footprint bytes (loads + stores) / the soa form's. Each field "
                       "is one scalar load (no vload3).\n",
                  lead);
}

/* A planned run's patterns: the global table (or the paired one, with
 * both modes), the sections of their own, and the short roofline. */
static void run_tables(const report_meta *m, const report_run *run, int md, bw_buf *out)
{
    if (both_modes(run->plan))
        paired_table(m, run, md, out);
    else if (has_global(run->plan))
        global_table(m, run, md, out);
    bank_rows(run, md, out);
    transpose_rows(run, md, out);
    record_rows(run, md, out);
    roofline_lines(run, md ? "- " : "", md, out);
}

void report_results_table(const report_meta *m, const report_run *runs, size_t n, bw_buf *out)
{
    int paired = 0;
    for (size_t k = 0; k < n; k++) {
        const report_run *run = &runs[k];
        if (k)
            bw_buf_putc(out, '\n');
        header_lines(m, run, out, "");
        if (run->transfers)
            report_probe_transfers_table(run->transfers, out);
        else if (run->transfers_failure)
            bw_buf_printf(out, "transfers: not measured: %s\n", run->transfers_failure);
        if (!run->plan)
            continue;
        paired |= both_modes(run->plan);
        run_tables(m, run, 0, out);
    }
    bw_buf_puts(out, "\nGB/s: measured, requested bytes (read: loads; copy: loads + stores) / median kernel time. "
                     "vs seq: measured, relative to seq of the same element size and access mode in this run.\n");
    if (paired)
        bw_buf_puts(out, "With read and copy side by side, the modeled columns and the verdict are copy's "
                         "(read's where only read was measured).\n");
    bw_buf_puts(out,
                     "sector eff.: modeled, distinct bytes / sector bytes of one warp's load. instr. x, "
                     "footprint x: modeled bytes of the launch (upper and lower bound)\n"
                     "per requested byte. verdict: the measured time at seq's rate, placed between those "
                     "modeled bounds. Modeled counts are not measured traffic.\n");
    twin_legend(out);
    for (size_t k = 0; k < n; k++) {
        if (runs[k].tune) {
            bw_buf_puts(out, "of peak: measured, GB/s / the device's peak bandwidth in the pattern's access mode "
                             "(read or copy), measured by bwlab tune (cached).\n");
            break;
        }
    }
}

static void md_escape(bw_buf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            bw_buf_puts(out, "\\|");
        else if (*s == '\n')
            bw_buf_putc(out, ' ');
        else if ((unsigned char)*s < 0x20 || *s == 0x7f)
            bw_buf_printf(out, "\\x%02x", (unsigned char)*s);
        else
            bw_buf_putc(out, *s);
    }
}

void report_results_markdown(const report_meta *m, const report_run *runs, size_t n, bw_buf *out)
{
    bw_buf_puts(out, "# bwlab results\n\n");
    bw_buf_printf(out, "bwlab %s, %s, host %s (%s)\n", BWLAB_VERSION, m->date, m->host, m->os);
    for (size_t k = 0; k < n; k++) {
        const report_run *run = &runs[k];
        bw_buf_putc(out, '\n');
        header_lines(m, run, out, "- ");
        if (run->plan)
            run_tables(m, run, 1, out);
    }
}

static void csv_int(bw_buf *out, long long v)
{
    bw_buf_printf(out, ",%lld", v);
}

/* the columns appended for the twin and for timing: best_gbs ... relative_spread */
static void twin_csv(bw_buf *out, const row *w)
{
    const bench_result *r = w->r;
    const char *bound = bench_bound_name(r->bound);
    report_csv_num(out, r->best_gbs, w->ok && r->best_gbs > 0);
    report_csv_num(out, r->twin_ns, w->ok && r->twin_ns > 0);
    bw_buf_putc(out, ',');
    if (r->twin_items > 0)
        bw_buf_printf(out, "%lld", (long long)r->twin_items);
    report_csv_num(out, r->twin_ratio, w->ok);
    bw_buf_printf(out, ",%s,%s", w->ok && bound ? bound : "", w->ok ? (r->stable ? "yes" : "no") : "");
    report_csv_num(out, r->spread, w->ok);
    report_csv_num(out, r->relative_spread, w->ok);
}

void report_results_csv(const report_meta *m, const report_run *runs, size_t n, bw_buf *out)
{
    (void)m;
    bw_buf_puts(out, "device_index,device,profile,pattern,family,expression,elem_bytes,items,status,validation,"
                     "effective_gbs,relative_to_seq,time_min_ns,time_median_ns,time_mean_ns,time_stddev_ns,"
                     "time_count,time_rse,wall_median_ns,sector_efficiency,line_efficiency,"
                     "requested_load_bytes,requested_store_bytes,instruction_model_load_bytes,"
                     "footprint_load_bytes,instruction_model_store_bytes,footprint_store_bytes,"
                     "predicted_efficiency,implied_traffic_bytes,verdict,verdict_position,size_note,index_bits,"
                     "sub_group_size,access,fraction_of_peak");
    bw_buf_puts(out, ",best_gbs,twin_time_ns,twin_items,twin_ratio,bound,stable,spread,relative_spread,kernel_form\n");
    for (size_t k = 0; k < n; k++) {
        const report_run *run = &runs[k];
        if (!run->plan)
            continue;
        int64_t S = run->plan->geo.sector;
        for (size_t i = 0; i < run->plan->n; i++) {
            row w = row_of(run, i);
            const model_launch *ml = &w.it->model;
            bw_buf_printf(out, "%zu,", run->device->index);
            report_csv_field(out, run->device->name);
            bw_buf_putc(out, ',');
            report_csv_field(out, run->device->profile_name);
            bw_buf_putc(out, ',');
            report_csv_field(out, w.it->spec);
            bw_buf_putc(out, ',');
            report_csv_field(out, w.it->family);
            bw_buf_putc(out, ',');
            report_csv_field(out, w.it->expr_text);
            csv_int(out, (long long)w.it->elem);
            csv_int(out, (long long)w.it->items);
            bw_buf_printf(out, ",%s,", status_name(w.r->status));
            report_csv_field(out, validated(w.r) ? "ok" : (w.r->failure ? w.r->failure : "?"));
            report_csv_num(out, w.r->effective_gbs, w.ok);
            report_csv_num(out, w.r->relative_to_seq, w.ok);
            report_csv_num(out, w.r->event.min, w.ok);
            report_csv_num(out, w.r->event.median, w.ok);
            report_csv_num(out, w.r->event.mean, w.ok);
            report_csv_num(out, w.r->event.stddev, w.ok);
            report_csv_num(out, (double)w.r->event.count, 1);
            report_csv_num(out, w.r->event.rse, w.ok);
            report_csv_num(out, w.r->wall.median, w.ok);
            report_csv_num(out, w.it->warp0.sector_efficiency, w.it->warp0.has_efficiency);
            report_csv_num(out, w.it->warp0.line_efficiency, w.it->warp0.has_efficiency);
            csv_int(out, (long long)ml->loads.requested_bytes);
            csv_int(out, (long long)ml->stores.requested_bytes);
            csv_int(out, (long long)(ml->loads.instr_sectors * S));
            csv_int(out, (long long)(ml->loads.footprint_sectors * S));
            csv_int(out, (long long)(ml->stores.instr_sectors * S));
            csv_int(out, (long long)(ml->stores.footprint_sectors * S));
            report_csv_num(out, model_traffic_predicted_efficiency(&ml->loads), ml->loads.instr_sectors > 0);
            report_csv_num(out, w.r->verdict.implied_bytes, w.ok);
            bw_buf_printf(out, ",%s", bench_verdict_name(w.r->verdict.code));
            report_csv_num(out, w.r->verdict.position, w.ok);
            bw_buf_putc(out, ',');
            if (w.it->size_note)
                report_csv_field(out, w.it->size_note);
            csv_int(out, w.it->index_bits);
            bw_buf_putc(out, ',');
            if (w.r->sub_group_size)
                bw_buf_printf(out, "%zu", w.r->sub_group_size);
            bw_buf_printf(out, ",%s", bench_access_name(w.it->access));
            report_csv_num(out, fraction_of_peak(run, &w), 1);
            twin_csv(out, &w);
            bw_buf_printf(out, ",%s", bench_form_name(w.r->form));
            bw_buf_putc(out, '\n');
        }
    }
}

static json_t *stats_json(const bench_stats *s, int valid)
{
    json_t *o = json_object();
    json_object_set_new(o, "min", report_json_real(s->min, valid));
    json_object_set_new(o, "median", report_json_real(s->median, valid));
    json_object_set_new(o, "mean", report_json_real(s->mean, valid));
    json_object_set_new(o, "stddev", report_json_real(s->stddev, valid));
    json_object_set_new(o, "count", json_integer((json_int_t)s->count));
    json_object_set_new(o, "rse", report_json_real(s->rse, valid && s->count >= 2));
    return o;
}

static json_t *profile_json(const bench_device *d, const model_geometry *g)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", report_json_text(d->profile_name));
    json_object_set_new(o, "why", report_json_text(d->profile_why));
    json_object_set_new(o, "lanes", json_integer(g->lanes));
    json_object_set_new(o, "sector_bytes", json_integer(g->sector));
    json_object_set_new(o, "line_bytes", json_integer(g->line));
    json_object_set_new(o, "banks", g->banks ? json_integer(g->banks) : json_null());
    json_object_set_new(o, "bank_width", g->banks ? json_integer(g->bank_width) : json_null());
    if (d->profile_inferred) { /* --profile inferred: which fields a cached probe gave */
        json_t *f = json_array();
        char buf[64];
        snprintf(buf, sizeof buf, "%s", d->profile_inferred);
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
            json_array_append_new(f, json_string(t));
        json_object_set_new(o, "inferred_fields", f);
    }
    return o;
}

/* the device's peak from `bwlab tune`: null figures when none is cached */
static void tune_json(json_t *o, const report_run *run)
{
    const bench_tune_entry *e = run->tune;
    json_object_set_new(o, "peak_read_gbs",
                        report_json_real(e ? e->peak[BENCH_TUNE_READ].gbs : 0, e && e->peak[BENCH_TUNE_READ].valid));
    json_object_set_new(o, "peak_copy_gbs",
                        report_json_real(e ? e->peak[BENCH_TUNE_COPY].gbs : 0, e && e->peak[BENCH_TUNE_COPY].valid));
    if (!e) {
        json_object_set_new(o, "tune", json_null());
        return;
    }
    json_t *t = json_object();
    bw_buf src = BW_BUF_INIT;
    bw_buf_printf(&src, "cache %s", run->tune_cache ? run->tune_cache : "?");
    json_object_set_new(t, "source", report_json_text(bw_buf_str(&src)));
    bw_buf_free(&src);
    json_object_set_new(t, "date", report_json_text(e->date));
    json_object_set_new(t, "buffer_bytes", json_integer((json_int_t)e->buffer_bytes));
    json_object_set_new(t, "read", bench_tune_peak_json(&e->peak[BENCH_TUNE_READ]));
    json_object_set_new(t, "copy", bench_tune_peak_json(&e->peak[BENCH_TUNE_COPY]));
    json_object_set_new(o, "tune", t);
}

/* the patterns not stable when the budget ended */
static void timing_json(const report_run *run, json_t *t)
{
    json_t *a = json_array();
    for (size_t i = 0; run->results && i < run->plan->n; i++)
        if (run->results[i].status == BENCH_OK && !run->results[i].stable)
            json_array_append_new(a, report_json_text(run->plan->items[i].spec));
    json_object_set_new(t, "unstable", a);
    const bench_run_info *info = run->info;
    json_t *lo = json_array(), *dr = json_array();
    for (size_t i = 0; run->results && i < run->plan->n; i++) {
        const bench_result *r = &run->results[i];
        if (r->budget_note)
            json_array_append_new(r->status == BENCH_NOT_RUN ? lo : dr, report_json_text(run->plan->items[i].spec));
    }
    json_object_set_new(t, "left_out", lo);
    json_object_set_new(t, "left_out_of_later_rounds", dr);
    json_object_set_new(t, "planned_s", json_real(info->planned_s));
    json_object_set_new(t, "available_s", json_real(info->available_s));
    json_object_set_new(t, "plan_note", info->plan_note[0] ? report_json_text(info->plan_note) : json_null());
}

static json_t *noise_json(const report_run *run)
{
    const bench_run_info *info = run->info;
    const bench_plan *p = run->plan;
    long si = noise_item(run, info->seq_item), ri = noise_item(run, info->relative_item);
    json_t *o = json_object();
    json_object_set_new(o, "noisy", json_boolean(info->noisy));
    json_object_set_new(o, "seq_spread", report_json_real(info->seq_spread, si >= 0));
    json_object_set_new(o, "seq_pattern", si >= 0 ? report_json_text(p->items[si].spec) : json_null());
    json_object_set_new(o, "relative_spread", report_json_real(info->relative_spread, ri >= 0));
    json_object_set_new(o, "relative_pattern", ri >= 0 ? report_json_text(p->items[ri].spec) : json_null());
    json_object_set_new(o, "seq_limit", json_real(BENCH_NOISY_SEQ));
    json_object_set_new(o, "relative_limit", json_real(BENCH_NOISY_RELATIVE));
    return o;
}

static json_t *run_json(const report_run *run)
{
    const bench_plan *p = run->plan;
    json_t *o = json_object();
    json_object_set_new(o, "device", report_device_json(run->device, run->is_default));
    json_object_set_new(o, "status", report_json_text(run->failure ? "failed" : "ok"));
    json_object_set_new(o, "failure", run->failure ? report_json_text(run->failure) : json_null());
    json_object_set_new(o, "profile", profile_json(run->device, p ? &p->geo : &run->device->geo));
    tune_json(o, run);
    json_object_set_new(o, "roofline", roofline_json(run));
    if (run->transfers) { /* --transfers: the keys of bwlab probe's (report_probe) */
        json_t *t = report_probe_transfers_json(run->transfers);
        json_object_update(o, t);
        json_decref(t);
    } else if (run->transfers_failure) {
        json_object_set_new(o, "transfers_failure", json_string(run->transfers_failure));
    }
    if (!p)
        return o; /* the device failed before its plan was made */
    json_object_set_new(o, "working_set_target_bytes", json_integer((json_int_t)p->target_bytes));
    json_object_set_new(o, "working_set_source", report_json_text(p->target_auto ? "auto" : "--size"));
    json_object_set_new(o, "working_set_cache_bytes",
                        p->cache_bytes ? json_integer((json_int_t)p->cache_bytes) : json_null());
    json_object_set_new(o, "working_set_cache_source", report_json_text(p->cache_source));
    json_object_set_new(o, "memory_budget_bytes",
                        p->budget_bytes != UINT64_MAX ? json_integer((json_int_t)p->budget_bytes) : json_null());
    json_t *b = json_object();
    json_object_set_new(b, "src_bytes", json_integer((json_int_t)p->src_bytes));
    json_object_set_new(b, "dst_bytes", json_integer((json_int_t)p->dst_bytes));
    json_object_set_new(o, "buffers", b);
    json_object_set_new(o, "local_size", json_integer(p->local_size));
    json_object_set_new(o, "retry", run->retry ? report_json_text(run->retry) : json_null());
    json_t *t = json_object();
    json_object_set_new(t, "total_s", json_real(run->info->total_s));
    json_object_set_new(t, "timing_s", json_real(run->info->timing_s));
    json_object_set_new(t, "rounds", json_integer((json_int_t)run->info->rounds));
    json_object_set_new(t, "budget_ended", json_boolean(run->info->budget_ended));
    json_object_set_new(t, "interrupted", json_boolean(run->info->interrupted));
    json_object_set_new(t, "timer", report_json_text(run->info->timer_wall ? "wall" : "event"));
    json_object_set_new(t, "timer_resolution_ns",
                        report_json_real(run->info->timer_resolution_ns, run->info->timer_resolution_ns > 0));
    json_object_set_new(t, "launch_overhead_ns",
                        report_json_real(run->info->launch_overhead_ns, run->info->timer_wall));
    timing_json(run, t);
    json_object_set_new(o, "timing", t);
    json_object_set_new(o, "noise", noise_json(run));
    return o;
}

/* a result's best time, stopping rule, twin and repeatability */
static void twin_json(json_t *o, const row *w)
{
    const bench_result *r = w->r;
    const char *bound = bench_bound_name(r->bound);
    json_object_set_new(o, "best_gbs", report_json_real(r->best_gbs, w->ok && r->best_gbs > 0));
    json_object_set_new(o, "stable", w->ok ? json_boolean(r->stable) : json_null());
    json_object_set_new(o, "twin_time_ns", report_json_real(r->twin_ns, w->ok && r->twin_ns > 0));
    json_object_set_new(o, "twin_items", r->twin_items > 0 ? json_integer((json_int_t)r->twin_items) : json_null());
    json_object_set_new(o, "twin_cold_time_ns", report_json_real(r->twin_cold_ns, w->ok && r->twin_cold_ns > 0));
    json_object_set_new(o, "twin_ratio", report_json_real(r->twin_ratio, w->ok));
    json_object_set_new(o, "bound", w->ok && bound ? report_json_text(bound) : json_null());
    const char *why = r->twin_reason ? r->twin_reason : !w->ok ? "the pattern was not measured" : NULL;
    json_object_set_new(o, "twin_reason", w->ok && bound ? json_null() : report_json_text(why ? why : "no twin figure"));
    json_object_set_new(o, "spread", report_json_real(r->spread, w->ok));
    json_object_set_new(o, "relative_spread", report_json_real(r->relative_spread, w->ok));
    json_object_set_new(o, "budget_note", r->budget_note ? report_json_text(r->budget_note) : json_null());
}

static json_t *result_json(const report_run *run, size_t i)
{
    row w = row_of(run, i);
    const bench_item *it = w.it;
    const bench_result *r = w.r;
    const model_geometry *g = &run->plan->geo;
    json_t *o = json_object();
    json_object_set_new(o, "device", json_integer((json_int_t)run->device->index));
    json_object_set_new(o, "pattern", report_json_text(it->spec));
    json_object_set_new(o, "family", report_json_text(it->family));
    json_object_set_new(o, "access", report_json_text(bench_access_name(it->access)));
    json_object_set_new(o, "expression", report_json_text(it->expr_text));
    json_object_set_new(o, "elem_bytes", json_integer(it->elem));
    json_object_set_new(o, "lanes", json_integer(g->lanes));
    json_object_set_new(o, "active_lanes", json_integer(model_lanes_count(&it->active)));
    json_object_set_new(o, "items", json_integer(it->items));
    json_object_set_new(o, "local_size", json_integer(it->local_size));
    json_object_set_new(o, "load", report_json_text(it->vload ? "vload" : "indexed"));
    json_object_set_new(o, "added_as_reference", json_boolean(it->added_as_reference));
    json_object_set_new(o, "working_set_bytes", json_integer(it->model.loads.footprint_sectors * g->sector));
    json_object_set_new(o, "size_note", it->size_note ? report_json_text(it->size_note) : json_null());
    json_object_set_new(o, "status", report_json_text(status_name(r->status)));
    json_object_set_new(o, "validation", report_json_text(validated(r) ? "ok" : r->failure ? r->failure : "?"));
    json_object_set_new(o, "status_reason",
                        !w.ok && r->status != BENCH_FAILED && r->failure ? report_json_text(r->failure) : json_null());
    json_object_set_new(o, "index_bits", json_integer(it->index_bits));
    json_object_set_new(o, "kernel_form", report_json_text(bench_form_name(r->form)));
    json_object_set_new(o, "timer", report_json_text(r->timer_wall ? "wall" : "event"));
    json_object_set_new(o, "timer_resolution_ns", report_json_real(r->timer_resolution_ns, r->timer_resolution_ns > 0));
    json_object_set_new(o, "launch_overhead_ns", report_json_real(r->launch_overhead_ns, r->timer_wall));
    json_object_set_new(o, "host_unified_memory", run->device->host_unified_memory < 0
                                                      ? json_null()
                                                      : json_boolean(run->device->host_unified_memory));
    json_object_set_new(o, "retry", r->retry ? report_json_text(r->retry) : json_null());
    json_t *ft = json_object();
    for (int f = BENCH_FORM_PLAIN; f <= BENCH_FORM_SCALAR; f++)
        json_object_set_new(ft, bench_form_name((bench_form)f), report_json_real(r->form_ns[f], r->form_ns[f] > 0));
    json_object_set_new(o, "form_time_ns", ft);
    json_object_set_new(o, "sub_group_size",
                        r->sub_group_size ? json_integer((json_int_t)r->sub_group_size) : json_null());
    json_object_set_new(o, "dropped_samples", json_integer((json_int_t)r->dropped_samples));
    json_object_set_new(o, "effective_gbs", report_json_real(r->effective_gbs, w.ok));
    json_object_set_new(o, "relative_to_seq", report_json_real(r->relative_to_seq, w.ok));
    json_object_set_new(o, "fraction_of_peak", report_json_real(fraction_of_peak(run, &w), 1));
    json_object_set_new(o, "reference",
                        r->reference >= 0 ? report_json_text(run->plan->items[r->reference].spec) : json_null());
    json_object_set_new(o, "space", report_json_text(it->bank ? "local" : "global"));
    if (it->bank) {
        /* local_gbs is effective_gbs: local bytes read / median time;
         * relative_to_seq and relative_to_reference are against the bank
         * reference (bank:pitch=33,stride=1), never seq */
        json_object_set_new(o, "conflict_ways", it->conflict_ways > 0 ? json_integer(it->conflict_ways) : json_null());
        json_object_set_new(o, "local_reads_per_item", json_integer(BENCH_BANK_READS));
        json_object_set_new(o, "local_bytes", json_integer((json_int_t)bench_bank_local_bytes(it)));
        json_object_set_new(o, "local_gbs", report_json_real(r->effective_gbs, w.ok));
        json_object_set_new(o, "relative_to_reference", report_json_real(r->relative_to_seq, w.ok));
        json_object_set_new(o, "tile_bytes", json_integer(it->tile_words * 4));
    }
    if (it->transpose) {
        /* relative_to_seq and relative_to_reference are against the copy
         * of the same matrix (transpose:version=copy), never seq */
        int64_t v = model_pattern_param_value(it->pattern, "version");
        int tiled = v == MODEL_TRANSPOSE_TILED || v == MODEL_TRANSPOSE_PADDED;
        json_object_set_new(o, "version", report_json_text(bench_transpose_version_name((bench_transpose_version)v)));
        json_object_set_new(o, "n", json_integer(model_pattern_param_value(it->pattern, "n")));
        json_object_set_new(o, "n_from", report_json_text(it->transpose_auto_n ? "working set" : "spec"));
        json_object_set_new(o, "store_expression",
                            it->pattern->store_text ? report_json_text(it->pattern->store_text) : json_null());
        json_object_set_new(o, "tile", tiled ? json_integer(run->plan->geo.lanes) : json_null());
        json_object_set_new(o, "launch_items", json_integer(it->launch_items > 0 ? it->launch_items : it->items));
        json_object_set_new(o, "tile_pitch", tiled ? json_integer(run->plan->geo.lanes + (v == MODEL_TRANSPOSE_PADDED))
                                                   : json_null());
        json_object_set_new(o, "conflict_ways", tiled && it->conflict_ways > 0 ? json_integer(it->conflict_ways)
                                                                                : json_null());
        json_object_set_new(o, "relative_to_reference", report_json_real(r->relative_to_seq, w.ok));
    }
    if (it->record) {
        /* relative_to_seq and relative_to_reference are against the soa
         * form of the same fields, type and n, never seq */
        bench_record_shape sh = bench_record_shape_of(it->pattern);
        record_ratios q = record_ratios_of(run, i);
        json_t *bases = json_array();
        for (int f = 0; f < it->pattern->loads; f++)
            json_array_append_new(bases, json_integer(it->pattern->load_base[f]));
        json_object_set_new(o, "layout", report_json_text(bench_record_layout_name(sh.layout)));
        json_object_set_new(o, "fields", json_integer(sh.fields));
        json_object_set_new(o, "field_type", report_json_text(bench_record_type_name(sh.type)));
        json_object_set_new(o, "record_bytes", json_integer(sh.fields * bench_record_field_bytes(&sh)));
        json_object_set_new(o, "n", json_integer(sh.n));
        json_object_set_new(o, "n_from", report_json_text(it->record_auto_n ? "working set" : "spec"));
        json_object_set_new(o, "loads_per_item", json_integer(it->pattern->loads));
        json_object_set_new(o, "load_bases", bases);
        json_object_set_new(o, "store_expression",
                            it->pattern->store_text ? report_json_text(it->pattern->store_text) : json_null());
        json_object_set_new(o, "relative_to_reference", report_json_real(r->relative_to_seq, w.ok));
        json_object_set_new(o, "measured_time_ratio", report_json_real(q.time, w.ok && !isnan(q.time)));
        json_object_set_new(o, "modeled_instruction_ratio", report_json_real(q.instr, !isnan(q.instr)));
        json_object_set_new(o, "modeled_footprint_ratio", report_json_real(q.footprint, !isnan(q.footprint)));
    }
    if (is_whole_matrix(it)) {
        /* the launch model's bounds beside the measured time (launch_times_of) */
        launch_times lt;
        int have = launch_times_of(&w, &lt);
        json_t *lb = json_object();
        json_object_set_new(lb, "warp_instructions",
                            json_integer(it->model.loads.instructions + it->model.stores.instructions));
        json_object_set_new(lb, "footprint_bytes", json_integer((json_int_t)w.lower));
        json_object_set_new(lb, "instruction_model_bytes", json_integer((json_int_t)w.upper));
        json_object_set_new(lb, "footprint_time_ns", report_json_real(lt.footprint_ns, have));
        json_object_set_new(lb, "instruction_time_ns", report_json_real(lt.instruction_ns, have));
        json_object_set_new(lb, "median_time_ns", report_json_real(lt.median_ns, have));
        json_object_set_new(o, "launch_bounds", lb);
    }
    json_object_set_new(o, "time_ns", stats_json(&r->event, w.ok));
    json_object_set_new(o, "wall_ns", stats_json(&r->wall, w.ok));
    twin_json(o, &w);

    json_t *mo = json_object();
    json_object_set_new(mo, "sector_bytes", json_integer(g->sector));
    json_object_set_new(mo, "line_bytes", json_integer(g->line));
    json_t *wp = json_object();
    json_object_set_new(wp, "requested_bytes", json_integer(it->warp0.requested_bytes));
    json_object_set_new(wp, "distinct_bytes", json_integer(it->warp0.distinct_bytes));
    json_object_set_new(wp, "sectors", json_integer(it->warp0.sectors));
    json_object_set_new(wp, "sector_efficiency", report_json_real(it->warp0.sector_efficiency, it->warp0.has_efficiency));
    json_object_set_new(wp, "lines", json_integer(it->warp0.lines));
    json_object_set_new(wp, "line_efficiency", report_json_real(it->warp0.line_efficiency, it->warp0.has_efficiency));
    json_object_set_new(mo, "warp0", wp);
    json_object_set_new(mo, "loads", report_traffic_json(&it->model.loads));
    json_object_set_new(mo, "stores", report_traffic_json(&it->model.stores));
    json_object_set_new(mo, "requested_bytes", json_integer((json_int_t)w.requested));
    json_object_set_new(mo, "instruction_model_bytes", json_integer((json_int_t)w.upper));
    json_object_set_new(mo, "footprint_bytes", json_integer((json_int_t)w.lower));
    json_object_set_new(mo, "sector_efficiency", report_json_real(it->warp0.sector_efficiency, it->warp0.has_efficiency));
    json_object_set_new(mo, "predicted_efficiency",
                        report_json_real(model_traffic_predicted_efficiency(&it->model.loads),
                                         it->model.loads.instr_sectors > 0));
    json_object_set_new(o, "model", mo);

    json_t *v = json_object();
    json_object_set_new(v, "code", report_json_text(bench_verdict_name(r->verdict.code)));
    /* a bank item has no global traffic to place between bounds */
    json_object_set_new(v, "text", report_json_text(it->bank ? "no verdict: local memory (no global traffic modeled)"
                                                        : report_verdict_words(&r->verdict)));
    json_object_set_new(v, "implied_traffic_bytes", report_json_real(r->verdict.implied_bytes, w.ok));
    json_object_set_new(v, "lower_bytes", json_real(w.lower));
    json_object_set_new(v, "upper_bytes", json_real(w.upper));
    json_object_set_new(v, "position", report_json_real(r->verdict.position, w.ok));
    json_object_set_new(o, "verdict", v);
    bw_buf ex = BW_BUF_INIT;
    report_explain(it, g, &ex);
    report_explain_bound(&r->verdict, r->twin_ratio, &ex);
    json_object_set_new(o, "explain", report_json_text(bw_buf_str(&ex)));
    bw_buf_free(&ex);
    return o;
}

/* schema, tool, date, command line, host and settings: the head of the
 * document and of the journal */
static json_t *head_json(const report_meta *m, const report_run *runs, size_t n)
{
    json_t *o = report_json_document(REPORT_RESULTS_SCHEMA, REPORT_RESULTS_SCHEMA_VERSION, m->date, m->argc, m->argv);
    if (!o)
        return NULL;
    json_t *host = json_object();
    json_object_set_new(host, "name", report_json_text(m->host));
    json_object_set_new(host, "os", report_json_text(m->os));
    json_object_set_new(o, "host", host);
    json_t *st = json_object();
    json_object_set_new(st, "budget_s", json_real(m->settings->budget_s));
    json_object_set_new(st, "rse_target", json_real(m->settings->rse_target));
    json_object_set_new(st, "min_reps", json_integer(m->settings->min_reps));
    json_object_set_new(st, "max_reps", json_integer(m->settings->max_reps));
    json_object_set_new(st, "warmup", json_integer(m->settings->warmup));
    json_object_set_new(st, "min_total_s", json_real(m->settings->min_total_s));
    json_object_set_new(st, "kernel_file", m->kernel_file ? report_json_text(m->kernel_file) : json_null());
    /* the modes measured, over every planned device */
    unsigned modes = 0;
    for (size_t k = 0; k < n; k++)
        modes |= runs[k].plan ? modes_of(runs[k].plan) : 0;
    json_object_set_new(st, "access", modes == BENCH_ACCESS_BIT(BENCH_ACCESS_READ)   ? report_json_text("read")
                                      : modes == BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) ? report_json_text("copy")
                                      : modes                                        ? report_json_text("both")
                                                                                     : json_null());
    json_object_set_new(o, "settings", st);
    return o;
}

bw_code report_results_journal_header(const report_meta *m, const report_run *runs, size_t n, bw_buf *out,
                                      bw_error *err)
{
    json_t *o = head_json(m, runs, n);
    if (o) {
        json_object_set_new(o, "partial", json_true());
        json_t *devs = json_array();
        for (size_t k = 0; k < n; k++)
            if (runs[k].device)
                json_array_append_new(devs, report_device_json(runs[k].device, runs[k].is_default));
        json_object_set_new(o, "devices", devs);
    }
    return report_json_line(o, out, err);
}

bw_code report_results_journal_result(const report_run *run, size_t i, bw_buf *out, bw_error *err)
{
    return report_json_line(result_json(run, i), out, err);
}

bw_code report_results_json(const report_meta *m, const report_run *runs, size_t n, bw_buf *out,
                            bw_error *err)
{
    json_t *o = head_json(m, runs, n);
    if (!o)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    int interrupted = 0, noisy = 0;
    json_t *devs = json_array(), *results = json_array();
    for (size_t k = 0; k < n; k++) {
        /* the patterns' timing, or the short roofline after them */
        interrupted |= runs[k].info->interrupted || (runs[k].roofline && runs[k].roofline->interrupted);
        noisy |= runs[k].plan && runs[k].info->noisy;
        json_array_append_new(devs, run_json(&runs[k]));
        for (size_t i = 0; runs[k].plan && i < runs[k].plan->n; i++)
            json_array_append_new(results, result_json(&runs[k], i));
    }
    json_object_set_new(o, "interrupted", json_boolean(interrupted));
    json_object_set_new(o, "noisy", json_boolean(noisy));
    /* the first planned device's run at the top, for single-device documents */
    size_t top = 0;
    while (top < n && !runs[top].plan)
        top++;
    if (top < n) {
        json_t *first = json_array_get(devs, top);
        json_object_set(o, "device", json_object_get(first, "device"));
        json_object_set(o, "profile", json_object_get(first, "profile"));
        json_object_set(o, "buffers", json_object_get(first, "buffers"));
    }
    json_object_set_new(o, "runs", devs);
    json_object_set_new(o, "results", results);
    return report_json_dump(o, out, err);
}
