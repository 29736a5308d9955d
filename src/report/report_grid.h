/* report_grid: the cells of a table, filled once and printed as padded
 * text or as a GitHub-flavoured Markdown table. `bwlab compare` sizes its
 * columns to their widest cell; the run's tables (report_run_table,
 * report_run_markdown) give each column a fixed width, so that rows
 * printed one at a time line up under a header written beforehand.
 * The grid owns its cells (report_grid_free). Formatting only. */
#ifndef REPORT_GRID_H
#define REPORT_GRID_H

#include <stddef.h>

#include "bw_buf.h"
#include "bw_error.h"

typedef struct report_grid {
    size_t ncol, n, cap;
    char **cell; /* row-major, n a multiple of ncol once a row ends; NULL: no cell there */
} report_grid;

/* A cell of text read from files: a newline or an escape in a name must
 * not break the row, nor reach the terminal (bw_quote_append). */
void report_grid_cell(report_grid *g, const char *fmt, ...) BW_PRINTF(2, 3);
/* A cell of bwlab's own text, as it is. */
void report_grid_put(report_grid *g, const char *s);
/* Ends a row that has fewer cells than columns (see report_grid_col). */
void report_grid_end_row(report_grid *g);
/* Drops every cell, keeping the columns. */
void report_grid_clear(report_grid *g);
void report_grid_free(report_grid *g);

/* Columns sized to their widest cell. Text: two spaces before every
 * column, the first `left` columns left-aligned, the others
 * right-aligned. Markdown: a GFM table whose first row is the header,
 * '|', '*' and '_' escaped. */
void report_grid_emit(const report_grid *g, size_t left, int md, bw_buf *out);

/* A fixed column. Text: `gap`, then the cell padded to `width` (0: as it
 * is); a left-aligned cell longer than its width ends the line, and the
 * row goes on under the column's end. A row that ends early (fewer cells
 * than columns) ends in a cell that runs on, two spaces after the one
 * before it: a failure's words in place of figures. Markdown: cells as
 * they are (the caller escapes what it must), an empty or missing cell as
 * " |", and the alignment rule "|---|---:|". */
typedef struct report_grid_col {
    int width;
    int left;
    const char *gap; /* or NULL */
} report_grid_col;

/* Prints the rows of g in g->ncol fixed columns; Markdown (md) with the
 * alignment rule after the first row when rule is set. */
void report_grid_emit_fixed(const report_grid *g, const report_grid_col *cols, int md, int rule, bw_buf *out);

#endif
