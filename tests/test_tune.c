/* `bwlab tune` and its cache: the search returns one of its validated
 * candidates, the cache is keyed, read back and bypassed as documented, a
 * malformed cache is reported and kept, and `bwlab run` sets each pattern
 * against the cached peak. Every test has its own BWLAB_CACHE_DIR; no test
 * asserts a timing or a speed ratio, only figures that follow from each
 * other in the documents. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bench_tune_priv.h"
#include "bw_file.h"
#include "test_util.h"
#include "results_tune_keys.h"
#include "test_keys.h"

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    cr_assert_not_null(j, "bad JSON (%s, line %d): %.300s", e.text, e.line, text);
    return j;
}

static json_t *parse_file(const char *path)
{
    char *text = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bw_file_read(path, &text, NULL, &err), BW_OK, "%s", bw_error_text(&err));
    json_t *j = parse(text);
    free(text);
    return j;
}

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

static char *env_entry(const char *dir)
{
    cr_assert_not_null(dir);
    size_t n = strlen(dir) + 32;
    char *e = malloc(n);
    cr_assert_not_null(e);
    snprintf(e, n, "BWLAB_CACHE_DIR=%s", dir);
    return e;
}

static char *cache_file(const char *dir)
{
    size_t n = strlen(dir) + 32;
    char *p = malloc(n);
    snprintf(p, n, "%s/tune.json", dir);
    return p;
}

static const char *const tune_cpu[] = { "tune", "--device", "cpu", "--size", "8M", "--budget", "1", "--format", "json",
                                        NULL };
static const char *const tune_cpu_retune[] = { "tune", "--device", "cpu", "--size", "8M", "--budget", "1", "--retune",
                                               "--format", "json", NULL };

/* the same configuration and, to the digits the documents print, the same bandwidth */
static int same_peak(json_t *a, json_t *b)
{
    static const char *const ints[] = { "vector_width", "elems_per_item", "local_size" };
    for (size_t i = 0; i < 3; i++)
        if (integer(a, ints[i]) != integer(b, ints[i]))
            return 0;
    return !strcmp(str(a, "layout"), str(b, "layout")) && fabs(num(a, "gbs") - num(b, "gbs")) <= 1e-12 * num(a, "gbs");
}

/* the candidate the peak of `family` names: it must be there, validated,
 * measured, marked best, and no other measured one of its family faster */
static json_t *winner(json_t *dev, const char *family)
{
    json_t *peak = json_object_get(dev, family);
    json_t *cands = json_object_get(json_object_get(dev, "search"), "candidates");
    cr_assert(json_array_size(cands) > 0);
    json_t *found = NULL;
    for (size_t i = 0; i < json_array_size(cands); i++) {
        json_t *c = json_array_get(cands, i);
        if (strcmp(str(c, "family"), family) != 0)
            continue;
        if (integer(c, "vector_width") == integer(peak, "vector_width") &&
            integer(c, "elems_per_item") == integer(peak, "elems_per_item") &&
            integer(c, "local_size") == integer(peak, "local_size") && !strcmp(str(c, "layout"), str(peak, "layout"))) {
            cr_assert_null(found, "%s: the configuration appears twice", family);
            found = c;
        }
    }
    cr_assert_not_null(found, "%s: the peak's configuration is none of the candidates", family);
    cr_expect_str_eq(str(found, "status"), "ok");
    cr_expect_str_eq(str(found, "validation"), "ok");
    cr_expect(json_is_true(json_object_get(found, "best")));
    cr_expect_float_eq(num(found, "gbs"), num(peak, "gbs"), 1e-9 * num(peak, "gbs"));
    for (size_t i = 0; i < json_array_size(cands); i++) {
        json_t *c = json_array_get(cands, i);
        if (c == found || strcmp(str(c, "family"), family) != 0 || strcmp(str(c, "status"), "ok") != 0)
            continue;
        cr_expect(num(c, "gbs") <= num(found, "gbs"), "%s: a measured candidate beats the winner", family);
        cr_expect(json_is_false(json_object_get(c, "best")));
    }
    return found;
}

/* gbs is the requested bytes over the median time: copy moves the buffer
 * in and out, read loads it once */
static void check_arithmetic(json_t *dev)
{
    json_int_t bytes = integer(dev, "buffer_bytes");
    json_t *cands = json_object_get(json_object_get(dev, "search"), "candidates");
    for (size_t i = 0; i < json_array_size(cands); i++) {
        json_t *c = json_array_get(cands, i);
        int copy = !strcmp(str(c, "family"), "copy");
        cr_expect_float_eq(num(c, "requested_bytes"), (double)(copy ? 2 * bytes : bytes), 0.5);
        json_int_t per_item = 4 * integer(c, "vector_width") * integer(c, "elems_per_item");
        cr_expect_eq(integer(c, "items"), bytes / per_item);
        cr_expect_eq(integer(c, "items") % integer(c, "local_size"), 0);
        if (strcmp(str(c, "status"), "ok") != 0)
            continue;
        double median = num(json_object_get(c, "time_ns"), "median");
        cr_expect_float_eq(num(c, "gbs"), num(c, "requested_bytes") / median, 1e-9 * num(c, "gbs"));
    }
}

