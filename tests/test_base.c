/* src/base: strict number parsing, the error list, text buffers. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bw_buf.h"
#include "bw_error.h"
#include "bw_file.h"
#include "bw_parse.h"
#include "bw_stats.h"

Test(base, parse_u64)
{
    uint64_t v;
    cr_expect_eq(bw_parse_u64("0", "x", &v, NULL), BW_OK);
    cr_expect_eq(v, 0);
    cr_expect_eq(bw_parse_u64("0x1F", "x", &v, NULL), BW_OK);
    cr_expect_eq(v, 31);
    cr_expect_eq(bw_parse_u64("18446744073709551615", "x", &v, NULL), BW_OK);
    cr_expect_eq(v, UINT64_MAX);
    cr_expect_eq(bw_parse_u64("18446744073709551616", "x", &v, NULL), BW_E_RANGE);
    cr_expect_eq(bw_parse_u64("-1", "x", &v, NULL), BW_E_USAGE);
    cr_expect_eq(bw_parse_u64(" 1", "x", &v, NULL), BW_E_USAGE);
    cr_expect_eq(bw_parse_u64("1 ", "x", &v, NULL), BW_E_USAGE);
    cr_expect_eq(bw_parse_u64("12abc", "x", &v, NULL), BW_E_USAGE);
    cr_expect_eq(bw_parse_u64("", "x", &v, NULL), BW_E_USAGE);
    cr_expect_eq(bw_parse_u64("0x", "x", &v, NULL), BW_E_USAGE);
}

Test(base, parse_i64_and_double)
{
    int64_t v;
    cr_expect_eq(bw_parse_i64("-9223372036854775808", "x", &v, NULL), BW_OK);
    cr_expect_eq(v, INT64_MIN);
    cr_expect_eq(bw_parse_i64("9223372036854775807", "x", &v, NULL), BW_OK);
    cr_expect_eq(v, INT64_MAX);
    cr_expect_eq(bw_parse_i64("9223372036854775808", "x", &v, NULL), BW_E_RANGE);
    cr_expect_eq(bw_parse_i64("-9223372036854775809", "x", &v, NULL), BW_E_RANGE);
    cr_expect_eq(bw_parse_i64("--1", "x", &v, NULL), BW_E_USAGE);
    cr_expect_eq(bw_parse_i64("-0x10", "x", &v, NULL), BW_OK);
    cr_expect_eq(v, -16);
    double d;
    cr_expect_eq(bw_parse_double("2.5e3", "x", &d, NULL), BW_OK);
    cr_expect_float_eq(d, 2500.0, 1e-12);
    cr_expect_eq(bw_parse_double("nan", "x", &d, NULL), BW_E_RANGE);
    cr_expect_eq(bw_parse_double("1e999", "x", &d, NULL), BW_E_RANGE);
    cr_expect_eq(bw_parse_double("3x", "x", &d, NULL), BW_E_USAGE);
}

Test(base, parse_bytes)
{
    uint64_t v;
    cr_expect_eq(bw_parse_bytes("4096", "--size", &v, NULL), BW_OK);
    cr_expect_eq(v, 4096);
    cr_expect_eq(bw_parse_bytes("64M", "--size", &v, NULL), BW_OK);
    cr_expect_eq(v, 64u << 20);
    cr_expect_eq(bw_parse_bytes("1GiB", "--size", &v, NULL), BW_OK);
    cr_expect_eq(v, 1u << 30);
    cr_expect_eq(bw_parse_bytes("2k", "--size", &v, NULL), BW_OK);
    cr_expect_eq(v, 2048);
    cr_expect_eq(bw_parse_bytes("3B", "--size", &v, NULL), BW_OK);
    cr_expect_eq(v, 3);
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(bw_parse_bytes("12Q", "--size", &v, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "'12Q'") && strstr(bw_error_text(&err), "--size"));
    cr_expect_eq(bw_parse_bytes("99999999999T", "--size", &v, &err), BW_E_RANGE);
    bw_error_clear(&err);
}

Test(base, errors_and_buffers)
{
    cr_expect_str_eq(bw_code_name(BW_E_NOPLATFORM), "noplatform");
    cr_expect_eq(bw_code_exit_status(BW_E_USAGE), 2);
    cr_expect_eq(bw_code_exit_status(BW_E_NOPLATFORM), 3);
    cr_expect_eq(bw_code_exit_status(BW_OK), 0);
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(bw_error_set(&err, BW_E_IO, "cannot open '%s'", "x"), BW_E_IO);
    bw_error_prefix(&err, "while %s: ", "loading");
    cr_expect_str_eq(bw_error_text(&err), "while loading: cannot open 'x'");
    bw_error_clear(&err);
    cr_expect_str_eq(bw_error_text(&err), "success");
    bw_error_clear(NULL);
    bw_buf b = BW_BUF_INIT;
    cr_expect_str_eq(bw_buf_str(&b), "");
    bw_buf_printf(&b, "%d-%s", 7, "x");
    bw_buf_pad_to(&b, 6);
    bw_buf_putc(&b, '|');
    cr_expect_str_eq(bw_buf_str(&b), "7-x   |");
    char *s = bw_buf_steal(&b);
    cr_expect_str_eq(s, "7-x   |");
    free(s);
    cr_expect_eq(b.len, 0);
}

/* a FIFO with no writer is refused at once, never waited on,
 * and a regular file still reads; two names of one file, or of one new
 * file, are the same output, /dev/null twice is not */
