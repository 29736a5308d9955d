/* `bwlab devices` end to end on recorded drivers: the real executable and
 * the real ICD loader, with the fake driver of tests/fake_icd answering
 * discovery from the tables in tests/data/devices (clinfo values of real
 * GPUs, and made-up broken drivers). Each expected profile is worked out
 * from the profile table in docs/model.md and data/profiles.json and the
 * vendor attribute in the table, not from bwlab's output. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_file.h"
#include "test_util.h"

typedef struct fake {
    char *dir;          /* OCL_ICD_VENDORS: holds the .icd naming the fake driver */
    char vendors[4200]; /* "OCL_ICD_VENDORS=..." */
    char table[8192];   /* "BWLAB_FAKE_ICD_TABLE=..." */
} fake;

/* tables: NULL-terminated names under tests/data/devices, or absolute paths */
static void fake_open(fake *f, const char *const *tables)
{
    const char *icd = getenv("BWLAB_FAKE_ICD");
    cr_assert(icd && *icd, "BWLAB_FAKE_ICD is not set: run through meson test");
    f->dir = tu_temp_dir();
    char line[4200];
    snprintf(line, sizeof line, "%s\n", icd);
    tu_write_file(f->dir, "bwlab-fake.icd", line);
    snprintf(f->vendors, sizeof f->vendors, "OCL_ICD_VENDORS=%s", f->dir);
    size_t n = (size_t)snprintf(f->table, sizeof f->table, "BWLAB_FAKE_ICD_TABLE=");
    for (size_t i = 0; tables[i]; i++)
        n += (size_t)snprintf(f->table + n, sizeof f->table - n, "%s%s%s%s", i ? ":" : "",
                              tables[i][0] == '/' ? "" : tu_source_root(),
                              tables[i][0] == '/' ? "" : "/tests/data/devices/", tables[i]);
    cr_assert_lt(n, sizeof f->table);
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

static json_t *json_fake(const fake *f, const char *const *argv)
{
    return tu_exec_json_env(argv, (const char *[]){ f->vendors, f->table, NULL });
}

static const char *string(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_string(v), "key %s missing or not a string", key);
    return json_string_value(v);
}

static json_int_t integer(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_integer(v), "key %s missing or not an integer", key);
    return json_integer_value(v);
}

static json_t *device_named(json_t *devs, const char *name)
{
    size_t i;
    json_t *d;
    json_array_foreach(devs, i, d)
        if (!strcmp(string(d, "name"), name))
            return d;
    cr_assert_fail("device '%s' not listed", name);
    return NULL;
}

typedef struct expect {
    const char *table, *name, *profile;
    int lanes, sector, line;
    int reqd_sub_group; /* 0: none */
} expect;

/* W, S and L from the profile table; W where the profile reads it from the
 * device: the table's CL_DEVICE_WARP_SIZE_NV (32), CL_DEVICE_WAVEFRONT_WIDTH_AMD
 * (64 on CDNA, 32 on RDNA3 under ROCm; absent under rusticl, so the stored
 * 32), or the profile's 16 listed in CL_DEVICE_SUB_GROUP_SIZES_INTEL. */
static const expect real[] = {
    { "nvidia-h100.json", "NVIDIA H100 80GB HBM3", "nvidia", 32, 32, 128, 0 },
    { "nvidia-a100.json", "NVIDIA A100-SXM4-40GB", "nvidia", 32, 32, 128, 0 },
    { "amd-mi250x.json", "gfx90a:sramecc+:xnack-", "amd-cdna2", 64, 64, 128, 0 },
    { "amd-mi300x.json", "gfx942:sramecc+:xnack-", "amd-cdna3", 64, 128, 128, 0 },
    { "amd-rx7900xtx-rocm.json", "gfx1100", "amd-rdna", 32, 128, 128, 0 },
    { "amd-rx7900xtx-rusticl.json",
      "AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 17.0.6, DRM 3.57, 6.7.4-arch1-1)", "amd-rdna",
      32, 128, 128, 0 },
    { "intel-arc-a770.json", "Intel(R) Arc(TM) A770 Graphics", "intel-xe", 16, 64, 64, 16 },
    { "intel-max-1550.json", "Intel(R) Data Center GPU Max 1550", "intel-xe", 16, 64, 64, 16 },
};
#define N_REAL (sizeof real / sizeof real[0])