Test(tune, finds_validated_shape_and_caches_it, .timeout = 300)
{
    char *dir = tu_temp_dir();
    char *ev = env_entry(dir), *path = cache_file(dir);
    const char *env[] = { ev, NULL };
    json_t *doc = tu_exec_json_env(tune_cpu, env);
    cr_assert_str_eq(str(doc, "schema"), "bwlab.tune-results");
    cr_expect_str_eq(str(doc, "cache_file"), path);
    json_t *dev = json_array_get(json_object_get(doc, "devices"), 0);
    cr_assert_str_eq(str(dev, "status"), "tuned");
    cr_expect_str_eq(str(dev, "source"), "measured");
    cr_expect_eq(integer(dev, "buffer_bytes"), 8 << 20);
    cr_expect_str_eq(str(dev, "working_set_source"), "--size");
    json_t *rw = winner(dev, "read"), *cw = winner(dev, "copy");
    (void)rw;
    (void)cw;
    cr_expect_float_eq(num(dev, "peak_read_gbs"), num(json_object_get(dev, "read"), "gbs"), 1e-12);
    cr_expect_float_eq(num(dev, "peak_copy_gbs"), num(json_object_get(dev, "copy"), "gbs"), 1e-12);
    check_arithmetic(dev);
    /* every key written is the key table's, with its type */
    const tu_key_table tune_keys[] = { { RESULTS_TUNE_KEYS, RT_COUNT } };
    cr_expect_geq(tu_expect_doc_keys(doc, tune_keys, 1), RT_COUNT - 1, "a tuned document reaches every key but one");

    /* the cache holds the same winners under the device's key */
    json_t *cache = parse_file(path);
    cr_expect_str_eq(str(cache, "schema"), "bwlab.tune");
    cr_expect_eq(integer(cache, "schema_version"), 1);
    json_t *entries = json_object_get(cache, "entries");
    cr_assert_eq(json_array_size(entries), 1);
    json_t *e = json_array_get(entries, 0), *key = json_object_get(e, "key");
    json_t *d = json_object_get(dev, "device");
    cr_expect_str_eq(str(key, "device"), str(d, "name"));
    cr_expect_str_eq(str(key, "vendor"), str(d, "vendor"));
    cr_expect_str_eq(str(key, "driver_version"), str(d, "driver_version"));
    cr_expect_str_eq(str(key, "platform_version"), str(d, "platform_version"));
    cr_expect_str_eq(str(key, "bwlab_version"), str(json_object_get(doc, "tool"), "version"));
    cr_expect(same_peak(json_object_get(e, "read"), json_object_get(dev, "read")));
    cr_expect(same_peak(json_object_get(e, "copy"), json_object_get(dev, "copy")));

    /* again: from the cache, nothing measured */
    json_t *again = tu_exec_json_env(tune_cpu, env);
    json_t *dev2 = json_array_get(json_object_get(again, "devices"), 0);
    cr_expect_str_eq(str(dev2, "status"), "cached");
    char want[4200];
    snprintf(want, sizeof want, "cache %s", path);
    cr_expect_str_eq(str(dev2, "source"), want);
    cr_expect(json_is_null(json_object_get(dev2, "search")));
    tu_expect_doc_keys(again, tune_keys, 1);
    cr_expect(same_peak(json_object_get(dev2, "read"), json_object_get(dev, "read")));
    cr_expect(same_peak(json_object_get(dev2, "copy"), json_object_get(dev, "copy")));

    /* --retune measures again and still keeps one entry for the device */
    json_t *re = tu_exec_json_env(tune_cpu_retune, env);
    json_t *dev3 = json_array_get(json_object_get(re, "devices"), 0);
    cr_expect_str_eq(str(dev3, "status"), "tuned");
    cr_expect(json_is_object(json_object_get(dev3, "search")));
    json_t *cache2 = parse_file(path);
    cr_expect_eq(json_array_size(json_object_get(cache2, "entries")), 1);
    cr_expect(same_peak(json_object_get(json_array_get(json_object_get(cache2, "entries"), 0), "copy"),
                        json_object_get(dev3, "copy")));

    json_decref(doc);
    json_decref(cache);
    json_decref(again);
    json_decref(re);
    json_decref(cache2);
    tu_rmdir(dir);
    free(dir);
    free(ev);
    free(path);
}

