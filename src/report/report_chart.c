/* report_chart: cairo draws the marks, bwlab adds text, ticks and tooltips
 * (report_chart.h says who does what and why). */
#include "report_chart.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_format.h"

typedef struct chart_point {
    double x, y, x2, y2;
    char *tip;
} chart_point;

typedef struct chart_series {
    char *name;
    report_series_kind kind;
    report_chart_style style;
    chart_point *pts;
    size_t n, cap;
} chart_series;

typedef struct chart_axis {
    char *label;
    report_axis_scale scale;
    int fixed;
    double lo, hi;
    int bytes; /* tick labels in binary units (report_chart_axis_bytes) */
} chart_axis;

struct report_chart {
    char *id, *title, *subtitle;
    int width, height;
    chart_axis x, y;
    chart_series *series;
    size_t n_series, cap_series;
    int failed; /* an allocation failed: report_chart_svg says so */
};

/* Okabe & Ito (2008), "Color Universal Design": blue, vermillion, bluish
 * green, orange, reddish purple, sky blue, black, yellow. */
static const char *const PALETTE[REPORT_COLOURS] = {
    "#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000", "#F0E442",
};

const char *report_colour_hex(int colour)
{
    return colour >= 0 && colour < REPORT_COLOURS ? PALETTE[colour] : "#999999";
}

static void colour_rgb(int colour, double *r, double *g, double *b)
{
    unsigned v = (unsigned)strtoul(report_colour_hex(colour) + 1, NULL, 16);
    *r = ((v >> 16) & 0xff) / 255.0;
    *g = ((v >> 8) & 0xff) / 255.0;
    *b = (v & 0xff) / 255.0;
}

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

report_chart *report_chart_new(const char *id, const char *title)
{
    report_chart *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->id = dup_or_null(id ? id : "chart");
    c->title = dup_or_null(title ? title : "");
    c->width = 640;
    c->height = 360;
    if (!c->id || !c->title) {
        report_chart_free(c);
        return NULL;
    }
    return c;
}

void report_chart_free(report_chart *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_series; i++) {
        for (size_t j = 0; j < c->series[i].n; j++)
            free(c->series[i].pts[j].tip);
        free(c->series[i].pts);
        free(c->series[i].name);
    }
    free(c->series);
    free(c->x.label);
    free(c->y.label);
    free(c->id);
    free(c->title);
    free(c->subtitle);
    free(c);
}

static void set_string(report_chart *c, char **slot, const char *s)
{
    free(*slot);
    *slot = dup_or_null(s);
    if (s && !*slot)
        c->failed = 1;
}

void report_chart_axis(report_chart *c, char axis, const char *label, report_axis_scale scale)
{
    chart_axis *a = axis == 'x' ? &c->x : &c->y;
    set_string(c, &a->label, label);
    a->scale = scale;
}

void report_chart_axis_bytes(report_chart *c, char axis)
{
    (axis == 'x' ? &c->x : &c->y)->bytes = 1;
}

void report_chart_range(report_chart *c, char axis, double lo, double hi)
{
    chart_axis *a = axis == 'x' ? &c->x : &c->y;
    a->fixed = 1;
    a->lo = lo;
    a->hi = hi;
}

void report_chart_size(report_chart *c, int width, int height)
{
    c->width = width;
    c->height = height;
}

void report_chart_subtitle(report_chart *c, const char *text)
{
    set_string(c, &c->subtitle, text);
}

int report_chart_series(report_chart *c, const char *name, report_series_kind kind,
                        report_chart_style style)
{
    if (c->n_series == c->cap_series) {
        size_t cap = c->cap_series ? 2 * c->cap_series : 8;
        chart_series *s = realloc(c->series, cap * sizeof *s);
        if (!s) {
            c->failed = 1;
            return -1;
        }
        c->series = s;
        c->cap_series = cap;
    }
    chart_series *s = &c->series[c->n_series];
    memset(s, 0, sizeof *s);
    s->name = dup_or_null(name);
    if (name && !s->name) {
        c->failed = 1;
        return -1;
    }
    s->kind = kind;
    s->style = style;
    return (int)c->n_series++;
}

