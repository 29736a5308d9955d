/* docs/design.md's "Adding a family", shown: a toy pattern family that the
 * gather kernel runs is added through the model's catalogue alone
 * (model_pattern_family_add), and from then on it is parsed and modeled,
 * listed by `bwlab patterns`, planned with its reference, and written in
 * the run's table and JSON document like any built-in family, with no
 * other code knowing its name. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_run_priv.h"
#include "bench_family.h"
#include "bench_plan_priv.h"
#include "model_expr.h"
#include "model_lanes.h"
#include "model_pattern.h"
#include "model_warp.h"
#include "report_patterns.h"
#include "bench_run.h"
#include "report_results.h"
#include "model_pattern_priv.h"

/* lane t of every warp reads element g ^ k: lanes swap places in blocks */
static bw_code build_toy(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)err;
    bw_buf_printf(x, "%lld*(g ^ %lld)", (long long)p->elem, (long long)p->params[0]);
    return BW_OK;
}

static void explain_toy(const model_pattern_facts *f, bw_buf *out)
{
    (void)f;
    bw_buf_puts(out, "lanes read their neighbour's element: the warp touches seq's sectors.");
}

static const model_pattern_family toy = {
    .name = "toy",
    .shows = "a test's own family: lanes swap places, as a permutation within the warp",
    .nparams = 1,
    .params = { { "k", 1, 1, 16, "lane t reads element g ^ k", NULL } },
    .space = MODEL_PATTERN_SPACE_GLOBAL,
    .kernel = MODEL_PATTERN_KERNEL_GATHER,
    .build = build_toy,
    .explain = explain_toy,
};

static void add_toy(void)
{
    bw_error err = BW_ERROR_INIT;
    if (!model_pattern_family_find("toy"))
        cr_assert_eq(model_pattern_family_add(&toy, &err), BW_OK, "%s", bw_error_text(&err));
}

Test(toy_family, is_parsed_and_modeled_from_its_entry)
{
    add_toy();
    model_pattern *p = NULL;
    cr_assert_eq(model_pattern_parse("toy:k=1", 32, 0, &p, NULL), BW_OK);
    cr_expect_str_eq(p->family->name, "toy");
    /* lanes 0..31 of warp 0 read elements 1,0,3,2,...: byte addresses
     * 0..127 in all, four 32-byte sectors and one 128-byte line, as seq */
    int64_t a[32];
    for (int t = 0; t < 32; t++) {
        model_expr_env env = { t, 0, t, 32 };
        cr_assert_eq(model_expr_eval(p->expr, &env, &a[t], NULL), BW_OK);
    }
    cr_expect_eq(a[0], 4);
    cr_expect_eq(a[1], 0);
    cr_expect_eq(a[31], 120);
    const model_geometry g = { 32, 32, 128, 32, 4, 0 };
    model_warp w;
    cr_assert_eq(model_warp_count(&g, p->elem, a, &p->active, &w, NULL), BW_OK);
    cr_expect_eq(w.sectors, 4);
    cr_expect_eq(w.lines, 1);
    cr_expect_float_eq(w.sector_efficiency, 1.0, 1e-12);
    model_pattern_free(p);
    /* its parameter's range is the entry's */
    cr_expect_eq(model_pattern_parse("toy:k=17", 32, 0, &p, NULL), BW_E_RANGE);
    /* a second family of the same name is refused */
    cr_expect_eq(model_pattern_family_add(&toy, NULL), BW_E_USAGE);
}

Test(toy_family, is_listed_planned_and_reported)
{
    add_toy();
    bw_buf list = BW_BUF_INIT;
    cr_assert_eq(report_patterns_table(32, &list, NULL), BW_OK);
    cr_expect(strstr(bw_buf_str(&list), "toy"), "bwlab patterns lists it");
    cr_expect(strstr(bw_buf_str(&list), "lanes swap places"));
    bw_buf_free(&list);

    static const char *const specs[] = { "toy:k=2" };
    bench_limits l;
    memset(&l, 0, sizeof l);
    l.max_alloc_bytes = 1ull << 30;
    l.global_mem_bytes = 4ull << 30;
    l.max_work_group = 1024;
    l.address_bits = 64;
    bench_plan_opts o = { .specs = specs, .nspecs = 1, .size = 4u << 20 };
    const model_geometry geo = { 32, 32, 128, 32, 4, 0 };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    /* the toy and the seq the plan adds as its reference */
    cr_assert_eq(p->n, 2);
    cr_expect_str_eq(p->items[0].family, "toy");
    cr_expect_str_eq(p->items[0].fam->kernel, MODEL_PATTERN_KERNEL_GATHER);
    cr_expect_str_eq(p->items[1].spec, "seq");

    bench_result res[2];
    memset(res, 0, sizeof res);
    for (size_t i = 0; i < 2; i++) {
        res[i].status = BENCH_OK;
        res[i].validated = 1;
        res[i].effective_gbs = 100.0;
        res[i].relative_to_reference = 1.0;
        res[i].reference = 1;
        res[i].twin_ratio = res[i].spread = res[i].relative_spread = NAN;
        res[i].event.median = res[i].event.min = res[i].event.mean = 1000.0;
        res[i].event.count = 5;
    }
    bench_device d;
    memset(&d, 0, sizeof d);
    d.platform_name = d.platform_vendor = d.platform_version = d.name = d.vendor = "x";
    d.driver_version = d.device_version = d.opencl_c_version = d.extensions = "x";
    d.local_mem_type = "local";
    d.type_name = "gpu";
    d.profile_name = "nvidia";
    d.profile_why = "test";
    d.geo = p->geo;
    d.host_unified_memory = -1;
    bench_run_info info;
    memset(&info, 0, sizeof info);
    info.seq_item = info.relative_item = -1;
    bench_settings s = bench_settings_default();
    bench_run_doc run = { .device = &d, .is_default = 1, .plan = p, .results = res, .info = &info };
    char *argv[] = { "bwlab", NULL };
    bench_run_meta m = { "2026-01-01T00:00:00Z", "host", "os", 1, argv, &s, NULL, 0 };
    bw_buf b = BW_BUF_INIT;
    cr_assert_eq(bench_run_json(&m, &run, 1, &b, &err), BW_OK, "%s", bw_error_text(&err));
    json_t *doc = json_loads(bw_buf_str(&b), 0, NULL);
    cr_assert(doc);
    json_t *r0 = json_array_get(json_object_get(doc, "results"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(r0, "pattern")), "toy:k=2");
    cr_expect_str_eq(json_string_value(json_object_get(r0, "family")), "toy");
    cr_expect_str_eq(json_string_value(json_object_get(r0, "space")), "global");
    cr_expect_str_eq(json_string_value(json_object_get(r0, "expression")), "4 * (g ^ 2)");
    cr_expect_str_eq(json_string_value(json_object_get(r0, "explain")),
                     "lanes read their neighbour's element: the warp touches seq's sectors.");
    json_decref(doc);
    bw_buf t = BW_BUF_INIT;
    report_results_table(&m, &run, 1, &t);
    cr_expect(strstr(bw_buf_str(&t), "toy:k=2"), "%s", bw_buf_str(&t));
    bw_buf_free(&t);
    bw_buf_free(&b);
    bench_plan_free(p);
}
