/* report_figures: which marks each chart of the report holds, and the kind
 * of every number in their tooltips (report_figures.h). */
#include "report_figures.h"
#include "report_figure_kit.h"
#include "report_section.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_buf.h"
#include "model_geometry.h"
#include "report_format.h"
#include "model_pattern.h"
#include "model_warp.h"

static char *str_printf(const char *fmt, ...) BW_PRINTF(1, 2);
static char *str_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* A tooltip or legend string: formatted into a reusable buffer. */
const char *report_fig_tip(bw_buf *b, const char *fmt, ...)
{
    bw_buf_reset(b);
    va_list ap;
    va_start(ap, fmt);
    char tmp[1024];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    bw_buf_puts(b, tmp);
    return bw_buf_str(b);
}

double report_figures_modeled_relative(const char *access, double p, double p_seq)
{
    if (!(p > 0) || !(p_seq > 0))
        return NAN;
    if (access && strcmp(access, "read") == 0)
        return p / p_seq;
    return 2 * p / (p + p_seq);
}

static int str_eq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* The loads' modeled efficiency of an entry: model.predicted_efficiency
 * (requested / instruction-model bytes of the loads), or warp 0's sector
 * efficiency where a file lacks it (the same for patterns whose warps all
 * look alike). NAN when neither is there. */
static double load_efficiency(const results_merge_entry *e)
{
    if (!e)
        return NAN;
    return results_merge_not_nan(e->predicted_efficiency) ? e->predicted_efficiency : e->sector_efficiency;
}

/* The modeled efficiency of the pattern's side of an entry in its access
 * mode: the loads' (read, copy), or the stores' in write mode, whose loads
 * are src[g], coalesced. NAN when the file lacks it. */
static double mode_efficiency(const results_merge_entry *e, const char *access)
{
    if (e && str_eq(access, "write"))
        return e->store_efficiency;
    return load_efficiency(e);
}

int report_fig_is_global(const results_merge_row *r)
{
    return !r->space || strcmp(r->space, "local") != 0;
}

/* The row of `seq` (4-byte elements) in an access mode, or -1. */
static long seq_row(const results_merged *m, const char *access)
{
    for (size_t i = 0; i < m->n_rows; i++)
        if (str_eq(m->rows[i].pattern, "seq") && str_eq(m->rows[i].access, access))
            return (long)i;
    return -1;
}

static double seq_figure(const results_merged *m, const char *access, size_t d, int gbs)
{
    long r = seq_row(m, access);
    const results_merge_entry *e = r >= 0 ? results_merged_entry(m, (size_t)r, d) : NULL;
    if (!e)
        return NAN;
    return gbs ? e->effective_gbs : mode_efficiency(e, access);
}

/* The stride s of a "stride:s=N" pattern with 4-byte elements, else 0. */
static long long stride_of(const char *spec)
{
    model_pattern *p = NULL;
    long long s = 0;
    if (model_pattern_parse(spec, 32, 0, &p, NULL) == BW_OK && p &&
        strcmp(p->family->name, "stride") == 0 && p->elem == 4)
        s = (long long)model_pattern_param_value(p, "s");
    model_pattern_free(p);
    return s;
}

static int add_chart(report_figure *f, report_chart *c)
{
    report_chart **n = realloc(f->charts, (f->n_charts + 1) * sizeof *n);
    if (!n) {
        report_chart_free(c);
        return -1;
    }
    f->charts = n;
    f->charts[f->n_charts++] = c;
    return 0;
}


/* A new chart in frame fr, added to f; NULL when memory runs out. */
static report_chart *open_chart(report_figure *f, const report_frame *fr)
{
    report_chart *c = report_chart_new(fr->id, fr->title);
    if (!c || add_chart(f, c) != 0)
        return NULL;
    if (fr->width)
        report_chart_size(c, fr->width, fr->height);
    report_chart_subtitle(c, fr->subtitle);
    report_chart_axis(c, 'x', fr->x_label, fr->x_scale);
    if (fr->x_bytes)
        report_chart_axis_bytes(c, 'x');
    report_chart_axis(c, 'y', fr->y_label, fr->y_scale);
    return c;
}

report_chart_style report_fig_style(int colour, int dashed, report_marker mk, int hollow)
{
    report_chart_style s = { colour, dashed, mk, hollow, 0, 0 };
    return s;
}

int report_fig_colour(size_t device)
{
    return (int)(device % REPORT_COLOURS);
}

/* The one chart of a figure that draws only where the inputs hold its
 * marks: *c, opened in frame fr at the first mark. NULL when memory runs
 * out. */
report_chart *report_fig_chart_once(report_figure *f, report_chart **c, const report_frame *fr)
{
    if (!*c)
        *c = open_chart(f, fr);
    return *c;
}

