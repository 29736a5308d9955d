/* Address expressions: parsing, precedence, exact evaluation, errors with
 * columns, and printing that re-parses to the same tree. Expected values
 * are worked out by hand from C's rules. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_expr.h"
#include "test_util.h"
#include "model_expr_priv.h"
#include "model_linear.h"

static int64_t eval_at(const char *src, int64_t t, int64_t w, int64_t W)
{
    model_expr *e = NULL;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = model_expr_parse(src, &e, &err);
    cr_assert_eq(rc, BW_OK, "parse '%s': %s", src, bw_error_text(&err));
    model_expr_env env = { t, w, w * W + t, W };
    int64_t v = 0;
    rc = model_expr_eval(e, &env, &v, &err);
    cr_assert_eq(rc, BW_OK, "eval '%s': %s", src, bw_error_text(&err));
    model_expr_free(e);
    bw_error_clear(&err);
    return v;
}

typedef struct {
    const char *src;
    int64_t t, w, W;
    int64_t want;
} eval_case;

Test(model_expr, precedence_and_values)
{
    static const eval_case cases[] = {
        { "1 + 2 * 3", 0, 0, 32, 7 },
        { "(1 + 2) * 3", 0, 0, 32, 9 },
        { "10 - 4 - 3", 0, 0, 32, 3 },
        { "2 * 3 % 4", 0, 0, 32, 2 },
        { "1 << 2 + 1", 0, 0, 32, 8 },
        { "7 & 3 == 3", 0, 0, 32, 1 },
        { "1 | 2 ^ 3 & 1", 0, 0, 32, 3 },
        { "-7 / 2", 0, 0, 32, -3 },
        { "-7 % 2", 0, 0, 32, -1 },
        { "7 % -2", 0, 0, 32, 1 },
        { "-7 >> 1", 0, 0, 32, -4 },
        { "-1 >> 63", 0, 0, 32, -1 },
        { "~5", 0, 0, 32, -6 },
        { "!0", 0, 0, 32, 1 },
        { "!5", 0, 0, 32, 0 },
        { "- -3", 0, 0, 32, 3 },
        { "+4", 0, 0, 32, 4 },
        { "2 + -3", 0, 0, 32, -1 },
        { "3 > 2 ? 10 : 20", 0, 0, 32, 10 },
        { "0 ? 1 : 0 ? 2 : 3", 0, 0, 32, 3 },
        { "1 ? 2 : 3 ? 4 : 5", 0, 0, 32, 2 },
        { "1 < 2 == 1", 0, 0, 32, 1 },
        { "3 >= 3 && 2 <= 1", 0, 0, 32, 0 },
        { "1 && 0 || 1", 0, 0, 32, 1 },
        { "5 && 7", 0, 0, 32, 1 },
        { "0 || 0", 0, 0, 32, 0 },
        { "3 != 4", 0, 0, 32, 1 },
        { "min(3, -2)", 0, 0, 32, -2 },
        { "max(t, 5)", 9, 0, 32, 9 },
        { "max(t, 5)", 2, 0, 32, 5 },
        { "g", 3, 2, 32, 67 },
        { "W", 0, 0, 64, 64 },
        { "w*W + t == g", 5, 7, 16, 1 },
        { "0x1F + 1", 0, 0, 32, 32 },
        { "0XfF", 0, 0, 32, 255 },
        { "t < 16 ? 4*t : 4000 + 256*(t-16)", 3, 0, 32, 12 },
        { "t < 16 ? 4*t : 4000 + 256*(t-16)", 20, 0, 32, 5024 },
        { "  4 *\tt ", 6, 0, 32, 24 },
        { "9223372036854775807", 0, 0, 32, INT64_MAX },
        { "-9223372036854775807 - 1", 0, 0, 32, INT64_MIN },
        { "-1 << 63", 0, 0, 32, INT64_MIN },
        { "1 << 62", 0, 0, 32, INT64_C(4611686018427387904) },
        /* short-circuit: the failing operand is never evaluated */
        { "0 && 1/0", 0, 0, 32, 0 },
        { "1 || 1/0", 0, 0, 32, 1 },
        { "1 ? 5 : 1/0", 0, 0, 32, 5 },
        { "t > 0 ? 100 / t : 0", 0, 0, 32, 0 },
        { "t > 0 ? 100 / t : 0", 7, 0, 32, 14 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t v = eval_at(cases[i].src, cases[i].t, cases[i].w, cases[i].W);
        cr_expect_eq(v, cases[i].want, "'%s' = %lld, want %lld", cases[i].src, (long long)v,
                     (long long)cases[i].want);
    }
}