void report_chart_rect(report_chart *c, int si, double x, double y, double x2, double y2,
                       const char *tip)
{
    if (si < 0 || (size_t)si >= c->n_series)
        return;
    chart_series *s = &c->series[si];
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        chart_point *p = realloc(s->pts, cap * sizeof *p);
        if (!p) {
            c->failed = 1;
            return;
        }
        s->pts = p;
        s->cap = cap;
    }
    chart_point *p = &s->pts[s->n];
    p->x = x;
    p->y = y;
    p->x2 = x2;
    p->y2 = y2;
    p->tip = dup_or_null(tip);
    if (tip && !p->tip) {
        c->failed = 1;
        return;
    }
    s->n++;
}

void report_chart_point(report_chart *c, int s, double x, double y, const char *tip)
{
    report_chart_rect(c, s, x, y, x, y, tip);
}

/* ---- scales ---------------------------------------------------------- */

static double fwd(report_axis_scale sc, double v)
{
    switch (sc) {
    case REPORT_AXIS_LOG2: return log2(v);
    case REPORT_AXIS_LOG10: return log10(v);
    default: return v;
    }
}

/* A value the axis can place: finite; on a logarithmic axis a normal
 * positive double (a subnormal such as 5e-324 has a logarithm, but the
 * axis' widened range below it would be 0, whose logarithm is not); on a
 * linear one within 1e300, so that a range's width stays finite. */
static int value_ok(report_axis_scale sc, double v)
{
    if (!isfinite(v))
        return 0;
    if (sc == REPORT_AXIS_LINEAR)
        return fabs(v) <= 1e300;
    return v >= DBL_MIN;
}

/* The ranges the chart is drawn with (the data's widened to whole ticks,
 * or the fixed ones). */
typedef struct chart_frame {
    double xlo, xhi, ylo, yhi;
    double left, top, pw, ph; /* plot area, px */
} chart_frame;

static void widen(const chart_axis *a, double lo, double hi, double *olo, double *ohi)
{
    if (a->fixed) {
        *olo = a->lo;
        *ohi = a->hi;
        return;
    }
    if (!(lo <= hi)) { /* no data */
        lo = a->scale == REPORT_AXIS_LINEAR ? 0 : 1;
        hi = a->scale == REPORT_AXIS_LINEAR ? 1 : 10;
    }
    if (a->scale == REPORT_AXIS_LINEAR) {
        if (lo > 0)
            lo = 0; /* bars and bandwidths read from zero */
        if (hi < 0)
            hi = 0;
        if (hi - lo <= 0) {
            lo -= 1;
            hi += 1;
        }
        double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), step;
        double f = raw / mag;
        step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
        *olo = floor(lo / step + 1e-9) * step;
        *ohi = ceil(hi / step - 1e-9) * step;
    } else {
        double b = a->scale == REPORT_AXIS_LOG2 ? 2 : 10;
        double el = floor(fwd(a->scale, lo) + 1e-9), eh = ceil(fwd(a->scale, hi) - 1e-9);
        /* within the normal doubles: b^el never 0, b^eh never infinite */
        double emin = a->scale == REPORT_AXIS_LOG2 ? -1022 : -307, emax = a->scale == REPORT_AXIS_LOG2 ? 1023 : 308;
        el = fmax(emin, fmin(el, emax - 1));
        eh = fmax(el + 1, fmin(eh, emax));
        *olo = pow(b, el);
        *ohi = pow(b, eh);
    }
}

static void frame_of(const report_chart *c, chart_frame *f)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (size_t i = 0; i < c->n_series; i++) {
        const chart_series *s = &c->series[i];
        if (s->kind == REPORT_SERIES_HRULES || s->kind == REPORT_SERIES_DIAGONAL)
            continue;
        for (size_t j = 0; j < s->n; j++) {
            const chart_point *p = &s->pts[j];
            double xs[2] = { p->x, p->x2 }, ys[2] = { p->y, p->y2 };
            for (int k = 0; k < 2; k++) {
                if (value_ok(c->x.scale, xs[k])) {
                    xlo = fmin(xlo, xs[k]);
                    xhi = fmax(xhi, xs[k]);
                }
                if (value_ok(c->y.scale, ys[k])) {
                    ylo = fmin(ylo, ys[k]);
                    yhi = fmax(yhi, ys[k]);
                }
            }
        }
    }
    widen(&c->x, xlo, xhi, &f->xlo, &f->xhi);
    widen(&c->y, ylo, yhi, &f->ylo, &f->yhi);
    f->left = 78;
    f->top = c->subtitle ? 48 : 34;
    f->pw = c->width - f->left - 18;
    f->ph = c->height - f->top - 50;
}

