/* report_peer_table: peers beside bwlab's figures (report_peer_table.h). */
#include "report_peer_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_chart.h"
#include "report_format.h"
#include "report_grid.h"
#include "report_html_table.h"
#include "results_peer_match.h"
#include "results_compare_keys.h"

static const results_peer_set *peers_of(const results_merged *m)
{
    return m->peers && m->peers->n_entries ? m->peers : NULL;
}

/* the device's tuned peak: the larger of its read and copy peaks
 * (measured), NAN when it has neither */
static double tuned_peak(const results_merge_device *d)
{
    double p = d->peak_read_gbs;
    if (results_merge_not_nan(d->peak_copy_gbs) && (!results_merge_not_nan(p) || d->peak_copy_gbs > p))
        p = d->peak_copy_gbs;
    return p;
}

static double seq_of(const results_merged *m, const results_peer_entry *e)
{
    return e->device >= 0 ? m->devices[e->device].seq_gbs : NAN;
}

static double peak_of(const results_merged *m, const results_peer_entry *e)
{
    return e->device >= 0 ? tuned_peak(&m->devices[e->device]) : NAN;
}

/* bwlab's own figure for what a peer figure measures, on the matched
 * device (measured): seq for a bandwidth, the short roofline's peak for a
 * compute peak, the probe's or run's transfer of the same direction at
 * its largest size for a transfer, the launch latency for a launch; what
 * names it, NAN when bwlab has none. */
typedef struct counterpart {
    const char *what, *unit;
    double value;
} counterpart;

static counterpart counterpart_of(const results_merged *m, const results_peer_entry *e)
{
    counterpart c = { NULL, NULL, NAN };
    if (e->device < 0)
        return c;
    size_t dev = (size_t)e->device;
    const results_peer_figure *f = e->figure;
    switch (f->role) {
    case RESULTS_PEER_READ:
    case RESULTS_PEER_STREAM:
        return (counterpart){ "seq (copy)", "GB/s", seq_of(m, e) };
    case RESULTS_PEER_COMPUTE:
        for (size_t r = 0; r < m->n_runs; r++)
            if (m->runs[r].device == dev && m->runs[r].has_roofline)
                return (counterpart){ "roofline peak (FP32 FMA)", "GFLOP/s", m->runs[r].roof_peak_gflops };
        return c;
    case RESULTS_PEER_LAUNCH:
        for (size_t k = 0; k < m->n_probes; k++)
            if (m->probes[k].device == dev && results_merge_not_nan(m->probes[k].launch_latency_us))
                return (counterpart){ "launch latency", "us", m->probes[k].launch_latency_us };
        return c;
    case RESULTS_PEER_TRANSFER: {
        /* clpeak names the call: a write goes to the device, a read comes back */
        const char *metric = f->metric ? f->metric : "";
        const char *dir = strstr(metric, "rite") ? "h2d" : strstr(metric, "ead") ? "d2h" : NULL;
        const results_merge_transfer *best = NULL;
        for (size_t k = 0; k < m->n_probes; k++) {
            if (m->probes[k].device != dev)
                continue;
            for (size_t t = 0; t < m->probes[k].n_transfers; t++) {
                const results_merge_transfer *x = &m->probes[k].transfers[t];
                if (dir && strcmp(x->direction, dir) != 0)
                    continue;
                if (!best || x->bytes > best->bytes)
                    best = x;
            }
        }
        if (best)
            return (counterpart){ !dir ? "transfer (largest size)" : !strcmp(dir, "h2d") ? "host to device (largest size)"
                                                                                       : "device to host (largest size)",
                                  "GB/s", best->gbs };
        return c;
    }
    default:
        return c;
    }
}

/* The order of the columns: first appearance. Returns how many, with
 * col[i] the first entry of each; an entry's column is the one whose
 * label it shares. */
static size_t columns(const results_peer_set *s, size_t *col)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n_entries; i++) {
        size_t k = 0;
        while (k < n && strcmp(s->entries[col[k]].column, s->entries[i].column) != 0)
            k++;
        if (k == n)
            col[n++] = i;
    }
    return n;
}

/* The entries of the column whose first entry is `first`, in entry order:
 * start with *i = first, call until NULL. */
static const results_peer_entry *in_column(const results_peer_set *s, size_t first, size_t *i)
{
    for (; *i < s->n_entries; (*i)++)
        if (strcmp(s->entries[*i].column, s->entries[first].column) == 0)
            return &s->entries[(*i)++];
    return NULL;
}

static void cell_num(report_grid *g, double v)
{
    if (results_merge_not_nan(v))
        report_grid_cell(g, "%s", REPORT_FIXED(v, 2));
    else
        report_grid_cell(g, "-");
}

