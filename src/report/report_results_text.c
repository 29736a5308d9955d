/* The run's results for people: the table and its Markdown form, one
 * code path with a Markdown flag (the header lines, the global or side-by-side
 * table through report_grid, the bank, transpose and record sections,
 * the short roofline). Formatting only. */
#include "report_results.h"

#include "report_nominal.h"

#include "bw_format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bwlab_config.h"
#include "report_devices.h"
#include "report_explain.h"
#include "report_format.h"
#include "report_grid.h"
#include "report_probe.h"
#include "report_family.h"
#include "report_results_row.h"
#include "report_roofline.h"
#include "bench_roofline_document.h"
#include "bench_probe_document.h"
#include "report_tune.h"


/* "LEAD peak (measured by bwlab tune on DATE, cached in FILE): read X
 * GB/s with ...; copy Y GB/s with ...\n": the run's tuned peak, in the
 * words the tune table uses (report_tune_peak_text) */
static void tune_peak_line(bw_buf *out, const char *lead, const bench_tune_entry *e, const char *cache_file)
{
    bw_buf_printf(out, "%speak (measured by bwlab tune on %s, cached in ", lead, e->date);
    bw_quote_append(out, cache_file, strlen(cache_file), 0, 0); /* a path from the environment */
    bw_buf_puts(out, "): ");
    for (int mo = 0; mo < BENCH_TUNE_MODES; mo++) {
        json_t *p = bench_tune_peak_json(&e->peak[mo]);
        bw_buf_puts(out, mo ? "; " : "");
        report_tune_peak_text(out, bench_tune_mode_name((bench_tune_mode)mo), p);
        json_decref(p);
    }
    bw_buf_putc(out, '\n');
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
                       "instruction model %s (modeled), %.3f .. %.3f ms at the fastest seq-family rate; "
                       "measured %.3f ms\n",
                  (long long)model_pattern_param_value(w->it->pattern, "n"),
                  (long long)model_pattern_param_value(w->it->pattern, "n"),
                  (long long)(w->it->model.loads.instructions + w->it->model.stores.instructions), a, b,
                  lt.footprint_ns / 1e6, lt.instruction_ns / 1e6, lt.median_ns / 1e6);
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
    /* the gather kernels' form: a family with a kernel of its own says so */
    for (size_t i = 0; i < p->n; i++) {
        n += report_family_of(&p->items[i])->gather_index;
        n32 += report_family_of(&p->items[i])->gather_index && p->items[i].index_bits == 32;
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
        if (report_family_of(&p->items[i])->gather_index && p->items[i].index_bits != 32) {
            bw_buf_printf(out, "%s%s", sep, p->items[i].spec);
            sep = ", ";
        }
    }
    bw_buf_putc(out, '\n');
}

static int several_modes(const bench_plan *p);

/* --fill zeros: seq read on zeros beside random data, and what the ratio says */
static void compression_line(const report_run *run, bw_buf *out, const char *lead)
{
    if (!run->compression_checked)
        return;
    if (run->compression_failure) {
        bw_buf_printf(out, "%scompression check: failed: %s\n", lead, run->compression_failure);
        return;
    }
    if (!(run->zero_fill_gbs > 0 && run->random_fill_gbs > 0)) {
        bw_buf_printf(out, "%scompression check: not measured (interrupted)\n", lead);
        return;
    }
    double ratio = run->zero_fill_gbs / run->random_fill_gbs;
    bw_buf_printf(out, "%scompression check (measured, --fill zeros): seq read %.2f GB/s on zeros, %.2f GB/s on "
                       "random data: %.2fx, %s\n",
                  lead, run->zero_fill_gbs, run->random_fill_gbs, ratio,
                  ratio > REPORT_COMPRESSION_RATIO ? "the zeros move faster: the memory path may compress them, and a "
                                                     "zero-filled benchmark would overstate the bandwidth"
                                                   : "no sign of compression");
}

/* the rows whose measured GB/s pass the device's nominal peak or lie far
 * above its probe's memory plateau, in words (such a figure is never left
 * bare), or that none did */
