/* `bwlab run` end to end on devices this machine does not have: the fake
 * driver of tests/fake_icd in proxy mode runs each recorded scenario's
 * kernels on PoCL and fails only what the scenario says:
 * rusticl-no-profiling.json refuses CL_QUEUE_PROFILING_ENABLE (-35),
 * intel-igpu-unified.json reports CL_DEVICE_HOST_UNIFIED_MEMORY, and
 * fails-at-1024.json fails every launch of 1024 work-items per group with
 * CL_OUT_OF_RESOURCES (-5), and fails-alloc-above-12m.json fails every
 * write to a buffer of more than 12 MiB with
 * CL_MEM_OBJECT_ALLOCATION_FAILURE (-4), and cpu-reports-128m-cache.json
 * reports a 128 MiB cache. Every expectation comes from the
 * tables (or the device's own answers), not from bwlab's output. Without
 * PoCL installed the tests skip. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bwlab_config.h"
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

static json_t *first_run(json_t *doc)
{
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_assert(json_is_object(run), "no run");
    return run;
}

#define RUN_SEQ_AT(size, ...)                                                                               \
    (const char *[])                                                                                        \
    {                                                                                                       \
        "run", "--device", "0", "--pattern", "seq", "--size", size, "--budget", "0.3", "--no-roofline",   \
            __VA_ARGS__, NULL                                                                               \
    }
#define RUN_SEQ(...) RUN_SEQ_AT("8M", __VA_ARGS__)

/* No profiling queue: the run still measures, by the host clock, and says
 * so; a wall-timed launch includes the launch overhead, so its bandwidth
 * cannot exceed the requested bytes over that overhead. */
Test(cli_fake_run, a_queue_without_profiling_is_timed_by_the_wall_clock, .timeout = 300)
{
    fake f;
    fake_open(&f, "rusticl-no-profiling.json");
    /* A wall-timed launch must last 10x the measured launch overhead, which
     * was 84 us on one CI guest: 8M (16 MB copied, 0.6 ms) fell under that
     * floor, so this test moves 64 MB (milliseconds on any CPU). */
    tu_result r = run_fake(&f, RUN_SEQ_AT("32M", "--format", "json"));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    json_t *doc = json_of(&r);
    json_t *res = first_result(doc);
    cr_expect_str_eq(str(res, "status"), "ok");
    cr_expect_str_eq(str(res, "timer"), "wall");
    json_t *timing = json_object_get(first_run(doc), "timing");
    cr_expect_str_eq(str(timing, "timer"), "wall", "runs[].timing says the run's timer too");
    cr_expect_gt(num(timing, "launch_overhead_ns"), 0);
    double tick = num(res, "timer_resolution_ns"), overhead = num(res, "launch_overhead_ns");
    cr_expect(tick > 0 && tick < 1e6, "a monotonic clock ticks in under 1 ms: %g ns", tick);
    cr_expect_gt(overhead, 0, "an empty launch takes time");
    /* seq copy: each work-item loads and stores elem_bytes */
    double bytes = 2.0 * num(res, "items") * num(res, "elem_bytes");
    cr_expect_leq(num(res, "effective_gbs"), bytes / overhead, "GB/s %g above bytes / overhead %g",
                  num(res, "effective_gbs"), bytes / overhead);
    json_decref(doc);
    tu_result_free(&r);
    r = run_fake(&f, RUN_SEQ_AT("32M", "--format", "table"));
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
    json_t *timing = json_object_get(first_run(doc), "timing");
    cr_expect_str_eq(str(timing, "timer"), "event");
    cr_expect(json_is_null(json_object_get(timing, "launch_overhead_ns")));
    json_decref(doc);
    tu_result_free(&r);
    fake_close(&f);
}

/* The bytes-in-flight ladder of tools/device-check.sh, for correctness
 * only (the kernels run on PoCL behind the tables): on the H100's and the
 * MI300X's geometry (W = 32 and 64), seq, seq:elem=8 and seq:elem=16 in
 * read and copy mode validate at --unroll 1, 2, 4 and 8, each row at K. */