/* Series *s of chart c, added at its first point (while *s is REPORT_FIG_NO_SERIES). */
int report_fig_series_once(report_chart *c, int *s, const char *name, report_series_kind kind,
                       report_chart_style style)
{
    if (*s == REPORT_FIG_NO_SERIES)
        *s = report_chart_series(c, name, kind, style);
    return *s;
}

/* A series of one source of marks (a device, run or probe record) named
 * `name`: its legend "NAME, WHAT". */
static int named_series(report_chart *c, bw_buf *t, const char *name, const char *what,
                        report_series_kind kind, report_chart_style style)
{
    return report_chart_series(c, report_fig_tip(t, "%s, %s", name, what), kind, style);
}

/* Ends a builder: a figure that holds no chart says why instead. */
int report_fig_absent_unless_drawn(report_figure *f, const char *why)
{
    if (f->n_charts == 0)
        f->absent = str_printf("%s", why);
    return 0;
}

/* ---- 1. effective bandwidth against stride --------------------------- */

typedef struct stride_row {
    size_t row;
    long long s;
} stride_row;

static int by_stride(const void *a, const void *b)
{
    long long x = ((const stride_row *)a)->s, y = ((const stride_row *)b)->s;
    return (x > y) - (x < y);
}

/* One device's lines in the stride chart of access mode `mode` over the
 * rows sr[0..n-1]: the measured medians, and the modeled line from the
 * device's measured seq where it has one. */
static void stride_lines(report_chart *c, const results_merged *m, const stride_row *sr, size_t n,
                         const char *mode, size_t d, bw_buf *t)
{
    const char *label = m->devices[d].label;
    int any = 0;
    for (size_t k = 0; k < n; k++) {
        const results_merge_entry *e = results_merged_entry(m, sr[k].row, d);
        any |= e && results_merge_not_nan(e->effective_gbs);
    }
    if (!any)
        return;
    int ms = named_series(c, t, label, "measured", REPORT_SERIES_LINE_POINTS,
                          report_fig_style(report_fig_colour(d), 0, REPORT_MARKER_CIRCLE, 0));
    for (size_t k = 0; k < n; k++) {
        const results_merge_entry *e = results_merged_entry(m, sr[k].row, d);
        double v = e ? e->effective_gbs : NAN;
        report_chart_point(c, ms, (double)sr[k].s, v,
                           report_fig_tip(t, "%s, %s, %s: %s GB/s measured (median of %zu)", label,
                                m->rows[sr[k].row].pattern, mode, REPORT_FIXED(v, 3),
                                e ? e->n_measured : (size_t)0));
    }
    double seq_gbs = seq_figure(m, mode, d, 1), p_seq = seq_figure(m, mode, d, 0);
    if (!results_merge_not_nan(seq_gbs) || !results_merge_not_nan(p_seq))
        return;
    int ds = named_series(c, t, label, "modeled", REPORT_SERIES_LINE_POINTS,
                          report_fig_style(report_fig_colour(d), 1, REPORT_MARKER_CIRCLE, 1));
    for (size_t k = 0; k < n; k++) {
        const results_merge_entry *e = results_merged_entry(m, sr[k].row, d);
        double rel = report_figures_modeled_relative(mode, mode_efficiency(e, mode), p_seq);
        report_chart_point(c, ds, (double)sr[k].s, seq_gbs * rel,
                           report_fig_tip(t,
                                "%s, %s, %s: %s GB/s modeled (seq's %s GB/s measured x the "
                                "model's bandwidth relative to seq %s)",
                                label, m->rows[sr[k].row].pattern, mode, REPORT_FIXED(seq_gbs * rel, 3),
                                REPORT_FIXED(seq_gbs, 3), REPORT_FIXED(rel, 3)));
    }
}

static int build_stride(const results_merged *m, report_figure *f, bw_buf *t)
{
    static const char *const modes[] = { "copy", "read", "write" };
    stride_row *sr = calloc(m->n_rows ? m->n_rows : 1, sizeof *sr);
    if (!sr)
        return -1;
    for (int mi = 0; mi < (int)(sizeof modes / sizeof *modes); mi++) {
        size_t n = 0;
        for (size_t i = 0; i < m->n_rows; i++) {
            if (!str_eq(m->rows[i].access, modes[mi]) || !report_fig_is_global(&m->rows[i]))
                continue;
            long long s = stride_of(m->rows[i].pattern);
            if (s > 0)
                sr[n++] = (stride_row){ i, s };
        }
        if (n == 0)
            continue;
        qsort(sr, n, sizeof *sr, by_stride);
        char id[32];
        snprintf(id, sizeof id, "stride-%s", modes[mi]);
        const report_frame fr = { id, report_fig_tip(t, "Effective bandwidth against stride, %s access", modes[mi]),
                           "solid: measured median; dashed: modeled from the device's measured seq",
                           "stride s (elements of 4 B apart, log2 scale)", "effective bandwidth (GB/s, log10 scale)",
                           REPORT_AXIS_LOG2, REPORT_AXIS_LOG10, 0, 0, 0 };
        report_chart *c = open_chart(f, &fr);
        if (!c) {
            free(sr);
            return -1;
        }
        for (size_t d = 0; d < m->n_devices; d++)
            stride_lines(c, m, sr, n, modes[mi], d, t);
    }
    free(sr);
    return report_fig_absent_unless_drawn(f, "The results hold no stride:s=N pattern with 4-byte elements.");
}