static void plausibility_line(const report_run *run, bw_buf *out, const char *lead)
{
    const bench_plan *p = run->plan;
    if (!(run->nominal_gbs > 0) && !(run->probe_memory_gbs > 0))
        return;
    int any = 0;
    for (size_t i = 0; i < p->n; i++) {
        char words[RESULTS_PLAUSIBILITY_MAX];
        double gbs;
        if (!row_plausibility(run, i, &gbs, words, sizeof words))
            continue;
        bw_buf_printf(out, "%splausibility: %s (%s) measured %.2f GB/s, %s\n", lead, p->items[i].spec,
                      bench_access_name(p->items[i].access), gbs, words);
        any = 1;
    }
    if (!any && run->nominal_gbs > 0)
        bw_buf_printf(out, "%splausibility: every global figure at or below the device's nominal %.0f GB/s (%s, "
                           "data/nominal.json)\n",
                      lead, run->nominal_gbs, run->nominal_name ? run->nominal_name : "?");
    if (!any && run->probe_memory_gbs > 0)
        bw_buf_printf(out, "%splausibility: every global figure within %.1fx the probe's memory plateau of %.1f GB/s "
                           "(measured %s)\n",
                      lead, RESULTS_PLATEAU_FACTOR, run->probe_memory_gbs,
                      run->probe_memory_date ? run->probe_memory_date : "?");
}

/* K of the gather and record kernels (requested, or chosen from a
 * measured calibration), and the items whose launch took a smaller K */
static void unroll_line(const report_run *run, bw_buf *out, const char *lead)
{
    const bench_plan *p = run->plan;
    if (!run->unroll_source || run->unroll <= 0)
        return;
    int kr = run->unroll_read > 0 ? run->unroll_read : run->unroll;
    if (kr == run->unroll)
        bw_buf_printf(out, "%sunroll: K = %d items per work-item in the gather and record kernels (", lead,
                      run->unroll);
    else
        bw_buf_printf(out, "%sunroll: K = %d (copy, write) and %d (read) items per work-item in the gather and record "
                           "kernels (",
                      lead, run->unroll, kr);
    if (!strcmp(run->unroll_source, BENCH_UNROLL_OPTION)) {
        bw_buf_printf(out, "--unroll %d", run->unroll);
    } else if (!strcmp(run->unroll_source, BENCH_UNROLL_CALIBRATION)) {
        bw_buf_puts(out, "auto: seq measured at K = 1, 2, 4, 8, 16");
        const double *modes[2] = { run->unroll_gbs, run->unroll_read_gbs };
        for (int m = 0; m < 2; m++) {
            if (!modes[m])
                continue;
            bw_buf_printf(out, "; %s", m ? "read" : "copy");
            for (int k = 0; k < 5; k++)
                if (modes[m][k] > 0)
                    bw_buf_printf(out, "%s%.2f", k ? ", " : " ", modes[m][k]);
                else
                    bw_buf_printf(out, "%s-", k ? ", " : " ");
            bw_buf_puts(out, " GB/s");
        }
        if (run->unroll_runs > 1)
            bw_buf_printf(out, "; averaged with this device's %d calibrations before it (unroll.json)",
                          run->unroll_runs - 1);
        bw_buf_puts(out, "; in each mode the smallest K within 3% of its best");
    } else {
        bw_buf_printf(out, "auto fell back to 1: %s", run->unroll_why ? run->unroll_why : "no calibration");
    }
    bw_buf_putc(out, ')');
    const char *sep = "; smaller where the launch does not split into K whole work-groups: ";
    for (size_t i = 0; i < p->n; i++)
        if (p->items[i].fam->unrolls &&
            bench_item_unroll(&p->items[i]) != (p->items[i].access == BENCH_ACCESS_READ ? kr : run->unroll)) {
            bw_buf_printf(out, "%s%s at %d", sep, p->items[i].spec, bench_item_unroll(&p->items[i]));
            sep = ", ";
        }
    bw_buf_putc(out, '\n');
}

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
    bw_buf_printf(out, "%skernel form: per pattern the faster of two where lanes do not load consecutive "
                       "elements, measured: plain (vectorised across work-items) or scalar (one load per "
                       "work-item); scalar for ",
                  lead);
    const char *sep = "";
    int both = several_modes(p);
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

