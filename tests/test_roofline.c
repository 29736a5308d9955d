/* `bwlab roofline`: the FLOP and byte counts follow from each kernel's
 * parameters, the sweep's intensities are 2k / 4, the modeled ridge and
 * bounds follow from the measured peaks, validation catches a kernel with
 * one FMA missing, and bad options exit 2. No test asserts a speed: only
 * figures that follow from each other in the document. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_roofline_priv.h"
#include "bw_buf.h"
#include "bw_file.h"
#include "test_util.h"
#include "results_roofline_keys.h"
#include "test_keys.h"

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_number(v), "%s is not a number", key);
    return json_number_value(v);
}

static json_int_t integer(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_integer(v), "%s is not an integer", key);
    return json_integer_value(v);
}

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    cr_assert_not_null(s, "%s is not a string", key);
    return s;
}

static char *kernel_text(void)
{
    char path[4096], *text = NULL;
    snprintf(path, sizeof path, "%s/cl/roofline.cl", tu_source_root());
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bw_file_read(path, &text, NULL, &err), BW_OK, "%s", bw_error_text(&err));
    return text;
}

/* the FMA chains of rf_peak: statements "xN = fma(xN, va, vb);" */
static int count_chains(const char *text)
{
    int n = 0;
    for (int c = 0; c < 64; c++) {
        char stmt[64];
        snprintf(stmt, sizeof stmt, "x%d = fma(x%d, va, vb);", c, c);
        n += strstr(text, stmt) != NULL;
    }
    return n;
}

