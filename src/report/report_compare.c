/* report_compare: the writers of `bwlab compare`: the device legend, the
 * main, model, baseline, repeats, probe and nominal-peak tables, as text,
 * Markdown, CSV or JSON (report_compare.h). */
#include "report_compare.h"
#include "results_roofline_keys.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_format.h"
#include "report_format.h"
#include "report_grid.h"
#include "results_peer_match.h"
#include "report_peer_table.h"
#include "results_compare_keys.h"

/* ---- shared pieces ---- */

static int row_shown(const results_merged *m, const report_compare_opts *o, size_t r)
{
    return !o || !o->mode || !strcmp(m->rows[r].access, o->mode);
}

/* the first status of an entry without a measurement ("failed") */
static const char *entry_status(const results_merge_entry *e)
{
    for (size_t k = 0; k < e->n_samples; k++)
        if (e->samples[k].status && strcmp(e->samples[k].status, "ok") != 0)
            return e->samples[k].status;
    return "no bandwidth";
}

static void heading(bw_buf *out, int md, const char *title)
{
    if (md)
        bw_buf_printf(out, "\n## %s\n\n", title);
    else
        bw_buf_printf(out, "\n%s\n", title);
}

static void para(bw_buf *out, int md, const char *text)
{
    bw_buf_printf(out, md ? "%s\n\n" : "  %s\n", text);
}

static void legend(const results_merged *m, int md, bw_buf *out)
{
    heading(out, md, "Devices (full names) and runs (provenance)");
    for (size_t d = 0; d < m->n_devices; d++) {
        const results_merge_device *dv = &m->devices[d];
        bw_buf_printf(out, md ? "- **%s**: " : "  %s\n      ", dv->label);
        bw_buf_printf(out, "vendor '%s', name '%s'", dv->vendor, dv->name);
        if (dv->board_name)
            bw_buf_printf(out, ", board '%s'", dv->board_name);
        bw_buf_printf(out, ", driver '%s'", dv->driver_version);
        if (dv->platform)
            bw_buf_printf(out, ", platform '%s' (%s)", dv->platform, results_or_empty(dv->platform_version));
        if (dv->type)
            bw_buf_printf(out, ", type %s", dv->type);
        if (dv->compute_units >= 0)
            bw_buf_printf(out, ", %lld compute units", dv->compute_units);
        if (dv->profile)
            bw_buf_printf(out, "; profile %s (%lld lanes, %lld B sectors, %lld B lines)", dv->profile, dv->lanes,
                          dv->sector_bytes, dv->line_bytes);
        bw_buf_puts(out, "\n");
        for (size_t r = 0; r < m->n_runs; r++) {
            const results_merge_run *rn = &m->runs[r];
            if (rn->device != d)
                continue;
            bw_buf_printf(out, md ? "  - run %zu: `%s`: " : "      run %zu: %s: ", r + 1, rn->file);
            bw_buf_printf(out, "host %s", rn->host ? rn->host : "(not recorded)");
            if (rn->os)
                bw_buf_printf(out, " (%s)", rn->os);
            bw_buf_printf(out, ", %s, bwlab %s, schema %lld", rn->date ? rn->date : "(no date)",
                          rn->tool_version ? rn->tool_version : "(unknown)", rn->schema_version);
            if (rn->partial)
                bw_buf_puts(out, ", PARTIAL (a journal of a run that did not finish)");
            if (rn->interrupted)
                bw_buf_puts(out, ", interrupted");
            if (rn->noisy)
                bw_buf_puts(out, ", noisy");
            if (rn->status && strcmp(rn->status, "ok") != 0)
                bw_buf_printf(out, ", %s: %s", rn->status, results_or_empty(rn->failure));
            if (m->files[rn->file_index].duplicates)
                bw_buf_printf(out, " (and %zu identical file%s, counted once)", m->files[rn->file_index].duplicates,
                              m->files[rn->file_index].duplicates == 1 ? "" : "s");
            if (rn->note)
                bw_buf_printf(out, "; note: %s", rn->note);
            bw_buf_puts(out, "\n");
        }
        for (size_t k = 0; k < m->n_probes; k++) {
            const results_merge_probe *p = &m->probes[k];
            if (p->device != d || p->from_run)
                continue;
            bw_buf_printf(out, md ? "  - probe %zu: `%s`: " : "      probe %zu: %s: ", k + 1, p->file);
            bw_buf_printf(out, "bwlab probe, %s", p->date ? p->date : "(no date)");
            if (p->status && strcmp(p->status, "probed") != 0)
                bw_buf_printf(out, ", %s", p->status);
            if (p->note)
                bw_buf_printf(out, "; note: %s", p->note);
            bw_buf_puts(out, "\n");
        }
    }
}

/* ---- the probe section: bwlab probe files and run --transfers ---- */

static void num(report_grid *g, double v); /* "%.2f", or "-" when not measured */

/* where a probe record came from, for a table cell: "probe K" (the
 * legend's numbering) or "run R --transfers" */
static void probe_source(report_grid *g, const results_merged *m, const results_merge_probe *p, size_t k)
{
    if (!p->from_run) {
        report_grid_cell(g, "probe %zu", k + 1);
        return;
    }
    for (size_t r = 0; r < m->n_runs; r++)
        if (m->runs[r].file_index == p->file_index && m->runs[r].device == p->device) {
            report_grid_cell(g, "run %zu --transfers", r + 1);
            return;
        }
    report_grid_cell(g, "run --transfers");
}

static void num3(report_grid *g, double v)
{
    if (results_merge_not_nan(v))
        report_grid_cell(g, "%s", REPORT_FIXED(v, 3));
    else
        report_grid_cell(g, "-");
}