/* whether the plan has items of the global table (not bank or transpose rows) */
static int has_global(const bench_plan *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (!in_own_section(&p->items[i]))
            return 1;
    return 0;
}

/* whether the plan's global table has more than one access mode: then a
 * row per pattern, the modes side by side (side_table) */
static int several_modes(const bench_plan *p)
{
    unsigned mo = modes_of(p);
    return mo & (mo - 1u);
}

/* what the kernels do with the element they load (requested, not measured) */
static void access_line(const bench_plan *p, bw_buf *out, const char *lead)
{
    static const char copy[] = "copy stores each loaded element at dst[g], and the model counts that store";
    static const char read[] = "read compares each loaded element with a key and stores only on a match: the "
                               "model counts the loads alone";
    static const char write[] = "write loads src[g] and stores it at the pattern's address: the pattern's side "
                                "is the stores, and the model counts the coalesced load too";
    unsigned mo = modes_of(p);
    const char *say[BENCH_ACCESS_MODES] = { copy, read, write };
    const char *name[BENCH_ACCESS_MODES] = { "copy", "read", "write" };
    int k = 0;
    for (int a = 0; a < BENCH_ACCESS_MODES; a++)
        k += (mo >> a) & 1u;
    if (k <= 1) {
        for (int a = 0; a < BENCH_ACCESS_MODES; a++)
            if (mo == BENCH_ACCESS_BIT(a))
                bw_buf_printf(out, "%saccess: %s\n", lead, say[a]);
        return;
    }
    /* in the table's order: read, copy, write */
    static const int order[BENCH_ACCESS_MODES] = { BENCH_ACCESS_READ, BENCH_ACCESS_COPY, BENCH_ACCESS_WRITE };
    bw_buf_printf(out, "%saccess: ", lead);
    for (int n = 0, shown = 0; n < BENCH_ACCESS_MODES; n++)
        if (mo & BENCH_ACCESS_BIT(order[n])) {
            shown++;
            bw_buf_printf(out, "%s%s", shown == 1 ? "" : shown == k ? " and " : ", ", name[order[n]]);
        }
    bw_buf_puts(out, " side by side");
    for (int n = 0; n < BENCH_ACCESS_MODES; n++)
        if (mo & BENCH_ACCESS_BIT(order[n]))
            bw_buf_printf(out, "; %s", say[order[n]]);
    bw_buf_putc(out, '\n');
}

/* The side-by-side table's column order of the modes. */
static const int side_order[BENCH_ACCESS_MODES] = { BENCH_ACCESS_READ, BENCH_ACCESS_COPY, BENCH_ACCESS_WRITE };

/* Rows of a table with several modes: the k-th item of a spec in one mode
 * and the k-th of that spec in each other mode share a row. The item of
 * mode a in item i's row (i itself in its own mode), or -1. */
static long mode_partner(const bench_plan *p, size_t i, int a)
{
    const bench_item *it = &p->items[i];
    if ((int)it->access == a)
        return (long)i;
    size_t occ = 0;
    for (size_t j = 0; j < i; j++)
        occ += p->items[j].access == it->access && !strcmp(p->items[j].spec, it->spec);
    for (size_t j = 0, k = 0; j < p->n; j++) {
        if ((int)p->items[j].access != a || strcmp(p->items[j].spec, it->spec))
            continue;
        if (k++ == occ)
            return (long)j;
    }
    return -1;
}

/* The patterns the budget ended before they were stable, each with what
 * held it: a ratio's interval (its larger side), a reference's standard
 * error, or too few launches or rounds for either */
