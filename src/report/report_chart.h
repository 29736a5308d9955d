/* report_chart: one chart (title, two labelled axes, series of points,
 * shaded regions, rules, a legend) drawn as an inline SVG fragment for the
 * HTML report.
 *
 * Drawing is cairo's (its SVG surface): axes, grid, lines, dashes,
 * markers, shading and clipping. bwlab writes three things itself on top
 * of cairo's output: the text (SVG <text>, so labels stay selectable and
 * use the reader's font), the tick positions, and the tooltips: every
 * drawn data point gets a transparent shape with an SVG <title> holding
 * the caller's text (its exact value and kind), class "pt", so a browser
 * shows it on hover and a test can count points. Element ids are prefixed
 * with the chart's id, so several charts live in one document.
 *
 * The chart owns copies of every string it is given. Points that cannot be
 * placed (NAN, or <= 0 on a log axis) are left out and not counted. */
#ifndef REPORT_CHART_H
#define REPORT_CHART_H

#include <stddef.h>

#include "bw_buf.h"
#include "bw_error.h"

typedef enum report_axis_scale {
    REPORT_AXIS_LINEAR,
    REPORT_AXIS_LOG2,  /* ticks at powers of two */
    REPORT_AXIS_LOG10, /* ticks at powers of ten */
} report_axis_scale;

typedef enum report_series_kind {
    REPORT_SERIES_LINE_POINTS, /* markers joined by a line, in point order */
    REPORT_SERIES_POINTS,      /* markers only (a scatter) */
    REPORT_SERIES_LINE,        /* a line only: no markers, no tooltips, not counted */
    REPORT_SERIES_RECTS,       /* filled rectangles (x, y)-(x2, y2), each with its tooltip */
    REPORT_SERIES_HRULES,      /* horizontal grid lines at each point's y (no tooltips) */
    REPORT_SERIES_DIAGONAL,    /* y = x across the plot (no points needed) */
} report_series_kind;

typedef enum report_marker {
    REPORT_MARKER_CIRCLE,
    REPORT_MARKER_SQUARE,
    REPORT_MARKER_TRIANGLE,
    REPORT_MARKER_DIAMOND,
} report_marker;

/* Okabe-Ito colours, in the order series should take them (yellow last:
 * it is faint on white). REPORT_COLOUR_GREY for reference lines and grids. */
#define REPORT_COLOURS 8
#define REPORT_COLOUR_GREY (-1)
/* "#0072B2" etc.; an index outside 0..7 gives grey. */
const char *report_colour_hex(int colour);

typedef struct report_chart_style {
    int colour;           /* 0..7, or REPORT_COLOUR_GREY */
    int dashed;
    report_marker marker;
    int hollow;           /* marker outlined, white inside */
    double alpha;         /* fill opacity of RECTS (0: 0.35) */
    double width;         /* line width in px (0: 2, HRULES 1) */
} report_chart_style;

typedef struct report_chart report_chart; /* opaque */

/* A new chart; id ([a-z0-9-], unique in the document) prefixes its SVG ids.
 * NULL when out of memory. */
report_chart *report_chart_new(const char *id, const char *title);
void report_chart_free(report_chart *c); /* accepts NULL */

/* Axis label (with its unit) and scale; axis 'x' or 'y'. */
void report_chart_axis(report_chart *c, char axis, const char *label, report_axis_scale scale);
/* Tick labels of an axis in binary units ("4 KiB", "1 MiB") for an axis
 * of byte counts; the values stay bytes. */
void report_chart_axis_bytes(report_chart *c, char axis);
/* Fixes an axis range (otherwise the data's, widened to whole ticks). */
void report_chart_range(report_chart *c, char axis, double lo, double hi);
/* Canvas size in px (default 640 x 360 for the plot and axes; the legend
 * adds rows below). */
void report_chart_size(report_chart *c, int width, int height);
/* A note under the title (e.g. which access mode), or NULL. */
void report_chart_subtitle(report_chart *c, const char *text);

/* Adds a series; name is its legend text (NULL: no legend entry).
 * Returns its index, or -1 when out of memory. */
int report_chart_series(report_chart *c, const char *name, report_series_kind kind,
                        report_chart_style style);
/* Adds a point to series s; tip is its tooltip (NULL: none). RECTS use
 * (x, y)-(x2, y2); other kinds ignore x2, y2. */
void report_chart_point(report_chart *c, int s, double x, double y, const char *tip);
void report_chart_rect(report_chart *c, int s, double x, double y, double x2, double y2,
                       const char *tip);

/* Data points drawn (with a tooltip) so far as report_chart_svg would
 * draw them: markers of POINTS / LINE_POINTS series and RECTS that can be
 * placed on the axes. */
size_t report_chart_count(const report_chart *c);

/* Appends the chart as one <svg> element (no XML declaration, no
 * namespace declarations: it is meant for inline HTML) to out. BW_E_NOMEM,
 * or BW_E_IO when cairo fails (its status named). */
bw_code report_chart_svg(const report_chart *c, bw_buf *out, bw_error *err);

/* Appends s with &, <, >, " and ' escaped for HTML/XML text and
 * attributes. */
void report_chart_escape(bw_buf *out, const char *s);

#endif
