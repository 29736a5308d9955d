/* The measured suite on PoCL: every catalogue pattern validates against the
 * host reference and its kernel's addresses equal the model's; plans are
 * sized from the device's limits; bad kernels and bad input fail clearly.
 * Plus statistics and verdicts worked by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "bench_run_priv.h"
#include "bench_device_priv.h"
#include "bench_family.h"
#include "bench_fill.h"
#include "bench_bank.h"
#include "bench_device.h"
#include "bench_kernel.h"
#include "bench_plan_priv.h"
#include "bench_probe_priv.h"
#include "bench_runner.h"
#include "bench_stats.h"
#include "bench_transpose.h"
#include "bench_twin.h"
#include "bw_hook.h"
#include "bench_validate.h"
#include "bench_verdict.h"
#include "bench_explain.h"
#include "bw_file.h"
#include "model_profile.h"
#include "ocl_context.h"
#include "ocl_buffer.h"
#include "ocl_device.h"
#include "ocl_program.h"
#include "bench_run.h"
#include "report_results.h"
#include "test_util.h"
#include <jansson.h>

/* the first CPU device (PoCL) and its context, shared by a test; a machine
 * without one skips the test */
typedef struct dev {
    model_profiles *profiles;
    ocl_platforms *plats;
    ocl_context *ctx;
    const ocl_device_info *info;
    bench_device prov; /* info as the report layer reads it */
    bench_limits lim;
} dev;

static dev open_dev(void)
{
    dev d;
    memset(&d, 0, sizeof d);
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_profiles_load_default(&d.profiles, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_discover(d.profiles, &d.plats, &err), BW_OK, "%s", bw_error_text(&err));
    size_t *idx = NULL, n = 0;
    if (ocl_select(d.plats, "cpu", &idx, &n, &err) != BW_OK)
        cr_skip_test("no CPU OpenCL device (install pocl-opencl-icd): %s", bw_error_text(&err));
    cr_assert_eq(ocl_context_create(d.plats, idx[0], &d.ctx, &err), BW_OK, "%s", bw_error_text(&err));
    d.info = ocl_device_at(d.plats, idx[0]);
    bench_device_of(d.info, 0, &d.prov);
    free(idx);
    bench_limits l = { d.info->global_cache_bytes, d.info->max_alloc_bytes, d.info->global_mem_bytes,
                       d.info->max_work_group_size, 0, d.info->address_bits, 0, "" };
    d.lim = l;
    return d;
}

static void close_dev(dev *d)
{
    ocl_context_free(d->ctx);
    ocl_platforms_free(d->plats);
    model_profiles_free(d->profiles);
}

static bench_plan *plan_of(const dev *d, const char *const *specs, size_t n, const char *const *exprs,
                           size_t ne, uint64_t size)
{
    /* both kernel forms, as a run on a CPU device builds them */
    bench_plan_opts o = { .specs = specs, .nspecs = n, .exprs = exprs, .nexprs = ne, .size = size, .scalar_form = 1 };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &d->info->geo, &d->lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    return p;
}

static bench_kernels *kernels(const char *dir)
{
    bench_kernels *k = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_kernels_load(dir, &k, &err), BW_OK, "%s", bw_error_text(&err));
    return k;
}

/* The sanitizer pass (BWLAB_TEST_QUICK) checks every other spec of the
 * longest kernel tests: the host code each spec runs through is the same,
 * only the kernels differ, and the sanitizers slow each launch and
 * validation. Keeps v[0] (seq); returns the new count. */
static size_t quick_subset(const char **v, size_t n)
{
    if (!getenv("BWLAB_TEST_QUICK"))
        return n;
    size_t k = 0;
    for (size_t i = 0; i < n; i += 2)
        v[k++] = v[i];
    return k;
}

/* The working set of the tests that validate and trace every pattern:
 * 1 MiB, and a quarter of it in the sanitizer pass (BWLAB_TEST_QUICK),
 * whose host reference and trace comparison run several times slower per
 * work-item; every pattern and index form still spans many work-groups. */
static uint64_t sweep_bytes(void)
{
    return getenv("BWLAB_TEST_QUICK") ? 1u << 18 : 1u << 20;
}

Test(bench, every_pattern_validates_and_matches_the_model, .timeout = 300)
{
    dev d = open_dev();
    size_t nd = 0;
    char **defaults = bench_plan_default_specs(0, 256, &nd);
    /* the whole default sweep, every element size, vloadn, masks, and two
     * expressions of one's own */
    const char *extra[] = { "offset:bytes=4,elem=16", "offset:bytes=4,elem=8", "stride:s=3,elem=8",
                            "one-lane:elem=16", "permute:seed=7", "mixed:s=5", "aos:struct=20,field=4" };
    size_t n = nd + sizeof extra / sizeof extra[0];
    const char **specs = calloc(n, sizeof *specs);
    for (size_t i = 0; i < nd; i++)
        specs[i] = defaults[i];
    size_t nq = quick_subset(specs, nd); /* every extra spec in any case */
    for (size_t i = nd; i < n; i++)
        specs[nq + i - nd] = extra[i - nd];
    n = nq + (n - nd);
    const char *exprs[] = { "t < 4 ? 4*g : 4*(g ^ 3) + 64", "4*((g % 100)*37 % 1000 + 1000*(w % 3))" };
    bench_plan *p = plan_of(&d, specs, n, exprs, 2, sweep_bytes());
    bench_kernels *k = kernels(NULL);
    bench_settings s = bench_settings_default();
    s.budget_s = 0.05;
    s.min_reps = 1;
    /* this test is about validation and the model: 1 MiB launches may be
     * shorter than the timer floor, which has a test of its own */
    s.min_launch_ns = 1e-3;
    volatile sig_atomic_t stop = 0;
    bench_result *res = NULL;
    bench_run_info info;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_run(d.ctx, p, k, &s, &stop, NULL, NULL, &res, &info, &err), BW_OK, "%s",
                 bw_error_text(&err));
    int vloads = 0, masked = 0;
    for (size_t i = 0; i < p->n; i++) {
        cr_expect_eq(res[i].status, BENCH_OK, "%s: %s", p->items[i].spec, res[i].failure ? res[i].failure : "");
        cr_expect_geq(res[i].event.count, 1, "%s", p->items[i].spec);
        cr_expect(res[i].effective_gbs > 0, "%s", p->items[i].spec);
        cr_expect(res[i].event.median > 0);
        /* the driver's sub-group size: unknown, or a real one within the work-group */
        cr_expect(res[i].sub_group_size == 0 || res[i].sub_group_size <= (size_t)p->items[i].local_size,
                  "%s: sub-group %zu", p->items[i].spec, res[i].sub_group_size);
        cr_expect_eq(p->items[i].index_bits, 64, "a CPU keeps 64-bit indices in auto");
        vloads += p->items[i].vload;
        masked += model_lanes_count(&p->items[i].active) < p->geo.lanes;
    }
    /* the kernels' addresses are the model's, for every work-item */
    cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_geq(vloads, 2, "the vloadn path was not exercised");
    if (!getenv("BWLAB_TEST_QUICK"))
        cr_expect_geq(masked, 2, "masked lanes were not exercised");
    /* seq compares with itself */
    long ref = bench_plan_reference(p, 0);
    cr_expect_eq(ref, 0);
    cr_expect_float_eq(res[0].relative_to_reference, 1.0, 1e-12);
    bench_results_free(res, p->n);
    bench_kernels_free(k);
    bench_plan_free(p);
    for (size_t i = 0; i < nd; i++)
        free(defaults[i]);
    free(defaults);
    free(specs);
    bw_error_clear(&err);
    close_dev(&d);
}

/* a kernel directory holding the kernel files, `file` modified */
static char *kernel_dir_editing(const char *file, const char *from, const char *to)
{
    char *dir = tu_temp_dir();
    static const char *const files[] = { "gather.cl", "bw_expr.cl", "bank.cl", "transpose.cl", "record.cl",
                                         "fill.cl" };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/cl/%s", tu_source_root(), files[k]);
        char *text = NULL;
        cr_assert_eq(bw_file_read(path, &text, NULL, NULL), BW_OK);
        bw_buf b = BW_BUF_INIT;
        char *at = strcmp(files[k], file) ? NULL : strstr(text, from);
        cr_assert(at || strcmp(files[k], file), "'%s' not in %s", from, file);
        if (at) {
            bw_buf_putn(&b, text, (size_t)(at - text));
            bw_buf_puts(&b, to);
            bw_buf_puts(&b, at + strlen(from));
        } else {
            bw_buf_puts(&b, text);
        }
        tu_write_file(dir, files[k], bw_buf_str(&b));
        bw_buf_free(&b);
        free(text);
    }
    return dir;
}

/* a kernel directory holding a modified gather.cl */
static char *kernel_dir_with(const char *from, const char *to)
{
    return kernel_dir_editing("gather.cl", from, to);
}

/* the settings of runs that validate rather than time */
static bench_settings validating_settings(void)
{
    bench_settings s = bench_settings_default();
    s.budget_s = 0.01;
    s.min_reps = 1;
    s.min_launch_ns = 1e-3;
    return s;
}

static bench_result *run_with_info(dev *d, bench_plan *p, const char *dir, bench_run_info *info)
{
    bench_kernels *k = kernels(dir);
    bench_settings s = validating_settings();
    volatile sig_atomic_t stop = 0;
    bench_result *res = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_run(d->ctx, p, k, &s, &stop, NULL, NULL, &res, info, &err), BW_OK, "%s",
                 bw_error_text(&err));
    bench_kernels_free(k);
    return res;
}

static bench_result *run_with(dev *d, bench_plan *p, const char *dir)
{
    bench_run_info info;
    return run_with_info(d, p, dir, &info);
}

/* Rounds are cut before a pattern is left out. plan_slow makes the plan
 * see stride:s=2's launches as 0.3 s each, and min_reps 400 asks for 400
 * of them: 120 s, beyond the 20 s budget on any host. At the timing's
 * floor of 3 rounds (with its form calibration and warm-up) the item
 * needs about 2 s, which the budget holds after the builds, on a loaded
 * host with a cold kernel cache too: so the plan keeps the floor, nothing
 * is left out, and stride:s=2 is measured. The run ends once it is. */
Test(bench, rounds_are_cut_before_a_pattern_is_left_out, .timeout = 120)
{
    if (!bw_hook_enabled())
        cr_skip_test("built without fault hooks: the plan's estimate is the machine's");
    dev d = open_dev();
    const char *specs[] = { "seq", "stride:s=2" };
    bench_plan *p = plan_of(&d, specs, 2, NULL, 0, 1 << 20);
    bench_kernels *k = kernels(NULL);
    bench_settings s = bench_settings_default();
    s.budget_s = 20;
    s.min_reps = 400;
    s.min_launch_ns = 1e-3;
    cr_assert_eq(setenv("BWLAB_TEST_FAULTS", "plan_slow=stride:s=2@300", 1), 0);
    volatile sig_atomic_t stop = 0;
    bench_result *res = NULL;
    bench_run_info info;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = bench_run(d.ctx, p, k, &s, &stop, NULL, NULL, &res, &info, &err);
    unsetenv("BWLAB_TEST_FAULTS");
    cr_assert_eq(rc, BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(info.left_out, 0);
    cr_expect_eq(res[1].status, BENCH_OK, "%s", res[1].failure ? res[1].failure : "");
    cr_expect_null(res[1].budget_note, "%s", res[1].budget_note);
    cr_expect_geq(res[1].event.count, 3);
    /* the plan kept is the cut one: at least stride:s=2's 3 rounds of
     * 0.3 s, far below its 400 launches' 120 s, and within the time left */
    cr_expect(info.planned_s >= 0.9 && info.planned_s < 20, "planned %.1f s", info.planned_s);
    cr_expect_leq(info.planned_s, info.available_s);
    bench_results_free(res, p->n);
    bench_kernels_free(k);
    bench_plan_free(p);
    close_dev(&d);
}

/* the files under dir, at any depth */
static size_t files_under(const char *dir)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) == 0)
            n += S_ISDIR(st.st_mode) ? files_under(path) : 1;
    }
    if (d)
        closedir(d);
    return n;
}

/* one short run of plan p (bench_settings fresh_build: fresh); its
 * preparation per kernel, s */
static double short_run(const dev *d, bench_plan *p, const bench_kernels *k, int fresh)
{
    bench_settings s = bench_settings_default();
    s.budget_s = 2;
    s.no_twins = 1;
    s.fresh_build = fresh;
    volatile sig_atomic_t stop = 0;
    bench_result *res = NULL;
    bench_run_info info;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_run(d->ctx, p, k, &s, &stop, NULL, NULL, &res, &info, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_expect_eq(res[0].status, BENCH_OK, "%s", res[0].failure ? res[0].failure : "");
    bench_results_free(res, p->n);
    return info.prep_kernel_s;
}

/* A fresh build is no kernel cache's hit: PoCL keeps each program it
 * compiles under POCL_CACHE_DIR, and a second build of the same program
 * adds nothing there, while each fresh one adds its own (bench_fit prices
 * a plan's compiles from a fresh calibration). The preparation per
 * kernel is measured either way. */
Test(bench, a_fresh_build_is_compiled_anew, .timeout = 120)
{
    char *cache = tu_temp_dir();
    cr_assert_eq(setenv("POCL_CACHE_DIR", cache, 1), 0); /* before the platform is opened */
    dev d = open_dev();
    if (strstr(d.info->platform_name, "Portable Computing Language") == NULL)
        cr_skip_test("the CPU device is not PoCL's (%s): its kernel cache is not POCL_CACHE_DIR",
                     d.info->platform_name);
    const char *specs[] = { "seq" };
    bench_plan *p = plan_of(&d, specs, 1, NULL, 0, 1 << 20);
    bench_kernels *k = kernels(NULL);
    cr_expect_gt(short_run(&d, p, k, 0), 0, "the preparation is measured");
    size_t first = files_under(cache);
    if (first == 0)
        cr_skip_test("PoCL keeps no kernel cache here (POCL_KERNEL_CACHE=0?)");
    short_run(&d, p, k, 0);
    cr_expect_eq(files_under(cache), first, "the same program again: served from the cache");
    cr_expect_gt(short_run(&d, p, k, 1), 0);
    size_t second = files_under(cache);
    cr_expect_gt(second, first, "a fresh build is compiled and kept anew");
    short_run(&d, p, k, 1);
    cr_expect_gt(files_under(cache), second, "and so is the next");
    bench_kernels_free(k);
    bench_plan_free(p);
    close_dev(&d);
    tu_rmdir(cache);
    free(cache);
}

Test(bench, wrong_results_are_failures_not_timings, .timeout = 120)
{
    dev d = open_dev();
    const char *specs[] = { "seq", "stride:s=2" };
    bench_plan *p = plan_of(&d, specs, 2, NULL, 0, 1 << 20);
    /* a kernel that reads the element after the right one */
    char *dir = kernel_dir_with("v[j] = BW_LOAD(src, a);", "v[j] = BW_LOAD(src, a + BW_E);");
    bench_result *res = run_with(&d, p, dir);
    for (size_t i = 0; i < p->n; i++) {
        cr_expect_eq(res[i].status, BENCH_FAILED, "%s", p->items[i].spec);
        cr_expect_eq(res[i].failure_code, BW_E_VALIDATION);
        cr_expect(strstr(res[i].failure, "work-item 0") != NULL, "%s", res[i].failure);
        cr_expect_eq(res[i].event.count, 0, "a wrong kernel was timed");
    }
    bench_results_free(res, p->n);
    tu_rmdir(dir);
    free(dir);
    /* a kernel that skips half its stores */
    dir = kernel_dir_with("        dst[BW_G(j)] = v[j];\n#endif",
                          "        if (p % 2 == 0) dst[BW_G(j)] = v[j];\n#endif");
    res = run_with(&d, p, dir);
    cr_expect_eq(res[0].status, BENCH_FAILED);
    cr_expect(strstr(res[0].failure, "work-item 1 ") != NULL, "%s", res[0].failure);
    bench_results_free(res, p->n);
    tu_rmdir(dir);
    free(dir);
    /* a kernel whose address is off for one work-item: the trace shows it */
    dir = kernel_dir_with("const long a = BW_ADDR;", "const long a = BW_ADDR + (g == 5 ? BW_E : 0);");
    bench_kernels *k = kernels(dir);
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_E_VALIDATION);
    cr_expect(strstr(bw_error_text(&err), "work-item 5 ") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    bench_kernels_free(k);
    tu_rmdir(dir);
    free(dir);
    bench_plan_free(p);
    close_dev(&d);
}

/* Transpose items in a run on the CPU device: validated against the
 * host's transpose and traced; a planted tiled kernel that reads its tile
 * at [ly][lx] (one index swapped) fails validation at (row 0, column 1)
 * and is not timed, the naive and copy kernels beside it pass; a kernel
 * that loads one element off for work-item 5 fails the trace check. */
Test(bench, transpose_items_run_validate_and_trace, .timeout = 300)
{
    dev d = open_dev();
    const char *specs[] = { "transpose:version=tiled", "transpose:version=padded", "transpose:version=naive" };
    bench_plan *p = plan_of(&d, specs, 3, NULL, 0, 1 << 20);
    cr_assert_eq(p->n, 4, "transpose:version=copy added as reference");
    bench_result *res = run_with(&d, p, NULL);
    for (size_t i = 0; i < p->n; i++) {
        cr_expect_eq(res[i].status, BENCH_OK, "%s: %s", p->items[i].spec, res[i].failure ? res[i].failure : "");
        cr_expect_eq(res[i].reference, 3, "%s", p->items[i].spec);
    }
    bench_results_free(res, p->n);
    bench_kernels *k = kernels(NULL);
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_OK, "%s", bw_error_text(&err));
    bench_kernels_free(k);

    char *dir = kernel_dir_editing("transpose.cl", "tile[lx * (PITCH) + ly]", "tile[ly * (PITCH) + lx]");
    res = run_with(&d, p, dir);
    for (size_t i = 0; i < 2; i++) {
        cr_expect_eq(res[i].status, BENCH_FAILED, "%s", p->items[i].spec);
        cr_expect_eq(res[i].failure_code, BW_E_VALIDATION);
        cr_expect(res[i].failure && strstr(res[i].failure, "(row 0, column 1)") != NULL, "%s", res[i].failure);
        cr_expect_eq(res[i].event.count, 0, "a wrong kernel was timed");
    }
    cr_expect_eq(res[2].status, BENCH_OK, "naive does not use the tile");
    cr_expect_eq(res[3].status, BENCH_OK, "copy does not use the tile");
    bench_results_free(res, p->n);
    tu_rmdir(dir);
    free(dir);

    dir = kernel_dir_editing("transpose.cl", "BW_TRACE(g, y * BW_N + x);", "BW_TRACE(g, y * BW_N + x + (g == 5));");
    k = kernels(dir);
    cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_E_VALIDATION);
    cr_expect(strstr(bw_error_text(&err), "work-item 5 ") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    bench_kernels_free(k);
    tu_rmdir(dir);
    free(dir);
    bench_plan_free(p);
    close_dev(&d);
}

