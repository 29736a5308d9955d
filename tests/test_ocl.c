/* OpenCL runtime layer on the machine's real driver (PoCL in CI): discovery
 * and the profile picked from the device's own queries, --device selection,
 * buffers, kernel builds with their logs, and timed launches whose every
 * output element is checked on the host.
 *
 * The cross-check test queries OpenCL directly, as an oracle independent of
 * src/ocl; nothing else here sees CL/cl.h. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bw_hook.h"
#include "model_profile.h"
#include "ocl_buffer.h"
#include "ocl_context.h"
#include "ocl_internal.h"
#include "ocl_device.h"
#include "ocl_error.h"
#include "ocl_program.h"
#include "test_util.h"
#include "model_profile_priv.h"

static ocl_platforms *discover(void)
{
    model_profiles *profiles = NULL;
    ocl_platforms *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_profiles_load_default(&profiles, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_discover(profiles, &p, &err), BW_OK, "%s", bw_error_text(&err));
    /* the device infos must not point into the profiles */
    model_profiles_free(profiles);
    cr_assert_not_null(p);
    return p;
}

/* index of the first CPU device; every CI machine has PoCL */
static size_t cpu_device(const ocl_platforms *p)
{
    for (size_t i = 0; i < ocl_device_count(p); i++)
        if (ocl_device_at(p, i)->type == OCL_TYPE_CPU)
            return i;
    cr_assert_fail("no CPU device: install pocl-opencl-icd");
    return 0;
}

static int has(const char *hay, const char *needle)
{
    return hay && strstr(hay, needle) != NULL;
}

static int has_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (!strncasecmp(hay, needle, n))
            return 1;
    return 0;
}

Test(ocl, discovery_lists_devices)
{
    ocl_platforms *p = discover();
    size_t n = ocl_device_count(p);
    cr_assert_geq(n, 1);
    for (size_t i = 0; i < n; i++) {
        const ocl_device_info *d = ocl_device_at(p, i);
        cr_assert_not_null(d);
        cr_expect_eq(d->index, i);
        cr_expect(d->name && *d->name, "device %zu has no name", i);
        cr_expect(d->platform_name && *d->platform_name);
        cr_expect(!strcmp(d->type_name, "gpu") || !strcmp(d->type_name, "cpu") ||
                      !strcmp(d->type_name, "accelerator") || !strcmp(d->type_name, "other"),
                  "%s", d->type_name);
        cr_expect(!strcmp(d->local_mem_type, "local") || !strcmp(d->local_mem_type, "global") ||
                      !strcmp(d->local_mem_type, "none"),
                  "%s", d->local_mem_type);
        cr_expect_gt(d->max_alloc_bytes, 0);
        cr_expect_leq(d->max_alloc_bytes, d->global_mem_bytes);
        cr_expect_gt(d->compute_units, 0);
        cr_expect_not_null(d->profile_name);
        cr_expect(d->profile_why && *d->profile_why);
        bw_error err = BW_ERROR_INIT;
        cr_expect_eq(model_geometry_check(&d->geo, &err), BW_OK, "%s", bw_error_text(&err));
        bw_error_clear(&err);
    }
    cr_expect_null(ocl_device_at(p, n));
    ocl_platforms_free(p);
}

/* The cpu profile as stored in data/profiles.json: the values a device
 * query that is not available leaves in place. */
static model_geometry stored_cpu_profile(void)
{
    model_profiles *profiles = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_profiles_load_default(&profiles, &err), BW_OK, "%s", bw_error_text(&err));
    model_geometry g = { 0, 0, 0, 0, 0, 0 };
    for (size_t i = 0; i < model_profiles_count(profiles); i++)
        if (!strcmp(model_profiles_at(profiles, i)->name, "cpu"))
            g = model_profiles_at(profiles, i)->geo;
    model_profiles_free(profiles);
    cr_assert_gt(g.lanes, 0, "data/profiles.json has no cpu profile");
    return g;
}

/* Lanes, sector and line come from the device's own queries where it
 * answers them (PoCL reports a 0-byte cache line on some CPUs: then the
 * stored values stay, and the reason says the query was not available). */