/* ---- 2. measured relative against modeled ---------------------------- */

static int build_model(const results_merged *m, report_figure *f, bw_buf *t)
{
    static const char *const modes[] = { "copy", "read", "write" };
    /* the legend names write's squares only where there are write rows */
    int writes = 0;
    for (size_t i = 0; i < m->n_rows; i++)
        writes |= str_eq(m->rows[i].access, "write");
    const report_frame fr = { "model", "Measured against modeled, every pattern and device",
                       writes ? "filled: copy access; hollow: read access; squares: write access; on the line, "
                                "measured as modeled"
                              : "filled: copy access; hollow: read access; on the line, measured as modeled",
                       "bandwidth relative to seq (modeled, same access mode)",
                       "measured bandwidth relative to seq (measured)", REPORT_AXIS_LINEAR,
                       REPORT_AXIS_LINEAR, 0, 0, 0 };
    report_chart *c = open_chart(f, &fr);
    if (!c)
        return -1;
    report_chart_series(c, "y = x: measured as modeled", REPORT_SERIES_DIAGONAL,
                        report_fig_style(REPORT_COLOUR_GREY, 1, REPORT_MARKER_CIRCLE, 0));
    for (size_t d = 0; d < m->n_devices; d++) {
        for (int mi = 0; mi < (int)(sizeof modes / sizeof *modes); mi++) {
            double p_seq = seq_figure(m, modes[mi], d, 0);
            int s = REPORT_FIG_NO_SERIES;
            for (size_t i = 0; i < m->n_rows; i++) {
                const results_merge_row *r = &m->rows[i];
                if (!str_eq(r->access, modes[mi]) || !report_fig_is_global(r) || str_eq(r->family, "seq") ||
                    strncmp(r->pattern, "seq", 3) == 0)
                    continue;
                const results_merge_entry *e = results_merged_entry(m, i, d);
                if (!e || !results_merge_not_nan(e->relative_to_seq))
                    continue;
                double x = report_figures_modeled_relative(modes[mi], mode_efficiency(e, modes[mi]), p_seq);
                if (!results_merge_not_nan(x))
                    continue;
                report_fig_series_once(c, &s, report_fig_tip(t, "%s, %s", m->devices[d].label, modes[mi]), REPORT_SERIES_POINTS,
                            report_fig_style(report_fig_colour(d), 0, mi == 2 ? REPORT_MARKER_SQUARE : REPORT_MARKER_CIRCLE,
                                     mi == 1));
                report_chart_point(c, s, x, e->relative_to_seq,
                                   report_fig_tip(t, "%s, %s, %s: %s relative to seq (measured), %s (modeled)",
                                        m->devices[d].label, r->pattern, modes[mi],
                                        REPORT_FIXED(e->relative_to_seq, 3), REPORT_FIXED(x, 3)));
            }
        }
    }
    if (report_chart_count(c) == 0) {
        report_chart_free(c);
        f->n_charts = 0;
    }
    return report_fig_absent_unless_drawn(f, "The results hold no pattern with both a measured relative_to_seq "
                                  "and a modeled efficiency beside a seq.");
}

/* ---- 3. the address ramp --------------------------------------------- */

static const char *const RAMP_PATTERNS[] = {
    "seq", "offset", "stride:s=2", "reverse", "broadcast", "matrix-col",
};
#define RAMP_RULES_MAX 80

/* the sectors the warp touches, each once, from its sorted addresses
 * (modeled; sectors of them in all) */
static void ramp_sectors(report_chart *c, const model_geometry *geo, int64_t elem, const int64_t *sorted,
                         int n_active, int64_t sectors, bw_buf *t)
{
    int rs = report_chart_series(c, "touched sector (modeled)", REPORT_SERIES_RECTS,
                                 report_fig_style(1, 0, REPORT_MARKER_SQUARE, 0));
    int64_t last = INT64_MIN;
    int64_t k = 0;
    for (int i = 0; i < n_active; i++) {
        for (int64_t sec = model_unit_of(sorted[i], geo->sector);
             sec <= model_unit_of(sorted[i] + elem - 1, geo->sector); sec++) {
            if (sec <= last)
                continue;
            last = sec;
            k++;
            report_chart_rect(c, rs, -0.5, (double)(sec * geo->sector), (double)geo->lanes - 0.5,
                              (double)((sec + 1) * geo->sector),
                              report_fig_tip(t, "sector %lld: bytes %lld-%lld, touched (modeled; %lld of %lld)",
                                   (long long)sec, (long long)(sec * geo->sector),
                                   (long long)((sec + 1) * geo->sector - 1), (long long)k,
                                   (long long)sectors));
        }
    }
}

