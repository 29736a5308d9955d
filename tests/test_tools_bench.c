/* tools/native_stream, the native reference of tools/bench.sh, on a small
 * size: it runs, checks its own results and prints them in its key=value
 * lines. No speed is asserted: bench.sh prints speeds, tests never time. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const char *native_stream(void)
{
    const char *p = getenv("BWLAB_NATIVE_STREAM");
    cr_assert(p && *p, "BWLAB_NATIVE_STREAM is not set (tests/meson.build sets it)");
    return p;
}

/* the line of stdout for mode, or NULL */
static const char *line_of(const char *out, const char *mode)
{
    char key[64];
    snprintf(key, sizeof key, "native_stream mode=%s ", mode);
    for (const char *s = out; s && *s;) {
        if (!strncmp(s, key, strlen(key)))
            return s;
        s = strchr(s, '\n');
        s = s ? s + 1 : NULL;
    }
    return NULL;
}

/* the value of " key=" in the line, as text up to the next space */
static void field(const char *line, const char *key, char *value, size_t n)
{
    char k[64];
    snprintf(k, sizeof k, " %s=", key);
    const char *end = strchr(line, '\n');
    const char *p = strstr(line, k);
    cr_assert(p && (!end || p < end), "no %s= in: %.*s", key, end ? (int)(end - line) : (int)strlen(line), line);
    p += strlen(k);
    size_t len = strcspn(p, " \n");
    cr_assert_lt(len, n);
    memcpy(value, p, len);
    value[len] = '\0';
}

/* the line's PREFIX_min, PREFIX_median and PREFIX_max (or min_PREFIX,
 * ...: pre 0) are positive finite numbers in that order */
static void ordered(const char *line, const char *prefix, int pre)
{
    static const char *const which[3] = { "min", "median", "max" };
    double q[3];
    char v[64], key[64];
    for (int i = 0; i < 3; i++) {
        snprintf(key, sizeof key, "%s_%s", pre ? prefix : which[i], pre ? which[i] : prefix);
        field(line, key, v, sizeof v);
        char *end = NULL;
        q[i] = strtod(v, &end);
        cr_expect(*end == '\0' && isfinite(q[i]) && q[i] > 0, "%s=%s", key, v);
    }
    cr_expect(q[0] <= q[1] && q[1] <= q[2], "%s: min %g, median %g, max %g", prefix, q[0], q[1], q[2]);
}

static void check_line(const char *out, const char *mode)
{
    const char *line = line_of(out, mode);
    cr_assert(line, "no %s line in:\n%s", mode, out);
    char v[64];
    field(line, "bytes", v, sizeof v);
    cr_expect_str_eq(v, "1048576");
    field(line, "elems", v, sizeof v);
    cr_expect_str_eq(v, "262144"); /* uint32_t elements, as bwlab's seq */
    field(line, "reps", v, sizeof v);
    cr_expect_str_eq(v, "2");
    field(line, "check", v, sizeof v);
    cr_expect_str_eq(v, "ok");
    field(line, "threads", v, sizeof v);
    cr_expect_gt(atoi(v), 0);
    /* figures present and ordered; their size is not the test's business */
    ordered(line, "gbs", 0);
}

Test(native_stream, read_and_copy_checked)
{
    const char *argv[] = { native_stream(), "--size", "1M", "--reps", "2", NULL };
    tu_result r = tu_run_cmd(argv, NULL);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_expect_str_eq(r.err, "");
    check_line(r.out, "read");
    check_line(r.out, "copy");
    tu_result_free(&r);
}

Test(native_stream, one_mode)
{
    const char *argv[] = { native_stream(), "--size", "1048576", "--reps", "2", "--warmup", "0",
                           "--mode", "copy", NULL };
    tu_result r = tu_run_cmd(argv, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    check_line(r.out, "copy");
    cr_expect_null(line_of(r.out, "read"), "read measured with --mode copy:\n%s", r.out);
    tu_result_free(&r);
}

/* the strided mode: one line, checked (b[i] = a[4 i] against the
 * generator), with the paired ratios present and ordered */
Test(native_stream, strided_pairs_checked)
{
    const char *argv[] = { native_stream(), "--size", "1M", "--reps", "2", "--mode", "strided", "--stride", "4", NULL };
    tu_result r = tu_run_cmd(argv, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    check_line(r.out, "strided");
    cr_expect_null(line_of(r.out, "copy"), "copy measured with --mode strided:\n%s", r.out);
    const char *line = line_of(r.out, "strided");
    char v[64];
    field(line, "stride", v, sizeof v);
    cr_expect_str_eq(v, "4");
    ordered(line, "ratio", 1);
    tu_result_free(&r);
}

Test(native_stream, bad_arguments)
{
    /* not a multiple of 4 bytes, no repetitions, an unknown mode or
     * option, a stride not a power of two or without the strided mode */
    const char *const cases[][5] = { { "--size", "1023", NULL },   { "--reps", "0", NULL },
                                     { "--mode", "write", NULL },  { "--size", "-4", NULL },
                                     { "--fast", NULL, NULL },     { "--mode", "strided", "--stride", "3", NULL },
                                     { "--stride", "4", NULL },    { "--mode", "strided", "--stride", "128", NULL } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[] = { native_stream(), cases[i][0], cases[i][1], cases[i][1] ? cases[i][2] : NULL,
                               cases[i][1] && cases[i][2] ? cases[i][3] : NULL, NULL };
        tu_result r = tu_run_cmd(argv, NULL);
        cr_expect_eq(r.status, 2, "%s %s: exit %d", cases[i][0], cases[i][1] ? cases[i][1] : "", r.status);
        cr_expect_str_eq(r.out, "");
        cr_expect(strstr(r.err, "usage: native_stream"), "%s", r.err);
        tu_result_free(&r);
    }
}