static double px_x(const report_chart *c, const chart_frame *f, double v)
{
    double a = fwd(c->x.scale, f->xlo), b = fwd(c->x.scale, f->xhi);
    return f->left + (fwd(c->x.scale, v) - a) / (b - a) * f->pw;
}

static double px_y(const report_chart *c, const chart_frame *f, double v)
{
    double a = fwd(c->y.scale, f->ylo), b = fwd(c->y.scale, f->yhi);
    return f->top + f->ph - (fwd(c->y.scale, v) - a) / (b - a) * f->ph;
}

static int inside(double v, double lo, double hi)
{
    double tol = (hi - lo) * 1e-9;
    return v >= lo - tol && v <= hi + tol;
}

/* A point (or a rectangle's corners) that can be placed in the frame. */
static int placeable(const report_chart *c, const chart_frame *f, const chart_series *s,
                     const chart_point *p)
{
    if (!value_ok(c->x.scale, p->x) || !value_ok(c->y.scale, p->y))
        return 0;
    /* the division of every pixel coordinate must land on a number */
    if (!isfinite(px_x(c, f, p->x)) || !isfinite(px_y(c, f, p->y)))
        return 0;
    if (s->kind == REPORT_SERIES_RECTS)
        return value_ok(c->x.scale, p->x2) && value_ok(c->y.scale, p->y2) && isfinite(px_x(c, f, p->x2)) &&
               isfinite(px_y(c, f, p->y2));
    return inside(p->x, f->xlo, f->xhi) && inside(p->y, f->ylo, f->yhi);
}

static int counted_kind(report_series_kind k);

/* Points with a tooltip whose values are numbers the axes cannot draw
 * (0 or below, or a subnormal, on a logarithmic axis; beyond 1e300):
 * left out, and the chart says how many. NAN is "not measured", a gap. */
static size_t undrawable(const report_chart *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_series; i++) {
        const chart_series *s = &c->series[i];
        if (!counted_kind(s->kind))
            continue;
        for (size_t j = 0; j < s->n; j++) {
            const chart_point *p = &s->pts[j];
            if (!p->tip || isnan(p->x) || isnan(p->y))
                continue;
            n += !value_ok(c->x.scale, p->x) || !value_ok(c->y.scale, p->y);
        }
    }
    return n;
}

/* A rectangle's box in px, at least 2 px high and wide so that a unit far
 * smaller than the axis' range stays visible and can be hovered. */
static void rect_px(const report_chart *c, const chart_frame *f, const chart_point *p, double *x,
                    double *y, double *w, double *h)
{
    double x0 = px_x(c, f, p->x), x1 = px_x(c, f, p->x2);
    double y0 = px_y(c, f, p->y), y1 = px_y(c, f, p->y2);
    *x = fmin(x0, x1);
    *y = fmin(y0, y1);
    *w = fabs(x1 - x0);
    *h = fabs(y1 - y0);
    if (*w < 2) {
        *x -= (2 - *w) / 2;
        *w = 2;
    }
    if (*h < 2) {
        *y -= (2 - *h) / 2;
        *h = 2;
    }
}

static int counted_kind(report_series_kind k)
{
    return k == REPORT_SERIES_POINTS || k == REPORT_SERIES_LINE_POINTS || k == REPORT_SERIES_RECTS;
}

size_t report_chart_count(const report_chart *c)
{
    chart_frame f;
    frame_of(c, &f);
    size_t n = 0;
    for (size_t i = 0; i < c->n_series; i++) {
        const chart_series *s = &c->series[i];
        if (!counted_kind(s->kind))
            continue;
        for (size_t j = 0; j < s->n; j++)
            n += s->pts[j].tip && placeable(c, &f, s, &s->pts[j]);
    }
    return n;
}

