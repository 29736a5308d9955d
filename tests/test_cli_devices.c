/* `bwlab devices` on the machine's real OpenCL driver (PoCL in CI): the
 * table, the JSON object and its fields, --device selection, and the exit
 * statuses of its errors (no platform 3, bad --device 2, bad option 2). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static tu_result run(const char *const *argv)
{
    return tu_exec(argv, NULL);
}

static json_int_t integer(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_integer(v), "key %s missing or not an integer", key);
    return json_integer_value(v);
}

static const char *string(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_string(v), "key %s missing or not a string", key);
    return json_string_value(v);
}

static json_t *cpu_device(json_t *devices)
{
    size_t i;
    json_t *d;
    json_array_foreach(devices, i, d)
        if (!strcmp(string(d, "type"), "cpu"))
            return d;
    cr_assert_fail("no CPU device listed: install pocl-opencl-icd");
    return NULL;
}

/* A profile as stored in data/profiles.json (caller decrefs). */
static json_t *stored_profile(const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/data/profiles.json", tu_source_root());
    json_error_t e;
    json_t *doc = json_load_file(path, 0, &e);
    cr_assert_not_null(doc, "%s: %s", path, e.text);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "profiles"), i, p) {
        if (!strcmp(string(p, "name"), name)) {
            json_incref(p);
            json_decref(doc);
            return p;
        }
    }
    cr_assert_fail("%s has no profile '%s'", path, name);
    return NULL;
}

Test(cli_devices, json_carries_every_field)
{
    json_t *j = tu_exec_json((const char *[]){ "devices", "--format", "json", NULL });
    cr_expect_str_eq(string(j, "tool"), "bwlab");
    cr_expect(string(j, "version")[0] >= '0' && string(j, "version")[0] <= '9');
    json_t *devs = json_object_get(j, "devices");
    cr_assert(json_is_array(devs) && json_array_size(devs) >= 1);
    json_int_t def = integer(j, "default_device");
    cr_expect(def >= 0 && (size_t)def < json_array_size(devs));

    static const char *const strings[] = { "platform", "platform_vendor", "platform_version",
                                           "name", "vendor", "type", "driver_version",
                                           "device_version", "opencl_c_version",
                                           "local_mem_type" };
    static const char *const integers[] = { "index", "vendor_id", "compute_units", "clock_mhz",
                                            "global_mem_bytes", "max_alloc_bytes",
                                            "global_cache_bytes", "global_cache_line_bytes",
                                            "local_mem_bytes", "max_work_group_size",
                                            "preferred_vector_width_float", "timer_resolution_ns" };
    size_t i;
    json_t *d;
    int defaults = 0;
    json_array_foreach(devs, i, d) {
        for (size_t k = 0; k < sizeof strings / sizeof strings[0]; k++)
            string(d, strings[k]);
        for (size_t k = 0; k < sizeof integers / sizeof integers[0]; k++)
            cr_expect_geq(integer(d, integers[k]), 0, "%s", integers[k]);
        cr_expect_eq(integer(d, "index"), (json_int_t)i);
        /* a device whose required query failed is listed with its reason */
        json_t *usable = json_object_get(d, "usable");
        cr_assert(json_is_boolean(usable));
        json_t *reason = json_object_get(d, "broken_reason");
        cr_expect(json_is_true(usable) ? json_is_null(reason) : json_string_length(reason) > 0);
        json_t *notes = json_object_get(d, "query_notes");
        cr_expect(json_is_null(notes) || json_is_string(notes));
        json_t *reqd = json_object_get(d, "reqd_sub_group_size");
        cr_expect(json_is_null(reqd) || (json_is_integer(reqd) && json_integer_value(reqd) > 0));
        if (!json_is_true(usable)) {
            cr_expect(json_is_null(json_object_get(d, "profile")));
            cr_expect((json_int_t)i != def, "an unusable device is never the default");
            continue;
        }
        cr_expect_gt(integer(d, "max_alloc_bytes"), 0);
        json_t *dflt = json_object_get(d, "default");
        cr_assert(json_is_boolean(dflt));
        cr_expect_eq(json_is_true(dflt), (json_int_t)i == def);
        defaults += json_is_true(dflt);
        /* vendor values: a positive number, or null where the device has none */
        json_t *v = json_object_get(d, "warp_size_nv");
        cr_expect(json_is_null(v) || (json_is_integer(v) && json_integer_value(v) > 0));
        v = json_object_get(d, "wavefront_width_amd");
        cr_expect(json_is_null(v) || (json_is_integer(v) && json_integer_value(v) > 0));
        v = json_object_get(d, "sub_group_sizes_intel");
        cr_expect(json_is_null(v) || json_is_array(v));
        json_t *ext = json_object_get(d, "extensions");
        cr_assert(json_is_array(ext));
        size_t e;
        json_t *x;
        json_array_foreach(ext, e, x)
            cr_expect(json_is_string(x) && json_string_length(x) > 0 && !strchr(json_string_value(x), ' '));
        json_t *prof = json_object_get(d, "profile");
        cr_assert(json_is_object(prof));
        string(prof, "name");
        cr_expect(strlen(string(prof, "why")) > 0);
        cr_expect_geq(integer(prof, "lanes"), 1);
        cr_expect_geq(integer(prof, "sector_bytes"), 1);
        cr_expect_geq(integer(prof, "line_bytes"), integer(prof, "sector_bytes"));
        json_t *banks = json_object_get(prof, "banks"), *width = json_object_get(prof, "bank_width");
        cr_expect(json_is_null(banks) || (json_is_integer(banks) && json_integer_value(banks) > 0));
        cr_expect_eq(json_is_null(banks), json_is_null(width));
    }
    cr_expect_eq(defaults, 1);
    cr_expect(json_is_array(json_object_get(j, "platform_errors")));

    /* the CPU device gets the cpu profile from its own queries, where it
     * answers them; a device reporting no cache line (PoCL on some CPUs)
     * keeps the sizes stored in data/profiles.json */
    d = cpu_device(devs);
    json_t *prof = json_object_get(d, "profile");
    cr_expect_str_eq(string(prof, "name"), "cpu");
    json_t *stored = stored_profile("cpu");
    json_int_t width = integer(d, "preferred_vector_width_float");
    json_int_t line = integer(d, "global_cache_line_bytes");
    cr_expect_eq(integer(prof, "lanes"), width > 0 ? width : integer(stored, "lanes"));
    cr_expect_eq(integer(prof, "sector_bytes"), line > 0 ? line : integer(stored, "sector"));
    cr_expect_eq(integer(prof, "line_bytes"), line > 0 ? line : integer(stored, "line"));
    json_decref(stored);
    cr_expect(json_is_null(json_object_get(prof, "banks")));
    cr_expect(strstr(string(prof, "why"), "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE"), "%s",
              string(prof, "why"));
    json_decref(j);
}

