/* report_figure_kit: what the HTML report's figure builders share, those
 * of report_figures.c and those a family's entry gives
 * (report_section.figure): a chart's frame, a chart and a series opened at
 * their first mark, styles and colours by device, tooltips, and the
 * reason a figure has no chart. The builders own nothing of it; every
 * chart belongs to its figure (report_figures.h). */
#ifndef REPORT_FIGURE_KIT_H
#define REPORT_FIGURE_KIT_H

#include <stddef.h>

#include "bw_buf.h"
#include "report_chart.h"
#include "report_figures.h"
#include "results_merge.h"

/* One figure of the report: its id, heading and caption (static), and
 * the builder that adds its charts to the figure, or says in `absent` why
 * there are none: 0, or -1 when memory runs out. */
typedef struct report_figure_def {
    const char *id, *heading, *caption;
    int (*build)(const results_merged *m, report_figure *f, bw_buf *tips);
} report_figure_def;

/* What a chart shows before its first series: titles, axes and size. */
typedef struct report_frame {
    const char *id, *title, *subtitle;
    const char *x_label, *y_label;
    report_axis_scale x_scale, y_scale;
    int x_bytes;       /* the x ticks read as byte sizes */
    int width, height; /* 0: the default size */
} report_frame;

/* The one chart of a figure that draws only where the inputs hold its
 * marks: *c, opened in frame fr at the first mark. NULL when memory runs
 * out. */
report_chart *report_fig_chart_once(report_figure *f, report_chart **c, const report_frame *fr);

/* A series that has no point yet: the legend names only series that draw. */
#define REPORT_FIG_NO_SERIES (-2)

/* Series *s of chart c, added at its first point (while *s is
 * REPORT_FIG_NO_SERIES). */
int report_fig_series_once(report_chart *c, int *s, const char *name, report_series_kind kind,
                           report_chart_style style);

report_chart_style report_fig_style(int colour, int dashed, report_marker mk, int hollow);
/* device k's colour, the same in every chart */
int report_fig_colour(size_t device);

/* A tooltip or legend string: formatted into the reusable buffer b. */
const char *report_fig_tip(bw_buf *b, const char *fmt, ...) BW_PRINTF(2, 3);

/* Ends a builder: a figure that holds no chart says why instead (a reason
 * that cannot be allocated is left out). Returns 0. */
int report_fig_absent_unless_drawn(report_figure *f, const char *why);

/* Whether a merged row is a global-memory pattern (not a local one). */
int report_fig_is_global(const results_merge_row *r);

#endif