Test(ocl, cpu_profile_from_device_queries)
{
    ocl_platforms *p = discover();
    const ocl_device_info *d = ocl_device_at(p, cpu_device(p));
    model_geometry stored = stored_cpu_profile();
    cr_expect_str_eq(d->type_name, "cpu");
    cr_expect_str_eq(d->profile_name, "cpu");
    if (d->preferred_vector_width_float > 0)
        cr_expect_eq(d->geo.lanes, (int)d->preferred_vector_width_float);
    else
        cr_expect_eq(d->geo.lanes, stored.lanes);
    /* sector and line both take the device's line, which any size in the
     * geometry's range makes valid */
    if (d->global_cache_line_bytes > 0 && d->global_cache_line_bytes <= MODEL_MAX_UNIT) {
        cr_expect_eq(d->geo.sector, (int64_t)d->global_cache_line_bytes);
        cr_expect_eq(d->geo.line, (int64_t)d->global_cache_line_bytes);
    } else {
        cr_expect_eq(d->geo.sector, stored.sector);
        cr_expect_eq(d->geo.line, stored.line);
        if (d->global_cache_line_bytes == 0)
            cr_expect(has(d->profile_why, "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE not available"), "%s",
                      d->profile_why);
    }
    cr_expect_eq(d->geo.banks, 0, "a CPU has no banked local memory");
    cr_expect(has(d->profile_why, "device type is cpu"), "%s", d->profile_why);
    cr_expect(has(d->profile_why, "CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT"), "%s", d->profile_why);
    cr_expect(has(d->profile_why, "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE"), "%s", d->profile_why);
    /* no vendor extension on PoCL, so no vendor values */
    if (!has(d->extensions, "cl_nv_device_attribute_query"))
        cr_expect_eq(d->warp_size_nv, 0);
    if (!has(d->extensions, "cl_amd_device_attribute_query"))
        cr_expect_eq(d->wavefront_width_amd, 0);
    if (!has(d->extensions, "cl_intel_required_subgroup_size"))
        cr_expect_null(d->sub_group_sizes_intel);
    ocl_platforms_free(p);
}