/* the sector and line boundaries over the sectors v_lo..v_hi shown, when
 * they are few enough to draw */
static void ramp_rules(report_chart *c, const model_geometry *geo, int64_t v_lo, int64_t v_hi, bw_buf *t)
{
    int64_t span_sectors = v_hi - v_lo + 1;
    if (geo->sector != geo->line && span_sectors + 1 <= RAMP_RULES_MAX) {
        int hs = report_chart_series(c, report_fig_tip(t, "sector boundary (S = %lld B)", (long long)geo->sector),
                                     REPORT_SERIES_HRULES,
                                     report_fig_style(REPORT_COLOUR_GREY, 1, REPORT_MARKER_CIRCLE, 0));
        for (int64_t sec = v_lo; sec <= v_hi + 1; sec++)
            report_chart_point(c, hs, 0, (double)(sec * geo->sector), NULL);
    }
    int64_t l_lo = model_unit_of(v_lo * geo->sector, geo->line);
    int64_t l_hi = model_unit_of((v_hi + 1) * geo->sector, geo->line);
    if (l_hi - l_lo + 1 <= RAMP_RULES_MAX) {
        int hl = report_chart_series(c,
                                     geo->sector == geo->line
                                         ? report_fig_tip(t, "sector = line boundary (%lld B)", (long long)geo->line)
                                         : report_fig_tip(t, "line boundary (L = %lld B)", (long long)geo->line),
                                     REPORT_SERIES_HRULES,
                                     report_fig_style(6, 0, REPORT_MARKER_CIRCLE, 0));
        for (int64_t l = l_lo; l <= l_hi; l++)
            report_chart_point(c, hl, 0, (double)(l * geo->line), NULL);
    }
}

/* each active lane's first byte (requested) */
static void ramp_lanes(report_chart *c, const model_pattern *p, const int64_t *addr, int W, bw_buf *t)
{
    int ls = report_chart_series(c, "lane's first byte (requested)", REPORT_SERIES_POINTS,
                                 report_fig_style(0, 0, REPORT_MARKER_CIRCLE, 0));
    for (int lane = 0; lane < W; lane++)
        if (model_lanes_has(&p->active, lane))
            report_chart_point(c, ls, lane, (double)addr[lane],
                               report_fig_tip(t, "lane %d: bytes %lld-%lld (requested, %lld B)", lane,
                                    (long long)addr[lane], (long long)(addr[lane] + p->elem - 1),
                                    (long long)p->elem));
}

static int build_ramp_one(report_figure *f, const model_geometry *geo, const char *spec, bw_buf *t,
                          size_t index)
{
    model_pattern *p = NULL;
    if (model_pattern_parse(spec, geo->lanes, 0, &p, NULL) != BW_OK || !p)
        return 0; /* not in this catalogue: no small multiple */
    int W = geo->lanes, rc = -1;
    int64_t *addr = calloc((size_t)W, sizeof *addr);
    int64_t *sorted = calloc((size_t)W, sizeof *sorted);
    report_chart *c = NULL;
    if (!addr || !sorted)
        goto done;
    int n_active = 0;
    for (int lane = 0; lane < W; lane++) {
        if (!model_lanes_has(&p->active, lane))
            continue;
        model_expr_env env = { lane, 0, lane, W };
        if (model_expr_eval(p->expr, &env, &addr[lane], NULL) != BW_OK) {
            rc = 0;
            goto done;
        }
        sorted[n_active++] = addr[lane];
    }
    model_warp wc;
    if (n_active == 0 || model_warp_count(geo, p->elem, addr, &p->active, &wc, NULL) != BW_OK) {
        rc = 0;
        goto done;
    }
    char id[32];
    snprintf(id, sizeof id, "ramp-%zu", index);
    c = report_chart_new(id, p->spec);
    if (!c)
        goto done;
    report_chart_size(c, 330, 300);
    report_chart_subtitle(c, report_fig_tip(t, "%lld sector%s, %.1f%% efficient (modeled)",
                                  (long long)wc.sectors, wc.sectors == 1 ? "" : "s",
                                  100 * wc.sector_efficiency));
    report_chart_axis(c, 'x', "lane t (warp 0)", REPORT_AXIS_LINEAR);
    report_chart_axis(c, 'y', "byte address (B)", REPORT_AXIS_LINEAR);
    /* the touched sectors, each once, from the sorted addresses */
    model_unit_counts uc;
    model_warp_units(sorted, n_active, p->elem, geo->sector, geo->line, &uc);
    int64_t s_lo = model_unit_of(uc.min_addr, geo->sector);
    int64_t s_hi = model_unit_of(uc.max_byte, geo->sector);
    report_chart_range(c, 'x', -0.5, W - 0.5);
    /* one untouched sector either side (none below address 0) */
    int64_t v_lo = s_lo > 0 ? s_lo - 1 : s_lo, v_hi = s_hi + 1;
    report_chart_range(c, 'y', (double)(v_lo * geo->sector), (double)((v_hi + 1) * geo->sector));
    ramp_sectors(c, geo, p->elem, sorted, n_active, wc.sectors, t);
    ramp_rules(c, geo, v_lo, v_hi, t);
    ramp_lanes(c, p, addr, W, t);
    if (add_chart(f, c) != 0) {
        c = NULL;
        goto done;
    }
    c = NULL;
    rc = 0;
done:
    report_chart_free(c);
    free(addr);
    free(sorted);
    model_pattern_free(p);
    return rc;
}