/* Tick values of an axis (at most max of them). */
static size_t ticks_of(const chart_axis *a, double lo, double hi, double *t, size_t max)
{
    size_t n = 0;
    if (a->scale == REPORT_AXIS_LINEAR) {
        double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), fr = raw / mag;
        double step = (fr <= 1 ? 1 : fr <= 2 ? 2 : fr <= 5 ? 5 : 10) * mag;
        for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 && n < max; v += step)
            t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
        return n;
    }
    double b = a->scale == REPORT_AXIS_LOG2 ? 2 : 10;
    double el = ceil(fwd(a->scale, lo) - 1e-9), eh = floor(fwd(a->scale, hi) + 1e-9);
    double every = ceil((eh - el + 1) / (double)(max > 1 ? max - 1 : 1));
    if (every < 1)
        every = 1;
    for (double e = el; e <= eh && n < max; e += every)
        t[n++] = pow(b, e);
    return n;
}

/* 4096 -> "4 KiB", 1536 -> "1.5 KiB", 100 -> "100 B" */
static void tick_label_bytes(bw_buf *out, double v)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int u = 0;
    while (fabs(v) >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (fabs(v - round(v)) < 1e-9)
        bw_buf_printf(out, "%.0f %s", v, unit[u]);
    else
        bw_buf_printf(out, "%.3g %s", v, unit[u]);
}

static void tick_label(bw_buf *out, double v)
{
    if (fabs(v) >= 1e7 || (v != 0 && fabs(v) < 1e-3))
        bw_buf_printf(out, "%.3g", v);
    else if (fabs(v - round(v)) < 1e-9)
        bw_buf_printf(out, "%.0f", v);
    else
        bw_buf_printf(out, "%.4g", v);
}

/* ---- drawing --------------------------------------------------------- */

static cairo_status_t svg_sink(void *closure, const unsigned char *data, unsigned int n)
{
    bw_buf *b = closure;
    bw_buf_putn(b, (const char *)data, n);
    return bw_buf_failed(b) ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

static void set_colour(cairo_t *cr, int colour, double alpha)
{
    double r, g, b;
    colour_rgb(colour, &r, &g, &b);
    cairo_set_source_rgba(cr, r, g, b, alpha);
}

static void marker_path(cairo_t *cr, report_marker m, double x, double y, double r)
{
    switch (m) {
    case REPORT_MARKER_SQUARE:
        cairo_rectangle(cr, x - r * 0.9, y - r * 0.9, 1.8 * r, 1.8 * r);
        break;
    case REPORT_MARKER_TRIANGLE:
        cairo_move_to(cr, x, y - 1.2 * r);
        cairo_line_to(cr, x + 1.1 * r, y + 0.8 * r);
        cairo_line_to(cr, x - 1.1 * r, y + 0.8 * r);
        cairo_close_path(cr);
        break;
    case REPORT_MARKER_DIAMOND:
        cairo_move_to(cr, x, y - 1.3 * r);
        cairo_line_to(cr, x + 1.1 * r, y);
        cairo_line_to(cr, x, y + 1.3 * r);
        cairo_line_to(cr, x - 1.1 * r, y);
        cairo_close_path(cr);
        break;
    default:
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, r, 0, 2 * M_PI);
        break;
    }
}

static void draw_marker(cairo_t *cr, const report_chart_style *st, double x, double y)
{
    marker_path(cr, st->marker, x, y, 3.6);
    if (st->hollow) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
    } else {
        set_colour(cr, st->colour, 1);
        cairo_fill_preserve(cr);
    }
    set_colour(cr, st->colour, 1);
    cairo_set_line_width(cr, 1.4);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_stroke(cr);
}

static void line_style(cairo_t *cr, const report_chart_style *st, double def_width)
{
    static const double dash[] = { 6, 4 };
    cairo_set_line_width(cr, st->width > 0 ? st->width : def_width);
    cairo_set_dash(cr, dash, st->dashed ? 2 : 0, 0);
    set_colour(cr, st->colour, 1);
}