/* The largest size of each (direction, memory, blocking) of a probe, in
 * order of first appearance: idx[] gets the transfers' indices; returns
 * how many (at most cap). */
static size_t largest_transfers(const results_merge_probe *p, size_t *idx, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < p->n_transfers; i++) {
        const results_merge_transfer *t = &p->transfers[i];
        size_t k = 0;
        for (; k < n; k++) {
            const results_merge_transfer *u = &p->transfers[idx[k]];
            if (!strcmp(u->direction, t->direction) && !strcmp(u->memory, t->memory) && u->blocking == t->blocking)
                break;
        }
        if (k == n) {
            if (n == cap)
                continue;
            idx[n++] = i;
        } else if (results_merge_not_nan(t->bytes) &&
                   (!results_merge_not_nan(p->transfers[idx[k]].bytes) || t->bytes > p->transfers[idx[k]].bytes)) {
            idx[k] = i;
        }
    }
    return n;
}

/* the probes' transaction unit and latencies: a row per record, a row
 * for each device without one */
static void probe_unit_table(const results_merged *m, int md, bw_buf *out)
{
    heading(out, md, "Probe: transaction unit, launch latency (bwlab probe, bwlab run --transfers)");
    para(out, md,
         "One row per probe record (a bwlab probe file's device, or a run's --transfers figures); devices with "
         "none are not measured. Inferred unit: measured by the granularity sweeps; profile unit: the profile's "
         "sector (requested). Latencies measured (medians, wall clock). '-' not measured.");
    report_grid g = { 7, 0, 0, NULL };
    const char *h[] = { "device", "source", "inferred unit B (measured)", "profile sector B", "profile line B",
                        "launch latency us (measured)", "small copy us (measured)" };
    for (size_t i = 0; i < 7; i++)
        report_grid_cell(&g, "%s", h[i]);
    for (size_t d = 0; d < m->n_devices; d++) {
        int any = 0;
        for (size_t k = 0; k < m->n_probes; k++) {
            const results_merge_probe *p = &m->probes[k];
            if (p->device != d)
                continue;
            any = 1;
            report_grid_cell(&g, "%s", m->devices[d].label);
            probe_source(&g, m, p, k);
            if (p->inferred_unit_bytes > 0)
                report_grid_cell(&g, "%lld", p->inferred_unit_bytes);
            else
                report_grid_cell(&g, "%s", p->from_run ? "-" : "none found");
            if (p->profile_unit_bytes > 0)
                report_grid_cell(&g, "%lld", p->profile_unit_bytes);
            else
                report_grid_cell(&g, "-");
            if (p->profile_line_bytes > 0)
                report_grid_cell(&g, "%lld", p->profile_line_bytes);
            else
                report_grid_cell(&g, "-");
            num(&g, p->launch_latency_us);
            if (results_merge_not_nan(p->small_transfer_latency_us) && p->small_transfer_bytes > 0)
                report_grid_cell(&g, "%s (%lld B)", REPORT_FIXED(p->small_transfer_latency_us, 2), p->small_transfer_bytes);
            else
                num(&g, p->small_transfer_latency_us);
        }
        if (!any) {
            report_grid_cell(&g, "%s", m->devices[d].label);
            report_grid_cell(&g, "not measured");
            for (int i = 0; i < 5; i++)
                report_grid_cell(&g, "-");
        }
    }
    report_grid_emit(&g, 2, md, out);
    report_grid_free(&g);
}

/* the probes' cache levels and memory plateau */
static void probe_level_table(const results_merged *m, int md, bw_buf *out)
{
    heading(out, md, "Probe: cache levels (measured)");
    para(out, md,
         "Each level: the largest working set on its plateau, and the medians over the plateau of the read "
         "bandwidth and of the ns per dependent load (one work-item; per CU: one work-item per compute unit). "
         "'memory': the last plateau. All measured.");
    report_grid c = { 7, 0, 0, NULL };
    const char *hc[] = { "device", "source", "level", "size B", "read GB/s", "latency ns", "latency per CU ns" };
    for (size_t i = 0; i < 7; i++)
        report_grid_cell(&c, "%s", hc[i]);
    size_t rows = 0;
    for (size_t k = 0; k < m->n_probes; k++) {
        const results_merge_probe *p = &m->probes[k];
        for (size_t l = 0; l <= p->n_levels; l++) {
            const results_merge_level *v = l < p->n_levels ? &p->levels[l] : &p->memory;
            if (l == p->n_levels && !results_merge_not_nan(v->read_gbs) && !results_merge_not_nan(v->latency_ns))
                continue;
            report_grid_cell(&c, "%s", m->devices[p->device].label);
            probe_source(&c, m, p, k);
            if (l < p->n_levels)
                report_grid_cell(&c, "%zu", l + 1);
            else
                report_grid_cell(&c, "memory");
            if (results_merge_not_nan(v->size_bytes))
                report_grid_cell(&c, "%s", REPORT_FIXED(v->size_bytes, 0));
            else
                report_grid_cell(&c, "-");
            num(&c, v->read_gbs);
            num(&c, v->latency_ns);
            num(&c, v->latency_per_cu_ns);
            rows++;
        }
    }
    if (rows)
        report_grid_emit(&c, 3, md, out);
    else
        para(out, md, "No cache levels: the probe records hold no cache ladder (run --transfers measures none).");
    report_grid_free(&c);
}