Test(cli_fake_run, the_unroll_ladder_runs_on_gpu_tables, .timeout = 300)
{
    static const char *const tables[] = { "nvidia-h100.json", "amd-mi300x.json" };
    for (size_t t = 0; t < 2; t++) {
        fake f;
        fake_open(&f, tables[t]);
        /* the recorded table, its device turned to proxy mode: the GPU's
         * answers, PoCL's kernels */
        char path[4000];
        snprintf(path, sizeof path, "%s/tests/data/devices/%s", tu_source_root(), tables[t]);
        json_error_t je;
        json_t *tab = json_load_file(path, 0, &je);
        cr_assert(tab, "%s: %s", path, je.text);
        json_t *dev = json_array_get(json_object_get(json_array_get(json_object_get(tab, "platforms"), 0), "devices"), 0);
        cr_assert(json_is_object(dev), "%s has no device", tables[t]);
        json_object_set_new(dev, "proxy", json_string("pocl"));
        snprintf(path, sizeof path, "%s/proxy-%s", f.dir, tables[t]);
        cr_assert_eq(json_dump_file(tab, path, 0), 0);
        json_decref(tab);
        snprintf(f.table, sizeof f.table, "BWLAB_FAKE_ICD_TABLE=%s", path);
        /* 64M: a read launch stays above the 100 us floor that the
         * tables' 1 us timer sets, even at 300 GB/s (a fast CPU's cache) */
        for (int k = 1; k <= 8; k *= 2) {
            char K[8];
            snprintf(K, sizeof K, "%d", k);
            tu_result r = run_fake(&f, (const char *[]){ "run", "--pattern", "seq,seq:elem=8,seq:elem=16", "--access",
                                                         "both", "--unroll", K, "--size", "64M", "--budget", "0.3",
                                                         "--no-roofline", "--format", "json", NULL });
            cr_assert_eq(r.status, 0, "%s, K %d: exit %d: %s", tables[t], k, r.status, r.err);
            json_t *doc = json_of(&r);
            json_t *rs = json_object_get(doc, "results");
            cr_expect_eq(json_array_size(rs), 6, "%s", tables[t]);
            size_t i;
            json_t *x;
            json_array_foreach(rs, i, x) {
                cr_expect_str_eq(str(x, "status"), "ok", "%s, K %d", tables[t], k);
                cr_expect_eq(json_integer_value(json_object_get(x, "unroll")), k, "%s", tables[t]);
            }
            json_decref(doc);
            tu_result_free(&r);
        }
        fake_close(&f);
    }
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

/* --transfers on a queue without profiling: the launch latency is the
 * host clock's enqueue-to-clFinish, labelled wall; queued to start has no
 * event to come from and is null with the reason, never 0. With
 * profiling (the unified table) both come from events. */
Test(cli_fake_run, launch_latency_without_profiling_is_the_host_clock, .timeout = 300)
{
    static const struct {
        const char *table;
        int wall;
    } cases[] = { { "rusticl-no-profiling.json", 1 }, { "intel-igpu-unified.json", 0 } };
    for (size_t c = 0; c < 2; c++) {
        fake f;
        fake_open(&f, cases[c].table);
        /* 32M, as in the wall-clock test above: a wall-timed launch must
         * last 10x the launch overhead, which a loaded host measured at
         * 146 us, above what 8M's copy took (1.1 ms) */
        tu_result r = run_fake(&f, RUN_SEQ_AT("32M", "--transfers", "--format", "json"));
        cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
        json_t *doc = json_of(&r);
        json_t *run = first_run(doc);
        json_t *l = json_object_get(run, "launch");
        cr_assert(json_is_object(l), "%s", r.out);
        cr_expect_str_eq(str(l, "timer"), cases[c].wall ? "wall" : "event", "%s", cases[c].table);
        double wall = num(l, "wall_us");
        cr_expect_gt(wall, 0);
        cr_expect_gt(num(l, "queued_to_end_us"), 0, "%s: never 0", cases[c].table);
        if (cases[c].wall) {
            cr_expect_eq(num(l, "queued_to_end_us"), wall, "the host clock's enqueue to clFinish is the wall time");
            cr_expect(json_is_null(json_object_get(l, "queued_to_start_us")), "no events: not 0 but null");
            cr_expect(strstr(str(l, "note"), "CL_QUEUE_PROFILING_ENABLE"), "%s", str(l, "note"));
        } else {
            cr_expect(json_is_number(json_object_get(l, "queued_to_start_us")));
            cr_expect(json_is_null(json_object_get(l, "note")));
        }
        json_decref(doc);
        tu_result_free(&r);
        if (cases[c].wall) {
            r = run_fake(&f, RUN_SEQ_AT("32M", "--transfers", "--format", "table"));
            cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
            cr_expect(strstr(r.out, "host clock enqueue to clFinish; events: none"), "%s", r.out);
            tu_result_free(&r);
        }
        fake_close(&f);
    }
}

/* The fastest copy of `bytes` in one direction among transfers[], in us. */
static double fastest_copy_us(json_t *transfers, const char *dir, double bytes)
{
    double best = 0;
    size_t i;
    json_t *t;
    json_array_foreach(transfers, i, t) {
        if (strcmp(str(t, "direction"), dir) != 0 || num(t, "bytes") != bytes)
            continue;
        double us = num(t, "us");
        if (us > 0 && (best == 0 || us < best))
            best = us;
    }
    return best;
}

/* The maps of one run (runs[0] of `bwlab run --transfers`): each direction's
 * verdict worked out again from the rows' own times and the copies beside
 * them (docs/results.md: flat, at most 4x from the smallest to the largest
 * size, or the largest map at most 1/8 of its fastest copy; and on a
 * unified-memory device the same mapped address throughout), and a
 * zero-copy row never a bandwidth. Returns how many directions were
 * zero-copy. */
static int check_maps(json_t *run, int unified)
{
    json_t *maps = json_object_get(run, "maps"), *transfers = json_object_get(run, "transfers");
    cr_assert(json_is_array(maps) && json_array_size(maps) > 0, "no maps");
    int zero = 0;
    static const char *const dirs[] = { "h2d", "d2h" };
    for (int d = 0; d < 2; d++) {
        json_t *lo = NULL, *hi = NULL;
        size_t i, rows = 0;
        json_t *m;
        int same = 1, zc = -1;
        json_array_foreach(maps, i, m) {
            if (strcmp(str(m, "direction"), dirs[d]) != 0)
                continue;
            rows++;
            cr_expect_str_eq(str(m, "memory"), "alloc_host_ptr");
            cr_expect(fastest_copy_us(transfers, dirs[d], num(m, "bytes")) > 0, "a map at a size no copy was made");
            if (!lo || num(m, "bytes") < num(lo, "bytes"))
                lo = m;
            if (!hi || num(m, "bytes") > num(hi, "bytes"))
                hi = m;
            same &= json_is_true(json_object_get(m, "same_pointer"));
            int z = json_is_true(json_object_get(m, "zero_copy"));
            cr_expect(zc < 0 || z == zc, "one verdict per direction");
            zc = z;
            if (z) {
                cr_expect(json_is_null(json_object_get(m, "gbs")), "a zero-copy map is no bandwidth: %s",
                          json_dumps(m, 0));
                cr_expect(strstr(str(m, "note"), "zero-copy"), "%s", str(m, "note"));
            }
        }
        cr_assert_gt(rows, 0, "no %s maps", dirs[d]);
        int flat = num(hi, "bytes") >= 64 * num(lo, "bytes") && num(hi, "us") <= 4 * num(lo, "us");
        double copy = fastest_copy_us(transfers, dirs[d], num(hi, "bytes"));
        int cheap = copy > 0 && num(hi, "us") * 8 <= copy;
        cr_expect_eq(zc, (flat || cheap) && (!unified || same), "%s: flat %d cheap %d same %d", dirs[d], flat, cheap,
                     same);
        zero += zc;
    }
    return zero;
}

/* The integrated GPU of the table (CL_DEVICE_HOST_UNIFIED_MEMORY true)
 * is PoCL's CPU device, whose buffers are host memory: its maps copy
 * nothing, and both directions are zero-copy, with no bandwidth. */
Test(cli_fake_run, maps_on_unified_memory_are_zero_copy, .timeout = 300)
{
    fake f;
    fake_open(&f, "intel-igpu-unified.json");
    tu_result r = run_fake(&f, RUN_SEQ("--transfers", "--format", "json"));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    json_t *doc = json_of(&r);
    cr_expect_eq(check_maps(first_run(doc), 1), 2, "both directions zero-copy: %s",
                 json_dumps(json_object_get(first_run(doc), "maps"), 0));
    json_decref(doc);
    tu_result_free(&r);
    r = run_fake(&f, RUN_SEQ("--transfers", "--format", "table"));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.out, "maps of a CL_MEM_ALLOC_HOST_PTR buffer"), "%s", r.out);
    cr_expect(strstr(r.out, "zero-copy, no bandwidth"), "%s", r.out);
    tu_result_free(&r);
    fake_close(&f);
}

