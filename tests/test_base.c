/* src/base: strict number parsing, the error list, text buffers. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "bw_buf.h"
#include "bw_error.h"
#include "bw_parse.h"

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