/* The values bwlab reports equal what OpenCL itself answers. */
Test(ocl, values_match_direct_queries)
{
    ocl_platforms *p = discover();
    cl_uint np = 0;
    cr_assert_eq(clGetPlatformIDs(0, NULL, &np), CL_SUCCESS);
    cl_platform_id *plats = calloc(np, sizeof *plats);
    cr_assert_eq(clGetPlatformIDs(np, plats, NULL), CL_SUCCESS);
    size_t seen = 0;
    for (cl_uint i = 0; i < np; i++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS)
            continue;
        cl_device_id *devs = calloc(nd, sizeof *devs);
        cr_assert_eq(clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, nd, devs, NULL), CL_SUCCESS);
        for (cl_uint k = 0; k < nd; k++, seen++) {
            const ocl_device_info *d = ocl_device_at(p, seen);
            cr_assert_not_null(d);
            char name[1024] = "";
            cl_uint width = 0, line = 0, cus = 0;
            cl_ulong alloc = 0, mem = 0, cache = 0;
            cl_device_type type = 0;
            clGetDeviceInfo(devs[k], CL_DEVICE_NAME, sizeof name - 1, name, NULL);
            clGetDeviceInfo(devs[k], CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof width, &width,
                            NULL);
            clGetDeviceInfo(devs[k], CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof line, &line, NULL);
            clGetDeviceInfo(devs[k], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
            clGetDeviceInfo(devs[k], CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL);
            clGetDeviceInfo(devs[k], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
            clGetDeviceInfo(devs[k], CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
            clGetDeviceInfo(devs[k], CL_DEVICE_TYPE, sizeof type, &type, NULL);
            cr_expect(strstr(name, d->name) != NULL, "'%s' vs '%s'", name, d->name);
            cr_expect_eq(d->preferred_vector_width_float, width);
            cr_expect_eq(d->global_cache_line_bytes, line);
            cr_expect_eq(d->compute_units, cus);
            cr_expect_eq(d->max_alloc_bytes, alloc);
            cr_expect_eq(d->global_mem_bytes, mem);
            cr_expect_eq(d->global_cache_bytes, cache);
            cr_expect_eq(d->type == OCL_TYPE_CPU, (type & CL_DEVICE_TYPE_CPU) && !(type & CL_DEVICE_TYPE_GPU));
            cr_expect_eq(d->platform_index, i);
        }
        free(devs);
    }
    cr_expect_eq(seen, ocl_device_count(p));
    free(plats);
    ocl_platforms_free(p);
}

/* Discovery with profiles given as JSON text; returns the CPU device's info
 * (valid until *out is freed). */
static const ocl_device_info *discover_with(const char *json, ocl_platforms **out)
{
    model_profiles *profiles = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_profiles_parse(json, "test profiles", &profiles, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_assert_eq(ocl_discover(profiles, out, &err), BW_OK, "%s", bw_error_text(&err));
    model_profiles_free(profiles);
    return ocl_device_at(*out, cpu_device(*out));
}

/* The generic profile's warp width comes from a probe kernel's
 * CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE. */
Test(ocl, lanes_from_probe_kernel)
{
    static const char *json =
        "{\"profiles\": [{\"name\": \"any\", \"lanes\": 3, \"sector\": 16, \"line\": 16,"
        " \"banks\": 0, \"bank_width\": 4,"
        " \"lanes_from\": \"preferred_work_group_size_multiple\", \"match\": {}}]}";
    ocl_platforms *p = NULL;
    const ocl_device_info *d = discover_with(json, &p);
    cr_expect_str_eq(d->profile_name, "any");

    /* the same figure through a kernel built with the public API */
    ocl_context *c = NULL;
    ocl_program *prog = NULL;
    ocl_kernel *k = NULL;
    bw_error err = BW_ERROR_INIT;
    size_t multiple = 0;
    cr_assert_eq(ocl_context_create(p, d->index, &c, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_program_build(c, "__kernel void z(__global uint *p) { p[get_global_id(0)] = 0u; }",
                                   "z.cl", NULL, &prog, &err),
                 BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_kernel_create(prog, "z", &k, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_kernel_work_group_info(k, NULL, &multiple, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_gt(multiple, 0);
    cr_expect_eq(d->geo.lanes, (int)multiple);
    cr_expect(has(d->profile_why, "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE"), "%s", d->profile_why);
    cr_expect(has(d->profile_why, "no other profile matched"), "%s", d->profile_why);
    /* sector and line were not asked for */
    cr_expect_eq(d->geo.sector, 16);
    cr_expect_eq(d->geo.line, 16);
    ocl_kernel_free(k);
    ocl_program_free(prog);
    ocl_context_free(c);
    ocl_platforms_free(p);
}

/* A device value that would break the geometry is not applied, and the
 * reason says so; a query the device cannot answer keeps the stored value. */
Test(ocl, device_value_that_breaks_geometry_is_kept_out)
{
    ocl_platforms *p = discover();
    uint32_t cl_line = ocl_device_at(p, cpu_device(p))->global_cache_line_bytes;
    ocl_platforms_free(p);
    if (cl_line == 0)
        cr_skip("the CPU device reports no cache line (CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE = 0), "
                "so it has no value to keep out; the recorded device tables cover this case");
    char json[1024];
    /* stored sector 2*line: the device's line alone would be smaller than it */
    snprintf(json, sizeof json,
             "{\"profiles\": [{\"name\": \"odd\", \"lanes\": 5, \"sector\": %u, \"line\": %u,"
             " \"banks\": 4, \"bank_width\": 8, \"lanes_from\": \"warp_size_nv\","
             " \"line_from\": \"global_mem_cacheline_size\", \"match\": {\"type\": \"cpu\"}}]}",
             2 * cl_line, 2 * cl_line);
    const ocl_device_info *d = discover_with(json, &p);
    cr_expect_str_eq(d->profile_name, "odd");
    cr_expect_eq(d->geo.line, 2 * (int64_t)cl_line, "the stored line stays");
    cr_expect_eq(d->geo.sector, 2 * (int64_t)cl_line);
    cr_expect_eq(d->geo.lanes, 5, "no NVIDIA warp size on this device");
    cr_expect_eq(d->geo.banks, 4);
    cr_expect_eq(d->geo.bank_width, 8);
    cr_expect(has(d->profile_why, "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE"), "%s", d->profile_why);
    cr_expect(has(d->profile_why, "sector size"), "the geometry's complaint: %s", d->profile_why);
    cr_expect(has(d->profile_why, "CL_DEVICE_WARP_SIZE_NV not available"), "%s", d->profile_why);
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(model_geometry_check(&d->geo, &err), BW_OK, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    ocl_platforms_free(p);
}

/* No profile matches: the last one is used, and the reason says so. */
Test(ocl, no_matching_profile_uses_the_last)
{
    static const char *json =
        "{\"profiles\": [{\"name\": \"first\", \"lanes\": 2, \"sector\": 8, \"line\": 8, \"banks\": 0,"
        " \"bank_width\": 4, \"match\": {\"vendor\": [\"no-such-vendor\"]}},"
        " {\"name\": \"last\", \"lanes\": 4, \"sector\": 8, \"line\": 16, \"banks\": 0,"
        " \"bank_width\": 4, \"match\": {\"type\": \"accelerator\"}}]}";
    ocl_platforms *p = NULL;
    const ocl_device_info *d = discover_with(json, &p);
    cr_expect_str_eq(d->profile_name, "last");
    cr_expect_eq(d->geo.lanes, 4);
    cr_expect_eq(d->geo.line, 16);
    cr_expect(has(d->profile_why, "no profile matched"), "%s", d->profile_why);
    ocl_platforms_free(p);
}

static void select_ok(const ocl_platforms *p, const char *spec, size_t **idx, size_t *n)
{
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(ocl_select(p, spec, idx, n, &err), BW_OK, "--device %s: %s", spec ? spec : "(none)",
                 bw_error_text(&err));
    cr_assert_geq(*n, 1);
    cr_assert_not_null(*idx);
}

Test(ocl, select_devices)
{
    ocl_platforms *p = discover();
    size_t count = ocl_device_count(p), cpu = cpu_device(p);
    size_t *idx = NULL, n = 0;

    select_ok(p, "0", &idx, &n);
    cr_expect_eq(n, 1);
    cr_expect_eq(idx[0], 0);
    free(idx);

    select_ok(p, "all", &idx, &n);
    cr_expect_eq(n, count);
    for (size_t i = 0; i < n; i++)
        cr_expect_eq(idx[i], i);
    free(idx);

    select_ok(p, "cpu", &idx, &n);
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        cr_expect_eq(ocl_device_at(p, idx[i])->type, OCL_TYPE_CPU);
        found |= idx[i] == cpu;
    }
    cr_expect(found);
    free(idx);

    select_ok(p, "CPU", &idx, &n);
    free(idx);

    /* a lower-case part of the name from the middle of it */
    const char *name = ocl_device_at(p, cpu)->name;
    size_t len = strlen(name);
    cr_assert_geq(len, 4);
    char part[64];
    size_t take = len - 2 < sizeof part - 1 ? len - 2 : sizeof part - 1;
    for (size_t i = 0; i < take; i++)
        part[i] = (char)((name[1 + i] >= 'A' && name[1 + i] <= 'Z') ? name[1 + i] + 32 : name[1 + i]);
    part[take] = '\0';
    select_ok(p, part, &idx, &n);
    found = 0;
    for (size_t i = 0; i < n; i++) {
        found |= idx[i] == cpu;
        cr_expect(has_ci(ocl_device_at(p, idx[i])->name, part));
    }
    cr_expect(found, "'%s' did not select '%s'", part, name);
    free(idx);

    /* default: the first GPU, else the first device */
    size_t want = 0;
    for (size_t i = count; i-- > 0;)
        if (ocl_device_at(p, i)->type == OCL_TYPE_GPU)
            want = i;
    cr_expect_eq(ocl_default_device(p), want);
    select_ok(p, NULL, &idx, &n);
    cr_expect_eq(n, 1);
    cr_expect_eq(idx[0], want);
    free(idx);
    ocl_platforms_free(p);
}

static void select_fails(const ocl_platforms *p, const char *spec)
{
    bw_error err = BW_ERROR_INIT;
    size_t *idx = (size_t *)&err, n = 99;
    cr_expect_eq(ocl_select(p, spec, &idx, &n, &err), BW_E_NODEVICE, "--device %s", spec);
    cr_expect_null(idx);
    cr_expect_eq(n, 0);
    char quoted[128];
    snprintf(quoted, sizeof quoted, "'%s'", spec);
    cr_expect(has(bw_error_text(&err), quoted), "%s", bw_error_text(&err));
    /* the message lists the devices there are */
    cr_expect(has(bw_error_text(&err), ocl_device_at(p, 0)->name), "%s", bw_error_text(&err));
    bw_error_clear(&err);
}

Test(ocl, select_unknown_devices)
{
    ocl_platforms *p = discover();
    size_t count = ocl_device_count(p);
    int gpus = 0;
    for (size_t i = 0; i < count; i++)
        gpus += ocl_device_at(p, i)->type == OCL_TYPE_GPU;
    if (!gpus)
        select_fails(p, "gpu");
    char index[32];
    snprintf(index, sizeof index, "%zu", count);
    select_fails(p, index);
    select_fails(p, "7000");
    select_fails(p, "99999999999999999999999999");
    select_fails(p, "no-such-device");
    select_fails(p, "");
    select_fails(p, "0x0"); /* an index is plain digits; anything else is a name */
    ocl_platforms_free(p);
}

Test(ocl, no_platform)
{
    /* Criterion runs each test in a fresh process, so the ICD loader has
     * not read its vendor list yet */
    char *dir = tu_temp_dir();
    setenv("OCL_ICD_VENDORS", dir, 1);
    model_profiles *profiles = NULL;
    ocl_platforms *p = (ocl_platforms *)&profiles;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_profiles_load_default(&profiles, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(ocl_discover(profiles, &p, &err), BW_E_NOPLATFORM);
    cr_expect_null(p);
    cr_expect(has(bw_error_text(&err), "pocl-opencl-icd"), "%s", bw_error_text(&err));
    cr_expect(has(bw_error_text(&err), "OCL_ICD_VENDORS"), "%s", bw_error_text(&err));
    cr_expect_eq(bw_code_exit_status(err.code), 3);
    bw_error_clear(&err);
    model_profiles_free(profiles);
    tu_rmdir(dir);
    free(dir);
}

typedef struct fixture {
    ocl_platforms *p;
    ocl_context *c;
} fixture;

static fixture open_cpu(void)
{
    fixture f = { discover(), NULL };
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(ocl_context_create(f.p, cpu_device(f.p), &f.c, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_expect_eq(ocl_context_device(f.c), ocl_device_at(f.p, cpu_device(f.p)));
    return f;
}

static void close_fixture(fixture *f)
{
    ocl_context_free(f->c);
    ocl_platforms_free(f->p);
}

static const char *triple_src = "__kernel void triple(__global const uint *src, __global uint *dst)\n"
                                "{\n"
                                "    size_t i = get_global_id(0);\n"
                                "    dst[i] = src[i] * 3u + (uint)i;\n"
                                "}\n";

Test(ocl, kernel_runs_and_every_element_checks)
{
    fixture f = open_cpu();
    bw_error err = BW_ERROR_INIT;
    const size_t n = (size_t)1 << 20;
    const uint64_t bytes = n * sizeof(uint32_t);
    uint32_t *host = malloc(bytes), *back = malloc(bytes);
    cr_assert(host && back);
    uint64_t seed = 42;
    for (size_t i = 0; i < n; i++)
        host[i] = (uint32_t)tu_rand(&seed);

    ocl_buffer *src = NULL, *dst = NULL;
    ocl_program *prog = NULL;
    ocl_kernel *k = NULL;
    cr_assert_eq(ocl_buffer_create(f.c, bytes, "src", &src, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_buffer_create(f.c, bytes, "dst", &dst, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(ocl_buffer_size(src), bytes);
    cr_assert_eq(ocl_buffer_write(f.c, src, 0, host, bytes, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_program_build(f.c, triple_src, "triple.cl", "-cl-std=CL1.2", &prog, &err), BW_OK,
                 "%s", bw_error_text(&err));
    cr_assert_eq(ocl_kernel_create(prog, "triple", &k, &err), BW_OK, "%s", bw_error_text(&err));
    /* the kernel keeps its program alive */
    ocl_program_free(prog);
    cr_assert_eq(ocl_kernel_arg_buffer(k, 0, src, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_kernel_arg_buffer(k, 1, dst, &err), BW_OK, "%s", bw_error_text(&err));

    size_t max_wg = 0, multiple = 0;
    cr_assert_eq(ocl_kernel_work_group_info(k, &max_wg, &multiple, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_expect_geq(max_wg, 1);
    cr_expect_geq(multiple, 1);

    /* runtime-chosen and explicit work-group sizes */
    uint64_t locals[2] = { 0, multiple <= max_wg ? multiple : 1 };
    for (int r = 0; r < 2; r++) {
        memset(back, 0, bytes);
        cr_assert_eq(ocl_buffer_write(f.c, dst, 0, back, bytes, &err), BW_OK, "%s", bw_error_text(&err));
        ocl_timing t = { -1, -1 };
        cr_assert_eq(ocl_kernel_run(f.c, k, n, locals[r], &t, &err), BW_OK, "%s", bw_error_text(&err));
        cr_expect_gt(t.event_ns, 0.0);
        cr_expect_gt(t.wall_ns, 0.0);
        /* the host clock spans the event, give or take clock differences */
        cr_expect_geq(t.wall_ns, t.event_ns * 0.5, "wall %.0f ns, event %.0f ns", t.wall_ns,
                      t.event_ns);
        cr_assert_eq(ocl_buffer_read(f.c, dst, 0, back, bytes, &err), BW_OK, "%s", bw_error_text(&err));
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < n; i++)
            if (back[i] != host[i] * 3u + (uint32_t)i && bad++ == 0)
                first = i;
        cr_expect_eq(bad, 0, "local %llu: %zu wrong elements, first at %zu: %u", (unsigned long long)locals[r],
                     bad, first, back[first]);
    }
    cr_expect_eq(ocl_context_finish(f.c, &err), BW_OK, "%s", bw_error_text(&err));

    /* partial reads and writes at an offset */
    uint32_t four[4] = { 1, 2, 3, 4 }, got[4] = { 0 };
    cr_assert_eq(ocl_buffer_write(f.c, dst, 16, four, sizeof four, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_buffer_read(f.c, dst, 16, got, sizeof got, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_arr_eq(got, four, sizeof four);
    cr_expect_eq(ocl_buffer_read(f.c, dst, bytes - 8, got, 16, &err), BW_E_RANGE);
    cr_expect(has(bw_error_text(&err), "'dst'"), "%s", bw_error_text(&err));
    cr_expect_eq(ocl_buffer_write(f.c, dst, UINT64_MAX, four, 16, &err), BW_E_RANGE);

    /* global not a multiple of local */
    ocl_timing t;
    cr_expect_eq(ocl_kernel_run(f.c, k, 1000, 64, &t, &err), BW_E_USAGE);
    cr_expect(has(bw_error_text(&err), "'triple'"), "%s", bw_error_text(&err));
    bw_error_clear(&err);

    ocl_kernel_free(k);
    ocl_buffer_free(src);
    ocl_buffer_free(dst);
    free(host);
    free(back);
    close_fixture(&f);
}

Test(ocl, long_and_local_arguments)
{
    static const char *src =
        "__kernel void rot(__global long *dst, long add, uint shift, __local uint *tmp)\n"
        "{\n"
        "    size_t l = get_local_id(0), n = get_local_size(0);\n"
        "    tmp[l] = (uint)l;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    dst[get_global_id(0)] = (long)tmp[(l + shift) % n] + add;\n"
        "}\n";
    fixture f = open_cpu();
    bw_error err = BW_ERROR_INIT;
    enum { N = 1024, L = 64 };
    int64_t out[N];
    const int64_t add = -((int64_t)1 << 40);
    ocl_buffer *dst = NULL;
    ocl_program *prog = NULL;
    ocl_kernel *k = NULL;
    ocl_timing t;
    cr_assert_eq(ocl_buffer_create(f.c, sizeof out, "dst", &dst, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_program_build(f.c, src, "rot.cl", NULL, &prog, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_kernel_create(prog, "rot", &k, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_kernel_arg_buffer(k, 0, dst, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_kernel_arg_i64(k, 1, add, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_kernel_arg_u32(k, 2, 5, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_kernel_arg_local(k, 3, L * sizeof(uint32_t), &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_kernel_run(f.c, k, N, L, &t, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_buffer_read(f.c, dst, 0, out, sizeof out, &err), BW_OK, "%s", bw_error_text(&err));
    for (int i = 0; i < N; i++)
        cr_expect_eq(out[i], (int64_t)((i % L + 5) % L) + add, "element %d", i);
    /* a bad argument index names the kernel and the argument */
    cr_expect_eq(ocl_kernel_arg_u32(k, 9, 1, &err), BW_E_OPENCL);
    cr_expect(has(bw_error_text(&err), "CL_INVALID_ARG_INDEX") && has(bw_error_text(&err), "'rot'"), "%s",
              bw_error_text(&err));
    bw_error_clear(&err);
    ocl_kernel_free(k);
    ocl_program_free(prog);
    ocl_buffer_free(dst);
    close_fixture(&f);
}

Test(ocl, build_error_carries_the_log)
{
    static const char *bad = "__kernel void broken(__global uint *dst)\n"
                             "{\n"
                             "    dst[get_global_id(0)] = bwlab_undeclared_thing;\n"
                             "}\n";
    fixture f = open_cpu();
    bw_error err = BW_ERROR_INIT;
    ocl_program *prog = (ocl_program *)&err;
    cr_assert_eq(ocl_program_build(f.c, bad, "broken.cl", NULL, &prog, &err), BW_E_BUILD);
    cr_expect_null(prog);
    const char *m = bw_error_text(&err);
    cr_expect(has(m, "'broken.cl'"), "%s", m);
    cr_expect(has(m, ocl_context_device(f.c)->name), "%s", m);
    cr_expect(has(m, "CL_BUILD_PROGRAM_FAILURE"), "%s", m);
    /* the identifier can only come from the compiler's log */
    cr_expect(has(m, "bwlab_undeclared_thing"), "%s", m);
    bw_error_clear(&err);

    /* a missing kernel name */
    cr_assert_eq(ocl_program_build(f.c, triple_src, "triple.cl", NULL, &prog, &err), BW_OK, "%s",
                 bw_error_text(&err));
    ocl_kernel *k = (ocl_kernel *)&err;
    cr_expect_eq(ocl_kernel_create(prog, "no_such_kernel", &k, &err), BW_E_OPENCL);
    cr_expect_null(k);
    cr_expect(has(bw_error_text(&err), "CL_INVALID_KERNEL_NAME") &&
                  has(bw_error_text(&err), "'no_such_kernel'"),
              "%s", bw_error_text(&err));
    bw_error_clear(&err);
    ocl_program_free(prog);
    close_fixture(&f);
}

/* A 1000-byte buffer of 0xEE, then bytes [3, 993) filled with a 4-byte
 * pattern from the buffer's start: byte i holds pattern[i % 4] there (3 is
 * no multiple of 4, nor is the 990-byte length), the bytes around untouched. */
static void check_fill_at_odd_offset(fixture *f, const char *name)
{
    enum { N = 1000, OFF = 3, LEN = 990 };
    static const uint8_t pattern[4] = { 0x11, 0x22, 0x33, 0x44 };
    uint8_t host[N], back[N];
    bw_error err = BW_ERROR_INIT;
    ocl_buffer *b = NULL;
    cr_assert_eq(ocl_buffer_create(f->c, N, name, &b, &err), BW_OK, "%s", bw_error_text(&err));
    memset(host, 0xEE, N);
    cr_assert_eq(ocl_buffer_write(f->c, b, 0, host, N, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_buffer_fill(f->c, b, OFF, LEN, pattern, sizeof pattern, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_assert_eq(ocl_buffer_read(f->c, b, 0, back, N, &err), BW_OK, "%s", bw_error_text(&err));
    for (int i = 0; i < N; i++) {
        uint8_t want = i < OFF || i >= OFF + LEN ? 0xEE : pattern[i % 4];
        cr_expect_eq(back[i], want, "%s: byte %d is 0x%02x, not 0x%02x", name, i, back[i], want);
    }
    /* one byte, and a range of less than one pattern, mid-pattern */
    cr_assert_eq(ocl_buffer_fill(f->c, b, 1, 1, pattern, sizeof pattern, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_buffer_fill(f->c, b, 997, 2, pattern, sizeof pattern, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_buffer_read(f->c, b, 0, back, N, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect(back[0] == 0xEE && back[1] == 0x22 && back[2] == 0xEE, "%s: %02x %02x %02x", name, back[0], back[1],
              back[2]);
    cr_expect(back[996] == 0xEE && back[997] == 0x22 && back[998] == 0x33 && back[999] == 0xEE,
              "%s: %02x %02x %02x %02x", name, back[996], back[997], back[998], back[999]);
    /* a pattern size clEnqueueFillBuffer has not, and a range past the end */
    cr_expect_eq(ocl_buffer_fill(f->c, b, 0, 9, pattern, 3, &err), BW_E_USAGE);
    cr_expect(has(bw_error_text(&err), "3 bytes") && has(bw_error_text(&err), name), "%s", bw_error_text(&err));
    cr_expect_eq(ocl_buffer_fill(f->c, b, 996, 8, pattern, 4, &err), BW_E_RANGE);
    bw_error_clear(&err);
    ocl_buffer_free(b);
}

Test(ocl, fill_at_an_odd_offset_keeps_the_pattern_aligned_to_the_buffer)
{
    fixture f = open_cpu();
    check_fill_at_odd_offset(&f, "filled");
    /* the driver's fill refused (test builds only): the host writes the same bytes */
    if (bw_hook_enabled()) {
        setenv("BWLAB_TEST_FAULTS", "fill=refused", 1);
        check_fill_at_odd_offset(&f, "refused");
        unsetenv("BWLAB_TEST_FAULTS");
    }
    close_fixture(&f);
}

/* A shifted buffer starts `shift` bytes into an allocation of its bytes
 * plus the shift, where the device's base alignment divides the shift:
 * its own bytes hold what is written, its own size bounds every access,
 * and the allocation's first bytes (seen through a plain view of the same
 * memory) are not its. A shift the alignment does not divide gives a
 * plain buffer. */
Test(ocl, a_shifted_buffer_starts_past_its_allocation)
{
    fixture f = open_cpu();
    cl_uint align_bits = 0;
    cl_device_id dev = f.c->dev;
    cr_assert_eq(clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL),
                 CL_SUCCESS);
    uint64_t align = align_bits / 8, shift = 2048;
    cr_assert(align > 0 && align <= shift, "base alignment %llu B", (unsigned long long)align);
    bw_error err = BW_ERROR_INIT;
    ocl_buffer *b = NULL;
    uint64_t applied = 1;
    cr_assert_eq(ocl_buffer_create_shifted(f.c, 4096, shift, "dst", &b, &applied, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_expect_eq(applied, shift % align == 0 ? shift : 0);
    uint32_t in[1024], out[1024];
    for (int i = 0; i < 1024; i++)
        in[i] = 0x1000u + (uint32_t)i;
    cr_assert_eq(ocl_buffer_write(f.c, b, 0, in, sizeof in, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(ocl_buffer_read(f.c, b, 0, out, sizeof out, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_arr_eq(in, out, sizeof in);
    /* the first element sits `applied` bytes into the allocation */
    if (applied) {
        uint32_t whole[1536];
        cr_assert_eq(clEnqueueReadBuffer(f.c->queue, b->parent, CL_TRUE, 0, sizeof whole, whole, 0, NULL, NULL),
                     CL_SUCCESS);
        cr_expect_eq(whole[applied / 4], in[0]);
        cr_expect_eq(whole[applied / 4 + 1023], in[1023]);
    }
    cr_expect_eq(ocl_buffer_read(f.c, b, 4, out, sizeof out, &err), BW_E_RANGE, "reads past its 4096 bytes");
    bw_error_clear(&err);
    ocl_buffer_free(b);
    /* 100 B: a shift no alignment of 128 B or more divides */
    cr_assert_eq(ocl_buffer_create_shifted(f.c, 4096, 100, "dst", &b, &applied, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_expect_eq(applied, 100 % align == 0 ? 100 : 0);
    cr_assert_eq(ocl_buffer_write(f.c, b, 0, in, sizeof in, &err), BW_OK, "%s", bw_error_text(&err));
    ocl_buffer_free(b);
    close_fixture(&f);
}

Test(ocl, buffer_too_big)
{
    fixture f = open_cpu();
    bw_error err = BW_ERROR_INIT;
    uint64_t max = ocl_context_device(f.c)->max_alloc_bytes;
    ocl_buffer *b = (ocl_buffer *)&err;
    cr_assert_eq(ocl_buffer_create(f.c, max + 1, "src", &b, &err), BW_E_TOOBIG);
    cr_expect_null(b);
    const char *m = bw_error_text(&err);
    char num[32];
    snprintf(num, sizeof num, "(%llu B)", (unsigned long long)(max + 1));
    cr_expect(has(m, "'src'"), "%s", m);
    cr_expect(has(m, num), "%s", m);
    cr_expect(has(m, "CL_DEVICE_MAX_MEM_ALLOC_SIZE"), "%s", m);
    cr_expect(has(m, "--size"), "%s", m);
    cr_expect_eq(bw_code_exit_status(err.code), 2);
    bw_error_clear(&err);
    cr_expect_eq(ocl_buffer_create(f.c, 0, "dst", &b, &err), BW_E_USAGE);
    cr_expect(has(bw_error_text(&err), "'dst'"), "%s", bw_error_text(&err));
    bw_error_clear(&err);
    close_fixture(&f);
}

Test(ocl, error_names)
{
    cr_expect_str_eq(ocl_error_name(0), "CL_SUCCESS");
    cr_expect_str_eq(ocl_error_name(-5), "CL_OUT_OF_RESOURCES");
    cr_expect_str_eq(ocl_error_name(-11), "CL_BUILD_PROGRAM_FAILURE");
    cr_expect_str_eq(ocl_error_name(-61), "CL_INVALID_BUFFER_SIZE");
    cr_expect_str_eq(ocl_error_name(-72), "CL_MAX_SIZE_RESTRICTION_EXCEEDED");
    cr_expect_str_eq(ocl_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
    cr_expect_str_eq(ocl_error_name(CL_INVALID_KERNEL_NAME), "CL_INVALID_KERNEL_NAME");
    cr_expect_str_eq(ocl_error_name(-20), "CL_UNKNOWN_ERROR");
    cr_expect_str_eq(ocl_error_name(12345), "CL_UNKNOWN_ERROR");
    cr_expect_str_eq(ocl_error_name(-99999), "CL_UNKNOWN_ERROR");
    /* every code from 0 to -72 that OpenCL defines has its own name */
    for (int c = 0; c >= -72; c--)
        if (c > -20 || c <= -30)
            cr_expect_str_neq(ocl_error_name(c), "CL_UNKNOWN_ERROR", "%d", c);

    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(ocl_error_set(&err, BW_E_OPENCL, "clCreateBuffer", -61, "buffer '%s' (%s)", "src",
                               "2.00 GiB"),
                 BW_E_OPENCL);
    cr_expect_str_eq(bw_error_text(&err),
                     "clCreateBuffer failed: CL_INVALID_BUFFER_SIZE (-61) for buffer 'src' (2.00 GiB)");
    cr_expect_eq(err.code, BW_E_OPENCL);
    bw_error_clear(&err);
    cr_expect_eq(ocl_error_set(NULL, BW_E_TOOBIG, "clFinish", -5, "x"), BW_E_TOOBIG);
}

Test(ocl, free_accepts_null)
{
    ocl_platforms_free(NULL);
    ocl_context_free(NULL);
    ocl_buffer_free(NULL);
    ocl_program_free(NULL);
    ocl_kernel_free(NULL);
}

Test(ocl, context_for_missing_device)
{
    ocl_platforms *p = discover();
    ocl_context *c = (ocl_context *)&p;
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(ocl_context_create(p, ocl_device_count(p), &c, &err), BW_E_NODEVICE);
    cr_expect_null(c);
    bw_error_clear(&err);
    ocl_platforms_free(p);
}