static int build_ramp(const results_merged *m, report_figure *f, bw_buf *t)
{
    /* the first device whose sectors are smaller than its lines (both grids
     * show), else the first with units at all */
    long dev = -1;
    for (int pass = 0; pass < 2 && dev < 0; pass++)
        for (size_t d = 0; d < m->n_devices && dev < 0; d++) {
            const results_merge_device *v = &m->devices[d];
            if (v->lanes > 0 && v->sector_bytes > 0 && v->line_bytes > 0 &&
                (pass == 1 || v->sector_bytes < v->line_bytes))
                dev = (long)d;
        }
    if (dev < 0) {
        f->absent = str_printf("No device in the results names its profile's warp width, sector and line.");
        return 0;
    }
    const results_merge_device *d = &m->devices[dev];
    model_geometry geo = { (int)d->lanes, d->sector_bytes, d->line_bytes, 0, 0, 0 };
    if (model_geometry_check(&geo, NULL) != BW_OK) {
        f->absent = str_printf("The profile of %s (W = %lld, S = %lld B, L = %lld B) is not one the "
                               "model accepts.", d->label, d->lanes, d->sector_bytes, d->line_bytes);
        return 0;
    }
    free(f->caption);
    f->caption = str_printf(
        "What the model counts: warp 0's byte addresses (requested) against its lanes, under the "
        "profile %s of %s (W = %lld, S = %lld B, L = %lld B), with the sector and line grid and "
        "the sectors the warp touches shaded (modeled). One small multiple per main pattern.",
        d->profile ? d->profile : "(unnamed)", d->label, d->lanes, d->sector_bytes, d->line_bytes);
    if (!f->caption)
        return -1;
    size_t n = sizeof RAMP_PATTERNS / sizeof RAMP_PATTERNS[0];
    for (size_t i = 0; i < n; i++)
        if (build_ramp_one(f, &geo, RAMP_PATTERNS[i], t, i) != 0)
            return -1;
    return 0;
}

/* ---- 4. roofline ------------------------------------------------------ */

/* One run's roofline, named `name`: its measured sweep, and under it the
 * roof min(P, I x B) over the intensities swept. */
static void roofline_lines(report_chart *c, const results_merge_run *run, const char *name, int col, bw_buf *t)
{
    int ps = named_series(c, t, name, "measured", REPORT_SERIES_LINE_POINTS,
                          report_fig_style(col, 0, REPORT_MARKER_SQUARE, 0));
    double imin = INFINITY, imax = -INFINITY;
    for (size_t k = 0; k < run->n_roof_points; k++) {
        const results_merge_roof_point *pt = &run->roof_points[k];
        if (pt->intensity > 0) {
            imin = fmin(imin, pt->intensity);
            imax = fmax(imax, pt->intensity);
        }
        report_chart_point(c, ps, pt->intensity, pt->gflops,
                           report_fig_tip(t, "%s: %.4g FLOP/byte (requested), %s GFLOP/s and %s GB/s "
                                   "(measured)",
                                name, pt->intensity, REPORT_FIXED(pt->gflops, 3), REPORT_FIXED(pt->gbs, 3)));
    }
    double P = run->roof_peak_gflops, B = run->roof_peak_gbs;
    if (!(P > 0 && B > 0 && imin <= imax))
        return;
    int rs = named_series(c, t, name, "roof (modeled)", REPORT_SERIES_LINE,
                          report_fig_style(col, 1, REPORT_MARKER_CIRCLE, 0));
    double ridge = P / B;
    report_chart_point(c, rs, imin, fmin(P, imin * B), NULL);
    if (ridge > imin && ridge < imax)
        report_chart_point(c, rs, ridge, P, NULL);
    report_chart_point(c, rs, imax, fmin(P, imax * B), NULL);
}