static void draw_series(const report_chart *c, const chart_frame *f, cairo_t *cr,
                        const chart_series *s)
{
    const report_chart_style *st = &s->style;
    switch (s->kind) {
    case REPORT_SERIES_RECTS:
        for (size_t j = 0; j < s->n; j++) {
            const chart_point *p = &s->pts[j];
            if (!placeable(c, f, s, p))
                continue;
            double x, y, w, h;
            rect_px(c, f, p, &x, &y, &w, &h);
            cairo_rectangle(cr, x, y, w, h);
            set_colour(cr, st->colour, st->alpha > 0 ? st->alpha : 0.35);
            cairo_fill(cr);
        }
        break;
    case REPORT_SERIES_HRULES:
        line_style(cr, st, 1);
        for (size_t j = 0; j < s->n; j++) {
            if (!value_ok(c->y.scale, s->pts[j].y) || !inside(s->pts[j].y, f->ylo, f->yhi))
                continue;
            double y = round(px_y(c, f, s->pts[j].y)) + 0.5;
            cairo_move_to(cr, f->left, y);
            cairo_line_to(cr, f->left + f->pw, y);
        }
        cairo_stroke(cr);
        break;
    case REPORT_SERIES_DIAGONAL: {
        double lo = fmax(f->xlo, f->ylo), hi = fmin(f->xhi, f->yhi);
        if (lo < hi) {
            line_style(cr, st, 1.5);
            cairo_move_to(cr, px_x(c, f, lo), px_y(c, f, lo));
            cairo_line_to(cr, px_x(c, f, hi), px_y(c, f, hi));
            cairo_stroke(cr);
        }
        break;
    }
    default: {
        if (s->kind != REPORT_SERIES_POINTS) {
            int open = 0;
            line_style(cr, st, 2);
            for (size_t j = 0; j < s->n; j++) {
                const chart_point *p = &s->pts[j];
                if (!value_ok(c->x.scale, p->x) || !value_ok(c->y.scale, p->y) ||
                    !isfinite(px_x(c, f, p->x)) || !isfinite(px_y(c, f, p->y))) {
                    open = 0; /* a gap: not measured */
                    continue;
                }
                if (open)
                    cairo_line_to(cr, px_x(c, f, p->x), px_y(c, f, p->y));
                else
                    cairo_move_to(cr, px_x(c, f, p->x), px_y(c, f, p->y));
                open = 1;
            }
            cairo_stroke(cr);
        }
        break; /* markers: draw_markers, outside the clip */
    }
    }
}

/* The markers of a POINTS or LINE_POINTS series: drawn unclipped, so a
 * point on the plot's edge shows whole. */
static void draw_markers(const report_chart *c, const chart_frame *f, cairo_t *cr,
                         const chart_series *s)
{
    if (s->kind != REPORT_SERIES_POINTS && s->kind != REPORT_SERIES_LINE_POINTS)
        return;
    for (size_t j = 0; j < s->n; j++)
        if (placeable(c, f, s, &s->pts[j]))
            draw_marker(cr, &s->style, px_x(c, f, s->pts[j].x), px_y(c, f, s->pts[j].y));
}

/* Legend layout: entries in columns under the plot. */
#define LEGEND_ROW 18
#define LEGEND_SWATCH 28

static double legend_width(const chart_series *s)
{
    return LEGEND_SWATCH + 8 + 6.6 * (double)strlen(s->name) + 18;
}

/* Places each named series' entry in a grid of equal columns as wide as
 * the widest entry (row by row); returns the rows used. xy may be NULL. */
static int legend_layout(const report_chart *c, double (*xy)[2])
{
    double colw = 0;
    size_t n = 0;
    for (size_t i = 0; i < c->n_series; i++)
        if (c->series[i].name) {
            colw = fmax(colw, legend_width(&c->series[i]));
            n++;
        }
    if (n == 0)
        return 0;
    int cols = (int)((c->width - 24) / colw);
    if (cols < 1)
        cols = 1;
    size_t k = 0;
    for (size_t i = 0; i < c->n_series; i++) {
        if (!c->series[i].name)
            continue;
        if (xy) {
            xy[i][0] = 12 + (double)(k % (size_t)cols) * colw;
            xy[i][1] = (double)(k / (size_t)cols) * LEGEND_ROW;
        }
        k++;
    }
    return (int)((n + (size_t)cols - 1) / (size_t)cols);
}