void report_peer_table_text(const results_merged *m, int md, bw_buf *out)
{
    const results_peer_set *s = peers_of(m);
    size_t *col = s ? malloc(s->n_entries * sizeof *col) : NULL;
    if (!col) {
        if (s)
            out->failed = 1;
        return;
    }
    size_t nc = columns(s, col);
    bw_buf_puts(out, md ? "\n## Peers: clpeak and BabelStream beside bwlab (same device)\n\n"
                        : "\nPeers: clpeak and BabelStream beside bwlab (same device)\n");
    bw_buf_puts(out, md ? "" : "  ");
    bw_buf_puts(out, "Each row: one figure of a peer file (measured by that tool), in the column of the bwlab device "
                     "it matches (name and driver, docs/compare.md), else of its own device; bwlab counterpart: "
                     "that device's own figure for the same thing, measured (seq in copy mode for a bandwidth, the "
                     "roofline's peak for a compute peak, the transfer of the same direction, the launch latency), "
                     "and its tuned peak for a bandwidth. '-' none.");
    bw_buf_puts(out, md ? "\n\n" : "\n");
    report_grid g = { 12, 0, 0, NULL };
    const char *h[] = { "device", "tool", "version", "test", "metric", "value", "unit", "bwlab counterpart",
                        "bwlab", "tuned peak GB/s", "note", "file" };
    for (size_t i = 0; i < 12; i++)
        report_grid_put(&g, h[i]);
    for (size_t c = 0; c < nc; c++) {
        const results_peer_entry *e;
        for (size_t i = col[c]; (e = in_column(s, col[c], &i));) {
            report_grid_cell(&g, "%s%s", e->column, e->device >= 0 ? "" : " (no bwlab run)");
            report_grid_cell(&g, "%s", e->file->tool);
            report_grid_cell(&g, "%s", e->file->tool_version ? e->file->tool_version : "-");
            report_grid_cell(&g, "%s", e->figure->test ? e->figure->test : "-");
            report_grid_cell(&g, "%s", e->figure->metric ? e->figure->metric : "-");
            cell_num(&g, e->figure->value);
            report_grid_cell(&g, "%s", results_peer_unit_name(e->figure->unit));
            counterpart cp = counterpart_of(m, e);
            report_grid_cell(&g, "%s", cp.what && results_merge_not_nan(cp.value) ? cp.what : "-");
            if (results_merge_not_nan(cp.value))
                report_grid_cell(&g, "%s %s", REPORT_FIXED(cp.value, 2), cp.unit);
            else
                report_grid_cell(&g, "-");
            cell_num(&g, e->figure->role == RESULTS_PEER_READ || e->figure->role == RESULTS_PEER_STREAM ? peak_of(m, e)
                                                                                                       : NAN);
            report_grid_cell(&g, "%s", e->figure->note ? e->figure->note : "-");
            report_grid_cell(&g, "%s", e->file->name);
        }
    }
    report_grid_emit(&g, 5, md, out);
    report_grid_free(&g);
    free(col);
}

void report_peer_table_csv(const results_merged *m, bw_buf *out)
{
    const results_peer_set *s = peers_of(m);
    if (!s)
        return;
    bw_buf_puts(out, "\npeer_tool,tool_version,file,device,column,test,metric,role,value,unit,gbs,seq_gbs,"
                     "tuned_peak_gbs,bwlab_counterpart,bwlab_value,bwlab_unit,note\n");
    for (size_t i = 0; i < s->n_entries; i++) {
        const results_peer_entry *e = &s->entries[i];
        const results_peer_figure *f = e->figure;
        report_csv_field(out, e->file->tool);
        const char *str[] = { e->file->tool_version, e->file->name, e->device >= 0 ? m->devices[e->device].label : NULL,
                              e->column, f->test, f->metric, results_peer_role_name(f->role) };
        for (size_t k = 0; k < sizeof str / sizeof *str; k++) {
            bw_buf_putc(out, ',');
            if (str[k])
                report_csv_field(out, str[k]);
        }
        report_csv_num(out, f->value, 1);
        bw_buf_putc(out, ',');
        report_csv_field(out, results_peer_unit_name(f->unit));
        report_csv_num(out, f->value, f->unit == RESULTS_PEER_GBS);
        double seq = seq_of(m, e), peak = peak_of(m, e);
        report_csv_num(out, seq, results_merge_not_nan(seq));
        report_csv_num(out, peak, results_merge_not_nan(peak));
        counterpart c = counterpart_of(m, e);
        int have = results_merge_not_nan(c.value);
        bw_buf_putc(out, ',');
        if (have)
            report_csv_field(out, c.what);
        report_csv_num(out, c.value, have);
        bw_buf_putc(out, ',');
        if (have)
            report_csv_field(out, c.unit);
        bw_buf_putc(out, ',');
        if (f->note)
            report_csv_field(out, f->note);
        bw_buf_putc(out, '\n');
    }
}