Test(base, regular_reads_and_same_outputs, .timeout = 30)
{
    char dir[] = "/tmp/bwlab-base-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char fifo[256], file[256], link1[256], hard[256], fresh[256], fresh2[256], other[256];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(file, sizeof file, "%s/f.json", dir);
    snprintf(link1, sizeof link1, "%s/l.json", dir);
    snprintf(hard, sizeof hard, "%s/h.json", dir);
    snprintf(fresh, sizeof fresh, "%s/new.out", dir);
    snprintf(fresh2, sizeof fresh2, "%s/./new.out", dir);
    snprintf(other, sizeof other, "%s/other.out", dir);
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f);
    fputs("abc", f);
    fclose(f);
    cr_assert_eq(symlink("f.json", link1), 0);
    cr_assert_eq(link(file, hard), 0);
    char *text = NULL;
    size_t len = 0;
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(bw_file_read_regular(fifo, &text, &len, &err), BW_E_IO);
    cr_expect(strstr(bw_error_text(&err), "is a FIFO, not a regular file"), "%s", bw_error_text(&err));
    cr_expect_null(text);
    bw_error_clear(&err);
    cr_expect_eq(bw_file_read_regular("/dev/null", &text, &len, &err), BW_E_IO);
    cr_expect(strstr(bw_error_text(&err), "a character device"), "%s", bw_error_text(&err));
    bw_error_clear(&err);
    cr_assert_eq(bw_file_read_regular(link1, &text, &len, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_str_eq(text, "abc");
    cr_expect_eq(len, 3);
    free(text);
    cr_expect_eq(bw_file_same_output(file, link1), 1);
    cr_expect_eq(bw_file_same_output(hard, link1), 1);
    cr_expect_eq(bw_file_same_output(fresh, fresh2), 1, "one new file by two names");
    cr_expect_eq(bw_file_same_output(fresh, other), 0);
    cr_expect_eq(bw_file_same_output(fresh, file), 0);
    cr_expect_eq(bw_file_same_output("/dev/null", "/dev/null"), 0, "a device is no regular output");
    cr_expect_eq(bw_file_same_output("-", "-"), 0);
    cr_expect_eq(bw_file_same_output(NULL, file), 0);
    unlink(fifo);
    unlink(file);
    unlink(link1);
    unlink(hard);
    rmdir(dir);
}

Test(base, median)
{
    double odd[] = { 9, 1, 5 };
    cr_assert_eq(bw_median(odd, 3), 5);
    cr_assert_eq(odd[0], 1); /* sorted in place */
    cr_assert_eq(odd[2], 9);
    double even[] = { 4, -2, 10, 1 };
    cr_assert_eq(bw_median(even, 4), 2.5); /* (1 + 4) / 2 */
    double one[] = { 7 };
    cr_assert_eq(bw_median(one, 1), 7);
    cr_assert_eq(bw_median(NULL, 0), 0);
}