/* the probes' largest host-device copies */
static void probe_transfer_table(const results_merged *m, int md, bw_buf *out)
{
    heading(out, md, "Probe: host-device transfers at the largest size (measured)");
    para(out, md,
         "Per direction (h2d host to device, d2h device to host), memory (pageable: malloc; pinned: "
         "CL_MEM_ALLOC_HOST_PTR and map) and blocking: the largest copy measured, its bytes (requested), GB/s "
         "and time per copy (measured, wall clock).");
    report_grid t = { 8, 0, 0, NULL };
    const char *ht[] = { "device", "source", "direction", "memory", "blocking", "bytes", "GB/s", "us" };
    for (size_t i = 0; i < 8; i++)
        report_grid_cell(&t, "%s", ht[i]);
    size_t rows = 0;
    for (size_t k = 0; k < m->n_probes; k++) {
        const results_merge_probe *p = &m->probes[k];
        size_t idx[16];
        size_t n = largest_transfers(p, idx, 16);
        for (size_t i = 0; i < n; i++) {
            const results_merge_transfer *x = &p->transfers[idx[i]];
            report_grid_cell(&t, "%s", m->devices[p->device].label);
            probe_source(&t, m, p, k);
            report_grid_cell(&t, "%s", x->direction[0] ? x->direction : "-");
            report_grid_cell(&t, "%s", x->memory[0] ? x->memory : "-");
            report_grid_cell(&t, "%s", x->blocking ? "yes" : "no");
            if (results_merge_not_nan(x->bytes))
                report_grid_cell(&t, "%s", REPORT_FIXED(x->bytes, 0));
            else
                report_grid_cell(&t, "-");
            num3(&t, x->gbs);
            num(&t, x->us);
            rows++;
        }
    }
    if (rows)
        report_grid_emit(&t, 5, md, out);
    else
        para(out, md, "No transfers: the probe records hold none.");
    report_grid_free(&t);
}

static void probe_tables(const results_merged *m, int md, bw_buf *out)
{
    if (m->n_probes == 0)
        return;
    probe_unit_table(m, md, out);
    probe_level_table(m, md, out);
    probe_transfer_table(m, md, out);
}

/* One cell of a pattern-by-device table: e is NULL where the device has
 * no result for the row. */
typedef void (*device_cell_fn)(report_grid *g, const results_merge_entry *e);

/* The pattern-by-device tables share their shape: a row per shown pattern
 * and mode, a column per device. */
static void device_grid(const results_merged *m, const report_compare_opts *o, int md, device_cell_fn fill,
                        bw_buf *out)
{
    report_grid g = { m->n_devices + 2, 0, 0, NULL };
    report_grid_cell(&g, "pattern");
    report_grid_cell(&g, "mode");
    for (size_t d = 0; d < m->n_devices; d++)
        report_grid_cell(&g, "%s", m->devices[d].label);
    for (size_t r = 0; r < m->n_rows; r++) {
        if (!row_shown(m, o, r))
            continue;
        report_grid_cell(&g, "%s", m->rows[r].pattern);
        report_grid_cell(&g, "%s", m->rows[r].access);
        for (size_t d = 0; d < m->n_devices; d++)
            fill(&g, results_merged_entry(m, r, d));
    }
    report_grid_emit(&g, 2, md, out);
    report_grid_free(&g);
}

static void bandwidth_cell(report_grid *g, const results_merge_entry *e)
{
    if (!e)
        report_grid_cell(g, "-");
    else if (!results_merge_not_nan(e->effective_gbs))
        report_grid_cell(g, "%s", entry_status(e));
    else if (results_merge_not_nan(e->relative_to_seq))
        report_grid_cell(g, "%s%s (%s)", e->n_samples > 1 ? "*" : "", REPORT_FIXED(e->effective_gbs, 2),
             REPORT_FIXED(e->relative_to_seq, 2));
    else
        report_grid_cell(g, "%s%s (-)", e->n_samples > 1 ? "*" : "", REPORT_FIXED(e->effective_gbs, 2));
}

static void main_table(const results_merged *m, const report_compare_opts *o, int md, bw_buf *out)
{
    heading(out, md, "Bandwidth: measured GB/s (measured relative to that device's seq)");
    para(out, md,
         "Each cell: measured effective GB/s, then in brackets measured / the same device's seq (same mode and "
         "element size; bank rows: / bank:pitch=33,stride=1). '*' a repeat: the median of several runs (see "
         "Repeats). '-' not measured.");
    device_grid(m, o, md, bandwidth_cell, out);
}

static void model_cell(report_grid *g, const results_merge_entry *e)
{
    char a[REPORT_NUM_MAX] = "-", b[REPORT_NUM_MAX] = "-";
    if (e && results_merge_not_nan(e->sector_efficiency))
        report_num_fixed(a, e->sector_efficiency, 2);
    if (e && results_merge_not_nan(e->relative_to_seq))
        report_num_fixed(b, e->relative_to_seq, 2);
    if (e)
        report_grid_cell(g, "%s / %s", a, b);
    else
        report_grid_cell(g, "-");
}

static void model_table(const results_merged *m, const report_compare_opts *o, int md, bw_buf *out)
{
    heading(out, md, "Model: modeled sector efficiency / measured relative to seq");
    para(out, md,
         "Each cell: warp 0's sector efficiency modeled under that device's profile, then the measured relative "
         "figure of the main table. Measured above modeled: the device beats the transaction model (caches, "
         "coalescing across warps); below: it misses it.");
    device_grid(m, o, md, model_cell, out);
}

static void baseline_cell(report_grid *g, const results_merge_entry *e)
{
    if (e && results_merge_not_nan(e->relative_to_baseline))
        report_grid_cell(g, "%.3gx", e->relative_to_baseline); /* finite and > 0: results_merge_set_baseline */
    else
        report_grid_cell(g, "-");
}

static void baseline_table(const results_merged *m, const report_compare_opts *o, int md, bw_buf *out)
{
    if (m->baseline < 0)
        return;
    char title[300];
    snprintf(title, sizeof title, "Relative to the baseline %s (measured GB/s / the baseline's, per pattern)",
             m->devices[m->baseline].label);
    heading(out, md, title);
    device_grid(m, o, md, baseline_cell, out);
}

