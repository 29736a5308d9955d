/* report_grid: the cells of compare's tables and of the run's, as padded
 * text and as Markdown. Expected text worked out by hand from the widths. */
#include <criterion/criterion.h>
#include <string.h>

#include "report_grid.h"

static report_grid two_by_two(void)
{
    report_grid g = { 2, 0, 0, NULL };
    report_grid_put(&g, "a");
    report_grid_put(&g, "bb");
    report_grid_put(&g, "ccc");
    report_grid_put(&g, "1");
    return g;
}

Test(report_grid, columns_sized_to_their_widest_cell)
{
    report_grid g = two_by_two();
    bw_buf b = BW_BUF_INIT;
    /* widths 3 and 2, two spaces before each; the first left-aligned */
    report_grid_emit(&g, 1, 0, &b);
    cr_expect_str_eq(bw_buf_str(&b), "  a    bb\n  ccc   1\n");
    bw_buf_free(&b);
    report_grid_emit(&g, 1, 1, &b);
    cr_expect_str_eq(bw_buf_str(&b), "| a | bb |\n| --- | ---: |\n| ccc | 1 |\n");
    bw_buf_free(&b);
    report_grid_free(&g);
}

Test(report_grid, cells_from_files_are_quoted_and_markdown_escaped)
{
    report_grid g = { 1, 0, 0, NULL };
    report_grid_cell(&g, "%s", "name");
    report_grid_cell(&g, "x|y_%s\x01", "z*");
    bw_buf b = BW_BUF_INIT;
    report_grid_emit(&g, 1, 0, &b);
    cr_expect_str_eq(bw_buf_str(&b), "  name\n  x|y_z*\\x01\n");
    bw_buf_free(&b);
    report_grid_emit(&g, 1, 1, &b);
    cr_expect_str_eq(bw_buf_str(&b), "| name |\n| --- |\n| x\\|y\\_z\\*\\x01 |\n");
    bw_buf_free(&b);
    report_grid_free(&g);
}

Test(report_grid, fixed_columns_wrap_a_long_first_cell_and_run_on_a_short_row)
{
    const report_grid_col cols[] = { { 5, 1, NULL }, { 6, 0, NULL }, { 0, 1, " " } };
    report_grid g = { 3, 0, 0, NULL };
    report_grid_put(&g, "ab");
    report_grid_put(&g, "1.5");
    report_grid_put(&g, "ok");
    report_grid_put(&g, "abcdefg"); /* longer than 5: the row goes on under column 5 */
    report_grid_put(&g, "2");
    report_grid_put(&g, "ok");
    report_grid_put(&g, "ab"); /* ends early: its last cell runs on */
    report_grid_put(&g, "why");
    report_grid_end_row(&g);
    cr_assert_eq(g.n, 9);
    bw_buf b = BW_BUF_INIT;
    report_grid_emit_fixed(&g, cols, 0, 0, &b);
    cr_expect_str_eq(bw_buf_str(&b), "ab      1.5 ok\n"
                                     "abcdefg\n"
                                     "          2 ok\n"
                                     "ab     why\n");
    bw_buf_free(&b);
    report_grid_emit_fixed(&g, cols, 1, 1, &b);
    cr_expect_str_eq(bw_buf_str(&b), "| ab | 1.5 | ok |\n"
                                     "|---|---:|---|\n"
                                     "| abcdefg | 2 | ok |\n"
                                     "| ab | why | |\n");
    bw_buf_free(&b);
    report_grid_clear(&g);
    cr_expect_eq(g.n, 0);
    report_grid_free(&g);
}