static void draw_swatch(cairo_t *cr, const chart_series *s, double x, double y)
{
    const report_chart_style *st = &s->style;
    switch (s->kind) {
    case REPORT_SERIES_RECTS:
        cairo_rectangle(cr, x, y - 6, LEGEND_SWATCH, 12);
        set_colour(cr, st->colour, st->alpha > 0 ? st->alpha : 0.35);
        cairo_fill(cr);
        break;
    case REPORT_SERIES_POINTS:
        draw_marker(cr, st, x + LEGEND_SWATCH / 2.0, y);
        break;
    default:
        line_style(cr, st, s->kind == REPORT_SERIES_HRULES ? 1 : 2);
        cairo_move_to(cr, x, y + 0.5);
        cairo_line_to(cr, x + LEGEND_SWATCH, y + 0.5);
        cairo_stroke(cr);
        if (s->kind == REPORT_SERIES_LINE_POINTS)
            draw_marker(cr, st, x + LEGEND_SWATCH / 2.0, y);
        break;
    }
}

/* Appends the cairo document's body with every id, href="#..." and
 * url(#...) prefixed by the chart's id. */
static void append_prefixed(bw_buf *out, const char *s, const char *end, const char *id)
{
    static const char *const keys[] = { "id=\"", "href=\"#", "url(#" };
    while (s < end) {
        size_t best = (size_t)(end - s), klen = 0;
        for (size_t k = 0; k < 3; k++) {
            const char *hit = strstr(s, keys[k]);
            if (hit && hit < end && (size_t)(hit - s) < best) {
                best = (size_t)(hit - s);
                klen = strlen(keys[k]);
            }
        }
        bw_buf_putn(out, s, best + klen);
        s += best + klen;
        if (klen)
            bw_buf_printf(out, "%s-", id);
    }
}

void report_chart_escape(bw_buf *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': bw_buf_puts(out, "&amp;"); break;
        case '<': bw_buf_puts(out, "&lt;"); break;
        case '>': bw_buf_puts(out, "&gt;"); break;
        case '"': bw_buf_puts(out, "&quot;"); break;
        case '\'': bw_buf_puts(out, "&#39;"); break;
        default:
            /* a control byte is no character of HTML: written \xNN, as
             * every message shows it */
            if ((unsigned char)*s < 0x20 || *s == 0x7f)
                bw_quote_append(out, s, 1, 0, 0);
            else
                bw_buf_putc(out, *s);
            break;
        }
    }
}

static void text_el(bw_buf *o, double x, double y, const char *anchor, const char *cls,
                    const char *text)
{
    bw_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\">", x, y, anchor,
                  cls);
    report_chart_escape(o, text);
    bw_buf_puts(o, "</text>\n");
}

/* the grid at the ticks, under everything */
static void draw_grid(cairo_t *cr, const report_chart *c, const chart_frame *f, const double *xt, size_t nxt,
                      const double *yt, size_t nyt)
{
    cairo_set_line_width(cr, 1);
    cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
    for (size_t i = 0; i < nxt; i++) {
        double x = round(px_x(c, f, xt[i])) + 0.5;
        cairo_move_to(cr, x, f->top);
        cairo_line_to(cr, x, f->top + f->ph);
    }
    for (size_t i = 0; i < nyt; i++) {
        double y = round(px_y(c, f, yt[i])) + 0.5;
        cairo_move_to(cr, f->left, y);
        cairo_line_to(cr, f->left + f->pw, y);
    }
    cairo_stroke(cr);
}

/* the axes and their tick marks, over the data */
static void draw_axes(cairo_t *cr, const report_chart *c, const chart_frame *f, const double *xt, size_t nxt,
                      const double *yt, size_t nyt)
{
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_move_to(cr, f->left + 0.5, f->top);
    cairo_line_to(cr, f->left + 0.5, f->top + f->ph + 0.5);
    cairo_line_to(cr, f->left + f->pw, f->top + f->ph + 0.5);
    for (size_t i = 0; i < nxt; i++) {
        double x = round(px_x(c, f, xt[i])) + 0.5;
        cairo_move_to(cr, x, f->top + f->ph);
        cairo_line_to(cr, x, f->top + f->ph + 5);
    }
    for (size_t i = 0; i < nyt; i++) {
        double y = round(px_y(c, f, yt[i])) + 0.5;
        cairo_move_to(cr, f->left - 5, y);
        cairo_line_to(cr, f->left, y);
    }
    cairo_stroke(cr);
}

