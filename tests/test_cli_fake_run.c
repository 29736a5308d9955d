/* `bwlab run` end to end on devices this machine does not have: the fake
 * driver of tests/fake_icd in proxy mode runs each recorded scenario's
 * kernels on PoCL and fails only what the scenario says (issue 15):
 * rusticl-no-profiling.json refuses CL_QUEUE_PROFILING_ENABLE (-35),
 * intel-igpu-unified.json reports CL_DEVICE_HOST_UNIFIED_MEMORY, and
 * fails-at-1024.json fails every launch of 1024 work-items per group with
 * CL_OUT_OF_RESOURCES (-5). Every expectation comes from the tables, not
 * from bwlab's output. Without PoCL installed the tests skip. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#define POCL_ICD "/etc/OpenCL/vendors/pocl.icd"

typedef struct fake {
    char *dir;
    char vendors[4200];
    char table[4200];
} fake;

static void fake_open(fake *f, const char *table)
{
    if (access(POCL_ICD, R_OK) != 0)
        cr_skip("%s is not here: the fake driver's proxy mode runs kernels on PoCL", POCL_ICD);
    const char *icd = getenv("BWLAB_FAKE_ICD");
    cr_assert(icd && *icd, "BWLAB_FAKE_ICD is not set: run through meson test");
    f->dir = tu_temp_dir();
    char line[4200];
    snprintf(line, sizeof line, "%s\n", icd);
    tu_write_file(f->dir, "bwlab-fake.icd", line);
    snprintf(f->vendors, sizeof f->vendors, "OCL_ICD_VENDORS=%s", f->dir);
    snprintf(f->table, sizeof f->table, "BWLAB_FAKE_ICD_TABLE=%s/tests/data/devices/%s", tu_source_root(), table);
}

static void fake_close(fake *f)
{
    tu_rmdir(f->dir);
    free(f->dir);
}

static tu_result run_fake(const fake *f, const char *const *argv)
{
    return tu_exec(argv, (const char *[]){ f->vendors, f->table, NULL });
}

static json_t *json_of(const tu_result *r)
{
    json_error_t e;
    json_t *j = json_loads(r->out, 0, &e);
    cr_assert(j, "stdout is no JSON (%s): %s\nstderr: %s", e.text, r->out, r->err);
    return j;
}

static json_t *first_result(json_t *doc)
{
    json_t *res = json_array_get(json_object_get(doc, "results"), 0);
    cr_assert(json_is_object(res), "no result");
    return res;
}

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_string(v), "key %s missing or not a string", key);
    return json_string_value(v);
}

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_number(v), "key %s missing or not a number", key);
    return json_number_value(v);
}

#define RUN_SEQ(...)                                                                                        \
    (const char *[])                                                                                        \
    {                                                                                                       \
        "run", "--device", "0", "--pattern", "seq", "--size", "8M", "--budget", "0.3", "--no-roofline", \
            __VA_ARGS__, NULL                                                                               \
    }

/* No profiling queue: the run still measures, by the host clock, and says
 * so; a wall-timed launch includes the launch overhead, so its bandwidth
 * cannot exceed the requested bytes over that overhead. */
Test(cli_fake_run, a_queue_without_profiling_is_timed_by_the_wall_clock, .timeout = 300)
{
    fake f;
    fake_open(&f, "rusticl-no-profiling.json");
    tu_result r = run_fake(&f, RUN_SEQ("--format", "json"));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    json_t *doc = json_of(&r);
    json_t *res = first_result(doc);
    cr_expect_str_eq(str(res, "status"), "ok");
    cr_expect_str_eq(str(res, "timer"), "wall");
    double tick = num(res, "timer_resolution_ns"), overhead = num(res, "launch_overhead_ns");
    cr_expect(tick > 0 && tick < 1e6, "a monotonic clock ticks in under 1 ms: %g ns", tick);
    cr_expect_gt(overhead, 0, "an empty launch takes time");
    /* seq copy: each work-item loads and stores elem_bytes */
    double bytes = 2.0 * num(res, "items") * num(res, "elem_bytes");
    cr_expect_leq(num(res, "effective_gbs"), bytes / overhead, "GB/s %g above bytes / overhead %g",
                  num(res, "effective_gbs"), bytes / overhead);
    json_decref(doc);
    tu_result_free(&r);
    r = run_fake(&f, RUN_SEQ("--format", "table"));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.out, "host clock around clFinish"), "%s", r.out);
    cr_expect(strstr(r.out, "launch overhead"), "%s", r.out);
    tu_result_free(&r);
    fake_close(&f);
}