static int build_roofline(const results_merged *m, report_figure *f, bw_buf *t)
{
    static const report_frame fr = { "roofline", "Roofline",
                              "points: measured sweep; dashed: the roof min(P, I x B) modeled from the measured "
                              "peaks",
                              "arithmetic intensity (FLOP/byte, requested; log2 scale)",
                              "performance (GFLOP/s, log10 scale)", REPORT_AXIS_LOG2, REPORT_AXIS_LOG10, 0, 0, 0 };
    report_chart *c = NULL;
    for (size_t r = 0; r < m->n_runs; r++) {
        const results_merge_run *run = &m->runs[r];
        if (!run->has_roofline || run->n_roof_points == 0)
            continue;
        if (!report_fig_chart_once(f, &c, &fr))
            return -1;
        const results_merge_device *d = &m->devices[run->device];
        char *name = d->n_runs > 1 ? str_printf("%s (run %zu)", d->label, r + 1)
                                   : str_printf("%s", d->label);
        if (!name)
            return -1;
        roofline_lines(c, run, name, report_fig_colour(run->device), t);
        free(name);
    }
    return report_fig_absent_unless_drawn(f, "The results carry no roofline (runs[].roofline: bwlab run without "
                                  "--no-roofline measures one).");
}

/* ---- 6-8. the probe's charts ------------------------------------------- */

/* Whether a probe record draws in a ladder chart (ladder) or in the
 * transfers chart (else). */
static int probe_draws(const results_merge_probe *p, int ladder)
{
    return (ladder ? p->n_ladder : p->n_transfers) != 0;
}

/* The name of a probe record's line: the device's label, with "(probe K)"
 * when the device has more than one record that draws in this chart. */
static char *probe_name(const results_merged *m, size_t k, int ladder)
{
    const results_merge_probe *p = &m->probes[k];
    size_t n = 0;
    for (size_t i = 0; i < m->n_probes; i++)
        if (m->probes[i].device == p->device && probe_draws(&m->probes[i], ladder))
            n++;
    const char *label = m->devices[p->device].label;
    return n > 1 ? str_printf("%s (%s %zu)", label, p->from_run ? "run --transfers, record" : "probe", k + 1)
                 : str_printf("%s", label);
}

/* Draws one probe record's marks in a probe chart: name is its line's
 * name, col its device's colour. */
typedef void (*probe_marks)(report_chart *c, const results_merge_probe *p, const char *name, int col, bw_buf *t);

/* A probe figure: one chart in frame fr over the records that draw in it
 * (ladder: those with a ladder; else those with transfers), each drawn by
 * marks; `why` says what the inputs lack when none does. */
static int probe_figure(const results_merged *m, report_figure *f, bw_buf *t, const report_frame *fr, int ladder,
                        probe_marks marks, const char *why)
{
    report_chart *c = NULL;
    for (size_t k = 0; k < m->n_probes; k++) {
        const results_merge_probe *p = &m->probes[k];
        if (!probe_draws(p, ladder))
            continue;
        if (!report_fig_chart_once(f, &c, fr))
            return -1;
        char *name = probe_name(m, k, ladder);
        if (!name)
            return -1;
        marks(c, p, name, report_fig_colour(p->device), t);
        free(name);
    }
    return report_fig_absent_unless_drawn(f, why);
}

/* A ladder figure: the probe records' ladders against the working set
 * (log2, in bytes), y on a log10 scale; `what` names the ladder where the
 * inputs carry none. */
static int ladder_figure(const results_merged *m, report_figure *f, bw_buf *t, const char *id, const char *title,
                         const char *subtitle, const char *y_label, probe_marks marks, const char *what)
{
    const report_frame fr = { id, title, subtitle, "working set (bytes, requested; log2 scale)", y_label,
                       REPORT_AXIS_LOG2, REPORT_AXIS_LOG10, 1, 0, 0 };
    char why[160];
    snprintf(why, sizeof why, "The inputs carry no %s (a bwlab probe results file: bwlab probe --format json "
             "--output FILE).", what);
    return probe_figure(m, f, t, &fr, 1, marks, why);
}

/* One line over a probe's ladder: at each working set the figure at
 * `offset` in its point (a double of results_merge_ladder_point), its
 * tooltip "NAME: B working set (requested): V WHAT (measured)". */
static void ladder_line(report_chart *c, int series, const results_merge_probe *p, size_t offset, const char *name,
                        const char *what, bw_buf *t)
{
    for (size_t i = 0; i < p->n_ladder; i++) {
        const results_merge_ladder_point *q = &p->ladder[i];
        double v;
        memcpy(&v, (const char *)q + offset, sizeof v);
        report_chart_point(c, series, q->bytes, v,
                           report_fig_tip(t, "%s: %s B working set (requested): %s %s (measured)", name,
                                REPORT_FIXED(q->bytes, 0), REPORT_FIXED(v, 3), what));
    }
}