static void unstable_line(const report_run *run, bw_buf *out, const char *lead)
{
    const bench_plan *p = run->plan;
    size_t k = 0;
    for (size_t i = 0; run->results && i < p->n; i++) {
        const bench_result *r = &run->results[i];
        if (r->status != BENCH_OK || r->stable)
            continue;
        if (k++ == 0)
            bw_buf_printf(out, "%snot stable when the budget ended (measured; the rule asks for a vs seq interval "
                               "within +-1.96 x --rse, or a reference's standard error within --rse): ", lead);
        else
            bw_buf_puts(out, ", ");
        bw_buf_printf(out, "%s (%s, ", p->items[i].spec, bench_access_name(p->items[i].access));
        double lo = r->relative_ci[0], hi = r->relative_ci[1], v = r->relative_to_reference;
        if (isfinite(lo) && isfinite(hi) && v > 0) {
            double h = (hi - v > v - lo ? hi - v : v - lo) / v;
            bw_buf_printf(out, "vs seq +-%.1f%%)", h * 100.0);
        } else if (r->reference >= 0 && (size_t)r->reference != i) {
            bw_buf_printf(out, "%zu rounds paired: too few for an interval)", r->paired_rounds);
        } else {
            bw_buf_printf(out, "standard error %.1f%% over %zu launches)", r->event.rse * 100.0, r->event.count);
        }
    }
    if (k)
        bw_buf_putc(out, '\n');
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

/* Each reference against its control slot: one line for a suspect one
 * (by how much every figure read against it is off), one line for the
 * rest together */
static void reference_check_lines(const report_run *run, bw_buf *out, const char *lead)
{
    const bench_plan *p = run->plan;
    size_t fine = 0, checked = 0;
    for (size_t i = 0; i < p->n; i++) {
        const bench_result *r = &run->results[i];
        if (r->status != BENCH_OK || !r->has_check)
            continue;
        checked++;
        if (r->check_verdict != BENCH_CHECK_SUSPECT) {
            fine += r->check_verdict == BENCH_CHECK_CONSISTENT;
            continue;
        }
        bw_buf_printf(out, "%sreference suspect: %s (%s) measured %.1f GB/s in its own slot and %.1f GB/s in its "
                      "control slot of the same rounds (measured: %.3fx, 95%% interval %.3f-%.3f, over %zu rounds; "
                      "tolerance %.0f%%): every figure read against it may be off by %.1f%%\n",
                      lead, p->items[i].spec, bench_access_name(p->items[i].access), r->own_gbs, r->control_gbs,
                      r->check.median, r->check.lo, r->check.hi, r->check.rounds, BENCH_CHECK_TOLERANCE * 100.0,
                      fabs(r->check.median - 1.0) * 100.0);
    }
    if (checked && fine == checked)
        bw_buf_printf(out, "%sreference check: %s within %.0f%% of %s control slot in the same rounds (measured)\n",
                      lead, checked == 1 ? "the reference measured" : "every reference measured",
                      BENCH_CHECK_TOLERANCE * 100.0, checked == 1 ? "its" : "its own");
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
    if (p->fitted_from) {
        bw_buf_puts(out, ", fitted to the budget from ");
        report_bytes(out, (double)p->fitted_from);
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
    unroll_line(run, out, lead);
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
        tune_peak_line(out, lead, run->tune, run->tune_cache);
    if (info->plan_note[0])
        bw_buf_printf(out, "%sbudget: %s\n", lead, info->plan_note);
    if (info->replan_note[0])
        bw_buf_printf(out, "%sbudget: %s\n", lead, info->replan_note);
    unstable_line(run, out, lead);
    noise_line(run, out, lead);
    reference_check_lines(run, out, lead);
    plausibility_line(run, out, lead);
    compression_line(run, out, lead);
}

static void twin_legend(bw_buf *out)
{
    bw_buf_printf(out, "best: measured, GB/s of the fastest launch (GB/s is the median's; with the modes side by "
                       "side, of the verdict's mode).\n"
                       "twin x: measured, the pattern's own kernel over a slice that stays in\n"
                       "the cache (its twin), over its own fastest launch; bound: kernel when twin x "
                       ">= %.2f (memory out of the way buys less than\n"
                       "%.0f%%), else memory; '-': no twin figure (the JSON says why).\n",
                  BENCH_TWIN_KERNEL_BOUND, (1.0 / BENCH_TWIN_KERNEL_BOUND - 1.0) * 100.0);
}

void report_cell_ratio(bw_buf *out, double v, int valid, int width)
{
    char buf[32];
    if (valid && isfinite(v))
        snprintf(buf, sizeof buf, "%.2f", v);
    else
        snprintf(buf, sizeof buf, "-");
    bw_buf_printf(out, "%*s", width, buf);
}

/* A failed, unmeasurable or interrupted mode of a side-by-side row, on a line of its own. */
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

/* ---- the global and the side-by-side table: one row model, printed through a
 * grid as text (fixed columns) or as Markdown ---- */

/* "%.2f", or "-" where v is not valid or not finite (cell_ratio) */
static void ratio_cell(report_grid *g, double v, int valid)
{
    bw_buf b = BW_BUF_INIT;
    report_cell_ratio(&b, v, valid, 0);
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

/* the GB/s and vs seq cells of one mode in a side-by-side row: "-" where the
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
    ratio_cell(g, ok ? run->results[i].relative_to_reference : 0, ok);
}

/* the verdict; text marks an added reference (its explanation goes on a
 * line of its own, text_lines), Markdown adds the explanation */
static void verdict_cell(report_grid *g, const report_meta *m, const report_run *run, const row *w, int md)
{
    bw_buf b = BW_BUF_INIT;
    char sentence[REPORT_VERDICT_SENTENCE_MAX];
    bw_buf_puts(&b, w->ok ? report_verdict_sentence(&w->r->verdict, w->it->fam->unrolls ? bench_item_unroll(w->it) : 0, sentence,
                                                         sizeof sentence) : "-");
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

/* the side-by-side table's: pattern, then GB/s and vs seq of each mode
 * (side_cols), then best (text only), twin x, bound, sector eff., instr.
 * x, footprint x, verdict */
static const report_grid_col side_pattern = { 24, 1, NULL };
static const report_grid_col side_mode_text[] = { T(7), T(9) };
static const report_grid_col side_mode_md[] = { MD_R, MD_R };
static const report_grid_col side_tail_text[] = { T(8), T(8), T(8), T(13), T(10), T(12), VERDICT };
static const report_grid_col side_tail_md[] = { MD_R, MD_L, MD_R, MD_R, MD_R, MD_L };
static const char *const side_tail_md_head[] = { "twin x (measured)", "bound (measured)", "sector eff. (modeled)",
                                                 "instr. bytes / requested (modeled, copy's where measured)",
                                                 "footprint / requested (modeled, copy's where measured)",
                                                 "verdict" };
#define SIDE_COLS_MAX (1 + 2 * BENCH_ACCESS_MODES + 7)

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
        ratio_cell(&g, w.r->relative_to_reference, 1);
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

/* The columns of the side-by-side table of the modes in mo (modes_of),
 * and its Markdown head (head: SIDE_COLS_MAX names of heads_buf's); the
 * column count. */
static size_t side_cols(unsigned mo, int md, report_grid_col *cols, const char **head, char (*names)[48])
{
    size_t n = 0;
    cols[n] = md ? (report_grid_col){ 0, 1, NULL } : side_pattern;
    head[n++] = "pattern";
    for (int k = 0; k < BENCH_ACCESS_MODES; k++) {
        if (!(mo & BENCH_ACCESS_BIT(side_order[k])))
            continue;
        const char *name = bench_access_name((bench_access)side_order[k]);
        for (int c = 0; c < 2; c++) {
            cols[n] = md ? side_mode_md[c] : side_mode_text[c];
            snprintf(names[n], sizeof names[n], c ? "%s vs seq (measured)" : "%s GB/s (measured)", name);
            head[n] = names[n];
            n++;
        }
    }
    size_t tail = md ? sizeof side_tail_md / sizeof *side_tail_md : sizeof side_tail_text / sizeof *side_tail_text;
    for (size_t c = 0; c < tail; c++) {
        cols[n] = md ? side_tail_md[c] : side_tail_text[c];
        head[n++] = md ? side_tail_md_head[c] : "";
    }
    return n;
}

/* the text table's two head lines: "measured: MODE" over each mode's
 * columns (the last one's spans best, twin x and bound), then the names */
static void side_text_head(unsigned mo, bw_buf *out)
{
    int last = -1;
    for (int k = 0; k < BENCH_ACCESS_MODES; k++)
        if (mo & BENCH_ACCESS_BIT(side_order[k]))
            last = k;
    bw_buf_printf(out, "\n%-26s", "");
    for (int k = 0; k < BENCH_ACCESS_MODES; k++) {
        if (!(mo & BENCH_ACCESS_BIT(side_order[k])))
            continue;
        char lead[32];
        snprintf(lead, sizeof lead, "measured: %s", bench_access_name((bench_access)side_order[k]));
        bw_buf_printf(out, k == last ? "%-41s" : "%-16s", lead);
    }
    bw_buf_printf(out, "%-36s%s\n", "modeled", "measured vs modeled");
    bw_buf_puts(out, "pattern                   GB/s    vs seq");
    for (int k = 0, first = 1; k < BENCH_ACCESS_MODES; k++)
        if (mo & BENCH_ACCESS_BIT(side_order[k])) {
            if (!first)
                bw_buf_puts(out, "   GB/s    vs seq");
            first = 0;
        }
    bw_buf_puts(out, "    best  twin x   bound   sector eff.  instr. x  footprint x  verdict\n");
}

/* The table of a run with several modes: a row per pattern, each mode's
 * bandwidths side by side (read, copy, write; "-" where the pattern was
 * not measured in a mode); the modeled columns and the verdict are
 * copy's where the pattern is measured in copy mode, else read's, else
 * write's. */
static void side_table(const report_meta *m, const report_run *run, int md, bw_buf *out)
{
    const bench_plan *p = run->plan;
    unsigned mo = modes_of(p);
    report_grid_col cols[SIDE_COLS_MAX];
    const char *head[SIDE_COLS_MAX];
    char names[SIDE_COLS_MAX][48];
    size_t ncol = side_cols(mo, md, cols, head, names);
    if (md)
        md_head(head, cols, ncol, out);
    else
        side_text_head(mo, out);
    report_grid g = { ncol, 0, 0, NULL };
    for (size_t i = 0; i < p->n; i++) {
        long at[BENCH_ACCESS_MODES];
        int first = 1;
        for (int a = 0; a < BENCH_ACCESS_MODES; a++) {
            at[a] = mode_partner(p, i, a);
            first &= at[a] < 0 || (size_t)at[a] >= i;
        }
        if (in_own_section(&p->items[i]) || !first)
            continue; /* shown in an earlier partner's row, or with the bank rows */
        long c = at[BENCH_ACCESS_COPY], r = at[BENCH_ACCESS_READ], wr = at[BENCH_ACCESS_WRITE];
        row w = row_of(run, (size_t)(c >= 0 ? c : r >= 0 ? r : wr));
        report_grid_clear(&g);
        spec_cell(&g, w.it->spec, md);
        for (int k = 0; k < BENCH_ACCESS_MODES; k++)
            if (mo & BENCH_ACCESS_BIT(side_order[k]))
                pair_cells(&g, run, at[side_order[k]], md);
        /* best launch and twin of the row's verdict: copy's, else read's, else write's */
        const char *bound = w.ok ? bench_bound_name(w.r->bound) : NULL;
        if (!md)
            ratio_cell(&g, w.r->best_gbs, w.ok && w.r->best_gbs > 0);
        ratio_cell(&g, w.r->twin_ratio, w.ok);
        report_grid_put(&g, bound ? bound : "-");
        model_cells(&g, &w);
        verdict_cell(&g, m, run, &w, md);
        report_grid_emit_fixed(&g, cols, md, 0, out);
        if (md)
            continue;
        for (int k = 0; k < BENCH_ACCESS_MODES; k++)
            pair_failure(out, run, at[side_order[k]]);
        text_lines(m, run, &w, c >= 0 && r >= 0, out);
    }
    report_grid_free(&g);
}

/* the short roofline's lines under a run's patterns, when it was measured */
static void roofline_lines(const report_run *run, const char *lead, int md, bw_buf *out)
{
    if (!run->roofline && !run->roofline_failure)
        return;
    bench_roofline_doc_device d = { run->device, run->is_default, run->roofline_failure, run->roofline, NULL };
    json_t *e = bench_roofline_entry_json(&d);
    bw_buf_putc(out, '\n');
    if (e)
        report_roofline_brief(e, lead, md, out);
    json_decref(e);
}

/* the modeled ways of a bank item: "8-way", or "n/a" where the profile has no banks */
void report_ways_text(char *buf, size_t n, const bench_item *it)
{
    if (it->conflict_ways > 0)
        snprintf(buf, n, "%d-way", it->conflict_ways);
    else
        snprintf(buf, n, "n/a");
}

/* One row of a section apart from the global table (bank, transpose):
 * GB/s, vs its reference, best, and the modeled ways text; md: Markdown. */
void report_section_row(bw_buf *out, const row *w, const char *ways, int md)
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
        report_cell_ratio(out, w->r->effective_gbs, 1, 0);
        bw_buf_puts(out, " | ");
        report_cell_ratio(out, w->r->relative_to_reference, 1, 0);
        bw_buf_puts(out, " | ");
        report_cell_ratio(out, w->r->best_gbs, w->r->best_gbs > 0, 0);
        bw_buf_printf(out, " | %s%s |\n", ways, w->it->added_as_reference ? " (added as reference)" : "");
        return;
    }
    report_cell_ratio(out, w->r->effective_gbs, 1, 7);
    report_cell_ratio(out, w->r->relative_to_reference, 1, 9);
    report_cell_ratio(out, w->r->best_gbs, w->r->best_gbs > 0, 8);
    bw_buf_printf(out, "%9s", ways);
    if (w->it->added_as_reference)
        bw_buf_puts(out, " [added as reference]");
    bw_buf_putc(out, '\n');
}

/* A planned run's patterns: the global table (or the side-by-side one, with
 * several modes), the sections of their own, and the short roofline. */
static void run_tables(const report_meta *m, const report_run *run, int md, bw_buf *out)
{
    if (several_modes(run->plan))
        side_table(m, run, md, out);
    else if (has_global(run->plan))
        global_table(m, run, md, out);
    for (size_t f = 0; f < REPORT_FAMILIES; f++)
        if (report_family_table[f]->section && report_family_has(run->plan, report_family_table[f]))
            report_family_table[f]->section(run, md, out);
    roofline_lines(run, md ? "- " : "", md, out);
}

void report_results_table(const report_meta *m, const report_run *runs, size_t n, bw_buf *out)
{
    unsigned paired = 0; /* the modes of the runs with several side by side */
    for (size_t k = 0; k < n; k++) {
        const report_run *run = &runs[k];
        if (k)
            bw_buf_putc(out, '\n');
        header_lines(m, run, out, "");
        if (run->transfers)
        {
            json_t *t = bench_probe_transfers_json(run->transfers);
            report_probe_transfers_table(t, out);
            json_decref(t);
        }
        else if (run->transfers_failure)
            bw_buf_printf(out, "transfers: not measured: %s\n", run->transfers_failure);
        if (!run->plan)
            continue;
        if (several_modes(run->plan))
            paired |= modes_of(run->plan);
        run_tables(m, run, 0, out);
    }
    bw_buf_puts(out, "\nGB/s: measured, requested bytes (read: loads; copy and write: loads + stores) / median kernel "
                     "time. vs seq: measured, relative to seq of the same element size and access mode in this run.\n");
    if (paired == (BENCH_ACCESS_BIT(BENCH_ACCESS_READ) | BENCH_ACCESS_BIT(BENCH_ACCESS_COPY)))
        bw_buf_puts(out, "With read and copy side by side, the modeled columns and the verdict are copy's "
                         "(read's where only read was measured).\n");
    else if (paired)
        bw_buf_puts(out, "With the modes side by side, the modeled columns and the verdict are copy's where the "
                         "pattern was measured in copy mode, else read's, else write's.\n");
    bw_buf_puts(out,
                     "sector eff.: modeled, distinct bytes / sector bytes of one warp's load. instr. x, "
                     "footprint x: modeled bytes of the launch (upper and lower bound)\n"
                     "per requested byte. verdict: the measured time at the fastest seq-family rate of its "
                     "mode, placed between those modeled bounds. Modeled counts are not measured traffic.\n");
    twin_legend(out);
    for (size_t k = 0; k < n; k++) {
        if (runs[k].tune) {
            bw_buf_puts(out, "of peak: measured, GB/s / the device's peak bandwidth in the pattern's access mode "
                             "(read or copy; write against copy's), measured by bwlab tune (cached).\n");
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