Test(cli_devices, table_names_every_device)
{
    json_t *j = tu_exec_json((const char *[]){ "devices", "--format", "json", NULL });
    json_t *devs = json_object_get(j, "devices");
    tu_result r = run((const char *[]){ "devices", NULL });
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.err, "");
    size_t i;
    json_t *d;
    json_array_foreach(devs, i, d) {
        cr_expect(strstr(r.out, string(d, "name")), "%s missing:\n%s", string(d, "name"), r.out);
        cr_expect(strstr(r.out, string(d, "platform")), "%s", r.out);
        cr_expect(strstr(r.out, string(d, "driver_version")), "%s", r.out);
        char line[128];
        snprintf(line, sizeof line, "%lld B lines", (long long)integer(d, "global_cache_line_bytes"));
        cr_expect(strstr(r.out, line), "'%s' missing:\n%s", line, r.out);
    }
    char mark[64];
    snprintf(mark, sizeof mark, "device %lld (default)", (long long)integer(j, "default_device"));
    cr_expect(strstr(r.out, mark), "'%s' missing:\n%s", mark, r.out);
    cr_expect(strstr(r.out, "profile") && strstr(r.out, "why"), "%s", r.out);
    tu_result_free(&r);
    json_decref(j);
}

Test(cli_devices, select_cpu)
{
    json_t *j = tu_exec_json((const char *[]){ "devices", "--device", "cpu", "--format", "json", NULL });
    json_t *devs = json_object_get(j, "devices");
    cr_assert_geq(json_array_size(devs), 1);
    size_t i;
    json_t *d;
    json_array_foreach(devs, i, d)
        cr_expect_str_eq(string(d, "type"), "cpu");
    size_t cpus = json_array_size(devs);
    json_decref(j);

    /* one detail block per CPU device (one, PoCL, on the test machines) */
    tu_result r = run((const char *[]){ "devices", "--device", "cpu", NULL });
    cr_assert_eq(r.status, 0, "%s", r.err);
    size_t blocks = 0;
    for (const char *s = r.out; (s = strstr(s, "\ndevice ")) != NULL; s++)
        blocks++;
    cr_expect_eq(blocks, cpus, "%s", r.out);
    tu_result_free(&r);

    j = tu_exec_json((const char *[]){ "devices", "--device", "0", "--format", "json", NULL });
    cr_expect_eq(json_array_size(json_object_get(j, "devices")), 1);
    cr_expect_eq(integer(json_array_get(json_object_get(j, "devices"), 0), "index"), 0);
    json_decref(j);
}