static void check_profile(json_t *d, const expect *x)
{
    json_t *prof = json_object_get(d, "profile");
    cr_assert(json_is_object(prof), "%s: no profile", x->name);
    cr_expect_str_eq(string(prof, "name"), x->profile, "%s", x->name);
    cr_expect_eq(integer(prof, "lanes"), x->lanes, "%s", x->name);
    cr_expect_eq(integer(prof, "sector_bytes"), x->sector, "%s", x->name);
    cr_expect_eq(integer(prof, "line_bytes"), x->line, "%s", x->name);
    cr_expect(json_is_true(json_object_get(d, "usable")), "%s", x->name);
    json_t *r = json_object_get(d, "reqd_sub_group_size");
    if (x->reqd_sub_group)
        cr_expect(json_is_integer(r) && json_integer_value(r) == x->reqd_sub_group, "%s", x->name);
    else
        cr_expect(json_is_null(r), "%s", x->name);
}

/* Every recorded device at once: one platform per table, each its profile. */
Test(cli_fake_devices, real_drivers_get_their_profiles)
{
    const char *tables[N_REAL + 1];
    for (size_t i = 0; i < N_REAL; i++)
        tables[i] = real[i].table;
    tables[N_REAL] = NULL;
    fake f;
    fake_open(&f, tables);
    json_t *j = json_fake(&f, (const char *[]){ "devices", "--format", "json", NULL });
    json_t *devs = json_object_get(j, "devices");
    cr_assert_eq(json_array_size(devs), N_REAL);
    for (size_t i = 0; i < N_REAL; i++)
        check_profile(device_named(devs, real[i].name), &real[i]);
    cr_expect_eq(json_array_size(json_object_get(j, "platform_errors")), 0);

    /* how W was found is said */
    json_t *intel = json_object_get(device_named(devs, real[6].name), "profile");
    cr_expect(strstr(string(intel, "why"), "CL_DEVICE_SUB_GROUP_SIZES_INTEL") &&
                  strstr(string(intel, "why"), "8, 16, 32"),
              "%s", string(intel, "why"));
    json_t *rusticl = device_named(devs, real[5].name);
    cr_expect(json_is_null(json_object_get(rusticl, "wavefront_width_amd")));
    cr_expect(strstr(string(json_object_get(rusticl, "profile"), "why"),
                     "CL_DEVICE_WAVEFRONT_WIDTH_AMD not available"));
    json_t *rocm = device_named(devs, real[4].name);
    cr_expect_str_eq(string(rocm, "board_name"), "AMD Radeon RX 7900 XTX");
    cr_expect_eq(integer(rocm, "wavefront_width_amd"), 32);
    /* the MI250X dump has an empty board name: no board then */
    cr_expect(json_is_null(json_object_get(device_named(devs, real[2].name), "board_name")));
    json_decref(j);
    fake_close(&f);
}

/* Each table alone, so a device is not matched because of another. */
Test(cli_fake_devices, each_real_driver_alone)
{
    for (size_t i = 0; i < N_REAL; i++) {
        fake f;
        fake_open(&f, (const char *[]){ real[i].table, NULL });
        json_t *j = json_fake(&f, (const char *[]){ "devices", "--format", "json", NULL });
        json_t *devs = json_object_get(j, "devices");
        cr_assert_eq(json_array_size(devs), 1, "%s", real[i].table);
        check_profile(json_array_get(devs, 0), &real[i]);
        cr_expect_eq(integer(j, "default_device"), 0);
        json_decref(j);
        fake_close(&f);
    }
}

/* A device whose name and memory queries fail, an OpenCL 1.0 device without
 * CL_DEVICE_OPENCL_C_VERSION, a platform whose clGetDeviceIDs fails: all are
 * listed with their reasons, and the good ones work. */