typedef struct {
    const char *src;
    const char *reason;
    int column;
} eval_error_case;

Test(model_expr, evaluation_errors_name_reason_and_column)
{
    static const eval_error_case cases[] = {
        { "1/0", "division by zero", 2 },
        { "t % 0", "division by zero", 3 },
        { "9223372036854775807 + 1", "overflow", 21 },
        { "-9223372036854775807 - 2", "overflow", 22 },
        { "4611686018427387904 * 2", "overflow", 21 },
        { "1 << 64", "shift count", 3 },
        { "1 << -1", "shift count", 3 },
        { "1 >> 64", "shift count", 3 },
        { "1 << 63", "overflow", 3 },
        { "(-9223372036854775807 - 1) / -1", "overflow", 28 },
        { "(-9223372036854775807 - 1) % -1", "overflow", 28 },
        { "-(-9223372036854775807 - 1)", "overflow", 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_expr *e = NULL;
        bw_error err = BW_ERROR_INIT;
        cr_assert_eq(model_expr_parse(cases[i].src, &e, &err), BW_OK, "%s", cases[i].src);
        model_expr_env env = { 0, 0, 0, 32 };
        int64_t v;
        bw_code rc = model_expr_eval(e, &env, &v, &err);
        cr_expect_eq(rc, BW_E_EVAL, "'%s' should fail", cases[i].src);
        char col[32];
        snprintf(col, sizeof col, "column %d", cases[i].column);
        cr_expect(strstr(bw_error_text(&err), cases[i].reason) != NULL, "'%s': %s", cases[i].src,
                  bw_error_text(&err));
        cr_expect(strstr(bw_error_text(&err), col) != NULL, "'%s' wants %s: %s", cases[i].src, col,
                  bw_error_text(&err));
        model_expr_free(e);
        bw_error_clear(&err);
    }
}

typedef struct {
    const char *src;
    int column;
    const char *found; /* substring of the message naming the token */
    bw_code code;
} syntax_case;

Test(model_expr, syntax_errors_name_column_and_token)
{
    static const syntax_case cases[] = {
        { "4*", 3, "end of expression", BW_E_SYNTAX },
        { "4 +* t", 4, "'*'", BW_E_SYNTAX },
        { "(t", 3, "end of expression", BW_E_SYNTAX },
        { "t)", 2, "')'", BW_E_SYNTAX },
        { "x + 1", 1, "'x'", BW_E_SYNTAX },
        { "4t", 2, "'t'", BW_E_SYNTAX },
        { "min(1)", 6, "')'", BW_E_SYNTAX },
        { "t @ 2", 3, "'@'", BW_E_SYNTAX },
        { "t ? 1", 6, "end of expression", BW_E_SYNTAX },
        { "max", 4, "end of expression", BW_E_SYNTAX },
        { "1 2", 3, "'2'", BW_E_SYNTAX },
        { "t == = 2", 6, "'='", BW_E_SYNTAX },
        { "0x", 1, "'0x'", BW_E_SYNTAX },
        { "sin(t)", 1, "'sin'", BW_E_SYNTAX },
        { "t + T", 5, "'T'", BW_E_SYNTAX },
        { "9223372036854775808", 1, "9223372036854775808", BW_E_RANGE },
        { "0x10000000000000000", 1, "0x10000000000000000", BW_E_RANGE },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_expr *e = NULL;
        bw_error err = BW_ERROR_INIT;
        bw_code rc = model_expr_parse(cases[i].src, &e, &err);
        cr_expect_eq(rc, cases[i].code, "'%s' gave %d: %s", cases[i].src, rc, bw_error_text(&err));
        cr_expect_null(e);
        char col[32];
        snprintf(col, sizeof col, "column %d", cases[i].column);
        cr_expect(strstr(bw_error_text(&err), col) != NULL, "'%s' wants %s: %s", cases[i].src, col,
                  bw_error_text(&err));
        cr_expect(strstr(bw_error_text(&err), cases[i].found) != NULL, "'%s' wants %s: %s",
                  cases[i].src, cases[i].found, bw_error_text(&err));
        bw_error_clear(&err);
    }
}

Test(model_expr, empty_and_too_deep)
{
    model_expr *e = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(model_expr_parse("   ", &e, &err), BW_E_SYNTAX);
    cr_expect(strstr(bw_error_text(&err), "empty") != NULL);
    bw_buf b = BW_BUF_INIT;
    for (int i = 0; i < 600; i++)
        bw_buf_putc(&b, '(');
    bw_buf_putc(&b, 't');
    for (int i = 0; i < 600; i++)
        bw_buf_putc(&b, ')');
    cr_expect_eq(model_expr_parse(bw_buf_str(&b), &e, &err), BW_E_SYNTAX);
    cr_expect(strstr(bw_error_text(&err), "too deeply") != NULL, "%s", bw_error_text(&err));
    bw_buf_reset(&b);
    for (int i = 0; i < 300; i++)
        bw_buf_puts(&b, "-");
    bw_buf_putc(&b, 't');
    cr_expect_eq(model_expr_parse(bw_buf_str(&b), &e, &err), BW_E_SYNTAX);
    bw_buf_free(&b);
    bw_error_clear(&err);
}

Test(model_expr, canonical_print)
{
    static const char *const pairs[][2] = {
        { "4*t", "4 * t" },
        { "((g))", "g" },
        { "(1+2)*3", "(1 + 2) * 3" },
        { "1-(2-3)", "1 - (2 - 3)" },
        { "(1-2)-3", "1 - 2 - 3" },
        { "- -t", "-(-t)" },
        { "-(t+1)", "-(t + 1)" },
        { "0x1f+t", "0x1f + t" },
        { "t<16?4*t:4000+256*(t-16)", "t < 16 ? 4 * t : 4000 + 256 * (t - 16)" },
        { "(t?1:2)?3:4", "(t ? 1 : 2) ? 3 : 4" },
        { "t?1:w?2:3", "t ? 1 : w ? 2 : 3" },
        { "t+1&31", "(t + 1) & 31" },
        { "t&&w||g", "(t && w) || g" },
        { "min(t,max(w,1))", "min(t, max(w, 1))" },
        { "1<<t+1", "1 << (t + 1)" },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        model_expr *e = NULL;
        cr_assert_eq(model_expr_parse(pairs[i][0], &e, NULL), BW_OK, "%s", pairs[i][0]);
        char *s = model_expr_to_string(e);
        cr_expect_str_eq(s, pairs[i][1]);
        free(s);
        model_expr_free(e);
    }
}

Test(model_expr, opencl_form_widens_and_uses_helpers)
{
    model_expr *e = NULL;
    cr_assert_eq(model_expr_parse("min(t < 3, w >> 1) + (5 << 2)", &e, NULL), BW_OK);
    bw_buf b = BW_BUF_INIT;
    model_expr_print_opencl(e, &b);
    const char *s = bw_buf_str(&b);
    cr_expect(strstr(s, "bw_min(") != NULL, "%s", s);
    cr_expect(strstr(s, "bw_shr(w, 1L)") != NULL, "%s", s);
    cr_expect(strstr(s, "bw_shl(5L, 2L)") != NULL, "%s", s);
    cr_expect(strstr(s, "((long)((t) < (3L)))") != NULL, "%s", s);
    bw_buf_free(&b);
    model_expr_free(e);
}

Test(model_expr, opencl_32_bit_form_stays_int)
{
    model_expr *e = NULL;
    cr_assert_eq(model_expr_parse("min(t < 3, w >> 1) + (5 << 2) - !g + max(g % 7, 0x10)", &e, NULL), BW_OK);
    bw_buf b = BW_BUF_INIT;
    model_expr_print_opencl32(e, &b);
    const char *s = bw_buf_str(&b);
    cr_expect(strstr(s, "bw_min32(((t) < (3)), bw_shr32(w, 1))") != NULL, "%s", s);
    cr_expect(strstr(s, "bw_shl32(5, 2)") != NULL, "%s", s);
    cr_expect(strstr(s, "((int)!(g))") != NULL, "%s", s);
    cr_expect(strstr(s, "bw_max32(((int)((uint)(g) % (uint)(7))), 16)") != NULL, "%s", s);
    /* nothing 64-bit: no long literal, cast or 64-bit helper */
    cr_expect(strstr(s, "L") == NULL && strstr(s, "long") == NULL, "%s", s);
    cr_expect(strstr(s, "bw_min(") == NULL && strstr(s, "bw_shr(") == NULL, "%s", s);
    bw_buf_free(&b);
    model_expr_free(e);
}

Test(model_expr, variables_used)
{
    model_expr *e = NULL;
    cr_assert_eq(model_expr_parse("4*g + t", &e, NULL), BW_OK);
    cr_expect_eq(model_expr_vars(e), (1u << MODEL_VAR_G) | (1u << MODEL_VAR_T));
    model_expr_free(e);
}

/* print -> parse -> print is a fixed point, and evaluation agrees (both
 * fail or both give the same value) on random environments */
Test(model_expr, random_round_trip)
{
    uint64_t st = 12345;
    for (int i = 0; i < 3000; i++) {
        bw_buf src = BW_BUF_INIT;
        tu_random_expr(&st, 5, &src);
        model_expr *a = NULL, *b = NULL;
        bw_error err = BW_ERROR_INIT;
        cr_assert_eq(model_expr_parse(bw_buf_str(&src), &a, &err), BW_OK, "%s: %s", bw_buf_str(&src),
                     bw_error_text(&err));
        char *pa = model_expr_to_string(a);
        cr_assert_eq(model_expr_parse(pa, &b, &err), BW_OK, "reparse '%s': %s", pa, bw_error_text(&err));
        char *pb = model_expr_to_string(b);
        cr_assert_str_eq(pa, pb, "from %s", bw_buf_str(&src));
        for (int k = 0; k < 5; k++) {
            int64_t W = tu_range(&st, 1, 64), t = tu_range(&st, 0, W - 1), w = tu_range(&st, 0, 1000);
            model_expr_env env = { t, w, w * W + t, W };
            int64_t va = 0, vb = 0;
            bw_code ra = model_expr_eval(a, &env, &va, NULL), rb = model_expr_eval(b, &env, &vb, NULL);
            cr_assert_eq(ra, rb, "%s", pa);
            if (ra == BW_OK)
                cr_assert_eq(va, vb, "%s", pa);
        }
        free(pa);
        free(pb);
        model_expr_free(a);
        model_expr_free(b);
        bw_buf_free(&src);
        bw_error_clear(&err);
    }
}

/* / and % of values proven non-negative by a positive constant or W print
 * unsigned (cheaper, and foldable); anything that may be negative keeps
 * C's signed, truncating operators. */
Test(model_expr, opencl_form_divides_unsigned_only_where_proven)
{
    static const struct {
        const char *expr, *want, *not_want;
    } cases[] = {
        { "g / 4096 + g % 4096", "((long)((ulong)(g) / (ulong)(4096L)))", NULL },
        { "g % W", "((long)((ulong)(g) % (ulong)(W)))", NULL },
        { "(t - 8) / 3", "((((t) - (8L))) / (3L))", "ulong" },
        { "(t + 8) % -3", "((((t) + (8L))) % ((-(3L))))", "ulong" },
        { "w / t", "((w) / (t))", "ulong" },
        { "(t < 4 ? 4 * t : 4000 + w) / 8", "((long)((ulong)(", NULL },
        { "(t & -4) / 2", "((long)((ulong)(", NULL },
        { "(t | -4) / 2", "((((t) | ((-(4L))))) / (2L))", "ulong" },
        { "max(t - 9, 3) % 5", "((long)((ulong)(", NULL },
        { "min(t - 9, 3) % 5", "% (5L)", "ulong" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_expr *e = NULL;
        cr_assert_eq(model_expr_parse(cases[i].expr, &e, NULL), BW_OK, "%s", cases[i].expr);
        bw_buf b = BW_BUF_INIT;
        model_expr_print_opencl(e, &b);
        const char *s = bw_buf_str(&b);
        cr_expect(strstr(s, cases[i].want) != NULL, "%s: %s", cases[i].expr, s);
        if (cases[i].not_want)
            cr_expect(strstr(s, cases[i].not_want) == NULL, "%s: %s", cases[i].expr, s);
        bw_buf_free(&b);
        model_expr_free(e);
    }
}

/* x / c * c + x % c is x for C's truncating division: the OpenCL form
 * prints x; anything that only looks alike keeps its arithmetic. */
Test(model_expr, opencl_form_folds_the_div_mod_identity)
{
    static const struct {
        const char *expr, *want;
    } cases[] = {
        { "4 * (g / 5760 * 5760 + g % 5760)", "((4L) * (g))" },
        { "g % 7 + g / 7 * 7", "g" },
        { "(t - 9) / 3 * 3 + (t - 9) % 3", "((t) - (9L))" },
        { "g / 7 * 7 + g % 6", "% (ulong)(6L)" },
        { "g / 7 * 7 + w % 7", "(ulong)(w) %" },
        { "g / 7 * 8 + g % 7", "* (8L)" },
        { "g / W * W + g % W", "/ (ulong)(W)" }, /* W is no constant: kept */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_expr *e = NULL;
        cr_assert_eq(model_expr_parse(cases[i].expr, &e, NULL), BW_OK, "%s", cases[i].expr);
        bw_buf b = BW_BUF_INIT;
        model_expr_print_opencl(e, &b);
        const char *s = bw_buf_str(&b);
        if (i < 3)
            cr_expect_str_eq(s, cases[i].want, "%s", cases[i].expr);
        else
            cr_expect(strstr(s, cases[i].want) != NULL, "%s: %s", cases[i].expr, s);
        bw_buf_free(&b);
        model_expr_free(e);
    }
}

/* no recursion grows with the input, nothing
 * the OpenCL compiler would refuse is accepted, and every accepted tree's
 * canonical form re-parses to the same text. */
static bw_code parse_text(const char *src, bw_error *err)
{
    model_expr *e = NULL;
    bw_code rc = model_expr_parse(src, &e, err);
    model_expr_free(e);
    return rc;
}

Test(model_expr, flat_chains_are_bounded_not_recursed)
{
    bw_buf b = BW_BUF_INIT;
    bw_buf_puts(&b, "t");
    for (int i = 1; i < 30000; i++)
        bw_buf_puts(&b, "+t");
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(parse_text(bw_buf_str(&b), &err), BW_E_SYNTAX);
    cr_expect(strstr(bw_error_text(&err), "30000 levels deep") != NULL, "%s", bw_error_text(&err));
    /* right-leaning, through brackets: the parser's own limit */
    bw_buf_reset(&b);
    for (int i = 0; i < 20000; i++)
        bw_buf_puts(&b, "t+(");
    bw_buf_puts(&b, "t");
    for (int i = 0; i < 20000; i++)
        bw_buf_putc(&b, ')');
    cr_expect_eq(parse_text(bw_buf_str(&b), &err), BW_E_SYNTAX);
    bw_buf_free(&b);
    bw_error_clear(&err);
}

Test(model_expr, opencl_bracket_nesting_is_refused_up_front)
{
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    /* 4*g + 127 x "+0": 128 additions, 2 brackets each in the OpenCL form */
    bw_buf_puts(&b, "4*g");
    for (int i = 0; i < 127; i++)
        bw_buf_puts(&b, "+0");
    cr_expect_eq(parse_text(bw_buf_str(&b), &err), BW_E_SYNTAX);
    cr_expect(strstr(bw_error_text(&err), "OpenCL") != NULL, "%s", bw_error_text(&err));
    /* 130 nested minus signs: "(-(" per level, 260 deep */
    bw_buf_reset(&b);
    for (int i = 0; i < 130; i++)
        bw_buf_putc(&b, '-');
    bw_buf_putc(&b, 't');
    cr_expect_eq(parse_text(bw_buf_str(&b), &err), BW_E_SYNTAX);
    cr_expect(strstr(bw_error_text(&err), "OpenCL") != NULL, "%s", bw_error_text(&err));
    /* 100 additions: 200 brackets, within the limit */
    bw_buf_reset(&b);
    bw_buf_puts(&b, "4*g");
    for (int i = 0; i < 99; i++)
        bw_buf_puts(&b, "+0");
    cr_expect_eq(parse_text(bw_buf_str(&b), &err), BW_OK, "%s", bw_error_text(&err));
    bw_buf_free(&b);
    bw_error_clear(&err);
}

/* Re-parses the canonical form of src and checks it prints the same. */
static void expect_round_trip(const char *src)
{
    model_expr *a = NULL, *b = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_expr_parse(src, &a, &err), BW_OK, "%s", bw_error_text(&err));
    char *pa = model_expr_to_string(a);
    cr_assert_eq(model_expr_parse(pa, &b, &err), BW_OK, "reparse of %.80s: %s", pa, bw_error_text(&err));
    char *pb = model_expr_to_string(b);
    cr_assert_str_eq(pa, pb);
    free(pa);
    free(pb);
    model_expr_free(a);
    model_expr_free(b);
    bw_error_clear(&err);
}

Test(model_expr, every_accepted_deep_form_re_parses)
{
    static const char *const unit[][3] = {
        /* prefix, core, suffix repeated n times around "t" */
        { "-", "t", "" }, { "~", "t", "" }, { "!", "t", "" }, { "+-", "t", "" },
        { "(", "t", "+1)" }, { "1+(", "t", ")" }, { "min(1,", "t", ")" },
        { "(", "t", "?1:2)" }, { "t?(", "t", "):3" }, { "(", "t", ")&3" },
    };
    int accepted_deep = 0;
    for (size_t u = 0; u < sizeof unit / sizeof unit[0]; u++) {
        for (int n = 1; n <= 400; n += 3) {
            bw_buf b = BW_BUF_INIT;
            for (int i = 0; i < n; i++)
                bw_buf_puts(&b, unit[u][0]);
            bw_buf_puts(&b, unit[u][1]);
            for (int i = 0; i < n; i++)
                bw_buf_puts(&b, unit[u][2]);
            if (parse_text(bw_buf_str(&b), NULL) == BW_OK) {
                expect_round_trip(bw_buf_str(&b));
                accepted_deep += n >= 70;
            }
            bw_buf_free(&b);
        }
    }
    cr_expect_gt(accepted_deep, 0);
    /* the reproducer: 70 leading minus signs */
    char src[80];
    memset(src, '-', 70);
    strcpy(src + 70, "t");
    expect_round_trip(src);
}

/* model_linear_of: which expressions read as a*g + b, with (a, b) worked
 * out by hand, and every accepted one checked lane by lane against the
 * evaluator (t < W, several warps), the brute-force reference. */
typedef struct {
    const char *src;
    int64_t W;
    int linear;
    int64_t a, b;
} linear_case;

Test(model_expr, linear_reading_is_exact_or_refused)
{
    static const linear_case cases[] = {
        { "4 * g", 32, 1, 4, 0 },
        { "4 * g + 0", 32, 1, 4, 0 },
        { "g * 4 + 8", 32, 1, 4, 8 },
        { "(g << 2) + 8", 32, 1, 4, 8 },
        { "4 * (w * W + t)", 32, 1, 4, 0 },
        { "4 * (w * 32 + t)", 32, 1, 4, 0 },
        /* the same text, another width: w*32 + t is not g when W is 16 */
        { "4 * (w * 32 + t)", 16, 0, 0, 0 },
        { "-(-g) * 2 - 6", 32, 1, 2, -6 },
        { "8 * g - 4 * g", 32, 1, 4, 0 },
        { "+g", 32, 1, 1, 0 },
        { "4 * t", 32, 0, 0, 0 },
        { "4 * w", 32, 0, 0, 0 },
        { "16", 32, 1, 0, 16 },
        { "4 * g / 1", 32, 0, 0, 0 },
        { "4 * (g % 1024)", 32, 0, 0, 0 },
        { "g * g", 32, 0, 0, 0 },
        { "g * (g - g + 4)", 32, 1, 4, 0 },
        { "g * g - g * g + g", 32, 0, 0, 0 },
        { "g << t", 32, 0, 0, 0 },
        { "g << 63", 32, 0, 0, 0 },
        { "g * 4611686018427387904 * 4", 32, 0, 0, 0 },
        { "min(4 * g, 4 * g)", 32, 0, 0, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const linear_case *c = &cases[i];
        model_expr *e = NULL;
        bw_error err = BW_ERROR_INIT;
        cr_assert_eq(model_expr_parse(c->src, &e, &err), BW_OK, "parse '%s'", c->src);
        int64_t a = -1, b = -1;
        int got = model_linear_of(e, c->W, &a, &b);
        cr_expect_eq(got, c->linear, "'%s' with W = %lld: linear %d, expected %d", c->src, (long long)c->W, got,
                     c->linear);
        if (got && c->linear) {
            cr_expect_eq(a, c->a, "'%s': a %lld, expected %lld", c->src, (long long)a, (long long)c->a);
            cr_expect_eq(b, c->b, "'%s': b %lld, expected %lld", c->src, (long long)b, (long long)c->b);
            for (int64_t w = 0; w < 5; w++)
                for (int64_t t = 0; t < c->W; t++)
                    cr_expect_eq(eval_at(c->src, t, w, c->W), a * (w * c->W + t) + b, "'%s' at t %lld, w %lld",
                                 c->src, (long long)t, (long long)w);
        }
        model_expr_free(e);
        bw_error_clear(&err);
    }
    cr_expect_eq(model_linear_of(NULL, 32, &(int64_t){ 0 }, &(int64_t){ 0 }), 0);
}