static void repeats_table(const results_merged *m, const report_compare_opts *o, int md, bw_buf *out)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n_entries; i++)
        n += m->entries[i].n_samples > 1 && row_shown(m, o, m->entries[i].row);
    if (!n)
        return;
    heading(out, md, "Repeats: one pattern on one device in several files (measured GB/s)");
    para(out, md, "All runs are kept; the main table shows the median.");
    report_grid g = { 8, 0, 0, NULL };
    report_grid_cell(&g, "pattern");
    report_grid_cell(&g, "mode");
    report_grid_cell(&g, "device");
    report_grid_cell(&g, "runs");
    report_grid_cell(&g, "median");
    report_grid_cell(&g, "min");
    report_grid_cell(&g, "max");
    report_grid_cell(&g, "each run (run number: GB/s)");
    for (size_t i = 0; i < m->n_entries; i++) {
        const results_merge_entry *e = &m->entries[i];
        if (e->n_samples < 2 || !row_shown(m, o, e->row))
            continue;
        report_grid_cell(&g, "%s", m->rows[e->row].pattern);
        report_grid_cell(&g, "%s", m->rows[e->row].access);
        report_grid_cell(&g, "%s", m->devices[e->device].label);
        report_grid_cell(&g, "%zu", e->n_samples);
        if (results_merge_not_nan(e->effective_gbs)) {
            report_grid_cell(&g, "%s", REPORT_FIXED(e->effective_gbs, 2));
            report_grid_cell(&g, "%s", REPORT_FIXED(e->effective_min, 2));
            report_grid_cell(&g, "%s", REPORT_FIXED(e->effective_max, 2));
        } else {
            report_grid_cell(&g, "-");
            report_grid_cell(&g, "-");
            report_grid_cell(&g, "-");
        }
        bw_buf each = BW_BUF_INIT;
        for (size_t k = 0; k < e->n_samples; k++) {
            const results_merge_sample *s = &e->samples[k];
            if (results_merge_not_nan(s->effective_gbs))
                bw_buf_printf(&each, "%s%zu: %s", k ? ", " : "", s->run + 1, REPORT_FIXED(s->effective_gbs, 2));
            else
                bw_buf_printf(&each, "%s%zu: %s", k ? ", " : "", s->run + 1, results_or_empty(s->status));
        }
        report_grid_cell(&g, "%s", bw_buf_str(&each));
        bw_buf_free(&each);
    }
    report_grid_emit(&g, 3, md, out);
    report_grid_free(&g);
}

static void pct(report_grid *g, double v, double of)
{
    if (results_merge_not_nan(v) && results_merge_not_nan(of) && of > 0)
        report_grid_cell(g, "%s%%", REPORT_FIXED(100.0 * v / of, 1));
    else
        report_grid_cell(g, "-");
}

static void num(report_grid *g, double v)
{
    if (results_merge_not_nan(v))
        report_grid_cell(g, "%s", REPORT_FIXED(v, 2));
    else
        report_grid_cell(g, "-");
}

static void nominal_table(const results_merged *m, int md, bw_buf *out)
{
    size_t n = 0;
    for (size_t d = 0; d < m->n_devices; d++)
        n += m->devices[d].nominal_name != NULL;
    if (!n)
        return;
    heading(out, md, "Nominal peaks (vendor figures, data/nominal.json) and the measured share of them");
    para(out, md,
         "seq: the device's seq row (copy mode: loads + stores), measured. Tuned peak: the larger of the "
         "streaming read and copy peaks of bwlab tune, measured. Roofline: the short roofline's peak FP32 FMA "
         "rate, measured. Devices that match no entry have no row.");
    report_grid g = { 10, 0, 0, NULL };
    const char *h[] = { "device", "nominal entry", "DRAM GB/s (nominal)", "seq GB/s (measured)", "of nominal",
                        "tuned peak GB/s (measured)", "of nominal", "FP32 GFLOP/s (nominal)",
                        "roofline GFLOP/s (measured)", "of nominal" };
    for (size_t i = 0; i < 10; i++)
        report_grid_cell(&g, "%s", h[i]);
    for (size_t d = 0; d < m->n_devices; d++) {
        const results_merge_device *dv = &m->devices[d];
        if (!dv->nominal_name)
            continue;
        double peak = dv->peak_read_gbs;
        if (results_merge_not_nan(dv->peak_copy_gbs) && (!results_merge_not_nan(peak) || dv->peak_copy_gbs > peak))
            peak = dv->peak_copy_gbs;
        double roof = NAN;
        for (size_t r = 0; r < m->n_runs; r++)
            if (m->runs[r].device == d && m->runs[r].has_roofline && results_merge_not_nan(m->runs[r].roof_peak_gflops) &&
                (!results_merge_not_nan(roof) || m->runs[r].roof_peak_gflops > roof))
                roof = m->runs[r].roof_peak_gflops;
        report_grid_cell(&g, "%s", dv->label);
        report_grid_cell(&g, "%s", dv->nominal_name);
        report_grid_cell(&g, "%s", REPORT_FIXED(dv->nominal_dram_gbs, 1));
        num(&g, dv->seq_gbs);
        pct(&g, dv->seq_gbs, dv->nominal_dram_gbs);
        num(&g, peak);
        pct(&g, peak, dv->nominal_dram_gbs);
        report_grid_cell(&g, "%s", REPORT_FIXED(dv->nominal_fp32_gflops, 1));
        num(&g, roof);
        pct(&g, roof, dv->nominal_fp32_gflops);
    }
    report_grid_emit(&g, 2, md, out);
    report_grid_free(&g);
    bw_buf_puts(out, md ? "\nSources:\n\n" : "  sources:\n");
    for (size_t d = 0; d < m->n_devices; d++) {
        const results_merge_device *dv = &m->devices[d];
        if (dv->nominal_name)
            bw_buf_printf(out, md ? "- %s: DRAM: %s; FP32: %s\n" : "    %s: DRAM: %s; FP32: %s\n", dv->nominal_name,
                          dv->nominal_dram_source, dv->nominal_fp32_source);
    }
}