/* Record items on the CPU device: 3 floats aos and soa, 6 floats aos and
 * 3 bytes (RGB) aos, each with its soa form added as reference; every
 * record's fold validates against the host's and every field's load
 * address traces to the model's (expression + the field's base). A kernel
 * that folds the fields in another order (f = 1 first) fails validation
 * and is not timed; one whose trace of field 1 is one field off fails the
 * trace check, which names field 1. */
Test(bench, record_items_run_validate_and_trace, .timeout = 300)
{
    dev d = open_dev();
    const char *specs[] = { "record:fields=3,n=4096", "record:fields=3,layout=soa,n=4096", "record:fields=6,n=4096",
                            "record:fields=3,type=uchar,n=4096" };
    bench_plan *p = plan_of(&d, specs, 4, NULL, 0, 1 << 20);
    cr_assert_eq(p->n, 6, "the soa forms of 6 floats and of RGB bytes added");
    const long refs[] = { 1, 1, 4, 5, 4, 5 };
    for (size_t i = 0; i < p->n; i++) {
        cr_expect(bench_family_is(&p->items[i], MODEL_PATTERN_KERNEL_RECORD));
        cr_expect_eq(bench_plan_reference(p, i), refs[i], "%s", p->items[i].spec);
        cr_expect_eq(p->items[i].items, 4096);
    }
    bench_result *res = run_with(&d, p, NULL);
    for (size_t i = 0; i < p->n; i++)
        cr_expect_eq(res[i].status, BENCH_OK, "%s: %s", p->items[i].spec, res[i].failure ? res[i].failure : "");
    bench_results_free(res, p->n);
    bench_kernels *k = kernels(NULL);
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_OK, "%s", bw_error_text(&err));
    bench_kernels_free(k);

    char *dir = kernel_dir_editing("record.cl", "acc = rotate(acc, 5u) ^ (uint)v[j][f];",
                                   "acc = rotate(acc, 5u) ^ (uint)v[j][(f + 1) % BW_FIELDS];");
    res = run_with(&d, p, dir);
    for (size_t i = 0; i < p->n; i++) {
        cr_expect_eq(res[i].status, BENCH_FAILED, "%s", p->items[i].spec);
        cr_expect_eq(res[i].failure_code, BW_E_VALIDATION);
        cr_expect(res[i].failure && strstr(res[i].failure, "record 0's fold") != NULL, "%s", res[i].failure);
        cr_expect_eq(res[i].event.count, 0, "a wrong kernel was timed");
    }
    bench_results_free(res, p->n);
    tu_rmdir(dir);
    free(dir);

    dir = kernel_dir_editing("record.cl", "BW_TRACE(f, g, idx);", "BW_TRACE(f, g, idx + (f == 1));");
    k = kernels(dir);
    cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_E_VALIDATION);
    cr_expect(strstr(bw_error_text(&err), "field 1's load") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    bench_kernels_free(k);
    tu_rmdir(dir);
    free(dir);
    bench_plan_free(p);
    close_dev(&d);
}

Test(bench, broken_kernel_source_fails_with_the_build_log, .timeout = 120)
{
    dev d = open_dev();
    const char *specs[] = { "seq", "broadcast" };
    bench_plan *p = plan_of(&d, specs, 2, NULL, 0, 1 << 20);
    char *dir = kernel_dir_with("const long a = BW_ADDR;", "const long a = BW_ADDR + no_such_thing;");
    bench_result *res = run_with(&d, p, dir);
    for (size_t i = 0; i < p->n; i++) {
        cr_expect_eq(res[i].status, BENCH_FAILED);
        cr_expect_eq(res[i].failure_code, BW_E_BUILD);
        cr_expect(strstr(res[i].failure, "no_such_thing") != NULL, "no build log: %s", res[i].failure);
        cr_expect(strstr(res[i].failure, "gather.cl") != NULL, "%s", res[i].failure);
    }
    bench_results_free(res, p->n);
    tu_rmdir(dir);
    free(dir);
    bench_plan_free(p);
    close_dev(&d);
}

/* plans are pure: a made-up device of known limits */
static const model_geometry cpu_geo = { 8, 64, 64, 0, 4, 0 };
static const bench_limits cpu_lim = { 32u << 20, 1u << 30, 4ull << 30, 4096, 0, 64, 0, "" };

static bw_code try_plan(const char *spec, const char *expr, uint64_t size, const bench_limits *lim,
                        bench_plan **p, bw_error *err)
{
    const char *specs[] = { spec };
    const char *exprs[] = { expr };
    bench_plan_opts o = { .specs = specs, .nspecs = spec ? 1 : 0, .exprs = exprs, .nexprs = expr ? 1 : 0, .size = size };
    return bench_plan_make(&o, &cpu_geo, lim, p, err);
}

Test(bench, plans_are_sized_from_the_device)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    /* auto: 4 x 32 MiB = 128 MiB of footprint; seq of floats: 32M items */
    cr_assert_eq(try_plan("seq", NULL, 0, &cpu_lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->target_bytes, 128u << 20);
    cr_expect_eq(p->target_auto, 1);
    cr_expect_eq(p->n, 1);
    cr_expect_eq(p->items[0].items, 32 << 20);
    cr_expect_eq(p->items[0].model.loads.footprint_sectors * 64, 128 << 20);
    cr_expect_eq(p->src_bytes, 128u << 20);
    cr_expect_eq(p->local_size, 256);
    bench_plan_free(p);
    /* stride 64: one line per item, so 2M items spanning 512 MiB */
    cr_assert_eq(try_plan("stride:s=64", NULL, 0, &cpu_lim, &p, &err), BW_OK);
    cr_expect_eq(p->n, 2, "seq is added as the reference");
    cr_expect_eq(p->items[0].items, 2 << 20);
    cr_expect_eq(p->items[0].span.max_end, (int64_t)((2 << 20) - 1) * 256 + 4);
    cr_expect_null(p->items[0].size_note);
    cr_expect_str_eq(p->items[1].spec, "seq");
    cr_expect_eq(p->items[1].added_as_reference, 1);
    bench_plan_free(p);
    /* with a 256 MiB largest allocation the stride pattern is cut down, and says so */
    bench_limits small = cpu_lim;
    small.max_alloc_bytes = 256u << 20;
    cr_assert_eq(try_plan("stride:s=64", NULL, 0, &small, &p, &err), BW_OK);
    cr_expect_leq(p->items[0].span.max_end, 256 << 20);
    cr_expect_not_null(p->items[0].size_note);
    cr_expect_leq(p->src_bytes, 256u << 20);
    bench_plan_free(p);
    /* a GPU reporting a 4 MiB cache still gets 512 MiB, within a quarter of its memory */
    bench_limits gpu = { 4u << 20, 8ull << 30, 80ull << 30, 1024, 1, 64, 0, "" };
    cr_assert_eq(try_plan("seq", NULL, 0, &gpu, &p, &err), BW_OK);
    cr_expect_eq(p->target_bytes, 512u << 20);
    bench_plan_free(p);
    gpu.global_mem_bytes = 1ull << 30;
    cr_assert_eq(try_plan("seq", NULL, 0, &gpu, &p, &err), BW_OK);
    cr_expect_eq(p->target_bytes, 256u << 20);
    bench_plan_free(p);
    /* an explicit size */
    cr_assert_eq(try_plan("seq:elem=16", NULL, 1 << 20, &cpu_lim, &p, &err), BW_OK);
    cr_expect_eq(p->items[0].items, 65536);
    cr_expect_eq(p->target_auto, 0);
    bench_plan_free(p);
    /* the default set: the sweeps, the whole catalogue, matrices filling the target */
    cr_assert_eq(try_plan(NULL, NULL, 0, &cpu_lim, &p, &err), BW_OK);
    static const char *const want[] = { "seq", "seq:elem=16", "stride:s=1", "stride:s=64", "offset:bytes=0",
                                        "offset:bytes=128", "reverse", "permute:seed=1", "broadcast", "one-lane",
                                        "mixed:s=32", "matrix-row:n=5760", "matrix-col:n=5760" };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int found = 0;
        for (size_t i = 0; i < p->n; i++)
            found |= !strcmp(p->items[i].spec, want[k]);
        cr_expect(found, "default set lacks %s", want[k]);
    }
    int aos = 0;
    for (size_t i = 0; i < p->n; i++)
        aos += !strcmp(p->items[i].family, "aos");
    cr_expect_geq(aos, 1);
    cr_expect_geq(p->n, 25);
    bench_plan_free(p);
    bw_error_clear(&err);
}

Test(bench, plan_errors)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(try_plan("offset:bytes=2", NULL, 0, &cpu_lim, &p, &err), BW_E_UNSUPPORTED);
    cr_expect(strstr(bw_error_text(&err), "offset:bytes=2") && strstr(bw_error_text(&err), "aligned"), "%s",
              bw_error_text(&err));
    cr_expect_eq(try_plan(NULL, "4*g - 8", 0, &cpu_lim, &p, &err), BW_E_UNSUPPORTED);
    cr_expect(strstr(bw_error_text(&err), "-8") != NULL, "%s", bw_error_text(&err));
    cr_expect_eq(try_plan("seq", NULL, 2ull << 30, &cpu_lim, &p, &err), BW_E_TOOBIG);
    cr_expect(strstr(bw_error_text(&err), "CL_DEVICE_MAX_MEM_ALLOC_SIZE") != NULL, "%s", bw_error_text(&err));
    cr_expect_eq(try_plan("nope", NULL, 0, &cpu_lim, &p, &err), BW_E_USAGE);
    cr_expect_eq(try_plan(NULL, "4*", 0, &cpu_lim, &p, &err), BW_E_SYNTAX);
    cr_expect_eq(try_plan(NULL, "4*g / (w - 2)", 0, &cpu_lim, &p, &err), BW_E_EVAL);
    /* a matrix that cannot fit */
    cr_expect_eq(try_plan("matrix-col:n=20000", NULL, 0, &cpu_lim, &p, &err), BW_E_TOOBIG);
    /* a bank pattern takes 4-byte floats only */
    cr_expect_eq(try_plan("bank:pitch=33,elem=8", NULL, 0, &cpu_lim, &p, &err), BW_E_USAGE);
    bench_plan_opts o = { .elem = 3 };
    cr_expect_eq(bench_plan_make(&o, &cpu_geo, &cpu_lim, &p, &err), BW_E_USAGE);
    bw_error_clear(&err);
}

/* Transpose items, worked by hand on the nvidia geometry (W = 32, 32
 * banks): --size 4 MiB gives n = sqrt(4 MiB / 4 B) = 1024, a multiple of
 * 32; one work-item per element, but tiled and padded in work-groups of
 * 32 x 8 = 256 (the plan's size), each work-item walking 4 of its tile's
 * rows: 1024^2 / 4 work-items launched; naive and copy in the plan's 256; copy access once
 * whatever --access says; the tile's column read 32-way (pitch 32) and
 * 1-way (pitch 33); transpose:version=copy of the same n added as their
 * reference, never seq. A given n is kept, and its copy has that n; read
 * access asked for is refused. */