static bench_tune_entry sample_entry(double read_gbs, double copy_gbs)
{
    bench_tune_entry e;
    memset(&e, 0, sizeof e);
    e.peak[BENCH_TUNE_READ] = (bench_tune_peak){ 1, { 4, 8, 256, BENCH_TUNE_CONTIGUOUS }, read_gbs };
    e.peak[BENCH_TUNE_COPY] = (bench_tune_peak){ 1, { 16, 2, 128, BENCH_TUNE_GRID }, copy_gbs };
    e.buffer_bytes = 64 << 20;
    snprintf(e.date, sizeof e.date, "2026-01-02T03:04:05Z");
    return e;
}

Test(tune_cache, keyed_by_device_driver_platform_and_version)
{
    bench_tune_key a = { "GPU X", "ACME", "1.0", "OpenCL 3.0 ACME", "0.1.0" };
    bench_tune_key same = { "GPU X", "ACME", "1.0", "OpenCL 3.0 ACME", "0.1.0" };
    bench_tune_key version = { "GPU X", "ACME", "1.0", "OpenCL 3.0 ACME", "0.2.0" };
    bench_tune_key driver = { "GPU X", "ACME", "1.1", "OpenCL 3.0 ACME", "0.1.0" };
    bench_tune_key platform = { "GPU X", "ACME", "1.0", "OpenCL 3.0 ACME 2", "0.1.0" };
    bench_tune_key device = { "GPU Y", "ACME", "1.0", "OpenCL 3.0 ACME", "0.1.0" };
    bench_tune_key vendor = { "GPU X", "ACMF", "1.0", "OpenCL 3.0 ACME", "0.1.0" };
    cr_expect(bench_tune_key_equal(&a, &same));
    cr_expect_not(bench_tune_key_equal(&a, &version));
    cr_expect_not(bench_tune_key_equal(&a, &driver));
    cr_expect_not(bench_tune_key_equal(&a, &platform));
    cr_expect_not(bench_tune_key_equal(&a, &device));
    cr_expect_not(bench_tune_key_equal(&a, &vendor));

    char *dir = tu_temp_dir();
    char path[4200];
    snprintf(path, sizeof path, "%s/sub/dir/tune.json", dir);
    bw_error err = BW_ERROR_INIT;
    bench_tune_entry e = sample_entry(40.0, 20.0), got;
    int found = -1;
    /* no file yet: a miss, no error */
    cr_assert_eq(bench_tune_cache_lookup(path, &a, &got, &found, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(found, 0);
    char *aside = NULL;
    cr_assert_eq(bench_tune_cache_store(path, &a, &e, &aside, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_null(aside);
    cr_assert_eq(bench_tune_cache_lookup(path, &same, &got, &found, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(found, 1);
    for (int m = 0; m < BENCH_TUNE_MODES; m++) {
        cr_expect_eq(got.peak[m].valid, 1);
        cr_expect_eq(got.peak[m].config.vector_width, e.peak[m].config.vector_width);
        cr_expect_eq(got.peak[m].config.elems_per_item, e.peak[m].config.elems_per_item);
        cr_expect_eq(got.peak[m].config.local_size, e.peak[m].config.local_size);
        cr_expect_eq(got.peak[m].config.layout, e.peak[m].config.layout);
        cr_expect_float_eq(got.peak[m].gbs, e.peak[m].gbs, 1e-9);
    }
    cr_expect_eq(got.buffer_bytes, e.buffer_bytes);
    cr_expect_str_eq(got.date, e.date);
    /* another bwlab version or driver misses */
    cr_assert_eq(bench_tune_cache_lookup(path, &version, &got, &found, &err), BW_OK);
    cr_expect_eq(found, 0);
    cr_assert_eq(bench_tune_cache_lookup(path, &driver, &got, &found, &err), BW_OK);
    cr_expect_eq(found, 0);
    /* a second key is added beside the first, a store under the first replaces it */
    bench_tune_entry e2 = sample_entry(10.0, 5.0);
    cr_assert_eq(bench_tune_cache_store(path, &version, &e2, &aside, &err), BW_OK, "%s", bw_error_text(&err));
    bench_tune_entry e3 = sample_entry(41.0, 21.0);
    cr_assert_eq(bench_tune_cache_store(path, &a, &e3, &aside, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(bench_tune_cache_lookup(path, &version, &got, &found, &err), BW_OK);
    cr_expect_eq(found, 1);
    cr_expect_float_eq(got.peak[BENCH_TUNE_COPY].gbs, 5.0, 1e-9);
    cr_assert_eq(bench_tune_cache_lookup(path, &a, &got, &found, &err), BW_OK);
    cr_expect_eq(found, 1);
    cr_expect_float_eq(got.peak[BENCH_TUNE_COPY].gbs, 21.0, 1e-9);
    json_t *doc = parse_file(path);
    cr_expect_eq(json_array_size(json_object_get(doc, "entries")), 2);
    json_decref(doc);
    bw_error_clear(&err);
    tu_rmdir(dir);
    free(dir);
}

Test(tune_cache, path_from_environment)
{
    char *p = NULL;
    bw_error err = BW_ERROR_INIT;
    setenv("BWLAB_CACHE_DIR", "/x/c", 1);
    setenv("XDG_CACHE_HOME", "/x/xdg", 1);
    setenv("HOME", "/x/home", 1);
    cr_assert_eq(bench_tune_cache_path(&p, &err), BW_OK);
    cr_expect_str_eq(p, "/x/c/tune.json");
    free(p);
    setenv("BWLAB_CACHE_DIR", "", 1);
    cr_assert_eq(bench_tune_cache_path(&p, &err), BW_OK);
    cr_expect_str_eq(p, "/x/xdg/bwlab/tune.json");
    free(p);
    unsetenv("XDG_CACHE_HOME");
    cr_assert_eq(bench_tune_cache_path(&p, &err), BW_OK);
    cr_expect_str_eq(p, "/x/home/.cache/bwlab/tune.json");
    free(p);
    unsetenv("HOME");
    unsetenv("BWLAB_CACHE_DIR");
    cr_expect_eq(bench_tune_cache_path(&p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "BWLAB_CACHE_DIR") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
}

static const char *const malformed_texts[] = {
    "{ \"schema\": \"bwlab.tune\", \"entries\": [",                                 /* not JSON */
    "{ \"schema\": \"bwlab.results\", \"schema_version\": 1, \"entries\": [] }",    /* another schema */
    "{ \"schema\": \"bwlab.tune\", \"schema_version\": 1, \"entries\": [ { \"key\": 3 } ] }", /* an entry without a key */
};

Test(tune_cache, malformed_is_reported_and_kept)
{
    bench_tune_key k = { "d", "v", "1", "p", "0.1.0" };
    for (size_t i = 0; i < sizeof malformed_texts / sizeof malformed_texts[0]; i++) {
        char *dir = tu_temp_dir();
        tu_write_file(dir, "tune.json", malformed_texts[i]);
        char *path = cache_file(dir);
        bench_tune_entry got, e = sample_entry(30.0, 15.0);
        int found = -1;
        bw_error err = BW_ERROR_INIT;
        cr_expect_eq(bench_tune_cache_lookup(path, &k, &got, &found, &err), BW_E_FORMAT, "text %zu", i);
        cr_expect_eq(found, 0);
        cr_expect(strstr(bw_error_text(&err), path) && strstr(bw_error_text(&err), "malformed"), "%s",
                  bw_error_text(&err));
        if (i == 0)
            cr_expect(strstr(bw_error_text(&err), "line 1") != NULL, "%s", bw_error_text(&err));
        bw_error_clear(&err);
        /* a store keeps the malformed file aside, byte for byte, and writes a new one */
        char *aside = NULL;
        cr_assert_eq(bench_tune_cache_store(path, &k, &e, &aside, &err), BW_OK, "%s", bw_error_text(&err));
        cr_assert_not_null(aside);
        char *kept = NULL;
        cr_assert_eq(bw_file_read(aside, &kept, NULL, &err), BW_OK);
        cr_expect_str_eq(kept, malformed_texts[i]);
        cr_assert_eq(bench_tune_cache_lookup(path, &k, &got, &found, &err), BW_OK, "%s", bw_error_text(&err));
        cr_expect_eq(found, 1);
        free(kept);
        free(aside);
        free(path);
        tu_rmdir(dir);
        free(dir);
    }
}

/* The CPU device's key as `bwlab devices` and `bwlab --version` give it. */
static json_t *cpu_device(void)
{
    json_t *j = tu_exec_json((const char *[]){ "devices", "--device", "cpu", "--format", "json", NULL });
    json_t *d = json_incref(json_array_get(json_object_get(j, "devices"), 0));
    cr_assert_not_null(d);
    json_decref(j);
    return d;
}

/* a cache with one entry for the CPU device, peaks read and copy GB/s */
static void write_cpu_cache_gbs(const char *dir, const char *version, double read, double copy)
{
    json_t *d = cpu_device();
    json_t *doc = json_pack("{s:s, s:i, s:[{s:{s:O, s:O, s:O, s:O, s:s}, s:s, s:i, "
                            "s:{s:i, s:i, s:i, s:s, s:f}, s:{s:i, s:i, s:i, s:s, s:f}}]}",
                            "schema", "bwlab.tune", "schema_version", 1, "entries", "key", "device",
                            json_object_get(d, "name"), "vendor", json_object_get(d, "vendor"), "driver_version",
                            json_object_get(d, "driver_version"), "platform_version",
                            json_object_get(d, "platform_version"), "bwlab_version", version, "date",
                            "2026-01-02T03:04:05Z", "buffer_bytes", 64 << 20, "read", "vector_width", 8,
                            "elems_per_item", 4, "local_size", 256, "layout", "contiguous", "gbs", read, "copy",
                            "vector_width", 4, "elems_per_item", 16, "local_size", 128, "layout", "block", "gbs", copy);
    cr_assert_not_null(doc);
    char *text = json_dumps(doc, JSON_INDENT(2));
    tu_write_file(dir, "tune.json", text);
    free(text);
    json_decref(doc);
    json_decref(d);
}

/* a cache with one entry for the CPU device, peaks read 4000 and copy 2000
 * GB/s: above what seq measures on any CPU, as a plausible peak is */
static void write_cpu_cache(const char *dir, const char *version)
{
    write_cpu_cache_gbs(dir, version, 4000.0, 2000.0);
}

/* the tuned peak is what these runs check: the short roofline (tested in
 * test_cli_run.c) is left out to keep them quick */
static const char *const run_cpu[] = { "run", "--device", "cpu", "--pattern", "seq,stride:s=2", "--size", "8M",
                                       "--budget", "0.5", "--no-roofline", "--format", "json", NULL };

static const char *tool_version(void)
{
    static char v[64];
    json_t *j = tu_exec_json((const char *[]){ "devices", "--device", "cpu", "--format", "json", NULL });
    snprintf(v, sizeof v, "%s", json_string_value(json_object_get(j, "version")));
    json_decref(j);
    return v;
}

Test(tune, run_reports_fraction_of_cached_peak, .timeout = 300)
{
    char *dir = tu_temp_dir();
    char *ev = env_entry(dir), *path = cache_file(dir);
    const char *env[] = { ev, NULL };
    write_cpu_cache(dir, tool_version());
    json_t *doc = tu_exec_json_env(run_cpu, env);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_expect_float_eq(num(run, "peak_read_gbs"), 4000.0, 1e-12);
    cr_expect_float_eq(num(run, "peak_copy_gbs"), 2000.0, 1e-12);
    json_t *tune = json_object_get(run, "tune");
    char want[4200];
    snprintf(want, sizeof want, "cache %s", path);
    cr_expect_str_eq(str(tune, "source"), want);
    json_t *copy = json_object_get(tune, "copy");
    cr_expect_eq(integer(copy, "vector_width"), 4);
    cr_expect_eq(integer(copy, "elems_per_item"), 16);
    cr_expect_eq(integer(copy, "local_size"), 128);
    cr_expect_str_eq(str(copy, "layout"), "block");
    cr_expect_eq(integer(json_object_get(tune, "read"), "vector_width"), 8);
    json_t *rs = json_object_get(doc, "results");
    cr_assert_eq(json_array_size(rs), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *r = json_array_get(rs, i);
        /* the patterns copy: their bandwidth over the copy peak */
        cr_expect_float_eq(num(r, "fraction_of_peak"), num(r, "effective_gbs") / 2000.0, 1e-12);
        cr_expect(json_is_number(json_object_get(r, "relative_to_seq")));
    }
    json_decref(doc);

    /* a read-mode pattern is set against the read peak */
    const char *run_read[] = { "run", "--device", "cpu", "--access", "read", "--pattern", "seq", "--size", "8M",
                               "--budget", "0.3", "--no-roofline", "--format", "json", NULL };
    doc = tu_exec_json_env(run_read, env);
    json_t *r0 = json_array_get(json_object_get(doc, "results"), 0);
    cr_expect_str_eq(str(r0, "access"), "read");
    cr_expect_float_eq(num(r0, "fraction_of_peak"), num(r0, "effective_gbs") / 4000.0, 1e-12);
    json_decref(doc);

    /* a bank row's GB/s are local-memory bytes: no fraction of the global peak */
    const char *run_bank[] = { "run", "--device", "cpu", "--pattern", "bank:pitch=33", "--budget", "0.3",
                               "--no-roofline", "--format", "json", NULL };
    doc = tu_exec_json_env(run_bank, env);
    r0 = json_array_get(json_object_get(doc, "results"), 0);
    cr_expect_str_eq(str(r0, "space"), "local");
    cr_expect_str_eq(str(r0, "status"), "ok");
    cr_expect(json_is_null(json_object_get(r0, "fraction_of_peak")), "a local row has a fraction of the peak");
    json_decref(doc);

    /* the table shows the peak and an "of peak" column */
    const char *table[] = { "run", "--device", "cpu", "--pattern", "seq", "--size", "8M", "--budget", "0.3",
                            "--no-roofline", NULL };
    tu_result t = tu_exec(table, env);
    cr_assert_eq(t.status, 0, "%s", t.err);
    cr_expect(strstr(t.out, "peak (measured by bwlab tune on 2026-01-02T03:04:05Z, cached in ") != NULL, "%s", t.out);
    cr_expect(strstr(t.out, "read 4000.0 GB/s with uint8 x 4 per work-item, 256 per group, contiguous layout; "
                            "copy 2000.0 GB/s with uint4 x 16 per work-item, 128 per group, block layout") != NULL,
              "%s", t.out);
    cr_expect(strstr(t.out, "of peak") != NULL);
    tu_result_free(&t);

    /* an entry of another bwlab version is no peak for this one */
    write_cpu_cache(dir, "0.0.0-other");
    json_t *other = tu_exec_json_env(run_cpu, env);
    json_t *run2 = json_array_get(json_object_get(other, "runs"), 0);
    cr_expect(json_is_null(json_object_get(run2, "peak_copy_gbs")));
    json_decref(other);

    tu_rmdir(dir);
    free(dir);
    free(ev);
    free(path);
}

Test(tune, run_without_cache_has_null_peak, .timeout = 300)
{
    char *dir = tu_temp_dir();
    char *ev = env_entry(dir);
    const char *env[] = { ev, NULL };
    json_t *doc = tu_exec_json_env(run_cpu, env);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_expect(json_is_null(json_object_get(run, "peak_read_gbs")));
    cr_expect(json_is_null(json_object_get(run, "peak_copy_gbs")));
    cr_expect(json_is_null(json_object_get(run, "tune")));
    json_t *rs = json_object_get(doc, "results");
    for (size_t i = 0; i < json_array_size(rs); i++) {
        json_t *r = json_array_get(rs, i);
        cr_expect(json_object_get(r, "fraction_of_peak") && json_is_null(json_object_get(r, "fraction_of_peak")));
        cr_expect(json_is_number(json_object_get(r, "relative_to_seq")));
    }
    json_decref(doc);
    /* and nothing was written: run only reads the cache */
    char *path = cache_file(dir);
    struct stat st;
    cr_expect_neq(stat(path, &st), 0);
    free(path);
    tu_rmdir(dir);
    free(dir);
    free(ev);
}

Test(tune, malformed_cache_through_the_commands, .timeout = 300)
{
    char *dir = tu_temp_dir();
    char *ev = env_entry(dir), *path = cache_file(dir);
    const char *env[] = { ev, NULL };
    tu_write_file(dir, "tune.json", "this is not JSON");
    /* run: a warning naming the file, the file kept aside as
     * tune.json.malformed, results without a peak, exit 0 */
    tu_result r = tu_exec(run_cpu, env);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "warning") && strstr(r.err, path) && strstr(r.err, "malformed"), "%s", r.err);
    cr_expect(strstr(r.err, "tune.json.malformed'"), "%s", r.err);
    cr_expect_neq(access(path, F_OK), 0, "the malformed cache is still read");
    json_t *doc = parse(r.out);
    cr_expect(json_is_null(json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "peak_copy_gbs")));
    json_decref(doc);
    tu_result_free(&r);
    /* tune: writes a good one beside the file kept aside */
    r = tu_exec(tune_cpu, env);
    cr_assert_eq(r.status, 0, "%s", r.err);
    doc = parse(r.out);
    cr_expect_str_eq(str(json_array_get(json_object_get(doc, "devices"), 0), "status"), "tuned");
    json_decref(doc);
    tu_result_free(&r);
    char aside[4200], *kept = NULL;
    snprintf(aside, sizeof aside, "%s.malformed", path);
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bw_file_read(aside, &kept, NULL, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_str_eq(kept, "this is not JSON");
    free(kept);
    json_t *cache = parse_file(path);
    cr_expect_eq(json_array_size(json_object_get(cache, "entries")), 1);
    json_decref(cache);
    tu_rmdir(dir);
    free(dir);
    free(ev);
    free(path);
}

/* A cached peak outside the range a results file keeps for any GB/s
 * (1e-300, the smallest subnormal, 1e7) is reported and the cache set
 * aside, so that neither the run nor its --report fails; a peak in range
 * but below half of the run's own seq is named as implausible. */
Test(tune, a_poisoned_cache_never_becomes_a_figure, .timeout = 300)
{
    const char *version = tool_version();
    static const double bad[] = { 1e-300, 5e-324, 1e7 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *dir = tu_temp_dir();
        char *ev = env_entry(dir), *path = cache_file(dir);
        write_cpu_cache_gbs(dir, version, bad[i], 20.0);
        char rep[4200];
        snprintf(rep, sizeof rep, "%s/r.html", dir);
        const char *argv[] = { "run", "--device", "cpu", "--pattern", "seq", "--size", "2M", "--budget", "0.3",
                               "--no-roofline", "--format", "json", "--report", rep, NULL };
        tu_result r = tu_exec(argv, (const char *[]){ ev, NULL });
        cr_expect_eq(r.status, 0, "gbs %g: exit %d: %s", bad[i], r.status, r.err);
        cr_expect(strstr(r.err, "\"read\" gbs") && strstr(r.err, "is outside 1e-06 to 1e+06 GB/s"), "gbs %g: %s",
                  bad[i], r.err);
        cr_expect(strstr(r.err, "tune.json.malformed'"), "gbs %g: %s", bad[i], r.err);
        json_t *doc = parse(r.out);
        json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
        cr_expect(json_is_null(json_object_get(run, "peak_read_gbs")) &&
                      json_is_null(json_object_get(run, "peak_copy_gbs")),
                  "gbs %g: a peak from a set-aside cache", bad[i]);
        json_decref(doc);
        tu_result_free(&r);
        cr_expect_eq(access(rep, F_OK), 0, "gbs %g: no report", bad[i]);
        tu_rmdir(dir);
        free(dir);
        free(ev);
        free(path);
    }
    /* in range, but far below what seq measures on any device that runs this suite */
    char *dir = tu_temp_dir();
    char *ev = env_entry(dir), *path = cache_file(dir);
    write_cpu_cache_gbs(dir, version, 40.0, 1e-5);
    const char *argv[] = { "run", "--device", "cpu", "--pattern", "seq", "--size", "2M", "--budget", "0.3",
                           "--no-roofline", "--format", "json", NULL };
    tu_result r = tu_exec(argv, (const char *[]){ ev, NULL });
    cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "the tuned copy peak, 0.00 GB/s (tuning cache of 2026-01-02T03:04:05Z), is below half of "
                            "this run's seq copy") &&
                  strstr(r.err, "implausible"),
              "%s", r.err);
    json_t *doc = parse(r.out);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_expect_float_eq(json_number_value(json_object_get(run, "peak_copy_gbs")), 1e-5, 1e-12);
    json_decref(doc);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
    free(ev);
    free(path);
}

/* A tuned peak above twice the device's nominal DRAM bandwidth is named as
 * implausible; one within it is not. The nominal table is a planted one
 * (BWLAB_DATA_DIR) whose only entry matches this suite's CPU device. */
Test(tune, a_peak_above_twice_the_nominal_is_implausible, .timeout = 120)
{
    const char *version = tool_version();
    json_t *d = cpu_device();
    static const double nominal[] = { 10.0, 1000.0 }; /* below, above half the cached 40 / 25 GB/s */
    for (size_t i = 0; i < 2; i++) {
        char *dir = tu_temp_dir();
        char *ev = env_entry(dir);
        write_cpu_cache_gbs(dir, version, 40.0, 25.0);
        json_t *t = json_pack("{s:s, s:i, s:[{s:s, s:[O], s:[O], s:[], s:f, s:s, s:f, s:s}]}", "schema",
                              "bwlab.nominal", "schema_version", 1, "devices", "name", "Planted entry", "vendor",
                              json_object_get(d, "vendor"), "name_all", json_object_get(d, "name"), "name_none",
                              "dram_gbs", nominal[i], "dram_source", "test", "fp32_gflops", 1.0, "fp32_source", "test");
        cr_assert_not_null(t);
        char *text = json_dumps(t, 0);
        json_decref(t);
        tu_write_file(dir, "nominal.json", text);
        free(text);
        /* BWLAB_DATA_DIR serves the profiles too: the real ones beside the planted table */
        char prof[4200], *ptext = NULL;
        bw_error perr = BW_ERROR_INIT;
        snprintf(prof, sizeof prof, "%s/data/profiles.json", tu_source_root());
        cr_assert_eq(bw_file_read(prof, &ptext, NULL, &perr), BW_OK, "%s", bw_error_text(&perr));
        tu_write_file(dir, "profiles.json", ptext);
        free(ptext);
        char data_env[4200];
        snprintf(data_env, sizeof data_env, "BWLAB_DATA_DIR=%s", dir);
        const char *argv[] = { "run", "--device", "cpu", "--pattern", "seq", "--size", "2M", "--budget", "0.3",
                               "--no-roofline", "--format", "json", NULL };
        tu_result r = tu_exec(argv, (const char *[]){ ev, data_env, NULL });
        cr_expect_eq(r.status, 0, "nominal %g: exit %d: %s", nominal[i], r.status, r.err);
        int read = strstr(r.err, "the tuned read peak, 40.00 GB/s (tuning cache of 2026-01-02T03:04:05Z), is above "
                                 "twice the nominal DRAM bandwidth of Planted entry, 10.0 GB/s") != NULL;
        int copy = strstr(r.err, "the tuned copy peak, 25.00 GB/s") && strstr(r.err, "above twice the nominal");
        if (i == 0)
            cr_expect(read && copy, "nominal %g: %s", nominal[i], r.err);
        else
            cr_expect(!strstr(r.err, "above twice the nominal"), "nominal %g: %s", nominal[i], r.err);
        tu_result_free(&r);
        tu_rmdir(dir);
        free(dir);
        free(ev);
    }
    json_decref(d);
}

Test(tune, bad_input)
{
    const char *const *cases[] = {
        (const char *[]){ "tune", "--size", "100", NULL },
        (const char *[]){ "tune", "--size", "1536K", NULL },
        (const char *[]){ "tune", "--budget", "0", NULL },
        (const char *[]){ "tune", "--format", "csv", NULL },
        (const char *[]){ "tune", "--device", "no-such-device-anywhere", NULL },
        (const char *[]){ "tune", "extra", NULL },
    };
    static const char *const says[] = { "--size", "--size", "--budget", "--format", "no-such-device-anywhere", "extra" };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_result r = tu_exec(cases[i], NULL);
        cr_expect_eq(r.status, 2, "case %zu: exit %d: %s", i, r.status, r.err);
        cr_expect(strstr(r.err, "bwlab tune: error: ") && strstr(r.err, says[i]), "case %zu: %s", i, r.err);
        cr_expect_str_eq(r.out, "");
        tu_result_free(&r);
    }
}

Test(tune, help_documents_the_cache)
{
    tu_result r = tu_exec((const char *[]){ "help", "tune", NULL }, NULL);
    cr_assert_eq(r.status, 0);
    static const char *const words[] = { "usage: bwlab tune", "--retune", "--budget S", "$BWLAB_CACHE_DIR/tune.json",
                                         "$XDG_CACHE_HOME/bwlab/tune.json", "~/.cache/bwlab/tune.json",
                                         "fraction_of_peak" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        cr_expect(strstr(r.out, words[i]) != NULL, "help lacks '%s'", words[i]);
    tu_result_free(&r);
}

Test(tune, fraction_and_configurations)
{
    bench_tune_peak peaks[BENCH_TUNE_MODES] = { { 1, { 4, 4, 256, BENCH_TUNE_BLOCK }, 50.0 },
                                                { 1, { 4, 4, 256, BENCH_TUNE_BLOCK }, 25.0 } };
    cr_expect_float_eq(bench_tune_fraction(peaks, BENCH_TUNE_READ, 10.0), 0.2, 1e-15);
    cr_expect_float_eq(bench_tune_fraction(peaks, BENCH_TUNE_COPY, 10.0), 0.4, 1e-15);
    cr_expect(isnan(bench_tune_fraction(peaks, BENCH_TUNE_COPY, NAN)));
    peaks[BENCH_TUNE_COPY].valid = 0;
    cr_expect(isnan(bench_tune_fraction(peaks, BENCH_TUNE_COPY, 10.0)));
    peaks[BENCH_TUNE_READ].gbs = 0;
    cr_expect(isnan(bench_tune_fraction(peaks, BENCH_TUNE_READ, 10.0)));

    bench_tune_config ok = { 16, 16, 1024, BENCH_TUNE_GRID };
    cr_expect(bench_tune_config_ok(&ok));
    bench_tune_config bad[] = { { 3, 4, 256, BENCH_TUNE_BLOCK },  { 32, 4, 256, BENCH_TUNE_BLOCK },
                                { 4, 32, 256, BENCH_TUNE_BLOCK }, { 4, 4, 2048, BENCH_TUNE_BLOCK },
                                { 4, 4, 96, BENCH_TUNE_BLOCK },   { 4, 1, 256, BENCH_TUNE_GRID },
                                { 4, 4, 256, BENCH_TUNE_LAYOUTS } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_not(bench_tune_config_ok(&bad[i]), "case %zu", i);
    for (int l = 0; l < BENCH_TUNE_LAYOUTS; l++)
        cr_expect_eq(bench_tune_layout_parse(bench_tune_layout_name((bench_tune_layout)l)), l);
    cr_expect_eq(bench_tune_layout_parse("diagonal"), -1);
}