Test(roofline, intensity_by_hand)
{
    /* k FMAs of 2 FLOP per 4-byte float */
    static const struct { uint32_t k; double want; } cases[] = {
        { 1, 0.5 }, { 2, 1.0 }, { 4, 2.0 }, { 8, 4.0 }, { 16, 8.0 }, { 100, 50.0 }, { 1024, 512.0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_expect_eq(bench_roofline_intensity(cases[i].k), cases[i].want, "k = %u", cases[i].k);
}

Test(roofline, peak_reference_by_hand)
{
    /* work-item 1, chain 2, lane 3 of float4 chains: float 1*8*4 + 2*4 + 3 = 43 */
    cr_expect_eq(bench_roofline_peak_value(1, 2, 3, 4, 0, -0.99f, 0.5f), 43.0f / 1024.0f);
    /* the index wraps at 1024: work-item 4 of float16 chains starts at 4*128 = 512, item 8 at 1024 -> 0 */
    cr_expect_eq(bench_roofline_peak_value(4, 0, 0, 16, 0, -0.99f, 0.5f), 0.5f);
    cr_expect_eq(bench_roofline_peak_value(8, 0, 0, 16, 0, -0.99f, 0.5f), 0.0f);
    /* two steps by hand: 0.5 -> 0.5 - 0.495 = 0.005 -> 0.5 - 0.00495 */
    float x = 0.5f;
    x = fmaf(x, -0.99f, 0.5f);
    x = fmaf(x, -0.99f, 0.5f);
    cr_expect_eq(bench_roofline_peak_value(4, 0, 0, 16, 2, -0.99f, 0.5f), x);
    cr_expect_float_eq(x, 0.5 - 0.99 * (0.5 - 0.99 * 0.5), 1e-6);
}

/* a buffer of its own (--size): the test's time does not follow the host's cache */
/* 5 s: room for the sweep and the products on a cold kernel cache under sanitizers, whose
 * build the budget includes */
static const char *const roof_cpu[] = { "roofline", "--device", "cpu", "--size", "16M", "--budget", "5",
                                        "--format", "json", NULL };

Test(roofline, json_contract_and_arithmetic, .timeout = 300)
{
    json_t *doc = tu_exec_json(roof_cpu);
    cr_assert_str_eq(str(doc, "schema"), "bwlab.roofline");
    cr_expect_eq(integer(doc, "schema_version"), 1);
    json_t *dev = json_array_get(json_object_get(doc, "devices"), 0);
    cr_assert_not_null(dev);
    cr_assert_str_eq(str(dev, "status"), "measured");
    cr_expect_str_eq(str(json_object_get(dev, "device"), "type"), "cpu");
    /* every key written is the key table's, with its type */
    const tu_key_table roof_keys[] = { { RESULTS_ROOFLINE_KEYS, RR_COUNT } };
    cr_expect_geq(tu_expect_doc_keys(doc, roof_keys, 1), RR_COUNT - 2, "a measured roofline reaches most keys");

    double P = num(dev, "peak_gflops"), B = num(dev, "peak_gbs");
    double ridge = num(dev, "ridge_intensity"), mridge = num(dev, "measured_ridge_intensity");
    cr_assert(P > 0 && isfinite(P) && B > 0 && isfinite(B));
    cr_expect_float_eq(ridge, P / B, 1e-9 * ridge);
    cr_expect(mridge > 0 && isfinite(mridge), "measured ridge %g", mridge);
    cr_expect_float_eq(mridge, num(dev, "plateau_gflops") / num(dev, "slope_gbs"), 1e-9 * mridge);

    /* the peak kernel's FLOP: work-items x chains x lanes x iterations x 2,
     * the chains counted in the kernel source */
    char *src = kernel_text();
    int chains = count_chains(src);
    free(src);
    json_t *pf = json_object_get(dev, "peak_fma");
    cr_expect_eq(integer(pf, "chains"), chains);
    double want = (double)integer(pf, "items") * (double)chains * (double)integer(pf, "vector_width") *
                  (double)integer(pf, "iterations") * 2.0;
    cr_expect_eq(num(pf, "flop"), want);
    cr_expect_str_eq(str(pf, "validation"), "ok");
    cr_expect_float_eq(P, num(pf, "flop") / num(json_object_get(pf, "time_ns"), "median"), 1e-9 * P);
    /* at least the minimum, unless the budget ended first and says so */
    json_t *bn = json_object_get(dev, "budget_note");
    const char *note = json_is_string(bn) ? json_string_value(bn) : "";
    cr_expect(json_is_null(bn) || json_is_string(bn), "budget_note is neither null nor text");
    json_int_t count = integer(json_object_get(pf, "time_ns"), "count");
    cr_expect(count >= BENCH_ROOFLINE_MIN_REPS || (count >= 1 && strstr(note, "timed fewer than 3 times")),
              "%lld launches, note: %s", (long long)count, note);
    cr_expect_eq(integer(dev, "planned_buffer_bytes") % (1 << 20), 0);
    cr_expect(integer(dev, "buffer_bytes") <= integer(dev, "planned_buffer_bytes"));
    /* a buffer cut for the budget says so */
    if (integer(dev, "buffer_bytes") < integer(dev, "planned_buffer_bytes"))
        cr_expect(strstr(note, "the buffer was cut") != NULL, "note: %s", note);
    cr_expect(json_is_false(json_object_get(doc, "interrupted")));

    /* --size: the buffer, and the document says where it came from */
    cr_expect_eq(integer(dev, "buffer_bytes"), 16 << 20);
    cr_expect_str_eq(str(dev, "working_set_source"), "--size");

    /* the read: the whole buffer once */
    json_t *pr = json_object_get(dev, "peak_read");
    cr_expect_eq(num(pr, "bytes"), (double)integer(dev, "buffer_bytes"));
    cr_expect_eq(integer(pr, "k"), 0);
    cr_expect_float_eq(B, num(pr, "bytes") / num(json_object_get(pr, "time_ns"), "median"), 1e-9 * B);

    json_t *pts = json_object_get(dev, "points");
    cr_assert(json_array_size(pts) >= 4);
    double prev = 0, slope = 0, plateau = 0;
    int memory = 0, compute = 0;
    for (size_t i = 0; i < json_array_size(pts); i++) {
        json_t *p = json_array_get(pts, i);
        json_int_t k = integer(p, "k");
        double I = num(p, "intensity");
        cr_expect_eq(I, (double)k * 2.0 / 4.0, "point %zu", i);
        cr_expect(I > prev, "points not sorted by intensity at %zu", i);
        prev = I;
        double floats = (double)integer(p, "items") * (double)integer(p, "vectors_per_item") *
                        (double)integer(p, "vector_width");
        cr_expect_eq(num(p, "flop"), floats * (double)k * 2.0);
        cr_expect_eq(num(p, "bytes"), floats * 4.0);
        cr_expect(num(p, "bytes") <= (double)integer(dev, "buffer_bytes"));
        cr_expect_float_eq(I, num(p, "flop") / num(p, "bytes"), 1e-12 * I);
        double g = num(p, "gflops"), gb = num(p, "gbs");
        cr_expect(g > 0 && gb > 0);
        cr_expect_float_eq(g, I * gb, 1e-9 * g);
        double att = num(p, "attainable_gflops");
        cr_expect_float_eq(att, fmin(P, I * B), 1e-9 * att);
        cr_expect_float_eq(num(p, "fraction_of_roof"), g / att, 1e-9);
        const char *bound = str(p, "bound");
        cr_expect(!strcmp(bound, "memory") || !strcmp(bound, "compute"), "bound %s", bound);
        cr_expect_eq(!strcmp(bound, "memory"), I < ridge, "k %lld: intensity %g, ridge %g, bound %s", (long long)k, I,
                     ridge, bound);
        memory += !strcmp(bound, "memory");
        compute += !strcmp(bound, "compute");
        cr_expect_str_eq(str(p, "validation"), "ok");
        slope = fmax(slope, gb);
        plateau = fmax(plateau, g);
    }
    /* the tiled product: a tile is measured where two T x T float tiles fit
     * the local memory and T*T work-items a group */
    json_t *dinfo = json_object_get(dev, "device");
    json_t *mm = json_object_get(dev, "matmul");
    cr_assert_eq(json_array_size(mm), 3);
    for (size_t i = 0; i < 3; i++) {
        json_t *t = json_array_get(mm, i);
        json_int_t T = integer(t, "tile");
        cr_expect_eq(T, (json_int_t)8 << i);
        int fits = T * T * 2 * 4 <= integer(dinfo, "local_mem_bytes") && T * T <= integer(dinfo, "max_work_group_size");
        if (!json_is_true(json_object_get(t, "measured"))) {
            cr_expect(str(t, "skipped")[0] != 0);
            continue;
        }
        cr_expect(fits, "tile %lld measured beyond the device's limits", (long long)T);
        json_int_t n = integer(t, "n");
        cr_expect_eq(n % T, 0);
        cr_expect_eq(integer(t, "items"), n * n);
        cr_expect_eq(integer(t, "local_size"), T * T);
        cr_expect_eq(num(t, "flop"), 2.0 * (double)n * (double)n * (double)n);
        cr_expect_eq(num(t, "intensity"), (double)T / 4.0);
        cr_expect_str_eq(str(t, "validation"), "ok");
        double g = num(t, "gflops");
        cr_expect(g > 0);
        cr_expect_float_eq(g, num(t, "flop") / num(json_object_get(t, "time_ns"), "median"), 1e-9 * g);
        cr_expect_float_eq(num(t, "attainable_gflops"), fmin(P, (double)T / 4.0 * B), 1e-9 * P);
        cr_expect_eq(!strcmp(str(t, "bound"), "memory"), (double)T / 4.0 < ridge, "tile %lld: bound %s, ridge %g",
                     (long long)T, str(t, "bound"), ridge);
    }
    cr_expect_float_eq(num(dev, "slope_gbs"), slope, 1e-12 * slope);
    cr_expect_float_eq(num(dev, "plateau_gflops"), plateau, 1e-12 * plateau);
    json_decref(doc);
}

/* a copy of roofline.cl with `line` replaced by `with`, in a new directory */
static char *planted(const char *line, const char *with)
{
    char *text = kernel_text();
    char *at = strstr(text, line);
    cr_assert_not_null(at, "'%s' is not in roofline.cl", line);
    bw_buf b = BW_BUF_INIT;
    bw_buf_printf(&b, "%.*s%s%s", (int)(at - text), text, with, at + strlen(line));
    char *dir = tu_temp_dir();
    tu_write_file(dir, "roofline.cl", bw_buf_str(&b));
    bw_buf_free(&b);
    free(text);
    return dir;
}

static void expect_caught(const char *line, const char *with, const char *what, const char *size)
{
    char *dir = planted(line, with);
    /* a budget that leaves room for every kernel, the tiled products included,
     * on a cold kernel cache under sanitizers: a kernel the plan cuts is never
     * run, so its fault could not show */
    const char *argv[] = { "roofline", "--device", "cpu", "--size", size, "--budget", "8", "--kernels", dir, NULL };
    tu_result r = tu_exec(argv, NULL);
    cr_expect_eq(r.status, 1, "exit %d, stderr: %s", r.status, r.err);
    cr_expect(strstr(r.err, what) != NULL, "stderr: %s", r.err);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

Test(roofline, validation_catches_a_missing_fma, .timeout = 300)
{
    /* Every sweep point must be long enough to time for the run to reach
     * the fault: a 1 MiB read, the sweep's first point, took 19 us on an
     * AVX-512 Xeon guest, under the 20 us floor, and ended each run there.
     * 4 MiB keeps the tiled products, which follow, in an 8 s budget. */
    expect_caught("x7 = fma(x7, va, vb);", "", "chain 7", "4M");
    expect_caught("v3 = fma(v3, va, vb);", "", "rf_sweep", "16M");
    /* the product skips the first term of every tile */
    expect_caught("for (uint j = 0; j < T; j++)", "for (uint j = 1; j < T; j++)", "rf_matmul", "4M");
}

Test(roofline, bad_options_exit_2)
{
    static const char *const bad[][6] = {
        { "roofline", "--budget", "0", NULL },        { "roofline", "--budget", "x", NULL },
        { "roofline", "--budget", "-1", NULL },       { "roofline", "--format", "xml", NULL },
        { "roofline", "--bogus", NULL },              { "roofline", "extra", NULL },
        { "roofline", "--device", NULL },             { "roofline", "--size", "0", NULL },
        { "roofline", "--size", "1536K", NULL },      { "roofline", "--size", "lots", NULL },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tu_result r = tu_exec(bad[i], NULL);
        cr_expect_eq(r.status, 2, "%s %s: exit %d", bad[i][1], bad[i][2] ? bad[i][2] : "", r.status);
        cr_expect(strstr(r.err, "bwlab roofline: error:") != NULL, "stderr: %s", r.err);
        cr_expect_str_eq(r.out, "");
        tu_result_free(&r);
    }
}

/* --size above the device's own largest allocation (its query, as bwlab
 * devices reports it): refused before anything is allocated */
Test(roofline, size_above_the_largest_allocation)
{
    json_t *j = tu_exec_json((const char *[]){ "devices", "--device", "cpu", "--format", "json", NULL });
    json_t *v = json_object_get(json_array_get(json_object_get(j, "devices"), 0), "max_alloc_bytes");
    cr_assert(json_is_integer(v) && json_integer_value(v) > 0, "no CPU device with a largest allocation");
    char size[32];
    snprintf(size, sizeof size, "%lldM", (long long)(json_integer_value(v) >> 20) + 1);
    json_decref(j);
    tu_result r = tu_exec((const char *[]){ "roofline", "--device", "cpu", "--size", size, NULL }, NULL);
    cr_expect_eq(r.status, 2, "--size %s: exit %d: %s", size, r.status, r.err);
    cr_expect(strstr(r.err, "CL_DEVICE_MAX_MEM_ALLOC_SIZE") != NULL, "stderr: %s", r.err);
    tu_result_free(&r);
}

Test(roofline, help_names_the_command)
{
    const char *argv[] = { "help", "roofline", NULL };
    tu_result r = tu_exec(argv, NULL);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "bwlab roofline [--device SPEC]") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "2k / 4") != NULL);
    tu_result_free(&r);
}
