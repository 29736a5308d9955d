/* report_html_table: the HTML report's table writer (report_html_table.h). */
#include "report_html_table.h"

#include "report_chart.h"
#include "report_format.h"
#include "results_merge.h"

void report_html_table_open(bw_buf *o, const char *id, const char *const *titles, size_t n)
{
    bw_buf_puts(o, "<div class=\"wrap\"><table");
    if (id) {
        bw_buf_puts(o, " id=\"");
        report_chart_escape(o, id);
        bw_buf_puts(o, "\"");
    }
    bw_buf_puts(o, ">\n");
    if (n == 0)
        return;
    report_html_row(o);
    for (size_t i = 0; i < n; i++)
        report_html_head_cell(o, titles[i]);
    report_html_row_end(o);
}

void report_html_table_close(bw_buf *o)
{
    bw_buf_puts(o, "</table></div>\n");
}

void report_html_row(bw_buf *o)
{
    bw_buf_puts(o, "<tr>");
}

void report_html_row_end(bw_buf *o)
{
    bw_buf_puts(o, "</tr>\n");
}

void report_html_head_cell(bw_buf *o, const char *title)
{
    bw_buf_puts(o, "<th>");
    report_chart_escape(o, title);
    bw_buf_puts(o, "</th>");
}

void report_html_text(bw_buf *o, const char *s)
{
    report_html_text_with(o, s, NULL, NULL, NULL);
}

void report_html_text_with(bw_buf *o, const char *s, const char *sep, const char *extra, const char *end)
{
    report_html_cell(o, NULL);
    report_chart_escape(o, s ? s : "-");
    if (extra) {
        report_chart_escape(o, sep);
        report_chart_escape(o, extra);
        report_chart_escape(o, end);
    }
    report_html_cell_end(o);
}

void report_html_code(bw_buf *o, const char *s)
{
    report_html_cell(o, NULL);
    bw_buf_puts(o, "<code>");
    report_chart_escape(o, s ? s : "-");
    bw_buf_puts(o, "</code>");
    report_html_cell_end(o);
}

void report_html_num(bw_buf *o, double v, const char *unit, const char *absent)
{
    if (!results_merge_not_nan(v)) {
        report_html_na(o, absent);
        return;
    }
    report_html_cell(o, "num");
    bw_buf_puts(o, REPORT_FIXED(v, 2));
    if (unit)
        report_chart_escape(o, unit);
    report_html_cell_end(o);
}

void report_html_na(bw_buf *o, const char *absent)
{
    report_html_cell(o, "num na");
    report_chart_escape(o, absent ? absent : "not measured");
    report_html_cell_end(o);
}

void report_html_count(bw_buf *o, long long v)
{
    report_html_cell(o, "num");
    if (v < 0)
        bw_buf_puts(o, "-");
    else
        bw_buf_printf(o, "%lld", v);
    report_html_cell_end(o);
}

void report_html_cell(bw_buf *o, const char *cls)
{
    if (!cls) {
        bw_buf_puts(o, "<td>");
        return;
    }
    bw_buf_puts(o, "<td class=\"");
    report_chart_escape(o, cls);
    bw_buf_puts(o, "\">");
}

void report_html_cell_end(bw_buf *o)
{
    bw_buf_puts(o, "</td>");
}