static void summary_line(const results_merged *m, const report_compare_opts *o, int md, bw_buf *out)
{
    size_t rows = 0;
    for (size_t r = 0; r < m->n_rows; r++)
        rows += row_shown(m, o, r);
    size_t dup = 0;
    for (size_t f = 0; f < m->n_files; f++)
        dup += m->files[f].duplicates;
    bw_buf_printf(out, md ? "# bwlab compare\n\n%zu file%s (%zu duplicate%s counted once), %zu device%s, %zu run%s, %zu pattern row%s%s%s\n"
                          : "bwlab compare: %zu file%s (%zu duplicate%s counted once), %zu device%s, %zu run%s, %zu pattern row%s%s%s\n",
                  m->n_files, m->n_files == 1 ? "" : "s", dup, dup == 1 ? "" : "s", m->n_devices,
                  m->n_devices == 1 ? "" : "s", m->n_runs, m->n_runs == 1 ? "" : "s", rows, rows == 1 ? "" : "s",
                  o && o->mode ? ", mode " : "", o && o->mode ? o->mode : "");
    if (m->n_probes)
        bw_buf_printf(out, md ? "\n%zu probe record%s (bwlab probe files, bwlab run --transfers): see the probe section\n"
                              : "%zu probe record%s (bwlab probe files, bwlab run --transfers): see the probe section\n",
                      m->n_probes, m->n_probes == 1 ? "" : "s");
}

static void write_text(const results_merged *m, const report_compare_opts *o, int md, bw_buf *out)
{
    if (m->n_files == 0 && m->n_probes == 0) { /* peer files alone: their table, nothing of bwlab's */
        size_t np = m->peers ? m->peers->n_files : 0;
        bw_buf_printf(out, md ? "# bwlab compare\n\n%zu peer file%s, no bwlab results\n"
                              : "bwlab compare: %zu peer file%s, no bwlab results\n",
                      np, np == 1 ? "" : "s");
        report_peer_table_text(m, md, out);
        return;
    }
    summary_line(m, o, md, out);
    legend(m, md, out);
    main_table(m, o, md, out);
    model_table(m, o, md, out);
    baseline_table(m, o, md, out);
    repeats_table(m, o, md, out);
    nominal_table(m, md, out);
    probe_tables(m, md, out);
    report_peer_table_text(m, md, out);
}

/* the text written from files' strings, with every control byte but the
 * line ends shown escaped (bw_quote_append): a device name with an escape
 * sequence must not reach the terminal */
static void write_text_safe(const results_merged *m, const report_compare_opts *o, int md, bw_buf *out)
{
    bw_buf raw = BW_BUF_INIT;
    write_text(m, o, md, &raw);
    const char *s = bw_buf_str(&raw);
    for (const char *line = s; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        bw_quote_append(out, line, len, 0, 0);
        if (!nl)
            break;
        bw_buf_putc(out, '\n');
        line = nl + 1;
    }
    if (bw_buf_failed(&raw))
        out->failed = 1;
    bw_buf_free(&raw);
}

void report_compare_table(const results_merged *m, const report_compare_opts *o, bw_buf *out)
{
    write_text_safe(m, o, 0, out);
}

void report_compare_markdown(const results_merged *m, const report_compare_opts *o, bw_buf *out)
{
    write_text_safe(m, o, 1, out);
}

/* ---- CSV ---- */

static void csv_real(bw_buf *out, double v)
{
    bw_buf_putc(out, ',');
    if (results_merge_not_nan(v) && isfinite(v))
        bw_buf_printf(out, "%.17g", v);
}

static void csv_int(bw_buf *out, long long v)
{
    bw_buf_putc(out, ',');
    if (v >= 0)
        bw_buf_printf(out, "%lld", v);
}

static void csv_str(bw_buf *out, const char *s)
{
    bw_buf_putc(out, ',');
    if (s)
        report_csv_field(out, s);
}

void report_compare_csv(const results_merged *m, const report_compare_opts *o, bw_buf *out)
{
    bw_buf_puts(out, "pattern,family,access,space,device,vendor,name,driver_version,profile,runs,measured_runs,"
                     "repeat,status,effective_gbs,effective_min_gbs,effective_max_gbs,relative_to_seq,"
                     "relative_min,relative_max,sector_efficiency,predicted_efficiency,conflict_ways,local_gbs,"
                     "relative_to_reference,relative_to_baseline,nominal_dram_gbs,partial\n");
    for (size_t i = 0; i < m->n_entries; i++) {
        const results_merge_entry *e = &m->entries[i];
        if (!row_shown(m, o, e->row))
            continue;
        const results_merge_row *r = &m->rows[e->row];
        const results_merge_device *d = &m->devices[e->device];
        int partial = 0;
        for (size_t k = 0; k < e->n_samples; k++)
            partial |= m->runs[e->samples[k].run].partial;
        report_csv_field(out, r->pattern);
        csv_str(out, r->family);
        csv_str(out, r->access);
        csv_str(out, r->space);
        csv_str(out, d->label);
        csv_str(out, d->vendor);
        csv_str(out, d->name);
        csv_str(out, d->driver_version);
        csv_str(out, d->profile);
        csv_int(out, (long long)e->n_samples);
        csv_int(out, (long long)e->n_measured);
        csv_int(out, e->n_samples > 1);
        csv_str(out, results_merge_not_nan(e->effective_gbs) ? "ok" : entry_status(e));
        csv_real(out, e->effective_gbs);
        csv_real(out, e->effective_min);
        csv_real(out, e->effective_max);
        csv_real(out, e->relative_to_seq);
        csv_real(out, e->relative_min);
        csv_real(out, e->relative_max);
        csv_real(out, e->sector_efficiency);
        csv_real(out, e->predicted_efficiency);
        csv_int(out, e->conflict_ways);
        csv_real(out, e->local_gbs);
        csv_real(out, e->relative_to_reference);
        csv_real(out, e->relative_to_baseline);
        csv_real(out, d->nominal_dram_gbs);
        csv_int(out, partial);
        bw_buf_putc(out, '\n');
    }
    report_peer_table_csv(m, out);
}