Test(cli_devices, unknown_device)
{
    static const char *const specs[] = { "nonexistent", "4096", "" };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        tu_result r = run((const char *[]){ "devices", "--device", specs[i], NULL });
        cr_expect_eq(r.status, 2, "--device '%s': exit %d", specs[i], r.status);
        char quoted[64];
        snprintf(quoted, sizeof quoted, "--device '%s'", specs[i]);
        cr_expect(strstr(r.err, quoted), "%s", r.err);
        cr_expect(strstr(r.err, "bwlab devices: error: "), "%s", r.err);
        cr_expect_str_eq(r.out, "");
        tu_result_free(&r);
    }
}

Test(cli_devices, no_platform_exits_3)
{
    char *dir = tu_temp_dir();
    char env[4200];
    snprintf(env, sizeof env, "OCL_ICD_VENDORS=%s", dir);
    tu_result r = tu_exec((const char *[]){ "devices", NULL }, (const char *[]){ env, NULL });
    cr_expect_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "no OpenCL platform"), "%s", r.err);
    cr_expect(strstr(r.err, "pocl-opencl-icd"), "%s", r.err);
    cr_expect(strstr(r.err, "OCL_ICD_VENDORS"), "%s", r.err);
    cr_expect_str_eq(r.out, "");
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* A driver is installed (an .icd file) but none starts: exit 1, not the
 * "install a driver" advice of exit 3, naming the driver files; under an
 * address-space limit the limit is named too, as the likely cause. */
Test(cli_devices, installed_drivers_that_do_not_start_are_told_from_none_installed)
{
    char *dir = tu_temp_dir();
    tu_write_file(dir, "broken.icd", "/nonexistent/libbroken-opencl.so\n");
    char env[4200], icd[4300];
    snprintf(env, sizeof env, "OCL_ICD_VENDORS=%s", dir);
    snprintf(icd, sizeof icd, "driver files: %s/broken.icd)", dir);
    tu_result r = tu_exec((const char *[]){ "devices", NULL }, (const char *[]){ env, NULL });
    cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "the installed OpenCL drivers did not start") && strstr(r.err, icd), "%s", r.err);
    cr_expect(strstr(r.err, "install an OpenCL driver") == NULL, "%s", r.err);
    tu_result_free(&r);
    /* the same under ulimit -v, where the limit leaves bwlab room to start
     * (a sanitizer build cannot start under one at all) */
    const char *exe = getenv("BWLAB_EXE");
    cr_assert_not_null(exe);
    char line[9000];
    snprintf(line, sizeof line, "ulimit -v 2000000 && OCL_ICD_VENDORS='%s' '%s' devices", dir, exe);
    r = tu_run_cmd((const char *[]){ "sh", "-c", line, NULL }, NULL);
    if (r.status == 1 && strstr(r.err, "did not start"))
        cr_expect(strstr(r.err, "an address-space limit is set (ulimit -v 2000000 KiB)"), "%s", r.err);
    else
        cr_log_info("bwlab does not start under ulimit -v 2000000 here (exit %d): the limit's line is not checked",
                    r.status);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

Test(cli_devices, bad_options)
{
    tu_result r = run((const char *[]){ "devices", "--no-such-option", NULL });
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "'--no-such-option'") && strstr(r.err, "usage: bwlab devices"), "%s", r.err);
    tu_result_free(&r);
    r = run((const char *[]){ "devices", "--format", "csv", NULL });
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "'csv'"), "%s", r.err);
    tu_result_free(&r);
    r = run((const char *[]){ "devices", "--device", NULL });
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "--device"), "%s", r.err);
    tu_result_free(&r);
    r = run((const char *[]){ "devices", "extra", NULL });
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "'extra'"), "%s", r.err);
    tu_result_free(&r);
    r = run((const char *[]){ "help", "devices", NULL });
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "usage: bwlab devices") && strstr(r.out, "--device SPEC"), "%s", r.out);
    tu_result_free(&r);
}