/* PoCL itself, without the fake driver: its CPU device answers
 * CL_DEVICE_HOST_UNIFIED_MEMORY, and where it says true its maps are the
 * buffer's own memory: zero-copy. */
Test(cli_fake_run, maps_on_pocl_follow_its_unified_memory, .timeout = 300)
{
    if (access(POCL_ICD, R_OK) != 0)
        cr_skip("%s is not here: the test runs on PoCL", POCL_ICD);
    char *dir = tu_temp_dir();
    FILE *in = fopen(POCL_ICD, "r");
    char line[4096] = "";
    cr_assert(in && fgets(line, sizeof line, in), "%s cannot be read", POCL_ICD);
    fclose(in);
    tu_write_file(dir, "pocl.icd", line);
    char vendors[4200];
    snprintf(vendors, sizeof vendors, "OCL_ICD_VENDORS=%s", dir);
    const char *env[] = { vendors, NULL };
    tu_result r = tu_exec((const char *[]){ "devices", "--format", "json", NULL }, env);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    json_t *doc = json_of(&r);
    json_t *d = json_array_get(json_object_get(doc, "devices"), 0);
    int unified = json_is_true(json_object_get(d, "host_unified_memory"));
    json_decref(doc);
    tu_result_free(&r);
    if (!unified) {
        tu_rmdir(dir);
        free(dir);
        cr_skip("this PoCL does not report CL_DEVICE_HOST_UNIFIED_MEMORY: no zero-copy expected");
    }
    r = tu_exec(RUN_SEQ("--transfers", "--format", "json"), env);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    doc = json_of(&r);
    cr_expect_eq(check_maps(first_run(doc), 1), 2, "both directions zero-copy: %s",
                 json_dumps(json_object_get(first_run(doc), "maps"), 0));
    json_decref(doc);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* Writes to buffers of more than 12 MiB fail with -4 (the table): a
 * 16 MiB working set (src and dst of 16 MiB for seq) is planned and run
 * again at 8 MiB, half of it, and the run says so; 8 MiB needs no retry. */
Test(cli_fake_run, buffers_that_fail_are_retried_at_half_the_working_set, .timeout = 300)
{
    fake f;
    fake_open(&f, "fails-alloc-above-12m.json");
    tu_result r = run_fake(&f,
                           (const char *[]){ "run", "--device", "0", "--pattern", "seq", "--size", "16M", "--budget",
                                             "0.3", "--no-roofline", "--format", "json", NULL });
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    json_t *doc = json_of(&r);
    json_t *run = first_run(doc);
    cr_expect_eq(num(run, "working_set_target_bytes"), 8 << 20);
    json_t *b = json_object_get(run, "buffers");
    cr_expect_leq(num(b, "src_bytes"), 12582912);
    cr_expect_leq(num(b, "dst_bytes"), 12582912);
    const char *why = str(run, "retry");
    cr_expect(strstr(why, "16.00 MiB") && strstr(why, "8.00 MiB") && strstr(why, "CL_MEM_OBJECT_ALLOCATION_FAILURE"),
              "%s", why);
    cr_expect_str_eq(str(first_result(doc), "status"), "ok");
    json_decref(doc);
    tu_result_free(&r);
    r = run_fake(&f, (const char *[]){ "run", "--device", "0", "--pattern", "seq", "--size", "16M", "--budget", "0.3",
                                       "--no-roofline", NULL });
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.out, "retried: buffers: working set 16.00 MiB failed"), "%s", r.out);
    tu_result_free(&r);
    r = run_fake(&f, RUN_SEQ("--format", "json"));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    doc = json_of(&r);
    run = first_run(doc);
    cr_expect_eq(num(run, "working_set_target_bytes"), 8 << 20);
    cr_expect(json_is_null(json_object_get(run, "retry")));
    json_decref(doc);
    tu_result_free(&r);
    fake_close(&f);
}

