/* report_grid: a table's cells, filled row by row, printed as padded text
 * or a Markdown table, sized to the widest cell or to fixed columns
 * (report_grid.h). */
#include "report_grid.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_format.h"

/* takes s (malloc'ed, or NULL for no cell) */
static void push(report_grid *g, char *s)
{
    if (g->n == g->cap) {
        size_t nc = g->cap ? g->cap * 2 : 64;
        char **p = realloc(g->cell, nc * sizeof *p);
        if (!p) {
            free(s);
            return;
        }
        g->cell = p;
        g->cap = nc;
    }
    g->cell[g->n++] = s;
}

void report_grid_cell(report_grid *g, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    bw_buf q = BW_BUF_INIT;
    bw_quote_append(&q, buf, strlen(buf), 0, 0);
    push(g, bw_buf_steal(&q));
}

void report_grid_put(report_grid *g, const char *s)
{
    bw_buf q = BW_BUF_INIT;
    bw_buf_puts(&q, s);
    push(g, bw_buf_steal(&q));
}

void report_grid_end_row(report_grid *g)
{
    while (g->ncol && g->n % g->ncol)
        push(g, NULL);
}

void report_grid_clear(report_grid *g)
{
    for (size_t i = 0; i < g->n; i++)
        free(g->cell[i]);
    g->n = 0;
}

void report_grid_free(report_grid *g)
{
    report_grid_clear(g);
    free(g->cell);
    g->cell = NULL;
    g->cap = 0;
}

/* the alignment rule under a Markdown header */
static void md_rule(size_t ncol, const report_grid_col *cols, int compact, bw_buf *out)
{
    bw_buf_puts(out, "|");
    for (size_t c = 0; c < ncol; c++)
        if (compact)
            bw_buf_puts(out, cols[c].left ? "---|" : "---:|");
        else
            bw_buf_puts(out, cols[c].left ? " --- |" : " ---: |");
    bw_buf_putc(out, '\n');
}

/* one Markdown row; compact: the run's tables (cells as they are, an empty
 * one " |"), else compare's ('|', '*' and '_' escaped) */
static void md_row(char *const *row, size_t ncol, int compact, bw_buf *out)
{
    bw_buf_puts(out, "|");
    for (size_t c = 0; c < ncol; c++) {
        const char *s = row[c] ? row[c] : "";
        if (compact) {
            bw_buf_printf(out, *s ? " %s |" : " |", s);
            continue;
        }
        bw_buf_putc(out, ' ');
        for (const char *p = s; *p; p++) {
            if (*p == '|' || *p == '*' || *p == '_')
                bw_buf_putc(out, '\\');
            bw_buf_putc(out, *p);
        }
        bw_buf_puts(out, " |");
    }
    bw_buf_putc(out, '\n');
}

/* one text row in the columns cols (widths known); runon: a row that
 * ends early ends in a cell that runs on (report_grid_col) */
static void text_row(char *const *row, size_t ncol, const report_grid_col *cols, int runon, bw_buf *out)
{
    size_t last = ncol;
    while (runon && last > 0 && !row[last - 1])
        last--;
    size_t at = 0; /* the column where the line is */
    for (size_t c = 0; c < last; c++) {
        const char *s = row[c] ? row[c] : "";
        const char *gap = cols[c].gap ? cols[c].gap : "";
        if (last < ncol && c + 1 == last) { /* runs on */
            bw_buf_printf(out, "  %s", s);
            break;
        }
        int w = cols[c].width;
        at += strlen(gap) + (size_t)w;
        if (!cols[c].left) {
            /* a figure as wide as its column (a GPU's 3000.00 GB/s) keeps
             * a space from the one before it */
            bw_buf_printf(out, "%s%s%*s", gap, c > 0 && !*gap && strlen(s) >= (size_t)w ? " " : "", w, s);
        } else if (c + 1 == ncol) {
            bw_buf_printf(out, "%s%s", gap, s);
        } else {
            bw_buf_printf(out, "%s%-*s", gap, w, s);
            if (strlen(s) > (size_t)w)
                bw_buf_printf(out, "\n%*s", (int)at, "");
        }
    }
    bw_buf_putc(out, '\n');
}

void report_grid_emit(const report_grid *g, size_t left, int md, bw_buf *out)
{
    size_t rows = g->ncol ? g->n / g->ncol : 0;
    report_grid_col *cols = calloc(g->ncol ? g->ncol : 1, sizeof *cols);
    if (!cols)
        return;
    for (size_t c = 0; c < g->ncol; c++) {
        cols[c].left = c < left;
        cols[c].gap = "  ";
    }
    for (size_t i = 0; i < rows * g->ncol; i++) {
        size_t l = g->cell[i] ? strlen(g->cell[i]) : 0;
        if (l > (size_t)cols[i % g->ncol].width)
            cols[i % g->ncol].width = (int)l;
    }
    for (size_t r = 0; r < rows; r++) {
        if (md) {
            md_row(g->cell + r * g->ncol, g->ncol, 0, out);
            if (r == 0)
                md_rule(g->ncol, cols, 0, out);
        } else {
            text_row(g->cell + r * g->ncol, g->ncol, cols, 0, out);
        }
    }
    free(cols);
}

void report_grid_emit_fixed(const report_grid *g, const report_grid_col *cols, int md, int rule, bw_buf *out)
{
    size_t rows = g->ncol ? g->n / g->ncol : 0;
    for (size_t r = 0; r < rows; r++) {
        if (md) {
            md_row(g->cell + r * g->ncol, g->ncol, 1, out);
            if (r == 0 && rule)
                md_rule(g->ncol, cols, 1, out);
        } else {
            text_row(g->cell + r * g->ncol, g->ncol, cols, 1, out);
        }
    }
}