/* ---- JSON ---- */

/* a byte count held as a double: an integer, or null */
static json_t *jbytes(double v)
{
    return results_merge_not_nan(v) ? json_integer((json_int_t)llround(v)) : json_null();
}

static json_t *jreal(double v)
{
    return results_json_real(v, results_merge_not_nan(v));
}

static json_t *jint(long long v)
{
    return v >= 0 ? json_integer(v) : json_null();
}

/* devices[i]: identity, provenance, profile and peaks */
static json_t *device_entry(const results_merged *m, size_t i)
{
    const results_merge_device *d = &m->devices[i];
    json_t *j = json_object();
    json_object_set_new(j, CK(LABEL), json_string(d->label));
    json_object_set_new(j, CK(VENDOR), json_string(d->vendor));
    json_object_set_new(j, CK(NAME), json_string(d->name));
    json_object_set_new(j, CK(DRIVER_VERSION), json_string(d->driver_version));
    json_object_set_new(j, CK(BOARD_NAME), results_json_text(d->board_name));
    json_object_set_new(j, CK(PLATFORM), results_json_text(d->platform));
    json_object_set_new(j, CK(PLATFORM_VERSION), results_json_text(d->platform_version));
    json_object_set_new(j, CK(DEVICE_VERSION), results_json_text(d->device_version));
    json_object_set_new(j, CK(TYPE), results_json_text(d->type));
    json_object_set_new(j, CK(COMPUTE_UNITS), jint(d->compute_units));
    json_object_set_new(j, CK(CLOCK_MHZ), jint(d->clock_mhz));
    json_object_set_new(j, CK(GLOBAL_MEM_BYTES), jint(d->global_mem_bytes));
    json_t *p = json_object();
    json_object_set_new(p, CK(NAME), results_json_text(d->profile));
    json_object_set_new(p, CK(LANES), jint(d->lanes));
    json_object_set_new(p, CK(SECTOR_BYTES), jint(d->sector_bytes));
    json_object_set_new(p, CK(LINE_BYTES), jint(d->line_bytes));
    json_object_set_new(p, CK(BANKS), jint(d->banks));
    json_object_set_new(p, CK(BANK_WIDTH), jint(d->bank_width));
    json_object_set_new(j, CK(PROFILE), p);
    json_object_set_new(j, CK(RUNS), json_integer((json_int_t)d->n_runs));
    json_object_set_new(j, CK(SEQ_GBS), jreal(d->seq_gbs));
    json_object_set_new(j, CK(PEAK_READ_GBS), jreal(d->peak_read_gbs));
    json_object_set_new(j, CK(PEAK_COPY_GBS), jreal(d->peak_copy_gbs));
    if (d->nominal_name) {
        json_t *n = json_object();
        json_object_set_new(n, CK(NAME), json_string(d->nominal_name));
        json_object_set_new(n, CK(DRAM_GBS), jreal(d->nominal_dram_gbs));
        json_object_set_new(n, CK(DRAM_SOURCE), json_string(d->nominal_dram_source));
        json_object_set_new(n, CK(FP32_GFLOPS), jreal(d->nominal_fp32_gflops));
        json_object_set_new(n, CK(FP32_SOURCE), json_string(d->nominal_fp32_source));
        json_object_set_new(j, CK(NOMINAL), n);
    } else {
        json_object_set_new(j, CK(NOMINAL), json_null());
    }
    return j;
}

/* runs[i]: where and when, and its short roofline */
static json_t *run_entry(const results_merged *m, size_t i)
{
    const results_merge_run *r = &m->runs[i];
    json_t *j = json_object();
    json_object_set_new(j, CK(DEVICE), json_string(m->devices[r->device].label));
    json_object_set_new(j, CK(FILE), json_string(r->file));
    json_object_set_new(j, CK(DATE), results_json_text(r->date));
    json_object_set_new(j, CK(HOST), results_json_text(r->host));
    json_object_set_new(j, CK(OS), results_json_text(r->os));
    json_object_set_new(j, CK(TOOL_VERSION), results_json_text(r->tool_version));
    json_object_set_new(j, CK(SCHEMA_VERSION), json_integer(r->schema_version));
    json_object_set_new(j, CK(COMMAND_LINE), results_json_text(r->command_line));
    json_object_set_new(j, CK(NOTE), results_json_text(r->note));
    json_object_set_new(j, CK(PARTIAL), json_boolean(r->partial));
    json_object_set_new(j, CK(INTERRUPTED), json_boolean(r->interrupted));
    json_object_set_new(j, CK(NOISY), json_boolean(r->noisy));
    json_object_set_new(j, CK(STATUS), results_json_text(r->status));
    json_object_set_new(j, CK(FAILURE), results_json_text(r->failure));
    json_object_set_new(j, CK(PEAK_READ_GBS), jreal(r->peak_read_gbs));
    json_object_set_new(j, CK(PEAK_COPY_GBS), jreal(r->peak_copy_gbs));
    if (r->has_roofline) {
        json_t *rf = json_object();
        json_object_set_new(rf, RR_KEY(RR_PEAK_GFLOPS), jreal(r->roof_peak_gflops));
        json_object_set_new(rf, RR_KEY(RR_PEAK_GBS), jreal(r->roof_peak_gbs));
        json_object_set_new(rf, RR_KEY(RR_RIDGE_INTENSITY), jreal(r->roof_ridge_intensity));
        json_t *pts = json_array();
        for (size_t k = 0; k < r->n_roof_points; k++) {
            json_t *p = json_object();
            json_object_set_new(p, RR_KEY(RR_INTENSITY), jreal(r->roof_points[k].intensity));
            json_object_set_new(p, RR_KEY(RR_GFLOPS), jreal(r->roof_points[k].gflops));
            json_object_set_new(p, RR_KEY(RR_GBS), jreal(r->roof_points[k].gbs));
            json_object_set_new(p, RR_KEY(RR_ATTAINABLE_GFLOPS), jreal(r->roof_points[k].attainable_gflops));
            json_array_append_new(pts, p);
        }
        json_object_set_new(rf, RR_KEY(RR_POINTS), pts);
        json_object_set_new(j, CK(ROOFLINE), rf);
    } else {
        json_object_set_new(j, CK(ROOFLINE), json_null());
    }
    return j;
}