bw_code report_peer_table_json(const results_merged *m, json_t *root, bw_error *err)
{
    const results_peer_set *s = peers_of(m);
    if (!s)
        return BW_OK;
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < s->n_entries; i++) {
        const results_peer_entry *e = &s->entries[i];
        const results_peer_figure *f = e->figure;
        json_t *o = json_object();
        int gbs = f->unit == RESULTS_PEER_GBS;
        json_object_set_new(o, CK(TOOL), json_string(e->file->tool));
        json_object_set_new(o, CK(TOOL_VERSION), results_json_text(e->file->tool_version));
        json_object_set_new(o, CK(FILE), results_json_text(e->file->name));
        json_object_set_new(o, CK(DEVICE), results_json_text(e->device >= 0 ? m->devices[e->device].label : NULL));
        json_object_set_new(o, CK(TEST), results_json_text(f->test));
        json_object_set_new(o, CK(METRIC), results_json_text(f->metric));
        json_object_set_new(o, CK(GBS), results_json_real(f->value, gbs));
        /* a figure that is no bandwidth carries its own value and unit */
        if (!gbs) {
            json_object_set_new(o, CK(VALUE), results_json_real(f->value, 1));
            json_object_set_new(o, CK(UNIT), json_string(results_peer_unit_name(f->unit)));
        }
        json_object_set_new(o, CK(NOTE), results_json_text(f->note));
        counterpart c = counterpart_of(m, e);
        json_t *b = json_null();
        if (results_merge_not_nan(c.value)) {
            b = json_object();
            json_object_set_new(b, CK(WHAT), json_string(c.what));
            json_object_set_new(b, CK(VALUE), json_real(c.value));
            json_object_set_new(b, CK(UNIT), json_string(c.unit));
        }
        json_object_set_new(o, CK(BWLAB), b);
        if (json_array_append_new(arr, o) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    if (!arr || json_object_set_new(root, CK(PEERS), arr) != 0)
        return bw_error_set(err, BW_E_NOMEM, "out of memory building JSON");
    return BW_OK;
}

static void html_table(const results_merged *m, const results_peer_set *s, const size_t *col, size_t nc, bw_buf *o)
{
    static const char *const head[] = { "device", "tool", "version", "test", "metric",
                                        "value (measured by the tool)", "unit", "bwlab seq GB/s (measured)",
                                        "tuned peak GB/s (measured)", "note", "file" };
    report_html_table_open(o, "peers-table", head, sizeof head / sizeof *head);
    for (size_t k = 0; k < nc; k++) {
        const results_peer_entry *e;
        for (size_t i = col[k]; (e = in_column(s, col[k], &i));) {
            /* what bwlab's columns read where no bwlab run matched */
            const char *no_run = e->device < 0 ? "no bwlab run" : NULL;
            report_html_row(o);
            report_html_text(o, e->column);
            report_html_text(o, e->file->tool);
            report_html_text(o, e->file->tool_version);
            report_html_text(o, e->figure->test);
            report_html_text(o, e->figure->metric);
            report_html_num(o, e->figure->value, NULL, NULL);
            report_html_text(o, results_peer_unit_name(e->figure->unit));
            report_html_num(o, seq_of(m, e), NULL, no_run);
            report_html_num(o, peak_of(m, e), NULL, no_run);
            report_html_text(o, e->figure->note);
            report_html_text(o, e->file->name);
            report_html_row_end(o);
        }
    }
    report_html_table_close(o);
}

/* one bar at x, with its tooltip */
static void bar(report_chart *c, int series, double x, double gbs, const char *column, const char *what)
{
    char tip[512];
    snprintf(tip, sizeof tip, "%s: %s %s GB/s (measured)", column, what, REPORT_FIXED(gbs, 2));
    report_chart_rect(c, series, x + 0.1, 0, x + 0.9, gbs, tip);
}

/* The chart of one device column (its first entry `first`): bars of bwlab
 * seq, the tuned peak, then each peer bandwidth figure in entry order. */
static report_chart *peer_chart(const results_merged *m, const results_peer_set *s, size_t first, int k)
{
    char id[32];
    snprintf(id, sizeof id, "peers-%d", k);
    report_chart *c = report_chart_new(id, "bwlab and the peers, same device");
    if (!c)
        return NULL;
    const results_peer_entry *f = &s->entries[first];
    char sub[300];
    snprintf(sub, sizeof sub, "%s%s", f->column, f->device < 0 ? " (no bwlab run)" : "");
    report_chart_subtitle(c, sub);
    report_chart_axis(c, 'x', "bar: bwlab seq, tuned peak, then each peer figure (hover for its name)",
                      REPORT_AXIS_LINEAR);
    report_chart_axis(c, 'y', "GB/s (measured)", REPORT_AXIS_LINEAR);
    report_chart_style st[4] = { { .colour = 0 }, { .colour = 1 }, { .colour = 2 }, { .colour = 4 } };
    int sq = report_chart_series(c, "bwlab seq", REPORT_SERIES_RECTS, st[0]);
    int pk = report_chart_series(c, "tuned peak", REPORT_SERIES_RECTS, st[1]);
    int cp = report_chart_series(c, "clpeak", REPORT_SERIES_RECTS, st[2]);
    int bs = report_chart_series(c, "BabelStream", REPORT_SERIES_RECTS, st[3]);
    double x = 0, seq = seq_of(m, f), peak = peak_of(m, f);
    if (results_merge_not_nan(seq))
        bar(c, sq, x++, seq, f->column, "bwlab seq (copy mode)");
    if (results_merge_not_nan(peak))
        bar(c, pk, x++, peak, f->column, "bwlab tuned peak");
    const results_peer_entry *e;
    for (size_t i = first; (e = in_column(s, first, &i));) {
        if (!results_peer_entry_charted(e))
            continue;
        char what[256];
        snprintf(what, sizeof what, "%s %s %s%s", e->file->tool, e->figure->test ? e->figure->test : "",
                 e->figure->metric ? e->figure->metric : "", e->figure->note ? " (may not be a DRAM figure)" : "");
        bar(c, !strcmp(e->file->tool, "clpeak") ? cp : bs, x++, e->figure->value, e->column, what);
    }
    report_chart_range(c, 'x', 0, x > 1 ? x : 1);
    return c;
}

/* The figure: a chart per device column that has a bar; their points */
static bw_code html_charts(const results_merged *m, const results_peer_set *s, const size_t *col, size_t nc,
                           bw_buf *o, bw_error *err)
{
    report_chart **charts = calloc(nc, sizeof *charts);
    if (!charts)
        return bw_error_set(err, BW_E_NOMEM, "out of memory while writing the HTML report");
    size_t n = 0, points = 0;
    bw_code rc = BW_OK;
    for (size_t k = 0; k < nc && rc == BW_OK; k++) {
        report_chart *c = peer_chart(m, s, col[k], (int)k);
        if (!c)
            rc = bw_error_set(err, BW_E_NOMEM, "out of memory while writing the HTML report");
        else if (report_chart_count(c) == 0)
            report_chart_free(c);
        else
            points += report_chart_count(charts[n++] = c);
    }
    if (rc == BW_OK) {
        bw_buf_printf(o, "<section class=\"figure\" id=\"fig-peers\" data-figure=\"peers\" data-charts=\"%zu\" "
                         "data-points=\"%zu\">\n<h3>bwlab and the peers, same device</h3>\n<p>Per device: bwlab's seq "
                         "(copy mode) and tuned peak, then each peer read or stream figure in GB/s, all measured "
                         "(host transfers, compute peaks and latencies are in the table only).</p>\n",
                      n, points);
        if (!n)
            bw_buf_puts(o, "<p class=\"absent\">Not drawn: no device column has a bandwidth figure.</p>\n");
        bw_buf_puts(o, "<div class=\"charts\">\n");
        for (size_t k = 0; k < n && rc == BW_OK; k++)
            rc = report_chart_svg(charts[k], o, err);
        bw_buf_puts(o, "</div>\n</section>\n");
    }
    for (size_t k = 0; k < n; k++)
        report_chart_free(charts[k]);
    free(charts);
    return rc;
}

bw_code report_peer_table_html(const results_merged *m, bw_buf *o, bw_error *err)
{
    const results_peer_set *s = peers_of(m);
    if (!s)
        return BW_OK;
    size_t *col = malloc(s->n_entries * sizeof *col);
    if (!col)
        return bw_error_set(err, BW_E_NOMEM, "out of memory while writing the HTML report");
    size_t nc = columns(s, col);
    bw_buf_puts(o, "<section id=\"peers\"><h2>Peers: clpeak and BabelStream</h2>\n<p>Figures of peer tools' "
                   "files (measured by those tools), each in the column of the bwlab device it matches (name and "
                   "driver), else of its own device, beside that device's bwlab seq (copy mode) and tuned peak "
                   "(measured).</p>\n");
    html_table(m, s, col, nc, o);
    bw_code rc = html_charts(m, s, col, nc, o, err);
    bw_buf_puts(o, "</section>\n");
    free(col);
    return rc;
}