Test(cli_fake_devices, broken_devices_are_listed_with_reasons)
{
    fake f;
    fake_open(&f, (const char *[]){ "broken-mix.json", NULL });
    json_t *j = json_fake(&f, (const char *[]){ "devices", "--format", "json", NULL });
    json_t *devs = json_object_get(j, "devices");
    cr_assert_eq(json_array_size(devs), 3);
    cr_expect_eq(integer(j, "default_device"), 0);

    json_t *good = json_array_get(devs, 0);
    cr_expect_str_eq(string(good, "name"), "Good Fake GPU");
    check_profile(good, &(expect){ "", "Good Fake GPU", "nvidia", 32, 32, 128, 0 });
    cr_expect(json_is_null(json_object_get(good, "broken_reason")));
    /* max allocation above global memory: usable, and noted */
    cr_expect(strstr(string(good, "query_notes"), "CL_DEVICE_MAX_MEM_ALLOC_SIZE"));

    json_t *bad = json_array_get(devs, 1);
    cr_expect(json_is_false(json_object_get(bad, "usable")));
    cr_expect(json_is_null(json_object_get(bad, "profile")));
    const char *why = string(bad, "broken_reason");
    cr_expect(strstr(why, "clGetDeviceInfo(CL_DEVICE_NAME) failed: CL_OUT_OF_RESOURCES (-5)"), "%s", why);
    cr_expect(strstr(why, "clGetDeviceInfo(CL_DEVICE_GLOBAL_MEM_SIZE) failed: CL_OUT_OF_HOST_MEMORY (-6)"),
              "%s", why);
    cr_expect_str_eq(string(bad, "vendor"), "Broken Vendor");

    json_t *old = json_array_get(devs, 2);
    cr_expect_str_eq(string(old, "name"), "Old Accelerator 1.0", "names are trimmed");
    cr_expect(json_is_true(json_object_get(old, "usable")));
    cr_expect_str_eq(string(old, "opencl_c_version"), "OpenCL C 1.0");
    cr_expect_str_eq(string(old, "driver_version"), "", "a zero-length string is kept");
    cr_expect(strstr(string(old, "query_notes"), "CL_DEVICE_OPENCL_C_VERSION) failed: CL_INVALID_VALUE"));
    /* generic profile: no probe kernel on this driver, so the stored W 32;
     * sector and line from its 32-byte cache line */
    check_profile(old, &(expect){ "", "Old Accelerator 1.0", "generic", 32, 32, 32, 0 });

    json_t *perr = json_object_get(j, "platform_errors");
    cr_assert_eq(json_array_size(perr), 1);
    json_t *pe = json_array_get(perr, 0);
    cr_expect_eq(integer(pe, "platform_index"), 1);
    cr_expect_str_eq(string(pe, "platform"), "Broken Platform");
    cr_expect_str_eq(string(pe, "reason"), "clGetDeviceIDs failed: CL_OUT_OF_HOST_MEMORY (-6)");
    json_decref(j);

    tu_result r = run_fake(&f, (const char *[]){ "devices", NULL });
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "device 1: unusable: clGetDeviceInfo(CL_DEVICE_NAME) failed"), "%s", r.out);
    cr_expect(strstr(r.out, "platform 1 'Broken Platform': clGetDeviceIDs failed"), "%s", r.out);
    cr_expect(strstr(r.out, "device 0 (default): Good Fake GPU"), "%s", r.out);
    tu_result_free(&r);

    /* selection skips the broken device; naming it by index says why */
    j = json_fake(&f, (const char *[]){ "devices", "--device", "all", "--format", "json", NULL });
    devs = json_object_get(j, "devices");
    cr_assert_eq(json_array_size(devs), 2);
    cr_expect_eq(integer(json_array_get(devs, 0), "index"), 0);
    cr_expect_eq(integer(json_array_get(devs, 1), "index"), 2);
    json_decref(j);
    j = json_fake(&f, (const char *[]){ "devices", "--device", "gpu", "--format", "json", NULL });
    cr_expect_eq(json_array_size(json_object_get(j, "devices")), 1);
    json_decref(j);
    r = run_fake(&f, (const char *[]){ "devices", "--device", "1", NULL });
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "device 1") && strstr(r.err, "unusable") &&
                  strstr(r.err, "CL_OUT_OF_RESOURCES"),
              "%s", r.err);
    tu_result_free(&r);
    r = run_fake(&f, (const char *[]){ "devices", "--device", "unknown", NULL });
    cr_expect_eq(r.status, 2, "the broken device's placeholder name is not selectable");
    tu_result_free(&r);
    fake_close(&f);
}