/* one (pattern, device, mode): the merged figures and every sample */
static json_t *entry_json(const results_merged *m, const results_merge_entry *e)
{
    const results_merge_row *r = &m->rows[e->row];
    json_t *j = json_object();
    json_object_set_new(j, CK(PATTERN), json_string(r->pattern));
    json_object_set_new(j, CK(FAMILY), results_json_text(r->family));
    json_object_set_new(j, CK(ACCESS), json_string(r->access));
    json_object_set_new(j, CK(SPACE), json_string(r->space));
    json_object_set_new(j, CK(DEVICE), json_string(m->devices[e->device].label));
    json_object_set_new(j, CK(EXPRESSION), results_json_text(e->expression));
    json_object_set_new(j, CK(ELEM_BYTES), jint(e->elem_bytes));
    json_object_set_new(j, CK(REPEAT), json_boolean(e->n_samples > 1));
    json_object_set_new(j, CK(EFFECTIVE_GBS), jreal(e->effective_gbs));
    json_object_set_new(j, CK(EFFECTIVE_MIN_GBS), jreal(e->effective_min));
    json_object_set_new(j, CK(EFFECTIVE_MAX_GBS), jreal(e->effective_max));
    json_object_set_new(j, CK(RELATIVE_TO_SEQ), jreal(e->relative_to_seq));
    json_object_set_new(j, CK(RELATIVE_MIN), jreal(e->relative_min));
    json_object_set_new(j, CK(RELATIVE_MAX), jreal(e->relative_max));
    json_object_set_new(j, CK(SECTOR_EFFICIENCY), jreal(e->sector_efficiency));
    json_object_set_new(j, CK(PREDICTED_EFFICIENCY), jreal(e->predicted_efficiency));
    json_object_set_new(j, CK(CONFLICT_WAYS), jint(e->conflict_ways));
    json_object_set_new(j, CK(LOCAL_GBS), jreal(e->local_gbs));
    json_object_set_new(j, CK(RELATIVE_TO_REFERENCE), jreal(e->relative_to_reference));
    json_object_set_new(j, CK(RELATIVE_TO_BASELINE), jreal(e->relative_to_baseline));
    json_t *ss = json_array();
    for (size_t k = 0; k < e->n_samples; k++) {
        const results_merge_sample *s = &e->samples[k];
        json_t *sj = json_object();
        json_object_set_new(sj, CK(RUN), json_integer((json_int_t)s->run));
        json_object_set_new(sj, CK(STATUS), results_json_text(s->status));
        json_object_set_new(sj, CK(EFFECTIVE_GBS), jreal(s->effective_gbs));
        json_object_set_new(sj, CK(RELATIVE_TO_SEQ), jreal(s->relative_to_seq));
        json_object_set_new(sj, CK(BEST_GBS), jreal(s->best_gbs));
        json_object_set_new(sj, CK(FRACTION_OF_PEAK), jreal(s->fraction_of_peak));
        json_array_append_new(ss, sj);
    }
    json_object_set_new(j, CK(SAMPLES), ss);
    return j;
}

