/* report_html_table: the one writer of the HTML report's tables
 * (report_html, report_peer_table): a wrapped <table>, a header row of
 * column titles, then rows of cells. Every text it is given is escaped
 * here (report_chart_escape), so callers pass plain strings; where a cell
 * holds more than one value, the caller opens it, writes its content
 * (escaping what it writes) and closes it.
 *
 * Everything appends to the caller's buffer; a failed append shows in
 * bw_buf_failed like any other. Nothing is owned or kept. */
#ifndef REPORT_HTML_TABLE_H
#define REPORT_HTML_TABLE_H

#include <stddef.h>

#include "bw_buf.h"

/* <div class="wrap"><table id="ID">, id NULL: no id; then the header row
 * of titles[0..n-1] (n 0: no header row, the caller writes its own with
 * report_html_head_cell). */
void report_html_table_open(bw_buf *o, const char *id, const char *const *titles, size_t n);
/* </table></div> */
void report_html_table_close(bw_buf *o);

/* A row: "<tr>" ... "</tr>" and its line break. */
void report_html_row(bw_buf *o);
void report_html_row_end(bw_buf *o);
/* A header cell: <th>TITLE</th>. */
void report_html_head_cell(bw_buf *o, const char *title);

/* A text cell; NULL reads "-". */
void report_html_text(bw_buf *o, const char *s);
/* A text cell with a second part where there is one: S (NULL: "-"),
 * then, when extra is not NULL, SEP EXTRA END. */
void report_html_text_with(bw_buf *o, const char *s, const char *sep, const char *extra, const char *end);
/* A text cell set as code; NULL reads "-". */
void report_html_code(bw_buf *o, const char *s);
/* A figure with two decimals and an optional unit suffix (NULL: none);
 * NAN reads `absent` (NULL: "not measured"). */
void report_html_num(bw_buf *o, double v, const char *unit, const char *absent);
/* A figure that is not there: `absent` (NULL: "not measured"). */
void report_html_na(bw_buf *o, const char *absent);
/* A whole number (a count, an index, a size); negative reads "-". */
void report_html_count(bw_buf *o, long long v);

/* A cell whose content the caller writes: <td> or <td class="CLS">, then
 * report_html_cell_end. */
void report_html_cell(bw_buf *o, const char *cls);
void report_html_cell_end(bw_buf *o);

#endif