/* the text: title, tick labels, axis labels, the legend's names and the
 * note of points left out (lxy: the legend's places, legend_layout) */
static void labels_svg(bw_buf *out, const report_chart *c, const chart_frame *f, const double *xt, size_t nxt,
                       const double *yt, size_t nyt, double (*lxy)[2], double legend_top)
{
    bw_buf_puts(out, "<g class=\"labels\">\n");
    text_el(out, f->left, 20, "start", "title", c->title);
    if (c->subtitle)
        text_el(out, f->left, 36, "start", "subtitle", c->subtitle);
    bw_buf lab = BW_BUF_INIT;
    for (size_t i = 0; i < nxt; i++) {
        bw_buf_reset(&lab);
        if (c->x.bytes)
            tick_label_bytes(&lab, xt[i]);
        else
            tick_label(&lab, xt[i]);
        text_el(out, px_x(c, f, xt[i]), f->top + f->ph + 18, "middle", "tick", bw_buf_str(&lab));
    }
    for (size_t i = 0; i < nyt; i++) {
        bw_buf_reset(&lab);
        if (c->y.bytes)
            tick_label_bytes(&lab, yt[i]);
        else
            tick_label(&lab, yt[i]);
        text_el(out, f->left - 8, px_y(c, f, yt[i]) + 4, "end", "tick", bw_buf_str(&lab));
    }
    bw_buf_free(&lab);
    if (c->x.label)
        text_el(out, f->left + f->pw / 2, f->top + f->ph + 38, "middle", "axis", c->x.label);
    if (c->y.label) {
        bw_buf_printf(out,
                      "<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\" "
                      "class=\"axis\">",
                      f->top + f->ph / 2);
        report_chart_escape(out, c->y.label);
        bw_buf_puts(out, "</text>\n");
    }
    for (size_t i = 0; i < c->n_series; i++)
        if (c->series[i].name)
            text_el(out, lxy[i][0] + LEGEND_SWATCH + 6, legend_top + lxy[i][1] + 12, "start",
                    "legend", c->series[i].name);
    size_t left_out = undrawable(c);
    if (left_out) {
        char note[160];
        snprintf(note, sizeof note, "%zu point%s left out: a value this chart's axes cannot draw", left_out,
                 left_out == 1 ? "" : "s");
        text_el(out, f->left + f->pw, f->top - 4, "end", "tick", note);
    }
    bw_buf_puts(out, "</g>\n");
}

/* tooltips: a transparent shape with a <title> over each data point */
static void tips_svg(bw_buf *out, const report_chart *c, const chart_frame *f)
{
    bw_buf_puts(out, "<g class=\"tips\" fill=\"#000\" fill-opacity=\"0\">\n");
    for (size_t i = 0; i < c->n_series; i++) {
        const chart_series *se = &c->series[i];
        if (!counted_kind(se->kind))
            continue;
        for (size_t j = 0; j < se->n; j++) {
            const chart_point *p = &se->pts[j];
            if (!p->tip || !placeable(c, f, se, p))
                continue;
            if (se->kind == REPORT_SERIES_RECTS) {
                double x, y, w, h;
                rect_px(c, f, p, &x, &y, &w, &h);
                bw_buf_printf(out,
                              "<rect class=\"pt\" data-series=\"%zu\" x=\"%.1f\" y=\"%.1f\" "
                              "width=\"%.1f\" height=\"%.1f\"><title>",
                              i, x, y, w, h);
            } else {
                bw_buf_printf(out,
                              "<circle class=\"pt\" data-series=\"%zu\" cx=\"%.1f\" cy=\"%.1f\" "
                              "r=\"6\"><title>",
                              i, px_x(c, f, p->x), px_y(c, f, p->y));
            }
            report_chart_escape(out, p->tip);
            bw_buf_puts(out, se->kind == REPORT_SERIES_RECTS ? "</title></rect>\n"
                                                              : "</title></circle>\n");
        }
    }
}