/* A budget that cannot hold the auto working set fits it, and says so:
 * the device reports a 128 MiB cache, so auto is 4 x that, 512 MiB; a
 * calibration made to read 10 MB/s (the fit_rate hook) makes every size
 * too long for a 5 s budget, even at its floor, 256 MiB, which is planned
 * first and kept, with both buffers within twice that; their fill,
 * made 100 GB/s (fit_fill), is within a quarter of the time, so it stops
 * there. With the fill made 1 MB/s, even a few MiB would take a quarter
 * of it: it steps on below the floor, 181, 127, 89, 62, 43, to the
 * fit's minimum, 32 MiB, and says the cache may serve part of it. --size
 * is the user's: never fitted, at any rate. */
Test(cli_fake_run, a_budget_fits_the_auto_working_set, .timeout = 300)
{
#ifndef BWLAB_FAULT_HOOKS
    cr_skip("built without fault hooks (a release build, or -Dfault_hooks=disabled): the calibration's rate is "
            "this machine's");
#endif
    fake f;
    fake_open(&f, "cpu-reports-128m-cache.json");
    const char *argv[] = { "run", "--device", "0", "--pattern", "seq,stride:s=2", "--budget", "5", "--no-roofline",
                           "--format", "json", NULL };
    tu_result r = tu_exec(argv, (const char *[]){ f.vendors, f.table, "BWLAB_TEST_FAULTS=fit_rate@10;fit_fill@1",
                                                  NULL });
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    json_t *doc = json_of(&r);
    json_t *run = first_run(doc);
    cr_expect_eq(num(run, "working_set_target_bytes"), 32 << 20);
    cr_expect(strstr(str(run, "working_set_fit_note"), "below 256 MiB, since the buffers' fill alone would take "
                                                         "most of so short a budget") != NULL,
              "%s", str(run, "working_set_fit_note"));
    json_decref(doc);
    tu_result_free(&r);

    r = tu_exec(argv, (const char *[]){ f.vendors, f.table, "BWLAB_TEST_FAULTS=fit_rate@10;fit_fill@100000", NULL });
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    doc = json_of(&r);
    run = first_run(doc);
    cr_expect_eq(num(run, "working_set_cache_bytes"), 128 << 20);
    cr_expect_str_eq(str(run, "working_set_source"), "budget");
    cr_expect_eq(num(run, "working_set_auto_bytes"), 512 << 20);
    cr_expect_eq(num(run, "working_set_target_bytes"), 256 << 20);
    json_t *b = json_object_get(run, "buffers");
    cr_expect_leq(num(b, "src_bytes"), 512 << 20);
    cr_expect_leq(num(b, "dst_bytes"), 512 << 20);
    const char *note = str(run, "working_set_fit_note");
    cr_expect(strstr(note, "working set 256.00 MiB per pattern, fitted to the 5 s budget: at 512.00 MiB (4 x the "
                           "128.00 MiB cache)") != NULL, "%s", note);
    cr_expect(strstr(r.err, note) != NULL, "the note is said on stderr too: %s", r.err);
    /* measured at the fitted size, or (a slow machine, sanitizers) left out by the plan: never failed */
    json_t *res = json_object_get(doc, "results");
    for (size_t i = 0; i < json_array_size(res); i++)
        cr_expect_str_neq(str(json_array_get(res, i), "status"), "failed");
    json_decref(doc);
    tu_result_free(&r);
    /* a signal as the calibration begins: the run stops there, writes
     * every pattern as not run, and exits 128 + the signal */
    r = tu_exec(argv, (const char *[]){ f.vendors, f.table, "BWLAB_TEST_FAULTS=fit_rate@10;signal=calibrating@15",
                                        NULL });
    cr_expect_eq(r.status, 143, "exit %d: %s", r.status, r.err);
    doc = json_of(&r);
    cr_expect(json_is_true(json_object_get(doc, "interrupted")));
    res = json_object_get(doc, "results");
    cr_expect_eq(json_array_size(res), 2);
    for (size_t i = 0; i < json_array_size(res); i++)
        cr_expect_str_eq(str(json_array_get(res, i), "status"), "not-run");
    json_decref(doc);
    tu_result_free(&r);
    /* --size is the user's: never fitted, whatever the rate */
    const char *sized[] = { "run", "--device", "0", "--pattern", "seq", "--size", "64M", "--budget", "5",
                            "--no-roofline", "--format", "json", NULL };
    r = tu_exec(sized, (const char *[]){ f.vendors, f.table, "BWLAB_TEST_FAULTS=fit_rate@10", NULL });
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    doc = json_of(&r);
    run = first_run(doc);
    cr_expect_str_eq(str(run, "working_set_source"), "--size");
    cr_expect(json_is_null(json_object_get(run, "working_set_auto_bytes")));
    cr_expect(json_is_null(json_object_get(run, "working_set_fit_note")));
    json_decref(doc);
    tu_result_free(&r);
    fake_close(&f);
}

