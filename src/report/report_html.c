/* report_html: the self-contained report page (report_html.h). */
#include "report_html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bwlab_config.h"
#include "report_chart.h"
#include "report_format.h"
#include "report_figures.h"
#include "report_html_table.h"
#include "report_peer_table.h"
#include "report_html_priv.h"

#define esc report_chart_escape

static const char CSS[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;"
    "max-width:1400px;padding:0 16px;color:#222;background:#fff;line-height:1.4}\n"
    "h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:1.8em;"
    "border-bottom:1px solid #ddd;padding-bottom:.2em}\n"
    "table{border-collapse:collapse;margin:.6em 0;font-size:.88em}\n"
    "th,td{border:1px solid #ccc;padding:3px 7px;text-align:left;vertical-align:top}\n"
    "th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums;"
    "white-space:nowrap}\n"
    ".kind{color:#666;font-size:.85em}.absent{color:#666;font-style:italic}\n"
    ".diag-error{color:#a00}.diag-note{color:#555}\n"
    ".charts{display:flex;flex-wrap:wrap;gap:12px}\n"
    "svg.chart{border:1px solid #e4e4e4;background:#fff;max-width:100%;height:auto}\n"
    "svg.chart text{font-family:system-ui,sans-serif;fill:#222}\n"
    "svg.chart text.title{font-size:14px;font-weight:600}\n"
    "svg.chart text.subtitle{font-size:11px;fill:#555}\n"
    "svg.chart text.tick{font-size:11px;fill:#444}\n"
    "svg.chart text.axis{font-size:12px}svg.chart text.legend{font-size:11.5px}\n"
    "svg.chart .pt:hover{fill-opacity:.15}\n"
    "code{font-size:.92em}.wrap{overflow-x:auto}\n";

/* the devices' table: identity, provenance, profile, nominal entry */
static void device_table(const results_merged *m, bw_buf *o)
{
    static const char *const head[] = { "label", "vendor", "name", "driver", "platform", "type",
                                        "compute units", "clock (MHz)", "global memory (B)",
                                        "profile (W, S, L)", "runs", "nominal entry" };
    bw_buf_puts(o, "<section id=\"devices\"><h2>Devices</h2>\n");
    report_html_table_open(o, NULL, head, sizeof head / sizeof *head);
    for (size_t d = 0; d < m->n_devices; d++) {
        const results_merge_device *v = &m->devices[d];
        report_html_row(o);
        report_html_text(o, v->label);
        report_html_text(o, v->vendor);
        report_html_text(o, v->name);
        report_html_text(o, v->driver_version);
        report_html_text_with(o, v->platform, " (", v->platform_version, ")");
        report_html_text(o, v->type);
        report_html_count(o, v->compute_units);
        report_html_count(o, v->clock_mhz);
        report_html_count(o, v->global_mem_bytes);
        char geometry[96];
        snprintf(geometry, sizeof geometry, "%lld, %lld B, %lld B", v->lanes, v->sector_bytes, v->line_bytes);
        report_html_text_with(o, v->profile, " (", geometry, ")");
        report_html_count(o, (long long)v->n_runs);
        report_html_text(o, v->nominal_name);
        report_html_row_end(o);
    }
    report_html_table_close(o);
}

/* the runs' table: file, device, when, where, status, notes, command line */
static void run_table(const results_merged *m, bw_buf *o)
{
    static const char *const head[] = { "#", "file", "device", "date", "host", "os",
                                        "bwlab", "schema", "status", "notes", "command line" };
    bw_buf_puts(o, "<h3>Runs</h3>\n");
    report_html_table_open(o, NULL, head, sizeof head / sizeof *head);
    for (size_t r = 0; r < m->n_runs; r++) {
        const results_merge_run *run = &m->runs[r];
        report_html_row(o);
        report_html_count(o, (long long)(r + 1));
        report_html_text(o, run->file);
        report_html_text(o, run->device < m->n_devices ? m->devices[run->device].label : NULL);
        report_html_text(o, run->date);
        report_html_text(o, run->host);
        report_html_text(o, run->os);
        report_html_text(o, run->tool_version);
        report_html_count(o, run->schema_version);
        report_html_text_with(o, run->status, ": ", run->failure, "");
        report_html_cell(o, NULL);
        const char *sep = "";
        if (run->partial) {
            bw_buf_puts(o, "partial journal");
            sep = "; ";
        }
        if (run->interrupted) {
            bw_buf_printf(o, "%sinterrupted", sep);
            sep = "; ";
        }
        if (run->noisy) {
            bw_buf_printf(o, "%snoisy machine (measured)", sep);
            sep = "; ";
        }
        if (run->has_roofline) {
            bw_buf_printf(o, "%sroofline", sep);
            sep = "; ";
        }
        if (run->note) {
            bw_buf_puts(o, sep);
            esc(o, run->note);
        }
        report_html_cell_end(o);
        report_html_code(o, run->command_line);
        report_html_row_end(o);
    }
    report_html_table_close(o);
}

/* the probe records' table, when there are any */
static void probe_table(const results_merged *m, bw_buf *o)
{
    static const char *const head[] = { "#", "file", "device", "source", "date",
                                        "inferred unit (B, measured)", "profile sector, line (B)",
                                        "launch latency (us, measured)", "cache levels (measured)", "notes" };
    if (!m->n_probes)
        return;
    bw_buf_puts(o, "<h3>Probes</h3>\n");
    report_html_table_open(o, "probe-table", head, sizeof head / sizeof *head);
    for (size_t k = 0; k < m->n_probes; k++) {
        const results_merge_probe *p = &m->probes[k];
        report_html_row(o);
        report_html_count(o, (long long)(k + 1));
        report_html_text(o, p->file);
        report_html_text(o, m->devices[p->device].label);
        report_html_text(o, p->from_run ? "bwlab run --transfers" : "bwlab probe");
        report_html_text(o, p->date);
        if (p->inferred_unit_bytes > 0)
            report_html_count(o, p->inferred_unit_bytes);
        else
            report_html_na(o, NULL);
        report_html_cell(o, "num");
        if (p->profile_unit_bytes > 0 && p->profile_line_bytes > 0)
            bw_buf_printf(o, "%lld, %lld", p->profile_unit_bytes, p->profile_line_bytes);
        else
            bw_buf_puts(o, "-");
        report_html_cell_end(o);
        report_html_num(o, p->launch_latency_us, NULL, NULL);
        report_html_cell(o, NULL);
        for (size_t l = 0; l < p->n_levels; l++)
            bw_buf_printf(o, "%slevel %zu: %s B, %s GB/s, %s ns", l ? "<br>" : "", l + 1,
                          REPORT_FIXED(p->levels[l].size_bytes, 0), REPORT_FIXED(p->levels[l].read_gbs, 2),
                          REPORT_FIXED(p->levels[l].latency_ns, 2));
        if (!p->n_levels)
            bw_buf_puts(o, "-");
        report_html_cell_end(o);
        report_html_text(o, p->note ? p->note : (p->status && strcmp(p->status, "probed") ? p->status : NULL));
        report_html_row_end(o);
    }
    report_html_table_close(o);
}

static void provenance(const results_merged *m, bw_buf *o)
{
    device_table(m, o);
    run_table(m, o);
    probe_table(m, o);
    bw_buf_puts(o, "</section>\n");
}

/* Writes one cell of a device_columns table: the entry of a row on a device,
 * NULL where the device has none. */
typedef void (*device_cell)(bw_buf *o, const results_merge_entry *e);

/* A table of a row per pattern and access mode and a column per device,
 * each cell written by cell. */
static void device_columns(const results_merged *m, bw_buf *o, const char *id, device_cell cell)
{
    static const char *const head[] = { "pattern", "access" };
    report_html_table_open(o, id, NULL, 0);
    report_html_row(o);
    for (size_t i = 0; i < sizeof head / sizeof *head; i++)
        report_html_head_cell(o, head[i]);
    for (size_t d = 0; d < m->n_devices; d++)
        report_html_head_cell(o, m->devices[d].label);
    report_html_row_end(o);
    for (size_t i = 0; i < m->n_rows; i++) {
        report_html_row(o);
        report_html_code(o, m->rows[i].pattern);
        report_html_text(o, m->rows[i].access);
        for (size_t d = 0; d < m->n_devices; d++)
            cell(o, results_merged_entry(m, i, d));
        report_html_row_end(o);
    }
    report_html_table_close(o);
}

/* the measured bandwidth, the relative figures below it, and the min-max
 * of several runs */
static void bandwidth_cell(bw_buf *o, const results_merge_entry *e)
{
    if (!e || !results_merge_not_nan(e->effective_gbs)) {
        report_html_na(o, NULL);
        return;
    }
    report_html_cell(o, "num");
    bw_buf_printf(o, "%s GB/s", REPORT_FIXED(e->effective_gbs, 2));
    if (results_merge_not_nan(e->relative_to_seq))
        bw_buf_printf(o, "<br>%s &times; seq", REPORT_FIXED(e->relative_to_seq, 3));
    else if (results_merge_not_nan(e->relative_to_reference))
        bw_buf_printf(o, "<br>%s &times; reference", REPORT_FIXED(e->relative_to_reference, 3));
    if (results_merge_not_nan(e->relative_to_baseline))
        bw_buf_printf(o, "<br>%s &times; baseline", REPORT_FIXED(e->relative_to_baseline, 3));
    if (e->n_measured > 1)
        bw_buf_printf(o, "<br><span class=\"kind\">%zu runs: %s-%s</span>", e->n_measured,
                      REPORT_FIXED(e->effective_min, 2), REPORT_FIXED(e->effective_max, 2));
    report_html_cell_end(o);
}

/* the modeled sector efficiency (or conflict ways) over the measured
 * relative figure */
static void model_cell(bw_buf *o, const results_merge_entry *e)
{
    if (!e) {
        report_html_na(o, NULL);
        return;
    }
    report_html_cell(o, "num");
    if (results_merge_not_nan(e->sector_efficiency))
        bw_buf_printf(o, "%s%% modeled", REPORT_FIXED(100 * e->sector_efficiency, 1));
    else if (e->conflict_ways > 0)
        bw_buf_printf(o, "%lld-way modeled", e->conflict_ways);
    else
        bw_buf_puts(o, "-");
    if (results_merge_not_nan(e->relative_to_seq))
        bw_buf_printf(o, "<br>%s measured", REPORT_FIXED(e->relative_to_seq, 3));
    report_html_cell_end(o);
}

/* the main table: measured bandwidth and relative figures, a column per device */
static void bandwidth_table(const results_merged *m, bw_buf *o)
{
    bw_buf_puts(o, "<section id=\"tables\"><h2>Comparison</h2>\n"
                   "<p>Each cell: the measured effective bandwidth (median across runs), and below "
                   "it the measured bandwidth relative to the device's <code>seq</code> in the same "
                   "run and access mode. A cell measured in several runs shows their min-max. "
                   "<span class=\"kind\">All measured.</span></p>\n");
    device_columns(m, o, "main-table", bandwidth_cell);
}

/* modeled sector efficiency (or conflict ways) beside measured relative */
static void model_table(const results_merged *m, bw_buf *o)
{
    bw_buf_puts(o, "<h3>Model</h3>\n<p>Per device: the modeled sector efficiency of warp 0 under "
                   "the device's profile (modeled), beside the measured bandwidth relative to "
                   "<code>seq</code> (measured).</p>\n");
    device_columns(m, o, "model-table", model_cell);
}

/* the devices with a nominal entry: measured against nominal peaks */
static void nominal_table(const results_merged *m, bw_buf *o)
{
    static const char *const head[] = { "device", "nominal entry", "nominal DRAM (GB/s)", "seq (GB/s, measured)",
                                        "seq of nominal", "tuned copy peak (GB/s, measured)",
                                        "nominal FP32 (GFLOP/s)", "roofline peak (GFLOP/s, measured)",
                                        "of nominal FP32", "sources" };
    int any_nominal = 0;
    for (size_t d = 0; d < m->n_devices; d++)
        any_nominal |= m->devices[d].nominal_name != NULL;
    if (!any_nominal)
        return;
    bw_buf_puts(o, "<h3>Against nominal peaks</h3>\n");
    report_html_table_open(o, "nominal-table", head, sizeof head / sizeof *head);
    for (size_t d = 0; d < m->n_devices; d++) {
        const results_merge_device *v = &m->devices[d];
        if (!v->nominal_name)
            continue;
        report_html_row(o);
        report_html_text(o, v->label);
        report_html_text(o, v->nominal_name);
        report_html_num(o, v->nominal_dram_gbs, NULL, NULL);
        report_html_num(o, v->seq_gbs, NULL, NULL);
        report_html_num(o, results_merge_not_nan(v->seq_gbs) && v->nominal_dram_gbs > 0
                               ? 100 * v->seq_gbs / v->nominal_dram_gbs
                               : NAN,
                        "%", NULL);
        report_html_num(o, v->peak_copy_gbs, NULL, NULL);
        report_html_num(o, v->nominal_fp32_gflops, NULL, NULL);
        double roof = NAN; /* the best short roofline of its runs */
        for (size_t r = 0; r < m->n_runs; r++)
            if (m->runs[r].device == d && m->runs[r].has_roofline &&
                results_merge_not_nan(m->runs[r].roof_peak_gflops) &&
                !(m->runs[r].roof_peak_gflops <= roof))
                roof = m->runs[r].roof_peak_gflops;
        report_html_num(o, roof, NULL, NULL);
        report_html_num(o, results_merge_not_nan(roof) && v->nominal_fp32_gflops > 0
                               ? 100 * roof / v->nominal_fp32_gflops
                               : NAN,
                        "%", NULL);
        report_html_cell(o, NULL);
        bw_buf_puts(o, "DRAM: ");
        esc(o, v->nominal_dram_source ? v->nominal_dram_source : "-");
        bw_buf_puts(o, "<br>FP32: ");
        esc(o, v->nominal_fp32_source ? v->nominal_fp32_source : "-");
        report_html_cell_end(o);
        report_html_row_end(o);
    }
    report_html_table_close(o);
}

static void tables(const results_merged *m, bw_buf *o)
{
    bandwidth_table(m, o);
    model_table(m, o);
    nominal_table(m, o);
    bw_buf_puts(o, "</section>\n");
}

static void diagnostics(const results_merged *m, bw_buf *o)
{
    if (m->n_diags == 0)
        return;
    bw_buf_puts(o, "<section id=\"diagnostics\"><h2>Inputs skipped or noted</h2>\n<ul>\n");
    for (size_t i = 0; i < m->n_diags; i++) {
        const results_merge_diag *g = &m->diags[i];
        bw_buf_printf(o, "<li class=\"%s\"><code>", g->is_error ? "diag-error" : "diag-note");
        esc(o, g->file);
        bw_buf_puts(o, "</code>: ");
        esc(o, g->message);
        bw_buf_puts(o, "</li>\n");
    }
    bw_buf_puts(o, "</ul></section>\n");
}

static bw_code figures(const results_merged *m, bw_buf *o, bw_error *err)
{
    report_figure *figs = NULL;
    size_t nfigs = 0;
    bw_code rc = report_figures_build(m, &figs, &nfigs, err);
    if (rc != BW_OK)
        return rc;
    bw_buf_puts(o, "<section id=\"charts\"><h2>Charts</h2>\n<p>Hover over a point for its exact "
                   "value and kind. Colours: the Okabe-Ito palette, one per device.</p>\n");
    for (size_t i = 0; i < nfigs && rc == BW_OK; i++) {
        const report_figure *f = &figs[i];
        size_t points = 0;
        for (size_t k = 0; k < f->n_charts; k++)
            points += report_chart_count(f->charts[k]);
        bw_buf_printf(o,
                      "<section class=\"figure\" id=\"fig-%s\" data-figure=\"%s\" data-charts=\"%zu\" "
                      "data-points=\"%zu\">\n<h3>%zu. ",
                      f->id, f->id, f->n_charts, points, i + 1);
        esc(o, f->heading);
        bw_buf_puts(o, "</h3>\n");
        if (f->caption) {
            bw_buf_puts(o, "<p>");
            esc(o, f->caption);
            bw_buf_puts(o, "</p>\n");
        }
        if (f->absent) {
            bw_buf_puts(o, "<p class=\"absent\">Not drawn: ");
            esc(o, f->absent);
            bw_buf_puts(o, "</p>\n");
        }
        if (f->n_charts) {
            bw_buf_puts(o, "<div class=\"charts\">\n");
            for (size_t k = 0; k < f->n_charts && rc == BW_OK; k++)
                rc = report_chart_svg(f->charts[k], o, err);
            bw_buf_puts(o, "</div>\n");
        }
        bw_buf_puts(o, "</section>\n");
    }
    bw_buf_puts(o, "</section>\n");
    report_figures_free(figs, nfigs);
    return rc;
}

bw_code report_html_render(const results_merged *m, const report_html_options *o, bw_buf *out,
                           bw_error *err)
{
    const char *title = o && o->title ? o->title : "bwlab report";
    bw_buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"generator\" content=\"bwlab " BWLAB_VERSION "\">\n<title>");
    esc(out, title);
    bw_buf_printf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", CSS);
    esc(out, title);
    bw_buf_puts(out, "</h1>\n<p>");
    bw_buf_printf(out, "%zu result file%s, %zu device%s, %zu run%s", m->n_files,
                  m->n_files == 1 ? "" : "s", m->n_devices, m->n_devices == 1 ? "" : "s",
                  m->n_runs, m->n_runs == 1 ? "" : "s");
    if (m->n_probes)
        bw_buf_printf(out, ", %zu probe record%s", m->n_probes, m->n_probes == 1 ? "" : "s");
    if (o && o->generated) {
        bw_buf_puts(out, "; written ");
        esc(out, o->generated);
    }
    bw_buf_puts(out, " by bwlab " BWLAB_VERSION);
    if (o && o->argc > 0) {
        bw_buf_puts(out, " (<code>");
        for (int i = 0; i < o->argc; i++) {
            if (i)
                bw_buf_putc(out, ' ');
            esc(out, o->argv[i]);
        }
        bw_buf_puts(out, "</code>)");
    }
    bw_buf_puts(out, ".</p>\n<p>Every number says its kind: <b>requested</b> (what the program "
                     "asked for), <b>modeled</b> (counted by bwlab's transaction model from the "
                     "addresses, never observed traffic) or <b>measured</b> (from kernel timings "
                     "on the device). Absent figures read \"not measured\", never 0.</p>\n");
    /* short sections first, then the charts, then the long tables */
    diagnostics(m, out);
    provenance(m, out);
    bw_code rc = figures(m, out, err);
    if (rc == BW_OK)
        rc = report_peer_table_html(m, out, err);
    tables(m, out);
    bw_buf_puts(out, "</body>\n</html>\n");
    if (rc == BW_OK && bw_buf_failed(out))
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory while writing the HTML report");
    return rc;
}

bw_code report_html_write(const results_merged *m, const report_html_options *o, FILE *out,
                          bw_error *err)
{
    bw_buf b = BW_BUF_INIT;
    bw_code rc = report_html_render(m, o, &b, err);
    if (rc == BW_OK && (fwrite(bw_buf_str(&b), 1, b.len, out) != b.len || fflush(out) != 0))
        rc = bw_error_set(err, BW_E_IO, "cannot write the HTML report");
    bw_buf_free(&b);
    return rc;
}