/* probes[i]: one device's probe figures from one file */
static json_t *probe_entry(const results_merged *m, size_t i)
{
    const results_merge_probe *p = &m->probes[i];
    json_t *j = json_object();
    json_object_set_new(j, CK(DEVICE), json_string(m->devices[p->device].label));
    json_object_set_new(j, CK(FILE), json_string(p->file));
    json_object_set_new(j, CK(SOURCE), json_string(p->from_run ? "run" : "probe"));
    json_object_set_new(j, CK(DATE), results_json_text(p->date));
    json_object_set_new(j, CK(STATUS), results_json_text(p->status));
    json_object_set_new(j, CK(NOTE), results_json_text(p->note));
    json_object_set_new(j, CK(INFERRED_UNIT_BYTES), jint(p->inferred_unit_bytes));
    json_object_set_new(j, CK(PROFILE_UNIT_BYTES), jint(p->profile_unit_bytes));
    json_object_set_new(j, CK(PROFILE_LINE_BYTES), jint(p->profile_line_bytes));
    json_object_set_new(j, CK(UNIT_AGREEMENT), results_json_text(p->unit_agreement));
    json_object_set_new(j, CK(LAUNCH_LATENCY_US), jreal(p->launch_latency_us));
    json_object_set_new(j, CK(SMALL_TRANSFER_LATENCY_US), jreal(p->small_transfer_latency_us));
    json_object_set_new(j, CK(SMALL_TRANSFER_BYTES), jint(p->small_transfer_bytes));
    json_t *lv = json_array();
    for (size_t k = 0; k < p->n_levels; k++) {
        json_t *e = json_object();
        json_object_set_new(e, CK(SIZE_BYTES), jbytes(p->levels[k].size_bytes));
        json_object_set_new(e, CK(READ_GBS), jreal(p->levels[k].read_gbs));
        json_object_set_new(e, CK(LATENCY_NS), jreal(p->levels[k].latency_ns));
        json_object_set_new(e, CK(LATENCY_PER_CU_NS), jreal(p->levels[k].latency_per_cu_ns));
        json_array_append_new(lv, e);
    }
    json_object_set_new(j, CK(CACHE_LEVELS), lv);
    if (results_merge_not_nan(p->memory.read_gbs) || results_merge_not_nan(p->memory.latency_ns)) {
        json_t *e = json_object();
        json_object_set_new(e, CK(READ_GBS), jreal(p->memory.read_gbs));
        json_object_set_new(e, CK(LATENCY_NS), jreal(p->memory.latency_ns));
        json_object_set_new(e, CK(LATENCY_PER_CU_NS), jreal(p->memory.latency_per_cu_ns));
        json_object_set_new(j, CK(MEMORY), e);
    } else {
        json_object_set_new(j, CK(MEMORY), json_null());
    }
    json_t *ld = json_array();
    for (size_t k = 0; k < p->n_ladder; k++) {
        json_t *e = json_object();
        json_object_set_new(e, CK(BYTES), jbytes(p->ladder[k].bytes));
        json_object_set_new(e, CK(READ_GBS), jreal(p->ladder[k].read_gbs));
        json_object_set_new(e, CK(LATENCY_NS), jreal(p->ladder[k].latency_ns));
        json_object_set_new(e, CK(LATENCY_PER_CU_NS), jreal(p->ladder[k].latency_per_cu_ns));
        json_array_append_new(ld, e);
    }
    json_object_set_new(j, CK(LADDER), ld);
    json_t *tr = json_array();
    for (size_t k = 0; k < p->n_transfers; k++) {
        const results_merge_transfer *t = &p->transfers[k];
        json_t *e = json_object();
        json_object_set_new(e, CK(DIRECTION), json_string(t->direction));
        json_object_set_new(e, CK(MEMORY), json_string(t->memory));
        json_object_set_new(e, CK(BLOCKING), json_boolean(t->blocking));
        json_object_set_new(e, CK(BYTES), jbytes(t->bytes));
        json_object_set_new(e, CK(GBS), jreal(t->gbs));
        json_object_set_new(e, CK(US), jreal(t->us));
        json_array_append_new(tr, e);
    }
    json_object_set_new(j, CK(TRANSFERS), tr);
    return j;
}

bw_code report_compare_json(const results_merged *m, const report_compare_opts *o, bw_buf *out, bw_error *err)
{
    json_t *root = results_json_document(RESULTS_COMPARE_SCHEMA, RESULTS_COMPARE_SCHEMA_VERSION, o ? o->date : "",
                                        o ? o->argc : 0, o ? o->argv : NULL);
    if (!root)
        return bw_error_set(err, BW_E_NOMEM, "out of memory building JSON");
    json_object_set_new(root, CK(MODE), results_json_text(o ? o->mode : NULL));
    json_object_set_new(root, CK(BASELINE),
                        m->baseline >= 0 ? json_string(m->devices[m->baseline].label) : json_null());
    json_t *files = json_array();
    for (size_t i = 0; i < m->n_files; i++) {
        json_t *f = json_object();
        json_object_set_new(f, CK(PATH), json_string(m->files[i].path));
        json_object_set_new(f, CK(PARTIAL), json_boolean(m->files[i].partial));
        json_object_set_new(f, CK(DUPLICATES), json_integer((json_int_t)m->files[i].duplicates));
        json_array_append_new(files, f);
    }
    json_object_set_new(root, CK(FILES), files);
    json_t *devs = json_array();
    for (size_t i = 0; i < m->n_devices; i++)
        json_array_append_new(devs, device_entry(m, i));
    json_object_set_new(root, CK(DEVICES), devs);
    json_t *runs = json_array();
    for (size_t i = 0; i < m->n_runs; i++)
        json_array_append_new(runs, run_entry(m, i));
    json_object_set_new(root, CK(RUNS), runs);
    json_t *ents = json_array();
    for (size_t i = 0; i < m->n_entries; i++) {
        const results_merge_entry *e = &m->entries[i];
        if (!row_shown(m, o, e->row))
            continue;
        json_array_append_new(ents, entry_json(m, e));
    }
    json_object_set_new(root, CK(ENTRIES), ents);
    json_t *probes = json_array();
    for (size_t i = 0; i < m->n_probes; i++)
        json_array_append_new(probes, probe_entry(m, i));
    json_object_set_new(root, CK(PROBES), probes);
    json_t *diags = json_array();
    for (size_t i = 0; i < m->n_diags; i++) {
        json_t *j = json_object();
        json_object_set_new(j, CK(FILE), json_string(m->diags[i].file));
        json_object_set_new(j, CK(MESSAGE), json_string(m->diags[i].message));
        json_object_set_new(j, CK(SKIPPED), json_boolean(m->diags[i].is_error));
        json_array_append_new(diags, j);
    }
    json_object_set_new(root, CK(DIAGNOSTICS), diags);
    if (report_peer_table_json(m, root, err) != BW_OK) {
        json_decref(root);
        return BW_E_NOMEM;
    }
    return results_json_dump(root, out, err);
}