Test(bench, transpose_items_in_plans)
{
    static const model_geometry gpu_geo = { 32, 32, 128, 32, 4, 0 };
    const char *specs[] = { "transpose:version=naive", "transpose:version=tiled", "transpose:version=padded",
                            "transpose:version=tiled" };
    bench_plan_opts o = { .specs = specs, .nspecs = 4, .size = 4u << 20,
                          .access = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) | BENCH_ACCESS_BIT(BENCH_ACCESS_READ) };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    /* read asked for a named transpose: refused, never dropped */
    cr_expect_eq(bench_plan_make(&o, &gpu_geo, &cpu_lim, &p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "copy mode only") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    o.access = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
    cr_assert_eq(bench_plan_make(&o, &gpu_geo, &cpu_lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 4, "tiled once, then the added copy");
    const char *want[] = { "transpose:version=naive,n=1024", "transpose:version=tiled,n=1024",
                           "transpose:version=padded,n=1024", "transpose:version=copy,n=1024" };
    const int64_t local[] = { 256, 256, 256, 256 };
    const int64_t launched[] = { 0, 1024 * 1024 / 4, 1024 * 1024 / 4, 0 };
    const int ways[] = { 0, 32, 1, 0 };
    for (size_t i = 0; i < p->n; i++) {
        const bench_item *it = &p->items[i];
        cr_expect_str_eq(it->spec, want[i]);
        cr_expect(bench_family_is(it, MODEL_PATTERN_KERNEL_TRANSPOSE));
        cr_expect(it->auto_n);
        cr_expect_eq(it->access, BENCH_ACCESS_COPY);
        cr_expect_eq(it->items, 1024 * 1024);
        cr_expect_eq(it->local_size, local[i], "%s", it->spec);
        cr_expect_eq(it->launch_items, launched[i], "%s", it->spec);
        cr_expect_eq(it->conflict_ways, ways[i], "%s: %d ways", it->spec, it->conflict_ways);
        cr_expect_eq(bench_plan_reference(p, i), 3, "%s: the reference is the copy", it->spec);
        cr_expect_not(bench_plan_is_seq_reference(it), "a transpose is no seq");
        /* loads and stores, 4 MiB each, requested (modeled) */
        cr_expect_eq(it->model.loads.requested_bytes, 4 << 20);
        cr_expect_eq(it->model.stores.requested_bytes, 4 << 20);
    }
    cr_expect(p->items[3].added_as_reference);
    cr_expect(bench_family_is_reference(&p->items[3]));
    /* naive: each lane's store in a row of its own, 4096 B apart: 32
     * sectors per warp (instruction model); its loads 4 sectors; tiled
     * loads and stores 4 sectors per warp each */
    int64_t warps = 1024 * 1024 / 32;
    cr_expect_eq(p->items[0].model.stores.instr_sectors, 32 * warps);
    cr_expect_eq(p->items[0].model.loads.instr_sectors, 4 * warps);
    cr_expect_eq(p->items[1].model.stores.instr_sectors, 4 * warps);
    cr_expect_eq(p->items[1].model.loads.instr_sectors, 4 * warps);
    cr_expect_eq(p->src_bytes, 4u << 20);
    cr_expect_eq(p->dst_bytes, 4u << 20);
    bench_plan_free(p);

    /* n given: kept, and the added copy has the same n */
    const char *given[] = { "transpose:version=padded,n=64" };
    bench_plan_opts g = { .specs = given, .nspecs = 1, .size = 4u << 20 };
    cr_assert_eq(bench_plan_make(&g, &gpu_geo, &cpu_lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 2);
    cr_expect_str_eq(p->items[0].spec, "transpose:version=padded,n=64");
    cr_expect_str_eq(p->items[1].spec, "transpose:version=copy,n=64");
    cr_expect_eq(p->items[0].items, 64 * 64);
    cr_expect_not(p->items[0].auto_n);
    cr_expect_eq(bench_plan_reference(p, 0), 1);
    cr_expect_not_null(p->items[0].size_note, "16 KiB against a 4 MiB target");
    bench_plan_free(p);

    /* W = 64 (amd-gcn): a 64 x 64 tile in groups of 64 x 4 = 256, not
     * 4096; 4 rows at a time, so 16 rows per work-item and 128^2 / 16
     * work-items; the tile's column read is 64-way (32 banks of 4 B: the
     * 64 lanes 64 words apart, 64 distinct words all in bank 0) */
    static const model_geometry gcn_geo = { 64, 64, 64, 32, 4, 0 };
    const char *wide[] = { "transpose:version=tiled,n=128" };
    bench_plan_opts w = { .specs = wide, .nspecs = 1, .size = 4u << 20 };
    cr_assert_eq(bench_plan_make(&w, &gcn_geo, &cpu_lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[0].local_size, 256);
    cr_expect_eq(p->items[0].launch_items, 128 * 128 / 16);
    cr_expect_eq(p->items[0].items, 128 * 128);
    cr_expect_eq(p->items[0].conflict_ways, 64);
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* Record items in a plan on the nvidia geometry with --size 12M: n from
 * the working set, the largest multiple of the 256-item group whose n
 * records fit 12 MiB: 3 floats (12 B) 1048576 records, 6 floats 524288,
 * RGB bytes 4194304; requested bytes n*F*E loaded and n*4 stored; aos's
 * loads 36 sectors per warp of 32 records (instruction model) against
 * soa's 12, the footprint 12 for both (test_model_pattern works them out);
 * copy access once whatever --access says; the soa form added as the
 * reference, never seq; dst holds a 4-byte fold per record. */
Test(bench, record_items_in_plans)
{
    static const model_geometry gpu_geo = { 32, 32, 128, 32, 4, 0 };
    const char *specs[] = { "record:fields=3", "record:fields=6", "record:fields=3,type=uchar", "record:fields=3" };
    bench_plan_opts o = { .specs = specs, .nspecs = 4, .size = 12u << 20,
                          .access = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) | BENCH_ACCESS_BIT(BENCH_ACCESS_READ) };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    /* read asked for a named record: refused, never dropped */
    cr_expect_eq(bench_plan_make(&o, &gpu_geo, &cpu_lim, &p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "copy mode only") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    o.access = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
    cr_assert_eq(bench_plan_make(&o, &gpu_geo, &cpu_lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 6, "3 floats once, then three soa forms");
    const char *want[] = { "record:fields=3,type=float,layout=aos,n=1048576",
                           "record:fields=6,type=float,layout=aos,n=524288",
                           "record:fields=3,type=uchar,layout=aos,n=4194304",
                           "record:fields=3,type=float,layout=soa,n=1048576",
                           "record:fields=6,type=float,layout=soa,n=524288",
                           "record:fields=3,type=uchar,layout=soa,n=4194304" };
    const int64_t n[] = { 1048576, 524288, 4194304, 1048576, 524288, 4194304 };
    const int64_t fe[] = { 12, 24, 3, 12, 24, 3 };
    for (size_t i = 0; i < p->n; i++) {
        const bench_item *it = &p->items[i];
        cr_expect_str_eq(it->spec, want[i]);
        cr_expect_eq(it->access, BENCH_ACCESS_COPY);
        cr_expect_eq(it->items, n[i]);
        cr_expect_eq(it->model.loads.requested_bytes, n[i] * fe[i], "%s", it->spec);
        cr_expect_eq(it->model.stores.requested_bytes, n[i] * 4, "%s", it->spec);
        cr_expect_eq(bench_plan_reference(p, i), (long)(i % 3 + 3), "%s", it->spec);
        cr_expect_eq(it->added_as_reference, i >= 3);
    }
    int64_t warps = 1048576 / 32;
    cr_expect_eq(p->items[0].model.loads.instr_sectors, 36 * warps);
    cr_expect_eq(p->items[0].model.loads.footprint_sectors, 12 * warps);
    cr_expect_eq(p->items[3].model.loads.instr_sectors, 12 * warps);
    cr_expect_eq(p->items[3].model.loads.footprint_sectors, 12 * warps);
    cr_expect_eq(p->src_bytes, 12u << 20);
    cr_expect_eq(p->dst_bytes, 4194304u * 4);
    cr_expect_eq(bench_plan_trace_bytes(p), 4194304u * 3 * 8, "every field's load of the largest item");
    bench_plan_free(p);

    /* a given n that groups of 256 do not divide: a usage error that says
     * what to give; elem is the type's */
    const char *odd[] = { "record:n=1000" };
    bench_plan_opts b = { .specs = odd, .nspecs = 1, .size = 12u << 20 };
    cr_expect_eq(bench_plan_make(&b, &gpu_geo, &cpu_lim, &p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "1000 records") && strstr(bw_error_text(&err), "multiple of 256"), "%s",
              bw_error_text(&err));
    bw_error_clear(&err);
    const char *rgb[] = { "record:type=uchar,n=1024" };
    bench_plan_opts e = { .specs = rgb, .nspecs = 1, .size = 12u << 20, .elem = 8 };
    /* an --elem the record's type contradicts: refused, never dropped */
    cr_expect_eq(bench_plan_make(&e, &gpu_geo, &cpu_lim, &p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "set the element size (1 bytes)") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    e.elem = 0;
    cr_assert_eq(bench_plan_make(&e, &gpu_geo, &cpu_lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[0].elem, 1);
    cr_expect_str_eq(p->items[0].spec, "record:fields=3,type=uchar,layout=aos,n=1024");
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* Bank items: one tile per work-group of the plan's size, a fixed number
 * of groups whatever the working-set target, read access (copy asked
 * for a named bank pattern is refused), the modeled ways of warp 0, and bank:pitch=33 as their
 * reference (added where missing), never seq; seq never takes a bank item. */
Test(bench, bank_items_in_plans)
{
    static const model_geometry gpu_geo = { 32, 32, 128, 32, 4, 0 };
    const char *specs[] = { "bank:pitch=32", "seq", "bank:pitch=32,stride=4" };
    bench_plan_opts o = { .specs = specs, .nspecs = 3,
                          .access = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) | BENCH_ACCESS_BIT(BENCH_ACCESS_READ) };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    /* a named bank pattern with copy access asked for: refused, never dropped */
    cr_expect_eq(bench_plan_make(&o, &gpu_geo, &cpu_lim, &p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "read mode only") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    /* in read mode, the bank family's own */
    o.access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ);
    cr_assert_eq(bench_plan_make(&o, &gpu_geo, &cpu_lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    /* bank:pitch=32 once, seq, the stride-4 bank once, then the added reference */
    cr_assert_eq(p->n, 4);
    const char *want[] = { "bank:pitch=32,stride=1", "seq", "bank:pitch=32,stride=4", "bank:pitch=33,stride=1" };
    const int ways[] = { 32, 0, 8, 1 };
    for (size_t i = 0; i < p->n; i++) {
        const bench_item *it = &p->items[i];
        cr_expect_str_eq(it->spec, want[i]);
        cr_expect_eq(bench_family_is(it, MODEL_PATTERN_KERNEL_BANK), strncmp(want[i], "bank", 4) == 0, "%s", it->spec);
        if (!bench_family_is(it, MODEL_PATTERN_KERNEL_BANK))
            continue;
        cr_expect_eq(it->access, BENCH_ACCESS_READ, "%s", it->spec);
        cr_expect_eq(it->local_size, 256);
        cr_expect_eq(it->items, (int64_t)BENCH_BANK_GROUPS * 256, "%s: no working-set target", it->spec);
        cr_expect_eq(it->elem, 4);
        cr_expect_eq(it->conflict_ways, ways[i], "%s: %d ways", it->spec, it->conflict_ways);
        int64_t words = 0;
        cr_expect_eq(bench_bank_tile_words(it->pattern, &words, &err), BW_OK);
        cr_expect_eq(it->tile_words, words);
        cr_expect_leq(it->tile_words * 4, (int64_t)p->src_bytes);
        cr_expect_eq(bench_plan_reference(p, i), 3, "%s: the reference is bank:pitch=33", it->spec);
        cr_expect_eq(bench_plan_is_seq_reference(it), 0, "a bank item is no seq");
    }
    cr_expect(p->items[3].added_as_reference);
    cr_expect(bench_family_is_reference(&p->items[3]));
    cr_expect_not(bench_family_is_reference(&p->items[0]));
    cr_expect_eq(bench_plan_reference(p, 1), 1, "seq is its own reference");
    bench_plan_free(p);

    /* given by hand: pitch 33 is the reference and not added again; no
     * banks in the profile: no ways */
    const char *given[] = { "bank:pitch=33", "bank:pitch=32,stride=2" };
    bench_plan_opts g = { .specs = given, .nspecs = 2 };
    cr_assert_eq(bench_plan_make(&g, &cpu_geo, &cpu_lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 2);
    cr_expect_not(p->items[0].added_as_reference);
    cr_expect_eq(bench_plan_reference(p, 0), 0);
    cr_expect_eq(bench_plan_reference(p, 1), 0);
    cr_expect_eq(p->items[0].conflict_ways, 0);
    cr_expect_eq(p->items[1].conflict_ways, 0);
    bench_plan_free(p);

    /* 64 groups for every compute unit (132 units: 8448 groups; 2 units:
     * 128), 2048 where the units are unknown */
    g.compute_units = 132;
    cr_assert_eq(bench_plan_make(&g, &gpu_geo, &cpu_lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[0].items, (int64_t)8448 * 256);
    cr_expect_eq(p->items[1].items, (int64_t)8448 * 256);
    bench_plan_free(p);
    g.compute_units = 2;
    cr_assert_eq(bench_plan_make(&g, &cpu_geo, &cpu_lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[1].items, (int64_t)128 * 256);
    bench_plan_free(p);
    cr_expect_eq(bench_plan_bank_groups(0), 2048);
    cr_expect_eq(bench_plan_bank_groups(1), 64);
    cr_expect_eq(bench_plan_bank_groups(2), 128);
    cr_expect_eq(bench_plan_bank_groups(33), 2112);
    cr_expect_eq(bench_plan_bank_groups(304), 19456);
    bw_error_clear(&err);
}

/* Bank items in a run: built from bench_bank's program, validated against
 * the host's fold, timed with the others, compared with bank:pitch=33,
 * without a twin; the trace check covers them. */
Test(bench, bank_items_run_and_trace, .timeout = 300)
{
    dev d = open_dev();
    const char *specs[] = { "seq", "bank:pitch=32", "bank:pitch=32,stride=4" };
    bench_plan *p = plan_of(&d, specs, 3, NULL, 0, 1 << 20);
    bench_kernels *k = kernels(NULL);
    bench_settings s = bench_settings_default();
    s.budget_s = 0.05;
    s.min_reps = 1;
    s.min_launch_ns = 1e-3;
    volatile sig_atomic_t stop = 0;
    bench_result *res = NULL;
    bench_run_info info;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_run(d.ctx, p, k, &s, &stop, NULL, NULL, &res, &info, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_assert_eq(p->n, 4, "bank:pitch=33 added as reference");
    cr_expect_str_eq(p->items[3].spec, "bank:pitch=33,stride=1");
    for (size_t i = 0; i < p->n; i++) {
        cr_expect_eq(res[i].status, BENCH_OK, "%s: %s", p->items[i].spec, res[i].failure ? res[i].failure : "");
        if (!bench_family_is(&p->items[i], MODEL_PATTERN_KERNEL_BANK))
            continue;
        cr_expect_eq(res[i].reference, 3, "%s", p->items[i].spec);
        cr_expect(res[i].effective_gbs > 0);
        cr_expect(isfinite(res[i].relative_to_reference));
        cr_expect_eq(res[i].twin_items, 0);
        cr_expect(res[i].twin_reason && strstr(res[i].twin_reason, "local memory"));
    }
    cr_expect_eq(res[0].reference, 0);
    cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_OK, "%s", bw_error_text(&err));
    bench_results_free(res, p->n);
    bench_plan_free(p);
    bench_kernels_free(k);
    close_dev(&d);
}

Test(bench, statistics)
{
    const double v[] = { 4, 1, 3, 2, 100 };
    bench_stats s = bench_stats_of(v, 5);
    cr_expect_eq(s.count, 5);
    cr_expect_float_eq(s.min, 1, 1e-12);
    cr_expect_float_eq(s.median, 3, 1e-12);
    cr_expect_float_eq(s.mean, 22, 1e-12);
    /* squares about 22: 324 + 441 + 361 + 400 + 6084 = 7610; / 4 = 1902.5 */
    cr_expect_float_eq(s.stddev, sqrt(1902.5), 1e-9);
    /* the median's error from the bulk: deviations 1, 2, 0, 1, 97 about the
     * median 3, their median 1: sigma 1.4826, not the 43.6 the 100 makes */
    cr_expect_float_eq(s.rse, 1.2533 * 1.4826 / sqrt(5.0) / 3.0, 1e-9);
    /* most samples equal: no deviation to go by but the standard deviation's */
    const double q[] = { 5, 5, 5, 6 };
    s = bench_stats_of(q, 4);
    cr_expect_float_eq(s.rse, 1.2533 * 0.5 / 2.0 / 5.0, 1e-9);
    const double w[] = { 5, 7 };
    s = bench_stats_of(w, 2);
    cr_expect_float_eq(s.median, 6, 1e-12);
    s = bench_stats_of(NULL, 0);
    cr_expect_eq(s.count, 0);
    cr_expect_float_eq(s.rse, 1.0, 1e-12);
}

Test(bench, verdicts)
{
    /* the reference moved 1000 bytes in 100 ns: 10 bytes/ns */
    bench_verdict v = bench_verdict_of(100, 1000, 3000, 100, 1000);
    cr_expect_eq(v.code, BENCH_VERDICT_LOWER);
    cr_expect_float_eq(v.implied_bytes, 1000, 1e-9);
    cr_expect_float_eq(v.position, 0.0, 1e-12);
    v = bench_verdict_of(200, 1000, 3000, 100, 1000);
    cr_expect_eq(v.code, BENCH_VERDICT_BETWEEN);
    cr_expect_float_eq(v.position, 0.5, 1e-12);
    cr_expect_eq(bench_verdict_of(300, 1000, 3000, 100, 1000).code, BENCH_VERDICT_UPPER);
    cr_expect_eq(bench_verdict_of(400, 1000, 3000, 100, 1000).code, BENCH_VERDICT_ABOVE);
    cr_expect_eq(bench_verdict_of(50, 1000, 3000, 100, 1000).code, BENCH_VERDICT_BELOW);
    cr_expect_eq(bench_verdict_of(105, 1000, 1000, 100, 1000).code, BENCH_VERDICT_AT_MODEL);
    v = bench_verdict_of(100, 1000, 3000, 0, 0);
    cr_expect_eq(v.code, BENCH_VERDICT_NONE);
    cr_expect_str_eq(bench_verdict_name(BENCH_VERDICT_BETWEEN), "between-bounds");
}

Test(bench, samples_and_the_timer_floor)
{
    /* zero-length and undefined event times are never samples */
    cr_expect(bench_sample_ok(1.0));
    cr_expect(bench_sample_ok(3.5e6));
    cr_expect_not(bench_sample_ok(0.0));
    cr_expect_not(bench_sample_ok(-1000.0));
    cr_expect_not(bench_sample_ok(NAN));
    cr_expect_not(bench_sample_ok(INFINITY));
    /* the floor: 20 us, or 100 ticks of a coarse timer; or as asked */
    bench_settings s = bench_settings_default();
    cr_expect_float_eq(s.min_launch_ns, 0.0, 0);
    cr_expect_float_eq(bench_launch_floor_ns(&s, 1), 20000.0, 1e-9);
    cr_expect_float_eq(bench_launch_floor_ns(&s, 0), 20000.0, 1e-9);
    cr_expect_float_eq(bench_launch_floor_ns(&s, 20), 20000.0, 1e-9);
    /* 100 ticks: NVIDIA's 1 us timer gives 100 us, 250 ns 25 us, 199 ns still 20 us */
    cr_expect_float_eq(bench_launch_floor_ns(&s, 1000), 1e5, 1e-9);
    cr_expect_float_eq(bench_launch_floor_ns(&s, 250), 25000.0, 1e-9);
    cr_expect_float_eq(bench_launch_floor_ns(&s, 199), 20000.0, 1e-9);
    s.min_launch_ns = 1e10;
    cr_expect_float_eq(bench_launch_floor_ns(&s, 1000), 1e10, 1e-9);
}

static bench_run_doc report_of(const dev *d, const bench_plan *p, const bench_result *res, const bench_run_info *info)
{
    bench_run_doc run = { .device = &d->prov, .is_default = 0, .plan = p, .results = res, .info = info };
    return run;
}

Test(bench, launches_below_the_floor_are_not_measurable, .timeout = 120)
{
    dev d = open_dev();
    const char *specs[] = { "seq", "stride:s=2" };
    bench_plan *p = plan_of(&d, specs, 2, NULL, 0, 1 << 20);
    bench_kernels *k = kernels(NULL);
    bench_settings s = bench_settings_default();
    s.budget_s = 0.05;
    s.min_reps = 1;
    s.min_launch_ns = 1e10; /* 10 s: no 1 MiB launch is that long */
    volatile sig_atomic_t stop = 0;
    bench_result *res = NULL;
    bench_run_info info;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_run(d.ctx, p, k, &s, &stop, NULL, NULL, &res, &info, &err), BW_OK, "%s",
                 bw_error_text(&err));
    for (size_t i = 0; i < p->n; i++) {
        cr_expect_eq(res[i].status, BENCH_NOT_MEASURABLE, "%s: %d", p->items[i].spec, (int)res[i].status);
        cr_expect_eq(res[i].event.count, 0, "a pattern below the floor was timed");
        cr_expect(res[i].check_ns >= 0 && res[i].check_ns < 1e10, "%g", res[i].check_ns);
        cr_assert_not_null(res[i].failure);
        cr_expect(strstr(res[i].failure, "not measurable: a launch takes ") == res[i].failure, "%s", res[i].failure);
        cr_expect(strstr(res[i].failure, "below the 10000000 \u00b5s floor") != NULL, "%s", res[i].failure);
        cr_expect(strstr(res[i].failure, "--size") != NULL, "%s", res[i].failure);
    }
    /* the report: a status of its own, validated, and no bandwidth */
    bench_run_doc run = report_of(&d, p, res, &info);
    bench_run_meta m = { "2026-01-01T00:00:00Z", "host", "os", 0, NULL, &s, NULL, 0 };
    bw_buf b = BW_BUF_INIT;
    cr_assert_eq(bench_run_json(&m, &run, 1, &b, &err), BW_OK, "%s", bw_error_text(&err));
    json_t *doc = json_loads(bw_buf_str(&b), 0, NULL);
    cr_assert_not_null(doc);
    json_t *results = json_object_get(doc, "results");
    cr_assert_eq(json_array_size(results), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *r = json_array_get(results, i);
        cr_expect_str_eq(json_string_value(json_object_get(r, "status")), "not-measurable");
        cr_expect_str_eq(json_string_value(json_object_get(r, "validation")), "ok");
        cr_expect(json_is_null(json_object_get(r, "effective_gbs")));
        cr_expect(json_is_null(json_object_get(r, "relative_to_seq")));
        const char *why = json_string_value(json_object_get(r, "status_reason"));
        cr_expect(why && strstr(why, "not measurable") == why, "%s", why ? why : "(null)");
        cr_expect_eq(json_integer_value(json_object_get(r, "index_bits")), 64);
    }
    json_decref(doc);
    bw_buf_free(&b);
    report_results_table(&m, &run, 1, &b);
    const char *t = bw_buf_str(&b);
    cr_expect(strstr(t, "\nseq                       not measurable: a launch takes ") != NULL, "%s", t);
    cr_expect(strstr(t, "\nstride:s=2                not measurable: a launch takes ") != NULL, "%s", t);
    cr_expect(strstr(t, "index arithmetic: 64-bit (long) in every kernel") != NULL, "%s", t);
    bw_buf_free(&b);
    bench_results_free(res, p->n);
    bench_kernels_free(k);
    bench_plan_free(p);
    close_dev(&d);
}

/* plans on made-up devices: the form of the index arithmetic */
Test(bench, index_form_of_plans)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    const char *specs[] = { "seq" };
    const char *huge[] = { "(g % 1000)*4000000" };
    bench_limits gpu = { .cache_bytes = 4u << 20, .max_alloc_bytes = 16ull << 30, .global_mem_bytes = 80ull << 30, .max_work_group = 1024, .is_gpu = 1 };
    /* auto on a GPU: 512 MiB of seq is 2^27 items, 4*g < 2^29: int */
    bench_plan_opts o = { .specs = specs, .nspecs = 1 };
    cr_assert_eq(bench_plan_make(&o, &cpu_geo, &gpu, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[0].items, 1 << 27);
    cr_expect_eq(p->items[0].index32_proven, 1);
    cr_expect_eq(p->items[0].index_bits, 32);
    bench_plan_free(p);
    /* 4 GiB of seq: 2^30 items, 4*g reaches 2^32 - 4: long */
    o.size = 4ull << 30;
    cr_assert_eq(bench_plan_make(&o, &cpu_geo, &gpu, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[0].items, 1 << 30);
    cr_expect_eq(p->items[0].index32_proven, 0);
    cr_expect_eq(p->items[0].index_bits, 64);
    bench_plan_free(p);
    /* ... and forcing int there is an error that names the pattern */
    o.index_bits = 32;
    cr_expect_eq(bench_plan_make(&o, &cpu_geo, &gpu, &p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "'seq'") && strstr(bw_error_text(&err), "--index 32"), "%s",
              bw_error_text(&err));
    /* auto on a CPU keeps long even where int is proven; --index 32 forces it */
    o.size = 1 << 20;
    o.index_bits = 0;
    cr_assert_eq(bench_plan_make(&o, &cpu_geo, &cpu_lim, &p, &err), BW_OK);
    cr_expect_eq(p->items[0].index32_proven, 1);
    cr_expect_eq(p->items[0].index_bits, 64);
    bench_plan_free(p);
    o.index_bits = 32;
    cr_assert_eq(bench_plan_make(&o, &cpu_geo, &cpu_lim, &p, &err), BW_OK);
    cr_expect_eq(p->items[0].index_bits, 32);
    bench_plan_free(p);
    /* 999 * 4000000 leaves int for any launch */
    bench_plan_opts e = { .exprs = huge, .nexprs = 1, .size = 1 << 20, .index_bits = 32 };
    cr_expect_eq(bench_plan_make(&e, &cpu_geo, &gpu, &p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "g % 1000 * 4000000") != NULL, "%s", bw_error_text(&err));
    e.index_bits = 0;
    cr_assert_eq(bench_plan_make(&e, &cpu_geo, &gpu, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[0].index_bits, 64);
    bench_plan_free(p);
    e.index_bits = 16;
    cr_expect_eq(bench_plan_make(&e, &cpu_geo, &gpu, &p, &err), BW_E_USAGE);
    bw_error_clear(&err);
}

/* the catalogue in the 32-bit form on the CPU: validated against the host
 * and traced address by address against the model */
Test(bench, index32_kernels_validate_and_match_the_model, .timeout = 300)
{
    dev d = open_dev();
    size_t nd = 0;
    char **defaults = bench_plan_default_specs(0, 256, &nd);
    const char *exprs[] = { "t < 4 ? 4*g : 4*(g ^ 3) + 64", "4*((g % 100)*37 % 1000 + 1000*(w % 3))",
                            "4*min(g, 100000) + (max(t - 3, 0) << 2) + 4*((w >> 2) & 7)", "4*(g / 3 + !(t % 5))" };
    size_t ne = sizeof exprs / sizeof exprs[0];
    const char **specs = calloc(nd, sizeof *specs);
    for (size_t i = 0; i < nd; i++)
        specs[i] = defaults[i];
    bench_plan *p = plan_of(&d, specs, quick_subset(specs, nd), exprs, ne, sweep_bytes());
    free(specs);
    /* force int wherever the model proves it: at 1 MiB that is everywhere */
    size_t proven = 0;
    for (size_t i = 0; i < p->n; i++) {
        proven += p->items[i].index32_proven;
        if (p->items[i].index32_proven)
            p->items[i].index_bits = 32;
    }
    cr_expect_eq(proven, p->n, "%zu of %zu proven", proven, p->n);
    bench_run_info info;
    bench_result *res = run_with_info(&d, p, NULL, &info);
    bench_kernels *k = kernels(NULL);
    bench_settings s = validating_settings();
    bw_error err = BW_ERROR_INIT;
    for (size_t i = 0; i < p->n; i++)
        cr_expect_eq(res[i].status, BENCH_OK, "%s: %s", p->items[i].spec, res[i].failure ? res[i].failure : "");
    /* both forms, every work-item */
    cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_OK, "%s", bw_error_text(&err));
    /* the report says which form ran */
    bench_run_doc run = report_of(&d, p, res, &info);
    bench_run_meta m = { "2026-01-01T00:00:00Z", "host", "os", 0, NULL, &s, NULL, 0 };
    bw_buf b = BW_BUF_INIT;
    report_results_table(&m, &run, 1, &b);
    cr_expect(strstr(bw_buf_str(&b), "index arithmetic: 32-bit (int) in every kernel") != NULL, "%s", bw_buf_str(&b));
    bw_buf_free(&b);
    cr_assert_eq(bench_run_json(&m, &run, 1, &b, &err), BW_OK);
    json_t *doc = json_loads(bw_buf_str(&b), 0, NULL);
    json_t *r0 = json_array_get(json_object_get(doc, "results"), 0);
    cr_expect_eq(json_integer_value(json_object_get(r0, "index_bits")), 32);
    json_t *sg = json_object_get(r0, "sub_group_size");
    cr_expect(json_is_null(sg) || (json_integer_value(sg) > 0 && json_integer_value(sg) <= p->items[0].local_size));
    json_decref(doc);
    bw_buf_free(&b);
    bench_results_free(res, p->n);
    bench_kernels_free(k);

    /* a wrong 32-bit helper is caught by the trace in the 32-bit form only */
    const char *one[] = { "4*min(g, 1000)" };
    bench_plan *q = plan_of(&d, NULL, 0, one, 1, 1 << 20);
    char *dir = kernel_dir_editing("bw_expr.cl", "int bw_min32(int a, int b)\n{\n    return a < b ? a : b;",
                                   "int bw_min32(int a, int b)\n{\n    return a < b ? a : b + 1;");
    k = kernels(dir);
    cr_expect_eq(bench_trace_check(d.ctx, q, k, &err), BW_E_VALIDATION);
    cr_expect(strstr(bw_error_text(&err), "32-bit index arithmetic: ") == bw_error_text(&err), "%s",
              bw_error_text(&err));
    bw_error_clear(&err);
    for (size_t i = 0; i < q->n; i++)
        q->items[i].index32_proven = 0; /* the 64-bit form alone passes */
    cr_expect_eq(bench_trace_check(d.ctx, q, k, &err), BW_OK, "%s", bw_error_text(&err));
    bench_kernels_free(k);
    tu_rmdir(dir);
    free(dir);
    bench_plan_free(q);
    bench_plan_free(p);
    for (size_t i = 0; i < nd; i++)
        free(defaults[i]);
    free(defaults);
    bw_error_clear(&err);
    close_dev(&d);
}

Test(bench, index_option_of_run)
{
    /* both fail while planning, before any kernel runs */
    tu_result r = tu_exec((const char *[]){ "run", "--index", "16", "--pattern", "seq", NULL }, NULL);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "--index: '16'") != NULL, "%s", r.err);
    tu_result_free(&r);
    /* small addresses, but g * 3000000000 leaves int from g = 1 */
    r = tu_exec((const char *[]){ "run", "--device", "cpu", "--index", "32", "--expr", "4*((g * 3000000000) % 1024)",
                                  "--size", "1M", NULL },
                NULL);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "'expr:4 * (g * 3000000000 % 1024)'") != NULL && strstr(r.err, "--index 32") != NULL,
              "%s", r.err);
    tu_result_free(&r);
}

/* A device that takes the profile's W as a required sub-group size (Intel,
 * cl_intel_required_subgroup_size) gets kernels that ask for it; others get
 * no request. The source is checked, since no such device is here. */
Test(bench, kernels_ask_for_the_required_sub_group_size)
{
    static const model_geometry intel = { 16, 64, 64, 16, 4, 0 };
    bench_limits lim = { .cache_bytes = 4u << 20, .max_alloc_bytes = 1ull << 30, .global_mem_bytes = 8ull << 30,
                         .max_work_group = 1024, .is_gpu = 1 };
    const char *specs[] = { "seq", "stride:s=2" };
    bench_kernels *k = kernels(NULL);
    for (int sg = 0; sg <= 16; sg += 16) {
        bench_plan_opts o = { .specs = specs, .nspecs = 2, .size = 1u << 20, .reqd_sub_group_size = sg };
        bench_plan *p = NULL;
        bw_error err = BW_ERROR_INIT;
        cr_assert_eq(bench_plan_make(&o, &intel, &lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
        char *src = NULL;
        cr_assert_eq(bench_kernel_program(k, p, 0, p->n, 0, &src, &err), BW_OK, "%s", bw_error_text(&err));
        size_t defs = 0, attrs = 0;
        for (const char *s = src; (s = strstr(s, "#define BW_REQD_SG 16\n")) != NULL; s++)
            defs++;
        for (const char *s = src; (s = strstr(s, "intel_reqd_sub_group_size(BW_REQD_SG)")) != NULL; s++)
            attrs++;
        cr_expect_eq(defs, sg ? p->n : 0, "sub-group %d: %zu definitions for %zu kernels", sg, defs, p->n);
        cr_expect_eq(attrs, p->n, "the attribute stands in gather.cl, behind BW_REQD_SG");
        free(src);
        bench_plan_free(p);
    }
    bench_kernels_free(k);
}

/* Every operator of the expression language, signed and unsigned division
 * of negative and non-negative values, and warp widths 8 to 64 (forced
 * through the profile) pass through a kernel: validated on the host and
 * traced work-item by work-item against the model. */
Test(bench, every_operator_and_warp_width_pass_through_a_kernel, .timeout = 300)
{
    dev d = open_dev();
    const char *exprs[] = {
        "4*((t << 2 >> 1) & 7 | (w & 3) ^ 5) + 64*w",            /* << >> & | ^ */
        "4*(~t & 7) + 4*(!t) + 32*(t == 3) + 64*w",              /* ~ ! == */
        "4*min(max(t - 2, 0), 5) + 4*((t > 1 && w > 0) || t == 0) + 64*w", /* min max && || > */
        "4*((t - 8) / 3 + 3 + 8*w) + 4*((t - 8) % 3 + 2)",       /* signed / % of negatives */
        "4*(g / 3 % 5 + g % 7) + 32*w",                          /* unsigned / % */
        "t != 1 && t <= 6 ? 4*(g - t) : 4*(g + (t >= 9) - (t < 2))", /* != <= >= < ?: - */
        "4*(g / 5760 * 5760 + g % 5760)",                        /* printed as 4*g */
        "4*((t - 9) / 3 * 3 + (t - 9) % 3 + 9) + 64*w",          /* the same, of negatives */
    };
    const char *specs[] = { "reverse", "permute:seed=3", "mixed:s=3", "one-lane", "offset:bytes=4,elem=16" };
    static const int widths[] = { 8, 16, 32, 64 };
    /* the sanitizer pass (BWLAB_TEST_QUICK) builds one width: the host code
     * is the same for every width, only the kernels differ */
    size_t nwidths = getenv("BWLAB_TEST_QUICK") ? 1 : sizeof widths / sizeof widths[0];
    bench_kernels *k = kernels(NULL);
    for (size_t wi = 0; wi < nwidths; wi++) {
        model_geometry geo = d.info->geo;
        geo.lanes = widths[wi];
        bench_plan_opts o = { .specs = specs, .nspecs = sizeof specs / sizeof specs[0], .exprs = exprs, .scalar_form = 1,
                              .nexprs = sizeof exprs / sizeof exprs[0], .size = 1 << 20 };
        bench_plan *p = NULL;
        bw_error err = BW_ERROR_INIT;
        cr_assert_eq(bench_plan_make(&o, &geo, &d.lim, &p, &err), BW_OK, "W %d: %s", widths[wi], bw_error_text(&err));
        bench_run_info info;
        bench_result *res = run_with_info(&d, p, NULL, &info);
        for (size_t i = 0; i < p->n; i++)
            cr_expect_eq(res[i].status, BENCH_OK, "W %d, %s: %s", widths[wi], p->items[i].spec,
                         res[i].failure ? res[i].failure : "");
        cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_OK, "W %d: %s", widths[wi], bw_error_text(&err));
        bw_error_clear(&err);
        bench_results_free(res, p->n);
        bench_plan_free(p);
    }
    bench_kernels_free(k);
    close_dev(&d);
}

/* plans in read mode, both kernel forms; read_flag 1: the store behind a
 * work-group flag, as a run on a CPU device builds them, 0: as on a GPU */
static bench_plan *read_plan_of(const dev *d, const char *const *specs, size_t n, const char *const *exprs, size_t ne,
                                uint64_t size, int read_flag)
{
    bench_plan_opts o = { .specs = specs, .nspecs = n, .exprs = exprs, .nexprs = ne, .size = size, .scalar_form = 1,
                          .read_flag = read_flag, .access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ) };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &d->info->geo, &d->lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    return p;
}

/* The catalogue in read mode: every kernel, in both forms, loads what the
 * host predicts (validation) at the model's addresses (trace). */
Test(bench, read_mode_validates_and_matches_the_model, .timeout = 300)
{
    dev d = open_dev();
    size_t nd = 0;
    char **defaults = bench_plan_default_specs(0, 256, &nd);
    const char *extra[] = { "offset:bytes=4,elem=16", "offset:bytes=4,elem=8", "stride:s=3,elem=8", "one-lane:elem=16" };
    size_t n = nd + sizeof extra / sizeof extra[0];
    const char **specs = calloc(n, sizeof *specs);
    for (size_t i = 0; i < nd; i++)
        specs[i] = defaults[i];
    size_t nq = quick_subset(specs, nd); /* every extra spec in any case */
    for (size_t i = nd; i < n; i++)
        specs[nq + i - nd] = extra[i - nd];
    n = nq + (n - nd);
    const char *exprs[] = { "t < 4 ? 4*g : 4*(g ^ 3) + 64" };
    bench_plan *p = read_plan_of(&d, specs, n, exprs, 1, sweep_bytes(), 1);
    bench_run_info info;
    bench_result *res = run_with_info(&d, p, NULL, &info);
    int vloads = 0, wide = 0;
    for (size_t i = 0; i < p->n; i++) {
        cr_expect_eq(p->items[i].access, BENCH_ACCESS_READ, "%s", p->items[i].spec);
        cr_expect_eq(res[i].status, BENCH_OK, "%s: %s", p->items[i].spec, res[i].failure ? res[i].failure : "");
        cr_expect_eq(p->items[i].model.stores.requested_bytes, 0, "%s", p->items[i].spec);
        vloads += p->items[i].vload;
        wide += p->items[i].elem > 4;
    }
    cr_expect_geq(vloads, 2, "the vloadn path was not exercised");
    cr_expect_geq(wide, 3, "vector elements were not exercised");
    /* read kernels take a key before the trace buffer: every work-item's address, both forms */
    bench_kernels *k = kernels(NULL);
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_OK, "%s", bw_error_text(&err));
    /* seq is its own reference, in read mode */
    cr_expect_eq(bench_plan_reference(p, 0), 0);
    cr_expect_float_eq(res[0].relative_to_reference, 1.0, 1e-12);
    bench_kernels_free(k);
    bench_results_free(res, p->n);
    bench_plan_free(p);
    for (size_t i = 0; i < nd; i++)
        free(defaults[i]);
    free(defaults);
    free(specs);
    bw_error_clear(&err);
    close_dev(&d);
}

/* A read kernel that does not load what it should is caught before it is
 * timed: the host predicts exactly which work-items store. Both guards:
 * the plain one (GPUs) and the work-group flag (CPU devices). */
static void read_plants_caught(dev *d, int read_flag)
{
    const char *specs[] = { "seq", "stride:s=2", "seq:elem=16", "offset:bytes=4,elem=8" };
    bench_plan *p = read_plan_of(d, specs, 4, NULL, 0, 1 << 20, read_flag);
    cr_assert_eq(p->n, 5, "seq:elem=8 is added as a reference");
    static const struct {
        const char *to, *needle;
    } plants[] = {
        /* no load at all: a constant in its place */
        { "v[j] = (BW_ELEM)(7u);", "work-item 0 " },
        /* the neighbour's element */
        { "v[j] = BW_LOAD(src, a + BW_E);", "work-item 0 " },
    };
    for (size_t k = 0; k < sizeof plants / sizeof plants[0]; k++) {
        char *dir = kernel_dir_with("v[j] = BW_LOAD(src, a);", plants[k].to);
        bench_result *res = run_with(d, p, dir);
        for (size_t i = 0; i < p->n; i++) {
            cr_expect_eq(res[i].status, BENCH_FAILED, "%s: %s", plants[k].to, p->items[i].spec);
            cr_expect_eq(res[i].failure_code, BW_E_VALIDATION, "%s: %s", plants[k].to, p->items[i].spec);
            cr_expect(res[i].failure && strstr(res[i].failure, plants[k].needle) &&
                          strstr(res[i].failure, "should load"),
                      "%s: %s", p->items[i].spec, res[i].failure ? res[i].failure : "");
            cr_expect_eq(res[i].event.count, 0, "a wrong kernel was timed");
        }
        bench_results_free(res, p->n);
        tu_rmdir(dir);
        free(dir);
    }
    /* a kernel that stores whatever it loads: stores where none was due;
     * with the flag, one whose flag is never raised: no store where one was */
    static const struct {
        const char *from, *to, *needle;
    } guards[] = {
        { "    if (BW_MATCH(f, key))\n", "    if (1)\n", "store nothing" },
        { "const int m = live && BW_MATCH(f, key);", "const int m = live;", "differ from the host's prediction" },
        { "        any = 1;", "        any = 0;", "and store it, but its output is" },
    };
    for (size_t g = read_flag ? 1 : 0; g < (read_flag ? 3u : 1u); g++) {
        char *dir = kernel_dir_with(guards[g].from, guards[g].to);
        bench_result *res = run_with(d, p, dir);
        for (size_t i = 0; i < p->n; i++) {
            cr_expect_eq(res[i].failure_code, BW_E_VALIDATION, "flag %d, %s", read_flag, p->items[i].spec);
            cr_expect(res[i].failure && strstr(res[i].failure, guards[g].needle), "flag %d, guard plant %zu: %s",
                      read_flag, g, res[i].failure ? res[i].failure : "");
        }
        bench_results_free(res, p->n);
        tu_rmdir(dir);
        free(dir);
    }
    bench_plan_free(p);
}

Test(bench, read_mode_catches_skipped_and_misplaced_loads, .timeout = 300)
{
    dev d = open_dev();
    read_plants_caught(&d, 0);
    read_plants_caught(&d, 1);
    close_dev(&d);
}


/* kernel-bound or memory-bound, by the twin: the threshold's edges and
 * the verdicts it may turn, by hand */
Test(bench, twin_bound_and_verdict)
{
    /* 0.8 x 1000 ns = 800 ns is the edge, kernel-bound inclusive */
    cr_expect_eq(bench_bound_of(1000, 800), BENCH_BOUND_KERNEL);
    cr_expect_eq(bench_bound_of(1000, 799), BENCH_BOUND_MEMORY);
    cr_expect_eq(bench_bound_of(1000, 1200), BENCH_BOUND_KERNEL, "a twin slower than the pattern");
    cr_expect_eq(bench_bound_of(1000, 280), BENCH_BOUND_MEMORY);
    cr_expect_eq(bench_bound_of(1000, 0), BENCH_BOUND_UNKNOWN);
    cr_expect_eq(bench_bound_of(0, 800), BENCH_BOUND_UNKNOWN);
    cr_expect_eq(bench_bound_of(1000, NAN), BENCH_BOUND_UNKNOWN);
    cr_expect_str_eq(bench_bound_name(BENCH_BOUND_KERNEL), "kernel");
    cr_expect_str_eq(bench_bound_name(BENCH_BOUND_MEMORY), "memory");
    cr_expect_null(bench_bound_name(BENCH_BOUND_UNKNOWN));
    /* 400 ns at 10 B/ns implies 4000 B, above the 3000 B upper bound */
    bench_verdict above = bench_verdict_of(400, 1000, 3000, 100, 1000);
    cr_assert_eq(above.code, BENCH_VERDICT_ABOVE);
    bench_verdict v = bench_verdict_with_bound(above, bench_bound_of(400, 320), BENCH_LIMITER_CPU_GATHER);
    cr_expect_eq(v.code, BENCH_VERDICT_KERNEL_BOUND);
    cr_expect_eq(v.limiter, BENCH_LIMITER_CPU_GATHER);
    cr_expect_float_eq(v.implied_bytes, 4000, 1e-9);
    cr_expect_str_eq(bench_verdict_name(v.code), "kernel-bound");
    cr_expect_str_eq(bench_verdict_words(&v), "gather-bound on this CPU: the addresses are fine, the vector unit is not");
    v.limiter = BENCH_LIMITER_CPU_SCALAR;
    cr_expect_str_eq(bench_verdict_words(&v), "instruction-bound on this CPU: one scalar load per work-item");
    v.limiter = BENCH_LIMITER_GPU;
    cr_expect_str_eq(bench_verdict_words(&v), "kernel-bound on this GPU: memory out of the way, it runs no faster");
    /* still kernel-bound at its K: the sentence says which K it ran at;
     * no K (a family without one) and other verdicts say none */
    char sentence[BENCH_VERDICT_SENTENCE_MAX];
    cr_expect_str_eq(bench_verdict_sentence(&v, 4, sentence, sizeof sentence),
                     "kernel-bound on this GPU: memory out of the way, it runs no faster (measured at K = 4 items "
                     "per work-item)");
    cr_expect_str_eq(bench_verdict_sentence(&v, 1, sentence, sizeof sentence),
                     "kernel-bound on this GPU: memory out of the way, it runs no faster (measured at K = 1 item "
                     "per work-item)");
    cr_expect_str_eq(bench_verdict_sentence(&v, 0, sentence, sizeof sentence),
                     "kernel-bound on this GPU: memory out of the way, it runs no faster");
    cr_expect_str_eq(bench_verdict_sentence(&above, 8, sentence, sizeof sentence),
                     "slower than its modeled traffic explains");
    /* a twin at 316 ns of 400 is 0.79: memory, and the verdict stays */
    cr_expect_eq(bench_verdict_with_bound(above, bench_bound_of(400, 316), BENCH_LIMITER_CPU_GATHER).code,
                 BENCH_VERDICT_ABOVE);
    cr_expect_eq(bench_verdict_with_bound(above, BENCH_BOUND_UNKNOWN, BENCH_LIMITER_CPU_GATHER).code,
                 BENCH_VERDICT_ABOVE);
    /* only "slower than its modeled traffic explains" turns */
    bench_verdict lower = bench_verdict_of(100, 1000, 3000, 100, 1000);
    cr_expect_eq(bench_verdict_with_bound(lower, BENCH_BOUND_KERNEL, BENCH_LIMITER_CPU_GATHER).code,
                 BENCH_VERDICT_LOWER);
    bench_verdict model = bench_verdict_of(105, 1000, 1000, 100, 1000);
    cr_expect_eq(bench_verdict_with_bound(model, BENCH_BOUND_KERNEL, BENCH_LIMITER_GPU).code, BENCH_VERDICT_AT_MODEL);
    cr_expect_str_eq(bench_verdict_words(&model), bench_verdict_text(BENCH_VERDICT_AT_MODEL));
}

/* kernel-bound by the rate item: the reference (or a row with its
 * addresses) slower than a wider element streams the same bytes. By hand:
 * 1000 B at 125 ns against a rate item that moves 1000 B in 100 ns implies
 * 1250 B, 1.25x the 1000 B both bounds hold (above their 10% tolerance). */
Test(bench, rate_item_shows_the_kernel_bound)
{
    bench_verdict above = bench_verdict_of(125, 1000, 1000, 100, 1000);
    cr_assert_eq(above.code, BENCH_VERDICT_ABOVE);
    bench_verdict v = bench_verdict_with_rate(above, 1, BENCH_LIMITER_CPU_VECTOR);
    cr_expect_eq(v.code, BENCH_VERDICT_KERNEL_BOUND);
    cr_expect_eq(v.by_rate, 1);
    cr_expect_eq(v.limiter, BENCH_LIMITER_CPU_VECTOR);
    cr_expect_str_eq(bench_verdict_words(&v), "kernel-bound: a wider element streams the same bytes faster in this run");
    char sentence[BENCH_VERDICT_SENTENCE_MAX];
    cr_expect_str_eq(bench_verdict_sentence(&v, 8, sentence, sizeof sentence),
                     "kernel-bound: a wider element streams the same bytes faster in this run (measured at K = 8 "
                     "items per work-item)");
    bw_buf b = BW_BUF_INIT;
    bench_explain_bound(&v, NAN, "seq:elem=16", &b);
    cr_expect(strstr(bw_buf_str(&b), "seq:elem=16 streams the same bytes in the same order 1.25x as fast") != NULL,
              "%s", bw_buf_str(&b));
    bw_buf_free(&b);
    /* a row with other addresses keeps "above": its order or its bytes may be memory's */
    cr_expect_eq(bench_verdict_with_rate(above, 0, BENCH_LIMITER_CPU_VECTOR).code, BENCH_VERDICT_ABOVE);
    /* within the tolerance: 1.09x stays at the model, and nothing turns */
    bench_verdict near = bench_verdict_of(109, 1000, 1000, 100, 1000);
    cr_expect_eq(bench_verdict_with_rate(near, 1, BENCH_LIMITER_GPU).code, BENCH_VERDICT_AT_MODEL);
    /* kernel-bound by the twin already: the twin's evidence stays */
    bench_verdict twin = bench_verdict_with_bound(above, BENCH_BOUND_KERNEL, BENCH_LIMITER_GPU);
    bench_verdict both = bench_verdict_with_rate(twin, 1, BENCH_LIMITER_GPU);
    cr_expect_eq(both.code, BENCH_VERDICT_KERNEL_BOUND);
    cr_expect_eq(both.by_rate, 0);
    b = (bw_buf)BW_BUF_INIT;
    bench_explain_bound(&both, 0.9, "seq:elem=16", &b);
    cr_expect(strstr(bw_buf_str(&b), "Its twin") != NULL, "%s", bw_buf_str(&b));
    bw_buf_free(&b);
}

/* the twin's slice, by hand */
Test(bench, twin_slice_sizing)
{
    /* 8 B per item (seq of floats: load + store), 32 MiB cache: 2N x 8 <= 8 MiB, N = 512Ki items */
    cr_expect_eq(bench_twin_slice(8, 32u << 20, 256, 32 << 20), 512 << 10);
    /* 68 B per item (a column walk: a 64 B sector per load, 4 B stored): 8 MiB / 136 = 61680.9,
     * whole groups of 256: 240 x 256 = 61440 */
    cr_expect_eq(bench_twin_slice(68, 32u << 20, 256, 32 << 20), 61440);
    /* a slice of the pattern's own launch: 2N <= items; 1000 items, groups of 64: N = 448 */
    cr_expect_eq(bench_twin_slice(8, 32u << 20, 64, 1000), 448);
    /* two groups need 2 x 256 x 8 = 4 KiB: a 16 KiB cache (4 KiB room) fits exactly one group */
    cr_expect_eq(bench_twin_slice(8, 16u << 10, 256, 1 << 20), 256);
    cr_expect_eq(bench_twin_slice(8, (16u << 10) - 4, 256, 1 << 20), 0, "too large a footprint: no twin");
    cr_expect_eq(bench_twin_slice(8, 0, 256, 1 << 20), 0, "no cache known");
    cr_expect_eq(bench_twin_slice(0, 32u << 20, 256, 1 << 20), 0);
    cr_expect_eq(bench_twin_slice(8, 32u << 20, 256, 256), 0, "a launch of one group has no half");
}

/* the twin's slice by its timing, by hand: N x (launch / items) reaches
 * 16 floors of 20 us = 320 us, rounded up to whole work-groups */
Test(bench, twin_timed_slice_sizing)
{
    cr_expect_eq(BENCH_TWIN_FLOOR_MARGIN, 16);
    /* seq copy on the Xeon guest: 125829120 items in 43 ms, 0.342 ns each:
     * 320 us / 0.342 ns = 936402.75, 3657.8 groups of 256 -> 3658 */
    cr_expect_eq(bench_twin_timed_slice(43e6, 125829120, 20000, 256), 936448);
    /* where the cache rule alone put the 2N slice at 120 MiB, a quarter of
     * the 480 MiB that PoCL reports there, which the guest does not have */
    cr_expect_eq(bench_twin_slice(8, 480u << 20, 256, 125829120), 7864320);
    /* 1 MiB items in 1 ms: 320 us x 1048576 / 1 ms = 335544.3, 1310.7 groups -> 1311 */
    cr_expect_eq(bench_twin_timed_slice(1e6, 1 << 20, 20000, 256), 335616);
    /* a launch shorter than 16 floors: the whole launch (the cache rule halves it) */
    cr_expect_eq(bench_twin_timed_slice(1e5, 1000, 20000, 64), 960);
    cr_expect_eq(bench_twin_timed_slice(0, 1000, 20000, 64), 0, "no pace known");
    cr_expect_eq(bench_twin_timed_slice(1e6, 1000, 0, 64), 0);
    cr_expect_eq(bench_twin_timed_slice(1e6, 0, 20000, 64), 0);
}

/* the run's own estimate of its repeatability, by hand */
Test(bench, spread_estimates)
{
    /* 10, 10, 12, 12: median 11, halves 10 and 12, drift 2/11 = 0.18182; deviations all 1,
     * sigma 1.4826, rse 1.2533 x 1.4826 / 2 / 11 = 0.084462, x 2.77 = 0.23396: the noise
     * term is the larger */
    const double v[] = { 10, 10, 12, 12 };
    double rse = 1.2533 * 1.4826 / 2.0 / 11.0;
    cr_expect_float_eq(bench_stats_spread(v, 4), 2.77 * rse, 1e-9);
    /* a drift that the standard error misses: 100 x 4, then 110 x 4 */
    const double d[] = { 100, 100, 100, 100, 110, 110, 110, 110 };
    /* median 105, halves 100 and 110: 10/105 = 0.0952; rse: deviations all 5, sigma 7.413,
     * 1.2533 x 7.413 / sqrt 8 / 105 = 0.03128, x 2.77 = 0.0867 */
    cr_expect_float_eq(bench_stats_spread(d, 8), 10.0 / 105.0, 1e-9);
    /* steady samples: no spread */
    const double s[] = { 7, 7, 7, 7, 7 };
    cr_expect_float_eq(bench_stats_spread(s, 5), 0.0, 1e-12);
    /* odd counts leave the middle sample out of both halves: 1, 1, 50, 3, 3 */
    const double o[] = { 1, 1, 50, 3, 3 };
    double so = bench_stats_spread(o, 5);
    cr_expect(so >= 2.0 / 3.0 - 1e-9, "halves 1 and 3 about the median 3: %g", so);
    cr_expect(isnan(bench_stats_spread(v, 3)), "fewer than 4 samples");
    /* noisy above the limit only; an undefined spread is no evidence */
    cr_expect(bench_stats_noisy(0.0952, 0.05));
    cr_expect_not(bench_stats_noisy(0.05, 0.05));
    cr_expect_not(bench_stats_noisy(0.0015, 0.05));
    cr_expect_not(bench_stats_noisy(bench_stats_spread(v, 3), 0.05), "three launches say nothing of the machine");
    cr_expect(bench_stats_noisy(INFINITY, 0.05));
}

/* A pattern timed in the warp form (one work-item runs a warp's W lanes)
 * has its twin's slices launched as its own launches are, W items to a
 * work-item: its twin, scaled to the launch, reads about the pattern's
 * time or less. A slice launched with one work-item per item runs W times
 * the work, 11-32 times the pattern. */
Test(bench, a_warp_form_twin_launches_as_its_pattern_does, .timeout = 300)
{
    dev d = open_dev();
    const char *specs[] = { "reverse" };
    bench_plan *p = plan_of(&d, specs, 1, NULL, 0, 64u << 20);
    p->cache_bytes = p->twin_cache_bytes = 32u << 20;
    size_t i = 0;
    while (i < p->n && strcmp(p->items[i].spec, "reverse"))
        i++;
    cr_assert_lt(i, p->n);
    cr_assert_eq(p->items[i].alt_form, BENCH_FORM_WARP, "reverse's other form is the warp form");
    bench_run_info info;
    bench_result *res = run_with_info(&d, p, NULL, &info);
    cr_assert_eq(res[i].status, BENCH_OK, "%s", res[i].failure ? res[i].failure : "");
    /* its lanes' reversed order costs the plain form a permute per vector:
     * the warp form is about 3 times faster on PoCL (docs/measurements.md) */
    cr_assert_eq(res[i].form, BENCH_FORM_WARP, "plain %g ns, warp %g ns", res[i].form_ns[BENCH_FORM_PLAIN],
                 res[i].form_ns[BENCH_FORM_WARP]);
    if (res[i].twin_items == 0) {
        fprintf(stderr, "note: reverse's twin gave no figure on this host: %s\n",
                res[i].twin_reason ? res[i].twin_reason : "no reason");
    } else {
        /* the twin (cache-resident, so no slower than memory's pace) over
         * the pattern's fastest launch: about 1 or below, up to about 1.16
         * on a busy host; W times the work reads 11-32 */
        double ratio = res[i].twin_ns / res[i].event.min;
        cr_expect(ratio > 0 && ratio < 4, "the twin reads %.2f of its pattern's fastest launch", ratio);
    }
    bench_results_free(res, p->n);
    bench_plan_free(p);
    close_dev(&d);
}

/* the twin on the CPU device: figures present for seq (which is faster is
 * not asserted), and none, with the reason, where the slice cannot fit */
Test(bench, twin_of_a_run, .timeout = 300)
{
    dev d = open_dev();
    const char *specs[] = { "seq" };
    bench_plan *p = plan_of(&d, specs, 1, NULL, 0, 64u << 20);
    /* a known cache, whatever the device reports: 2N x per_item B <= 8 MiB */
    p->cache_bytes = p->twin_cache_bytes = 32u << 20;
    bench_kernels *k = kernels(NULL);
    bench_settings s = validating_settings();
    volatile sig_atomic_t stop = 0;
    bench_result *res = NULL;
    bench_run_info info;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_run(d.ctx, p, k, &s, &stop, NULL, NULL, &res, &info, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(res[0].status, BENCH_OK, "%s", res[0].failure ? res[0].failure : "");
    /* the slice is sized by modeled instruction bytes: a warp of W lanes
     * loads and stores 4W B, ceil(4W / sector) sectors each way */
    int64_t W = p->geo.lanes, sector = p->geo.sector;
    int64_t per_item = 2 * ((4 * W + sector - 1) / sector) * sector / W;
    int64_t ls = p->items[0].local_size;
    int64_t want = (int64_t)(8u << 20) / 2 / per_item / ls * ls;
    /* at most the cache's slice; smaller where 16 of the device's timing
     * floors at seq's pace take fewer work-items (bench_twin_timed_slice,
     * by hand above), or grown back toward it if that did not resolve */
    int64_t got = res[0].twin_items;
    cr_expect(got > 0 && got <= want && got % ls == 0, "%lld of at most %lld: %s", (long long)got, (long long)want,
              res[0].twin_reason ? res[0].twin_reason : "no reason");
    cr_expect(res[0].twin_ns > 0 && res[0].twin_cold_ns > 0, "%g %g", res[0].twin_ns, res[0].twin_cold_ns);
    cr_expect_float_eq(res[0].twin_ratio, res[0].twin_ns / res[0].event.min, 1e-12);
    cr_expect_neq(res[0].bound, BENCH_BOUND_UNKNOWN);
    cr_expect_null(res[0].twin_reason);
    cr_expect(res[0].best_gbs >= res[0].effective_gbs, "best %g, median %g", res[0].best_gbs, res[0].effective_gbs);
    bench_run_doc run = report_of(&d, p, res, &info);
    bench_run_meta m = { "2026-01-01T00:00:00Z", "host", "os", 0, NULL, &s, NULL, 0 };
    bw_buf b = BW_BUF_INIT;
    cr_assert_eq(bench_run_json(&m, &run, 1, &b, &err), BW_OK, "%s", bw_error_text(&err));
    json_t *doc = json_loads(bw_buf_str(&b), 0, NULL);
    json_t *r0 = json_array_get(json_object_get(doc, "results"), 0);
    cr_expect(json_number_value(json_object_get(r0, "twin_time_ns")) > 0);
    cr_expect_eq(json_integer_value(json_object_get(r0, "twin_items")), got);
    const char *bound = json_string_value(json_object_get(r0, "bound"));
    cr_expect(bound && (!strcmp(bound, "memory") || !strcmp(bound, "kernel")), "%s", bound ? bound : "(null)");
    cr_expect(json_is_null(json_object_get(r0, "twin_reason")));
    cr_expect(json_number_value(json_object_get(r0, "best_gbs")) > 0);
    cr_expect(json_is_boolean(json_object_get(json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "noise"),
                                              "noisy")));
    json_decref(doc);
    bw_buf_free(&b);
    report_results_table(&m, &run, 1, &b);
    cr_expect(strstr(bw_buf_str(&b), "twin x") && strstr(bw_buf_str(&b), "twin x: measured"), "%s", bw_buf_str(&b));
    bw_buf_free(&b);
    bench_results_free(res, p->n);

    /* A slice too short to resolve grows, 4 N at a time, to the cache's N
     * (the hook makes every settle short while the slice can grow), and
     * there its first set of rounds (short too, by the hook's @1) is
     * measured once more. At 256 MiB and a 256 MiB figure the cache's N
     * is 64 MiB / 2 / per_item work-items; the timed slice (16 x 20 us at
     * seq's pace) is below that on any device copying under about 90 GB/s. */
    if (bw_hook_enabled()) {
        bench_plan *big = plan_of(&d, specs, 1, NULL, 0, 256u << 20);
        big->cache_bytes = big->twin_cache_bytes = 256u << 20;
        int64_t cap = (int64_t)(64u << 20) / 2 / per_item / ls * ls;
        setenv("BWLAB_TEST_FAULTS", "twin_short=seq@1", 1);
        cr_assert_eq(bench_run(d.ctx, big, k, &s, &stop, NULL, NULL, &res, &info, &err), BW_OK, "%s",
                     bw_error_text(&err));
        unsetenv("BWLAB_TEST_FAULTS");
        cr_assert_eq(res[0].status, BENCH_OK);
        if (res[0].twin_items == 0) {
            /* a host busy enough that the second set did not resolve either
             * (seen under two parallel suites): its reason must name the
             * cache's N and both sets. A note on stderr, not cr_log_warn:
             * Criterion exits 1 on any warning, every test passing or not. */
            char want_n[64];
            snprintf(want_n, sizeof want_n, "of %lld more work-items", (long long)cap);
            cr_assert_not_null(res[0].twin_reason);
            cr_expect(strstr(res[0].twin_reason, want_n) && strstr(res[0].twin_reason, "in two sets of rounds"), "%s",
                      res[0].twin_reason);
            fprintf(stderr, "note: the second set at the cache's N did not resolve on this host: %s\n",
                    res[0].twin_reason);
        } else {
            cr_expect_eq(res[0].twin_items, cap, "%lld: %s", (long long)res[0].twin_items,
                         res[0].twin_reason ? res[0].twin_reason : "no reason");
            cr_expect(res[0].twin_ns > 0);
            /* a figure, or on a busy host one slower than seq in both of
             * its own sets: reported unknown, with that reason */
            if (res[0].twin_reason) {
                cr_expect(strstr(res[0].twin_reason, "a twin cannot be slower than its own pattern") &&
                              strstr(res[0].twin_reason, "(measured, twice)"),
                          "%s", res[0].twin_reason);
                fprintf(stderr, "note: the twin at the cache's N was slower than seq on this host: %s\n",
                        res[0].twin_reason);
            }
        }
        /* the slice it started from: at most 16 floors at the fastest pace, plus a group */
        double first = 16 * 20000.0 * (double)big->items[0].items / res[0].event.min + (double)ls;
        if (first >= (double)cap)
            fprintf(stderr, "note: the timed slice (up to %.0f work-items) was not below the cache's %lld here: "
                    "the growth was not exercised\n", first, (long long)cap);
        bench_results_free(res, big->n);
        bench_plan_free(big);
    }

    /* 4 KiB of cache leaves 1 KiB: two groups of seq (2 x 256 x 8 B = 4 KiB) do not fit */
    p->cache_bytes = p->twin_cache_bytes = 4096;
    cr_assert_eq(bench_run(d.ctx, p, k, &s, &stop, NULL, NULL, &res, &info, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(res[0].status, BENCH_OK);
    cr_expect_eq(res[0].twin_items, 0);
    cr_expect(isnan(res[0].twin_ratio));
    cr_expect_eq(res[0].bound, BENCH_BOUND_UNKNOWN);
    cr_assert_not_null(res[0].twin_reason);
    cr_expect(strstr(res[0].twin_reason, "no twin: two work-groups") == res[0].twin_reason &&
              strstr(res[0].twin_reason, "more than 1/4 of the 4.00 KiB last-level cache"), "%s", res[0].twin_reason);
    run.results = res;
    cr_assert_eq(bench_run_json(&m, &run, 1, &b, &err), BW_OK);
    doc = json_loads(bw_buf_str(&b), 0, NULL);
    r0 = json_array_get(json_object_get(doc, "results"), 0);
    cr_expect(json_is_null(json_object_get(r0, "twin_time_ns")));
    cr_expect(json_is_null(json_object_get(r0, "bound")));
    cr_expect_str_eq(json_string_value(json_object_get(r0, "twin_reason")), res[0].twin_reason);
    json_decref(doc);
    bw_buf_free(&b);
    bench_results_free(res, p->n);
    bench_kernels_free(k);
    bench_plan_free(p);
    close_dev(&d);
}

/* One bank kernel on the CPU device: build, run `groups` work-groups of
 * 256, read dst (and the trace) back. */
static bw_code run_bank(const dev *d, const model_pattern *p, const uint32_t *tile, int64_t words, int trace,
                        int64_t items, uint32_t *dst, int64_t *tr, bw_error *err)
{
    char *src_text = NULL;
    ocl_program *prog = NULL;
    ocl_kernel *k = NULL;
    ocl_buffer *src = NULL, *out = NULL, *tb = NULL;
    ocl_timing t;
    bw_code rc = bench_bank_program(NULL, p, trace, &src_text, err);
    if (rc == BW_OK)
        rc = ocl_program_build(d->ctx, src_text, "bank.cl", NULL, &prog, err);
    if (rc == BW_OK)
        rc = ocl_kernel_create(prog, BENCH_BANK_KERNEL, &k, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(d->ctx, (uint64_t)words * 4, "src", &src, err);
    if (rc == BW_OK)
        rc = ocl_buffer_write(d->ctx, src, 0, tile, (uint64_t)words * 4, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(d->ctx, (uint64_t)items * 4, "dst", &out, err);
    if (rc == BW_OK && trace)
        rc = ocl_buffer_create(d->ctx, (uint64_t)items * 8, "trace", &tb, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(k, 0, src, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(k, 1, out, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_local(k, BENCH_BANK_ARG_TILE, (size_t)words * 4, err);
    if (rc == BW_OK && trace)
        rc = ocl_kernel_arg_buffer(k, BENCH_BANK_ARG_TRACE, tb, err);
    if (rc == BW_OK)
        rc = ocl_kernel_run(d->ctx, k, (uint64_t)items, 256, &t, err);
    if (rc == BW_OK)
        rc = ocl_buffer_read(d->ctx, out, 0, dst, (uint64_t)items * 4, err);
    if (rc == BW_OK && trace)
        rc = ocl_buffer_read(d->ctx, tb, 0, tr, (uint64_t)items * 8, err);
    ocl_buffer_free(tb);
    ocl_buffer_free(out);
    ocl_buffer_free(src);
    ocl_kernel_free(k);
    ocl_program_free(prog);
    free(src_text);
    return rc;
}

/* The bank kernels validate on the CPU device against the host's fold of
 * each work-item's 256 local reads, and a trace build's local byte address
 * of every work-item's first read is the model's: the default cases in the
 * nvidia layout (W = 32), and pitch 33 at W = 16 and 64. */
Test(bench, bank_kernels_validate_and_trace_the_local_addresses, .timeout = 300)
{
    dev d = open_dev();
    /* words: the largest row read (S*t mod W) times the pitch, plus W columns */
    static const struct {
        const char *spec;
        int W;
        int64_t words;
    } cases[] = {
        { "bank:pitch=32", 32, 31 * 32 + 32 },          { "bank:pitch=33", 32, 31 * 33 + 32 },
        { "bank:pitch=32,stride=2", 32, 30 * 32 + 32 }, { "bank:pitch=32,stride=4", 32, 28 * 32 + 32 },
        { "bank:pitch=32,stride=8", 32, 24 * 32 + 32 }, { "bank:pitch=32,stride=16", 32, 16 * 32 + 32 },
        { "bank:pitch=33", 16, 15 * 33 + 16 },          { "bank:pitch=33,stride=3", 64, 63 * 33 + 64 },
    };
    const int64_t items = 8 * 256;
    uint32_t *dst = calloc((size_t)items, sizeof *dst);
    int64_t *tr = calloc((size_t)items, sizeof *tr);
    cr_assert(dst && tr);
    bw_error err = BW_ERROR_INIT;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_pattern *p = NULL;
        cr_assert_eq(model_pattern_parse(cases[i].spec, cases[i].W, 0, &p, &err), BW_OK, "%s", bw_error_text(&err));
        int64_t words = 0;
        cr_assert_eq(bench_bank_tile_words(p, &words, &err), BW_OK, "%s", bw_error_text(&err));
        cr_expect_eq(words, cases[i].words, "%s", cases[i].spec);
        cr_assert_leq((uint64_t)words * 4, d.info->local_mem_bytes, "%s", cases[i].spec);
        uint32_t *tile = malloc((size_t)words * 4);
        cr_assert(tile);
        bench_fill_random((uint8_t *)tile, (uint64_t)words * 4, 7 + i);
        for (int trace = 0; trace <= 1; trace++) {
            memset(dst, 0, (size_t)items * sizeof *dst);
            cr_assert_eq(run_bank(&d, p, tile, words, trace, items, dst, tr, &err), BW_OK, "%s: %s", cases[i].spec,
                         bw_error_text(&err));
            cr_expect_eq(bench_bank_validate(p, tile, dst, items, &err), BW_OK, "%s", bw_error_text(&err));
            if (trace)
                cr_expect_eq(bench_bank_validate_trace(p, tr, items, &err), BW_OK, "%s", bw_error_text(&err));
        }
        /* a fold off by one bit, and a first read one word off, are caught */
        dst[items - 1] ^= 1;
        cr_expect_eq(bench_bank_validate(p, tile, dst, items, &err), BW_E_VALIDATION);
        tr[3] += 4;
        cr_expect_eq(bench_bank_validate_trace(p, tr, items, &err), BW_E_VALIDATION);
        cr_expect(strstr(bw_error_text(&err), "work-item 3") != NULL, "%s", bw_error_text(&err));
        free(tile);
        model_pattern_free(p);
    }
    /* worked by hand: lane 1 of pitch 33 reads words 33..64, so with the
     * tile's word k = k the fold is FNV-1a over 33, 34, ..., 64, 33, ... */
    model_pattern *p = NULL;
    cr_assert_eq(model_pattern_parse("bank:pitch=33", 32, 0, &p, &err), BW_OK);
    uint32_t tile[31 * 33 + 32];
    for (uint32_t k = 0; k < 31 * 33 + 32; k++)
        tile[k] = k;
    uint32_t got[2];
    cr_assert_eq(bench_bank_expect(p, tile, 2, got, &err), BW_OK);
    uint32_t acc = 2166136261u;
    for (int j = 0; j < BENCH_BANK_READS; j++)
        acc = (acc ^ (uint32_t)(33 + j % 32)) * 16777619u;
    cr_expect_eq(got[1], acc);
    /* lane 0 reads words 0..31 instead: another fold */
    cr_expect_neq(got[0], got[1]);
    model_pattern_free(p);
    free(dst);
    free(tr);
    close_dev(&d);
}

/* One transpose kernel on the CPU device: build the program (source given,
 * or bench_transpose_program's), run version v over n*n work-items (tiled
 * and padded: in work-groups of at most `most`, each work-item looping
 * over tile / rows of its tile's rows), read out (and the trace) back. */
static bw_code run_transpose(const dev *d, const char *source, bench_transpose_version v, int64_t n, int tile,
                             int64_t most, int trace, const uint32_t *in, uint32_t *out, int64_t *tr, bw_error *err)
{
    int64_t local = bench_transpose_local_size(v, tile, most);
    /* tiled: one work-group of tile x rows per tile */
    int64_t items = local > 0 ? n * n / tile * (local / tile) : n * n;
    char *own = NULL;
    ocl_program *prog = NULL;
    ocl_kernel *k = NULL;
    ocl_buffer *src = NULL, *dst = NULL, *tb = NULL;
    ocl_timing t;
    uint64_t bytes = (uint64_t)(n * n) * 4;
    bw_code rc = source ? BW_OK : bench_transpose_program(NULL, n, tile, trace, &own, err);
    if (rc == BW_OK)
        rc = ocl_program_build(d->ctx, source ? source : own, "transpose.cl", NULL, &prog, err);
    if (rc == BW_OK)
        rc = ocl_kernel_create(prog, bench_transpose_kernel_name(v), &k, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(d->ctx, bytes, "in", &src, err);
    if (rc == BW_OK)
        rc = ocl_buffer_write(d->ctx, src, 0, in, bytes, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(d->ctx, bytes, "out", &dst, err);
    if (rc == BW_OK && trace)
        rc = ocl_buffer_create(d->ctx, (uint64_t)(n * n) * 8, "trace", &tb, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(k, 0, src, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(k, 1, dst, err);
    if (rc == BW_OK && trace)
        rc = ocl_kernel_arg_buffer(k, BENCH_TRANSPOSE_ARG_TRACE, tb, err);
    if (rc == BW_OK)
        rc = ocl_kernel_run(d->ctx, k, (uint64_t)items, (uint64_t)local, &t, err);
    if (rc == BW_OK)
        rc = ocl_buffer_read(d->ctx, dst, 0, out, bytes, err);
    if (rc == BW_OK && trace)
        rc = ocl_buffer_read(d->ctx, tb, 0, tr, (uint64_t)(n * n) * 8, err);
    ocl_buffer_free(tb);
    ocl_buffer_free(dst);
    ocl_buffer_free(src);
    ocl_kernel_free(k);
    ocl_program_free(prog);
    free(own);
    return rc;
}

/* The four transpose kernels validate on the CPU device against the host's
 * transpose of every element, and a trace build's load byte address of
 * every element is the model's: a 96 x 96 matrix in 16 x 16 tiles (6 x 6
 * tiles, work-groups of 256: one row per work-item), a 64 x 64 matrix in
 * 32 x 32 tiles (groups of 256 = 32 x 8: each work-item walks 4 rows) and
 * a 128 x 128 matrix in 64 x 64 tiles, the amd-gcn warp (groups of 256 =
 * 64 x 4, 16 rows each; 64 x 64 = 4096 work-items would exceed any
 * work-group limit), and 32 x 32 tiles in groups of 32 (one row at a
 * time: 32 rows each). */
Test(bench, transpose_kernels_validate_and_trace_the_load_addresses, .timeout = 300)
{
    dev d = open_dev();
    static const struct {
        int64_t n;
        int tile;
        int64_t most;
    } cases[] = { { 96, 16, 256 }, { 64, 32, 256 }, { 128, 64, 256 }, { 64, 32, 32 } };
    bw_error err = BW_ERROR_INIT;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t n = cases[i].n, nn = n * n;
        uint32_t *in = malloc((size_t)nn * 4), *out = malloc((size_t)nn * 4);
        int64_t *tr = malloc((size_t)nn * 8);
        cr_assert(in && out && tr);
        bench_fill_random((uint8_t *)in, (uint64_t)nn * 4, 11 + i);
        for (int v = 0; v < BENCH_TRANSPOSE_VERSIONS; v++)
            for (int trace = 0; trace <= 1; trace++) {
                memset(out, 0, (size_t)nn * 4);
                cr_assert_eq(run_transpose(&d, NULL, (bench_transpose_version)v, n, cases[i].tile, cases[i].most, trace,
                                           in, out, tr, &err),
                             BW_OK, "%s: %s", bench_transpose_version_name((bench_transpose_version)v),
                             bw_error_text(&err));
                cr_expect_eq(bench_transpose_validate((bench_transpose_version)v, n, in, out, 0, n, &err), BW_OK, "%s",
                             bw_error_text(&err));
                /* a band of rows alone, as the runner checks a staging buffer at a time */
                cr_expect_eq(bench_transpose_validate((bench_transpose_version)v, n, in, out + 16 * n, 16, 8, &err),
                             BW_OK, "%s", bw_error_text(&err));
                if (trace)
                    cr_expect_eq(bench_transpose_validate_trace((bench_transpose_version)v, n, cases[i].tile, tr,
                                                                &err),
                                 BW_OK, "%s", bw_error_text(&err));
            }
        /* the last result (copy, the versions' last) with two elements
         * swapped, and a load one element off, are caught */
        uint32_t keep = out[1];
        out[1] = out[n];
        out[n] = keep;
        cr_expect_eq(bench_transpose_validate(MODEL_TRANSPOSE_COPY, n, in, out, 0, n, &err), BW_E_VALIDATION);
        cr_expect(strstr(bw_error_text(&err), "(row 0, column 1)") != NULL, "%s", bw_error_text(&err));
        tr[5] += 4;
        cr_expect_eq(bench_transpose_validate_trace(MODEL_TRANSPOSE_COPY, n, cases[i].tile, tr, &err),
                     BW_E_VALIDATION);
        cr_expect(strstr(bw_error_text(&err), "work-item 5 ") != NULL, "%s", bw_error_text(&err));
        free(in);
        free(out);
        free(tr);
    }
    close_dev(&d);
}

/* A planted wrong tiled kernel, whose store phase reads the tile at
 * [ly][lx] instead of [lx][ly] (one index swapped), copies each tile in
 * place instead of transposing it: the host's check catches it at the first
 * element off the tile's diagonal, row 0, column 1. */
Test(bench, transpose_check_catches_a_tiled_kernel_with_one_index_swapped, .timeout = 300)
{
    dev d = open_dev();
    const int64_t n = 64;
    const int tile = 16;
    bw_error err = BW_ERROR_INIT;
    char *source = NULL;
    cr_assert_eq(bench_transpose_program(NULL, n, tile, 0, &source, &err), BW_OK, "%s", bw_error_text(&err));
    const char *right = "tile[lx * (PITCH) + ly]";
    char *at = strstr(source, right);
    cr_assert(at != NULL, "the tiled kernel's tile read");
    memcpy(at, "tile[ly * (PITCH) + lx]", strlen(right));
    uint32_t *in = malloc((size_t)(n * n) * 4), *out = malloc((size_t)(n * n) * 4);
    cr_assert(in && out);
    for (int64_t k = 0; k < n * n; k++)
        in[k] = (uint32_t)k;
    cr_assert_eq(run_transpose(&d, source, MODEL_TRANSPOSE_TILED, n, tile, 64, 0, in, out, NULL, &err), BW_OK, "%s",
                 bw_error_text(&err));
    /* out's (row 0, column 1) holds in[1] = 1; the transpose wants in[64] = 64 */
    cr_expect_eq(out[1], 1u);
    cr_expect_eq(bench_transpose_validate(MODEL_TRANSPOSE_TILED, n, in, out, 0, n, &err), BW_E_VALIDATION);
    cr_expect(strstr(bw_error_text(&err), "(row 0, column 1)") != NULL, "%s", bw_error_text(&err));
    cr_expect(strstr(bw_error_text(&err), "0x00000001, expected 0x00000040") != NULL, "%s", bw_error_text(&err));
    /* the diagonal is right: (row 0, column 0) and (row 1, column 1) */
    cr_expect_eq(out[0], 0u);
    cr_expect_eq(out[n + 1], (uint32_t)(n + 1));
    free(in);
    free(out);
    free(source);
    close_dev(&d);
}

/* Load addresses and tile ways worked by hand. */
Test(bench, transpose_load_addresses_and_tile_ways)
{
    /* tiled, n = 64, tile 16: work-item 256 + 17 is group 1 (tile column
     * 1, row 0), lx = ly = 1: in[(0*16 + 1)*64 + 1*16 + 1] = in[81] */
    cr_expect_eq(bench_transpose_load_address(MODEL_TRANSPOSE_TILED, 64, 16, 256 + 17), 4 * 81);
    cr_expect_eq(bench_transpose_load_address(MODEL_TRANSPOSE_PADDED, 64, 16, 256 + 17), 4 * 81);
    /* group 4 is tile column 0, row 1: local id 0 reads in[16*64] */
    cr_expect_eq(bench_transpose_load_address(MODEL_TRANSPOSE_TILED, 64, 16, 4 * 256), 4 * 16 * 64);
    /* copy and naive read in[g] */
    cr_expect_eq(bench_transpose_load_address(MODEL_TRANSPOSE_NAIVE, 64, 16, 273), 4 * 273);
    cr_expect_eq(bench_transpose_load_address(MODEL_TRANSPOSE_COPY, 64, 16, 273), 4 * 273);

    /* nvidia: 32 lanes, 32 banks of 4 bytes, tile 32. The tiled column
     * read puts lane t at word 32*t: bank 0 for every lane, 32 words, 32-way.
     * Padded, word 33*t: bank t, 1-way. */
    const model_geometry nvidia = { 32, 32, 128, 32, 4, 0 };
    cr_expect_eq(bench_transpose_tile_ways(MODEL_TRANSPOSE_TILED, &nvidia, 32), 32);
    cr_expect_eq(bench_transpose_tile_ways(MODEL_TRANSPOSE_PADDED, &nvidia, 32), 1);
    /* tile 16 under a 32-lane warp (two tile rows, ly = t / 16): tiled,
     * word 16*lx + ly: even lx land in bank ly, odd lx in bank 16 + ly, so
     * bank 0 holds lx = 0, 2, ..., 14 of ly = 0: 8-way. Padded, word
     * 17*lx + ly: ly = 0 gives 16 distinct banks, ly = 1 shifts them by
     * one and lx = 15 (word 256) meets lx = 0 (word 0) in bank 0: 2-way. */
    cr_expect_eq(bench_transpose_tile_ways(MODEL_TRANSPOSE_TILED, &nvidia, 16), 8);
    cr_expect_eq(bench_transpose_tile_ways(MODEL_TRANSPOSE_PADDED, &nvidia, 16), 2);
    /* no tile, no banks, or a warp wider than the work-group: none */
    cr_expect_eq(bench_transpose_tile_ways(MODEL_TRANSPOSE_NAIVE, &nvidia, 32), 0);
    cr_expect_eq(bench_transpose_tile_ways(MODEL_TRANSPOSE_COPY, &nvidia, 32), 0);
    const model_geometry nobanks = { 16, 64, 64, 0, 0, 0 };
    cr_expect_eq(bench_transpose_tile_ways(MODEL_TRANSPOSE_TILED, &nobanks, 16), 0);
    cr_expect_eq(bench_transpose_tile_ways(MODEL_TRANSPOSE_TILED, &nvidia, 4), 0);

    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(bench_transpose_check_size(96, 16, &err), BW_OK);
    cr_expect_eq(bench_transpose_check_size(100, 16, &err), BW_E_USAGE);
    cr_expect_eq(bench_transpose_check_size(0, 16, &err), BW_E_USAGE);
}

static bench_plan *plan_write(const dev *d, const char *const *specs, size_t n, uint64_t size)
{
    bench_plan_opts o = { .specs = specs, .nspecs = n, .size = size, .scalar_form = 1,
                          .access = BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE) };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &d->info->geo, &d->lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    return p;
}

/* Write mode (dst[A(g)] = src[g]) on the CPU device: every pattern
 * validates against the host (each sampled work-item's element at its
 * address, exactly the modeled written bytes changed) and its traced
 * store addresses match the model's; planted kernels that store one
 * element too far, or skip a store, are caught and not timed. */
Test(bench, write_mode_validates_traces_and_catches_stray_stores, .timeout = 300)
{
    dev d = open_dev();
    const char *specs[] = { "seq", "stride:s=2", "offset:bytes=4", "reverse", "aos:struct=12,field=0" };
    const size_t n = sizeof specs / sizeof specs[0];
    bench_plan *p = plan_write(&d, specs, n, 1 << 20);
    cr_assert_eq(p->n, n);
    for (size_t i = 0; i < n; i++) {
        const bench_item *it = &p->items[i];
        cr_expect_eq(it->access, BENCH_ACCESS_WRITE, "%s", it->spec);
        /* the coalesced load of src[g] and the pattern's stores */
        cr_expect_eq(it->model.loads.requested_bytes, it->items * 4, "%s", it->spec);
        cr_expect_eq(it->model.stores.written_bytes, it->items * 4, "%s: one-to-one", it->spec);
    }
    /* stride:s=2's stores cover every other element: dst spans twice the items */
    cr_expect_geq(p->dst_bytes, (uint64_t)p->items[1].items * 8 - 4);
    bench_result *res = run_with(&d, p, NULL);
    for (size_t i = 0; i < n; i++)
        cr_expect_eq(res[i].status, BENCH_OK, "%s: %s", p->items[i].spec, res[i].failure ? res[i].failure : "");
    bench_results_free(res, p->n);
    bench_kernels *k = kernels(NULL);
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_OK, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    bench_kernels_free(k);

    /* one element too far: work-item g's element lands at A(g) + E, so
     * A(g) holds its neighbour's (or the fill) and the last lands outside */
    char *dir = kernel_dir_with("BW_STORE(dst, a, v[j]);", "BW_STORE(dst, a + BW_E, v[j]);");
    res = run_with(&d, p, dir);
    for (size_t i = 0; i < n; i++) {
        cr_expect_eq(res[i].status, BENCH_FAILED, "%s", p->items[i].spec);
        cr_expect_eq(res[i].failure_code, BW_E_VALIDATION, "%s", p->items[i].spec);
        cr_expect_eq(res[i].event.count, 0, "a wrong kernel was timed");
    }
    cr_expect(strstr(res[0].failure, "work-item 0 ") != NULL, "%s", res[0].failure);
    bench_results_free(res, p->n);
    tu_rmdir(dir);
    free(dir);

    /* one skipped store, of work-item 1001 (group 3 of 256, which every
     * sample holds): its address keeps the fill, or the count of changed
     * bytes in the windows is short by one element */
    dir = kernel_dir_with("BW_STORE(dst, a, v[j]);", "if (g != 1001) BW_STORE(dst, a, v[j]);");
    res = run_with(&d, p, dir);
    for (size_t i = 0; i < n; i++) {
        cr_expect_eq(res[i].status, BENCH_FAILED, "%s", p->items[i].spec);
        cr_expect(strstr(res[i].failure, "some stores were skipped") != NULL ||
                      strstr(res[i].failure, "work-item 1001 ") != NULL,
                  "%s", res[i].failure);
    }
    bench_results_free(res, p->n);
    tu_rmdir(dir);
    free(dir);

    /* a stray store into a gap of stride:s=2 (the element after its own),
     * beside the right one: the count of changed bytes is too large */
    dir = kernel_dir_with("BW_STORE(dst, a, v[j]);",
                          "BW_STORE(dst, a, v[j]); if (g == 77) BW_STORE(dst, a + BW_E, v[j]);");
    res = run_with(&d, p, dir);
    cr_expect_eq(res[1].status, BENCH_FAILED);
    cr_expect(strstr(res[1].failure, "a store landed outside the pattern's addresses") != NULL, "%s",
              res[1].failure);
    bench_results_free(res, p->n);
    tu_rmdir(dir);
    free(dir);
    bench_plan_free(p);
    close_dev(&d);
}

/* a planted wrong kernel caught: failed by validation and never timed */
static void expect_caught(const bench_result *r, size_t plant, int K, const char *spec)
{
    cr_expect_eq(r->status, BENCH_FAILED, "plant %zu at K %d, %s", plant, K, spec);
    cr_expect_eq(r->failure_code, BW_E_VALIDATION, "plant %zu at K %d, %s: %s", plant, K, spec,
                 r->failure ? r->failure : "");
    cr_expect_eq(r->event.count, 0, "plant %zu at K %d, %s: a wrong kernel was timed", plant, K, spec);
}

static bench_plan *plan_unrolled(const dev *d, const char *const *specs, size_t n, bench_access a, int k,
                                 uint64_t size)
{
    bench_plan_opts o = { .specs = specs, .nspecs = n, .size = size, .scalar_form = 1, .access = BENCH_ACCESS_BIT(a),
                          .unroll = k };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &d->info->geo, &d->lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    return p;
}

/* K items per work-item (--unroll K, cl/gather.cl and cl/record.cl): in
 * every access mode the lane-permuting, masked, misaligned, broadcast,
 * strided, wide-element and record patterns run at K with a launch of
 * items / K work-items, validate against the host, and their traced
 * addresses (each virtual item's, once) are the model's. */
Test(bench, unrolled_kernels_validate_and_trace, .timeout = 300)
{
    dev d = open_dev();
    static const char *const copy[] = { "seq",     "stride:s=2", "offset:bytes=4", "reverse",
                                        "permute:seed=3", "one-lane",   "broadcast",     "aos:struct=12,field=0",
                                        "seq:elem=16",    "record:fields=3,layout=aos,n=65536" };
    /* write mode: one-to-one stores only; records: copy only */
    static const char *const write[] = { "seq", "stride:s=2", "offset:bytes=4", "reverse", "permute:seed=3",
                                         "aos:struct=12,field=0" };
    const int ks[] = { 2, 8 };
    /* the sanitizer pass (BWLAB_TEST_QUICK): one K; the host code is the same */
    size_t nk = getenv("BWLAB_TEST_QUICK") ? 1 : 2;
    for (size_t q = 0; q < nk; q++)
        for (int a = 0; a < BENCH_ACCESS_MODES; a++) {
            const char *const *specs = a == BENCH_ACCESS_WRITE ? write : copy;
            size_t n = a == BENCH_ACCESS_WRITE ? 6 : a == BENCH_ACCESS_READ ? 9 : 10;
            bench_plan *p = plan_unrolled(&d, specs, n, (bench_access)a, ks[q], 1 << 20);
            for (size_t i = 0; i < p->n; i++) {
                const bench_item *it = &p->items[i];
                /* K, or the largest power of two below it that splits the
                 * launch into whole work-groups (W divides them here) */
                int want = ks[q];
                while (want > 1 && it->items % (want * it->local_size) != 0)
                    want /= 2;
                cr_expect(want > 1 || it->items < 32 * 16 * it->local_size, "%s: %lld items", it->spec,
                          (long long)it->items);
                cr_expect_eq(bench_item_unroll(it), want, "%s (%s)", it->spec, bench_access_name(it->access));
                cr_expect_eq((want > 1 ? it->launch_items : it->items) * want, it->items, "%s", it->spec);
            }
            bench_result *res = run_with(&d, p, NULL);
            for (size_t i = 0; i < p->n; i++)
                cr_expect_eq(res[i].status, BENCH_OK, "K %d, %s (%s): %s", ks[q], p->items[i].spec,
                             bench_access_name(p->items[i].access), res[i].failure ? res[i].failure : "");
            bench_results_free(res, p->n);
            bench_kernels *k = kernels(NULL);
            bw_error err = BW_ERROR_INIT;
            cr_expect_eq(bench_trace_check(d.ctx, p, k, &err), BW_OK, "K %d: %s", ks[q], bw_error_text(&err));
            bw_error_clear(&err);
            bench_kernels_free(k);
            bench_plan_free(p);
        }
    close_dev(&d);
}

/* A zero-filled source (the compression check's, bench_settings.fill_zeros):
 * copy, read and write validate against zeros, at K = 1 and 4; a read
 * kernel that stores nothing is still caught (every element is the
 * validation's key, 0, so every work-item must store). */
Test(bench, a_zero_filled_source_validates, .timeout = 300)
{
    dev d = open_dev();
    static const char *const specs[] = { "seq", "stride:s=2" };
    for (int K = 1; K <= 4; K += 3)
        for (int a = 0; a < BENCH_ACCESS_MODES; a++) {
            bench_plan *p = plan_unrolled(&d, specs, 2, (bench_access)a, K, 1 << 20);
            bench_kernels *k = kernels(NULL);
            bench_settings s = validating_settings();
            s.fill_zeros = 1;
            volatile sig_atomic_t stop = 0;
            bench_result *res = NULL;
            bench_run_info info;
            bw_error err = BW_ERROR_INIT;
            cr_assert_eq(bench_run(d.ctx, p, k, &s, &stop, NULL, NULL, &res, &info, &err), BW_OK, "%s",
                         bw_error_text(&err));
            for (size_t i = 0; i < p->n; i++)
                cr_expect_eq(res[i].status, BENCH_OK, "K %d, %s (%s): %s", K, p->items[i].spec,
                             bench_access_name(p->items[i].access), res[i].failure ? res[i].failure : "");
            bench_results_free(res, p->n);
            bench_kernels_free(k);
            bench_plan_free(p);
        }
    char *dir = kernel_dir_with("if (BW_MATCH(f, key))", "if (0)");
    bench_plan *p = plan_unrolled(&d, specs, 1, BENCH_ACCESS_READ, 1, 1 << 20);
    bench_kernels *k = kernels(dir);
    bench_settings s = validating_settings();
    s.fill_zeros = 1;
    volatile sig_atomic_t stop = 0;
    bench_result *res = NULL;
    bench_run_info info;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_run(d.ctx, p, k, &s, &stop, NULL, NULL, &res, &info, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(res[0].status, BENCH_FAILED, "a read kernel that stores nothing passed on zeros");
    bench_results_free(res, p->n);
    bench_kernels_free(k);
    bench_plan_free(p);
    tu_rmdir(dir);
    free(dir);
    close_dev(&d);
}

/* Planted kernels wrong only for a work-item's second item (j = 1) pass
 * at K = 1, where there is none, and fail validation at K = 4 before
 * any launch is timed: a load one element off, a store of the first
 * item's element, write mode's store of it, and a traced address off. */
Test(bench, unrolled_wrong_kernels_are_caught, .timeout = 300)
{
    dev d = open_dev();
    static const char *const specs[] = { "seq", "stride:s=2", "reverse" };
    static const struct {
        bench_access access;
        const char *from, *to;
    } plants[] = {
        { BENCH_ACCESS_COPY, "v[j] = BW_LOAD(src, a);", "v[j] = BW_LOAD(src, j == 1 ? a + BW_E : a);" },
        { BENCH_ACCESS_COPY, "        dst[BW_G(j)] = v[j];\n#endif",
          "        dst[BW_G(j)] = v[0];\n#endif" },
        { BENCH_ACCESS_READ, "v[j] = BW_LOAD(src, a);", "v[j] = BW_LOAD(src, j == 1 ? a + BW_E : a);" },
        { BENCH_ACCESS_WRITE, "BW_STORE(dst, a, v[j]);", "BW_STORE(dst, a, v[0]);" },
    };
    /* the sanitizer pass (BWLAB_TEST_QUICK): K = 4 alone; the host code is the same */
    int K0 = getenv("BWLAB_TEST_QUICK") ? 4 : 1;
    for (size_t k = 0; k < sizeof plants / sizeof plants[0]; k++) {
        char *dir = kernel_dir_with(plants[k].from, plants[k].to);
        for (int K = K0; K <= 4; K += 3) {
            bench_plan *p = plan_unrolled(&d, specs, 3, plants[k].access, K, 1 << 20);
            bench_result *res = run_with(&d, p, dir);
            for (size_t i = 0; i < p->n; i++) {
                if (K == 1) {
                    cr_expect_eq(res[i].status, BENCH_OK, "plant %zu at K 1, %s: %s", k, p->items[i].spec,
                                 res[i].failure ? res[i].failure : "");
                    continue;
                }
                expect_caught(&res[i], k, K, p->items[i].spec);
                /* read mode: a work-item's fold of its K elements, which a key's work-item should store */
                if (plants[k].access == BENCH_ACCESS_READ)
                    cr_expect(res[i].failure && strstr(res[i].failure, "fold (XOR)") &&
                                  strstr(res[i].failure, "it should store it"),
                              "%s", res[i].failure ? res[i].failure : "");
            }
            bench_results_free(res, p->n);
            bench_plan_free(p);
        }
        tu_rmdir(dir);
        free(dir);
    }
    /* an address off for the second item of work-item 5: the trace names the item, p + S */
    char *dir = kernel_dir_with("const long a = BW_ADDR;", "const long a = BW_ADDR + (p == 5 && j == 1 ? BW_E : 0);");
    bench_plan *p = plan_unrolled(&d, specs, 1, BENCH_ACCESS_COPY, 4, 1 << 20);
    bench_kernels *kk = kernels(dir);
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(bench_trace_check(d.ctx, p, kk, &err), BW_E_VALIDATION);
    char want[64];
    snprintf(want, sizeof want, "work-item %lld ", (long long)(5 + p->items[0].items / 4));
    cr_expect(strstr(bw_error_text(&err), want) != NULL, "%s, not %s", bw_error_text(&err), want);
    bw_error_clear(&err);
    bench_kernels_free(kk);
    bench_plan_free(p);
    tu_rmdir(dir);
    free(dir);
    close_dev(&d);
}

/* Broadcast's lanes store to one address: write mode refuses it, with the
 * reason, rather than validating an unspecified winner */
Test(bench, write_mode_refuses_stores_that_share_bytes)
{
    dev d = open_dev();
    const char *specs[] = { "broadcast" };
    bench_plan_opts o = { .specs = specs, .nspecs = 1, .size = 1 << 20,
                          .access = BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE) };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &d.info->geo, &d.lim, &p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "several lanes store to the same bytes") != NULL, "%s",
              bw_error_text(&err));
    bw_error_clear(&err);
    close_dev(&d);
}

/* A made-up run of seq and stride:s=2 in read, copy and write mode (no
 * device: the plan is sized for W = 8, and the figures are set by hand),
 * with stride:s=2's write item left out: the table's row per pattern,
 * each mode's GB/s and vs seq side by side, "-" where a mode is missing. */
Test(bench, the_table_shows_read_copy_and_write_side_by_side)
{
    static const model_geometry geo = { 8, 64, 64, 0, 4, 0 };
    bench_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.max_alloc_bytes = lim.global_mem_bytes = (uint64_t)1 << 30;
    lim.max_work_group = 256;
    lim.address_bits = 64;
    const char *specs[] = { "seq", "stride:s=2" };
    bench_plan_opts o = { .specs = specs, .nspecs = 2, .size = 1 << 20,
                          .access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ) | BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) |
                                    BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE) };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo, &lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 6);
    /* stride:s=2 in write mode goes last, out of the plan's count */
    size_t w = p->n;
    for (size_t i = 0; i < p->n; i++)
        if (p->items[i].access == BENCH_ACCESS_WRITE && !strcmp(p->items[i].spec, "stride:s=2"))
            w = i;
    cr_assert_lt(w, p->n);
    bench_item last = p->items[w];
    p->items[w] = p->items[p->n - 1];
    p->items[p->n - 1] = last;
    p->n--;
    /* GB/s by mode: seq 4, 8, 6; stride:s=2 2, 5 (read, copy, write) */
    bench_result res[6];
    memset(res, 0, sizeof res);
    for (size_t i = 0; i < p->n; i++) {
        int seq = !strcmp(p->items[i].spec, "seq");
        bench_access a = p->items[i].access;
        double gbs = a == BENCH_ACCESS_READ ? (seq ? 4 : 2) : a == BENCH_ACCESS_COPY ? (seq ? 8 : 5) : 6;
        double seq_gbs = a == BENCH_ACCESS_READ ? 4 : a == BENCH_ACCESS_COPY ? 8 : 6;
        res[i].status = BENCH_OK;
        res[i].effective_gbs = gbs;
        res[i].best_gbs = gbs;
        res[i].relative_to_reference = gbs / seq_gbs;
        res[i].twin_ratio = NAN;
        res[i].reference = -1;
        res[i].stable = 1;
    }
    bench_device d;
    memset(&d, 0, sizeof d);
    d.name = "made-up device";
    d.vendor = d.platform_name = d.driver_version = d.device_version = d.type_name = "-";
    d.profile_name = "made-up";
    d.profile_why = "set by the test";
    d.geo = geo;
    bench_run_info info;
    memset(&info, 0, sizeof info);
    info.seq_item = info.relative_item = -1;
    bench_settings s = bench_settings_default();
    bench_run_doc run = { .device = &d, .plan = p, .results = res, .info = &info };
    bench_run_meta m = { "2026-01-01T00:00:00Z", "host", "os", 0, NULL, &s, NULL, 0 };
    bw_buf b = BW_BUF_INIT;
    report_results_table(&m, &run, 1, &b);
    const char *t = bw_buf_str(&b);
    cr_expect(strstr(t, "\n                          measured: read  measured: copy  measured: write") != NULL, "%s", t);
    cr_expect(strstr(t, "\npattern                   GB/s    vs seq   GB/s    vs seq   GB/s    vs seq    best") != NULL,
              "%s", t);
    /* seq: 4.00 1.00 | 8.00 1.00 | 6.00 1.00; stride:s=2: 2.00 0.50 | 5.00 0.62(5) | - - */
    cr_expect(strstr(t, "\nseq                        4.00     1.00   8.00     1.00   6.00     1.00") != NULL, "%s", t);
    cr_expect(strstr(t, "\nstride:s=2                 2.00     0.50   5.00     0.62      -        -") != NULL, "%s", t);
    cr_expect(strstr(t, "(read: loads; copy and write: loads + stores)") != NULL, "%s", t);
    cr_expect(strstr(t, "With the modes side by side, the modeled columns and the verdict are copy's where the "
                        "pattern was measured in copy mode, else read's, else write's.") != NULL,
              "%s", t);
    bw_buf_free(&b);
    report_results_markdown(&m, &run, 1, &b);
    t = bw_buf_str(&b);
    cr_expect(strstr(t, "| pattern | read GB/s (measured) | read vs seq (measured) | copy GB/s (measured) | copy vs seq "
                        "(measured) | write GB/s (measured) | write vs seq (measured) | twin x") != NULL,
              "%s", t);
    cr_expect(strstr(t, "| `stride:s=2` | 2.00 | 0.50 | 5.00 | 0.62 | - | - |") != NULL, "%s", t);
    bw_buf_free(&b);
    report_results_csv(&m, &run, 1, &b);
    t = bw_buf_str(&b);
    cr_expect(strstr(t, ",access,") != NULL, "%s", t);
    cr_expect(strstr(t, ",write,") != NULL, "%s", t);
    bw_buf_free(&b);
    p->n++;
    bench_plan_free(p);
}

/* bench_fill_src_device of bytes [0, bytes) with seed into a new buffer,
 * kernels from dir (NULL: the source tree); the whole buffer read back.
 * The caller frees the bytes. */
static uint8_t *device_fill(dev *d, const char *dir, uint64_t bytes, uint64_t seed, char *note, size_t note_size)
{
    bw_error err = BW_ERROR_INIT;
    ocl_buffer *b = NULL;
    uint8_t stage[4096];
    uint8_t *back = malloc((size_t)bytes);
    cr_assert_not_null(back);
    cr_assert_eq(ocl_buffer_create(d->ctx, bytes, "src", &b, &err), BW_OK, "%s", bw_error_text(&err));
    bench_fill_io io = { d->ctx, dir, stage, sizeof stage, NULL };
    cr_assert_eq(bench_fill_src_device(&io, b, bytes, seed, note, note_size, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_assert_eq(ocl_buffer_read(d->ctx, b, 0, back, bytes, &err), BW_OK, "%s", bw_error_text(&err));
    ocl_buffer_free(b);
    return back;
}

/* the first byte where got is not the host's stream (seed) over [0, bytes), or -1 */
static long long first_off_stream(const uint8_t *got, uint64_t bytes, uint64_t seed)
{
    uint8_t *want = malloc((size_t)bytes);
    cr_assert_not_null(want);
    bench_fill_random_at(want, 0, bytes, seed);
    long long bad = -1;
    for (uint64_t i = 0; i < bytes && bad < 0; i++)
        if (got[i] != want[i])
            bad = (long long)i;
    free(want);
    return bad;
}

/* word 0 of the device's stream, in host byte order */
static uint64_t first_word(dev *d, uint64_t seed)
{
    char note[400];
    uint8_t *back = device_fill(d, NULL, 64, seed, note, sizeof note);
    cr_expect_str_eq(note, "");
    uint64_t w;
    memcpy(&w, back, 8);
    cr_expect_eq(first_off_stream(back, 64, seed), -1);
    free(back);
    return w;
}

/* cl/fill.cl on PoCL writes the host's stream byte for byte: a buffer of
 * 1 MiB + 5 bytes (the 5 from the host) and one of a launch's words plus
 * 1 MiB + 5 (a second launch, from a nonzero first word), read back
 * whole. Anchors worked out apart from bwlab: splitmix64's first output
 * from state 0 is 0xE220A8397B1DCDAF; seeds found by inverting its
 * finalizer make word 0 hold the write sentinel in its low half, its high
 * half or both, which the stream changes (low: XOR 1, high: XOR 1 << 32). */
Test(bench, the_device_fill_is_the_host_stream, .timeout = 120)
{
    dev d = open_dev();
    const uint64_t sizes[] = { ((uint64_t)1 << 20) + 5, BENCH_FILL_LAUNCH_WORDS * 8 + ((uint64_t)1 << 20) + 5 };
    for (size_t i = 0; i < 2; i++) {
        char note[400] = "unset";
        uint8_t *back = device_fill(&d, NULL, sizes[i], UINT64_C(0x62776c6162), note, sizeof note);
        cr_expect_str_eq(note, "", "%llu bytes", (unsigned long long)sizes[i]);
        cr_expect_eq(first_off_stream(back, sizes[i], UINT64_C(0x62776c6162)), -1, "%llu bytes",
                     (unsigned long long)sizes[i]);
        free(back);
    }
    cr_expect_eq(first_word(&d, 0), UINT64_C(0xE220A8397B1DCDAF));
    cr_expect_eq(first_word(&d, UINT64_C(0x69c5748c9e45862c)), UINT64_C(0x12345678A5A55A5B));
    cr_expect_eq(first_word(&d, UINT64_C(0x7d35497db741501b)), UINT64_C(0xA5A55A5B00001234));
    cr_expect_eq(first_word(&d, UINT64_C(0x5c7fa6e96f22e3a6)), UINT64_C(0xA5A55A5BA5A55A5B));
    close_dev(&d);
}

/* A fill kernel that cannot be had or cannot be trusted: the host fills
 * src, the buffer holds the stream all the same, and the note says why. */
static void expect_host_fill(dev *d, const char *dir, const char *why)
{
    char note[400] = "";
    const uint64_t bytes = ((uint64_t)1 << 20) + 3;
    uint8_t *back = device_fill(d, dir, bytes, 99, note, sizeof note);
    cr_expect(strncmp(note, "src filled from the host: ", 26) == 0 && strstr(note, why), "'%s' lacks '%s'", note,
              why);
    cr_expect_eq(first_off_stream(back, bytes, 99), -1);
    free(back);
}

/* The spot check catches a fill kernel with another stream (from byte 0),
 * and one wrong only between the first and last 64 KiB (by the pieces
 * between); a fill.cl that does not build, or none in --kernels, is a
 * note too. A run with a wrong fill.cl still validates every pattern, in
 * every mode, against the host's stream, and says how src was filled. */
Test(bench, a_fill_the_host_cannot_trust_falls_back_to_the_host, .timeout = 300)
{
    dev d = open_dev();
    char *dir = kernel_dir_editing("fill.cl", "z ^= z >> 31;", "z ^= z >> 29;");
    expect_host_fill(&d, dir, "the device's fill (fill.cl) differs from the host's stream at byte 0");
    char *mid = kernel_dir_editing("fill.cl", "dst[k] = z;", "dst[k] = k >= 16384 && k < 114688 ? z + 1 : z;");
    expect_host_fill(&d, mid, "differs from the host's stream at byte");
    char *broken = kernel_dir_editing("fill.cl", "z ^= z >> 31;", "z ^= no_such_fill;");
    expect_host_fill(&d, broken, "kernel source 'fill.cl' failed to build");
    char *none = tu_temp_dir();
    expect_host_fill(&d, none, "has no file 'fill.cl'");

    const char *specs[] = { "seq", "stride:s=2" };
    bench_plan_opts o = { .specs = specs, .nspecs = 2, .size = 1 << 20, .scalar_form = 1,
                          .access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ) | BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) |
                                    BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE) };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &d.info->geo, &d.lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 6);
    const char *dirs[] = { NULL, dir, broken };
    for (size_t k = 0; k < 3; k++) {
        bench_run_info info;
        bench_result *res = run_with_info(&d, p, dirs[k], &info);
        for (size_t i = 0; i < p->n; i++) {
            cr_expect_eq(res[i].status, BENCH_OK, "%s: %s", p->items[i].spec, res[i].failure ? res[i].failure : "");
            cr_expect(res[i].validated, "%s", p->items[i].spec);
        }
        cr_expect(k == 0 ? info.fill_note[0] == '\0' : strstr(info.fill_note, "src filled from the host: ") != NULL,
                  "kernels %s: '%s'", dirs[k] ? dirs[k] : "(source tree)", info.fill_note);
        bench_results_free(res, p->n);
    }
    bench_plan_free(p);
    char *const made[] = { dir, mid, broken, none };
    for (size_t k = 0; k < 4; k++) {
        tu_rmdir(made[k]);
        free(made[k]);
    }
    close_dev(&d);
}

/* run --transfers on a budget: the copies stop at the deadline, the sizes
 * up to 64 x the first (4, 16, 64 and 256 KiB: a map's flatness is judged
 * over that range) always measured. A deadline already passed as they
 * begin leaves those four sizes alone, 8 copies each (two directions,
 * pageable and pinned, blocking and not), their maps (two each), the
 * launch latency, and a note of where they stopped. */
Test(bench, transfers_stop_at_their_deadline, .timeout = 120)
{
    dev d = open_dev();
    bench_probe_opts o;
    memset(&o, 0, sizeof o);
    o.transfers_only = 1;
    o.deadline_s = bench_now_s();
    bench_probe_result *r = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_probe_run(d.ctx, &o, &r, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(r->n_transfers, 32);
    for (size_t i = 0; i < r->n_transfers; i++)
        cr_expect_eq(r->transfers[i].bytes, (uint64_t)4096 << (2 * (i / 8)), "copy %zu", i);
    cr_expect_eq(r->n_maps, 8);
    cr_expect_gt(r->launches, 0);
    cr_expect(!strncmp(r->transfers_note, "copies up to 256.00 KiB: the next size (4 x the bytes) would pass the",
                       strlen("copies up to 256.00 KiB: the next size (4 x the bytes) would pass the")),
              "%s", r->transfers_note);
    bench_probe_result_free(r);
    close_dev(&d);
}

/* The warp form (bench_form: one work-item runs a whole warp's lanes) is
 * validated and traced on its own: a kernel wrong in that form alone (one
 * element too far), or in its timed launches' work-group of 64 warps
 * alone, fails its pattern in each access mode, at K = 1 and 4,
 * with the form named, and is never timed; a trace wrong at lane 3 of
 * every warp is caught. */
Test(bench, a_wrong_warp_form_is_caught, .timeout = 300)
{
    dev d = open_dev();
    static const char *const specs[] = { "reverse", "permute:seed=3", "broadcast" };
    static const struct {
        bench_access access;
        size_t n;
        const char *from, *to;
        int k1_only;
    } plants[] = {
        { BENCH_ACCESS_COPY, 3, "v[j] = BW_LOAD(src, a);",
          "v[j] = BW_LOAD(src, a);\n#ifdef BW_WARP\nv[j] = BW_LOAD(src, a + BW_E);\n#endif\n", 0 },
        { BENCH_ACCESS_READ, 3, "v[j] = BW_LOAD(src, a);",
          "v[j] = BW_LOAD(src, a);\n#ifdef BW_WARP\nv[j] = BW_LOAD(src, a + BW_E);\n#endif\n", 0 },
        /* wrong only in a work-group of BENCH_WARP_GROUP warps: validation
         * runs the timed launches' group */
        { BENCH_ACCESS_COPY, 3, "v[j] = BW_LOAD(src, a);",
          "v[j] = BW_LOAD(src, a);\n#ifdef BW_WARP\nif (get_local_size(0) == 64) v[j] = BW_LOAD(src, a + BW_E);\n#endif\n",
          1 },
        /* write mode: one-to-one stores only (broadcast is not) */
        { BENCH_ACCESS_WRITE, 2, "BW_STORE(dst, a, v[j]);",
          "\n#ifdef BW_WARP\nBW_STORE(dst, a + BW_E, v[j]);\n#else\nBW_STORE(dst, a, v[j]);\n#endif\n", 0 },
    };
    /* the sanitizer pass (BWLAB_TEST_QUICK): K = 4 alone; the host code is the same */
    int K0 = getenv("BWLAB_TEST_QUICK") ? 4 : 1;
    for (size_t k = 0; k < sizeof plants / sizeof plants[0]; k++) {
        char *dir = kernel_dir_with(plants[k].from, plants[k].to);
        for (int K = K0; K <= 4; K += 3) {
            if (plants[k].k1_only && K > 1)
                continue; /* at K > 1 copy validates the whole launch: nothing new */
            bench_plan *p = plan_unrolled(&d, specs, plants[k].n, plants[k].access, K, 1 << 20);
            bench_result *res = run_with(&d, p, dir);
            for (size_t i = 0; i < p->n; i++) {
                if (!p->items[i].scalar_form)
                    continue; /* the reference, seq: plain only */
                cr_expect_eq(p->items[i].alt_form, BENCH_FORM_WARP, "%s", p->items[i].spec);
                expect_caught(&res[i], k, K, p->items[i].spec);
                cr_expect(res[i].failure && strstr(res[i].failure, "the warp form: "), "plant %zu, %s: %s", k,
                          p->items[i].spec, res[i].failure ? res[i].failure : "");
            }
            bench_results_free(res, p->n);
            bench_plan_free(p);
        }
        tu_rmdir(dir);
        free(dir);
    }
    /* an address the warp form records wrong, at lane 3 */
    char *dir = kernel_dir_with("trace[g] = a;", "trace[g] = a\n#ifdef BW_WARP\n + (t == 3 ? BW_E : 0)\n#endif\n;");
    bench_plan *p = plan_unrolled(&d, specs, 3, BENCH_ACCESS_COPY, 2, 1 << 20);
    bench_kernels *kd = kernels(dir);
    bw_error err = BW_ERROR_INIT;
    cr_expect_neq(bench_trace_check(d.ctx, p, kd, &err), BW_OK, "the planted trace passed");
    cr_expect(strstr(bw_error_text(&err), "the warp form: ") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    bench_kernels_free(kd);
    bench_plan_free(p);
    tu_rmdir(dir);
    free(dir);
    close_dev(&d);
}