static void cache_marks(report_chart *c, const results_merge_probe *p, const char *name, int col, bw_buf *t)
{
    int ls = named_series(c, t, name, "measured", REPORT_SERIES_LINE_POINTS,
                          report_fig_style(col, 0, REPORT_MARKER_CIRCLE, 0));
    ladder_line(c, ls, p, offsetof(results_merge_ladder_point, read_gbs), name, "GB/s read", t);
    if (!p->n_levels)
        return;
    int vs = named_series(c, t, name, "cache levels (measured)", REPORT_SERIES_POINTS,
                          report_fig_style(col, 0, REPORT_MARKER_DIAMOND, 1));
    for (size_t i = 0; i < p->n_levels; i++) {
        const results_merge_level *v = &p->levels[i];
        report_chart_point(c, vs, v->size_bytes, v->read_gbs,
                           report_fig_tip(t, "%s: cache level %zu (measured): plateau up to %s B, %s GB/s read, "
                                   "%s ns per load (medians, measured)",
                                name, i + 1, REPORT_FIXED(v->size_bytes, 0), REPORT_FIXED(v->read_gbs, 3),
                                REPORT_FIXED(v->latency_ns, 3)));
    }
}

static int build_cache(const results_merged *m, report_figure *f, bw_buf *t)
{
    return ladder_figure(m, f, t, "cache", "Cache ladder: read bandwidth against working set",
                         "circles: read GB/s per working set; hollow diamonds: detected cache levels",
                         "read bandwidth (GB/s, measured; log10 scale)", cache_marks, "cache ladder");
}

static void latency_marks(report_chart *c, const results_merge_probe *p, const char *name, int col, bw_buf *t)
{
    int one = named_series(c, t, name, "one work-item", REPORT_SERIES_LINE_POINTS,
                           report_fig_style(col, 0, REPORT_MARKER_CIRCLE, 0));
    ladder_line(c, one, p, offsetof(results_merge_ladder_point, latency_ns), name, "ns per load, one work-item", t);
    int any_cu = 0;
    for (size_t i = 0; i < p->n_ladder; i++)
        any_cu |= results_merge_not_nan(p->ladder[i].latency_per_cu_ns);
    if (!any_cu)
        return;
    int cu = named_series(c, t, name, "per compute unit", REPORT_SERIES_LINE_POINTS,
                          report_fig_style(col, 1, REPORT_MARKER_SQUARE, 1));
    ladder_line(c, cu, p, offsetof(results_merge_ladder_point, latency_per_cu_ns), name,
                "ns per load, one work-item per compute unit", t);
}

static int build_latency(const results_merged *m, report_figure *f, bw_buf *t)
{
    return ladder_figure(m, f, t, "latency", "Latency ladder: ns per dependent load against working set",
                         "solid: one work-item; dashed: one work-item per compute unit at once (all measured)",
                         "latency (ns per load, measured; log10 scale)", latency_marks, "latency ladder");
}

/* A record's transfers, one line per variant: line dash by memory, marker
 * by direction, hollow when not blocking. */
static void transfer_marks(report_chart *c, const results_merge_probe *p, const char *name, int col, bw_buf *t)
{
    static const char *const dirs[] = { "h2d", "d2h" }, *const mems[] = { "pinned", "pageable" };
    static const char *const dir_words[] = { "host to device", "device to host" };
    for (int di = 0; di < 2; di++)
        for (int mi = 0; mi < 2; mi++)
            for (int blk = 1; blk >= 0; blk--) {
                const char *blocking = blk ? "blocking" : "non-blocking";
                int s = REPORT_FIG_NO_SERIES;
                for (size_t i = 0; i < p->n_transfers; i++) {
                    const results_merge_transfer *x = &p->transfers[i];
                    if (strcmp(x->direction, dirs[di]) != 0 || strcmp(x->memory, mems[mi]) != 0 ||
                        x->blocking != blk)
                        continue;
                    report_fig_series_once(c, &s, report_fig_tip(t, "%s, %s, %s, %s", name, dirs[di], mems[mi], blocking),
                                REPORT_SERIES_LINE_POINTS,
                                report_fig_style(col, mi == 1, di ? REPORT_MARKER_SQUARE : REPORT_MARKER_CIRCLE, !blk));
                    report_chart_point(c, s, x->bytes, x->gbs,
                                       report_fig_tip(t, "%s: %s B %s, %s, %s (requested): %s GB/s, %s us per "
                                               "copy (measured)",
                                            name, REPORT_FIXED(x->bytes, 0), dir_words[di], mems[mi], blocking,
                                            REPORT_FIXED(x->gbs, 3), REPORT_FIXED(x->us, 2)));
                }
            }
}

static int build_transfers(const results_merged *m, report_figure *f, bw_buf *t)
{
    static const report_frame fr = { "transfers", "Host-device transfer bandwidth against size",
                              "colour: device; circle: h2d, square: d2h; solid: pinned, dashed: pageable; "
                              "hollow: non-blocking",
                              "copy size (bytes, requested; log2 scale)", "bandwidth (GB/s, measured; log10 scale)",
                              REPORT_AXIS_LOG2, REPORT_AXIS_LOG10, 1, 760, 400 };
    return probe_figure(m, f, t, &fr, 0, transfer_marks,
                        "The inputs carry no host-device transfers (bwlab probe --format json, or bwlab "
                        "run --transfers).");
}