/* The same driver with profiling (the unified scenario does not refuse
 * it): event timing, no overhead figure. */
Test(cli_fake_run, a_profiling_queue_is_timed_by_events, .timeout = 300)
{
    fake f;
    fake_open(&f, "intel-igpu-unified.json");
    tu_result r = run_fake(&f, RUN_SEQ("--format", "json"));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    json_t *doc = json_of(&r);
    json_t *res = first_result(doc);
    cr_expect_str_eq(str(res, "timer"), "event");
    cr_expect(json_is_null(json_object_get(res, "launch_overhead_ns")));
    json_decref(doc);
    tu_result_free(&r);
    fake_close(&f);
}

/* CL_DEVICE_HOST_UNIFIED_MEMORY: true in intel-igpu-unified.json, false in
 * fails-at-1024.json; `devices` (both forms) and the results say which. */
Test(cli_fake_run, unified_memory_is_labelled, .timeout = 300)
{
    static const struct {
        const char *table;
        int unified;
    } cases[] = { { "intel-igpu-unified.json", 1 }, { "fails-at-1024.json", 0 } };
    for (size_t c = 0; c < 2; c++) {
        fake f;
        fake_open(&f, cases[c].table);
        tu_result r = run_fake(&f, (const char *[]){ "devices", "--format", "json", NULL });
        cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
        json_t *doc = json_of(&r);
        json_t *d = json_array_get(json_object_get(doc, "devices"), 0);
        cr_expect(json_is_boolean(json_object_get(d, "host_unified_memory")), "%s", r.out);
        cr_expect_eq(json_is_true(json_object_get(d, "host_unified_memory")), cases[c].unified, "%s", cases[c].table);
        json_decref(doc);
        tu_result_free(&r);
        r = run_fake(&f, (const char *[]){ "devices", NULL });
        cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
        cr_expect_eq(strstr(r.out, "unified with the host's") != NULL, cases[c].unified, "%s", r.out);
        tu_result_free(&r);
        r = run_fake(&f, RUN_SEQ("--format", "json"));
        cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
        doc = json_of(&r);
        cr_expect_eq(json_is_true(json_object_get(first_result(doc), "host_unified_memory")), cases[c].unified);
        json_decref(doc);
        tu_result_free(&r);
        fake_close(&f);
    }
}

/* A device that advertises 1024 work-items per group and fails them:
 * --local 1024 is retried once at 512, and the result says so; --local
 * 512 needs no retry. */
Test(cli_fake_run, a_launch_failing_at_1024_is_retried_at_512, .timeout = 300)
{
    fake f;
    fake_open(&f, "fails-at-1024.json");
    tu_result r = run_fake(&f, RUN_SEQ("--local", "1024", "--format", "json"));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    json_t *doc = json_of(&r);
    json_t *res = first_result(doc);
    cr_expect_str_eq(str(res, "status"), "ok");
    cr_expect_eq(num(res, "local_size"), 512);
    const char *why = str(res, "retry");
    cr_expect(strstr(why, "1024") && strstr(why, "512") && strstr(why, "CL_OUT_OF_RESOURCES"), "%s", why);
    json_decref(doc);
    tu_result_free(&r);
    r = run_fake(&f, RUN_SEQ("--local", "1024", "--format", "table"));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.out, "retried: seq: work-group 1024 failed (CL_OUT_OF_RESOURCES); ran at 512"), "%s", r.out);
    tu_result_free(&r);
    r = run_fake(&f, RUN_SEQ("--local", "512", "--format", "json"));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    doc = json_of(&r);
    res = first_result(doc);
    cr_expect_eq(num(res, "local_size"), 512);
    cr_expect(json_is_null(json_object_get(res, "retry")));
    json_decref(doc);
    tu_result_free(&r);
    fake_close(&f);
}