/* --size 32M with an --expr 1 KiB apart: one 64-byte sector a work-item
 * (PoCL's), 512 Ki of them, so src spans 512 MiB against seq's 32 MiB, and
 * both buffers hold 544 MiB. With the fill made 26 MB/s (fit_fill), those
 * would take 22 s, more than the 16 s budget holds (at most 0.8 x 16 s);
 * seq's own 64 MiB, 2.6 s, fits: the expression is left out before the
 * buffers are made, named, and the buffers are seq's. At 1 MB/s even
 * seq's 64 MiB (67 s) breaks the bound: refused, exit 2, before any
 * buffer, every pattern in the results with the reason. The budget leaves
 * seq's fill plus the real start-up and kernel builds 17 s before the
 * bound (10% + 2 s): at 8 s a sanitizer build on a loaded 2-vCPU host,
 * 5 s in before the fit, was refused. */
Test(cli_fake_run, a_budget_leaves_out_what_it_cannot_fill_at_the_users_size, .timeout = 300)
{
#ifndef BWLAB_FAULT_HOOKS
    cr_skip("built without fault hooks (a release build, or -Dfault_hooks=disabled): the fill rate is this "
            "machine's");
#endif
    fake f;
    fake_open(&f, "cpu-reports-128m-cache.json");
    const char *argv[] = { "run", "--device", "0", "--pattern", "seq", "--expr", "g*1024", "--size", "32M",
                           "--budget", "16", "--no-roofline", "--format", "json", NULL };
    tu_result r = tu_exec(argv, (const char *[]){ f.vendors, f.table, "BWLAB_TEST_FAULTS=fit_rate@100000;fit_fill@26",
                                                  NULL });
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    json_t *doc = json_of(&r);
    json_t *run = first_run(doc);
    cr_expect_eq(num(run, "working_set_target_bytes"), 32 << 20);
    json_t *b = json_object_get(run, "buffers");
    cr_expect_eq(num(b, "src_bytes"), 32 << 20);
    cr_expect_eq(num(b, "dst_bytes"), 32 << 20);
    const char *note = str(run, "plan_note");
    cr_expect(strstr(note, "left out before the buffers are made, widest first: expr:g * 1024; at --size 32.00 MiB")
                  != NULL, "%s", note);
    cr_expect(strstr(r.err, note) != NULL, "the note is said on stderr before measuring: %s", r.err);
    json_t *res = json_object_get(doc, "results");
    cr_assert_eq(json_array_size(res), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *x = json_array_get(res, i);
        if (!strcmp(str(x, "pattern"), "seq")) {
            cr_expect_str_neq(str(x, "status"), "not-run", "seq is measured");
            continue;
        }
        cr_expect_str_eq(str(x, "status"), "not-run");
        cr_expect(strstr(str(x, "budget_note"), "left out before measuring: at --size 32.00 MiB its buffers (src "
                                                "512.00 MiB") != NULL, "%s", str(x, "budget_note"));
        cr_expect_str_eq(str(x, "budget_note"), str(x, "status_reason"));
    }
    json_t *lo = json_object_get(json_object_get(run, "timing"), "left_out");
    cr_expect_eq(json_array_size(lo), 1);
    json_decref(doc);
    tu_result_free(&r);

    r = tu_exec(argv, (const char *[]){ f.vendors, f.table, "BWLAB_TEST_FAULTS=fit_rate@100000;fit_fill@1", NULL });
    cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "--size 32.00 MiB: the buffers of the patterns the others are read against (src 32.00 "
                            "MiB, dst 32.00 MiB) would take about") != NULL, "%s", r.err);
    cr_expect(strstr(r.err, "use a --budget of at least") != NULL, "%s", r.err);
    doc = json_of(&r);
    res = json_object_get(doc, "results");
    cr_expect_eq(json_array_size(res), 2);
    for (size_t i = 0; i < json_array_size(res); i++)
        cr_expect(strstr(str(json_array_get(res, i), "validation"), "--size 32.00 MiB") != NULL, "%s",
                  str(json_array_get(res, i), "validation")); /* a failed pattern's reason */
    json_decref(doc);
    tu_result_free(&r);
    fake_close(&f);
}