bw_code report_chart_svg(const report_chart *c, bw_buf *out, bw_error *err)
{
    if (c->failed)
        return bw_error_set(err, BW_E_NOMEM, "out of memory while building chart '%s'", c->id);
    chart_frame f;
    frame_of(c, &f);
    double (*lxy)[2] = calloc(c->n_series ? c->n_series : 1, sizeof *lxy);
    if (!lxy)
        return bw_error_set(err, BW_E_NOMEM, "out of memory while drawing chart '%s'", c->id);
    int rows = legend_layout(c, lxy);
    double legend_top = c->height + 4;
    int total_h = c->height + (rows ? rows * LEGEND_ROW + 10 : 0);

    bw_buf doc = BW_BUF_INIT;
    cairo_surface_t *surf = cairo_svg_surface_create_for_stream(svg_sink, &doc, c->width, total_h);
    cairo_svg_surface_set_document_unit(surf, CAIRO_SVG_UNIT_PX);
    cairo_t *cr = cairo_create(surf);

    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);

    double xt[64], yt[64];
    size_t nxt = ticks_of(&c->x, f.xlo, f.xhi, xt, 12), nyt = ticks_of(&c->y, f.ylo, f.yhi, yt, 10);
    draw_grid(cr, c, &f, xt, nxt, yt, nyt);

    cairo_save(cr);
    cairo_rectangle(cr, f.left, f.top, f.pw, f.ph);
    cairo_clip(cr);
    for (int pass = 0; pass < 2; pass++) /* regions and rules under the data */
        for (size_t i = 0; i < c->n_series; i++) {
            int under = c->series[i].kind == REPORT_SERIES_RECTS ||
                        c->series[i].kind == REPORT_SERIES_HRULES;
            if (under == (pass == 0))
                draw_series(c, &f, cr, &c->series[i]);
        }
    cairo_restore(cr);
    for (size_t i = 0; i < c->n_series; i++)
        draw_markers(c, &f, cr, &c->series[i]);

    draw_axes(cr, c, &f, xt, nxt, yt, nyt);

    for (size_t i = 0; i < c->n_series; i++)
        if (c->series[i].name)
            draw_swatch(cr, &c->series[i], lxy[i][0], legend_top + lxy[i][1] + 8);

    cairo_destroy(cr);
    cairo_surface_finish(surf);
    cairo_status_t st = cairo_surface_status(surf);
    cairo_surface_destroy(surf);
    if (st != CAIRO_STATUS_SUCCESS || bw_buf_failed(&doc)) {
        free(lxy);
        bw_buf_free(&doc);
        if (st == CAIRO_STATUS_NO_MEMORY || st == CAIRO_STATUS_SUCCESS)
            return bw_error_set(err, BW_E_NOMEM, "out of memory while drawing chart '%s'", c->id);
        return bw_error_set(err, BW_E_IO, "cairo could not draw chart '%s': %s", c->id,
                            cairo_status_to_string(st));
    }

    /* cairo's body, between its root element's tags, under our own root */
    const char *s = bw_buf_str(&doc);
    const char *open = strstr(s, "<svg");
    const char *body = open ? strchr(open, '>') : NULL;
    const char *close = body ? strstr(body, "</svg>") : NULL;
    bw_buf_printf(out,
                  "<svg class=\"chart\" id=\"%s\" data-points=\"%zu\" width=\"%d\" height=\"%d\" "
                  "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
                  c->id, report_chart_count(c), c->width, total_h, c->width, total_h);
    report_chart_escape(out, c->title);
    bw_buf_puts(out, "\">\n");
    if (body && close)
        append_prefixed(out, body + 1, close, c->id);
    bw_buf_free(&doc);

    labels_svg(out, c, &f, xt, nxt, yt, nyt, lxy, legend_top);
    free(lxy);

    tips_svg(out, c, &f);
    bw_buf_puts(out, "</g>\n</svg>\n");
    if (bw_buf_failed(out))
        return bw_error_set(err, BW_E_NOMEM, "out of memory while writing chart '%s'", c->id);
    return BW_OK;
}