/* Nothing usable: exit 3, naming the driver packages and every reason. */
Test(cli_fake_devices, no_usable_device_exits_3)
{
    char *tdir = tu_temp_dir();
    tu_write_file(tdir, "t.json",
                  "{\"platforms\": [{\"CL_PLATFORM_NAME\": \"P0\", \"devices\": [{"
                  "\"CL_DEVICE_NAME\": \"Dead GPU\", \"CL_DEVICE_TYPE\": \"CL_DEVICE_TYPE_GPU\","
                  " \"CL_DEVICE_GLOBAL_MEM_SIZE\": 1024, \"CL_DEVICE_MAX_WORK_GROUP_SIZE\": 64,"
                  " \"CL_DEVICE_MAX_MEM_ALLOC_SIZE\": {\"error\": \"CL_INVALID_DEVICE\"}}]},"
                  " {\"CL_PLATFORM_NAME\": \"P1\", \"clGetDeviceIDs\": {\"error\": \"CL_INVALID_PLATFORM\"}}]}");
    char path[4200];
    snprintf(path, sizeof path, "%s/t.json", tdir);
    fake f;
    fake_open(&f, (const char *[]){ path, NULL });
    tu_result r = run_fake(&f, (const char *[]){ "devices", NULL });
    cr_expect_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "pocl-opencl-icd"), "%s", r.err);
    cr_expect(strstr(r.err, "'Dead GPU': clGetDeviceInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE) failed: "
                            "CL_INVALID_DEVICE (-33)"),
              "%s", r.err);
    cr_expect(strstr(r.err, "platform 1 'P1': ") &&
                  strstr(r.err, "clGetDeviceIDs failed: CL_INVALID_PLATFORM (-32)"),
              "%s", r.err);
    /* the table gives no platform vendor: said, not fatal */
    cr_expect(strstr(r.err, "clGetPlatformInfo(CL_PLATFORM_VENDOR) failed: CL_INVALID_VALUE (-30)"),
              "%s", r.err);
    cr_expect_str_eq(r.out, "");
    tu_result_free(&r);
    fake_close(&f);
    tu_rmdir(tdir);
    free(tdir);
}

static json_t *run_json_of(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    cr_assert_not_null(j, "bad JSON (%s): %.300s", e.text, text);
    return j;
}

static json_t *run_of(json_t *doc, const char *device_name)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "runs"), i, r)
        if (!strcmp(string(json_object_get(r, "device"), "name"), device_name))
            return r;
    cr_assert_fail("no run of %s", device_name);
    return NULL;
}

/* `run --device all` beside PoCL: a device that fails (the fake driver can
 * make no context; a device whose allocation limit the plan exceeds) is
 * reported failed with its reason, and what the CPU measured is written,
 * whichever comes first in the device list. */