/* A driver whose device and platform names hold ESC, BEL, CR and LF:
 * every command that shows them (devices, run, tune, roofline; tables,
 * CSV and JSON; probe shows them through the same device record, and on a
 * GPU table its ladder takes minutes on a CPU) writes them \xNN, never
 * raw, on standard output and standard error alike. */
Test(cli_fake_run, a_drivers_control_bytes_never_reach_the_terminal_raw, .timeout = 300)
{
    fake f;
    fake_open(&f, "nvidia-h100.json");
    char path[4000];
    snprintf(path, sizeof path, "%s/tests/data/devices/nvidia-h100.json", tu_source_root());
    json_t *tab = json_load_file(path, 0, NULL);
    cr_assert_not_null(tab);
    json_t *plat = json_array_get(json_object_get(tab, "platforms"), 0);
    json_t *dev = json_array_get(json_object_get(plat, "devices"), 0);
    json_object_set_new(dev, "CL_DEVICE_NAME", json_string("NVIDIA \x1b[2J\aH100\r\nX"));
    json_object_set_new(dev, "proxy", json_string("pocl"));
    json_object_set_new(plat, "CL_PLATFORM_NAME", json_string("NV\x1b]0;t\a CUDA"));
    snprintf(path, sizeof path, "%s/esc.json", f.dir);
    cr_assert_eq(json_dump_file(tab, path, 0), 0);
    json_decref(tab);
    snprintf(f.table, sizeof f.table, "BWLAB_FAKE_ICD_TABLE=%s", path);
    char cache[4300];
    snprintf(cache, sizeof cache, "BWLAB_CACHE_DIR=%s/cache", f.dir);
    static const char *const cmds[][12] = {
        { "devices", NULL },
        { "devices", "--format", "json", NULL },
        { "run", "--device", "0", "--pattern", "seq", "--size", "64M", "--budget", "0.5", "--no-roofline", NULL },
        { "run", "--device", "0", "--pattern", "seq", "--size", "64M", "--budget", "0.5", "--no-roofline", "--format",
          "csv" },
        { "tune", "--device", "0", "--size", "8M", "--budget", "1", NULL },
        { "roofline", "--device", "0", "--budget", "1", NULL },
    };
    for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++) {
        const char *argv[14];
        size_t n = 0;
        for (; n < 12 && cmds[c][n]; n++)
            argv[n] = cmds[c][n];
        argv[n] = NULL;
        tu_result r = tu_exec(argv, (const char *[]){ f.vendors, f.table, cache, NULL });
        cr_expect(r.status == 0 || r.status == 1, "%s: exit %d: %s", cmds[c][0], r.status, r.err);
        cr_expect(strpbrk(r.out, "\x1b\a\r") == NULL, "%s (command %zu): raw control byte on stdout", cmds[c][0], c);
        cr_expect(strpbrk(r.err, "\x1b\a\r") == NULL, "%s (command %zu): raw control byte on stderr", cmds[c][0], c);
        cr_expect(strstr(r.out, "\\x1b[2J\\x07H100\\x0d\\x0aX") != NULL || strstr(r.out, "\\\\x1b[2J") != NULL,
                  "%s (command %zu) does not show the name \\xNN: %s", cmds[c][0], c, r.out);
        tu_result_free(&r);
    }
    fake_close(&f);
}