/* ---- all ---------------------------------------------------------------- */

void report_figures_free(report_figure *figs, size_t n)
{
    for (size_t i = 0; figs && i < n; i++) {
        for (size_t k = 0; k < figs[i].n_charts; k++)
            report_chart_free(figs[i].charts[k]);
        free(figs[i].charts);
        free(figs[i].heading);
        free(figs[i].caption);
        free(figs[i].absent);
    }
    free(figs);
}

/* The report's own figures: those before the families' (their entries'
 * report_section.figure, in the table's order) and those after them */
static const report_figure_def FIGURES_BEFORE[] = {
    { "stride", "Effective bandwidth against stride",
      "One line per device: the measured median effective bandwidth of stride:s=N (requested "
      "bytes over the median kernel time). Dashed, in the same colour: the model's prediction, "
      "the device's measured seq bandwidth times the model's bandwidth relative to seq (read: p / p_seq; "
      "copy: 2p / (p + p_seq), the store being as coalesced as seq's load; p = requested / "
      "instruction-model bytes of the loads, or warp 0's sector efficiency where a file lacks "
      "it). What the device would reach if its time followed the modeled bytes: modeled, not "
      "a measurement.",
      build_stride },
    { "model", "Measured against modeled",
      "Every global-memory pattern on every device: measured bandwidth relative to seq (same "
      "run, same access mode) against the model's relative bandwidth. On the dashed line y = x the "
      "device behaves as the model counts; above it, it beats the model; below, it misses it.",
      build_model },
    { "ramp", "The address ramp", NULL, build_ramp },
    { "roofline", "Roofline",
      "Each device's short roofline sweep (measured GFLOP/s at each requested intensity) "
      "under its roof min(P, I x B), modeled from the measured peaks.",
      build_roofline },
};
static const report_figure_def FIGURES_AFTER[] = {
    { "cache", "Cache ladder",
      "bwlab probe's read sweep: the measured read bandwidth at each working-set size, one line per "
      "device, with the cache levels the probe detected (the largest working set on each plateau) "
      "marked.",
      build_cache },
    { "latency", "Latency ladder",
      "bwlab probe's pointer chase: the measured time per dependent load at each working-set size, one "
      "work-item (solid) and one work-item per compute unit at once (dashed), one colour per device.",
      build_latency },
    { "transfers", "Host-device transfers",
      "Copies between host and device (bwlab probe, or bwlab run --transfers): measured GB/s (bytes over "
      "the wall-clock time per copy) against the requested size, one line per device, direction, "
      "memory (pinned: CL_MEM_ALLOC_HOST_PTR and map; pageable: malloc) and blocking.",
      build_transfers },
};
#define N_BEFORE (sizeof FIGURES_BEFORE / sizeof FIGURES_BEFORE[0])
#define N_AFTER (sizeof FIGURES_AFTER / sizeof FIGURES_AFTER[0])

bw_code report_figures_build(const results_merged *m, report_figure **out, size_t *n, bw_error *err)
{
    *out = NULL;
    *n = 0;
    const report_figure_def *defs[N_BEFORE + REPORT_SECTIONS + N_AFTER];
    size_t nd = 0;
    for (size_t i = 0; i < N_BEFORE; i++)
        defs[nd++] = &FIGURES_BEFORE[i];
    for (size_t i = 0; i < REPORT_SECTIONS; i++)
        if (report_section_table[i]->figure)
            defs[nd++] = report_section_table[i]->figure;
    for (size_t i = 0; i < N_AFTER; i++)
        defs[nd++] = &FIGURES_AFTER[i];
    report_figure *figs = calloc(nd, sizeof *figs);
    if (!figs)
        return bw_error_set(err, BW_E_NOMEM, "out of memory while building the report's charts");
    bw_buf t = BW_BUF_INIT;
    for (size_t i = 0; i < nd; i++) {
        figs[i].id = defs[i]->id;
        figs[i].heading = str_printf("%s", defs[i]->heading);
        figs[i].caption = defs[i]->caption ? str_printf("%s", defs[i]->caption) : NULL;
        if (!figs[i].heading || (defs[i]->caption && !figs[i].caption) || defs[i]->build(m, &figs[i], &t) != 0 ||
            bw_buf_failed(&t)) {
            bw_buf_free(&t);
            report_figures_free(figs, nd);
            return bw_error_set(err, BW_E_NOMEM, "out of memory while building the report's charts");
        }
    }
    bw_buf_free(&t);
    *out = figs;
    *n = nd;
    return BW_OK;
}