Test(cli_fake_devices, run_all_keeps_what_every_working_device_measured, .timeout = 300)
{
    const char *system_icd = "/etc/OpenCL/vendors/pocl.icd";
    char *pocl = NULL;
    if (bw_file_read(system_icd, &pocl, NULL, NULL) != BW_OK)
        cr_skip("%s is not here: PoCL's ICD file is needed beside the fake driver", system_icd);
    char *tdir = tu_temp_dir();
    /* 32 MiB of largest allocation: --size 48M fits PoCL, not this GPU */
    tu_write_file(tdir, "tiny.json",
                  "{\"platforms\": [{\"CL_PLATFORM_NAME\": \"Tiny\", \"CL_PLATFORM_VENDOR\": \"T\","
                  " \"CL_PLATFORM_VERSION\": \"OpenCL 1.2\", \"devices\": [{"
                  "\"CL_DEVICE_NAME\": \"Tiny GPU\", \"CL_DEVICE_VENDOR\": \"T\", \"CL_DEVICE_TYPE\": \"CL_DEVICE_TYPE_GPU\","
                  " \"CL_DEVICE_GLOBAL_MEM_SIZE\": 134217728, \"CL_DEVICE_MAX_MEM_ALLOC_SIZE\": 33554432,"
                  " \"CL_DEVICE_MAX_WORK_GROUP_SIZE\": 256, \"CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE\": 64,"
                  " \"CL_DEVICE_ADDRESS_BITS\": 64, \"CL_DEVICE_MAX_COMPUTE_UNITS\": 4}]}]}");
    char tiny[4200];
    snprintf(tiny, sizeof tiny, "%s/tiny.json", tdir);
    /* the loader reads its folder in name order: the fake driver first, then last */
    static const char *const fake_names[] = { "a-fake.icd", "z-fake.icd" };
    for (size_t order = 0; order < 2; order++) {
        fake f;
        fake_open(&f, (const char *[]){ "nvidia-h100.json", tiny, NULL });
        char from[4300], to[4300];
        snprintf(from, sizeof from, "%s/bwlab-fake.icd", f.dir);
        snprintf(to, sizeof to, "%s/%s", f.dir, fake_names[order]);
        cr_assert_eq(rename(from, to), 0);
        tu_write_file(f.dir, "pocl.icd", pocl);
        tu_result r = run_fake(&f, (const char *[]){ "run", "--device", "all", "--pattern", "seq", "--size", "48M",
                                                     "--budget", "0.2", "--format", "json", NULL });
        cr_expect_eq(r.status, 1, "a device failed: exit 1 (%s)", r.err);
        cr_expect(strstr(r.err, "NVIDIA H100 80GB HBM3") && strstr(r.err, "CL_DEVICE_NOT_AVAILABLE"), "%s", r.err);
        cr_expect(strstr(r.err, "Tiny GPU") && strstr(r.err, "CL_DEVICE_MAX_MEM_ALLOC_SIZE"), "%s", r.err);
        json_t *j = run_json_of(r.out);
        cr_expect_eq(json_array_size(json_object_get(j, "runs")), 3, "%s", r.out);
        json_t *h100 = run_of(j, "NVIDIA H100 80GB HBM3");
        cr_expect_str_eq(string(h100, "status"), "failed");
        cr_expect(strstr(string(h100, "failure"), "CL_DEVICE_NOT_AVAILABLE"), "%s", string(h100, "failure"));
        json_t *t = run_of(j, "Tiny GPU");
        cr_expect_str_eq(string(t, "status"), "failed");
        cr_expect_null(json_object_get(t, "buffers"), "no plan, no buffers");
        /* the CPU's seq was measured and written, with the H100's pattern reported failed */
        size_t i, cpu_ok = 0, h100_failed = 0;
        json_t *res;
        json_array_foreach(json_object_get(j, "results"), i, res) {
            json_int_t dev = integer(res, "device");
            json_t *run = NULL;
            size_t k;
            json_t *x;
            json_array_foreach(json_object_get(j, "runs"), k, x)
                if (integer(json_object_get(x, "device"), "index") == dev)
                    run = x;
            cr_assert_not_null(run);
            const char *type = string(json_object_get(run, "device"), "type");
            if (!strcmp(type, "cpu") && !strcmp(string(res, "status"), "ok") &&
                json_number_value(json_object_get(res, "effective_gbs")) > 0)
                cpu_ok++;
            if (run == h100 && !strcmp(string(res, "status"), "failed"))
                h100_failed++;
        }
        cr_expect_geq(cpu_ok, 1, "the CPU's results were lost: %s", r.out);
        cr_expect_eq(h100_failed, 1);
        json_decref(j);
        tu_result_free(&r);
        fake_close(&f);
    }
    free(pocl);
    tu_rmdir(tdir);
    free(tdir);
}
